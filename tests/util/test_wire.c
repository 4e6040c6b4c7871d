/* tests/util/test_wire.c: util/wire.h, the bytes a lint worker sends its
 * parent: values come back as they went, and a short or garbled message
 * is caught (bad set, NULL and zero from then on), never read past. */
#include "test_util.h"
#include "util/wire.h"
#include <stdlib.h>
#include <string.h>

static void round_trip(void **state)
{
	(void)state;
	ka_buf b;
	ka_buf_init(&b, 0);
	assert_int_equal(ka_wire_int(&b, -5), KA_OK);
	assert_int_equal(ka_wire_real(&b, 2.5), KA_OK);
	assert_int_equal(ka_wire_str(&b, "caf\xc3\xa9"), KA_OK);
	assert_int_equal(ka_wire_str(&b, NULL), KA_OK);
	assert_int_equal(ka_wire_str(&b, ""), KA_OK);
	assert_int_equal(ka_wire_bytes(&b, "a\0b", 3), KA_OK);
	ka_wire_in in = {.p = b.data, .left = b.len};
	assert_int_equal(ka_wire_get_int(&in), -5);
	assert_true(ka_wire_get_real(&in) == 2.5);
	char *s = ka_wire_get_str(&in);
	assert_string_equal(s, "caf\xc3\xa9");
	free(s);
	assert_null(ka_wire_get_str(&in)); /* NULL stays NULL ... */
	assert_false(in.bad);
	s = ka_wire_get_str(&in); /* ... and "" stays "" */
	assert_string_equal(s, "");
	free(s);
	size_t n = 0;
	s = ka_wire_get_bytes(&in, &n);
	assert_int_equal(n, 3);
	assert_memory_equal(s, "a\0b", 3);
	assert_int_equal(s[3], '\0');
	free(s);
	assert_int_equal(in.left, 0);
	assert_false(in.bad);
	ka_buf_free(&b);
}

static void short_and_garbled(void **state)
{
	(void)state;
	ka_buf b;
	ka_buf_init(&b, 0);
	ka_wire_str(&b, "hello");
	/* cut in the middle of the string */
	ka_wire_in in = {.p = b.data, .left = b.len - 2};
	assert_null(ka_wire_get_str(&in));
	assert_true(in.bad);
	assert_int_equal(ka_wire_get_int(&in), 0); /* everything after is zero */
	/* a length that claims more than is there */
	ka_buf_reset(&b);
	ka_wire_int(&b, 1LL << 40);
	in = (ka_wire_in){.p = b.data, .left = b.len};
	size_t n = 7;
	assert_null(ka_wire_get_bytes(&in, &n));
	assert_int_equal(n, 0);
	assert_true(in.bad);
	/* a negative length */
	ka_buf_reset(&b);
	ka_wire_int(&b, -3);
	in = (ka_wire_in){.p = b.data, .left = b.len};
	assert_null(ka_wire_get_str(&in));
	assert_true(in.bad);
	/* nothing at all */
	in = (ka_wire_in){.p = "", .left = 0};
	assert_true(ka_wire_get_real(&in) == 0.0);
	assert_true(in.bad);
	ka_buf_free(&b);
}

/* A view is the message's own bytes, in place; a bad length reads nothing
 * and poisons every later read. */
static void views(void **state)
{
	(void)state;
	ka_buf b;
	ka_buf_init(&b, 1 << 20);
	ka_wire_bytes(&b, "xyz", 3);
	ka_wire_int(&b, 42);
	ka_wire_in in = {.p = b.data, .left = b.len};
	size_t n = 0;
	const char *v = ka_wire_get_view(&in, &n);
	assert_int_equal(n, 3);
	assert_memory_equal(v, "xyz", 3);
	assert_true(v > b.data && v + 3 <= b.data + b.len);
	assert_int_equal(ka_wire_get_int(&in), 42);
	assert_int_equal(in.left, 0);
	assert_false(in.bad);
	ka_buf_reset(&b);
	ka_wire_int(&b, 5); /* claims 5 bytes, has none */
	in = (ka_wire_in){.p = b.data, .left = b.len};
	n = 9;
	assert_null(ka_wire_get_view(&in, &n));
	assert_int_equal(n, 0);
	assert_true(in.bad);
	assert_int_equal(ka_wire_get_int(&in), 0);
	ka_buf_free(&b);
}

int run_wire_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(short_and_garbled),
		cmocka_unit_test(views),
	};
	return cmocka_run_group_tests_name("wire", tests, NULL, NULL);
}
