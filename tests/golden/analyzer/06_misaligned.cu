// Golden: unit stride with a constant offset.  An offset of one float makes
// a warp straddle five sectors; an offset of 8 floats (32 bytes) does not.

__global__ void shift_left(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i + 1 < n)
		out[i] = in[i + 1];
}

__global__ void diff_aligned(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i + 8 < n)
		out[i] = in[i + 8] - in[i];
}

// expect: SELECT offset_const FROM access WHERE line = 8 AND base = 'in' => 1
// expect: SELECT coef_tx FROM access WHERE line = 8 AND base = 'in' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 8 AND base = 'in' => 5
// expect: SELECT ideal_sectors FROM access WHERE line = 8 AND base = 'in' => 4
// expect: SELECT offset_const FROM access WHERE line = 8 AND base = 'out' => 0
// expect: SELECT sectors_per_request FROM access WHERE line = 8 AND base = 'out' => 4
// expect: SELECT sectors_per_request FROM access WHERE line = 15 AND base = 'in' AND offset_const = 8 => 4
// expect: SELECT sectors_per_request FROM access WHERE line = 15 AND base = 'in' AND offset_const = 0 => 4
// expect: SELECT count(*) FROM access WHERE kernel = 'diff_aligned' AND base = 'in' => 2
