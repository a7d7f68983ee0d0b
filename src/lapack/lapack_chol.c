/* lapack_chol.c: Cholesky factorization (potrf) and its solve (potrs) on a matrix in device
 * memory.
 *
 * potrf works on the lower triangle: an upper triangle in one layout is the lower triangle of
 * the other layout on the same memory (U(i, j) is L(j, i) with L = U^T), so (upper, column-major)
 * runs as (lower, row-major) and the reverse. It is recursive: the leading half is factored
 * (down to leaves of LP_LEAF columns, one work-group each, chol_leaf), the block below it solved
 * by TRSM (A21 = A21 L11^-T) and the trailing triangle updated by SYRK (A22 -= A21 A21^T), then
 * the trailing half factored the same way. A leaf that meets a diagonal element that is not
 * positive sets INFO to its row (1-based) and the leaves after it do nothing, as LAPACK stops
 * there; what the steps after it leave in the trailing part is unspecified, as in LAPACK. */
#include "lapack/lapack.h"

static tsl_status chol_leaf(tsl_context *ctx, const lp_mat *a, size_t j0, size_t n,
                            const lp_piv *piv)
{
    cl_kernel k;
    tsl_status s = tsl__lp_kernel(ctx, a->prec, "chol_leaf", &k);
    if (s != TSL_OK) return s;
    int in = (int)n, ij0 = (int)j0, at = (int)piv->info_at;
    cl_long off = (cl_long)lp_sub(a, j0, j0).offset, rs, cs;
    lp_strides(a, &rs, &cs);
    tsl__arg args[] = {{sizeof in, &in},   {sizeof(cl_mem), &a->mem},   {sizeof off, &off},
                       {sizeof rs, &rs},   {sizeof cs, &cs},            {sizeof(cl_mem), &piv->mem},
                       {sizeof ij0, &ij0}, {sizeof at, &at}};
    size_t wg = LP_LEAF_WG;
    return tsl__launch(ctx, k, "lapack Cholesky leaf", args, 8, 1, &wg, &wg);
}

/* The lower Cholesky factor of the n x n diagonal block at (j0, j0). */
static tsl_status chol_rec(tsl_context *ctx, const lp_mat *a, size_t j0, size_t n,
                           const lp_piv *piv)
{
    if (n <= LP_LEAF) return chol_leaf(ctx, a, j0, n, piv);
    size_t n1 = n / 2 / LP_LEAF * LP_LEAF;
    if (n1 == 0) n1 = LP_LEAF;
    size_t n2 = n - n1;
    tsl_status s = chol_rec(ctx, a, j0, n1, piv);
    if (s != TSL_OK) return s;
    if ((s = tsl__lp_trsm(ctx, a->prec, a->layout, TSL_RIGHT, TSL_LOWER, TSL_TRANS, TSL_NON_UNIT,
                          n2, n1, 1.0, lp_sub(a, j0, j0), lp_sub(a, j0 + n1, j0))) != TSL_OK)
        return s;
    tsl__syrk_call y = {.prec = a->prec, .layout = a->layout, .uplo = TSL_LOWER,
                        .trans = TSL_NO_TRANS, .n = n2, .k = n1, .alpha = -1.0, .beta = 1.0,
                        .a = lp_sub(a, j0 + n1, j0), .c = lp_sub(a, j0 + n1, j0 + n1)};
    if ((s = tsl__syrk_mem(ctx, &y)) != TSL_OK) return s;
    return chol_rec(ctx, a, j0 + n1, n2, piv);
}

tsl_status tsl__lp_potrf(tsl_context *ctx, const lp_mat *a, tsl_uplo uplo, size_t n,
                         const lp_piv *piv)
{
    if (n == 0) return TSL_OK;
    lp_mat low = *a;
    if (uplo == TSL_UPPER)
        low.layout = a->layout == TSL_COL_MAJOR ? TSL_ROW_MAJOR : TSL_COL_MAJOR;
    return chol_rec(ctx, &low, 0, n, piv);
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
