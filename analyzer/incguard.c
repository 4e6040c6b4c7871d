/* analyzer/incguard.c: what libclang may open while it parses.
 *
 * clang reads an included file until its end and opens it without
 * O_NONBLOCK: `#include "/dev/zero"` grows without bound and an include
 * (or `-include`) of a FIFO waits forever for a writer.  libclang has no
 * hook for its file reads, so this file defines open() itself: the
 * program's own definition comes before the C library's for every shared
 * library too (libclang and libLLVM call open() through the PLT).  On a
 * thread between ka_incguard_begin and ka_incguard_end, a read-only open
 * goes through with O_NONBLOCK and is kept only when it is a regular file
 * of at most KA_INCLUDE_MAX_BYTES (or a folder); anything else is closed
 * again, fails with EACCES or EFBIG and is remembered, so that the parse
 * fails with a message naming it.  Outside that window, and for every
 * other thread, open() is the plain system call. */
#define _GNU_SOURCE
#undef _FORTIFY_SOURCE /* its open() is an inline wrapper: this file defines the real one */
#include "analyzer/frontend.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static _Thread_local int guarding;
static _Thread_local char refused[1200]; /* the first refusal's message */

static int sys_open(const char *path, int flags, mode_t mode)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

static void refuse(const char *path, const char *why)
{
	if (!refused[0])
		snprintf(refused, sizeof refused, "'%s', %s", path, why);
}

static int guarded_open(const char *path, int flags, mode_t mode)
{
	if (!guarding || (flags & O_ACCMODE) != O_RDONLY || (flags & (O_PATH | O_DIRECTORY)))
		return sys_open(path, flags, mode);
	int fd = sys_open(path, flags | O_NONBLOCK, mode);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0)
		return fd;
	int bad = 0;
	if (S_ISDIR(st.st_mode)) {
		/* clang opens folders to look into them: fine */
	} else if (!S_ISREG(st.st_mode)) {
		refuse(path, S_ISFIFO(st.st_mode)   ? "which is a FIFO (only regular files are read)"
			     : S_ISSOCK(st.st_mode) ? "which is a socket (only regular files are read)"
						    : "which is a device (only regular files are read)");
		bad = EACCES;
	} else if (st.st_size > KA_INCLUDE_MAX_BYTES) {
		char why[96];
		snprintf(why, sizeof why, "which is larger than %lld MiB (the cap on a file read)",
			 (long long)KA_INCLUDE_MAX_BYTES >> 20);
		refuse(path, why);
		bad = EFBIG;
	}
	if (bad) {
		close(fd);
		errno = bad;
		return -1;
	}
	if (!(flags & O_NONBLOCK)) {
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	return fd;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	return guarded_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_arg(flags, ap);
	va_end(ap);
	return guarded_open(path, flags, mode);
}

void ka_incguard_begin(void)
{
	refused[0] = '\0';
	guarding = 1;
}

int ka_incguard_end(char *msg, size_t cap)
{
	guarding = 0;
	if (!refused[0])
		return 0;
	snprintf(msg, cap, "%s", refused);
	return 1;
}
