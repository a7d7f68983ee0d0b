/* cmd_blas1.c: `tessel blas1 --op axpy|dot|nrm2`, which runs a BLAS-1 routine's variants (and the
 * copy reference and peers) on one device, on the same random vectors, and reports one row per
 * variant and size: median kernel time, effective bandwidth (bytes the operation needs / time),
 * GFLOP/s, and with --verify the relative error against the CPU reference. The measuring is in
 * blas_cli.c, shared with `tessel gemv`; this file holds the options and the help. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "blas_cli.h"
#include "commands.h"
#include "measure.h"
#include "output.h"

static void print_help(const cli_option *opts, size_t nopts)
{
    char names[256];
    cli_variant_names("dot", names, sizeof names);
    printf("Usage: tessel blas1 --op axpy|dot|nrm2 [options]\n\n"
           "Runs a BLAS-1 routine on unit-stride vectors of n elements on one OpenCL device:\n"
           "axpy (y = alpha x + y), dot (x . y) or nrm2 (||x||_2). One row per variant and size:\n"
           "median kernel time over --repeat runs (profiling events, after --warmup runs),\n"
           "effective bandwidth in GB/s = bytes the operation needs / time (axpy 3n elements, dot\n"
           "2n, nrm2 n), GFLOP/s = 2n / time, and with --verify the relative error against\n"
           "OpenBLAS in double precision (pass below 1e-5 single / 1e-12 double, times\n"
           "max(1, sqrt(n/64)) for dot and nrm2). dot and nrm2 give the same bits on every run.\n"
           "--copy adds a row for the device's copy kernel moving the same bytes.\n\n"
           "Options:\n");
    cli_help_options(opts, nopts, NULL);
    printf("\nVariants (each op): %s\n", names);
    printf("Peers: clblast (same device and queue), openblas (host CPU)\n\n"
           "Output: an aligned table; --csv/--json write the columns\n  %s\n"
           "Exit codes: 0 success, 1 a --verify check failed, 2 usage error, 3 runtime error.\n\n"
           "Examples:\n"
           "  tessel blas1 --op dot --size 67108864 --variant all --copy --peers clblast\n"
           "  tessel blas1 --op nrm2 --sizes 1000,1000000 --precision double --verify\n",
           cli_csv_header);
}

int cli_cmd_blas1(int argc, char **argv)
{
    blas_job job;
    memset(&job, 0, sizeof job);
    job.cmd = "blas1";
    job.variant = "auto";
    job.precision = "single";
    job.repeat = 10;
    job.warmup = 2;
    job.alpha = 1.5;
    job.seed = 42;
    job.tolerance = NAN;
    job.layout = TSL_ROW_MAJOR;
    job.trans = TSL_NO_TRANS;
    const char *op = NULL;
    size_t size = 0;
    int help = 0;
    cli_size_list sizes;
    memset(&sizes, 0, sizeof sizes);
    const cli_option opts[] = {
        {"--op", NULL, CLI_STRING, &op, "OP", "axpy, dot or nrm2 (required)"},
        CLI_OPTS_TARGET(&job.device, &job.variant, &job.precision),
        {"--size", NULL, CLI_COUNT, &size, "N", "elements per vector; default 16777216"},
        {"--sizes", NULL, CLI_SIZE_LIST, &sizes, "A,B,...", "several sizes, in turn"},
        {"--alpha", NULL, CLI_REAL, &job.alpha, "X", "axpy's alpha; default 1.5"},
        CLI_OPTS_RUNS(&job.repeat, &job.warmup),
        CLI_OPT_VERIFY(&job.verify),
        CLI_OPT_TOLERANCE(&job.tolerance),
        CLI_OPT_SEED(&job.seed),
        {"--copy", NULL, CLI_FLAG, &job.copy, NULL,
         "add a 'copy' row: the copy kernel moving the same number of bytes"},
        CLI_OPT_PEERS(&job.peer_names),
        CLI_OPTS_OUTPUT(&job.csv, &job.json, &job.quiet, &help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    int rc = cli_read_options("blas1", argc, argv, opts, nopts, print_help);
    if (rc >= 0) return rc;
    static const char *const ops[] = {"axpy", "dot", "nrm2"};
    if (!op) return cli_error(CLI_EXIT_USAGE, "blas1: --op is required (axpy, dot or nrm2)");
    for (int i = 0; i < 3; ++i)
        if (strcmp(op, ops[i]) == 0) {
            job.op = ops[i];
            job.pop = (tsl_blas_op)i;
        }
    if (!job.op)
        return cli_error(CLI_EXIT_USAGE, "blas1: --op expects axpy, dot or nrm2, got '%s'", op);
    if (strcmp(job.variant, "list") == 0) return cli_list_variants(job.op);
    if ((rc = cli_sizes("blas1", "--size", size, &sizes, 16777216))) return rc;
    for (size_t i = 0; i < sizes.n; ++i)
        job.n[job.ncases++] = sizes.v[i];
    return blas_cli_run(&job);
}
