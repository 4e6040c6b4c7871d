/* Naive matrix transpose of an n x n matrix, timed with CUDA events. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define TILE 16

__global__ void transposeNaive(float *odata, const float *idata, int n)
{
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;
	if (x < n && y < n)
		odata[x * n + y] = idata[y * n + x];
}

static void fill(float *a, int count)
{
	for (int i = 0; i < count; i++)
		a[i] = (float)(rand() % 100);
}

static int verify(const float *in, const float *out, int n)
{
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++)
			if (out[c * n + r] != in[r * n + c])
				return 0;
	return 1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2048;
	size_t bytes = (size_t)n * n * sizeof(float);
	float *h_in = (float *)malloc(bytes), *h_out = (float *)malloc(bytes);
	fill(h_in, n * n);
	float *d_in, *d_out;
	cudaMalloc(&d_in, bytes);
	cudaMalloc(&d_out, bytes);
	cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
	dim3 block(TILE, TILE);
	dim3 grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
	cudaEvent_t start, stop;
	cudaEventCreate(&start);
	cudaEventCreate(&stop);
	cudaEventRecord(start);
	transposeNaive<<<grid, block>>>(d_out, d_in, n);
	cudaEventRecord(stop);
	cudaEventSynchronize(stop);
	float ms = 0;
	cudaEventElapsedTime(&ms, start, stop);
	cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);
	printf("%s, %.3f ms, %.1f GB/s\n", verify(h_in, h_out, n) ? "ok" : "WRONG", ms,
	       2.0 * bytes / ms / 1e6);
	cudaFree(d_in);
	cudaFree(d_out);
	free(h_in);
	free(h_out);
	return 0;
}
