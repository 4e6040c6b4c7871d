/* rules/baseline.c: write, read and apply a findings baseline (see
 * baseline.h).  The file is JSON:
 *   {"version": 1, "tool": "kcheck", "findings": [
 *     {"file": "...", "line": 12, "rule": "...", "message": "...",
 *      "fingerprint": "9f0c..."}, ...]}
 * `line` is informational; matching ignores it.  File names and messages
 * that are not valid UTF-8 are written with U+FFFD for each bad byte, and
 * findings are matched the same way (utf8.h). */
#include "rules/baseline.h"
#include "rules/utf8.h"
#include "util/error.h"
#include "util/fs.h"
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bentry {
	char *file, *rule, *message, *fingerprint;
	int taken;
} bentry;

struct ka_baseline {
	bentry *v;
	size_t n;
};

/* FNV-1a of the line without leading/trailing blanks, as 16 hex digits. */
void ka_baseline_fingerprint(ka_sources *src, const ka_finding *f, char out[17])
{
	const char *p = "";
	size_t len = 0;
	uint64_t h = 1469598103934665603ULL;
	if (src && ka_sources_line(src, f->file, f->line, &p, &len)) {
		while (len && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
	}
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)p[i];
		h *= 1099511628211ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

int ka_baseline_write(const char *path, const ka_findings *fs, ka_sources *src)
{
	int rc = KA_ENOMEM;
	char *text = NULL;
	json_t *root = json_pack("{s:i, s:s, s:[]}", "version", 1, "tool", "kcheck", "findings");
	if (!root)
		goto out;
	json_t *arr = json_object_get(root, "findings");
	for (size_t i = 0; i < fs->n; i++) {
		const ka_finding *f = &fs->v[i];
		char fp[17];
		ka_baseline_fingerprint(src, f, fp);
		json_t *e = json_pack("{s:o, s:i, s:o, s:o, s:s}", "file", ka_json_text(f->file), "line",
				      f->line, "rule", ka_json_text(f->rule), "message",
				      ka_json_text(f->message), "fingerprint", fp);
		if (!e || json_array_append_new(arr, e) != 0)
			goto out;
	}
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (!text)
		goto out;
	size_t n = strlen(text);
	char *withnl = malloc(n + 2);
	if (!withnl)
		goto out;
	memcpy(withnl, text, n);
	withnl[n] = '\n';
	withnl[n + 1] = '\0';
	rc = ka_fs_write_atomic(path, withnl, n + 1);
	free(withnl);
out:
	if (rc == KA_ENOMEM)
		ka_error_set(rc, "out of memory writing baseline %s", path);
	free(text);
	json_decref(root);
	return rc;
}

static char *jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? strdup(s) : NULL;
}

int ka_baseline_load(const char *path, ka_baseline **out)
{
	json_error_t err;
	char *text = NULL;
	size_t len = 0;
	json_t *root = NULL;
	ka_baseline *b = NULL;
	int rc = ka_fs_read(path, 0, &text, &len);
	*out = NULL;
	if (rc != KA_OK)
		return rc;
	rc = KA_EINPUT;
	root = json_loadb(text, len, 0, &err);
	if (!root) {
		ka_error_set(rc, "%s:%d:%d: malformed baseline: %s", path, err.line, err.column, err.text);
		goto out;
	}
	json_t *arr = json_object_get(root, "findings");
	if (!json_is_array(arr) || json_integer_value(json_object_get(root, "version")) != 1) {
		ka_error_set(rc, "%s: not a kcheck baseline (expected version 1 and a findings array)", path);
		goto out;
	}
	b = calloc(1, sizeof *b);
	if (!b || !(b->v = calloc(json_array_size(arr) + 1, sizeof *b->v))) {
		rc = ka_error_set(KA_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *e = json_array_get(arr, i);
		bentry *x = &b->v[b->n++];
		x->file = jstr(e, "file");
		x->rule = jstr(e, "rule");
		x->message = jstr(e, "message");
		x->fingerprint = jstr(e, "fingerprint");
		if (!x->file || !x->rule || !x->message || !x->fingerprint) {
			ka_error_set(rc, "%s: baseline entry %zu lacks file, rule, message or fingerprint",
				     path, i + 1);
			goto out;
		}
	}
	*out = b;
	b = NULL;
	rc = KA_OK;
out:
	ka_baseline_free(b);
	json_decref(root);
	free(text);
	return rc;
}

size_t ka_baseline_count(const ka_baseline *b)
{
	return b ? b->n : 0;
}

void ka_baseline_free(ka_baseline *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++) {
		free(b->v[i].file);
		free(b->v[i].rule);
		free(b->v[i].message);
		free(b->v[i].fingerprint);
	}
	free(b->v);
	free(b);
}

typedef struct fctx {
	ka_baseline *b;
	ka_sources *src;
	size_t dropped;
} fctx;

static int keep_new(const ka_finding *f, void *ud)
{
	fctx *c = ud;
	char fp[17];
	int keep = 1;
	char *file = ka_utf8_fix(f->file), *msg = ka_utf8_fix(f->message);
	ka_baseline_fingerprint(c->src, f, fp);
	for (size_t i = 0; file && msg && i < c->b->n; i++) {
		bentry *x = &c->b->v[i];
		if (!x->taken && strcmp(x->file, file) == 0 && strcmp(x->rule, f->rule) == 0 &&
		    strcmp(x->message, msg) == 0 && strcmp(x->fingerprint, fp) == 0) {
			x->taken = 1;
			c->dropped++;
			keep = 0;
			break;
		}
	}
	free(file);
	free(msg);
	return keep;
}

size_t ka_baseline_filter(ka_baseline *b, ka_findings *fs, ka_sources *src)
{
	fctx c = {b, src, 0};
	for (size_t i = 0; i < b->n; i++)
		b->v[i].taken = 0;
	ka_findings_filter(fs, keep_new, &c);
	return c.dropped;
}
