/* cli/tool_getparam.c: a command line -> ka_tool_cfg, by the option table
 * (tool_opts.c).
 *
 * Long options take `--opt VALUE` or `--opt=VALUE`; short ones `-j 4` or
 * `-j4`.  Everything after `--` is compiler flags (kcheck, kcheck facts).
 * Each option records that the command line set it, so .kcheck.yaml only
 * fills the rest. */
#include "cli/tools.h"
#include <stdio.h>
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

/* One option at argv[*i] (util/cmdopt.h); advances *i past its value. */
static int one_option(ka_tool_cfg *c, unsigned cmd, int argc, char **argv, int *i)
{
	const ka_opt_group g = {ka_tool_opts(), c};
	const ka_opt *o = NULL;
	const char *a = argv[*i];
	int rc = ka_cmdopt_take(&g, 1, cmd, c->arena, argc, argv, i, &o, NULL);
	switch (rc) {
	case KA_CMDOPT_UNKNOWN:
		c->bad_option = a;
		return KA_TOOL_UNKNOWN;
	case KA_CMDOPT_HELP:
		ka_tool_help_cmd(stdout, cmd);
		return -1;
	case KA_CMDOPT_VERSION:
		ka_tool_version(stdout);
		return -1;
	case KA_CMDOPT_NOVALUE:
		ka_tool_error("%s needs a value (see kcheck --help)", a);
		return KA_EXIT_ERROR;
	case KA_CMDOPT_BAD:
		ka_tool_error("%s", ka_error_last());
		return KA_EXIT_ERROR;
	default:
		c->set[o - ka_tool_opts()] = 1;
		return 0;
	}
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
