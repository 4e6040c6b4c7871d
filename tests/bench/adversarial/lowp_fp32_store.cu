/* Adversarial (softmax_bf16), wrong output type: computes the softmax right
 * but stores fp32 values into the bf16 output (only the first half of the
 * elements fit).  Read as bf16 the output is garbage: rejected at
 * correctness. */
#include "ka_task.h"
#include <cuda_bf16.h>
__global__ void softmax_f32_out(const __nv_bfloat16 *x, float *y, long long rows, long long cols, long long limit)
{
	long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (r >= rows) return;
	const __nv_bfloat16 *xr = x + r * cols;
	float m = -INFINITY, s = 0.0f;
	for (long long j = 0; j < cols; j++) m = fmaxf(m, __bfloat162float(xr[j]));
	for (long long j = 0; j < cols; j++) s += expf(__bfloat162float(xr[j]) - m);
	for (long long j = 0; j < cols; j++)
		if (r * cols + j < limit) y[r * cols + j] = expf(__bfloat162float(xr[j]) - m) / s;
}
extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	softmax_f32_out<<<(unsigned)((rows + 127) / 128), 128, 0, s>>>((const __nv_bfloat16 *)a->t[0], (float *)a->t[1], rows,
									cols, a->n[1] / 2);
	return 0;
}
