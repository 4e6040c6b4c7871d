/* tests/rules/test_rules.h: shared by the rules test files (one cmocka
 * binary, test_rules, one group per file). */
#ifndef KA_TEST_RULES_H
#define KA_TEST_RULES_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyzer/analyzer.h"
#include "rules/engine.h"
#include "rules/rule.h"
#include "rules/sqlfn.h"
#include "util/error.h"

#ifndef FIXTURES
#error "FIXTURES must name tests/rules/fixtures"
#endif

int run_loader_tests(void);
int run_engine_tests(void);
int run_select_tests(void);
int run_suppress_tests(void);
int run_report_tests(void);
int run_baseline_tests(void);
int run_examples_tests(void);
int run_bounds_tests(void);
int run_utf8_tests(void);

/* An empty facts database with regexp() registered. */
sqlite3 *test_facts(void);
/* Run SQL (INSERTs) on db; fails the test on error. */
void test_exec(sqlite3 *db, const char *sql);
/* A rule set holding one rule made from these fields. */
ka_ruleset *test_rule(const char *id, const char *severity, const char *scope, const char *where,
		      const char *message);

#endif
