/* cli/tool_help.c: --help of kcheck and of each subcommand (the option
 * table's rows, tool_opts.c, with the target list of analyzer/arch.h; the
 * rows of its own tables for bench init and optimize, util/cmdopt.h),
 * --version and the one-line error/warning printers every kcheck
 * subcommand uses ("kcheck: error: ..."). */
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

/* The row's line (util/cmdopt.h); --arch's text is the profiles of
 * analyzer/arch.c. */
static void help_line(FILE *out, const ka_opt *o)
{
	char archs[512], text[600];
	if (o->help) {
		ka_cmdopt_help_line(out, o, o->col, NULL);
		return;
	}
	ka_arch_names(archs, sizeof archs);
	snprintf(text, sizeof text, "target: %s (default %s)", archs, KA_ARCH_DEFAULT);
	ka_cmdopt_help_line(out, o, o->col, text);
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

/* A subcommand's page: usage, what it does, its options (one line each:
 * the lint table's rows for cmd, or the rows of groups), examples. */
static void page(FILE *out, const char *usage, const char *about, unsigned cmd, const ka_opt_group *g, int ng,
		 const char *examples)
{
	fprintf(out, "%s\n%s\nOptions:\n", usage, about);
	for (const ka_opt *o = ka_tool_opts(); !g && (o->name || o->key); o++) {
		if (!(o->cmds & cmd) || !o->name || (!o->help && strcmp(o->name, "--arch")))
			continue;
		if (o->cmds != cmd && o->col >= 27) { /* a lint enum's wide column: keep the page's */
			ka_opt narrow = *o;
			narrow.col = 0;
			help_line(out, &narrow);
		} else
			help_line(out, o);
	}
	if (g)
		ka_cmdopt_help_rows(out, g, ng, cmd);
	fprintf(out, "\nExamples:\n%s", examples);
}

void ka_tool_help_cmd(FILE *out, unsigned cmd)
{
	if (cmd == KA_CMD_FACTS)
		page(out,
		     "usage: kcheck facts FILE... [--format json|sqlite] [-o OUT] [OPTIONS] [-- FLAGS]\n",
		     "The analyzer's facts about each FILE (kernels, parameters, accesses, loops,\n"
		     "barriers, launches, ...), as JSON on stdout or an SQLite file: what rules\n"
		     "query (docs/facts.md lists every table).  Clang's errors in a file are\n"
		     "printed and the other files still analyzed; exit 2 when one failed.\n",
		     KA_CMD_FACTS, NULL, 0,
		     "  kcheck facts kernel.cu | jq '.tables.access[0]'\n"
		     "  kcheck facts kernel.cu --format sqlite -o facts.db --arch sm_80\n"
		     "  kcheck facts kernel.cu --print-clang-args -- -Iinclude\n");
	else if (cmd == KA_CMD_RULES)
		page(out,
		     "usage: kcheck rules list [--format text|json|markdown] [--rules-dir DIR]\n"
		     "       kcheck rules show ID [--db FILE | --no-db]\n"
		     "       kcheck rules new ID [-o FILE]\n"
		     "       kcheck rules test [-j N] [ID...]\n",
		     "The rule base (docs/rules.md):\n"
		     "  list        every rule: id, severity, title (markdown: docs/rule-catalog.md)\n"
		     "  show ID     one rule's text, its query and its measured evidence\n"
		     "  new ID      a rule file to start from (stdout, or -o FILE)\n"
		     "  test [ID]   each rule's examples: the bad one must fire, the good one not\n",
		     KA_CMD_RULES, NULL, 0,
		     "  kcheck rules list --format json\n"
		     "  kcheck rules show gmem-uncoalesced-access\n"
		     "  kcheck rules new gmem-my-pattern -o rules/gmem-my-pattern.md\n"
		     "  kcheck rules test --rules-dir rules gmem-my-pattern\n");
	else if (cmd == KA_CMD_KNOWLEDGE)
		page(out,
		     "usage: kcheck knowledge stats [--db FILE]\n"
		     "       kcheck knowledge show ID [--db FILE]\n"
		     "       kcheck knowledge export DIR [--db FILE]\n"
		     "       kcheck knowledge import DIR [--db FILE]\n",
		     "The knowledge DB is what kcheck optimize learned: rules with a status,\n"
		     "evidence (what a rule's fix measured on a GPU), verified kernels (skills)\n"
		     "and the runs' steps.  kcheck reads it to put evidence on findings.\n"
		     "  stats       rules by status, evidence by verdict and arch, skills, runs,\n"
		     "              the top rules by standing\n"
		     "  show ID     one rule: status, standing, every evidence row, its file\n"
		     "  export DIR  DIR/rules/<id>.md (learned rules), DIR/evidence.json and\n"
		     "              DIR/skills.json, for sharing\n"
		     "  import DIR  an export into the DB (created when missing); all or\n"
		     "              nothing, rows already there are skipped\n"
		     "Details: docs/knowledge.md\n",
		     KA_CMD_KNOWLEDGE, NULL, 0,
		     "  kcheck knowledge stats\n"
		     "  kcheck knowledge show gmem-uncoalesced-access --db team.db\n"
		     "  kcheck knowledge export shared/ && kcheck knowledge import shared/ --db team.db\n");
	else
		ka_tool_help(out);
}

void ka_tool_help_page(FILE *out, const char *usage, const char *about, unsigned cmd, const ka_opt_group *g,
		       int ng, const char *examples)
{
	page(out, usage, about, cmd, g, ng, examples);
}
