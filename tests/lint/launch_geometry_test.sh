#!/usr/bin/env bash
# A branch that the file's launches never split (issue 20, "guards that a
# launch makes dead"): when every launch of a kernel agrees on a constant
# grid and block and passes the same constant size, a bounds guard that
# holds in every launched thread is not divergent, so a barrier under it is
# not reported; a size that leaves a partial tile, or launches that
# disagree, keep the error.  Launch sizes spelled `ceil(float(N) / b.x)` or
# `N / b.x + 1` fold.
# usage: launch_geometry_test.sh KCHECK
set -u
kcheck=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

count() { # file rule -> number of findings of the rule
	"$kcheck" --no-config --no-db -q --format concise "$dir/$1" 2>/dev/null | grep -c "\[$2\]"
}
sev() { # file rule -> the severities of the rule's findings, comma-separated
	"$kcheck" --no-config --no-db -q --format concise "$dir/$1" 2>/dev/null | grep "\[$2\]" |
		sed -E 's/^[^ ]+ ([a-z]+): .*/\1/' | paste -sd,
}
expect() { # what file rule expected: what is count or sev
	local got
	got=$("$1" "$2" "$3")
	if [ "$got" != "$4" ]; then
		echo "FAIL: $2 $3: expected $1 '$4', got '$got'"
		fail=1
	fi
}
expect_count() { expect count "$@"; }
expect_sev() { expect sev "$@"; }

kernel='#define T 16
__global__ void mm(const double *A, const double *B, double *C, int n) {
  __shared__ double sA[T][T], sB[T][T];
  int col = blockDim.x * blockIdx.x + threadIdx.x;
  int row = blockDim.y * blockIdx.y + threadIdx.y;
  if (col < n && row < n) {
    double e = 0.0;
    for (int c = 0; c < n / T; c++) {
      sA[threadIdx.y][threadIdx.x] = A[n * row + threadIdx.x + c * T];
      sB[threadIdx.y][threadIdx.x] = B[n * (threadIdx.y + c * T) + col];
      __syncthreads();
      for (int i = 0; i < T; i++) e += sA[threadIdx.y][i] * sB[i][threadIdx.x];
      __syncthreads();
    }
    C[n * row + col] = e;
  }
}'

# n = 1024: 64 x 64 blocks of 16 x 16 cover it exactly, in both spellings
printf '%s\n%s\n' "$kernel" 'void run(const double *a, const double *b, double *c) {
  int N = 1024;
  dim3 thr(T, T, 1);
  dim3 g1((N + T - 1) / T, (N + T - 1) / T, 1);
  mm<<<g1, thr>>>(a, b, c, N);
  dim3 g2(ceil(float(N) / thr.x), ceil(float(N) / thr.y), 1);
  mm<<<g2, thr>>>(a, b, c, N);
}' >"$dir/exact.cu"
expect_count exact.cu sync-barrier-in-divergent-branch 0

# n = 1000: the last tile is partial, the guard splits its blocks
sed 's/int N = 1024;/int N = 1000;/' "$dir/exact.cu" >"$dir/partial.cu"
expect_count partial.cu sync-barrier-in-divergent-branch 2

# two launches with other sizes: no single geometry, the error stays
printf '%s\n%s\n' "$kernel" 'void run(const double *a, const double *b, double *c) {
  dim3 thr(T, T, 1);
  mm<<<dim3(64, 64), thr>>>(a, b, c, 1024);
  mm<<<dim3(32, 32), thr>>>(a, b, c, 512);
}' >"$dir/two.cu"
expect_count two.cu sync-barrier-in-divergent-branch 2

# a run-time size with the grid rounded down from it (`N / T` blocks of T):
# every launched thread has col < N and row < N, so the guard splits no
# block; rounded up, the last blocks straddle N
printf '%s\n%s\n' "$kernel" 'void run(const double *a, const double *b, double *c, int N) {
  dim3 thr(T, T, 1);
  dim3 g(N / T, N / T);
  mm<<<g, thr>>>(a, b, c, N);
}' >"$dir/floor.cu"
expect_count floor.cu sync-barrier-in-divergent-branch 0
sed 's|dim3 g(N / T, N / T);|dim3 g((N + T - 1) / T, (N + T - 1) / T);|' "$dir/floor.cu" >"$dir/ceilrt.cu"
expect_count ceilrt.cu sync-barrier-in-divergent-branch 2
# the grid rounded down from one size and the kernel passed another
sed 's|mm<<<g, thr>>>(a, b, c, N);|mm<<<g, thr>>>(a, b, c, N - 1);|' "$dir/floor.cu" >"$dir/floorother.cu"
expect_count floorother.cu sync-barrier-in-divergent-branch 2
# rows and columns from two sizes (LeetCUDA's transposes: grid(N / 32, M / 32))
cat >"$dir/floor2.cu" <<'CU'
__global__ void tr(const int *A, int M, int N, int *B) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ int s[32][33];
  if (row < M && col < N) {
    s[threadIdx.x][threadIdx.y] = A[row * N + col];
    __syncthreads();
    int ncol = blockIdx.y * blockDim.y + threadIdx.x;
    int nrow = blockIdx.x * blockDim.x + threadIdx.y;
    if (ncol < M && nrow < N)
      B[nrow * M + ncol] = s[threadIdx.y][threadIdx.x];
  }
}
void run(const int *A, int *B, int M, int N) {
  dim3 block(32, 32);
  dim3 grid(N / 32, M / 32);
  tr<<<grid, block>>>(A, M, N, B);
}
CU
expect_count floor2.cu sync-barrier-in-divergent-branch 0
sed 's|dim3 grid(N / 32, M / 32);|dim3 grid(M / 32, N / 32);|' "$dir/floor2.cu" >"$dir/floorswap.cu"
expect_count floorswap.cu sync-barrier-in-divergent-branch 1
# the size changed between the grid's declaration and the launch: the grid
# was made from the old N, so the launched N / 32 is no longer a floor
sed 's|  tr<<<grid, block>>>(A, M, N, B);|  N = N + 7;\n  tr<<<grid, block>>>(A, M, N, B);|' "$dir/floor2.cu" >"$dir/floorlate.cu"
expect_count floorlate.cu sync-barrier-in-divergent-branch 1
# an axis assigned after the declaration (`grid.y = ...`): not the floor
sed 's|  tr<<<grid, block>>>(A, M, N, B);|  grid.y = (M + 31) / 32;\n  tr<<<grid, block>>>(A, M, N, B);|' "$dir/floor2.cu" >"$dir/floorset.cu"
expect_count floorset.cu sync-barrier-in-divergent-branch 1
# a constant size changed after the declaration: the grid keeps 2 x 2 blocks
printf '%s\n%s\n' "$kernel" 'void run(const double *a, const double *b, double *c) {
  dim3 thr(T, T, 1);
  int n = 2 * T;
  dim3 g(n / T, n / T);
  n = 1000;
  mm<<<g, thr>>>(a, b, c, 2 * T);
}' >"$dir/constlate.cu"
expect_count constlate.cu sync-barrier-in-divergent-branch 0
# launches in a class's methods defined outside the class are host code the
# walk reads: two unchecked launches, the block known (no assumed block)
cat >"$dir/methods.cu" <<'CU'
__global__ void init_k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = 0; }
__global__ void step_k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1; }
class Solver {
public:
  void init();
  void compute(int *step);
  float *x;
  int n;
};
void Solver::init() { init_k<<<(n + 127) / 128, 128>>>(x, n); }
void Solver::compute(int *step) {
  if (*step == 0)
    init();
  step_k<<<(n + 127) / 128, 128>>>(x, n);
}
CU
expect_count methods.cu host-unchecked-launch 2

# the folded sizes: grid_blocks of both launches of exact.cu
got=$("$kcheck" facts "$dir/exact.cu" --format json 2>/dev/null | grep -o '"grid_blocks": *[0-9a-z]*' | tr -d ' ' | paste -sd,)
if [ "$got" != '"grid_blocks":4096,"grid_blocks":4096' ]; then
	echo "FAIL: exact.cu grid_blocks: expected 4096 twice, got '$got'"
	fail=1
fi
# cudaLaunchKernel is a launch: its block (32 threads) reaches the launch
# rules, and wrapping its error code in a check counts as checked
cat >"$dir/api.cu" <<'CU'
#define CK(x) do { if ((x) != cudaSuccess) return; } while (0)
__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
void run(float *x, float a, int n, cudaStream_t s) {
  void *args[] = {&x, &a, &n};
  CK(cudaLaunchKernel((const void *)scale, dim3((n + 31) / 32), dim3(32), args, 0, s));
}
CU
expect_count api.cu launch-tiny-blocks 1
expect_count api.cu host-unchecked-launch 0
got=$("$kcheck" facts "$dir/api.cu" --format json 2>/dev/null | grep -o '"api": *"[A-Za-z]*"' | tr -d ' ')
if [ "$got" != '"api":"cudaLaunchKernel"' ]; then
	echo "FAIL: api.cu launch api: expected cudaLaunchKernel, got '$got'"
	fail=1
fi
# one report per kernel and launch configuration: three launches of a
# template kernel with the same 32-thread block are one launch-tiny-blocks
# warning listing the other lines, and --diff still fixes all three
cat >"$dir/sites.cu" <<'CU'
template <int K> __global__ void tile(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= K;
}
void run(float *x, int n, int k) {
  switch (k) {
  case 1: tile<1><<<(n + 31) / 32, 32>>>(x, n); break;
  case 2: tile<2><<<(n + 31) / 32, 32>>>(x, n); break;
  case 3: tile<3><<<(n + 31) / 32, 32>>>(x, n); break;
  }
}
CU
expect_count sites.cu launch-tiny-blocks 1
if ! "$kcheck" --no-config --no-db "$dir/sites.cu" 2>/dev/null | grep -q "= also at lines 8, 9, launched the same way"; then
	echo "FAIL: sites.cu: the text report does not list lines 8 and 9"
	fail=1
fi
got=$("$kcheck" --no-config --no-db --format json "$dir/sites.cu" 2>/dev/null | tr -d ' \n' | grep -o '"also_lines":\[[0-9,]*\]' | sort -u)
if [ "$got" != '"also_lines":[8,9]' ]; then
	echo "FAIL: sites.cu: JSON also_lines: expected [8,9], got '$got'"
	fail=1
fi
got=$("$kcheck" --no-config --no-db --diff --unsafe-fixes "$dir/sites.cu" 2>/dev/null | grep -c '^+ *case')
if [ "$got" != 3 ]; then
	echo "FAIL: sites.cu: --diff rewrote $got of the 3 launches"
	fail=1
fi
# A kernel of planes (columns of x) owned by a block-aligned stride loop,
# with a barrier in it: `plane_kernel NAME` prints it.  Each column scales
# by its neighbour's factor, which a column that has left the loop no
# longer loads: uneven trips are then a hazard, not the exit shape of
# sync-barrier-skip-exit.
plane_kernel() {
	cat <<CU
template <typename T, int NTX, int NTY>
__global__ void $1(T *x, const T *s, int nPlanes, int nActive) {
  __shared__ T f[NTX];
  for (int plane = threadIdx.x + blockIdx.x * NTX; plane < nPlanes; plane += gridDim.x * NTX) {
    if (threadIdx.y == 0) f[threadIdx.x] = s[plane];
    __syncthreads();
    for (int row = threadIdx.y; row < nActive; row += NTY) x[row * nPlanes + plane] *= f[(threadIdx.x + 1) % NTX];
    __syncthreads();
  }
}
CU
}

# A block-aligned stride loop (`plane = threadIdx.x + blockIdx.x * NTX;
# plane < nPlanes; plane += gridDim.x * NTX`, NTX the block's x size at each
# launch) whose bound every launch guards with `nPlanes % NTX == 0`: every
# thread of a block runs the same trips, so its barriers are not divergent.
# The launches may sit in a macro in a host template.  A guard by another
# size, or a launch in the else branch, keeps the error.
{ plane_kernel colscale; cat <<'CU'
#define GO(NTX, NTY) \
  if (nPlanes % NTX == 0 && nActive > 0) { \
    colscale<T, NTX, NTY><<<dim3(16), dim3(NTX, NTY)>>>(x, s, nPlanes, nActive); \
    return; \
  }
template <typename T> void run(T *x, const T *s, int nPlanes, int nActive) {
  GO(32, 32)
  GO(16, 64)
  GO(1, 64)
}
template void run<float>(float *, const float *, int, int);
CU
} >"$dir/aligned.cu"
expect_count aligned.cu sync-barrier-in-divergent-branch 0
{ plane_kernel colscale2; cat <<'CU'
void run2(float *x, const float *s, int nPlanes, int nActive) {
  if (nPlanes % 16 == 0) colscale2<float, 32, 8><<<16, dim3(32, 8)>>>(x, s, nPlanes, nActive);
  else colscale2<float, 16, 8><<<16, dim3(16, 8)>>>(x, s, nPlanes, nActive);
}
CU
} >"$dir/unaligned.cu"
expect_count unaligned.cu sync-barrier-in-divergent-branch 2
# The guard one call up: the launching template passes its parameter and
# its template parameter NTX on (`k<T, NTX, NTY><<<16, dim3(NTX, NTY)>>>(x,
# nPlanes)`), and every call of it sits under `nPlanes % N == 0` with N its
# template argument.  One call without the guard leaves the bound unknown:
# the warning of sync-barrier-in-block-stride-loop, not the error.
{ plane_kernel bn; cat <<'CU'
template <typename T, int NTX, int NTY>
void bn_pass(T *x, const T *s, int nPlanes, int nActive) {
  bn<T, NTX, NTY><<<16, dim3(NTX, NTY)>>>(x, s, nPlanes, nActive);
}
#define BN(N) \
  if (nPlanes % N == 0) { \
    bn_pass<T, N, 64>(x, s, nPlanes, nActive); \
  }
template <typename T> void bn_f(T *x, const T *s, int nPlanes, int nActive) {
  BN(16) else BN(8) else BN(1)
}
template void bn_f<float>(float *, const float *, int, int);
CU
} >"$dir/caller.cu"
expect_count caller.cu sync-barrier-in-divergent-branch 0
sed 's/^template void bn_f<float>.*/&\nvoid other(float *x, const float *s, int n, int a) { bn_pass<float, 32, 8>(x, s, n, a); }/' "$dir/caller.cu" >"$dir/caller2.cu"
expect_count caller2.cu sync-barrier-in-divergent-branch 0
expect_count caller2.cu sync-barrier-in-block-stride-loop 2
# Tiny blocks by grid (launch-tiny-blocks): the block limit binds only
# when the grid holds more blocks than the SMs keep at once.  A grid that
# covers the elements (a ceil-div, also through a variable or a dim3) or
# whose constant axes alone reach the SM count keeps its warning; a
# run-time count of rows (`<<<batch, 32>>>`) and a constant grid of 1000
# blocks are notes.  The dim3's constant axis is folded on its own.
tiny='__global__ void k32(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}'
printf '%s\n%s\n' "$tiny" 'void a(float *x, int n) { const int blocks = (n + 31) / 32; k32<<<blocks, 32>>>(x, n); }' >"$dir/tiny_ceil.cu"
expect_sev tiny_ceil.cu launch-tiny-blocks warning
printf '%s\n%s\n' "$tiny" 'void a(float *x, int n) { dim3 g(n / 32, 4096); k32<<<g, 32>>>(x, n); }' >"$dir/tiny_axis.cu"
expect_sev tiny_axis.cu launch-tiny-blocks warning
printf '%s\n%s\n' "$tiny" 'void a(float *x, int batch) { k32<<<batch, 32>>>(x, batch * 32); }' >"$dir/tiny_rows.cu"
expect_sev tiny_rows.cu launch-tiny-blocks note
printf '%s\n%s\n' "$tiny" 'void a(float *x) { k32<<<1000, 32>>>(x, 32000); }' >"$dir/tiny_1000.cu"
expect_sev tiny_1000.cu launch-tiny-blocks note
got=$("$kcheck" facts "$dir/tiny_axis.cu" --format json 2>/dev/null | tr -d ' \n' |
	grep -o '"grid_x":[0-9a-z]*,"grid_y":[0-9a-z]*,"grid_z":[0-9a-z]*,"grid_blocks":[0-9a-z]*')
if [ "$got" != '"grid_x":null,"grid_y":4096,"grid_z":1,"grid_blocks":null' ]; then
	echo "FAIL: tiny_axis.cu grid axes: got '$got'"
	fail=1
fi
# A template argument the text does not fold (a constexpr of sizeof) comes
# from the compiler's resolved specialization: the loop over VPT has 8 trips.
cat >"$dir/vpt.cu" <<'CU'
#include <cuda_fp16.h>
template <int VPT>
__global__ void scale(__half *x, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * VPT;
  for (int j = 0; j < VPT; j++)
    if (base + j < n) x[base + j] = __hmul(x[base + j], __float2half(2.0f));
}
void run(__half *x, int n) {
  constexpr int VPT = 16 / sizeof(__half);
  scale<VPT><<<(n / VPT + 127) / 128, 128>>>(x, n);
}
CU
got=$("$kcheck" facts "$dir/vpt.cu" --format json 2>/dev/null | tr -d ' \n' | grep -o '"trip_count":[0-9a-z]*' | paste -sd,)
if [ "$got" != '"trip_count":8' ]; then
	echo "FAIL: vpt.cu: the loop over VPT: expected trip_count 8, got '$got'"
	fail=1
fi
# A bound that is a product with the block's x size as a factor: the
# kernels of a deformable attention launched with `num_threads = (c > T) ?
# T : c` and `n = batch * h * w * c` under `else` of `if (c > T)` run the
# same trips in every thread (the ?: is decided by the branch); with another
# threshold in the branch (T = 256 against 1024) the block may be 256 for c
# between them and n need not be a multiple: nothing shows it either way,
# the warning of sync-barrier-in-block-stride-loop.
dcn() { cat <<CU
#define LOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)
const int NT = $1;
__global__ void col2im(const int n, const float *g, float *o, const int c) {
  extern __shared__ float cache[];
  LOOP(index, n) {
    cache[threadIdx.x] = g[index];
    __syncthreads();
    if (threadIdx.x == 0) {
      float s = 0;
      for (unsigned t = 0; t < blockDim.x; ++t) s += cache[t];
      o[index / c] = s;
    }
    __syncthreads();
  }
}
void run(const float *g, float *o, int batch, int h, int w, int c) {
  const int num_threads = (c > NT) ? NT : c;
  const int num_kernels = batch * h * w * c;
  if (c > 1024) {
    return;
  } else {
    col2im<<<(num_kernels + num_threads - 1) / num_threads, num_threads, num_threads * 4>>>(num_kernels, g, o, c);
  }
}
CU
}
dcn 1024 >"$dir/dcn.cu"
expect_count dcn.cu sync-barrier-in-divergent-branch 0
dcn 256 >"$dir/dcn256.cu"
expect_count dcn256.cu sync-barrier-in-divergent-branch 0
expect_count dcn256.cu sync-barrier-in-block-stride-loop 2
# With --ptxas, registers join the occupancy: a kernel whose registers
# already hold an SM to fewer warps than 32 one-warp blocks is not reported
# for its 32-thread blocks, and one at 56 registers states the loss that
# registers leave (1152 threads an SM against 1024: 1.1x, a note), not 2x.
if [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null; then
	regs_kernel() { # N: a kernel that keeps N floats live
		cat <<CU
__global__ void heavy(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v[$1];
#pragma unroll
  for (int k = 0; k < $1; k++) v[k] = in[i + k * n];
  float s = 0.f;
#pragma unroll
  for (int r = 0; r < 4; r++)
#pragma unroll
    for (int k = 0; k < $1; k++) s = s * v[(k * 7 + r) % $1] + v[k];
  out[i] = s;
}
void launch_heavy(float *out, const float *in, int n) { heavy<<<(n + 31) / 32, 32>>>(out, in, n); }
CU
	}
	ptx() { # file rule -> severity and estimate of the rule's findings with --ptxas
		"$kcheck" --no-config --no-db -q --format concise --ptxas "$dir/$1" 2>/dev/null | grep "\[$2\]" |
			sed -E 's/^[^ ]+ ([a-z]+): .*\[impact ([0-9.]+x).*/\1 \2/' | paste -sd,
	}
	regs_kernel 96 >"$dir/regs96.cu"
	regs_kernel 40 >"$dir/regs40.cu"
	expect_count regs96.cu launch-tiny-blocks 1 # without --ptxas: registers unknown
	expect ptx regs96.cu launch-tiny-blocks ""
	expect ptx regs40.cu launch-tiny-blocks "note 1.1x"
else
	echo "SKIP: no nvcc: the --ptxas register-occupancy cases of launch-tiny-blocks"
fi
exit $fail
