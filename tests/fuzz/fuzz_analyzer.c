/* tests/fuzz/fuzz_analyzer.c: libFuzzer target for the analyzer (front-end
 * lowering, index analysis, warp model, facts writer).
 *
 * The first input byte picks the mode: below 0x20 the rest of the input is
 * the source file itself (raw bytes: syntax errors, odd tokens, binary junk);
 * otherwise the bytes drive the kernel grammar of kernel_gen.c, which makes
 * valid CUDA (or HIP, for odd first bytes) that reaches the deep analysis.
 * The source goes to a temporary file, `ka_analyze_file` appends its facts
 * to a fresh in-memory database, and the facts are checked against
 * invariants that hold for any kernel; a violation aborts, so libFuzzer
 * reports it like a crash.
 *
 * Shim headers are used by default (about 10x faster than the real CUDA
 * headers); set KA_FUZZ_REAL_HEADERS=1 to parse with the toolkit's.
 *
 * Build: cmake -DKA_FUZZ=ON -DCMAKE_C_COMPILER=clang-19 ...; run:
 *   fuzz_analyzer -max_total_time=600 -max_len=2048 tests/fuzz/seeds */
#include "analyzer/analyzer.h"
#include "kernel_gen.h"
#include "util/error.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RAW_MODE_BELOW 0x20

/* ASan keeps freed memory in a quarantine of 256 MB by default; a long run
 * fills it, and RSS climbs from about 130 MB to about 550 MB without any
 * state of kcheck or libclang surviving a parse (measured: 1,500 runs, 495
 * -> 546 MB by default, 130 -> 138 MB with no quarantine).  64 MB still
 * holds every block freed within one input many times over. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=64";
}

/* Each query returns the number of rows that break an invariant. */
static const char *const invariants[] = {
	"SELECT count(*) FROM access WHERE lanes IS NOT NULL AND"
	" (lanes < 1 OR lanes > (SELECT max(warp_size) FROM arch))",
	"SELECT count(*) FROM access WHERE sectors_per_request IS NOT NULL AND"
	" (sectors_per_request < 1 OR sectors_per_request > lanes * ((access_bytes + 31) / 32 + 1))",
	"SELECT count(*) FROM access WHERE ideal_sectors IS NOT NULL AND lanes IS NOT NULL"
	" AND access_bytes IS NOT NULL AND ideal_sectors <> (lanes * access_bytes + 31) / 32",
	"SELECT count(*) FROM access WHERE bank_ways IS NOT NULL AND"
	" (space <> 'shared' OR bank_ways < 1 OR bank_ways > lanes * ((access_bytes + 3) / 4))",
	"SELECT count(*) FROM access WHERE kind_tx NOT IN ('zero', 'const', 'symbolic', 'nonaffine')",
	"SELECT count(*) FROM access WHERE kind_tx = 'const' AND coef_tx IS NULL",
	"SELECT count(*) FROM kernel WHERE block_threads IS NOT NULL AND"
	" block_threads <> block_x * block_y * block_z",
	"SELECT count(*) FROM kernel WHERE kind = 'global' AND"
	" block_source NOT IN ('launch', 'launch_bounds', 'assumed')",
	"SELECT count(*) FROM loop WHERE trip_count < 0",
	"SELECT count(*) FROM branch WHERE uniformity NOT IN ('thread', 'warp', 'block', 'grid')",
	"SELECT count(*) FROM launch WHERE block_threads IS NOT NULL AND"
	" block_threads <> block_x * block_y * block_z",
	"SELECT count(*) FROM (SELECT line, begin_off, end_off FROM access UNION ALL"
	" SELECT line, begin_off, end_off FROM branch UNION ALL"
	" SELECT line, begin_off, end_off FROM call UNION ALL"
	" SELECT line, begin_off, end_off FROM launch)"
	" WHERE line < 1 OR begin_off < 0 OR end_off < begin_off",
};

static void check_invariants(sqlite3 *db, const char *src)
{
	for (size_t k = 0; k < sizeof(invariants) / sizeof(invariants[0]); k++) {
		sqlite3_stmt *st = NULL;
		long bad = 0;
		if (sqlite3_prepare_v2(db, invariants[k], -1, &st, NULL) != SQLITE_OK) {
			fprintf(stderr, "fuzz_analyzer: invariant %zu: %s\n", k, sqlite3_errmsg(db));
			abort();
		}
		if (sqlite3_step(st) == SQLITE_ROW)
			bad = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		if (bad) {
			fprintf(stderr,
				"fuzz_analyzer: invariant broken (%ld rows): %s\n"
				"--- source ---\n%s\n",
				bad, invariants[k], src);
			abort();
		}
	}
}

/* Write the source to a fresh temporary file; 0 on success. */
static int write_temp(const char *src, size_t len, int hip, char *path, size_t cap)
{
	const char *tmp = getenv("TMPDIR");
	int fd, ok;

	snprintf(path, cap, "%s/ka-fuzz-XXXXXX.%s", tmp && *tmp ? tmp : "/tmp", hip ? "hip" : "cu");
	fd = mkstemps(path, hip ? 4 : 3);
	if (fd < 0)
		return -1;
	ok = write(fd, src, len) == (ssize_t)len;
	close(fd);
	if (!ok) {
		unlink(path);
		return -1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ka_analyze_opts opts = KA_ANALYZE_OPTS_INIT;
	const char *real = getenv("KA_FUZZ_REAL_HEADERS");
	char path[4096];
	sqlite3 *db = NULL;
	ka_buf src;
	int hip = 0, raw = size > 0 && data[0] < RAW_MODE_BELOW;

	ka_buf_init(&src, 1 << 20);
	if (raw) {
		if (ka_buf_add(&src, data + 1, size - 1) != KA_OK)
			goto out;
	} else {
		hip = size > 0 && (data[0] & 1);
		if (ka_fuzzgen_source(size ? data + 1 : data, size ? size - 1 : 0, hip, &src) != KA_OK)
			goto out;
	}
	if (write_temp(src.data ? src.data : "", src.len, hip, path, sizeof path) != 0)
		goto out;
	opts.force_shim = !(real && *real == '1');
	if (ka_facts_open(&db) == KA_OK) {
		/* Errors in the input are data: any return code is fine, a crash
		 * or a sanitizer report is not. */
		(void)ka_analyze_file(&opts, path, db);
		if (!raw)
			check_invariants(db, src.data);
	}
	sqlite3_close(db);
	unlink(path);
out:
	ka_buf_free(&src);
	return 0;
}
