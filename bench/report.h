/* bench/report.h: text and JSON output of bench results (bench/report.c). */
#ifndef KA_BENCH_REPORT_H
#define KA_BENCH_REPORT_H
#include <stdio.h>
#include "bench/runner.h"
#include "bench/score.h"
#include "util/buf.h"

/* The JSON appenders return 0, or the buffer's error (KA_ETOOBIG past its
 * cap, KA_ENOMEM): then the document is incomplete and must not be used. */
int ka_bench_report_json(ka_buf *b, const ka_bench_job *job, const ka_bench_result *r);
void ka_bench_report_text(FILE *f, const ka_bench_job *job, const ka_bench_result *r);
/* Appends s as a JSON string (escaped). */
int ka_bench_json_str(ka_buf *b, const char *s);
/* Appends "score":{...} (no braces around it). */
int ka_bench_report_suite_json(ka_buf *b, const ka_bench_suite_score *sc);

#endif
