/* analyzer/walk_emit.c: the walker's rows, on the typed facts writer
 * (facts/facts.h).  The walk computes; the functions here turn what it
 * found into rows. */
#include "analyzer/walk.h"

void walk_emit_loc(ka_facts_row *r, const ka_loc *l)
{
	ka_facts_loc fl = {.file = l->file, .line = l->line, .col = l->col,
	                   .end_line = l->end_line, .end_col = l->end_col,
	                   .begin = !l->in_macro && l->begin >= 0 ? l->begin : -1,
	                   .end = !l->in_macro && l->end >= 0 ? l->end : -1};
	ka_facts_loc_set(r, &fl);
}
