// Golden: global reads strided by a compile-time constant (2, 4, 8, 32
// floats): sectors per warp request grow with the stride up to one sector
// per lane.

#define STRIDE 8

__global__ void gather_strided(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float s2 = in[2 * i];
	float s4 = in[i * 4];
	float s8 = in[STRIDE * i];
	float s32 = in[32 * i];
	out[i] = s2 + s4 + s8 + s32;
}

// A strided store: each thread writes the first of three interleaved channels.
__global__ void store_channel(float *rgb, const float *gray, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		rgb[3 * i] = gray[i];
}

// expect: SELECT coef_tx FROM access WHERE line = 12 => 2
// expect: SELECT stride_bytes_tx FROM access WHERE line = 12 => 8
// expect: SELECT sectors_per_request FROM access WHERE line = 12 => 8
// expect: SELECT ideal_sectors FROM access WHERE line = 12 => 4
// expect: SELECT coef_tx FROM access WHERE line = 13 => 4
// expect: SELECT sectors_per_request FROM access WHERE line = 13 => 16
// expect: SELECT coef_tx FROM access WHERE line = 14 => 8
// expect: SELECT kind_tx FROM access WHERE line = 14 => const
// expect: SELECT sectors_per_request FROM access WHERE line = 14 => 32
// expect: SELECT coef_tx FROM access WHERE line = 15 => 32
// expect: SELECT stride_bytes_tx FROM access WHERE line = 15 => 128
// expect: SELECT sectors_per_request FROM access WHERE line = 15 => 32
// expect: SELECT ideal_sectors FROM access WHERE line = 15 => 4
// expect: SELECT sectors_per_request FROM access WHERE line = 16 AND base = 'out' => 4
// expect: SELECT is_affine FROM access WHERE line = 15 => 1
// expect: SELECT sectors_assumed FROM access WHERE line = 15 => 0
// expect: SELECT count(*) FROM access WHERE kernel = 'gather_strided' AND sectors_per_request > 2 * ideal_sectors => 3
// expect: SELECT rw FROM access WHERE line = 24 AND base = 'rgb' => write
// expect: SELECT coef_tx FROM access WHERE line = 24 AND base = 'rgb' => 3
// expect: SELECT sectors_per_request FROM access WHERE line = 24 AND base = 'rgb' => 12
// expect: SELECT sectors_per_request FROM access WHERE line = 24 AND base = 'gray' => 4
// expect: SELECT count(*) FROM early_return WHERE line BETWEEN 10 AND 11 AND thread_dependent = 1 => 1
