/* cli/tool_fixllm.c: LLM-made fixes, the last step of `kcheck --fix` and
 * `kcheck --diff` when --llm-base-url/--llm-model are given.
 *
 * Position: after the mechanical fix loop (lint/fix.c) and before the
 * report.  The findings at warning or above whose rule has no mechanical
 * fix (no transform, or one that is only a suggestion) are grouped by
 * kernel; for each kernel the LLM coder (agents/coder.h: the prompt of
 * agents/llm_prompt.c with the kernel's file, the findings, the rules'
 * texts and their evidence from the knowledge DB; the code block taken out
 * by agents/llm_code.c) proposes a rewrite of the file.  The candidate goes
 * through the rewriter's compile gate with the flags of the fix loop, with
 * one repair turn carrying the compiler's first error, then with --task
 * through the bench (bench/runner.h, as agents/optimize.c calls it), and
 * only then is offered: a patch marked LLM-made (--diff), or the file
 * replaced atomically if it still holds what the LLM saw (--fix).
 *
 * The glue lives here because lint/ sits below agents/ and must not call
 * it.  A kernel that gets no fix (an HTTP error, a timeout, a garbled
 * reply, no code block, a candidate that does not compile after the repair,
 * a bench verdict other than faster) is one line on stderr; its file stays
 * as it was and the run goes on. */
#include "cli/tools.h"
#include "agents/coder.h"
#include "recipes/csrc.h"
#include "knowledge/knowledge.h"
#include "analyzer/arch.h"
#include "bench/runner.h"
#include "rewriter/rewriter.h"
#include "rules/report.h"
#include "util/fs.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The text of a file as this step sees it: what the LLM rewrites, and what
 * the disk must still hold when a rewrite replaces it. */
typedef struct file_text {
	char *real; /* realpath, the file's identity */
	char *text;
	size_t len;
} file_text;

struct ka_tool_fixllm {
	ka_coder *coder;
	ka_kdb *db;          /* evidence, read-only; NULL when there is no DB */
	ka_bench_spec *spec; /* --task, or NULL */
	const char *model;
	const char *arch;
	int diff, quiet;
	ka_gate_opts gate;
	file_text *files;
	size_t nfiles;
	ka_report_rewrite *applied; /* strings owned */
	size_t napplied;
};

/* One kernel's findings, and the names the messages give it. */
typedef struct group {
	const ka_finding **f;
	size_t n;
	char where[512]; /* "k.cu: kernel gather" */
	char rules[512]; /* "rule-a, rule-b" */
} group;

static void say(const group *g, const char *fmt, ...) KA_PRINTF(2, 3);

static void say(const group *g, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	msg[strcspn(msg, "\n")] = '\0'; /* one line per kernel, whatever the cause says */
	ka_buf b; /* a file name and a server's message may hold controls or bidi overrides */
	ka_buf_init(&b, 8192);
	if (ka_report_escape(&b, g->where) == KA_OK && ka_buf_adds(&b, ": ") == KA_OK &&
	    ka_report_escape(&b, msg) == KA_OK && b.data)
		fprintf(stderr, "kcheck: %s\n", b.data);
	ka_buf_free(&b);
}

static int no_memory(void)
{
	ka_tool_error("out of memory");
	return KA_EXIT_ERROR;
}

/* The combinations of options that make no sense: one line, exit 2. */
static int check_options(const ka_tool_cfg *c)
{
	const int fix = c->fix.fix || c->fix.unsafe_fixes || c->fix.diff;
	if (c->llm.base_url && !c->llm.model) {
		ka_tool_error("--llm-base-url needs --llm-model");
		return KA_EXIT_ERROR;
	}
	if (c->llm.task && !c->llm.model) {
		ka_tool_error("--task benches LLM-made fixes: it needs --llm-base-url and --llm-model");
		return KA_EXIT_ERROR;
	}
	if (!fix) {
		ka_tool_error("--llm-base-url and --llm-model work with --fix or --diff");
		return KA_EXIT_ERROR;
	}
	return 0;
}

/* Options set on the command line count; from .kcheck.yaml they only take
 * effect with --fix/--diff (a plain lint run with that config is fine). */
static int wanted(const ka_tool_cfg *c)
{
	const int fix = c->fix.fix || c->fix.unsafe_fixes || c->fix.diff;
	int on_argv = 0;
	for (const ka_opt *o = ka_tool_opts(); o->name || o->key; o++)
		if (o->name && (!strcmp(o->name, "--llm-base-url") || !strcmp(o->name, "--llm-model") ||
				!strcmp(o->name, "--llm-timeout") || !strcmp(o->name, "--task")))
			on_argv |= c->set[o - ka_tool_opts()];
	return (c->llm.base_url || c->llm.model || c->llm.task) && (fix || on_argv);
}

static int open_task(ka_tool_fixllm *x, const char *dir)
{
	if (!ka_bench_runner_local()->has_device(ka_bench_runner_local())) {
		ka_tool_error("--task: no CUDA device found (the bench times each LLM-made fix on one)");
		return KA_EXIT_ERROR;
	}
	if (!(x->spec = calloc(1, sizeof *x->spec)))
		return no_memory();
	if (ka_bench_spec_load(dir, x->spec) != KA_OK) {
		ka_tool_error("--task: %s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	return 0;
}

/* The coder, the knowledge DB, the task: everything that can fail for the
 * whole run fails here, before anything is analysed or written. */
int ka_tool_fixllm_new(ka_tool_fixllm **out, const ka_tool_cfg *c)
{
	ka_tool_fixllm *x = NULL;
	ka_coder_opts co = KA_CODER_OPTS_INIT;
	int rc;
	*out = NULL;
	if (!wanted(c))
		return 0;
	if ((rc = check_options(c)))
		return rc;
	if (!(x = calloc(1, sizeof *x)))
		return no_memory();
	x->model = c->llm.model;
	x->arch = c->arch ? c->arch : KA_ARCH_DEFAULT;
	x->diff = c->fix.diff;
	x->quiet = c->quiet;
	x->gate = (ka_gate_opts){.arch = c->arch,
				 .timeout_s = c->fix.compile_timeout,
				 .extra_args = c->extra,
				 .n_extra_args = c->nextra};
	co.provider = "llm";
	co.llm.base_url = c->llm.base_url;
	co.llm.model = c->llm.model;
	co.llm.timeout_ms = c->llm.timeout * 1000;
	co.log = NULL; /* no retry lines: one line per kernel says what came of it */
	if (ka_coder_new(&x->coder, &co) != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		rc = KA_EXIT_ERROR;
		goto out;
	}
	if (c->llm.task && (rc = open_task(x, c->llm.task)))
		goto out;
	/* the evidence of the default knowledge DB, when there is one */
	if (ka_kdb_open(&x->db, NULL, KA_KDB_READONLY) != KA_OK) {
		if (!c->quiet && *ka_error_last())
			ka_tool_warn("no evidence for the LLM: %s", ka_error_last());
		x->db = NULL;
	}
	ka_error_clear();
out:
	if (rc) {
		ka_tool_fixllm_free(x);
		x = NULL;
	}
	*out = x;
	return rc;
}

void ka_tool_fixllm_free(ka_tool_fixllm *x)
{
	if (!x)
		return;
	ka_coder_free(x->coder);
	ka_kdb_close(x->db);
	free(x->spec);
	for (size_t i = 0; i < x->nfiles; i++)
		free(x->files[i].real), free(x->files[i].text);
	free(x->files);
	for (size_t i = 0; i < x->napplied; i++) {
		free((char *)x->applied[i].file);
		free((char *)x->applied[i].kernel);
		free((char *)x->applied[i].rules);
	}
	free(x->applied);
	free(x);
}

const ka_report_rewrite *ka_tool_fixllm_applied(const ka_tool_fixllm *x, size_t *n)
{
	*n = x ? x->napplied : 0;
	return x ? x->applied : NULL;
}

/* A finding the LLM is asked about: warning or above, a rule of the rule
 * base (not clang's errors or unused-suppression), and no mechanical fix:
 * no transform, an unknown one, or one that is only ever a suggestion. */
static int wants_llm(const ka_ruleset *rs, const ka_finding *f)
{
	if (f->severity < KA_SEV_WARNING || !ka_ruleset_find(rs, f->rule))
		return 0;
	if (!f->fix)
		return 1;
	int ceiling = ka_transform_ceiling(f->fix);
	return ceiling < 0 || ceiling == KA_FIX_SUGGEST || f->fix_safety == KA_FIX_SUGGEST;
}

static int same_kernel(const ka_finding *a, const ka_finding *b)
{
	if (strcmp(a->file, b->file) != 0)
		return 0;
	return a->kernel && b->kernel ? !strcmp(a->kernel, b->kernel) : a->kernel == b->kernel;
}

/* The text this step starts from for a file: with --diff, the first
 * round's mechanically fixed text when there is one (the LLM's patch then
 * applies after the fix loop's), else what is on disk. */
static file_text *text_of(ka_tool_fixllm *x, const char *path, const ka_lint_result *res)
{
	char *real = realpath(path, NULL);
	if (!real)
		return NULL;
	for (size_t i = 0; i < x->nfiles; i++)
		if (!strcmp(x->files[i].real, real)) {
			free(real);
			return &x->files[i];
		}
	file_text *grown = realloc(x->files, (x->nfiles + 1) * sizeof *grown);
	if (!grown) {
		free(real);
		return NULL;
	}
	x->files = grown;
	file_text *t = &x->files[x->nfiles];
	*t = (file_text){real, NULL, 0};
	for (int i = 0; x->diff && i < res->ntexts && !t->text; i++) {
		char *r = realpath(res->texts[i].path, NULL);
		if (r && !strcmp(r, real) && (t->text = malloc(res->texts[i].after_len + 1))) {
			memcpy(t->text, res->texts[i].after, res->texts[i].after_len);
			t->text[t->len = res->texts[i].after_len] = '\0';
		}
		free(r);
	}
	if (!t->text && ka_fs_read(path, 0, &t->text, &t->len) != KA_OK) {
		free(real);
		return NULL;
	}
	x->nfiles++;
	return t;
}

/* The request: the file, the kernel, its findings with their evidence and
 * the rules' texts.  The arrays are the caller's (n entries each). */
static void make_request(ka_tool_fixllm *x, const ka_ruleset *rs, const group *g, const file_text *t,
			 ka_coder_finding *cf, ka_coder_rule *cr, char (*ev)[200], ka_coder_request *req)
{
	size_t nr = 0;
	for (size_t i = 0; i < g->n; i++) {
		const ka_finding *f = g->f[i];
		ka_kdb_standing sd;
		ev[i][0] = '\0';
		if (x->db && ka_kdb_standing_get(x->db, f->rule, NULL, x->arch, &sd) == KA_OK)
			ka_kdb_standing_text(&sd, x->arch, ev[i], sizeof ev[i]);
		cf[i] = (ka_coder_finding){
			f->rule, f->message, f->file, f->line, f->col, f->kernel, ev[i][0] ? ev[i] : NULL};
		const ka_rule *r = ka_ruleset_find(rs, f->rule);
		int dup = 0;
		for (size_t k = 0; k < nr; k++)
			dup |= !strcmp(cr[k].id, f->rule);
		if (r && !dup)
			cr[nr++] = (ka_coder_rule){r->id, r->title, r->body, r->fix};
	}
	*req = (ka_coder_request){.path = g->f[0]->file,
				  .source = t->text,
				  .source_len = t->len,
				  .kernel = g->f[0]->kernel,
				  .arch = x->arch,
				  .findings = cf,
				  .n_findings = g->n,
				  .rules = cr,
				  .n_rules = nr};
}

/* The compile gate on the reply, and one repair turn when it fails.  1:
 * *rep compiles; 0: no fix (said why); < 0: the gate itself failed (the
 * message set). */
static int gated(ka_tool_fixllm *x, const group *g, const ka_coder_request *req, ka_coder_reply *rep)
{
	const char *path = g->f[0]->file;
	char *err = NULL;
	int rc = ka_gate_compile(&x->gate, path, rep->source, rep->source_len, &err);
	if (rc == KA_ENOTFOUND) {
		say(g, "no LLM-made fix: no compiler to check it (%s not found)",
		    strstr(path, ".hip") ? "hipcc" : "nvcc");
		return 0;
	}
	if (rc != KA_ETOOL)
		return rc == KA_OK ? 1 : rc;
	ka_coder_reply fixed;
	char first[600];
	snprintf(first, sizeof first, "%s", err ? err : "the compiler failed");
	free(err);
	err = NULL;
	if (ka_coder_repair(x->coder, req, rep->source, rep->source_len, first, &fixed) != KA_OK) {
		say(g, "no LLM-made fix: the rewrite does not compile (%s) and the repair turn failed: %s",
		    first, ka_error_last());
		return 0;
	}
	ka_coder_reply_clear(rep);
	*rep = fixed;
	rc = ka_gate_compile(&x->gate, path, rep->source, rep->source_len, &err);
	if (rc == KA_ETOOL)
		say(g, "no LLM-made fix: the rewrite does not compile after a repair turn: %s",
		    err ? err : "the compiler failed");
	free(err);
	return rc == KA_OK ? 1 : rc == KA_ETOOL ? 0 : rc;
}

/* --task: the bench, the candidate against the file's current text.  1
 * faster; 0 not (said why); < 0 the bench could not run (message set). */
static int benched(ka_tool_fixllm *x, const group *g, const file_text *t, const ka_coder_reply *rep)
{
	static ka_bench_job job;
	const char *path = g->f[0]->file;
	char *cand = NULL, *base = NULL;
	int cs = -1, bs = -1, rc;
	ka_bench_result *res = calloc(1, sizeof *res);
	if (!res)
		return ka_error_set(KA_ENOMEM, "out of memory");
	ka_bench_job_init(&job, x->spec);
	rc = ka_gate_temp(path, rep->source, rep->source_len, &cand, &cs);
	if (rc == KA_OK)
		rc = ka_gate_temp(path, t->text, t->len, &base, &bs);
	if (rc == KA_OK)
		rc = ka_bench_job_path(job.candidate, sizeof job.candidate, cand, NULL);
	if (rc == KA_OK)
		rc = ka_bench_job_path(job.baseline, sizeof job.baseline, base, NULL);
	if (rc == KA_OK) {
		snprintf(job.arch, sizeof job.arch, "%s", x->arch);
		job.configs = KA_BENCH_CONFIGS_VISIBLE; /* timed; correctness covers every config */
		job.seed = ka_bench_fresh_seed();
		rc = ka_bench_runner_local()->run(ka_bench_runner_local(), &job, res);
	}
	if (rc == KA_OK && strcmp(res->verdict, "faster") != 0) {
		say(g, "no LLM-made fix: the bench says %s%s%.*s", res->verdict, res->reason[0] ? ": " : "",
		    (int)strcspn(res->reason, "\n"), res->reason);
		rc = 0;
	} else if (rc == KA_OK) {
		rc = 1;
	}
	ka_gate_temp_remove(cand, cs);
	ka_gate_temp_remove(base, bs);
	ka_bench_result_free(res);
	free(res);
	return rc;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Offer the rewrite: the patch with its LLM-made header, or the file
 * replaced when it still holds what the LLM saw.  < 0: a hard error. */
static int offer(ka_tool_fixllm *x, const group *g, file_text *t, ka_coder_reply *rep, ka_lint_result *res)
{
	const char *path = g->f[0]->file, *kernel = g->f[0]->kernel;
	int rc = KA_OK;
	if (x->diff) {
		char *label = ka_diff_label(path);
		ka_buf h; /* one comment line: nothing in it can start a line of the patch */
		ka_buf_init(&h, 8192);
		(void)ka_buf_printf(&h, "LLM-made fix (model %s) of %s%s for [%s]; review before applying",
				    x->model, kernel ? "kernel " : "the file", kernel ? kernel : "",
				    g->rules);
		ka_buf line;
		ka_buf_init(&line, 16384);
		(void)ka_report_escape(&line, h.data ? h.data : "");
		printf("# kcheck: %s\n", line.data ? line.data : "LLM-made fix; review before applying");
		ka_buf_free(&line);
		ka_buf_free(&h);
		rc = ka_diff_unified(label ? label : path, t->text, t->len, rep->source, rep->source_len,
				     stdout);
		fflush(stdout);
		free(label);
	} else {
		rc = ka_fs_write_atomic_if(path, rep->source, rep->source_len, t->text, t->len);
		if (rc == KA_FS_CHANGED) {
			say(g, "LLM-made fix not applied: the file changed on disk during the run");
			return KA_OK;
		}
		if (rc != KA_OK) {
			say(g, "LLM-made fix not applied: %s", ka_error_last());
			res->failed = 1;
			return KA_OK;
		}
		ka_report_rewrite *grown = realloc(x->applied, (x->napplied + 1) * sizeof *grown);
		if (!grown)
			return ka_error_set(KA_ENOMEM, "out of memory");
		x->applied = grown;
		grown[x->napplied++] = (ka_report_rewrite){strdup(path), dup_or_null(kernel),
							   strdup(g->rules), x->model};
		if (!x->quiet)
			say(g, "applied an LLM-made fix (model %s) for [%s]; review it", x->model, g->rules);
	}
	if (rc == KA_OK) { /* the next kernel of this file starts from here */
		free(t->text);
		t->text = rep->source, t->len = rep->source_len;
		rep->source = NULL, rep->source_len = 0;
	}
	return rc;
}

/* The kernel the prompt names and every other kernel of the file must
 * still be defined or called in the rewrite (the prompt asks the LLM to
 * keep them; a model that returns only the kernel it was shown would
 * otherwise delete the rest of the file).  The first one missing, or NULL. */
static const char *dropped_kernel(const file_text *t, const char *kernel, const ka_coder_reply *rep)
{
	static char name[KA_CSRC_NAME];
	ka_csrc *m = calloc(1, sizeof *m);
	const char *missing = NULL;
	if (kernel && !ka_csrc_has_word(rep->source, 0, rep->source_len, kernel))
		missing = kernel;
	if (!missing && m && ka_csrc_scan(m, t->text, t->len) == KA_OK)
		for (int i = 0; i < m->nkernels && !missing; i++)
			if (!ka_csrc_has_word(rep->source, 0, rep->source_len, m->k[i].name)) {
				snprintf(name, sizeof name, "%s", m->k[i].name);
				missing = name;
			}
	free(m);
	return missing;
}

/* A file --fix may not replace: no write bit at all (as the fix loop). */
static int read_only(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && !(st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH));
}

/* One kernel: ask, gate, bench, offer.  < 0 only for hard errors. */
static int one_kernel(ka_tool_fixllm *x, const ka_ruleset *rs, group *g, ka_lint_result *res)
{
	const char *path = g->f[0]->file, *kernel = g->f[0]->kernel;
	ka_coder_finding *cf = calloc(g->n, sizeof *cf);
	ka_coder_rule *cr = calloc(g->n, sizeof *cr);
	char(*ev)[200] = calloc(g->n, sizeof *ev);
	ka_coder_reply rep = {0};
	ka_coder_request req;
	int rc = KA_OK, ok;
	file_text *t = NULL;
	if (!cf || !cr || !ev) {
		rc = ka_error_set(KA_ENOMEM, "out of memory");
		goto out;
	}
	if (!x->diff && read_only(path)) {
		say(g, "no LLM-made fix: the file is read-only");
		res->failed = 1;
		goto out;
	}
	if (!(t = text_of(x, path, res))) {
		say(g, "no LLM-made fix: %s", *ka_error_last() ? ka_error_last() : "cannot read the file");
		goto out;
	}
	make_request(x, rs, g, t, cf, cr, ev, &req);
	if (ka_coder_propose(x->coder, &req, &rep) != KA_OK) {
		say(g, "no LLM-made fix: %s", ka_error_last());
		goto out;
	}
	if (rep.source_len == t->len && !memcmp(rep.source, t->text, t->len)) {
		say(g, "no LLM-made fix: the LLM returned the file unchanged");
		goto out;
	}
	const char *gone = dropped_kernel(t, kernel, &rep);
	if (gone) {
		say(g, "no LLM-made fix: the rewrite drops kernel %s", gone);
		goto out;
	}
	if ((ok = gated(x, g, &req, &rep)) <= 0 || (x->spec && (ok = benched(x, g, t, &rep)) <= 0)) {
		rc = ok < 0 ? ok : KA_OK;
		goto out;
	}
	rc = offer(x, g, t, &rep, res);
out:
	ka_coder_reply_clear(&rep);
	free(cf);
	free(cr);
	free(ev);
	return rc;
}

/* Kernel i's findings (the first that wants the LLM and is not taken yet),
 * their names for messages. */
static int collect(const ka_ruleset *rs, const ka_findings *fs, size_t i, unsigned char *taken, group *g)
{
	const ka_finding *f0 = &fs->v[i];
	size_t n = 0;
	if (!(g->f = calloc(fs->n, sizeof *g->f)))
		return ka_error_set(KA_ENOMEM, "out of memory");
	g->rules[0] = '\0';
	for (size_t k = i; k < fs->n; k++) {
		const ka_finding *f = &fs->v[k];
		if (taken[k] || !wants_llm(rs, f) || !same_kernel(f0, f))
			continue;
		taken[k] = 1;
		int seen = 0;
		for (size_t j = 0; j < n; j++)
			seen |= !strcmp(g->f[j]->rule, f->rule);
		g->f[n++] = f;
		if (!seen) {
			size_t len = strlen(g->rules);
			snprintf(g->rules + len, sizeof g->rules - len, "%s%s", len ? ", " : "", f->rule);
		}
	}
	g->n = n;
	snprintf(g->where, sizeof g->where, "%s%s%s", f0->file, f0->kernel ? ": kernel " : "",
		 f0->kernel ? f0->kernel : "");
	return KA_OK;
}

int ka_tool_fixllm_run(ka_tool_fixllm *x, ka_lint *l, const ka_tool_cfg *c, ka_lint_result *res)
{
	const ka_ruleset *rs = ka_lint_rules(l);
	const ka_findings *fs = &res->findings;
	if (res->baseline_written) /* the run recorded its findings; nothing to fix */
		return 0;
	unsigned char *taken = calloc(fs->n + 1, 1);
	size_t written = x->napplied;
	int rc = taken ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
	for (size_t i = 0; rc == KA_OK && i < fs->n; i++) {
		group g = {0};
		if (taken[i] || !wants_llm(rs, &fs->v[i]))
			continue;
		rc = collect(rs, fs, i, taken, &g);
		if (rc == KA_OK)
			rc = one_kernel(x, rs, &g, res);
		free(g.f);
	}
	free(taken);
	if (rc == KA_OK && x->napplied > written) { /* report what is left now */
		int failed = res->failed;
		rc = ka_lint_run(l, c->paths, c->npaths, res);
		res->failed |= failed;
		if (rc != KA_OK) {
			ka_tool_error("%s", ka_lint_error(l));
			return KA_EXIT_ERROR;
		}
	}
	if (rc != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	return 0;
}
