/* tests/util/test_embed.c: embedded tables (cmake/KaEmbed.cmake output,
 * looked up with util/embed.h) carry files byte for byte, and the slot
 * tables of util/cleanup.h: how many, what a freed slot means, what a
 * signal sweeps and what it leaves. */
#include "test_util.h"
#include "util/cleanup.h"
#include "util/embed.h"
#include "util/error.h"
#include "util/fs.h"
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Generated from tests/util/fixtures by ka_embed_files(). */
extern const struct ka_embedded ka_test_util_embed[];

static void embedded_bytes_match_the_files(void **state)
{
	(void)state;
	const struct ka_embedded *e = ka_embed_find(ka_test_util_embed, "tests/util/fixtures/embed.txt");
	assert_non_null(e);
	char *want = NULL;
	size_t n = 0;
	assert_int_equal(ka_fs_read(KA_UTIL_FIXTURES "/embed.txt", 0, &want, &n), KA_OK);
	assert_true(n > 2000); /* past the generator's line split */
	assert_int_equal(e->len, n);
	assert_memory_equal(e->data, want, n);
	free(want);
	const struct ka_embedded *empty = ka_embed_find(ka_test_util_embed, "tests/util/fixtures/empty.txt");
	assert_non_null(empty);
	assert_int_equal(empty->len, 0);
}

static void embed_lookup_is_exact(void **state)
{
	(void)state;
	static const struct ka_embedded t[] = {
		{"rules/gmem/a.md", "A", 1},
		{"rules/gmem/ab.md", "AB", 2},
		{0, 0, 0},
	};
	assert_ptr_equal(ka_embed_find(t, "rules/gmem/ab.md"), &t[1]);
	assert_ptr_equal(ka_embed_find(t, "rules/gmem/a.md"), &t[0]);
	assert_null(ka_embed_find(t, "rules/gmem/a")); /* no prefix match */
	assert_null(ka_embed_find(t, "gmem/a.md"));    /* no suffix match */
	assert_null(ka_embed_find(t, ""));
	assert_null(ka_embed_find(NULL, "rules/gmem/a.md"));
	static const struct ka_embedded none[] = {{0, 0, 0}};
	assert_null(ka_embed_find(none, "rules/gmem/a.md"));
}

static void cleanup_slots(void **state)
{
	(void)state;
	int slot[64];
	for (int i = 0; i < 64; i++) {
		slot[i] = ka_cleanup_add_file("/tmp/ka-util-never-made");
		assert_true(slot[i] >= 0);
	}
	assert_int_equal(ka_cleanup_add_file("/tmp/ka-util-never-made"), -1); /* all taken */
	ka_cleanup_remove_file(slot[17]);
	assert_int_equal(ka_cleanup_add_file("/tmp/ka-util-never-made"), slot[17]);
	for (int i = 0; i < 64; i++)
		ka_cleanup_remove_file(slot[i]);
	ka_cleanup_remove_file(-1); /* what a full table hands out */
	char *toolong = malloc(PATH_MAX + 1);
	assert_non_null(toolong);
	memset(toolong, 'p', PATH_MAX);
	toolong[PATH_MAX] = '\0';
	assert_int_equal(ka_cleanup_add_file(toolong), -1);
	free(toolong);
	assert_int_equal(ka_cleanup_add_group(0), -1); /* kill(0) would be our own group */
	assert_int_equal(ka_cleanup_add_group(-5), -1);
	int g = ka_cleanup_add_group(999999);
	assert_true(g >= 0);
	ka_cleanup_remove_group(g);
	ka_cleanup_remove_group(-1);
}

/* In a child: register keep and drop, unregister keep, raise sig. */
static int die_with(int sig, const char *keep, const char *drop, int ignore_first)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (ignore_first)
			signal(sig, SIG_IGN);
		ka_cleanup_install();
		ka_cleanup_install(); /* twice is once */
		int k = ka_cleanup_add_file(keep);
		ka_cleanup_add_file(drop);
		ka_cleanup_remove_file(k);
		raise(sig);
		_exit(42); /* reached when the signal is ignored */
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return st;
}

static void signal_sweeps_only_registered_files(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *keep = tu_path(dir, "kept.cu"), *drop = tu_path(dir, "k.cu.kaAbc123");
	for (int round = 0; round < 3; round++) {
		static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
		FILE *f = fopen(keep, "w");
		assert_non_null(f);
		fclose(f);
		f = fopen(drop, "w");
		assert_non_null(f);
		fclose(f);
		int st = die_with(sigs[round], keep, drop, 0);
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), sigs[round]);
		assert_int_equal(access(drop, F_OK), -1);
		assert_int_equal(access(keep, F_OK), 0);
	}
	/* nohup: an ignored SIGHUP stays ignored, nothing is swept */
	FILE *f = fopen(drop, "w");
	assert_non_null(f);
	fclose(f);
	int st = die_with(SIGHUP, keep, drop, 1);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 42);
	assert_int_equal(access(drop, F_OK), 0);
	tu_rmtree(dir);
	free(drop);
	free(keep);
	free(dir);
}

/* A forked worker forgets its parent's registrations: its SIGTERM sweeps
 * only its own file and kills no group the parent registered. */
static void forked_child_forgets_the_parents(void **state)
{
	(void)state;
	char *dir = tu_tmpdir(), *mine = tu_path(dir, "parent.tmp"), *its = tu_path(dir, "child.tmp");
	FILE *f = fopen(mine, "w");
	assert_non_null(f);
	fclose(f);
	pid_t sibling = fork(); /* stands for another worker, in a group of its own */
	assert_true(sibling >= 0);
	if (sibling == 0) {
		setpgid(0, 0);
		pause();
		_exit(0);
	}
	setpgid(sibling, sibling);
	int fs = ka_cleanup_add_file(mine), gs = ka_cleanup_add_group(sibling);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		ka_cleanup_forget_all();
		ka_cleanup_install();
		FILE *g = fopen(its, "w");
		if (g)
			fclose(g);
		ka_cleanup_add_file(its);
		raise(SIGTERM);
		_exit(42);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(access(its, F_OK), -1);             /* its own: swept */
	assert_int_equal(access(mine, F_OK), 0);             /* the parent's: left */
	assert_int_equal(waitpid(sibling, &st, WNOHANG), 0); /* the other worker: alive */
	kill(sibling, SIGKILL);
	waitpid(sibling, &st, 0);
	ka_cleanup_remove_file(fs);
	ka_cleanup_remove_group(gs);
	tu_rmtree(dir);
	free(its);
	free(mine);
	free(dir);
}

int run_embed_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(embedded_bytes_match_the_files),
		cmocka_unit_test(forked_child_forgets_the_parents),
		cmocka_unit_test(embed_lookup_is_exact),
		cmocka_unit_test(cleanup_slots),
		cmocka_unit_test(signal_sweeps_only_registered_files),
	};
	return cmocka_run_group_tests_name("util_embed_cleanup", tests, NULL, NULL);
}
