/* bench/tasks/crossentropy_forward/expert.cu: 64-bit offsets (B*T*V passes
 * 2^31 at GPT-2 vocabulary sizes), read-only loads, grid-stride. */
#include "ka_task.h"

__global__ void __launch_bounds__(256)
	ce_fwd(float *losses, const float *probs, const int *targets, long long n, long long V)
{
	long long step = (long long)gridDim.x * blockDim.x;
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += step) {
		int ix = __ldg(targets + i);
		losses[i] = -logf(__ldg(probs + i * V + ix));
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long n = a->p[0] * a->p[1];
	long long blocks = (n + 255) / 256;
	if (blocks > 4096)
		blocks = 4096;
	ce_fwd<<<(unsigned)blocks, 256, 0, s>>>((float *)a->t[2], (const float *)a->t[0],
						(const int *)a->t[1], n, a->p[2]);
	return 0;
}
