/* cli/tool_help.c: --help, --version and the one-line error/warning
 * printers every kcheck subcommand uses ("kcheck: error: ..."). */
#include "cli/tools.h"
#include <stdarg.h>

#ifndef KA_VERSION
#define KA_VERSION "0.0.0"
#endif

const char *ka_tool_version_string(void) { return KA_VERSION; }

void ka_tool_version(FILE *out) { fprintf(out, "kcheck %s\n", KA_VERSION); }

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

void ka_tool_help(FILE *out)
{
	fputs(
"usage: kcheck [OPTIONS] PATH... [-- COMPILER-FLAGS]\n"
"       kcheck rules list|show ID|new ID|test [-j N] [ID...]\n"
"       kcheck facts FILE... [--format json|sqlite] [-o OUT]\n"
"       kcheck bench ...\n"
"       kcheck --explain RULE\n"
"\n"
"Finds what is slow (or wrong) in CUDA and HIP kernels, says where, why, and\n"
"what experts do about it.  PATHs are files or folders (folders are searched\n"
"for .cu .cuh .hip; headers are analyzed through the files that include them).\n"
"\n"
"Input:\n"
"  -p DIR                 read compile_commands.json from DIR or a parent folder\n"
"  --arch ARCH            target: sm_70 sm_80 sm_86 sm_89 sm_90 gfx90a gfx942 (default sm_90)\n"
"  --assume-block X[,Y,Z] block shape when no launch site or __launch_bounds__ gives it\n"
"  --cuda-path DIR        CUDA toolkit (default /usr/local/cuda)\n"
"  --shim                 use the built-in shim headers instead of the toolkit's\n"
"  --ptxas                join nvcc -Xptxas -v results (registers, spills)\n"
"Rules:\n"
"  --checks GLOBS         comma-separated rule globs in order, e.g. '-*,gmem-*'\n"
"  --rules-dir DIR        add rule files (or replace built-in ones by id)\n"
"  --explain RULE         print what a rule knows and exit\n"
"  --config FILE          read this config instead of the nearest .kcheck.yaml\n"
"  --no-config            ignore .kcheck.yaml\n"
"Output:\n"
"  --format text|json|sarif   (default text)\n"
"  --sort location|impact     order of the findings (default location); text\n"
"                             ends with each kernel's costliest finding\n"
"  -o FILE                write the report to FILE (atomically)\n"
"  --color auto|always|never  colour on a terminal unless NO_COLOR is set\n"
"  --report-unused-suppressions  report NOLINT comments that suppress nothing\n"
"  --baseline FILE        ignore findings recorded in FILE (written when missing)\n"
"  --write-baseline       (re)write the --baseline FILE from this run\n"
"  -q, --quiet            no summary line on stderr\n"
"Fixes (docs/rewriter.md):\n"
"  --fix                  apply the safe fixes in place (each file compiled first)\n"
"  --unsafe-fixes         also fixes that change numerics or need a precondition\n"
"  --diff                 print the fixes as a patch for `patch -p1`; change nothing\n"
"  --export-fixes FILE    write the fixes in clang-tidy's YAML format\n"
"  --require-compile-gate fail (exit 2) when no nvcc/hipcc can check the fixed files\n"
"  --compile-timeout SEC  time limit of one compile of the gate (default 60)\n"
"Exit status:\n"
"  --fail-on error|warning|note|none   findings that fail the run (default warning)\n"
"  --exit-zero            exit 0 even with findings (errors still exit 2)\n"
"  0 clean, 1 findings at or above --fail-on, 2 error (bad input, parse errors)\n"
"Other:\n"
"  -j N                   analyze N files at a time (output identical to -j 1)\n"
"  --stats                print analysis and rule-evaluation time on stderr\n"
"  -h, --help             this text\n"
"  --version              print the version\n", out);
}
