// Corpus: Mandelbrot escape-time iteration (data-dependent trip count).
__global__ void mandelbrot(unsigned char *img, int w, int h, int max_iter)
{
	int px = blockIdx.x * blockDim.x + threadIdx.x;
	int py = blockIdx.y * blockDim.y + threadIdx.y;
	if (px >= w || py >= h)
		return;
	float cx = -2.0f + 3.0f * px / w;
	float cy = -1.5f + 3.0f * py / h;
	float zx = 0.0f, zy = 0.0f;
	int it = 0;
	while (zx * zx + zy * zy < 4.0f && it < max_iter) {
		float t = zx * zx - zy * zy + cx;
		zy = 2.0f * zx * zy + cy;
		zx = t;
		++it;
	}
	img[py * w + px] = (unsigned char)(255 * it / max_iter);
}

void render(unsigned char *img, int w, int h)
{
	mandelbrot<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(img, w, h, 256);
}
