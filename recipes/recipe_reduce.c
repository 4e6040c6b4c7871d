/* recipes/recipe_reduce.c: the seq-reduction recipe (rule
 * div-interleaved-reduction).  A block's shared-memory tree in
 * interleaved addressing,
 *     for (unsigned s = 1; s < blockDim.x; s *= 2) {
 *         if (tid % (2 * s) == 0) sh[tid] += sh[tid + s];   (or: i = 2 * s * tid;
 *         __syncthreads();                                        if (i < B) sh[i] += sh[i + s];)
 *     }
 * keeps every warp busy with a few useful lanes to the last step (or, in
 * the index variant, strides the shared accesses by 2s words).  The recipe
 * rewrites it into sequential addressing, `if (tid < s) sh[tid] +=
 * sh[tid + s]` for s = B/2 down to 64, and hands the last 64 values to
 * warp 0, which adds them with __shfl_down_sync; thread 0 stores the total
 * in sh[0], where the rest of the kernel reads it (a barrier follows unless
 * only thread 0 reads it).  The order of the additions changes: a float
 * sum is not bit-identical, which is why the bench decides.
 *
 * A loop already in sequential addressing (`for (s = B/2; s > 0; s >>= 1)
 * if (tid < s) ...`) gets the same rewrite: its last five steps become
 * shuffles that pair the same elements, so the result is the same bytes.
 *
 * What it proves first (else it declines, saying which): the loop is a
 * top-level statement of the kernel, its body the if and a barrier; the
 * array is a __shared__ array of the kernel of an arithmetic type; tid is
 * threadIdx.x or a local copy never assigned again; the tree's width B is
 * a power of two from 64 to 1024, known from a literal (the loop's bound)
 * or from the block of every launch in the file, and no larger than the
 * array; no return before the loop (the shuffles need warp 0 whole);
 * after the loop the kernel reads the array only as sh[0] and never
 * writes it.  One tree per kernel: a second one over the same array
 * would write it after the first. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)

enum { TREE_MODULO = 1, TREE_INDEX, TREE_SEQUENTIAL };

typedef struct tree {
	ka_recipe_ctx *c;
	int form;
	char s[64], stype[64]; /* the stride variable and its declared type */
	char bound[64];        /* B as the loop writes it: a literal or blockDim.x */
	char sh[64], elem[32]; /* the shared array and its element type */
	char tid[64];          /* threadIdx.x or its local copy */
	long width, sh_size;   /* B once proven; the array's literal size (0: not literal) */
	int lead;              /* the body is `__syncthreads(); if (...) ...;`: a barrier before each step */
	/* the width known only at run time (width 0): blockDim.x, or an integer
	 * parameter of the kernel; the rewrite runs when it is a power of two
	 * from 64 to 1024 (and, a parameter, no more than blockDim.x), the loop
	 * as written otherwise */
	char dyn[64];
	size_t loop_s, loop_e; /* the loop statement */
	size_t body_s, body_e; /* the kernel body, inside its braces */
} tree;

static int is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* A decimal literal with nothing after it (a U suffix allowed). */
static int literal(const char *s, long *v)
{
	char *end;
	if (!isdigit((unsigned char)s[0]))
		return 0;
	*v = strtol(s, &end, 10);
	if (*end == 'u' || *end == 'U')
		end++;
	return *end == 0;
}

/* The next statement of [*at, end): its range, squeezed into sq. */
static int next_stmt(const char *t, size_t end, size_t *at, size_t *s, size_t *e, char *sq, size_t cap)
{
	*s = ka_csrc_skip_blank(t, end, *at);
	if (*s >= end)
		return 0;
	*e = ka_csrc_stmt_end(t, end, *s);
	if (*e == NPOS || *e > end || !ka_csrc_squeeze(t, *s, *e, sq, cap))
		return 0;
	*at = *e;
	return 1;
}

/* 1 when the squeezed text assigns or steps the whole word `name`. */
static int assigns(const char *sq, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strstr(sq, name); p; p = strstr(p + 1, name)) {
		if ((p > sq && (is_ident(p[-1]) || p[-1] == '.')) || is_ident(p[n]))
			continue;
		const char *q = p + n;
		if ((q[0] == '=' && q[1] != '=') || !strncmp(q, "++", 2) || !strncmp(q, "--", 2) ||
		    (p >= sq + 2 && (!strncmp(p - 2, "++", 2) || !strncmp(p - 2, "--", 2))))
			return 1;
		if (q[0] && strchr("+-*/%&|^", q[0]) && q[1] == '=')
			return 1;
		if ((!strncmp(q, "<<", 2) || !strncmp(q, ">>", 2)) && q[2] == '=')
			return 1;
	}
	return 0;
}

/* `[extern] __shared__ T NAME[SIZE];`: 1 when it declares tr->sh (its
 * element type and literal size noted), -1 when of a type shuffles do not
 * take, 0 when it declares something else. */
static int read_shared(tree *tr, const char *sq)
{
	static const char *const types[] = {
		"float", "double", "int", "unsigned int", "unsigned", "long long", "unsigned long long"};
	const char *p = sq, *br = strchr(sq, '[');
	size_t a = strlen(tr->sh);
	if (!strncmp(p, "extern ", 7))
		p += 7;
	if (strncmp(p, "__shared__ ", 11) || !br || br - p < (ptrdiff_t)(12 + a) ||
	    strncmp(br - a, tr->sh, a) || *(br - a - 1) != ' ')
		return 0;
	p += 11;
	size_t tl = (size_t)(br - a - 1 - p);
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strlen(types[i]) == tl && !strncmp(p, types[i], tl)) {
			char size[64];
			snprintf(tr->elem, sizeof tr->elem, "%s", types[i]);
			snprintf(size, sizeof size, "%s", br + 1);
			size_t sl = strlen(size);
			if (sl < 2 || strcmp(size + sl - 2, "];"))
				return 0; /* more than one declarator */
			size[sl - 2] = 0;
			if (!literal(size, &tr->sh_size))
				tr->sh_size = 0;
			return 1;
		}
	return -1;
}

/* The loop header `T s = INIT; COND; STEP` (squeezed, split at its
 * semicolons): the form it allows and the bound. */
static int read_header(tree *tr, const char *init, const char *cond, const char *step)
{
	ka_recipe_ctx *c = tr->c;
	const char *eq = strchr(init, '=');
	size_t vb = eq ? (size_t)(eq - init) : 0;
	while (vb > 0 && is_ident(init[vb - 1]))
		vb--;
	if (!eq || vb < 2 || init[vb - 1] != ' ' || (size_t)(eq - init) - vb >= sizeof tr->s)
		return ka_recipe_decline(c, "the tree loop does not declare its stride ('%s')", init);
	snprintf(tr->s, sizeof tr->s, "%.*s", (int)((size_t)(eq - init) - vb), init + vb);
	snprintf(tr->stype, sizeof tr->stype, "%.*s", (int)(vb - 1), init);
	const char *s = tr->s, *v = eq + 1;
	size_t n = strlen(s);
	char w[5][160];
	if (!strcmp(v, "1")) {
		snprintf(w[0], sizeof w[0], "%s*=2", s);
		snprintf(w[1], sizeof w[1], "%s<<=1", s);
		snprintf(w[2], sizeof w[2], "%s=%s*2", s, s);
		snprintf(w[3], sizeof w[3], "%s=2*%s", s, s);
		snprintf(w[4], sizeof w[4], "%s+=%s", s, s);
		int ok = 0;
		for (int i = 0; i < 5; i++)
			ok |= !strcmp(step, w[i]);
		if (!ok || strncmp(cond, s, n) || cond[n] != '<' || cond[n + 1] == '=')
			return ka_recipe_decline(
				c, "the loop 'for (...; %s; %s)' is not a doubling stride below B", cond,
				step);
		snprintf(tr->bound, sizeof tr->bound, "%s", cond + n + 1);
		tr->form = TREE_MODULO; /* or TREE_INDEX, told by the body */
		return KA_OK;
	}
	char h[4][160], z[2][160];
	snprintf(h[0], sizeof h[0], "%s>>=1", s);
	snprintf(h[1], sizeof h[1], "%s/=2", s);
	snprintf(h[2], sizeof h[2], "%s=%s/2", s, s);
	snprintf(h[3], sizeof h[3], "%s=%s>>1", s, s);
	snprintf(z[0], sizeof z[0], "%s>0", s);
	snprintf(z[1], sizeof z[1], "%s>=1", s);
	int ok = 0;
	for (int i = 0; i < 4; i++)
		ok |= !strcmp(step, h[i]);
	if (!ok || (strcmp(cond, z[0]) && strcmp(cond, z[1])))
		return ka_recipe_decline(
			c, "the loop 'for (%s; %s; %s)' is neither a doubling nor a halving stride", init,
			cond, step);
	long half;
	size_t vl = strlen(v);
	if (literal(v, &half)) {
		snprintf(tr->bound, sizeof tr->bound, "%ld", half * 2);
	} else if (vl > 2 && (!strcmp(v + vl - 2, "/2") || (vl > 3 && !strcmp(v + vl - 3, ">>1")))) {
		snprintf(tr->bound, sizeof tr->bound, "%.*s", (int)(vl - (v[vl - 2] == '/' ? 2 : 3)), v);
	} else {
		return ka_recipe_decline(c, "the halving stride starts at '%s', not B / 2", v);
	}
	tr->form = TREE_SEQUENTIAL;
	return KA_OK;
}

/* `if(COND)SH[A]+=SH[A+s];` (braces allowed): cond, SH and A. */
static int read_add(tree *tr, const char *sq, char *cond, size_t ccap, char *a, size_t acap)
{
	size_t len = strlen(sq), close = strncmp(sq, "if(", 3) ? NPOS : ka_csrc_match(sq, len, 2);
	if (close == NPOS || close - 3 >= ccap || strstr(sq, "else"))
		return 0;
	snprintf(cond, ccap, "%.*s", (int)(close - 3), sq + 3);
	char add[512];
	snprintf(add, sizeof add, "%s", sq + close + 1);
	size_t al = strlen(add);
	if (add[0] == '{' && al > 2 && add[al - 1] == '}') {
		memmove(add, add + 1, al - 2);
		add[al - 2] = 0;
	}
	size_t nl = 0;
	while (is_ident(add[nl]))
		nl++;
	if (!nl || nl >= sizeof tr->sh || add[nl] != '[')
		return 0;
	size_t rb = ka_csrc_match(add, strlen(add), nl);
	if (rb == NPOS || rb - nl - 1 >= acap)
		return 0;
	snprintf(tr->sh, sizeof tr->sh, "%.*s", (int)nl, add);
	snprintf(a, acap, "%.*s", (int)(rb - nl - 1), add + nl + 1);
	char w1[512], w2[512];
	snprintf(w1, sizeof w1, "%s[%s]+=%s[%s+%s];", tr->sh, a, tr->sh, a, tr->s);
	snprintf(w2, sizeof w2, "%s[%s]=%s[%s]+%s[%s+%s];", tr->sh, a, tr->sh, a, tr->sh, a, tr->s);
	return !strcmp(add, w1) || !strcmp(add, w2);
}

/* `T I=2*s*TID;` in any order of the three factors: TID. */
static int read_index_decl(tree *tr, const char *sq, const char *index, char *tid, size_t cap)
{
	char want[128];
	snprintf(want, sizeof want, " %s=", index);
	const char *p = strstr(sq, want);
	if (!p || p == sq)
		return 0;
	char rhs[256], *f[4];
	snprintf(rhs, sizeof rhs, "%s", p + strlen(want));
	size_t rl = strlen(rhs);
	if (!rl || rhs[rl - 1] != ';')
		return 0;
	rhs[rl - 1] = 0;
	int n = 0;
	for (char *q = strtok(rhs, "*"); q && n < 4; q = strtok(NULL, "*"))
		f[n++] = q;
	int two = -1, s = -1;
	for (int i = 0; i < n; i++) {
		if (two < 0 && !strcmp(f[i], "2"))
			two = i;
		else if (s < 0 && !strcmp(f[i], tr->s))
			s = i;
	}
	if (n != 3 || two < 0 || s < 0)
		return 0;
	snprintf(tid, cap, "%s", f[3 - two - s]);
	return 1;
}

/* The loop's body: the if (after the index declaration, in that variant)
 * and a barrier; then the test must be the form's. */
static int read_body(tree *tr, size_t bs, size_t be)
{
	ka_recipe_ctx *c = tr->c;
	const char *t = c->m->text;
	char st[3][512], cond[256], a[64], w[8][256];
	size_t at = bs + 1, s, e;
	int n = 0;
	if (t[bs] != '{')
		return ka_recipe_decline(c, "the tree loop's body is not a block with a barrier");
	while (n < 3 && next_stmt(t, be, &at, &s, &e, st[n], sizeof st[n]))
		n++;
	/* the barrier first, `{ __syncthreads(); if (tid < s) sh[tid] += sh[tid + s]; }`: the
	 * same steps, each after a barrier; the rewrite keeps the first one before its tree
	 * (the later ones end its steps) */
	tr->lead = 0;
	if (n == 2 && ka_csrc_skip_blank(t, be, at) == be && !strcmp(st[0], "__syncthreads();") &&
	    strcmp(st[1], "__syncthreads();")) {
		memcpy(st[0], st[1], sizeof st[0]);
		snprintf(st[1], sizeof st[1], "%s", "__syncthreads();");
		tr->lead = 1;
	}
	if (ka_csrc_skip_blank(t, be, at) != be || n < 2 || strcmp(st[n - 1], "__syncthreads();"))
		return ka_recipe_decline(c,
					 "the tree loop's body is not `if (...) sh[i] += sh[i + %s]; "
					 "__syncthreads();`",
					 tr->s);
	if (!read_add(tr, st[n - 2], cond, sizeof cond, a, sizeof a))
		return ka_recipe_decline(c, "'%.80s' does not add sh[i + %s] into sh[i]", st[n - 2], tr->s);
	const char *s1 = tr->s;
	if (n == 3) {
		if (tr->form != TREE_MODULO || !read_index_decl(tr, st[0], a, tr->tid, sizeof tr->tid))
			return ka_recipe_decline(c, "'%.80s' is not the index 2 * %s * tid", st[0], s1);
		snprintf(w[0], sizeof w[0], "%s<%s", a, tr->bound);
		snprintf(w[1], sizeof w[1], "%s+%s<%s", a, s1, tr->bound);
		if (strcmp(cond, w[0]) && strcmp(cond, w[1]))
			return ka_recipe_decline(c, "the test '%s' is not %s < %s", cond, a, tr->bound);
		tr->form = TREE_INDEX;
		return KA_OK;
	}
	snprintf(tr->tid, sizeof tr->tid, "%s", a);
	if (tr->form == TREE_SEQUENTIAL) {
		/* an integer cast of the index, as in (int)threadIdx.x < s, is
		 * the same test: the index is below 2^31 and s is positive */
		static const char *const casts[] = {"(int)",  "(unsigned)",  "(unsigned int)",
						    "(long)", "(long long)", "(size_t)"};
		char bare[256];
		snprintf(bare, sizeof bare, "%s", cond);
		for (size_t i = 0; i < sizeof casts / sizeof casts[0]; i++) {
			size_t cl = strlen(casts[i]);
			char *p = strstr(bare, casts[i]);
			if (p && !strncmp(p + cl, a, strlen(a)) && !is_ident(p[cl + strlen(a)]) &&
			    p[cl + strlen(a)] != '.') {
				memmove(p, p + cl, strlen(p + cl) + 1);
				break;
			}
		}
		snprintf(w[0], sizeof w[0], "%s<%s", a, s1);
		snprintf(w[1], sizeof w[1], "%s>%s", s1, a);
		if (strcmp(bare, w[0]) && strcmp(bare, w[1]))
			return ka_recipe_decline(c, "the test '%s' of the halving loop is not %s < %s", cond,
						 a, s1);
		return KA_OK;
	}
	static const char *const forms[] = {"%s%%(2*%s)==0",   "%s%%(%s*2)==0", "(%s%%(2*%s))==0",
					    "(%s%%(%s*2))==0", "!(%s%%(2*%s))", "(%s&(2*%s-1))==0"};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		snprintf(w[i], sizeof w[i], forms[i], a, s1);
		if (!strcmp(cond, w[i]))
			return KA_OK;
	}
	return ka_recipe_decline(c, "the test '%s' is not %s %% (2 * %s) == 0", cond, a, s1);
}

/* tid is threadIdx.x, or a top-level `T tid = threadIdx.x;` before the
 * loop that nothing assigns afterwards. */
static int prove_tid(tree *tr)
{
	ka_recipe_ctx *c = tr->c;
	const char *t = c->m->text;
	if (!strcmp(tr->tid, "threadIdx.x"))
		return KA_OK;
	char sq[1024], want[128];
	size_t at = tr->body_s, s, e;
	snprintf(want, sizeof want, " %s=threadIdx.x;", tr->tid);
	while (at < tr->loop_s && next_stmt(t, tr->loop_s, &at, &s, &e, sq, sizeof sq)) {
		size_t sl = strlen(sq), wl = strlen(want);
		if (sl <= wl || strcmp(sq + sl - wl, want) || strchr(sq, ',') || strchr(sq, '('))
			continue;
		/* the rest of the body must not assign it */
		static char rest[65536];
		if (!ka_csrc_squeeze(t, e, tr->body_e, rest, sizeof rest))
			return ka_recipe_decline(c, "the kernel is too long to read");
		if (assigns(rest, tr->tid))
			return ka_recipe_decline(c, "%s is assigned after `%s`", tr->tid, sq);
		return KA_OK;
	}
	return ka_recipe_decline(c, "%s is not threadIdx.x (no `T %s = threadIdx.x;` before the loop)",
				 tr->tid, tr->tid);
}

/* The block of a launch, when it is a constant (`256`, `dim3(256, 1, 1)`,
 * a `#define BS 256` or a `const int bs = 256;` the launch reads; a const
 * variable of any scope through the kernel model). */
static int launch_block(ka_recipe_ctx *c, const ka_csrc_launch *l, long *v)
{
	const ka_csrc *m = c->m;
	char sq[128];
	if (!ka_csrc_squeeze(m->text, l->cfg[1].s, l->cfg[1].e, sq, sizeof sq))
		return 0;
	if (literal(sq, v) || ka_recipe_const_var(c, l->start, sq, v))
		return 1;
	if (ka_recipe_model_const_block(c, l, v))
		return 1;
	size_t n = strlen(sq);
	if (strncmp(sq, "dim3(", 5) || n < 7 || sq[n - 1] != ')')
		return 0;
	sq[n - 1] = 0;
	const char *p = sq + 5;
	size_t k = strcspn(p, ",");
	char x[64];
	snprintf(x, sizeof x, "%.*s", (int)k, p);
	return (literal(x, v) || ka_recipe_const_var(c, l->start, x, v)) &&
	       (!p[k] || !strcmp(p + k, ",1") || !strcmp(p + k, ",1,1"));
}

static const char *t_of(const ka_recipe_ctx *c)
{
	return c->m->text;
}

/* 1 when the squeezed parameter type is an integer type (const allowed). */
static int int_type(const char *type)
{
	static const char *const ints[] = {
		"int",       "unsigned",           "unsigned int", "long",    "unsigned long",
		"long long", "unsigned long long", "size_t",       "int64_t", "uint32_t",
		"int32_t",   "uint64_t",           "short",        NULL};
	if (!strncmp(type, "const ", 6))
		type += 6;
	char ty[160];
	snprintf(ty, sizeof ty, "%s", type);
	size_t n = strlen(ty);
	if (n > 6 && !strcmp(ty + n - 6, " const"))
		ty[n - 6] = 0;
	for (const char *const *p = ints; *p; p++)
		if (!strcmp(ty, *p))
			return 1;
	return 0;
}

/* B: the loop's literal, or the one literal block of every launch; or,
 * when a launch's block is not a constant or B is an integer parameter, B
 * at run time (tr->dyn). */
static int prove_width(tree *tr)
{
	ka_recipe_ctx *c = tr->c;
	const ka_csrc *m = c->m;
	long lit = 0, blk;
	int from_loop = literal(tr->bound, &lit) || ka_recipe_const_var(c, c->k->body_open, tr->bound, &lit),
	    launches = 0;
	tr->dyn[0] = 0;
	if (!from_loop && strcmp(tr->bound, "blockDim.x")) {
		/* an integer parameter the kernel never assigns: checked at run time */
		int pi = ka_csrc_param_index(c->k, tr->bound);
		static char body[65536];
		int ok = pi >= 0 && !c->k->params[pi].is_pointer && int_type(c->k->params[pi].type);
		size_t from = c->k->body_open; /* where an assignment would change it */
		if (pi < 0 && !ok) {           /* or a local copy of blockDim.x: `int bs = blockDim.x;` */
			char sq[256], want[128];
			size_t at = tr->body_s, s0, e0 = 0;
			snprintf(want, sizeof want, " %s=blockDim.x;", tr->bound);
			while (!ok && at < tr->loop_s &&
			       next_stmt(t_of(c), tr->loop_s, &at, &s0, &e0, sq, sizeof sq)) {
				size_t sl = strlen(sq), wl = strlen(want);
				if (sl > wl && !strcmp(sq + sl - wl, want)) {
					sq[sl - wl] = 0;
					ok = int_type(sq);
					from = e0;
				}
			}
		}
		if (!ok || !ka_csrc_squeeze(t_of(c), from, c->k->body_close + 1, body, sizeof body) ||
		    assigns(body, tr->bound))
			return ka_recipe_decline(
				c,
				"the tree's width '%s' is neither a literal, blockDim.x, an integer parameter nor a local copy of blockDim.x",
				tr->bound);
		snprintf(tr->dyn, sizeof tr->dyn, "%s", tr->bound);
		tr->width = 0;
		return KA_OK;
	}
	if (ka_recipe_launches_known(c)) /* a launch not read could use another block */
		return KA_RECIPE_DECLINED;
	for (int i = 0; i < m->nlaunches; i++) {
		const ka_csrc_launch *l = &m->l[i];
		if (strcmp(l->kernel, c->k->name))
			continue;
		if (!launch_block(c, l, &blk)) {
			if (from_loop)
				continue;
			/* a block the caller chooses: the width is checked at run time */
			snprintf(tr->dyn, sizeof tr->dyn, "%s", "blockDim.x");
			tr->width = 0;
			return KA_OK;
		}
		if (launches++ && blk != tr->width)
			return ka_recipe_decline(c, "the launches use blocks of %ld and %ld threads",
						 tr->width, blk);
		tr->width = blk;
	}
	if (from_loop) {
		if (launches && tr->width != lit)
			return ka_recipe_decline(c, "launched with %ld threads for a tree of %ld values",
						 tr->width, lit);
		tr->width = lit;
	} else if (!launches) {
		return ka_recipe_decline(c, "blockDim.x is not provable: no launch of %s in this file",
					 c->k->name);
	}
	if (tr->width < 64 || tr->width > 1024 || (tr->width & (tr->width - 1)))
		return ka_recipe_decline(c, "a tree of %ld values (a power of two from 64 to 1024 only)",
					 tr->width);
	if (tr->sh_size && tr->sh_size < tr->width)
		return ka_recipe_decline(c, "%s holds %ld values, the tree %ld", tr->sh, tr->sh_size,
					 tr->width);
	return KA_OK;
}

/* After the loop the array is only read, as SH[0]; *barrier = 0 when only
 * thread 0 reads it (`if (tid == 0) ...` statements). */
static int check_after(tree *tr, int *barrier)
{
	ka_recipe_ctx *c = tr->c;
	const char *t = c->m->text;
	static char sq[65536];
	size_t at = tr->loop_e, s, e, n = strlen(tr->sh);
	char g1[128], g2[128], g3[64], elem0[80];
	snprintf(elem0, sizeof elem0, "%s[0]", tr->sh);
	snprintf(g1, sizeof g1, "if(%s==0)", tr->tid);
	snprintf(g2, sizeof g2, "if(0==%s)", tr->tid);
	snprintf(g3, sizeof g3, "if(threadIdx.x==0)");
	*barrier = 0;
	while (next_stmt(t, tr->body_e, &at, &s, &e, sq, sizeof sq)) {
		if (!ka_csrc_has_word(t, s, e, tr->sh))
			continue;
		for (const char *p = strstr(sq, tr->sh); p; p = strstr(p + 1, tr->sh))
			if (!(p > sq && (is_ident(p[-1]) || p[-1] == '.')) && !is_ident(p[n]) &&
			    strncmp(p + n, "[0]", 3))
				return ka_recipe_decline(
					c, "after the tree the kernel uses %s other than as %s[0]", tr->sh,
					tr->sh);
		if (assigns(sq, elem0))
			return ka_recipe_decline(c, "after the tree the kernel writes %s", elem0);
		if ((strncmp(sq, g1, strlen(g1)) && strncmp(sq, g2, strlen(g2)) &&
		     strncmp(sq, g3, strlen(g3))) ||
		    ka_csrc_has_word(t, s, e, "else"))
			*barrier = 1;
	}
	if (ka_csrc_skip_blank(t, tr->body_e, at) != tr->body_e)
		return ka_recipe_decline(c, "cannot read the kernel after the tree");
	return KA_OK;
}

/* The rewritten tree, indented like the loop it replaces (ind; in one
 * level: in). */
static void emit(const tree *tr, int barrier, const char *ind0, const char *in, ka_buf *b)
{
	const char *s = tr->s, *x = tr->tid, *sh = tr->sh, *t = tr->c->m->text;
	char ind[80], half[96];
	snprintf(ind, sizeof ind, "%s%s", ind0, tr->dyn[0] ? in : "");
	if (tr->dyn[0])
		snprintf(half, sizeof half, "(%s) / 2", tr->dyn);
	else
		snprintf(half, sizeof half, "%ld", tr->width / 2);
	ka_buf_adds(
		b, "/* sequential addressing: contiguous active threads, conflict-free shared accesses */\n");
	if (tr->dyn[0]) { /* the width at run time: the rewrite for a power of two from 64 to 1024 */
		const char *d = tr->dyn;
		ka_buf_printf(b, "%sif (%s >= 64 && %s <= 1024 && (%s & (%s - 1)) == 0", ind0, d, d, d, d);
		if (strcmp(d, "blockDim.x")) /* a parameter: the tree's threads must all be there */
			ka_buf_printf(b, " && blockDim.x >= (unsigned)%s", d);
		if (tr->sh_size) /* and the array must hold them */
			ka_buf_printf(b, " && %s <= %ld", d, tr->sh_size);
		ka_buf_adds(b, ") {\n");
	}
	if (tr->lead)
		ka_buf_printf(b, "%s__syncthreads(); /* the barrier the loop took before its first step */\n",
			      ind);
	if (tr->width > 64 || tr->dyn[0])
		ka_buf_printf(b,
			      "%sfor (%s %s = %s; %s > 32; %s >>= 1) {\n"
			      "%s%sif (%s < %s) %s[%s] += %s[%s + %s];\n"
			      "%s%s__syncthreads();\n"
			      "%s}\n",
			      ind, tr->stype, s, half, s, s, ind, in, x, s, sh, x, sh, x, s, ind, in, ind);
	ka_buf_printf(
		b,
		"%sif (%s < 32) { /* the last 64 values: warp 0 with shuffles */\n"
		"%s%s%s ka_v = %s[%s] + %s[%s + 32];\n"
		"%s%sfor (int ka_o = 16; ka_o > 0; ka_o >>= 1) ka_v += __shfl_down_sync(0xffffffffu, ka_v, "
		"ka_o);\n"
		"%s%sif (%s == 0) %s[0] = ka_v;\n"
		"%s}",
		ind, x, ind, in, tr->elem, sh, x, sh, x, ind, in, ind, in, x, sh, ind);
	if (tr->dyn[0]) { /* any other width: the loop as written */
		ka_buf_printf(b, "\n%s} else {\n%s", ind0, ind);
		ka_buf_add(b, t + tr->loop_s, tr->loop_e - tr->loop_s);
		ka_buf_printf(b, "\n%s}", ind0);
	}
	if (barrier)
		ka_buf_printf(b, "\n%s__syncthreads(); /* every thread reads %s[0] below */", ind0, sh);
}

/* Read the top-level loop [s, e) as a tree; KA_OK when it is one. */
static int read_tree(tree *tr, size_t s, size_t e)
{
	ka_recipe_ctx *c = tr->c;
	const char *t = c->m->text;
	size_t po = ka_csrc_skip_blank(t, e, s + 3), pc = ka_csrc_match(t, e, po), semi[2], ns = 0;
	if (t[po] != '(' || pc == NPOS)
		return ka_recipe_decline(c, "cannot read a loop header");
	for (size_t i = po + 1; i < pc && ns < 2; i++) {
		if (t[i] == '(' && (i = ka_csrc_match(t, pc, i)) == NPOS)
			break;
		if (t[i] == ';')
			semi[ns++] = i;
	}
	char init[160], cond[160], step[160];
	if (ns != 2 || !ka_csrc_squeeze(t, po + 1, semi[0], init, sizeof init) ||
	    !ka_csrc_squeeze(t, semi[0] + 1, semi[1], cond, sizeof cond) ||
	    !ka_csrc_squeeze(t, semi[1] + 1, pc, step, sizeof step))
		return ka_recipe_decline(c, "cannot read a loop header");
	tr->loop_s = s;
	tr->loop_e = e;
	int rc = read_header(tr, init, cond, step);
	size_t bs = ka_csrc_skip_blank(t, e, pc + 1);
	return rc ? rc : read_body(tr, bs, e - 1);
}

/* The __shared__ declaration of tr->sh among the kernel's top-level
 * statements. */
static int find_shared(tree *tr)
{
	ka_recipe_ctx *c = tr->c;
	const char *t = c->m->text;
	char sq[512];
	size_t at = tr->body_s, s, e;
	while (at < tr->loop_s && next_stmt(t, tr->loop_s, &at, &s, &e, sq, sizeof sq)) {
		int r = read_shared(tr, sq);
		if (r < 0)
			return ka_recipe_decline(c, "%s is not an array of float, double or integers",
						 tr->sh);
		if (r > 0)
			return KA_OK;
	}
	return ka_recipe_decline(c, "%s is not a __shared__ array declared in the kernel before the tree",
				 tr->sh);
}

static int reduce_apply(ka_recipe_ctx *c, ka_buf *out)
{
	const char *t = c->m->text;
	tree tr = {.c = c, .body_s = c->k->body_open + 1, .body_e = c->k->body_close};
	char first[sizeof c->why] = "";
	size_t at = tr.body_s;
	int rc = KA_RECIPE_DECLINED;
	if (ka_csrc_has_word(t, tr.body_s, tr.body_e, "ka_v") ||
	    ka_csrc_has_word(t, tr.body_s, tr.body_e, "ka_o"))
		return ka_recipe_decline(c, "the kernel already uses the names ka_v or ka_o");
	/* the first top-level loop with a barrier in its body that reads as a
	 * tree; else the first such loop's reason */
	while (rc && at < tr.body_e) {
		size_t s = ka_csrc_skip_blank(t, tr.body_e, at), e = ka_csrc_stmt_end(t, tr.body_e, s);
		if (s >= tr.body_e || e == NPOS)
			break;
		at = e;
		if (strncmp(t + s, "for", 3) || is_ident(t[s + 3]) ||
		    !ka_csrc_has_word(t, s, e, "__syncthreads"))
			continue;
		tree one = tr;
		rc = read_tree(&one, s, e);
		if (rc == KA_OK)
			tr = one;
		else if (rc == KA_RECIPE_DECLINED && !first[0])
			snprintf(first, sizeof first, "%s", c->why);
		else if (rc < 0)
			return rc;
	}
	if (rc)
		return first[0] ? ka_recipe_decline(c, "%s", first)
				: ka_recipe_decline(c,
						    "no top-level loop with a barrier (a shared-memory tree) "
						    "in the kernel");
	int barrier = 1;
	if (ka_csrc_has_word(t, tr.body_s, tr.loop_s, "return"))
		return ka_recipe_decline(c, "a return before the tree (the shuffles need warp 0 whole)");
	rc = find_shared(&tr);
	if (rc == KA_OK)
		rc = prove_tid(&tr);
	if (rc == KA_OK)
		rc = prove_width(&tr);
	if (rc == KA_OK)
		rc = check_after(&tr, &barrier);
	if (rc)
		return rc;
	size_t ls = tr.loop_s;
	while (ls > 0 && (t[ls - 1] == ' ' || t[ls - 1] == '\t'))
		ls--;
	char ind[64];
	snprintf(ind, sizeof ind, "%.*s", ls > 0 && t[ls - 1] == '\n' ? (int)(tr.loop_s - ls) : 1,
		 ls > 0 && t[ls - 1] == '\n' ? t + ls : "\t");
	ka_buf b;
	ka_buf_init(&b, 1 << 16);
	emit(&tr, barrier, ind, ind[0] == ' ' ? "    " : "\t", &b);
	ka_recipe_edits ed = {0};
	rc = b.data ? ka_recipe_edit(&ed, tr.loop_s, tr.loop_e, b.data)
		    : ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

static const char *const reduce_grid[] = {"", NULL};

const ka_recipe ka_recipe_seq_reduction = {
	.name = "seq-reduction",
	.summary =
		"interleaved shared-memory tree -> sequential addressing, the last 64 values by warp shuffles",
	.rules = "div-interleaved-reduction",
	.grid = reduce_grid,
	.apply = reduce_apply,
};

/* ---- reduce-coarsen (rule div-interleaved-reduction) ----
 *
 * A block tree that loads one element per thread,
 *     T j = X * B + tid;                      (X blockIdx.x or .y; B a literal or blockDim.x)
 *     sh[tid] = j < n ? LOAD : 0;
 *     ... a sum tree over sh ...
 * launched with V blocks along X, `T V = (E + B - 1) / B;` on the host (E
 * the launch's argument for n), spends most of its time in the tree and
 * its barriers, not in the loads: a thread that adds K elements before the
 * tree, K chunks of B apart (each chunk still one coalesced row of the
 * block), needs K times fewer blocks, trees and partial sums.  The rewrite:
 *     ELEM ka_acc = 0;
 *     for (int ka_k = 0; ka_k < K; ka_k++) {
 *         T j = ((long long)X * K + ka_k) * B + tid;  sum += j < n ? LOAD : 0;
 *     }
 *     sh[tid] = ka_acc;
 * and on the host `V = (E + B * K - 1) / (B * K)`.  Every use of V (the
 * grid, the count of partial sums a next pass reduces, the grid's limit)
 * changes with it, which is why V must be a variable the launch reads (an
 * inline grid says nothing of what the host takes the count of partials
 * to be).  The sum's order changes: the bench decides. */

typedef struct coarse {
	ka_recipe_ctx *c;
	tree tr;                  /* sh, elem, tid */
	char j[64], x[16], b[64]; /* J, X, B ("256" or "blockDim.x") */
	long bval;                /* B when a literal */
	char n[KA_CSRC_NAME];     /* the bound parameter */
	size_t jd_s, jd_e;        /* J's declaration */
	size_t init_s, init_e;    /* its initializer */
	char jtype[64];           /* its type as written */
	size_t st_s, st_e;        /* the store */
	size_t rhs_s, rhs_e;      /* its right-hand side */
} coarse;

/* 1 when the squeezed text is a literal zero (0, 0.0f, 0.f, 0u, ...). */
static int zero_literal(const char *s)
{
	int zero = 0;
	for (; *s; s++) {
		if (*s == '0')
			zero = 1;
		else if (!strchr(".fFuUlL", *s))
			return 0;
	}
	return zero;
}

/* The offset of the first '=' of [s, e) that is an assignment, or NPOS. */
static size_t assign_at(const char *t, size_t s, size_t e)
{
	for (size_t i = s; i < e; i++) {
		if (t[i] == '(' || t[i] == '[') {
			size_t m = ka_csrc_match(t, e, i);
			if (m == NPOS)
				return NPOS;
			i = m;
			continue;
		}
		if (t[i] == '=' && t[i + 1] != '=' && i > s && !strchr("=!<>+-*/%&|^", t[i - 1]))
			return i;
	}
	return NPOS;
}

/* The right-hand side of the assignment statement [s, e): [*rs, *re),
 * between its '=' and its ';'; 0 when it has none. */
static int rhs_range(const char *t, size_t s, size_t e, size_t *rs, size_t *re)
{
	size_t eq = assign_at(t, s, e), x = e;
	while (x > s && t[x - 1] != ';')
		x--;
	if (eq == NPOS || x == s || x - 1 <= eq)
		return 0;
	*rs = eq + 1;
	*re = x - 1;
	return 1;
}

/* The store `SH[TID] = COND ? LOAD : 0;` at the top-level statement
 * [s, e) (sq squeezed): STORE_READ with sh, tid, J and n noted, 0 when it
 * is no such statement, KA_RECIPE_DECLINED when it is one that cannot be
 * read. */
#define STORE_READ 2
static int read_store(coarse *k, size_t s, size_t e, const char *sq)
{
	ka_recipe_ctx *c = k->c;
	const char *t = c->m->text;
	size_t nl = 0, sl = strlen(sq);
	while (is_ident(sq[nl]))
		nl++;
	if (!nl || nl >= sizeof k->tr.sh || sq[nl] != '[')
		return 0;
	size_t rb = ka_csrc_match(sq, sl, nl);
	if (rb == NPOS || sq[rb + 1] != '=' || sq[rb + 2] == '=' || rb - nl - 1 >= sizeof k->tr.tid)
		return 0;
	snprintf(k->tr.sh, sizeof k->tr.sh, "%.*s", (int)nl, sq);
	snprintf(k->tr.tid, sizeof k->tr.tid, "%.*s", (int)(rb - nl - 1), sq + nl + 1);
	for (const char *p = k->tr.tid; *p; p++)
		if (!is_ident(*p) && *p != '.')
			return 0;
	k->tr.loop_s = s; /* find_shared and prove_tid look before it */
	if (find_shared(&k->tr) != KA_OK)
		return 0; /* not a shared array's store */
	/* the right-hand side: COND ? LOAD : ZERO, COND `J<N`, `N>J` or parenthesized */
	const char *rhs = sq + rb + 2;
	char cond[128], load[1024], zero[32];
	size_t q = NPOS, colon = NPOS, rl = strlen(rhs);
	for (size_t i = 0; i < rl; i++) {
		if (rhs[i] == '(' || rhs[i] == '[') {
			size_t m = ka_csrc_match(rhs, rl, i);
			if (m == NPOS)
				break;
			i = m;
		} else if (rhs[i] == '?' && q == NPOS) {
			q = i;
		} else if (rhs[i] == ':' && q != NPOS && colon == NPOS) {
			colon = i;
		}
	}
	if (q == NPOS || colon == NPOS || q >= sizeof cond || colon - q - 1 >= sizeof load ||
	    rl - colon - 2 >= sizeof zero || rhs[rl - 1] != ';')
		return ka_recipe_decline(c, "the store '%.80s' is not `%s[%s] = j < n ? LOAD : 0;`", sq,
					 k->tr.sh, k->tr.tid);
	snprintf(cond, sizeof cond, "%.*s", (int)q, rhs);
	snprintf(load, sizeof load, "%.*s", (int)(colon - q - 1), rhs + q + 1);
	snprintf(zero, sizeof zero, "%.*s", (int)(rl - colon - 2), rhs + colon + 1);
	size_t cl = strlen(cond);
	if (cl > 2 && cond[0] == '(' && ka_csrc_match(cond, cl, 0) == cl - 1) {
		memmove(cond, cond + 1, cl - 2);
		cond[cl - 2] = 0;
	}
	char *lt = strchr(cond, '<'), *gt = strchr(cond, '>');
	char *op = lt ? lt : gt;
	if (!op || (lt && gt) || op[1] == '=' || !zero_literal(zero))
		return ka_recipe_decline(c, "the store's test '%s' is not j < n with 0 otherwise", cond);
	char a[64], bb[64];
	snprintf(a, sizeof a, "%.*s", (int)(op - cond), cond);
	snprintf(bb, sizeof bb, "%s", op + 1);
	snprintf(k->j, sizeof k->j, "%s", lt ? a : bb);
	snprintf(k->n, sizeof k->n, "%s", lt ? bb : a);
	if (ka_csrc_param_index(c->k, k->n) < 0)
		return ka_recipe_decline(c, "the store's bound '%s' is not a parameter of %s", k->n,
					 c->k->name);
	if (!ka_recipe_pure_expr_in(load, strlen(load), t, c->m->len))
		return ka_recipe_decline(c, "the load '%.80s' may write", load);
	k->st_s = s;
	k->st_e = e;
	if (!rhs_range(t, s, e, &k->rhs_s, &k->rhs_e))
		return ka_recipe_decline(c, "cannot read the store '%.80s'", sq);
	return STORE_READ;
}

/* J's declaration `T J = X * B + TID;` among the top-level statements
 * before the store, J read nowhere else but the store. */
static int read_index(coarse *k)
{
	ka_recipe_ctx *c = k->c;
	const char *t = c->m->text;
	size_t at = k->tr.body_s, s, e;
	char sq[512], want[80];
	snprintf(want, sizeof want, " %s=", k->j);
	while (at < k->st_s && next_stmt(t, k->st_s, &at, &s, &e, sq, sizeof sq)) {
		const char *p = strstr(sq, want);
		if (!p || strchr(sq, ',') || sq[strlen(sq) - 1] != ';')
			continue;
		snprintf(k->jtype, sizeof k->jtype, "%.*s", (int)(p - sq), sq);
		if (!strstr(k->jtype, "int") && !strstr(k->jtype, "long") && !strstr(k->jtype, "size_t") &&
		    !strstr(k->jtype, "unsigned"))
			return ka_recipe_decline(c, "%s is not of an integer type ('%s')", k->j, k->jtype);
		char init[256];
		snprintf(init, sizeof init, "%.*s", (int)(strlen(p) - strlen(want) - 1), p + strlen(want));
		ka_recipe_drop_casts(init);
		ka_recipe_poly poly;
		if (!ka_recipe_poly_read(init, NULL, &poly) || poly.n != 2)
			return ka_recipe_decline(c, "%s = '%s' is not X * B + %s", k->j, init, k->tr.tid);
		/* tid, or threadIdx.x itself (prove_tid: tid is its copy) */
		int u = -1;
		for (int i = 0; i < 2 && u < 0; i++)
			if (ka_recipe_poly_is_unit(&poly.t[i], k->tr.tid) ||
			    ka_recipe_poly_is_unit(&poly.t[i], "threadIdx.x"))
				u = i;
		const ka_recipe_poly_term *o = u < 0 ? NULL : &poly.t[1 - u];
		if (!o)
			return ka_recipe_decline(c, "%s = '%s' does not add %s", k->j, init, k->tr.tid);
		int ax = ka_recipe_poly_has(o, "blockIdx.x")   ? 'x'
			 : ka_recipe_poly_has(o, "blockIdx.y") ? 'y'
							       : 0;
		snprintf(k->x, sizeof k->x, "blockIdx.%c", ax ? ax : 'x');
		if (ax && o->nf == 1 && o->coef >= 32 && o->coef <= 1024) {
			k->bval = (long)o->coef;
			snprintf(k->b, sizeof k->b, "%ld", k->bval);
		} else if (ax && o->nf == 2 && o->coef == 1 && ka_recipe_poly_has(o, "blockDim.x")) {
			snprintf(k->b, sizeof k->b, "blockDim.x");
		} else {
			return ka_recipe_decline(c, "%s = '%s' is not blockIdx * B + %s", k->j, init,
						 k->tr.tid);
		}
		k->jd_s = s;
		k->jd_e = e;
		if (!rhs_range(t, s, e, &k->init_s, &k->init_e))
			return ka_recipe_decline(c, "cannot read '%.80s'", sq);
		int all = ka_csrc_count_word(t, k->tr.body_s, k->tr.body_e, k->j),
		    here = ka_csrc_count_word(t, s, e, k->j) + ka_csrc_count_word(t, k->st_s, k->st_e, k->j);
		if (all != here)
			return ka_recipe_decline(c, "%s is read outside the store", k->j);
		return KA_OK;
	}
	return ka_recipe_decline(c, "no `T %s = X * B + %s;` before the store", k->j, k->tr.tid);
}

/* The tree after the store sums: it adds into the array, takes no minimum
 * or maximum and combines into no element by another operator. */
static int read_sum(coarse *k)
{
	ka_recipe_ctx *c = k->c;
	static char rest[65536];
	char add[80];
	if (!ka_csrc_squeeze(c->m->text, k->st_e, k->tr.body_e, rest, sizeof rest))
		return ka_recipe_decline(c, "the kernel is too long to read");
	snprintf(add, sizeof add, "+=%s[", k->tr.sh);
	static const char *const bad[] = {"max", "min", "]*=", "]&=", "]|=", "]^=", "]-="};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (strstr(rest, bad[i]))
			return ka_recipe_decline(c, "the tree after the store is not a sum ('%s')", bad[i]);
	if (!strstr(rest, add) || !strstr(rest, "__syncthreads()"))
		return ka_recipe_decline(c, "no sum tree over %s after the store", k->tr.sh);
	return KA_OK;
}

/* The grid slot along X of launch l ([*s, *e)). */
static int grid_slot(coarse *k, const ka_csrc_launch *l, size_t *s, size_t *e)
{
	const char *t = k->c->m->text;
	size_t gs = ka_csrc_skip_blank(t, l->cfg[0].e, l->cfg[0].s);
	*s = gs;
	*e = l->cfg[0].e;
	if (strncmp(t + gs, "dim3", 4) || is_ident(t[gs + 4])) {
		return k->x[9] == 'x';
	}
	size_t po = ka_csrc_skip_blank(t, l->cfg[0].e, gs + 4), pc = ka_csrc_match(t, l->cfg[0].e, po);
	ka_csrc_range r[3];
	int n = 0;
	if (t[po] != '(' || pc == NPOS || ka_csrc_split(t, pc + 1, po, pc, r, 3, &n) != KA_OK)
		return 0;
	int want = k->x[9] == 'x' ? 0 : 1;
	if (want >= n)
		return 0;
	*s = r[want].s;
	*e = r[want].e;
	return 1;
}

/* Launch l's grid along X is a variable V declared in the launch's block,
 * `T V = (E + B - 1) / B;` (E the argument for n), assigned nowhere else:
 * its initializer becomes `(E + B * K - 1) / (B * K)` (one edit per
 * declaration, *done). */
static int regrid(coarse *k, const ka_csrc_launch *l, long K, ka_recipe_edits *ed, size_t *done, int *ndone)
{
	ka_recipe_ctx *c = k->c;
	const char *t = c->m->text;
	size_t len = c->m->len, gs, ge;
	char v[128], sq[512];
	if (!grid_slot(k, l, &gs, &ge) || !ka_csrc_squeeze(t, gs, ge, v, sizeof v))
		return ka_recipe_decline(c, "cannot read the grid along %c of a launch of %s", k->x[9],
					 c->k->name);
	ka_recipe_drop_casts(v);
	for (const char *p = v; *p; p++)
		if (!is_ident(*p))
			return ka_recipe_decline(
				c,
				"the grid along %c '%s' is not a variable (the count of partial "
				"sums must change with it)",
				k->x[9], v);
	/* its declaration: the last statement of the launch's block before it
	 * that declares v */
	size_t open = ka_csrc_block_of(t, len, l->start),
	       close = open == NPOS ? NPOS : ka_csrc_match(t, len, open);
	if (open == NPOS || close == NPOS)
		return ka_recipe_decline(c, "the launch of %s is at file level", c->k->name);
	size_t at = open + 1, s, e, ds = NPOS, de = NPOS;
	char want[160];
	snprintf(want, sizeof want, " %s=", v);
	while (at < l->start && next_stmt(t, l->start, &at, &s, &e, sq, sizeof sq))
		if (!strncmp(sq, "const ", 6) || !strncmp(sq, "int ", 4) || !strncmp(sq, "long ", 5) ||
		    !strncmp(sq, "unsigned ", 9) || !strncmp(sq, "size_t ", 7) || !strncmp(sq, "auto ", 5)) {
			const char *p = strstr(sq, want);
			if (p && !strchr(sq, ',') && ka_csrc_has_word(t, s, e, v)) {
				ds = s;
				de = e;
			}
		}
	if (ds == NPOS)
		return ka_recipe_decline(c, "no declaration of the grid '%s' before the launch", v);
	for (int i = 0; i < *ndone; i++)
		if (done[i] == ds)
			return KA_OK;
	if (!ka_csrc_squeeze(t, de, close, sq, sizeof sq) || assigns(sq, v))
		return ka_recipe_decline(c, "the grid '%s' is assigned after its declaration", v);
	size_t is, ie;
	char init[256];
	if (!rhs_range(t, ds, de, &is, &ie) || !ka_csrc_squeeze(t, is, ie, init, sizeof init))
		return ka_recipe_decline(c, "cannot read the grid's declaration");
	ka_recipe_drop_casts(init);
	/* (E+C)/D */
	size_t il = strlen(init), pc = init[0] == '(' ? ka_csrc_match(init, il, 0) : NPOS;
	if (pc == NPOS || init[pc + 1] != '/')
		return ka_recipe_decline(c, "the grid '%s = %s' is not (E + B - 1) / B", v, init);
	char d[64], e1[160], cst[64];
	snprintf(d, sizeof d, "%s", init + pc + 2);
	size_t plus = NPOS;
	for (size_t i = 1; i < pc; i++) {
		if (init[i] == '(' || init[i] == '[') {
			size_t m = ka_csrc_match(init, pc, i);
			if (m == NPOS)
				break;
			i = m;
		} else if (init[i] == '+') {
			plus = i;
		}
	}
	if (plus == NPOS || plus - 1 >= sizeof e1)
		return ka_recipe_decline(c, "the grid '%s = %s' is not (E + B - 1) / B", v, init);
	snprintf(e1, sizeof e1, "%.*s", (int)(plus - 1), init + 1);
	snprintf(cst, sizeof cst, "%.*s", (int)(pc - plus - 1), init + plus + 1);
	long dv = 0, cv = 0;
	int dlit = literal(d, &dv) || ka_recipe_const_var(c, ds, d, &dv);
	char dm1[80];
	snprintf(dm1, sizeof dm1, "%s-1", d);
	if (!((dlit && literal(cst, &cv) && cv == dv - 1) || !strcmp(cst, dm1)))
		return ka_recipe_decline(c, "the grid '%s = %s' does not round up by its divisor", v, init);
	/* D is the tree's B */
	long blk = 0;
	char bsq[128] = "";
	ka_csrc_squeeze(t, l->cfg[1].s, l->cfg[1].e, bsq, sizeof bsq);
	if (k->bval ? !(dlit && dv == k->bval && launch_block(c, l, &blk) && blk == k->bval)
		    : strcmp(d, bsq) && !(dlit && launch_block(c, l, &blk) && blk == dv))
		return ka_recipe_decline(c, "the grid's divisor '%s' is not the block of %s elements", d,
					 k->b);
	/* E is the launch's argument for n */
	int pi = ka_csrc_param_index(c->k, k->n);
	char arg[160];
	if (pi < 0 || pi >= l->nargs || !ka_csrc_squeeze(t, l->args[pi].s, l->args[pi].e, arg, sizeof arg))
		return ka_recipe_decline(c, "cannot read the launch's argument for %s", k->n);
	ka_recipe_drop_casts(arg);
	if (strcmp(arg, e1))
		return ka_recipe_decline(c, "the grid counts '%s', the kernel's bound is '%s'", e1, arg);
	/* the new initializer, from the text as written */
	char raw_e[200], raw_d[80], nw[512];
	snprintf(raw_e, sizeof raw_e, "%s", e1);
	snprintf(raw_d, sizeof raw_d, "%s", d);
	snprintf(nw, sizeof nw, " (%s + (long long)(%s) * %ld - 1) / ((long long)(%s) * %ld)", raw_e, raw_d,
		 K, raw_d, K);
	done[(*ndone)++] = ds;
	return ka_recipe_edit(ed, is, ie, nw);
}

/* X replaced by `((long long)X * K + KV)` in [s, e) of t into b. */
static void subst_block_index(ka_buf *b, const char *t, size_t s, size_t e, const char *x, long K,
			      const char *kv)
{
	size_t xl = strlen(x);
	for (size_t i = s; i < e; i++) {
		if (!strncmp(t + i, x, xl) && i + xl <= e && !is_ident(t[i + xl]) &&
		    (i == s || (!is_ident(t[i - 1]) && t[i - 1] != '.'))) {
			ka_buf_printf(b, "((long long)%s * %ld + %s)", x, K, kv);
			i += xl - 1;
		} else {
			ka_buf_addc(b, t[i]);
		}
	}
}

static int coarsen_apply(ka_recipe_ctx *c, ka_buf *out)
{
	const char *t = c->m->text;
	long K = ka_recipe_param(c->params, "k", 4);
	if (K != 2 && K != 4 && K != 8 && K != 16)
		return ka_recipe_decline(c, "bad parameters: k=%ld (2, 4, 8 or 16)", K);
	coarse k = {.c = c};
	k.tr = (tree){.c = c, .body_s = c->k->body_open + 1, .body_e = c->k->body_close};
	size_t at = k.tr.body_s, s, e;
	static char sq[4096];
	int rc = 0;
	while (!rc && at < k.tr.body_e && next_stmt(t, k.tr.body_e, &at, &s, &e, sq, sizeof sq))
		rc = read_store(&k, s, e, sq);
	if (rc < 0 || rc == KA_RECIPE_DECLINED)
		return rc;
	if (rc != STORE_READ)
		return ka_recipe_decline(c, "no `sh[tid] = j < n ? LOAD : 0;` into a __shared__ array");
	if ((rc = prove_tid(&k.tr)) || (rc = read_index(&k)) || (rc = read_sum(&k)))
		return rc;
	if (ka_recipe_launches_known(c))
		return KA_RECIPE_DECLINED;
	char acc[64], kv[64];
	ka_recipe_unused_name(c, "ka_acc", acc, sizeof acc);
	ka_recipe_unused_name(c, "ka_k", kv, sizeof kv);
	ka_recipe_edits ed = {0};
	size_t done[KA_CSRC_MAX_LAUNCHES];
	int ndone = 0, nl = 0;
	for (int i = 0; !rc && i < c->m->nlaunches; i++)
		if (!strcmp(c->m->l[i].kernel, c->k->name)) {
			nl++;
			rc = regrid(&k, &c->m->l[i], K, &ed, done, &ndone);
		}
	if (!rc && !nl)
		rc = ka_recipe_decline(c, "no launch of %s in this file", c->k->name);
	/* the indentation of the store */
	size_t ls = k.st_s;
	while (ls > 0 && (t[ls - 1] == ' ' || t[ls - 1] == '\t'))
		ls--;
	char ind[64];
	snprintf(ind, sizeof ind, "%.*s", ls > 0 && t[ls - 1] == '\n' ? (int)(k.st_s - ls) : 1,
		 ls > 0 && t[ls - 1] == '\n' ? t + ls : "\t");
	const char *in = ind[0] == ' ' ? "    " : "\t";
	ka_buf d, st;
	ka_buf_init(&d, 256);
	ka_buf_init(&st, 1024);
	ka_buf_printf(&d, "%s %s = 0; /* %ld chunks of %s elements a thread before the tree */", k.tr.elem,
		      acc, K, k.b);
	ka_buf_printf(&st, "for (int %s = 0; %s < %ld; %s++) {\n%s%s%s %s =", kv, kv, K, kv, ind, in, k.jtype,
		      k.j);
	subst_block_index(&st, t, k.init_s, k.init_e, k.x, K, kv);
	ka_buf_printf(&st, ";\n%s%s%s +=", ind, in, acc);
	for (size_t i = k.rhs_s; i < k.rhs_e; i++)
		ka_buf_addc(&st, t[i]);
	ka_buf_printf(&st, ";\n%s}\n%s%s[%s] = %s;", ind, ind, k.tr.sh, k.tr.tid, acc);
	if (!rc)
		rc = d.data && st.data ? ka_recipe_edit(&ed, k.jd_s, k.jd_e, d.data)
				       : ka_error_set(KA_ENOMEM, "out of memory");
	if (!rc)
		rc = ka_recipe_edit(&ed, k.st_s, k.st_e, st.data);
	if (!rc)
		rc = ka_recipe_edits_apply(&ed, t, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&d);
	ka_buf_free(&st);
	return rc;
}

static const char *const coarsen_grid[] = {"k=4", "k=8", "k=2", NULL};

const ka_recipe ka_recipe_reduce_coarsen = {
	.name = "reduce-coarsen",
	.summary = "a block tree's one load a thread -> K chunks summed a thread first, K times fewer blocks",
	.rules = "div-interleaved-reduction",
	.grid = coarsen_grid,
	.apply = coarsen_apply,
};
