/* cli/tool_getparam.c: the lint command line -> ka_tool_cfg.
 *
 * Long options take `--opt VALUE` or `--opt=VALUE`; short ones `-j 4` or
 * `-j4`.  Everything after `--` is compiler flags.  Each option records
 * that the command line set it, so .kcheck.yaml only fills the rest. */
#include "cli/tools.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grow an arena-held array of strings by one. */
static void push(ka_arena *a, const char ***v, int *n, const char *s)
{
	const char **nv = ka_arena_alloc(a, (size_t)(*n + 1) * sizeof *nv);
	if (*n)
		memcpy(nv, *v, (size_t)*n * sizeof *nv);
	nv[(*n)++] = s;
	*v = nv;
}

static int parse_int(const char *opt, const char *v, int lo, int hi, int *out)
{
	char *end;
	long x = strtol(v, &end, 10);
	if (!*v || *end || x < lo || x > hi) {
		ka_tool_error("%s: expected a number from %d to %d, got '%s'", opt, lo, hi, v);
		return KA_EXIT_ERROR;
	}
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

static int check_choice(const char *opt, const char *v, const char *const *choices)
{
	for (int i = 0; choices[i]; i++)
		if (strcmp(v, choices[i]) == 0)
			return 0;
	ka_tool_error("%s: unknown value '%s'", opt, v);
	return KA_EXIT_ERROR;
}

static const char *const formats[] = {"text", "json", "sarif", NULL};
static const char *const levels[] = {"error", "warning", "note", "none", NULL};
static const char *const colors[] = {"auto", "always", "never", NULL};
static const char *const sorts[] = {"location", "impact", NULL};

/* Options taking a value. */
static int with_value(ka_tool_cfg *c, const char *opt, const char *v)
{
	if (!strcmp(opt, "-p"))
		c->compdb_dir = v;
	else if (!strcmp(opt, "--arch"))
		c->arch = v, c->set.arch = 1;
	else if (!strcmp(opt, "--checks"))
		c->checks = v, c->set.checks = 1;
	else if (!strcmp(opt, "--fail-on")) {
		c->fail_on = v, c->set.fail_on = 1;
		return check_choice(opt, v, levels);
	} else if (!strcmp(opt, "--format")) {
		c->format = v, c->set.format = 1;
		return check_choice(opt, v, formats);
	} else if (!strcmp(opt, "-o") || !strcmp(opt, "--output"))
		c->output = v;
	else if (!strcmp(opt, "--baseline"))
		c->baseline = v, c->set.baseline = 1;
	else if (!strcmp(opt, "--config"))
		c->config = v;
	else if (!strcmp(opt, "--explain"))
		c->explain = v;
	else if (!strcmp(opt, "--cuda-path"))
		c->cuda_path = v;
	else if (!strcmp(opt, "--rules-dir")) {
		push(c->arena, &c->rules_dirs, &c->nrules_dirs, v);
		c->set.rules_dirs = 1;
	} else if (!strcmp(opt, "-j") || !strcmp(opt, "--jobs")) {
		c->set.jobs = 1;
		return parse_int(opt, v, 1, 256, &c->jobs);
	} else if (!strcmp(opt, "--assume-block")) {
		c->set.assume_block = 1;
		if (ka_tool_parse_block(v, c->assume_block) != 0) {
			ka_tool_error("--assume-block: expected X[,Y[,Z]] with at most 1024 threads, got '%s'", v);
			return KA_EXIT_ERROR;
		}
	} else if (!strcmp(opt, "--sort")) {
		if (check_choice(opt, v, sorts))
			return KA_EXIT_ERROR;
		c->sort_impact = !strcmp(v, "impact");
	} else if (!strcmp(opt, "--color")) {
		if (check_choice(opt, v, colors))
			return KA_EXIT_ERROR;
		c->color = !strcmp(v, "auto") ? -1 : !strcmp(v, "always");
	} else
		return -2;
	return 0;
}

/* Flags without a value. */
static int flag(ka_tool_cfg *c, const char *opt)
{
	if (!strcmp(opt, "--write-baseline"))
		c->write_baseline = 1;
	else if (!strcmp(opt, "--exit-zero"))
		c->exit_zero = 1;
	else if (!strcmp(opt, "--report-unused-suppressions"))
		c->report_unused = 1, c->set.report_unused = 1;
	else if (!strcmp(opt, "--no-config"))
		c->no_config = 1;
	else if (!strcmp(opt, "-q") || !strcmp(opt, "--quiet"))
		c->quiet = 1;
	else if (!strcmp(opt, "--shim"))
		c->force_shim = 1;
	else if (!strcmp(opt, "--ptxas"))
		c->ptxas = 1;
	else if (!strcmp(opt, "--stats"))
		c->stats = 1;
	else if (!strcmp(opt, "--no-color"))
		c->color = 0;
	else
		return -2;
	return 0;
}

static int needs_value(const char *opt)
{
	static const char *const v[] = {"-p", "--arch", "--checks", "--fail-on", "--format", "-o",
		"--output", "--baseline", "--config", "--explain", "--cuda-path", "--rules-dir", "-j",
		"--jobs", "--assume-block", "--color", "--sort", NULL};
	for (int i = 0; v[i]; i++)
		if (!strcmp(opt, v[i]))
			return 1;
	return 0;
}

/* One option at argv[*i]; advances *i past its value. */
static int one_option(ka_tool_cfg *c, int argc, char **argv, int *i)
{
	char name[64];
	const char *a = argv[*i], *val = NULL;
	const char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
	size_t nl = eq ? (size_t)(eq - a) : strlen(a);
	if (a[1] != '-' && strlen(a) > 2 && needs_value((char[]){'-', a[1], 0}))
		nl = 2, val = a + 2;  /* -j4, -pDIR, -oFILE */
	if (nl >= sizeof name) {
		ka_tool_error("unknown option '%s' (see kcheck --help)", a);
		return KA_EXIT_ERROR;
	}
	memcpy(name, a, nl);
	name[nl] = '\0';
	if (eq)
		val = eq + 1;
	if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
		ka_tool_help(stdout);
		return -1;
	}
	if (!strcmp(name, "--version")) {
		ka_tool_version(stdout);
		return -1;
	}
	int fix = ka_tool_fix_getopt(&c->fix, name, val, argc, argv, i);  /* --fix, --diff, ... */
	if (fix != 1)
		return fix;
	if (needs_value(name)) {
		if (!val) {
			if (*i + 1 >= argc) {
				ka_tool_error("%s needs a value (see kcheck --help)", name);
				return KA_EXIT_ERROR;
			}
			val = argv[++*i];
		}
		return with_value(c, name, val);
	}
	if (!val && flag(c, name) == 0)
		return 0;
	ka_tool_error("unknown option '%s' (see kcheck --help)", a);
	return KA_EXIT_ERROR;
}

int ka_tool_getparam(ka_tool_cfg *c, int argc, char **argv)
{
	c->jobs = 1;
	c->color = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				push(c->arena, &c->extra, &c->nextra, argv[i]);
			c->set.extra = 1;
			break;
		}
		if (a[0] == '-' && a[1]) {
			int rc = one_option(c, argc, argv, &i);
			if (rc)
				return rc;
			continue;
		}
		push(c->arena, &c->paths, &c->npaths, a);
	}
	return 0;
}
