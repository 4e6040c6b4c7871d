/* bench/tasks/encoder_forward/baseline.cu: one thread per output element,
 * the flat index split back into (b, t, c). */
#include "ka_task.h"

__global__ void encoder_forward_kernel(float *out, const int *inp, const float *wte, const float *wpe, int B,
				       int T, int C)
{
	int idx = blockIdx.x * blockDim.x + threadIdx.x;
	int N = B * T * C;
	if (idx < N) {
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

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int B = (int)a->p[0], T = (int)a->p[1], C = (int)a->p[2];
	const int block_size = 256;
	const int N = B * T * C;
	const int grid_size = (N + block_size - 1) / block_size;
	encoder_forward_kernel<<<grid_size, block_size, 0, s>>>((float *)a->t[3], (const int *)a->t[0],
								(const float *)a->t[1],
								(const float *)a->t[2], B, T, C);
	return 0;
}
