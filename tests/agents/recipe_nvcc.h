/* tests/agents/recipe_nvcc.h: the compile check the recipe tests share. */
#ifndef KA_TESTS_AGENTS_RECIPE_NVCC_H
#define KA_TESTS_AGENTS_RECIPE_NVCC_H
#include <stddef.h>

/* nvcc -arch=sm_90 -c on the candidate text, with the bench harness's
 * include folder (bench/harness, KA_SOURCE_DIR) on the path; 1 compiled,
 * 0 not (nvcc's output into err), -1 no nvcc. */
int nvcc_compiles(const char *text, char *err, size_t cap);

#endif
