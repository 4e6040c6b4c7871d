/* bench/build.c: the compile gate (bench/build.h).  Fixed flags, one
 * translation unit per implementation, a time limit per nvcc call.  Each
 * implementation is compiled with ka_task_run renamed to its slot
 * (ka_impl_a, ka_impl_b) and then every other global symbol is made local
 * with objcopy, so a candidate can neither clash with the baseline nor
 * replace a runtime function the harness calls (a patched timer, say).
 * Objects and harness binaries are cached by a hash of their inputs, in a
 * folder bench/cache.c has checked, and reused only when their content
 * still matches the SHA-256 recorded when they were written.  The
 * candidate's object then goes through bench/objcheck.c.  nvcc compiles
 * a private copy of each source (util/safesrc.h), so no task folder or
 * candidate name reaches its /bin/sh. */
#include "bench/build.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench/cache.h"
#include "bench/objcheck.h"
#include "util/proc.h"
#include "util/buf.h"
#include "util/ccdiag.h"
#include "util/embed.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/safesrc.h"

extern const struct ka_embedded ka_bench_harness_files[];

static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static int mkdirs(const char *path) { return ka_bench_cache_mkdir(path); }

/* A path made with printf, on the heap (caller frees); NULL with a message
 * when it does not fit the cap or memory runs out. */
static char *path_of(const char *fmt, ...) KA_PRINTF(1, 2);
static char *path_of(const char *fmt, ...)
{
	ka_buf b;
	va_list ap;
	ka_buf_init(&b, 64 << 10);
	va_start(ap, fmt);
	int rc = ka_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (rc || !b.data) {
		ka_buf_free(&b);
		ka_error_set(KA_EINPUT, "bench path too long or out of memory");
		return NULL;
	}
	return ka_buf_steal(&b);
}

static const char *base_name(const char *path)
{
	const char *base = strrchr(path, '/');
	return base ? base + 1 : path;
}

/* A cached harness folder is used only when it is safe and every file in it
 * still holds exactly the embedded bytes; a changed file is rewritten. */
static int harness_intact(const char *dir)
{
	if (mkdirs(dir)) return KA_EINPUT;
	for (const struct ka_embedded *e = ka_bench_harness_files; e->path; e++) {
		char *path = path_of("%s/%s", dir, base_name(e->path)), *text = NULL;
		size_t len = 0;
		if (!path) return KA_EINPUT;
		int same = !ka_fs_read(path, 4 << 20, &text, &len) && len == e->len && !memcmp(text, e->data, len);
		int rc = !same && ka_fs_write_atomic(path, e->data, e->len) ? KA_EIO : 0;
		free(text);
		free(path);
		if (rc) return rc;
	}
	return 0;
}

/* Writes the embedded harness files into a new folder tmp. */
static int write_harness(const char *tmp)
{
	if (mkdirs(tmp)) return KA_EIO;
	for (const struct ka_embedded *e = ka_bench_harness_files; e->path; e++) {
		char *path = path_of("%s/%s", tmp, base_name(e->path));
		int rc = !path ? KA_EINPUT : ka_fs_write_atomic(path, e->data, e->len) ? KA_EIO : 0;
		free(path);
		if (rc) return rc;
	}
	return 0;
}

/* Writes the embedded harness sources to BUILD/harness-HASH/ once; *dir is
 * that folder (caller frees). */
static int harness_dir(const ka_bench_build *b, char **dir, unsigned long long *hash, unsigned long long *abi)
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	int rc;
	*abi = h;
	for (const struct ka_embedded *e = ka_bench_harness_files; e->path; e++) {
		h = fnv(h, e->path, strlen(e->path));
		h = fnv(h, e->data, e->len);
		if (strstr(e->path, "ka_task.h") || strstr(e->path, "ka_hip.h"))   /* what implementations include */
			*abi = fnv(*abi, e->data, e->len);
	}
	*hash = h;
	if (!(*dir = path_of("%s/harness-%016llx", b->build_dir, h))) return KA_EINPUT;
	if (ka_fs_is_dir(*dir)) return harness_intact(*dir);
	char *tmp = path_of("%s.tmp%ld", *dir, (long)getpid());
	if (!tmp) return KA_EINPUT;
	rc = write_harness(tmp);
	if (!rc && rename(tmp, *dir) && !ka_fs_is_dir(*dir))
		rc = ka_error_set(KA_EIO, "cannot create %s: %s", *dir, strerror(errno));
	free(tmp);
	return rc;
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

/* Runs a tool; on failure log gets the first lines of its output, cut down
 * (util/ccdiag.h) to diagnostics about the files in allowed when allowed is
 * given: a quote from any other file must not reach a result, a prompt or a
 * report. */
static int run_tool(const ka_bench_build *b, char *const argv[], const char *const *allowed, int limit, char *log,
		    size_t logcap, double *secs)
{
	ka_buf out, kept;
	ka_proc_result pr;
	int rc;
	ka_buf_init(&out, 1 << 20);
	rc = ka_proc_run_io(argv, limit, &out, NULL, &pr);
	if (secs) *secs += pr.seconds;
	if (rc == 0 && pr.timed_out) {
		snprintf(log, logcap, "%s timed out after %d s", argv[0], limit);
		rc = KA_ETOOL;
	} else if (rc == 0 && pr.status != 0) {
		ka_buf_init(&kept, 1 << 20);
		if (allowed && ka_ccdiag_filter(out.data ? out.data : "", out.len, allowed, &kept) < 0)
			ka_buf_reset(&kept);
		first_lines(allowed ? (kept.data ? kept.data : "") : out.data ? out.data : "", log, logcap);
		if (!log[0])
			snprintf(log, logcap, "%s failed (its messages are about files outside the task)", argv[0]);
		ka_buf_free(&kept);
		rc = KA_ETOOL;
	} else if (rc) {
		snprintf(log, logcap, "%s", ka_error_last());
	}
	ka_buf_free(&out);
	(void)b;
	return rc;
}

/* The log with the private copy's name written as the source's own. */
static void named(const ka_safesrc *copy, const char *src, char *log, size_t logcap)
{
	ka_buf b;
	ka_buf_init(&b, logcap);
	if (!ka_safesrc_names(&b, copy, src, log, strlen(log)) && b.data) snprintf(log, logcap, "%s", b.data);
	ka_buf_free(&b);
}

/* An object or binary that is not in the cache yet is made under a lock
 * (PATH.lock, flock), and looked for again once the lock is held: two
 * bench runs that need the same object at the same time (ctest -j runs
 * the compile-tasks shares side by side, and each needs the harness)
 * compile it once, the second then finds it checked in the cache.  The
 * lock only orders them: without it (a file system without flock) each
 * compiles its own copy as before.  Returns the descriptor or -1. */
static int cache_lock(const char *path)
{
	char *lp = path_of("%s.lock", path);
	int fd = lp ? open(lp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600) : -1;
	free(lp);
	if (fd < 0) return -1;
	while (flock(fd, LOCK_EX) != 0)
		if (errno != EINTR) { close(fd); return -1; }
	return fd;
}

static void cache_unlock(int fd)
{
	if (fd >= 0) close(fd);
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

/* The nvcc command line of one compile (argv's strings live in def, inc, arch). */
static int compile_argv(const ka_bench_build *b, const char *src, char slot, const char *inc, const char *tmp,
			char *def, size_t defcap, char *arch, size_t archcap, char **argv)
{
	int n = 0, is_hip = strlen(src) > 4 && !strcmp(src + strlen(src) - 4, ".hip");
	snprintf(def, defcap, "-Dka_task_run=ka_impl_%c", slot);
	if (snprintf(arch, archcap, "-arch=%s", b->arch) >= (int)archcap) return -1;
	argv[n++] = (char *)b->nvcc;
	argv[n++] = "-O3";
	argv[n++] = arch;
	argv[n++] = (char *)inc;
	if (slot != 'r') argv[n++] = def;
	if (is_hip) { argv[n++] = "-x"; argv[n++] = "cu"; argv[n++] = "-include"; argv[n++] = "ka_hip.h"; }
	argv[n++] = "-c";
	argv[n++] = (char *)src;
	argv[n++] = "-o";
	argv[n++] = (char *)tmp;
	argv[n] = NULL;
	return 0;
}

/* Compile one source into *obj (cached; caller frees *obj).  slot: 'a',
 * 'b' (renamed + localized) or 'r'. */
static int compile_one(const ka_bench_build *b, const char *hdir, unsigned long long hh, const char *src,
		       char slot, char **obj, char *log, size_t logcap, double *secs)
{
	unsigned long long h = hh;
	char def[64], keep[64], arch[48], *argv[16], *inc = NULL, *tmp = NULL, *hdir_slash = NULL;
	int rc = 0, lock = -1;
	if (file_hash(src, &h)) { snprintf(log, logcap, "%s", ka_error_last()); return KA_EIO; }
	h = fnv(h, &slot, 1);
	h = fnv(h, b->arch, strlen(b->arch));
	h = fnv(h, b->nvcc, strlen(b->nvcc));
	if (!(*obj = path_of("%s/obj/%c-%016llx.o", b->build_dir, slot, h))) goto too_long;
	if (ka_bench_cache_valid(*obj)) return 0;
	lock = cache_lock(*obj);
	if (ka_bench_cache_valid(*obj)) { cache_unlock(lock); return 0; }
	snprintf(keep, sizeof keep, "--keep-global-symbol=ka_impl_%c", slot);
	if (!(inc = path_of("-I%s", hdir)) || !(hdir_slash = path_of("%s/", hdir)) || !(tmp = path_of("%s.tmp%ld.o", *obj, (long)getpid())) ||
	    compile_argv(b, src, slot, inc, tmp, def, sizeof def, arch, sizeof arch, argv))
		goto too_long;
	ka_safesrc copy;
	if (ka_safesrc_make(src, NULL, 0, &copy)) { snprintf(log, logcap, "%s", ka_error_last()); rc = KA_EIO; goto out; }
	for (int i = 0; argv[i]; i++) if (argv[i] == src) argv[i] = copy.file;
	const char *allowed[] = {copy.file, hdir_slash, NULL};
	rc = run_tool(b, argv, allowed, b->compile_timeout_s, log, logcap, secs);
	if (rc) named(&copy, src, log, logcap);
	ka_safesrc_remove(&copy);
	if (rc) { rc = KA_ETOOL; goto out; }
	if (slot != 'r') {
		char *oc[] = {"objcopy", keep, tmp, NULL};
		if (run_tool(b, oc, NULL, 60, log, logcap, secs)) { rc = KA_ETOOL; goto out; }
	}
	if (ka_bench_cache_commit(tmp, *obj)) { snprintf(log, logcap, "%s", ka_error_last()); rc = KA_EIO; }
	goto out;
too_long:
	snprintf(log, logcap, "%s", "bench path or --arch too long");
	rc = KA_EINPUT;
out:
	if (tmp && rc) unlink(tmp);
	cache_unlock(lock);
	free(tmp);
	free(inc);
	free(hdir_slash);
	return rc;
}

void ka_bench_build_out_free(ka_bench_build_out *o)
{
	free(o->ref_obj);
	free(o->a_obj);
	free(o->b_obj);
	free(o->binary);
	o->ref_obj = o->a_obj = o->b_obj = o->binary = NULL;
}

/* Compiles the harness, reference, baseline and candidate (o->*_obj). */
static int compile_all(const ka_bench_build *b, const char *hdir, unsigned long long hh, unsigned long long abi,
		       char **ho, ka_bench_build_out *o)
{
	char *href = path_of("%s/harness.cu", hdir);
	struct { const char *src; char slot; char **obj; int what; } steps[] = {
		{href, 'h', ho, KA_BENCH_BUILD_HARNESS},
		{b->reference, 'r', &o->ref_obj, KA_BENCH_BUILD_REFERENCE},
		{b->baseline, 'a', &o->a_obj, KA_BENCH_BUILD_BASELINE},
		{b->candidate, 'b', &o->b_obj, KA_BENCH_BUILD_CANDIDATE},
	};
	int rc = href ? 0 : KA_EINPUT;
	for (int i = 0; i < 4 && !rc; i++) {
		char slot = steps[i].slot == 'h' ? 'r' : steps[i].slot;
		rc = compile_one(b, hdir, (i == 0 ? hh : abi) ^ (unsigned long long)steps[i].what, steps[i].src, slot,
				 steps[i].obj, o->log, sizeof o->log, &o->seconds);
		if (rc) o->failed = steps[i].what;
	}
	free(href);
	return rc;
}

/* Links the harness binary o->binary (cached). */
static int link_harness(const ka_bench_build *b, const char *bindir, const char *ho, ka_bench_build_out *o)
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	const char *objs[4] = {ho, o->ref_obj, o->a_obj, o->b_obj};
	char arch[48], *tmp = NULL;
	int rc = 0;
	for (int i = 0; i < 4; i++) h = fnv(h, objs[i], strlen(objs[i]));
	if (!(o->binary = path_of("%s/h-%016llx", bindir, h))) return KA_EINPUT;
	if (ka_bench_cache_valid(o->binary)) return 0;
	int lock = cache_lock(o->binary);
	if (ka_bench_cache_valid(o->binary)) { cache_unlock(lock); return 0; }
	if (!(tmp = path_of("%s.tmp%ld", o->binary, (long)getpid()))) { cache_unlock(lock); return KA_EINPUT; }
	snprintf(arch, sizeof arch, "-arch=%s", b->arch);
	char *argv[] = {(char *)b->nvcc, arch, (char *)ho, o->ref_obj, o->a_obj, o->b_obj, "-lpthread", "-o", tmp, NULL};
	if (run_tool(b, argv, NULL, b->compile_timeout_s, o->log, sizeof o->log, &o->seconds)) {
		o->failed = KA_BENCH_BUILD_LINK;
		rc = KA_ETOOL;
	} else if (ka_bench_cache_commit(tmp, o->binary)) {
		rc = KA_EIO;
	}
	cache_unlock(lock);
	free(tmp);
	return rc;
}

int ka_bench_build_run(const ka_bench_build *b, ka_bench_build_out *o)
{
	char *hdir = NULL, *ho = NULL, *objdir = NULL, *bindir = NULL;
	unsigned long long hh, abi;
	int rc;
	memset(o, 0, sizeof *o);
	if (strlen(b->build_dir) > 1000) return ka_error_set(KA_EINPUT, "build folder path too long");
	if (mkdirs(b->build_dir) || harness_dir(b, &hdir, &hh, &abi)) {
		snprintf(o->log, sizeof o->log, "%s", ka_error_last());
		o->failed = KA_BENCH_BUILD_HARNESS;
		rc = KA_EIO;
		goto out;
	}
	objdir = path_of("%s/obj", b->build_dir);
	bindir = path_of("%s/bin", b->build_dir);
	if (!objdir || !bindir || mkdirs(objdir) || mkdirs(bindir)) { rc = KA_EIO; goto out; }
	if ((rc = compile_all(b, hdir, hh, abi, &ho, o))) goto out;
	if (b->objcheck) {
		rc = ka_bench_objcheck(o->b_obj, o->findings, 16);
		if (rc < 0) { snprintf(o->log, sizeof o->log, "%s", ka_error_last()); o->failed = KA_BENCH_BUILD_CANDIDATE; goto out; }
		o->nfindings = rc;
		if (rc > 0) { o->failed = KA_BENCH_BUILD_OBJCHECK; rc = KA_EINPUT; goto out; }
	}
	rc = link_harness(b, bindir, ho, o);
out:
	free(hdir);
	free(ho);
	free(objdir);
	free(bindir);
	return rc;
}
