/* tests/cli/test_frontend.c: the front end on input as real projects have
 * it: files with clang errors analyzed in part (the errors on stderr, the
 * file's status in every format, exit 2), compiler flags from
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
	assert_int_equal(r.status, 2); /* clang's errors fail the run; the findings are kept */
	assert_non_null(strstr(r.out, "partial.cu:4:14: warning: read of in[32 * i]"));
	/* clang's error is no finding: once on stderr, as a compiler prints it,
	 * and the file's status in the report */
	assert_null(strstr(r.out, "clang-diagnostic-error"));
	assert_string_equal(r.err, "partial.cu:9:3: error: use of undeclared identifier "
				   "'checkCudaErrorsFromAMissingHeader' (function 'launch' not analyzed)\n");
	assert_non_null(strstr(r.out, "partial.cu: partial: 1 clang error; the first: partial.cu:9:3: use of "
				      "undeclared identifier 'checkCudaErrorsFromAMissingHeader'"));
	cli_free(&r);

	r = cli_run(dir, NULL, OPTS " -q --format json partial.cu");
	assert_int_equal(r.status, 2);
	json_error_t err;
	json_t *root = json_loads(r.out, 0, &err);
	assert_non_null(root);
	json_t *fs = json_object_get(root, "findings");
	assert_int_equal(json_array_size(fs), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(fs, 0), "rule")),
			    "test-strided-read");
	json_t *file = json_array_get(json_object_get(root, "files"), 0);
	assert_string_equal(json_string_value(json_object_get(file, "file")), "partial.cu");
	assert_string_equal(json_string_value(json_object_get(file, "status")), "partial");
	assert_int_equal(json_integer_value(json_object_get(file, "clang_errors")), 1);
	json_t *d = json_array_get(json_object_get(file, "diagnostics"), 0);
	assert_int_equal(json_integer_value(json_object_get(d, "line")), 9);
	assert_string_equal(json_string_value(json_object_get(d, "severity")), "error");
	json_t *sum = json_object_get(root, "summary");
	assert_int_equal(json_integer_value(json_object_get(sum, "clang_errors")), 1);
	assert_int_equal(json_integer_value(json_object_get(sum, "error")), 0);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(sum, "files"), "partial")), 1);
	json_decref(root);
	cli_free(&r);

	r = cli_run(dir, NULL, OPTS " -q --format sarif partial.cu");
	assert_int_equal(r.status, 2);
	root = json_loads(r.out, 0, &err);
	assert_non_null(root);
	json_t *run = json_array_get(json_object_get(root, "runs"), 0);
	json_t *inv = json_array_get(json_object_get(run, "invocations"), 0);
	assert_true(json_is_false(json_object_get(inv, "executionSuccessful")));
	json_t *notes = json_object_get(inv, "toolExecutionNotifications");
	json_t *n0 = json_array_get(notes, 0), *n1 = json_array_get(notes, 1);
	assert_string_equal(json_string_value(json_object_get(json_object_get(n0, "descriptor"), "id")),
			    "clang-error");
	assert_string_equal(json_string_value(json_object_get(n0, "level")), "error");
	json_t *region = json_object_get(
		json_object_get(json_array_get(json_object_get(n0, "locations"), 0), "physicalLocation"),
		"region");
	assert_int_equal(json_integer_value(json_object_get(region, "startLine")), 9);
	assert_string_equal(json_string_value(json_object_get(json_object_get(n1, "descriptor"), "id")),
			    "file-partial");
	json_t *res = json_array_get(json_object_get(run, "results"), 0);
	assert_string_equal(json_string_value(json_object_get(res, "ruleId")), "test-strided-read");
	const char *fp = json_string_value(
		json_object_get(json_object_get(res, "partialFingerprints"), "kcheckLineHash/v1"));
	assert_non_null(fp);
	assert_int_equal(strlen(fp), 16);
	assert_null(strstr(r.out, "clang-diagnostic-error"));
	json_decref(root);
	cli_free(&r);

	/* CI formats: the error and the status as annotations, the status line */
	r = cli_run(dir, NULL, OPTS " -q --format github partial.cu");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.out,
			       "::error file=partial.cu,line=9,col=3,title=clang-error::use of undeclared "
			       "identifier 'checkCudaErrorsFromAMissingHeader'"));
	assert_non_null(
		strstr(r.out, "::warning file=partial.cu,title=kcheck: file partial::1 clang error; "));
	cli_free(&r);
	r = cli_run(dir, NULL, OPTS " -q --format concise partial.cu");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.out, "\npartial.cu: partial: 1 clang error; the first: partial.cu:9:3: "));
	cli_free(&r);

	/* --exit-zero covers findings, not clang's errors */
	r = cli_run(dir, NULL, OPTS " -q --exit-zero partial.cu");
	assert_int_equal(r.status, 2);
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

/* An error inside a system header shows at the #include that brought it. */
static void system_header_error_at_include(void **state)
{
	(void)state;
	char *dir = cli_tmpdir();
	char sub[600];
	snprintf(sub, sizeof sub, "%s/sys", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	cli_write(dir, "sys/lib.h", "inline int broken_in_header() { return undeclared_here; }\n");
	cli_write(dir, "k.cu",
		  "#include <lib.h>\n"
		  "__global__ void k(float *o, const float *a) { o[threadIdx.x] = a[threadIdx.x * 32]; }\n");
	cli_result r = cli_run(dir, "NO_COLOR=1", OPTS " -q k.cu -- -isystem sys");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "k.cu:1:10: error: in included file sys/lib.h:1: use of undeclared "
				      "identifier 'undeclared_here'\n"));
	assert_non_null(strstr(r.out, "[test-strided-read]"));
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

static int exists(const char *dir, const char *name)
{
	char p[600];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return stat(p, &st) == 0;
}

/* issue 10 S1: a dependency-file flag from a repository must not make
 * libclang write anywhere, whichever way it arrives. */
static void repository_flags_write_nothing(void **state)
{
	(void)state;
	char *dir = cli_tmpdir();
	char db[2048], cfg[1024];
	/* a clean file: clang writes dependency files only when it succeeds */
	cli_write(dir, "k.cu", "__global__ void k(float *a) { a[threadIdx.x] = 1.0f; }\n");
	snprintf(db, sizeof db,
		 "[{\"directory\": \"%s\", \"file\": \"k.cu\", \"arguments\": [\"nvcc\", "
		 "\"-Wp,-MD,%s/from-db.d\", \"-MD\", \"-MF\", \"%s/from-db-mf.d\", \"-c\", "
		 "\"k.cu\"]}]\n",
		 dir, dir, dir);
	cli_write(dir, "compile_commands.json", db);
	cli_result r = cli_run(dir, NULL, OPTS " -q --exit-zero -p . k.cu");
	assert_int_equal(r.status, 0);
	cli_free(&r);
	assert_false(exists(dir, "from-db.d"));
	assert_false(exists(dir, "from-db-mf.d"));

	snprintf(cfg, sizeof cfg, "extra-args: [\"-Wp,-MD,%s/from-yaml.d\", \"-MMD\"]\n", dir);
	cli_write(dir, ".kcheck.yaml", cfg);
	r = cli_run(dir, NULL,
		    "--rules-dir " FIXTURES "/rules --checks '-*,test-strided-read' "
		    "-q --exit-zero k.cu");
	assert_int_equal(r.status, 0);
	cli_free(&r);
	assert_false(exists(dir, "from-yaml.d"));

	r = cli_run(dir, NULL,
		    OPTS " -q --exit-zero k.cu -- -Wp,-MD,%s/from-cli.d -Xclang "
			 "-dependency-file -Xclang %s/from-xclang.d",
		    dir, dir);
	assert_int_equal(r.status, 0);
	cli_free(&r);
	assert_false(exists(dir, "from-cli.d"));
	assert_false(exists(dir, "from-xclang.d"));
	cli_rmtree(dir);
	free(dir);
}

/* nvcc command lines in compile_commands.json: relative include paths
 * against the entry's folder, -Xcompiler macros, response files. */
static void nvcc_compile_database(void **state)
{
	(void)state;
	char *dir = cli_tmpdir();
	char sub[600], db[2048];
	snprintf(sub, sizeof sub, "%s/include", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	cli_write(dir, "include/stride.h", "#define STRIDE 32\n");
	cli_write(dir, "macros.rsp", "-DFROM_RSP=1\n");
	cli_write(dir, "k.cu",
		  "#include \"stride.h\"\n"
		  "#if defined(FROM_RSP) && defined(FROM_XCOMPILER)\n"
		  "__global__ void gather(float *__restrict__ out, const float *__restrict__ in, int n) {\n"
		  "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
		  "  if (i < n)\n"
		  "    out[i] = in[STRIDE * i];\n"
		  "}\n"
		  "#endif\n");
	snprintf(db, sizeof db,
		 "[{\"directory\": \"%s\", \"file\": \"k.cu\", \"command\": \"/usr/local/cuda/bin/nvcc "
		 "-gencode arch=compute_80,code=sm_80 --expt-relaxed-constexpr --extended-lambda "
		 "-Xcompiler -fPIC,-DFROM_XCOMPILER -Iinclude @macros.rsp -std=c++17 -rdc=true "
		 "--use_fast_math -o k.o -c k.cu\"}]\n",
		 dir);
	cli_write(dir, "compile_commands.json", db);
	cli_result r = cli_run(dir, "NO_COLOR=1", OPTS " -q -p . k.cu");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "k.cu:6:14: warning: read of in[STRIDE * i]"));
	assert_null(strstr(r.out, "clang-diagnostic-error"));
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

/* A file named like an option reaches libclang as ./-name. */
static void dash_file_name_is_not_an_option(void **state)
{
	(void)state;
	char *dir = cli_tmpdir();
	cli_write(dir, "-foo.cu",
		  "__global__ void k(float *o, const float *a) { o[threadIdx.x] = a[threadIdx.x * 32]; }\n");
	cli_result r = cli_run(dir, "NO_COLOR=1", OPTS " -q .");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "-foo.cu:1:"));
	assert_non_null(strstr(r.out, "[test-strided-read]"));
	assert_string_equal(r.err, "");
	cli_free(&r);
	r = cli_run(dir, "NO_COLOR=1", OPTS " -q ./-foo.cu");
	assert_int_equal(r.status, 1);
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

static const char HIP_SRC[] =
	"#include <hip/hip_runtime.h>\n"
	"__global__ void __launch_bounds__(256) gather(float *o, const float *a, int n) {\n"
	"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"  if (i < n) o[i] = a[32 * i] + (float)hipThreadIdx_x + (float)warpSize;\n"
	"}\n"
	"void run(float *o, const float *a, int n) {\n"
	"  hipLaunchKernelGGL(gather, dim3(n / 256), dim3(256), 0, 0, o, a, n);\n"
	"}\n";

/* HIP parses against ROCm's headers (Debian: /usr/include/hip), never the
 * shim's empty hip_runtime.h; the shim is a fallback that says so. */
static void hip_real_headers_and_shim_note(void **state)
{
	(void)state;
	char *dir = cli_tmpdir();
	cli_write(dir, "k.hip", HIP_SRC);
	cli_result r = cli_run(dir, "NO_COLOR=1", OPTS " -q --exit-zero k.hip");
	int real = strstr(r.out, "frontend-shim-headers") == NULL;
	cli_free(&r);
	if (!real) {
		fprintf(stderr,
			"SKIPPED: hip_real_headers: no ROCm headers (scripts/setup.sh installs them)\n");
	} else {
		r = cli_run(dir, NULL, "facts k.hip --print-clang-args");
		assert_null(strstr(r.out, "'-isystem' /kcheck-shim")); /* nothing shadows hip_runtime.h */
		assert_non_null(strstr(r.out, "--rocm-path="));
		cli_free(&r);
		r = cli_run(dir, NULL, OPTS " -q --format json k.hip");
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.out, "\"rule\": \"test-strided-read\""));
		assert_null(strstr(r.out, "clang-diagnostic-error"));
		cli_free(&r);
		/* a HIP port that kept the .cu name is parsed as HIP */
		cli_write(dir, "port.cu", HIP_SRC);
		r = cli_run(dir, NULL, OPTS " -q --format json port.cu");
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.out, "\"rule\": \"test-strided-read\""));
		assert_null(strstr(r.out, "clang-diagnostic-error"));
		cli_free(&r);
	}
	r = cli_run(dir, "ROCM_PATH=/nonexistent", OPTS " -q --exit-zero --format json k.hip");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"rule\": \"frontend-shim-headers\""));
	assert_non_null(strstr(r.out, "minimal HIP shim headers"));
	cli_free(&r);
	cli_rmtree(dir);
	free(dir);
}

int run_frontend_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(partial_file_keeps_kernel_findings),
		cmocka_unit_test(nothing_parsed_fails_the_file),
		cmocka_unit_test(system_header_error_at_include),
		cmocka_unit_test(repository_flags_write_nothing),
		cmocka_unit_test(nvcc_compile_database),
		cmocka_unit_test(dash_file_name_is_not_an_option),
		cmocka_unit_test(hip_real_headers_and_shim_note),
	};
	return cmocka_run_group_tests_name("cli_frontend", tests, NULL, NULL);
}
