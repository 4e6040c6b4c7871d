/* tests/rules/test_examples.c: examples and their annotations are read
 * out of a rule body. */
#include "test_rules.h"
#include "rules/examples.h"
#include "rules/fixhook.h"

static const char BODY[] =
	"Text.\n"                                   /* 10 */
	"```cuda bad\n"                             /* 11 */
	"__global__ void k(float *a) {\n"           /* 12: example line 1 */
	"  // ruleid: gmem-x\n"                     /* 2 */
	"  //   more comment\n"                     /* 3 */
	"\n"                                        /* 4 */
	"  a[32 * threadIdx.x] = 0;\n"              /* 5: expected */
	"  a[threadIdx.x] = 1;  // ok: gmem-x\n"    /* 6: ok, same line */
	"  a[2 * threadIdx.x] = 2; // ruleid: gmem-y, gmem-x\n"  /* 7: expected */
	"  a[3] = 3; // ruleid: gmem-xyz\n"         /* 8: another rule */
	"}\n"
	"```\n"
	"```text\n```cuda good\n```\n"             /* not an example, fence inside ignored */
	"```hip good\n"
	"__global__ void k() {}\n"
	"```\n"
	"```cuda fixed\n"
	"x\n"
	"```\n";

static void parses_examples(void **state)
{
	ka_examples ex;
	assert_int_equal(ka_examples_parse(BODY, 10, "gmem-x", &ex), KA_OK);
	assert_int_equal(ex.n, 3);
	assert_string_equal(ex.v[0].lang, "cuda");
	assert_int_equal(ex.v[0].kind, KA_EX_BAD);
	assert_int_equal(ex.v[0].file_line, 12);
	assert_int_equal(ex.v[0].nexpect, 2);
	assert_int_equal(ex.v[0].expect[0], 5);
	assert_int_equal(ex.v[0].expect[1], 7);
	assert_int_equal(ex.v[0].nok, 1);
	assert_int_equal(ex.v[0].ok[0], 6);
	assert_string_equal(ex.v[1].lang, "hip");
	assert_int_equal(ex.v[1].kind, KA_EX_GOOD);
	assert_string_equal(ex.v[1].code, "__global__ void k() {}\n");
	assert_int_equal(ex.v[2].kind, KA_EX_FIXED);
	assert_string_equal(ex.v[2].code, "x\n");
	ka_examples_free(&ex);
}

static void builtin_rules_have_examples(void **state)
{
	ka_ruleset *rs;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_load_builtin(rs), KA_OK);
	for (size_t i = 0; i < ka_ruleset_count(rs); i++) {
		const ka_rule *r = ka_ruleset_at(rs, i);
		ka_examples ex;
		int bad = 0, marked = 0;
		assert_int_equal(ka_examples_parse(r->body, r->body_line, r->id, &ex), KA_OK);
		for (int k = 0; k < ex.n; k++)
			if (ex.v[k].kind == KA_EX_BAD)
				bad++, marked += ex.v[k].nexpect > 0;
		if (bad == 0 || marked != bad)
			fprintf(stderr, "%s: %d bad examples, %d with // ruleid: marks\n", r->path, bad, marked);
		assert_true(bad > 0);
		assert_int_equal(marked, bad);
		ka_examples_free(&ex);
	}
	ka_ruleset_free(rs);
}

/* A fake rewriter: `t-safe` fixes up to safe, `t-suggest` only suggests. */
static int fake_ceiling(const char *transform)
{
	return !strcmp(transform, "t-safe") ? KA_FIX_SAFE : !strcmp(transform, "t-suggest") ? KA_FIX_SUGGEST : -1;
}

/* `rules test` of a rule without examples: the claim check's lines come
 * first, then the missing examples (or the retired skip). */
static const char *test_log(const char *fields, ka_test_counts *counts)
{
	static char log_text[1024];
	char text[512];
	ka_ruleset *rs;
	ka_buf log;
	ka_analyze_opts ao = KA_ANALYZE_OPTS_INIT;
	snprintf(text, sizeof text, "---\nid: gmem-claim\ntitle: t\nseverity: note\ncategory: memory\n"
		 "scope: access\nwhere: \"0\"\nmessage: \"m\"\n%s---\nbody\n", fields);
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_add_text(rs, "c.md", text, strlen(text), 0, 0), KA_OK);
	ka_buf_init(&log, 0);
	memset(counts, 0, sizeof *counts);
	assert_int_equal(ka_rules_test_rule(rs, ka_ruleset_at(rs, 0), &ao, "/nonexistent", &log, counts), KA_OK);
	snprintf(log_text, sizeof log_text, "%s", log.data ? log.data : "");
	ka_buf_free(&log);
	ka_ruleset_free(rs);
	return log_text;
}

/* A rule may only demote its transform's fixes; retired rules are skipped. */
static void rule_test_checks_claims_and_status(void **state)
{
	ka_test_counts n;
	ka_rules_set_fix_ceiling_hook(fake_ceiling);
	assert_string_equal(test_log("fix: t-suggest\nfix_safety: unsafe\n", &n),
			    "c.md:10: fix_safety: unsafe claims more than transform t-suggest gives (suggest at best); "
			    "a rule may only demote a fix\n"
			    "c.md:12: rule gmem-claim has no examples (```cuda bad / good blocks)\n");
	assert_int_equal(n.failed, 2);
	assert_string_equal(test_log("fix: t-nope\nfix_safety: suggest\n", &n),
			    "c.md:9: fix: no transform named 't-nope' (docs/rewriter.md lists them)\n"
			    "c.md:12: rule gmem-claim has no examples (```cuda bad / good blocks)\n");
	/* demoting is fine: a safe transform behind an unsafe rule */
	assert_string_equal(test_log("fix: t-safe\nfix_safety: unsafe\n", &n),
			    "c.md:12: rule gmem-claim has no examples (```cuda bad / good blocks)\n");
	assert_int_equal(n.failed, 1);
	assert_string_equal(test_log("status: retired\nfix: t-nope\n", &n),
			    "gmem-claim: SKIP: retired (retired rules do not run)\n");
	assert_int_equal(n.skipped, 1);
	assert_int_equal(n.failed, 0);
	ka_rules_set_fix_ceiling_hook(NULL);
}

int run_examples_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_examples),
		cmocka_unit_test(builtin_rules_have_examples),
		cmocka_unit_test(rule_test_checks_claims_and_status),
	};
	return cmocka_run_group_tests_name("rules/examples", tests, NULL, NULL);
}
