// Corpus: element-wise vector addition with a host driver.
#include <cuda_runtime.h>

__global__ void vector_add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

int add_on_device(const float *ha, const float *hb, float *hc, int n)
{
	float *da, *db, *dc;
	size_t bytes = (size_t)n * sizeof(float);
	cudaMalloc((void **)&da, bytes);
	cudaMalloc((void **)&db, bytes);
	cudaMalloc((void **)&dc, bytes);
	cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice);
	cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice);
	vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
	cudaError_t err = cudaGetLastError();
	cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost);
	cudaFree(da);
	cudaFree(db);
	cudaFree(dc);
	return err == cudaSuccess ? 0 : -1;
}
