/* agents/llm_prompt.c: turns a coder request into chat messages (see
 * llm_prompt.h).  The user message is Markdown, one section per part of
 * the request, so a person reading the recorded trajectory sees what the
 * model saw.  Code goes into fences longer than any backtick run inside
 * it, so a kernel or rule text holding ``` cannot close its fence early.
 * The summarizer's prompt (a verified win -> one rule file) is at the end:
 * it names the facts tables and columns from the schema itself, so the
 * model writes its `where` against the columns that exist. */
#include "agents/llm_prompt.h"
#include "facts/facts.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/utf8.h"
#include <stdlib.h>
#include <string.h>

static const char system_text[] =
	"You are an expert GPU performance engineer for CUDA and HIP kernels. You rewrite a kernel "
	"file so that it runs faster on the target GPU while computing the same results, within "
	"floating-point tolerance, on every configuration listed, including ones you are not shown.\n"
	"Rules:\n"
	"- Reply with the complete new file in ONE fenced code block (```cuda), then at most three "
	"lines saying what you changed and why.\n"
	"- Keep every entry point named in the ABI section, with the same signature and meaning; "
	"keep the includes the file needs.\n"
	"- Handle every size: tails that are not a multiple of the block or tile, one element, "
	"very long rows.\n"
	"- No host I/O, no timing, no files, no processes, no calls outside the CUDA/HIP runtime; "
	"the result is compiled and benchmarked, never trusted.\n"
	"- Follow the expert knowledge given: it names what is slow and how experts fix it.";

static size_t fence_len(const char *s, size_t n)
{
	size_t run = 0, max = 0;
	for (size_t i = 0; i < n; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > max)
			max = run;
	}
	return max >= 3 ? max + 1 : 3;
}

static int add_fenced(ka_buf *b, const char *lang, const char *s, size_t n)
{
	size_t f = fence_len(s, n);
	int rc = KA_OK;
	for (size_t i = 0; rc == KA_OK && i < f; i++)
		rc = ka_buf_addc(b, '`');
	if (rc == KA_OK)
		rc = ka_buf_printf(b, "%s\n", lang);
	if (rc == KA_OK)
		rc = ka_buf_add(b, s, n);
	if (rc == KA_OK && (n == 0 || s[n - 1] != '\n'))
		rc = ka_buf_addc(b, '\n');
	for (size_t i = 0; rc == KA_OK && i < f; i++)
		rc = ka_buf_addc(b, '`');
	return rc == KA_OK ? ka_buf_adds(b, "\n\n") : rc;
}

static const char *lang_of(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	return n > 4 && !strcmp(path + n - 4, ".hip") ? "hip" : "cuda";
}

static int add_findings(ka_buf *b, const ka_coder_request *r)
{
	int rc = KA_OK;
	if (!r->n_findings)
		return KA_OK;
	rc = ka_buf_adds(b, "## Findings of the static analysis (kcheck)\n\n");
	for (size_t i = 0; rc == KA_OK && i < r->n_findings; i++) {
		const ka_coder_finding *f = &r->findings[i];
		rc = ka_buf_printf(b, "- [%s] line %d", f->rule ? f->rule : "?", f->line);
		if (rc == KA_OK && f->kernel)
			rc = ka_buf_printf(b, " in kernel `%s`", f->kernel);
		if (rc == KA_OK)
			rc = ka_buf_printf(b, ": %s\n", f->message ? f->message : "");
		if (rc == KA_OK)
			rc = ka_buf_printf(b, "  Measured evidence: %s\n",
					   f->evidence ? f->evidence : "none yet for this rule");
	}
	return rc == KA_OK ? ka_buf_adds(b, "\n") : rc;
}

static int add_rules(ka_buf *b, const ka_coder_request *r)
{
	int rc = KA_OK;
	if (!r->n_rules)
		return KA_OK;
	rc = ka_buf_adds(b, "## Expert knowledge: the rules that apply\n\n");
	for (size_t i = 0; rc == KA_OK && i < r->n_rules; i++) {
		const ka_coder_rule *x = &r->rules[i];
		const char *t = x->text ? x->text : "";
		size_t n = strlen(t);
		int cut = n > KA_LLM_PROMPT_MAX_RULE;
		if (cut) /* on a character's boundary: the request must stay UTF-8 */
			n = ka_utf8_cut(t, KA_LLM_PROMPT_MAX_RULE);
		rc = ka_buf_printf(b, "### %s%s%s\n\n", x->id ? x->id : "?", x->title ? ": " : "",
				   x->title ? x->title : "");
		if (rc == KA_OK && x->fix)
			rc = ka_buf_printf(b, "Known fix: %s\n\n", x->fix);
		if (rc == KA_OK)
			rc = ka_buf_add(b, t, n);
		if (rc == KA_OK)
			rc = ka_buf_adds(b, cut ? "\n[... cut]\n\n" : "\n\n");
	}
	return rc;
}

static int add_task(ka_buf *b, const ka_coder_request *r)
{
	int rc = KA_OK;
	if (r->strategy)
		rc = ka_buf_printf(b, "## Strategy to apply\n\n%s%s%s\n\n", r->strategy,
				   r->params ? " with " : "", r->params ? r->params : "");
	if (rc == KA_OK)
		rc = ka_buf_adds(b, "## ABI: what must not change\n\n");
	if (rc == KA_OK)
		rc = r->abi ? add_fenced(b, "c", r->abi, strlen(r->abi))
			    : ka_buf_adds(b,
					  "Keep every function signature and kernel name of the file.\n\n");
	if (rc == KA_OK && r->n_configs)
		rc = ka_buf_adds(b, "## Configurations (correctness is checked on all of these and on "
				    "unseen ones)\n\n");
	for (size_t i = 0; rc == KA_OK && i < r->n_configs; i++)
		rc = ka_buf_printf(b, "- %s\n", r->configs[i] ? r->configs[i] : "");
	if (rc == KA_OK && r->n_configs)
		rc = ka_buf_adds(b, "\n");
	return rc;
}

static int add_tried(ka_buf *b, const ka_coder_request *r)
{
	int rc = KA_OK;
	if (!r->n_tried)
		return KA_OK;
	rc = ka_buf_adds(b, "## Already tried in this run (do not repeat what failed)\n\n");
	for (size_t i = 0; rc == KA_OK && i < r->n_tried; i++) {
		const ka_coder_attempt *t = &r->tried[i];
		rc = ka_buf_printf(b, "%zu. %s%s%s: %s", i + 1, t->strategy ? t->strategy : "?",
				   t->params ? " " : "", t->params ? t->params : "",
				   t->outcome ? t->outcome : "unknown");
		if (rc == KA_OK && t->speedup > 0)
			rc = ka_buf_printf(b, ", speedup %.2fx", t->speedup);
		if (rc == KA_OK && t->error)
			rc = ka_buf_printf(b, ", error: %s", t->error);
		if (rc == KA_OK)
			rc = ka_buf_adds(b, "\n");
	}
	return rc == KA_OK ? ka_buf_adds(b, "\n") : rc;
}

static int user_text(const ka_coder_request *r, char **out)
{
	ka_buf b;
	ka_buf_init(&b, KA_LLM_PROMPT_MAX);
	int rc = ka_buf_printf(&b, "## Kernel file `%s`%s%s%s%s%s\n\n", r->path ? r->path : "kernel.cu",
			       r->kernel ? ", rewrite kernel `" : "", r->kernel ? r->kernel : "",
			       r->kernel ? "`" : "", r->arch ? ", target " : "", r->arch ? r->arch : "");
	if (rc == KA_OK)
		rc = add_fenced(&b, lang_of(r->path), r->source, r->source_len);
	if (rc == KA_OK)
		rc = add_findings(&b, r);
	if (rc == KA_OK)
		rc = add_rules(&b, r);
	if (rc == KA_OK)
		rc = add_task(&b, r);
	if (rc == KA_OK)
		rc = add_tried(&b, r);
	if (rc == KA_OK)
		rc = ka_buf_adds(&b, "Reply with the whole rewritten file in one ```cuda block.\n");
	if (rc == KA_ETOOBIG)
		rc = ka_error_set(KA_ETOOBIG,
				  "llm: the prompt is over %zu bytes (shorten the rule texts "
				  "or the trajectory)",
				  KA_LLM_PROMPT_MAX);
	*out = rc == KA_OK ? ka_buf_steal(&b) : NULL;
	ka_buf_free(&b);
	return rc;
}

static int repair_texts(const ka_coder_request *r, char **answer, char **ask)
{
	ka_buf a, q;
	ka_buf_init(&a, KA_LLM_PROMPT_MAX);
	ka_buf_init(&q, KA_LLM_PROMPT_MAX);
	int rc = add_fenced(&a, lang_of(r->path), r->failed_source, r->failed_len);
	if (rc == KA_OK)
		rc = ka_buf_printf(&q,
				   "That candidate failed:\n\n%s\n\nFix this error without undoing "
				   "the optimization, and reply with the whole corrected file in one "
				   "```cuda block.\n",
				   r->failed_error);
	if (rc != KA_OK)
		rc = ka_error_set(rc, "llm: the repair turn is over %zu bytes", KA_LLM_PROMPT_MAX);
	*answer = rc == KA_OK ? ka_buf_steal(&a) : NULL;
	*ask = rc == KA_OK ? ka_buf_steal(&q) : NULL;
	ka_buf_free(&a);
	ka_buf_free(&q);
	return rc;
}

int ka_llm_prompt_build(const ka_coder_request *req, ka_llm_prompt *out)
{
	memset(out, 0, sizeof *out);
	if (!req->source)
		return ka_error_set(KA_EINPUT, "llm: the request has no kernel source");
	if (req->source_len > KA_LLM_PROMPT_MAX_SOURCE)
		return ka_error_set(KA_ETOOBIG,
				    "llm: the kernel file is %zu bytes, over the %zu-byte "
				    "limit of a prompt",
				    req->source_len, KA_LLM_PROMPT_MAX_SOURCE);
	int rc = (out->text[0] = strdup(system_text)) ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK)
		rc = user_text(req, &out->text[1]);
	out->n = 2;
	if (rc == KA_OK && req->failed_source && req->failed_error) {
		rc = repair_texts(req, &out->text[2], &out->text[3]);
		out->n = 4;
	}
	static const char *const roles[4] = {"system", "user", "assistant", "user"};
	for (size_t i = 0; i < out->n; i++)
		out->msgs[i] = (ka_llm_msg){roles[i], out->text[i]};
	if (rc != KA_OK)
		ka_llm_prompt_free(out);
	return rc;
}

void ka_llm_prompt_free(ka_llm_prompt *p)
{
	for (size_t i = 0; i < 4; i++)
		free(p->text[i]);
	memset(p, 0, sizeof *p);
}

/* ---- the summarizer: a verified win distilled into a rule file ---------- */

static const char distill_system[] =
	"You are an expert GPU performance engineer who writes rules for kcheck, a static analyzer "
	"of CUDA and HIP kernels. A rule is a SQL condition over the facts kcheck extracts from a "
	"kernel, plus the expert knowledge of why the flagged code is slow and how to fix it. You "
	"are shown a kernel before and after a rewrite that the benchmark verified to be correct and "
	"faster. Write ONE rule that recognizes the slow pattern the rewrite removed, so that it "
	"fires on other kernels with the same problem.\n"
	"Rules:\n"
	"- Reply with the whole rule file in ONE ````markdown block (four backticks: the file holds "
	"``` blocks), then at most two lines of explanation.\n"
	"- The rule must fire on the kernel before the rewrite and must not fire on the kernel after "
	"it. Describe the pattern, not this task: no names of this task's kernels or buffers in the "
	"condition.\n"
	"- Use only the fields, tables and columns listed; a rule that does not load, or whose "
	"examples do not behave, is thrown away.";

static const char distill_format[] =
	"## The rule file format\n\n"
	"YAML front matter between two `---` lines, then a Markdown body. Fields (no others):\n\n"
	"- `id`: kebab-case with a family prefix (gmem-, smem-, sync-, div-, atomic-, launch-, occ-, "
	"math-, lmem-, cmem-); it is stored as `learned-<id>`.\n"
	"- `title`: one line.\n"
	"- `severity`: `note`, `warning` or `error` (a ceiling: `warning` for a slowdown of 1.5x or "
	"more).\n"
	"- `category`: one of memory, arithmetic, divergence, synchronization, atomics, launch, "
	"occupancy, host, portability, correctness.\n"
	"- `status: candidate`, `fix: none`, `fix_safety: suggest` (always these three).\n"
	"- `scope`: the facts table the condition runs on, one finding per matching row; a table "
	"marked (scope) below.\n"
	"- `where`: one SQLite boolean expression over the scope's columns. Subqueries over the "
	"other tables are allowed (`EXISTS (SELECT 1 FROM loop l WHERE l.kernel_id = "
	"access.kernel_id AND l.depth > 1)`), `x REGEXP 'pcre'` matches text (the `line` table holds "
	"the source lines). NULL means unknown: a comparison with NULL is not true, so unknown facts "
	"do not fire. Read-only, no `;`.\n"
	"- `message`: a quoted template; `{column}` is a column of the scope's row that the "
	"condition guarantees is not NULL.\n"
	"- `impact`: quoted text, the measured effect (\"1.8x on TASK, sm_90\").\n"
	"- optional: `tags: [a, b]`, `references: [\"...\"]`, `languages: [cuda, hip]`.\n\n"
	"The body: why the pattern is slow (the hardware reason), how to recognize it, and how "
	"experts fix it (what the faster kernel does). Then the examples, which are the rule's "
	"tests:\n\n"
	"- at least one ```cuda bad block and one ```cuda good block, each a complete file on its "
	"own: no #include of task headers, a kernel and a host function that launches it with a "
	"constant block size (`k<<<(n + 255) / 256, 256>>>(...)`);\n"
	"- in the bad block, a line `// ruleid: <id>` right above each line where the rule must fire "
	"(it must fire on exactly those lines); the good block must not fire at all.\n\n";

static const char distill_skeleton[] =
	"````markdown\n"
	"---\n"
	"id: gmem-short-name\n"
	"title: One line saying what is slow\n"
	"severity: warning\n"
	"category: memory\n"
	"status: candidate\n"
	"scope: access\n"
	"where: space = 'global' AND rw = 'read' AND in_loop = 1 AND loop_invariant = 1\n"
	"message: \"{base}[{index_text}] is read again in every iteration\"\n"
	"fix: none\n"
	"fix_safety: suggest\n"
	"impact: \"1.8x on TASK (sm_90)\"\n"
	"tags: [learned]\n"
	"---\n"
	"Why it is slow, how to recognize it, how experts fix it.\n\n"
	"```cuda bad\n"
	"__global__ void k(float *out, const float *in, int n) {\n"
	"  ...\n"
	"  // ruleid: gmem-short-name\n"
	"  ... the line where it fires ...\n"
	"}\n"
	"void run(float *out, const float *in, int n) { k<<<(n + 255) / 256, 256>>>(out, in, n); }\n"
	"```\n\n"
	"```cuda good\n"
	"... the same kernel, written the fast way ...\n"
	"```\n"
	"````\n";

/* "- `access` (scope): id, kernel_id, kernel, file, line, space, ..." per
 * table.  A table with file and line columns can be a scope; the other
 * location columns (col, end_line, end_col, *_off) are left out. */
static int add_facts_tables(ka_buf *b)
{
	int rc = ka_buf_adds(b, "## Facts tables and their columns (booleans are 0/1, NULL is unknown)\n\n");
	for (int t = 0; rc == KA_OK && t < KA_FACTS_NTABLES; t++) {
		const ka_facts_table_info *ti = ka_facts_table_get((ka_facts_table)t);
		int has_file = 0, has_line = 0, first = 1;
		for (int c = ti->first + 1; c <= ti->first + ti->ncols; c++) {
			const char *n = ka_facts_col_name((ka_facts_col)c);
			has_file |= !strcmp(n, "file");
			has_line |= !strcmp(n, "line");
		}
		rc = ka_buf_printf(b, "- `%s`%s:", ti->name, has_file && has_line ? " (scope)" : "");
		for (int c = ti->first + 1; rc == KA_OK && c <= ti->first + ti->ncols; c++) {
			const char *n = ka_facts_col_name((ka_facts_col)c);
			size_t l = strlen(n);
			if (!strcmp(n, "col") || !strcmp(n, "end_line") || !strcmp(n, "end_col") ||
			    (l > 4 && !strcmp(n + l - 4, "_off")))
				continue;
			rc = ka_buf_printf(b, "%s %s", first ? "" : ",", n);
			first = 0;
		}
		if (rc == KA_OK)
			rc = ka_buf_adds(b, "\n");
	}
	return rc == KA_OK ? ka_buf_adds(b, "\n") : rc;
}

static int distill_text(const ka_llm_distill_request *r, char **out)
{
	ka_buf b;
	ka_buf_init(&b, KA_LLM_PROMPT_MAX);
	int rc = ka_buf_printf(&b, "## The kernel before the rewrite%s%s%s%s\n\n", r->task ? ", task " : "",
			       r->task ? r->task : "", r->arch ? ", target " : "", r->arch ? r->arch : "");
	if (rc == KA_OK)
		rc = add_fenced(&b, "cuda", r->before, strlen(r->before));
	if (rc == KA_OK)
		rc = ka_buf_adds(&b, "## The kernel after the rewrite\n\n");
	if (rc == KA_OK)
		rc = add_fenced(&b, "cuda", r->after, strlen(r->after));
	if (rc == KA_OK)
		rc = ka_buf_printf(&b,
				   "## What the benchmark measured\n\n"
				   "Correct on every configuration; %.2fx faster than the kernel before "
				   "(95%% CI [%.2f, %.2f]), paired, interleaved timing.\n",
				   r->speedup, r->lo, r->hi);
	if (rc == KA_OK && r->hint)
		rc = ka_buf_printf(&b, "The rewrite was asked to follow the strategy `%s`.\n", r->hint);
	if (rc == KA_OK && r->note)
		rc = ka_buf_printf(&b, "The rewriter's own note: %s\n", r->note);
	if (rc == KA_OK)
		rc = ka_buf_adds(&b, "\n");
	if (rc == KA_OK)
		rc = ka_buf_adds(&b, distill_format);
	if (rc == KA_OK)
		rc = add_facts_tables(&b);
	if (rc == KA_OK)
		rc = ka_buf_printf(&b,
				   "## Reply\n\nThe rule file in one ````markdown block, shaped like:\n\n%s",
				   distill_skeleton);
	if (rc == KA_ETOOBIG)
		rc = ka_error_set(KA_ETOOBIG, "llm: the summarizer's prompt is over %zu bytes",
				  KA_LLM_PROMPT_MAX);
	*out = rc == KA_OK ? ka_buf_steal(&b) : NULL;
	ka_buf_free(&b);
	return rc;
}

int ka_llm_prompt_distill(const ka_llm_distill_request *r, ka_llm_prompt *out)
{
	memset(out, 0, sizeof *out);
	if (!r->before || !r->after)
		return ka_error_set(KA_EINPUT, "llm: the summarizer needs the kernel before and after");
	if (strlen(r->before) > KA_LLM_PROMPT_MAX_SOURCE || strlen(r->after) > KA_LLM_PROMPT_MAX_SOURCE)
		return ka_error_set(KA_ETOOBIG, "llm: a kernel file is over the %zu-byte limit of a prompt",
				    KA_LLM_PROMPT_MAX_SOURCE);
	int rc = (out->text[0] = strdup(distill_system)) ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
	if (rc == KA_OK)
		rc = distill_text(r, &out->text[1]);
	out->n = 2;
	out->msgs[0] = (ka_llm_msg){"system", out->text[0]};
	out->msgs[1] = (ka_llm_msg){"user", out->text[1]};
	if (rc != KA_OK)
		ka_llm_prompt_free(out);
	return rc;
}
