/* kcheck_hip_prelude.h: what current ROCm declares and the installed
 * (older) ROCm does not.
 *
 * Force-included into every HIP parse with ROCm's real headers.  Debian 12
 * ships ROCm 5.2; code written for ROCm 6.2 or later uses its warp
 * functions.  Only declarations, only for older headers; each entry dated.
 * Checked with clang 19.1.7 and Debian's libamdhip64-dev (ROCm 5.2). */
#pragma clang system_header
#ifndef KCHECK_HIP_PRELUDE_H
#define KCHECK_HIP_PRELUDE_H
/* 2026-12-01: hipcc compiles every file as if it included the runtime;
 * clang -x hip does not, so HIP files that rely on that fail. */
#include <hip/hip_runtime.h>

#if defined(__HIP__) && defined(HIP_VERSION_MAJOR) && \
    (HIP_VERSION_MAJOR < 6 || (HIP_VERSION_MAJOR == 6 && HIP_VERSION_MINOR < 2))
/* 2026-12-01: the _sync warp functions with a lane mask (ROCm 6.2): the
 * mask is a template parameter there (ROCm asserts it is 64 bits wide), so
 * it is one here too, and kcheck's rules can see a 32-bit mask. */
template <typename MaskT, typename T>
__device__ T __shfl_sync(MaskT mask, T var, int src_lane, int width = warpSize);
template <typename MaskT, typename T>
__device__ T __shfl_up_sync(MaskT mask, T var, unsigned int delta, int width = warpSize);
template <typename MaskT, typename T>
__device__ T __shfl_down_sync(MaskT mask, T var, unsigned int delta, int width = warpSize);
template <typename MaskT, typename T>
__device__ T __shfl_xor_sync(MaskT mask, T var, int lane_mask, int width = warpSize);
template <typename MaskT>
__device__ unsigned long long __ballot_sync(MaskT mask, int predicate);
template <typename MaskT>
__device__ int __any_sync(MaskT mask, int predicate);
template <typename MaskT>
__device__ int __all_sync(MaskT mask, int predicate);
template <typename MaskT>
__device__ void __syncwarp(MaskT mask);
__device__ void __syncwarp();
__device__ unsigned long long __activemask();
#endif
#endif
