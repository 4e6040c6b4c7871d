// Golden: per-thread arrays.  Constant indices keep them in registers; a
// run-time index forces them into local memory.

__global__ void histogram16(const int *keys, int *counts, int n)
{
	int bins[16];
	for (int b = 0; b < 16; ++b)
		bins[b] = 0;
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	for (int k = i; k < n; k += blockDim.x * gridDim.x)
		bins[keys[k] & 15] += 1;
	for (int b = 0; b < 16; ++b)
		atomicAdd(&counts[b], bins[b]);
}

__global__ void rgb_sum(const float *rgb, float *out)
{
	float px[3];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	px[0] = rgb[3 * i];
	px[1] = rgb[3 * i + 1];
	px[2] = rgb[3 * i + 2];
	out[i] = px[0] + px[1] + px[2];
}

// expect: SELECT count(*) FROM local_array => 2
// expect: SELECT elems FROM local_array WHERE name = 'bins' => 16
// expect: SELECT elem_bytes FROM local_array WHERE name = 'bins' => 4
// expect: SELECT bytes FROM local_array WHERE name = 'bins' => 64
// expect: SELECT dynamic_index FROM local_array WHERE name = 'bins' => 1
// expect: SELECT n_dynamic_accesses >= 1 FROM local_array WHERE name = 'bins' => 1
// expect: SELECT kernel FROM local_array WHERE name = 'bins' => histogram16
// expect: SELECT space FROM access WHERE line = 11 AND base = 'bins' => local
// expect: SELECT rw FROM access WHERE line = 11 AND base = 'bins' => readwrite
// expect: SELECT data_dependent FROM access WHERE line = 11 AND base = 'bins' => 1
// expect: SELECT elems FROM local_array WHERE name = 'px' => 3
// expect: SELECT dynamic_index FROM local_array WHERE name = 'px' => 0
// expect: SELECT n_dynamic_accesses FROM local_array WHERE name = 'px' => 0
// expect: SELECT sectors_per_request FROM access WHERE line = 21 AND base = 'rgb' => 12
// expect: SELECT offset_const FROM access WHERE line = 22 AND base = 'rgb' => 2
