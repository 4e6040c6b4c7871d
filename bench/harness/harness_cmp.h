/* bench/harness/harness_cmp.h: the harness's host check of one output
 * tensor against its fp64 reference (harness_check.cuh), in chunks that
 * host threads can share.  The values checked come from a source: the
 * output as the implementation wrote it (f32, f64, i32, u32, f16, bf16 or
 * fp64 when dt < 0), or, for the task self-check, a constant or a copy of
 * an input with zeros past its end, read in place (no n-element copy).
 *
 * The work is cut into chunks whose size depends on n only, every chunk
 * writes its own partial result and the partials are merged in chunk order,
 * so the verdict and the printed numbers do not depend on how many threads
 * ran.  The verdict is the serial loop's: an element fails when it is off
 * by more than harness_tol.h's bound, a non-finite reference must be
 * matched exactly, a non-finite output fails; the reason is the last
 * non-finite failure in element order, else "tolerance", else
 * "relative-l2".  Plain C, also compiled by nvcc; the unit test is
 * tests/bench/test_cmp.c. */
#ifndef KA_HARNESS_CMP_H
#define KA_HARNESS_CMP_H

#include <math.h>
#include <stdint.h>
#include "harness_tol.h"
#include "ka_lowp.h"

/* What is compared: element i is value(p, dt, i) for i < n, k after. */
typedef struct ka_cmp_src {
	const void *p;
	int dt; /* KA_TOL_*, or -1 for fp64 */
	long long n;
	double k;
} ka_cmp_src;

/* One chunk's share; merged in chunk order by ka_cmp_merge. */
typedef struct ka_cmp_part {
	long long bad;
	double worst, num, den, scale;
	int nonfinite; /* the last non-finite failure: 0 none, 1 mismatch, 2 in the output */
	int tol;       /* some element was over its bound */
} ka_cmp_part;

/* The check of one tensor: the caller fills the first block; `part` holds
 * `nparts` partials (KA_CMP_PARTS is enough for any n). */
typedef struct ka_cmp_job {
	ka_cmp_src y;
	const double *r;
	long long n;
	double atol, rtol, l2, floor;
	ka_cmp_part *part;
	long long nparts, chunk; /* set by ka_cmp_plan */
	int pass;                /* 0: the scale (largest finite |r|), 1: the elements */
	double scale;
} ka_cmp_job;

typedef struct ka_cmp_result {
	long long bad;
	double worst, l2;
	const char *why;
} ka_cmp_result;

enum { KA_CMP_PARTS = 4096, KA_CMP_MIN_CHUNK = 1 << 16 };

/* Chunks of at least KA_CMP_MIN_CHUNK elements, at most KA_CMP_PARTS of
 * them; returns their count. */
static inline long long ka_cmp_plan(ka_cmp_job *j)
{
	long long c = (j->n + KA_CMP_PARTS - 1) / KA_CMP_PARTS;
	j->chunk = c > (long long)KA_CMP_MIN_CHUNK ? c : (long long)KA_CMP_MIN_CHUNK;
	j->nparts = j->n > 0 ? (j->n + j->chunk - 1) / j->chunk : 0;
	return j->nparts;
}

static inline double ka_cmp_value(const ka_cmp_src *s, long long i)
{
	if (i >= s->n)
		return s->k;
	switch (s->dt) {
	case KA_TOL_F32:
		return ((const float *)s->p)[i];
	case KA_TOL_F64:
	case -1:
		return ((const double *)s->p)[i];
	case KA_TOL_I32:
		return ((const int *)s->p)[i];
	case KA_TOL_F16:
		return ka_f16_to_float(((const uint16_t *)s->p)[i]);
	case KA_TOL_BF16:
		return ka_bf16_to_float(((const uint16_t *)s->p)[i]);
	default:
		return ((const unsigned *)s->p)[i];
	}
}

/* One element into the partial. */
static inline void ka_cmp_elem(const ka_cmp_job *j, double v, double r, ka_cmp_part *p)
{
	if (!isfinite(r)) {
		if (!(isnan(r) ? isnan(v) : v == r)) {
			p->bad++;
			p->nonfinite = 1;
		}
		return;
	}
	if (!isfinite(v)) {
		p->bad++;
		p->nonfinite = 2;
		p->worst = INFINITY;
		return;
	}
	double ratio = ka_tol_elem(v, r, j->atol, j->scale, j->rtol, j->floor, &p->num, &p->den);
	if (ratio > 1.0) {
		p->bad++;
		p->tol = 1;
	}
	if (ratio > p->worst)
		p->worst = ratio;
}

/* The loop over [lo, end) with the source's type resolved once. */
#define KA_CMP_LOOP(T, CONV) \
	do { \
		const T *y_ = (const T *)j->y.p; \
		for (long long i = lo; i < end; i++) \
			ka_cmp_elem(j, (double)CONV(y_[i]), j->r[i], p); \
	} while (0)
#define KA_CMP_AS_IS(x) (x)

static inline void ka_cmp_elems(const ka_cmp_job *j, long long lo, long long hi, ka_cmp_part *p)
{
	/* the source's own elements, then its constant */
	long long end = hi < j->y.n ? hi : j->y.n > lo ? j->y.n : lo;
	switch (j->y.dt) {
	case KA_TOL_F32:
		KA_CMP_LOOP(float, KA_CMP_AS_IS);
		break;
	case KA_TOL_F64:
	case -1:
		KA_CMP_LOOP(double, KA_CMP_AS_IS);
		break;
	case KA_TOL_F16:
		KA_CMP_LOOP(uint16_t, ka_f16_to_float);
		break;
	case KA_TOL_BF16:
		KA_CMP_LOOP(uint16_t, ka_bf16_to_float);
		break;
	default:
		for (long long i = lo; i < end; i++)
			ka_cmp_elem(j, ka_cmp_value(&j->y, i), j->r[i], p);
		break;
	}
	for (long long i = end; i < hi; i++)
		ka_cmp_elem(j, j->y.k, j->r[i], p);
}

/* Chunks [c0, c1) of the current pass; the signature of the harness's
 * ka_ref_parallel_for. */
static inline void ka_cmp_chunks(long long c0, long long c1, void *ctx)
{
	const ka_cmp_job *j = (const ka_cmp_job *)ctx;
	for (long long c = c0; c < c1; c++) {
		long long lo = c * j->chunk, hi = lo + j->chunk < j->n ? lo + j->chunk : j->n;
		ka_cmp_part *p = &j->part[c];
		if (j->pass == 0) {
			double m = 0;
			for (long long i = lo; i < hi; i++)
				if (isfinite(j->r[i]) && fabs(j->r[i]) > m)
					m = fabs(j->r[i]);
			p->scale = m;
		} else {
			double s = p->scale;
			p->bad = 0;
			p->worst = p->num = p->den = 0;
			p->nonfinite = p->tol = 0;
			ka_cmp_elems(j, lo, hi, p);
			p->scale = s;
		}
	}
}

/* The merged verdict, in chunk order. */
static inline ka_cmp_result ka_cmp_merge(const ka_cmp_job *j)
{
	static const char *const nonfinite[3] = {NULL, "non-finite-mismatch", "nan-or-inf-in-output"};
	ka_cmp_result c = {0, 0.0, 0.0, NULL};
	double num = 0, den = 0;
	int nf = 0, tol = 0;
	for (long long k = 0; k < j->nparts; k++) {
		const ka_cmp_part *p = &j->part[k];
		c.bad += p->bad;
		if (p->worst > c.worst)
			c.worst = p->worst;
		num += p->num;
		den += p->den;
		if (p->nonfinite)
			nf = p->nonfinite;
		tol |= p->tol;
	}
	c.why = nf ? nonfinite[nf] : tol ? "tolerance" : NULL;
	c.l2 = ka_tol_l2(num, den);
	if (c.l2 > j->l2 && !c.why) {
		c.bad++;
		c.why = "relative-l2";
	}
	return c;
}

/* The whole check: both passes through `pfor` (the harness's thread pool,
 * or any function that calls fn over [0, n) in pieces). */
static inline ka_cmp_result
ka_cmp_run(ka_cmp_job *j, void (*pfor)(long long n, void (*fn)(long long, long long, void *), void *ctx))
{
	ka_cmp_plan(j);
	j->pass = 0;
	pfor(j->nparts, ka_cmp_chunks, j);
	j->scale = 0;
	for (long long k = 0; k < j->nparts; k++)
		if (j->part[k].scale > j->scale)
			j->scale = j->part[k].scale;
	j->pass = 1;
	pfor(j->nparts, ka_cmp_chunks, j);
	return ka_cmp_merge(j);
}

#endif
