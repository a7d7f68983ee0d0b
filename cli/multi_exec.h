/* multi_exec.h: the executor of the multi-device runs (multi.c): one interface over the two ways
 * of having several devices, a tsl_group of this host's devices or the MPI ranks of src/multi
 * (one device each). Under MPI every rank makes the same calls in the same order (each is
 * collective); only the root (rank 0, or the one process) has the data and reports. */
#ifndef TESSEL_CLI_MULTI_EXEC_H
#define TESSEL_CLI_MULTI_EXEC_H

#include <stddef.h>

#include "multi.h"
#include "tessel.h"
#ifdef TESSEL_HAVE_MPI
#include "multi/dist.h"
#endif

typedef struct {
    const char *unit; /* "device" or "rank" */
    size_t count;
    int root;
    int fell_back; /* calibration failed: the weights are compute units (a note said why) */
    tsl_device_info *info;
    tsl_group *g;
#ifdef TESSEL_HAVE_MPI
    tsl_dist *d;
#endif
} cli_executor;

/* Opens the devices: the group of --devices, or this rank's device under --distributed. 0, or
 * the exit code after one error line. */
int cli_ex_open(cli_executor *ex, const char *cmd, const cli_multi_opts *o);
void cli_ex_close(cli_executor *ex);
/* A failure: the root prints the one error line; under MPI the whole job stops with code 3.
 * Returns CLI_EXIT_RUNTIME. */
int cli_ex_fail(cli_executor *ex, const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *cli_ex_error(const cli_executor *ex);
const char *cli_ex_warning(const cli_executor *ex);

/* --weights and --variant on every device (0, or the exit code after one error line). */
int cli_ex_apply_weights(cli_executor *ex, const char *cmd, const cli_multi_opts *o, double *given);
int cli_ex_apply_variant(cli_executor *ex, const char *cmd, const char *op, const char *variant);
tsl_status cli_ex_set_weights(cli_executor *ex, tsl_weights how, const double *w);
tsl_status cli_ex_weights(cli_executor *ex, const char *op, int dbl, double *w);
/* The contexts this process drives (all of the group's; a rank's own); at most 16. */
size_t cli_ex_contexts(cli_executor *ex, tsl_context **out);

/* The operations, on the whole group or all ranks, and the figures of the last one. */
tsl_status cli_ex_gemm(cli_executor *ex, int dbl, tsl_layout lay, tsl_trans ta, tsl_trans tb,
                       const cli_multi_gemm_case *c, double alpha, const void *a, const void *b,
                       double beta, void *cm);
tsl_status cli_ex_poisson(cli_executor *ex, int dbl, size_t n, const void *f, void *u, int iters,
                          double tol, tsl_poisson_info *info);
void cli_ex_timing(cli_executor *ex, tsl_group_times *t, tsl_group_part *parts);

#endif
