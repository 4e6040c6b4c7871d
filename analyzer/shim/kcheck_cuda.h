/* kcheck_cuda.h: KernelArc's shim for parsing CUDA without a toolkit.
 * Declares just enough of the CUDA runtime and device library for libclang
 * to build an AST (no code is generated from it).  Used when /usr/local/cuda
 * is missing, or with --shim. */
#pragma clang system_header
#include <__clang_cuda_builtin_vars.h>

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __CUDACC__ 1
/* nvcc's version macros (kcheck_nvcc.h says why): the shim stands for a
 * CUDA 12 toolkit */
#ifndef __CUDACC_VER_MAJOR__
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#endif

typedef __SIZE_TYPE__ size_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __INT32_TYPE__ int32_t;

struct dim3 {
	unsigned x, y, z;
	__host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1)
		: x(vx), y(vy), z(vz) {}
};
struct float2 { float x, y; };
struct float3 { float x, y, z; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct __attribute__((aligned(8))) int2 { int x, y; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
struct __attribute__((aligned(16))) double2 { double x, y; };
struct __attribute__((aligned(16))) uint4 { unsigned x, y, z, w; };
struct __attribute__((aligned(8))) uint2 { unsigned x, y; };
struct uint3 { unsigned x, y, z; };
struct int3 { int x, y, z; };
struct __attribute__((aligned(4))) ushort2 { unsigned short x, y; };
struct __attribute__((aligned(4))) short2 { short x, y; };
struct __attribute__((aligned(4))) char4 { signed char x, y, z, w; };
struct __attribute__((aligned(4))) uchar4 { unsigned char x, y, z, w; };
struct __attribute__((aligned(16))) longlong2 { long long x, y; };
struct __attribute__((aligned(16))) ulonglong2 { unsigned long long x, y; };
/* 2-byte floating types (cuda_fp16.h, cuda_bf16.h declare the rest): two
 * bytes each, the pairs four bytes aligned, conversions as CUDA's own. */
#define KCHECK_LOWP(T, T2) \
	struct __attribute__((aligned(2))) T { \
		unsigned short __x; \
		T() = default; \
		__host__ __device__ T(float); \
		__host__ __device__ T(double); \
		__host__ __device__ T(int); \
		__host__ __device__ T(unsigned); \
		__host__ __device__ operator float() const; \
	}; \
	struct __attribute__((aligned(4))) T2 { \
		T x, y; \
		T2() = default; \
		__host__ __device__ T2(T a, T b) : x(a), y(b) {} \
	};
KCHECK_LOWP(__half, __half2)
KCHECK_LOWP(__nv_bfloat16, __nv_bfloat162)
#undef KCHECK_LOWP
__host__ __device__ float4 make_float4(float, float, float, float);
__host__ __device__ uint4 make_uint4(unsigned, unsigned, unsigned, unsigned);
__host__ __device__ uint2 make_uint2(unsigned, unsigned);
__host__ __device__ int4 make_int4(int, int, int, int);
__host__ __device__ float2 make_float2(float, float);
__host__ __device__ int2 make_int2(int, int);

typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice,
	cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxSharedMemoryPerBlock = 8,
	cudaDevAttrWarpSize = 10, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrL2CacheSize = 38,
	cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81, cudaDevAttrMaxSharedMemoryPerBlockOptin = 97 };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
	cudaFuncAttributePreferredSharedMemoryCarveout = 9 };
#define cudaSuccess 0
#define cudaMemAttachGlobal 1
#define cudaCpuDeviceId (-1)

extern "C" {
unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, size_t sm = 0, cudaStream_t s = 0);
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags = 1);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags);
cudaError_t cudaHostRegister(void *p, size_t n, unsigned flags);
cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaFreeAsync(void *p, cudaStream_t s);
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind k);
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind k, cudaStream_t st = 0);
cudaError_t cudaMemset(void *d, int v, size_t n);
cudaError_t cudaMemsetAsync(void *d, int v, size_t n, cudaStream_t s = 0);
cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int dev, cudaStream_t s = 0);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaFuncSetAttribute(const void *f, cudaFuncAttribute a, int v);
cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int dev);
cudaError_t cudaGetDevice(int *d);
cudaError_t cudaSetDevice(int d);
}
template <class T> cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
template <class T> cudaError_t cudaMallocManaged(T **p, size_t n, unsigned f = 1) { return cudaMallocManaged((void **)p, n, f); }
template <class T> cudaError_t cudaMallocHost(T **p, size_t n) { return cudaMallocHost((void **)p, n); }
template <class T> cudaError_t cudaFuncSetAttribute(T *f, cudaFuncAttribute a, int v) { return cudaFuncSetAttribute((const void *)f, a, v); }

/* Device side: synchronization, warp functions, atomics, math. */
extern "C" {
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ unsigned __activemask(void);
__device__ int __any_sync(unsigned m, int p);
__device__ int __all_sync(unsigned m, int p);
__device__ unsigned __ballot_sync(unsigned m, int p);
__device__ int __any(int p);
__device__ int __all(int p);
__device__ unsigned __ballot(int p);
__device__ int __popc(unsigned);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ unsigned __umulhi(unsigned, unsigned);
__device__ float __expf(float);
__device__ float __logf(float);
__device__ float __sinf(float);
__device__ float __cosf(float);
__device__ float __powf(float, float);
__device__ float __fdividef(float, float);
__device__ float __frcp_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __saturatef(float);
}
#define KCHECK_SHFL(T) \
	__device__ T __shfl_sync(unsigned m, T v, int l, int w = 32); \
	__device__ T __shfl_up_sync(unsigned m, T v, unsigned d, int w = 32); \
	__device__ T __shfl_down_sync(unsigned m, T v, unsigned d, int w = 32); \
	__device__ T __shfl_xor_sync(unsigned m, T v, int l, int w = 32); \
	__device__ T __shfl(T v, int l, int w = 32); \
	__device__ T __shfl_up(T v, unsigned d, int w = 32); \
	__device__ T __shfl_down(T v, unsigned d, int w = 32); \
	__device__ T __shfl_xor(T v, int l, int w = 32); \
	__device__ T __ldg(const T *p);
KCHECK_SHFL(int) KCHECK_SHFL(unsigned) KCHECK_SHFL(float) KCHECK_SHFL(double)
KCHECK_SHFL(long long) KCHECK_SHFL(unsigned long long)
#undef KCHECK_SHFL
__device__ float4 __ldg(const float4 *p);
#define KCHECK_LDV(T) \
	__device__ T __ldg(const T *p); __device__ T __ldcs(const T *p); __device__ T __ldcg(const T *p); \
	__device__ T __ldlu(const T *p); __device__ void __stcs(T *p, T v); __device__ void __stcg(T *p, T v); \
	__device__ void __stwt(T *p, T v);
KCHECK_LDV(uint4) KCHECK_LDV(uint2) KCHECK_LDV(int4) KCHECK_LDV(int2) KCHECK_LDV(float2)
#undef KCHECK_LDV
__device__ float __ldcs(const float *p);
__device__ void __stcs(float *p, float v);
__device__ float4 __ldcs(const float4 *p);
__device__ void __stcs(float4 *p, float4 v);

#define KCHECK_ATOM(T) \
	__device__ T atomicAdd(T *a, T v); __device__ T atomicSub(T *a, T v); \
	__device__ T atomicExch(T *a, T v); __device__ T atomicMin(T *a, T v); \
	__device__ T atomicMax(T *a, T v); __device__ T atomicCAS(T *a, T c, T v); \
	__device__ T atomicAnd(T *a, T v); __device__ T atomicOr(T *a, T v); \
	__device__ T atomicXor(T *a, T v);
KCHECK_ATOM(int) KCHECK_ATOM(unsigned) KCHECK_ATOM(unsigned long long)
#undef KCHECK_ATOM
__device__ float atomicAdd(float *a, float v);
__device__ double atomicAdd(double *a, double v);
__device__ float atomicExch(float *a, float v);
__device__ unsigned atomicInc(unsigned *a, unsigned v);
__device__ unsigned atomicDec(unsigned *a, unsigned v);

/* NAME##f: the parameter must not be called f, or f##f pastes it twice */
#define KCHECK_M1(NAME) __host__ __device__ double NAME(double); __host__ __device__ float NAME##f(float); \
	__host__ __device__ float NAME(float);
KCHECK_M1(sqrt) KCHECK_M1(rsqrt) KCHECK_M1(cbrt) KCHECK_M1(exp) KCHECK_M1(exp2) KCHECK_M1(exp10)
KCHECK_M1(expm1) KCHECK_M1(log) KCHECK_M1(log2) KCHECK_M1(log10) KCHECK_M1(log1p)
KCHECK_M1(sin) KCHECK_M1(cos) KCHECK_M1(tan) KCHECK_M1(asin) KCHECK_M1(acos) KCHECK_M1(atan)
KCHECK_M1(sinh) KCHECK_M1(cosh) KCHECK_M1(tanh) KCHECK_M1(erf) KCHECK_M1(erfc)
KCHECK_M1(fabs) KCHECK_M1(floor) KCHECK_M1(ceil) KCHECK_M1(round) KCHECK_M1(trunc)
KCHECK_M1(sinpi) KCHECK_M1(cospi) KCHECK_M1(rint)
#undef KCHECK_M1
#define KCHECK_M2(NAME) __host__ __device__ double NAME(double, double); \
	__host__ __device__ float NAME##f(float, float); __host__ __device__ float NAME(float, float);
KCHECK_M2(pow) KCHECK_M2(fmod) KCHECK_M2(atan2) KCHECK_M2(fmin) KCHECK_M2(fmax) KCHECK_M2(hypot)
#undef KCHECK_M2
__host__ __device__ double fma(double, double, double);
__host__ __device__ float fmaf(float, float, float);
__host__ __device__ void sincosf(float, float *, float *);
__host__ __device__ void sincos(double, double *, double *);
__host__ __device__ float __int_as_float(int);
__host__ __device__ int __float_as_int(float);
__host__ __device__ int min(int, int);
__host__ __device__ int max(int, int);
__host__ __device__ float fminf(float, float);
__host__ __device__ float fmaxf(float, float);
__host__ __device__ int abs(int);
__host__ void *malloc(size_t);
__host__ void free(void *);
__host__ int printf(const char *, ...);
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define FLT_MAX 3.402823466e+38F
#define M_PI 3.14159265358979323846
