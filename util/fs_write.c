/* util/fs_write.c: writing files for kcheck (-o, --fix, --export-fixes,
 * baselines; see fs.h).  A path is first resolved through its symbolic
 * links, so a link stays a link and its target gets the bytes.  A regular
 * file (or a new one) is replaced by rename() from a temporary beside it, so
 * a reader sees the old bytes or the new, never half.  A character device or
 * a FIFO is written in place: renaming over /dev/null would replace it with
 * a regular file.  Anything else is refused.  Temporaries are registered
 * with util/cleanup.h so an interrupted run removes them. */
#include "util/fs.h"
#include "util/cleanup.h"
#include "util/error.h"
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* What the path names once its links are followed (caller frees). */
static char *resolve(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT) {
			ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
			return NULL;
		}
		char *p = strdup(path); /* a new file */
		if (!p)
			ka_error_set(KA_ENOMEM, "out of memory");
		return p;
	}
	char *real = S_ISLNK(st.st_mode) ? realpath(path, NULL) : strdup(path);
	if (!real)
		ka_error_set(KA_EIO, "cannot write %s: %s", path,
			     errno == ENOENT ? "the symbolic link points nowhere" : strerror(errno));
	return real;
}

static int write_all(int fd, const char *path, const char *p, size_t left)
{
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
		p += w;
		left -= (size_t)w;
	}
	return KA_OK;
}

/* A character device or a FIFO: open without waiting for a reader, then
 * write with SIGPIPE held back (a reader that goes away is an error). */
static int write_in_place(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ka_error_set(KA_EIO, "cannot write %s: %s", path,
				    errno == ENXIO ? "no process is reading the FIFO" : strerror(errno));
	struct stat st;
	int rc = KA_OK;
	if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		close(fd);
		return ka_error_set(KA_EIO, "cannot write %s: not a regular file", path);
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	sigset_t pipe_set, old;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
	rc = write_all(fd, path, data, len);
	if (rc < 0 && !sigismember(&old, SIGPIPE)) {
		struct timespec zero = {0, 0};
		while (sigtimedwait(&pipe_set, NULL, &zero) == SIGPIPE)
			; /* drop the SIGPIPE our write raised */
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (close(fd) != 0 && rc == KA_OK)
		rc = ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
	return rc;
}

/* With the target locked against other kcheck runs (flock), is it still
 * `expect`?  1 yes (*lock_fd holds the lock), 0 changed or gone. */
static int still(const char *path, const char *expect, size_t elen, int *lock_fd)
{
	*lock_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (*lock_fd < 0)
		return 0;
	while (flock(*lock_fd, LOCK_EX) != 0 && errno == EINTR)
		;
	char *now = NULL;
	size_t n = 0;
	int same = ka_fs_read(path, elen + 1, &now, &n) == KA_OK && n == elen &&
		   memcmp(now, expect, elen) == 0;
	free(now);
	return same;
}

/* A regular file: temporary beside it, fsync, (re-check), rename. */
static int write_replace(const char *path, const char *data, size_t len, const char *expect, size_t elen)
{
	size_t plen = strlen(path);
	int rc = KA_EIO, fd = -1, lock_fd = -1, slot = -1;
	char *tmp = malloc(plen + 16);
	if (!tmp)
		return ka_error_set(KA_ENOMEM, "out of memory");
	snprintf(tmp, plen + 16, "%s.kaXXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		rc = ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return rc;
	}
	slot = ka_cleanup_add_file(tmp);
	struct stat st;
	(void)fchmod(fd, stat(path, &st) == 0 ? (st.st_mode & 07777) : 0644);
	if ((rc = write_all(fd, path, data, len)) < 0)
		goto fail;
	if (fsync(fd) != 0 || close(fd) != 0) {
		fd = -1;
		rc = ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (expect && !still(path, expect, elen, &lock_fd)) {
		rc = KA_FS_CHANGED;
		goto fail;
	}
	if (rename(tmp, path) != 0) {
		rc = ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	rc = KA_OK;
	goto out;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	if (lock_fd >= 0)
		close(lock_fd); /* releases the lock, after the rename */
	ka_cleanup_remove_file(slot);
	free(tmp);
	return rc;
}

int ka_fs_write_atomic_if(const char *path, const void *data, size_t len, const void *expect,
			  size_t expect_len)
{
	assert(path && (data || len == 0) && (expect || expect_len == 0));
	char *target = resolve(path);
	if (!target)
		return KA_EIO;
	struct stat st;
	int rc;
	if (stat(target, &st) != 0 || S_ISREG(st.st_mode))
		rc = write_replace(target, data, len, expect, expect_len);
	else if (expect)
		rc = KA_FS_CHANGED; /* it was a regular file when it was read */
	else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		rc = write_in_place(target, data, len);
	else
		rc = ka_error_set(KA_EIO, "cannot write %s: %s", path,
				  S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
	free(target);
	return rc;
}

int ka_fs_write_atomic(const char *path, const void *data, size_t len)
{
	return ka_fs_write_atomic_if(path, data, len, NULL, 0);
}
