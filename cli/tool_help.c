/* cli/tool_help.c: --help (the option table's rows, tool_opts.c, with the
 * target list of analyzer/arch.h), --version and the one-line
 * error/warning printers every kcheck subcommand uses ("kcheck: error: ..."). */
#include "cli/tools.h"
#include "analyzer/arch.h"
#include <stdarg.h>
#include <string.h>

#ifndef KA_VERSION
#define KA_VERSION "0.0.0"
#endif

const char *ka_tool_version_string(void)
{
	return KA_VERSION;
}

void ka_tool_version(FILE *out)
{
	fprintf(out, "kcheck %s\n", KA_VERSION);
}

void ka_tool_error(const char *fmt, ...)
{
	va_list ap;
	fputs("kcheck: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void ka_tool_warn(const char *fmt, ...)
{
	va_list ap;
	fputs("kcheck: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Lines printed after a section's options. */
static const char *trailer(const char *section)
{
	return !strcmp(section, "Exit status")
		       ? "  0 clean, 1 findings at or above --fail-on, 2 error (bad input, parse errors)\n"
		       : "";
}

/* "  --name VALUE" padded to the option's text column, then the text
 * (continuation lines start at that column too). */
static void help_line(FILE *out, const ka_opt *o)
{
	char left[128], archs[512];
	const char *text = o->help;
	int col = 2 + (o->col ? o->col : 23);
	int n = snprintf(left, sizeof left, "  %s%s%s%s%s", o->name, o->show_alias ? ", " : "",
			 o->show_alias ? o->alias : "", o->arg || o->choices ? " " : "",
			 o->arg       ? o->arg
			 : o->choices ? ka_tool_choices_text(o->choices, "|")
				      : "");
	fprintf(out, "%s%*s", left, n < col ? col - n : 1, "");
	if (!text) { /* --arch: the profiles of analyzer/arch.c */
		ka_arch_names(archs, sizeof archs);
		fprintf(out, "target: %s (default %s)\n", archs, KA_ARCH_DEFAULT);
		return;
	}
	for (const char *nl; (nl = strchr(text, '\n')); text = nl + 1)
		fprintf(out, "%.*s\n%*s", (int)(nl - text), text, col, "");
	fprintf(out, "%s\n", text);
}

void ka_tool_help(FILE *out)
{
	const char *section = NULL;
	fputs("usage: kcheck [OPTIONS] PATH... [-- COMPILER-FLAGS]\n"
	      "       kcheck rules list|show ID|new ID|test [-j N] [ID...]\n"
	      "       kcheck facts FILE... [--format json|sqlite] [-o OUT]\n"
	      "       kcheck bench TASK [--candidate FILE] ...\n"
	      "       kcheck bench init FILE --kernel K [--out DIR]\n"
	      "       kcheck optimize TASK [--budget N] [--compile-only] ...\n"
	      "       kcheck knowledge stats|show ID|export DIR|import DIR [--db FILE]\n"
	      "       kcheck --explain RULE\n"
	      "\n"
	      "Finds what is slow (or wrong) in CUDA and HIP kernels, says where, why, and\n"
	      "what experts do about it.  PATHs are files or folders (folders are searched\n"
	      "for .cu .cuh .hip; headers are analyzed through the files that include them).\n"
	      "\n"
	      "Commands:\n"
	      "  rules       list, show, write and test the rules (docs/rules.md)\n"
	      "  facts       the analyzer's facts about a file, as JSON or SQLite\n"
	      "  bench       time a candidate kernel against a task's baseline on a GPU\n"
	      "              (docs/bench.md); `bench init` scaffolds a task from a kernel\n"
	      "  optimize    rewrite, check and bench a task's kernel step by step\n"
	      "              (--compile-only without a GPU)\n"
	      "  knowledge   the measured evidence behind the findings (stats, show,\n"
	      "              export, import)\n"
	      "\n",
	      out);
	for (const ka_opt *o = ka_tool_opts(); o->name || o->key; o++) {
		if (!(o->cmds & KA_CMD_LINT) || !o->section || !o->name)
			continue;
		if (!section || strcmp(section, o->section) != 0) {
			if (section)
				fputs(trailer(section), out);
			section = o->section;
			fprintf(out, "%s:\n", section);
		}
		help_line(out, o);
	}
	if (section)
		fputs(trailer(section), out);
}
