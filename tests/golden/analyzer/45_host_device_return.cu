// Golden: a __host__ __device__ function with an early return on a thread id
// is walked as host code too (no launch shape there): the analysis finishes
// and its kernel caller still gets its facts.
__host__ __device__ int first_lane(int n)
{
	if (threadIdx.x == 0)
		return 1;
	if (threadIdx.y >= 4)
		return n;
	return 0;
}
__global__ void k(int *out, int n)
{
	out[blockIdx.x * blockDim.x + threadIdx.x] = first_lane(n);
}
void launch(int *o, int n)
{
	k<<<n / 128, 128>>>(o, n);
}
// expect: SELECT count(*) FROM kernel WHERE name = 'k' => 1
// expect: SELECT sectors_per_request FROM access WHERE line = 14 AND base = 'out' => 4
