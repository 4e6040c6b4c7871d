/* util/sha256.h: SHA-256 (FIPS 180-4), the one content hash of the
 * project: the bench's object cache checks it before it reuses an entry,
 * the knowledge DB keys skills and rule texts by it, the optimize loop
 * names candidates by it. */
#ifndef KA_UTIL_SHA256_H
#define KA_UTIL_SHA256_H
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
/* The three above on n bytes at data: their digest in hex[65]. */
void ka_sha256_of(const void *data, size_t n, char hex[65]);

#endif
