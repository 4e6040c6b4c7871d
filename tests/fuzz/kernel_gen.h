/* tests/fuzz/kernel_gen.h: turns a byte string into a random but valid CUDA
 * or HIP translation unit (kernels, device functions, shared/local arrays,
 * loops, branches, barriers, atomics, math calls, launches) for fuzzing the
 * analyzer's front-end lowering and index analysis.  Every byte drives one
 * choice; when the bytes run out each choice takes its simplest option, so
 * any input, even an empty one, gives a complete file. */
#ifndef KA_FUZZ_KERNEL_GEN_H
#define KA_FUZZ_KERNEL_GEN_H
#include <stddef.h>
#include <stdint.h>
#include "util/buf.h"

/* Append the generated source to out.  hip: 1 for a HIP file (launches
 * through hipLaunchKernelGGL).  Returns KA_OK or a negative KA_E* code. */
int ka_fuzzgen_source(const uint8_t *data, size_t size, int hip, ka_buf *out);

#endif
