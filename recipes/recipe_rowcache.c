/* recipes/recipe_rowcache.c: row-cache, a row read once into registers when
 * a warp (or a block) walks the same row in several passes, the shape
 * warp-per-row writes for softmax (max, sum, write), layernorm (mean,
 * variance, normalize) and RMSNorm (sum of squares, normalize):
 *     const float *xr = x + r * cols;
 *     for (long long j = (0) + ka_lane; j < cols; j += 32) m = fmaxf(m, xr[j]);
 *     ...
 *     for (long long j = (0) + ka_lane; j < cols; j += 32) yr[j] = expf(xr[j] - m) / s;
 * Each pass reads the row again from global memory; the roofline counts
 * it once.  The rewrite loads the row once, before the first pass, into a
 * register array of K elements a lane (`float ka_c[K]`, slot i holding
 * element S + L + W * i of lane L), and every pass walks the slots in an
 * unrolled loop, so that each lane meets the elements it met before in
 * the same order (the arithmetic is bit for bit the original's).  A row
 * longer than W * K elements takes the passes as written (the test is the
 * same on every lane of the group: the row's length is).  Where every read
 * of the row is converted (`__bfloat162float(xr[j])`, `__half2float`), the
 * cache holds the converted float.
 *
 * What it proves first, else it declines naming the construct:
 *   - the row pointer P is read as P[j] in two or more lane loops of one
 *     group (recipes/recipe_lanevec.c's reading: `for (T j = (S) + L; ...;
 *     j += W)`), P the same on every lane, used nowhere else, never written
 *     through, and no other pointer from the same parameter (the kernel
 *     model's pointer locals) is read in a lane loop (a pass over another
 *     row);
 *   - the first pass is `j < B` (or `<=`) from S; every other pass starts
 *     at S, or at a variable of a loop around it that starts at S and grows
 *     (softmax's 1024-element chunks), and lies in the first pass's block;
 *     a pass whose test does not include the first's reads the cache below
 *     B and the row above it;
 *   - nothing is stored through a global pointer from the first pass to
 *     the last (a store there could alias the row), and no atomic;
 *   - the passes' bodies use no barrier, shuffle, jump out, and do not
 *     assign their index.
 * cache=smem (a shared-memory row for rows longer than registers hold) is
 * not built: the parameter declines. */
#include "analyzer/kmodel.h"
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)
#define MAX_PASS 16

static int ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

typedef struct pass {
	size_t s, e; /* the for statement */
	ka_recipe_lane_loop lp;
} pass;

/* 1 when the word at t[p..p+n) is name, as a whole token (not a member). */
static int word_at(const char *t, size_t b0, size_t p, const char *name, size_t n)
{
	return !strncmp(t + p, name, n) && !ident(t[p + n]) &&
	       !(p > b0 && (ident(t[p - 1]) || t[p - 1] == '.'));
}

/* The reads name[j] in the pass body: how many, and whether every use of
 * name there is one (-1 when some use is another). */
static int reads_in(const char *t, const pass *ps, const char *name)
{
	size_t n = strlen(name), b0 = ps->lp.body_s, b1 = ps->lp.body_e;
	int hits = 0;
	for (size_t p = b0; p + n <= b1; p++) {
		if (!word_at(t, b0, p, name, n))
			continue;
		size_t o = ka_csrc_skip_blank(t, b1, p + n),
		       cb = o < b1 && t[o] == '[' ? ka_csrc_match(t, b1, o) : NPOS;
		char idx[80];
		if (cb == NPOS || !ka_csrc_squeeze(t, o + 1, cb, idx, sizeof idx) || strcmp(idx, ps->lp.var))
			return -1;
		hits++;
		p = cb;
	}
	return hits;
}

/* 1 when name[...] is written in the pass body. */
static int stored_in(const char *t, const pass *ps, const char *name)
{
	size_t n = strlen(name), b0 = ps->lp.body_s, b1 = ps->lp.body_e;
	for (size_t p = b0; p + n <= b1; p++) {
		if (!word_at(t, b0, p, name, n))
			continue;
		size_t o = ka_csrc_skip_blank(t, b1, p + n),
		       cb = o < b1 && t[o] == '[' ? ka_csrc_match(t, b1, o) : NPOS;
		if (cb != NPOS && ka_recipe_written_at(t, b0, b1, p, cb + 1 - p))
			return 1;
	}
	return 0;
}

/* The element type of a pointer type ("const __nv_bfloat16 *"): float,
 * __half, __nv_bfloat16 (and half, nv_bfloat16), or 0. */
static int elem_of(const char *type, char *elem, size_t cap)
{
	static const char *const names[] = {"float", "__half", "half", "__nv_bfloat16", "nv_bfloat16"};
	char sq[160];
	size_t m = 0;
	for (const char *q = type; *q && m + 1 < sizeof sq; q++) {
		if (!strncmp(q, "const", 5) && !ident(q[5]) && (q == type || !ident(q[-1]))) {
			q += 4;
			continue;
		}
		if (!strncmp(q, "__restrict__", 12)) {
			q += 11;
			continue;
		}
		if (!isspace((unsigned char)*q))
			sq[m++] = *q;
	}
	sq[m] = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		size_t l = strlen(names[i]);
		if (!strncmp(sq, names[i], l) && !strcmp(sq + l, "*")) {
			snprintf(elem, cap, "%s", names[i]);
			return 1;
		}
	}
	return 0;
}

/* s without parentheses around the whole of it, in place. */
static void strip_parens(char *s)
{
	for (size_t l = strlen(s); l >= 2 && s[0] == '(' && s[l - 1] == ')'; l -= 2) {
		int d = 0, whole = 1;
		for (size_t i = 0; i + 1 < l && whole; i++) {
			d += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0;
			whole = d > 0;
		}
		if (!whole)
			return;
		memmove(s, s + 1, l - 2);
		s[l - 2] = 0;
	}
}

/* The top-level && conjuncts of a squeezed test into out (at most 4). */
static int conjuncts(const char *cond, char out[4][KA_RECIPE_FOR_PART])
{
	int n = 0, d = 0;
	const char *a = cond;
	for (const char *q = cond;; q++) {
		if (*q == '(')
			d++;
		else if (*q == ')')
			d--;
		if (!*q || (!d && q[0] == '&' && q[1] == '&')) {
			if (n == 4)
				return -1;
			snprintf(out[n++], KA_RECIPE_FOR_PART, "%.*s", (int)(q - a), a);
			if (!*q)
				break;
			a = q + 2;
			q++;
		}
	}
	return n;
}

/* 1 when var (the start of a later pass) is the variable of a for loop
 * around the pass at at, starting at start and growing (`v += C`, C > 0,
 * or `v++`): every value it takes is at least start. */
static int grows_from(const ka_recipe_ctx *c, size_t at, const char *var, const char *start)
{
	const char *t = c->m->text;
	size_t b0 = c->k->body_open + 1;
	for (size_t blk = ka_csrc_block_of(t, c->m->len, at); blk != NPOS && blk > b0;
	     blk = ka_csrc_block_of(t, c->m->len, blk)) {
		size_t q = blk; /* `for (...) {`: the header before the brace */
		while (q > b0 && isspace((unsigned char)t[q - 1]))
			q--;
		if (q <= b0 || t[q - 1] != ')')
			continue;
		size_t depth = 0, o = q - 1;
		for (; o > b0; o--) {
			depth += t[o] == ')';
			depth -= t[o] == '(';
			if (!depth)
				break;
		}
		size_t f = o;
		while (f > b0 && isspace((unsigned char)t[f - 1]))
			f--;
		if (f < b0 + 3 || strncmp(t + f - 3, "for", 3) || (f > b0 + 3 && ident(t[f - 4])))
			continue;
		char parts[3][KA_RECIPE_FOR_PART];
		int np;
		ka_recipe_ctx cc = *c;
		if (ka_recipe_for_parts(&cc, f - 3, parts, &np) != KA_OK || np != 3)
			continue;
		char *eq = strchr(parts[0], '=');
		size_t vl = strlen(var);
		if (!eq || (size_t)(eq - parts[0]) < vl || strncmp(eq - vl, var, vl) ||
		    (eq - vl > parts[0] && ident(eq[-(long)vl - 1])) || strcmp(eq + 1, start))
			continue;
		char *end;
		if (!strncmp(parts[2], var, vl) && !strcmp(parts[2] + vl, "++"))
			return 1;
		if (!strncmp(parts[2], var, vl) && !strncmp(parts[2] + vl, "+=", 2) &&
		    strtol(parts[2] + vl + 2, &end, 10) > 0 && !*end)
			return 1;
		return 0;
	}
	return 0;
}

/* KA_OK when nothing in [s, e) stores to global memory (a subscript of a
 * name not declared __shared__ or as a local array, a dereference, an
 * atomic), else declined naming it. */
static int no_global_store(ka_recipe_ctx *c, size_t s, size_t e, const char *row)
{
	const char *t = c->m->text;
	size_t b0 = c->k->body_open + 1;
	for (size_t p = s; p < e; p++) {
		if (!ident(t[p]) || (p > s && ident(t[p - 1])))
			continue;
		size_t q = p;
		while (q < e && ident(t[q]))
			q++;
		if (q - p > 6 && !strncmp(t + p, "atomic", 6))
			return ka_recipe_decline(c, "%.*s between the passes over %s", (int)(q - p), t + p,
						 row);
		size_t o = ka_csrc_skip_blank(t, e, q),
		       cb = o < e && t[o] == '[' ? ka_csrc_match(t, e, o) : NPOS;
		if (cb == NPOS || (p > s && t[p - 1] == '.') ||
		    !ka_recipe_written_at(t, s, e, p, cb + 1 - p)) {
			p = q - 1;
			continue;
		}
		/* the declaration of the name: __shared__, or `T name[N]` (a local array) */
		char name[64], sq[256];
		snprintf(name, sizeof name, "%.*s", (int)(q - p), t + p);
		int local = 0;
		for (size_t d = b0; d < p && !local; d++) {
			if (!word_at(t, b0, d, name, strlen(name)))
				continue;
			size_t ls = d;
			while (ls > b0 && t[ls - 1] != ';' && t[ls - 1] != '{' && t[ls - 1] != '}')
				ls--;
			size_t a = ka_csrc_skip_blank(t, e, d + strlen(name));
			if (ka_csrc_squeeze(t, ls, d, sq, sizeof sq) && t[a] == '[' &&
			    (strstr(sq, "__shared__") || (sq[0] && ident(sq[strlen(sq) - 1]))))
				local = 1;
		}
		if (!local)
			return ka_recipe_decline(
				c, "%s[...] is stored between the passes over %s (it may alias the row)",
				name, row);
		p = cb;
	}
	return KA_OK;
}

/* A pass's body with every read of the row (conv(P[j]) when conv is set,
 * else P[j]) replaced by repl. */
static void subst(ka_buf *b, const char *t, const pass *ps, const char *row, const char *conv,
		  const char *repl)
{
	size_t n = strlen(row), cl = conv ? strlen(conv) : 0, from = ps->lp.body_s, b0 = ps->lp.body_s,
	       b1 = ps->lp.body_e;
	for (size_t p = b0; p + n <= b1; p++) {
		if (!word_at(t, b0, p, row, n))
			continue;
		size_t o = ka_csrc_skip_blank(t, b1, p + n), cb = ka_csrc_match(t, b1, o), s = p, e = cb + 1;
		if (conv) { /* conv ( P[j] ): the call around it */
			size_t q = p;
			while (q > b0 && isspace((unsigned char)t[q - 1]))
				q--;
			q--; /* '(' */
			while (q > b0 && isspace((unsigned char)t[q - 1]))
				q--;
			s = q - cl;
			e = ka_csrc_skip_blank(t, b1, cb + 1) + 1;
		}
		ka_buf_add(b, t + from, s - from);
		ka_buf_adds(b, repl);
		from = e;
		p = e - 1;
	}
	ka_buf_add(b, t + from, b1 - from);
}

/* The conversion every read of the row is wrapped in ("__bfloat162float"),
 * or NULL. */
static const char *conversion(const char *t, const pass *ps, int np, const char *row)
{
	static const char *const convs[] = {"__bfloat162float", "__half2float"};
	size_t n = strlen(row);
	int which = -1;
	for (int i = 0; i < np; i++) {
		size_t b0 = ps[i].lp.body_s, b1 = ps[i].lp.body_e;
		for (size_t p = b0; p + n <= b1; p++) {
			if (!word_at(t, b0, p, row, n))
				continue;
			size_t q = p;
			while (q > b0 && isspace((unsigned char)t[q - 1]))
				q--;
			if (q <= b0 || t[q - 1] != '(')
				return NULL;
			q--;
			while (q > b0 && isspace((unsigned char)t[q - 1]))
				q--;
			int hit = -1;
			for (int k = 0; k < 2; k++) {
				size_t l = strlen(convs[k]);
				if (q >= b0 + l && !strncmp(t + q - l, convs[k], l) &&
				    !(q > b0 + l && ident(t[q - l - 1])))
					hit = k;
			}
			size_t o = ka_csrc_skip_blank(t, b1, p + n), cb = ka_csrc_match(t, b1, o),
			       a = ka_csrc_skip_blank(t, b1, cb + 1);
			if (hit < 0 || (which >= 0 && hit != which) || t[a] != ')')
				return NULL;
			which = hit;
			p = cb;
		}
	}
	return which < 0 ? NULL : convs[which];
}

/* The kernel's pointer locals and the parameter each points into: the
 * kernel model's (analyzer/kmodel.h, ptrs), or, where the file does not
 * parse alone (a header it cannot find), the declarations `T *q = P ...`,
 * `= &P[...]` with P a parameter, as written. */
#define MAX_PTRS 32
typedef struct ptrtab {
	int n;
	char name[MAX_PTRS][64], base[MAX_PTRS][64];
} ptrtab;

static void pointers(ka_recipe_ctx *c, ptrtab *pt)
{
	pt->n = 0;
	ka_kmodel_doc doc = {0};
	if (ka_recipe_kmodel(c->m->text, c->m->len, c->k->name, &doc) == KA_OK) {
		for (int i = 0; i < doc.km->nptrs && pt->n < MAX_PTRS; i++) {
			snprintf(pt->name[pt->n], 64, "%s", doc.km->ptrs[i].name);
			snprintf(pt->base[pt->n++], 64, "%s", doc.km->ptrs[i].base);
		}
		ka_recipe_kmodel_free(&doc);
		return;
	}
	static char sq[32768];
	if (!ka_csrc_squeeze(c->m->text, c->k->body_open + 1, c->k->body_close, sq, sizeof sq))
		return;
	for (const char *q = strchr(sq, '*'); q && pt->n < MAX_PTRS; q = strchr(q + 1, '*')) {
		const char *a = q + 1, *e = a;
		while (ident(*e))
			e++;
		if (e == a || *e != '=' || e[1] == '=' || (size_t)(e - a) >= 64 || isdigit((unsigned char)*a))
			continue;
		const char *v = e + 1 + (e[1] == '&'), *ve = v;
		while (ident(*ve))
			ve++;
		char pb[64];
		if (ve == v || (size_t)(ve - v) >= sizeof pb)
			continue;
		snprintf(pb, sizeof pb, "%.*s", (int)(ve - v), v);
		if (ka_csrc_param_index(c->k, pb) < 0)
			continue;
		snprintf(pt->name[pt->n], 64, "%.*s", (int)(e - a), a);
		snprintf(pt->base[pt->n++], 64, "%s", pb);
	}
}

static const char *const banned[] = {"__syncthreads",
				     "__syncwarp",
				     "__shfl_sync",
				     "__shfl_xor_sync",
				     "__shfl_up_sync",
				     "__shfl_down_sync",
				     "__ballot_sync",
				     "__any_sync",
				     "__all_sync",
				     "asm",
				     "__asm__",
				     "return",
				     "break",
				     "goto",
				     NULL};

static int rowcache_apply(ka_recipe_ctx *c, ka_buf *out)
{
	const char *t = c->m->text;
	const ka_csrc_kernel *k = c->k;
	size_t b0 = k->body_open + 1, b1 = k->body_close;
	long kk = ka_recipe_param(c->params, "k", 32);
	if (c->params && strstr(c->params, "cache=smem"))
		return ka_recipe_decline(c, "cache=smem is not built: only the register cache (cache=regs)");
	if (kk < 1 || kk > 256)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params ? c->params : "");
	/* the lane loops, innermost */
	pass ps[MAX_PASS];
	int n = 0;
	char first_why[sizeof c->why] = "";
	for (size_t p = b0; p + 3 < b1 && n < MAX_PASS; p++) {
		if (strncmp(t + p, "for", 3) || ident(t[p + 3]) || (p > b0 && ident(t[p - 1])))
			continue;
		size_t e = ka_csrc_stmt_end(t, b1, p);
		if (e == NPOS)
			break;
		pass cand = {.s = p, .e = e};
		int rc = ka_recipe_lane_loop_read(c, p, e, &cand.lp);
		strip_parens(cand.lp.start);
		if (rc == KA_OK && !ka_csrc_has_word(t, cand.lp.body_s, cand.lp.body_e, "for") &&
		    !ka_csrc_has_word(t, cand.lp.body_s, cand.lp.body_e, "while")) {
			ps[n++] = cand;
			p = e - 1;
		} else if (rc == KA_RECIPE_DECLINED && c->why[0] && !first_why[0]) {
			snprintf(first_why, sizeof first_why, "%s", c->why);
		}
	}
	if (n < 2)
		return ka_recipe_decline(c, "%s",
					 first_why[0] ? first_why : "fewer than two lane-strided passes");
	/* the row: the pointer read as P[j] in the most passes */
	char row[64] = "", cand[64];
	int best = 0;
	for (int i = 0; i < n; i++)
		for (size_t p = ps[i].lp.body_s; p < ps[i].lp.body_e; p++) {
			if (!ident(t[p]) || (p > ps[i].lp.body_s && ident(t[p - 1])))
				continue;
			size_t q = p;
			while (ident(t[q]))
				q++;
			size_t o = ka_csrc_skip_blank(t, b1, q);
			if (t[o] != '[' || q - p >= sizeof cand || (p > b0 && t[p - 1] == '.')) {
				p = q - 1;
				continue;
			}
			snprintf(cand, sizeof cand, "%.*s", (int)(q - p), t + p);
			int cnt = 0;
			for (int j = 0; j < n; j++)
				cnt += reads_in(t, &ps[j], cand) > 0 && !stored_in(t, &ps[j], cand);
			if (cnt > best) {
				best = cnt;
				snprintf(row, sizeof row, "%s", cand);
			}
			p = q - 1;
		}
	if (best < 2) { /* a row read in two passes and written: the kernel's input written back */
		for (int i = 0; i < n; i++)
			for (size_t p = ps[i].lp.body_s; p < ps[i].lp.body_e; p++) {
				if (!ident(t[p]) || (p > ps[i].lp.body_s && ident(t[p - 1])))
					continue;
				size_t q = p;
				while (ident(t[q]))
					q++;
				snprintf(cand, sizeof cand, "%.*s", (int)(q - p < 63 ? q - p : 63), t + p);
				int cnt = 0, st = 0;
				for (int j = 0; j < n; j++) {
					cnt += reads_in(t, &ps[j], cand) > 0;
					st |= stored_in(t, &ps[j], cand);
				}
				if (cnt >= 2 && st) {
					ptrtab pt;
					pointers(c, &pt);
					const char *base = cand;
					for (int k2 = 0; k2 < pt.n; k2++)
						if (!strcmp(pt.name[k2], cand))
							base = pt.base[k2];
					return ka_recipe_decline(
						c, "the kernel writes its input %s (%s[...] is stored)", base,
						cand);
				}
				p = q - 1;
			}
		return ka_recipe_decline(c, "no row is read as p[j] in two lane-strided passes");
	}
	/* the passes over the row, the first one's group */
	pass rp[MAX_PASS];
	int nr = 0;
	for (int i = 0; i < n; i++) {
		int r = reads_in(t, &ps[i], row);
		if (r < 0)
			return ka_recipe_decline(c,
						 "%s is read at another subscript than the pass's index %s",
						 row, ps[i].lp.var);
		if (r > 0)
			rp[nr++] = ps[i];
	}
	const pass *f = &rp[0];
	for (int i = 1; i < nr; i++)
		if (rp[i].lp.width != f->lp.width || strcmp(rp[i].lp.lane, f->lp.lane))
			return ka_recipe_decline(c, "the passes over %s are walked by different lanes", row);
	/* the row: the same on every lane, never written, its element type */
	if (!ka_recipe_lane_uniform_name(c, row, f->lp.width))
		return ka_recipe_decline(c, "cannot prove the row %s the same on every lane of the group",
					 row);
	ptrtab pt;
	pointers(c, &pt);
	char base[64], elem[32];
	snprintf(base, sizeof base, "%s", row);
	for (int i = 0; i < pt.n; i++)
		if (!strcmp(pt.name[i], row))
			snprintf(base, sizeof base, "%s", pt.base[i]);
	int pi = ka_csrc_param_index(k, base), rc = KA_OK;
	if (pi < 0 || !elem_of(k->params[pi].type, elem, sizeof elem))
		return ka_recipe_decline(
			c, "the row %s is no float, __half or __nv_bfloat16 pointer parameter's", row);
	/* nothing written through the parameter or a pointer from it; no other
	 * row of it read by a lane loop */
	for (int i = -1; rc == KA_OK && i < pt.n; i++) {
		const char *nm = i < 0 ? base : pt.name[i];
		if (i >= 0 && strcmp(pt.base[i], base))
			continue;
		size_t l = strlen(nm);
		for (size_t p = b0; rc == KA_OK && p + l <= b1; p++) {
			if (!word_at(t, b0, p, nm, l))
				continue;
			size_t o = ka_csrc_skip_blank(t, b1, p + l),
			       cb = o < b1 && t[o] == '[' ? ka_csrc_match(t, b1, o) : NPOS;
			if (cb != NPOS && ka_recipe_written_at(t, b0, b1, p, cb + 1 - p))
				rc = ka_recipe_decline(
					c, "the kernel writes its input %s (%s[...] is stored)", base, nm);
			for (int j = 0; rc == KA_OK && j < n && cb != NPOS && strcmp(nm, row); j++)
				if (p > ps[j].lp.body_s && p < ps[j].lp.body_e)
					rc = ka_recipe_decline(
						c, "the passes read different rows of %s: %s and %s", base,
						row, nm);
			p += l - 1;
		}
	}
	if (rc != KA_OK)
		return rc;
	if (ka_csrc_count_word(t, f->s, b1, row) != ka_csrc_count_word(t, f->s, rp[nr - 1].e, row))
		return ka_recipe_decline(c, "%s is read after its last lane-strided pass", row);
	{
		int uses = 0;
		for (int i = 0; i < nr; i++)
			uses += ka_csrc_count_word(t, rp[i].lp.body_s, rp[i].lp.body_e, row);
		if (uses != ka_csrc_count_word(t, f->s, b1, row))
			return ka_recipe_decline(c, "%s is used between its passes outside them", row);
	}
	/* the first pass: one bound */
	char fc[4][KA_RECIPE_FOR_PART], end[KA_RECIPE_FOR_PART + 16], bad[64];
	size_t vl = strlen(f->lp.var);
	if (conjuncts(f->lp.cond, fc) != 1 || strncmp(fc[0], f->lp.var, vl) || fc[0][vl] != '<')
		return ka_recipe_decline(c, "the first pass's test '%s' is not one bound %s < B", f->lp.cond,
					 f->lp.var);
	int le = fc[0][vl + 1] == '=';
	snprintf(end, sizeof end, le ? "(%s) + 1" : "%s", fc[0] + vl + 1 + le);
	if (!ka_recipe_lane_uniform(c, fc[0] + vl + 1 + le, f->lp.width, bad, sizeof bad))
		return ka_recipe_decline(c, "cannot prove the row's end '%s' the same on every lane (%s)",
					 fc[0] + vl + 1 + le, bad);
	size_t fblk = ka_csrc_block_of(t, c->m->len, f->s);
	int contained[MAX_PASS], aligned[MAX_PASS];
	for (int i = 0; i < nr; i++) {
		const pass *p = &rp[i];
		for (int b = 0; banned[b]; b++)
			if (ka_csrc_has_word(t, p->lp.body_s, p->lp.body_e, banned[b]))
				return ka_recipe_decline(c, "a pass over %s uses %s", row, banned[b]);
		for (size_t q = p->lp.body_s; q < p->lp.body_e; q++)
			if (word_at(t, p->lp.body_s, q, p->lp.var, vl) &&
			    ka_recipe_written_at(t, p->lp.body_s, p->lp.body_e, q, vl))
				return ka_recipe_decline(c, "a pass over %s assigns its index %s", row,
							 p->lp.var);
		size_t blk = ka_csrc_block_of(t, c->m->len, p->s);
		while (blk != NPOS && blk != fblk && blk > b0)
			blk = ka_csrc_block_of(t, c->m->len, blk);
		if (blk != fblk)
			return ka_recipe_decline(c, "a pass over %s is outside the first pass's block", row);
		aligned[i] = !strcmp(p->lp.start, f->lp.start);
		if (!aligned[i] && !grows_from(c, p->s, p->lp.start, f->lp.start))
			return ka_recipe_decline(
				c, "the pass from '%s' may start before the row's first element '%s'",
				p->lp.start, f->lp.start);
		char pc[4][KA_RECIPE_FOR_PART];
		int m = conjuncts(p->lp.cond, pc);
		contained[i] = 0;
		for (int j = 0; j < m; j++)
			contained[i] |= !strcmp(pc[j], fc[0]);
		if (!contained[i] && !aligned[i])
			return ka_recipe_decline(
				c, "the pass '%s' from '%s' reads past the row of the first pass", p->lp.cond,
				p->lp.start);
	}
	if (nr > 1 && (rc = no_global_store(c, f->s, rp[nr - 1].s, row)) != KA_OK)
		return rc;
	const char *conv = conversion(t, rp, nr, row);
	char ty[sizeof f->lp.type]; /* the index's type, for its casts */
	snprintf(ty, sizeof ty, "%s", f->lp.type);
	for (size_t l = strlen(ty); l && ty[l - 1] == ' ';)
		ty[--l] = 0;
	const char *ctype = conv ? "float" : elem;
	/* the text */
	char w[32], cn[16], rcn[16], in[16], jn[16];
	snprintf(w, sizeof w, f->lp.width ? "%d" : "(long long)blockDim.x", f->lp.width);
	ka_recipe_unused_name(c, "ka_c", cn, sizeof cn);
	ka_recipe_unused_name(c, "ka_rc", rcn, sizeof rcn);
	ka_recipe_unused_name(c, "ka_i", in, sizeof in);
	ka_recipe_unused_name(c, "ka_j", jn, sizeof jn);
	ka_recipe_edits ed = {0};
	ka_buf b;
	ka_buf_init(&b, 1 << 16);
	for (int i = 0; i < nr && rc == KA_OK; i++) {
		const pass *p = &rp[i];
		ka_buf_reset(&b);
		if (i == 0)
			ka_buf_printf(
				&b,
				"/* the row %s read once into registers, %ld elements a lane, when it has at "
				"most %s * %ld */\n\tconst bool %s = (long long)(%s) - (long long)(%s) <= %s * %ld;\n"
				"\t%s %s[%ld];\n\tif (%s) {\n#pragma unroll\n\t\tfor (int %s = 0; %s < %ld; %s++) {\n"
				"\t\t\tconst long long %s = (long long)(%s) + %s + %s * %s;\n"
				"\t\t\tif (%s < (long long)(%s))\n\t\t\t\t%s[%s] = %s%s%s[%s]%s;\n\t\t}\n\t}\n\t",
				row, kk, f->lp.width ? w : "blockDim.x", kk, rcn, end, f->lp.start, w, kk,
				ctype, cn, kk, rcn, in, in, kk, in, jn, f->lp.start, f->lp.lane, w, in, jn,
				end, cn, in, conv ? conv : "", conv ? "(" : "", row, jn, conv ? ")" : "");
		char slot[2 * KA_RECIPE_FOR_PART + 256];
		if (contained[i])
			snprintf(slot, sizeof slot, "%s[%s]", cn, in);
		else
			snprintf(slot, sizeof slot, "(%s < (%s) ? %s[%s] : %s%s%s[%s]%s)", p->lp.var, end, cn,
				 in, conv ? conv : "", conv ? "(" : "", row, p->lp.var, conv ? ")" : "");
		ka_buf_printf(&b, "if (%s) {\n#pragma unroll\n\t\tfor (int %s = 0; %s < %ld; %s++) {\n", rcn,
			      in, in, kk, in);
		ka_buf_printf(&b, "\t\t\t%s%s = (%s)((%s) + %s + %s * %s);\n\t\t\tif (", p->lp.type,
			      p->lp.var, ty, f->lp.start, p->lp.lane, w, in);
		if (!aligned[i])
			ka_buf_printf(
				&b,
				"%s >= (%s) + %s && ((long long)%s - (long long)(%s) - %s) %% %s == 0 && ",
				p->lp.var, p->lp.start, p->lp.lane, p->lp.var, p->lp.start, p->lp.lane, w);
		ka_buf_printf(&b, "%s) {", p->lp.cond);
		subst(&b, t, p, row, conv, slot);
		ka_buf_adds(&b, "}\n\t\t}\n");
		if (!contained[i]) { /* the rest of a longer pass, from the row past the cache */
			ka_buf_printf(&b, "\t\tfor (%s%s = (%s)((%s) + %s + %s * %ld); ", p->lp.type,
				      p->lp.var, ty, f->lp.start, p->lp.lane, w, kk);
			/* the header's test, step and body as written */
			size_t po = ka_csrc_skip_blank(t, p->e, p->s + 3);
			size_t q = po + 1;
			for (int d = 0; q < p->lp.hdr_close && (d || t[q] != ';'); q++)
				d += t[q] == '(' ? 1 : t[q] == ')' ? -1 : 0;
			ka_buf_add(&b, t + q + 1, p->e - (q + 1));
			ka_buf_adds(&b, "\n");
		}
		ka_buf_adds(&b, "\t} else ");
		ka_buf_add(&b, t + p->s, p->e - p->s);
		rc = b.data ? ka_recipe_edit(&ed, p->s, p->e, b.data)
			    : ka_error_set(KA_ENOMEM, "out of memory");
	}
	ka_buf_free(&b);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, c->m->len, out);
	ka_recipe_edits_free(&ed);
	return rc;
}

static const char *const grid[] = {"cache=regs k=32", "cache=regs k=128", "cache=regs k=64",
				   "cache=regs k=16", "cache=regs k=8",   NULL};

const ka_recipe ka_recipe_row_cache = {
	.name = "row-cache",
	.summary = "a row walked in several lane-strided passes -> read once into registers (k elements a "
		   "lane), every pass from them; longer rows as written",
	.rules = "gmem-missing-restrict",
	.grid = grid,
	.apply = rowcache_apply,
};
