/* bench/tasks/encoder_forward/baseline.cu: one thread per output element,
 * the flat index split back into (b, t, c). */
#include "ka_task.h"

__global__ void __launch_bounds__(256) encoder_forward_kernel(float *out, const int *inp, const float *wte, const float *wpe, int B,
				       int T, int C)
{
	const long long ka_step = (long long)gridDim.x * blockDim.x;
	for (long long ka_e = blockIdx.x * (long long)blockDim.x + threadIdx.x; ka_e < ((long long)B * C * T); ka_e += ka_step) {
		int idx = ka_e;
		{
		int bt = idx / C;
		int b = bt / T;
		int t = bt % T;
		int c = idx % C;
		int ix = inp[b * T + t];
		float *out_btc = out + b * T * C + t * C + c;
		const float *wte_ix = wte + ix * C + c;
		const float *wpe_tc = wpe + t * C + c;
		*out_btc = *wte_ix + *wpe_tc;
	}
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int B = (int)a->p[0], T = (int)a->p[1], C = (int)a->p[2];
	const int N = B * T * C;
	encoder_forward_kernel<<<(unsigned)(((((long long)(long long)(B) * (long long)(C) * (long long)(T))) / 1 + 256) / 256 < 2112 ? ((((long long)(long long)(B) * (long long)(C) * (long long)(T))) / 1 + 256) / 256 : 2112), 256, 0, s>>>((float *)a->t[3], (const int *)a->t[0],
								(const float *)a->t[1],
								(const float *)a->t[2], B, T, C);
	return 0;
}
