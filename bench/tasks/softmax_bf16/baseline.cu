/* bench/tasks/softmax_bf16/baseline.cu: one thread per row, three passes
 * over the row one bf16 at a time, fp32 arithmetic.  The sum is kept in
 * 1024-element partial sums, as in the fp32 softmax task's baseline. */
#include "ka_task.h"
#include <cuda_bf16.h>

__global__ void softmax_bf16_naive(const __nv_bfloat16 *x, __nv_bfloat16 *y, long long rows, long long cols)
{
	long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	if (r >= rows) return;
	const __nv_bfloat16 *xr = x + r * cols;
	__nv_bfloat16 *yr = y + r * cols;
	float m = -INFINITY, s = 0.0f;
	for (long long j = 0; j < cols; j++) m = fmaxf(m, __bfloat162float(xr[j]));
	for (long long j0 = 0; j0 < cols; j0 += 1024) {
		float part = 0.0f;
		for (long long j = j0; j < cols && j < j0 + 1024; j++) part += expf(__bfloat162float(xr[j]) - m);
		s += part;
	}
	for (long long j = 0; j < cols; j++) yr[j] = __float2bfloat16(expf(__bfloat162float(xr[j]) - m) / s);
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	softmax_bf16_naive<<<(unsigned)((rows + 127) / 128), 128, 0, s>>>((const __nv_bfloat16 *)a->t[0],
									   (__nv_bfloat16 *)a->t[1], rows, cols);
	return 0;
}
