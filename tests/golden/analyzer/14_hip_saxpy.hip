// Golden: a HIP translation unit.  hipLaunchKernelGGL launches fold like
// chevron launches; warp-relative expectations hold for any warp size.

#include <hip/hip_runtime.h>

#define BLOCK 256

__global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

__global__ void strided_copy(const float *src, float *dst, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = src[4 * i];
}

void run_saxpy(int n, float a, const float *x, float *y, float *tmp)
{
	hipLaunchKernelGGL(saxpy, dim3((n + BLOCK - 1) / BLOCK), dim3(BLOCK), 0, 0, n, a, x, y);
	hipLaunchKernelGGL(strided_copy, dim3(n / 64), dim3(64), 0, 0, x, tmp, n);
	hipDeviceSynchronize();
}

// expect: SELECT lang FROM file WHERE is_main = 1 => hip
// expect: SELECT lang FROM kernel WHERE name = 'saxpy' => hip
// expect: SELECT count(*) FROM kernel WHERE kind = 'global' => 2
// expect: SELECT count(*) FROM launch => 2
// expect: SELECT api FROM launch WHERE line = 24 => hipLaunchKernelGGL
// expect: SELECT kernel FROM launch WHERE line = 24 => saxpy
// expect: SELECT block_x FROM launch WHERE line = 24 => 256
// expect: SELECT block_threads FROM launch WHERE line = 24 => 256
// expect: SELECT grid_x FROM launch WHERE line = 24 => NULL
// expect: SELECT block_x FROM launch WHERE line = 25 => 64
// expect: SELECT block_source FROM kernel WHERE name = 'saxpy' => launch
// expect: SELECT block_x FROM kernel WHERE name = 'strided_copy' => 64
// expect: SELECT sectors_per_request = ideal_sectors FROM access WHERE line = 12 AND base = 'x' => 1
// expect: SELECT coef_tx FROM access WHERE line = 12 AND base = 'x' => 1
// expect: SELECT coef_tx FROM access WHERE line = 19 AND base = 'src' => 4
// expect: SELECT sectors_per_request = 4 * ideal_sectors FROM access WHERE line = 19 AND base = 'src' => 1
// expect: SELECT uniformity FROM branch WHERE line = 11 => thread
// expect: SELECT count(*) FROM call WHERE callee = 'hipDeviceSynchronize' AND category = 'host_api' => 1
// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
