/* rules/report.h: findings as text, JSON or SARIF 2.1.0.
 *
 * Text is what compilers print:  file:line:col: severity: message [rule]
 * followed by the source line and a caret under the flagged range.  JSON is
 * one object with a `findings` array.  SARIF is what GitHub code scanning
 * reads: rule metadata (help text = the rule's body) and regions with UTF-16
 * columns.  Reports are appended to a buffer; the caller writes it out. */
#ifndef KA_RULES_REPORT_H
#define KA_RULES_REPORT_H
#include "rules/finding.h"
#include "rules/rule.h"
#include "rules/source.h"
#include "util/buf.h"

/* A whole-file rewrite applied beside the findings' own fixes: today an
 * LLM-made one (`kcheck --fix --llm-model M`, cli/tool_fixllm.c).  Reports
 * list them after the findings so that a reader knows what to review:
 * text one line each, JSON `llm_fixes`, SARIF a notification of the run's
 * invocation.  Every string is the caller's. */
typedef struct ka_report_rewrite {
	const char *file;
	const char *kernel; /* NULL: the file as a whole */
	const char *rules;  /* the rule ids it answers, comma-separated */
	const char *model;  /* the LLM that wrote it */
} ka_report_rewrite;

/* How far a file was analyzed.  What kept it from a full analysis is not a
 * finding: reports carry it apart, per file (text: a line per file not
 * fully analyzed; JSON `files`; SARIF the invocation's notifications). */
typedef enum ka_file_state {
	KA_FILE_ANALYZED, /* in full */
	KA_FILE_PARTIAL,  /* findings of what could be analyzed: clang errors, analysis limits */
	KA_FILE_FAILED    /* no findings: did not parse, crashed, over its memory or time */
} ka_file_state;

/* One of clang's errors, or a warning of kcheck's analysis limits. */
typedef struct ka_report_diag {
	char *file;
	int line, col;
	int is_error; /* 1 clang's error; 0 an analysis limit (a warning) */
	char *message;
} ka_report_diag;

typedef struct ka_report_file {
	char *path; /* as the user named it */
	ka_file_state state;
	char *reason;     /* why partial or failed, one line; NULL when analyzed */
	int clang_errors; /* clang's errors in it and in what it includes */
	ka_report_diag *diags;
	size_t ndiags;
} ka_report_file;

/* report_files.c: "analyzed", "partial", "failed" */
const char *ka_file_state_name(ka_file_state s);
void ka_report_file_clear(ka_report_file *f);

typedef struct ka_report_opts {
	int color;               /* ANSI colours (text) */
	int excerpt;             /* source line + caret under each finding (text) */
	int summary;             /* one line per kernel: its costliest finding (text) */
	const ka_ruleset *rules; /* metadata for JSON/SARIF; may be NULL */
	const char *version;     /* tool version for SARIF/JSON */
	ka_sources *src;         /* source text (excerpts, UTF-16 columns) */
	/* SARIF `fixes` of a finding as a JSON array text (malloc'd) or NULL;
	 * set by whoever links the rewriter.  May be NULL. */
	char *(*fixes)(const ka_finding *f, void *ud);
	void *fixes_ud;
	const ka_report_rewrite *rewrites; /* applied LLM-made rewrites; may be NULL */
	size_t n_rewrites;
	const ka_report_file *files; /* each analyzed file's status; may be NULL */
	size_t nfiles;
} ka_report_opts;

/* Each kernel's costliest finding (report_summary.c): the index into fs and
 * the kernel's name (the finding's own kernel or one of its `also`). */
typedef struct ka_report_costly {
	size_t index;
	const char *kernel;
} ka_report_costly;
/* *out is malloc'd (NULL when there is none). */
int ka_report_costliest(const ka_findings *fs, ka_report_costly **out, size_t *nout);
/* "file: kernel K: costliest finding RULE (severity, impact Nx) at line L: basis\n" */
int ka_report_summary_line(ka_buf *out, const ka_finding *f, const char *kernel);

int ka_report_text(ka_buf *out, const ka_findings *fs, const ka_report_opts *o);
/* o's files by state (counts[KA_FILE_*]) and their clang errors summed. */
void ka_report_file_counts(const ka_report_opts *o, int counts[3], int *clang_errors);
/* "path: partial: reason\n" for each file of o not analyzed in full. */
int ka_report_files_text(ka_buf *out, const ka_report_opts *o);
/* One line per finding (report_ci.c): `file:line:col: severity: message
 * [rule]`, and GitHub Actions workflow commands (annotations). */
int ka_report_concise(ka_buf *out, const ka_findings *fs, const ka_report_opts *o);
int ka_report_github(ka_buf *out, const ka_findings *fs, const ka_report_opts *o);
/* The finding's `also` kernels as a JSON array of strings (NULL out of memory). */
struct json_t *ka_report_also_json(const ka_finding *f);
/* A finding's other launch sites (`sites`) as a JSON array of lines. */
struct json_t *ka_report_sites_json(const ka_finding *f);
/* Append s as the text report prints names and messages: control
 * characters, bytes that are not UTF-8 and bidirectional overrides
 * escaped (\n, \x1b, \xff, \u202e), so nothing from a repository acts on
 * the terminal.  For anything else printed from the same sources. */
int ka_report_escape(ka_buf *out, const char *s);
int ka_report_json(ka_buf *out, const ka_findings *fs, const ka_report_opts *o);
/* A finding's evidence as JSON (JSON `evidence`, SARIF properties):
 * {arch, wins, failures, errors, median, ci: [lowest, highest win],
 * static_estimate, text}, median and ci null with no win, static_estimate
 * null when the rule had none.  A new reference; NULL when out of memory. */
struct json_t *ka_report_evidence_json(const ka_finding_evidence *e);
int ka_report_sarif(ka_buf *out, const ka_findings *fs, const ka_report_opts *o);

#endif
