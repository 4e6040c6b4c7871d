/* recipes/csrc.h: the offline expert's view of a CUDA source file: kernel
 * definitions (name, parameters, body) and `<<<...>>>` launch sites (the
 * config expressions and the arguments), as byte ranges of the text.  It is
 * a bracket-matching scan that skips comments, strings and preprocessor
 * lines, not a parser: a recipe uses it to locate what it rewrites and to
 * check the shape it needs; whatever it cannot place makes the recipe
 * decline.  Nothing here is trusted: the compile gate and the bench are.
 *
 * Ranges are [start, end) offsets into the text the model was built from;
 * the model borrows that text and must not outlive it. */
#ifndef KA_RECIPES_CSRC_H
#define KA_RECIPES_CSRC_H
#include <stddef.h>

#define KA_CSRC_MAX_PARAMS 32
#define KA_CSRC_MAX_KERNELS 64
#define KA_CSRC_MAX_LAUNCHES 128
#define KA_CSRC_NAME 96

typedef struct ka_csrc_param {
	char name[KA_CSRC_NAME];
	char type[160];           /* the declaration without the name, blanks squeezed */
	int is_pointer, is_const; /* pointee const */
} ka_csrc_param;

typedef struct ka_csrc_kernel {
	char name[KA_CSRC_NAME];
	size_t start;                 /* "__global__" */
	size_t name_at;               /* the name's first byte */
	size_t body_open, body_close; /* the '{' and the matching '}' */
	int nparams;
	ka_csrc_param params[KA_CSRC_MAX_PARAMS];
	int has_launch_bounds;
} ka_csrc_kernel;

typedef struct ka_csrc_range {
	size_t s, e;
} ka_csrc_range;

typedef struct ka_csrc_launch {
	char kernel[KA_CSRC_NAME];
	size_t start, end; /* the kernel name .. after ')' */
	int ncfg;          /* 2..4 config expressions */
	ka_csrc_range cfg[4];
	int nargs;
	ka_csrc_range args[KA_CSRC_MAX_PARAMS];
} ka_csrc_launch;

typedef struct ka_csrc {
	const char *text;
	size_t len;
	int nkernels, nlaunches;
	ka_csrc_kernel k[KA_CSRC_MAX_KERNELS];
	ka_csrc_launch l[KA_CSRC_MAX_LAUNCHES];
} ka_csrc;

/* Build the model.  KA_EINPUT with a message when brackets do not match
 * or a kernel or launch cannot be read; KA_ETOOBIG when the file has more
 * kernel definitions or launches than the tables hold (none is dropped, so
 * a model that scanned holds every kernel and every readable launch). */
int ka_csrc_scan(ka_csrc *m, const char *text, size_t len);
const ka_csrc_kernel *ka_csrc_kernel_find(const ka_csrc *m, const char *name);
/* Parameter index of name in k, or -1. */
int ka_csrc_param_index(const ka_csrc_kernel *k, const char *name);

/* Lexical helpers over the text (comments, strings and char literals are
 * skipped as units). */
/* Past the comment or string/char literal at i, or i itself. */
size_t ka_csrc_skip_lexeme(const char *t, size_t len, size_t i);
/* The offset past the comment/blank run at i. */
size_t ka_csrc_skip_blank(const char *t, size_t len, size_t i);
/* On the line [ls, le): when it is the directive `# name` (blanks and tabs
 * around the '#' allowed) with more text after the name, the offset of that
 * text past the blanks that follow the name; (size_t)-1 otherwise. */
size_t ka_csrc_directive(const char *t, size_t ls, size_t le, const char *name);
/* The matching close bracket of the '(' '[' or '{' at i, or (size_t)-1. */
size_t ka_csrc_match(const char *t, size_t len, size_t i);
/* End of the statement starting at i (after its ';' or closing '}'),
 * with if/else, for, while and do..while as one statement; (size_t)-1 on
 * a malformed one. */
size_t ka_csrc_stmt_end(const char *t, size_t len, size_t i);
/* The text of [s, e) with comments dropped and every blank run removed
 * ("a + b" -> "a+b"); NUL-terminated into buf; 0 when it does not fit. */
int ka_csrc_squeeze(const char *t, size_t s, size_t e, char *buf, size_t cap);
/* Split the list between the brackets at open and close at its top-level
 * commas into at most max ranges (an empty list: *n = 0); KA_ETOOBIG past
 * max, KA_EINPUT on unbalanced brackets. */
int ka_csrc_split(const char *t, size_t len, size_t open, size_t close, ka_csrc_range *out, int max, int *n);
/* The '{' of the innermost brace block that holds offset at, or (size_t)-1
 * when at is at file level. */
size_t ka_csrc_block_of(const char *t, size_t len, size_t at);
/* 1 when the identifier `word` occurs as a whole token in [s, e). */
int ka_csrc_has_word(const char *t, size_t s, size_t e, const char *word);
/* The number of whole-token occurrences of word in [s, e). */
int ka_csrc_count_word(const char *t, size_t s, size_t e, const char *word);
/* The 1-based line of offset `at` in text (the newlines before it). */
int ka_csrc_line_of(const char *text, size_t at);

/* The first whole-token occurrence of word in [s, e), preprocessor lines
 * included (a macro's body names what it launches), or (size_t)-1. */
size_t ka_csrc_find_word_pp(const char *t, size_t s, size_t e, const char *word);

#endif
