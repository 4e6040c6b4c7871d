/* bench/tasks/attn_softmax_causal/reference.cu: fp64 CPU reference. */
#include <math.h>
#include "ka_task.h"

struct ctx {
	const float *x;
	double *y;
	long long T;
};

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	long long T = c->T;
	for (long long r = lo; r < hi; r++) {
		const float *x = c->x + r * T;
		double *y = c->y + r * T;
		long long own = r % T;
		double m = -INFINITY, sum = 0.0;
		for (long long j = 0; j <= own; j++)
			m = fmax(m, (double)x[j]);
		for (long long j = 0; j <= own; j++)
			sum += exp((double)x[j] - m);
		for (long long j = 0; j < T; j++)
			y[j] = j <= own ? exp((double)x[j] - m) / sum : 0.0;
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const float *)a->in[0], a->out[1], a->p[1]};
	ka_ref_parallel_for(a->p[0] * a->p[1], rows, &c);
	return 0;
}
