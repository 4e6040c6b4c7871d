/* tests/knowledge/test_kdb_cli.c: the knowledge DB from the command line.
 *
 * fixtures/team is an export (evidence.json, skills.json, one learned
 * rule) whose evidence is about the test rules of fixtures/rules, which
 * fire on fixtures/src/gather.cu:
 *   test-kdb-store   estimated 1.5x (a note); its fix won 5 of 6 times on
 *                    sm_90, so there it is a warning at 2.7x;
 *   test-kdb-stride  estimated 8.0x (a warning); never faster on sm_90, so
 *                    there it is a note at 1.7x; no evidence on sm_80;
 *   test-kdb-kernel  no estimate: evidence shown, severity kept;
 *   test-kdb-quiet   no evidence at all: reads as it always did.
 * `kcheck knowledge import` builds the DB the lint runs read.  Checked:
 * the text, JSON and SARIF evidence and the corrected severities, the
 * default path and .kcheck.yaml `db:`, --explain and `rules show`, output
 * byte for byte unchanged with --no-db, without a DB and with an
 * unreadable default DB, stats, export -> import round trip, and imports
 * of bad exports that leave the DB (or its absence) as it was. */
#include "cli_run.h"
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#define RULES "--no-config --rules-dir " KDB_FIXTURES "/rules --checks 'test-kdb-*'"
#define GATHER KDB_FIXTURES "/src/gather.cu"

static char *tmp;     /* this run's folder */
static char db[4200]; /* tmp/k.db: fixtures/team imported */

static const char STORE_EVIDENCE[] =
	"      = evidence: fixed 5 times on sm_90, median 4.0x [3.1, 6.0], 1 failure; impact 1.5x -> 2.7x\n";
static const char STRIDE_EVIDENCE[] =
	"      = evidence: tried 6 times on sm_90, never faster; impact 8.0x -> 1.7x\n";

static int setup(void **state)
{
	tmp = cli_tmpdir();
	snprintf(db, sizeof db, "%s/k.db", tmp);
	cli_result r = cli_run(tmp, NULL, "knowledge import %s/team --db k.db", KDB_FIXTURES);
	assert_int_equal(r.status, 0);
	assert_string_equal(
		r.out, "imported 1 learned rule, 16 evidence rows (0 already there), 1 skill into k.db\n");
	assert_string_equal(r.err, "");
	cli_free(&r);
	return 0;
}

static int teardown(void **state)
{
	cli_rmtree(tmp);
	free(tmp);
	return 0;
}

/* kcheck ARGS on gather.cu, in tmp. */
static cli_result lint(const char *env, const char *args)
{
	return cli_run(tmp, env, RULES " %s " GATHER, args);
}

static void text_evidence(void **state)
{
	cli_result r = lint("NO_COLOR=1", "--db k.db");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "gather.cu:5:5: warning: store to out[i] [impact 1.5x: a fixed 1.5x] "
				      "[test-kdb-store]\n"
				      "    5 |     out[i] = in[32 * i];\n"
				      "      |     ^~~~~~\n"));
	assert_non_null(strstr(r.out, STORE_EVIDENCE));
	assert_non_null(strstr(r.out, "gather.cu:5:14: note: read of in[32 * i]: 32 sectors per request, "
				      "ideal 4 [impact 8.0x: 32 sectors over 4] [test-kdb-stride]\n"));
	assert_non_null(strstr(r.out, STRIDE_EVIDENCE));
	/* no estimate: the evidence, no correction, the rule's severity */
	assert_non_null(strstr(r.out, "gather.cu:2:1: note: kernel gather [test-kdb-kernel]\n"));
	assert_non_null(strstr(r.out, "      = evidence: fixed 1 time on sm_90, median 1.2x [1.2, 1.2]\n"));
	assert_non_null(strstr(r.out, "costliest finding test-kdb-store (warning, impact 2.7x) at line 5"));
	assert_string_equal(r.err, "kcheck: 0 errors, 1 warning, 3 notes\n");
	cli_free(&r);
	/* the run's arch picks the evidence: on sm_80 only the store has some,
	 * and one win moves the estimate but not across the 2x band */
	r = lint("NO_COLOR=1", "--db k.db --arch sm_80");
	assert_non_null(strstr(r.out, "gather.cu:5:5: note: store to out[i]"));
	assert_non_null(strstr(r.out, "      = evidence: fixed 1 time on sm_80, median 2.5x [2.5, 2.5]; "
				      "impact 1.5x -> 1.8x\n"));
	assert_null(strstr(r.out, "never faster"));
	assert_non_null(strstr(r.out, "gather.cu:5:14: warning: read of in[32 * i]"));
	cli_free(&r);
}

static json_t *finding(json_t *findings, const char *key, const char *rule)
{
	for (size_t i = 0; i < json_array_size(findings); i++) {
		json_t *f = json_array_get(findings, i);
		const char *id = json_string_value(json_object_get(f, key));
		if (id && !strcmp(id, rule))
			return f;
	}
	fail_msg("no finding of %s", rule);
	return NULL;
}

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	assert_true(json_is_number(v));
	return json_number_value(v);
}

static void json_evidence(void **state)
{
	cli_result r = lint(NULL, "--db k.db --format json");
	json_error_t je;
	json_t *root = json_loads(r.out, 0, &je);
	assert_non_null(root);
	json_t *fs = json_object_get(root, "findings");
	json_t *store = finding(fs, "rule", "test-kdb-store");
	assert_string_equal(json_string_value(json_object_get(store, "severity")), "warning");
	assert_true(num(store, "estimate") > 2.65 && num(store, "estimate") < 2.7);
	json_t *ev = json_object_get(store, "evidence");
	assert_string_equal(json_string_value(json_object_get(ev, "arch")), "sm_90");
	assert_int_equal((int)num(ev, "wins"), 5);
	assert_int_equal((int)num(ev, "failures"), 1);
	assert_int_equal((int)num(ev, "errors"), 0);
	assert_true(num(ev, "median") == 4.0);
	json_t *ci = json_object_get(ev, "ci");
	assert_int_equal(json_array_size(ci), 2);
	assert_true(json_real_value(json_array_get(ci, 0)) == 3.1 &&
		    json_real_value(json_array_get(ci, 1)) == 6.0);
	assert_true(num(ev, "static_estimate") == 1.5);
	assert_string_equal(json_string_value(json_object_get(ev, "text")),
			    "fixed 5 times on sm_90, median 4.0x [3.1, 6.0], 1 failure");
	json_t *stride = finding(fs, "rule", "test-kdb-stride");
	assert_string_equal(json_string_value(json_object_get(stride, "severity")), "note");
	ev = json_object_get(stride, "evidence");
	assert_int_equal((int)num(ev, "wins"), 0);
	assert_int_equal((int)num(ev, "failures"), 6);
	assert_int_equal((int)num(ev, "errors"), 1);
	assert_true(json_is_null(json_object_get(ev, "median")) && json_is_null(json_object_get(ev, "ci")));
	assert_true(num(ev, "static_estimate") == 8.0);
	/* no evidence: no key at all */
	assert_null(json_object_get(finding(fs, "rule", "test-kdb-quiet"), "evidence"));
	json_t *sum = json_object_get(root, "summary");
	assert_int_equal((int)num(sum, "warning"), 1);
	assert_int_equal((int)num(sum, "note"), 3);
	json_decref(root);
	cli_free(&r);
}

static void sarif_evidence(void **state)
{
	cli_result r = lint(NULL, "--db k.db --format sarif");
	json_error_t je;
	json_t *root = json_loads(r.out, 0, &je);
	assert_non_null(root);
	json_t *results = json_object_get(json_array_get(json_object_get(root, "runs"), 0), "results");
	json_t *store = finding(results, "ruleId", "test-kdb-store");
	assert_string_equal(json_string_value(json_object_get(store, "level")), "warning");
	json_t *props = json_object_get(store, "properties");
	assert_true(num(props, "estimate") > 2.65 && num(props, "estimate") < 2.7);
	json_t *ev = json_object_get(props, "evidence");
	assert_string_equal(json_string_value(json_object_get(ev, "text")),
			    "fixed 5 times on sm_90, median 4.0x [3.1, 6.0], 1 failure");
	assert_int_equal((int)num(ev, "wins"), 5);
	json_t *stride = finding(results, "ruleId", "test-kdb-stride");
	assert_string_equal(json_string_value(json_object_get(stride, "level")), "note");
	assert_null(json_object_get(
		json_object_get(finding(results, "ruleId", "test-kdb-quiet"), "properties"), "evidence"));
	json_decref(root);
	cli_free(&r);
}

/* The default path ($XDG_DATA_HOME/kernelarc/knowledge.db) and $KCHECK_DB
 * find the same DB as --db; the config's `db:` is refused. */
static void default_path_and_config(void **state)
{
	char env[4400];
	cli_result r = cli_run(tmp, NULL, "knowledge import %s/team --db xdg/kernelarc/knowledge.db",
			       KDB_FIXTURES); /* creates the folders */
	assert_int_equal(r.status, 0);
	cli_free(&r);
	snprintf(env, sizeof env, "NO_COLOR=1 XDG_DATA_HOME='%s/xdg'", tmp);
	r = lint(env, "");
	assert_non_null(strstr(r.out, STORE_EVIDENCE));
	cli_free(&r);
	/* a repository does not choose the DB: `db:` is refused where it stands */
	cli_write(tmp, "kcheck.yaml", "checks: 'test-kdb-*'\ndb: k.db\n");
	r = cli_run(tmp, "NO_COLOR=1", "--config kcheck.yaml --rules-dir %s/rules %s", KDB_FIXTURES, GATHER);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err,
			       "kcheck.yaml:2: 'db' cannot be set in .kcheck.yaml: a repository does not "
			       "choose the knowledge DB (use --db FILE or KCHECK_DB)\n"));
	cli_free(&r);
	/* the user's KCHECK_DB does, below --db and --no-db */
	cli_write(tmp, "kcheck.yaml", "checks: 'test-kdb-*'\n");
	snprintf(env, sizeof env, "NO_COLOR=1 KCHECK_DB='%s/k.db'", tmp);
	r = cli_run(tmp, env, "--config kcheck.yaml --rules-dir %s/rules %s", KDB_FIXTURES, GATHER);
	assert_non_null(strstr(r.out, STRIDE_EVIDENCE));
	cli_free(&r);
	r = cli_run(tmp, env, "--config kcheck.yaml --rules-dir %s/rules --no-db %s", KDB_FIXTURES, GATHER);
	assert_int_equal(r.status, 1);
	assert_null(strstr(r.out, "= evidence:"));
	cli_free(&r);
}

/* Every way of having no evidence prints what kcheck printed before. */
static void unchanged_without_evidence(void **state)
{
	static const char *const formats[] = {"text", "json", "sarif"};
	char env[4400], parent[4300], junk[4300];
	snprintf(parent, sizeof parent, "%s/junk", tmp);
	snprintf(junk, sizeof junk, "%s/junk/kernelarc", tmp);
	assert_int_equal(mkdir(parent, 0700), 0);
	assert_int_equal(mkdir(junk, 0700), 0);
	cli_write(junk, "knowledge.db", "not a database\n");
	for (int i = 0; i < 3; i++) {
		char args[64];
		snprintf(args, sizeof args, "--format %s", formats[i]);
		cli_result plain = lint("NO_COLOR=1", args); /* ctest's empty XDG_DATA_HOME */
		assert_int_equal(plain.status, 1);
		assert_null(strstr(plain.out, "= evidence:"));
		assert_null(strstr(plain.out, "\"evidence\":"));
		snprintf(args, sizeof args, "--format %s --db k.db --no-db", formats[i]);
		snprintf(env, sizeof env, "NO_COLOR=1 XDG_DATA_HOME='%s/xdg'", tmp);
		cli_result nodb = lint(env, args);
		assert_string_equal(nodb.out, plain.out);
		assert_string_equal(nodb.err, plain.err);
		/* a default DB that is not one: a warning, then the same report */
		snprintf(args, sizeof args, "--format %s", formats[i]);
		snprintf(env, sizeof env, "NO_COLOR=1 XDG_DATA_HOME='%s/junk'", tmp);
		cli_result bad = lint(env, args);
		assert_int_equal(bad.status, 1);
		assert_string_equal(bad.out, plain.out);
		assert_non_null(strstr(bad.err, "kcheck: warning: "));
		assert_non_null(strstr(bad.err, "findings carry no evidence (--no-db to skip it)\n"));
		cli_free(&plain);
		cli_free(&nodb);
		cli_free(&bad);
	}
	/* a DB with no evidence for the rules that fire: the same too */
	cli_result plain = lint("NO_COLOR=1", "--checks test-kdb-quiet");
	cli_result withdb = lint("NO_COLOR=1", "--checks test-kdb-quiet --db k.db");
	assert_string_equal(withdb.out, plain.out);
	cli_free(&plain);
	cli_free(&withdb);
	/* a DB named on the command line must be there */
	cli_result r = lint(NULL, "--db missing.db");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "kcheck: error: no knowledge DB at missing.db (kcheck optimize or kcheck "
				   "knowledge import writes one; --no-db for none)\n");
	cli_free(&r);
	struct stat sb;
	char path[4300];
	snprintf(path, sizeof path, "%s/missing.db", tmp);
	assert_int_not_equal(stat(path, &sb), 0); /* lint never creates one */
}

static void explain_and_show(void **state)
{
	static const char standing[] =
		"evidence: fixed 1 time on sm_80, median 2.5x [2.5, 2.5]\n"
		"evidence: fixed 5 times on sm_90, median 4.0x [3.1, 6.0], 1 failure\n";
	char want[512];
	/* between the rule's facts and its text */
	snprintf(want, sizeof want, "fix: none (suggest)\n%s\nA rule of the knowledge CLI tests", standing);
	cli_result r = cli_run(tmp, NULL,
			       "--no-config --rules-dir %s/rules --db k.db --explain test-kdb-store",
			       KDB_FIXTURES);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, want));
	cli_free(&r);
	r = cli_run(tmp, NULL, "--no-config --rules-dir %s/rules --no-db --explain test-kdb-store",
		    KDB_FIXTURES);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "fix: none (suggest)\n\nA rule of the knowledge CLI tests"));
	cli_free(&r);
	/* the file as written, a blank line, the standing */
	char *file = cli_read(KDB_FIXTURES "/rules/test-kdb-store.md");
	assert_non_null(file);
	r = cli_run(tmp, NULL, "rules show test-kdb-store --rules-dir %s/rules --db k.db", KDB_FIXTURES);
	assert_int_equal(r.status, 0);
	assert_true(strlen(r.out) > strlen(file));
	assert_memory_equal(r.out, file, strlen(file));
	assert_string_equal(r.out + strlen(file),
			    "\n"
			    "evidence: fixed 1 time on sm_80, median 2.5x [2.5, 2.5]\n"
			    "evidence: fixed 5 times on sm_90, median 4.0x [3.1, 6.0], 1 failure\n");
	cli_free(&r);
	r = cli_run(tmp, NULL, "rules show test-kdb-store --rules-dir %s/rules --no-db", KDB_FIXTURES);
	assert_string_equal(r.out, file);
	cli_free(&r);
	free(file);
}

static const char STATS[] =
	"rules: 0 stable, 0 preview, 1 candidate, 0 retired (1 learned)\n"
	"evidence: 16 rows (8 faster, 4 same, 2 slower, 1 rejected, 1 error)\n"
	"  sm_80: 1 row (1 faster)\n"
	"  sm_90: 15 rows (7 faster, 4 same, 2 slower, 1 rejected, 1 error)\n"
	"skills: 1\n"
	"runs: 0 (0 steps)\n"
	"top rules by standing (posterior of a win, then wins):\n"
	"  0.75  test-kdb-store: fixed 5 times on sm_90, median 4.0x [3.1, 6.0], 1 failure\n"
	"  0.67  test-kdb-store: fixed 1 time on sm_80, median 2.5x [2.5, 2.5]\n"
	"  0.67  gmem-learned-broadcast-row: fixed 1 time on sm_90, median 1.8x [1.8, 1.8]\n"
	"  0.67  test-kdb-kernel: fixed 1 time on sm_90, median 1.2x [1.2, 1.2]\n"
	"  0.12  test-kdb-stride: tried 6 times on sm_90, never faster\n";

/* stats of a DB, without its first line (the path). */
static char *stats_of(const char *name)
{
	cli_result r = cli_run(tmp, NULL, "knowledge stats --db %s", name);
	assert_int_equal(r.status, 0);
	char *nl = strchr(r.out, '\n');
	assert_non_null(nl);
	char *s = strdup(nl + 1);
	cli_free(&r);
	return s;
}

static void stats_and_round_trip(void **state)
{
	char *a = stats_of("k.db");
	assert_string_equal(a, STATS);
	cli_result r = cli_run(tmp, NULL, "knowledge export ex --db k.db");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "exported 1 learned rule, 16 evidence rows, 1 skill to ex\n");
	cli_free(&r);
	r = cli_run(tmp, NULL, "knowledge import ex --db fresh.db");
	assert_int_equal(r.status, 0);
	cli_free(&r);
	char *b = stats_of("fresh.db");
	assert_string_equal(b, a);
	free(b);
	/* importing again adds no evidence */
	r = cli_run(tmp, NULL, "knowledge import ex --db fresh.db");
	assert_string_equal(r.out,
			    "imported 1 learned rule, 0 evidence rows (16 already there), 0 skills into "
			    "fresh.db\n");
	cli_free(&r);
	b = stats_of("fresh.db");
	assert_string_equal(b, a);
	free(b);
	free(a);
}

/* The bytes of a file (*len of them), or NULL. */
static char *bytes_of(const char *path, size_t *len)
{
	struct stat sb;
	FILE *f = fopen(path, "rb");
	char *b = f && fstat(fileno(f), &sb) == 0 ? malloc((size_t)sb.st_size + 1) : NULL;
	*len = b && fread(b, 1, (size_t)sb.st_size, f) == (size_t)sb.st_size ? (size_t)sb.st_size : 0;
	if (f)
		fclose(f);
	return b;
}

/* An import of dir into k.db, and into a DB that does not exist, fails
 * with err (one line), exit 2, and changes nothing. */
static void refused(const char *dir, const char *err)
{
	char path[4300], never[4300];
	size_t nbefore, nafter;
	struct stat sb;
	snprintf(path, sizeof path, "%s/k.db", tmp);
	snprintf(never, sizeof never, "%s/never.db", tmp);
	char *before = bytes_of(path, &nbefore);
	cli_result r = cli_run(tmp, NULL, "knowledge import %s --db k.db", dir);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, err);
	cli_free(&r);
	char *after = bytes_of(path, &nafter);
	assert_non_null(before);
	assert_non_null(after);
	assert_true(nbefore > 0 && nafter == nbefore);
	assert_memory_equal(after, before, nbefore);
	char *stats = stats_of("k.db");
	assert_string_equal(stats, STATS);
	r = cli_run(tmp, NULL, "knowledge import %s --db never.db", dir);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, err);
	assert_int_not_equal(stat(never, &sb), 0);
	cli_free(&r);
	free(before);
	free(after);
	free(stats);
}

static void bad_imports(void **state)
{
	char dir[4300];
	snprintf(dir, sizeof dir, "%s/bad", tmp);
	assert_int_equal(mkdir(dir, 0700), 0);
	/* not JSON */
	cli_write(
		dir, "evidence.json",
		"{\"format\": \"kcheck-knowledge\", \"version\": 1, \"evidence\": [\n"
		"  {\"rule\": \"test-kdb-store\", \"arch\": \"sm_90\", \"verdict\": \"faster\", \"speedup\": 2.0},\n"
		"  {\"rule\": \"test-kdb-store\", \"arch\": \"sm_90\"\n"
		"]}\n");
	refused("bad", "kcheck: error: bad/evidence.json:4:1: '}' expected near ']'\n");
	/* a good row, then a bad one: neither is imported */
	cli_write(
		dir, "evidence.json",
		"{\"format\": \"kcheck-knowledge\", \"version\": 1, \"evidence\": [\n"
		"  {\"rule\": \"test-kdb-store\", \"arch\": \"sm_90\", \"verdict\": \"faster\", \"speedup\": 9.0},\n"
		"  {\"rule\": \"test-kdb-store\", \"arch\": \"sm_90\", \"verdict\": \"quicker\"}\n"
		"]}\n");
	refused("bad", "kcheck: error: bad/evidence.json: evidence[1]: evidence for test-kdb-store: unknown "
		       "verdict 'quicker' (faster, same, slower, rejected, error)\n");
	/* a number where a string belongs */
	cli_write(
		dir, "evidence.json",
		"{\"format\": \"kcheck-knowledge\", \"version\": 1, \"evidence\": [\n"
		"  {\"rule\": \"test-kdb-store\", \"arch\": 90, \"verdict\": \"faster\", \"speedup\": 2.0}]}\n");
	refused("bad", "kcheck: error: bad/evidence.json: evidence[0]: 'arch' has the wrong type\n");
	/* not an export */
	cli_write(dir, "evidence.json", "{\"evidence\": []}\n");
	refused("bad",
		"kcheck: error: bad/evidence.json: not a kcheck knowledge export (format kcheck-knowledge, "
		"version 1)\n");
	/* a learned rule whose file is missing */
	cli_write(
		dir, "evidence.json",
		"{\"format\": \"kcheck-knowledge\", \"version\": 1,"
		" \"rules\": [{\"id\": \"gmem-learned-gone\", \"status\": \"candidate\"}], \"evidence\": []}\n");
	refused("bad",
		"kcheck: error: bad/rules/gmem-learned-gone.md: cannot read bad/rules/gmem-learned-gone.md: "
		"No such file or directory\n");
}

/* `knowledge show` prints what an export brought escaped: no escape
 * sequence and no bidirectional override reaches the terminal. */
static void show_escapes(void **state)
{
	char dir[4300], rules[4400];
	snprintf(dir, sizeof dir, "%s/hostile", tmp);
	snprintf(rules, sizeof rules, "%s/rules", dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(mkdir(rules, 0700), 0);
	char *rule = cli_read(KDB_FIXTURES "/team/rules/gmem-learned-broadcast-row.md");
	assert_non_null(rule);
	size_t n = strlen(rule) + 64;
	char *evil = malloc(n);
	assert_non_null(evil);
	snprintf(evil, n, "%s\x1b]0;owned\x07 \xe2\x80\xae gnp.exe\n", rule);
	cli_write(rules, "gmem-learned-broadcast-row.md", evil);
	cli_write(dir, "evidence.json",
		  "{\"format\": \"kcheck-knowledge\", \"version\": 1, \"rules\": [{\"id\":"
		  " \"gmem-learned-broadcast-row\", \"status\": \"candidate\"}], \"evidence\": [{\"rule\":"
		  " \"gmem-learned-broadcast-row\", \"task\": \"t\\u001b[2J\\u202e\", \"arch\": \"sm_90\","
		  " \"verdict\": \"same\", \"speedup\": 1.0, \"at\": 1764590000}]}");
	cli_result r = cli_run(tmp, NULL, "knowledge import hostile --db show.db");
	assert_int_equal(r.status, 0);
	cli_free(&r);
	r = cli_run(tmp, NULL, "knowledge show gmem-learned-broadcast-row --db show.db");
	assert_int_equal(r.status, 0);
	assert_null(strchr(r.out, '\x1b'));
	assert_null(strchr(r.out, '\x07'));
	assert_null(strstr(r.out, "\xe2\x80\xae"));
	assert_non_null(strstr(r.out, "\\x1b]0;owned\\x07 \\u202e gnp.exe\n"));
	assert_non_null(strstr(r.out, " same 1.00x t\\x1b[2J\\u202e sm_90\n"));
	assert_non_null(strstr(r.out, "\n## Why\n")); /* line breaks kept */
	cli_free(&r);
	free(evil);
	free(rule);
}

static void usage(void **state)
{
	cli_result r = cli_run(tmp, NULL, "knowledge --help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "usage: kcheck knowledge stats [--db FILE]\n"));
	cli_free(&r);
	r = cli_run(tmp, NULL, "knowledge frobnicate");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err,
			    "kcheck: error: unknown knowledge command: frobnicate (usage: kcheck knowledge "
			    "stats|show ID|export DIR|import DIR [--db FILE])\n");
	cli_free(&r);
	r = cli_run(tmp, NULL, "knowledge stats --db missing.db");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "kcheck: error: no knowledge DB at missing.db (kcheck optimize writes it; "
				   "--db FILE)\n");
	cli_free(&r);
	r = cli_run(tmp, NULL, "knowledge export --db k.db");
	assert_int_equal(r.status, 2);
	cli_free(&r);
}

int run_knowledge_cli_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_evidence),
		cmocka_unit_test(json_evidence),
		cmocka_unit_test(sarif_evidence),
		cmocka_unit_test(default_path_and_config),
		cmocka_unit_test(unchanged_without_evidence),
		cmocka_unit_test(explain_and_show),
		cmocka_unit_test(stats_and_round_trip),
		cmocka_unit_test(bad_imports),
		cmocka_unit_test(show_escapes),
		cmocka_unit_test(usage),
	};
	return cmocka_run_group_tests_name("knowledge_cli", tests, setup, teardown);
}
