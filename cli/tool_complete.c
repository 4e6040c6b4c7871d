/* cli/tool_complete.c: the man page and the bash completion, both written
 * from the option table (tool_opts.c), so that neither can drift from
 * --help.  `kcheck --print-man` prints kcheck.1 (roff), `kcheck
 * --print-completion bash` a script for bash-completion; the build writes
 * both next to the binary and `cmake --install` installs them. */
#include "cli/tools.h"
#include "analyzer/arch.h"
#include <stdio.h>
#include <string.h>

static const char *const subcommands[] = {"rules", "facts", "bench", "optimize", "knowledge", NULL};

/* roff: a leading '.' or '\'' and every '\\' and '-' escaped. */
static void roff(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", out);
		else if (*s == '-')
			fputs("\\-", out);
		else if (*s == '\n')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
}

/* The subcommands whose options are tables of their own (tool_optimize.c's
 * ka_tool_opt_groups): the man page's sections, the completion's words. */
static const struct {
	unsigned cmd;
	const char *title, *words; /* the section's name; COMP_WORDS that select it */
} sub_tables[] = {
	{KA_CMD_BENCH, "BENCH", "bench"},
	{KA_CMD_BENCH_INIT, "BENCH INIT", "bench init"},
	{KA_CMD_OPTIMIZE, "OPTIMIZE", "optimize"},
};
#define NSUB ((int)(sizeof sub_tables / sizeof sub_tables[0]))

/* A row of a subcommand's table that its --help shows. */
static int shown(const ka_opt *o, unsigned cmd)
{
	unsigned tc = ka_tool_table_cmd(cmd);
	return o->name && o->help && (!o->cmds || (o->cmds & tc));
}

/* 1 when no earlier subcommand table row (in sub_tables order) has name:
 * a shared table (the runner's) is said once. */
static int first_row(const char *name, int c, const ka_opt *row)
{
	for (int c2 = 0; c2 <= c; c2++) {
		ka_opt_group g[2];
		int ng = ka_tool_opt_groups(sub_tables[c2].cmd, g);
		for (int k2 = 0; k2 < ng; k2++)
			for (const ka_opt *o = g[k2].table; o->name || o->key; o++) {
				if (c2 == c && o == row)
					return 1;
				if (shown(o, sub_tables[c2].cmd) && !strcmp(o->name, name))
					return 0;
			}
	}
	return 1;
}

/* One option: ".TP", its name(s) and value, its text (NULL: the arch list). */
static void man_row(FILE *out, const ka_opt *o)
{
	fputs(".TP\n.B ", out);
	roff(out, o->name);
	if (o->alias && o->show_alias) {
		fputs(", ", out);
		roff(out, o->alias);
	}
	if (o->arg || o->choices) {
		fputs(" \\fI", out);
		roff(out, o->arg ? o->arg : ka_cmdopt_choices_text(o->choices, "|"));
		fputs("\\fR", out);
	}
	fputc('\n', out);
	if (o->help) {
		roff(out, o->help);
	} else {
		char archs[512];
		ka_arch_names(archs, sizeof archs);
		fputs("target: ", out);
		roff(out, archs);
	}
	fputc('\n', out);
}

static void man(FILE *out)
{
	fprintf(out, ".TH KCHECK 1 \"\" \"kcheck %s\" \"User Commands\"\n", ka_tool_version_string());
	fputs(".SH NAME\nkcheck \\- find what is slow or wrong in CUDA and HIP kernels\n"
	      ".SH SYNOPSIS\n.B kcheck\n[OPTIONS] PATH... [\\-\\- COMPILER\\-FLAGS]\n.br\n"
	      ".B kcheck rules\nlist|show ID|new ID|test\n.br\n.B kcheck facts\nFILE...\n.br\n"
	      ".B kcheck bench\nTASK [\\-\\-candidate FILE] | init FILE \\-\\-kernel K\n.br\n"
	      ".B kcheck optimize\nTASK [\\-\\-budget N] [\\-\\-compile\\-only]\n.br\n"
	      ".B kcheck knowledge\nstats|show ID|export DIR|import DIR\n"
	      ".SH DESCRIPTION\nkcheck analyzes CUDA and HIP kernels and reports each finding as "
	      "file:line:col: severity: message [rule], with why it costs time and what experts do "
	      "about it. PATHs are files or folders (searched for .cu, .cuh and .hip).\n",
	      out);
	const char *section = NULL;
	for (const ka_opt *o = ka_tool_opts(); o->name || o->key; o++) {
		if (!(o->cmds & KA_CMD_LINT) || !o->section || !o->name)
			continue;
		if (!section || strcmp(section, o->section) != 0) {
			section = o->section;
			fputs(".SH ", out);
			roff(out, section);
			fputc('\n', out);
		}
		man_row(out, o);
	}
	for (int c = 0; c < NSUB; c++) { /* the subcommands with tables of their own */
		ka_opt_group g[2];
		int ng = ka_tool_opt_groups(sub_tables[c].cmd, g);
		fprintf(out, ".SH KCHECK %s OPTIONS\n", sub_tables[c].title);
		for (int k = 0; k < ng; k++)
			for (const ka_opt *o = g[k].table; o->name || o->key; o++)
				if (shown(o, sub_tables[c].cmd))
					man_row(out, o);
	}
	fputs(".SH EXIT STATUS\n0 clean, 1 findings at or above \\-\\-fail\\-on, 2 an error (bad "
	      "input, parse errors).\n.SH SEE ALSO\nREADME.md and docs/ in the KernelArc sources.\n",
	      out);
}

static void bash(FILE *out)
{
	fputs("# bash completion for kcheck (written by kcheck --print-completion bash)\n"
	      "_kcheck() {\n"
	      "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "  case $prev in\n",
	      out);
	for (const ka_opt *o = ka_tool_opts(); o->name || o->key; o++) {
		if (!(o->cmds & KA_CMD_LINT) || !o->name || !o->choices)
			continue;
		fprintf(out, "    %s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return;;\n", o->name,
			ka_cmdopt_choices_text(o->choices, " "));
	}
	const ka_opt_group lint = {ka_tool_opts(), NULL};
	for (int c = 0; c < NSUB; c++) { /* the subcommands' values the lint's do not name */
		ka_opt_group g[2];
		int ng = ka_tool_opt_groups(sub_tables[c].cmd, g);
		for (int k = 0; k < ng; k++)
			for (const ka_opt *o = g[k].table; o->name || o->key; o++)
				if (shown(o, sub_tables[c].cmd) && o->choices &&
				    !ka_cmdopt_find(&lint, 1, KA_CMD_LINT, o->name, NULL) &&
				    first_row(o->name, c, o))
					fprintf(out,
						"    %s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return;;\n",
						o->name, ka_cmdopt_choices_text(o->choices, " "));
	}
	char archs[512];
	ka_arch_names(archs, sizeof archs);
	fprintf(out, "    --arch) COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return;;\n", archs);
	fputs("    -p|--cuda-path|--rules-dir) COMPREPLY=($(compgen -d -- \"$cur\")); return;;\n"
	      "  esac\n"
	      "  if [[ $COMP_CWORD == 1 && $cur != -* ]]; then\n"
	      "    COMPREPLY=($(compgen -W '",
	      out);
	for (int i = 0; subcommands[i]; i++)
		fprintf(out, "%s%s", i ? " " : "", subcommands[i]);
	fputs("' -- \"$cur\") $(compgen -f -- \"$cur\")); return\n  fi\n"
	      "  if [[ $cur == -* ]]; then\n    local opts='",
	      out);
	int first = 1;
	for (const ka_opt *o = ka_tool_opts(); o->name || o->key; o++) {
		if (!(o->cmds & KA_CMD_LINT) || !o->name)
			continue;
		fprintf(out, "%s%s", first ? "" : " ", o->name);
		if (o->alias)
			fprintf(out, " %s", o->alias);
		first = 0;
	}
	fputs("'\n    case \"${COMP_WORDS[1]} ${COMP_WORDS[2]}\" in\n", out);
	for (int i = 0; i < 2 * NSUB; i++) { /* "bench init" before "bench *" */
		int c = i % NSUB;
		if ((i < NSUB) != (strchr(sub_tables[c].words, ' ') != NULL))
			continue;
		ka_opt_group g[2];
		int ng = ka_tool_opt_groups(sub_tables[c].cmd, g);
		fprintf(out, "      \"%s\"%s) opts='", sub_tables[c].words,
			strchr(sub_tables[c].words, ' ') ? "" : "\\ *");
		first = 1;
		for (int k = 0; k < ng; k++)
			for (const ka_opt *o = g[k].table; o->name || o->key; o++)
				if (shown(o, sub_tables[c].cmd)) {
					fprintf(out, "%s%s", first ? "" : " ", o->name);
					if (o->alias)
						fprintf(out, " %s", o->alias);
					first = 0;
				}
		fputs("';;\n", out);
	}
	fputs("    esac\n    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")); return\n  fi\n"
	      "  COMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "}\n"
	      "complete -o filenames -F _kcheck kcheck\n",
	      out);
}

int ka_tool_print_generated(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--print-man")) {
		man(stdout);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--print-completion") && !strcmp(argv[2], "bash")) {
		bash(stdout);
		return 0;
	}
	ka_tool_error("usage: kcheck --print-man | --print-completion bash");
	return KA_EXIT_ERROR;
}
