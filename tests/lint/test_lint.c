/* tests/lint/test_lint.c: the lint library driven without the CLI
 * (lint/lint.h): a run over a file, NOLINT and --checks, evidence from a
 * caller's lookup and from a knowledge DB, bad input, the fix loop through a compile gate (fake
 * compilers: one that accepts, one that rejects), and rule tests by their
 * examples.  Parses with the CUDA
 * toolkit's headers, as `kcheck rules test` does in CI. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lint/lint.h"
#include "util/error.h"

/* Two powf(x, 2.0f) calls (math-pow-small-integer, a safe fix to x * x)
 * on lines 5 and 6. */
static const char kernel_cu[] =
	"__global__ void __launch_bounds__(256) sq(float *out, const float *x, const float *y, int n) {\n"
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"  if (i < n) {\n"
	"    float dx = x[i], dy = y[i];\n"
	"    float dx2 = powf(dx, 2.0f);%s\n"
	"    float dy2 = powf(dy, 2.0f);\n"
	"    out[i] = dx2 + dy2;\n"
	"  }\n"
	"}\n";

typedef struct fixture {
	char dir[64];
	char file[128];
	char okcc[128], failcc[128];
} fixture;

static void write_file(const char *path, const char *text, int mode)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	if (mode)
		chmod(path, (mode_t)mode);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	static char buf[1 << 16];
	size_t n;
	assert_non_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strdup(buf);
}

static void write_kernel(fixture *fx, const char *line5_tail)
{
	char text[4096];
	snprintf(text, sizeof text, kernel_cu, line5_tail);
	write_file(fx->file, text, 0);
}

static int setup(void **state)
{
	fixture *fx = calloc(1, sizeof *fx);
	snprintf(fx->dir, sizeof fx->dir, "/tmp/ka-test-lint-XXXXXX");
	if (!fx || !mkdtemp(fx->dir))
		return -1;
	snprintf(fx->file, sizeof fx->file, "%s/k.cu", fx->dir);
	snprintf(fx->okcc, sizeof fx->okcc, "%s/okcc", fx->dir);
	snprintf(fx->failcc, sizeof fx->failcc, "%s/failcc", fx->dir);
	write_file(fx->okcc, "#!/bin/sh\nexit 0\n", 0755);
	write_file(fx->failcc, "#!/bin/sh\necho 'k.cu:1:1: error: rejected by the test' >&2\nexit 1\n", 0755);
	write_kernel(fx, "");
	*state = fx;
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int teardown(void **state)
{
	fixture *fx = *state;
	nftw(fx->dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(fx);
	return 0;
}

static ka_lint *new_lint(const char *checks, FILE *log)
{
	ka_lint_opts o = KA_LINT_OPTS_INIT;
	ka_lint *l = NULL;
	o.checks = checks;
	o.log = log;
	assert_int_equal(ka_lint_new(&l, &o), KA_OK);
	assert_non_null(l);
	return l;
}

static size_t count_rule(const ka_findings *fs, const char *rule, int line)
{
	size_t n = 0;
	for (size_t i = 0; i < fs->n; i++)
		n += strcmp(fs->v[i].rule, rule) == 0 && (line == 0 || fs->v[i].line == line);
	return n;
}

static void test_run_file(void **state)
{
	fixture *fx = *state;
	ka_lint *l = new_lint(NULL, NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {fx->file};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	assert_int_equal(r.failed, 0);
	assert_int_equal(r.nfiles, 1);
	assert_int_equal(count_rule(&r.findings, "math-pow-small-integer", 5), 1);
	assert_int_equal(count_rule(&r.findings, "math-pow-small-integer", 6), 1);
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		assert_string_equal(f->file, fx->file); /* the name given */
		if (strcmp(f->rule, "math-pow-small-integer") == 0) {
			assert_true(f->severity != KA_SEV_ERROR); /* an impact band, not an error */
			assert_string_equal(f->fix, "pow-to-multiply");
			assert_int_equal(f->fix_safety, KA_FIX_SAFE);
			assert_true(f->estimate > 1.0);
			assert_string_equal(f->kernel, "sq");
			assert_int_equal(ka_lint_has_fix(l, f), 0); /* no fixes computed by a plain run */
		}
		if (i) /* sorted by location */
			assert_true(ka_finding_cmp(&r.findings.v[i - 1], f) <= 0);
	}
	assert_non_null(ka_lint_sources(l));
	ka_lint_result_free(&r);
	assert_int_equal(r.findings.n, 0);
	ka_lint_free(l);
}

/* The same helper line, reached from two kernels: one finding that names
 * the second kernel.  A strided store of a kernel launched only as one
 * block is a note; the same store launched as a grid is a warning. */
static void test_shared_helper_and_one_block(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/h.cu", fx->dir);
	write_file(path,
		   "__device__ inline void put3(unsigned *out, int t, unsigned v) { out[t * 3] = v; }\n"
		   "__global__ void one(unsigned *out, const int *in)\n"
		   "{\n\tint t = threadIdx.x;\n\tput3(out, t, __ballot_sync(0xffffffffu, in[t] > 0));\n}\n"
		   "__global__ void many(unsigned *out, const int *in)\n"
		   "{\n\tint t = blockIdx.x * blockDim.x + threadIdx.x;\n"
		   "\tput3(out, t, __ballot_sync(0xffffffffu, in[t] > 0));\n}\n"
		   "__global__ void solo(unsigned *out, const int *in)\n"
		   "{\n\tint t = threadIdx.x;\n\tout[t * 3 + 1] = in[t];\n}\n"
		   "__global__ void grid(unsigned *out, const int *in)\n"
		   "{\n\tint t = blockIdx.x * blockDim.x + threadIdx.x;\n\tout[t * 3 + 1] = in[t];\n}\n"
		   "void go(unsigned *out, const int *in, int n)\n{\n"
		   "\tone<<<n / 96, 96>>>(out, in);\n\tmany<<<n / 96, 96>>>(out, in);\n"
		   "\tsolo<<<1, 96>>>(out, in);\n\tgrid<<<n / 96, 96>>>(out, in);\n}\n",
		   0);
	ka_lint *l = new_lint("-*,gmem-uncoalesced-store", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	assert_int_equal(count_rule(&r.findings, "gmem-uncoalesced-store", 1), 1);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (f->line == 1) {
			assert_int_equal(f->nalso, 1);
			assert_string_equal(f->kernel, "many");
			assert_string_equal(f->also[0], "one");
			seen |= 1;
		} else if (f->kernel && !strcmp(f->kernel, "solo")) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_non_null(strstr(f->basis, "one block"));
			seen |= 2;
		} else if (f->kernel && !strcmp(f->kernel, "grid")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			assert_int_equal(f->nalso, 0);
			seen |= 4;
		}
	}
	assert_int_equal(seen, 7);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* The reduced-precision rules' severities follow their H200 measurements:
 * a bf16 round trip in a compute chain is a warning, the same round trip in
 * a loop that loads every iteration a note; 2-byte elements one per lane
 * are a warning in a kernel without math calls and a note with an erfcf. */
static void test_lowp_severities(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/lp.cu", fx->dir);
	write_file(
		path,
		"#include <cuda_bf16.h>\n"
		"__global__ void chain(const float *x, float *y, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= n) return;\n"
		"\tfloat v = x[i], acc = 0.0f;\n"
		"\tfor (int j = 0; j < 64; j++)\n"
		"\t\tacc = __bfloat162float(__float2bfloat16(acc * 0.5f + v));\n"
		"\ty[i] = acc;\n}\n"
		"__global__ void rows(const __nv_bfloat16 *x, float *y, float s, int n)\n{\n"
		"\tfor (int j = threadIdx.x; j < n; j += blockDim.x)\n"
		"\t\ty[j] = __bfloat162float(__float2bfloat16(__bfloat162float(x[j]) * s));\n}\n"
		"__global__ void scale(const __nv_bfloat16 *x, __nv_bfloat16 *y, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i < n) y[i] = __float2bfloat16(2.0f * __bfloat162float(x[i]));\n}\n"
		"__global__ void gelu(const __nv_bfloat16 *x, __nv_bfloat16 *y, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i < n) { float v = __bfloat162float(x[i]); y[i] = __float2bfloat16(v * erfcf(-v)); }\n}\n"
		"void go(const float *x, float *y, const __nv_bfloat16 *b, __nv_bfloat16 *c, int n)\n{\n"
		"\tchain<<<(n + 255) / 256, 256>>>(x, y, n);\n\trows<<<1, 256>>>(b, y, 2.0f, n);\n"
		"\tscale<<<(n + 255) / 256, 256>>>(b, c, n);\n\tgelu<<<(n + 255) / 256, 256>>>(b, c, n);\n}\n",
		0);
	ka_lint *l = new_lint("-*,math-lowp-round-trip,gmem-unpacked-2byte", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (!f->kernel)
			continue;
		int rt = !strcmp(f->rule, "math-lowp-round-trip");
		if (rt && !strcmp(f->kernel, "chain")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			seen |= 1;
		} else if (rt && !strcmp(f->kernel, "rows")) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			seen |= 2;
		} else if (!rt && !strcmp(f->kernel, "scale")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			seen |= 4;
		} else if (!rt && !strcmp(f->kernel, "gelu")) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			seen |= 8;
		}
	}
	assert_int_equal(seen, 15);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* lmem-dynamic-local-array's estimate follows what the array's run-time
 * indices are (scripts/severity_bench.cu, H100): a row slice indexed by
 * run-time loop counters (1.55x at 256 threads) and a buffer filled by a
 * running counter (1.4x) are notes; the buffer's missing capacity test is
 * lmem-local-buffer-overflow's warning, with or without nvcc. */
static void test_lmem_severities(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/lm.cu", fx->dir);
	write_file(
		path,
		"__global__ void slice(const float *x, float *y, int row)\n{\n"
		"\tint it = row / blockDim.x;\n\tfloat v[64];\n\tfloat s = 0.0f;\n"
		"\tfor (int i = 0; i < it; i++) {\n"
		"\t\tv[i] = x[blockIdx.x * row + i * blockDim.x + threadIdx.x];\n\t\ts += v[i];\n\t}\n"
		"\tfor (int i = 0; i < it; i++)\n"
		"\t\ty[blockIdx.x * row + i * blockDim.x + threadIdx.x] = v[i] - s;\n}\n"
		"__global__ void fill(float4 *g, int n4)\n{\n"
		"\tfloat4 d[128];\n\tint t = threadIdx.x, c = 0;\n\tfloat m = 0.0f;\n"
		"\twhile (t < n4) {\n\t\td[c] = g[blockIdx.x * n4 + t];\n"
		"\t\tm = fmaxf(m, d[c].x);\n\t\tt += blockDim.x;\n\t\tc++;\n\t}\n"
		"\tfor (int i = 0; i < c; i++)\n"
		"\t\tg[blockIdx.x * n4 + i * blockDim.x + threadIdx.x] = make_float4(d[i].x / m, 0, 0, 0);\n}\n"
		"void go(const float *x, float *y, float4 *g, int row, int n4, int rows)\n{\n"
		"\tslice<<<rows, 256>>>(x, y, row);\n\tfill<<<rows, 1024>>>(g, n4);\n}\n",
		0);
	ka_lint *l = new_lint("-*,lmem-dynamic-local-array,lmem-local-buffer-overflow", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (!f->kernel)
			continue;
		int cost = !strcmp(f->rule, "lmem-dynamic-local-array");
		if (cost && !strcmp(f->kernel, "slice")) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_non_null(
				strstr(f->message, "256 bytes a thread, 64 KB for a block of 256 threads"));
			assert_non_null(strstr(f->message, "layer-norm test"));
			seen |= 1;
		} else if (cost && !strcmp(f->kernel, "fill")) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_non_null(strstr(f->message,
					       "2048 bytes a thread, 2048 KB for a block of 1024 threads"));
			assert_non_null(strstr(f->message, "running counter c "));
			assert_non_null(strstr(f->message, "writes past the end of d"));
			seen |= 2;
		} else if (!cost && !strcmp(f->kernel, "fill")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			assert_int_equal(f->line, 19);
			seen |= 4;
		} else {
			fail_msg("unexpected %s in %s", f->rule, f->kernel);
		}
	}
	assert_int_equal(seen, 7);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* Cold kernels through host calls: the initializer launched once in main,
 * whose loop reaches the other kernels only through forward() and step(),
 * is cold (a kernel-scope finding too), and so is the kernel that setup(),
 * called once before that loop, launches; a kernel launched once in forward(),
 * which main calls in its loop, runs every iteration and keeps its warning,
 * as does the kernel launched through step() in forward()'s loop. */
static void test_cold_through_calls(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/calls.cu", fx->dir);
	write_file(
		path,
		"__global__ void prep(float *a, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ta[i] = 0.0f;\n}\n"
		"__global__ void work(const float *a, float *b, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\tb[i] = a[i * 32];\n}\n"
		"__global__ void invert(const float *a, float *b, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\tb[i * 32] = a[i];\n}\n"
		"__global__ void gather(const float *a, float *b, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\tb[i] = a[i * 16];\n}\n"
		"void step(const float *a, float *b, int n)\n{\n\twork<<<(n + 255) / 256, 256>>>(a, b, n);\n}\n"
		"void forward(float *a, float *b, int n)\n{\n"
		"\tgather<<<(n + 255) / 256, 256>>>(a, b, n);\n"
		"\tfor (int l = 0; l < 12; l++)\n\t\tstep(a, b, n);\n}\n"
		"void setup(float *a, float *b, int n)\n{\n\tinvert<<<(n + 255) / 256, 256>>>(a, b, n);\n}\n"
		"void train(float *a, float *b, int n)\n{\n"
		"\tprep<<<(n + 255) / 256, 256>>>(a, n);\n\tsetup(a, b, n);\n"
		"\tfor (int s = 0; s < 100; s++)\n\t\tforward(a, b, n);\n}\n",
		0);
	ka_lint *l = new_lint("-*,gmem-uncoalesced-access,gmem-uncoalesced-store,gmem-scalar-not-vectorized",
			      NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (!f->kernel)
			continue;
		if (!strcmp(f->kernel, "prep")) {
			assert_string_equal(f->rule, "gmem-scalar-not-vectorized");
			assert_int_equal(f->cold, 1);
			assert_non_null(strstr(
				f->message, "[cold: prep is launched outside the host loop that launches"));
			seen |= 1;
		} else if (!strcmp(f->kernel, "gather")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			assert_int_equal(f->cold, 0);
			seen |= 2;
		} else if (!strcmp(f->kernel, "invert")) {
			assert_string_equal(f->rule, "gmem-uncoalesced-store");
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_int_equal(f->cold, 1);
			seen |= 8;
		} else if (!strcmp(f->kernel, "work")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			assert_int_equal(f->cold, 0);
			seen |= 4;
		}
	}
	assert_int_equal(seen, 15);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* A kernel's share of the program: the start-up kernel launched before the
 * loop that launches the solver, and an initializer that only writes next
 * to another launch, get notes marked cold; the solver in the loop and a
 * kernel launched alone elsewhere keep their warnings; a race in a cold
 * kernel stays an error. */
static void test_cold_kernels(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/c.cu", fx->dir);
	write_file(
		path,
		"__global__ void edges(float *a, int nx, int ny)\n{\n"
		"\tint r = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (r < ny) {\n\t\ta[r * nx] = 1.0f;\n\t\ta[r * nx + 1] = 1.0f;\n\t}\n"
		"\ta[blockIdx.x] = (float)r;\n}\n"
		"__global__ void relax(const float *a, float *b, int nx, int ny)\n{\n"
		"\tint r = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (r < ny)\n\t\tfor (int c = 1; c < nx - 1; c++)\n"
		"\t\t\tb[r * nx + c] = a[r * nx + c - 1] + a[r * nx + c + 1];\n}\n"
		"__global__ void fill(float *a, int nx, int ny)\n{\n"
		"\tint r = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (r < ny) {\n\t\ta[r * nx + 1] = 0.0f;\n\t\ta[r * nx + 2] = 0.0f;\n\t}\n}\n"
		"__global__ void once(const float *a, float *b, int nx, int ny)\n{\n"
		"\tint r = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (r < ny)\n\t\tfor (int c = 0; c < nx; c++)\n\t\t\tb[r * nx + c] = 2.0f * a[r * nx + c];\n}\n"
		"void solve(float *a, float *b, int nx, int ny, int iters)\n{\n"
		"\tedges<<<(ny + 255) / 256, 256>>>(a, nx, ny);\n"
		"\tfor (int it = 0; it < iters; it++)\n\t\trelax<<<(ny + 255) / 256, 256>>>(a, b, nx, ny);\n}\n"
		"void scale(float *a, float *b, int nx, int ny)\n{\n"
		"\tfill<<<(ny + 255) / 256, 256>>>(a, nx, ny);\n"
		"\tonce<<<(ny + 255) / 256, 256>>>(a, b, nx, ny);\n}\n",
		0);
	ka_lint *l = new_lint("-*,gmem-row-index-from-threadidx-x,gmem-same-address-store-race", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (!f->kernel)
			continue;
		int race = !strcmp(f->rule, "gmem-same-address-store-race");
		if (!strcmp(f->kernel, "edges") && race) {
			assert_int_equal(f->severity, KA_SEV_ERROR);
			assert_int_equal(f->cold, 0);
			seen |= 1;
		} else if (!strcmp(f->kernel, "edges")) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_int_equal(f->cold, 1);
			assert_non_null(strstr(
				f->message,
				"[cold: edges is launched outside the host loop that launches relax]"));
			seen |= 2;
		} else if (!strcmp(f->kernel, "relax")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			assert_int_equal(f->cold, 0);
			seen |= 4;
		} else if (!strcmp(f->kernel, "fill")) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_int_equal(f->cold, 1);
			assert_non_null(strstr(f->message, "an initializer"));
			seen |= 8;
		} else if (!strcmp(f->kernel, "once")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			assert_int_equal(f->cold, 0);
			seen |= 16;
		}
	}
	assert_int_equal(seen, 31);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* A set-up kernel of fixed work per thread (no loop that carries traffic),
 * launched once from a host function that nothing in a loop calls, while
 * the file launches another kernel in a host loop elsewhere, is cold even
 * though no host function links the two (setup() and run() are called from
 * a file not analysed here); the kernel in the loop keeps its warning. In a
 * file that repeats no launch, the same kernel is the program's work and
 * keeps its warning too, and so does it in a library of launch wrappers
 * (more than two uncalled host functions that launch). */
static void test_cold_fixed_work(void **state)
{
	fixture *fx = *state;
	char path[200], alone[200];
	static const char kernels[] =
		"__global__ void init(const float *a, float *b, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\tb[i * 32] = a[i];\n}\n"
		"__global__ void step(const float *a, float *b, int n)\n{\n"
		"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\tb[i] = a[i * 32];\n}\n";
	char text[2048];
	snprintf(path, sizeof path, "%s/fixed.cu", fx->dir);
	snprintf(
		text, sizeof text,
		"%s"
		"void setup(const float *a, float *b, int n)\n{\n\tinit<<<(n + 255) / 256, 256>>>(a, b, n);\n}\n"
		"void run(const float *a, float *b, int n, int iters)\n{\n"
		"\tfor (int it = 0; it < iters; it++)\n\t\tstep<<<(n + 255) / 256, 256>>>(a, b, n);\n}\n",
		kernels);
	write_file(path, text, 0);
	snprintf(alone, sizeof alone, "%s/alone.cu", fx->dir);
	snprintf(
		text, sizeof text,
		"%s"
		"void setup(const float *a, float *b, int n)\n{\n\tinit<<<(n + 255) / 256, 256>>>(a, b, n);\n}\n"
		"void run(const float *a, float *b, int n, int iters)\n{\n"
		"\tfor (int it = 0; it < iters; it++)\n\t\tstep<<<(n + 255) / 256, 256>>>(a, b, n);\n}\n"
		"void once(const float *a, float *b, int n)\n{\n\tstep<<<(n + 255) / 256, 256>>>(a, b, n);\n}\n",
		kernels);
	write_file(alone, text, 0);
	ka_lint *l = new_lint("-*,gmem-uncoalesced-access,gmem-uncoalesced-store", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path, alone};
	assert_int_equal(ka_lint_run(l, paths, 2, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (!f->kernel)
			continue;
		int in_alone = strstr(f->file, "alone.cu") != NULL;
		if (!strcmp(f->kernel, "init") && !in_alone) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_int_equal(f->cold, 1);
			assert_non_null(strstr(f->message,
					       "[cold: init does a fixed amount of work per thread "
					       "and is launched once, outside host loops, while step "
					       "is launched repeatedly]"));
			seen |= 1;
		} else if (!strcmp(f->kernel, "step")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			assert_int_equal(f->cold, 0);
			seen |= 2;
		} else if (!strcmp(f->kernel, "init")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			assert_int_equal(f->cold, 0);
			seen |= 4;
		}
	}
	assert_int_equal(seen, 7);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* host-sync-in-loop in a timed loop: a sync between two timer reads of the
 * same iteration ends a measured trial (the harness), a note; the same sync
 * in an untimed loop, and in a loop whose timer is outside it, stays a
 * warning. */
static void test_sync_in_timed_loop(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/timed.cu", fx->dir);
	write_file(path,
		   "__global__ void k(float *a, int n)\n{\n"
		   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ta[i] += 1.0f;\n}\n"
		   "double wtime(void);\n"
		   "float trials(float *a, int n, int reps, cudaEvent_t start, cudaEvent_t stop)\n{\n"
		   "\tfloat total = 0.0f, ms;\n"
		   "\tfor (int t = 0; t < reps; t++) {\n"
		   "\t\tcudaEventRecord(start);\n"
		   "\t\tk<<<(n + 255) / 256, 256>>>(a, n);\n"
		   "\t\tcudaDeviceSynchronize();\n"
		   "\t\tcudaEventRecord(stop);\n"
		   "\t\tcudaEventElapsedTime(&ms, start, stop);\n"
		   "\t\ttotal += ms;\n\t}\n\treturn total;\n}\n"
		   "double host_timed(float *a, int n, int reps)\n{\n"
		   "\tdouble total = 0.0;\n"
		   "\tfor (int t = 0; t < reps; t++) {\n"
		   "\t\tdouble t0 = wtime();\n"
		   "\t\tk<<<(n + 255) / 256, 256>>>(a, n);\n"
		   "\t\tcudaDeviceSynchronize();\n"
		   "\t\ttotal += wtime() - t0;\n\t}\n\treturn total;\n}\n"
		   "double outer_timer(float *a, int n, int reps)\n{\n"
		   "\tdouble t0 = wtime();\n"
		   "\tfor (int t = 0; t < reps; t++) {\n"
		   "\t\tk<<<(n + 255) / 256, 256>>>(a, n);\n"
		   "\t\tcudaDeviceSynchronize();\n\t}\n"
		   "\treturn wtime() - t0;\n}\n",
		   0);
	ka_lint *l = new_lint("-*,host-sync-in-loop", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (strcmp(f->rule, "host-sync-in-loop"))
			continue;
		if (f->line == 14 || f->line == 27) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_non_null(strstr(f->message, "ends a measured trial"));
			seen |= f->line == 14 ? 1 : 2;
		} else {
			assert_int_equal(f->line, 37);
			assert_int_equal(f->severity, KA_SEV_WARNING);
			seen |= 4;
		}
	}
	assert_int_equal(seen, 7);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* launch-block-not-multiple-of-warp: a serial step launched as one block
 * of 16 threads leaves the rest of the GPU idle whatever its block size, so
 * its partial warp is a note; the same block over a grid of many blocks
 * stays a warning. */
static void test_odd_block_one_wave(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/odd.cu", fx->dir);
	write_file(path,
		   "__global__ void diag(float *a, int n)\n{\n"
		   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ta[i] *= 2.0f;\n}\n"
		   "void run(float *a, int n)\n{\n"
		   "\tdiag<<<1, 16>>>(a, n);\n"
		   "\tdiag<<<4096, 16>>>(a, n);\n}\n",
		   0);
	ka_lint *l = new_lint("-*,launch-block-not-multiple-of-warp", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (strcmp(f->rule, "launch-block-not-multiple-of-warp"))
			continue;
		if (f->line == 9) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_non_null(strstr(f->message, "no more than the SMs"));
			seen |= 1;
		} else {
			assert_int_equal(f->line, 10);
			assert_int_equal(f->severity, KA_SEV_WARNING);
			seen |= 2;
		}
	}
	assert_int_equal(seen, 3);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* host-alloc-in-loop: an allocation in a loop whose launches are all in a
 * loop nested inside it (one buffer per configuration, many timed launches)
 * is a note; one in the loop that launches directly stays a warning. */
static void test_alloc_per_configuration(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/alloc.cu", fx->dir);
	write_file(path,
		   "__global__ void k(float *a, int n)\n{\n"
		   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\ta[i] += 1.0f;\n}\n"
		   "void sweep(const int *sizes, int nsizes, int reps)\n{\n"
		   "\tfor (int s = 0; s < nsizes; s++) {\n"
		   "\t\tfloat *a;\n"
		   "\t\tcudaMalloc(&a, sizes[s] * sizeof(float));\n"
		   "\t\tfor (int r = 0; r < reps; r++)\n"
		   "\t\t\tk<<<(sizes[s] + 255) / 256, 256>>>(a, sizes[s]);\n"
		   "\t\tcudaFree(a);\n\t}\n}\n"
		   "void repeat(int n, int reps)\n{\n"
		   "\tfor (int r = 0; r < reps; r++) {\n"
		   "\t\tfloat *a;\n"
		   "\t\tcudaMalloc(&a, n * sizeof(float));\n"
		   "\t\tk<<<(n + 255) / 256, 256>>>(a, n);\n"
		   "\t\tcudaFree(a);\n\t}\n}\n",
		   0);
	ka_lint *l = new_lint("-*,host-alloc-in-loop", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (strcmp(f->rule, "host-alloc-in-loop"))
			continue;
		if (f->line == 11 || f->line == 14) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_non_null(strstr(f->message, "nested inside this one"));
			seen |= f->line == 11 ? 1 : 2;
		} else {
			assert_true(f->line == 21 || f->line == 23);
			assert_int_equal(f->severity, KA_SEV_WARNING);
			seen |= f->line == 21 ? 4 : 8;
		}
	}
	assert_int_equal(seen, 15);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* gmem-aos-field-access carries the execution-count weighting of the other
 * coalescing rules: a field of a 32-byte record read once per thread, next
 * to a loop that carries the kernel's traffic, is a note; the same field
 * read inside that loop stays a warning. */
static void test_aos_field_once(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/aos.cu", fx->dir);
	write_file(path,
		   "struct pt { float w, cost; int assign; float pad[5]; };\n"
		   "__global__ void cost(const pt *p, const float *c, float *out, int n, int dim)\n{\n"
		   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= n)\n\t\treturn;\n"
		   "\tfloat s = 0.0f;\n"
		   "\tfor (int d = 0; d < dim; d++)\n\t\ts += c[d * n + i];\n"
		   "\tout[i] = s * p[i].w;\n}\n"
		   "__global__ void walk(const pt *p, float *out, int n, int reps)\n{\n"
		   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i >= n)\n\t\treturn;\n"
		   "\tfloat s = 0.0f;\n"
		   "\tfor (int r = 0; r < reps; r++)\n\t\ts += p[r * n + i].w;\n"
		   "\tout[i] = s;\n}\n"
		   "void run(const pt *p, const float *c, float *out, int n, int dim)\n{\n"
		   "\tcost<<<(n + 255) / 256, 256>>>(p, c, out, n, dim);\n"
		   "\twalk<<<(n + 255) / 256, 256>>>(p, out, n, dim);\n}\n",
		   0);
	ka_lint *l = new_lint("-*,gmem-aos-field-access", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (strcmp(f->rule, "gmem-aos-field-access") || !f->kernel)
			continue;
		if (!strcmp(f->kernel, "cost")) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_non_null(strstr(f->message, "once per thread, outside the loops"));
			seen |= 1;
		} else if (!strcmp(f->kernel, "walk")) {
			assert_int_equal(f->severity, KA_SEV_WARNING);
			seen |= 2;
		}
	}
	assert_int_equal(seen, 3);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* cmem-divergent-index: a read of a __constant__ table that only stages it
 * into shared memory (a shared store on the same line, outside the loops
 * that carry the traffic) is a note; a per-thread lookup kept in constant
 * memory stays a warning. */
static void test_cmem_staging_copy(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/stage.cu", fx->dir);
	write_file(path,
		   "__constant__ unsigned tab[256];\n"
		   "__global__ void mix(const unsigned *in, unsigned *out, int rounds)\n{\n"
		   "\t__shared__ unsigned s[256];\n"
		   "\ts[threadIdx.x] = tab[threadIdx.x];\n"
		   "\t__syncthreads();\n"
		   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		   "\tunsigned h = in[i];\n"
		   "\tfor (int r = 0; r < rounds; r++)\n\t\th = s[h & 255] ^ (h >> 3);\n"
		   "\tout[i] = h ^ tab[threadIdx.x];\n}\n"
		   "void run(const unsigned *in, unsigned *out, int n)\n{\n"
		   "\tmix<<<n / 256, 256>>>(in, out, 64);\n}\n",
		   0);
	ka_lint *l = new_lint("-*,cmem-divergent-index", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (strcmp(f->rule, "cmem-divergent-index"))
			continue;
		if (f->line == 5) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_non_null(strstr(f->basis, "copies the table into shared memory"));
			seen |= 1;
		} else {
			assert_int_equal(f->line, 11);
			assert_int_equal(f->severity, KA_SEV_WARNING);
			seen |= 2;
		}
	}
	assert_int_equal(seen, 3);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* sync-full-mask-in-divergent-branch: a shuffle of width 8 under a guard
 * that is the same for each aligned group of 8 lanes (one item per group)
 * is a note; the same shuffle under a per-lane guard stays an error. */
static void test_full_mask_whole_groups(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/groups.cu", fx->dir);
	write_file(path,
		   "__global__ void grp(const unsigned *in, unsigned *out, unsigned n)\n{\n"
		   "\tunsigned g = (blockIdx.x * blockDim.x + threadIdx.x) / 8;\n"
		   "\tif (g < n) {\n"
		   "\t\tunsigned v = in[g * 8 + (threadIdx.x & 7)];\n"
		   "\t\tv += __shfl_sync(0xffffffffu, v, (threadIdx.x + 1) & 7, 8);\n"
		   "\t\tout[g * 8 + (threadIdx.x & 7)] = v;\n\t}\n}\n"
		   "__global__ void red(const float *in, float *out, int n)\n{\n"
		   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		   "\tif (i < n) {\n"
		   "\t\tfloat v = in[i];\n"
		   "\t\tv += __shfl_xor_sync(0xffffffffu, v, 1, 8);\n"
		   "\t\tout[i] = v;\n\t}\n}\n"
		   "void run(const unsigned *a, unsigned *b, const float *x, float *y, int n)\n{\n"
		   "\tgrp<<<(n * 8 + 127) / 128, 128>>>(a, b, n);\n"
		   "\tred<<<(n + 127) / 128, 128>>>(x, y, n);\n}\n",
		   0);
	ka_lint *l = new_lint("-*,sync-full-mask-in-divergent-branch", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	int seen = 0;
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (strcmp(f->rule, "sync-full-mask-in-divergent-branch"))
			continue;
		if (f->line == 6) {
			assert_int_equal(f->severity, KA_SEV_NOTE);
			assert_non_null(strstr(f->message, "only the mask is wrong"));
			seen |= 1;
		} else {
			assert_int_equal(f->line, 15);
			assert_int_equal(f->severity, KA_SEV_ERROR);
			seen |= 2;
		}
	}
	assert_int_equal(seen, 3);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* host-pageable-memcpy: `bufs[dev]`, an element of an array of pointers,
 * is not stack memory (what it points to is not known here); `&local[4]`
 * of a stack array still is (80000 bytes: above the size below which a
 * copy is left alone). */
static void test_pageable_pointer_element(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/ptrs.cu", fx->dir);
	write_file(path,
		   "static float *h_bufs[8];\n"
		   "__global__ void k(float *d, int n)\n{\n"
		   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n\tif (i < n)\n\t\td[i] += 1.0f;\n}\n"
		   "void run(float *d, int n, int dev, cudaStream_t s)\n{\n"
		   "\tfloat h_local[32768];\n"
		   "\tfor (int r = 0; r < 10; r++) {\n"
		   "\t\tcudaMemcpyAsync(d, h_bufs[dev], n * sizeof(float), cudaMemcpyHostToDevice, s);\n"
		   "\t\tcudaMemcpyAsync(d, &h_local[4], 20000 * sizeof(float), cudaMemcpyHostToDevice, s);\n"
		   "\t\tk<<<(n + 255) / 256, 256, 0, s>>>(d, n);\n\t}\n}\n",
		   0);
	ka_lint *l = new_lint("-*,host-pageable-memcpy", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	assert_int_equal(count_rule(&r.findings, "host-pageable-memcpy", 12), 0);
	assert_int_equal(count_rule(&r.findings, "host-pageable-memcpy", 13), 1);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* gmem-same-address-store-race on PATH: none at line CLEAN, one at line RACE. */
static void expect_race_only_at(const char *path, int clean, int race)
{
	ka_lint *l = new_lint("-*,gmem-same-address-store-race", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	assert_int_equal(count_rule(&r.findings, "gmem-same-address-store-race", clean), 0);
	assert_int_equal(count_rule(&r.findings, "gmem-same-address-store-race", race), 1);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* A grid-stride loop from a macro the project's header defines (caffe's
 * CUDA_KERNEL_LOOP): the builtin members in its body (threadIdx.x, ...)
 * have no name in libclang, so they are read from the macro's definition,
 * in the header; the index is then the thread's own and `y[index] += a`
 * no race.  A store every thread makes to y[0] still is one. */
static void test_header_macro_loop(void **state)
{
	fixture *fx = *state;
	char path[200], hdr[200];
	snprintf(hdr, sizeof hdr, "%s/loop.h", fx->dir);
	write_file(hdr,
		   "#define CUDA_KERNEL_LOOP(i, n) \\\n"
		   "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; \\\n"
		   "       i < (n); \\\n"
		   "       i += blockDim.x * gridDim.x)\n",
		   0);
	snprintf(path, sizeof path, "%s/hloop.cu", fx->dir);
	write_file(path,
		   "#include \"loop.h\"\n"
		   "__global__ void add(const int n, float *y, float a)\n{\n"
		   "\tCUDA_KERNEL_LOOP(index, n) {\n\t\ty[index] += a;\n\t}\n}\n"
		   "__global__ void all(const int n, float *y, float a)\n{\n"
		   "\tCUDA_KERNEL_LOOP(index, n) {\n\t\ty[0] += a;\n\t}\n}\n",
		   0);
	expect_race_only_at(path, 5, 11);
}

/* The same loop in a kernel that itself lives in an included header
 * (mmcv's focal-loss .cuh files): the expansion is in the header, so the
 * header's macro expansions are recorded too, not only the main file's. */
static void test_header_kernel_macro_loop(void **state)
{
	fixture *fx = *state;
	char path[200], hdr[200];
	snprintf(hdr, sizeof hdr, "%s/hk.cuh", fx->dir);
	write_file(hdr,
		   "#define KLOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); \\\n"
		   "                         i += blockDim.x * gridDim.x)\n"
		   "__global__ void add(const int n, float *y, const float *x)\n{\n"
		   "\tKLOOP(index, n) {\n\t\ty[index] = 0.f;\n\t\ty[index] += x[index];\n\t}\n}\n"
		   "__global__ void all(const int n, float *y, float a)\n{\n"
		   "\tKLOOP(index, n) {\n\t\ty[0] += a;\n\t}\n}\n",
		   0);
	snprintf(path, sizeof path, "%s/hk.cu", fx->dir);
	write_file(path, "#include \"hk.cuh\"\n", 0);
	expect_race_only_at(path, 7, 13);
}

/* A macro that declares two thread indices (pytorch3d's Pulsar,
 * GET_PARALLEL_IDS_2D): its body reads threadIdx.x and threadIdx.y, so the
 * members, which libclang leaves unnamed in a macro body, cannot be told
 * apart from the definition; they still vary between threads, and
 * `res[c] *= s` through a per-thread pointer is no race.  A store every
 * thread makes to out[0] still is one. */
static void test_macro_two_thread_axes(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/ids2d.cu", fx->dir);
	write_file(path,
		   "#define IDS_2D(X, Y, W, H) \\\n"
		   "  const unsigned X = blockIdx.x * blockDim.x + threadIdx.x; \\\n"
		   "  const unsigned Y = blockIdx.y * blockDim.y + threadIdx.y; \\\n"
		   "  if (X >= (W) || Y >= (H)) return;\n"
		   "__global__ void scale(float *out, int w, int h, int nc, float s)\n{\n"
		   "\tIDS_2D(x, y, w, h);\n\tfloat *res = out + (y * w + x) * nc;\n"
		   "\tfor (int c = 0; c < nc; ++c)\n\t\tres[c] *= s;\n}\n"
		   "__global__ void all(float *out, int w, int h, float s)\n{\n"
		   "\tIDS_2D(x, y, w, h);\n\tout[0] += s;\n}\n",
		   0);
	expect_race_only_at(path, 10, 15);
}

static void test_scan_across_warps_not_tree(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/wscan.cu", fx->dir);
	write_file(path,
		   "__global__ void wscan(unsigned *out, const unsigned *in)\n{\n"
		   "\t__shared__ unsigned pad[64];\n"
		   "\tunsigned *h = pad;\n"
		   "\tunsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, t;\n"
		   "\tunsigned v = in[blockIdx.x * 256 + threadIdx.x];\n"
		   "\tif (lane < 8)\n\t\th[warp * 8 + lane] = v;\n"
		   "\t__syncthreads();\n\tt = v;\n"
		   "\tfor (int i = 1; i < 8; i <<= 1) {\n"
		   "\t\tif (lane < 8)\n\t\t\tt += (warp >= i) ? h[(warp - i) * 8 + lane] : 0;\n"
		   "\t\t__syncthreads();\n"
		   "\t\tif (lane < 8)\n\t\t\th[warp * 8 + lane] = t;\n"
		   "\t\t__syncthreads();\n\t}\n"
		   "\tout[blockIdx.x * 256 + threadIdx.x] = t;\n}\n"
		   "__global__ void tree(float *out, const float *in)\n{\n"
		   "\t__shared__ float sh[256];\n"
		   "\tunsigned tid = threadIdx.x;\n"
		   "\tsh[tid] = in[blockIdx.x * 256 + tid];\n\t__syncthreads();\n"
		   "\tfor (unsigned s = 1; s < 256; s *= 2) {\n"
		   "\t\tunsigned x = 2 * s * tid;\n"
		   "\t\tif (x < 256)\n\t\t\tsh[x] += sh[x + s];\n"
		   "\t\t__syncthreads();\n\t}\n"
		   "\tif (tid == 0)\n\t\tout[blockIdx.x] = sh[0];\n}\n"
		   "void run(unsigned *o, const unsigned *i, float *fo, const float *fi)\n{\n"
		   "\twscan<<<4096, 256>>>(o, i);\n\ttree<<<4096, 256>>>(fo, fi);\n}\n",
		   0);
	ka_lint *l = new_lint("-*,div-interleaved-reduction", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	assert_int_equal(count_rule(&r.findings, "div-interleaved-reduction", 11), 0);
	assert_int_equal(count_rule(&r.findings, "div-interleaved-reduction", 27), 1);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* Barriers under conditions that are the same in every thread of the block
 * (issue 20, cudpp's merge sorts): a switch on `last - first` where first is
 * thread-dependent but cancels (line 13), a variable set in both arms of a
 * block-uniform branch (lines 16, 19).  Still errors: a switch on first itself
 * (line 28), a variable set from threadIdx in one arm (line 32),
 * `if (threadIdx.x < 16)` (line 34). */
static void test_uniform_switch(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/uni.cu", fx->dir);
	write_file(path,
		   "__global__ void merge(unsigned *keys, int lo)\n{\n"                      /* 1-2 */
		   "\t__shared__ unsigned s[1024];\n\tint tid = threadIdx.x;\n"              /* 3-4 */
		   "\tfor (int mult = 1; mult < 128; mult *= 2) {\n"                         /* 5 */
		   "\t\tint first = (tid >> 1) * 8 * mult, last;\n"                          /* 6 */
		   "\t\tint addPart = threadIdx.x % (mult << 1) >= mult ? 1 : 0;\n"          /* 7 */
		   "\t\tif (addPart == 0)\n\t\t\tfirst += 8 * mult;\n"                       /* 8-9 */
		   "\t\tlast = first + 8 * mult - 1;\n"                                      /* 10 */
		   "\t\tint range = last - first;\n"                                         /* 11 */
		   "\t\tswitch (range) {\n"                                                  /* 12 */
		   "\t\tcase 7: s[tid] = keys[tid]; __syncthreads();\n\t\t}\n\t}\n"          /* 13-15 */
		   "\tint b = blockIdx.x == 0 ? lo : lo + 1; if (b == 3) __syncthreads();\n" /* 16 */
		   "\tint c;\n\tif (blockIdx.x == 0) c = lo; else c = 2 * lo;\n"             /* 17-18 */
		   "\tif (c > 4) __syncthreads();\n"                                         /* 19 */
		   "\tkeys[tid] = s[tid];\n}\n"                                              /* 20-21 */
		   "__global__ void bad(unsigned *keys)\n{\n"                                /* 22-23 */
		   "\t__shared__ unsigned s[1024];\n\tint tid = threadIdx.x;\n"              /* 24-25 */
		   "\tint first = (tid >> 1) * 8, last;\n"                                   /* 26 */
		   "\tif (tid & 1) first += 8; last = first + 7;\n"                          /* 27 */
		   "\tswitch (first) { case 8: s[tid] = 1; __syncthreads(); }\n"             /* 28 */
		   "\tint d;\n"                                                              /* 29 */
		   "\tif (blockIdx.x == 0) d = tid; else d = 0;\n"                           /* 30 */
		   "\tif (d == 2)\n\t\t__syncthreads();\n"                                   /* 31-32 */
		   "\tif (threadIdx.x < 16) {\n\t\ts[tid] = 0; __syncthreads();\n\t}\n"      /* 33-35 */
		   "\tkeys[last] = s[tid];\n}\n"                                             /* 36-37 */
		   "void run(unsigned *k, int n)\n{\n"
		   "\tmerge<<<n, 128>>>(k, n);\n\tbad<<<n, 128>>>(k);\n}\n",
		   0);
	ka_lint *l = new_lint("-*,sync-barrier-in-divergent-branch,sync-barrier-skip-exit", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	const char *rule = "sync-barrier-in-divergent-branch";
	assert_int_equal(count_rule(&r.findings, rule, 13), 0);
	assert_int_equal(count_rule(&r.findings, rule, 16), 0);
	assert_int_equal(count_rule(&r.findings, rule, 19), 0);
	assert_int_equal(count_rule(&r.findings, rule, 28), 1);
	/* line 32's skipping threads meet line 34's barrier: an error */
	assert_int_equal(count_rule(&r.findings, rule, 32), 1);
	/* line 34's skipping threads meet no other barrier and nothing inside
	 * reads their slots: the exit shape, a note of its own */
	assert_int_equal(count_rule(&r.findings, rule, 34), 0);
	assert_int_equal(count_rule(&r.findings, "sync-barrier-skip-exit", 34), 1);
	assert_int_equal(count_rule(&r.findings, "sync-barrier-skip-exit", 0), 1);
	assert_int_equal(count_rule(&r.findings, rule, 0), 2);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* A barrier in `for (i = tid; i < blockSize; i += 128)` (issue 20, cudpp's
 * string sort): every thread runs the same trips when the launch gives a
 * block of 128 threads and blockSize 1024 (line 4), or a bound that is a
 * constant and a step of blockDim.x (line 10).  Still errors: a bound that is
 * no multiple of the step (line 16), a block wider than the step (line 22), a
 * loop that can break out early (line 41).  A step of the block's width whose
 * bound nothing shows to be a multiple or not is the warning of
 * sync-barrier-in-block-stride-loop: launches that disagree on the bound
 * (line 28, one of them a run-time value), no launch (line 34), a bound read
 * from memory (line 47).
 * Start and bound may share a uniform offset, which cancels (line 53, quiet;
 * blockIdx.x in the start only is not, line 59); `<=` with a constant bound
 * and 256 threads (line 65, quiet).  Each body reads its neighbour's key
 * (`keys[i + 1]`), which a thread that has left the loop no longer
 * updates: without such an exchange the uneven trips would be
 * sync-barrier-skip-exit, the note (exited threads count as arrived). */
static void test_uniform_loop_trips(void **state)
{
	fixture *fx = *state;
	char path[200];
	snprintf(path, sizeof path, "%s/trips.cu", fx->dir);
	write_file(
		path,
		"__global__ void sorted(unsigned *keys, int blockSize)\n{\n"      /* 1-2 */
		"\tfor (int i = threadIdx.x; i < blockSize; i += 128) {\n"        /* 3 */
		"\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n"          /* 4-6 */
		"__global__ void strided(unsigned *keys)\n{\n"                    /* 7-8 */
		"\tfor (unsigned i = threadIdx.x; i < 1024; i += blockDim.x) {\n" /* 9 */
		"\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n"          /* 10-12 */
		"__global__ void ragged(unsigned *keys, int blockSize)\n{\n"      /* 13-14 */
		"\tfor (int i = threadIdx.x; i < blockSize; i += 128) {\n"        /* 15 */
		"\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n"          /* 16-18 */
		"__global__ void wide(unsigned *keys, int blockSize)\n{\n"        /* 19-20 */
		"\tfor (int i = threadIdx.x; i < blockSize; i += 128) {\n"        /* 21 */
		"\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n"          /* 22-24 */
		"__global__ void mixed(unsigned *keys, int blockSize)\n{\n"       /* 25-26 */
		"\tfor (int i = threadIdx.x; i < blockSize; i += 128) {\n"        /* 27 */
		"\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n"          /* 28-30 */
		"__global__ void unlaunched(unsigned *keys, int blockSize)\n{\n"  /* 31-32 */
		"\tfor (int i = threadIdx.x; i < blockSize; i += 128) {\n"        /* 33 */
		"\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n"          /* 34-36 */
		"__global__ void leaves(unsigned *keys, int blockSize)\n{\n"      /* 37-38 */
		"\tfor (int i = threadIdx.x; i < blockSize; i += 128) {\n"        /* 39 */
		"\t\tif (keys[i] == 0) break;\n\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n" /* 40-43 */
		"__global__ void loaded(unsigned *keys, const int *sizes)\n{\n" /* 44-45 */
		"\tfor (int i = threadIdx.x; i < sizes[0]; i += 128) {\n"       /* 46 */
		"\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n"        /* 47-49 */
		"__global__ void based(unsigned *keys, int blockSize)\n{\n"     /* 50-51 */
		"\tfor (int i = blockIdx.x * 1024 + threadIdx.x; i < blockIdx.x * 1024 + blockSize;"
		" i += 128) {\n"                                                        /* 52 */
		"\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n"                /* 53-55 */
		"__global__ void shifted(unsigned *keys, int blockSize)\n{\n"           /* 56-57 */
		"\tfor (int i = blockIdx.x + threadIdx.x; i < blockSize; i += 128) {\n" /* 58 */
		"\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n"                /* 59-61 */
		"__global__ void upto(unsigned *keys)\n{\n"                             /* 62-63 */
		"\tfor (unsigned i = threadIdx.x; i <= 1023; i += blockDim.x) {\n"      /* 64 */
		"\t\tkeys[i] += keys[i + 1]; __syncthreads();\n\t}\n}\n"                /* 65-67 */
		"void run(unsigned *k, const int *sz, int n)\n{\n"
		"\tsorted<<<n, 1024 / 8>>>(k, 1024);\n\tstrided<<<n, 256>>>(k);\n"
		"\tragged<<<n, 128>>>(k, 1000);\n\twide<<<n, 256>>>(k, 1024);\n"
		"\tmixed<<<n, 128>>>(k, 1024);\n\tmixed<<<n, 128>>>(k, 2048 + n);\n"
		"\tleaves<<<n, 128>>>(k, 1024);\n\tloaded<<<n, 128>>>(k, sz);\n"
		"\tbased<<<n, 128>>>(k, 1024);\n\tshifted<<<n, 128>>>(k, 1024);\n"
		"\tupto<<<n, 256>>>(k);\n}\n",
		0);
	ka_lint *l = new_lint("-*,sync-barrier-in-divergent-branch,sync-barrier-in-block-stride-loop", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {path};
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	const char *rule = "sync-barrier-in-divergent-branch";
	const char *stride = "sync-barrier-in-block-stride-loop";
	assert_int_equal(count_rule(&r.findings, rule, 4), 0);
	assert_int_equal(count_rule(&r.findings, rule, 10), 0);
	assert_int_equal(count_rule(&r.findings, rule, 16), 1);
	assert_int_equal(count_rule(&r.findings, rule, 22), 1);
	assert_int_equal(count_rule(&r.findings, rule, 28), 0);
	assert_int_equal(count_rule(&r.findings, stride, 28), 1);
	assert_int_equal(count_rule(&r.findings, rule, 34), 0);
	assert_int_equal(count_rule(&r.findings, stride, 34), 1);
	assert_int_equal(count_rule(&r.findings, rule, 41), 1);
	assert_int_equal(count_rule(&r.findings, rule, 47), 0);
	assert_int_equal(count_rule(&r.findings, stride, 47), 1);
	assert_int_equal(count_rule(&r.findings, rule, 53), 0);
	assert_int_equal(count_rule(&r.findings, rule, 59), 1);
	assert_int_equal(count_rule(&r.findings, rule, 65), 0);
	assert_int_equal(count_rule(&r.findings, rule, 0), 4);
	assert_int_equal(count_rule(&r.findings, stride, 0), 3);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

static void test_checks_and_nolint(void **state)
{
	fixture *fx = *state;
	ka_lint *l = new_lint("-*,math-pow-*", NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {fx->dir}; /* a folder: searched for .cu */
	write_kernel(fx, "  // NOLINT(math-pow-small-integer)");
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	assert_int_equal(r.findings.n, 1);
	assert_string_equal(r.findings.v[0].rule, "math-pow-small-integer");
	assert_int_equal(r.findings.v[0].line, 6);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* A source of evidence other than a knowledge DB: evidence for math-pow-small-integer
 * (3 wins), corrected to 3.0x; nothing for other rules; an error when asked
 * to fail. */
typedef struct lookup_log {
	int calls, pow_calls, fail;
	char arch[16];
} lookup_log;

static int fake_lookup(void *ud, const char *rule, const char *arch, double estimate, ka_finding_evidence *ev,
		       double *corrected)
{
	lookup_log *lg = ud;
	lg->calls++;
	snprintf(lg->arch, sizeof lg->arch, "%s", arch);
	*corrected = estimate;
	if (lg->fail)
		return ka_error_set(KA_EIO, "knowledge DB k.db: disk I/O error");
	if (strcmp(rule, "math-pow-small-integer") != 0)
		return 0;
	lg->pow_calls++;
	snprintf(ev->arch, sizeof ev->arch, "%s", arch);
	ev->wins = 3, ev->median = 1.3, ev->lo = 1.2, ev->hi = 1.5;
	snprintf(ev->text, sizeof ev->text, "fixed 3 times on %s, median 1.3x [1.2, 1.5]", arch);
	*corrected = 3.0;
	return 1;
}

/* opts.evidence: asked once per reported finding (after NOLINT), on the
 * run's arch; the finding keeps the evidence, the corrected estimate and
 * the severity of its band; an error of the lookup is the run's error. */
static void test_evidence_lookup(void **state)
{
	fixture *fx = *state;
	lookup_log lg = {0};
	ka_lint_opts o = KA_LINT_OPTS_INIT;
	ka_lint *l = NULL;
	ka_lint_result r = KA_LINT_RESULT_INIT;
	const char *paths[] = {fx->file};
	o.arch = "sm_80";
	o.evidence = fake_lookup, o.evidence_ud = &lg;
	write_kernel(fx, "  // NOLINT(math-pow-small-integer)");
	assert_int_equal(ka_lint_new(&l, &o), KA_OK);
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
	assert_int_equal(lg.pow_calls, 1); /* line 5 is NOLINT-ed: not asked */
	assert_int_equal(lg.calls, (int)r.findings.n);
	assert_string_equal(lg.arch, "sm_80");
	for (size_t i = 0; i < r.findings.n; i++) {
		const ka_finding *f = &r.findings.v[i];
		if (strcmp(f->rule, "math-pow-small-integer") != 0) {
			assert_null(f->evidence);
			continue;
		}
		assert_int_equal(f->line, 6);
		assert_non_null(f->evidence);
		assert_true(f->evidence->static_estimate > 1.0 && f->evidence->static_estimate < 2.0);
		assert_true(f->estimate == 3.0);
		assert_int_equal(f->severity,
				 KA_SEV_WARNING); /* the band of 3.0x, under the rule's ceiling */
		assert_string_equal(f->evidence->text, "fixed 3 times on sm_80, median 1.3x [1.2, 1.5]");
		assert_null(strstr(f->message, "3.0x")); /* the message keeps the static estimate */
	}
	lg.fail = 1;
	assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_EIO);
	assert_string_equal(ka_lint_error(l), "knowledge DB k.db: disk I/O error");
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* opts.kdb: a knowledge DB, opened read-only by the caller, is lint's own
 * source of evidence.  The fix of math-pow-small-integer measured 3 times
 * faster on sm_80: on sm_80 the reported finding carries the DB's standing
 * (its text, its counts) and the estimate the standing corrects; on sm_90,
 * where nothing was measured, no finding carries evidence. */
static void test_evidence_kdb(void **state)
{
	fixture *fx = *state;
	char dbpath[160];
	ka_kdb *db = NULL;
	snprintf(dbpath, sizeof dbpath, "%s/knowledge.db", fx->dir);
	assert_int_equal(ka_kdb_open(&db, dbpath, KA_KDB_CREATE), KA_OK);
	static const double speedups[] = {1.2, 1.3, 1.5};
	for (int i = 0; i < 3; i++) {
		ka_kdb_evidence e = {.rule = "math-pow-small-integer",
				     .task = "sq",
				     .arch = "sm_80",
				     .speedup = speedups[i],
				     .ci_low = speedups[i] - 0.05,
				     .ci_high = speedups[i] + 0.05,
				     .verdict = "faster"};
		assert_int_equal(ka_kdb_add_evidence(db, &e, NULL), KA_OK);
	}
	ka_kdb_close(db);
	assert_int_equal(ka_kdb_open(&db, dbpath, KA_KDB_READONLY), KA_OK);
	ka_kdb_standing sd;
	char text[200];
	assert_int_equal(ka_kdb_standing_get(db, "math-pow-small-integer", NULL, "sm_80", &sd), KA_OK);
	ka_kdb_standing_text(&sd, "sm_80", text, sizeof text);
	assert_int_equal(sd.wins, 3);

	const char *paths[] = {fx->file};
	static const char *const arches[] = {"sm_80", "sm_90"};
	for (int a = 0; a < 2; a++) {
		ka_lint_opts o = KA_LINT_OPTS_INIT;
		ka_lint *l = NULL;
		ka_lint_result r = KA_LINT_RESULT_INIT;
		o.arch = arches[a];
		o.kdb = db;
		assert_int_equal(ka_lint_new(&l, &o), KA_OK);
		assert_int_equal(ka_lint_run(l, paths, 1, &r), KA_OK);
		int pow = 0;
		for (size_t i = 0; i < r.findings.n; i++) {
			const ka_finding *f = &r.findings.v[i];
			if (strcmp(f->rule, "math-pow-small-integer") != 0 || a == 1) {
				assert_null(f->evidence);
				continue;
			}
			pow++;
			assert_non_null(f->evidence);
			assert_string_equal(f->evidence->text, text);
			assert_string_equal(f->evidence->arch, "sm_80");
			assert_int_equal(f->evidence->wins, 3);
			assert_true(f->evidence->median == sd.median);
			assert_true(f->estimate ==
				    ka_kdb_corrected_estimate(f->evidence->static_estimate, &sd));
			assert_true(f->estimate != f->evidence->static_estimate); /* the DB moved it */
		}
		if (a == 0)
			assert_int_equal(pow, 2);
		ka_lint_result_free(&r);
		ka_lint_free(l);
	}
	ka_kdb_close(db);
}

static void test_bad_input(void **state)
{
	fixture *fx = *state;
	char path[256], *log = NULL;
	size_t loglen = 0;
	FILE *m = open_memstream(&log, &loglen);
	ka_lint *l = new_lint(NULL, m);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	snprintf(path, sizeof path, "%s/missing.cu", fx->dir);
	const char *paths[] = {path, fx->file};
	assert_int_equal(ka_lint_run(l, paths, 2, &r), KA_OK); /* the other file still runs */
	fclose(m);
	assert_int_equal(r.failed, 1);
	assert_int_equal(count_rule(&r.findings, "math-pow-small-integer", 0), 2);
	assert_non_null(strstr(log, "kcheck: error: cannot read "));
	assert_non_null(strstr(log, "missing.cu: No such file or directory\n"));
	ka_lint_result_free(&r);
	assert_int_equal(ka_lint_run(l, NULL, 0, &r), KA_EINPUT);
	assert_non_null(strstr(ka_lint_error(l), "no input files"));
	ka_lint_free(l);
	free(log);
}

static void test_new_errors(void **state)
{
	ka_lint_opts o = KA_LINT_OPTS_INIT;
	ka_lint *l = (ka_lint *)(void *)&o; /* anything non-NULL: ka_lint_new resets it */
	const char *dirs[] = {FIXTURES "/badrules"};
	o.arch = "sm_1";
	assert_int_equal(ka_lint_new(&l, &o), KA_EINPUT);
	assert_null(l);
	assert_non_null(strstr(ka_lint_error(NULL), "unknown --arch 'sm_1' (known: sm_70 sm_75"));
	assert_non_null(strstr(ka_lint_error(NULL), " gfx1100)"));
	o.arch = NULL;
	o.rules_dirs = dirs, o.nrules_dirs = 1;
	assert_true(ka_lint_new(&l, &o) < 0);
	const char *msg = ka_lint_error(NULL);
	assert_non_null(strstr(msg, "sync-bad-rule.md:"));
	assert_int_equal(msg[strlen(msg) - 1], '\n'); /* rule problems: whole lines */
	o.rules_dirs = NULL, o.nrules_dirs = 0;
	o.checks = "-*,nosuchrule-*";
	assert_int_equal(ka_lint_new(&l, &o), KA_EINPUT);
	assert_string_equal(ka_lint_error(NULL),
			    "--checks: 'nosuchrule-*' matches no rule (see kcheck rules list)");
	o.checks = NULL;
	o.write_baseline = 1;
	assert_int_equal(ka_lint_new(&l, &o), KA_EINPUT);
	assert_string_equal(ka_lint_error(NULL), "--write-baseline needs --baseline FILE");
}

/* Fixes computed but nothing written: the texts and the patch say what
 * the gate accepted. */
static void test_fix_in_memory(void **state)
{
	fixture *fx = *state;
	ka_lint *l = new_lint(NULL, NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	ka_lint_fix_opts fo = KA_LINT_FIX_OPTS_INIT;
	const char *paths[] = {fx->file};
	char *before = read_file(fx->file);
	setenv("KCHECK_NVCC", fx->okcc, 1);
	fo.want_texts = fo.want_patch = 1;
	assert_int_equal(ka_lint_fix(l, paths, 1, &fo, &r), KA_OK);
	assert_int_equal(r.rounds, 1);
	assert_int_equal(r.fixes_applied, 2);
	assert_int_equal(r.ntexts, 1);
	assert_non_null(strstr(r.texts[0].after, "float dx2 = (dx * dx);"));
	assert_non_null(strstr(r.texts[0].after, "float dy2 = (dy * dy);"));
	assert_string_equal(r.texts[0].before, before);
	assert_non_null(r.patch);
	assert_non_null(strstr(r.patch, "+    float dx2 = (dx * dx);\n"));
	assert_non_null(strstr(r.patch, "-    float dx2 = powf(dx, 2.0f);\n"));
	const ka_finding *pow = NULL;
	for (size_t i = 0; i < r.findings.n; i++)
		if (strcmp(r.findings.v[i].rule, "math-pow-small-integer") == 0) {
			assert_int_equal(ka_lint_has_fix(l, &r.findings.v[i]), 1);
			pow = pow ? pow : &r.findings.v[i];
		}
	assert_non_null(pow);
	char *sarif = ka_lint_sarif_fixes(pow, l); /* SARIF `fixes` of the reported finding */
	assert_non_null(sarif);
	assert_non_null(strstr(sarif, "(dx * dx)"));
	free(sarif);
	char *after = read_file(fx->file);
	assert_string_equal(after, before); /* nothing written */
	free(after);
	/* only: fixes of other rules are applied, not these (r is reused:
	 * the run frees the last result) */
	fo.only = "gmem-*";
	assert_int_equal(ka_lint_fix(l, paths, 1, &fo, &r), KA_OK);
	assert_int_equal(r.fixes_applied, 0);
	assert_int_equal(r.ntexts, 0);
	ka_lint_result_free(&r);
	ka_lint_free(l);
	free(before);
}

/* --fix: written in place, analyzed again until nothing changes. */
static void test_fix_loop(void **state)
{
	fixture *fx = *state;
	ka_lint *l = new_lint(NULL, NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	ka_lint_fix_opts fo = KA_LINT_FIX_OPTS_INIT;
	const char *paths[] = {fx->file};
	setenv("KCHECK_NVCC", fx->okcc, 1);
	fo.write = 1;
	assert_int_equal(ka_lint_fix(l, paths, 1, &fo, &r), KA_OK);
	assert_int_equal(r.rounds, 2); /* the second round finds nothing to fix */
	assert_int_equal(r.fixes_applied, 2);
	assert_int_equal(count_rule(&r.findings, "math-pow-small-integer", 0), 0);
	char *text = read_file(fx->file);
	assert_non_null(strstr(text, "float dx2 = (dx * dx);"));
	assert_null(strstr(text, "powf"));
	free(text);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

/* A compiler that rejects the fixed file: nothing changes. */
static void test_fix_gate_rejects(void **state)
{
	fixture *fx = *state;
	ka_lint *l = new_lint(NULL, NULL);
	ka_lint_result r = KA_LINT_RESULT_INIT;
	ka_lint_fix_opts fo = KA_LINT_FIX_OPTS_INIT;
	const char *paths[] = {fx->file};
	char *before = read_file(fx->file);
	setenv("KCHECK_NVCC", fx->failcc, 1);
	fo.write = 1;
	fo.want_texts = 1;
	assert_int_equal(ka_lint_fix(l, paths, 1, &fo, &r), KA_OK);
	assert_int_equal(r.rounds, 1);
	assert_int_equal(r.fixes_applied, 0);
	assert_int_equal(r.fixes_rejected, 2);
	assert_int_equal(r.ntexts, 0);
	assert_int_equal(count_rule(&r.findings, "math-pow-small-integer", 0), 2);
	char *after = read_file(fx->file);
	assert_string_equal(after, before);
	free(after);
	free(before);
	ka_lint_result_free(&r);
	/* no compiler at all, with require_gate: an error */
	setenv("KCHECK_NVCC", "/nonexistent/nvcc", 1);
	setenv("PATH", "/nonexistent", 1);
	fo.require_gate = 1;
	assert_true(ka_lint_fix(l, paths, 1, &fo, &r) < 0);
	assert_true(strlen(ka_lint_error(l)) > 0);
	ka_lint_result_free(&r);
	ka_lint_free(l);
}

static void test_rule_examples(void **state)
{
	fixture *fx = *state;
	ka_lint *l = new_lint(NULL, NULL);
	ka_lint_test_counts c = {0, 0, 0};
	ka_buf log;
	ka_buf_init(&log, 1 << 20);
	/* bad, two good (a run-time base, a folded one) and fixed (the fix
	 * applied to bad must equal fixed) */
	assert_int_equal(ka_lint_test_rule(l, "math-pow-small-integer", NULL, &log, &c), KA_OK);
	assert_int_equal(c.failed, 0);
	assert_int_equal(c.passed, 4);
	assert_int_equal(log.len, 0);
	assert_int_equal(ka_lint_test_rule(l, "no-such-rule", fx->dir, &log, &c), KA_ENOTFOUND);
	ka_lint_free(l);

	/* a rule whose fixed example is wrong fails, naming the rule file's line */
	char rdir[256], rfile[300], *text;
	snprintf(rdir, sizeof rdir, "%s/rules", fx->dir);
	mkdir(rdir, 0755);
	snprintf(rfile, sizeof rfile, "%s/math-pow-small-integer.md", rdir);
	text = read_file(SOURCE_DIR "/rules/math/math-pow-small-integer.md");
	char *fixed = strstr(text, "```cuda fixed");
	assert_non_null(fixed);
	char *mul = strstr(fixed, "(dx * dx)");
	assert_non_null(mul);
	memcpy(mul, "(dx + dx)", 9);
	write_file(rfile, text, 0);
	free(text);
	ka_lint_opts o = KA_LINT_OPTS_INIT;
	const char *dirs[] = {rdir};
	o.rules_dirs = dirs, o.nrules_dirs = 1;
	assert_int_equal(ka_lint_new(&l, &o), KA_OK);
	c = (ka_lint_test_counts){0, 0, 0};
	ka_buf_reset(&log);
	assert_int_equal(ka_lint_test_rule(l, "math-pow-small-integer", NULL, &log, &c), KA_OK);
	assert_int_equal(c.failed, 1);
	assert_int_equal(c.passed, 3);
	assert_non_null(strstr(log.data, "math-pow-small-integer.md:"));
	assert_non_null(strstr(log.data, "fixed example differs from --fix applied to the bad example"));
	ka_lint_free(l);
	ka_buf_free(&log);
}

/* A rule may only demote its transform's fixes (the transform's ceiling
 * comes from the rewriter's registry); retired rules are skipped. */
static const char *claim_log(fixture *fx, const char *fields, ka_lint_test_counts *c)
{
	static char out[2048];
	char rdir[256], rfile[300], text[1024];
	snprintf(rdir, sizeof rdir, "%s/claims", fx->dir);
	mkdir(rdir, 0755);
	snprintf(rfile, sizeof rfile, "%s/gmem-claim.md", rdir);
	snprintf(text, sizeof text,
		 "---\nid: gmem-claim\ntitle: t\nseverity: note\ncategory: memory\n"
		 "scope: access\nwhere: \"0\"\nmessage: \"m\"\n%s---\nbody\n",
		 fields);
	write_file(rfile, text, 0);
	ka_lint_opts o = KA_LINT_OPTS_INIT;
	const char *dirs[] = {rdir};
	ka_lint *l = NULL;
	ka_buf log;
	o.rules_dirs = dirs, o.nrules_dirs = 1;
	assert_int_equal(ka_lint_new(&l, &o), KA_OK);
	ka_buf_init(&log, 1 << 16);
	*c = (ka_lint_test_counts){0, 0, 0};
	assert_int_equal(ka_lint_test_rule(l, "gmem-claim", fx->dir, &log, c), KA_OK);
	snprintf(out, sizeof out, "%s", log.data ? log.data : "");
	ka_buf_free(&log);
	ka_lint_free(l);
	return out;
}

static void test_rule_fix_claims(void **state)
{
	fixture *fx = *state;
	ka_lint_test_counts c;
	const char *log = claim_log(fx, "fix: privatize-atomics\nfix_safety: unsafe\n", &c);
	assert_non_null(strstr(log,
			       "gmem-claim.md:10: fix_safety: unsafe claims more than transform "
			       "privatize-atomics gives (suggest at best); a rule may only demote a fix\n"));
	assert_int_equal(c.failed, 2); /* the claim, and no examples */
	log = claim_log(fx, "fix: no-such-transform\nfix_safety: suggest\n", &c);
	assert_non_null(strstr(log, "gmem-claim.md:9: fix: no transform named 'no-such-transform'"));
	/* demoting is fine: a safe transform behind an unsafe rule */
	log = claim_log(fx, "fix: pow-to-multiply\nfix_safety: unsafe\n", &c);
	assert_null(strstr(log, "claims more"));
	assert_int_equal(c.failed, 1); /* only the missing examples */
	log = claim_log(fx, "status: retired\nfix: no-such-transform\n", &c);
	assert_string_equal(log, "gmem-claim: SKIP: retired (retired rules do not run)\n");
	assert_int_equal(c.skipped, 1);
	assert_int_equal(c.failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_run_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_checks_and_nolint, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evidence_lookup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_evidence_kdb, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
		cmocka_unit_test(test_new_errors),
		cmocka_unit_test_setup_teardown(test_fix_in_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fix_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rule_examples, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_helper_and_one_block, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cold_kernels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cold_through_calls, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cold_fixed_work, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sync_in_timed_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_odd_block_one_wave, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alloc_per_configuration, setup, teardown),
		cmocka_unit_test_setup_teardown(test_aos_field_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cmem_staging_copy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_mask_whole_groups, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pageable_pointer_element, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scan_across_warps_not_tree, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uniform_switch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_macro_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_kernel_macro_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_macro_two_thread_axes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uniform_loop_trips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lowp_severities, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lmem_severities, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rule_fix_claims, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fix_gate_rejects, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
