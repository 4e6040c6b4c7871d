// scripts/severity_bench.cu: what the math, host-loop, reduced-precision,
// local-array, host-copy and managed-memory patterns that kcheck's rules flag
// cost in typical kernels on the GPU at hand, so that the rules' estimates
// (and through the impact bands, their severities) rest on measurement
// (docs/rules.md, "Impact").  scripts/severity_bench.sh builds
// and runs it; it prints one table row per case:
//   case | shape | flagged us | rewritten us | flagged/rewritten
// Each time is the median of REPS timed launches (CUDA events) after a
// warm-up; host-loop cases time the whole loop on the host clock.  The bf16
// accumulation case also prints its largest relative error against a double
// sum on the host, next to the float accumulator's.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <vector>

#define CK(x)                                                                                   \
	do {                                                                                    \
		cudaError_t e_ = (x);                                                           \
		if (e_ != cudaSuccess) {                                                        \
			fprintf(stderr, "severity_bench: %s: %s\n", #x, cudaGetErrorString(e_)); \
			exit(2);                                                                \
		}                                                                               \
	} while (0)

static const int REPS = 21;

// Per-element bodies: the grid is the loop, one element per thread.
__global__ void pow3_elem(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = powf(x[i], 3.0f);
}
__global__ void mul3_elem(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i];
		y[i] = v * v * v;
	}
}
__global__ void fp64lit_elem(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] * 0.5 + 1.0; // double literals: the multiply-add runs in FP64
}
__global__ void fp32lit_elem(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = x[i] * 0.5f + 1.0f;
}
__global__ void exp_elem(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = exp((double)x[i]); // what the rule flags: the FP64 exp, conversions both ways
}
__global__ void expf_elem(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = expf(x[i]);
}

// The same operations in a dependent loop of K steps per element (the
// compute-bound shape the rules' in-loop estimates describe).
#define LOOP_KERNEL(name, step)                                      \
	__global__ void name(const float *x, float *y, int n, int k) \
	{                                                            \
		int i = blockIdx.x * blockDim.x + threadIdx.x;       \
		if (i >= n)                                          \
			return;                                      \
		float v = x[i], acc = 0.0f;                          \
		for (int j = 0; j < k; j++) {                        \
			step;                                        \
		}                                                    \
		y[i] = acc;                                          \
	}
LOOP_KERNEL(pow3_loop, acc += powf(v + j * 1e-3f, 3.0f))
LOOP_KERNEL(mul3_loop, float t = v + j * 1e-3f; acc += t * t * t)
LOOP_KERNEL(fp64lit_loop, acc = acc * 0.5 + v)
LOOP_KERNEL(fp32lit_loop, acc = acc * 0.5f + v)
LOOP_KERNEL(exp_loop, acc += exp((double)(v + j * 1e-3f)))
LOOP_KERNEL(expf_loop, acc += expf(v + j * 1e-3f))
// A branch on the lane's parity whose two sides each assign one value to
// the same place (div-lane-parity-branch, branch.select_form): cheap sides
// (a rounding each) against the branch-free loop with one of them, and
// sides with a math call each (sinf / cosf) against one call.
LOOP_KERNEL(parity_cheap_loop, float t = v + j * 1e-3f; if ((threadIdx.x & 1) == 0) acc = acc * 0.5f + rintf(t);
	    else acc = acc * 0.5f + floorf(t))
LOOP_KERNEL(nobranch_cheap_loop, float t = v + j * 1e-3f; acc = acc * 0.5f + rintf(t))
LOOP_KERNEL(parity_heavy_loop, float t = v + j * 1e-3f; if ((threadIdx.x & 1) == 0) acc = acc * 0.5f + sinf(t);
	    else acc = acc * 0.5f + cosf(t))
LOOP_KERNEL(nobranch_heavy_loop, float t = v + j * 1e-3f; acc = acc * 0.5f + sinf(t))

// Reduced precision.  2-byte elements one per lane (gmem-unpacked-2byte)
// against pairs (__nv_bfloat162) and eight per lane (one 16-byte uint4).
__global__ void bf16_one(const __nv_bfloat16 *x, __nv_bfloat16 *y, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = __float2bfloat16(a * __bfloat162float(x[i]));
}
__global__ void bf16_pair(const __nv_bfloat162 *x, __nv_bfloat162 *y, float a, int n2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n2) {
		float2 f = __bfloat1622float2(x[i]);
		y[i] = __floats2bfloat162_rn(a * f.x, a * f.y);
	}
}
__global__ void half_one(const __half *x, __half *y, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = __float2half(a * __half2float(x[i]));
}
// Eight 2-byte elements per lane as one uint4: P2 is the packed pair type.
__device__ inline float2 widen2(__nv_bfloat162 v) { return __bfloat1622float2(v); }
__device__ inline float2 widen2(__half2 v) { return __half22float2(v); }
__device__ inline void narrow2(float a, float b, __nv_bfloat162 *o) { *o = __floats2bfloat162_rn(a, b); }
__device__ inline void narrow2(float a, float b, __half2 *o) { *o = __floats2half2_rn(a, b); }
template <class P2> __global__ void eight_per_lane(const uint4 *x, uint4 *y, float a, int n8)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n8)
		return;
	uint4 v = x[i];
	P2 *p = reinterpret_cast<P2 *>(&v);
	for (int k = 0; k < 4; k++) {
		float2 f = widen2(p[k]);
		narrow2(a * f.x, a * f.y, &p[k]);
	}
	y[i] = v;
}
// Mixed widths: 2-byte accesses beside 4-byte ones, one element per lane,
// against eight elements per lane with every access 16 bytes wide (the
// share of the 2-byte requests bounds what vectorizing gains).
// A half -> float cast: one 2-byte load and one 4-byte store per element.
__global__ void h2f_one(const __half *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = __half2float(x[i]);
}
__global__ void h2f_eight(const uint4 *x, float4 *y, int n8)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n8)
		return;
	uint4 v = x[i];
	const __half2 *p = reinterpret_cast<const __half2 *>(&v);
	float2 a = __half22float2(p[0]), b = __half22float2(p[1]), c = __half22float2(p[2]), d = __half22float2(p[3]);
	y[2 * i] = make_float4(a.x, a.y, b.x, b.y);
	y[2 * i + 1] = make_float4(c.x, c.y, d.x, d.y);
}
// A particle code beside its id: a 4-byte load, a 2-byte load and a 4-byte
// store per element (the 2-byte access one of three).
__global__ void code_one(const unsigned *id, const unsigned short *code, unsigned *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = id[i] + (code[i] & 3u);
}
__global__ void code_eight(const uint4 *id, const uint4 *code, uint4 *out, int n8)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n8)
		return;
	uint4 c = code[i], a = id[2 * i], b = id[2 * i + 1];
	const unsigned short *s = reinterpret_cast<const unsigned short *>(&c);
	out[2 * i] = make_uint4(a.x + (s[0] & 3u), a.y + (s[1] & 3u), a.z + (s[2] & 3u), a.w + (s[3] & 3u));
	out[2 * i + 1] = make_uint4(b.x + (s[4] & 3u), b.y + (s[5] & 3u), b.z + (s[6] & 3u), b.w + (s[7] & 3u));
}
// A lane's 16 bytes as four narrower accesses at constant offsets (a hand
// unrolled run: gmem-uncoalesced-access reports each at the 16-byte lane
// stride) against the same bytes as one 16-byte access per lane.
__global__ void four_half2(const __half *x, __half *y, float a, int n8)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n8)
		return;
	const __half2 *p = reinterpret_cast<const __half2 *>(x);
	__half2 *q = reinterpret_cast<__half2 *>(y);
	float2 f0 = __half22float2(p[4 * i + 0]), f1 = __half22float2(p[4 * i + 1]);
	float2 f2 = __half22float2(p[4 * i + 2]), f3 = __half22float2(p[4 * i + 3]);
	q[4 * i + 0] = __floats2half2_rn(a * f0.x, a * f0.y);
	q[4 * i + 1] = __floats2half2_rn(a * f1.x, a * f1.y);
	q[4 * i + 2] = __floats2half2_rn(a * f2.x, a * f2.y);
	q[4 * i + 3] = __floats2half2_rn(a * f3.x, a * f3.y);
}
__global__ void four_floats(const float *x, float *y, float a, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n4)
		return;
	y[4 * i + 0] = a * x[4 * i + 0];
	y[4 * i + 1] = a * x[4 * i + 1];
	y[4 * i + 2] = a * x[4 * i + 2];
	y[4 * i + 3] = a * x[4 * i + 3];
}
// The same four floats per lane, all loaded before the first store: what
// the interleaved version above costs beyond the access width is the
// compiler keeping each load after the store before it (y may alias x).
__global__ void four_floats_loads_first(const float *x, float *y, float a, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n4)
		return;
	float v0 = x[4 * i + 0], v1 = x[4 * i + 1], v2 = x[4 * i + 2], v3 = x[4 * i + 3];
	y[4 * i + 0] = a * v0;
	y[4 * i + 1] = a * v1;
	y[4 * i + 2] = a * v2;
	y[4 * i + 3] = a * v3;
}
__global__ void one_float4(const float4 *x, float4 *y, float a, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n4)
		return;
	float4 v = x[i];
	y[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
}
// A float rounded to bf16 and widened again in every step of a dependent
// loop (math-lowp-round-trip) against staying in float.
LOOP_KERNEL(roundtrip_loop, acc = __bfloat162float(__float2bfloat16(acc * 0.5f + v)))
// One thread per row of C bf16 values summed in bf16 (math-lowp-accumulate)
// or in float: the time and the error against a double sum on the host.
__global__ void rowsum_bf16acc(const __nv_bfloat16 *x, float *y, int rows, int c)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	__nv_bfloat16 s = __float2bfloat16(0.0f);
	for (int j = 0; j < c; j++)
		s = __hadd(s, x[(long long)j * rows + r]);
	y[r] = __bfloat162float(s);
}
__global__ void rowsum_f32acc(const __nv_bfloat16 *x, float *y, int rows, int c)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= rows)
		return;
	float s = 0.0f;
	for (int j = 0; j < c; j++)
		s += __bfloat162float(x[(long long)j * rows + r]);
	y[r] = s;
}

__global__ void scale_kernel(float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = y[i] * 1.0001f + 1.0f;
}

// Local arrays (lmem-dynamic-local-array).  A layer norm over rows of
// ROW floats, one block per row: each thread keeps its slice of the row in
// a per-thread array of 64 floats (256 bytes) indexed by `i < iterations`
// with `iterations = row / blockDim.x` known only at run time, so the array
// is in local memory; the rewrite has the count as a template parameter,
// every loop unrolled, the slice in registers.  Both read the row once and
// write it once; the local array is stored once and reloaded twice.
__device__ inline float block_sum(float v, float *shr)
{
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	__syncthreads();
	if ((threadIdx.x & 31) == 0)
		shr[threadIdx.x >> 5] = v;
	__syncthreads();
	v = (threadIdx.x < (blockDim.x >> 5)) ? shr[threadIdx.x] : 0.0f;
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_xor_sync(0xffffffffu, v, o);
	return v;
}
__global__ void ln_rows_local(const float *x, const float *gamma, const float *beta, float *y, int row)
{
	__shared__ float shr[32];
	int iterations = row / blockDim.x, id = threadIdx.x;
	const float *xr = x + (size_t)blockIdx.x * row;
	float *yr = y + (size_t)blockIdx.x * row;
	float vals[64];
	float sum = 0.0f;
	for (int i = 0; i < iterations; i++) {
		vals[i] = xr[i * blockDim.x + id];
		sum += vals[i];
	}
	float mean = block_sum(sum, shr) / row;
	float var = 0.0f;
	for (int i = 0; i < iterations; i++) {
		vals[i] -= mean;
		var += vals[i] * vals[i];
	}
	float rstd = rsqrtf(block_sum(var, shr) / row + 1e-5f);
	for (int i = 0; i < iterations; i++) {
		int c = i * blockDim.x + id;
		yr[c] = vals[i] * rstd * gamma[c] + beta[c];
	}
}
// The run-time count kept, the slice read again from global memory (L1/L2)
// in each pass instead of kept: what the local array itself costs, apart
// from the unrolling a compile-time count allows.
__global__ void ln_rows_reread(const float *x, const float *gamma, const float *beta, float *y, int row)
{
	__shared__ float shr[32];
	int iterations = row / blockDim.x, id = threadIdx.x;
	const float *xr = x + (size_t)blockIdx.x * row;
	float *yr = y + (size_t)blockIdx.x * row;
	float sum = 0.0f;
	for (int i = 0; i < iterations; i++)
		sum += xr[i * blockDim.x + id];
	float mean = block_sum(sum, shr) / row;
	float var = 0.0f;
	for (int i = 0; i < iterations; i++) {
		float v = xr[i * blockDim.x + id] - mean;
		var += v * v;
	}
	float rstd = rsqrtf(block_sum(var, shr) / row + 1e-5f);
	for (int i = 0; i < iterations; i++) {
		int c = i * blockDim.x + id;
		yr[c] = (xr[c] - mean) * rstd * gamma[c] + beta[c];
	}
}
template <int ITER> __global__ void ln_rows_regs(const float *x, const float *gamma, const float *beta, float *y, int row)
{
	__shared__ float shr[32];
	int id = threadIdx.x;
	const float *xr = x + (size_t)blockIdx.x * row;
	float *yr = y + (size_t)blockIdx.x * row;
	float vals[ITER];
	float sum = 0.0f;
#pragma unroll
	for (int i = 0; i < ITER; i++) {
		vals[i] = xr[i * blockDim.x + id];
		sum += vals[i];
	}
	float mean = block_sum(sum, shr) / row;
	float var = 0.0f;
#pragma unroll
	for (int i = 0; i < ITER; i++) {
		vals[i] -= mean;
		var += vals[i] * vals[i];
	}
	float rstd = rsqrtf(block_sum(var, shr) / row + 1e-5f);
#pragma unroll
	for (int i = 0; i < ITER; i++) {
		int c = i * blockDim.x + id;
		yr[c] = vals[i] * rstd * gamma[c] + beta[c];
	}
}
// A fake quantizer's group buffer: one block of 1024 threads per group of
// `group4` float4; each thread copies its share of the group into a 2 KB
// per-thread array with a running counter (`data[reg_count++]` in a while
// loop, as DeepSpeed's fake_quantize kernels do), takes the block's max,
// then quantizes from the array.  The rewrite reads the group from global
// memory a second time instead of keeping it.
__device__ inline float block_max(float v, float *shr)
{
	for (int o = 16; o > 0; o >>= 1)
		v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	__syncthreads();
	if ((threadIdx.x & 31) == 0)
		shr[threadIdx.x >> 5] = v;
	__syncthreads();
	v = (threadIdx.x < (blockDim.x >> 5)) ? shr[threadIdx.x] : 0.0f;
	for (int o = 16; o > 0; o >>= 1)
		v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
	return v;
}
__device__ inline float4 quantize4(float4 v, float s)
{
	return make_float4(rintf(v.x * s) / s, rintf(v.y * s) / s, rintf(v.z * s) / s, rintf(v.w * s) / s);
}
__global__ void fq_group_local(float4 *vals, int group4)
{
	__shared__ float shr[32];
	float4 data[128];
	float4 *g = vals + (size_t)blockIdx.x * group4;
	int tid = threadIdx.x, reg_count = 0;
	float mx = 0.0f;
	while (tid < group4 && reg_count < 128) {
		data[reg_count] = g[tid];
		float4 d = data[reg_count];
		mx = fmaxf(mx, fmaxf(fmaxf(fabsf(d.x), fabsf(d.y)), fmaxf(fabsf(d.z), fabsf(d.w))));
		tid += blockDim.x;
		reg_count++;
	}
	float s = 127.0f / (block_max(mx, shr) + 1e-5f);
	for (int i = 0; i < reg_count; i++)
		g[i * blockDim.x + threadIdx.x] = quantize4(data[i], s);
}
__global__ void fq_group_reread(float4 *vals, int group4)
{
	__shared__ float shr[32];
	float4 *g = vals + (size_t)blockIdx.x * group4;
	float mx = 0.0f;
	for (int tid = threadIdx.x; tid < group4; tid += blockDim.x) {
		float4 d = g[tid];
		mx = fmaxf(mx, fmaxf(fmaxf(fabsf(d.x), fabsf(d.y)), fmaxf(fabsf(d.z), fabsf(d.w))));
	}
	float s = 127.0f / (block_max(mx, shr) + 1e-5f);
	for (int tid = threadIdx.x; tid < group4; tid += blockDim.x)
		g[tid] = quantize4(g[tid], s);
}

template <class F> static double median_event_us(F launch)
{
	cudaEvent_t a, b;
	CK(cudaEventCreate(&a));
	CK(cudaEventCreate(&b));
	std::vector<float> t;
	for (int r = 0; r < REPS + 3; r++) {
		CK(cudaEventRecord(a));
		launch();
		CK(cudaEventRecord(b));
		CK(cudaEventSynchronize(b));
		float ms = 0;
		CK(cudaEventElapsedTime(&ms, a, b));
		if (r >= 3)
			t.push_back(ms * 1000.0f);
	}
	CK(cudaGetLastError());
	CK(cudaEventDestroy(a));
	CK(cudaEventDestroy(b));
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
}

template <class F> static double median_host_us(F loop)
{
	std::vector<double> t;
	for (int r = 0; r < 7; r++) {
		CK(cudaDeviceSynchronize());
		auto t0 = std::chrono::steady_clock::now();
		loop();
		CK(cudaDeviceSynchronize());
		auto t1 = std::chrono::steady_clock::now();
		if (r >= 2)
			t.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
	}
	std::sort(t.begin(), t.end());
	return t[t.size() / 2];
}

static void row(const char *c, const char *shape, double flagged, double fixed)
{
	printf("| %s | %s | %.1f | %.1f | %.2f |\n", c, shape, flagged, fixed, flagged / fixed);
}

int main(void)
{
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	printf("device: %s (sm_%d%d, %d SMs)\n\n", p.name, p.major, p.minor, p.multiProcessorCount);
	printf("| case | shape | flagged us | rewritten us | flagged/rewritten |\n| --- | --- | ---: | ---: | ---: |\n");
	const int big = 1 << 26;
	float *x, *y;
	CK(cudaMalloc(&x, sizeof(float) * big));
	CK(cudaMalloc(&y, sizeof(float) * big));
	std::vector<float> h(big);
	for (int i = 0; i < big; i++)
		h[i] = 0.5f + (i % 1000) * 1e-3f;
	CK(cudaMemcpy(x, h.data(), sizeof(float) * big, cudaMemcpyHostToDevice));
	const int bs = 256;
	for (int n : {1 << 20, big}) {
		int g = (n + bs - 1) / bs;
		char shape[64];
		snprintf(shape, sizeof shape, "per element, n=2^%d", n == big ? 26 : 20);
		row("powf(v, 3.0f) vs v*v*v", shape, median_event_us([&] { pow3_elem<<<g, bs>>>(x, y, n); }),
		    median_event_us([&] { mul3_elem<<<g, bs>>>(x, y, n); }));
		row("FP64 literals vs 0.5f", shape, median_event_us([&] { fp64lit_elem<<<g, bs>>>(x, y, n); }),
		    median_event_us([&] { fp32lit_elem<<<g, bs>>>(x, y, n); }));
		row("exp((double)v) vs expf(v)", shape, median_event_us([&] { exp_elem<<<g, bs>>>(x, y, n); }),
		    median_event_us([&] { expf_elem<<<g, bs>>>(x, y, n); }));
	}
	{
		const int n = 1 << 22, k = 64, g = (n + bs - 1) / bs;
		const char *shape = "loop of 64 per element, n=2^22";
		row("powf(v, 3.0f) vs v*v*v", shape, median_event_us([&] { pow3_loop<<<g, bs>>>(x, y, n, k); }),
		    median_event_us([&] { mul3_loop<<<g, bs>>>(x, y, n, k); }));
		row("FP64 literals vs 0.5f", shape, median_event_us([&] { fp64lit_loop<<<g, bs>>>(x, y, n, k); }),
		    median_event_us([&] { fp32lit_loop<<<g, bs>>>(x, y, n, k); }));
		row("exp((double)v) vs expf(v)", shape, median_event_us([&] { exp_loop<<<g, bs>>>(x, y, n, k); }),
		    median_event_us([&] { expf_loop<<<g, bs>>>(x, y, n, k); }));
		row("parity if/else, one rounding a side (a select) vs no branch", shape,
		    median_event_us([&] { parity_cheap_loop<<<g, bs>>>(x, y, n, k); }),
		    median_event_us([&] { nobranch_cheap_loop<<<g, bs>>>(x, y, n, k); }));
		row("parity if/else, sinf / cosf a side (a select) vs sinf alone", shape,
		    median_event_us([&] { parity_heavy_loop<<<g, bs>>>(x, y, n, k); }),
		    median_event_us([&] { nobranch_heavy_loop<<<g, bs>>>(x, y, n, k); }));
	}
	// Host loops of 100 iterations, each launching one kernel over n floats.
	for (int n : {1 << 16, 1 << 24}) {
		int g = (n + bs - 1) / bs, it = 100;
		char shape[64];
		snprintf(shape, sizeof shape, "100 launches, n=2^%d", n == (1 << 16) ? 16 : 24);
		double plain = median_host_us([&] {
			for (int r = 0; r < it; r++)
				scale_kernel<<<g, bs>>>(y, n);
		});
		double sync = median_host_us([&] {
			for (int r = 0; r < it; r++) {
				scale_kernel<<<g, bs>>>(y, n);
				CK(cudaDeviceSynchronize());
			}
		});
		double alloc = median_host_us([&] {
			for (int r = 0; r < it; r++) {
				float *t;
				CK(cudaMalloc(&t, sizeof(float) * n));
				scale_kernel<<<g, bs>>>(t, n);
				CK(cudaFree(t));
			}
		});
		row("cudaDeviceSynchronize per iteration vs none", shape, sync, plain);
		row("cudaMalloc+cudaFree per iteration vs once", shape, alloc, plain);
	}
	// Reduced precision: 2-byte elements, n of them (the bytes of 2^(k-1) floats).
	{
		__nv_bfloat16 *xb = reinterpret_cast<__nv_bfloat16 *>(x), *yb = reinterpret_cast<__nv_bfloat16 *>(y);
		__half *xh = reinterpret_cast<__half *>(x), *yh = reinterpret_cast<__half *>(y);
		for (int n : {1 << 21, big}) {
			char shape[64];
			snprintf(shape, sizeof shape, "per element, n=2^%d", n == big ? 26 : 21);
			double one = median_event_us([&] { bf16_one<<<(n + bs - 1) / bs, bs>>>(xb, yb, 1.5f, n); });
			double pair = median_event_us([&] {
				bf16_pair<<<(n / 2 + bs - 1) / bs, bs>>>(reinterpret_cast<const __nv_bfloat162 *>(xb),
									 reinterpret_cast<__nv_bfloat162 *>(yb), 1.5f, n / 2);
			});
			double eight = median_event_us([&] {
				eight_per_lane<__nv_bfloat162><<<(n / 8 + bs - 1) / bs, bs>>>(reinterpret_cast<const uint4 *>(xb),
									  reinterpret_cast<uint4 *>(yb), 1.5f, n / 8);
			});
			row("bf16 one per lane vs __nv_bfloat162 pairs", shape, one, pair);
			row("bf16 one per lane vs 8 per lane (uint4)", shape, one, eight);
			double hone = median_event_us([&] { half_one<<<(n + bs - 1) / bs, bs>>>(xh, yh, 1.5f, n); });
			double height = median_event_us([&] {
				eight_per_lane<__half2><<<(n / 8 + bs - 1) / bs, bs>>>(reinterpret_cast<const uint4 *>(xh),
									  reinterpret_cast<uint4 *>(yh), 1.5f, n / 8);
			});
			row("__half one per lane vs 8 per lane (uint4)", shape, hone, height);
			double h4 = median_event_us([&] { four_half2<<<(n / 8 + bs - 1) / bs, bs>>>(xh, yh, 1.5f, n / 8); });
			row("four __half2 per lane (16-byte lane stride) vs one uint4", shape, h4, height);
			const int nf = n / 2; /* the same bytes as floats */
			double f4 = median_event_us([&] { four_floats<<<(nf / 4 + bs - 1) / bs, bs>>>(x, y, 1.5f, nf / 4); });
			double v4 = median_event_us([&] {
				one_float4<<<(nf / 4 + bs - 1) / bs, bs>>>(reinterpret_cast<const float4 *>(x),
									   reinterpret_cast<float4 *>(y), 1.5f, nf / 4);
			});
			row("four floats per lane (16-byte lane stride) vs one float4", shape, f4, v4);
			double f4l = median_event_us(
				[&] { four_floats_loads_first<<<(nf / 4 + bs - 1) / bs, bs>>>(x, y, 1.5f, nf / 4); });
			row("four floats per lane, loads first vs one float4", shape, f4l, v4);
			row("four floats per lane, each load after a store vs loads first", shape, f4, f4l);
			/* mixed widths over the same n elements: x holds the halves and
			 * codes, y the floats and ids (each at least 4n bytes) */
			const int nm = n / 2;
			char mshape[64];
			snprintf(mshape, sizeof mshape, "per element, n=2^%d", n == big ? 25 : 20);
			double hf1 = median_event_us([&] { h2f_one<<<(nm + bs - 1) / bs, bs>>>(xh, y, nm); });
			double hf8 = median_event_us([&] {
				h2f_eight<<<(nm / 8 + bs - 1) / bs, bs>>>(reinterpret_cast<const uint4 *>(xh),
									reinterpret_cast<float4 *>(y), nm / 8);
			});
			row("half->float cast, one per lane (2-byte load, 4-byte store) vs 8 per lane (16-byte)", mshape, hf1,
			    hf8);
			unsigned *ids = reinterpret_cast<unsigned *>(y), *outs = reinterpret_cast<unsigned *>(x) + nm / 2;
			const unsigned short *codes = reinterpret_cast<const unsigned short *>(x);
			double c1 = median_event_us([&] { code_one<<<(nm / 2 + bs - 1) / bs, bs>>>(ids, codes, outs, nm / 2); });
			double c8 = median_event_us([&] {
				code_eight<<<(nm / 16 + bs - 1) / bs, bs>>>(reinterpret_cast<const uint4 *>(ids),
									 reinterpret_cast<const uint4 *>(codes),
									 reinterpret_cast<uint4 *>(outs), nm / 16);
			});
			row("id + 2-byte code -> id, one per lane (one 2-byte access of three) vs 8 per lane (16-byte)",
			    mshape, c1, c8);
		}
		{
			const int n = 1 << 22, k = 64, g = (n + bs - 1) / bs;
			row("bf16 round trip per step vs float", "loop of 64 per element, n=2^22",
			    median_event_us([&] { roundtrip_loop<<<g, bs>>>(x, y, n, k); }),
			    median_event_us([&] { fp32lit_loop<<<g, bs>>>(x, y, n, k); }));
		}
		// rows x c values, column-major so that a warp's lanes read adjacent rows
		const int rows = 1 << 16, c = 512;
		std::vector<__nv_bfloat16> hb((size_t)rows * c);
		std::vector<double> ref(rows, 0.0);
		for (size_t i = 0; i < hb.size(); i++) {
			hb[i] = __float2bfloat16(0.25f + (float)((i * 2654435761u) % 1000) * 1e-3f);
			ref[i % rows] += (double)__bfloat162float(hb[i]);
		}
		CK(cudaMemcpy(xb, hb.data(), hb.size() * sizeof hb[0], cudaMemcpyHostToDevice));
		const int g = (rows + bs - 1) / bs;
		double tb = median_event_us([&] { rowsum_bf16acc<<<g, bs>>>(xb, y, rows, c); });
		std::vector<float> out(rows);
		CK(cudaMemcpy(out.data(), y, rows * sizeof(float), cudaMemcpyDeviceToHost));
		double eb = 0;
		for (int r = 0; r < rows; r++)
			eb = std::max(eb, std::abs(out[r] - ref[r]) / ref[r]);
		double tf = median_event_us([&] { rowsum_f32acc<<<g, bs>>>(xb, y, rows, c); });
		CK(cudaMemcpy(out.data(), y, rows * sizeof(float), cudaMemcpyDeviceToHost));
		double ef = 0;
		for (int r = 0; r < rows; r++)
			ef = std::max(ef, std::abs(out[r] - ref[r]) / ref[r]);
		row("sum of 512 bf16 in bf16 (__hadd) vs in float", "2^16 rows, time", tb, tf);
		printf("| sum of 512 bf16 in bf16 (__hadd) vs in float | 2^16 rows, max relative error | %.2e | %.2e | %.0f |\n",
		       eb, ef, ef > 0 ? eb / ef : 0.0);
	}
	// Local arrays: layer norm rows of 4096 floats, 4096 rows (64 MB in, 64 MB
	// out), at 256, 512 and 1024 threads a row (16, 8, 4 of the 64 entries
	// used); then fake-quantizer groups of 2^14, 2^16 and 2^18 floats over
	// 2^24 floats, 1024 threads a group (4, 16, 64 float4 a thread).
	{
		const int cols = 4096, rows = 4096;
		float *gb;
		CK(cudaMalloc(&gb, sizeof(float) * 2 * cols));
		CK(cudaMemcpy(gb, x, sizeof(float) * 2 * cols, cudaMemcpyDeviceToDevice));
		char shape[96];
		for (int t : {256, 512, 1024}) {
			snprintf(shape, sizeof shape, "%d rows of %d floats, %d threads a row (%d entries used)", rows, cols,
				 t, cols / t);
			double loc = median_event_us([&] { ln_rows_local<<<rows, t>>>(x, gb, gb + cols, y, cols); });
			double reg = median_event_us([&] {
				if (t == 256)
					ln_rows_regs<16><<<rows, t>>>(x, gb, gb + cols, y, cols);
				else if (t == 512)
					ln_rows_regs<8><<<rows, t>>>(x, gb, gb + cols, y, cols);
				else
					ln_rows_regs<4><<<rows, t>>>(x, gb, gb + cols, y, cols);
			});
			row("layer norm row slice in float[64] local vs registers (template count)", shape, loc, reg);
			double rr = median_event_us([&] { ln_rows_reread<<<rows, t>>>(x, gb, gb + cols, y, cols); });
			row("layer norm row slice in float[64] local vs read again from global (run-time count)", shape, loc,
			    rr);
		}
		CK(cudaFree(gb));
		const int n = 1 << 24;
		for (int gl : {14, 16, 18}) {
			int group4 = (1 << gl) / 4, groups = n / (1 << gl);
			snprintf(shape, sizeof shape, "%d groups of 2^%d floats, 1024 threads (%d float4 a thread)", groups,
				 gl, group4 / 1024);
			CK(cudaMemcpy(y, x, sizeof(float) * n, cudaMemcpyDeviceToDevice));
			double loc = median_event_us(
				[&] { fq_group_local<<<groups, 1024>>>(reinterpret_cast<float4 *>(y), group4); });
			CK(cudaMemcpy(y, x, sizeof(float) * n, cudaMemcpyDeviceToDevice));
			double rr = median_event_us(
				[&] { fq_group_reread<<<groups, 1024>>>(reinterpret_cast<float4 *>(y), group4); });
			row("fake-quantizer group in float4[128] local vs global re-read", shape, loc, rr);
		}
	}
	// Host copies of n bytes, pageable (malloc) vs pinned (cudaMallocHost),
	// each direction; the time per copy of a loop of copies.  And a managed
	// allocation of n bytes written on the host, then read by one kernel:
	// on demand (page faults) vs after cudaMemPrefetchAsync.
	{
		int dev = 0;
		CK(cudaGetDevice(&dev));
		for (size_t n : {(size_t)8, (size_t)4096, (size_t)65536, (size_t)1 << 20, (size_t)1 << 26}) {
			int it = n >= ((size_t)1 << 26) ? 3 : n >= ((size_t)1 << 20) ? 20 : 100;
			char *pg = (char *)malloc(n), *pn;
			CK(cudaMallocHost(&pn, n));
			memset(pg, 1, n);
			memset(pn, 1, n);
			char shape[64];
			snprintf(shape, sizeof shape, "%zu bytes, us per copy", n);
			for (int dir = 0; dir < 2; dir++) {
				auto copy = [&](char *h) {
					return median_host_us([&] {
						       for (int r = 0; r < it; r++)
							       CK(dir ? cudaMemcpy(h, x, n, cudaMemcpyDeviceToHost)
								      : cudaMemcpy(x, h, n, cudaMemcpyHostToDevice));
					       }) /
					       it;
				};
				row(dir ? "cudaMemcpy device to pageable vs pinned host" : "cudaMemcpy pageable vs pinned host to device",
				    shape, copy(pg), copy(pn));
			}
			free(pg);
			CK(cudaFreeHost(pn));
			int cnt = (int)(n / sizeof(float)) > 0 ? (int)(n / sizeof(float)) : 1;
			float *m;
			CK(cudaMallocManaged(&m, n < sizeof(float) ? sizeof(float) : n));
			auto touch = [&](int prefetch) {
				return median_host_us([&] {
					for (int i = 0; i < cnt; i += 1024)
						m[i] = 1.0f; // back on the host, page by page
					if (prefetch) {
						cudaMemLocation loc = {};
						loc.type = cudaMemLocationTypeDevice;
						loc.id = dev;
						CK(cudaMemPrefetchAsync(m, (size_t)cnt * sizeof(float), loc, 0, 0));
					}
					scale_kernel<<<(cnt + bs - 1) / bs, bs>>>(m, cnt);
				});
			};
			snprintf(shape, sizeof shape, "%zu bytes, host write then one kernel", n);
			row("cudaMallocManaged on demand vs prefetched", shape, touch(0), touch(1));
			CK(cudaFree(m));
		}
	}
	CK(cudaFree(x));
	CK(cudaFree(y));
	return 0;
}
