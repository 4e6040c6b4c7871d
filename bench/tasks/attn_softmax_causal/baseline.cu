/* bench/tasks/attn_softmax_causal/baseline.cu: one thread per row, three
 * passes (max, sum of exponentials, normalize and mask). */
#include "ka_task.h"

__global__ void softmax_causal_kernel(float *out, const float *inp, int N, int T)
{
	int idx = blockIdx.x * blockDim.x + threadIdx.x;
	if (idx < N * T) {
		int own_pos = idx % T;
		const float *x = inp + (size_t)idx * T;
		float *y = out + (size_t)idx * T;
		float maxval = -INFINITY;
		for (int t2 = 0; t2 <= own_pos; t2++) {
			if (x[t2] > maxval) {
				maxval = x[t2];
			}
		}
		float expsum = 0.0f;
		for (int t2 = 0; t2 <= own_pos; t2++) {
			expsum += expf(x[t2] - maxval);
		}
		float expsum_inv = expsum == 0.0f ? 0.0f : 1.0f / expsum;
		for (int t2 = 0; t2 < T; t2++) {
			if (t2 <= own_pos) {
				y[t2] = expf(x[t2] - maxval) * expsum_inv;
			} else {
				y[t2] = 0.0f;
			}
		}
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	int N = (int)a->p[0], T = (int)a->p[1];
	int block_size = 256;
	int num_blocks = (N * T + block_size - 1) / block_size;
	softmax_causal_kernel<<<num_blocks, block_size, 0, s>>>((float *)a->t[1], (const float *)a->t[0], N,
								T);
	return 0;
}
