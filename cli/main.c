/* main.c: entry point of the tessel command. Dispatches to the subcommand named by the first
 * argument through one table, and answers --help and --version itself. An unknown command or an
 * option before the command is a usage error (docs/design.md, "Exit codes"). Before a command
 * that times OpenBLAS, it makes sure OpenBLAS runs the kernels this CPU supports (see
 * choose_openblas_core). */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "common.h"
#include "peer_openblas.h"
#include "interrupt.h"
#include "tessel.h"

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
    {"lapack", cli_cmd_lapack,
     "run, time and verify LAPACK routines (LU, Cholesky, QR, their solvers) and peers"},
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

/* ---- OpenBLAS's core ---------------------------------------------------------------------------
 * OpenBLAS (DYNAMIC_ARCH) picks its kernels when it loads, from the CPU it recognizes, and falls
 * back to generic ones (Prescott) on a CPU it does not know, such as a virtualized Xeon with
 * AVX-512: there its DGEMM runs at a fifth of the right kernels' speed and SGEMM at a twentieth,
 * and an openblas peer row would compare tessel with a crippled CPU. It reads OPENBLAS_CORETYPE
 * only when it loads, before main, so the command re-executes itself once with the variable set.
 * Only the command does this, and only for commands that time OpenBLAS, only when the user has
 * not set OPENBLAS_CORETYPE (theirs is kept) and only when /proc/cpuinfo's flags support better
 * kernels (tsl_openblas_better_core); libtessel never touches the environment. The re-executed
 * process says so in one note when it reports its first OpenBLAS row (cli_peer_row), so that a
 * command line that fails its checks still prints one error line and nothing else.
 * For the tests, TESSEL_TEST_OPENBLAS_CORE stands for the core OpenBLAS detected and
 * TESSEL_TEST_CPUINFO for /proc/cpuinfo (peer_openblas.h). */

/* 1 if `list` (a --peers value) names the openblas peer. */
static int names_openblas(const char *list)
{
    size_t n = strlen("openblas");
    for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, "openblas", n) == 0 && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

/* 1 if the command line will time OpenBLAS: a command with --peers naming openblas, or a study
 * that measures (the gemm-ladder and optimizations studies run the openblas peer). */
static int times_openblas(int argc, char **argv)
{
    if (argc < 2 || cli_wants_help(argc - 2, argv + 2)) return 0;
    const char *cmd = argv[1];
    if (strcmp(cmd, "study") == 0) { /* --list and --replot measure nothing */
        for (int i = 2; i < argc; ++i)
            if (strcmp(argv[i], "--list") == 0 || strcmp(argv[i], "--replot") == 0) return 0;
        return 1;
    }
    if (strcmp(cmd, "gemm") != 0 && strcmp(cmd, "blas1") != 0 && strcmp(cmd, "gemv") != 0 &&
        strcmp(cmd, "transpose") != 0 && strcmp(cmd, "blas3") != 0 && strcmp(cmd, "lapack") != 0)
        return 0;
    for (int i = 2; i < argc; ++i) {
        if (strcmp(argv[i], "--peers") == 0 && i + 1 < argc && names_openblas(argv[i + 1]))
            return 1;
        if (strncmp(argv[i], "--peers=", 8) == 0 && names_openblas(argv[i] + 8)) return 1;
    }
    return 0;
}

/* Re-executes this command with OPENBLAS_CORETYPE set when OpenBLAS runs generic kernels on a
 * CPU that supports better ones; returns when nothing is to change or the re-execution failed. */
static void choose_openblas_core(int argc, char **argv)
{
    if (!times_openblas(argc, argv)) return;
    const char *core = tsl_openblas_planned_core();
    if (!core) return;
    char seen[64];
    snprintf(seen, sizeof seen, "%s", tsl_openblas_detected_core());
    if (setenv("OPENBLAS_CORETYPE", core, 1) != 0 ||
        setenv(TSL_OPENBLAS_DETECTED_ENV, seen, 1) != 0)
        return;
    fflush(NULL);
    execv("/proc/self/exe", argv);
    int err = errno;
    unsetenv("OPENBLAS_CORETYPE");
    unsetenv(TSL_OPENBLAS_DETECTED_ENV);
    cli_note("could not re-execute tessel (%s): OpenBLAS keeps its %s kernels", strerror(err),
             seen);
}

int main(int argc, char **argv)
{
    cli_argc = argc;
    cli_argv = argv;
    choose_openblas_core(argc, argv);
    cli_interrupt_init();
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
