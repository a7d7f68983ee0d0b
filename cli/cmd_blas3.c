/* cmd_blas3.c: `tessel blas3 --op symm|syrk|syr2k|trmm|trsm` (with --precision complex or
 * doublecomplex also hemm, herk, her2k: the complex routines, cli/blas3_complex.c), and the runner
 * of `tessel gemm --batch` (strided batched GEMM, blas3_cli.h): one device, random data per size
 * uploaded once, each variant (the routine's table: tsl_variant_name("trsm", i), ...) timed as
 * --warmup untimed and --repeat timed calls of the tsl_X_buf routine (kernel_ms: the median of the
 * per-call kernel times of tsl_context_timing, every kernel of the call: the GEMMs and the small
 * kernels), then the peers (CLBlast, cuBLAS, OpenBLAS) on the same data, rows of the same table.
 *
 * The output (C; B of TRMM and TRSM) is rewritten before every call that reads it (TRMM and TRSM
 * always, the others when beta != 0); with beta == 0 it starts as NaN, so an element the routine
 * forgets fails --verify. TRSM's triangle is diagonally dominant (off-diagonal elements in [-1, 1)
 * / ka, diagonal of magnitude 1 to 2), so the solve is well conditioned and --verify meaningful;
 * the other routines take uniform random data in [-1, 1).
 *
 * GFLOP/s counts each routine's own flops (2 per multiply-add of its definition; docs/level3.md):
 * SYMM 2 m^2 n (left) or 2 m n^2 (right); SYRK n (n + 1) k; SYR2K 2 n (n + 1) k; TRMM and TRSM m^2
 * n (left) or m n^2 (right); batched GEMM 2 m n k per problem. --verify compares the referenced
 * part of the output (SYRK/SYR2K: the uplo triangle) with OpenBLAS in double: pass below
 * tsl_ref_gemm_tolerance of the inner dimension (2k for SYR2K), and for TRSM 1e-6 (single) or
 * 1e-14 (double) times ka. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "blas3_cli.h"
#include "commands.h"
#include "common.h"
#include "measure.h"
#include "output.h"
#include "peer_blas3.h"
#include "ref/ref.h"
#include "ref/ref_level3.h"
#include "tessel.h"

#define MAX_RUNS 1000000u
#define OP_BATCHED 5 /* after tsl_l3_op's values */

static const char *const op_names[] = {"symm", "syrk", "syr2k", "trmm", "trsm", "gemm_batched"};

typedef struct {
    const char *cmd;
    int op; /* tsl_l3_op or OP_BATCHED */
    int is_double;
    int cplx, herm;  /* --precision complex|doublecomplex; hemm, herk, her2k (op: symm's, ...) */
    double alpha_i, beta_i;
    size_t es;       /* an element's bytes (a complex element's with cplx) */
    tsl_layout lay;
    tsl_side side;
    tsl_uplo uplo;
    tsl_trans trans, transb;
    tsl_diag diag;
    double alpha, beta, tolerance;
    int verify;
    size_t seed, block, inv_block, inv_fuse, streams, batch;
    const char *peers[CLI_MAX_LIST];
    int peer_noted[CLI_MAX_LIST];
    size_t npeers;
    cli_variants vs;
    cli_session s;
} l3_job;

/* One size: shapes, leading dimensions, element counts, host data. */
typedef struct {
    size_t m, n, k, ka;          /* ka: the order of A (SYMM, TRMM, TRSM) */
    size_t lda, ldb, ldc;        /* ldc: the output's (B's for TRMM/TRSM) */
    size_t sa, sb, sc;           /* batched strides */
    size_t ea, eb, ec;           /* elements */
    void *a, *b, *c0, *out;
    double *ref;
    double *times;
    tsl_buffer *da, *db, *dc;
    double upload_ms;
} l3_case;

static const char *op_name(const l3_job *j)
{
    static const char *const herm_names[] = {"hemm", "herk", "her2k"};
    return j->herm ? herm_names[j->op] : op_names[j->op];
}

/* The complex case as the reference, the library call and the peers take it. */
static tsl_ref_z3_call z3_of(const l3_job *j, const l3_case *c)
{
    static const tsl_ref_z3_op ops[] = {TSL_REF_SYMM, TSL_REF_SYRK, TSL_REF_SYR2K, TSL_REF_TRMM,
                                        TSL_REF_TRSM};
    tsl_ref_z3_op op = ops[j->op];
    if (j->herm) op = op == TSL_REF_SYMM ? TSL_REF_HEMM : op == TSL_REF_SYRK ? TSL_REF_HERK
                                                                             : TSL_REF_HER2K;
    tsl_ref_z3_call z = {op,     j->lay, j->side, j->uplo, j->trans, j->diag,
                         c->m,   c->n,   c->k,    c->lda,  c->ldb,   c->ldc,
                         {j->alpha, j->alpha_i}, {j->beta, j->beta_i}};
    return z;
}

static int is_trxm(const l3_job *j)
{
    return j->op == TSL_L3_TRMM || j->op == TSL_L3_TRSM;
}

static size_t ld_of(tsl_layout lay, size_t rows, size_t cols)
{
    size_t v = lay == TSL_ROW_MAJOR ? cols : rows;
    return v ? v : 1;
}
static size_t elems_of(tsl_layout lay, size_t rows, size_t cols, size_t ld)
{
    size_t lines = lay == TSL_ROW_MAJOR ? rows : cols;
    return rows && cols ? lines * ld : 0;
}

/* Shapes of the operands in the routine's terms; returns 0, or a usage error on overflow. */
static int make_case(l3_job *j, size_t m, size_t n, size_t k, l3_case *c)
{
    memset(c, 0, sizeof *c);
    c->m = m, c->n = n, c->k = k;
    size_t ar, ac, br = 0, bc = 0, cr, cc;
    if (j->op == OP_BATCHED) {
        ar = j->trans == TSL_NO_TRANS ? m : k, ac = j->trans == TSL_NO_TRANS ? k : m;
        br = j->transb == TSL_NO_TRANS ? k : n, bc = j->transb == TSL_NO_TRANS ? n : k;
        cr = m, cc = n;
    } else if (j->op == TSL_L3_SYRK || j->op == TSL_L3_SYR2K) {
        c->m = n;
        ar = j->trans == TSL_NO_TRANS ? n : k, ac = j->trans == TSL_NO_TRANS ? k : n;
        if (j->op == TSL_L3_SYR2K) br = ar, bc = ac;
        cr = cc = n;
    } else {
        c->ka = j->side == TSL_LEFT ? m : n;
        ar = ac = c->ka;
        if (j->op == TSL_L3_SYMM) br = m, bc = n;
        cr = m, cc = n;
    }
    c->lda = ld_of(j->lay, ar, ac), c->ldb = ld_of(j->lay, br, bc), c->ldc = ld_of(j->lay, cr, cc);
    c->ea = elems_of(j->lay, ar, ac, c->lda);
    c->eb = br ? elems_of(j->lay, br, bc, c->ldb) : 0;
    c->ec = elems_of(j->lay, cr, cc, c->ldc);
    size_t lim = SIZE_MAX / j->es / (j->batch ? j->batch : 1);
    if (m > INT_MAX || n > INT_MAX || k > INT_MAX || c->ea > lim || c->eb > lim || c->ec > lim)
        return cli_error(CLI_EXIT_USAGE, "%s: sizes %zu x %zu x %zu are too large", j->cmd, m, n, k);
    if (j->op == OP_BATCHED) { /* problems one after the other, tight */
        c->sa = c->ea, c->sb = c->eb, c->sc = c->ec;
        c->ea *= j->batch, c->eb *= j->batch, c->ec *= j->batch;
    }
    return 0;
}

static double real_flops(const l3_job *j, const l3_case *c)
{
    double m = (double)c->m, n = (double)c->n, k = (double)c->k;
    switch (j->op) {
    case TSL_L3_SYMM:
        return j->side == TSL_LEFT ? 2 * m * m * n : 2 * m * n * n;
    case TSL_L3_SYRK:
        return n * (n + 1) * k;
    case TSL_L3_SYR2K:
        return 2 * n * (n + 1) * k;
    case TSL_L3_TRMM:
    case TSL_L3_TRSM:
        return j->side == TSL_LEFT ? m * m * n : m * n * n;
    default:
        return 2 * m * n * k * (double)j->batch;
    }
}

/* The routine's flops; a complex multiply-add is 8 (4 multiplications, 4 additions), not 2. */
static double flops_of(const l3_job *j, const l3_case *c)
{
    return real_flops(j, c) * (j->cplx ? 4 : 1);
}

/* Whether output element i (of the storage) is referenced: the uplo triangle for SYRK/SYR2K, the
 * matrix (not the padding) otherwise; every element for the tight layouts used here. */
static int referenced(const l3_job *j, const l3_case *c, size_t i)
{
    if (j->op != TSL_L3_SYRK && j->op != TSL_L3_SYR2K) return 1;
    size_t line = i / c->ldc, pos = i % c->ldc; /* row-major: (line, pos); col-major: (pos, line) */
    size_t r = j->lay == TSL_ROW_MAJOR ? line : pos, col = j->lay == TSL_ROW_MAJOR ? pos : line;
    return j->uplo == TSL_LOWER ? col <= r : col >= r;
}

static void set_common(const l3_job *j, const l3_case *c, const char *variant, cli_row *row)
{
    cli_row_start(&j->s, op_name(j), variant, row);
    row->precision = j->cplx ? (j->is_double ? "doublecomplex" : "complex")
                             : j->is_double ? "double" : "single";
    if (j->op != TSL_L3_SYRK && j->op != TSL_L3_SYR2K) row->m = (long long)c->m;
    row->n = (long long)c->n;
    if (j->op == TSL_L3_SYRK || j->op == TSL_L3_SYR2K || j->op == OP_BATCHED)
        row->k = (long long)c->k;
}

static void set_verdict(l3_job *j, const l3_case *c, const void *out, cli_row *row)
{
    row->status = "ok";
    if (!c->ref) return;
    double num = 0, den = 0;
    size_t parts = j->cplx ? 2 : 1; /* the reals of an element */
    for (size_t i = 0; i < c->ec * parts; ++i) {
        if (!referenced(j, c, i / parts)) continue;
        double v = j->is_double ? ((const double *)out)[i] : ((const float *)out)[i];
        double d = v - c->ref[i];
        num += d * d, den += c->ref[i] * c->ref[i];
    }
    double err = isnan(num) ? NAN : den > 0 ? sqrt(num / den) : sqrt(num);
    double tol = j->tolerance;
    if (isnan(tol)) {
        if (j->op == TSL_L3_TRSM)
            tol = (j->is_double ? 1e-14 : 1e-6) * (double)(c->ka > 16 ? c->ka : 16);
        else /* a complex product's parts are real sums of twice the terms */
            tol = tsl_ref_gemm_tolerance(j->is_double,
                                         parts * (j->op == TSL_L3_SYR2K ? 2 * c->k
                                                  : j->op == TSL_L3_SYRK || j->op == OP_BATCHED
                                                      ? c->k
                                                      : c->ka));
    }
    row->max_rel_err = err;
    if (!(err <= tol)) {
        row->status = "verify_failed";
        j->s.any_failed = 1;
    }
}

static void row_error(l3_job *j, const l3_case *c, const char *what, const char *msg)
{
    cli_error(CLI_EXIT_RUNTIME, "%s %s at %zux%zux%zu: %s", op_name(j), what, c->m, c->n, c->k,
              msg);
    j->s.any_error = 1;
}

static tsl_status call_op(l3_job *j, const l3_case *c)
{
    tsl_context *x = j->s.ctx;
    tsl_buffer *a = c->da, *b = c->db, *o = c->dc;
    double al = j->alpha, be = j->beta;
    float fa = (float)al, fb = (float)be;
    int d = j->is_double;
    if (j->cplx) {
        tsl_ref_z3_call z = z3_of(j, c);
        return cli_blas3_zcall(x, &z, d, a, b, o);
    }
    switch (j->op) {
    case TSL_L3_SYMM:
        return d ? tsl_dsymm_buf(x, j->lay, j->side, j->uplo, c->m, c->n, al, a, c->lda, b, c->ldb,
                                 be, o, c->ldc)
                 : tsl_ssymm_buf(x, j->lay, j->side, j->uplo, c->m, c->n, fa, a, c->lda, b, c->ldb,
                                 fb, o, c->ldc);
    case TSL_L3_SYRK:
        return d ? tsl_dsyrk_buf(x, j->lay, j->uplo, j->trans, c->n, c->k, al, a, c->lda, be, o,
                                 c->ldc)
                 : tsl_ssyrk_buf(x, j->lay, j->uplo, j->trans, c->n, c->k, fa, a, c->lda, fb, o,
                                 c->ldc);
    case TSL_L3_SYR2K:
        return d ? tsl_dsyr2k_buf(x, j->lay, j->uplo, j->trans, c->n, c->k, al, a, c->lda, b,
                                  c->ldb, be, o, c->ldc)
                 : tsl_ssyr2k_buf(x, j->lay, j->uplo, j->trans, c->n, c->k, fa, a, c->lda, b,
                                  c->ldb, fb, o, c->ldc);
    case TSL_L3_TRMM:
        return d ? tsl_dtrmm_buf(x, j->lay, j->side, j->uplo, j->trans, j->diag, c->m, c->n, al, a,
                                 c->lda, o, c->ldc)
                 : tsl_strmm_buf(x, j->lay, j->side, j->uplo, j->trans, j->diag, c->m, c->n, fa, a,
                                 c->lda, o, c->ldc);
    case TSL_L3_TRSM:
        return d ? tsl_dtrsm_buf(x, j->lay, j->side, j->uplo, j->trans, j->diag, c->m, c->n, al, a,
                                 c->lda, o, c->ldc)
                 : tsl_strsm_buf(x, j->lay, j->side, j->uplo, j->trans, j->diag, c->m, c->n, fa, a,
                                 c->lda, o, c->ldc);
    default:
        return d ? tsl_dgemm_batched_buf(x, j->lay, j->trans, j->transb, c->m, c->n, c->k, al, a,
                                         c->lda, c->sa, b, c->ldb, c->sb, be, o, c->ldc, c->sc,
                                         j->batch)
                 : tsl_sgemm_batched_buf(x, j->lay, j->trans, j->transb, c->m, c->n, c->k, fa, a,
                                         c->lda, c->sa, b, c->ldb, c->sb, fb, o, c->ldc, c->sc,
                                         j->batch);
    }
}

typedef struct {
    l3_job *j;
    l3_case *c;
    int rewrite;
} l3_call;

static tsl_status call_timed(void *arg, unsigned run, double *ms)
{
    (void)ms;
    l3_call *k = arg;
    tsl_status st = TSL_OK;
    if (run > 0 && k->rewrite && k->c->ec)
        st = tsl_buffer_write(k->j->s.ctx, k->c->dc, 0, k->c->ec * k->j->es, k->c->c0);
    return st == TSL_OK ? call_op(k->j, k->c) : st;
}

static void run_variant(l3_job *j, l3_case *c, size_t vi)
{
    const char *v = j->vs.name[vi];
    cli_row row;
    set_common(j, c, v, &row);
    if (!cli_variant_row(&j->s, &j->vs, vi, &row)) return;
    /* the complex routines have one algorithm each: their row is auto */
    tsl_status st = j->cplx ? TSL_OK : tsl_context_set_variant(j->s.ctx, op_names[j->op], v);
    int rewrite = is_trxm(j) || j->beta != 0.0;
    if (rewrite)
        memcpy(c->out, c->c0, c->ec * j->es);
    else
        cli_fill_nan(j->is_double, c->out, c->ec * (j->cplx ? 2 : 1));
    if (st == TSL_OK && c->ec) st = tsl_buffer_write(j->s.ctx, c->dc, 0, c->ec * j->es, c->out);
    l3_call k = {j, c, rewrite};
    if (st == TSL_OK)
        st = cli_time_runs(&j->s, call_timed, &k, c->times, &row, j->vs.check_build_ms[vi], NULL);
    if (st == TSL_OK && c->ec) st = cli_read_back(&j->s, c->dc, c->ec * j->es, c->out, &row);
    if (cli_variant_skip(&j->s, &j->vs, st, v, &row)) return;
    if (st != TSL_OK) {
        char msg[1200];
        cli_status_text(&j->s, st, msg, sizeof msg);
        row_error(j, c, v, msg);
        cli_report_row(j->s.rep, &row);
        return;
    }
    double ms = cli_median(c->times, j->s.repeat);
    row.kernel_ms = ms;
    if (ms > 0) row.gflops = flops_of(j, c) / (ms * 1e6);
    row.upload_ms = c->upload_ms;
    set_verdict(j, c, c->out, &row);
    cli_report_row(j->s.rep, &row);
}

static void run_peer(l3_job *j, l3_case *c, size_t pi)
{
    cli_row row;
    set_common(j, c, j->peers[pi], &row);
    tsl_peer_result res;
    res.run_ms = c->times;
    res.c = c->out;
    if (j->op == OP_BATCHED) {
        tsl_batched_peer_args g = {j->s.ctx, j->is_double, j->lay,   j->trans, j->transb, c->m,
                                   c->n,     c->k,         j->alpha, j->beta,  c->a,      c->lda,
                                   c->sa,    c->b,         c->ldb,   c->sb,    c->c0,     c->ldc,
                                   c->sc,    j->batch,     c->ea,    c->eb,    c->ec,     j->s.warmup,
                                   (unsigned)j->s.repeat};
        tsl_batched_peer_run(j->peers[pi], &g, &res);
    } else {
        tsl_l3_peer_args g = {j->s.ctx, (tsl_l3_op)j->op, j->is_double, j->lay,  j->side,
                              j->uplo,  j->trans,         j->diag,      c->m,     c->n,
                              c->k,     j->alpha,         j->beta,      c->a,     c->lda,
                              c->b,     c->ldb,           c->c0,        c->ldc,   c->ea,
                              c->eb,    c->ec,            j->s.warmup,  (unsigned)j->s.repeat,
                              j->cplx,  z3_of(j, c).op,   j->alpha_i,   j->beta_i};
        tsl_l3_peer_run(j->peers[pi], &g, &res);
    }
    int got = cli_peer_row(&res, j->peers[pi], &j->peer_noted[pi], &row);
    if (got < 0) row_error(j, c, j->peers[pi], res.reason);
    if (got > 0) {
        double ms = cli_median(c->times, j->s.repeat);
        row.kernel_ms = ms;
        if (ms > 0) row.gflops = flops_of(j, c) / (ms * 1e6);
        set_verdict(j, c, c->out, &row);
    }
    cli_report_row(j->s.rep, &row);
}

static void free_case(l3_case *c)
{
    tsl_buffer_destroy(c->da), tsl_buffer_destroy(c->db), tsl_buffer_destroy(c->dc);
    c->da = c->db = c->dc = NULL;
    free(c->a), free(c->b), free(c->c0), free(c->out), free(c->ref), free(c->times);
}

static void case_failed(l3_job *j, l3_case *c, const char *what)
{
    row_error(j, c, "setup", what);
    cli_row row;
    for (size_t i = 0; i < j->vs.n + j->npeers; ++i) {
        set_common(j, c, i < j->vs.n ? j->vs.name[i] : j->peers[i - j->vs.n], &row);
        cli_report_row(j->s.rep, &row);
    }
}

/* TRSM's triangle: off-diagonal / ka, diagonal +-(1 + |x|) (complex: its real part; the
 * imaginary parts / ka), so it is well conditioned. */
static void condition_trsm(l3_job *j, l3_case *c)
{
    size_t parts = j->cplx ? 2 : 1;
    for (size_t i = 0; i < c->ka; ++i)
        for (size_t e = 0; e < c->ka * parts; ++e) {
            size_t l = e / parts;
            size_t idx = i * c->lda * parts + e; /* square: alike in both layouts for this */
            double v = j->is_double ? ((double *)c->a)[idx] : ((float *)c->a)[idx];
            v = i == l && e % parts == 0 ? (v < 0 ? v - 1.0 : v + 1.0) : v / (double)c->ka;
            if (j->is_double)
                ((double *)c->a)[idx] = v;
            else
                ((float *)c->a)[idx] = (float)v;
        }
}

static void reference(l3_job *j, l3_case *c)
{
    size_t parts = j->cplx ? 2 : 1;
    double *a = cli_to_double(j->is_double, c->a, c->ea * parts);
    double *b = cli_to_double(j->is_double, c->b, c->eb * parts);
    double *r = cli_to_double(j->is_double, c->c0, c->ec * parts);
    double al = j->is_double ? j->alpha : (double)(float)j->alpha;
    double be = j->is_double ? j->beta : (double)(float)j->beta;
    if (a && b && r && j->cplx) { /* cblas_z* on the values the device gets */
        tsl_ref_z3_call z = z3_of(j, c);
        for (int q = 0; q < 2 && !j->is_double; ++q)
            z.alpha[q] = (float)z.alpha[q], z.beta[q] = (float)z.beta[q];
        tsl_ref_z3(&z, 0, a, b, r);
        c->ref = r;
        r = NULL;
    } else if (a && b && r) {
        switch (j->op) {
        case TSL_L3_SYMM:
            tsl_ref_dsymm(j->lay, j->side, j->uplo, c->m, c->n, al, a, c->lda, b, c->ldb, be, r,
                          c->ldc);
            break;
        case TSL_L3_SYRK:
            tsl_ref_dsyrk(j->lay, j->uplo, j->trans, c->n, c->k, al, a, c->lda, be, r, c->ldc);
            break;
        case TSL_L3_SYR2K:
            tsl_ref_dsyr2k(j->lay, j->uplo, j->trans, c->n, c->k, al, a, c->lda, b, c->ldb, be, r,
                           c->ldc);
            break;
        case TSL_L3_TRMM:
            tsl_ref_dtrmm(j->lay, j->side, j->uplo, j->trans, j->diag, c->m, c->n, al, a, c->lda, r,
                          c->ldc);
            break;
        case TSL_L3_TRSM:
            tsl_ref_dtrsm(j->lay, j->side, j->uplo, j->trans, j->diag, c->m, c->n, al, a, c->lda, r,
                          c->ldc);
            break;
        default:
            for (size_t p = 0; p < j->batch; ++p)
                tsl_ref_dgemm(j->lay, j->trans, j->transb, c->m, c->n, c->k, al, a + p * c->sa,
                              c->lda, b + p * c->sb, c->ldb, be, r + p * c->sc, c->ldc);
        }
        c->ref = r;
        r = NULL;
    }
    free(a), free(b), free(r);
}

static void run_case(l3_job *j, l3_case *c, size_t index, size_t total)
{
    size_t es = j->es;
    c->a = malloc(c->ea ? c->ea * es : es);
    c->b = malloc(c->eb ? c->eb * es : es);
    c->c0 = malloc(c->ec ? c->ec * es : es);
    c->out = malloc(c->ec ? c->ec * es : es);
    c->times = malloc(j->s.repeat * sizeof *c->times);
    if (!c->a || !c->b || !c->c0 || !c->out || !c->times) {
        case_failed(j, c, "out of host memory");
        free_case(c);
        return;
    }
    unsigned long long state = j->seed + 0x9E3779B97F4A7C15ull * (index + 1);
    size_t parts = j->cplx ? 2 : 1;
    cli_fill_random(j->is_double, c->a, c->ea * parts, &state);
    cli_fill_random(j->is_double, c->b, c->eb * parts, &state);
    cli_fill_random(j->is_double, c->c0, c->ec * parts, &state);
    if (j->op == TSL_L3_TRSM) condition_trsm(j, c);
    if (j->verify) {
        cli_progress("%s: CPU reference", op_name(j));
        reference(j, c);
        if (!c->ref) {
            case_failed(j, c, "out of host memory for the --verify reference");
            free_case(c);
            return;
        }
    }
    if (j->vs.n) {
        tsl_timing t;
        tsl_status st = tsl_buffer_create(j->s.ctx, c->ea ? c->ea * es : es, &c->da);
        if (st == TSL_OK) st = tsl_buffer_create(j->s.ctx, c->eb ? c->eb * es : es, &c->db);
        if (st == TSL_OK) st = tsl_buffer_create(j->s.ctx, c->ec ? c->ec * es : es, &c->dc);
        if (st == TSL_OK && c->ea) {
            st = tsl_buffer_write(j->s.ctx, c->da, 0, c->ea * es, c->a);
            if (st == TSL_OK && tsl_context_timing(j->s.ctx, &t) == TSL_OK) c->upload_ms += t.upload_ms;
        }
        if (st == TSL_OK && c->eb) {
            st = tsl_buffer_write(j->s.ctx, c->db, 0, c->eb * es, c->b);
            if (st == TSL_OK && tsl_context_timing(j->s.ctx, &t) == TSL_OK) c->upload_ms += t.upload_ms;
        }
        if (st != TSL_OK) {
            char msg[1200] = "device buffers: ";
            cli_status_text(&j->s, st, msg + strlen(msg), sizeof msg - strlen(msg));
            case_failed(j, c, msg);
            free_case(c);
            return;
        }
        for (size_t i = 0; i < j->vs.n; ++i) {
            cli_progress("%s %zu/%zu: %s", op_name(j), index + 1, total, j->vs.name[i]);
            run_variant(j, c, i);
        }
        tsl_buffer_destroy(c->da), tsl_buffer_destroy(c->db), tsl_buffer_destroy(c->dc);
        c->da = c->db = c->dc = NULL;
    }
    for (size_t i = 0; i < j->npeers; ++i) {
        cli_progress("%s %zu/%zu: peer %s", op_name(j), index + 1, total, j->peers[i]);
        run_peer(j, c, i);
    }
    free_case(c);
}

static const char *peer_name(size_t i)
{
    static const char *const names[] = {"clblast", "cublas", "openblas"};
    return i < 3 ? names[i] : NULL;
}

/* Opens the device and runs every size; returns the exit code. */
static int run_job(l3_job *j, const char *device, const char *csv, const char *json, int quiet,
                   const size_t *ms, const size_t *ns, const size_t *ks, size_t ncases)
{
    int rc = cli_session_open(&j->s, csv, json, quiet,
                              "variant,precision,m,n,k,kernel_ms,gflops,build_ms,max_rel_err,"
                              "status,device",
                              device, j->is_double);
    if (rc) return rc;
    if (j->block && j->op != OP_BATCHED && j->op != TSL_L3_SYMM &&
        tsl_context_set_option(j->s.ctx, op_names[j->op], "block", (long)j->block) != TSL_OK) {
        cli_error(CLI_EXIT_USAGE, "%s: --block: %s", j->cmd, tsl_context_error(j->s.ctx));
        return cli_session_abort(&j->s, CLI_EXIT_USAGE);
    }
    /* TRSM's options, where given */
    const struct {
        const char *flag, *option;
        size_t value;
    } trsm_opts[] = {{"--inv-block", "inv_block", j->inv_block},
                     {"--inv-fuse", "inv_fuse", j->inv_fuse},
                     {"--streams", "streams", j->streams}};
    for (size_t i = 0; j->op == TSL_L3_TRSM && i < sizeof trsm_opts / sizeof trsm_opts[0]; ++i)
        if (trsm_opts[i].value && tsl_context_set_option(j->s.ctx, "trsm", trsm_opts[i].option,
                                                         (long)trsm_opts[i].value) != TSL_OK) {
            cli_error(CLI_EXIT_USAGE, "%s: %s: %s", j->cmd, trsm_opts[i].flag,
                      tsl_context_error(j->s.ctx));
            return cli_session_abort(&j->s, CLI_EXIT_USAGE);
        }
    if (j->cplx) /* one algorithm a routine: its row is auto, nothing to check */
        j->vs.ok[0] = 1;
    else if ((rc = cli_variants_check(&j->vs, &j->s, j->cmd)))
        return cli_session_abort(&j->s, rc);
    if (j->op == OP_BATCHED)
        snprintf(j->s.title, sizeof j->s.title,
                 "gemm --batch %zu on %s (%d:%d, %s), %s precision, %s-major, op(A)=%s, "
                 "op(B)=%s, alpha=%g, beta=%g",
                 j->batch, j->s.dev.name, j->s.dev.platform_index, j->s.dev.device_index,
                 j->s.dev.platform, j->is_double ? "double" : "single",
                 j->lay == TSL_COL_MAJOR ? "col" : "row", j->trans == TSL_TRANS ? "A^T" : "A",
                 j->transb == TSL_TRANS ? "B^T" : "B", j->alpha, j->beta);
    else
        snprintf(j->s.title, sizeof j->s.title,
                 "%s on %s (%d:%d, %s), %s precision, %s-major, side=%s, uplo=%s, trans=%s, "
                 "diag=%s, alpha=%g%+gi, beta=%g%+gi",
                 op_name(j), j->s.dev.name, j->s.dev.platform_index, j->s.dev.device_index,
                 j->s.dev.platform,
                 j->cplx ? (j->is_double ? "doublecomplex" : "complex")
                         : (j->is_double ? "double" : "single"),
                 j->lay == TSL_COL_MAJOR ? "col" : "row", j->side == TSL_LEFT ? "left" : "right",
                 j->uplo == TSL_LOWER ? "lower" : "upper",
                 j->trans == TSL_TRANS ? "t" : j->trans == TSL_CONJ_TRANS ? "c" : "n",
                 j->diag == TSL_UNIT ? "unit" : "non-unit", j->alpha, j->alpha_i, j->beta,
                 j->beta_i);
    for (size_t i = 0; i < ncases; ++i) {
        l3_case c;
        if ((rc = make_case(j, ms[i], ns[i], ks[i], &c))) return cli_session_abort(&j->s, rc);
        run_case(j, &c, i, ncases);
    }
    return cli_session_close(&j->s);
}

/* Usage checks shared by both commands: precision, runs, tolerance, variants of op, peers. */
static int check_common(l3_job *j, const char *precision, const char *variant, size_t repeat,
                        unsigned warmup, const cli_name_list *peers)
{
    int rc = 0;
    j->cplx = strcmp(precision, "complex") == 0 || strcmp(precision, "doublecomplex") == 0;
    if (j->cplx && j->op != OP_BATCHED) {
        j->is_double = precision[0] == 'd';
        j->es = 2 * (j->is_double ? sizeof(double) : sizeof(float));
        if (strcmp(variant, "auto") != 0)
            return cli_error(CLI_EXIT_USAGE,
                             "%s: the complex routines have one algorithm each: --variant auto "
                             "(not %s)",
                             j->cmd, variant);
    } else if ((rc = cli_parse_precision(j->cmd, precision, &j->is_double, &j->es))) {
        return rc;
    }
    if ((rc = cli_check_runs(j->cmd, repeat, warmup, MAX_RUNS))) return rc;
    if (!isnan(j->tolerance) && j->tolerance < 0)
        return cli_error(CLI_EXIT_USAGE, "%s: --tolerance must not be negative", j->cmd);
    if ((rc = cli_variants_select(&j->vs, op_names[j->op], variant, j->cmd, 1))) return rc;
    j->s.repeat = repeat;
    j->s.warmup = warmup;
    return cli_select_peers(j->cmd, peers, peer_name, j->peers, &j->npeers);
}

/* ---- tessel gemm --batch ------------------------------------------------------------------------ */

int cli_gemm_batched(const cli_batched_opts *o)
{
    l3_job j;
    memset(&j, 0, sizeof j);
    j.cmd = "gemm";
    j.op = OP_BATCHED;
    j.alpha = o->alpha, j.beta = o->beta, j.tolerance = o->tolerance, j.verify = o->verify;
    j.seed = o->seed, j.batch = o->batch;
    int v = 0, rc;
    if ((rc = cli_parse_choice(j.cmd, "--layout", o->layout, "row", "col", TSL_ROW_MAJOR, TSL_COL_MAJOR, &v)))
        return rc;
    j.lay = (tsl_layout)v;
    if ((rc = cli_parse_choice(j.cmd, "--transa", o->transa, "n", "t", TSL_NO_TRANS, TSL_TRANS, &v))) return rc;
    j.trans = (tsl_trans)v;
    if ((rc = cli_parse_choice(j.cmd, "--transb", o->transb, "n", "t", TSL_NO_TRANS, TSL_TRANS, &v))) return rc;
    j.transb = (tsl_trans)v;
    if (strcmp(o->variant, "list") == 0) return cli_list_variants("gemm_batched");
    if ((rc = check_common(&j, o->precision, o->variant, o->repeat, o->warmup, o->peer_names)))
        return rc;
    cli_size_list sizes = *o->sizes;
    if ((rc = cli_sizes("gemm", "--size", o->size, &sizes, 64))) return rc;
    size_t ms[CLI_MAX_LIST], ns[CLI_MAX_LIST], ks[CLI_MAX_LIST];
    for (size_t i = 0; i < sizes.n; ++i) {
        ms[i] = o->m ? o->m : sizes.v[i], ns[i] = o->n ? o->n : sizes.v[i];
        ks[i] = o->k ? o->k : sizes.v[i];
        l3_case c;
        if ((rc = make_case(&j, ms[i], ns[i], ks[i], &c))) return rc;
    }
    return run_job(&j, o->device, o->csv, o->json, o->quiet, ms, ns, ks, sizes.n);
}

/* ---- tessel blas3 ------------------------------------------------------------------------------- */

static void print_help(const cli_option *opts, size_t nopts)
{
    printf("Usage: tessel blas3 --op symm|syrk|syr2k|trmm|trsm|hemm|herk|her2k [options]\n\n"
           "Runs a Level-3 BLAS routine (CBLAS semantics) on one OpenCL device for each size and\n"
           "variant, on random data, and prints one row per variant, peer and size: median kernel\n"
           "time over --repeat runs (every kernel of the call: the blocked GEMMs and the small\n"
           "diagonal-block kernels), GFLOP/s of the routine's own flops, and with --verify the\n"
           "relative error against OpenBLAS in double precision over the referenced part of the\n"
           "output.\n\n"
           "  symm   C = alpha A B + beta C (left, A m x m) or alpha B A + beta C (right), A\n"
           "         symmetric in its uplo triangle; 2 m^2 n (left) or 2 m n^2 (right) flops\n"
           "  syrk   C = alpha A A^T + beta C (trans n, A n x k) or alpha A^T A + beta C (t), the\n"
           "         uplo triangle of the n x n C; n (n + 1) k flops\n"
           "  syr2k  C = alpha (A B^T + B A^T) + beta C (or A^T B + B^T A); 2 n (n + 1) k flops\n"
           "  trmm   B = alpha op(A) B (left) or alpha B op(A) (right), A triangular; m^2 n or\n"
           "         m n^2 flops\n"
           "  trsm   B = X with op(A) X = alpha B (left) or X op(A) = alpha B (right); m^2 n or\n"
           "         m n^2 flops. The triangle is diagonally dominant (well conditioned).\n\n"
           "--precision complex|doublecomplex runs the complex routines (tsl_[cz]X_buf, CBLAS's\n"
           "types) on interleaved complex data, with hemm, herk and her2k (Hermitian: A^H, the\n"
           "conjugated mirror, a real diagonal) besides, --trans c and --alpha-im/--beta-im;\n"
           "their flops are 4 times the real counts (8 per complex multiply-add), --verify's\n"
           "bound the real one for twice the inner dimension. Peers openblas (cblas_c*, cblas_z*)\n"
           "and clblast (its C and Z routines); the complex routines have one algorithm each.\n\n"
           "Strided batched GEMM is `tessel gemm --batch B`.\n\n"
           "Options:\n");
    cli_help_options(opts, nopts, NULL);
    printf("Variants (per routine, auto first): symm: expand; syrk, syr2k: tri, recursive;\n"
           "trmm: tri, blocked; trsm: inverse, inverse_rec, inverse_leaf, blocked (docs/level3.md).\n"
           "The GEMM under them is the device's tuned gemm (auto).\n\n"
           "Output: as tessel gemm: an aligned table, or --csv/--json with the columns\n  %s\n\n"
           "Exit codes: 0 success, 1 a --verify check failed, 2 usage error, 3 runtime error.\n\n"
           "Examples:\n"
           "  tessel blas3 --op trsm -m 1024 -n 1024 --side left --uplo lower --verify "
           "--peers openblas\n"
           "  tessel blas3 --op syrk -n 4096 -k 4096 --precision double --peers clblast,cublas\n",
           cli_csv_header);
}

int cli_cmd_blas3(int argc, char **argv)
{
    l3_job j;
    memset(&j, 0, sizeof j);
    j.cmd = "blas3";
    const char *op = NULL, *device = NULL, *variant = "auto", *precision = "single";
    const char *layout = "row", *side = "left", *uplo = "lower", *trans = "n", *diag = "non-unit";
    const char *csv = NULL, *json = NULL;
    size_t size = 0, m = 0, n = 0, k = 0, repeat = 10;
    unsigned warmup = 2;
    int quiet = 0, help = 0;
    cli_size_list sizes;
    memset(&sizes, 0, sizeof sizes);
    cli_name_list peers;
    memset(&peers, 0, sizeof peers);
    j.alpha = 1.0, j.beta = 0.0, j.seed = 42, j.tolerance = NAN;
    const cli_option opts[] = {
        {"--op", NULL, CLI_STRING, &op, "OP",
         "symm, syrk, syr2k, trmm or trsm; complex also hemm, herk, her2k (required)"},
        CLI_OPTS_TARGET(&device, &variant, &precision),
        {"--size", NULL, CLI_COUNT, &size, "N", "m = n = k = N; default 1024"},
        {"--sizes", NULL, CLI_SIZE_LIST, &sizes, "A,B,...", "several square sizes, in turn"},
        {"-m", NULL, CLI_COUNT, &m, "M", "rows of B and C (symm, trmm, trsm)"},
        {"-n", NULL, CLI_COUNT, &n, "N", "columns of B and C; the order of C (syrk, syr2k)"},
        {"-k", NULL, CLI_COUNT, &k, "K", "inner dimension (syrk, syr2k)"},
        {"--side", NULL, CLI_STRING, &side, "S", "left or right (symm, trmm, trsm); default left"},
        {"--uplo", NULL, CLI_STRING, &uplo, "U", "lower or upper; default lower"},
        {"--trans", NULL, CLI_STRING, &trans, "T",
         "n, t or c (complex; herk, her2k: n or c) (syrk, syr2k, trmm, trsm); default n"},
        {"--diag", NULL, CLI_STRING, &diag, "D", "non-unit or unit (trmm, trsm); default non-unit"},
        {"--layout", NULL, CLI_STRING, &layout, "L", "row or col (major); default row"},
        {"--alpha", NULL, CLI_REAL, &j.alpha, "X", "alpha; default 1"},
        {"--beta", NULL, CLI_REAL, &j.beta, "X", "beta (symm, syrk, syr2k); default 0"},
        {"--alpha-im", NULL, CLI_REAL, &j.alpha_i, "X",
         "imaginary part of alpha (complex; not herk); default 0"},
        {"--beta-im", NULL, CLI_REAL, &j.beta_i, "X",
         "imaginary part of beta (complex symm, hemm, syrk, syr2k); default 0"},
        {"--block", NULL, CLI_COUNT, &j.block, "NB",
         "block size of the blocked routines (1 to 4096); default: the device type's"},
        {"--inv-block", NULL, CLI_COUNT, &j.inv_block, "NB",
         "trsm: the largest diagonal block inverted directly, larger ones by doubling (1 to "
         "4096); default 64"},
        {"--inv-fuse", NULL, CLI_COUNT, &j.inv_fuse, "NB",
         "trsm inverse_leaf: the largest diagonal inverse built in one launch from blocks of 64 "
         "(1 to 4096; below 128: none, a launch a step); default 256 on NVIDIA's GPUs, none "
         "elsewhere"},
        {"--streams", NULL, CLI_COUNT, &j.streams, "S",
         "trsm inverse_leaf: solve B in S parts, each on a command queue of its own, which the "
         "device runs at once (1 to 4); default 2 on GPUs where B has 3000 columns (rows, side "
         "right) or more, else 1"},
        CLI_OPTS_RUNS(&repeat, &warmup),
        CLI_OPT_VERIFY(&j.verify),
        CLI_OPT_TOLERANCE(&j.tolerance),
        CLI_OPT_SEED(&j.seed),
        CLI_OPT_PEERS(&peers),
        CLI_OPTS_OUTPUT(&csv, &json, &quiet, &help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    int rc = cli_read_options("blas3", argc, argv, opts, nopts, print_help);
    if (rc >= 0) return rc;
    if (!op)
        return cli_error(CLI_EXIT_USAGE,
                         "blas3: --op is required (symm, syrk, syr2k, trmm, trsm; complex: hemm, "
                         "herk, her2k)");
    j.op = -1;
    for (int i = 0; i < OP_BATCHED; ++i)
        if (strcmp(op, op_names[i]) == 0) j.op = i;
    static const char *const herm_ops[] = {"hemm", "herk", "her2k"}; /* symm's, syrk's, syr2k's */
    for (int i = 0; i < 3; ++i)
        if (strcmp(op, herm_ops[i]) == 0) j.op = i, j.herm = 1;
    if (j.op < 0)
        return cli_error(CLI_EXIT_USAGE,
                         "blas3: --op expects symm, syrk, syr2k, trmm, trsm, hemm, herk or her2k, "
                         "got '%s'",
                         op);
    if (strcmp(variant, "list") == 0) return cli_list_variants(op_names[j.op]);
    int v = 0;
    if ((rc = cli_parse_choice(j.cmd, "--layout", layout, "row", "col", TSL_ROW_MAJOR, TSL_COL_MAJOR, &v)))
        return rc;
    j.lay = (tsl_layout)v;
    if ((rc = cli_parse_choice(j.cmd, "--side", side, "left", "right", TSL_LEFT, TSL_RIGHT, &v))) return rc;
    j.side = (tsl_side)v;
    if ((rc = cli_parse_choice(j.cmd, "--uplo", uplo, "lower", "upper", TSL_LOWER, TSL_UPPER, &v))) return rc;
    j.uplo = (tsl_uplo)v;
    if (strcmp(trans, "c") == 0)
        v = TSL_CONJ_TRANS;
    else if ((rc = cli_parse_choice(j.cmd, "--trans", trans, "n", "t", TSL_NO_TRANS, TSL_TRANS, &v)))
        return rc;
    j.trans = (tsl_trans)v;
    if ((rc = cli_parse_choice(j.cmd, "--diag", diag, "non-unit", "unit", TSL_NON_UNIT, TSL_UNIT, &v)))
        return rc;
    j.diag = (tsl_diag)v;
    if (j.block > 4096)
        return cli_error(CLI_EXIT_USAGE, "blas3: --block expects 1 to 4096, got %zu", j.block);
    if (j.inv_block > 4096)
        return cli_error(CLI_EXIT_USAGE, "blas3: --inv-block expects 1 to 4096, got %zu",
                         j.inv_block);
    if (j.inv_fuse > 4096)
        return cli_error(CLI_EXIT_USAGE, "blas3: --inv-fuse expects 1 to 4096, got %zu",
                         j.inv_fuse);
    if (j.streams > 4)
        return cli_error(CLI_EXIT_USAGE, "blas3: --streams expects 1 to 4, got %zu", j.streams);
    if ((rc = check_common(&j, precision, variant, repeat, warmup, &peers))) return rc;
    if (!j.cplx && j.trans == TSL_CONJ_TRANS)
        return cli_error(CLI_EXIT_USAGE,
                         "blas3: --trans expects n or t (c with --precision complex or "
                         "doublecomplex)");
    if (!j.cplx && (j.herm || j.alpha_i != 0.0 || j.beta_i != 0.0))
        return cli_error(CLI_EXIT_USAGE, "blas3: %s is complex: --precision complex or doublecomplex",
                         j.herm ? op : "--alpha-im/--beta-im");
    /* syrk and syr2k take A^T, herk and her2k A^H, as CBLAS's */
    if (j.cplx && (j.op == TSL_L3_SYRK || j.op == TSL_L3_SYR2K) && j.trans != TSL_NO_TRANS &&
        (j.trans == TSL_CONJ_TRANS) != j.herm)
        return cli_error(CLI_EXIT_USAGE, "blas3: --op %s takes --trans n or %s", op,
                         j.herm ? "c" : "t");
    int real_beta = j.herm && j.op != TSL_L3_SYMM && j.beta_i != 0.0; /* herk's, her2k's */
    if (real_beta || (j.herm && j.op == TSL_L3_SYRK && j.alpha_i != 0.0))
        return cli_error(CLI_EXIT_USAGE, "blas3: %s's %s is real", op,
                         real_beta ? "beta" : "alpha");
    if ((rc = cli_sizes("blas3", "--size", size, &sizes, 1024))) return rc;
    size_t ms[CLI_MAX_LIST], ns[CLI_MAX_LIST], ks[CLI_MAX_LIST];
    for (size_t i = 0; i < sizes.n; ++i) {
        ms[i] = m ? m : sizes.v[i], ns[i] = n ? n : sizes.v[i], ks[i] = k ? k : sizes.v[i];
        l3_case c;
        if ((rc = make_case(&j, ms[i], ns[i], ks[i], &c))) return rc;
    }
    return run_job(&j, device, csv, json, quiet, ms, ns, ks, sizes.n);
}
