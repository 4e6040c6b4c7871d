/* util/cmdopt.c: a command line read by option tables (util/cmdopt.h),
 * their help lines and the nearest option name for a mistyped one. */
#include "util/cmdopt.h"
#include "util/error.h"
#include "util/text.h"
#include <stdio.h>
#include <string.h>

#define FIELD(base, o, type) ((type *)((char *)(base) + (o)->off))

static int row_end(const ka_opt *o)
{
	return !o->name && !o->key;
}

static int takes(const ka_opt *o, unsigned cmd)
{
	return o->name && (!o->cmds || (o->cmds & cmd));
}

const ka_opt *ka_cmdopt_find(const ka_opt_group *g, int ng, unsigned cmd, const char *name, int *gi)
{
	for (int k = 0; k < ng; k++)
		for (const ka_opt *o = g[k].table; !row_end(o); o++)
			if (takes(o, cmd) &&
			    (!strcmp(o->name, name) || (o->alias && !strcmp(o->alias, name)))) {
				if (gi)
					*gi = k;
				return o;
			}
	return NULL;
}

int ka_cmdopt_takes_value(const ka_opt *o)
{
	return o->kind != KA_OPT_FLAG && o->kind != KA_OPT_HELP && o->kind != KA_OPT_VERSION &&
	       o->kind != KA_OPT_CALL_FLAG;
}

int ka_cmdopt_choice(const char *const *choices, const char *v)
{
	for (int i = 0; choices[i]; i++)
		if (strcmp(v, choices[i]) == 0)
			return i;
	return -1;
}

const char *ka_cmdopt_choices_text(const char *const *choices, const char *sep)
{
	static _Thread_local char buf[256];
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; choices[i] && n < sizeof buf; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? sep : "", choices[i]);
	return buf;
}

const char *ka_cmdopt_hint(const char *pick)
{
	static _Thread_local char buf[160];
	if (!pick)
		return "";
	snprintf(buf, sizeof buf, " (did you mean '%s'?)", pick);
	return buf;
}

/* Digits only, lo..hi (the value is bounded as it is read: no overflow). */
static int parse_int(const char *v, int lo, int hi, int *out)
{
	long x = 0;
	if (!*v)
		return -1;
	for (const char *d = v; *d; d++) {
		if (*d < '0' || *d > '9' || (x = x * 10 + (*d - '0')) > hi)
			return -1;
	}
	if (x < lo)
		return -1;
	*out = (int)x;
	return 0;
}

/* X[,Y[,Z]]: digits only, each from 1 to 1024, and at most 1024 threads
 * in all (each factor is bounded first, so the product cannot overflow). */
int ka_cmdopt_parse_block(const char *v, int b[3])
{
	long d[3] = {1, 1, 1};
	const char *p = v;
	for (int i = 0; i < 3; i++) {
		long x = 0;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++)
			if ((x = x * 10 + (*p - '0')) > 1024)
				return -1;
		if (x < 1)
			return -1;
		d[i] = x;
		if (!*p)
			break;
		if (*p != ',' || i == 2)
			return -1;
		p++;
	}
	if (d[0] * d[1] * d[2] > 1024)
		return -1;
	for (int i = 0; i < 3; i++)
		b[i] = (int)d[i];
	return 0;
}

/* Grow an arena-held array of strings by one. */
static int push(ka_arena *a, const char ***v, int *n, const char *s)
{
	const char **nv = a ? ka_arena_alloc(a, (size_t)(*n + 1) * sizeof *nv) : NULL;
	if (!nv)
		return ka_error_set(KA_ENOMEM, "out of memory");
	if (*n)
		memcpy(nv, *v, (size_t)*n * sizeof *nv);
	nv[(*n)++] = s;
	*v = nv;
	return 0;
}

/* Store v (as typed after `name`) into the option's field. */
static int store(void *base, const ka_opt *o, ka_arena *a, const char *name, const char *v)
{
	switch (o->kind) {
	case KA_OPT_STR:
		*FIELD(base, o, const char *) = v;
		return 0;
	case KA_OPT_LIST:
		return push(a, FIELD(base, o, const char **), (int *)((char *)base + o->count_off), v);
	case KA_OPT_INT:
		if (parse_int(v, o->lo, o->hi, FIELD(base, o, int)) == 0)
			return 0;
		return ka_error_set(KA_EINPUT, "%s: expected a number from %d to %d, got '%s'", name, o->lo,
				    o->hi, v);
	case KA_OPT_ENUM: {
		int k = ka_cmdopt_choice(o->choices, v);
		const char *near;
		if (k >= 0) {
			*FIELD(base, o, int) = k;
			return 0;
		}
		for (k = 0; o->choices[k]; k++)
			;
		near = ka_text_nearest(v, o->choices, (size_t)k);
		return ka_error_set(KA_EINPUT, "%s: unknown value '%s'%s", name, v, ka_cmdopt_hint(near));
	}
	case KA_OPT_BLOCK:
		if (ka_cmdopt_parse_block(v, FIELD(base, o, int)) == 0)
			return 0;
		return ka_error_set(KA_EINPUT, "%s: expected X[,Y[,Z]] with at most 1024 threads, got '%s'",
				    name, v);
	case KA_OPT_CALL:
	case KA_OPT_CALL_FLAG:
		return o->call(FIELD(base, o, char), name, v);
	default:
		return ka_error_set(KA_EINPUT, "%s: not an option with a value", name);
	}
}

int ka_cmdopt_take(const ka_opt_group *g, int ng, unsigned cmd, ka_arena *arena, int argc, char **argv,
		   int *i, const ka_opt **row, int *gi)
{
	char name[64];
	const char *a = argv[*i], *val = NULL;
	const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
	size_t nl = eq ? (size_t)(eq - a) : strlen(a);
	const ka_opt *o;
	int k = 0;
	if (a[1] != '-' && strlen(a) > 2 && (o = ka_cmdopt_find(g, ng, cmd, (char[]){'-', a[1], 0}, NULL)) &&
	    ka_cmdopt_takes_value(o))
		nl = 2, val = a + 2; /* -j4, -pDIR, -oFILE */
	if (nl >= sizeof name)
		return KA_CMDOPT_UNKNOWN;
	memcpy(name, a, nl);
	name[nl] = '\0';
	if (eq)
		val = eq + 1;
	if (!(o = ka_cmdopt_find(g, ng, cmd, name, &k)))
		return KA_CMDOPT_UNKNOWN;
	if (row)
		*row = o;
	if (gi)
		*gi = k;
	if (!ka_cmdopt_takes_value(o)) {
		if (val)
			return ka_error_set(KA_EINPUT, "%s takes no value", name), KA_CMDOPT_BAD;
		if (o->kind == KA_OPT_HELP)
			return KA_CMDOPT_HELP;
		if (o->kind == KA_OPT_VERSION)
			return KA_CMDOPT_VERSION;
		if (o->kind == KA_OPT_CALL_FLAG)
			return store(g[k].base, o, arena, name, NULL) < 0 ? KA_CMDOPT_BAD : KA_CMDOPT_OK;
		*FIELD(g[k].base, o, int) = o->flag_value ? o->flag_value : 1;
		return KA_CMDOPT_OK;
	}
	if (!val) {
		if (*i + 1 >= argc)
			return KA_CMDOPT_NOVALUE;
		val = argv[++*i];
	}
	return store(g[k].base, o, arena, name, val) < 0 ? KA_CMDOPT_BAD : KA_CMDOPT_OK;
}

const char *ka_cmdopt_nearest(const ka_opt_group *g, int ng, unsigned cmd, const char *word)
{
	const char *cands[256];
	size_t n = 0;
	char w[128];
	snprintf(w, sizeof w, "%.*s", (int)strcspn(word, "="), word); /* --fromat=json */
	for (int k = 0; k < ng; k++)
		for (const ka_opt *o = g[k].table; !row_end(o) && n + 2 <= sizeof cands / sizeof *cands;
		     o++) {
			if (!takes(o, cmd))
				continue;
			cands[n++] = o->name;
			if (o->alias)
				cands[n++] = o->alias;
		}
	return ka_text_nearest(w, cands, n);
}

void ka_cmdopt_help_line(FILE *out, const ka_opt *o, int col, const char *text)
{
	char left[128];
	const char *value = o->arg ? o->arg : o->choices ? ka_cmdopt_choices_text(o->choices, "|") : NULL;
	int n = snprintf(left, sizeof left, "  %s%s%s%s%s", o->name, o->show_alias ? ", " : "",
			 o->show_alias ? o->alias : "", value ? " " : "", value ? value : "");
	col = 2 + (col ? col : 23);
	if (!text)
		text = o->help ? o->help : "";
	fprintf(out, "%s%*s", left, n < col ? col - n : 1, "");
	for (const char *nl; (nl = strchr(text, '\n')); text = nl + 1)
		fprintf(out, "%.*s\n%*s", (int)(nl - text), text, col, "");
	fprintf(out, "%s\n", text);
}

void ka_cmdopt_help_rows(FILE *out, const ka_opt_group *g, int ng, unsigned cmd)
{
	for (int pass = 0; pass < 2; pass++) /* HELP rows last */
		for (int k = 0; k < ng; k++)
			for (const ka_opt *o = g[k].table; !row_end(o); o++)
				if (takes(o, cmd) && o->help && (o->kind == KA_OPT_HELP) == pass)
					ka_cmdopt_help_line(out, o, o->col, NULL);
}
