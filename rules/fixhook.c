/* rules/fixhook.c: the rewriter's fix function, registered at start-up by
 * whoever links the rewriter (see fixhook.h).  Set once before any worker
 * starts, read-only afterwards. */
#include "rules/fixhook.h"

static ka_fix_hook the_hook;

void ka_rules_set_fix_hook(ka_fix_hook fn) { the_hook = fn; }
ka_fix_hook ka_rules_get_fix_hook(void) { return the_hook; }
