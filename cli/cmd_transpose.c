/* cmd_transpose.c: `tessel transpose`, which runs transpose variants and peers on one device, on
 * the same random matrix, and reports one row per variant (or peer) and shape: median kernel time,
 * effective bandwidth (bytes read + bytes written, times the inner repetitions, over the time:
 * 004's Be = (Br + Bw) k / T), build time, and with --verify the error against a host transpose.
 *
 * How a row is measured: A is uploaded once per shape; B starts as NaN (so an element a kernel
 * forgets to write fails --verify); a variant runs `warmup` untimed and `repeat` timed calls of
 * tsl_[sd]transpose_buf and kernel_ms is the median of the per-call kernel times from profiling
 * events. The `copy` row (variant copy, or --copy) is the bandwidth reference: tsl_copy_buf moving
 * the same bytes from A's buffer to B's, once per call (inner repetitions do not apply to it);
 * its --verify checks the copy byte for byte. Peers (--peers clblast,openblas) get the same A. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "common.h"
#include "measure.h"
#include "output.h"
#include "peer_transpose.h"
#include "tessel.h"

#define MAX_RUNS 1000000u
#define MAX_INNER_REPS 1000000u

typedef struct {
    const char *device, *variant, *precision, *csv, *json;
    cli_size_list sizes;
    size_t size, rows, cols, seed, tile, wg_rows, group_tiles, inner_reps;
    int verify, quiet, help, copy;
    cli_name_list peer_names;
    int is_double;
    size_t es;
    const char *peers[CLI_MAX_LIST];
    int peer_noted[CLI_MAX_LIST];
    size_t npeers;
    cli_variants vs;
    cli_session s; /* device, report, --repeat and --warmup */
} tr_job;

typedef struct {
    size_t rows, cols, elems; /* A is rows x cols, B cols x rows, both tight */
} tr_case;

typedef struct {
    void *a, *out;
    double *times;
    tsl_buffer *da, *db;
    double upload_ms;
} tr_data;

static void set_common(const tr_job *job, const tr_case *c, const char *variant, cli_row *row)
{
    cli_row_start(&job->s, "transpose", variant, row);
    row->precision = job->is_double ? "double" : "single";
    row->m = (long long)c->rows, row->n = (long long)c->cols;
}

/* Effective bandwidth: A read once and B written once per repetition. */
static void set_speed(const tr_job *job, const tr_case *c, double ms, size_t reps, cli_row *row)
{
    row->kernel_ms = ms;
    if (ms > 0) row->gbps = 2.0 * (double)c->elems * (double)job->es * (double)reps / (ms * 1e6);
}

static double value(const tr_job *job, const void *x, size_t i)
{
    return job->is_double ? ((const double *)x)[i] : (double)((const float *)x)[i];
}

/* ||B - A^T||_F / ||A||_F in double; a transpose moves bits, so anything but 0 is a bug, and NaN
 * (an element never written) never passes. */
static void set_verdict(tr_job *job, const tr_case *c, const void *a, const void *b, cli_row *row)
{
    row->status = "ok";
    if (!job->verify) return;
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < c->rows; ++i)
        for (size_t j = 0; j < c->cols; ++j) {
            double r = value(job, a, i * c->cols + j), d = value(job, b, j * c->rows + i) - r;
            num += d * d;
            den += r * r;
        }
    row->max_rel_err = den > 0 ? sqrt(num / den) : sqrt(num);
    if (!(row->max_rel_err == 0.0)) {
        row->status = "verify_failed";
        job->s.any_failed = 1;
    }
}

static void row_error(tr_job *job, const tr_case *c, const char *variant, const char *what)
{
    cli_error(CLI_EXIT_RUNTIME, "transpose %s at %zux%zu: %s", variant, c->rows, c->cols, what);
    job->s.any_error = 1;
}

/* One call of the timed loop: the transpose, or for the copy row tsl_copy_buf of A's bytes. */
typedef struct {
    tr_job *job;
    const tr_case *c;
    const tr_data *d;
    int copy;
} tr_call;

static tsl_status call(void *arg, unsigned run, double *ms)
{
    (void)run, (void)ms;
    const tr_call *a = arg;
    const tr_job *job = a->job;
    const tr_case *c = a->c;
    const tr_data *d = a->d;
    int copy = a->copy;
    if (copy) return tsl_copy_buf(job->s.ctx, d->da, d->db, c->elems * job->es);
    if (job->is_double)
        return tsl_dtranspose_buf(job->s.ctx, c->rows, c->cols, d->da, c->cols, d->db, c->rows);
    return tsl_stranspose_buf(job->s.ctx, c->rows, c->cols, d->da, c->cols, d->db, c->rows);
}

static void run_variant(tr_job *job, const tr_case *c, tr_data *d, size_t vi)
{
    const char *v = job->vs.name[vi];
    int copy = strcmp(v, "copy") == 0;
    cli_row row;
    set_common(job, c, v, &row);
    if (!cli_variant_row(&job->s, &job->vs, vi, &row)) return;
    size_t bytes = c->elems * job->es;
    tsl_status st = copy ? TSL_OK : tsl_context_set_variant(job->s.ctx, "transpose", v);
    cli_fill_nan(job->is_double, d->out, c->elems);
    if (st == TSL_OK) st = tsl_buffer_write(job->s.ctx, d->db, 0, bytes, d->out);
    tr_call a = {job, c, d, copy};
    if (st == TSL_OK)
        st = cli_time_runs(&job->s, call, &a, d->times, &row, job->vs.check_build_ms[vi], NULL);
    if (st == TSL_OK) st = cli_read_back(&job->s, d->db, bytes, d->out, &row);
    if (cli_variant_skip(&job->s, &job->vs, st, v, &row)) return;
    if (st != TSL_OK) {
        char msg[1200];
        cli_status_text(&job->s, st, msg, sizeof msg);
        row_error(job, c, v, msg);
        cli_report_row(job->s.rep, &row);
        return;
    }
    set_speed(job, c, cli_median(d->times, job->s.repeat), copy ? 1 : job->inner_reps, &row);
    row.upload_ms = d->upload_ms;
    if (copy) {
        row.status = "ok";
        if (job->verify) {
            row.max_rel_err = memcmp(d->a, d->out, bytes) == 0 ? 0.0 : 1.0;
            if (row.max_rel_err != 0.0) row.status = "verify_failed", job->s.any_failed = 1;
        }
    } else {
        set_verdict(job, c, d->a, d->out, &row);
    }
    cli_report_row(job->s.rep, &row);
}

static void run_peer(tr_job *job, const tr_case *c, tr_data *d, size_t pi)
{
    cli_row row;
    set_common(job, c, job->peers[pi], &row);
    tsl_peer_transpose_args args = {job->s.ctx, job->is_double, c->rows,
                                    c->cols,  d->a,           c->cols,
                                    c->rows,  job->s.warmup,    (unsigned)job->s.repeat};
    tsl_peer_result res;
    res.run_ms = d->times;
    res.c = d->out;
    cli_fill_nan(job->is_double, d->out, c->elems);
    tsl_peer_transpose(job->peers[pi], &args, &res);
    int got = cli_peer_row(&res, job->peers[pi], &job->peer_noted[pi], &row);
    if (got < 0) row_error(job, c, job->peers[pi], res.reason);
    if (got > 0) {
        set_speed(job, c, cli_median(d->times, job->s.repeat), 1, &row);
        set_verdict(job, c, d->a, d->out, &row);
    }
    cli_report_row(job->s.rep, &row);
}

static void free_data(tr_data *d)
{
    tsl_buffer_destroy(d->da);
    tsl_buffer_destroy(d->db);
    free(d->a);
    free(d->out);
    free(d->times);
}

static void run_case(tr_job *job, const tr_case *c, size_t index, size_t total)
{
    tr_data d;
    memset(&d, 0, sizeof d);
    size_t bytes = c->elems * job->es;
    d.a = malloc(bytes);
    d.out = malloc(bytes);
    d.times = malloc(job->s.repeat * sizeof *d.times);
    char msg[1200] = "";
    tsl_status st = TSL_OK;
    if (!d.a || !d.out || !d.times) {
        snprintf(msg, sizeof msg, "out of host memory for the matrices");
    } else {
        unsigned long long state = job->seed + 0x9E3779B97F4A7C15ull * (index + 1);
        cli_fill_random(job->is_double, d.a, c->elems, &state);
        tsl_timing t;
        if ((st = tsl_buffer_create(job->s.ctx, bytes, &d.da)) == TSL_OK &&
            (st = tsl_buffer_create(job->s.ctx, bytes, &d.db)) == TSL_OK &&
            (st = tsl_buffer_write(job->s.ctx, d.da, 0, bytes, d.a)) == TSL_OK &&
            tsl_context_timing(job->s.ctx, &t) == TSL_OK)
            d.upload_ms = t.upload_ms;
        if (st != TSL_OK) {
            snprintf(msg, sizeof msg, "device buffers: ");
            cli_status_text(&job->s, st, msg + strlen(msg), sizeof msg - strlen(msg));
        }
    }
    if (msg[0]) { /* every row of this shape is an error row */
        cli_error(CLI_EXIT_RUNTIME, "transpose at %zux%zu: %s", c->rows, c->cols, msg);
        job->s.any_error = 1;
        cli_row row;
        for (size_t i = 0; i < job->vs.n + job->npeers; ++i) {
            set_common(job, c,
                       i < job->vs.n ? job->vs.name[i] : job->peers[i - job->vs.n],
                       &row);
            cli_report_row(job->s.rep, &row);
        }
        free_data(&d);
        return;
    }
    for (size_t i = 0; i < job->vs.n; ++i) {
        cli_progress("transpose %zu/%zu %zux%zu: %s", index + 1, total, c->rows, c->cols,
                     job->vs.name[i]);
        run_variant(job, c, &d, i);
    }
    tsl_buffer_destroy(d.da); /* device memory back before the peers make their own */
    tsl_buffer_destroy(d.db);
    d.da = d.db = NULL;
    for (size_t i = 0; i < job->npeers; ++i) {
        cli_progress("transpose %zu/%zu %zux%zu: peer %s", index + 1, total, c->rows, c->cols,
                     job->peers[i]);
        run_peer(job, c, &d, i);
    }
    free_data(&d);
}

/* ---- options ------------------------------------------------------------------------------- */

static int check_options(tr_job *job)
{
    int rc = cli_parse_precision("transpose", job->precision, &job->is_double, &job->es);
    if (rc || (rc = cli_check_runs("transpose", job->s.repeat, job->s.warmup, MAX_RUNS))) return rc;
    if (job->tile && (job->tile < 4 || job->tile > 64))
        return cli_error(CLI_EXIT_USAGE, "transpose: --tile expects 4..64, got %zu", job->tile);
    if (job->wg_rows && job->wg_rows > 64)
        return cli_error(CLI_EXIT_USAGE, "transpose: --wg-rows expects 1..64, got %zu",
                         job->wg_rows);
    if (job->group_tiles > 16)
        return cli_error(CLI_EXIT_USAGE, "transpose: --group-tiles expects 1..16, got %zu",
                         job->group_tiles);
    if (job->inner_reps > MAX_INNER_REPS)
        return cli_error(CLI_EXIT_USAGE, "transpose: --inner-reps goes up to %u", MAX_INNER_REPS);
    if (job->copy) cli_variants_add(&job->vs, "copy"); /* the reference first */
    if ((rc = cli_variants_select(&job->vs, "transpose", job->variant, "transpose", 0))) return rc;
    if ((rc = cli_select_peers("transpose", &job->peer_names, tsl_peer_transpose_name, job->peers,
                               &job->npeers)))
        return rc;
    return cli_sizes("transpose", "--size", job->size, &job->sizes, 1024);
}

/* Byte counts (before the device) and the device's and host's memory (after). */
static int make_case(const tr_job *job, size_t s, tr_case *c)
{
    c->rows = job->rows ? job->rows : s;
    c->cols = job->cols ? job->cols : s;
    if (c->cols > SIZE_MAX / c->rows || c->rows * c->cols > SIZE_MAX / job->es)
        return cli_error(CLI_EXIT_USAGE,
                         "transpose: a %zu x %zu matrix needs more bytes than a size_t can count; "
                         "use a smaller size",
                         c->rows, c->cols);
    if (c->rows > INT_MAX - 64 || c->cols > INT_MAX - 64)
        return cli_error(CLI_EXIT_USAGE, "transpose: rows and columns go up to %d", INT_MAX - 64);
    c->elems = c->rows * c->cols;
    return 0;
}

static int check_memory(const tr_job *job, const tr_case *c)
{
    unsigned long long bytes = (unsigned long long)c->elems * job->es;
    if (bytes > job->s.dev.max_alloc)
        return cli_error(CLI_EXIT_USAGE,
                         "transpose: a %zu x %zu matrix needs %llu bytes, more than the largest "
                         "buffer %s allows (max_alloc %llu bytes); use a smaller size",
                         c->rows, c->cols, bytes, job->s.dev.name, job->s.dev.max_alloc);
    if (2.0L * bytes > (long double)job->s.dev.global_mem)
        return cli_error(CLI_EXIT_USAGE,
                         "transpose: A and B of %zu x %zu need %.0Lf bytes, more than the global "
                         "memory of %s (%llu bytes); use a smaller size",
                         c->rows, c->cols, 2.0L * bytes, job->s.dev.name, job->s.dev.global_mem);
    long double phys = cli_host_memory();
    if (phys > 0 && 2.0L * bytes > phys)
        return cli_error(CLI_EXIT_USAGE,
                         "transpose: %zu x %zu needs %.0Lf bytes of host memory, more than this "
                         "machine has; use a smaller size",
                         c->rows, c->cols, 2.0L * bytes);
    return 0;
}

static void print_help(const cli_option *opts, size_t nopts)
{
    printf(
        "Usage: tessel transpose [options]\n\n"
        "Runs the row-major out-of-place transpose B = A^T (A rows x cols) on one OpenCL device\n"
        "for each shape and variant, on random data, and prints one row per variant and shape:\n"
        "median kernel time over --repeat runs (profiling events, after --warmup runs), the\n"
        "effective bandwidth gbps = (bytes read + bytes written) x inner reps / time, build\n"
        "time, and with --verify the error against a host transpose (it must be exactly 0).\n"
        "m is rows, n is cols. The copy variant (also added by --copy) is the bandwidth\n"
        "reference: tsl_copy_buf moving the same bytes, once per launch, no transposition.\n\n"
        "Options:\n");
    cli_help_options(opts, nopts, "transpose");
    printf("Peers:\n"
           "  clblast     CLBlast omatcopy (transpose) on the same device, queue and data\n"
           "  openblas    OpenBLAS cblas_?omatcopy on the host CPU, same data\n"
           "  (peers and the copy row run once per launch: --inner-reps does not apply to them)\n\n"
           "Output: an aligned table on stdout; --csv/--json write the columns\n  %s\n"
           "to a file or to stdout with '-'. A variant the device cannot run is a skipped row\n"
           "with the reason on stderr.\n\n"
           "Exit codes: 0 success, 1 a --verify check failed, 2 usage error (unknown option, bad\n"
           "number, unknown variant or peer, tile out of range, matrix too large for the device),\n"
           "3 runtime error (no matching device, no double precision, build failure).\n\n"
           "Examples:\n"
           "  tessel transpose --variant all --size 4096 --copy --verify --peers clblast\n"
           "  tessel transpose --rows 257 --cols 31 --variant diagonal --tile 16 --verify\n"
           "  tessel transpose --sizes 1024,2048,4096 --variant nobank --inner-reps 10 --csv -\n",
           cli_csv_header);
}

int cli_cmd_transpose(int argc, char **argv)
{
    tr_job job;
    memset(&job, 0, sizeof job);
    job.variant = "auto";
    job.precision = "single";
    job.s.repeat = 10;
    job.s.warmup = 2;
    job.seed = 42;
    job.inner_reps = 1;
    const cli_option opts[] = {
        CLI_OPTS_TARGET(&job.device, &job.variant, &job.precision),
        {"--size", NULL, CLI_COUNT, &job.size, "N", "square N x N matrix; default 1024"},
        {"--sizes", NULL, CLI_SIZE_LIST, &job.sizes, "A,B,...", "several square sizes, in turn"},
        {"--rows", NULL, CLI_COUNT, &job.rows, "R", "rows of A (overrides --size for rows)"},
        {"--cols", NULL, CLI_COUNT, &job.cols, "C", "columns of A (overrides --size for cols)"},
        {"--tile", NULL, CLI_COUNT, &job.tile, "T",
         "tile edge, 4..64 (default: the best known for the device)"},
        {"--wg-rows", NULL, CLI_COUNT, &job.wg_rows, "R",
         "work-group rows, 1..32: each work-item walks the tile R rows at a time (default: the "
         "best known for the device; capped at the tile edge)"},
        {"--group-tiles", NULL, CLI_COUNT, &job.group_tiles, "G",
         "vector variant: tiles one work-group transposes, 1..16, loading the next while it "
         "writes the last (default: the best known for the device)"},
        {"--inner-reps", NULL, CLI_COUNT, &job.inner_reps, "R",
         "the kernel body runs R times per launch (001's loop); default 1"},
        CLI_OPTS_RUNS(&job.s.repeat, &job.s.warmup),
        {"--verify", NULL, CLI_FLAG, &job.verify, NULL,
         "check every result against a host transpose (exit 1 if one fails)"},
        {"--copy", NULL, CLI_FLAG, &job.copy, NULL,
         "add the copy row: the same bytes through tsl_copy_buf, the bandwidth reference"},
        CLI_OPT_SEED(&job.seed),
        CLI_OPT_PEERS(&job.peer_names),
        CLI_OPTS_OUTPUT(&job.csv, &job.json, &job.quiet, &job.help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    int rc = cli_read_options("transpose", argc, argv, opts, nopts, print_help);
    if (rc >= 0) return rc;
    if (strcmp(job.variant, "list") == 0) return cli_list_variants("transpose");
    if ((rc = check_options(&job))) return rc;
    tr_case cases[CLI_MAX_LIST];
    size_t ncases = job.sizes.n;
    for (size_t i = 0; i < ncases; ++i)
        if ((rc = make_case(&job, job.sizes.v[i], &cases[i]))) return rc;

    rc = cli_session_open(&job.s, job.csv, job.json, job.quiet,
                          "variant,precision,m,n,kernel_ms,gbps,build_ms,max_rel_err,status,device",
                          job.device, job.is_double);
    if (rc) return rc;
    for (size_t i = 0; !rc && i < ncases; ++i)
        rc = check_memory(&job, &cases[i]);
    if (!rc && job.tile &&
        tsl_context_set_option(job.s.ctx, "transpose", "tile", (long)job.tile) != TSL_OK)
        rc = cli_error(CLI_EXIT_USAGE, "transpose: --tile %zu: %s", job.tile,
                       tsl_context_error(job.s.ctx));
    if (!rc && job.wg_rows &&
        tsl_context_set_option(job.s.ctx, "transpose", "wg_rows", (long)job.wg_rows) != TSL_OK)
        rc = cli_error(CLI_EXIT_USAGE, "transpose: --wg-rows %zu: %s", job.wg_rows,
                       tsl_context_error(job.s.ctx));
    if (!rc && job.group_tiles &&
        tsl_context_set_option(job.s.ctx, "transpose", "group_tiles", (long)job.group_tiles) !=
            TSL_OK)
        rc = cli_error(CLI_EXIT_USAGE, "transpose: --group-tiles %zu: %s", job.group_tiles,
                       tsl_context_error(job.s.ctx));
    if (!rc && tsl_context_set_option(job.s.ctx, "transpose", "inner_reps",
                                      (long)job.inner_reps) != TSL_OK)
        rc = cli_error(CLI_EXIT_USAGE, "transpose: --inner-reps %zu: %s", job.inner_reps,
                       tsl_context_error(job.s.ctx));
    if (!rc) rc = cli_variants_check(&job.vs, &job.s, "transpose");
    if (rc) return cli_session_abort(&job.s, rc);
    char tile[40] = ", default tile";
    if (job.tile) snprintf(tile, sizeof tile, ", tile %zu", job.tile);
    snprintf(job.s.title, sizeof job.s.title,
             "transpose on %s (%d:%d, %s), %s precision, inner reps %zu%s", job.s.dev.name,
             job.s.dev.platform_index, job.s.dev.device_index, job.s.dev.platform,
             job.is_double ? "double" : "single", job.inner_reps, tile);
    for (size_t i = 0; i < ncases; ++i)
        run_case(&job, &cases[i], i, ncases);
    return cli_session_close(&job.s);
}
