/* util/ccdiag.h: compiler output, cut down to what concerns the files that
 * were compiled.  A compiler's diagnostic quotes the source line it is about;
 * when that line belongs to a file outside the compiled set (a header the
 * source managed to include, a system file), the quote could carry that
 * file's contents (a key, a password) into a bench result, an LLM prompt or a
 * report.  The filter keeps a diagnostic (its location line and the quote and
 * caret lines after it) only when its location names an allowed file.
 *
 * Location lines understood: nvcc/EDG "FILE(LINE): ...", gcc/clang
 * "FILE:LINE[:COL]: ...", "In file included from FILE:LINE", "from FILE:LINE",
 * "FILE: In function ...", "FILE: At global scope:" and nvcc's "N errors
 * detected in the compilation of "FILE"."  Lines before the first location
 * (nvcc fatal, ptxas) are kept. */
#ifndef KA_UTIL_CCDIAG_H
#define KA_UTIL_CCDIAG_H
#include <stddef.h>
#include "util/buf.h"

/* Appends to out the lines of text[0..len) about the files in allowed (a
 * NULL-terminated list; an entry ending in '/' allows every path under that
 * folder).  Returns how many lines were left out, or a negative code when
 * out is full. */
int ka_ccdiag_filter(const char *text, size_t len, const char *const *allowed, ka_buf *out);

#endif
