/* tests/rewriter/golden_rewriter.c: golden patch tests, one folder per
 * transform under tests/rewriter/golden/<name>/:
 *   input.cu       the kernel before
 *   facts.sql      the facts rows the analyzer would write (offsets via
 *                  off()/offend(), see fixture.h) and the fix requests:
 *                  INSERT INTO fix_request VALUES (transform, scope, rowid, rule, safety)
 *   expected.cu    the file after every requested fix
 *   expected.patch what `kcheck --diff` prints (patch -p1 applies it)
 *   expected.notes (optional) the notes, one per line
 * The runner checks all four, applies expected.patch with `patch -p1` to a
 * copy of input.cu, and compiles expected.cu with nvcc (SKIP printed when
 * nvcc is missing).  `golden_rewriter DIR --update` rewrites the expected
 * files for review. */
#include "fixture.h"
#include "rewriter/rewriter.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *dir, const char *what)
{
	fprintf(stderr, "FAIL %s: %s\n", dir, what);
	return 1;
}

static int requests(sqlite3 *db, ka_fixset *fs)
{
	sqlite3_stmt *st;
	int rc = 0, n = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT transform, scope, rowid_, rule, safety FROM fix_request "
			       "ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (rc >= 0 && sqlite3_step(st) == SQLITE_ROW) {
		const char *safety = (const char *)sqlite3_column_text(st, 4);
		ka_fix_request r = {
			.transform = (const char *)sqlite3_column_text(st, 0),
			.scope = (const char *)sqlite3_column_text(st, 1),
			.rowid = sqlite3_column_int64(st, 2),
			.rule = (const char *)sqlite3_column_text(st, 3),
			.safety = !safety || !strcmp(safety, "safe") ? KA_FIX_SAFE
				  : !strcmp(safety, "unsafe")        ? KA_FIX_UNSAFE
								     : KA_FIX_SUGGEST,
			.priority = 1,
			.finding = n++,
		};
		rc = ka_fixset_request(fs, db, &r);
		if (rc < 0)
			fprintf(stderr, "request %s failed: %s\n", r.transform, ka_error_last());
	}
	sqlite3_finalize(st);
	return rc < 0 ? -1 : n;
}

static char *notes_text(ka_fixset *fs)
{
	size_t cap = 1, n = ka_fixset_note_count(fs);
	for (size_t i = 0; i < n; i++)
		cap += strlen(ka_fixset_note_get(fs, i)) + 1;
	char *out = calloc(cap, 1);
	for (size_t i = 0; out && i < n; i++) {
		strcat(out, ka_fixset_note_get(fs, i));
		strcat(out, "\n");
	}
	return out;
}

static int same_file(const char *path, const char *text, size_t len)
{
	size_t n;
	char *want = fixture_read(path, &n);
	int same = want && n == len && memcmp(want, text, len) == 0;
	if (!same && want)
		fprintf(stderr, "--- %s expected:\n%s\n--- got:\n%.*s\n", path, want, (int)len, text);
	free(want);
	return same;
}

static int write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	fwrite(text, 1, len, f);
	return fclose(f);
}

/* expected.patch applied by `patch -p1` to a copy of input.cu gives expected.cu. */
static int patch_applies(const char *input, size_t ilen)
{
	char tmpl[] = "/tmp/ka-golden-XXXXXX", cmd[512];
	if (!mkdtemp(tmpl))
		return 0;
	snprintf(cmd, sizeof cmd, "%s/input.cu", tmpl);
	write_file(cmd, input, ilen);
	snprintf(cmd, sizeof cmd,
		 "cp expected.patch %s/ && cd %s && patch -s -p1 < expected.patch && "
		 "cmp -s input.cu %s/expected.cu",
		 tmpl, tmpl, getcwd((char[4096]){0}, 4096));
	int ok = system(cmd) == 0;
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpl);
	(void)!system(cmd);
	return ok;
}

static int compiles(const char *dir)
{
	ka_gate_opts go = KA_GATE_OPTS_INIT;
	size_t len;
	char *text = fixture_read("expected.cu", &len), *err = NULL;
	int rc = ka_gate_compile(&go, "expected.cu", text, len, &err);
	if (rc == KA_ENOTFOUND)
		printf("SKIP: nvcc not found: %s/expected.cu not compiled\n", dir);
	else if (rc != KA_OK)
		fprintf(stderr, "expected.cu does not compile: %s\n", err ? err : ka_error_last());
	free(text);
	free(err);
	return rc == KA_OK || rc == KA_ENOTFOUND;
}

int main(int argc, char **argv)
{
	if (argc < 2 || chdir(argv[1]) != 0)
		return fail(argc > 1 ? argv[1] : "?", "usage: golden_rewriter DIR [--update]");
	int update = argc > 2 && strcmp(argv[2], "--update") == 0, bad = 0;
	size_t ilen, olen;
	char *input = fixture_read("input.cu", &ilen), *facts = fixture_read("facts.sql", NULL);
	char *out = NULL, *notes = NULL, *patch = NULL;
	size_t plen = 0;
	ka_fixset *fs = NULL;
	sqlite3 *db = input && facts ? fixture_db(input) : NULL;
	if (!db || fixture_exec(db, "CREATE TABLE fix_request(transform, scope, rowid_, rule, safety)") ||
	    fixture_exec(db, facts) || ka_fixset_new(&fs) < 0 || requests(db, fs) < 0)
		return fail(argv[1], "cannot set up the facts and requests");
	ka_fixset_resolve(fs, KA_FIX_SUGGEST);
	int changed;
	if (ka_fixset_apply_file(fs, "input.cu", &out, &olen, &changed) < 0)
		return fail(argv[1], ka_error_last());
	FILE *pf = open_memstream(&patch, &plen);
	ka_diff_unified("input.cu", input, ilen, out, olen, pf);
	fclose(pf);
	notes = notes_text(fs);
	if (update) {
		write_file("expected.cu", out, olen);
		write_file("expected.patch", patch, plen);
		if (*notes || access("expected.notes", F_OK) == 0)
			write_file("expected.notes", notes, strlen(notes));
		printf("updated %s\n", argv[1]);
	} else {
		if (!same_file("expected.cu", out, olen))
			bad |= fail(argv[1], "output differs from expected.cu");
		if (!same_file("expected.patch", patch, plen))
			bad |= fail(argv[1], "patch differs from expected.patch");
		if (access("expected.notes", F_OK) == 0 ? !same_file("expected.notes", notes, strlen(notes))
							: *notes != '\0') {
			fprintf(stderr, "notes:\n%s", notes);
			bad |= fail(argv[1], "notes differ from expected.notes");
		}
		if (!changed && access("expected.notes", F_OK) != 0)
			bad |= fail(argv[1], "the transform changed nothing");
		if (changed && !patch_applies(input, ilen))
			bad |= fail(argv[1], "patch -p1 does not turn input.cu into expected.cu");
		if (!compiles(argv[1]))
			bad |= fail(argv[1], "expected.cu does not compile");
	}
	if (!bad)
		printf("ok %s\n", argv[1]);
	ka_fixset_free(fs);
	sqlite3_close(db);
	free(input);
	free(facts);
	free(out);
	free(notes);
	free(patch);
	return bad;
}
