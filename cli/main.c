/* main.c: entry point of the tessel command. Dispatches to the subcommand named by the first
 * argument through one table, and answers --help and --version itself. Subcommands that DESIGN.md
 * plans but that do not exist yet are named as such, with the usage exit code. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "tessel.h"

int cli_argc;
char **cli_argv;

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"devices", cli_cmd_devices,
     "list OpenCL platforms and devices with the indices --device takes"},
    {"gemm", cli_cmd_gemm,
     "run, time and verify GEMM variants (C = alpha op(A) op(B) + beta C) and peers"},
    {"blas1", cli_cmd_blas1, "run, time and verify axpy, dot and nrm2 variants and peers"},
    {"gemv", cli_cmd_gemv, "run, time and verify GEMV variants (y = alpha op(A) x + beta y)"},
    {"blas3", cli_cmd_blas3,
     "run, time and verify Level-3 routines (symm, syrk, syr2k, trmm, trsm) and peers"},
    {"transpose", cli_cmd_transpose, "run, time and verify transpose variants (B = A^T) and peers"},
    {"bandwidth", cli_cmd_bandwidth,
     "device copy and host<->device transfer bandwidth (pageable, pinned)"},
    {"poisson", cli_cmd_poisson,
     "Jacobi solver for -lap(u) = f: sweeps/s, bandwidth and residual per variant"},
    {"pi", cli_cmd_pi, "002's Pi by numerical integration: original vs optimized, speedup over C"},
    {"nbody", cli_cmd_nbody, "002's all-pairs N-body step: original vs optimized, speedup over C"},
    {"kmeans", cli_cmd_kmeans,
     "002's K-means assignment step: original vs optimized, speedup over C"},
    {"tune", cli_cmd_tune, "auto-tune an operation for a device and store it in the tuning database"},
    {"study", cli_cmd_study, "reproduce a study of the source documents: CSV, PNG figures, summary"},
};


static void print_help(FILE *f)
{
    fprintf(f,
            "tessel %s: portable OpenCL kernels for dense linear algebra, with a benchmark "
            "harness\n\n"
            "Usage: tessel <command> [options]\n"
            "       tessel <command> --help\n\n"
            "Commands:\n",
            tsl_version());
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        fprintf(f, "  %-10s  %s\n", commands[i].name, commands[i].summary);
    fprintf(
        f, "\n"
           "Options:\n"
           "  -h, --help     this help\n"
           "  --version      print the version\n\n"
           "Devices: --device P:D takes the indices 'tessel devices' prints, or any part of a\n"
           "device or platform name (\"pocl\", \"h200\", \"cpu\"). Without --device: the\n"
           "TESSEL_DEVICE environment variable if set, else the first GPU, else the first device.\n"
           "Compiled kernels are cached in $TESSEL_CACHE_DIR, else $XDG_CACHE_HOME/tessel, else\n"
           "~/.cache/tessel.\n\n"
           "Exit codes: 0 success, 1 verification failed, 2 usage error (unknown option, bad\n"
           "number, unknown variant), 3 runtime error (no device, build failure, out of memory).\n"
           "Errors are one line on stderr starting 'tessel: error: '.\n\n"
           "Examples:\n"
           "  tessel devices\n"
           "  tessel gemm --variant all --size 512 --verify --peers clblast,openblas\n"
           "  tessel gemm --sizes 256,512,1024 --precision double --csv results.csv\n"
           "  tessel transpose --variant all --size 4096 --copy --peers clblast --verify\n"
           "  tessel blas1 --op dot --size 16777216 --copy --peers clblast,openblas\n"
           "  tessel poisson --grid 1025 --iters 500 --variant all --copy\n");
}

/* "devices, gemm, ...": the command table's names, for error messages. */
static const char *command_names(void)
{
    static char names[256];
    names[0] = '\0';
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i) {
        if (i) strncat(names, ", ", sizeof names - strlen(names) - 1);
        strncat(names, commands[i].name, sizeof names - strlen(names) - 1);
    }
    return names;
}

int main(int argc, char **argv)
{
    cli_argc = argc;
    cli_argv = argv;
    if (argc < 2) return cli_error(CLI_EXIT_USAGE, "no command given (try 'tessel --help')");
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        print_help(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("tessel %s\n", tsl_version());
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (strcmp(name, commands[i].name) == 0) return commands[i].run(argc - 2, argv + 2);
    if (name[0] == '-')
        return cli_error(CLI_EXIT_USAGE,
                         "unknown option '%s' before the command (try 'tessel "
                         "--help')",
                         name);
    return cli_error(CLI_EXIT_USAGE, "unknown command '%s' (commands: %s; try 'tessel --help')", name,
                     command_names());
}
