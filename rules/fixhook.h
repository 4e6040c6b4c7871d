/* rules/fixhook.h: how the rule engine reaches the rewriter without
 * depending on it (links flow util <- analyzer <- rules <- rewriter).
 *
 * The rewriter registers a function that applies the fixes of a list of
 * findings to a file's text; `kcheck rules test` uses it to check a rule's
 * `fixed` example against `--fix` applied to its `bad` one, and the
 * transform's declared safety ceiling to check the rule's `fix_safety`.
 * With no hook registered, those checks are skipped (with a note). */
#ifndef KA_RULES_FIXHOOK_H
#define KA_RULES_FIXHOOK_H
#include <sqlite3.h>
#include <stddef.h>
#include "rules/finding.h"

/* Apply the fixes of fs (all in `path`, whose bytes are text/len; db holds
 * the facts the findings came from) and return the new text in *out
 * (caller frees).  KA_OK or < 0 with a message. */
typedef int (*ka_fix_hook)(sqlite3 *db, const char *path, const char *text, size_t len,
			   const ka_findings *fs, char **out, size_t *out_len);

void ka_rules_set_fix_hook(ka_fix_hook fn);
ka_fix_hook ka_rules_get_fix_hook(void);

/* The safety ceiling a transform declares (the best class any of its fixes
 * can get), or -1 when no transform has that name.  `kcheck rules test`
 * reports a rule whose fix_safety claims more: a rule may only demote. */
typedef int (*ka_fix_ceiling_hook)(const char *transform);

void ka_rules_set_fix_ceiling_hook(ka_fix_ceiling_hook fn);
ka_fix_ceiling_hook ka_rules_get_fix_ceiling_hook(void);

#endif
