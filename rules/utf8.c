/* rules/utf8.c: replace invalid UTF-8 before text reaches JSON (utf8.h). */
#include "rules/utf8.h"
#include "util/utf8.h"
#include <stdlib.h>
#include <string.h>

char *ka_utf8_fix(const char *s)
{
	size_t n = strlen(s), o = 0;
	char *out = malloc(n * 3 + 1); /* each bad byte becomes 3 bytes */
	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t k = ka_utf8_char_len(s + i, n - i);
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
