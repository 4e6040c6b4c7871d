/* tests/agents/recipe_nvcc.h: the compile check, the apply-and-check and
 * decline-and-check helpers (cmocka) and the host run the recipe tests share. */
#ifndef KA_TESTS_AGENTS_RECIPE_NVCC_H
#define KA_TESTS_AGENTS_RECIPE_NVCC_H
#include <stddef.h>

/* The text of bench/tasks/TASK/baseline.cu (malloc'd); its path into
 * path[0..cap) when path is not NULL.  A file that cannot be read ends the
 * test program with a message and status 1. */
char *read_task_baseline(const char *task, char *path, size_t cap);

/* nvcc -arch=sm_90 -cubin on the candidate text, with the bench harness's
 * include folder (bench/harness, KA_SOURCE_DIR) on the path; 1 compiled,
 * 0 not (nvcc's output into err), -1 no nvcc. */
int nvcc_compiles(const char *text, char *err, size_t cap);
/* The same with the compiler flags flags[0..n) after the harness's -I
 * (at most 16; a project's -I and -D).  Not cached: the flags can name
 * headers the cache's key does not read. */
int nvcc_compiles_with(const char *text, const char *const *flags, int n, char *err, size_t cap);
/* The recipe tests' two checks, failing the running cmocka test with the
 * reason.  recipe_applies: recipe (params NULL: its grid's first set)
 * applies to kernel of src, the rewrite holds every want[0..nwant) and nvcc
 * compiles it (when nvcc is there); the rewrite, malloc'd.
 * recipe_declines: the recipe declines, its reason saying `reason`. */
char *recipe_applies(const char *recipe, const char *params, const char *src, const char *kernel,
		     const char *const *want, size_t nwant);
void recipe_declines(const char *recipe, const char *params, const char *src, const char *kernel,
		     const char *reason);
/* Runs a rewrite on the host (tests/agents/emu: the task ABI and the CUDA
 * names in C++): text as kernel.cu, its launches `k<<<G, B, ...>>>(args)`
 * written `ka_emu_launch(k, G, B, ...)(args)`, built with c++ ($CXX) and
 * driver tests/agents/emu/main_cpp, which checks every output element and
 * exits 0 when all match.  1 it passed, 0 it did not build or failed (the
 * compiler's or the driver's output into log; $KA_TEST_DUMP: the driver's
 * output to stderr also when it passed), -1 no C++ compiler.  A pass is
 * remembered in $KA_TEST_NVCC_CACHE with the driver's output, which a later
 * call with the same compiler, flags, emulator folder and text gets back. */
int host_run(const char *text, const char *main_cpp, char *log, size_t cap);
/* The original `before` and its rewrite `after` on the host with driver
 * main_cpp: the test is skipped without a C++ compiler, and fails unless
 * both run exact. */
void host_runs_exact(const char *main_cpp, const char *before, const char *after);
/* The same with compiler definitions defs[0..ndefs) (at most 8, e.g.
 * "-DKA_EMU_TASK=2", for a driver that serves several kernels). */
int host_run_defs(const char *text, const char *main_cpp, const char *const *defs, int ndefs, char *log,
		  size_t cap);

#endif
