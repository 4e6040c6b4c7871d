/* bench/tasks/masked_fill/expert.cu: 16-byte loads and stores (float4, int4),
 * grid-stride, scalar tail. */
#include "ka_task.h"

__global__ void __launch_bounds__(256)
	masked_fill4(const float *x, const int *mask, float value, float *out, long long n)
{
	long long n4 = n / 4, step = (long long)gridDim.x * blockDim.x;
	long long first = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	const float4 *x4 = (const float4 *)x;
	const int4 *m4 = (const int4 *)mask;
	float4 *o4 = (float4 *)out;
	for (long long i = first; i < n4; i += step) {
		float4 v = __ldg(x4 + i);
		int4 m = __ldg(m4 + i);
		v.x = m.x ? value : v.x;
		v.y = m.y ? value : v.y;
		v.z = m.z ? value : v.z;
		v.w = m.w ? value : v.w;
		o4[i] = v;
	}
	for (long long i = 4 * n4 + first; i < n; i += step)
		out[i] = mask[i] ? value : x[i];
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->n[0];
	long long blocks = (n / 4 + 255) / 256;
	blocks = blocks < 1 ? 1 : blocks > 2048 ? 2048 : blocks;
	masked_fill4<<<(unsigned)blocks, 256, 0, s>>>((const float *)a->t[0], (const int *)a->t[1],
						      (float)a->s[0], (float *)a->t[2], n);
	return 0;
}
