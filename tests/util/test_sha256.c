/* tests/util/test_sha256.c: util/sha256.h against FIPS 180-4's examples
 * and digests from another implementation at the padding boundaries (55,
 * 56, 63, 64 bytes: the length fits in the last block or needs one more),
 * fed whole and in uneven pieces. */
#include "test_util.h"
#include "util/sha256.h"
#include <stdlib.h>
#include <string.h>

static void fips_examples(void **state)
{
	ka_sha256 c;
	char hex[65];
	(void)state;
	ka_sha256_init(&c);
	ka_sha256_add(&c, "abc", 3);
	ka_sha256_hex(&c, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	ka_sha256_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	ka_sha256_of("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	/* a million 'a', added 1000 at a time */
	char *a = malloc(1000);
	assert_non_null(a);
	memset(a, 'a', 1000);
	ka_sha256_init(&c);
	for (int i = 0; i < 1000; i++)
		ka_sha256_add(&c, a, 1000);
	ka_sha256_hex(&c, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

static void padding_boundaries(void **state)
{
	static const struct {
		size_t n;
		const char *hex;
	} cases[] = {
		{55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"},
		{56, "4324d65f3c103567f5589c710bc08f8523f929a9272e3af36fc968e52abc6c27"},
		{63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"},
		{64, "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241"},
		{65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"},
		{119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"},
		{120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"},
	};
	unsigned char data[120];
	(void)state;
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (unsigned char)(i * 7 + 3);
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		char whole[65], pieces[65];
		ka_sha256 c;
		ka_sha256_of(data, cases[k].n, whole);
		assert_string_equal(whole, cases[k].hex);
		ka_sha256_init(&c); /* 1, 2, 3, ... bytes at a time */
		for (size_t at = 0, step = 1; at < cases[k].n; at += step, step++)
			ka_sha256_add(&c, data + at, at + step <= cases[k].n ? step : cases[k].n - at);
		ka_sha256_hex(&c, pieces);
		assert_string_equal(pieces, cases[k].hex);
	}
}

int run_sha256_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fips_examples),
		cmocka_unit_test(padding_boundaries),
	};
	return cmocka_run_group_tests_name("sha256", tests, NULL, NULL);
}
