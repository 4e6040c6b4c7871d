/* bench/tasks/crossentropy_forward/reference.cu: fp64 CPU reference; a target
 * outside [0, V) fails the task. */
#include <math.h>
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const float *probs = (const float *)a->in[0];
	const int *targets = (const int *)a->in[1];
	long long n = a->p[0] * a->p[1], V = a->p[2];
	for (long long i = 0; i < n; i++) {
		long long ix = targets[i];
		if (ix < 0 || ix >= V)
			return 1;
		a->out[2][i] = -log((double)probs[i * V + ix]);
	}
	return 0;
}
