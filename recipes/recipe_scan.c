/* recipes/recipe_scan.c: the parallel-scan recipe (rule launch-small-grid).
 * A kernel launched <<<1, 1>>> whose one thread walks a prefix sum,
 *     unsigned s = 0;
 *     for (long long b = 0; b < m; b++) { unsigned t = a[b]; a[b] = s; s += t; }
 * leaves the whole GPU but one lane idle for m dependent steps.  The recipe
 * runs it on one block of P threads: thread j takes a contiguous chunk of
 * the elements and sums it, the block scans the chunk sums (warp shuffles,
 * then the warp totals through shared memory), and each thread runs the
 * original loop body over its chunk with s starting at the sum of the
 * chunks before it.  Reusing the body keeps its meaning: exclusive or
 * inclusive, in place or into another array.  The launch becomes
 * <<<1, P>>>.
 *
 * What it proves first, else it declines: every launch of the kernel is
 * <<<1, 1>>>; the body is exactly `T s = 0;` and
 * `for (I b = 0; b < PARAM; b++) { ... }` with PARAM an integer parameter
 * (s and b name no parameter); the loop body is one of
 *     T t = A[b]; O[b] = s; s += t;      O[b] = s; s += A[b];   (exclusive)
 *     T t = A[b]; s += t; O[b] = s;      s += A[b]; O[b] = s;   (inclusive)
 * (`s = s + x` and `s = x + s` too; the second form only with A not O)
 * with A and O pointer parameters; the
 * accumulator, the temporary and the elements of A and O are one integer
 * type.  Integer sums come out the same in any order (unsigned ones wrap
 * mod 2^k alike); float and double are declined, since the parallel order
 * rounds differently.  When A and O are different parameters, a run-time
 * check sends overlapping buffers to the serial loop as written (thread 0),
 * where a different recurrence than a scan may be meant. */
#include "recipes/recipe_scan_int.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)
#define MAX_STMTS 4

typedef struct scan_shape {
	char ty[64];              /* the accumulator's type, as written */
	char norm[32];            /* the same, normalized */
	char acc[64], idx[64];    /* s and b */
	char count[KA_CSRC_NAME]; /* the loop bound, a parameter */
	char in[KA_CSRC_NAME], out[KA_CSRC_NAME];
	int inclusive;
	size_t acc_s;          /* the accumulator's declaration */
	size_t loop_s, loop_e; /* the for statement */
	size_t body_s, body_e; /* its braced body */
} scan_shape;

const char ka_recipe_scan_helpers[] =
	"#ifndef KA_BLOCK_SCAN_DEFINED\n#define KA_BLOCK_SCAN_DEFINED\n"
	"/* the sum of v over the block's threads before this one; every thread of\n"
	" * the block calls it (blockDim.x a multiple of 32, at most 1024) */\n"
	"template <typename T>\n"
	"__device__ __forceinline__ T ka_block_exclusive_scan(T v)\n{\n"
	"\t__shared__ T ka_warp_incl[32];\n"
	"\tconst unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;\n"
	"\tT inc = v;\n"
	"\tfor (unsigned o = 1; o < 32; o <<= 1) {\n"
	"\t\tT u = __shfl_up_sync(0xffffffffu, inc, o);\n"
	"\t\tif (lane >= o) inc += u;\n\t}\n"
	"\tT ex = __shfl_up_sync(0xffffffffu, inc, 1);\n"
	"\tif (lane == 0) ex = (T)0;\n"
	"\tif (lane == 31) ka_warp_incl[warp] = inc;\n"
	"\t__syncthreads();\n"
	"\tif (warp == 0) {\n"
	"\t\tT w = lane < (blockDim.x >> 5) ? ka_warp_incl[lane] : (T)0;\n"
	"\t\tfor (unsigned o = 1; o < 32; o <<= 1) {\n"
	"\t\t\tT u = __shfl_up_sync(0xffffffffu, w, o);\n"
	"\t\t\tif (lane >= o) w += u;\n\t\t}\n"
	"\t\tka_warp_incl[lane] = w;\n\t}\n"
	"\t__syncthreads();\n"
	"\tT r = warp ? ka_warp_incl[warp - 1] + ex : ex;\n"
	"\t__syncthreads(); /* the next call may write ka_warp_incl again */\n"
	"\treturn r;\n}\n\n"
	"/* 1 when the first n elements of a and of b share a byte */\n"
	"template <typename T, typename U>\n"
	"__device__ __forceinline__ bool ka_scan_overlap(const T *a, const U *b, long long n)\n{\n"
	"\tconst unsigned long long x = (unsigned long long)a, y = (unsigned long long)b;\n"
	"\treturn n > 0 && x < y + n * sizeof(U) && y < x + n * sizeof(T);\n}\n#endif\n\n";

static int is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static int is_name(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!is_ident(*s))
			return 0;
	return 1;
}

/* ---- shared with recipe_blockscan.c (recipes/recipe_scan_int.h) ---- */

int ka_recipe_scan_is_zero(const char *s)
{
	if (*s++ != '0')
		return 0;
	while (*s == 'u' || *s == 'U' || *s == 'l' || *s == 'L')
		s++;
	return !*s;
}

int ka_recipe_scan_type(const char *in, char *out, size_t cap)
{
	static const char *const ints[][2] = {
		{"int", "int"},
		{"signed", "int"},
		{"signed int", "int"},
		{"unsigned", "unsigned"},
		{"unsigned int", "unsigned"},
		{"long", "long"},
		{"long int", "long"},
		{"signed long", "long"},
		{"unsigned long", "unsigned long"},
		{"unsigned long int", "unsigned long"},
		{"long long", "long long"},
		{"long long int", "long long"},
		{"signed long long", "long long"},
		{"unsigned long long", "unsigned long long"},
		{"unsigned long long int", "unsigned long long"},
		{"int32_t", "int32_t"},
		{"uint32_t", "uint32_t"},
		{"int64_t", "int64_t"},
		{"uint64_t", "uint64_t"},
		{"size_t", "size_t"},
	};
	static const char *const floats[] = {"float", "double", "half", "__half", "__nv_bfloat16"};
	char buf[160];
	size_t n = 0;
	for (const char *p = in; *p;) {
		while (*p == ' ')
			p++;
		const char *w = p;
		while (*p && *p != ' ')
			p++;
		if ((size_t)(p - w) == 5 && !strncmp(w, "const", 5))
			continue;
		if (n + (size_t)(p - w) + 2 > sizeof buf)
			return 0;
		if (n)
			buf[n++] = ' ';
		memcpy(buf + n, w, (size_t)(p - w));
		n += (size_t)(p - w);
	}
	buf[n] = 0;
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		if (!strcmp(buf, ints[i][0])) {
			snprintf(out, cap, "%s", ints[i][1]);
			return 1;
		}
	for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
		if (!strcmp(buf, floats[i]))
			return 2;
	return 0;
}

int ka_recipe_scan_decl(const char *sq, char *type, size_t tcap, char *name, size_t ncap, char *rhs,
			size_t rcap)
{
	const char *eq = strchr(sq, '=');
	if (!eq || eq == sq || eq[1] == '=' || strchr("!<>+-*/%&|^", eq[-1]))
		return 0;
	const char *ns = eq;
	while (ns > sq && is_ident(ns[-1]))
		ns--;
	if (ns == eq || ns == sq || ns[-1] != ' ' || (size_t)(eq - ns) >= ncap ||
	    (size_t)(ns - 1 - sq) >= tcap)
		return 0;
	if (strlen(eq + 1) >= rcap)
		return 0;
	snprintf(name, ncap, "%.*s", (int)(eq - ns), ns);
	snprintf(type, tcap, "%.*s", (int)(ns - 1 - sq), sq);
	snprintf(rhs, rcap, "%s", eq + 1);
	return is_name(name) && !strpbrk(type, "*&[(,");
}

/* x is `ARR[idx]` with ARR a name: ARR into arr. */
static int is_elem(const char *x, const char *idx, char *arr, size_t cap)
{
	const char *br = strchr(x, '[');
	size_t il = strlen(idx);
	if (!br || (size_t)(br - x) >= cap || strncmp(br + 1, idx, il) || strcmp(br + 1 + il, "]"))
		return 0;
	snprintf(arr, cap, "%.*s", (int)(br - x), x);
	return is_name(arr);
}

int ka_recipe_scan_stmt(const char *t, size_t s, size_t e, char *buf, size_t cap)
{
	if (!ka_csrc_squeeze(t, s, e, buf, cap))
		return 0;
	size_t n = strlen(buf);
	if (!n || buf[n - 1] != ';')
		return 0;
	buf[n - 1] = 0;
	return 1;
}

/* `T s = 0;` at [s, e). */
static int prove_acc(ka_recipe_ctx *c, scan_shape *sh, size_t s, size_t e)
{
	char sq[256], rhs[64];
	if (!ka_recipe_scan_stmt(c->m->text, s, e, sq, sizeof sq) ||
	    !ka_recipe_scan_decl(sq, sh->ty, sizeof sh->ty, sh->acc, sizeof sh->acc, rhs, sizeof rhs))
		return ka_recipe_decline(c, "the body does not open with an accumulator `T s = 0;`");
	if (strstr(sh->ty, "const") || strstr(sh->ty, "static") || strstr(sh->ty, "volatile"))
		return ka_recipe_decline(c, "the accumulator is declared '%s'", sh->ty);
	int kind = ka_recipe_scan_type(sh->ty, sh->norm, sizeof sh->norm);
	if (kind == 2)
		return ka_recipe_decline(c, "a %s sum: the parallel order would round differently", sh->ty);
	if (kind != 1)
		return ka_recipe_decline(c, "the accumulator's type '%s' is not an integer type", sh->ty);
	if (!ka_recipe_scan_is_zero(rhs))
		return ka_recipe_decline(c, "the sum starts at '%s', not at zero", rhs);
	sh->acc_s = s;
	return KA_OK;
}

/* `for (I b = 0; b < PARAM; b++) {` ... `}` at [s, e), the kernel's last statement. */
static int prove_header(ka_recipe_ctx *c, scan_shape *sh, size_t s, size_t e)
{
	const char *t = c->m->text;
	size_t len = c->m->len, po = ka_csrc_skip_blank(t, len, s + 3), pc;
	char hd[256], ity[64], inorm[32], init[64], want[200];
	if (strncmp(t + s, "for", 3) || is_ident(t[s + 3]) || t[po] != '(' ||
	    (pc = ka_csrc_match(t, len, po)) == NPOS || !ka_csrc_squeeze(t, po + 1, pc, hd, sizeof hd))
		return ka_recipe_decline(c, "the accumulator is not followed by a for loop");
	char *s1 = strchr(hd, ';'), *s2 = s1 ? strchr(s1 + 1, ';') : NULL;
	if (!s2 || strchr(s2 + 1, ';'))
		return ka_recipe_decline(c, "cannot read the loop header '%s'", hd);
	*s1 = *s2 = 0;
	if (!ka_recipe_scan_decl(hd, ity, sizeof ity, sh->idx, sizeof sh->idx, init, sizeof init) ||
	    ka_recipe_scan_type(ity, inorm, sizeof inorm) != 1 || !ka_recipe_scan_is_zero(init))
		return ka_recipe_decline(c, "the loop does not declare an integer index from 0");
	size_t il = strlen(sh->idx);
	if (strncmp(s1 + 1, sh->idx, il) || s1[1 + il] != '<' || s1[2 + il] == '=')
		return ka_recipe_decline(c, "the loop bound '%s' is not `%s < PARAM`", s1 + 1, sh->idx);
	snprintf(sh->count, sizeof sh->count, "%s", s1 + 2 + il);
	int pi = ka_csrc_param_index(c->k, sh->count);
	if (pi < 0 || c->k->params[pi].is_pointer ||
	    ka_recipe_scan_type(c->k->params[pi].type, inorm, sizeof inorm) != 1)
		return ka_recipe_decline(c, "the loop bound '%s' is not an integer parameter", sh->count);
	const char *inc = s2 + 1;
	int step = 0;
	snprintf(want, sizeof want, "%s++", sh->idx);
	step |= !strcmp(inc, want);
	snprintf(want, sizeof want, "++%s", sh->idx);
	step |= !strcmp(inc, want);
	snprintf(want, sizeof want, "%s+=1", sh->idx);
	step |= !strcmp(inc, want);
	snprintf(want, sizeof want, "%s=%s+1", sh->idx, sh->idx);
	step |= !strcmp(inc, want);
	if (!step)
		return ka_recipe_decline(c, "the loop steps by '%s', not by one", inc);
	size_t bo = ka_csrc_skip_blank(t, len, pc + 1), bc = t[bo] == '{' ? ka_csrc_match(t, len, bo) : NPOS;
	if (bc == NPOS || bc + 1 != e)
		return ka_recipe_decline(c, "the loop body is not a braced block");
	sh->loop_s = s;
	sh->loop_e = e;
	sh->body_s = bo;
	sh->body_e = e;
	return KA_OK;
}

enum { ST_TEMP = 1, ST_STORE, ST_ADD };

/* One statement of the loop body: T t = A[b] (arr = A), O[b] = s (arr = O)
 * or s += X (x = X); 0 when it is none of them. */
static int classify(const scan_shape *sh, const char *sq, char *ty, size_t tcap, char *arr, char *x,
		    size_t cap)
{
	char name[64], rhs[256], want[200];
	if (ka_recipe_scan_decl(sq, ty, tcap, name, sizeof name, rhs, sizeof rhs))
		return is_elem(rhs, sh->idx, arr, cap) && snprintf(x, cap, "%s", name) > 0 ? ST_TEMP : 0;
	snprintf(want, sizeof want, "]=%s", sh->acc);
	size_t wl = strlen(want), n = strlen(sq);
	if (n > wl && !strcmp(sq + n - wl, want)) {
		snprintf(rhs, sizeof rhs, "%.*s", (int)(n - wl + 1), sq);
		return is_elem(rhs, sh->idx, arr, cap) ? ST_STORE : 0;
	}
	size_t al = strlen(sh->acc);
	if (strncmp(sq, sh->acc, al))
		return 0;
	const char *p = sq + al;
	if (!strncmp(p, "+=", 2)) {
		snprintf(x, cap, "%s", p + 2);
		return ST_ADD;
	}
	if (*p != '=' || p[1] == '=')
		return 0;
	snprintf(want, sizeof want, "%s+", sh->acc);
	if (!strncmp(p + 1, want, al + 1)) {
		snprintf(x, cap, "%s", p + 2 + al);
		return ST_ADD;
	}
	snprintf(want, sizeof want, "+%s", sh->acc);
	n = strlen(p + 1);
	if (n > al + 1 && !strcmp(p + 1 + n - al - 1, want)) {
		snprintf(x, cap, "%.*s", (int)(n - al - 1), p + 1);
		return ST_ADD;
	}
	return 0;
}

/* The element type of pointer parameter `name`, normalized, must be the
 * accumulator's; a written array must not point to const. */
static int prove_array(ka_recipe_ctx *c, const scan_shape *sh, const char *name, int written)
{
	int pi = ka_csrc_param_index(c->k, name);
	if (pi < 0 || !c->k->params[pi].is_pointer)
		return ka_recipe_decline(c, "%s is not a pointer parameter", name);
	const ka_csrc_param *p = &c->k->params[pi];
	const char *star = strchr(p->type, '*');
	char el[160], norm[32];
	snprintf(el, sizeof el, "%.*s", (int)(star - p->type), p->type);
	if (strchr(star + 1, '*') || strchr(star + 1, '['))
		return ka_recipe_decline(c, "%s is not a pointer to elements", name);
	if (written && p->is_const)
		return ka_recipe_decline(c, "%s points to const", name);
	if (ka_recipe_scan_type(el, norm, sizeof norm) != 1 || strcmp(norm, sh->norm))
		return ka_recipe_decline(c, "%s holds '%s', the sum is '%s'", name, el, sh->ty);
	return KA_OK;
}

/* The loop body: the temporary (if any), the store and the addition, in
 * one of the four orders. */
static int prove_body(ka_recipe_ctx *c, scan_shape *sh)
{
	const char *t = c->m->text;
	size_t len = c->m->len, end = sh->body_e - 1;
	int kind[MAX_STMTS], n = 0;
	char ty[MAX_STMTS][64], arr[MAX_STMTS][256], x[MAX_STMTS][256], sq[256];
	for (size_t i = ka_csrc_skip_blank(t, len, sh->body_s + 1); i < end;
	     i = ka_csrc_skip_blank(t, len, i)) {
		size_t e = ka_csrc_stmt_end(t, len, i);
		if (n == MAX_STMTS - 1)
			return ka_recipe_decline(c, "the loop body has more than three statements");
		if (e == NPOS || e > end || !ka_recipe_scan_stmt(t, i, e, sq, sizeof sq))
			return ka_recipe_decline(c, "cannot read a statement of the loop body");
		kind[n] = classify(sh, sq, ty[n], sizeof ty[n], arr[n], x[n], sizeof x[n]);
		if (!kind[n])
			return ka_recipe_decline(c,
						 "'%.120s' is not `T t = A[%s]`, `O[%s] = %s` or `%s += E`",
						 sq, sh->idx, sh->idx, sh->acc, sh->acc);
		n++;
		i = e;
	}
	int ex3 = n == 3 && kind[0] == ST_TEMP && kind[1] == ST_STORE && kind[2] == ST_ADD;
	int in3 = n == 3 && kind[0] == ST_TEMP && kind[1] == ST_ADD && kind[2] == ST_STORE;
	int ex2 = n == 2 && kind[0] == ST_STORE && kind[1] == ST_ADD;
	int in2 = n == 2 && kind[0] == ST_ADD && kind[1] == ST_STORE;
	if (!ex3 && !in3 && !ex2 && !in2)
		return ka_recipe_decline(
			c, "the loop body is not a read, a store of %s and an addition to it", sh->acc);
	int add = ex3 || ex2 ? n - 1 : n - 2, store = ex3 ? 1 : ex2 ? 0 : n - 1;
	char in[256];
	if (n == 3) {
		char norm[32];
		if (strcmp(x[add], x[0]))
			return ka_recipe_decline(c, "the sum adds '%s', not the temporary %s", x[add], x[0]);
		if (!strcmp(x[0], sh->acc) || !strcmp(x[0], sh->idx))
			return ka_recipe_decline(c, "the temporary %s shadows the sum or the index", x[0]);
		if (ka_recipe_scan_type(ty[0], norm, sizeof norm) != 1 || strcmp(norm, sh->norm))
			return ka_recipe_decline(c, "the temporary is '%s', the sum '%s'", ty[0], sh->ty);
		snprintf(in, sizeof in, "%s", arr[0]);
	} else if (!is_elem(x[add], sh->idx, in, sizeof in)) {
		return ka_recipe_decline(c, "the sum adds '%s', not an element X[%s]", x[add], sh->idx);
	}
	if (strlen(in) >= sizeof sh->in || strlen(arr[store]) >= sizeof sh->out)
		return ka_recipe_decline(c, "an array's name is too long");
	snprintf(sh->in, sizeof sh->in, "%.*s", (int)sizeof sh->in - 1, in);
	snprintf(sh->out, sizeof sh->out, "%.*s", (int)sizeof sh->out - 1, arr[store]);
	if (ex2 && !strcmp(sh->in, sh->out))
		return ka_recipe_decline(c, "the loop reads %s[%s] after storing to it: not a scan", sh->in,
					 sh->idx);
	sh->inclusive = in3 || in2;
	int rc = prove_array(c, sh, sh->in, 0);
	return rc ? rc : prove_array(c, sh, sh->out, 1);
}

static int is_one(const char *s)
{
	return !strcmp(s, "1") || !strcmp(s, "1u") || !strcmp(s, "1U") || !strcmp(s, "dim3(1)");
}

/* Every launch of the kernel is <<<1, 1>>>. */
static int prove_launches(ka_recipe_ctx *c)
{
	int found = 0;
	for (int i = 0; i < c->m->nlaunches; i++) {
		const ka_csrc_launch *l = &c->m->l[i];
		char g[64], b[64];
		if (strcmp(l->kernel, c->k->name))
			continue;
		if (!ka_csrc_squeeze(c->m->text, l->cfg[0].s, l->cfg[0].e, g, sizeof g) ||
		    !ka_csrc_squeeze(c->m->text, l->cfg[1].s, l->cfg[1].e, b, sizeof b))
			return ka_recipe_decline(c, "a launch of %s is not <<<1, 1>>>", c->k->name);
		if (!is_one(g) || !is_one(b))
			return ka_recipe_decline(c, "a launch of %s is <<<%s, %s>>>, not <<<1, 1>>>",
						 c->k->name, g, b);
		found = 1;
	}
	return found ? KA_OK : ka_recipe_decline(c, "no launch of %s in this file", c->k->name);
}

/* The kernel: `T s = 0;`, the loop, nothing else; launched <<<1, 1>>>. */
static int prove_kernel(ka_recipe_ctx *c, scan_shape *sh)
{
	static const char *const ours[] = {"ka_n", "ka_per", "ka_lo", "ka_hi", "ka_sum", "ka_i"};
	const char *t = c->m->text;
	size_t len = c->m->len, close = c->k->body_close;
	size_t s0 = ka_csrc_skip_blank(t, len, c->k->body_open + 1), e0 = ka_csrc_stmt_end(t, len, s0);
	if (e0 == NPOS || e0 > close)
		return ka_recipe_decline(c, "the body does not open with an accumulator `T s = 0;`");
	int rc = prove_acc(c, sh, s0, e0);
	if (rc)
		return rc;
	size_t s1 = ka_csrc_skip_blank(t, len, e0), e1 = ka_csrc_stmt_end(t, len, s1);
	if (e1 == NPOS || e1 > close)
		return ka_recipe_decline(c, "the accumulator is not followed by a for loop");
	if ((rc = prove_header(c, sh, s1, e1)))
		return rc;
	if (ka_csrc_skip_blank(t, len, e1) != close)
		return ka_recipe_decline(c, "statements follow the loop");
	if (!strcmp(sh->idx, sh->acc))
		return ka_recipe_decline(c, "the index shadows the sum %s", sh->acc);
	if (ka_csrc_param_index(c->k, sh->acc) >= 0 || ka_csrc_param_index(c->k, sh->idx) >= 0)
		return ka_recipe_decline(c, "the sum or the index shadows a parameter");
	if ((rc = prove_body(c, sh)))
		return rc;
	for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
		if (ka_csrc_has_word(t, c->k->start, close, ours[i]))
			return ka_recipe_decline(c, "the kernel uses the name %s the rewrite needs", ours[i]);
	if (c->k->has_launch_bounds)
		return ka_recipe_decline(c, "it has __launch_bounds__ already");
	return prove_launches(c);
}

/* [s, e) with `tabs` more tabs after each newline. */
static void add_indented(ka_buf *b, const char *t, size_t s, size_t e, int tabs)
{
	for (size_t i = s; i < e; i++) {
		ka_buf_addc(b, t[i]);
		for (int k = 0; t[i] == '\n' && k < tabs; k++)
			ka_buf_addc(b, '\t');
	}
}

/* The new body: chunk sums, their block scan, the loop over the chunk. */
static void emit_body(const ka_recipe_ctx *c, const scan_shape *sh, ka_buf *b)
{
	const char *t = c->m->text;
	ka_buf_printf(b,
		      "{\n\t/* parallel-scan (%s, %s): each thread sums a contiguous chunk\n"
		      "\t * of the %s elements, then runs the loop over it from the sum of the\n"
		      "\t * chunks before */\n"
		      "\tconst long long ka_n = %s > 0 ? (long long)(%s) : 0;\n",
		      sh->inclusive ? "inclusive" : "exclusive",
		      strcmp(sh->in, sh->out) ? "out of place" : "in place", sh->count, sh->count, sh->count);
	if (strcmp(sh->in, sh->out)) {
		ka_buf_printf(b,
			      "\tif (ka_scan_overlap(%s, %s, ka_n)) {\n"
			      "\t\t/* overlapping buffers: the serial loop, as written */\n"
			      "\t\tif (threadIdx.x == 0) {\n\t\t\t",
			      sh->in, sh->out);
		add_indented(b, t, sh->acc_s, sh->loop_e, 2);
		ka_buf_adds(b, "\n\t\t}\n\t\treturn;\n\t}\n");
	}
	ka_buf_printf(b,
		      "\tconst long long ka_per = (ka_n + blockDim.x - 1) / blockDim.x;\n"
		      "\tconst long long ka_lo = ka_per * threadIdx.x,\n"
		      "\t\t\tka_hi = ka_lo + ka_per < ka_n ? ka_lo + ka_per : ka_n;\n"
		      "\t%s ka_sum = 0;\n"
		      "\tfor (long long ka_i = ka_lo; ka_i < ka_hi; ka_i++) ka_sum += %s[ka_i];\n"
		      "\t%s %s = ka_block_exclusive_scan(ka_sum); /* the chunks before */\n"
		      "\tfor (long long %s = ka_lo; %s < ka_hi; %s++) ",
		      sh->ty, sh->in, sh->ty, sh->acc, sh->idx, sh->idx, sh->idx);
	ka_buf_add(b, t + sh->body_s, sh->body_e - sh->body_s);
	ka_buf_adds(b, "\n}");
}

static int scan_apply(ka_recipe_ctx *c, ka_buf *out)
{
	scan_shape sh;
	memset(&sh, 0, sizeof sh);
	long block = ka_recipe_param(c->params, "block", 1024);
	if (block < 32 || block > 1024 || block % 32)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	int rc = prove_kernel(c, &sh);
	if (rc)
		return rc;
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	emit_body(c, &sh, &b);
	char bs[32], lb[64];
	snprintf(bs, sizeof bs, "%ld", block);
	snprintf(lb, sizeof lb, "__launch_bounds__(%ld) ", block);
	ka_recipe_edits ed = {0};
	rc = b.data ? ka_recipe_edit(&ed, c->k->body_open, c->k->body_close + 1, b.data)
		    : ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->name_at, c->k->name_at, lb);
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->start, c->k->start, ka_recipe_scan_helpers);
	if (rc == KA_OK)
		rc = ka_recipe_relaunch(c, &ed, sh.count, "1", bs);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, c->m->text, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

static const char *const scan_grid[] = {"block=1024", "block=512", "block=256", NULL};

const ka_recipe ka_recipe_parallel_scan = {
	.name = "parallel-scan",
	.summary = "a prefix sum walked by one thread (<<<1, 1>>>) -> chunk sums scanned by one block",
	.rules = "launch-small-grid",
	.grid = scan_grid,
	.apply = scan_apply,
};
