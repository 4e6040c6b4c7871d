/* tests/rewriter/test_rewriter.c: unit tests of the edit model (ordering,
 * overlaps, duplicates, safety selection), the diff generator (checked by
 * applying it with `patch -p1`), the clang-tidy YAML export (read back with
 * libyaml) and SARIF fixes.  The commit step and the compile gate are in
 * test_commit.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fixture.h"
#include "rewriter/rewriter.h"
#include "util/error.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

void test_commit_writes_and_is_atomic(void **state);
void test_commit_read_only(void **state);
void test_commit_stale_file(void **state);
void test_gate_fake_compilers(void **state);
void test_gate_foreign_quote(void **state);
void test_gate_hang_killed(void **state);
void test_gate_hipcc(void **state);
void test_gate_hip_by_flags(void **state);
void test_gate_not_found(void **state);
void test_commit_gate_failure_names_fix(void **state);
void test_race_strict_source_and_merge(void **state);
void test_race_save_during_gate(void **state);
void test_race_gate_io_error(void **state);
void test_request_text_mismatch(void **state);

static const char *SRC = "int a = 1;\nint b = 2;\nint c = 3;\n";

static ka_fix *add(ka_fixset *fs, const char *rule, int prio, ka_fix_safety s, size_t b, size_t e,
		   const char *text)
{
	ka_fix *f = ka_fixset_add_fix(fs, "t.cu", rule, "xf", s, prio, -1, "m");
	assert_non_null(f);
	assert_int_equal(ka_fix_add_edit(f, b, e, text), KA_OK);
	return f;
}

static char *apply(ka_fixset *fs)
{
	char *out = NULL;
	size_t n;
	int changed;
	assert_int_equal(ka_fixset_apply_file(fs, "t.cu", &out, &n, &changed), KA_OK);
	return out;
}

static void test_edits_apply_in_order(void **state)
{
	(void)state;
	ka_fixset *fs;
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	ka_fixset_set_source(fs, "t.cu", SRC, strlen(SRC));
	add(fs, "r2", 1, KA_FIX_SAFE, 19, 20, "20");   /* b's 2 */
	add(fs, "r1", 1, KA_FIX_SAFE, 8, 9, "10");     /* a's 1 */
	add(fs, "r3", 1, KA_FIX_SAFE, 0, 0, "// x\n"); /* insertion at the start */
	ka_fixset_resolve(fs, KA_FIX_SAFE);
	char *out = apply(fs);
	assert_string_equal(out, "// x\nint a = 10;\nint b = 20;\nint c = 3;\n");
	free(out);
	ka_fixset_free(fs);
}

static void test_overlap_priority_then_position(void **state)
{
	(void)state;
	ka_fixset *fs;
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	ka_fixset_set_source(fs, "t.cu", SRC, strlen(SRC));
	ka_fix *low = add(fs, "warn-rule", 1, KA_FIX_SAFE, 4, 9, "x = 7"); /* earlier, lower priority */
	ka_fix *high = add(fs, "error-rule", 0, KA_FIX_SAFE, 8, 9, "42");  /* errors first */
	ka_fix *later = add(fs, "other", 1, KA_FIX_SAFE, 6, 7, "==");      /* overlaps low */
	ka_fixset_resolve(fs, KA_FIX_SAFE);
	assert_int_equal(high->status, KA_FIX_ACCEPTED);
	assert_int_equal(low->status, KA_FIX_CONFLICT);
	assert_non_null(strstr(low->why, "error-rule"));
	assert_int_equal(later->status, KA_FIX_ACCEPTED); /* low lost, so later is free */
	char *out = apply(fs);
	assert_string_equal(out, "int a == 42;\nint b = 2;\nint c = 3;\n");
	free(out);
	/* the loser is reported */
	int found = 0;
	for (size_t i = 0; i < ka_fixset_note_count(fs); i++)
		found |= strstr(ka_fixset_note_get(fs, i), "t.cu:1: xf fix [warn-rule] not applied") != NULL;
	assert_true(found);
	ka_fixset_free(fs);
}

static void test_position_breaks_ties_and_duplicates_merge(void **state)
{
	(void)state;
	ka_fixset *fs;
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	ka_fixset_set_source(fs, "t.cu", SRC, strlen(SRC));
	ka_fix *second = add(fs, "r", 1, KA_FIX_SAFE, 6, 9, "b = 5");
	ka_fix *first = add(fs, "r", 1, KA_FIX_SAFE, 4, 7, "z =");
	ka_fix *dup = add(fs, "s", 1, KA_FIX_SAFE, 4, 7, "z =");
	ka_fix *ins1 = add(fs, "r", 1, KA_FIX_SAFE, 11, 11, "A");
	ka_fix *ins2 = add(fs, "q", 1, KA_FIX_SAFE, 11, 11, "B");
	ka_fixset_resolve(fs, KA_FIX_SAFE);
	assert_int_equal(first->status, KA_FIX_ACCEPTED);
	assert_int_equal(second->status, KA_FIX_CONFLICT);
	assert_int_equal(dup->status, KA_FIX_DUPLICATE);
	assert_int_equal(ins1->status, KA_FIX_ACCEPTED);
	assert_int_equal(ins2->status, KA_FIX_ACCEPTED);
	char *out = apply(fs);
	/* same-point insertions go in resolution order: rule q before rule r */
	assert_string_equal(out, "int z = 1;\nBAint b = 2;\nint c = 3;\n");
	free(out);
	ka_fixset_free(fs);
}

static void test_safety_selection(void **state)
{
	(void)state;
	ka_fixset *fs;
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	ka_fixset_set_source(fs, "t.cu", SRC, strlen(SRC));
	ka_fix *safe = add(fs, "r", 1, KA_FIX_SAFE, 8, 9, "5");
	ka_fix *unsafe = add(fs, "r", 1, KA_FIX_UNSAFE, 19, 20, "6");
	ka_fix *suggest = add(fs, "r", 1, KA_FIX_SUGGEST, 30, 31, "7");
	ka_fixset_resolve(fs, KA_FIX_SAFE);
	assert_int_equal(safe->status, KA_FIX_ACCEPTED);
	assert_int_equal(unsafe->status, KA_FIX_NOT_SELECTED);
	assert_int_equal(suggest->status, KA_FIX_NOT_SELECTED);
	ka_fixset_resolve(fs, KA_FIX_UNSAFE);
	assert_int_equal(unsafe->status, KA_FIX_ACCEPTED);
	assert_int_equal(suggest->status, KA_FIX_NOT_SELECTED);
	assert_int_equal(ka_fixset_file_count(fs), 1);
	ka_fixset_free(fs);
}

static void test_edit_rejects_bad_ranges(void **state)
{
	(void)state;
	ka_fixset *fs;
	char *out = NULL;
	size_t n;
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	ka_fix *f = ka_fixset_add_fix(fs, "t.cu", "r", "xf", KA_FIX_SAFE, 1, -1, "m");
	assert_int_equal(ka_fix_add_edit(f, 5, 3, "x"), KA_EINPUT);
	ka_edit past = {10, 99, "x"};
	assert_int_equal(ka_edits_apply("short", 5, &past, 1, &out, &n), KA_EINPUT);
	assert_null(out);
	ka_fixset_free(fs);
}

/* diff old -> new, apply it with patch -p1 in a temporary project, compare. */
static void roundtrip_patch(const char *old, const char *new_text)
{
	char dir[] = "/tmp/ka-diff-XXXXXX", path[256], cmd[512];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/src", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof path, "%s/src/k.cu", dir);
	FILE *f = fopen(path, "wb");
	fputs(old, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/fix.patch", dir);
	f = fopen(path, "wb");
	assert_int_equal(ka_diff_unified("src/k.cu", old, strlen(old), new_text, strlen(new_text), f), KA_OK);
	fclose(f);
	snprintf(cmd, sizeof cmd, "cd %s && patch -s -p1 < fix.patch", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof path, "%s/src/k.cu", dir);
	size_t n;
	char *got = fixture_read(path, &n);
	assert_non_null(got);
	assert_string_equal(got, new_text);
	free(got);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_diff_applies_with_patch(void **state)
{
	(void)state;
	roundtrip_patch("a\nb\nc\n", "a\nB\nc\n");
	roundtrip_patch("a\nb\nc\n", "x\na\nb\nc\ny\n"); /* both ends */
	roundtrip_patch("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n",
			"1\n2x\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15x\n16\n"); /* two hunks */
	roundtrip_patch("1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3x\n4\n5\n6\n7x\n8\n");    /* merged hunk */
	roundtrip_patch("no newline", "no newline at all");
	roundtrip_patch("a\nb", "a\nb\n");
	roundtrip_patch("a\nb\n", "");
	roundtrip_patch("", "new\nfile\n");
}

static void test_diff_format(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_int_equal(ka_diff_unified("d/k.cu", "a\nb\nc\n", 6, "a\nB\nc\n", 6, f), KA_OK);
	assert_int_equal(ka_diff_unified("d/k.cu", "same\n", 5, "same\n", 5, f), KA_OK); /* nothing */
	fclose(f);
	assert_string_equal(buf, "--- a/d/k.cu\n+++ b/d/k.cu\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
	free(buf);
	char *label = ka_diff_label("./src/k.cu");
	assert_string_equal(label, "src/k.cu");
	free(label);
	char cwd[4096], abs[4200];
	assert_non_null(getcwd(cwd, sizeof cwd));
	snprintf(abs, sizeof abs, "%s/x/y.cu", cwd);
	label = ka_diff_label(abs);
	assert_string_equal(label, "x/y.cu");
	free(label);
	/* a name that could end the header line (or turn it around on a
	 * terminal) is C-quoted with octal escapes, as git writes it; a plain
	 * UTF-8 name, or one with $ and spaces, stays as it is */
	f = open_memstream(&buf, &n);
	assert_int_equal(ka_diff_unified("d/x\n+++ b/.bashrc\t\"\\\xe2\x80\xae.cu", "a\n", 2, "b\n", 2, f),
			 KA_OK);
	assert_int_equal(ka_diff_unified("d/caf\xc3\xa9 $(x).cu", "a\n", 2, "b\n", 2, f), KA_OK);
	fclose(f);
	assert_string_equal(
		buf, "--- \"a/d/x\\n+++ b/.bashrc\\t\\\"\\\\\\342\\200\\256.cu\"\n"
		     "+++ \"b/d/x\\n+++ b/.bashrc\\t\\\"\\\\\\342\\200\\256.cu\"\n"
		     "@@ -1,1 +1,1 @@\n-a\n+b\n"
		     "--- a/d/caf\xc3\xa9 $(x).cu\n+++ b/d/caf\xc3\xa9 $(x).cu\n@@ -1,1 +1,1 @@\n-a\n+b\n");
	free(buf);
}

/* Read the YAML back: a map of scalars/sequences as a flat "path=value" list. */
static void flatten(yaml_document_t *d, yaml_node_t *n, const char *prefix, char *out, size_t cap)
{
	char key[512];
	if (n->type == YAML_SCALAR_NODE) {
		size_t l = strlen(out);
		snprintf(out + l, cap - l, "%s=%s\n", prefix, (char *)n->data.scalar.value);
	} else if (n->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
			snprintf(key, sizeof key, "%s/%s", prefix,
				 (char *)yaml_document_get_node(d, p->key)->data.scalar.value);
			flatten(d, yaml_document_get_node(d, p->value), key, out, cap);
		}
	} else {
		int i = 0;
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
		     it++) {
			snprintf(key, sizeof key, "%s/%d", prefix, i++);
			flatten(d, yaml_document_get_node(d, *it), key, out, cap);
		}
	}
}

static void test_yaml_export(void **state)
{
	(void)state;
	ka_fixset *fs;
	char *buf = NULL, flat[4096] = "";
	size_t n = 0;
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	ka_fixset_set_source(fs, "t.cu", SRC, strlen(SRC));
	ka_fix *f = ka_fixset_add_fix(fs, "t.cu", "math-fp64-promotion", "xf", KA_FIX_SAFE, 1, 0,
				      "it's \"quoted\"");
	ka_fix_add_edit(f, 8, 9, "1.0f");
	ka_fix_add_edit(f, 11, 11, "// line one\n\t'two'\n");
	add(fs, "other", 1, KA_FIX_UNSAFE, 19, 20, "9"); /* not accepted: not exported */
	ka_fixset_resolve(fs, KA_FIX_SAFE);
	FILE *out = open_memstream(&buf, &n);
	assert_int_equal(ka_fixset_write_yaml(fs, "t.cu", KA_FIX_ACCEPTED, out), KA_OK);
	fclose(out);
	yaml_parser_t p;
	yaml_document_t doc;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (unsigned char *)buf, n);
	assert_true(yaml_parser_load(&p, &doc));
	flatten(&doc, yaml_document_get_root_node(&doc), "", flat, sizeof flat);
	yaml_document_delete(&doc);
	yaml_parser_delete(&p);
	assert_non_null(strstr(flat, "/MainSourceFile=t.cu\n"));
	assert_non_null(strstr(flat, "/Diagnostics/0/DiagnosticName=math-fp64-promotion\n"));
	assert_non_null(strstr(flat, "/Diagnostics/0/DiagnosticMessage/Message=it's \"quoted\"\n"));
	assert_non_null(strstr(flat, "/Diagnostics/0/DiagnosticMessage/FileOffset=8\n"));
	assert_non_null(strstr(flat, "/Diagnostics/0/DiagnosticMessage/Replacements/0/Offset=8\n"));
	assert_non_null(strstr(flat, "/Diagnostics/0/DiagnosticMessage/Replacements/0/Length=1\n"));
	assert_non_null(
		strstr(flat, "/Diagnostics/0/DiagnosticMessage/Replacements/0/ReplacementText=1.0f\n"));
	assert_non_null(strstr(flat, "/Diagnostics/0/DiagnosticMessage/Replacements/1/ReplacementText="
				     "// line one\n\t'two'\n\n"));
	assert_null(strstr(flat, "/Diagnostics/1/"));
	assert_non_null(strstr(buf, "Level: Warning"));
	free(buf);
	ka_fixset_free(fs);
}

static void test_sarif_fixes(void **state)
{
	(void)state;
	ka_fixset *fs;
	const char *src = "// \xc3\xa9\xf0\x9f\x98\x80\nfloat x = sqrt(y);\n"; /* é and an emoji */
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	ka_fixset_set_source(fs, "k.cu", src, strlen(src));
	ka_fix *f = ka_fixset_add_fix(fs, "k.cu", "r", "double-math-to-float", KA_FIX_UNSAFE, 1, 7,
				      "sqrt -> sqrtf");
	size_t at = strstr(src, "sqrt") - src;
	ka_fix_add_edit(f, at, at + 4, "sqrtf");
	ka_fix_add_edit(f, 3 + 2 + 4, 3 + 2 + 4, "!"); /* after the emoji: UTF-16 column 3 + 1 + 2 */
	assert_null(ka_fixset_sarif_fixes(fs, 3));     /* another finding: no fixes */
	char *text = ka_fixset_sarif_fixes(fs, 7);
	assert_non_null(text);
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);
	assert_non_null(j);
	json_t *fix = json_array_get(j, 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(fix, "description"), "text")),
			    "sqrt -> sqrtf");
	json_t *ch = json_array_get(json_object_get(fix, "artifactChanges"), 0);
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(ch, "artifactLocation"), "uri")), "k.cu");
	json_t *reps = json_object_get(ch, "replacements");
	json_t *r0 = json_array_get(reps, 0), *r1 = json_array_get(reps, 1);
	json_t *d0 = json_object_get(r0, "deletedRegion"), *d1 = json_object_get(r1, "deletedRegion");
	assert_int_equal(json_integer_value(json_object_get(d0, "startLine")), 1);
	assert_int_equal(json_integer_value(json_object_get(d0, "startColumn")), 7); /* "// " + é + 😀 */
	assert_int_equal(json_integer_value(json_object_get(d1, "startLine")), 2);
	assert_int_equal(json_integer_value(json_object_get(d1, "startColumn")), 11);
	assert_int_equal(json_integer_value(json_object_get(d1, "endColumn")), 15);
	assert_string_equal(
		json_string_value(json_object_get(json_object_get(r1, "insertedContent"), "text")), "sqrtf");
	json_decref(j);
	free(text);
	ka_fixset_free(fs);
}

/* Two workers fixed the same header: merged, the repeat is a duplicate,
 * the shared note is said once, keys find the fixes. */
static void test_merge_jobs(void **state)
{
	(void)state;
	ka_fixset *a, *b;
	assert_int_equal(ka_fixset_new(&a), KA_OK);
	assert_int_equal(ka_fixset_new(&b), KA_OK);
	ka_fixset_set_source(a, "h.cuh", SRC, strlen(SRC));
	ka_fixset_set_source(b, "h.cuh", SRC, strlen(SRC));
	ka_fix *fa = ka_fixset_add_fix(a, "h.cuh", "r", "xf", KA_FIX_SAFE, 1, 0, "m");
	ka_fix *fb = ka_fixset_add_fix(b, "h.cuh", "r", "xf", KA_FIX_SAFE, 1, 0, "m");
	ka_fix_add_edit(fa, 8, 9, "7");
	ka_fix_add_edit(fb, 8, 9, "7");
	fb->key = strdup("r\th.cuh\t1\t9");
	ka_fixset_note(a, "h.cuh:2: xf skipped [r]: why");
	ka_fixset_note(a, "h.cuh:2: xf skipped [r]: why"); /* once per set */
	ka_fixset_note(b, "h.cuh:2: xf skipped [r]: why");
	assert_int_equal(ka_fixset_merge(a, b, 5), KA_OK);
	assert_int_equal(ka_fixset_count(a), 2);
	assert_int_equal(ka_fixset_count(b), 0);
	assert_int_equal(ka_fixset_note_count(a), 1);
	assert_int_equal(fb->finding, 5); /* shifted by the base */
	ka_fixset_resolve(a, KA_FIX_SAFE);
	assert_int_equal(fa->status, KA_FIX_ACCEPTED);
	assert_int_equal(fb->status, KA_FIX_DUPLICATE);
	char *j = ka_fixset_sarif_fixes_key(a, "r\th.cuh\t1\t9", NULL);
	assert_non_null(j);
	assert_non_null(strstr(j, "\"text\":\"7\""));
	free(j);
	assert_null(ka_fixset_sarif_fixes_key(a, "other", NULL));
	char *out = NULL;
	size_t n;
	int changed;
	assert_int_equal(ka_fixset_apply_file(a, "h.cuh", &out, &n, &changed), KA_OK);
	assert_string_equal(out, "int a = 7;\nint b = 2;\nint c = 3;\n"); /* once */
	free(out);
	ka_fixset_free(a);
	ka_fixset_free(b);
}

/* A worker's fixset through the pipe: texts, fixes with every field and
 * edit, notes and strictness arrive as they left; a cut message fails. */
static void test_pack_unpack(void **state)
{
	(void)state;
	ka_fixset *a, *b = NULL;
	assert_int_equal(ka_fixset_new(&a), KA_OK);
	ka_fixset_set_source(a, "h.cuh", SRC, strlen(SRC));
	ka_fixset_set_strict(a);
	ka_fix *f = ka_fixset_add_fix(a, "h.cuh", "r", "xf", KA_FIX_UNSAFE, 2, 7, "m");
	ka_fix_add_edit(f, 19, 20, "9");
	ka_fix_add_edit(f, 8, 9, "7");
	f->key = strdup("r\th.cuh\t1\t9");
	f->why = strdup("because");
	f->status = KA_FIX_STALE;
	ka_fixset_note(a, "h.cuh:2: xf skipped [r]: why");
	ka_buf buf;
	ka_buf_init(&buf, 0);
	assert_int_equal(ka_fixset_pack(a, &buf), KA_OK);
	ka_wire_in in = {.p = buf.data, .left = buf.len};
	assert_int_equal(ka_fixset_unpack(&in, &b), KA_OK);
	assert_int_equal(in.left, 0);
	assert_int_equal(ka_fixset_count(b), 1);
	ka_fix *g = ka_fixset_get(b, 0);
	assert_string_equal(g->file, "h.cuh");
	assert_string_equal(g->rule, "r");
	assert_string_equal(g->transform, "xf");
	assert_string_equal(g->message, "m");
	assert_string_equal(g->key, "r\th.cuh\t1\t9");
	assert_string_equal(g->why, "because");
	assert_int_equal(g->safety, KA_FIX_UNSAFE);
	assert_int_equal(g->priority, 2);
	assert_int_equal(g->finding, 7);
	assert_int_equal(g->status, KA_FIX_STALE);
	assert_int_equal(g->n_edits, 2);
	assert_int_equal(g->edits[0].begin, 8); /* sorted as they were */
	assert_string_equal(g->edits[1].text, "9");
	assert_int_equal(ka_fixset_note_count(b), 1);
	const char *data;
	size_t len;
	assert_int_equal(ka_fixset_source(b, "h.cuh", &data, &len), KA_OK);
	assert_int_equal(len, strlen(SRC));
	assert_memory_equal(data, SRC, len);
	assert_int_not_equal(ka_fixset_source(b, "other.cuh", &data, &len), KA_OK); /* still strict */
	ka_fixset_free(b);
	in = (ka_wire_in){.p = buf.data, .left = buf.len - 3};
	b = NULL;
	assert_int_not_equal(ka_fixset_unpack(&in, &b), KA_OK);
	assert_null(b);
	ka_buf_free(&buf);
	ka_fixset_free(a);
}

static void test_registry(void **state)
{
	(void)state;
	static const char *const names[] = {"pad-shared-array",
					    "float-literal-suffix",
					    "double-math-to-float",
					    "pow-to-multiply",
					    "legacy-intrinsic-to-sync",
					    "insert-syncwarp",
					    "rsqrt",
					    "fast-math-intrinsic",
					    "const-restrict-params",
					    "hoist-invariant-load",
					    "accumulate-in-register",
					    "early-return-to-guard",
					    "index-to-64bit",
					    "swap-thread-dims",
					    "sequential-reduction",
					    "privatize-atomics",
					    "round-block-size",
					    "add-launch-bounds",
					    "smem-optin-attribute",
					    "hip-warpsize",
					    "hip-64bit-mask",
					    NULL};
	for (int i = 0; names[i]; i++)
		assert_non_null(ka_transform_find(names[i]));
	assert_int_equal(ka_transform_count(), 21);
	assert_null(ka_transform_find("no-such-transform"));
	assert_int_equal(ka_transform_find("swap-thread-dims")->safety, KA_FIX_SUGGEST);
	/* the generated table: sorted by name, each ceiling as declared in its file */
	for (size_t i = 1; i < ka_transform_count(); i++)
		assert_true(strcmp(ka_transform_get(i - 1)->name, ka_transform_get(i)->name) < 0);
	assert_null(ka_transform_get(ka_transform_count()));
	assert_int_equal(ka_transform_ceiling("pad-shared-array"), KA_FIX_SAFE);
	assert_int_equal(ka_transform_ceiling("rsqrt"), KA_FIX_UNSAFE);
	assert_int_equal(ka_transform_ceiling("privatize-atomics"), KA_FIX_SUGGEST);
	assert_int_equal(ka_transform_ceiling("no-such-transform"), -1);
	assert_string_equal(
		ka_transform_find("legacy-intrinsic-to-sync")->summary,
		"__shfl_down(v, o) -> __shfl_down_sync(0xffffffff, v, o); __any/__all/__ballot likewise");
	/* an unknown name in a rule is a note, not a failure */
	ka_fixset *fs;
	sqlite3 *db = fixture_db("");
	ka_fix_request r = {.rule = "x-rule", .transform = "no-such-transform", .scope = "call", .rowid = 1};
	assert_int_equal(ka_fixset_new(&fs), KA_OK);
	assert_int_equal(ka_fixset_request(fs, db, &r), KA_OK);
	assert_string_equal(ka_fixset_note_get(fs, 0), "x-rule: unknown transform 'no-such-transform'");
	ka_fixset_free(fs);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edits_apply_in_order),
		cmocka_unit_test(test_overlap_priority_then_position),
		cmocka_unit_test(test_position_breaks_ties_and_duplicates_merge),
		cmocka_unit_test(test_safety_selection),
		cmocka_unit_test(test_edit_rejects_bad_ranges),
		cmocka_unit_test(test_diff_applies_with_patch),
		cmocka_unit_test(test_diff_format),
		cmocka_unit_test(test_yaml_export),
		cmocka_unit_test(test_sarif_fixes),
		cmocka_unit_test(test_merge_jobs),
		cmocka_unit_test(test_pack_unpack),
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_request_text_mismatch),
		cmocka_unit_test(test_commit_writes_and_is_atomic),
		cmocka_unit_test(test_commit_read_only),
		cmocka_unit_test(test_commit_stale_file),
		cmocka_unit_test(test_commit_gate_failure_names_fix),
		cmocka_unit_test(test_race_strict_source_and_merge),
		cmocka_unit_test(test_race_save_during_gate),
		cmocka_unit_test(test_race_gate_io_error),
		cmocka_unit_test(test_gate_fake_compilers),
		cmocka_unit_test(test_gate_foreign_quote),
		cmocka_unit_test(test_gate_hang_killed),
		cmocka_unit_test(test_gate_hipcc),
		cmocka_unit_test(test_gate_hip_by_flags),
		cmocka_unit_test(test_gate_not_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
