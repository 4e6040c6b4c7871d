/* util/fs.c: capped reads of regular files and the set of visited folders
 * (see fs.h).  Writing is util/fs_write.c. */
#include "util/fs.h"
#include "util/error.h"
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The one file whose text comes from elsewhere (kcheck - --stdin-filename
 * NAME): NAME as given and as an absolute path. */
static struct {
	char *path, *abs, *data;
	size_t len;
} overlay;

int ka_fs_overlay_set(const char *path, const char *data, size_t len)
{
	char dir[4096], *real;
	const char *slash = strrchr(path, '/');
	free(overlay.path), free(overlay.abs), free(overlay.data);
	memset(&overlay, 0, sizeof overlay);
	if (!path[0] || (slash && !slash[1]))
		return ka_error_set(KA_EINPUT, "%s: not a file name", path);
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	if (!(real = realpath(dir, NULL))) { /* a folder not (yet) there: relative to the working folder */
		char cwd[4096], joined[8200];
		if (path[0] == '/')
			snprintf(joined, sizeof joined, "%s", dir);
		else if (!getcwd(cwd, sizeof cwd))
			return ka_error_set(KA_EIO, "%s: cannot read the working folder", path);
		else
			snprintf(joined, sizeof joined, "%s%s%s", cwd, slash ? "/" : "", slash ? dir : "");
		if (!(real = strdup(joined)))
			return ka_error_set(KA_ENOMEM, "out of memory");
	}
	overlay.path = strdup(path);
	overlay.data = malloc(len + 1);
	size_t n = strlen(real) + strlen(slash ? slash + 1 : path) + 2;
	overlay.abs = malloc(n);
	if (!overlay.path || !overlay.data || !overlay.abs) {
		free(real);
		free(overlay.path), free(overlay.abs), free(overlay.data);
		memset(&overlay, 0, sizeof overlay);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	snprintf(overlay.abs, n, "%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path);
	free(real);
	memcpy(overlay.data, data, len);
	overlay.data[len] = 0;
	overlay.len = len;
	return KA_OK;
}

const char *ka_fs_overlay_get(const char *path, size_t *len)
{
	if (!overlay.path || !path || (strcmp(path, overlay.path) && strcmp(path, overlay.abs)))
		return NULL;
	if (len)
		*len = overlay.len;
	return overlay.data;
}

const char *ka_fs_overlay_abs(void)
{
	return overlay.abs;
}

int ka_fs_read(const char *path, size_t limit, char **out, size_t *len)
{
	assert(path && out);
	int rc = KA_EIO;
	char *data = NULL;
	*out = NULL;
	if (len)
		*len = 0;
	if (!limit)
		limit = (size_t)64 << 20;
	size_t olen;
	const char *o = ka_fs_overlay_get(path, &olen);
	if (o) {
		if (olen > limit)
			return ka_error_set(KA_ETOOBIG, "%s is larger than %zu bytes", path, limit);
		if (!(*out = malloc(olen + 1)))
			return ka_error_set(KA_ENOMEM, "out of memory");
		memcpy(*out, o, olen + 1);
		if (len)
			*len = olen;
		return KA_OK;
	}
	if (limit > SIZE_MAX / 4)
		limit = SIZE_MAX / 4; /* cap * 2 and limit + 2 below never wrap */
	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
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
	if (!S_ISREG(st.st_mode)) {
		ka_error_set(KA_EIO, "cannot read %s: not a regular file", path);
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
		if (n + 1 >= cap) { /* full: room to see one byte past the limit */
			size_t ncap = cap * 2 < limit + 2 ? cap * 2 : limit + 2;
			char *p = realloc(data, ncap);
			if (!p) {
				rc = ka_error_set(KA_ENOMEM, "out of memory reading %s", path);
				goto out;
			}
			data = p;
			cap = ncap;
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
		if (n > limit) { /* a file that grew after fstat(), or /proc */
			rc = ka_error_set(KA_ETOOBIG, "cannot read %s: larger than %zu bytes", path, limit);
			goto out;
		}
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
	return ka_fs_overlay_get(path, NULL) || stat(path, &st) == 0;
}

int ka_fs_is_regular(const char *path)
{
	struct stat st;
	return ka_fs_overlay_get(path, NULL) || (stat(path, &st) == 0 && S_ISREG(st.st_mode));
}

/* The visited-folder set: open addressing on (dev, ino), grown at half full. */
static size_t slot_of(const ka_fs_seen *s, dev_t dev, ino_t ino)
{
	size_t h = ((size_t)dev * 0x9E3779B97F4A7C15ull) ^ ((size_t)ino * 0xC2B2AE3D27D4EB4Full);
	assert(s->cap && (s->cap & (s->cap - 1)) == 0); /* a power of two, never full */
	size_t i = h & (s->cap - 1);
	while (s->used[i] && !(s->dev[i] == dev && s->ino[i] == ino))
		i = (i + 1) & (s->cap - 1);
	return i;
}

static int seen_grow(ka_fs_seen *s)
{
	ka_fs_seen n = {0};
	n.cap = s->cap ? s->cap * 2 : 64;
	n.dev = calloc(n.cap, sizeof *n.dev);
	n.ino = calloc(n.cap, sizeof *n.ino);
	n.used = calloc(n.cap, 1);
	if (!n.dev || !n.ino || !n.used) {
		ka_fs_seen_free(&n);
		return ka_error_set(KA_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < s->cap; i++)
		if (s->used[i]) {
			size_t k = slot_of(&n, s->dev[i], s->ino[i]);
			n.dev[k] = s->dev[i], n.ino[k] = s->ino[i], n.used[k] = 1;
		}
	n.n = s->n;
	ka_fs_seen_free(s);
	*s = n;
	return KA_OK;
}

int ka_fs_seen_add(ka_fs_seen *s, const char *path)
{
	assert(s && path);
	struct stat st;
	if (stat(path, &st) != 0)
		return ka_error_set(KA_EIO, "cannot read %s: %s", path, strerror(errno));
	if ((s->n + 1) * 2 > s->cap && seen_grow(s) < 0)
		return KA_ENOMEM;
	size_t i = slot_of(s, st.st_dev, st.st_ino);
	if (s->used[i])
		return 0;
	s->dev[i] = st.st_dev, s->ino[i] = st.st_ino, s->used[i] = 1;
	s->n++;
	return 1;
}

void ka_fs_seen_free(ka_fs_seen *s)
{
	free(s->dev);
	free(s->ino);
	free(s->used);
	memset(s, 0, sizeof *s);
}

int ka_fs_output_is_input(const char *opt, const char *out, const char *const *inputs, int n)
{
	struct stat o, in;
	if (!out || stat(out, &o) != 0)
		return KA_OK;
	for (int i = 0; i < n; i++)
		if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == o.st_dev && in.st_ino == o.st_ino)
			return ka_error_set(KA_EINPUT, "%s %s is an input file (it would be overwritten)",
					    opt, out);
	return KA_OK;
}

int ka_fs_dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

void ka_fs_cache_dir(const char *sub, char *out, size_t n)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
	char base[4096];
	out[0] = '\0';
	if (x && *x == '/')
		snprintf(base, sizeof base, "%s", x);
	else if (h && *h == '/')
		snprintf(base, sizeof base, "%s/.cache", h);
	else
		return;
	char d1[4200], d2[4400];
	snprintf(d1, sizeof d1, "%s/kernelarc", base);
	snprintf(d2, sizeof d2, "%s/%s", d1, sub);
	mkdir(base, 0755);
	mkdir(d1, 0755);
	if (mkdir(d2, 0755) != 0 && errno != EEXIST)
		return;
	snprintf(out, n, "%s", d2);
}

void ka_fs_cache_touch(const char *path)
{
	utimensat(AT_FDCWD, path, NULL, 0);
}

struct cache_ent {
	char *name;
	struct timespec t;
};

static int older_first(const void *a, const void *b)
{
	const struct cache_ent *x = a, *y = b;
	if (x->t.tv_sec != y->t.tv_sec)
		return x->t.tv_sec < y->t.tv_sec ? -1 : 1;
	if (x->t.tv_nsec != y->t.tv_nsec)
		return x->t.tv_nsec < y->t.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

int ka_fs_cache_prune(const char *dir, const char *suffix, int keep, long min_age)
{
	const time_t now = time(NULL);
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	size_t sl = strlen(suffix), n = 0, cap = 0;
	struct cache_ent *v = NULL;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		struct stat st;
		if (l <= sl || strcmp(e->d_name + l - sl, suffix) != 0 ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			struct cache_ent *w = realloc(v, (cap ? 2 * cap : 64) * sizeof *v);
			if (!w)
				break; /* out of memory: prune what was listed */
			v = w;
			cap = cap ? 2 * cap : 64;
		}
		if (!(v[n].name = strdup(e->d_name)))
			break;
		v[n++].t = st.st_mtim;
	}
	int removed = 0;
	if (keep < 0)
		keep = 0;
	if (n > (size_t)keep) {
		qsort(v, n, sizeof *v, older_first);
		for (size_t i = 0; i + (size_t)keep < n; i++)
			if (now - v[i].t.tv_sec >= min_age) /* oldest first: the rest are newer */
				removed += unlinkat(dirfd(d), v[i].name, 0) == 0;
	}
	closedir(d);
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return removed;
}

unsigned long long ka_fs_fnv1a(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		h ^= c[i];
		h *= 1099511628211ull;
	}
	return h;
}
