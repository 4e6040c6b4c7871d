/* lint/fix.c: the fix step of a lint run: fixes computed per job on its
 * facts (while its database is open), then merged, filtered to the findings
 * that are reported, resolved, gated by the compiler and written, printed
 * as a patch, exported or kept as texts (see lint.h, ka_lint_fix).  The
 * rewriter library does the work; this file wires it to the run and writes
 * what happened on the log. */
#include "lint/lint_int.h"
#include "rewriter/rewriter.h"
#include "util/fs.h"
#include "util/proc.h"
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* "rule \t realpath \t line \t col": a finding's name that survives renaming. */
char *ka_lint_finding_key(const char *rule, const char *file, int line, int col)
{
	char *real = realpath(file, NULL);
	ka_buf b;
	ka_buf_init(&b, 8192);
	ka_buf_printf(&b, "%s\t%s\t%d\t%d", rule, real ? real : file, line, col);
	free(real);
	return ka_buf_steal(&b);
}

static int priority_of(ka_severity s)
{
	return s == KA_SEV_ERROR ? 0 : s == KA_SEV_WARNING ? 1 : 2;
}

static int request_all(ka_fixset *fs, sqlite3 *db, const ka_findings *f, int keyed)
{
	int rc = KA_OK;
	for (size_t i = 0; rc == KA_OK && i < f->n; i++) {
		const ka_finding *x = &f->v[i];
		if (!x->fix || !x->scope)
			continue;
		char *key = keyed ? ka_lint_finding_key(x->rule, x->file, x->line, x->col) : NULL;
		ka_fix_request r = {.rule = x->rule,
				    .transform = x->fix,
				    .safety = x->fix_safety,
				    .priority = priority_of(x->severity),
				    .scope = x->scope,
				    .rowid = x->row_id,
				    .finding = (int)i,
				    .key = key};
		rc = ka_fixset_request(fs, db, &r);
		free(key);
	}
	return rc;
}

/* The bytes the analyzer read, rebuilt from the facts' `line` table (one
 * row per line, '\n' removed; `file.lines` counts a final newline as a
 * line of its own).  Fixes are computed on these bytes and the commit
 * checks the disk against them, never the disk against itself. */
static int analysed_sources(ka_fixset *set, sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	ka_buf b;
	int rc = KA_OK;
	const char *sql = "SELECT f.path, f.lines, l.text FROM file f JOIN line l ON l.file = f.path "
			  "ORDER BY f.path, l.line";
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return ka_error_set(KA_ERR, "facts: %s", sqlite3_errmsg(db));
	ka_buf_init(&b, KA_BUF_DEFAULT_LIMIT);
	char *path = NULL;
	int lines = 0, rows = 0, step;
	while (rc == KA_OK) {
		step = sqlite3_step(st);
		const char *p = step == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
		if (path && (!p || strcmp(p, path) != 0)) { /* the previous file is complete */
			if (rows < lines)
				rc = ka_buf_addc(&b, '\n');
			if (rc == KA_OK)
				rc = ka_fixset_set_source(set, path, b.data ? b.data : "", b.len);
			ka_buf_reset(&b);
			free(path);
			path = NULL;
		}
		if (step != SQLITE_ROW || rc != KA_OK)
			break;
		if (!path) {
			if (!(path = strdup(p ? p : ""))) {
				rc = ka_error_set(KA_ENOMEM, "out of memory");
				break;
			}
			lines = sqlite3_column_int(st, 1), rows = 0;
		}
		if (rows++ && (rc = ka_buf_addc(&b, '\n')) < 0)
			break;
		rc = ka_buf_add(&b, sqlite3_column_blob(st, 2), (size_t)sqlite3_column_bytes(st, 2));
	}
	if (rc == KA_OK && step != SQLITE_DONE)
		rc = ka_error_set(KA_ERR, "facts: %s", sqlite3_errmsg(db));
	free(path);
	ka_buf_free(&b);
	sqlite3_finalize(st);
	return rc;
}

int ka_lint_fix_collect(sqlite3 *db, const ka_findings *fs, struct ka_fixset **out)
{
	int rc = ka_fixset_new(out);
	if (rc == KA_OK)
		rc = analysed_sources(*out, db);
	if (rc == KA_OK)
		ka_fixset_set_strict(*out);
	if (rc == KA_OK)
		rc = request_all(*out, db, fs, 1);
	return rc;
}

/* Does rule match one of the comma-separated globs of only? */
static int selected(const char *only, const char *rule)
{
	char glob[256];
	for (const char *p = only; p && *p;) {
		size_t n = strcspn(p, ",");
		if (n && n < sizeof glob) {
			memcpy(glob, p, n);
			glob[n] = '\0';
			if (fnmatch(glob, rule, 0) == 0)
				return 1;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

/* Keep the fixes of reported findings only (NOLINT, baseline, other files)
 * and, with only, of the rules it names. */
static void keep_reported(ka_fixset *fs, const ka_findings *all, const char *only)
{
	size_t n = all->n;
	char **keys = calloc(n + 1, sizeof(char *));
	for (size_t i = 0; keys && i < n; i++)
		keys[i] = ka_lint_finding_key(all->v[i].rule, all->v[i].file, all->v[i].line, all->v[i].col);
	for (size_t i = 0; i < ka_fixset_count(fs); i++) {
		ka_fix *f = ka_fixset_get(fs, i);
		int found = 0;
		for (size_t k = 0; keys && k < n && !found; k++)
			found = keys[k] && f->key && strcmp(keys[k], f->key) == 0;
		if (!found || (only && !selected(only, f->rule)))
			ka_fix_clear_edits(f);
	}
	for (size_t i = 0; keys && i < n; i++)
		free(keys[i]);
	free(keys);
}

int ka_lint_fix_merge(ka_lint_job *jobs, int njobs, const ka_findings *all, const char *only,
		      struct ka_fixset **merged)
{
	ka_fixset *fs = NULL;
	int base = 0;
	*merged = NULL;
	if (ka_fixset_new(&fs) != KA_OK)
		return ka_error_set(KA_ENOMEM, "out of memory");
	for (int i = 0; i < njobs; i++) {
		ka_fixset *js = jobs[i].fixes;
		if (!js)
			continue;
		int n = (int)jobs[i].findings.n;
		if (ka_fixset_merge(fs, js, base) != KA_OK) {
			ka_fixset_free(fs);
			return ka_error_set(KA_ENOMEM, "out of memory");
		}
		base += n;
		ka_fixset_free(js);
		jobs[i].fixes = NULL;
	}
	keep_reported(fs, all, only);
	*merged = fs;
	return KA_OK;
}

static int export_yaml(const char *file, ka_fixset *fs, const char *main_file)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = m ? ka_fixset_write_yaml(fs, main_file, KA_FIX_ACCEPTED, m) : KA_ENOMEM;
	if (m)
		fclose(m);
	if (rc == KA_OK)
		rc = ka_fs_write_atomic(file, buf, len);
	free(buf);
	if (rc != KA_OK)
		rc = ka_error_set(rc, "--export-fixes: %s", ka_error_last());
	return rc;
}

static void print_log(const ka_lint *l, ka_fixset *fs, const char *log)
{
	if (l->o.quiet)
		return;
	for (size_t i = 0; i < ka_fixset_note_count(fs); i++)
		ka_lint_log(l, "note: %s", ka_fixset_note_get(fs, i));
	for (const char *p = log; p && *p;) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);
		ka_lint_log(l, "%.*s", n, p);
		p = nl ? nl + 1 : p + n;
	}
}

/* Name once the project flags the compile gate leaves out. */
static void note_dropped_flags(const ka_lint *l, int round)
{
	ka_buf b;
	ka_buf_init(&b, 4096);
	for (int i = 0, take; i < l->o.nextra; i += take)
		if (!ka_proc_cc_flag(l->o.extra, l->o.nextra, i, &take))
			for (int k = 0; k < take; k++)
				(void)ka_buf_printf(&b, " %s", l->o.extra[i + k]);
	if (b.len && !l->o.quiet && round == 0)
		ka_lint_log(l,
			    "note: compile gate: ignored%s (only -I, -D, -U, -isystem, "
			    "-include and -std= reach the compiler)",
			    b.data);
	ka_buf_free(&b);
}

/* The first round's changed files, before and after (want_texts). */
static int keep_texts(ka_fixset *fs, ka_lint_result *out)
{
	size_t nf = ka_fixset_file_count(fs);
	int rc = KA_OK;
	out->texts = calloc(nf + 1, sizeof *out->texts);
	if (!out->texts)
		return ka_error_set(KA_ENOMEM, "out of memory");
	for (size_t i = 0; i < nf && rc == KA_OK; i++) {
		struct ka_lint_text *t = &out->texts[out->ntexts];
		const char *file = ka_fixset_file_get(fs, i), *src;
		int changed = 0;
		if ((rc = ka_fixset_source(fs, file, &src, &t->before_len)) < 0 ||
		    (rc = ka_fixset_apply_file(fs, file, &t->after, &t->after_len, &changed)) < 0)
			break;
		if (!changed) {
			free(t->after);
			t->after = NULL;
			continue;
		}
		t->path = strdup(file);
		t->before = malloc(t->before_len + 1);
		out->ntexts++;
		if (!t->path || !t->before)
			rc = ka_error_set(KA_ENOMEM, "out of memory");
		else
			memcpy(t->before, src, t->before_len), t->before[t->before_len] = '\0';
	}
	return rc;
}

/* The patch of the round: to fo->diff and/or kept in out->patch. */
static void take_patch(const ka_lint_fix_opts *fo, int round, char *patch, size_t len, ka_lint_result *out)
{
	if (fo->diff && len)
		fwrite(patch, 1, len, fo->diff);
	if (fo->want_patch && round == 0 && !out->patch) {
		out->patch = patch;
		out->patch_len = len;
		return;
	}
	free(patch);
}

static void print_summary(const ka_lint *l, const ka_lint_fix_opts *fo, ka_fixset *fs, int write, int round,
			  const ka_commit_result *res)
{
	int hidden = 0;
	for (size_t i = 0; !fo->unsafe && i < ka_fixset_count(fs); i++) {
		ka_fix *f = ka_fixset_get(fs, i);
		hidden += f->status == KA_FIX_NOT_SELECTED && f->safety == KA_FIX_UNSAFE && f->n_edits;
	}
	if (!l->o.quiet && hidden)
		ka_lint_log(l, "note: %d more fix%s available with --unsafe-fixes", hidden,
			    hidden == 1 ? " is" : "es are");
	if (!l->o.quiet && write && (res->fixes_applied || res->fixes_rejected || round == 0))
		ka_lint_log(l, "applied %d fix%s to %d file%s%s", res->fixes_applied,
			    res->fixes_applied == 1 ? "" : "es", res->files_changed,
			    res->files_changed == 1 ? "" : "s",
			    res->fixes_rejected ? " (some fixes were not applied, see above)" : "");
}

int ka_lint_fix_commit(ka_lint *l, ka_fixset *fs, const ka_lint_fix_opts *fo, int round,
		       const ka_findings *all, ka_lint_result *out, int *changed)
{
	char *log = NULL, *patch = NULL;
	size_t loglen = 0, patchlen = 0;
	ka_commit_result res;
	int want_patch = fo->diff || (fo->want_patch && round == 0);
	ka_commit_opts co = {
		.max_safety = fo->unsafe ? KA_FIX_UNSAFE : KA_FIX_SAFE,
		.write = fo->write && !fo->diff, /* a patch changes nothing on disk */
		.diff = want_patch ? open_memstream(&patch, &patchlen) : NULL,
		.gate = 1,
		.require_gate = fo->require_gate,
		.gate_opts = {.arch = l->o.arch,
			      .timeout_s = fo->compile_timeout,
			      .extra_args = l->o.extra,
			      .n_extra_args = l->o.nextra},
		.log = open_memstream(&log, &loglen),
	};
	note_dropped_flags(l, round);
	int rc = ka_fixset_commit(fs, &co, &res);
	*changed = co.write ? res.files_changed : 0;
	if (co.diff) {
		fclose(co.diff);
		take_patch(fo, round, patch, patchlen, out);
	}
	if (co.log)
		fclose(co.log);
	print_log(l, fs, log);
	free(log);
	if (rc != KA_OK)
		return rc;
	out->fixes_applied += res.fixes_applied;
	out->fixes_rejected += res.fixes_rejected;
	out->files_changed += res.files_changed;
	print_summary(l, fo, fs, co.write, round, &res);
	if (fo->want_texts && round == 0 && (rc = keep_texts(fs, out)) != KA_OK)
		return rc;
	if (fo->export_fixes && round == 0) /* offsets of the files as they were */
		rc = export_yaml(fo->export_fixes, fs, all->n ? all->v[0].file : "");
	return rc;
}

int ka_lint_fix_text(sqlite3 *db, const char *path, const char *text, size_t len, const ka_findings *fs,
		     char **out, size_t *out_len)
{
	ka_fixset *set = NULL;
	int changed, rc = ka_fixset_new(&set);
	if (rc == KA_OK)
		rc = ka_fixset_set_source(set, path, text, len);
	if (rc == KA_OK)
		rc = request_all(set, db, fs, 0);
	if (rc == KA_OK) {
		ka_fixset_resolve(set, KA_FIX_SUGGEST);
		rc = ka_fixset_apply_file(set, path, out, out_len, &changed);
	}
	ka_fixset_free(set);
	return rc;
}
