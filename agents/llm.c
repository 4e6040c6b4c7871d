/* agents/llm.c: the LLM client's transport: one chat completion is a POST
 * to {base}/chat/completions over libcurl, retried on transient failures.
 *
 * Retried: connection errors, timeouts, a body cut short, HTTP 408, 409,
 * 429 and 5xx.  The wait before retry k (1-based) is Retry-After when the
 * server sent one (over backoff_max_ms is an error: we do not wait that
 * long), else half of min(max, base * 2^(k-1)) plus a random share of the
 * other half (jitter spreads clients that failed together).  Not retried:
 * other 4xx (bad key, unknown model), a reply over the size cap, a 200 whose
 * JSON is malformed.  Redirects are not followed, so the key goes nowhere
 * but the configured host.  The key is never written to a message or log,
 * and neither is a password in the base URL (http://user:PASSWORD@host/v1
 * is shown as http://user:***@host/v1). */
#include "agents/llm.h"
#include "agents/llm_int.h"
#include "util/buf.h"
#include "util/error.h"
#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

struct ka_llm {
	ka_llm_opts o;
	char *url, *model, *key; /* owned copies */
	char *shown;             /* url as messages show it: no password */
	int attempts;
	unsigned long long rng;
};

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;
static void curl_init(void)
{
	curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static int set_defaults(ka_llm_opts *o)
{
	if (!o->connect_timeout_ms)
		o->connect_timeout_ms = 10000;
	if (!o->timeout_ms)
		o->timeout_ms = 300000;
	if (!o->max_retries)
		o->max_retries = 4;
	if (o->max_retries < 0)
		o->max_retries = 0;
	if (!o->backoff_base_ms) {
		const char *b = env("KERNELARC_LLM_BACKOFF_MS");
		char *end = NULL;
		long v = b ? strtol(b, &end, 10) : 1000;
		if (b && (*end || v < 1 || v > 600000))
			return ka_error_set(KA_EINPUT,
					    "KERNELARC_LLM_BACKOFF_MS: '%s' is not a number of "
					    "milliseconds in 1..600000",
					    b);
		o->backoff_base_ms = (int)v;
	}
	if (!o->backoff_max_ms)
		o->backoff_max_ms = 60000;
	if (!o->max_reply_bytes)
		o->max_reply_bytes = (size_t)4 << 20;
	return KA_OK;
}

/* url with the password of its user information (scheme://user:PASSWORD@host)
 * written as ***; malloc'ed, NULL out of memory. */
static char *without_password(const char *url)
{
	const char *auth = strstr(url, "://");
	auth = auth ? auth + 3 : url;
	size_t alen = strcspn(auth, "/?#");
	const char *at = NULL, *colon = NULL;
	for (const char *p = auth; p < auth + alen; p++)
		if (*p == '@')
			at = p; /* the last '@' ends the user information */
	if (at)
		colon = memchr(auth, ':', (size_t)(at - auth));
	ka_buf b;
	ka_buf_init(&b, strlen(url) + 8);
	int rc = colon ? ka_buf_add(&b, url, (size_t)(colon + 1 - url)) : ka_buf_adds(&b, url);
	if (colon && rc == KA_OK)
		rc = ka_buf_adds(&b, "***");
	if (colon && rc == KA_OK)
		rc = ka_buf_adds(&b, at);
	if (rc != KA_OK || !b.data) {
		ka_buf_free(&b);
		return NULL;
	}
	return ka_buf_steal(&b);
}

static int make_url(ka_llm *c, const char *base)
{
	if (strncasecmp(base, "http://", 7) != 0 && strncasecmp(base, "https://", 8) != 0) {
		char *shown = without_password(base);
		int rc = ka_error_set(KA_EINPUT, "--llm-base-url: '%s' is not an http:// or https:// URL",
				      shown ? shown : "(the URL)");
		free(shown);
		return rc;
	}
	size_t n = strlen(base);
	while (n && base[n - 1] == '/')
		n--;
	ka_buf b;
	ka_buf_init(&b, 8192);
	if (ka_buf_add(&b, base, n) != KA_OK || ka_buf_adds(&b, "/chat/completions") != KA_OK) {
		ka_buf_free(&b);
		return ka_error_set(KA_EINPUT, "--llm-base-url: the URL is too long");
	}
	c->url = ka_buf_steal(&b);
	if (!(c->shown = without_password(c->url)))
		return ka_error_set(KA_ENOMEM, "out of memory");
	return KA_OK;
}

int ka_llm_model_ok(const char *model, char *why, size_t cap)
{
	size_t n = strlen(model);
	if (n == 0 || n > 200) {
		snprintf(why, cap, "a model name has 1 to 200 characters (got %zu)", n);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)model[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("._-:/@+", c))
			continue;
		if (c >= 0x21 && c < 0x7f)
			snprintf(
				why, cap,
				"the model name holds '%c' (a model name is letters, digits and . _ - : / @ +)",
				c);
		else
			snprintf(
				why, cap,
				"the model name holds byte 0x%02x at offset %zu (a model name is letters, digits and . _ - : / @ +)",
				c, i);
		return 0;
	}
	return 1;
}

int ka_llm_new(ka_llm **out, const ka_llm_opts *o)
{
	*out = NULL;
	const char *base = o->base_url ? o->base_url : env("KERNELARC_LLM_BASE_URL");
	const char *model = o->model ? o->model : env("KERNELARC_LLM_MODEL");
	const char *key = o->api_key ? o->api_key : env("KERNELARC_LLM_API_KEY");
	if (!base)
		base = env("OPENAI_BASE_URL");
	if (!key)
		key = env("OPENAI_API_KEY");
	if (!base || !*base)
		return ka_error_set(KA_EINPUT, "llm: no endpoint: give --llm-base-url URL (or set "
					       "KERNELARC_LLM_BASE_URL or OPENAI_BASE_URL)");
	if (!model || !*model)
		return ka_error_set(KA_EINPUT,
				    "llm: no model: give --llm-model NAME (or set KERNELARC_LLM_MODEL)");
	char why[160];
	if (!ka_llm_model_ok(model, why, sizeof why))
		return ka_error_set(KA_EINPUT, "llm: %s", why);
	pthread_once(&curl_once, curl_init);
	if (curl_init_rc != CURLE_OK)
		return ka_error_set(KA_ETOOL, "llm: libcurl failed to initialize: %s",
				    curl_easy_strerror(curl_init_rc));
	ka_llm *c = calloc(1, sizeof *c);
	if (!c)
		return ka_error_set(KA_ENOMEM, "out of memory");
	c->o = *o;
	int rc = set_defaults(&c->o);
	if (rc == KA_OK)
		rc = make_url(c, base);
	if (rc == KA_OK && (!(c->model = strdup(model)) || (key && !(c->key = strdup(key)))))
		rc = ka_error_set(KA_ENOMEM, "out of memory");
	if (rc != KA_OK) {
		ka_llm_free(c);
		return rc;
	}
	c->o.base_url = c->o.model = c->o.api_key = NULL; /* only the copies are used */
	c->rng = (unsigned long long)time(NULL) * 6364136223846793005ULL ^ (unsigned long long)getpid() ^
		 (unsigned long long)(size_t)c;
	*out = c;
	return KA_OK;
}

void ka_llm_free(ka_llm *c)
{
	if (!c)
		return;
	if (c->key) {
		memset(c->key, 0, strlen(c->key));
		free(c->key);
	}
	free(c->url);
	free(c->shown);
	free(c->model);
	free(c);
}

const char *ka_llm_model(const ka_llm *c)
{
	return c ? c->model : NULL;
}
int ka_llm_attempts(const ka_llm *c)
{
	return c ? c->attempts : 0;
}

/* One attempt's outcome. */
typedef struct attempt {
	ka_buf body;
	int over_cap;
	long status;
	long retry_after; /* seconds, -1 none */
	CURLcode cc;
	char curl_msg[CURL_ERROR_SIZE];
} attempt;

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
	attempt *a = ud;
	if (ka_buf_add(&a->body, p, size * n) != KA_OK) {
		a->over_cap = 1;
		return 0; /* aborts the transfer: CURLE_WRITE_ERROR */
	}
	return size * n;
}

static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
	attempt *a = ud;
	size_t len = size * n;
	if (len > 5 && !strncmp(p, "HTTP/", 5))
		a->retry_after = -1; /* a new response (after a 100 Continue) */
	if (len > 12 && !strncasecmp(p, "Retry-After:", 12)) {
		char v[128];
		size_t k = len - 12 < sizeof v - 1 ? len - 12 : sizeof v - 1;
		memcpy(v, p + 12, k);
		v[k] = 0;
		a->retry_after = ka_llm_retry_after(v, (long long)time(NULL));
	}
	return len;
}

static void run_attempt(ka_llm *c, const char *req, struct curl_slist *hdr, attempt *a)
{
	CURL *h = curl_easy_init();
	a->retry_after = -1;
	a->status = 0;
	a->curl_msg[0] = 0;
	if (!h) {
		a->cc = CURLE_FAILED_INIT;
		return;
	}
	curl_easy_setopt(h, CURLOPT_URL, c->url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, req);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(req));
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, (long)c->o.connect_timeout_ms);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)c->o.timeout_ms);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, a);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, a);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, a->curl_msg);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "kcheck-llm/1");
	a->cc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &a->status);
	curl_easy_cleanup(h);
}

static int transient_curl(CURLcode cc)
{
	switch (cc) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

static int transient_status(long s)
{
	return s == 408 || s == 409 || s == 429 || (s >= 500 && s <= 599);
}

/* What went wrong with an attempt, one line (no key, no body beyond the
 * server's own error message). */
static void describe(const ka_llm *c, const attempt *a, char *out, size_t cap)
{
	if (a->over_cap)
		snprintf(out, cap, "the reply is over the %zu-byte cap", c->o.max_reply_bytes);
	else if (a->cc == CURLE_OPERATION_TIMEDOUT)
		snprintf(out, cap, "no complete reply within %.1f s (timeout)", c->o.timeout_ms / 1000.0);
	else if (a->cc == CURLE_PARTIAL_FILE)
		snprintf(out, cap, "the reply was cut short (%zu bytes, fewer than announced)", a->body.len);
	else if (a->cc == CURLE_COULDNT_CONNECT)
		snprintf(out, cap, "cannot connect to %s", c->shown);
	else if (a->cc != CURLE_OK) {
		char *m = ka_llm_one_line(a->curl_msg[0] ? a->curl_msg : curl_easy_strerror(a->cc),
					  CURL_ERROR_SIZE, 160);
		snprintf(out, cap, "%s", m ? m : curl_easy_strerror(a->cc));
		free(m);
	} else {
		char *m = ka_llm_json_error(a->body.data ? a->body.data : "", a->body.len, 200);
		snprintf(out, cap, "HTTP %ld%s%s", a->status, m ? ": " : "", m ? m : "");
		free(m);
	}
}

static long backoff_ms(ka_llm *c, int k)
{
	double d = c->o.backoff_base_ms;
	for (int i = 1; i < k && d < c->o.backoff_max_ms; i++)
		d *= 2;
	if (d > c->o.backoff_max_ms)
		d = c->o.backoff_max_ms;
	c->rng = c->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	double u = (double)(c->rng >> 11) / (double)(1ULL << 53);
	return (long)(d / 2 + u * d / 2);
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0)
		;
}

static struct curl_slist *headers(const ka_llm *c)
{
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	struct curl_slist *t = h ? curl_slist_append(h, "Expect:") : NULL; /* no 100-continue wait */
	h = t ? t : h;
	if (h && c->key) {
		size_t n = strlen(c->key) + 32;
		char *line = malloc(n);
		if (!line) {
			curl_slist_free_all(h);
			return NULL;
		}
		snprintf(line, n, "Authorization: Bearer %s", c->key);
		t = curl_slist_append(h, line);
		memset(line, 0, n);
		free(line);
		if (!t) {
			curl_slist_free_all(h);
			return NULL;
		}
	}
	return t;
}

/* Decide after attempt k: 1 retry (after *wait ms), 0 stop. */
static int should_retry(ka_llm *c, const attempt *a, int k, long *wait, char *why, size_t cap)
{
	int transient = a->over_cap         ? 0
			: a->cc != CURLE_OK ? transient_curl(a->cc)
					    : transient_status(a->status);
	if (!transient || k > c->o.max_retries)
		return 0;
	*wait = backoff_ms(c, k);
	if (a->retry_after >= 0) {
		if (a->retry_after * 1000 > c->o.backoff_max_ms) {
			snprintf(why, cap, "the server asks to retry after %ld s, over the %d s limit",
				 a->retry_after, c->o.backoff_max_ms / 1000);
			return 0;
		}
		*wait = a->retry_after * 1000;
	}
	return 1;
}

static int finish(ka_llm *c, attempt *a, const char *why, char **content)
{
	char msg[400];
	if (why[0] == 0 && a->cc == CURLE_OK && a->status == 200 && !a->over_cap)
		return ka_llm_json_content(a->body.data ? a->body.data : "", a->body.len, content);
	if (why[0])
		snprintf(msg, sizeof msg, "%s", why);
	else
		describe(c, a, msg, sizeof msg);
	int code = a->over_cap ? KA_ETOOBIG : KA_ETOOL;
	return ka_error_set(code, "llm: %s (%d attempt%s, POST %s)", msg, c->attempts,
			    c->attempts == 1 ? "" : "s", c->shown);
}

int ka_llm_chat(ka_llm *c, const ka_llm_msg *msgs, size_t n, char **content)
{
	*content = NULL;
	c->attempts = 0;
	char *req = ka_llm_json_request(c->model, msgs, n, c->o.temperature, c->o.max_tokens);
	if (!req)
		return KA_ENOMEM;
	struct curl_slist *hdr = headers(c);
	if (!hdr) {
		free(req);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	attempt a;
	ka_buf_init(&a.body, c->o.max_reply_bytes);
	char why[256] = "";
	long wait = 0;
	for (int k = 1;; k++) {
		ka_buf_reset(&a.body);
		a.over_cap = 0;
		c->attempts = k;
		run_attempt(c, req, hdr, &a);
		if (!should_retry(c, &a, k, &wait, why, sizeof why))
			break;
		if (c->o.log) {
			char what[256];
			describe(c, &a, what, sizeof what);
			fprintf(c->o.log, "llm: %s, retry %d/%d in %.1f s\n", what, k, c->o.max_retries,
				wait / 1000.0);
		}
		sleep_ms(wait);
	}
	int rc = finish(c, &a, why, content);
	ka_buf_free(&a.body);
	curl_slist_free_all(hdr);
	free(req);
	return rc;
}
