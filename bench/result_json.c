/* bench/result_json.c: a bench verdict document (schema "kernelarc.bench/1",
 * bench/report.c) read back into a ka_bench_result, for the runners that
 * run the bench in another process or on another host (bench/scale.h).
 * libyaml reads it (JSON is YAML's flow style), so the bench still needs
 * no JSON library.  The document came from a file another machine wrote:
 * every field is checked for its kind, strings are cut to their field on a
 * UTF-8 boundary, and anything missing stays zero. */
#include "bench/scale.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "util/error.h"
#include "util/utf8.h"

typedef struct jdoc {
	yaml_document_t d;
} jdoc;

static yaml_node_t *get(jdoc *j, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&j->d, p->key);
		if (k && k->type == YAML_SCALAR_NODE && k->data.scalar.length == strlen(key) &&
		    !memcmp(k->data.scalar.value, key, k->data.scalar.length))
			return yaml_document_get_node(&j->d, p->value);
	}
	return NULL;
}

static yaml_node_t *item(jdoc *j, yaml_node_t *seq, int i)
{
	if (!seq || seq->type != YAML_SEQUENCE_NODE || i < 0 ||
	    i >= (int)(seq->data.sequence.items.top - seq->data.sequence.items.start))
		return NULL;
	return yaml_document_get_node(&j->d, seq->data.sequence.items.start[i]);
}

static int count(yaml_node_t *seq)
{
	return seq && seq->type == YAML_SEQUENCE_NODE
		       ? (int)(seq->data.sequence.items.top - seq->data.sequence.items.start)
		       : 0;
}

/* A scalar that was written as a JSON string (quoted), into dst. */
static void str(yaml_node_t *n, char *dst, size_t cap)
{
	dst[0] = 0;
	if (n && n->type == YAML_SCALAR_NODE && n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		ka_utf8_copy(dst, cap, (const char *)n->data.scalar.value, n->data.scalar.length);
}

/* A number (null and anything else: NAN). */
static double num(yaml_node_t *n)
{
	if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
	    n->data.scalar.length == 0 || n->data.scalar.length > 60)
		return NAN;
	char buf[64], *end;
	memcpy(buf, n->data.scalar.value, n->data.scalar.length);
	buf[n->data.scalar.length] = 0;
	double v = strtod(buf, &end);
	return *end ? NAN : v;
}

static double num0(yaml_node_t *n)
{
	double v = num(n);
	return isfinite(v) ? v : 0;
}

static int ival(yaml_node_t *n)
{
	double v = num(n);
	return isfinite(v) && v >= -1e9 && v <= 1e9 ? (int)v : 0;
}

static int is_word(yaml_node_t *n, const char *w)
{
	return n && n->type == YAML_SCALAR_NODE && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       n->data.scalar.length == strlen(w) && !memcmp(n->data.scalar.value, w, strlen(w));
}

static void summary(jdoc *j, yaml_node_t *n, ka_bench_summary *s)
{
	s->median = num0(get(j, n, "median_us"));
	s->iqr = num0(get(j, n, "iqr_us"));
	s->min = num0(get(j, n, "min_us"));
}

static void config(jdoc *j, yaml_node_t *c, ka_bench_cfg_result *r)
{
	yaml_node_t *k = get(j, c, "correct");
	r->correct = is_word(k, "true") ? 1 : is_word(k, "false") ? 0 : -1;
	r->worst = num0(get(j, c, "worst_error_ratio"));
	r->rel_l2 = num0(get(j, c, "rel_l2"));
	str(get(j, c, "failure"), r->why, sizeof r->why);
	if (!is_word(get(j, c, "timed"), "true"))
		return;
	r->timed = 1;
	r->n = ival(get(j, c, "samples"));
	r->graph = is_word(get(j, c, "cuda_graph"), "true");
	r->validated = ival(get(j, c, "validated_samples"));
	summary(j, get(j, c, "baseline"), &r->sa);
	summary(j, get(j, c, "candidate"), &r->sb);
	yaml_node_t *sp = get(j, c, "speedup");
	r->speedup = num0(get(j, sp, "median"));
	r->lo = num0(item(j, get(j, sp, "ci95"), 0));
	r->hi = num0(item(j, get(j, sp, "ci95"), 1));
	r->gbs = num0(get(j, c, "achieved_gbs"));
	r->gflops = num0(get(j, c, "achieved_gflops"));
	r->roof = num0(get(j, c, "roofline_fraction"));
	r->large = is_word(get(j, c, "large"), "true");
	r->wall_excess_us = num0(get(j, c, "wall_excess_us"));
	r->tail_excess_us = num0(get(j, c, "tail_excess_us"));
	r->checked = ival(get(j, c, "checked_samples"));
}

int ka_bench_result_from_json(const char *text, const ka_bench_spec *spec, ka_bench_result *r)
{
	yaml_parser_t p;
	jdoc j;
	char schema[40];
	memset(r, 0, sizeof *r);
	if (!yaml_parser_initialize(&p))
		return ka_error_set(KA_ENOMEM, "out of memory");
	yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
	if (!yaml_parser_load(&p, &j.d)) {
		yaml_parser_delete(&p);
		return ka_error_set(KA_EINPUT, "the bench result is not JSON");
	}
	yaml_parser_delete(&p);
	yaml_node_t *root = yaml_document_get_root_node(&j.d);
	str(get(&j, root, "schema"), schema, sizeof schema);
	if (strcmp(schema, "kernelarc.bench/1")) {
		yaml_document_delete(&j.d);
		return ka_error_set(KA_EINPUT, "the bench result is not a kernelarc.bench/1 document");
	}
	str(get(&j, root, "verdict"), r->verdict, sizeof r->verdict);
	str(get(&j, root, "failed_gate"), r->gate, sizeof r->gate);
	str(get(&j, root, "reason"), r->reason, sizeof r->reason);
	str(get(&j, root, "sanitizer"), r->sanitizer, sizeof r->sanitizer);
	str(get(&j, root, "device"), r->device, sizeof r->device);
	yaml_node_t *f = get(&j, root, "static_findings");
	for (int i = 0; i < count(f) && r->nfindings < 16; i++, r->nfindings++) {
		ka_bench_finding *x = &r->findings[r->nfindings];
		x->line = ival(get(&j, item(&j, f, i), "line"));
		str(get(&j, item(&j, f, i), "token"), x->what, sizeof x->what);
		x->reason = "static finding (the job's JSON result has the reason)";
	}
	yaml_node_t *ce = get(&j, root, "ceilings");
	r->copy_gbs = num0(get(&j, ce, "copy_gbs"));
	r->fma_gflops = num0(get(&j, ce, "fma_gflops"));
	r->mma_gflops = num0(get(&j, ce, "mma_bf16_gflops"));
	yaml_node_t *co = get(&j, root, "correct");
	r->correct_visible = ival(item(&j, get(&j, co, "visible"), 0));
	r->total_visible = ival(item(&j, get(&j, co, "visible"), 1));
	r->correct_unseen = ival(item(&j, get(&j, co, "unseen"), 0));
	r->total_unseen = ival(item(&j, get(&j, co, "unseen"), 1));
	yaml_node_t *sp = get(&j, root, "speedup");
	r->geomean = num0(get(&j, sp, "geomean"));
	r->lo = num0(item(&j, get(&j, sp, "ci95"), 0));
	r->hi = num0(item(&j, get(&j, sp, "ci95"), 1));
	r->geo_visible = num0(get(&j, sp, "visible"));
	r->geo_unseen = num0(get(&j, sp, "unseen"));
	r->roof_mean = num0(get(&j, root, "roofline_fraction_mean"));
	r->roof_large = num0(get(&j, root, "roofline_fraction_large"));
	r->suspicious = is_word(get(&j, root, "suspicious"), "true");
	yaml_node_t *cs = get(&j, root, "configs");
	for (int i = 0; i < count(cs); i++) {
		char name[KA_BENCH_NAME];
		str(get(&j, item(&j, cs, i), "name"), name, sizeof name);
		for (int k = 0; spec && k < spec->nconfigs; k++)
			if (!strcmp(spec->c[k].name, name)) {
				config(&j, item(&j, cs, i), &r->cfg[k]);
				r->ncfg = spec->nconfigs;
			}
	}
	yaml_document_delete(&j.d);
	if (!r->verdict[0])
		return ka_error_set(KA_EINPUT, "the bench result has no verdict");
	return 0;
}
