/* agents/scaffold.h: `kcheck bench init FILE --kernel NAME [--out DIR]`:
 * a bench task (docs/bench.md) scaffolded from one kernel's facts, so that
 * someone with a .cu file and no task can bench and optimize it:
 *   task.yaml     params = the kernel's integer parameters, tensors = its
 *                 pointer parameters (role out when the kernel stores
 *                 through them or an alias of them, else in; dtype from the
 *                 element type; shape from the integer parameters that bound
 *                 or index their accesses), scalars = its floating-point
 *                 parameters, placeholder sizes, tolerance, bytes and FLOPs;
 *   baseline.cu   the file with a ka_task_run that launches the kernel over
 *                 its bound (1-D, or 2-D for an x/y thread index pair);
 *   reference.cu  a stub that fails until the user writes the reference.
 * Lines the user must check carry "TODO". */
#ifndef KA_AGENTS_SCAFFOLD_H
#define KA_AGENTS_SCAFFOLD_H

/* KA_OK, or a negative KA_E* with a one-line message (no such kernel, a
 * parameter type the bench has no dtype for, DIR exists and is not empty). */
int ka_scaffold_task(const char *file, const char *kernel, const char *out_dir);

#endif
