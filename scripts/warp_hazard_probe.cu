// scripts/warp_hazard_probe.cu: what two warp-level hazards that kcheck
// reports as errors do on the GPU at hand (scripts/probe.sh warp_hazard;
// rules sync-warp-synchronous-no-syncwarp and
// sync-full-mask-in-divergent-branch).
//
//   - lockstep: the last-warp unrolled reduction of the classic tutorials,
//     `if (tid < 32) { v[tid] += v[tid + 32]; ... }` on a volatile shared
//     array with no __syncwarp() between the steps, against the same code
//     with __syncwarp() after each step, and without volatile either;
//   - tailmask: `__shfl_down_sync(0xffffffff, ...)` under a bounds guard
//     `if (row < M)` where each row is a group of 16 lanes and M is odd, so
//     the last warp has one group inside the guard and one outside.
// Each kernel runs R times on fresh inputs; the probe counts the runs with a
// wrong result and the launches that did not finish within 5 s.
#define PROBE_NAME "warp_hazard_probe"
#include "probe_util.cuh"
#include <vector>

constexpr int B = 256;

template <bool SYNC, typename P> __device__ void last_warp(P v, unsigned tid)
{
	v[tid] += v[tid + 32];
	if (SYNC)
		__syncwarp();
	v[tid] += v[tid + 16];
	if (SYNC)
		__syncwarp();
	v[tid] += v[tid + 8];
	if (SYNC)
		__syncwarp();
	v[tid] += v[tid + 4];
	if (SYNC)
		__syncwarp();
	v[tid] += v[tid + 2];
	if (SYNC)
		__syncwarp();
	v[tid] += v[tid + 1];
}

template <bool SYNC, bool VOLATILE> __global__ void lockstep(const int *in, int *out)
{
	__shared__ int s[B];
	unsigned tid = threadIdx.x;
	s[tid] = in[blockIdx.x * B + tid];
	__syncthreads();
	for (unsigned k = B / 2; k > 32; k >>= 1) {
		if (tid < k)
			s[tid] += s[tid + k];
		__syncthreads();
	}
	if (tid < 32) {
		if (VOLATILE)
			last_warp<SYNC>((volatile int *)s, tid);
		else
			last_warp<SYNC>((int *)s, tid);
	}
	if (tid == 0)
		out[blockIdx.x] = s[0];
}

// rows of N = 16 columns, one row per group of 16 lanes
__global__ void tailmask(const float *a, float *y, int M)
{
	int row = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
	int lane = threadIdx.x % 16;
	if (row < M) {
		float v = a[row * 16 + lane];
		v += __shfl_down_sync(0xffffffff, v, 8);
		v += __shfl_down_sync(0xffffffff, v, 4);
		v += __shfl_down_sync(0xffffffff, v, 2);
		v += __shfl_down_sync(0xffffffff, v, 1);
		if (lane == 0)
			y[row] = v;
	}
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 200;
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	cudaStream_t st;
	CK(cudaStreamCreate(&st));
	const int blocks = 4096, n = blocks * B;
	const int M = 100001; // odd: the last warp's second group of 16 lanes is out
	std::vector<int> hi(n), ho(blocks);
	std::vector<float> ha((size_t)M * 16), hy(M);
	int *din, *dout;
	float *da, *dy;
	CK(cudaMalloc(&din, n * sizeof(int)));
	CK(cudaMalloc(&dout, blocks * sizeof(int)));
	CK(cudaMalloc(&da, ha.size() * sizeof(float)));
	CK(cudaMalloc(&dy, M * sizeof(float)));
	int wrong[4] = {0, 0, 0, 0}, hang[4] = {0, 0, 0, 0};
	unsigned seed = 12345;
	for (int r = 0; r < runs; r++) {
		for (int i = 0; i < n; i++)
			hi[i] = (int)((seed = seed * 1103515245u + 12345u) >> 20) % 1000;
		for (size_t i = 0; i < ha.size(); i++)
			ha[i] = (float)((seed = seed * 1103515245u + 12345u) >> 24);
		CK(cudaMemcpy(din, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));
		CK(cudaMemcpy(da, ha.data(), ha.size() * sizeof(float), cudaMemcpyHostToDevice));
		for (int which = 0; which < 4; which++) {
			if (which == 0)
				lockstep<false, true><<<blocks, B, 0, st>>>(din, dout);
			else if (which == 1)
				lockstep<true, true><<<blocks, B, 0, st>>>(din, dout);
			else if (which == 3)
				lockstep<false, false><<<blocks, B, 0, st>>>(din, dout);
			else
				tailmask<<<(M * 16 + B - 1) / B, B, 0, st>>>(da, dy, M);
			CK(cudaGetLastError());
			if (wait_for(st, 5000)) {
				hang[which]++;
				printf("run %d: kernel %d did not finish within 5 s\n", r, which);
				return 1;
			}
			int bad = 0;
			if (which != 2) {
				CK(cudaMemcpy(ho.data(), dout, blocks * sizeof(int), cudaMemcpyDeviceToHost));
				for (int b = 0; b < blocks && !bad; b++) {
					int sum = 0;
					for (int i = 0; i < B; i++)
						sum += hi[b * B + i];
					bad = ho[b] != sum;
				}
			} else {
				CK(cudaMemcpy(hy.data(), dy, M * sizeof(float), cudaMemcpyDeviceToHost));
				for (int row = 0; row < M && !bad; row++) {
					float sum = 0.f;
					for (int c = 0; c < 16; c++)
						sum += ha[(size_t)row * 16 + c];
					bad = hy[row] != sum;
				}
			}
			wrong[which] += bad;
		}
	}
	const char *name[4] = {"lockstep: volatile last warp, no __syncwarp",
			       "lockstep: the same with __syncwarp", "tailmask: full-mask shuffles, odd M",
			       "lockstep: last warp neither volatile nor __syncwarp"};
	printf("| GPU | kernel | runs | did not finish | wrong results |\n|---|---|---:|---:|---:|\n");
	for (int i = 0; i < 4; i++)
		printf("| %s (sm_%d%d) | %s | %d | %d | %d |\n", p.name, p.major, p.minor, name[i], runs, hang[i],
		       wrong[i]);
	return 0;
}
