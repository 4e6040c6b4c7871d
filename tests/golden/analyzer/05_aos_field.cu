// Golden: array-of-structs field reads.  Reading one 4-byte field of a
// 16-byte struct per lane spreads a warp over 512 bytes.

struct Particle {
	float x, y, z, w;
};

struct Pair {
	float key;
	float val;
};

__global__ void advance(Particle *p, const float *vx, float dt, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float x = p[i].x;
		p[i].y = x + vx[i] * dt;
	}
}

__global__ void keys_of(const Pair *pairs, float *keys, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		keys[i] = pairs[i].key;
}

// expect: SELECT elem_bytes FROM access WHERE line = 17 AND base = 'p' => 16
// expect: SELECT access_bytes FROM access WHERE line = 17 AND base = 'p' => 4
// expect: SELECT struct_bytes FROM access WHERE line = 17 AND base = 'p' => 16
// expect: SELECT field FROM access WHERE line = 17 AND base = 'p' => x
// expect: SELECT stride_bytes_tx FROM access WHERE line = 17 AND base = 'p' => 16
// expect: SELECT sectors_per_request FROM access WHERE line = 17 AND base = 'p' => 16
// expect: SELECT ideal_sectors FROM access WHERE line = 17 AND base = 'p' => 4
// expect: SELECT rw FROM access WHERE line = 18 AND base = 'p' => write
// expect: SELECT field FROM access WHERE line = 18 AND base = 'p' => y
// expect: SELECT sectors_per_request FROM access WHERE line = 18 AND base = 'p' => 16
// expect: SELECT sectors_per_request FROM access WHERE line = 18 AND base = 'vx' => 4
// expect: SELECT struct_bytes FROM access WHERE line = 26 AND base = 'pairs' => 8
// expect: SELECT sectors_per_request FROM access WHERE line = 26 AND base = 'pairs' => 8
// expect: SELECT ideal_sectors FROM access WHERE line = 26 AND base = 'pairs' => 4
// expect: SELECT struct_bytes FROM access WHERE line = 26 AND base = 'keys' => NULL
