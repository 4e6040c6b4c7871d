/* tests/cli/cli_run.h: run the built kcheck binary and capture what it
 * prints, for the command-line tests (test_cli.c, test_lint.c, and
 * tests/knowledge/test_kdb_cli.c). */
#ifndef KA_TEST_CLI_RUN_H
#define KA_TEST_CLI_RUN_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KCHECK
#error "KCHECK must name the kcheck binary"
#endif
#ifndef FIXTURES
#error "FIXTURES must name tests/cli/fixtures"
#endif

typedef struct cli_result {
	int status; /* exit status, or -1 */
	char *out;  /* stdout */
	char *err;  /* stderr */
} cli_result;

/* Run `kcheck ARGS` through sh in folder cwd (NULL = the current one),
 * stdin /dev/null unless ARGS redirect it (" < FILE");
 * extra_env like "NO_COLOR=1" or NULL. */
cli_result cli_run(const char *cwd, const char *extra_env, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void cli_free(cli_result *r);
/* A fresh temporary folder (caller removes it with cli_rmtree). */
char *cli_tmpdir(void);
void cli_rmtree(const char *dir);
void cli_write(const char *dir, const char *name, const char *text);
char *cli_read(const char *path);

int run_cli_tests(void);
int run_lint_tests(void);
int run_frontend_tests(void);
int run_config_tests(void);
int run_output_tests(void);
int run_fixllm_tests(void);
int run_knowledge_cli_tests(void); /* tests/knowledge/test_kdb_cli.c */

#endif
