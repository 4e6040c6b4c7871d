/* bench/report.c: prints bench results, as text for people and as JSON
 * (schema "kernelarc.bench/1", documented in docs/bench.md) for programs.
 * Field names and their order are part of the schema: add, never rename. */
#include "bench/report.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static void jstr(ka_buf *b, const char *s)
{
	ka_buf_addc(b, '"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') ka_buf_printf(b, "\\%c", c);
		else if (c < 0x20) ka_buf_printf(b, "\\u%04x", c);
		else ka_buf_addc(b, (char)c);
	}
	ka_buf_addc(b, '"');
}

void ka_bench_json_str(ka_buf *b, const char *s) { jstr(b, s); }

static void jnum(ka_buf *b, double v)
{
	if (isfinite(v)) ka_buf_printf(b, "%.6g", v);
	else ka_buf_adds(b, "null");
}

static void jkey(ka_buf *b, const char *k)
{
	jstr(b, k);
	ka_buf_addc(b, ':');
}

static void summary(ka_buf *b, const char *key, const ka_bench_summary *s)
{
	jkey(b, key);
	ka_buf_adds(b, "{\"median_us\":");
	jnum(b, s->median);
	ka_buf_adds(b, ",\"iqr_us\":");
	jnum(b, s->iqr);
	ka_buf_adds(b, ",\"min_us\":");
	jnum(b, s->min);
	ka_buf_addc(b, '}');
}

static void config_json(ka_buf *b, const ka_bench_spec *s, const ka_bench_result *r, int i)
{
	const ka_bench_cfg_result *c = &r->cfg[i];
	ka_buf_adds(b, "{\"name\":");
	jstr(b, s->c[i].name);
	ka_buf_printf(b, ",\"split\":\"%s\",\"drawn\":%s,\"params\":{", s->c[i].unseen ? "unseen" : "visible",
		      s->c[i].drawn ? "true" : "false");
	for (int k = 0; k < s->nparams; k++) ka_buf_printf(b, "%s\"%s\":%lld", k ? "," : "", s->params[k], s->c[i].p[k]);
	ka_buf_printf(b, "},\"bytes\":%lld,\"flops\":%lld,\"correct\":%s", s->c[i].bytes, s->c[i].flops,
		      c->correct == 1 ? "true" : c->correct == 0 ? "false" : "null");
	ka_buf_adds(b, ",\"worst_error_ratio\":");
	jnum(b, c->correct == 1 ? c->worst : NAN);
	ka_buf_adds(b, ",\"rel_l2\":");
	jnum(b, c->correct == 1 ? c->rel_l2 : NAN);
	ka_buf_adds(b, ",\"failure\":");
	if (c->why[0]) jstr(b, c->why);
	else ka_buf_adds(b, "null");
	ka_buf_printf(b, ",\"timed\":%s", c->timed && c->n ? "true" : "false");
	if (c->timed && c->n) {
		ka_buf_printf(b, ",\"samples\":%d,\"cuda_graph\":%s,\"validated_samples\":%d,", c->n,
			      c->graph ? "true" : "false", c->validated);
		summary(b, "baseline", &c->sa);
		ka_buf_addc(b, ',');
		summary(b, "candidate", &c->sb);
		ka_buf_adds(b, ",\"speedup\":{\"median\":");
		jnum(b, c->speedup);
		ka_buf_adds(b, ",\"ci95\":[");
		jnum(b, c->lo);
		ka_buf_addc(b, ',');
		jnum(b, c->hi);
		ka_buf_adds(b, "]},\"achieved_gbs\":");
		jnum(b, c->gbs);
		ka_buf_adds(b, ",\"achieved_gflops\":");
		jnum(b, c->gflops);
		ka_buf_adds(b, ",\"roofline_fraction\":");
		jnum(b, c->roof);
		ka_buf_adds(b, ",\"wall_excess_us\":");
		jnum(b, c->wall_excess_us);
		ka_buf_adds(b, ",\"tail_excess_us\":");
		jnum(b, c->tail_excess_us);
		ka_buf_printf(b, ",\"checked_samples\":%d", c->checked);
	}
	ka_buf_addc(b, '}');
}

void ka_bench_report_json(ka_buf *b, const ka_bench_job *j, const ka_bench_result *r)
{
	const ka_bench_spec *s = j->spec;
	ka_buf_adds(b, "{\"schema\":\"kernelarc.bench/1\",\"task\":");
	jstr(b, s->name);
	ka_buf_adds(b, ",\"category\":");
	jstr(b, s->category);
	ka_buf_adds(b, ",\"candidate\":");
	jstr(b, j->candidate);
	ka_buf_adds(b, ",\"baseline\":");
	jstr(b, j->baseline);
	ka_buf_printf(b, ",\"seed\":%llu,\"arch\":", j->seed);
	jstr(b, j->arch);
	ka_buf_adds(b, ",\"verdict\":");
	jstr(b, r->verdict);
	ka_buf_adds(b, ",\"failed_gate\":");
	if (r->gate[0]) jstr(b, r->gate);
	else ka_buf_adds(b, "null");
	ka_buf_adds(b, ",\"reason\":");
	if (r->reason[0]) jstr(b, r->reason);
	else ka_buf_adds(b, "null");
	ka_buf_adds(b, ",\"sanitizer\":");
	if (r->sanitizer[0]) jstr(b, r->sanitizer);
	else ka_buf_adds(b, "null");
	ka_buf_adds(b, ",\"static_findings\":[");
	for (int i = 0; i < r->nfindings; i++) {
		ka_buf_printf(b, "%s{\"line\":%d,\"token\":", i ? "," : "", r->findings[i].line);
		jstr(b, r->findings[i].what);
		ka_buf_adds(b, ",\"reason\":");
		jstr(b, r->findings[i].reason);
		ka_buf_addc(b, '}');
	}
	ka_buf_adds(b, "],\"device\":");
	if (r->device[0]) jstr(b, r->device);
	else ka_buf_adds(b, "null");
	ka_buf_adds(b, ",\"ceilings\":{\"copy_gbs\":");
	jnum(b, r->copy_gbs > 0 ? r->copy_gbs : NAN);
	ka_buf_adds(b, ",\"fma_gflops\":");
	jnum(b, r->fma_gflops > 0 ? r->fma_gflops : NAN);
	ka_buf_printf(b, "},\"correct\":{\"visible\":[%d,%d],\"unseen\":[%d,%d]},\"speedup\":{\"geomean\":",
		      r->correct_visible, r->total_visible, r->correct_unseen, r->total_unseen);
	jnum(b, r->geomean > 0 ? r->geomean : NAN);
	int timed = r->geomean > 0;
	ka_buf_adds(b, ",\"ci95\":[");
	jnum(b, timed ? r->lo : NAN);
	ka_buf_addc(b, ',');
	jnum(b, timed ? r->hi : NAN);
	ka_buf_adds(b, "],\"visible\":");
	jnum(b, timed ? r->geo_visible : NAN);
	ka_buf_adds(b, ",\"unseen\":");
	jnum(b, timed ? r->geo_unseen : NAN);
	ka_buf_adds(b, "},\"roofline_fraction_mean\":");
	jnum(b, r->geomean > 0 ? r->roof_mean : NAN);
	ka_buf_printf(b, ",\"suspicious\":%s,\"configs\":[", r->suspicious ? "true" : "false");
	for (int i = 0; i < s->nconfigs && r->ncfg; i++) {
		if (i) ka_buf_addc(b, ',');
		config_json(b, s, r, i);
	}
	ka_buf_adds(b, "]}");
}

void ka_bench_report_text(FILE *f, const ka_bench_job *j, const ka_bench_result *r)
{
	const ka_bench_spec *s = j->spec;
	fprintf(f, "%s: %s", s->name, r->verdict);
	if (r->geomean > 0 && !strcmp(r->gate, ""))
		fprintf(f, " %.3fx [95%% CI %.3f, %.3f]", r->geomean, r->lo, r->hi);
	if (r->gate[0]) fprintf(f, " at the %s gate: %s", r->gate, r->reason);
	fprintf(f, "\n");
	if (r->device[0]) fprintf(f, "  device %s, copy %.0f GB/s, fp32 %.0f GFLOP/s\n", r->device, r->copy_gbs, r->fma_gflops);
	if (!r->ncfg) return;
	fprintf(f, "  %-14s %-7s %-7s %11s %11s %8s %17s %8s %6s\n", "config", "split", "correct", "base_us", "cand_us",
		"speedup", "95% CI", "GB/s", "roof");
	for (int i = 0; i < s->nconfigs; i++) {
		const ka_bench_cfg_result *c = &r->cfg[i];
		fprintf(f, "  %-14s %-7s %-7s", s->c[i].name, s->c[i].unseen ? "unseen" : "visible",
			c->correct == 1 ? "yes" : c->correct == 0 ? "NO" : "-");
		if (c->timed && c->n)
			fprintf(f, " %11.2f %11.2f %7.3fx [%6.3f, %6.3f] %8.0f %5.0f%%", c->sa.median, c->sb.median, c->speedup,
				c->lo, c->hi, c->gbs, 100 * c->roof);
		fprintf(f, "\n");
	}
}

void ka_bench_report_suite_json(ka_buf *b, const ka_bench_suite_score *sc)
{
	ka_buf_printf(b, "\"score\":{\"tasks\":%d,\"passed\":%d,\"correct_visible\":", sc->tasks, sc->passed);
	jnum(b, sc->correct_visible);
	ka_buf_adds(b, ",\"correct_unseen\":");
	jnum(b, sc->correct_unseen);
	ka_buf_adds(b, ",\"fast_p\":{");
	for (int k = 0; k < 4; k++) {
		ka_buf_printf(b, "%s\"%.1f\":", k ? "," : "", ka_bench_fast_p[k]);
		jnum(b, sc->fast_p[k]);
	}
	ka_buf_adds(b, "},\"geomean_speedup\":");
	jnum(b, sc->geomean);
	ka_buf_adds(b, ",\"generalization_gap\":{\"correctness\":");
	jnum(b, sc->gap_correct);
	ka_buf_adds(b, ",\"speedup_visible_over_unseen\":");
	jnum(b, sc->gap_speedup);
	ka_buf_adds(b, "},\"roofline_fraction_mean\":");
	jnum(b, sc->roof_mean);
	ka_buf_addc(b, '}');
}
