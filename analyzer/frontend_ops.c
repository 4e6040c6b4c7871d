/* analyzer/frontend_ops.c: libclang cursor and operator kinds mapped to
 * the model's. */
#include "analyzer/frontend_int.h"
#include "analyzer/ranges.h"
#include "util/error.h"
#include "util/fs.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ka_nkind fe_expr_kind(enum CXCursorKind k)
{
	switch (k) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_CXXBoolLiteralExpr:
		return KN_INT;
	case CXCursor_FloatingLiteral:
		return KN_FLOAT;
	case CXCursor_StringLiteral:
		return KN_STRING;
	case CXCursor_DeclRefExpr:
		return KN_DECLREF;
	case CXCursor_MemberRefExpr:
		return KN_MEMBER;
	case CXCursor_ArraySubscriptExpr:
		return KN_SUBSCRIPT;
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
		return KN_BINOP;
	case CXCursor_UnaryOperator:
		return KN_UNOP;
	case CXCursor_CallExpr:
		return KN_CALL;
	case CXCursor_CStyleCastExpr:
	case CXCursor_CXXStaticCastExpr:
	case CXCursor_CXXReinterpretCastExpr:
	case CXCursor_CXXConstCastExpr:
	case CXCursor_CXXFunctionalCastExpr:
	case CXCursor_UnexposedExpr:
		return KN_CAST;
	case CXCursor_ParenExpr:
		return KN_PAREN;
	case CXCursor_ConditionalOperator:
		return KN_COND;
	case CXCursor_InitListExpr:
		return KN_INITLIST;
	case CXCursor_UnaryExpr:
		return KN_SIZEOF;
	default:
		return KN_OTHER;
	}
}

ka_op fe_map_binop(enum CXBinaryOperatorKind k)
{
	switch (k) {
	case CXBinaryOperator_Mul:
		return OP_MUL;
	case CXBinaryOperator_Div:
		return OP_DIV;
	case CXBinaryOperator_Rem:
		return OP_REM;
	case CXBinaryOperator_Add:
		return OP_ADD;
	case CXBinaryOperator_Sub:
		return OP_SUB;
	case CXBinaryOperator_Shl:
		return OP_SHL;
	case CXBinaryOperator_Shr:
		return OP_SHR;
	case CXBinaryOperator_LT:
		return OP_LT;
	case CXBinaryOperator_GT:
		return OP_GT;
	case CXBinaryOperator_LE:
		return OP_LE;
	case CXBinaryOperator_GE:
		return OP_GE;
	case CXBinaryOperator_EQ:
		return OP_EQ;
	case CXBinaryOperator_NE:
		return OP_NE;
	case CXBinaryOperator_And:
		return OP_AND;
	case CXBinaryOperator_Xor:
		return OP_XOR;
	case CXBinaryOperator_Or:
		return OP_OR;
	case CXBinaryOperator_LAnd:
		return OP_LAND;
	case CXBinaryOperator_LOr:
		return OP_LOR;
	case CXBinaryOperator_Assign:
		return OP_ASSIGN;
	case CXBinaryOperator_MulAssign:
		return OP_MULA;
	case CXBinaryOperator_DivAssign:
		return OP_DIVA;
	case CXBinaryOperator_RemAssign:
		return OP_REMA;
	case CXBinaryOperator_AddAssign:
		return OP_ADDA;
	case CXBinaryOperator_SubAssign:
		return OP_SUBA;
	case CXBinaryOperator_ShlAssign:
		return OP_SHLA;
	case CXBinaryOperator_ShrAssign:
		return OP_SHRA;
	case CXBinaryOperator_AndAssign:
		return OP_ANDA;
	case CXBinaryOperator_XorAssign:
		return OP_XORA;
	case CXBinaryOperator_OrAssign:
		return OP_ORA;
	case CXBinaryOperator_Comma:
		return OP_COMMA;
	default:
		return OP_NONE;
	}
}

ka_op fe_map_unop(enum CXUnaryOperatorKind k)
{
	switch (k) {
	case CXUnaryOperator_PostInc:
		return OP_POSTINC;
	case CXUnaryOperator_PostDec:
		return OP_POSTDEC;
	case CXUnaryOperator_PreInc:
		return OP_PREINC;
	case CXUnaryOperator_PreDec:
		return OP_PREDEC;
	case CXUnaryOperator_AddrOf:
		return OP_ADDROF;
	case CXUnaryOperator_Deref:
		return OP_DEREF;
	case CXUnaryOperator_Plus:
		return OP_PLUS;
	case CXUnaryOperator_Minus:
		return OP_MINUS;
	case CXUnaryOperator_Not:
		return OP_NOT;
	case CXUnaryOperator_LNot:
		return OP_LNOT;
	default:
		return OP_NONE;
	}
}

/* The operator token at the start of S (the longest that matches), or NULL. */
static const char *operator_token(const char *s, size_t len)
{
	static const char *const ops[] = {
		"<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++", "--",
		"+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "+",  "-",  "*",  "/",
		"%",   "<",   ">",  "&",  "|",  "^",  "=",  "!",  "~",  ","};
	for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
		size_t n = strlen(ops[i]);
		if (n <= len && !memcmp(s, ops[i], n))
			return ops[i];
	}
	return NULL;
}

ka_op fe_dependent_operator(lower_ctx *cx, CXCursor c, int *unary)
{
	*unary = 0;
	int nargs = clang_Cursor_getNumArguments(c);
	if (nargs < 1 || nargs > 2 || !clang_Cursor_isNull(clang_getCursorReferenced(c)))
		return OP_NONE;
	CXString sp = clang_getCursorSpelling(c);
	int named = clang_getCString(sp) && *clang_getCString(sp);
	clang_disposeString(sp);
	if (named)
		return OP_NONE;
	/* the callee: the child that is no argument, an unnamed reference */
	kid_list k = fe_kids_of(c);
	CXCursor callee = clang_getNullCursor();
	for (int i = 0; i < k.n && clang_Cursor_isNull(callee); i++) {
		int is_arg = 0;
		for (int j = 0; j < nargs && !is_arg; j++)
			is_arg = clang_equalCursors(k.v[i], clang_Cursor_getArgument(c, (unsigned)j));
		if (!is_arg)
			callee = k.v[i];
	}
	free(k.v);
	if (clang_Cursor_isNull(callee) || clang_getCursorKind(callee) != CXCursor_DeclRefExpr)
		return OP_NONE;
	CXFile f;
	unsigned off;
	clang_getSpellingLocation(clang_getCursorLocation(callee), &f, NULL, NULL, &off);
	size_t size = 0;
	const char *text = fe_file_text(cx, f, &size);
	if (!text || off >= size)
		return OP_NONE;
	const char *t = operator_token(text + off, size - off);
	if (!t)
		return OP_NONE;
	static const struct {
		const char *tok;
		ka_op binary, unary;
	} map[] = {
		{"<<=", OP_SHLA, OP_NONE}, {">>=", OP_SHRA, OP_NONE},  {"<<", OP_SHL, OP_NONE},
		{">>", OP_SHR, OP_NONE},   {"<=", OP_LE, OP_NONE},     {">=", OP_GE, OP_NONE},
		{"==", OP_EQ, OP_NONE},    {"!=", OP_NE, OP_NONE},     {"&&", OP_LAND, OP_NONE},
		{"||", OP_LOR, OP_NONE},   {"++", OP_NONE, OP_PREINC}, {"--", OP_NONE, OP_PREDEC},
		{"+=", OP_ADDA, OP_NONE},  {"-=", OP_SUBA, OP_NONE},   {"*=", OP_MULA, OP_NONE},
		{"/=", OP_DIVA, OP_NONE},  {"%=", OP_REMA, OP_NONE},   {"&=", OP_ANDA, OP_NONE},
		{"|=", OP_ORA, OP_NONE},   {"^=", OP_XORA, OP_NONE},   {"+", OP_ADD, OP_PLUS},
		{"-", OP_SUB, OP_MINUS},   {"*", OP_MUL, OP_DEREF},    {"/", OP_DIV, OP_NONE},
		{"%", OP_REM, OP_NONE},    {"<", OP_LT, OP_NONE},      {">", OP_GT, OP_NONE},
		{"&", OP_AND, OP_ADDROF},  {"|", OP_OR, OP_NONE},      {"^", OP_XOR, OP_NONE},
		{"=", OP_ASSIGN, OP_NONE}, {"!", OP_NONE, OP_LNOT},    {"~", OP_NONE, OP_NOT},
		{",", OP_COMMA, OP_NONE},
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
		if (strcmp(map[i].tok, t) != 0)
			continue;
		if (nargs == 2 && map[i].unary == OP_PREINC) { /* x++: the implicit 0 is the second */
			*unary = 1;
			return OP_POSTINC;
		}
		if (nargs == 2 && map[i].unary == OP_PREDEC) {
			*unary = 1;
			return OP_POSTDEC;
		}
		*unary = nargs == 1;
		return nargs == 1 ? map[i].unary : map[i].binary;
	}
	return OP_NONE;
}
