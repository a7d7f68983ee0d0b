/* blas_cli.h: what `tessel blas1` and `tessel gemv` share: the job they fill from their option
 * tables, and the one runner that measures its variants, the copy row and the peers on the same
 * random data and reports the rows of docs/design.md ("CSV columns"). The two command files hold
 * only their options, help texts and checks. */
#ifndef TESSEL_CLI_BLAS_H
#define TESSEL_CLI_BLAS_H

#include <stddef.h>

#include "args.h"
#include "peer_blas.h"

typedef struct {
    const char *cmd; /* "blas1", "gemv": error messages */
    const char *op;  /* "axpy", "dot", "nrm2", "gemv": the op name of rows and variants */
    tsl_blas_op pop;
    /* options */
    const char *device, *variant, *precision, *csv, *json;
    size_t repeat, seed;
    unsigned warmup;
    double alpha, beta, tolerance;
    int verify, quiet, copy;
    cli_name_list peer_names;
    tsl_layout layout;
    tsl_trans trans;
    size_t ncases;
    size_t m[CLI_MAX_LIST], n[CLI_MAX_LIST]; /* blas1: m unused */
} blas_job;

/* Resolves precision, variants and peers (usage errors: exit 2), then opens the device, runs
 * every case and reports. Returns the exit code. */
int blas_cli_run(blas_job *job);

#endif
