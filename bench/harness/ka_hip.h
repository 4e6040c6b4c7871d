/* bench/harness/ka_hip.h: the HIP runtime calls bench tasks need, mapped
 * onto CUDA, so that a .hip candidate builds with nvcc on NVIDIA (ka-bench
 * passes -x cu -include ka_hip.h).  On AMD, hipcc builds the same file
 * against the real HIP runtime.  Only what a kernel behind the task ABI
 * needs is here: launches, memory, errors, shared memory attributes. */
#ifndef KA_HIP_H
#define KA_HIP_H
#include <cuda_runtime.h>

typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
typedef dim3 hipDim3_t;
#define hipSuccess cudaSuccess
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemsetAsync cudaMemsetAsync
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipFuncSetAttribute(f, a, v) cudaFuncSetAttribute((const void *)(f), a, v)
#define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#define hipLaunchKernelGGL(k, grid, block, shmem, stream, ...) \
	k<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipGridDim_x gridDim.x

#endif
