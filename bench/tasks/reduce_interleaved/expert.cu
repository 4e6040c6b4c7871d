/* bench/tasks/reduce_interleaved/expert.cu: sequential work per thread and
 * shuffles instead of a shared-memory tree.  Rows shorter than 1024: one
 * warp per row, lane-strided (coalesced) loads, a shuffle sum.  Longer
 * rows: each row is split over B chunks (enough 256-thread blocks in all
 * to fill the chip, each chunk at least 8192 elements); a block adds its
 * chunk with float4 loads where every row starts 16-byte aligned (else
 * scalar loads), four independent sums per thread, then shuffles within
 * each warp and across the 8 warps.  With B > 1 the partial sums go to
 * the scratch and one warp per row adds them in a fixed order, so the
 * result is the same bytes on every call. */
#include "ka_task.h"

#define THREADS 256
#define WAVE (132 * 2048 / THREADS) /* resident 256-thread blocks on an H200 */

__device__ __forceinline__ float warp_sum(float v)
{
	for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
	return v;
}

/* the sum over the block, in thread 0 */
__device__ __forceinline__ float block_total(float v)
{
	__shared__ float warps[THREADS / 32];
	v = warp_sum(v);
	if ((threadIdx.x & 31) == 0) warps[threadIdx.x >> 5] = v;
	__syncthreads();
	if (threadIdx.x < 32) v = warp_sum(threadIdx.x < THREADS / 32 ? warps[threadIdx.x] : 0.0f);
	return v;
}

/* one warp per row of `cols` values, rows..: out[r] */
__global__ void __launch_bounds__(THREADS) warp_rows(const float *__restrict__ x, float *__restrict__ out, long long rows, long long cols)
{
	long long r = blockIdx.x * (long long)(THREADS / 32) + (threadIdx.x >> 5);
	int lane = threadIdx.x & 31;
	if (r >= rows) return;
	const float *xr = x + r * cols;
	float s0 = 0.0f, s1 = 0.0f;
	long long j = lane;
	for (; j + 32 < cols; j += 64) { s0 += xr[j]; s1 += xr[j + 32]; }
	if (j < cols) s0 += xr[j];
	s0 = warp_sum(s0 + s1);
	if (lane == 0) out[r] = s0;
}

/* block (r, b) adds x[r][b*chunk .. min(cols, (b+1)*chunk)) into
 * out[r * gridDim.y + b]; VEC: cols and chunk are multiples of 4 and x is
 * 16-byte aligned */
template <bool VEC>
__global__ void __launch_bounds__(THREADS) chunk_sums(const float *__restrict__ x, float *__restrict__ out, long long cols, long long chunk)
{
	const float *xr = x + blockIdx.x * cols;
	long long j0 = blockIdx.y * chunk, j1 = min(cols, j0 + chunk);
	float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
	if (VEC) {
		const float4 *v = (const float4 *)(xr + j0);
		long long n4 = (j1 - j0) / 4, i = threadIdx.x;
		for (; i + THREADS < n4; i += 2 * THREADS) {
			float4 a = v[i], b = v[i + THREADS];
			s0 += a.x + a.y; s1 += a.z + a.w;
			s2 += b.x + b.y; s3 += b.z + b.w;
		}
		if (i < n4) { float4 a = v[i]; s0 += a.x + a.y; s1 += a.z + a.w; }
	} else {
		long long j = j0 + threadIdx.x;
		for (; j + 3 * THREADS < j1; j += 4 * THREADS) {
			s0 += xr[j]; s1 += xr[j + THREADS]; s2 += xr[j + 2 * THREADS]; s3 += xr[j + 3 * THREADS];
		}
		for (; j < j1; j += THREADS) s0 += xr[j];
	}
	float s = block_total((s0 + s1) + (s2 + s3));
	if (threadIdx.x == 0) out[blockIdx.x * (long long)gridDim.y + blockIdx.y] = s;
}

extern "C" int ka_task_run(const ka_task_args *a, cudaStream_t s)
{
	long long rows = a->p[0], cols = a->p[1];
	const float *x = (const float *)a->t[0];
	float *sums = (float *)a->t[1], *part = (float *)a->work;
	if (cols < 1024) {
		warp_rows<<<(unsigned)((rows + THREADS / 32 - 1) / (THREADS / 32)), THREADS, 0, s>>>(x, sums, rows, cols);
		return 0;
	}
	long long want = (2 * WAVE + rows - 1) / rows, most = (cols + 8191) / 8192;
	long long b = want < most ? want : most;
	long long chunk = ((cols + b - 1) / b + 3) / 4 * 4;
	b = (cols + chunk - 1) / chunk;
	if (b > 65535) return 1;
	float *dst = b == 1 ? sums : part;
	dim3 grid((unsigned)rows, (unsigned)b);
	if (cols % 4 == 0 && ((unsigned long long)x & 15) == 0)
		chunk_sums<true><<<grid, THREADS, 0, s>>>(x, dst, cols, chunk);
	else
		chunk_sums<false><<<grid, THREADS, 0, s>>>(x, dst, cols, chunk);
	if (b > 1)
		warp_rows<<<(unsigned)((rows + THREADS / 32 - 1) / (THREADS / 32)), THREADS, 0, s>>>(part, sums, rows, b);
	return 0;
}
