/* agents/coder.c: the coder registry and the calls every provider shares
 * (see coder.h).  Built-in providers are the lines of `builtin` below; a
 * provider registered at run time comes after them.  The checks that hold
 * for every provider (a request has a source; a reply is a non-empty file)
 * live here, so a provider cannot skip them. */
#include "agents/coder.h"
#include "util/buf.h"
#include "util/error.h"
#include <stdlib.h>
#include <string.h>

extern const ka_coder_provider ka_coder_offline_provider; /* agents/coder_offline.c */
extern const ka_coder_provider ka_coder_llm_provider;     /* agents/coder_llm.c */

static const ka_coder_provider *const builtin[] = {
	&ka_coder_offline_provider,
	&ka_coder_llm_provider,
};
#define N_BUILTIN (sizeof builtin / sizeof builtin[0])
#define MAX_REGISTERED 16

static const ka_coder_provider *registered[MAX_REGISTERED];
static size_t n_registered;

struct ka_coder {
	const ka_coder_provider *p;
	void *state;
};

size_t ka_coder_provider_count(void)
{
	return N_BUILTIN + n_registered;
}

const ka_coder_provider *ka_coder_provider_get(size_t i)
{
	if (i < N_BUILTIN)
		return builtin[i];
	i -= N_BUILTIN;
	return i < n_registered ? registered[i] : NULL;
}

const ka_coder_provider *ka_coder_provider_find(const char *name)
{
	for (size_t i = 0; name && i < ka_coder_provider_count(); i++)
		if (!strcmp(ka_coder_provider_get(i)->name, name))
			return ka_coder_provider_get(i);
	return NULL;
}

int ka_coder_register(const ka_coder_provider *p)
{
	if (!p || !p->name || !*p->name || !p->create || !p->propose || !p->destroy)
		return ka_error_set(KA_EINPUT, "coder provider: a name and the create, propose and "
					       "destroy callbacks are required");
	if (ka_coder_provider_find(p->name))
		return ka_error_set(KA_EINPUT, "coder provider '%s' is already registered", p->name);
	if (n_registered == MAX_REGISTERED)
		return ka_error_set(KA_ETOOBIG, "coder provider '%s': at most %d can be registered", p->name,
				    MAX_REGISTERED);
	registered[n_registered++] = p;
	return KA_OK;
}

static int unknown_provider(const char *name)
{
	ka_buf b;
	ka_buf_init(&b, 1024);
	for (size_t i = 0; i < ka_coder_provider_count(); i++)
		ka_buf_printf(&b, "%s%s", i ? ", " : "", ka_coder_provider_get(i)->name);
	int rc = ka_error_set(KA_ENOTFOUND, "unknown coder provider '%s' (known: %s)", name,
			      b.data ? b.data : "none");
	ka_buf_free(&b);
	return rc;
}

int ka_coder_new(ka_coder **out, const ka_coder_opts *o)
{
	*out = NULL;
	const char *name = o && o->provider ? o->provider : "offline";
	const ka_coder_provider *p = ka_coder_provider_find(name);
	if (!p)
		return unknown_provider(name);
	ka_coder *c = calloc(1, sizeof *c);
	if (!c)
		return ka_error_set(KA_ENOMEM, "out of memory");
	ka_coder_opts dflt = KA_CODER_OPTS_INIT;
	c->p = p;
	int rc = p->create(o ? o : &dflt, &c->state);
	if (rc != KA_OK) {
		free(c);
		return rc;
	}
	*out = c;
	return KA_OK;
}

void ka_coder_free(ka_coder *c)
{
	if (!c)
		return;
	c->p->destroy(c->state);
	free(c);
}

const char *ka_coder_name(const ka_coder *c)
{
	return c ? c->p->name : NULL;
}

void ka_coder_reply_clear(ka_coder_reply *r)
{
	if (!r)
		return;
	free(r->source);
	free(r->strategy);
	free(r->note);
	free(r->raw);
	memset(r, 0, sizeof *r);
}

int ka_coder_propose(ka_coder *c, const ka_coder_request *req, ka_coder_reply *out)
{
	memset(out, 0, sizeof *out);
	if (!req || !req->source)
		return ka_error_set(KA_EINPUT, "coder: the request has no kernel source");
	int rc = c->p->propose(c->state, req, out);
	if (rc == KA_OK && (!out->source || !out->source_len)) {
		ka_coder_reply_clear(out);
		rc = ka_error_set(KA_ERR, "coder %s: the candidate is empty", c->p->name);
	}
	if (rc != KA_OK)
		ka_coder_reply_clear(out);
	return rc;
}

int ka_coder_repair(ka_coder *c, const ka_coder_request *req, const char *failed_source, size_t failed_len,
		    const char *error, ka_coder_reply *out)
{
	memset(out, 0, sizeof *out);
	if (!req || !failed_source || !error)
		return ka_error_set(KA_EINPUT,
				    "coder: a repair turn needs the failed candidate and its error");
	ka_coder_request r = *req;
	r.failed_source = failed_source;
	r.failed_len = failed_len;
	r.failed_error = error;
	return ka_coder_propose(c, &r, out);
}
