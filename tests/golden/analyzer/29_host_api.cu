// Golden: host-side runtime API calls around a launch: allocation, copies
// (from malloc'd and pinned host memory), error checks.

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
	fprintf(stderr, "%s\n", cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void inc(int *a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		a[i] += 1;
}

int run(int n)
{
	int *h = (int *)malloc(n * sizeof(int));
	int *pinned = NULL;
	int *d = NULL;
	CHECK(cudaMallocHost((void **)&pinned, n * sizeof(int)));
	CHECK(cudaMalloc((void **)&d, n * sizeof(int)));
	cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
	inc<<<(n + 255) / 256, 256>>>(d, n);
	CHECK(cudaGetLastError());
	CHECK(cudaMemcpy(pinned, d, n * sizeof(int), cudaMemcpyDeviceToHost));
	cudaFree(d);
	cudaFreeHost(pinned);
	free(h);
	return 0;
}

// expect: SELECT category FROM call WHERE callee = 'cudaMalloc' => host_api
// expect: SELECT is_device_code FROM call WHERE callee = 'cudaMalloc' => 0
// expect: SELECT kernel FROM call WHERE callee = 'cudaMalloc' => NULL
// expect: SELECT func FROM call WHERE callee = 'cudaMalloc' => run
// expect: SELECT result_checked FROM call WHERE callee = 'cudaMalloc' => 1
// expect: SELECT result_checked FROM call WHERE line = 25 => 0
// expect: SELECT host_ptr_kind FROM call WHERE line = 25 => malloc
// expect: SELECT host_ptr_kind FROM call WHERE line = 28 AND callee = 'cudaMemcpy' => pinned
// expect: SELECT count(*) FROM call WHERE callee = 'cudaMemcpy' => 2
// expect: SELECT result_checked FROM call WHERE callee = 'cudaFree' => 0
// expect: SELECT checked_after FROM launch WHERE line = 26 => 1
// expect: SELECT block_x FROM launch WHERE line = 26 => 256
// expect: SELECT func FROM launch WHERE line = 26 => run
// expect: SELECT rw FROM access WHERE line = 15 AND base = 'a' => readwrite
// expect: SELECT count(*) FROM access WHERE kernel IS NULL => 0
