/* lint/findfile.c: find the nearest file of a name in a folder or its
 * parents (.kcheck.yaml, compile_commands.json), the way git finds .git. */
#include "lint/lint_int.h"
#include "util/fs.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

char *ka_lint_findfile(ka_arena *a, const char *start, const char *name)
{
	/* the text of `kcheck -` is where --stdin-filename says, there or not */
	const char *held = start && ka_fs_overlay_get(start, NULL) ? ka_fs_overlay_abs() : NULL;
	char *dir = held ? strdup(held) : realpath(start && *start ? start : ".", NULL);
	char *found = NULL;
	if (!dir)
		return NULL;
	if (!ka_fs_is_dir(dir)) { /* a file: start from its folder */
		char *slash = strrchr(dir, '/');
		if (slash)
			*(slash == dir ? slash + 1 : slash) = '\0';
	}
	for (;;) {
		char *cand = ka_arena_printf(a, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", name);
		if (ka_fs_exists(cand) && !ka_fs_is_dir(cand)) {
			found = cand;
			break;
		}
		char *slash = strrchr(dir, '/');
		if (!slash || strcmp(dir, "/") == 0)
			break;
		*(slash == dir ? slash + 1 : slash) = '\0';
	}
	free(dir);
	return found;
}
