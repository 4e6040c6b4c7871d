/* tests/knowledge/test_kdb_standing.c: a rule's standing from its
 * evidence, the corrected estimate, the lifecycle of learned rules, BM25
 * retrieval, skills and trajectories. */
#include "test_kdb.h"
#include <math.h>
#include <stdlib.h>

static void standing_counts_and_median(void **state)
{
	char dir[256], path[512], text[256];
	ka_kdb_standing s;
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *k = tk_open(dir, path, sizeof path);
	/* no evidence: Beta(1,1) mean, nothing to say */
	assert_int_equal(ka_kdb_standing_get(k, "gmem-no-tile-reuse", NULL, "sm_90", &s), KA_OK);
	assert_int_equal(s.verified, 0);
	assert_true(s.posterior == 0.5);
	ka_kdb_standing_text(&s, "sm_90", text, sizeof text);
	assert_string_equal(text, "");
	assert_true(ka_kdb_corrected_estimate(8.0, &s) == 8.0);
	tk_evidence(k, "gmem-no-tile-reuse", "sgemm", "sm_90", "faster", 2.0);
	tk_evidence(k, "gmem-no-tile-reuse", "sgemm", "sm_90", "faster", 4.0);
	tk_evidence(k, "gmem-no-tile-reuse", "gemv", "sm_90", "faster", 3.0);
	tk_evidence(k, "gmem-no-tile-reuse", "gemv", "sm_90", "same", 1.0);
	tk_evidence(k, "gmem-no-tile-reuse", "gemv", "sm_90", "rejected", 0);
	tk_evidence(k, "gmem-no-tile-reuse", "gemv", "sm_90", "error", 0);
	tk_evidence(k, "gmem-no-tile-reuse", "sgemm", "sm_80", "faster", 10.0);
	assert_int_equal(ka_kdb_standing_get(k, "gmem-no-tile-reuse", NULL, "sm_90", &s), KA_OK);
	assert_int_equal(s.wins, 3);
	assert_int_equal(s.failures, 2);
	assert_int_equal(s.errors, 1);
	assert_int_equal(s.verified, 5);
	assert_int_equal(s.tasks, 2);
	assert_true(fabs(s.posterior - 4.0 / 7.0) < 1e-12); /* Beta(1+3, 1+2) */
	assert_true(s.median == 3.0 && s.lo == 2.0 && s.hi == 4.0);
	assert_true(fabs(s.gain - pow(24.0, 0.2)) < 1e-12); /* (2*4*3*1*1)^(1/5) */
	ka_kdb_standing_text(&s, "sm_90", text, sizeof text);
	assert_string_equal(text, "fixed 3 times on sm_90, median 3.0x [2.0, 4.0], 2 failures");
	/* the static estimate 8x pulled towards the measured gain:
	 * exp((2 ln 8 + 5 ln 24^(1/5)) / 7) = (64 * 24)^(1/7) */
	assert_true(fabs(ka_kdb_corrected_estimate(8.0, &s) - pow(1536.0, 1.0 / 7.0)) < 1e-9);
	assert_true(ka_kdb_corrected_estimate(0, &s) == 0); /* no estimate stays none */
	/* every arch: the sm_80 win joins; an even count takes the middle pair */
	assert_int_equal(ka_kdb_standing_get(k, "gmem-no-tile-reuse", NULL, NULL, &s), KA_OK);
	assert_int_equal(s.wins, 4);
	assert_true(s.median == 3.5 && s.hi == 10.0);
	ka_kdb_standing_text(&s, NULL, text, sizeof text);
	assert_string_equal(text, "fixed 4 times on all GPUs, median 3.5x [2.0, 10.0], 2 failures");
	/* by fix: none of these rows used another recipe */
	assert_int_equal(ka_kdb_standing_get(k, "gmem-no-tile-reuse", "other", NULL, &s), KA_OK);
	assert_int_equal(s.verified + s.errors, 0);
	/* only failures */
	tk_evidence(k, "sync-redundant-barrier", "scan", "sm_90", "slower", 0.8);
	assert_int_equal(ka_kdb_standing_get(k, "sync-redundant-barrier", NULL, "sm_90", &s), KA_OK);
	ka_kdb_standing_text(&s, "sm_90", text, sizeof text);
	assert_string_equal(text, "tried 1 time on sm_90, never faster");
	assert_true(fabs(ka_kdb_corrected_estimate(4.0, &s) - pow(16.0, 1.0 / 3.0)) < 1e-9);
	double est = 0;
	assert_int_equal(ka_kdb_correct_estimate(k, "sync-redundant-barrier", "sm_90", 4.0, &est), KA_OK);
	assert_true(fabs(est - pow(16.0, 1.0 / 3.0)) < 1e-9);
	ka_kdb_close(k);
	tk_rmdir(dir);
}

/* A learned candidate retires once failures pile up (>= 3 and posterior
 * < 0.2); a candidate whose win is reproduced on a second task becomes
 * preview; rules from files keep their status whatever happens. */
static void learned_rules_retire_and_graduate(void **state)
{
	char dir[256], path[512], text[2048], status[32];
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *k = tk_open(dir, path, sizeof path);
	tk_rule_text(text, sizeof text, "gmem-learned-bad", "a guess that never pays");
	TK_OK(ka_kdb_add_rule(k, NULL, text, "candidate"));
	for (int i = 0; i < 3; i++)
		tk_evidence(k, "gmem-learned-bad", "t", "sm_90", "slower", 0.9);
	/* 3 failures, posterior 1/5 = 0.2: not below 0.2 yet */
	assert_int_equal(ka_kdb_rule_status(k, "gmem-learned-bad", status, sizeof status), KA_OK);
	assert_string_equal(status, "candidate");
	tk_evidence(k, "gmem-learned-bad", "t", "sm_90", "rejected", 0);
	assert_int_equal(ka_kdb_rule_status(k, "gmem-learned-bad", status, sizeof status), KA_OK);
	assert_string_equal(status, "retired");

	tk_rule_text(text, sizeof text, "gmem-learned-good", "a trick that pays");
	TK_OK(ka_kdb_add_rule(k, "gmem-learned-good", text, "candidate"));
	tk_evidence(k, "gmem-learned-good", "softmax", "sm_90", "faster", 2.5);
	tk_evidence(k, "gmem-learned-good", "softmax", "sm_90", "faster", 2.6);
	assert_int_equal(ka_kdb_rule_status(k, "gmem-learned-good", status, sizeof status), KA_OK);
	assert_string_equal(status, "candidate"); /* one task is not a reproduction */
	tk_evidence(k, "gmem-learned-good", "layernorm", "sm_90", "faster", 1.8);
	assert_int_equal(ka_kdb_rule_status(k, "gmem-learned-good", status, sizeof status), KA_OK);
	assert_string_equal(status, "preview");

	/* a built-in id is taken before the DB ever mirrored the built-ins */
	tk_rule_text(text, sizeof text, "gmem-uncoalesced-access", "x");
	assert_int_equal(ka_kdb_add_rule(k, NULL, text, "candidate"), KA_EINPUT);
	assert_string_equal(ka_error_last(),
			    "rule 'gmem-uncoalesced-access' is built in; a learned rule needs its own id");
	/* a rule from a file: its status is its file's */
	ka_ruleset *rs = NULL;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_load_builtin(rs), KA_OK);
	assert_int_equal(ka_kdb_sync_rules(k, rs), KA_OK);
	for (int i = 0; i < 5; i++)
		tk_evidence(k, "gmem-uncoalesced-access", "t", "sm_90", "slower", 0.9);
	assert_int_equal(ka_kdb_rule_status(k, "gmem-uncoalesced-access", status, sizeof status), KA_OK);
	assert_string_equal(status, "stable");
	/* a learned rule cannot take a file rule's id, nor be malformed */
	tk_rule_text(text, sizeof text, "gmem-uncoalesced-access", "x");
	assert_int_equal(ka_kdb_add_rule(k, NULL, text, "candidate"), KA_EINPUT);
	assert_string_equal(ka_error_last(), "rule 'gmem-uncoalesced-access' comes from a rule file; "
					     "a learned rule needs its own id");
	assert_int_equal(ka_kdb_add_rule(k, NULL, "---\nid: x-y\n---\n", "candidate"), KA_EINPUT);
	assert_int_equal(ka_kdb_add_rule(k, NULL, text, "active"), KA_EINPUT);
	/* syncing twice rewrites nothing */
	long long before = tk_int(path, "SELECT max(updated) FROM rules WHERE origin = 'builtin'");
	assert_int_equal(ka_kdb_sync_rules(k, rs), KA_OK);
	assert_int_equal(tk_int(path, "SELECT max(updated) FROM rules WHERE origin = 'builtin'"), before);
	assert_int_equal(tk_int(path, "SELECT count(*) FROM rules WHERE origin = 'builtin'"),
			 (long long)ka_ruleset_count(rs));
	ka_ruleset_free(rs);
	ka_kdb_close(k);
	tk_rmdir(dir);
}

static int collect_id(void *ud, const char *id, const char *status, const char *text)
{
	char *buf = ud;
	(void)text;
	snprintf(buf + strlen(buf), 256 - strlen(buf), "%s=%s ", id, status);
	return 0;
}

static int collect_ev(void *ud, const ka_kdb_evidence *e)
{
	char *buf = ud;
	snprintf(buf + strlen(buf), 256 - strlen(buf), "%s/%s/%s/%g ", e->rule, e->task, e->verdict,
		 e->speedup);
	return 0;
}

/* A distilled rule comes with the win it came from, in one transaction,
 * and never replaces a rule. */
static void learned_rule_with_its_first_win(void **state)
{
	char dir[256], path[512], text[2048], origin[16], status[16], seen[256] = "", *got = NULL;
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *k = tk_open(dir, path, sizeof path);
	ka_kdb_evidence e = {.task = "softmax", .arch = "sm_90", .speedup = 2.0, .verdict = "faster"};
	tk_rule_text(text, sizeof text, "learned-gmem-trick", "a trick");
	TK_OK(ka_kdb_add_learned(k, text, &e));
	TK_OK(ka_kdb_rule_get(k, "learned-gmem-trick", &got, origin, status));
	assert_string_equal(got, text);
	assert_string_equal(origin, "learned");
	assert_string_equal(status, "candidate");
	free(got);
	TK_OK(ka_kdb_evidence_each(k, "learned-gmem-trick", collect_ev, seen));
	assert_string_equal(seen, "learned-gmem-trick/softmax/faster/2 ");
	/* the id is taken: nothing changes */
	assert_int_equal(ka_kdb_add_learned(k, text, &e), KA_EINPUT);
	assert_string_equal(ka_error_last(), "rule id 'learned-gmem-trick' is taken (a learned rule)");
	assert_int_equal(tk_int(path, "SELECT count(*) FROM evidence"), 1);
	/* a bad evidence row stores no rule either */
	tk_rule_text(text, sizeof text, "learned-gmem-other", "another");
	e.arch = NULL;
	assert_int_equal(ka_kdb_add_learned(k, text, &e), KA_EINPUT);
	assert_int_equal(ka_kdb_rule_get(k, "learned-gmem-other", NULL, origin, status), KA_ENOTFOUND);
	/* the walk over learned rules leaves out retired ones */
	e.arch = "sm_90";
	TK_OK(ka_kdb_add_learned(k, text, &e));
	TK_OK(ka_kdb_learned_each(k, collect_id, seen + strlen(seen)));
	assert_string_equal(
		seen,
		"learned-gmem-trick/softmax/faster/2 learned-gmem-other=candidate learned-gmem-trick=candidate ");
	TK_OK(ka_kdb_set_rule_status(k, "learned-gmem-other", "retired"));
	seen[0] = 0;
	TK_OK(ka_kdb_learned_each(k, collect_id, seen));
	assert_string_equal(seen, "learned-gmem-trick=candidate ");
	ka_kdb_close(k);
	tk_rmdir(dir);
}

static void retrieval_ranks_the_expected_rule_first(void **state)
{
	char dir[256], path[512], text[2048];
	ka_kdb_hit hits[8];
	int n = 0;
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *k = tk_open(dir, path, sizeof path);
	ka_ruleset *rs = NULL;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_load_builtin(rs), KA_OK);
	assert_int_equal(ka_kdb_sync_rules(k, rs), KA_OK);
	ka_ruleset_free(rs);
	/* the facts of a 32-way conflict: the severe rule, not the 4-to-7-way one */
	const char *bank[] = {"shared", "bank conflict", "32-way, worse than 8", "padding"};
	assert_int_equal(ka_kdb_retrieve(k, "rule", bank, 4, hits, 8, &n), KA_OK);
	assert_true(n >= 3);
	assert_string_equal(hits[0].id, "smem-bank-conflict");
	for (int i = 1; i < n; i++)
		assert_true(hits[i - 1].bm25 <= hits[i].bm25);
	const char *atomics[] = {"histogram", "atomic", "contention", "bins"};
	assert_int_equal(ka_kdb_retrieve(k, "rule", atomics, 4, hits, 3, &n), KA_OK);
	assert_int_equal(n, 3);
	assert_string_equal(hits[0].id, "atomic-hot-bins");
	/* FTS5 syntax in a feature is only text: no error, no injection */
	const char *nasty[] = {"\"bank\" OR NEAR(", "*", "conflict) AND worse -x:"};
	assert_int_equal(ka_kdb_retrieve(k, "rule", nasty, 3, hits, 8, &n), KA_OK);
	assert_true(n > 0);
	assert_string_equal(hits[0].id, "smem-bank-conflict");
	const char *none[] = {"-- !!"};
	assert_int_equal(ka_kdb_retrieve(k, "rule", none, 1, hits, 8, &n), KA_OK);
	assert_int_equal(n, 0);
	/* a skill is found by its task and summary; a retired rule is not */
	ka_kdb_skill sk = {.task = "softmax",
			   .source = "__global__ void softmax() {}",
			   .speedup = 4.0,
			   .summary = "warp per row with shuffle reductions",
			   .arch = "sm_90"};
	char hash[65];
	assert_int_equal(ka_kdb_add_skill(k, &sk, hash), KA_OK);
	const char *rows[] = {"softmax", "warp", "row"};
	assert_int_equal(ka_kdb_retrieve(k, "skill", rows, 3, hits, 8, &n), KA_OK);
	assert_int_equal(n, 1);
	assert_string_equal(hits[0].id, hash);
	assert_string_equal(hits[0].title, "softmax");
	const char *other[] = {"transpose"};
	assert_int_equal(ka_kdb_retrieve(k, "skill", other, 1, hits, 8, &n), KA_OK);
	assert_int_equal(n, 0);
	assert_int_equal(ka_kdb_retrieve(k, "kernels", other, 1, hits, 8, &n), KA_EINPUT);
	tk_rule_text(text, sizeof text, "gmem-zebra-stripes", "zebra stripes");
	TK_OK(ka_kdb_add_rule(k, NULL, text, "candidate"));
	const char *zebra[] = {"zebra"};
	assert_int_equal(ka_kdb_retrieve(k, "rule", zebra, 1, hits, 8, &n), KA_OK);
	assert_int_equal(n, 1);
	assert_int_equal(ka_kdb_set_rule_status(k, "gmem-zebra-stripes", "retired"), KA_OK);
	assert_int_equal(ka_kdb_retrieve(k, "rule", zebra, 1, hits, 8, &n), KA_OK);
	assert_int_equal(n, 0);
	ka_kdb_close(k);
	tk_rmdir(dir);
}

static void skills_and_trajectories(void **state)
{
	char dir[256], path[512], h1[65], h2[65], *src = NULL, *sum = NULL;
	double sp = 0;
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *k = tk_open(dir, path, sizeof path);
	ka_kdb_skill a = {.task = "gemv", .source = "A", .speedup = 2.0, .summary = "first"};
	ka_kdb_skill b = {.task = "gemv", .source = "B", .speedup = 3.0, .summary = "second"};
	assert_int_equal(ka_kdb_best_skill(k, "gemv", NULL, &src, &sum, &sp), KA_ENOTFOUND);
	assert_int_equal(ka_kdb_add_skill(k, &a, h1), KA_OK);
	assert_int_equal(ka_kdb_add_skill(k, &b, h2), KA_OK);
	assert_string_equal(
		h1, "559aead08264d5795d3909718cdd05abd49572e84fe55590eef31a88a08fdffd"); /* sha256("A") */
	assert_int_equal(ka_kdb_best_skill(k, "gemv", NULL, &src, &sum, &sp), KA_OK);
	assert_string_equal(src, "B");
	assert_string_equal(sum, "second");
	assert_true(sp == 3.0);
	free(src), free(sum);
	a.speedup = 5.0; /* the same kernel again, measured faster: kept once, better */
	assert_int_equal(ka_kdb_add_skill(k, &a, NULL), KA_OK);
	a.speedup = 1.0; /* ... and slower: the better figure stays */
	assert_int_equal(ka_kdb_add_skill(k, &a, NULL), KA_OK);
	assert_int_equal(ka_kdb_best_skill(k, "gemv", NULL, &src, NULL, &sp), KA_OK);
	assert_string_equal(src, "A");
	assert_true(sp == 5.0);
	free(src);
	assert_int_equal(tk_int(path, "SELECT count(*) FROM skills"), 2);

	ka_kdb_step s1 = {.run_id = "run-1",
			  .step = 1,
			  .strategy = "launch-tune",
			  .params = "bs=256",
			  .outcome = "slower",
			  .speedup = 0.9};
	ka_kdb_step s2 = {.run_id = "run-1",
			  .step = 2,
			  .strategy = "launch-tune",
			  .params = "bs=512",
			  .outcome = "faster",
			  .speedup = 1.3};
	assert_int_equal(ka_kdb_add_step(k, &s1), KA_OK);
	assert_int_equal(ka_kdb_add_step(k, &s2), KA_OK);
	assert_int_equal(ka_kdb_add_step(k, &s2), KA_EINPUT);
	assert_string_equal(ka_error_last(), "trajectory run-1: step 2 is recorded already");
	assert_int_equal(ka_kdb_failed_before(k, "run-1", "launch-tune", "bs=256"), 1);
	assert_int_equal(ka_kdb_failed_before(k, "run-1", "launch-tune", "bs=512"), 0);
	assert_int_equal(ka_kdb_failed_before(k, "run-1", "launch-tune", "bs=128"), 0);
	assert_int_equal(ka_kdb_failed_before(k, "run-2", "launch-tune", "bs=256"), 0);
	ka_kdb_counts c;
	int steps = 0;
	assert_int_equal(ka_kdb_counts_get(k, &c, &steps), KA_OK);
	assert_int_equal(steps, 2);
	assert_int_equal(c.skills, 2);
	ka_kdb_close(k);
	tk_rmdir(dir);
}

/* A candidate measured before (not a win) is known by its hash, task and
 * arch; a faster one, another task, another arch, or a step recorded
 * before the arch column existed is not. */
static void measured_before_by_hash(void **state)
{
	char dir[256], path[512], v[16] = "";
	double sp = 0, lo = 0, hi = 0;
	(void)state;
	tk_tmpdir(dir, sizeof dir);
	ka_kdb *k = tk_open(dir, path, sizeof path);
	ka_kdb_step s = {.run_id = "r1",
			 .step = 1,
			 .task = "gemv",
			 .strategy = "warp-per-row",
			 .candidate_hash = "aa11",
			 .outcome = "same",
			 .speedup = 1.01,
			 .ci_low = 0.98,
			 .ci_high = 1.03,
			 .arch = "sm_90"};
	TK_OK(ka_kdb_add_step(k, &s));
	s.step = 2, s.candidate_hash = "bb22", s.outcome = "faster", s.speedup = 4.0;
	TK_OK(ka_kdb_add_step(k, &s));
	s.step = 3, s.candidate_hash = "cc33", s.outcome = "declined", s.speedup = 0;
	TK_OK(ka_kdb_add_step(k, &s)); /* a declined step is a trajectory row too */
	s.step = 4, s.candidate_hash = "dd44", s.outcome = "incorrect", s.arch = NULL;
	TK_OK(ka_kdb_add_step(k, &s));
	assert_int_equal(ka_kdb_measured_before(k, "gemv", "sm_90", "aa11", v, sizeof v, &sp, &lo, &hi), 1);
	assert_string_equal(v, "same");
	assert_true(sp == 1.01 && lo == 0.98 && hi == 1.03);
	assert_int_equal(ka_kdb_measured_before(k, "gemv", "sm_90", "bb22", v, sizeof v, NULL, NULL, NULL),
			 0);
	assert_int_equal(ka_kdb_measured_before(k, "gemv", "sm_90", "cc33", NULL, 0, NULL, NULL, NULL), 0);
	assert_int_equal(ka_kdb_measured_before(k, "gemv", "sm_90", "dd44", NULL, 0, NULL, NULL, NULL), 0);
	assert_int_equal(ka_kdb_measured_before(k, "gemv", "sm_80", "aa11", NULL, 0, NULL, NULL, NULL), 0);
	assert_int_equal(ka_kdb_measured_before(k, "softmax", "sm_90", "aa11", NULL, 0, NULL, NULL, NULL), 0);
	assert_int_equal(ka_kdb_measured_before(k, "gemv", "sm_90", NULL, NULL, 0, NULL, NULL, NULL), 0);
	ka_kdb_close(k);
	tk_rmdir(dir);
}

const struct CMUnitTest tk_standing_tests[] = {
	cmocka_unit_test(measured_before_by_hash),
	cmocka_unit_test(standing_counts_and_median),
	cmocka_unit_test(learned_rules_retire_and_graduate),
	cmocka_unit_test(learned_rule_with_its_first_win),
	cmocka_unit_test(retrieval_ranks_the_expected_rule_first),
	cmocka_unit_test(skills_and_trajectories),
};
const size_t tk_standing_ntests = sizeof tk_standing_tests / sizeof tk_standing_tests[0];
