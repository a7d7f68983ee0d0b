/* multi.h: the multi-device and distributed runs of `tessel gemm` and `tessel poisson`
 * (--devices, --distributed; docs/multi-device.md). The commands parse their options as usual
 * and hand a run with --devices or --distributed to this runner, which measures the whole group
 * (a tsl_group of this host's devices, or MPI ranks with one device each through src/multi) and
 * each device alone on the same data, and reports one row per device or rank (its share of the
 * rows and its times), one for the group and one for the fastest device alone, with the speedup.
 * The data, the CPU reference and the --verify rules are the single-device command's own
 * (problems.h). */
#ifndef TESSEL_CLI_MULTI_H
#define TESSEL_CLI_MULTI_H

#include <stddef.h>

#include "args.h"
#include "tessel.h"

/* The options of a multi-device or distributed run. */
typedef struct {
    const char *devices; /* --devices all|SPEC,SPEC,...; NULL without */
    const char *weights; /* --weights calibrate|cu|W1,W2,...; NULL: calibrate */
    double timeout;      /* --timeout seconds; NAN: $TESSEL_TIMEOUT, else 600 */
    int distributed;     /* --distributed (under mpirun) */
    const char *device;  /* --device: with --distributed, the devices ranks pick from */
    const char *variant; /* one variant (or auto), on every device */
    int is_double;
    size_t es;
    int verify;
    double tolerance; /* --tolerance; NAN: the command's rule */
    size_t repeat;
    unsigned warmup;
    unsigned long long seed;
    const char *csv, *json;
    int quiet;
} cli_multi_opts;

/* The option rows the two commands add, spelled once. */
/* clang-format off */
#define CLI_OPTS_MULTI(o)                                                                        \
    {"--devices", NULL, CLI_STRING, &(o)->devices, "all|all:SPEC|SPEC,SPEC",                     \
     "split the work across these devices of this host: all, every device SPEC matches "         \
     "(all:gpu), or a list (0:0,0:1); the report adds each device's share and time, and the "   \
     "speedup over the fastest device alone (docs/multi-device.md)"},                            \
        {"--weights", NULL, CLI_STRING, &(o)->weights, "W",                                      \
         "how rows are split: calibrate (measured throughput; default), cu (compute units x "    \
         "clock), or W1,W2,... per device (0: no rows)"},                                        \
        {"--timeout", NULL, CLI_REAL, &(o)->timeout, "S",                                        \
         "seconds any wait for a device or rank may last; default $TESSEL_TIMEOUT, else 600"},   \
        {"--distributed", NULL, CLI_FLAG, &(o)->distributed, NULL,                               \
         "under mpirun: one device per rank (by its rank on the host among the --device "        \
         "matches), rows split across the ranks; rank 0 reports"}
/* clang-format on */

/* With --devices or --distributed: the options that do not combine with them are usage errors
 * (--device with --devices, peers, --variant all, the copy row: the flags say which were given);
 * --weights and --timeout without them too. 0, or the exit code. */
int cli_multi_check(const char *cmd, const cli_multi_opts *o, const char *device, int peers,
                    int variant_all, int copy_row);

typedef struct {
    size_t m, n, k, lda, ldb, ldc, ea, eb, ec; /* sizes, leading dimensions, element counts */
} cli_multi_gemm_case;

int cli_multi_gemm(const cli_multi_opts *o, tsl_layout layout, tsl_trans ta, tsl_trans tb,
                   double alpha, double beta, const cli_multi_gemm_case *cases, size_t ncases);
int cli_multi_poisson(const cli_multi_opts *o, const size_t *grids, size_t ngrids, size_t iters,
                      double tol, size_t check_every, int random_problem);

#endif
