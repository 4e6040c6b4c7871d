/* util/cmdopt.h: the option tables of kcheck's commands and the one reader
 * of a command line by them.
 *
 * A table is an array of ka_opt rows, one per option: its name, the
 * commands that take it, how its value is parsed and where it goes (an
 * offset into the struct the table fills), its .kcheck.yaml key and its
 * line in --help.  The lint's table is cli/tool_opts.c; `kcheck bench` has
 * bench/bench.c's and the runner's (bench/scale.c), `kcheck optimize` and
 * `kcheck bench init` cli/tool_optimize.c's.  One command may read several
 * tables at once, each filling its own struct (a group); the same rows
 * give --help, the man page, the shell completion and the "did you mean"
 * hints (cli/tool_help.c, cli/tool_complete.c). */
#ifndef KA_UTIL_CMDOPT_H
#define KA_UTIL_CMDOPT_H
#include <stddef.h>
#include <stdio.h>
#include "util/arena.h"

typedef enum ka_opt_kind {
	KA_OPT_FLAG,      /* no value: the int becomes flag_value (1 when 0) */
	KA_OPT_STR,       /* a string (config: a path relative to the file, or a list joined) */
	KA_OPT_LIST,      /* repeatable strings */
	KA_OPT_INT,       /* lo..hi */
	KA_OPT_ENUM,      /* one of choices: its index */
	KA_OPT_BLOCK,     /* X[,Y[,Z]], at most 1024 threads */
	KA_OPT_HELP,      /* -h, --help */
	KA_OPT_VERSION,   /* --version */
	KA_OPT_CALL,      /* a value that call applies */
	KA_OPT_CALL_FLAG, /* no value: call applies it (v NULL) */
} ka_opt_kind;

typedef struct ka_opt {
	const char *name;  /* "--arch", "-p"; NULL: a .kcheck.yaml key only */
	const char *alias; /* "--output" for -o, or NULL */
	unsigned cmds;     /* the commands that take it (0: every command that reads the table) */
	ka_opt_kind kind;
	size_t off, count_off;      /* the field in the group's struct (LIST: and its count) */
	const char *const *choices; /* ENUM, NULL-terminated (CALL: the values completion offers) */
	int lo, hi;                 /* INT */
	int flag_value;             /* FLAG */
	const char *key;            /* the .kcheck.yaml key, or NULL */
	int key_path;               /* config: relative paths are relative to the file */
	int key_join;               /* config: a list of strings joined with ',' */
	/* --help: a section, the value's name (ENUM: the choices), the column
	 * the text starts at (0: 23), the text ('\n' continues a line) */
	const char *section; /* NULL: not shown on the lint's page */
	const char *arg;
	int col, show_alias;
	const char *help; /* NULL: not shown on a subcommand's page */
	/* CALL, CALL_FLAG: apply v to the field (the struct + off); 0, or a
	 * negative error with its one-line message set (util/error.h) */
	int (*call)(void *field, const char *name, const char *v);
} ka_opt;

/* A table (terminated by a row with neither name nor key) and the struct
 * its offsets point into (NULL where only its rows are read). */
typedef struct ka_opt_group {
	const ka_opt *table;
	void *base;
} ka_opt_group;

/* The row named name (or aliased) that cmd takes, the first in group
 * order; *gi (may be NULL) its group.  NULL when none. */
const ka_opt *ka_cmdopt_find(const ka_opt_group *g, int ng, unsigned cmd, const char *name, int *gi);

/* What ka_cmdopt_take found. */
enum {
	KA_CMDOPT_OK,      /* the option was applied */
	KA_CMDOPT_HELP,    /* -h, --help: print the page, exit 0 */
	KA_CMDOPT_VERSION, /* --version */
	KA_CMDOPT_UNKNOWN, /* no such option for cmd */
	KA_CMDOPT_NOVALUE, /* the option needs a value and the line ended */
	KA_CMDOPT_BAD,     /* a bad value, or a value for a flag: the message is set */
};
/* Read the option at argv[*i] for cmd and apply it to its group's struct:
 * `--opt VALUE`, `--opt=VALUE`, or for a one-letter one `-j 4` and `-j4`.
 * *i moves past a value it takes; *row and *gi (either may be NULL) get the
 * row and its group (also for HELP, VERSION and NOVALUE).  LIST rows push
 * into arena (their struct's arrays live there). */
int ka_cmdopt_take(const ka_opt_group *g, int ng, unsigned cmd, ka_arena *arena, int argc, char **argv,
		   int *i, const ka_opt **row, int *gi);
/* 1 when the row takes a value. */
int ka_cmdopt_takes_value(const ka_opt *o);

/* The option name of cmd nearest to word (up to its '='), when near enough
 * to be a typo (util/text.h), else NULL. */
const char *ka_cmdopt_nearest(const ka_opt_group *g, int ng, unsigned cmd, const char *word);

/* " (did you mean 'PICK'?)", or "" when pick is NULL (per thread). */
const char *ka_cmdopt_hint(const char *pick);

/* Index of v in choices, or -1. */
int ka_cmdopt_choice(const char *const *choices, const char *v);
/* The words of choices joined with sep (per thread, for messages). */
const char *ka_cmdopt_choices_text(const char *const *choices, const char *sep);
/* "256", "32,8" or "32,8,1" -> b[3] (at most 1024 threads); 0 or -1. */
int ka_cmdopt_parse_block(const char *v, int b[3]);

/* A row's help line: "  NAME[, ALIAS] ARG" padded to its column (2 +
 * (col ? col : 23)), then text, or the row's help when text is NULL; '\n'
 * in it continues at that column. */
void ka_cmdopt_help_line(FILE *out, const ka_opt *o, int col, const char *text);
/* Every row of the groups that cmd takes and that has help, in group order,
 * HELP rows last (a subcommand's "Options:"). */
void ka_cmdopt_help_rows(FILE *out, const ka_opt_group *g, int ng, unsigned cmd);

#endif
