/* util/cleanup.c: the signal-time cleanup of util/cleanup.h.  Fixed slot
 * tables (no allocation in a handler): a slot is claimed with a
 * compare-and-swap, filled, then published; the handler only reads
 * published slots and calls kill(), unlink(), unlinkat() and rmdir(), all
 * async-signal-safe. */
#include "util/cleanup.h"
#include <assert.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/syscall.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#define NFILES 64
#define NDIRS 64
#define NGROUPS 64

enum { FREE = 0, FILLING = 1, READY = 2 };

/* The states sit apart from the paths: clearing or scanning them (a forked
 * child forgets them all) touches one page, not one page per slot. */
struct slot {
	int levels; /* dirs: -1 a flat folder to empty, else parents to rmdir */
	char path[PATH_MAX];
};
static struct slot files[NFILES], dirs[NDIRS];
static atomic_int file_state[NFILES], dir_state[NDIRS];
static atomic_int groups[NGROUPS]; /* 0 = free, else a process group id */
static atomic_flag installed = ATOMIC_FLAG_INIT;

/* rmdir() path and then `levels` of its parents, deepest first (a folder
 * that is not empty stays). */
static void remove_dirs(const char *path, int levels)
{
	char p[PATH_MAX];
	size_t n = strlen(path);
	memcpy(p, path, n + 1);
	for (int k = 0; k <= levels && n > 1; k++) {
		rmdir(p);
		while (n > 1 && p[n - 1] != '/')
			n--;
		if (n > 1)
			n--; /* the '/' */
		p[n] = '\0';
	}
}

/* Empty a flat folder and remove it, with system calls only (getdents64,
 * unlinkat, rmdir: no opendir, which allocates). */
static void sweep_dir(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			const struct {
				unsigned long long ino;
				long long off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (const void *)(buf + off);
			if (strcmp(d->name, ".") && strcmp(d->name, ".."))
				unlinkat(fd, d->name, 0);
			off += d->reclen;
		}
	}
	close(fd);
	rmdir(path);
}

static void on_signal(int sig)
{
	for (int i = 0; i < NGROUPS; i++) {
		int g = atomic_load(&groups[i]);
		if (g > 0)
			kill(-(pid_t)g, SIGKILL);
	}
	for (int i = 0; i < NFILES; i++)
		if (atomic_load(&file_state[i]) == READY)
			unlink(files[i].path);
	for (int i = 0; i < NDIRS; i++)
		if (atomic_load(&dir_state[i]) == READY) {
			if (dirs[i].levels < 0)
				sweep_dir(dirs[i].path);
			else
				remove_dirs(dirs[i].path, dirs[i].levels);
		}
	signal(sig, SIG_DFL);
	raise(sig);
}

void ka_cleanup_install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	if (atomic_flag_test_and_set(&installed))
		return;
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction sa, old;
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue; /* nohup, or a background job of a non-interactive shell */
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

/* Claim a free slot of table[0..n) (its states in state[0..n)) for path. */
static int add_path(struct slot *table, atomic_int *state, int n, const char *path, int levels)
{
	size_t len = strlen(path);
	if (len >= PATH_MAX)
		return -1;
	for (int i = 0; i < n; i++) {
		int want = FREE;
		if (atomic_compare_exchange_strong(&state[i], &want, FILLING)) {
			memcpy(table[i].path, path, len + 1);
			table[i].levels = levels;
			atomic_store(&state[i], READY);
			return i;
		}
	}
	return -1;
}

int ka_cleanup_add_file(const char *path)
{
	return add_path(files, file_state, NFILES, path, 0);
}

int ka_cleanup_add_dir(const char *path)
{
	return add_path(dirs, dir_state, NDIRS, path, -1);
}

int ka_cleanup_add_dirs(const char *deepest, int levels)
{
	return levels < 0 ? -1 : add_path(dirs, dir_state, NDIRS, deepest, levels);
}

void ka_cleanup_remove_dir(int slot)
{
	assert(slot >= -1 && slot < NDIRS);
	if (slot >= 0 && slot < NDIRS)
		atomic_store(&dir_state[slot], FREE);
}

void ka_cleanup_remove_file(int slot)
{
	assert(slot >= -1 && slot < NFILES); /* -1: what a full table handed out */
	if (slot >= 0 && slot < NFILES)
		atomic_store(&file_state[slot], FREE);
}

int ka_cleanup_add_group(pid_t pgid)
{
	for (int i = 0; pgid > 0 && i < NGROUPS; i++) {
		int want = 0;
		if (atomic_compare_exchange_strong(&groups[i], &want, (int)pgid))
			return i;
	}
	return -1;
}

void ka_cleanup_remove_group(int slot)
{
	assert(slot >= -1 && slot < NGROUPS);
	if (slot >= 0 && slot < NGROUPS)
		atomic_store(&groups[slot], 0);
}

void ka_cleanup_forget_all(void)
{
	for (int i = 0; i < NGROUPS; i++)
		atomic_store(&groups[i], 0);
	for (int i = 0; i < NFILES; i++)
		atomic_store(&file_state[i], FREE);
	for (int i = 0; i < NDIRS; i++)
		atomic_store(&dir_state[i], FREE);
}
