/* cli/tool_opts.c: the one table of kcheck's options.  Each row says
 * which commands take it (kcheck, kcheck facts, kcheck rules, kcheck
 * knowledge), where the value goes in ka_tool_cfg, how it is parsed (enums
 * once, into their index), its .kcheck.yaml key, and its line in --help.
 * tool_getparam.c reads argv with it (util/cmdopt.h, the reader every
 * command's table goes through), tool_parsecfg.c the config file,
 * tool_help.c prints it; the target list comes from analyzer/arch.h. */
#include "cli/tools.h"
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const char *const formats[] = {"text", "json", "sarif", "github", "concise", NULL};
static const char *const levels[] = {"error", "warning", "note", "none", NULL};
static const char *const colors[] = {"auto", "always", "never", NULL};
static const char *const sorts[] = {"location", "impact", NULL};
static const char *const facts_formats[] = {"json", "sqlite", NULL};
static const char *const rules_formats[] = {"text", "json", "markdown", NULL};

#define F(field) offsetof(ka_tool_cfg, field)
#define L KA_CMD_LINT
#define FA KA_CMD_FACTS
#define R KA_CMD_RULES
#define K KA_CMD_KNOWLEDGE

/* In --help order, section by section. */
static const ka_opt table[] = {
	{"-p", NULL, L, KA_OPT_STR, F(compdb_dir), 0, NULL, 0, 0, 0, NULL, 0, 0, "Input", "DIR", 0, 0,
	 "read compile_commands.json from DIR or a parent folder", NULL},
	{"--stdin-filename", NULL, L, KA_OPT_STR, F(stdin_name), 0, NULL, 0, 0, 0, NULL, 0, 0, "Input",
	 "NAME", 0, 0,
	 "with PATH '-': the file the text read from stdin is;\nfindings, .kcheck.yaml, -p and --exclude go by NAME",
	 NULL},
	{"--exclude", NULL, L, KA_OPT_LIST, F(exclude), F(nexclude), NULL, 0, 0, 0, "exclude", 0, 0, "Input",
	 "GLOB", 0, 0,
	 "skip files matching GLOB when walking folders\n(repeatable; as exclude: in .kcheck.yaml)", NULL},
	{"--arch", NULL, L | FA | R, KA_OPT_STR, F(arch), 0, NULL, 0, 0, 0, "arch", 0, 0, "Input", "ARCH", 0,
	 0, NULL /* the arch list: tool_help.c */, NULL},
	{"--assume-block", NULL, L | FA, KA_OPT_BLOCK, F(assume_block), 0, NULL, 0, 0, 0, "assume-block", 0,
	 0, "Input", "X[,Y,Z]", 0, 0, "block shape when no launch site or __launch_bounds__ gives it", NULL},
	{"--cuda-path", NULL, L, KA_OPT_STR, F(cuda_path), 0, NULL, 0, 0, 0, NULL, 0, 0, "Input", "DIR", 0, 0,
	 "CUDA toolkit (default /usr/local/cuda)", NULL},
	{"--shim", NULL, L | FA | R, KA_OPT_FLAG, F(force_shim), 0, NULL, 0, 0, 0, NULL, 0, 0, "Input", NULL,
	 0, 0, "use the built-in shim headers instead of the toolkit's", NULL},
	{"--ptxas", NULL, L | FA, KA_OPT_FLAG, F(ptxas), 0, NULL, 0, 0, 0, NULL, 0, 0, "Input", NULL, 0, 0,
	 "join nvcc -Xptxas -v results (registers, spills)", NULL},
	{"--checks", NULL, L, KA_OPT_STR, F(checks), 0, NULL, 0, 0, 0, "checks", 0, 1, "Rules", "GLOBS", 0, 0,
	 "comma-separated rule globs in order, e.g. '-*,gmem-*'", NULL},
	{"--rules-dir", NULL, L | R, KA_OPT_LIST, F(rules_dirs), F(nrules_dirs), NULL, 0, 0, 0, "rules-dir",
	 1, 0, "Rules", "DIR", 0, 0, "add rule files (or replace built-in ones by id)", NULL},
	{"--list-rules", NULL, L, KA_OPT_FLAG, F(list_rules), 0, NULL, 0, 0, 0, NULL, 0, 0, "Rules", NULL, 0,
	 0, "print the rules --checks enables (id, severity, title)\nand exit", NULL},
	{"--explain", NULL, L, KA_OPT_STR, F(explain), 0, NULL, 0, 0, 0, NULL, 0, 0, "Rules", "RULE", 0, 0,
	 "print what a rule knows and exit", NULL},
	{"--db", NULL, L | R | K, KA_OPT_STR, F(db), 0, NULL, 0, 0, 0, "db", 1, 0, "Rules", "FILE", 0, 0,
	 "knowledge DB whose measured evidence findings carry\n"
	 "(default $XDG_DATA_HOME/kernelarc/knowledge.db, if there)",
	 NULL},
	{"--no-db", NULL, L | R, KA_OPT_FLAG, F(no_db), 0, NULL, 0, 0, 0, NULL, 0, 0, "Rules", NULL, 0, 0,
	 "read no knowledge DB", NULL},
	{"--config", NULL, L, KA_OPT_STR, F(config), 0, NULL, 0, 0, 0, NULL, 0, 0, "Rules", "FILE", 0, 0,
	 "read this config instead of the nearest .kcheck.yaml", NULL},
	{"--no-config", NULL, L, KA_OPT_FLAG, F(no_config), 0, NULL, 0, 0, 0, NULL, 0, 0, "Rules", NULL, 0, 0,
	 "ignore .kcheck.yaml", NULL},
	{"--format", NULL, L, KA_OPT_ENUM, F(format), 0, formats, 0, 0, 0, "format", 0, 0, "Output", NULL, 27,
	 0, "(default text)", NULL},
	{"--sort", NULL, L, KA_OPT_ENUM, F(sort), 0, sorts, 0, 0, 0, NULL, 0, 0, "Output", NULL, 27, 0,
	 "order of the findings (default location); text\n"
	 "ends with each kernel's costliest finding",
	 NULL},
	{"-o", "--output", L, KA_OPT_STR, F(output), 0, NULL, 0, 0, 0, NULL, 0, 0, "Output", "FILE", 0, 1,
	 "write the report to FILE (atomically)", NULL},
	{"--color", NULL, L, KA_OPT_ENUM, F(color), 0, colors, 0, 0, 0, NULL, 0, 0, "Output", NULL, 27, 0,
	 "colour on a terminal unless NO_COLOR is set", NULL},
	{"--no-color", NULL, L, KA_OPT_FLAG, F(color), 0, NULL, 0, 0, KA_COLOR_NEVER, NULL, 0, 0, NULL, NULL,
	 0, 0, NULL, NULL},
	{"--report-unused-suppressions", NULL, L, KA_OPT_FLAG, F(report_unused), 0, NULL, 0, 0, 0,
	 "report-unused-suppressions", 0, 0, "Output", NULL, 30, 0,
	 "report NOLINT comments that suppress nothing", NULL},
	{"--baseline", NULL, L, KA_OPT_STR, F(baseline), 0, NULL, 0, 0, 0, "baseline", 1, 0, "Output", "FILE",
	 0, 0,
	 "ignore findings recorded in FILE (a missing FILE is an\nerror; create it with --write-baseline)",
	 NULL},
	{"--write-baseline", NULL, L, KA_OPT_FLAG, F(write_baseline), 0, NULL, 0, 0, 0, NULL, 0, 0, "Output",
	 NULL, 0, 0, "(re)write or create the --baseline FILE from this run", NULL},
	{"-q", "--quiet", L, KA_OPT_FLAG, F(quiet), 0, NULL, 0, 0, 0, NULL, 0, 0, "Output", NULL, 0, 1,
	 "no summary line on stderr", NULL},
	{"--fix", NULL, L, KA_OPT_FLAG, F(fix.fix), 0, NULL, 0, 0, 0, NULL, 0, 0, "Fixes (docs/rewriter.md)",
	 NULL, 0, 0, "apply the safe fixes in place (each file compiled first)", NULL},
	{"--unsafe-fixes", NULL, L, KA_OPT_FLAG, F(fix.unsafe_fixes), 0, NULL, 0, 0, 0, NULL, 0, 0,
	 "Fixes (docs/rewriter.md)", NULL, 0, 0, "also fixes that change numerics or need a precondition",
	 NULL},
	{"--diff", NULL, L, KA_OPT_FLAG, F(fix.diff), 0, NULL, 0, 0, 0, NULL, 0, 0,
	 "Fixes (docs/rewriter.md)", NULL, 0, 0, "print the fixes as a patch for `patch -p1`; change nothing",
	 NULL},
	{"--export-fixes", NULL, L, KA_OPT_STR, F(fix.export_fixes), 0, NULL, 0, 0, 0, NULL, 0, 0,
	 "Fixes (docs/rewriter.md)", "FILE", 0, 0, "write the fixes in clang-tidy's YAML format", NULL},
	{"--require-compile-gate", NULL, L, KA_OPT_FLAG, F(fix.require_gate), 0, NULL, 0, 0, 0, NULL, 0, 0,
	 "Fixes (docs/rewriter.md)", NULL, 0, 0, "fail (exit 2) when no nvcc/hipcc can check the fixed files",
	 NULL},
	{"--compile-timeout", NULL, L, KA_OPT_INT, F(fix.compile_timeout), 0, NULL, 1, 3600, 0, NULL, 0, 0,
	 "Fixes (docs/rewriter.md)", "SEC", 0, 0, "time limit of one compile of the gate (default 60)", NULL},
	{"--llm-base-url", NULL, L, KA_OPT_STR, F(llm.base_url), 0, NULL, 0, 0, 0, "llm-base-url", 0, 0,
	 "Fixes (docs/rewriter.md)", "URL", 0, 0,
	 "with --fix/--diff, an LLM (OpenAI-compatible) rewrites\n"
	 "kernels whose findings have no mechanical fix; key\n"
	 "from KERNELARC_LLM_API_KEY or OPENAI_API_KEY",
	 NULL},
	{"--llm-model", NULL, L, KA_OPT_STR, F(llm.model), 0, NULL, 0, 0, 0, "llm-model", 0, 0,
	 "Fixes (docs/rewriter.md)", "M", 0, 0, "the model of --llm-base-url", NULL},
	{"--llm-timeout", NULL, L, KA_OPT_INT, F(llm.timeout), 0, NULL, 1, 3600, 0, "llm-timeout", 0, 0,
	 "Fixes (docs/rewriter.md)", "SEC", 0, 0, "time limit of one LLM request, per attempt (default 300)",
	 NULL},
	{"--task", NULL, L, KA_OPT_STR, F(llm.task), 0, NULL, 0, 0, 0, NULL, 0, 0, "Fixes (docs/rewriter.md)",
	 "DIR", 0, 0,
	 "offer an LLM-made fix only when the bench of task DIR\nmeasures it faster (needs a GPU)", NULL},
	{"--fail-on", NULL, L, KA_OPT_ENUM, F(fail_on), 0, levels, 0, 0, 0, "fail-on", 0, 0, "Exit status",
	 NULL, 36, 0, "findings that fail the run (default warning)", NULL},
	{"--exit-zero", NULL, L, KA_OPT_FLAG, F(exit_zero), 0, NULL, 0, 0, 0, NULL, 0, 0, "Exit status", NULL,
	 0, 0, "exit 0 even with findings (errors still exit 2)", NULL},
	{"-j", "--jobs", L, KA_OPT_INT, F(jobs), 0, NULL, 1, 256, 0, "jobs", 0, 0, "Other", "N", 0, 1,
	 "analyze N files at a time (default: the core count;\noutput identical to -j 1)", NULL},
	{"--file-memory", NULL, L | FA | R, KA_OPT_INT, F(file_memory_mb), 0, NULL, 64, 1048576, 0, NULL, 0,
	 0, "Other", "MB", 0, 0, "memory one file's analysis may use (default 4096)", NULL},
	{"--file-timeout", NULL, L | FA | R, KA_OPT_INT, F(file_timeout_s), 0, NULL, 1, 86400, 0, NULL, 0, 0,
	 "Other", "SEC", 0, 0, "time one file's analysis may take (default 300)", NULL},
	{"--stats", NULL, L, KA_OPT_FLAG, F(stats), 0, NULL, 0, 0, 0, NULL, 0, 0, "Other", NULL, 0, 0,
	 "print analysis and rule-evaluation time on stderr", NULL},
	{"-h", "--help", L | FA | R | K, KA_OPT_HELP, 0, 0, NULL, 0, 0, 0, NULL, 0, 0, "Other", NULL, 0, 1,
	 "this text", NULL},
	{"--version", NULL, L, KA_OPT_VERSION, 0, 0, NULL, 0, 0, 0, NULL, 0, 0, "Other", NULL, 0, 0,
	 "print the version", NULL},
	/* .kcheck.yaml only */
	{NULL, NULL, L, KA_OPT_LIST, F(extra), F(nextra), NULL, 0, 0, 0, "extra-args", 0, 0, NULL, NULL, 0, 0,
	 NULL, NULL},
	/* kcheck bench --runner slurm's (docs/slurm.md); bench/scale_config.c checks their values */
	{NULL, NULL, L, KA_OPT_STR, F(slurm_partition), 0, NULL, 0, 0, 0, "slurm-partition", 0, 0, NULL, NULL,
	 0, 0, NULL, NULL},
	{NULL, NULL, L, KA_OPT_STR, F(slurm_time_limit), 0, NULL, 0, 0, 0, "slurm-time-limit", 0, 0, NULL,
	 NULL, 0, 0, NULL, NULL},
	{NULL, NULL, L, KA_OPT_INT, F(slurm_gpus_per_job), 0, NULL, 0, 64, 0, "slurm-gpus-per-job", 0, 0,
	 NULL, NULL, 0, 0, NULL, NULL},
	/* kcheck facts (usage: tool_facts.c) */
	{"--format", NULL, FA, KA_OPT_ENUM, F(facts_format), 0, facts_formats, 0, 0, 0, NULL, 0, 0, NULL,
	 NULL, 0, 0, "JSON on stdout (default) or an SQLite file (needs -o)", NULL},
	{"-o", NULL, FA | R, KA_OPT_STR, F(output), 0, NULL, 0, 0, 0, NULL, 0, 0, NULL, "OUT", 0, 0,
	 "write to OUT instead of stdout", NULL},
	{"--print-clang-args", NULL, FA, KA_OPT_FLAG, F(print_clang_args), 0, NULL, 0, 0, 0, NULL, 0, 0, NULL,
	 NULL, 0, 0, "print the arguments clang parses each FILE with", NULL},
	/* kcheck rules */
	{"--format", NULL, R, KA_OPT_ENUM, F(rules_format), 0, rules_formats, 0, 0, 0, NULL, 0, 0, NULL, NULL,
	 0, 0, "rules list: the output's form (default text)", NULL},
	{"-j", NULL, R, KA_OPT_INT, F(rules_jobs), 0, NULL, 1, 64, 0, NULL, 0, 0, NULL, "N", 0, 0,
	 "rules test: N rules at a time (default: the CPUs, at most 8)", NULL},
	{NULL, NULL, 0, 0, 0, 0, NULL, 0, 0, 0, NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL},
};

_Static_assert(sizeof table / sizeof *table <= KA_TOOL_MAX_OPTS, "ka_tool_cfg.set is too small");

const ka_opt *ka_tool_opts(void)
{
	return table;
}
