/* rules/examples.c: extract a rule's examples from its body (see
 * examples.h); lint/ruletest.c runs them as tests. */
#include "rules/examples.h"
#include "rules/engine.h"
#include "util/error.h"
#include "util/fs.h"
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"bad", "good", "fixed"};

const char *ka_example_kind_name(ka_example_kind k)
{
	assert((size_t)k < sizeof kind_names / sizeof kind_names[0]);
	return kind_names[k];
}

void ka_examples_free(ka_examples *ex)
{
	for (int i = 0; i < ex->n; i++) {
		free(ex->v[i].code);
		free(ex->v[i].expect);
		free(ex->v[i].ok);
	}
	free(ex->v);
	memset(ex, 0, sizeof *ex);
}

static int add_line(int **v, int *n, int line)
{
	int *nv = realloc(*v, (size_t)(*n + 1) * sizeof *nv);
	if (!nv)
		return ka_error_set(KA_ENOMEM, "out of memory");
	*v = nv;
	nv[(*n)++] = line;
	return KA_OK;
}

/* 1 when the text before `//` on the line is blank. */
static int comment_only(const char *l, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (l[i] == '/' && i + 1 < len && l[i + 1] == '/')
			return 1;
		if (!isspace((unsigned char)l[i]))
			return 0;
	}
	return 1; /* blank lines count as skippable too */
}

/* Does "tag: a, b" after `//` name id? */
static int names_id(const char *c, size_t len, const char *tag, const char *id)
{
	size_t tl = strlen(tag), il = strlen(id);
	while (len && isspace((unsigned char)*c)) {
		c++;
		len--;
	}
	if (len < tl || strncmp(c, tag, tl) != 0)
		return 0;
	for (size_t i = tl; i + il <= len; i++)
		if (strncmp(c + i, id, il) == 0 &&
		    (i + il == len || c[i + il] == ',' || isspace((unsigned char)c[i + il])) &&
		    (c[i - 1] == ' ' || c[i - 1] == ',' || c[i - 1] == ':'))
			return 1;
	return 0;
}

/* Collect ruleid/ok annotations of one example. */
static int annotate(ka_example *ex, const char *id)
{
	const char *lines[4096];
	size_t lens[4096];
	int n = 0, rc = KA_OK;
	for (const char *p = ex->code; *p && n < 4096;) {
		const char *e = strchr(p, '\n');
		lines[n] = p;
		lens[n++] = e ? (size_t)(e - p) : strlen(p);
		p = e ? e + 1 : p + strlen(p);
	}
	for (int i = 0; i < n && rc == KA_OK; i++) {
		const char *c = NULL;
		for (size_t k = 0; k + 1 < lens[i]; k++)
			if (lines[i][k] == '/' && lines[i][k + 1] == '/') {
				c = lines[i] + k + 2;
				break;
			}
		if (!c)
			continue;
		size_t cl = lens[i] - (size_t)(c - lines[i]);
		int is_bad = names_id(c, cl, "ruleid:", id), is_ok = names_id(c, cl, "ok:", id);
		if (!is_bad && !is_ok)
			continue;
		int target = i;
		if (comment_only(lines[i], lens[i]))
			for (target = i + 1; target < n && comment_only(lines[target], lens[target]);
			     target++)
				;
		rc = is_bad ? add_line(&ex->expect, &ex->nexpect, target + 1)
			    : add_line(&ex->ok, &ex->nok, target + 1);
	}
	return rc;
}

/* Parse the info string "cuda bad" of a fence; 0 when not an example. */
static int parse_info(const char *p, size_t len, ka_example *ex)
{
	char lang[16] = "", kind[16] = "";
	char info[64];
	if (len >= sizeof info)
		return 0;
	memcpy(info, p, len);
	info[len] = '\0';
	if (sscanf(info, "%15s %15s", lang, kind) != 2)
		return 0;
	if (strcmp(lang, "cuda") && strcmp(lang, "hip"))
		return 0;
	int k;
	for (k = 0; k < 3; k++)
		if (strcmp(kind, kind_names[k]) == 0)
			break;
	if (k == 3)
		return 0;
	snprintf(ex->lang, sizeof ex->lang, "%.7s", lang);
	ex->kind = (ka_example_kind)k;
	return 1;
}

int ka_examples_parse(const char *body, int body_line, const char *id, ka_examples *out)
{
	int line = body_line, rc = KA_OK;
	ka_example cur;
	int in = 0, in_other = 0;
	ka_buf code;
	memset(out, 0, sizeof *out);
	ka_buf_init(&code, 1 << 20);
	for (const char *p = body; *p && rc == KA_OK; line++) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int fence = len >= 3 && strncmp(p, "```", 3) == 0;
		int bare = fence; /* a closing fence has no info string */
		for (size_t k = 3; bare && k < len; k++)
			bare = isspace((unsigned char)p[k]);
		if (bare && in) {
			ka_example *nv = realloc(out->v, (size_t)(out->n + 1) * sizeof *nv);
			if (!nv) {
				rc = ka_error_set(KA_ENOMEM, "out of memory");
				break;
			}
			out->v = nv;
			cur.code = ka_buf_steal(&code);
			if (!cur.code)
				cur.code = strdup("");
			out->v[out->n++] = cur;
			rc = annotate(&out->v[out->n - 1], id);
			in = 0;
		} else if (bare && in_other) {
			in_other = 0;
		} else if (fence && !in && !in_other) {
			memset(&cur, 0, sizeof cur);
			if (parse_info(p + 3, len - 3, &cur)) {
				in = 1;
				cur.file_line = line + 1;
			} else {
				in_other = 1;
			}
		} else if (in) {
			rc = ka_buf_add(&code, p, len);
			if (rc == KA_OK)
				rc = ka_buf_addc(&code, '\n');
		}
		p = e ? e + 1 : p + len;
	}
	ka_buf_free(&code);
	return rc;
}
