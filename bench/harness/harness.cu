/* bench/harness/harness.cu: the bench harness.  ka-bench links it with a
 * task's reference and two implementations (ka_impl_a = baseline, ka_impl_b
 * = candidate, each from its own object with every other symbol made local)
 * and runs it in separate processes:
 *   harness probe            is there a CUDA device?  (exit 0 yes, 3 no)
 *   harness correct          correctness gate + task self-check
 *   harness perf             interleaved timing, every sample checked,
 *                            post-timing validation
 * The plan arrives on stdin (ending with "end"); the harness then writes
 * "ready" on fd 3 and reads the validation seed ("vseed N"), which the
 * parent draws only now.  It prints one fact per line on fd 3, a pipe the
 * parent owns (see bench/result.c for the reader); the verdict is computed
 * by ka-bench from those lines and the exit status.  Fail closed: any CUDA
 * error ends the run with a "fail" line and exit status 3.  Before the
 * first call into an implementation the process enters a seccomp sandbox
 * (harness_sandbox.h); compute-sanitizer runs ("sandbox 0") go without. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cmath>
#include <ctime>
#include <pthread.h>
#include <unistd.h>
#include "ka_task.h"
#include "harness_sandbox.h"
#include "harness_tol.h"
#include "harness_cmp.h"
#include "ka_lowp.h"
#if !defined(__HIP_PLATFORM_AMD__)
#include <mma.h>
#include <cuda_bf16.h>
#endif

extern "C" int ka_impl_a(const ka_task_args *a, cudaStream_t s);
extern "C" int ka_impl_b(const ka_task_args *a, cudaStream_t s);
typedef int (*impl_fn)(const ka_task_args *, cudaStream_t);

/* Results go to fd 3, a pipe the parent opened, never to stdout, so that
 * nothing an implementation prints can pass for a result line. */
static FILE *R;

#include "harness_util.cuh"

/* ---- plan ------------------------------------------------------------ */

/* the order of bench/spec.h and harness_tol.h */
enum { DT_F32 = KA_TOL_F32, DT_F64 = KA_TOL_F64, DT_I32 = KA_TOL_I32, DT_U32 = KA_TOL_U32, DT_F16 = KA_TOL_F16, DT_BF16 = KA_TOL_BF16 };
enum { D_UNIFORM, D_NORMAL, D_INT };

struct dist { int kind; double a, b; };
struct tensor { char name[32]; int out; int dt; dist d, adv; };
struct config { char name[64]; int visible, samples; size_t work; double grow; int np, nt; long long p[KA_TASK_MAX_PARAMS], n[KA_TASK_MAX_TENSORS]; };
struct plan {
	unsigned long long seed, vseed;
	double atol, rtol, l2;
	int deterministic, nt, ns, nc, samples, sandbox;
	int acc;   /* the type reductions accumulate in (tolerance growth) */
	tensor t[KA_TASK_MAX_TENSORS];
	double slo[KA_TASK_MAX_SCALARS], shi[KA_TASK_MAX_SCALARS];
	config c[64];
};

static size_t dt_size(int dt) { return dt == DT_F64 ? 8 : dt == DT_F16 || dt == DT_BF16 ? 2 : 4; }

/* The floor of harness_tol.h for an output tensor of dtype dt. */
static double floor_of(int dt)
{
	return ka_tol_floor_of(dt);
}

static int parse_dt(const char *s)
{
	if (!strcmp(s, "f32")) return DT_F32;
	if (!strcmp(s, "f64")) return DT_F64;
	if (!strcmp(s, "i32")) return DT_I32;
	if (!strcmp(s, "u32")) return DT_U32;
	if (!strcmp(s, "f16")) return DT_F16;
	if (!strcmp(s, "bf16")) return DT_BF16;
	return -1;
}

static int parse_dist(char **tok, dist *d)
{
	if (!tok[0] || !tok[1] || !tok[2]) return -1;
	d->kind = !strcmp(tok[0], "normal") ? D_NORMAL : !strcmp(tok[0], "int") ? D_INT : D_UNIFORM;
	d->a = atof(tok[1]);
	d->b = atof(tok[2]);
	return 0;
}

static int split(char *line, char **tok, int max)
{
	int n = 0;
	for (char *p = strtok(line, " \t\n"); p && n < max - 1; p = strtok(NULL, " \t\n"))
		tok[n++] = p;
	tok[n] = NULL;
	return n;
}

static int read_config(char **tok, int n, config *c)
{
	int k = 0;
	if (n < 5) return -1;
	snprintf(c->name, sizeof c->name, "%s", tok[1]);
	c->visible = !strcmp(tok[2], "visible");
	c->work = strtoull(tok[3], NULL, 10);
	c->np = atoi(tok[4]);
	k = 5;
	if (c->np < 0 || c->np > KA_TASK_MAX_PARAMS || k + c->np >= n) return -1;
	for (int i = 0; i < c->np; i++) c->p[i] = atoll(tok[k++]);
	c->nt = atoi(tok[k++]);
	if (c->nt < 0 || c->nt > KA_TASK_MAX_TENSORS || k + c->nt > n) return -1;
	for (int i = 0; i < c->nt; i++) c->n[i] = atoll(tok[k++]);
	return 0;
}

static int load_plan(FILE *f, plan *pl)
{
	char line[4096], *tok[64];
	int end = 0;
	memset(pl, 0, sizeof *pl);
	pl->samples = 40;
	pl->sandbox = 1;
	pl->acc = DT_F32;   /* "accumulate f32" unless the plan says otherwise */   /* only "sandbox 0" (compute-sanitizer runs) turns it off */
	while (!end && fgets(line, sizeof line, f)) {
		int n = split(line, tok, 64);
		if (n == 0) continue;
		if (!strcmp(tok[0], "end")) { end = 1; continue; }
		if (!strcmp(tok[0], "seed") && n >= 2) pl->seed = strtoull(tok[1], NULL, 10);
		else if (!strcmp(tok[0], "samples") && n >= 2) pl->samples = atoi(tok[1]);
		else if (!strcmp(tok[0], "deterministic") && n >= 2) pl->deterministic = atoi(tok[1]);
		else if (!strcmp(tok[0], "accumulate") && n >= 2) {
			if ((pl->acc = parse_dt(tok[1])) < 0 || pl->acc == DT_I32 || pl->acc == DT_U32) return -1;
		} else if (!strcmp(tok[0], "sandbox") && n >= 2) pl->sandbox = strcmp(tok[1], "0") != 0;
		else if (!strcmp(tok[0], "tol") && n >= 4) {
			pl->atol = atof(tok[1]); pl->rtol = atof(tok[2]); pl->l2 = atof(tok[3]);
		} else if (!strcmp(tok[0], "tensor") && n >= 4 && pl->nt < KA_TASK_MAX_TENSORS) {
			tensor *t = &pl->t[pl->nt++];
			snprintf(t->name, sizeof t->name, "%s", tok[1]);
			t->out = !strcmp(tok[2], "out");
			t->dt = parse_dt(tok[3]);
			if (t->dt < 0) return -1;
			if (!t->out && (n < 10 || parse_dist(tok + 4, &t->d) || parse_dist(tok + 7, &t->adv))) return -1;
		} else if (!strcmp(tok[0], "scalar") && n >= 4 && pl->ns < KA_TASK_MAX_SCALARS) {
			pl->slo[pl->ns] = atof(tok[2]); pl->shi[pl->ns] = atof(tok[3]); pl->ns++;
		} else if (!strcmp(tok[0], "reduce") && n >= 3 && pl->nc > 0 && !strcmp(tok[1], pl->c[pl->nc - 1].name)) {
			/* the rounding error of a K-long reduction grows like sqrt(K)
			 * units of the accumulating type (harness_tol.h) */
			pl->c[pl->nc - 1].grow = ka_tol_grow(atof(tok[2]), pl->acc);
		} else if (!strcmp(tok[0], "samples_for") && n >= 3 && pl->nc > 0 && !strcmp(tok[1], pl->c[pl->nc - 1].name)) {
			pl->c[pl->nc - 1].samples = atoi(tok[2]);   /* the parent's count for this config */
		} else if (!strcmp(tok[0], "config") && pl->nc < 64) {
			if (read_config(tok, n, &pl->c[pl->nc++])) return -1;
		}
	}
	return end && pl->nt > 0 && pl->nc > 0 ? 0 : -1;
}

/* ---- inputs ------------------------------------------------------------ */

__global__ void gen_kernel(void *p, long long n, int dt, int kind, double a, double b, unsigned long long seed)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	long long step = (long long)gridDim.x * blockDim.x;
	for (; i < n; i += step) {
		double u = hash_unit(seed, 2 * (unsigned long long)i);
		double v;
		if (kind == D_NORMAL) {
			double u2 = hash_unit(seed, 2 * (unsigned long long)i + 1);
			v = a + b * sqrt(-2.0 * log(u + 1e-300)) * cospi(2.0 * u2);
		} else if (kind == D_INT) {
			v = floor(a + u * (b - a + 1.0));
			if (v > b) v = b;
		} else {
			v = a + u * (b - a);
		}
		switch (dt) {
		case DT_F32: ((float *)p)[i] = (float)v; break;
		case DT_F64: ((double *)p)[i] = v; break;
		case DT_I32: ((int *)p)[i] = (int)v; break;
		/* 2-byte types: drawn in fp32, rounded to nearest even */
		case DT_F16: ((uint16_t *)p)[i] = ka_f16_from_float((float)v); break;
		case DT_BF16: ((uint16_t *)p)[i] = ka_bf16_from_float((float)v); break;
		default: ((unsigned *)p)[i] = (unsigned)(long long)v; break;
		}
	}
}

static void gen(const tensor *t, void *p, long long n, int adversarial, unsigned long long seed, cudaStream_t s)
{
	const dist *d = adversarial ? &t->adv : &t->d;
	if (n <= 0) return;
	long long blocks = (n + 255) / 256;
	if (blocks > 65536) blocks = 65536;
	gen_kernel<<<(unsigned)blocks, 256, 0, s>>>(p, n, t->dt, d->kind, d->a, d->b, seed);
	CK(cudaGetLastError());
}

static void draw_scalars(const plan *pl, unsigned long long seed, double *s)
{
	for (int i = 0; i < pl->ns; i++)
		s[i] = pl->slo[i] + host_unit(seed, 977 + i) * (pl->shi[i] - pl->slo[i]);
}

#include "harness_guard.cuh"

/* Device buffers for one configuration: `sets` input sets, `outs` output
 * sets, each with guard regions (harness_guard.cuh). */
struct bufs {
	void *in[16][KA_TASK_MAX_TENSORS], *in_base[16][KA_TASK_MAX_TENSORS];
	void *out[4][KA_TASK_MAX_TENSORS], *out_base[4][KA_TASK_MAX_TENSORS];
	void *work, *work_base;
};

static void alloc_bufs(const plan *pl, const config *c, bufs *b, int sets, int outs)
{
	memset(b, 0, sizeof *b);
	for (int i = 0; i < pl->nt; i++) {
		size_t bytes = (size_t)(c->n[i] > 0 ? c->n[i] : 1) * dt_size(pl->t[i].dt);
		if (pl->t[i].out)
			for (int o = 0; o < outs; o++) b->out[o][i] = guarded_alloc(bytes, &b->out_base[o][i]);
		else
			for (int k = 0; k < sets; k++) b->in[k][i] = guarded_alloc(bytes, &b->in_base[k][i]);
	}
	b->work = guarded_alloc(c->work ? c->work : 16, &b->work_base);
}

/* Queues the guard checks of the buffers one call used. */
static void guards_of(const plan *pl, const config *c, const bufs *b, int set, int out, unsigned long long *bad,
		      cudaStream_t s)
{
	for (int i = 0; i < pl->nt; i++)
		guard_check(pl->t[i].out ? b->out[out][i] : b->in[set][i], (size_t)c->n[i] * dt_size(pl->t[i].dt), bad, s);
	guard_check(b->work, c->work ? c->work : 16, bad, s);
}

static void free_bufs(const plan *pl, bufs *b)
{
	for (int k = 0; k < 16; k++)
		for (int i = 0; i < pl->nt; i++) cudaFree(b->in_base[k][i]);
	for (int o = 0; o < 4; o++)
		for (int i = 0; i < pl->nt; i++) cudaFree(b->out_base[o][i]);
	cudaFree(b->work_base);
	CK(cudaDeviceSynchronize());
}

static void make_args(const plan *pl, const config *c, const bufs *b, int set, int out, const double *s, ka_task_args *a)
{
	memset(a, 0, sizeof *a);
	for (int i = 0; i < pl->nt; i++) {
		a->t[i] = pl->t[i].out ? b->out[out][i] : b->in[set][i];
		a->n[i] = c->n[i];
	}
	for (int i = 0; i < c->np; i++) a->p[i] = c->p[i];
	for (int i = 0; i < pl->ns; i++) a->s[i] = s[i];
	a->work = b->work;
	a->work_bytes = c->work;
}

/* Host copies of one input set, for the reference and the hashes, and the
 * buffers the checks copy outputs (first and repeated call) and inputs
 * (after the call) into: allocated once per configuration. */
struct host_set {
	void *in[KA_TASK_MAX_TENSORS];
	double *ref[KA_TASK_MAX_TENSORS];
	unsigned long long hash[KA_TASK_MAX_TENSORS];
	void *first[KA_TASK_MAX_TENSORS], *again, *now;
};

/* The bytes of the largest output (out = 1) or input (out = 0) tensor of a
 * configuration, at least 1. */
static size_t host_bytes(const plan *pl, const config *c, int out)
{
	size_t m = 1;
	for (int i = 0; i < pl->nt; i++) {
		size_t b = (size_t)c->n[i] * dt_size(pl->t[i].dt);
		if (!pl->t[i].out == !out && b > m) m = b;
	}
	return m;
}

static void fetch_inputs(const plan *pl, const config *c, const bufs *b, int set, host_set *h)
{
	for (int i = 0; i < pl->nt; i++) {
		if (pl->t[i].out) continue;
		size_t bytes = (size_t)c->n[i] * dt_size(pl->t[i].dt);
		if (!h->in[i]) h->in[i] = xmalloc(bytes ? bytes : 1);
		CK(cudaMemcpy(h->in[i], b->in[set][i], bytes, cudaMemcpyDeviceToHost));
		h->hash[i] = hash_bytes(h->in[i], bytes);
	}
}

static int run_reference(const plan *pl, const config *c, const double *s, host_set *h)
{
	ka_ref_args r;
	memset(&r, 0, sizeof r);
	for (int i = 0; i < pl->nt; i++) {
		r.n[i] = c->n[i];
		if (pl->t[i].out) {
			if (!h->ref[i]) h->ref[i] = (double *)xmalloc((size_t)(c->n[i] ? c->n[i] : 1) * 8);
			r.out[i] = h->ref[i];
		} else {
			r.in[i] = h->in[i];
		}
	}
	for (int i = 0; i < c->np; i++) r.p[i] = c->p[i];
	for (int i = 0; i < pl->ns; i++) r.s[i] = s[i];
	return ka_task_reference(&r);
}

static void free_host(const plan *pl, host_set *h)
{
	for (int i = 0; i < pl->nt; i++) { free(h->in[i]); free(h->ref[i]); }
	for (int i = 0; i < KA_TASK_MAX_TENSORS; i++) free(h->first[i]);
	free(h->again);
	free(h->now);
	memset(h, 0, sizeof *h);
}

#include "harness_check.cuh"
#include "harness_perf.cuh"

int main(int argc, char **argv)
{
	static plan pl;
	int n = 0;
	R = stdout;
	if (argc >= 2 && !strcmp(argv[1], "probe")) {
		if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) { fprintf(R, "nodevice\n"); return 3; }
		print_device();
		return 0;
	}
	if (argc < 2 || !(R = fdopen(3, "w")) || load_plan(stdin, &pl)) {
		fprintf(stderr, "harness: usage: harness probe | correct | perf, with the plan on stdin and fd 3 open\n");
		return 2;
	}
	fprintf(R, "ready\n");
	fflush(R);
	char line[128];
	if (!fgets(line, sizeof line, stdin) || sscanf(line, "vseed %llu", &pl.vseed) != 1) {
		fprintf(stderr, "harness: no validation seed on stdin\n");
		return 2;
	}
	/* Every module loads with the context, before the sandbox closes. */
	setenv("CUDA_MODULE_LOADING", "EAGER", 1);
	if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) { fprintf(R, "nodevice\n"); fclose(R); return 3; }
	print_device();
	CK(cudaFree(0));
	initial_state = device_state();
	pf_threads = cpu_count();
	fflush(R);
	if (pl.sandbox && sandbox_enter(3)) {
		fprintf(R, "fail - sandbox: cannot enter it (%s)\n", strerror(errno));
		fclose(R);
		return 3;
	}
	int rc = !strcmp(argv[1], "correct") ? run_correct(&pl) : !strcmp(argv[1], "perf") ? run_perf(&pl) : 2;
	if (rc == 0) fprintf(R, "done\n");
	fclose(R);
	return rc;
}
