/* tests/cli/test_cli.c: kcheck's command line where no source file gets
 * analyzed: options, bad input (one line, exit 2), the rule commands. */
#include "cli_run.h"
#include <jansson.h>

static void expect(cli_result *r, int status, const char *out, const char *err)
{
	if (r->status != status)
		fprintf(stderr, "status %d\nstdout: %s\nstderr: %s\n", r->status, r->out, r->err);
	assert_int_equal(r->status, status);
	if (out)
		assert_string_equal(r->out, out);
	if (err)
		assert_string_equal(r->err, err);
	cli_free(r);
}

static void version_and_help(void **state)
{
	cli_result r = cli_run(NULL, NULL, "--version");
	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, "kcheck ", 7) == 0);
	cli_free(&r);
	r = cli_run(NULL, NULL, "--help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: kcheck [OPTIONS] PATH... [-- COMPILER-FLAGS]"));
	cli_free(&r);
}

static void bad_options(void **state)
{
	cli_result r = cli_run(NULL, NULL, "--bogus x.cu");
	expect(&r, 2, "", "kcheck: error: unknown option '--bogus' (see kcheck --help)\n");
	r = cli_run(NULL, NULL, "--format xml x.cu");
	expect(&r, 2, "", "kcheck: error: --format: unknown value 'xml'\n");
	r = cli_run(NULL, NULL, "-j zero x.cu");
	expect(&r, 2, "", "kcheck: error: -j: expected a number from 1 to 256, got 'zero'\n");
	r = cli_run(NULL, NULL, "--checks");
	expect(&r, 2, "", "kcheck: error: --checks needs a value (see kcheck --help)\n");
	r = cli_run(NULL, NULL, "--assume-block 64,64 x.cu");
	expect(&r, 2, "",
	       "kcheck: error: --assume-block: expected X[,Y[,Z]] with at most 1024 threads, got '64,64'\n");
	r = cli_run(NULL, NULL, "--no-config");
	expect(&r, 2, "",
	       "kcheck: error: no input files (usage: kcheck [OPTIONS] PATH... ; see kcheck --help)\n");
	/* near misses get a hint; far ones do not (above) */
	r = cli_run(NULL, NULL, "--fromat json x.cu");
	expect(&r, 2, "",
	       "kcheck: error: unknown option '--fromat' (did you mean '--format'?) (see kcheck --help)\n");
	r = cli_run(NULL, NULL, "--format=jsno x.cu");
	expect(&r, 2, "", "kcheck: error: --format: unknown value 'jsno' (did you mean 'json'?)\n");
	r = cli_run(NULL, NULL, "--no-config --checks '-*,gmem-scalar-not-vectorised' x.cu");
	expect(&r, 2, "",
	       "kcheck: error: --checks: 'gmem-scalar-not-vectorised' matches no rule (did you mean "
	       "'gmem-scalar-not-vectorized'?)\n");
	/* a toolkit that is not there: up front, before any parse */
	r = cli_run(NULL, NULL, "--no-config --cuda-path /no/such/toolkit x.cu");
	expect(&r, 2, "", "kcheck: error: --cuda-path /no/such/toolkit: no such folder\n");
	r = cli_run(NULL, NULL, "--no-config --cuda-path / x.cu");
	expect(&r, 2, "", "kcheck: error: --cuda-path /: not a CUDA toolkit (no include/cuda_runtime.h)\n");
	/* kcheck --help names every subcommand */
	r = cli_run(NULL, NULL, "--help");
	assert_int_equal(r.status, 0);
	const char *subs[] = {"kcheck rules",     "kcheck facts",  "kcheck bench init", "kcheck optimize",
			      "kcheck knowledge", "\n  optimize ", "\n  knowledge ",    "\n  bench "};
	for (size_t i = 0; i < sizeof subs / sizeof *subs; i++)
		assert_non_null(strstr(r.out, subs[i]));
	assert_non_null(strstr(r.out, "default: the core count"));
	cli_free(&r);
}

static void bad_inputs(void **state)
{
	cli_result r = cli_run(NULL, NULL, "--no-config no/such/file.cu");
	expect(&r, 2, "", "kcheck: error: cannot read no/such/file.cu: No such file or directory\n");
	r = cli_run(NULL, NULL, "--no-config --arch sm_12 x.cu");
	assert_int_equal(r.status, 2);
	assert_true(strncmp(r.err, "kcheck: error: unknown --arch 'sm_12' (known: ", 46) == 0);
	assert_non_null(strstr(r.err, " sm_90"));
	assert_int_equal(strchr(r.err, '\n')[1], '\0'); /* one line */
	cli_free(&r);
	r = cli_run(NULL, NULL, "--no-config --checks '-*,gmme-*' x.cu");
	expect(&r, 2, "", "kcheck: error: --checks: 'gmme-*' matches no rule (see kcheck rules list)\n");
}

static void malformed_compile_db(void **state)
{
	cli_result r = cli_run(NULL, NULL, "--no-config -p %s/baddb", FIXTURES);
	expect(&r, 2, "", NULL);
	r = cli_run(NULL, NULL, "--no-config -p %s/baddb", FIXTURES);
	char want[1024];
	char *real = realpath(FIXTURES "/baddb/compile_commands.json", NULL);
	snprintf(want, sizeof want,
		 "kcheck: error: %s:3:29: malformed compile database: '}' expected near '\"file\"'\n", real);
	free(real);
	expect(&r, 2, "", want);
	char *dir = cli_tmpdir();
	r = cli_run(dir, NULL, "--no-config -p . x.cu");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err,
			    "kcheck: error: -p .: no compile_commands.json in that folder or its parents\n");
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

static void malformed_config(void **state)
{
	char want[1024];
	char *real = realpath(FIXTURES "/badcfg/.kcheck.yaml", NULL);
	snprintf(want, sizeof want,
		 "%s:2: unknown key 'chekcs' (did you mean 'checks'?) (see docs/rules.md, Configuration)\n",
		 real);
	free(real);
	cli_result r = cli_run(FIXTURES "/badcfg", NULL, "k.cu");
	expect(&r, 2, "", want);
	/* --no-config skips it: the run gets as far as the file */
	r = cli_run(FIXTURES "/badcfg", NULL, "--no-config --explain gmem-uncoalesced-access");
	expect(&r, 0, NULL, "");
}

static void malformed_rule_stops_the_run(void **state)
{
	cli_result r = cli_run(NULL, NULL, "--no-config --rules-dir %s/badrules %s/badcfg/k.cu", FIXTURES,
			       FIXTURES);
	expect(&r, 2, "",
	       FIXTURES
	       "/badrules/sync-bad-rule.md:4: bad severity 'fatal' (expected error, warning or note)\n");
	r = cli_run(NULL, NULL, "rules list --rules-dir %s/badrules", FIXTURES);
	expect(&r, 2, "",
	       FIXTURES
	       "/badrules/sync-bad-rule.md:4: bad severity 'fatal' (expected error, warning or note)\n");
	r = cli_run(NULL, NULL, "--rules-dir %s/no-such-dir x.cu", FIXTURES);
	expect(&r, 2, "", "kcheck: error: cannot open rules folder " FIXTURES "/no-such-dir: not a folder\n");
}

static void explain_and_show(void **state)
{
	cli_result r = cli_run(NULL, NULL, "--explain gmem-uncoalesced-access");
	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, "gmem-uncoalesced-access: ", 25) == 0);
	assert_non_null(strstr(r.out, "severity: warning"));
	assert_non_null(strstr(r.out, "```cuda bad"));
	cli_free(&r);
	r = cli_run(NULL, NULL, "--explain no-such-rule");
	expect(&r, 2, "", "kcheck: error: no rule 'no-such-rule' (see kcheck rules list)\n");
	r = cli_run(NULL, NULL, "rules show gmem-uncoalesced-access");
	assert_int_equal(r.status, 0);
	assert_true(strncmp(r.out, "---\nid: gmem-uncoalesced-access\n", 32) == 0);
	cli_free(&r);
}

static void rules_list(void **state)
{
	cli_result r = cli_run(NULL, NULL, "rules list");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\ngmem-uncoalesced-access "));
	cli_free(&r);
	r = cli_run(NULL, NULL, "rules list --format json");
	assert_int_equal(r.status, 0);
	json_error_t err;
	json_t *arr = json_loads(r.out, 0, &err);
	assert_true(json_is_array(arr));
	assert_true(json_array_size(arr) >= 40);
	const char *prev = "";
	for (size_t i = 0; i < json_array_size(arr); i++) { /* sorted by id */
		const char *id = json_string_value(json_object_get(json_array_get(arr, i), "id"));
		assert_true(strcmp(prev, id) < 0);
		prev = id;
	}
	json_decref(arr);
	cli_free(&r);
	r = cli_run(NULL, NULL, "rules frobnicate");
	expect(&r, 2, "",
	       "kcheck: error: usage: kcheck rules list|show ID|new ID|test [ID...] (see kcheck rules --help)\n");
}

static void rules_new_writes_a_loadable_template(void **state)
{
	char *dir = cli_tmpdir();
	cli_result r = cli_run(dir, NULL, "rules new mine-slow-thing");
	expect(&r, 0, "wrote mine-slow-thing.md\n", "");
	r = cli_run(dir, NULL, "rules new mine-slow-thing");
	expect(&r, 2, "", "kcheck: error: mine-slow-thing.md exists already; not overwriting it\n");
	r = cli_run(dir, NULL, "rules new Bad_Id");
	expect(&r, 2, "",
	       "kcheck: error: bad rule id 'Bad_Id' (kebab-case with a family prefix, e.g. gmem-uncoalesced-access)\n");
	r = cli_run(dir, NULL, "rules new gmem-uncoalesced-access");
	expect(&r, 2, "",
	       "kcheck: error: rule 'gmem-uncoalesced-access' exists already (kcheck rules show gmem-uncoalesced-access)\n");
	/* the template is a valid rule that --rules-dir picks up */
	r = cli_run(dir, NULL, "rules show mine-slow-thing --rules-dir .");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "category: memory\n"));
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

static void rules_test_runs_examples(void **state)
{
	cli_result r = cli_run(FIXTURES "/..", NULL,
			       "rules test test-strided-read test-legacy-shuffle "
			       "test-kernel-note --rules-dir fixtures/rules");
	expect(&r, 1,
	       "fixtures/rules/test-kernel-note.md:10: rule test-kernel-note has no examples (```cuda bad / good blocks)\n"
	       "fixtures/rules/test-legacy-shuffle.md:17: cuda bad example: test-legacy-shuffle did not fire here (example line 4)\n"
	       "fixtures/rules/test-legacy-shuffle.md:18: cuda bad example: test-legacy-shuffle fired unexpectedly "
	       "(example line 5): __shfl_down has no mask\n"
	       "rules test: 2 passed, 2 failed, 0 skipped\n",
	       "");
	r = cli_run(FIXTURES "/..", NULL, "rules test test-strided-read --rules-dir fixtures/rules");
	expect(&r, 0, "rules test: 2 passed, 0 failed, 0 skipped\n", "");
	/* it fires where annotated, but its message shows a NULL fact */
	r = cli_run(FIXTURES "/..", NULL, "rules test test-null-message --rules-dir fixtures/rules");
	expect(&r, 1,
	       "fixtures/rules/test-null-message.md:19: cuda bad example: the message of test-null-message "
	       "shows a placeholder '?' (example line 2): k has __launch_bounds__(?) and no loop (assumed: "
	       "block of 256x1x1 threads; no launch site or __launch_bounds__ fixes it)\n"
	       "rules test: 1 passed, 1 failed, 0 skipped\n",
	       "");
	r = cli_run(FIXTURES "/..", NULL, "rules test test-amd-only --rules-dir fixtures/rules");
	expect(&r, 0, "rules test: 2 passed, 0 failed, 0 skipped\n", "");
	r = cli_run(NULL, NULL, "rules test no-such-rule");
	expect(&r, 2, "", "kcheck: error: no rule 'no-such-rule' (see kcheck rules list)\n");
}

int run_cli_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(version_and_help),
		cmocka_unit_test(bad_options),
		cmocka_unit_test(bad_inputs),
		cmocka_unit_test(malformed_compile_db),
		cmocka_unit_test(malformed_config),
		cmocka_unit_test(malformed_rule_stops_the_run),
		cmocka_unit_test(explain_and_show),
		cmocka_unit_test(rules_list),
		cmocka_unit_test(rules_new_writes_a_loadable_template),
		cmocka_unit_test(rules_test_runs_examples),
	};
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
