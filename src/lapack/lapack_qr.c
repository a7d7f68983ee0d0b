/* lapack_qr.c: Householder QR (geqrf) and the application of its Q (ormqr) on matrices in device
 * memory, and the small steps the least-squares driver (gels, lapack_api.c) needs.
 *
 * geqrf is blocked as LAPACK's dgeqrf: panels of LP_QR_NB columns, each factored recursively
 * (its left half, the left half's block reflector applied to its right half, its right half)
 * down to leaves of LP_LEAF columns (one work-group each, qr_leaf: dgeqr2's arithmetic), then
 * the panel's block reflector I - V T V^T applied to the trailing matrix. A block reflector is
 * applied as LAPACK's dlarfb, by GEMMs: V is copied whole (unit diagonal, zeros above) into a
 * workspace (qr_vcopy), T comes from the Gram matrix G = V^T V (one GEMM) by dlarft's recurrence
 * (qr_larft), and C - V op(T) (V^T C) (left) or C - (C V) op(T) V^T (right) is three GEMMs. So
 * every flop outside the leaves and the k x k recurrences is in GEMM.
 *
 * The reflectors' storage is LAPACK's: v(i) = 1 implied, v below the diagonal of column i, tau(i)
 * in tau; R on and above the diagonal. An LQ factorization (gels with m < n) is the QR of the
 * same memory read in the other layout: its reflectors, stored along rows, are exactly dgelqf's.
 *
 * Workspaces: V, T and G in TSL__WS_BLOCKS, the two k x n products in TSL__WS_W (slots no GEMM
 * takes), sized once per call by tsl__lp_qr_reserve. */
#include <string.h>

#include "lapack/lapack.h"

/* A matrix of rows x cols in layout at element off of mem, packed (ld the inner extent). */
static lp_mat packed(int prec, tsl_layout layout, cl_mem mem, size_t off, size_t rows,
                     size_t cols)
{
    size_t inner = layout == TSL_COL_MAJOR ? rows : cols;
    return (lp_mat){.prec = prec, .layout = layout, .mem = mem, .off = off,
                    .ld = inner ? inner : 1};
}

static size_t elem(int prec)
{
    return prec == TSL_DOUBLE ? sizeof(double) : sizeof(float);
}

tsl_status tsl__lp_qr_reserve(tsl_context *ctx, int prec, size_t rows, size_t cols)
{
    size_t nb = LP_QR_NB, es = elem(prec);
    cl_mem m;
    tsl_status s = tsl__workspace(ctx, TSL__WS_BLOCKS, (rows * nb + 2 * nb * nb) * es, &m);
    if (s != TSL_OK) return s;
    return tsl__workspace(ctx, TSL__WS_W, 2 * nb * (cols ? cols : 1) * es, &m);
}

tsl_status tsl__lp_elementwise(tsl_context *ctx, const lp_mat *a, const char *name,
                              const char *what, size_t i, size_t j, size_t rows, size_t cols,
                              const tsl__arg *extra, int nextra)
{
    if (rows == 0 || cols == 0) return TSL_OK;
    cl_kernel k;
    tsl_status s = tsl__lp_kernel(ctx, a->prec, name, &k);
    if (s != TSL_OK) return s;
    int im = (int)rows, in = (int)cols;
    cl_long off = (cl_long)lp_sub(a, i, j).offset, rs, cs;
    lp_strides(a, &rs, &cs);
    tsl__arg args[12] = {{sizeof im, &im}, {sizeof in, &in}, {sizeof(cl_mem), &a->mem},
                        {sizeof off, &off}, {sizeof rs, &rs}, {sizeof cs, &cs}};
    for (int t = 0; t < nextra && t < 6; ++t) args[6 + t] = extra[t];
    size_t local[2] = {16, 16};
    size_t global[2] = {(rows + 15) / 16 * 16, (cols + 15) / 16 * 16};
    return tsl__launch(ctx, k, what, args, 6 + nextra, 2, global, local);
}

tsl_status tsl__lp_zero(tsl_context *ctx, const lp_mat *a, size_t i, size_t j, size_t rows,
                        size_t cols)
{
    return tsl__lp_elementwise(ctx, a, "lp_zero", "lapack zero block", i, j, rows, cols, NULL, 0);
}

tsl_status tsl__lp_trap_nonzero(tsl_context *ctx, const lp_mat *a, size_t rows, size_t cols,
                                const lp_piv *flag)
{
    int at = (int)flag->info_at;
    tsl__arg extra[] = {{sizeof(cl_mem), &flag->mem}, {sizeof at, &at}};
    return tsl__lp_elementwise(ctx, a, "lp_trap_nonzero", "lapack zero test", 0, 0, rows, cols, extra,
                       2);
}

tsl_status tsl__lp_diag_info(tsl_context *ctx, const lp_mat *a, size_t n, const lp_piv *piv)
{
    if (n == 0) return TSL_OK;
    cl_kernel k;
    tsl_status s = tsl__lp_kernel(ctx, a->prec, "lp_diag_info", &k);
    if (s != TSL_OK) return s;
    int in = (int)n, at = (int)piv->info_at;
    cl_long off = (cl_long)a->off, rs, cs;
    lp_strides(a, &rs, &cs);
    tsl__arg args[] = {{sizeof in, &in},   {sizeof(cl_mem), &a->mem},   {sizeof off, &off},
                       {sizeof rs, &rs},   {sizeof cs, &cs},            {sizeof(cl_mem), &piv->mem},
                       {sizeof at, &at}};
    size_t wg = LP_LEAF_WG;
    return tsl__launch(ctx, k, "lapack diagonal test", args, 7, 1, &wg, &wg);
}

/* ---- the leaves' variants (the op "geqrf") ----------------------------------------------------
 * leaf: one work-group factors the leaf column by column (qr_leaf); columns: the same arithmetic
 * over a work-group per LP_LEAF_WG rows, two launches a column (qr_col_reflect, qr_col_update),
 * for devices where one work-group is a small part of the device. auto: columns on GPUs, leaf
 * elsewhere. A leaf of at most LP_LEAF_WG rows always takes `leaf`. */
typedef struct {
    const char *name;
    int columns;
} geqrf_variant;
static const geqrf_variant geqrf_variants[] = {{"leaf", 0}, {"columns", 1}};
static const tsl__auto_row geqrf_auto[] = {{"gpu", "columns"}, {NULL, "leaf"}};

static const char *geqrf_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(geqrf_variants), i);
}
static tsl_status geqrf_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    const geqrf_variant *v =
        tsl__find_variant(ctx, "geqrf", TSL__TABLE(geqrf_variants), geqrf_auto, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return TSL_OK;
}
const tsl__op_desc tsl__geqrf_desc = {
    .op = "geqrf", .variant_name = geqrf_name, .variant_check = geqrf_check};

/* The columns variant on the m x n leaf at (r0, r0): qr_col_update(-1) gives column 0's norm
 * parts; then for each column j qr_col_reflect(j) and qr_col_update(j), and qr_col_reflect(kmin)
 * finishes the last row. Scratch (no GEMM runs meanwhile): the norm's parts (SCRATCH), the dot
 * products' (SCRATCH2), the finished row's w and the betas (SCRATCH3). */
static tsl_status qr_columns(tsl_context *ctx, const lp_mat *a, size_t r0, size_t m, size_t n,
                             cl_mem tau)
{
    cl_kernel ku, kr;
    tsl_status s;
    size_t es = elem(a->prec), wg = LP_LEAF_WG, most = (m + wg - 1) / wg + 1;
    cl_mem pn, pw, tail;
    if ((s = tsl__lp_kernel(ctx, a->prec, "qr_col_update", &ku)) != TSL_OK ||
        (s = tsl__lp_kernel(ctx, a->prec, "qr_col_reflect", &kr)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_SCRATCH, 2 * most * es, &pn)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_SCRATCH2, most * LP_LEAF * es, &pw)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_SCRATCH3, 2 * LP_LEAF * es, &tail)) != TSL_OK)
        return s;
    int im = (int)m, in = (int)n, t0 = (int)r0;
    cl_long off = (cl_long)lp_sub(a, r0, r0).offset, rs, cs;
    lp_strides(a, &rs, &cs);
    long kmin = (long)(m < n ? m : n);
    int nparts = 1; /* the parts qr_col_update left: its groups */
    for (long j = -1; s == TSL_OK && j <= kmin; ++j) {
        int ij = (int)j;
        size_t rows = (long)m > j + 1 ? m - (size_t)(j + 1) : 0;
        size_t groups = rows ? (rows + wg - 1) / wg : 1, global = groups * wg;
        int ng = (int)groups;
        if (j >= 0) {
            size_t rg = j == kmin ? wg : global;
            tsl__arg ra[] = {{sizeof im, &im},         {sizeof in, &in},
                             {sizeof(cl_mem), &a->mem}, {sizeof off, &off},
                             {sizeof rs, &rs},         {sizeof cs, &cs},
                             {sizeof ij, &ij},         {sizeof(cl_mem), &tau},
                             {sizeof t0, &t0},         {sizeof(cl_mem), &pn},
                             {sizeof nparts, &nparts}, {sizeof(cl_mem), &pw},
                             {sizeof(cl_mem), &tail}};
            s = tsl__launch(ctx, kr, "lapack QR column reflector", ra, 13, 1, &rg, &wg);
            if (s != TSL_OK || j == kmin) break;
        }
        /* qr_col_update(j) reads qr_col_reflect(j)'s ng parts of pw */
        tsl__arg ua[] = {{sizeof im, &im},         {sizeof in, &in},
                         {sizeof(cl_mem), &a->mem}, {sizeof off, &off},
                         {sizeof rs, &rs},         {sizeof cs, &cs},
                         {sizeof ij, &ij},         {sizeof(cl_mem), &tau},
                         {sizeof t0, &t0},         {sizeof(cl_mem), &pw},
                         {sizeof ng, &ng},         {sizeof(cl_mem), &tail},
                         {sizeof(cl_mem), &pn}};
        s = tsl__launch(ctx, ku, "lapack QR column update", ua, 13, 1, &global, &wg);
        nparts = ng;
    }
    return s;
}

/* The leaf: QR of the m x n block at (r0, r0), n <= LP_LEAF, its tau at tau[r0 ..]. */
static tsl_status qr_leaf(tsl_context *ctx, const lp_mat *a, size_t r0, size_t m, size_t n,
                          cl_mem tau)
{
    const char *v = tsl__context_variant(ctx, "geqrf");
    if (strcmp(v, "auto") == 0) v = tsl__auto_pick(ctx, geqrf_auto);
    if (m > LP_LEAF_WG && strcmp(v, "columns") == 0) return qr_columns(ctx, a, r0, m, n, tau);
    cl_kernel k;
    tsl_status s = tsl__lp_kernel(ctx, a->prec, "qr_leaf", &k);
    if (s != TSL_OK) return s;
    int im = (int)m, in = (int)n, t0 = (int)r0;
    cl_long off = (cl_long)lp_sub(a, r0, r0).offset, rs, cs;
    lp_strides(a, &rs, &cs);
    tsl__arg args[] = {{sizeof im, &im}, {sizeof in, &in},        {sizeof(cl_mem), &a->mem},
                       {sizeof off, &off}, {sizeof rs, &rs},      {sizeof cs, &cs},
                       {sizeof(cl_mem), &tau}, {sizeof t0, &t0}};
    size_t wg = LP_LEAF_WG;
    return tsl__launch(ctx, k, "lapack QR leaf", args, 8, 1, &wg, &wg);
}

tsl_status tsl__lp_larfb(tsl_context *ctx, const lp_mat *a, size_t r0, size_t c0, size_t mv,
                         size_t kb, cl_mem tau, tsl_side side, tsl_trans trans, const lp_mat *c,
                         size_t ci, size_t cj, size_t nc)
{
    if (mv == 0 || kb == 0 || nc == 0) return TSL_OK;
    int prec = a->prec;
    tsl_layout L = c->layout;
    size_t es = elem(prec);
    cl_mem blocks, w;
    tsl_status s;
    if ((s = tsl__workspace(ctx, TSL__WS_BLOCKS, (mv * kb + 2 * kb * kb) * es, &blocks)) !=
            TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_W, 2 * kb * nc * es, &w)) != TSL_OK)
        return s;
    lp_mat v = packed(prec, L, blocks, 0, mv, kb), t = packed(prec, L, blocks, mv * kb, kb, kb),
           g = packed(prec, L, blocks, mv * kb + kb * kb, kb, kb);
    int left = side == TSL_LEFT;
    lp_mat w1 = left ? packed(prec, L, w, 0, kb, nc) : packed(prec, L, w, 0, nc, kb),
           w2 = left ? packed(prec, L, w, kb * nc, kb, nc) : packed(prec, L, w, kb * nc, nc, kb);
    /* V, whole */
    cl_long voff = 0, vrs, vcs;
    lp_strides(&v, &vrs, &vcs);
    tsl__arg extra[] = {{sizeof(cl_mem), &blocks}, {sizeof voff, &voff}, {sizeof vrs, &vrs},
                        {sizeof vcs, &vcs}};
    if ((s = tsl__lp_elementwise(ctx, a, "qr_vcopy", "lapack QR reflectors", r0, c0, mv, kb, extra, 4)) !=
        TSL_OK)
        return s;
    /* G = V^T V, then T */
    tsl__matrix vm = lp_sub(&v, 0, 0);
    if ((s = tsl__lp_gemm(ctx, prec, L, TSL_TRANS, TSL_NO_TRANS, kb, kb, mv, 1.0, vm, vm, 0.0,
                          lp_sub(&g, 0, 0))) != TSL_OK)
        return s;
    cl_kernel k;
    if ((s = tsl__lp_kernel(ctx, prec, "qr_larft", &k)) != TSL_OK) return s;
    int ik = (int)kb, t0 = (int)c0;
    cl_long goff = (cl_long)g.off, grs, gcs, toff = (cl_long)t.off, trs, tcs;
    lp_strides(&g, &grs, &gcs);
    lp_strides(&t, &trs, &tcs);
    tsl__arg la[] = {{sizeof ik, &ik},          {sizeof(cl_mem), &blocks}, {sizeof goff, &goff},
                     {sizeof grs, &grs},        {sizeof gcs, &gcs},        {sizeof(cl_mem), &tau},
                     {sizeof t0, &t0},          {sizeof(cl_mem), &blocks}, {sizeof toff, &toff},
                     {sizeof trs, &trs},        {sizeof tcs, &tcs}};
    size_t wg = LP_LEAF_WG;
    if ((s = tsl__launch(ctx, k, "lapack QR block reflector", la, 11, 1, &wg, &wg)) != TSL_OK)
        return s;
    tsl__matrix cm = lp_sub(c, ci, cj), tm = lp_sub(&t, 0, 0), w1m = lp_sub(&w1, 0, 0),
                w2m = lp_sub(&w2, 0, 0);
    /* Q = I - V T V^T; Q^T = I - V T^T V^T */
    tsl_trans tt = trans == TSL_NO_TRANS ? TSL_NO_TRANS : TSL_TRANS;
    if (left) { /* C - V op(T) (V^T C), C mv x nc */
        if ((s = tsl__lp_gemm(ctx, prec, L, TSL_TRANS, TSL_NO_TRANS, kb, nc, mv, 1.0, vm, cm, 0.0,
                              w1m)) != TSL_OK ||
            (s = tsl__lp_gemm(ctx, prec, L, tt, TSL_NO_TRANS, kb, nc, kb, 1.0, tm, w1m, 0.0,
                              w2m)) != TSL_OK)
            return s;
        return tsl__lp_gemm(ctx, prec, L, TSL_NO_TRANS, TSL_NO_TRANS, mv, nc, kb, -1.0, vm, w2m,
                            1.0, cm);
    }
    /* C - (C V) op(T) V^T, C nc x mv */
    if ((s = tsl__lp_gemm(ctx, prec, L, TSL_NO_TRANS, TSL_NO_TRANS, nc, kb, mv, 1.0, cm, vm, 0.0,
                          w1m)) != TSL_OK ||
        (s = tsl__lp_gemm(ctx, prec, L, TSL_NO_TRANS, tt, nc, kb, kb, 1.0, w1m, tm, 0.0, w2m)) !=
            TSL_OK)
        return s;
    return tsl__lp_gemm(ctx, prec, L, TSL_NO_TRANS, TSL_TRANS, nc, mv, kb, -1.0, w2m, vm, 1.0, cm);
}

/* QR of the m x n block at (r0, r0) (rows r0 .. of the whole matrix), its tau at tau[r0 ..]. */
static tsl_status qr_rec(tsl_context *ctx, const lp_mat *a, size_t r0, size_t m, size_t n,
                         cl_mem tau)
{
    if (m == 0 || n == 0) return TSL_OK;
    if (n <= LP_LEAF) return qr_leaf(ctx, a, r0, m, n, tau);
    size_t n1 = n / 2 / LP_LEAF * LP_LEAF;
    if (n1 == 0) n1 = LP_LEAF;
    size_t k1 = n1 < m ? n1 : m;
    tsl_status s = qr_rec(ctx, a, r0, m, n1, tau);
    if (s == TSL_OK)
        s = tsl__lp_larfb(ctx, a, r0, r0, m, k1, tau, TSL_LEFT, TSL_TRANS, a, r0, r0 + n1,
                          n - n1);
    if (s != TSL_OK || m <= n1) return s;
    return qr_rec(ctx, a, r0 + n1, m - n1, n - n1, tau);
}

tsl_status tsl__lp_geqrf(tsl_context *ctx, const lp_mat *a, size_t m, size_t n, cl_mem tau)
{
    size_t k = m < n ? m : n;
    tsl_status s = TSL_OK;
    for (size_t j = 0; s == TSL_OK && j < k; j += LP_QR_NB) {
        size_t jb = k - j < LP_QR_NB ? k - j : LP_QR_NB;
        s = qr_rec(ctx, a, j, m - j, jb, tau);
        if (s == TSL_OK && j + jb < n)
            s = tsl__lp_larfb(ctx, a, j, j, m - j, jb, tau, TSL_LEFT, TSL_TRANS, a, j, j + jb,
                              n - j - jb);
    }
    return s;
}

tsl_status tsl__lp_ormqr(tsl_context *ctx, const lp_mat *a, tsl_side side, tsl_trans trans,
                         size_t m, size_t n, size_t k, cl_mem tau, const lp_mat *c)
{
    if (m == 0 || n == 0 || k == 0) return TSL_OK;
    int left = side == TSL_LEFT, notran = trans == TSL_NO_TRANS;
    size_t nq = left ? m : n, blocks = (k + LP_QR_NB - 1) / LP_QR_NB;
    /* Q = Q_1 Q_2 ... : Q C and C Q^T take the blocks last to first */
    int backward = left == notran;
    tsl_status s = TSL_OK;
    for (size_t t = 0; s == TSL_OK && t < blocks; ++t) {
        size_t b = backward ? blocks - 1 - t : t, i0 = b * LP_QR_NB;
        size_t ib = k - i0 < LP_QR_NB ? k - i0 : LP_QR_NB;
        s = left ? tsl__lp_larfb(ctx, a, i0, i0, nq - i0, ib, tau, side, trans, c, i0, 0, n)
                 : tsl__lp_larfb(ctx, a, i0, i0, nq - i0, ib, tau, side, trans, c, 0, i0, m);
    }
    return s;
}
