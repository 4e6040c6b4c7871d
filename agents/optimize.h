/* agents/optimize.h: the optimize loop (`kcheck optimize TASK`).
 *
 *   findings of the best kernel ─► planner ─► coder ─► verifier (the bench) ─► summarizer
 *        ▲   (impact x standing,    (offline    (static, compile, correctness     (evidence and
 *        │    + BM25 knowledge)      expert or   on every config, paired timing    skills in the
 *        └──── accepted candidate ◄─ LLM)        against the current best)        knowledge DB)
 *
 * Long-term memory is the knowledge DB (knowledge/knowledge.h); short-term
 * memory is this run's trajectory: every step's strategy and parameters,
 * candidate hash, outcome, speedup with its CI and first error.  A strategy
 * that failed is never tried again with the same parameters on the same
 * kernel.  A candidate is accepted only when the bench says faster, the
 * CI's lower bound clears the threshold, and every unseen configuration
 * (listed and drawn) is correct.  With compile_only the bench stops at the
 * static and compile gates: every candidate is unverified, nothing is
 * accepted and nothing is written to the DB.
 *
 * Findings come from a callback given the run's arch and the task's
 * compiler flags: ka_opt_lint, the lint pipeline in process, for `kcheck
 * optimize`; a stand-in in tests of the loop.  Errors: negative KA_E*
 * with a one-line message (ka_error_last()). */
#ifndef KA_AGENTS_OPTIMIZE_H
#define KA_AGENTS_OPTIMIZE_H
#include <stddef.h>
#include <stdio.h>
#include "agents/coder.h"
#include "rules/finding.h"
#include "util/buf.h"

/* The findings of one kernel file on arch (the run's --arch), parsed with
 * the compiler flags extra (the task's -I): appended to out (the caller
 * frees it, also after an error).  KA_OK, or < 0 with the message set. */
typedef int (*ka_opt_lint_fn)(void *ud, const char *path, const char *arch, const char *const *extra,
			      int nextra, ka_findings *out);

/* ka_opt_lint_fn over the lint pipeline in process (lint/lint.h): the
 * built-in rules, every one enabled, no knowledge DB (the planner
 * corrects the estimates with the run's own), the file analyzed in a
 * process of its own as `kcheck` does it, so a file that crashes libclang
 * or goes over lint's memory or time limits fails, not the run: that is
 * an error here.  The findings are those `kcheck --format json --no-db
 * --no-config --arch ARCH FILE -- EXTRA` reports.  ud: unused (NULL). */
int ka_opt_lint(void *ud, const char *path, const char *arch, const char *const *extra, int nextra,
		ka_findings *out);

typedef struct ka_opt_opts {
	const char *task;      /* the bench task folder (or a name under bench/tasks) */
	const char *out_dir;   /* where best.cu, best.patch, trajectory.json, report.md go */
	const char *db;        /* knowledge DB; NULL = the default path */
	int no_db;             /* no knowledge DB at all */
	int force;             /* --force: out_dir may hold an earlier run's results */
	int budget_steps;      /* 0 = 12 */
	double budget_minutes; /* 0 = none */
	int compile_only;
	double threshold;    /* the CI's lower bound must exceed this (0 = 1.02) */
	int samples;         /* timed pairs per config (0 = the bench's 40) */
	const char *arch;    /* "sm_90" (NULL): the bench, the lint, the planner, the coder */
	ka_coder_opts coder; /* provider "offline" (NULL) or "llm" */
	ka_opt_lint_fn lint; /* ka_opt_lint; NULL: no findings (retrieval and the recipe table only) */
	void *lint_ud;
	FILE *progress; /* one line per step; NULL = none */

	/* the verifier's runner (bench/runner.h: Slurm, docs/slurm.md); NULL: this host's */
	const struct ka_bench_runner *runner;
} ka_opt_opts;

/* One step of the trajectory. */
typedef struct ka_opt_step {
	int step;
	char strategy[128]; /* recipe, or "llm:MODEL"; a sequence: its recipes joined by '+' */
	char params[96];
	char rule[96];          /* the rule that called for it, or "" */
	char hash[65];          /* candidate's SHA-256, "" when there was none */
	char patch[64];         /* compile-only, unverified: "candidates/step-N.patch", else "" */
	char outcome[16];       /* faster | same | slower | incorrect | compile_error | declined |
				     * error | unverified */
	double speedup, lo, hi; /* over the best at that step; 0 when not measured */
	double total;           /* the best's speedup over the baseline after the step */
	double roofline;        /* the candidate's mean roofline fraction (bench); 0 when not measured */
	double roofline_large;  /* the same over the large configs (bench/runner.h); 0 when not measured */
	int accepted, repaired;
	char error[256]; /* first error line, or "" */
	double seconds;  /* proposing it, and the bench of its round (shared with the round's others) */
	int round;       /* the round it was benched in, beside the round's other candidates */
	int gpu;         /* the GPU of this host its bench ran on (--gpus); -1: the default device or
			 * a Slurm node, or not benched */
	int builds_on;   /* a sequence (--gpus, a speculative slot): the step whose candidate this
			  * one rewrote, in the same round; its speedup is the whole sequence's over
			  * the best before the round, and files no rule evidence; 0: none */
	/* the summarizer (agents/distill.h) */
	char learned[256];         /* learned rules that fired on the kernel, whose texts were in
				    * the LLM's prompt (space-separated); "" none */
	char distilled[96];        /* the candidate rule this step's win was distilled into, or "" */
	char distill_refused[256]; /* why the win was not distilled, or "" */
} ka_opt_step;

typedef struct ka_opt_summary {
	int nsteps;
	ka_opt_step steps[64];
	double speedup; /* best over the baseline (product of accepted steps); 1 = none */
	char stop[128]; /* why the loop stopped */
	char best_path[1100];
} ka_opt_summary;

/* One run at a time per process (the loop keeps its state in static
 * storage); KA_OK when the run ended, whatever it found.  An error in a
 * step ends the run with the outputs of the steps before it written (stop
 * reads "error: ...") and is returned. */
int ka_opt_run(const ka_opt_opts *o, ka_opt_summary *out);

/* Outputs (agents/optimize_report.c).  trajectory.json, report.md with the
 * per-step table and speedup.svg (the speedup after each step). */
int ka_opt_write_trajectory(const char *path, const char *task, const ka_opt_summary *s, int compile_only);
int ka_opt_write_report(const char *dir, const char *task, const ka_opt_summary *s, int compile_only);
/* The SVG chart as text into b. */
int ka_opt_svg(const ka_opt_summary *s, ka_buf *b);

#endif
