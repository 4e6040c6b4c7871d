// Corpus: templated batched AXPY with a compile-time vector width.
template <typename T, int VEC>
__global__ void batched_axpy(const T *x, T *y, const T *alpha, int n, int batch)
{
	int b = blockIdx.y;
	if (b >= batch)
		return;
	T a = alpha[b];
	int base = b * n;
	int i = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
#pragma unroll
	for (int v = 0; v < VEC; ++v)
		if (i + v < n)
			y[base + i + v] = a * x[base + i + v] + y[base + i + v];
}

void axpy_f32(const float *x, float *y, const float *a, int n, int batch)
{
	dim3 grid((n / 4 + 255) / 256, batch);
	batched_axpy<float, 4><<<grid, 256>>>(x, y, a, n, batch);
}

void axpy_f64(const double *x, double *y, const double *a, int n, int batch)
{
	dim3 grid((n + 255) / 256, batch);
	batched_axpy<double, 1><<<grid, 256>>>(x, y, a, n, batch);
}
