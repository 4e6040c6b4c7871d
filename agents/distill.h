/* agents/distill.h: the summarizer's distillation, and the learned rules
 * it feeds back into the optimize loop.
 *
 *   accepted LLM step (kernel before, after, verified speedup)
 *     -> one chat request (agents/llm_prompt.c) -> the reply's rule file
 *     -> the rule loader (front matter, SQL, placeholders)
 *     -> id `learned-...` (unique), status candidate, fix none
 *     -> its examples (lint's rule test: bad fires at its marks, good not)
 *     -> it fires on the kernel before and not on the kernel after
 *     -> knowledge DB: the rule (candidate) + the win as its first evidence
 *
 * Later runs: the learned rules that are not retired (ka_learned_load)
 * are evaluated on each step's kernel (ka_learned_fired); the ones that
 * fire go into the LLM coder's prompt, and the step's verified outcome
 * becomes their evidence.  The knowledge DB promotes a candidate with
 * verified wins on two distinct tasks to preview, and retires one that
 * keeps failing (knowledge/knowledge.h).  Lint reads only evidence from the DB: learned
 * rules are reported by nobody until someone ships them as rule files.
 *
 * Errors: a negative KA_E* code and a one-line message (ka_error_last());
 * for ka_distill that message is the refusal's reason, recorded in the
 * trajectory.
 */
#ifndef KA_AGENTS_DISTILL_H
#define KA_AGENTS_DISTILL_H
#include <stddef.h>
#include "knowledge/knowledge.h"
#include "agents/llm.h"
#include "rules/rule.h"

#define KA_DISTILL_PREFIX "learned-"
#define KA_DISTILL_MAX_ID 80                   /* a learned rule's id, prefix included */
#define KA_DISTILL_MAX_RULE ((size_t)64 << 10) /* the rule file in the reply */

/* One verified win.  Strings are borrowed. */
typedef struct ka_distill_win {
	const char *task;         /* bench task name (required) */
	const char *arch;         /* "sm_90" (required) */
	const char *gpu;          /* the bench's device name, or NULL */
	const char *before;       /* the kernel file the step started from (required) */
	const char *after;        /* the accepted candidate (required) */
	const char *strategy;     /* what made it, for the evidence ("llm:MODEL"), or NULL */
	const char *hint;         /* the planner's recipe hint, or NULL */
	const char *note;         /* the coder's own note, or NULL */
	const char *kernel_hash;  /* SHA-256 hex of after, or NULL */
	double speedup, lo, hi;   /* after over before, with its 95% CI */
	const char *const *extra; /* compiler flags the kernels are analyzed with
				   * (-I for the task's ABI header); may be NULL */
	int nextra;
} ka_distill_win;

/* Ask llm to distill the win into a rule file and store it (ka_distill_store).
 * KA_OK with the stored id in id (cap bytes); otherwise the reason it was
 * refused (HTTP failure, no rule file in the reply, a malformed rule, its
 * examples or the kernels disagreeing with it) and nothing is stored. */
int ka_distill(ka_llm *llm, ka_kdb *db, const ka_distill_win *w, char *id, size_t cap);

/* The part after the chat: reply is the model's text.  Exposed so the
 * checks can be driven without a server. */
int ka_distill_store(ka_kdb *db, const char *reply, const ka_distill_win *w, char *id, size_t cap);

/* The rule file of a reply: the first fenced block whose text starts with
 * a `---` line (fences inside it, such as the ```cuda examples, are
 * nested by their info strings).  *text malloc'd.  KA_EPARSE when there is
 * none, KA_ETOOBIG over KA_DISTILL_MAX_RULE. */
int ka_distill_extract(const char *reply, char **text);

/* The learned rules of db that are not retired, each parsed and checked
 * (one that no longer loads, because the facts moved on, is left out),
 * all enabled.  *out is an empty set when there are none. */
int ka_learned_load(ka_kdb *db, ka_ruleset **out);

/* Which rules of rs (enabled ones) fire on a kernel file's text, analyzed
 * for arch with the flags extra: their ids, in rs order, into ids (max
 * entries of 96 bytes); *n their count.  A file that parses with errors
 * still gives the facts of what parsed. */
int ka_learned_fired(const ka_ruleset *rs, const char *text, const char *arch, const char *const *extra,
		     int nextra, char (*ids)[96], int max, int *n);

#endif
