/* agents/llm_prompt.h: the chat messages an LLM coder sends for one coder
 * request (agents/coder.h): a system message with the rules of the game,
 * a user message with the kernel, the findings and their evidence, the
 * rules' texts, the strategy, the ABI, the configurations and what was
 * already tried; on a repair turn, the failed candidate as the assistant's
 * answer and a user message carrying its first error.  The summarizer's
 * request (a verified win distilled into a rule file) is built here too. */
#ifndef KA_AGENTS_LLM_PROMPT_H
#define KA_AGENTS_LLM_PROMPT_H
#include <stddef.h>
#include "agents/coder.h"
#include "agents/llm.h"

/* Caps that keep a prompt inside a model's context. */
#define KA_LLM_PROMPT_MAX_SOURCE ((size_t)256 << 10) /* the kernel file */
#define KA_LLM_PROMPT_MAX_RULE ((size_t)12 << 10)    /* one rule's text; longer is cut */
#define KA_LLM_PROMPT_MAX ((size_t)1 << 20)          /* one message */

typedef struct ka_llm_prompt {
	ka_llm_msg msgs[4];
	size_t n;
	char *text[4]; /* owned contents of msgs */
} ka_llm_prompt;

/* KA_ETOOBIG when the kernel file is over KA_LLM_PROMPT_MAX_SOURCE or the
 * message over KA_LLM_PROMPT_MAX; KA_EINPUT when the request has no source. */
int ka_llm_prompt_build(const ka_coder_request *req, ka_llm_prompt *out);
void ka_llm_prompt_free(ka_llm_prompt *p);

/* The summarizer's request (agents/distill.c): a verified win to distill
 * into one kcheck rule file. */
typedef struct ka_llm_distill_request {
	const char *before;     /* the kernel file the step started from */
	const char *after;      /* the accepted candidate */
	const char *task;       /* bench task name; NULL unknown */
	const char *arch;       /* "sm_90"; NULL unknown */
	double speedup, lo, hi; /* after over before, paired, with its 95% CI */
	const char *hint;       /* the planner's recipe hint, or NULL */
	const char *note;       /* what the coder said it changed, or NULL */
} ka_llm_distill_request;

/* Two messages: a system message (write one rule file in kcheck's format)
 * and a user message with both kernels, the speedup, the rule format's
 * essentials, the facts tables with their columns (facts/facts_tables.def)
 * and a skeleton of the reply.  KA_ETOOBIG when a kernel is over
 * KA_LLM_PROMPT_MAX_SOURCE or the message over KA_LLM_PROMPT_MAX;
 * KA_EINPUT without both kernels. */
int ka_llm_prompt_distill(const ka_llm_distill_request *r, ka_llm_prompt *out);

#endif
