/* tests/rules/test_suppress.c: NOLINT comments. */
#include "test_rules.h"
#include "rules/suppress.h"

static const char SRC[] = "__global__ void k(float *a) {\n"                                     /* 1 */
			  "  a[0] = 1;  // NOLINT(gmem-uncoalesced-access) -- measured, fine\n" /* 2 */
			  "  // NOLINTNEXTLINE(gmem-*, smem-bank-conflict)\n"                   /* 3 */
			  "  a[1] = 2;\n"                                                       /* 4 */
			  "  const char *s = \"// NOLINT(sync-x)\";\n"                          /* 5 */
			  "  /* NOLINTBEGIN(sync-*) */\n"                                       /* 6 */
			  "  __syncthreads();\n"                                                /* 7 */
			  "  // NOLINTEND(sync-*)\n"                                            /* 8 */
			  "  a[2] = 3; // NOLINT\n"                                             /* 9 */
			  "  // NOLINTBEGIN(math-*)\n"                                          /* 10 */
			  "  a[3] = 4;\n"                                                       /* 11 */
			  "  // NOLINTEND(gmem-*)\n"                                            /* 12 */
			  "  a[4] = 5; // NOLINTNEXTLINEX(foo)\n"                               /* 13 */
			  "}\n";

static void parses_all_forms(void **state)
{
	ka_suppressions s;
	assert_int_equal(ka_suppress_parse(SRC, strlen(SRC), &s), KA_OK);
	assert_int_equal(s.n, 7);
	assert_int_equal(s.v[0].kind, KA_NOLINT);
	assert_int_equal(s.v[0].line, 2);
	assert_int_equal(s.v[0].col, 17);
	assert_int_equal(s.v[0].nrules, 1);
	assert_string_equal(s.v[0].rules[0], "gmem-uncoalesced-access");
	assert_string_equal(s.v[0].reason, "measured, fine");
	assert_int_equal(s.v[1].kind, KA_NOLINT_NEXTLINE);
	assert_int_equal(s.v[1].first, 4);
	assert_int_equal(s.v[1].nrules, 2);
	assert_string_equal(s.v[1].rules[1], "smem-bank-conflict");
	assert_null(s.v[1].reason);
	assert_int_equal(s.v[2].kind, KA_NOLINT_BEGIN); /* line 5's string does not count */
	assert_int_equal(s.v[2].first, 6);
	assert_int_equal(s.v[2].last, 8);
	assert_false(s.v[2].unmatched);
	assert_int_equal(s.v[4].nrules, 0);             /* bare NOLINT: all rules */
	assert_int_equal(s.v[5].kind, KA_NOLINT_BEGIN); /* math-*: never closed */
	assert_true(s.v[5].unmatched);
	assert_int_equal(s.v[6].kind, KA_NOLINT_END); /* gmem-*: closes nothing */
	assert_true(s.v[6].unmatched);
	ka_suppressions_free(&s);
}

static void matches_rules_and_lines(void **state)
{
	ka_suppressions s;
	assert_int_equal(ka_suppress_parse(SRC, strlen(SRC), &s), KA_OK);
	assert_true(ka_suppress_match(&s, 2, "gmem-uncoalesced-access"));
	assert_false(ka_suppress_match(&s, 2, "gmem-uncoalesced-store"));
	assert_true(ka_suppress_match(&s, 4, "gmem-uncoalesced-store"));
	assert_false(ka_suppress_match(&s, 3, "gmem-uncoalesced-store"));
	assert_false(ka_suppress_match(&s, 5, "sync-x"));
	assert_true(ka_suppress_match(&s, 7, "sync-barrier-in-divergent-branch"));
	assert_false(ka_suppress_match(&s, 7, "gmem-x"));
	assert_true(ka_suppress_match(&s, 9, "anything-at-all"));
	assert_true(ka_suppress_match(&s, 13, "math-pow-small-int")); /* open BEGIN runs to the end */
	assert_true(s.v[0].used);
	assert_true(s.v[1].used);
	assert_true(s.v[2].used);
	ka_suppressions_free(&s);
}

int run_suppress_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_all_forms),
		cmocka_unit_test(matches_rules_and_lines),
	};
	return cmocka_run_group_tests_name("rules/suppress", tests, NULL, NULL);
}
