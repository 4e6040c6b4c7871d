/* analyzer/ptxas.h: optional enrichment from `nvcc -Xptxas -v`: registers,
 * spill bytes and static shared memory per kernel, joined by mangled name. */
#ifndef KA_ANALYZER_PTXAS_H
#define KA_ANALYZER_PTXAS_H
#include <sqlite3.h>
#include "analyzer/analyzer.h"

/* Run nvcc on path and update the kernel rows.  KA_ETOOL when nvcc is
 * missing or fails. */
int ka_ptxas_join(const ka_analyze_opts *o, const ka_arch *arch, const char *path, sqlite3 *db);
/* Parse ptxas -v output text and update kernel rows (exposed for tests). */
int ka_ptxas_parse(const char *text, sqlite3 *db);

#endif
