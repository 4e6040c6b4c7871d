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
