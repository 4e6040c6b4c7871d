/* tests/util/test_mem.c: the memory and error helpers of util/: the arena
 * (zeroed, aligned, separate blocks, budgets), the capped buffer (exact
 * cap, a failed append leaves the bytes as they were, no size_t wrap),
 * checked arithmetic at every edge of int64_t, and the per-thread error
 * message. */
#include "test_util.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/checked.h"
#include "util/error.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static void arena_blocks_are_zeroed_aligned_and_apart(void **state)
{
	(void)state;
	ka_arena *a = ka_arena_new();
	assert_int_equal(ka_arena_bytes(a), 0);
	unsigned char *p[500];
	for (int i = 0; i < 500; i++) { /* several chunks of 64 KiB */
		size_t n = (size_t)(i % 37) * 9 + 1;
		p[i] = ka_arena_alloc(a, n);
		assert_int_equal((uintptr_t)p[i] % 16, 0);
		for (size_t k = 0; k < n; k++)
			assert_int_equal(p[i][k], 0);
		memset(p[i], i & 0xff, n);
	}
	for (int i = 0; i < 500; i++) { /* nothing overwrote a neighbour */
		size_t n = (size_t)(i % 37) * 9 + 1;
		for (size_t k = 0; k < n; k++)
			assert_int_equal(p[i][k], i & 0xff);
	}
	size_t before = ka_arena_bytes(a);
	assert_true(before >= 500);
	unsigned char *big = ka_arena_alloc(a, (size_t)1 << 20); /* larger than a chunk */
	assert_int_equal(big[0] | big[(1 << 20) - 1], 0);
	assert_true(ka_arena_bytes(a) >= before + ((size_t)1 << 20));
	ka_arena_free(a);
	ka_arena_free(NULL);
	assert_int_equal(ka_arena_bytes(NULL), 0);
}

static void arena_strings(void **state)
{
	(void)state;
	ka_arena *a = ka_arena_new();
	assert_null(ka_arena_strdup(a, NULL));
	char *s = ka_arena_strdup(a, "threadIdx.x");
	assert_string_equal(s, "threadIdx.x");
	assert_string_equal(ka_arena_strndup(a, "blockDim.y", 5), "block");
	assert_string_equal(ka_arena_strndup(a, "", 0), "");
	assert_string_equal(ka_arena_printf(a, "%s[%d] x%zu", "tile", -3, (size_t)4), "tile[-3] x4");
	char long_arg[3000];
	memset(long_arg, 'k', sizeof long_arg - 1);
	long_arg[sizeof long_arg - 1] = '\0';
	char *l = ka_arena_printf(a, "<%s>", long_arg);
	assert_int_equal(strlen(l), 3001);
	assert_int_equal(l[0], '<');
	assert_int_equal(l[3000], '>');
	ka_arena_free(a);
}

static void buf_cap_is_exact(void **state)
{
	(void)state;
	ka_buf b;
	ka_buf_init(&b, 8);
	assert_int_equal(ka_buf_adds(&b, "12345"), KA_OK);
	assert_int_equal(ka_buf_add(&b, "678", 3), KA_OK); /* exactly the limit */
	assert_int_equal(b.len, 8);
	ka_error_clear();
	assert_int_equal(ka_buf_addc(&b, '9'), KA_ETOOBIG);
	assert_string_equal(ka_error_last(), "buffer over its limit of 8 bytes");
	assert_int_equal(b.len, 8);
	assert_string_equal(b.data, "12345678");
	assert_int_equal(ka_buf_add(&b, "", 0), KA_OK); /* nothing still fits */
	ka_buf_reset(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	assert_int_equal(ka_buf_adds(&b, "abcdefgh"), KA_OK);
	ka_buf_free(&b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	ka_buf_init(&b, 0);
	assert_int_equal(b.limit, KA_BUF_DEFAULT_LIMIT);
	ka_buf_free(&b);
}

static void buf_printf_appends_or_leaves_alone(void **state)
{
	(void)state;
	ka_buf b;
	ka_buf_init(&b, 32);
	assert_int_equal(ka_buf_printf(&b, "%s:%d:%d", "k.cu", 12, 7), KA_OK);
	assert_int_equal(ka_buf_printf(&b, " %05.1f%%", 2.25), KA_OK);
	assert_string_equal(b.data, "k.cu:12:7 002.2%");
	assert_int_equal(b.len, strlen("k.cu:12:7 002.2%"));
	assert_int_equal(ka_buf_printf(&b, "%s", "this does not fit at all"), KA_ETOOBIG);
	assert_string_equal(ka_error_last(), "buffer over its limit of 32 bytes");
	assert_string_equal(b.data, "k.cu:12:7 002.2%");
	assert_int_equal(b.len, 16);
	/* a conversion that fails (a wide character the C locale cannot spell) */
	wchar_t wide[] = {0x100, 0};
	assert_int_equal(ka_buf_printf(&b, "%ls", wide), KA_ERR);
	assert_string_equal(ka_error_last(), "bad format");
	assert_int_equal(b.len, 16);
	ka_buf_free(&b);
}

static void buf_sizes_never_wrap(void **state)
{
	(void)state;
	ka_buf b;
	ka_buf_init(&b, SIZE_MAX);
	assert_int_equal(b.limit, KA_BUF_MAX_LIMIT);
	assert_int_equal(ka_buf_adds(&b, "x"), KA_OK);
	/* len + n + 1 would wrap to 1: refused, nothing copied */
	assert_int_equal(ka_buf_add(&b, "y", SIZE_MAX - 1), KA_ETOOBIG);
	char want[64];
	snprintf(want, sizeof want, "buffer over its limit of %zu bytes", (size_t)KA_BUF_MAX_LIMIT);
	assert_string_equal(ka_error_last(), want);
	assert_int_equal(ka_buf_add(&b, "y", SIZE_MAX), KA_ETOOBIG);
	assert_string_equal(b.data, "x");
	ka_buf_free(&b);
}

static void buf_steal(void **state)
{
	(void)state;
	ka_buf b;
	ka_buf_init(&b, 0);
	char *empty = ka_buf_steal(&b); /* never NULL, even when nothing was added */
	assert_non_null(empty);
	assert_string_equal(empty, "");
	free(empty);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(ka_buf_printf(&b, "%d,", i % 10), KA_OK);
	assert_int_equal(b.len, 2000);
	char *s = ka_buf_steal(&b);
	assert_int_equal(strlen(s), 2000);
	assert_memory_equal(s, "0,1,2,", 6);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	assert_int_equal(ka_buf_adds(&b, "again"), KA_OK); /* usable after the steal */
	assert_string_equal(b.data, "again");
	free(s);
	ka_buf_free(&b);
}

static void checked_add_sub_mul_neg(void **state)
{
	(void)state;
	int64_t r = 0;
	assert_int_equal(ka_add64(INT64_MAX - 1, 1, &r), 1);
	assert_true(r == INT64_MAX);
	assert_int_equal(ka_add64(INT64_MAX, 1, &r), 0);
	assert_int_equal(ka_add64(INT64_MIN, -1, &r), 0);
	assert_int_equal(ka_sub64(INT64_MIN + 1, 1, &r), 1);
	assert_true(r == INT64_MIN);
	assert_int_equal(ka_sub64(INT64_MIN, 1, &r), 0);
	assert_int_equal(ka_sub64(0, INT64_MIN, &r), 0);
	assert_int_equal(ka_mul64(3037000499, 3037000499, &r), 1); /* floor(sqrt(2^63 - 1)) */
	assert_true(r == 9223372030926249001);
	assert_int_equal(ka_mul64(3037000500, 3037000500, &r), 0);
	assert_int_equal(ka_mul64(INT64_MIN, -1, &r), 0);
	assert_int_equal(ka_mul64(INT64_MIN, 1, &r), 1);
	assert_true(r == INT64_MIN);
	assert_int_equal(ka_neg64(INT64_MIN, &r), 0);
	assert_int_equal(ka_neg64(INT64_MAX, &r), 1);
	assert_true(r == INT64_MIN + 1);
}

static void checked_div_rem(void **state)
{
	(void)state;
	int64_t r = 99;
	assert_int_equal(ka_div64(1, 0, &r), 0);
	assert_int_equal(ka_div64(INT64_MIN, -1, &r), 0);
	assert_int_equal(r, 99); /* untouched when refused */
	assert_int_equal(ka_div64(-7, 2, &r), 1);
	assert_int_equal(r, -3); /* truncates toward zero, as C does */
	assert_int_equal(ka_div64(INT64_MIN, 1, &r), 1);
	assert_true(r == INT64_MIN);
	assert_int_equal(ka_rem64(1, 0, &r), 0);
	assert_int_equal(ka_rem64(-7, 2, &r), 1);
	assert_int_equal(r, -1);
	assert_int_equal(ka_rem64(7, -2, &r), 1);
	assert_int_equal(r, 1);
	assert_int_equal(ka_rem64(INT64_MIN, -1, &r), 1); /* would trap in hardware */
	assert_int_equal(r, 0);
}

static void checked_shifts_and_products(void **state)
{
	(void)state;
	int64_t r = 0;
	assert_int_equal(ka_shl64(1, 62, &r), 1);
	assert_true(r == (int64_t)1 << 62);
	assert_int_equal(ka_shl64(1, 63, &r), 0);
	assert_int_equal(ka_shl64(2, 62, &r), 0);
	assert_int_equal(ka_shl64(-1, 62, &r), 1);
	assert_true(r == -((int64_t)1 << 62));
	assert_int_equal(ka_shl64(1, -1, &r), 0);
	assert_int_equal(ka_shr64(-7, 1, &r), 1);
	assert_int_equal(r, -4); /* rounds toward -inf */
	assert_int_equal(ka_shr64(7, 1, &r), 1);
	assert_int_equal(r, 3);
	assert_int_equal(ka_shr64(INT64_MIN, 63, &r), 1);
	assert_int_equal(r, -1);
	assert_int_equal(ka_shr64(INT64_MAX, 63, &r), 1);
	assert_int_equal(r, 0);
	assert_int_equal(ka_shr64(1, 64, &r), 0);
	assert_int_equal(ka_shr64(1, -1, &r), 0);
	const int64_t dims[] = {4096, 4096, 64};
	assert_int_equal(ka_prod64(dims, 3, &r), 1);
	assert_true(r == (int64_t)1 << 30);
	assert_int_equal(ka_prod64(dims, 0, &r), 1);
	assert_int_equal(r, 1); /* the empty product */
	const int64_t huge[] = {1 << 30, 1 << 30, 1 << 30};
	r = 5;
	assert_int_equal(ka_prod64(huge, 3, &r), 0);
	assert_int_equal(r, 5);
}

static void *set_in_thread(void *arg)
{
	ka_error_set(KA_EIO, "from the worker %d", 2);
	snprintf(arg, 64, "%s", ka_error_last());
	return NULL;
}

static void error_message_per_thread(void **state)
{
	(void)state;
	ka_error_clear();
	assert_string_equal(ka_error_last(), "");
	assert_int_equal(ka_error_set(KA_EINPUT, "bad rule %s: line %d", "x.md", 4), KA_EINPUT);
	assert_string_equal(ka_error_last(), "bad rule x.md: line 4");
	char seen[64] = "";
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, set_in_thread, seen), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_string_equal(seen, "from the worker 2");
	assert_string_equal(ka_error_last(), "bad rule x.md: line 4");
	char long_arg[2000];
	memset(long_arg, 'm', sizeof long_arg - 1);
	long_arg[sizeof long_arg - 1] = '\0';
	ka_error_set(KA_ERR, "%s", long_arg); /* truncated, still terminated */
	assert_int_equal(strlen(ka_error_last()), 1023);
	ka_error_clear();
	assert_string_equal(ka_error_last(), "");
}

int run_mem_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arena_blocks_are_zeroed_aligned_and_apart),
		cmocka_unit_test(arena_strings),
		cmocka_unit_test(buf_cap_is_exact),
		cmocka_unit_test(buf_printf_appends_or_leaves_alone),
		cmocka_unit_test(buf_sizes_never_wrap),
		cmocka_unit_test(buf_steal),
		cmocka_unit_test(checked_add_sub_mul_neg),
		cmocka_unit_test(checked_div_rem),
		cmocka_unit_test(checked_shifts_and_products),
		cmocka_unit_test(error_message_per_thread),
	};
	return cmocka_run_group_tests_name("util_mem", tests, NULL, NULL);
}
