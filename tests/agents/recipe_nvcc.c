/* tests/agents/recipe_nvcc.c: the compile check and the host run the recipe tests share
 * (tests/agents/recipe_nvcc.h).  With $KA_TEST_NVCC_CACHE naming a folder
 * (scripts/test.sh makes a fresh one per run unless one is given), a text
 * nvcc has accepted with the same nvcc, host compiler, flags and harness
 * headers is not compiled again: the recipe tests compile many of the
 * same rewrites, and the sanitizer half of the run compiles the texts the
 * first half did. */
#include "tests/agents/recipe_nvcc.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "recipes/recipe.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/proc.h"
#include "util/sha256.h"

#ifndef KA_SOURCE_DIR
#error "KA_SOURCE_DIR must be defined"
#endif

/* Adds to the key which program PATH is: its path, size and time of
 * change (those of the file a link points to). */
static void add_tool(ka_sha256 *h, const char *path)
{
	struct stat st;
	if (!path || stat(path, &st) != 0)
		return;
	long long id[3] = {(long long)st.st_size, (long long)st.st_mtim.tv_sec,
			   (long long)st.st_mtim.tv_nsec};
	ka_sha256_add(h, path, strlen(path) + 1);
	ka_sha256_add(h, id, sizeof id);
}

/* Adds to the key what the text can include: every file in the harness
 * folder (-I), by name and content, in the order of their names. */
static void add_harness(ka_sha256 *h, const char *dir)
{
	struct dirent **ents = NULL;
	int n = scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char path[1200], *data = NULL;
		size_t len = 0;
		snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
		if (ka_fs_is_regular(path) && ka_fs_read(path, 16u << 20, &data, &len) == KA_OK) {
			ka_sha256_add(h, ents[i]->d_name, strlen(ents[i]->d_name) + 1);
			ka_sha256_add(h, data, len);
			ka_sha256_add(h, "", 1);
		}
		free(data);
		free(ents[i]);
	}
	free(ents);
}

/* The marker of "this text passed" in $KA_TEST_NVCC_CACHE, keyed by the
 * compiler and the tool behind it (path, size, time of change), the first
 * nkey arguments (the temporary file names that follow vary and are not
 * part of the key), every file of the folder the text can include and the
 * text itself, so that a marker never stands for another compile or run;
 * 0 when no cache folder is set. */
static int passed_marker(char *const argv[], int nkey, const char *tool2, const char *folder,
			 const char *text, char *path, size_t cap)
{
	const char *dir = getenv("KA_TEST_NVCC_CACHE");
	if (!dir || !*dir)
		return 0;
	ka_sha256 h;
	char hex[65];
	ka_sha256_init(&h);
	for (int i = 0; argv[i] && i < nkey; i++)
		ka_sha256_add(&h, argv[i], strlen(argv[i]) + 1);
	ka_sha256_add(&h, "", 1);
	add_tool(&h, argv[0]);
	if (tool2) {
		char *t2 = ka_proc_find_tool(NULL, tool2, NULL);
		add_tool(&h, t2);
		free(t2);
	}
	add_harness(&h, folder);
	ka_sha256_add(&h, text, strlen(text));
	ka_sha256_hex(&h, hex);
	return snprintf(path, cap, "%s/%s.ok", dir, hex) < (int)cap;
}

int nvcc_compiles(const char *text, char *err, size_t cap)
{
	return nvcc_compiles_with(text, NULL, 0, err, cap);
}

int nvcc_compiles_with(const char *text, const char *const *flags, int nflags, char *err, size_t cap)
{
	const char *nvcc = ka_proc_find_nvcc();
	if (!nvcc)
		return -1;
	char dir[] = "/tmp/ka_recipe_XXXXXX", src[64], obj[64], inc[600], marker[4200];
	snprintf(inc, sizeof inc, "-I%s/bench/harness", KA_SOURCE_DIR);
	/* -cubin: nvcc's front end checks the whole text, host code and launches
	 * included (a type error in a host function fails here as with -c), and
	 * ptxas builds the device code; what -c adds is the host compiler's pass
	 * over the host side the front end wrote out, which costs nearly twice
	 * the rest (1.7 s against 0.6 s a compile, nvcc 13 on the 2-core box). */
	char *argv[24] = {(char *)nvcc, "-arch=sm_90", "-cubin", inc};
	int na = 4;
	for (int i = 0; i < nflags && i < 16; i++)
		argv[na++] = (char *)flags[i];
	argv[na++] = src;
	argv[na++] = "-o";
	argv[na++] = obj;
	argv[na] = NULL;
	/* nvcc's host compiler is gcc; the text can include the harness */
	int cached = !nflags && passed_marker(argv, 4, "gcc", KA_SOURCE_DIR "/bench/harness", text, marker,
					      sizeof marker);
	if (cached && ka_fs_exists(marker)) {
		snprintf(err, cap, "%s", "");
		return 1;
	}
	if (!mkdtemp(dir))
		return 0;
	snprintf(src, sizeof src, "%s/k.cu", dir);
	snprintf(obj, sizeof obj, "%s/k.cubin", dir);
	FILE *f = fopen(src, "w");
	if (!f) {
		rmdir(dir);
		return 0;
	}
	fputs(text, f);
	fclose(f);
	ka_buf out;
	ka_buf_init(&out, 1 << 20);
	ka_proc_result r;
	int ok = ka_proc_run(argv, 300, &out, &r) == KA_OK && r.exited && r.status == 0;
	snprintf(err, cap, "%s", out.data ? out.data : "");
	ka_buf_free(&out);
	unlink(src);
	unlink(obj);
	rmdir(dir);
	if (ok && cached) /* only a pass is remembered: a failure is compiled again, with its messages */
		ka_fs_write_atomic(marker, "", 0);
	return ok;
}

char *recipe_applies(const char *recipe, const char *params, const char *src, const char *kernel,
		     const char *const *want, size_t nwant)
{
	char why[256], err[8192];
	char *out = NULL;
	size_t n;
	if (ka_recipe_apply(recipe, src, strlen(src), kernel, params, &out, &n, why, sizeof why) != KA_OK)
		fail_msg("%s declined:\n%s\nwhy: %s", recipe, src, why);
	for (size_t i = 0; i < nwant; i++)
		if (!strstr(out, want[i]))
			fail_msg("the rewrite lacks '%s':\n%s", want[i], out);
	if (nvcc_compiles(out, err, sizeof err) == 0)
		fail_msg("the rewrite does not compile:\n%s\n%s", out, err);
	return out;
}

void recipe_declines(const char *recipe, const char *params, const char *src, const char *kernel,
		     const char *reason)
{
	char why[256];
	char *out = NULL;
	size_t n;
	int rc = ka_recipe_apply(recipe, src, strlen(src), kernel, params, &out, &n, why, sizeof why);
	if (rc == KA_OK)
		fail_msg("%s applied to:\n%s\nas:\n%s", recipe, src, out);
	assert_int_equal(rc, KA_RECIPE_DECLINED);
	if (!strstr(why, reason))
		fail_msg("the reason '%s' does not say '%s'", why, reason);
}

char *read_task_baseline(const char *task, char *path, size_t cap)
{
	char p[512];
	char *s = NULL;
	size_t n;
	snprintf(p, sizeof p, "%s/bench/tasks/%s/baseline.cu", KA_SOURCE_DIR, task);
	if (ka_fs_read(p, 0, &s, &n) != KA_OK) {
		fprintf(stderr, "cannot read %s\n", p);
		exit(1);
	}
	if (path)
		snprintf(path, cap, "%s", p);
	return s;
}

int host_run(const char *text, const char *main_cpp, char *log, size_t cap)
{
	return host_run_defs(text, main_cpp, NULL, 0, log, cap);
}

int host_run_defs(const char *text, const char *main_cpp, const char *const *defs, int ndefs, char *log,
		  size_t cap)
{
	log[0] = 0;
	char *cxx = ka_proc_find_tool("CXX", "c++", NULL);
	if (!cxx)
		return -1;
	ka_buf k;
	ka_buf_init(&k, 1 << 20);
	for (const char *q = text;;) { /* k<<<G, B, ...>>>(args) -> ka_emu_launch(k, G, B, ...)(args) */
		const char *l = strstr(q, "<<<"), *r = l ? strstr(l, ">>>") : NULL;
		if (!l || !r) {
			ka_buf_adds(&k, q);
			break;
		}
		const char *n = l;
		while (n > q && (isalnum((unsigned char)n[-1]) || n[-1] == '_'))
			n--;
		ka_buf_add(&k, q, (size_t)(n - q));
		ka_buf_adds(&k, "ka_emu_launch(");
		ka_buf_add(&k, n, (size_t)(l - n));
		ka_buf_adds(&k, ", ");
		ka_buf_add(&k, l + 3, (size_t)(r - l - 3));
		ka_buf_adds(&k, ")");
		q = r + 3;
	}
	char dir[] = "/tmp/ka_host_run_XXXXXX", src[64], exe[64], inc[600], drv[600], inc2[80];
	int ok = 0;
	if (!k.data || !mkdtemp(dir)) {
		snprintf(log, cap, "cannot make a folder for the host run");
		ka_buf_free(&k);
		free(cxx);
		return 0;
	}
	snprintf(src, sizeof src, "%s/kernel.cu", dir);
	snprintf(exe, sizeof exe, "%s/emu", dir);
	snprintf(inc, sizeof inc, "-I%s/tests/agents/emu", KA_SOURCE_DIR);
	snprintf(inc2, sizeof inc2, "-I%s", dir);
	snprintf(drv, sizeof drv, "%s/tests/agents/emu/%s", KA_SOURCE_DIR, main_cpp);
	char *cc[24] = {cxx, "-std=c++17", "-O1", "-w"};
	int a = 4;
	for (int i = 0; i < ndefs && i < 8; i++)
		cc[a++] = (char *)defs[i];
	char *tail[] = {inc, inc2, "-o", exe, drv, NULL};
	memcpy(cc + a, tail, sizeof tail);
	char *run[] = {exe, NULL};
	ka_buf out;
	ka_buf_init(&out, 1 << 20);
	ka_proc_result r;
	/* A pass is remembered like nvcc's (the sanitizer half of the run
	 * builds and runs the same rewrites with the same driver): keyed by the
	 * compiler, its flags, the emulator's folder (headers and drivers), the
	 * driver's name and the text.  The marker holds the driver's output,
	 * which callers compare between runs. */
	char marker[4200];
	ka_buf key;
	ka_buf_init(&key, k.len + 256);
	ka_buf_printf(&key, "%s\n%s", main_cpp, k.data);
	int cached = key.data && passed_marker(cc, a, NULL, KA_SOURCE_DIR "/tests/agents/emu", key.data,
					       marker, sizeof marker);
	ka_buf_free(&key);
	char *kept = NULL;
	size_t nkept = 0;
	if (cached && ka_fs_exists(marker) && ka_fs_read(marker, 1u << 24, &kept, &nkept) == KA_OK) {
		ok = 1;
		snprintf(log, cap, "%s", kept);
		if (getenv("KA_TEST_DUMP"))
			fprintf(stderr, "%s", kept);
		free(kept);
	} else if (ka_fs_write_atomic(src, k.data, k.len) != KA_OK)
		snprintf(log, cap, "cannot write %s", src);
	else if (!(ka_proc_run(cc, 300, &out, &r) == KA_OK && r.exited && r.status == 0)) {
		fprintf(stderr, "%s\n", k.data);
		snprintf(log, cap, "the rewrite (above) does not build on the host:\n%s",
			 out.data ? out.data : "");
	} else {
		out.len = 0;
		ok = ka_proc_run(run, 300, &out, &r) == KA_OK && r.exited && r.status == 0;
		if (getenv("KA_TEST_DUMP"))
			fprintf(stderr, "%s", out.data ? out.data : "");
		snprintf(log, cap, "%s", out.data ? out.data : "");
		if (ok && cached)
			ka_fs_write_atomic(marker, out.data ? out.data : "", out.data ? out.len : 0);
	}
	unlink(src);
	unlink(exe);
	rmdir(dir);
	ka_buf_free(&out);
	ka_buf_free(&k);
	free(cxx);
	return ok;
}

void host_runs_exact(const char *main_cpp, const char *before, const char *after)
{
	char log[8192];
	int rb = host_run(before, main_cpp, log, sizeof log);
	if (rb < 0)
		skip();
	if (rb == 0)
		fail_msg("the original fails on the host:\n%s", log);
	if (host_run(after, main_cpp, log, sizeof log) != 1)
		fail_msg("the rewrite fails on the host:\n%s\n%s", after, log);
}
