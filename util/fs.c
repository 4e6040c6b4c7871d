/* util/fs.c: capped reads and atomic writes (see fs.h). */
#include "util/fs.h"
#include "util/error.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ka_fs_read(const char *path, size_t limit, char **out, size_t *len)
{
	int rc = KA_EIO;
	char *data = NULL;
	*out = NULL;
	if (len)
		*len = 0;
	if (!limit)
		limit = (size_t)64 << 20;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return ka_error_set(KA_EIO, "cannot read %s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0) {
		ka_error_set(KA_EIO, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		ka_error_set(KA_EIO, "cannot read %s: is a directory", path);
		goto out;
	}
	if ((size_t)st.st_size > limit) {
		rc = ka_error_set(KA_ETOOBIG, "cannot read %s: larger than %zu bytes", path, limit);
		goto out;
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	data = malloc(cap);
	if (!data) {
		rc = ka_error_set(KA_ENOMEM, "out of memory reading %s", path);
		goto out;
	}
	for (;;) {
		if (n + 1 >= cap) {
			if (cap > limit) {
				rc = ka_error_set(KA_ETOOBIG, "cannot read %s: larger than %zu bytes", path, limit);
				goto out;
			}
			char *p = realloc(data, cap * 2);
			if (!p) {
				rc = ka_error_set(KA_ENOMEM, "out of memory reading %s", path);
				goto out;
			}
			data = p;
			cap *= 2;
		}
		ssize_t r = read(fd, data + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ka_error_set(KA_EIO, "cannot read %s: %s", path, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	data[n] = '\0';
	*out = data;
	data = NULL;
	if (len)
		*len = n;
	rc = KA_OK;
out:
	free(data);
	close(fd);
	return rc;
}

int ka_fs_write_atomic(const char *path, const void *data, size_t len)
{
	int rc = KA_EIO;
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 16);
	if (!tmp)
		return ka_error_set(KA_ENOMEM, "out of memory");
	snprintf(tmp, plen + 16, "%s.kaXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		return rc;
	}
	struct stat st;
	if (stat(path, &st) == 0)
		(void)fchmod(fd, st.st_mode & 07777);
	else
		(void)fchmod(fd, 0644);
	const char *p = data;
	size_t left = len;
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
			goto fail;
		}
		p += w;
		left -= (size_t)w;
	}
	if (fsync(fd) != 0) {
		ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	if (close(fd) != 0) {
		fd = -1;
		ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
		goto fail;
	}
	free(tmp);
	return KA_OK;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return rc;
}

int ka_fs_is_binary(const char *data, size_t len)
{
	size_t n = len < 8192 ? len : 8192;
	return memchr(data, '\0', n) != NULL;
}

int ka_fs_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int ka_fs_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}
