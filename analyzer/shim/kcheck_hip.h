/* kcheck_hip.h: KernelArc's shim for parsing HIP without ROCm.  Enough of
 * hip_runtime.h for libclang to build an AST of HIP kernels and their
 * launch sites (hipLaunchKernelGGL expands to the <<<>>> form, as in ROCm). */
#pragma clang system_header
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __restrict__ __restrict
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __HIP_PLATFORM_AMD__ 1
#define __HIPCC__ 1

typedef __SIZE_TYPE__ size_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT32_TYPE__ uint32_t;

struct __kc_uint3 { unsigned x, y, z; };
extern __device__ const __kc_uint3 threadIdx, blockIdx, blockDim, gridDim;
extern __device__ const int warpSize;
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipGridDim_x gridDim.x

struct dim3 {
	unsigned x, y, z;
	__host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1)
		: x(vx), y(vy), z(vz) {}
};
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct float2 { float x, y; };

typedef int hipError_t;
typedef struct ihipStream_t *hipStream_t;
enum hipMemcpyKind { hipMemcpyHostToHost, hipMemcpyHostToDevice, hipMemcpyDeviceToHost,
	hipMemcpyDeviceToDevice, hipMemcpyDefault };
enum hipFuncAttribute { hipFuncAttributeMaxDynamicSharedMemorySize = 8 };
#define hipSuccess 0

extern "C" {
unsigned __hipPushCallConfiguration(dim3 g, dim3 b, size_t sm = 0, hipStream_t s = 0);
hipError_t hipMalloc(void **p, size_t n);
hipError_t hipHostMalloc(void **p, size_t n, unsigned flags = 0);
hipError_t hipMallocManaged(void **p, size_t n, unsigned flags = 1);
hipError_t hipFree(void *p);
hipError_t hipMemcpy(void *d, const void *s, size_t n, hipMemcpyKind k);
hipError_t hipMemcpyAsync(void *d, const void *s, size_t n, hipMemcpyKind k, hipStream_t st = 0);
hipError_t hipMemset(void *d, int v, size_t n);
hipError_t hipDeviceSynchronize(void);
hipError_t hipStreamSynchronize(hipStream_t s);
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorString(hipError_t e);
hipError_t hipFuncSetAttribute(const void *f, hipFuncAttribute a, int v);
}
template <class T> hipError_t hipMalloc(T **p, size_t n) { return hipMalloc((void **)p, n); }
#define hipLaunchKernelGGL(kernel, grid, block, smem, stream, ...) \
	kernel<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__)

extern "C" {
__device__ void __syncthreads(void);
__device__ void __syncwarp(void);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ unsigned long long __ballot(int p);
__device__ int __any(int p);
__device__ int __all(int p);
__device__ int __popcll(unsigned long long);
__device__ float __expf(float);
__device__ float __logf(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
}
#define KCHECK_SHFL(T) \
	__device__ T __shfl(T v, int l, int w = warpSize); \
	__device__ T __shfl_up(T v, unsigned d, int w = warpSize); \
	__device__ T __shfl_down(T v, unsigned d, int w = warpSize); \
	__device__ T __shfl_xor(T v, int l, int w = warpSize); \
	template <class M> __device__ T __shfl_sync(M m, T v, int l, int w = warpSize); \
	template <class M> __device__ T __shfl_down_sync(M m, T v, unsigned d, int w = warpSize); \
	template <class M> __device__ T __shfl_up_sync(M m, T v, unsigned d, int w = warpSize); \
	template <class M> __device__ T __shfl_xor_sync(M m, T v, int l, int w = warpSize);
KCHECK_SHFL(int) KCHECK_SHFL(unsigned) KCHECK_SHFL(float) KCHECK_SHFL(double)
#undef KCHECK_SHFL
template <class M> __device__ unsigned long long __ballot_sync(M m, int p);
template <class M> __device__ int __any_sync(M m, int p);
template <class M> __device__ int __all_sync(M m, int p);
__device__ int atomicAdd(int *a, int v);
__device__ unsigned atomicAdd(unsigned *a, unsigned v);
__device__ float atomicAdd(float *a, float v);
__device__ double atomicAdd(double *a, double v);
__device__ int atomicMax(int *a, int v);
__device__ int atomicMin(int *a, int v);
__device__ int atomicCAS(int *a, int c, int v);
__device__ int atomicExch(int *a, int v);
#define KCHECK_M1(f) __host__ __device__ double f(double); __host__ __device__ float f##f(float); \
	__host__ __device__ float f(float);
KCHECK_M1(sqrt) KCHECK_M1(rsqrt) KCHECK_M1(exp) KCHECK_M1(exp2) KCHECK_M1(log) KCHECK_M1(log2)
KCHECK_M1(sin) KCHECK_M1(cos) KCHECK_M1(tanh) KCHECK_M1(erf) KCHECK_M1(fabs) KCHECK_M1(floor)
KCHECK_M1(ceil)
#undef KCHECK_M1
__host__ __device__ double pow(double, double);
__host__ __device__ float powf(float, float);
__host__ __device__ float fmaxf(float, float);
__host__ __device__ float fminf(float, float);
__host__ __device__ int min(int, int);
__host__ __device__ int max(int, int);
__host__ void *malloc(size_t);
__host__ void free(void *);
__host__ int printf(const char *, ...);
#define INFINITY __builtin_inff()
#define FLT_MAX 3.402823466e+38F
