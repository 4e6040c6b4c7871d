/* analyzer/frontend_pch.h: the cached precompiled header of the CUDA
 * toolkit's headers (frontend_pch.c). */
#ifndef KA_ANALYZER_FRONTEND_PCH_H
#define KA_ANALYZER_FRONTEND_PCH_H
#include "util/arena.h"
#include <clang-c/Index.h>

/* The path (in a) of a precompiled header built with exactly argv and the
 * in-memory headers, building it on first use; NULL when there is none to
 * use (HIP or shim parses, no cache folder, KCHECK_NO_PCH set, or its build
 * failed), and the caller parses without. */
const char *ka_frontend_pch(CXIndex idx, ka_arena *a, const char **argv, int argc,
			    struct CXUnsavedFile *unsaved, int nunsaved);

#endif
