/* tests/agents/mock.c: runs the mock OpenAI server (mock_openai.py, path
 * given at build time as KA_MOCK_OPENAI) as a child process of the test, on
 * a free port of 127.0.0.1, and reads back what it recorded. */
#include "mock.h"
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	int ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -1;
}

int ka_mock_start(ka_mock *m, const char *script)
{
	char script_path[256], port_path[256];
	memset(m, 0, sizeof *m);
	snprintf(m->dir, sizeof m->dir, "/tmp/ka-mock-XXXXXX");
	if (!mkdtemp(m->dir))
		return -1;
	snprintf(script_path, sizeof script_path, "%s/script.json", m->dir);
	snprintf(port_path, sizeof port_path, "%s/port", m->dir);
	snprintf(m->log, sizeof m->log, "%s/requests.jsonl", m->dir);
	if (write_file(script_path, script) != 0)
		return -1;
	m->pid = fork();
	if (m->pid < 0)
		return -1;
	if (m->pid == 0) {
		execlp("python3", "python3", KA_MOCK_OPENAI, "--script", script_path, "--log", m->log,
		       "--port-file", port_path, "--lifetime", "120", (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 500; i++) {
		FILE *f = fopen(port_path, "r");
		if (f) {
			int ok = fscanf(f, "%d", &m->port) == 1;
			fclose(f);
			if (ok) {
				snprintf(m->url, sizeof m->url, "http://127.0.0.1:%d/v1", m->port);
				return 0;
			}
		}
		if (waitpid(m->pid, NULL, WNOHANG) == m->pid) {
			fprintf(stderr, "mock_openai.py exited before listening\n");
			m->pid = 0;
			return -1;
		}
		struct timespec ts = {0, 20000000L};
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "mock_openai.py did not listen within 10 s\n");
	return -1;
}

void ka_mock_stop(ka_mock *m)
{
	char cmd[300];
	if (m->pid > 0) {
		kill(m->pid, SIGTERM);
		waitpid(m->pid, NULL, 0);
		m->pid = 0;
	}
	if (m->dir[0]) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", m->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", m->dir);
		m->dir[0] = 0;
	}
}

json_t *ka_mock_requests(const ka_mock *m)
{
	FILE *f = fopen(m->log, "r");
	json_t *arr = json_array();
	char *line = NULL;
	size_t cap = 0;
	while (f && arr && getline(&line, &cap, f) > 0) {
		json_error_t e;
		json_t *v = json_loads(line, 0, &e);
		if (!v) {
			json_decref(arr);
			arr = NULL;
			break;
		}
		json_array_append_new(arr, v);
	}
	free(line);
	if (f)
		fclose(f);
	return arr;
}
