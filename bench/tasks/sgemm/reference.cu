/* bench/tasks/sgemm/reference.cu: fp64 CPU reference on host threads. */
#include "ka_task.h"

struct ctx { const float *A, *B; double *C; long long n, k; };

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long i = lo; i < hi; i++) {
		double *Ci = c->C + i * c->n;
		for (long long j = 0; j < c->n; j++) Ci[j] = 0;
		for (long long l = 0; l < c->k; l++) {
			double a = c->A[i * c->k + l];
			const float *Bl = c->B + l * c->n;
			for (long long j = 0; j < c->n; j++) Ci[j] += a * Bl[j];
		}
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const float *)a->in[0], (const float *)a->in[1], a->out[2], a->p[1], a->p[2]};
	ka_ref_parallel_for(a->p[0], rows, &c);
	return 0;
}
