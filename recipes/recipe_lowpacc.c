/* recipes/recipe_lowpacc.c: the fp32-accumulate recipe (rule
 * math-lowp-accumulate).  A sum kept in a 16-bit variable,
 *     __half s = __float2half(0.0f);              (or __nv_bfloat16, bf16 names)
 *     for (...) s = __hadd(s, x[i]);              (or __hfma(a, b, s), s += E)
 * is rounded to 11 (half) or 8 (bf16) significant bits after every
 * addition, so a long sum drifts or stops growing.  The recipe declares the
 * variable `float` from zero, keeps the same name, and rewrites each of its
 * statements in its scope:
 *     s = __hadd(s, E);   s = __hadd(E, s);   ->  s += TOF(E);
 *     s = __hfma(A, B, s);                      ->  s = fmaf(TOF(A), TOF(B), s);
 *     s += E;   s -= E;                          ->  s += TOF(E);   s -= TOF(E);
 *     s = E;                                     ->  s = TOF(E');
 * with TOF __half2float or __bfloat162float (an operand of the 16-bit type
 * is converted exactly; any other is rounded to it first, as the original
 * did), and every other read of s becomes FROMF(s) (__float2half,
 * __float2bfloat16), the 16-bit value the code around it expects, rounded
 * once.  E' is E with its reads of s made FROMF(s).
 *
 * What it proves first (else it declines, saying which): the declaration
 * declares one name from zero; it is updated as above inside a loop at
 * least once; no occurrence of s in its scope is written any other way
 * (++, --, another op=, an assignment inside an expression) or has its
 * address taken.  The sums are more accurate, not bit for bit those of
 * the original: the bench's tolerance decides. */
#include "recipes/recipe.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)

static int ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* The squeezed src with every whole word `name` made FROMF(name), into out. */
static void subst_reads(ka_buf *out, const char *src, const char *name, const char *fromf)
{
	size_t n = strlen(name);
	for (const char *p = src; *p;) {
		if (!strncmp(p, name, n) && !ident(p[n]) && (p == src || (!ident(p[-1]) && p[-1] != '.'))) {
			ka_buf_printf(out, "%s(%s)", fromf, name);
			p += n;
		} else {
			ka_buf_add(out, p, 1);
			p++;
		}
	}
}

/* The arguments of the call whose '(' is at open in the squeezed s: up to
 * three top-level comma-separated ranges; the count, or -1 when the call
 * does not end the expression at `end`. */
static int call_args(const char *s, size_t open, size_t end, char args[3][512])
{
	int n = 0, d = 0;
	size_t from = open + 1, i = open;
	for (; i < end; i++) {
		d += s[i] == '(' || s[i] == '[';
		d -= s[i] == ')' || s[i] == ']';
		if ((d == 1 && s[i] == ',') || (d == 0 && s[i] == ')')) {
			if (n == 3 || i - from >= 512)
				return -1;
			snprintf(args[n++], 512, "%.*s", (int)(i - from), s + from);
			from = i + 1;
			if (!d)
				break;
		}
	}
	return i + 1 == end ? n : -1;
}

/* The float form of the squeezed statement sq (`name...;`) into out; 1
 * when it is an update in the forms above, 0 when it is another write. */
static int rewrite_stmt(ka_buf *out, const char *sq, const char *name, const char *tof, const char *fromf,
			int *update)
{
	size_t n = strlen(name), len = strlen(sq);
	if (len < n + 3 || sq[len - 1] != ';')
		return 0;
	const char *op = sq + n;
	size_t end = len - 1; /* before ';' */
	*update = 0;
	if ((op[0] == '+' || op[0] == '-') && op[1] == '=') {
		ka_buf_printf(out, "%s %c= %s(", name, op[0], tof);
		char rhs[1024];
		snprintf(rhs, sizeof rhs, "%.*s", (int)(end - n - 2), op + 2);
		subst_reads(out, rhs, name, fromf);
		ka_buf_adds(out, ");");
		*update = 1;
		return 1;
	}
	if (op[0] != '=' || op[1] == '=')
		return 0;
	const char *rhs = op + 1;
	size_t rs = (size_t)(rhs - sq);
	char args[3][512];
	static const char *const adds[] = {"__hadd(", "__hadd_rn("};
	for (size_t k = 0; k < 2; k++)
		if (!strncmp(rhs, adds[k], strlen(adds[k])) &&
		    call_args(sq, rs + strlen(adds[k]) - 1, end, args) == 2) {
			int other = !strcmp(args[0], name) ? 1 : !strcmp(args[1], name) ? 0 : -1;
			if (other < 0)
				break;
			ka_buf_printf(out, "%s += %s(", name, tof);
			subst_reads(out, args[other], name, fromf);
			ka_buf_adds(out, ");");
			*update = 1;
			return 1;
		}
	if (!strncmp(rhs, "__hfma(", 7) && call_args(sq, rs + 6, end, args) == 3 && !strcmp(args[2], name)) {
		ka_buf_printf(out, "%s = fmaf(%s(", name, tof);
		subst_reads(out, args[0], name, fromf);
		ka_buf_printf(out, "), %s(", tof);
		subst_reads(out, args[1], name, fromf);
		ka_buf_printf(out, "), %s);", name);
		*update = 1;
		return 1;
	}
	char e[1024];
	snprintf(e, sizeof e, "%.*s", (int)(end - rs), rhs);
	ka_buf_printf(out, "%s = %s(", name, tof);
	subst_reads(out, e, name, fromf);
	ka_buf_adds(out, ");");
	return 1;
}

/* 1 when offset p is inside a loop statement of the kernel body [b0, p). */
static int in_loop(const char *t, size_t b0, size_t b1, size_t p)
{
	static const char *const kw[] = {"for", "while", "do"};
	for (size_t q = b0; q < p; q++)
		for (size_t k = 0; k < 3; k++) {
			size_t n = strlen(kw[k]);
			if (strncmp(t + q, kw[k], n) || ident(t[q + n]) || (q > b0 && ident(t[q - 1])))
				continue;
			size_t e = ka_csrc_stmt_end(t, b1, q);
			if (e != NPOS && e > p)
				return 1;
		}
	return 0;
}

/* One 16-bit accumulator whose declaration `T name = zero;` has its type
 * at [ds, dt) and ends at de: its edits into ed, KA_OK;
 * KA_RECIPE_DECLINED with the reason. */
static int one_acc(ka_recipe_ctx *c, ka_recipe_edits *ed, size_t ds, size_t dt, size_t de, const char *name,
		   int bf16)
{
	const char *t = c->m->text;
	const char *tof = bf16 ? "__bfloat162float" : "__half2float",
		   *fromf = bf16 ? "__float2bfloat16" : "__float2half";
	size_t open = ka_csrc_block_of(t, c->m->len, ds);
	size_t close = open == NPOS ? NPOS : ka_csrc_match(t, c->m->len, open);
	if (close == NPOS)
		return ka_recipe_decline(c, "cannot find the scope of %s", name);
	size_t n = strlen(name);
	int updates = 0, rc = KA_OK;
	ka_buf b;
	ka_buf_init(&b, 4096);
	for (size_t p = de; rc == KA_OK && p + n <= close; p++) {
		if (strncmp(t + p, name, n) || ident(t[p + n]) || (ident(t[p - 1]) || t[p - 1] == '.'))
			continue;
		size_t q = p;
		while (q > de && isspace((unsigned char)t[q - 1]))
			q--;
		size_t a = ka_csrc_skip_blank(t, close, p + n);
		int starts = q == de || strchr(";{}", t[q - 1]);
		if (!starts && t[q - 1] == ')') { /* after an if/for/while header: a statement too */
			size_t o = q - 1;
			for (int d = 0; o > de; o--) {
				d += t[o] == ')';
				d -= t[o] == '(';
				if (!d)
					break;
			}
			size_t w = o;
			while (w > de && isspace((unsigned char)t[w - 1]))
				w--;
			starts = (w >= 2 && !strncmp(t + w - 2, "if", 2)) ||
				 (w >= 3 && !strncmp(t + w - 3, "for", 3)) ||
				 (w >= 5 && !strncmp(t + w - 5, "while", 5));
			starts = starts && !ident(t[w]) && o < q - 1; /* a header, not a cast */
		}
		int depth = 0; /* inside a for header's parentheses: no statement of its own */
		for (size_t i = de; i < p; i++)
			depth += t[i] == '(' ? 1 : t[i] == ')' ? -1 : 0;
		starts = starts && depth == 0;
		int written = (t[a] == '=' && t[a + 1] != '=') ||
			      (strchr("+-*/%&|^<>", t[a]) &&
			       (t[a + 1] == '=' || (t[a + 1] == t[a] && t[a + 2] == '='))) ||
			      ((t[a] == '+' || t[a] == '-') && t[a + 1] == t[a]) ||
			      (q > de && (t[q - 1] == '&' ||
					  ((t[q - 1] == '+' || t[q - 1] == '-') && t[q - 2] == t[q - 1])));
		if (t[a] == '<' || t[a] == '>')
			written = written && t[a + 1] == t[a] && t[a + 2] == '=';
		if (!written) { /* a read: the 16-bit value, rounded once */
			char rd[96];
			snprintf(rd, sizeof rd, "%s(%s)", fromf, name);
			rc = ka_recipe_edit(ed, p, p + n, rd);
			continue;
		}
		size_t e = starts ? ka_csrc_stmt_end(t, close, p) : NPOS;
		char sq[1024];
		int update = 0;
		ka_buf_reset(&b);
		if (e == NPOS || !ka_csrc_squeeze(t, p, e, sq, sizeof sq) ||
		    !rewrite_stmt(&b, sq, name, tof, fromf, &update) || !b.data) {
			int line = ka_csrc_line_of(t, p);
			rc = ka_recipe_decline(
				c,
				"%s is written otherwise than `%s = E;`, `%s += E;` or `%s -= E;` "
				"(line %d)",
				name, name, name, name, line);
			break;
		}
		updates += update && in_loop(t, c->k->body_open + 1, c->k->body_close, p);
		rc = ka_recipe_edit(ed, p, e, b.data);
		p = e - 1;
	}
	ka_buf_free(&b);
	if (rc == KA_OK && !updates)
		return ka_recipe_decline(c, "%s is not summed into inside a loop", name);
	if (rc == KA_OK)
		rc = ka_recipe_edit(ed, ds, dt, "float");
	return rc;
}

static int lowpacc_apply(ka_recipe_ctx *c, ka_buf *out)
{
	const char *t = c->m->text;
	size_t b0 = c->k->body_open + 1, b1 = c->k->body_close;
	static const char *const types[] = {"__half", "half", "__nv_bfloat16", "nv_bfloat16"};
	ka_recipe_edits ed = {0};
	int rc = KA_OK, done = 0;
	char first[sizeof c->why] = "";
	for (size_t p = b0; rc >= 0 && p < b1; p++) {
		size_t k = 0, tl = 0;
		if (p > b0 && (ident(t[p - 1]) || t[p - 1] == '.'))
			continue;
		for (; k < 4; k++) {
			tl = strlen(types[k]);
			if (!strncmp(t + p, types[k], tl) && !ident(t[p + tl]))
				break;
		}
		if (k == 4)
			continue;
		size_t q = p;
		while (q > b0 && isspace((unsigned char)t[q - 1]))
			q--;
		if (q > b0 && !strchr(";{}", t[q - 1]))
			continue; /* not a declaration statement (a cast, a template argument) */
		size_t e = ka_csrc_stmt_end(t, b1, p);
		char sq[256], name[64];
		if (e == NPOS || !ka_csrc_squeeze(t, p + tl, e, sq, sizeof sq))
			continue;
		size_t nl = strspn(sq, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (!nl || nl >= sizeof name || sq[nl] != '=')
			continue;
		snprintf(name, sizeof name, "%.*s", (int)nl, sq);
		static const char *const zeros[] = {"0;",
						    "0.0f;",
						    "0.f;",
						    "0.0;",
						    "__float2half(0.0f);",
						    "__float2half(0.f);",
						    "__float2half(0);",
						    "__float2bfloat16(0.0f);",
						    "__float2bfloat16(0.f);",
						    "__float2bfloat16(0);",
						    "__int2half_rn(0);"};
		int zero = 0;
		for (size_t z = 0; z < sizeof zeros / sizeof zeros[0]; z++)
			zero |= !strcmp(sq + nl + 1, zeros[z]);
		if (!zero)
			continue;
		size_t de = ka_csrc_skip_blank(t, b1, p + tl); /* `T name = 0;` -> `float name = 0.0f;` */
		char decl_text[128];
		snprintf(decl_text, sizeof decl_text, "%s = 0.0f;", name);
		c->why[0] = 0;
		ka_recipe_edits one = {0};
		int r1 = one_acc(c, &one, p, p + tl, e, name, k >= 2);
		if (r1 == KA_OK)
			r1 = ka_recipe_edit(&one, de, e, decl_text);
		if (r1 == KA_OK) {
			for (int i = 0; i < one.n && rc == KA_OK; i++)
				rc = ka_recipe_edit(&ed, one.e[i].s, one.e[i].e, one.e[i].text);
			done++;
		} else if (r1 < 0) {
			rc = r1;
		} else if (!first[0]) {
			snprintf(first, sizeof first, "%s", c->why);
		}
		ka_recipe_edits_free(&one);
		p = e - 1;
	}
	if (rc == KA_OK && !done)
		rc = first[0]
			     ? ka_recipe_decline(c, "%s", first)
			     : ka_recipe_decline(c, "no __half or __nv_bfloat16 variable declared from zero");
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, t, c->m->len, out);
	ka_recipe_edits_free(&ed);
	return rc;
}

static const char *const lowpacc_grid[] = {"", NULL};

const ka_recipe ka_recipe_fp32_accumulate = {
	.name = "fp32-accumulate",
	.summary =
		"a sum kept in __half / __nv_bfloat16 -> a float accumulator, rounded once where it is read",
	.rules = "math-lowp-accumulate",
	.grid = lowpacc_grid,
	.apply = lowpacc_apply,
};
