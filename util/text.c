/* util/text.c: see text.h. */
#include "util/text.h"

void ka_text_whole_line(const char *s, size_t len, size_t *b, size_t *e)
{
	size_t lb = *b, le = *e;
	while (lb > 0 && (s[lb - 1] == ' ' || s[lb - 1] == '\t'))
		lb--;
	while (le < len && (s[le] == ' ' || s[le] == '\t'))
		le++;
	if ((lb == 0 || s[lb - 1] == '\n') && le < len && s[le] == '\n') {
		*b = lb;
		*e = le + 1;
	}
}
