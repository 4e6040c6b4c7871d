/* recipes/recipe_facts.c: the analyzer's facts (facts/facts_tables.def) of
 * the text a recipe rewrites, for the recipes that decide from what lint
 * sees: the shared arrays and their bank conflicts under the warp model,
 * the launch sites' block sizes.  The text goes to a temporary file and is
 * analyzed as kcheck would analyze the file (analyzer/analyzer.h), with the
 * source folder on the include path (its quoted includes resolve there) and
 * the file's compiler flags, for the run's target (ka_recipe_arch, sm_90
 * when none).  Offsets in the facts are the text's; file names are the
 * temporary file's, so a recipe matches rows by offset and name, never by
 * file.
 *
 * The last FACT_SLOTS analyses are kept per thread, keyed by the text, the
 * folder, the flags and the target: every kernel of a file asks for the
 * same text, and a recipe that checks its own rewrite asks for a second. */
#include "recipes/recipe.h"
#include "analyzer/analyzer.h"
#include "facts/facts.h"
#include "util/fs.h"
#include "util/cleanup.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FACT_SLOTS 2
/* A recipe's analysis is one file's: well under kcheck's default budget. */
#define FACT_BUDGET_S 120.0

typedef struct fact_slot {
	unsigned long long key, used;
	size_t len;
	sqlite3 *db;
	int rc;
	char err[256];
} fact_slot;
static _Thread_local fact_slot slots[FACT_SLOTS];
static _Thread_local unsigned long long fact_clock;

/* Analyze text[0..len) into a fresh database. */
static int analyze(const char *text, size_t len, const char *arch, sqlite3 **out)
{
	*out = NULL;
	const char *tmp = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/ka-facts-XXXXXX.cu", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemps(path, 3);
	if (fd < 0)
		return ka_error_set(KA_EIO, "recipe facts: cannot create a temporary file");
	int slot = ka_cleanup_add_file(path);
	int rc = KA_OK;
	FILE *f = fdopen(fd, "w");
	if (!f || fwrite(text, 1, len, f) != len)
		rc = ka_error_set(KA_EIO, "recipe facts: cannot write %s", path);
	if (f)
		fclose(f);
	else
		close(fd);
	const char *const *flags;
	int nflags = ka_recipe_flags(&flags), na = 0;
	const char *args[KA_RECIPE_MAX_FLAGS + 2];
	const char *dir = ka_recipe_source_dir();
	if (dir) {
		args[na++] = "-I";
		args[na++] = dir;
	}
	for (int i = 0; i < nflags; i++)
		args[na++] = flags[i];
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	o.arch = arch;
	o.extra_args = args;
	o.n_extra_args = na;
	o.budget_s = FACT_BUDGET_S;
	sqlite3 *db = NULL;
	if (rc == KA_OK)
		rc = ka_facts_open(&db);
	/* clang errors elsewhere in the file (a header of another project)
	 * leave the facts of what parsed: a recipe finds its kernel or not */
	if (rc == KA_OK) {
		rc = ka_analyze_file(&o, path, db);
		if (rc == KA_EPARSE)
			rc = KA_OK;
	}
	unlink(path);
	ka_cleanup_remove_file(slot);
	if (rc != KA_OK) {
		if (db)
			sqlite3_close(db);
		return rc;
	}
	*out = db;
	return KA_OK;
}

int ka_recipe_facts(const char *text, size_t len, sqlite3 **db)
{
	*db = NULL;
	const char *arch = ka_recipe_arch();
	if (!arch || !ka_arch_find(arch))
		arch = KA_ARCH_DEFAULT;
	const char *dir = ka_recipe_source_dir();
	const char *const *flags;
	int nflags = ka_recipe_flags(&flags);
	unsigned long long key = ka_fs_fnv1a(1469598103934665603ull, text, len);
	key = ka_fs_fnv1a(key, dir ? dir : "", dir ? strlen(dir) + 1 : 0);
	key = ka_fs_fnv1a(key, arch, strlen(arch) + 1);
	for (int i = 0; i < nflags; i++)
		key = ka_fs_fnv1a(key, flags[i], strlen(flags[i]) + 1);
	fact_slot *s = NULL, *old = &slots[0];
	for (int i = 0; i < FACT_SLOTS && !s; i++) {
		if (slots[i].used && slots[i].key == key && slots[i].len == len)
			s = &slots[i];
		else if (slots[i].used < old->used)
			old = &slots[i];
	}
	if (!s) {
		s = old;
		if (s->db)
			sqlite3_close(s->db);
		memset(s, 0, sizeof *s);
		s->key = key;
		s->len = len;
		s->rc = analyze(text, len, arch, &s->db);
		if (s->rc != KA_OK)
			snprintf(s->err, sizeof s->err, "%s", ka_error_last());
	}
	s->used = ++fact_clock;
	if (s->rc != KA_OK)
		return ka_error_set(s->rc, "%s", s->err);
	*db = s->db;
	return KA_OK;
}

void ka_recipe_facts_forget(void)
{
	for (int i = 0; i < FACT_SLOTS; i++) {
		if (slots[i].db)
			sqlite3_close(slots[i].db);
		memset(&slots[i], 0, sizeof slots[i]);
	}
}
