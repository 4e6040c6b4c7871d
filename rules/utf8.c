/* rules/utf8.c: replace invalid UTF-8 before text reaches JSON (utf8.h). */
#include "rules/utf8.h"
#include <stdlib.h>
#include <string.h>

size_t ka_utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len;
	unsigned cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2, cp = c & 0x1F;
	else if (c >= 0xE0 && c <= 0xEF)
		len = 3, cp = c & 0x0F;
	else if (c >= 0xF0 && c <= 0xF4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

char *ka_utf8_fix(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out = malloc(n * 3 + 1); /* each bad byte becomes 3 bytes */
	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t k = ka_utf8_seq((const unsigned char *)s + i, n - i);
		if (k) {
			memcpy(out + o, s + i, k);
			o += k;
			i += k;
		} else {
			memcpy(out + o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}

json_t *ka_json_text(const char *s)
{
	if (!s)
		return json_null();
	char *fixed = ka_utf8_fix(s);
	json_t *j = fixed ? json_string(fixed) : NULL;
	free(fixed);
	return j;
}
