/* tests/rules/test_examples.c: examples and their annotations are read
 * out of a rule body. */
#include "test_rules.h"
#include "rules/examples.h"
#include "rules/finding.h"

static const char BODY[] = "Text.\n"                                               /* 10 */
			   "```cuda bad\n"                                         /* 11 */
			   "__global__ void k(float *a) {\n"                       /* 12: example line 1 */
			   "  // ruleid: gmem-x\n"                                 /* 2 */
			   "  //   more comment\n"                                 /* 3 */
			   "\n"                                                    /* 4 */
			   "  a[32 * threadIdx.x] = 0;\n"                          /* 5: expected */
			   "  a[threadIdx.x] = 1;  // ok: gmem-x\n"                /* 6: ok, same line */
			   "  a[2 * threadIdx.x] = 2; // ruleid: gmem-y, gmem-x\n" /* 7: expected */
			   "  a[3] = 3; // ruleid: gmem-xyz\n"                     /* 8: another rule */
			   "}\n"
			   "```\n"
			   "```text\n```cuda good\n```\n" /* not an example, fence inside ignored */
			   "```hip good\n"
			   "__global__ void k() {}\n"
			   "```\n"
			   "```cuda fixed\n"
			   "x\n"
			   "```\n";

static void parses_examples(void **state)
{
	ka_examples ex;
	assert_int_equal(ka_examples_parse(BODY, 10, "gmem-x", &ex), KA_OK);
	assert_int_equal(ex.n, 3);
	assert_string_equal(ex.v[0].lang, "cuda");
	assert_int_equal(ex.v[0].kind, KA_EX_BAD);
	assert_int_equal(ex.v[0].file_line, 12);
	assert_int_equal(ex.v[0].nexpect, 2);
	assert_int_equal(ex.v[0].expect[0], 5);
	assert_int_equal(ex.v[0].expect[1], 7);
	assert_int_equal(ex.v[0].nok, 1);
	assert_int_equal(ex.v[0].ok[0], 6);
	assert_string_equal(ex.v[1].lang, "hip");
	assert_int_equal(ex.v[1].kind, KA_EX_GOOD);
	assert_string_equal(ex.v[1].code, "__global__ void k() {}\n");
	assert_int_equal(ex.v[2].kind, KA_EX_FIXED);
	assert_string_equal(ex.v[2].code, "x\n");
	ka_examples_free(&ex);
}

static void builtin_rules_have_examples(void **state)
{
	ka_ruleset *rs;
	assert_int_equal(ka_ruleset_new(&rs), KA_OK);
	assert_int_equal(ka_ruleset_load_builtin(rs), KA_OK);
	for (size_t i = 0; i < ka_ruleset_count(rs); i++) {
		const ka_rule *r = ka_ruleset_at(rs, i);
		ka_examples ex;
		int bad = 0, marked = 0;
		assert_int_equal(ka_examples_parse(r->body, r->body_line, r->id, &ex), KA_OK);
		for (int k = 0; k < ex.n; k++)
			if (ex.v[k].kind == KA_EX_BAD)
				bad++, marked += ex.v[k].nexpect > 0;
		if (bad == 0 || marked != bad)
			fprintf(stderr, "%s: %d bad examples, %d with // ruleid: marks\n", r->path, bad,
				marked);
		assert_true(bad > 0);
		assert_int_equal(marked, bad);
		ka_examples_free(&ex);
	}
	ka_ruleset_free(rs);
}

/* What `kcheck rules test` fails an example for besides its annotations:
 * a message that shows a NULL or empty fact. */
static void message_defects(void **state)
{
	static const struct {
		const char *msg, *kernel;
		int defect;
	} cases[] = {
		{"read of a[i]: 4 sectors per request, ideal 1", "k", 0},
		{"the loop at line ? runs 3 times", "k", 1},
		{"a ?-dependent branch", "k", 1},
		{"x (?) y", "k", 1},
		{"x ?, y", "k", 1},
		{"the guard `i < n ? a : b` reads a", "k", 0}, /* a C ternary quoted */
		{"the line ? : z", "k", 1},                    /* "line " before it */
		{"the launch of  is one block", "k", 1},       /* two spaces */
		{"ends a sentence.  Then another", "k", 1},    /* still two spaces */
		{"trailing space  ", "k", 0},                  /* nothing after */
		{"reads [] of x", "k", 1},
		{"names '' here", "k", 1},
		{"names `` here", "k", 1},
		{"call f( , x)", "k", 1},
		{"call f(x,\n )", "k", 1},
		{"a {} set", "k", 1},
		{"a fine message", "", 1}, /* empty kernel name */
		{"a fine message about host code", NULL, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		ka_finding f = {.message = (char *)cases[i].msg, .kernel = (char *)cases[i].kernel};
		const char *why = ka_finding_message_defect(&f);
		if ((why != NULL) != cases[i].defect)
			fprintf(stderr, "case %zu '%s': %s\n", i, cases[i].msg, why ? why : "no defect");
		assert_int_equal(why != NULL, cases[i].defect);
	}
}

int run_examples_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_examples),
		cmocka_unit_test(builtin_rules_have_examples),
		cmocka_unit_test(message_defects),
	};
	return cmocka_run_group_tests_name("rules/examples", tests, NULL, NULL);
}
