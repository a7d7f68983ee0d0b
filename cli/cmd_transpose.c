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
#include "output.h"
#include "peer_transpose.h"
#include "tessel.h"

#define MAX_VARIANTS 16
#define MAX_RUNS 1000000u
#define MAX_INNER_REPS 1000000u

typedef struct {
    const char *device, *variant, *precision, *csv, *json;
    cli_size_list sizes;
    size_t size, rows, cols, repeat, seed, tile, inner_reps;
    unsigned warmup;
    int verify, quiet, help, copy;
    cli_name_list peer_names;
    int is_double;
    size_t es;
    const char *peers[CLI_MAX_LIST];
    int peer_noted[CLI_MAX_LIST];
    size_t npeers;
    const char *variants[MAX_VARIANTS];
    size_t nvariants;
    int variant_ok[MAX_VARIANTS];
    double check_build_ms[MAX_VARIANTS];
    const char *auto_resolved;
    tsl_context *ctx;
    tsl_device_info dev;
    cli_report *rep;
    int any_error, any_failed;
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
    cli_row_init(row);
    row->op = "transpose";
    row->variant = variant;
    row->precision = job->is_double ? "double" : "single";
    row->m = (long long)c->rows, row->n = (long long)c->cols;
    row->device = job->dev.name;
    row->repeat = (long long)job->repeat;
    row->status = "error";
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
        job->any_failed = 1;
    }
}

static void row_error(tr_job *job, const tr_case *c, const char *variant, const char *what)
{
    cli_error(CLI_EXIT_RUNTIME, "transpose %s at %zux%zu: %s", variant, c->rows, c->cols, what);
    job->any_error = 1;
}

static tsl_status call(tr_job *job, const tr_case *c, const tr_data *d, int copy)
{
    if (copy) return tsl_copy_buf(job->ctx, d->da, d->db, c->elems * job->es);
    if (job->is_double)
        return tsl_dtranspose_buf(job->ctx, c->rows, c->cols, d->da, c->cols, d->db, c->rows);
    return tsl_stranspose_buf(job->ctx, c->rows, c->cols, d->da, c->cols, d->db, c->rows);
}

static void run_variant(tr_job *job, const tr_case *c, tr_data *d, size_t vi)
{
    const char *v = job->variants[vi];
    int copy = strcmp(v, "copy") == 0;
    cli_row row;
    set_common(job, c, v, &row);
    if (strcmp(v, "auto") == 0 && job->auto_resolved) row.resolved = job->auto_resolved;
    if (!job->variant_ok[vi]) {
        row.status = "skipped";
        cli_report_row(job->rep, &row);
        return;
    }
    size_t bytes = c->elems * job->es;
    tsl_status st = copy ? TSL_OK : tsl_context_set_variant(job->ctx, "transpose", v);
    cli_fill_nan(job->is_double, d->out, c->elems);
    if (st == TSL_OK) st = tsl_buffer_write(job->ctx, d->db, 0, bytes, d->out);
    tsl_timing t = {0, 0, 0, 0};
    unsigned runs = job->warmup + (unsigned)job->repeat;
    for (unsigned r = 0; st == TSL_OK && r < runs; ++r) {
        st = call(job, c, d, copy);
        if (st == TSL_OK) st = tsl_context_timing(job->ctx, &t);
        if (st != TSL_OK) break;
        if (r == 0) row.build_ms = job->check_build_ms[vi] + t.build_ms;
        if (r >= job->warmup) d->times[r - job->warmup] = t.kernel_ms;
    }
    if (st == TSL_OK) {
        st = tsl_buffer_read(job->ctx, d->db, 0, bytes, d->out);
        if (st == TSL_OK && tsl_context_timing(job->ctx, &t) == TSL_OK)
            row.download_ms = t.download_ms;
    }
    if (st == TSL_ERR_UNSUPPORTED && strcmp(job->variant, "all") == 0) {
        cli_note("variant %s skipped: %s", v, tsl_context_error(job->ctx));
        row.status = "skipped";
        cli_report_row(job->rep, &row);
        return;
    }
    if (st != TSL_OK) {
        char msg[1200];
        snprintf(msg, sizeof msg, "%s (%s)", tsl_context_error(job->ctx), tsl_status_name(st));
        row_error(job, c, v, msg);
        cli_report_row(job->rep, &row);
        return;
    }
    set_speed(job, c, cli_median(d->times, job->repeat), copy ? 1 : job->inner_reps, &row);
    row.upload_ms = d->upload_ms;
    if (copy) {
        row.status = "ok";
        if (job->verify) {
            row.max_rel_err = memcmp(d->a, d->out, bytes) == 0 ? 0.0 : 1.0;
            if (row.max_rel_err != 0.0) row.status = "verify_failed", job->any_failed = 1;
        }
    } else {
        set_verdict(job, c, d->a, d->out, &row);
    }
    cli_report_row(job->rep, &row);
}

static void run_peer(tr_job *job, const tr_case *c, tr_data *d, size_t pi)
{
    cli_row row;
    set_common(job, c, job->peers[pi], &row);
    tsl_peer_transpose_args args = {job->ctx, job->is_double, c->rows,
                                    c->cols,  d->a,           c->cols,
                                    c->rows,  job->warmup,    (unsigned)job->repeat};
    tsl_peer_result res;
    res.run_ms = d->times;
    res.c = d->out;
    cli_fill_nan(job->is_double, d->out, c->elems);
    tsl_peer_transpose(job->peers[pi], &args, &res);
    if (res.device[0]) row.device = res.device;
    if (res.status == TSL_PEER_SKIPPED) {
        if (!job->peer_noted[pi]) cli_note("peer %s skipped: %s", job->peers[pi], res.reason);
        job->peer_noted[pi] = 1;
        row.status = "skipped";
    } else if (res.status == TSL_PEER_ERROR) {
        row_error(job, c, job->peers[pi], res.reason);
    } else {
        set_speed(job, c, cli_median(d->times, job->repeat), 1, &row);
        row.build_ms = res.build_ms;
        row.upload_ms = res.upload_ms;
        row.download_ms = res.download_ms;
        set_verdict(job, c, d->a, d->out, &row);
    }
    cli_report_row(job->rep, &row);
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
    d.times = malloc(job->repeat * sizeof *d.times);
    char msg[1200] = "";
    tsl_status st = TSL_OK;
    if (!d.a || !d.out || !d.times) {
        snprintf(msg, sizeof msg, "out of host memory for the matrices");
    } else {
        unsigned long long state = job->seed + 0x9E3779B97F4A7C15ull * (index + 1);
        cli_fill_random(job->is_double, d.a, c->elems, &state);
        tsl_timing t;
        if ((st = tsl_buffer_create(job->ctx, bytes, &d.da)) == TSL_OK &&
            (st = tsl_buffer_create(job->ctx, bytes, &d.db)) == TSL_OK &&
            (st = tsl_buffer_write(job->ctx, d.da, 0, bytes, d.a)) == TSL_OK &&
            tsl_context_timing(job->ctx, &t) == TSL_OK)
            d.upload_ms = t.upload_ms;
        if (st != TSL_OK)
            snprintf(msg, sizeof msg, "device buffers: %s (%s)", tsl_context_error(job->ctx),
                     tsl_status_name(st));
    }
    if (msg[0]) { /* every row of this shape is an error row */
        cli_error(CLI_EXIT_RUNTIME, "transpose at %zux%zu: %s", c->rows, c->cols, msg);
        job->any_error = 1;
        cli_row row;
        for (size_t i = 0; i < job->nvariants + job->npeers; ++i) {
            set_common(job, c,
                       i < job->nvariants ? job->variants[i] : job->peers[i - job->nvariants],
                       &row);
            cli_report_row(job->rep, &row);
        }
        free_data(&d);
        return;
    }
    for (size_t i = 0; i < job->nvariants; ++i) {
        cli_progress("transpose %zu/%zu %zux%zu: %s", index + 1, total, c->rows, c->cols,
                     job->variants[i]);
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

static void variant_names(char *buf, size_t cap)
{
    snprintf(buf, cap, "auto");
    for (size_t i = 0; tsl_variant_name("transpose", i); ++i) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, ", %s", tsl_variant_name("transpose", i));
    }
}

static int is_variant(const char *name)
{
    for (size_t i = 0; tsl_variant_name("transpose", i); ++i)
        if (strcmp(tsl_variant_name("transpose", i), name) == 0) return 1;
    return 0;
}

static void add_variant(tr_job *job, const char *name)
{
    for (size_t i = 0; i < job->nvariants; ++i)
        if (strcmp(job->variants[i], name) == 0) return;
    if (job->nvariants < MAX_VARIANTS) job->variants[job->nvariants++] = name;
}

static int check_options(tr_job *job)
{
    if (strcmp(job->precision, "single") == 0)
        job->is_double = 0;
    else if (strcmp(job->precision, "double") == 0)
        job->is_double = 1;
    else
        return cli_error(CLI_EXIT_USAGE,
                         "transpose: --precision expects single or double, got '%s'",
                         job->precision);
    job->es = job->is_double ? sizeof(double) : sizeof(float);
    if (job->repeat > MAX_RUNS || job->warmup > MAX_RUNS)
        return cli_error(CLI_EXIT_USAGE, "transpose: --repeat and --warmup go up to %u", MAX_RUNS);
    if (job->tile && (job->tile < 4 || job->tile > 32))
        return cli_error(CLI_EXIT_USAGE, "transpose: --tile expects 4..32, got %zu", job->tile);
    if (job->inner_reps > MAX_INNER_REPS)
        return cli_error(CLI_EXIT_USAGE, "transpose: --inner-reps goes up to %u", MAX_INNER_REPS);
    if (job->copy) add_variant(job, "copy"); /* the reference first */
    if (strcmp(job->variant, "all") == 0) {
        for (size_t i = 0; tsl_variant_name("transpose", i); ++i)
            add_variant(job, tsl_variant_name("transpose", i));
    } else if (strcmp(job->variant, "auto") == 0 || is_variant(job->variant)) {
        add_variant(job, job->variant);
    } else {
        char names[512];
        variant_names(names, sizeof names);
        return cli_error(CLI_EXIT_USAGE,
                         "transpose: unknown variant '%s' (variants: %s; or all, list)",
                         job->variant, names);
    }
    for (size_t i = 0; i < job->peer_names.n; ++i) {
        const char *p = NULL;
        for (size_t j = 0; tsl_peer_transpose_name(j); ++j)
            if (strcmp(tsl_peer_transpose_name(j), job->peer_names.v[i]) == 0)
                p = tsl_peer_transpose_name(j);
        if (!p) {
            char names[256] = "";
            for (size_t j = 0; tsl_peer_transpose_name(j); ++j) {
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", j ? ", " : "",
                         tsl_peer_transpose_name(j));
            }
            return cli_error(CLI_EXIT_USAGE, "transpose: unknown peer '%s' (peers: %s)",
                             job->peer_names.v[i], names);
        }
        int dup = 0;
        for (size_t j = 0; j < job->npeers; ++j)
            dup |= job->peers[j] == p;
        if (!dup) job->peers[job->npeers++] = p;
    }
    if (job->size && job->sizes.n)
        return cli_error(CLI_EXIT_USAGE, "transpose: give --size or --sizes, not both");
    if (job->sizes.n == 0) {
        job->sizes.n = 1;
        job->sizes.v[0] = job->size ? job->size : 1024;
    }
    return 0;
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
    if (bytes > job->dev.max_alloc)
        return cli_error(CLI_EXIT_USAGE,
                         "transpose: a %zu x %zu matrix needs %llu bytes, more than the largest "
                         "buffer %s allows (max_alloc %llu bytes); use a smaller size",
                         c->rows, c->cols, bytes, job->dev.name, job->dev.max_alloc);
    if (2.0L * bytes > (long double)job->dev.global_mem)
        return cli_error(CLI_EXIT_USAGE,
                         "transpose: A and B of %zu x %zu need %.0Lf bytes, more than the global "
                         "memory of %s (%llu bytes); use a smaller size",
                         c->rows, c->cols, 2.0L * bytes, job->dev.name, job->dev.global_mem);
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
    char names[512];
    variant_names(names, sizeof names);
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
    cli_print_options(stdout, opts, nopts);
    printf("\nVariants:\n  ");
    cli_print_wrapped(stdout, names, 2);
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
    job.repeat = 10;
    job.warmup = 2;
    job.seed = 42;
    job.inner_reps = 1;
    const cli_option opts[] = {
        {"--device", NULL, CLI_STRING, &job.device, "SPEC",
         "device: P:D from 'tessel devices', or part of a name (default: $TESSEL_DEVICE, else "
         "the first GPU, else the first device)"},
        {"--variant", NULL, CLI_STRING, &job.variant, "NAME",
         "a variant, 'all' (every variant), or 'list' (print the names); default auto"},
        {"--precision", NULL, CLI_STRING, &job.precision, "P", "single or double; default single"},
        {"--size", NULL, CLI_COUNT, &job.size, "N", "square N x N matrix; default 1024"},
        {"--sizes", NULL, CLI_SIZE_LIST, &job.sizes, "A,B,...", "several square sizes, in turn"},
        {"--rows", NULL, CLI_COUNT, &job.rows, "R", "rows of A (overrides --size for rows)"},
        {"--cols", NULL, CLI_COUNT, &job.cols, "C", "columns of A (overrides --size for cols)"},
        {"--tile", NULL, CLI_COUNT, &job.tile, "T",
         "tile edge, 4..32 (default: the best known for the device)"},
        {"--inner-reps", NULL, CLI_COUNT, &job.inner_reps, "R",
         "the kernel body runs R times per launch (001's loop); default 1"},
        {"--repeat", NULL, CLI_COUNT, &job.repeat, "R", "timed runs, median reported; default 10"},
        {"--warmup", NULL, CLI_UINT, &job.warmup, "W", "untimed runs first; default 2"},
        {"--verify", NULL, CLI_FLAG, &job.verify, NULL,
         "check every result against a host transpose (exit 1 if one fails)"},
        {"--copy", NULL, CLI_FLAG, &job.copy, NULL,
         "add the copy row: the same bytes through tsl_copy_buf, the bandwidth reference"},
        {"--seed", NULL, CLI_COUNT, &job.seed, "S", "random data seed, >= 1; default 42"},
        {"--peers", NULL, CLI_NAME_LIST, &job.peer_names, "P,Q",
         "also run these peers on the same data: clblast, openblas"},
        {"--csv", NULL, CLI_STRING, &job.csv, "PATH|-", "write CSV to a file, or '-' for stdout"},
        {"--json", NULL, CLI_STRING, &job.json, "PATH|-",
         "write JSON to a file, or '-' for stdout"},
        {"--quiet", NULL, CLI_FLAG, &job.quiet, NULL, "no table on stdout"},
        {"--help", "-h", CLI_FLAG, &job.help, NULL, "this help"},
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    if (cli_wants_help(argc, argv)) {
        print_help(opts, nopts);
        return CLI_EXIT_OK;
    }
    int rc = cli_parse("transpose", argc, argv, opts, nopts);
    if (rc) return rc;
    if (strcmp(job.variant, "list") == 0) {
        for (size_t i = 0; tsl_variant_name("transpose", i); ++i)
            printf("%s\n", tsl_variant_name("transpose", i));
        return CLI_EXIT_OK;
    }
    if ((rc = check_options(&job))) return rc;
    tr_case cases[CLI_MAX_LIST];
    size_t ncases = job.sizes.n;
    for (size_t i = 0; i < ncases; ++i)
        if ((rc = make_case(&job, job.sizes.v[i], &cases[i]))) return rc;

    char command_line[2048], title[512] = "";
    cli_command_line(cli_argc, cli_argv, command_line, sizeof command_line);
    cli_report_opts ro = {
        job.csv,   job.json,
        job.quiet, "variant,precision,m,n,kernel_ms,gbps,build_ms,max_rel_err,status,device",
        title,     command_line};
    job.rep = cli_report_open(&ro, &rc);
    if (!job.rep) return rc;
    tsl_status st = tsl_context_create(job.device, &job.ctx);
    if (st != TSL_OK) {
        cli_report_close(job.rep, 0);
        return cli_device_error(st, job.device);
    }
    rc = 0;
    if ((st = tsl_context_device(job.ctx, &job.dev)) != TSL_OK)
        rc = cli_error(CLI_EXIT_RUNTIME, "cannot query the device: %s (%s)",
                       tsl_context_error(job.ctx), tsl_status_name(st));
    else if (job.is_double && !job.dev.fp64)
        rc = cli_error(CLI_EXIT_RUNTIME,
                       "device %s (%d:%d) has no double precision (cl_khr_fp64): use --precision "
                       "single or another --device",
                       job.dev.name, job.dev.platform_index, job.dev.device_index);
    for (size_t i = 0; !rc && i < ncases; ++i)
        rc = check_memory(&job, &cases[i]);
    if (!rc && job.tile &&
        (st = tsl_context_set_option(job.ctx, "transpose", "tile", (long)job.tile)) != TSL_OK)
        rc = cli_error(CLI_EXIT_USAGE, "transpose: --tile %zu: %s", job.tile,
                       tsl_context_error(job.ctx));
    if (!rc && (st = tsl_context_set_option(job.ctx, "transpose", "inner_reps",
                                            (long)job.inner_reps)) != TSL_OK)
        rc = cli_error(CLI_EXIT_USAGE, "transpose: --inner-reps %zu: %s", job.inner_reps,
                       tsl_context_error(job.ctx));
    for (size_t i = 0; !rc && i < job.nvariants; ++i) {
        const char *resolved = NULL;
        st = tsl_variant_check(job.ctx, "transpose", job.variants[i], &resolved);
        job.variant_ok[i] = st == TSL_OK;
        tsl_timing ct;
        job.check_build_ms[i] = tsl_context_timing(job.ctx, &ct) == TSL_OK ? ct.build_ms : 0.0;
        if (st == TSL_OK && strcmp(job.variants[i], "auto") == 0) job.auto_resolved = resolved;
        if (st == TSL_OK) continue;
        if (strcmp(job.variant, "all") == 0 && st == TSL_ERR_UNSUPPORTED)
            cli_note("variant %s skipped: %s", job.variants[i], tsl_context_error(job.ctx));
        else
            rc = cli_error(CLI_EXIT_RUNTIME, "transpose: variant %s cannot run on %s: %s (%s)",
                           job.variants[i], job.dev.name, tsl_context_error(job.ctx),
                           tsl_status_name(st));
    }
    if (rc) {
        cli_report_close(job.rep, 0);
        tsl_context_destroy(job.ctx);
        return rc;
    }
    char tile[40] = ", default tile";
    if (job.tile) snprintf(tile, sizeof tile, ", tile %zu", job.tile);
    snprintf(title, sizeof title, "transpose on %s (%d:%d, %s), %s precision, inner reps %zu%s",
             job.dev.name, job.dev.platform_index, job.dev.device_index, job.dev.platform,
             job.is_double ? "double" : "single", job.inner_reps, tile);
    for (size_t i = 0; i < ncases; ++i)
        run_case(&job, &cases[i], i, ncases);
    cli_progress_clear();
    rc = cli_report_close(job.rep, 1);
    tsl_context_destroy(job.ctx);
    if (rc || job.any_error) return CLI_EXIT_RUNTIME;
    return job.any_failed ? CLI_EXIT_VERIFY : CLI_EXIT_OK;
}
