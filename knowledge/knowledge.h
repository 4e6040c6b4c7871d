/* knowledge/knowledge.h: the knowledge DB, KernelArc's long-term memory.
 *
 * A persistent SQLite file (default $XDG_DATA_HOME/kernelarc/knowledge.db,
 * else ~/.local/share/kernelarc/knowledge.db) that outlives every run:
 *   rules        the built-in rule files plus learned ones, each with a status
 *                (stable | preview | candidate | retired);
 *   evidence     what a rule's fix or a recipe did on a task, on a GPU: the
 *                paired speedup with its confidence interval and the verdict;
 *   skills       verified kernels (task, source, speedup);
 *   trajectory   every step of every optimize run (short-term memory, kept);
 *   FTS5 indexes over the rules' text and the skills, for BM25 retrieval.
 * A rule's standing on an architecture is computed from its evidence (Beta
 * posterior of "applied and verified faster", median verified speedup).
 *
 * Safety: WAL journal, a busy timeout, and every write in one IMMEDIATE
 * transaction, so concurrent kcheck runs on one file are safe and a crash
 * loses no committed evidence.  The schema carries PRAGMA user_version; an
 * older file is migrated in order, in one transaction, when opened.
 *
 * Errors: functions return KA_OK or a negative KA_E* code with the message
 * in ka_error_last() (util/error.h).  Strings passed in are copied; strings
 * handed out are owned as documented beside each function.  One ka_kdb
 * handle is used by one thread at a time (open one per thread or process).
 */
#ifndef KA_KNOWLEDGE_H
#define KA_KNOWLEDGE_H
#include <stddef.h>
#include "rules/rule.h"

typedef struct ka_kdb ka_kdb;

/* The schema version this build writes (PRAGMA user_version). */
#define KA_KDB_SCHEMA_VERSION 4

/* ka_kdb_open flags. */
#define KA_KDB_CREATE 1   /* create the file (and its folder) if missing */
#define KA_KDB_READONLY 2 /* never write; an outdated schema is an error */

/* The default path into buf: $KCHECK_DB when set, else
 * $XDG_DATA_HOME/kernelarc/knowledge.db, else
 * $HOME/.local/share/kernelarc/knowledge.db.  KA_OK, or KA_ENOTFOUND when
 * neither variable is set, KA_ETOOBIG when it does not fit. */
int ka_kdb_default_path(char *buf, size_t cap);

/* Open (and migrate) the DB at path (NULL = the default path).  Without
 * KA_KDB_CREATE a missing file is KA_ENOTFOUND (no message is set: the
 * caller decides whether that matters).  A file from a newer kcheck is
 * KA_EINPUT. */
int ka_kdb_open(ka_kdb **out, const char *path, int flags);
void ka_kdb_close(ka_kdb *db);
/* The path the handle was opened on. */
const char *ka_kdb_path(const ka_kdb *db);

/* ---- rules ------------------------------------------------------------ */

/* Bring the rules table up to date with a loaded rule set (built-in files
 * and --rules-dir files): new or changed texts are written, unchanged ones
 * left alone; a rule's status comes from its file's `status:` field
 * (default stable).  Learned rules (added below) are not touched. */
int ka_kdb_sync_rules(ka_kdb *db, const ka_ruleset *rs);
/* Parse and check one rule file's text as `kcheck rules test` loads it
 * (name: what its messages call it): *out the one-rule set (caller frees
 * it with ka_ruleset_free), or the loader's first problem as the error. */
int ka_kdb_parse_rule(const char *name, const char *text, ka_ruleset **out);
/* Add or replace a learned rule: its Markdown rule file text and a status
 * ("candidate" for a rule distilled from one win).  The id is read from
 * the text's front matter when id is NULL. */
int ka_kdb_add_rule(ka_kdb *db, const char *id, const char *text, const char *status);
/* A rule distilled from one verified win (agents/distill.h) and that win
 * as its first evidence row, in one transaction.  The rule is stored as a
 * candidate; its id must be new to the DB (KA_EINPUT "rule id 'X' is
 * taken": a distilled rule never replaces another).  first->rule is not
 * read: the row is filed under the text's id. */
struct ka_kdb_evidence;
int ka_kdb_add_learned(ka_kdb *db, const char *text, const struct ka_kdb_evidence *first);
/* Every learned rule that is not retired, by id: fn(ud, id, status, text),
 * the strings valid during the call.  A non-zero return of fn stops the
 * walk and is returned. */
typedef int (*ka_kdb_rule_fn)(void *ud, const char *id, const char *status, const char *text);
int ka_kdb_learned_each(ka_kdb *db, ka_kdb_rule_fn fn, void *ud);
/* One rule's row: *text (malloc'd, caller frees; may be NULL to skip),
 * origin (builtin | file | learned) and status, each 16 bytes.
 * KA_ENOTFOUND when the DB has no such rule. */
int ka_kdb_rule_get(ka_kdb *db, const char *id, char **text, char origin[16], char status[16]);
/* The rule's status into buf ("stable", ...); KA_ENOTFOUND when unknown. */
int ka_kdb_rule_status(ka_kdb *db, const char *id, char *buf, size_t cap);
int ka_kdb_set_rule_status(ka_kdb *db, const char *id, const char *status);

/* ---- evidence --------------------------------------------------------- */

/* Bench verdicts (docs/bench.md).  faster, same, slower and rejected
 * (incorrect) are verified outcomes and count in the standing; error (did
 * not build) is recorded but not counted. */
typedef struct ka_kdb_evidence {
	const char *rule;        /* rule id that called for the change (required) */
	const char *fix;         /* transform or recipe name; NULL */
	const char *task;        /* bench task name; NULL */
	const char *kernel_hash; /* SHA-256 hex of the candidate source; NULL */
	const char *gpu;         /* "NVIDIA H200"; NULL */
	const char *arch;        /* "sm_90", "gfx942" (required) */
	double speedup;          /* paired speedup baseline/candidate; 0 = not measured */
	double ci_low, ci_high;  /* its confidence interval */
	const char *verdict;     /* faster | same | slower | rejected | error */
	long long when;          /* unix seconds; 0 = now */
} ka_kdb_evidence;

/* Record one row (one transaction; the rule's status follows: a candidate
 * with >= KA_KDB_RETIRE_FAILURES verified failures and a posterior below
 * KA_KDB_RETIRE_POSTERIOR is retired; a candidate with verified wins on
 * two distinct tasks becomes preview).  *id_out (may be NULL) gets the
 * row id. */
int ka_kdb_add_evidence(ka_kdb *db, const ka_kdb_evidence *e, long long *id_out);

/* The evidence rows of rule, oldest first: fn(ud, row), the strings valid
 * during the call; a non-zero return of fn stops the walk and is returned. */
typedef int (*ka_kdb_evidence_fn)(void *ud, const ka_kdb_evidence *e);
int ka_kdb_evidence_each(ka_kdb *db, const char *rule, ka_kdb_evidence_fn fn, void *ud);

#define KA_KDB_RETIRE_FAILURES 3
#define KA_KDB_RETIRE_POSTERIOR 0.2

/* A rule's standing, from its evidence.  posterior is the mean of
 * Beta(1 + wins, 1 + failures); the speedups are over the verified wins. */
typedef struct ka_kdb_standing {
	int verified;          /* wins + failures */
	int wins;              /* verdict faster */
	int failures;          /* same, slower, rejected */
	int errors;            /* did not build (not in the posterior) */
	double posterior;      /* 0.5 with no evidence */
	double median, lo, hi; /* of the wins' speedups; 0 when no win */
	double gain;           /* geometric mean of the verified outcomes' speedups,
				      a failure counted as max(speedup, 1) (1 when
				      rejected); 1 with no evidence */
	int tasks;             /* distinct tasks with a win */
} ka_kdb_standing;

/* Standing of rule (fix: only rows with that fix; NULL any) on arch (NULL
 * = every arch).  No evidence is not an error: verified = 0. */
int ka_kdb_standing_get(ka_kdb *db, const char *rule, const char *fix, const char *arch,
			ka_kdb_standing *out);
/* "fixed 7 times on sm_90, median 4.3x [3.1, 6.0]" (+ ", 2 failures"), or
 * "tried 3 times on sm_90, never faster"; "" when verified + errors = 0.
 * arch NULL reads "on all GPUs". */
void ka_kdb_standing_text(const ka_kdb_standing *s, const char *arch, char *buf, size_t cap);
/* A finding's static estimate (slowdown factor) corrected by the evidence:
 * the weighted geometric mean of the estimate (weight KA_KDB_PRIOR_WEIGHT)
 * and the measured gain (weight = verified outcomes),
 *   exp((w0 ln(estimate) + verified ln(gain)) / (w0 + verified)).
 * No verified evidence, or no estimate (<= 0): estimate unchanged. */
#define KA_KDB_PRIOR_WEIGHT 2.0
double ka_kdb_corrected_estimate(double estimate, const ka_kdb_standing *s);
/* The same, reading the evidence itself (rule on arch). */
int ka_kdb_correct_estimate(ka_kdb *db, const char *rule, const char *arch, double estimate, double *out);

/* ---- skills and trajectories ----------------------------------------- */

typedef struct ka_kdb_skill {
	const char *task;    /* required */
	const char *arch;    /* NULL = unknown */
	const char *source;  /* the verified kernel source (required) */
	const char *summary; /* what was done ("warp per row + shuffle"); NULL */
	const char *rules;   /* rule ids / recipes it applied, space-separated; NULL */
	double speedup;      /* verified, over the task's baseline */
	long long when;      /* unix seconds; 0 = now */
} ka_kdb_skill;

/* Store a verified kernel (its SHA-256 computed here); a second add of the
 * same source for the same task keeps the larger speedup.  hash_out (65
 * bytes, may be NULL) gets the source hash. */
int ka_kdb_add_skill(ka_kdb *db, const ka_kdb_skill *s, char hash_out[65]);
/* The best skill of a task (arch NULL = any): *source and *summary are
 * malloc'd (caller frees; summary may be NULL).  KA_ENOTFOUND when none. */
int ka_kdb_best_skill(ka_kdb *db, const char *task, const char *arch, char **source, char **summary,
		      double *speedup);

/* One trajectory row.  outcome: compile_error | incorrect | slower | same |
 * faster | unverified (bench verdicts map onto these), or declined (the
 * recipe did not apply), known (measured in an earlier run, not benched
 * again), error (the step broke before a verdict). */
typedef struct ka_kdb_step {
	const char *run_id;   /* required; the caller names its run */
	int step;             /* 1, 2, ... */
	const char *task;     /* NULL */
	const char *role;     /* planner | coder | verifier | summarizer; NULL */
	const char *strategy; /* rule id, transform or recipe */
	const char *params;   /* its parameters, canonical text ("bs=256"); NULL */
	const char *candidate_hash;
	const char *outcome;
	double speedup, ci_low, ci_high;
	const char *error; /* first error line, capped at 1 KiB; NULL */
	long long when;    /* 0 = now */
	const char *arch;  /* the target it was measured on; NULL */
} ka_kdb_step;

int ka_kdb_add_step(ka_kdb *db, const ka_kdb_step *s);
/* 1 when strategy with these params (NULL = none) already has a step in
 * run_id with a failed outcome (compile_error, incorrect, slower, same),
 * 0 when not, < 0 on error: a strategy that failed is never retried with
 * the same parameters. */
int ka_kdb_failed_before(ka_kdb *db, const char *run_id, const char *strategy, const char *params);
/* 1 when a candidate with this source hash has a trajectory step for task
 * on arch whose outcome was not a win (same, slower, incorrect): that
 * outcome, its speedup and CI go to the out-parameters (any may be NULL).
 * 0 when there is none, < 0 on error.  The optimize loop does not bench
 * such a candidate again: a recipe is deterministic, so the same candidate
 * comes from the same kernel, and what it measured then it measures now. */
int ka_kdb_measured_before(ka_kdb *db, const char *task, const char *arch, const char *kernel_hash,
			   char *verdict, size_t cap, double *speedup, double *ci_low, double *ci_high);

/* ---- retrieval --------------------------------------------------------- */

typedef struct ka_kdb_hit {
	char id[128];    /* rule id, or the skill's source hash */
	char title[160]; /* rule title, or the skill's task */
	double bm25;     /* SQLite's bm25(): lower (more negative) is better */
} ka_kdb_hit;

/* The k best matches for a set of features (words such as fact names,
 * rule ids, "atomic", "row-wise", "transpose"), BM25-ranked.  kind "rule"
 * searches rule ids, titles, tags and text (retired rules are left out);
 * kind "skill" searches skills' tasks, summaries, rules and sources.  The
 * two are asked apart: BM25 scores of different tables do not compare.
 * Each word is searched as a literal token (no FTS5 query syntax gets
 * through).  *nout gets the count. */
int ka_kdb_retrieve(ka_kdb *db, const char *kind, const char *const *features, int nfeatures, ka_kdb_hit *out,
		    int k, int *nout);

/* ---- sharing ------------------------------------------------------------ */

typedef struct ka_kdb_counts {
	int rules, evidence, skills;
} ka_kdb_counts;

/* Write DIR/rules/<id>.md for every learned rule and preview/candidate
 * status change, DIR/evidence.json and DIR/skills.json.  DIR is created. */
int ka_kdb_export(ka_kdb *db, const char *dir, ka_kdb_counts *counts);
/* Read an export back: rules are added (a learned rule keeps the status
 * in the file), evidence rows already present (same rule, fix, task,
 * kernel hash, arch, verdict, speedup, date) are skipped, so importing
 * twice adds nothing.  One transaction: a bad file imports nothing. */
int ka_kdb_import(ka_kdb *db, const char *dir, ka_kdb_counts *counts);
/* Validate an export without touching any DB: DIR is imported into a
 * scratch in-memory DB, so every file, entry and rule text is checked as
 * ka_kdb_import checks it.  KA_OK with the counts it would add to an
 * empty DB, or the error ka_kdb_import would give. */
int ka_kdb_import_check(const char *dir, ka_kdb_counts *counts);
/* Row counts of the tables. */
int ka_kdb_counts_get(ka_kdb *db, ka_kdb_counts *counts, int *steps);

/* ---- statistics (knowledge/knowledge_stats.c) ---------------------------- */

/* Verdicts in the order of the tallies below. */
#define KA_KDB_NVERDICTS 5 /* faster, same, slower, rejected, error */

typedef struct ka_kdb_stats {
	int rules[4];                   /* by status: stable, preview, candidate, retired */
	int learned;                    /* of them, learned (not from a rule file) */
	int evidence;                   /* rows */
	int verdicts[KA_KDB_NVERDICTS]; /* rows by verdict */
	int skills;
	int runs, steps; /* optimize runs (trajectories) and their steps */
} ka_kdb_stats;

int ka_kdb_stats_get(ka_kdb *db, ka_kdb_stats *out);
/* The evidence rows of each (rule, arch) pair, by verdict, ordered by rule
 * then arch: fn(ud, rule, arch, count), the strings valid during the call;
 * rule NULL = every rule.  A non-zero return of fn stops the walk and is
 * returned. */
typedef int (*ka_kdb_tally_fn)(void *ud, const char *rule, const char *arch,
			       const int count[KA_KDB_NVERDICTS]);
int ka_kdb_tally_each(ka_kdb *db, const char *rule, ka_kdb_tally_fn fn, void *ud);

#endif
