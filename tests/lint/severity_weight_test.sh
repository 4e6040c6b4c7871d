#!/usr/bin/env bash
# Execution-count weighting of the severity (issue 20): a math finding is
# scaled by its share of the loop work the analyzer sees, and a thread-per-row
# store outside the traffic-carrying loop with a run-time width is a note.
# usage: severity_weight_test.sh KCHECK
set -u
kcheck=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

expect() { # file line rule severity
	local got
	got=$("$kcheck" --no-config --no-db -q --format concise "$dir/$1" 2>/dev/null |
		grep -E "^[^:]*:$2:[0-9]+: [a-z]+: .*\[$3\]" | sed -E 's/^[^:]*:[0-9]+:[0-9]+: ([a-z]+):.*/\1/' | head -1)
	if [ "$got" != "$4" ]; then
		echo "FAIL: $1:$2 $3: expected $4, got '${got:-nothing}'"
		fail=1
	fi
}

cat >"$dir/tight.cu" <<'CU'
__global__ void __launch_bounds__(256) chain(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  for (int s = 0; s < n; ++s) {
    v = v * 0.5 + 1.0f;
    v = powf(v, 2.0f);
  }
  out[i] = v;
}
void run_chain(float *o, const float *in, int n) { chain<<<(n + 255) / 256, 256>>>(o, in, n); }
CU
expect tight.cu 6 math-fp64-promotion warning
expect tight.cu 7 math-pow-small-integer warning

cat >"$dir/busy.cu" <<'CU'
__global__ void __launch_bounds__(256) grads(float *gv, const float *verts, const int *faces, const float *ga, int F) {
  for (int f = blockIdx.x * blockDim.x + threadIdx.x; f < F; f += gridDim.x * blockDim.x) {
    int a = faces[3 * f], b = faces[3 * f + 1], c = faces[3 * f + 2];
    float ax = verts[3 * a], ay = verts[3 * a + 1], az = verts[3 * a + 2];
    float bx = verts[3 * b], by = verts[3 * b + 1], bz = verts[3 * b + 2];
    float cx = verts[3 * c], cy = verts[3 * c + 1], cz = verts[3 * c + 2];
    float n = sqrtf(ax * bx + ay * by + az * cz);
    float inv = 1.0f / n;
    float g = ga[f] / 2.0 * inv;
    float q = powf(inv, 2.0f) * cx * cy;
    atomicAdd(gv + 3 * a, g * q);
    atomicAdd(gv + 3 * b, g * bz);
    atomicAdd(gv + 3 * c, g * cz);
  }
}
void run_grads(float *gv, const float *v, const int *fc, const float *ga, int F) { grads<<<64, 256>>>(gv, v, fc, ga, F); }
CU
expect busy.cu 9 math-fp64-promotion note
expect busy.cu 10 math-pow-small-integer note

cat >"$dir/rows.cu" <<'CU'
__global__ void __launch_bounds__(256) raster(float *zbuf, const float *faces, int P, int F, int K) {
  int pix = blockIdx.x * blockDim.x + threadIdx.x;
  if (pix >= P) return;
  float best = 1e30f;
  for (int f = 0; f < F; ++f)
    best = fminf(best, faces[f] * pix);
  zbuf[pix * K] = best;
  zbuf[pix * K + 1] = best * 2.0f;
}
void run_raster(float *z, const float *f, int P, int F, int K) { raster<<<(P + 255) / 256, 256>>>(z, f, P, F, K); }
CU
expect rows.cu 7 gmem-row-index-from-threadidx-x note
if ! "$kcheck" --no-config --no-db -q "$dir/rows.cu" 2>/dev/null | grep -q "width is a run-time value no launch binds"; then
	echo "FAIL: rows.cu: the message does not say the width is unknown"
	fail=1
fi

cat >"$dir/queue.cu" <<'CU'
__global__ void __launch_bounds__(256) naive(float *zbuf, const float *pts, int P, int N, int K) {
  int pix = blockIdx.x * blockDim.x + threadIdx.x;
  if (pix >= P) return;
  float q[8];
  int q_size = 0;
  for (int p = 0; p < N; ++p) {
    float d = pts[p] - pix;
    if (d < 1.0f && q_size < 8) q[q_size++] = d;
  }
  for (int k = 0; k < q_size; ++k)
    zbuf[pix * K + k] = q[k];
}
void run_naive(float *z, const float *p, int P, int N, int K) { naive<<<(P + 255) / 256, 256>>>(z, p, P, N, K); }

__global__ void __launch_bounds__(256) colsum(float *out, const float *x, int rows, int width) {
  int o = blockIdx.x;
  const float *xc = x + o;
  float s = 0.0f;
  for (int i = threadIdx.x; i < rows; i += blockDim.x)
    s += xc[i * width];
  out[o * 256 + threadIdx.x] = s;
}
void run_colsum(float *o, const float *x, int rows, int width) { colsum<<<width, 256>>>(o, x, rows, width); }
CU
expect queue.cu 11 gmem-row-index-from-threadidx-x note
expect queue.cu 20 gmem-row-index-from-threadidx-x warning

# A lane's record read field by field (issue 20): twelve of a 4x4 matrix's
# sixteen floats in an unrolled loop are a 1.3x note; a lone field of an
# 8-float record keeps its 8x warning; a 7-float box read whole through two
# helpers, and a matrix written whole, are not reported.
cat >"$dir/record.cu" <<'CU'
__device__ float area(const float *b) { return b[3] * b[4]; }
__device__ bool inside(const float *b) { return b[0] * b[6] + b[1] + b[2] * b[5] > 0.f; }
__device__ void put(float *m, int r, int c, float v) { m[r * 4 + c] = v; }
__global__ void rec(const float *boxes, const float *mats, const float *recs, float *g, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float *b = boxes + i * 7, *m = mats + i * 16;
  float s = area(b) + (inside(b) ? 1.f : 0.f);
#pragma unroll
  for (int r = 0; r < 3; r++) s += m[r * 4] * m[r * 4 + 1] + m[r * 4 + 2] * m[r * 4 + 3];
#pragma unroll
  for (int r = 0; r < 4; r++)
#pragma unroll
    for (int c = 0; c < 4; c++) put(g + i * 16, r, c, s * r + c);
  out[i] = s + recs[i * 8 + 2];
}
void run_rec(const float *b, const float *m, const float *r, float *g, float *o, int n) { rec<<<(n + 255) / 256, 256>>>(b, m, r, g, o, n); }
CU
expect record.cu 10 gmem-uncoalesced-access note
expect record.cu 15 gmem-uncoalesced-access warning
expect record.cu 1 gmem-uncoalesced-access ""
expect record.cu 2 gmem-uncoalesced-access ""
expect record.cu 3 gmem-uncoalesced-store ""

# A row of run-time width written field by field (issue 20): the row's first
# 18 fields at constant offsets after `o += b * C` are a record whose cost
# depends on the unknown width (a note); a thread looping over the width
# keeps its warning.
cat >"$dir/fields.cu" <<'CU'
__global__ void fields(const float *in, float *out, int B, int C) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  float x = in[b];
  float *o = out + b * C;
  o[0] = x * 0.f; o[1] = x * 1.f; o[2] = x * 2.f; o[3] = x * 3.f; o[4] = x * 4.f; o[5] = x * 5.f; o[6] = x * 6.f; o[7] = x * 7.f; o[8] = x * 8.f; o[9] = x * 9.f; o[10] = x * 10.f; o[11] = x * 11.f; o[12] = x * 12.f; o[13] = x * 13.f; o[14] = x * 14.f; o[15] = x * 15.f; o[16] = x * 16.f; o[17] = x * 17.f;
}
__global__ void walk(const float *in, float *rows, int B, int C) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  for (int j = 0; j < C; j++)
    rows[b * C + j] = in[b] * j;
}
void run_fields(const float *in, float *out, float *rows, int B, int C) {
  fields<<<(B + 255) / 256, 256>>>(in, out, B, C);
  walk<<<(B + 255) / 256, 256>>>(in, rows, B, C);
}
CU
expect fields.cu 6 gmem-row-index-from-threadidx-x note
expect fields.cu 12 gmem-row-index-from-threadidx-x warning
# A row whose width is a template parameter no launch binds, read or written
# in loops of that compile-time trip once per thread (a point's D coordinates,
# its C outputs), is a record of unknown size (a note); the same walk over a
# run-time width inside the thread's loop keeps its warning.
cat >"$dir/tmpl.cu" <<'CU'
template <int D, int C>
__global__ void enc(const float *xyz, const float *table, float *out, int B, int T) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  xyz += b * D;
  out += b * C;
  unsigned h = 0;
#pragma unroll
  for (int d = 0; d < D; d++) h = h * 2654435761u + (unsigned)(xyz[d] * 512.f);
#pragma unroll
  for (int c = 0; c < C; c++) out[c] = table[(h + c) % T];
}
__global__ void rowsum(const float *x, float *s, int B, int N) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= B) return;
  float a = 0.f;
  for (int k = 0; k < N; k++) a += x[b * N + k];
  s[b] = a;
}
template <int D> void run_enc_d(const float *x, const float *t, float *o, int B, int C, int T) {
  if (C == 2) enc<D, 2><<<(B + 255) / 256, 256>>>(x, t, o, B, T);
  else enc<D, 4><<<(B + 255) / 256, 256>>>(x, t, o, B, T);
}
void run_enc(const float *x, const float *t, float *o, float *s, int B, int D, int C, int T, int N) {
  if (D == 2) run_enc_d<2>(x, t, o, B, C, T);
  else run_enc_d<3>(x, t, o, B, C, T);
  rowsum<<<(B + 255) / 256, 256>>>(x, s, B, N);
}
CU
expect tmpl.cu 9 gmem-row-index-from-threadidx-x note
expect tmpl.cu 11 gmem-row-index-from-threadidx-x note
expect tmpl.cu 17 gmem-row-index-from-threadidx-x warning
# A __constant__ table copied into shared memory by a block-stride loop is
# a prologue (a note); a per-thread lookup into it in the loop keeps its
# warning.
cat >"$dir/ctable.cu" <<'CU'
static __constant__ unsigned TABLE[2048] = {1, 2, 3};
__global__ void stage(unsigned *out, const unsigned *in, unsigned n) {
  __shared__ unsigned T[2048];
  const unsigned gi = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = threadIdx.x; i < 2048; i += blockDim.x)
    T[i] = TABLE[i];
  __syncthreads();
  unsigned x = in[gi];
  for (unsigned r = 0; r < n; r++)
    x = T[x & 2047] ^ TABLE[(threadIdx.x + r) & 31] ^ r;
  out[gi] = x;
}
void run_stage(unsigned *o, const unsigned *i, unsigned n, unsigned b) { stage<<<b / 128, 128>>>(o, i, n); }
CU
expect ctable.cu 6 cmem-divergent-index note
expect ctable.cu 10 cmem-divergent-index warning
# A thread's own row read again in every iteration of a loop over the other
# rows (a brute-force nearest neighbour: `q[i*dim + d]` inside `for (j)`)
# moves its bytes from DRAM once: the L1 serves the repeats, so it is a
# note; the same row walked by a loop that moves it, with nothing around it,
# keeps its warning.
cat >"$dir/reread.cu" <<'CU'
__global__ void nearest(int *out, const float *q, const float *p, int n, int m, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float best = 1e30f; int at = -1;
  for (int j = 0; j < m; j++) {
    float dd = 0.f;
    for (int d = 0; d < dim; d++) {
      float t = p[j * dim + d] - q[i * dim + d];
      dd += t * t;
    }
    if (dd < best) { best = dd; at = j; }
  }
  out[i] = at;
}
__global__ void rownorm(float *out, const float *x, int n, int dim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int d = 0; d < dim; d++)
    s += x[i * dim + d] * x[i * dim + d];
  out[i] = s;
}
void run_nearest(int *o, float *r, const float *q, const float *p, int n, int m, int dim) {
  nearest<<<(n + 255) / 256, 256>>>(o, q, p, n, m, dim);
  rownorm<<<(n + 255) / 256, 256>>>(r, q, n, dim);
}
CU
expect reread.cu 8 gmem-row-index-from-threadidx-x note
expect reread.cu 20 gmem-row-index-from-threadidx-x warning
# Host loops (fresh sample of 2026-12-06): a synchronization or allocation
# written inside a checking macro is placed in its loop by line; a
# synchronization between reads of a timer wrapper (`mysecond()` over
# gettimeofday) is a harness; a loop over sizes whose nested loop launches
# amortizes its per-size allocation and synchronization (notes); a plain
# synchronization per launch stays a warning.
cat >"$dir/harness.cu" <<'CU'
#include <sys/time.h>
#define CHECK(x) do { if ((x) != cudaSuccess) return; } while (0)
__global__ void k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.f; }
static double mysecond(void) { struct timeval tv; gettimeofday(&tv, 0); return tv.tv_sec + 1e-6 * tv.tv_usec; }
void sizes(const int *ns, int count, int reps) {
  for (int s = 0; s < count; s++) {
    float *d;
    CHECK(cudaMalloc(&d, ns[s] * sizeof(float)));
    k<<<(ns[s] + 255) / 256, 256>>>(d, ns[s]);
    CHECK(cudaDeviceSynchronize());
    for (int r = 0; r < reps; r++)
      k<<<(ns[s] + 255) / 256, 256>>>(d, ns[s]);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(d));
  }
}
void timed(float *d, int n, double *t, int reps) {
  for (int r = 0; r < reps; r++) {
    t[r] = mysecond();
    k<<<(n + 255) / 256, 256>>>(d, n);
    cudaDeviceSynchronize();
    t[r] = mysecond() - t[r];
  }
}
void debug(float *d, int n, int reps) {
  for (int r = 0; r < reps; r++) {
    k<<<(n + 255) / 256, 256>>>(d, n);
    CHECK(cudaDeviceSynchronize());
  }
}
CU
expect harness.cu 8 host-alloc-in-loop note
expect harness.cu 10 host-sync-in-loop note
expect harness.cu 13 host-sync-in-loop note
expect harness.cu 21 host-sync-in-loop note
expect harness.cu 28 host-sync-in-loop warning
# A synchronization that completes an asynchronous copy from the device of a
# value the host then reads (a count that sizes the next launch) is a note.
cat >"$dir/readback.cu" <<'CU'
#define CHECK(x) do { if ((x) != cudaSuccess) return; } while (0)
__global__ void k(float *x, unsigned *count, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n && x[i] > 0.f) atomicAdd(count, 1u); }
void levels(float *d, unsigned *d_count, int n, int nlevels, cudaStream_t s) {
  for (int l = 0; l < nlevels; l++) {
    k<<<(n + 255) / 256, 256, 0, s>>>(d, d_count, n);
    unsigned found = 0;
    CHECK(cudaMemcpyAsync(&found, d_count, sizeof(unsigned), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    if (found == 0) continue;
    n = (int)found;
  }
}
CU
expect readback.cu 8 host-sync-in-loop note
# The read-back written the other way round (TIGRE's TV solvers): a sync,
# then a blocking copy to the host with no launch between; the copy waits
# for the same work, so the sync is a note; a sync before another launch
# stays a warning.
cat >"$dir/blocking.cu" <<'CU'
__global__ void step(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
__global__ void norm(const float *x, float *s, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(s, x[i] * x[i]); }
void tv(float *x, float *d_s, int n, int iters) {
  for (int it = 0; it < iters; it++) {
    step<<<(n + 255) / 256, 256>>>(x, n);
    cudaDeviceSynchronize();
    norm<<<(n + 255) / 256, 256>>>(x, d_s, n);
    cudaDeviceSynchronize();
    float s = 0.f;
    cudaMemcpy(&s, d_s, sizeof(float), cudaMemcpyDeviceToHost);
    if (s < 1e-6f) break;
  }
}
CU
expect blocking.cu 6 host-sync-in-loop warning
expect blocking.cu 8 host-sync-in-loop note
# A kernel launched only under a first-pass test (a step counter against 0,
# a set-up flag), through two host functions, while another kernel runs on
# every pass: its performance findings are notes ([cold: ...]); the same
# kernel launched without the test keeps its warning.  The host functions
# are a class's methods defined outside the class (GPUMD's QTB thermostat).
# the two kernels of both files: line 4 is fill_rows' strided store
cat >"$dir/qtb_kernels.cu" <<'CU'
__global__ void fill_rows(double *hist, int n, int w) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    for (int m = 0; m < w; m++) hist[t * w + m] = 0.1 * m;
}
__global__ void kick(double *v, int n) { int t = blockIdx.x * blockDim.x + threadIdx.x; if (t < n) v[t] *= 0.99; }
CU
{ cat "$dir/qtb_kernels.cu"; cat <<'CU'; } >"$dir/firstpass.cu"
class Thermostat {
public:
  void init_all();
  void init_history();
  void compute(const int *current_step);
  double *hist, *v;
  int n, w;
};
void Thermostat::init_history() { fill_rows<<<(n + 127) / 128, 128>>>(hist, n, w); }
void Thermostat::init_all() { init_history(); }
void Thermostat::compute(const int *current_step) {
  if (*current_step == 0) {
    init_all();
  }
  kick<<<(n + 127) / 128, 128>>>(v, n);
}
CU
expect firstpass.cu 4 gmem-row-index-from-threadidx-x note
sed 's/  if (\*current_step == 0) {/  if (1) {/' "$dir/firstpass.cu" >"$dir/everypass.cu"
expect everypass.cu 4 gmem-row-index-from-threadidx-x warning
# the first-pass test inside the time loop itself, on a set-up flag
{ cat "$dir/qtb_kernels.cu"; cat <<'CU'; } >"$dir/firstloop.cu"
void run(double *hist, double *v, int n, int w, int steps) {
  bool initialized = false;
  for (int s = 0; s < steps; s++) {
    if (!initialized) {
      fill_rows<<<(n + 127) / 128, 128>>>(hist, n, w);
      initialized = true;
    }
    kick<<<(n + 127) / 128, 128>>>(v, n);
  }
}
CU
expect firstloop.cu 4 gmem-row-index-from-threadidx-x note
sed 's/    if (!initialized) {/    if (!finite_run) {/; s/  bool initialized = false;/  bool finite_run = false;/; s/      initialized = true;/      finite_run = true;/' "$dir/firstloop.cu" >"$dir/finiteloop.cu"
expect finiteloop.cu 4 gmem-row-index-from-threadidx-x warning
# A constructor's launches are set-up: the history is filled once per
# object (GPUMD's Ensemble_QTB), while compute() kicks on every pass.  The
# same launch from an ordinary method keeps its warning.
{ cat "$dir/qtb_kernels.cu"; cat <<'CU'; } >"$dir/ctor.cu"
class Ensemble {
public:
  Ensemble(int n_, int w_);
  void fill_all();
  void compute();
  double *hist, *v;
  int n, w;
};
void Ensemble::fill_all() { fill_rows<<<(n + 127) / 128, 128>>>(hist, n, w); }
Ensemble::Ensemble(int n_, int w_) {
  n = n_;
  w = w_;
  fill_all();
}
void Ensemble::compute() { kick<<<(n + 127) / 128, 128>>>(v, n); }
CU
expect ctor.cu 4 gmem-row-index-from-threadidx-x note
sed 's/^Ensemble::Ensemble(int n_, int w_) {/void Ensemble::reset(int n_, int w_) {/; s/  Ensemble(int n_, int w_);/  void reset(int n_, int w_);/' "$dir/ctor.cu" >"$dir/noctor.cu"
expect noctor.cu 4 gmem-row-index-from-threadidx-x warning
# A kernel launched only on every Nth pass is cold on its own: the pass
# loop's other work runs N times as often.  Every Nth pass is a pass counter
# modulo a run-time interval or a constant of at least 8, in the branch or
# in an early return at the top of the launching function (GPUMD's output
# classes: `if ((step + 1) % num_interval_ != 0) return;`).  `iter % 2`
# alternates buffers and the constant 1 is every pass: both keep the warning.
{ cat "$dir/qtb_kernels.cu"; cat <<'CU'; } >"$dir/dump.cu"
class Dump {
public:
  void process(int step);
  double *hist;
  int n, w, num_interval_;
};
void Dump::process(int step) {
  if ((step + 1) % num_interval_ != 0) return;
  fill_rows<<<(n + 127) / 128, 128>>>(hist, n, w);
}
CU
expect dump.cu 4 gmem-row-index-from-threadidx-x note
sed 's/num_interval_ != 0/1 != 0/' "$dir/dump.cu" >"$dir/dumpone.cu"
expect dumpone.cu 4 gmem-row-index-from-threadidx-x warning
# with an on/off flag in the same test (GPUMD's Dump_Shock_NEMD), in either
# order, and with the flag alone
sed 's/  if ((step + 1) % num_interval_ != 0) return;/  if (!dump_ || (step + 1) % num_interval_ != 0) return;/; s/  int n, w, num_interval_;/  int n, w, num_interval_; bool dump_;/' "$dir/dump.cu" >"$dir/dumpflag.cu"
expect dumpflag.cu 4 gmem-row-index-from-threadidx-x note
{ cat "$dir/qtb_kernels.cu"; cat <<'CU'; } >"$dir/dumpand.cu"
void dump_rows(double *hist, int n, int w, int step, int every, bool dump) {
  if (dump && step % every == 0)
    fill_rows<<<(n + 127) / 128, 128>>>(hist, n, w);
}
CU
expect dumpand.cu 4 gmem-row-index-from-threadidx-x note
sed 's/  if (!dump_ || (step + 1) % num_interval_ != 0) return;/  if (!dump_) return;/' "$dir/dumpflag.cu" >"$dir/flagonly.cu"
expect flagonly.cu 4 gmem-row-index-from-threadidx-x warning
{ cat "$dir/qtb_kernels.cu"; cat <<'CU'; } >"$dir/loopmod.cu"
void run(double *hist, double *v, int n, int w, int steps) {
  for (int iter = 0; iter < steps; iter++) {
    kick<<<(n + 127) / 128, 128>>>(v, n);
    if (iter % 100 == 0)
      fill_rows<<<(n + 127) / 128, 128>>>(hist, n, w);
  }
}
CU
expect loopmod.cu 4 gmem-row-index-from-threadidx-x note
sed 's/iter % 100 == 0/iter % 2 == 0/' "$dir/loopmod.cu" >"$dir/pingpong.cu"
expect pingpong.cu 4 gmem-row-index-from-threadidx-x warning
# A sync that only debug builds compile (`#ifndef NDEBUG` around the macro
# that makes it, or around the call) is a note; the same sync outside such a
# branch (the `#ifdef NDEBUG` branch is what release builds compile) stays a
# warning.
cat >"$dir/debugsync.cu" <<'CU'
#ifndef NDEBUG
#define POST_LAUNCH(s) cudaStreamSynchronize(s)
#else
#define POST_LAUNCH(s) cudaPeekAtLastError()
#endif
__global__ void k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void steps(float *x, int n, int reps, cudaStream_t s) {
  for (int t = 0; t < reps; t++) {
    k<<<(n + 255) / 256, 256, 0, s>>>(x, n);
    POST_LAUNCH(s);
  }
  for (int t = 0; t < reps; t++) {
    k<<<(n + 255) / 256, 256, 0, s>>>(x, n);
#if defined(NDEBUG)
#else
    cudaDeviceSynchronize();
#endif
  }
  for (int t = 0; t < reps; t++) {
    k<<<(n + 255) / 256, 256, 0, s>>>(x, n);
#if defined(NDEBUG) || FORCE_SYNC
#else
    cudaDeviceSynchronize();
#endif
  }
}
CU
expect debugsync.cu 10 host-sync-in-loop note
expect debugsync.cu 16 host-sync-in-loop note
expect debugsync.cu 23 host-sync-in-loop warning
# A sync in the branch a failed status takes runs only after a failure: not
# reported; the per-launch sync beside it stays a warning.
cat >"$dir/errpath.cu" <<'CU'
#include <stdlib.h>
#define CHECK_LAUNCH() { cudaError_t e = cudaGetLastError(); if (e != cudaSuccess) { cudaDeviceSynchronize(); abort(); } }
__global__ void k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= 0.5f; }
void steps(float *x, int n, int reps) {
  for (int t = 0; t < reps; t++) {
    k<<<(n + 255) / 256, 256>>>(x, n);
    CHECK_LAUNCH();
    cudaError_t e = cudaPeekAtLastError();
    if (cudaSuccess == e) {
      continue;
    } else {
      cudaDeviceSynchronize();
      exit(1);
    }
  }
  for (int t = 0; t < reps; t++) {
    k<<<(n + 255) / 256, 256>>>(x, n);
    cudaDeviceSynchronize();
  }
}
CU
expect errpath.cu 7 host-sync-in-loop ""
expect errpath.cu 12 host-sync-in-loop ""
expect errpath.cu 18 host-sync-in-loop warning
# A pageable copy per configuration, with the launches in a nested loop, is a
# note; one per launch stays a warning.
cat >"$dir/copies.cu" <<'CU'
#include <stdlib.h>
__global__ void k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.f; }
void per_size(float *d, const int *ns, int count, int reps) {
  float *h = (float *)malloc(1 << 26);
  for (int s = 0; s < count; s++) {
    cudaMemcpy(d, h, ns[s] * sizeof(float), cudaMemcpyHostToDevice);
    for (int r = 0; r < reps; r++)
      k<<<(ns[s] + 255) / 256, 256>>>(d, ns[s]);
  }
  for (int r = 0; r < reps; r++) {
    cudaMemcpy(d, h, ns[0] * sizeof(float), cudaMemcpyHostToDevice);
    k<<<(ns[0] + 255) / 256, 256>>>(d, ns[0]);
  }
  free(h);
}
CU
expect copies.cu 6 host-pageable-memcpy note
expect copies.cu 11 host-pageable-memcpy warning
# A kernel that the program in the file (it defines main and launches
# another kernel) never launches is cold: its findings are notes; the same
# kernel launched keeps its warning.
cat >"$dir/unlaunched.cu" <<'CU'
__global__ void used(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.f; }
__global__ void transpose_naive(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}
int main() {
  float *x = nullptr;
  int n = 1 << 20;
  cudaMalloc(&x, n * sizeof(float));
  used<<<(n + 255) / 256, 256>>>(x, n);
  cudaDeviceSynchronize();
  return 0;
}
CU
expect unlaunched.cu 4 gmem-row-index-from-threadidx-x note
sed 's/  cudaDeviceSynchronize();/  transpose_naive<<<dim3(32, 32), dim3(32, 8)>>>(x, x, 1024, 1024);\n  cudaDeviceSynchronize();/' "$dir/unlaunched.cu" >"$dir/launched.cu"
expect launched.cu 4 gmem-row-index-from-threadidx-x warning
# A thread-per-row access that runs only when data loaded in the loop pass
# a test (a per-box hit list, a voxel counter), beside a read of the same
# loop that runs on every iteration, carries a data-dependent share of the
# traffic: a note that says so.  The unconditional read keeps its warning,
# and so does a filtered row store beside a broadcast read (the read moves
# one sector a request, the store 32).
cat >"$dir/filter.cu" <<'CU'
__global__ void hits(const int *mask, int *list, int *cnt_out, int boxes, int pts, int cap) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= boxes) return;
  int cnt = 0;
  for (int k = 0; k < pts; k++) {
    int m = mask[b * pts + k];
    if (m != -1 && cnt < cap) {
      list[b * cap + cnt] = k;
      cnt++;
    }
  }
  cnt_out[b] = cnt;
}
__global__ void only(const int *mask, float *vals, int boxes, int pts) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= boxes) return;
  for (int k = 0; k < pts; k++)
    if (mask[k] > b) vals[b * pts + k] = 1.0f;
}
void run_hits(const int *m, int *l, int *c, float *v, int B, int P, int cap) {
  hits<<<(B + 255) / 256, 256>>>(m, l, c, B, P, cap);
  only<<<(B + 255) / 256, 256>>>(m, v, B, P);
}
CU
expect filter.cu 6 gmem-row-index-from-threadidx-x warning
expect filter.cu 8 gmem-row-index-from-threadidx-x note
expect filter.cu 18 gmem-row-index-from-threadidx-x warning
if ! "$kcheck" --no-config --no-db -q "$dir/filter.cu" 2>/dev/null | grep -q "pass the test at line 7"; then
	echo "FAIL: filter.cu: the note does not name the filtering test"
	fail=1
fi

# A __device__ helper in a header that one file calls from a kernel and
# another file includes without calling: the second file analyses it on
# its own.  Run together, the report names the calling kernel once (the
# helper's own copy of the finding is dropped, with -j 1 and -j 2); run on
# the second file alone, the helper's own finding stays.
mkdir -p "$dir/hx"
cat >"$dir/hx/h.cuh" <<'CU'
__device__ inline float inv3(const float *d, int i) {
  float s = 0.f;
  for (int k = 0; k < 3; k++) s += 1.0 / d[3 * i + k];
  return s;
}
CU
cat >"$dir/hx/a.cu" <<'CU'
#include "h.cuh"
__global__ void use(const float *d, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = inv3(d, i);
}
void run(const float *d, float *o, int n) { use<<<(n + 255) / 256, 256>>>(d, o, n); }
CU
cat >"$dir/hx/b.cu" <<'CU'
#include "h.cuh"
__global__ void other(float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = 2.f * o[i];
}
void run2(float *o, int n) { other<<<(n + 255) / 256, 256>>>(o, n); }
CU
for j in 1 2; do
	got=$("$kcheck" --no-config --no-db -j $j --format json "$dir/hx/a.cu" "$dir/hx/b.cu" 2>/dev/null |
		python3 -c 'import json,sys; print(" ".join(sorted(f["kernel"] + ":" + ",".join(f.get("also_kernels") or []) for f in json.load(sys.stdin)["findings"] if f["rule"] == "math-fp64-promotion")))')
	if [ "$got" != "use:" ]; then
		echo "FAIL: hx -j $j: expected the finding once, in use, got '$got'"
		fail=1
	fi
done
got=$("$kcheck" --no-config --no-db --format json "$dir/hx/b.cu" 2>/dev/null |
	python3 -c 'import json,sys; print(" ".join(f["kernel"] for f in json.load(sys.stdin)["findings"] if f["rule"] == "math-fp64-promotion"))')
if [ "$got" != "inv3" ]; then
	echo "FAIL: hx/b.cu alone: expected the helper's own finding, got '$got'"
	fail=1
fi

# Across the files of one run: a kernel that none of them launches, while
# they launch another kernel defined in the same file, is cold: its
# performance findings are notes; a correctness finding keeps its severity;
# a launch from a second file makes it warm again.
# A column store that a bound on the thread index leaves to 16 threads of
# a 256-thread block, beside loads and stores that every thread makes: a
# note.  The same store by half the block (128 threads), or by every
# thread, keeps its warning.
cat >"$dir/digits.cu" <<'CU'
__global__ void digits(const unsigned *keys, unsigned *out, unsigned *histo, int n) {
  __shared__ unsigned h[16];
  int tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid;
  if (tid < 16) h[tid] = 0;
  __syncthreads();
  unsigned k = gid < n ? keys[gid] : 0;
  atomicAdd(&h[k & 15], 1u);
  __syncthreads();
  if (gid < n) out[gid] = k;
  if (tid < 16) histo[gridDim.x * tid + blockIdx.x] = h[tid];
}
__global__ void digits_half(const unsigned *keys, unsigned *out, unsigned *histo, int n) {
  int tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid;
  unsigned k = gid < n ? keys[gid] : 0;
  if (gid < n) out[gid] = k;
  if (tid < 128) histo[gridDim.x * tid + blockIdx.x] = k;
}
__global__ void digits_all(const unsigned *keys, unsigned *out, unsigned *histo, int n) {
  int tid = threadIdx.x, gid = blockIdx.x * blockDim.x + tid;
  unsigned k = gid < n ? keys[gid] : 0;
  if (gid < n) out[gid] = k;
  histo[gridDim.x * tid + blockIdx.x] = k;
}
void run_digits(const unsigned *k, unsigned *o, unsigned *h, int n) {
  digits<<<(n + 255) / 256, 256>>>(k, o, h, n);
  digits_half<<<(n + 255) / 256, 256>>>(k, o, h, n);
  digits_all<<<(n + 255) / 256, 256>>>(k, o, h, n);
}
CU
expect digits.cu 10 gmem-uncoalesced-store note
expect digits.cu 16 gmem-uncoalesced-store warning
expect digits.cu 22 gmem-uncoalesced-store warning
"$kcheck" --no-config --no-db -q --format concise "$dir/digits.cu" 2>/dev/null | grep -E "digits.cu:10:" |
	grep -q "touches 16 sectors per warp request, ideal 2" ||
	{ echo "FAIL: digits.cu:10: the 16 threads' request should count 16 sectors over the ideal 2"; fail=1; }

# A column read of an unpadded shared tile once per thread by 20 threads,
# after loops in which every thread updates the tile: a note.  The same
# read inside the loop keeps its warning.
cat >"$dir/hists.cu" <<'CU'
__global__ void hists(const float *x, unsigned *out, int n) {
  __shared__ unsigned h[20][128];
  int tid = threadIdx.x;
  for (int b = 0; b < 20; b++) h[b][tid % 128] = 0;
  __syncthreads();
  for (int i = 0; i < n; i += 256)
    for (int j = 0; j < n; j++) {
      unsigned b = (unsigned)(x[i + tid] * x[j]) % 20;
      h[b][tid % 128] += 1;
    }
  __syncthreads();
  if (tid < 20) out[blockIdx.x * 20 + tid] = h[tid][0];
}
__global__ void hists_in_loop(const float *x, unsigned *out, int n) {
  __shared__ unsigned h[32][128];
  int tid = threadIdx.x;
  unsigned s = 0;
  for (int i = 0; i < n; i++) {
    h[tid % 32][i % 128] = (unsigned)x[i];
    __syncthreads();
    s += h[tid % 32][0];
    __syncthreads();
  }
  out[blockIdx.x * 256 + tid] = s;
}
void run_hists(const float *x, unsigned *o, int n) {
  hists<<<64, 256>>>(x, o, n);
  hists_in_loop<<<64, 256>>>(x, o, n);
}
CU
expect hists.cu 12 smem-tile-column-read note
expect hists.cu 21 smem-tile-column-read warning

# Managed memory without a prefetch: one page (a result scalar) is a note,
# a buffer of megabytes a warning (scripts/severity_bench.sh: about 35 us a
# migration for a page, 1.5-4.4x for 64 KB-64 MB).
cat >"$dir/managed.cu" <<'CU'
__global__ void acc(const float *x, double *out, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { atomicAdd(out, (double)x[i]); y[i] = 2.0f * x[i]; }
}
double run_acc(const float *x) {
  const int n = 1 << 20;
  double *s;
  float *y;
  cudaMallocManaged(&s, sizeof(double));
  cudaMallocManaged(&y, n * sizeof(float));
  *s = 0;
  acc<<<n / 256, 256>>>(x, s, y, n);
  cudaDeviceSynchronize();
  return *s + y[0];
}
CU
expect managed.cu 9 host-managed-no-prefetch note
expect managed.cu 10 host-managed-no-prefetch warning

# A same-address atomicMax/atomicMin that every thread runs is a warning;
# one on a path the data decides (an overflow index recorded when a bin is
# full, a particle outside the grid) has no estimate: a note.
cat >"$dir/flags.cu" <<'CU'
__global__ void bin(const float *x, int *count, int *slot, int *lo, int *overflow, int cap, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = (int)x[i];
  atomicMin(lo, b);
  int s = atomicAdd(&count[b], 1);
  if (s < cap)
    slot[b * cap + s] = i;
  else
    atomicMax(overflow, s + 1);
}
void run_bin(const float *x, int *c, int *s, int *lo, int *o, int n) { bin<<<(n + 255) / 256, 256>>>(x, c, s, lo, o, 8, n); }
CU
expect flags.cu 5 atomic-scalar-reduction warning
expect flags.cu 10 atomic-scalar-reduction note

mkdir -p "$dir/reach" "$dir/reach2"
cat >"$dir/reach/kern.cuh" <<'CU'
__global__ void fwd(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.f * in[i];
}
__global__ void __launch_bounds__(256) bwd(float *gin, const float *gout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) gin[i] = 2.f * gout[32 * i];
}
__global__ void bwd_sum(float *s, const float *g, int n) {
  __shared__ float t[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { t[threadIdx.x] = g[i]; __syncthreads(); s[i] = t[(threadIdx.x + 1) % 256]; }
}
CU
cat >"$dir/reach/plugin.cu" <<'CU'
#include "kern.cuh"
void run_fwd(float *o, const float *i, int n) { fwd<<<(n + 255) / 256, 256>>>(o, i, n); }
CU
cp "$dir/reach/kern.cuh" "$dir/reach/plugin.cu" "$dir/reach2/"
cat >"$dir/reach2/train.cu" <<'CU'
#include "kern.cuh"
void run_bwd(float *g, const float *go, int n) { bwd<<<(n + 255) / 256, 256>>>(g, go, n); }
CU
# A thread-per-row store through a running counter (`count++` after it, or
# `k++` in the index) fills the lane's row once however long the loop
# around it: its share of the traffic is unknown, a note; a store of the
# same row at every trip stays a warning.
cat >"$dir/append.cu" <<'CU'
__global__ void near_points(const float *x, const float *y, long *idx, float *dist, int m, int n, int k, float r2) {
  for (int j = threadIdx.x; j < m; j += blockDim.x) {
    int count = 0;
    for (int p = 0; p < n; p++) {
      float d2 = 0;
      for (int d = 0; d < 3; d++)
        d2 += (x[p * 3 + d] - y[j * 3 + d]) * (x[p * 3 + d] - y[j * 3 + d]);
      if (d2 <= r2) {
        idx[j * k + count] = p;
        dist[j * k + count] = d2;
        count++;
      }
      if (count >= k)
        break;
    }
  }
}
__global__ void fill_rows(const float *y, float *dist, int m, int k) {
  for (int j = threadIdx.x; j < m; j += blockDim.x)
    for (int c = 0; c < k; c++)
      dist[j * k + c] = y[j] * c;
}
CU
expect append.cu 9 gmem-row-index-from-threadidx-x note
expect append.cu 10 gmem-row-index-from-threadidx-x note
expect append.cu 21 gmem-row-index-from-threadidx-x warning

# An interleaved tree after a loop in which each thread sums its share of a
# column is an epilogue: a note; the same tree over one element a thread
# stays a warning.
# the same interleaved tree closes both kernels
tree='  __syncthreads();
  for (int k = 1; k < blockDim.x; k *= 2) {
    if (threadIdx.x % (2 * k) == 0)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}'
cat >"$dir/tree.cu" <<CU
__global__ void col_dot(const float *a, const float *b, int ld, int n, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s[threadIdx.x] += a[blockIdx.x * ld + i] * b[blockIdx.x * ld + i];
$tree
__global__ void block_sum(const float *a, int n, float *out) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? a[i] : 0.0f;
$tree
void run_tree(const float *a, const float *b, int ld, int n, float *o) {
  col_dot<<<64, 256>>>(a, b, ld, n, o);
  block_sum<<<(n + 255) / 256, 256>>>(a, n, o);
}
CU
expect tree.cu 7 div-interleaved-reduction note
expect tree.cu 20 div-interleaved-reduction warning

# Blocks of batched matrices walked with the row on threadIdx.z and the
# block index on x: with no launch in view the x extent is a guess against
# the code's own layout, a note; launched with a wide x it stays a warning,
# and so does a naive transpose (it reads along x) with no launch.
cat >"$dir/zrow.cu" <<'CU'
__global__ void scale_blocks(int m, int n, int nblocks, double c, double *A) {
  for (int b = blockIdx.x * blockDim.x + threadIdx.x; b < nblocks; b += blockDim.x * gridDim.x)
    for (int col = threadIdx.y; col < n; col += blockDim.y)
      for (int row = threadIdx.z; row < m; row += blockDim.z)
        A[b * m * n + col * m + row] *= c;
}
CU
{ cat "$dir/zrow.cu"; echo 'void run(int m, int n, int nb, double c, double *A) { scale_blocks<<<64, dim3(32, 2, 2)>>>(m, n, nb, c, A); }'; } >"$dir/zrow2.cu"
cat >"$dir/zrow3.cu" <<'CU'
__global__ void transpose_naive(float *out, const float *in, int width, int height) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int i = 0; i < 32; i += 8)
    out[y + i + height * x] = in[x + width * (y + i)];
}
CU
expect zrow.cu 5 gmem-row-index-from-threadidx-x note
expect zrow2.cu 5 gmem-row-index-from-threadidx-x warning
expect zrow3.cu 5 gmem-row-index-from-threadidx-x warning

# 2-byte elements one per lane: a kernel whose accesses are all 2-byte is a
# warning; a 2-byte type code read beside a 4-byte id and a 4-byte store
# (one access of three: 1.26x by Amdahl over the all-2-byte 2.6x, 1.14x
# measured on an H100) is a note.
cat >"$dir/codes.cu" <<'CU'
#include <cuda_bf16.h>
__global__ void axpy_bf16(const __nv_bfloat16 *x, const __nv_bfloat16 *y, __nv_bfloat16 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __hadd(x[i], y[i]);
}
__global__ void ridp(const unsigned *idp, const unsigned short *code, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = idp[i] + (code[i] & 3u);
}
void run_codes(const __nv_bfloat16 *x, const __nv_bfloat16 *y, __nv_bfloat16 *o, const unsigned *idp,
               const unsigned short *code, unsigned *r, int n) {
  axpy_bf16<<<(n + 255) / 256, 256>>>(x, y, o, n);
  ridp<<<(n + 255) / 256, 256>>>(idp, code, r, n);
}
CU
expect codes.cu 2 gmem-unpacked-2byte warning
expect codes.cu 6 gmem-unpacked-2byte note

# Shared memory caps a tensor-core pipeline at two blocks an SM by design
# (cp.async stages fed through a helper's inline assembly): a note with the
# impact unknown.  The same footprint in a plain histogram stays a warning.
cat >"$dir/stages.cu" <<'CU'
__device__ inline void copy16(void *smem, const void *gmem) {
  unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ inline void wait_copies() { asm volatile("cp.async.wait_all;\n" ::); }
__global__ void staged(const int4 *a, int4 *out, int tiles) {
  __shared__ int4 stage[3][1024];
  for (int t = 0; t < tiles; t++) {
    copy16(&stage[t % 3][threadIdx.x], &a[(size_t)t * 1024 + threadIdx.x]);
    wait_copies();
    __syncthreads();
    out[(size_t)blockIdx.x * 1024 + threadIdx.x] = stage[t % 3][(threadIdx.x + 1) % 1024];
    __syncthreads();
  }
}
void run_staged(const int4 *a, int4 *o, int tiles) { staged<<<1024, 128>>>(a, o, tiles); }
__global__ void bins(unsigned *hist, const unsigned *keys, int n) {
  __shared__ unsigned b[12288];
  for (int i = threadIdx.x; i < 12288; i += blockDim.x) b[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&b[keys[i] % 12288], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 12288; i += blockDim.x) atomicAdd(&hist[i], b[i]);
}
void run_bins(unsigned *h, const unsigned *k, int n) { bins<<<1024, 128>>>(h, k, n); }
CU
expect stages.cu 6 smem-occupancy-limiter note
expect stages.cu 17 smem-occupancy-limiter warning

reach_sev() { # dir line rule
	"$kcheck" --no-config --no-db -q --format concise "$1" 2>/dev/null |
		grep -E "kern.cuh:$2:[0-9]+: [a-z]+: .*\[$3\]" | sed -E 's/^[^:]*:[0-9]+:[0-9]+: ([a-z]+):.*/\1/' | head -1
}
got=$(reach_sev "$dir/reach" 7 gmem-uncoalesced-access)
[ "$got" = note ] || { echo "FAIL: unlaunched bwd: expected note, got '${got:-nothing}'"; fail=1; }
"$kcheck" --no-config --no-db -q --format concise "$dir/reach" 2>/dev/null | grep -q "cold: none of the analysed files launches bwd; they launch fwd" ||
	{ echo "FAIL: unlaunched bwd: the message does not say why"; fail=1; }
got=$(reach_sev "$dir/reach" 12 sync-barrier-in-divergent-branch)
[ "$got" = error ] || { echo "FAIL: unlaunched bwd_sum: expected the race to stay an error, got '${got:-nothing}'"; fail=1; }
got=$(reach_sev "$dir/reach2" 7 gmem-uncoalesced-access)
[ "$got" = warning ] || { echo "FAIL: bwd launched by train.cu: expected warning, got '${got:-nothing}'"; fail=1; }
got=$(reach_sev "$dir/reach/kern.cuh" 7 gmem-uncoalesced-access)
[ "$got" = warning ] || { echo "FAIL: kern.cuh alone (no launch in view): expected warning, got '${got:-nothing}'"; fail=1; }
# A file with clang errors may lack host code: all its kernels count as
# launched (and its job must not fail).
mkdir -p "$dir/reach3"
cp "$dir/reach/kern.cuh" "$dir/reach3/"
cat >"$dir/reach3/plugin.cu" <<'CU'
#include "kern.cuh"
void run_fwd(float *o, const float *i, int n) { fwd<<<(n + 255) / 256, 256>>>(o, i, n); }
void broken(void) { undeclared_call(); }
CU
got=$(reach_sev "$dir/reach3" 7 gmem-uncoalesced-access)
[ "$got" = warning ] || { echo "FAIL: bwd beside a file with clang errors: expected warning, got '${got:-nothing}'"; fail=1; }
"$kcheck" --no-config --no-db -q --format json "$dir/reach3" 2>/dev/null | grep -q '"status": "failed"' &&
	{ echo "FAIL: the file with clang errors failed instead of being partial"; fail=1; }
# An error outside every function (a header that is not installed, a type
# it would declare) loses no launch: bwd is still cold (nnabla-ext-cuda
# includes cuTENSOR's header unconditionally).
mkdir -p "$dir/reach4"
cp "$dir/reach/kern.cuh" "$dir/reach4/"
cat >"$dir/reach4/plugin.cu" <<'CU'
#include "kern.cuh"
#include <not_installed_tensor_lib.h>
struct Handles { tensorHandle_t h; };
void run_fwd(float *o, const float *i, int n) { fwd<<<(n + 255) / 256, 256>>>(o, i, n); }
CU
got=$(reach_sev "$dir/reach4" 7 gmem-uncoalesced-access)
[ "$got" = note ] || { echo "FAIL: bwd beside a missing header outside functions: expected note, got '${got:-nothing}'"; fail=1; }
# A launch from a method defined inside its class is a launch: bwd is not
# cold, and its block is the launch's.
mkdir -p "$dir/reach5"
cp "$dir/reach/kern.cuh" "$dir/reach/plugin.cu" "$dir/reach5/"
cat >"$dir/reach5/op.cu" <<'CU'
#include "kern.cuh"
struct BwdOp {
  float *g; const float *go; int n;
  void backward() { bwd<<<(n + 255) / 256, 256>>>(g, go, n); }
};
CU
got=$(reach_sev "$dir/reach5" 7 gmem-uncoalesced-access)
[ "$got" = warning ] || { echo "FAIL: bwd launched from an in-class method: expected warning, got '${got:-nothing}'"; fail=1; }

exit $fail
