/* util/text.c: see text.h. */
#include "util/text.h"
#include <string.h>

void ka_text_whole_line(const char *s, size_t len, size_t *b, size_t *e)
{
	size_t lb = *b, le = *e;
	while (lb > 0 && (s[lb - 1] == ' ' || s[lb - 1] == '\t'))
		lb--;
	while (le < len && (s[le] == ' ' || s[le] == '\t'))
		le++;
	if ((lb == 0 || s[lb - 1] == '\n') && le < len && s[le] == '\n') {
		*b = lb;
		*e = le + 1;
	}
}

/* Optimal string alignment distance, rows of at most 128 columns (longer
 * words are no typo of each other). */
static int text_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 127 || lb > 127)
		return 1000;
	int prev2[128], prev[128], cur[128];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = prev[j - 1] + cost;
			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		memcpy(prev2, prev, sizeof prev);
		memcpy(prev, cur, sizeof cur);
	}
	return prev[lb];
}

const char *ka_text_nearest(const char *w, const char *const *cands, size_t n)
{
	size_t len = strlen(w);
	int limit = len <= 4 ? 1 : len <= 8 ? 2 : 3, best = limit + 1, ties = 0;
	const char *pick = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!cands[i])
			continue;
		int d = text_distance(w, cands[i]);
		if (d < best) {
			best = d, pick = cands[i], ties = 0;
		} else if (d == best && pick && strcmp(pick, cands[i]) != 0) {
			ties = 1;
		}
	}
	return best <= limit && !ties ? pick : NULL;
}
