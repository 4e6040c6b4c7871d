/* bench/tasks/histogram/reference.cu: CPU reference. */
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const int *x = (const int *)a->in[0];
	long long bins = a->p[1];
	for (long long b = 0; b < bins; b++) a->out[1][b] = 0;
	for (long long i = 0; i < a->n[0]; i++) a->out[1][x[i] % bins] += 1;
	return 0;
}
