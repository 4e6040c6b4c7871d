/* recipes/recipe_lanevec.c: the vectorize recipe on lane-strided loops, the
 * column loops warp-per-row writes (and kernels written that way):
 *     const int lane = threadIdx.x & 31;              (or & (W-1), % W, or threadIdx.x)
 *     for (T j = (S) + lane; j < B; j += 32) BODY     (W, or blockDim.x)
 * where the W lanes of a group share S and B (a row's), so together they
 * walk [S, B) one element each per step.  The loop becomes one over float4
 * chunks of [S, B), the group's lanes taking every W-th chunk, with the
 * body repeated per element of the chunk, and the original loop takes the
 * tail from S + 4 * (chunks) on.  The chunks start at the first
 * vectorized pointer's next 16-byte boundary from S: the elements before
 * it (at most 3, or 7 in the 8-element form; a range from S = 1, a row of
 * a cols % 4 != 0 matrix) run first, one per lane, through the loop as
 * written, so each lane meets its elements in rising order (head, chunks,
 * tail) and an arg-reduction's strict `>` keeps its first index.  The
 * chunk loop only runs when every vectorized pointer's element there is
 * 16-byte aligned (checked at run time; the same on every lane of the
 * group, so they all take the same split), and is unrolled by 4 so that
 * each lane has several chunks' loads in flight.
 *
 * What it proves first (else the loop stays as it is, and with no loop
 * left the recipe declines with the first loop's reason): the loop is
 * innermost, steps by its group's width, has one bound (or two joined by
 * &&, a chunk of a row: the chunks end at the lesser); S and B read only
 * parameters and locals (never assigned again) computed from parameters,
 * block ids and the row (`(blockIdx.x * (long long)blockDim.x +
 * threadIdx.x) / W`, or blockIdx.x), so they are the same on every lane of
 * the group; a float pointer whose every use in the body is p[j] or
 * p[E + j] (one E, as uniform as S) is vectorized, loaded first unless
 * straight-line code stores it before reading it.
 *
 * vectorize-2byte's form (ka_recipe_lane_vectorize_2byte): __half and
 * __nv_bfloat16 pointers too, in chunks of 8 elements moved as 16-byte
 * words (two for a float pointer beside them), the body once per element
 * on the registers' copy; and the block's own lanes, `j = (S) +
 * threadIdx.x` stepping by blockDim.x (a block per row).  A variable such
 * a loop carries out must be a sum (`a += E` its only use in the loop)
 * stored straight into a __shared__ tree over the whole block
 * (block_tree_after): the total does not depend on which lane held which
 * element. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)
#define MAX_VEC 8

typedef struct lv {
	ka_recipe_ctx *c;
	const char *t;
	size_t b0, b1; /* the kernel's body */
	char bad[64];  /* the name a uniformity proof stopped at */
	int two;       /* 1: vectorize-2byte's (a 2-byte pointer needed); 0: float pointers only */
} lv;

static int ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static int is_word_in(const char *const *list, const char *w, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(*list, w, n))
			return 1;
	return 0;
}

static const char *const type_words[] = {
	"const",          "volatile", "float",    "double",        "int",         "long",
	"short",          "char",     "unsigned", "signed",        "bool",        "auto",
	"size_t",         "int64_t",  "uint64_t", "int32_t",       "uint32_t",    "ptrdiff_t",
	"__restrict__",   "__half",   "half",     "__nv_bfloat16", "nv_bfloat16", "__half2",
	"__nv_bfloat162", NULL};

/* 1 when the word at t[p..p+n) is written there: =, op=, ++, --, or its
 * address taken. */
static int written_at(const char *t, size_t b0, size_t b1, size_t p, size_t n)
{
	size_t a = ka_csrc_skip_blank(t, b1, p + n);
	if (a + 1 < b1 && t[a] == '=' && t[a + 1] != '=')
		return 1;
	if (a + 1 < b1 && strchr("+-*/%&|^", t[a]) && t[a + 1] == '=')
		return 1;
	if (a + 1 < b1 && (t[a] == '+' || t[a] == '-') && t[a + 1] == t[a])
		return 1;
	if (a + 2 < b1 && (t[a] == '<' || t[a] == '>') && t[a + 1] == t[a] && t[a + 2] == '=')
		return 1;
	size_t q = p;
	while (q > b0 && isspace((unsigned char)t[q - 1]))
		q--;
	if (q >= b0 + 2 && (t[q - 1] == '+' || t[q - 1] == '-') && t[q - 2] == t[q - 1])
		return 1;
	if (q > b0 && t[q - 1] == '&' && !(q >= b0 + 2 && t[q - 2] == '&'))
		return 1;
	return 0;
}

static int uniform_expr(lv *v, const char *sq, int width, int depth);

/* 1 when the local or parameter `name` holds the same value on every lane
 * of a group of `width` lanes (0: the block). */
static int uniform_name(lv *v, const char *name, int width, int depth)
{
	const char *t = v->t;
	size_t n = strlen(name), decl = NPOS, hdr_s = 0, hdr_e = 0;
	if (!strcmp(name, "blockIdx") || !strcmp(name, "blockDim") || !strcmp(name, "gridDim"))
		return 1;
	int param = ka_csrc_param_index(v->c->k, name) >= 0;
	if (depth > 6 || !strcmp(name, "threadIdx"))
		goto no;
	char init[512] = "";
	for (size_t p = v->b0; p + n <= v->b1; p++) {
		if (strncmp(t + p, name, n) || (p > v->b0 && (ident(t[p - 1]) || t[p - 1] == '.')) ||
		    ident(t[p + n]))
			continue; /* not the word, or a member (threadIdx.x is no x) */
		if (decl == NPOS && !param) {
			/* its declaration comes first: after a type word or '*', then '=' */
			size_t q = p;
			while (q > v->b0 && isspace((unsigned char)t[q - 1]))
				q--;
			size_t w = q;
			while (w > v->b0 && ident(t[w - 1]))
				w--;
			size_t a = ka_csrc_skip_blank(t, v->b1, p + n);
			if (!((q > v->b0 && t[q - 1] == '*') || is_word_in(type_words, t + w, q - w)) ||
			    t[a] != '=' || t[a + 1] == '=')
				goto no;
			size_t e = a + 1;
			for (int d = 0; e < v->b1; e++) {
				d += t[e] == '(' || t[e] == '[';
				d -= t[e] == ')' || t[e] == ']';
				if (d < 0 || (!d && (t[e] == ',' || t[e] == ';')))
					break;
			}
			if (!ka_csrc_squeeze(t, a + 1, e, init, sizeof init))
				goto no;
			/* declared in a for header: its step may add what is uniform */
			size_t f = w;
			while (f > v->b0 && (isspace((unsigned char)t[f - 1]) || ident(t[f - 1])))
				f--;
			if (f > v->b0 && t[f - 1] == '(') {
				size_t k = f - 1;
				while (k > v->b0 && isspace((unsigned char)t[k - 1]))
					k--;
				if (k >= v->b0 + 3 && !strncmp(t + k - 3, "for", 3)) {
					hdr_s = f - 1;
					hdr_e = ka_csrc_match(t, v->b1, f - 1);
				}
			}
			decl = p;
			p = e;
			continue;
		}
		if (!written_at(t, v->b0, v->b1, p, n))
			continue;
		/* `r += E;` in the header that declares r, E uniform */
		size_t a = ka_csrc_skip_blank(t, v->b1, p + n), e = a + 2;
		char rhs[256];
		while (e < hdr_e && t[e] != ')')
			e++;
		if (!(hdr_e && hdr_e != NPOS && p > hdr_s && p < hdr_e && t[a] == '+' && t[a + 1] == '=' &&
		      ka_csrc_squeeze(t, a + 2, hdr_e, rhs, sizeof rhs) &&
		      uniform_expr(v, rhs, width, depth + 1)))
			goto no;
	}
	if (param)
		return 1;
	if (decl == NPOS)
		goto no;
	char row[96];
	snprintf(row, sizeof row, "(blockIdx.x*(long long)blockDim.x+threadIdx.x)/%d", width);
	if ((width && !strcmp(init, row)) || (!width && !strcmp(init, "blockIdx.x")))
		return 1; /* the row of a group (warp-per-row's) */
	if (uniform_expr(v, init, width, depth + 1))
		return 1;
no:
	if (!v->bad[0])
		snprintf(v->bad, sizeof v->bad, "%s", name);
	return 0;
}

/* 1 when the squeezed expression reads only uniform names (no loads, no
 * calls but pure ones). */
static int uniform_expr(lv *v, const char *sq, int width, int depth)
{
	if (strchr(sq, '[') || strchr(sq, '=') || strstr(sq, "++") || strstr(sq, "--"))
		return 0;
	for (size_t i = 0; sq[i];) {
		if (!ident(sq[i])) {
			i++;
			continue;
		}
		size_t b = i;
		while (ident(sq[i]) || (isdigit((unsigned char)sq[b]) && sq[i] == '.'))
			i++;
		if (isdigit((unsigned char)sq[b]) || (b && sq[b - 1] == '.') ||
		    is_word_in(type_words, sq + b, i - b))
			continue;
		if (sq[i] == '(') {
			if (!ka_recipe_pure_function(sq + b, i - b))
				return 0;
			continue;
		}
		char name[64];
		if (i - b >= sizeof name)
			return 0;
		snprintf(name, sizeof name, "%.*s", (int)(i - b), sq + b);
		if (!uniform_name(v, name, width, depth))
			return 0;
	}
	return 1;
}

/* The lane variable's group: `[const] int L = threadIdx.x & (W-1);`,
 * `% W`, or `= threadIdx.x` (0: the block), never written after.  -1 when
 * name is no such variable. */
static int lane_width(lv *v, const char *name)
{
	const char *t = v->t;
	size_t n = strlen(name);
	long width = -1;
	for (size_t p = v->b0; p + n <= v->b1; p++) {
		if (strncmp(t + p, name, n) || (p > v->b0 && (ident(t[p - 1]) || t[p - 1] == '.')) ||
		    ident(t[p + n]))
			continue; /* not the word, or a member (threadIdx.x is no x) */
		size_t a = ka_csrc_skip_blank(t, v->b1, p + n), e = a;
		if (width < 0) {
			char sq[128];
			while (e < v->b1 && t[e] != ';' && t[e] != ',')
				e++;
			if (t[a] != '=' || t[a + 1] == '=' || !ka_csrc_squeeze(t, a + 1, e, sq, sizeof sq))
				return -1;
			char *end;
			if (!strcmp(sq, "threadIdx.x"))
				width = 0;
			else if (!strncmp(sq, "threadIdx.x&", 12))
				width = (sq[12] == '(' ? strtol(sq + 13, &end, 10) +
								 (strncmp(end, "-1)", 3) ? 1 : 0)
						       : strtol(sq + 12, &end, 10) + 1);
			else if (!strncmp(sq, "threadIdx.x%", 12))
				width = strtol(sq + 12, &end, 10);
			else
				return -1;
			if (width < 0 || width == 1 || width > 32 || (width & (width - 1)))
				return -1;
			p = e;
			continue;
		}
		if (written_at(t, v->b0, v->b1, p, n))
			return -1;
	}
	return (int)width;
}

/* lane_width, where threadIdx.x itself is the block's lane (0) for
 * vectorize-2byte (the float4 form keeps to lane variables). */
static int lane_of(lv *v, const char *name)
{
	if (!strcmp(name, "threadIdx.x"))
		return v->two ? 0 : -1;
	return lane_width(v, name);
}

typedef struct vecptr {
	char name[64], off[200];
	int written, load;
	int size;      /* the element's bytes: 4 (float) or 2 (__half, __nv_bfloat16) */
	char elem[32]; /* the element type as spelled */
} vecptr;

/* The element of a pointer type squeezed with const and __restrict__
 * dropped ("__nv_bfloat16*"): its size (4 or 2) and spelling, or 0. */
static int ptr_elem(const char *bare, char *elem, size_t cap)
{
	static const char *const names[] = {"float", "__half", "half", "__nv_bfloat16", "nv_bfloat16"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t n = strlen(names[i]);
		if (!strncmp(bare, names[i], n) && !strcmp(bare + n, "*")) {
			snprintf(elem, cap, "%s", names[i]);
			return i ? 2 : 4;
		}
	}
	return 0;
}

/* The float pointers of the loop body [s, e) used only as p[j] / p[E+j]. */
static int find_pointers(lv *v, size_t s, size_t e, const char *j, int width, vecptr *out, int *nout)
{
	const char *t = v->t;
	int n = 0;
	char sqb[8192];
	if (!ka_csrc_squeeze(t, s, e, sqb, sizeof sqb))
		return 0;
	int straight = !strstr(sqb, "if(") && !strchr(sqb, '?') && !strstr(sqb, "&&") && !strstr(sqb, "||");
	for (size_t p = s; p < e; p++) {
		if (!ident(t[p]) || (p > s && ident(t[p - 1])))
			continue;
		size_t q = p;
		while (q < e && ident(t[q]))
			q++;
		size_t o = ka_csrc_skip_blank(t, e, q);
		char name[64];
		if (o >= e || t[o] != '[' || q - p >= sizeof name || (p > s && t[p - 1] == '.')) {
			p = q - 1;
			continue;
		}
		snprintf(name, sizeof name, "%.*s", (int)(q - p), t + p);
		int seen = 0;
		for (int i = 0; i < n; i++)
			seen |= !strcmp(out[i].name, name);
		if (seen || n == MAX_VEC) {
			p = q - 1;
			continue;
		}
		/* a float or 2-byte pointer: a parameter, or a local `[const] T *name = ...` */
		int fl = 0, pi = ka_csrc_param_index(v->c->k, name);
		char elem[32] = "";
		if (pi >= 0) {
			char ty[160], bare[160];
			size_t nb = 0;
			ka_csrc_squeeze(v->c->k->params[pi].type, 0, strlen(v->c->k->params[pi].type), ty,
					sizeof ty);
			for (char *w; (w = strstr(ty, "__restrict__"));)
				memmove(w, w + 12, strlen(w + 12) + 1);
			for (const char *w = ty; *w && nb + 1 < sizeof bare; w++) {
				if (!strncmp(w, "const", 5) && !ident(w[5]) && (w == ty || !ident(w[-1]))) {
					w += 4;
					continue;
				}
				if (*w != ' ')
					bare[nb++] = *w;
			}
			bare[nb] = 0;
			fl = ptr_elem(bare, elem, sizeof elem);
		} else {
			static const char *const decl_types[] = {"float", "__half", "half", "__nv_bfloat16",
								 "nv_bfloat16"};
			char sqk[16384];
			if (ka_csrc_squeeze(t, v->b0, s, sqk, sizeof sqk))
				for (size_t k = 0; k < sizeof decl_types / sizeof decl_types[0] && !fl; k++) {
					char pat[120];
					snprintf(pat, sizeof pat, "%s*%s=", decl_types[k], name);
					for (const char *d = strstr(sqk, pat); d && !fl;
					     d = strstr(d + 1, pat))
						if (d == sqk || !ident(d[-1])) {
							snprintf(elem, sizeof elem, "%s", decl_types[k]);
							fl = k ? 2 : 4;
						}
				}
		}
		if (fl == 2 && !v->two)
			fl = 0; /* 2-byte rows are vectorize-2byte's */
		int esize = fl;
		/* the same row on every lane: never moved, computed from uniform values */
		fl = fl && uniform_name(v, name, width, 0);
		/* every use in the body: name[j] or name[E+j] with one E */
		vecptr vp;
		memset(&vp, 0, sizeof vp);
		snprintf(vp.name, sizeof vp.name, "%s", name);
		vp.size = esize;
		snprintf(vp.elem, sizeof vp.elem, "%s", elem);
		int uses = ka_csrc_count_word(t, s, e, name), hits = 0, ok = fl, reads = 0, first_store = 0;
		for (size_t r = s; ok && r < e; r++) {
			if (strncmp(t + r, name, q - p) || (r > s && ident(t[r - 1])) || ident(t[r + q - p]))
				continue;
			size_t ob = ka_csrc_skip_blank(t, e, r + (q - p)),
			       cb = ob < e && t[ob] == '[' ? ka_csrc_match(t, e, ob) : NPOS;
			char idx[200], off[200] = "";
			if (cb == NPOS || !ka_csrc_squeeze(t, ob + 1, cb, idx, sizeof idx)) {
				ok = 0;
				break;
			}
			size_t il = strlen(idx), jl = strlen(j);
			if (!strcmp(idx, j))
				off[0] = 0;
			else if (il > jl + 1 && !strcmp(idx + il - jl, j) && idx[il - jl - 1] == '+')
				snprintf(off, sizeof off, "%.*s", (int)(il - jl - 1), idx);
			else if (!strncmp(idx, j, jl) && idx[jl] == '+')
				snprintf(off, sizeof off, "%s", idx + jl + 1);
			else {
				ok = 0;
				break;
			}
			if (hits && strcmp(off, vp.off)) {
				ok = 0;
				break;
			}
			snprintf(vp.off, sizeof vp.off, "%s", off);
			size_t a = ka_csrc_skip_blank(t, e, cb + 1), pr = r;
			while (pr > s && isspace((unsigned char)t[pr - 1]))
				pr--;
			if (pr > s && t[pr - 1] == '&' && !(pr > s + 1 && t[pr - 2] == '&')) {
				ok = 0; /* its address: an atomic or an out-parameter */
				break;
			}
			int wr = written_at(t, s, e, r, cb + 1 - r);
			size_t bq = r;
			while (bq > s && isspace((unsigned char)t[bq - 1]))
				bq--;
			int stmt_start = bq == s || t[bq - 1] == ';' || t[bq - 1] == '{' || t[bq - 1] == ')';
			if (!hits)
				first_store = wr && stmt_start && t[a] == '=' && t[a + 1] != '=';
			vp.written |= wr;
			reads |= !(wr && t[a] == '=' && t[a + 1] != '=');
			hits++;
			r = cb;
		}
		if (ok && hits == uses && (!vp.off[0] || uniform_expr(v, vp.off, width, 0))) {
			if (vp.written && pi >= 0 && strstr(v->c->k->params[pi].type, "const"))
				ok = 0;
			/* not loaded when straight-line code stores it before any read */
			vp.load = reads || !(straight && first_store);
			if (ok)
				out[n++] = vp;
		}
		p = q - 1;
	}
	*nout = n;
	return n;
}

/* The body [s, e) with each vectorized p[...] made ka_p<suffix>: ka_p.x
 * (a float4's lane), or ka_p_e[ka_l] (an element of a 16-byte word's copy). */
static void lane_body(ka_buf *b, lv *v, size_t s, size_t e, const vecptr *vp, int nv, const char *suffix)
{
	const char *t = v->t;
	size_t from = s;
	for (size_t p = s; p < e; p++) {
		if (!ident(t[p]) || (p > s && ident(t[p - 1])))
			continue;
		size_t q = p;
		while (q < e && ident(t[q]))
			q++;
		int hit = -1;
		for (int i = 0; i < nv && hit < 0; i++)
			if (strlen(vp[i].name) == q - p && !memcmp(vp[i].name, t + p, q - p))
				hit = i;
		size_t ob = hit >= 0 ? ka_csrc_skip_blank(t, e, q) : NPOS,
		       cb = ob != NPOS && t[ob] == '[' ? ka_csrc_match(t, e, ob) : NPOS;
		if (cb == NPOS) {
			p = q - 1;
			continue;
		}
		ka_buf_add(b, t + from, p - from);
		ka_buf_printf(b, "ka_%s%s", vp[hit].name, suffix);
		from = cb + 1;
		p = cb;
	}
	ka_buf_add(b, t + from, e - from);
}

/* 1 when `name` is an argument of a group reduction warp-per-row writes
 * (ka_warp_*, ka_group_*, ka_block_*) in [s, e). */
static int reduced_after_as(const char *t, size_t s, size_t e, const char *name, const char *op)
{
	static const char *const fns[] = {"ka_warp_", "ka_group_", "ka_block_"};
	for (size_t p = s; p + 8 < e; p++) {
		int hit = 0;
		for (size_t f = 0; f < 3 && !hit; f++)
			hit = !strncmp(t + p, fns[f], strlen(fns[f])) && (p == s || !ident(t[p - 1])) &&
			      (!op || !strncmp(t + p + strlen(fns[f]), op, strlen(op)));
		if (!hit)
			continue;
		size_t o = p;
		while (o < e && t[o] != '(' && t[o] != ';')
			o++;
		size_t cl = o < e && t[o] == '(' ? ka_csrc_match(t, e, o) : NPOS;
		char args[256], want[80];
		/* an argument as a whole: `a = ka_warp_sum(a)`, `ka_warp_argmax_first(v, i)` */
		snprintf(want, sizeof want, ",%s,", name);
		if (cl != NPOS && cl - o < 200 && ka_csrc_squeeze(t, o + 1, cl, args + 1, sizeof args - 2)) {
			args[0] = ',';
			strcat(args, ",");
			if (strstr(args, want))
				return 1;
		}
	}
	return 0;
}

static int reduced_after(const char *t, size_t s, size_t e, const char *name)
{
	return reduced_after_as(t, s, e, name, NULL);
}

static int next_stmt(const char *t, size_t b1, size_t p, char *sq, size_t cap, size_t *end);

/* 1 when `name` is a chunk's partial sum: in the loop body [s, e) it is
 * only added to (`name += E`), the statement right after the loop (which
 * ends at loop_e) is `S += name;`, name is not read after that, and S is
 * an argument of a sum over the group (ka_warp_sum, ...) after it.  The
 * total over the lanes is then the same whichever lane held which element
 * (softmax's `for (j0 ...) { part = 0; for (j ...) part += ...; s += part; }`). */
static int chunk_partial(const char *t, size_t s, size_t e, size_t loop_e, size_t b1, const char *name)
{
	size_t n = strlen(name), at;
	for (size_t p = s; p + n <= e; p++) {
		if (strncmp(t + p, name, n) || (p > s && (ident(t[p - 1]) || t[p - 1] == '.')) ||
		    ident(t[p + n]))
			continue;
		size_t a = ka_csrc_skip_blank(t, e, p + n);
		if (a + 1 >= e || t[a] != '+' || t[a + 1] != '=')
			return 0;
	}
	char sq[160], acc[64];
	size_t nl = 0;
	if (!next_stmt(t, b1, loop_e, sq, sizeof sq, &at))
		return 0;
	while (ident(sq[nl]))
		nl++;
	if (!nl || nl >= sizeof acc || strncmp(sq + nl, "+=", 2) || strncmp(sq + nl + 2, name, n) ||
	    strcmp(sq + nl + 2 + n, ";"))
		return 0;
	snprintf(acc, sizeof acc, "%.*s", (int)nl, sq);
	return !ka_csrc_has_word(t, at, b1, name) && reduced_after_as(t, at, b1, acc, "sum");
}

/* The statement that starts at or after p (blanks skipped), squeezed into
 * sq, ending at *end (past its ';' or its closing brace); 0 when none fits. */
static int next_stmt(const char *t, size_t b1, size_t p, char *sq, size_t cap, size_t *end)
{
	p = ka_csrc_skip_blank(t, b1, p);
	size_t e = p < b1 ? ka_csrc_stmt_end(t, b1, p) : NPOS;
	if (e == NPOS || e > b1 || !ka_csrc_squeeze(t, p, e, sq, cap))
		return 0;
	*end = e;
	return 1;
}

/* 1 when every launch of the kernel in the file has the literal block n
 * (`n` or `dim3(n)`), and there is one. */
static int launched_with(ka_recipe_ctx *c, long n)
{
	int seen = 0;
	if (ka_recipe_launches_known(c))
		return 0;
	for (int i = 0; i < c->m->nlaunches; i++) {
		const ka_csrc_launch *l = &c->m->l[i];
		char sq[64], *end;
		if (strcmp(l->kernel, c->k->name))
			continue;
		if (!ka_csrc_squeeze(c->m->text, l->cfg[1].s, l->cfg[1].e, sq, sizeof sq))
			return 0;
		const char *d = !strncmp(sq, "dim3(", 5) ? sq + 5 : sq;
		long b = strtol(d, &end, 10);
		if (end == d || b != n || strcmp(end, d == sq ? "" : ")"))
			return 0;
		seen = 1;
	}
	return seen;
}

/* The text up to the next ';' of *p into out, and *p past the ';': 0 when
 * there is none or it does not fit. */
static int take_to_semi(const char **p, char *out, size_t cap)
{
	size_t n = strcspn(*p, ";");
	if (n >= cap || !(*p)[n])
		return 0;
	snprintf(out, cap, "%.*s", (int)n, *p);
	*p += n + 1;
	return 1;
}

/* 1 when the block's lanes' partial sums in `name` (filled by the loop at
 * [s, e) only as `name += E`) are summed over the whole block right after
 * it, by a shared-memory tree in sequential addressing:
 *     S[threadIdx.x] = name;  __syncthreads();
 *     for (int k = blockDim.x / 2; k > 0; k >>= 1) {     (or k /= 2)
 *         if (threadIdx.x < k) S[threadIdx.x] += S[threadIdx.x + k];
 *         __syncthreads();
 *     }
 * (S __shared__), or seq-reduction's form of it (the steps down to 64
 * values, then warp 0 with shuffles); a literal first k only where every
 * launch's block is twice it.  `name` is read nowhere after the store.  A
 * sum over all lanes does not depend on which lane held which element, so
 * the chunk loop's new assignment of elements to lanes keeps the total. */
static int block_tree_after(lv *v, size_t s, size_t e, size_t loop_e, const char *name)
{
	const char *t = v->t;
	char sq[1024], want[1024], sh[64];
	size_t n = strlen(name), at;
	int adds = 0;
	for (size_t p = s; p + n <= e; p++) {
		if (strncmp(t + p, name, n) || (p > s && (ident(t[p - 1]) || t[p - 1] == '.')) ||
		    ident(t[p + n]))
			continue;
		size_t a = ka_csrc_skip_blank(t, e, p + n), q = p;
		while (q > s && isspace((unsigned char)t[q - 1]))
			q--;
		if (!(a + 1 < e && t[a] == '+' && t[a + 1] == '=') || (q > s && !strchr(";{}", t[q - 1])))
			return 0; /* read, or written otherwise than `name += E;` */
		adds++;
	}
	if (!adds || !next_stmt(t, v->b1, loop_e, sq, sizeof sq, &at))
		return 0;
	size_t k = strcspn(sq, "[");
	snprintf(want, sizeof want, "[threadIdx.x]=%s;", name);
	if (!sq[k] || k >= sizeof sh || strcmp(sq + k, want))
		return 0;
	snprintf(sh, sizeof sh, "%.*s", (int)k, sq);
	char sqk[16384], decl[96];
	snprintf(decl, sizeof decl, "%s[", sh);
	if (!ka_csrc_squeeze(t, v->b0, loop_e, sqk, sizeof sqk) || !strstr(sqk, "__shared__"))
		return 0;
	int shared = 0;
	for (const char *d = strstr(sqk, "__shared__"); d && !shared; d = strstr(d + 1, "__shared__")) {
		const char *semi = strchr(d, ';'), *x = strstr(d, decl);
		shared = x && semi && x < semi && !ident(x[-1]);
	}
	if (!shared || ka_csrc_has_word(t, at, v->b1, name))
		return 0;
	if (!next_stmt(t, v->b1, at, sq, sizeof sq, &at) || strcmp(sq, "__syncthreads();"))
		return 0;
	if (!next_stmt(t, v->b1, at, sq, sizeof sq, &at))
		return 0;
	/* for(int K=INIT;K>LOW;K>>=1){if(threadIdx.x<K)S[threadIdx.x]+=S[threadIdx.x+K];__syncthreads();} */
	char kv[64], init[64], low[16];
	const char *p = sq;
	if (strncmp(p, "for(", 4))
		return 0;
	p += 4;
	if (!strncmp(p, "unsigned", 8))
		p += 8;
	else if (!strncmp(p, "int", 3))
		p += 3;
	else
		return 0;
	size_t kl = 0;
	while (p[kl] == ' ')
		p++;
	while (ident(p[kl]))
		kl++;
	if (!kl || kl >= sizeof kv || p[kl] != '=')
		return 0;
	snprintf(kv, sizeof kv, "%.*s", (int)kl, p);
	p += kl + 1;
	if (!take_to_semi(&p, init, sizeof init))
		return 0;
	if (strncmp(p, kv, kl) || p[kl] != '>')
		return 0;
	p += kl + 1;
	if (!take_to_semi(&p, low, sizeof low))
		return 0;
	char rest1[512], rest2[512];
	snprintf(rest1, sizeof rest1,
		 "%s>>=1){if(threadIdx.x<%s)%s[threadIdx.x]+=%s[threadIdx.x+%s];__syncthreads();}", kv, kv,
		 sh, sh, kv);
	snprintf(rest2, sizeof rest2,
		 "%s/=2){if(threadIdx.x<%s)%s[threadIdx.x]+=%s[threadIdx.x+%s];__syncthreads();}", kv, kv, sh,
		 sh, kv);
	if (strcmp(p, rest1) && strcmp(p, rest2))
		return 0;
	char *end;
	long k0 = strtol(init, &end, 10);
	int lit = end != init && !*end && k0 > 0;
	if (!strcmp(low, "0"))
		return !strcmp(init, "blockDim.x/2") || (lit && launched_with(v->c, 2 * k0));
	/* seq-reduction's form: down to 64 values, then warp 0 */
	if (strcmp(low, "32") || !lit || !launched_with(v->c, 2 * k0) ||
	    !next_stmt(t, v->b1, at, sq, sizeof sq, &at) || strncmp(sq, "if(threadIdx.x<32){float ", 25))
		return 0;
	char vv[64];
	size_t vl = 0;
	while (ident(sq[25 + vl]))
		vl++;
	if (!vl || vl >= sizeof vv)
		return 0;
	snprintf(vv, sizeof vv, "%.*s", (int)vl, sq + 25);
	char ow[64];
	const char *o = strstr(sq, "for(int ");
	size_t ol = 0;
	while (o && ident(o[8 + ol]))
		ol++;
	if (!o || !ol || ol >= sizeof ow)
		return 0;
	snprintf(ow, sizeof ow, "%.*s", (int)ol, o + 8);
	snprintf(
		want, sizeof want,
		"if(threadIdx.x<32){float %s=%s[threadIdx.x]+%s[threadIdx.x+32];for(int %s=16;%s>0;%s>>=1)%s+="
		"__shfl_down_sync(0xffffffffu,%s,%s);if(threadIdx.x==0)%s[0]=%s;}",
		vv, sh, sh, ow, ow, ow, vv, vv, ow, sh, vv);
	return !strcmp(sq, want);
}

/* KA_OK when the loop body [s, e) does for an element what it did, on
 * whichever lane runs it: no barrier, shuffle, thread id or lane, no jump
 * out; a store goes to an element its subscript picks by j; a variable from
 * outside the loop it writes is combined over the group after the loop
 * (warp-per-row's reductions), since each lane now sees other elements. */
static int lane_free(lv *v, size_t s, size_t e, const char *j, const char *lane, size_t loop_e, int width)
{
	ka_recipe_ctx *c = v->c;
	const char *t = v->t;
	static const char *const banned[] = {"__syncthreads",
					     "__syncwarp",
					     "__shfl_sync",
					     "__shfl_xor_sync",
					     "__shfl_up_sync",
					     "__shfl_down_sync",
					     "__ballot_sync",
					     "__any_sync",
					     "__all_sync",
					     "__activemask",
					     "asm",
					     "__asm__",
					     "return",
					     "break",
					     "continue",
					     "goto",
					     "threadIdx",
					     "__shared__",
					     NULL};
	for (int i = 0; banned[i]; i++)
		if (ka_csrc_has_word(t, s, e, banned[i]))
			return ka_recipe_decline(c, "the lane loop's body uses %s", banned[i]);
	if (ka_csrc_has_word(t, s, e, lane))
		return ka_recipe_decline(c, "the lane loop's body reads the lane %s", lane);
	for (size_t p = s; p < e; p++) {
		if (!ident(t[p]) || (p > s && (ident(t[p - 1]) || t[p - 1] == '.')))
			continue;
		size_t q = p;
		while (q < e && ident(t[q]))
			q++;
		size_t o = ka_csrc_skip_blank(t, e, q),
		       cb = o < e && t[o] == '[' ? ka_csrc_match(t, e, o) : NPOS;
		if (cb != NPOS) { /* a subscript: stored only where j picks */
			if (written_at(t, s, e, p, cb + 1 - p) && !ka_csrc_has_word(t, o, cb, j))
				return ka_recipe_decline(
					c, "the lane loop stores '%.*s[...]' at a subscript without %s",
					(int)(q - p), t + p, j);
			p = q - 1;
			continue;
		}
		char name[64];
		if (q - p >= sizeof name || !written_at(t, s, e, p, q - p)) {
			p = q - 1;
			continue;
		}
		snprintf(name, sizeof name, "%.*s", (int)(q - p), t + p);
		/* declared in the body: the element's own */
		int local = 0;
		for (size_t d = s; d + (q - p) <= e && !local; d++) {
			if (strncmp(t + d, name, q - p) || (d > s && ident(t[d - 1])) ||
			    ident(t[d + (q - p)]))
				continue;
			size_t b = d;
			while (b > s && isspace((unsigned char)t[b - 1]))
				b--;
			while (b > s && t[b - 1] == '*') /* `T *name`, never `a * name` */
				for (b--; b > s && isspace((unsigned char)t[b - 1]);)
					b--;
			size_t w = b;
			while (w > s && ident(t[w - 1]))
				w--;
			local = is_word_in(type_words, t + w, b - w);
		}
		if (!local && !reduced_after(t, loop_e, v->b1, name) &&
		    !chunk_partial(t, s, e, loop_e, v->b1, name) &&
		    !(width == 0 && block_tree_after(v, s, e, loop_e, name)))
			return ka_recipe_decline(
				c,
				"%s carries a lane's own elements past the lane loop and is not "
				"reduced over the group after it",
				name);
		p = q - 1;
	}
	return KA_OK;
}

/* One for loop at [s, e): KA_OK with its replacement in ed, or declined. */
static int one_loop(lv *v, ka_recipe_edits *ed, size_t s, size_t e)
{
	ka_recipe_ctx *c = v->c;
	const char *t = v->t;
	char parts[3][KA_RECIPE_FOR_PART];
	int np;
	if (ka_recipe_for_parts(c, s, parts, &np) != KA_OK || np != 3)
		return KA_RECIPE_DECLINED;
	size_t po = ka_csrc_skip_blank(t, e, s + 3), pc = ka_csrc_match(t, e, po);
	size_t bs = ka_csrc_skip_blank(t, e, pc + 1);
	if (ka_csrc_has_word(t, bs, e, "for") || ka_csrc_has_word(t, bs, e, "while") ||
	    ka_csrc_has_word(t, bs, e, "do"))
		return ka_recipe_decline(c, "the lane loop '%.60s' is not innermost", parts[0]);
	/* T j = (S) + L */
	char *eq = strchr(parts[0], '='), type[128], j[64], start[KA_RECIPE_FOR_PART], lane[64];
	if (!eq)
		return KA_RECIPE_DECLINED;
	char *vb = eq;
	while (vb > parts[0] && ident(vb[-1]))
		vb--;
	if (vb == parts[0] || vb == eq || (size_t)(eq - vb) >= sizeof j ||
	    (size_t)(vb - parts[0]) >= sizeof type)
		return KA_RECIPE_DECLINED;
	snprintf(j, sizeof j, "%.*s", (int)(eq - vb), vb);
	snprintf(type, sizeof type, "%.*s", (int)(vb - parts[0]), parts[0]);
	const char *init = eq + 1, *plus = strrchr(init, '+');
	int width = -1;
	start[0] = 0;
	if (plus && (width = lane_of(v, plus + 1)) >= 0) { /* (S)+L */
		snprintf(lane, sizeof lane, "%s", plus + 1);
		snprintf(start, sizeof start, "%.*s", (int)(plus - init), init);
	} else if (plus && (plus = strchr(init, '+')) && (size_t)(plus - init) < sizeof lane) { /* L+S */
		snprintf(lane, sizeof lane, "%.*s", (int)(plus - init), init);
		if ((width = lane_of(v, lane)) >= 0)
			snprintf(start, sizeof start, "%s", plus + 1);
	} else if (!plus && (width = lane_of(v, init)) >= 0) {
		snprintf(lane, sizeof lane, "%s", init);
		snprintf(start, sizeof start, "0");
	}
	if (width < 0)
		return KA_RECIPE_DECLINED; /* no lane loop */
	char step[80];
	snprintf(step, sizeof step, width ? "%s+=%d" : "%s+=blockDim.x", j, width);
	if (strcmp(parts[2], step))
		return ka_recipe_decline(c, "the lane loop over %s steps by '%s', not its group's width", j,
					 parts[2]);
	/* `j < B`, `j <= B`, or two of them joined by && (a chunk of a row:
	 * `j < cols && j < j0 + 1024`), whose range ends at the lesser */
	size_t jl = strlen(j);
	char conj[2][KA_RECIPE_FOR_PART], end[4 * KA_RECIPE_FOR_PART + 128];
	const char *and = strstr(parts[1], "&&");
	int nb = and ? 2 : 1;
	snprintf(conj[0], sizeof conj[0], "%.*s", and? (int)(and-parts[1]) : (int)strlen(parts[1]), parts[1]);
	snprintf(conj[1], sizeof conj[1], "%s", and? and+2 : "");
	char ends[2][KA_RECIPE_FOR_PART + 16];
	for (int k = 0; k < nb; k++) {
		const char *cj = conj[k];
		if (strncmp(cj, j, jl) || cj[jl] != '<' || strstr(cj, "&&") || strstr(cj, "||"))
			return ka_recipe_decline(
				c, "the lane loop's test '%s' is not one bound `%s < B` or two", parts[1], j);
		int le = cj[jl + 1] == '='; /* j <= B: the range ends at B + 1 */
		const char *bound = cj + jl + 1 + le;
		v->bad[0] = 0;
		if (!uniform_expr(v, start, width, 0) || !uniform_expr(v, bound, width, 0))
			return ka_recipe_decline(
				c,
				"cannot prove the lane loop's range [%s, %s) the same on every lane of a row (%s)",
				start, bound, v->bad[0] ? v->bad : "a load or a call");
		snprintf(ends[k], sizeof ends[k], le ? "(%s) + 1" : "%s", bound);
	}
	char bn[16] = "", bval[sizeof end] = ""; /* two bounds: the lesser, once */
	if (nb == 1) {
		snprintf(end, sizeof end, "%s", ends[0]);
	} else {
		ka_recipe_unused_name(c, "ka_b", bn, sizeof bn);
		snprintf(bval, sizeof bval,
			 "(long long)(%s) < (long long)(%s) ? (long long)(%s) : (long long)(%s)", ends[0],
			 ends[1], ends[0], ends[1]);
		snprintf(end, sizeof end, "%s", bn);
	}
	vecptr vp[MAX_VEC];
	int nv = 0;
	size_t b0 = bs, b1 = e;
	if (t[bs] == '{') {
		b0 = bs + 1;
		b1 = ka_csrc_match(t, e, bs);
	}
	int lf = lane_free(v, b0, b1, j, lane, e, width);
	if (lf)
		return lf;
	if (!find_pointers(v, b0, b1, j, width, vp, &nv))
		return ka_recipe_decline(
			c, "no float pointer is used only as p[%s] or p[E + %s] in the lane loop", j, j);
	int two = 0; /* a 2-byte pointer: chunks of 8 elements as 16-byte words */
	for (int i = 0; i < nv; i++)
		two |= vp[i].size == 2;
	if (v->two && !two)
		return ka_recipe_decline(c,
					 "no __half or __nv_bfloat16 pointer is used only as p[%s] or "
					 "p[E + %s] in the lane loop",
					 j, j);
	const int per = two ? 8 : 4;
	char vn[16], nn[16], sn[16], an[16], s0[16], hn[16];
	/* the chunk: ka_c in the 8-element form (seq-reduction writes ka_v and
	 * declines where the kernel has it: the two then apply in either order) */
	ka_recipe_unused_name(c, two ? "ka_c" : "ka_v", vn, sizeof vn);
	ka_recipe_unused_name(c, two ? "ka_n8" : "ka_n4", nn, sizeof nn);
	ka_recipe_unused_name(c, "ka_s", sn, sizeof sn);
	ka_recipe_unused_name(c, "ka_al", an, sizeof an);
	ka_recipe_unused_name(c, "ka_s0", s0, sizeof s0);
	ka_recipe_unused_name(c, "ka_h", hn, sizeof hn);
	char wstep[32];
	snprintf(wstep, sizeof wstep, width ? "%d" : "blockDim.x", width);
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	/* the head: the elements before the first pointer's next 16-byte
	 * boundary (a row of a cols % 4 != 0 matrix, or a range from 1), one
	 * per lane and before the chunks, so that each lane still meets its
	 * elements in rising order (a strict `>` keeps the first index) */
	ka_buf_printf(&b,
		      "{\n\t\tconst long long %s = %s;\n\t\t/* the elements before the next 16-byte "
		      "boundary, one per lane, first */\n\t\tlong long %s = (long long)((16 - "
		      "((unsigned long long)(%s%s%s + %s) & 15)) & 15) / %d;\n",
		      s0, start, hn, vp[0].name, vp[0].off[0] ? " + " : "", vp[0].off, s0, vp[0].size);
	if (bn[0])
		ka_buf_printf(&b, "\t\tconst long long %s = %s;\n", bn, bval);
	ka_buf_printf(
		&b,
		"\t\tif (%s > (long long)(%s) - %s)\n\t\t\t%s = (long long)(%s) > %s ? (long long)(%s) - %s : 0;\n",
		hn, end, s0, hn, end, s0, end, s0);
	char ty[128]; /* the loop's type, for the head's bound */
	size_t tl = strlen(type);
	while (tl && type[tl - 1] == ' ')
		tl--;
	snprintf(ty, sizeof ty, "%.*s", (int)tl, type);
	ka_buf_printf(&b, "\t\tfor (%s%s = %s + %s; %s < (%s)(%s + %s); %s += %s)", type, j, s0, lane, j, ty,
		      s0, hn, j, wstep);
	ka_buf_add(&b, t + pc + 1, e - (pc + 1));
	ka_buf_printf(&b,
		      "\n\t\tconst long long %s = %s + %s;\n\t\t/* %s chunks where every vectorized row is "
		      "16-byte aligned */\n\t\tconst unsigned long long %s = 0",
		      sn, s0, hn, two ? "8-element" : "float4", an);
	for (int i = 0; i < nv; i++)
		ka_buf_printf(&b, " | (unsigned long long)(%s%s%s + %s)", vp[i].name,
			      vp[i].off[0] ? " + " : "", vp[i].off, sn);
	ka_buf_printf(
		&b,
		";\n\t\tconst long long %s = (%s & 15) || (long long)(%s) <= %s ? 0 : ((long long)(%s) - %s) / %d;\n",
		nn, an, end, sn, end, sn, per);
	/* unrolled: several chunks' loads in flight on each lane */
	ka_buf_printf(&b, "#pragma unroll 4\n\t\tfor (long long %s = %s; %s < %s; %s += %s) {\n", vn, lane,
		      vn, nn, vn, wstep);
	for (int i = 0; i < nv; i++) {
		char base[400];
		snprintf(base, sizeof base, "%.63s%s%.199s + %.15s", vp[i].name, vp[i].off[0] ? " + " : "",
			 vp[i].off, sn);
		if (!two) {
			if (vp[i].load)
				ka_buf_printf(
					&b,
					"\t\t\tfloat4 ka_%s = reinterpret_cast<const float4 *>(%s)[%s];\n",
					vp[i].name, base, vn);
			else
				ka_buf_printf(&b, "\t\t\tfloat4 ka_%s;\n", vp[i].name);
			continue;
		}
		int words = vp[i].size / 2; /* 16-byte words for 8 elements */
		ka_buf_printf(&b, "\t\t\tuint4 ka_%s[%d];\n", vp[i].name, words);
		for (int w = 0; vp[i].load && w < words; w++)
			ka_buf_printf(
				&b, "\t\t\tka_%s[%d] = reinterpret_cast<const uint4 *>(%s)[%d * %s + %d];\n",
				vp[i].name, w, base, words, vn, w);
		ka_buf_printf(&b, "\t\t\t%s *ka_%s_e = reinterpret_cast<%s *>(ka_%s);\n", vp[i].elem,
			      vp[i].name, vp[i].elem, vp[i].name);
	}
	static const char comps[] = "xyzw";
	ka_buf lb;
	ka_buf_init(&lb, 1 << 20);
	for (int l = 0; l < (two ? 1 : 4); l++) {
		ka_buf_reset(&lb);
		char suffix[8] = {'.', comps[l], 0};
		lane_body(&lb, v, b0, b1, vp, nv, two ? "_e[ka_l]" : suffix);
		ka_buf_adds(&b, two ? "#pragma unroll\n\t\t\tfor (int ka_l = 0; ka_l < 8; ka_l++) {\n"
				    : "\t\t\t{\n");
		if (lb.data && ka_csrc_has_word(lb.data, 0, lb.len, j)) {
			if (two)
				ka_buf_printf(&b, "\t\t\t\t%s%s = %s + 8 * %s + ka_l;\n", type, j, sn, vn);
			else
				ka_buf_printf(&b, "\t\t\t\t%s%s = %s + 4 * %s + %d;\n", type, j, sn, vn, l);
		}
		ka_buf_adds(&b, "\t\t\t\t");
		size_t l0 = 0, l1 = lb.len; /* the body without the blank lines around it */
		while (lb.data && l0 < l1 && isspace((unsigned char)lb.data[l0]))
			l0++;
		while (lb.data && l1 > l0 && isspace((unsigned char)lb.data[l1 - 1]))
			l1--;
		if (lb.data)
			ka_buf_add(&b, lb.data + l0, l1 - l0);
		ka_buf_adds(&b, "\n\t\t\t}\n");
	}
	ka_buf_free(&lb);
	for (int i = 0; i < nv; i++) {
		if (!vp[i].written)
			continue;
		if (!two) {
			ka_buf_printf(&b, "\t\t\treinterpret_cast<float4 *>(%s%s%s + %s)[%s] = ka_%s;\n",
				      vp[i].name, vp[i].off[0] ? " + " : "", vp[i].off, sn, vn, vp[i].name);
			continue;
		}
		for (int w = 0; w < vp[i].size / 2; w++)
			ka_buf_printf(
				&b,
				"\t\t\treinterpret_cast<uint4 *>(%s%s%s + %s)[%d * %s + %d] = ka_%s[%d];\n",
				vp[i].name, vp[i].off[0] ? " + " : "", vp[i].off, sn, vp[i].size / 2, vn, w,
				vp[i].name, w);
	}
	size_t semi = po + 1; /* the tail: the loop as written, from the last chunk on */
	for (int d = 0; semi < pc && (d || t[semi] != ';'); semi++)
		d += t[semi] == '(' ? 1 : t[semi] == ')' ? -1 : 0;
	ka_buf_printf(&b, "\t\t}\n\t\tfor (%s%s = %s + %d * %s + %s", type, j, sn, per, nn, lane);
	ka_buf_add(&b, t + semi, e - semi);
	ka_buf_adds(&b, "\n\t}");
	int rc = b.data ? ka_recipe_edit(ed, s, e, b.data) : ka_error_set(KA_ENOMEM, "out of memory");
	ka_buf_free(&b);
	return rc;
}

static int lane_vectorize(ka_recipe_ctx *c, ka_buf *out, int two)
{
	const char *t = c->m->text;
	lv v = {.c = c, .t = t, .b0 = c->k->body_open + 1, .b1 = c->k->body_close, .two = two};
	if (ka_recipe_param(c->params, "vec", 4) != 4)
		return ka_recipe_decline(c, "only vec=4 (float4) is written");
	ka_recipe_edits ed = {0};
	int rc = KA_OK, done = 0, any = 0;
	char first[sizeof c->why] = "";
	for (size_t p = v.b0; rc >= 0 && p + 3 < v.b1; p++) {
		if (strncmp(t + p, "for", 3) || ident(t[p + 3]) || (p > v.b0 && ident(t[p - 1])))
			continue;
		size_t e = ka_csrc_stmt_end(t, v.b1, p);
		if (e == NPOS)
			break;
		c->why[0] = 0;
		int r1 = one_loop(&v, &ed, p, e);
		if (r1 == KA_OK) {
			done++;
			p = e - 1; /* innermost: nothing inside it to vectorize */
		} else if (r1 < 0) {
			rc = r1;
		} else if (c->why[0]) {
			any = 1;
			if (!first[0])
				snprintf(first, sizeof first, "%s", c->why);
		}
	}
	if (rc == KA_OK && !done)
		rc = any ? ka_recipe_decline(c, "%s", first) : ka_recipe_decline(c, "no lane-strided loop");
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, c->m->len, out);
	ka_recipe_edits_free(&ed);
	return rc;
}

int ka_recipe_lane_vectorize(ka_recipe_ctx *c, ka_buf *out)
{
	return lane_vectorize(c, out, 0);
}

int ka_recipe_lane_vectorize_2byte(ka_recipe_ctx *c, ka_buf *out)
{
	return lane_vectorize(c, out, 1);
}

/* A lane loop's header for another recipe (row-cache): the same reading
 * one_loop makes of it, the block's own lanes included. */
int ka_recipe_lane_loop_read(ka_recipe_ctx *c, size_t s, size_t e, ka_recipe_lane_loop *lp)
{
	const char *t = c->m->text;
	lv v = {.c = c, .t = t, .b0 = c->k->body_open + 1, .b1 = c->k->body_close, .two = 1};
	char parts[3][KA_RECIPE_FOR_PART];
	int np;
	memset(lp, 0, sizeof *lp);
	c->why[0] = 0;
	if (ka_recipe_for_parts(c, s, parts, &np) != KA_OK || np != 3) {
		c->why[0] = 0;
		return KA_RECIPE_DECLINED;
	}
	size_t po = ka_csrc_skip_blank(t, e, s + 3), pc = ka_csrc_match(t, e, po);
	size_t bs = ka_csrc_skip_blank(t, e, pc + 1);
	char *eq = strchr(parts[0], '='), *vb = eq;
	if (!eq)
		return KA_RECIPE_DECLINED;
	while (vb > parts[0] && ident(vb[-1]))
		vb--;
	if (vb == parts[0] || vb == eq || (size_t)(eq - vb) >= sizeof lp->var ||
	    (size_t)(vb - parts[0]) >= sizeof lp->type)
		return KA_RECIPE_DECLINED;
	snprintf(lp->var, sizeof lp->var, "%.*s", (int)(eq - vb), vb);
	snprintf(lp->type, sizeof lp->type, "%.*s", (int)(vb - parts[0]), parts[0]);
	const char *init = eq + 1, *plus = strrchr(init, '+');
	int width = -1;
	if (plus && (width = lane_of(&v, plus + 1)) >= 0) { /* (S)+L */
		snprintf(lp->lane, sizeof lp->lane, "%s", plus + 1);
		snprintf(lp->start, sizeof lp->start, "%.*s", (int)(plus - init), init);
	} else if (plus && (plus = strchr(init, '+')) && (size_t)(plus - init) < sizeof lp->lane) { /* L+S */
		snprintf(lp->lane, sizeof lp->lane, "%.*s", (int)(plus - init), init);
		if ((width = lane_of(&v, lp->lane)) >= 0)
			snprintf(lp->start, sizeof lp->start, "%s", plus + 1);
	} else if (!plus && (width = lane_of(&v, init)) >= 0) {
		snprintf(lp->lane, sizeof lp->lane, "%s", init);
		snprintf(lp->start, sizeof lp->start, "0");
	}
	if (width < 0)
		return KA_RECIPE_DECLINED; /* no lane loop */
	lp->width = width;
	char step[80];
	snprintf(step, sizeof step, width ? "%s+=%d" : "%s+=blockDim.x", lp->var, width);
	if (strcmp(parts[2], step))
		return ka_recipe_decline(c, "the lane loop over %s steps by '%s', not its group's width",
					 lp->var, parts[2]);
	snprintf(lp->cond, sizeof lp->cond, "%s", parts[1]);
	snprintf(lp->step, sizeof lp->step, "%s", parts[2]);
	v.bad[0] = 0;
	if (!uniform_expr(&v, lp->start, width, 0))
		return ka_recipe_decline(
			c, "cannot prove the lane loop's start '%s' the same on every lane (%s)", lp->start,
			v.bad[0] ? v.bad : "a load or a call");
	lp->hdr_close = pc;
	lp->body_s = bs;
	lp->body_e = e;
	if (t[bs] == '{') {
		lp->body_s = bs + 1;
		lp->body_e = ka_csrc_match(t, e, bs);
	}
	return KA_OK;
}

int ka_recipe_lane_uniform(ka_recipe_ctx *c, const char *sq, int width, char *bad, size_t cap)
{
	lv v = {.c = c, .t = c->m->text, .b0 = c->k->body_open + 1, .b1 = c->k->body_close, .two = 1};
	int ok = uniform_expr(&v, sq, width, 0);
	if (bad && cap)
		snprintf(bad, cap, "%s", v.bad[0] ? v.bad : "a load or a call");
	return ok;
}

int ka_recipe_lane_uniform_name(ka_recipe_ctx *c, const char *name, int width)
{
	lv v = {.c = c, .t = c->m->text, .b0 = c->k->body_open + 1, .b1 = c->k->body_close, .two = 1};
	return uniform_name(&v, name, width, 0);
}

int ka_recipe_written_at(const char *t, size_t b0, size_t b1, size_t p, size_t n)
{
	return written_at(t, b0, b1, p, n);
}
