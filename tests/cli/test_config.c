/* tests/cli/test_config.c: .kcheck.yaml is validated whole (exact values,
 * every list item, strict numbers, no key twice, one line with file:line
 * for each mistake), and --assume-block is checked the same way by the
 * lint and by `kcheck facts`. */
#include "cli_run.h"

static const char KERNEL[] = "__global__ void k(float *out, const float *in) {\n"
			     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			     "    out[i] = in[32 * i];\n"
			     "}\n";

/* Run kcheck in a fresh folder holding s.cu and this .kcheck.yaml; the
 * folder's name is in *dir (caller frees and removes it). */
static cli_result run_cfg(char **dir, const char *yaml, const char *args)
{
	*dir = cli_tmpdir();
	cli_write(*dir, "s.cu", KERNEL);
	cli_write(*dir, ".kcheck.yaml", yaml);
	return cli_run(*dir, NULL, "--rules-dir " FIXTURES "/rules %s s.cu", args);
}

/* The config must be refused with exactly `DIR/.kcheck.yaml:LINE: msg`. */
static void refused(const char *yaml, int line, const char *msg)
{
	char *dir, want[8192];
	cli_result r = run_cfg(&dir, yaml, "-q");
	char *real = realpath(dir, NULL);
	snprintf(want, sizeof want, "%s/.kcheck.yaml:%d: %s\n", real, line, msg);
	if (r.status != 2 || strcmp(r.err, want) != 0)
		fprintf(stderr, "config:\n%s\nstatus %d, stderr: %s", yaml, r.status, r.err);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, want);
	assert_string_equal(r.out, "");
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
	free(real);
}

static void enums_match_whole_words(void **state)
{
	refused("fail-on: \"note none\"\n", 1,
		"bad fail-on 'note none' (expected one of: error warning note none)");
	refused("fail-on: \"warn\"\n", 1, "bad fail-on 'warn' (expected one of: error warning note none)");
	refused("fail-on: \"\"\n", 1, "bad fail-on '' (expected one of: error warning note none)");
	refused("format: \"text json\"\n", 1,
		"bad format 'text json' (expected one of: text json sarif github concise)");
}

static void jobs_is_a_number(void **state)
{
	refused("jobs: 4x\n", 1, "'jobs' must be a number from 1 to 256, got '4x'");
	refused("jobs: 1e3\n", 1, "'jobs' must be a number from 1 to 256, got '1e3'");
	refused("jobs: 257\n", 1, "'jobs' must be a number from 1 to 256, got '257'");
	refused("jobs: 99999999999999999999\n", 1,
		"'jobs' must be a number from 1 to 256, got '99999999999999999999'");
}

static void keys_once_and_known(void **state)
{
	refused("jobs: 2\nformat: json\njobs: 3\n", 3, "key 'jobs' given twice (first on line 1)");
	refused("fail-on: note\n\nfail-on: none\n", 3, "key 'fail-on' given twice (first on line 1)");
	refused("checks: '-*'\nbogus:\n  nested: 1\n", 2,
		"unknown key 'bogus' (see docs/rules.md, Configuration)");
	refused("bogus: [1, 2]\n", 1, "unknown key 'bogus' (see docs/rules.md, Configuration)");
	refused("checks: ['-*', [x]]\n", 1, "items of 'checks' must be strings");
	refused("assume-block: \"65536,65536\"\n", 1,
		"bad assume-block '65536,65536' (expected X[,Y[,Z]], at most 1024 threads)");
}

/* The 300th item of a list counts: here it is the only rule turned on. */
static void lists_keep_every_item(void **state)
{
	char yaml[8192] = "checks:\n";
	for (int i = 0; i < 299; i++)
		strcat(yaml, "  - '-*'\n");
	strcat(yaml, "  - test-strided-read\n");
	char *dir;
	cli_result r = run_cfg(&dir, yaml, "-q");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "[test-strided-read]"));
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

static void assume_block_bounds(void **state)
{
	static const char *const bad[] = {"65536,65536", "65536,65536,1", "4294967297", "1025", "32,x",
					  "32,",         "32,,2",         "8,8,8,8",    "0",    "-4",
					  " 32",         "32 ",           "2,2,512",    NULL};
	char want[512];
	for (int i = 0; bad[i]; i++) {
		snprintf(want, sizeof want,
			 "kcheck: error: --assume-block: expected X[,Y[,Z]] with at most "
			 "1024 threads, got '%s'\n",
			 bad[i]);
		cli_result r = cli_run(NULL, NULL, "--no-config --assume-block '%s' x.cu", bad[i]);
		assert_int_equal(r.status, 2);
		assert_string_equal(r.err, want);
		cli_free(&r);
		r = cli_run(NULL, NULL, "facts --assume-block '%s' x.cu", bad[i]);
		assert_int_equal(r.status, 2);
		assert_string_equal(r.err, want);
		assert_string_equal(r.out, "");
		cli_free(&r);
	}
	/* the good ones still work, in facts too */
	char *dir = cli_tmpdir();
	cli_write(dir, "s.cu", KERNEL);
	cli_result r = cli_run(dir, NULL, "facts --assume-block 32,8,4 s.cu");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"block_x\": 32"));
	cli_free(&r);
	r = cli_run(dir, NULL, "facts --assume-block=1024 s.cu");
	assert_int_equal(r.status, 0);
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

/* The words after `--NAME ` in --help's line of that option, split at '|'. */
static int help_words(const char *help, const char *name, char words[][32], int max)
{
	char key[64];
	snprintf(key, sizeof key, "  %s ", name);
	const char *p = strstr(help, key);
	int n = 0;
	assert_non_null(p);
	p += strlen(key);
	while (n < max && *p && *p != ' ') {
		size_t k = strcspn(p, "| ");
		assert_true(k < 32);
		memcpy(words[n], p, k);
		words[n++][k] = '\0';
		p += k + (p[k] == '|');
	}
	return n;
}

/* One option table: --help lists the targets of the arch profiles (the
 * ones an unknown --arch names), and every word --help gives an enum
 * option is taken alike on the command line and in .kcheck.yaml, while a
 * word it does not give is refused by both. */
static void one_option_table(void **state)
{
	cli_result h = cli_run(NULL, NULL, "--help");
	cli_result a = cli_run(NULL, NULL, "--no-config --arch bogus x.cu");
	assert_int_equal(h.status, 0);
	assert_int_equal(a.status, 2);
	const char *known = strstr(a.err, "(known: ");
	assert_non_null(known);
	char list[512];
	snprintf(list, sizeof list, "target: %.*s (default sm_90)\n", (int)(strcspn(known + 8, ")")),
		 known + 8);
	assert_non_null(strstr(h.out, list));
	for (const char *arch = "sm_75 sm_100 gfx1100"; *arch;) { /* once missing from --help */
		size_t k = strcspn(arch, " ");
		char one[16];
		snprintf(one, sizeof one, " %.*s ", (int)k, arch);
		assert_non_null(strstr(list, one));
		arch += k + (arch[k] == ' ');
	}
	static const char *const opts[] = {"--fail-on", "--format", NULL};
	for (int i = 0; opts[i]; i++) {
		char words[8][32], yaml[512], *dir;
		int n = help_words(h.out, opts[i], words, 8);
		assert_true(n >= 3);
		for (int k = 0; k <= n; k++) {
			const char *w = k < n ? words[k] : "bogus";
			snprintf(yaml, sizeof yaml, "%s: %s\n", opts[i] + 2, w);
			cli_result c = run_cfg(&dir, yaml, "-q --exit-zero");
			cli_result v = cli_run(dir, NULL, "--no-config -q --exit-zero %s %s s.cu", opts[i],
					       w);
			assert_int_equal(c.status, k < n ? 0 : 2);
			assert_int_equal(v.status, k < n ? 0 : 2);
			cli_free(&c);
			cli_free(&v);
			cli_rmtree(dir);
			free(dir);
		}
	}
	cli_free(&h);
	cli_free(&a);
}

int run_config_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(enums_match_whole_words), cmocka_unit_test(jobs_is_a_number),
		cmocka_unit_test(keys_once_and_known),     cmocka_unit_test(lists_keep_every_item),
		cmocka_unit_test(assume_block_bounds),     cmocka_unit_test(one_option_table),
	};
	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
