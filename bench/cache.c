/* bench/cache.c: bench/cache.h.  Ownership and mode checks with lstat (a
 * symlink is never followed into), content hashes with SHA-256. */
#include "bench/cache.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/sha256.h"
#include "util/error.h"
#include "util/fs.h"

int ka_bench_cache_default(char *dst, size_t cap)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
	if (x && x[0] == '/')
		snprintf(dst, cap, "%s/kernelarc/bench", x);
	else if (h && h[0] == '/')
		snprintf(dst, cap, "%s/.cache/kernelarc/bench", h);
	else
		return ka_error_set(KA_EINPUT,
				    "no cache folder: set XDG_CACHE_HOME or HOME, or give --build-dir");
	return 0;
}

static int safe_dir(const char *dir)
{
	struct stat st;
	if (lstat(dir, &st))
		return ka_error_set(KA_EIO, "cannot use cache folder %s: %s", dir, strerror(errno));
	if (S_ISLNK(st.st_mode))
		return ka_error_set(KA_EINPUT, "refusing cache folder %s: it is a symbolic link", dir);
	if (!S_ISDIR(st.st_mode))
		return ka_error_set(KA_EINPUT, "refusing cache folder %s: not a folder", dir);
	if (st.st_uid != geteuid())
		return ka_error_set(KA_EINPUT, "refusing cache folder %s: owned by uid %ld, not by this user",
				    dir, (long)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return ka_error_set(KA_EINPUT,
				    "refusing cache folder %s: writable by group or others (mode %03o)", dir,
				    (unsigned)(st.st_mode & 0777));
	return 0;
}

int ka_bench_cache_mkdir(const char *dir)
{
	char tmp[1200];
	if (strlen(dir) >= sizeof tmp || !dir[0])
		return ka_error_set(KA_EINPUT, "cache folder path too long");
	snprintf(tmp, sizeof tmp, "%s", dir);
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(tmp, 0700) && errno != EEXIST)
				return ka_error_set(KA_EIO, "cannot create %s: %s", tmp, strerror(errno));
			*p = '/';
		}
	if (mkdir(tmp, 0700) && errno != EEXIST)
		return ka_error_set(KA_EIO, "cannot create %s: %s", tmp, strerror(errno));
	return safe_dir(dir);
}

static int hash_file(const char *path, char hex[65])
{
	char *text = NULL;
	size_t len = 0;
	if (ka_fs_read(path, 256 << 20, &text, &len))
		return KA_EIO;
	ka_sha256_of(text, len, hex);
	free(text);
	return 0;
}

int ka_bench_cache_valid(const char *path)
{
	char side[1400], want[80] = "", got[65];
	struct stat st;
	snprintf(side, sizeof side, "%s.sha256", path);
	if (lstat(path, &st))
		return 0;
	FILE *f = fopen(side, "r");
	int ok = S_ISREG(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH)) && f &&
		 fgets(want, sizeof want, f) && strlen(want) >= 64 && !hash_file(path, got) &&
		 !strncmp(want, got, 64);
	if (f)
		fclose(f);
	if (!ok) {
		unlink(path);
		unlink(side);
	}
	return ok;
}

int ka_bench_cache_commit(const char *tmp, const char *path)
{
	char side[1400], hex[65], line[70];
	snprintf(side, sizeof side, "%s.sha256", path);
	if (hash_file(tmp, hex))
		return KA_EIO;
	snprintf(line, sizeof line, "%s\n", hex);
	if (ka_fs_write_atomic(side, line, strlen(line)))
		return KA_EIO;
	if (rename(tmp, path))
		return ka_error_set(KA_EIO, "cannot write %s: %s", path, strerror(errno));
	return 0;
}
