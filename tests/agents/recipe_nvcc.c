/* tests/agents/recipe_nvcc.c: the compile check the recipe tests share
 * (tests/agents/recipe_nvcc.h). */
#include "tests/agents/recipe_nvcc.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "util/buf.h"
#include "util/error.h"
#include "util/proc.h"

#ifndef KA_SOURCE_DIR
#error "KA_SOURCE_DIR must be defined"
#endif

int nvcc_compiles(const char *text, char *err, size_t cap)
{
	const char *nvcc = ka_proc_find_nvcc();
	if (!nvcc)
		return -1;
	char dir[] = "/tmp/ka_recipe_XXXXXX", src[64], obj[64], inc[600];
	if (!mkdtemp(dir))
		return 0;
	snprintf(src, sizeof src, "%s/k.cu", dir);
	snprintf(obj, sizeof obj, "%s/k.o", dir);
	snprintf(inc, sizeof inc, "-I%s/bench/harness", KA_SOURCE_DIR);
	FILE *f = fopen(src, "w");
	if (!f) {
		rmdir(dir);
		return 0;
	}
	fputs(text, f);
	fclose(f);
	char *argv[] = {(char *)nvcc, "-arch=sm_90", "-c", inc, src, "-o", obj, NULL};
	ka_buf out;
	ka_buf_init(&out, 1 << 20);
	ka_proc_result r;
	int ok = ka_proc_run(argv, 300, &out, &r) == KA_OK && r.exited && r.status == 0;
	snprintf(err, cap, "%s", out.data ? out.data : "");
	ka_buf_free(&out);
	unlink(src);
	unlink(obj);
	rmdir(dir);
	return ok;
}
