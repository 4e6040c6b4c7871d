/* cli/tools.h: the kcheck command-line tool's shared declarations.
 *
 * One file per job, like curl's src/tool_*.c:
 *   tool_main.c      main(): subcommand dispatch
 *   tool_getparam.c  argv -> ka_tool_cfg
 *   tool_parsecfg.c  .kcheck.yaml (nearest parent folder) -> ka_tool_cfg
 *   tool_findfile.c  searching parent folders for a file
 *   tool_files.c     PATH arguments -> the list of files to analyze
 *   tool_compdb.c    compile_commands.json (-p)
 *   tool_lint.c      the lint run: workers (-j), filters, report, exit status
 *   tool_suppress.c  NOLINT filtering and unused-suppression findings
 *   tool_rules.c     kcheck rules list|show|new|test, --explain
 *   tool_help.c      --help, --version
 *   tool_facts.c     kcheck facts ... (the analyzer's dump)
 * kcheck bench ... is bench/bench.h's ka_bench_main.
 */
#ifndef KA_CLI_TOOLS_H
#define KA_CLI_TOOLS_H
#include <stdio.h>
#include "cli/tool_fix.h"
#include "rules/finding.h"
#include "rules/rule.h"
#include "rules/source.h"
#include "util/arena.h"
#include "util/buf.h"
#include "util/error.h"

#define KA_EXIT_CLEAN 0
#define KA_EXIT_FINDINGS 1
#define KA_EXIT_ERROR 2

/* Options of a lint run.  Strings live in `arena` (or argv).  The *_set
 * flags record what the command line gave, so the config file only fills
 * in the rest ("flags win"). */
typedef struct ka_tool_cfg {
	ka_arena *arena;
	const char **paths;
	int npaths;
	const char **extra;          /* compiler flags after `--` */
	int nextra;
	const char **rules_dirs;
	int nrules_dirs;
	const char **exclude;        /* globs of paths to skip when recursing */
	int nexclude;
	const char *compdb_dir;      /* -p */
	const char *arch;
	const char *checks;
	const char *fail_on;         /* error|warning|note|none */
	const char *format;          /* text|json|sarif */
	const char *output;          /* -o */
	const char *baseline;
	const char *config;          /* --config FILE */
	const char *explain;
	const char *cuda_path;
	int write_baseline, exit_zero, jobs, report_unused, no_config, quiet;
	int stats;                   /* --stats: analysis vs rule time on stderr */
	int color;                   /* -1 auto, 0 never, 1 always */
	int force_shim, ptxas;
	int sort_impact;             /* --sort impact: costliest first */
	int bad_paths;               /* paths reported missing or not regular: exit 2 */
	int assume_block[3];
	ka_tool_fix_opts fix;        /* --fix, --diff, ... (tool_fix.c) */
	struct {
		int arch, checks, fail_on, format, baseline, jobs, report_unused, assume_block,
		    exclude, rules_dirs, extra;
	} set;
} ka_tool_cfg;

/* tool_getparam.c: parse a lint command line (argv[0] is skipped).
 * Returns 0, KA_EXIT_ERROR after printing the error, or -1 when the
 * option handled itself (--help, --version): exit 0. */
int ka_tool_getparam(ka_tool_cfg *cfg, int argc, char **argv);

/* "256", "32,8" or "32,8,1" -> b[3] (at most 1024 threads); 0 or -1. */
int ka_tool_parse_block(const char *v, int b[3]);

/* tool_parsecfg.c: find and apply .kcheck.yaml.  0 or KA_EXIT_ERROR. */
int ka_tool_parsecfg(ka_tool_cfg *cfg);
/* Parse one config file into cfg for the keys cfg does not set yet. */
int ka_tool_parsecfg_file(ka_tool_cfg *cfg, const char *path);

/* tool_findfile.c: the nearest `name` in start or a parent folder; an
 * arena string or NULL. */
char *ka_tool_findfile(ka_arena *a, const char *start, const char *name);

/* tool_files.c: expand PATHs into files (sorted, de-duplicated); headers
 * (.cuh .h .hpp) are flagged.  Missing and non-regular paths are reported
 * and counted in cfg->bad_paths; 0, or KA_EXIT_ERROR after printing. */
typedef struct ka_tool_file {
	const char *path;            /* as the user will see it */
	const char *real;            /* realpath */
	int is_header;
} ka_tool_file;
int ka_tool_files(ka_tool_cfg *cfg, ka_tool_file **out, int *n);
int ka_tool_is_source_ext(const char *path, int *is_header);

/* tool_compdb.c: compile_commands.json. */
typedef struct ka_compdb ka_compdb;
/* Find compile_commands.json in dir or a parent and load it; prints the
 * one-line error and returns KA_EXIT_ERROR when missing or malformed. */
int ka_compdb_load(ka_arena *a, const char *dir, ka_compdb **out);
/* Flags (compiler, -c, -o, the file itself removed) and directory for a
 * file; 0 when the file is not in the database. */
int ka_compdb_lookup(const ka_compdb *db, const char *realpath, const char ***args, int *nargs,
		     const char **directory);
/* Every source file of the database with a .cu/.hip extension. */
int ka_compdb_files(ka_arena *a, const ka_compdb *db, const char ***paths, int *n);

/* tool_run.c: analyze files and evaluate the rules, -j N at a time.  Each
 * job's results are kept apart and merged in file order, so the output
 * does not depend on scheduling. */
typedef struct ka_tool_job {
	const ka_tool_file *file;
	ka_findings findings;
	char *diags;                 /* "file:line:col: error: ..." lines, or NULL */
	char **included;             /* real paths of the files it included */
	int nincluded;
	int failed;                  /* could not be analyzed: exit status 2 */
	double analyze_ms, rules_ms; /* wall time of ka_analyze_file and ka_rules_eval */
	double *rule_ms;             /* --stats: per rule, in ruleset order (or NULL) */
	struct ka_fixset *fixes;     /* the findings' fixes (tool_fix.c), or NULL */
} ka_tool_job;
int ka_tool_run(const ka_tool_cfg *cfg, const ka_ruleset *rs, const ka_compdb *cdb,
		ka_tool_job *jobs, int njobs);
void ka_tool_job_clear(ka_tool_job *j);

/* tool_lint.c */
int ka_tool_lint(int argc, char **argv);
/* Load built-in rules plus --rules-dir folders and check them; prints the
 * `file:line: message` lines and returns KA_EXIT_ERROR when malformed. */
int ka_tool_load_rules(const char **dirs, int ndirs, ka_ruleset **out);

/* tool_suppress.c: drop NOLINT-ed findings; with report_unused, add an
 * `unused-suppression` finding per unused NOLINT naming a known rule. */
int ka_tool_suppress(ka_findings *fs, ka_sources *src, const ka_ruleset *rs,
		     const char **files, int nfiles, int report_unused);

/* tool_rules.c */
/* `kcheck optimize TASK ...` (tool_optimize.c). */
int ka_tool_optimize(int argc, char **argv);
/* `kcheck bench init FILE --kernel NAME` (tool_optimize.c). */
int ka_tool_bench_init(int argc, char **argv);
int ka_tool_rules(int argc, char **argv);
int ka_tool_explain(const ka_ruleset *rs, const char *id, FILE *out);

/* tool_help.c */
void ka_tool_help(FILE *out);
void ka_tool_version(FILE *out);
const char *ka_tool_version_string(void);

/* tool_msgs.c-style helpers: "kcheck: error: ..." on stderr. */
void ka_tool_error(const char *fmt, ...) KA_PRINTF(1, 2);
void ka_tool_warn(const char *fmt, ...) KA_PRINTF(1, 2);

/* cli/tool_facts.c (the analyzer's dump). */
int ka_tool_facts(int argc, char **argv);

#endif
