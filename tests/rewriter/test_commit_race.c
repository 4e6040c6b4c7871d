/* tests/rewriter/test_commit_race.c: fixes against files that change while
 * kcheck works on them.  Fixes are computed on given (analysed) bytes and a
 * strict fixset never reads the disk; two jobs that read one file at
 * different times make the later job's fixes stale; a save made while the
 * compile gate runs is kept (the write re-checks before its rename); an I/O
 * error of the gate is an error, not "does not compile".  Registered from
 * test_rewriter.c's main. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"
#include "rewriter/rewriter.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static char *at(const char *name)
{
	static char p[2][512];
	static int k;
	k ^= 1;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static void put(const char *path, const char *text, int mode)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, (mode_t)mode), 0);
}

static void tmp_dir(void)
{
	snprintf(dir, sizeof dir, "/tmp/ka-race-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void rm_dir(void)
{
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* A strict fixset holding `analysed` for path, with "x = 1" -> "x = 2". */
static ka_fixset *fix_on(const char *path, const char *analysed)
{
	ka_fixset *fs;
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	assert_int_equal(ka_fixset_set_source(fs, path, analysed, strlen(analysed)), KA_OK);
	ka_fixset_set_strict(fs);
	const char *x = strstr(analysed, "x = 1");
	assert_non_null(x);
	ka_fix *f = ka_fixset_add_fix(fs, path, "r", "xf", KA_FIX_SAFE, 1, -1, "m");
	assert_int_equal(ka_fix_add_edit(f, (size_t)(x - analysed) + 4, (size_t)(x - analysed) + 5, "2"),
			 KA_OK);
	return fs;
}

void test_race_strict_source_and_merge(void **state)
{
	(void)state;
	tmp_dir();
	put(at("k.cu"), "int x = 1;\n", 0644);
	ka_fixset *a = fix_on(at("k.cu"), "int x = 1;\n");
	const char *src;
	size_t len;
	/* a strict set never reads the disk, even for a file that exists */
	assert_int_equal(ka_fixset_source(a, at("other.cu"), &src, &len), KA_EIO);
	put(at("other.cu"), "int y;\n", 0644);
	assert_int_equal(ka_fixset_source(a, at("other.cu"), &src, &len), KA_EIO);
	assert_non_null(strstr(ka_error_last(), "not among the analysed files"));
	/* a second job read the file after another run had fixed it */
	ka_fixset *b = fix_on(at("k.cu"), "int x = 1; // changed\n");
	ka_fixset *all;
	assert_int_equal(ka_fixset_new(&all), KA_OK);
	assert_int_equal(ka_fixset_merge(all, a, 0), KA_OK);
	assert_int_equal(ka_fixset_merge(all, b, 1), KA_OK);
	assert_int_equal(ka_fixset_count(all), 2);
	ka_fixset_resolve(all, KA_FIX_SAFE);
	assert_int_equal(ka_fixset_get(all, 0)->status, KA_FIX_ACCEPTED);
	assert_int_equal(ka_fixset_get(all, 1)->status, KA_FIX_STALE);
	assert_int_equal(ka_fixset_note_count(all), 1);
	assert_non_null(strstr(ka_fixset_note_get(all, 0), "changed on disk during the run"));
	ka_fixset_free(a);
	ka_fixset_free(b);
	ka_fixset_free(all);
	rm_dir();
}

void test_race_save_during_gate(void **state)
{
	(void)state;
	tmp_dir();
	char cc[600];
	snprintf(cc, sizeof cc, "#!/bin/sh\necho '// saved' >> %s/k.cu\nexit 0\n", dir);
	put(at("cc.sh"), cc, 0755);
	put(at("k.cu"), "int x = 1;\n", 0644);
	ka_fixset *fs = fix_on(at("k.cu"), "int x = 1;\n");
	char *log = NULL;
	size_t n = 0;
	ka_commit_opts o = {.max_safety = KA_FIX_SAFE,
			    .write = 1,
			    .gate = 1,
			    .gate_opts = {.nvcc = at("cc.sh")},
			    .log = open_memstream(&log, &n)};
	ka_commit_result res;
	assert_int_equal(ka_fixset_commit(fs, &o, &res), KA_OK);
	fclose(o.log);
	assert_int_equal(res.files_changed, 0);
	assert_int_equal(res.fixes_applied, 0);
	assert_int_equal(res.fixes_rejected, 1);
	assert_int_equal(ka_fixset_get(fs, 0)->status, KA_FIX_STALE);
	char *t = fixture_read(at("k.cu"), NULL);
	assert_string_equal(t, "int x = 1;\n// saved\n"); /* the save wins */
	assert_non_null(strstr(log, "k.cu: fixes not applied: the file changed on disk during the run"));
	free(t);
	free(log);
	ka_fixset_free(fs);
	rm_dir();
}

void test_race_gate_io_error(void **state)
{
	(void)state;
	tmp_dir();
	const char *name = "k.cu";
	put(at("ok.sh"), "#!/bin/sh\nexit 0\n", 0755);
	put(at(name), "int x = 1;\n", 0644);
	ka_fixset *fs = fix_on(at(name), "int x = 1;\n");
	ka_commit_opts o = {
		.max_safety = KA_FIX_SAFE, .write = 1, .gate = 1, .gate_opts = {.nvcc = at("ok.sh")}};
	ka_commit_result res;
	/* the gate's private copy cannot be made: no folder can be created in /proc */
	char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	setenv("TMPDIR", "/proc", 1);
	int rc = ka_fixset_commit(fs, &o, &res);
	old ? setenv("TMPDIR", old, 1) : unsetenv("TMPDIR");
	free(old);
	assert_int_equal(rc, KA_EIO);
	assert_non_null(strstr(ka_error_last(), "cannot create a private folder in /proc"));
	char *t = fixture_read(at(name), NULL);
	assert_string_equal(t, "int x = 1;\n");
	free(t);
	ka_fixset_free(fs);
	rm_dir();
}
