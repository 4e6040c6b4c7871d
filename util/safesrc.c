/* util/safesrc.c: the private copy of util/safesrc.h. */
#define _GNU_SOURCE /* mkdtemp, realpath */
#include "util/safesrc.h"
#include "util/buf.h"
#include "util/cleanup.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/shsafe.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LEVELS 64
#define STEM_MAX 64

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '-' || c == '.';
}

/* The copy's name: orig's base name with every other byte as '_', a
 * leading '.' or '-' as '_', the stem cut at STEM_MAX bytes; the extension
 * kept when it is 1 to 8 letters and digits. */
static void copy_name(const char *orig, char *dst, size_t cap)
{
	const char *base = strrchr(orig, '/') ? strrchr(orig, '/') + 1 : orig;
	const char *dot = strrchr(base, '.');
	size_t stem = dot && dot > base ? (size_t)(dot - base) : strlen(base), el = dot ? strlen(dot + 1) : 0;
	int ext_ok = dot && dot > base && el >= 1 && el <= 8;
	for (size_t i = 0; ext_ok && i < el; i++)
		ext_ok = is_name_char(dot[1 + i]) && dot[1 + i] != '.' && dot[1 + i] != '-' &&
			 dot[1 + i] != '_';
	if (!ext_ok)
		stem = strlen(base);
	size_t n = 0;
	for (size_t i = 0; i < stem && n < STEM_MAX && n + 1 < cap; i++)
		dst[n++] = is_name_char(base[i]) ? base[i] : '_';
	if (n == 0)
		n = (size_t)snprintf(dst, cap, "src");
	if (dst[0] == '.' || dst[0] == '-')
		dst[0] = '_';
	dst[n] = '\0';
	if (ext_ok)
		snprintf(dst + n, cap - n, ".%s", dot + 1);
}

/* Where the private folder goes: $TMPDIR when it is an absolute folder
 * nvcc may be given, else /tmp. */
static const char *temp_base(void)
{
	const char *t = getenv("TMPDIR");
	if (t && t[0] == '/' && strlen(t) < 1024 && ka_sh_safe(t, NULL, 0) && ka_fs_is_dir(t))
		return t;
	return "/tmp";
}

/* The number of folders in the absolute path p ("/" 0, "/a/b" 2). */
static int depth_of(const char *p)
{
	int d = 0;
	for (const char *q = p; *q; q++)
		if (*q != '/' && (q == p || q[-1] == '/'))
			d++;
	return d;
}

static int write_all(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, text + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		done += (size_t)w;
	}
	return close(fd);
}

int ka_safesrc_names(ka_buf *out, const ka_safesrc *s, const char *orig, const char *text, size_t n)
{
	const char *tmp = s->file ? s->file : "";
	const char *tbase = strrchr(tmp, '/') ? strrchr(tmp, '/') + 1 : tmp;
	const char *obase = strrchr(orig, '/') ? strrchr(orig, '/') + 1 : orig;
	size_t fl = strlen(tmp), tl = strlen(tbase);
	int rc = KA_OK;
	for (size_t i = 0; i < n && rc == KA_OK; i++) {
		if (fl && i + fl <= n && memcmp(text + i, tmp, fl) == 0) {
			rc = ka_buf_adds(out, orig);
			i += fl - 1;
		} else if (tl && i + tl <= n && memcmp(text + i, tbase, tl) == 0) {
			rc = ka_buf_adds(out, obase);
			i += tl - 1;
		} else {
			rc = ka_buf_addc(out, text[i]);
		}
	}
	return rc;
}

void ka_safesrc_remove(ka_safesrc *s)
{
	if (s->file)
		unlink(s->file);
	if (s->quote)
		unlink(s->quote);
	if (s->leaf) {
		char *p = s->leaf;
		for (int k = 0; k <= s->levels; k++) { /* leaf, its parents, top */
			rmdir(p);
			char *slash = strrchr(p, '/');
			if (!slash || slash == p)
				break;
			*slash = '\0';
		}
	} else if (s->top) {
		rmdir(s->top);
	}
	ka_cleanup_remove_file(s->file_slot);
	ka_cleanup_remove_file(s->link_slot);
	ka_cleanup_remove_dir(s->dir_slot);
	free(s->top);
	free(s->file);
	free(s->quote);
	free(s->leaf);
	memset(s, 0, sizeof *s);
	s->file_slot = s->link_slot = s->dir_slot = -1;
}

/* A path made of a printf format, or NULL. */
static char *pathf(const char *fmt, const char *a, const char *b)
{
	ka_buf p;
	ka_buf_init(&p, PATH_MAX);
	if (ka_buf_printf(&p, fmt, a, b) != KA_OK || !p.data) {
		ka_buf_free(&p);
		return NULL;
	}
	return ka_buf_steal(&p);
}

/* Everything of ka_safesrc_make but the signal mask. */
static int make(const char *orig, const char *text, size_t len, ka_safesrc *s)
{
	char name[STEM_MAX + 16], *dir = strdup(orig), *real = NULL;
	if (!dir)
		return ka_error_set(KA_ENOMEM, "out of memory");
	char *slash = strrchr(dir, '/');
	if (slash)
		slash == dir ? (void)(slash[1] = '\0') : (void)(*slash = '\0');
	real = realpath(slash ? dir : ".", NULL);
	free(dir);
	if (!real)
		return ka_error_set(KA_EIO, "cannot resolve the folder of %s: %s", orig, strerror(errno));
	int levels = depth_of(real) + 1;
	s->levels = levels < MAX_LEVELS ? levels : MAX_LEVELS;
	s->top = pathf("%s/%s", temp_base(), "kcheck-XXXXXX");
	if (!s->top || !mkdtemp(s->top)) {
		int rc = ka_error_set(KA_EIO, "cannot create a private folder in %s: %s", temp_base(),
				      s->top ? strerror(errno) : "out of memory");
		free(s->top);
		s->top = NULL;
		free(real);
		return rc;
	}
	s->quote = pathf("%s/%s", s->top, "i");
	int rc = s->quote && symlink(real, s->quote) == 0 ? KA_OK : KA_EIO;
	if (rc != KA_OK) {
		free(s->quote);
		s->quote = NULL;
	} else {
		s->link_slot = ka_cleanup_add_file(s->quote);
	}
	free(real);
	ka_buf leaf;
	ka_buf_init(&leaf, PATH_MAX);
	(void)ka_buf_adds(&leaf, s->top);
	for (int k = 0; rc == KA_OK && k < s->levels; k++) {
		if (ka_buf_adds(&leaf, "/d") == KA_OK && leaf.data && mkdir(leaf.data, 0700) == 0)
			continue;
		rc = KA_EIO;
		s->levels = k; /* the folders made so far: the leaf is the last of them */
		if (leaf.data && leaf.len >= 2 && !strcmp(leaf.data + leaf.len - 2, "/d"))
			leaf.data[leaf.len -= 2] = '\0';
	}
	s->leaf = ka_buf_steal(&leaf);
	if (s->leaf && rc == KA_OK)
		s->dir_slot = ka_cleanup_add_dirs(s->leaf, s->levels);
	copy_name(orig, name, sizeof name);
	if (rc == KA_OK && (!s->leaf || !(s->file = pathf("%s/%s", s->leaf, name))))
		rc = KA_ENOMEM;
	if (rc == KA_OK && write_all(s->file, text, len) != 0) {
		free(s->file);
		s->file = NULL;
		rc = KA_EIO;
	}
	if (rc == KA_OK)
		s->file_slot = ka_cleanup_add_file(s->file);
	else
		rc = ka_error_set(rc, "cannot make the private copy of %s in %s: %s", orig, s->top,
				  rc == KA_ENOMEM ? "out of memory" : strerror(errno));
	return rc;
}

int ka_safesrc_make(const char *orig, const char *text, size_t len, ka_safesrc *s)
{
	char *own = NULL;
	sigset_t block, old;
	memset(s, 0, sizeof *s);
	s->file_slot = s->link_slot = s->dir_slot = -1;
	if (!text) {
		int rc = ka_fs_read(orig, 64u << 20, &own, &len);
		if (rc != KA_OK)
			return rc;
		text = own;
	}
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old); /* made and registered, or neither */
	int rc = make(orig, text, len, s);
	if (rc != KA_OK) {
		char why[1024];
		snprintf(why, sizeof why, "%s", ka_error_last());
		ka_safesrc_remove(s);
		ka_error_set(rc, "%s", why);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	free(own);
	return rc;
}
