/* util/text.h: small helpers over source text for the code that edits it
 * (the rewriter's transforms, the offline expert's recipes). */
#ifndef KA_UTIL_TEXT_H
#define KA_UTIL_TEXT_H
#include <stddef.h>

/* Widens [*b, *e) of s[0..len) to its whole line, newline included, when
 * only blanks (spaces, tabs) stand beside it there, so that deleting it
 * leaves no empty line; else leaves the range as it is. */
void ka_text_whole_line(const char *s, size_t len, size_t *b, size_t *e);

/* The candidate nearest to w by edit distance (insert, delete, replace,
 * swap of two neighbours), when close enough to be a typo: at most 1 edit
 * for words up to 4 characters, 2 up to 8, 3 beyond; NULL otherwise or on
 * a tie.  For "did you mean" hints. */
const char *ka_text_nearest(const char *w, const char *const *cands, size_t n);

#endif
