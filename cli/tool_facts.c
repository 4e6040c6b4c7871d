/* cli/tool_facts.c: `kcheck facts FILE... [--format json|sqlite] [-o OUT]`.
 * Dumps the analyzer's facts database for rule authors (docs/facts.md
 * documents every table).  Clang's errors in a file are printed and the
 * other files still analysed; the exit status is 2 when any file failed.
 *
 * Each file is analysed in a child process (util/workpool.h) that starts
 * from the database as the files before it left it and sends the whole
 * database back (sqlite3_serialize); a file whose analysis crashes or goes
 * over --file-memory/--file-timeout fails alone and adds nothing. */
#include "analyzer/analyzer.h"
#include "facts/facts.h"
#include "cli/tools.h"
#include "rules/report.h"
#include "util/fs.h"
#include "util/wire.h"
#include "util/workpool.h"
#include "lint/lint.h" /* the per-file limits' defaults */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const tables[] = {
	"arch",           "file",        "diag",         "kernel",  "param",  "access",
	"shared_array",   "local_array", "constant_var", "loop",    "branch", "barrier",
	"early_return",   "atomic",      "call",         "literal", "launch", "divergent_warp_code",
	"reduction_loop", NULL};

static int usage(void)
{
	fputs("usage: kcheck facts FILE... [--format json|sqlite] [-o OUT] [--arch ARCH]\n"
	      "                    [--shim] [--ptxas] [--assume-block X[,Y[,Z]]]\n"
	      "                    [--file-memory MB] [--file-timeout SEC]\n"
	      "                    [--print-clang-args] [-- FLAGS]\n",
	      stderr);
	return KA_EXIT_ERROR;
}

static json_t *table_json(sqlite3 *db, const char *t)
{
	json_t *arr = json_array();
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT * FROM \"%s\"", t);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return arr;
	while (sqlite3_step(s) == SQLITE_ROW) {
		json_t *o = json_object();
		for (int i = 0; i < sqlite3_column_count(s); i++) {
			json_t *v;
			switch (sqlite3_column_type(s, i)) {
			case SQLITE_INTEGER:
				v = json_integer(sqlite3_column_int64(s, i));
				break;
			case SQLITE_FLOAT:
				v = json_real(sqlite3_column_double(s, i));
				break;
			case SQLITE_TEXT:
				v = json_string((const char *)sqlite3_column_text(s, i));
				break;
			default:
				v = json_null();
				break;
			}
			json_object_set_new(o, sqlite3_column_name(s, i), v ? v : json_null());
		}
		json_array_append_new(arr, o);
	}
	sqlite3_finalize(s);
	return arr;
}

static int write_json(sqlite3 *db, const char *out)
{
	json_t *root = json_object();
	json_object_set_new(root, "version", json_integer(1));
	json_t *tabs = json_object();
	for (int i = 0; tables[i]; i++)
		json_object_set_new(tabs, tables[i], table_json(db, tables[i]));
	json_object_set_new(root, "tables", tabs);
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		return ka_error_set(KA_ENOMEM, "out of memory writing JSON");
	int rc = KA_OK;
	if (out && strcmp(out, "-") != 0) {
		size_t n = strlen(text);
		text[n] = '\n';
		rc = ka_fs_write_atomic(out, text, n + 1);
		text[n] = '\0';
	} else {
		puts(text);
	}
	free(text);
	return rc;
}

/* The database's file image, written as one file: the parent's database
 * is an in-memory image already (each child's is deserialized into it), so
 * it is written as it is, with no copy and no VACUUM INTO rebuilding every
 * table and index into a second database. */
static int write_sqlite(sqlite3 *db, const char *out)
{
	if (!out || strcmp(out, "-") == 0)
		return ka_error_set(KA_EINPUT, "--format sqlite needs -o FILE");
	sqlite3_int64 n = 0;
	unsigned char *copy = NULL;
	const unsigned char *bytes = sqlite3_serialize(db, "main", &n, SQLITE_SERIALIZE_NOCOPY);
	if (!bytes) /* no file was deserialized into it (every file analysed here) */
		bytes = copy = sqlite3_serialize(db, "main", &n, 0);
	if (!bytes)
		return ka_error_set(KA_ENOMEM, "cannot write %s: out of memory", out);
	int rc = ka_fs_write_atomic(out, bytes, (size_t)n);
	sqlite3_free(copy);
	return rc;
}

/* One clang diagnostic row (file, line, col, severity, message), its
 * names and text escaped as the lint's report escapes them. */
static void print_diag(sqlite3_stmt *s)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_report_escape(&b, (const char *)sqlite3_column_text(s, 0));
	ka_buf_printf(&b, ":%d:%d: %s: ", sqlite3_column_int(s, 1), sqlite3_column_int(s, 2),
		      (const char *)sqlite3_column_text(s, 3));
	ka_report_escape(&b, (const char *)sqlite3_column_text(s, 4));
	fprintf(stderr, "%s\n", b.data ? b.data : "");
	ka_buf_free(&b);
}

static int print_args(const ka_analyze_opts *o, const char *file)
{
	ka_arena *a = ka_arena_new();
	const char **argv = NULL;
	int argc = 0;
	ka_analyze_clang_args(o, file, a, &argv, &argc);
	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "/kcheck-shim", 12) == 0 ||
		    (i && strcmp(argv[i - 1], "-isystem") == 0 && strcmp(argv[i], "/kcheck-shim") == 0))
			printf("%s%s", i ? " " : "", argv[i]);
		else
			printf("%s'%s'", i ? " " : "", argv[i]);
	}
	putchar('\n');
	ka_arena_free(a);
	return KA_EXIT_CLEAN;
}

/* The command line (the option table's facts rows) -> o; 0, or the exit
 * status after printing the error. */
static int facts_args(ka_tool_cfg *c, int argc, char **argv, ka_analyze_opts *o)
{
	int rc = ka_tool_getparam(c, KA_CMD_FACTS, argc, argv, 1);
	if (rc == KA_TOOL_UNKNOWN) {
		fprintf(stderr, "kcheck: error: unknown option '%s' for facts\n", c->bad_option);
		return usage();
	}
	if (rc)
		return rc; /* -1: --help was printed */
	if (!c->npaths)
		return usage();
	if (c->arch && !ka_arch_find(c->arch)) {
		char known[512];
		ka_arch_names(known, sizeof known);
		ka_tool_error("unknown --arch '%s' (known: %s)", c->arch, known);
		return KA_EXIT_ERROR;
	}
	o->arch = c->arch;
	o->extra_args = c->extra;
	o->n_extra_args = c->nextra;
	o->force_shim = c->force_shim;
	o->ptxas = c->ptxas;
	memcpy(o->assume_block, c->assume_block, sizeof o->assume_block);
	return 0;
}

/* The files' analyses, one child each (util/workpool.h). */
typedef struct fjobs {
	const ka_analyze_opts *o;
	const char **files;
	sqlite3 *db;
	int *status;
	int stop;                 /* an input error: the files after it are not analysed */
	sqlite3_int64 diag_shown; /* the last diag row printed: a file's errors are its own rows */
} fjobs;

/* What ka_analyze_file said of a file, printed by the parent: a parse
 * failure prints the clang errors of this file's rows only (the rows after
 * the last one any earlier file left). */
static void fjob_report(fjobs *f, int rc, const char *err)
{
	sqlite3_stmt *s;
	if (rc == KA_EPARSE) {
		if (sqlite3_prepare_v2(f->db,
				       "SELECT file, line, col, severity, message FROM diag "
				       "WHERE severity <> 'warning' AND rowid > ?1 ORDER BY rowid",
				       -1, &s, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(s, 1, f->diag_shown);
			while (sqlite3_step(s) == SQLITE_ROW)
				print_diag(s);
			sqlite3_finalize(s);
		}
		*f->status = KA_EXIT_ERROR;
	} else if (rc != KA_OK) {
		fprintf(stderr, "kcheck: error: %s\n", err);
		*f->status = KA_EXIT_ERROR;
		if (rc == KA_EINPUT)
			f->stop = 1;
	}
	if (sqlite3_prepare_v2(f->db, "SELECT coalesce(max(rowid), 0) FROM diag", -1, &s, NULL) ==
	    SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			f->diag_shown = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
}

/* In the child: analyse file i into the inherited database and send back
 * the status, the message and the whole database. */
static int fjob_run(void *ctx, int i, ka_buf *out)
{
	fjobs *f = ctx;
	if (f->stop)
		return ka_wire_int(out, -1);
	ka_analyze_no_crash_recovery(); /* a crash is this process's end, and the parent's news */
	int rc = ka_analyze_file(f->o, f->files[i], f->db);
	sqlite3_int64 n = 0;
	unsigned char *bytes = sqlite3_serialize(f->db, "main", &n, 0);
	if (!bytes)
		return KA_ENOMEM;
	int w = ka_wire_int(out, rc);
	w = w ? w : ka_wire_str(out, rc == KA_OK ? "" : ka_error_last());
	w = w ? w : ka_wire_bytes(out, bytes, (size_t)n);
	sqlite3_free(bytes);
	return w;
}

static int fjob_take(void *ctx, int i, const char *p, size_t n)
{
	fjobs *f = ctx;
	(void)i;
	ka_wire_in in = {.p = p, .left = n};
	long long rc = ka_wire_get_int(&in);
	if (rc == -1 && !in.bad && in.left == 0)
		return 1; /* skipped after an input error */
	char *err = ka_wire_get_str(&in);
	size_t len = 0;
	const char *db = ka_wire_get_view(&in, &len); /* copied once, into SQLite's own memory */
	int ok = !in.bad && in.left == 0 && err && db && len > 0;
	unsigned char *copy = ok ? sqlite3_malloc64(len) : NULL;
	if (copy) {
		memcpy(copy, db, len);
		ok = sqlite3_deserialize(f->db, "main", copy, (sqlite3_int64)len, (sqlite3_int64)len,
					 SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) ==
		     SQLITE_OK;
	} else {
		ok = 0;
	}
	if (ok)
		fjob_report(f, (int)rc, err);
	free(err);
	return ok;
}

static void fjob_fail(void *ctx, int i, const char *why)
{
	fjobs *f = ctx;
	fprintf(stderr, "kcheck: error: %s: %s\n", f->files[i], why);
	*f->status = KA_EXIT_ERROR;
}

static void fjob_here(void *ctx, int i)
{
	fjobs *f = ctx;
	if (f->stop)
		return;
	int rc = ka_analyze_file(f->o, f->files[i], f->db);
	fjob_report(f, rc, rc == KA_OK ? "" : ka_error_last());
}

/* Analyze files into one facts database and write it out. */
static int facts_run(const ka_analyze_opts *op, const ka_tool_cfg *lim, const char **files, int nfiles,
		     const char *out, int format, int print)
{
	ka_analyze_opts o = *op;
	if (print)
		return print_args(&o, files[0]);
	if (ka_fs_output_is_input("-o", out, files, nfiles) != KA_OK) { /* before anything is written */
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	}
	sqlite3 *db;
	if (ka_facts_open(&db) != KA_OK) {
		fprintf(stderr, "kcheck: error: %s\n", ka_error_last());
		return KA_EXIT_ERROR;
	}
	int status = KA_EXIT_CLEAN;
	fjobs fj = {.o = &o, .files = files, .db = db, .status = &status};
	ka_workpool wp = {.njobs = nfiles,
			  .parallel = 1, /* each file starts from the database the ones before it left */
			  .memory_mb = lim->file_memory_mb > 0 ? lim->file_memory_mb : KA_LINT_FILE_MEMORY_MB,
			  .timeout_s = lim->file_timeout_s > 0 ? lim->file_timeout_s : KA_LINT_FILE_TIMEOUT_S,
			  .what = "the analysis",
			  .memory_opt = "--file-memory",
			  .timeout_opt = "--file-timeout",
			  .ctx = &fj,
			  .run = fjob_run,
			  .take = fjob_take,
			  .fail = fjob_fail,
			  .here = fjob_here};
	ka_workpool_run(&wp);
	int rc = format == KA_FACTS_JSON ? write_json(db, out) : write_sqlite(db, out);
	if (rc != KA_OK) {
		fprintf(stderr, "kcheck: error: %s\n", ka_error_last());
		status = KA_EXIT_ERROR;
	}
	sqlite3_close(db);
	return status;
}

int ka_tool_facts(int argc, char **argv)
{
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	ka_tool_cfg c = {.arena = ka_arena_new()};
	int rc = facts_args(&c, argc, argv, &o);
	if (rc || !c.arena) {
		ka_arena_free(c.arena);
		return rc < 0 ? KA_EXIT_CLEAN : rc ? rc : KA_EXIT_ERROR;
	}
	rc = facts_run(&o, &c, c.paths, c.npaths, c.output, c.facts_format, c.print_clang_args);
	ka_arena_free(c.arena);
	return rc;
}
