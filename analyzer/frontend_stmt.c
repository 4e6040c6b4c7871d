/* analyzer/frontend_stmt.c: statements lowered into the model.  Fixed child
 * slots: IF {cond, then, else}, FOR {init, cond, inc, body}, WHILE {cond,
 * body}, DO {body, cond}; absent parts NULL.  `do { ... } while (0)` (the
 * statement-macro idiom) runs once and is lowered as its body; a range-based
 * `for` is a WHILE of unknown trip count whose body declares the loop
 * variable (a fresh value each iteration) before the written body. */
#include "analyzer/frontend_int.h"
#include "analyzer/ranges.h"
#include "util/error.h"
#include "util/fs.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ka_node **slots(lower_ctx *cx, ka_node *n, int k)
{
	n->kids = ka_arena_alloc(cx->a, sizeof *n->kids * (size_t)k);
	n->nkids = k;
	return n->kids;
}

/* A for statement's header parts are optional and libclang skips absent
 * ones, so place each child by where it starts relative to the header's
 * semicolons. */
static void lower_for(lower_ctx *cx, ka_node *n, kid_list *k)
{
	ka_node **s = slots(cx, n, 4);
	const ka_srcfile *sf = ka_tu_file(cx->tu, n->loc.file);
	int semi[2] = {-1, -1}, close = -1;
	if (sf && !n->loc.in_macro && n->loc.begin >= 0 && n->loc.end <= sf->len) {
		int depth = 0, ns = 0;
		for (int i = n->loc.begin; i < n->loc.end; i++) {
			char ch = sf->data[i];
			if (ch == '(')
				depth++;
			else if (ch == ')' && --depth == 0) {
				close = i;
				break;
			} else if (ch == ';' && depth == 1 && ns < 2)
				semi[ns++] = i;
		}
	}
	if (k->n == 4 || semi[1] < 0) {
		for (int i = 0; i < k->n && i < 4; i++)
			s[k->n == 4 ? i : (i == k->n - 1 ? 3 : i)] = fe_lower_stmt(cx, k->v[i]);
		return;
	}
	for (int i = 0; i < k->n; i++) {
		ka_node *x = fe_lower_stmt(cx, k->v[i]);
		if (!x)
			continue;
		int b = x->loc.begin;
		int slot = (b < semi[0]) ? 0 : (b < semi[1]) ? 1 : (b < close) ? 2 : 3;
		if (x->loc.in_macro)
			slot = i == k->n - 1 ? 3 : slot;
		s[slot] = x;
	}
}

/* `#pragma unroll [N]` on the line(s) just before a loop. */
static void find_unroll_pragma(lower_ctx *cx, ka_node *n)
{
	const ka_srcfile *sf = ka_tu_file(cx->tu, n->loc.file);
	if (!sf || n->loc.in_macro || n->loc.begin <= 0 || n->loc.begin > sf->len)
		return;
	int i = n->loc.begin - 1;
	while (i >= 0 && isspace((unsigned char)sf->data[i]))
		i--;
	int e = i + 1;
	while (i >= 0 && sf->data[i] != '\n')
		i--;
	const char *line = sf->data + i + 1;
	int len = e - (i + 1);
	const char *p = line;
	while (p < line + len && isspace((unsigned char)*p))
		p++;
	if (len <= 0 || strncmp(p, "#pragma", 7) != 0)
		return;
	p += 7;
	while (p < line + len && isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "unroll", 6) != 0)
		return;
	n->unroll_pragma = 1;
	p += 6;
	while (p < line + len && (isspace((unsigned char)*p) || *p == '('))
		p++;
	n->unroll_count = (p < line + len && isdigit((unsigned char)*p)) ? atoi(p) : 0;
}

/* A do-while condition that is the literal 0 or false (through parentheses
 * and casts): the body runs once. */
static int runs_once(const ka_node *cond)
{
	while (cond && (cond->kind == KN_PAREN || cond->kind == KN_CAST) && cond->nkids == 1)
		cond = cond->kids[0];
	return cond && cond->kind == KN_INT && cond->ival == 0;
}

/* `for (T v : range) body`: libclang gives the loop variable, the range
 * expression and the body.  The loop variable's initializer (`*__begin`)
 * names clang's hidden iterators, so it is dropped: v is unknown. */
static ka_node *lower_range_for(lower_ctx *cx, CXCursor c)
{
	ka_node *n = fe_new_node(cx, KN_WHILE, c);
	kid_list k = fe_kids_of(c);
	ka_node **s = slots(cx, n, 2);
	ka_node *var = NULL, *body = NULL;
	int var_at = -1;
	for (int i = 0; i < k.n; i++) {
		enum CXCursorKind kk = clang_getCursorKind(k.v[i]);
		if (kk == CXCursor_VarDecl && !var) {
			var_at = i;
			var = fe_new_node(cx, KN_DECLSTMT, k.v[i]);
			ka_node *v = fe_new_node(cx, KN_VARDECL, k.v[i]);
			v->ref = fe_lower_vardecl(cx, k.v[i]);
			v->ref->init = NULL;
			v->name = v->ref->name;
			fe_set_type(cx, v, k.v[i]);
			var->kids = ka_arena_alloc(cx->a, sizeof *var->kids);
			var->kids[0] = v;
			var->nkids = 1;
		} else if (i == k.n - 1 && i > var_at + 1) { /* after the range */
			body = fe_lower_stmt(cx, k.v[i]);
		}
	}
	free(k.v);
	ka_node *blk = fe_new_node(cx, KN_COMPOUND, c);
	blk->kids = ka_arena_alloc(cx->a, sizeof *blk->kids * 2);
	if (var)
		blk->kids[blk->nkids++] = var;
	if (body)
		blk->kids[blk->nkids++] = body;
	s[1] = blk;
	find_unroll_pragma(cx, n);
	return n;
}

ka_node *fe_lower_stmt_at(lower_ctx *cx, CXCursor c)
{
	enum CXCursorKind kk = clang_getCursorKind(c);
	if (fe_is_expr_kind(kk))
		return fe_lower_expr(cx, c);
	if (kk == CXCursor_DeclStmt)
		return fe_lower_declstmt(cx, c);
	if (kk == CXCursor_TypeRef || kk == CXCursor_TemplateRef || clang_isAttribute(kk))
		return NULL;
	ka_nkind kind;
	switch (kk) {
	case CXCursor_CompoundStmt:
		kind = KN_COMPOUND;
		break;
	case CXCursor_IfStmt:
		kind = KN_IF;
		break;
	case CXCursor_ForStmt:
		kind = KN_FOR;
		break;
	case CXCursor_WhileStmt:
		kind = KN_WHILE;
		break;
	case CXCursor_DoStmt:
		kind = KN_DO;
		break;
	case CXCursor_CXXForRangeStmt:
		return lower_range_for(cx, c);
	case CXCursor_ReturnStmt:
		kind = KN_RETURN;
		break;
	case CXCursor_BreakStmt:
		kind = KN_BREAK;
		break;
	case CXCursor_ContinueStmt:
		kind = KN_CONTINUE;
		break;
	case CXCursor_SwitchStmt:
		kind = KN_SWITCH;
		break;
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
		kind = KN_CASE;
		break;
	case CXCursor_NullStmt:
		kind = KN_NULLSTMT;
		break;
	default:
		kind = KN_OTHER;
		break;
	}
	ka_node *n = fe_new_node(cx, kind, c);
	kid_list k = fe_kids_of(c);
	switch (kind) {
	case KN_IF: {
		ka_node **s = slots(cx, n, 3);
		int base = k.n > 3 ? k.n - 3 : 0; /* skip init/condition variable */
		for (int i = base; i < k.n; i++)
			s[i - base] = fe_lower_stmt(cx, k.v[i]);
		break;
	}
	case KN_FOR:
		lower_for(cx, n, &k);
		find_unroll_pragma(cx, n);
		break;
	case KN_WHILE:
	case KN_DO: {
		ka_node **s = slots(cx, n, 2);
		int base = k.n > 2 ? k.n - 2 : 0;
		for (int i = base; i < k.n; i++)
			s[i - base] = fe_lower_stmt(cx, k.v[i]);
		find_unroll_pragma(cx, n);
		if (kind == KN_DO && runs_once(s[1])) {
			n->kind = KN_COMPOUND;
			n->nkids = s[0] ? 1 : 0;
		}
		break;
	}
	default:
		fe_set_kids(cx, n, &k, 0, 1);
		break;
	}
	free(k.v);
	return n;
}
