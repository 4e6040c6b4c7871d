/* bench/objcheck.c: bench/objcheck.h.  Runs nm, readelf and objdump on the
 * object (no shell) and reads their text output. */
#include "bench/objcheck.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/proc.h"
#include "util/buf.h"
#include "util/error.h"

static const char *const allowed[] = {
	/* nvcc's registration and launch glue */
	"__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary",
	"__cudaRegisterFunction", "__cudaRegisterVar", "__cudaPushCallConfiguration",
	"__cudaPopCallConfiguration", "__cudaLaunchKernel", "__cudaGetKernel", "atexit", "exit",
	/* what the host C++ compiler emits for exceptions, local statics and stack checks */
	"_Unwind_Resume", "__gxx_personality_v0", "__cxa_guard_acquire", "__cxa_guard_release",
	"__cxa_guard_abort", "__stack_chk_fail", "memcpy", "memset", "memmove",
	/* the CUDA runtime calls a kernel wrapper needs */
	"cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel", "cudaFuncSetAttribute",
	"cudaFuncGetAttributes", "cudaFuncSetCacheConfig", "cudaMemsetAsync", "cudaMemcpyAsync",
	"cudaMemcpyToSymbolAsync", "cudaGetLastError", "cudaPeekAtLastError", "cudaGetErrorString",
	"cudaGetDevice", "cudaDeviceGetAttribute", "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
	"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", "cudaOccupancyAvailableDynamicSMemPerBlock",
	/* host math for launch geometry */
	"sqrt", "sqrtf", "ceil", "ceilf", "floor", "floorf", "log2", "log2f", "pow", "powf", "fmin", "fmax",
	"fminf", "fmaxf", "exp", "expf", "log", "logf", NULL};

int ka_bench_objcheck_allowed(const char *name)
{
	for (int i = 0; allowed[i]; i++)
		if (!strcmp(name, allowed[i]))
			return 1;
	return 0;
}

static void add(ka_bench_finding *out, int max, int *n, const char *what, const char *reason)
{
	if (*n < max) {
		out[*n].line = 0;
		snprintf(out[*n].what, sizeof out[*n].what, "%.*s", (int)sizeof out[*n].what - 1,
			 what); /* a name, capped */
		out[*n].reason = reason;
	}
	(*n)++;
}

/* Runs a binutils tool on obj; its stdout in *b (caller frees). */
static int tool(const char *prog, const char *opt, const char *obj, ka_buf *b)
{
	char *argv[] = {(char *)prog, (char *)opt, (char *)obj, NULL};
	ka_proc_result pr;
	ka_buf_init(b, 32 << 20);
	if (ka_proc_run_io(argv, 60, b, NULL, &pr))
		return KA_ETOOL;
	if (pr.status != 0 || !b->data)
		return ka_error_set(KA_ETOOL, "%s %s %s failed (status %d)", prog, opt, obj, pr.status);
	return 0;
}

static void check_imports(const char *text, ka_bench_finding *out, int max, int *n)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char name[256], type[8];
		if (sscanf(l, "%255s %7s", name, type) != 2 ||
		    (strcmp(type, "U") && strcmp(type, "w") && strcmp(type, "v")))
			continue;
		char *at = strchr(name, '@'); /* versioned names: memcpy@GLIBC_2.14 */
		if (at)
			*at = 0;
		if (!ka_bench_objcheck_allowed(name))
			add(out, max, n, name, "the object imports a symbol a kernel wrapper does not need");
	}
}

struct sect {
	char name[64], flags[16];
	unsigned long size;
	int idx;
};

/* Reads readelf -SW lines "[Nr] Name Type Address Off Size ES Flg ...". */
static int sections(const char *text, struct sect *s, int max)
{
	int n = 0;
	for (const char *l = text; l && *l && n < max; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *br = strchr(l, '['), *nl = strchr(l, '\n');
		if (!br || (nl && br > nl) || !strchr(br, ']'))
			continue;
		char type[64], addr[32], off[32], size[32], es[32], flg[32];
		int idx;
		if (sscanf(br + 1, "%d] %63s %63s %31s %31s %31s %31s %31s", &idx, s[n].name, type, addr, off,
			   size, es, flg) != 8)
			continue;
		s[n].idx = idx;
		s[n].size = strtoul(size, NULL, 16);
		snprintf(s[n].flags, sizeof s[n].flags, "%.15s", isdigit((unsigned char)flg[0]) ? "" : flg);
		n++;
	}
	return n;
}

static const struct sect *find_sect(const struct sect *s, int n, const char *name, int idx)
{
	for (int i = 0; i < n; i++)
		if (name ? !strcmp(s[i].name, name) : s[i].idx == idx)
			return &s[i];
	return NULL;
}

/* The one .init_array entry must be nvcc's __sti____cudaRegisterAll. */
static int init_entry_is_nvcc(const char *relocs, const char *syms, const struct sect *s, int ns)
{
	const char *r = strstr(relocs, "'.rela.init_array'");
	char line_sym[128] = "", sym_sect[64] = "";
	unsigned long addend = 0, value = 0;
	int ndx = -1;
	if (!r)
		return 0;
	for (const char *l = strchr(r, '\n'); l && *++l; l = strchr(l, '\n')) {
		char off[32], info[32], type[32], val[32], plus[4];
		if (sscanf(l, "%31s %31s %31s %31s %127s %3s %lx", off, info, type, val, line_sym, plus,
			   &addend) >= 5 &&
		    strstr(type, "R_X86_64"))
			break;
		line_sym[0] = 0;
	}
	const char *st = strstr(syms, "__sti____cudaRegisterAll");
	if (!line_sym[0] || !st)
		return 0;
	while (st > syms && st[-1] != '\n')
		st--;
	char num[16], v[32], size[16], typ[16], bind[16], vis[16], ndxs[16];
	if (sscanf(st, "%15s %31s %15s %15s %15s %15s %15s", num, v, size, typ, bind, vis, ndxs) != 7)
		return 0;
	value = strtoul(v, NULL, 16);
	ndx = atoi(ndxs);
	const struct sect *home = find_sect(s, ns, NULL, ndx);
	if (!home)
		return 0;
	snprintf(sym_sect, sizeof sym_sect, "%s", home->name);
	if (strstr(line_sym, "__sti____cudaRegisterAll"))
		return addend == 0;
	return !strcmp(line_sym, sym_sect) && addend == value;
}

static void check_sections(const char *obj, const char *text, ka_bench_finding *out, int max, int *n, int *rc)
{
	static struct sect s[512];
	static const char *const banned[] = {".fini_array", ".preinit_array", ".ctors", ".dtors",
					     ".init",       ".fini",          NULL};
	int ns = sections(text, s, 512);
	for (int i = 0; i < ns; i++) {
		for (int k = 0; banned[k]; k++)
			if (!strcmp(s[i].name, banned[k]))
				add(out, max, n, s[i].name,
				    "a constructor or destructor section (only nvcc's registration may run before the harness)");
		if (strchr(s[i].flags, 'W') && strchr(s[i].flags, 'X'))
			add(out, max, n, s[i].name, "a section that is both writable and executable");
		if (!strcmp(s[i].name, ".note.GNU-stack") && strchr(s[i].flags, 'X'))
			add(out, max, n, s[i].name, "asks for an executable stack");
	}
	const struct sect *ia = find_sect(s, ns, ".init_array", -1);
	if (!ia || ia->size == 0)
		return;
	if (ia->size > 8) {
		add(out, max, n, ".init_array",
		    "a constructor beyond nvcc's registration (a static constructor or a dynamic initializer)");
		return;
	}
	ka_buf rel, sym;
	if ((*rc = tool("readelf", "-rW", obj, &rel)) == 0 &&
	    (*rc = tool("readelf", "-sW", obj, &sym)) == 0 && !init_entry_is_nvcc(rel.data, sym.data, s, ns))
		add(out, max, n, ".init_array", "its constructor is not nvcc's registration function");
	ka_buf_free(&rel);
	ka_buf_free(&sym);
}

/* Host instructions that enter the kernel directly: only inline assembly
 * produces them in a kernel wrapper. */
static void check_code(const char *text, ka_bench_finding *out, int max, int *n)
{
	static const char *const ins[] = {"\tsyscall", "\tsysenter", "\tint    $0x80", "\tint3", NULL};
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *nl = strchr(l, '\n');
		for (int k = 0; ins[k]; k++) {
			const char *hit = strstr(l, ins[k]);
			if (hit && (!nl || hit < nl)) {
				add(out, max, n, ins[k] + 1,
				    "host code enters the kernel directly (host inline assembly)");
				break;
			}
		}
	}
}

int ka_bench_objcheck(const char *obj, ka_bench_finding *out, int max)
{
	ka_buf b;
	int n = 0, rc;
	if ((rc = tool("nm", "-P", obj, &b)) == 0)
		check_imports(b.data, out, max, &n);
	ka_buf_free(&b);
	if (rc)
		return rc;
	if ((rc = tool("readelf", "-SW", obj, &b)) == 0)
		check_sections(obj, b.data, out, max, &n, &rc);
	ka_buf_free(&b);
	if (rc)
		return rc;
	if ((rc = tool("objdump", "-d", obj, &b)) == 0)
		check_code(b.data, out, max, &n);
	ka_buf_free(&b);
	return rc ? rc : n;
}
