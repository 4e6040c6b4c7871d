// A lane's record read or written field by field: a box of seven floats
// through two helpers, a 4x4 matrix in unrolled loops (three rows of four
// read, all four rows written through a helper). The record pass unions the
// elements each access touches in the lane's stride window: record_bytes
// is what the lane uses of it, record_fetch_bytes what its sectors move.
__device__ float box_area(const float *b) { return b[3] * b[4]; }
__device__ bool in_box(const float *b, float px, float py)
{
	return (px - b[0]) * b[6] + (py - b[1]) + b[2] * b[5] > 0.f;
}
__global__ void boxes_k(const float *boxes, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const float *b = boxes + i * 7;
	out[i] = box_area(b) + (in_box(b, 1.f, 2.f) ? 1.f : 0.f);
}
__device__ void put(float *m, int r, int c, float v) { m[r * 4 + c] = v; }
__global__ void mats_k(const float *mats, float *grads, const float *sparse, float *o, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	const float *m = mats + i * 16;
	float s = 0.f;
#pragma unroll
	for (int r = 0; r < 3; r++)
		s += m[r * 4] * m[r * 4 + 1] + m[r * 4 + 2] * m[r * 4 + 3];
	float *g = grads + i * 16;
#pragma unroll
	for (int r = 0; r < 4; r++)
#pragma unroll
		for (int c = 0; c < 4; c++)
			put(g, r, c, s * r + c);
	o[i] = s + sparse[i * 8 + 2];
}
void launch(const float *a, float *b, float *c, float *d, int n)
{
	boxes_k<<<(n + 255) / 256, 256>>>(a, b, n);
	mats_k<<<(n + 255) / 256, 256>>>(a, b, c, d, n);
}
// expect: SELECT count(*) FROM access WHERE base = 'boxes' AND record_bytes = 28 AND record_fetch_bytes = 28 => 7
// expect: SELECT count(DISTINCT record_key) FROM access WHERE base = 'boxes' => 1
// expect: SELECT count(*) FROM access WHERE base = 'mats' AND record_bytes = 48 AND record_fetch_bytes = 64 => 4
// expect: SELECT record_mask FROM access WHERE base = 'mats' AND offset_const = 0 => 273
// expect: SELECT record_bytes FROM access WHERE base = 'grads' => 64
// expect: SELECT count(*) FROM access WHERE base = 'sparse' AND record_bytes IS NULL AND record_mask = 4 => 1
// expect: SELECT count(*) FROM access WHERE base = 'o' AND record_fields IS NULL AND record_bytes IS NULL => 1
