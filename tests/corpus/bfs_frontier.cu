// Corpus: one level of top-down breadth-first search over a CSR graph.
__global__ void bfs_level(const int *row_ptr, const int *adj, int *dist, const int *frontier,
			  int frontier_size, int *next, int *next_size, int level)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= frontier_size)
		return;
	int v = frontier[t];
	for (int e = row_ptr[v]; e < row_ptr[v + 1]; ++e) {
		int u = adj[e];
		if (atomicCAS(&dist[u], -1, level + 1) == -1) {
			int pos = atomicAdd(next_size, 1);
			next[pos] = u;
		}
	}
}

void bfs_step(const int *rp, const int *adj, int *dist, const int *f, int fs, int *nx, int *ns, int lvl)
{
	bfs_level<<<(fs + 255) / 256, 256>>>(rp, adj, dist, f, fs, nx, ns, lvl);
}
