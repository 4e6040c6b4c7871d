/* tests/agents/test_recipe_flags.c: the file's compiler flags reach the
 * kernel model the recipes build.  A kernel whose types come from a header
 * found through -I, and whose header needs a -D, is modelled only when the
 * flags are given: without them the recipe declines naming the model, with
 * them (in clang's and nvcc's spellings, an angle-bracket include too) it
 * applies, and the rewrite compiles with nvcc under the same flags.  The
 * offline coder takes them from its request (what `kcheck optimize` hands
 * it).  A file that uses what the shim headers lack is modelled through
 * the CUDA toolkit's headers, where they are installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agents/coder.h"
#include "analyzer/frontend.h"
#include "recipes/recipe.h"
#include "tests/agents/recipe_nvcc.h"
#include "util/error.h"
#include "util/fs.h"

static char dir[] = "/tmp/ka_flags_XXXXXX";
static char inc[64], hdr[96];

/* the index is not the first statement, so grid-stride reads the kernel
 * from the model, which needs real_t */
#define KERNEL(INCLUDE) \
	INCLUDE "\n__global__ void k(real_t *y, const real_t *x, int n)\n{\n" \
		"\tconst real_t two = 2;\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
		"\tif (i < n)\n\t\ty[i] = two * x[i];\n}\n" \
		"void h(real_t *y, const real_t *x, int n)\n{\n\tk<<<(n + 255) / 256, 256>>>(y, x, n);\n}\n"
static const char quoted[] = KERNEL("#include \"proj.h\"");
static const char angled[] = KERNEL("#include <proj.h>");

static int setup(void **st)
{
	(void)st;
	if (!mkdtemp(dir))
		return -1;
	snprintf(inc, sizeof inc, "%s/inc", dir);
	snprintf(hdr, sizeof hdr, "%s/proj.h", inc);
	static const char h[] = "#ifdef REAL\ntypedef REAL real_t;\n#endif\n";
	if (mkdir(inc, 0777) || ka_fs_write_atomic(hdr, h, strlen(h)))
		return -1;
	ka_recipe_set_source_path(NULL); /* the header is found through the flags only */
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	unlink(hdr);
	rmdir(inc);
	rmdir(dir);
	ka_recipe_set_flags(NULL, 0);
	ka_recipe_kmodel_forget();
	return 0;
}

static int apply(const char *src, char **out, char *why, size_t cap)
{
	size_t n;
	*out = NULL;
	return ka_recipe_apply("grid-stride", src, strlen(src), "k", NULL, out, &n, why, cap);
}

/* the recipe applies with flags[0..n), and its rewrite compiles with them */
static void expect_applies(const char *src, const char *const *flags, int n)
{
	char why[256], err[8192], *out;
	ka_recipe_set_flags(flags, n);
	if (apply(src, &out, why, sizeof why) != KA_OK)
		fail_msg("grid-stride declined with %d flags:\n%s\nwhy: %s", n, src, why);
	if (!strstr(out, "two * x[") || !strstr(out, "gridDim.x"))
		fail_msg("not a grid-stride rewrite:\n%s", out);
	if (nvcc_compiles_with(out, flags, n, err, sizeof err) == 0)
		fail_msg("the rewrite does not compile:\n%s\n%s", out, err);
	free(out);
}

static void expect_no_model(const char *src, const char *const *flags, int n)
{
	char why[256], *out;
	ka_recipe_set_flags(flags, n);
	assert_int_equal(apply(src, &out, why, sizeof why), KA_RECIPE_DECLINED);
	if (!strstr(why, "kernel model could not be built"))
		fail_msg("the reason '%s' does not name the model", why);
}

static void test_flags_reach_model(void **st)
{
	(void)st;
	expect_no_model(quoted, NULL, 0); /* the include is blanked: no real_t */
	const char *no_d[] = {"-I", inc};
	expect_no_model(quoted, no_d, 2); /* no -DREAL: no real_t */
	const char *clang_style[] = {"-I", inc, "-DREAL=float"};
	expect_applies(quoted, clang_style, 3);
	char joined[128], eq[128];
	snprintf(joined, sizeof joined, "-I%s", inc);
	snprintf(eq, sizeof eq, "--include-path=%s", inc);
	const char *nvcc_style[] = {eq, "-D", "REAL=float", "-std=c++17", "-x", "cu"};
	expect_applies(quoted, nvcc_style, 6);
	const char *angle[] = {joined, "--define-macro", "REAL=float"};
	expect_applies(angled, angle, 3);
	expect_no_model(angled, NULL, 0); /* cleared again */
}

/* the offline coder sets the flags from its request */
static void test_coder_request_flags(void **st)
{
	(void)st;
	ka_coder_opts o = KA_CODER_OPTS_INIT;
	ka_coder *c = NULL;
	assert_int_equal(ka_coder_new(&c, &o), KA_OK);
	const char *flags[] = {"-I", inc, "-DREAL=float"};
	ka_coder_request req = {.path = "kernel.cu",
				.source = quoted,
				.source_len = strlen(quoted),
				.kernel = "k",
				.strategy = "grid-stride"};
	ka_coder_reply rep = {0};
	ka_recipe_set_flags(flags, 3); /* the request's NULL must clear these */
	assert_int_not_equal(ka_coder_propose(c, &req, &rep), KA_OK);
	if (!strstr(ka_error_last(), "kernel model could not be built"))
		fail_msg("no flags: '%s'", ka_error_last());
	ka_recipe_set_flags(NULL, 0);
	req.flags = flags;
	req.nflags = 3;
	if (ka_coder_propose(c, &req, &rep) != KA_OK)
		fail_msg("the coder declined with the request's flags: %s", ka_error_last());
	assert_non_null(strstr(rep.source, "gridDim.x"));
	ka_coder_reply_clear(&rep);
	ka_coder_free(c);
	ka_recipe_set_flags(NULL, 0);
}

/* the shim has no texture objects: the toolkit's headers model this file */
static void test_toolkit_fallback(void **st)
{
	(void)st;
	ka_frontend_opts fo = {.lang = "cuda"};
	if (ka_frontend_uses_shim(&fo)) {
		fprintf(stderr, "SKIP: no CUDA toolkit headers: the fallback to them is not tested\n");
		skip();
	}
	static const char src[] =
		"#include <cuda_runtime.h>\n"
		"__global__ void k(float *y, const float *x, int n, cudaTextureObject_t tex)\n{\n"
		"\tconst float two = 2.0f;\n\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		"\tif (i < n)\n\t\ty[i] = two * x[i];\n}\n"
		"void h(float *y, const float *x, int n, cudaTextureObject_t t)\n{\n"
		"\tk<<<(n + 255) / 256, 256>>>(y, x, n, t);\n}\n";
	char why[256], err[8192], *out;
	ka_recipe_set_flags(NULL, 0);
	if (apply(src, &out, why, sizeof why) != KA_OK)
		fail_msg("grid-stride declined: %s", why);
	assert_non_null(strstr(out, "gridDim.x"));
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("the rewrite does not compile:\n%s\n%s", out, err);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_reach_model),
		cmocka_unit_test(test_coder_request_flags),
		cmocka_unit_test(test_toolkit_fallback),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
