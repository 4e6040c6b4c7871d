/* tests/util/test_cmdopt.c: util/cmdopt.h, the reader every kcheck
 * command's option table goes through: the forms a value is given in,
 * what it says for a missing value, a value on a flag, a bad number or
 * choice and an unknown option (with the nearest name), two groups read at
 * once (the first group's row wins), the command bits, and the help lines. */
#define _GNU_SOURCE /* open_memstream */
#include "test_util.h"
#include "util/arena.h"
#include "util/cmdopt.h"
#include "util/error.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct own {
	const char *out;
	int jobs, quiet, color, calls;
	const char **tags;
	int ntags;
	const char *last_call;
};
struct other {
	int n;
	const char *runner;
};

static int count_call(void *field, const char *name, const char *v)
{
	struct own *o = field;
	o->calls++;
	o->last_call = v;
	return v && !strcmp(v, "bad") ? ka_error_set(KA_EINPUT, "%s refuses '%s'", name, v) : 0;
}

static int set_runner(void *field, const char *name, const char *v)
{
	*(const char **)field = v;
	return 0;
}

static const char *const colors[] = {"auto", "always", "never", NULL};

static const ka_opt own_table[] = {
	{.name = "-o",
	 .alias = "--output",
	 .kind = KA_OPT_STR,
	 .off = offsetof(struct own, out),
	 .arg = "FILE",
	 .show_alias = 1,
	 .help = "write to FILE"},
	{.name = "-j",
	 .kind = KA_OPT_INT,
	 .off = offsetof(struct own, jobs),
	 .lo = 1,
	 .hi = 64,
	 .arg = "N",
	 .help = "N at a time\nat most 64"},
	{.name = "--quiet", .kind = KA_OPT_FLAG, .off = offsetof(struct own, quiet), .help = "say less"},
	{.name = "--color",
	 .kind = KA_OPT_ENUM,
	 .off = offsetof(struct own, color),
	 .choices = colors,
	 .help = "colour"},
	{.name = "--tag",
	 .kind = KA_OPT_LIST,
	 .off = offsetof(struct own, tags),
	 .count_off = offsetof(struct own, ntags),
	 .arg = "T",
	 .help = "a tag (repeatable)"},
	{.name = "--call",
	 .kind = KA_OPT_CALL,
	 .call = count_call,
	 .arg = "V",
	 .help = "a value read by a function"},
	{.name = "--ping", .kind = KA_OPT_CALL_FLAG, .call = count_call, .help = "a flag read by a function"},
	{.name = "--runner", .cmds = 2, .kind = KA_OPT_STR, .off = offsetof(struct own, out), .help = NULL},
	{.name = "-h", .alias = "--help", .kind = KA_OPT_HELP, .show_alias = 1, .help = "this text"},
	{.name = NULL},
};
static const ka_opt other_table[] = {
	{.name = "--n",
	 .cmds = 1,
	 .kind = KA_OPT_INT,
	 .off = offsetof(struct other, n),
	 .lo = 0,
	 .hi = 9,
	 .arg = "N",
	 .help = "only for command 1"},
	{.name = "--runner",
	 .kind = KA_OPT_CALL,
	 .off = offsetof(struct other, runner),
	 .call = set_runner,
	 .arg = "R",
	 .help = "the runner"},
	{.name = NULL},
};

/* Read every option of argv (NULL-terminated) for cmd; the last result. */
static int read_all(struct own *a, struct other *b, unsigned cmd, ka_arena *ar, char **argv)
{
	ka_opt_group g[2] = {{own_table, a}, {other_table, b}};
	int argc = 0, rc = KA_CMDOPT_OK;
	while (argv[argc])
		argc++;
	for (int i = 0; i < argc && rc == KA_CMDOPT_OK; i++)
		rc = ka_cmdopt_take(g, 2, cmd, ar, argc, argv, &i, NULL, NULL);
	return rc;
}

static void forms_of_a_value(void **state)
{
	(void)state;
	struct own a = {0};
	struct other b = {0};
	ka_arena *ar = ka_arena_new();
	char *argv[] = {"-o", "x.txt",    "-j8",    "--quiet", "--color=never", "--tag",
			"t1", "--tag=t2", "--call", "v",       "--ping",        "--n",
			"3",  "--runner", "slurm",  NULL};
	assert_int_equal(read_all(&a, &b, 1, ar, argv), KA_CMDOPT_OK);
	assert_string_equal(a.out, "x.txt");
	assert_int_equal(a.jobs, 8);
	assert_int_equal(a.quiet, 1);
	assert_int_equal(a.color, 2);
	assert_int_equal(a.ntags, 2);
	assert_string_equal(a.tags[0], "t1");
	assert_string_equal(a.tags[1], "t2");
	assert_int_equal(a.calls, 2); /* --call v, then --ping with no value */
	assert_null(a.last_call);
	assert_int_equal(b.n, 3);
	/* own_table's --runner is command 2's only: command 1 reaches the second group's */
	assert_string_equal(b.runner, "slurm");
	assert_string_equal(a.out, "x.txt");
	char *alias[] = {"--output", "y.txt", "--runner", "local", NULL};
	assert_int_equal(read_all(&a, &b, 2, ar, alias), KA_CMDOPT_OK);
	assert_string_equal(a.out, "local"); /* command 2: the first group's row wins */
	assert_string_equal(b.runner, "slurm");
	ka_arena_free(ar);
}

static void what_goes_wrong(void **state)
{
	(void)state;
	struct own a = {0};
	struct other b = {0};
	const ka_opt *row = NULL;
	ka_opt_group g[2] = {{own_table, &a}, {other_table, &b}};
	char *missing[] = {"-j"}, *flagval[] = {"--quiet=1"}, *big[] = {"-j", "65"},
	     *choice[] = {"--color", "allways"};
	char *bad[] = {"--call", "bad"}, *help[] = {"--help"}, *unknown[] = {"--colour"},
	     *cmd2[] = {"--n", "1"};
	int i = 0;
	assert_int_equal(ka_cmdopt_take(g, 2, 1, NULL, 1, missing, &i, &row, NULL), KA_CMDOPT_NOVALUE);
	assert_string_equal(row->name, "-j");
	i = 0;
	assert_int_equal(ka_cmdopt_take(g, 2, 1, NULL, 1, flagval, &i, NULL, NULL), KA_CMDOPT_BAD);
	assert_string_equal(ka_error_last(), "--quiet takes no value");
	i = 0;
	assert_int_equal(ka_cmdopt_take(g, 2, 1, NULL, 2, big, &i, NULL, NULL), KA_CMDOPT_BAD);
	assert_string_equal(ka_error_last(), "-j: expected a number from 1 to 64, got '65'");
	assert_int_equal(i, 1); /* past the value it read */
	i = 0;
	assert_int_equal(ka_cmdopt_take(g, 2, 1, NULL, 2, choice, &i, NULL, NULL), KA_CMDOPT_BAD);
	assert_string_equal(ka_error_last(), "--color: unknown value 'allways' (did you mean 'always'?)");
	i = 0;
	assert_int_equal(ka_cmdopt_take(g, 2, 1, NULL, 2, bad, &i, NULL, NULL), KA_CMDOPT_BAD);
	assert_string_equal(ka_error_last(), "--call refuses 'bad'");
	i = 0;
	assert_int_equal(ka_cmdopt_take(g, 2, 1, NULL, 1, help, &i, NULL, NULL), KA_CMDOPT_HELP);
	i = 0;
	assert_int_equal(ka_cmdopt_take(g, 2, 1, NULL, 1, unknown, &i, NULL, NULL), KA_CMDOPT_UNKNOWN);
	assert_string_equal(ka_cmdopt_nearest(g, 2, 1, "--colour"), "--color");
	assert_string_equal(ka_cmdopt_nearest(g, 2, 1, "--outptu=x"), "--output");
	assert_null(ka_cmdopt_nearest(g, 2, 1, "--frobnicate"));
	assert_string_equal(ka_cmdopt_hint("--color"), " (did you mean '--color'?)");
	assert_string_equal(ka_cmdopt_hint(NULL), "");
	i = 0; /* --n is command 1's only */
	assert_int_equal(ka_cmdopt_take(g, 2, 2, NULL, 2, cmd2, &i, NULL, NULL), KA_CMDOPT_UNKNOWN);
	assert_null(ka_cmdopt_nearest(g, 2, 2, "--n"));
}

static void help_lines(void **state)
{
	(void)state;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	ka_opt_group g[2] = {{own_table, NULL}, {other_table, NULL}};
	ka_cmdopt_help_rows(f, g, 2, 2);
	fclose(f);
	assert_string_equal(text, "  -o, --output FILE      write to FILE\n"
				  "  -j N                   N at a time\n"
				  "                         at most 64\n"
				  "  --quiet                say less\n"
				  "  --color auto|always|never colour\n"
				  "  --tag T                a tag (repeatable)\n"
				  "  --call V               a value read by a function\n"
				  "  --ping                 a flag read by a function\n"
				  "  --runner R             the runner\n"
				  "  -h, --help             this text\n");
	free(text);
}

int run_cmdopt_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(forms_of_a_value),
		cmocka_unit_test(what_goes_wrong),
		cmocka_unit_test(help_lines),
	};
	return cmocka_run_group_tests_name("cmdopt", tests, NULL, NULL);
}
