// 5-point Jacobi stencil, naive: out = 0.2 * (centre + 4 neighbours) on a
// w x h grid, 8 x 8 blocks, double literal.
// kcheck reports the double literal that makes the arithmetic FP64
// (math-fp64-promotion), the block narrower than a warp in x
// (gmem-narrow-blockdim-x), the 64-thread blocks (launch-tiny-blocks) and
// the unchecked launch.

__global__ void jacobi_naive(float *out, const float *in, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
		out[y * w + x] = 0.2 * (in[y * w + x] + in[y * w + x - 1] + in[y * w + x + 1] +
					in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}

void jacobi(float *out, const float *in, int w, int h)
{
	jacobi_naive<<<dim3((w + 7) / 8, (h + 7) / 8), dim3(8, 8)>>>(out, in, w, h);
}
