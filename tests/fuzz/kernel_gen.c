/* tests/fuzz/kernel_gen.c: grammar-driven generator of random CUDA/HIP
 * kernels (see kernel_gen.h).  Used by the libFuzzer target
 * (fuzz_analyzer.c) and by gen_kernels.c, which writes seed and smoke-test
 * files.
 *
 * The grammar aims at what the analyzer models: index expressions over
 * threadIdx/blockIdx/blockDim/gridDim, loop variables, parameters, macros
 * and locals (affine and not), 1-D/2-D/dynamic shared arrays, local arrays,
 * struct fields, branches of every uniformity, barriers in odd places,
 * early returns, atomics, math and warp intrinsics, device-function calls,
 * templates, __launch_bounds__, and launches with folded and run-time
 * configurations.  Choice 0 is always the simplest option, so the output
 * stays finite and complete when the bytes run out; recursion is bounded by
 * depth limits, so the output size is bounded too. */
#include "kernel_gen.h"
#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 3
#define MAX_STMTS 6
#define MAX_IVS 4

typedef struct gen {
	const uint8_t *p;
	size_t n, pos;
	ka_buf *out;
	int rc;
	int hip;
	int kernel; /* index of the kernel being written */
	int is_template;
	int has_helper;
	const char *ivs[MAX_IVS]; /* loop variables in scope */
	int n_ivs;
	int iv_serial;
	int loop_depth;
	int in_decl; /* writing the initializers of i and j */
} gen;

static const char *const iv_names[] = {"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"};

/* Next choice in [0, n); 0 once the input is exhausted. */
static unsigned pick(gen *g, unsigned n)
{
	if (n <= 1 || g->pos >= g->n)
		return 0;
	return g->p[g->pos++] % n;
}

static void emit(gen *g, const char *fmt, ...) KA_PRINTF(2, 3);
static void emit(gen *g, const char *fmt, ...)
{
	va_list ap;

	if (g->rc)
		return;
	va_start(ap, fmt);
	g->rc = ka_buf_vprintf(g->out, fmt, ap);
	va_end(ap);
}

static void indent(gen *g, int depth)
{
	for (int i = 0; i < depth + 1; i++)
		emit(g, "\t");
}

static void int_expr(gen *g, int depth);

static void int_leaf(gen *g)
{
	static const char *const leaves[] = {
		"threadIdx.x", "i",    "blockIdx.x", "threadIdx.y", "blockDim.x",  "n",
		"w",           "W",    "j",          "gridDim.x",   "threadIdx.z", "blockIdx.y",
		"blockDim.y",  "lane", "warp",       "(int)h[0]",
	};
	unsigned c = pick(g, 20);

	if (c < 16 && g->in_decl && (c == 1 || c == 8))
		emit(g, "threadIdx.x");
	else if (c < 16) {
		emit(g, "%s", leaves[c]);
	} else if (c < 18 && g->n_ivs > 0) {
		emit(g, "%s", g->ivs[pick(g, (unsigned)g->n_ivs)]);
	} else if (c == 18 && g->is_template) {
		emit(g, "B");
	} else {
		emit(g, "%u", pick(g, 34));
	}
}

static void int_expr(gen *g, int depth)
{
	static const char *const ops[] = {"+", "*", "-", "/", "%", "&", "<<", ">>", "^", "|"};
	unsigned c = depth >= MAX_DEPTH ? 0 : pick(g, 8);

	switch (c) {
	case 0:
	case 1:
		int_leaf(g);
		break;
	case 2:
	case 3:
	case 4: {
		unsigned op = pick(g, 10);
		emit(g, "(");
		int_expr(g, depth + 1);
		emit(g, " %s ", ops[op]);
		if (op == 3 || op == 4 || op >= 6)
			emit(g, "%u", 1 + pick(g, 33)); /* constant divisor/shift */
		else
			int_expr(g, depth + 1);
		emit(g, ")");
		break;
	}
	case 5:
		emit(g, "IDX(");
		int_expr(g, depth + 1);
		emit(g, ", ");
		int_expr(g, depth + 1);
		emit(g, ")");
		break;
	case 6:
		emit(g, "(");
		int_expr(g, depth + 1);
		emit(g, " < n ? ");
		int_expr(g, depth + 1);
		emit(g, " : ");
		int_expr(g, depth + 1);
		emit(g, ")");
		break;
	default:
		emit(g, "GTID");
		break;
	}
}

static void cond_expr(gen *g, int depth)
{
	static const char *const cmps[] = {"<", "==", ">=", "!=", ">"};
	unsigned c = depth >= MAX_DEPTH ? 0 : pick(g, 8);

	switch (c) {
	case 0:
	case 1:
		int_expr(g, depth + 1);
		emit(g, " %s ", cmps[pick(g, 5)]);
		int_expr(g, depth + 1);
		break;
	case 2:
		emit(g, "threadIdx.x %% %u == 0", 1 + pick(g, 64));
		break;
	case 3:
		emit(g, "threadIdx.x / 32 == %u", pick(g, 8));
		break;
	case 4:
		emit(g, "b[");
		int_expr(g, depth + 1);
		emit(g, "] > 0.0f");
		break;
	case 5:
		emit(g, "(");
		cond_expr(g, depth + 1);
		emit(g, ") %s (", pick(g, 2) ? "||" : "&&");
		cond_expr(g, depth + 1);
		emit(g, ")");
		break;
	case 6:
		emit(g, "USE_FAST");
		break;
	default:
		emit(g, "acc > %s", pick(g, 2) ? "1.0" : "0.5f");
		break;
	}
}

static void float_expr(gen *g, int depth);

static void float_access(gen *g, int depth)
{
	switch (pick(g, 8)) {
	case 0:
		emit(g, "b[");
		int_expr(g, depth + 1);
		emit(g, "]");
		break;
	case 1:
		emit(g, "a[");
		int_expr(g, depth + 1);
		emit(g, "]");
		break;
	case 2:
		emit(g, "sh[");
		int_expr(g, depth + 1);
		emit(g, " & 31][");
		int_expr(g, depth + 1);
		emit(g, " & 31]");
		break;
	case 3:
		emit(g, "ps[");
		int_expr(g, depth + 1);
		emit(g, "].%c", "xyzw"[pick(g, 4)]);
		break;
	case 4:
		emit(g, "cst[");
		int_expr(g, depth + 1);
		emit(g, " & 15]");
		break;
	case 5:
		emit(g, "loc[");
		int_expr(g, depth + 1);
		emit(g, " & 7]");
		break;
	case 6:
		emit(g, "dyn[");
		int_expr(g, depth + 1);
		emit(g, "]");
		break;
	default:
		emit(g, "v4[");
		int_expr(g, depth + 1);
		emit(g, "].%c", "xyzw"[pick(g, 4)]);
		break;
	}
}

static void float_call(gen *g, int depth)
{
	static const char *const fn1[] = {"expf", "__expf", "sqrtf", "logf", "fabsf", "__sinf"};

	switch (pick(g, 4)) {
	case 0:
		emit(g, "%s(", fn1[pick(g, 6)]);
		float_expr(g, depth + 1);
		emit(g, ")");
		break;
	case 1:
		emit(g, "powf(");
		float_expr(g, depth + 1);
		emit(g, ", %s)", pick(g, 2) ? "2.0f" : "0.5");
		break;
	case 2:
		if (g->has_helper) {
			emit(g, "load_strided(b, ");
			int_expr(g, depth + 1);
			emit(g, ", %u)", pick(g, 40));
		} else {
			emit(g, "acc");
		}
		break;
	default:
		emit(g, "__shfl_down_sync(0xffffffffu, ");
		float_expr(g, depth + 1);
		emit(g, ", %u)", 1u << pick(g, 5));
		break;
	}
}

static void float_expr(gen *g, int depth)
{
	static const char *const lits[] = {"1.0f", "0.5", "2.0f", "3", "1e-3f", "0.25"};
	unsigned c = depth >= MAX_DEPTH ? 0 : pick(g, 7);

	switch (c) {
	case 0:
		float_access(g, depth);
		break;
	case 1:
		emit(g, "acc");
		break;
	case 2:
		emit(g, "%s", lits[pick(g, 6)]);
		break;
	case 3:
	case 4:
		emit(g, "(");
		float_expr(g, depth + 1);
		emit(g, " %c ", "+-*"[pick(g, 3)]);
		float_expr(g, depth + 1);
		emit(g, ")");
		break;
	case 5:
		float_call(g, depth);
		break;
	default:
		emit(g, "(float)(");
		int_expr(g, depth + 1);
		emit(g, ")");
		break;
	}
}

static void block(gen *g, int depth);

static void for_loop(gen *g, int depth)
{
	const char *iv = iv_names[g->iv_serial++ % 8];
	unsigned c = pick(g, 6);

	if (c == 1)
		emit(g, "#pragma unroll\n");
	else if (c == 2)
		emit(g, "#pragma unroll %u\n", 1 + pick(g, 8));
	indent(g, depth);
	switch (pick(g, 5)) {
	case 0:
		emit(g, "for (int %s = 0; %s < %u; ++%s)", iv, iv, pick(g, 40), iv);
		break;
	case 1:
		emit(g, "for (int %s = GTID; %s < n; %s += blockDim.x * gridDim.x)", iv, iv, iv);
		break;
	case 2:
		emit(g, "for (int %s = blockDim.x / 2; %s > 0; %s >>= 1)", iv, iv, iv);
		break;
	case 3:
		emit(g, "for (int %s = ", iv);
		int_expr(g, depth + 1);
		emit(g, "; %s < w; %s += %u)", iv, iv, 1 + pick(g, 8));
		break;
	default:
		emit(g, "for (unsigned %s = %u; %s > 0; --%s)", iv, pick(g, 20), iv, iv);
		break;
	}
	if (g->n_ivs < MAX_IVS)
		g->ivs[g->n_ivs++] = iv;
	emit(g, " ");
	g->loop_depth++;
	block(g, depth);
	g->loop_depth--;
	if (g->n_ivs > 0 && g->ivs[g->n_ivs - 1] == iv)
		g->n_ivs--;
}

static void store_stmt(gen *g, int depth)
{
	static const char *const ops[] = {"=", "+=", "*="};

	indent(g, depth);
	switch (pick(g, 5)) {
	case 0:
		emit(g, "a[");
		int_expr(g, depth + 1);
		emit(g, "]");
		break;
	case 1:
		emit(g, "sh[threadIdx.y & 31][");
		int_expr(g, depth + 1);
		emit(g, " & 31]");
		break;
	case 2:
		emit(g, "loc[");
		int_expr(g, depth + 1);
		emit(g, " & 7]");
		break;
	case 3:
		emit(g, "ps[");
		int_expr(g, depth + 1);
		emit(g, "].%c", "xyzw"[pick(g, 4)]);
		break;
	default:
		emit(g, "dyn[");
		int_expr(g, depth + 1);
		emit(g, "]");
		break;
	}
	emit(g, " %s ", ops[pick(g, 3)]);
	float_expr(g, depth + 1);
	emit(g, ";\n");
}

static void simple_stmt(gen *g, int depth, unsigned c)
{
	indent(g, depth);
	switch (c) {
	case 0:
		emit(g, "acc += ");
		float_expr(g, depth + 1);
		emit(g, ";\n");
		break;
	case 1:
		emit(g, "__syncthreads();\n");
		break;
	case 2:
		emit(g, "atomicAdd(&h[");
		int_expr(g, depth + 1);
		emit(g, " & 255], 1);\n");
		break;
	case 3:
		emit(g, "atomicAdd(&a[");
		int_expr(g, depth + 1);
		emit(g, "], acc);\n");
		break;
	case 4:
		emit(g, "i = ");
		int_expr(g, depth + 1);
		emit(g, ";\n");
		break;
	case 5:
		emit(g, "{ int k = ");
		int_expr(g, depth + 1);
		emit(g, "; acc += b[k]; }\n");
		break;
	case 6:
		emit(g, "{ float *p = a + ");
		int_expr(g, depth + 1);
		emit(g, "; p[threadIdx.x] = acc; }\n");
		break;
	case 7:
		emit(g, "__syncwarp();\n");
		break;
	case 8:
		emit(g, "__threadfence();\n");
		break;
	default:
		emit(g, "while (acc > 100.0f) acc *= 0.5f;\n");
		break;
	}
}

static void stmt(gen *g, int depth)
{
	unsigned c = depth >= MAX_DEPTH ? pick(g, 2) : pick(g, 16);

	if (c <= 1) {
		store_stmt(g, depth);
	} else if (c <= 3) {
		indent(g, depth);
		emit(g, "if (");
		cond_expr(g, depth + 1);
		emit(g, ") ");
		block(g, depth);
		if (pick(g, 2)) {
			indent(g, depth);
			emit(g, "else ");
			block(g, depth);
		}
	} else if (c <= 5) {
		for_loop(g, depth);
	} else if (c == 6) {
		indent(g, depth);
		emit(g, "if (");
		cond_expr(g, depth + 1);
		emit(g, ")\n");
		indent(g, depth + 1);
		emit(g, "return;\n");
	} else if (c == 7) {
		indent(g, depth);
		emit(g, "switch ((");
		int_expr(g, depth + 1);
		emit(g, ") & 3) {\n");
		indent(g, depth);
		emit(g, "case 0: acc += 1.0f; break;\n");
		indent(g, depth);
		emit(g, "default: acc -= 1.0f; break;\n");
		indent(g, depth);
		emit(g, "}\n");
	} else {
		simple_stmt(g, depth, c - 8);
	}
}

static void block(gen *g, int depth)
{
	unsigned n = 1 + pick(g, MAX_STMTS);

	emit(g, "{\n");
	for (unsigned k = 0; k < n && !g->rc; k++)
		stmt(g, depth + 1);
	indent(g, depth);
	emit(g, "}\n");
}

static void prologue(gen *g)
{
	emit(g, "/* generated by tests/fuzz/kernel_gen.c */\n");
	if (g->hip)
		emit(g, "#include <hip/hip_runtime.h>\n");
	emit(g, "#define W %u\n", 1 + pick(g, 128));
	emit(g, "#define USE_FAST %u\n", pick(g, 2));
	emit(g, "#define IDX(r, c) ((r) * W + (c))\n");
	emit(g, "#define GTID (blockIdx.x * blockDim.x + threadIdx.x)\n");
	emit(g, "struct P { float x, y, z, w; };\n");
	emit(g, "__constant__ float cst[16];\n");
	g->has_helper = (int)pick(g, 2);
	if (g->has_helper)
		emit(g, "__device__ float load_strided(const float *p, int i, int s)\n"
			"{\n\treturn p[i * s];\n}\n");
}

static void kernel(gen *g)
{
	unsigned lb = pick(g, 4);

	g->is_template = pick(g, 4) == 1;
	g->n_ivs = 0;
	if (g->is_template)
		emit(g, "template <int B>\n");
	emit(g, "__global__ void ");
	if (lb == 1)
		emit(g, "__launch_bounds__(%u) ", 32u << pick(g, 6));
	else if (lb == 2)
		emit(g, "__launch_bounds__(%u, %u) ", 32u << pick(g, 6), 1 + pick(g, 4));
	emit(g, "k%d(float *a, const float *b, P *ps, const float4 *v4, int *h, int n, int w)\n{\n",
	     g->kernel);
	emit(g, "\t__shared__ float sh[32][%u];\n", 32 + pick(g, 2));
	emit(g, "\textern __shared__ float dyn[];\n");
	emit(g, "\tfloat loc[8];\n");
	emit(g, "\tint lane = threadIdx.x %% 32, warp = threadIdx.x / 32;\n");
	g->in_decl = 1;
	emit(g, "\tint i = ");
	int_expr(g, 1);
	emit(g, ";\n\tint j = ");
	int_expr(g, 1);
	emit(g, ";\n");
	g->in_decl = 0;
	emit(g, "\tfloat acc = loc[0] = 0.0f;\n");
	for (unsigned k = 0, n = 1 + pick(g, MAX_STMTS); k < n && !g->rc; k++)
		stmt(g, 0);
	emit(g, "\ta[i] = acc + sh[lane][warp] + (float)(j + lane + warp);\n}\n\n");
}

static void launch(gen *g, int k, int is_template)
{
	static const char *const grids[] = {"(n + 255) / 256", "dim3(64, 2)", "g", "1"};
	static const char *const blocks[] = {"256",   "dim3(32, 8)",     "threads",
					     "BLOCK", "dim3(16, 16, 1)", "128"};
	const char *grid = grids[pick(g, 4)], *blk = blocks[pick(g, 6)];
	unsigned smem = pick(g, 3) * 1024;
	char name[32];

	if (is_template)
		snprintf(name, sizeof name, "k%d<%u>", k, 32u << pick(g, 4));
	else
		snprintf(name, sizeof name, "k%d", k);
	emit(g, "\t");
	if (g->hip)
		emit(g, "hipLaunchKernelGGL(%s, dim3(%s), dim3(%s), %u, 0, ", name, grid, blk, smem);
	else
		emit(g, "%s<<<%s, %s, %u>>>(", name, grid, blk, smem);
	emit(g, "a, b, ps, v4, h, n, w);\n");
	if (pick(g, 3) == 1)
		emit(g, "\tfor (int r = 0; r < 3; ++r)\n\t\t%s<<<1, 32>>>(a, b, ps, v4, h, n, w);\n", name);
}

int ka_fuzzgen_source(const uint8_t *data, size_t size, int hip, ka_buf *out)
{
	gen g = {.p = data, .n = size, .out = out, .hip = hip};
	int nk = 1 + (int)pick(&g, 3), templ[4] = {0};

	prologue(&g);
	for (g.kernel = 0; g.kernel < nk && !g.rc; g.kernel++) {
		kernel(&g);
		templ[g.kernel] = g.is_template;
	}
	emit(&g, "#define BLOCK %u\n", 32u << pick(&g, 5));
	emit(&g, "void launch_all(float *a, const float *b, P *ps, const float4 *v4, int *h,\n"
		 "\tint n, int w, int g, int threads)\n{\n");
	for (int k = 0; k < nk && !g.rc; k++)
		launch(&g, k, templ[k]);
	emit(&g, "}\n");
	return g.rc;
}
