/* cuda_bf16.h for kcheck's shim: the bfloat16 types (declared in
 * kcheck_cuda.h) and the conversions and intrinsics kernels use, enough for
 * libclang to build an AST.  Nothing here is ever compiled to code. */
#pragma clang system_header
#ifndef KCHECK_SHIM_BF16_H
#define KCHECK_SHIM_BF16_H

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#define KCHECK_H __host__ __device__
KCHECK_H __nv_bfloat16 __float2bfloat16(float);
KCHECK_H __nv_bfloat16 __float2bfloat16_rn(float);
KCHECK_H __nv_bfloat16 __float2bfloat16_rz(float);
KCHECK_H __nv_bfloat16 __double2bfloat16(double);
KCHECK_H float __bfloat162float(__nv_bfloat16);
KCHECK_H __nv_bfloat162 __float2bfloat162_rn(float);
KCHECK_H __nv_bfloat162 __floats2bfloat162_rn(float, float);
KCHECK_H __nv_bfloat162 __float22bfloat162_rn(float2);
KCHECK_H float2 __bfloat1622float2(__nv_bfloat162);
KCHECK_H float __low2float(__nv_bfloat162);
KCHECK_H float __high2float(__nv_bfloat162);
KCHECK_H __nv_bfloat16 __low2bfloat16(__nv_bfloat162);
KCHECK_H __nv_bfloat16 __high2bfloat16(__nv_bfloat162);
KCHECK_H __nv_bfloat162 __halves2bfloat162(__nv_bfloat16, __nv_bfloat16);
KCHECK_H __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16);
KCHECK_H __nv_bfloat162 __lows2bfloat162(__nv_bfloat162, __nv_bfloat162);
KCHECK_H __nv_bfloat162 __highs2bfloat162(__nv_bfloat162, __nv_bfloat162);
KCHECK_H __nv_bfloat16 __int2bfloat16_rn(int);
KCHECK_H int __bfloat162int_rn(__nv_bfloat16);
KCHECK_H int __bfloat162int_rz(__nv_bfloat16);
KCHECK_H __nv_bfloat16 __ushort_as_bfloat16(unsigned short);
KCHECK_H unsigned short __bfloat16_as_ushort(__nv_bfloat16);
KCHECK_H __nv_bfloat16 __short_as_bfloat16(short);
KCHECK_H short __bfloat16_as_short(__nv_bfloat16);
KCHECK_H __nv_bfloat162 make_bfloat162(__nv_bfloat16, __nv_bfloat16);
#define KCHECK_H1(f) __device__ __nv_bfloat16 f(__nv_bfloat16); __device__ __nv_bfloat162 f##2(__nv_bfloat162);
#define KCHECK_H2(f) __device__ __nv_bfloat16 f(__nv_bfloat16, __nv_bfloat16); __device__ __nv_bfloat162 f##2(__nv_bfloat162, __nv_bfloat162);
KCHECK_H2(__hadd) KCHECK_H2(__hsub) KCHECK_H2(__hmul) KCHECK_H2(__hmax) KCHECK_H2(__hmin)
KCHECK_H2(__hadd_sat) KCHECK_H2(__hsub_sat) KCHECK_H2(__hmul_sat)
KCHECK_H1(__hneg) KCHECK_H1(__habs)
#undef KCHECK_H1
#undef KCHECK_H2
__device__ __nv_bfloat16 __hdiv(__nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat162 __h2div(__nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat16 __hfma(__nv_bfloat16, __nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat162 __hfma2(__nv_bfloat162, __nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat16 __hfma_relu(__nv_bfloat16, __nv_bfloat16, __nv_bfloat16);
__device__ __nv_bfloat162 __hfma2_relu(__nv_bfloat162, __nv_bfloat162, __nv_bfloat162);
__device__ bool __heq(__nv_bfloat16, __nv_bfloat16);
__device__ bool __hne(__nv_bfloat16, __nv_bfloat16);
__device__ bool __hlt(__nv_bfloat16, __nv_bfloat16);
__device__ bool __hle(__nv_bfloat16, __nv_bfloat16);
__device__ bool __hgt(__nv_bfloat16, __nv_bfloat16);
__device__ bool __hge(__nv_bfloat16, __nv_bfloat16);
__device__ bool __hisnan(__nv_bfloat16);
__device__ int __hisinf(__nv_bfloat16);
__device__ bool __hbeq2(__nv_bfloat162, __nv_bfloat162);
__device__ __nv_bfloat162 __hisnan2(__nv_bfloat162);
#define KCHECK_HM(f) __device__ __nv_bfloat16 f(__nv_bfloat16); __device__ __nv_bfloat162 h2##f(__nv_bfloat162);
__device__ __nv_bfloat16 hexp(__nv_bfloat16); __device__ __nv_bfloat162 h2exp(__nv_bfloat162);
__device__ __nv_bfloat16 hexp2(__nv_bfloat16); __device__ __nv_bfloat162 h2exp2(__nv_bfloat162);
__device__ __nv_bfloat16 hlog(__nv_bfloat16); __device__ __nv_bfloat162 h2log(__nv_bfloat162);
__device__ __nv_bfloat16 hlog2(__nv_bfloat16); __device__ __nv_bfloat162 h2log2(__nv_bfloat162);
__device__ __nv_bfloat16 hsqrt(__nv_bfloat16); __device__ __nv_bfloat162 h2sqrt(__nv_bfloat162);
__device__ __nv_bfloat16 hrsqrt(__nv_bfloat16); __device__ __nv_bfloat162 h2rsqrt(__nv_bfloat162);
__device__ __nv_bfloat16 hrcp(__nv_bfloat16); __device__ __nv_bfloat162 h2rcp(__nv_bfloat162);
__device__ __nv_bfloat16 hsin(__nv_bfloat16); __device__ __nv_bfloat162 h2sin(__nv_bfloat162);
__device__ __nv_bfloat16 hcos(__nv_bfloat16); __device__ __nv_bfloat162 h2cos(__nv_bfloat162);
__device__ __nv_bfloat16 htanh(__nv_bfloat16); __device__ __nv_bfloat162 h2tanh(__nv_bfloat162);
#undef KCHECK_HM
__device__ __nv_bfloat16 __ldg(const __nv_bfloat16 *);
__device__ __nv_bfloat162 __ldg(const __nv_bfloat162 *);
__device__ __nv_bfloat16 __ldcs(const __nv_bfloat16 *);
__device__ __nv_bfloat162 __ldcs(const __nv_bfloat162 *);
__device__ void __stcs(__nv_bfloat16 *, __nv_bfloat16);
__device__ void __stcs(__nv_bfloat162 *, __nv_bfloat162);
__device__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *, __nv_bfloat16);
__device__ __nv_bfloat162 atomicAdd(__nv_bfloat162 *, __nv_bfloat162);
#define KCHECK_HS(T) \
	__device__ T __shfl_sync(unsigned, T, int, int = 32); \
	__device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32); \
	__device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32); \
	__device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
KCHECK_HS(__nv_bfloat16) KCHECK_HS(__nv_bfloat162)
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
KCHECK_HOP(__nv_bfloat16) KCHECK_HOP(__nv_bfloat162)
#undef KCHECK_HOP
#undef KCHECK_H
#endif
