// Corpus: im2col for a 2-D convolution (NCHW input).
__global__ void im2col(const float *im, float *col, int channels, int height, int width,
		       int ksize, int pad, int stride, int out_h, int out_w)
{
	int index = blockIdx.x * blockDim.x + threadIdx.x;
	int n = channels * out_h * out_w;
	for (; index < n; index += blockDim.x * gridDim.x) {
		int w_out = index % out_w;
		int h_index = index / out_w;
		int h_out = h_index % out_h;
		int c_in = h_index / out_h;
		int c_out = c_in * ksize * ksize;
		int h_in = h_out * stride - pad;
		int w_in = w_out * stride - pad;
		float *dst = col + (c_out * out_h + h_out) * out_w + w_out;
		const float *src = im + (c_in * height + h_in) * width + w_in;
		for (int i = 0; i < ksize; ++i) {
			for (int j = 0; j < ksize; ++j) {
				int h = h_in + i, w = w_in + j;
				*dst = (h >= 0 && w >= 0 && h < height && w < width) ? src[i * width + j] : 0.0f;
				dst += out_h * out_w;
			}
		}
	}
}

void run_im2col(const float *im, float *col, int c, int h, int w)
{
	int oh = h, ow = w;
	im2col<<<(c * oh * ow + 511) / 512, 512>>>(im, col, c, h, w, 3, 1, 1, oh, ow);
}
