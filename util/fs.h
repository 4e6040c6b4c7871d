/* util/fs.h: file helpers.  Reading is capped; writing is atomic (temporary
 * file in the same folder, fsync, rename) so a file is never half-written. */
#ifndef KA_UTIL_FS_H
#define KA_UTIL_FS_H
#include <stddef.h>

/* Read a whole file into *out (NUL-terminated, caller frees).  Errors: KA_EIO
 * with "cannot read PATH: reason", KA_ETOOBIG past limit (0 = 64 MiB). */
int ka_fs_read(const char *path, size_t limit, char **out, size_t *len);
/* Write atomically, keeping the mode of an existing file. */
int ka_fs_write_atomic(const char *path, const void *data, size_t len);
/* 1 when the bytes look binary (NUL in the first 8 KiB or invalid UTF-8 runs). */
int ka_fs_is_binary(const char *data, size_t len);
int ka_fs_is_dir(const char *path);
int ka_fs_exists(const char *path);

#endif
