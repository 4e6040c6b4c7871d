/* tests/analyzer/test_kmodel.c: the kernel model for rewriting
 * (analyzer/kmodel.h).  Many spellings of one pattern must land in one
 * model; what cannot be modelled must say which construct. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "analyzer/kmodel.h"

static ka_kmodel_doc doc;

static const ka_kmodel *model(const char *src)
{
	ka_kmodel_free(&doc);
	int rc = ka_kmodel_of_text(src, strlen(src), "cuda", "k", NULL, NULL, 0, &doc);
	if (rc)
		fprintf(stderr, "no model for:\n%s\n", src);
	assert_int_equal(rc, 0);
	return doc.km;
}

static const char *text(const ka_kmodel *m, int b, int e, const char *src)
{
	static char buf[256];
	(void)m;
	snprintf(buf, sizeof buf, "%.*s", e - b, src + b);
	return buf;
}

/* One thread per row summing its columns, spelled eight ways. */
static void row_sum_spellings(void **state)
{
	(void)state;
	static const char *const src[] = {
		"__global__ void k(const float *x, float *y, long long rows, long long cols) {\n"
		"  long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
		"  if (r >= rows) return;\n"
		"  float s = 0.0f;\n"
		"  for (long long j = 0; j < cols; j++) s += x[r * cols + j];\n"
		"  y[r] = s;\n}\n",
		"__global__ void k(const float *x, float *y, int rows, int cols) {\n"
		"  int r = threadIdx.x + blockDim.x * blockIdx.x;\n"
		"  if (r < rows) {\n"
		"    float s = 0.f;\n"
		"    for (int j = 0; j < cols; ++j) { s = s + x[r * cols + j]; }\n"
		"    y[r] = s;\n  }\n}\n",
		"__global__ void k(const float *x, float *y, size_t rows, size_t cols) {\n"
		"  const size_t b = blockIdx.x, t = threadIdx.x;\n"
		"  const size_t r = b * blockDim.x + t;\n"
		"  if (rows <= r) { return; }\n"
		"  float s = 0;\n"
		"  for (size_t j = 0; j < cols; j += 1) s = x[r * cols + j] + s;\n"
		"  y[r] = s;\n}\n",
		"#define BS 256\n"
		"__global__ void k(const float *x, float *y, int rows, int cols) {\n"
		"  int base = blockIdx.x * blockDim.x;\n"
		"  int r = (int)(base + threadIdx.x);\n"
		"  if (rows > r) {\n"
		"    const float *p = x + (size_t)r * cols;\n"
		"    float s = 0.0f;\n"
		"    for (int j = 0; cols > j; j++) s += p[j];\n"
		"    y[r] = s;\n  }\n}\n",
	};
	for (size_t i = 0; i < sizeof src / sizeof src[0]; i++) {
		const ka_kmodel *m = model(src[i]);
		const ka_km_index *ix = ka_kmodel_guarded_index(m);
		assert_non_null(ix);
		assert_string_equal(ix->name, "r");
		assert_int_equal(ix->kind, KM_IX_GLOBAL);
		assert_int_equal(ix->axis, 0);
		assert_string_equal(m->guard.bound, "rows");
		assert_non_null(m->guard.bound_param);
		assert_int_equal(m->nloops, 1);
		assert_string_equal(m->loops[0].var, "j");
		assert_string_equal(m->loops[0].bound, "cols");
		assert_int_equal(m->loops[0].step, 1);
		const ka_km_acc *a = ka_kmodel_acc(m, "s");
		assert_non_null(a);
		assert_int_equal(a->red, KM_RED_SUM);
		assert_int_equal(a->loop, 0);
		assert_string_equal(m->why, "");
		/* the guard's offsets delimit what it guards */
		if (m->guard.form == KM_GUARD_BLOCK)
			assert_non_null(
				strstr(text(m, m->guard.body_begin, m->guard.body_end, src[i]), "y[r] = s;"));
		else
			assert_non_null(strstr(text(m, m->guard.begin, m->guard.end, src[i]), "return;"));
	}
}

/* max in four spellings, min, product and count. */
static void reductions_by_semantics(void **state)
{
	(void)state;
	static const char *const maxes[] = {"m = fmaxf(m, x[j]);",     "m = fmaxf(x[j], m);",
					    "m = max(m, x[j]);",       "m = x[j] > m ? x[j] : m;",
					    "if (x[j] > m) m = x[j];", "if (m < x[j]) { m = x[j]; }"};
	char src[1024];
	for (size_t i = 0; i < sizeof maxes / sizeof maxes[0]; i++) {
		snprintf(src, sizeof src,
			 "__global__ void k(const float *x, float *y, int n) {\n"
			 "  float m = -INFINITY;\n  for (int j = 0; j < n; j++) %s\n  y[0] = m;\n}\n",
			 maxes[i]);
		const ka_kmodel *m = model(src);
		const ka_km_acc *a = ka_kmodel_acc(m, "m");
		assert_non_null(a);
		assert_int_equal(a->red, KM_RED_MAX);
	}
	const ka_kmodel *m = model(
		"__global__ void k(const float *x, float *y, int n) {\n"
		"  float lo = 1e30f, p = 1.0f; int c = 0;\n"
		"  for (int j = 0; j < n; j++) {\n"
		"    lo = fminf(lo, x[j]);\n    p *= x[j];\n    if (x[j] > 0.5f) c++;\n  }\n"
		"  y[0] = lo + p + c;\n}\n");
	assert_int_equal(ka_kmodel_acc(m, "lo")->red, KM_RED_MIN);
	assert_int_equal(ka_kmodel_acc(m, "p")->red, KM_RED_PROD);
	assert_int_equal(ka_kmodel_acc(m, "c")->red, KM_RED_COUNT);
}

/* argmax and argmin as (value, index) pairs with their tie rule. */
static void argmax_pairs(void **state)
{
	(void)state;
	const ka_kmodel *m = model("__global__ void k(const float *x, int *out, size_t rows, size_t cols) {\n"
				   "  size_t row = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n"
				   "  if (row >= rows) return;\n"
				   "  const float *r = x + row * cols;\n"
				   "  float best = r[0]; int at = 0;\n"
				   "  for (size_t j = 1; j < cols; ++j) {\n"
				   "    if (r[j] > best) { best = r[j]; at = (int)j; }\n  }\n"
				   "  out[row] = at;\n}\n");
	const ka_km_acc *a = ka_kmodel_acc(m, "best");
	assert_non_null(a);
	assert_int_equal(a->red, KM_RED_ARGMAX);
	assert_string_equal(a->index, "at");
	assert_true(a->tie_first);
	assert_string_equal(m->loops[0].start, "1");
	m = model("__global__ void k(const float *x, int *out, int n) {\n"
		  "  float v = 1e30f; int at = -1;\n"
		  "  for (int j = 0; j < n; j++) if (v >= x[j]) { at = j; v = x[j]; }\n"
		  "  out[0] = at;\n}\n");
	a = ka_kmodel_acc(m, "v");
	assert_non_null(a);
	assert_int_equal(a->red, KM_RED_ARGMIN);
	assert_string_equal(a->index, "at");
	assert_false(a->tie_first); /* >=: the last of equal values wins */
}

/* mean/variance: sum with sum of squares, and Welford. */
static void mean_and_variance(void **state)
{
	(void)state;
	const ka_kmodel *m = model("__global__ void k(const float *x, float *y, int n) {\n"
				   "  float s = 0.0f, ss = 0.0f;\n"
				   "  for (int j = 0; j < n; j++) { float v = x[j]; s += v; ss += v * v; }\n"
				   "  y[0] = ss / n - (s / n) * (s / n);\n}\n");
	assert_int_equal(ka_kmodel_acc(m, "s")->red, KM_RED_SUM);
	assert_string_equal(ka_kmodel_acc(m, "ss")->sumsq_of, "s");
	assert_string_equal(ka_kmodel_acc(m, "s")->partner, "ss");
	m = model(
		"__global__ void k(const float *x, float *y, int n) {\n"
		"  float mean = 0.0f, m2 = 0.0f; int cnt = 0;\n"
		"  for (int j = 0; j < n; j++) {\n"
		"    cnt++;\n    float d = x[j] - mean;\n    mean += d / cnt;\n    m2 += d * (x[j] - mean);\n  }\n"
		"  y[0] = m2 / cnt;\n}\n");
	assert_int_equal(ka_kmodel_acc(m, "cnt")->red, KM_RED_COUNT);
	assert_int_equal(ka_kmodel_acc(m, "mean")->red, KM_RED_WELFORD);
	assert_int_equal(ka_kmodel_acc(m, "m2")->red, KM_RED_WELFORD);
	assert_string_equal(ka_kmodel_acc(m, "mean")->partner, "m2");
	assert_string_equal(m->why, "");
}

/* The online max-and-sum of softmax. */
static void online_softmax(void **state)
{
	(void)state;
	const ka_kmodel *m = model("__global__ void k(const float *x, float *y, int n) {\n"
				   "  float mx = -INFINITY, sum = 0.0f;\n"
				   "  for (int j = 0; j < n; j++) {\n"
				   "    float mnew = fmaxf(mx, x[j]);\n"
				   "    sum = sum * expf(mx - mnew) + expf(x[j] - mnew);\n"
				   "    mx = mnew;\n  }\n"
				   "  y[0] = sum;\n}\n");
	assert_int_equal(ka_kmodel_acc(m, "mx")->red, KM_RED_MAX);
	const ka_km_acc *s = ka_kmodel_acc(m, "sum");
	assert_int_equal(s->red, KM_RED_ONLINE_SOFTMAX);
	assert_string_equal(s->partner, "mx");
}

/* A chunk partial declared outside its loop, reset in the outer one. */
static void chunk_partial(void **state)
{
	(void)state;
	const ka_kmodel *m = model("__global__ void k(const float *x, float *y, int n) {\n"
				   "  float part; float total = 0.0f;\n"
				   "  for (int c = 0; c < n; c += 64) {\n"
				   "    part = 0.0f;\n"
				   "    for (int j = c; j < c + 64 && j < n; j++) part += x[j];\n"
				   "    total += part;\n  }\n"
				   "  y[0] = total;\n}\n");
	const ka_km_acc *p = ka_kmodel_acc(m, "part");
	assert_non_null(p);
	assert_int_equal(p->red, KM_RED_SUM);
	assert_true(p->partial);
	assert_int_equal(p->reset_loop, 0);
	assert_int_equal(p->loop, 1);
	assert_int_equal(ka_kmodel_acc(m, "total")->loop, 0);
	assert_false(ka_kmodel_acc(m, "total")->partial);
	assert_int_equal(m->loops[0].step, 64);
	assert_int_equal(m->loops[1].parent, 0);
}

/* Trip counts from literals, const variables and macros; grid-stride loops. */
static void loops_and_trip_counts(void **state)
{
	(void)state;
	const ka_kmodel *m = model(
		"#define N 128\n"
		"constexpr int W = 32;\n"
		"__global__ void k(float *y, int n) {\n"
		"  const int bs = 256;\n"
		"  for (int a = 0; a < N; a++) y[a] = 0;\n"
		"  for (int b = 0; b < bs; b += W) y[b] = 1;\n"
		"  for (int c = 3; c <= 10; c += 2) y[c] = 2;\n"
		"  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
		"    y[i] *= 2.0f;\n}\n");
	assert_int_equal(m->nloops, 4);
	assert_int_equal(m->loops[0].trips, 128);
	assert_int_equal(m->loops[1].trips, 8);
	assert_int_equal(m->loops[2].trips, 4);
	assert_int_equal(m->loops[3].trips, -1);
	assert_true(m->loops[3].grid_stride);
	assert_false(m->loops[0].grid_stride);
	assert_true(m->uses_griddim);
}

/* What cannot be modelled names the construct. */
static void declines_name_the_construct(void **state)
{
	(void)state;
	const ka_kmodel *m = model("__global__ void k(const float *x, float *y, int n) {\n"
				   "  float s = 0.0f;\n"
				   "  for (int j = 0; j < n; j++) s = s * s - x[j];\n"
				   "  y[0] = s;\n}\n");
	assert_non_null(strstr(m->why, "cannot model the update 's = s * s - x[j]' of s"));
	m = model("__global__ void k(const float *x, float *y, int n) {\n"
		  "  int j = 0; float s = 0.0f;\n"
		  "  while (j < n) { s += x[j]; j++; }\n"
		  "  y[0] = s;\n}\n");
	assert_non_null(strstr(m->why, "while loop"));
	m = model("__global__ void k(const float *x, float *y, int n) {\n"
		  "  float s = 0.0f;\n"
		  "  for (int j = 0; j < n; j++) { s += x[j]; s = fmaxf(s, 0.0f); }\n"
		  "  y[0] = s;\n}\n");
	assert_non_null(strstr(m->why, "s is updated as sum and as max"));
	/* a guard that is not a bound on an index is no guard */
	m = model("__global__ void k(const float *x, float *y, int n) {\n"
		  "  if (n < 4) return;\n  y[threadIdx.x] = x[threadIdx.x];\n}\n");
	assert_int_equal(m->guard.form, KM_GUARD_NONE);
	ka_kmodel_doc d;
	assert_int_not_equal(
		ka_kmodel_of_text("__global__ void q() {}\n", 22, "cuda", "k", NULL, NULL, 0, &d), 0);
}

/* 2-D indices and block/thread indices. */
static void index_kinds(void **state)
{
	(void)state;
	const ka_kmodel *m = model("__global__ void k(float *y, int h, int w) {\n"
				   "  int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
				   "  int row = blockDim.y * blockIdx.y + threadIdx.y;\n"
				   "  int t = threadIdx.x; int b = blockIdx.y;\n"
				   "  int flat = row * w + col;\n"
				   "  if (row >= h) return;\n"
				   "  y[flat] = t + b;\n}\n");
	assert_int_equal(m->nidx, 5);
	assert_int_equal(m->idx[0].kind, KM_IX_GLOBAL);
	assert_int_equal(m->idx[0].axis, 0);
	assert_int_equal(m->idx[1].kind, KM_IX_GLOBAL);
	assert_int_equal(m->idx[1].axis, 1);
	assert_int_equal(m->idx[2].kind, KM_IX_THREAD);
	assert_int_equal(m->idx[3].kind, KM_IX_BLOCK);
	assert_int_equal(m->idx[3].axis, 1);
	assert_int_equal(m->idx[4].kind, KM_IX_OTHER);
	assert_string_equal(ka_kmodel_guarded_index(m)->name, "row");
}

/* An index K times the global one, K folded from a literal, a constexpr
 * member or a #define, in any order of its terms: scale K, kind OTHER (it
 * is no one-element-per-thread index); anything else scales nothing. */
static void scaled_index(void **state)
{
	(void)state;
	static const struct {
		const char *init;
		int64_t scale;
	} cases[] = {
		{"(blockIdx.x * blockDim.x + threadIdx.x) * 8", 8},
		{"P::size * (threadIdx.x + blockDim.x * blockIdx.x)", 4},
		{"blockIdx.x * blockDim.x * 2 + threadIdx.x * 2", 2},
		{"((long long)blockIdx.x * blockDim.x + threadIdx.x) * W", 16},
		{"blockIdx.x * blockDim.x + threadIdx.x", 0},
		{"(blockIdx.x * blockDim.x + threadIdx.x) * 8 + 1", 0},
		{"blockIdx.x * blockDim.x * 4 + threadIdx.x", 0},
		{"(blockIdx.x * blockDim.x + threadIdx.x) * n", 0},
		{"(blockIdx.x * blockDim.x + threadIdx.x) * 8192", 0},
	};
	char src[600];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(src, sizeof src,
			 "#define W 16\nstruct P { static constexpr int size = 4; };\n"
			 "__global__ void k(float *y, int n) {\n  long long i = %s;\n"
			 "  if (i >= n) return;\n  y[i] = 1.0f;\n}\n",
			 cases[i].init);
		const ka_kmodel *m = model(src);
		const ka_km_index *ix = ka_kmodel_guarded_index(m);
		assert_non_null(ix);
		assert_int_equal(ix->kind, cases[i].scale || i == 5 || i == 6 || i == 7 || i == 8
						   ? KM_IX_OTHER
						   : KM_IX_GLOBAL);
		if (ix->scale != cases[i].scale)
			fail_msg("'%s': scale %lld, not %lld", cases[i].init, (long long)ix->scale,
				 (long long)cases[i].scale);
		assert_int_equal(ix->axis, 0);
	}
}

/* A grid-stride loop over the rows is the guard of what it walks, in each
 * spelling of its start and step; one that strides by anything else is not. */
static void grid_stride_guard(void **state)
{
	(void)state;
	static const char *const loops[] = {
		"for (long r = blockIdx.x * (long)blockDim.x + threadIdx.x; r < rows; r += (long)blockDim.x * gridDim.x)",
		"const long long step = (long long)gridDim.x * blockDim.x;\n"
		"  for (long long r = threadIdx.x + blockDim.x * blockIdx.x; r < rows; r += step)",
		"const size_t b = blockIdx.x, t = threadIdx.x;\n"
		"  for (size_t r = t + b * blockDim.x; (size_t)rows > r; r = r + gridDim.x * blockDim.x)",
	};
	char src[1024];
	for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
		snprintf(src, sizeof src,
			 "__global__ void k(const float *x, float *y, long rows, long cols) {\n  %s {\n"
			 "    float s = 0.0f;\n    for (long j = 0; j < cols; j++) s += x[r * cols + j];\n"
			 "    y[r] = s;\n  }\n}\n",
			 loops[i]);
		const ka_kmodel *m = model(src);
		assert_int_equal(m->guard.form, KM_GUARD_STRIDE);
		const ka_km_index *ix = ka_kmodel_guarded_index(m);
		assert_non_null(ix);
		assert_string_equal(ix->name, "r");
		assert_int_equal(ix->kind, KM_IX_GLOBAL);
		assert_string_equal(m->guard.bound, "rows");
		assert_non_null(m->guard.bound_param);
		assert_int_equal(m->guard.loop, 0);
		assert_string_equal(
			text(m, m->guard.body_begin, m->guard.body_end, src) +
				strspn(text(m, m->guard.body_begin, m->guard.body_end, src), " \n"),
			"float s = 0.0f;\n    for (long j = 0; j < cols; j++) s += x[r * cols + j];\n"
			"    y[r] = s;\n  ");
		assert_int_equal(m->naccs, 1);
	}
	/* half a grid per step, or the loop not the body's last statement: no guard */
	const ka_kmodel *m = model(
		"__global__ void k(float *y, int n) {\n"
		"  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x)\n"
		"    y[i] = 0.0f;\n}\n");
	assert_int_equal(m->guard.form, KM_GUARD_NONE);
	m = model(
		"__global__ void k(float *y, int n) {\n"
		"  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
		"    y[i] = 0.0f;\n  y[0] = 1.0f;\n}\n");
	assert_int_equal(m->guard.form, KM_GUARD_NONE);
}

/* Guards bounded by a product of parameters, directly or through a local,
 * and pointer locals at a parameter plus an offset: the flat index split
 * into (b, t, c) and put back together is the index itself. */
static void product_bounds_and_pointers(void **state)
{
	(void)state;
	const ka_kmodel *m = model("__global__ void k(float *out, const int *inp, const float *wte,\n"
				   "                  const float *wpe, int B, int T, int C) {\n"
				   "  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n"
				   "  int N = B * T * C;\n"
				   "  if (idx < N) {\n"
				   "    int bt = idx / C; int b = bt / T; int t = bt % T; int c = idx % C;\n"
				   "    int ix = inp[b * T + t];\n"
				   "    float *out_btc = out + b * T * C + t * C + c;\n"
				   "    const float *wte_ix = wte + ix * C + c;\n"
				   "    const float *wpe_tc = &wpe[t * C + c];\n"
				   "    const float *wrong = out_btc - c;\n"
				   "    *out_btc = *wte_ix + *wpe_tc + *wrong;\n  }\n}\n");
	assert_int_equal(m->guard.form, KM_GUARD_BLOCK);
	assert_string_equal(m->guard.bound, "N");
	assert_null(m->guard.bound_param);
	assert_non_null(m->guard.bound_value);
	assert_non_null(strstr(m->guard.bound_value, "B"));
	assert_non_null(strstr(m->guard.bound_value, "C"));
	assert_int_equal(m->nptrs, 4);
	const ka_km_ptr *o = ka_kmodel_ptr(m, "out_btc"), *e = ka_kmodel_ptr(m, "wte_ix"),
			*p = ka_kmodel_ptr(m, "wpe_tc"), *w = ka_kmodel_ptr(m, "wrong");
	assert_non_null(o);
	assert_string_equal(o->base, "out");
	assert_int_equal(o->is_index, 1);
	assert_string_equal(e->base, "wte");
	assert_int_equal(e->is_index, 0);
	assert_string_equal(p->base, "wpe");
	assert_int_equal(p->is_index, 0);
	assert_string_equal(w->base, "out");
	assert_int_equal(w->is_index, 0);
	/* B * T written in the test; a bound that reads a load is no product of parameters */
	m = model("__global__ void k(float *l, const float *p, const int *g, int B, int T, int V) {\n"
		  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		  "  if (i < B * T) { l[i] = p[i * V + g[i]]; }\n}\n");
	assert_non_null(m->guard.bound_value);
	m = model("__global__ void k(float *l, const int *g, int B) {\n"
		  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		  "  int n = g[0] * B;\n"
		  "  if (i >= n) return;\n  l[i] = 0.0f;\n}\n");
	assert_int_equal(m->guard.form, KM_GUARD_RETURN);
	assert_null(m->guard.bound_value);
}

static int teardown(void **state)
{
	(void)state;
	ka_kmodel_free(&doc);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(row_sum_spellings, teardown),
		cmocka_unit_test_teardown(reductions_by_semantics, teardown),
		cmocka_unit_test_teardown(argmax_pairs, teardown),
		cmocka_unit_test_teardown(mean_and_variance, teardown),
		cmocka_unit_test_teardown(online_softmax, teardown),
		cmocka_unit_test_teardown(chunk_partial, teardown),
		cmocka_unit_test_teardown(loops_and_trip_counts, teardown),
		cmocka_unit_test_teardown(declines_name_the_construct, teardown),
		cmocka_unit_test_teardown(index_kinds, teardown),
		cmocka_unit_test_teardown(scaled_index, teardown),
		cmocka_unit_test_teardown(grid_stride_guard, teardown),
		cmocka_unit_test_teardown(product_bounds_and_pointers, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
