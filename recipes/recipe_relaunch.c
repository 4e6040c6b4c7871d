/* recipes/recipe_relaunch.c: what recipes do to a kernel's launches: check
 * that the source model read every one (ka_recipe_launches_known), rewrite
 * their grid, block and dynamic shared memory (ka_recipe_relaunch*), and
 * drop a grid or block variable the rewrite left dead (recipe.h). */
#include "recipes/recipe.h"
#include "util/error.h"
#include "util/text.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)

/* 1 when the name at `at` is followed by '(': a declarator (`__global__
 * void k(...);`, or a host function of the same name, llm.c's launchers)
 * or a call.  A kernel cannot be called without <<<>>>, so a call names
 * another function of that name; the kernel's address is never followed
 * by '(' (`&k,`, `(void *)k)`, `= k;`, `k<T>`). */
static int declarator_or_call(const char *t, size_t len, size_t at, size_t name_len)
{
	size_t p = ka_csrc_skip_blank(t, len, at + name_len);
	return p < len && t[p] == '(';
}

int ka_recipe_launches_known(ka_recipe_ctx *c)
{
	const ka_csrc *m = c->m;
	const char *t = m->text, *name = c->k->name;
	size_t n = strlen(name);
	for (size_t at = ka_csrc_find_word_pp(t, 0, m->len, name); at != (size_t)-1;
	     at = ka_csrc_find_word_pp(t, at + n, m->len, name)) {
		int known = declarator_or_call(t, m->len, at, n);
		for (int i = 0; i < m->nkernels && !known; i++)
			known = m->k[i].name_at == at;
		for (int i = 0; i < m->nlaunches && !known; i++)
			known = m->l[i].start == at && !strcmp(m->l[i].kernel, name);
		if (known || ka_recipe_in_query(c, at))
			continue;
		int line = ka_csrc_line_of(t, at);
		return ka_recipe_decline(
			c,
			"line %d names %s outside a launch this recipe can read (a macro, "
			"template arguments, cudaLaunchKernel, a function pointer): not every "
			"launch would be rewritten",
			line, name);
	}
	return KA_OK;
}

/* A count expression over the kernel's parameters (`(long long)B * T`)
 * with every parameter replaced by "(long long)(arg)" of launch l, into g
 * (a member of one, `size.y`, by "(long long)((arg).y)"; a member's name
 * is never a parameter's); 0 when an argument cannot be read. */
static int expand_count(const ka_csrc *m, const ka_csrc_kernel *k, const ka_csrc_launch *l, const char *expr,
			ka_buf *g)
{
	ka_buf_addc(g, '(');
	for (const char *p = expr; *p;) {
		if (!isalpha((unsigned char)*p) && *p != '_') {
			ka_buf_addc(g, *p++);
			continue;
		}
		const char *w = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		char name[KA_CSRC_NAME], arg[512];
		snprintf(name, sizeof name, "%.*s", (int)(p - w), w);
		int member = w > expr && w[-1] == '.';
		int pi = (size_t)(p - w) < sizeof name && !member ? ka_csrc_param_index(k, name) : -1;
		if (pi < 0) {
			ka_buf_add(g, w, (size_t)(p - w));
			continue;
		}
		if (!ka_csrc_squeeze(m->text, l->args[pi].s, l->args[pi].e, arg, sizeof arg) || !arg[0])
			return 0;
		const char *me = p;
		while (*me == '.' && (isalpha((unsigned char)me[1]) || me[1] == '_'))
			for (me++; isalnum((unsigned char)*me) || *me == '_'; me++)
				;
		if (me > p) {
			ka_buf_printf(g, "(long long)((%s)%.*s)", arg, (int)(me - p), p);
			p = me;
			continue;
		}
		ka_buf_printf(g, "(long long)(%s)", arg);
	}
	ka_buf_addc(g, ')');
	return g->data != NULL;
}

/* fmt with "@N" replaced by "(long long)(arg)" of parameter pn (pn < 0
 * and count_expr set: that expression over the parameters, expand_count)
 * and "@B" by that of parameter pb; 0 when an argument is missing or too
 * long. */
static int expand(const ka_csrc *m, const ka_csrc_kernel *k, const ka_csrc_launch *l, int pn, int pb, int pz,
		  const char *count_expr, const char *fmt, ka_buf *g)
{
	char an[512], ab[512], az[512];
	an[0] = ab[0] = az[0] = 0;
	if (pn >= 0 && !ka_csrc_squeeze(m->text, l->args[pn].s, l->args[pn].e, an, sizeof an))
		return 0;
	if (pb >= 0 && !ka_csrc_squeeze(m->text, l->args[pb].s, l->args[pb].e, ab, sizeof ab))
		return 0;
	if (pz >= 0 && !ka_csrc_squeeze(m->text, l->args[pz].s, l->args[pz].e, az, sizeof az))
		return 0;
	for (const char *p = fmt; *p; p++) {
		if (p[0] == '@' && p[1] == 'N' && pn < 0 && count_expr) {
			if (!expand_count(m, k, l, count_expr, g))
				return 0;
			p++;
		} else if (p[0] == '@' && p[1] == 'A') {
			/* the z parameter's argument as written (a pointer stays one) */
			if (!*az)
				return 0;
			ka_buf_printf(g, "(%s)", az);
			p++;
		} else if (p[0] == '@' && p[1] == 'S') {
			/* the launch's stream: 0 (the default stream) when it names none */
			char st[512];
			if (l->ncfg < 4)
				ka_buf_adds(g, "0");
			else if (!ka_csrc_squeeze(m->text, l->cfg[3].s, l->cfg[3].e, st, sizeof st))
				return 0;
			else
				ka_buf_adds(g, st);
			p++;
		} else if (p[0] == '@' && (p[1] == 'N' || p[1] == 'B' || p[1] == 'Z')) {
			const char *a = p[1] == 'N' ? an : p[1] == 'B' ? ab : az;
			if (!*a)
				return 0;
			ka_buf_printf(g, "(long long)(%s)", a);
			p++;
		} else {
			ka_buf_addc(g, *p);
		}
	}
	return g->data != NULL;
}

/* 1 when the initializer [s, e) can be dropped unevaluated: pure in the
 * sense of ka_recipe_pure_expr (the file's function-like macros allowed)
 * and no top-level comma (a second declarator). */
static int pure_init(const char *t, size_t len, size_t s, size_t e)
{
	char sq[512];
	int depth = 0;
	if (!ka_csrc_squeeze(t, s, e, sq, sizeof sq))
		return 0;
	for (const char *p = sq; *p; p++) {
		depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (*p == ',' && depth == 0)
			return 0;
	}
	return ka_recipe_pure_expr_in(sq, strlen(sq), t, len);
}

/* [s, e) declares var alone as a plain integer, `[const] TYPE var = INIT;`
 * with TYPE built from int, long, unsigned, size_t and the like, and INIT
 * can be dropped unevaluated (pure_init). */
static int scalar_decl(const char *t, size_t len, size_t s, size_t e, const char *var)
{
	static const char *const words[] = {"const",   "constexpr", "unsigned", "signed",  "int",
					    "long",    "short",     "size_t",   "int32_t", "uint32_t",
					    "int64_t", "uint64_t",  "auto",     NULL};
	size_t p = ka_csrc_skip_blank(t, len, s), vn = strlen(var);
	int types = 0;
	for (;;) {
		size_t w = p;
		while (w < e && (isalnum((unsigned char)t[w]) || t[w] == '_'))
			w++;
		if (w == p)
			return 0;
		if (w - p == vn && !memcmp(t + p, var, vn) && types) {
			p = ka_csrc_skip_blank(t, len, w);
			break;
		}
		int k = 0;
		while (words[k] && !(strlen(words[k]) == w - p && !memcmp(t + p, words[k], w - p)))
			k++;
		if (!words[k])
			return 0;
		types += strcmp(words[k], "const") != 0 && strcmp(words[k], "constexpr") != 0;
		p = ka_csrc_skip_blank(t, len, w);
	}
	if (p >= e || t[p] != '=' || e < 1 || t[e - 1] != ';')
		return 0;
	return pure_init(t, len, p + 1, e - 1);
}

/* A positive decimal literal [s, e) (blanks, parentheses and an integer
 * suffix allowed) -> *v; 0 when it is anything else. */
static int int_literal(const char *t, size_t s, size_t e, long *v)
{
	char sq[64], *end;
	if (!ka_csrc_squeeze(t, s, e, sq, sizeof sq))
		return 0;
	size_t n = strlen(sq), b = 0;
	while (n > 2 * b + 1 && sq[b] == '(' && sq[n - 1 - b] == ')')
		b++;
	sq[n - b] = 0;
	if (!isdigit((unsigned char)sq[b]))
		return 0;
	*v = strtol(sq + b, &end, 10);
	end += strspn(end, "uUlL");
	return !*end && *v > 0;
}

/* 1 when the occurrence of var at [at, at+n) may change it: an assignment,
 * ++ or --, or its address taken. */
static int modifies(const char *t, size_t len, size_t at, size_t n)
{
	size_t p = ka_csrc_skip_blank(t, len, at + n), b = at;
	while (b > 0 && (t[b - 1] == ' ' || t[b - 1] == '\t' || t[b - 1] == '\n'))
		b--;
	if (b > 0 &&
	    (t[b - 1] == '&' || (b > 1 && (t[b - 1] == '+' || t[b - 1] == '-') && t[b - 2] == t[b - 1])))
		return 1;
	if (p + 1 >= len)
		return 0;
	if (t[p] == '=' && t[p + 1] != '=')
		return 1;
	if ((t[p] == '+' || t[p] == '-') && t[p + 1] == t[p])
		return 1;
	return strchr("+-*/%&|^<>", t[p]) && t[p + 1] == '=' &&
	       !(strchr("<>", t[p]) && p > 0 && t[p - 1] != t[p]);
}

int ka_recipe_define_of(const ka_recipe_ctx *c, const char *name, size_t *line_s, size_t *line_e,
			size_t *value_s)
{
	const char *t = c->m->text;
	size_t len = c->m->len, vn = strlen(name);
	int defs = 0;
	for (size_t w = ka_csrc_find_word_pp(t, 0, len, name); w != NPOS;
	     w = ka_csrc_find_word_pp(t, w + vn, len, name)) {
		size_t ls = w;
		while (ls > 0 && t[ls - 1] != '\n')
			ls--;
		size_t p = ls;
		while (p < w && (t[p] == ' ' || t[p] == '\t'))
			p++;
		if (t[p] != '#')
			continue;
		size_t le = w;
		while (le < len && t[le] != '\n')
			le++;
		p++;
		while (p < w && (t[p] == ' ' || t[p] == '\t'))
			p++;
		size_t q = p + 6;
		while (q < w && (t[q] == ' ' || t[q] == '\t'))
			q++;
		if (strncmp(t + p, "define", 6) || q != w || q == p + 6)
			return -1; /* #undef, #ifdef, a macro body that reads it */
		if (defs++ || t[w + vn] == '(')
			return -1; /* a second definition, a function-like macro */
		*line_s = ls;
		*line_e = le;
		*value_s = w + vn;
		while (*value_s < le && (t[*value_s] == ' ' || t[*value_s] == '\t'))
			(*value_s)++;
	}
	return defs;
}

/* [s, e) is the name of a `#define NAME N` the file defines once (N an
 * integer literal): its value to *v (`int TB = SIZE;`). */
static int macro_literal(const ka_recipe_ctx *c, const char *t, size_t s, size_t e, long *v)
{
	char name[KA_CSRC_NAME];
	size_t ls, le, vs;
	if (!ka_csrc_squeeze(t, s, e, name, sizeof name) || !name[0] || isdigit((unsigned char)name[0]) ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(name))
		return 0;
	return ka_recipe_define_of(c, name, &ls, &le, &vs) == 1 && int_literal(t, vs, le, v);
}

int ka_recipe_const_var(const ka_recipe_ctx *c, size_t at, const char *var, long *value)
{
	const char *t = c->m->text;
	size_t len = c->m->len, vn = strlen(var), blk = ka_csrc_block_of(t, len, at);
	if (!vn || !(isalpha((unsigned char)var[0]) || var[0] == '_'))
		return 0;
	/* a macro: `#define VAR N`, defined once and never undefined */
	size_t ls, le, vs;
	int defs = ka_recipe_define_of(c, var, &ls, &le, &vs);
	long mv;
	if (defs) {
		if (defs < 0 || !int_literal(t, vs, le, &mv))
			return 0;
		*value = mv;
		return 1;
	}
	/* a local `[const|constexpr] INT VAR = N;` of the block that holds the launch */
	if (blk == NPOS)
		return 0;
	for (size_t s = ka_csrc_skip_blank(t, len, blk + 1); s < at;) {
		size_t e = ka_csrc_stmt_end(t, len, s);
		if (e == NPOS || e > at)
			return 0;
		if (scalar_decl(t, len, s, e, var)) {
			size_t eq = s;
			while (eq < e && t[eq] != '=')
				eq++;
			if (!int_literal(t, eq + 1, e - 1, value) &&
			    !macro_literal(c, t, eq + 1, e - 1, value))
				return 0;
			for (size_t w = ka_csrc_find_word_pp(t, e, at, var); w != NPOS;
			     w = ka_csrc_find_word_pp(t, w + vn, at, var))
				if (modifies(t, len, w, vn))
					return 0;
			return 1;
		}
		s = ka_csrc_skip_blank(t, len, e);
	}
	return 0;
}

/* After launch l's config slot q was rewritten: drop the declaration of
 * the variable it read when nothing else reads it (see recipe.h). */
int ka_recipe_drop_dead_config(ka_recipe_ctx *c, ka_recipe_edits *ed, const ka_csrc_launch *l, int q)
{
	const char *t = c->m->text;
	size_t len = c->m->len, blk = ka_csrc_block_of(t, len, l->start);
	char var[KA_CSRC_NAME];
	if (blk == NPOS || !ka_csrc_squeeze(t, l->cfg[q].s, l->cfg[q].e, var, sizeof var) || !var[0] ||
	    isdigit((unsigned char)var[0]) ||
	    strspn(var, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(var))
		return KA_OK;
	size_t bc = ka_csrc_match(t, len, blk);
	for (size_t s = ka_csrc_skip_blank(t, len, blk + 1); bc != NPOS && s < l->start;) {
		size_t e = ka_csrc_stmt_end(t, len, s);
		if (e == NPOS || e > l->start)
			return KA_OK;
		if (scalar_decl(t, len, s, e, var)) {
			for (int i = 0; i < ed->n; i++)
				if (ed->e[i].s <= s && s < ed->e[i].e)
					return KA_OK; /* dropped already (a second launch reads it too) */
			/* every other use must sit in text the edits replace (the
			 * launches rewritten, a grid declaration dropped before);
			 * preprocessor lines count too: a macro body may read it */
			for (size_t at = ka_csrc_find_word_pp(t, e, bc, var); at != NPOS;
			     at = ka_csrc_find_word_pp(t, at + 1, bc, var)) {
				int replaced = 0;
				for (int i = 0; i < ed->n && !replaced; i++)
					replaced = ed->e[i].s <= at && at < ed->e[i].e;
				if (!replaced)
					return KA_OK;
			}
			ka_text_whole_line(t, len, &s, &e);
			return ka_recipe_edit(ed, s, e, "");
		}
		s = ka_csrc_skip_blank(t, len, e);
	}
	return KA_OK;
}

static int relaunch_any(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_param, const char *grid_fmt,
			const char *block, const char *smem_param, const char *smem_fmt, const char *z_param)
{
	const ka_csrc *m = c->m;
	int pi = ka_csrc_param_index(c->k, count_param),
	    si = smem_param ? ka_csrc_param_index(c->k, smem_param) : -1,
	    zi = z_param ? ka_csrc_param_index(c->k, z_param) : -1;
	int found = 0, rc = KA_OK;
	/* a count that is no parameter: an expression over them (ka_recipe_relaunch_expr) */
	const char *count_expr = pi < 0 && count_param[0] == '(' ? count_param : NULL;
	if (pi < 0 && !count_expr)
		return ka_recipe_decline(c, "%s has no parameter '%s'", c->k->name, count_param);
	if (smem_param && si < 0)
		return ka_recipe_decline(c, "%s has no parameter '%s'", c->k->name, smem_param);
	if (z_param && zi < 0)
		return ka_recipe_decline(c, "%s has no parameter '%s'", c->k->name, z_param);
	rc = ka_recipe_launches_known(c);
	if (rc)
		return rc;
	for (int i = 0; i < m->nlaunches && rc == KA_OK; i++) {
		const ka_csrc_launch *l = &m->l[i];
		if (strcmp(l->kernel, c->k->name))
			continue;
		if (l->nargs != c->k->nparams)
			return ka_recipe_decline(c, "a launch of %s passes %d arguments for %d parameters",
						 c->k->name, l->nargs, c->k->nparams);
		ka_buf g, b;
		ka_buf_init(&g, 4096);
		ka_buf_init(&b, 4096);
		ka_buf_printf(&b, " %s", block);
		if (!expand(m, c->k, l, pi, si, zi, count_expr, grid_fmt, &g))
			rc = ka_recipe_decline(c, "cannot read a launch of %s", c->k->name);
		if (rc == KA_OK && smem_fmt && l->ncfg < 3) {
			ka_buf_adds(&b, ", ");
			if (!expand(m, c->k, l, -1, si, -1, NULL, smem_fmt, &b))
				rc = ka_recipe_decline(c, "cannot read a launch of %s", c->k->name);
		} else if (rc == KA_OK && smem_fmt) {
			ka_buf sm;
			ka_buf_init(&sm, 4096);
			ka_buf_addc(&sm, ' ');
			if (!expand(m, c->k, l, -1, si, -1, NULL, smem_fmt, &sm))
				rc = ka_recipe_decline(c, "cannot read a launch of %s", c->k->name);
			if (rc == KA_OK)
				rc = ka_recipe_edit(ed, l->cfg[2].s, l->cfg[2].e, sm.data);
			ka_buf_free(&sm);
		}
		if (rc == KA_OK && (!g.data || !b.data))
			rc = ka_error_set(KA_ENOMEM, "out of memory");
		if (rc == KA_OK)
			rc = ka_recipe_edit(ed, l->cfg[0].s, l->cfg[0].e, g.data);
		if (rc == KA_OK)
			rc = ka_recipe_edit(ed, l->cfg[1].s, l->cfg[1].e, b.data);
		for (int q = 0; q < 2 && rc == KA_OK; q++)
			rc = ka_recipe_drop_dead_config(c, ed, l, q);
		ka_buf_free(&g);
		ka_buf_free(&b);
		found = 1;
	}
	if (rc)
		return rc;
	return found ? KA_OK : ka_recipe_decline(c, "no launch of %s in this file to rewrite", c->k->name);
}

int ka_recipe_relaunch_smem(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_param,
			    const char *grid_fmt, const char *block, const char *smem_param,
			    const char *smem_fmt)
{
	return relaunch_any(c, ed, count_param, grid_fmt, block, smem_param, smem_fmt, NULL);
}

int ka_recipe_relaunch_z(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_param, const char *grid_fmt,
			 const char *block, const char *b_param, const char *z_param)
{
	return relaunch_any(c, ed, count_param, grid_fmt, block, b_param, NULL, z_param);
}

int ka_recipe_relaunch(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_param, const char *grid_fmt,
		       const char *block)
{
	return ka_recipe_relaunch_smem(c, ed, count_param, grid_fmt, block, NULL, NULL);
}

/* The ')' that closes the parameter list opened right after the name at
 * `at` (the name, blanks, '('), or NPOS. */
static size_t params_close(const char *t, size_t len, size_t at, size_t n)
{
	size_t p = ka_csrc_skip_blank(t, len, at + n);
	return p < len && t[p] == '(' ? ka_csrc_match(t, len, p) : NPOS;
}

/* How the launches of a kernel change when its threads loop over the
 * elements (ka_recipe_relaunch_threads, ka_recipe_relaunch_threads_2d). */
typedef struct thread_relaunch {
	int dims;        /* 1: along x (vec), 2: along x and y */
	long vec, cap;   /* elements a thread takes at once; the grid's cap */
	int add_counts;  /* the launch passes its threads along each axis */
	int keep_unread; /* a use of the name it cannot read stays (no add_counts) */
	char param[200]; /* what the kernel's parameter list gets ("" none) */
} thread_relaunch;

/* Launch l of a kernel whose threads loop: the capped grid and, with
 * add_counts, its thread counts as new last arguments. */
static int relaunch_thread_count(ka_recipe_ctx *c, ka_recipe_edits *ed, const ka_csrc_launch *l,
				 const thread_relaunch *tr)
{
	const char *t = c->m->text;
	char g[512], b[512];
	long vec = tr->vec, cap = tr->cap;
	if (l->ncfg < 2 || !ka_csrc_squeeze(t, l->cfg[0].s, l->cfg[0].e, g, sizeof g) ||
	    !ka_csrc_squeeze(t, l->cfg[1].s, l->cfg[1].e, b, sizeof b) || !g[0] || !b[0])
		return ka_recipe_decline(c, "cannot read a launch of %s", c->k->name);
	if (g[0] == '{' || b[0] == '{')
		return ka_recipe_decline(c, "a launch of %s gives its grid or block as a braced list",
					 c->k->name);
	if (!ka_recipe_pure_expr_in(g, strlen(g), t, c->m->len) ||
	    !ka_recipe_pure_expr_in(b, strlen(b), t, c->m->len))
		return ka_recipe_decline(
			c, "the grid '%.60s' or block '%.60s' of a launch of %s may have side effects", g, b,
			c->k->name);
	if (l->nargs != c->k->nparams || l->nargs < 1)
		return ka_recipe_decline(c, "a launch of %s passes %d arguments for %d parameters",
					 c->k->name, l->nargs, c->k->nparams);
	ka_buf grid, arg;
	ka_buf_init(&grid, 1024);
	ka_buf_init(&arg, 1024);
	if (tr->dims == 2) {
		/* x capped at cap, y at cap / x: at most cap blocks in a layer */
		char gx[1200];
		snprintf(gx, sizeof gx, "(dim3(%s).x < %ldu ? dim3(%s).x : %ldu)", g, cap, g, cap);
		ka_buf_printf(
			&grid,
			" dim3(%s, dim3(%s).y < %ldu / (%s > 1u ? %s : 1u) ? dim3(%s).y : %ldu / (%s > 1u ? "
			"%s : 1u), dim3(%s).z)",
			gx, g, cap, gx, gx, g, cap, gx, gx, g);
		ka_buf_printf(&arg,
			      ", (long long)dim3(%s).x * dim3(%s).x, (long long)dim3(%s).y * dim3(%s).y", g,
			      b, g, b);
	} else {
		if (vec > 1)
			ka_buf_printf(
				&grid,
				" dim3((unsigned)((dim3(%s).x + %ld) / %ld < %ld ? (dim3(%s).x + %ld) / %ld : "
				"%ld), dim3(%s).y, dim3(%s).z)",
				g, vec - 1, vec, cap, g, vec - 1, vec, cap, g, g);
		else
			ka_buf_printf(&grid,
				      " dim3(dim3(%s).x < %ldu ? dim3(%s).x : %ldu, dim3(%s).y, dim3(%s).z)",
				      g, cap, g, cap, g, g);
		ka_buf_printf(&arg, ", (long long)dim3(%s).x * dim3(%s).x", g, b);
	}
	int rc = grid.data && arg.data ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK)
		rc = ka_recipe_edit(ed, l->cfg[0].s, l->cfg[0].e, grid.data);
	if (rc == KA_OK && tr->add_counts)
		rc = ka_recipe_edit(ed, l->args[l->nargs - 1].e, l->args[l->nargs - 1].e, arg.data);
	ka_buf_free(&grid);
	ka_buf_free(&arg);
	return rc;
}

static int relaunch_threads(ka_recipe_ctx *c, ka_recipe_edits *ed, const thread_relaunch *tr)
{
	const ka_csrc *m = c->m;
	const char *t = m->text, *name = c->k->name;
	size_t n = strlen(name), len = m->len;
	if (tr->add_counts && c->k->nparams < 1)
		return ka_recipe_decline(c, "%s has no parameters to add the thread count after", name);
	for (int i = 0; i < m->nkernels; i++)
		if (&m->k[i] != c->k && !strcmp(m->k[i].name, name))
			return ka_recipe_decline(c, "the file defines more than one kernel named %s", name);
	int found = 0, declared = 0, rc = KA_OK;
	for (size_t at = ka_csrc_find_word_pp(t, 0, len, name); at != NPOS && rc == KA_OK;
	     at = ka_csrc_find_word_pp(t, at + n, len, name)) {
		const ka_csrc_launch *l = NULL;
		for (int i = 0; i < m->nlaunches && !l; i++)
			if (m->l[i].start == at && !strcmp(m->l[i].kernel, name))
				l = &m->l[i];
		if (l) {
			/* a launch before any declaration this file shows: the kernel
			 * is declared in a header, which would keep the old parameters */
			if (tr->add_counts && !declared)
				return ka_recipe_decline(
					c,
					"line %d launches %s before this file declares it (a header "
					"declares it): the parameter it adds would not reach that "
					"declaration",
					ka_csrc_line_of(t, at), name);
			rc = relaunch_thread_count(c, ed, l, tr);
			found = 1;
			continue;
		}
		size_t pc = params_close(t, len, at, n);
		if (tr->add_counts && pc != NPOS && memchr(t + at, '=', pc - at))
			return ka_recipe_decline(c, "line %d declares %s with a default argument",
						 ka_csrc_line_of(t, at), name);
		if (at == c->k->name_at) {
			/* the definition: its parameter list, then the body */
			if (pc == NPOS || ka_csrc_skip_blank(t, len, pc + 1) != c->k->body_open)
				return ka_recipe_decline(c, "cannot read the parameter list of %s", name);
			if (tr->add_counts)
				rc = ka_recipe_edit(ed, pc, pc, tr->param);
			declared = 1;
			continue;
		}
		/* a kernel's declaration at file level, `__global__ ... k(...);` */
		size_t st = at;
		while (st > 0 && t[st - 1] != ';' && t[st - 1] != '}' && t[st - 1] != '{')
			st--;
		if (pc != NPOS && ka_csrc_block_of(t, len, at) == NPOS &&
		    ka_csrc_skip_blank(t, len, pc + 1) < len &&
		    t[ka_csrc_skip_blank(t, len, pc + 1)] == ';' &&
		    ka_csrc_has_word(t, st, at, "__global__")) {
			if (tr->add_counts)
				rc = ka_recipe_edit(ed, pc, pc, tr->param);
			declared = 1;
			continue;
		}
		if ((tr->keep_unread && !tr->add_counts) || ka_recipe_in_query(c, at))
			continue; /* a query of the kernel's attributes launches nothing */
		return ka_recipe_decline(
			c,
			"line %d names %s outside its definition, a declaration and a launch this "
			"recipe can read: %s",
			ka_csrc_line_of(t, at), name,
			tr->add_counts ? "the parameter it adds would not reach it"
				       : "a launch there would keep its grid");
	}
	if (rc)
		return rc;
	return found ? KA_OK : ka_recipe_decline(c, "no launch of %s in this file to rewrite", name);
}

int ka_recipe_relaunch_threads(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *count_name, long vec,
			       long cap)
{
	thread_relaunch tr = {.dims = 1, .vec = vec, .cap = cap, .add_counts = 1};
	snprintf(tr.param, sizeof tr.param, ", long long %s", count_name);
	return relaunch_threads(c, ed, &tr);
}

int ka_recipe_relaunch_threads_2d(ka_recipe_ctx *c, ka_recipe_edits *ed, const char *nx, const char *ny,
				  long cap)
{
	/* guarded, the loops cover the bounds: a launch it cannot read is right
	 * as it is */
	thread_relaunch tr = {
		.dims = 2, .vec = 1, .cap = cap, .add_counts = nx && ny, .keep_unread = !(nx && ny)};
	if (tr.add_counts)
		snprintf(tr.param, sizeof tr.param, ", long long %.80s, long long %.80s", nx, ny);
	return relaunch_threads(c, ed, &tr);
}

int ka_recipe_relaunch_cap(ka_recipe_ctx *c, ka_recipe_edits *ed, long cap)
{
	thread_relaunch tr = {.dims = 1, .vec = 1, .cap = cap, .add_counts = 0, .keep_unread = 1};
	return relaunch_threads(c, ed, &tr);
}
