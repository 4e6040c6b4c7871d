/* cli/tool_getparam.c: a command line -> ka_tool_cfg, by the option table
 * (tool_opts.c).
 *
 * Long options take `--opt VALUE` or `--opt=VALUE`; short ones `-j 4` or
 * `-j4`.  Everything after `--` is compiler flags (kcheck, kcheck facts).
 * Each option records that the command line set it, so .kcheck.yaml only
 * fills the rest. */
#include "cli/tools.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Grow an arena-held array of strings by one. */
static void push(ka_arena *a, const char ***v, int *n, const char *s)
{
	const char **nv = ka_arena_alloc(a, (size_t)(*n + 1) * sizeof *nv);
	if (*n)
		memcpy(nv, *v, (size_t)*n * sizeof *nv);
	nv[(*n)++] = s;
	*v = nv;
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
int ka_tool_parse_block(const char *v, int b[3])
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

#define FIELD(c, o, type) ((type *)((char *)(c) + (o)->off))

static const ka_opt *find(unsigned cmd, const char *name)
{
	for (const ka_opt *o = ka_tool_opts(); o->name || o->key; o++)
		if (o->name && (o->cmds & cmd) &&
		    (!strcmp(o->name, name) || (o->alias && !strcmp(o->alias, name))))
			return o;
	return NULL;
}

/* Store v (as typed after `name`) into the option's field. */
static int store(ka_tool_cfg *c, const ka_opt *o, const char *name, const char *v)
{
	switch (o->kind) {
	case KA_OPT_STR:
		*FIELD(c, o, const char *) = v;
		return 0;
	case KA_OPT_LIST:
		push(c->arena, FIELD(c, o, const char **), (int *)((char *)c + o->count_off), v);
		return 0;
	case KA_OPT_INT:
		if (parse_int(v, o->lo, o->hi, FIELD(c, o, int)) == 0)
			return 0;
		ka_tool_error("%s: expected a number from %d to %d, got '%s'", name, o->lo, o->hi, v);
		return KA_EXIT_ERROR;
	case KA_OPT_ENUM: {
		int k = ka_tool_choice(o->choices, v);
		if (k >= 0) {
			*FIELD(c, o, int) = k;
			return 0;
		}
		ka_tool_error("%s: unknown value '%s'%s", name, v, ka_tool_suggest_value(o->choices, v));
		return KA_EXIT_ERROR;
	}
	case KA_OPT_BLOCK:
		if (ka_tool_parse_block(v, FIELD(c, o, int)) == 0)
			return 0;
		ka_tool_error("%s: expected X[,Y[,Z]] with at most 1024 threads, got '%s'", name, v);
		return KA_EXIT_ERROR;
	default:
		return KA_EXIT_ERROR;
	}
}

static int takes_value(const ka_opt *o)
{
	return o->kind != KA_OPT_FLAG && o->kind != KA_OPT_HELP && o->kind != KA_OPT_VERSION;
}

/* One option at argv[*i]; advances *i past its value. */
static int one_option(ka_tool_cfg *c, unsigned cmd, int argc, char **argv, int *i)
{
	char name[64];
	const char *a = argv[*i], *val = NULL;
	const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
	size_t nl = eq ? (size_t)(eq - a) : strlen(a);
	const ka_opt *o;
	if (a[1] != '-' && strlen(a) > 2 && (o = find(cmd, (char[]){'-', a[1], 0})) && takes_value(o))
		nl = 2, val = a + 2; /* -j4, -pDIR, -oFILE */
	if (nl >= sizeof name) {
		c->bad_option = a;
		return KA_TOOL_UNKNOWN;
	}
	memcpy(name, a, nl);
	name[nl] = '\0';
	if (eq)
		val = eq + 1;
	if (!(o = find(cmd, name))) {
		c->bad_option = a;
		return KA_TOOL_UNKNOWN;
	}
	if (!takes_value(o)) {
		if (val) {
			ka_tool_error("%s takes no value", name);
			return KA_EXIT_ERROR;
		}
		if (o->kind == KA_OPT_HELP || o->kind == KA_OPT_VERSION) {
			if (o->kind == KA_OPT_HELP)
				ka_tool_help_cmd(stdout, cmd);
			else
				ka_tool_version(stdout);
			return -1;
		}
		*FIELD(c, o, int) = o->flag_value ? o->flag_value : 1;
		c->set[o - ka_tool_opts()] = 1;
		return 0;
	}
	if (!val) {
		if (*i + 1 >= argc) {
			ka_tool_error("%s needs a value (see kcheck --help)", name);
			return KA_EXIT_ERROR;
		}
		val = argv[++*i];
	}
	c->set[o - ka_tool_opts()] = 1;
	return store(c, o, name, val);
}

int ka_tool_getparam(ka_tool_cfg *c, unsigned cmd, int argc, char **argv, int first)
{
	if (cmd == KA_CMD_LINT) { /* one file per core (output identical to -j 1) */
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		c->jobs = n < 1 ? 1 : n > 256 ? 256 : (int)n;
	}
	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--") && cmd != KA_CMD_RULES) {
			for (i++; i < argc; i++)
				push(c->arena, &c->extra, &c->nextra, argv[i]);
			if (ka_tool_trust_extra(c->extra, c->nextra))
				return KA_EXIT_ERROR;
			for (const ka_opt *o = ka_tool_opts(); o->name || o->key; o++)
				if (o->key && !strcmp(o->key, "extra-args"))
					c->set[o - ka_tool_opts()] = 1;
			break;
		}
		if (a[0] == '-' && a[1]) {
			int rc = one_option(c, cmd, argc, argv, &i);
			if (rc)
				return rc;
			continue;
		}
		push(c->arena, &c->paths, &c->npaths, a);
	}
	return 0;
}
