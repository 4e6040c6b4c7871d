/* analyzer/ptxas.c: --ptxas.  Compiles the file with `nvcc -Xptxas -v` and
 * joins registers, spill stores and static shared memory to the kernel rows
 * by mangled name (libclang's mangling of a device-side parse matches).
 * nvcc compiles a private copy (util/safesrc.h), never the file by its own
 * name, and a project flag nvcc's /bin/sh would act on stops the compile
 * (util/shsafe.h). */
#include "analyzer/ptxas.h"
#include "util/error.h"
#include "util/proc.h"
#include "util/safesrc.h"
#include "util/shsafe.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void update(sqlite3 *db, const char *fn, long regs, long spills, long smem, long stack)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db,
			       "UPDATE kernel SET regs = ?, spills_bytes = ?, ptxas_smem = ?, "
			       "stack_bytes = ?5 WHERE mangled = ?4",
			       -1, &s, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(s, 5, stack);
	if (regs >= 0)
		sqlite3_bind_int64(s, 1, regs);
	sqlite3_bind_int64(s, 2, spills);
	sqlite3_bind_int64(s, 3, smem);
	sqlite3_bind_text(s, 4, fn, -1, SQLITE_TRANSIENT);
	sqlite3_step(s);
	sqlite3_finalize(s);
}

int ka_ptxas_parse(const char *text, sqlite3 *db)
{
	char fn[512] = "";
	long spills = 0, stack = 0;
	const char *p = text;
	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char line[1024];
		snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
		const char *q;
		if ((q = strstr(line, "Function properties for ")) != NULL) {
			snprintf(fn, sizeof fn, "%s", q + strlen("Function properties for "));
			spills = 0;
			stack = 0;
		} else if ((q = strstr(line, "Compiling entry function '")) != NULL) {
			q += strlen("Compiling entry function '");
			const char *end = strchr(q, '\'');
			snprintf(fn, sizeof fn, "%.*s", end ? (int)(end - q) : 0, q);
			spills = 0;
			stack = 0;
		} else if ((q = strstr(line, "bytes spill stores")) != NULL) {
			const char *sf = strstr(line, "bytes stack frame");
			if (sf)
				stack = strtol(line, NULL, 10);
			const char *c = strrchr(line, ',');
			const char *num = c && c < q ? c + 1 : line;
			long a = strtol(num, NULL, 10);
			const char *sp = strstr(line, " bytes spill stores");
			const char *st = sp;
			while (st > line && st[-1] != ',')
				st--;
			spills = strtol(st, NULL, 10);
			(void)a;
		} else if ((q = strstr(line, "Used ")) != NULL && fn[0]) {
			long regs = strtol(q + 5, NULL, 10), smem = 0;
			const char *s = strstr(line, "bytes smem");
			if (s) {
				const char *st = s;
				while (st > line && st[-1] != ',')
					st--;
				smem = strtol(st, NULL, 10);
			}
			update(db, fn, regs, spills, smem, stack);
		}
		p = e ? e + 1 : NULL;
	}
	return KA_OK;
}

int ka_ptxas_run(const ka_analyze_opts *o, const ka_arch *arch, const char *path, ka_buf *out)
{
	const char *nvcc = ka_proc_find_nvcc();
	if (!nvcc)
		return ka_error_set(KA_ETOOL, "--ptxas needs nvcc (no CUDA toolkit at /usr/local/cuda)");
	if (strncmp(arch->name, "sm_", 3) != 0)
		return ka_error_set(KA_ETOOL, "--ptxas needs an NVIDIA --arch (got %s)", arch->name);
	char archflag[64], why[96], show[160], *iquote = NULL;
	snprintf(archflag, sizeof archflag, "-arch=%s", arch->name);
	char *argv[64];
	int n = 0;
	argv[n++] = (char *)nvcc;
	argv[n++] = archflag;
	argv[n++] = "-Xptxas";
	argv[n++] = "-v";
	argv[n++] = "-c";
	argv[n++] = "-o";
	argv[n++] = "/dev/null";
	for (int i = 0, take; i < o->n_extra_args; i += take) { /* -I and -D, with a separate value */
		const char *a = o->extra_args[i];
		if (!ka_proc_cc_flag(o->extra_args, o->n_extra_args, i, &take) ||
		    (strncmp(a, "-I", 2) != 0 && strncmp(a, "-D", 2) != 0) || n + take > 58)
			continue;
		for (int k = 0; k < take; k++) {
			if (!ka_sh_safe(o->extra_args[i + k], why, sizeof why))
				return ka_error_set(KA_EINPUT,
						    "--ptxas: %s: flag '%s' holds %s; not compiled", path,
						    ka_sh_show(show, sizeof show, o->extra_args[i + k]), why);
			argv[n++] = (char *)o->extra_args[i + k];
		}
	}
	ka_safesrc copy;
	int rc = ka_safesrc_make(path, NULL, 0, &copy);
	if (rc != KA_OK)
		return rc;
	if (!(iquote = malloc(strlen(copy.quote) + 16))) {
		ka_safesrc_remove(&copy);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	sprintf(iquote, "-iquote%s", copy.quote); /* the original's folder, for "x.h" */
	argv[n++] = "-Xcompiler";
	argv[n++] = iquote;
	argv[n++] = copy.file;
	argv[n] = NULL;
	ka_proc_result res;
	rc = ka_proc_run(argv, 300, out, &res);
	if (rc == KA_OK && (!res.exited || res.status != 0))
		rc = ka_error_set(KA_ETOOL, "--ptxas: nvcc failed on %s%s", path,
				  res.timed_out ? " (time limit)" : "");
	ka_safesrc_remove(&copy);
	free(iquote);
	return rc;
}

/* The register limit on resident blocks, once ptxas has given each
 * kernel's registers: a warp's registers are allocated in units of 256
 * (registers per thread x 32, rounded up), an SM holds regs_per_sm of
 * them, and a block whose warps need more than that does not launch (0).
 * occ_blocks, occupancy and occ_limiter follow when registers are the
 * tighter limit. */
static const char regs_occupancy_sql[] =
	"UPDATE kernel SET occ_blocks_regs = (SELECT (a.regs_per_sm"
	"   / (((kernel.regs * a.warp_size + 255) / 256) * 256))"
	"   / ((kernel.block_threads + a.warp_size - 1) / a.warp_size) FROM arch a LIMIT 1)"
	" WHERE regs > 0 AND block_threads > 0;"
	"UPDATE kernel SET occ_blocks = occ_blocks_regs, occ_limiter = 'regs',"
	" occupancy = (SELECT 1.0 * occ_blocks_regs * ((kernel.block_threads + a.warp_size - 1)"
	"   / a.warp_size) * a.warp_size / a.max_threads_per_sm FROM arch a LIMIT 1)"
	" WHERE occ_blocks_regs IS NOT NULL AND (occ_blocks IS NULL OR occ_blocks_regs < occ_blocks);";

int ka_ptxas_join(const ka_analyze_opts *o, const ka_arch *arch, const char *path, sqlite3 *db)
{
	ka_buf out;
	ka_buf_init(&out, 4 << 20);
	int rc = ka_ptxas_run(o, arch, path, &out);
	if (rc == KA_OK)
		rc = ka_ptxas_parse(out.data ? out.data : "", db);
	if (rc == KA_OK && sqlite3_exec(db, regs_occupancy_sql, NULL, NULL, NULL) != SQLITE_OK)
		rc = ka_error_set(KA_ERR, "--ptxas: register occupancy: %s", sqlite3_errmsg(db));
	ka_buf_free(&out);
	return rc;
}
