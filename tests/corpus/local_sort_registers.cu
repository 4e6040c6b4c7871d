// Corpus: per-thread insertion sort of a small window (local array with
// run-time indices ends up in local memory).
#define WIN 9

__global__ void median_filter(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < WIN / 2 || i >= n - WIN / 2)
		return;
	float win[WIN];
	for (int k = 0; k < WIN; ++k)
		win[k] = in[i - WIN / 2 + k];
	for (int a = 1; a < WIN; ++a) {
		float key = win[a];
		int b = a - 1;
		while (b >= 0 && win[b] > key) {
			win[b + 1] = win[b];
			--b;
		}
		win[b + 1] = key;
	}
	out[i] = win[WIN / 2];
}

void median(const float *in, float *out, int n)
{
	median_filter<<<(n + 255) / 256, 256>>>(in, out, n);
}
