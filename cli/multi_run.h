/* multi_run.h: how multi.c measures one case on several devices and reports it: the group, then
 * each device that may be the fastest alone, --warmup and --repeat calls each, the medians as the
 * rows of docs/design.md's "CSV columns" (one per device or rank, "group" and "single"), kept until
 * every case has run and then written at once, so a failure leaves no partial output. */
#ifndef TESSEL_CLI_MULTI_RUN_H
#define TESSEL_CLI_MULTI_RUN_H

#include <stddef.h>

#include "multi.h"
#include "multi_exec.h"
#include "output.h"
#include "tessel.h"

/* The rows, kept until the end. */
typedef struct {
    cli_row row;
    char variant[32], device[600], resolved[32]; /* resolved: which unit "single" ran on */
} cli_kept_row;

typedef struct {
    cli_kept_row *rows;
    size_t n, cap;
} cli_row_store;

/* One call of the executor for run `run`; may reset the data first. */
typedef tsl_status (*cli_call_fn)(cli_executor *ex, void *arg, unsigned run);

/* Every figure of every timed call of one measurement. */
typedef struct {
    size_t repeat, count;
    double *phase, *wall;               /* per timed run */
    double *kernel, *upload, *download; /* per unit and timed run: [i * repeat + r] */
    double *build;                      /* per unit, of the first call */
    tsl_group_part *parts;              /* per unit, of the last call */
    tsl_group_times times;
} cli_measurement;

/* The unit rows, the group row and the single row of one case, and the speedup note. */
typedef struct {
    const char *op, *precision;
    char label[96];    /* "gemm 257x31x65", "poisson grid 67", for notes */
    long long m, n, k; /* the case's; unit rows replace m (GEMM) or m (Poisson) by their rows */
    double (*flops_or_bytes)(const void *ctx, size_t rows); /* per unit's rows, for rates */
    const void *ctx;
    int gbps; /* the rate is GB/s (Poisson), else GFLOP/s */
} cli_case_desc;

/* The group, then each candidate alone: measure both, keeping the fastest single. The verify
 * callback (root only) gives the errors of the last call of a measurement. */
typedef struct {
    cli_call_fn call;
    void *arg;
    /* root: error of the last call (whole, and per unit's rows) and pass/fail */
    void (*verify)(void *arg, const cli_measurement *m, double *err, int *ok, double *unit_err,
                   int *unit_ok);
} cli_case_ops;

/* Output paths, devices, variant, options (Poisson's check_every when not 0), weights rule,
 * fp64, and the weights (calibrated here when that is the rule); *given and *w are allocated
 * (one per unit). 0, or the exit code after one error line. */
int cli_multi_prepare(cli_executor *ex, const char *cmd, const char *op, const cli_multi_opts *o,
                      long check_every, double **given, double **w);
/* One case: measured, verified (root) and its rows kept in st; w are the weights in force,
 * largest and total the bytes of the largest array and of all (who may run it alone). */
int cli_multi_run_case(cli_executor *ex, const char *cmd, const cli_multi_opts *o,
                       const cli_case_desc *c, const cli_case_ops *ops, const double *w,
                       unsigned long long largest, long double total, double *given,
                       cli_row_store *st, int *any_failed);
/* The root's report, once every case has run: the title ("gemm on 2 devices (NAMES), single
 * precision, DETAILS, weights ..."), the kept rows, and exit 1 when a --verify check failed. */
int cli_multi_finish(const cli_executor *ex, const cli_multi_opts *o, const char *op,
                     const char *details, const double *w, cli_row_store *st, int any_failed);

#endif
