// Corpus: 3x3 box blur over an array-of-structs RGB image.
struct Pixel {
	unsigned char r, g, b, a;
};

__global__ void box_blur(const Pixel *in, Pixel *out, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
		return;
	int r = 0, g = 0, b = 0;
	for (int dy = -1; dy <= 1; ++dy)
		for (int dx = -1; dx <= 1; ++dx) {
			Pixel p = in[(y + dy) * w + x + dx];
			r += p.r;
			g += p.g;
			b += p.b;
		}
	out[y * w + x].r = r / 9;
	out[y * w + x].g = g / 9;
	out[y * w + x].b = b / 9;
	out[y * w + x].a = in[y * w + x].a;
}

void blur(const Pixel *in, Pixel *out, int w, int h)
{
	box_blur<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(in, out, w, h);
}
