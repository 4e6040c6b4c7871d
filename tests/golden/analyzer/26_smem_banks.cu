// Golden: shared-memory bank conflicts for 1-D patterns: ways = the largest
// number of distinct 4-byte words any bank serves for one warp request.

__global__ void bank_patterns(const float *in, float *out)
{
	__shared__ float f[2048];
	__shared__ double d[256];
	__shared__ float4 v[256];
	int tx = threadIdx.x;
	f[tx] = in[tx];
	f[2 * tx + 512] = in[tx];
	f[32 * tx] = in[tx];
	f[3 * tx + 1024] = in[tx];
	d[tx] = (double)in[tx];
	v[tx] = make_float4(0.0f, 1.0f, 2.0f, 3.0f);
	__syncthreads();
	out[tx] = f[0] + f[16 * tx] + (float)d[2 * tx] + v[tx].x;
}

void launch_banks(const float *in, float *out)
{
	bank_patterns<<<1, 64>>>(in, out);
}

// expect: SELECT block_x FROM kernel WHERE name = 'bank_patterns' => 64
// expect: SELECT bank_ways FROM access WHERE line = 10 AND base = 'f' => 1
// expect: SELECT bank_ways FROM access WHERE line = 11 AND base = 'f' => 2
// expect: SELECT bank_ways FROM access WHERE line = 12 AND base = 'f' => 32
// expect: SELECT bank_ways FROM access WHERE line = 13 AND base = 'f' => 1
// expect: SELECT bank_ways FROM access WHERE line = 14 AND base = 'd' => 2
// expect: SELECT ideal_bank_ways FROM access WHERE line = 14 AND base = 'd' => 2
// expect: SELECT access_bytes FROM access WHERE line = 14 AND base = 'd' => 8
// expect: SELECT bank_ways FROM access WHERE line = 15 AND base = 'v' => 4
// expect: SELECT ideal_bank_ways FROM access WHERE line = 15 AND base = 'v' => 4
// expect: SELECT bank_ways FROM access WHERE line = 17 AND base = 'f' AND coef_tx = 0 => 1
// expect: SELECT bank_ways FROM access WHERE line = 17 AND base = 'f' AND coef_tx = 16 => 16
// expect: SELECT bank_ways FROM access WHERE line = 17 AND base = 'd' => 4
// expect: SELECT bank_ways FROM access WHERE line = 17 AND base = 'v' => 4
// expect: SELECT access_bytes FROM access WHERE line = 17 AND base = 'v' => 4
// expect: SELECT sectors_per_request FROM access WHERE line = 10 AND base = 'in' => 4
// expect: SELECT max_bank_ways FROM shared_array WHERE name = 'f' => 32
// expect: SELECT bytes FROM shared_array WHERE name = 'v' => 4096
// expect: SELECT static_smem_bytes FROM kernel WHERE name = 'bank_patterns' => 14336
