/* bench/tasks/reduce_sum/reference.cu: fp64 CPU reference (pairwise sums
 * of 4096-element chunks keep the fp64 error far below the tolerance). */
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const float *x = (const float *)a->in[0];
	double total = 0;
	for (long long i = 0; i < a->n[0]; i += 4096) {
		double part = 0;
		for (long long j = i; j < i + 4096 && j < a->n[0]; j++) part += x[j];
		total += part;
	}
	a->out[1][0] = total;
	return 0;
}
