/* analyzer/walk_vec.c: calls that move data in the kernel walk.  On class
 * types (float4, __half2, __nv_bfloat16, ...) `a = b` and `a += b` are
 * operator calls, `float f = h[i]` is a conversion operator called on the
 * element, and __ldg/__ldcs/__stcs are calls taking a pointer: each becomes
 * the read, write or read-write access it is, with its direction. */
#include "analyzer/walk.h"
#include <string.h>

static const char *const load_names[] = {"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv", NULL};
static const char *const store_names[] = {"__stcg", "__stcs", "__stwb", "__stwt", NULL};

static int in_list(const char *s, const char *const *l)
{
	for (int i = 0; l[i]; i++)
		if (strcmp(s, l[i]) == 0)
			return 1;
	return 0;
}

static const sx *opq(walk *w, const sx *a, const sx *b)
{
	unsigned dep = (a ? a->dep : 0) | (b ? b->dep : 0);
	uint64_t loops = (a ? a->loops : 0) | (b ? b->loops : 0);
	return sx_opaque(&w->sym.sx, dep & ~D_OPAQUE, loops);
}

/* a = b, a += b, ... on a class type. */
static int assign_op(walk *w, ka_node *n, const char *name, val *out)
{
	static const char *const compound[] = {
		"operator+=", "operator-=", "operator*=",  "operator/=",  "operator%=", "operator&=",
		"operator|=", "operator^=", "operator<<=", "operator>>=", NULL};
	int plain = strcmp(name, "operator=") == 0;
	if ((!plain && !in_list(name, compound)) || n->nkids != 2)
		return 0;
	val rv = walk_ev(w, n->kids[1], 0);
	ka_node *lhs = walk_strip(n->kids[0]);
	if (lhs && lhs->kind == KN_DECLREF && lhs->ref) {
		val cur = w->sym.env[lhs->ref->id];
		val nv = rv;
		if (!plain || !rv.x || (lhs->ref->tflags & KT_RECORD))
			nv = (val){.x = opq(w, plain ? NULL : cur.x, rv.x)};
		walk_assign(w, lhs->ref, nv);
		*out = nv;
		return 1;
	}
	walk_access(w, n->kids[0], plain ? 1 : 2);
	*out = (val){.x = rv.x ? rv.x : sx_opaque(&w->sym.sx, 0, 0)};
	return 1;
}

/* __ldg(p), __stcs(p, v): an access through the pointer argument. */
static int ldst_call(walk *w, ka_node *n, const char *name, val *out)
{
	int load = in_list(name, load_names), store = !load && in_list(name, store_names);
	if ((!load && !store) || n->nkids < 1)
		return 0;
	val p = walk_ev(w, n->kids[0], 0);
	const sx *v = store && n->nkids > 1 ? walk_ev_int(w, n->kids[1]) : NULL;
	int bytes = load ? walk_value_size(w, n) : walk_pointee_size(w, n->kids[0]);
	if (p.base) {
		if (!p.x)
			p.x = sx_const(&w->sym.sx, 0);
		w->sym.group_axes = 0;
		walk_record_access(w, n, p, bytes, bytes, NULL, load ? 0 : 1);
		w->sym.elem_assumed = NULL;
	}
	if (load && p.base) {
		unsigned dep = (p.x->dep & ~D_OPAQUE) | D_DATA;
		int sym = sx_new_sym(&w->sym.sx, SYM_LOAD, p.base->name, dep, p.x->loops);
		w->sym.sx.syms[sym].lane_varying = (p.x->dep & D_LANE) != 0;
		*out = (val){.x = sx_symref(&w->sym.sx, sym)};
	} else {
		*out = (val){.x = opq(w, p.x, v)};
	}
	return 1;
}

/* obj.f(...) on an element in memory (`h[i]` converted to float, a method
 * of a struct read from memory): the object is read. */
static int member_call(walk *w, ka_node *n, val *out)
{
	ka_node *c = n->callee ? walk_strip(n->callee) : NULL;
	if (!c || c->kind != KN_MEMBER || c->is_arrow || c->nkids < 1)
		return 0;
	ka_node *o = walk_strip(c->kids[0]);
	if (!o || !(o->kind == KN_SUBSCRIPT || (o->kind == KN_UNOP && o->op == OP_DEREF) ||
		    (o->kind == KN_MEMBER && o->nkids == 1)))
		return 0;
	const sx *x = walk_ev_int(w, o);
	unsigned dep = x->dep;
	uint64_t loops = x->loops;
	for (int i = 0; i < n->nkids; i++) {
		const sx *a = walk_ev_int(w, n->kids[i]);
		dep |= a->dep;
		loops |= a->loops;
	}
	*out = (val){.x = sx_opaque(&w->sym.sx, dep & ~D_OPAQUE, loops)};
	return 1;
}

/* An operator on dependent types in a template (`in + 8 * i` with in a
 * `const T *`) is an unresolved call with no name: the operator is the
 * text between (or before) the operands. */
static ka_op dependent_op(walk *w, ka_node *n)
{
	static const struct {
		const char *t;
		ka_op op;
	} ops[] = {{"=", OP_ASSIGN}, {"+=", OP_ADDA},  {"-=", OP_SUBA},  {"*=", OP_MULA}, {"/=", OP_DIVA},
		   {"%=", OP_REMA},  {"<<=", OP_SHLA}, {">>=", OP_SHRA}, {"&=", OP_ANDA}, {"|=", OP_ORA},
		   {"^=", OP_XORA},  {"+", OP_ADD},    {"-", OP_SUB},    {"*", OP_MUL},   {"/", OP_DIV},
		   {"%", OP_REM},    {"<<", OP_SHL},   {">>", OP_SHR},   {"<", OP_LT},    {">", OP_GT},
		   {"<=", OP_LE},    {">=", OP_GE},    {"==", OP_EQ},    {"!=", OP_NE},   {"&&", OP_LAND},
		   {"||", OP_LOR},   {"&", OP_AND},    {"|", OP_OR},     {"^", OP_XOR}};
	int b, e;
	if (n->nkids == 2) {
		b = n->kids[0]->loc.end, e = n->kids[1]->loc.begin;
	} else {
		b = n->loc.begin, e = n->kids[0]->loc.begin;
	}
	const char *t = n->name && strncmp(n->name, "operator", 8) == 0 ? n->name + 8 : NULL;
	if (!t && (n->loc.in_macro || b < 0 || e <= b || e - b > 16))
		return OP_NONE;
	if (!t)
		t = ka_tu_text(w->file.tu, n->loc.file, b, e);
	char op[20];
	int k = 0;
	for (; *t && k < 19; t++)
		if (*t != ' ' && *t != '\t' && *t != '\n' && *t != ')' && *t != '(')
			op[k++] = *t;
	op[k] = '\0';
	if (n->nkids == 1)
		return !strcmp(op, "*")    ? OP_DEREF
		       : !strcmp(op, "&")  ? OP_ADDROF
		       : !strcmp(op, "++") ? OP_PREINC
		       : !strcmp(op, "--") ? OP_PREDEC
		       : !strcmp(op, "-")  ? OP_MINUS
					   : OP_NONE;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strcmp(op, ops[i].t) == 0)
			return ops[i].op;
	return OP_NONE;
}

int walk_ev_typed_call(walk *w, ka_node *n, val *out)
{
	const char *name = n->name ? n->name : "";
	if ((!*name || strncmp(name, "operator", 8) == 0) && (n->nkids == 1 || n->nkids == 2) &&
	    (n->tflags & KT_DEPENDENT)) {
		ka_op op = dependent_op(w, n);
		if (op != OP_NONE) {
			ka_node t = *n;
			t.kind = n->nkids == 2 ? KN_BINOP : KN_UNOP;
			t.op = op;
			*out = walk_ev(w, &t, 0);
			return 1;
		}
	}
	if (strncmp(name, "operator", 8) == 0 && assign_op(w, n, name, out))
		return 1;
	if (strncmp(name, "__ld", 4) == 0 || strncmp(name, "__st", 4) == 0)
		if (ldst_call(w, n, name, out))
			return 1;
	return member_call(w, n, out);
}
