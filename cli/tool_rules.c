/* cli/tool_rules.c: the rule base from the command line.
 *
 *   kcheck rules list [--format text|json|markdown]   id, severity, category, title
 *   kcheck rules show ID                     the rule file as written (+ evidence)
 *   kcheck rules new ID [-o FILE]            a template rule file to fill in
 *   kcheck rules test [-j N] [ID...]         run the rules' examples
 *   kcheck --explain ID                      what the rule knows, for people
 * All take --rules-dir DIR (repeatable); test also --arch and --shim.
 * show and --explain add the rule's standing on each arch the knowledge
 * DB has evidence for (tool_evidence.c; --db FILE, --no-db). */
#define _XOPEN_SOURCE 700 /* nftw */
#include "analyzer/analyzer.h"
#include "cli/tools.h"
#include "util/cleanup.h"
#include "util/fs.h"
#include "util/wire.h"
#include "util/workpool.h"
#include <ftw.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct ropts {
	const char **dirs;
	int ndirs;
	const char **ids;
	int nids;
	const char *output, *arch;
	int format; /* rules list --format: KA_RULES_TEXT/JSON/MARKDOWN */
	int force_shim;
	int jobs;                           /* rules test -j N */
	int file_memory_mb, file_timeout_s; /* rules test: one rule's limits */
	const char *db;                     /* rules show: the knowledge DB (--db, --no-db) */
	int no_db;
} ropts;

/* The command line (the option table's rules rows) -> o. */
static int parse(ka_arena *a, int argc, char **argv, ropts *o)
{
	ka_tool_cfg c = {.arena = a};
	int rc = ka_tool_getparam(&c, KA_CMD_RULES, argc, argv, 2);
	if (rc == KA_TOOL_UNKNOWN) {
		ka_tool_error("unknown option '%s' for kcheck rules %s", c.bad_option, argv[1]);
		return KA_EXIT_ERROR;
	}
	if (rc)
		return rc < 0 ? -1 : KA_EXIT_ERROR; /* -1: --help was printed */
	o->dirs = c.rules_dirs, o->ndirs = c.nrules_dirs;
	o->ids = c.paths, o->nids = c.npaths;
	o->output = c.output, o->arch = c.arch;
	o->format = c.rules_format;
	o->force_shim = c.force_shim;
	o->jobs = c.rules_jobs;
	o->file_memory_mb = c.file_memory_mb, o->file_timeout_s = c.file_timeout_s;
	o->db = c.db, o->no_db = c.no_db;
	return 0;
}

static int list(const ka_ruleset *rs, const ropts *o)
{
	if (o->format == KA_RULES_MARKDOWN) { /* docs/rule-catalog.md */
		ka_buf b;
		ka_buf_init(&b, 1 << 22);
		int rc = ka_ruleset_catalog_markdown(rs, &b);
		if (rc == KA_OK)
			fputs(b.data ? b.data : "", stdout);
		else
			ka_tool_error("%s", ka_error_last());
		ka_buf_free(&b);
		return rc == KA_OK ? 0 : KA_EXIT_ERROR;
	}
	if (o->format == KA_RULES_JSON) {
		json_t *arr = json_array();
		for (size_t i = 0; i < ka_ruleset_count(rs); i++) {
			const ka_rule *r = ka_ruleset_at(rs, i);
			json_array_append_new(arr,
					      json_pack("{s:s, s:s, s:s, s:s, s:s, s:s?, s:s?}", "id", r->id,
							"severity", ka_severity_name(r->severity), "category",
							r->category, "title", r->title, "scope", r->scope,
							"fix", r->fix, "impact", r->impact));
			json_object_set_new(json_array_get(arr, i), "status",
					    json_string(ka_rule_status_name(r->status)));
		}
		char *t = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		if (t)
			printf("%s\n", t);
		free(t);
		json_decref(arr);
		return 0;
	}
	for (size_t i = 0; i < ka_ruleset_count(rs); i++) {
		const ka_rule *r = ka_ruleset_at(rs, i);
		printf("%-40s %-8s %-12s %s\n", r->id, ka_severity_name(r->severity), r->category, r->title);
	}
	return 0;
}

int ka_tool_explain(const ka_ruleset *rs, const char *id, ka_tool_evidence *kdb, FILE *out)
{
	const ka_rule *r = ka_ruleset_find(rs, id);
	if (!r) {
		ka_tool_error("no rule '%s' (see kcheck rules list)", id);
		return KA_EXIT_ERROR;
	}
	fprintf(out, "%s: %s\n\n", r->id, r->title);
	fprintf(out, "severity: %s    category: %s    scope: %s\n", ka_severity_name(r->severity),
		r->category, r->scope);
	fprintf(out, "fix: %s (%s)\n", r->fix ? r->fix : "none", ka_fix_safety_name(r->fix_safety));
	if (r->impact)
		fprintf(out, "impact: %s\n", r->impact);
	for (int i = 0; i < r->references.n; i++)
		fprintf(out, "%s%s", i ? "; " : "references: ", r->references.v[i]);
	if (r->references.n)
		fputc('\n', out);
	if (ka_tool_evidence_print(kdb, r->id, NULL, out)) /* measured, per arch */
		return KA_EXIT_ERROR;
	fprintf(out, "\n%s", r->body);
	return 0;
}

/* rules show ID: the rule file as written, then (separated by a blank
 * line) its standing per arch when the knowledge DB has evidence. */
static int show(const ka_ruleset *rs, const ropts *o)
{
	const ka_rule *r = o->nids == 1 ? ka_ruleset_find(rs, o->ids[0]) : NULL;
	ka_tool_evidence *kdb = NULL;
	if (o->nids != 1) {
		ka_tool_error("usage: kcheck rules show ID [--db FILE | --no-db]");
		return KA_EXIT_ERROR;
	}
	if (!r) {
		ka_tool_error("no rule '%s' (see kcheck rules list)", o->ids[0]);
		return KA_EXIT_ERROR;
	}
	int rc = ka_tool_evidence_open(&kdb, o->db, o->no_db);
	if (rc == 0) {
		size_t n = strlen(r->text);
		fputs(r->text, stdout);
		rc = ka_tool_evidence_print(kdb, r->id, n && r->text[n - 1] == '\n' ? "\n" : "\n\n", stdout);
	}
	ka_tool_evidence_free(kdb);
	return rc;
}

static const char template_text[] =
	"---\n"
	"id: %s\n"
	"title: TODO one line saying what is slow\n"
	"severity: warning\n"
	"# memory, arithmetic, divergence, synchronization, atomics, launch, occupancy,\n"
	"# host, portability or correctness\n"
	"category: memory\n"
	"# stable (runs by default), preview, candidate or retired (docs/rules.md)\n"
	"status: stable\n"
	"scope: access\n"
	"# A SQL condition over the scope's columns (docs/facts.md).  `0` never fires.\n"
	"where: 0\n"
	"message: \"{rw} of {base}[{index_text}]: TODO name the evidence\"\n"
	"fix: none\n"
	"fix_safety: suggest\n"
	"impact: \"TODO measured speed-up, GPU\"\n"
	"references: []\n"
	"tags: []\n"
	"languages: [cuda, hip]\n"
	"architectures: [all]\n"
	"---\n"
	"## Why it is slow\n\nTODO\n\n## How to recognize it\n\nTODO\n\n## How experts fix it\n\nTODO\n\n"
	"```cuda bad\n__global__ void k(float *out, const float *in) {\n"
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"  // ruleid: %s\n  out[i] = in[i];\n}\n```\n\n"
	"```cuda good\n__global__ void k(float *out, const float *in) {\n"
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  out[i] = in[i];\n}\n```\n";

static int new_rule(const ka_ruleset *rs, const ropts *o)
{
	if (o->nids != 1) {
		ka_tool_error("usage: kcheck rules new ID [-o FILE]");
		return KA_EXIT_ERROR;
	}
	const char *id = o->ids[0];
	if (!ka_rule_id_valid(id)) {
		ka_tool_error(
			"bad rule id '%s' (kebab-case with a family prefix, e.g. gmem-uncoalesced-access)",
			id);
		return KA_EXIT_ERROR;
	}
	if (ka_ruleset_find(rs, id)) {
		ka_tool_error("rule '%s' exists already (kcheck rules show %s)", id, id);
		return KA_EXIT_ERROR;
	}
	char path[4096];
	snprintf(path, sizeof path, "%s", o->output ? o->output : "");
	if (!o->output)
		snprintf(path, sizeof path, "%s.md", id);
	if (ka_fs_exists(path)) {
		ka_tool_error("%s exists already; not overwriting it", path);
		return KA_EXIT_ERROR;
	}
	ka_buf b;
	ka_buf_init(&b, 1 << 16);
	ka_buf_printf(&b, template_text, id, id);
	int rc = ka_fs_write_atomic(path, b.data, b.len);
	ka_buf_free(&b);
	if (rc != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	printf("wrote %s\n", path);
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* One rule's test, run in a child process of its own (util/workpool.h):
 * an example that crashes the analysis, or goes over --file-memory or
 * --file-timeout, fails that rule's test alone.  Logs are printed in rule
 * order. */
typedef struct rtest {
	const ka_rule *rule;
	ka_buf log;
	ka_lint_test_counts counts;
	int rc;
	char err[512];
} rtest;

typedef struct rpool {
	ka_lint *l;
	const char *dir;
	rtest *t;
	int n;
} rpool;

static void test_here(void *ctx, int i)
{
	rpool *p = ctx;
	rtest *t = &p->t[i];
	t->rc = ka_lint_test_rule(p->l, t->rule->id, p->dir, &t->log, &t->counts);
	if (t->rc != KA_OK)
		snprintf(t->err, sizeof t->err, "%s", ka_error_last());
}

static int test_run(void *ctx, int i, ka_buf *out)
{
	rpool *p = ctx;
	rtest *t = &p->t[i];
	ka_analyze_no_crash_recovery(); /* a crash is this process's end, and the parent's news */
	test_here(ctx, i);
	int rc = ka_wire_int(out, t->rc);
	rc = rc ? rc : ka_wire_str(out, t->err);
	rc = rc ? rc : ka_wire_int(out, t->counts.passed);
	rc = rc ? rc : ka_wire_int(out, t->counts.failed);
	rc = rc ? rc : ka_wire_int(out, t->counts.skipped);
	return rc ? rc : ka_wire_str(out, t->log.data ? t->log.data : "");
}

static int test_take(void *ctx, int i, const char *bytes, size_t n)
{
	rpool *p = ctx;
	rtest *t = &p->t[i];
	ka_wire_in in = {.p = bytes, .left = n};
	t->rc = (int)ka_wire_get_int(&in);
	char *err = ka_wire_get_str(&in);
	t->counts.passed = (int)ka_wire_get_int(&in);
	t->counts.failed = (int)ka_wire_get_int(&in);
	t->counts.skipped = (int)ka_wire_get_int(&in);
	char *log = ka_wire_get_str(&in);
	int ok = !in.bad && in.left == 0 && err && log;
	if (ok) {
		snprintf(t->err, sizeof t->err, "%s", err);
		ok = ka_buf_adds(&t->log, log) == KA_OK;
	}
	free(err);
	free(log);
	return ok;
}

static void test_fail(void *ctx, int i, const char *why)
{
	rpool *p = ctx;
	rtest *t = &p->t[i];
	t->log.len = 0;
	t->counts = (ka_lint_test_counts){.failed = 1};
	t->rc = KA_OK;
	ka_buf_printf(&t->log, "%s: %s: %s\n", t->rule->path, t->rule->id, why);
}

/* Run the tests of the selected rules, -j at a time. */
static void run_tests(rpool *p, int jobs, const ropts *o)
{
	ka_workpool wp = {.njobs = p->n,
			  .parallel = jobs,
			  .memory_mb = o->file_memory_mb > 0 ? o->file_memory_mb : KA_LINT_FILE_MEMORY_MB,
			  .timeout_s = o->file_timeout_s > 0 ? o->file_timeout_s : KA_LINT_FILE_TIMEOUT_S,
			  .what = "the rule's test",
			  .memory_opt = "--file-memory",
			  .timeout_opt = "--file-timeout",
			  .ctx = p,
			  .run = test_run,
			  .take = test_take,
			  .fail = test_fail,
			  .here = test_here};
	ka_workpool_run(&wp);
}

static int test(ka_lint *l, const ropts *o)
{
	char tmpl[] = "/tmp/kcheck-rules-test-XXXXXX";
	ka_lint_test_counts counts = {0, 0, 0};
	const ka_ruleset *rs = ka_lint_rules(l);
	rpool p = {.l = l, .dir = tmpl};
	int rc = 0;
	for (int i = 0; i < o->nids; i++)
		if (!ka_ruleset_find(rs, o->ids[i])) {
			ka_tool_error("no rule '%s' (see kcheck rules list)", o->ids[i]);
			return KA_EXIT_ERROR;
		}
	/* created and registered for SIGINT/SIGTERM/SIGHUP, or neither */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	ka_cleanup_install();
	pthread_sigmask(SIG_BLOCK, &block, &old);
	int slot = mkdtemp(tmpl) ? ka_cleanup_add_dir(tmpl) : -2;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (slot == -2) {
		ka_tool_error("cannot create a temporary folder under /tmp");
		return KA_EXIT_ERROR;
	}
	p.t = calloc(ka_ruleset_count(rs) + 1, sizeof *p.t);
	for (size_t i = 0; p.t && i < ka_ruleset_count(rs); i++) {
		const ka_rule *r = ka_ruleset_at(rs, i);
		int want = o->nids == 0;
		for (int k = 0; k < o->nids; k++)
			want |= !strcmp(o->ids[k], r->id);
		if (want) {
			p.t[p.n].rule = r;
			ka_buf_init(&p.t[p.n++].log, 0);
		}
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	run_tests(&p, o->jobs ? o->jobs : cpus > 8 ? 8 : cpus > 0 ? (int)cpus : 1, o);
	for (int i = 0; i < p.n; i++) {
		rtest *t = &p.t[i];
		fputs(t->log.data ? t->log.data : "", stdout);
		if (t->rc != KA_OK) {
			ka_tool_error("%s", t->err);
			rc = KA_EXIT_ERROR;
		}
		counts.passed += t->counts.passed;
		counts.failed += t->counts.failed;
		counts.skipped += t->counts.skipped;
		ka_buf_free(&t->log);
	}
	free(p.t);
	printf("rules test: %d passed, %d failed, %d skipped\n", counts.passed, counts.failed,
	       counts.skipped);
	if (nftw(tmpl, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
		ka_tool_warn("could not remove %s", tmpl);
	ka_cleanup_remove_dir(slot);
	return rc ? rc : counts.failed ? KA_EXIT_FINDINGS : 0;
}

int ka_tool_rules(int argc, char **argv)
{
	ka_arena *a = ka_arena_new();
	ka_lint_opts lo = KA_LINT_OPTS_INIT;
	ka_lint *l = NULL;
	const ka_ruleset *rs = NULL;
	ropts o = {0};
	int rc = KA_EXIT_ERROR;
	const char *sub = argc >= 2 ? argv[1] : "";
	if (!strcmp(sub, "-h") || !strcmp(sub, "--help")) {
		ka_tool_help_cmd(stdout, KA_CMD_RULES);
		rc = 0;
		goto out;
	}
	if ((rc = parse(a, argc, argv, &o)) != 0) {
		rc = rc < 0 ? 0 : rc;
		goto out;
	}
	rc = KA_EXIT_ERROR;
	if (strcmp(sub, "list") && strcmp(sub, "show") && strcmp(sub, "new") && strcmp(sub, "test")) {
		ka_tool_error(
			"usage: kcheck rules list|show ID|new ID|test [ID...] (see kcheck rules --help)");
		goto out;
	}
	lo.rules_dirs = o.dirs, lo.nrules_dirs = o.ndirs;
	if (!strcmp(sub, "test"))
		lo.arch = o.arch, lo.force_shim = o.force_shim;
	if ((rc = ka_tool_lint_new(&l, &lo)))
		goto out;
	rs = ka_lint_rules(l);
	if (!strcmp(sub, "list"))
		rc = list(rs, &o);
	else if (!strcmp(sub, "show"))
		rc = show(rs, &o);
	else if (!strcmp(sub, "new"))
		rc = new_rule(rs, &o);
	else
		rc = test(l, &o);
out:
	ka_lint_free(l);
	ka_arena_free(a);
	return rc;
}
