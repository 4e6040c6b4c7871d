/* bench/tasks/masked_fill/reference.cu: CPU reference; the fill value is
 * rounded to fp32 as the implementations receive it. */
#include "ka_task.h"

extern "C" int ka_task_reference(const ka_ref_args *a)
{
	const float *x = (const float *)a->in[0];
	const int *mask = (const int *)a->in[1];
	double value = (double)(float)a->s[0];
	for (long long i = 0; i < a->n[0]; i++)
		a->out[2][i] = mask[i] ? value : (double)x[i];
	return 0;
}
