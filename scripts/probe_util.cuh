// scripts/probe_util.cuh: what the correctness probes (scripts/*_probe.cu,
// run by scripts/probe.sh) share: a checked CUDA call that names the probe
// and exits 2, and a wait for a stream with a time limit, so that a launch
// that hangs is counted instead of hanging the probe.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <thread>
#include <cuda_runtime.h>

#ifndef PROBE_NAME
#error "define PROBE_NAME (the probe's name for its messages) before including probe_util.cuh"
#endif

#define CK(x)                                                                                \
	do {                                                                                 \
		cudaError_t e_ = (x);                                                        \
		if (e_ != cudaSuccess) {                                                     \
			fprintf(stderr, PROBE_NAME ": error: %s: %s\n", #x, cudaGetErrorString(e_)); \
			exit(2);                                                             \
		}                                                                            \
	} while (0)

// 0 when the stream's work finished, 1 when it is still running after ms
static int wait_for(cudaStream_t st, int ms)
{
	auto t0 = std::chrono::steady_clock::now();
	for (;;) {
		cudaError_t e = cudaStreamQuery(st);
		if (e == cudaSuccess)
			return 0;
		if (e != cudaErrorNotReady) {
			fprintf(stderr, PROBE_NAME ": error: %s\n", cudaGetErrorString(e));
			exit(2);
		}
		auto dt = std::chrono::steady_clock::now() - t0;
		if (std::chrono::duration_cast<std::chrono::milliseconds>(dt).count() > ms)
			return 1;
		std::this_thread::sleep_for(std::chrono::microseconds(200));
	}
}

// Fills every SM's shared memory with v (launch it with 48 KB of dynamic
// shared memory, opted in, and several blocks per SM) so that a slot no
// thread of the next kernel writes holds the marker.
__global__ void probe_pollute(float v)
{
	extern __shared__ float s[];
	for (int i = threadIdx.x; i < 12 * 1024; i += blockDim.x)
		s[i] = v;
	__syncthreads();
	if (s[(threadIdx.x * 7) % (12 * 1024)] != v)
		s[0] = 0.f; // keeps the stores
}
