/* bench/tasks/encoder_forward/baseline.cu: one thread per output element,
 * the flat index split back into (b, t, c). */
#include "ka_task.h"

__global__ void __launch_bounds__(256) encoder_forward_kernel(float *out, const int *inp, const float *wte, const float *wpe, int B,
				       int T, int C)
{
	const long long ka_tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;
	const long long ka_step = (long long)gridDim.x * blockDim.x;
	/* four elements of one row per step when the row length C is a multiple of 4 */
	const long long ka_n4 = C % 4 == 0 ? (long long)((long long)B * C * T) / 4 : 0;
	for (long long ka_v = ka_tid; ka_v < ka_n4; ka_v += ka_step) {
		int idx = 4 * ka_v;
		int bt = idx / C;
		int b = bt / T;
		int t = bt % T;
		int c = idx % C;
		int ix = inp[b * T + t];
		float *out_btc = out + b * T * C + t * C + c;
		const float *wte_ix = wte + ix * C + c;
		const float *wpe_tc = wpe + t * C + c;
		if (((0 | (unsigned long long)out_btc | (unsigned long long)wte_ix | (unsigned long long)wpe_tc) & 15) == 0) {
			float4 ka_out_btc;
			float4 ka_wte_ix = *reinterpret_cast<const float4 *>(wte_ix);
			float4 ka_wpe_tc = *reinterpret_cast<const float4 *>(wpe_tc);
			{
				ka_out_btc.x = ka_wte_ix.x + ka_wpe_tc.x;
			}
			{
				ka_out_btc.y = ka_wte_ix.y + ka_wpe_tc.y;
			}
			{
				ka_out_btc.z = ka_wte_ix.z + ka_wpe_tc.z;
			}
			{
				ka_out_btc.w = ka_wte_ix.w + ka_wpe_tc.w;
			}
			*reinterpret_cast<float4 *>(out_btc) = ka_out_btc;
		} else {
			{
				out_btc[0] = wte_ix[0] + wpe_tc[0];
			}
			{
				out_btc[1] = wte_ix[1] + wpe_tc[1];
			}
			{
				out_btc[2] = wte_ix[2] + wpe_tc[2];
			}
			{
				out_btc[3] = wte_ix[3] + wpe_tc[3];
			}
		}
	}
	for (long long ka_e = 4 * ka_n4 + ka_tid; ka_e < ((long long)B * C * T); ka_e += ka_step) {
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
	encoder_forward_kernel<<<(unsigned)(((((long long)(long long)(B) * (long long)(C) * (long long)(T))) / 4 + 256) / 256 < 2112 ? ((((long long)(long long)(B) * (long long)(C) * (long long)(T))) / 4 + 256) / 256 : 2112), 256, 0, s>>>((float *)a->t[3], (const int *)a->t[0],
								(const float *)a->t[1],
								(const float *)a->t[2], B, T, C);
	return 0;
}
