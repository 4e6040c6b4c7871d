/* tests/agents/test_distill.c: the summarizer's distillation
 * (agents/distill.h) without a GPU: the win is given (kernel before and
 * after, a speedup), the LLM is the mock OpenAI-compatible server, the
 * knowledge DB a fresh file.
 *   - a good rule file is stored as a candidate `learned-` rule with the
 *     win as its one evidence row; the prompt carries both kernels, the
 *     speedup and the facts tables;
 *   - refused, nothing stored: bad front matter, an SQL error in `where`,
 *     a bad example that does not fire, a rule that still fires after the
 *     rewrite, a reply with no rule file in a code block;
 *   - an id taken by a built-in rule or an earlier learned rule is renamed;
 *   - a second verified win on another task promotes it to preview;
 *   - learned rules are loaded (not retired ones) and fire on the kernel
 *     before, not after; the rule file is found in a reply however the
 *     model fenced it;
 *   - the loop's summarizer distills only an accepted LLM step, records
 *     the rule or the refusal in trajectory.json and report.md; the new
 *     rule is a hint where it fires, on other tasks than its own;
 *   - `kcheck knowledge show ID` prints the status and the evidence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "agents/distill.h"
#include "agents/optimize_int.h"
#include "mock.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/proc.h"

static char tmp[] = "/tmp/ka_distill_test_XXXXXX";

static const char before[] =
	"__global__ void scale(float *out, const float *in, float a, int n) {\n"
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"  if (i < n) out[i] = a * in[i];\n"
	"}\n"
	"void run(float *out, const float *in, float a, int n) { scale<<<(n + 31) / 32, 32>>>(out, in, a, n); }\n";
static const char after[] =
	"__global__ void scale(float *out, const float *in, float a, int n) {\n"
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"  if (i < n) out[i] = a * in[i];\n"
	"}\n"
	"void run(float *out, const float *in, float a, int n) { scale<<<(n + 255) / 256, 256>>>(out, in, a, n); "
	"}\n";

/* A rule file as a model would write it; %s: the id, front matter lines
 * (after title), the where, the bad launch's block size. */
static char *rule_reply(const char *id, const char *extra_fm, const char *where, int bad_block)
{
	static char buf[8192];
	snprintf(buf, sizeof buf,
		 "Here is the rule.\n\n"
		 "````markdown\n"
		 "---\n"
		 "id: %s\n"
		 "title: Launch with narrow blocks\n"
		 "%s"
		 "category: launch\n"
		 "status: stable\n"
		 "scope: launch\n"
		 "where: %s\n"
		 "message: \"{kernel} is launched with {block_threads} threads per block\"\n"
		 "fix: round-block-size\n"
		 "fix_safety: safe\n"
		 "impact: \"2.0x on scale (sm_90)\"\n"
		 "---\n"
		 "Blocks of 32 threads leave the SM's thread slots empty; launch 256.\n\n"
		 "```cuda bad\n"
		 "__global__ void k(float *out, const float *in, int n) {\n"
		 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		 "  if (i < n) out[i] = 2.0f * in[i];\n"
		 "}\n"
		 "void go(float *out, const float *in, int n) {\n"
		 "  // ruleid: %s\n"
		 "  k<<<(n + %d) / %d, %d>>>(out, in, n);\n"
		 "}\n"
		 "```\n\n"
		 "```cuda good\n"
		 "__global__ void k(float *out, const float *in, int n) {\n"
		 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		 "  if (i < n) out[i] = 2.0f * in[i];\n"
		 "}\n"
		 "void go(float *out, const float *in, int n) { k<<<(n + 255) / 256, 256>>>(out, in, n); }\n"
		 "```\n"
		 "````\n\n"
		 "It flags launches with fewer than 64 threads per block.\n",
		 id, extra_fm, where, id, bad_block - 1, bad_block, bad_block);
	return buf;
}

static char *good_reply(const char *id)
{
	return rule_reply(id, "severity: warning\n", "block_threads IS NOT NULL AND block_threads < 64", 32);
}

typedef struct env {
	ka_mock m;
	ka_llm *llm;
	ka_kdb *db;
	char db_path[256];
} env;

static ka_distill_win win(const char *task)
{
	return (ka_distill_win){.task = task,
				.arch = "sm_90",
				.gpu = "NVIDIA H200",
				.before = before,
				.after = after,
				.strategy = "llm:mock",
				.hint = "launch-tune",
				.kernel_hash = "00ff",
				.speedup = 2.0,
				.lo = 1.9,
				.hi = 2.1};
}

/* The mock answers every request with reply; a DB at tmp/NAME.db. */
static void env_start(env *e, const char *name, const char *reply)
{
	json_t *script = json_pack("{s:[{s:s}]}", "responses", "content", reply);
	char *text = json_dumps(script, 0);
	assert_int_equal(ka_mock_start(&e->m, text), 0);
	free(text);
	json_decref(script);
	ka_llm_opts o = KA_LLM_OPTS_INIT;
	o.base_url = e->m.url;
	o.model = "mock";
	o.api_key = "test";
	o.max_retries = -1;
	assert_int_equal(ka_llm_new(&e->llm, &o), KA_OK);
	snprintf(e->db_path, sizeof e->db_path, "%s/%s.db", tmp, name);
	if (ka_kdb_open(&e->db, e->db_path, KA_KDB_CREATE))
		fail_msg("%s", ka_error_last());
}

static void env_stop(env *e)
{
	ka_llm_free(e->llm);
	ka_kdb_close(e->db);
	ka_mock_stop(&e->m);
}

static int count_rule(void *ud, const char *id, const char *status, const char *text)
{
	(void)id, (void)status, (void)text;
	++*(int *)ud;
	return 0;
}

static int count_ev(void *ud, const ka_kdb_evidence *e)
{
	(void)e;
	++*(int *)ud;
	return 0;
}

static int n_learned(ka_kdb *db)
{
	int n = 0;
	assert_int_equal(ka_kdb_learned_each(db, count_rule, &n), KA_OK);
	return n;
}

static int n_evidence(ka_kdb *db, const char *rule)
{
	int n = 0;
	assert_int_equal(ka_kdb_evidence_each(db, rule, count_ev, &n), KA_OK);
	return n;
}

/* Distill reply; KA_OK with the id, or the refusal (checked to be one line,
 * nothing stored). */
static int distill(const char *name, const char *reply, char *id, size_t cap)
{
	env e;
	ka_distill_win w = win("scale");
	env_start(&e, name, reply);
	int rc = ka_distill(e.llm, e.db, &w, id, cap);
	if (rc != KA_OK) {
		assert_null(strchr(ka_error_last(), '\n'));
		assert_string_equal(id, "");
		assert_int_equal(n_learned(e.db), 0);
		assert_int_equal(n_evidence(e.db, "learned-launch-narrow-blocks"), 0);
	}
	env_stop(&e);
	return rc;
}

static void test_good_rule_stored(void **st)
{
	(void)st;
	env e;
	char id[96], origin[16], status[16], *text = NULL;
	ka_distill_win w = win("scale");
	env_start(&e, "good", good_reply("launch-narrow-blocks"));
	if (ka_distill(e.llm, e.db, &w, id, sizeof id))
		fail_msg("refused: %s", ka_error_last());
	assert_string_equal(id, "learned-launch-narrow-blocks");
	assert_int_equal(ka_kdb_rule_get(e.db, id, &text, origin, status), KA_OK);
	assert_string_equal(origin, "learned");
	assert_string_equal(status, "candidate");
	/* the fields the model may not decide are forced, the marks renamed */
	assert_non_null(strstr(text, "\nid: learned-launch-narrow-blocks\n"));
	assert_non_null(strstr(text, "\nstatus: candidate\nfix: none\nfix_safety: suggest\n---\n"));
	assert_null(strstr(text, "status: stable"));
	assert_null(strstr(text, "round-block-size"));
	assert_non_null(strstr(text, "// ruleid: learned-launch-narrow-blocks\n"));
	assert_null(strstr(text, "It flags launches")); /* the text after the block is not the file */
	free(text);
	/* the win is its one evidence row */
	ka_kdb_standing s;
	assert_int_equal(n_evidence(e.db, id), 1);
	assert_int_equal(ka_kdb_standing_get(e.db, id, "llm:mock", "sm_90", &s), KA_OK);
	assert_int_equal(s.wins, 1);
	assert_int_equal(s.tasks, 1);
	assert_true(s.median == 2.0);
	/* the prompt: both kernels, the speedup, the format and the facts */
	json_t *req = ka_mock_requests(&e.m);
	assert_int_equal(json_array_size(req), 1);
	json_t *msgs = json_object_get(json_object_get(json_array_get(req, 0), "body"), "messages");
	const char *sys = json_string_value(json_object_get(json_array_get(msgs, 0), "content"));
	const char *user = json_string_value(json_object_get(json_array_get(msgs, 1), "content"));
	assert_non_null(strstr(sys, "ONE ````markdown block"));
	assert_non_null(strstr(user, "scale<<<(n + 31) / 32, 32>>>"));
	assert_non_null(strstr(user, "scale<<<(n + 255) / 256, 256>>>"));
	assert_non_null(strstr(user, "2.00x faster than the kernel before (95% CI [1.90, 2.10])"));
	assert_non_null(strstr(user, "task scale, target sm_90"));
	assert_non_null(strstr(user, "strategy `launch-tune`"));
	assert_non_null(
		strstr(user, "- `access` (scope): id, kernel_id, kernel, func, file, line, space, rw,"));
	assert_non_null(strstr(user, "- `launch` (scope):"));
	assert_non_null(strstr(user, "block_threads"));
	assert_non_null(strstr(user, "- `arch`: name, vendor, warp_size"));
	assert_null(strstr(user, "begin_off"));
	json_decref(req);
	/* a second distilled rule with the same id is renamed */
	assert_int_equal(ka_distill(e.llm, e.db, &w, id, sizeof id), KA_OK);
	assert_string_equal(id, "learned-launch-narrow-blocks-2");
	assert_int_equal(n_evidence(e.db, id), 1);
	env_stop(&e);
}

static void test_refusals(void **st)
{
	(void)st;
	char id[96];
	/* bad front matter: the loader's own line */
	assert_int_equal(distill("badfm",
				 rule_reply("launch-narrow-blocks", "severity: fatal\n",
					    "block_threads IS NOT NULL AND block_threads < 64", 32),
				 id, sizeof id),
			 KA_EINPUT);
	assert_string_equal(ka_error_last(),
			    "rule file:4: bad severity 'fatal' (expected error, warning or note)");
	/* an SQL error in where */
	assert_int_equal(distill("badsql",
				 rule_reply("launch-narrow-blocks", "severity: warning\n",
					    "threads_per_block < 64", 32),
				 id, sizeof id),
			 KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "rule file:8: where: no such column: threads_per_block"));
	/* the bad example does not fire (its launch has 256 threads) */
	assert_int_equal(distill("nofire",
				 rule_reply("launch-narrow-blocks", "severity: warning\n",
					    "block_threads IS NOT NULL AND block_threads < 64", 256),
				 id, sizeof id),
			 KA_EINPUT);
	assert_non_null(strstr(ka_error_last(), "learned-launch-narrow-blocks.md:"));
	assert_non_null(
		strstr(ka_error_last(), "cuda bad example: learned-launch-narrow-blocks did not fire here"));
	/* its examples pass, but it fires on the kernel after the rewrite too */
	assert_int_equal(
		distill("after",
			rule_reply("launch-narrow-blocks", "severity: warning\n",
				   "(block_threads IS NOT NULL AND block_threads < 64) OR kernel = 'scale'",
				   32),
			id, sizeof id),
		KA_EINPUT);
	assert_string_equal(ka_error_last(),
			    "learned-launch-narrow-blocks still fires on the kernel after the rewrite");
	/* no code block at all, or only kernels */
	assert_int_equal(distill("prose", "A good rule would flag narrow blocks.", id, sizeof id), KA_EPARSE);
	assert_string_equal(ka_error_last(),
			    "the reply has no rule file (a ````markdown block that starts with a --- line)");
	assert_int_equal(distill("cuda", "```cuda\n__global__ void k() {}\n```\n", id, sizeof id), KA_EPARSE);
}

static void test_collision_and_promotion(void **st)
{
	(void)st;
	env e;
	char id[96], status[32];
	ka_distill_win w = win("scale");
	/* the model names a built-in rule: its learned copy gets the prefix */
	env_start(&e, "promote", good_reply("launch-tiny-blocks"));
	if (ka_distill(e.llm, e.db, &w, id, sizeof id))
		fail_msg("refused: %s", ka_error_last());
	assert_string_equal(id, "learned-launch-tiny-blocks");
	assert_int_equal(ka_kdb_rule_status(e.db, "launch-tiny-blocks", status, sizeof status), KA_ENOTFOUND);
	/* a second win on the same task is no reproduction */
	ka_kdb_evidence ev = {
		.rule = id, .task = "scale", .arch = "sm_90", .speedup = 1.5, .verdict = "faster"};
	assert_int_equal(ka_kdb_add_evidence(e.db, &ev, NULL), KA_OK);
	assert_int_equal(ka_kdb_rule_status(e.db, id, status, sizeof status), KA_OK);
	assert_string_equal(status, "candidate");
	/* a verified win on another task where it fired: preview */
	ev.task = "saxpy";
	assert_int_equal(ka_kdb_add_evidence(e.db, &ev, NULL), KA_OK);
	assert_int_equal(ka_kdb_rule_status(e.db, id, status, sizeof status), KA_OK);
	assert_string_equal(status, "preview");
	/* a learned rule the DB already has, under the model's own prefix */
	assert_int_equal(ka_distill_store(e.db, good_reply("learned-launch-tiny-blocks"), &w, id, sizeof id),
			 KA_OK);
	assert_string_equal(id, "learned-launch-tiny-blocks-2");
	/* ka_kdb_add_learned never replaces a rule */
	char *text = NULL, origin[16];
	assert_int_equal(ka_kdb_rule_get(e.db, id, &text, origin, status), KA_OK);
	ev.rule = NULL;
	assert_int_equal(ka_kdb_add_learned(e.db, text, &ev), KA_EINPUT);
	assert_string_equal(ka_error_last(),
			    "rule id 'learned-launch-tiny-blocks-2' is taken (a learned rule)");
	free(text);
	env_stop(&e);
}

static void test_learned_fire(void **st)
{
	(void)st;
	env e;
	char id[96], ids[4][96];
	int n = 0;
	ka_distill_win w = win("scale");
	ka_ruleset *rs = NULL;
	env_start(&e, "fire", good_reply("launch-narrow-blocks"));
	assert_int_equal(ka_learned_load(e.db, &rs), KA_OK);
	assert_int_equal(ka_ruleset_count(rs), 0);
	ka_ruleset_free(rs);
	assert_int_equal(ka_distill(e.llm, e.db, &w, id, sizeof id), KA_OK);
	assert_int_equal(ka_learned_load(e.db, &rs), KA_OK);
	assert_int_equal(ka_ruleset_count(rs), 1);
	assert_int_equal(ka_learned_fired(rs, before, "sm_90", NULL, 0, ids, 4, &n), KA_OK);
	assert_int_equal(n, 1);
	assert_string_equal(ids[0], "learned-launch-narrow-blocks");
	assert_int_equal(ka_learned_fired(rs, after, "sm_90", NULL, 0, ids, 4, &n), KA_OK);
	assert_int_equal(n, 0);
	ka_ruleset_free(rs);
	/* a retired rule takes part in nothing */
	assert_int_equal(ka_kdb_set_rule_status(e.db, id, "retired"), KA_OK);
	assert_int_equal(ka_learned_load(e.db, &rs), KA_OK);
	assert_int_equal(ka_ruleset_count(rs), 0);
	ka_ruleset_free(rs);
	env_stop(&e);
}

static void test_extract(void **st)
{
	(void)st;
	char *t = NULL;
	/* three backticks outside, the examples' fences nest by their info */
	assert_int_equal(ka_distill_extract(
				 "Sure:\n```markdown\n---\nid: a-b\n---\nx\n```cuda bad\nk();\n```\ny\n```\n"
				 "done\n",
				 &t),
			 KA_OK);
	assert_string_equal(t, "---\nid: a-b\n---\nx\n```cuda bad\nk();\n```\ny\n");
	free(t);
	/* a kernel block first, then the rule in four backticks; ~~~ too */
	assert_int_equal(
		ka_distill_extract("```cuda\nk();\n```\n````md\n---\nid: a-b\n---\n```cuda good\n```\n````\n",
				   &t),
		KA_OK);
	assert_string_equal(t, "---\nid: a-b\n---\n```cuda good\n```\n");
	free(t);
	assert_int_equal(ka_distill_extract("~~~\n\n---\nid: a-b\n---\n~~~\n", &t), KA_OK);
	assert_string_equal(t, "---\nid: a-b\n---\n");
	free(t);
	/* cut off by max_tokens: runs to the end */
	assert_int_equal(ka_distill_extract("````markdown\n---\nid: a-b\n---\nwhy", &t), KA_OK);
	assert_string_equal(t, "---\nid: a-b\n---\nwhy");
	free(t);
	assert_int_equal(ka_distill_extract("no block", &t), KA_EPARSE);
	assert_null(t);
}

/* The loop's side (agents/optimize_summarize.c), with the bench's verdict
 * given: an accepted LLM step is distilled, the new rule joins the learned
 * set, the trajectory and report.md say so; a refusal is recorded; a
 * candidate not made by an LLM, or not accepted, is never distilled. */
static void test_loop_summarizer(void **st)
{
	(void)st;
	env e;
	static ka_opt_loop L;
	static ka_opt_summary s;
	static const char *const grid[] = {"", NULL};
	static const ka_recipe rec = {.name = "launch-tune", .grid = grid};
	ka_opt_cand c = {.recipe = &rec, .params = ""};
	ka_opt_opts o = {0};
	ka_bench_result res;
	char *progress = NULL, path[300], *t;
	size_t plen = 0, n;
	env_start(&e, "loop", good_reply("launch-narrow-blocks"));
	memset(&L, 0, sizeof L);
	memset(&res, 0, sizeof res);
	snprintf(res.device, sizeof res.device, "NVIDIA H200");
	o.progress = open_memstream(&progress, &plen);
	o.out_dir = tmp;
	L.o = &o;
	L.db = e.db;
	L.llm = e.llm;
	L.s = &s;
	snprintf(L.spec.name, sizeof L.spec.name, "scale");
	snprintf(L.arch, sizeof L.arch, "sm_90");
	L.extra[0] = "-I/nonexistent";
	ka_coder_reply rep = {.source = (char *)after, .source_len = strlen(after), .llm_made = 1};
	ka_opt_step *s1 = &s.steps[0], *s2 = &s.steps[1];
	*s1 = (ka_opt_step){.step = 1, .accepted = 1, .speedup = 2.0, .lo = 1.9, .hi = 2.1, .total = 2.0};
	snprintf(s1->strategy, sizeof s1->strategy, "llm:mock");
	snprintf(s1->outcome, sizeof s1->outcome, "faster");
	ka_opt_distill(&L, &c, s1, &res, before, &rep);
	assert_string_equal(s1->distilled, "learned-launch-narrow-blocks");
	assert_non_null(L.learned);
	assert_non_null(ka_ruleset_find(L.learned, "learned-launch-narrow-blocks"));
	/* it is a hint where it fires, on other tasks than its own */
	static ka_coder_rule cr[8];
	ka_opt_step s3 = {.step = 3};
	assert_int_equal(ka_opt_learned_hints(&L, before, &s3, cr, 8), 0);
	snprintf(L.spec.name, sizeof L.spec.name, "saxpy");
	assert_int_equal(ka_opt_learned_hints(&L, after, &s3, cr, 8), 0);
	assert_int_equal(ka_opt_learned_hints(&L, before, &s3, cr, 8), 1);
	assert_string_equal(s3.learned, "learned-launch-narrow-blocks");
	assert_string_equal(cr[0].id, "learned-launch-narrow-blocks");
	assert_non_null(strstr(cr[0].text, "// ruleid: learned-launch-narrow-blocks"));
	snprintf(L.spec.name, sizeof L.spec.name, "scale");
	/* not accepted, or not the LLM's: no request, nothing recorded */
	s2->step = 2;
	ka_opt_distill(&L, &c, s2, &res, before, &rep);
	rep.llm_made = 0;
	s2->accepted = 1;
	ka_opt_distill(&L, &c, s2, &res, before, &rep);
	assert_string_equal(s2->distilled, "");
	assert_string_equal(s2->distill_refused, "");
	json_t *req = ka_mock_requests(&e.m);
	assert_int_equal(json_array_size(req), 1);
	json_decref(req);
	env_stop(&e);
	/* a refusal is recorded with its reason */
	env_start(&e, "loop2", "I cannot write rules.");
	L.db = e.db;
	L.llm = e.llm;
	rep.llm_made = 1;
	ka_opt_distill(&L, &c, s2, &res, before, &rep);
	assert_string_equal(s2->distill_refused,
			    "the reply has no rule file (a ````markdown block that starts with a --- line)");
	snprintf(s2->learned, sizeof s2->learned, "learned-launch-narrow-blocks");
	env_stop(&e);
	fclose(o.progress);
	assert_non_null(strstr(progress,
			       "step 1: distilled into learned-launch-narrow-blocks (candidate until "
			       "reproduced on another task)\n"));
	assert_non_null(strstr(progress, "step 2: not distilled: the reply has no rule file"));
	free(progress);
	/* trajectory.json and report.md */
	s.nsteps = 2;
	snprintf(path, sizeof path, "%s/trajectory.json", tmp);
	assert_int_equal(ka_opt_write_trajectory(path, "scale", &s, 0), KA_OK);
	json_error_t je;
	json_t *tj = json_load_file(path, 0, &je), *steps = json_object_get(tj, "steps");
	json_t *d1 = json_object_get(json_array_get(steps, 0), "distilled");
	json_t *d2 = json_object_get(json_array_get(steps, 1), "distilled");
	assert_string_equal(json_string_value(json_object_get(d1, "rule")), "learned-launch-narrow-blocks");
	assert_non_null(strstr(json_string_value(json_object_get(d2, "refused")), "no rule file"));
	assert_string_equal(json_string_value(json_array_get(
				    json_object_get(json_array_get(steps, 1), "learned_rules"), 0)),
			    "learned-launch-narrow-blocks");
	json_decref(tj);
	assert_int_equal(ka_opt_write_report(tmp, "scale", &s, 0), KA_OK);
	snprintf(path, sizeof path, "%s/report.md", tmp);
	assert_int_equal(ka_fs_read(path, 0, &t, &n), KA_OK);
	assert_non_null(strstr(t, "\n## Summarizer\n\n- step 1: the win was distilled into "
				  "`learned-launch-narrow-blocks`, a candidate rule"));
	assert_non_null(strstr(
		t, "- step 2: learned rules in the prompt (they fired on the kernel): "
		   "learned-launch-narrow-blocks\n- step 2: the win was not distilled: the reply has no "
		   "rule file (a ````markdown block"));
	free(t);
	ka_ruleset_free(L.learned);
}

/* `kcheck knowledge show ID`: the status and the evidence of a rule. */
static void test_cli_show(void **st)
{
	(void)st;
	env e;
	char id[96], dbarg[300];
	ka_distill_win w = win("scale");
	env_start(&e, "show", good_reply("launch-narrow-blocks"));
	assert_int_equal(ka_distill(e.llm, e.db, &w, id, sizeof id), KA_OK);
	env_stop(&e);
	snprintf(dbarg, sizeof dbarg, "%s/show.db", tmp);
	char *argv[] = {KA_KCHECK, "knowledge", "show", id, "--db", dbarg, NULL};
	ka_buf out;
	ka_buf_init(&out, 1 << 20);
	ka_proc_result r;
	assert_int_equal(ka_proc_run(argv, 60, &out, &r), KA_OK);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(out.data, "learned-launch-narrow-blocks: candidate (learned)\n"));
	assert_non_null(strstr(out.data, "fixed 1 time on all GPUs, median 2.0x [2.0, 2.0]"));
	assert_non_null(strstr(out.data, "faster 2.00x [1.90, 2.10] scale sm_90 NVIDIA H200 llm:mock"));
	assert_non_null(strstr(out.data, "\nstatus: candidate\n")); /* the rule file */
	ka_buf_free(&out);
	char *missing[] = {KA_KCHECK, "knowledge", "show", "learned-nope", "--db", dbarg, NULL};
	ka_buf_init(&out, 1 << 20);
	assert_int_equal(ka_proc_run(missing, 60, &out, &r), KA_OK);
	assert_int_equal(r.status, 2);
	assert_string_equal(out.data, "kcheck: error: no rule 'learned-nope' in the knowledge DB\n");
	ka_buf_free(&out);
}

int main(void)
{
	if (!mkdtemp(tmp))
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_extract),      cmocka_unit_test(test_good_rule_stored),
		cmocka_unit_test(test_refusals),     cmocka_unit_test(test_collision_and_promotion),
		cmocka_unit_test(test_learned_fire), cmocka_unit_test(test_loop_summarizer),
		cmocka_unit_test(test_cli_show),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	char *argv[] = {"rm", "-rf", tmp, NULL};
	ka_proc_run(argv, 60, NULL, &(ka_proc_result){0});
	return rc;
}
