// Shared arrays whose bounds are template arguments: a kernel launched
// with two block depths (so its own BK stays unbound) still stores
// sum[tx][ty][tz] as one element, rows of 5 x 5 apart; a helper taking
// `T x[m0][m1][m2]` with explicit bounds linearizes the subscripts with
// the caller's element size.
template <int m0, int m1, int m2, typename T>
__device__ void col_sum(int i, int j, int k, T x[m0][m1][m2]) {
  __syncthreads();
  if (i < 2) x[i][j][k] += x[i + 2][j][k];
  __syncthreads();
}

template <int BK>
__global__ void depth_sum(double *out, const double *in, int m) {
  const int tx = threadIdx.x;
  __shared__ double sum[BK][5][5];
  sum[tx][threadIdx.y][threadIdx.z] = in[tx + threadIdx.y * BK + threadIdx.z * 5 * BK];
  __syncthreads();
  if (tx == 0) out[threadIdx.y + threadIdx.z * m] = sum[1][threadIdx.y][threadIdx.z];
}

template <int BM, int BN>
__global__ void tree_sum(double *out, const double *in, int m) {
  __shared__ double sum[4][BM + 1][BN + 1];
  sum[threadIdx.x][threadIdx.y][threadIdx.z] = in[threadIdx.x + 4 * threadIdx.y];
  col_sum<4, BM + 1, BN + 1>(threadIdx.x, threadIdx.y, threadIdx.z, sum);
  if (threadIdx.x == 0) out[threadIdx.y + threadIdx.z * m] = sum[0][threadIdx.y][threadIdx.z];
}

void run(double *out, const double *in, int m, int wide) {
  if (wide)
    depth_sum<4><<<1, dim3(4, 5, 5)>>>(out, in, m);
  else
    depth_sum<2><<<1, dim3(2, 5, 5)>>>(out, in, m);
  tree_sum<4, 4><<<1, dim3(4, 4, 4)>>>(out, in, m);
}

// expect: SELECT rw || ' ' || coef_tx || ' ' || coef_ty || ' ' || coef_tz FROM access WHERE line = 17 AND base = 'sum' => write 25 5 1
// expect: SELECT offset_const FROM access WHERE line = 19 AND base = 'sum' => 25
// expect: SELECT coef_tx || ' ' || coef_ty || ' ' || coef_tz FROM access WHERE line = 9 AND base = 'sum' AND offset_const = 50 => 25 5 1
// expect: SELECT count(*) FROM access WHERE line = 9 AND base = 'sum' AND NOT (coef_tx = 25 AND coef_ty = 5 AND coef_tz = 1) => 0
