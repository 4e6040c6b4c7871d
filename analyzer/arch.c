/* analyzer/arch.c: architecture profiles.  Figures from the CUDA C++
 * Programming Guide's compute-capability tables and AMD's CDNA
 * documentation; the H200 row matches what we measured (132 SMs, 60 MB L2). */
#include "analyzer/arch.h"
#include <stdio.h>
#include <string.h>

static const ka_arch archs[] = {
	/* name  vendor gpu  warp banks bb smem/blk optin  smem/SM  regs/SM maxreg thr/blk thr/SM blk/SM SMs L2 sector */
	{"sm_70", "nvidia", "V100", 32, 32, 4, 49152, 98304, 98304, 65536, 255, 1024, 2048, 32, 80, 6L << 20,
	 32},
	{"sm_75", "nvidia", "T4", 32, 32, 4, 49152, 65536, 65536, 65536, 255, 1024, 1024, 16, 40, 4L << 20,
	 32},
	{"sm_80", "nvidia", "A100", 32, 32, 4, 49152, 166912, 167936, 65536, 255, 1024, 2048, 32, 108,
	 40L << 20, 32},
	{"sm_86", "nvidia", "RTX 30xx / A40", 32, 32, 4, 49152, 101376, 102400, 65536, 255, 1024, 1536, 16, 0,
	 0, 32},
	{"sm_89", "nvidia", "RTX 40xx / L40", 32, 32, 4, 49152, 101376, 102400, 65536, 255, 1024, 1536, 24, 0,
	 0, 32},
	{"sm_90", "nvidia", "H100 / H200", 32, 32, 4, 49152, 232448, 233472, 65536, 255, 1024, 2048, 32, 132,
	 60L << 20, 32},
	{"sm_100", "nvidia", "B200", 32, 32, 4, 49152, 232448, 233472, 65536, 255, 1024, 2048, 32, 148,
	 126L << 20, 32},
	{"gfx90a", "amd", "MI210 / MI250X", 64, 32, 4, 65536, 65536, 65536, 131072, 512, 1024, 2048, 32, 0,
	 8L << 20, 64},
	{"gfx942", "amd", "MI300X", 64, 32, 4, 65536, 65536, 65536, 131072, 512, 1024, 2048, 32, 304,
	 4L << 20, 64},
	{"gfx1100", "amd", "RX 7900 (wave32)", 32, 32, 4, 65536, 65536, 65536, 131072, 256, 1024, 2048, 32, 0,
	 6L << 20, 64},
	{0},
};

const ka_arch *ka_arch_find(const char *name)
{
	if (!name)
		return NULL;
	for (const ka_arch *a = archs; a->name; a++)
		if (strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

const ka_arch *ka_arch_all(void)
{
	return archs;
}

const ka_arch *ka_arch_default(void)
{
	return ka_arch_find(KA_ARCH_DEFAULT);
}

size_t ka_arch_names(char *buf, size_t size)
{
	size_t n = 0;
	if (size)
		buf[0] = '\0';
	for (const ka_arch *a = archs; a->name; a++) {
		int k = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, "%s%s",
				 a == archs ? "" : " ", a->name);
		n += k > 0 ? (size_t)k : 0;
	}
	return n;
}
