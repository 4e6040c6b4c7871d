/* rules/rule.h: the expert rule base as loaded in memory.
 *
 * Pipeline position: facts database -> [rules engine] -> findings.
 * A rule is one Markdown file with a YAML front matter (docs/rules.md): a
 * SQL predicate (`where`) over one facts table (`scope`), a message template
 * and the knowledge text.  A ka_ruleset holds the built-in rules (embedded in
 * the binary at build time) plus any loaded from --rules-dir, which add rules
 * or replace built-in ones by id.
 *
 * Loading never stops at the first bad file: every problem is collected as a
 * `file:line: message` line (ka_ruleset_errors) and the load returns
 * KA_EINPUT, so a user sees all malformed rules at once.
 */
#ifndef KA_RULES_RULE_H
#define KA_RULES_RULE_H
#include <stddef.h>

typedef enum ka_severity { KA_SEV_NOTE = 0, KA_SEV_WARNING = 1, KA_SEV_ERROR = 2 } ka_severity;

typedef enum ka_fix_safety {
	KA_FIX_SUGGEST = 0, /* shown, never applied */
	KA_FIX_SAFE = 1,    /* applied by --fix */
	KA_FIX_UNSAFE = 2   /* applied by --unsafe-fixes */
} ka_fix_safety;

/* The closed set of categories (docs/rules.md); SARIF carries the name as a
 * tag and as properties.category. */
typedef enum ka_category {
	KA_CAT_MEMORY = 0,      /* global, shared, local, constant memory traffic */
	KA_CAT_ARITHMETIC,      /* instruction selection, precision, math functions */
	KA_CAT_DIVERGENCE,      /* lanes of a warp taking different paths */
	KA_CAT_SYNCHRONIZATION, /* barriers and fences that cost without ordering */
	KA_CAT_ATOMICS,         /* contention on atomic addresses */
	KA_CAT_LAUNCH,          /* grid and block configuration */
	KA_CAT_OCCUPANCY,       /* registers, shared memory, bounds per SM */
	KA_CAT_HOST,            /* host-side API use around the kernels */
	KA_CAT_PORTABILITY,     /* code that breaks or slows on another vendor */
	KA_CAT_CORRECTNESS,     /* hazards: undefined behaviour, failing launches */
	KA_CAT_COUNT
} ka_category;

/* A rule's lifecycle (docs/rules.md, "Status"): what runs by default. */
typedef enum ka_rule_status {
	KA_STATUS_STABLE = 0, /* runs by default */
	KA_STATUS_PREVIEW,    /* runs when a positive --checks glob matches it */
	KA_STATUS_CANDIDATE,  /* runs only when --checks names its exact id */
	KA_STATUS_RETIRED,    /* never runs; kept for --explain and history */
	KA_STATUS_COUNT
} ka_rule_status;

typedef struct ka_strlist {
	char **v;
	int n;
} ka_strlist;

/* Line numbers of the front-matter fields (1-based lines of the file), so a
 * later check (SQL, placeholders) can point at the right line. */
typedef struct ka_rule_lines {
	int id, severity, scope, where, message, fix, fix_safety;
	int languages, architectures, estimate, basis, let;
	int category, status;
} ka_rule_lines;

typedef struct ka_rule {
	char *id, *title, *category, *scope, *where, *message;
	char *fix; /* transform name; NULL for `none` */
	ka_fix_safety fix_safety;
	ka_severity severity;  /* the ceiling: bands never raise above it */
	ka_category cat;       /* `category`, whose name is in `category` */
	ka_rule_status status; /* `status:`, stable when absent */
	char *impact;          /* measured effect, text; may be NULL */
	char *estimate;        /* SQL expression: estimated slowdown factor; may be NULL */
	char *basis;           /* template: the facts behind the estimate; may be NULL */
	ka_strlist references, tags, languages, architectures;
	ka_strlist let_names, let_exprs; /* `let:` named SQL expressions for templates */
	char *body;                      /* Markdown after the front matter */
	int body_line;                   /* file line where the body starts */
	char *text;                      /* the whole file */
	char *path;                      /* "rules/gmem/x.md" (built-in) or a file path */
	int builtin;                     /* 1 when embedded in the binary */
	int enabled;                     /* selection by --checks (after loading: 1 when stable) */
	ka_rule_lines lines;
} ka_rule;

typedef struct ka_ruleset ka_ruleset;

int ka_ruleset_new(ka_ruleset **out);
void ka_ruleset_free(ka_ruleset *rs);

/* Add the rules compiled into the binary. */
int ka_ruleset_load_builtin(ka_ruleset *rs);
/* Add every *.md below dir (recursively); a rule whose id is already
 * built in replaces it; two files of the same load with one id are an
 * error. */
int ka_ruleset_load_dir(ka_ruleset *rs, const char *dir);
/* Parse one rule file's text.  override: 1 = replace a rule of the same id
 * loaded earlier from another source, 0 = a duplicate id is an error. */
int ka_ruleset_add_text(ka_ruleset *rs, const char *path, const char *text, size_t len, int builtin,
			int override);
/* Compile every rule's SQL against an empty facts database, check the
 * scope, placeholders and regular expressions.  KA_OK or KA_EINPUT. */
int ka_ruleset_check(ka_ruleset *rs);

/* All problems found so far, one `file:line: message` per line ("" if none). */
const char *ka_ruleset_errors(const ka_ruleset *rs);

size_t ka_ruleset_count(const ka_ruleset *rs);
/* Rules sorted by id. */
ka_rule *ka_ruleset_at(const ka_ruleset *rs, size_t i);
ka_rule *ka_ruleset_find(const ka_ruleset *rs, const char *id);

/* --checks: comma-separated globs applied in order, `-glob` disables.
 * When the first glob is positive selection starts from no rule, else from
 * all.  A positive glob that matches no rule is an error (a typo would
 * silently turn checks off).  Sets every rule's `enabled`.  The status
 * limits what a glob turns on: the starting set and `-glob` work as said
 * for stable rules; a preview rule needs a positive glob that matches it,
 * a candidate one an entry that is its exact id; a retired rule never runs
 * (naming it is an error). */
int ka_ruleset_select(ka_ruleset *rs, const char *globs);
/* 1 when `id` is enabled by `globs` (the same semantics, one id). */
int ka_checks_match(const char *globs, const char *id);

const char *ka_severity_name(ka_severity s);
/* -1 when unknown. */
int ka_severity_parse(const char *s);
const char *ka_fix_safety_name(ka_fix_safety s);

/* Impact bands (docs/rules.md): the severity a finding earns from its
 * estimated slowdown factor, capped by
 * the rule's `severity:`.  A rule with no estimate keeps its ceiling (its
 * findings are correctness hazards or API hygiene). */
#define KA_BAND_WARNING 2.0
ka_severity ka_severity_band(ka_severity ceiling, int has_estimate, double estimate);

/* 1 when the rule applies to this language ("cuda"/"hip") and
 * architecture ("sm_90", "gfx942"; NULL = any). */
int ka_rule_applies(const ka_rule *r, const char *lang, const char *arch);

/* The catalog of rs as Markdown (docs/rule-catalog.md), appended to out. */
struct ka_buf;
int ka_ruleset_catalog_markdown(const ka_ruleset *rs, struct ka_buf *out);

/* A rule id is kebab-case: [a-z0-9]+(-[a-z0-9]+)+ . */
int ka_rule_id_valid(const char *id);
/* The id's family: the part before the first '-' (into buf, cap bytes). */
const char *ka_rule_family(const char *id, char *buf, size_t cap);

const char *ka_category_name(ka_category c);
/* -1 when not one of the closed set. */
int ka_category_parse(const char *s);
const char *ka_rule_status_name(ka_rule_status s);
/* -1 when unknown. */
int ka_rule_status_parse(const char *s);
/* "memory, arithmetic, ..." / "stable, preview, ...": for messages. */
const char *ka_category_names(void);

#endif
