/* util/text.h: small helpers over source text for the code that edits it
 * (the rewriter's transforms, the offline expert's recipes). */
#ifndef KA_UTIL_TEXT_H
#define KA_UTIL_TEXT_H
#include <stddef.h>

/* Widens [*b, *e) of s[0..len) to its whole line, newline included, when
 * only blanks (spaces, tabs) stand beside it there, so that deleting it
 * leaves no empty line; else leaves the range as it is. */
void ka_text_whole_line(const char *s, size_t len, size_t *b, size_t *e);

#endif
