/* cli/tool_fix.c: the fix step of `kcheck`: options (--fix, --unsafe-fixes,
 * --diff, --export-fixes, --require-compile-gate, --compile-timeout), fixes
 * computed per worker on its facts, then merged, filtered to the findings
 * that are reported, resolved, gated by the compiler and written (see
 * tool_fix.h).  The rewriter library does the work; this file wires it to
 * the lint run and prints what happened on stderr. */
#include "cli/tool_fix.h"
#include "cli/tools.h"
#include "rewriter/rewriter.h"
#include "util/fs.h"
#include "util/proc.h"
#include <stdlib.h>
#include <string.h>

int ka_tool_fix_getopt(ka_tool_fix_opts *o, const char *name, const char *val, int argc,
		       char **argv, int *i)
{
	int *flag = !strcmp(name, "--fix") ? &o->fix
		    : !strcmp(name, "--unsafe-fixes") ? &o->unsafe_fixes
		    : !strcmp(name, "--diff") ? &o->diff
		    : !strcmp(name, "--require-compile-gate") ? &o->require_gate : NULL;
	if (flag) {
		if (val) {
			ka_tool_error("%s takes no value", name);
			return KA_EXIT_ERROR;
		}
		*flag = 1;
		return 0;
	}
	if (strcmp(name, "--export-fixes") != 0 && strcmp(name, "--compile-timeout") != 0)
		return 1;
	if (!val) {
		if (*i + 1 >= argc) {
			ka_tool_error("%s needs a value (see kcheck --help)", name);
			return KA_EXIT_ERROR;
		}
		val = argv[++*i];
	}
	if (!strcmp(name, "--export-fixes")) {
		o->export_fixes = val;
		return 0;
	}
	char *end;
	long t = strtol(val, &end, 10);
	if (*end || t < 1 || t > 3600) {
		ka_tool_error("--compile-timeout: '%s' is not a number of seconds in 1..3600", val);
		return KA_EXIT_ERROR;
	}
	o->compile_timeout = (int)t;
	return 0;
}

int ka_tool_fix_wanted(const ka_tool_fix_opts *o)
{
	return o->fix || o->unsafe_fixes || o->diff || o->export_fixes || o->sarif;
}

/* "rule \t realpath \t line \t col": a finding's name that survives renaming. */
static char *key_of(const char *rule, const char *file, int line, int col)
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
		char *key = keyed ? key_of(x->rule, x->file, x->line, x->col) : NULL;
		ka_fix_request r = {.rule = x->rule, .transform = x->fix, .safety = x->fix_safety,
				    .priority = priority_of(x->severity), .scope = x->scope,
				    .rowid = x->row_id, .finding = (int)i, .key = key};
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
		if (path && (!p || strcmp(p, path) != 0)) {    /* the previous file is complete */
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

int ka_tool_fix_collect(const ka_tool_fix_opts *o, sqlite3 *db, const ka_findings *fs,
			struct ka_fixset **out)
{
	*out = NULL;
	if (!ka_tool_fix_wanted(o))
		return KA_OK;
	int rc = ka_fixset_new(out);
	if (rc == KA_OK)
		rc = analysed_sources(*out, db);
	if (rc == KA_OK)
		ka_fixset_set_strict(*out);
	if (rc == KA_OK)
		rc = request_all(*out, db, fs, 1);
	return rc;
}

void ka_tool_fix_free(struct ka_fixset *fs) { ka_fixset_free(fs); }

/* Keep the fixes of reported findings only (NOLINT, baseline, other files). */
static void keep_reported(ka_fixset *fs, const ka_findings *all)
{
	size_t n = all->n;
	char **keys = calloc(n + 1, sizeof(char *));
	for (size_t i = 0; keys && i < n; i++)
		keys[i] = key_of(all->v[i].rule, all->v[i].file, all->v[i].line, all->v[i].col);
	for (size_t i = 0; i < ka_fixset_count(fs); i++) {
		ka_fix *f = ka_fixset_get(fs, i);
		int found = 0;
		for (size_t k = 0; keys && k < n && !found; k++)
			found = keys[k] && f->key && strcmp(keys[k], f->key) == 0;
		if (!found)
			ka_fix_clear_edits(f);
	}
	for (size_t i = 0; keys && i < n; i++)
		free(keys[i]);
	free(keys);
}

static int export_yaml(ka_tool_fix_opts *o, ka_fixset *fs, const char *main_file)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = m ? ka_fixset_write_yaml(fs, main_file, KA_FIX_ACCEPTED, m) : KA_ENOMEM;
	if (m)
		fclose(m);
	if (rc == KA_OK)
		rc = ka_fs_write_atomic(o->export_fixes, buf, len);
	free(buf);
	if (rc != KA_OK)
		ka_tool_error("--export-fixes: %s", ka_error_last());
	return rc == KA_OK ? 0 : KA_EXIT_ERROR;
}

static void print_log(const ka_tool_fix_opts *o, ka_fixset *fs, const char *log)
{
	if (o->quiet)
		return;
	for (size_t i = 0; i < ka_fixset_note_count(fs); i++)
		fprintf(stderr, "kcheck: note: %s\n", ka_fixset_note_get(fs, i));
	for (const char *p = log; p && *p;) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);
		fprintf(stderr, "kcheck: %.*s\n", n, p);
		p = nl ? nl + 1 : p + n;
	}
}

/* Name once the project flags the compile gate leaves out. */
static void note_dropped_flags(const ka_tool_fix_opts *o)
{
	ka_buf b;
	ka_buf_init(&b, 4096);
	for (int i = 0, take; i < o->nextra; i += take)
		if (!ka_proc_cc_flag(o->extra, o->nextra, i, &take))
			for (int k = 0; k < take; k++)
				(void)ka_buf_printf(&b, " %s", o->extra[i + k]);
	if (b.len && !o->quiet && o->round == 0)
		fprintf(stderr, "kcheck: note: compile gate: ignored%s (only -I, -D, -U, -isystem, "
			"-include and -std= reach the compiler)\n", b.data);
	ka_buf_free(&b);
}

static int commit(ka_tool_fix_opts *o, ka_fixset *fs)
{
	char *log = NULL;
	size_t loglen = 0;
	ka_commit_result res;
	ka_commit_opts co = {
		.max_safety = o->unsafe_fixes ? KA_FIX_UNSAFE : KA_FIX_SAFE,
		.write = o->fix || o->unsafe_fixes,
		.diff = o->diff ? stdout : NULL,
		.gate = 1,
		.require_gate = o->require_gate,
		.gate_opts = {.arch = o->arch, .timeout_s = o->compile_timeout,
			      .extra_args = o->extra, .n_extra_args = o->nextra},
		.log = open_memstream(&log, &loglen),
	};
	if (o->diff)
		co.write = 0;   /* --diff changes nothing on disk */
	note_dropped_flags(o);
	int rc = ka_fixset_commit(fs, &co, &res);
	o->changed = co.write ? res.files_changed : 0;
	if (co.log)
		fclose(co.log);
	print_log(o, fs, log);
	free(log);
	if (rc != KA_OK) {
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	int hidden = 0;
	for (size_t i = 0; !o->unsafe_fixes && i < ka_fixset_count(fs); i++) {
		ka_fix *f = ka_fixset_get(fs, i);
		hidden += f->status == KA_FIX_NOT_SELECTED && f->safety == KA_FIX_UNSAFE && f->n_edits;
	}
	if (!o->quiet && hidden)
		fprintf(stderr, "kcheck: note: %d more fix%s available with --unsafe-fixes\n", hidden,
			hidden == 1 ? " is" : "es are");
	if (!o->quiet && co.write && (res.fixes_applied || res.fixes_rejected || o->round == 0))
		fprintf(stderr, "kcheck: applied %d fix%s to %d file%s%s\n", res.fixes_applied,
			res.fixes_applied == 1 ? "" : "es", res.files_changed, res.files_changed == 1 ? "" : "s",
			res.fixes_rejected ? " (some fixes were not applied, see above)" : "");
	return 0;
}

int ka_tool_fix_finish(ka_tool_fix_opts *o, struct ka_tool_job *jobs, int njobs, const ka_findings *all)
{
	ka_fixset *fs = NULL;
	int base = 0;
	if (!ka_tool_fix_wanted(o))
		return 0;
	if (ka_fixset_new(&fs) != KA_OK) {
		ka_tool_error("out of memory");
		return KA_EXIT_ERROR;
	}
	for (int i = 0; i < njobs; i++) {
		ka_fixset *js = jobs[i].fixes;
		if (!js)
			continue;
		int n = (int)jobs[i].findings.n;
		if (ka_fixset_merge(fs, js, base) != KA_OK) {
			ka_fixset_free(fs);
			ka_tool_error("out of memory");
			return KA_EXIT_ERROR;
		}
		base += n;
		ka_fixset_free(js);
		jobs[i].fixes = NULL;
	}
	keep_reported(fs, all);
	o->merged = fs;
	if (!o->fix && !o->unsafe_fixes && !o->diff && !o->export_fixes)
		return 0;                             /* SARIF only */
	int rc = commit(o, fs);
	if (rc == 0 && o->export_fixes && o->round == 0)   /* offsets of the files as they were */
		rc = export_yaml(o, fs, all->n ? all->v[0].file : "");
	return rc;
}

char *ka_tool_fix_sarif(const ka_finding *f, void *opts)
{
	ka_tool_fix_opts *o = opts;
	if (!o || !o->merged || !f->fix)
		return NULL;
	char *key = key_of(f->rule, f->file, f->line, f->col);
	char *out = ka_fixset_sarif_fixes_key(o->merged, key, f->file);
	free(key);
	return out;
}

#define MAX_ROUNDS 5

int ka_tool_fix_again(ka_tool_fix_opts *o)
{
	if (!o->changed || ++o->round >= MAX_ROUNDS)
		return 0;
	o->changed = 0;
	ka_tool_fix_clear(o);
	return 1;
}

void ka_tool_fix_clear(ka_tool_fix_opts *o)
{
	ka_fixset_free(o->merged);
	o->merged = NULL;
}

int ka_tool_fix_text(sqlite3 *db, const char *path, const char *text, size_t len,
		     const ka_findings *fs, char **out, size_t *out_len)
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
