// Corpus: in-place ReLU and its gradient.
__global__ void relu_forward(float *x, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

__global__ void relu_backward(const float *x, const float *dy, float *dx, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dx[i] = x[i] > 0.0f ? dy[i] : 0.0f;
}

void relu(float *x, const float *dy, float *dx, int n)
{
	relu_forward<<<(n + 511) / 512, 512>>>(x, n);
	relu_backward<<<(n + 511) / 512, 512>>>(x, dy, dx, n);
}
