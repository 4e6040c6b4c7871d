/* bench/tasks/encoder_forward/expert.cu: one block per (b, t) row, the token id
 * read once, float4 loads and stores when C is a multiple of 4. */
#include "ka_task.h"

__global__ void __launch_bounds__(256)
	encoder_rows(float *out, const int *inp, const float *wte, const float *wpe, int T, int C)
{
	long long bt = blockIdx.x;
	long long t = bt % T;
	long long ix = inp[bt];
	const float *e = wte + ix * C, *p = wpe + t * C;
	float *o = out + bt * C;
	if ((C & 3) == 0) {
		const float4 *e4 = (const float4 *)e, *p4 = (const float4 *)p;
		float4 *o4 = (float4 *)o;
		for (int c = threadIdx.x; c < C / 4; c += blockDim.x) {
			float4 u = __ldg(e4 + c), v = __ldg(p4 + c);
			o4[c] = make_float4(u.x + v.x, u.y + v.y, u.z + v.z, u.w + v.w);
		}
	} else {
		for (int c = threadIdx.x; c < C; c += blockDim.x)
			o[c] = __ldg(e + c) + __ldg(p + c);
	}
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long B = a->p[0], T = a->p[1], C = a->p[2];
	int threads = C / 4 >= 256 ? 256 : C / 4 >= 128 ? 128 : 64;
	encoder_rows<<<(unsigned)(B * T), threads, 0, s>>>((float *)a->t[3], (const int *)a->t[0],
							   (const float *)a->t[1], (const float *)a->t[2],
							   (int)T, (int)C);
	return 0;
}
