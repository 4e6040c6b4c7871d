/* analyzer/frontend.h: parse one file into the kernel model (model.h).
 * frontend*.c are the only libclang users; frontend_args.c builds the compiler
 * arguments and owns the shim headers used when no toolkit is installed. */
#ifndef KA_ANALYZER_FRONTEND_H
#define KA_ANALYZER_FRONTEND_H
#include "analyzer/model.h"
#include "util/embed.h"

typedef struct ka_frontend_opts {
	const char *lang;      /* cuda | hip */
	const char *arch;      /* sm_90, gfx942, ... */
	const char *cuda_path; /* NULL: /usr/local/cuda when present */
	int force_shim;
	int lang_fixed;           /* lang was given (-x): no guess from the includes */
	const char *resource_dir; /* NULL: $KCHECK_CLANG_RESOURCE_DIR or the build's */
	const char *const *extra;
	int nextra;
	const char *directory; /* relative paths in extra resolve here (NULL: cwd) */
} ka_frontend_opts;

/* User flags (nvcc, hipcc, gcc or clang spelling) translated for the parser
 * and filtered by an allow-list (frontend_flags.c). */
typedef struct ka_flags {
	const char **v; /* clang flags, NULL-terminated */
	int n, cap;
	const char *arch; /* target named by -arch/-gencode/--offload-arch, or NULL */
	int hip;          /* -x hip */
	int cuda;         /* -x cuda, or HIP's NVIDIA platform defined (-D__HIP_PLATFORM_NVIDIA__) */
	/* The first flag dropped that could have carried an include path or a
	 * macro (-Wp,-I..., -Xclang -D..., -imacros, an unreadable response or
	 * options file), or NULL: the caller says so once. */
	const char *dropped;
} ka_flags;
int ka_frontend_flags(ka_arena *a, const char *const *in, int n, const char *dir, ka_flags *out);

/* Parse and lower.  KA_OK with *out set (diagnostics in (*out)->diags, even
 * with errors); KA_EIO for unreadable or binary files; KA_EPARSE when
 * libclang fails outright. */
int ka_frontend_parse(const ka_frontend_opts *o, const char *path, ka_tu **out);

/* frontend_chevron.c: launches written `k << < g, b >> > (...)`, which
 * nvcc accepts and clang does not.  ka_chevron_join rewrites them in place
 * as `k <<<  g, b >>>  (...)` (same length, same line breaks) and returns
 * how many it joined; ka_chevron_spaced says whether text has a spaced
 * triple at all (a cheap test before copying a file). */
int ka_chevron_join(char *text, size_t len);
int ka_chevron_spaced(const char *text, size_t len);
/* Whether text opens a chevron launch (`<<<` or `<< <`). */
int ka_chevron_opens(const char *text);

/* incguard.c: while a parse runs, libclang may read only regular files
 * (and folders) of at most KA_INCLUDE_MAX_BYTES: an include of a device,
 * a FIFO or a socket fails at once instead of reading forever or waiting.
 * Per thread.  ka_incguard_end: 1 when something was refused, with
 * "'PATH', which is a FIFO (only regular files are read)" in msg. */
#define KA_INCLUDE_MAX_BYTES ((long long)64 << 20)
void ka_incguard_begin(void);
int ka_incguard_end(char *msg, size_t cap);

/* The compiler arguments for a file (argv without the file name). */
int ka_frontend_args(const ka_frontend_opts *o, ka_arena *a, const char ***argv, int *argc);
/* The arguments a parse hands libclang: ka_frontend_args, then
 * `-include-pch PATH` when the parse uses the toolkit's precompiled header
 * (which this builds when it is not there yet). */
int ka_frontend_parse_args(const ka_frontend_opts *o, ka_arena *a, const char ***argv, int *argc);
/* Whether this parse uses the shim headers (no toolkit, HIP, or forced). */
int ka_frontend_uses_shim(const ka_frontend_opts *o);
/* The in-memory headers to hand to the parser: virtual path + contents. */
const struct ka_embedded *ka_frontend_shim_table(void);

/* A TU whose main file's bytes the caller already read (copied). */
ka_tu *ka_tu_new(const char *main_file, const char *lang, const char *data, size_t len);
void ka_tu_free(ka_tu *tu);
/* Register a file by path (its bytes are read once, on the first ka_tu_file);
 * returns the interned path. */
const char *ka_frontend_intern_file(ka_tu *tu, const char *path);

#endif
