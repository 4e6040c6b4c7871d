/* analyzer/ranges.c: containment queries over a sorted set of ranges
 * (ranges.h).  Sorted by begin with a running maximum of the ends, the
 * ranges that start at or before b are a prefix, and one of them reaches e
 * exactly when the prefix's maximum end does. */
#include "analyzer/ranges.h"
#include <stdlib.h>

static int by_begin(const void *a, const void *b)
{
	const int *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

void ka_ranges_index(int *pairs, int n, int *maxend)
{
	if (n <= 0)
		return;
	qsort(pairs, (size_t)n, 2 * sizeof *pairs, by_begin);
	for (int i = 0; i < n; i++)
		maxend[i] = i && maxend[i - 1] > pairs[2 * i + 1] ? maxend[i - 1] : pairs[2 * i + 1];
}

int ka_ranges_cover(const int *pairs, const int *maxend, int n, int b, int e)
{
	int lo = 0, hi = n; /* first index with begin > b */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (pairs[2 * mid] <= b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && maxend[lo - 1] >= e;
}
