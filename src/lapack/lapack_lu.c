/* lapack_lu.c: LU with partial pivoting (getrf) and its solve (getrs) on a matrix in device
 * memory, and the steps the factorizations share: GEMM and TRSM on blocks in either layout, the
 * row interchanges and the kernels of lapack.cl.
 *
 * getrf is blocked over panels of LP_LU_NB columns (tsl__lp_getrf), and a panel is factored
 * recursively, as LAPACK's dgetrf2: the left half of the columns is factored (down to
 * leaves of LP_LEAF columns, lu_leaf or lu_col), the right half's top rows are solved by the unit
 * lower triangle (TRSM) and the rest updated by one GEMM, the bottom right is factored the same
 * way. Each leaf's interchanges reach the whole matrix row as soon as it is factored (within
 * its columns as it picks them, beside it by one lu_perm launch), which is the exchanges
 * dgetrf2 and dgetrf apply later with dlaswp, in the same order, on columns nothing reads in
 * between; so getrf has no row-interchange step of its own. Every flop outside the
 * leaves is in TRSM and GEMM. The leaves keep LAPACK's choices: the first row of largest magnitude
 * as the pivot, a zero pivot recorded in INFO (the first one) and the factorization completed. */
#include <stdio.h>
#include <string.h>

#include "lapack/lapack.h"

/* The leaves' kernels (lapack.cl), built unoptimized on PoCL: PoCL 3.1's optimized work-group
 * code for these one-work-group kernels (loops whose bounds differ between work-items, barriers
 * between them) read and wrote past the matrix and gave wrong factors; unoptimized they are right
 * (and Oclgrind finds nothing in them). They are a small part of a factorization's time. The
 * exception is chol_diag, whose unoptimized code PoCL 3.1 gets wrong (a 3 x 3 block came back
 * with only two of its elements written) and whose optimized code is right, as Oclgrind's run
 * of the same kernel. */
tsl_status tsl__lp_kernel(tsl_context *ctx, int prec, const char *name, cl_kernel *k)
{
    tsl_device_info info;
    int pocl = tsl_context_device(ctx, &info) == TSL_OK &&
               strstr(info.platform, "Portable Computing Language") != NULL;
    int unoptimized = pocl && strcmp(name, "chol_diag") != 0;
    char options[192];
    snprintf(options, sizeof options,
             "-DPRECISION=%d -DLEAF_WG=%d -DLEAF_MAX_COLS=%d -DONLY_ONE_KERNEL -DONLY_%s%s%s",
             prec == TSL_DOUBLE ? 64 : 32, LP_LEAF_WG, LP_LEAF, name,
             unoptimized ? " -cl-opt-disable" : "",
             tsl__nv_compute_capability(ctx) > 0 ? " -DNV_FENCE=1" : "");
    return tsl__get_kernel(ctx, "lapack.cl", options, name, k);
}

tsl_status tsl__lp_gemm(tsl_context *ctx, int prec, tsl_layout layout, tsl_trans ta,
                        tsl_trans tb, size_t m, size_t n, size_t k, double alpha, tsl__matrix a,
                        tsl__matrix b, double beta, tsl__matrix c)
{
    if (m == 0 || n == 0) return TSL_OK;
    /* tsl__gemm_mem is row-major; a column-major C = op(A) op(B) is C^T = op(B)^T op(A)^T there */
    tsl__gemm_call g = layout == TSL_ROW_MAJOR
                           ? (tsl__gemm_call){.prec = prec, .ta = ta, .tb = tb, .m = m, .n = n,
                                              .k = k, .alpha = alpha, .beta = beta, .a = a,
                                              .b = b, .c = c}
                           : (tsl__gemm_call){.prec = prec, .ta = tb, .tb = ta, .m = n, .n = m,
                                              .k = k, .alpha = alpha, .beta = beta, .a = b,
                                              .b = a, .c = c};
    return tsl__gemm_mem(ctx, &g);
}

tsl_status tsl__lp_trsm(tsl_context *ctx, int prec, tsl_layout layout, tsl_side side,
                        tsl_uplo uplo, tsl_trans trans, tsl_diag diag, size_t m, size_t n,
                        double alpha, tsl__matrix a, tsl__matrix b)
{
    tsl__trxm_call t = {.prec = prec, .solve = 1, .layout = layout, .side = side, .uplo = uplo,
                        .trans = trans, .diag = diag, .m = m, .n = n, .alpha = alpha, .a = a,
                        .b = b};
    return tsl__trxm_mem(ctx, &t);
}

tsl_status tsl__lp_swap(tsl_context *ctx, const lp_mat *a, size_t c0, size_t ncols,
                        const lp_piv *piv, size_t k1, size_t k2, int back)
{
    if (ncols == 0 || k2 <= k1) return TSL_OK;
    cl_kernel k;
    tsl_status s = tsl__lp_kernel(ctx, a->prec, "lu_swap", &k);
    if (s != TSL_OK) return s;
    int nc = (int)ncols, ik1 = (int)k1, ik2 = (int)k2;
    cl_long off = (cl_long)lp_sub(a, 0, c0).offset, rs, cs;
    lp_strides(a, &rs, &cs);
    tsl__arg args[] = {{sizeof nc, &nc},   {sizeof(cl_mem), &a->mem}, {sizeof off, &off},
                       {sizeof rs, &rs},   {sizeof cs, &cs},          {sizeof(cl_mem), &piv->mem},
                       {sizeof ik1, &ik1}, {sizeof ik2, &ik2},        {sizeof back, &back}};
    size_t local = 64, global = (ncols + local - 1) / local * local;
    return tsl__launch(ctx, k, "lapack row interchanges", args, 9, 1, &global, &local);
}

/* ---- the leaves' variants (the op "getrf") ----------------------------------------------------
 * leaf: one work-group factors the leaf column by column (lu_leaf): one launch, its rows walked
 * by LP_LEAF_WG work-items; columns: the same arithmetic over a work-group per LP_LEAF_WG rows,
 * in one launch (lu_col, whose groups wait on each other through counters), for devices where one
 * work-group is a small part of the device. auto: columns on GPUs, leaf elsewhere. A leaf of at
 * most LP_LEAF_WG rows always takes `leaf`. */
typedef struct {
    const char *name;
    int columns;
} getrf_variant;
static const getrf_variant getrf_variants[] = {{"leaf", 0}, {"columns", 1}};
static const tsl__auto_row getrf_auto[] = {{"gpu", "columns"}, {NULL, "leaf"}};

static const char *getrf_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(getrf_variants), i);
}
static tsl_status getrf_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    const getrf_variant *v =
        tsl__find_variant(ctx, "getrf", TSL__TABLE(getrf_variants), getrf_auto, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return TSL_OK;
}
const tsl__op_desc tsl__getrf_desc = {
    .op = "getrf", .variant_name = getrf_name, .variant_check = getrf_check};

/* The columns variant on the m x n leaf at (r0, r0), n <= m: one launch of lu_col, its tasks (a
 * row block's step) taken by at most two groups a compute unit. */
static tsl_status lu_columns(tsl_context *ctx, const lp_mat *a, size_t r0, size_t m, size_t n,
                             const lp_piv *piv)
{
    cl_kernel kc;
    tsl_status s;
    size_t es = a->prec == TSL_DOUBLE ? sizeof(double) : sizeof(float);
    size_t groups = (m + LP_LEAF_WG - 1) / LP_LEAF_WG;
    cl_mem scratch, where, ctr;
    if ((s = tsl__lp_kernel(ctx, a->prec, "lu_col", &kc)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_SCRATCH, 2 * (groups + 1) * (LP_LEAF + 1) * es,
                            &scratch)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_SCRATCH2, 2 * groups * sizeof(int), &where)) != TSL_OK ||
        (s = tsl__counters(ctx, 3, &ctr)) != TSL_OK)
        return s;
    int im = (int)m, in = (int)n, ir0 = (int)r0, at = (int)piv->info_at, G = (int)groups;
    cl_long off = (cl_long)lp_sub(a, r0, r0).offset, rs, cs;
    lp_strides(a, &rs, &cs);
    size_t most = 2 * (size_t)(ctx->info.compute_units ? ctx->info.compute_units : 1);
    size_t wg = LP_LEAF_WG, global = (groups < most ? groups : most) * wg;
    tsl__arg ca[] = {{sizeof im, &im},
                     {sizeof in, &in},
                     {sizeof(cl_mem), &a->mem},
                     {sizeof off, &off},
                     {sizeof rs, &rs},
                     {sizeof cs, &cs},
                     {sizeof G, &G},
                     {sizeof(cl_mem), &scratch},
                     {sizeof(cl_mem), &where},
                     {sizeof(cl_mem), &piv->mem},
                     {sizeof ir0, &ir0},
                     {sizeof at, &at},
                     {sizeof(cl_mem), &ctr}};
    return tsl__launch(ctx, kc, "lapack LU columns", ca, 13, 1, &global, &wg);
}

/* The leaf's n interchanges (piv[r0 .. r0 + n)) on the rest of its rows: the columns left and
 * right of the leaf at (r0, r0) in a matrix of N columns (lu_perm). */
static tsl_status lu_perm(tsl_context *ctx, const lp_mat *a, size_t N, size_t r0, size_t n,
                          const lp_piv *piv)
{
    if (N == n) return TSL_OK;
    cl_kernel k;
    tsl_status s = tsl__lp_kernel(ctx, a->prec, "lu_perm", &k);
    if (s != TSL_OK) return s;
    int in = (int)n, ir0 = (int)r0, left = (int)r0, right = (int)(N - r0 - n);
    cl_long off = (cl_long)lp_sub(a, r0, r0).offset, rs, cs;
    lp_strides(a, &rs, &cs);
    tsl__arg args[] = {{sizeof in, &in},   {sizeof(cl_mem), &a->mem}, {sizeof off, &off},
                       {sizeof rs, &rs},   {sizeof cs, &cs},          {sizeof(cl_mem), &piv->mem},
                       {sizeof ir0, &ir0}, {sizeof left, &left},      {sizeof right, &right}};
    size_t local = 64, global = (N - n + local - 1) / local * local;
    return tsl__launch(ctx, k, "lapack LU interchanges beside a leaf", args, 9, 1, &global, &local);
}

/* The leaf variant on the m x n leaf at (r0, r0): one work-group, column by column (lu_leaf). */
static tsl_status lu_one_group(tsl_context *ctx, const lp_mat *a, size_t r0, size_t m, size_t n,
                               const lp_piv *piv)
{
    cl_kernel k;
    tsl_status s = tsl__lp_kernel(ctx, a->prec, "lu_leaf", &k);
    if (s != TSL_OK) return s;
    int im = (int)m, in = (int)n, ir0 = (int)r0, at = (int)piv->info_at;
    cl_long off = (cl_long)lp_sub(a, r0, r0).offset, rs, cs;
    lp_strides(a, &rs, &cs);
    tsl__arg args[] = {
        {sizeof im, &im}, {sizeof in, &in}, {sizeof(cl_mem), &a->mem},   {sizeof off, &off},
        {sizeof rs, &rs}, {sizeof cs, &cs}, {sizeof(cl_mem), &piv->mem}, {sizeof ir0, &ir0},
        {sizeof at, &at}};
    size_t wg = LP_LEAF_WG;
    return tsl__launch(ctx, k, "lapack LU leaf", args, 9, 1, &wg, &wg);
}

/* The leaf: the m x n block at (r0, r0) (n <= LP_LEAF) of a matrix of N columns, by the
 * context's getrf variant, its interchanges then applied to the rest of the rows (lu_perm). */
static tsl_status lu_leaf(tsl_context *ctx, const lp_mat *a, size_t N, size_t r0, size_t m,
                          size_t n, const lp_piv *piv)
{
    const char *v = tsl__context_variant(ctx, "getrf");
    if (strcmp(v, "auto") == 0) v = tsl__auto_pick(ctx, getrf_auto);
    tsl_status s = m > LP_LEAF_WG && strcmp(v, "columns") == 0
                       ? lu_columns(ctx, a, r0, m, n, piv)
                       : lu_one_group(ctx, a, r0, m, n, piv);
    return s != TSL_OK ? s : lu_perm(ctx, a, N, r0, n, piv);
}

/* LU of the m x n block at (r0, r0) of a matrix of N columns (the rows r0 .. of the whole
 * matrix), its pivots at piv[r0 ..] as rows of the whole matrix. The leaves apply their
 * interchanges to the whole matrix rows (lu_leaf), so no step here exchanges rows: the
 * columns right of a leaf have its interchanges before the TRSM and GEMM that read them, the
 * columns left of it (finished L) after the GEMMs that read them, as dgetrf2's dlaswp calls. */
static tsl_status lu_rec(tsl_context *ctx, const lp_mat *a, size_t N, size_t r0, size_t m, size_t n,
                         const lp_piv *piv)
{
    size_t kmin = m < n ? m : n;
    tsl_status s;
    if (kmin == 0) return TSL_OK;
    if (kmin <= LP_LEAF) {
        if ((s = lu_leaf(ctx, a, N, r0, m, kmin, piv)) != TSL_OK) return s;
        if (n == kmin) return TSL_OK;
        /* a wide block (m < n): the rest of its rows' columns solved */
        return tsl__lp_trsm(ctx, a->prec, a->layout, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT,
                            kmin, n - kmin, 1.0, lp_sub(a, r0, r0), lp_sub(a, r0, r0 + kmin));
    }
    /* the left part: half of the pivots, in whole leaves */
    size_t n1 = kmin / 2 / LP_LEAF * LP_LEAF;
    if (n1 == 0) n1 = LP_LEAF;
    size_t n2 = n - n1;
    if ((s = lu_rec(ctx, a, N, r0, m, n1, piv)) != TSL_OK) return s;
    /* A12 = L11^-1 A12; A22 -= A21 A12 */
    if ((s = tsl__lp_trsm(ctx, a->prec, a->layout, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT,
                          n1, n2, 1.0, lp_sub(a, r0, r0), lp_sub(a, r0, r0 + n1))) != TSL_OK)
        return s;
    if ((s = tsl__lp_gemm(ctx, a->prec, a->layout, TSL_NO_TRANS, TSL_NO_TRANS, m - n1, n2, n1,
                          -1.0, lp_sub(a, r0 + n1, r0), lp_sub(a, r0, r0 + n1), 1.0,
                          lp_sub(a, r0 + n1, r0 + n1))) != TSL_OK)
        return s;
    return lu_rec(ctx, a, N, r0 + n1, m - n1, n2, piv);
}

/* Blocked over panels of LP_LU_NB columns, each factored by lu_rec (its interchanges reaching
 * the whole rows), the panel's rows of the right part solved by its unit lower triangle and the
 * rest updated by one GEMM of k = LP_LU_NB. */
tsl_status tsl__lp_getrf(tsl_context *ctx, const lp_mat *a, size_t m, size_t n, const lp_piv *piv)
{
    tsl_status s = TSL_OK;
    size_t kmin = m < n ? m : n;
    for (size_t j0 = 0; s == TSL_OK && j0 < kmin; j0 += LP_LU_NB) {
        size_t jb = kmin - j0 < LP_LU_NB ? kmin - j0 : LP_LU_NB, right = n - j0 - jb;
        if ((s = lu_rec(ctx, a, n, j0, m - j0, jb, piv)) != TSL_OK) break;
        if (right == 0) continue;
        if ((s = tsl__lp_trsm(ctx, a->prec, a->layout, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS,
                              TSL_UNIT, jb, right, 1.0, lp_sub(a, j0, j0),
                              lp_sub(a, j0, j0 + jb))) != TSL_OK)
            break;
        s = tsl__lp_gemm(ctx, a->prec, a->layout, TSL_NO_TRANS, TSL_NO_TRANS, m - j0 - jb, right,
                         jb, -1.0, lp_sub(a, j0 + jb, j0), lp_sub(a, j0, j0 + jb), 1.0,
                         lp_sub(a, j0 + jb, j0 + jb));
    }
    return s;
}

tsl_status tsl__lp_getrs(tsl_context *ctx, const lp_mat *a, tsl_trans trans, size_t n,
                         size_t nrhs, const lp_piv *piv, const lp_mat *b)
{
    if (n == 0 || nrhs == 0) return TSL_OK;
    tsl_status s;
    tsl__matrix am = lp_sub(a, 0, 0), bm = lp_sub(b, 0, 0);
    if (trans == TSL_NO_TRANS) { /* P L U X = B: X = U^-1 L^-1 P^T B */
        if ((s = tsl__lp_swap(ctx, b, 0, nrhs, piv, 0, n, 0)) != TSL_OK ||
            (s = tsl__lp_trsm(ctx, a->prec, a->layout, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS,
                              TSL_UNIT, n, nrhs, 1.0, am, bm)) != TSL_OK)
            return s;
        return tsl__lp_trsm(ctx, a->prec, a->layout, TSL_LEFT, TSL_UPPER, TSL_NO_TRANS,
                            TSL_NON_UNIT, n, nrhs, 1.0, am, bm);
    }
    /* (P L U)^T X = B: X = P L^-T U^-T B */
    if ((s = tsl__lp_trsm(ctx, a->prec, a->layout, TSL_LEFT, TSL_UPPER, TSL_TRANS, TSL_NON_UNIT,
                          n, nrhs, 1.0, am, bm)) != TSL_OK ||
        (s = tsl__lp_trsm(ctx, a->prec, a->layout, TSL_LEFT, TSL_LOWER, TSL_TRANS, TSL_UNIT, n,
                          nrhs, 1.0, am, bm)) != TSL_OK)
        return s;
    return tsl__lp_swap(ctx, b, 0, nrhs, piv, 0, n, 1);
}
