/* bench/tasks/saxpy/reference.cu: fp64 CPU reference. */
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const float *x = (const float *)a->in[0], *y = (const float *)a->in[1];
	double alpha = (float)a->s[0];   /* the kernel sees alpha as a float */
	for (long long i = 0; i < a->n[0]; i++) a->out[2][i] = alpha * x[i] + (double)y[i];
	return 0;
}
