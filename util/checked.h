/* util/checked.h: checked 64-bit integer arithmetic.  Each helper stores
 * the exact result and returns 1, or returns 0 when the result does not fit
 * (or is undefined: division by zero, INT64_MIN / -1, shifts out of range).
 * Callers turn a 0 into "unknown", never into a wrapped number. */
#ifndef KA_UTIL_CHECKED_H
#define KA_UTIL_CHECKED_H
#include <stdint.h>

static inline int ka_add64(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_add_overflow(a, b, r);
}

static inline int ka_sub64(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_sub_overflow(a, b, r);
}

static inline int ka_mul64(int64_t a, int64_t b, int64_t *r)
{
	return !__builtin_mul_overflow(a, b, r);
}

static inline int ka_neg64(int64_t a, int64_t *r)
{
	return !__builtin_sub_overflow((int64_t)0, a, r);
}

/* C division (truncating); 0 for b == 0 and INT64_MIN / -1. */
static inline int ka_div64(int64_t a, int64_t b, int64_t *r)
{
	if (b == 0 || (b == -1 && a == INT64_MIN))
		return 0;
	*r = a / b;
	return 1;
}

/* C remainder; x % -1 is 0 for every x (INT64_MIN % -1 traps in hardware). */
static inline int ka_rem64(int64_t a, int64_t b, int64_t *r)
{
	if (b == 0)
		return 0;
	*r = b == -1 ? 0 : a % b;
	return 1;
}

/* a << b as a * 2^b: 0 when b is outside [0, 62] or the product overflows. */
static inline int ka_shl64(int64_t a, int64_t b, int64_t *r)
{
	if (b < 0 || b > 62)
		return 0;
	return ka_mul64(a, (int64_t)1 << b, r);
}

/* Arithmetic right shift, defined for negative a (rounds toward -inf). */
static inline int ka_shr64(int64_t a, int64_t b, int64_t *r)
{
	if (b < 0 || b > 63)
		return 0;
	*r = a >= 0 ? a >> b : -1 - ((-1 - a) >> b);
	return 1;
}

/* The product of n factors; 0 on overflow. */
static inline int ka_prod64(const int64_t *v, int n, int64_t *r)
{
	int64_t p = 1;
	for (int i = 0; i < n; i++)
		if (!ka_mul64(p, v[i], &p))
			return 0;
	*r = p;
	return 1;
}
#endif
