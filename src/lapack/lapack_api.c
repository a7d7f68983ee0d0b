/* lapack_api.c: the public LAPACK entry points (tessel.h; getrf, getrs, gesv, potrf, potrs, posv
 * in single and double, host pointers and device buffers): one description of each call, its
 * argument checks as LAPACK makes them, the staging of a host-pointer call's matrices (once to
 * the device, whole; once back, the triangle only where the routine references one) and the order of
 * the steps (lapack_lu.c, lapack_chol.c). On an error the caller's arrays are unchanged: results
 * are copied back only after the device finished. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lapack/lapack.h"
#include "level3/level3.h"

typedef enum { LP_GETRF, LP_GETRS, LP_GESV, LP_POTRF, LP_POTRS, LP_POSV } lp_op;

/* One call: what it is, its arguments, and its matrices as host pointers (buf 0) or buffers. */
typedef struct {
    const char *fn;
    lp_op op;
    int prec, buf;
    tsl_layout layout;
    tsl_trans trans;
    tsl_uplo uplo;
    size_t m, n, nrhs, lda, ldb;
    void *a, *b;    /* host pointers, or tsl_buffer * */
    int *ipiv;      /* out for getrf and gesv, in for getrs */
    int *info;
} lp_call;

static int lu(lp_op op)
{
    return op == LP_GETRF || op == LP_GETRS || op == LP_GESV;
}
static int factors(lp_op op)
{
    return op != LP_GETRS && op != LP_POTRS;
}
static int solves(lp_op op)
{
    return op != LP_GETRF && op != LP_POTRF;
}

static tsl_status check_args(tsl_context *ctx, const lp_call *c)
{
    const char *fn = c->fn;
    tsl_status s;
    if ((s = tsl__l3_check_layout(ctx, fn, c->layout)) != TSL_OK) return s;
    if (c->op == LP_GETRS && (s = tsl__l3_check_trans(ctx, fn, "trans", c->trans)) != TSL_OK)
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

static tsl_status lp_entry(tsl_context *ctx, const lp_call *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", c->fn);
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, c);
    if (s != TSL_OK) return s;
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
    lp_call c = {.fn = name, .op = op_, .prec = prec_, .buf = buf_, .layout = layout,          \
                 __VA_ARGS__};                                                                 \
    return lp_entry(ctx, &c)

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
    LP_CALL("tsl_sgetrs", LP_GETRS, TSL_SINGLE, 0, .trans = trans, .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .ipiv = (int *)ipiv, .b = b, .ldb = ldb);
}
tsl_status tsl_dgetrs(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t n, size_t nrhs,
                      const double *a, size_t lda, const int *ipiv, double *b, size_t ldb)
{
    LP_CALL("tsl_dgetrs", LP_GETRS, TSL_DOUBLE, 0, .trans = trans, .n = n, .nrhs = nrhs,
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
    LP_CALL("tsl_sgetrs_buf", LP_GETRS, TSL_SINGLE, 1, .trans = trans, .n = n, .nrhs = nrhs,
            .a = (void *)a, .lda = lda, .ipiv = (int *)ipiv, .b = b, .ldb = ldb);
}
tsl_status tsl_dgetrs_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t n,
                          size_t nrhs, const tsl_buffer *a, size_t lda, const int *ipiv,
                          tsl_buffer *b, size_t ldb)
{
    LP_CALL("tsl_dgetrs_buf", LP_GETRS, TSL_DOUBLE, 1, .trans = trans, .n = n, .nrhs = nrhs,
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
#undef LP_CALL
