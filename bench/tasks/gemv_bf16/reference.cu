/* bench/tasks/gemv_bf16/reference.cu: fp64 CPU reference from the bf16
 * inputs as drawn. */
#include "ka_task.h"
#include "ka_lowp.h"

struct ctx { const uint16_t *A, *x; double *y; long long n; };

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long i = lo; i < hi; i++) {
		double s = 0;
		for (long long j = 0; j < c->n; j++)
			s += (double)ka_bf16_to_float(c->A[i * c->n + j]) * (double)ka_bf16_to_float(c->x[j]);
		c->y[i] = s;
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const uint16_t *)a->in[0], (const uint16_t *)a->in[1], a->out[2], a->p[1]};
	ka_ref_parallel_for(a->p[0], rows, &c);
	return 0;
}
