/* tests/golden/hip_shim/hip/hip_runtime.h: maps the few HIP runtime names the
 * golden .hip files use onto CUDA, so that check_compile.sh can compile them
 * with nvcc (`-x cu`) on a machine without ROCm.  Not used by kcheck. */
#ifndef KA_GOLDEN_HIP_SHIM_H
#define KA_GOLDEN_HIP_SHIM_H
#include <cuda_runtime.h>

#define hipLaunchKernelGGL(k, grid, block, smem, stream, ...) \
	k<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__)
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipGetLastError cudaGetLastError
#define hipError_t cudaError_t
#define hipSuccess cudaSuccess
#define hipStream_t cudaStream_t
#endif
