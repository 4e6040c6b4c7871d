/* analyzer/ptxas.h: optional enrichment from `nvcc -Xptxas -v`: registers,
 * spill bytes and static shared memory per kernel, joined by mangled name. */
#ifndef KA_ANALYZER_PTXAS_H
#define KA_ANALYZER_PTXAS_H
#include <sqlite3.h>
#include "analyzer/analyzer.h"
#include "util/buf.h"

/* Run nvcc on path and update the kernel rows.  KA_ETOOL when nvcc is
 * missing or fails. */
int ka_ptxas_join(const ka_analyze_opts *o, const ka_arch *arch, const char *path, sqlite3 *db);
/* Run nvcc -Xptxas -v on path; its output is appended to out. */
int ka_ptxas_run(const ka_analyze_opts *o, const ka_arch *arch, const char *path, ka_buf *out);
/* Without --ptxas: when nvcc is installed and a kernel has a per-thread
 * array indexed at run time, ask ptxas whether it really lives in local
 * memory (kernel.stack_bytes).  The output is cached by the file's content
 * hash under $XDG_CACHE_HOME/kernelarc (or ~/.cache/kernelarc); a failure
 * leaves the facts as they are and is not an error. */
void ka_ptxas_confirm_lmem(const ka_analyze_opts *o, const ka_arch *arch, const char *path, sqlite3 *db);
/* Parse ptxas -v output text and update kernel rows (exposed for tests). */
int ka_ptxas_parse(const char *text, sqlite3 *db);

#endif
