// Golden: what is a loop.  `do { ... } while (0)` (an error-check or
// statement macro) runs once and is not a loop; a range-based `for` is one.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                 \
	do {                                                                        \
		cudaError_t e_ = (call);                                            \
		if (e_ != cudaSuccess) {                                            \
			fprintf(stderr, "%s\n", cudaGetErrorString(e_));            \
			exit(1);                                                    \
		}                                                                   \
	} while (0)
#define SWAP(a, b)                \
	do {                      \
		float t_ = (a);   \
		(a) = (b);        \
		(b) = t_;         \
	} while (false)

__global__ void scale(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float a = x[i], b = 2.0f * a;
		SWAP(a, b);
		x[i] = a + b;
	}
}

__global__ void sum_fixed(const float *in, float *out)
{
	float v[4] = {0.0f, 1.0f, 2.0f, 3.0f};
	float s = 0.0f;
	for (float f : v)
		s += f * in[threadIdx.x];
	out[threadIdx.x] = s;
}

int main()
{
	int n = 1 << 20;
	float *d = nullptr;
	std::vector<float> h(n, 1.0f);
	CHECK(cudaMalloc(&d, n * sizeof(float)));
	CHECK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
	scale<<<(n + 255) / 256, 256>>>(d, n);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaFree(d));
	std::vector<int> reps = {1, 2, 3};
	for (int r : reps) {
		float *t = nullptr;
		CHECK(cudaMalloc(&t, n * sizeof(float) * r));
		scale<<<(n + 255) / 256, 256>>>(t, n);
		CHECK(cudaFree(t));
	}
	return 0;
}

// expect: SELECT count(*) FROM loop WHERE kernel = 'scale' => 0
// expect: SELECT count(*) FROM access WHERE line = 28 AND base = 'x' AND in_loop = 0 => 1
// expect: SELECT count(*) FROM loop WHERE kernel = 'sum_fixed' => 1
// expect: SELECT in_loop FROM access WHERE line = 37 AND base = 'in' => 1
// expect: SELECT in_loop FROM access WHERE line = 38 AND base = 'out' => 0
// expect: SELECT in_loop FROM call WHERE callee = 'cudaMalloc' AND line = 46 => 0
// expect: SELECT in_loop FROM call WHERE callee = 'cudaMemcpy' AND line = 47 => 0
// expect: SELECT in_loop FROM call WHERE callee = 'cudaFree' AND line = 50 => 0
// expect: SELECT in_loop FROM call WHERE callee = 'cudaMalloc' AND line = 54 => 1
// expect: SELECT in_host_loop_with_launch FROM call WHERE callee = 'cudaFree' AND line = 56 => 1
// expect: SELECT count(*) FROM loop WHERE kernel IS NULL AND kind = 'while' => 1
