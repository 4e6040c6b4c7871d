// Corpus: k-means assignment step, centroids staged in shared memory.
#define DIM 8
#define MAXK 64

__global__ void kmeans_assign(const float *points, const float *centroids, int *labels,
			      int n, int k)
{
	__shared__ float c[MAXK * DIM];
	for (int i = threadIdx.x; i < k * DIM; i += blockDim.x)
		c[i] = centroids[i];
	__syncthreads();
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= n)
		return;
	float best = 3.4e38f;
	int arg = 0;
	for (int j = 0; j < k; ++j) {
		float d = 0.0f;
#pragma unroll
		for (int q = 0; q < DIM; ++q) {
			float diff = points[p * DIM + q] - c[j * DIM + q];
			d += diff * diff;
		}
		if (d < best) {
			best = d;
			arg = j;
		}
	}
	labels[p] = arg;
}

void assign(const float *pts, const float *cent, int *lab, int n, int k)
{
	kmeans_assign<<<(n + 127) / 128, 128>>>(pts, cent, lab, n, k);
}
