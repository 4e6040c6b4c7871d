/* agents/optimize_setup.c: what the optimize loop (agents/optimize.c) does
 * once per run before its first step: load the task and its baseline,
 * create the output folder, load the rule base, open the knowledge DB
 * (read-only for --compile-only), make the coder (and, with an LLM, the
 * summarizer's client and the learned rules), and write the ABI text
 * every coder request carries; and the files it writes (best.patch, texts
 * by atomic rename). */
#include "agents/optimize_int.h"
#include "agents/distill.h"
#include "analyzer/arch.h"
#include "rewriter/rewriter.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/utf8.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int ka_opt_write_text(const char *dir, const char *name, const char *text, char *path, size_t cap)
{
	char p[1100];
	if (snprintf(p, sizeof p, "%s/%s", dir, name) >= (int)sizeof p)
		return ka_error_set(KA_EINPUT, "path too long: %.80s...", dir);
	if (path)
		snprintf(path, cap, "%s", p);
	return ka_fs_write_atomic(p, text, strlen(text));
}

/* Append to buf (cap bytes, *n of them used) what fits of the text, cut on
 * a UTF-8 character's boundary; a full buffer takes nothing more. */
static void add(char *buf, size_t cap, size_t *n, const char *fmt, ...) KA_PRINTF(4, 5);
static void add(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
	if (*n + 1 >= cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int w = vsnprintf(buf + *n, cap - *n, fmt, ap);
	va_end(ap);
	if (w < 0)
		buf[*n] = 0;
	else if ((size_t)w < cap - *n)
		*n += (size_t)w;
	else
		buf[ *n = ka_utf8_cut(buf, cap - 1)] = 0;
}

/* What a candidate must keep: the task's entry point and tensors. */
static void make_abi(ka_opt_loop *L)
{
	const ka_bench_spec *sp = &L->spec;
	size_t n = 0;
	L->abi[0] = 0;
	add(L->abi, sizeof L->abi, &n,
	    "#include \"ka_task.h\" and define extern \"C\" int ka_task_run(const ka_task_args *a, "
	    "cudaStream_t s), launching on stream s. Task %s: params",
	    sp->name);
	for (int i = 0; i < sp->nparams; i++)
		add(L->abi, sizeof L->abi, &n, " a->p[%d]=%s", i, sp->params[i]);
	for (int i = 0; i < sp->ntensors; i++)
		add(L->abi, sizeof L->abi, &n, "; a->t[%d]=%s (%s %s, %s elements)", i, sp->t[i].name,
		    sp->t[i].out ? "out" : "in", ka_bench_dtype_name(sp->t[i].dtype), sp->t[i].shape);
	for (int i = 0; i < sp->nscalars; i++)
		add(L->abi, sizeof L->abi, &n, "; a->s[%d]=%s", i, sp->s[i].name);
	L->ncfg = 0;
	for (int i = 0; i < sp->nconfigs && !sp->c[i].drawn; i++) {
		char *row = L->cfg_text[L->ncfg];
		size_t m = 0;
		row[0] = 0;
		add(row, sizeof L->cfg_text[0], &m, "%s%s:", sp->c[i].name,
		    sp->c[i].unseen ? " (unseen)" : "");
		for (int p = 0; p < sp->nparams; p++)
			add(row, sizeof L->cfg_text[0], &m, " %s=%lld", sp->params[p], sp->c[i].p[p]);
		L->cfgs[L->ncfg] = row;
		L->ncfg++;
	}
}

int ka_opt_write_patch(ka_opt_loop *L)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return ka_error_set(KA_ENOMEM, "out of memory");
	int rc = ka_diff_unified("baseline.cu", L->orig, strlen(L->orig), L->best, strlen(L->best), m);
	fclose(m);
	char p[1100];
	if (rc == KA_OK && snprintf(p, sizeof p, "%s/best.patch", L->o->out_dir) >= (int)sizeof p)
		rc = ka_error_set(KA_EINPUT, "path too long: %.80s...", L->o->out_dir);
	if (rc == KA_OK)
		rc = ka_fs_write_atomic(p, text ? text : "", len);
	free(text);
	return rc;
}

int ka_opt_write_candidate_patch(ka_opt_loop *L, const char *src, const char *dir, const char *name)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return ka_error_set(KA_ENOMEM, "out of memory");
	int rc = ka_diff_unified("baseline.cu", L->orig, strlen(L->orig), src, strlen(src), m);
	fclose(m);
	char p[1200];
	if (rc == KA_OK && snprintf(p, sizeof p, "%s/%s", dir, name) >= (int)sizeof p)
		rc = ka_error_set(KA_EINPUT, "path too long: %.80s...", dir);
	if (rc == KA_OK)
		rc = ka_fs_write_atomic(p, text ? text : "", len);
	free(text);
	return rc;
}

/* With an LLM coder: the learned rules of the DB (hints when they fire),
 * and, when the run may write, a client of the same endpoint for the
 * summarizer's distillation.  The offline coder has neither. */
static int setup_summarizer(ka_opt_loop *L)
{
	const ka_opt_opts *o = L->o;
	int n = snprintf(L->inc, sizeof L->inc, "-I%s/../../harness", L->spec.dir);
	if (n < 0 || (size_t)n >= sizeof L->inc)
		return ka_error_set(KA_EINPUT, "path too long: %.80s...", L->spec.dir);
	L->extra[0] = L->inc;
	if (strcmp(ka_coder_name(L->coder), "llm") != 0 || !L->db)
		return KA_OK;
	if (ka_learned_load(L->db, &L->learned) != KA_OK) {
		if (o->progress)
			fprintf(o->progress, "kcheck: warning: no learned rules: %s\n", ka_error_last());
		L->learned = NULL;
	}
	if (o->compile_only)
		return KA_OK;
	ka_llm_opts lo = o->coder.llm;
	if (!lo.log)
		lo.log = o->coder.log;
	return ka_llm_new(&L->llm, &lo);
}

/* --out: a folder with an earlier run's results is kept unless --force;
 * with it, no file the run writes may be one it reads (the task's files,
 * the knowledge DB), after links. */
static int out_dir_ok(ka_opt_loop *L)
{
	static const char *const outs[] = {"best.cu", "best.patch", "report.md", "trajectory.json"};
	const ka_opt_opts *o = L->o;
	int n = ka_fs_dir_entries(o->out_dir);
	if (n > 0 && !o->force)
		return ka_error_set(
			KA_EINPUT, "--out %s is not empty (an earlier run's results?); --force replaces them",
			o->out_dir);
	char in[4][1300], out[1300];
	static const char *const names[] = {"baseline.cu", "reference.cu", "task.yaml"};
	const char *inputs[4] = {in[0], in[1], in[2], o->db};
	for (int i = 0; i < 3; i++)
		snprintf(in[i], sizeof in[i], "%s/%s", L->spec.dir, names[i]);
	for (size_t i = 0; n > 0 && i < sizeof outs / sizeof outs[0]; i++) {
		snprintf(out, sizeof out, "%s/%s", o->out_dir, outs[i]);
		int rc = ka_fs_output_is_input("--out", out, inputs, 4);
		if (rc != KA_OK)
			return rc;
	}
	return KA_OK;
}

int ka_opt_setup(ka_opt_loop *L)
{
	const ka_opt_opts *o = L->o;
	char alt[1200];
	const char *task = o->task;
	if (!ka_fs_is_dir(task)) {
		snprintf(alt, sizeof alt, "bench/tasks/%s", task);
		if (ka_fs_is_dir(alt))
			task = alt;
	}
	int rc = ka_bench_spec_load(task, &L->spec);
	if (rc)
		return rc;
	const char *arch = o->arch ? o->arch : KA_ARCH_DEFAULT;
	/* the bench builds with nvcc, and the recipes' shuffles assume 32 lanes */
	if (strncmp(arch, "sm_", 3))
		return ka_error_set(
			KA_EINPUT,
			"kcheck optimize targets NVIDIA GPUs (sm_*), not %.64s: the bench builds with "
			"nvcc and the recipes assume 32-lane warps",
			arch);
	/* every step reads the arch's profile: lint's rules, the planner's evidence */
	if (!ka_arch_find(arch) || strlen(arch) >= sizeof L->arch) {
		char names[512];
		ka_arch_names(names, sizeof names);
		return ka_error_set(KA_EINPUT, "unknown --arch '%.64s' (known: %s)", arch, names);
	}
	snprintf(L->arch, sizeof L->arch, "%s", arch);
	ka_recipe_set_arch(L->arch); /* the planner's trial rewrites, as the coder's */
	char bp[1300];
	size_t n;
	if (snprintf(bp, sizeof bp, "%s/baseline.cu", L->spec.dir) >= (int)sizeof bp)
		return ka_error_set(KA_EINPUT, "path too long: %.80s...", L->spec.dir);
	if ((rc = ka_fs_read(bp, 0, &L->orig, &n)))
		return rc;
	L->best = strdup(L->orig);
	if (!L->best)
		return ka_error_set(KA_ENOMEM, "out of memory");
	ka_recipe_set_source_path("kernel.cu"); /* as the planner and the coder see it */
	L->rows = ka_opt_task_rows(&L->spec, L->orig, strlen(L->orig));
	if ((rc = out_dir_ok(L)) != KA_OK)
		return rc;
	if (mkdir(o->out_dir, 0777) && !ka_fs_is_dir(o->out_dir))
		return ka_error_set(KA_EIO, "cannot create %s", o->out_dir);
	char cd[1100];
	if (snprintf(cd, sizeof cd, "%s/candidates", o->out_dir) >= (int)sizeof cd)
		return ka_error_set(KA_EINPUT, "path too long: %.80s...", o->out_dir);
	if (mkdir(cd, 0777) && !ka_fs_is_dir(cd))
		return ka_error_set(KA_EIO, "cannot create %s", cd);
	if ((rc = ka_opt_write_text(cd, "step-0-baseline.cu", L->orig, L->best_file, sizeof L->best_file)))
		return rc;
	if ((rc = ka_ruleset_new(&L->rs)) || (rc = ka_ruleset_load_builtin(L->rs)))
		return rc;
	if (!o->no_db) {
		/* compile-only writes nothing: it reads a DB that exists, else none */
		rc = ka_kdb_open(&L->db, o->db, o->compile_only ? KA_KDB_READONLY : KA_KDB_CREATE);
		if (rc == KA_ENOTFOUND && o->compile_only)
			rc = KA_OK, L->db = NULL;
		if (rc)
			return rc;
		if (L->db && !o->compile_only && (rc = ka_kdb_sync_rules(L->db, L->rs)))
			return rc;
	}
	if ((rc = ka_coder_new(&L->coder, &o->coder)))
		return rc;
	if ((rc = setup_summarizer(L)))
		return rc;
	ka_recipe_set_flags(L->extra, 1); /* the trial rewrites' kernel model reads the task's header */
	if (L->db && !o->compile_only) {
		/* long-term memory first: the best kernel an earlier run verified
		 * for this task (benched again, never trusted) */
		char *sum = NULL;
		double sp;
		if (ka_kdb_best_skill(L->db, L->spec.name, L->arch, &L->skill, &sum, &sp) == KA_OK)
			ka_utf8_copy(L->skill_summary, 151, sum ? sum : "", (size_t)-1);
		free(sum);
	}
	snprintf(L->run_id, sizeof L->run_id, "%s-%lld-%d", L->spec.name, (long long)time(NULL),
		 (int)getpid());
	make_abi(L);
	return KA_OK;
}
