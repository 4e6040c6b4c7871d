/* rules/finding.h: a finding = one rule firing on one facts row.
 *
 * Findings are values (plain structs owning their strings) so they outlive
 * the per-file facts database: -j N workers hand them to the main thread,
 * which sorts, filters (suppressions, baseline) and reports them.  The
 * rewriter needs the facts row a finding came from: `scope` + `row_id`
 * name it, and ka_finding_row() fetches it while that database is open.
 */
#ifndef KA_RULES_FINDING_H
#define KA_RULES_FINDING_H
#include <sqlite3.h>
#include <stddef.h>
#include "rules/rule.h"

/* What the knowledge DB measured when this finding's rule was fixed on the
 * run's arch (attached by lint through ka_lint_opts.evidence; docs/lint.md,
 * "Evidence").  A plain value: no pointers. */
typedef struct ka_finding_evidence {
	char arch[32];          /* where it was measured: the run's target */
	int wins;               /* verified faster */
	int failures;           /* verified same, slower or incorrect */
	int errors;             /* candidates that did not build (not counted above) */
	double median, lo, hi;  /* the wins' speedups: median, lowest, highest; 0 = no win */
	double static_estimate; /* the rule's own estimate before the correction; 0 = none */
	char text[160];         /* "fixed 7 times on sm_90, median 4.3x [3.1, 6.0]" */
} ka_finding_evidence;

typedef struct ka_finding {
	char *file;
	int line, col, end_line, end_col; /* 1-based; columns in bytes */
	long begin_off, end_off;          /* byte offsets, end exclusive; -1 unknown */
	char *rule;                       /* rule id */
	ka_severity severity;             /* from the impact band, capped by the rule */
	char *message;                    /* rendered template (+ assumption, impact) */
	double estimate;                  /* estimated slowdown factor; 0 = none */
	char *basis;                      /* rendered basis of the estimate, or NULL */
	char *kernel;                     /* NULL in host code */
	char **also;                      /* other kernels that reach the same code (a
					     __device__ helper they share) and got the
					     same finding: one report, not one per kernel */
	size_t nalso;
	char *fix; /* transform name or NULL */
	ka_fix_safety fix_safety;
	char *scope;                   /* facts table of the row */
	long long row_id;              /* its id (or rowid) */
	ka_finding_evidence *evidence; /* measured evidence, or NULL; estimate and
					  severity are then the corrected ones */
	int cold;                      /* in a kernel the host launches outside its loops, next to one it
		     launches in a loop (docs/rules.md, "Cold kernels"): at most a note */
	int standalone;                /* from a __device__ function analysed on its own, no caller in its
					  file: dropped where the same run reports the same place and rule
					  in a kernel's context (ka_findings_sort_unique) */
	int *sites;                    /* a launch rule's finding: the lines of the other launches of the
					  same kernel in the file that got the same finding (grouped by
					  ka_findings_group_sites), ascending */
	size_t nsites;
} ka_finding;

typedef struct ka_findings {
	ka_finding *v;
	size_t n, cap;
} ka_findings;

#define KA_FINDINGS_INIT {0}

void ka_findings_free(ka_findings *fs);
/* Take ownership of *f's strings (f is zeroed). */
int ka_findings_push(ka_findings *fs, ka_finding *f);
/* Move all of src to the end of dst (src becomes empty). */
int ka_findings_move(ka_findings *dst, ka_findings *src);
/* Sort by file, line, col, rule, message; drop exact duplicates (a header
 * reached from two translation units reports once) and merge the findings
 * that differ only in their kernel (a helper two kernels call) into the
 * first, naming the others in `also`. */
void ka_findings_sort_unique(ka_findings *fs);
/* One report per kernel and launch configuration: findings of launch rules
 * (scope `launch`) that differ only in their line (the same file, rule,
 * kernel, message, severity and estimate: a template kernel launched from
 * every arm of a switch) are merged into the first, the others' lines kept
 * in `sites`.  Run after fixes are taken, so each site keeps its fix.
 * KA_OK, or KA_ENOMEM (fs is then left as it was). */
int ka_findings_group_sites(ka_findings *fs);
/* Order by impact: severity, then estimate (largest first), then location. */
void ka_findings_sort_impact(ka_findings *fs);
/* Remove entries where keep(f, ud) returns 0; order is kept. */
void ka_findings_filter(ka_findings *fs, int (*keep)(const ka_finding *, void *), void *ud);
void ka_finding_clear(ka_finding *f);
int ka_finding_cmp(const ka_finding *a, const ka_finding *b);
/* What a NULL or empty fact leaves in a rendered message, or NULL when the
 * message shows none: a bare `?` (a template's rendering of NULL: "line ?",
 * "?-dependent"; a `?` followed by a `:` within 120 bytes is a C ternary
 * quoted from the source, unless "line " precedes it or `-`, `)` or `,`
 * follows it), an empty name (two spaces in a row, `[]`, `''`, "``",
 * `(,`, `,)`, `{}`), or an empty kernel name.  `kcheck rules test` fails
 * an example whose findings show one (lint/ruletest.c). */
const char *ka_finding_message_defect(const ka_finding *f);

/* The facts row behind f: a prepared `SELECT * FROM scope WHERE id = ?`
 * stepped to the row (SQLITE_ROW).  Caller finalizes.  KA_ENOTFOUND when
 * the row is not in db. */
int ka_finding_row(sqlite3 *db, const ka_finding *f, sqlite3_stmt **out);

#endif
