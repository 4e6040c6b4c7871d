/* bench/tasks/gelu/baseline.cu: one thread per element. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) gelu_naive(const float *x, float *y, long long n)
{
	const long long ka_tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	const long long ka_step = (long long)gridDim.x * blockDim.x;
	/* the float4 loop only where every vectorized pointer is 16-byte aligned */
	const unsigned long long ka_align = 0 | (unsigned long long)x | (unsigned long long)y;
	const long long ka_n4 = (ka_align & 15) ? 0 : (long long)n / 4;
	for (long long ka_v = ka_tid; ka_v < ka_n4; ka_v += ka_step) {
		float4 ka_x = reinterpret_cast<const float4 *>(x)[ka_v];
		float4 ka_y;
		{
			ka_y.x = 0.5f * ka_x.x * erfcf(-ka_x.x * 0.70710678f);
		}
		{
			ka_y.y = 0.5f * ka_x.y * erfcf(-ka_x.y * 0.70710678f);
		}
		{
			ka_y.z = 0.5f * ka_x.z * erfcf(-ka_x.z * 0.70710678f);
		}
		{
			ka_y.w = 0.5f * ka_x.w * erfcf(-ka_x.w * 0.70710678f);
		}
		reinterpret_cast<float4 *>(y)[ka_v] = ka_y;
	}
	for (long long ka_e = 4 * ka_n4 + ka_tid; ka_e < n; ka_e += ka_step) {
		long long i = ka_e;
		{ y[i] = 0.5f * x[i] * erfcf(-x[i] * 0.70710678f); }
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	gelu_naive<<<(unsigned)(((long long)(n) / 4 + 256) / 256 < 2112 ? ((long long)(n) / 4 + 256) / 256 : 2112), 256, 0, s>>>((const float *)a->t[0], (float *)a->t[1], n);
	return 0;
}
