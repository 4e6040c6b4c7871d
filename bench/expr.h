/* bench/expr.h: integer expressions of a task's configuration parameters
 * ("rows*cols", "cdiv(n,256)*4", "2*m*n*k").  Used for tensor shapes, the
 * scratch size and the bytes/FLOPs of the roofline. */
#ifndef KA_BENCH_EXPR_H
#define KA_BENCH_EXPR_H

/* Evaluate `src` with variables names[i] = values[i].  Operators + - * / %
 * and parentheses, unary minus, functions min(a,b) max(a,b) cdiv(a,b).
 * Returns 0, or KA_EINPUT with a message naming the problem (unknown name,
 * division by zero, overflow, syntax). */
int ka_bench_expr_eval(const char *src, const char *const *names, const long long *values, int n,
		       long long *out);

#endif
