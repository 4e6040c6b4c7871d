/* analyzer/ranges.h: "is [b, e) inside one of these ranges?" in O(log n),
 * for the front end's macro-expansion test on every lowered node. */
#ifndef KA_ANALYZER_RANGES_H
#define KA_ANALYZER_RANGES_H

/* pairs: n (begin, end) pairs, sorted here by begin; maxend (n ints, the
 * caller's) receives the running maximum of the ends. */
void ka_ranges_index(int *pairs, int n, int *maxend);
/* 1 when some range has begin <= b and e <= end (after ka_ranges_index). */
int ka_ranges_cover(const int *pairs, const int *maxend, int n, int b, int e);

#endif
