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
 * every call computes the same thing. Peers get the same A, B and C (see cli/peers/peers.h).
 *
 * --precision half runs tsl_hgemm_buf: the random data is rounded to half (tsl_float_to_half) and
 * the --verify reference is computed in double from those half values, so only the kernel's
 * float arithmetic and the rounding of C to half are measured (tsl_ref_gemm_tolerance says how
 * much that may be). --precision bfloat16 is the same with tsl_bgemm_buf and bfloat16 data. The
 * peers get the same half or bfloat16 data: cublas computes it (FP32 accumulation, C in the
 * storage type, as tessel) and is verified the same way; the others have no such GEMM and their
 * rows are skipped.
 *
 * --math tf32|3xtf32 sets the context's math mode for single precision (tsl_context_set_option
 * "gemm" "math"); the precision column then says tf32 or 3xtf32. The TF32 reference is computed
 * from the inputs rounded to TF32 as the tensor cores round them (tsl_ref_round_tf32), so what is
 * checked is the FP32 accumulation of exact products, against the single-precision bound; 3xTF32
 * is checked against the plain reference and the same bound (it claims FP32's accuracy). With
 * tf32, cublas runs its TF32 mode (CUBLAS_COMPUTE_32F_FAST_TF32), verified against the same
 * TF32-rounded reference as tessel's rows, and the other peers (FP32 only) are skipped; with
 * 3xtf32 every peer runs plain FP32 (the comparison the mode is for).
 *
 * --precision complex|doublecomplex runs tsl_cgemm_buf / tsl_zgemm_buf on interleaved complex
 * matrices (--transa/--transb c: the conjugate transpose; --alpha-im, --beta-im: the imaginary
 * parts). Element counts and leading dimensions count complex elements, GFLOP/s counts 8mnk (a
 * complex multiply-add is 4 real multiplies and 4 adds), and --verify compares with cblas_zgemm in
 * double, C read as the real matrix of twice the columns, against the bound of a real GEMM of
 * inner dimension 2k (each part of an element sums 2k real products). The clblast and openblas
 * peers run their complex GEMMs; the others are skipped rows. */
#define _DEFAULT_SOURCE /* sysconf(_SC_PHYS_PAGES) */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "blas3_cli.h"
#include "commands.h"
#include "gemm_cli.h"
#include "output.h"
#include "common.h"
#include "measure.h"
#include "multi.h"
#include "peers.h"
#include "problems.h"
#include "ref/ref.h"
#include "tessel.h"

#define MAX_RUNS 1000000u

typedef struct {
    /* options */
    const char *device, *variant, *precision, *layout, *transa, *transb, *csv, *json, *math, *form;
    cli_size_list sizes;
    size_t size, m, n, k, seed, batch;
    double alpha, beta, alpha_im, beta_im, tolerance;
    int verify, quiet, help;
    cli_name_list peer_names;
    /* resolved */
    tsl_precision prec;
    tsl_math math_mode; /* --math, single precision only */
    int is_double; /* prec == TSL_DOUBLE */
    int cplx;      /* --precision complex or doublecomplex: prec is the real part's */
    int form3m;    /* --form 3m (complex): the complex_gemm variant 3m */
    size_t es;     /* element size (a complex element's for cplx) */
    tsl_layout lay;
    tsl_trans ta, tb;
    const char *peers[CLI_MAX_LIST];
    int peer_noted[CLI_MAX_LIST]; /* its skip reason is on stderr already */
    size_t npeers;
    cli_variants vs;
    cli_session s;        /* device, report, --repeat and --warmup */
    cli_multi_opts multi; /* --devices, --weights, --timeout, --distributed (cli/multi.c) */
} gemm_job;

typedef struct {
    size_t m, n, k, lda, ldb, ldc, ea, eb, ec; /* sizes, leading dimensions, element counts */
} gemm_case;

/* ---- parsing and checks ---------------------------------------------------------------------- */

static int parse_trans(const char *s, tsl_trans *out)
{
    if (strcmp(s, "n") == 0 || strcmp(s, "N") == 0) return *out = TSL_NO_TRANS, 0;
    if (strcmp(s, "t") == 0 || strcmp(s, "T") == 0) return *out = TSL_TRANS, 0;
    if (strcmp(s, "c") == 0 || strcmp(s, "C") == 0) return *out = TSL_CONJ_TRANS, 0;
    return -1;
}

/* The CBLAS tight leading dimension of a rows x cols (after op) matrix. */
static size_t tight_ld(tsl_layout layout, tsl_trans t, size_t rows, size_t cols)
{
    size_t srows = t != TSL_NO_TRANS ? cols : rows, scols = t != TSL_NO_TRANS ? rows : cols;
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
        if (bytes > job->s.dev.max_alloc)
            return cli_error(CLI_EXIT_USAGE,
                             "gemm: matrix %s (%zu x %zu %s) needs %llu bytes, more than the "
                             "largest buffer %s allows (max_alloc %llu bytes); use a smaller size",
                             names[i], rows[i], cols[i],
                             job->cplx                   ? "complex values"
                             : job->prec == TSL_DOUBLE   ? "doubles"
                             : job->prec == TSL_HALF     ? "halves"
                             : job->prec == TSL_BFLOAT16 ? "bfloat16s"
                                                         : "floats",
                             bytes, job->s.dev.name, job->s.dev.max_alloc);
    }
    /* Each count fits size_t (make_case); sums are done in long double to stay exact enough. */
    long double dev_bytes = ((long double)c->ea + c->eb + c->ec) * job->es;
    if (dev_bytes > (long double)job->s.dev.global_mem)
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: A, B and C of %zux%zux%zu need %.0Lf bytes together, more than "
                         "the global memory of %s (%llu bytes); use a smaller size",
                         c->m, c->n, c->k, dev_bytes, job->s.dev.name, job->s.dev.global_mem);
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

/* The precision column: the storage, or for single precision in a reduced math mode the mode. */
static const char *row_precision(const gemm_job *job)
{
    if (job->cplx && job->form3m)
        return job->math_mode == TSL_MATH_TF32     ? "complex_tf32_3m"
               : job->math_mode == TSL_MATH_3XTF32 ? "complex_3xtf32_3m"
               : job->is_double                    ? "doublecomplex_3m"
                                                   : "complex_3m";
    if (job->cplx)
        return job->math_mode == TSL_MATH_TF32     ? "complex_tf32"
               : job->math_mode == TSL_MATH_3XTF32 ? "complex_3xtf32"
               : job->is_double                    ? "doublecomplex"
                                                   : "complex";
    return job->math_mode == TSL_MATH_TF32     ? "tf32"
           : job->math_mode == TSL_MATH_3XTF32 ? "3xtf32"
                                               : cli_precision_name(job->prec);
}

static void set_common(const gemm_job *job, const gemm_case *c, const char *variant, cli_row *row)
{
    cli_row_start(&job->s, "gemm", variant, row);
    row->precision = row_precision(job);
    row->m = (long long)c->m, row->n = (long long)c->n, row->k = (long long)c->k;
}

/* Flops of a multiply-add: 2 real, 8 complex. */
static void set_speed(const gemm_job *job, const gemm_case *c, double ms, cli_row *row)
{
    row->kernel_ms = ms;
    double per = job->cplx ? 8.0 : 2.0;
    if (ms > 0) row->gflops = per * (double)c->m * (double)c->n * (double)c->k / (ms * 1e6);
}

/* Real numbers in n elements. */
static size_t reals(const gemm_job *job, size_t n)
{
    return job->cplx ? 2 * n : n;
}

/* beta == 0: C is not read. */
static int beta_zero(const gemm_job *job)
{
    return job->beta == 0.0 && job->beta_im == 0.0;
}

/* With --verify: max_rel_err and status against the reference; otherwise status ok. */
static void set_verdict(gemm_job *job, const gemm_case *c, const void *out, const double *ref,
                        cli_row *row)
{
    row->status = "ok";
    if (!ref) return;
    size_t rows = job->lay == TSL_COL_MAJOR ? c->n : c->m;
    size_t cols = reals(job, job->lay == TSL_COL_MAJOR ? c->m : c->n), ld = reals(job, c->ldc);
    double err = job->prec == TSL_DOUBLE ? tsl_ref_rel_err_d(rows, cols, out, ld, ref, ld)
                 : job->prec == TSL_HALF ? tsl_ref_rel_err_h(rows, cols, out, ld, ref, ld)
                 : job->prec == TSL_BFLOAT16
                     ? tsl_ref_rel_err_b(rows, cols, out, ld, ref, ld)
                     : tsl_ref_rel_err_f(rows, cols, out, ld, ref, ld);
    double tol = isnan(job->tolerance) ? tsl_ref_gemm_tolerance(job->prec, reals(job, c->k))
                                       : job->tolerance;
    row->max_rel_err = err;
    if (!(err <= tol)) { /* NaN fails too */
        row->status = "verify_failed";
        job->s.any_failed = 1;
    }
}

static tsl_status call_gemm(gemm_job *job, const gemm_case *c, tsl_buffer *a, tsl_buffer *b,
                            tsl_buffer *cb)
{
    if (job->cplx) {
        double za[2] = {job->alpha, job->alpha_im}, zb[2] = {job->beta, job->beta_im};
        float ca[2] = {(float)za[0], (float)za[1]}, cz[2] = {(float)zb[0], (float)zb[1]};
        return (job->is_double ? tsl_zgemm_buf : tsl_cgemm_buf)(
            job->s.ctx, job->lay, job->ta, job->tb, c->m, c->n, c->k,
            job->is_double ? (const void *)za : ca, a, c->lda, b, c->ldb,
            job->is_double ? (const void *)zb : cz, cb, c->ldc);
    }
    if (job->prec == TSL_DOUBLE)
        return tsl_dgemm_buf(job->s.ctx, job->lay, job->ta, job->tb, c->m, c->n, c->k, job->alpha,
                             a, c->lda, b, c->ldb, job->beta, cb, c->ldc);
    if (job->prec == TSL_HALF)
        return tsl_hgemm_buf(job->s.ctx, job->lay, job->ta, job->tb, c->m, c->n, c->k,
                             (float)job->alpha, a, c->lda, b, c->ldb, (float)job->beta, cb, c->ldc);
    if (job->prec == TSL_BFLOAT16)
        return tsl_bgemm_buf(job->s.ctx, job->lay, job->ta, job->tb, c->m, c->n, c->k,
                             (float)job->alpha, a, c->lda, b, c->ldb, (float)job->beta, cb, c->ldc);
    return tsl_sgemm_buf(job->s.ctx, job->lay, job->ta, job->tb, c->m, c->n, c->k,
                         (float)job->alpha, a, c->lda, b, c->ldb, (float)job->beta, cb, c->ldc);
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
    job->s.any_error = 1;
}

/* One call of a variant's timed loop: with beta != 0, C is rewritten before every call after the
 * first, so every call computes the same thing. */
typedef struct {
    gemm_job *job;
    const gemm_case *c;
    case_data *d;
} gemm_call;

static tsl_status call_timed(void *arg, unsigned run, double *ms)
{
    (void)ms;
    gemm_call *g = arg;
    tsl_status st = TSL_OK;
    if (run > 0 && !beta_zero(g->job) && g->c->ec)
        st = tsl_buffer_write(g->job->s.ctx, g->d->dc, 0, g->c->ec * g->job->es, g->d->c0);
    return st == TSL_OK ? call_gemm(g->job, g->c, g->d->da, g->d->db, g->d->dc) : st;
}

static void run_variant(gemm_job *job, const gemm_case *c, case_data *d, size_t vi)
{
    const char *v = job->vs.name[vi];
    cli_row row;
    set_common(job, c, v, &row);
    if (!cli_variant_row(&job->s, &job->vs, vi, &row)) return;
    tsl_status st = tsl_context_set_variant(job->s.ctx, "gemm", v);
    /* C before the first call: NaN when beta == 0 (a forgotten element fails --verify). */
    if (beta_zero(job))
        cli_fill_nan(job->prec, d->out, reals(job, c->ec));
    else
        memcpy(d->out, d->c0, c->ec * job->es);
    if (st == TSL_OK && c->ec)
        st = tsl_buffer_write(job->s.ctx, d->dc, 0, c->ec * job->es, d->out);
    gemm_call g = {job, c, d};
    if (st == TSL_OK)
        st = cli_time_runs(&job->s, call_timed, &g, d->times, &row, job->vs.check_build_ms[vi],
                           NULL);
    if (st == TSL_OK && c->ec) st = cli_read_back(&job->s, d->dc, c->ec * job->es, d->out, &row);
    if (cli_variant_skip(&job->s, &job->vs, st, v, &row)) return;
    if (st != TSL_OK) {
        char msg[1200];
        cli_status_text(&job->s, st, msg, sizeof msg);
        row_error(job, c, v, msg);
        cli_report_row(job->s.rep, &row);
        return;
    }
    set_speed(job, c, cli_median(d->times, job->s.repeat), &row);
    row.upload_ms = d->upload_ms;
    set_verdict(job, c, d->out, d->ref, &row);
    cli_report_row(job->s.rep, &row);
}

static void run_peer(gemm_job *job, const gemm_case *c, case_data *d, size_t pi)
{
    const tsl_peer *p = tsl_peer_find(job->peers[pi]);
    cli_row row;
    set_common(job, c, p->name, &row);
    /* Half, bfloat16 and TF32 go to the peers too: those without them skip (tsl_peer_gemm). */
    tsl_peer_gemm_args args = {.ctx = job->s.ctx,
                               .is_double = job->is_double,
                               .storage = job->prec == TSL_HALF || job->prec == TSL_BFLOAT16
                                              ? job->prec
                                              : TSL_SINGLE,
                               .math = job->math_mode,
                               .cplx = job->cplx,
                               .form3m = job->form3m,
                               .alpha_im = job->alpha_im,
                               .beta_im = job->beta_im,
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
                               .warmup = job->s.warmup,
                               .repeat = (unsigned)job->s.repeat};
    tsl_peer_result res;
    res.run_ms = d->times;
    res.c = d->out;
    tsl_peer_gemm(p, &args, &res);
    int got = cli_peer_row(&res, p->name, &job->peer_noted[pi], &row);
    if (got < 0) row_error(job, c, p->name, res.reason);
    if (got > 0) {
        set_speed(job, c, cli_median(d->times, job->s.repeat), &row);
        set_verdict(job, c, d->out, d->ref, &row);
    }
    cli_report_row(job->s.rep, &row);
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
    job->s.any_error = 1;
    cli_row row;
    for (size_t i = 0; i < job->vs.n + job->npeers; ++i) {
        set_common(job, c, i < job->vs.n ? job->vs.name[i] : job->peers[i - job->vs.n], &row);
        cli_report_row(job->s.rep, &row);
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
    d.times = malloc(job->s.repeat * sizeof *d.times);
    if (!d.a || !d.b || !d.c0 || !d.out || !d.times) {
        case_failed(job, c, "out of host memory for the matrices");
        free_case(&d);
        return;
    }
    cli_gemm_fill(job->prec, job->seed, index, d.a, reals(job, c->ea), d.b, reals(job, c->eb),
                  d.c0, reals(job, c->ec));

    if (job->verify) {
        size_t ra = reals(job, c->ea), rb = reals(job, c->eb);
        double *ad = cli_to_double(job->prec, d.a, ra);
        double *bd = cli_to_double(job->prec, d.b, rb);
        /* TF32 math multiplies the inputs rounded to TF32: the reference does too */
        for (size_t i = 0; ad && job->math_mode == TSL_MATH_TF32 && i < ra; ++i)
            ad[i] = tsl_ref_round_tf32((float)ad[i]);
        for (size_t i = 0; bd && job->math_mode == TSL_MATH_TF32 && i < rb; ++i)
            bd[i] = tsl_ref_round_tf32((float)bd[i]);
        d.ref = cli_to_double(job->prec, d.c0, reals(job, c->ec));
        if (!ad || !bd || !d.ref) {
            free(ad);
            free(bd);
            case_failed(job, c, "out of host memory for the --verify reference");
            free_case(&d);
            return;
        }
        cli_progress("gemm %zux%zux%zu: CPU reference", c->m, c->n, c->k);
        /* alpha and beta as the device gets them (a float for single and half) */
        double alpha = job->is_double ? job->alpha : (double)(float)job->alpha;
        double beta = job->is_double ? job->beta : (double)(float)job->beta;
        double za[2] = {alpha, job->is_double ? job->alpha_im : (double)(float)job->alpha_im};
        double zb[2] = {beta, job->is_double ? job->beta_im : (double)(float)job->beta_im};
        if (job->cplx)
            tsl_ref_zgemm(job->lay, job->ta, job->tb, c->m, c->n, c->k, za, ad, c->lda, bd, c->ldb,
                          zb, d.ref, c->ldc);
        else
            tsl_ref_dgemm(job->lay, job->ta, job->tb, c->m, c->n, c->k, alpha, ad, c->lda, bd,
                          c->ldb, beta, d.ref, c->ldc);
        free(ad);
        free(bd);
    }

    if (job->vs.n) {
        tsl_status st;
        tsl_timing t;
        if ((st = tsl_buffer_create(job->s.ctx, c->ea ? c->ea * es : es, &d.da)) ||
            (st = tsl_buffer_create(job->s.ctx, c->eb ? c->eb * es : es, &d.db)) ||
            (st = tsl_buffer_create(job->s.ctx, c->ec ? c->ec * es : es, &d.dc))) {
            char msg[1200] = "device buffers: ";
            cli_status_text(&job->s, st, msg + strlen(msg), sizeof msg - strlen(msg));
            case_failed(job, c, msg);
            free_case(&d);
            return;
        }
        st = tsl_buffer_write(job->s.ctx, d.da, 0, c->ea * es, d.a);
        if (st == TSL_OK && tsl_context_timing(job->s.ctx, &t) == TSL_OK) d.upload_ms = t.upload_ms;
        if (st == TSL_OK) st = tsl_buffer_write(job->s.ctx, d.db, 0, c->eb * es, d.b);
        if (st == TSL_OK && tsl_context_timing(job->s.ctx, &t) == TSL_OK)
            d.upload_ms += t.upload_ms;
        if (st != TSL_OK) {
            char msg[1200] = "upload: ";
            cli_status_text(&job->s, st, msg + strlen(msg), sizeof msg - strlen(msg));
            case_failed(job, c, msg);
            free_case(&d);
            return;
        }
        for (size_t i = 0; i < job->vs.n; ++i) {
            cli_progress("gemm %zu/%zu %zux%zux%zu: %s", index + 1, total, c->m, c->n, c->k,
                         job->vs.name[i]);
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
                     job->peers[i]);
        run_peer(job, c, &d, i);
    }
    free_case(&d);
}

/* ---- the command ----------------------------------------------------------------------------- */

static const char *peer_name(size_t j)
{
    return j < tsl_peer_count() ? tsl_peer_at(j)->name : NULL;
}

/* --math: fp32, tf32 or 3xtf32, a single-precision mode. */
static int parse_math(gemm_job *job)
{
    if (strcmp(job->math, "fp32") == 0)
        job->math_mode = TSL_MATH_FP32;
    else if (strcmp(job->math, "tf32") == 0)
        job->math_mode = TSL_MATH_TF32;
    else if (strcmp(job->math, "3xtf32") == 0)
        job->math_mode = TSL_MATH_3XTF32;
    else
        return cli_error(CLI_EXIT_USAGE, "gemm: --math expects fp32, tf32 or 3xtf32, got '%s'",
                         job->math);
    if (job->math_mode != TSL_MATH_FP32 && strcmp(job->precision, "single") != 0 &&
        strcmp(job->precision, "complex") != 0)
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: --math %s is a mode of single precision: use it with --precision "
                         "single or complex (not %s)",
                         job->math, job->precision);
    if (job->math_mode != TSL_MATH_FP32 && job->batch)
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: --math %s runs tsl_sgemm: not with --batch (batched GEMM computes "
                         "in FP32)",
                         job->math);
    return 0;
}

/* Everything that can be checked before a device is opened. */
static int check_options(gemm_job *job)
{
    int rc = 0;
    job->cplx = strcmp(job->precision, "complex") == 0 || strcmp(job->precision, "doublecomplex") == 0;
    if (job->cplx) {
        job->prec = job->precision[0] == 'd' ? TSL_DOUBLE : TSL_SINGLE;
        job->es = 2 * (job->prec == TSL_DOUBLE ? sizeof(double) : sizeof(float));
    } else if (strcmp(job->precision, "single") && strcmp(job->precision, "double") &&
               strcmp(job->precision, "half") && strcmp(job->precision, "bfloat16")) {
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: --precision expects single, double, half, bfloat16, complex or "
                         "doublecomplex, got '%s'",
                         job->precision);
    } else if ((rc = cli_parse_precision_half("gemm", job->precision, &job->prec, &job->es))) {
        return rc;
    }
    job->is_double = job->prec == TSL_DOUBLE;
    job->form3m = strcmp(job->form, "3m") == 0;
    if (!job->form3m && strcmp(job->form, "4m") != 0)
        return cli_error(CLI_EXIT_USAGE, "gemm: --form expects 4m or 3m, got '%s'", job->form);
    if (job->form3m && !job->cplx)
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: --form 3m is a form of the complex product: use it with "
                         "--precision complex or doublecomplex");
    if (strcmp(job->layout, "row") == 0)
        job->lay = TSL_ROW_MAJOR;
    else if (strcmp(job->layout, "col") == 0)
        job->lay = TSL_COL_MAJOR;
    else
        return cli_error(CLI_EXIT_USAGE, "gemm: --layout expects row or col, got '%s'",
                         job->layout);
    if (parse_trans(job->transa, &job->ta) != 0 || (!job->cplx && job->ta == TSL_CONJ_TRANS))
        return cli_error(CLI_EXIT_USAGE, "gemm: --transa expects %s, got '%s'",
                         job->cplx ? "n, t or c"
                                   : "n or t (c, the conjugate transpose, with --precision "
                                     "complex or doublecomplex)",
                         job->transa);
    if (parse_trans(job->transb, &job->tb) != 0 || (!job->cplx && job->tb == TSL_CONJ_TRANS))
        return cli_error(CLI_EXIT_USAGE, "gemm: --transb expects %s, got '%s'",
                         job->cplx ? "n, t or c"
                                   : "n or t (c, the conjugate transpose, with --precision "
                                     "complex or doublecomplex)",
                         job->transb);
    if (!job->cplx && (job->alpha_im != 0.0 || job->beta_im != 0.0))
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: --alpha-im and --beta-im are for --precision complex or "
                         "doublecomplex");
    if ((rc = cli_check_runs("gemm", job->s.repeat, job->s.warmup, MAX_RUNS))) return rc;
    if (!isnan(job->tolerance) && job->tolerance < 0)
        return cli_error(CLI_EXIT_USAGE, "gemm: --tolerance must not be negative");

    if ((rc = cli_variants_select(&job->vs, "gemm", job->variant, "gemm", 0))) return rc;
    job->vs.prec = job->prec;

    if ((rc = cli_select_peers("gemm", &job->peer_names, peer_name, job->peers, &job->npeers)))
        return rc;
    if ((rc = cli_multi_check("gemm", &job->multi, job->device, job->npeers > 0, job->vs.all, 0)))
        return rc;
    if (job->cplx && (job->multi.devices || job->multi.distributed))
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: --precision %s runs on one device: not with --%s", job->precision,
                         job->multi.devices ? "devices" : "distributed");
    if ((job->prec == TSL_HALF || job->prec == TSL_BFLOAT16) &&
        (job->multi.devices || job->multi.distributed))
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: --precision %s runs on one device: not with --%s (use single "
                         "or double there)",
                         job->precision, job->multi.devices ? "devices" : "distributed");
    if (job->math_mode != TSL_MATH_FP32 && (job->multi.devices || job->multi.distributed))
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: --math %s runs on one device: not with --%s", job->math,
                         job->multi.devices ? "devices" : "distributed");
    return cli_sizes("gemm", "--size", job->size, &job->sizes, 1024);
}

int cli_cmd_gemm(int argc, char **argv)
{
    gemm_job job;
    memset(&job, 0, sizeof job);
    job.variant = "auto";
    job.precision = "single";
    job.math = "fp32";
    job.form = "4m";
    job.layout = "row";
    job.transa = job.transb = "n";
    job.s.repeat = 10;
    job.s.warmup = 2;
    job.alpha = 1.0;
    job.beta = 0.0;
    job.seed = 42;
    job.tolerance = NAN;
    job.multi.timeout = NAN;

    const cli_option opts[] = {
        CLI_OPT_DEVICE(&job.device),
        CLI_OPT_VARIANT(&job.variant),
        {"--precision", NULL, CLI_STRING, &job.precision, "P",
         "single, double, half (binary16 storage, float arithmetic), bfloat16 (bfloat16 "
         "storage, float arithmetic), complex or doublecomplex (tsl_cgemm, tsl_zgemm); default "
         "single"},
        {"--math", NULL, CLI_STRING, &job.math, "M",
         "fp32, tf32 or 3xtf32: how single precision computes (TF32 tensor cores: one product "
         "of TF32-rounded inputs, or three for FP32's accuracy); default fp32"},
        {"--form", NULL, CLI_STRING, &job.form, "F",
         "4m or 3m (complex): the product as one real GEMM of 4mnk multiply-adds, or three of "
         "mnk (the complex_gemm variant; cublas runs cublas[CZ]gemm3m); default 4m"},
        {"--size", NULL, CLI_COUNT, &job.size, "N", "m = n = k = N; default 1024"},
        {"--sizes", NULL, CLI_SIZE_LIST, &job.sizes, "A,B,...", "several square sizes, in turn"},
        {"-m", NULL, CLI_COUNT, &job.m, "M", "rows of C (overrides --size for m)"},
        {"-n", NULL, CLI_COUNT, &job.n, "N", "columns of C (overrides --size for n)"},
        {"-k", NULL, CLI_COUNT, &job.k, "K", "inner dimension (overrides --size for k)"},
        {"--layout", NULL, CLI_STRING, &job.layout, "L", "row or col (major); default row"},
        {"--transa", NULL, CLI_STRING, &job.transa, "T",
         "n, t or c (complex): op(A) = A, A^T or A^H; default n"},
        {"--transb", NULL, CLI_STRING, &job.transb, "T",
         "n, t or c (complex): op(B) = B, B^T or B^H; default n"},
        {"--alpha", NULL, CLI_REAL, &job.alpha, "X", "alpha (its real part); default 1"},
        {"--beta", NULL, CLI_REAL, &job.beta, "X",
         "beta (its real part); default 0 (C is not read)"},
        {"--alpha-im", NULL, CLI_REAL, &job.alpha_im, "X",
         "imaginary part of alpha (complex precisions); default 0"},
        {"--beta-im", NULL, CLI_REAL, &job.beta_im, "X",
         "imaginary part of beta (complex precisions); default 0"},
        CLI_OPTS_RUNS(&job.s.repeat, &job.s.warmup),
        CLI_OPT_VERIFY(&job.verify),
        CLI_OPT_TOLERANCE(&job.tolerance),
        CLI_OPT_SEED(&job.seed),
        CLI_OPT_PEERS(&job.peer_names),
        CLI_OPTS_MULTI(&job.multi),
        {"--batch", NULL, CLI_COUNT, &job.batch, "B",
         "strided batched GEMM of B problems of --size (or -m -n -k) each (variants: direct, "
         "loop, tiled; peers clblast, cublas, openblas)"},
        CLI_OPTS_OUTPUT(&job.csv, &job.json, &job.quiet, &job.help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    int rc = cli_read_options("gemm", argc, argv, opts, nopts, cli_gemm_help);
    if (rc >= 0) return rc;
    if (strcmp(job.variant, "list") == 0 && job.batch) return cli_list_variants("gemm_batched");
    if (strcmp(job.variant, "list") == 0) {
        /* The build's variants; which of them have half storage is the device check's answer
         * (tsl_variant_check_precision), which --variant all --precision half reports. */
        if (strcmp(job.precision, "half") == 0 || strcmp(job.precision, "bfloat16") == 0)
            cli_note("with --precision %s, a variant without 16-bit storage is a skipped row "
                     "under --variant all (tessel gemm --variant all --precision %s shows "
                     "which)",
                     job.precision, job.precision);
        return cli_list_variants("gemm");
    }
    if ((rc = parse_math(&job))) return rc;
    if (job.batch && (strcmp(job.precision, "complex") == 0 ||
                      strcmp(job.precision, "doublecomplex") == 0))
        return cli_error(CLI_EXIT_USAGE,
                         "gemm: --batch runs real precisions (complex batches: the library's "
                         "tsl_[cz]gemm_batched)");
    if (job.batch) { /* strided batched GEMM: cli/cmd_blas3.c */
        cli_batched_opts bo = {job.device, job.variant, job.precision, job.layout, job.transa,
                               job.transb, job.csv, job.json, &job.sizes, job.size, job.m,
                               job.n, job.k, job.batch, job.seed, job.s.repeat, job.s.warmup,
                               job.alpha, job.beta, job.tolerance, job.verify, job.quiet,
                               &job.peer_names};
        return cli_gemm_batched(&bo);
    }
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
    if (job.multi.devices || job.multi.distributed) { /* several devices: cli/multi.c */
        cli_multi_gemm_case mc[CLI_MAX_LIST];
        for (size_t i = 0; i < ncases; ++i)
            mc[i] = (cli_multi_gemm_case){cases[i].m,   cases[i].n,   cases[i].k,
                                          cases[i].lda, cases[i].ldb, cases[i].ldc,
                                          cases[i].ea,  cases[i].eb,  cases[i].ec};
        cli_multi_opts *mo = &job.multi;
        mo->device = job.device, mo->variant = job.variant, mo->is_double = job.is_double;
        mo->es = job.es, mo->verify = job.verify, mo->tolerance = job.tolerance;
        mo->repeat = job.s.repeat, mo->warmup = job.s.warmup, mo->seed = job.seed;
        mo->csv = job.csv, mo->json = job.json, mo->quiet = job.quiet;
        return cli_multi_gemm(mo, job.lay, job.ta, job.tb, job.alpha, job.beta, mc, ncases);
    }

    rc = cli_session_open(&job.s, job.csv, job.json, job.quiet,
                          "variant,precision,m,n,k,kernel_ms,gflops,build_ms,max_rel_err,status,"
                          "device",
                          job.device, job.is_double);
    if (rc) return rc;
    for (size_t i = 0; !rc && i < ncases; ++i)
        rc = check_memory(&job, &cases[i]);
    if (!rc && job.math_mode != TSL_MATH_FP32 &&
        tsl_context_set_option(job.s.ctx, "gemm", "math", (long)job.math_mode) != TSL_OK)
        rc = cli_error(CLI_EXIT_RUNTIME, "gemm: --math %s: %s", job.math,
                       tsl_context_error(job.s.ctx));
    if (!rc && job.form3m && tsl_context_set_variant(job.s.ctx, "complex_gemm", "3m") != TSL_OK)
        rc = cli_error(CLI_EXIT_RUNTIME, "gemm: --form 3m: %s", tsl_context_error(job.s.ctx));
    /* Which variants this device runs; one that was asked for by name must run. */
    if (!rc) rc = cli_variants_check(&job.vs, &job.s, "gemm");
    if (rc) return cli_session_abort(&job.s, rc);

    snprintf(job.s.title, sizeof job.s.title,
             "gemm on %s (%d:%d, %s), %s precision, %s-major, op(A)=%s, "
             "op(B)=%s, alpha=%g, beta=%g",
             job.s.dev.name, job.s.dev.platform_index, job.s.dev.device_index, job.s.dev.platform,
             row_precision(&job), job.lay == TSL_COL_MAJOR ? "col" : "row",
             job.ta == TSL_TRANS ? "A^T" : job.ta == TSL_CONJ_TRANS ? "A^H" : "A",
             job.tb == TSL_TRANS ? "B^T" : job.tb == TSL_CONJ_TRANS ? "B^H" : "B", job.alpha,
             job.beta);
    if (job.cplx)
        snprintf(job.s.title + strlen(job.s.title), sizeof job.s.title - strlen(job.s.title),
                 ", alpha_im=%g, beta_im=%g", job.alpha_im, job.beta_im);
    for (size_t i = 0; i < ncases; ++i)
        run_case(&job, &cases[i], i, ncases);
    return cli_session_close(&job.s);
}
