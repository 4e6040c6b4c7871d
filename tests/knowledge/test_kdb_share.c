/* tests/knowledge/test_kdb_share.c: export and import round trip, stats
 * and tallies (what `kcheck knowledge stats` reads). */
#include "test_kdb.h"
#include "util/fs.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

static ka_kdb *filled(const char *dir, char *path, size_t cap)
{
	char text[2048];
	ka_kdb *k = tk_open(dir, path, cap);
	tk_rule_text(text, sizeof text, "gmem-learned-rows", "rows by warps");
	TK_OK(ka_kdb_add_rule(k, NULL, text, "candidate"));
	ka_kdb_evidence e = {.rule = "gmem-learned-rows",
			     .fix = "warp-per-row",
			     .task = "softmax",
			     .kernel_hash = "abc",
			     .gpu = "NVIDIA H200",
			     .arch = "sm_90",
			     .speedup = 4.25,
			     .ci_low = 4.1,
			     .ci_high = 4.4,
			     .verdict = "faster",
			     .when = 1764590000};
	assert_int_equal(ka_kdb_add_evidence(k, &e, NULL), KA_OK);
	ka_kdb_evidence e2 = {.rule = "atomic-hot-bins",
			      .task = "histogram",
			      .arch = "sm_90",
			      .verdict = "rejected",
			      .when = 1764590100};
	assert_int_equal(ka_kdb_add_evidence(k, &e2, NULL), KA_OK);
	ka_kdb_evidence e3 = {.rule = "gmem-learned-rows",
			      .task = "layernorm",
			      .arch = "sm_90",
			      .verdict = "faster",
			      .speedup = 1.0 / 3.0 + 1,
			      .when = 1764590200};
	assert_int_equal(ka_kdb_add_evidence(k, &e3, NULL), KA_OK);
	ka_kdb_skill sk = {.task = "softmax",
			   .arch = "sm_90",
			   .source = "__global__ void k() {}\n",
			   .summary = "warp per row",
			   .rules = "gmem-learned-rows",
			   .speedup = 4.25,
			   .when = 1764590300};
	assert_int_equal(ka_kdb_add_skill(k, &sk, NULL), KA_OK);
	return k;
}

static char *slurp(const char *dir, const char *name)
{
	char path[1024], *t = NULL;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	assert_int_equal(ka_fs_read(path, 0, &t, NULL), KA_OK);
	return t;
}

static void export_import_round_trip(void **state)
{
	char dir[256], pa[512], pb[512], ex1[512], ex2[512], status[32];
	ka_kdb_counts c;
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *a = filled(dir, pa, sizeof pa);
	snprintf(ex1, sizeof ex1, "%s/export1", dir);
	assert_int_equal(ka_kdb_export(a, ex1, &c), KA_OK);
	assert_int_equal(c.rules, 1);
	assert_int_equal(c.evidence, 3);
	assert_int_equal(c.skills, 1);
	/* the learned rule, two tasks won: preview; exported as its file */
	char *rule = slurp(ex1, "rules/gmem-learned-rows.md");
	assert_non_null(strstr(rule, "id: gmem-learned-rows"));
	free(rule);
	ka_kdb_close(a);

	snprintf(pb, sizeof pb, "%s/b.db", dir);
	ka_kdb *b = NULL;
	assert_int_equal(ka_kdb_open(&b, pb, KA_KDB_CREATE), KA_OK);
	assert_int_equal(ka_kdb_import(b, ex1, &c), KA_OK);
	assert_int_equal(c.rules, 1);
	assert_int_equal(c.evidence, 3);
	assert_int_equal(c.skills, 1);
	assert_int_equal(ka_kdb_rule_status(b, "gmem-learned-rows", status, sizeof status), KA_OK);
	assert_string_equal(status, "preview");
	ka_kdb_standing s;
	assert_int_equal(ka_kdb_standing_get(b, "gmem-learned-rows", NULL, "sm_90", &s), KA_OK);
	assert_int_equal(s.wins, 2);
	assert_true(s.hi == 4.25 && s.lo == 1.0 / 3.0 + 1); /* reals survive exactly */
	/* importing again adds nothing */
	assert_int_equal(ka_kdb_import(b, ex1, &c), KA_OK);
	assert_int_equal(c.evidence, 0);
	assert_int_equal(c.skills, 0);
	assert_int_equal(tk_int(pb, "SELECT count(*) FROM evidence"), 3);
	/* and exporting B gives the same files, byte for byte */
	snprintf(ex2, sizeof ex2, "%s/export2", dir);
	assert_int_equal(ka_kdb_export(b, ex2, &c), KA_OK);
	const char *names[] = {"evidence.json", "skills.json", "rules/gmem-learned-rows.md"};
	for (int i = 0; i < 3; i++) {
		char *x = slurp(ex1, names[i]), *y = slurp(ex2, names[i]);
		assert_string_equal(x, y);
		free(x), free(y);
	}
	ka_kdb_close(b);
	tk_rmdir(dir);
}

/* A bad entry anywhere imports nothing, and says where. */
static void bad_import_imports_nothing(void **state)
{
	char dir[256], pa[512], ex[512], path[1024], msg[2048];
	ka_kdb_counts c;
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *a = filled(dir, pa, sizeof pa);
	snprintf(ex, sizeof ex, "%s/export", dir);
	assert_int_equal(ka_kdb_export(a, ex, &c), KA_OK);
	ka_kdb_close(a);
	char *text = slurp(ex, "evidence.json");
	char *p = strstr(text, "\"rejected\"");
	assert_non_null(p);
	memcpy(p, "\"rejectd\"", 9); /* keeps the length: one byte becomes a space */
	p[9] = ' ';
	snprintf(path, sizeof path, "%s/evidence.json", ex);
	assert_int_equal(ka_fs_write_atomic(path, text, strlen(text)), KA_OK);
	free(text);
	ka_kdb *b = NULL;
	char pb[512];
	snprintf(pb, sizeof pb, "%s/b.db", dir);
	assert_int_equal(ka_kdb_open(&b, pb, KA_KDB_CREATE), KA_OK);
	assert_int_equal(ka_kdb_import(b, ex, &c), KA_EINPUT);
	snprintf(msg, sizeof msg,
		 "%s: evidence[1]: evidence for atomic-hot-bins: unknown verdict 'rejectd' "
		 "(faster, same, slower, rejected, error)",
		 path);
	assert_string_equal(ka_error_last(), msg);
	ka_kdb_close(b);
	assert_int_equal(tk_int(pb, "SELECT count(*) FROM evidence"), 0);
	assert_int_equal(tk_int(pb, "SELECT count(*) FROM rules"), 0);
	/* not an export at all */
	assert_int_equal(ka_fs_write_atomic(path, "{\"a\": 1}", 8), KA_OK);
	assert_int_equal(ka_kdb_open(&b, pb, 0), KA_OK);
	assert_int_equal(ka_kdb_import(b, ex, &c), KA_EINPUT);
	snprintf(msg, sizeof msg, "%s: not a kcheck knowledge export (format kcheck-knowledge, version 1)",
		 path);
	assert_string_equal(ka_error_last(), msg);
	/* a rule id that would leave the folder */
	const char *evil = "{\"format\": \"kcheck-knowledge\", \"version\": 1,"
			   " \"rules\": [{\"id\": \"../../etc/x\", \"status\": \"candidate\"}]}";
	assert_int_equal(ka_fs_write_atomic(path, evil, strlen(evil)), KA_OK);
	assert_int_equal(ka_kdb_import(b, ex, &c), KA_EINPUT);
	snprintf(msg, sizeof msg, "%s: rules[0]: bad rule id '../../etc/x'", path);
	assert_string_equal(ka_error_last(), msg);
	ka_kdb_close(b);
	tk_rmdir(dir);
}

/* Write DIR/evidence.json with text. */
static void put_export(const char *ex, const char *text)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/evidence.json", ex);
	assert_int_equal(mkdir(ex, 0700) == 0 || errno == EEXIST, 1);
	assert_int_equal(ka_fs_write_atomic(path, text, strlen(text)), KA_OK);
}

#define EV(at) \
	"{\"format\": \"kcheck-knowledge\", \"version\": 1, \"evidence\": [{\"rule\": \"r-x\"," \
	" \"arch\": \"sm_90\", \"verdict\": \"same\", \"speedup\": 1.0, \"at\": " at "}]}"

/* "at" is whole seconds, bounded: a fraction dedups on re-import, a huge
 * value is refused, the largest kept round-trips. */
static void import_at_values(void **state)
{
	char dir[256], ex[512], ex2[512], pb[512], msg[1200];
	ka_kdb_counts c;
	tk_tmpdir(dir, sizeof dir);
	snprintf(ex, sizeof ex, "%s/export", dir);
	snprintf(ex2, sizeof ex2, "%s/export2", dir);
	ka_kdb *b = tk_open(dir, pb, sizeof pb);
	put_export(ex, EV("0.5"));
	for (int i = 0; i < 3; i++) { /* re-imports add nothing */
		assert_int_equal(ka_kdb_import(b, ex, &c), KA_OK);
		assert_int_equal(c.evidence, i == 0);
	}
	put_export(ex, EV("1764590000.75"));
	assert_int_equal(ka_kdb_import(b, ex, &c), KA_OK);
	assert_int_equal(ka_kdb_import(b, ex, &c), KA_OK);
	assert_int_equal(c.evidence, 0);
	put_export(ex, EV("1e300"));
	assert_int_equal(ka_kdb_import(b, ex, &c), KA_EINPUT);
	snprintf(msg, sizeof msg,
		 "%s/evidence.json: evidence[0]: 'at' must be seconds since 1970, up to the year 9999", ex);
	assert_string_equal(ka_error_last(), msg);
	put_export(ex, EV("253402300799"));
	assert_int_equal(ka_kdb_import(b, ex, &c), KA_OK);
	assert_int_equal(c.evidence, 1);
	ka_kdb_close(b);
	assert_int_equal(tk_int(pb, "SELECT count(*) FROM evidence"), 3);
	assert_int_equal(tk_int(pb, "SELECT min(at) FROM evidence"), 1);
	assert_int_equal(tk_int(pb, "SELECT count(*) FROM evidence WHERE at = 1764590000"), 1);
	/* the round trip: export, import into a new DB, export again: the same */
	assert_int_equal(ka_kdb_open(&b, pb, 0), KA_OK);
	assert_int_equal(ka_kdb_export(b, ex2, &c), KA_OK);
	ka_kdb_close(b);
	char pc[600];
	snprintf(pc, sizeof pc, "%s/c.db", dir);
	assert_int_equal(ka_kdb_open(&b, pc, KA_KDB_CREATE), KA_OK);
	assert_int_equal(ka_kdb_import(b, ex2, &c), KA_OK);
	assert_int_equal(c.evidence, 3);
	ka_kdb_close(b);
	assert_int_equal(tk_int(pc, "SELECT max(at) FROM evidence"), 253402300799LL);
	tk_rmdir(dir);
}

/* One export listing a rule twice is refused (it would count twice). */
static void import_duplicate_rule(void **state)
{
	char dir[256], ex[512], pb[512], text[2048], path[1200], msg[1400];
	ka_kdb_counts c;
	tk_tmpdir(dir, sizeof dir);
	snprintf(ex, sizeof ex, "%s/export", dir);
	put_export(ex, "{\"format\": \"kcheck-knowledge\", \"version\": 1, \"rules\": ["
		       "{\"id\": \"gmem-learned-rows\", \"status\": \"candidate\"},"
		       "{\"id\": \"gmem-learned-rows\", \"status\": \"candidate\"}]}");
	snprintf(path, sizeof path, "%s/rules", ex);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/rules/gmem-learned-rows.md", ex);
	tk_rule_text(text, sizeof text, "gmem-learned-rows", "rows by warps");
	assert_int_equal(ka_fs_write_atomic(path, text, strlen(text)), KA_OK);
	ka_kdb *b = tk_open(dir, pb, sizeof pb);
	assert_int_equal(ka_kdb_import(b, ex, &c), KA_EINPUT);
	snprintf(msg, sizeof msg, "%s/evidence.json: rules[1]: rule 'gmem-learned-rows' is listed twice", ex);
	assert_string_equal(ka_error_last(), msg);
	ka_kdb_close(b);
	assert_int_equal(tk_int(pb, "SELECT count(*) FROM rules"), 0);
	tk_rmdir(dir);
}

typedef struct tallies {
	char seen[8][96];
	int n, faster, rejected;
} tallies;

static int tally_fn(void *ud, const char *rule, const char *arch, const int count[KA_KDB_NVERDICTS])
{
	tallies *t = ud;
	snprintf(t->seen[t->n++], sizeof t->seen[0], "%s %s", rule, arch);
	t->faster += count[0];
	t->rejected += count[3];
	return t->n == 8;
}

/* stats, tallies per (rule, arch), and the in-memory import check. */
static void stats_tallies_and_check(void **state)
{
	char dir[256], pa[512], ex[512], path[1024];
	ka_kdb_counts c;
	ka_kdb_stats st;
	tallies t = {0};
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *a = filled(dir, pa, sizeof pa);
	ka_kdb_step step = {.run_id = "r1", .step = 1, .strategy = "warp-per-row", .outcome = "faster"};
	TK_OK(ka_kdb_add_step(a, &step));
	step.step = 2;
	TK_OK(ka_kdb_add_step(a, &step));
	TK_OK(ka_kdb_stats_get(a, &st));
	assert_int_equal(st.rules[2], 0);
	assert_int_equal(st.rules[1], 1); /* the learned rule won on two tasks: preview */
	assert_int_equal(st.learned, 1);
	assert_int_equal(st.evidence, 3);
	assert_int_equal(st.verdicts[0], 2); /* faster */
	assert_int_equal(st.verdicts[3], 1); /* rejected */
	assert_int_equal(st.skills, 1);
	assert_int_equal(st.runs, 1);
	assert_int_equal(st.steps, 2);
	TK_OK(ka_kdb_tally_each(a, NULL, tally_fn, &t));
	assert_int_equal(t.n, 2); /* by rule, then arch */
	assert_string_equal(t.seen[0], "atomic-hot-bins sm_90");
	assert_string_equal(t.seen[1], "gmem-learned-rows sm_90");
	assert_int_equal(t.faster, 2);
	assert_int_equal(t.rejected, 1);
	memset(&t, 0, sizeof t);
	TK_OK(ka_kdb_tally_each(a, "atomic-hot-bins", tally_fn, &t));
	assert_int_equal(t.n, 1);
	/* the check imports into memory: the counts, and no file anywhere */
	snprintf(ex, sizeof ex, "%s/export", dir);
	TK_OK(ka_kdb_export(a, ex, &c));
	ka_kdb_close(a);
	TK_OK(ka_kdb_import_check(ex, &c));
	assert_int_equal(c.rules, 1);
	assert_int_equal(c.evidence, 3);
	assert_int_equal(c.skills, 1);
	snprintf(path, sizeof path, "%s/evidence.json", ex);
	assert_int_equal(ka_fs_write_atomic(path, "{\"format\": ", 12), KA_OK);
	assert_int_equal(ka_kdb_import_check(ex, &c), KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "evidence.json:1:"));
	tk_rmdir(dir);
}

const struct CMUnitTest tk_share_tests[] = {
	cmocka_unit_test(export_import_round_trip), cmocka_unit_test(bad_import_imports_nothing),
	cmocka_unit_test(stats_tallies_and_check),  cmocka_unit_test(import_at_values),
	cmocka_unit_test(import_duplicate_rule),
};
const size_t tk_share_ntests = sizeof tk_share_tests / sizeof tk_share_tests[0];
