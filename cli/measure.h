/* measure.h: the measuring skeleton that gemm, transpose, poisson, blas1, gemv and bandwidth share,
 * so that each command file keeps only its own data, calls, verification and peers. A session is
 * the report plus the opened device (with the documented error lines and exit codes); a variant
 * set is what --variant NAME|all asks for, checked on the device once (skipped rows under `all`);
 * cli_time_runs is the warmup + repeat loop over one call; cli_copy_row is the tsl_copy_buf
 * bandwidth reference row; cli_peer_row turns a peer's result into the common row fields. The
 * option rows, --size/--sizes and --peers handling that the commands share are here too. */
#ifndef TESSEL_CLI_MEASURE_H
#define TESSEL_CLI_MEASURE_H

#include <stddef.h>

#include "args.h"
#include "output.h"
#include "peers.h"
#include "tessel.h"

#define CLI_MAX_VARIANTS 64

/* ---- the session: report and device ---------------------------------------------------------- */

typedef struct {
    tsl_context *ctx;
    tsl_device_info dev;
    cli_report *rep;
    unsigned warmup; /* untimed calls before the timed ones */
    size_t repeat;   /* timed calls, the median is reported */
    char title[512]; /* the line above the table: written once the device is known */
    char command_line[2048];
    int any_error, any_failed; /* exit code 3 / 1 at the end */
} cli_session;

/* Opens the report (output paths checked, nothing printed yet) with the given table columns, then
 * the device of spec, and checks that it has fp64 when need_fp64. Returns 0, or the exit code after
 * one error line with everything closed again. */
int cli_session_open(cli_session *s, const char *csv, const char *json, int quiet,
                     const char *columns, const char *spec, int need_fp64);
/* Prints the context's warnings (tsl_context_warning: an ignored tuning file, ...) as
 * "tessel: warning: " lines on stderr, each once per process however often this is called. */
void cli_context_warnings(const tsl_context *ctx);
/* Drops the report and closes the device after a check failed; returns rc. */
int cli_session_abort(cli_session *s, int rc);
/* Commits the report, closes the device, and returns the exit code of the run. */
int cli_session_close(cli_session *s);

/* The fields of every row of the session: op, variant, device and repeat; status "error" until a
 * run says otherwise. */
void cli_row_start(const cli_session *s, const char *op, const char *variant, cli_row *row);

/* ---- options shared by the measuring commands ------------------------------------------------ */

/* The option rows (name, kind, help line) that the measuring commands have in common, spelled
 * once so that every --help says the same; each takes where the value goes. */
#define CLI_OPT_DEVICE(dest)                                                                     \
    {"--device", NULL, CLI_STRING, (dest), "SPEC",                                               \
     "device: P:D from 'tessel devices', or part of a name (default: $TESSEL_DEVICE, else "      \
     "the first GPU, else the first device)"}
#define CLI_OPT_VARIANT(dest)                                                                    \
    {"--variant", NULL, CLI_STRING, (dest), "NAME",                                              \
     "a variant, 'all' (every variant), or 'list' (print the names); default auto"}
#define CLI_OPT_PRECISION(dest)                                                                  \
    {"--precision", NULL, CLI_STRING, (dest), "P", "single or double; default single"}
#define CLI_OPT_REPEAT(dest)                                                                     \
    {"--repeat", NULL, CLI_COUNT, (dest), "R", "timed runs, median reported; default 10"}
#define CLI_OPT_WARMUP(dest)                                                                     \
    {"--warmup", NULL, CLI_UINT, (dest), "W", "untimed runs first; default 2"}
#define CLI_OPT_SEED(dest)                                                                       \
    {"--seed", NULL, CLI_COUNT, (dest), "S", "random data seed, >= 1; default 42"}
#define CLI_OPT_PEERS(dest)                                                                      \
    {"--peers", NULL, CLI_NAME_LIST, (dest), "P,Q",                                              \
     "also run these peers on the same data: clblast, cublas (needs a CUDA device), openblas"}
#define CLI_OPT_CSV(dest)                                                                        \
    {"--csv", NULL, CLI_STRING, (dest), "PATH|-", "write CSV to a file, or '-' for stdout"}
#define CLI_OPT_JSON(dest)                                                                       \
    {"--json", NULL, CLI_STRING, (dest), "PATH|-", "write JSON to a file, or '-' for stdout"}
#define CLI_OPT_QUIET(dest) {"--quiet", NULL, CLI_FLAG, (dest), NULL, "no table on stdout"}
#define CLI_OPT_HELP(dest) {"--help", "-h", CLI_FLAG, (dest), NULL, "this help"}
#define CLI_OPT_VERIFY(dest)                                                                     \
    {"--verify", NULL, CLI_FLAG, (dest), NULL,                                                   \
     "check every result against the CPU reference (exit 1 if one fails)"}
#define CLI_OPT_TOLERANCE(dest)                                                                  \
    {"--tolerance", NULL, CLI_REAL, (dest), "E",                                                 \
     "--verify pass threshold instead of the size-dependent default"}
/* Groups of rows that always come together, in this order. */
#define CLI_OPTS_TARGET(device, variant, precision)                                              \
    CLI_OPT_DEVICE(device), CLI_OPT_VARIANT(variant), CLI_OPT_PRECISION(precision)
#define CLI_OPTS_RUNS(repeat, warmup) CLI_OPT_REPEAT(repeat), CLI_OPT_WARMUP(warmup)
#define CLI_OPTS_OUTPUT(csv, json, quiet, help)                                                  \
    CLI_OPT_CSV(csv), CLI_OPT_JSON(json), CLI_OPT_QUIET(quiet), CLI_OPT_HELP(help)

/* The options section of a --help text, and with op the "Variants:" list of op after it. */
void cli_help_options(const cli_option *opts, size_t nopts, const char *op);
/* Reads argv against opts: prints the help (help(opts, nopts)) when asked for. Returns the exit
 * code to stop with (0 after the help, 2 after a usage error), or -1 to go on. */
int cli_read_options(const char *cmd, int argc, char **argv, const cli_option *opts, size_t nopts,
                     void (*help)(const cli_option *opts, size_t nopts));

/* An option that is one of two words: *out = va for a, vb for b; otherwise the usage error (exit 2)
 * "CMD: OPT expects A or B, got 'TEXT'". */
int cli_parse_choice(const char *cmd, const char *opt, const char *text, const char *a,
                     const char *b, int va, int vb, int *out);
/* --precision single|double; usage error (exit 2) otherwise (for half and bfloat16: that only gemm
 * has them). */
int cli_parse_precision(const char *cmd, const char *text, int *is_double, size_t *es);
/* --precision single|double|half|bfloat16, for a command with 16-bit storage (gemm). */
int cli_parse_precision_half(const char *cmd, const char *text, tsl_precision *prec, size_t *es);
/* --size N or --sizes A,B,... (one_opt: the name of the first), not both; with neither, one size
 * def. */
int cli_sizes(const char *cmd, const char *one_opt, size_t size, cli_size_list *sizes, size_t def);
/* Adds each --peers name once to peers (*npeers of them), as spelled by name_at(j), the j-th peer
 * of the command (NULL after the last); an unknown name is a usage error listing them. */
int cli_select_peers(const char *cmd, const cli_name_list *names, const char *(*name_at)(size_t),
                     const char **peers, size_t *npeers);
/* --repeat and --warmup up to max_runs each. */
int cli_check_runs(const char *cmd, size_t repeat, unsigned warmup, unsigned max_runs);

/* ---- variants -------------------------------------------------------------------------------- */

typedef struct {
    const char *op;
    tsl_precision prec; /* checked in this precision; cli_variants_select sets TSL_SINGLE */
    const char *name[CLI_MAX_VARIANTS];
    size_t n;
    /* --variant all: a variant the device cannot run (TSL_ERR_UNSUPPORTED) is a skipped row with a
     * note, not an error. */
    int all;
    int ok[CLI_MAX_VARIANTS];                /* the check passed */
    double check_build_ms[CLI_MAX_VARIANTS]; /* kernels tsl_variant_check built */
    const char *auto_resolved;               /* the variant "auto" picked */
} cli_variants;

/* "auto, a, b, ..." for help texts and error lines. */
void cli_variant_names(const char *op, char *buf, size_t cap);
/* --variant list: the names of op, one a line. */
int cli_list_variants(const char *op);
/* Adds name unless it is there already. */
void cli_variants_add(cli_variants *vs, const char *name);
/* Adds what --variant arg asks for: every variant of op, or auto, or one name; an unknown name is
 * a usage error "CMD: unknown [OP ]variant ..." (OP with name_op). */
int cli_variants_select(cli_variants *vs, const char *op, const char *arg, const char *cmd,
                        int name_op);
/* tsl_variant_check_precision of each variant (vs->prec) on the session's device: notes the
 * skipped ones under `all`, and fails (exit 3) for one that cannot run otherwise. */
int cli_variants_check(cli_variants *vs, cli_session *s, const char *cmd);
/* Starts the row of variant vi (resolved name for auto); when the check found it cannot run, the
 * row is reported as skipped and 0 is returned, else 1. */
int cli_variant_row(cli_session *s, const cli_variants *vs, size_t vi, cli_row *row);
/* After the runs of variant v failed with st: under `all` a device that cannot run it makes the
 * row skipped (with a note); returns 1 when it did and reported the row. */
int cli_variant_skip(cli_session *s, const cli_variants *vs, tsl_status st, const char *v,
                     cli_row *row);
/* "<context error> (<status name>)" into msg. */
void cli_status_text(const cli_session *s, tsl_status st, char *msg, size_t cap);

/* ---- timing ---------------------------------------------------------------------------------- */

/* One call of a timed loop, run = 0 .. warmup + repeat - 1. It may set *ms to the call's own time;
 * left alone, the call's time is the kernel_ms of tsl_context_timing. */
typedef tsl_status (*cli_call_fn)(void *arg, unsigned run, double *ms);

/* Runs warmup untimed and repeat timed calls, stopping at the first failure (returned). times
 * gets the timed calls' times; with row, row->build_ms = build_base + the first call's build
 * time; *last (if not NULL) the tsl_context_timing of the last call. */
tsl_status cli_time_runs(cli_session *s, cli_call_fn call, void *arg, double *times, cli_row *row,
                         double build_base, tsl_timing *last);

/* tsl_buffer_read of bytes of buf into host; row->download_ms is its transfer time. */
tsl_status cli_read_back(cli_session *s, tsl_buffer *buf, size_t bytes, void *host, cli_row *row);

/* ---- the copy row ---------------------------------------------------------------------------- */

typedef struct {
    size_t bytes;    /* copied per call (read and written: the row's bytes are twice this) */
    int build_first; /* build_ms from one extra call before the loop, not from its first call */
    int fill;        /* the source is random data from seed (else from 42), upload_ms reported */
    int is_double;   /* the kind of random values */
    unsigned long long seed;
    int verify; /* read the copy back and compare (download_ms, max_rel_err) */
} cli_copy_opts;

/* Times tsl_copy_buf between two new buffers into row (kernel_ms, gbps, status ok or
 * verify_failed, any_failed); returns the status of a failure, which the caller reports. */
tsl_status cli_copy_row(cli_session *s, const cli_copy_opts *o, double *times, cli_row *row);

/* ---- peers ----------------------------------------------------------------------------------- */

/* A peer's result into row: its device; skipped (reason noted once per peer through *noted);
 * error (returns -1: the caller prints its line); or ok (returns 1, build, upload and download
 * times set: the caller adds speed and verdict). */
int cli_peer_row(const tsl_peer_result *res, const char *name, int *noted, cli_row *row);

#endif
