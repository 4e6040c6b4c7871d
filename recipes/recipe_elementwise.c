/* recipes/recipe_elementwise.c: two recipes for one-thread-per-element
 * kernels,
 *     long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
 *     if (i < n) BODY                  (or: if (i >= n) return; BODY...)
 *   grid-stride  a capped grid whose threads loop over the elements, so the
 *                launch no longer scales with n (rules launch-tail-effect,
 *                launch-small-grid);
 *   vectorize    the same loop over 16-byte lanes: every `p[i]` of a float,
 *                int or unsigned pointer becomes one float4/int4/uint4 load or
 *                store per four elements, the body is repeated per lane, and a
 *                scalar loop takes the tail (rule gmem-scalar-not-vectorized).
 *                The vector loop only runs when every vectorized pointer is
 *                16-byte aligned (checked at run time).  A written vector is
 *                not loaded first when straight-line code stores it before
 *                reading it, or when every path of a branching body stores it
 *                and none reads it; otherwise it is loaded, so that a lane a
 *                branch leaves alone is written back as it was.
 *                A float4 copy stands for loads, `p[i] = E` and read-modify-
 *                writes (op=, ++, --) only: a pointer whose element's address
 *                is taken (&p[i]: atomics, out-parameters) or, writable, is
 *                passed whole to a call (a reference) stays scalar.
 * Both loop on a 64-bit variable of their own and declare the kernel's
 * index inside the loop as it was declared (`const int i = ka_e;`), so the
 * body sees the type it had and a const index is never stepped.  Both
 * decline when the body uses the thread or block ids itself (or inline
 * asm, which may read them), assigns the index, returns early, or touches
 * shared memory or barriers; grid-stride takes a `return;` in a body with
 * no switch and no loop around it as the loop's `continue;` (KA_RECIPE_EW_RETURN), a
 * bound that is a member of a by-value parameter (`i < size.y`,
 * KA_RECIPE_EW_MEMBER), and a kernel that some use of its name this file
 * shows cannot be read as a launch (cudaLaunchKernel, a function pointer,
 * an occupancy query): then no launch changes its block, and the ones it
 * reads cap their grid (ka_recipe_relaunch_cap).  Both also take a kernel with no guard at all
 * (KA_RECIPE_EW_UNGUARDED): its count is the launch's threads along x,
 * which the launches pass in as a new parameter (ka_recipe_relaunch_threads). */
#include "recipes/recipe.h"
#include "analyzer/kmodel.h"
#include "util/fs.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define NPOS ((size_t)-1)

typedef ka_recipe_ew ew_shape;

static int is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* 1 when var is assigned in the squeezed text (=, op=, ++, --).  A
 * member of that name (`k.x = v`, `p->x = v`) is another object. */
static int assigned(const char *sq, const char *var)
{
	size_t n = strlen(var);
	for (const char *p = strstr(sq, var); p; p = strstr(p + 1, var)) {
		if ((p > sq && is_ident(p[-1])) || is_ident(p[n]))
			continue;
		if ((p > sq && p[-1] == '.') || (p > sq + 1 && p[-1] == '>' && p[-2] == '-'))
			continue; /* a member */
		const char *a = p + n;
		if ((a[0] == '=' && a[1] != '=') || (a[0] == '+' && a[1] == '+') ||
		    (a[0] == '-' && a[1] == '-'))
			return 1;
		if (strchr("+-*/%&|^", a[0]) && a[1] == '=')
			return 1;
		if (a[0] == '<' && a[1] == '<' && a[2] == '=')
			return 1;
		if (a[0] == '>' && a[1] == '>' && a[2] == '=')
			return 1;
		if (p >= sq + 2 && ((p[-1] == '+' && p[-2] == '+') || (p[-1] == '-' && p[-2] == '-')))
			return 1;
	}
	return 0;
}
static int body_checks(ka_recipe_ctx *c, ka_recipe_ew *sh, unsigned flags);

/* 1 when the squeezed text moves var itself: assigned as `assigned` reads
 * it, but not a store through it (`*var = v`, `*var += v`), which moves
 * nothing (`*var++` still does). */
static int moved(const char *sq, const char *var)
{
	size_t n = strlen(var);
	for (const char *p = strstr(sq, var); p; p = strstr(p + 1, var)) {
		if ((p > sq && is_ident(p[-1])) || is_ident(p[n]))
			continue;
		if ((p > sq && p[-1] == '.') || (p > sq + 1 && p[-1] == '>' && p[-2] == '-'))
			continue; /* a member of that name */
		const char *a = p + n;
		int incdec = (a[0] == '+' && a[1] == '+') || (a[0] == '-' && a[1] == '-') ||
			     (p >= sq + 2 &&
			      ((p[-1] == '+' && p[-2] == '+') || (p[-1] == '-' && p[-2] == '-')));
		if (p > sq && p[-1] == '*' && !incdec)
			continue; /* a store through it */
		char one[128];
		if (n + 4 > sizeof one)
			return 1;
		/* the occurrence alone, with what follows it, read by `assigned` */
		snprintf(one, sizeof one, "%.*s%.3s", (int)n, p, a);
		if (incdec || assigned(one, var))
			return 1;
	}
	return 0;
}

/* 1 when the squeezed expression reads as exactly the product (or sum)
 * of the named terms. */
static int poly_is(const char *sq, const ka_recipe_poly_defs *d, const char *const *terms, int nterms,
		   int product)
{
	ka_recipe_poly_env env = {ka_recipe_poly_defs_lookup, (void *)d};
	ka_recipe_poly p;
	if (!ka_recipe_poly_read(sq, &env, &p))
		return 0;
	if (product) {
		if (p.n != 1 || p.t[0].coef != 1 || p.t[0].nf != nterms)
			return 0;
		for (int i = 0; i < nterms; i++)
			if (ka_recipe_poly_has(&p.t[0], terms[i]) != 1)
				return 0;
		return 1;
	}
	/* blockIdx.x * blockDim.x + threadIdx.x */
	if (p.n != 2)
		return 0;
	int prod = 0, tid = 0;
	for (int i = 0; i < 2; i++) {
		prod += p.t[i].coef == 1 && p.t[i].nf == 2 && ka_recipe_poly_has(&p.t[i], terms[0]) == 1 &&
			ka_recipe_poly_has(&p.t[i], terms[1]) == 1;
		tid += ka_recipe_poly_is_unit(&p.t[i], terms[2]);
	}
	return prod == 1 && tid == 1;
}

/* The grid-stride form of the shape: a kernel whose body is (after
 * declarations its loop header alone reads)
 *     for (T i = <global thread index>; i < N; i += <blockDim.x * gridDim.x>) BODY
 * with the start and step read as sums of products (casts, helper
 * variables, any order).  KA_OK with sh set; KA_RECIPE_DECLINED with the
 * construct in c->why (the caller words the reason); NOT_A_LOOP when the
 * body is not such a loop at all. */
#define NOT_A_LOOP 2
static int stride_loop_shape(ka_recipe_ctx *c, ka_recipe_ew *sh)
{
	const char *t = c->m->text;
	size_t len = c->m->len, close = c->k->body_close;
	static ka_recipe_poly_defs d;
	d.n = 0;
	size_t s = ka_csrc_skip_blank(t, len, c->k->body_open + 1), e;
	char sq[600], parts[3][KA_RECIPE_FOR_PART];
	for (;; s = ka_csrc_skip_blank(t, len, e)) {
		e = ka_csrc_stmt_end(t, len, s);
		if (e == NPOS || e > close || !ka_csrc_squeeze(t, s, e, sq, sizeof sq))
			return NOT_A_LOOP;
		if (!strncmp(sq, "for(", 4))
			break;
		/* `T v = E;`: a helper of the header */
		const char *eq = strchr(sq, '='), *v = eq;
		while (v && v > sq && is_ident(v[-1]))
			v--;
		char nm[64], rhs[256];
		if (!eq || eq[1] == '=' || v == eq || v == sq || v[-1] != ' ' || strchr(sq, ',') ||
		    (size_t)(eq - v) >= sizeof nm || strlen(eq + 1) >= sizeof rhs)
			return NOT_A_LOOP;
		snprintf(nm, sizeof nm, "%.*s", (int)(eq - v), v);
		snprintf(rhs, sizeof rhs, "%.*s", (int)strlen(eq + 1) - 1, eq + 1);
		if (!ka_recipe_poly_defs_add(&d, nm, rhs))
			return NOT_A_LOOP;
	}
	if (ka_csrc_skip_blank(t, len, e) != close)
		return ka_recipe_decline(c, "statements follow the grid-stride loop");
	int np;
	if (ka_recipe_for_parts(c, s, parts, &np) != KA_OK)
		return KA_RECIPE_DECLINED;
	ka_recipe_tid td;
	char init[310], rhs[300];
	snprintf(init, sizeof init, "%s;", parts[0]);
	const char *eq = strchr(parts[0], '=');
	if (np != 3 || !eq)
		return ka_recipe_decline(c, "the loop does not declare its index");
	snprintf(rhs, sizeof rhs, "%s", eq + 1);
	/* the declaration `T i = START`: the type through the index pattern's reader */
	char fake[400];
	snprintf(fake, sizeof fake, "%.*s=blockIdx.x*blockDim.x+threadIdx.x;", (int)(eq - parts[0]),
		 parts[0]);
	if (!ka_recipe_tid_decl(fake, 0, strlen(fake), 'x', &td))
		return ka_recipe_decline(c, "the loop index '%s' is not an integer of 32 bits or more",
					 parts[0]);
	static const char *const start[] = {"blockIdx.x", "blockDim.x", "threadIdx.x"};
	static const char *const step[] = {"blockDim.x", "gridDim.x"};
	if (!poly_is(rhs, &d, start, 3, 0))
		return ka_recipe_decline(c, "the loop starts at '%s', not at the global thread index", rhs);
	size_t vl = strlen(td.var);
	if (strncmp(parts[1], td.var, vl) || parts[1][vl] != '<' || parts[1][vl + 1] == '=')
		return ka_recipe_decline(c, "the loop test '%s' is not `%s < PARAM`", parts[1], td.var);
	snprintf(sh->count, sizeof sh->count, "%s", parts[1] + vl + 1);
	ka_recipe_drop_casts(sh->count);
	if (ka_csrc_param_index(c->k, sh->count) < 0)
		return ka_recipe_decline(c, "the loop bound '%s' is not a parameter", sh->count);
	if (strncmp(parts[2], td.var, vl) || strncmp(parts[2] + vl, "+=", 2) ||
	    !poly_is(parts[2] + vl + 2, &d, step, 2, 1))
		return ka_recipe_decline(c, "the loop step '%s' is not the grid (blockDim.x * gridDim.x)",
					 parts[2]);
	snprintf(sh->var, sizeof sh->var, "%s", td.var);
	snprintf(sh->type, sizeof sh->type, "%s", td.type);
	snprintf(sh->base, sizeof sh->base, "%s", td.base);
	size_t cp = ka_csrc_match(t, len, ka_csrc_skip_blank(t, len, s + 3)); /* read above */
	sh->decl_s = s;
	sh->decl_e = cp + 1;
	sh->body_s = cp + 1;
	sh->body_e = e;
	sh->stride_loop = 1;
	/* the helpers go with the rewrite: the body must not read them */
	for (int i = 0; i < d.n; i++)
		if (ka_csrc_has_word(t, sh->body_s, sh->body_e, d.name[i]))
			return ka_recipe_decline(c, "the loop body reads %s, declared before the loop",
						 d.name[i]);
	return KA_OK;
}

/* [s, e) declares one integer local from parameters and constants only,
 * `[const] INT name = <sum of products>;` (earlier such locals in d
 * count): its name and initializer go to d.  0 otherwise. */
static int param_local(const char *t, size_t s, size_t e, const ka_csrc_kernel *k, ka_recipe_poly_defs *d)
{
	static const char *const words[] = {"const",   "constexpr", "unsigned", "signed",  "int",
					    "long",    "short",     "size_t",   "int32_t", "uint32_t",
					    "int64_t", "uint64_t",  "auto"};
	char sq[400];
	if (!ka_csrc_squeeze(t, s, e, sq, sizeof sq) || strchr(sq, ',') || sq[strlen(sq) - 1] != ';')
		return 0;
	sq[strlen(sq) - 1] = 0;
	char *eq = strchr(sq, '='), *v = eq;
	while (v && v > sq && is_ident(v[-1]))
		v--;
	if (!eq || eq[1] == '=' || v == eq || v == sq || v[-1] != ' ' || eq - v >= 64)
		return 0;
	/* the type: integer words only */
	for (const char *w = sq; w < v - 1;) {
		const char *x = w;
		while (is_ident(*x))
			x++;
		int ok = 0;
		for (size_t i = 0; i < sizeof words / sizeof words[0] && !ok; i++)
			ok = strlen(words[i]) == (size_t)(x - w) && !memcmp(words[i], w, (size_t)(x - w));
		if (!ok || (*x != ' ' && x != v - 1))
			return 0;
		w = x + (*x == ' ');
	}
	ka_recipe_poly_env env = {ka_recipe_poly_defs_lookup, d};
	ka_recipe_poly p;
	if (!ka_recipe_poly_read(eq + 1, &env, &p))
		return 0;
	for (int i = 0; i < p.n; i++)
		for (int f = 0; f < p.t[i].nf; f++)
			if (ka_csrc_param_index(k, p.t[i].f[f]) < 0)
				return 0;
	char nm[64];
	snprintf(nm, sizeof nm, "%.*s", (int)(eq - v), v);
	return ka_recipe_poly_defs_add(d, nm, eq + 1);
}

/* X is `P.M` (a chain of members, parentheses around it allowed) with P a
 * parameter passed by value, and the kernel reads P only through members
 * and assigns none of them nor P (KA_RECIPE_EW_MEMBER): "(P.M)" into out. */
static int member_bound(const ka_recipe_ctx *c, const char *x, char *out, size_t cap)
{
	char b[200];
	size_t n = strlen(x), k = 0;
	while (n > 2 * k + 1 && x[k] == '(' && x[n - 1 - k] == ')')
		k++;
	if (n - 2 * k >= sizeof b)
		return 0;
	snprintf(b, sizeof b, "%.*s", (int)(n - 2 * k), x + k);
	const char *dot = strchr(b, '.');
	if (!dot || dot == b)
		return 0;
	for (const char *p = b; *p; p++)
		if (!is_ident(*p) && !(*p == '.' && p > b && is_ident(p[-1]) && is_ident(p[1])))
			return 0;
	char pn[KA_CSRC_NAME];
	snprintf(pn, sizeof pn, "%.*s", (int)(dot - b), b);
	int pi = ka_csrc_param_index(c->k, pn);
	if (pi < 0 || c->k->params[pi].is_pointer || strchr(c->k->params[pi].type, '&') ||
	    strchr(c->k->params[pi].type, '*') || strchr(c->k->params[pi].type, '['))
		return 0;
	/* a const P cannot change; else every use of P in the body is a
	 * member, `P.M...`, and the bound's is not assigned (a call could take
	 * P whole by reference, or the bound's address) */
	const char *ty = c->k->params[pi].type;
	if (ka_csrc_has_word(ty, 0, strlen(ty), "const")) {
		snprintf(out, cap, "(%s)", b);
		return 1;
	}
	static char body[16384];
	const char *t = c->m->text;
	if (!ka_csrc_squeeze(t, c->k->body_open, c->k->body_close + 1, body, sizeof body))
		return 0;
	size_t pl = strlen(pn);
	for (const char *p = strstr(body, pn); p; p = strstr(p + 1, pn)) {
		if ((p > body && (is_ident(p[-1]) || p[-1] == '.' || p[-1] == '>')) || is_ident(p[pl]))
			continue;
		if (p[pl] != '.' || (p > body && p[-1] == '&'))
			return 0;
		const char *m = p + pl;
		while (*m == '.' && is_ident(m[1]))
			for (m++; is_ident(*m); m++)
				;
		/* another member (`P.data[i] = v`) leaves the bound alone */
		size_t bl = strlen(b), ul = (size_t)(m - p);
		if (ul < bl || memcmp(p, b, bl) || (ul > bl && p[bl] != '.'))
			continue;
		char use[200];
		snprintf(use, sizeof use, "%.*s", (int)ul, p);
		if (ul > bl || *m == '.' || *m == '[' || *m == '(' || assigned(p, use))
			return 0;
	}
	if (assigned(body, pn))
		return 0;
	snprintf(out, cap, "(%s)", b);
	return 1;
}

/* The bound of `if (var < X)` / `if (var >= X)` when X is no parameter:
 * from the kernel model, its value as a sum of products of parameters, as
 * a parenthesized 64-bit expression into sh->count. */
static int product_bound(ka_recipe_ctx *c, ka_recipe_ew *sh, int lt, const char *cond, unsigned flags)
{
	if ((flags & KA_RECIPE_EW_MEMBER) && member_bound(c, sh->count, sh->count, sizeof sh->count))
		return KA_OK;
	ka_kmodel_doc doc;
	if (ka_recipe_kmodel(c->m->text, c->m->len, c->k->name, &doc) != KA_OK)
		return ka_recipe_decline(c,
					 "the bound '%s' is not a parameter, and the kernel model could "
					 "not be built",
					 cond);
	const ka_km_index *ix = ka_kmodel_guarded_index(doc.km);
	const char *bv = doc.km->guard.bound_value;
	char val[256];
	snprintf(val, sizeof val, "%s", bv ? bv : "");
	int form = doc.km->guard.form, same = ix && !strcmp(ix->name, sh->var);
	ka_recipe_kmodel_free(&doc);
	if (!same || form != (lt ? KM_GUARD_BLOCK : KM_GUARD_RETURN))
		return ka_recipe_decline(c, "the model finds no guard on %s in '%s'", sh->var, cond);
	ka_recipe_poly p;
	char expr[240];
	if (!val[0] || !ka_recipe_poly_read(val, NULL, &p) || !ka_recipe_poly_c(&p, expr, sizeof expr))
		return ka_recipe_decline(c, "the bound '%s' is not a product or sum of parameters", cond);
	for (int i = 0; i < p.n; i++)
		for (int f = 0; f < p.t[i].nf; f++)
			if (ka_csrc_param_index(c->k, p.t[i].f[f]) < 0)
				return ka_recipe_decline(c, "the bound '%s' reads %s, no parameter", cond,
							 p.t[i].f[f]);
	snprintf(sh->count, sizeof sh->count, "(%s)", expr);
	return KA_OK;
}

void ka_recipe_ew_pre(ka_buf *b, const ka_recipe_ctx *c, const ka_recipe_ew *sh)
{
	const char *t = c->m->text;
	static ka_recipe_poly_defs d;
	d.n = 0;
	for (size_t s = ka_csrc_skip_blank(t, sh->pre_e, sh->pre_s), e; s < sh->pre_e;
	     s = ka_csrc_skip_blank(t, sh->pre_e, e)) {
		e = ka_csrc_stmt_end(t, sh->pre_e, s);
		if (e == NPOS || !param_local(t, s, e, c->k, &d))
			return;
		if (ka_csrc_has_word(t, sh->body_s, sh->body_e, d.name[d.n - 1])) {
			ka_buf_addc(b, '\t');
			ka_buf_add(b, t + s, e - s);
			ka_buf_addc(b, '\n');
		}
	}
}

int ka_recipe_ew_shape(ka_recipe_ctx *c, ka_recipe_ew *sh)
{
	return ka_recipe_ew_shape_ex(c, sh, KA_RECIPE_EW_ONE);
}

/* ---- the shape from the kernel model (KA_RECIPE_EW_MODEL) ----
 *
 * What the model of one kernel says about its element index, kept for
 * the next recipe on the same text (a sweep or a plan tries several). */
typedef struct ew_model {
	unsigned long long hash, flags; /* the text's, and the compiler flags' */
	size_t len;
	char kernel[KA_CSRC_NAME], dir[512];
	int built;
	char reason[200]; /* built, and no guarded global index along x: why */
	int form;         /* ka_km_guardform */
	char var[64];     /* the guarded index */
	int ix_begin;     /* its declaration (STRIDE: the loop header's init) */
	int bound_param;  /* the bound is a parameter, named bound */
	char bound[128];  /* as written, casts dropped */
	char value[256];  /* its value over parameters, or "" */
	int g_begin;      /* the if, or the for */
	int body_begin, body_end;
	/* no guard, one global index along x and none along y or z (reason
	 * says so): var and ix_begin name that index, for a recipe that takes
	 * the launch's thread count as the bound (KA_RECIPE_EW_UNGUARDED) */
	int unguarded;
	/* the guarded index is K times the global index along x (reason says
	 * it is no global index): K, for a recipe that loops over such
	 * indices (KA_RECIPE_EW_SCALED); 0 otherwise */
	long scale;
} ew_model;

static unsigned long long text_hash(const char *t, size_t n)
{
	return ka_fs_fnv1a(1469598103934665603ull, t, n);
}

static const char *ix_kind_name(ka_km_ixkind k)
{
	return k == KM_IX_THREAD ? "a thread index" : k == KM_IX_BLOCK ? "a block index" : "no global index";
}

/* Why the model has no guarded global index along x, naming what it has. */
static void model_reason(const ka_kmodel *km, ew_model *md)
{
	const ka_km_index *gi = ka_kmodel_guarded_index(km);
	const ka_km_index *gx = NULL, *gy = NULL, *other = NULL;
	for (int i = 0; i < km->nidx; i++) {
		const ka_km_index *ix = &km->idx[i];
		if (ix->kind == KM_IX_GLOBAL && ix->axis == 0 && !gx)
			gx = ix;
		else if (ix->kind == KM_IX_GLOBAL && ix->axis > 0 && !gy)
			gy = ix;
		else if (!other)
			other = ix;
	}
	if (gi && gi->kind == KM_IX_GLOBAL && gi->axis == 0)
		md->reason[0] = 0;
	else if (gi)
		snprintf(md->reason, sizeof md->reason,
			 "the guarded index '%s' is '%.80s' (%s), not the global thread index along x",
			 gi->name, gi->affine ? gi->affine : "?",
			 gi->kind == KM_IX_GLOBAL ? "along y or z" : ix_kind_name(gi->kind));
	else if (gx && gy)
		snprintf(md->reason, sizeof md->reason,
			 "a 2-D index ('%s' along x, '%s' along %c): not one element per thread along x",
			 gx->name, gy->name, 'x' + gy->axis);
	else if (gx)
		snprintf(
			md->reason, sizeof md->reason,
			"no guard of the index '%s' by a count (`if (i < n)` last, `if (i >= n) return;`, or a "
			"grid-stride loop)",
			gx->name);
	else if (gy)
		snprintf(md->reason, sizeof md->reason, "the global index '%s' is along %c, not x", gy->name,
			 'x' + gy->axis);
	else if (other)
		snprintf(md->reason, sizeof md->reason,
			 "no global thread index along x: '%s' is '%.80s' (%s)", other->name,
			 other->affine ? other->affine : "?", ix_kind_name(other->kind));
	else
		snprintf(md->reason, sizeof md->reason,
			 "no integer local holds blockIdx.x * blockDim.x + threadIdx.x");
}

/* The model of c's kernel, from the cache when the text is the last one's. */
static const ew_model *model_of(ka_recipe_ctx *c)
{
	static ew_model md;
	const char *dir = ka_recipe_source_dir();
	unsigned long long h = text_hash(c->m->text, c->m->len), fh = text_hash("", 0);
	const char *const *fv;
	for (int i = 0, n = ka_recipe_flags(&fv); i < n; i++)
		fh = fh * 31 + text_hash(fv[i], strlen(fv[i]) + 1);
	if (md.hash == h && md.flags == fh && md.len == c->m->len && !strcmp(md.kernel, c->k->name) &&
	    !strcmp(md.dir, dir ? dir : ""))
		return &md;
	memset(&md, 0, sizeof md);
	md.hash = h;
	md.flags = fh;
	md.len = c->m->len;
	snprintf(md.kernel, sizeof md.kernel, "%s", c->k->name);
	snprintf(md.dir, sizeof md.dir, "%s", dir ? dir : "");
	ka_kmodel_doc doc;
	if (ka_recipe_kmodel(c->m->text, c->m->len, c->k->name, &doc) != KA_OK) {
		snprintf(md.reason, sizeof md.reason, "%s", ka_error_last());
		return &md;
	}
	const ka_kmodel *km = doc.km;
	md.built = 1;
	model_reason(km, &md);
	const ka_km_index *gi = ka_kmodel_guarded_index(km);
	if (md.reason[0] && !gi && km->guard.form == KM_GUARD_NONE) {
		const ka_km_index *gx = NULL;
		int other = 0;
		for (int i = 0; i < km->nidx; i++) {
			const ka_km_index *ix = &km->idx[i];
			if (ix->kind == KM_IX_GLOBAL && ix->axis == 0 && !gx)
				gx = ix;
			else if (ix->kind == KM_IX_GLOBAL)
				other = 1;
		}
		if (gx && !other) {
			md.unguarded = 1;
			snprintf(md.var, sizeof md.var, "%s", gx->name);
			md.ix_begin = gx->begin;
		}
	}
	if (md.reason[0] && gi && gi->kind == KM_IX_OTHER && gi->axis == 0 && gi->scale > 1 &&
	    km->guard.form != KM_GUARD_STRIDE)
		md.scale = (long)gi->scale;
	if ((!md.reason[0] || md.scale) && gi) {
		const ka_km_guard *g = &km->guard;
		md.form = g->form;
		snprintf(md.var, sizeof md.var, "%s", gi->name);
		md.ix_begin = gi->begin;
		md.bound_param = g->bound_param != NULL;
		snprintf(md.bound, sizeof md.bound, "%s", g->bound ? g->bound : "");
		snprintf(md.value, sizeof md.value, "%s", g->bound_value ? g->bound_value : "");
		md.g_begin = g->begin;
		md.body_begin = g->body_begin;
		md.body_end = g->body_end;
	}
	ka_recipe_kmodel_free(&doc);
	return &md;
}

/* Words an initializer may not read for its value to be the same for
 * every element a thread now takes. */
static int thread_word(const char *t, size_t s, size_t e)
{
	static const char *const ids[] = {"threadIdx", "blockIdx", "blockDim", "gridDim",     "warpSize",
					  "clock",     "clock64",  "__laneid", "__activemask"};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if (ka_csrc_has_word(t, s, e, ids[i]))
			return 1;
	return 0;
}

/* 1 when every thread, block or grid id of [s, e) is read along y or z
 * (`blockIdx.y`, `blockDim.z`) and no other thread-dependent name is
 * there (warpSize, clock, the lane id, the active mask). */
static int ids_yz_only(const char *t, size_t s, size_t e)
{
	static const char *const other[] = {"warpSize", "clock", "clock64", "__laneid", "__activemask"};
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
		if (ka_csrc_has_word(t, s, e, other[i]))
			return 0;
	static const char *const ids[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		size_t n = strlen(ids[i]);
		for (size_t at = ka_csrc_find_word_pp(t, s, e, ids[i]); at != NPOS;
		     at = ka_csrc_find_word_pp(t, at + n, e, ids[i])) {
			size_t d = ka_csrc_skip_blank(t, e, at + n);
			size_t m = d < e && t[d] == '.' ? ka_csrc_skip_blank(t, e, d + 1) : NPOS;
			if (m == NPOS || m >= e || (t[m] != 'y' && t[m] != 'z') ||
			    (m + 1 < e && is_ident(t[m + 1])))
				return 0;
		}
	}
	return 1;
}

/* 1 when the macro the file defines as `#define NAME ...` (object- or
 * function-like) reads no thread id; 0 when it does or the file does not
 * define it (a header's macro could). */
static int file_macro_plain(const char *t, size_t len, const char *name, size_t n)
{
	for (const char *p = t; (p = strstr(p, "#define")) != NULL && p < t + len; p += 7) {
		const char *q = p + 7;
		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, name, n) || is_ident(q[n]))
			continue;
		size_t e = (size_t)(q - t);
		while (e < len && t[e] != '\n')
			e += t[e] == '\\' && e + 1 < len ? 2 : 1;
		return !thread_word(t, (size_t)(q - t), e);
	}
	return 0;
}

/* The next identifier of the squeezed text at *pp that is no part of a
 * number (digits and a literal's suffix are skipped): its start, its
 * length in *wn, and *pp past it.  NULL at the end, or at the first
 * skipped character that is in stop (then *pp points at it). */
static const char *next_ident(const char **pp, size_t *wn, const char *stop)
{
	const char *p = *pp;
	while (*p && (!is_ident(*p) || isdigit((unsigned char)*p))) {
		if (stop && strchr(stop, *p)) {
			*pp = p;
			return NULL;
		}
		p++;
		while (isdigit((unsigned char)p[-1]) && is_ident(*p))
			p++; /* a literal's suffix */
	}
	const char *w = p;
	while (is_ident(*p))
		p++;
	*wn = (size_t)(p - w);
	*pp = p;
	return *wn ? w : NULL;
}

typedef struct pre_stmt {
	size_t s, e;
	char name[64];
	int dep;    /* 0 nothing a thread owns, 1 the index, 2 a thread id apart from it */
	int yz;     /* reads ids along y or z only (KA_RECIPE_EW_YZ) */
	int always; /* compile-time only (compile_time_only): replayed whatever the body reads */
} pre_stmt;

/* A squeezed statement that only the compiler reads: a using-declaration
 * or directive, an alias, a typedef, a static_assert.  It runs nothing and
 * writes nothing, so it may stand before the guard; it is replayed where
 * the recipe puts the body, in its place among the declarations, since the
 * body or a later declaration may name what it declares (a name the scan
 * cannot follow through `using namespace`). */
static int compile_time_only(const char *sq)
{
	return !strncmp(sq, "using ", 6) || !strncmp(sq, "typedef ", 8) || !strncmp(sq, "static_assert(", 14);
}

/* How the squeezed initializer in of a declaration before the guard
 * depends on the thread: 2 when it reads a thread id, a local that does,
 * or a name that could (an identifier the file does not show to be a
 * parameter, a local, a type word, a pure function or a plain macro); 1
 * when it reads the index or a local of it; 0 otherwise. */
static int pre_dep(const ka_recipe_ctx *c, const char *in, const pre_stmt *st, int n, const char *var,
		   int ids_yz)
{
	static const char *const words[] = {"int",    "long",    "unsigned", "signed",  "short",
					    "char",   "float",   "double",   "bool",    "const",
					    "size_t", "int64_t", "uint64_t", "int32_t", "uint32_t",
					    "true",   "false",   "sizeof",   "nullptr", "ptrdiff_t"};
	int dep = 0;
	size_t wn;
	for (const char *p = in, *w; (w = next_ident(&p, &wn, NULL));) {
		char name[KA_CSRC_NAME];
		snprintf(name, sizeof name, "%.*s", (int)(wn < sizeof name ? wn : sizeof name - 1), w);
		if ((w > in && (w[-1] == '.' || (w[-1] == '>' && w > in + 1 && w[-2] == '-'))) ||
		    (w > in + 1 && w[-1] == ':' && w[-2] == ':') || (p[0] == ':' && p[1] == ':'))
			continue; /* a member, or a scoped name (no macro) */
		if (!strcmp(name, var)) {
			dep = dep > 1 ? dep : 1;
			continue;
		}
		int known = ka_csrc_param_index(c->k, name) >= 0 || ka_recipe_pure_function(w, wn);
		/* the ids along y and z (ids_yz_only checked): the same for every x */
		known = known || (ids_yz && (!strcmp(name, "threadIdx") || !strcmp(name, "blockIdx") ||
					     !strcmp(name, "blockDim") || !strcmp(name, "gridDim")));
		for (size_t i = 0; i < sizeof words / sizeof words[0] && !known; i++)
			known = !strcmp(words[i], name);
		for (int i = 0; i < n && !known; i++)
			if (!strcmp(st[i].name, name)) {
				known = 1;
				dep = st[i].dep > dep ? st[i].dep : dep;
			}
		if (!known && !file_macro_plain(c->m->text, c->m->len, w, wn))
			return 2;
	}
	return dep;
}

static int split_decl(char *sq, char type[160], char **name, char **init);

/* The index's initializer, squeezed, is F * G or G * F with G the global
 * thread index along x (`(blockIdx.x * blockDim.x + threadIdx.x)`, any
 * order, casts) and F an expression of no thread id that writes nothing:
 * F as written into f (so the loop steps by what the code says, whatever
 * a build's configuration folds it to), 1; 0 when it is spelled otherwise. */
static int scale_factor(const char *in, const char *t, size_t len, char *f, size_t cap)
{
	size_t n = strlen(in), star = NPOS;
	int depth = 0;
	for (size_t i = 0; i < n; i++) {
		char ch = in[i];
		if (ch == '(' || ch == '[' || ch == '{')
			depth++;
		else if (ch == ')' || ch == ']' || ch == '}')
			depth--;
		else if (depth == 0 && ch == '*' && star == NPOS && i > 0)
			star = i;
		else if (depth == 0 && strchr("*+-/%<>&|^?=,!~", ch) && i > 0 &&
			 !(ch == '>' && in[i - 1] == '-') && !(ch == '-' && in[i + 1] == '>'))
			return 0; /* another operator at the top: not one product */
	}
	if (star == NPOS || depth)
		return 0;
	for (int side = 0; side < 2; side++) {
		size_t gs = side ? star + 1 : 0, ge = side ? n : star, fs = side ? 0 : star + 1,
		       fe = side ? star : n;
		char fake[480];
		ka_recipe_tid td;
		while (ge - gs >= 2 && in[gs] == '(' && ka_csrc_match(in, ge, gs) == ge - 1)
			gs++, ge--; /* (G) */
		snprintf(fake, sizeof fake, "long long ka_g=%.*s;", (int)(ge - gs), in + gs);
		if (!ka_recipe_tid_decl(fake, 0, strlen(fake), 'x', &td) || strcmp(td.var, "ka_g"))
			continue;
		if (fe <= fs || fe - fs >= cap || thread_word(in, fs, fe) ||
		    !ka_recipe_pure_expr_in(in + fs, fe - fs, t, len))
			return 0;
		snprintf(f, cap, "%.*s", (int)(fe - fs), in + fs);
		return 1;
	}
	return 0;
}

/* A declaration before the guard, squeezed in sq, as split_decl reads it
 * (one name, into names[0]: 1), and two more: commas inside the
 * initializer's brackets (`float4 v = make_float4(a, a, a, a);`), and no
 * initializer at all (`int p;`, `float a, b;`: each name, init ""; such a
 * name holds nothing a thread owns, and a fresh one per element is the
 * fresh one per thread it was).  The number of names, 0 for no
 * declaration, -1 for one it cannot read. */
static int pre_decl(char *sq, char type[160], char **names, int max, char **init)
{
	size_t n = strlen(sq);
	int depth = 0, nested = 0;
	for (size_t i = 0; i < n; i++) {
		depth += strchr("([{", sq[i]) ? 1 : strchr(")]}", sq[i]) ? -1 : 0;
		if (sq[i] == ',' && depth > 0) {
			sq[i] = '\x01';
			nested = 1;
		}
	}
	int d = split_decl(sq, type, &names[0], init);
	for (size_t i = 0; nested && i < n; i++)
		if (sq[i] == '\x01')
			sq[i] = ',';
	if (d > 0 || strchr(sq, '=') || strpbrk(sq, "()[]{}") || n < 2 || sq[n - 1] != ';')
		return d;
	/* `TYPE NAME[, NAME...];`: identifier words (and '*'), then names */
	sq[n - 1] = 0;
	char *first = strchr(sq, ',') ? strchr(sq, ',') : sq + n - 1, *v = first;
	while (v > sq && is_ident(v[-1]))
		v--;
	if (v == first || v == sq || (v[-1] != ' ' && v[-1] != '*'))
		return d < 0 ? -1 : 0;
	for (char *p = sq; p < v; p++)
		if (!is_ident(*p) && *p != ' ' && *p != '*')
			return d < 0 ? -1 : 0;
	snprintf(type, 160, "%.*s", (int)(v - sq), sq);
	int nn = 0;
	for (char *p = v; *p && nn < max;) {
		char *q = p;
		while (is_ident(*q))
			q++;
		if (q == p || (*q && *q != ','))
			return -1;
		names[nn++] = p;
		p = *q ? q + 1 : q;
		*q = 0;
	}
	*init = sq + n - 1; /* "" */
	return nn;
}

static int model_shape(ka_recipe_ctx *c, ka_recipe_ew *sh, unsigned flags)
{
	const char *t = c->m->text;
	const ka_csrc_kernel *k = c->k;
	size_t len = c->m->len;
	static const char *const never[] = {"__shared__", "__syncthreads", "__syncwarp",
					    "asm",        "__asm__",       "__asm"};
	for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
		if (ka_csrc_has_word(t, k->body_open, k->body_close, never[i]))
			return ka_recipe_decline(
				c, "the kernel uses %s: not one independent thread per element", never[i]);
	if (!ka_csrc_has_word(t, k->body_open, k->body_close, "threadIdx") ||
	    !ka_csrc_has_word(t, k->body_open, k->body_close, "blockIdx"))
		return ka_recipe_decline(c, "the kernel does not name both threadIdx and blockIdx: no global "
					    "thread index along x");
	const ew_model *md = model_of(c);
	if (!md->built)
		return ka_recipe_decline(
			c, "the index is not first, and the kernel model could not be built: '%.120s'",
			md->reason);
	int ung = md->reason[0] && md->unguarded && (flags & KA_RECIPE_EW_UNGUARDED);
	int scaled = md->reason[0] && md->scale > 1 && (flags & KA_RECIPE_EW_SCALED);
	if (md->reason[0] && !ung && !scaled)
		return ka_recipe_decline(c, "%s", md->reason);
	memset(sh, 0, sizeof *sh);
	sh->scale = scaled ? md->scale : 0;
	snprintf(sh->var, sizeof sh->var, "%.63s", md->var);
	size_t g0 = (size_t)md->g_begin;
	char sq[1024], ty[160], *nm, *in;
	/* the index's type, as declared */
	char decl[400];
	if (ung) {
		/* no guard: the body is every statement after the index's
		 * declaration, a statement of the kernel's body itself */
		decl[0] = 0;
		g0 = NPOS;
		for (size_t s = ka_csrc_skip_blank(t, len, k->body_open + 1), e; s < k->body_close;
		     s = ka_csrc_skip_blank(t, len, e)) {
			e = ka_csrc_stmt_end(t, len, s);
			if (e == NPOS || e > k->body_close)
				break;
			if ((size_t)md->ix_begin >= s && (size_t)md->ix_begin < e) {
				g0 = e;
				break;
			}
		}
		if (g0 == NPOS)
			return ka_recipe_decline(
				c,
				"the index %s is not declared by a statement of the kernel's "
				"body itself",
				md->var);
		sh->body_s = g0;
		sh->body_e = k->body_close;
		sh->unguarded = 1;
	} else if (md->form == KM_GUARD_STRIDE) {
		char parts[3][KA_RECIPE_FOR_PART];
		int np;
		if (strncmp(t + g0, "for", 3) || ka_recipe_for_parts(c, g0, parts, &np) != KA_OK || np != 3 ||
		    !strchr(parts[0], '='))
			return ka_recipe_decline(c, "the grid-stride loop does not declare its index %s",
						 md->var);
		snprintf(decl, sizeof decl, "%.*s", (int)(strchr(parts[0], '=') - parts[0]), parts[0]);
		size_t cp = ka_csrc_match(t, len, ka_csrc_skip_blank(t, len, g0 + 3));
		sh->decl_s = g0;
		sh->decl_e = sh->body_s = cp + 1;
		sh->body_e = ka_csrc_stmt_end(t, len, g0);
		sh->stride_loop = 1;
		if (sh->body_e == NPOS || ka_csrc_skip_blank(t, len, sh->body_e) != k->body_close)
			return ka_recipe_decline(c, "statements follow the grid-stride loop");
	} else {
		decl[0] = 0;
		sh->body_s = (size_t)md->body_begin;
		sh->body_e = (size_t)md->body_end;
		if (md->form == KM_GUARD_BLOCK) {
			/* the guarded statement, as the text has it (with its `;`) */
			size_t ge = ka_csrc_stmt_end(t, len, g0), po = ka_csrc_skip_blank(t, len, g0 + 2),
			       pc = po < len && t[po] == '(' ? ka_csrc_match(t, len, po) : NPOS;
			if (strncmp(t + g0, "if", 2) || pc == NPOS || ge == NPOS || ge <= pc)
				return ka_recipe_decline(c, "cannot read the bound check");
			if (ka_csrc_skip_blank(t, len, ge) != k->body_close)
				return ka_recipe_decline(c, "statements follow the bound check");
			sh->body_s = pc + 1;
			sh->body_e = ge;
		} else {
			sh->body_e = k->body_close;
		}
	}
	/* the statements before the guard: the index, and declarations */
	pre_stmt st[KA_RECIPE_EW_REP + 8];
	int n = 0, seen = md->form == KM_GUARD_STRIDE;
	for (size_t s = ka_csrc_skip_blank(t, len, k->body_open + 1), e; s < g0;
	     s = ka_csrc_skip_blank(t, len, e)) {
		e = ka_csrc_stmt_end(t, len, s);
		if (e == NPOS || e > g0 || !ka_csrc_squeeze(t, s, e, sq, sizeof sq))
			return ka_recipe_decline(c, "cannot read the statements before the guard");
		if (compile_time_only(sq)) {
			if (n == (int)(sizeof st / sizeof st[0]))
				return ka_recipe_decline(c, "more than %d declarations before the guard", n);
			st[n++] = (pre_stmt){.s = s, .e = e, .always = 1};
			continue;
		}
		char *names[8];
		int d = pre_decl(sq, ty, names, 8, &in);
		if (d <= 0)
			return ka_recipe_decline(c, "'%.60s' before the guard is %s", sq,
						 d < 0 ? "not one name declared with a value"
						       : "no declaration");
		nm = names[0];
		if ((size_t)md->ix_begin >= s && (size_t)md->ix_begin < e && !seen) {
			if (d != 1 || strcmp(nm, md->var))
				return ka_recipe_decline(c, "cannot read the declaration of the index %s",
							 md->var);
			snprintf(decl, sizeof decl, "%s%s", ty, nm);
			if (sh->scale > 1 && !scale_factor(in, t, len, sh->scale_text, sizeof sh->scale_text))
				return ka_recipe_decline(
					c,
					"the index %s is %ld times the global thread index, but '%.80s' is not "
					"(global index) * FACTOR",
					nm, sh->scale, in);
			sh->decl_s = s;
			sh->decl_e = e;
			seen = 1;
			continue;
		}
		if (!ka_recipe_pure_expr_in(in, strlen(in), t, len))
			return ka_recipe_decline(c, "the initializer of %s, before the guard, may write", nm);
		int yz = (flags & KA_RECIPE_EW_YZ) && thread_word(t, s, e) && ids_yz_only(t, s, e);
		int dep = thread_word(t, s, e) && !yz ? 2 : pre_dep(c, in, st, n, seen ? md->var : "", yz);
		/* one entry a name; a statement of several is replayed once */
		for (int j = 0; j < d; j++, n++) {
			if (n == (int)(sizeof st / sizeof st[0]))
				return ka_recipe_decline(c, "more than %d declarations before the guard", n);
			st[n].s = s;
			st[n].e = e;
			snprintf(st[n].name, sizeof st[n].name, "%s", names[j]);
			st[n].dep = dep;
			st[n].yz = yz;
			st[n].always = 0;
		}
	}
	if (!seen)
		return ka_recipe_decline(c, "the index %s is not declared at the top of the kernel", md->var);
	/* T i: an integer of 32 bits or more, through the index reader */
	ka_recipe_tid td;
	char fake[480];
	snprintf(fake, sizeof fake, "%s=blockIdx.x*blockDim.x+threadIdx.x;", decl);
	if (!ka_recipe_tid_decl(fake, 0, strlen(fake), 'x', &td) || strcmp(td.var, md->var))
		return ka_recipe_decline(c, "the index '%s' is not an integer of 32 bits or more", decl);
	snprintf(sh->type, sizeof sh->type, "%s", td.type);
	snprintf(sh->base, sizeof sh->base, "%s", td.base);
	/* the bound: a parameter, or a product of them (from the model); none
	 * guards an unguarded index, whose count the launches pass in */
	if (ung) {
		ka_recipe_unused_name(c, "ka_n", sh->count, sizeof sh->count);
	} else if (md->bound_param && ka_csrc_param_index(k, md->bound) >= 0) {
		snprintf(sh->count, sizeof sh->count, "%.127s", md->bound);
	} else if ((flags & KA_RECIPE_EW_MEMBER) && member_bound(c, md->bound, sh->count, sizeof sh->count)) {
		/* a member of a parameter: (size.y) */
	} else {
		ka_recipe_poly p;
		char expr[240];
		if (!md->value[0] || !ka_recipe_poly_read(md->value, NULL, &p) ||
		    !ka_recipe_poly_c(&p, expr, sizeof expr))
			return ka_recipe_decline(
				c, "the bound '%.80s' of %s is not a parameter nor a product of them",
				md->bound, md->var);
		snprintf(sh->count, sizeof sh->count, "(%s)", expr);
	}
	/* the count must stay what the guard read */
	static char body[16384];
	if (!ka_csrc_squeeze(t, k->body_open, k->body_close + 1, body, sizeof body))
		return ka_recipe_decline(c, "the body is too long");
	for (int p = 0; p < k->nparams; p++)
		if (ka_csrc_has_word(sh->count, 0, strlen(sh->count), k->params[p].name) &&
		    assigned(body, k->params[p].name))
			return ka_recipe_decline(c, "the kernel assigns %s, which the bound reads",
						 k->params[p].name);
	/* which declarations the body reads, through one another: replayed;
	 * one of a thread id apart from the index may not be read */
	int rep[KA_RECIPE_EW_REP + 8] = {0};
	for (int i = n - 1; i >= 0; i--) {
		int read = st[i].always || ka_csrc_has_word(t, sh->body_s, sh->body_e, st[i].name);
		for (int j = i + 1; j < n && !read; j++)
			read = rep[j] && !st[j].always && ka_csrc_has_word(t, st[j].s, st[j].e, st[i].name);
		if (!read)
			continue;
		if (st[i].dep == 2)
			return ka_recipe_decline(
				c,
				"the body reads %s, which depends on the thread apart from the index %s (or on a name "
				"the file does not define)",
				st[i].name, sh->var);
		rep[i] = 1;
	}
	for (int i = 0; i < n; i++) {
		int again = 0; /* a statement of several names: once */
		for (int j = 0; j < i && !again; j++)
			again = rep[j] && st[j].s == st[i].s;
		if (rep[i] && !again) {
			if (sh->nrep == KA_RECIPE_EW_REP)
				return ka_recipe_decline(c, "more than %d declarations to replay",
							 KA_RECIPE_EW_REP);
			sh->rep_s[sh->nrep] = st[i].s;
			sh->rep_e[sh->nrep++] = st[i].e;
			sh->yz |= st[i].yz;
		}
	}
	/* a grid-stride loop the kernel has: a declaration before it lives
	 * across the thread's elements, and one the body writes (a counter,
	 * the previous element) would start again at each element */
	static char lb[16384];
	if (sh->stride_loop && sh->nrep && !ka_csrc_squeeze(t, sh->body_s, sh->body_e, lb, sizeof lb))
		return ka_recipe_decline(c, "the body is too long");
	for (int i = 0; i < n && sh->stride_loop; i++) {
		if (st[i].always)
			continue;
		char amp[80];
		snprintf(amp, sizeof amp, "&%s", st[i].name);
		if (rep[i] && (assigned(lb, st[i].name) || strstr(lb, amp)))
			return ka_recipe_decline(
				c,
				"a grid-stride loop whose body writes %s, declared before the loop (its "
				"value carries from one element to the next)",
				st[i].name);
	}
	return KA_OK;
}

void ka_recipe_ew_replay(ka_buf *b, const ka_recipe_ctx *c, const ka_recipe_ew *sh, const char *indent)
{
	for (int i = 0; i < sh->nrep; i++) {
		ka_buf_add(b, c->m->text + sh->rep_s[i], sh->rep_e[i] - sh->rep_s[i]);
		ka_buf_adds(b, "\n");
		ka_buf_adds(b, indent);
	}
}

int ka_recipe_ew_replay_reads(const ka_recipe_ctx *c, const ka_recipe_ew *sh, const char *name)
{
	for (int i = 0; i < sh->nrep; i++)
		if (ka_csrc_has_word(c->m->text, sh->rep_s[i], sh->rep_e[i], name))
			return 1;
	return 0;
}

static int text_shape(ka_recipe_ctx *c, ka_recipe_ew *sh, unsigned flags)
{
	const char *t = c->m->text;
	size_t len = c->m->len, close = c->k->body_close;
	size_t s0 = ka_csrc_skip_blank(t, len, c->k->body_open + 1), e0 = ka_csrc_stmt_end(t, len, s0);
	ka_recipe_tid d;
	sh->pre_s = sh->pre_e = 0;
	sh->stride_loop = 0;
	if (e0 == NPOS || e0 > close)
		return ka_recipe_decline(c, "cannot read the kernel's first statement");
	if (!ka_recipe_tid_decl(t, s0, e0, 'x', &d)) {
		int rc = stride_loop_shape(c, sh);
		if (rc == NOT_A_LOOP)
			return ka_recipe_decline(c,
						 "the first statement is not a global thread index along x");
		if (rc == KA_RECIPE_DECLINED) {
			char why[sizeof c->why];
			snprintf(why, sizeof why, "%s", c->why);
			return ka_recipe_decline(c, "a grid-stride loop: %.200s", why);
		}
		return rc;
	}
	snprintf(sh->var, sizeof sh->var, "%s", d.var);
	snprintf(sh->type, sizeof sh->type, "%s", d.type);
	snprintf(sh->base, sizeof sh->base, "%s", d.base);
	sh->decl_s = s0;
	sh->decl_e = e0;
	sh->pre_s = sh->pre_e = e0;
	size_t s1 = ka_csrc_skip_blank(t, len, e0), e1 = ka_csrc_stmt_end(t, len, s1);
	static ka_recipe_poly_defs pre;
	pre.n = 0;
	/* locals of parameters before the guard (`int N = B * T * C;`) */
	while ((flags & KA_RECIPE_EW_PRODUCT) && e1 != NPOS && e1 <= close && strncmp(t + s1, "if", 2) &&
	       param_local(t, s1, e1, c->k, &pre)) {
		sh->pre_e = e1;
		s1 = ka_csrc_skip_blank(t, len, e1);
		e1 = ka_csrc_stmt_end(t, len, s1);
	}
	if (e1 == NPOS || e1 > close || strncmp(t + s1, "if", 2)) {
		/* the index may be the start of a grid-stride loop */
		sh->pre_s = sh->pre_e = 0;
		int rc = stride_loop_shape(c, sh);
		if (rc == KA_OK)
			return KA_OK;
		if (rc < 0)
			return rc;
		if (rc == KA_RECIPE_DECLINED) {
			char why[sizeof c->why];
			snprintf(why, sizeof why, "%s", c->why);
			return ka_recipe_decline(
				c, "no bound check after the index (a grid-stride loop: %.180s)", why);
		}
		return ka_recipe_decline(c, "no bound check after the index");
	}
	size_t po = ka_csrc_skip_blank(t, len, s1 + 2), pc = ka_csrc_match(t, len, po);
	char cond[160];
	if (t[po] != '(' || pc == NPOS || !ka_csrc_squeeze(t, po + 1, pc, cond, sizeof cond))
		return ka_recipe_decline(c, "cannot read the bound check");
	size_t vl = strlen(sh->var);
	int lt = !strncmp(cond, sh->var, vl) && cond[vl] == '<' && cond[vl + 1] != '=';
	int ge = !strncmp(cond, sh->var, vl) && cond[vl] == '>' && cond[vl + 1] == '=';
	snprintf(sh->count, sizeof sh->count, "%s", cond + vl + (lt ? 1 : 2));
	if ((lt || ge) && ka_csrc_param_index(c->k, sh->count) < 0 && (flags & KA_RECIPE_EW_PRODUCT)) {
		int rc = product_bound(c, sh, lt, cond, flags);
		if (rc)
			return rc;
	} else if ((!lt && !ge) || ka_csrc_param_index(c->k, sh->count) < 0) {
		return ka_recipe_decline(c, "the bound '%s' is not `%s < PARAM`", cond, sh->var);
	}
	if (lt) {
		if (ka_csrc_skip_blank(t, len, e1) != close)
			return ka_recipe_decline(c, "statements follow the bound check");
		sh->body_s = pc + 1;
		sh->body_e = e1;
	} else {
		if (!ka_recipe_bare_return(t, pc + 1, e1))
			return ka_recipe_decline(c, "the bound check does more than return");
		sh->body_s = e1;
		sh->body_e = close;
	}
	return KA_OK;
}

int ka_recipe_ew_shape_ex(ka_recipe_ctx *c, ka_recipe_ew *sh, unsigned flags)
{
	sh->nrep = 0;
	sh->scale = 0;
	sh->unguarded = 0;
	sh->returns = 0;
	sh->yz = 0;
	int rc = text_shape(c, sh, flags);
	char why[sizeof c->why];
	int named = 0;
	if (rc == KA_RECIPE_DECLINED && (flags & KA_RECIPE_EW_MODEL)) {
		/* another order or spelling: the kernel model's reading */
		snprintf(why, sizeof why, "%s", c->why);
		named = strncmp(why, "the first statement is not a global thread index along x", 56) &&
			strncmp(why, "no bound check after the index", 30);
		rc = model_shape(c, sh, flags);
		/* the text's reason where it names the construct, the model's
		 * where the text only saw another order */
		if (rc == KA_RECIPE_DECLINED && named)
			snprintf(c->why, sizeof c->why, "%s", why);
	}
	if (rc)
		return rc;
	rc = body_checks(c, sh, flags);
	/* a guard the text read but the model did not (`if (i >= n) { y[0] =
	 * lo; return; }`) leaves the model an unguarded kernel whose body then
	 * declines on its `return`: the text's reason names the construct */
	if (rc == KA_RECIPE_DECLINED && sh->unguarded && named)
		snprintf(c->why, sizeof c->why, "%s", why);
	return rc;
}

/* 1 when the '[' at i opens a lambda, its body the braces [*bo, *bc]: the
 * introducer stands where an expression starts (after = ( , { ; : ? or
 * return; a subscript follows a name, ')' or ']'; `[[` opens an
 * attribute), its ']' is followed by a parameter list or the body, and
 * between the list and the body stand only words, `::`, `<>`, `*`, `&` and
 * `->` (specifiers, a trailing return type).  Anything else is no lambda. */
static int lambda_at(const char *t, size_t s, size_t e, size_t i, size_t *bo, size_t *bc)
{
	size_t p = i;
	while (p > s && isspace((unsigned char)t[p - 1]))
		p--;
	int starts = p == s || strchr("=(,{;:?", t[p - 1]) ||
		     (p >= s + 6 && !memcmp(t + p - 6, "return", 6) && (p - 6 == s || !is_ident(t[p - 7])));
	if (!starts || (i + 1 < e && t[i + 1] == '['))
		return 0;
	size_t m = ka_csrc_match(t, e, i);
	if (m == NPOS)
		return 0;
	size_t q = ka_csrc_skip_blank(t, e, m + 1);
	if (q < e && t[q] == '(') {
		size_t r = ka_csrc_match(t, e, q);
		if (r == NPOS)
			return 0;
		for (q = r + 1; q < e && t[q] != '{'; q++)
			if (!is_ident(t[q]) && !isspace((unsigned char)t[q]) && !strchr(":<>*&-", t[q]))
				return 0;
	}
	if (q >= e || t[q] != '{' || (*bc = ka_csrc_match(t, e, q)) == NPOS)
		return 0;
	*bo = q;
	return 1;
}

/* 1 when word occurs in [s, e) outside every lambda's body: a `return` in
 * a lambda ends the lambda's call, not the thread. */
static int word_outside_lambdas(const char *t, size_t s, size_t e, const char *word)
{
	for (size_t at = ka_csrc_find_word_pp(t, s, e, word); at != NPOS;
	     at = ka_csrc_find_word_pp(t, at + 1, e, word)) {
		int inside = 0;
		for (size_t i = s, bo, bc; i < at && !inside; i++) {
			size_t j = ka_csrc_skip_lexeme(t, e, i);
			if (j != i)
				i = j - 1;
			else if (t[i] == '[' && lambda_at(t, s, e, i, &bo, &bc) && bo < at && at < bc)
				inside = 1;
		}
		if (!inside)
			return 1;
	}
	return 0;
}

static int body_checks(ka_recipe_ctx *c, ka_recipe_ew *sh, unsigned flags)
{
	const char *t = c->m->text;
	static char sq[16384];
	if (!ka_csrc_squeeze(t, sh->body_s, sh->body_e, sq, sizeof sq))
		return ka_recipe_decline(c, "the body is too long");
	/* inline asm could read %tid, %ctaid or %laneid, which a loop changes */
	static const char *const banned[] = {
		"threadIdx", "blockIdx", "blockDim", "gridDim",    "__syncthreads", "__shared__", "return",
		"break",     "continue", "goto",     "__syncwarp", "asm",           "__asm__",    "__asm"};
	sh->returns = 0;
	int yz_ok = (flags & KA_RECIPE_EW_YZ) && ids_yz_only(t, sh->body_s, sh->body_e);
	for (size_t i = 0; i < sizeof banned / sizeof banned[0]; i++) {
		if (!ka_csrc_has_word(t, sh->body_s, sh->body_e, banned[i]))
			continue;
		if (i < 4 && yz_ok) {
			sh->yz = 1; /* along y or z: the loop along x leaves it */
			continue;
		}
		/* a break or continue of the original's body is a loop's or a
		 * switch's inside it (none holds one element a thread), or the
		 * grid-stride loop's it has, which the new loop takes the place of */
		if ((!strcmp(banned[i], "break") || !strcmp(banned[i], "continue")) &&
		    (flags & KA_RECIPE_EW_RETURN))
			continue;
		if (!strcmp(banned[i], "return") &&
		    !word_outside_lambdas(t, sh->body_s, sh->body_e, "return"))
			continue; /* a lambda's own */
		if (!strcmp(banned[i], "return") && (flags & KA_RECIPE_EW_RETURN) && !sh->stride_loop &&
		    ka_recipe_return_as_continue(t, sh->body_s, sh->body_e)) {
			sh->returns = 1;
			continue;
		}
		return ka_recipe_decline(c, "the body uses %s", banned[i]);
	}
	if (assigned(sq, sh->var))
		return ka_recipe_decline(c, "the body assigns the index %s", sh->var);
	/* a parameter the body moves (`id += x;` before a walk down a column)
	 * would carry one element's value into the thread's next element */
	for (int p = 0; p < c->k->nparams && !(flags & KA_RECIPE_EW_ONE); p++)
		if (c->k->params[p].name[0] && moved(sq, c->k->params[p].name))
			return ka_recipe_decline(c,
						 "the body assigns the parameter %s (a thread's next element "
						 "would start from its new value)",
						 c->k->params[p].name);
	static ka_recipe_poly_defs d;
	d.n = 0;
	for (size_t s = ka_csrc_skip_blank(t, sh->pre_e, sh->pre_s), e; s < sh->pre_e;
	     s = ka_csrc_skip_blank(t, sh->pre_e, e)) {
		e = ka_csrc_stmt_end(t, sh->pre_e, s);
		if (e == NPOS || !param_local(t, s, e, c->k, &d))
			break;
		if (assigned(sq, d.name[d.n - 1]))
			return ka_recipe_decline(c, "the body assigns %s, declared before the guard",
						 d.name[d.n - 1]);
	}
	if (c->k->has_launch_bounds)
		return ka_recipe_decline(c, "it has __launch_bounds__ already");
	return KA_OK;
}

/* The guarded statements as one braced statement: kept as they are only
 * when one block spans them all (`{ a; } b;` is two statements). */
void ka_recipe_add_body(ka_buf *b, const char *t, size_t s, size_t e)
{
	size_t i = ka_csrc_skip_blank(t, e, s), c = i < e && t[i] == '{' ? ka_csrc_match(t, e, i) : NPOS;
	size_t w = s; /* the blanks before a braced body go (not a comment) */
	while (w < i && isspace((unsigned char)t[w]))
		w++;
	if (c != NPOS && ka_csrc_skip_blank(t, e, c + 1) == e)
		ka_buf_add(b, t + w, e - w);
	else {
		ka_buf_adds(b, "{");
		ka_buf_add(b, t + s, e - s);
		ka_buf_adds(b, " }");
	}
}

/* ---- a return in the body, as continue ----
 * A thread of the original did one element and a bare `return;` ended it;
 * in a loop over the elements the same statement would end the thread's
 * later elements too, so the loop writes it `continue;`.  That reads the
 * same only where no loop of the body holds the return (its `continue`
 * would be that loop's), nor a switch or a lambda (whose return is its
 * own), so such a body still declines. */
int ka_recipe_return_as_continue(const char *t, size_t s, size_t e)
{
	if (ka_csrc_has_word(t, s, e, "switch"))
		return 0;
	for (size_t at = ka_csrc_find_word_pp(t, s, e, "return"); at != NPOS;
	     at = ka_csrc_find_word_pp(t, at + 6, e, "return")) {
		size_t p = ka_csrc_skip_blank(t, e, at + 6);
		if (p >= e || t[p] != ';')
			return 0;
	}
	static const char *const loops[] = {"for", "while", "do"};
	for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
		size_t n = strlen(loops[i]);
		for (size_t at = ka_csrc_find_word_pp(t, s, e, loops[i]); at != NPOS;
		     at = ka_csrc_find_word_pp(t, at + n, e, loops[i])) {
			size_t end = ka_csrc_stmt_end(t, e, at);
			if (end == NPOS || ka_csrc_find_word_pp(t, at, end, "return") != NPOS)
				return 0;
		}
	}
	/* a lambda's introducer: `[](`, `[=]`, `[&`, `](` squeezed */
	static char sq[16384];
	if (!ka_csrc_squeeze(t, s, e, sq, sizeof sq))
		return 0;
	return !strstr(sq, "](") && !strstr(sq, "[=") && !strstr(sq, "[&") && !strstr(sq, "[]");
}

void ka_recipe_add_body_continue(ka_buf *b, const char *t, size_t s, size_t e)
{
	ka_buf tmp;
	ka_buf_init(&tmp, 1 << 20);
	size_t from = s;
	for (size_t at = ka_csrc_find_word_pp(t, s, e, "return"); at != NPOS;
	     at = ka_csrc_find_word_pp(t, at + 6, e, "return")) {
		ka_buf_add(&tmp, t + from, at - from);
		ka_buf_adds(&tmp, "continue");
		from = at + 6;
	}
	ka_buf_add(&tmp, t + from, e - from);
	ka_recipe_add_body(b, tmp.data ? tmp.data : "", 0, tmp.data ? tmp.len : 0);
	ka_buf_free(&tmp);
}

static int add_launch_bounds(ka_recipe_ctx *c, ka_recipe_edits *ed, long block)
{
	char lb[64];
	snprintf(lb, sizeof lb, "__launch_bounds__(%ld) ", block);
	return ka_recipe_edit(ed, c->k->name_at, c->k->name_at, lb);
}

static int finish_edits(ka_recipe_ctx *c, ka_recipe_edits *ed, ka_buf *body, const ew_shape *sh, long vec,
			ka_buf *out)
{
	long block = ka_recipe_param(c->params, "block", 256), cap = ka_recipe_param(c->params, "cap", 2112);
	if (block < 32 || block > 1024 || block % 32 || cap < 1 || cap > 65535)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	char grid[256], bs[32];
	long per = vec * (sh->scale > 1 ? sh->scale : 1); /* elements a thread takes at once */
	snprintf(grid, sizeof grid, "(unsigned)((@N / %ld + %ld) / %ld < %ld ? (@N / %ld + %ld) / %ld : %ld)",
		 per, block, block, cap, per, block, block, cap);
	snprintf(bs, sizeof bs, "%ld", block);
	int rc = body->data ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK)
		rc = ka_recipe_edit(ed, c->k->body_open, c->k->body_close + 1, body->data);
	if (rc == KA_OK && sh->unguarded) {
		/* the launches keep their blocks (the count is their threads) */
		rc = ka_recipe_relaunch_threads(c, ed, sh->count, vec, cap);
	} else if (rc == KA_OK && vec == 1 && sh->yz) {
		/* the body reads the launch's y or z: its blocks and grids stay
		 * but for the cap along x (a loop over the grid already would
		 * gain only that cap) */
		rc = sh->stride_loop
			     ? ka_recipe_decline(c, "a grid-stride loop already, reading ids along y or z")
			     : ka_recipe_relaunch_cap(c, ed, cap);
	} else if (rc == KA_OK && vec == 1 && ka_recipe_launches_known(c) == KA_RECIPE_DECLINED) {
		/* a launch it cannot read (cudaLaunchKernel, a function pointer, an
		 * occupancy query) keeps its block: no launch bounds, and the
		 * launches it reads keep theirs and cap their grid; a kernel that
		 * loops over the grid already would gain only that cap */
		char why[sizeof c->why];
		snprintf(why, sizeof why, "%s", c->why);
		rc = sh->stride_loop ? ka_recipe_decline(c, "%s", why) : ka_recipe_relaunch_cap(c, ed, cap);
	} else {
		if (rc == KA_OK)
			rc = add_launch_bounds(c, ed, block);
		if (rc == KA_OK)
			rc = ka_recipe_relaunch(c, ed, sh->count, grid, bs);
	}
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(ed, c->m->text, c->m->len, out);
	return rc;
}

/* The new body (freed here), the launch bounds and the launches' new grid
 * applied to the file into out. */
static int finish(ka_recipe_ctx *c, ka_buf *body, const ew_shape *sh, long vec, ka_buf *out)
{
	ka_recipe_edits ed = {0};
	int rc = finish_edits(c, &ed, body, sh, vec, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(body);
	return rc;
}

void ka_recipe_ew_loop(ka_buf *b, const ka_recipe_ctx *c, const ka_recipe_ew *sh, const char *first)
{
	char e[16];
	ka_recipe_unused_name(c, "ka_e", e, sizeof e);
	if (sh->scale > 1) /* K elements a thread: from K times its index, by K times the grid */
		ka_buf_printf(b,
			      "for (long long %s = (%s) * (long long)(%s); %s < %s; %s += ka_step * (long "
			      "long)(%s)) {\n\t\t%s %s = %s;\n\t\t",
			      e, first, sh->scale_text, e, sh->count, e, sh->scale_text, sh->type, sh->var,
			      e);
	else
		ka_buf_printf(b, "for (long long %s = %s; %s < %s; %s += ka_step) {\n\t\t%s %s = %s;\n\t\t",
			      e, first, e, sh->count, e, sh->type, sh->var, e);
	ka_recipe_ew_replay(b, c, sh, "\t\t");
	if (sh->returns)
		ka_recipe_add_body_continue(b, c->m->text, sh->body_s, sh->body_e);
	else
		ka_recipe_add_body(b, c->m->text, sh->body_s, sh->body_e);
	ka_buf_adds(b, "\n\t}");
}

/* ---- grid-stride over x and y ----
 *
 * A kernel whose first statements are the x and y global thread indices
 * (ka_recipe_2d_shape: `if (x < W && y < H) BODY` last, `if (x >= W || y >=
 * H) return;`, or no guard it reads, one point per launched thread) gets
 * two nested loops, y outside and x inside, each from the thread's global
 * index by the grid's threads along its axis, up to the bound (W and H, or
 * the launch's threads along x and y passed in as ka_nx and ka_ny).  Each
 * (x, y) below the bounds is then done once per z layer, whatever the
 * grid, so the launches keep their blocks and cap their grids
 * (ka_recipe_relaunch_threads_2d).  BODY may not use a thread or block id
 * (but along z) or goto, nor assign an index or a bound; its break and
 * continue are its own loops' (none holds BODY); a `return;`
 * becomes the inner loop's `continue;` when no loop of BODY holds it
 * (ka_recipe_return_as_continue). */
static int grid_stride_2d(ka_recipe_ctx *c, ka_buf *out)
{
	ka_recipe_2d sh;
	int rc = ka_recipe_2d_shape_ex(c, &sh, KA_RECIPE_2D_UNGUARDED | KA_RECIPE_2D_Z);
	if (rc)
		return rc;
	const char *t = c->m->text;
	/* break and continue: a loop's or switch's of BODY (none holds BODY) */
	static const char *const banned[] = {"return", "goto"};
	int returns = 0;
	for (size_t i = 0; i < sizeof banned / sizeof banned[0]; i++)
		if (ka_csrc_has_word(t, sh.body_s, sh.body_e, banned[i])) {
			if (i == 0 && ka_recipe_return_as_continue(t, sh.body_s, sh.body_e)) {
				returns = 1; /* the inner loop's continue: this (x, y) is done */
				continue;
			}
			if (sh.unguarded)
				return ka_recipe_decline(c, "a 2-D index: the body uses %s (and %.150s)",
							 banned[i], sh.why);
			return ka_recipe_decline(c, "a 2-D index: the body uses %s", banned[i]);
		}
	static char sq[16384];
	if (!ka_csrc_squeeze(t, sh.body_s, sh.body_e, sq, sizeof sq))
		return ka_recipe_decline(c, "a 2-D index: the body is too long");
	const char *fixed[] = {sh.j, sh.i, sh.w, sh.h};
	for (int i = 0; i < 4; i++)
		if (fixed[i][0] && assigned(sq, fixed[i]))
			return ka_recipe_decline(c, "a 2-D index: the body assigns %s, %s", fixed[i],
						 i < 2 ? "an index" : "which a bound reads");
	long cap = ka_recipe_param(c->params, "cap", 2112);
	if (cap < 1 || cap > 65535)
		return ka_recipe_decline(c, "bad parameters '%s'", c->params);
	char ex[16], ey[16], sx[16], sy[16], nx[16], ny[16];
	ka_recipe_unused_name(c, "ka_ex", ex, sizeof ex);
	ka_recipe_unused_name(c, "ka_ey", ey, sizeof ey);
	ka_recipe_unused_name(c, "ka_sx", sx, sizeof sx);
	ka_recipe_unused_name(c, "ka_sy", sy, sizeof sy);
	ka_recipe_unused_name(c, "ka_nx", nx, sizeof nx);
	ka_recipe_unused_name(c, "ka_ny", ny, sizeof ny);
	const char *bw = sh.unguarded ? nx : sh.w, *bh = sh.unguarded ? ny : sh.h;
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_printf(
		&b,
		"{\n\tconst long long %s = (long long)gridDim.x * blockDim.x, %s = (long long)gridDim.y * "
		"blockDim.y;\n",
		sx, sy);
	ka_buf_printf(
		&b,
		"\tfor (long long %s = blockIdx.y * (long long)blockDim.y + threadIdx.y; %s < %s; %s += %s)\n",
		ey, ey, bh, ey, sy);
	ka_buf_printf(
		&b,
		"\t\tfor (long long %s = blockIdx.x * (long long)blockDim.x + threadIdx.x; %s < %s; %s += "
		"%s) {\n\t\t\t%s %s = %s;\n\t\t\t%s %s = %s;\n\t\t\t",
		ex, ex, bw, ex, sx, sh.jtype, sh.j, ex, sh.itype, sh.i, ey);
	if (returns)
		ka_recipe_add_body_continue(&b, t, sh.body_s, sh.body_e);
	else
		ka_recipe_add_body(&b, t, sh.body_s, sh.body_e);
	ka_buf_adds(&b, "\n\t\t}\n}");
	ka_recipe_edits ed = {0};
	rc = b.data ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK)
		rc = ka_recipe_edit(&ed, c->k->body_open, c->k->body_close + 1, b.data);
	if (rc == KA_OK)
		rc = ka_recipe_relaunch_threads_2d(c, &ed, sh.unguarded ? nx : NULL, sh.unguarded ? ny : NULL,
						   cap);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, c->m->len, out);
	ka_recipe_edits_free(&ed);
	ka_buf_free(&b);
	return rc;
}

static int grid_stride_apply(ka_recipe_ctx *c, ka_buf *out)
{
	ew_shape sh;
	int rc = ka_recipe_ew_shape_ex(c, &sh,
				       KA_RECIPE_EW_PRODUCT | KA_RECIPE_EW_MODEL | KA_RECIPE_EW_UNGUARDED |
					       KA_RECIPE_EW_RETURN | KA_RECIPE_EW_MEMBER | KA_RECIPE_EW_YZ |
					       KA_RECIPE_EW_SCALED);
	if (rc == KA_RECIPE_DECLINED) {
		/* not one element per thread along x: x and y indices, then? */
		char why[sizeof c->why];
		snprintf(why, sizeof why, "%s", c->why);
		rc = grid_stride_2d(c, out);
		if (rc == KA_RECIPE_DECLINED &&
		    !strcmp(c->why, "the first statements are not the x and y thread indices"))
			snprintf(c->why, sizeof c->why, "%s", why);
		return rc;
	}
	if (rc)
		return rc;
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_adds(&b, "{\n\tconst long long ka_step = (long long)gridDim.x * blockDim.x;\n");
	ka_recipe_ew_pre(&b, c, &sh);
	ka_buf_addc(&b, '\t');
	ka_recipe_ew_loop(&b, c, &sh, "blockIdx.x * (long long)blockDim.x + threadIdx.x");
	ka_buf_adds(&b, "\n}");
	return finish(c, &b, &sh, 1, out);
}

enum { USE_READ, USE_STORE, USE_UPDATE, USE_UNKNOWN };

/* How the body uses the element at q (squeezed text sq, `p[var]` n bytes
 * long): a load, the left side of a plain '=', a read-modify-write (op=,
 * ++, --), or something a float4 copy could not stand for: its address
 * (&p[i], an atomic, an out-parameter), a member, and for a writable
 * pointer a whole call argument (a reference parameter), a ternary operand
 * or a reference's initializer. */
static int use_of(const char *sq, const char *q, size_t n, int is_const)
{
	char b1 = q > sq ? q[-1] : ';', b2 = q > sq + 1 ? q[-2] : ';';
	const char *a = q + n;
	if ((b1 == '&' && b2 != '&') || b1 == '.' || (b1 == '>' && b2 == '-'))
		return USE_UNKNOWN;
	if ((b1 == '+' && b2 == '+') || (b1 == '-' && b2 == '-') || (a[0] == '+' && a[1] == '+') ||
	    (a[0] == '-' && a[1] == '-'))
		return USE_UPDATE;
	if (a[0] == '=' && a[1] != '=')
		return USE_STORE;
	if ((strchr("+-*/%&|^", a[0]) && a[1] == '=') ||
	    ((a[0] == '<' || a[0] == '>') && a[1] == a[0] && a[2] == '='))
		return USE_UPDATE;
	if (is_const)
		return USE_READ;
	if ((strchr("(,{?:", b1) && strchr("),}:", a[0])) || b1 == '?' || b1 == ':')
		return USE_UNKNOWN;
	if (b1 == '=') { /* `float &r = p[i];` */
		const char *st = q - 1;
		while (st > sq && !strchr(";{}", st[-1]))
			st--;
		for (const char *x = st; x < q - 1; x++)
			if (*x == '&' && x[1] != '&' && (x == st || x[-1] != '&'))
				return USE_UNKNOWN;
	}
	return USE_READ;
}

/* 1 when the first statement that uses p[var] stores it with a plain '='
 * and reads no p: the float4 need not be loaded first. */
static int stored_first(const char *sq, const char *q, size_t n, const char *name)
{
	if (q > sq && !strchr(";{}", q[-1]))
		return 0;
	if (q[n] != '=' || q[n + 1] == '=')
		return 0;
	size_t e = strcspn(q + n, ";");
	return !ka_csrc_has_word(q + n, 0, e, name);
}

/* 1 when every path through the statements [s, e) stores `acc` (p[i]) with
 * a plain '=': one top-level statement does, or an if/else both of whose
 * branches do. */
static int stores_on_every_path(const char *t, size_t s, size_t e, const char *acc)
{
	size_t al = strlen(acc);
	for (size_t i = ka_csrc_skip_blank(t, e, s); i < e; i = ka_csrc_skip_blank(t, e, i)) {
		size_t se = ka_csrc_stmt_end(t, e, i);
		char sq[512];
		if (se == NPOS)
			return 0;
		if (t[i] == '{') {
			size_t cb = ka_csrc_match(t, e, i);
			if (cb != NPOS && stores_on_every_path(t, i + 1, cb, acc))
				return 1;
		} else if (ka_csrc_squeeze(t, i, se < i + 500 ? se : i + 500, sq, sizeof sq) &&
			   !strncmp(sq, acc, al) && sq[al] == '=' && sq[al + 1] != '=') {
			return 1;
		} else if (!strncmp(t + i, "if", 2) && !is_ident(t[i + 2])) {
			size_t po = ka_csrc_skip_blank(t, e, i + 2), pc = ka_csrc_match(t, e, po);
			size_t s1 = pc == NPOS ? NPOS : ka_csrc_skip_blank(t, e, pc + 1);
			size_t e1 = s1 == NPOS ? NPOS : ka_csrc_stmt_end(t, e, s1);
			size_t el = e1 == NPOS ? NPOS : ka_csrc_skip_blank(t, e, e1);
			if (el != NPOS && el + 4 <= se && !strncmp(t + el, "else", 4) &&
			    !is_ident(t[el + 4]) && stores_on_every_path(t, s1, e1, acc) &&
			    stores_on_every_path(t, el + 4, se, acc))
				return 1;
		}
		i = se;
	}
	return 0;
}

/* The vector type of four elements of a pointer's element type (its
 * declared type without const, __restrict__ and __restrict, squeezed), or
 * NULL. */
static const char *vector_of(const char *tq)
{
	static const char *const map[][2] = {{"float*", "float4"},   {"int*", "int4"},
					     {"unsigned*", "uint4"}, {"unsignedint*", "uint4"},
					     {"uint32_t*", "uint4"}, {"int32_t*", "int4"}};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strcmp(tq, map[i][0]))
			return map[i][1];
	return NULL;
}

/* The pointers to 4-byte elements (float, int, unsigned) whose every use
 * in the body is `p[var]`, their vector types, and of them the ones the
 * body writes and the ones the vector loop must load: a pointer written
 * only by plain stores on every path is not loaded; one the body may
 * leave alone on some path (a branch) is loaded first, so that the lanes
 * it leaves are written back as they were. */
static int vector_params(ka_recipe_ctx *c, const ew_shape *sh, int *vec, int *written, int *load,
			 const char **vtype)
{
	const char *t = c->m->text;
	static char sq[16384];
	ka_csrc_squeeze(t, sh->body_s, sh->body_e, sq, sizeof sq);
	int straight = !strstr(sq, "if(") && !strchr(sq, '?') && !strstr(sq, "for(") &&
		       !strstr(sq, "while(") && !strstr(sq, "switch(") && !strstr(sq, "&&") &&
		       !strstr(sq, "||");
	int n = 0;
	for (int p = 0; p < c->k->nparams; p++) {
		const ka_csrc_param *pa = &c->k->params[p];
		char ty[160], acc[200];
		snprintf(ty, sizeof ty, "%s", pa->type);
		for (char *q; (q = strstr(ty, "__restrict__"));)
			memmove(q, q + 12, strlen(q + 12) + 1);
		for (char *q; (q = strstr(ty, "__restrict"));) /* the short spelling */
			memmove(q, q + 10, strlen(q + 10) + 1);
		for (char *q; (q = strstr(ty, "const"));)
			memmove(q, q + 5, strlen(q + 5) + 1);
		char tq[160];
		ka_csrc_squeeze(ty, 0, strlen(ty), tq, sizeof tq);
		for (char *q; (q = strchr(tq, ' '));)
			memmove(q, q + 1, strlen(q + 1) + 1);
		vec[p] = written[p] = load[p] = 0;
		vtype[p] = vector_of(tq);
		int uses = ka_csrc_count_word(t, sh->body_s, sh->body_e, pa->name);
		if (!vtype[p] || !uses || ka_recipe_ew_replay_reads(c, sh, pa->name))
			continue;
		snprintf(acc, sizeof acc, "%s[%s]", pa->name, sh->var);
		size_t al = strlen(acc);
		int hits = 0, w = 0, unknown = 0, reads = 0;
		const char *first = NULL;
		for (const char *q = strstr(sq, acc); q; q = strstr(q + 1, acc)) {
			if (q > sq && is_ident(q[-1]))
				continue;
			first = first ? first : q;
			hits++;
			int u = use_of(sq, q, al, pa->is_const);
			unknown |= u == USE_UNKNOWN;
			w |= u == USE_STORE || u == USE_UPDATE;
			reads |= u != USE_STORE;
		}
		if (hits != uses || unknown || (w && pa->is_const))
			continue;
		vec[p] = 1;
		written[p] = w;
		if (!w)
			load[p] = 1;
		else if (straight)
			load[p] = !stored_first(sq, first, al, pa->name);
		else
			load[p] = reads || !stores_on_every_path(t, sh->body_s, sh->body_e, acc);
		n++;
	}
	return n;
}

void ka_recipe_ew_subst(ka_buf *b, const ka_recipe_ctx *c, const ka_recipe_ew *sh, const int *which,
			const char *suffix)
{
	const char *t = c->m->text;
	size_t i = sh->body_s, e = sh->body_e, from = i;
	while (i < e) {
		if (!is_ident(t[i]) || (i > sh->body_s && is_ident(t[i - 1]))) {
			i++;
			continue;
		}
		size_t w = i;
		while (w < e && is_ident(t[w]))
			w++;
		int p = -1;
		for (int q = 0; q < c->k->nparams && p < 0; q++)
			if (which[q] && strlen(c->k->params[q].name) == w - i &&
			    !memcmp(t + i, c->k->params[q].name, w - i))
				p = q;
		size_t o = p >= 0 ? ka_csrc_skip_blank(t, e, w) : e,
		       cl = o < e && t[o] == '[' ? ka_csrc_match(t, e, o) : NPOS;
		char idx[64];
		if (cl != NPOS && ka_csrc_squeeze(t, o + 1, cl, idx, sizeof idx) && !strcmp(idx, sh->var)) {
			ka_buf_add(b, t + from, i - from);
			ka_buf_printf(b, "ka_%s%s", c->k->params[p].name, suffix);
			from = i = cl + 1;
		} else {
			i = w;
		}
	}
	ka_buf_add(b, t + from, e - from);
}

/* ---- vectorize along a row: the flat index split into (row, column) ----
 *
 * A kernel that splits its index into a row and a column, `c = i % C`,
 * and reaches memory through pointer locals `q = P + OFF` whose offset is
 * the column plus terms that are the same along a row (parameters, and
 * locals computed from `i / C`, loads included), as in
 *     int bt = idx / C, c = idx % C;  int ix = inp[bt];
 *     float *o = out + bt * C + c;  const float *e = wte + ix * C + c;
 *     *o = *e + ...;
 * When C is a multiple of 4, the elements 4v .. 4v+3 lie in one row: the
 * row's locals are the same for the four, and each q advances by one
 * element.  The vector loop runs the declarations once for i = 4v, then
 * the statements after them four times, with every `*q` (or `q[0]`) one
 * lane of a float4 (int4, uint4) loaded or stored through q when every q
 * is 16-byte aligned (checked per thread at run time), or q[0..3] when
 * one is not.  A q the statements write must be, in the kernel model,
 * at the thread's own element (analyzer/kmodel.h, ka_km_ptr.is_index),
 * and be written by a statement that begins `*q =`, so that the float4
 * stores exactly what the four threads stored. */
#define ROW_MAX 16

typedef struct rowvec {
	size_t in_s, in_e; /* the body, inside its braces */
	size_t elem_s;     /* the first statement after the declarations */
	char col[64], ext[KA_CSRC_NAME];
	int nuni;
	char uni[ROW_MAX * 2][64]; /* locals that are the same along a row */
	int nq;
	struct {
		char name[64];
		const char *vt;
		int is_const, written, load;
	} q[ROW_MAX];
} rowvec;

static int in_list(char (*l)[64], int n, const char *w, size_t wn)
{
	for (int i = 0; i < n; i++)
		if (strlen(l[i]) == wn && !memcmp(l[i], w, wn))
			return 1;
	return 0;
}

/* 1 when the squeezed expression is the same for the four elements of a
 * row: it names parameters, row locals, pure functions and integer type
 * words, and the index only as `i / C` (C the row length). */
static int row_uniform(const ka_recipe_ctx *c, const ka_recipe_ew *sh, const rowvec *rv, const char *sq)
{
	static const char *const words[] = {"int",      "long",  "unsigned", "signed",   "short",
					    "size_t",   "char",  "int64_t",  "uint64_t", "int32_t",
					    "uint32_t", "const", "float"};
	size_t vl = strlen(sh->var), el = strlen(rv->ext), wn;
	const char *p = sq, *w;
	while ((w = next_ident(&p, &wn, "."))) {
		char name[KA_CSRC_NAME];
		snprintf(name, sizeof name, "%.*s", (int)(wn < sizeof name ? wn : sizeof name - 1), w);
		if (wn == vl && !memcmp(w, sh->var, vl)) {
			char pv = w > sq ? w[-1] : '(';
			if (!strchr("(+-[,?:=)", pv) || p[0] != '/' || strncmp(p + 1, rv->ext, el) ||
			    is_ident(p[1 + el]))
				return 0;
			p += 1 + el;
			continue;
		}
		int ok = ka_csrc_param_index(c->k, name) >= 0 ||
			 in_list((char(*)[64])rv->uni, rv->nuni, w, wn) ||
			 (*p == '(' && ka_recipe_pure_function(w, wn));
		for (size_t i = 0; i < sizeof words / sizeof words[0] && !ok; i++)
			ok = strlen(words[i]) == wn && !memcmp(words[i], w, wn);
		if (!ok)
			return 0;
	}
	return *p != '.'; /* a member: not read here */
}

/* `TYPE NAME = INIT;` squeezed: 1 with the parts; 0 for a statement that
 * is no declaration.  -1 for one this shape cannot take (several
 * declarators, no initializer). */
static int split_decl(char *sq, char type[160], char **name, char **init)
{
	size_t n = strlen(sq);
	char *eq = NULL;
	for (char *p = sq; *p && !eq; p++)
		if (*p == '=' && p[1] != '=' && p > sq && !strchr("=!<>+-*/%&|^", p[-1]))
			eq = p;
	char *end = eq ? eq : sq + n - 1, *v = end;
	while (v > sq && is_ident(v[-1]))
		v--;
	int tident = 0;
	for (char *p = sq; p < v; p++) {
		if (!is_ident(*p) && *p != ' ' && *p != '*')
			return 0;
		tident |= is_ident(*p);
	}
	if (!tident || v == end)
		return 0;
	if (!eq || strchr(eq, ',') || n < 2 || sq[n - 1] != ';')
		return -1;
	sq[n - 1] = 0;
	*eq = 0;
	*init = eq + 1;
	*name = v;
	snprintf(type, 160, "%.*s", (int)(v - sq), sq);
	return 1;
}

/* The next use of a vector pointer in [s, e): `*q` or `q[0]`, from *us to
 * *ue, pointer index *qi, what follows at *after.  0 when none is left;
 * -1 for a use of another form. */
static int next_use(const char *t, size_t s, size_t e, const rowvec *rv, size_t *us, size_t *ue, int *qi)
{
	for (size_t i = s; i < e; i++) {
		if (!is_ident(t[i]) || (i > s && is_ident(t[i - 1])))
			continue;
		size_t w = i;
		while (w < e && is_ident(t[w]))
			w++;
		int q = -1;
		for (int k = 0; k < rv->nq && q < 0; k++)
			if (strlen(rv->q[k].name) == w - i && !memcmp(t + i, rv->q[k].name, w - i))
				q = k;
		if (q < 0) {
			i = w - 1;
			continue;
		}
		*qi = q;
		size_t b = i;
		while (b > s && isspace((unsigned char)t[b - 1]))
			b--;
		size_t a = ka_csrc_skip_blank(t, e, w);
		if (b > s && t[b - 1] == '*') {
			size_t bb = b - 1;
			while (bb > s && isspace((unsigned char)t[bb - 1]))
				bb--;
			/* a product is no dereference; ++*q and --*q are not read here */
			if (bb > s && (is_ident(t[bb - 1]) || t[bb - 1] == ')' || t[bb - 1] == ']' ||
				       (bb > s + 1 && (t[bb - 1] == '+' || t[bb - 1] == '-') &&
					t[bb - 2] == t[bb - 1])))
				return -1;
			*us = b - 1;
			*ue = w;
			return 1;
		}
		size_t cl = a < e && t[a] == '[' ? ka_csrc_match(t, e, a) : NPOS;
		char ix[16];
		if (cl != NPOS && ka_csrc_squeeze(t, a + 1, cl, ix, sizeof ix) && !strcmp(ix, "0")) {
			*us = i;
			*ue = cl + 1;
			return 1;
		}
		return -1;
	}
	return 0;
}

static int row_shape(ka_recipe_ctx *c, const ka_recipe_ew *sh, rowvec *rv)
{
	const char *t = c->m->text;
	memset(rv, 0, sizeof *rv);
	size_t s = ka_csrc_skip_blank(t, sh->body_e, sh->body_s);
	rv->in_s = sh->body_s;
	rv->in_e = sh->body_e;
	if (s < sh->body_e && t[s] == '{') {
		size_t cb = ka_csrc_match(t, sh->body_e, s);
		if (cb == NPOS || ka_csrc_skip_blank(t, sh->body_e, cb + 1) != sh->body_e)
			return ka_recipe_decline(c, "cannot read the guarded block");
		rv->in_s = s + 1;
		rv->in_e = cb;
	}
	/* the declarations, then the statements; first the column `c = i % C` */
	static char sq[1024];
	for (int pass = 0; pass < 2; pass++)
		for (size_t a = ka_csrc_skip_blank(t, rv->in_e, rv->in_s), e = (rv->elem_s = NPOS, a);
		     a < rv->in_e; a = ka_csrc_skip_blank(t, rv->in_e, e)) {
			e = ka_csrc_stmt_end(t, rv->in_e, a);
			char ty[160], *nm, *in;
			if (e == NPOS || !ka_csrc_squeeze(t, a, e, sq, sizeof sq))
				return ka_recipe_decline(c, "cannot read a statement of the body");
			int d = split_decl(sq, ty, &nm, &in);
			if (d < 0)
				return ka_recipe_decline(
					c, "'%.80s' declares more than one name, or none with a value", sq);
			/* after the first statement, declarations are the lanes' own */
			if (!d || rv->elem_s != NPOS) {
				rv->elem_s = rv->elem_s == NPOS ? a : rv->elem_s;
				continue;
			}
			if (!ka_recipe_pure_expr_in(in, strlen(in), c->m->text, c->m->len))
				return ka_recipe_decline(c, "the initializer of %s may write", nm);
			if (strlen(nm) >= sizeof rv->q[0].name || rv->nuni >= ROW_MAX * 2)
				return ka_recipe_decline(c, "too many locals");
			char rhs[256];
			snprintf(rhs, sizeof rhs, "%s", in);
			ka_recipe_drop_casts(rhs);
			size_t vl = strlen(sh->var);
			int is_col = !strchr(ty, '*') && !strncmp(rhs, sh->var, vl) && rhs[vl] == '%' &&
				     ka_csrc_param_index(c->k, rhs + vl + 1) >= 0;
			if (pass == 0) {
				if (is_col && rv->col[0])
					return ka_recipe_decline(c, "two columns, %s and %s", rv->col, nm);
				if (is_col) {
					snprintf(rv->col, sizeof rv->col, "%s", nm);
					snprintf(rv->ext, sizeof rv->ext, "%s", rhs + vl + 1);
				}
				continue;
			}
			if (!rv->col[0])
				return ka_recipe_decline(c, "no column `c = %s %% C` with C a parameter",
							 sh->var);
			if (is_col)
				continue;
			if (!strchr(ty, '*')) {
				int lane_own = 0; /* `float v = *q;`: the first statement of the lanes */
				for (int k = 0; k < rv->nq && !lane_own; k++)
					lane_own = ka_csrc_has_word(t, a, e, rv->q[k].name);
				if (lane_own) {
					rv->elem_s = a;
					continue;
				}
				if (!row_uniform(c, sh, rv, in))
					return ka_recipe_decline(
						c,
						"%s = %.80s is not the same along a row of %s (only %s / %s is)",
						nm, in, rv->ext, sh->var, rv->ext);
				snprintf(rv->uni[rv->nuni++], sizeof rv->uni[0], "%s", nm);
				continue;
			}
			/* a pointer local: P + OFF or &P[OFF], OFF = the column + row terms */
			char pn[KA_CSRC_NAME], off[256];
			const char *r = in;
			int amp = *r == '&';
			r += amp;
			size_t pl = 0;
			while (is_ident(r[pl]))
				pl++;
			snprintf(pn, sizeof pn, "%.*s", (int)(pl < sizeof pn ? pl : sizeof pn - 1), r);
			int pi = ka_csrc_param_index(c->k, pn);
			size_t rl = strlen(r);
			if (pi < 0 || !strchr(c->k->params[pi].type, '*') ||
			    (amp ? r[pl] != '[' || r[rl - 1] != ']' : r[pl] != '+'))
				return ka_recipe_decline(c, "%s = %.80s is not a parameter plus an offset",
							 nm, in);
			snprintf(off, sizeof off, "%.*s", (int)(rl - pl - 1 - (size_t)amp), r + pl + 1);
			ka_recipe_poly p;
			if (!ka_recipe_poly_read(off, NULL, &p))
				return ka_recipe_decline(
					c, "the offset of %s, '%s', is not a sum of products", nm, off);
			int along = 0;
			for (int k = 0; k < p.n; k++) {
				const ka_recipe_poly_term *tm = &p.t[k];
				if (ka_recipe_poly_has(tm, rv->col) || ka_recipe_poly_has(tm, sh->var)) {
					if (tm->coef != 1 || tm->nf != 1 || along++)
						return ka_recipe_decline(
							c,
							"the offset of %s, '%s', does not step by one along the row",
							nm, off);
					continue;
				}
				for (int f = 0; f < tm->nf; f++)
					if (ka_csrc_param_index(c->k, tm->f[f]) < 0 &&
					    !in_list(rv->uni, rv->nuni, tm->f[f], strlen(tm->f[f])))
						return ka_recipe_decline(
							c,
							"the offset of %s reads %s, not the same along a row",
							nm, tm->f[f]);
			}
			if (!along) { /* the same pointer for the whole row */
				snprintf(rv->uni[rv->nuni++], sizeof rv->uni[0], "%s", nm);
				continue;
			}
			char tq[160];
			snprintf(tq, sizeof tq, "%s", ty);
			int is_const = strstr(tq, "const") != NULL;
			for (char *x; (x = strstr(tq, "const"));)
				memmove(x, x + 5, strlen(x + 5) + 1);
			for (char *x; (x = strstr(tq, "__restrict__"));)
				memmove(x, x + 12, strlen(x + 12) + 1);
			for (char *x; (x = strstr(tq, "__restrict"));)
				memmove(x, x + 10, strlen(x + 10) + 1);
			for (char *x; (x = strchr(tq, ' '));)
				memmove(x, x + 1, strlen(x + 1) + 1);
			const char *vt = vector_of(tq);
			if (!vt || rv->nq == ROW_MAX)
				return ka_recipe_decline(
					c, "%s is not a pointer to 4-byte floats or integers", nm);
			snprintf(rv->q[rv->nq].name, sizeof rv->q[0].name, "%s", nm);
			rv->q[rv->nq].vt = vt;
			rv->q[rv->nq++].is_const = is_const;
		}
	if (!rv->nq)
		return ka_recipe_decline(c, "no pointer local steps along the row of %s", rv->ext);
	if (rv->elem_s == NPOS)
		return ka_recipe_decline(c, "no statement after the declarations");
	/* the statements: no index, no column, each q as *q or q[0] */
	for (size_t a = rv->elem_s, e; a < rv->in_e; a = ka_csrc_skip_blank(t, rv->in_e, e)) {
		e = ka_csrc_stmt_end(t, rv->in_e, a);
		if (e == NPOS || !ka_csrc_squeeze(t, a, e, sq, sizeof sq))
			return ka_recipe_decline(c, "cannot read a statement of the body");
		static const char *const ctl[] = {"if", "for", "while", "do", "switch", "{"};
		for (size_t k = 0; k < sizeof ctl / sizeof ctl[0]; k++)
			if (!strncmp(sq, ctl[k], strlen(ctl[k])) && !is_ident(sq[strlen(ctl[k])]))
				return ka_recipe_decline(c, "'%.60s' is not a plain statement", sq);
		for (size_t x = a; x + 1 < e; x++)
			if (t[x] == '/' && (t[x + 1] == '/' || t[x + 1] == '*'))
				return ka_recipe_decline(c, "a comment among the statements");
		if (ka_csrc_has_word(t, a, e, sh->var) || ka_csrc_has_word(t, a, e, rv->col))
			return ka_recipe_decline(c, "'%.60s' reads %s or %s itself", sq, sh->var, rv->col);
		/* the row's locals are shared by the four lanes: none may change */
		for (int k = 0; k < rv->nuni; k++)
			if (assigned(sq, rv->uni[k]))
				return ka_recipe_decline(c, "'%.60s' assigns %s, shared by the row's lanes",
							 sq, rv->uni[k]);
		int uses = 0;
		for (int k = 0; k < rv->nq; k++)
			uses += ka_csrc_count_word(t, a, e, rv->q[k].name);
		size_t us, ue, from = a;
		int qi, r, seen = 0;
		while ((r = next_use(t, from, e, rv, &us, &ue, &qi)) == 1) {
			seen++;
			size_t nx = ka_csrc_skip_blank(t, e, ue);
			int store = t[nx] == '=' && t[nx + 1] != '=';
			int update = (strchr("+-*/%&|^", t[nx]) && t[nx + 1] == '=') ||
				     ((t[nx] == '+' || t[nx] == '-') && t[nx + 1] == t[nx]);
			if (store && us != a)
				return ka_recipe_decline(c, "'%.60s' stores through %s inside an expression",
							 sq, rv->q[qi].name);
			if (store || update) {
				rv->q[qi].written = 1;
				rv->q[qi].load |= update;
			} else {
				rv->q[qi].load = 1;
			}
			from = ue;
		}
		if (r < 0 || seen != uses)
			return ka_recipe_decline(
				c, "'%.60s' uses a pointer of the row other than as *q or q[0]", sq);
	}
	/* what is written: the thread's own element (the model).  No q is
	 * assigned: the statements use each only as *q or q[0], and the
	 * initializers are pure. */
	ka_kmodel_doc doc;
	if (ka_recipe_kmodel(t, c->m->len, c->k->name, &doc) != KA_OK)
		return ka_recipe_decline(c, "the kernel model could not be built");
	int rc = KA_OK;
	for (int k = 0; k < rv->nq && rc == KA_OK; k++) {
		const ka_km_ptr *mp = ka_kmodel_ptr(doc.km, rv->q[k].name);
		if (!mp)
			rc = ka_recipe_decline(c, "the kernel model has no offset for %s", rv->q[k].name);
		else if (rv->q[k].written && !mp->is_index)
			rc = ka_recipe_decline(
				c, "%s is written at %.50s, not provably the thread's own element",
				rv->q[k].name, mp->offset);
	}
	ka_recipe_kmodel_free(&doc);
	return rc;
}

/* The statements after the declarations, each `*q` / `q[0]` replaced by
 * `ka_q.LANE` (lane a letter) or `q[LANE]` (lane a digit). */
static void row_lane(ka_buf *b, const char *t, const rowvec *rv, char lane)
{
	size_t from = rv->elem_s, us, ue;
	int qi;
	while (next_use(t, from, rv->in_e, rv, &us, &ue, &qi) == 1) {
		ka_buf_add(b, t + from, us - from);
		if (isdigit((unsigned char)lane))
			ka_buf_printf(b, "%s[%c]", rv->q[qi].name, lane);
		else
			ka_buf_printf(b, "ka_%s.%c", rv->q[qi].name, lane);
		from = ue;
	}
	size_t e = rv->in_e;
	while (e > from && isspace((unsigned char)t[e - 1]))
		e--;
	ka_buf_add(b, t + from, e - from);
}

/* The vector loop's variable: ka_v, or ka_vi, ka_vii, ... where a
 * pointer parameter's vector would have its name (v's vector is ka_v). */
static void vec_loop_name(const ka_recipe_ctx *c, char *out, size_t cap)
{
	snprintf(out, cap, "ka_v");
	for (int clash = 1; clash && strlen(out) + 2 < cap;) {
		clash = 0;
		for (int p = 0; p < c->k->nparams && !clash; p++)
			clash = c->k->params[p].is_pointer && !strcmp(out + 3, c->k->params[p].name);
		if (clash) {
			size_t n = strlen(out);
			out[n] = 'i';
			out[n + 1] = 0;
		}
	}
}

static int row_vectorize(ka_recipe_ctx *c, const ka_recipe_ew *sh, ka_buf *out)
{
	rowvec rv;
	if (sh->nrep)
		return ka_recipe_decline(c, "declarations before the guard are read by the row's statements");
	int rc = row_shape(c, sh, &rv);
	if (rc)
		return rc;
	const char *t = c->m->text;
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_adds(&b, "{\n\tconst long long ka_tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
			"\tconst long long ka_step = (long long)gridDim.x * blockDim.x;\n");
	ka_recipe_ew_pre(&b, c, sh);
	char lv[40];
	vec_loop_name(c, lv, sizeof lv);
	ka_buf_printf(&b,
		      "\t/* four elements of one row per step when the row length %s is a multiple of 4 */\n"
		      "\tconst long long ka_n4 = %s %% 4 == 0 ? (long long)%s / 4 : 0;\n"
		      "\tfor (long long %s = ka_tid; %s < ka_n4; %s += ka_step) {\n"
		      "\t\t%s %s = 4 * %s;\n\t\t",
		      rv.ext, rv.ext, sh->count, lv, lv, lv, sh->type, sh->var, lv);
	size_t ps = ka_csrc_skip_blank(t, rv.elem_s, rv.in_s), pe = rv.elem_s;
	while (pe > ps && isspace((unsigned char)t[pe - 1]))
		pe--;
	ka_buf_add(&b, t + ps, pe - ps);
	ka_buf_adds(&b, "\n\t\tif (((0");
	for (int k = 0; k < rv.nq; k++)
		ka_buf_printf(&b, " | (unsigned long long)%s", rv.q[k].name);
	ka_buf_adds(&b, ") & 15) == 0) {\n");
	for (int k = 0; k < rv.nq; k++) {
		if (rv.q[k].load)
			ka_buf_printf(&b, "\t\t\t%s ka_%s = *reinterpret_cast<const %s *>(%s);\n", rv.q[k].vt,
				      rv.q[k].name, rv.q[k].vt, rv.q[k].name);
		else
			ka_buf_printf(&b, "\t\t\t%s ka_%s;\n", rv.q[k].vt, rv.q[k].name);
	}
	for (int l = 0; l < 4; l++) {
		ka_buf_adds(&b, "\t\t\t{\n\t\t\t\t");
		row_lane(&b, t, &rv, "xyzw"[l]);
		ka_buf_adds(&b, "\n\t\t\t}\n");
	}
	for (int k = 0; k < rv.nq; k++)
		if (rv.q[k].written)
			ka_buf_printf(&b, "\t\t\t*reinterpret_cast<%s *>(%s) = ka_%s;\n", rv.q[k].vt,
				      rv.q[k].name, rv.q[k].name);
	ka_buf_adds(&b, "\t\t} else {\n");
	for (int l = 0; l < 4; l++) {
		ka_buf_adds(&b, "\t\t\t{\n\t\t\t\t");
		row_lane(&b, t, &rv, (char)('0' + l));
		ka_buf_adds(&b, "\n\t\t\t}\n");
	}
	ka_buf_adds(&b, "\t\t}\n\t}\n\t");
	ka_recipe_ew_loop(&b, c, sh, "4 * ka_n4 + ka_tid");
	ka_buf_adds(&b, "\n}");
	return finish(c, &b, sh, 4, out);
}

static int vectorize_apply(ka_recipe_ctx *c, ka_buf *out)
{
	ew_shape sh;
	int rc = ka_recipe_ew_shape_ex(c, &sh,
				       KA_RECIPE_EW_PRODUCT | KA_RECIPE_EW_MODEL | KA_RECIPE_EW_UNGUARDED),
	    vec[KA_CSRC_MAX_PARAMS], wr[KA_CSRC_MAX_PARAMS], load[KA_CSRC_MAX_PARAMS];
	const char *vt[KA_CSRC_MAX_PARAMS];
	if (rc == KA_RECIPE_DECLINED) { /* warp-per-row's column loops, say */
		char why[sizeof c->why];
		snprintf(why, sizeof why, "%s", c->why);
		rc = ka_recipe_lane_vectorize(c, out);
		if (rc == KA_RECIPE_DECLINED && !strcmp(c->why, "no lane-strided loop"))
			snprintf(c->why, sizeof c->why, "%s", why);
		return rc;
	}
	if (rc)
		return rc;
	if (ka_recipe_param(c->params, "vec", 4) != 4)
		return ka_recipe_decline(c, "only vec=4 (float4) is written");
	if (!vector_params(c, &sh, vec, wr, load, vt)) {
		/* no p[i]: maybe pointers that step along a row of the split index */
		rc = row_vectorize(c, &sh, out);
		if (rc != KA_RECIPE_DECLINED)
			return rc;
		char why[sizeof c->why];
		snprintf(why, sizeof why, "%s", c->why);
		return ka_recipe_decline(
			c, "no float pointer is accessed only as p[%s] (nor int), nor along a row: %.170s",
			sh.var, why);
	}
	const ka_csrc_kernel *k = c->k;
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_buf_adds(&b, "{\n\tconst long long ka_tid = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
			"\tconst long long ka_step = (long long)gridDim.x * blockDim.x;\n");
	ka_recipe_ew_pre(&b, c, &sh);
	int all_float = 1;
	for (int p = 0; p < k->nparams; p++)
		all_float &= !vec[p] || !strcmp(vt[p], "float4");
	ka_buf_printf(&b,
		      "\t/* the %s loop only where every vectorized pointer is 16-byte aligned */\n"
		      "\tconst unsigned long long ka_align = 0",
		      all_float ? "float4" : "16-byte");
	for (int p = 0; p < k->nparams; p++)
		if (vec[p])
			ka_buf_printf(&b, " | (unsigned long long)%s", k->params[p].name);
	ka_buf_printf(&b, ";\n\tconst long long ka_n4 = (ka_align & 15) ? 0 : (long long)%s / 4;\n",
		      sh.count);
	char lv[40];
	vec_loop_name(c, lv, sizeof lv);
	ka_buf_printf(&b, "\tfor (long long %s = ka_tid; %s < ka_n4; %s += ka_step) {\n", lv, lv, lv);
	for (int p = 0; p < k->nparams; p++) {
		if (!vec[p])
			continue;
		const char *nm = k->params[p].name;
		if (load[p])
			ka_buf_printf(&b, "\t\t%s ka_%s = reinterpret_cast<const %s *>(%s)[%s];\n", vt[p], nm,
				      vt[p], nm, lv);
		else
			ka_buf_printf(&b, "\t\t%s ka_%s;\n", vt[p], nm);
	}
	static const char lanes[] = "xyzw";
	ka_buf lane;
	ka_buf_init(&lane, 1 << 20);
	for (int l = 0; l < 4; l++) {
		/* the index is declared only where the lane still uses it (an
		 * unused one is nvcc's warning #177 in the rewritten file) */
		ka_buf_reset(&lane);
		const char suffix[] = {'.', lanes[l], '\0'}; /* p[i] -> ka_p.x */
		ka_recipe_ew_subst(&lane, c, &sh, vec, suffix);
		size_t s0 = 0;
		while (s0 < lane.len && isspace((unsigned char)lane.data[s0]))
			s0++;
		ka_buf_adds(&b, "\t\t{\n");
		if (ka_recipe_ew_replay_reads(c, &sh, sh.var) ||
		    (lane.data && ka_csrc_has_word(lane.data, s0, lane.len, sh.var)))
			ka_buf_printf(&b, "\t\t\t%s %s = 4 * %s + %d;\n", sh.type, sh.var, lv, l);
		ka_buf_adds(&b, "\t\t\t");
		ka_recipe_ew_replay(&b, c, &sh, "\t\t\t");
		if (lane.data)
			ka_buf_add(&b, lane.data + s0, lane.len - s0);
		ka_buf_adds(&b, "\n\t\t}\n");
	}
	ka_buf_free(&lane);
	for (int p = 0; p < k->nparams; p++)
		if (vec[p] && wr[p])
			ka_buf_printf(&b, "\t\treinterpret_cast<%s *>(%s)[%s] = ka_%s;\n", vt[p],
				      k->params[p].name, lv, k->params[p].name);
	ka_buf_adds(&b, "\t}\n\t");
	ka_recipe_ew_loop(&b, c, &sh, "4 * ka_n4 + ka_tid");
	ka_buf_adds(&b, "\n}");
	return finish(c, &b, &sh, 4, out);
}

static const char *const vector_grid[] = {"block=256 vec=4 cap=2112", "block=512 vec=4 cap=2112",
					  "block=128 vec=4 cap=4224", "block=256 vec=4 cap=1056", NULL};
static const char *const stride_grid[] = {"block=256 cap=2112", "block=512 cap=1056", "block=128 cap=4224",
					  NULL};

const ka_recipe ka_recipe_vectorize = {
	.name = "vectorize",
	.summary = "one thread per element -> float4 loads/stores in a capped grid-stride loop, scalar tail",
	.rules = "gmem-scalar-not-vectorized launch-tail-effect launch-small-grid",
	.grid = vector_grid,
	.apply = vectorize_apply,
};

const ka_recipe ka_recipe_grid_stride = {
	.name = "grid-stride",
	.summary = "one thread per element -> a capped grid whose threads loop over the elements",
	.rules = "launch-tail-effect launch-small-grid gmem-scalar-not-vectorized",
	.grid = stride_grid,
	.apply = grid_stride_apply,
};
