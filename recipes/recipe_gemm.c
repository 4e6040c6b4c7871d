/* recipes/recipe_gemm.c: the smem-tile-gemm recipe (rules gmem-no-tile-reuse,
 * gmem-uncoalesced-access).  The naive one-thread-per-output product
 *     j = x thread index, i = y thread index;  if (i >= M || j >= N) return;
 *     float acc = 0.0f;
 *     for (int l = 0; l < K; l++) acc += A[i * K + l] * B[l * N + j];
 *     C[i * N + j] = E(acc);
 * (recipes/recipe_gemm_int.h: the spellings read, shared with wmma-gemm)
 * reads every element of A and B from global memory N and M times.  The
 * recipe computes a 64 x 64 block of C per 16 x 16 threads: 64 x 16 tiles
 * of A and 16 x 64 tiles of B staged in shared memory (zero-filled past
 * the edges, A's rows padded by one word), and a 4 x 4 register block per
 * thread whose rows are ty + 16r and columns tx + 16c, so that shared
 * reads are broadcasts or consecutive and C's stores coalesce.  The sum
 * runs over l in the same order per output element as before. */
#include "recipes/recipe_gemm_int.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)

static int is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* Only the widening casts (ka_recipe_drop_casts drops narrowing ones too): a
 * GEMM index cast to int may wrap, and the rewrite must not assume it does not. */
static void drop_casts(char *s)
{
	static const char *const casts[] = {"(long long)", "(size_t)", "(int64_t)", "(long)"};
	for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++)
		for (char *p; (p = strstr(s, casts[i]));)
			memmove(p, p + strlen(casts[i]), strlen(p + strlen(casts[i])) + 1);
}

/* "T a = X, b = Y;" as two declarations. */
static int split_pair(const char *sq, char *d1, char *d2, size_t cap)
{
	const char *eq = strchr(sq, '='), *comma = eq ? strchr(eq, ',') : NULL, *sp = strchr(sq, ' ');
	if (!comma || !sp)
		return 0;
	const char *type_end = sq;
	for (const char *q = sq; q < eq; q++)
		if (*q == ' ')
			type_end = q;
	snprintf(d1, cap, "%.*s;", (int)(comma - sq), sq);
	snprintf(d2, cap, "%.*s %s", (int)(type_end - sq), sq, comma + 1);
	return 1;
}

static int stmt(const char *t, size_t *at, size_t end, char *sq, size_t cap, size_t *s, size_t *e)
{
	*s = ka_csrc_skip_blank(t, end, *at);
	*e = ka_csrc_stmt_end(t, end, *s);
	if (*e == NPOS || *e > end || !ka_csrc_squeeze(t, *s, *e, sq, cap))
		return 0;
	drop_casts(sq);
	*at = *e;
	return 1;
}

/* The bracket that closes the one at open in the squeezed s, or NPOS. */
static size_t close_of(const char *s, size_t open)
{
	int d = 0;
	for (size_t i = open; s[i]; i++) {
		d += s[i] == '(' || s[i] == '[';
		d -= s[i] == ')' || s[i] == ']';
		if (!d)
			return i;
	}
	return NPOS;
}

/* The two declarations [d1, d2) (strings) as the x and y thread indices, in
 * either order. */
static int tid_pair(const char *d1, const char *d2, ka_recipe_gemm *g)
{
	ka_recipe_tid x, y;
	if (!((ka_recipe_tid_decl(d1, 0, strlen(d1), 'x', &x) &&
	       ka_recipe_tid_decl(d2, 0, strlen(d2), 'y', &y)) ||
	      (ka_recipe_tid_decl(d1, 0, strlen(d1), 'y', &y) &&
	       ka_recipe_tid_decl(d2, 0, strlen(d2), 'x', &x))))
		return 0;
	snprintf(g->j, sizeof g->j, "%s", x.var);
	snprintf(g->jtype, sizeof g->jtype, "%s", x.base);
	snprintf(g->i, sizeof g->i, "%s", y.var);
	snprintf(g->itype, sizeof g->itype, "%s", y.base);
	return 1;
}

/* 1 when the squeezed index idx reads as the sum of products "p*q+r" (the
 * expected one, spelled in any order); a narrowing cast (int, unsigned)
 * makes it no match, since it may wrap where the rewrite does not. */
static int index_is(const char *idx, const char *p, const char *q, const char *r)
{
	static const char *const narrow[] = {"int", "unsigned", "short", "char", "int32_t", "uint32_t"};
	for (size_t w = 0; w < sizeof narrow / sizeof narrow[0]; w++)
		if (ka_csrc_has_word(idx, 0, strlen(idx), narrow[w]))
			return 0;
	char want[400];
	ka_recipe_poly a, b;
	snprintf(want, sizeof want, "%s*%s+%s", p, q, r);
	if (!ka_recipe_poly_read(idx, NULL, &a) || !ka_recipe_poly_read(want, NULL, &b) || a.n != b.n)
		return 0;
	int used[KA_RECIPE_POLY_TERMS] = {0};
	for (int x = 0; x < a.n; x++) {
		int found = 0;
		for (int y = 0; y < b.n && !found; y++) {
			if (used[y] || a.t[x].coef != b.t[y].coef || a.t[x].nf != b.t[y].nf)
				continue;
			int same = 1;
			for (int f = 0; f < a.t[x].nf && same; f++)
				same = ka_recipe_poly_has(&a.t[x], a.t[x].f[f]) ==
				       ka_recipe_poly_has(&b.t[y], a.t[x].f[f]);
			if (same)
				used[y] = found = 1;
		}
		if (!found)
			return 0;
	}
	return 1;
}

/* A factor of the product: NAME[IDX], bare or through a conversion to
 * float; 1 with the parts, *conv set when converted. */
static int factor(const char *x, char *name, size_t ncap, char *idx, size_t icap, int *conv)
{
	static const char *const calls[] = {"__bfloat162float(", "__half2float(", "float(",
					    "static_cast<float>("};
	char buf[512];
	snprintf(buf, sizeof buf, "%s", x);
	*conv = 0;
	for (int again = 1; again;) {
		again = 0;
		size_t n = strlen(buf);
		for (size_t q = 0; q < sizeof calls / sizeof calls[0] && !again; q++) {
			size_t cl = strlen(calls[q]);
			if (!strncmp(buf, calls[q], cl) && close_of(buf, cl - 1) == n - 1) {
				memmove(buf, buf + cl, n - cl);
				buf[n - cl - 1] = 0;
				again = *conv = 1;
			}
		}
		if (!again && !strncmp(buf, "(float)", 7)) {
			memmove(buf, buf + 7, n - 6);
			again = *conv = 1;
		} else if (!again && buf[0] == '(' && close_of(buf, 0) == n - 1) {
			memmove(buf, buf + 1, n - 1);
			buf[n - 2] = 0;
			again = 1;
		}
	}
	const char *lb = strchr(buf, '[');
	size_t n = strlen(buf);
	if (!lb || lb == buf || close_of(buf, (size_t)(lb - buf)) != n - 1 || (size_t)(lb - buf) >= ncap)
		return 0;
	for (const char *p = buf; p < lb; p++)
		if (!is_ident(*p))
			return 0;
	snprintf(name, ncap, "%.*s", (int)(lb - buf), buf);
	snprintf(idx, icap, "%.*s", (int)(n - (size_t)(lb - buf) - 2), lb + 1);
	return 1;
}

/* The k loop `for (I l = 0; l < K; l++) UPDATE` starting at s (statement
 * [s, e)): l, K and the two factors X and Y of the update. */
static int read_kloop(ka_recipe_ctx *c, size_t s, size_t e, ka_recipe_gemm *g, char xy[2][512])
{
	const char *t = c->m->text;
	char parts[3][KA_RECIPE_FOR_PART], sq[1024];
	int np;
	if (e - s < 4 || strncmp(t + s, "for", 3) || is_ident(t[s + 3]))
		return ka_recipe_decline(c, "no k loop after the accumulator");
	if (ka_recipe_for_parts(c, s, parts, &np) || np != 3)
		return ka_recipe_decline(c, "cannot read the k loop's header");
	/* I l=0 */
	char *eq = strchr(parts[0], '='), *sp = eq ? strrchr(parts[0], ' ') : NULL;
	if (!eq || !sp || sp > eq || strcmp(eq, "=0"))
		return ka_recipe_decline(c, "the k loop does not declare its variable from 0");
	snprintf(g->l, sizeof g->l, "%.*s", (int)(eq - sp - 1), sp + 1);
	for (const char *w = parts[0]; w < sp;) {
		static const char *const ok[] = {"int",    "long",    "unsigned", "signed",
						 "size_t", "int64_t", "uint64_t"};
		size_t n = strcspn(w, " "), q = 0;
		while (q < sizeof ok / sizeof ok[0] && (strlen(ok[q]) != n || strncmp(w, ok[q], n)))
			q++;
		if (q == sizeof ok / sizeof ok[0])
			return ka_recipe_decline(c, "the k loop's variable is not an integer");
		w += n + (w[n] == ' ');
	}
	size_t ll = strlen(g->l);
	char s1[80], s2[80], s3[80];
	snprintf(s1, sizeof s1, "%s++", g->l);
	snprintf(s2, sizeof s2, "++%s", g->l);
	snprintf(s3, sizeof s3, "%s+=1", g->l);
	if (strncmp(parts[1], g->l, ll) || parts[1][ll] != '<' || parts[1][ll + 1] == '=' ||
	    (strcmp(parts[2], s1) && strcmp(parts[2], s2) && strcmp(parts[2], s3)))
		return ka_recipe_decline(c, "the k loop is not `for (int %s = 0; %s < K; %s++)`", g->l, g->l,
					 g->l);
	snprintf(g->k, sizeof g->k, "%s", parts[1] + ll + 1);
	if (ka_csrc_param_index(c->k, g->k) < 0)
		return ka_recipe_decline(c, "the k loop's bound %s is not a parameter", g->k);
	size_t op = ka_csrc_skip_blank(t, e, s + 3), cl = ka_csrc_match(t, e, op);
	if (cl == NPOS || !ka_csrc_squeeze(t, cl + 1, e, sq, sizeof sq))
		return ka_recipe_decline(c, "cannot read the k loop's body");
	drop_casts(sq);
	size_t n = strlen(sq);
	if (n > 2 && sq[0] == '{' && sq[n - 1] == '}') {
		memmove(sq, sq + 1, n - 2);
		sq[n -= 2] = 0;
	}
	if (!n || sq[n - 1] != ';' || strchr(sq, ';') != sq + n - 1)
		return ka_recipe_decline(c, "the k loop does more than one accumulation");
	sq[--n] = 0;
	/* acc+=P  acc=acc+P  acc=P+acc  acc=fmaf(X,Y,acc) */
	size_t al = strlen(g->acc);
	char prod[1024] = "";
	const char *rhs = !strncmp(sq, g->acc, al) ? sq + al : NULL;
	if (rhs && rhs[0] == '+' && rhs[1] == '=')
		snprintf(prod, sizeof prod, "%s", rhs + 2);
	else if (rhs && rhs[0] == '=' && rhs[1] != '=') {
		rhs++;
		size_t rl = strlen(rhs);
		if (!strncmp(rhs, g->acc, al) && rhs[al] == '+')
			snprintf(prod, sizeof prod, "%s", rhs + al + 1);
		else if (rl > al + 1 && rhs[rl - al - 1] == '+' && !strcmp(rhs + rl - al, g->acc))
			snprintf(prod, sizeof prod, "%.*s", (int)(rl - al - 1), rhs);
		else {
			static const char *const fmas[] = {"fmaf(", "__fmaf_rn("};
			for (size_t q = 0; q < 2 && !prod[0]; q++) {
				size_t fl = strlen(fmas[q]);
				char tail[80];
				snprintf(tail, sizeof tail, ",%s)", g->acc);
				if (strncmp(rhs, fmas[q], fl) || close_of(rhs, fl - 1) != rl - 1 ||
				    rl < fl + strlen(tail) || strcmp(rhs + rl - strlen(tail), tail))
					continue;
				/* X,Y at the top level of the arguments */
				int d = 0;
				size_t comma = NPOS;
				for (size_t i = fl; i < rl - strlen(tail); i++) {
					d += rhs[i] == '(' || rhs[i] == '[';
					d -= rhs[i] == ')' || rhs[i] == ']';
					if (!d && rhs[i] == ',')
						comma = comma == NPOS ? i : NPOS - 1;
				}
				if (comma >= NPOS - 1)
					continue;
				snprintf(prod, sizeof prod, "%.*s*%.*s", (int)(comma - fl), rhs + fl,
					 (int)(rl - strlen(tail) - comma - 1), rhs + comma + 1);
			}
		}
	}
	if (!prod[0])
		return ka_recipe_decline(c, "the k loop is not `%s += A[..] * B[..]`", g->acc);
	/* one top-level '*' */
	int d = 0;
	size_t star = NPOS;
	for (size_t i = 0; prod[i]; i++) {
		d += prod[i] == '(' || prod[i] == '[';
		d -= prod[i] == ')' || prod[i] == ']';
		if (!d && prod[i] == '*') {
			if (star != NPOS)
				return ka_recipe_decline(c, "the k loop's product has more than two factors");
			star = i;
		}
	}
	if (star == NPOS || !star || !prod[star + 1])
		return ka_recipe_decline(c, "the k loop does not add a product of two factors");
	snprintf(xy[0], 512, "%.*s", (int)star, prod);
	snprintf(xy[1], 512, "%s", prod + star + 1);
	return KA_OK;
}

int ka_recipe_gemm_shape(ka_recipe_ctx *c, ka_recipe_gemm *g)
{
	const char *t = c->m->text;
	size_t at = c->k->body_open + 1, end = c->k->body_close, s, e;
	char sq[1024], d1[512], d2[512];
	memset(g, 0, sizeof *g);
	if (!stmt(t, &at, end, sq, sizeof sq, &s, &e))
		return ka_recipe_decline(c, "cannot read the kernel");
	if (split_pair(sq, d1, d2, sizeof d1)) {
		if (!tid_pair(d1, d2, g))
			return ka_recipe_decline(c, "the first statement is not the x and y thread indices");
	} else {
		size_t s2, e2;
		if (!stmt(t, &at, end, sq, sizeof sq, &s2, &e2) || !ka_csrc_squeeze(t, s, e, d1, sizeof d1) ||
		    !ka_csrc_squeeze(t, s2, e2, d2, sizeof d2) || !tid_pair(d1, d2, g))
			return ka_recipe_decline(c,
						 "the first statements are not the x and y thread indices");
	}
	/* if(i>=M||j>=N)return;  (or {return;}), or if(i<M&&j<N){...} ending the kernel */
	s = ka_csrc_skip_blank(t, end, at);
	e = ka_csrc_stmt_end(t, end, s);
	if (e == NPOS || e > end || e - s < 4 || strncmp(t + s, "if", 2) || is_ident(t[s + 2]))
		return ka_recipe_decline(c, "no bound check");
	size_t op = ka_csrc_skip_blank(t, e, s + 2),
	       cp = op < e && t[op] == '(' ? ka_csrc_match(t, e, op) : NPOS;
	char cond[512];
	if (cp == NPOS || !ka_csrc_squeeze(t, op + 1, cp, cond, sizeof cond))
		return ka_recipe_decline(c, "cannot read the bound check");
	drop_casts(cond);
	size_t then = ka_csrc_skip_blank(t, e, cp + 1);
	int block = 0;
	if (!ka_recipe_bare_return(t, then, e)) {
		if (t[then] != '{' || ka_csrc_match(t, e, then) != e - 1 ||
		    ka_csrc_skip_blank(t, end, e) != end)
			return ka_recipe_decline(c,
						 "no `if (i >= M || j >= N) return;` or `if (i < M && j < N) "
						 "{ ... }` ending the kernel");
		block = 1;
	}
	const char *join = block ? "&&" : "||", *cmp = block ? "<" : ">=";
	char *bar = strstr(cond, join);
	if (!bar || strstr(bar + 2, join) || strstr(cond, block ? "||" : "&&"))
		return ka_recipe_decline(c, "the bound check is not `%s %s M %s %s %s N`", g->i, cmp, join,
					 g->j, cmp);
	size_t il = strlen(g->i), jl = strlen(g->j), cl = strlen(cmp);
	for (int side = 0; side < 2; side++) {
		const char *w = side ? bar + 2 : cond, *we = side ? cond + strlen(cond) : bar;
		if (!strncmp(w, g->i, il) && !strncmp(w + il, cmp, cl) && w[il + cl] != '=')
			snprintf(g->m, sizeof g->m, "%.*s", (int)(we - w - il - cl), w + il + cl);
		else if (!strncmp(w, g->j, jl) && !strncmp(w + jl, cmp, cl) && w[jl + cl] != '=')
			snprintf(g->n, sizeof g->n, "%.*s", (int)(we - w - jl - cl), w + jl + cl);
	}
	if (block) {
		at = then + 1;
		end = e - 1;
	} else {
		at = e;
	}
	if (ka_csrc_param_index(c->k, g->m) < 0 || ka_csrc_param_index(c->k, g->n) < 0)
		return ka_recipe_decline(c, "the bounds are not `%s %s M %s %s %s N` with parameters", g->i,
					 cmp, join, g->j, cmp);
	if (!stmt(t, &at, end, sq, sizeof sq, &s, &e) || strncmp(sq, "float ", 6))
		return ka_recipe_decline(c, "no float accumulator");
	char *eq = strchr(sq, '=');
	if (!eq || (strcmp(eq, "=0.0f;") && strcmp(eq, "=0.f;") && strcmp(eq, "=0;") && strcmp(eq, "=0.0;")))
		return ka_recipe_decline(c, "the accumulator does not start at zero");
	snprintf(g->acc, sizeof g->acc, "%.*s", (int)(eq - sq - 6), sq + 6);
	s = ka_csrc_skip_blank(t, end, at);
	e = ka_csrc_stmt_end(t, end, s);
	if (e == NPOS || e > end)
		return ka_recipe_decline(c, "no k loop");
	char xy[2][512], nm[2][KA_CSRC_NAME], ix[2][400];
	int conv[2], rc = read_kloop(c, s, e, g, xy);
	if (rc)
		return rc;
	at = e;
	for (int q = 0; q < 2; q++)
		if (!factor(xy[q], nm[q], sizeof nm[q], ix[q], sizeof ix[q], &conv[q]))
			return ka_recipe_decline(c,
						 "the factor '%.80s' is not an array element (P[..], or "
						 "converted to float)",
						 xy[q]);
	int x_is_a = index_is(ix[0], g->i, g->k, g->l), y_is_a = index_is(ix[1], g->i, g->k, g->l);
	int qa = x_is_a ? 0 : y_is_a ? 1 : -1;
	if (qa < 0)
		return ka_recipe_decline(c, "A is not read as A[%s * %s + %s] (row-major, lda = K)", g->i,
					 g->k, g->l);
	g->b_transposed = !index_is(ix[1 - qa], g->l, g->n, g->j) && index_is(ix[1 - qa], g->j, g->k, g->l);
	if (!g->b_transposed && !index_is(ix[1 - qa], g->l, g->n, g->j))
		return ka_recipe_decline(
			c,
			"B is read as B[%.60s], neither B[%s * %s + %s] (row-major, ldb = N) nor "
			"B[%s * %s + %s] (transposed, ldb = K)",
			ix[1 - qa], g->l, g->n, g->j, g->j, g->k, g->l);
	snprintf(g->a, sizeof g->a, "%s", nm[qa]);
	snprintf(g->b, sizeof g->b, "%s", nm[1 - qa]);
	g->converted = conv[0] && conv[1];
	/* C[i*N+j]=E; */
	if (!stmt(t, &at, end, sq, sizeof sq, &s, &e))
		return ka_recipe_decline(c, "no store of C");
	g->store_s = s;
	g->store_e = e;
	const char *cb = strchr(sq, '[');
	size_t cc = cb ? close_of(sq, (size_t)(cb - sq)) : NPOS;
	if (!cb || cb == sq || cc == NPOS || sq[cc + 1] != '=' || sq[cc + 2] == '=' ||
	    (size_t)(cb - sq) >= sizeof g->c)
		return ka_recipe_decline(c, "no store of C");
	snprintf(g->c, sizeof g->c, "%.*s", (int)(cb - sq), sq);
	char cidx[400];
	snprintf(cidx, sizeof cidx, "%.*s", (int)(cc - (size_t)(cb - sq) - 1), cb + 1);
	if (!index_is(cidx, g->i, g->n, g->j))
		return ka_recipe_decline(c, "C is not stored as C[%s * %s + %s]", g->i, g->n, g->j);
	snprintf(g->e, sizeof g->e, "%s", sq + cc + 2);
	size_t el = strlen(g->e);
	if (el)
		g->e[--el] = 0;
	static const char *const ids[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};
	for (size_t q = 0; q < sizeof ids / sizeof ids[0]; q++)
		if (ka_csrc_has_word(g->e, 0, el, ids[q]))
			return ka_recipe_decline(c, "the stored value reads %s", ids[q]);
	if (!ka_csrc_has_word(g->e, 0, el, g->acc) || !ka_recipe_pure_expr_in(g->e, el, t, c->m->len))
		return ka_recipe_decline(c, "the stored value is not a pure function of the accumulator");
	/* C read in E only at the stored element */
	for (size_t p = 0; (p = ka_csrc_find_word_pp(g->e, p, el, g->c)) != NPOS; p++) {
		size_t ob = p + strlen(g->c), ce = g->e[ob] == '[' ? close_of(g->e, ob) : NPOS;
		if (ce == NPOS || ce - ob - 1 != strlen(cidx) || strncmp(g->e + ob + 1, cidx, strlen(cidx)))
			return ka_recipe_decline(
				c, "the stored value reads %s elsewhere than the stored element", g->c);
	}
	g->e_plain = !strchr(g->e, '[') && !ka_csrc_has_word(g->e, 0, el, g->i) &&
		     !ka_csrc_has_word(g->e, 0, el, g->j);
	if (ka_csrc_skip_blank(t, end, at) != end)
		return ka_recipe_decline(c, "statements after the store");
	if (c->k->has_launch_bounds)
		return ka_recipe_decline(c, "it has __launch_bounds__ already");
	return KA_OK;
}

static int gemm_apply(ka_recipe_ctx *c, ka_buf *out)
{
	ka_recipe_gemm g;
	int rc = ka_recipe_gemm_shape(c, &g);
	if (rc)
		return rc;
	if (!g.e_plain)
		return ka_recipe_decline(c, "the stored value is not a function of the accumulator alone");
	if (g.b_transposed)
		return ka_recipe_decline(
			c, "B is read transposed (B[%s * %s + %s]): only row-major B is written", g.j, g.k,
			g.l);
	const char *ptrs[3] = {g.a, g.b, g.c};
	for (int q = 0; q < 3; q++) {
		int pi = ka_csrc_param_index(c->k, ptrs[q]);
		const char *ty = pi < 0 ? "" : c->k->params[pi].type;
		/* the word: __nv_bfloat16 holds "float" too */
		if (pi < 0 || !ka_csrc_has_word(ty, 0, strlen(ty), "float") || strstr(ty, "double"))
			return ka_recipe_decline(c, "%s is not a float pointer parameter", ptrs[q]);
	}
	if (ka_recipe_param(c->params, "tile", 64) != 64)
		return ka_recipe_decline(c, "only tile=64 is written");
	/* E(acc) with the accumulator replaced by the register */
	char ev[700];
	ka_buf eb;
	ka_buf_init(&eb, 4096);
	size_t al = strlen(g.acc);
	for (const char *p = g.e; *p;) {
		if (!strncmp(p, g.acc, al) && (p == g.e || !is_ident(p[-1])) && !is_ident(p[al])) {
			ka_buf_adds(&eb, "ka_acc[ka_r][ka_c]");
			p += al;
		} else {
			ka_buf_addc(&eb, *p++);
		}
	}
	snprintf(ev, sizeof ev, "%s", eb.data ? eb.data : "");
	ka_buf_free(&eb);
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_printf(
		&b,
		"{\n\t/* 64 x 64 outputs per block, 4 x 4 per thread (rows ty + 16r, columns tx + 16c) */\n"
		"\t__shared__ float ka_as[64][17], ka_bs[16][64];\n"
		"\tconst int ka_tx = threadIdx.x, ka_ty = threadIdx.y, ka_t = ka_ty * 16 + ka_tx;\n"
		"\tconst long long ka_row0 = (long long)blockIdx.y * 64, ka_col0 = (long long)blockIdx.x * 64;\n"
		"\tfloat ka_acc[4][4] = {{0.0f}};\n"
		"\tfor (long long ka_k0 = 0; ka_k0 < %s; ka_k0 += 16) {\n"
		"\t\tfor (int ka_q = 0; ka_q < 4; ka_q++) {\n"
		"\t\t\tconst int ka_ia = ka_t + 256 * ka_q, ka_ra = ka_ia / 16, ka_ca = ka_ia %% 16;\n"
		"\t\t\tconst long long ka_gr = ka_row0 + ka_ra, ka_gk = ka_k0 + ka_ca;\n"
		"\t\t\tka_as[ka_ra][ka_ca] = ka_gr < %s && ka_gk < %s ? %s[ka_gr * %s + ka_gk] : 0.0f;\n"
		"\t\t\tconst int ka_rb = ka_ia / 64, ka_cb = ka_ia %% 64;\n"
		"\t\t\tconst long long ka_hk = ka_k0 + ka_rb, ka_hc = ka_col0 + ka_cb;\n"
		"\t\t\tka_bs[ka_rb][ka_cb] = ka_hk < %s && ka_hc < %s ? %s[ka_hk * %s + ka_hc] : 0.0f;\n"
		"\t\t}\n\t\t__syncthreads();\n"
		"\t\t#pragma unroll\n\t\tfor (int ka_kk = 0; ka_kk < 16; ka_kk++) {\n"
		"\t\t\tfloat ka_a[4], ka_b[4];\n"
		"\t\t\t#pragma unroll\n\t\t\tfor (int ka_r = 0; ka_r < 4; ka_r++) ka_a[ka_r] = ka_as[ka_ty + 16 * ka_r][ka_kk];\n"
		"\t\t\t#pragma unroll\n\t\t\tfor (int ka_c = 0; ka_c < 4; ka_c++) ka_b[ka_c] = ka_bs[ka_kk][ka_tx + 16 * ka_c];\n"
		"\t\t\t#pragma unroll\n\t\t\tfor (int ka_r = 0; ka_r < 4; ka_r++)\n"
		"\t\t\t\tfor (int ka_c = 0; ka_c < 4; ka_c++) ka_acc[ka_r][ka_c] += ka_a[ka_r] * ka_b[ka_c];\n"
		"\t\t}\n\t\t__syncthreads();\n\t}\n"
		"\tfor (int ka_r = 0; ka_r < 4; ka_r++)\n\t\tfor (int ka_c = 0; ka_c < 4; ka_c++) {\n"
		"\t\t\tconst long long %s = ka_row0 + ka_ty + 16 * ka_r, %s = ka_col0 + ka_tx + 16 * ka_c;\n"
		"\t\t\tif (%s < %s && %s < %s) %s[%s * %s + %s] = %s;\n\t\t}\n}",
		g.k, g.m, g.k, g.a, g.k, g.k, g.n, g.b, g.n, g.i, g.j, g.i, g.m, g.j, g.n, g.c, g.i, g.n, g.j,
		ev);
	ka_recipe_edits ed = {0};
	rc = b.data ? ka_recipe_edit(&ed, c->k->body_open, c->k->body_close + 1, b.data) : KA_ENOMEM;
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->name_at, c->k->name_at, "__launch_bounds__(256) ");
	if (rc == KA_OK)
		rc = ka_recipe_relaunch_smem(c, &ed, g.n,
					     "dim3((unsigned)((@N + 63) / 64), (unsigned)((@B + 63) / 64))",
					     "dim3(16, 16)", g.m, NULL);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, c->m->text, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

static const char *const gemm_grid[] = {"tile=64", NULL};

const ka_recipe ka_recipe_smem_tile_gemm = {
	.name = "smem-tile-gemm",
	.summary = "naive one-output-per-thread GEMM -> 64x64 shared tiles, 4x4 register blocks",
	.rules = "gmem-no-tile-reuse gmem-uncoalesced-access gmem-row-index-from-threadidx-x",
	.grid = gemm_grid,
	.apply = gemm_apply,
};
