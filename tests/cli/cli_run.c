/* tests/cli/cli_run.c: helpers that run the kcheck binary (see cli_run.h)
 * and the test binary's main(). */
#define _XOPEN_SOURCE 700
#include "cli_run.h"
#include <ftw.h>
#include <sys/wait.h>
#include <unistd.h>

char *cli_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

void cli_write(const char *dir, const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

char *cli_tmpdir(void)
{
	char *t = strdup("/tmp/ka-test-cli-XXXXXX");
	assert_non_null(mkdtemp(t));
	return t;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

void cli_rmtree(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

cli_result cli_run(const char *cwd, const char *extra_env, const char *fmt, ...)
{
	cli_result r = {-1, NULL, NULL};
	char args[8192], cmd[16384], out[] = "/tmp/ka-cli-out-XXXXXX", err[] = "/tmp/ka-cli-err-XXXXXX";
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	int fo = mkstemp(out), fe = mkstemp(err);
	assert_true(fo >= 0 && fe >= 0);
	close(fo);
	close(fe);
	/* stdin is empty unless the arguments redirect it (kcheck - < FILE) */
	snprintf(cmd, sizeof cmd, "cd '%s' && %s '%s' %s >'%s' 2>'%s' %s", cwd ? cwd : ".",
		 extra_env ? extra_env : "", KCHECK, args, out, err, strstr(args, " < ") ? "" : "</dev/null");
	int st = system(cmd);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	r.out = cli_read(out);
	r.err = cli_read(err);
	unlink(out);
	unlink(err);
	return r;
}

void cli_free(cli_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

int main(void)
{
#if defined(KA_CLI_FRONTEND_ONLY)
	int failed = run_frontend_tests();
#elif defined(KA_CLI_FIXLLM_ONLY)
	int failed = run_fixllm_tests();
#elif defined(KA_CLI_KNOWLEDGE_ONLY)
	int failed = run_knowledge_cli_tests();
#else
	int failed = run_cli_tests();
	failed += run_lint_tests();
	failed += run_config_tests();
	failed += run_output_tests();
#endif
	return failed ? 1 : 0;
}
