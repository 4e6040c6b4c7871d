/* agents/optimize_report.c: what `kcheck optimize` leaves in its output
 * folder besides the kernels: trajectory.json (every step, machine-
 * readable), report.md (the per-step table, and what the summarizer
 * distilled) and speedup.svg (the best's speedup over the baseline after
 * each step, one bar per step coloured by outcome).  Every file is written
 * atomically. */
#include "agents/optimize.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/fs.h"
#include "util/utf8.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string of s as valid UTF-8 (a byte cut upstream, an invalid
 * byte from a compiler or a model, cannot fail the whole file). */
static json_t *jstr(const char *s)
{
	char v[1024];
	ka_utf8_copy(v, sizeof v, s ? s : "", (size_t)-1);
	return json_string(v);
}

/* "learned_rules": the learned rules in the prompt; "distilled": {"rule":
 * ID} or {"refused": WHY} after an accepted LLM step, else null. */
static void add_summarizer(json_t *o, const ka_opt_step *st)
{
	json_t *ids = json_array();
	char copy[sizeof st->learned];
	snprintf(copy, sizeof copy, "%s", st->learned);
	for (char *save = NULL, *id = strtok_r(copy, " ", &save); ids && id; id = strtok_r(NULL, " ", &save))
		json_array_append_new(ids, jstr(id));
	json_object_set_new(o, "learned_rules", ids ? ids : json_null());
	if (st->distilled[0])
		json_object_set_new(o, "distilled", json_pack("{s:o}", "rule", jstr(st->distilled)));
	else if (st->distill_refused[0])
		json_object_set_new(o, "distilled", json_pack("{s:o}", "refused", jstr(st->distill_refused)));
	else
		json_object_set_new(o, "distilled", json_null());
}

/* report.md's lines for what the summarizer did, when it did anything. */
static void report_summarizer(ka_buf *b, const ka_opt_summary *s)
{
	int any = 0;
	for (int i = 0; i < s->nsteps; i++) {
		const ka_opt_step *st = &s->steps[i];
		if (!st->learned[0] && !st->distilled[0] && !st->distill_refused[0])
			continue;
		if (!any++)
			ka_buf_adds(b, "\n## Summarizer\n\n");
		if (st->learned[0])
			ka_buf_printf(
				b, "- step %d: learned rules in the prompt (they fired on the kernel): %s\n",
				st->step, st->learned);
		if (st->distilled[0])
			ka_buf_printf(
				b,
				"- step %d: the win was distilled into `%s`, a candidate rule: it takes part "
				"in later runs and becomes preview once a win is reproduced on another "
				"task (`kcheck knowledge show %s`)\n",
				st->step, st->distilled, st->distilled);
		else if (st->distill_refused[0]) {
			char why[256];
			snprintf(why, sizeof why, "%s", st->distill_refused);
			for (char *p = why; *p; p++)
				if (*p == '\n')
					*p = ' ';
			ka_buf_printf(b, "- step %d: the win was not distilled: %s\n", st->step, why);
		}
	}
}

static int json_failed(json_t *root, const json_error_t *e, const char *path)
{
	json_decref(root);
	return ka_error_set(KA_ENOMEM, "cannot write %s: %s", path, e->text[0] ? e->text : "out of memory");
}

int ka_opt_write_trajectory(const char *path, const char *task, const ka_opt_summary *s, int compile_only)
{
	json_error_t e = {0};
	json_t *root = json_pack_ex(&e, 0, "{s:o, s:b, s:f, s:o, s:[]}", "task", jstr(task), "compile_only",
				    compile_only, "speedup", s->speedup, "stop", jstr(s->stop), "steps");
	if (!root)
		return json_failed(NULL, &e, path);
	json_t *arr = json_object_get(root, "steps");
	for (int i = 0; i < s->nsteps; i++) {
		const ka_opt_step *st = &s->steps[i];
		json_t *o = json_pack_ex(&e, 0, "{s:i, s:o, s:o, s:o, s:o, s:o, s:b, s:b, s:f, s:f}", "step",
					 st->step, "strategy", jstr(st->strategy), "params", jstr(st->params),
					 "rule", jstr(st->rule), "candidate_hash", jstr(st->hash), "outcome",
					 jstr(st->outcome), "accepted", st->accepted, "repaired",
					 st->repaired, "best_speedup", st->total, "seconds", st->seconds);
		if (!o)
			return json_failed(root, &e, path);
		if (st->speedup > 0) {
			json_object_set_new(o, "speedup", json_real(st->speedup));
			json_object_set_new(o, "ci", json_pack("[f, f]", st->lo, st->hi));
			json_object_set_new(o, "roofline", json_real(st->roofline));
			json_object_set_new(o, "roofline_large",
					    st->roofline_large > 0 ? json_real(st->roofline_large)
								   : json_null());
		} else {
			json_object_set_new(o, "speedup", json_null());
		}
		json_object_set_new(o, "first_error", st->error[0] ? jstr(st->error) : json_null());
		/* the round (benched side by side with the round's others) and its GPU */
		json_object_set_new(o, "round", json_integer(st->round));
		json_object_set_new(o, "gpu", st->gpu >= 0 ? json_integer(st->gpu) : json_null());
		/* a sequence: the step whose candidate it rewrote (its speedup is the
		 * whole sequence's over the best before that step) */
		json_object_set_new(o, "builds_on",
				    st->builds_on ? json_integer(st->builds_on) : json_null());
		add_summarizer(o, st);
		json_array_append_new(arr, o);
	}
	char *text = json_dumps(root, JSON_INDENT(2));
	json_decref(root);
	if (!text)
		return ka_error_set(KA_ENOMEM, "cannot write %s: out of memory", path);
	int rc = ka_fs_write_atomic(path, text, strlen(text));
	free(text);
	return rc;
}

static const char *colour(const ka_opt_step *st)
{
	if (st->accepted)
		return "#2e7d32";
	if (!strcmp(st->outcome, "unverified"))
		return "#9e9e9e";
	if (!strcmp(st->outcome, "declined") || !strcmp(st->outcome, "known"))
		return "#90caf9"; /* not tried on the GPU: not "not faster" */
	if (!strcmp(st->outcome, "compile_error") || !strcmp(st->outcome, "incorrect") ||
	    !strcmp(st->outcome, "error"))
		return "#c62828";
	return "#f9a825";
}

int ka_opt_svg(const ka_opt_summary *s, ka_buf *b)
{
	int n = s->nsteps > 0 ? s->nsteps : 1, w = 60 + 40 * n, h = 240;
	double top = 1.0;
	for (int i = 0; i < s->nsteps; i++)
		top = s->steps[i].total > top ? s->steps[i].total : top;
	top *= 1.15;
	ka_buf_printf(
		b,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
		"font-size=\"11\">\n<title>speedup over the baseline after each step</title>\n",
		w, h);
	ka_buf_printf(b, "<line x1=\"40\" y1=\"200\" x2=\"%d\" y2=\"200\" stroke=\"black\"/>\n", w - 10);
	double y1 = 200 - 180 * (1.0 / top);
	ka_buf_printf(
		b,
		"<line x1=\"40\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888\" stroke-dasharray=\"4\"/>"
		"<text x=\"4\" y=\"%.1f\">1.0x</text>\n",
		y1, w - 10, y1, y1 + 4);
	for (int i = 0; i < s->nsteps; i++) {
		const ka_opt_step *st = &s->steps[i];
		double bh = 180 * st->total / top;
		ka_buf_printf(
			b,
			"<rect x=\"%d\" y=\"%.1f\" width=\"28\" height=\"%.1f\" fill=\"%s\"><title>step %d: %s %s: %s, "
			"best %.3fx</title></rect>\n",
			46 + 40 * i, 200 - bh, bh, colour(st), st->step, st->strategy, st->params,
			st->outcome, st->total);
		ka_buf_printf(b, "<text x=\"%d\" y=\"215\">%d</text><text x=\"%d\" y=\"%.1f\">%.2f</text>\n",
			      54 + 40 * i, st->step, 46 + 40 * i, 196 - bh, st->total);
	}
	ka_buf_printf(
		b, "<text x=\"40\" y=\"232\">step (green: accepted, yellow: not faster, red: failed, grey: "
		   "unverified, blue: declined or known, not run)</text>\n</svg>\n");
	return b->data ? KA_OK : ka_error_set(KA_ENOMEM, "out of memory");
}

int ka_opt_write_report(const char *dir, const char *task, const ka_opt_summary *s, int compile_only)
{
	ka_buf b, svg;
	ka_buf_init(&b, 4 << 20);
	ka_buf_init(&svg, 4 << 20);
	ka_buf_printf(&b, "# kcheck optimize: %s\n\n", task);
	if (compile_only)
		ka_buf_adds(
			&b,
			"Compile-only run: candidates passed or failed the static and compile gates only; none was "
			"verified on a GPU, none was accepted, no evidence was written.\n\n");
	ka_buf_printf(
		&b,
		"Best: %.3fx over the baseline after %d steps (stopped: %s). Files: `best.cu`, "
		"`best.patch`, `trajectory.json`, `candidates/`.\n\n![speedup per step](speedup.svg)\n\n",
		s->speedup, s->nsteps, s->stop[0] ? s->stop : "-");
	ka_buf_adds(
		&b,
		"| step | strategy | parameters | rule | outcome | speedup [95% CI] | best | first error |\n"
		"|---|---|---|---|---|---|---|---|\n");
	for (int i = 0; i < s->nsteps; i++) {
		const ka_opt_step *st = &s->steps[i];
		char sp[64] = "-", err[256];
		if (st->speedup > 0)
			snprintf(sp, sizeof sp, "%.3f [%.3f, %.3f]", st->speedup, st->lo, st->hi);
		snprintf(err, sizeof err, "%s", st->error[0] ? st->error : "");
		for (char *p = err; *p; p++)
			if (*p == '|' || *p == '\n')
				*p = ' ';
		char link[160] = "";
		if (st->patch[0])
			snprintf(link, sizeof link, " ([patch](%s))", st->patch);
		else if (st->gpu >= 0) /* --gpus: where its bench ran */
			snprintf(link, sizeof link, " (GPU %d)", st->gpu);
		char seq[80] = "";
		if (st->builds_on)
			snprintf(seq, sizeof seq, " (a sequence: on step %d's candidate)", st->builds_on);
		ka_buf_printf(&b, "| %d | %s | %s | %s | %s%s%s%s%s | %s | %.3f | %s |\n", st->step,
			      st->strategy, st->params, st->rule[0] ? st->rule : "-", st->outcome,
			      st->accepted ? " (accepted)" : "", st->repaired ? " (after repair)" : "", link,
			      seq, sp, st->total, err);
	}
	for (int i = 0; i < s->nsteps; i++)
		if (s->steps[i].builds_on) {
			ka_buf_adds(
				&b,
				"\nA sequence (strategies joined by `+`) is a recipe applied to the result of "
				"the step it names, benched as one candidate against the best before "
				"that step: its speedup is the whole sequence's. Its last recipe's own "
				"share was not measured, so it is no rule's evidence.\n");
			break;
		}
	report_summarizer(&b, s);
	int rc = b.data ? ka_opt_svg(s, &svg) : ka_error_set(KA_ENOMEM, "out of memory");
	char p[1100];
	if (rc == KA_OK && snprintf(p, sizeof p, "%s/report.md", dir) >= (int)sizeof p)
		rc = ka_error_set(KA_EINPUT, "path too long: %.80s...", dir);
	if (rc == KA_OK)
		rc = ka_fs_write_atomic(p, b.data, b.len);
	if (rc == KA_OK && snprintf(p, sizeof p, "%s/speedup.svg", dir) >= (int)sizeof p)
		rc = ka_error_set(KA_EINPUT, "path too long: %.80s...", dir);
	if (rc == KA_OK)
		rc = ka_fs_write_atomic(p, svg.data, svg.len);
	ka_buf_free(&b);
	ka_buf_free(&svg);
	return rc;
}
