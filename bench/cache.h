/* bench/cache.h: the bench's object cache, trusted only as far as it can be.
 * It lives under $XDG_CACHE_HOME/kernelarc/bench (default ~/.cache/...),
 * never in a shared folder: a folder that is a symlink, not owned by the
 * user, or writable by group or others is refused.  Every entry is stored
 * with the SHA-256 of its content beside it and checked before reuse; an
 * entry that does not match is removed and rebuilt. */
#ifndef KA_BENCH_CACHE_H
#define KA_BENCH_CACHE_H
#include <stddef.h>

/* The default cache folder; KA_EINPUT when neither XDG_CACHE_HOME nor HOME is
 * an absolute path. */
int ka_bench_cache_default(char *dst, size_t cap);
/* Creates dir (and missing parents, mode 0700) and checks that it is safe:
 * 0, or KA_EINPUT/KA_EIO with a one-line message. */
int ka_bench_cache_mkdir(const char *dir);
/* 1 when `path` is a regular file owned by the user, not writable by others,
 * whose content matches its recorded hash; otherwise removes it and returns 0. */
int ka_bench_cache_valid(const char *path);
/* Records the hash of tmp's content for `path` and renames tmp to path. */
int ka_bench_cache_commit(const char *tmp, const char *path);

#endif
