/* blas_cli.c: the runner of `tessel blas1` and `tessel gemv` (blas_cli.h). Per size: random data
 * from --seed is uploaded once into device buffers; each variant runs --warmup untimed and
 * --repeat timed calls of the tsl_X_buf routine, and kernel_ms is the median of the per-call
 * kernel times of tsl_context_timing (profiling events). y is rewritten before every call of
 * axpy, and of gemv with beta != 0, so every call computes the same thing; with beta == 0 y
 * starts as NaN, so an element a kernel forgets fails --verify. The copy row (--copy) times
 * tsl_copy_buf over half the bytes the operation moves, so it reads and writes the same total:
 * each figure is then a ratio to the device's own copy bandwidth, measured in the same run.
 *
 * Bandwidth counts the bytes the operation needs, read or written once (docs/design.md,
 * "Measuring"; 004's Be = (Br + Bw) / T): axpy 3n elements, dot 2n, nrm2 n (its rare scaled second
 * pass reads x again, which is not counted), gemv mn + n + m, plus the length of y when beta != 0.
 * GFLOP/s: 2n for axpy, dot and nrm2, 2mn for gemv. */
#include "blas_cli.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "measure.h"
#include "output.h"
#include "ref/ref.h"
#include "tessel.h"

#define MAX_RUNS 1000000u

typedef struct {
    blas_job *job;
    int is_double;
    size_t es;
    cli_variants vs;
    const char *peers[CLI_MAX_LIST];
    int peer_noted[CLI_MAX_LIST];
    size_t npeers;
    cli_session s; /* device, report, --repeat and --warmup */
} runner;

/* One size: lengths and host data. */
typedef struct {
    size_t m, n, lenx, leny, lda, ea;
    void *a, *x, *y0, *out; /* y0: y before a call; out: what comes back */
    double *ref;            /* reference y (axpy, gemv) or result (dot, nrm2), with --verify */
    double *times;
    tsl_buffer *da, *dx, *dy;
    double upload_ms;
} blas_case;

static int is_gemv(const runner *r)
{
    return r->job->pop == TSL_BLAS_GEMV;
}
static int is_scalar(const runner *r)
{
    return r->job->pop == TSL_BLAS_DOT || r->job->pop == TSL_BLAS_NRM2;
}
/* Elements of the result: y's length, or 1 for dot and nrm2. */
static size_t out_len(const runner *r, const blas_case *c)
{
    return is_scalar(r) ? 1 : c->leny;
}

static double bytes_of(const runner *r, const blas_case *c)
{
    double n = (double)c->n, es = (double)r->es;
    switch (r->job->pop) {
    case TSL_BLAS_AXPY:
        return 3.0 * n * es;
    case TSL_BLAS_DOT:
        return 2.0 * n * es;
    case TSL_BLAS_NRM2:
        return n * es;
    default:
        return ((double)c->m * n + (double)c->lenx + (double)c->leny +
                (r->job->beta != 0.0 ? (double)c->leny : 0.0)) *
               es;
    }
}

static void set_common(const runner *r, const blas_case *c, const char *variant, cli_row *row)
{
    cli_row_start(&r->s, r->job->op, variant, row);
    row->precision = r->is_double ? "double" : "single";
    if (is_gemv(r)) row->m = (long long)c->m;
    row->n = (long long)c->n;
}

static void set_speed(const runner *r, const blas_case *c, double ms, double bytes, int flops,
                      cli_row *row)
{
    row->kernel_ms = ms;
    if (ms <= 0) return;
    row->gbps = bytes / (ms * 1e6);
    if (flops) row->gflops = 2.0 * (is_gemv(r) ? (double)c->m : 1.0) * (double)c->n / (ms * 1e6);
}

static void set_verdict(runner *r, const blas_case *c, const void *out, cli_row *row)
{
    row->status = "ok";
    if (!c->ref) return;
    size_t len = out_len(r, c);
    double err = r->is_double ? tsl_ref_rel_err_d(1, len, out, len, c->ref, len)
                              : tsl_ref_rel_err_f(1, len, out, len, c->ref, len);
    size_t k = r->job->pop == TSL_BLAS_AXPY ? 1 : is_gemv(r) ? c->lenx : c->n;
    double tol =
        isnan(r->job->tolerance) ? tsl_ref_blas_tolerance(r->is_double, k) : r->job->tolerance;
    row->max_rel_err = err;
    if (!(err <= tol)) {
        row->status = "verify_failed";
        r->s.any_failed = 1;
    }
}

static void row_error(runner *r, const blas_case *c, const char *what, const char *msg)
{
    if (is_gemv(r))
        cli_error(CLI_EXIT_RUNTIME, "%s %s at %zux%zu: %s", r->job->op, what, c->m, c->n, msg);
    else
        cli_error(CLI_EXIT_RUNTIME, "%s %s at n = %zu: %s", r->job->op, what, c->n, msg);
    r->s.any_error = 1;
}

static tsl_status call_op(runner *r, const blas_case *c, void *result)
{
    const blas_job *j = r->job;
    tsl_context *ctx = r->s.ctx;
    if (r->is_double) {
        switch (j->pop) {
        case TSL_BLAS_AXPY:
            return tsl_daxpy_buf(ctx, c->n, j->alpha, c->dx, c->dy);
        case TSL_BLAS_DOT:
            return tsl_ddot_buf(ctx, c->n, c->dx, c->dy, result);
        case TSL_BLAS_NRM2:
            return tsl_dnrm2_buf(ctx, c->n, c->dx, result);
        default:
            return tsl_dgemv_buf(ctx, j->layout, j->trans, c->m, c->n, j->alpha, c->da, c->lda,
                                 c->dx, j->beta, c->dy);
        }
    }
    switch (j->pop) {
    case TSL_BLAS_AXPY:
        return tsl_saxpy_buf(ctx, c->n, (float)j->alpha, c->dx, c->dy);
    case TSL_BLAS_DOT:
        return tsl_sdot_buf(ctx, c->n, c->dx, c->dy, result);
    case TSL_BLAS_NRM2:
        return tsl_snrm2_buf(ctx, c->n, c->dx, result);
    default:
        return tsl_sgemv_buf(ctx, j->layout, j->trans, c->m, c->n, (float)j->alpha, c->da, c->lda,
                             c->dx, (float)j->beta, c->dy);
    }
}

/* One call of a variant's timed loop; y is rewritten first when the call reads it. */
typedef struct {
    runner *r;
    const blas_case *c;
    int rewrite;
    double result; /* dot, nrm2: a float or a double */
} blas_call;

static tsl_status call_timed(void *arg, unsigned run, double *ms)
{
    (void)run, (void)ms;
    blas_call *a = arg;
    tsl_status st = TSL_OK;
    if (a->rewrite)
        st = tsl_buffer_write(a->r->s.ctx, a->c->dy, 0, a->c->leny * a->r->es, a->c->y0);
    return st == TSL_OK ? call_op(a->r, a->c, &a->result) : st;
}

static void run_variant(runner *r, blas_case *c, size_t vi)
{
    const blas_job *j = r->job;
    const char *v = r->vs.name[vi];
    cli_row row;
    set_common(r, c, v, &row);
    cli_variant_row(&r->s, &r->vs, vi, &row); /* every variant passed the check */
    int rewrite = j->pop == TSL_BLAS_AXPY || (is_gemv(r) && j->beta != 0.0);
    size_t ybytes = c->leny * r->es;
    tsl_status st = tsl_context_set_variant(r->s.ctx, j->op, v);
    if (st == TSL_OK && is_gemv(r) && !rewrite) { /* beta == 0: y starts as NaN */
        cli_fill_nan(r->is_double, c->out, c->leny);
        st = tsl_buffer_write(r->s.ctx, c->dy, 0, ybytes, c->out);
    }
    blas_call a = {r, c, rewrite, 0.0};
    tsl_timing t = {0, 0, 0, 0};
    if (st == TSL_OK)
        st = cli_time_runs(&r->s, call_timed, &a, c->times, &row, r->vs.check_build_ms[vi], &t);
    if (st == TSL_OK && is_scalar(r)) {
        memcpy(c->out, &a.result, r->es);
        row.download_ms = t.download_ms;
    } else if (st == TSL_OK) {
        st = cli_read_back(&r->s, c->dy, ybytes, c->out, &row);
    }
    if (st != TSL_OK) {
        char msg[1200];
        cli_status_text(&r->s, st, msg, sizeof msg);
        row_error(r, c, v, msg);
        cli_report_row(r->s.rep, &row);
        return;
    }
    set_speed(r, c, cli_median(c->times, j->repeat), bytes_of(r, c), 1, &row);
    row.upload_ms = c->upload_ms;
    set_verdict(r, c, c->out, &row);
    cli_report_row(r->s.rep, &row);
}

/* The copy reference: tsl_copy_buf over half the operation's bytes (a copy reads and writes). */
static void run_copy(runner *r, blas_case *c)
{
    cli_row row;
    set_common(r, c, "copy", &row);
    size_t bytes = (size_t)(bytes_of(r, c) / 2.0);
    bytes -= bytes % 16;
    cli_copy_opts o = {bytes < 16 ? 16 : bytes, 1, 0, r->is_double, 0, 0};
    tsl_status st = cli_copy_row(&r->s, &o, c->times, &row);
    if (st != TSL_OK) {
        char msg[1200];
        cli_status_text(&r->s, st, msg, sizeof msg);
        row_error(r, c, "copy", msg);
    }
    cli_report_row(r->s.rep, &row);
}

static void run_peer(runner *r, blas_case *c, size_t pi)
{
    const blas_job *j = r->job;
    cli_row row;
    set_common(r, c, r->peers[pi], &row);
    tsl_blas_peer_args args = {r->s.ctx,    j->pop,   r->is_double, c->m,      c->n,
                               j->layout, j->trans, c->lda,       j->alpha,  j->beta,
                               c->a,      c->x,     c->y0,        j->warmup, (unsigned)j->repeat};
    tsl_peer_result res;
    res.run_ms = c->times;
    res.c = c->out;
    tsl_blas_peer_run(r->peers[pi], &args, &res);
    int got = cli_peer_row(&res, r->peers[pi], &r->peer_noted[pi], &row);
    if (got < 0) row_error(r, c, r->peers[pi], res.reason);
    if (got > 0) {
        set_speed(r, c, cli_median(c->times, j->repeat), bytes_of(r, c), 1, &row);
        set_verdict(r, c, c->out, &row);
    }
    cli_report_row(r->s.rep, &row);
}

static void free_case(blas_case *c)
{
    tsl_buffer_destroy(c->da);
    tsl_buffer_destroy(c->dx);
    tsl_buffer_destroy(c->dy);
    c->da = c->dx = c->dy = NULL;
    free(c->a);
    free(c->x);
    free(c->y0);
    free(c->out);
    free(c->ref);
    free(c->times);
}

static void case_failed(runner *r, blas_case *c, const char *what)
{
    row_error(r, c, "setup", what);
    cli_row row;
    for (size_t i = 0; i < r->vs.n; ++i) {
        set_common(r, c, r->vs.name[i], &row);
        cli_report_row(r->s.rep, &row);
    }
}

static void reference(runner *r, blas_case *c)
{
    const blas_job *j = r->job;
    double *xd = cli_to_double(r->is_double, c->x, c->lenx);
    double *yd = cli_to_double(r->is_double, c->y0, c->leny);
    double *ad = is_gemv(r) ? cli_to_double(r->is_double, c->a, c->ea) : NULL;
    double alpha = r->is_double ? j->alpha : (double)(float)j->alpha;
    double beta = r->is_double ? j->beta : (double)(float)j->beta;
    if (xd && yd && (ad || !is_gemv(r))) {
        switch (j->pop) {
        case TSL_BLAS_AXPY:
            tsl_ref_daxpy(c->n, alpha, xd, yd);
            break;
        case TSL_BLAS_DOT:
            yd[0] = tsl_ref_ddot(c->n, xd, yd);
            break;
        case TSL_BLAS_NRM2:
            yd[0] = tsl_ref_dnrm2(c->n, xd);
            break;
        default:
            tsl_ref_dgemv(j->layout, j->trans, c->m, c->n, alpha, ad, c->lda, xd, beta, yd);
        }
        c->ref = yd;
        yd = NULL;
    }
    free(xd);
    free(yd);
    free(ad);
}

/* Device buffers of A (gemv), x and y, written once; upload_ms is their transfer time. */
static tsl_status upload_case(runner *r, blas_case *c)
{
    size_t es = r->es;
    tsl_buffer **bufs[3] = {&c->da, &c->dx, &c->dy};
    const void *src[3] = {c->a, c->x, c->y0};
    size_t elems[3] = {c->ea, c->lenx, c->leny};
    for (int i = 0; i < 3; ++i) {
        tsl_timing t;
        tsl_status st = tsl_buffer_create(r->s.ctx, elems[i] ? elems[i] * es : es, bufs[i]);
        if (st == TSL_OK && elems[i])
            st = tsl_buffer_write(r->s.ctx, *bufs[i], 0, elems[i] * es, src[i]);
        if (st != TSL_OK) return st;
        if (elems[i] && tsl_context_timing(r->s.ctx, &t) == TSL_OK) c->upload_ms += t.upload_ms;
    }
    return TSL_OK;
}

static void run_case(runner *r, size_t index)
{
    const blas_job *j = r->job;
    blas_case c;
    memset(&c, 0, sizeof c);
    c.n = j->n[index];
    c.m = is_gemv(r) ? j->m[index] : 1;
    int t = j->trans == TSL_TRANS;
    c.lenx = is_gemv(r) && t ? c.m : c.n;
    c.leny = is_gemv(r) && !t ? c.m : c.n;
    c.lda = j->layout == TSL_COL_MAJOR ? c.m : c.n;
    c.ea = is_gemv(r) ? c.m * c.n : 0;
    size_t es = r->es;
    c.a = malloc(c.ea ? c.ea * es : es);
    c.x = malloc(c.lenx * es);
    c.y0 = malloc(c.leny * es);
    c.out = malloc(c.leny * es + sizeof(double));
    c.times = malloc(j->repeat * sizeof *c.times);
    if (!c.a || !c.x || !c.y0 || !c.out || !c.times) {
        case_failed(r, &c, "out of host memory");
        free_case(&c);
        return;
    }
    unsigned long long state = j->seed + 0x9E3779B97F4A7C15ull * (index + 1);
    cli_fill_random(r->is_double, c.a, c.ea, &state);
    cli_fill_random(r->is_double, c.x, c.lenx, &state);
    cli_fill_random(r->is_double, c.y0, c.leny, &state);
    if (j->verify) {
        cli_progress("%s: CPU reference", j->op);
        reference(r, &c);
        if (!c.ref) {
            case_failed(r, &c, "out of host memory for the --verify reference");
            free_case(&c);
            return;
        }
    }
    if (r->vs.n) {
        tsl_status st = upload_case(r, &c);
        if (st != TSL_OK) {
            char msg[1200] = "device buffers: ";
            cli_status_text(&r->s, st, msg + strlen(msg), sizeof msg - strlen(msg));
            case_failed(r, &c, msg);
            free_case(&c);
            return;
        }
        for (size_t i = 0; i < r->vs.n; ++i) {
            cli_progress("%s %zu/%zu: %s", j->op, index + 1, j->ncases, r->vs.name[i]);
            run_variant(r, &c, i);
        }
        tsl_buffer_destroy(c.da);
        tsl_buffer_destroy(c.dx);
        tsl_buffer_destroy(c.dy);
        c.da = c.dx = c.dy = NULL;
    }
    if (j->copy) run_copy(r, &c);
    for (size_t i = 0; i < r->npeers; ++i) {
        cli_progress("%s %zu/%zu: peer %s", j->op, index + 1, j->ncases, r->peers[i]);
        run_peer(r, &c, i);
    }
    free_case(&c);
}

/* Usage checks that need no device. */
static int check_job(runner *r)
{
    blas_job *j = r->job;
    int rc = cli_parse_precision(j->cmd, j->precision, &r->is_double, &r->es);
    if (rc || (rc = cli_check_runs(j->cmd, j->repeat, j->warmup, MAX_RUNS))) return rc;
    if (!isnan(j->tolerance) && j->tolerance < 0)
        return cli_error(CLI_EXIT_USAGE, "%s: --tolerance must not be negative", j->cmd);
    if ((rc = cli_variants_select(&r->vs, j->op, j->variant, j->cmd, 1))) return rc;
    r->vs.all = 0; /* every variant must run, under `all` too */
    for (size_t i = 0; i < j->peer_names.n; ++i) {
        const char *p = j->peer_names.v[i];
        if (!tsl_blas_peer_known(p))
            return cli_error(CLI_EXIT_USAGE, "%s: unknown peer '%s' (peers: clblast, cublas, openblas)",
                             j->cmd, p);
        int dup = 0;
        for (size_t k = 0; k < r->npeers; ++k)
            dup |= strcmp(r->peers[k], p) == 0;
        if (!dup) r->peers[r->npeers++] = p;
    }
    for (size_t i = 0; i < j->ncases; ++i) {
        size_t m = r->job->pop == TSL_BLAS_GEMV ? j->m[i] : 1, n = j->n[i];
        if (m > INT_MAX || n > INT_MAX || (m && n > SIZE_MAX / m / r->es))
            return cli_error(CLI_EXIT_USAGE,
                             "%s: sizes go up to %d per dimension (CBLAS and the kernels take "
                             "int); got %zu x %zu",
                             j->cmd, INT_MAX, m, n);
    }
    return 0;
}

/* Buffers must fit the device's largest allocation and its memory. */
static int check_memory(runner *r)
{
    for (size_t i = 0; i < r->job->ncases; ++i) {
        size_t m = is_gemv(r) ? r->job->m[i] : 1, n = r->job->n[i];
        unsigned long long biggest = (unsigned long long)(is_gemv(r) ? m * n : n) * r->es;
        if (biggest > r->s.dev.max_alloc)
            return cli_error(CLI_EXIT_USAGE,
                             "%s: %s of %llu bytes is more than the largest buffer %s allows "
                             "(max_alloc %llu bytes); use a smaller size",
                             r->job->cmd, is_gemv(r) ? "the matrix" : "a vector", biggest,
                             r->s.dev.name, r->s.dev.max_alloc);
    }
    return 0;
}

int blas_cli_run(blas_job *job)
{
    runner r;
    memset(&r, 0, sizeof r);
    r.job = job;
    int rc = check_job(&r);
    if (rc) return rc;
    r.s.warmup = job->warmup;
    r.s.repeat = job->repeat;
    rc = cli_session_open(&r.s, job->csv, job->json, job->quiet,
                          is_gemv(&r) ? "variant,precision,m,n,kernel_ms,gbps,gflops,build_ms,"
                                        "max_rel_err,status,device"
                                      : "variant,precision,n,kernel_ms,gbps,gflops,build_ms,"
                                        "max_rel_err,status,device",
                          job->device, r.is_double);
    if (rc) return rc;
    if (!rc) rc = check_memory(&r);
    if (!rc) rc = cli_variants_check(&r.vs, &r.s, job->cmd);
    if (rc) return cli_session_abort(&r.s, rc);
    if (is_gemv(&r))
        snprintf(r.s.title, sizeof r.s.title,
                 "gemv on %s (%d:%d, %s), %s precision, %s-major, op(A)=%s, "
                 "alpha=%g, beta=%g",
                 r.s.dev.name, r.s.dev.platform_index, r.s.dev.device_index, r.s.dev.platform,
                 r.is_double ? "double" : "single", job->layout == TSL_COL_MAJOR ? "col" : "row",
                 job->trans == TSL_TRANS ? "A^T" : "A", job->alpha, job->beta);
    else
        snprintf(r.s.title, sizeof r.s.title, "%s on %s (%d:%d, %s), %s precision%s", job->op,
                 r.s.dev.name,
                 r.s.dev.platform_index, r.s.dev.device_index, r.s.dev.platform,
                 r.is_double ? "double" : "single", job->pop == TSL_BLAS_AXPY ? ", alpha=" : "");
    if (job->pop == TSL_BLAS_AXPY) {
        size_t used = strlen(r.s.title);
        snprintf(r.s.title + used, sizeof r.s.title - used, "%g", job->alpha);
    }
    for (size_t i = 0; i < job->ncases; ++i)
        run_case(&r, i);
    return cli_session_close(&r.s);
}
