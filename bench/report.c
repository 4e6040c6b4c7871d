/* bench/report.c: prints bench results, as text for people and as JSON
 * (schema "kernelarc.bench/1", documented in docs/bench.md) for programs.
 * Field names and their order are part of the schema: add, never rename. */
#include "bench/report.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Every append of the JSON goes through these: the first failure (the
 * buffer's cap, memory) sticks in rc, later appends are skipped, and the
 * public functions return it, so no caller prints half a document. */
typedef struct jw {
	ka_buf *b;
	int rc;
} jw;

static void put(jw *w, const char *s)
{
	if (!w->rc)
		w->rc = ka_buf_adds(w->b, s);
}

static void putch(jw *w, char c)
{
	if (!w->rc)
		w->rc = ka_buf_addc(w->b, c);
}

static void putf(jw *w, const char *fmt, ...) KA_PRINTF(2, 3);
static void putf(jw *w, const char *fmt, ...)
{
	va_list ap;
	if (w->rc)
		return;
	va_start(ap, fmt);
	w->rc = ka_buf_vprintf(w->b, fmt, ap);
	va_end(ap);
}

static void jstr(jw *w, const char *s)
{
	putch(w, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			putf(w, "\\%c", c);
		else if (c < 0x20)
			putf(w, "\\u%04x", c);
		else
			putch(w, (char)c);
	}
	putch(w, '"');
}

int ka_bench_json_str(ka_buf *b, const char *s)
{
	jw w = {b, 0};
	jstr(&w, s);
	return w.rc;
}

static void jnum(jw *w, double v)
{
	if (isfinite(v))
		putf(w, "%.6g", v);
	else
		put(w, "null");
}

static void jkey(jw *w, const char *k)
{
	jstr(w, k);
	putch(w, ':');
}

static void summary(jw *w, const char *key, const ka_bench_summary *s)
{
	jkey(w, key);
	put(w, "{\"median_us\":");
	jnum(w, s->median);
	put(w, ",\"iqr_us\":");
	jnum(w, s->iqr);
	put(w, ",\"min_us\":");
	jnum(w, s->min);
	putch(w, '}');
}

static void config_json(jw *w, const ka_bench_spec *s, const ka_bench_result *r, int i)
{
	const ka_bench_cfg_result *c = &r->cfg[i];
	put(w, "{\"name\":");
	jstr(w, s->c[i].name);
	putf(w, ",\"split\":\"%s\",\"drawn\":%s,\"params\":{", s->c[i].unseen ? "unseen" : "visible",
	     s->c[i].drawn ? "true" : "false");
	for (int k = 0; k < s->nparams; k++)
		putf(w, "%s\"%s\":%lld", k ? "," : "", s->params[k], s->c[i].p[k]);
	putf(w, "},\"bytes\":%lld,\"flops\":%lld,\"correct\":%s", s->c[i].bytes, s->c[i].flops,
	     c->correct == 1   ? "true"
	     : c->correct == 0 ? "false"
			       : "null");
	put(w, ",\"worst_error_ratio\":");
	jnum(w, c->correct == 1 ? c->worst : NAN);
	put(w, ",\"rel_l2\":");
	jnum(w, c->correct == 1 ? c->rel_l2 : NAN);
	put(w, ",\"failure\":");
	if (c->why[0])
		jstr(w, c->why);
	else
		put(w, "null");
	putf(w, ",\"timed\":%s", c->timed && c->n ? "true" : "false");
	if (c->timed && c->n) {
		putf(w, ",\"samples\":%d,\"cuda_graph\":%s,\"validated_samples\":%d,", c->n,
		     c->graph ? "true" : "false", c->validated);
		summary(w, "baseline", &c->sa);
		putch(w, ',');
		summary(w, "candidate", &c->sb);
		put(w, ",\"speedup\":{\"median\":");
		jnum(w, c->speedup);
		put(w, ",\"ci95\":[");
		jnum(w, c->lo);
		putch(w, ',');
		jnum(w, c->hi);
		put(w, "]},\"achieved_gbs\":");
		jnum(w, c->gbs);
		put(w, ",\"achieved_gflops\":");
		jnum(w, c->gflops);
		put(w, ",\"roofline_fraction\":");
		jnum(w, c->roof);
		putf(w, ",\"large\":%s", c->large ? "true" : "false");
		put(w, ",\"wall_excess_us\":");
		jnum(w, c->wall_excess_us);
		put(w, ",\"tail_excess_us\":");
		jnum(w, c->tail_excess_us);
		putf(w, ",\"checked_samples\":%d", c->checked);
	}
	putch(w, '}');
}

int ka_bench_report_json(ka_buf *b, const ka_bench_job *j, const ka_bench_result *r)
{
	const ka_bench_spec *s = j->spec;
	jw w_ = {b, 0}, *w = &w_;
	put(w, "{\"schema\":\"kernelarc.bench/1\",\"task\":");
	jstr(w, s->name);
	put(w, ",\"category\":");
	jstr(w, s->category);
	put(w, ",\"candidate\":");
	jstr(w, j->candidate);
	put(w, ",\"baseline\":");
	jstr(w, j->baseline);
	putf(w, ",\"seed\":%llu,\"arch\":", j->seed);
	jstr(w, j->arch);
	put(w, ",\"verdict\":");
	jstr(w, r->verdict);
	put(w, ",\"failed_gate\":");
	if (r->gate[0])
		jstr(w, r->gate);
	else
		put(w, "null");
	put(w, ",\"reason\":");
	if (r->reason[0])
		jstr(w, r->reason);
	else
		put(w, "null");
	put(w, ",\"sanitizer\":");
	if (r->sanitizer[0])
		jstr(w, r->sanitizer);
	else
		put(w, "null");
	put(w, ",\"static_findings\":[");
	for (int i = 0; i < r->nfindings; i++) {
		putf(w, "%s{\"line\":%d,\"token\":", i ? "," : "", r->findings[i].line);
		jstr(w, r->findings[i].what);
		put(w, ",\"reason\":");
		jstr(w, r->findings[i].reason);
		putch(w, '}');
	}
	put(w, "],\"device\":");
	if (r->device[0])
		jstr(w, r->device);
	else
		put(w, "null");
	put(w, ",\"ceilings\":{\"copy_gbs\":");
	jnum(w, r->copy_gbs > 0 ? r->copy_gbs : NAN);
	put(w, ",\"fma_gflops\":");
	jnum(w, r->fma_gflops > 0 ? r->fma_gflops : NAN);
	put(w, ",\"mma_bf16_gflops\":");
	jnum(w, r->mma_gflops > 0 ? r->mma_gflops : NAN);
	putf(w, "},\"correct\":{\"visible\":[%d,%d],\"unseen\":[%d,%d]},\"speedup\":{\"geomean\":",
	     r->correct_visible, r->total_visible, r->correct_unseen, r->total_unseen);
	jnum(w, r->geomean > 0 ? r->geomean : NAN);
	int timed = r->geomean > 0;
	put(w, ",\"ci95\":[");
	jnum(w, timed ? r->lo : NAN);
	putch(w, ',');
	jnum(w, timed ? r->hi : NAN);
	put(w, "],\"visible\":");
	jnum(w, timed ? r->geo_visible : NAN);
	put(w, ",\"unseen\":");
	jnum(w, timed ? r->geo_unseen : NAN);
	put(w, "},\"roofline_fraction_mean\":");
	jnum(w, r->geomean > 0 ? r->roof_mean : NAN);
	put(w, ",\"roofline_fraction_large\":");
	jnum(w, r->geomean > 0 ? r->roof_large : NAN);
	putf(w, ",\"suspicious\":%s,\"configs\":[", r->suspicious ? "true" : "false");
	for (int i = 0; i < s->nconfigs && r->ncfg; i++) {
		if (i)
			putch(w, ',');
		config_json(w, s, r, i);
	}
	put(w, "]}");
	return w->rc;
}

void ka_bench_report_text(FILE *f, const ka_bench_job *j, const ka_bench_result *r)
{
	const ka_bench_spec *s = j->spec;
	fprintf(f, "%s: %s", s->name, r->verdict);
	if (r->geomean > 0 && !strcmp(r->gate, ""))
		fprintf(f, " %.3fx [95%% CI %.3f, %.3f]", r->geomean, r->lo, r->hi);
	if (r->gate[0])
		fprintf(f, " at the %s gate: %s", r->gate, r->reason);
	fprintf(f, "\n");
	if (r->device[0])
		fprintf(f, "  device %s, copy %.0f GB/s, fp32 %.0f GFLOP/s\n", r->device, r->copy_gbs,
			r->fma_gflops);
	if (r->geomean > 0 && r->roof_large > 0)
		fprintf(f, "  roofline: %.0f%% over the timed configs, %.0f%% over the large ones (*)\n",
			100 * r->roof_mean, 100 * r->roof_large);
	if (!r->ncfg)
		return;
	fprintf(f, "  %-14s %-7s %-7s %11s %11s %8s %17s %8s %6s\n", "config", "split", "correct", "base_us",
		"cand_us", "speedup", "95% CI", "GB/s", "roof");
	for (int i = 0; i < s->nconfigs; i++) {
		const ka_bench_cfg_result *c = &r->cfg[i];
		fprintf(f, "  %-14s %-7s %-7s", s->c[i].name, s->c[i].unseen ? "unseen" : "visible",
			c->correct == 1   ? "yes"
			: c->correct == 0 ? "NO"
					  : "-");
		if (c->timed && c->n)
			fprintf(f, " %11.2f %11.2f %7.3fx [%6.3f, %6.3f] %8.0f %5.0f%%%s", c->sa.median,
				c->sb.median, c->speedup, c->lo, c->hi, c->gbs, 100 * c->roof,
				c->large ? " *" : "");
		fprintf(f, "\n");
	}
}

int ka_bench_report_suite_json(ka_buf *b, const ka_bench_suite_score *sc)
{
	jw w_ = {b, 0}, *w = &w_;
	putf(w, "\"score\":{\"tasks\":%d,\"passed\":%d,\"correct_visible\":", sc->tasks, sc->passed);
	jnum(w, sc->correct_visible);
	put(w, ",\"correct_unseen\":");
	jnum(w, sc->correct_unseen);
	put(w, ",\"fast_p\":{");
	for (int k = 0; k < 4; k++) {
		putf(w, "%s\"%.1f\":", k ? "," : "", ka_bench_fast_p[k]);
		jnum(w, sc->fast_p[k]);
	}
	put(w, "},\"geomean_speedup\":");
	jnum(w, sc->geomean);
	put(w, ",\"generalization_gap\":{\"correctness\":");
	jnum(w, sc->gap_correct);
	put(w, ",\"speedup_visible_over_unseen\":");
	jnum(w, sc->gap_speedup);
	put(w, "},\"roofline_fraction_mean\":");
	jnum(w, sc->roof_mean);
	put(w, ",\"roofline_fraction_large_mean\":");
	jnum(w, sc->roof_large_mean);
	putch(w, '}');
	return w->rc;
}
