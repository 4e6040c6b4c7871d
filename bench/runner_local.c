/* bench/runner_local.c: the local runner of bench/runner.h.  Runs the gates
 * in order on this machine: static scan, compile (bench/build.c), then the
 * harness twice, each in its own process with a time limit: `correct` over
 * every configuration, and only if that passed, `perf` over the timed ones.
 * The plan file tells the harness the tensors, distributions, tolerance and
 * configurations (with every expression already evaluated). */
#include "bench/runner.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench/build.h"
#include "bench/cache.h"
#include "util/proc.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/utf8.h"

int ka_bench_job_path(char *dst, size_t cap, const char *dir, const char *name)
{
	int n = name ? snprintf(dst, cap, "%s/%s", dir, name) : snprintf(dst, cap, "%s", dir);
	if (n >= 0 && (size_t)n < cap)
		return 0;
	dst[0] = 0; /* never a cut path that could name another file */
	return ka_error_set(KA_EINPUT, "path too long (over %zu bytes): %.80s...", cap - 1, dir);
}

void ka_bench_job_init(ka_bench_job *job, const ka_bench_spec *spec)
{
	memset(job, 0, sizeof *job);
	job->spec = spec;
	ka_bench_job_path(job->baseline, sizeof job->baseline, spec->dir, "baseline.cu");
	ka_bench_job_path(job->reference, sizeof job->reference, spec->dir, "reference.cu");
	ka_bench_job_path(job->candidate, sizeof job->candidate, spec->dir, "expert.cu");
	job->samples = 40;
	job->seed = 0;
	if (ka_bench_cache_default(job->build_dir, sizeof job->build_dir))
		job->build_dir[0] = 0;
	const char *nvcc =
		ka_proc_find_nvcc(); /* $KCHECK_NVCC, $CUDA_HOME, $CUDA_PATH, PATH, /usr/local/cuda */
	snprintf(job->nvcc, sizeof job->nvcc, "%s", nvcc && strlen(nvcc) < sizeof job->nvcc ? nvcc : "nvcc");
	snprintf(job->arch, sizeof job->arch, "sm_90");
	job->compile_timeout_s = 300;
	job->run_timeout_s = 900;
}

unsigned long long ka_bench_fresh_seed(void)
{
	unsigned long long v = 0;
	FILE *f = fopen("/dev/urandom", "rb");
	if (!f || fread(&v, sizeof v, 1, f) != 1)
		v = ((unsigned long long)time(NULL) << 20) ^ (unsigned long long)getpid();
	if (f)
		fclose(f);
	return v ? v : 1;
}

static int local_has_device(const ka_bench_runner *r)
{
	static const char *const nodes[] = {"/dev/nvidiactl", "/dev/nvidia0", "/dev/dxg"};
	(void)r;
	for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++)
		if (ka_fs_exists(nodes[i]))
			return 1;
	return 0;
}

static const char *dist_name(int k)
{
	return k == KA_BENCH_NORMAL ? "normal" : k == KA_BENCH_INT ? "int" : "uniform";
}

/* Drawn configurations are checked for correctness, never timed: their
 * sizes change from run to run, and a verdict must not. */
static int timed_cfg(const ka_bench_job *j, int i)
{
	if (j->spec->c[i].drawn)
		return 0;
	return j->configs == KA_BENCH_CONFIGS_ALL ||
	       (j->configs == KA_BENCH_CONFIGS_UNSEEN) == j->spec->c[i].unseen;
}

enum { PLAN_ALL, PLAN_TIMED, PLAN_SMALLEST };

static int smallest_cfg(const ka_bench_spec *s)
{
	int best = 0;
	for (int i = 1; i < s->nconfigs; i++)
		if (s->c[i].bytes < s->c[best].bytes)
			best = i;
	return best;
}

/* The plan, sent to the harness over its stdin (never left in a file). */
static int write_plan(const ka_bench_job *j, ka_buf *out, int which)
{
	const ka_bench_spec *s = j->spec;
	ka_buf b;
	int rc;
	ka_buf_init(&b, 1 << 20);
	rc = ka_buf_printf(&b, "seed %llu\nsamples %d\ndeterministic %d\ntol %.17g %.17g %.17g\n", j->seed,
			   j->samples, s->deterministic, s->atol, s->rtol, s->l2);
	/* compute-sanitizer (the smallest-config plan) injects itself into the
	 * process and needs more than the sandbox allows */
	rc |= ka_buf_printf(&b, "sandbox %d\n", which != PLAN_SMALLEST);
	rc |= ka_buf_printf(&b, "accumulate %s\n", ka_bench_dtype_name(s->accumulate));
	for (int i = 0; i < s->ntensors; i++) {
		const ka_bench_tensor *t = &s->t[i];
		rc |= ka_buf_printf(&b, "tensor %s %s %s", t->name, t->out ? "out" : "in",
				    ka_bench_dtype_name(t->dtype));
		if (!t->out)
			rc |= ka_buf_printf(&b, " %s %.17g %.17g %s %.17g %.17g", dist_name(t->dist.kind),
					    t->dist.a, t->dist.b, dist_name(t->adversarial.kind),
					    t->adversarial.a, t->adversarial.b);
		rc |= ka_buf_addc(&b, '\n');
	}
	for (int i = 0; i < s->nscalars; i++)
		rc |= ka_buf_printf(&b, "scalar %s %.17g %.17g\n", s->s[i].name, s->s[i].lo, s->s[i].hi);
	for (int i = 0; i < s->nconfigs; i++) {
		const ka_bench_config *c = &s->c[i];
		if ((which == PLAN_TIMED && !timed_cfg(j, i)) ||
		    (which == PLAN_SMALLEST && i != smallest_cfg(s)))
			continue;
		rc |= ka_buf_printf(&b, "config %s %s %lld %d", c->name, c->unseen ? "unseen" : "visible",
				    c->work, s->nparams);
		for (int k = 0; k < s->nparams; k++)
			rc |= ka_buf_printf(&b, " %lld", c->p[k]);
		rc |= ka_buf_printf(&b, " %d", s->ntensors);
		for (int k = 0; k < s->ntensors; k++)
			rc |= ka_buf_printf(&b, " %lld", c->n[k]);
		rc |= ka_buf_printf(&b, "\nreduce %s %lld\nsamples_for %s %d\n", c->name, c->reduction,
				    c->name, ka_bench_config_samples(c, j->samples));
	}
	rc |= ka_buf_adds(&b, "end\n");
	if (rc || !b.data) { /* a plan cut short must never reach the harness */
		ka_buf_free(&b);
		return ka_error_set(KA_ENOMEM, "cannot build the harness plan (too large or out of memory)");
	}
	*out = b;
	return 0;
}

/* Verdict, gate and reason; a reason longer than the result holds is cut
 * (it is a message, capped on purpose) on a UTF-8 character's boundary. */
static void reject(ka_bench_result *r, const char *v, const char *gate, const char *reason)
{
	snprintf(r->verdict, sizeof r->verdict, "%s", v);
	snprintf(r->gate, sizeof r->gate, "%s", gate);
	ka_utf8_copy(r->reason, sizeof r->reason, reason, (size_t)-1);
}

static int static_gate(const ka_bench_job *j, ka_bench_result *r)
{
	char *src = NULL;
	size_t len = 0;
	if (ka_fs_read(j->candidate, 4 << 20, &src, &len))
		return KA_EIO;
	int n = ka_bench_scan(src, len, r->findings, 16);
	free(src);
	r->nfindings = n < 16 ? n : 16;
	if (n > 0) {
		char msg[400];
		snprintf(msg, sizeof msg, "%.200s:%d: '%.64s': %.100s%s", j->candidate, r->findings[0].line,
			 r->findings[0].what, r->findings[0].reason, n > 1 ? " (and more)" : "");
		reject(r, "rejected", "static", msg);
	}
	return 0;
}

/* Builds the harness binary (*binary, caller frees) or sets the verdict. */
static int compile_gate(const ka_bench_job *j, ka_bench_result *r, char **binary)
{
	ka_bench_build b = {j->build_dir,         j->nvcc,         j->arch,
			    j->reference,         j->baseline,     j->candidate,
			    j->compile_timeout_s, j->compile_only, !j->skip_static};
	ka_bench_build_out o;
	char msg[700];
	int rc = ka_bench_build_run(&b, &o);
	r->compile_s = o.seconds;
	*binary = o.binary;
	o.binary = NULL;
	ka_bench_build_out_free(&o);
	if (rc == 0)
		return 0;
	snprintf(msg, sizeof msg, "%s", o.log[0] ? o.log : ka_error_last());
	if (o.failed == KA_BENCH_BUILD_OBJCHECK) {
		r->nfindings = o.nfindings < 16 ? o.nfindings : 16;
		memcpy(r->findings, o.findings, sizeof r->findings);
		snprintf(msg, sizeof msg, "%.400s: object: '%.64s': %.150s%s", j->candidate,
			 o.findings[0].what, o.findings[0].reason, o.nfindings > 1 ? " (and more)" : "");
		reject(r, "rejected", "static", msg);
		return 0;
	}
	if (o.failed == KA_BENCH_BUILD_CANDIDATE) {
		char m2[600];
		snprintf(m2, sizeof m2, "candidate does not compile: %.500s", msg);
		reject(r, "rejected", "compile", m2);
		return 0;
	}
	char m3[600];
	snprintf(m3, sizeof m3, "cannot build the task (%s): %.480s",
		 o.failed == KA_BENCH_BUILD_BASELINE    ? "baseline"
		 : o.failed == KA_BENCH_BUILD_REFERENCE ? "reference"
		 : o.failed == KA_BENCH_BUILD_LINK      ? "link"
							: "harness",
		 msg);
	reject(r, "error", "compile", m3);
	return 0;
}

/* Runs the harness in `mode` (under compute-sanitizer's `tool` when not
 * NULL).  The plan goes over the harness's stdin; once it has loaded and
 * says "ready", the validation seed follows, drawn here after the candidate's
 * code is in memory.  Its result lines come back over fd 3, a pipe this
 * process owns, and land in *text (caller frees). */
static int run_harness(const ka_bench_job *j, const char *binary, const char *mode, const char *tool,
		       char **text, ka_bench_result *r, ka_proc_result *pr)
{
	ka_buf log, plan, res;
	char late[64];
	*text = NULL;
	if (write_plan(j, &plan, tool ? PLAN_SMALLEST : mode[0] == 'p' ? PLAN_TIMED : PLAN_ALL))
		return KA_ENOMEM;
	char *plain[] = {(char *)binary, (char *)mode, NULL};
	char *sanitized[] = {"compute-sanitizer", "--tool", (char *)tool,   "--error-exitcode", "86",
			     "--print-limit",     "5",      (char *)binary, (char *)mode,       NULL};
	unsigned long long vseed = ka_bench_fresh_seed();
	snprintf(late, sizeof late, "vseed %llu\n", vseed);
	ka_buf_init(&log, 64 << 10);
	ka_buf_init(&res, 64 << 20);
	ka_proc_io io = {plan.data, late, &res};
	int rc = ka_proc_run_io(tool ? sanitized : plain, j->run_timeout_s, &log, &io, pr);
	ka_buf_free(&log);
	ka_buf_free(&plan);
	if (rc) {
		ka_buf_free(&res);
		return rc;
	}
	*text = strdup(res.data ? res.data : "");
	ka_buf_free(&res);
	if (!*text)
		return KA_ENOMEM;
	if (pr->timed_out && !tool) {
		char msg[128];
		snprintf(msg, sizeof msg, "the %s run exceeded its %d s limit", mode, j->run_timeout_s);
		reject(r, "rejected", mode[0] == 'p' ? "performance" : "correctness", msg);
	}
	return 0;
}

/* The harness must end with status 0 after its "done" line; anything else
 * (a candidate that exits early, however it got there) rejects. */
static void check_exit(const ka_proc_result *pr, const char *text, const char *gate, ka_bench_result *r)
{
	char msg[160];
	if (r->verdict[0] || (pr->status == 0 && strstr(text, "\ndone\n")))
		return;
	snprintf(msg, sizeof msg, "the harness exited with status %d%s%s", pr->status,
		 strstr(text, "\ndone\n") ? "" : " before finishing",
		 pr->signal == SIGSYS ? " (killed by SIGSYS: a system call the sandbox denies)" : "");
	reject(r, "rejected", gate, msg);
}

/* compute-sanitizer memcheck and racecheck on the smallest configuration.
 * Errors reject the candidate; a missing or refusing tool is recorded as
 * "unavailable" (it does not run under every GPU virtualization). */
static int sanitize(const ka_bench_job *j, const char *binary, ka_bench_result *r)
{
	static const char *const tools[] = {"memcheck", "racecheck"};
	snprintf(r->sanitizer, sizeof r->sanitizer, "passed");
	for (int t = 0; t < 2; t++) {
		char *text = NULL, msg[200];
		ka_proc_result pr;
		int rc = run_harness(j, binary, "correct", tools[t], &text, r, &pr);
		int done = text && strstr(text, "\ndone\n");
		free(text);
		if (rc)
			return rc;
		if (pr.status == 86) {
			snprintf(r->sanitizer, sizeof r->sanitizer, "failed");
			snprintf(msg, sizeof msg, "compute-sanitizer %s reports errors on config %s",
				 tools[t], j->spec->c[smallest_cfg(j->spec)].name);
			reject(r, "rejected", "sanitizer", msg);
			return 0;
		}
		if (pr.status != 0 || !done) {
			snprintf(r->sanitizer, sizeof r->sanitizer, "unavailable");
			return 0;
		}
	}
	return 0;
}

/* The harness runs: correctness, then (unless stopped there) the sanitizer
 * and the timing run. */
static int run_gates(const ka_bench_job *j, const char *binary, ka_bench_result *r)
{
	int timed[KA_BENCH_MAX_CONFIGS] = {0}, samples[KA_BENCH_MAX_CONFIGS] = {0}, rc;
	char *text = NULL;
	ka_proc_result pr;
	if ((rc = run_harness(j, binary, "correct", NULL, &text, r, &pr)))
		return rc;
	rc = ka_bench_result_parse_correct(text, j->spec, r);
	if (rc != 1)
		check_exit(&pr, text, "correctness", r);
	free(text);
	if (rc == 1)
		return ka_error_set(KA_ENOTFOUND, "no CUDA device found");
	if (r->verdict[0])
		return 0;
	if (j->correct_only) {
		reject(r, "checked", "", "");
		return 0;
	}
	if (j->sanitize && ((rc = sanitize(j, binary, r)) || r->verdict[0]))
		return rc;
	for (int i = 0; i < j->spec->nconfigs; i++)
		timed[i] = timed_cfg(j, i);
	if ((rc = run_harness(j, binary, "perf", NULL, &text, r, &pr)))
		return rc;
	for (int i = 0; i < j->spec->nconfigs; i++)
		samples[i] = ka_bench_config_samples(&j->spec->c[i], j->samples);
	rc = ka_bench_result_parse_perf(text, j->spec, timed, samples, r);
	if (rc != 1)
		check_exit(&pr, text, "performance", r);
	free(text);
	if (rc == 1)
		return ka_error_set(KA_ENOTFOUND, "no CUDA device found");
	ka_bench_result_finish(j->spec, r, j->seed);
	return 0;
}

static int local_run(const ka_bench_runner *rn, const ka_bench_job *j, ka_bench_result *r)
{
	char *binary = NULL;
	int rc;
	(void)rn;
	memset(r, 0, sizeof *r);
	if (!j->build_dir[0])
		return ka_error_set(KA_EINPUT,
				    "no cache folder: set XDG_CACHE_HOME or HOME, or give --build-dir");
	if (!j->skip_static && (rc = static_gate(j, r)))
		return rc;
	if (r->verdict[0])
		return 0;
	rc = compile_gate(j, r, &binary);
	if (!rc && !r->verdict[0]) {
		if (j->compile_only)
			reject(r, "compiled", "", "");
		else
			rc = run_gates(j, binary, r);
	}
	free(binary);
	return rc;
}

const ka_bench_runner *ka_bench_runner_local(void)
{
	static const ka_bench_runner local = {"local", local_has_device, local_run, NULL, 1};
	return &local;
}
