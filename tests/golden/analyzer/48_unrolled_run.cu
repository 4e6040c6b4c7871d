// A lane's 16 bytes read and written as four accesses at constant offsets
// (a hand-unrolled run): the run's offsets tile the lane stride, so every
// byte of the sectors they touch is used (run_bytes = the stride); a run
// with a gap, or one whose indexes differ by more than a constant, is none.
#include <cuda_fp16.h>
__global__ void quads(const float *x, float *y, const float *z, float *w, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n4)
		return;
	float a = x[4 * i + 0], b = x[i * 4 + 1], c = x[(2 * i + 1) * 2], d = x[4 * i + 3];
	y[4 * i] = a + b + c + d;
	float e = z[4 * i + 0], f = z[4 * i + 1], g = z[4 * i + 3];
	w[4 * i + 0] = e;
	w[4 * i + 1] = f + g;
	w[4 * i + n4] = g;
}

void launch(const float *x, float *y, const float *z, float *w, int n4)
{
	quads<<<(n4 + 255) / 256, 256>>>(x, y, z, w, n4);
}
// expect: SELECT count(*) FROM access WHERE base = 'x' AND run_bytes = 16 => 4
// expect: SELECT count(DISTINCT affine_var) FROM access WHERE base = 'x' => 1
// expect: SELECT affine_var FROM access WHERE line = 11 AND base = 'x' AND offset_const = 2 => 4*blockDim.x*blockIdx.x + 4*threadIdx.x
// expect: SELECT count(*) FROM access WHERE base = 'y' AND run_bytes IS NULL => 1
// expect: SELECT count(*) FROM access WHERE base = 'z' AND run_bytes IS NULL => 3
// expect: SELECT count(*) FROM access WHERE base = 'w' AND run_bytes IS NULL => 3
