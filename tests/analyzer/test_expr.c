/* tests/analyzer/test_expr.c: symbolic index values (analyzer/expr.c) and
 * the warp model (analyzer/warp.c), without parsing anything. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/walk.h"

typedef struct fx {
	ka_arena *a;
	sx_ctx c;
	int tx, ty, n;
} fx;

static int setup(void **state)
{
	fx *f = calloc(1, sizeof *f);
	f->a = ka_arena_new();
	sx_ctx_init(&f->c, f->a);
	f->tx = sx_new_sym(&f->c, SYM_TID_X, "threadIdx.x", D_TX, 0);
	f->ty = sx_new_sym(&f->c, SYM_TID_Y, "threadIdx.y", D_TY, 0);
	f->n = sx_new_sym(&f->c, SYM_PARAM, "n", D_PARAM, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	fx *f = *state;
	ka_arena_free(f->a);
	free(f);
	return 0;
}

static void coef_of_affine_index(void **state)
{
	fx *f = *state;
	/* (tx * 2 + 7) * 4 bytes */
	const sx *i = sx_add(&f->c, sx_mul(&f->c, sx_symref(&f->c, f->tx), sx_const(&f->c, 2)),
			     sx_const(&f->c, 7));
	const sx *bytes = sx_mul(&f->c, i, sx_const(&f->c, 4));
	int64_t v;
	assert_true(sx_is_const(sx_coef(&f->c, bytes, SYM_TID_X), &v));
	assert_int_equal(v, 8);
	assert_true(sx_is_const(sx_coef(&f->c, bytes, SYM_TID_Y), &v));
	assert_int_equal(v, 0);
	assert_true(sx_const_term(sx_div_exact(&f->c, bytes, 4), &v));
	assert_int_equal(v, 7);
}

static void symbolic_coef_is_unknown(void **state)
{
	fx *f = *state;
	const sx *i = sx_mul(&f->c, sx_symref(&f->c, f->tx), sx_symref(&f->c, f->n));
	const sx *c = sx_coef(&f->c, i, SYM_TID_X);
	assert_non_null(c);
	assert_false(sx_is_const(c, NULL));
	assert_true(sx_has_unknown(&f->c, c));
	assert_string_equal(sx_render(&f->c, f->a, c), "n");
}

static void nonaffine_has_no_coef(void **state)
{
	fx *f = *state;
	const sx *m = sx_bin(&f->c, SX_REM, sx_symref(&f->c, f->tx), sx_const(&f->c, 4));
	assert_null(sx_coef(&f->c, m, SYM_TID_X));
	assert_true(m->has_rem_small);
	/* ...but it still evaluates lane by lane */
	sx_lane ln = {{6, 0, 0}};
	int64_t v;
	assert_int_equal(sx_eval(&f->c, m, &ln, &v), 0);
	assert_int_equal(v, 2);
}

static void shift_left_stays_affine(void **state)
{
	fx *f = *state;
	const sx *s = sx_bin(&f->c, SX_SHL, sx_symref(&f->c, f->tx), sx_const(&f->c, 3));
	int64_t v;
	assert_true(sx_is_const(sx_coef(&f->c, s, SYM_TID_X), &v));
	assert_int_equal(v, 8);
}

static void lane_varying_data_does_not_evaluate(void **state)
{
	fx *f = *state;
	int ld = sx_new_sym(&f->c, SYM_LOAD, "idx", D_DATA | D_TX, 0);
	f->c.syms[ld].lane_varying = 1;
	sx_lane ln = {{1, 0, 0}};
	int64_t v;
	assert_int_equal(sx_eval(&f->c, sx_symref(&f->c, ld), &ln, &v), -1);
}

/* The warp model on a bare walk: block shape and an address expression. */
static void warp_case(fx *f, int bx, int by, const sx *addr, int bytes, int shared, warp_result *r)
{
	walk w;
	memset(&w, 0, sizeof w);
	w.file.arch = ka_arch_find("sm_90");
	w.sym.sx = f->c;
	w.block[0] = bx, w.block[1] = by, w.block[2] = 1;
	walk_warp_model(&w, addr, bytes, shared, r);
}

static void sectors_for_strides(void **state)
{
	fx *f = *state;
	static const struct {
		int stride, sectors;
	} cases[] = {{1, 4}, {2, 8}, {8, 32}, {32, 32}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const sx *a = sx_mul(&f->c, sx_symref(&f->c, f->tx), sx_const(&f->c, 4 * cases[i].stride));
		warp_result r;
		warp_case(f, 256, 1, a, 4, 0, &r);
		assert_true(r.ok);
		assert_int_equal(r.sectors, cases[i].sectors);
		assert_int_equal(r.ideal_sectors, 4);
	}
	/* misaligned by one float: 5 sectors */
	const sx *m = sx_mul(&f->c, sx_add(&f->c, sx_symref(&f->c, f->tx), sx_const(&f->c, 1)),
			     sx_const(&f->c, 4));
	warp_result r;
	warp_case(f, 256, 1, m, 4, 0, &r);
	assert_int_equal(r.sectors, 5);
}

static void bank_conflicts_of_tiles(void **state)
{
	fx *f = *state;
	/* tile[tx][ty] of float[32][32] / [32][33], block (32, 8) */
	for (int pad = 0; pad <= 1; pad++) {
		const sx *idx = sx_add(&f->c,
				       sx_mul(&f->c, sx_symref(&f->c, f->tx), sx_const(&f->c, 32 + pad)),
				       sx_symref(&f->c, f->ty));
		warp_result r;
		warp_case(f, 32, 8, sx_mul(&f->c, idx, sx_const(&f->c, 4)), 4, 1, &r);
		assert_true(r.ok);
		assert_int_equal(r.bank_ways, pad ? 1 : 32);
		assert_int_equal(r.ideal_bank_ways, 1);
	}
	/* stride 2 words: 2-way */
	warp_result r;
	warp_case(f, 32, 8, sx_mul(&f->c, sx_symref(&f->c, f->tx), sx_const(&f->c, 8)), 4, 1, &r);
	assert_int_equal(r.bank_ways, 2);
	/* broadcast */
	warp_case(f, 32, 8, sx_const(&f->c, 0), 4, 1, &r);
	assert_int_equal(r.bank_ways, 1);
	assert_true(r.uniform);
}

static void narrow_block_spans_rows(void **state)
{
	fx *f = *state;
	/* a[ty * 1024 + tx] with blockDim.x = 8: four rows per warp */
	const sx *idx = sx_add(&f->c, sx_mul(&f->c, sx_symref(&f->c, f->ty), sx_const(&f->c, 1024)),
			       sx_symref(&f->c, f->tx));
	warp_result r;
	warp_case(f, 8, 32, sx_mul(&f->c, idx, sx_const(&f->c, 4)), 4, 0, &r);
	assert_int_equal(r.sectors, 4 * 1);
	assert_int_equal(r.lanes, 32);
	assert_int_equal(r.stride_bytes, 4);
}

/* `last = first + 8*m - 1; range = last - first`: first cancels, so a range
 * built on a thread-dependent first is uniform (cudpp's merge sort); a
 * difference that does not cancel keeps its lane dependence. */
static void difference_cancels(void **state)
{
	fx *f = *state;
	int first = sx_new_sym(&f->c, SYM_VAR, "merged", D_TX, 0);
	f->c.syms[first].lane_varying = 1;
	int m = sx_new_sym(&f->c, SYM_VAR, "carried", D_LOOP, 1);
	const sx *fx_ = sx_symref(&f->c, first), *mx = sx_symref(&f->c, m);
	const sx *last = sx_add(&f->c, sx_add(&f->c, fx_, sx_mul(&f->c, sx_const(&f->c, 8), mx)),
				sx_neg(&f->c, sx_const(&f->c, 1)));
	const sx *range = sx_add(&f->c, last, sx_neg(&f->c, fx_));
	assert_int_equal(range->dep & D_LANE, 0);
	assert_int_equal(range->dep & D_LOOP, D_LOOP);
	sx_lane ln = {{5, 0, 0}};
	int64_t v;
	f->c.syms[m].value = 4;
	assert_int_equal(sx_eval(&f->c, range, &ln, &v), 0);
	assert_int_equal(v, 31);
	/* -(first + m) + first + m: nothing left */
	const sx *s = sx_add(&f->c, fx_, mx);
	assert_true(sx_is_const(sx_add(&f->c, sx_neg(&f->c, s), s), &v));
	assert_int_equal(v, 0);
	/* 2 * tx - tx is tx, still lane-dependent */
	const sx *tx = sx_symref(&f->c, f->tx);
	const sx *d = sx_add(&f->c, sx_mul(&f->c, tx, sx_const(&f->c, 2)), sx_neg(&f->c, tx));
	assert_int_equal(d->dep & D_TX, D_TX);
	/* (tx + n) - n: tx, coefficient 1 */
	const sx *n = sx_symref(&f->c, f->n);
	const sx *e = sx_add(&f->c, sx_add(&f->c, tx, n), sx_neg(&f->c, n));
	assert_true(sx_is_const(sx_coef(&f->c, e, SYM_TID_X), &v));
	assert_int_equal(v, 1);
	assert_int_equal(e->dep & D_PARAM, 0);
	/* (-f) * m + f * m: the negative constant sits inside a product */
	const sx *p = sx_mul(&f->c, sx_neg(&f->c, fx_), mx);
	assert_true(sx_is_const(sx_add(&f->c, sx_mul(&f->c, fx_, mx), p), &v));
	assert_int_equal(v, 0);
	/* opaque values never cancel: two float results may differ */
	const sx *o = sx_opaque(&f->c, D_TX, 0);
	assert_int_equal(sx_add(&f->c, o, sx_neg(&f->c, o))->dep & D_TX, D_TX);
}

/* sx_eval_launch: thread ids, dims and parameters every launch fixes have
 * values; an unfixed parameter or blockIdx does not (no assumed 1024). */
static void launch_values_only(void **state)
{
	fx *f = *state;
	int bd = sx_new_sym(&f->c, SYM_BDIM_X, "blockDim.x", D_PARAM, 0);
	f->c.syms[bd].value = 128;
	f->c.syms[bd].has_value = 1;
	int bid = sx_new_sym(&f->c, SYM_BID_X, "blockIdx.x", D_BLOCK, 0);
	f->c.syms[bid].value = 1;
	f->c.syms[bid].has_value = 1;
	const sx *n = sx_symref(&f->c, f->n), *tx = sx_symref(&f->c, f->tx);
	const sx *x = sx_add(&f->c, sx_add(&f->c, n, tx), sx_symref(&f->c, bd));
	sx_lane ln = {{3, 0, 0}};
	int64_t v;
	assert_int_equal(sx_eval_launch(&f->c, x, &ln, &v), -1);
	assert_int_equal(sx_eval(&f->c, x, &ln, &v), 0); /* n assumed 1024 */
	assert_int_equal(v, 1024 + 3 + 128);
	f->c.syms[f->n].has_launch_value = 1;
	f->c.syms[f->n].launch_value = 1000;
	assert_int_equal(sx_eval_launch(&f->c, x, &ln, &v), 0);
	assert_int_equal(v, 1000 + 3 + 128);
	assert_int_equal(sx_eval_launch(&f->c, sx_add(&f->c, x, sx_symref(&f->c, bid)), &ln, &v), -1);
}

int test_expr_main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(coef_of_affine_index, setup, teardown),
		cmocka_unit_test_setup_teardown(symbolic_coef_is_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(nonaffine_has_no_coef, setup, teardown),
		cmocka_unit_test_setup_teardown(shift_left_stays_affine, setup, teardown),
		cmocka_unit_test_setup_teardown(lane_varying_data_does_not_evaluate, setup, teardown),
		cmocka_unit_test_setup_teardown(sectors_for_strides, setup, teardown),
		cmocka_unit_test_setup_teardown(bank_conflicts_of_tiles, setup, teardown),
		cmocka_unit_test_setup_teardown(narrow_block_spans_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(difference_cancels, setup, teardown),
		cmocka_unit_test_setup_teardown(launch_values_only, setup, teardown),
	};
	return cmocka_run_group_tests_name("analyzer_expr", tests, NULL, NULL);
}
