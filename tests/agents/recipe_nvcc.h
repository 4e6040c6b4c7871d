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

/* Runs text on the host (tests/agents/emu: the task ABI and the CUDA names
 * in C++) through the driver tests/agents/emu/DRIVER, which includes it as
 * kernel.cu; the launches `k<<<G, B, ...>>>(args)` are written
 * `ka_emu_launch(k, G, B, ...)(args)`.  defs: -D flags for the driver (at
 * most 8).  The program's output into out (a ka_buf *, NUL-terminated).
 * 1 it built and exited 0, 0 it did not (the compiler's or the program's
 * output in out), -1 no C++ compiler (c++ or $CXX). */
int emu_run(const char *text, const char *driver, const char *const *defs, int ndefs, void *out);

#endif
