/* analyzer/arch.h: architecture profiles (warp size, shared-memory banks and
 * limits, registers, residency limits, SM count where it is fixed). */
#ifndef KA_ANALYZER_ARCH_H
#define KA_ANALYZER_ARCH_H
#include <stddef.h>

typedef struct ka_arch {
	const char *name;   /* sm_90, gfx942, ... */
	const char *vendor; /* nvidia | amd */
	const char *gpu;    /* a representative product */
	int warp_size;
	int smem_banks, bank_bytes;
	int smem_per_block;       /* default static+dynamic limit per block (bytes) */
	int smem_per_block_optin; /* with cudaFuncAttributeMaxDynamicSharedMemorySize */
	int smem_per_sm;
	int regs_per_sm, max_regs_per_thread;
	int max_threads_per_block, max_threads_per_sm, max_blocks_per_sm;
	int sm_count;     /* 0 when it varies by product */
	long l2_bytes;    /* 0 when it varies */
	int sector_bytes; /* global memory transaction granularity */
} ka_arch;

/* The target when none is named (--arch, .kcheck.yaml `arch:`). */
#define KA_ARCH_DEFAULT "sm_90"

/* NULL when unknown. */
const ka_arch *ka_arch_find(const char *name);
/* All profiles, NULL-terminated by a zero entry. */
const ka_arch *ka_arch_all(void);
/* The profile of KA_ARCH_DEFAULT. */
const ka_arch *ka_arch_default(void);
/* The names of all profiles, space-separated ("sm_70 sm_75 ... gfx1100"),
 * written to buf as snprintf does; returns the length of the whole list. */
size_t ka_arch_names(char *buf, size_t size);

#endif
