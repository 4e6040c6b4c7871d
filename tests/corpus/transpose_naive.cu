// Corpus: naive matrix transpose (coalesced read, strided write).
#define TILE 32

__global__ void transpose_naive(float *out, const float *in, int width, int height)
{
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += 8)
		if (x < width && y + j < height)
			out[x * height + (y + j)] = in[(y + j) * width + x];
}

void transpose(float *out, const float *in, int w, int h)
{
	dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE);
	transpose_naive<<<grid, dim3(TILE, 8)>>>(out, in, w, h);
}
