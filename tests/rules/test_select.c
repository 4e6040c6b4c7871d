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
	assert_true(ka_checks_match("gmem-*,-gmem-uncoalesced-*,gmem-uncoalesced-store",
				    "gmem-uncoalesced-store"));
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

/* One rule per status: gmem-stable-x, gmem-preview-x, gmem-candidate-x, gmem-retired-x. */
static ka_ruleset *status_rules(void)
{
	static const char *const st[] = {"stable", "preview", "candidate", "retired"};
	ka_ruleset *rs;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	for (int k = 0; k < 4; k++) {
		char text[512];
		snprintf(text, sizeof text,
			 "---\nid: gmem-%s-x\ntitle: t\nseverity: note\ncategory: memory\n"
			 "status: %s\nscope: access\nwhere: \"1\"\nmessage: \"m\"\n---\nbody\n",
			 st[k], st[k]);
		assert_int_equal(ka_ruleset_add_text(rs, "t.md", text, strlen(text), 0, 0), KA_OK);
	}
	return rs;
}

/* "SPWC": which of stable, preview, candidate, retired ended up enabled. */
static const char *enabled_after(ka_ruleset *rs, const char *globs, int want_rc)
{
	static char out[5];
	static const char *const ids[] = {"gmem-stable-x", "gmem-preview-x", "gmem-candidate-x",
					  "gmem-retired-x"};
	assert_int_equal(ka_ruleset_select(rs, globs), want_rc);
	for (int k = 0; k < 4; k++)
		out[k] = ka_ruleset_find(rs, ids[k])->enabled ? "SPCR"[k] : '.';
	out[4] = '\0';
	return out;
}

/* Stable runs by default, preview when a positive glob matches it,
 * candidate only when named exactly, retired never. */
static void status_limits_selection(void **state)
{
	ka_ruleset *rs = status_rules();
	assert_string_equal(enabled_after(rs, "", KA_OK), "S...");        /* the default */
	assert_string_equal(enabled_after(rs, "-sync-*", KA_OK), "S..."); /* starts from the default */
	assert_string_equal(enabled_after(rs, "*", KA_OK), "SP..");
	assert_string_equal(enabled_after(rs, "-*,gmem-*", KA_OK), "SP..");
	assert_string_equal(enabled_after(rs, "gmem-*,-gmem-preview-*", KA_OK), "S...");
	assert_string_equal(enabled_after(rs, "-*,gmem-candidate-x", KA_OK), "..C.");
	assert_string_equal(enabled_after(rs, "gmem-candidate-x,-gmem-*", KA_OK), "....");
	assert_string_equal(enabled_after(rs, "*,gmem-retired-x", KA_EINPUT), "SP..");
	assert_string_equal(ka_error_last(),
			    "--checks: 'gmem-retired-x' names only retired rules, which never run");
	assert_string_equal(enabled_after(rs, "-*,gmem-cand*", KA_EINPUT), "....");
	assert_string_equal(ka_error_last(), "--checks: 'gmem-cand*' matches only candidate rules, which run "
					     "when named by their exact id");
	ka_ruleset_free(rs);
}

/* The catalog names a non-stable status next to the id and counts them;
 * families it has no title for come last; '|' in a cell is escaped. */
static void catalog_markdown(void **state)
{
	ka_ruleset *rs = status_rules();
	const char *t = "---\nid: zz-pipe\ntitle: a | b\nseverity: warning\ncategory: host\nscope: access\n"
			"where: \"0\"\nmessage: \"m\"\n---\nbody\n";
	assert_int_equal(ka_ruleset_add_text(rs, "z.md", t, strlen(t), 0, 0), KA_OK);
	ka_buf b;
	ka_buf_init(&b, 0);
	assert_int_equal(ka_ruleset_catalog_markdown(rs, &b), KA_OK);
	assert_non_null(strstr(b.data, "\n5 rules. By severity ceiling: 0 errors, 1 warnings, 4 notes. "
				       "By status: 2 stable, 1 preview, 1 candidate, 1 retired.\n"));
	assert_non_null(
		strstr(b.data, "\n| `gmem-preview-x` (preview) | note | memory | `access` | — | — | t |\n"));
	assert_non_null(strstr(b.data, "\n| `gmem-stable-x` | note |"));
	const char *gmem = strstr(b.data, "\n## Global memory: `gmem-` (4)\n");
	const char *zz = strstr(b.data, "\n## Other rules: `zz-` (1)\n");
	assert_non_null(gmem);
	assert_non_null(zz);
	assert_true(gmem < zz);
	assert_non_null(strstr(zz, "| `zz-pipe` | warning | host | `access` | — | — | a \\| b |\n"));
	ka_buf_free(&b);
	ka_ruleset_free(rs);
}

int run_select_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(globs_in_order),
		cmocka_unit_test(select_on_ruleset),
		cmocka_unit_test(status_limits_selection),
		cmocka_unit_test(catalog_markdown),
	};
	return cmocka_run_group_tests_name("rules/select", tests, NULL, NULL);
}
