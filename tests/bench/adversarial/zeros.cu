/* Adversarial (gelu): writes zeros.  Must fail correctness. */
#include "ka_task.h"
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	cudaMemsetAsync(a->t[1], 0, (size_t)a->n[1] * sizeof(float), s);
	return 0;
}
