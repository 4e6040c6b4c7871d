/* bench/tasks/saxpy/baseline.cu: one thread per element. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) saxpy_naive(float alpha, const float *x, const float *y, float *out, long long n)
{
	const long long ka_tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	const long long ka_step = (long long)gridDim.x * blockDim.x;
	/* the float4 loop only where every vectorized pointer is 16-byte aligned */
	const unsigned long long ka_align = 0 | (unsigned long long)x | (unsigned long long)y | (unsigned long long)out;
	const long long ka_n4 = (ka_align & 15) ? 0 : (long long)n / 4;
	for (long long ka_v = ka_tid; ka_v < ka_n4; ka_v += ka_step) {
		float4 ka_x = reinterpret_cast<const float4 *>(x)[ka_v];
		float4 ka_y = reinterpret_cast<const float4 *>(y)[ka_v];
		float4 ka_out;
		{
			ka_out.x = alpha * ka_x.x + ka_y.x;
		}
		{
			ka_out.y = alpha * ka_x.y + ka_y.y;
		}
		{
			ka_out.z = alpha * ka_x.z + ka_y.z;
		}
		{
			ka_out.w = alpha * ka_x.w + ka_y.w;
		}
		reinterpret_cast<float4 *>(out)[ka_v] = ka_out;
	}
	for (long long ka_e = 4 * ka_n4 + ka_tid; ka_e < n; ka_e += ka_step) {
		long long i = ka_e;
		{ out[i] = alpha * x[i] + y[i]; }
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	saxpy_naive<<<(unsigned)(((long long)(n) / 4 + 256) / 256 < 2112 ? ((long long)(n) / 4 + 256) / 256 : 2112), 256, 0, s>>>((float)a->s[0], (const float *)a->t[0],
							      (const float *)a->t[1], (float *)a->t[2], n);
	return 0;
}
