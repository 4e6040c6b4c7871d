/* analyzer/frontend_pch.c: a precompiled header of the CUDA toolkit's
 * headers, so that each file parses only its own text.
 *
 * With the toolkit's headers, every .cu file starts with clang's CUDA
 * runtime wrapper, which pulls in cuda_runtime.h and the rest: about three
 * quarters of a file's parse time (0.55 s of CPU against 0.16 s with the
 * header precompiled, clang 19.1.7 and CUDA 13.0).  The first file with a
 * given set of arguments builds the header from an empty file with exactly
 * those arguments (the user's -I/-D included, so what the toolkit's headers
 * see is what they would see in the file itself) and stores it under
 * $XDG_CACHE_HOME/kernelarc/pch, keyed by the arguments, the in-memory
 * shim headers, the libclang version, the toolkit headers' size and time
 * and a version of this file's way of making them; every later file with
 * the same arguments includes it.  A header whose build shows an error,
 * or that does not read back cleanly (reads_back), is not used (the file
 * is parsed as before, so the error is reported where it was), and a
 * marker keeps later files from building it again.  A user's -include file goes without (see
 * cuda_path_arg).  KCHECK_NO_PCH=1 turns it off. */
#include "analyzer/frontend_pch.h"
#include "util/fs.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCH_SOURCE "/kcheck-shim/kcheck_pch.cu"
#define PCH_PROBE "/kcheck-shim/kcheck_pch_probe.cu"

static unsigned long long hash_str(unsigned long long h, const char *s)
{
	return ka_fs_fnv1a(h, s, strlen(s) + 1);
}

static unsigned long long hash_stat(unsigned long long h, const char *root, const char *rel)
{
	char p[4400];
	struct stat st;
	snprintf(p, sizeof p, "%s/%s", root, rel);
	long long v[2] = {-1, -1};
	if (stat(p, &st) == 0) {
		v[0] = (long long)st.st_size;
		v[1] = (long long)st.st_mtime;
	}
	return ka_fs_fnv1a(h, v, sizeof v);
}

/* The toolkit folder named by --cuda-path=, or NULL (then no header).  A
 * user's -include/-imacros also means no header: that file's text is the
 * user's to edit, and a header holding an old copy would be stale. */
static const char *cuda_path_arg(const char **argv, int argc)
{
	const char *root = NULL;
	for (int i = 0; i < argc; i++) {
		if (strncmp(argv[i], "--cuda-path=", 12) == 0)
			root = argv[i] + 12;
		else if (strcmp(argv[i], "-include") == 0 && i + 1 < argc &&
			 strncmp(argv[i + 1], "/kcheck-shim/", 13) == 0)
			i++;
		else if ((strncmp(argv[i], "-include", 8) == 0 && strcmp(argv[i], "-include-pch") != 0) ||
			 strncmp(argv[i], "-imacros", 8) == 0)
			return NULL;
	}
	return root;
}

static int has_errors(CXTranslationUnit tu)
{
	unsigned n = clang_getNumDiagnostics(tu);
	int bad = 0;
	for (unsigned i = 0; i < n && !bad; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		bad = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
		clang_disposeDiagnostic(d);
	}
	return bad;
}

/* The shim headers and an empty source file named NAME: the unsaved files
 * of the header's build and of its read-back (u holds 16). */
static unsigned with_empty_source(struct CXUnsavedFile *u, const struct CXUnsavedFile *unsaved, int nunsaved,
				  const char *name)
{
	int n = nunsaved < 15 ? nunsaved : 15;
	memcpy(u, unsaved, sizeof *u * (size_t)n);
	u[n].Filename = name;
	u[n].Contents = "\n";
	u[n].Length = 1;
	return (unsigned)(n + 1);
}

/* A header that builds may still not read back: with -std=c++20 (clang
 * 19, CUDA 13) every file that includes it stops at 18 "'cospi' has
 * different definitions in different modules" errors between the toolkit's
 * math functions and clang's CUDA wrapper, and libclang gives up on the
 * file.  So the saved header (PCH, still under its temporary name) is read
 * into an empty file with the same arguments, as a later file will read
 * it (about a tenth of the build's time); 1 when that parse is clean. */
static int reads_back(CXIndex idx, const char *pch, const char **argv, int argc,
		      const struct CXUnsavedFile *unsaved, int nunsaved)
{
	struct CXUnsavedFile u[16];
	unsigned nu = with_empty_source(u, unsaved, nunsaved, PCH_PROBE);
	const char **v = malloc(sizeof *v * (size_t)(argc + 3));
	if (!v)
		return 0;
	memcpy(v, argv, sizeof *v * (size_t)argc);
	v[argc] = "-include-pch";
	v[argc + 1] = pch;
	v[argc + 2] = NULL;
	CXTranslationUnit probe = NULL;
	enum CXErrorCode e = clang_parseTranslationUnit2(
		idx, PCH_PROBE, v, argc + 2, u, nu,
		CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord, &probe);
	int ok = e == CXError_Success && probe && !has_errors(probe);
	if (probe)
		clang_disposeTranslationUnit(probe);
	free(v);
	return ok;
}

/* Build the header into a temporary file, read it back (reads_back), and
 * only then give it its name; 1 when it is there to use. */
static int build(CXIndex idx, const char *file, const char **argv, int argc, struct CXUnsavedFile *unsaved,
		 int nunsaved)
{
	struct CXUnsavedFile u[16];
	unsigned nu = with_empty_source(u, unsaved, nunsaved, PCH_SOURCE);
	CXTranslationUnit tu = NULL;
	enum CXErrorCode e = clang_parseTranslationUnit2(
		idx, PCH_SOURCE, argv, argc, u, nu,
		CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization, &tu);
	if (e != CXError_Success || !tu)
		return 0;
	int ok = !has_errors(tu);
	if (ok) {
		char tmp[4700];
		snprintf(tmp, sizeof tmp, "%s.%ld.%lx.tmp", file, (long)getpid(),
			 (unsigned long)pthread_self());
		ok = clang_saveTranslationUnit(tu, tmp, clang_defaultSaveOptions(tu)) == CXSaveError_None &&
		     reads_back(idx, tmp, argv, argc, unsaved, nunsaved) && rename(tmp, file) == 0;
		if (!ok)
			unlink(tmp);
	}
	clang_disposeTranslationUnit(tu);
	return ok;
}

/* Each header is about 7 MB, and each set of arguments (a project's -I and
 * -D flags, a kcheck with other shim headers) has its own: the folder keeps
 * the KCHECK_PCH_KEEP (default 24) used most recently, pruned whenever a
 * new one is built.  One used in the last ten minutes stays (a kcheck that
 * has just found it is about to read it), so a burst of new argument sets
 * can leave more for a while. */
static void prune(const char *dir)
{
	const char *k = getenv("KCHECK_PCH_KEEP");
	char *end = NULL;
	long keep = k && *k ? strtol(k, &end, 10) : 24;
	if ((end && *end) || keep < 1 || keep > 100000)
		keep = 24;
	ka_fs_cache_prune(dir, ".pch", (int)keep, 600);
	ka_fs_cache_prune(dir, ".pch.failed", (int)keep, 600);
	ka_fs_cache_prune(dir, ".tmp", 0, 3600); /* a build that died half-way */
}

const char *ka_frontend_pch(CXIndex idx, ka_arena *a, const char **argv, int argc,
			    struct CXUnsavedFile *unsaved, int nunsaved)
{
	const char *off = getenv("KCHECK_NO_PCH");
	const char *root = cuda_path_arg(argv, argc);
	if ((off && *off && strcmp(off, "0") != 0) || !root)
		return NULL;
	/* The version of how a header is made and checked: a header an older
	 * kcheck stored without the read-back (reads_back) is not trusted. */
	unsigned long long h = hash_str(KA_FNV_START, "kcheck pch 2: read back before use");
	CXString v = clang_getClangVersion();
	h = hash_str(h, clang_getCString(v));
	clang_disposeString(v);
	for (int i = 0; i < argc; i++)
		h = hash_str(h, argv[i]);
	for (int i = 0; i < nunsaved; i++) {
		h = hash_str(h, unsaved[i].Filename);
		h = ka_fs_fnv1a(h, unsaved[i].Contents, unsaved[i].Length);
	}
	h = hash_stat(h, root, "include/cuda_runtime.h");
	h = hash_stat(h, root, "include/cuda_runtime_api.h");
	h = hash_stat(h, root, "include/crt/host_defines.h");
	h = hash_stat(h, root, "version.json");
	char dir[4400], file[4500], failed[4600];
	ka_fs_cache_dir("pch", dir, sizeof dir);
	if (!dir[0])
		return NULL;
	snprintf(file, sizeof file, "%s/%016llx.pch", dir, h);
	snprintf(failed, sizeof failed, "%s.failed", file);
	if (ka_fs_exists(failed))
		return NULL;
	if (ka_fs_exists(file))
		ka_fs_cache_touch(file); /* used: the last to go */
	else if (build(idx, file, argv, argc, unsaved, nunsaved))
		prune(dir);
	else {
		FILE *f = fopen(failed, "w"); /* the next file goes without */
		if (f)
			fclose(f);
		return NULL;
	}
	return ka_arena_strdup(a, file);
}
