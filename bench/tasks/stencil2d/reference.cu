/* bench/tasks/stencil2d/reference.cu: fp64 CPU reference. */
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const float *x = (const float *)a->in[0];
	long long h = a->p[0], w = a->p[1];
	double *y = a->out[1];
	for (long long i = 0; i < h; i++)
		for (long long j = 0; j < w; j++) {
			long long k = i * w + j;
			if (i == 0 || j == 0 || i == h - 1 || j == w - 1) y[k] = x[k];
			else y[k] = 0.2 * ((double)x[k] + x[k - w] + x[k + w] + x[k - 1] + x[k + 1]);
		}
	return 0;
}
