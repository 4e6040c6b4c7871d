/* Adversarial (gelu): launches from a detached host thread.  Rejected by the
 * static gate. */
#include "ka_task.h"
#include <pthread.h>
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
static ka_task_args saved;
static void *worker(void *p)
{
	gelu_naive<<<(unsigned)((saved.n[0] + 255) / 256), 256>>>((const float *)saved.t[0], (float *)saved.t[1], saved.n[0]);
	return p;
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	pthread_t t;
	saved = *a;
	pthread_create(&t, NULL, worker, NULL);
	pthread_detach(t);
	return 0;
}
