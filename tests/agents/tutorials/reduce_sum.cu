// Parallel sum reduction with shared memory, timed on the host.
// Build: nvcc -O2 reduce_sum.cu -o reduce_sum && ./reduce_sum
#include <bits/stdc++.h>
#include <sys/time.h>
#include <cuda_runtime.h>
using namespace std;

#define THREADS 256
#define CHECK(call)                                                          \
	do {                                                                 \
		cudaError_t err_ = (call);                                   \
		if (err_ != cudaSuccess) {                                   \
			printf("CUDA error: %s\n", cudaGetErrorString(err_)); \
			exit(1);                                             \
		}                                                            \
	} while (0)

double seconds()
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return tv.tv_sec + tv.tv_usec * 1e-6;
}

__global__ void reduceSum(const float *input, float *output, int n)
{
	__shared__ float sdata[THREADS];
	unsigned int tid = threadIdx.x;
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
	sdata[tid] = (i < n) ? input[i] : 0.0f;
	__syncthreads();
	for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
		if (tid < s)
			sdata[tid] += sdata[tid + s];
		__syncthreads();
	}
	if (tid == 0)
		atomicAdd(output, sdata[0]);
}

float cpuSum(const vector<float> &v)
{
	double s = 0;
	for (float x : v)
		s += x;
	return (float)s;
}

int main()
{
	int n = 1 << 24;
	vector<float> h(n);
	for (int i = 0; i < n; i++)
		h[i] = rand() / (float)RAND_MAX;
	float *d_in, *d_out, result = 0;
	CHECK(cudaMalloc(&d_in, n * sizeof(float)));
	CHECK(cudaMalloc(&d_out, sizeof(float)));
	CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemset(d_out, 0, sizeof(float)));
	int blocks = (n + THREADS - 1) / THREADS;
	double t0 = seconds();
	reduceSum<<<blocks, THREADS>>>(d_in, d_out, n);
	CHECK(cudaDeviceSynchronize());
	double t1 = seconds();
	CHECK(cudaMemcpy(&result, d_out, sizeof(float), cudaMemcpyDeviceToHost));
	printf("gpu %f cpu %f time %.3f ms\n", result, cpuSum(h), (t1 - t0) * 1e3);
	cudaFree(d_in);
	cudaFree(d_out);
	return 0;
}
