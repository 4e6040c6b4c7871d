// Golden: lane and warp ids from bit masks and shifts.  `tid & 31`,
// `tid >> 5`, `tid % warpSize` and `tid / 32` are affine within a warp when
// the block's x extent is a multiple of the warp, so coefficients, bank
// conflicts and coalescing facts stay available.
#define WARP_SIZE 32
#define LANE_MASK (WARP_SIZE - 1)

__global__ void warp_partials(const float *__restrict__ in, float *__restrict__ out)
{
	__shared__ float part[WARP_SIZE * WARP_SIZE];
	int lane = threadIdx.x & LANE_MASK;
	int wid = threadIdx.x >> 5;
	float v = in[blockIdx.x * blockDim.x + threadIdx.x];
	part[lane * WARP_SIZE + wid] = v;
	__syncthreads();
	out[blockIdx.x * blockDim.x + threadIdx.x] = part[wid * WARP_SIZE + lane];
}

__global__ void per_warp_rows(const float *in, float *out, int n)
{
	__shared__ float buf[8][WARP_SIZE + 1];
	int lane = threadIdx.x % warpSize;
	int warp = threadIdx.x / 32;
	buf[warp][lane] = in[lane * n + warp];
	__syncwarp();
	out[warp * n + lane] = buf[warp][lane];
	if (lane == 0)
		out[warp] = buf[warp][0];
}

void run(const float *in, float *out, int blocks, int n)
{
	warp_partials<<<blocks, 1024>>>(in, out);
	per_warp_rows<<<blocks, 256>>>(in, out, n);
}

// expect: SELECT kind_tx FROM access WHERE line = 14 AND base = 'part' => const
// expect: SELECT coef_tx FROM access WHERE line = 14 AND base = 'part' => 32
// expect: SELECT bank_ways FROM access WHERE line = 14 AND base = 'part' => 32
// expect: SELECT coef_tx FROM access WHERE line = 16 AND base = 'part' => 1
// expect: SELECT bank_ways FROM access WHERE line = 16 AND base = 'part' => 1
// expect: SELECT kind_tx FROM access WHERE line = 24 AND base = 'buf' => const
// expect: SELECT coef_tx FROM access WHERE line = 24 AND base = 'buf' => 1
// expect: SELECT kind_tx FROM access WHERE line = 24 AND base = 'in' => symbolic
// expect: SELECT coef_tx_text FROM access WHERE line = 24 AND base = 'in' => n
// expect: SELECT coef_tx FROM access WHERE line = 26 AND base = 'out' => 1
// expect: SELECT kind_tx FROM access WHERE line = 26 AND base = 'out' => const
// expect: SELECT sectors_per_request FROM access WHERE line = 26 AND base = 'out' => 4
// expect: SELECT lane_parity FROM branch WHERE line = 27 => 1
// expect: SELECT lane_pin FROM branch WHERE line = 27 => 1
// expect: SELECT warp_uniform FROM access WHERE line = 28 AND base = 'out' => 1
// expect: SELECT coef_tx FROM access WHERE line = 28 AND base = 'out' => 0
// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
