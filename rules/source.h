/* rules/source.h: the source text behind findings, read once per file.
 *
 * Reports need it (the excerpt under a text finding, UTF-16 columns for
 * SARIF), and so do suppressions (NOLINT comments) and the baseline
 * (fingerprints of the flagged line).  Used from one thread. */
#ifndef KA_RULES_SOURCE_H
#define KA_RULES_SOURCE_H
#include <stddef.h>

typedef struct ka_sources ka_sources;

int ka_sources_new(ka_sources **out);
void ka_sources_free(ka_sources *s);
/* The file's bytes (NUL-terminated), or NULL when it cannot be read. */
const char *ka_sources_text(ka_sources *s, const char *path, size_t *len);
/* Line `line` (1-based) of path without its line ending; 0 when absent. */
int ka_sources_line(ka_sources *s, const char *path, int line, const char **p, size_t *len);

/* SARIF columns count UTF-16 code units; the analyzer's count bytes.
 * Converts a 1-based byte column of a line into a 1-based UTF-16 column
 * (invalid UTF-8 counts one unit per byte; columns past the end extend
 * one unit per byte). */
int ka_utf16_column(const char *line, size_t len, int byte_col);

#endif
