/* tests/rules/test_select.c: --checks globs apply in order. */
#include "test_rules.h"

static void globs_in_order(void **state)
{
	assert_true(ka_checks_match("", "gmem-uncoalesced-access"));
	assert_true(ka_checks_match(NULL, "sync-x"));
	/* -* then re-enable a family */
	assert_true(ka_checks_match("-*,gmem-*", "gmem-uncoalesced-access"));
	assert_false(ka_checks_match("-*,gmem-*", "sync-barrier-in-divergent-branch"));
	/* a positive first glob selects only what it matches */
	assert_true(ka_checks_match("gmem-*", "gmem-x"));
	assert_false(ka_checks_match("gmem-*", "smem-x"));
	/* a negative first glob starts from everything */
	assert_false(ka_checks_match("-sync-*", "sync-x"));
	assert_true(ka_checks_match("-sync-*", "smem-x"));
	/* later globs win */
	assert_false(ka_checks_match("gmem-*,-gmem-uncoalesced-*", "gmem-uncoalesced-store"));
	assert_true(ka_checks_match("gmem-*,-gmem-uncoalesced-*", "gmem-aos-field-access"));
	assert_true(ka_checks_match("gmem-*,-gmem-uncoalesced-*,gmem-uncoalesced-store", "gmem-uncoalesced-store"));
	assert_true(ka_checks_match(" -* , gmem-aos-* ", "gmem-aos-field-access"));
}

static void select_on_ruleset(void **state)
{
	ka_ruleset *rs;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_load_builtin(rs), KA_OK);
	assert_int_equal(ka_ruleset_select(rs, "-*,gmem-uncoalesced-access"), KA_OK);
	int on = 0;
	for (size_t i = 0; i < ka_ruleset_count(rs); i++)
		on += ka_ruleset_at(rs, i)->enabled;
	assert_int_equal(on, 1);
	assert_true(ka_ruleset_find(rs, "gmem-uncoalesced-access")->enabled);
	assert_int_equal(ka_ruleset_select(rs, "-*,gmme-*"), KA_EINPUT);
	assert_string_equal(ka_error_last(), "--checks: 'gmme-*' matches no rule (see kcheck rules list)");
	ka_ruleset_free(rs);
}

int run_select_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(globs_in_order),
		cmocka_unit_test(select_on_ruleset),
	};
	return cmocka_run_group_tests_name("rules/select", tests, NULL, NULL);
}
