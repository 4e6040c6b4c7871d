/* bench/tasks/batched_transpose/reference.cu: CPU reference. */
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const float *x = (const float *)a->in[0];
	long long B = a->p[0], M = a->p[1], N = a->p[2];
	for (long long b = 0; b < B; b++)
		for (long long r = 0; r < M; r++)
			for (long long c = 0; c < N; c++)
				a->out[1][b * M * N + c * M + r] = (double)x[b * M * N + r * N + c];
	return 0;
}
