// Golden: device functions called from kernels.  Their accesses are analysed
// in the context of each caller: the row carries the kernel and, in `func`,
// the device function where the access is written.

__device__ float load_strided(const float *p, int i, int s)
{
	return p[i * s];
}

__device__ __forceinline__ void store(float *p, int i, float v)
{
	p[i] = v;
}

__device__ int global_id()
{
	return blockIdx.x * blockDim.x + threadIdx.x;
}

__global__ void gather4(const float *in, float *out)
{
	int i = global_id();
	float v = load_strided(in, i, 4);
	store(out, i, v);
}

__global__ void gather1(const float *in, float *out)
{
	int i = global_id();
	store(out, i, load_strided(in, i, 1));
}

// expect: SELECT count(*) FROM kernel WHERE kind = 'global' => 2
// expect: SELECT count(*) FROM kernel WHERE kind = 'device' => 3
// expect: SELECT count(*) FROM access WHERE line = 7 AND kernel = 'gather4' => 1
// expect: SELECT func FROM access WHERE line = 7 AND kernel = 'gather4' => load_strided
// expect: SELECT space FROM access WHERE line = 7 AND kernel = 'gather4' => global
// expect: SELECT coef_tx FROM access WHERE line = 7 AND kernel = 'gather4' => 4
// expect: SELECT sectors_per_request FROM access WHERE line = 7 AND kernel = 'gather4' => 16
// expect: SELECT coef_tx FROM access WHERE line = 7 AND kernel = 'gather1' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 7 AND kernel = 'gather1' => 4
// expect: SELECT rw FROM access WHERE line = 12 AND kernel = 'gather4' => write
// expect: SELECT func FROM access WHERE line = 12 AND kernel = 'gather1' => store
// expect: SELECT sectors_per_request FROM access WHERE line = 12 AND kernel = 'gather1' => 4
// expect: SELECT category FROM call WHERE line = 23 => device_fn
// expect: SELECT callee FROM call WHERE line = 23 => load_strided
// expect: SELECT count(*) FROM call WHERE callee = 'global_id' AND category = 'device_fn' => 2
// expect: SELECT kernel FROM call WHERE line = 24 => gather4
