/* rules/baseline.h: a file of accepted findings so that old ones do not
 * fail CI while new ones do (`kcheck --baseline FILE`).
 *
 * A finding matches a baseline entry with the same file, rule, message and
 * fingerprint (a hash of the flagged source line with its indentation
 * trimmed), so entries survive code moving up or down.  Each entry absorbs
 * one finding; file paths are as kcheck prints them. */
#ifndef KA_RULES_BASELINE_H
#define KA_RULES_BASELINE_H
#include "rules/finding.h"
#include "rules/source.h"

typedef struct ka_baseline ka_baseline;

/* A finding's fingerprint: a hash of its source line with the blanks
 * around it trimmed, 16 hex digits (also SARIF's partialFingerprints). */
void ka_baseline_fingerprint(ka_sources *src, const ka_finding *f, char out[17]);

/* Write fs as a baseline (atomically).  KA_OK or < 0. */
int ka_baseline_write(const char *path, const ka_findings *fs, ka_sources *src);
/* KA_EIO when unreadable, KA_EINPUT with "PATH:LINE:COL: ..." when malformed. */
int ka_baseline_load(const char *path, ka_baseline **out);
/* Drop the findings the baseline accepts; returns how many were dropped. */
size_t ka_baseline_filter(ka_baseline *b, ka_findings *fs, ka_sources *src);
size_t ka_baseline_count(const ka_baseline *b);
void ka_baseline_free(ka_baseline *b);

#endif
