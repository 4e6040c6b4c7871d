// scripts/severity_bench.cu: what the math and host-loop patterns that
// kcheck's rules flag cost in typical kernels on the GPU at hand, so that the
// rules' estimates (and through the impact bands, their severities) rest on
// measurement (docs/rules.md, "Impact").  scripts/severity_bench.sh builds
// and runs it; it prints one table row per case:
//   case | shape | flagged us | rewritten us | flagged/rewritten
// Each time is the median of REPS timed launches (CUDA events) after a
// warm-up; host-loop cases time the whole loop on the host clock.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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

__global__ void scale_kernel(float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = y[i] * 1.0001f + 1.0f;
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
	CK(cudaFree(x));
	CK(cudaFree(y));
	return 0;
}
