/* agents/distill.c: the summarizer's distillation (agents/distill.h): an
 * LLM's verified win becomes a candidate rule file in the knowledge DB.
 *
 * The reply is untrusted input and is checked the way a shipped rule file
 * is, and then some: the rule loader (front matter, the SQL compiled
 * against the facts schema, message placeholders), its own examples run
 * through lint's rule test (the bad example fires exactly at its marks,
 * the good one does not fire), and the rule fires on the kernel before the
 * rewrite but not on the kernel after it.  What the model may not decide is
 * forced: the id gets the `learned-` family (renamed when taken, so a
 * learned rule never replaces a built-in or another learned one), status
 * candidate, fix none (a learned rule never edits code).  A refusal stores
 * nothing and says why in one line.
 */
#include "agents/distill.h"
#include "agents/llm_prompt.h"
#include "lint/lint.h"
#include "rules/examples.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A fence line: up to 3 spaces, then 3+ backticks or tildes; returns its
 * length (0: not a fence), *ch its character, *info whether text follows. */
static size_t fence_at(const char *line, const char *eol, char *ch, int *info)
{
	const char *p = line, *q;
	for (int i = 0; i < 3 && p < eol && *p == ' '; i++)
		p++;
	if (p >= eol || (*p != '`' && *p != '~'))
		return 0;
	for (q = p; q < eol && *q == *p; q++)
		;
	if (q - p < 3)
		return 0;
	*ch = *p;
	*info = 0;
	for (const char *r = q; r < eol; r++)
		*info |= !isspace((unsigned char)*r);
	return (size_t)(q - p);
}

/* The block's text from its `---` line, or NULL when it holds no front
 * matter. */
static const char *front_matter_start(const char *begin, const char *end)
{
	const char *p = begin;
	while (p < end && (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t'))
		p++;
	while (p > begin && p[-1] != '\n') /* back to the line's start */
		p--;
	return end - p >= 3 && !strncmp(p, "---", 3) ? p : NULL;
}

int ka_distill_extract(const char *reply, char **text)
{
	*text = NULL;
	const char *begin = NULL, *found = NULL, *found_end = NULL;
	size_t open_n = 0;
	char open_ch = 0;
	int depth = 0;
	for (const char *line = reply; line && *line && !found;) {
		const char *eol = line + strcspn(line, "\n"), *next = *eol ? eol + 1 : eol;
		char ch;
		int info;
		size_t n = fence_at(line, eol, &ch, &info);
		if (n && !begin) {
			begin = next, open_n = n, open_ch = ch, depth = 0;
		} else if (n && !info && ch == open_ch && n >= open_n && (depth == 0 || open_n > 3)) {
			/* the outer block ends; the inner ones nest by their info strings */
			if ((found = front_matter_start(begin, line)))
				found_end = line;
			begin = NULL;
		} else if (n) {
			depth += info || depth == 0 ? 1 : -1;
		}
		line = next;
	}
	if (!found && begin && (found = front_matter_start(begin, reply + strlen(reply))))
		found_end = reply + strlen(reply); /* cut off: runs to the end */
	if (!found)
		return ka_error_set(KA_EPARSE, "the reply has no rule file (a ````markdown block that "
					       "starts with a --- line)");
	size_t len = (size_t)(found_end - found);
	if (len > KA_DISTILL_MAX_RULE)
		return ka_error_set(KA_ETOOBIG, "the rule file in the reply is over %zu bytes",
				    KA_DISTILL_MAX_RULE);
	if (!(*text = strndup(found, len)))
		return ka_error_set(KA_ENOMEM, "out of memory");
	return KA_OK;
}

static int id_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

/* text with every whole-word `from` replaced by `to` (the front matter's
 * id, the `// ruleid:` marks, the prose), and, in the front matter, the
 * fields the model may not decide replaced: status, fix, fix_safety (and
 * their continuation lines) go, the forced values come before the
 * closing `---`. */
static int adapt_text(const char *text, const char *from, const char *to, char **out)
{
	ka_buf a, b;
	size_t fl = strlen(from);
	int rc = KA_OK;
	ka_buf_init(&a, 2 * KA_DISTILL_MAX_RULE);
	ka_buf_init(&b, 2 * KA_DISTILL_MAX_RULE);
	for (const char *p = text; rc == KA_OK && *p;) {
		if (!strncmp(p, from, fl) && (p == text || !id_char(p[-1])) && !id_char(p[fl])) {
			rc = ka_buf_adds(&a, to);
			p += fl;
		} else {
			rc = ka_buf_addc(&a, *p++);
		}
	}
	int in_fm = 0, dropping = 0, line_no = 0;
	for (const char *p = a.data ? a.data : ""; rc == KA_OK && *p; line_no++) {
		size_t n = strcspn(p, "\n");
		const char *next = p + n + (p[n] == '\n');
		int fence = n >= 3 && !strncmp(p, "---", 3);
		if (in_fm && fence) {
			rc = ka_buf_adds(&b, "status: candidate\nfix: none\nfix_safety: suggest\n");
			in_fm = 0;
		} else if (in_fm) {
			if (*p != ' ' && *p != '\t')
				dropping = !strncmp(p, "status:", 7) || !strncmp(p, "fix:", 4) ||
					   !strncmp(p, "fix_safety:", 11);
			if (dropping) {
				p = next;
				continue;
			}
		}
		in_fm |= line_no == 0 && fence;
		if (rc == KA_OK)
			rc = ka_buf_add(&b, p, (size_t)(next - p));
		p = next;
	}
	*out = rc == KA_OK ? ka_buf_steal(&b) : NULL;
	if (rc == KA_OK && !*out)
		rc = ka_error_set(KA_ENOMEM, "out of memory");
	ka_buf_free(&a);
	ka_buf_free(&b);
	return rc;
}

/* 1 when id is a built-in rule or any rule of the DB, 0 when free. */
static int id_taken(ka_kdb *db, const ka_ruleset *builtin, const char *id)
{
	char origin[16], status[16];
	if (ka_ruleset_find(builtin, id))
		return 1;
	int rc = ka_kdb_rule_get(db, id, NULL, origin, status);
	return rc == KA_OK ? 1 : rc == KA_ENOTFOUND ? 0 : rc;
}

/* learned-<id> (kept when the model wrote the prefix), then -2 .. -99. */
static int pick_id(ka_kdb *db, const char *asked, char *id, size_t cap)
{
	ka_ruleset *builtin = NULL;
	char base[KA_DISTILL_MAX_ID + 16];
	int pre = !strncmp(asked, KA_DISTILL_PREFIX, strlen(KA_DISTILL_PREFIX));
	if (strlen(asked) + (pre ? 0 : strlen(KA_DISTILL_PREFIX)) + 3 > KA_DISTILL_MAX_ID)
		return ka_error_set(KA_EINPUT, "rule id '%.100s' is too long for a learned rule (%d at most)",
				    asked, KA_DISTILL_MAX_ID - 3);
	snprintf(base, sizeof base, "%s%s", pre ? "" : KA_DISTILL_PREFIX, asked);
	int rc = ka_ruleset_new(&builtin);
	if (rc == KA_OK)
		rc = ka_ruleset_load_builtin(builtin);
	for (int k = 1; rc == KA_OK && k < 100; k++) {
		int w = k == 1 ? snprintf(id, cap, "%s", base) : snprintf(id, cap, "%s-%d", base, k);
		if (w < 0 || (size_t)w >= cap) {
			rc = ka_error_set(KA_ETOOBIG, "rule id '%s' is too long", base);
			break;
		}
		int t = id_taken(db, builtin, id);
		if (t <= 0) {
			rc = t;
			goto out;
		}
	}
	if (rc == KA_OK)
		rc = ka_error_set(KA_EINPUT, "rule ids %s to %s-99 are all taken", base, base);
out:
	ka_ruleset_free(builtin);
	return rc;
}

/* The examples: at least one bad and one good, and lint's rule test
 * passes (bad fires exactly at its marks, good does not fire). */
static int test_examples(const ka_rule *r, const char *arch)
{
	ka_examples ex;
	int bad = 0, good = 0, rc = ka_examples_parse(r->body, r->body_line, r->id, &ex);
	if (rc != KA_OK)
		return rc;
	for (int i = 0; i < ex.n; i++) {
		bad += ex.v[i].kind == KA_EX_BAD;
		good += ex.v[i].kind == KA_EX_GOOD;
	}
	ka_examples_free(&ex);
	if (!bad || !good)
		return ka_error_set(KA_EINPUT, "the rule file has no ```cuda %s example",
				    bad ? "good" : "bad");
	char dir[] = "/tmp/kcheck-distill-XXXXXX", path[128];
	if (!mkdtemp(dir))
		return ka_error_set(KA_EIO, "cannot create a temporary folder under /tmp");
	snprintf(path, sizeof path, "%s/%s.md", dir, r->id);
	const char *dirs[1] = {dir};
	ka_lint_opts o = KA_LINT_OPTS_INIT;
	ka_lint *l = NULL;
	ka_lint_test_counts c = {0, 0, 0};
	ka_buf log;
	ka_buf_init(&log, 1 << 20);
	o.arch = arch;
	o.rules_dirs = dirs;
	o.nrules_dirs = 1;
	rc = ka_fs_write_atomic(path, r->text, strlen(r->text));
	if (rc == KA_OK && (rc = ka_lint_new(&l, &o)) != KA_OK)
		rc = ka_error_set(rc, "%.*s", (int)strcspn(ka_lint_error(NULL), "\n"), ka_lint_error(NULL));
	if (rc == KA_OK)
		rc = ka_lint_test_rule(l, r->id, NULL, &log, &c);
	if (rc == KA_OK && (c.failed || c.skipped || !c.passed)) {
		const char *e = log.data ? log.data : "no example ran";
		if (!strncmp(e, dir, strlen(dir)) && e[strlen(dir)] == '/')
			e += strlen(dir) + 1; /* "learned-x.md:42: ..." */
		rc = ka_error_set(KA_EINPUT, "%.*s", (int)strcspn(e, "\n"), e);
	}
	ka_lint_free(l);
	ka_buf_free(&log);
	unlink(path);
	rmdir(dir);
	return rc;
}

/* It fires on the kernel before the rewrite and not on the one after. */
static int test_kernels(ka_ruleset *one, const ka_distill_win *w)
{
	char ids[1][96];
	int n = 0, rc;
	const char *id = ka_ruleset_at(one, 0)->id;
	ka_ruleset_at(one, 0)->enabled = 1;
	rc = ka_learned_fired(one, w->before, w->arch, w->extra, w->nextra, ids, 1, &n);
	if (rc == KA_OK && n == 0)
		return ka_error_set(KA_EINPUT, "%s does not fire on the kernel before the rewrite", id);
	if (rc == KA_OK)
		rc = ka_learned_fired(one, w->after, w->arch, w->extra, w->nextra, ids, 1, &n);
	if (rc == KA_OK && n > 0)
		return ka_error_set(KA_EINPUT, "%s still fires on the kernel after the rewrite", id);
	return rc;
}

int ka_distill_store(ka_kdb *db, const char *reply, const ka_distill_win *w, char *id, size_t cap)
{
	char *text = NULL, *adapted = NULL, new_id[KA_DISTILL_MAX_ID + 16];
	ka_ruleset *rs = NULL;
	if (cap)
		id[0] = '\0';
	int rc = ka_distill_extract(reply, &text);
	if (rc == KA_OK)
		rc = ka_kdb_parse_rule("rule file", text, &rs);
	if (rc == KA_OK)
		rc = pick_id(db, ka_ruleset_at(rs, 0)->id, new_id, sizeof new_id);
	if (rc == KA_OK)
		rc = adapt_text(text, ka_ruleset_at(rs, 0)->id, new_id, &adapted);
	ka_ruleset_free(rs);
	rs = NULL;
	if (rc == KA_OK)
		rc = ka_kdb_parse_rule("rule file", adapted, &rs);
	if (rc == KA_OK) {
		const ka_rule *r = ka_ruleset_at(rs, 0);
		if (strcmp(r->id, new_id) != 0 || r->status != KA_STATUS_CANDIDATE || r->fix)
			rc = ka_error_set(KA_EINPUT,
					  "the rule file's front matter could not be set to id %s, "
					  "status candidate, fix none",
					  new_id);
	}
	if (rc == KA_OK)
		rc = test_examples(ka_ruleset_at(rs, 0), w->arch);
	if (rc == KA_OK)
		rc = test_kernels(rs, w);
	if (rc == KA_OK) {
		ka_kdb_evidence e = {.fix = w->strategy,
				     .task = w->task,
				     .kernel_hash = w->kernel_hash,
				     .gpu = w->gpu,
				     .arch = w->arch,
				     .speedup = w->speedup,
				     .ci_low = w->lo,
				     .ci_high = w->hi,
				     .verdict = "faster"};
		rc = ka_kdb_add_learned(db, adapted, &e);
	}
	if (rc == KA_OK)
		snprintf(id, cap, "%s", new_id);
	ka_ruleset_free(rs);
	free(text);
	free(adapted);
	return rc;
}

int ka_distill(ka_llm *llm, ka_kdb *db, const ka_distill_win *w, char *id, size_t cap)
{
	ka_llm_prompt p;
	char *reply = NULL;
	if (cap)
		id[0] = '\0';
	if (!w->task || !w->arch || !w->before || !w->after)
		return ka_error_set(KA_EINPUT, "distill: a task, an arch and both kernels are required");
	ka_llm_distill_request r = {.before = w->before,
				    .after = w->after,
				    .task = w->task,
				    .arch = w->arch,
				    .speedup = w->speedup,
				    .lo = w->lo,
				    .hi = w->hi,
				    .hint = w->hint,
				    .note = w->note};
	int rc = ka_llm_prompt_distill(&r, &p);
	if (rc == KA_OK)
		rc = ka_llm_chat(llm, p.msgs, p.n, &reply);
	if (rc == KA_OK)
		rc = ka_distill_store(db, reply, w, id, cap);
	free(reply);
	ka_llm_prompt_free(&p);
	return rc;
}
