/* tests/golden/golden_check.c: the analyzer's golden-test runner.
 *
 * Sits after `kcheck facts`: for each annotated kernel file it runs
 *   KCHECK facts FILE --format sqlite -o TMP/facts.db [golden-args]
 * and evaluates the file's expectations, trailing comments of the form
 *   // expect: <SQL returning exactly one row, one column> => <value>
 * against that database (`=> NULL` expects SQL NULL).  An optional line
 *   // golden-args: --arch gfx942
 * appends arguments to the kcheck command.  It prints `PASS file` or one
 * `FAIL file:line: query => got X, want Y` per failed expectation and ends
 * with `N passed, M failed` (expectations); the exit status is 1 when
 * anything failed, 2 on a usage or setup error.  A kcheck run that takes
 * longer than GOLDEN_TIMEOUT seconds (default 120) is killed and fails.
 *
 * Usage: golden_check [-k] KCHECK FILE_OR_DIR...   (-k keeps the databases)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_LINE 4096
#define MAX_ARGS 32
#define MAX_FILES 1024

struct tally {
	int passed, failed;
	int keep;
	const char *kcheck;
	char tmpdir[256];
};

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && strcmp(s + n - m, suf) == 0;
}

static int is_kernel_file(const char *name)
{
	return has_suffix(name, ".cu") || has_suffix(name, ".hip") || has_suffix(name, ".cuh");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect the kernel files of a directory, sorted, into out[]; returns count. */
static int list_dir(const char *dir, char **out, int cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < cap) {
		size_t len;
		if (!is_kernel_file(e->d_name))
			continue;
		len = strlen(dir) + strlen(e->d_name) + 2;
		out[n] = malloc(len);
		if (!out[n])
			break;
		snprintf(out[n], len, "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	qsort(out, (size_t)n, sizeof(*out), cmp_str);
	return n;
}

static void trim(char *s)
{
	size_t n = strlen(s);
	char *p = s;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	memmove(s, p, strlen(p) + 1);
}

/* Split "golden-args:" text into argv entries appended at args[*n]. */
static void add_args(char *text, char **args, int *n, int cap)
{
	char *save = NULL;
	char *tok = strtok_r(text, " \t\r\n", &save);

	while (tok && *n < cap) {
		args[(*n)++] = strdup(tok);
		tok = strtok_r(NULL, " \t\r\n", &save);
	}
}

/* Seconds one kcheck run may take: GOLDEN_TIMEOUT, default 120. */
static unsigned timeout_s(void)
{
	const char *e = getenv("GOLDEN_TIMEOUT");
	int v = e ? atoi(e) : 0;

	return v > 0 ? (unsigned)v : 120;
}

/* Run kcheck on path writing db; its output goes to log. 0 when it exited 0. */
static int run_kcheck(struct tally *t, const char *path, const char *db, const char *log, char **extra,
		      int nextra)
{
	char *argv[MAX_ARGS + 8];
	int argc = 0, status = 0, i;
	pid_t pid;

	argv[argc++] = (char *)t->kcheck;
	argv[argc++] = "facts";
	argv[argc++] = (char *)path;
	argv[argc++] = "--format";
	argv[argc++] = "sqlite";
	argv[argc++] = "-o";
	argv[argc++] = (char *)db;
	for (i = 0; i < nextra; i++)
		argv[argc++] = extra[i];
	argv[argc] = NULL;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		alarm(timeout_s()); /* survives execv: a hung kcheck dies of SIGALRM */
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0); /* 142: timed out */
}

/* First line of the kcheck log, for the failure message. */
static void first_log_line(const char *log, char *out, size_t cap)
{
	FILE *f = fopen(log, "r");

	out[0] = '\0';
	if (!f)
		return;
	if (fgets(out, (int)cap, f))
		trim(out);
	fclose(f);
}

/* Evaluate query; writes the single value as text into got.  0 = ok, else
 * got holds a description of what went wrong. */
static int eval_query(sqlite3 *db, const char *sql, char *got, size_t cap)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(got, cap, "SQL error: %s", sqlite3_errmsg(db));
		goto out;
	}
	if (sqlite3_step(st) != SQLITE_ROW) {
		snprintf(got, cap, "no row");
		goto out;
	}
	if (sqlite3_column_type(st, 0) == SQLITE_NULL)
		snprintf(got, cap, "NULL");
	else
		snprintf(got, cap, "%s", (const char *)sqlite3_column_text(st, 0));
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(got, cap, "more than one row");
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/* Text equality, or numeric equality when both sides are numbers. */
static int values_match(const char *got, const char *want)
{
	char *e1, *e2;
	double a, b;

	if (strcmp(got, want) == 0)
		return 1;
	if (!*got || !*want)
		return 0;
	a = strtod(got, &e1);
	b = strtod(want, &e2);
	return *e1 == '\0' && *e2 == '\0' && a == b;
}

/* Check one "expect:" body (query => value) from line ln; 1 when it passed. */
static int check_expect(sqlite3 *db, const char *path, int ln, char *body)
{
	char got[512];
	char *arrow = NULL, *p = body;
	char *want;

	while ((p = strstr(p, "=>"))) {
		arrow = p;
		p += 2;
	}
	if (!arrow) {
		printf("FAIL %s:%d: malformed expectation (no `=>`)\n", path, ln);
		return 0;
	}
	*arrow = '\0';
	want = arrow + 2;
	trim(want);
	trim(body);
	if (eval_query(db, body, got, sizeof(got)) == 0 && values_match(got, want))
		return 1;
	printf("FAIL %s:%d: %s => got %s, want %s\n", path, ln, body, got, want);
	return 0;
}

/* Read the file's expectations and golden-args; returns lines read or -1. */
static int read_annotations(const char *path, char ***exp, int **exp_ln, int *nexp, char **args, int *nargs)
{
	FILE *f = fopen(path, "r");
	char line[MAX_LINE];
	int ln = 0;

	*nexp = 0;
	*nargs = 0;
	*exp = NULL;
	*exp_ln = NULL;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *c;
		ln++;
		if ((c = strstr(line, "// golden-args:"))) {
			add_args(c + strlen("// golden-args:"), args, nargs, MAX_ARGS);
			continue;
		}
		c = strstr(line, "// expect:");
		if (!c)
			continue;
		*exp = realloc(*exp, sizeof(char *) * (size_t)(*nexp + 1));
		*exp_ln = realloc(*exp_ln, sizeof(int) * (size_t)(*nexp + 1));
		if (!*exp || !*exp_ln)
			break;
		(*exp)[*nexp] = strdup(c + strlen("// expect:"));
		(*exp_ln)[*nexp] = ln;
		(*nexp)++;
	}
	fclose(f);
	return ln;
}

static void check_file(struct tally *t, const char *path, int idx)
{
	char db_path[512], log_path[512], msg[512];
	char *args[MAX_ARGS], **exp = NULL;
	int *exp_ln = NULL, nexp = 0, nargs = 0, i, rc, failed = 0;
	sqlite3 *db = NULL;

	snprintf(db_path, sizeof(db_path), "%s/facts-%d.db", t->tmpdir, idx);
	snprintf(log_path, sizeof(log_path), "%s/kcheck-%d.log", t->tmpdir, idx);
	if (read_annotations(path, &exp, &exp_ln, &nexp, args, &nargs) < 0 || nexp == 0) {
		printf("FAIL %s:0: no `// expect:` annotations (or unreadable)\n", path);
		t->failed++;
		goto out;
	}
	rc = run_kcheck(t, path, db_path, log_path, args, nargs);
	if (rc != 0 || sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		first_log_line(log_path, msg, sizeof(msg));
		if (rc == 128 + SIGALRM)
			snprintf(msg, sizeof(msg), "timed out after %u s", timeout_s());
		printf("FAIL %s:0: kcheck facts exited %d: %s\n", path, rc, msg);
		t->failed += nexp;
		goto out;
	}
	for (i = 0; i < nexp; i++) {
		if (check_expect(db, path, exp_ln[i], exp[i])) {
			t->passed++;
		} else {
			t->failed++;
			failed++;
		}
	}
	if (!failed)
		printf("PASS %s (%d)\n", path, nexp);
	if (t->keep)
		printf("     facts: %s\n", db_path);
out:
	sqlite3_close(db);
	if (!t->keep) {
		unlink(db_path);
		unlink(log_path);
	}
	for (i = 0; i < nexp; i++)
		free(exp[i]);
	for (i = 0; i < nargs; i++)
		free(args[i]);
	free(exp);
	free(exp_ln);
}

/* Expand the file and directory arguments into a sorted list. */
static int collect(char **argv, int argc, char **files, int cap)
{
	int n = 0, i;

	for (i = 0; i < argc && n < cap; i++) {
		struct stat sb;
		if (stat(argv[i], &sb) != 0) {
			fprintf(stderr, "golden_check: error: %s: %s\n", argv[i], strerror(errno));
			return -1;
		}
		if (S_ISDIR(sb.st_mode)) {
			int k = list_dir(argv[i], files + n, cap - n);
			if (k < 0)
				return -1;
			n += k;
		} else {
			files[n++] = strdup(argv[i]);
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	struct tally t = {0};
	char *files[MAX_FILES];
	const char *tmp = getenv("TMPDIR");
	int argi = 1, n, i;

	if (argi < argc && strcmp(argv[argi], "-k") == 0) {
		t.keep = 1;
		argi++;
	}
	if (argc - argi < 2) {
		fprintf(stderr, "usage: golden_check [-k] KCHECK FILE_OR_DIR...\n");
		return 2;
	}
	t.kcheck = argv[argi++];
	if (access(t.kcheck, X_OK) != 0) {
		fprintf(stderr, "golden_check: error: %s is not executable\n", t.kcheck);
		return 2;
	}
	snprintf(t.tmpdir, sizeof(t.tmpdir), "%s/ka-golden-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(t.tmpdir)) {
		fprintf(stderr, "golden_check: error: mkdtemp: %s\n", strerror(errno));
		return 2;
	}
	n = collect(argv + argi, argc - argi, files, MAX_FILES);
	if (n <= 0) {
		if (n == 0)
			fprintf(stderr, "golden_check: error: no kernel files given\n");
		rmdir(t.tmpdir);
		return 2;
	}
	for (i = 0; i < n; i++) {
		check_file(&t, files[i], i);
		free(files[i]);
	}
	if (!t.keep)
		rmdir(t.tmpdir);
	printf("%d passed, %d failed\n", t.passed, t.failed);
	return t.failed ? 1 : 0;
}
