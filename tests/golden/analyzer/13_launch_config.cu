// Golden: launch sites whose configurations fold to constants through dim3,
// macros and constexpr, and ones that stay run-time values.

#include <cuda_runtime.h>

#define THREADS 128
constexpr int kBlock = 512;

__global__ void fill2d(float *a, int pitch, float v)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	a[y * pitch + x] = v;
}

__global__ void scale(float *a, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		a[i] *= s;
}

__global__ void fill3d(float *a)
{
	a[threadIdx.z * 64 + threadIdx.y * 32 + threadIdx.x] = 0.0f;
}

__global__ void touch(float *a)
{
	a[threadIdx.x] = 1.0f;
}

void host_driver(float *d, int n, int pitch, int threads, cudaStream_t stream)
{
	fill2d<<<dim3(64, 2), dim3(16, 16)>>>(d, pitch, 1.0f);
	scale<<<(n + THREADS - 1) / THREADS, THREADS>>>(d, 2.0f, n);
	int n_blocks = (n + kBlock - 1) / kBlock;
	scale<<<n_blocks, kBlock, 0, stream>>>(d, 0.5f, n);
	dim3 b3(32, 2, 1);
	fill3d<<<1, b3>>>(d);
	for (int it = 0; it < 10; ++it)
		touch<<<4, threads>>>(d);
	cudaError_t err = cudaGetLastError();
	(void)err;
}

// expect: SELECT count(*) FROM launch => 5
// expect: SELECT api FROM launch WHERE line = 35 => chevron
// expect: SELECT grid_x FROM launch WHERE line = 35 => 64
// expect: SELECT grid_y FROM launch WHERE line = 35 => 2
// expect: SELECT grid_z FROM launch WHERE line = 35 => 1
// expect: SELECT grid_blocks FROM launch WHERE line = 35 => 128
// expect: SELECT block_x FROM launch WHERE line = 35 => 16
// expect: SELECT block_y FROM launch WHERE line = 35 => 16
// expect: SELECT block_threads FROM launch WHERE line = 35 => 256
// expect: SELECT func FROM launch WHERE line = 35 => host_driver
// expect: SELECT kernel FROM launch WHERE line = 35 => fill2d
// expect: SELECT block_source FROM kernel WHERE name = 'fill2d' => launch
// expect: SELECT block_x * 100 + block_y FROM kernel WHERE name = 'fill2d' => 1616
// expect: SELECT block_x FROM launch WHERE line = 36 => 128
// expect: SELECT grid_x FROM launch WHERE line = 36 => NULL
// expect: SELECT grid_is_ceil_div FROM launch WHERE line = 36 => 1
// expect: SELECT block_text FROM launch WHERE line = 36 => THREADS
// expect: SELECT block_x FROM launch WHERE line = 38 => 512
// expect: SELECT dyn_smem FROM launch WHERE line = 38 => 0
// expect: SELECT stream_text FROM launch WHERE line = 38 => stream
// expect: SELECT n_launch_sites FROM kernel WHERE name = 'scale' => 2
// expect: SELECT launch_sites_agree FROM kernel WHERE name = 'scale' => 0
// expect: SELECT block_source FROM kernel WHERE name = 'scale' => assumed
// expect: SELECT block_x FROM kernel WHERE name = 'scale' => 256
// expect: SELECT block_x * 10000 + block_y * 100 + block_z FROM launch WHERE line = 40 => 320201
// expect: SELECT grid_blocks FROM launch WHERE line = 40 => 1
// expect: SELECT block_x * 10000 + block_y * 100 + block_z FROM kernel WHERE name = 'fill3d' => 320201
// expect: SELECT block_x FROM launch WHERE line = 42 => NULL
// expect: SELECT grid_x FROM launch WHERE line = 42 => 4
// expect: SELECT in_loop FROM launch WHERE line = 42 => 1
// expect: SELECT in_loop FROM launch WHERE line = 35 => 0
// expect: SELECT block_source FROM kernel WHERE name = 'touch' => assumed
// expect: SELECT sectors_per_request FROM access WHERE kernel = 'fill2d' => 4
// expect: SELECT lanes FROM access WHERE kernel = 'fill3d' => 32
// expect: SELECT sectors_per_request FROM access WHERE kernel = 'fill3d' => 4
// expect: SELECT count(*) FROM call WHERE callee = 'cudaGetLastError' AND category = 'host_api' AND kernel IS NULL => 1
