/* tests/rules/test_loader.c: rule files in, rules or exact errors out.
 * Every malformed-rule message is asserted word for word: it is what a
 * rule author reads. */
#include "test_rules.h"

static const char GOOD[] =
	"---\n"
	"id: gmem-test-rule\n"
	"title: A test rule\n"
	"severity: warning\n"
	"category: memory\n"
	"scope: access\n"
	"where: space = 'global' AND sectors_per_request > 2 * ideal_sectors\n"
	"message: \"{rw} of {base} touches {sectors_per_request} sectors (ideal {ideal_sectors})\"\n"
	"fix: none\n"
	"fix_safety: suggest\n"
	"impact: \"6x at stride 32\"\n"
	"references: [\"Best Practices Guide\"]\n"
	"tags: [coalescing, global-memory]\n"
	"languages: [cuda]\n"
	"architectures: [sm_80, sm_90]\n"
	"---\n"
	"Why it is slow.\n";

/* Load text as file "t.md" (plus the schema checks); return the errors. */
static const char *load_errors(ka_ruleset **rs, const char *text)
{
	assert_int_equal(ka_ruleset_new(rs), KA_OK);
	if (ka_ruleset_add_text(*rs, "t.md", text, strlen(text), 0, 0) == KA_OK)
		ka_ruleset_check(*rs);
	return ka_ruleset_errors(*rs);
}

/* GOOD with the line starting with `field:` replaced by `repl` (a whole
 * line, or "" to drop it). */
static char *variant(const char *field, const char *repl)
{
	static char out[4096];
	const char *p = strstr(GOOD, field);
	assert_non_null(p);
	const char *e = strchr(p, '\n') + 1;
	snprintf(out, sizeof out, "%.*s%s%s", (int)(p - GOOD), GOOD, repl, e);
	return out;
}

static void expect_error(const char *text, const char *want)
{
	ka_ruleset *rs;
	const char *got = load_errors(&rs, text);
	assert_string_equal(got, want);
	ka_ruleset_free(rs);
}

static void good_rule_loads(void **state)
{
	ka_ruleset *rs;
	assert_string_equal(load_errors(&rs, GOOD), "");
	assert_int_equal(ka_ruleset_count(rs), 1);
	ka_rule *r = ka_ruleset_find(rs, "gmem-test-rule");
	assert_non_null(r);
	assert_string_equal(r->title, "A test rule");
	assert_int_equal(r->severity, KA_SEV_WARNING);
	assert_null(r->fix); /* `none` */
	assert_int_equal(r->fix_safety, KA_FIX_SUGGEST);
	assert_int_equal(r->tags.n, 2);
	assert_string_equal(r->tags.v[1], "global-memory");
	assert_int_equal(r->lines.where, 7);
	assert_int_equal(r->body_line, 17);
	assert_string_equal(r->body, "Why it is slow.\n");
	assert_true(ka_rule_applies(r, "cuda", "sm_90"));
	assert_false(ka_rule_applies(r, "hip", "sm_90"));
	assert_false(ka_rule_applies(r, "cuda", "sm_70"));
	ka_ruleset_free(rs);
}

static void malformed_yaml(void **state)
{
	expect_error(variant("tags:", "tags: [a, b\n"),
		     "t.md:14: bad YAML: did not find expected ',' or ']'\n");
}

/* estimate, basis and let: each problem points at its line (line 11 is
 * where `impact:` stands in GOOD). */
static void bad_estimate_basis_let(void **state)
{
	expect_error(variant("impact:", "estimate: 2.0\n"),
		     "t.md:11: an estimate needs a 'basis' (the facts it rests on)\n");
	expect_error(variant("impact:", "estimate: sectors\nbasis: b\n"),
		     "t.md:11: estimate: no such column: sectors\n");
	expect_error(variant("impact:", "estimate: 1.0\nbasis: \"{nope}\"\n"),
		     "t.md:12: basis: unknown placeholder {nope} (no such column in 'access')\n");
	expect_error(variant("impact:", "let: [a]\n"),
		     "t.md:11: field 'let' must be a mapping of names to SQL expressions\n");
	expect_error(variant("impact:", "let:\n  Bad-Name: \"1\"\n"),
		     "t.md:12: let: bad name 'Bad-Name' (expected [a-z_][a-z0-9_]*)\n");
	expect_error(variant("impact:", "let:\n  x: \"nosuchcol + 1\"\n"),
		     "t.md:11: where or let: no such column: nosuchcol\n");
	/* a let name is a placeholder the message and basis may use */
	{
		ka_ruleset *rs;
		const char *got = load_errors(
			&rs, variant("message:",
				     "message: \"{half}\"\nlet:\n  half: \"sectors_per_request / 2\"\n"));
		assert_string_equal(got, "");
		ka_ruleset_free(rs);
	}
}

static void unknown_field(void **state)
{
	expect_error(variant("impact:", "colour: red\n"), "t.md:11: unknown field 'colour'\n");
}

static void missing_field(void **state)
{
	expect_error(variant("where:", ""), "t.md:1: missing required field 'where'\n");
}

static void bad_severity(void **state)
{
	expect_error(variant("severity:", "severity: fatal\n"),
		     "t.md:4: bad severity 'fatal' (expected error, warning or note)\n");
}

static void bad_fix_safety(void **state)
{
	expect_error(variant("fix_safety:", "fix_safety: maybe\n"),
		     "t.md:10: bad fix_safety 'maybe' (expected safe, unsafe or suggest)\n");
}

static void bad_id(void **state)
{
	expect_error(
		variant("id:", "id: Uncoalesced\n"),
		"t.md:2: bad id 'Uncoalesced' (expected kebab-case with a family prefix, e.g. gmem-uncoalesced-access)\n");
	assert_true(ka_rule_id_valid("sync-barrier-in-divergent-branch"));
	assert_false(ka_rule_id_valid("gmem"));
	assert_false(ka_rule_id_valid("gmem--x"));
	assert_false(ka_rule_id_valid("gmem-x-"));
	assert_false(ka_rule_id_valid("gmem_x"));
}

/* category is one of a closed set, status one of four; both point at their line. */
static void category_and_status(void **state)
{
	expect_error(variant("category:", "category: style\n"),
		     "t.md:5: bad category 'style' (expected one of memory, arithmetic, divergence, "
		     "synchronization, atomics, launch, occupancy, host, portability, correctness)\n");
	expect_error(variant("impact:", "status: beta\n"),
		     "t.md:11: bad status 'beta' (expected stable, preview, candidate or retired)\n");
	/* the list in the message is the parser's own set, in enum order */
	char want[512] = "";
	for (int c = 0; c < KA_CAT_COUNT; c++) {
		assert_int_equal(ka_category_parse(ka_category_name((ka_category)c)), c);
		snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", c ? ", " : "",
			 ka_category_name((ka_category)c));
	}
	assert_string_equal(ka_category_names(), want);
	assert_int_equal(ka_category_parse("Memory"), -1);
	/* absent = stable and enabled; the others load disabled */
	const char *st[] = {"stable", "preview", "candidate", "retired"};
	for (int k = 0; k < 4; k++) {
		char line[64];
		ka_ruleset *rs;
		snprintf(line, sizeof line, "status: %s\n", st[k]);
		assert_string_equal(load_errors(&rs, variant("impact:", line)), "");
		ka_rule *r = ka_ruleset_at(rs, 0);
		assert_int_equal(r->status, k);
		assert_string_equal(ka_rule_status_name(r->status), st[k]);
		assert_int_equal(r->enabled, k == 0);
		assert_int_equal(r->lines.status, 11);
		ka_ruleset_free(rs);
	}
	ka_ruleset *rs;
	assert_string_equal(load_errors(&rs, GOOD), "");
	assert_int_equal(ka_ruleset_at(rs, 0)->status, KA_STATUS_STABLE);
	assert_int_equal(ka_ruleset_at(rs, 0)->cat, KA_CAT_MEMORY);
	ka_ruleset_free(rs);
}

/* Folder = family = id prefix: a file in a folder of a --rules-dir sits in
 * FAMILY/ID.md; one at the top of the folder may hold any family. */
static void misplaced_rule_files(void **state)
{
	ka_ruleset *rs;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_load_dir(rs, FIXTURES "/misplaced"), KA_EINPUT);
	assert_string_equal(ka_error_last(), "malformed rule files");
	assert_string_equal(
		ka_ruleset_errors(rs), FIXTURES
		"/misplaced/gmem/gmem-wrong-name.md:2: rule 'gmem-right-name' is in file "
		"'gmem-wrong-name.md', expected gmem-right-name.md\n" FIXTURES
		"/misplaced/sync/div-in-sync.md:2: rule 'div-in-sync' is in folder 'sync/', "
		"but its family is 'div': move it to div/div-in-sync.md (folder = family = id prefix)\n");
	/* the well-placed ones loaded */
	assert_non_null(ka_ruleset_find(rs, "div-placed-well"));
	assert_non_null(ka_ruleset_find(rs, "smem-at-the-top"));
	assert_int_equal(ka_ruleset_count(rs), 2);
	ka_ruleset_free(rs);
	char fam[16];
	assert_string_equal(ka_rule_family("lmem-register-spill", fam, sizeof fam), "lmem");
}

static void list_field_not_list(void **state)
{
	expect_error(variant("tags:", "tags: coalescing\n"), "t.md:13: field 'tags' must be a list\n");
}

static void bad_scope(void **state)
{
	expect_error(variant("scope:", "scope: acces\n"),
		     "t.md:6: unknown scope 'acces' (not a facts table; see docs/facts.md)\n");
	expect_error(variant("scope:", "scope: arch\n"),
		     "t.md:6: scope 'arch' has no location (file, line) columns\n");
}

static void sql_does_not_compile(void **state)
{
	expect_error(variant("where:", "where: space = 'global' AND sectors > 2\n"),
		     "t.md:7: where: no such column: sectors\n");
}

static void sql_two_statements(void **state)
{
	expect_error(variant("where:", "where: \"1); DELETE FROM access; --\"\n"),
		     "t.md:7: where: more than one SQL statement (near \"DELETE FROM access; \")\n");
}

static void bad_regex(void **state)
{
	expect_error(
		variant("where:", "where: index_text REGEXP 'foo(bar'\n"),
		"t.md:7: where: bad regular expression 'foo(bar': missing closing parenthesis at offset 7\n");
	expect_error(
		variant("where:", "where: regexp('[a-', index_text)\n"),
		"t.md:7: where: bad regular expression '[a-': missing terminating ] for character class at offset 3\n");
}

static void unknown_placeholder(void **state)
{
	expect_error(variant("message:", "message: \"{rw} of {nope}\"\n"),
		     "t.md:8: message: unknown placeholder {nope} (no such column in 'access')\n");
	expect_error(variant("message:", "message: \"{rw of x\"\n"),
		     "t.md:8: message: unbalanced '{' in message (write '{{' for a brace)\n");
}

static void no_front_matter(void **state)
{
	expect_error("# just markdown\n",
		     "t.md:1: missing YAML front matter (the file must start with a '---' line)\n");
	expect_error("---\nid: x-y\n", "t.md:1: unterminated YAML front matter (no closing '---' line)\n");
}

static void several_errors_reported_together(void **state)
{
	char text[4096];
	snprintf(text, sizeof text, "%s", variant("severity:", "severity: loud\n"));
	char *p = strstr(text, "impact:");
	memcpy(p, "impakt:", 7);
	expect_error(text, "t.md:4: bad severity 'loud' (expected error, warning or note)\n"
			   "t.md:11: unknown field 'impakt'\n");
}

static void duplicate_id(void **state)
{
	ka_ruleset *rs;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_add_text(rs, "a.md", GOOD, strlen(GOOD), 0, 0), KA_OK);
	assert_int_equal(ka_ruleset_add_text(rs, "b.md", GOOD, strlen(GOOD), 0, 0), KA_EINPUT);
	assert_string_equal(ka_ruleset_errors(rs),
			    "b.md:2: duplicate rule id 'gmem-test-rule' (first defined in a.md:2)\n");
	ka_ruleset_free(rs);
}

static void rules_dir_overrides_builtin(void **state)
{
	ka_ruleset *rs;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_load_builtin(rs), KA_OK);
	size_t n = ka_ruleset_count(rs);
	assert_true(n > 0);
	assert_int_equal(ka_ruleset_load_dir(rs, FIXTURES "/override"), KA_OK);
	assert_string_equal(ka_ruleset_errors(rs), "");
	/* one replaces a built-in rule, one is new */
	assert_int_equal(ka_ruleset_count(rs), n + 1);
	ka_rule *r = ka_ruleset_find(rs, "gmem-uncoalesced-access");
	assert_non_null(r);
	assert_false(r->builtin);
	assert_int_equal(r->severity, KA_SEV_ERROR);
	assert_non_null(ka_ruleset_find(rs, "test-extra-rule"));
	assert_int_equal(ka_ruleset_check(rs), KA_OK);
	ka_ruleset_free(rs);
}

static void rules_dir_duplicates_are_errors(void **state)
{
	ka_ruleset *rs;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_load_dir(rs, FIXTURES "/dup"), KA_EINPUT);
	assert_string_equal(ka_ruleset_errors(rs), FIXTURES
			    "/dup/b.md:2: duplicate rule id 'test-dup-rule' (first defined in " FIXTURES
			    "/dup/a.md:2)\n");
	ka_ruleset_free(rs);
}

static void builtin_rules_are_well_formed(void **state)
{
	ka_ruleset *rs;
	size_t npreview = 0;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_load_builtin(rs), KA_OK);
	assert_int_equal(ka_ruleset_check(rs), KA_OK);
	assert_string_equal(ka_ruleset_errors(rs), "");
	for (size_t i = 0; i < ka_ruleset_count(rs); i++) {
		ka_rule *r = ka_ruleset_at(rs, i);
		assert_true(r->builtin);
		assert_true(strncmp(r->path, "rules/", 6) == 0);
		/* the loader's placement check held: rules/FAMILY/ID.md */
		char fam[16], want[128];
		snprintf(want, sizeof want, "rules/%s/%s.md", ka_rule_family(r->id, fam, sizeof fam), r->id);
		assert_string_equal(r->path, want);
		/* shipped rules are stable, or preview where the judged fresh
		 * samples say so (scripts/rule_precision.py); only stable ones
		 * run by default */
		assert_true(r->status == KA_STATUS_STABLE || r->status == KA_STATUS_PREVIEW);
		assert_int_equal(r->enabled, r->status == KA_STATUS_STABLE);
		npreview += r->status == KA_STATUS_PREVIEW;
	}
	assert_true(npreview >= 1 && npreview < ka_ruleset_count(rs) / 4);
	ka_ruleset_free(rs);
}

int run_loader_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_rule_loads),
		cmocka_unit_test(malformed_yaml),
		cmocka_unit_test(unknown_field),
		cmocka_unit_test(bad_estimate_basis_let),
		cmocka_unit_test(missing_field),
		cmocka_unit_test(bad_severity),
		cmocka_unit_test(bad_fix_safety),
		cmocka_unit_test(bad_id),
		cmocka_unit_test(category_and_status),
		cmocka_unit_test(misplaced_rule_files),
		cmocka_unit_test(list_field_not_list),
		cmocka_unit_test(bad_scope),
		cmocka_unit_test(sql_does_not_compile),
		cmocka_unit_test(sql_two_statements),
		cmocka_unit_test(bad_regex),
		cmocka_unit_test(unknown_placeholder),
		cmocka_unit_test(no_front_matter),
		cmocka_unit_test(several_errors_reported_together),
		cmocka_unit_test(duplicate_id),
		cmocka_unit_test(rules_dir_overrides_builtin),
		cmocka_unit_test(rules_dir_duplicates_are_errors),
		cmocka_unit_test(builtin_rules_are_well_formed),
	};
	return cmocka_run_group_tests_name("rules/loader", tests, NULL, NULL);
}
