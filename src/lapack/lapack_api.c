/* lapack_api.c: the public LAPACK entry points (tessel.h; getrf, getrs, gesv, potrf, potrs, posv,
 * geqrf, ormqr, gels in single and double, host pointers and device buffers): one description of each call, its
 * argument checks as LAPACK makes them, the staging of a host-pointer call's matrices (once to
 * the device, whole; once back, the triangle only where the routine references one) and the order of
 * the steps (lapack_lu.c, lapack_chol.c). On an error the caller's arrays are unchanged: results
 * are copied back only after the device finished. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lapack/lapack.h"
#include "level3/level3.h"

typedef enum {
    LP_GETRF,
    LP_GETRS,
    LP_GESV,
    LP_POTRF,
    LP_POTRS,
    LP_POSV,
    LP_GEQRF,
    LP_ORMQR,
    LP_GELS
} lp_op;

/* One call: what it is, its arguments, and its matrices as host pointers (buf 0) or buffers. */
typedef struct {
    const char *fn;
    lp_op op;
    int prec, buf;
    tsl_layout layout;
    tsl_trans trans;
    tsl_uplo uplo;
    tsl_side side;
    size_t m, n, nrhs, k, lda, ldb;
    void *a, *b;    /* host pointers, or tsl_buffer * (ormqr's C is b) */
    void *tau;      /* geqrf's out, ormqr's in: host memory */
    int *ipiv;      /* out for getrf and gesv, in for getrs */
    int *info;
} lp_call;

static int lu(lp_op op)
{
    return op == LP_GETRF || op == LP_GETRS || op == LP_GESV;
}
static int qr(lp_op op)
{
    return op == LP_GEQRF || op == LP_ORMQR || op == LP_GELS;
}
/* The LU and Cholesky calls that factor (and so return INFO), and those that solve. */
static int factors(lp_op op)
{
    return op == LP_GETRF || op == LP_GESV || op == LP_POTRF || op == LP_POSV;
}
static int solves(lp_op op)
{
    return op == LP_GETRS || op == LP_GESV || op == LP_POTRS || op == LP_POSV;
}

/* geqrf, ormqr and gels: their arguments in LAPACK's order. */
static tsl_status check_qr_args(tsl_context *ctx, const lp_call *c)
{
    const char *fn = c->fn;
    tsl_status s;
    int col = c->layout == TSL_COL_MAJOR;
    if ((s = tsl__l3_check_layout(ctx, fn, c->layout)) != TSL_OK) return s;
    if (c->op == LP_ORMQR && (s = tsl__l3_check_side(ctx, fn, c->side)) != TSL_OK) return s;
    if (c->op != LP_GEQRF && (s = tsl__check_trans(ctx, fn, "trans", c->trans)) != TSL_OK)
        return s;
    if ((s = tsl__l3_check_size(ctx, fn, "m", c->m)) != TSL_OK ||
        (s = tsl__l3_check_size(ctx, fn, "n", c->n)) != TSL_OK)
        return s;
    if (c->op == LP_GEQRF)
        return tsl__l3_check_ld(ctx, fn, "lda", c->lda, col ? c->m : c->n, "A");
    if (c->op == LP_ORMQR) {
        size_t nq = c->side == TSL_LEFT ? c->m : c->n;
        if ((s = tsl__l3_check_size(ctx, fn, "k", c->k)) != TSL_OK) return s;
        if (c->k > nq)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "%s: k = %zu is more than the %zu reflectors Q's order allows", fn,
                             c->k, nq);
        if ((s = tsl__l3_check_ld(ctx, fn, "lda", c->lda, col ? nq : c->k, "A")) != TSL_OK)
            return s;
        return tsl__l3_check_ld(ctx, fn, "ldc", c->ldb, col ? c->m : c->n, "C");
    }
    size_t mn = c->m > c->n ? c->m : c->n;
    if ((s = tsl__l3_check_size(ctx, fn, "nrhs", c->nrhs)) != TSL_OK ||
        (s = tsl__l3_check_ld(ctx, fn, "lda", c->lda, col ? c->m : c->n, "A")) != TSL_OK ||
        (s = tsl__l3_check_ld(ctx, fn, "ldb", c->ldb, col ? mn : c->nrhs, "B")) != TSL_OK)
        return s;
    if (!c->info) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: info is NULL", fn);
    return TSL_OK;
}

static tsl_status check_args(tsl_context *ctx, const lp_call *c)
{
    const char *fn = c->fn;
    tsl_status s;
    if (qr(c->op)) return check_qr_args(ctx, c);
    if ((s = tsl__l3_check_layout(ctx, fn, c->layout)) != TSL_OK) return s;
    if (c->op == LP_GETRS && (s = tsl__check_trans(ctx, fn, "trans", c->trans)) != TSL_OK)
        return s;
    if (!lu(c->op) && (s = tsl__l3_check_uplo(ctx, fn, c->uplo)) != TSL_OK) return s;
    if ((c->op == LP_GETRF && (s = tsl__l3_check_size(ctx, fn, "m", c->m)) != TSL_OK) ||
        (s = tsl__l3_check_size(ctx, fn, "n", c->n)) != TSL_OK ||
        (solves(c->op) && (s = tsl__l3_check_size(ctx, fn, "nrhs", c->nrhs)) != TSL_OK))
        return s;
    int col = c->layout == TSL_COL_MAJOR;
    size_t rows = c->op == LP_GETRF ? c->m : c->n;
    if ((s = tsl__l3_check_ld(ctx, fn, "lda", c->lda, col ? rows : c->n, "A")) != TSL_OK)
        return s;
    if (solves(c->op) &&
        (s = tsl__l3_check_ld(ctx, fn, "ldb", c->ldb, col ? c->n : c->nrhs, "B")) != TSL_OK)
        return s;
    if (factors(c->op) && !c->info)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: info is NULL", fn);
    return TSL_OK;
}

/* The row-major view of a matrix of the call (rows x cols, as tsl__upload_rect counts them), and
 * for the symmetric routines the triangle of that view they reference (1 lower, 2 upper). */
static void view(const lp_call *c, size_t r, size_t k, size_t *rows, size_t *cols)
{
    int col = c->layout == TSL_COL_MAJOR;
    *rows = col ? k : r;
    *cols = col ? r : k;
}
static int triangle(const lp_call *c)
{
    if (lu(c->op)) return 0;
    return (c->uplo == TSL_LOWER) == (c->layout == TSL_ROW_MAJOR) ? 1 : 2;
}

/* A device matrix of the call: a host matrix (r x k, leading dimension ld) staged into slot, or
 * the caller's buffer after its size is checked. */
static tsl_status stage(tsl_context *ctx, const lp_call *c, int slot, const char *what, void *m,
                        size_t r, size_t k, size_t ld, int tri, lp_mat *out)
{
    size_t es = c->prec == TSL_DOUBLE ? sizeof(double) : sizeof(float), rows, cols;
    view(c, r, k, &rows, &cols);
    *out = (lp_mat){.prec = c->prec, .layout = c->layout, .off = 0, .ld = ld};
    if (c->buf) {
        tsl_status s = tsl__check_matrix_buffer(ctx, c->fn, what, m, rows, cols, ld, es);
        if (s == TSL_OK) out->mem = ((tsl_buffer *)m)->mem;
        return s;
    }
    if (!m) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", c->fn, what);
    if (tsl__mul_overflows(rows, cols) || tsl__mul_overflows(rows * cols, es))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: %s's byte count overflows", c->fn,
                         what);
    out->ld = cols;
    /* the whole rectangle, the other triangle too: copying it costs less than staging the
     * triangle through host memory, and nothing on the device reads it */
    (void)tri;
    return tsl__l3_upload_matrix(ctx, slot, es, m, rows, cols, ld, 0, 0, &out->mem);
}

/* A host matrix back from the device: whole, or the triangle tri. */
static tsl_status unstage(tsl_context *ctx, const lp_call *c, const lp_mat *d, void *m, size_t r,
                          size_t k, size_t ld, int tri)
{
    if (c->buf) return TSL_OK;
    size_t es = c->prec == TSL_DOUBLE ? sizeof(double) : sizeof(float), rows, cols;
    view(c, r, k, &rows, &cols);
    if (tri) return tsl__l3_download_triangle(ctx, es, d->mem, m, rows, ld, tri);
    return tsl__download_rect(ctx, d->mem, m, rows, cols * es, ld * es);
}

static tsl_status run(tsl_context *ctx, const lp_call *c)
{
    size_t m = c->op == LP_GETRF ? c->m : c->n, n = c->n, kmin = m < n ? m : n;
    int tri = triangle(c), info = 0;
    lp_mat a, b = {0};
    lp_piv piv = {.info_at = kmin};
    tsl_status s = stage(ctx, c, TSL__WS_A, "A", c->a, m, n, c->lda, tri, &a);
    if (s == TSL_OK && solves(c->op) && c->nrhs > 0)
        s = stage(ctx, c, TSL__WS_B, "B", c->b, n, c->nrhs, c->ldb, 0, &b);
    if (s == TSL_OK) s = tsl__workspace(ctx, TSL__WS_C, (kmin + 1) * sizeof(int), &piv.mem);
    if (s == TSL_OK && c->op == LP_GETRS)
        s = tsl__write_at(ctx, piv.mem, 0, kmin * sizeof(int), c->ipiv);
    if (s == TSL_OK && factors(c->op))
        s = tsl__write_at(ctx, piv.mem, kmin * sizeof(int), sizeof info, &info);
    if (s != TSL_OK) return s;
    /* the factorization, then INFO (a solve only follows a complete one) */
    if (c->op == LP_GETRF || c->op == LP_GESV) s = tsl__lp_getrf(ctx, &a, m, n, &piv);
    if (c->op == LP_POTRF || c->op == LP_POSV) s = tsl__lp_potrf(ctx, &a, c->uplo, n, &piv);
    if (s == TSL_OK && factors(c->op))
        s = tsl__read_at(ctx, piv.mem, kmin * sizeof(int), sizeof info, &info);
    int solve = solves(c->op) && info == 0 && c->nrhs > 0;
    if (s == TSL_OK && solve && lu(c->op))
        s = tsl__lp_getrs(ctx, &a, c->op == LP_GETRS ? c->trans : TSL_NO_TRANS, n, c->nrhs, &piv,
                          &b);
    if (s == TSL_OK && solve && !lu(c->op)) s = tsl__lp_potrs(ctx, &a, c->uplo, n, c->nrhs, &b);
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    /* the results, into the caller's memory only now */
    if (factors(c->op) && (s = unstage(ctx, c, &a, c->a, m, n, c->lda, tri)) != TSL_OK) return s;
    if (solve && (s = unstage(ctx, c, &b, c->b, n, c->nrhs, c->ldb, 0)) != TSL_OK) return s;
    if (lu(c->op) && factors(c->op) &&
        (s = tsl__read_at(ctx, piv.mem, 0, kmin * sizeof(int), c->ipiv)) != TSL_OK)
        return s;
    if (factors(c->op)) *c->info = info;
    return tsl__timing_end(ctx);
}

/* geqrf, ormqr, gels (lapack_qr.c). gels is LAPACK's dgels: the QR of A (m >= n) or of A^T
 * (m < n: the same memory in the other layout, which is A's LQ factorization as dgelqf stores
 * it), then, where op(A) is tall, B = Q^T B and R X = B's top, else R^T Y = B's top, zeros
 * below it and X = Q B. An exactly zero diagonal element of R stops it with INFO (B as LAPACK
 * leaves it); an all-zero A gives X = 0 and INFO 0, as dgels. */
static tsl_status run_qr(tsl_context *ctx, const lp_call *c)
{
    size_t es = c->prec == TSL_DOUBLE ? sizeof(double) : sizeof(float);
    size_t m = c->m, n = c->n, mn = m > n ? m : n, kmin = m < n ? m : n;
    size_t ar = c->op == LP_ORMQR ? (c->side == TSL_LEFT ? m : n) : m;
    size_t ac = c->op == LP_ORMQR ? c->k : n, k = c->op == LP_ORMQR ? c->k : kmin;
    size_t br = c->op == LP_ORMQR ? m : mn, bc = c->op == LP_ORMQR ? n : c->nrhs;
    lp_mat a = {0}, b = {0};
    /* tau, then two ints: INFO and the nonzero flag */
    size_t info_at = (k * es + sizeof(int) - 1) / sizeof(int);
    lp_piv piv = {.info_at = info_at};
    int zeros[2] = {0, 0}, flag = 1, info = 0;
    tsl_status s = TSL_OK;
    int factor = c->op != LP_GELS || kmin > 0;
    if (factor) s = stage(ctx, c, TSL__WS_A, "A", c->a, ar, ac, c->lda, 0, &a);
    if (s == TSL_OK && c->op != LP_GEQRF)
        s = stage(ctx, c, TSL__WS_B, c->op == LP_ORMQR ? "C" : "B", c->b, br, bc, c->ldb, 0, &b);
    if (s == TSL_OK)
        s = tsl__workspace(ctx, TSL__WS_C, (info_at + 2) * sizeof(int), &piv.mem);
    if (s == TSL_OK && c->op == LP_ORMQR) s = tsl__write_at(ctx, piv.mem, 0, k * es, c->tau);
    if (s == TSL_OK) s = tsl__write_at(ctx, piv.mem, info_at * sizeof(int), sizeof zeros, zeros);
    size_t wide = mn > c->nrhs ? mn : c->nrhs;
    if (s == TSL_OK) s = tsl__lp_qr_reserve(ctx, c->prec, mn, wide);
    if (s != TSL_OK) return s;
    if (c->op == LP_GEQRF) s = tsl__lp_geqrf(ctx, &a, m, n, piv.mem);
    if (c->op == LP_ORMQR)
        s = tsl__lp_ormqr(ctx, &a, c->side, c->trans, m, n, k, piv.mem, &b);
    if (c->op == LP_GELS && !factor) s = tsl__lp_zero(ctx, &b, 0, 0, mn, c->nrhs);
    if (c->op == LP_GELS && factor) {
        /* the factored view: A (m >= n) or A^T, rows x k, its R upper in av's layout */
        int tall = m >= n, over = tall == (c->trans == TSL_NO_TRANS);
        lp_mat av = a;
        if (!tall) av.layout = a.layout == TSL_COL_MAJOR ? TSL_ROW_MAJOR : TSL_COL_MAJOR;
        size_t rows = tall ? m : n;
        /* R in B's layout: upper where the view is A, else its transpose, lower */
        int same = av.layout == b.layout;
        tsl_uplo ru = same ? TSL_UPPER : TSL_LOWER;
        tsl_trans rn = same ? TSL_NO_TRANS : TSL_TRANS, rt = same ? TSL_TRANS : TSL_NO_TRANS;
        lp_piv fl = {piv.mem, info_at + 1};
        s = tsl__lp_geqrf(ctx, &av, rows, kmin, piv.mem);
        if (s == TSL_OK) s = tsl__lp_trap_nonzero(ctx, &av, kmin, kmin, &fl);
        if (s == TSL_OK) s = tsl__read_at(ctx, piv.mem, (info_at + 1) * sizeof(int), sizeof flag, &flag);
        if (s == TSL_OK && !flag) s = tsl__lp_zero(ctx, &b, 0, 0, mn, c->nrhs); /* A = 0: X = 0 */
        if (s == TSL_OK && flag && over) {
            s = tsl__lp_ormqr(ctx, &av, TSL_LEFT, TSL_TRANS, rows, c->nrhs, kmin, piv.mem, &b);
            if (s == TSL_OK) s = tsl__lp_diag_info(ctx, &av, kmin, &piv);
            if (s == TSL_OK) s = tsl__read_at(ctx, piv.mem, info_at * sizeof(int), sizeof info, &info);
            if (s == TSL_OK && info == 0)
                s = tsl__lp_trsm(ctx, c->prec, b.layout, TSL_LEFT, ru, rn, TSL_NON_UNIT, kmin,
                                 c->nrhs, 1.0, lp_sub(&a, 0, 0), lp_sub(&b, 0, 0));
        } else if (s == TSL_OK && flag) {
            s = tsl__lp_diag_info(ctx, &av, kmin, &piv);
            if (s == TSL_OK) s = tsl__read_at(ctx, piv.mem, info_at * sizeof(int), sizeof info, &info);
            if (s == TSL_OK && info == 0)
                s = tsl__lp_trsm(ctx, c->prec, b.layout, TSL_LEFT, ru, rt, TSL_NON_UNIT, kmin,
                                 c->nrhs, 1.0, lp_sub(&a, 0, 0), lp_sub(&b, 0, 0));
            if (s == TSL_OK && info == 0) s = tsl__lp_zero(ctx, &b, kmin, 0, rows - kmin, c->nrhs);
            if (s == TSL_OK && info == 0)
                s = tsl__lp_ormqr(ctx, &av, TSL_LEFT, TSL_NO_TRANS, rows, c->nrhs, kmin, piv.mem, &b);
        }
    }
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    /* the results, into the caller's memory only now */
    if (factor && c->op != LP_ORMQR && (s = unstage(ctx, c, &a, c->a, ar, ac, c->lda, 0)) != TSL_OK)
        return s;
    if (c->op != LP_GEQRF && (s = unstage(ctx, c, &b, c->b, br, bc, c->ldb, 0)) != TSL_OK)
        return s;
    if (c->op == LP_GEQRF && (s = tsl__read_at(ctx, piv.mem, 0, k * es, c->tau)) != TSL_OK)
        return s;
    if (c->op == LP_GELS) *c->info = info;
    return tsl__timing_end(ctx);
}

static tsl_status lp_entry(tsl_context *ctx, const lp_call *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", c->fn);
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, c);
    if (s != TSL_OK) return s;
    if (qr(c->op)) {
        if (c->op == LP_GELS) *c->info = 0;
        size_t kmin = c->m < c->n ? c->m : c->n;
        /* LAPACK's quick returns */
        if (c->op == LP_GEQRF ? kmin == 0
                              : c->op == LP_ORMQR ? c->m == 0 || c->n == 0 || c->k == 0
                                                  : c->nrhs == 0 || (c->m == 0 && c->n == 0))
            return TSL_OK;
        if (c->op != LP_GELS && !c->tau)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: tau is NULL", c->fn);
        if ((s = tsl__check_fp64(ctx, c->prec == TSL_DOUBLE, c->fn)) != TSL_OK) return s;
        return run_qr(ctx, c);
    }
    size_t m = c->op == LP_GETRF ? c->m : c->n;
    if (factors(c->op)) *c->info = 0;
    /* LAPACK's quick returns: nothing to factor, nothing to solve */
    if (m == 0 || c->n == 0 || (c->op == LP_GETRS || c->op == LP_POTRS ? c->nrhs == 0 : 0))
        return TSL_OK;
    if (lu(c->op) && !c->ipiv) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: ipiv is NULL", c->fn);
    /* getrs's pivots index rows of B on the device: each must be one */
    for (size_t i = 0; c->op == LP_GETRS && i < c->n; ++i)
        if (c->ipiv[i] < 1 || (size_t)c->ipiv[i] > c->n)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "%s: ipiv[%zu] = %d is not a row of A (1 to %zu)", c->fn, i,
                             c->ipiv[i], c->n);
    if ((s = tsl__check_fp64(ctx, c->prec == TSL_DOUBLE, c->fn)) != TSL_OK) return s;
    return run(ctx, c);
}

/* ---- the public entry points ----------------------------------------------------------------- */

#define LP_CALL(name, op_, prec_, buf_, ...)                                                   \
    lp_call call = {.fn = name, .op = op_, .prec = prec_, .buf = buf_, .layout = layout,       \
                    __VA_ARGS__};                                                              \
    return lp_entry(ctx, &call)

tsl_status tsl_sgetrf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n, float *a,
                      size_t lda, int *ipiv, int *info)
{
    LP_CALL("tsl_sgetrf", LP_GETRF, TSL_SINGLE, 0, .m = m, .n = n, .a = a, .lda = lda,
            .ipiv = ipiv, .info = info);
}
tsl_status tsl_dgetrf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n, double *a,
                      size_t lda, int *ipiv, int *info)
{
    LP_CALL("tsl_dgetrf", LP_GETRF, TSL_DOUBLE, 0, .m = m, .n = n, .a = a, .lda = lda,
            .ipiv = ipiv, .info = info);
}
tsl_status tsl_sgetrs(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t n, size_t nrhs,
                      const float *a, size_t lda, const int *ipiv, float *b, size_t ldb)
{
    LP_CALL("tsl_sgetrs", LP_GETRS, TSL_SINGLE, 0, .trans = tsl__real_trans(trans), .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .ipiv = (int *)ipiv, .b = b, .ldb = ldb);
}
tsl_status tsl_dgetrs(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t n, size_t nrhs,
                      const double *a, size_t lda, const int *ipiv, double *b, size_t ldb)
{
    LP_CALL("tsl_dgetrs", LP_GETRS, TSL_DOUBLE, 0, .trans = tsl__real_trans(trans), .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .ipiv = (int *)ipiv, .b = b, .ldb = ldb);
}
tsl_status tsl_sgesv(tsl_context *ctx, tsl_layout layout, size_t n, size_t nrhs, float *a,
                     size_t lda, int *ipiv, float *b, size_t ldb, int *info)
{
    LP_CALL("tsl_sgesv", LP_GESV, TSL_SINGLE, 0, .n = n, .nrhs = nrhs, .a = a, .lda = lda,
            .ipiv = ipiv, .b = b, .ldb = ldb, .info = info);
}
tsl_status tsl_dgesv(tsl_context *ctx, tsl_layout layout, size_t n, size_t nrhs, double *a,
                     size_t lda, int *ipiv, double *b, size_t ldb, int *info)
{
    LP_CALL("tsl_dgesv", LP_GESV, TSL_DOUBLE, 0, .n = n, .nrhs = nrhs, .a = a, .lda = lda,
            .ipiv = ipiv, .b = b, .ldb = ldb, .info = info);
}
tsl_status tsl_spotrf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n, float *a,
                      size_t lda, int *info)
{
    LP_CALL("tsl_spotrf", LP_POTRF, TSL_SINGLE, 0, .uplo = uplo, .n = n, .a = a, .lda = lda,
            .info = info);
}
tsl_status tsl_dpotrf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n, double *a,
                      size_t lda, int *info)
{
    LP_CALL("tsl_dpotrf", LP_POTRF, TSL_DOUBLE, 0, .uplo = uplo, .n = n, .a = a, .lda = lda,
            .info = info);
}
tsl_status tsl_spotrs(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n, size_t nrhs,
                      const float *a, size_t lda, float *b, size_t ldb)
{
    LP_CALL("tsl_spotrs", LP_POTRS, TSL_SINGLE, 0, .uplo = uplo, .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .b = b, .ldb = ldb);
}
tsl_status tsl_dpotrs(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n, size_t nrhs,
                      const double *a, size_t lda, double *b, size_t ldb)
{
    LP_CALL("tsl_dpotrs", LP_POTRS, TSL_DOUBLE, 0, .uplo = uplo, .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .b = b, .ldb = ldb);
}
tsl_status tsl_sposv(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n, size_t nrhs,
                     float *a, size_t lda, float *b, size_t ldb, int *info)
{
    LP_CALL("tsl_sposv", LP_POSV, TSL_SINGLE, 0, .uplo = uplo, .n = n, .nrhs = nrhs, .a = a,
            .lda = lda, .b = b, .ldb = ldb, .info = info);
}
tsl_status tsl_dposv(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n, size_t nrhs,
                     double *a, size_t lda, double *b, size_t ldb, int *info)
{
    LP_CALL("tsl_dposv", LP_POSV, TSL_DOUBLE, 0, .uplo = uplo, .n = n, .nrhs = nrhs, .a = a,
            .lda = lda, .b = b, .ldb = ldb, .info = info);
}

tsl_status tsl_sgetrf_buf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n, tsl_buffer *a,
                          size_t lda, int *ipiv, int *info)
{
    LP_CALL("tsl_sgetrf_buf", LP_GETRF, TSL_SINGLE, 1, .m = m, .n = n, .a = a, .lda = lda,
            .ipiv = ipiv, .info = info);
}
tsl_status tsl_dgetrf_buf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n, tsl_buffer *a,
                          size_t lda, int *ipiv, int *info)
{
    LP_CALL("tsl_dgetrf_buf", LP_GETRF, TSL_DOUBLE, 1, .m = m, .n = n, .a = a, .lda = lda,
            .ipiv = ipiv, .info = info);
}
tsl_status tsl_sgetrs_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t n,
                          size_t nrhs, const tsl_buffer *a, size_t lda, const int *ipiv,
                          tsl_buffer *b, size_t ldb)
{
    LP_CALL("tsl_sgetrs_buf", LP_GETRS, TSL_SINGLE, 1, .trans = tsl__real_trans(trans), .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .ipiv = (int *)ipiv, .b = b, .ldb = ldb);
}
tsl_status tsl_dgetrs_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t n,
                          size_t nrhs, const tsl_buffer *a, size_t lda, const int *ipiv,
                          tsl_buffer *b, size_t ldb)
{
    LP_CALL("tsl_dgetrs_buf", LP_GETRS, TSL_DOUBLE, 1, .trans = tsl__real_trans(trans), .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .ipiv = (int *)ipiv, .b = b, .ldb = ldb);
}
tsl_status tsl_sgesv_buf(tsl_context *ctx, tsl_layout layout, size_t n, size_t nrhs,
                         tsl_buffer *a, size_t lda, int *ipiv, tsl_buffer *b, size_t ldb,
                         int *info)
{
    LP_CALL("tsl_sgesv_buf", LP_GESV, TSL_SINGLE, 1, .n = n, .nrhs = nrhs, .a = a, .lda = lda,
            .ipiv = ipiv, .b = b, .ldb = ldb, .info = info);
}
tsl_status tsl_dgesv_buf(tsl_context *ctx, tsl_layout layout, size_t n, size_t nrhs,
                         tsl_buffer *a, size_t lda, int *ipiv, tsl_buffer *b, size_t ldb,
                         int *info)
{
    LP_CALL("tsl_dgesv_buf", LP_GESV, TSL_DOUBLE, 1, .n = n, .nrhs = nrhs, .a = a, .lda = lda,
            .ipiv = ipiv, .b = b, .ldb = ldb, .info = info);
}
tsl_status tsl_spotrf_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                          tsl_buffer *a, size_t lda, int *info)
{
    LP_CALL("tsl_spotrf_buf", LP_POTRF, TSL_SINGLE, 1, .uplo = uplo, .n = n, .a = a, .lda = lda,
            .info = info);
}
tsl_status tsl_dpotrf_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                          tsl_buffer *a, size_t lda, int *info)
{
    LP_CALL("tsl_dpotrf_buf", LP_POTRF, TSL_DOUBLE, 1, .uplo = uplo, .n = n, .a = a, .lda = lda,
            .info = info);
}
tsl_status tsl_spotrs_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                          size_t nrhs, const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    LP_CALL("tsl_spotrs_buf", LP_POTRS, TSL_SINGLE, 1, .uplo = uplo, .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .b = b, .ldb = ldb);
}
tsl_status tsl_dpotrs_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                          size_t nrhs, const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    LP_CALL("tsl_dpotrs_buf", LP_POTRS, TSL_DOUBLE, 1, .uplo = uplo, .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .b = b, .ldb = ldb);
}
tsl_status tsl_sposv_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                         size_t nrhs, tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb,
                         int *info)
{
    LP_CALL("tsl_sposv_buf", LP_POSV, TSL_SINGLE, 1, .uplo = uplo, .n = n, .nrhs = nrhs, .a = a,
            .lda = lda, .b = b, .ldb = ldb, .info = info);
}
tsl_status tsl_dposv_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                         size_t nrhs, tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb,
                         int *info)
{
    LP_CALL("tsl_dposv_buf", LP_POSV, TSL_DOUBLE, 1, .uplo = uplo, .n = n, .nrhs = nrhs, .a = a,
            .lda = lda, .b = b, .ldb = ldb, .info = info);
}
tsl_status tsl_sgeqrf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n, float *a,
                      size_t lda, float *tau)
{
    LP_CALL("tsl_sgeqrf", LP_GEQRF, TSL_SINGLE, 0, .m = m, .n = n, .a = (void *)a, .lda = lda,
            .tau = tau);
}
tsl_status tsl_sormqr(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_trans trans,
                      size_t m, size_t n, size_t k, const float *a, size_t lda, const float *tau,
                      float *c, size_t ldc)
{
    LP_CALL("tsl_sormqr", LP_ORMQR, TSL_SINGLE, 0, .side = side, .trans = tsl__real_trans(trans), .m = m, .n = n,
            .k = k, .a = (void *)a, .lda = lda, .tau = (void *)tau, .b = (void *)c, .ldb = ldc);
}
tsl_status tsl_sgels(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m, size_t n,
                     size_t nrhs, float *a, size_t lda, float *b, size_t ldb, int *info)
{
    LP_CALL("tsl_sgels", LP_GELS, TSL_SINGLE, 0, .trans = tsl__real_trans(trans), .m = m, .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .b = (void *)b, .ldb = ldb, .info = info);
}
tsl_status tsl_dgeqrf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n, double *a,
                      size_t lda, double *tau)
{
    LP_CALL("tsl_dgeqrf", LP_GEQRF, TSL_DOUBLE, 0, .m = m, .n = n, .a = (void *)a, .lda = lda,
            .tau = tau);
}
tsl_status tsl_dormqr(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_trans trans,
                      size_t m, size_t n, size_t k, const double *a, size_t lda, const double *tau,
                      double *c, size_t ldc)
{
    LP_CALL("tsl_dormqr", LP_ORMQR, TSL_DOUBLE, 0, .side = side, .trans = tsl__real_trans(trans), .m = m, .n = n,
            .k = k, .a = (void *)a, .lda = lda, .tau = (void *)tau, .b = (void *)c, .ldb = ldc);
}
tsl_status tsl_dgels(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m, size_t n,
                     size_t nrhs, double *a, size_t lda, double *b, size_t ldb, int *info)
{
    LP_CALL("tsl_dgels", LP_GELS, TSL_DOUBLE, 0, .trans = tsl__real_trans(trans), .m = m, .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .b = (void *)b, .ldb = ldb, .info = info);
}
tsl_status tsl_sgeqrf_buf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n, tsl_buffer *a,
                      size_t lda, float *tau)
{
    LP_CALL("tsl_sgeqrf_buf", LP_GEQRF, TSL_SINGLE, 1, .m = m, .n = n, .a = (void *)a, .lda = lda,
            .tau = tau);
}
tsl_status tsl_sormqr_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_trans trans,
                      size_t m, size_t n, size_t k, const tsl_buffer *a, size_t lda, const float *tau,
                      tsl_buffer *c, size_t ldc)
{
    LP_CALL("tsl_sormqr_buf", LP_ORMQR, TSL_SINGLE, 1, .side = side, .trans = tsl__real_trans(trans), .m = m, .n = n,
            .k = k, .a = (void *)a, .lda = lda, .tau = (void *)tau, .b = (void *)c, .ldb = ldc);
}
tsl_status tsl_sgels_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m, size_t n,
                     size_t nrhs, tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb, int *info)
{
    LP_CALL("tsl_sgels_buf", LP_GELS, TSL_SINGLE, 1, .trans = tsl__real_trans(trans), .m = m, .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .b = (void *)b, .ldb = ldb, .info = info);
}
tsl_status tsl_dgeqrf_buf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n, tsl_buffer *a,
                      size_t lda, double *tau)
{
    LP_CALL("tsl_dgeqrf_buf", LP_GEQRF, TSL_DOUBLE, 1, .m = m, .n = n, .a = (void *)a, .lda = lda,
            .tau = tau);
}
tsl_status tsl_dormqr_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_trans trans,
                      size_t m, size_t n, size_t k, const tsl_buffer *a, size_t lda, const double *tau,
                      tsl_buffer *c, size_t ldc)
{
    LP_CALL("tsl_dormqr_buf", LP_ORMQR, TSL_DOUBLE, 1, .side = side, .trans = tsl__real_trans(trans), .m = m, .n = n,
            .k = k, .a = (void *)a, .lda = lda, .tau = (void *)tau, .b = (void *)c, .ldb = ldc);
}
tsl_status tsl_dgels_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m, size_t n,
                     size_t nrhs, tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb, int *info)
{
    LP_CALL("tsl_dgels_buf", LP_GELS, TSL_DOUBLE, 1, .trans = tsl__real_trans(trans), .m = m, .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .b = (void *)b, .ldb = ldb, .info = info);
}
#undef LP_CALL
