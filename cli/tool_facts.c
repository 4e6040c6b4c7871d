/* cli/tool_facts.c: `kcheck facts FILE... [--format json|sqlite] [-o OUT]`.
 * Dumps the analyzer's facts database for rule authors (docs/facts.md
 * documents every table).  Clang's errors in a file are printed and the
 * other files still analysed; the exit status is 2 when any file failed. */
#include "analyzer/analyzer.h"
#include "analyzer/frontend.h"
#include "facts/facts.h"
#include "cli/tools.h"
#include "rules/report.h"
#include "util/fs.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const tables[] = {"arch", "file", "diag", "kernel", "param", "access",
	"shared_array", "local_array", "constant_var", "loop", "branch", "barrier", "early_return",
	"atomic", "call", "literal", "launch", "divergent_warp_code", "reduction_loop", NULL};

static int usage(void)
{
	fputs("usage: kcheck facts FILE... [--format json|sqlite] [-o OUT] [--arch ARCH]\n"
	      "                    [--shim] [--ptxas] [--assume-block X[,Y[,Z]]]\n"
	      "                    [--print-clang-args] [-- FLAGS]\n", stderr);
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
			case SQLITE_INTEGER: v = json_integer(sqlite3_column_int64(s, i)); break;
			case SQLITE_FLOAT: v = json_real(sqlite3_column_double(s, i)); break;
			case SQLITE_TEXT: v = json_string((const char *)sqlite3_column_text(s, i)); break;
			default: v = json_null(); break;
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

static int write_sqlite(sqlite3 *db, const char *out)
{
	if (!out || strcmp(out, "-") == 0)
		return ka_error_set(KA_EINPUT, "--format sqlite needs -o FILE");
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", out, (long)getpid());
	unlink(tmp);
	char *sql = sqlite3_mprintf("VACUUM INTO %Q", tmp);
	char *err = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		rc = ka_error_set(KA_EIO, "cannot write %s: %s", out, err ? err : "?");
		sqlite3_free(err);
		unlink(tmp);
		return rc;
	}
	if (rename(tmp, out) != 0) {
		unlink(tmp);
		return ka_error_set(KA_EIO, "cannot write %s", out);
	}
	return KA_OK;
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
	ka_frontend_opts fo = {.lang = ka_lang_of_path(file), .arch = o->arch, .force_shim = o->force_shim,
	                       .extra = o->extra_args, .nextra = o->n_extra_args};
	ka_arena *a = ka_arena_new();
	const char **argv;
	int argc;
	ka_frontend_args(&fo, a, &argv, &argc);
	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "/kcheck-shim", 12) == 0 || (i && strcmp(argv[i - 1], "-isystem") == 0 &&
		    strcmp(argv[i], "/kcheck-shim") == 0))
			printf("%s%s", i ? " " : "", argv[i]);
		else
			printf("%s'%s'", i ? " " : "", argv[i]);
	}
	putchar('\n');
	ka_arena_free(a);
	return KA_EXIT_CLEAN;
}

int ka_tool_facts(int argc, char **argv)
{
	ka_analyze_opts o = KA_ANALYZE_OPTS_INIT;
	const char *format = "json", *out = NULL;
	const char **files = calloc((size_t)argc + 1, sizeof *files);
	int nfiles = 0, print = 0;
	if (!files)
		return KA_EXIT_ERROR;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			o.extra_args = (const char *const *)argv + i + 1;
			o.n_extra_args = argc - i - 1;
			break;
		} else if (strcmp(a, "--format") == 0 && i + 1 < argc) {
			format = argv[++i];
		} else if (strncmp(a, "--format=", 9) == 0) {
			format = a + 9;
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			out = argv[++i];
		} else if (strcmp(a, "--arch") == 0 && i + 1 < argc) {
			o.arch = argv[++i];
		} else if (strncmp(a, "--arch=", 7) == 0) {
			o.arch = a + 7;
		} else if (strcmp(a, "--shim") == 0) {
			o.force_shim = 1;
		} else if (strcmp(a, "--ptxas") == 0) {
			o.ptxas = 1;
		} else if (strcmp(a, "--print-clang-args") == 0) {
			print = 1;
		} else if ((strcmp(a, "--assume-block") == 0 && i + 1 < argc) ||
			   strncmp(a, "--assume-block=", 15) == 0) {
			const char *v = a[14] == '=' ? a + 15 : argv[++i];
			if (ka_tool_parse_block(v, o.assume_block) != 0) {  /* the lint's check */
				ka_tool_error("--assume-block: expected X[,Y[,Z]] with at most 1024 threads, got '%s'", v);
				free(files);
				return KA_EXIT_ERROR;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "kcheck: error: unknown option '%s' for facts\n", a);
			free(files);
			return usage();
		} else {
			files[nfiles++] = a;
		}
	}
	if (strcmp(format, "json") != 0 && strcmp(format, "sqlite") != 0) {
		fprintf(stderr, "kcheck: error: unknown --format '%s' for facts (json|sqlite)\n", format);
		free(files);
		return KA_EXIT_ERROR;
	}
	if (!nfiles) {
		free(files);
		return usage();
	}
	if (o.arch && !ka_arch_find(o.arch)) {
		fprintf(stderr, "kcheck: error: unknown --arch '%s'\n", o.arch);
		free(files);
		return KA_EXIT_ERROR;
	}
	if (print) {
		int r = print_args(&o, files[0]);
		free(files);
		return r;
	}
	sqlite3 *db;
	if (ka_facts_open(&db) != KA_OK) {
		fprintf(stderr, "kcheck: error: %s\n", ka_error_last());
		free(files);
		return KA_EXIT_ERROR;
	}
	int status = KA_EXIT_CLEAN;
	for (int i = 0; i < nfiles; i++) {
		int rc = ka_analyze_file(&o, files[i], db);
		if (rc == KA_EPARSE) {
			sqlite3_stmt *s;
			if (sqlite3_prepare_v2(db, "SELECT file, line, col, severity, message FROM diag "
			                       "WHERE severity <> 'warning'", -1, &s, NULL) == SQLITE_OK) {
				while (sqlite3_step(s) == SQLITE_ROW)
					print_diag(s);
				sqlite3_finalize(s);
			}
			status = KA_EXIT_ERROR;
		} else if (rc != KA_OK) {
			fprintf(stderr, "kcheck: error: %s\n", ka_error_last());
			status = KA_EXIT_ERROR;
			if (rc == KA_EINPUT)
				break;
		}
	}
	int rc = strcmp(format, "json") == 0 ? write_json(db, out) : write_sqlite(db, out);
	if (rc != KA_OK) {
		fprintf(stderr, "kcheck: error: %s\n", ka_error_last());
		status = KA_EXIT_ERROR;
	}
	sqlite3_close(db);
	free(files);
	return status;
}
