// A templated kernel as tutorials write it: the element type and the block
// size are template parameters, main() instantiates it for float and keeps
// the default block size.
#include <cstdio>
#include <vector>

template <typename T, int BLOCK = 256>
__global__ void saxpyT(int n, T a, const T *__restrict__ x, T *y)
{
	int i = blockIdx.x * BLOCK + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

template <typename T>
__global__ void fillT(T *p, T v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = v;
}

int main()
{
	const int n = 1 << 20;
	float *x, *y;
	cudaMalloc(&x, n * sizeof(float));
	cudaMalloc(&y, n * sizeof(float));
	saxpyT<float><<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
	std::vector<float> h(n);
	cudaMemcpy(h.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
	printf("%f\n", h[0]);
	return 0;
}
