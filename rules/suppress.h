/* rules/suppress.h: inline suppressions, clang-tidy style.
 *
 *   x = a[i];  // NOLINT(gmem-uncoalesced-access) -- reason
 *   // NOLINTNEXTLINE(gmem-*, smem-bank-conflict)
 *   // NOLINTBEGIN(sync-*) -- generated code
 *   ...
 *   // NOLINTEND(sync-*)
 *
 * No parentheses (or empty ones) means every rule; list items are globs.
 * A NOLINTEND closes the innermost open NOLINTBEGIN with the same list.
 */
#ifndef KA_RULES_SUPPRESS_H
#define KA_RULES_SUPPRESS_H
#include <stddef.h>

typedef enum ka_nolint_kind { KA_NOLINT, KA_NOLINT_NEXTLINE, KA_NOLINT_BEGIN, KA_NOLINT_END } ka_nolint_kind;

typedef struct ka_suppression {
	ka_nolint_kind kind;
	int line, col;   /* where the comment is (1-based, byte column) */
	int first, last; /* lines it covers */
	char **rules;    /* globs; nrules == 0 means all */
	int nrules;
	char *reason;  /* text after `--`, or NULL */
	int used;      /* set by ka_suppress_match */
	int unmatched; /* BEGIN without END, or END without BEGIN */
} ka_suppression;

typedef struct ka_suppressions {
	ka_suppression *v;
	size_t n, cap;
} ka_suppressions;

/* Find every NOLINT comment in a file's text.  KA_OK or KA_ENOMEM. */
int ka_suppress_parse(const char *text, size_t len, ka_suppressions *out);
void ka_suppressions_free(ka_suppressions *s);
/* 1 when rule at line is suppressed (and marks the suppression used). */
int ka_suppress_match(ka_suppressions *s, int line, const char *rule);
const char *ka_nolint_name(ka_nolint_kind k);

#endif
