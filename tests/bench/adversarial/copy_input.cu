/* Adversarial (gelu): copies the input to the output.  Must fail correctness. */
#include "ka_task.h"
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	cudaMemcpyAsync(a->t[1], a->t[0], (size_t)a->n[0] * sizeof(float), cudaMemcpyDeviceToDevice, s);
	return 0;
}
