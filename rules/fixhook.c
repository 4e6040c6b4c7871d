/* rules/fixhook.c: the rewriter's fix function and safety ceilings, registered at start-up by
 * whoever links the rewriter (see fixhook.h).  Set once before any worker
 * starts, read-only afterwards. */
#include "rules/fixhook.h"

static ka_fix_hook the_hook;
static ka_fix_ceiling_hook the_ceiling;

void ka_rules_set_fix_hook(ka_fix_hook fn) { the_hook = fn; }
ka_fix_hook ka_rules_get_fix_hook(void) { return the_hook; }
void ka_rules_set_fix_ceiling_hook(ka_fix_ceiling_hook fn) { the_ceiling = fn; }
ka_fix_ceiling_hook ka_rules_get_fix_ceiling_hook(void) { return the_ceiling; }
