/* recipes/recipe_blockscan.c: the shuffle-block-scan recipe (rule
 * sync-block-scan-barriers).  A block scan done Hillis-Steele style in shared memory,
 *     __shared__ unsigned sh[256];
 *     ...
 *     __syncthreads();
 *     for (int d = 1; d < 256; d <<= 1) {
 *         unsigned v = threadIdx.x >= d ? sh[threadIdx.x - d] : 0u;
 *         __syncthreads();
 *         sh[threadIdx.x] += v;
 *         __syncthreads();
 *     }
 * costs log2(N) rounds of two barriers, a shared load and a shared store.
 * The recipe replaces the loop with
 *     sh[threadIdx.x] += ka_block_exclusive_scan(sh[threadIdx.x]);
 *     __syncthreads();
 * a warp-shuffle scan of the threads' own elements (recipes/recipe_scan.c's
 * helper): the same inclusive scan, left in sh for what follows.
 *
 * What it proves first, else it declines: the loop is a top-level
 * statement of that form (`d *= 2`, `d = d * 2`, `d < blockDim.x`,
 * `sh[threadIdx.x] = sh[threadIdx.x] + v` too) right after a
 * __syncthreads(), with no return before it, so every thread reaches the
 * helper's barriers; sh is a top-level `__shared__ T sh[N];` with N a
 * literal, a multiple of 32 up to 1024; T, the temporary's type too, is an
 * integer type (a float scan would add in another order); every launch of
 * the kernel has N threads per block, so each element has its thread. */
#include "recipes/recipe_scan_int.h"
#include "util/error.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPOS ((size_t)-1)
#define MAX_SHARED 8

typedef struct bscan_shared {
	char ty[64], norm[32], name[64];
	long n; /* the literal size */
} bscan_shared;

static int is_ident(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* `__shared__ T NAME[N];` (squeezed) into sd. */
static int shared_decl(const char *sq, bscan_shared *sd)
{
	if (strncmp(sq, "__shared__ ", 11))
		return 0;
	const char *p = sq + 11, *br = strchr(p, '['), *ns = br;
	while (ns && ns > p && is_ident(ns[-1]))
		ns--;
	if (!br || ns == br || ns == p || ns[-1] != ' ' || (size_t)(ns - 1 - p) >= sizeof sd->ty ||
	    (size_t)(br - ns) >= sizeof sd->name)
		return 0;
	char *end;
	long n = strtol(br + 1, &end, 10);
	if (end == br + 1 || strcmp(end, "];"))
		return 0;
	snprintf(sd->ty, sizeof sd->ty, "%.*s", (int)(ns - 1 - p), p);
	if (ka_recipe_scan_type(sd->ty, sd->norm, sizeof sd->norm) != 1)
		sd->norm[0] = 0;
	snprintf(sd->name, sizeof sd->name, "%.*s", (int)(br - ns), ns);
	sd->n = n;
	return 1;
}

/* The loop header `I d = 1; d < N; d <<= 1` (N the literal or blockDim.x):
 * the index into d; 0 when it is not one. */
static int scan_header(const char *hd, long n, char *d, size_t cap)
{
	char buf[256], ty[64], norm[32], init[64], want[200];
	snprintf(buf, sizeof buf, "%s", hd);
	char *s1 = strchr(buf, ';'), *s2 = s1 ? strchr(s1 + 1, ';') : NULL;
	if (!s2 || strchr(s2 + 1, ';'))
		return 0;
	*s1 = *s2 = 0;
	if (!ka_recipe_scan_decl(buf, ty, sizeof ty, d, cap, init, sizeof init) || strcmp(init, "1") ||
	    ka_recipe_scan_type(ty, norm, sizeof norm) != 1)
		return 0;
	int ok = 0;
	snprintf(want, sizeof want, "%s<%ld", d, n);
	ok |= !strcmp(s1 + 1, want);
	snprintf(want, sizeof want, "%s<blockDim.x", d);
	ok |= !strcmp(s1 + 1, want);
	if (!ok)
		return 0;
	static const char *const steps[] = {"%s<<=1", "%s*=2", "%s+=%s", "%s=%s*2", "%s=2*%s", "%s=%s<<1"};
	for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		snprintf(want, sizeof want, steps[i], d, d);
		if (!strcmp(s2 + 1, want))
			return 1;
	}
	return 0;
}

/* The loop body's four statements over sh with index d. */
static int scan_body(ka_recipe_ctx *c, const bscan_shared *sd, const char *d, size_t bo, size_t bc)
{
	const char *t = c->m->text;
	size_t len = c->m->len;
	char sq[4][256], ty[64], norm[32], v[64], rhs[256], want[3][256];
	int n = 0;
	for (size_t i = ka_csrc_skip_blank(t, len, bo + 1); i < bc; i = ka_csrc_skip_blank(t, len, i), n++) {
		size_t e = ka_csrc_stmt_end(t, len, i);
		if (n == 4 || e == NPOS || e > bc || !ka_recipe_scan_stmt(t, i, e, sq[n], sizeof sq[n]))
			return ka_recipe_decline(c, "the scan loop's body is not four statements");
		i = e;
	}
	if (n != 4 || strcmp(sq[1], "__syncthreads()") || strcmp(sq[3], "__syncthreads()"))
		return ka_recipe_decline(c, "the scan loop is not read, barrier, add, barrier");
	if (!ka_recipe_scan_decl(sq[0], ty, sizeof ty, v, sizeof v, rhs, sizeof rhs))
		return ka_recipe_decline(c, "the scan loop does not open with `T v = ...`");
	snprintf(want[0], sizeof want[0], "threadIdx.x>=%s?%s[threadIdx.x-%s]:", d, sd->name, d);
	size_t wl = strlen(want[0]);
	if (strncmp(rhs, want[0], wl) || !ka_recipe_scan_is_zero(rhs + wl))
		return ka_recipe_decline(c, "'%s' is not `threadIdx.x >= %s ? %s[threadIdx.x - %s] : 0`", rhs,
					 d, sd->name, d);
	if (!strcmp(v, d) || !strcmp(v, sd->name))
		return ka_recipe_decline(c, "the temporary %s shadows the index or the array", v);
	if (ka_recipe_scan_type(ty, norm, sizeof norm) != 1 || strcmp(norm, sd->norm))
		return ka_recipe_decline(c, "the temporary is '%s', %s holds '%s'", ty, sd->name, sd->ty);
	snprintf(want[0], sizeof want[0], "%s[threadIdx.x]+=%s", sd->name, v);
	snprintf(want[1], sizeof want[1], "%s[threadIdx.x]=%s[threadIdx.x]+%s", sd->name, sd->name, v);
	snprintf(want[2], sizeof want[2], "%s[threadIdx.x]=%s+%s[threadIdx.x]", sd->name, v, sd->name);
	if (strcmp(sq[2], want[0]) && strcmp(sq[2], want[1]) && strcmp(sq[2], want[2]))
		return ka_recipe_decline(c, "'%s' is not `%s[threadIdx.x] += %s`", sq[2], sd->name, v);
	return KA_OK;
}

/* Every launch of the kernel has n threads per block. */
static int prove_block(ka_recipe_ctx *c, long n)
{
	char want[32], b[64];
	int found = 0;
	snprintf(want, sizeof want, "%ld", n);
	for (int i = 0; i < c->m->nlaunches; i++) {
		const ka_csrc_launch *l = &c->m->l[i];
		if (strcmp(l->kernel, c->k->name))
			continue;
		if (!ka_csrc_squeeze(c->m->text, l->cfg[1].s, l->cfg[1].e, b, sizeof b) || strcmp(b, want))
			return ka_recipe_decline(c, "a launch of %s does not have %ld threads per block",
						 c->k->name, n);
		found = 1;
	}
	return found ? KA_OK : ka_recipe_decline(c, "no launch of %s in this file", c->k->name);
}

/* The top-level `for` at [s, e) after the statement `prev`: KA_OK with
 * *which the shared array it scans (NULL: another loop), or
 * KA_RECIPE_DECLINED when it is a scan loop the recipe cannot take. */
static int scan_loop(ka_recipe_ctx *c, const bscan_shared *sds, int nsd, const char *prev, size_t s, size_t e,
		     const bscan_shared **which)
{
	const char *t = c->m->text;
	size_t len = c->m->len, po = ka_csrc_skip_blank(t, len, s + 3), pc;
	char hd[256], d[64];
	if (t[po] != '(' || (pc = ka_csrc_match(t, len, po)) == NPOS ||
	    !ka_csrc_squeeze(t, po + 1, pc, hd, sizeof hd))
		return KA_OK;
	size_t bo = ka_csrc_skip_blank(t, len, pc + 1);
	if (t[bo] != '{' || ka_csrc_match(t, len, bo) + 1 != e)
		return KA_OK;
	const bscan_shared *sd = NULL;
	for (int i = 0; i < nsd && !sd; i++)
		if (scan_header(hd, sds[i].n, d, sizeof d) && ka_csrc_has_word(t, bo, e, sds[i].name))
			sd = &sds[i];
	if (!sd)
		return KA_OK;
	if (!sd->norm[0])
		return ka_recipe_decline(
			c, "%s holds '%s', not integers (a float scan in another order rounds differently)",
			sd->name, sd->ty);
	int rc = scan_body(c, sd, d, bo, e - 1);
	if (rc)
		return rc;
	if (strcmp(prev, "__syncthreads();"))
		return ka_recipe_decline(c, "no __syncthreads() right before the scan loop");
	if (ka_csrc_has_word(t, c->k->body_open, s, "return"))
		return ka_recipe_decline(c, "a return before the scan loop");
	if (sd->n < 32 || sd->n > 1024 || sd->n % 32)
		return ka_recipe_decline(c, "%s has %ld elements, not a multiple of 32 up to 1024", sd->name,
					 sd->n);
	*which = sd;
	return KA_OK;
}

/* The loop [s, e) becomes the helper's scan of the threads' elements. */
static int replace_loop(ka_recipe_ctx *c, ka_recipe_edits *ed, const bscan_shared *sd, size_t s, size_t e)
{
	const char *t = c->m->text;
	size_t ls = s;
	while (ls > 0 && (t[ls - 1] == ' ' || t[ls - 1] == '\t'))
		ls--;
	int ind = (int)(s - ls);
	ka_buf b;
	ka_buf_init(&b, 4096);
	ka_buf_printf(&b,
		      "/* shuffle-block-scan: the inclusive scan of %s[0, %ld) by warp shuffles */\n"
		      "%.*s%s[threadIdx.x] += ka_block_exclusive_scan(%s[threadIdx.x]);\n"
		      "%.*s__syncthreads();",
		      sd->name, sd->n, ind, t + ls, sd->name, sd->name, ind, t + ls);
	int rc = b.data ? ka_recipe_edit(ed, s, e, b.data) : ka_error_set(KA_ENOMEM, "out of memory");
	ka_buf_free(&b);
	return rc;
}

/* Each top-level scan loop of the kernel; the helpers once. */
static int bscan_edits(ka_recipe_ctx *c, ka_recipe_edits *ed)
{
	const char *t = c->m->text;
	size_t len = c->m->len, close = c->k->body_close;
	bscan_shared sds[MAX_SHARED];
	int nsd = 0, nloops = 0, rc = KA_OK;
	char prev[256] = "", sq[256];
	for (size_t i = ka_csrc_skip_blank(t, len, c->k->body_open + 1); i < close && rc == KA_OK;
	     i = ka_csrc_skip_blank(t, len, i)) {
		size_t e = ka_csrc_stmt_end(t, len, i);
		if (e == NPOS || e > close)
			return ka_recipe_decline(c, "cannot read the kernel's statements");
		if (!ka_csrc_squeeze(t, i, e, sq, sizeof sq))
			sq[0] = 0; /* too long for a declaration or a barrier */
		if (nsd < MAX_SHARED && shared_decl(sq, &sds[nsd]))
			nsd++;
		const bscan_shared *sd = NULL;
		if (!strncmp(t + i, "for", 3) && !is_ident(t[i + 3]) &&
		    (rc = scan_loop(c, sds, nsd, prev, i, e, &sd)))
			return rc;
		if (sd && (rc = prove_block(c, sd->n)) == KA_OK) {
			rc = replace_loop(c, ed, sd, i, e);
			nloops++;
		}
		snprintf(prev, sizeof prev, "%s", sq);
		i = e;
	}
	if (rc == KA_OK && !nloops)
		return ka_recipe_decline(c, "no Hillis-Steele scan loop over a __shared__ array");
	return rc ? rc : ka_recipe_edit(ed, c->k->start, c->k->start, ka_recipe_scan_helpers);
}

static int bscan_apply(ka_recipe_ctx *c, ka_buf *out)
{
	ka_recipe_edits ed = {0};
	int rc = bscan_edits(c, &ed);
	if (rc == KA_OK)
		rc = ka_recipe_edits_apply(&ed, c->m->text, c->m->len, out);
	ka_recipe_edits_free(&ed);
	return rc;
}

static const char *const bscan_grid[] = {"", NULL};

const ka_recipe ka_recipe_shuffle_block_scan = {
	.name = "shuffle-block-scan",
	.summary = "a Hillis-Steele scan in shared memory -> a warp-shuffle block scan",
	.rules = "sync-block-scan-barriers",
	.grid = bscan_grid,
	.apply = bscan_apply,
};
