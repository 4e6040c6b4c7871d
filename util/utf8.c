/* util/utf8.c: UTF-8 validation and character-safe cuts (util/utf8.h).
 * The rules are RFC 3629's, the ones jansson checks: no overlong forms, no
 * surrogates, nothing above U+10FFFF. */
#include "util/utf8.h"
#include <string.h>

size_t ka_utf8_char_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	size_t len = u[0] >= 0xc2 && u[0] <= 0xdf   ? 2
		     : u[0] >= 0xe0 && u[0] <= 0xef ? 3
		     : u[0] >= 0xf0 && u[0] <= 0xf4 ? 4
						    : 0;
	if (len == 0 || len > n)
		return 0;
	/* the second byte's range narrows for E0 (overlong), ED (surrogates),
	 * F0 (overlong) and F4 (past U+10FFFF) */
	unsigned char lo = u[0] == 0xe0 ? 0xa0 : u[0] == 0xf0 ? 0x90 : 0x80;
	unsigned char hi = u[0] == 0xed ? 0x9f : u[0] == 0xf4 ? 0x8f : 0xbf;
	if (u[1] < lo || u[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((u[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

size_t ka_utf8_cut(const char *s, size_t n)
{
	/* back over at most three continuation bytes to the lead of the last
	 * character; keep that character only when all of it is before n */
	size_t b = n;
	while (b > 0 && n - b < 3 && ((unsigned char)s[b - 1] & 0xc0) == 0x80)
		b--;
	unsigned char lead = b ? (unsigned char)s[b - 1] : 0;
	if (lead < 0xc2 || lead > 0xf4)
		return n; /* ends after ASCII, or in bytes no lead starts: nothing is cut */
	size_t want = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
	return b - 1 + want <= n ? n : b - 1;
}

size_t ka_utf8_copy(char *dst, size_t cap, const char *src, size_t n)
{
	if (cap == 0)
		return 0;
	size_t i = 0, k = 0, m = 0;
	while (m < n && src[m]) /* a NUL ends the text */
		m++;
	n = ka_utf8_cut(src, m); /* a character cut by n is dropped, not replaced */
	while (i < n) {
		size_t len = ka_utf8_char_len(src + i, n - i);
		if (len == 0 && (unsigned char)src[i] >= 0x80) {
			if (k + 1 > cap - 1)
				break;
			dst[k++] = '?';
			i++;
			continue;
		}
		if (k + len > cap - 1)
			break;
		memmove(dst + k, src + i, len);
		k += len;
		i += len;
	}
	dst[k] = 0;
	return k;
}
