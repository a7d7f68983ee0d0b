/* lapack_refine.c: tsl_dsgesv and tsl_dsposv, LAPACK's dsgesv and dsposv on the device
 * (docs/lapack.md, "Mixed precision"): A X = B with A factored in single precision (LU, or
 * Cholesky of the uplo triangle, which is first mirrored on the device so that the conversion and
 * the residual's GEMM read the symmetric matrix) and the solution refined in double until its
 * residual is at double precision's level, else solved by the double factorization.
 *
 * As LAPACK: cte = |A|_inf eps sqrt(n) (eps the unit roundoff 2^-53, dlamch("Epsilon"); BWDMAX
 * 1); A and B converted to single (an element beyond float's range: ITER = -2), SGETRF (a zero pivot: ITER = -3), X = SGETRS(B); then
 * up to ITERMAX = 30 times R = B - A X in double (GEMM), done when every column has
 * max|R| <= max|X| cte (ITER = the corrections made, 0 for none), else X += SGETRS(R) (ITER = -31
 * after 30). A negative ITER then factors A in double (DGETRF; INFO > 0 there is returned with
 * the factors in A) and solves (DGETRS). On return A is unchanged when ITER >= 0 and holds the
 * double factors when ITER < 0; ipiv holds the pivots of the factorization used. Everything stays
 * on the device: A and B are staged once, X comes back once (the norms read X and R, n x nrhs, each
 * step). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "lapack/lapack.h"
#include "level3/level3.h"

enum { RF_ITERMAX = 30 };

typedef struct {
    const char *fn;
    int chol;      /* dsposv: Cholesky of the uplo triangle, not LU */
    tsl_uplo uplo; /* dsposv */
    tsl_layout layout;
    size_t n, nrhs, lda, ldb, ldx;
    double *a;
    const double *b;
    double *x;
    int *ipiv, *iter, *info;
} rf_call;

static tsl_status rf_check(tsl_context *ctx, const rf_call *c)
{
    const char *fn = c->fn;
    tsl_status s;
    int col = c->layout == TSL_COL_MAJOR;
    if ((s = tsl__l3_check_layout(ctx, fn, c->layout)) != TSL_OK ||
        (s = tsl__l3_check_size(ctx, fn, "n", c->n)) != TSL_OK ||
        (s = tsl__l3_check_size(ctx, fn, "nrhs", c->nrhs)) != TSL_OK ||
        (s = tsl__l3_check_ld(ctx, fn, "lda", c->lda, c->n, "A")) != TSL_OK ||
        (s = tsl__l3_check_ld(ctx, fn, "ldb", c->ldb, col ? c->n : c->nrhs, "B")) != TSL_OK ||
        (s = tsl__l3_check_ld(ctx, fn, "ldx", c->ldx, col ? c->n : c->nrhs, "X")) != TSL_OK)
        return s;
    if (!c->iter) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: iter is NULL", fn);
    if (!c->info) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: info is NULL", fn);
    if (c->chol && (s = tsl__l3_check_uplo(ctx, fn, c->uplo)) != TSL_OK) return s;
    if (c->n > 0 && (!c->a || (!c->ipiv && !c->chol)))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, c->a ? "ipiv" : "a");
    if (c->n > 0 && c->nrhs > 0 && (!c->b || !c->x))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, c->b ? "x" : "b");
    return TSL_OK;
}

/* Element (i, j) of a host matrix of the call's layout. */
static double rf_at(const rf_call *c, const double *m, size_t ld, size_t i, size_t j)
{
    return c->layout == TSL_COL_MAJOR ? m[i + j * ld] : m[i * ld + j];
}

/* |A|_inf: the largest row sum of |a(i, j)| (dlange 'I'; dsposv: dlansy 'I' of the uplo
 * triangle, each element off the diagonal counted in its row and its column), walking the array
 * in memory order. */
static double rf_norm_inf(const rf_call *c)
{
    double *sum = tsl__calloc(c->n, sizeof *sum), best = 0;
    if (!sum) return INFINITY; /* no refinement can converge: the double factorization answers */
    /* the triangle's elements (i, j): lower i >= j, upper i <= j */
    int lower = c->uplo == TSL_LOWER;
    for (size_t o = 0; o < c->n; ++o) {
        const double *line = c->a + o * c->lda; /* a column (col-major) or a row */
        for (size_t t = 0; t < c->n; ++t) {
            size_t i = c->layout == TSL_COL_MAJOR ? t : o, j = c->layout == TSL_COL_MAJOR ? o : t;
            if (!c->chol) {
                sum[i] += fabs(line[t]);
            } else if (lower ? i >= j : i <= j) {
                sum[i] += fabs(line[t]);
                if (i != j) sum[j] += fabs(line[t]);
            }
        }
    }
    for (size_t i = 0; i < c->n; ++i)
        if (sum[i] > best || isnan(sum[i])) best = sum[i];
    tsl__free(sum);
    return best;
}

static tsl_status rf_launch1(tsl_context *ctx, const char *name, const char *what, tsl__arg *args,
                             int nargs, size_t count)
{
    cl_kernel k;
    tsl_status s = tsl__lp_kernel(ctx, TSL_DOUBLE, name, &k);
    if (s != TSL_OK) return s;
    size_t local = 64, global = (count + local - 1) / local * local;
    return tsl__launch(ctx, k, what, args, nargs, 1, &global, &local);
}

/* dst = (float) src over count elements; *over = 1 when one is beyond float's range. */
static tsl_status rf_d2s(tsl_context *ctx, cl_mem src, cl_mem dst, size_t count, cl_mem flag,
                         int *over)
{
    int zero = 0;
    cl_long cnt = (cl_long)count;
    tsl_status s = tsl__write_at(ctx, flag, 0, sizeof zero, &zero);
    tsl__arg args[] = {{sizeof cnt, &cnt}, {sizeof(cl_mem), &src}, {sizeof(cl_mem), &dst},
                       {sizeof(cl_mem), &flag}};
    if (s == TSL_OK && count) s = rf_launch1(ctx, "lp_d2s", "to single", args, 4, count);
    if (s == TSL_OK) s = tsl__read_at(ctx, flag, 0, sizeof *over, over);
    return s;
}

static tsl_status rf_s2d(tsl_context *ctx, cl_mem src, cl_mem dst, size_t count, int add)
{
    cl_long cnt = (cl_long)count;
    tsl__arg args[] = {{sizeof cnt, &cnt}, {sizeof(cl_mem), &src}, {sizeof(cl_mem), &dst},
                       {sizeof add, &add}};
    return count ? rf_launch1(ctx, "lp_s2d", "to double", args, 4, count) : TSL_OK;
}

/* Whether every column of the n x nrhs X has max|R| <= max|X| cte (both packed in the layout). */
static int rf_converged(const rf_call *c, const double *x, const double *r, double cte)
{
    size_t ld = c->layout == TSL_COL_MAJOR ? c->n : c->nrhs;
    for (size_t j = 0; j < c->nrhs; ++j) {
        double xn = 0, rn = 0;
        for (size_t i = 0; i < c->n; ++i) {
            xn = fmax(xn, fabs(rf_at(c, x, ld, i, j)));
            double v = fabs(rf_at(c, r, ld, i, j));
            if (!(v <= rn)) rn = v; /* NaN stays */
        }
        if (!(rn <= xn * cte)) return 0;
    }
    return 1;
}

typedef struct {
    tsl_buffer *sa, *x, *r, *sr, *flag;
    double *hx, *hr;
} rf_work;

static void rf_free(rf_work *w)
{
    tsl_buffer_destroy(w->sa);
    tsl_buffer_destroy(w->x);
    tsl_buffer_destroy(w->r);
    tsl_buffer_destroy(w->sr);
    tsl_buffer_destroy(w->flag);
    tsl__free(w->hx);
    tsl__free(w->hr);
}

/* The call's factorization (getrf or potrf of the uplo triangle) and solve of a. */
static tsl_status rf_factor(tsl_context *ctx, const rf_call *c, const lp_mat *a, const lp_piv *piv)
{
    return c->chol ? tsl__lp_potrf(ctx, a, c->uplo, c->n, piv)
                   : tsl__lp_getrf(ctx, a, c->n, c->n, piv);
}
static tsl_status rf_solve(tsl_context *ctx, const rf_call *c, const lp_mat *a, const lp_piv *piv,
                           const lp_mat *b)
{
    return c->chol ? tsl__lp_potrs(ctx, a, c->uplo, c->n, c->nrhs, b)
                   : tsl__lp_getrs(ctx, a, TSL_NO_TRANS, c->n, c->nrhs, piv, b);
}

/* The single factorization and the refinement; *iter as LAPACK's (negative: factor in double).
 * A (double) in da, B in db, both packed; X ends in w->x. With no right-hand side only the
 * factorization runs (LAPACK's dsgesv factors in single then too). */
static tsl_status rf_refine(tsl_context *ctx, const rf_call *c, const lp_mat *da,
                            const lp_mat *db, const lp_piv *piv, rf_work *w, int *iter)
{
    size_t n = c->n, nrhs = c->nrhs, nn = n * n, nb = n * nrhs;
    size_t rows = c->layout == TSL_COL_MAJOR ? nrhs : n, cols = c->layout == TSL_COL_MAJOR ? n : nrhs;
    int over = 0, info = 0;
    tsl_status s = rf_d2s(ctx, da->mem, w->sa->mem, nn, w->flag->mem, &over);
    if (s != TSL_OK) return s;
    if (over) return *iter = -2, TSL_OK;
    lp_mat sa = *da;
    sa.prec = TSL_SINGLE, sa.mem = w->sa->mem;
    if ((s = rf_factor(ctx, c, &sa, piv)) != TSL_OK ||
        (s = tsl__read_at(ctx, piv->mem, piv->info_at * sizeof(int), sizeof info, &info)) != TSL_OK)
        return s;
    if (info > 0) {
        /* the double factorization starts over: INFO back to 0 */
        info = 0;
        *iter = -3;
        return tsl__write_at(ctx, piv->mem, piv->info_at * sizeof(int), sizeof info, &info);
    }
    if (nb == 0) return *iter = 0, TSL_OK; /* nothing to solve: refined by definition */
    lp_mat sr = *db, x = *db, r = *db;
    sr.prec = TSL_SINGLE, sr.mem = w->sr->mem;
    x.mem = w->x->mem, r.mem = w->r->mem;
    if ((s = rf_d2s(ctx, db->mem, sr.mem, nb, w->flag->mem, &over)) != TSL_OK) return s;
    if (over) return *iter = -2, TSL_OK;
    if ((s = rf_solve(ctx, c, &sa, piv, &sr)) != TSL_OK ||
        (s = rf_s2d(ctx, sr.mem, x.mem, nb, 0)) != TSL_OK)
        return s;
    /* eps as LAPACK's dlamch("Epsilon"): the unit roundoff 2^-53, half of DBL_EPSILON */
    const double cte = rf_norm_inf(c) * (DBL_EPSILON / 2) * sqrt((double)n);
    for (int it = 0;; ++it) {
        /* R = B - A X, in double */
        if ((s = tsl__l3_copy(ctx, 1, rows, cols, db->mem, 0, cols, r.mem, 0, cols)) != TSL_OK ||
            (s = tsl__lp_gemm(ctx, TSL_DOUBLE, c->layout, TSL_NO_TRANS, TSL_NO_TRANS, n, nrhs, n,
                              -1.0, lp_sub(da, 0, 0), lp_sub(&x, 0, 0), 1.0, lp_sub(&r, 0, 0))) !=
                TSL_OK ||
            (s = tsl__read_at(ctx, x.mem, 0, nb * sizeof(double), w->hx)) != TSL_OK ||
            (s = tsl__read_at(ctx, r.mem, 0, nb * sizeof(double), w->hr)) != TSL_OK)
            return s;
        if (rf_converged(c, w->hx, w->hr, cte)) return *iter = it, TSL_OK;
        if (it == RF_ITERMAX) return *iter = -RF_ITERMAX - 1, TSL_OK;
        /* X += SGETRS(single(R)) */
        if ((s = rf_d2s(ctx, r.mem, sr.mem, nb, w->flag->mem, &over)) != TSL_OK) return s;
        if (over) return *iter = -2, TSL_OK;
        if ((s = rf_solve(ctx, c, &sa, piv, &sr)) != TSL_OK ||
            (s = rf_s2d(ctx, sr.mem, x.mem, nb, 1)) != TSL_OK)
            return s;
    }
}

static tsl_status rf_run(tsl_context *ctx, const rf_call *c)
{
    size_t n = c->n, nrhs = c->nrhs, es = sizeof(double), nb = n * nrhs;
    int col = c->layout == TSL_COL_MAJOR;
    size_t brows = col ? nrhs : n, bcols = col ? n : nrhs; /* B's row-major view */
    lp_mat a = {.prec = TSL_DOUBLE, .layout = c->layout, .ld = n};
    lp_mat b = {.prec = TSL_DOUBLE, .layout = c->layout, .ld = col ? n : nrhs};
    lp_piv piv = {.info_at = n};
    rf_work w = {0};
    int iter = 0, info = 0;
    tsl_status s = tsl__l3_upload_matrix(ctx, TSL__WS_A, es, c->a, n, n, c->lda, 0, 0, &a.mem);
    if (s == TSL_OK && nb)
        s = tsl__l3_upload_matrix(ctx, TSL__WS_B, es, c->b, brows, bcols, c->ldb, 0, 0, &b.mem);
    /* dsposv: the triangle mirrored, so that the conversion sees the triangle's values only and
     * the residual's GEMM reads A whole */
    if (s == TSL_OK && c->chol) {
        int lower = c->uplo == TSL_LOWER;
        tsl__arg extra[] = {{sizeof lower, &lower}};
        s = tsl__lp_elementwise(ctx, &a, "lp_mirror", "lapack mirror", 0, 0, n, n, extra, 1);
    }
    if (s == TSL_OK) s = tsl__workspace(ctx, TSL__WS_C, (n + 1) * sizeof(int), &piv.mem);
    if (s == TSL_OK) s = tsl__write_at(ctx, piv.mem, n * sizeof(int), sizeof info, &info);
    if (s == TSL_OK) s = tsl_buffer_create(ctx, n * n * sizeof(float), &w.sa);
    if (s == TSL_OK) s = tsl_buffer_create(ctx, sizeof(int), &w.flag);
    if (s == TSL_OK && nb) {
        if ((s = tsl_buffer_create(ctx, nb * es, &w.x)) == TSL_OK &&
            (s = tsl_buffer_create(ctx, nb * es, &w.r)) == TSL_OK)
            s = tsl_buffer_create(ctx, nb * sizeof(float), &w.sr);
        w.hx = tsl__calloc(nb, es);
        w.hr = tsl__calloc(nb, es);
        if (s == TSL_OK && (!w.hx || !w.hr))
            s = tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: no host memory for the norms", c->fn);
    }
    if (s == TSL_OK) s = rf_refine(ctx, c, &a, &b, &piv, &w, &iter);
    if (s == TSL_OK && iter < 0) {
        /* the double factorization and solve (dgetrf, dlacpy, dgetrs) */
        lp_mat x = b;
        if (nb) x.mem = w.x->mem;
        s = rf_factor(ctx, c, &a, &piv);
        if (s == TSL_OK) s = tsl__read_at(ctx, piv.mem, n * sizeof(int), sizeof info, &info);
        if (s == TSL_OK && info == 0 && nb)
            s = tsl__l3_copy(ctx, 1, brows, bcols, b.mem, 0, bcols, x.mem, 0, bcols);
        if (s == TSL_OK && info == 0 && nb)
            s = rf_solve(ctx, c, &a, &piv, &x);
    }
    tsl_status done = tsl__timing_end(ctx);
    if (s == TSL_OK) s = done;
    /* results into the caller's memory only now: X (unless the double factorization failed),
     * the pivots, A's double factors where they were used */
    if (s == TSL_OK && nb && info == 0)
        s = tsl__download_rect(ctx, w.x->mem, c->x, brows, bcols * es, c->ldx * es);
    if (s == TSL_OK && iter < 0 && !c->chol)
        s = tsl__download_rect(ctx, a.mem, c->a, n, n * es, c->lda * es);
    if (s == TSL_OK && iter < 0 && c->chol) /* the factor's triangle only (1 lower, 2 upper) */
        s = tsl__l3_download_triangle(ctx, es, a.mem, c->a, n, c->lda,
                                      (c->uplo == TSL_LOWER) == (c->layout == TSL_ROW_MAJOR) ? 1
                                                                                          : 2);
    if (s == TSL_OK && !c->chol) s = tsl__read_at(ctx, piv.mem, 0, n * sizeof(int), c->ipiv);
    if (s == TSL_OK) *c->iter = iter, *c->info = info;
    rf_free(&w);
    return s == TSL_OK ? tsl__timing_end(ctx) : s;
}

static tsl_status rf_entry(tsl_context *ctx, rf_call c)
{
    size_t n = c.n;
    int *iter = c.iter, *info = c.info;
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", c.fn);
    tsl__timing_begin(ctx);
    tsl_status s = rf_check(ctx, &c);
    if (s != TSL_OK) return s;
    *iter = 0, *info = 0;
    if (n == 0) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, 1, c.fn)) != TSL_OK) return s;
    return rf_run(ctx, &c);
}

tsl_status tsl_dsgesv(tsl_context *ctx, tsl_layout layout, size_t n, size_t nrhs, double *a,
                      size_t lda, int *ipiv, const double *b, size_t ldb, double *x, size_t ldx,
                      int *iter, int *info)
{
    return rf_entry(ctx, (rf_call){.fn = "tsl_dsgesv", .layout = layout, .n = n, .nrhs = nrhs,
                                   .lda = lda, .ldb = ldb, .ldx = ldx, .a = a, .b = b, .x = x,
                                   .ipiv = ipiv, .iter = iter, .info = info});
}

tsl_status tsl_dsposv(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n, size_t nrhs,
                      double *a, size_t lda, const double *b, size_t ldb, double *x, size_t ldx,
                      int *iter, int *info)
{
    return rf_entry(ctx, (rf_call){.fn = "tsl_dsposv", .chol = 1, .uplo = uplo, .layout = layout,
                                   .n = n, .nrhs = nrhs, .lda = lda, .ldb = ldb, .ldx = ldx,
                                   .a = a, .b = b, .x = x, .iter = iter, .info = info});
}
