// scripts/skip_barrier_probe.cu: what a __syncthreads() inside a
// thread-dependent `if` does on the GPU at hand when the threads that skip
// the branch reach no other barrier before they exit (scripts/probe.sh
// skip_barrier, rules sync-barrier-skip-exit and
// sync-barrier-in-divergent-branch).
//
// Three kernels whose last block has threads past the data, which skip the
// branch that holds the barrier and run to the end of the kernel:
//   - own:      1-D, each survivor reads back only its own shared slot;
//   - rows:     16 x 16 blocks, one item per x, its 16 threads (y) reduce
//               the item's values in shared memory inside `if (f < n)`:
//               the survivors read only slots of their own x (ArrayFire's
//               ORB orientation); the skipping threads first spin on a
//               clock loop after the branch, so they exit late;
//   - exchange: 1-D, the survivors read a neighbour's slot, which a
//               skipping thread would have written;
//   - loop_own, loop_exchange: the same two reads inside a grid-stride
//               loop with barriers whose bound is not a multiple of the
//               grid's threads: in the last trip of the first block only
//               37 threads are left, the others have left the loop and
//               exited.
// Before each run, a polluting kernel fills every SM's shared memory with a
// marker, so a slot nobody wrote holds it.  The probe reports, over R runs,
// whether every launch finished within a time limit (no hang) and how many
// runs gave a wrong result against the CPU.
#define PROBE_NAME "skip_barrier_probe"
#include "probe_util.cuh"
#include <vector>

constexpr int B = 256;

__global__ void own(const float *in, float *out, int n)
{
	__shared__ float s[B];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		s[threadIdx.x] = in[i] * 2.f;
		__syncthreads();
		out[i] = s[threadIdx.x] + 1.f;
	}
}

__global__ void rows(const float *in, float *out, int n, long long spin)
{
	__shared__ float s[16 * 16];
	int f = blockIdx.x * blockDim.x + threadIdx.x;
	if (f < n) {
		int idx = threadIdx.x * 16 + threadIdx.y;
		s[idx] = in[f * 16 + threadIdx.y];
		__syncthreads();
		for (int k = 8; k > 0; k >>= 1) {
			if (threadIdx.y < k)
				s[idx] += s[idx + k];
			__syncthreads();
		}
		if (threadIdx.y == 0)
			out[f] = s[threadIdx.x * 16];
	} else {
		long long t0 = clock64();
		while (clock64() - t0 < spin) {
		}
	}
}

__global__ void exchange(const float *in, float *out, int n)
{
	__shared__ float s[B];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		s[threadIdx.x] = in[i];
		__syncthreads();
		out[i] = s[(threadIdx.x + 1) % B] - s[threadIdx.x];
	}
}

__global__ void loop_own(const float *in, float *out, int n)
{
	__shared__ float s[B];
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		s[threadIdx.x] = in[i] * 2.f;
		__syncthreads();
		out[i] = s[threadIdx.x] + 1.f;
		__syncthreads();
	}
}

__global__ void loop_exchange(const float *in, float *out, int n)
{
	__shared__ float s[B];
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
		s[threadIdx.x] = in[i];
		__syncthreads();
		out[i] = s[(threadIdx.x + 1) % B] - s[threadIdx.x];
		__syncthreads();
	}
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 200;
	const int n = 1000 * B + 37; // the last block keeps 37 of its 256 threads
	const int blocks = (n + B - 1) / B;
	const int items = 1000 * 16 + 5; // the last 16 x 16 block keeps 5 of its 16 items
	cudaDeviceProp p;
	CK(cudaGetDeviceProperties(&p, 0));
	CK(cudaFuncSetAttribute(probe_pollute, cudaFuncAttributeMaxDynamicSharedMemorySize, 48 * 1024));
	std::vector<float> h(n), ho(n), hr(items * 16), hro(items);
	for (int i = 0; i < n; i++)
		h[i] = (float)(i % 7);
	for (int i = 0; i < items * 16; i++)
		hr[i] = (float)(i % 5);
	float *din, *dout, *drin;
	CK(cudaMalloc(&din, n * sizeof(float)));
	CK(cudaMalloc(&dout, n * sizeof(float)));
	CK(cudaMalloc(&drin, items * 16 * sizeof(float)));
	CK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
	CK(cudaMemcpy(drin, hr.data(), items * 16 * sizeof(float), cudaMemcpyHostToDevice));
	cudaStream_t st;
	CK(cudaStreamCreate(&st));
	const char *names[5] = {"own", "rows", "exchange", "loop_own", "loop_exchange"};
	int hang[5] = {0, 0, 0, 0, 0}, wrong[5] = {0, 0, 0, 0, 0};
	const int loop_blocks = 125; // n = 8 trips of 125 x 256 threads, and 37 more
	for (int r = 0; r < runs; r++) {
		for (int which = 0; which < 5; which++) {
			probe_pollute<<<p.multiProcessorCount * 4, 256, 48 * 1024, st>>>(1e6f);
			CK(cudaMemsetAsync(dout, 0, n * sizeof(float), st));
			if (which == 0)
				own<<<blocks, B, 0, st>>>(din, dout, n);
			else if (which == 1)
				rows<<<(items + 15) / 16, dim3(16, 16), 0, st>>>(drin, dout, items, 100000);
			else if (which == 2)
				exchange<<<blocks, B, 0, st>>>(din, dout, n);
			else if (which == 3)
				loop_own<<<loop_blocks, B, 0, st>>>(din, dout, n);
			else
				loop_exchange<<<loop_blocks, B, 0, st>>>(din, dout, n);
			CK(cudaGetLastError());
			if (wait_for(st, 5000)) {
				hang[which]++;
				printf("run %d: %s did not finish within 5 s\n", r, names[which]);
				return 1;
			}
			int bad = 0;
			if (which == 1) {
				CK(cudaMemcpy(hro.data(), dout, items * sizeof(float), cudaMemcpyDeviceToHost));
				for (int f = 0; f < items && !bad; f++) {
					float sum = 0.f;
					for (int y = 0; y < 16; y++)
						sum += hr[f * 16 + y];
					bad = hro[f] != sum;
				}
			} else {
				CK(cudaMemcpy(ho.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
				for (int i = 0; i < n && !bad; i++) {
					// a slot past the data counts as 0: what a guarded
					// load (`s[t] = (i < n) ? in[i] : 0`) would leave
					int j = i / B * B + (i % B + 1) % B;
					int own_slot = which == 0 || which == 3;
					float want = own_slot ? h[i] * 2.f + 1.f : (j < n ? h[j] : 0.f) - h[i];
					bad = ho[i] != want;
				}
			}
			wrong[which] += bad;
		}
	}
	printf("| GPU | kernel | survivors read inside the branch or loop | runs | did not finish | wrong results |\n");
	printf("|---|---|---|---:|---:|---:|\n");
	const char *what[5] = {"their own shared slot", "slots of their own x (the skipping threads spin, then exit)",
			       "a neighbour's slot (a skipping thread's, in the last block)",
			       "their own shared slot, in a grid-stride loop (the threads with a trip fewer exit)",
			       "a neighbour's slot, in a grid-stride loop (a thread's that left, in the last trip)"};
	for (int k = 0; k < 5; k++)
		printf("| %s (sm_%d%d) | %s | %s | %d | %d | %d |\n", p.name, p.major, p.minor, names[k], what[k], runs,
		       hang[k], wrong[k]);
	return 0;
}
