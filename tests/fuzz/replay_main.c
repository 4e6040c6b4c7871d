/* tests/fuzz/replay_main.c: a main() for the fuzz target without libFuzzer.
 * It feeds each file named on the command line (folders: every file in
 * them) to LLVMFuzzerTestOneInput once, so the seed corpus and the saved
 * crash reproducers (regressions/) run under plain ctest with any compiler:
 * a crash, a sanitizer report or a broken facts invariant (abort) fails the
 * test.  Usage: fuzz_replay FILE_OR_DIR... */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define REPLAY_MAX_BYTES (1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replayed;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (!f) {
		fprintf(stderr, "fuzz_replay: error: cannot open %s\n", path);
		return 2;
	}
	buf = malloc(REPLAY_MAX_BYTES);
	if (!buf) {
		fclose(f);
		return 2;
	}
	n = fread(buf, 1, REPLAY_MAX_BYTES, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	printf("ok   %s\n", path);
	replayed++;
	return 0;
}

static int replay_dir(const char *dir)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort), rc = 0;

	if (n < 0) {
		fprintf(stderr, "fuzz_replay: error: cannot read %s\n", dir);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];
		if (names[i]->d_name[0] != '.' && rc == 0) {
			snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
			rc = replay_file(path);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fuzz_replay FILE_OR_DIR...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat sb;
		int rc;
		if (stat(argv[i], &sb) != 0) {
			fprintf(stderr, "fuzz_replay: error: %s does not exist\n", argv[i]);
			return 2;
		}
		rc = S_ISDIR(sb.st_mode) ? replay_dir(argv[i]) : replay_file(argv[i]);
		if (rc)
			return rc;
	}
	printf("%d inputs replayed without a crash\n", replayed);
	return 0;
}
