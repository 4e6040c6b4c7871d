/* recipes/recipe_vec2.c: vectorize-2byte, the vector loop of one-thread-per-
 * element kernels over 2-byte elements (__half, __nv_bfloat16, and their
 * short/unsigned short spellings), the shape of recipe_elementwise.c:
 *     long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
 *     if (i < n) BODY                  (or: if (i >= n) return; BODY...)
 * n a parameter or a sum of products of them (`i >= tokens * dim`, also held
 * in locals before the guard: ka_recipe_ew_shape_ex's KA_RECIPE_EW_PRODUCT).
 * A thread takes 8 consecutive elements per step of a capped grid-stride
 * loop: every pointer accessed only as `p[i]` moves as 16-byte words (one
 * uint4 for 8 two-byte elements, two for 8 four-byte ones, so that a
 * kernel that reads bf16 and writes float keeps one element count), the
 * body runs once per element on a register copy (`ka_p_e[ka_l]`, an
 * unrolled loop of 8), and a scalar loop takes the tail.  A 2-byte
 * element loaded alone is half a 4-byte request: a warp's 32 scalar loads
 * fetch 64 bytes, its 32 16-byte loads 512 with the same number of
 * instructions (rule gmem-unpacked-2byte).  The vector loop only runs
 * when every vectorized pointer is 16-byte aligned, checked at run time.
 * A written pointer is loaded first unless the body is straight-line code
 * whose first use of it is a plain store: the lanes a branch leaves alone
 * are written back as they were.  A pointer whose element's address is
 * taken (&p[i]: an atomic) stays scalar, and so does any pointer indexed
 * otherwise; the body's own index is declared per element as it was, so
 * those accesses see the element they saw.  At least one 2-byte pointer
 * must move as vectors, else the recipe declines (4-byte kernels are
 * vectorize's).  The arithmetic is the body's own: it converts to fp32
 * where the original did (__half2float, __bfloat162float), so the results
 * are bit for bit those of the original. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The element size (2 or 4) of a pointer's element type, squeezed with
 * no blanks, const and __restrict__ dropped ("__half*"), or 0. */
static int elem_size(const char *tq, char *elem, size_t cap)
{
	static const char *const two[] = {"__half*",        "half*",  "__nv_bfloat16*", "nv_bfloat16*",
					  "unsignedshort*", "short*", "uint16_t*",      "int16_t*"};
	static const char *const four[] = {"float*",       "int*",      "unsigned*",
					   "unsignedint*", "uint32_t*", "int32_t*"};
	static const char *const spelled[] = {
		"__half",  "half",  "__nv_bfloat16", "nv_bfloat16", "unsigned short", "short",    "uint16_t",
		"int16_t", "float", "int",           "unsigned",    "unsigned int",   "uint32_t", "int32_t"};
	for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
		if (!strcmp(tq, two[i])) {
			snprintf(elem, cap, "%s", spelled[i]);
			return 2;
		}
	for (size_t i = 0; i < sizeof four / sizeof four[0]; i++)
		if (!strcmp(tq, four[i])) {
			snprintf(elem, cap, "%s", spelled[8 + i]);
			return 4;
		}
	return 0;
}

/* The pointer's type with const, __restrict__ and blanks dropped. */
static void bare_type(const char *type, char *tq, size_t cap)
{
	char ty[160];
	snprintf(ty, sizeof ty, "%s", type);
	for (char *q; (q = strstr(ty, "__restrict__"));)
		memmove(q, q + 12, strlen(q + 12) + 1);
	for (char *q; (q = strstr(ty, "const"));)
		memmove(q, q + 5, strlen(q + 5) + 1);
	size_t n = 0;
	for (const char *q = ty; *q && n + 1 < cap; q++)
		if (!isspace((unsigned char)*q))
			tq[n++] = *q;
	tq[n] = 0;
}

typedef struct vp {
	int size; /* 0: stays scalar; 2 or 4 bytes */
	int written, load;
	char elem[32];
} vp;

/* Which pointers move as vectors (sq: the squeezed body). */
static int pick(ka_recipe_ctx *c, const ka_recipe_ew *sh, const char *sq, vp *v, int *two)
{
	const char *t = c->m->text;
	int straight = !strstr(sq, "if(") && !strchr(sq, '?') && !strstr(sq, "for(") &&
		       !strstr(sq, "while(") && !strstr(sq, "switch(") && !strstr(sq, "&&") &&
		       !strstr(sq, "||");
	int n = 0;
	*two = 0;
	for (int p = 0; p < c->k->nparams; p++) {
		const ka_csrc_param *pa = &c->k->params[p];
		char tq[160], acc[200];
		memset(&v[p], 0, sizeof v[p]);
		if (!pa->is_pointer)
			continue;
		bare_type(pa->type, tq, sizeof tq);
		int size = elem_size(tq, v[p].elem, sizeof v[p].elem);
		int uses = ka_csrc_count_word(t, sh->body_s, sh->body_e, pa->name);
		if (!size || !uses || ka_recipe_ew_replay_reads(c, sh, pa->name))
			continue;
		snprintf(acc, sizeof acc, "%s[%s]", pa->name, sh->var);
		size_t al = strlen(acc);
		int hits = 0, w = 0, bad = 0, first_store = 0;
		for (const char *q = strstr(sq, acc); q; q = strstr(q + 1, acc)) {
			if (q > sq && is_ident(q[-1]))
				continue;
			char b1 = q > sq ? q[-1] : ';', b2 = q > sq + 1 ? q[-2] : ';';
			const char *a = q + al;
			int store = a[0] == '=' && a[1] != '=';
			int update = (strchr("+-*/%&|^", a[0]) && a[0] && a[1] == '=') ||
				     (a[0] == '+' && a[1] == '+') || (a[0] == '-' && a[1] == '-') ||
				     (b1 == '+' && b2 == '+') || (b1 == '-' && b2 == '-') ||
				     ((a[0] == '<' || a[0] == '>') && a[1] == a[0] && a[2] == '=');
			bad |= (b1 == '&' && b2 != '&') || b1 == '.';
			if (!hits)
				first_store = store && strchr(";{}", b1) &&
					      !ka_csrc_has_word(a, 0, strcspn(a, ";"), pa->name);
			hits++;
			w |= store || update;
		}
		if (hits != uses || bad || (w && pa->is_const))
			continue;
		v[p].size = size;
		v[p].written = w;
		v[p].load = !w || !straight || !first_store;
		*two |= size == 2;
		n++;
	}
	return n;
}

static const char *const grid[] = {"block=256 cap=2112", "block=512 cap=2112", "block=128 cap=4224",
				   "block=256 cap=1056", NULL};

static int vec2_apply(ka_recipe_ctx *c, ka_buf *out)
{
	ka_recipe_ew sh;
	vp v[KA_CSRC_MAX_PARAMS];
	int rc = ka_recipe_ew_shape_ex(c, &sh, KA_RECIPE_EW_PRODUCT | KA_RECIPE_EW_MODEL), two = 0;
	if (rc == KA_RECIPE_DECLINED) { /* rows walked by a warp's or a block's lanes */
		if (c->params && c->params[0] && strcmp(c->params, grid[0]))
			return ka_recipe_decline(c,
						 "the lane loops keep the kernel's launch: block and cap do "
						 "not apply, only the first set (%s) is written",
						 grid[0]);
		char why[sizeof c->why];
		snprintf(why, sizeof why, "%s", c->why);
		rc = ka_recipe_lane_vectorize_2byte(c, out);
		if (rc == KA_RECIPE_DECLINED && !strcmp(c->why, "no lane-strided loop"))
			snprintf(c->why, sizeof c->why, "%s", why);
		return rc;
	}
	if (rc)
		return rc;
	long block = ka_recipe_param(c->params, "block", 256), cap = ka_recipe_param(c->params, "cap", 2112);
	if (block < 32 || block > 1024 || block % 32 || cap < 1 || cap > 65535)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	static char sq[16384];
	if (!ka_csrc_squeeze(c->m->text, sh.body_s, sh.body_e, sq, sizeof sq))
		return ka_recipe_decline(c, "the body is too long");
	if (!pick(c, &sh, sq, v, &two) || !two)
		return ka_recipe_decline(c, "no __half or __nv_bfloat16 pointer is accessed only as p[%s]",
					 sh.var);
	const ka_csrc_kernel *k = c->k;
	ka_buf b, lane;
	ka_buf_init(&b, 1 << 20);
	ka_buf_init(&lane, 1 << 20);
	ka_buf_adds(&b, "{\n\tconst long long ka_tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
			"\tconst long long ka_step = (long long)gridDim.x * blockDim.x;\n");
	ka_recipe_ew_pre(&b, c, &sh); /* the locals a product bound was held in, where the body reads them */
	ka_buf_adds(&b, "\t/* 8 elements a step, as 16-byte words, only where every vectorized pointer is\n"
			"\t * 16-byte aligned */\n"
			"\tconst unsigned long long ka_align = 0");
	for (int p = 0; p < k->nparams; p++)
		if (v[p].size)
			ka_buf_printf(&b, " | (unsigned long long)%s", k->params[p].name);
	ka_buf_printf(&b, ";\n\tconst long long ka_n8 = (ka_align & 15) ? 0 : (long long)%s / 8;\n",
		      sh.count);
	ka_buf_adds(&b, "\tfor (long long ka_v = ka_tid; ka_v < ka_n8; ka_v += ka_step) {\n");
	for (int p = 0; p < k->nparams; p++) {
		if (!v[p].size)
			continue;
		const char *nm = k->params[p].name;
		int words = v[p].size / 2;
		ka_buf_printf(&b, "\t\tuint4 ka_%s[%d];\n", nm, words);
		if (v[p].load)
			for (int w = 0; w < words; w++)
				ka_buf_printf(
					&b,
					"\t\tka_%s[%d] = reinterpret_cast<const uint4 *>(%s)[%d * ka_v + %d];\n",
					nm, w, nm, words, w);
		ka_buf_printf(&b, "\t\t%s *ka_%s_e = reinterpret_cast<%s *>(ka_%s);\n", v[p].elem, nm,
			      v[p].elem, nm);
	}
	int moved[KA_CSRC_MAX_PARAMS];
	for (int p = 0; p < k->nparams; p++)
		moved[p] = v[p].size != 0;
	ka_recipe_ew_subst(&lane, c, &sh, moved, "_e[ka_l]"); /* p[i] -> ka_p_e[ka_l] */
	size_t s0 = 0;
	while (lane.data && s0 < lane.len && isspace((unsigned char)lane.data[s0]))
		s0++;
	ka_buf_adds(&b, "#pragma unroll\n\t\tfor (int ka_l = 0; ka_l < 8; ka_l++) {\n");
	/* the index only where the body still uses it (nvcc's #177 otherwise) */
	if (ka_recipe_ew_replay_reads(c, &sh, sh.var) ||
	    (lane.data && ka_csrc_has_word(lane.data, s0, lane.len, sh.var)))
		ka_buf_printf(&b, "\t\t\t%s %s = 8 * ka_v + ka_l;\n", sh.type, sh.var);
	ka_buf_adds(&b, "\t\t\t");
	ka_recipe_ew_replay(&b, c, &sh, "\t\t\t");
	if (lane.data)
		ka_buf_add(&b, lane.data + s0, lane.len - s0);
	ka_buf_adds(&b, "\n\t\t}\n");
	for (int p = 0; p < k->nparams; p++)
		if (v[p].size && v[p].written)
			for (int w = 0; w < v[p].size / 2; w++)
				ka_buf_printf(
					&b,
					"\t\treinterpret_cast<uint4 *>(%s)[%d * ka_v + %d] = ka_%s[%d];\n",
					k->params[p].name, v[p].size / 2, w, k->params[p].name, w);
	ka_buf_adds(&b, "\t}\n\t");
	ka_recipe_ew_loop(&b, c, &sh, "8 * ka_n8 + ka_tid");
	ka_buf_adds(&b, "\n}");
	ka_buf_free(&lane);
	char grid[256], bs[32];
	snprintf(grid, sizeof grid, "(unsigned)((@N / 8 + %ld) / %ld < %ld ? (@N / 8 + %ld) / %ld : %ld)",
		 block, block, cap, block, block, cap);
	snprintf(bs, sizeof bs, "%ld", block);
	ka_recipe_edits ed = {0};
	rc = ka_recipe_new_body(c, &ed, &b, block);
	if (rc == KA_OK)
		rc = ka_recipe_relaunch(c, &ed, sh.count, grid, bs);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, c->m->text, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

const ka_recipe ka_recipe_vectorize_2byte = {
	.name = "vectorize-2byte",
	.summary =
		"one thread per 2-byte element -> 8 elements per 16-byte load/store in a capped grid-stride "
		"loop, scalar tail",
	.rules = "gmem-unpacked-2byte gmem-scalar-not-vectorized launch-tail-effect launch-small-grid",
	.grid = grid,
	.apply = vec2_apply,
};
