// Golden: surface object reads and writes in their layered and cubemap
// forms, which nvcc declares (surface_indirect_functions.h) and clang 19's
// CUDA wrapper does not: the nvcc prelude declares them, so a pyramid
// level written to a layered surface parses and its kernel is analyzed.

__global__ void downsample_level(cudaSurfaceObject_t out, cudaTextureObject_t in, int level, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h)
		return;
	float v = tex2D<float>(in, 2.0f * x + 1.0f, 2.0f * y + 1.0f);
	surf2DLayeredwrite(v, out, x * 4, y, level, cudaBoundaryModeZero);
	float prev = surf2DLayeredread<float>(out, x * 4, y, level);
	surf1DLayeredwrite(prev, out, x * 4, level);
	surfCubemapwrite(v, out, x * 4, y, 0);
}

void launch_downsample(cudaSurfaceObject_t out, cudaTextureObject_t in, int level, int w, int h)
{
	dim3 block(16, 16);
	dim3 grid((w + 15) / 16, (h + 15) / 16);
	downsample_level<<<grid, block>>>(out, in, level, w, h);
}

// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
// expect: SELECT count(*) FROM kernel WHERE name = 'downsample_level' AND kind = 'global' => 1
// expect: SELECT parse_errors FROM file WHERE is_main = 1 => 0
