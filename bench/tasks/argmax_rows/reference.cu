/* bench/tasks/argmax_rows/reference.cu: CPU reference, first maximum wins. */
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const float *x = (const float *)a->in[0];
	long long rows = a->p[0], cols = a->p[1];
	for (long long r = 0; r < rows; r++) {
		const float *p = x + r * cols;
		long long bi = 0;
		for (long long c = 1; c < cols; c++)
			if (p[c] > p[bi])
				bi = c;
		a->out[1][r] = (double)bi;
	}
	return 0;
}
