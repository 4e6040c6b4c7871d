/* rules/examples.h: a rule's examples are its tests.
 *
 * The body's fenced blocks tagged `cuda bad`, `cuda good`, `cuda fixed` (and
 * `hip ...`) are extracted; in a `bad` block a comment `// ruleid: ID` marks
 * that rule ID must fire on the next code line (or on its own line when it
 * trails code), `// ok: ID` that it must not.  `kcheck rules test` analyzes
 * each block as a file: `bad` must fire exactly at the marked lines, `good`
 * must not fire, `fixed` must equal --fix applied to `bad` (lint/ruletest.c
 * runs them: ka_lint_test_rule). */
#ifndef KA_RULES_EXAMPLES_H
#define KA_RULES_EXAMPLES_H
#include "analyzer/analyzer.h"
#include "rules/rule.h"
#include "util/buf.h"

typedef enum ka_example_kind { KA_EX_BAD, KA_EX_GOOD, KA_EX_FIXED } ka_example_kind;

typedef struct ka_example {
	char lang[8]; /* cuda | hip */
	ka_example_kind kind;
	char *code;
	int file_line; /* rule-file line of the block's first code line */
	int *expect;   /* example lines where rule_id must fire */
	int nexpect;
	int *ok; /* example lines where it must not */
	int nok;
} ka_example;

typedef struct ka_examples {
	ka_example *v;
	int n;
} ka_examples;

/* Extract the examples of r; annotations for rule id `id` only. */
int ka_examples_parse(const char *body, int body_line, const char *id, ka_examples *out);
void ka_examples_free(ka_examples *ex);
const char *ka_example_kind_name(ka_example_kind k);

#endif
