/* agents/coder_llm.c: the "llm" coder provider: a request becomes chat
 * messages (llm_prompt.c), one chat completion (llm.c), and the reply's code
 * block (llm_code.c) becomes the candidate.  A repair turn is the same call
 * with the failed candidate and its error in the conversation.  Candidates
 * are marked llm_made: whoever shows them (a patch, a JSON report) says so,
 * and nothing here trusts them; the compile gate and the bench do. */
#include "agents/coder.h"
#include "agents/llm.h"
#include "agents/llm_prompt.h"
#include "util/buf.h"
#include "util/error.h"
#include <stdlib.h>
#include <string.h>

static int llm_create(const ka_coder_opts *o, void **state)
{
	ka_llm_opts lo = o->llm;
	if (!lo.log)
		lo.log = o->log;
	return ka_llm_new((ka_llm **)state, &lo);
}

static void llm_destroy(void *state)
{
	ka_llm_free(state);
}

static char *summary_line(const char *content, const char *code_end)
{
	/* The first non-blank line after the code block: the model's own note. */
	const char *p = code_end ? code_end : "";
	const char *nl = strchr(p, '\n');
	p = nl ? nl + 1 : p + strlen(p);
	while (*p == '\n' || *p == ' ' || *p == '\r')
		p++;
	size_t n = strcspn(p, "\n");
	(void)content;
	if (!n)
		return NULL;
	ka_buf b;
	ka_buf_init(&b, 256);
	ka_buf_add(&b, p, n < 200 ? n : 200);
	return ka_buf_steal(&b);
}

static int llm_propose(void *state, const ka_coder_request *req, ka_coder_reply *out)
{
	ka_llm *c = state;
	ka_llm_prompt p;
	char *content = NULL;
	int rc = ka_llm_prompt_build(req, &p);
	if (rc == KA_OK)
		rc = ka_llm_chat(c, p.msgs, p.n, &content);
	if (rc == KA_OK)
		rc = ka_llm_extract_code(content, req->kernel, &out->source, &out->source_len);
	if (rc == KA_OK) {
		ka_buf b;
		ka_buf_init(&b, 1024);
		ka_buf_printf(&b, "llm:%s", ka_llm_model(c));
		out->strategy = ka_buf_steal(&b);
		/* the note: the text after the last closing fence, if any */
		const char *last = NULL;
		for (const char *q = strstr(content, "```"); q; q = strstr(q + 3, "```"))
			last = q;
		out->note = summary_line(content, last);
		out->raw = content;
		content = NULL;
		out->llm_made = 1;
		if (!out->strategy)
			rc = ka_error_set(KA_ENOMEM, "out of memory");
	}
	free(content);
	ka_llm_prompt_free(&p);
	return rc;
}

const ka_coder_provider ka_coder_llm_provider = {
	.name = "llm",
	.summary = "an OpenAI-compatible chat completion (--llm-base-url, --llm-model)",
	.create = llm_create,
	.propose = llm_propose,
	.destroy = llm_destroy,
};
