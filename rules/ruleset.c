/* rules/ruleset.c: the set of loaded rules.
 *
 * Owns every ka_rule.  Sources, in order: the built-in rules embedded at
 * build time (rules/<family>/<id>.md, see rules/CMakeLists.txt), then any
 * --rules-dir, whose files add rules or replace built-in ones by id.  Also
 * holds rule selection (--checks globs) and the language/arch filter.
 */
#include "rules/rules_int.h"
#include "util/embed.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/text.h"
#include <assert.h>
#include <dirent.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Generated from rules/<family>/<id>.md by cmake/KaEmbed.cmake. */
extern const struct ka_embedded ka_rules_builtin[];

int ka_ruleset_new(ka_ruleset **out)
{
	*out = calloc(1, sizeof **out);
	if (!*out)
		return ka_error_set(KA_ENOMEM, "out of memory");
	ka_buf_init(&(*out)->errors, 1 << 20);
	return KA_OK;
}

void ka_ruleset_free(ka_ruleset *rs)
{
	if (!rs)
		return;
	for (size_t i = 0; i < rs->n; i++)
		ka_rule_free(rs->v[i]);
	free(rs->v);
	ka_buf_free(&rs->errors);
	free(rs);
}

void ka_ruleset_error(ka_ruleset *rs, const char *path, int line, const char *fmt, ...)
{
	va_list ap;
	ka_buf_printf(&rs->errors, "%s:%d: ", path, line);
	va_start(ap, fmt);
	ka_buf_vprintf(&rs->errors, fmt, ap);
	va_end(ap);
	ka_buf_addc(&rs->errors, '\n');
	rs->nerrors++;
}

const char *ka_ruleset_errors(const ka_ruleset *rs)
{
	return rs->errors.data ? rs->errors.data : "";
}

size_t ka_ruleset_count(const ka_ruleset *rs)
{
	return rs->n;
}
ka_rule *ka_ruleset_at(const ka_ruleset *rs, size_t i)
{
	assert(i < rs->n);
	return i < rs->n ? rs->v[i] : NULL;
}

/* Position of id in the sorted array, or where it would go. */
static size_t lower_bound(const ka_ruleset *rs, const char *id)
{
	size_t lo = 0, hi = rs->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (strcmp(rs->v[mid]->id, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

ka_rule *ka_ruleset_find(const ka_ruleset *rs, const char *id)
{
	size_t i = lower_bound(rs, id);
	return i < rs->n && strcmp(rs->v[i]->id, id) == 0 ? rs->v[i] : NULL;
}

static int insert_rule(ka_ruleset *rs, ka_rule *r, int override)
{
	size_t i = lower_bound(rs, r->id);
	if (i < rs->n && strcmp(rs->v[i]->id, r->id) == 0) {
		ka_rule *old = rs->v[i];
		if (override && old->builtin && !r->builtin) {
			ka_rule_free(old);
			rs->v[i] = r;
			return KA_OK;
		}
		ka_ruleset_error(rs, r->path, r->lines.id, "duplicate rule id '%s' (first defined in %s:%d)",
				 r->id, old->path, old->lines.id);
		ka_rule_free(r);
		return KA_EINPUT;
	}
	if (rs->n == rs->cap) {
		size_t ncap = rs->cap ? rs->cap * 2 : 64;
		ka_rule **nv = realloc(rs->v, ncap * sizeof *nv);
		if (!nv) {
			ka_rule_free(r);
			return ka_error_set(KA_ENOMEM, "out of memory");
		}
		rs->v = nv;
		rs->cap = ncap;
	}
	memmove(rs->v + i + 1, rs->v + i, (rs->n - i) * sizeof *rs->v);
	rs->v[i] = r;
	rs->n++;
	return KA_OK;
}

/* Folder = family = id prefix: a rule file in a folder sits in the folder
 * named for its id's family, under its id: FAMILY/ID.md.  `rel` is the
 * path below the rules folder; a file at the top of a --rules-dir (no
 * folder in rel) may hold any family. */
static int check_place(ka_ruleset *rs, const ka_rule *r, const char *rel)
{
	char family[64];
	const char *slash = strrchr(rel, '/');
	if (!slash)
		return KA_OK;
	const char *dir = slash;
	while (dir > rel && dir[-1] != '/')
		dir--;
	size_t dl = (size_t)(slash - dir), il = strlen(r->id);
	ka_rule_family(r->id, family, sizeof family);
	if (dl != strlen(family) || strncmp(dir, family, dl) != 0) {
		ka_ruleset_error(rs, r->path, r->lines.id,
				 "rule '%s' is in folder '%.*s/', but its family is '%s': "
				 "move it to %s/%s.md (folder = family = id prefix)",
				 r->id, (int)dl, dir, family, family, r->id);
		return KA_EINPUT;
	}
	if (strncmp(slash + 1, r->id, il) != 0 || strcmp(slash + 1 + il, ".md") != 0) {
		ka_ruleset_error(rs, r->path, r->lines.id, "rule '%s' is in file '%s', expected %s.md", r->id,
				 slash + 1, r->id);
		return KA_EINPUT;
	}
	return KA_OK;
}

static int add_placed(ka_ruleset *rs, const char *path, const char *rel, const char *text, size_t len,
		      int builtin, int override)
{
	ka_rule *r = NULL;
	int rc = ka_rule_parse(rs, path, text, len, &r);
	if (rc != KA_OK)
		return rc;
	r->builtin = builtin;
	if (rel && (rc = check_place(rs, r, rel)) != KA_OK) {
		ka_rule_free(r);
		return rc;
	}
	return insert_rule(rs, r, override);
}

int ka_ruleset_add_text(ka_ruleset *rs, const char *path, const char *text, size_t len, int builtin,
			int override)
{
	return add_placed(rs, path, NULL, text, len, builtin, override);
}

int ka_ruleset_load_builtin(ka_ruleset *rs)
{
	int rc = KA_OK;
	for (const struct ka_embedded *e = ka_rules_builtin; e->path; e++) {
		/* e->path is "rules/FAMILY/ID.md", relative to the source tree */
		const char *rel = strncmp(e->path, "rules/", 6) == 0 ? e->path + 6 : e->path;
		int r = add_placed(rs, e->path, rel, e->data, e->len, 1, 0);
		if (r == KA_ENOMEM)
			return r;
		if (r != KA_OK)
			rc = KA_EINPUT;
	}
	if (rc != KA_OK)
		ka_error_set(rc, "malformed rule files");
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Collect *.md paths below dir (README.md excluded); each folder once, by
 * device and inode, so symbolic-link loops end. */
static int collect_md(const char *dir, char ***paths, size_t *n, size_t *cap, int depth, ka_fs_seen *seen)
{
	if (depth > 16)
		return KA_OK;
	int fresh = ka_fs_seen_add(seen, dir);
	if (fresh <= 0)
		return fresh == KA_ENOMEM ? KA_ENOMEM : KA_OK;
	DIR *d = opendir(dir);
	if (!d)
		return ka_error_set(KA_EIO, "cannot open rules folder %s", dir);
	int rc = KA_OK;
	struct dirent *de;
	while ((de = readdir(d)) != NULL && rc == KA_OK) {
		if (de->d_name[0] == '.')
			continue;
		size_t l = strlen(dir) + strlen(de->d_name) + 2;
		char *p = malloc(l);
		if (!p) {
			rc = ka_error_set(KA_ENOMEM, "out of memory");
			break;
		}
		snprintf(p, l, "%s/%s", dir, de->d_name);
		size_t nl = strlen(de->d_name);
		if (ka_fs_is_dir(p)) {
			rc = collect_md(p, paths, n, cap, depth + 1, seen);
			free(p);
		} else if (nl > 3 && strcmp(de->d_name + nl - 3, ".md") == 0 &&
			   strcasecmp(de->d_name, "README.md") != 0) {
			if (*n == *cap) {
				*cap = *cap ? *cap * 2 : 32;
				char **np = realloc(*paths, *cap * sizeof *np);
				if (!np) {
					free(p);
					rc = ka_error_set(KA_ENOMEM, "out of memory");
					break;
				}
				*paths = np;
			}
			(*paths)[(*n)++] = p;
		} else {
			free(p);
		}
	}
	closedir(d);
	return rc;
}

int ka_ruleset_load_dir(ka_ruleset *rs, const char *dir)
{
	char **paths = NULL;
	size_t n = 0, cap = 0;
	ka_fs_seen seen = {0};
	int rc;
	if (!ka_fs_is_dir(dir)) {
		rc = ka_error_set(KA_EIO, "cannot open rules folder %s: not a folder", dir);
		goto out;
	}
	rc = collect_md(dir, &paths, &n, &cap, 0, &seen);
	ka_fs_seen_free(&seen);
	if (rc != KA_OK)
		goto out;
	if (n > 1)
		qsort(paths, n, sizeof *paths, cmp_str);
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		char *text = NULL;
		size_t len = 0;
		if (ka_fs_read(paths[i], 1 << 20, &text, &len) != KA_OK) {
			ka_ruleset_error(rs, paths[i], 1, "%s", ka_error_last());
			bad = 1;
			continue;
		}
		const char *rel = paths[i] + strlen(dir);
		rel += *rel == '/';
		int r = add_placed(rs, paths[i], rel, text, len, 0, 1);
		free(text);
		if (r == KA_ENOMEM) {
			rc = r;
			goto out;
		}
		if (r != KA_OK)
			bad = 1;
	}
	if (bad)
		rc = ka_error_set(KA_EINPUT, "malformed rule files");
out:
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return rc;
}

/* One entry of a --checks list: p..e, without a leading '-'. */
typedef struct glob {
	char pat[256];
	int neg;
} glob;

/* The next entry at or after *p; 0 at the end. */
static int next_glob(const char **p, glob *g)
{
	const char *s = *p;
	while (*s == ',' || *s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s) {
		*p = s;
		return 0;
	}
	const char *e = s;
	while (*e && *e != ',' && *e != ' ' && *e != '\n' && *e != '\t')
		e++;
	g->neg = *s == '-';
	size_t l = (size_t)(e - s) - (size_t)g->neg;
	if (l >= sizeof g->pat)
		l = sizeof g->pat - 1;
	memcpy(g->pat, s + g->neg, l);
	g->pat[l] = '\0';
	*p = e;
	return 1;
}

/* A positive entry turns the rule on when its status lets it: any match
 * for stable and preview rules, only the exact id for candidates, never
 * for retired ones. */
static int turns_on(const glob *g, const char *id, ka_rule_status st)
{
	if (st == KA_STATUS_RETIRED)
		return 0;
	if (st == KA_STATUS_CANDIDATE)
		return strcmp(g->pat, id) == 0;
	return fnmatch(g->pat, id, 0) == 0;
}

/* Walk the globs in order; 1 when id ends up enabled.  The first glob
 * decides the start: positive -> from none, negative -> from the stable
 * rules. */
static int checks_state(const char *globs, const char *id, ka_rule_status st)
{
	int state = -1;
	const char *p = globs;
	glob g;
	while (next_glob(&p, &g)) {
		if (state < 0)
			state = g.neg ? st == KA_STATUS_STABLE : 0;
		if (g.neg && fnmatch(g.pat, id, 0) == 0)
			state = 0;
		else if (!g.neg && turns_on(&g, id, st))
			state = 1;
	}
	return state < 0 ? st == KA_STATUS_STABLE : state;
}

int ka_checks_match(const char *globs, const char *id)
{
	return checks_state(globs ? globs : "", id, KA_STATUS_STABLE);
}

int ka_ruleset_select(ka_ruleset *rs, const char *globs)
{
	const char *p = globs ? globs : "";
	glob g;
	for (size_t i = 0; i < rs->n; i++)
		rs->v[i]->enabled = checks_state(p, rs->v[i]->id, rs->v[i]->status);
	/* A positive glob must match some rule that it can turn on. */
	while (next_glob(&p, &g)) {
		if (g.neg)
			continue;
		size_t i, retired = 0, candidates = 0;
		for (i = 0; i < rs->n; i++) {
			const ka_rule *r = rs->v[i];
			if (turns_on(&g, r->id, r->status))
				break;
			if (fnmatch(g.pat, r->id, 0) == 0) {
				retired += r->status == KA_STATUS_RETIRED;
				candidates += r->status == KA_STATUS_CANDIDATE;
			}
		}
		if (i == rs->n && candidates)
			return ka_error_set(KA_EINPUT,
					    "--checks: '%s' matches only candidate rules, which run "
					    "when named by their exact id",
					    g.pat);
		if (i == rs->n && retired)
			return ka_error_set(
				KA_EINPUT, "--checks: '%s' names only retired rules, which never run", g.pat);
		if (i == rs->n) {
			const char *near = NULL;
			if (!strpbrk(g.pat, "*?[")) { /* a mistyped id: the nearest one */
				const char **ids = malloc(sizeof *ids * (rs->n + 1));
				for (size_t k = 0; ids && k < rs->n; k++)
					ids[k] = rs->v[k]->status == KA_STATUS_STABLE ? rs->v[k]->id : NULL;
				near = ids ? ka_text_nearest(g.pat, ids, rs->n) : NULL;
				free(ids);
			}
			if (near)
				return ka_error_set(KA_EINPUT,
						    "--checks: '%s' matches no rule (did you mean '%s'?)",
						    g.pat, near);
			return ka_error_set(KA_EINPUT,
					    "--checks: '%s' matches no rule (see kcheck rules list)", g.pat);
		}
	}
	return KA_OK;
}

static int arch_matches(const char *want, const char *arch)
{
	if (strcmp(want, "all") == 0 || strcmp(want, arch) == 0)
		return 1;
	if (strcmp(want, "nvidia") == 0)
		return strncmp(arch, "sm_", 3) == 0;
	if (strcmp(want, "amd") == 0)
		return strncmp(arch, "gfx", 3) == 0;
	return 0;
}

int ka_rule_applies(const ka_rule *r, const char *lang, const char *arch)
{
	if (lang && r->languages.n) {
		int ok = 0;
		for (int i = 0; i < r->languages.n; i++)
			ok |= strcmp(r->languages.v[i], lang) == 0;
		if (!ok)
			return 0;
	}
	if (arch && r->architectures.n) {
		int ok = 0;
		for (int i = 0; i < r->architectures.n; i++)
			ok |= arch_matches(r->architectures.v[i], arch);
		if (!ok)
			return 0;
	}
	return 1;
}
