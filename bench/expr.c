/* bench/expr.c: recursive-descent evaluator for bench/expr.h.  Integers
 * only (64-bit, overflow is an error): shapes and byte counts are exact. */
#include "bench/expr.h"
#include <assert.h>
#include <ctype.h>
#include <limits.h>
#include <string.h>
#include <stdio.h>
#include "util/error.h"

struct ev {
	const char *s, *src;
	const char *const *names;
	const long long *values;
	int n;
	int err;
};

static int fail(struct ev *e, const char *what)
{
	if (!e->err)
		ka_error_set(KA_EINPUT, "expression \"%s\": %s at offset %d", e->src, what,
			     (int)(e->s - e->src));
	e->err = 1;
	return 0;
}

static void skip(struct ev *e)
{
	while (isspace((unsigned char)*e->s))
		e->s++;
}

static long long sum(struct ev *e);

static long long call2(struct ev *e, const char *fn)
{
	long long a, b;
	skip(e);
	if (*e->s != '(')
		return fail(e, "expected '('");
	e->s++;
	a = sum(e);
	skip(e);
	if (*e->s != ',')
		return fail(e, "expected ','");
	e->s++;
	b = sum(e);
	skip(e);
	if (*e->s != ')')
		return fail(e, "expected ')'");
	e->s++;
	if (!strcmp(fn, "min"))
		return a < b ? a : b;
	if (!strcmp(fn, "max"))
		return a > b ? a : b;
	if (b <= 0)
		return fail(e, "cdiv by a non-positive number");
	return a / b + (a % b != 0 && a > 0);
}

static long long atom(struct ev *e)
{
	char name[64];
	size_t len = 0;
	skip(e);
	if (*e->s == '(') {
		e->s++;
		long long v = sum(e);
		skip(e);
		if (*e->s != ')')
			return fail(e, "expected ')'");
		e->s++;
		return v;
	}
	if (*e->s == '-') {
		e->s++;
		long long v = atom(e);
		if (e->err)
			return 0;
		if (v == LLONG_MIN)
			return fail(e, "overflow");
		return -v;
	}
	if (isdigit((unsigned char)*e->s)) {
		long long v = 0;
		while (isdigit((unsigned char)*e->s)) {
			if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, *e->s - '0', &v))
				return fail(e, "number too large");
			e->s++;
		}
		return v;
	}
	if (!isalpha((unsigned char)*e->s) && *e->s != '_')
		return fail(e, *e->s ? "unexpected character" : "unexpected end");
	while ((isalnum((unsigned char)*e->s) || *e->s == '_') && len + 1 < sizeof name)
		name[len++] = *e->s++;
	name[len] = 0;
	if (!strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "cdiv"))
		return call2(e, name);
	for (int i = 0; i < e->n; i++)
		if (!strcmp(e->names[i], name))
			return e->values[i];
	char msg[96];
	snprintf(msg, sizeof msg, "unknown name '%s'", name);
	return fail(e, msg);
}

static long long product(struct ev *e)
{
	long long v = atom(e);
	for (;;) {
		skip(e);
		char op = *e->s;
		if (op != '*' && op != '/' && op != '%')
			return v;
		e->s++;
		long long r = atom(e);
		if (e->err)
			return 0;
		if (op == '*') {
			if (__builtin_mul_overflow(v, r, &v))
				return fail(e, "overflow");
		} else if (r == 0) {
			return fail(e, "division by zero");
		} else if (v == LLONG_MIN && r == -1) {
			return fail(e, "overflow"); /* LLONG_MIN / -1 traps (SIGFPE), and so does % */
		} else {
			v = op == '/' ? v / r : v % r;
		}
	}
}

static long long sum(struct ev *e)
{
	long long v = product(e);
	for (;;) {
		skip(e);
		char op = *e->s;
		if (op != '+' && op != '-')
			return v;
		e->s++;
		long long r = product(e);
		if (e->err)
			return 0;
		if (op == '+' ? __builtin_add_overflow(v, r, &v) : __builtin_sub_overflow(v, r, &v))
			return fail(e, "overflow");
	}
}

int ka_bench_expr_eval(const char *src, const char *const *names, const long long *values, int n,
		       long long *out)
{
	assert(src && out && n >= 0 && (n == 0 || (names && values)));
	struct ev e = {src, src, names, values, n, 0};
	*out = 0;
	long long v = sum(&e);
	skip(&e);
	if (!e.err && *e.s)
		fail(&e, "unexpected trailing text");
	if (e.err)
		return KA_EINPUT;
	*out = v;
	return 0;
}
