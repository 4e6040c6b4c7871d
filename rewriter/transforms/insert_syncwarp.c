/* rewriter/transforms/insert_syncwarp.c: warp-synchronous shared-memory
 * code (`if (tid < 32) { s[tid] += s[tid + 16]; s[tid] += s[tid + 8]; ... }`)
 * relied on lanes running in lockstep, which Volta's independent thread
 * scheduling ended.  Each assignment step becomes a read, a __syncwarp(), a
 * write and a __syncwarp():
 *     { auto warp_tmp = s[tid] + s[tid + 16]; __syncwarp(); s[tid] = warp_tmp; __syncwarp(); }
 * so no lane reads a slot another lane is writing in the same step.  Safe
 * when the guarding condition keeps whole warps (`tid < 32`, a multiple of
 * 32): the full default mask of __syncwarp() then matches the active lanes;
 * otherwise offered as unsafe. */
#include "rewriter/transforms/xform.h"
#include "util/buf.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* `LHS op= RHS;` at s[b..e) (e just past ';'): the operator's position and length. */
static int assignment(const char *s, size_t b, size_t e, size_t *op, size_t *oplen)
{
	for (size_t i = b; i < e; i++) {
		if (s[i] == '(' || s[i] == '[') {
			size_t j = xf_match(s, e, i);
			if (j == (size_t)-1)
				return 0;
			i = j - 1;
			continue;
		}
		if (s[i] != '=')
			continue;
		if (i + 1 < e && s[i + 1] == '=')
			return 0;
		if (i > b && strchr("+-*|&^", s[i - 1])) {
			*op = i - 1;
			*oplen = 2;
		} else if (i > b && strchr("<>!", s[i - 1])) {
			return 0;
		} else {
			*op = i;
			*oplen = 1;
		}
		return *op > b;
	}
	return 0;
}

/* The condition keeps whole warps: `X < N` with N a multiple of 32, or warpSize. */
static int whole_warps(const char *cond)
{
	const char *lt = strchr(cond, '<');
	if (!lt || lt[1] == '<' || lt[1] == '=' || strpbrk(cond, "&|?"))
		return 0;
	const char *p = lt + 1;
	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "warpSize", 8) == 0)
		return 1;
	char *end;
	long n = strtol(p, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	return end != p && *end == '\0' && n > 0 && n % 32 == 0;
}

static int step_text(ka_buf *out, const char *s, size_t b, size_t op, size_t oplen, size_t e)
{
	size_t le = xf_skip_ws_back(s, op), rb = xf_skip_ws(s, e, op + oplen);
	size_t re = xf_skip_ws_back(s, e - 1); /* before ';' */
	if (oplen == 2)
		return ka_buf_printf(out,
				     "{ auto warp_tmp = %.*s %c (%.*s); __syncwarp(); %.*s = warp_tmp; "
				     "__syncwarp(); }",
				     (int)(le - b), s + b, s[op], (int)(re - rb), s + rb, (int)(le - b),
				     s + b);
	return ka_buf_printf(out, "{ auto warp_tmp = %.*s; __syncwarp(); %.*s = warp_tmp; __syncwarp(); }",
			     (int)(re - rb), s + rb, (int)(le - b), s + b);
}

static int insert_syncwarp_row(xf_ctx *c, sqlite3_int64 id)
{
	xf_fact r;
	int rc = xf_fact_load(c,
			      "SELECT file, begin_off, end_off, cond_text, has_syncwarp FROM "
			      "divergent_warp_code WHERE id = ?1",
			      id, &r);
	if (rc <= 0)
		return rc;
	const char *file = r.file, *src;
	size_t b = r.b, e = r.e, len;
	int steps = 0;
	rc = 0;
	ka_fix *f = NULL;
	ka_buf t;
	ka_buf_init(&t, 1 << 16);
	if (xf_int(&r, "has_syncwarp") == 1)
		goto out;
	if ((rc = xf_source(c, file, &src, &len)) < 0 || e > len)
		goto out;
	size_t open = b;
	while (open < e && src[open] != '{')
		open++;
	size_t close = open < e ? xf_match(src, e, open) : (size_t)-1;
	if (close == (size_t)-1) {
		xf_skip(c, file, b, "no braced block of warp-synchronous steps");
		goto out;
	}
	ka_fix_safety safety = whole_warps(xf_str(&r, "cond_text")) ? KA_FIX_SAFE : KA_FIX_UNSAFE;
	for (size_t i = xf_skip_ws(src, close, open + 1); i < close - 1 && rc >= 0;) {
		size_t j = i;
		while (j < close - 1 && src[j] != ';' && src[j] != '{') {
			size_t k = (src[j] == '(' || src[j] == '[') ? xf_match(src, close, j) : j + 1;
			j = k == (size_t)-1 ? close : k;
		}
		if (j >= close - 1 || src[j] == '{') {
			xf_skip(c, file, i, "the warp-synchronous block holds a nested statement");
			goto drop;
		}
		size_t op, oplen;
		if (assignment(src, i, j + 1, &op, &oplen)) {
			if (!f && !(f = xf_fix(c, file, safety,
					       "__syncwarp() between the warp-synchronous steps"))) {
				rc = -1;
				break;
			}
			ka_buf_reset(&t);
			if ((rc = step_text(&t, src, i, op, oplen, j + 1)) >= 0)
				rc = ka_fix_add_edit(f, i, j + 1, t.data);
			steps++;
		}
		i = xf_skip_ws(src, close, j + 1);
	}
	if (steps == 0 && rc >= 0)
		xf_skip(c, file, b, "no assignment steps found in the block");
	goto out;
drop:
	if (f)
		ka_fix_clear_edits(f); /* no partial rewrite: the fix is dropped as empty */
out:
	ka_buf_free(&t);
	xf_fact_done(&r);
	return rc;
}

XF_TRANSFORM(insert_syncwarp, KA_FIX_SAFE,
	     "split warp-synchronous shared-memory steps with __syncwarp() between read and write")
{
	return xf_each(c, "divergent_warp_code", insert_syncwarp_row);
}
