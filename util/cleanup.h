/* util/cleanup.h: what an interrupted kcheck undoes.  Temporary files
 * (atomic writes, the compile gate's copy) and the process groups of the
 * tools it runs (nvcc, hipcc) are registered while they exist; on SIGINT,
 * SIGTERM or SIGHUP the handler kills those groups, removes those files
 * (and the private folders that held them) and lets the signal end the
 * process as it would have.  Registration is lock-free and
 * async-signal-safe, so workers of -j N may use it. */
#ifndef KA_UTIL_CLEANUP_H
#define KA_UTIL_CLEANUP_H
#include <sys/types.h>

/* Install the handlers (once; a signal the parent ignores stays ignored). */
void ka_cleanup_install(void);
/* Remember a temporary file to remove on a signal; a slot number, or -1
 * when every slot is taken (the file is then simply not swept). */
int ka_cleanup_add_file(const char *path);
void ka_cleanup_remove_file(int slot);
/* Remember a private folder to remove on a signal, and `levels` of its
 * parents (each only once empty, after the files above are gone): a
 * temporary tree of nested folders.  A slot, or -1. */
int ka_cleanup_add_dirs(const char *deepest, int levels);
/* Remember a flat temporary folder (files only, no subfolders) to empty
 * and remove on a signal; a slot, or -1. */
int ka_cleanup_add_dir(const char *path);
/* Forget a folder slot of either kind once the folder is gone. */
void ka_cleanup_remove_dir(int slot);
/* Remember a child's process group to kill on a signal; a slot, or -1. */
int ka_cleanup_add_group(pid_t pgid);
void ka_cleanup_remove_group(int slot);

/* In a forked child: forget what the parent registered (its temporaries,
 * its other children's groups are the parent's to clean), keeping the
 * handlers for what the child itself registers. */
void ka_cleanup_forget_all(void);

#endif
