/* rewriter/export.c: fixes for other tools.  clang-tidy's replacement YAML
 * (`--export-fixes FILE`, read by clang-apply-replacements and editors) and
 * SARIF 2.1.0 `fixes` objects for the engine's SARIF writer.  YAML goes
 * through libyaml's emitter so any replacement text is quoted correctly. */
#include "rewriter/rewriter.h"
#include "util/buf.h"
#include "util/error.h"
#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static int emit_write(void *data, unsigned char *buf, size_t size)
{
	return fwrite(buf, 1, size, (FILE *)data) == size;
}

static int scalar(yaml_emitter_t *em, const char *s, int quoted)
{
	yaml_event_t ev;
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1,
				     quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
	return yaml_emitter_emit(em, &ev);
}

static int kv(yaml_emitter_t *em, const char *k, const char *v, int quoted)
{
	return scalar(em, k, 0) && scalar(em, v, quoted);
}

static int kv_num(yaml_emitter_t *em, const char *k, size_t v)
{
	char num[32];
	snprintf(num, sizeof num, "%zu", v);
	return kv(em, k, num, 0);
}

static int map_start(yaml_emitter_t *em)
{
	yaml_event_t ev;
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	return yaml_emitter_emit(em, &ev);
}

static int map_end(yaml_emitter_t *em)
{
	yaml_event_t ev;
	yaml_mapping_end_event_initialize(&ev);
	return yaml_emitter_emit(em, &ev);
}

static int seq_start(yaml_emitter_t *em)
{
	yaml_event_t ev;
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	return yaml_emitter_emit(em, &ev);
}

static int seq_end(yaml_emitter_t *em)
{
	yaml_event_t ev;
	yaml_sequence_end_event_initialize(&ev);
	return yaml_emitter_emit(em, &ev);
}

/* clang-tidy writes absolute paths; so do we when the file exists. */
static char *abs_path(const char *p)
{
	char *r = realpath(p, NULL);
	return r ? r : strdup(p);
}

static int emit_fix(yaml_emitter_t *em, const ka_fix *f)
{
	char *path = abs_path(f->file);
	int ok = path && map_start(em) && kv(em, "DiagnosticName", f->rule, 0) &&
		 scalar(em, "DiagnosticMessage", 0) && map_start(em) && kv(em, "Message", f->message, 1) &&
		 kv(em, "FilePath", path, 1) &&
		 kv_num(em, "FileOffset", f->n_edits ? f->edits[0].begin : 0) &&
		 scalar(em, "Replacements", 0) && seq_start(em);
	for (size_t i = 0; ok && i < f->n_edits; i++)
		ok = map_start(em) && kv(em, "FilePath", path, 1) &&
		     kv_num(em, "Offset", f->edits[i].begin) &&
		     kv_num(em, "Length", f->edits[i].end - f->edits[i].begin) &&
		     kv(em, "ReplacementText", f->edits[i].text, 1) && map_end(em);
	ok = ok && seq_end(em) && map_end(em) && kv(em, "Level", "Warning", 0) && map_end(em);
	free(path);
	return ok;
}

int ka_fixset_write_yaml(ka_fixset *fs, const char *main_file, ka_fix_status status, FILE *out)
{
	yaml_emitter_t em;
	yaml_event_t ev;
	int ok;
	char *main_abs = abs_path(main_file ? main_file : "");
	if (!main_abs || !yaml_emitter_initialize(&em)) {
		free(main_abs);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	yaml_emitter_set_output(&em, emit_write, out);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, INT_MAX / 2);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	ok = yaml_emitter_emit(&em, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
	ok = ok && yaml_emitter_emit(&em, &ev) && map_start(&em) && kv(&em, "MainSourceFile", main_abs, 1) &&
	     scalar(&em, "Diagnostics", 0) && seq_start(&em);
	for (size_t i = 0; ok && i < ka_fixset_count(fs); i++) {
		const ka_fix *f = ka_fixset_get(fs, i);
		if (f->status == status)
			ok = emit_fix(&em, f);
	}
	ok = ok && seq_end(&em) && map_end(&em);
	yaml_document_end_event_initialize(&ev, 0);
	ok = ok && yaml_emitter_emit(&em, &ev);
	yaml_stream_end_event_initialize(&ev);
	ok = ok && yaml_emitter_emit(&em, &ev) && yaml_emitter_flush(&em);
	yaml_emitter_delete(&em);
	free(main_abs);
	return ok ? KA_OK : ka_error_set(KA_EIO, "cannot write the fixes YAML");
}

/* 1-based line and UTF-16 column of a byte offset, as SARIF counts them. */
static void sarif_pos(const char *s, size_t len, size_t off, int *line, int *col)
{
	int l = 1, c = 1;
	for (size_t i = 0; i < off && i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '\n') {
			l++;
			c = 1;
		} else if ((ch & 0xC0) != 0x80) {
			c += ch >= 0xF0 ? 2 : 1; /* 4-byte UTF-8 = a surrogate pair */
		}
	}
	*line = l;
	*col = c;
}

/* A SARIF artifact URI: relative paths stay relative, absolute ones get
 * file://, everything outside [A-Za-z0-9-._~/] is percent-encoded. */
static char *uri_of(const char *path)
{
	ka_buf b;
	ka_buf_init(&b, 1 << 16);
	if (path[0] == '/')
		(void)ka_buf_adds(&b, "file://");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (isalnum(*p) || strchr("-._~/", *p))
			(void)ka_buf_addc(&b, (char)*p);
		else
			(void)ka_buf_printf(&b, "%%%02X", *p);
	}
	return ka_buf_steal(&b);
}

/* The name the report uses for the fix's file: `shown` when it is the same
 * file, else the path relative to the current folder. */
static char *fix_uri(const ka_fix *f, const char *shown)
{
	char *a = shown ? realpath(shown, NULL) : NULL, *b = a ? realpath(f->file, NULL) : NULL;
	char *label = a && b && strcmp(a, b) == 0 ? strdup(shown) : ka_diff_label(f->file);
	char *uri = label ? uri_of(label) : NULL;
	free(a);
	free(b);
	free(label);
	return uri;
}

static json_t *sarif_fix(ka_fixset *fs, const ka_fix *f, const char *shown)
{
	const char *src;
	size_t len;
	if (ka_fixset_source(fs, f->file, &src, &len) < 0)
		return NULL;
	char *label = fix_uri(f, shown);
	json_t *reps = json_array();
	for (size_t i = 0; i < f->n_edits; i++) {
		int l1, c1, l2, c2;
		sarif_pos(src, len, f->edits[i].begin, &l1, &c1);
		sarif_pos(src, len, f->edits[i].end, &l2, &c2);
		json_array_append_new(reps,
				      json_pack("{s:{s:i,s:i,s:i,s:i},s:{s:s}}", "deletedRegion", "startLine",
						l1, "startColumn", c1, "endLine", l2, "endColumn", c2,
						"insertedContent", "text", f->edits[i].text));
	}
	json_t *fix = json_pack("{s:{s:s},s:[{s:{s:s},s:o}]}", "description", "text", f->message,
				"artifactChanges", "artifactLocation", "uri", label ? label : f->file,
				"replacements", reps);
	free(label);
	return fix;
}

static char *sarif_fixes(ka_fixset *fs, int finding, const char *key, const char *shown)
{
	json_t *arr = json_array();
	char *out = NULL;
	for (size_t i = 0; arr && i < ka_fixset_count(fs); i++) {
		const ka_fix *f = ka_fixset_get(fs, i);
		if (key ? !f->key || strcmp(f->key, key) != 0 : f->finding != finding)
			continue;
		if (f->n_edits == 0 || f->status == KA_FIX_STALE || f->status == KA_FIX_GATE_FAILED)
			continue;
		json_t *j = sarif_fix(fs, f, shown);
		if (j)
			json_array_append_new(arr, j);
	}
	if (arr && json_array_size(arr))
		out = json_dumps(arr, JSON_COMPACT);
	json_decref(arr);
	return out;
}

char *ka_fixset_sarif_fixes(ka_fixset *fs, int finding)
{
	return sarif_fixes(fs, finding, NULL, NULL);
}

char *ka_fixset_sarif_fixes_key(ka_fixset *fs, const char *key, const char *shown)
{
	return key ? sarif_fixes(fs, -1, key, shown) : NULL;
}
