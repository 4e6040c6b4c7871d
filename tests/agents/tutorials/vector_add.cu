// Vector addition: one thread per element, the grid covers N exactly.
#include <iostream>
#include <cuda_runtime.h>

#define N (1 << 20)
#define BLOCK_SIZE 256

__global__ void vectorAdd(const float *a, const float *b, float *c)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	c[i] = a[i] + b[i];
}

int main()
{
	float *a = new float[N], *b = new float[N], *c = new float[N];
	for (int i = 0; i < N; i++) {
		a[i] = 1.0f;
		b[i] = 2.0f;
	}
	float *da, *db, *dc;
	cudaMalloc(&da, N * sizeof(float));
	cudaMalloc(&db, N * sizeof(float));
	cudaMalloc(&dc, N * sizeof(float));
	cudaMemcpy(da, a, N * sizeof(float), cudaMemcpyHostToDevice);
	cudaMemcpy(db, b, N * sizeof(float), cudaMemcpyHostToDevice);
	vectorAdd<<<N / BLOCK_SIZE, BLOCK_SIZE>>>(da, db, dc);
	cudaMemcpy(c, dc, N * sizeof(float), cudaMemcpyDeviceToHost);
	std::cout << "c[0] = " << c[0] << std::endl;
	cudaFree(da);
	cudaFree(db);
	cudaFree(dc);
	delete[] a;
	delete[] b;
	delete[] c;
	return 0;
}
