/* analyzer/warp.c: the warp model.  Evaluates an address expression for
 * each lane of the first warp of a block of the kernel's shape and counts
 * 32-byte sectors (global memory) and bank conflicts (shared memory), as the
 * hardware sees one warp-wide request. */
#include "analyzer/walk.h"
#include "util/checked.h"
#include <stdlib.h>
#include <string.h>

static void lane_of(const walk *w, int l, sx_lane *ln)
{
	int64_t bx = w->block[0] > 0 ? w->block[0] : 1, by = w->block[1] > 0 ? w->block[1] : 1;
	ln->tid[0] = l % bx;
	ln->tid[1] = (l / bx) % by;
	ln->tid[2] = l / (bx * by); /* both below 2^31: no overflow in 64 bits */
}

/* Threads per block; INT64_MAX when the product overflows (only the first
 * warps are modelled, so "more than a warp" is all that matters then). */
static int64_t block_threads(const walk *w)
{
	int64_t d[3], t;
	for (int i = 0; i < 3; i++)
		d[i] = w->block[i] > 0 ? w->block[i] : 1;
	return ka_prod64(d, 3, &t) ? t : INT64_MAX;
}

/* Addresses and access sizes beyond these are not modelled (unknown): within
 * them every sum, difference and product below fits in 64 bits, and
 * lanes * access_bytes in an int. */
#define WARP_MAX_ADDR ((int64_t)1 << 60)
#define WARP_MAX_ACCESS_BYTES (1 << 20)

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static int count_distinct(int64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp64);
	int d = 0;
	for (int i = 0; i < n; i++)
		if (i == 0 || v[i] != v[d - 1])
			v[d++] = v[i];
	return d;
}

void walk_warp_model(walk *w, const sx *addr, int access_bytes, int shared, warp_result *r)
{
	walk_warp_model_lanes(w, addr, access_bytes, shared, w->file.arch->warp_size, r);
}

void walk_warp_model_lanes(walk *w, const sx *addr, int access_bytes, int shared, int nlanes, warp_result *r)
{
	memset(r, 0, sizeof *r);
	int ws = w->file.arch->warp_size;
	if (nlanes > 0 && nlanes < ws)
		ws = nlanes;
	int lanes = block_threads(w) < ws ? (int)block_threads(w) : ws;
	int64_t a[64];
	r->lanes = lanes;
	if (access_bytes <= 0 || !addr)
		return;
	if (access_bytes > WARP_MAX_ACCESS_BYTES)
		return;
	for (int l = 0; l < lanes; l++) {
		sx_lane ln;
		lane_of(w, l, &ln);
		if (sx_eval(&w->sym.sx, addr, &ln, &a[l]) != 0 || a[l] > WARP_MAX_ADDR ||
		    a[l] < -WARP_MAX_ADDR)
			return;
	}
	r->ok = 1;
	r->stride_bytes = lanes > 1 ? a[1] - a[0] : 0;
	r->uniform = 1;
	for (int l = 1; l < lanes; l++)
		if (a[l] != a[0])
			r->uniform = 0;
	r->bytes = lanes * access_bytes;
	/* Sectors: every 32-byte sector any byte of any lane's access touches. */
	int64_t *sec = malloc(sizeof *sec * (size_t)lanes * 8);
	int ns = 0;
	const int sb = 32; /* L1/L2 sector size on NVIDIA and our model for AMD */
	for (int l = 0; l < lanes; l++) {
		int64_t first = a[l] / sb, last = (a[l] + access_bytes - 1) / sb;
		for (int64_t s = first; s <= last && s - first < 8; s++)
			sec[ns++] = s;
	}
	r->sectors = count_distinct(sec, ns);
	r->ideal_sectors = (r->bytes + sb - 1) / sb;
	free(sec);
	if (!shared)
		return;
	/* Banks: distinct 4-byte words per bank, maximised over banks. */
	int banks = w->file.arch->smem_banks, bb = w->file.arch->bank_bytes;
	int64_t *words = malloc(sizeof *words * (size_t)lanes * 16);
	int nw = 0;
	for (int l = 0; l < lanes; l++)
		for (int64_t o = 0; o < access_bytes && o < 16 * bb; o += bb)
			words[nw++] = (a[l] + o) / bb;
	int nd = count_distinct(words, nw);
	int ways = 0;
	for (int bank = 0; bank < banks; bank++) {
		int c = 0;
		for (int i = 0; i < nd; i++) {
			int64_t m = words[i] % banks;
			if (m < 0)
				m += banks;
			if (m == bank)
				c++;
		}
		if (c > ways)
			ways = c;
	}
	free(words);
	r->bank_ways = ways;
	r->ideal_bank_ways = (r->bytes + banks * bb - 1) / (banks * bb);
	if (r->uniform)
		r->ideal_bank_ways = 1;
}

/* x at every modelled lane is the same within each aligned group of g
 * lanes.  Run-time values (parameters, blockIdx, an assumed blockDim) are
 * tried at their assumed value and at two others, so that a lane-group
 * boundary that only their assumed value aligns is not taken as one. */
/* The symbols of x without a value (a run-time size the walk assumes), at
 * most max of them, each once, into out: their number, or -1 when there
 * are more or the tree is too deep to list. */
static int free_syms(const sx_ctx *c, const sx *x, int *out, int n, int max, int depth)
{
	if (!x || n < 0)
		return n;
	if (depth > 64)
		return -1;
	if (x->k == SX_SYM) {
		if (x->sym < 0 || x->sym >= c->nsyms || c->syms[x->sym].kind <= SYM_TID_Z ||
		    c->syms[x->sym].has_value)
			return n;
		for (int i = 0; i < n; i++)
			if (out[i] == x->sym)
				return n;
		if (n == max)
			return -1;
		out[n] = x->sym;
		return n + 1;
	}
	n = free_syms(c, x->a, out, n, max, depth + 1);
	return free_syms(c, x->b, out, n, max, depth + 1);
}

static void shift_syms(sx_ctx *c, const int *fs, int nfs, int64_t d)
{
	if (nfs < 0) {
		for (int s = 0; s < c->nsyms; s++)
			if (c->syms[s].kind > SYM_TID_Z && !c->syms[s].has_value)
				c->syms[s].value += d;
		return;
	}
	for (int i = 0; i < nfs; i++)
		c->syms[fs[i]].value += d;
}

static int groups_agree_eval(walk *w, const sx *x, int g)
{
	int ws = w->file.arch->warp_size;
	int64_t threads = block_threads(w);
	int nwarps = threads / ws >= 8 ? 8 : (int)((threads + ws - 1) / ws);
	sx_ctx *c = &w->sym.sx;
	int ok = 1;
	/* the assumed sizes are moved (+1, +3) so that agreement by accident
	 * at one value is not taken for agreement; a value that uses none of
	 * them gives the same answer at every shift, so it is tried once */
	int fs[32];
	int nfs = free_syms(c, x, fs, 0, (int)(sizeof fs / sizeof *fs), 0);
	for (int shift = 0; shift < (nfs == 0 ? 1 : 3) && ok; shift++) {
		int64_t d = shift == 0 ? 0 : shift == 1 ? 1 : 3;
		shift_syms(c, fs, nfs, d);
		for (int wp = 0; wp < nwarps && ok; wp++) {
			int64_t first = 0, v;
			for (int l = 0; l < ws && wp * ws + l < threads; l++) {
				sx_lane ln;
				lane_of(w, wp * ws + l, &ln);
				if (sx_eval(c, x, &ln, &v) != 0) {
					ok = 0;
					break;
				}
				if (l % g == 0)
					first = v;
				else if (v != first) {
					ok = 0;
					break;
				}
			}
		}
		shift_syms(c, fs, nfs, -d);
	}
	return ok;
}

/* A comparison is never evaluated whole: with an assumed bound (`i <
 * n`, n taken as 1024) every modelled lane agrees by accident.  Its
 * operands are, and a function of operands that agree within each group
 * agrees too. */
static int groups_agree(walk *w, const sx *x, int g, int depth)
{
	if (!(x->dep & D_LANE))
		return 1;
	if (depth > 32 || x->k == SX_OPAQUE || x->k == SX_CONST)
		return 0;
	if (x->k == SX_SYM)
		return x->sym < w->sym.sx.nsyms &&
		       (w->sym.sx.syms[x->sym].warp_uniform || w->sym.sx.syms[x->sym].seg_uniform >= g ||
			(w->sym.sx.syms[x->sym].xbits & (unsigned)(g - 1)) == (unsigned)(g - 1) ||
			(w->sym.sx.syms[x->sym].kind <= SYM_TID_Z && groups_agree_eval(w, x, g)));
	if (x->a && groups_agree(w, x->a, g, depth + 1) && (!x->b || groups_agree(w, x->b, g, depth + 1)))
		return 1;
	if (x->k == SX_CMP)
		return 0;
	return groups_agree_eval(w, x, g);
}

int walk_segment_width(walk *w, const sx *c)
{
	if (w->assumption || !c)
		return 0;
	for (int g = 16; g >= 2; g /= 2)
		if (groups_agree(w, c, g, 0))
			return g;
	return 0;
}

int walk_warp_uniform(walk *w, const sx *x)
{
	int ws = w->file.arch->warp_size;
	int64_t threads = block_threads(w);
	int nwarps = threads / ws >= 8 ? 8 : (int)((threads + ws - 1) / ws);
	for (int wp = 0; wp < nwarps; wp++) {
		int64_t first = 0, v;
		for (int l = 0; l < ws && wp * ws + l < threads; l++) {
			sx_lane ln;
			lane_of(w, wp * ws + l, &ln);
			if (sx_eval(&w->sym.sx, x, &ln, &v) != 0)
				return -1;
			if (l == 0)
				first = v;
			else if (v != first)
				return 0;
		}
	}
	return 1;
}

int walk_shfl_width(walk *w, const ka_node *call, const ka_node *arg, const sx *x, int64_t *width)
{
	const ka_loc *a = &arg->loc;
	const char *t = walk_text(w, (ka_node *)arg);
	/* the header's default `width = warpSize`: no text of its own, or text
	 * outside the call's */
	int dflt = (t && !*t) || !a->file || !call->loc.file || strcmp(a->file, call->loc.file) != 0 ||
		   a->begin < call->loc.begin || a->end > call->loc.end;
	if (dflt || (x && x->k == SX_SYM && w->sym.sx.syms[x->sym].kind == SYM_WARPSIZE)) {
		*width = w->file.arch->warp_size;
		return 1;
	}
	return x && sx_is_const(x, width);
}

const sx *walk_shfl_xor(walk *w, const sx *v, const sx *k, unsigned dep, uint64_t loops)
{
	sx_ctx *c = &w->sym.sx;
	int s = sx_new_sym(c, SYM_OTHER, "shfl_xor", dep, loops);
	c->syms[s].lane_varying = (dep & D_LANE) != 0;
	c->syms[s].xsrc = v;
	c->syms[s].xk = k;
	return sx_symref(c, s);
}

/* The lane bits across which x is known to be the same. */
static unsigned same_bits(walk *w, const sx *x)
{
	unsigned all = (unsigned)w->file.arch->warp_size - 1;
	if (!(x->dep & D_LANE))
		return all;
	if (x->k != SX_SYM)
		return walk_lanes_agree(w, x) ? all : 0;
	const sx_sym *s = &w->sym.sx.syms[x->sym];
	return s->warp_uniform ? all : s->xbits | (s->seg_uniform > 1 ? (unsigned)s->seg_uniform - 1 : 0);
}

const sx *walk_butterfly(walk *w, const sx *a, const sx *b)
{
	sx_ctx *c = &w->sym.sx;
	for (int swap = 0; a && b && swap < 2; swap++) {
		const sx *p = swap ? b : a, *q = swap ? a : b;
		const sx_sym *s = q->k == SX_SYM ? &c->syms[q->sym] : NULL;
		if (!s || !s->xsrc || !sx_equal(s->xsrc, p))
			continue;
		unsigned bits = same_bits(w, p), all = (unsigned)w->file.arch->warp_size - 1;
		int64_t k;
		/* v op v(lane ^ k) is the same at lane and lane ^ k when op
		 * commutes, and keeps v's own bits */
		if (sx_is_const(s->xk, &k) && k > 0 && (unsigned)k <= all && !(k & (k - 1)))
			bits |= (unsigned)k;
		const sx *xk = s->xk;
		int n = sx_new_sym(c, SYM_OTHER, "butterfly", p->dep | q->dep, p->loops | q->loops);
		c->syms[n].lane_varying = ((p->dep | q->dep) & D_LANE) != 0;
		c->syms[n].bsrc = p;
		c->syms[n].bk = xk;
		c->syms[n].xbits = bits;
		c->syms[n].warp_uniform = bits == all;
		return sx_symref(c, n);
	}
	return NULL;
}

const sx *walk_butterfly_loop(walk *w, const sx *v, int iv_sym, int64_t start)
{
	sx_ctx *c = &w->sym.sx;
	unsigned all = (unsigned)w->file.arch->warp_size - 1;
	if (!v || v->k != SX_SYM || start <= 0 || (unsigned)start > all || (start & (start - 1)))
		return NULL;
	const sx_sym *s = &c->syms[v->sym];
	if (!s->bsrc || !s->bk || s->bk->k != SX_SYM || s->bk->sym != iv_sym)
		return NULL;
	/* start, start / 2, ..., 1: every bit below 2 * start */
	unsigned bits = (unsigned)(2 * start - 1);
	int n = sx_new_sym(c, SYM_OTHER, "butterfly", v->dep, v->loops);
	c->syms[n].lane_varying = (v->dep & D_LANE) != 0;
	c->syms[n].xbits = bits;
	c->syms[n].warp_uniform = bits == all;
	return sx_symref(c, n);
}

const sx *walk_opaque_pair(walk *w, const sx *x, const sx *y)
{
	sx_ctx *c = &w->sym.sx;
	unsigned dep = x->dep | y->dep, all = (unsigned)w->file.arch->warp_size - 1;
	unsigned bits = same_bits(w, x) & same_bits(w, y);
	if (!(dep & D_LANE) || !bits)
		return sx_opaque(c, dep, x->loops | y->loops);
	int n = sx_new_sym(c, SYM_OTHER, "opaque", dep & ~D_OPAQUE, x->loops | y->loops);
	c->syms[n].lane_varying = 1;
	c->syms[n].xbits = bits;
	c->syms[n].warp_uniform = bits == all;
	return sx_symref(c, n);
}
