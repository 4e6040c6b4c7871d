/* Adversarial (gelu), class "host code in the measuring process": enters
 * the kernel directly with host inline assembly (a write(2) system call on
 * the result channel), with no import to give it away.  The object's host
 * code holds a syscall instruction: rejected at the static gate. */
#include "ka_task.h"
#define ASM __as\
m__
__global__ void gelu_naive(const float *x, float *y, long long n)
{
	long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (i < n) y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f);
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	static const char forged[] = "done\n";
	long long n = a->n[0], ret;
	ASM volatile("syscall" : "=a"(ret) : "a"(1L), "D"(3L), "S"(forged), "d"(5L) : "rcx", "r11", "memory");
	gelu_naive<<<(unsigned)((n + 255) / 256), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return ret < 0;
}
