/* cuda_fp16.h for kcheck's shim: the half-precision types (declared in
 * kcheck_cuda.h) and the conversions and intrinsics kernels use, enough for
 * libclang to build an AST.  Nothing here is ever compiled to code. */
#pragma clang system_header
#ifndef KCHECK_SHIM_FP16_H
#define KCHECK_SHIM_FP16_H

typedef __half half;
typedef __half2 half2;

#define KCHECK_H __host__ __device__
KCHECK_H __half __float2half(float);
KCHECK_H __half __float2half_rn(float);
KCHECK_H __half __float2half_rz(float);
KCHECK_H __half __double2half(double);
KCHECK_H float __half2float(__half);
KCHECK_H __half2 __float2half2_rn(float);
KCHECK_H __half2 __floats2half2_rn(float, float);
KCHECK_H __half2 __float22half2_rn(float2);
KCHECK_H float2 __half22float2(__half2);
KCHECK_H float __low2float(__half2);
KCHECK_H float __high2float(__half2);
KCHECK_H __half __low2half(__half2);
KCHECK_H __half __high2half(__half2);
KCHECK_H __half2 __halves2half2(__half, __half);
KCHECK_H __half2 __half2half2(__half);
KCHECK_H __half2 __lows2half2(__half2, __half2);
KCHECK_H __half2 __highs2half2(__half2, __half2);
KCHECK_H __half __int2half_rn(int);
KCHECK_H int __half2int_rn(__half);
KCHECK_H int __half2int_rz(__half);
KCHECK_H __half __ushort_as_half(unsigned short);
KCHECK_H unsigned short __half_as_ushort(__half);
KCHECK_H __half __short_as_half(short);
KCHECK_H short __half_as_short(__half);
KCHECK_H __half2 make_half2(__half, __half);
#define KCHECK_H1(f) __device__ __half f(__half); __device__ __half2 f##2(__half2);
#define KCHECK_H2(f) __device__ __half f(__half, __half); __device__ __half2 f##2(__half2, __half2);
KCHECK_H2(__hadd) KCHECK_H2(__hsub) KCHECK_H2(__hmul) KCHECK_H2(__hmax) KCHECK_H2(__hmin)
KCHECK_H2(__hadd_sat) KCHECK_H2(__hsub_sat) KCHECK_H2(__hmul_sat)
KCHECK_H1(__hneg) KCHECK_H1(__habs)
#undef KCHECK_H1
#undef KCHECK_H2
__device__ __half __hdiv(__half, __half);
__device__ __half2 __h2div(__half2, __half2);
__device__ __half __hfma(__half, __half, __half);
__device__ __half2 __hfma2(__half2, __half2, __half2);
__device__ __half __hfma_relu(__half, __half, __half);
__device__ __half2 __hfma2_relu(__half2, __half2, __half2);
__device__ bool __heq(__half, __half);
__device__ bool __hne(__half, __half);
__device__ bool __hlt(__half, __half);
__device__ bool __hle(__half, __half);
__device__ bool __hgt(__half, __half);
__device__ bool __hge(__half, __half);
__device__ bool __hisnan(__half);
__device__ int __hisinf(__half);
__device__ bool __hbeq2(__half2, __half2);
__device__ __half2 __hisnan2(__half2);
#define KCHECK_HM(f) __device__ __half f(__half); __device__ __half2 h2##f(__half2);
__device__ __half hexp(__half); __device__ __half2 h2exp(__half2);
__device__ __half hexp2(__half); __device__ __half2 h2exp2(__half2);
__device__ __half hlog(__half); __device__ __half2 h2log(__half2);
__device__ __half hlog2(__half); __device__ __half2 h2log2(__half2);
__device__ __half hsqrt(__half); __device__ __half2 h2sqrt(__half2);
__device__ __half hrsqrt(__half); __device__ __half2 h2rsqrt(__half2);
__device__ __half hrcp(__half); __device__ __half2 h2rcp(__half2);
__device__ __half hsin(__half); __device__ __half2 h2sin(__half2);
__device__ __half hcos(__half); __device__ __half2 h2cos(__half2);
__device__ __half htanh(__half); __device__ __half2 h2tanh(__half2);
#undef KCHECK_HM
__device__ __half __ldg(const __half *);
__device__ __half2 __ldg(const __half2 *);
__device__ __half __ldcs(const __half *);
__device__ __half2 __ldcs(const __half2 *);
__device__ void __stcs(__half *, __half);
__device__ void __stcs(__half2 *, __half2);
__device__ __half atomicAdd(__half *, __half);
__device__ __half2 atomicAdd(__half2 *, __half2);
#define KCHECK_HS(T) \
	__device__ T __shfl_sync(unsigned, T, int, int = 32); \
	__device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32); \
	__device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32); \
	__device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
KCHECK_HS(__half) KCHECK_HS(__half2)
#undef KCHECK_HS
#define KCHECK_HOP(T) \
	__device__ T operator+(const T &, const T &); __device__ T operator-(const T &, const T &); \
	__device__ T operator*(const T &, const T &); __device__ T operator/(const T &, const T &); \
	__device__ T &operator+=(T &, const T &); __device__ T &operator-=(T &, const T &); \
	__device__ T &operator*=(T &, const T &); __device__ T &operator/=(T &, const T &); \
	__device__ T operator-(const T &); __device__ bool operator==(const T &, const T &); \
	__device__ bool operator!=(const T &, const T &); __device__ bool operator<(const T &, const T &); \
	__device__ bool operator>(const T &, const T &); __device__ bool operator<=(const T &, const T &); \
	__device__ bool operator>=(const T &, const T &);
KCHECK_HOP(__half) KCHECK_HOP(__half2)
#undef KCHECK_HOP
#undef KCHECK_H
#endif
