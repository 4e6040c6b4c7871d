/* analyzer/frontend_args.c: the compiler arguments the front end hands to
 * libclang, and the shim headers.  Kept apart from frontend.c so that
 * `kcheck facts --print-clang-args` and the benchmark script can show the
 * exact flags without parsing anything.
 *
 * Real CUDA headers (device-side parse, DESIGN.md, checked with clang 19.1.7
 * and CUDA 13.0 on 2026-11): -target-sdk-version keeps <<<>>> launches in the
 * AST, and CUDA 13 dropped texture_fetch_functions.h which clang 19 still
 * includes, so an empty one is supplied in memory. */
#include "analyzer/arch.h"
#include "analyzer/frontend.h"
#include "util/error.h"
#include "util/fs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct ka_embedded ka_shim_files[];

#define SHIM_DIR "/kcheck-shim"

#ifndef KA_CLANG_RESOURCE_DIR
#define KA_CLANG_RESOURCE_DIR "/usr/lib/llvm-19/lib/clang/19"
#endif

const struct ka_embedded *ka_frontend_shim_table(void)
{
	return ka_shim_files;
}

static const char *cuda_root(const ka_frontend_opts *o)
{
	const char *p = o->cuda_path ? o->cuda_path : getenv("CUDA_PATH");
	return p ? p : "/usr/local/cuda";
}

static int has_hip_headers(const char *root)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/include/hip/hip_runtime.h", root);
	return ka_fs_exists(path);
}

/* ROCm's headers: $ROCM_PATH, /opt/rocm, or the system's (Debian's
 * libamdhip64-dev puts them in /usr/include/hip).  NULL when none. */
static const char *rocm_root(void)
{
	const char *p = getenv("ROCM_PATH");
	if (p && *p)
		return has_hip_headers(p) ? p : NULL;
	if (has_hip_headers("/opt/rocm"))
		return "/opt/rocm";
	return has_hip_headers("/usr") ? "/usr" : NULL;
}

int ka_frontend_uses_shim(const ka_frontend_opts *o)
{
	char path[4096];
	if (o->force_shim)
		return 1;
	if (o->lang && strcmp(o->lang, "hip") == 0)
		return rocm_root() == NULL;
	snprintf(path, sizeof path, "%s/include/cuda_runtime.h", cuda_root(o));
	return !ka_fs_exists(path);
}

typedef struct argv_b {
	ka_arena *a;
	const char **v;
	int n, cap;
} argv_b;

static void push(argv_b *b, const char *s)
{
	if (b->n + 1 >= b->cap) {
		int ncap = b->cap ? b->cap * 2 : 32;
		const char **nv = ka_arena_alloc(b->a, sizeof *nv * (size_t)ncap);
		if (b->n)
			memcpy(nv, b->v, sizeof *nv * (size_t)b->n);
		b->v = nv;
		b->cap = ncap;
	}
	b->v[b->n++] = ka_arena_strdup(b->a, s);
	b->v[b->n] = NULL;
}

/* Flags from a compile database, .kcheck.yaml or after `--`: translated
 * from nvcc's spelling and filtered by frontend_flags.c's allow-list. */
static void add_user_flags(argv_b *b, const ka_frontend_opts *o)
{
	ka_flags fl;
	ka_frontend_flags(b->a, o->extra, o->nextra, o->directory, &fl);
	for (int i = 0; i < fl.n; i++)
		push(b, fl.v[i]);
}

int ka_frontend_args(const ka_frontend_opts *o, ka_arena *a, const char ***argv, int *argc)
{
	argv_b b = {.a = a};
	const char *arch = o->arch ? o->arch : KA_ARCH_DEFAULT;
	const char *res = o->resource_dir ? o->resource_dir : getenv("KCHECK_CLANG_RESOURCE_DIR");
	int hip = o->lang && strcmp(o->lang, "hip") == 0;
	if (!res)
		res = KA_CLANG_RESOURCE_DIR;
	push(&b, "-resource-dir");
	push(&b, res);
	if (hip) {
		char gfx[64];
		snprintf(gfx, sizeof gfx, "--offload-arch=%s",
			 strncmp(arch, "gfx", 3) == 0 ? arch : "gfx90a");
		push(&b, "-x");
		push(&b, "hip");
		push(&b, gfx);
		push(&b, "-nogpulib");
		push(&b, "--cuda-device-only");
		if (ka_frontend_uses_shim(o)) {
			push(&b, "-nogpuinc");
			push(&b, "-include");
			push(&b, SHIM_DIR "/kcheck_hip.h");
			push(&b, "-isystem"); /* the shim's hip/hip_runtime.h */
			push(&b, SHIM_DIR);
		} else { /* ROCm's own headers; the shim folder stays out of the path */
			char rp[4200];
			snprintf(rp, sizeof rp, "--rocm-path=%s", rocm_root());
			push(&b, rp);
			push(&b, "-include"); /* what newer ROCm declares (shim/) */
			push(&b, SHIM_DIR "/kcheck_hip_prelude.h");
		}
	} else {
		/* libclang needs an NVIDIA target; AMD profiles still parse CUDA as the default. */
		char gpu[64];
		snprintf(gpu, sizeof gpu, "--cuda-gpu-arch=%s",
			 strncmp(arch, "sm_", 3) == 0 ? arch : KA_ARCH_DEFAULT);
		push(&b, "-x");
		push(&b, "cuda");
		push(&b, gpu);
		push(&b, "-nocudalib");
		push(&b, "--cuda-device-only");
		push(&b, "-Xclang");
		push(&b, "-target-sdk-version=12.5");
		push(&b, "-Wno-unknown-cuda-version");
		if (ka_frontend_uses_shim(o)) {
			push(&b, "-nocudainc");
			push(&b, "-include");
			push(&b, SHIM_DIR "/kcheck_cuda.h");
			push(&b, "-isystem"); /* the shim's cuda_runtime.h, cuda_fp16.h, cuda_bf16.h, mma.h */
			push(&b, SHIM_DIR "/cuda");
		} else {
			char cp[4200];
			snprintf(cp, sizeof cp, "--cuda-path=%s", cuda_root(o));
			push(&b, cp);
			snprintf(cp, sizeof cp, "%s/include/cccl", cuda_root(o));
			push(&b, "-isystem");
			push(&b, cp);
			push(&b, "-include"); /* what nvcc declares and clang lacks */
			push(&b, SHIM_DIR "/kcheck_nvcc.h");
		}
		push(&b, "-isystem"); /* texture_fetch_functions.h */
		push(&b, SHIM_DIR);
	}
	/* no limit: an error past clang's default 20 (or any limit) must still
	 * mark the function it lies in as not analyzed, or its body, with the
	 * broken parts dropped, would be analyzed as if whole */
	push(&b, "-ferror-limit=0");
	add_user_flags(&b, o);
	*argv = b.v;
	*argc = b.n;
	return KA_OK;
}
