/* bench/tasks/reduce_interleaved/reference.cu: fp64 CPU reference, one
 * sequential sum per row. */
#include "ka_task.h"

struct ctx { const float *x; double *y; long long cols; };

static void rows(long long lo, long long hi, void *p)
{
	struct ctx *c = (struct ctx *)p;
	for (long long r = lo; r < hi; r++) {
		const float *xr = c->x + r * c->cols;
		double s = 0;
		for (long long j = 0; j < c->cols; j++) s += xr[j];
		c->y[r] = s;
	}
}

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	struct ctx c = {(const float *)a->in[0], a->out[1], a->p[1]};
	ka_ref_parallel_for(a->p[0], rows, &c);
	return 0;
}
