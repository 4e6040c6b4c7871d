// Golden: a __host__ __device__ function is walked twice: as device code in
// the context of each kernel that calls it, and as host code, where there is
// no kernel and no block.  Its early return on a thread id is a fact of the
// kernel walk only.  (The host walk used to read the block shape of no
// kernel and crash.)

__host__ __device__ int is_leader()
{
	if (threadIdx.x == 0)
		return 1;
	return 0;
}

__global__ void count_leaders(int *out)
{
	if (threadIdx.x >= 128)
		return;
	if (is_leader())
		atomicAdd(out, 1);
}

// Host code after a kernel with a launch-given block: the host walk of
// is_leader must not reuse that kernel's block.
void launch_count(int *out)
{
	count_leaders<<<4, 128>>>(out);
	if (is_leader())
		count_leaders<<<1, 128>>>(out);
}

// expect: SELECT count(*) FROM branch WHERE func = 'is_leader' AND kernel IS NULL => 1
// expect: SELECT thread_dependent FROM branch WHERE func = 'is_leader' AND kernel = 'count_leaders' => 1
// expect: SELECT uniformity FROM branch WHERE func = 'is_leader' AND kernel = 'count_leaders' => thread
// expect: SELECT count(*) FROM early_return WHERE func = 'is_leader' => 0
// expect: SELECT thread_dependent FROM early_return WHERE kernel = 'count_leaders' => 0
// expect: SELECT block_x FROM kernel WHERE name = 'count_leaders' => 128
// expect: SELECT count(*) FROM launch WHERE kernel = 'count_leaders' AND block_x = 128 => 2
