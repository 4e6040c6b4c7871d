/* rewriter/commit.c: from accepted fixes to files.  Order of work: resolve
 * conflicts -> per file: stale check (the bytes on disk must still be the
 * bytes the fixes were computed on) -> new text -> compile gate (on failure
 * find the fix that breaks it, drop the file's fixes) -> writability check
 * of every file -> atomic writes, or the unified diff.  No file is written
 * until every check has passed, and each write checks again, just before
 * its rename, that the file still holds the analysed bytes (a save made
 * while the gate ran wins over the fixes). */
#include "rewriter/rewriter.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_BISECT 12 /* compile fixes one by one to name the culprit, up to this many */

typedef struct pending {
	char *file;
	char *text;
	size_t len;
	int n; /* fixes in it */
} pending;

static void logf_(const ka_commit_opts *o, const char *fmt, const char *a, const char *b, const char *c)
{
	if (o->log) {
		fprintf(o->log, fmt, a, b ? b : "", c ? c : "");
		fputc('\n', o->log);
	}
}

/* The file still holds what the fixes were computed on. */
static int unchanged_on_disk(ka_fixset *fs, const char *file)
{
	const char *mine;
	size_t mlen, dlen;
	char *disk = NULL;
	if (ka_fixset_source(fs, file, &mine, &mlen) < 0 || ka_fs_read(file, 0, &disk, &dlen) < 0)
		return 0;
	int same = dlen == mlen && memcmp(disk, mine, mlen) == 0;
	free(disk);
	return same;
}

/* Name the fixes of `file` that fail to compile on their own. */
static void blame(ka_fixset *fs, const ka_commit_opts *o, const char *file, ka_buf *names)
{
	const char *src;
	size_t len, tried = 0;
	if (ka_fixset_source(fs, file, &src, &len) < 0)
		return;
	for (size_t i = 0; i < ka_fixset_count(fs) && tried < MAX_BISECT; i++) {
		ka_fix *f = ka_fixset_get(fs, i);
		if (f->status != KA_FIX_ACCEPTED || strcmp(f->file, file) != 0)
			continue;
		char *text = NULL, *err = NULL;
		size_t n;
		tried++;
		if (ka_edits_apply(src, len, f->edits, f->n_edits, &text, &n) == KA_OK &&
		    ka_gate_compile(&o->gate_opts, file, text, n, &err) == KA_ETOOL)
			(void)ka_buf_printf(names, "%s%s [%s] at line %d", names->len ? ", " : "",
					    f->transform, f->rule,
					    ka_fixset_line_of(fs, file, f->n_edits ? f->edits[0].begin : 0));
		free(text);
		free(err);
	}
}

/* 1 keep the file, 0 dropped, < 0 KA_ETOOL (no compiler and required) or
 * the gate's own I/O error (KA_EIO: the temporary could not be written). */
static int gate_file(ka_fixset *fs, const ka_commit_opts *o, const char *file, const char *text, size_t len,
		     ka_commit_result *res)
{
	char *err = NULL;
	int rc = ka_gate_compile(&o->gate_opts, file, text, len, &err);
	if (rc == KA_OK)
		return 1;
	if (rc != KA_ENOTFOUND && rc != KA_ETOOL) { /* I/O: the run fails (exit 2), no blame */
		free(err);
		return rc;
	}
	if (rc == KA_ENOTFOUND) {
		char why[256];
		snprintf(why, sizeof why, "%s", ka_error_last());
		if (o->require_gate)
			return ka_error_set(KA_ETOOL, "compile gate: %s (--require-compile-gate)", why);
		if (!res->gate_skipped)
			logf_(o, "compile gate skipped: %s", why, NULL, NULL);
		res->gate_skipped = 1;
		return 1;
	}
	ka_buf names;
	ka_buf_init(&names, 1 << 16);
	if (rc == KA_ETOOL && !(err && strncmp(err, "compiler killed", 15) == 0))
		blame(fs, o, file, &names); /* a hang would hang again per fix: no blame */
	logf_(o, "%s: fixes not applied: the edited file does not compile (%s): %s", file,
	      names.len ? names.data : "the fixes together", err ? err : ka_error_last());
	ka_fixset_reject_file(fs, file, KA_FIX_GATE_FAILED, err ? err : ka_error_last());
	ka_buf_free(&names);
	free(err);
	return 0;
}

static int count_fixes(ka_fixset *fs, const char *file)
{
	int n = 0;
	for (size_t i = 0; i < ka_fixset_count(fs); i++) {
		ka_fix *f = ka_fixset_get(fs, i);
		n += f->status == KA_FIX_ACCEPTED && strcmp(f->file, file) == 0;
	}
	return n;
}

/* The file on disk is no longer the text the fixes were computed on. */
static void stale(ka_fixset *fs, const ka_commit_opts *o, const char *file, ka_commit_result *res)
{
	res->fixes_rejected += count_fixes(fs, file);
	logf_(o, "%s: fixes not applied: the file changed on disk during the run", file, NULL, NULL);
	ka_fixset_reject_file(fs, file, KA_FIX_STALE, "the file changed on disk during the run");
}

static int prepare(ka_fixset *fs, const ka_commit_opts *o, pending *p, size_t *np, ka_commit_result *res)
{
	size_t nf = ka_fixset_file_count(fs);
	char **files = calloc(nf + 1, sizeof(char *));
	int rc = files ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
	for (size_t i = 0; rc == KA_OK && i < nf; i++) /* the list shrinks as files are rejected */
		if (!(files[i] = strdup(ka_fixset_file_get(fs, i))))
			rc = ka_error_set(KA_ENOMEM, "out of memory");
	for (size_t i = 0; rc == KA_OK && i < nf; i++) {
		const char *file = files[i];
		int changed = 0, n = count_fixes(fs, file);
		if (!unchanged_on_disk(fs, file)) {
			stale(fs, o, file, res);
			continue;
		}
		if ((rc = ka_fixset_apply_file(fs, file, &p[*np].text, &p[*np].len, &changed)) < 0)
			break;
		if (!changed) {
			free(p[*np].text);
			continue;
		}
		int keep = o->gate ? gate_file(fs, o, file, p[*np].text, p[*np].len, res) : 1;
		if (keep <= 0) {
			free(p[*np].text);
			rc = keep < 0 ? keep : KA_OK;
			res->fixes_rejected += keep == 0 ? n : 0;
			continue;
		}
		p[*np].file = files[i];
		p[*np].n = n;
		files[i] = NULL;
		(*np)++;
		res->fixes_applied += n;
	}
	for (size_t i = 0; files && i < nf; i++)
		free(files[i]);
	free(files);
	return rc;
}

static int writable(const char *file)
{
	char *dir = strdup(file), *slash = dir ? strrchr(dir, '/') : NULL;
	if (!dir)
		return ka_error_set(KA_ENOMEM, "out of memory");
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	/* no write bit at all is read-only even for root, who passes access() */
	struct stat st;
	int ok = access(file, W_OK) == 0 && access(slash ? dir : ".", W_OK) == 0 && stat(file, &st) == 0 &&
		 (st.st_mode & 0222) != 0;
	free(dir);
	return ok ? KA_OK
		  : ka_error_set(KA_EIO, "cannot write %s: permission denied (no file was changed)", file);
}

int ka_fixset_commit(ka_fixset *fs, const ka_commit_opts *o, ka_commit_result *res)
{
	size_t nf, np = 0;
	pending *p = NULL;
	int rc = KA_OK;
	memset(res, 0, sizeof *res);
	ka_fixset_resolve(fs, o->max_safety);
	nf = ka_fixset_file_count(fs);
	if (nf && !(p = calloc(nf, sizeof(pending))))
		return ka_error_set(KA_ENOMEM, "out of memory");
	if ((rc = prepare(fs, o, p, &np, res)) < 0)
		goto out;
	for (size_t i = 0; o->write && i < np; i++)
		if ((rc = writable(p[i].file)) < 0)
			goto out;
	for (size_t i = 0; o->diff && i < np; i++) {
		const char *src;
		size_t len;
		char *label = ka_diff_label(p[i].file);
		if (ka_fixset_source(fs, p[i].file, &src, &len) == KA_OK && label)
			rc = ka_diff_unified(label, src, len, p[i].text, p[i].len, o->diff);
		free(label);
		if (rc < 0)
			goto out;
	}
	for (size_t i = 0; o->write && i < np; i++) {
		const char *src;
		size_t len;
		if ((rc = ka_fixset_source(fs, p[i].file, &src, &len)) < 0 ||
		    (rc = ka_fs_write_atomic_if(p[i].file, p[i].text, p[i].len, src, len)) < 0)
			goto out;
		if (rc == KA_FS_CHANGED) { /* saved while the gate ran: the save wins */
			rc = KA_OK;
			stale(fs, o, p[i].file, res);
			res->fixes_applied -= p[i].n;
			continue;
		}
		res->files_changed++;
	}
	if (!o->write)
		res->files_changed = (int)np;
out:
	for (size_t i = 0; i < np; i++) {
		free(p[i].file);
		free(p[i].text);
	}
	free(p);
	return rc;
}
