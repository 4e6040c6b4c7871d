/* tests/agents/recipe_nvcc.h: the compile check the recipe tests share. */
#ifndef KA_TESTS_AGENTS_RECIPE_NVCC_H
#define KA_TESTS_AGENTS_RECIPE_NVCC_H
#include <stddef.h>

/* nvcc -arch=sm_90 -c on the candidate text, with the bench harness's
 * include folder (bench/harness, KA_SOURCE_DIR) on the path; 1 compiled,
 * 0 not (nvcc's output into err), -1 no nvcc. */
int nvcc_compiles(const char *text, char *err, size_t cap);
/* The same with the compiler flags flags[0..n) after the harness's -I
 * (at most 16; a project's -I and -D).  Not cached: the flags can name
 * headers the cache's key does not read. */
int nvcc_compiles_with(const char *text, const char *const *flags, int n, char *err, size_t cap);

#endif
