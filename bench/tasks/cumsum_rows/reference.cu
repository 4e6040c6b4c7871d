/* bench/tasks/cumsum_rows/reference.cu: fp64 CPU reference. */
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const float *x = (const float *)a->in[0];
	long long rows = a->p[0], cols = a->p[1];
	for (long long r = 0; r < rows; r++) {
		double t = 0.0;
		for (long long c = 0; c < cols; c++) {
			t += (double)x[r * cols + c];
			a->out[1][r * cols + c] = t;
		}
	}
	return 0;
}
