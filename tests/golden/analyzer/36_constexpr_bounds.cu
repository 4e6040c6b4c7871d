// Golden: loops bounded by compile-time constants are static loops: a
// file-scope or local constexpr, a static const member, a template parameter
// bound from a launch, and one with no launch in sight (value unknown, still
// a compile-time constant the compiler unrolls).
constexpr int TILE = 8;

struct Cfg {
	static constexpr int kRows = 4;
};

__global__ void tiled(const float *__restrict__ a, float *__restrict__ c, int n)
{
	constexpr int kSteps = 16;
	float acc[TILE];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	for (int t = 0; t < TILE; ++t)
		acc[t] = 0.0f;
	for (int s = 0; s < kSteps; s++)
		for (int t = 0; t < TILE; ++t)
			acc[t] += a[(s * TILE + t) * n + i];
	for (int r = 0; r < Cfg::kRows; r++)
		c[r * n + i] = acc[r];
}

template <int BLOCK, int ITEMS>
__global__ void per_thread_items(const float *__restrict__ in, float *__restrict__ out)
{
	float v[ITEMS];
	int base = (blockIdx.x * BLOCK + threadIdx.x) * ITEMS;
#pragma unroll
	for (int k = 0; k < ITEMS; ++k)
		v[k] = in[base + k];
	float s = 0.0f;
	for (int k = 0; k < ITEMS; ++k)
		s += v[k];
	out[blockIdx.x * BLOCK + threadIdx.x] = s;
}

template <int N>
__device__ float dot_n(const float *x, const float *y)
{
	float s = 0.0f;
	for (int k = 0; k < N; ++k)
		s += x[k] * y[k];
	return s;
}

template <int N>
__global__ void dots(const float *x, const float *y, float *out)
{
	float loc[N];
	for (int k = 0; k < N; ++k)
		loc[k] = x[threadIdx.x * N + k];
	out[threadIdx.x] = dot_n<N>(loc, y) + loc[N - 1];
}

void run(const float *in, float *out, int blocks)
{
	per_thread_items<128, 4><<<blocks, 128>>>(in, out);
}

// expect: SELECT trip_count FROM loop WHERE line = 16 => 8
// expect: SELECT trip_count FROM loop WHERE line = 18 => 16
// expect: SELECT trip_count FROM loop WHERE line = 19 => 8
// expect: SELECT trip_count FROM loop WHERE line = 21 => 4
// expect: SELECT trip_static FROM loop WHERE line = 21 => 1
// expect: SELECT dynamic_index FROM local_array WHERE name = 'acc' => 0
// expect: SELECT trip_count FROM loop WHERE line = 31 => 4
// expect: SELECT trip_count FROM loop WHERE line = 34 => 4
// expect: SELECT dynamic_index FROM local_array WHERE name = 'v' => 0
// expect: SELECT coef_tx FROM access WHERE line = 32 AND base = 'in' => 4
// expect: SELECT trip_count FROM loop WHERE line = 52 => NULL
// expect: SELECT trip_static FROM loop WHERE line = 52 => 1
// expect: SELECT trip_uniform FROM loop WHERE line = 52 => 1
// expect: SELECT dynamic_index FROM local_array WHERE name = 'loc' => 0
// expect: SELECT trip_static FROM loop WHERE kernel = 'dots' AND func = 'dot_n' => 1
// expect: SELECT trip_static FROM loop WHERE line = 18 => 1
// expect: SELECT count(*) FROM loop WHERE trip_static = 0 => 0
// expect: SELECT count(*) FROM diag WHERE severity IN ('error', 'fatal') => 0
