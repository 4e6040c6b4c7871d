/* bench/tasks/attn_softmax_causal/expert.cu: one warp per row, online
 * max/sum over the unmasked prefix in one pass, shuffle merge, then one
 * coalesced pass writing the probabilities and the zeros. */
#include "ka_task.h"

__global__ void __launch_bounds__(256) softmax_causal_warp(float *y, const float *x, long long rows, int T)
{
	long long row = (long long)blockIdx.x * 8 + threadIdx.x / 32;
	int lane = threadIdx.x & 31;
	if (row >= rows)
		return;
	int own = (int)(row % T);
	const float *p = x + row * T;
	float *q = y + row * T;
	float m = -INFINITY, sum = 0.0f;
	for (int c = lane; c <= own; c += 32) {
		float v = p[c];
		if (v > m) {
			sum *= __expf(m - v);
			m = v;
		}
		sum += __expf(v - m);
	}
	for (int o = 16; o > 0; o >>= 1) {
		float m2 = __shfl_xor_sync(0xffffffffu, m, o), s2 = __shfl_xor_sync(0xffffffffu, sum, o);
		float mn = fmaxf(m, m2);
		sum = (m == -INFINITY ? 0.0f : sum * __expf(m - mn)) +
		      (m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - mn));
		m = mn;
	}
	float inv = 1.0f / sum;
	for (int c = lane; c < T; c += 32)
		q[c] = c <= own ? __expf(p[c] - m) * inv : 0.0f;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0] * a->p[1];
	softmax_causal_warp<<<(unsigned)((rows + 7) / 8), 256, 0, s>>>(
		(float *)a->t[1], (const float *)a->t[0], rows, (int)a->p[1]);
	return 0;
}
