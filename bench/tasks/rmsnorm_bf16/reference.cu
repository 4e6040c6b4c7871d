/* bench/tasks/rmsnorm_bf16/reference.cu: fp64 CPU reference from the bf16
 * inputs as drawn. */
#include <math.h>
#include "ka_task.h"
#include "ka_lowp.h"

struct ctx { const uint16_t *x, *w; double *y, eps; long long cols; };

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long r = lo; r < hi; r++) {
		const uint16_t *xr = c->x + r * c->cols;
		double ss = 0;
		for (long long j = 0; j < c->cols; j++) {
			double v = ka_bf16_to_float(xr[j]);
			ss += v * v;
		}
		double inv = 1.0 / sqrt(ss / (double)c->cols + c->eps);
		for (long long j = 0; j < c->cols; j++)
			c->y[r * c->cols + j] = (double)ka_bf16_to_float(xr[j]) * inv * (double)ka_bf16_to_float(c->w[j]);
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const uint16_t *)a->in[0], (const uint16_t *)a->in[1], a->out[2], a->s[0], a->p[1]};
	ka_ref_parallel_for(a->p[0], rows, &c);
	return 0;
}
