/* tests/agents/test_recipe_xfile.c: a kernel defined in a header and
 * launched from the .cu that includes it (ka_recipe_apply_via,
 * recipes/xfile.c).  The fixture is a small project in a temporary folder:
 * kernels/twice_kernel.cuh defines `twice` (out[j] = 2 in[j] + 1, one
 * element a thread), src/main.cu includes it through a -I folder and
 * launches it.  grid-stride and vectorize rewrite the kernel in the header
 * and its launch in main.cu; launch-tune only the launch.  Each pair is
 * compiled with nvcc (main.cu with the rewritten header on the path, and the
 * rewritten translation unit through the compile gate, when nvcc is there) and run on the host against the original
 * (tests/agents/emu/spread_main.cpp, the two files joined).  Declines: an
 * includer whose use of the kernel no launch reads (a function pointer),
 * another file of the project that launches it too, a .cu that does not
 * include the header, a header included twice; each reason names the file
 * and line.  The header reached through another header (all_kernels.cuh),
 * which comes back unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "recipes/recipe.h"
#include "rewriter/rewriter.h"
#include "tests/agents/recipe_nvcc.h"
#include "util/error.h"
#include "util/fs.h"

#define HEADER \
	"#ifndef TWICE_KERNEL_CUH\n#define TWICE_KERNEL_CUH\n" \
	"__global__ void twice(float *out, const float *in, int n)\n{\n" \
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
	"\tif (i < n)\n\t\tout[i] = 2.0f * in[i] + 1.0f;\n}\n#endif\n"
#define INCLUDE_LINE "#include \"twice_kernel.cuh\"\n"
#define MAIN(USE) \
	"#include <cstdio>\n" INCLUDE_LINE "\n" \
	"void spread_run(float *out, const float *in, int n)\n{\n" USE \
	"\ttwice<<<(n + 255) / 256, 256>>>(out, in, n);\n}\n"

static char root[256], outs[256], hdr[320], inc[320], kdir[300];

static void put(const char *path, const char *text)
{
	assert_int_equal(ka_fs_write_atomic(path, text, strlen(text)), KA_OK);
}

static void mkdirs(void)
{
	char p[320];
	snprintf(p, sizeof p, "%s/kernels", root);
	assert_int_equal(mkdir(p, 0777), 0);
	snprintf(p, sizeof p, "%s/src", root);
	assert_int_equal(mkdir(p, 0777), 0);
}

static int setup(void **st)
{
	(void)st;
	snprintf(root, sizeof root, "%s/ka-xfile-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	snprintf(outs, sizeof outs, "%s/ka-xfile-out-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root) || !mkdtemp(outs))
		return -1;
	mkdirs();
	snprintf(kdir, sizeof kdir, "%s/kernels", root);
	snprintf(hdr, sizeof hdr, "%s/twice_kernel.cuh", kdir);
	snprintf(inc, sizeof inc, "%s/src/main.cu", root);
	put(hdr, HEADER);
	const char *flags[] = {"-I", kdir};
	ka_recipe_set_flags(flags, 2);
	ka_recipe_set_source_path(inc);
	return 0;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", root, outs);
	ka_recipe_kmodel_forget();
	return system(cmd) == 0 ? 0 : -1;
}

/* The header and the includer's text from res (or the originals) as one
 * text for the host run: the header first, the include line dropped. */
static char *joined(const char *h, const char *m)
{
	const char *at = strstr(m, INCLUDE_LINE);
	assert_non_null(at);
	size_t n = strlen(h) + strlen(m) + 1;
	char *j = malloc(n);
	assert_non_null(j);
	snprintf(j, n, "%s%.*s%s", h, (int)(at - m), m, at + strlen(INCLUDE_LINE));
	return j;
}

/* main.cu as written, the recipe applied through it: the rewrite's two
 * texts (each must hold its wants), compiled and run. */
static void via_applies(const char *recipe, const char *const *hwant, int nh, const char *const *iwant,
			int ni, int header_changes)
{
	const char *m = MAIN("");
	put(inc, m);
	ka_recipe_via_out res;
	char why[384];
	int rc = ka_recipe_apply_via(recipe, "twice", NULL, hdr, HEADER, strlen(HEADER), inc, m, strlen(m),
				     root, &res, why, sizeof why);
	if (rc != KA_OK)
		fail_msg("%s declined through main.cu: %s", recipe, why);
	assert_int_equal(res.file_changed, header_changes);
	assert_int_equal(res.includer_changed, 1);
	for (int i = 0; i < nh; i++)
		if (!strstr(res.file_text, hwant[i]))
			fail_msg("the header's rewrite lacks '%s':\n%s", hwant[i], res.file_text);
	for (int i = 0; i < ni; i++)
		if (!strstr(res.includer_text, iwant[i]))
			fail_msg("the includer's rewrite lacks '%s':\n%s", iwant[i], res.includer_text);
	/* the include line stays, the rest of the includer before it too */
	assert_non_null(strstr(res.includer_text, "#include <cstdio>\n" INCLUDE_LINE));
	assert_null(strstr(res.file_text, "ka-xfile"));
	assert_null(strstr(res.includer_text, "ka-xfile"));
	if (!header_changes)
		assert_string_equal(res.file_text, HEADER);

	/* main.cu compiles with the rewritten header (and not the original's
	 * folder) on the path; outside the project, which is searched for the
	 * kernel's name */
	char ndir[320], nh_path[400], err[8192];
	snprintf(ndir, sizeof ndir, "%s/%s", outs, recipe);
	assert_int_equal(mkdir(ndir, 0777), 0);
	snprintf(nh_path, sizeof nh_path, "%s/twice_kernel.cuh", ndir);
	put(nh_path, res.file_text);
	const char *flags[] = {"-I", ndir};
	if (nvcc_compiles_with(res.includer_text, flags, 2, err, sizeof err) == 0)
		fail_msg("main.cu does not compile with both rewrites:\n%s\n%s\n%s", res.file_text,
			 res.includer_text, err);
	/* the compile gate on the rewritten translation unit, as main.cu */
	ka_gate_opts go = KA_GATE_OPTS_INIT;
	const char *gflags[] = {"-I", kdir};
	go.extra_args = gflags;
	go.n_extra_args = 2;
	char *gerr = NULL;
	char *cc = ka_gate_find_compiler(&go, inc);
	if (cc) {
		assert_non_null(strstr(res.unit_text, res.file_text));
		if (ka_gate_compile(&go, inc, res.unit_text, res.unit_len, &gerr) != KA_OK)
			fail_msg("the gate rejects the rewritten unit: %s\n%s", gerr ? gerr : "",
				 res.unit_text);
	}
	free(cc);
	free(gerr);
	char *before = joined(HEADER, m), *after = joined(res.file_text, res.includer_text);
	host_runs_exact("spread_main.cpp", before, after);
	free(before);
	free(after);
	ka_recipe_via_free(&res);
}

static void test_grid_stride(void **st)
{
	(void)st;
	static const char *const hw[] = {
		"for (long long ka_e = blockIdx.x * (long long)blockDim.x + threadIdx.x; ka_e < n;",
		"#ifndef TWICE_KERNEL_CUH"};
	static const char *const iw[] = {"twice<<<(unsigned)(((long long)(n) / 1 + 256) / 256 < 2112"};
	via_applies("grid-stride", hw, 2, iw, 1, 1);
}

static void test_vectorize(void **st)
{
	(void)st;
	static const char *const hw[] = {"float4", "reinterpret_cast<const float4 *>(in)"};
	static const char *const iw[] = {"twice<<<(unsigned)(((long long)(n) / 4 + 256) / 256 < 2112"};
	via_applies("vectorize", hw, 2, iw, 1, 1);
}

static void test_launch_tune(void **st)
{
	(void)st;
	static const char *const iw[] = {"twice<<<(n+127)/128, 128>>>"};
	via_applies("launch-tune", NULL, 0, iw, 1, 0);
}

/* The recipe declines through main.cu = m, its reason holding every want. */
static void via_declines(const char *recipe, const char *m, const char *const *want, int nw)
{
	put(inc, m);
	ka_recipe_via_out res;
	char why[384];
	int rc = ka_recipe_apply_via(recipe, "twice", NULL, hdr, HEADER, strlen(HEADER), inc, m, strlen(m),
				     root, &res, why, sizeof why);
	if (rc == KA_OK)
		fail_msg("%s applied through:\n%s\nas:\n%s", recipe, m, res.includer_text);
	assert_int_equal(rc, KA_RECIPE_DECLINED);
	for (int i = 0; i < nw; i++)
		if (!strstr(why, want[i]))
			fail_msg("the reason '%s' does not say '%s'", why, want[i]);
}

/* the includer also takes the kernel's address (line 6 of main.cu): no
 * launch reads that use, so launch-tune and vectorize, whose rewrite every
 * launch must follow, decline naming it (grid-stride takes the kernel: its
 * loop covers the count whatever the grid a use it cannot read gives) */
static void test_unreadable_use(void **st)
{
	(void)st;
	static const char *const want[] = {"line 6 of main.cu", "twice"};
	const char *m = MAIN("\tvoid *f = (void *)twice;\n\t(void)f;\n");
	via_declines("launch-tune", m, want, 2);
	via_declines("vectorize", m, want, 2);
}

/* the launch is a macro's: no launch of twice is read anywhere */
static void test_macro_launch(void **st)
{
	(void)st;
	static const char *const want[] = {"twice_kernel.cuh or main.cu"};
	const char *m =
		"#include \"twice_kernel.cuh\"\n#define RUN(k, n) k<<<((n) + 255) / 256, 256>>>\n"
		"void spread_run(float *out, const float *in, int n)\n{\n\tRUN(twice, n)(out, in, n);\n}\n";
	via_declines("grid-stride", m, want, 1);
}

/* another .cu of the project launches twice too: its launch would keep the
 * old grid (or miss a parameter) */
static void test_other_file(void **st)
{
	(void)st;
	char other[320];
	snprintf(other, sizeof other, "%s/src/other.cu", root);
	put(other, MAIN(""));
	static const char *const want[] = {"src/other.cu names twice too (line 6)"};
	via_declines("grid-stride", MAIN(""), want, 1);
	unlink(other);
	/* outside the scope given, it is not searched */
	put(inc, MAIN(""));
	char sub[320];
	snprintf(sub, sizeof sub, "%s/elsewhere", root);
	assert_int_equal(mkdir(sub, 0777), 0);
	snprintf(other, sizeof other, "%s/elsewhere/other.cu", root);
	put(other, MAIN(""));
	ka_recipe_via_out res;
	char why[384];
	const char *m = MAIN("");
	int rc = ka_recipe_apply_via("grid-stride", "twice", NULL, hdr, HEADER, strlen(HEADER), inc, m,
				     strlen(m), NULL, &res, why, sizeof why);
	/* the two files' common folder is root itself: elsewhere/ is in it */
	assert_int_equal(rc, KA_RECIPE_DECLINED);
	assert_non_null(strstr(why, "elsewhere/other.cu names twice too"));
	unlink(other);
	rmdir(sub);
}

static void test_not_included(void **st)
{
	(void)st;
	static const char *const want[] = {"main.cu does not include twice_kernel.cuh (directly or through"};
	via_declines("grid-stride", "#include \"nothing.cuh\"\nvoid f() {}\n", want, 1);
	/* a quoted name that resolves elsewhere is not this header */
	char p[320];
	snprintf(p, sizeof p, "%s/src/twice_kernel.cuh", root);
	put(p, "/* another header of the same name */\n");
	via_declines("grid-stride", MAIN(""), want, 1);
	unlink(p);
	static const char *const twice_want[] = {"main.cu includes twice_kernel.cuh 2 times"};
	via_declines("grid-stride", INCLUDE_LINE MAIN(""), twice_want, 1);
}

/* the header reached through another (SGEMM_CUDA's kernels.cuh): the
 * header between comes back unchanged, named in through[] */
static void test_through_header(void **st)
{
	(void)st;
	char all[320];
	snprintf(all, sizeof all, "%s/all_kernels.cuh", kdir);
	put(all, "#pragma once\n#include \"twice_kernel.cuh\"\n");
	const char *m =
		"#include \"all_kernels.cuh\"\n\nvoid spread_run(float *out, const float *in, int n)\n{\n"
		"\ttwice<<<(n + 255) / 256, 256>>>(out, in, n);\n}\n";
	put(inc, m);
	assert_int_equal(ka_recipe_include_depth(inc, m, strlen(m), hdr), 2);
	ka_recipe_via_out res;
	char why[384];
	int rc = ka_recipe_apply_via("grid-stride", "twice", NULL, hdr, HEADER, strlen(HEADER), inc, m,
				     strlen(m), root, &res, why, sizeof why);
	if (rc != KA_OK)
		fail_msg("grid-stride declined through all_kernels.cuh: %s", why);
	assert_true(res.file_changed && res.includer_changed);
	assert_non_null(strstr(res.file_text, "for (long long ka_e = "));
	assert_non_null(strstr(res.includer_text, "#include \"all_kernels.cuh\"\n"));
	assert_non_null(strstr(res.includer_text, "2112"));
	assert_non_null(strstr(res.through[0], "all_kernels.cuh"));
	assert_string_equal(res.through[1], "");
	ka_recipe_via_free(&res);
	/* a line of the includer past the chain keeps its number in a reason */
	const char *m2 =
		"#include \"all_kernels.cuh\"\n\nvoid spread_run(float *out, const float *in, int n)\n{\n"
		"\tvoid *f = (void *)twice;\n\t(void)f;\n\ttwice<<<(n + 255) / 256, 256>>>(out, in, n);\n}\n";
	put(inc, m2);
	static const char *const want[] = {"line 5 of main.cu"};
	via_declines("launch-tune", m2, want, 1);
	unlink(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_stride),  cmocka_unit_test(test_vectorize),
		cmocka_unit_test(test_launch_tune),  cmocka_unit_test(test_unreadable_use),
		cmocka_unit_test(test_macro_launch), cmocka_unit_test(test_other_file),
		cmocka_unit_test(test_not_included), cmocka_unit_test(test_through_header),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
