/* util/utf8.h: cutting text to a byte cap without splitting a UTF-8
 * character.  Messages from compilers (g++ quotes names with U+2018 and
 * U+2019), LLM replies and task files are UTF-8; a cut in the middle of a
 * character makes the text invalid, and jansson refuses invalid UTF-8, so a
 * message capped by bytes could fail a whole JSON output or request.  Every
 * place that caps such a text goes through these. */
#ifndef KA_UTIL_UTF8_H
#define KA_UTIL_UTF8_H
#include <stddef.h>

/* The length of the valid UTF-8 character at s[0..n) (1 to 4), or 0 when
 * the bytes there are not one (a stray continuation byte, an overlong form,
 * a surrogate, past U+10FFFF, or a sequence cut by n). */
size_t ka_utf8_char_len(const char *s, size_t n);
/* The largest m <= n such that s[0..m) does not end inside a character
 * that starts before m: what a cap of n bytes may keep. */
size_t ka_utf8_cut(const char *s, size_t n);
/* Copy src[0..n), up to its first NUL, into dst as valid UTF-8: a
 * character cut by n is dropped, every other byte that is not part of a
 * valid character becomes '?', and the copy stops before the character
 * that would not fit in cap - 1 bytes.  dst is NUL-terminated (cap > 0)
 * and may be src itself.  Returns its length. */
size_t ka_utf8_copy(char *dst, size_t cap, const char *src, size_t n);

#endif
