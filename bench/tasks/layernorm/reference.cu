/* bench/tasks/layernorm/reference.cu: fp64 CPU reference, two-pass variance. */
#include <math.h>
#include "ka_task.h"

struct ctx { const float *x, *g, *b; double *y; long long cols; double eps; };

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long r = lo; r < hi; r++) {
		const float *x = c->x + r * c->cols;
		double *y = c->y + r * c->cols, mean = 0, var = 0;
		for (long long j = 0; j < c->cols; j++) mean += x[j];
		mean /= c->cols;
		for (long long j = 0; j < c->cols; j++) var += (x[j] - mean) * (x[j] - mean);
		var /= c->cols;
		double inv = 1.0 / sqrt(var + c->eps);
		for (long long j = 0; j < c->cols; j++) y[j] = (x[j] - mean) * inv * c->g[j] + c->b[j];
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const float *)a->in[0], (const float *)a->in[1], (const float *)a->in[2], a->out[3], a->p[1],
			(double)(float)a->s[0]};
	ka_ref_parallel_for(a->p[0], rows, &c);
	return 0;
}
