/* bench/build.c: the compile gate (bench/build.h).  Fixed flags, one
 * translation unit per implementation, a time limit per nvcc call.  Each
 * implementation is compiled with ka_task_run renamed to its slot
 * (ka_impl_a, ka_impl_b) and then every other global symbol is made local
 * with objcopy, so a candidate can neither clash with the baseline nor
 * replace a runtime function the harness calls (a patched timer, say).
 * Objects and harness binaries are cached by a hash of their inputs, in a
 * folder bench/cache.c has checked, and reused only when their content
 * still matches the SHA-256 recorded when they were written.  The
 * candidate's object then goes through bench/objcheck.c. */
#include "bench/build.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench/cache.h"
#include "bench/objcheck.h"
#include "util/proc.h"
#include "util/buf.h"
#include "util/embed.h"
#include "util/error.h"
#include "util/fs.h"

extern const struct ka_embedded ka_bench_harness_files[];

static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static int mkdirs(const char *path) { return ka_bench_cache_mkdir(path); }

/* A cached harness folder is used only when it is safe and every file in it
 * still holds exactly the embedded bytes; a changed file is rewritten. */
static int harness_intact(const char *dir)
{
	if (mkdirs(dir)) return KA_EINPUT;
	for (const struct ka_embedded *e = ka_bench_harness_files; e->path; e++) {
		char path[1400], *text = NULL;
		size_t len = 0;
		const char *base = strrchr(e->path, '/');
		snprintf(path, sizeof path, "%s/%s", dir, base ? base + 1 : e->path);
		int same = !ka_fs_read(path, 4 << 20, &text, &len) && len == e->len && !memcmp(text, e->data, len);
		free(text);
		if (!same && ka_fs_write_atomic(path, e->data, e->len)) return KA_EIO;
	}
	return 0;
}

/* Writes the embedded harness sources to BUILD/harness-HASH/ once. */
static int harness_dir(const ka_bench_build *b, char *dir, size_t cap, unsigned long long *hash,
		       unsigned long long *abi)
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	*abi = h;
	for (const struct ka_embedded *e = ka_bench_harness_files; e->path; e++) {
		h = fnv(h, e->path, strlen(e->path));
		h = fnv(h, e->data, e->len);
		if (strstr(e->path, "ka_task.h") || strstr(e->path, "ka_hip.h"))   /* what implementations include */
			*abi = fnv(*abi, e->data, e->len);
	}
	*hash = h;
	snprintf(dir, cap, "%s/harness-%016llx", b->build_dir, h);
	if (ka_fs_is_dir(dir)) return harness_intact(dir);
	char tmp[1200];
	snprintf(tmp, sizeof tmp, "%s.tmp%ld", dir, (long)getpid());
	if (mkdirs(tmp)) return KA_EIO;
	for (const struct ka_embedded *e = ka_bench_harness_files; e->path; e++) {
		char path[1400];
		const char *base = strrchr(e->path, '/');
		snprintf(path, sizeof path, "%s/%s", tmp, base ? base + 1 : e->path);
		if (ka_fs_write_atomic(path, e->data, e->len)) return KA_EIO;
	}
	if (rename(tmp, dir) && !ka_fs_is_dir(dir))
		return ka_error_set(KA_EIO, "cannot create %s: %s", dir, strerror(errno));
	return 0;
}

/* First lines of a tool's output, for a one-line error. */
static void first_lines(const char *text, char *dst, size_t cap)
{
	size_t n = 0;
	int lines = 0;
	for (const char *p = text; *p && n + 1 < cap && lines < 3; p++) {
		dst[n++] = *p == '\n' ? (lines++, ' ') : *p;
	}
	dst[n] = 0;
}

static int run_tool(const ka_bench_build *b, char *const argv[], int limit, char *log, size_t logcap, double *secs)
{
	ka_buf out;
	ka_proc_result pr;
	int rc;
	ka_buf_init(&out, 1 << 20);
	rc = ka_proc_run_io(argv, limit, &out, NULL, &pr);
	if (secs) *secs += pr.seconds;
	if (rc == 0 && pr.timed_out) {
		snprintf(log, logcap, "%s timed out after %d s", argv[0], limit);
		rc = KA_ETOOL;
	} else if (rc == 0 && pr.status != 0) {
		first_lines(out.data ? out.data : "", log, logcap);
		rc = KA_ETOOL;
	} else if (rc) {
		snprintf(log, logcap, "%s", ka_error_last());
	}
	ka_buf_free(&out);
	(void)b;
	return rc;
}

static int file_hash(const char *path, unsigned long long *h)
{
	char *text = NULL;
	size_t len = 0;
	if (ka_fs_read(path, 16 << 20, &text, &len)) return KA_EIO;
	*h = fnv(*h, text, len);
	free(text);
	return 0;
}

/* Compile one source into obj (cached).  slot: 'a', 'b' (renamed + localized) or 'r'. */
static int compile_one(const ka_bench_build *b, const char *hdir, unsigned long long hh, const char *src,
		       char slot, char *obj, size_t cap, char *log, size_t logcap, double *secs)
{
	unsigned long long h = hh;
	char def[64], inc[1300], keep[64], tmp[1300];
	int is_hip = strlen(src) > 4 && !strcmp(src + strlen(src) - 4, ".hip");
	if (file_hash(src, &h)) { snprintf(log, logcap, "%s", ka_error_last()); return KA_EIO; }
	h = fnv(h, &slot, 1);
	h = fnv(h, b->arch, strlen(b->arch));
	h = fnv(h, b->nvcc, strlen(b->nvcc));
	snprintf(obj, cap, "%s/obj/%c-%016llx.o", b->build_dir, slot, h);
	if (ka_bench_cache_valid(obj)) return 0;
	snprintf(def, sizeof def, "-Dka_task_run=ka_impl_%c", slot);
	snprintf(keep, sizeof keep, "--keep-global-symbol=ka_impl_%c", slot);
	snprintf(inc, sizeof inc, "-I%s", hdir);
	snprintf(tmp, sizeof tmp, "%s.tmp%ld.o", obj, (long)getpid());
	char arch[32];
	snprintf(arch, sizeof arch, "-arch=%s", b->arch);
	char *argv[16];
	int n = 0;
	argv[n++] = (char *)b->nvcc;
	argv[n++] = "-O3";
	argv[n++] = arch;
	argv[n++] = inc;
	if (slot != 'r') argv[n++] = def;
	if (is_hip) { argv[n++] = "-x"; argv[n++] = "cu"; argv[n++] = "-include"; argv[n++] = "ka_hip.h"; }
	argv[n++] = "-c";
	argv[n++] = (char *)src;
	argv[n++] = "-o";
	argv[n++] = tmp;
	argv[n] = NULL;
	if (run_tool(b, argv, b->compile_timeout_s, log, logcap, secs)) { unlink(tmp); return KA_ETOOL; }
	if (slot != 'r') {
		char *oc[] = {"objcopy", keep, tmp, NULL};
		if (run_tool(b, oc, 60, log, logcap, secs)) { unlink(tmp); return KA_ETOOL; }
	}
	if (ka_bench_cache_commit(tmp, obj)) { unlink(tmp); snprintf(log, logcap, "%s", ka_error_last()); return KA_EIO; }
	return 0;
}

int ka_bench_build_run(const ka_bench_build *b, ka_bench_build_out *o)
{
	char hdir[1200], href[1300], ho[1300], link_tmp[1400];
	unsigned long long hh, abi;
	int rc;
	memset(o, 0, sizeof *o);
	if (strlen(b->build_dir) > 1000) return ka_error_set(KA_EINPUT, "build folder path too long");
	if (mkdirs(b->build_dir) || harness_dir(b, hdir, sizeof hdir, &hh, &abi)) {
		snprintf(o->log, sizeof o->log, "%s", ka_error_last());
		o->failed = KA_BENCH_BUILD_HARNESS;
		return KA_EIO;
	}
	char objdir[1200], bindir[1200];
	snprintf(objdir, sizeof objdir, "%s/obj", b->build_dir);
	snprintf(bindir, sizeof bindir, "%s/bin", b->build_dir);
	if (mkdirs(objdir) || mkdirs(bindir)) return KA_EIO;
	snprintf(href, sizeof href, "%s/harness.cu", hdir);
	struct { const char *src; char slot; char *obj; int what; } steps[] = {
		{href, 'h', ho, KA_BENCH_BUILD_HARNESS},
		{b->reference, 'r', o->ref_obj, KA_BENCH_BUILD_REFERENCE},
		{b->baseline, 'a', o->a_obj, KA_BENCH_BUILD_BASELINE},
		{b->candidate, 'b', o->b_obj, KA_BENCH_BUILD_CANDIDATE},
	};
	for (int i = 0; i < 4; i++) {
		char slot = steps[i].slot == 'h' ? 'r' : steps[i].slot;
		char *obj = steps[i].obj;
		rc = compile_one(b, hdir, (i == 0 ? hh : abi) ^ (unsigned long long)steps[i].what, steps[i].src, slot, obj,
				 sizeof o->a_obj, o->log, sizeof o->log, &o->seconds);
		if (rc) { o->failed = steps[i].what; return rc; }
	}
	if (b->objcheck) {
		rc = ka_bench_objcheck(o->b_obj, o->findings, 16);
		if (rc < 0) { snprintf(o->log, sizeof o->log, "%s", ka_error_last()); o->failed = KA_BENCH_BUILD_CANDIDATE; return rc; }
		o->nfindings = rc;
		if (rc > 0) { o->failed = KA_BENCH_BUILD_OBJCHECK; return KA_EINPUT; }
	}
	unsigned long long h = 0xcbf29ce484222325ULL;
	const char *objs[4] = {ho, o->ref_obj, o->a_obj, o->b_obj};
	for (int i = 0; i < 4; i++) h = fnv(h, objs[i], strlen(objs[i]));
	snprintf(o->binary, sizeof o->binary, "%s/h-%016llx", bindir, h);
	if (ka_bench_cache_valid(o->binary)) return 0;
	snprintf(link_tmp, sizeof link_tmp, "%s.tmp%ld", o->binary, (long)getpid());
	char arch[32];
	snprintf(arch, sizeof arch, "-arch=%s", b->arch);
	char *argv[] = {(char *)b->nvcc, arch, ho, o->ref_obj, o->a_obj, o->b_obj, "-lpthread", "-o", link_tmp, NULL};
	if (run_tool(b, argv, b->compile_timeout_s, o->log, sizeof o->log, &o->seconds)) {
		o->failed = KA_BENCH_BUILD_LINK;
		return KA_ETOOL;
	}
	if (ka_bench_cache_commit(link_tmp, o->binary)) return KA_EIO;
	return 0;
}
