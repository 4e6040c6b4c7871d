// Golden: branch uniformity.  thread = differs between lanes of a warp,
// warp = same within a warp (block x is a multiple of 32), block = same in a
// block, grid = compile-time constant.

#define USE_BIAS 1

__global__ void classify(const float *in, float *out, const float *bias, int n)
{
	int tid = threadIdx.x;
	int i = blockIdx.x * blockDim.x + tid;
	int warp = tid / 32;
	int lane = tid % 32;
	float v = in[i];
	if (tid % 2 == 0)
		v = v * 2.0f;
	if (warp == 0)
		v += 1.0f;
	if (threadIdx.x / 32 == 3)
		v -= 1.0f;
	if (lane == 0)
		v = 0.0f;
	if (blockIdx.x == 0)
		v = -v;
	if (n > 1024)
		v *= 0.5f;
	if (USE_BIAS)
		v += bias[0];
	if (v > 0.0f)
		v = 1.0f;
	out[i] = v;
}

void launch_classify(const float *in, float *out, const float *bias, int n)
{
	classify<<<(n + 255) / 256, 256>>>(in, out, bias, n);
}

// expect: SELECT block_x FROM kernel WHERE name = 'classify' => 256
// expect: SELECT count(*) FROM branch WHERE kernel = 'classify' => 8
// expect: SELECT uniformity FROM branch WHERE line = 14 => thread
// expect: SELECT thread_dependent FROM branch WHERE line = 14 => 1
// expect: SELECT warp_uniform FROM branch WHERE line = 14 => 0
// expect: SELECT lane_parity FROM branch WHERE line = 14 => 1
// expect: SELECT cond_text FROM branch WHERE line = 14 => tid % 2 == 0
// expect: SELECT kind FROM branch WHERE line = 14 => if
// expect: SELECT uniformity FROM branch WHERE line = 16 => warp
// expect: SELECT thread_dependent FROM branch WHERE line = 16 => 1
// expect: SELECT warp_uniform FROM branch WHERE line = 16 => 1
// expect: SELECT block_uniform FROM branch WHERE line = 16 => 0
// expect: SELECT uniformity FROM branch WHERE line = 18 => warp
// expect: SELECT uniformity FROM branch WHERE line = 20 => thread
// expect: SELECT uniformity FROM branch WHERE line = 22 => block
// expect: SELECT thread_dependent FROM branch WHERE line = 22 => 0
// expect: SELECT block_uniform FROM branch WHERE line = 22 => 1
// expect: SELECT uniformity FROM branch WHERE line = 24 => block
// expect: SELECT uniformity FROM branch WHERE line = 26 => grid
// expect: SELECT uniformity FROM branch WHERE line = 28 => thread
// expect: SELECT data_dependent FROM branch WHERE line = 28 => 1
// expect: SELECT data_dependent FROM branch WHERE line = 22 => 0
// expect: SELECT grid_is_ceil_div FROM launch WHERE kernel = 'classify' => 1
// expect: SELECT block_x FROM launch WHERE kernel = 'classify' => 256
// expect: SELECT grid_x FROM launch WHERE kernel = 'classify' => NULL
