/* bench/tasks/bias_gelu_scale/reference.cu: fp64 CPU reference.  The sum
 * x + bias is rounded to fp32 first, as the task defines the pipeline on
 * fp32 tensors. */
#include <math.h>
#include "ka_task.h"

struct ctx { const float *x, *b, *s; double *y; long long cols; };

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long r = lo; r < hi; r++)
		for (long long j = 0; j < c->cols; j++) {
			double v = (float)(c->x[r * c->cols + j] + c->b[j]);
			c->y[r * c->cols + j] = 0.5 * v * erfc(-v / sqrt(2.0)) * c->s[j];
		}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const float *)a->in[0], (const float *)a->in[1], (const float *)a->in[2], a->out[3], a->p[1]};
	ka_ref_parallel_for(a->p[0], rows, &c);
	return 0;
}
