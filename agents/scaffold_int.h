/* agents/scaffold_int.h: the parts of `kcheck bench init` (agents/scaffold.h)
 * that read the host side of a tutorial-style file: its host-only code and
 * headers (dropped, the lines kept), its object-like macros, and the launch
 * of the kernel (grid and block, resolved to the kernel's parameters, the
 * file's macros and literals). */
#ifndef KA_AGENTS_SCAFFOLD_INT_H
#define KA_AGENTS_SCAFFOLD_INT_H
#include "recipes/csrc.h"
#include "util/buf.h"
#include <stddef.h>

#define KA_SCAF_MAX_MACROS 64

/* The file-level object-like macros the baseline keeps (#define N 1024). */
typedef struct ka_scaf_macros {
	int n;
	char name[KA_SCAF_MAX_MACROS][KA_CSRC_NAME];
	char body[KA_SCAF_MAX_MACROS][160];
} ka_scaf_macros;

/* The file with its host-only parts dropped: out gets the text, each line
 * where it was (a dropped part becomes one comment and its newlines);
 * notes gets one line per dropped part ("line 12: main() (host code)").
 * Dropped: function definitions at file level that are neither __global__
 * nor __device__ nor constexpr (main, timers, checks, CPU references),
 * #include of a header off the bench's allowlist, and #define whose body
 * the bench's static gate rejects (an error-check macro calling exit()).
 * The kept macros go to mac.  KA_OK or KA_ENOMEM. */
int ka_scaf_strip(const char *t, size_t len, ka_buf *out, ka_buf *notes, ka_scaf_macros *mac);

/* An integer constant expression of literals and mac's macros: + - * / %
 * << >> and parentheses (casts to integer types are skipped).  1 and *v, or
 * 0 when it is not one. */
int ka_scaf_eval(const char *expr, const ka_scaf_macros *mac, long long *v);

/* The launch of kernel k in the file, resolved: each grid and block
 * component as an expression of k's integer parameters, mac's macros and
 * literals ("" = 1), the dynamic shared memory ("" = 0).  Locals of the
 * launching function (int blocks = ...; dim3 grid(...); block.x) are
 * followed.  ok_grid/ok_block say which part resolved. */
typedef struct ka_scaf_launch {
	int found, ok_grid, ok_block;
	char grid[3][256], block[3][256], shmem[256];
} ka_scaf_launch;
void ka_scaf_launch_of(const ka_csrc *m, const ka_csrc_kernel *k, const ka_scaf_macros *mac,
		       ka_scaf_launch *out);

#endif
