// Golden: warp-uniform addresses.  Every lane reads the same element, so a
// request touches one sector; the ideal is still what 32 distinct lanes need.

__global__ void scale_bias(const float *in, const float *scale, const float *bias,
			   float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float s = scale[0];
	float b = bias[blockIdx.x];
	if (i < n)
		out[i] = in[i] * s + b;
}

__global__ void per_warp(const int *table, int *out)
{
	int warp = threadIdx.x / 32;
	out[blockIdx.x * blockDim.x + threadIdx.x] = table[warp];
}

// expect: SELECT kind_tx FROM access WHERE line = 8 AND base = 'scale' => zero
// expect: SELECT sectors_per_request FROM access WHERE line = 8 AND base = 'scale' => 1
// expect: SELECT ideal_sectors FROM access WHERE line = 8 AND base = 'scale' => 4
// expect: SELECT thread_dependent FROM access WHERE line = 8 AND base = 'scale' => 0
// expect: SELECT warp_uniform FROM access WHERE line = 8 AND base = 'scale' => 1
// expect: SELECT offset_const FROM access WHERE line = 8 AND base = 'scale' => 0
// expect: SELECT kind_tx FROM access WHERE line = 9 AND base = 'bias' => zero
// expect: SELECT sectors_per_request FROM access WHERE line = 9 AND base = 'bias' => 1
// expect: SELECT block_uniform FROM access WHERE line = 9 AND base = 'bias' => 1
// expect: SELECT warp_uniform FROM access WHERE line = 9 AND base = 'bias' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 11 AND base = 'in' => 4
// expect: SELECT sectors_per_request FROM access WHERE line = 17 AND base = 'table' => 1
// expect: SELECT warp_uniform FROM access WHERE line = 17 AND base = 'table' => 1
// expect: SELECT block_uniform FROM access WHERE line = 17 AND base = 'table' => 0
// expect: SELECT sectors_per_request FROM access WHERE line = 17 AND base = 'out' => 4
