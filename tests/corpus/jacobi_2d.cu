// Corpus: 5-point Jacobi sweep on a 2-D grid.
__global__ void jacobi(const float *u, float *unew, const float *f, int nx, int ny, float h2)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int j = blockIdx.y * blockDim.y + threadIdx.y;
	if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1) {
		int c = j * nx + i;
		unew[c] = 0.25f * (u[c - 1] + u[c + 1] + u[c - nx] + u[c + nx] - h2 * f[c]);
	}
}

void sweep(float *u, float *unew, const float *f, int nx, int ny, int iters)
{
	dim3 block(32, 4);
	dim3 grid((nx + 31) / 32, (ny + 3) / 4);
	for (int it = 0; it < iters; ++it) {
		jacobi<<<grid, block>>>(u, unew, f, nx, ny, 1.0f / (nx * nx));
		float *t = u;
		u = unew;
		unew = t;
	}
}
