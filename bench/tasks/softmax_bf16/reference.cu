/* bench/tasks/softmax_bf16/reference.cu: fp64 CPU reference from the bf16
 * inputs as drawn, one row per task of the thread pool. */
#include <math.h>
#include "ka_task.h"
#include "ka_lowp.h"

struct ctx { const uint16_t *x; double *y; long long cols; };

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long r = lo; r < hi; r++) {
		const uint16_t *xr = c->x + r * c->cols;
		double *yr = c->y + r * c->cols, m = -INFINITY, s = 0;
		for (long long j = 0; j < c->cols; j++) m = fmax(m, (double)ka_bf16_to_float(xr[j]));
		for (long long j = 0; j < c->cols; j++) s += (yr[j] = exp((double)ka_bf16_to_float(xr[j]) - m));
		for (long long j = 0; j < c->cols; j++) yr[j] /= s;
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const uint16_t *)a->in[0], a->out[1], a->p[1]};
	ka_ref_parallel_for(a->p[0], rows, &c);
	return 0;
}
