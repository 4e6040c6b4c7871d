/* agents/coder.h: the coder role of the optimize loop: one interface, two
 * providers.
 *
 *   planner -> [coder: request -> candidate source] -> verifier (gate, bench)
 *
 * A request carries everything a rewrite is conditioned on: the kernel's
 * source, the findings with their evidence, the selected rules' texts (the
 * long-term knowledge), the task's ABI and configurations, the strategy the
 * planner chose (or none: the provider chooses) and a summary of the
 * trajectory so far (what was tried, why it failed).  A repair turn is the
 * same request with the failed candidate and its first error filled in.
 * The reply is a candidate source, or an error (a negative KA_E* code and a
 * one-line message in ka_error_last()).
 *
 * Providers:
 *   "offline"  the offline expert: transforms and structural recipes; no
 *              network (the default of `kcheck optimize`)
 *   "llm"      an OpenAI-compatible chat completion (agents/coder_llm.c,
 *              options in ka_coder_opts.llm)
 * Built-in providers are listed in the table of agents/coder.c (one line
 * per provider); ka_coder_register adds one at run time (tests, plug-ins).
 *
 * Ownership: a request only borrows its strings; a reply owns its strings
 * (ka_coder_reply_clear frees them).  A ka_coder is not thread-safe: one per
 * thread.
 */
#ifndef KA_AGENTS_CODER_H
#define KA_AGENTS_CODER_H
#include <stddef.h>
#include <stdio.h>
#include "agents/llm.h"

/* A finding the rewrite should address. */
typedef struct ka_coder_finding {
	const char *rule;     /* rule id */
	const char *message;  /* the rendered message */
	const char *file;     /* may be NULL */
	int line, col;        /* 1-based; 0 unknown */
	const char *kernel;   /* kernel the finding is in, or NULL */
	const char *evidence; /* measured evidence, e.g. "fixed 7 times on sm_90,
				     * median 4.3x [3.1, 6.0]"; NULL when none */
} ka_coder_finding;

/* A selected rule: its text is the expert knowledge the rewrite follows. */
typedef struct ka_coder_rule {
	const char *id;
	const char *title; /* may be NULL */
	const char *text;  /* the rule's Markdown body (why, how experts fix it) */
	const char *fix;   /* its transform or recipe name, or NULL */
} ka_coder_rule;

/* One step of the trajectory so far. */
typedef struct ka_coder_attempt {
	const char *strategy; /* rule, transform or recipe name; "llm" for a free rewrite */
	const char *params;   /* "block=256 items=4", or NULL */
	const char *outcome;  /* compile_error | incorrect | slower | same | faster | error */
	double speedup;       /* measured, 0 when none */
	const char *error;    /* first error line, or NULL */
} ka_coder_attempt;

typedef struct ka_coder_request {
	const char *path;   /* the kernel file's name; .hip means HIP, else CUDA */
	const char *source; /* its text (need not be NUL-terminated) */
	size_t source_len;
	const char *kernel; /* the kernel to rewrite; NULL: every kernel in the file */
	const char *arch;   /* "sm_90", "gfx90a"; NULL: unknown */
	/* the file's compiler flags (-I, -D, -std, ...), as its compile
	 * command has them; the offline expert's kernel model is parsed with
	 * them.  NULL: none. */
	const char *const *flags;
	int nflags;

	const ka_coder_finding *findings;
	size_t n_findings;
	const ka_coder_rule *rules;
	size_t n_rules;

	const char *strategy; /* the planner's choice (recipe or rule id), or NULL */
	const char *params;   /* its parameters, or NULL */

	const char *abi;            /* what the candidate must keep: entry point(s) and
				     * their contract, as text (e.g. the task's ABI header
				     * and `extern "C" int ka_task_run(...)`); NULL: keep every
				     * signature the file has */
	const char *const *configs; /* the task's configurations, one line each
				     * ("v_4096x1024: rows=4096 cols=1024") */
	size_t n_configs;

	const ka_coder_attempt *tried; /* trajectory so far, oldest first */
	size_t n_tried;

	/* Repair turn: the candidate that failed and its first error (the
	 * compiler's first error line, or the bench's reason).  Both NULL on a
	 * first turn. */
	const char *failed_source;
	size_t failed_len;
	const char *failed_error;
} ka_coder_request;

typedef struct ka_coder_reply {
	char *source; /* the candidate: a whole file to replace `path` */
	size_t source_len;
	char *strategy; /* what was applied ("warp-per-row", "llm:MODEL") */
	char *note;     /* one line for the report, or NULL */
	char *raw;      /* the LLM's whole reply text, for the trajectory; or NULL */
	int llm_made;   /* 1 when an LLM wrote it (patches and JSON say so) */
} ka_coder_reply;

void ka_coder_reply_clear(ka_coder_reply *r);

typedef struct ka_coder_opts {
	const char *provider; /* "offline" (NULL) or "llm" */
	ka_llm_opts llm;      /* the "llm" provider's endpoint, model, limits */
	const char *db;       /* knowledge DB path, for providers that read it; or NULL */
	void *extra;          /* provider-specific, documented by the provider; or NULL */
	FILE *log;            /* progress lines, or NULL */
} ka_coder_opts;

#define KA_CODER_OPTS_INIT {.llm = KA_LLM_OPTS_INIT}

/* A provider: create makes its state from the options; propose answers one
 * request (first or repair turn), filling *out on KA_OK and leaving it
 * zeroed on error; destroy frees the state. */
typedef struct ka_coder_provider {
	const char *name;
	const char *summary; /* one line for --help */
	int (*create)(const ka_coder_opts *o, void **state);
	int (*propose)(void *state, const ka_coder_request *req, ka_coder_reply *out);
	void (*destroy)(void *state);
} ka_coder_provider;

/* The registry: built-in providers first, then registered ones. */
size_t ka_coder_provider_count(void);
const ka_coder_provider *ka_coder_provider_get(size_t i);
const ka_coder_provider *ka_coder_provider_find(const char *name);
/* Add a provider (the pointer is kept).  KA_EINPUT when the name is taken
 * or a callback is missing; KA_ETOOBIG past 16 registered ones. */
int ka_coder_register(const ka_coder_provider *p);

typedef struct ka_coder ka_coder;

/* A coder of the provider o->provider names.  KA_ENOTFOUND with "unknown
 * coder provider 'X' (known: offline, llm)" for a bad name; the provider's
 * own errors (e.g. "--llm-model is missing") otherwise. */
int ka_coder_new(ka_coder **out, const ka_coder_opts *o);
void ka_coder_free(ka_coder *c);
const char *ka_coder_name(const ka_coder *c);

/* First turn.  KA_EINPUT when the request has no source. */
int ka_coder_propose(ka_coder *c, const ka_coder_request *req, ka_coder_reply *out);
/* Repair turn: req as it was, plus the failed candidate and its error. */
int ka_coder_repair(ka_coder *c, const ka_coder_request *req, const char *failed_source, size_t failed_len,
		    const char *error, ka_coder_reply *out);

#endif
