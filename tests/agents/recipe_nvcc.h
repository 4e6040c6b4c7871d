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
/* Runs text on the host: the launches `k<<<G, B, ...>>>(args)` written
 * `ka_emu_launch(k, G, B, ...)(args)`, compiled with C++ ($CXX or c++)
 * against tests/agents/emu (the task ABI and the CUDA names in C++,
 * threads one after another) and driver tests/agents/emu/MAIN_CPP, which
 * includes "kernel.cu" and checks every output element.  1 the driver
 * passed, 0 not (why into err; the driver's output on stderr), -1 no C++
 * compiler. */
int host_run(const char *text, const char *main_cpp, char *err, size_t cap);

#endif
