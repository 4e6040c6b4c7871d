/* tests/bench/test_sandbox.c: the harness's seccomp sandbox
 * (bench/harness/harness_sandbox.h) on the host, no GPU needed.  Each probe
 * runs in a child that enters the sandbox with a pipe as its result channel
 * (fd 3, as in the harness) and then tries one thing.  What a kernel wrapper
 * and the CUDA runtime need (writes, allocations, threads, clocks) must
 * work; every escape (exec, fork, open, dlopen, sockets, ptrace, executable
 * memory, signals to other processes, replacing the SIGSYS reporter) must
 * end the child with status 3 and name the system call on fd 3.
 * Exit status 77 (skipped) where the kernel offers no seccomp filters. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "bench/harness/harness_sandbox.h"

static void *spin(void *arg)
{
	struct timespec ts = {0, 1000000};
	nanosleep(&ts, NULL);
	return arg;
}

/* What a wrapper and the runtime do after the device is open. */
static int allowed(void)
{
	char *big = malloc(64 << 20); /* mmap without PROT_EXEC */
	pthread_t th[4];
	struct timespec ts;
	if (!big)
		return 1;
	memset(big, 1, 64 << 20);
	free(big);
	for (int i = 0; i < 4; i++)
		if (pthread_create(&th[i], NULL, spin, NULL))
			return 2; /* clone3 -> ENOSYS -> clone(CLONE_THREAD) */
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	void *rw = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rw == MAP_FAILED || mprotect(rw, 4096, PROT_READ))
		return 3;
	munmap(rw, 4096);
	if (write(1, "", 0) < 0 || getpid() <= 0)
		return 4;
	return 0;
}

typedef int (*probe_fn)(void);

static int p_execve(void)
{
	char *argv[] = {"true", NULL};
	execv("/bin/true", argv);
	return 0;
}
static int p_fork(void)
{
	pid_t p = fork();
	if (p == 0)
		_exit(0);
	return 0;
}
static int p_open(void)
{
	return open("/etc/hostname", O_RDONLY) >= 0 ? 0 : 0;
}
static int p_create(void)
{
	return open("/tmp/ka-sandbox-probe", O_WRONLY | O_CREAT, 0600) >= 0 ? 0 : 0;
}
/* A library the process has not loaded yet: dlopen must open its file.  (One
 * already mapped, such as libm when the test links it, costs no system call
 * and proves nothing.) */
static int p_dlopen(void)
{
	return dlopen("/ka-sandbox-probe/libnot-loaded.so", RTLD_NOW) ? 0 : 0;
}
static int p_socket(void)
{
	return socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 0;
}
static int p_ptrace(void)
{
	return (int)ptrace(PTRACE_TRACEME, 0, NULL, NULL) ? 0 : 0;
}
static int p_exec_mem(void)
{
	return mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED ? 0
													 : 0;
}
static int p_mprotect_exec(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return mprotect(p, 4096, PROT_READ | PROT_EXEC) ? 0 : 0;
}
static int p_kill_parent(void)
{
	return kill(getppid(), 0) ? 0 : 0;
}
static int p_sigsys(void)
{
	signal(SIGSYS, SIG_IGN);
	return 0;
}
static int p_io_uring(void)
{
	return (int)syscall(425, 8, NULL);
}

/* Runs fn in a sandboxed child: its exit status, and fd 3's text in msg. */
static int run_child(probe_fn fn, char *msg, size_t cap)
{
	int p[2], st = 0;
	if (pipe(p))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (dup2(p[1], 3) < 0)
			_exit(100);
		if (sandbox_enter(3))
			_exit(77);
		_exit(fn());
	}
	close(p[1]);
	ssize_t n, got = 0;
	while ((n = read(p[0], msg + got, cap - 1 - (size_t)got)) > 0)
		got += n;
	msg[got] = 0;
	close(p[0]);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(void)
{
	static const struct {
		const char *what;
		probe_fn fn;
		const char *call;
	} denied[] = {
		{"execve", p_execve, "(execve)"},
		{"fork", p_fork, "(clone)"},
		{"open for reading", p_open, "(openat)"},
		{"create a file", p_create, "(openat)"},
		{"dlopen", p_dlopen, "(openat)"},
		{"socket", p_socket, "(socket)"},
		{"ptrace", p_ptrace, "(ptrace)"},
		{"executable mmap", p_exec_mem, "(mmap)"},
		{"mprotect to executable", p_mprotect_exec, "(mprotect)"},
		{"signal another process", p_kill_parent, "(kill)"},
		{"replace the SIGSYS reporter", p_sigsys, "(rt_sigaction)"},
		{"io_uring", p_io_uring, "system call 425 "},
	};
	char msg[512];
	int bad = 0;
	int rc = run_child(allowed, msg, sizeof msg);
	if (rc == 77) {
		printf("SKIP: this kernel refuses seccomp filters\n");
		return 77;
	}
	if (rc != 0 || msg[0]) {
		printf("FAIL: allowed work ended with status %d: %s\n", rc, msg);
		bad++;
	}
	for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++) {
		rc = run_child(denied[i].fn, msg, sizeof msg);
		int ok = rc == 3 && strstr(msg, "fail - sandbox: system call ") &&
			 strstr(msg, denied[i].call);
		printf("%s: %s: status %d, %s", ok ? "ok" : "FAIL", denied[i].what, rc,
		       msg[0] ? msg + 1 : "(nothing on fd 3)\n");
		bad += !ok;
	}
	unlink("/tmp/ka-sandbox-probe");
	return bad ? 1 : 0;
}
