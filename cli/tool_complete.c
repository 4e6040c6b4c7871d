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
		fputs(".TP\n.B ", out);
		roff(out, o->name);
		if (o->alias && o->show_alias) {
			fputs(", ", out);
			roff(out, o->alias);
		}
		if (o->arg || o->choices) {
			fputs(" \\fI", out);
			roff(out, o->arg ? o->arg : ka_tool_choices_text(o->choices, "|"));
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
			ka_tool_choices_text(o->choices, " "));
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
	      "  if [[ $cur == -* ]]; then\n    COMPREPLY=($(compgen -W '",
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
	fputs("' -- \"$cur\")); return\n  fi\n"
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
