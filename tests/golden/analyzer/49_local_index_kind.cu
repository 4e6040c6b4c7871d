// Golden: how the run-time indices of local arrays vary (index_kind) and
// whether stores through a running counter are bounded (counter_guarded):
// a layer norm's row slice indexed by the counters of run-time loops, a
// fake quantizer's group buffer filled by a counter with and without a
// capacity check, a compaction under `if (n < CAP)`, a histogram, an
// insertion sort's `win[b + 1]` (a loop-carried position, not a counter).

__global__ void row_slice(const float *x, float *y, int row)
{
	int iterations = row / blockDim.x;
	float vals[64];
	float sum = 0.0f;
	for (int i = 0; i < iterations; i++) {
		vals[i] = x[blockIdx.x * row + i * blockDim.x + threadIdx.x];
		sum += vals[i];
	}
	for (int i = 0; i < iterations; i++)
		y[blockIdx.x * row + i * blockDim.x + threadIdx.x] = vals[i] - sum;
}

__global__ void group_fill(float4 *vals, int group4)
{
	float4 data[128];
	int tid = threadIdx.x, reg_count = 0;
	float mx = 0.0f;
	while (tid < group4) {
		data[reg_count] = vals[blockIdx.x * group4 + tid];
		mx = fmaxf(mx, data[reg_count].x);
		tid += blockDim.x;
		reg_count++;
	}
	for (int i = 0; i < reg_count; i++)
		vals[blockIdx.x * group4 + i * blockDim.x + threadIdx.x] = make_float4(data[i].x / mx, 0, 0, 0);
}

__global__ void group_fill_capped(float4 *vals, int group4)
{
	float4 data[128];
	int tid = threadIdx.x, reg_count = 0;
	while (tid < group4 && reg_count < 128) {
		data[reg_count++] = vals[blockIdx.x * group4 + tid];
		tid += blockDim.x;
	}
	for (int i = 0; i < reg_count; i++)
		vals[blockIdx.x * group4 + i * blockDim.x + threadIdx.x] = data[i];
}

__global__ void compact(const int *in, int *out, int n)
{
	int keep[32];
	int m = 0;
	for (int k = threadIdx.x; k < n; k += blockDim.x)
		if (in[k] > 0 && m < 32)
			keep[m++] = in[k];
	for (int j = 0; j < m; j++)
		out[threadIdx.x * 32 + j] = keep[j];
}

__global__ void hist(const int *keys, int *counts, int n)
{
	int bins[16];
	for (int b = 0; b < 16; ++b)
		bins[b] = 0;
	for (int k = threadIdx.x; k < n; k += blockDim.x)
		bins[keys[k] & 15] += 1;
	for (int b = 0; b < 16; ++b)
		atomicAdd(&counts[b], bins[b]);
}

__global__ void sort_window(const float *in, float *out)
{
	float win[9];
	for (int k = 0; k < 9; ++k)
		win[k] = in[threadIdx.x * 9 + k];
	for (int a = 1; a < 9; ++a) {
		float key = win[a];
		int b = a - 1;
		while (b >= 0 && win[b] > key) {
			win[b + 1] = win[b];
			--b;
		}
		win[b + 1] = key;
	}
	out[threadIdx.x] = win[4];
}

// expect: SELECT index_kind FROM local_array WHERE kernel = 'row_slice' => loop
// expect: SELECT counter_index_text FROM local_array WHERE kernel = 'row_slice' => NULL
// expect: SELECT counter_guarded FROM local_array WHERE kernel = 'row_slice' => NULL
// expect: SELECT index_kind FROM local_array WHERE kernel = 'group_fill' => counter
// expect: SELECT counter_index_text FROM local_array WHERE kernel = 'group_fill' => reg_count
// expect: SELECT counter_guarded FROM local_array WHERE kernel = 'group_fill' => 0
// expect: SELECT bytes FROM local_array WHERE kernel = 'group_fill' => 2048
// expect: SELECT index_kind FROM local_array WHERE kernel = 'group_fill_capped' => counter
// expect: SELECT counter_guarded FROM local_array WHERE kernel = 'group_fill_capped' => 1
// expect: SELECT index_kind FROM local_array WHERE kernel = 'compact' => counter
// expect: SELECT counter_guarded FROM local_array WHERE kernel = 'compact' => 1
// expect: SELECT index_kind FROM local_array WHERE kernel = 'hist' => data
// expect: SELECT counter_guarded FROM local_array WHERE kernel = 'hist' => NULL
// expect: SELECT index_kind FROM local_array WHERE kernel = 'sort_window' => carried
// expect: SELECT counter_guarded FROM local_array WHERE kernel = 'sort_window' => NULL
