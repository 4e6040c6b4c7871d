// Corpus: 2x2 max pooling, NCHW, stride 2.
#include <cfloat>

__global__ void maxpool2x2(const float *in, float *out, int c, int h, int w)
{
	int ox = blockIdx.x * blockDim.x + threadIdx.x;
	int oy = blockIdx.y * blockDim.y + threadIdx.y;
	int ch = blockIdx.z;
	int ow = w / 2, oh = h / 2;
	if (ox >= ow || oy >= oh)
		return;
	const float *plane = in + (size_t)ch * h * w;
	float m = -FLT_MAX;
#pragma unroll
	for (int dy = 0; dy < 2; ++dy)
#pragma unroll
		for (int dx = 0; dx < 2; ++dx)
			m = fmaxf(m, plane[(2 * oy + dy) * w + 2 * ox + dx]);
	out[((size_t)ch * oh + oy) * ow + ox] = m;
}

void pool(const float *in, float *out, int c, int h, int w)
{
	dim3 block(32, 8);
	dim3 grid((w / 2 + 31) / 32, (h / 2 + 7) / 8, c);
	maxpool2x2<<<grid, block>>>(in, out, c, h, w);
}
