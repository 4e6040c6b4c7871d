/* tests/agents/mock.h: start and stop tests/agents/mock_openai.py (a
 * scripted OpenAI-compatible server on 127.0.0.1) from a C test. */
#ifndef KA_TESTS_AGENTS_MOCK_H
#define KA_TESTS_AGENTS_MOCK_H
#include <sys/types.h>

typedef struct ka_mock {
	pid_t pid;
	int port;
	char dir[128];
	char url[64];  /* http://127.0.0.1:PORT/v1 */
	char log[192]; /* one JSON line per request */
} ka_mock;

/* Write `script` (the mock's JSON script) and start the server; 0 when it
 * listens, -1 (with a line on stderr) when it did not come up in 10 s. */
int ka_mock_start(ka_mock *m, const char *script);
/* SIGTERM the server, wait for it, remove its folder. */
void ka_mock_stop(ka_mock *m);
/* The recorded requests (a JSON array, caller json_decref's); NULL on error. */
struct json_t *ka_mock_requests(const ka_mock *m);

#endif
