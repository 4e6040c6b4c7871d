/* tests/rules/test_engine.c: rule SQL is read-only, regexp() is PCRE2,
 * rows become findings with rendered messages, assumptions are said. */
#include "test_rules.h"

static void expect_denied(sqlite3 *db, const char *sql, const char *want)
{
	sqlite3_stmt *st = NULL;
	assert_int_equal(ka_sql_prepare_readonly(db, sql, &st), KA_EINPUT);
	assert_null(st);
	assert_string_equal(ka_error_last(), want);
}

static void authorizer_blocks_writes(void **state)
{
	sqlite3 *db = test_facts();
	test_exec(db, "INSERT INTO access(id, file, line) VALUES (1, 'k.cu', 3)");
	expect_denied(db, "DELETE FROM access", "not allowed in a rule: DELETE (rule SQL is read-only)");
	expect_denied(db, "INSERT INTO access(id) VALUES (2)",
		      "not allowed in a rule: INSERT (rule SQL is read-only)");
	expect_denied(db, "UPDATE access SET line = 4",
		      "not allowed in a rule: UPDATE (rule SQL is read-only)");
	expect_denied(db, "CREATE TABLE t(x)",
		      "not allowed in a rule: a schema change (rule SQL is read-only)");
	expect_denied(db, "DROP TABLE access",
		      "not allowed in a rule: a schema change (rule SQL is read-only)");
	/* the row is still there */
	sqlite3_stmt *st = NULL;
	assert_int_equal(ka_sql_prepare_readonly(db, "SELECT count(*) FROM access", &st), KA_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 1);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static void authorizer_blocks_attach_pragma_extensions(void **state)
{
	sqlite3 *db = test_facts();
	expect_denied(db, "ATTACH DATABASE '/tmp/x.db' AS x",
		      "not allowed in a rule: ATTACH (rule SQL is read-only)");
	expect_denied(db, "PRAGMA writable_schema = 1",
		      "not allowed in a rule: PRAGMA (rule SQL is read-only)");
	expect_denied(db, "SELECT load_extension('/tmp/evil.so')",
		      "not allowed in a rule: load_extension() (rule SQL is read-only)");
	expect_denied(db, "BEGIN", "not allowed in a rule: a transaction (rule SQL is read-only)");
	sqlite3_stmt *st = NULL;
	assert_int_equal(ka_sql_prepare_readonly(db, "SELECT 1; SELECT 2", &st), KA_EINPUT);
	assert_string_equal(ka_error_last(), "more than one SQL statement (near \"SELECT 2\")");
	/* reads of other tables in subqueries and recursive CTEs are fine */
	assert_int_equal(
		ka_sql_prepare_readonly(
			db,
			"WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) "
			"SELECT * FROM kernel WHERE EXISTS (SELECT 1 FROM launch l WHERE l.kernel_id = kernel.id) "
			"OR (SELECT count(*) FROM n) = 3",
			&st),
		KA_OK);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static int query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void regexp_is_pcre2(void **state)
{
	sqlite3 *db = test_facts();
	test_exec(db, "INSERT INTO line VALUES ('k.cu', 1, '  __syncthreads();'), "
		      "('k.cu', 2, 'if (tid < 32) { warpReduce(s); }'), ('k.cu', 3, 'x = y;')");
	assert_int_equal(query_int(db, "SELECT count(*) FROM line WHERE text REGEXP '^\\s*__syncthreads\\b'"),
			 1);
	assert_int_equal(
		query_int(db, "SELECT count(*) FROM line WHERE regexp('tid\\s*<\\s*(32|warpSize)', text)"),
		1);
	assert_int_equal(query_int(db, "SELECT count(*) FROM line WHERE text REGEXP '(?i)WARPREDUCE'"), 1);
	assert_int_equal(query_int(db, "SELECT regexp('a', NULL)"), -1);
	/* the same pattern many times: served from the cache */
	assert_int_equal(
		query_int(db, "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 500) "
			      "SELECT count(*) FROM n WHERE regexp('^[0-9]*5$', x)"),
		50);
	/* regexp_capture: the first group, the whole match without one, NULL without a match */
	assert_int_equal(query_int(db, "SELECT count(*) FROM line WHERE "
				       "regexp_capture('([A-Za-z_]\\w*)\\s*=\\s*y', text) = 'x'"),
			 1);
	assert_int_equal(
		query_int(db, "SELECT length(regexp_capture('warp\\w+', text)) FROM line WHERE line = 2"),
		10);
	assert_int_equal(query_int(db, "SELECT regexp_capture('nothing', text) FROM line WHERE line = 3"),
			 -1);
	sqlite3_stmt *st = NULL;
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT 'x' REGEXP '('", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ERROR);
	assert_non_null(strstr(sqlite3_errmsg(db), "bad regular expression '('"));
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static const char ACCESSES[] =
	"INSERT INTO file(path, lang, is_main) VALUES ('k.cu', 'cuda', 1);"
	"INSERT INTO arch(name, vendor, warp_size) VALUES ('sm_90', 'nvidia', 32);"
	"INSERT INTO kernel(id, name, kernel, file, line, block_x, block_y, block_z, block_source) "
	"  VALUES (1, 'k', 'k', 'k.cu', 1, 256, 1, 1, 'assumed'), (2, 'k2', 'k2', 'k.cu', 20, 128, 1, 1, 'launch');"
	"INSERT INTO access(id, kernel_id, kernel, file, line, col, end_line, end_col, begin_off, end_off,"
	"  space, rw, base, index_text, elem_bytes, sectors_per_request, ideal_sectors, block_source, assumption)"
	"  VALUES (10, 2, 'k2', 'k.cu', 22, 12, 22, 22, 300, 310, 'global', 'read', 'in', '32 * i', 4, 32, 4, 'launch', NULL),"
	"         (11, 2, 'k2', 'k.cu', 23, 3, 23, 9, 320, 326, 'global', 'write', 'out', 'i', 4, 4, 4, 'launch', NULL),"
	"         (12, 1, 'k', 'k.cu', 5, 7, 5, 20, 50, 63, 'global', 'read', 'a', 'row * N + col', 4, 32, 4, 'assumed',"
	"              'N = 1024 for the symbolic row width'),"
	"         (13, 1, 'k', 'k.cu', 6, 7, 6, 20, 70, 83, 'global', 'read', 'b', '2 * i', 4, 8, 4, 'assumed', NULL),"
	"         (14, 1, 'k', 'k.cu', 7, 7, 7, 20, 90, 93, 'shared', 'read', 't', 'i', 4, NULL, NULL, 'assumed', NULL);";

static void eval_makes_findings(void **state)
{
	sqlite3 *db = test_facts();
	test_exec(db, ACCESSES);
	ka_ruleset *rs = test_rule(
		"gmem-strided", "warning", "access",
		"space = 'global' AND sectors_per_request > 1 * ideal_sectors",
		"{rw} of {base}[{index_text}] touches {sectors_per_request} sectors per request (ideal {ideal_sectors})");
	ka_findings fs = KA_FINDINGS_INIT;
	assert_int_equal(ka_rules_eval(rs, db, NULL, &fs), KA_OK);
	assert_int_equal(fs.n, 3);
	ka_findings_sort_unique(&fs);
	const ka_finding *f = &fs.v[2]; /* line 22 */
	assert_string_equal(f->file, "k.cu");
	assert_int_equal(f->line, 22);
	assert_int_equal(f->col, 12);
	assert_int_equal(f->end_col, 22);
	assert_int_equal(f->begin_off, 300);
	assert_int_equal(f->end_off, 310);
	assert_string_equal(f->rule, "gmem-strided");
	assert_string_equal(f->kernel, "k2");
	assert_string_equal(f->scope, "access");
	assert_int_equal(f->row_id, 10);
	assert_string_equal(f->message, "read of in[32 * i] touches 32 sectors per request (ideal 4)");
	/* the way back to the row, for the rewriter */
	sqlite3_stmt *row = NULL;
	assert_int_equal(ka_finding_row(db, f, &row), KA_OK);
	assert_string_equal((const char *)sqlite3_column_text(row, 4), "k.cu");
	sqlite3_finalize(row);
	ka_findings_free(&fs);
	ka_ruleset_free(rs);
	sqlite3_close(db);
}

static void eval_says_assumptions(void **state)
{
	sqlite3 *db = test_facts();
	test_exec(db, ACCESSES);
	ka_ruleset *rs = test_rule("gmem-strided", "warning", "access",
				   "space = 'global' AND sectors_per_request > ideal_sectors", "{base}");
	ka_findings fs = KA_FINDINGS_INIT;
	assert_int_equal(ka_rules_eval(rs, db, NULL, &fs), KA_OK);
	ka_findings_sort_unique(&fs);
	assert_int_equal(fs.n, 3);
	assert_string_equal(fs.v[0].message, "a (assumed: N = 1024 for the symbolic row width)");
	assert_string_equal(
		fs.v[1].message,
		"b (assumed: block of 256x1x1 threads; no launch site or __launch_bounds__ fixes it)");
	assert_string_equal(fs.v[2].message, "in");
	ka_findings_free(&fs);
	ka_ruleset_free(rs);
	/* a message that names {assumption} says it once, not again at its end */
	rs = test_rule("gmem-strided", "warning", "access",
		       "space = 'global' AND sectors_per_request > ideal_sectors",
		       "{base} under ({assumption})");
	assert_int_equal(ka_rules_eval(rs, db, NULL, &fs), KA_OK);
	ka_findings_sort_unique(&fs);
	assert_int_equal(fs.n, 3);
	assert_string_equal(fs.v[0].message, "a under (N = 1024 for the symbolic row width)");
	ka_findings_free(&fs);
	ka_ruleset_free(rs);
	sqlite3_close(db);
}

/* The estimate sets the severity through the bands, capped by the rule's
 * severity; its basis ends the message; `let:` names SQL expressions the
 * templates can use; an estimate of NULL (unknown) gives a note. */
static void eval_impact_bands(void **state)
{
	static const char text[] =
		"---\nid: gmem-est\ntitle: t\nseverity: warning\ncategory: memory\nscope: access\n"
		"where: space = 'global'\n"
		"message: \"{base} {what}\"\n"
		"let:\n  what: \"CASE WHEN rw = 'read' THEN 'loads' ELSE 'stores' END\"\n"
		"estimate: 1.0 * sectors_per_request / ideal_sectors\n"
		"basis: \"{sectors_per_request} over {ideal_sectors}\"\n---\nbody\n";
	sqlite3 *db = test_facts();
	test_exec(db, ACCESSES);
	test_exec(db, "UPDATE access SET sectors_per_request = NULL WHERE id = 13");
	ka_ruleset *rs;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_add_text(rs, "t.md", text, strlen(text), 0, 0), KA_OK);
	assert_int_equal(ka_ruleset_check(rs), KA_OK);
	ka_findings fs = KA_FINDINGS_INIT;
	assert_int_equal(ka_rules_eval(rs, db, NULL, &fs), KA_OK);
	ka_findings_sort_unique(&fs);
	assert_int_equal(fs.n, 4);                          /* lines 5, 6, 22, 23 */
	assert_int_equal(fs.v[2].severity, KA_SEV_WARNING); /* 32 / 4 = 8x */
	assert_true(fs.v[2].estimate == 8.0);
	assert_string_equal(fs.v[2].message, "in loads [impact 8.0x: 32 over 4]");
	assert_string_equal(fs.v[2].basis, "32 over 4");
	assert_int_equal(fs.v[3].severity, KA_SEV_NOTE); /* 4 / 4 = 1x */
	assert_string_equal(fs.v[3].message, "out stores [impact 1.0x: 4 over 4]");
	assert_int_equal(fs.v[1].severity, KA_SEV_NOTE); /* unknown */
	assert_true(fs.v[1].estimate == 0);
	assert_non_null(strstr(fs.v[1].message, "[impact unknown: "));
	/* --sort impact: the two 8x warnings (by location), then 1x, then unknown */
	ka_findings_sort_impact(&fs);
	assert_int_equal(fs.v[0].line, 5);
	assert_int_equal(fs.v[1].line, 22);
	assert_int_equal(fs.v[2].line, 23);
	assert_int_equal(fs.v[3].line, 6);
	ka_findings_free(&fs);
	ka_ruleset_free(rs);
	/* the ceiling: a note rule stays a note at 8x; bands without an estimate keep it */
	assert_int_equal(ka_severity_band(KA_SEV_NOTE, 1, 8.0), KA_SEV_NOTE);
	assert_int_equal(ka_severity_band(KA_SEV_ERROR, 1, 8.0), KA_SEV_WARNING);
	assert_int_equal(ka_severity_band(KA_SEV_ERROR, 0, 0), KA_SEV_ERROR);
	assert_int_equal(ka_severity_band(KA_SEV_WARNING, 1, 1.99), KA_SEV_NOTE);
	sqlite3_close(db);
}

static void template_values(void **state)
{
	sqlite3 *db = test_facts();
	sqlite3_stmt *st = NULL;
	ka_buf b;
	ka_buf_init(&b, 0);
	assert_int_equal(
		sqlite3_prepare_v2(db, "SELECT 'x' AS name, 3 AS n, 2.5 AS r, NULL AS z", -1, &st, NULL),
		SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(ka_template_render("{name}={n} r={r} z={z} {{literal}} {}", st, &b), KA_OK);
	assert_string_equal(b.data, "x=3 r=2.5 z=? {literal} {}");
	sqlite3_finalize(st);
	ka_buf_free(&b);
	sqlite3_close(db);
}

static void eval_filters_language_and_arch(void **state)
{
	sqlite3 *db = test_facts();
	test_exec(db, ACCESSES);
	char text[] = "---\nid: hip-only-rule\ntitle: t\nseverity: note\ncategory: memory\nscope: access\n"
		      "where: 1\nmessage: m\nlanguages: [hip]\narchitectures: [amd]\n---\n";
	ka_ruleset *rs;
	ka_findings fs = KA_FINDINGS_INIT;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_add_text(rs, "t.md", text, strlen(text), 0, 0), KA_OK);
	assert_int_equal(ka_rules_eval(rs, db, NULL, &fs), KA_OK);
	assert_int_equal(fs.n, 0); /* the file is CUDA on sm_90 */
	ka_eval_opts o = {.lang = "hip", .arch = "gfx942"};
	assert_int_equal(ka_rules_eval(rs, db, &o, &fs), KA_OK);
	assert_int_equal(fs.n, 5);
	ka_findings_free(&fs);
	/* a rule disabled by --checks does not run, unless asked for by id */
	assert_int_equal(ka_ruleset_select(rs, "-*"), KA_OK);
	assert_int_equal(ka_rules_eval(rs, db, &o, &fs), KA_OK);
	assert_int_equal(fs.n, 0);
	o.only_rule = "hip-only-rule";
	assert_int_equal(ka_rules_eval(rs, db, &o, &fs), KA_OK);
	assert_int_equal(fs.n, 5);
	ka_findings_free(&fs);
	ka_ruleset_free(rs);
	sqlite3_close(db);
}

static void findings_sort_and_dedupe(void **state)
{
	ka_findings fs = KA_FINDINGS_INIT;
	const char *files[] = {"b.cu", "a.cu", "b.cu", "a.cu"};
	int lines[] = {3, 9, 3, 2};
	for (int i = 0; i < 4; i++) {
		ka_finding f = {0};
		f.file = strdup(files[i]);
		f.line = lines[i];
		f.col = 1;
		f.rule = strdup("x-y");
		f.message = strdup("m");
		assert_int_equal(ka_findings_push(&fs, &f), KA_OK);
	}
	ka_findings_sort_unique(&fs);
	assert_int_equal(fs.n, 3);
	assert_string_equal(fs.v[0].file, "a.cu");
	assert_int_equal(fs.v[0].line, 2);
	assert_int_equal(fs.v[1].line, 9);
	assert_string_equal(fs.v[2].file, "b.cu");
	ka_findings_free(&fs);
}

int run_engine_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(authorizer_blocks_writes),
		cmocka_unit_test(authorizer_blocks_attach_pragma_extensions),
		cmocka_unit_test(regexp_is_pcre2),
		cmocka_unit_test(eval_makes_findings),
		cmocka_unit_test(eval_says_assumptions),
		cmocka_unit_test(eval_impact_bands),
		cmocka_unit_test(template_values),
		cmocka_unit_test(eval_filters_language_and_arch),
		cmocka_unit_test(findings_sort_and_dedupe),
	};
	return cmocka_run_group_tests_name("rules/engine", tests, NULL, NULL);
}
