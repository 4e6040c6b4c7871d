/* bench/tasks/gemm_bf16/reference.cu: fp64 CPU reference from the bf16
 * inputs as drawn (B converted once, then row by row on host threads). */
#include <stdlib.h>
#include "ka_task.h"
#include "ka_lowp.h"

struct ctx { const uint16_t *A; const double *B; double *C; long long n, k; };

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long i = lo; i < hi; i++) {
		double *Ci = c->C + i * c->n;
		for (long long j = 0; j < c->n; j++) Ci[j] = 0;
		for (long long l = 0; l < c->k; l++) {
			double a = ka_bf16_to_float(c->A[i * c->k + l]);
			const double *Bl = c->B + l * c->n;
			for (long long j = 0; j < c->n; j++) Ci[j] += a * Bl[j];
		}
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	long long n = a->p[1], k = a->p[2];
	const uint16_t *B16 = (const uint16_t *)a->in[1];
	double *B = (double *)malloc((size_t)(n * k > 0 ? n * k : 1) * sizeof *B);
	if (!B) return 1;
	for (long long i = 0; i < n * k; i++) B[i] = ka_bf16_to_float(B16[i]);
	struct ctx c = {(const uint16_t *)a->in[0], B, a->out[2], n, k};
	ka_ref_parallel_for(a->p[0], rows, &c);
	free(B);
	return 0;
}
