// Golden: loads whose address does not change across the iterations of the
// loop that contains them (candidates for hoisting into a register).

__global__ void weighted_rows(const float *a, const float *w, const float *bias,
			      float *out, int n, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float acc = 0.0f;
	for (int j = 0; j < k; ++j) {
		acc += a[j * n + i] * w[j];
		acc += bias[i];
		acc *= w[blockIdx.x];
	}
	out[i] = acc;
}

__global__ void outer_product_sum(const float *x, const float *y, float *out,
				  int rows, int cols)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	float acc = 0.0f;
	for (int r = 0; r < rows; ++r) {
		for (int c = 0; c < cols; ++c)
			acc += x[r] * y[c * 32 + t % 32];
	}
	out[t] = acc;
}

// expect: SELECT in_loop FROM access WHERE line = 12 AND base = 'a' => 1
// expect: SELECT loop_depth FROM access WHERE line = 12 AND base = 'a' => 1
// expect: SELECT loop_invariant FROM access WHERE line = 12 AND base = 'a' => 0
// expect: SELECT loop_invariant FROM access WHERE line = 12 AND base = 'w' => 0
// expect: SELECT kind_tx FROM access WHERE line = 12 AND base = 'w' => zero
// expect: SELECT loop_invariant FROM access WHERE line = 13 AND base = 'bias' => 1
// expect: SELECT thread_dependent FROM access WHERE line = 13 AND base = 'bias' => 1
// expect: SELECT loop_invariant FROM access WHERE line = 14 AND base = 'w' => 1
// expect: SELECT in_loop FROM access WHERE line = 16 AND base = 'out' => 0
// expect: SELECT loop_id = (SELECT id FROM loop WHERE line = 11) FROM access WHERE line = 13 => 1
// expect: SELECT n_loop_reads FROM param WHERE kernel = 'weighted_rows' AND name = 'w' => 2
// expect: SELECT n_loop_reads FROM param WHERE kernel = 'weighted_rows' AND name = 'out' => 0
// expect: SELECT loop_depth FROM access WHERE line = 26 AND base = 'x' => 2
// expect: SELECT loop_invariant FROM access WHERE line = 26 AND base = 'x' => 1
// expect: SELECT loop_invariant FROM access WHERE line = 26 AND base = 'y' => 0
// expect: SELECT depth FROM loop WHERE line = 25 => 1
// expect: SELECT parent_id = (SELECT id FROM loop WHERE line = 24) FROM loop WHERE line = 25 => 1
// expect: SELECT n_loops FROM kernel WHERE name = 'outer_product_sum' => 2
