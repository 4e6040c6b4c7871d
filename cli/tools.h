/* cli/tools.h: the kcheck command-line tool's shared declarations.
 *
 * The CLI is argv, config and help -> the lint library (lint/lint.h) ->
 * report -> exit status.  One file per job, like curl's src/tool_*.c:
 *   tool_main.c      main(): subcommand dispatch
 *   tool_opts.c      the lint's option table: argv, .kcheck.yaml keys and --help
 *                    (util/cmdopt.h reads every command's table; optimize's
 *                    and bench init's are in tool_optimize.c, bench's in
 *                    bench/bench.c and bench/scale.c)
 *   tool_getparam.c  argv -> ka_tool_cfg
 *   tool_parsecfg.c  .kcheck.yaml (nearest parent folder) -> ka_tool_cfg
 *   tool_lint.c      the lint run: options -> ka_lint -> report, exit status
 *   tool_rules.c     kcheck rules list|show|new|test, --explain
 *   tool_help.c      --help, --version, error lines
 *   tool_facts.c     kcheck facts ... (the analyzer's dump)
 *   tool_fixllm.c    --fix/--diff with an LLM: rewrites for findings that
 *                    have no mechanical fix, gated (and benched) first
 *   tool_knowledge.c kcheck knowledge stats|show|export|import (the knowledge DB)
 *   tool_evidence.c  the knowledge DB for lint: opened read-only, the
 *                    findings' evidence, the standing --explain prints
 * kcheck bench ... is bench/bench.h's ka_bench_main.
 */
#ifndef KA_CLI_TOOLS_H
#define KA_CLI_TOOLS_H
#include <stdio.h>
#include "lint/lint.h"
#include "rules/finding.h"
#include "rules/rule.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/cmdopt.h"
#include "util/error.h"

typedef struct ka_tool_evidence ka_tool_evidence; /* tool_evidence.c */

#define KA_EXIT_CLEAN 0
#define KA_EXIT_FINDINGS 1
#define KA_EXIT_ERROR 2

/* Enums of the options, parsed once (tool_opts.c's choices, in order). */
enum { KA_FORMAT_TEXT, KA_FORMAT_JSON, KA_FORMAT_SARIF, KA_FORMAT_GITHUB, KA_FORMAT_CONCISE }; /* --format */
enum { KA_FAIL_ERROR, KA_FAIL_WARNING, KA_FAIL_NOTE, KA_FAIL_NONE };                           /* --fail-on */
enum { KA_COLOR_AUTO, KA_COLOR_ALWAYS, KA_COLOR_NEVER };                                       /* --color */
enum { KA_SORT_LOCATION, KA_SORT_IMPACT };                                                     /* --sort */
enum { KA_FACTS_JSON, KA_FACTS_SQLITE };                  /* facts --format */
enum { KA_RULES_TEXT, KA_RULES_JSON, KA_RULES_MARKDOWN }; /* rules --format */

/* The commands an option belongs to (the lint table's rows name the first
 * four; bench, bench init and optimize have tables of their own). */
enum {
	KA_CMD_LINT = 1,
	KA_CMD_FACTS = 2,
	KA_CMD_RULES = 4,
	KA_CMD_KNOWLEDGE = 8,
	KA_CMD_BENCH = 16,
	KA_CMD_BENCH_INIT = 32,
	KA_CMD_OPTIMIZE = 64
};

#define KA_TOOL_MAX_OPTS 64

/* Options of kcheck, kcheck facts and kcheck rules.  Strings live in
 * `arena` (or argv).  set[i] records that the command line gave option i
 * of the table (tool_opts.c), so the config file only fills in the rest
 * ("flags win"). */
typedef struct ka_tool_cfg {
	ka_arena *arena;
	const char **paths; /* positional: PATHs, facts FILEs, rules IDs */
	int npaths;
	const char **extra; /* compiler flags after `--` */
	int nextra;
	/* .kcheck.yaml keys of `kcheck bench --runner slurm` (bench/scale_config.c
	 * reads and checks them); the lint accepts and ignores them */
	const char *slurm_partition, *slurm_time_limit;
	int slurm_gpus_per_job;
	const char **rules_dirs;
	int nrules_dirs;
	const char **exclude; /* globs of paths to skip when recursing */
	int nexclude;
	const char *compdb_dir; /* -p */
	const char *stdin_name; /* --stdin-filename: the name of the text of PATH '-' */
	const char *arch;
	const char *checks;
	int fail_on;        /* KA_FAIL_* */
	int format;         /* KA_FORMAT_* */
	const char *output; /* -o */
	const char *baseline;
	const char *config; /* --config FILE */
	const char *explain;
	const char *cuda_path;
	int write_baseline, exit_zero, jobs, report_unused, no_config, quiet;
	int stats;      /* --stats: analysis vs rule time on stderr */
	int color;      /* KA_COLOR_* */
	const char *db; /* --db FILE: the knowledge DB (tool_evidence.c) */
	int no_db;      /* --no-db */
	int force_shim, ptxas;
	/* --file-memory MB, --file-timeout SEC (the command line only) */
	int file_memory_mb, file_timeout_s;
	int sort; /* KA_SORT_*: impact = costliest first */
	int assume_block[3];
	struct { /* --fix, --unsafe-fixes, --diff, --require-compile-gate */
		int fix, unsafe_fixes, diff, require_gate;
		int compile_timeout; /* --compile-timeout SEC; 0 = 60 */
		const char *export_fixes;
	} fix;
	struct { /* --llm-base-url, --llm-model, --llm-timeout, --task: LLM-made fixes (tool_fixllm.c) */
		const char *base_url, *model;
		int timeout;      /* seconds per attempt; 0: the client's default (300) */
		const char *task; /* a bench task folder: offer only what it measures faster */
	} llm;
	int facts_format;       /* kcheck facts: KA_FACTS_* */
	int print_clang_args;   /* kcheck facts --print-clang-args */
	int list_rules;         /* kcheck --list-rules */
	int rules_format;       /* kcheck rules list: KA_RULES_* */
	int rules_jobs;         /* kcheck rules test -j N; 0 = by CPUs */
	const char *bad_option; /* the argument an unknown-option result names */
	unsigned char set[KA_TOOL_MAX_OPTS];
} ka_tool_cfg;

/* The table, terminated by an entry with neither name nor key. */
const ka_opt *ka_tool_opts(void);

/* tool_getparam.c: parse a command line of cmd from argv[first] on.
 * Returns 0; KA_EXIT_ERROR after printing the error; -1 when the option
 * handled itself (--help, --version): exit 0; KA_TOOL_UNKNOWN for an
 * unknown option (cfg->bad_option; the caller says it its way). */
#define KA_TOOL_UNKNOWN 3
int ka_tool_getparam(ka_tool_cfg *cfg, unsigned cmd, int argc, char **argv, int first);

/* tool_parsecfg.c: find and apply .kcheck.yaml.  0 or KA_EXIT_ERROR. */
int ka_tool_parsecfg(ka_tool_cfg *cfg);
/* Parse one config file into cfg for the keys cfg does not set yet. */
int ka_tool_parsecfg_file(ka_tool_cfg *cfg, const char *path);

/* tool_trust.c: what a project's files may not choose.  A .kcheck.yaml
 * key with its scalar value (NULL when not a scalar): 0 when the file may
 * set it, else non-zero with the message set (llm-base-url, a bad
 * llm-model).  The flags after `--`: 0, or KA_EXIT_ERROR after a one-line
 * error for one nvcc's /bin/sh would act on. */
int ka_tool_trust_key(const char *key, const char *value);
int ka_tool_trust_extra(const char *const *args, int n);

/* tool_lint.c */
int ka_tool_lint(int argc, char **argv);
/* ka_lint_new, and on failure print its error (the rule files' problems
 * as they are, or one line) and return KA_EXIT_ERROR. */
int ka_tool_lint_new(ka_lint **out, const ka_lint_opts *o);

/* tool_fixllm.c: LLM-made fixes, after the fix loop of --fix/--diff. */
typedef struct ka_tool_fixllm ka_tool_fixllm;
/* *out NULL (and 0) when no LLM option is given.  Checked before anything
 * is analysed or written: KA_EXIT_ERROR after a one-line error for
 * --llm-base-url without --llm-model, an LLM option without --fix/--diff,
 * a bad URL, --task with a bad task or without a CUDA device. */
int ka_tool_fixllm_new(ka_tool_fixllm **out, const ka_tool_cfg *c);
/* Ask for, gate (and with --task bench) a rewrite per kernel whose
 * findings have no mechanical fix; print it (--diff) or write it (--fix,
 * then res is analysed again).  A kernel that gets none is one line on
 * stderr.  0, or KA_EXIT_ERROR after a one-line error (the run could not
 * go on); res->failed is set when a file could not be written. */
int ka_tool_fixllm_run(ka_tool_fixllm *x, ka_lint *l, const ka_tool_cfg *c, ka_lint_result *res);
/* The rewrites written, for the report (owned by x). */
const struct ka_report_rewrite *ka_tool_fixllm_applied(const ka_tool_fixllm *x, size_t *n);
void ka_tool_fixllm_free(ka_tool_fixllm *x);

/* tool_rules.c */
/* `kcheck optimize TASK ...` (tool_optimize.c). */
int ka_tool_optimize(int argc, char **argv);
/* The option tables of KA_CMD_BENCH (bench/bench.c's, the runner's),
 * KA_CMD_BENCH_INIT and KA_CMD_OPTIMIZE (tool_optimize.c's, the
 * runner's) into g[0..1], base NULL: how many (0 for another command).
 * Their rows' cmds are bench/scale.h's KA_SCALE_CMD_BENCH or _OPTIMIZE. */
int ka_tool_opt_groups(unsigned cmd, ka_opt_group *g);
/* KA_SCALE_CMD_OPTIMIZE for KA_CMD_OPTIMIZE, else KA_SCALE_CMD_BENCH. */
unsigned ka_tool_table_cmd(unsigned cmd);
/* `kcheck bench init FILE --kernel NAME` (tool_optimize.c). */
int ka_tool_bench_init(int argc, char **argv);
int ka_tool_rules(int argc, char **argv);
/* --explain RULE: the rule's knowledge, with its evidence from kdb (may be NULL). */
int ka_tool_explain(const ka_ruleset *rs, const char *id, ka_tool_evidence *kdb, FILE *out);

/* tool_help.c */
void ka_tool_help(FILE *out);
/* The --help page of a subcommand whose options are the table's
 * (KA_CMD_FACTS, KA_CMD_RULES, KA_CMD_KNOWLEDGE; KA_CMD_LINT: kcheck's). */
void ka_tool_help_cmd(FILE *out, unsigned cmd);
/* The page of a subcommand whose options are the rows of groups that cmd
 * takes (optimize, bench init): usage lines, what the command does,
 * "Options:", "Examples:". */
void ka_tool_help_page(FILE *out, const char *usage, const char *about, unsigned cmd, const ka_opt_group *g,
		       int ng, const char *examples);
void ka_tool_version(FILE *out);
const char *ka_tool_version_string(void);

/* tool_msgs.c-style helpers: "kcheck: error: ..." on stderr. */
void ka_tool_error(const char *fmt, ...) KA_PRINTF(1, 2);
/* " (did you mean 'X'?)" for a near miss, else "" (tool_suggest.c). */
const char *ka_tool_suggest_option(const char *word, unsigned cmd);
const char *ka_tool_suggest_value(const char *const *choices, const char *v);
const char *ka_tool_suggest_key(const char *key);
/* kcheck --print-man | --print-completion bash (tool_complete.c). */
int ka_tool_print_generated(int argc, char **argv);
void ka_tool_warn(const char *fmt, ...) KA_PRINTF(1, 2);

/* cli/tool_facts.c (the analyzer's dump). */
int ka_tool_facts(int argc, char **argv);

/* cli/tool_knowledge.c: `kcheck knowledge stats|show ID|export DIR|import
 * DIR [--db FILE]`. */
int ka_tool_knowledge(int argc, char **argv);

/* cli/tool_evidence.c: the knowledge DB as lint, --explain and `rules
 * show` read it. */
/* Open the DB read-only: db (--db FILE or the config's `db:`), else the
 * default path; never created.  *out NULL (and 0) with --no-db, or when
 * the default path has no DB (a default one that cannot be read is a
 * warning).  KA_EXIT_ERROR after a one-line error when the DB named by
 * --db is missing or cannot be read. */
int ka_tool_evidence_open(ka_tool_evidence **out, const char *db, int no_db);
void ka_tool_evidence_free(ka_tool_evidence *x);
/* Hand the DB to lint (ka_lint_opts.kdb); x may be NULL. */
void ka_tool_evidence_lint(ka_tool_evidence *x, ka_lint_opts *o);
/* "evidence: fixed 7 times on sm_90, median 4.3x [3.1, 6.0]", one line per
 * arch with evidence for rule; nothing when x is NULL or there is none.
 * lead is printed before the first line (a blank line, say).  0, or
 * KA_EXIT_ERROR after a one-line error. */
int ka_tool_evidence_print(ka_tool_evidence *x, const char *rule, const char *lead, FILE *out);

#endif
