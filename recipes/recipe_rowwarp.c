/* recipes/recipe_rowwarp.c: the warp-per-row recipe.  A kernel that gives
 * each thread a whole row,
 *     long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
 *     if (r >= rows) return;
 *     float s = 0.0f;
 *     for (long long j = 0; j < cols; j++) s += x[r * cols + j];
 *     y[r] = s;
 * walks 32 rows at once with a stride of one row between lanes: every warp
 * request touches 32 sectors (rules gmem-uncoalesced-access,
 * gmem-row-index-from-threadidx-x).  The recipe gives each row a warp: the
 * row index becomes the warp's, each innermost column loop starts at the
 * lane and steps by 32 (coalesced), each accumulator is combined across the
 * warp with shuffles right after the loop nest that fills it, and stores
 * outside loops are made by lane 0.  The launch gets 32 threads per row.
 *
 * What it proves before rewriting (else it declines): the row guard is the
 * only return and is warp-uniform after the rewrite; no shared memory,
 * barriers or other thread-id uses; each innermost loop steps by one over a
 * conjunction of upper bounds; inside it, statements are local declarations,
 * stores indexed by the column, or accumulator updates `a += E`,
 * `a = fmaxf(a, E)`, `a = fminf(a, E)` (the call the whole right side)
 * whose E does not read an accumulator still being filled; a sum starts
 * from zero; a per-chunk partial (declared in an outer loop) is only
 * folded into an outer accumulator with the same operation.  Outside the
 * loops, every lane runs declarations and assignments of locals, and lane 0
 * alone a store `P[I] = E;` (or op=) that no later statement reads; any
 * other statement (an atomic, `y[r]++`, a call) declines, and nothing may
 * write but what the statement's form says (ka_recipe_pure_expr).
 *
 * dispatch=size (rowwarp_dispatch) writes both schedules: the warp-per-row
 * kernel and a block-per-row copy of it (K_ka_block, `rowblock` threads,
 * default the block), and every launch picks one at run time with
 * ka_rows_by_block(rows): a block per row when a warp per row would fill
 * less than a quarter of the device's thread slots (rows * 32 * 4 < SMs *
 * threads per SM, the counts read once), where too few loads are in
 * flight to keep the memory busy; a warp per row otherwise.  A quarter,
 * not a half: on an H100 the vectorized warp schedule beat the vectorized
 * block schedule at 4096 rows of 1024 (softmax 22.0 against 34.6 us,
 * softmax_bf16 18.2 against 27.2 us), which half of the slots sent to
 * blocks, while blocks won at 2048 rows of 4096 and at 1024 rows
 * (docs/benchmarks.md, 2026-12-05 evening).  On a kernel
 * warp-per-row already wrote (lanes=32), vectorized or not, the set keeps
 * that kernel as the warp schedule and derives the block-per-row twin from
 * it (rowwarp_to_block): a recipe applies to the current best kernel,
 * whatever produced it, so vectorize accepted first does not shut the
 * dispatch out.  Both orders give the same kernels. */
#include "recipes/recipe.h"
#include "analyzer/kmodel.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)
#define MAX_ACC 16

enum { OP_SUM = 1, OP_MAX, OP_MIN, OP_ARGMAX, OP_ARGMIN };
enum { ST_DECLARED, ST_PARTIAL, ST_REDUCED };

typedef struct acc {
	char name[64];
	int op, state, zero, top, is_float;
	int reset;      /* set to a constant inside an outer loop: a per-chunk partial */
	char index[64]; /* ARGMAX/ARGMIN: the index of the (value, index) pair */
	int tie_first;  /* ARGMAX/ARGMIN: equal values keep the first index */
} acc;

typedef struct names {
	int n;
	char v[32][64];
} names;

typedef struct rw {
	ka_recipe_ctx *c;
	ka_recipe_edits *ed;
	acc a[MAX_ACC];
	int na;
	names locals;          /* declared at the top level */
	names lowp;            /* declared with a 2-byte type (__half, __nv_bfloat16) */
	int touched[MAX_ACC];  /* filled by the current top-level statement */
	size_t loop_s, loop_e; /* the innermost loop being walked */
	size_t top_s;          /* the top-level loop nest being walked */
	const ka_kmodel *km;   /* the kernel model (analyzer/kmodel.h) */
	int lanes;             /* lanes per row: 2..32, or 0 for the whole block */
	int used_arg;          /* an argmax/argmin pair was reduced */
	size_t row_s;          /* a grid-stride row loop: its body's start (0: a guard) */
	int loops;             /* loop nests at the row's level */
} rw;

static int is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static acc *find_acc(rw *w, const char *name)
{
	for (int i = 0; i < w->na; i++)
		if (!strcmp(w->a[i].name, name))
			return &w->a[i];
	return NULL;
}

/* Declarations "T a = init, b = init;" (squeezed) become accumulator
 * candidates; 1 when sq is a declaration. */
static int note_decl(rw *w, const char *sq, int top)
{
	static const char *const types[] = {"float ", "double ", "int ", "long long ", "unsigned "};
	static const char *const lowp[] = {"__half ", "half ", "__nv_bfloat16 ", "nv_bfloat16 "};
	const char *p = NULL;
	int is_float = 0;
	for (size_t i = 0; i < sizeof lowp / sizeof lowp[0]; i++)
		if (!strncmp(sq, lowp[i], strlen(lowp[i]))) {
			/* never an accumulator: a sum across lanes in 16 bits */
			char copy[512];
			snprintf(copy, sizeof copy, "%s", sq + strlen(lowp[i]));
			copy[strcspn(copy, ";")] = 0;
			for (char *d = strtok(copy, ","); d && w->lowp.n < 32; d = strtok(NULL, ","))
				snprintf(w->lowp.v[w->lowp.n++], sizeof w->lowp.v[0], "%.*s",
					 (int)strcspn(d, "="), d);
			return 1;
		}
	for (size_t i = 0; i < sizeof types / sizeof types[0] && !p; i++)
		if (!strncmp(sq, types[i], strlen(types[i]))) {
			p = sq + strlen(types[i]);
			is_float = i == 0;
		}
	if (!p)
		return 0;
	if (strchr(p, '(') || strchr(p, '['))
		return 1; /* a local, not an accumulator */
	char copy[512];
	snprintf(copy, sizeof copy, "%s", p);
	copy[strcspn(copy, ";")] = 0;
	for (char *d = strtok(copy, ","); d && w->na < MAX_ACC; d = strtok(NULL, ",")) {
		acc *a = &w->a[w->na++];
		memset(a, 0, sizeof *a);
		char *eq = strchr(d, '=');
		snprintf(a->name, sizeof a->name, "%.*s", eq ? (int)(eq - d) : (int)strlen(d), d);
		a->zero = eq && (!strcmp(eq + 1, "0") || !strcmp(eq + 1, "0.0f") || !strcmp(eq + 1, "0.f") ||
				 !strcmp(eq + 1, "0.0") || !strcmp(eq + 1, "0.0F"));
		a->top = top;
		a->is_float = is_float;
	}
	return 1;
}

/* KA_OK when the squeezed statement declares locals, `[const] T [*]v [=
 * E], ...;` with T a built-in type and each E writing nothing (a
 * reference or an array is no such local); their names go to out when it
 * is not NULL. */
static int local_decl(const char *sq, names *out)
{
	static const char *const types[] = {"const", "float", "double", "int", "long", "short", "char",
					    "unsigned", "signed", "bool", "size_t", "int64_t", "uint64_t",
					    "int32_t", "uint32_t", "float2", "float4", "double2", "auto",
					    "volatile",
					    /* the 2-byte types of cuda_fp16.h and cuda_bf16.h */
					    "__half", "half", "__nv_bfloat16", "nv_bfloat16", "__half2",
					    "half2", "__nv_bfloat162", "nv_bfloat162"};
	size_t i = 0, last = 0, nw = 0, end = strlen(sq);
	int known = 0;
	while (is_ident(sq[i])) { /* the words before the first declarator */
		size_t b = i;
		while (is_ident(sq[i]))
			i++;
		known = 0;
		for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
			known |= strlen(types[t]) == i - b && !memcmp(types[t], sq + b, i - b);
		last = b;
		nw++;
		if (sq[i] != ' ')
			break;
		if (!known)
			return KA_RECIPE_DECLINED;
		i++;
	}
	if (end < 2 || sq[end - 1] != ';' || !nw || (sq[i] == '*' && !known))
		return KA_RECIPE_DECLINED;
	if (sq[i] != '*') { /* `T v`: the last word is the first name */
		if (nw < 2)
			return KA_RECIPE_DECLINED;
		i = last;
	}
	for (size_t d = i, k = i, depth = 0; k < end; k++) { /* at top-level commas */
		if (sq[k] == '(' || sq[k] == '[' || sq[k] == '{')
			depth++;
		else if (sq[k] == ')' || sq[k] == ']' || sq[k] == '}')
			depth--;
		if ((sq[k] != ',' || depth) && k != end - 1)
			continue;
		size_t p = d;
		while (sq[p] == '*')
			p++;
		size_t nb = p;
		while (is_ident(sq[p]))
			p++;
		if (p == nb || p - nb >= sizeof out->v[0] || (p != k && sq[p] != '=') ||
		    (sq[p] == '=' && !ka_recipe_pure_expr(sq + p + 1, k - p - 1)))
			return KA_RECIPE_DECLINED;
		if (out && out->n < (int)(sizeof out->v / sizeof out->v[0]))
			snprintf(out->v[out->n++], sizeof out->v[0], "%.*s", (int)(p - nb), sq + nb);
		d = k + 1;
	}
	return KA_OK;
}

/* 1 when sq[0..n) names a local of the kernel: declared at its top level,
 * or a parameter (a copy of its own). */
static int is_local(const rw *w, const ka_csrc_kernel *k, const char *sq, size_t n)
{
	char name[64];
	if (n >= sizeof name)
		return 0;
	snprintf(name, sizeof name, "%.*s", (int)n, sq);
	for (int i = 0; i < w->locals.n; i++)
		if (!strcmp(w->locals.v[i], name))
			return 1;
	return ka_csrc_param_index(k, name) >= 0;
}

/* `a+=E;` `a=fmaxf(a,E);` `a=fminf(E,a);` -> op and the name; E's text
 * (from *expr on, *elen characters). */
static int update_of(const char *sq, char *name, size_t cap, const char **expr, size_t *elen)
{
	size_t n = 0;
	while (is_ident(sq[n]))
		n++;
	if (!n || n >= cap)
		return 0;
	memcpy(name, sq, n);
	name[n] = 0;
	if (sq[n] == '+' && sq[n + 1] == '=') {
		*expr = sq + n + 2;
		*elen = strlen(*expr);
		return OP_SUM;
	}
	if (sq[n] != '=')
		return 0;
	const char *f = sq + n + 1;
	int op = !strncmp(f, "fmaxf(", 6) || !strncmp(f, "max(", 4)   ? OP_MAX
		 : !strncmp(f, "fminf(", 6) || !strncmp(f, "min(", 4) ? OP_MIN
								      : 0;
	if (!op)
		return 0;
	/* the call is the whole right side, with two arguments, one of them a */
	size_t open = (size_t)(strchr(f, '(') - sq), len = strlen(sq), close = ka_csrc_match(sq, len, open);
	if (close == NPOS || strcmp(sq + close, ");"))
		return 0;
	size_t comma = NPOS;
	for (size_t i = open + 1, depth = 0; i < close; i++) {
		depth += sq[i] == '(' || sq[i] == '[';
		depth -= sq[i] == ')' || sq[i] == ']';
		if (sq[i] == ',' && !depth) {
			if (comma != NPOS)
				return 0;
			comma = i;
		}
	}
	if (comma == NPOS)
		return 0;
	if (comma - open - 1 == n && !strncmp(sq + open + 1, name, n)) {
		*expr = sq + comma + 1;
		*elen = strlen(*expr);
		return op;
	}
	if (close - comma - 1 == n && !strncmp(sq + comma + 1, name, n)) {
		*expr = sq + open + 1;
		*elen = comma - open - 1;
		return op;
	}
	return 0;
}

/* 1 when the squeezed text reads an accumulator that is being filled. */
static int reads_partial(rw *w, const char *t, size_t s, size_t e)
{
	for (int i = 0; i < w->na; i++)
		if (w->a[i].state == ST_PARTIAL && ka_csrc_has_word(t, s, e, w->a[i].name))
			return 1;
	(void)t;
	return 0;
}

static int loop_stmt(rw *w, size_t s, size_t e);

/* 1 when the squeezed text [s, s+n) is a constant: a number with an
 * optional sign, or an infinity or limit macro. */
static int const_literal(const char *s, size_t n)
{
	static const char *const named[] = {"INFINITY", "HUGE_VALF", "FLT_MAX", "DBL_MAX", "CUDART_INF_F"};
	if (n && (*s == '-' || *s == '+')) {
		s++;
		n--;
	}
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
		if (strlen(named[i]) == n && !memcmp(named[i], s, n))
			return 1;
	if (!n || !(isdigit((unsigned char)*s) || (*s == '.' && n > 1 && isdigit((unsigned char)s[1]))))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '.' &&
		    !((s[i] == '-' || s[i] == '+') && i && (s[i - 1] == 'e' || s[i - 1] == 'E')))
			return 0;
	return 1;
}

/* `v = CONST;` in a loop around the innermost one, v a scalar local of the
 * thread (an accumulator or a top-level local): every lane runs the same
 * outer iterations, so every lane stores the same value.  An accumulator
 * set so starts a new per-chunk partial.  1 when sq is such a statement. */
static int const_reset(rw *w, const char *sq, int innermost)
{
	size_t n = 0;
	while (is_ident(sq[n]))
		n++;
	size_t len = strlen(sq);
	if (innermost || !n || sq[n] != '=' || sq[n + 1] == '=' || len < n + 3 || sq[len - 1] != ';' ||
	    !const_literal(sq + n + 1, len - n - 2))
		return 0;
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), sq);
	acc *a = find_acc(w, name);
	if (a) {
		if (a->state == ST_PARTIAL)
			return 0; /* it is being filled: not a fresh start */
		char v[64];
		snprintf(v, sizeof v, "%.*s", (int)(len - n - 2), sq + n + 1);
		a->zero = !strcmp(v, "0") || !strcmp(v, "0.0f") || !strcmp(v, "0.f") || !strcmp(v, "0.0") ||
			  !strcmp(v, "0.0F");
		a->state = ST_DECLARED;
		a->reset = 1;
		return 1;
	}
	for (int i = 0; i < w->locals.n; i++)
		if (!strcmp(w->locals.v[i], name))
			return 1;
	return 0;
}

/* A statement the kernel model recognized as a compare-and-keep update
 * (`if (E > m) m = E;`, `if (E > best) { best = E; at = j; }`): a max or
 * min, or an argmax or argmin pair, of a float accumulator declared at the
 * top level.  KA_RECIPE_DECLINED + 1 when the model has no such update at s. */
static int model_update(rw *w, size_t s, size_t e, int innermost, const char *sq)
{
	ka_recipe_ctx *c = w->c;
	const ka_km_acc *ma = NULL;
	for (int i = 0; w->km && i < w->km->naccs && !ma; i++)
		if ((size_t)w->km->accs[i].begin == s && w->c->m->text[s] == 'i')
			ma = &w->km->accs[i];
	if (!ma)
		return KA_RECIPE_DECLINED + 1;
	int op = ma->red == KM_RED_MAX      ? OP_MAX
		 : ma->red == KM_RED_MIN    ? OP_MIN
		 : ma->red == KM_RED_ARGMAX ? OP_ARGMAX
		 : ma->red == KM_RED_ARGMIN ? OP_ARGMIN
					    : 0;
	if (!op || !innermost)
		return ka_recipe_decline(c, "the %s update '%.60s' is not in an innermost loop",
					 ka_kmodel_red_name(ma->red), sq);
	/* the compare and every assigned value write nothing */
	const char *t = c->m->text;
	size_t po = ka_csrc_skip_blank(t, e, s + 2), pc = ka_csrc_match(t, e, po);
	char part[1024];
	if (pc == NPOS || !ka_csrc_squeeze(t, po + 1, pc, part, sizeof part) ||
	    !ka_recipe_pure_expr(part, strlen(part)) || !ka_csrc_squeeze(t, pc + 1, e, part, sizeof part))
		return ka_recipe_decline(c, "cannot read the compare of '%.60s'", sq);
	for (char *p = part; *p;) {
		char *eq = strchr(p, '='), *semi = eq ? strchr(eq, ';') : NULL;
		if (!semi)
			break;
		if (!ka_recipe_pure_expr(eq + 1, (size_t)(semi - eq - 1)))
			return ka_recipe_decline(c, "'%.60s' writes more than its accumulators", sq);
		p = semi + 1;
	}
	if (!(ma->decl->tflags & KT_FLOAT) || (ma->decl->tflags & KT_DOUBLE))
		return ka_recipe_decline(c, "the %s accumulator %s is not a float",
					 ka_kmodel_red_name(ma->red), ma->name);
	acc *a = find_acc(w, ma->name);
	if (!a) {
		if (w->na >= MAX_ACC)
			return ka_recipe_decline(c, "too many accumulators");
		a = &w->a[w->na++];
		memset(a, 0, sizeof *a);
		snprintf(a->name, sizeof a->name, "%s", ma->name);
		a->is_float = 1;
		/* declared at the top level (outside the loop nest): one value per row */
		a->top = ma->decl->loc.begin >= 0 && (size_t)ma->decl->loc.begin < w->top_s;
	}
	if (a->state == ST_REDUCED || (a->op && a->op != op))
		return ka_recipe_decline(c, "accumulator %s: mixed operations or updated after its reduction",
					 a->name);
	if (!a->top)
		return ka_recipe_decline(c, "the %s accumulator %s is not declared at the top level",
					 ka_kmodel_red_name(ma->red), a->name);
	if (ma->index) {
		const ka_km_acc *other = ka_kmodel_acc(w->km, ma->index);
		if (other || ka_csrc_count_word(c->m->text, w->loop_s, w->loop_e, ma->index) != 1)
			return ka_recipe_decline(c,
						 "the index %s of the %s pair is used elsewhere in the loop",
						 ma->index, ka_kmodel_red_name(ma->red));
		snprintf(a->index, sizeof a->index, "%s", ma->index);
		a->tie_first = ma->tie_first;
	}
	a->op = op;
	a->state = ST_PARTIAL;
	w->touched[a - w->a] = 1;
	return KA_OK;
}

static int body_stmt(rw *w, size_t s, size_t e, int innermost, const char *jvar);

/* `if (C) S1 [else S2]` in an innermost loop: C writes nothing and reads no
 * accumulator being filled, so each column decides alone; S1 and S2 are
 * loop statements like any other. */
static int cond_stmt(rw *w, size_t s, size_t e, const char *jvar, const char *sq)
{
	ka_recipe_ctx *c = w->c;
	const char *t = c->m->text;
	size_t po = ka_csrc_skip_blank(t, e, s + 2), pc = po < e ? ka_csrc_match(t, e, po) : NPOS;
	char cond[512];
	if (pc == NPOS || !ka_csrc_squeeze(t, po + 1, pc, cond, sizeof cond) ||
	    !ka_recipe_pure_expr(cond, strlen(cond)))
		return ka_recipe_decline(c, "cannot prove the test of '%.60s' writes nothing", sq);
	if (reads_partial(w, t, po, pc))
		return ka_recipe_decline(c, "the test of '%.60s' reads a partial accumulator", sq);
	size_t i = ka_csrc_skip_blank(t, e, pc + 1);
	for (int branch = 0; branch < 2 && i < e; branch++) {
		size_t se = ka_csrc_stmt_end(t, e, i);
		if (se == NPOS)
			return ka_recipe_decline(c, "cannot split '%.60s'", sq);
		size_t b0 = i, b1 = se;
		if (t[i] == '{') {
			b0 = i + 1;
			b1 = ka_csrc_match(t, e, i);
			if (b1 == NPOS)
				return ka_recipe_decline(c, "cannot split '%.60s'", sq);
		}
		for (size_t k = ka_csrc_skip_blank(t, b1, b0); k < b1; k = ka_csrc_skip_blank(t, b1, k)) {
			size_t ke = ka_csrc_stmt_end(t, b1, k);
			if (ke == NPOS)
				return ka_recipe_decline(c, "cannot split '%.60s'", sq);
			int rc = body_stmt(w, k, ke, 1, jvar);
			if (rc)
				return rc;
			k = ke;
		}
		i = ka_csrc_skip_blank(t, e, se);
		if (i + 4 <= e && !strncmp(t + i, "else", 4) && !is_ident(t[i + 4]))
			i = ka_csrc_skip_blank(t, e, i + 4);
		else if (i < e)
			return ka_recipe_decline(c, "cannot read '%.60s'", sq);
	}
	return KA_OK;
}

/* 1 when every occurrence of the word base in [s, e) is a store
 * `base[I] = E` (not ==), with one index I: each column writes one element
 * of its own, in whichever branch. */
static int only_stores(const char *t, size_t s, size_t e, const char *base)
{
	size_t n = strlen(base);
	char first[256] = "", idx[256];
	for (size_t p = s; p + n <= e; p++) {
		if (strncmp(t + p, base, n) || (p > s && is_ident(t[p - 1])) || is_ident(t[p + n]))
			continue;
		size_t q = ka_csrc_skip_blank(t, e, p + n),
		       r = q < e && t[q] == '[' ? ka_csrc_match(t, e, q) : NPOS;
		if (r == NPOS)
			return 0;
		if (!ka_csrc_squeeze(t, q + 1, r, idx, sizeof idx) || (first[0] && strcmp(first, idx)))
			return 0;
		snprintf(first, sizeof first, "%s", idx);
		q = ka_csrc_skip_blank(t, e, r + 1);
		if (q + 1 >= e || t[q] != '=' || t[q + 1] == '=')
			return 0;
		p = r;
	}
	return 1;
}

/* One statement inside a loop body. */
static int body_stmt(rw *w, size_t s, size_t e, int innermost, const char *jvar)
{
	ka_recipe_ctx *c = w->c;
	const char *t = c->m->text;
	char sq[2048], name[64];
	const char *expr = NULL;
	if (!strncmp(t + s, "for", 3) && !is_ident(t[s + 3]))
		return loop_stmt(w, s, e);
	if (!ka_csrc_squeeze(t, s, e, sq, sizeof sq))
		return ka_recipe_decline(c, "a loop statement is too long");
	size_t elen = 0;
	int op = update_of(sq, name, sizeof name, &expr, &elen);
	acc *a = op ? find_acc(w, name) : NULL;
	for (int i = 0; op && !a && i < w->lowp.n; i++)
		if (!strcmp(w->lowp.v[i], name))
			return ka_recipe_decline(
				c,
				"accumulator %s is a 16-bit type: its partial sums would be rounded to "
				"16 bits across lanes (declare it float)",
				name);
	if (a && !ka_recipe_pure_expr(expr, strlen(expr)))
		return ka_recipe_decline(c, "'%.60s' writes more than %s", sq, name);
	if (a) {
		if (a->state == ST_REDUCED)
			return ka_recipe_decline(c, "%s is accumulated again after its reduction", name);
		if ((a->op && a->op != op) || (op == OP_SUM && !a->zero) || (op != OP_SUM && !a->is_float))
			return ka_recipe_decline(
				c, "accumulator %s: mixed operations, a non-zero start or a non-float max",
				name);
		if (!innermost) {
			/* outside the innermost loop only a partial of the same op is folded in */
			char part[64];
			snprintf(part, sizeof part, "%.*s", (int)strcspn(expr, ");"), expr);
			acc *p = find_acc(w, part);
			if (!p || p->op != op || (p->top && !p->reset) ||
			    strlen(expr) != strlen(part) + (op == OP_SUM ? 1 : 2))
				return ka_recipe_decline(
					c, "'%s' folds something other than a partial into %s", sq, name);
			p->state = ST_REDUCED; /* consumed: its lanes' values live on in `name` */
		} else {
			char ex[2048]; /* E alone: `a = fminf(E, a)` names a after it */
			snprintf(ex, sizeof ex, "%.*s", (int)elen, expr);
			for (int i = 0; i < w->na; i++)
				if ((w->a[i].state == ST_PARTIAL || &w->a[i] == a) &&
				    ka_csrc_has_word(ex, 0, strlen(ex), w->a[i].name))
					return ka_recipe_decline(
						c, "'%s' reads an accumulator that is still being filled",
						sq);
		}
		a->op = op;
		a->state = ST_PARTIAL;
		if (a->top)
			w->touched[a - w->a] = 1;
		return KA_OK;
	}
	int mrc = model_update(w, s, e, innermost, sq);
	if (mrc != KA_RECIPE_DECLINED + 1)
		return mrc;
	if (innermost && !strncmp(sq, "if(", 3))
		return cond_stmt(w, s, e, jvar, sq);
	if (reads_partial(w, t, s, e))
		return ka_recipe_decline(c, "'%.60s' reads a partial accumulator", sq);
	if (const_reset(w, sq, innermost))
		return KA_OK;
	if (local_decl(sq, NULL) == KA_OK) {
		note_decl(w, sq, 0);
		return KA_OK;
	}
	/* a store indexed by the column: p[..j..] = E; */
	char *br = strchr(sq, '['), *cl = br ? strchr(br, ']') : NULL;
	if (innermost && br && cl && cl[1] == '=' && cl[2] != '=' &&
	    ka_recipe_pure_expr(br, (size_t)(cl - br)) && ka_recipe_pure_expr(cl + 2, strlen(cl + 2)) &&
	    ka_csrc_has_word(br, 0, (size_t)(cl - br), jvar)) {
		for (const char *q = sq; q < br; q++)
			if (!is_ident(*q))
				return ka_recipe_decline(c, "cannot read the store '%.60s'", sq);
		/* the stored array is read nowhere else in the loop: no dependence
		 * between columns through memory */
		char base[64];
		snprintf(base, sizeof base, "%.*s", (int)(br - sq), sq);
		if (!only_stores(t, w->loop_s, w->loop_e, base))
			return ka_recipe_decline(c, "%s is stored and read in one loop", base);
		return KA_OK;
	}
	return ka_recipe_decline(c, "cannot prove '%.60s' lane-independent", sq);
}

/* A for loop: lane-stride it when innermost, walk it otherwise. */
static int loop_stmt(rw *w, size_t s, size_t e)
{
	ka_recipe_ctx *c = w->c;
	const char *t = c->m->text;
	size_t po = ka_csrc_skip_blank(t, e, s + 3), pc = ka_csrc_match(t, e, po);
	if (t[po] != '(' || pc == NPOS)
		return ka_recipe_decline(c, "cannot read a loop header");
	size_t semi[2], ns = 0;
	for (size_t i = po + 1; i < pc && ns < 2; i++) {
		if (t[i] == '(') {
			i = ka_csrc_match(t, pc, i);
			if (i == NPOS)
				break;
			continue;
		}
		if (t[i] == ';')
			semi[ns++] = i;
	}
	if (ns != 2)
		return ka_recipe_decline(c, "cannot read a loop header");
	char init[256], cond[256], step[128], jvar[64];
	ka_csrc_squeeze(t, po + 1, semi[0], init, sizeof init);
	ka_csrc_squeeze(t, semi[0] + 1, semi[1], cond, sizeof cond);
	ka_csrc_squeeze(t, semi[1] + 1, pc, step, sizeof step);
	size_t bs = ka_csrc_skip_blank(t, e, pc + 1);
	int innermost = !ka_csrc_has_word(t, bs, e, "for");
	const char *eq = strchr(init, '=');
	if (!eq)
		return ka_recipe_decline(c, "a loop without an initialized index");
	size_t vb = (size_t)(eq - init);
	while (vb > 0 && is_ident(init[vb - 1]))
		vb--;
	snprintf(jvar, sizeof jvar, "%.*s", (int)(eq - init - vb), init + vb);
	char s1[80], s2[80], s3[80];
	snprintf(s1, sizeof s1, "%s++", jvar);
	snprintf(s2, sizeof s2, "++%s", jvar);
	snprintf(s3, sizeof s3, "%s+=1", jvar);
	if (innermost && strcmp(step, s1) && strcmp(step, s2) && strcmp(step, s3))
		return ka_recipe_decline(c, "loop '%s' does not step by one", step);
	/* each conjunct `j < E` or `j <= E` with E free of j */
	char cc[256];
	snprintf(cc, sizeof cc, "%s", cond);
	for (char *d = strtok(cc, "&"); d && innermost; d = strtok(NULL, "&")) {
		size_t jl = strlen(jvar);
		if (strncmp(d, jvar, jl) || d[jl] != '<' || ka_csrc_has_word(d + jl, 0, strlen(d + jl), jvar))
			return ka_recipe_decline(c, "loop condition '%s' is not a set of upper bounds on %s",
						 cond, jvar);
	}
	if (strstr(cond, "||"))
		return ka_recipe_decline(c, "loop condition '%s' has ||", cond);
	/* the body, statement by statement */
	size_t b0 = bs, b1 = e;
	if (innermost) {
		w->loop_s = s;
		w->loop_e = e;
	}
	if (t[bs] == '{') {
		b0 = bs + 1;
		b1 = ka_csrc_match(t, e, bs);
	}
	for (size_t i = ka_csrc_skip_blank(t, b1, b0); i < b1; i = ka_csrc_skip_blank(t, b1, i)) {
		size_t se = ka_csrc_stmt_end(t, b1, i);
		if (se == NPOS)
			return ka_recipe_decline(c, "cannot split a loop body");
		int rc = body_stmt(w, i, se, innermost, jvar);
		if (rc)
			return rc;
		i = se;
	}
	if (!innermost)
		return KA_OK;
	/* j = START  ->  j = (START) + ka_lane;   j++  ->  j += 32 */
	size_t eq_at = po + 1;
	while (t[eq_at] != '=')
		eq_at++;
	char start[200], txt[256];
	ka_csrc_squeeze(t, eq_at + 1, semi[0], start, sizeof start);
	snprintf(txt, sizeof txt, " (%s) + ka_lane", start);
	int rc = ka_recipe_edit(w->ed, eq_at + 1, semi[0], txt);
	if (w->lanes)
		snprintf(txt, sizeof txt, " %s += %d", jvar, w->lanes);
	else
		snprintf(txt, sizeof txt, " %s += blockDim.x", jvar);
	return rc ? rc : ka_recipe_edit(w->ed, semi[1] + 1, pc, txt);
}

/* One statement of the kernel's body after the row guard. */
/* A loop nest at the top level, and the reductions of what it filled. */
static int top_loop(rw *w, size_t s, size_t e)
{
	memset(w->touched, 0, sizeof w->touched);
	w->top_s = s;
	w->loops++;
	int rc = loop_stmt(w, s, e);
	if (rc)
		return rc;
	ka_buf b;
	ka_buf_init(&b, 4096);
	for (int i = 0; i < w->na; i++) {
		acc *a = &w->a[i];
		if (!w->touched[i])
			continue;
		const char *opn = a->op == OP_SUM      ? "sum"
				  : a->op == OP_MAX    ? "max"
				  : a->op == OP_MIN    ? "min"
				  : a->op == OP_ARGMAX ? "argmax"
						       : "argmin";
		const char *tie = a->op == OP_ARGMAX || a->op == OP_ARGMIN
					  ? (a->tie_first ? "_first" : "_last")
					  : "";
		char fn[64], args[160];
		if (w->lanes == 32)
			snprintf(fn, sizeof fn, "ka_warp_%s%s", opn, tie);
		else if (w->lanes)
			snprintf(fn, sizeof fn, "ka_group_%s%s<%d>", opn, tie, w->lanes);
		else
			snprintf(fn, sizeof fn, "ka_block_%s%s", opn, tie);
		const char *mask = w->lanes && w->lanes < 32 ? "ka_mask, " : "";
		if (a->op == OP_ARGMAX || a->op == OP_ARGMIN) {
			snprintf(args, sizeof args, "%s%s, %s", mask, a->name, a->index);
			ka_buf_printf(&b, "\n\t%s(%s);", fn, args);
			w->used_arg = 1;
		} else {
			ka_buf_printf(&b, "\n\t%s = %s(%s%s);", a->name, fn, mask, a->name);
		}
		a->state = ST_REDUCED;
	}
	for (int i = 0; i < w->na; i++)
		if (w->a[i].state == ST_PARTIAL)
			return ka_recipe_decline(w->c, "partial %s is never folded", w->a[i].name);
	rc = b.len ? ka_recipe_edit(w->ed, e, e, b.data) : KA_OK;
	ka_buf_free(&b);
	return rc;
}

static int top_stmt(rw *w, size_t s, size_t e)
{
	ka_recipe_ctx *c = w->c;
	const char *t = c->m->text;
	char sq[2048];
	if (!strncmp(t + s, "for", 3) && !is_ident(t[s + 3]))
		return top_loop(w, s, e);
	if (t[s] == '{') { /* a block of the row's statements (grid-stride writes one) */
		size_t cb = ka_csrc_match(t, e, s);
		if (cb == NPOS)
			return ka_recipe_decline(c, "cannot split a block");
		for (size_t i = ka_csrc_skip_blank(t, cb, s + 1); i < cb; i = ka_csrc_skip_blank(t, cb, i)) {
			size_t se = ka_csrc_stmt_end(t, cb, i);
			int rc = se == NPOS ? ka_recipe_decline(c, "cannot split a block")
					    : top_stmt(w, i, se);
			if (rc)
				return rc;
			i = se;
		}
		return KA_OK;
	}
	if (ka_csrc_has_word(t, s, e, "for") || ka_csrc_has_word(t, s, e, "while"))
		return ka_recipe_decline(c, "a loop inside a compound statement");
	if (!ka_csrc_squeeze(t, s, e, sq, sizeof sq))
		return ka_recipe_decline(c, "a statement is too long");
	for (int i = 0; i < w->na; i++)
		if (w->a[i].state == ST_DECLARED && w->a[i].top && ka_csrc_has_word(t, s, e, w->a[i].name) &&
		    !strncmp(sq, w->a[i].name, strlen(w->a[i].name)))
			w->a[i].zero = 0; /* assigned before its loop: its start is no longer known */
	/* every lane runs what only changes its own variables ... */
	if (local_decl(sq, &w->locals) == KA_OK) {
		note_decl(w, sq, 1);
		return KA_OK;
	}
	size_t n = 0, ops;
	while (is_ident(sq[n]))
		n++;
	ops = n + (sq[n] == '=' ? 1 : strchr("+-*/%&|^", sq[n]) && sq[n] && sq[n + 1] == '=' ? 2 : 0);
	if (n && ops > n && is_local(w, c->k, sq, n))
		return ka_recipe_pure_expr(sq + ops, strlen(sq + ops))
			       ? KA_OK
			       : ka_recipe_decline(c, "'%.60s' writes more than a local", sq);
	/* ... and lane 0 alone a store `P[I] = E;` outside the loops, which
	 * the original thread made once per row; no later statement may read
	 * it then, since the other lanes would not see it */
	size_t cl = sq[n] == '[' ? ka_csrc_match(sq, strlen(sq), n) : NPOS;
	const char *a = cl == NPOS ? "" : sq + cl + 1;
	ops = a[0] == '=' ? 1 : strchr("+-*/%&|^", a[0]) && a[0] && a[1] == '=' ? 2 : 0;
	if (!n || !ops || !ka_recipe_pure_expr(sq + n, cl - n) ||
	    !ka_recipe_pure_expr(a + ops, strlen(a + ops)))
		return ka_recipe_decline(
			c, "cannot prove that '%.60s' may run on every lane or on lane 0 alone", sq);
	char base[KA_CSRC_NAME];
	snprintf(base, sizeof base, "%.*s", (int)n, sq);
	if (ka_csrc_has_word(t, e, c->k->body_close, base) ||
	    (w->row_s && ka_csrc_has_word(t, w->row_s, s, base))) /* read for a later row */
		return ka_recipe_decline(c, "%s is stored by lane 0 and used after", base);
	int rc = ka_recipe_edit(w->ed, s, s, "if (ka_lane == 0) { ");
	return rc ? rc : ka_recipe_edit(w->ed, e, e, " }");
}

static const char helpers[] =
	"#ifndef KA_WARP_REDUCE_DEFINED\n#define KA_WARP_REDUCE_DEFINED\n"
	"/* warp-wide reductions (every lane gets the result) */\n"
	"template <typename T> __device__ __forceinline__ T ka_warp_sum(T v)\n{\n"
	"\tfor (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);\n\treturn v;\n}\n"
	"__device__ __forceinline__ float ka_warp_max(float v)\n{\n"
	"\tfor (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));\n\treturn v;\n}\n"
	"__device__ __forceinline__ float ka_warp_min(float v)\n{\n"
	"\tfor (int o = 16; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(0xffffffffu, v, o));\n\treturn v;\n}\n"
	"#endif\n\n";

static const char arg_helpers[] =
	"#ifndef KA_WARP_ARG_DEFINED\n#define KA_WARP_ARG_DEFINED\n"
	"/* (value, index) pairs: the larger (smaller) value, and on a tie the\n"
	" * first (last) index, as a sequential scan with > (>=) keeps */\n"
	"#define KA_WARP_ARG(NAME, BETTER, TIE)\\\n"
	"\ttemplate <typename T, typename I> __device__ __forceinline__ void NAME(T &v, I &i)\\\n"
	"\t{\\\n"
	"\t\tfor (int o = 16; o > 0; o >>= 1) {\\\n"
	"\t\t\tT ov = __shfl_xor_sync(0xffffffffu, v, o);\\\n"
	"\t\t\tI oi = __shfl_xor_sync(0xffffffffu, i, o);\\\n"
	"\t\t\tif (ov BETTER v || (ov == v && oi TIE i)) {\\\n"
	"\t\t\t\tv = ov;\\\n"
	"\t\t\t\ti = oi;\\\n"
	"\t\t\t}\\\n"
	"\t\t}\\\n"
	"\t}\n"
	"KA_WARP_ARG(ka_warp_argmax_first, >, <)\n"
	"KA_WARP_ARG(ka_warp_argmax_last, >, >)\n"
	"KA_WARP_ARG(ka_warp_argmin_first, <, <)\n"
	"KA_WARP_ARG(ka_warp_argmin_last, <, >)\n"
	"#endif\n\n";

/* Groups of W lanes of a warp per row (m: the lanes whose row exists), and
 * a whole block per row. */
static const char group_helpers[] =
	"#ifndef KA_ROW_GROUP_DEFINED\n#define KA_ROW_GROUP_DEFINED\n"
	"/* reductions over groups of W lanes (every lane of a group gets its result) */\n"
	"template <int W, typename T> __device__ __forceinline__ T ka_group_sum(unsigned m, T v)\n{\n"
	"\tfor (int o = W / 2; o > 0; o >>= 1) v += __shfl_xor_sync(m, v, o);\n\treturn v;\n}\n"
	"template <int W> __device__ __forceinline__ float ka_group_max(unsigned m, float v)\n{\n"
	"\tfor (int o = W / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(m, v, o));\n\treturn v;\n}\n"
	"template <int W> __device__ __forceinline__ float ka_group_min(unsigned m, float v)\n{\n"
	"\tfor (int o = W / 2; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(m, v, o));\n\treturn v;\n}\n"
	"#define KA_GROUP_ARG(NAME, BETTER, TIE)\\\n"
	"\ttemplate <int W, typename T, typename I> __device__ __forceinline__ void NAME(unsigned m, T &v, I &i)\\\n"
	"\t{\\\n"
	"\t\tfor (int o = W / 2; o > 0; o >>= 1) {\\\n"
	"\t\t\tT ov = __shfl_xor_sync(m, v, o);\\\n"
	"\t\t\tI oi = __shfl_xor_sync(m, i, o);\\\n"
	"\t\t\tif (ov BETTER v || (ov == v && oi TIE i)) {\\\n"
	"\t\t\t\tv = ov;\\\n"
	"\t\t\t\ti = oi;\\\n"
	"\t\t\t}\\\n"
	"\t\t}\\\n"
	"\t}\n"
	"KA_GROUP_ARG(ka_group_argmax_first, >, <)\n"
	"KA_GROUP_ARG(ka_group_argmax_last, >, >)\n"
	"KA_GROUP_ARG(ka_group_argmin_first, <, <)\n"
	"KA_GROUP_ARG(ka_group_argmin_last, <, >)\n"
	"/* block-wide: each warp, then the warps' results (every thread gets it) */\n"
	"#define KA_BLOCK_RED(NAME, GROUP, T, EMPTY)\\\n"
	"\t__device__ __forceinline__ T NAME(T v)\\\n"
	"\t{\\\n"
	"\t\t__shared__ T ka_s[32];\\\n"
	"\t\tconst int l = threadIdx.x & 31, nw = (blockDim.x + 31) >> 5;\\\n"
	"\t\tv = GROUP<32>(0xffffffffu, v);\\\n"
	"\t\t__syncthreads();\\\n"
	"\t\tif (l == 0)\\\n"
	"\t\t\tka_s[threadIdx.x >> 5] = v;\\\n"
	"\t\t__syncthreads();\\\n"
	"\t\tv = l < nw ? ka_s[l] : EMPTY;\\\n"
	"\t\treturn GROUP<32>(0xffffffffu, v);\\\n"
	"\t}\n"
	"template <typename T> KA_BLOCK_RED(ka_block_sum, ka_group_sum, T, (T)0)\n"
	"KA_BLOCK_RED(ka_block_max, ka_group_max, float, ka_s[0])\n"
	"KA_BLOCK_RED(ka_block_min, ka_group_min, float, ka_s[0])\n"
	"#define KA_BLOCK_ARG(NAME, GROUP)\\\n"
	"\ttemplate <typename T, typename I> __device__ __forceinline__ void NAME(T &v, I &i)\\\n"
	"\t{\\\n"
	"\t\t__shared__ T ka_v[32];\\\n"
	"\t\t__shared__ I ka_i[32];\\\n"
	"\t\tconst int l = threadIdx.x & 31, nw = (blockDim.x + 31) >> 5;\\\n"
	"\t\tGROUP<32>(0xffffffffu, v, i);\\\n"
	"\t\t__syncthreads();\\\n"
	"\t\tif (l == 0) {\\\n"
	"\t\t\tka_v[threadIdx.x >> 5] = v;\\\n"
	"\t\t\tka_i[threadIdx.x >> 5] = i;\\\n"
	"\t\t}\\\n"
	"\t\t__syncthreads();\\\n"
	"\t\tv = ka_v[l < nw ? l : 0];\\\n"
	"\t\ti = ka_i[l < nw ? l : 0];\\\n"
	"\t\tGROUP<32>(0xffffffffu, v, i);\\\n"
	"\t}\n"
	"KA_BLOCK_ARG(ka_block_argmax_first, ka_group_argmax_first)\n"
	"KA_BLOCK_ARG(ka_block_argmax_last, ka_group_argmax_last)\n"
	"KA_BLOCK_ARG(ka_block_argmin_first, ka_group_argmin_first)\n"
	"KA_BLOCK_ARG(ka_block_argmin_last, ka_group_argmin_last)\n"
	"#endif\n\n";

/* The launches of the kernel in its new grid and block (rows2: the second
 * factor of a product row bound, "" when there is none), then the edits
 * applied into out. */
static int rowwarp_relaunch_apply(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *rows, const char *rows2,
				  const char *grid, const char *bs, const char *t, size_t len, ka_buf *out)
{
	int rc = rows2[0] ? ka_recipe_relaunch_smem(c, ed, rows, grid, bs, rows2, NULL)
			  : ka_recipe_relaunch(c, ed, rows, grid, bs);
	return rc == KA_OK ? ka_recipe_edits_apply(ed, t, len, out) : rc;
}

/* The rewrite with `lanes` lanes per row (0: the block) in blocks of
 * `block` threads. */
static int rowwarp_rewrite(ka_recipe_ctx *c, ka_buf *out, long block, int lanes)
{
	const char *t = c->m->text;
	size_t len = c->m->len, close = c->k->body_close;
	char var[64], rows[KA_CSRC_NAME];
	static const char *const banned[] = {"__shared__", "__syncthreads", "__syncwarp", "extern"};
	for (size_t i = 0; i < sizeof banned / sizeof banned[0]; i++)
		if (ka_csrc_has_word(t, c->k->body_open, close, banned[i]))
			return ka_recipe_decline(c, "the kernel uses %s", banned[i]);
	/* the row, its guard and what it guards, from the kernel model */
	ka_kmodel_doc doc;
	if (ka_recipe_kmodel(t, len, c->k->name, &doc) != KA_OK)
		return ka_recipe_decline(c, "the kernel does not parse on its own");
	const ka_kmodel *km = doc.km;
	const ka_km_index *ix = ka_kmodel_guarded_index(km);
	/* rows walked by a grid-stride loop (the grid-stride recipe's result):
	 * gridDim only in its header, which becomes a warp-strided one */
	int stride = km->guard.form == KM_GUARD_STRIDE;
	const ka_km_loop *rl = stride ? &km->loops[km->guard.loop] : NULL;
	int rc = KA_OK;
	if (!ix || ix->kind != KM_IX_GLOBAL || ix->axis != 0)
		rc = ka_recipe_decline(
			c, "no row guard (`if (row >= ROWS) return;` or `if (row < ROWS) {...}`) on a global "
			   "thread index along x");
	else if (ka_csrc_has_word(t, stride ? (size_t)km->guard.body_begin : c->k->body_open, close,
				  "gridDim"))
		rc = ka_recipe_decline(c, "the kernel uses gridDim%s",
				       stride ? " in its row loop's body" : "");
	else if (stride && lanes && lanes != 32)
		rc = ka_recipe_decline(
			c, "a grid-stride row loop takes lanes=32 or lanes=block, not lanes=%d", lanes);
	/* the row count: a parameter, or the product of two (`B * T`) */
	char bsq[160], rows2[KA_CSRC_NAME] = "";
	if (!rc && km->guard.bound_param) {
		snprintf(rows, sizeof rows, "%s", km->guard.bound_param->name);
	} else if (!rc) {
		char *star = ka_csrc_squeeze(km->guard.bound, 0, strlen(km->guard.bound), bsq, sizeof bsq)
				     ? strchr(bsq, '*')
				     : NULL;
		if (star && !strchr(star + 1, '*')) {
			*star = 0;
			snprintf(rows, sizeof rows, "%.*s", (int)sizeof rows - 1, bsq);
			snprintf(rows2, sizeof rows2, "%.*s", (int)sizeof rows2 - 1, star + 1);
		}
		if (!star || ka_csrc_param_index(c->k, rows) < 0 || ka_csrc_param_index(c->k, rows2) < 0)
			rc = ka_recipe_decline(c, "the row bound %s is not a parameter nor a product of two",
					       km->guard.bound);
	}
	if (rc) {
		ka_recipe_kmodel_free(&doc);
		return rc;
	}
	snprintf(var, sizeof var, "%s", ix->name);
	char nrows[2 * KA_CSRC_NAME + 8]; /* the row count as the kernel reads it */
	snprintf(nrows, sizeof nrows, rows2[0] ? "(%s * %s)" : "%s", rows, rows2);
	size_t s0 = (size_t)ix->begin, e0 = (size_t)ix->end;
	size_t r0 = (size_t)km->guard.body_begin, r1 = (size_t)km->guard.body_end;
	if (km->guard.form == KM_GUARD_RETURN)
		r1 = close;
	char dsq[256];
	if (!ka_csrc_squeeze(t, s0, e0, dsq, sizeof dsq) || strchr(dsq, ','))
		rc = ka_recipe_decline(c, "the row index's declaration declares more than the row");
	ka_recipe_edits ed = {0};
	if (!rc)
		rc = ka_recipe_drop_launch_bounds(c, &ed);
	/* before the guard: the row's declaration, and integer indices only it reads */
	for (size_t i = ka_csrc_skip_blank(t, close, c->k->body_open + 1); !rc && i < (size_t)km->guard.begin;
	     i = ka_csrc_skip_blank(t, close, i)) {
		size_t se = ka_csrc_stmt_end(t, close, i);
		if (se == NPOS || se > (size_t)km->guard.begin) {
			rc = ka_recipe_decline(c, "cannot split the statements before the row guard");
			break;
		}
		int ok = i == s0;
		char psq[512]; /* a local of the thread's own that no id feeds (`float eps = 1e-5f;`) */
		names dn = {0};
		int decl = ka_csrc_squeeze(t, i, se, psq, sizeof psq) && local_decl(psq, &dn) == KA_OK;
		ok = ok ||
		     (decl && !ka_csrc_has_word(t, i, se, "threadIdx") &&
		      !ka_csrc_has_word(t, i, se, "blockIdx") && !ka_csrc_has_word(t, i, se, "blockDim") &&
		      !ka_csrc_has_word(t, i, se, "gridDim"));
		for (int x = 0; x < km->nidx && !ok && !stride; x++)
			ok = (size_t)km->idx[x].begin == i &&
			     !ka_csrc_has_word(t, (size_t)km->guard.begin, close, km->idx[x].name);
		if (!ok && stride && decl && dn.n) {
			/* a helper only the row loop's start or step reads (`const long long
			 * step = (long long)gridDim.x * blockDim.x;`): both are rewritten, so
			 * it goes */
			int dead = 1;
			for (int x = 0; x < dn.n; x++)
				dead &= !ka_csrc_has_word(t, se, (size_t)km->guard.begin, dn.v[x]) &&
					!ka_csrc_has_word(t, (size_t)rl->cond_begin, (size_t)rl->cond_end,
							  dn.v[x]) &&
					!ka_csrc_has_word(t, (size_t)rl->step_end, close, dn.v[x]);
			ok = dead && ka_recipe_edit(&ed, i, ka_csrc_skip_blank(t, close, se), "") == KA_OK;
		}
		if (!ok)
			rc = ka_recipe_decline(c,
					       "a statement before the row guard other than the row's index");
		i = se;
	}
	if (!rc && ka_csrc_count_word(t, r0, r1, "return"))
		rc = ka_recipe_decline(c, "a second return");
	static const char *const ids[] = {"threadIdx", "blockIdx", "blockDim"};
	for (size_t i = 0; i < 3 && !rc; i++)
		if (ka_csrc_has_word(t, r0, r1, ids[i]))
			rc = ka_recipe_decline(c, "the rows use %s", ids[i]);
	if (rc) {
		ka_recipe_edits_free(&ed);
		ka_recipe_kmodel_free(&doc);
		return rc;
	}
	char base[64];
	snprintf(base, sizeof base, "%s", ix->type);
	rw w = {.c = c, .ed = &ed, .km = km, .lanes = lanes, .row_s = stride ? r0 : 0};
	char decl[640]; /* the row keeps its type */
	if (stride) {
		/* for (T r = <thread index> / 32; r < R; r += <the grid's warps>) */
		size_t eq = s0;
		while (eq < e0 && t[eq] != '=')
			eq++;
		size_t ie = e0 > eq && t[e0 - 1] == ';' ? e0 - 1
							: e0; /* a declaration's extent has its ';' */
		if (eq == e0)
			rc = ka_recipe_decline(c, "cannot read the row loop's start");
		else
			rc = ka_recipe_edit(&ed, eq + 1, ie,
					    lanes ? " (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32"
						  : " blockIdx.x");
		snprintf(decl, sizeof decl, "%s += %s", var,
			 lanes ? "(long long)gridDim.x * (blockDim.x / 32)" : "gridDim.x");
		if (!rc)
			rc = ka_recipe_edit(&ed, (size_t)rl->step_begin, (size_t)rl->step_end, decl);
		if (!rc)
			rc = ka_recipe_edit(&ed, (size_t)km->guard.begin, (size_t)km->guard.begin,
					    lanes ? "const int ka_lane = threadIdx.x & 31;\n\t"
						  : "const int ka_lane = threadIdx.x;\n\t");
	} else if (lanes == 32)
		snprintf(decl, sizeof decl,
			 "const %s %s = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32;\n"
			 "\tconst int ka_lane = threadIdx.x & 31;",
			 base, var);
	else if (lanes) /* the lanes of rows past the end leave the shuffles' mask */
		snprintf(decl, sizeof decl,
			 "const %s %s = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / %d;\n"
			 "\tconst int ka_lane = threadIdx.x & %d;\n"
			 "\tconst unsigned ka_mask = __ballot_sync(0xffffffffu, %s < %s);",
			 base, var, lanes, lanes - 1, var, nrows);
	else
		snprintf(decl, sizeof decl, "const %s %s = blockIdx.x;\n\tconst int ka_lane = threadIdx.x;",
			 base, var);
	if (!stride)
		rc = ka_recipe_edit(&ed, s0, e0, decl);
	for (size_t i = ka_csrc_skip_blank(t, r1, r0); rc == KA_OK && i < r1;
	     i = ka_csrc_skip_blank(t, r1, i)) {
		size_t se = ka_csrc_stmt_end(t, r1, i);
		if (se == NPOS) {
			rc = ka_recipe_decline(c, "cannot split the kernel body");
			break;
		}
		rc = top_stmt(&w, i, se);
		i = se;
	}
	if (rc == KA_OK && !w.loops)
		rc = ka_recipe_decline(c, "no loop over the row");
	char lb[64], grid[160], bs[32];
	snprintf(lb, sizeof lb, "__launch_bounds__(%ld) ", block);
	const char *nl = rows2[0] ? "@N * @B" : "@N"; /* the row count at the launch */
	if (lanes == 32)
		snprintf(grid, sizeof grid, "(unsigned)((%s * 32 + %ld) / %ld)", nl, block, block);
	else if (lanes)
		snprintf(grid, sizeof grid, "(unsigned)((%s * %d + %ld) / %ld)", nl, lanes, block - 1, block);
	else
		snprintf(grid, sizeof grid, "(unsigned)(%s)", nl);
	snprintf(bs, sizeof bs, "%ld", block);
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->name_at, c->k->name_at, lb);
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->start, c->k->start, lanes == 32 ? helpers : group_helpers);
	if (rc == KA_OK && lanes == 32 && w.used_arg)
		rc = ka_recipe_edit(&ed, c->k->start, c->k->start, arg_helpers);
	if (rc == KA_OK)
		rc = rowwarp_relaunch_apply(c, &ed, rows, rows2, grid, bs, t, len, out);
	ka_recipe_edits_free(&ed);
	ka_recipe_kmodel_free(&doc);
	return rc;
}

/* The host side of dispatch=size, written once per file. */
static const char pick_helper[] =
	"#ifndef KA_ROWS_BY_BLOCK_DEFINED\n#define KA_ROWS_BY_BLOCK_DEFINED\n"
	"/* Size dispatch of a row reduction: 1 (a block per row) when a warp per\n"
	" * row would fill less than a quarter of the GPU's thread slots, rows * 32\n"
	" * < (SMs * threads per SM) / 4 (rows < 2112 on 132 SMs of 2048 threads):\n"
	" * too few loads in flight for the memory; 0 (a warp per row) otherwise.  The\n"
	" * current device's counts are read once; if they cannot be read, 0. */\n"
	"static int ka_rows_by_block(long long rows)\n{\n"
	"\tstatic long long ka_slots = 0;\n"
	"\tif (ka_slots <= 0) {\n"
	"\t\tint dev = 0, sms = 0, per_sm = 0;\n"
	"\t\tif (cudaGetDevice(&dev) != cudaSuccess ||\n"
	"\t\t    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||\n"
	"\t\t    cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev) != cudaSuccess ||\n"
	"\t\t    sms <= 0 || per_sm <= 0)\n"
	"\t\t\treturn 0;\n"
	"\t\tka_slots = (long long)sms * per_sm;\n"
	"\t}\n"
	"\treturn rows * 32 * 4 < ka_slots;\n}\n"
	"#endif\n\n";

/* dispatch=size: the warp-per-row kernel (block threads a block) and a
 * block-per-row copy of it named K_ka_block (rowblock threads), written
 * before it with the host's ka_rows_by_block; every launch becomes
 *     { if (ka_rows_by_block(ROWS)) K_ka_block<<<ROWS, rowblock>>>(...); else K<<<...>>>(...); }
 * Both are the plain rewrites (lanes=32, lanes=block), so every reduction
 * either knows combines as it does there, and a later vectorize takes
 * each kernel as it takes those. */
static int dispatch_merge(ka_recipe_ctx *c, const ka_buf *ap, const ka_buf *bp, ka_buf *out);
static int rowwarp_to_block(ka_recipe_ctx *c, ka_buf *out, long rowblock);

static int rowwarp_dispatch(ka_recipe_ctx *c, ka_buf *out, long block, long rowblock)
{
	char bname[KA_CSRC_NAME + 16];
	snprintf(bname, sizeof bname, "%s_ka_block", c->k->name);
	if (ka_csrc_has_word(c->m->text, 0, c->m->len, bname))
		return ka_recipe_decline(c, "the file already names %s", bname);
	ka_buf a, b;
	ka_buf_init(&a, 64 << 20);
	ka_buf_init(&b, 64 << 20);
	int rc;
	if (ka_csrc_has_word(c->m->text, c->k->body_open, c->k->body_close, "ka_lane")) {
		/* already warp-per-row's (vectorized or not): it stays the warp
		 * schedule, its block-per-row twin is derived from it */
		rc = ka_buf_add(&a, c->m->text, c->m->len) == KA_OK && a.data ? KA_OK : KA_ENOMEM;
		if (rc == KA_OK)
			rc = rowwarp_to_block(c, &b, rowblock);
	} else {
		rc = rowwarp_rewrite(c, &a, block, 32);
		if (rc == KA_OK)
			rc = rowwarp_rewrite(c, &b, rowblock, 0);
	}
	if (rc == KA_OK)
		rc = dispatch_merge(c, &a, &b, out);
	ka_buf_free(&a);
	ka_buf_free(&b);
	return rc;
}

/* The dispatch from a (the file with the warp-per-row kernel) and b (the
 * same file with it rewritten to a block per row, launches included):
 * b's kernel goes before the kernel as K_ka_block with the host's
 * ka_rows_by_block, and each launch of a's kernel chooses. */
static int dispatch_merge(ka_recipe_ctx *c, const ka_buf *ap, const ka_buf *bp, ka_buf *out)
{
	const char *name = c->k->name;
	size_t nlen = strlen(name), start = c->k->start;
	char bname[KA_CSRC_NAME + 16];
	snprintf(bname, sizeof bname, "%s_ka_block", name);
	const ka_buf a = *ap, b = *bp;
	int rc = KA_OK;
	ka_csrc *ma = rc == KA_OK ? calloc(2, sizeof *ma) : NULL, *mb = ma ? ma + 1 : NULL;
	if (rc == KA_OK && !ma)
		rc = KA_ENOMEM;
	if (rc == KA_OK &&
	    (ka_csrc_scan(ma, a.data, a.len) != KA_OK || ka_csrc_scan(mb, b.data, b.len) != KA_OK))
		rc = ka_recipe_decline(c, "cannot model the rewritten file");
	const ka_csrc_kernel *kb = rc == KA_OK ? ka_csrc_kernel_find(mb, name) : NULL;
	/* the text before the kernel is the same in both rewrites and the original */
	if (rc == KA_OK && (!kb || !ka_csrc_kernel_find(ma, name) || a.len < start || b.len < start ||
			    memcmp(a.data, c->m->text, start) || memcmp(b.data, c->m->text, start)))
		rc = ka_recipe_decline(c, "the rewrites differ before the kernel");
	ka_recipe_edits ed = {0};
	ka_buf ins;
	ka_buf_init(&ins, 1 << 20);
	if (rc == KA_OK) { /* the helper and the block-per-row copy, before the kernel */
		ka_buf_adds(&ins, pick_helper);
		ka_buf_add(&ins, b.data + start, kb->name_at - start);
		ka_buf_adds(&ins, bname);
		ka_buf_add(&ins, b.data + kb->name_at + nlen, kb->body_close + 1 - kb->name_at - nlen);
		ka_buf_adds(&ins, "\n\n");
		rc = ins.data ? ka_recipe_edit(&ed, start, start, ins.data) : KA_ENOMEM;
	}
	/* the launches, paired in file order */
	int ia = 0, ib = 0, nl = 0;
	while (rc == KA_OK) {
		while (ia < ma->nlaunches && strcmp(ma->l[ia].kernel, name))
			ia++;
		while (ib < mb->nlaunches && strcmp(mb->l[ib].kernel, name))
			ib++;
		if (ia == ma->nlaunches || ib == mb->nlaunches) {
			if (ia != ma->nlaunches || ib != mb->nlaunches || !nl)
				rc = ka_recipe_decline(c, "cannot pair the launches of the two rewrites");
			break;
		}
		const ka_csrc_launch *la = &ma->l[ia++], *lb = &mb->l[ib++];
		size_t semi = ka_csrc_skip_blank(a.data, a.len, la->end);
		if (la->start < start || semi >= a.len || a.data[semi] != ';') {
			rc = ka_recipe_decline(c, "a launch of %s is not a statement after the kernel", name);
			break;
		}
		ka_buf st;
		ka_buf_init(&st, 1 << 16);
		ka_buf_printf(&st, "{\n\t\tif (ka_rows_by_block((long long)(%.*s)))\n\t\t\t%s",
			      (int)(lb->cfg[0].e - lb->cfg[0].s), b.data + lb->cfg[0].s, bname);
		ka_buf_add(&st, b.data + lb->start + nlen, lb->end - lb->start - nlen);
		ka_buf_adds(&st, ";\n\t\telse\n\t\t\t");
		ka_buf_add(&st, a.data + la->start, la->end - la->start);
		ka_buf_adds(&st, ";\n\t}");
		rc = st.data ? ka_recipe_edit(&ed, la->start, semi + 1, st.data) : KA_ENOMEM;
		ka_buf_free(&st);
		nl++;
	}
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, a.data, a.len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&ins);
	free(ma);
	return rc;
}

/* [p, p + n) of t is the identifier word, whole */
static int word_at(const char *t, size_t len, size_t p, const char *word)
{
	size_t n = strlen(word);
	return p + n <= len && !memcmp(t + p, word, n) && (p == 0 || !is_ident(t[p - 1])) &&
	       (p + n == len || !is_ident(t[p + n]));
}

/* The offset of the last non-blank byte before i (i itself when none). */
static size_t back_blank(const char *t, size_t lo, size_t i)
{
	while (i > lo && isspace((unsigned char)t[i - 1]))
		i--;
	return i;
}

#define MAX_LANE_STMTS 64

/* dispatch=size on a kernel warp-per-row already wrote (lanes=32, not a
 * grid-stride row loop), vectorized or not: its block-per-row twin, the
 * rewrite lanes=block makes, derived from it.  What it proves (else it
 * declines): the row is `const T R = (blockIdx.x * (long long)blockDim.x +
 * threadIdx.x) / 32;` and the lane `const int ka_lane = threadIdx.x & 31;`,
 * the only thread and block ids of the body; the row guard bounds R by a
 * parameter or a product of two; every other use of ka_lane is either the
 * start of a loop `for (T v = ..ka_lane..; C; v += 32)` (C free of it), a
 * lane-strided walk of the row, or the test of `if (ka_lane == 0) S`; the
 * warp reductions (ka_warp_sum, _max, _min, the arg pairs) are outside
 * those loops and tests, so every thread of a block reaches each of them
 * (the row, and so every other branch, is the block's); no shared memory,
 * barrier, shuffle or ballot of its own.  The twin: R = blockIdx.x, ka_lane
 * = threadIdx.x, each lane loop steps by blockDim.x, each warp reduction
 * is the block's (group_helpers), `__launch_bounds__(rowblock)`, and every
 * launch a block of rowblock threads per row. */
static int rowwarp_to_block(ka_recipe_ctx *c, ka_buf *out, long rowblock)
{
	const char *t = c->m->text;
	size_t len = c->m->len, open = c->k->body_open, close = c->k->body_close;
	static const char *const banned[] = {"__shared__", "__syncthreads", "__syncwarp", "extern",
					     "gridDim",    "ka_mask",       NULL};
	for (const char *const *b = banned; *b; b++)
		if (ka_csrc_has_word(t, open, close, *b))
			return ka_recipe_decline(c, "the warp-per-row kernel uses %s", *b);
	static const char *const calls[] = {"__shfl",     "__ballot", "__any_sync",
					    "__all_sync", "__match",  NULL};
	for (const char *const *b = calls; *b; b++) {
		const char *at = strstr(t + open, *b);
		if (at && (size_t)(at - t) < close)
			return ka_recipe_decline(c, "the warp-per-row kernel calls %s itself", *b);
	}
	static const char row_init[] = "=(blockIdx.x*(long long)blockDim.x+threadIdx.x)/32;";
	char sq[1024], row[64] = "", rows[KA_CSRC_NAME] = "", rows2[KA_CSRC_NAME] = "";
	ka_recipe_edits ed = {0};
	int rc = KA_OK, have_lane = 0;
	/* the lane loops (statement, header's init), the lane-0 tests, the lane's declaration */
	size_t loops[MAX_LANE_STMTS][4], tests[MAX_LANE_STMTS][2], lane_s = 0, lane_e = 0;
	int nloops = 0, ntests = 0;
	/* the top-level statements: the row, the lane, the guard */
	for (size_t i = ka_csrc_skip_blank(t, close, open + 1); rc == KA_OK && i < close;
	     i = ka_csrc_skip_blank(t, close, i)) {
		size_t se = ka_csrc_stmt_end(t, close, i);
		if (se == NPOS) {
			rc = ka_recipe_decline(c, "cannot split the kernel body");
			break;
		}
		size_t n = ka_csrc_squeeze(t, i, se, sq, sizeof sq) ? strlen(sq) : 0;
		size_t rl = sizeof row_init - 1;
		if (!row[0] && n > rl + 5 && !strncmp(sq, "const", 5) && !strcmp(sq + n - rl, row_init)) {
			size_t eq = i;
			while (eq < se && t[eq] != '=')
				eq++;
			size_t ne = back_blank(t, i, eq), nb = ne;
			while (nb > i && is_ident(t[nb - 1]))
				nb--;
			snprintf(row, sizeof row, "%.*s", (int)(ne - nb), t + nb);
			size_t semi = se;
			while (semi > eq && t[semi - 1] != ';')
				semi--;
			rc = ka_recipe_edit(&ed, eq + 1, semi - 1, " blockIdx.x");
		} else if (!have_lane && !strcmp(sq, "const int ka_lane=threadIdx.x&31;")) {
			size_t eq = i;
			while (eq < se && t[eq] != '=')
				eq++;
			size_t semi = se;
			while (semi > eq && t[semi - 1] != ';')
				semi--;
			have_lane = 1;
			lane_s = i;
			lane_e = se;
			rc = ka_recipe_edit(&ed, eq + 1, semi - 1, " threadIdx.x");
		} else if (row[0] && !rows[0] && !strncmp(sq, "if(", 3) &&
			   !strncmp(sq + 3, row, strlen(row)) && !is_ident(sq[3 + strlen(row)])) {
			/* if (R >= N) return;  or  if (R < N) {...} */
			const char *op = sq + 3 + strlen(row);
			int ret = !strncmp(op, ">=", 2), blk = op[0] == '<' && op[1] != '=';
			size_t po = i + 2;
			while (po < se && t[po] != '(')
				po++;
			size_t pc = ka_csrc_match(t, close, po);
			char cond[256], rest[16], *bound;
			if ((!ret && !blk) || pc == NPOS ||
			    !ka_csrc_squeeze(t, po + 1, pc, cond, sizeof cond)) {
				rc = ka_recipe_decline(c, "cannot read the row guard '%.60s'", sq);
				break;
			}
			bound = cond + strlen(row) + (ret ? 2 : 1);
			size_t bl = strlen(bound);
			if (bl > 2 && bound[0] == '(' && bound[bl - 1] == ')') {
				bound[bl - 1] = 0;
				bound++;
			}
			char *star = strchr(bound, '*');
			if (star) {
				*star = 0;
				snprintf(rows2, sizeof rows2, "%s", star + 1);
			}
			snprintf(rows, sizeof rows, "%s", bound);
			int sqok = ka_csrc_squeeze(t, pc + 1, pc + 1 + (se - pc - 1 < 15 ? se - pc - 1 : 15),
						   rest, sizeof rest);
			if (ka_csrc_param_index(c->k, rows) < 0 ||
			    (star && ka_csrc_param_index(c->k, rows2) < 0))
				rc = ka_recipe_decline(
					c, "the row bound of '%.60s' is not a parameter nor a product of two",
					sq);
			else if (!sqok || (ret ? strncmp(rest, "return;", 7) : rest[0] != '{'))
				rc = ka_recipe_decline(c, "cannot read the row guard '%.60s'", sq);
		}
		i = se;
	}
	if (rc == KA_OK && (!row[0] || !have_lane))
		rc = ka_recipe_decline(c, "not warp-per-row's kernel (its row and lane declarations)");
	if (rc == KA_OK && !rows[0])
		rc = ka_recipe_decline(c, "no row guard on %s", row);
	if (rc == KA_OK && (ka_csrc_count_word(t, open, close, "threadIdx") != 2 ||
			    ka_csrc_count_word(t, open, close, "blockIdx") != 1 ||
			    ka_csrc_count_word(t, open, close, "blockDim") != 1))
		rc = ka_recipe_decline(c, "the warp-per-row kernel reads thread or block ids elsewhere");
	/* the lane loops: for (T v = ..ka_lane..; C; v += 32) */
	size_t at = open;
	while (rc == KA_OK && (at = ka_csrc_find_word_pp(t, at, close, "for")) != NPOS) {
		size_t po = ka_csrc_skip_blank(t, close, at + 3),
		       pc = po < close && t[po] == '(' ? ka_csrc_match(t, close, po) : NPOS;
		size_t s1 = NPOS, s2 = NPOS;
		int depth = 0;
		for (size_t q = po + 1; pc != NPOS && q < pc; q++) {
			depth += t[q] == '(' || t[q] == '[' ? 1 : t[q] == ')' || t[q] == ']' ? -1 : 0;
			if (!depth && t[q] == ';')
				s1 == NPOS ? (void)(s1 = q) : (void)(s2 = q);
		}
		if (pc == NPOS || s2 == NPOS) {
			rc = ka_recipe_decline(c, "cannot read a loop header");
			break;
		}
		if (ka_csrc_has_word(t, po + 1, s1, "ka_lane")) {
			size_t eq = po + 1;
			while (eq < s1 && t[eq] != '=')
				eq++;
			size_t ne = back_blank(t, po + 1, eq), nb = ne;
			while (nb > po + 1 && is_ident(t[nb - 1]))
				nb--;
			char var[64], step[160], want[80];
			snprintf(var, sizeof var, "%.*s", (int)(ne - nb), t + nb);
			snprintf(want, sizeof want, "%s+=32", var);
			size_t se = ka_csrc_stmt_end(t, close, at);
			if (eq == s1 || ka_csrc_count_word(t, po + 1, s1, "ka_lane") != 1 ||
			    ka_csrc_has_word(t, s1, pc, "ka_lane") ||
			    !ka_csrc_squeeze(t, s2 + 1, pc, step, sizeof step) || strcmp(step, want) ||
			    se == NPOS || nloops == MAX_LANE_STMTS) {
				rc = ka_recipe_decline(
					c,
					"a loop over the lanes that is not `for (v = ..ka_lane..; C; v += 32)`");
				break;
			}
			char nstep[96];
			snprintf(nstep, sizeof nstep, " %s += blockDim.x", var);
			rc = ka_recipe_edit(&ed, s2 + 1, pc, nstep);
			loops[nloops][0] = at;
			loops[nloops][1] = se;
			loops[nloops][2] = po + 1;
			loops[nloops++][3] = s1;
		}
		at = pc;
	}
	/* every other ka_lane: if (ka_lane == 0) */
	at = open;
	while (rc == KA_OK && (at = ka_csrc_find_word_pp(t, at, close, "ka_lane")) != NPOS) {
		size_t here = at;
		at += 7;
		int seen = here >= lane_s && here < lane_e;
		for (int k = 0; k < nloops; k++)
			seen |= here >= loops[k][2] && here < loops[k][3];
		if (seen) /* the declaration's, or a lane loop's start */
			continue;
		size_t b = back_blank(t, open, here), q = ka_csrc_skip_blank(t, close, here + 7);
		size_t ib = b > open ? back_blank(t, open, b - 1) : b;
		int test = b > open && t[b - 1] == '(' && ib >= open + 2 && word_at(t, len, ib - 2, "if") &&
			   q + 1 < close && t[q] == '=' && t[q + 1] == '=';
		if (test) {
			q = ka_csrc_skip_blank(t, close, q + 2);
			test = q < close && t[q] == '0' && !is_ident(t[q + 1]);
			q = ka_csrc_skip_blank(t, close, q + 1);
			test = test && q < close && t[q] == ')';
		}
		size_t se = test ? ka_csrc_stmt_end(t, close, ib - 2) : NPOS;
		if (!test || se == NPOS || ntests == MAX_LANE_STMTS) {
			rc = ka_recipe_decline(
				c, "ka_lane is used other than to walk the row or to test for lane 0");
			break;
		}
		tests[ntests][0] = ib - 2;
		tests[ntests++][1] = se;
	}
	/* the warp reductions, each the block's */
	static const char *const reds[] = {"sum",         "max",          "min",         "argmax_first",
					   "argmax_last", "argmin_first", "argmin_last", NULL};
	for (const char *p = strstr(t + open, "ka_warp_"); rc == KA_OK && p && (size_t)(p - t) < close;
	     p = strstr(p + 8, "ka_warp_")) {
		size_t o = (size_t)(p - t);
		int known = 0;
		for (const char *const *r = reds; *r && !known; r++)
			known = !strncmp(p + 8, *r, strlen(*r)) && !is_ident(p[8 + strlen(*r)]);
		int inside = 0;
		for (int k = 0; k < nloops; k++)
			inside |= o > loops[k][0] && o < loops[k][1];
		for (int k = 0; k < ntests; k++)
			inside |= o > tests[k][0] && o < tests[k][1];
		if (!known || inside || (o > 0 && is_ident(t[o - 1])))
			rc = ka_recipe_decline(c, "a warp reduction '%.40s' the block cannot take", p);
		else
			rc = ka_recipe_edit(&ed, o, o + 8, "ka_block_");
	}
	char lb[64], grid[64], bs[32];
	snprintf(lb, sizeof lb, "__launch_bounds__(%ld) ", rowblock);
	snprintf(grid, sizeof grid, "(unsigned)(%s)", rows2[0] ? "@N * @B" : "@N");
	snprintf(bs, sizeof bs, "%ld", rowblock);
	if (rc == KA_OK)
		rc = ka_recipe_drop_launch_bounds(c, &ed);
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->name_at, c->k->name_at, lb);
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->start, c->k->start, group_helpers);
	if (rc == KA_OK)
		rc = rowwarp_relaunch_apply(c, &ed, rows, rows2, grid, bs, t, len, out);
	ka_recipe_edits_free(&ed);
	return rc;
}

static int rowwarp_apply(ka_recipe_ctx *c, ka_buf *out)
{
	long block = ka_recipe_param(c->params, "block", 256);
	/* lanes per row: 32 (a warp), fewer for short rows, or the block for long ones */
	int lanes = c->params && strstr(c->params, "lanes=block")
			    ? 0
			    : (int)ka_recipe_param(c->params, "lanes", 32);
	const char *d = c->params ? strstr(c->params, "dispatch=") : NULL;
	int dispatch = d && !strncmp(d + 9, "size", 4) && (!d[13] || d[13] == ' ');
	long rowblock = ka_recipe_param(c->params, "rowblock", block);
	if (block < 32 || block > 1024 || block % 32 ||
	    (lanes && (lanes < 2 || lanes > 32 || (lanes & (lanes - 1)))) || (d && !dispatch) ||
	    (dispatch && (lanes != 32 || rowblock < 32 || rowblock > 1024 || rowblock % 32)))
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	return dispatch ? rowwarp_dispatch(c, out, block, rowblock) : rowwarp_rewrite(c, out, block, lanes);
}

static const char *const rowwarp_grid[] = {"block=256",
					   "block=256 dispatch=size",
					   "block=512 lanes=block",
					   "block=256 lanes=8",
					   "block=128",
					   "block=512",
					   "block=256 lanes=16",
					   "block=1024 lanes=block",
					   "block=256 dispatch=size rowblock=512",
					   NULL};

const ka_recipe ka_recipe_warp_per_row = {
	.name = "warp-per-row",
	.summary =
		"thread per row -> warp per row: lane-strided column loops, shuffle reductions, lane-0 stores",
	.rules = "gmem-uncoalesced-access gmem-row-index-from-threadidx-x gmem-uncoalesced-assumed-block",
	.grid = rowwarp_grid,
	.apply = rowwarp_apply,
};
