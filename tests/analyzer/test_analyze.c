/* tests/analyzer/test_analyze.c: the analyzer end to end on small sources
 * written to a temporary folder: facts, both header modes, HIP, and bad
 * input (exact error text). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analyzer/analyzer.h"
#include "analyzer/frontend.h"
#include "analyzer/ptxas.h"
#include "util/proc.h"
#include "util/error.h"
#include "util/fs.h"
#include "tests/analyzer/src_util.h"

static sqlite3 *analyze(const char *path, ka_analyze_opts *o, int want_rc)
{
	sqlite3 *db;
	assert_int_equal(ka_facts_open(&db), 0);
	assert_int_equal(ka_analyze_file(o, path, db), want_rc);
	return db;
}

static const char *strided =
	"__global__ void k(const float *in, float *out, int n) {\n"
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"  if (i < n) out[i] = in[2 * i];\n"
	"}\n"
	"void run(const float *a, float *b, int n) { k<<<(n + 127) / 128, 128>>>(a, b, n); }\n";

static void strided_read_real_and_shim(void **state)
{
	const char *p = write_src("strided.cu", strided);
	for (int shim = 0; shim <= 1; shim++) {
		ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
		o.force_shim = shim;
		sqlite3 *db = analyze(p, &o, 0);
		assert_int_equal(q(db, "SELECT sectors_per_request FROM access WHERE base = 'in'"), 8);
		assert_int_equal(q(db, "SELECT ideal_sectors FROM access WHERE base = 'in'"), 4);
		assert_int_equal(q(db, "SELECT coef_tx FROM access WHERE base = 'in'"), 2);
		assert_int_equal(q(db, "SELECT block_x FROM kernel WHERE name = 'k'"), 128);
		assert_int_equal(q(db, "SELECT block_source = 'launch' FROM kernel"), 1);
		assert_int_equal(q(db, "SELECT grid_is_ceil_div FROM launch"), 1);
		assert_int_equal(q(db, "SELECT guarded FROM access WHERE base = 'out'"), 1);
		sqlite3_close(db);
	}
	(void)state;
}

static void device_function_inlined(void **state)
{
	const char *p = write_src(
		"inline.cu",
		"__device__ float at(const float *p, int r, int w) { return p[r * w + threadIdx.x]; }\n"
		"__global__ void k(const float *m, float *o, int w) {\n"
		"  o[threadIdx.x] = at(m, blockIdx.x, w);\n"
		"}\n");
	sqlite3 *db = analyze(p, NULL, 0);
	assert_int_equal(
		q(db, "SELECT count(*) FROM access WHERE func = 'at' AND kernel = 'k' AND base = 'm'"), 1);
	assert_int_equal(q(db, "SELECT coef_tx FROM access WHERE func = 'at'"), 1);
	assert_int_equal(q(db, "SELECT count(*) FROM kernel WHERE kind = 'device' AND name = 'at'"), 1);
	sqlite3_close(db);
	(void)state;
}

static void barrier_hazards(void **state)
{
	const char *p = write_src("sync.cu", "#define BS 256\n"
					     "__global__ void __launch_bounds__(BS) k(float *a, int n) {\n"
					     "  __shared__ float s[BS];\n"
					     "  int i = blockIdx.x * BS + threadIdx.x;\n"
					     "  if (i >= n) return;\n"
					     "  s[threadIdx.x] = a[i];\n"
					     "  if (threadIdx.x % 2) { __syncthreads(); }\n"
					     "  __syncthreads();\n"
					     "  a[i] = s[BS - 1 - threadIdx.x];\n"
					     "}\n");
	sqlite3 *db = analyze(p, NULL, 0);
	assert_int_equal(q(db, "SELECT launch_bounds_max FROM kernel"), 256);
	assert_int_equal(q(db, "SELECT in_divergent_branch FROM barrier WHERE line = 7"), 1);
	assert_int_equal(q(db, "SELECT after_divergent_return FROM barrier WHERE line = 8"), 1);
	assert_int_equal(q(db, "SELECT before_barrier FROM early_return"), 1);
	assert_int_equal(q(db, "SELECT lane_parity FROM branch WHERE line = 7"), 1);
	assert_int_equal(q(db, "SELECT static_smem_bytes FROM kernel"), 1024);
	sqlite3_close(db);
	(void)state;
}

/* A pair loop split with / and % of run-time sizes, as pytorch3d's
 * point-to-face kernels write it (docs/fresh7-2026-12-05.md): the step is
 * held in a variable, and the loop is a grid-stride loop all the same. */
static void grid_stride_step_in_variable(void **state)
{
	const char *p = write_src(
		"gstride.cu",
		"__global__ void k(const float *g, const float *tris, float *d, int P, int T) {\n"
		"  const int nt = gridDim.x * blockDim.x;\n"
		"  const int tid = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"  for (int i = tid; i < P * T; i += nt) {\n"
		"    const int t = i / P;\n"
		"    d[i] = g[i] * tris[t * 3];\n"
		"  }\n"
		"  for (int j = tid; j < P; j += blockDim.x * gridDim.x) d[j] *= 2.f;\n"
		"  for (int j = tid; j < P; j += 32) d[j] += 1.f;\n"
		"}\n"
		"void run(const float *g, const float *t, float *d, int P, int T) {\n"
		"  k<<<1024, 64>>>(g, t, d, P, T);\n"
		"}\n");
	sqlite3 *db = analyze(p, NULL, 0);
	assert_int_equal(q(db, "SELECT is_grid_stride FROM loop WHERE line = 4"), 1);
	assert_int_equal(q(db, "SELECT is_grid_stride FROM loop WHERE line = 8"), 1);
	assert_int_equal(q(db, "SELECT is_grid_stride FROM loop WHERE line = 9"), 0);
	sqlite3_close(db);
	(void)state;
}

/* `p = i % P` by a run-time P spreads a gradient's atomics over P
 * addresses, one per lane (pytorch3d's grad_points + 3 * p): no sign of a
 * few hot bins, where `i % 16` has 16 and a loaded key modulo the bin count
 * (`x[i] % nb`, a histogram) has nb.  A lane test by a run-time modulus
 * (`tid % (2 * s) == 0`) is still lane parity. */
static void atomic_bins_runtime_modulus(void **state)
{
	const char *p = write_src("bins.cu",
				  "__global__ void k(const float *g, float *gp, unsigned *h, unsigned *hk,\n"
				  "                  const int *x, int P, int n, int s, int nb) {\n"
				  "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
				  "  if (i >= n) return;\n"
				  "  const int p = i % P;\n"
				  "  atomicAdd(gp + 3 * p, g[i]);\n"
				  "  atomicAdd(&h[i % 16], 1u);\n"
				  "  atomicAdd(&hk[x[i] % nb], 1u);\n"
				  "  if (threadIdx.x % (2 * s) == 0) gp[i] = 0.f; else gp[i] = 1.f;\n"
				  "}\n");
	sqlite3 *db = analyze(p, NULL, 0);
	assert_int_equal(q(db, "SELECT address_small_range FROM atomic WHERE base = 'gp'"), 0);
	assert_int_equal(q(db, "SELECT address_small_range FROM atomic WHERE base = 'h'"), 1);
	assert_int_equal(q(db, "SELECT address_small_range FROM atomic WHERE base = 'hk'"), 1);
	assert_int_equal(q(db, "SELECT lane_parity FROM branch WHERE line = 9"), 1);
	sqlite3_close(db);
	(void)state;
}

/* An index split with / and % and put back in order (pytorch3d's fine
 * rasterizers: `x = i % bs` to the column, lanes K results apart) against a
 * transposed store of the same split: only the first is in order. */
static void split_in_order_vs_transposed(void **state)
{
	const char *p = write_src(
		"split.cu", "__global__ void k(float *zb, float *t, const float *in, int W, int bs, int K,\n"
			    "                  int n) {\n"
			    "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			    "  const int y = i / bs, x = i % bs;\n"
			    "  zb[(W - 1 - y) * W * K + x * K] = in[i];\n"
			    "  const int r = i / n, c = i % n;\n"
			    "  t[c * n + r] = in[i];\n"
			    "}\n");
	sqlite3 *db = analyze(p, NULL, 0);
	assert_int_equal(q(db, "SELECT split_in_order FROM access WHERE base = 'zb'"), 1);
	assert_int_equal(q(db, "SELECT split_in_order FROM access WHERE base = 't'"), 0);
	assert_int_equal(q(db, "SELECT count(*) FROM access WHERE base = 'in' AND split_in_order = 0"), 2);
	sqlite3_close(db);
	(void)state;
}

static void hip_launch(void **state)
{
	const char *p = write_src(
		"saxpy.hip",
		"#include <hip/hip_runtime.h>\n"
		"__global__ void saxpy(float a, const float *x, float *y, int n) {\n"
		"  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;\n"
		"  if (i < n) y[i] += a * x[i];\n"
		"}\n"
		"void run(float a, const float *x, float *y, int n) {\n"
		"  hipLaunchKernelGGL(saxpy, dim3((n + 255) / 256), dim3(256), 0, 0, a, x, y, n);\n"
		"}\n");
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	o.arch = "gfx942";
	sqlite3 *db = analyze(p, &o, 0);
	assert_int_equal(q(db, "SELECT lang = 'hip' FROM kernel"), 1);
	assert_int_equal(q(db, "SELECT warp_size FROM arch"), 64);
	assert_int_equal(q(db, "SELECT block_x FROM launch"), 256);
	assert_int_equal(q(db, "SELECT lanes FROM access WHERE base = 'x'"), 64);
	sqlite3_close(db);
	(void)state;
}

/* A .cu file that includes the HIP runtime only under a condition (a
 * portability header's `#if` branch) is CUDA; one that includes it
 * unconditionally, inside its include guard, is a HIP port. */
static void hip_include_under_condition(void **state)
{
	const char *body = "__global__ void scale(float *y, int n) {\n"
			   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			   "  if (i < n) y[i] *= 2.0f;\n"
			   "}\n";
	char src[1024];
	snprintf(src, sizeof src,
		 "#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)\n"
		 "#include <hip/hip_runtime.h>\n"
		 "#else\n"
		 "#include <cuda_runtime.h>\n"
		 "#endif\n%s",
		 body);
	sqlite3 *db = analyze(write_src("portable.cu", src), NULL, 0);
	assert_int_equal(q(db, "SELECT lang = 'cuda' FROM kernel"), 1);
	sqlite3_close(db);
	snprintf(src, sizeof src,
		 "#ifndef PORT_CU\n"
		 "#define PORT_CU\n"
		 "#include <hip/hip_runtime.h>\n%s"
		 "#endif\n",
		 body);
	db = analyze(write_src("port.cu", src), NULL, 0);
	assert_int_equal(q(db, "SELECT lang = 'hip' FROM kernel"), 1);
	sqlite3_close(db);
	/* unless the flags say CUDA: -x cuda, or HIP's NVIDIA platform */
	static const char *const as_cuda[][2] = {{"-x", "cuda"}, {"-D__HIP_PLATFORM_NVIDIA__", NULL}};
	for (int i = 0; i < 2; i++) {
		ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
		o.extra_args = as_cuda[i];
		o.n_extra_args = as_cuda[i][1] ? 2 : 1;
		db = analyze(write_src("port.cu", src), &o, 0);
		assert_int_equal(q(db, "SELECT lang = 'cuda' FROM kernel"), 1);
		sqlite3_close(db);
	}
	(void)state;
}

/* Launches written `k << < g, b >> > (...)`, which nvcc accepts: joined in
 * the text clang parses (same length, same lines), in the file and in a
 * header it includes; what only looks like them stays as written. */
static void spaced_chevrons(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"k << < g, b >> > (a);", "k <<<  g, b >>>  (a);"},
		{"k<< <g, b>>>(a);", "k<<< g, b>>>(a);"},
		{"k<<<g, b>> >(a);", "k<<<g, b>>> (a);"},
		{"k << <\tg, b >>\t> (a);", "k <<< \tg, b >>>\t (a);"},
		{"friend ostream &operator<< <T>(ostream &, const V<T> &);", NULL},
		{"A<A<A<int>> > v; x = y << z;", NULL},
		{"// k << < g, b >> > (a);\n", NULL},
		{"s = \"k << < g, b >> > (a)\";", NULL},
		{"int n = 1'000; char c = '<'; k << < n, c >> > ();",
		 "int n = 1'000; char c = '<'; k <<<  n, c >>>  ();"},
		{"k <<\n< g, b >> > (a);", NULL}, /* a line break between: left alone */
		{"x << <<y;", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char buf[128];
		size_t len = strlen(cases[i].in);
		memcpy(buf, cases[i].in, len + 1);
		int n = ka_chevron_join(buf, len);
		const char *want = cases[i].out ? cases[i].out : cases[i].in;
		if (strcmp(buf, want) != 0)
			fail_msg("case %zu: '%s' became '%s', want '%s'", i, cases[i].in, buf, want);
		assert_int_equal(n, cases[i].out ? 1 : 0);
		assert_int_equal(strlen(buf), len);
	}
	write_src("spaced_launch.cuh", "template <typename L> __global__ void each(int n, L f) {\n"
				       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
				       "  if (i < n) f(i);\n"
				       "}\n"
				       "template <typename L> void loop(int n, L f) {\n"
				       "  each << < (n + 255) / 256, 256 >> > (n, f);\n"
				       "}\n");
	const char *p = write_src("spaced_launch.cu", "#include \"spaced_launch.cuh\"\n"
						      "__global__ void scale(float *y, int n) {\n"
						      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
						      "  if (i < n) y[2 * i] *= 2.0f;\n"
						      "}\n"
						      "void run(float *y, int n) {\n"
						      "  scale << < (n + 127) / 128, 128 >> > (y, n);\n"
						      "  loop(n, [=] __device__(int i) { y[i] += 1.0f; });\n"
						      "}\n");
	sqlite3 *db = analyze(p, NULL, 0);
	assert_int_equal(q(db, "SELECT sum(parse_errors) FROM file"), 0);
	assert_int_equal(q(db, "SELECT block_x FROM launch WHERE kernel = 'scale'"), 128);
	assert_int_equal(q(db, "SELECT col FROM launch WHERE kernel = 'scale'"), 3);
	assert_int_equal(q(db, "SELECT count(*) FROM launch WHERE api = 'chevron'"), 2);
	assert_int_equal(q(db, "SELECT count(*) FROM launch WHERE kernel = 'each' AND block_x = 256"), 1);
	assert_int_equal(q(db, "SELECT block_source = 'launch' FROM kernel WHERE name = 'scale'"), 1);
	sqlite3_close(db);
	(void)state;
}

/* clang's errors are all collected: one past the fiftieth still marks its
 * function as not analyzed (with an error limit, clang stopped reporting
 * and went on parsing bodies with their broken parts dropped), while the
 * diag table lists the first fifty and the function's error. */
static void errors_past_the_limit(void **state)
{
	char src[4096];
	int n = snprintf(src, sizeof src, "void broken(void) {\n");
	for (int i = 0; i < 60; i++)
		n += snprintf(src + n, sizeof src - (size_t)n, "  undeclared_%d();\n", i);
	snprintf(src + n, sizeof src - (size_t)n,
		 "}\n"
		 "__global__ void early(float *a) { a[threadIdx.x] = 1.0f; }\n"
		 "__global__ void late(float *a) { a[threadIdx.x] = missing_value; }\n");
	sqlite3 *db = analyze(write_src("many_errors.cu", src), NULL, 0);
	assert_int_equal(q(db, "SELECT count(*) FROM kernel WHERE name = 'early'"), 1);
	assert_int_equal(q(db, "SELECT count(*) FROM kernel WHERE name = 'late'"), 0);
	assert_int_equal(
		q(db, "SELECT count(*) FROM diag WHERE message LIKE '%function ''late'' not analyzed%'"), 1);
	assert_int_equal(q(db, "SELECT sum(parse_errors) FROM file"), 61);
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE severity = 'error'"), 51);
	assert_int_equal(q(db, "SELECT errors_unlisted FROM file WHERE is_main = 1"), 10);
	/* listed in clang's order: the first row is the first error */
	assert_int_equal(q(db, "SELECT line FROM diag WHERE severity = 'error' ORDER BY rowid LIMIT 1"), 2);
	sqlite3_close(db);
	(void)state;
}

/* Lambdas: a device lambda's body runs where it is called, with the
 * captures' values there (through other lambdas, and through a device
 * function's parameter it was passed to); a host lambda is walked where it
 * is written, so its launches count. */
static void lambdas(void **state)
{
	const char *p = write_src(
		"lambdas.cu",
		"template <typename F> __device__ void each(int n, F f) {\n"
		"  for (int i = threadIdx.x; i < n; i += blockDim.x) f(i);\n"
		"}\n"
		"__global__ void tiles(float *out, const float *in, int nx) {\n"
		"  auto t = [&]() -> dim3 { return threadIdx; };\n"
		"  auto gid = [&]() { return (blockIdx.y * 16 + t().y) * nx + blockIdx.x * 16 + t().x; };\n"
		"  auto id = gid();\n"
		"  out[id] = in[id];\n"
		"}\n"
		"__global__ void scale(float *y, const float *x, int n) {\n"
		"  each(n, [&](int i) { y[i] = 2.0f * x[i]; });\n"
		"}\n"
		"void run(float *o, const float *i, int nx) {\n"
		"  auto go = [&]() { tiles<<<dim3(nx / 16, nx / 16), dim3(16, 16)>>>(o, i, nx); };\n"
		"  go();\n"
		"}\n");
	sqlite3 *db = analyze(p, NULL, 0);
	assert_int_equal(q(db,
			   "SELECT count(*) FROM access WHERE kernel = 'tiles' AND thread_dependent = 1 "
			   "AND affine = '(blockIdx.y*16 + threadIdx.y)*nx + blockIdx.x*16 + threadIdx.x'"),
			 2);
	assert_int_equal(
		q(db, "SELECT count(*) FROM access WHERE kernel = 'scale' AND line = 11 AND coef_tx = 1"), 2);
	assert_int_equal(q(db, "SELECT block_x * block_y FROM launch WHERE kernel = 'tiles'"), 256);
	sqlite3_close(db);
	(void)state;
}

static void bad_inputs(void **state)
{
	char missing[600];
	snprintf(missing, sizeof missing, "%s/none.cu", src_dir);
	sqlite3 *db = analyze(missing, NULL, KA_EIO);
	assert_non_null(strstr(ka_error_last(), "cannot read"));
	assert_non_null(strstr(ka_error_last(), "No such file"));
	sqlite3_close(db);

	const char bin[] = "\x7f"
			   "ELF\0\0\0binary";
	char path[600];
	snprintf(path, sizeof path, "%s/bin.cu", src_dir);
	assert_int_equal(ka_fs_write_atomic(path, bin, sizeof bin), 0);
	db = analyze(path, NULL, KA_EIO);
	assert_non_null(strstr(ka_error_last(), "not a source file"));
	sqlite3_close(db);

	const char *p = write_src("broken.cu", "__global__ void bad(float *a) { a[threadIdx.x] = 1 +; }\n"
					       "__global__ void good(float *a) { a[threadIdx.x] = 2.0f; }\n");
	db = analyze(p, NULL, KA_OK); /* partial: 'good' parsed, so it is analyzed */
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE severity = 'error' AND line = 1 "
			       "AND message LIKE 'expected expression (function ''bad'' not analyzed)'"),
			 1);
	assert_int_equal(q(db, "SELECT count(*) FROM kernel WHERE name = 'good'"), 1);
	assert_int_equal(q(db, "SELECT count(*) FROM kernel WHERE name = 'bad'"), 0);
	assert_int_equal(q(db, "SELECT count(*) FROM access WHERE kernel_id = "
			       "(SELECT id FROM kernel WHERE name = 'good')"),
			 1);
	sqlite3_close(db);

	p = write_src("allbad.cu", /* nothing parsed: the file fails */
		      "__global__ void bad(float *a) { a[threadIdx.x] = 1 +; }\n"
		      "__device__ float worse(float x) { return x * undeclared_thing; }\n");
	db = analyze(p, NULL, KA_EPARSE);
	assert_non_null(strstr(ka_error_last(), "allbad.cu:"));
	assert_int_equal(q(db, "SELECT count(*) FROM diag WHERE severity = 'error'"), 2);
	sqlite3_close(db);

	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	o.arch = "sm_99";
	db = analyze(write_src("ok.cu", strided), &o, KA_EINPUT);
	assert_string_equal(ka_error_last(), "unknown --arch 'sm_99' (known: sm_70, sm_75, sm_80, "
					     "sm_86, sm_89, sm_90, sm_100, gfx90a, gfx942, gfx1100)");
	sqlite3_close(db);
	(void)state;
}

static void ptxas_output_joins_by_mangled_name(void **state)
{
	const char *p = write_src("regs.cu", strided);
	sqlite3 *db = analyze(p, NULL, 0);
	const char *out = "ptxas info    : Compiling entry function '_Z1kPKfPfi' for 'sm_90'\n"
			  "ptxas info    : Function properties for _Z1kPKfPfi\n"
			  "    16 bytes stack frame, 12 bytes spill stores, 12 bytes spill loads\n"
			  "ptxas info    : Used 40 registers, 2048 bytes smem, 380 bytes cmem[0]\n";
	assert_int_equal(ka_ptxas_parse(out, db), 0);
	assert_int_equal(q(db, "SELECT regs FROM kernel WHERE name = 'k'"), 40);
	assert_int_equal(q(db, "SELECT spills_bytes FROM kernel WHERE name = 'k'"), 12);
	assert_int_equal(q(db, "SELECT ptxas_smem FROM kernel WHERE name = 'k'"), 2048);
	assert_int_equal(q(db, "SELECT stack_bytes FROM kernel WHERE name = 'k'"), 16);
	sqlite3_close(db);
	if (!ka_proc_find_nvcc()) {
		fprintf(stderr, "SKIP: --ptxas with nvcc: no CUDA toolkit at /usr/local/cuda\n");
		return;
	}
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	o.ptxas = 1;
	db = analyze(p, &o, 0);
	assert_true(q(db, "SELECT regs FROM kernel WHERE name = 'k'") > 0);
	sqlite3_close(db);
	/* without --ptxas: a run-time indexed local array is confirmed by ptxas,
	 * once, then from the cache (keyed by the file's bytes) */
	static const char lmem[] = "__global__ void dyn(const int *idx, float *out) {\n"
				   "  float t[32];\n"
				   "  for (int i = 0; i < 32; ++i) t[i] = i * 0.5f;\n"
				   "  out[threadIdx.x] = t[idx[threadIdx.x] & 31];\n"
				   "}\n";
	const char *old = getenv("XDG_CACHE_HOME");
	char *saved = old ? strdup(old) : NULL;
	char dir[] = "/tmp/ka-ptxas-cache-XXXXXX";
	assert_non_null(mkdtemp(dir));
	setenv("XDG_CACHE_HOME", dir, 1);
	const char *lp = write_src("lmem.cu", lmem);
	db = analyze(lp, NULL, 0);
	assert_true(q(db, "SELECT stack_bytes FROM kernel WHERE name = 'dyn'") > 0);
	sqlite3_close(db);
	char cmd[256];
	snprintf(cmd, sizeof cmd, "test $(ls %s/kernelarc/ptxas | wc -l) -eq 1", dir);
	assert_int_equal(system(cmd), 0);
	db = analyze(lp, NULL, 0); /* from the cache */
	assert_true(q(db, "SELECT stack_bytes FROM kernel WHERE name = 'dyn'") > 0);
	sqlite3_close(db);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	if (saved)
		setenv("XDG_CACHE_HOME", saved, 1);
	else
		unsetenv("XDG_CACHE_HOME");
	free(saved);
	(void)state;
}

/* Accesses that at most two lanes of a warp run (access.single_lane): the
 * warp model takes that lane alone, so a row stride between lanes costs
 * nothing there; the same index where every lane runs it is still modelled
 * over the warp. */
static void single_lane_branches(void **state)
{
	const char *p = write_src(
		"lanes.cu",
		"__global__ void k(const float *a, float *o, int step, int T, int w) {\n"
		"  int u = threadIdx.x, lane = threadIdx.x & 31, t = step - u;\n"
		"  float s = a[u * 64];\n"                           /* line 3: every lane */
		"  if (u == 0) s += a[u * 64 + 1];\n"                /* 4: lane 0 */
		"  if (lane == 0 && s > 0.0f) s += a[u * 64 + 2];\n" /* 5: one lane a warp */
		"  if (t == T - 1) s += a[u * 64 + 3];\n"            /* 6: the lane whose t is T-1 */
		"  if (u != 0) s += a[u * 64 + 4]; else s += a[u * 64 + 5];\n" /* 7: all but one; one */
		"  if ((u & 1) == 0) s += a[u * 64 + 6];\n"                    /* 8: half the lanes */
		"  o[u] = s;\n"
		"  if (threadIdx.x != 0) return;\n"
		"  o[u * w] = s;\n" /* 11: lane 0 alone */
		"}\n"
		"void run(const float *a, float *o, int n) { k<<<1, 256>>>(a, o, n, n, n); }\n");
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	sqlite3 *db = analyze(p, &o, 0);
	assert_int_equal(q(db, "SELECT single_lane FROM access WHERE base = 'a' AND line = 3"), 0);
	assert_int_equal(q(db, "SELECT sectors_per_request FROM access WHERE base = 'a' AND line = 3"), 32);
	assert_int_equal(q(db, "SELECT lanes FROM access WHERE base = 'a' AND line = 3"), 32);
	assert_int_equal(q(db, "SELECT single_lane FROM access WHERE base = 'a' AND line = 4"), 1);
	assert_int_equal(q(db, "SELECT sectors_per_request FROM access WHERE base = 'a' AND line = 4"), 1);
	assert_int_equal(q(db, "SELECT lanes FROM access WHERE base = 'a' AND line = 4"), 1);
	assert_int_equal(q(db, "SELECT single_lane FROM access WHERE base = 'a' AND line = 5"), 1);
	assert_int_equal(q(db, "SELECT single_lane FROM access WHERE base = 'a' AND line = 6"), 1);
	assert_int_equal(q(db, "SELECT count(*) FROM access WHERE base = 'a' AND line = 7"), 2);
	assert_int_equal(q(db, "SELECT sum(single_lane) FROM access WHERE base = 'a' AND line = 7"), 1);
	assert_int_equal(q(db, "SELECT single_lane FROM access WHERE base = 'a' AND line = 7 "
			       "AND index_text LIKE '%+ 5'"),
			 1);
	assert_int_equal(q(db, "SELECT single_lane FROM access WHERE base = 'a' AND line = 8"), 0);
	assert_int_equal(q(db, "SELECT single_lane FROM access WHERE base = 'o' AND line = 9"), 0);
	assert_int_equal(q(db, "SELECT single_lane FROM access WHERE base = 'o' AND line = 11"), 1);
	sqlite3_close(db);
	(void)state;
}

/* divergent_warp_code.lanes_independent: a tree-reduction step that reads
 * only slots no lane of the step writes, against the warp-synchronous
 * tail whose lanes read each other's slots. */
static void warp_code_lane_dependence(void **state)
{
	const char *p = write_src(
		"tail.cu",
		"__global__ void k(float *o) {\n"
		"  __shared__ float c[256];\n"
		"  unsigned t = threadIdx.x;\n"
		"  c[t] = t;\n"
		"  __syncthreads();\n"
		"  for (unsigned s = blockDim.x / 2, e = blockDim.x; s > 0; s >>= 1, e >>= 1) {\n"
		"    if (t < s) { c[t] += c[t + s]; if (t + 2 * s < e) c[t] += c[t + 2 * s]; }\n" /* 7 */
		"    __syncthreads();\n"
		"  }\n"
		"  if (t < 32) { c[t] += c[t + 32]; c[t] += c[t + 16]; }\n" /* line 10 */
		"  if (32 > t) { c[t] += c[t + 64]; c[t] += c[t + 96]; }\n" /* line 11 */
		"  if (t == 0) o[blockIdx.x] = c[0];\n"
		"}\n"
		"void run(float *o, int n) { k<<<n, 256>>>(o); }\n");
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	sqlite3 *db = analyze(p, &o, 0);
	assert_int_equal(q(db, "SELECT lanes_independent FROM divergent_warp_code WHERE line = 7"), 1);
	assert_int_equal(q(db, "SELECT lanes_independent FROM divergent_warp_code WHERE line = 10"), 0);
	assert_int_equal(q(db, "SELECT lanes_independent FROM divergent_warp_code WHERE line = 11"), 1);
	sqlite3_close(db);
	(void)state;
}

int test_expr_main(void);

int main(void)
{
	if (src_dir_make("/tmp/ka-analyzer-test-XXXXXX") != 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strided_read_real_and_shim),
		cmocka_unit_test(device_function_inlined),
		cmocka_unit_test(barrier_hazards),
		cmocka_unit_test(grid_stride_step_in_variable),
		cmocka_unit_test(atomic_bins_runtime_modulus),
		cmocka_unit_test(split_in_order_vs_transposed),
		cmocka_unit_test(hip_launch),
		cmocka_unit_test(hip_include_under_condition),
		cmocka_unit_test(spaced_chevrons),
		cmocka_unit_test(errors_past_the_limit),
		cmocka_unit_test(lambdas),
		cmocka_unit_test(bad_inputs),
		cmocka_unit_test(ptxas_output_joins_by_mangled_name),
		cmocka_unit_test(single_lane_branches),
		cmocka_unit_test(warp_code_lane_dependence),
	};
	int failed = test_expr_main();
	failed += cmocka_run_group_tests_name("analyzer_analyze", tests, NULL, NULL);
	src_dir_remove();
	return failed ? 1 : 0;
}
