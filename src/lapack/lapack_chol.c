/* lapack_chol.c: Cholesky factorization (potrf) and its solve (potrs) on a matrix in device
 * memory.
 *
 * potrf works on the lower triangle: an upper triangle in one layout is the lower triangle of
 * the other layout on the same memory (U(i, j) is L(j, i) with L = U^T), so (upper, column-major)
 * runs as (lower, row-major) and the reverse. It is recursive over panels, the columns j0 .. j0 +
 * w of every row from j0 down: the left half of the panel is factored, the right half updated
 * by its columns (SYRK on the right half's diagonal block, GEMM below it), then the right half
 * factored. The panel of the whole matrix is the whole factorization; a panel of at most LP_LEAF
 * columns is a leaf (chol_diag: its diagonal block factored by one work-group; chol_solve: the
 * rows below solved by substitution, a work-group per LP_LEAF_WG rows). Every flop outside the
 * leaves is in SYRK and GEMM, and there is no TRSM: the solves by each diagonal block are the
 * leaves' substitutions. A leaf that meets a diagonal element that is not positive sets INFO to
 * its row (1-based) and the leaves after it do nothing, as LAPACK stops there; what the steps
 * after it leave in the trailing part is unspecified, as in LAPACK. */
#include "lapack/lapack.h"

/* The leaf: the (rows x n) panel at (j0, j0), n <= LP_LEAF: its diagonal block factored
 * (chol_diag, one work-group), then the rows below solved (chol_solve, a work-group per
 * LP_LEAF_WG rows). */
static tsl_status chol_leaf(tsl_context *ctx, const lp_mat *a, size_t j0, size_t rows, size_t n,
                            const lp_piv *piv)
{
    cl_kernel kd, ks;
    tsl_status s;
    if ((s = tsl__lp_kernel(ctx, a->prec, "chol_diag", &kd)) != TSL_OK ||
        (s = tsl__lp_kernel(ctx, a->prec, "chol_solve", &ks)) != TSL_OK)
        return s;
    int in = (int)n, ij0 = (int)j0, at = (int)piv->info_at;
    cl_long off = (cl_long)lp_sub(a, j0, j0).offset, rs, cs;
    lp_strides(a, &rs, &cs);
    tsl__arg da[] = {{sizeof in, &in},   {sizeof(cl_mem), &a->mem}, {sizeof off, &off},
                     {sizeof rs, &rs},   {sizeof cs, &cs},          {sizeof(cl_mem), &piv->mem},
                     {sizeof ij0, &ij0}, {sizeof at, &at}};
    size_t wg = LP_LEAF_WG, below = rows - n;
    if ((s = tsl__launch(ctx, kd, "lapack Cholesky diagonal block", da, 8, 1, &wg, &wg)) !=
            TSL_OK ||
        below == 0)
        return s;
    int im = (int)below;
    cl_long offb = (cl_long)lp_sub(a, j0 + n, j0).offset;
    tsl__arg sa[] = {{sizeof im, &im},   {sizeof in, &in}, {sizeof(cl_mem), &a->mem},
                     {sizeof offb, &offb}, {sizeof off, &off}, {sizeof rs, &rs},
                     {sizeof cs, &cs},   {sizeof(cl_mem), &piv->mem}, {sizeof at, &at}};
    size_t global = (below + wg - 1) / wg * wg;
    return tsl__launch(ctx, ks, "lapack Cholesky solve below", sa, 9, 1, &global, &wg);
}

/* The lower Cholesky factor of the panel of columns j0 .. j0 + w of the n x n matrix: rows j0 ..
 * n - 1, every update from the columns left of j0 applied. */
static tsl_status chol_rec(tsl_context *ctx, const lp_mat *a, size_t n, size_t j0, size_t w,
                           const lp_piv *piv)
{
    if (w <= LP_LEAF) return chol_leaf(ctx, a, j0, n - j0, w, piv);
    size_t h = w / 2 / LP_LEAF * LP_LEAF;
    if (h == 0) h = LP_LEAF;
    tsl_status s = chol_rec(ctx, a, n, j0, h, piv);
    if (s != TSL_OK) return s;
    /* the right half's diagonal block: A22 -= A21 A21^T (its lower triangle) */
    tsl__syrk_call y = {.prec = a->prec, .layout = a->layout, .uplo = TSL_LOWER,
                        .trans = TSL_NO_TRANS, .n = w - h, .k = h, .alpha = -1.0, .beta = 1.0,
                        .a = lp_sub(a, j0 + h, j0), .c = lp_sub(a, j0 + h, j0 + h)};
    if ((s = tsl__syrk_mem(ctx, &y)) != TSL_OK) return s;
    /* the rows below it: A32 -= A31 A21^T */
    if ((s = tsl__lp_gemm(ctx, a->prec, a->layout, TSL_NO_TRANS, TSL_TRANS, n - j0 - w, w - h, h,
                          -1.0, lp_sub(a, j0 + w, j0), lp_sub(a, j0 + h, j0), 1.0,
                          lp_sub(a, j0 + w, j0 + h))) != TSL_OK)
        return s;
    return chol_rec(ctx, a, n, j0 + h, w - h, piv);
}

tsl_status tsl__lp_potrf(tsl_context *ctx, const lp_mat *a, tsl_uplo uplo, size_t n,
                         const lp_piv *piv)
{
    if (n == 0) return TSL_OK;
    lp_mat low = *a;
    if (uplo == TSL_UPPER)
        low.layout = a->layout == TSL_COL_MAJOR ? TSL_ROW_MAJOR : TSL_COL_MAJOR;
    return chol_rec(ctx, &low, n, 0, n, piv);
}

tsl_status tsl__lp_potrs(tsl_context *ctx, const lp_mat *a, tsl_uplo uplo, size_t n, size_t nrhs,
                         const lp_mat *b)
{
    if (n == 0 || nrhs == 0) return TSL_OK;
    /* lower: L L^T X = B; upper: U^T U X = B. The first solve is by the factor's transpose when
     * it is upper. */
    tsl_trans first = uplo == TSL_LOWER ? TSL_NO_TRANS : TSL_TRANS;
    tsl_trans second = uplo == TSL_LOWER ? TSL_TRANS : TSL_NO_TRANS;
    tsl__matrix am = lp_sub(a, 0, 0), bm = lp_sub(b, 0, 0);
    tsl_status s = tsl__lp_trsm(ctx, a->prec, a->layout, TSL_LEFT, uplo, first, TSL_NON_UNIT, n,
                                nrhs, 1.0, am, bm);
    if (s != TSL_OK) return s;
    return tsl__lp_trsm(ctx, a->prec, a->layout, TSL_LEFT, uplo, second, TSL_NON_UNIT, n, nrhs,
                        1.0, am, bm);
}
