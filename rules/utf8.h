/* rules/utf8.h: text for JSON outputs (reports, baseline).
 *
 * File names, source lines and messages are bytes; JSON strings must be
 * UTF-8, and jansson refuses anything else (json_string() returns NULL).
 * Invalid bytes become U+FFFD, the replacement character, so a finding is
 * never dropped or half-written because of a Latin-1 file name. */
#ifndef KA_RULES_UTF8_H
#define KA_RULES_UTF8_H
#include <jansson.h>
#include <stddef.h>

/* A malloc'd copy of s with each invalid byte replaced by U+FFFD; NULL
 * when out of memory. */
char *ka_utf8_fix(const char *s);

/* json_string() of s with invalid bytes replaced; json_null() for a NULL
 * s; NULL only when out of memory. */
json_t *ka_json_text(const char *s);

#endif
