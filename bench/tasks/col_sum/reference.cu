/* bench/tasks/col_sum/reference.cu: fp64 CPU reference. */
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const float *x = (const float *)a->in[0];
	long long rows = a->p[0], cols = a->p[1];
	for (long long c = 0; c < cols; c++)
		a->out[1][c] = 0.0;
	for (long long r = 0; r < rows; r++)
		for (long long c = 0; c < cols; c++)
			a->out[1][c] += (double)x[r * cols + c];
	return 0;
}
