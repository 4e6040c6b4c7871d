// Golden: warp-level primitives.  The non-_sync shuffles and votes are the
// legacy forms: nvcc 12+ rejects them for sm_70+ (no declaration, or ptxas
// refuses `vote` without `.sync`) while clang still parses them, so the
// legacy kernel is only compiled by clang.

__device__ float warp_sum(float v)
{
	for (int off = 16; off > 0; off /= 2)
		v += __shfl_down_sync(0xffffffff, v, off);
	return v;
}

__global__ void row_max(const float *in, float *out, int *flags)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = in[i];
	float s = warp_sum(v);
	unsigned mask = __ballot_sync(0xffffffffu, v > 0.0f);
	if (__any_sync(0xffffffffu, v < 0.0f))
		flags[blockIdx.x] = 1;
	__syncwarp();
	__threadfence();
	if ((threadIdx.x & 31) == 0)
		out[i / 32] = s + (float)__popc(mask);
}

#if defined(__clang__)
__global__ void legacy_reduce(float *data, int *flags)
{
	float v = data[threadIdx.x];
	v += __shfl_down(v, 16);
	v += __shfl_xor(v, 8);
	if (__any(v < 0.0f))
		flags[0] = 1;
	if (__all(v == 0.0f))
		flags[1] = 1;
	data[threadIdx.x] = v;
}
#endif

// expect: SELECT category FROM call WHERE callee = '__shfl_down_sync' => warp
// expect: SELECT in_loop FROM call WHERE callee = '__shfl_down_sync' AND kernel = 'row_max' => 1
// expect: SELECT mask_is_full FROM call WHERE callee = '__shfl_down_sync' AND kernel = 'row_max' => 1
// expect: SELECT func FROM call WHERE callee = '__shfl_down_sync' AND kernel = 'row_max' => warp_sum
// expect: SELECT is_legacy_intrinsic FROM call WHERE callee = '__shfl_down_sync' AND kernel = 'row_max' => 0
// expect: SELECT category FROM call WHERE callee = '__ballot_sync' => vote
// expect: SELECT mask_is_full FROM call WHERE callee = '__ballot_sync' => 1
// expect: SELECT category FROM call WHERE callee = '__any_sync' => vote
// expect: SELECT category FROM call WHERE callee = '__syncwarp' => warp
// expect: SELECT category FROM call WHERE callee = '__threadfence' => fence
// expect: SELECT kind FROM barrier WHERE name = '__syncwarp' => warp
// expect: SELECT kind FROM barrier WHERE name = '__threadfence' => fence
// expect: SELECT uses_warp_intrinsics FROM kernel WHERE name = 'row_max' => 1
// expect: SELECT category FROM call WHERE callee = '__shfl_down' => warp
// expect: SELECT is_legacy_intrinsic FROM call WHERE callee = '__shfl_down' => 1
// expect: SELECT is_legacy_intrinsic FROM call WHERE callee = '__shfl_xor' => 1
// expect: SELECT category FROM call WHERE callee = '__any' => vote
// expect: SELECT is_legacy_intrinsic FROM call WHERE callee = '__any' => 1
// expect: SELECT is_legacy_intrinsic FROM call WHERE callee = '__all' => 1
// expect: SELECT count(*) FROM call WHERE is_legacy_intrinsic = 1 => 4
// expect: SELECT line FROM call WHERE callee = '__shfl_xor' => 32
// expect: SELECT uses_warp_intrinsics FROM kernel WHERE name = 'legacy_reduce' => 1
// expect: SELECT uniformity FROM branch WHERE line = 23 => thread
// expect: SELECT lane_parity FROM branch WHERE line = 23 => 1
