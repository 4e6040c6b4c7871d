/* util/fs.h: file helpers.  Reading is capped and takes regular files only;
 * writing is atomic (temporary file in the same folder, fsync, rename) so a
 * file is never half-written. */
#ifndef KA_UTIL_FS_H
#define KA_UTIL_FS_H
#include <stddef.h>
#include <sys/types.h>

/* Read a whole regular file into *out (NUL-terminated, caller frees).  A
 * FIFO, device or folder is refused without waiting ("cannot read PATH: not
 * a regular file").  Errors: KA_EIO with "cannot read PATH: reason",
 * KA_ETOOBIG past limit (0 = 64 MiB). */
int ka_fs_read(const char *path, size_t limit, char **out, size_t *len);
/* One file whose text is held in memory (kcheck - --stdin-filename NAME):
 * from now on ka_fs_read, ka_fs_exists and ka_fs_is_regular of PATH (as
 * given, or as the absolute path of it) answer with data, whether or not
 * PATH exists; its folder must.  The text is copied.  KA_OK, or KA_EINPUT
 * / KA_ENOMEM with a message. */
int ka_fs_overlay_set(const char *path, const char *data, size_t len);
/* The held text of path (and its length), or NULL when path is not it. */
const char *ka_fs_overlay_get(const char *path, size_t *len);
/* The held file's absolute path, or NULL. */
const char *ka_fs_overlay_abs(void);
/* Write a file.  Symbolic links are followed (the link stays, its target
 * gets the bytes).  A regular file is replaced atomically (temporary
 * `PATH.kaXXXXXX` beside it, fsync, rename) keeping its mode; a character
 * device or a FIFO is written in place (a FIFO nobody reads is an error,
 * not a wait); anything else is refused.  KA_OK or KA_EIO with a message. */
int ka_fs_write_atomic(const char *path, const void *data, size_t len);
/* The same, for a file that must still hold `expect` when it is replaced:
 * checked just before the rename, under an flock() that other kcheck runs
 * also take.  KA_FS_CHANGED (positive, no message) when it changed. */
#define KA_FS_CHANGED 1
int ka_fs_write_atomic_if(const char *path, const void *data, size_t len, const void *expect,
			  size_t expect_len);
/* 1 for a regular file (after links), 0 otherwise. */
int ka_fs_is_regular(const char *path);

/* A set of visited folders by (device, inode): a walk that adds each folder
 * before entering it visits it once, whatever the symbolic links. */
typedef struct ka_fs_seen {
	dev_t *dev;
	ino_t *ino;
	unsigned char *used;
	size_t n, cap;
} ka_fs_seen;
/* 1 when path (after links) is new and now added, 0 when seen before,
 * < 0 (KA_EIO, KA_ENOMEM) on error.  Zero-initialize; free with _free. */
int ka_fs_seen_add(ka_fs_seen *s, const char *path);
void ka_fs_seen_free(ka_fs_seen *s);
/* 1 when the bytes look binary: a NUL in the first 8 KiB. */
int ka_fs_is_binary(const char *data, size_t len);
int ka_fs_is_dir(const char *path);
int ka_fs_exists(const char *path);
/* An output that names one of the inputs (after links, by device and
 * inode) would replace it: KA_EINPUT with "OPT OUT is an input file (it
 * would be overwritten)", as gcc refuses; else KA_OK (also when out does
 * not exist yet).  inputs may hold NULLs, which are skipped. */
/* How many entries a folder holds (not . and ..); -1 when it cannot be
 * opened (absent, not a folder). */
int ka_fs_dir_entries(const char *dir);
int ka_fs_output_is_input(const char *opt, const char *out, const char *const *inputs, int n);
/* $XDG_CACHE_HOME/kernelarc/SUB (or ~/.cache/kernelarc/SUB), created, in
 * out; "" when there is no home or it cannot be made. */
void ka_fs_cache_dir(const char *sub, char *out, size_t n);
/* A cache folder's entries are used least-recently-first evicted: mark one
 * used (its time of change set to now; a reader's hit calls this), and
 * keep at most `keep` of the files in dir whose names end in `suffix`,
 * removing the ones used longest ago (ties by name).  Files whose names
 * do not end in suffix are left alone, and so are folders, and so is any
 * file used within the last min_age seconds (another process may be about
 * to open it).  Returns how many were removed, or -1 when dir cannot be
 * read. */
void ka_fs_cache_touch(const char *path);
int ka_fs_cache_prune(const char *dir, const char *suffix, int keep, long min_age);
/* FNV-1a over n bytes, continuing from h (start with KA_FNV_START): the
 * caches' keys. */
#define KA_FNV_START 14695981039346656037ull
unsigned long long ka_fs_fnv1a(unsigned long long h, const void *p, size_t n);

#endif
