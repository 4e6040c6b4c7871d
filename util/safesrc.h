/* util/safesrc.h: a source file as nvcc may be given it.  nvcc hands its
 * input's name to /bin/sh (util/shsafe.h), so a file named `k$(cmd).cu`,
 * or one in a folder named so, must never be its argument.  The compile
 * gate, --ptxas and the bench compile a copy instead:
 *
 *   $TMPDIR/kcheck-XXXXXX/          private (mkdtemp, mode 0700)
 *     i -> /real/folder/of/the/file  a link, for `-iquote`
 *     d/d/.../d/NAME.cu             the copy, NAME made of [A-Za-z0-9._-]
 *
 * `#include "x.h"` first looks beside the copy (nothing there), then in the
 * -iquote folder TOP/i, which is the original's folder, so it finds what it
 * found before; `..` in an include is resolved by the kernel through the
 * link, from the real folder.  The copy sits one level deeper than the
 * original's folder is deep, so an include that climbs with `..` stays in
 * the private folder (where nothing is) for as many levels as the original
 * folder has. */
#ifndef KA_UTIL_SAFESRC_H
#define KA_UTIL_SAFESRC_H
#include <stddef.h>

struct ka_buf;

typedef struct ka_safesrc {
	char *top;   /* the private folder */
	char *file;  /* the copy: the path to compile */
	char *quote; /* TOP/i, the original's folder: give it as -iquote */
	char *leaf;  /* the deepest folder, TOP/d/.../d */
	int levels;  /* the folders from top to leaf, top excluded */
	int file_slot, link_slot, dir_slot;
} ka_safesrc;

/* Make the copy of orig holding text[0..len) (text NULL: orig's own bytes,
 * read as a regular file of at most 64 MiB).  Registered with
 * util/cleanup.h, so a signal removes it.  KA_OK, or an error (message
 * set) and *s cleared. */
int ka_safesrc_make(const char *orig, const char *text, size_t len, ka_safesrc *s);
/* Append text[0..n) to out with the copy's path written as orig and its
 * base name as orig's: a compiler's message names the user's file. */
int ka_safesrc_names(struct ka_buf *out, const ka_safesrc *s, const char *orig, const char *text, size_t n);
/* Remove the copy, the link and the folders; frees s's strings. */
void ka_safesrc_remove(ka_safesrc *s);

#endif
