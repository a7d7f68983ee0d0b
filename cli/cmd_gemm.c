/* cmd_gemm.c: `tessel gemm`, which runs GEMM variants and peers on one device, on the same random
 * data, and reports one row per variant (or peer) and size: median kernel time, GFLOP/s, build,
 * upload and download times, and with --verify the relative error against the CPU reference.
 *
 * How a row is measured: A and B are uploaded once per size into device buffers; a variant runs
 * `warmup` untimed and `repeat` timed calls of tsl_[sd]gemm_buf, and kernel_ms is the median of
 * the per-call kernel times of tsl_context_timing (profiling events). build_ms is the build time
 * of the variant's first call (0 when the kernel came from the in-process or on-disk cache);
 * upload_ms is the event time of the tsl_buffer_write of A and B, download_ms that of the
 * tsl_buffer_read of C after the timed runs. With beta == 0, C starts as NaN so that an element a
 * kernel forgets to write fails --verify; with beta != 0 it is rewritten before every call so
 * every call computes the same thing. Peers get the same A, B and C (see bench/peers/peers.h). */
#define _DEFAULT_SOURCE /* sysconf(_SC_PHYS_PAGES) */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "output.h"
#include "common.h"
#include "peers.h"
#include "ref/ref.h"
#include "tessel.h"

#define MAX_VARIANTS 64
#define MAX_RUNS 1000000u

typedef struct {
    /* options */
    const char *device, *variant, *precision, *layout, *transa, *transb, *csv, *json;
    cli_size_list sizes;
    size_t size, m, n, k, repeat, seed;
    unsigned warmup;
    double alpha, beta, tolerance;
    int verify, quiet, help;
    cli_name_list peer_names;
    /* resolved */
    int is_double;
    size_t es; /* element size */
    tsl_layout lay;
    tsl_trans ta, tb;
    const tsl_peer *peers[CLI_MAX_LIST];
    int peer_noted[CLI_MAX_LIST]; /* its skip reason is on stderr already */
    size_t npeers;
    const char *variants[MAX_VARIANTS];
    size_t nvariants;
    int variant_ok[MAX_VARIANTS];
    double check_build_ms[MAX_VARIANTS]; /* kernels tsl_variant_check built for the variant */
    const char *auto_resolved;
    tsl_context *ctx;
    tsl_device_info dev;
    cli_report *rep;
    int any_error, any_failed;
} gemm_job;

typedef struct {
    size_t m, n, k, lda, ldb, ldc, ea, eb, ec; /* sizes, leading dimensions, element counts */
} gemm_case;

/* ---- parsing and checks ---------------------------------------------------------------------- */

static int parse_trans(const char *s, tsl_trans *out)
{
    if (strcmp(s, "n") == 0 || strcmp(s, "N") == 0) return *out = TSL_NO_TRANS, 0;
    if (strcmp(s, "t") == 0 || strcmp(s, "T") == 0) return *out = TSL_TRANS, 0;
    return -1;
}

static void variant_names(char *buf, size_t cap)
{
    buf[0] = '\0';
    snprintf(buf, cap, "auto");
    for (size_t i = 0; tsl_variant_name("gemm", i); ++i) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, ", %s", tsl_variant_name("gemm", i));
    }
}

static int is_variant(const char *name)
{
    for (size_t i = 0; tsl_variant_name("gemm", i); ++i)
        if (strcmp(tsl_variant_name("gemm", i), name) == 0) return 1;
    return 0;
}

/* The CBLAS tight leading dimension of a rows x cols (after op) matrix. */
static size_t tight_ld(tsl_layout layout, tsl_trans t, size_t rows, size_t cols)
{
    size_t srows = t == TSL_TRANS ? cols : rows, scols = t == TSL_TRANS ? rows : cols;
    size_t len = layout == TSL_COL_MAJOR ? srows : scols;
    return len ? len : 1;
}

/* Fills the case's leading dimensions and element counts; usage error when a byte count
 * overflows size_t. */
static int make_case(const gemm_job *job, size_t m, size_t n, size_t k, gemm_case *c)
{
    c->m = m, c->n = n, c->k = k;
    c->lda = tight_ld(job->lay, job->ta, m, k);
    c->ldb = tight_ld(job->lay, job->tb, k, n);
    c->ldc = tight_ld(job->lay, TSL_NO_TRANS, m, n);
    const char *names[3] = {"A", "B", "C"};
    size_t rows[3] = {m, k, m}, cols[3] = {k, n, n};
    size_t *elems[3] = {&c->ea, &c->eb, &c->ec};
    size_t lds[3] = {c->lda, c->ldb, c->ldc};
    tsl_trans tr[3] = {job->ta, job->tb, TSL_NO_TRANS};
    for (int i = 0; i < 3; ++i)
        if (tsl_peer_matrix_elems(job->lay, tr[i], rows[i], cols[i], lds[i], elems[i]) != 0 ||
            *elems[i] > SIZE_MAX / job->es)
            return cli_error(CLI_EXIT_USAGE,
                             "gemm: matrix %s of %zu x %zu values needs more bytes than a size_t "
                             "can count; use a smaller size",
                             names[i], rows[i], cols[i]);
    return 0;
}

/* Each matrix is one device buffer: it must fit the device's largest allocation, and the three
 * together its global memory. The host keeps A, B, C and the returned C (and with --verify
 * double copies of A, B and C): that must fit the machine's memory, or the process would be
 * killed instead of getting an error. */
static int check_memory(const gemm_job *job, const gemm_case *c)
{
    const char *names[3] = {"A", "B", "C"};
    size_t rows[3] = {c->m, c->k, c->m}, cols[3] = {c->k, c->n, c->n};
    size_t elems[3] = {c->ea, c->eb, c->ec};
    for (int i = 0; i < 3; ++i) {
        unsigned long long bytes = (unsigned long long)elems[i] * job->es;
        if (bytes > job->dev.max_alloc)
            return cli_error(CLI_EXIT_USAGE,
                             "gemm: matrix %s (%zu x %zu %s) needs %llu bytes, more than the "
                             "largest buffer %s allows (max_alloc %llu bytes); use a smaller size",
                             names[i], rows[i], cols[i], job->is_double ? "doubles" : "floats",
                             bytes, job->dev.name, job->dev.max_alloc);
    }
    /* Each count fits size_t (make_case); sums are done in long double to stay exact enough. */
    long double dev_bytes = ((long double)c->ea + c->eb + c->ec) * job->es;
    if (dev_bytes > (long double)job->dev.global_mem)
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: A, B and C of %zux%zux%zu need %.0Lf bytes together, more than "
                         "the global memory of %s (%llu bytes); use a smaller size",
                         c->m, c->n, c->k, dev_bytes, job->dev.name, job->dev.global_mem);
    long double host = ((long double)c->ea + c->eb + 2.0L * c->ec) * job->es;
    if (job->verify) host += ((long double)c->ea + c->eb + c->ec) * sizeof(double);
    long double phys = cli_host_memory();
    if (phys > 0 && host > phys)
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: %zux%zux%zu needs %.0Lf bytes of host memory%s, more than this "
                         "machine has (%.0Lf bytes); use a smaller size",
                         c->m, c->n, c->k, host, job->verify ? " with --verify" : "", phys);
    return 0;
}

/* ---- measuring ------------------------------------------------------------------------------- */

static void set_common(const gemm_job *job, const gemm_case *c, cli_row *row)
{
    cli_row_init(row);
    row->op = "gemm";
    row->precision = job->is_double ? "double" : "single";
    row->m = (long long)c->m, row->n = (long long)c->n, row->k = (long long)c->k;
    row->device = job->dev.name;
    row->repeat = (long long)job->repeat;
}

static void set_speed(const gemm_case *c, double ms, cli_row *row)
{
    row->kernel_ms = ms;
    if (ms > 0) row->gflops = 2.0 * (double)c->m * (double)c->n * (double)c->k / (ms * 1e6);
}

/* With --verify: max_rel_err and status against the reference; otherwise status ok. */
static void set_verdict(gemm_job *job, const gemm_case *c, const void *out, const double *ref,
                        cli_row *row)
{
    row->status = "ok";
    if (!ref) return;
    size_t rows = job->lay == TSL_COL_MAJOR ? c->n : c->m;
    size_t cols = job->lay == TSL_COL_MAJOR ? c->m : c->n;
    double err = job->is_double ? tsl_ref_rel_err_d(rows, cols, out, c->ldc, ref, c->ldc)
                                : tsl_ref_rel_err_f(rows, cols, out, c->ldc, ref, c->ldc);
    double tol =
        isnan(job->tolerance) ? tsl_ref_gemm_tolerance(job->is_double, c->k) : job->tolerance;
    row->max_rel_err = err;
    if (!(err <= tol)) { /* NaN fails too */
        row->status = "verify_failed";
        job->any_failed = 1;
    }
}

static tsl_status call_gemm(gemm_job *job, const gemm_case *c, tsl_buffer *a, tsl_buffer *b,
                            tsl_buffer *cb)
{
    if (job->is_double)
        return tsl_dgemm_buf(job->ctx, job->lay, job->ta, job->tb, c->m, c->n, c->k, job->alpha, a,
                             c->lda, b, c->ldb, job->beta, cb, c->ldc);
    return tsl_sgemm_buf(job->ctx, job->lay, job->ta, job->tb, c->m, c->n, c->k, (float)job->alpha,
                         a, c->lda, b, c->ldb, (float)job->beta, cb, c->ldc);
}

/* The host data of one size. */
typedef struct {
    void *a, *b, *c0, *out; /* out: C as the device starts it, then as it comes back */
    double *ref;            /* reference C (with --verify) */
    double *times;
    tsl_buffer *da, *db, *dc;
    double upload_ms;
} case_data;

static void row_error(gemm_job *job, const gemm_case *c, const char *variant, const char *what)
{
    cli_error(CLI_EXIT_RUNTIME, "gemm %s at %zux%zux%zu: %s", variant, c->m, c->n, c->k, what);
    job->any_error = 1;
}

static void run_variant(gemm_job *job, const gemm_case *c, case_data *d, size_t vi)
{
    const char *v = job->variants[vi];
    cli_row row;
    set_common(job, c, &row);
    row.variant = v;
    if (strcmp(v, "auto") == 0 && job->auto_resolved) row.resolved = job->auto_resolved;
    if (!job->variant_ok[vi]) {
        row.status = "skipped";
        cli_report_row(job->rep, &row);
        return;
    }
    row.status = "error";
    char msg[1200];
    tsl_status st = tsl_context_set_variant(job->ctx, "gemm", v);
    /* C before the first call: NaN when beta == 0 (a forgotten element fails --verify). */
    if (job->beta == 0.0)
        cli_fill_nan(job->is_double, d->out, c->ec);
    else
        memcpy(d->out, d->c0, c->ec * job->es);
    if (st == TSL_OK && c->ec) st = tsl_buffer_write(job->ctx, d->dc, 0, c->ec * job->es, d->out);
    tsl_timing t = {0, 0, 0, 0};
    unsigned runs = job->warmup + (unsigned)job->repeat;
    for (unsigned r = 0; st == TSL_OK && r < runs; ++r) {
        if (r > 0 && job->beta != 0.0 && c->ec)
            st = tsl_buffer_write(job->ctx, d->dc, 0, c->ec * job->es, d->c0);
        if (st == TSL_OK) st = call_gemm(job, c, d->da, d->db, d->dc);
        if (st == TSL_OK) st = tsl_context_timing(job->ctx, &t);
        if (st != TSL_OK) break;
        if (r == 0) row.build_ms = job->check_build_ms[vi] + t.build_ms;
        if (r >= job->warmup) d->times[r - job->warmup] = t.kernel_ms;
    }
    if (st == TSL_OK && c->ec) {
        st = tsl_buffer_read(job->ctx, d->dc, 0, c->ec * job->es, d->out);
        if (st == TSL_OK && tsl_context_timing(job->ctx, &t) == TSL_OK)
            row.download_ms = t.download_ms;
    }
    if (st == TSL_ERR_UNSUPPORTED && strcmp(job->variant, "all") == 0) {
        /* The device compiled the kernel but cannot run it here (e.g. its registers allow a
         * smaller work-group than the variant needs): under --variant all that is a skip. */
        cli_note("variant %s skipped: %s", v, tsl_context_error(job->ctx));
        row.status = "skipped";
        cli_report_row(job->rep, &row);
        return;
    }
    if (st != TSL_OK) {
        snprintf(msg, sizeof msg, "%s (%s)", tsl_context_error(job->ctx), tsl_status_name(st));
        row_error(job, c, v, msg);
        cli_report_row(job->rep, &row);
        return;
    }
    set_speed(c, cli_median(d->times, job->repeat), &row);
    row.upload_ms = d->upload_ms;
    set_verdict(job, c, d->out, d->ref, &row);
    cli_report_row(job->rep, &row);
}

static void run_peer(gemm_job *job, const gemm_case *c, case_data *d, size_t pi)
{
    const tsl_peer *p = job->peers[pi];
    cli_row row;
    set_common(job, c, &row);
    row.variant = p->name;
    tsl_peer_gemm_args args = {.ctx = job->ctx,
                               .is_double = job->is_double,
                               .layout = job->lay,
                               .transa = job->ta,
                               .transb = job->tb,
                               .m = c->m,
                               .n = c->n,
                               .k = c->k,
                               .alpha = job->alpha,
                               .beta = job->beta,
                               .a = d->a,
                               .lda = c->lda,
                               .b = d->b,
                               .ldb = c->ldb,
                               .c = d->c0,
                               .ldc = c->ldc,
                               .warmup = job->warmup,
                               .repeat = (unsigned)job->repeat};
    tsl_peer_result res;
    res.run_ms = d->times;
    res.c = d->out;
    tsl_peer_gemm(p, &args, &res);
    if (res.device[0]) row.device = res.device;
    if (res.status == TSL_PEER_SKIPPED) {
        if (!job->peer_noted[pi]) cli_note("peer %s skipped: %s", p->name, res.reason);
        job->peer_noted[pi] = 1;
        row.status = "skipped";
    } else if (res.status == TSL_PEER_ERROR) {
        row_error(job, c, p->name, res.reason);
        row.status = "error";
    } else {
        set_speed(c, cli_median(d->times, job->repeat), &row);
        row.build_ms = res.build_ms;
        row.upload_ms = res.upload_ms;
        row.download_ms = res.download_ms;
        set_verdict(job, c, d->out, d->ref, &row);
    }
    cli_report_row(job->rep, &row);
}

static void free_case(case_data *d)
{
    tsl_buffer_destroy(d->da);
    tsl_buffer_destroy(d->db);
    tsl_buffer_destroy(d->dc);
    d->da = d->db = d->dc = NULL;
    free(d->a);
    free(d->b);
    free(d->c0);
    free(d->out);
    free(d->ref);
    free(d->times);
}

/* Every row of a size that could not be set up, as error rows. */
static void case_failed(gemm_job *job, const gemm_case *c, const char *what)
{
    cli_error(CLI_EXIT_RUNTIME, "gemm at %zux%zux%zu: %s", c->m, c->n, c->k, what);
    job->any_error = 1;
    cli_row row;
    set_common(job, c, &row);
    row.status = "error";
    for (size_t i = 0; i < job->nvariants; ++i) {
        row.variant = job->variants[i];
        cli_report_row(job->rep, &row);
    }
    for (size_t i = 0; i < job->npeers; ++i) {
        row.variant = job->peers[i]->name;
        cli_report_row(job->rep, &row);
    }
}

static void run_case(gemm_job *job, const gemm_case *c, size_t index, size_t total)
{
    case_data d;
    memset(&d, 0, sizeof d);
    size_t es = job->es;
    d.a = malloc(c->ea ? c->ea * es : es);
    d.b = malloc(c->eb ? c->eb * es : es);
    d.c0 = malloc(c->ec ? c->ec * es : es);
    d.out = malloc(c->ec ? c->ec * es : es);
    d.times = malloc(job->repeat * sizeof *d.times);
    if (!d.a || !d.b || !d.c0 || !d.out || !d.times) {
        case_failed(job, c, "out of host memory for the matrices");
        free_case(&d);
        return;
    }
    /* Fresh random data per size, reproducible from --seed. */
    unsigned long long state = job->seed + 0x9E3779B97F4A7C15ull * (index + 1);
    cli_fill_random(job->is_double, d.a, c->ea, &state);
    cli_fill_random(job->is_double, d.b, c->eb, &state);
    cli_fill_random(job->is_double, d.c0, c->ec, &state);

    if (job->verify) {
        double *ad = cli_to_double(job->is_double, d.a, c->ea), *bd = cli_to_double(job->is_double, d.b, c->eb);
        d.ref = cli_to_double(job->is_double, d.c0, c->ec);
        if (!ad || !bd || !d.ref) {
            free(ad);
            free(bd);
            case_failed(job, c, "out of host memory for the --verify reference");
            free_case(&d);
            return;
        }
        cli_progress("gemm %zux%zux%zu: CPU reference", c->m, c->n, c->k);
        tsl_ref_dgemm(job->lay, job->ta, job->tb, c->m, c->n, c->k, job->alpha, ad, c->lda, bd,
                      c->ldb, job->beta, d.ref, c->ldc);
        free(ad);
        free(bd);
    }

    if (job->nvariants) {
        tsl_status st;
        tsl_timing t;
        if ((st = tsl_buffer_create(job->ctx, c->ea ? c->ea * es : es, &d.da)) ||
            (st = tsl_buffer_create(job->ctx, c->eb ? c->eb * es : es, &d.db)) ||
            (st = tsl_buffer_create(job->ctx, c->ec ? c->ec * es : es, &d.dc))) {
            char msg[1200];
            snprintf(msg, sizeof msg, "device buffers: %s (%s)", tsl_context_error(job->ctx),
                     tsl_status_name(st));
            case_failed(job, c, msg);
            free_case(&d);
            return;
        }
        st = tsl_buffer_write(job->ctx, d.da, 0, c->ea * es, d.a);
        if (st == TSL_OK && tsl_context_timing(job->ctx, &t) == TSL_OK) d.upload_ms = t.upload_ms;
        if (st == TSL_OK) st = tsl_buffer_write(job->ctx, d.db, 0, c->eb * es, d.b);
        if (st == TSL_OK && tsl_context_timing(job->ctx, &t) == TSL_OK) d.upload_ms += t.upload_ms;
        if (st != TSL_OK) {
            char msg[1200];
            snprintf(msg, sizeof msg, "upload: %s (%s)", tsl_context_error(job->ctx),
                     tsl_status_name(st));
            case_failed(job, c, msg);
            free_case(&d);
            return;
        }
        for (size_t i = 0; i < job->nvariants; ++i) {
            cli_progress("gemm %zu/%zu %zux%zux%zu: %s", index + 1, total, c->m, c->n, c->k,
                         job->variants[i]);
            run_variant(job, c, &d, i);
        }
        /* Device memory back before the peers make their own buffers. */
        tsl_buffer_destroy(d.da);
        tsl_buffer_destroy(d.db);
        tsl_buffer_destroy(d.dc);
        d.da = d.db = d.dc = NULL;
    }
    for (size_t i = 0; i < job->npeers; ++i) {
        cli_progress("gemm %zu/%zu %zux%zux%zu: peer %s", index + 1, total, c->m, c->n, c->k,
                     job->peers[i]->name);
        run_peer(job, c, &d, i);
    }
    free_case(&d);
}

/* ---- the command ----------------------------------------------------------------------------- */

static void print_help(const cli_option *opts, size_t nopts)
{
    char names[1024];
    variant_names(names, sizeof names);
    printf("Usage: tessel gemm [options]\n\n"
           "Runs C = alpha op(A) op(B) + beta C (CBLAS semantics) on one OpenCL device for each\n"
           "size and variant, on random data, and prints one row per variant and size: median\n"
           "kernel time over --repeat runs (profiling events, after --warmup runs), GFLOP/s =\n"
           "2mnk / time, kernel build time, and with --verify the relative error\n"
           "||C - C_ref|| / ||C_ref|| against OpenBLAS in double precision (pass below 1e-5\n"
           "single / 1e-12 double, times max(1, sqrt(k/64))). Peers run on the same data and\n"
           "appear as rows named after them.\n\n"
           "Options:\n");
    cli_print_options(stdout, opts, nopts);
    printf("\nVariants:\n  ");
    cli_print_wrapped(stdout, names, 2);
    printf("Peers:\n");
    for (size_t i = 0; i < tsl_peer_count(); ++i)
        printf("  %-10s  %s\n", tsl_peer_at(i)->name, tsl_peer_at(i)->what);
    printf("\nOutput: an aligned table on stdout; --csv/--json write the columns\n  %s\n"
           "to a file (written whole, then renamed into place) or to stdout with '-' (then no\n"
           "table, and every message goes to stderr). status is ok, verify_failed, skipped or\n"
           "error; empty fields do not apply. A variant the device cannot run, or a peer that is\n"
           "not available, is a skipped row with the reason on stderr.\n\n"
           "Exit codes: 0 success, 1 a --verify check failed (all rows are still printed),\n"
           "2 usage error (unknown option, bad number, unknown variant or peer, matrix larger\n"
           "than the device's largest buffer), 3 runtime error (no matching device, no double\n"
           "precision on the device, build failure, out of memory).\n\n"
           "Examples:\n"
           "  tessel gemm --variant all --size 512 --verify --peers clblast,openblas\n"
           "  tessel gemm -m 4096 -n 128 -k 4096 --precision double --device 0:0\n"
           "  tessel gemm --sizes 256,512,1024 --variant tiled_16x16 --csv - > gemm.csv\n",
           cli_csv_header);
}

static int list_variants(void)
{
    for (size_t i = 0; tsl_variant_name("gemm", i); ++i)
        printf("%s\n", tsl_variant_name("gemm", i));
    return CLI_EXIT_OK;
}

/* Everything that can be checked before a device is opened. */
static int check_options(gemm_job *job)
{
    if (strcmp(job->precision, "single") == 0)
        job->is_double = 0;
    else if (strcmp(job->precision, "double") == 0)
        job->is_double = 1;
    else
        return cli_error(CLI_EXIT_USAGE, "gemm: --precision expects single or double, got '%s'",
                         job->precision);
    job->es = job->is_double ? sizeof(double) : sizeof(float);
    if (strcmp(job->layout, "row") == 0)
        job->lay = TSL_ROW_MAJOR;
    else if (strcmp(job->layout, "col") == 0)
        job->lay = TSL_COL_MAJOR;
    else
        return cli_error(CLI_EXIT_USAGE, "gemm: --layout expects row or col, got '%s'",
                         job->layout);
    if (parse_trans(job->transa, &job->ta) != 0)
        return cli_error(CLI_EXIT_USAGE, "gemm: --transa expects n or t, got '%s'", job->transa);
    if (parse_trans(job->transb, &job->tb) != 0)
        return cli_error(CLI_EXIT_USAGE, "gemm: --transb expects n or t, got '%s'", job->transb);
    if (job->repeat > MAX_RUNS || job->warmup > MAX_RUNS)
        return cli_error(CLI_EXIT_USAGE, "gemm: --repeat and --warmup go up to %u", MAX_RUNS);
    if (!isnan(job->tolerance) && job->tolerance < 0)
        return cli_error(CLI_EXIT_USAGE, "gemm: --tolerance must not be negative");

    if (strcmp(job->variant, "all") == 0) {
        for (size_t i = 0; tsl_variant_name("gemm", i) && job->nvariants < MAX_VARIANTS; ++i)
            job->variants[job->nvariants++] = tsl_variant_name("gemm", i);
    } else if (strcmp(job->variant, "auto") == 0 || is_variant(job->variant)) {
        job->variants[job->nvariants++] = job->variant;
    } else {
        char names[1024];
        variant_names(names, sizeof names);
        return cli_error(CLI_EXIT_USAGE, "gemm: unknown variant '%s' (variants: %s; or all, list)",
                         job->variant, names);
    }

    for (size_t i = 0; i < job->peer_names.n; ++i) {
        const tsl_peer *p = tsl_peer_find(job->peer_names.v[i]);
        if (!p) {
            char names[256] = "";
            for (size_t j = 0; j < tsl_peer_count(); ++j) {
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", j ? ", " : "",
                         tsl_peer_at(j)->name);
            }
            return cli_error(CLI_EXIT_USAGE, "gemm: unknown peer '%s' (peers: %s)",
                             job->peer_names.v[i], names);
        }
        int dup = 0;
        for (size_t j = 0; j < job->npeers; ++j)
            dup |= job->peers[j] == p;
        if (!dup) job->peers[job->npeers++] = p;
    }

    if (job->size && job->sizes.n)
        return cli_error(CLI_EXIT_USAGE, "gemm: give --size or --sizes, not both");
    if (job->sizes.n == 0) {
        job->sizes.n = 1;
        job->sizes.v[0] = job->size ? job->size : 1024;
    }
    return 0;
}

int cli_cmd_gemm(int argc, char **argv)
{
    gemm_job job;
    memset(&job, 0, sizeof job);
    job.variant = "auto";
    job.precision = "single";
    job.layout = "row";
    job.transa = job.transb = "n";
    job.repeat = 10;
    job.warmup = 2;
    job.alpha = 1.0;
    job.beta = 0.0;
    job.seed = 42;
    job.tolerance = NAN;

    const cli_option opts[] = {
        {"--device", NULL, CLI_STRING, &job.device, "SPEC",
         "device: P:D from 'tessel devices', or part of a name (default: $TESSEL_DEVICE, else "
         "the first GPU, else the first device)"},
        {"--variant", NULL, CLI_STRING, &job.variant, "NAME",
         "a variant, 'all' (every variant), or 'list' (print the names); default auto"},
        {"--precision", NULL, CLI_STRING, &job.precision, "P", "single or double; default single"},
        {"--size", NULL, CLI_COUNT, &job.size, "N", "m = n = k = N; default 1024"},
        {"--sizes", NULL, CLI_SIZE_LIST, &job.sizes, "A,B,...", "several square sizes, in turn"},
        {"-m", NULL, CLI_COUNT, &job.m, "M", "rows of C (overrides --size for m)"},
        {"-n", NULL, CLI_COUNT, &job.n, "N", "columns of C (overrides --size for n)"},
        {"-k", NULL, CLI_COUNT, &job.k, "K", "inner dimension (overrides --size for k)"},
        {"--layout", NULL, CLI_STRING, &job.layout, "L", "row or col (major); default row"},
        {"--transa", NULL, CLI_STRING, &job.transa, "T", "n or t: op(A) = A or A^T; default n"},
        {"--transb", NULL, CLI_STRING, &job.transb, "T", "n or t: op(B) = B or B^T; default n"},
        {"--alpha", NULL, CLI_REAL, &job.alpha, "X", "alpha; default 1"},
        {"--beta", NULL, CLI_REAL, &job.beta, "X", "beta; default 0 (C is not read)"},
        {"--repeat", NULL, CLI_COUNT, &job.repeat, "R", "timed runs, median reported; default 10"},
        {"--warmup", NULL, CLI_UINT, &job.warmup, "W", "untimed runs first; default 2"},
        {"--verify", NULL, CLI_FLAG, &job.verify, NULL,
         "check every result against the CPU reference (exit 1 if one fails)"},
        {"--tolerance", NULL, CLI_REAL, &job.tolerance, "E",
         "--verify pass threshold instead of the size-dependent default"},
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
    int rc = cli_parse("gemm", argc, argv, opts, nopts);
    if (rc) return rc;
    if (strcmp(job.variant, "list") == 0) return list_variants();
    if ((rc = check_options(&job))) return rc;

    /* Byte counts that overflow are usage errors, before any device is touched. */
    gemm_case cases[CLI_MAX_LIST];
    size_t ncases = job.sizes.n;
    for (size_t i = 0; i < ncases; ++i) {
        size_t s = job.sizes.v[i];
        if ((rc = make_case(&job, job.m ? job.m : s, job.n ? job.n : s, job.k ? job.k : s,
                            &cases[i])))
            return rc;
        if ((job.verify || job.npeers) &&
            (cases[i].m > INT_MAX || cases[i].n > INT_MAX || cases[i].k > INT_MAX ||
             cases[i].lda > INT_MAX || cases[i].ldb > INT_MAX || cases[i].ldc > INT_MAX))
            return cli_error(CLI_EXIT_USAGE,
                             "gemm: --verify and the peers use CBLAS, which takes sizes up to %d",
                             INT_MAX);
    }

    char command_line[2048];
    cli_command_line(cli_argc, cli_argv, command_line, sizeof command_line);
    char title[512];
    cli_report_opts ro = {job.csv,
                          job.json,
                          job.quiet,
                          "variant,precision,m,n,k,kernel_ms,gflops,build_ms,max_rel_err,status,"
                          "device",
                          title,
                          command_line};
    /* Output paths are checked before the (slow) device work; nothing is printed yet. */
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

    /* Which variants this device runs; one that was asked for by name must run. */
    for (size_t i = 0; !rc && i < job.nvariants; ++i) {
        const char *resolved = NULL;
        st = tsl_variant_check(job.ctx, "gemm", job.variants[i], &resolved);
        job.variant_ok[i] = st == TSL_OK;
        tsl_timing ct;
        job.check_build_ms[i] = tsl_context_timing(job.ctx, &ct) == TSL_OK ? ct.build_ms : 0.0;
        if (st == TSL_OK && strcmp(job.variants[i], "auto") == 0) job.auto_resolved = resolved;
        if (st == TSL_OK) continue;
        if (strcmp(job.variant, "all") == 0 && st == TSL_ERR_UNSUPPORTED)
            cli_note("variant %s skipped: %s", job.variants[i], tsl_context_error(job.ctx));
        else
            rc = cli_error(CLI_EXIT_RUNTIME, "gemm: variant %s cannot run on %s: %s (%s)",
                           job.variants[i], job.dev.name, tsl_context_error(job.ctx),
                           tsl_status_name(st));
    }
    if (rc) {
        cli_report_close(job.rep, 0);
        tsl_context_destroy(job.ctx);
        return rc;
    }

    snprintf(title, sizeof title,
             "gemm on %s (%d:%d, %s), %s precision, %s-major, op(A)=%s, "
             "op(B)=%s, alpha=%g, beta=%g",
             job.dev.name, job.dev.platform_index, job.dev.device_index, job.dev.platform,
             job.is_double ? "double" : "single", job.lay == TSL_COL_MAJOR ? "col" : "row",
             job.ta == TSL_TRANS ? "A^T" : "A", job.tb == TSL_TRANS ? "B^T" : "B", job.alpha,
             job.beta);
    for (size_t i = 0; i < ncases; ++i)
        run_case(&job, &cases[i], i, ncases);
    cli_progress_clear();

    rc = cli_report_close(job.rep, 1);
    tsl_context_destroy(job.ctx);
    if (rc || job.any_error) return CLI_EXIT_RUNTIME;
    return job.any_failed ? CLI_EXIT_VERIFY : CLI_EXIT_OK;
}
