/* tests/util/test_utf8.c: UTF-8 cuts (util/utf8.h): a cap never splits a
 * character, invalid bytes become '?', and what comes out is what jansson
 * accepts. */
#include "test_util.h"
#include "util/utf8.h"
#include <string.h>

/* g++'s quotes: U+2018 and U+2019, three bytes each */
#define LQ "\xe2\x80\x98"
#define RQ "\xe2\x80\x99"

static void test_char_len(void **st)
{
	(void)st;
	assert_int_equal(ka_utf8_char_len("a", 1), 1);
	assert_int_equal(ka_utf8_char_len("\xc3\xa9", 2), 2); /* é */
	assert_int_equal(ka_utf8_char_len(LQ, 3), 3);
	assert_int_equal(ka_utf8_char_len("\xf0\x9f\x98\x80", 4), 4); /* U+1F600 */
	assert_int_equal(ka_utf8_char_len(LQ, 2), 0);                 /* cut */
	assert_int_equal(ka_utf8_char_len("\x80", 1), 0);             /* a stray continuation */
	assert_int_equal(ka_utf8_char_len("\xc0\xaf", 2), 0);         /* overlong */
	assert_int_equal(ka_utf8_char_len("\xe0\x80\xaf", 3), 0);     /* overlong */
	assert_int_equal(ka_utf8_char_len("\xed\xa0\x80", 3), 0);     /* a surrogate */
	assert_int_equal(ka_utf8_char_len("\xf4\x90\x80\x80", 4), 0); /* past U+10FFFF */
	assert_int_equal(ka_utf8_char_len("\xe2\x28\xa1", 3), 0);     /* a bad continuation */
}

static void test_cut(void **st)
{
	(void)st;
	static const char s[] = "ab" LQ "c" RQ; /* a b [3] c [3]: 9 bytes */
	static const size_t want[] = {0, 1, 2, 2, 2, 5, 6, 6, 6, 9};
	for (size_t n = 0; n <= 9; n++)
		if (ka_utf8_cut(s, n) != want[n])
			fail_msg("cut at %zu: %zu, not %zu", n, ka_utf8_cut(s, n), want[n]);
	assert_int_equal(ka_utf8_cut("\xf0\x9f\x98\x80", 3), 0);
	assert_int_equal(ka_utf8_cut("\x80\x80", 2), 2); /* no lead: not a cut character */
}

static void test_copy(void **st)
{
	(void)st;
	char out[16];
	/* a cap inside a character drops the character */
	assert_int_equal(ka_utf8_copy(out, 5, "ab" LQ "c", (size_t)-1), 2);
	assert_string_equal(out, "ab");
	assert_int_equal(ka_utf8_copy(out, 6, "ab" LQ "c", (size_t)-1), 5);
	assert_string_equal(out, "ab" LQ);
	/* n cuts too, and a NUL ends the text */
	assert_int_equal(ka_utf8_copy(out, sizeof out, "ab" LQ "c", 4), 2);
	assert_int_equal(ka_utf8_copy(out, sizeof out, "ab\0cd", 5), 2);
	/* invalid bytes become '?' */
	assert_int_equal(ka_utf8_copy(out, sizeof out,
				      "a\x80"
				      "b\xc3(\xff",
				      (size_t)-1),
			 6);
	assert_string_equal(out, "a?b?(?");
	/* in place */
	char buf[] = "x\xe2\x80y" LQ;
	assert_int_equal(ka_utf8_copy(buf, sizeof buf, buf, sizeof buf), 7);
	assert_string_equal(buf, "x??y" LQ);
	assert_int_equal(ka_utf8_copy(out, 1, "abc", 3), 0);
	assert_string_equal(out, "");
}

int run_utf8_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_char_len),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_copy),
	};
	return cmocka_run_group_tests_name("utf8", tests, NULL, NULL);
}
