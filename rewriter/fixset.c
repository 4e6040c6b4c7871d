/* rewriter/fixset.c: the edit model.  A fixset holds the file texts fixes
 * were computed against, the fixes (groups of byte-range edits), the notes
 * for the report, and resolves overlapping fixes deterministically: rule
 * priority, then position, then rule id; the loser is reported.  It sits
 * between the transforms (which fill it) and the outputs (which read it). */
#include "rewriter/rewriter.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/wire.h"
#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct source {
	char *path;
	char *data;
	size_t len;
} source;

struct ka_fixset {
	source *src;
	size_t n_src, cap_src;
	ka_fix **fix;
	size_t n_fix, cap_fix;
	char **note;
	size_t n_note, cap_note;
	char **files; /* files with ACCEPTED fixes, first-seen order */
	size_t n_files;
	int strict; /* never read a text from disk (ka_fixset_set_strict) */
};

static void set_why(ka_fix *f, const char *fmt, ...);

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return KA_OK;
	size_t n = *cap ? *cap * 2 : 8;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, n * elem);
	if (!q)
		return ka_error_set(KA_ENOMEM, "out of memory");
	*p = q;
	*cap = n;
	return KA_OK;
}

int ka_fixset_new(ka_fixset **out)
{
	*out = calloc(1, sizeof(ka_fixset));
	return *out ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
}

static void fix_free(ka_fix *f)
{
	for (size_t i = 0; i < f->n_edits; i++)
		free(f->edits[i].text);
	free(f->edits);
	free(f->file);
	free(f->rule);
	free(f->transform);
	free(f->message);
	free(f->why);
	free(f->key);
	free(f);
}

void ka_fixset_free(ka_fixset *fs)
{
	if (!fs)
		return;
	for (size_t i = 0; i < fs->n_src; i++) {
		free(fs->src[i].path);
		free(fs->src[i].data);
	}
	for (size_t i = 0; i < fs->n_fix; i++)
		fix_free(fs->fix[i]);
	for (size_t i = 0; i < fs->n_note; i++)
		free(fs->note[i]);
	for (size_t i = 0; i < fs->n_files; i++)
		free(fs->files[i]);
	free(fs->src);
	free(fs->fix);
	free(fs->note);
	free(fs->files);
	free(fs);
}

static source *find_source(ka_fixset *fs, const char *path)
{
	for (size_t i = 0; i < fs->n_src; i++)
		if (strcmp(fs->src[i].path, path) == 0)
			return &fs->src[i];
	return NULL;
}

int ka_fixset_set_source(ka_fixset *fs, const char *path, const char *data, size_t len)
{
	source *s = find_source(fs, path);
	char *copy = malloc(len + 1);
	if (!copy)
		return ka_error_set(KA_ENOMEM, "out of memory");
	memcpy(copy, data, len);
	copy[len] = '\0';
	if (s) {
		free(s->data);
		s->data = copy;
		s->len = len;
		return KA_OK;
	}
	if (grow((void **)&fs->src, &fs->cap_src, fs->n_src + 1, sizeof(source)) < 0 ||
	    !(path = strdup(path))) {
		free(copy);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	fs->src[fs->n_src++] = (source){(char *)path, copy, len};
	return KA_OK;
}

int ka_fixset_source(ka_fixset *fs, const char *path, const char **data, size_t *len)
{
	source *s = find_source(fs, path);
	*data = NULL;
	*len = 0;
	if (!s && fs->strict)
		return ka_error_set(KA_EIO, "%s: not among the analysed files", path);
	if (!s) {
		char *buf = NULL;
		size_t n = 0;
		int rc = ka_fs_read(path, 0, &buf, &n);
		if (rc < 0)
			return rc;
		rc = ka_fixset_set_source(fs, path, buf, n);
		free(buf);
		if (rc < 0)
			return rc;
		s = find_source(fs, path);
	}
	*data = s->data;
	*len = s->len;
	return KA_OK;
}

ka_fix *ka_fixset_add_fix(ka_fixset *fs, const char *file, const char *rule, const char *transform,
			  ka_fix_safety safety, int priority, int finding, const char *message)
{
	if (grow((void **)&fs->fix, &fs->cap_fix, fs->n_fix + 1, sizeof(ka_fix *)) < 0)
		return NULL;
	ka_fix *f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->file = strdup(file);
	f->rule = strdup(rule ? rule : "");
	f->transform = strdup(transform ? transform : "");
	f->message = strdup(message ? message : "");
	if (!f->file || !f->rule || !f->transform || !f->message) {
		fix_free(f);
		ka_error_set(KA_ENOMEM, "out of memory");
		return NULL;
	}
	f->safety = safety;
	f->priority = priority;
	f->finding = finding;
	fs->fix[fs->n_fix++] = f;
	return f;
}

int ka_fix_add_edit(ka_fix *fix, size_t begin, size_t end, const char *text)
{
	assert(fix);
	if (end < begin)
		return ka_error_set(KA_EINPUT, "edit range %zu..%zu is reversed", begin, end);
	if (grow((void **)&fix->edits, &fix->cap_edits, fix->n_edits + 1, sizeof(ka_edit)) < 0)
		return KA_ENOMEM;
	for (size_t k = 0; k < fix->n_edits; k++) /* the same edit twice is one edit */
		if (fix->edits[k].begin == begin && fix->edits[k].end == end &&
		    strcmp(fix->edits[k].text, text ? text : "") == 0)
			return KA_OK;
	char *t = strdup(text ? text : "");
	if (!t)
		return ka_error_set(KA_ENOMEM, "out of memory");
	/* keep the edits sorted by (begin, end): insertion sort, fixes are small */
	size_t i = fix->n_edits;
	while (i > 0 && (fix->edits[i - 1].begin > begin ||
			 (fix->edits[i - 1].begin == begin && fix->edits[i - 1].end > end))) {
		fix->edits[i] = fix->edits[i - 1];
		i--;
	}
	fix->edits[i] = (ka_edit){begin, end, t};
	fix->n_edits++;
	return KA_OK;
}

void ka_fix_clear_edits(ka_fix *fix)
{
	for (size_t i = 0; i < fix->n_edits; i++)
		free(fix->edits[i].text);
	fix->n_edits = 0;
}

void ka_fixset_note(ka_fixset *fs, const char *fmt, ...)
{
	ka_buf b;
	ka_buf_init(&b, 4096);
	va_list ap;
	va_start(ap, fmt);
	int rc = ka_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	for (size_t i = 0; rc >= 0 && b.data && i < fs->n_note; i++)
		if (strcmp(fs->note[i], b.data) == 0)
			rc = KA_ERR; /* said already (several findings, one cause) */
	if (rc < 0 || grow((void **)&fs->note, &fs->cap_note, fs->n_note + 1, sizeof(char *)) < 0) {
		ka_buf_free(&b);
		return;
	}
	fs->note[fs->n_note++] = ka_buf_steal(&b);
}

void ka_fixset_set_strict(ka_fixset *fs)
{
	fs->strict = 1;
}

/* src's fixes on `path` were computed on other bytes than dst holds. */
static void stale_in(ka_fixset *src, const char *path)
{
	for (size_t i = 0; i < src->n_fix; i++)
		if (strcmp(src->fix[i]->file, path) == 0) {
			src->fix[i]->status = KA_FIX_STALE;
			set_why(src->fix[i], "the file changed on disk during the run");
		}
}

int ka_fixset_merge(ka_fixset *dst, ka_fixset *src, int finding_base)
{
	for (size_t i = 0; i < src->n_src; i++) {
		source *s = &src->src[i], *have = find_source(dst, s->path);
		if (have && (have->len != s->len || memcmp(have->data, s->data, s->len) != 0)) {
			stale_in(src, s->path); /* two jobs read the file at different times */
			ka_fixset_note(dst,
				       "%s: some fixes not applied: the file changed on disk during the run",
				       s->path);
		} else if (!have && ka_fixset_set_source(dst, s->path, s->data, s->len) < 0)
			return KA_ENOMEM;
	}
	if (grow((void **)&dst->fix, &dst->cap_fix, dst->n_fix + src->n_fix, sizeof(ka_fix *)) < 0 ||
	    grow((void **)&dst->note, &dst->cap_note, dst->n_note + src->n_note, sizeof(char *)) < 0)
		return KA_ENOMEM;
	for (size_t i = 0; i < src->n_fix; i++) {
		if (src->fix[i]->finding >= 0)
			src->fix[i]->finding += finding_base;
		dst->fix[dst->n_fix++] = src->fix[i];
	}
	for (size_t i = 0; i < src->n_note; i++) {
		int seen = 0;
		for (size_t k = 0; k < dst->n_note && !seen; k++)
			seen = strcmp(dst->note[k], src->note[i]) == 0;
		if (seen)
			free(src->note[i]);
		else
			dst->note[dst->n_note++] = src->note[i];
	}
	src->n_fix = src->n_note = 0;
	return KA_OK;
}

size_t ka_fixset_count(const ka_fixset *fs)
{
	return fs->n_fix;
}
ka_fix *ka_fixset_get(ka_fixset *fs, size_t i)
{
	assert(i < fs->n_fix);
	return i < fs->n_fix ? fs->fix[i] : NULL;
}
size_t ka_fixset_note_count(const ka_fixset *fs)
{
	return fs->n_note;
}
const char *ka_fixset_note_get(const ka_fixset *fs, size_t i)
{
	assert(i < fs->n_note);
	return i < fs->n_note ? fs->note[i] : NULL;
}

int ka_fixset_line_of(ka_fixset *fs, const char *file, size_t off)
{
	source *s = find_source(fs, file);
	if (!s)
		return 0;
	int line = 1;
	for (size_t i = 0; i < off && i < s->len; i++)
		line += s->data[i] == '\n';
	return line;
}

/* Two edits touch the same bytes.  Insertions at one point do not conflict
 * (they go in resolution order: priority, position, rule), nor does an
 * insertion at the boundary of a replacement. */
static int edits_overlap(const ka_edit *a, const ka_edit *b)
{
	if (a->begin == a->end && b->begin == b->end)
		return 0;
	if (a->begin == a->end)
		return a->begin > b->begin && a->begin < b->end;
	if (b->begin == b->end)
		return b->begin > a->begin && b->begin < a->end;
	return a->begin < b->end && b->begin < a->end;
}

static int fixes_overlap(const ka_fix *a, const ka_fix *b)
{
	for (size_t i = 0; i < a->n_edits; i++)
		for (size_t j = 0; j < b->n_edits; j++)
			if (edits_overlap(&a->edits[i], &b->edits[j]))
				return 1;
	return 0;
}

static int fixes_equal(const ka_fix *a, const ka_fix *b)
{
	if (a->n_edits != b->n_edits)
		return 0;
	for (size_t i = 0; i < a->n_edits; i++)
		if (a->edits[i].begin != b->edits[i].begin || a->edits[i].end != b->edits[i].end ||
		    strcmp(a->edits[i].text, b->edits[i].text) != 0)
			return 0;
	return 1;
}

static size_t first_off(const ka_fix *f)
{
	return f->n_edits ? f->edits[0].begin : 0;
}

static int fix_order(const void *pa, const void *pb)
{
	const ka_fix *a = *(ka_fix *const *)pa, *b = *(ka_fix *const *)pb;
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	if (a->priority != b->priority)
		return a->priority < b->priority ? -1 : 1;
	if (first_off(a) != first_off(b))
		return first_off(a) < first_off(b) ? -1 : 1;
	if ((c = strcmp(a->rule, b->rule)) != 0)
		return c;
	if ((c = strcmp(a->transform, b->transform)) != 0)
		return c;
	return a->finding < b->finding ? -1 : a->finding > b->finding;
}

static void set_why(ka_fix *f, const char *fmt, ...)
{
	ka_buf b;
	ka_buf_init(&b, 4096);
	va_list ap;
	va_start(ap, fmt);
	(void)ka_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	free(f->why);
	f->why = ka_buf_steal(&b);
}

static void remember_file(ka_fixset *fs, const char *file)
{
	for (size_t i = 0; i < fs->n_files; i++)
		if (strcmp(fs->files[i], file) == 0)
			return;
	char **p = realloc(fs->files, (fs->n_files + 1) * sizeof(char *));
	if (!p)
		return;
	fs->files = p;
	if ((fs->files[fs->n_files] = strdup(file)) != NULL)
		fs->n_files++;
}

/* One candidate against the fixes already accepted (all sorted before it). */
static void resolve_one(ka_fixset *fs, ka_fix **sorted, size_t k)
{
	ka_fix *f = sorted[k];
	for (size_t j = 0; j < k; j++) {
		ka_fix *w = sorted[j];
		if (w->status != KA_FIX_ACCEPTED || strcmp(w->file, f->file) != 0)
			continue;
		if (fixes_equal(w, f)) {
			f->status = KA_FIX_DUPLICATE;
			set_why(f, "same edits as %s", w->rule);
			return;
		}
		if (fixes_overlap(w, f)) {
			int line = ka_fixset_line_of(fs, f->file, first_off(f));
			f->status = KA_FIX_CONFLICT;
			set_why(f, "conflicts with %s (%s) at line %d", w->transform, w->rule,
				ka_fixset_line_of(fs, w->file, first_off(w)));
			ka_fixset_note(fs, "%s:%d: %s fix [%s] not applied: %s", f->file, line, f->transform,
				       f->rule, f->why);
			return;
		}
	}
	f->status = KA_FIX_ACCEPTED;
	remember_file(fs, f->file);
}

void ka_fixset_resolve(ka_fixset *fs, ka_fix_safety max_safety)
{
	ka_fix **sorted = malloc((fs->n_fix ? fs->n_fix : 1) * sizeof(ka_fix *));
	if (!sorted)
		return;
	for (size_t i = 0; i < fs->n_files; i++)
		free(fs->files[i]);
	fs->n_files = 0;
	if (fs->n_fix) { /* fs->fix is NULL while empty: memcpy/qsort must not see it */
		memcpy(sorted, fs->fix, fs->n_fix * sizeof(ka_fix *));
		qsort(sorted, fs->n_fix, sizeof(ka_fix *), fix_order);
	}
	for (size_t k = 0; k < fs->n_fix; k++) {
		ka_fix *f = sorted[k];
		f->order = k;
		if (f->status == KA_FIX_STALE || f->status == KA_FIX_GATE_FAILED)
			continue;
		f->status = KA_FIX_PENDING;
		if (ka_fix_safety_rank(f->safety) > ka_fix_safety_rank(max_safety) || f->n_edits == 0) {
			f->status = KA_FIX_NOT_SELECTED;
			continue;
		}
		resolve_one(fs, sorted, k);
	}
	free(sorted);
}

int ka_edits_apply(const char *src, size_t len, const ka_edit *edits, size_t n, char **out, size_t *out_len)
{
	ka_buf b;
	ka_buf_init(&b, KA_BUF_DEFAULT_LIMIT);
	size_t at = 0;
	int rc = KA_OK;
	*out = NULL;
	for (size_t i = 0; i < n; i++) {
		if (edits[i].begin < at || edits[i].end > len) {
			rc = ka_error_set(KA_EINPUT, "edit %zu..%zu out of order or past the end (%zu bytes)",
					  edits[i].begin, edits[i].end, len);
			goto out;
		}
		if ((rc = ka_buf_add(&b, src + at, edits[i].begin - at)) < 0 ||
		    (rc = ka_buf_adds(&b, edits[i].text)) < 0)
			goto out;
		at = edits[i].end;
	}
	if ((rc = ka_buf_add(&b, src + at, len - at)) < 0)
		goto out;
	*out_len = b.len;
	*out = ka_buf_steal(&b);
	if (!*out)
		rc = ka_error_set(KA_ENOMEM, "out of memory");
out:
	ka_buf_free(&b);
	return rc;
}

typedef struct ranked {
	ka_edit e;
	size_t order;
} ranked;

static int edit_order(const void *pa, const void *pb)
{
	const ranked *a = pa, *b = pb;
	if (a->e.begin != b->e.begin)
		return a->e.begin < b->e.begin ? -1 : 1;
	if (a->e.end != b->e.end)
		return a->e.end < b->e.end ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

int ka_fixset_apply_file(ka_fixset *fs, const char *file, char **out, size_t *out_len, int *changed)
{
	const char *src;
	size_t len, n = 0, m = 0;
	int rc = ka_fixset_source(fs, file, &src, &len);
	*changed = 0;
	*out = NULL;
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < fs->n_fix; i++)
		if (fs->fix[i]->status == KA_FIX_ACCEPTED && strcmp(fs->fix[i]->file, file) == 0)
			n += fs->fix[i]->n_edits;
	ranked *all = malloc((n ? n : 1) * sizeof(ranked));
	ka_edit *flat = malloc((n ? n : 1) * sizeof(ka_edit));
	if (!all || !flat) {
		free(all);
		free(flat);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	n = 0;
	for (size_t i = 0; i < fs->n_fix; i++) {
		ka_fix *f = fs->fix[i];
		if (f->status == KA_FIX_ACCEPTED && strcmp(f->file, file) == 0)
			for (size_t j = 0; j < f->n_edits; j++)
				all[n++] = (ranked){f->edits[j], f->order};
	}
	qsort(all, n, sizeof(ranked), edit_order);
	for (size_t i = 0; i < n; i++) { /* one insertion of the same text at one point */
		if (m && all[i].e.begin == all[i].e.end && flat[m - 1].begin == all[i].e.begin &&
		    flat[m - 1].end == all[i].e.end && strcmp(flat[m - 1].text, all[i].e.text) == 0)
			continue;
		flat[m++] = all[i].e;
	}
	rc = ka_edits_apply(src, len, flat, m, out, out_len);
	if (rc == KA_OK)
		*changed = *out_len != len || memcmp(*out, src, len) != 0;
	free(all);
	free(flat);
	return rc;
}

size_t ka_fixset_file_count(const ka_fixset *fs)
{
	return fs->n_files;
}
const char *ka_fixset_file_get(const ka_fixset *fs, size_t i)
{
	assert(i < fs->n_files);
	return i < fs->n_files ? fs->files[i] : NULL;
}

void ka_fixset_reject_file(ka_fixset *fs, const char *file, ka_fix_status status, const char *why)
{
	for (size_t i = 0; i < fs->n_fix; i++) {
		ka_fix *f = fs->fix[i];
		if (strcmp(f->file, file) != 0 || f->status != KA_FIX_ACCEPTED)
			continue;
		f->status = status;
		set_why(f, "%s", why ? why : "");
	}
	for (size_t i = 0; i < fs->n_files; i++)
		if (strcmp(fs->files[i], file) == 0) {
			free(fs->files[i]);
			memmove(&fs->files[i], &fs->files[i + 1], (fs->n_files - i - 1) * sizeof(char *));
			fs->n_files--;
			break;
		}
}

int ka_fix_safety_rank(ka_fix_safety s)
{
	assert(s == KA_FIX_SAFE || s == KA_FIX_UNSAFE || s == KA_FIX_SUGGEST);
	return s == KA_FIX_SAFE ? 0 : s == KA_FIX_UNSAFE ? 1 : 2;
}

const char *ka_fix_status_name(ka_fix_status s)
{
	static const char *const names[] = {"pending",      "applied", "conflict",           "duplicate",
					    "not selected", "stale",   "compile gate failed"};
	assert((unsigned)s < sizeof(names) / sizeof(names[0]));
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* ---- a fixset through a pipe (lint's worker processes) ---------------- */

int ka_fixset_pack(const ka_fixset *fs, ka_buf *b)
{
	int rc = ka_wire_int(b, fs->strict);
	rc = rc ? rc : ka_wire_int(b, (long long)fs->n_src);
	for (size_t i = 0; rc == KA_OK && i < fs->n_src; i++) {
		rc = ka_wire_str(b, fs->src[i].path);
		rc = rc ? rc : ka_wire_bytes(b, fs->src[i].data, fs->src[i].len);
	}
	rc = rc ? rc : ka_wire_int(b, (long long)fs->n_fix);
	for (size_t i = 0; rc == KA_OK && i < fs->n_fix; i++) {
		const ka_fix *f = fs->fix[i];
		long long nums[] = {f->priority, f->finding,          f->safety,
				    f->status,   (long long)f->order, (long long)f->n_edits};
		const char *strs[] = {f->file, f->rule, f->transform, f->message, f->why, f->key};
		for (size_t k = 0; rc == KA_OK && k < sizeof nums / sizeof *nums; k++)
			rc = ka_wire_int(b, nums[k]);
		for (size_t k = 0; rc == KA_OK && k < sizeof strs / sizeof *strs; k++)
			rc = ka_wire_str(b, strs[k]);
		for (size_t k = 0; rc == KA_OK && k < f->n_edits; k++) {
			rc = ka_wire_int(b, (long long)f->edits[k].begin);
			rc = rc ? rc : ka_wire_int(b, (long long)f->edits[k].end);
			rc = rc ? rc : ka_wire_str(b, f->edits[k].text);
		}
	}
	rc = rc ? rc : ka_wire_int(b, (long long)fs->n_note);
	for (size_t i = 0; rc == KA_OK && i < fs->n_note; i++)
		rc = ka_wire_str(b, fs->note[i]);
	return rc;
}

/* One packed fix into fs; 0 when the message is short or garbled. */
static int unpack_fix(ka_wire_in *in, ka_fixset *fs)
{
	long long nums[6];
	char *strs[6];
	for (int k = 0; k < 6; k++)
		nums[k] = ka_wire_get_int(in);
	for (int k = 0; k < 6; k++)
		strs[k] = ka_wire_get_str(in);
	ka_fix *f = !in->bad && strs[0]
			    ? ka_fixset_add_fix(fs, strs[0], strs[1], strs[2], (ka_fix_safety)nums[2],
						(int)nums[0], (int)nums[1], strs[3])
			    : NULL;
	if (f) {
		f->status = (ka_fix_status)nums[3];
		f->order = (size_t)nums[4];
		f->why = strs[4], f->key = strs[5];
		strs[4] = strs[5] = NULL;
	}
	for (int k = 0; k < 6; k++)
		free(strs[k]);
	for (long long k = 0; f && !in->bad && k < nums[5]; k++) {
		long long begin = ka_wire_get_int(in), end = ka_wire_get_int(in);
		char *text = ka_wire_get_str(in);
		if (in->bad || begin < 0 || end < begin ||
		    ka_fix_add_edit(f, (size_t)begin, (size_t)end, text))
			in->bad = 1;
		free(text);
	}
	return f && !in->bad;
}

int ka_fixset_unpack(ka_wire_in *in, ka_fixset **out)
{
	ka_fixset *fs = NULL;
	*out = NULL;
	if (ka_fixset_new(&fs) != KA_OK)
		return KA_ENOMEM;
	fs->strict = (int)ka_wire_get_int(in);
	long long n = ka_wire_get_int(in);
	for (long long i = 0; !in->bad && i < n; i++) {
		size_t len = 0;
		char *path = ka_wire_get_str(in), *data = ka_wire_get_bytes(in, &len);
		if (!path || !data || ka_fixset_set_source(fs, path, data, len) != KA_OK)
			in->bad = 1;
		free(path);
		free(data);
	}
	n = ka_wire_get_int(in);
	for (long long i = 0; !in->bad && i < n; i++)
		if (!unpack_fix(in, fs))
			in->bad = 1;
	n = ka_wire_get_int(in);
	for (long long i = 0; !in->bad && i < n; i++) {
		char *note = ka_wire_get_str(in);
		if (note)
			ka_fixset_note(fs, "%s", note);
		free(note);
	}
	if (in->bad) {
		ka_fixset_free(fs);
		return ka_error_set(KA_ERR, "a worker's fixes arrived garbled");
	}
	*out = fs;
	return KA_OK;
}
