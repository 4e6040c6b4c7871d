/* util/shsafe.h: what may reach nvcc.  kcheck starts nvcc, hipcc and ptxas
 * without a shell, but nvcc runs its own sub-tools (the host compiler,
 * cudafe++, cicc, ptxas, fatbinary) through /bin/sh, writing each argument
 * in double quotes, and uses the input file's base name unquoted (`rm
 * /tmp/tmpxft_..._NAME.fatbin`).  Inside double quotes `$`, backquotes, `"`
 * and `\` are still active, so a file name or a -D value holding `$(cmd)`
 * runs cmd.  Everything kcheck hands such a compiler therefore passes
 * ka_sh_safe: files go under names kcheck chose (util/safesrc.h), project
 * flags are checked where they enter (.kcheck.yaml, the flags after `--`,
 * the compile database), and the process runner (util/proc_run.c) checks
 * every argument of an nvcc-family program once more before it starts it. */
#ifndef KA_UTIL_SHSAFE_H
#define KA_UTIL_SHSAFE_H
#include <stddef.h>

/* 1 when s may be an argument of nvcc: printable ASCII other than
 * $ ` " ' \ ; and valid UTF-8 above it.  Otherwise 0, and why (when not
 * NULL, cap > 0) says which character, e.g. "'$' (nvcc's /bin/sh would
 * expand it)". */
int ka_sh_safe(const char *s, char *why, size_t cap);

/* 1 when s is a file name kcheck may give a compiler as it is: only
 * A-Z a-z 0-9 . _ - and not starting with '-' (nvcc leaves the base name
 * of its input unquoted in one of its commands). */
int ka_sh_safe_name(const char *s);

/* The project flags args[0..n) that reach a compiler (the ones
 * ka_proc_cc_flag keeps, with their separate values): the index of the
 * first one that is not ka_sh_safe, or -1 when all are.  why as above. */
int ka_sh_cc_unsafe(const char *const *args, int n, char *why, size_t cap);

/* 1 when the program argv0 runs its arguments through a shell the way
 * nvcc does: its base name holds nvcc, hipcc, ptxas, clang, cudafe, cicc
 * or nvc++, or it is $KCHECK_NVCC or $KCHECK_HIPCC. */
int ka_sh_nvcc_family(const char *argv0);

/* s as it may be shown on one line (controls and bytes above 0x7e as
 * \xNN), at most cap - 1 bytes, "..." when cut.  Returns dst. */
char *ka_sh_show(char *dst, size_t cap, const char *s);

#endif
