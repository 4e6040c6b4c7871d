// Corpus: SAXPY with a grid-stride loop and a fixed grid.
__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		y[i] = a * x[i] + y[i];
}

void run_saxpy(int n, float a, const float *x, float *y, int sms)
{
	saxpy<<<sms * 4, 256>>>(n, a, x, y);
}
