/* tests/analyzer/test_flags.c: user compiler flags -> parser flags
 * (analyzer/frontend_flags.c): nvcc's spelling translated, the allow-list
 * applied, relative paths and response files resolved.  No parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analyzer/frontend.h"

/* The translated flags joined by single spaces. */
static char *run(ka_arena *a, const char *dir, ka_flags *fl, int n, ...)
{
	const char *in[64];
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		in[i] = va_arg(ap, const char *);
	va_end(ap);
	assert_int_equal(ka_frontend_flags(a, in, n, dir, fl), 0);
	size_t len = 1;
	for (int i = 0; i < fl->n; i++)
		len += strlen(fl->v[i]) + 1;
	char *s = ka_arena_alloc(a, len);
	s[0] = '\0';
	for (int i = 0; i < fl->n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, fl->v[i]);
	}
	return s;
}

static void allow_list_drops_dangerous_flags(void **state)
{
	(void)state;
	ka_arena *a = ka_arena_new();
	ka_flags fl;
	assert_string_equal(run(a, NULL, &fl, 22, "-Wp,-MD,/tmp/x", "-Wa,-adhln=/tmp/y", "-Wl,-rpath,/z",
				"-Xpreprocessor", "-MD", "-MD", "-MMD", "-MF", "/tmp/dep", "-o", "/tmp/out.o",
				"-Xclang", "-load", "-Xclang", "/tmp/plugin.so", "-fplugin=/tmp/p.so",
				"-Werror", "-Werror=vla", "-ccbin", "./evil", "-Wall",
				"-Wno-unused-variable"),
			    "-Wall -Wno-unused-variable");
	/* values of skipped options are never read as options */
	assert_string_equal(run(a, NULL, &fl, 4, "-MT", "-DEVIL", "-o", "-Iinc"), "");
	ka_arena_free(a);
}

static void nvcc_spelling_translated(void **state)
{
	(void)state;
	ka_arena *a = ka_arena_new();
	ka_flags fl;
	assert_string_equal(
		run(a, "/proj/build", &fl, 20, "-gencode", "arch=compute_80,code=sm_80",
		    "-gencode=arch=compute_90,code=[sm_90,compute_90]", "--expt-relaxed-constexpr",
		    "--extended-lambda", "-Xcompiler", "-fPIC,-DHOST=1,-Wextra", "-rdc=true",
		    "--use_fast_math", "-std", "c++17", "-I", "../include", "-Isrc", "-isystem",
		    "/opt/x/include", "--define-macro=N=4", "-UNDEBUG", "-include", "pre.h"),
		"-DHOST=1 -Wextra -fgpu-rdc -ffast-math -std=c++17 -I/proj/build/../include "
		"-I/proj/build/src -isystem /opt/x/include -DN=4 -UNDEBUG -include /proj/build/pre.h");
	assert_string_equal(fl.arch, "sm_80"); /* the first target named */
	assert_int_equal(fl.hip, 0);
	run(a, NULL, &fl, 1, "--gpu-architecture=compute_75");
	assert_string_equal(fl.arch, "sm_75");
	run(a, NULL, &fl, 2, "-arch", "native");
	assert_null(fl.arch);
	run(a, NULL, &fl, 3, "--offload-arch=gfx942", "-x", "hip");
	assert_string_equal(fl.arch, "gfx942");
	assert_int_equal(fl.hip, 1);
	assert_int_equal(fl.cuda, 0);
	run(a, NULL, &fl, 2, "-x", "cuda"); /* said so: CUDA whatever the file includes */
	assert_int_equal(fl.cuda, 1);
	assert_string_equal(run(a, NULL, &fl, 2, "-D", "__HIP_PLATFORM_NVIDIA__"),
			    "-D__HIP_PLATFORM_NVIDIA__");
	assert_int_equal(fl.cuda, 1); /* HIP through its CUDA back end */
	run(a, NULL, &fl, 1, "-D__HIP_PLATFORM_NVCC__=1");
	assert_int_equal(fl.cuda, 1);
	run(a, NULL, &fl, 1, "-D__HIP_PLATFORM_AMD__");
	assert_int_equal(fl.cuda, 0);
	ka_arena_free(a);
}

static void response_files(void **state)
{
	(void)state;
	char dir[] = "/tmp/ka-flags-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char p[256];
	snprintf(p, sizeof p, "%s/outer.rsp", dir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("-DOUTER \"-DQUOTED=a b\" @inner.rsp -Wp,-MD,/tmp/never\n", f);
	fclose(f);
	snprintf(p, sizeof p, "%s/inner.rsp", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("-Iinc @inner.rsp\n", f); /* includes itself: stops at the depth limit */
	fclose(f);
	ka_arena *a = ka_arena_new();
	ka_flags fl;
	char *s = run(a, dir, &fl, 1, "@outer.rsp");
	char want[512];
	snprintf(want, sizeof want, "-DOUTER -DQUOTED=a b -I%s/inc", dir);
	assert_int_equal(strncmp(s, want, strlen(want)), 0);
	assert_null(strstr(s, "-Wp"));
	assert_null(strstr(s, "/tmp/never"));
	run(a, dir, &fl, 1, "@missing.rsp");
	assert_int_equal(fl.n, 0);
	ka_arena_free(a);
	snprintf(p, sizeof p, "%s/inner.rsp", dir);
	unlink(p);
	snprintf(p, sizeof p, "%s/outer.rsp", dir);
	unlink(p);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(allow_list_drops_dangerous_flags),
		cmocka_unit_test(nvcc_spelling_translated),
		cmocka_unit_test(response_files),
	};
	return cmocka_run_group_tests_name("analyzer_flags", tests, NULL, NULL);
}
