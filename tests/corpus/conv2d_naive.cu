// Corpus: direct 2-D convolution of a single-channel image, filter in
// constant memory.
#define KS 5
#define R (KS / 2)

__constant__ float filt[KS * KS];

__global__ void conv2d(const float *img, float *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	float acc = 0.0f;
	for (int dy = -R; dy <= R; ++dy) {
		for (int dx = -R; dx <= R; ++dx) {
			int ix = min(max(x + dx, 0), w - 1);
			int iy = min(max(y + dy, 0), h - 1);
			acc += filt[(dy + R) * KS + dx + R] * img[iy * w + ix];
		}
	}
	out[y * w + x] = acc;
}

void convolve(const float *img, float *out, int w, int h)
{
	dim3 block(16, 16);
	dim3 grid((w + 15) / 16, (h + 15) / 16);
	conv2d<<<grid, block>>>(img, out, w, h);
}
