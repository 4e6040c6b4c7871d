// scripts/early_return_probe.cu: what a thread-dependent `return` before a
// __syncthreads() does on the GPU at hand (scripts/probe.sh early_return,
// rules sync-early-return-before-barrier and sync-early-return-exit).
//
// Two kernels whose last block loses its tail threads to `if (i >= n)
// return;` before a barrier:
//   - own:      each survivor reads back only its own shared slot after the
//               barrier (nothing the returned threads would have written);
//   - exchange: a block tree reduction: survivors read the slots of the
//               threads that returned.
// Before each run, a polluting kernel fills every SM's shared memory with a
// marker, so a slot nobody wrote holds it.  The probe reports, over R runs,
// whether every launch finished within a time limit (no hang) and how many
// runs gave a wrong result against the CPU.
#define PROBE_NAME "early_return_probe"
#include "probe_util.cuh"
#include <vector>

constexpr int B = 256;

__global__ void own(const float *in, float *out, int n)
{
	__shared__ float s[B];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	s[threadIdx.x] = in[i] * 2.f;
	__syncthreads();
	out[i] = s[threadIdx.x] + 1.f;
}

__global__ void exchange(const float *in, float *out, int n)
{
	__shared__ float s[B];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	s[threadIdx.x] = in[i];
	__syncthreads();
	for (int k = B / 2; k > 0; k >>= 1) {
		if (threadIdx.x < k)
			s[threadIdx.x] += s[threadIdx.x + k];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = s[0];
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 200;
	const int n = 1000 * B + 37; // the last block keeps 37 of its 256 threads
	const int blocks = (n + B - 1) / B;
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	CK(cudaFuncSetAttribute(probe_pollute, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024));
	std::vector<float> h(n), ho(n), hs(blocks);
	for (int i = 0; i < n; i++)
		h[i] = (float)(i % 7);
	float *din, *dout;
	CK(cudaMalloc(&din, n * sizeof(float)));
	CK(cudaMalloc(&dout, n * sizeof(float)));
	CK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
	cudaStream_t st;
	CK(cudaStreamCreate(&st));
	int hang[2] = {0, 0}, wrong[2] = {0, 0};
	for (int r = 0; r < runs; r++) {
		for (int which = 0; which < 2; which++) {
			probe_pollute<<<p.multiProcessorCount * 4, 256, 48 * 1024, st>>>(1e6f);
			CK(cudaMemsetAsync(dout, 0, n * sizeof(float), st));
			if (which == 0)
				own<<<blocks, B, 0, st>>>(din, dout, n);
			else
				exchange<<<blocks, B, 0, st>>>(din, dout, n);
			CK(cudaGetLastError());
			if (wait_for(st, 5000)) {
				hang[which]++;
				printf("run %d: %s did not finish within 5 s\n", r, which ? "exchange" : "own");
				return 1;
			}
			if (which == 0) {
				CK(cudaMemcpy(ho.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
				int bad = 0;
				for (int i = 0; i < n && !bad; i++)
					bad = ho[i] != h[i] * 2.f + 1.f;
				wrong[0] += bad;
			} else {
				CK(cudaMemcpy(hs.data(), dout, blocks * sizeof(float), cudaMemcpyDeviceToHost));
				int bad = 0;
				for (int b = 0; b < blocks && !bad; b++) {
					float sum = 0.f;
					for (int i = b * B; i < n && i < (b + 1) * B; i++)
						sum += h[i];
					bad = hs[b] != sum;
				}
				wrong[1] += bad;
			}
		}
	}
	printf("| GPU | kernel | survivors read after the barrier | runs | did not finish | wrong results |\n");
	printf("|---|---|---|---:|---:|---:|\n");
	printf("| %s (sm_%d%d) | own | their own shared slot | %d | %d | %d |\n", p.name, p.major, p.minor, runs,
	       hang[0], wrong[0]);
	printf("| %s (sm_%d%d) | exchange | the returned threads' slots (tree reduction) | %d | %d | %d |\n",
	       p.name, p.major, p.minor, runs, hang[1], wrong[1]);
	return 0;
}
