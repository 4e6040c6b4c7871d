/* analyzer/frontend_flags.c: user compiler flags -> the clang flags the
 * parser gets.
 *
 * Flags come from places a repository controls (compile_commands.json,
 * .kcheck.yaml extra-args) and from the command line after `--`.  They may
 * be nvcc's, hipcc's, gcc's or clang's.  Two jobs:
 *
 *  - translate nvcc's spelling: -gencode/-arch/--gpu-architecture/-code
 *    (the target, reported as `arch`), -Xcompiler A,B (host flags, filtered
 *    like the rest), -rdc/--relocatable-device-code, --use_fast_math,
 *    --expt-relaxed-constexpr and --extended-lambda (clang's default),
 *    --std/-std, long names of -D/-U/-I/-isystem/-include, response files
 *    (@file) and nvcc's options files (--options-file F / -optf F, a comma
 *    list; CMake 3.25+ puts the -I flags there), nested up to 8 deep;
 *  - an allow-list: only macros, include paths, forced includes, the
 *    language standard, the language and warnings by name reach libclang.
 *    Everything else is dropped with its argument: -Wp,/-Wa,/-Wl,,
 *    -Xpreprocessor/-Xclang/-Xlinker, -M* (dependency files), -o, plugins,
 *    -Werror (it would turn warnings into errors).  A `-Wp,-MD,PATH` in a
 *    cloned repository's compile database must never write PATH.
 *
 * Relative include paths and response files resolve against the compile
 * database entry's directory.  A dropped flag that could have carried an
 * include path or a macro is named in ka_flags.dropped. */
#include "analyzer/frontend.h"
#include "util/fs.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RSP_DEPTH 8
#define MAX_RSP_BYTES (1u << 20)

typedef struct fl {
	ka_arena *a;
	const char *dir;
	ka_flags *out;
	int depth;
} fl;

static void emit(fl *f, const char *s)
{
	ka_flags *o = f->out;
	if (o->n + 1 >= o->cap) {
		int ncap = o->cap ? o->cap * 2 : 32;
		const char **nv = ka_arena_alloc(f->a, sizeof *nv * (size_t)ncap);
		if (o->n)
			memcpy(nv, o->v, sizeof *nv * (size_t)o->n);
		o->v = nv;
		o->cap = ncap;
	}
	o->v[o->n++] = ka_arena_strdup(f->a, s);
	o->v[o->n] = NULL;
}

/* A path argument, made absolute against the entry's directory. */
static const char *path_arg(fl *f, const char *p)
{
	if (!f->dir || !*p || p[0] == '/')
		return p;
	return ka_arena_printf(f->a, "%s/%s", f->dir, p);
}

/* -W<name>: a warning by name (letters, digits, - _ = +), never -Werror. */
static int warning_by_name(const char *s)
{
	if (strncmp(s, "-W", 2) != 0 || !s[2] || strncmp(s, "-Werror", 7) == 0 || !strcmp(s, "-Wl") ||
	    !strcmp(s, "-Wa") || !strcmp(s, "-Wp"))
		return 0;
	for (const char *p = s + 2; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '=' && *p != '+')
			return 0;
	return 1;
}

/* sm_80 / compute_80 / gfx90a from an -arch or -gencode value. */
static void take_arch(fl *f, const char *v)
{
	const char *p;
	char buf[32];
	if ((p = strstr(v, "code=")) != NULL) /* arch=compute_80,code=sm_80 */
		v = p + 5;
	else if ((p = strstr(v, "arch=")) != NULL)
		v = p + 5;
	if (v[0] == '[') /* code=[sm_80,compute_80] */
		v++;
	size_t n = strcspn(v, ",]; ");
	if (n == 0 || n >= sizeof buf)
		return;
	memcpy(buf, v, n);
	buf[n] = '\0';
	if (strncmp(buf, "compute_", 8) == 0)
		f->out->arch = ka_arena_printf(f->a, "sm_%s", buf + 8);
	else if (strncmp(buf, "sm_", 3) == 0 || strncmp(buf, "gfx", 3) == 0)
		f->out->arch = ka_arena_strdup(f->a, buf);
	/* native, all, all-major: keep kcheck's default */
}

static void translate(fl *f, const char *const *in, int n);
static void translate_list(fl *f, const char *list);
static void options_files(fl *f, const char *list);

static void dropped(fl *f, const char *flag, const char *value)
{
	if (!f->out->dropped)
		f->out->dropped = value ? ka_arena_printf(f->a, "%s %s", flag, value)
					: ka_arena_strdup(f->a, flag);
}

/* -Wp,-I..., -Xclang -DX, ...: a value that names an include path or macro. */
static int carries_path_or_macro(const char *v)
{
	return v && (strstr(v, "-I") || strstr(v, "-D") || strstr(v, "-isystem") || strstr(v, "-include") ||
		     strstr(v, "-U"));
}

static void response_file(fl *f, const char *how, const char *name)
{
	char *text = NULL;
	size_t len = 0;
	if (f->depth >= MAX_RSP_DEPTH || ka_fs_read(path_arg(f, name), MAX_RSP_BYTES, &text, &len) != 0) {
		dropped(f, ka_arena_printf(f->a, "%s%s (unreadable)", how, name), NULL);
		return;
	}
	const char **v = ka_arena_alloc(f->a, (len / 2 + 2) * sizeof *v);
	int k = 0;
	char *w = ka_arena_alloc(f->a, len + 1);
	for (size_t i = 0; i < len;) {
		while (i < len && isspace((unsigned char)text[i]))
			i++;
		if (i >= len)
			break;
		char *start = w, q = 0;
		for (; i < len && (q || !isspace((unsigned char)text[i])); i++) {
			char c = text[i];
			if (q && c == q)
				q = 0;
			else if (!q && (c == '"' || c == '\''))
				q = c;
			else if (c == '\\' && i + 1 < len && q != '\'')
				*w++ = text[++i];
			else
				*w++ = c;
		}
		*w++ = '\0';
		v[k++] = start;
	}
	free(text);
	f->depth++;
	translate(f, v, k);
	f->depth--;
}

/* Options whose value is a path or macro and that clang takes as they are;
 * nvcc's long names map to the short ones. */
static const struct {
	const char *name, *clang;
	int is_path;
} keep_arg[] = {
	{"-D", "-D", 0},
	{"--define-macro", "-D", 0},
	{"-U", "-U", 0},
	{"--undefine-macro", "-U", 0},
	{"-I", "-I", 1},
	{"--include-path", "-I", 1},
	{"-isystem", "-isystem", 1},
	{"--system-include", "-isystem", 1},
	{"-iquote", "-iquote", 1},
	{"-idirafter", "-idirafter", 1},
	{"-include", "-include", 1},
	{"--pre-include", "-include", 1},
	{NULL, NULL, 0},
};

/* Options (nvcc, gcc, clang) whose separate value must be skipped with them. */
static const char *const skip_arg[] = {
	"-o",
	"--output-file",
	"-MF",
	"-MT",
	"-MQ",
	"-Xpreprocessor",
	"-Xassembler",
	"-Xlinker",
	"-Xclang",
	"-Xptxas",
	"-Xnvlink",
	"-Xfatbin",
	"-Xarchive",
	"-Xcudafe",
	"-ccbin",
	"--compiler-bindir",
	"-odir",
	"--output-directory",
	"--keep-dir",
	"-maxrregcount",
	"--maxrregcount",
	"-t",
	"--threads",
	"-l",
	"-L",
	"--library",
	"--library-path",
	"-include-pch",
	"-imacros",
	"-load",
	"-fplugin",
	"--dependency-output",
	"-MJ",
	"-split-compile",
	"--split-compile",
	"-time",
	"--run-args",
	"-rsp",
	NULL,
};

/* One option (and maybe its value in[i + 1]); returns how many were used. */
static int one(fl *f, const char *const *in, int n, int i)
{
	const char *s = in[i], *next = i + 1 < n ? in[i + 1] : NULL;
	for (int k = 0; keep_arg[k].name; k++) {
		const char *name = keep_arg[k].name, *v = NULL;
		size_t l = strlen(name);
		int used = 1;
		if (strncmp(s, name, l) != 0)
			continue;
		if (!s[l])
			v = next, used = 2; /* -I dir, --include-path dir */
		else if (name[1] == '-' && s[l] == '=')
			v = s + l + 1; /* --include-path=dir */
		else if (name[1] != '-')
			v = s + l; /* -Idir, -DX=1 */
		if (!v)
			continue;
		const char *c = keep_arg[k].clang;
		if (!strcmp(c, "-D") &&
		    (!strncmp(v, "__HIP_PLATFORM_NVIDIA__", 23) || !strncmp(v, "__HIP_PLATFORM_NVCC__", 21)))
			f->out->cuda = 1; /* HIP through its CUDA back end: the file is CUDA */
		if (c[2]) {               /* -isystem DIR: two words */
			emit(f, c);
			emit(f, path_arg(f, v));
		} else {
			emit(f, ka_arena_printf(f->a, "%s%s", c, keep_arg[k].is_path ? path_arg(f, v) : v));
		}
		return used;
	}
	if (s[0] == '@' && s[1]) {
		response_file(f, "@", s + 1);
		return 1;
	}
	if ((!strcmp(s, "--options-file") || !strcmp(s, "-optf")) && next) {
		options_files(f, next);
		return 2;
	}
	if (!strncmp(s, "--options-file=", 15) || !strncmp(s, "-optf=", 6)) {
		options_files(f, strchr(s, '=') + 1);
		return 1;
	}
	if (!strncmp(s, "-std=", 5) || !strncmp(s, "--std=", 6)) {
		emit(f, ka_arena_printf(f->a, "-std=%s", strchr(s, '=') + 1));
		return 1;
	}
	if ((!strcmp(s, "-std") || !strcmp(s, "--std")) && next) {
		emit(f, ka_arena_printf(f->a, "-std=%s", next));
		return 2;
	}
	if (!strcmp(s, "-gencode") || !strcmp(s, "--generate-code") || !strcmp(s, "-arch") ||
	    !strcmp(s, "--gpu-architecture") || !strcmp(s, "-code") || !strcmp(s, "--gpu-code")) {
		if (next && !f->out->arch)
			take_arch(f, next);
		return next ? 2 : 1;
	}
	static const char *const arch_eq[] = {"-gencode=",           "--generate-code=", "-arch=",
					      "--gpu-architecture=", "-code=",           "--gpu-code=",
					      "--offload-arch=",     "--cuda-gpu-arch=", NULL};
	for (int k = 0; arch_eq[k]; k++)
		if (!strncmp(s, arch_eq[k], strlen(arch_eq[k]))) {
			if (!f->out->arch)
				take_arch(f, s + strlen(arch_eq[k]));
			return 1;
		}
	if ((!strcmp(s, "-Xcompiler") || !strcmp(s, "--compiler-options")) && next) {
		translate_list(f, next);
		return 2;
	}
	if (!strncmp(s, "-Xcompiler=", 11) || !strncmp(s, "--compiler-options=", 19)) {
		translate_list(f, strchr(s, '=') + 1);
		return 1;
	}
	if (!strcmp(s, "-x") && next) {
		if (!strcmp(next, "hip"))
			f->out->hip = 1;
		else if (!strcmp(next, "cuda"))
			f->out->cuda = 1;
		return 2;
	}
	if (!strcmp(s, "-rdc=true") || !strcmp(s, "--relocatable-device-code=true") || !strcmp(s, "-dc") ||
	    !strcmp(s, "-fgpu-rdc")) {
		emit(f, "-fgpu-rdc");
		return 1;
	}
	if (!strcmp(s, "--use_fast_math") || !strcmp(s, "-use_fast_math") || !strcmp(s, "-ffast-math")) {
		emit(f, "-ffast-math");
		return 1;
	}
	if (warning_by_name(s) || !strcmp(s, "-w")) {
		emit(f, s);
		return 1;
	}
	for (int k = 0; skip_arg[k]; k++)
		if (!strcmp(s, skip_arg[k])) {
			if (!strcmp(s, "-imacros") ||
			    ((!strcmp(s, "-Xpreprocessor") || !strcmp(s, "-Xclang")) &&
			     carries_path_or_macro(next)))
				dropped(f, s, next);
			return next ? 2 : 1;
		}
	if (!strncmp(s, "-Wp,", 4) && carries_path_or_macro(s + 4))
		dropped(f, s, NULL);
	return 1; /* anything else: dropped (-O3, -g, -MD, -Wp,..., -Wl,..., files) */
}

/* nvcc's --options-file takes a comma-separated list of files, each read
 * like a response file. */
static void options_files(fl *f, const char *list)
{
	char *copy = ka_arena_strdup(f->a, list);
	for (char *tok = copy, *end; tok; tok = end) {
		end = strchr(tok, ',');
		if (end)
			*end++ = '\0';
		if (*tok)
			response_file(f, "--options-file ", tok);
	}
}

/* -Xcompiler takes a comma-separated list. */
static void translate_list(fl *f, const char *list)
{
	char *copy = ka_arena_strdup(f->a, list);
	const char *v[64];
	int k = 0;
	for (char *tok = copy, *end; tok && k < 64; tok = end) {
		end = strchr(tok, ',');
		if (end)
			*end++ = '\0';
		if (*tok)
			v[k++] = tok;
	}
	f->depth++;
	if (f->depth <= MAX_RSP_DEPTH)
		translate(f, v, k);
	f->depth--;
}

static void translate(fl *f, const char *const *in, int n)
{
	for (int i = 0; i < n;)
		i += one(f, in, n, i);
}

int ka_frontend_flags(ka_arena *a, const char *const *in, int n, const char *dir, ka_flags *out)
{
	memset(out, 0, sizeof *out);
	fl f = {.a = a, .dir = dir && *dir ? dir : NULL, .out = out};
	out->v = ka_arena_alloc(a, sizeof *out->v);
	out->v[0] = NULL;
	translate(&f, in, n);
	return 0;
}
