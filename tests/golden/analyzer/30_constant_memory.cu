// Golden: __constant__ memory read with warp-uniform and with thread-
// dependent indices.

#define RADIUS 4

__constant__ float coeffs[2 * RADIUS + 1];
__constant__ int lut[256];

__global__ void conv1d(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < RADIUS || i >= n - RADIUS)
		return;
	float acc = 0.0f;
	for (int k = -RADIUS; k <= RADIUS; ++k)
		acc += coeffs[k + RADIUS] * in[i + k];
	out[i] = acc + (float)lut[threadIdx.x];
}

// expect: SELECT count(*) FROM constant_var => 2
// expect: SELECT bytes FROM constant_var WHERE name = 'coeffs' => 36
// expect: SELECT bytes FROM constant_var WHERE name = 'lut' => 1024
// expect: SELECT space FROM access WHERE line = 16 AND base = 'coeffs' => constant
// expect: SELECT warp_uniform FROM access WHERE line = 16 AND base = 'coeffs' => 1
// expect: SELECT thread_dependent FROM access WHERE line = 16 AND base = 'coeffs' => 0
// expect: SELECT trip_count FROM loop WHERE line = 15 => 9
// expect: SELECT space FROM access WHERE line = 17 AND base = 'lut' => constant
// expect: SELECT thread_dependent FROM access WHERE line = 17 AND base = 'lut' => 1
// expect: SELECT space FROM access WHERE line = 16 AND base = 'in' => global
// expect: SELECT coef_tx FROM access WHERE line = 16 AND base = 'in' => 1
// expect: SELECT uniformity FROM branch WHERE line = 12 => thread
// expect: SELECT is_early_return FROM branch WHERE line = 12 => 1
