/* tests/util/test_util.h: the groups of the util unit tests. */
#ifndef KA_TEST_UTIL_H
#define KA_TEST_UTIL_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

int run_fs_tests(void);
int run_mem_tests(void);
int run_embed_tests(void);
int run_proc_tests(void);
int run_shsafe_tests(void);
int run_utf8_tests(void);
int run_wire_tests(void);
int run_ccdiag_tests(void);
int run_sha256_tests(void);
int run_cmdopt_tests(void);
/* A fresh folder under /tmp (malloc'ed) and its removal. */
char *tu_tmpdir(void);
void tu_rmtree(const char *dir);
char *tu_path(const char *dir, const char *name);

#endif
