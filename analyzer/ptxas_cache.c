/* analyzer/ptxas_cache.c: confirm local-memory facts with ptxas, cached.
 *
 * A per-thread array indexed at run time usually lives in local memory, but
 * a fully unrolled loop can turn every index into a constant and keep the
 * array in registers; only ptxas knows.  When nvcc is installed, a file with
 * such an array is compiled once with -Xptxas -v and kernel.stack_bytes is
 * filled in, so lmem-dynamic-local-array warns only on a real stack frame.
 * The ptxas output is cached under $XDG_CACHE_HOME/kernelarc/ptxas (or
 * ~/.cache/kernelarc/ptxas), keyed by a hash of the file's bytes, the
 * architecture and the -I/-D flags, so a second run costs nothing.  Headers
 * the file includes are not part of the key (a stale entry only changes a
 * note into a warning or back).  Every failure is silent: the facts stay as
 * the analyzer wrote them. */
#include "analyzer/arch.h"
#include "analyzer/ptxas.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/proc.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FAILED_MARK "# kcheck: nvcc failed\n"

static int needs_confirmation(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int yes = 0;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM local_array WHERE dynamic_index = 1 LIMIT 1", -1, &st,
			       NULL) == SQLITE_OK)
		yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

static uint64_t cache_key(const ka_analyze_opts *o, const ka_arch *arch, const char *text, size_t len)
{
	uint64_t h = ka_fs_fnv1a(KA_FNV_START, text, len);
	h = ka_fs_fnv1a(h, arch->name, strlen(arch->name) + 1);
	for (int i = 0; i < o->n_extra_args; i++)
		if (!strncmp(o->extra_args[i], "-I", 2) || !strncmp(o->extra_args[i], "-D", 2))
			h = ka_fs_fnv1a(h, o->extra_args[i], strlen(o->extra_args[i]) + 1);
	return h;
}

void ka_ptxas_confirm_lmem(const ka_analyze_opts *o, const ka_arch *arch, const char *path, sqlite3 *db)
{
	char *text = NULL, *cached = NULL, dir[4400], file[4500];
	size_t len = 0, clen = 0;
	ka_buf out;
	ka_buf_init(&out, 4 << 20);
	if (strncmp(arch->name, "sm_", 3) != 0 || !needs_confirmation(db) || !ka_proc_find_nvcc())
		goto out;
	if (ka_fs_read(path, 64u << 20, &text, &len) != KA_OK)
		goto out;
	ka_fs_cache_dir("ptxas", dir, sizeof dir);
	file[0] = '\0';
	if (dir[0])
		snprintf(file, sizeof file, "%s/%016llx.txt", dir,
			 (unsigned long long)cache_key(o, arch, text, len));
	if (file[0] && ka_fs_read(file, 4u << 20, &cached, &clen) == KA_OK) {
		if (strncmp(cached, FAILED_MARK, strlen(FAILED_MARK)) != 0)
			ka_ptxas_parse(cached, db);
		goto out;
	}
	int rc = ka_ptxas_run(o, arch, path, &out);
	if (rc == KA_OK)
		ka_ptxas_parse(out.data ? out.data : "", db);
	if (file[0] && rc != KA_ENOMEM) /* a failure is cached too: nvcc is slow */
		ka_fs_write_atomic(file, rc == KA_OK && out.data ? out.data : FAILED_MARK,
				   rc == KA_OK && out.data ? out.len : strlen(FAILED_MARK));
out:
	ka_error_clear();
	ka_buf_free(&out);
	free(text);
	free(cached);
}
