/* cmd_gemv.c: `tessel gemv`, which runs GEMV (y = alpha op(A) x + beta y, CBLAS semantics)
 * variants, the copy reference and peers on one device, on the same random data, and reports one
 * row per variant and shape: median kernel time, effective bandwidth (A, x and y once each, y twice
 * when beta != 0), GFLOP/s = 2mn / time, and with --verify the relative error against the CPU
 * reference. The measuring is in blas_cli.c, shared with `tessel blas1`. */
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
    cli_variant_names("gemv", names, sizeof names);
    printf("Usage: tessel gemv [options]\n\n"
           "Runs y = alpha op(A) x + beta y (CBLAS semantics, A is m x n) on one OpenCL device\n"
           "for each shape and variant, on random data. One row per variant and shape: median\n"
           "kernel time over --repeat runs, effective bandwidth in GB/s = (mn + n + m, plus y\n"
           "again when beta != 0) elements / time, GFLOP/s = 2mn / time, and with --verify the\n"
           "relative error against OpenBLAS in double precision (pass below 1e-5 single / 1e-12\n"
           "double, times max(1, sqrt(k/64)), k the length of x). --copy adds a row for the\n"
           "device's copy kernel moving the same bytes.\n\n"
           "Options:\n");
    cli_help_options(opts, nopts, NULL);
    printf("\nVariants: %s\n", names);
    printf("Peers: clblast (same device and queue), openblas (host CPU)\n\n"
           "Output: an aligned table; --csv/--json write the columns\n  %s\n"
           "Exit codes: 0 success, 1 a --verify check failed, 2 usage error, 3 runtime error.\n\n"
           "Examples:\n"
           "  tessel gemv --size 16384 --trans t --variant all --copy --peers clblast\n"
           "  tessel gemv -m 257 -n 31 --layout col --beta 0.5 --verify --precision double\n",
           cli_csv_header);
}

int cli_cmd_gemv(int argc, char **argv)
{
    blas_job job;
    memset(&job, 0, sizeof job);
    job.cmd = "gemv";
    job.op = "gemv";
    job.pop = TSL_BLAS_GEMV;
    job.variant = "auto";
    job.precision = "single";
    job.repeat = 10;
    job.warmup = 2;
    job.alpha = 1.0;
    job.beta = 0.0;
    job.seed = 42;
    job.tolerance = NAN;
    const char *layout = "row", *trans = "n";
    size_t size = 0, m = 0, n = 0;
    int help = 0;
    cli_size_list sizes;
    memset(&sizes, 0, sizeof sizes);
    const cli_option opts[] = {
        CLI_OPTS_TARGET(&job.device, &job.variant, &job.precision),
        {"--size", NULL, CLI_COUNT, &size, "N", "m = n = N; default 4096"},
        {"--sizes", NULL, CLI_SIZE_LIST, &sizes, "A,B,...", "several square sizes, in turn"},
        {"-m", NULL, CLI_COUNT, &m, "M", "rows of A (overrides --size for m)"},
        {"-n", NULL, CLI_COUNT, &n, "N", "columns of A (overrides --size for n)"},
        {"--layout", NULL, CLI_STRING, &layout, "L", "row or col (major); default row"},
        {"--trans", NULL, CLI_STRING, &trans, "T", "n or t: op(A) = A or A^T; default n"},
        {"--alpha", NULL, CLI_REAL, &job.alpha, "X", "alpha; default 1"},
        {"--beta", NULL, CLI_REAL, &job.beta, "X", "beta; default 0 (y is not read)"},
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
    int rc = cli_read_options("gemv", argc, argv, opts, nopts, print_help);
    if (rc >= 0) return rc;
    if (strcmp(job.variant, "list") == 0) return cli_list_variants("gemv");
    if (strcmp(layout, "row") == 0)
        job.layout = TSL_ROW_MAJOR;
    else if (strcmp(layout, "col") == 0)
        job.layout = TSL_COL_MAJOR;
    else
        return cli_error(CLI_EXIT_USAGE, "gemv: --layout expects row or col, got '%s'", layout);
    if (strcmp(trans, "n") == 0 || strcmp(trans, "N") == 0)
        job.trans = TSL_NO_TRANS;
    else if (strcmp(trans, "t") == 0 || strcmp(trans, "T") == 0)
        job.trans = TSL_TRANS;
    else
        return cli_error(CLI_EXIT_USAGE, "gemv: --trans expects n or t, got '%s'", trans);
    if ((rc = cli_sizes("gemv", "--size", size, &sizes, 4096))) return rc;
    for (size_t i = 0; i < sizes.n; ++i) {
        job.m[job.ncases] = m ? m : sizes.v[i];
        job.n[job.ncases++] = n ? n : sizes.v[i];
    }
    return blas_cli_run(&job);
}
