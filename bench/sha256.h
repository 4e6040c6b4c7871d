/* bench/sha256.h: SHA-256 (FIPS 180-4), for the content hashes that the
 * bench's object cache checks before it reuses an entry. */
#ifndef KA_BENCH_SHA256_H
#define KA_BENCH_SHA256_H
#include <stddef.h>
#include <stdint.h>

typedef struct ka_sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t nbuf;
} ka_sha256;

void ka_sha256_init(ka_sha256 *c);
void ka_sha256_add(ka_sha256 *c, const void *data, size_t n);
/* Writes 64 lowercase hex digits and a NUL into hex[65]. */
void ka_sha256_hex(ka_sha256 *c, char hex[65]);

#endif
