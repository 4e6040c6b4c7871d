// Corpus: 1-D stencil with a shared-memory halo.
#define RADIUS 3
#define BLOCK 256

__global__ void stencil_1d(const int *in, int *out, int n)
{
	__shared__ int temp[BLOCK + 2 * RADIUS];
	int gindex = threadIdx.x + blockIdx.x * blockDim.x;
	int lindex = threadIdx.x + RADIUS;
	temp[lindex] = in[gindex + RADIUS];
	if (threadIdx.x < RADIUS) {
		temp[lindex - RADIUS] = in[gindex];
		temp[lindex + BLOCK] = in[gindex + BLOCK + RADIUS];
	}
	__syncthreads();
	int result = 0;
	for (int offset = -RADIUS; offset <= RADIUS; offset++)
		result += temp[lindex + offset];
	if (gindex < n)
		out[gindex] = result;
}

void stencil(const int *in, int *out, int n)
{
	stencil_1d<<<n / BLOCK, BLOCK>>>(in, out, n);
}
