/* tests/cli/test_frontend.c: the front end on input as real projects have
 * it: files with clang errors analyzed in part (the errors reported as
 * clang-diagnostic-error findings in every format), compiler flags from
 * compile databases and `--` filtered by an allow-list, file names that
 * look like options. */
#include "cli_run.h"
#include <jansson.h>
#include <sys/stat.h>
#include <unistd.h>

#define OPTS "--no-config --rules-dir " FIXTURES "/rules --checks '-*,test-strided-read'"

/* A strided kernel that parses, and a host function that does not. */
static const char PARTIAL[] =
	"__global__ void gather(float *__restrict__ out, const float *__restrict__ in, int n) {\n"
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"  if (i < n)\n"
	"    out[i] = in[32 * i];\n"
	"}\n"
	"\n"
	"void launch(float *out, const float *in, int n) {\n"
	"  gather<<<(n + 255) / 256, 256>>>(out, in, n);\n"
	"  checkCudaErrorsFromAMissingHeader(cudaGetLastError());\n"
	"}\n";

static void partial_file_keeps_kernel_findings(void **state)
{
	(void)state;
	char *dir = cli_tmpdir();
	cli_write(dir, "partial.cu", PARTIAL);
	cli_result r = cli_run(dir, "NO_COLOR=1", OPTS " -q partial.cu");
	assert_int_equal(r.status, 1);   /* findings, not a failed file */
	assert_non_null(strstr(r.out, "partial.cu:4:14: warning: read of in[32 * i]"));
	assert_non_null(strstr(r.out, "partial.cu:9:3: error: use of undeclared identifier "
			       "'checkCudaErrorsFromAMissingHeader' (function 'launch' not analyzed) "
			       "[clang-diagnostic-error]"));
	assert_string_equal(r.err, "");
	cli_free(&r);

	r = cli_run(dir, NULL, OPTS " -q --format json partial.cu");
	json_error_t err;
	json_t *root = json_loads(r.out, 0, &err);
	assert_non_null(root);
	json_t *fs = json_object_get(root, "findings");
	int diag = 0, strided = 0;
	for (size_t i = 0; i < json_array_size(fs); i++) {
		json_t *f = json_array_get(fs, i);
		const char *rule = json_string_value(json_object_get(f, "rule"));
		if (strcmp(rule, "clang-diagnostic-error") == 0) {
			diag++;
			assert_int_equal(json_integer_value(json_object_get(f, "line")), 9);
			assert_string_equal(json_string_value(json_object_get(f, "severity")), "error");
		}
		strided += strcmp(rule, "test-strided-read") == 0;
	}
	assert_int_equal(diag, 1);
	assert_int_equal(strided, 1);
	json_decref(root);
	cli_free(&r);

	r = cli_run(dir, NULL, OPTS " -q --format sarif partial.cu");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "\"ruleId\": \"clang-diagnostic-error\""));
	assert_non_null(strstr(r.out, "\"id\": \"clang-diagnostic-error\""));
	cli_free(&r);

	/* --exit-zero: a partial file is not an error of the run */
	r = cli_run(dir, NULL, OPTS " -q --exit-zero partial.cu");
	assert_int_equal(r.status, 0);
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

static void nothing_parsed_fails_the_file(void **state)
{
	(void)state;
	char *dir = cli_tmpdir();
	cli_write(dir, "bad.cu", "__global__ void k(float *a) { a[threadIdx.x] = 1 +; }\n");
	cli_result r = cli_run(dir, NULL, OPTS " -q --exit-zero bad.cu");
	assert_int_equal(r.status, 2);
	assert_string_equal(r.err, "bad.cu:1:51: error: expected expression (function 'k' not analyzed)\n");
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

int run_frontend_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(partial_file_keeps_kernel_findings),
		cmocka_unit_test(nothing_parsed_fails_the_file),
	};
	return cmocka_run_group_tests_name("cli_frontend", tests, NULL, NULL);
}
