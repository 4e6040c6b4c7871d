/* tests/fuzz/gen_kernels.c: writes random kernel files with the fuzzing
 * grammar (kernel_gen.c), for the seed corpus and the smoke test that runs
 * `kcheck facts` over generated kernels without libFuzzer.
 *
 * Usage: gen_kernels OUTDIR COUNT [SEED]
 * Writes OUTDIR/gen_NNN.cu (every fifth file a .hip).  The same SEED gives
 * the same files. */
#include "kernel_gen.h"
#include "util/fs.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s)
{
	/* xorshift64*: small, deterministic, good enough for choices */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static int write_one(const char *dir, int idx, uint64_t *state)
{
	uint8_t bytes[1024];
	size_t n = 16 + (size_t)(next(state) % (sizeof(bytes) - 16));
	int hip = idx % 5 == 4, rc;
	char path[4096];
	ka_buf src;

	for (size_t k = 0; k < n; k++)
		bytes[k] = (uint8_t)(next(state) >> 56);
	ka_buf_init(&src, 1 << 20);
	rc = ka_fuzzgen_source(bytes, n, hip, &src);
	if (rc == KA_OK) {
		snprintf(path, sizeof path, "%s/gen_%03d.%s", dir, idx, hip ? "hip" : "cu");
		rc = ka_fs_write_atomic(path, src.data, src.len);
	}
	ka_buf_free(&src);
	return rc;
}

int main(int argc, char **argv)
{
	uint64_t state;
	int count;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: gen_kernels OUTDIR COUNT [SEED]\n");
		return 2;
	}
	count = atoi(argv[2]);
	state = argc == 4 ? strtoull(argv[3], NULL, 0) : 1;
	if (state == 0)
		state = 1;
	for (int i = 0; i < count; i++) {
		if (write_one(argv[1], i, &state) != KA_OK) {
			fprintf(stderr, "gen_kernels: error: %s\n", ka_error_last());
			return 2;
		}
	}
	return 0;
}
