/* kcheck_nvcc.h: what nvcc declares implicitly and clang 19 does not.
 *
 * Force-included (-include) into every CUDA parse with the real toolkit
 * headers, after clang's CUDA runtime wrapper.  Only declarations: kcheck
 * builds an AST and never generates code, so no entry needs a body.  Each
 * entry says when it was checked and where it was found missing: parsing
 * public projects with `scripts/corpus_sweep.sh` against CUDA 13.0 and
 * clang 19.1.7.  Drop an entry once clang declares it itself. */
#pragma clang system_header
#ifndef KCHECK_NVCC_PRELUDE_H
#define KCHECK_NVCC_PRELUDE_H
#if defined(__cplusplus) && defined(__CUDA__) && !defined(__HIP__)

/* 2026-12-06: nvcc's version macros.  Code picks the CUDA 9+ warp
 * intrinsics, cooperative groups or newer atomics with `#if
 * __CUDACC_VER_MAJOR__ >= 9` ... `#else __shfl(...)`; clang defines none
 * of them, so without these the parse took the pre-CUDA-9 branch that nvcc
 * never compiles (xmrig-cuda's SHFL macro, docs/fresh10-2026-12-06.md).
 * The toolkit's own runtime version stands in for nvcc's. */
#if !defined(__CUDACC_VER_MAJOR__) && defined(CUDART_VERSION)
#define __CUDACC_VER_MAJOR__ (CUDART_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDART_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif

/* 2026-12-01: cache-hinted loads and stores (__ldcg, __ldca, __ldcs,
 * __ldlu, __ldcv; __stwb, __stcg, __stcs, __stwt).  CUDA declares them in
 * sm_32_intrinsics.h, which clang's runtime wrapper deliberately leaves
 * out (it defines __ldg with builtins instead), so every overload, scalar
 * or vector, is undeclared: training codebases stream activations with
 * __ldcs/__stcs on float and int4, GEMM tutorials use __ldcg on float4. */
#define KCHECK_NVCC_LD(name, T) __device__ T name(const T *);
#define KCHECK_NVCC_ST(name, T) __device__ void name(T *, T);
#define KCHECK_NVCC_TYPES(X, name) \
	X(name, char) X(name, signed char) X(name, short) X(name, int) X(name, long) \
	X(name, long long) X(name, unsigned char) X(name, unsigned short) \
	X(name, unsigned int) X(name, unsigned long) X(name, unsigned long long) \
	X(name, char2) X(name, char4) X(name, short2) X(name, short4) X(name, int2) \
	X(name, int4) X(name, longlong2) X(name, uchar2) X(name, uchar4) \
	X(name, ushort2) X(name, ushort4) X(name, uint2) X(name, uint4) \
	X(name, ulonglong2) X(name, float) X(name, double) X(name, float2) \
	X(name, float4) X(name, double2)
KCHECK_NVCC_TYPES(KCHECK_NVCC_LD, __ldcg)
KCHECK_NVCC_TYPES(KCHECK_NVCC_LD, __ldca)
KCHECK_NVCC_TYPES(KCHECK_NVCC_LD, __ldcs)
KCHECK_NVCC_TYPES(KCHECK_NVCC_LD, __ldlu)
KCHECK_NVCC_TYPES(KCHECK_NVCC_LD, __ldcv)
KCHECK_NVCC_TYPES(KCHECK_NVCC_ST, __stwb)
KCHECK_NVCC_TYPES(KCHECK_NVCC_ST, __stcg)
KCHECK_NVCC_TYPES(KCHECK_NVCC_ST, __stcs)
KCHECK_NVCC_TYPES(KCHECK_NVCC_ST, __stwt)
#undef KCHECK_NVCC_LD
#undef KCHECK_NVCC_ST
#undef KCHECK_NVCC_TYPES

/* 2026-12-01: host max/min.  nvcc's math_functions.hpp gives host code
 * integer and floating max/min overloads (mixed signedness too); clang
 * declares them for the device only, so a host function computing
 * `max(blocks, 1)` for a launch fails.  Seen in training and sample code. */
#define KCHECK_NVCC_MINMAX(T1, T2, R) \
	__host__ R max(T1, T2); __host__ R min(T1, T2);
KCHECK_NVCC_MINMAX(int, int, int)
KCHECK_NVCC_MINMAX(unsigned int, unsigned int, unsigned int)
KCHECK_NVCC_MINMAX(int, unsigned int, unsigned int)
KCHECK_NVCC_MINMAX(unsigned int, int, unsigned int)
KCHECK_NVCC_MINMAX(long, long, long)
KCHECK_NVCC_MINMAX(unsigned long, unsigned long, unsigned long)
KCHECK_NVCC_MINMAX(long long, long long, long long)
KCHECK_NVCC_MINMAX(unsigned long long, unsigned long long, unsigned long long)
KCHECK_NVCC_MINMAX(long long, unsigned long long, unsigned long long)
KCHECK_NVCC_MINMAX(unsigned long long, long long, unsigned long long)
KCHECK_NVCC_MINMAX(float, float, float)
KCHECK_NVCC_MINMAX(double, double, double)
KCHECK_NVCC_MINMAX(float, double, double)
KCHECK_NVCC_MINMAX(double, float, double)
#undef KCHECK_NVCC_MINMAX

/* 2026-12-01: host isfinite/isnan/isinf in the global namespace.  nvcc's
 * math_functions.h declares them for host and device; clang declares
 * ::isfinite for the device only, so host code that validates results
 * with an unqualified isfinite(x) (after <cmath>) fails.  Seen in
 * training-code test harnesses.  Templates, not plain overloads: libstdc++'s
 * <math.h> brings std::isfinite(float) into the global namespace with a
 * using-declaration, which a plain ::isfinite(float) would conflict with
 * (every ggml-cuda file includes <math.h> after <cmath>). */
#define KCHECK_NVCC_CLASSIFY(name) template <class T> __host__ bool name(T);
KCHECK_NVCC_CLASSIFY(isfinite)
KCHECK_NVCC_CLASSIFY(isnan)
KCHECK_NVCC_CLASSIFY(isinf)
#undef KCHECK_NVCC_CLASSIFY

/* 2026-12-01: the C headers nvcc's crt/common_functions.h includes for
 * every file (<assert.h>, <time.h>, <string.h>, <stdio.h>, <stdlib.h>).
 * Code compiled by nvcc calls assert() or clock() without including
 * them; clang's wrapper does not include all of them. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* 2026-12-01: surface object reads and writes (surf1D/2D/3D read/write,
 * the object forms).  nvcc includes surface_indirect_functions.h; clang
 * 19's wrapper does not, and has no handler for its surface builtins, so
 * they are declared here.  Seen in image-processing samples. */
template <class T> __device__ T surf1Dread(cudaSurfaceObject_t, int,
	cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1Dread(T *, cudaSurfaceObject_t, int,
	cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t, int, int,
	cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2Dread(T *, cudaSurfaceObject_t, int, int,
	cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ T surf3Dread(cudaSurfaceObject_t, int, int, int,
	cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf3Dread(T *, cudaSurfaceObject_t, int, int, int,
	cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf1Dwrite(T, cudaSurfaceObject_t, int,
	cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int,
	cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
template <class T> __device__ void surf3Dwrite(T, cudaSurfaceObject_t, int, int, int,
	cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);

/* 2026-12-07: the layered and cubemap forms of the same (x, layer; x, y,
 * layer; x, y, face; x, y, layerface), missing for the same reason.  Seen
 * in a SIFT library's scale-space pyramid (docs/fresh32-2026-12-07.md). */
#define KCHECK_NVCC_SURF(name, ...) \
	template <class T> __device__ T name##read(cudaSurfaceObject_t, __VA_ARGS__, \
		cudaSurfaceBoundaryMode = cudaBoundaryModeTrap); \
	template <class T> __device__ void name##read(T *, cudaSurfaceObject_t, __VA_ARGS__, \
		cudaSurfaceBoundaryMode = cudaBoundaryModeTrap); \
	template <class T> __device__ void name##write(T, cudaSurfaceObject_t, __VA_ARGS__, \
		cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);
KCHECK_NVCC_SURF(surf1DLayered, int, int)
KCHECK_NVCC_SURF(surf2DLayered, int, int, int)
KCHECK_NVCC_SURF(surfCubemap, int, int, int)
KCHECK_NVCC_SURF(surfCubemapLayered, int, int, int)
#undef KCHECK_NVCC_SURF

#endif
#endif
