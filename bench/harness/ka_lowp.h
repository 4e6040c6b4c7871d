/* bench/harness/ka_lowp.h: the bench's 2-byte floating types, f16 (IEEE
 * binary16) and bf16 (bfloat16), as raw 16-bit patterns, with conversions
 * to and from fp32 written out bit by bit.  The harness rounds every drawn
 * input with ka_lowp_round (round to nearest, ties to even), reads outputs
 * with ka_lowp_to_float, and a task's reference.cu reads its 2-byte inputs
 * with it, so the reference computes in fp32 or fp64 from exactly the values
 * the implementations saw, without depending on the CUDA headers' own
 * conversions.  Plain C, also compiled by nvcc (host and device); the unit
 * test is tests/bench/test_tolerance.c. */
#ifndef KA_LOWP_H
#define KA_LOWP_H

#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define KA_LOWP_FN __host__ __device__ static inline
#else
#define KA_LOWP_FN static inline
#endif

KA_LOWP_FN uint32_t ka_lowp_f2u(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

KA_LOWP_FN float ka_lowp_u2f(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* bf16 is the upper half of an fp32: round the lower 16 bits away to
 * nearest, ties to even; NaN stays a (quiet) NaN, overflow becomes inf by
 * the carry itself. */
KA_LOWP_FN uint16_t ka_bf16_from_float(float f)
{
	uint32_t u = ka_lowp_f2u(f);
	if ((u & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((u >> 16) | 0x0040u);
	u += 0x7fffu + ((u >> 16) & 1u);
	return (uint16_t)(u >> 16);
}

KA_LOWP_FN float ka_bf16_to_float(uint16_t h)
{
	return ka_lowp_u2f((uint32_t)h << 16);
}

/* binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits.  Values below
 * 2^-14 become subnormals (multiples of 2^-24), values at or above 65520
 * round to inf, every rounding to nearest with ties to even. */
KA_LOWP_FN uint16_t ka_f16_from_float(float f)
{
	uint32_t u = ka_lowp_f2u(f);
	uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
	uint32_t a = u & 0x7fffffffu;
	if (a > 0x7f800000u) /* NaN: keep it quiet */
		return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
	if (a >= 0x477ff000u) /* >= 65520 (half-way to 2^16) and inf */
		return (uint16_t)(sign | 0x7c00u);
	if (a < 0x38800000u) {       /* below 2^-14: subnormal or zero */
		if (a < 0x33000000u) /* below 2^-25: rounds to zero (2^-25 itself ties to 0) */
			return sign;
		uint32_t m = (a & 0x7fffffu) | 0x800000u;
		int shift = 126 - (int)(a >> 23); /* 14..24: fp32 exponent e gives m >> (126 - e) */
		uint32_t q = m >> shift, rem = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1);
		if (rem > halfway || (rem == halfway && (q & 1u)))
			q++;
		return (uint16_t)(sign | q);
	}
	/* normal: rebias the exponent (127 -> 15), round 13 bits away; a carry
	 * out of the fraction moves the exponent up, as it should */
	uint32_t r = a - 0x38000000u;
	r += 0xfffu + ((r >> 13) & 1u);
	return (uint16_t)(sign | (r >> 13));
}

KA_LOWP_FN float ka_f16_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
	if (e == 0x1fu)
		return ka_lowp_u2f(sign | 0x7f800000u | (m << 13));
	if (e == 0) { /* zero or subnormal: m * 2^-24, exact in fp32 */
		float v = (float)m * 5.9604644775390625e-8f;
		return sign ? -v : v;
	}
	return ka_lowp_u2f(sign | ((e + 112u) << 23) | (m << 13));
}

/* The pair by flag: bf != 0 for bf16, 0 for f16. */
KA_LOWP_FN uint16_t ka_lowp_round(float f, int bf)
{
	return bf ? ka_bf16_from_float(f) : ka_f16_from_float(f);
}

KA_LOWP_FN float ka_lowp_to_float(uint16_t h, int bf)
{
	return bf ? ka_bf16_to_float(h) : ka_f16_to_float(h);
}

#endif
