/* level3_complex_api.c: the public entry points of the complex Level-3 routines (tessel_complex.h):
 * tsl_[cz]symm, _hemm, _syrk, _herk, _syr2k, _her2k, _trmm, _trsm and their _buf forms, with
 * CBLAS's types (complex scalars and arrays as void pointers to interleaved pairs; herk's alpha and
 * beta and her2k's beta real). Each reads its scalars and hands its arguments, a row of data
 * naming the element kind, to the real routines' call paths (level3_sym.c, level3_tri.c), which
 * check them, map the layout, stage host arrays and run the complex algorithms
 * (level3_complex.c, level3_complex_tri.c). */
#include "level3/level3.h"
#include "level3/level3_tri.h"

/* A complex scalar (two floats or two doubles) as a pair of doubles; NULL is an error naming it. */
static tsl_status scalar(tsl_context *ctx, const char *fn, const char *name, int dbl, const void *x,
                         double *out)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    if (!x) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, name);
    for (int i = 0; i < 2; ++i)
        out[i] = dbl ? ((const double *)x)[i] : ((const float *)x)[i];
    return TSL_OK;
}

/* ---- SYMM ---- */
tsl_status tsl_csymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, const void *alpha, const void *a, size_t lda, const void *b,
                     size_t ldb, const void *beta, void *c, size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_csymm", "alpha", 0, alpha, al)) ||
        (s = scalar(ctx, "tsl_csymm", "beta", 0, beta, be)))
        return s;
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_COMPLEX};
    return tsl__l3_symm_host(ctx, "tsl_csymm", TSL_SINGLE, &g, al, a, b, be, c);
}
tsl_status tsl_csymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                         size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_csymm_buf", "alpha", 0, alpha, al)) ||
        (s = scalar(ctx, "tsl_csymm_buf", "beta", 0, beta, be)))
        return s;
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_COMPLEX};
    return tsl__l3_symm_buf(ctx, "tsl_csymm_buf", TSL_SINGLE, &g, al, a, b, be, c);
}
tsl_status tsl_zsymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, const void *alpha, const void *a, size_t lda, const void *b,
                     size_t ldb, const void *beta, void *c, size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_zsymm", "alpha", 1, alpha, al)) ||
        (s = scalar(ctx, "tsl_zsymm", "beta", 1, beta, be)))
        return s;
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_COMPLEX};
    return tsl__l3_symm_host(ctx, "tsl_zsymm", TSL_DOUBLE, &g, al, a, b, be, c);
}
tsl_status tsl_zsymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                         size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_zsymm_buf", "alpha", 1, alpha, al)) ||
        (s = scalar(ctx, "tsl_zsymm_buf", "beta", 1, beta, be)))
        return s;
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_COMPLEX};
    return tsl__l3_symm_buf(ctx, "tsl_zsymm_buf", TSL_DOUBLE, &g, al, a, b, be, c);
}

/* ---- HEMM ---- */
tsl_status tsl_chemm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, const void *alpha, const void *a, size_t lda, const void *b,
                     size_t ldb, const void *beta, void *c, size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_chemm", "alpha", 0, alpha, al)) ||
        (s = scalar(ctx, "tsl_chemm", "beta", 0, beta, be)))
        return s;
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_HERMITIAN};
    return tsl__l3_symm_host(ctx, "tsl_chemm", TSL_SINGLE, &g, al, a, b, be, c);
}
tsl_status tsl_chemm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                         size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_chemm_buf", "alpha", 0, alpha, al)) ||
        (s = scalar(ctx, "tsl_chemm_buf", "beta", 0, beta, be)))
        return s;
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_HERMITIAN};
    return tsl__l3_symm_buf(ctx, "tsl_chemm_buf", TSL_SINGLE, &g, al, a, b, be, c);
}
tsl_status tsl_zhemm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, const void *alpha, const void *a, size_t lda, const void *b,
                     size_t ldb, const void *beta, void *c, size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_zhemm", "alpha", 1, alpha, al)) ||
        (s = scalar(ctx, "tsl_zhemm", "beta", 1, beta, be)))
        return s;
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_HERMITIAN};
    return tsl__l3_symm_host(ctx, "tsl_zhemm", TSL_DOUBLE, &g, al, a, b, be, c);
}
tsl_status tsl_zhemm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                         size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_zhemm_buf", "alpha", 1, alpha, al)) ||
        (s = scalar(ctx, "tsl_zhemm_buf", "beta", 1, beta, be)))
        return s;
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_HERMITIAN};
    return tsl__l3_symm_buf(ctx, "tsl_zhemm_buf", TSL_DOUBLE, &g, al, a, b, be, c);
}

/* ---- SYRK ---- */
tsl_status tsl_csyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                     size_t k, const void *alpha, const void *a, size_t lda, const void *beta,
                     void *c, size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_csyrk", "alpha", 0, alpha, al)) ||
        (s = scalar(ctx, "tsl_csyrk", "beta", 0, beta, be)))
        return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_COMPLEX};
    return tsl__l3_syrk_host(ctx, "tsl_csyrk", TSL_SINGLE, &g, al, a, NULL, be, c);
}
tsl_status tsl_csyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                         const void *beta, tsl_buffer *c, size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_csyrk_buf", "alpha", 0, alpha, al)) ||
        (s = scalar(ctx, "tsl_csyrk_buf", "beta", 0, beta, be)))
        return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_COMPLEX};
    return tsl__l3_syrk_buf(ctx, "tsl_csyrk_buf", TSL_SINGLE, &g, al, a, NULL, be, c);
}
tsl_status tsl_zsyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                     size_t k, const void *alpha, const void *a, size_t lda, const void *beta,
                     void *c, size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_zsyrk", "alpha", 1, alpha, al)) ||
        (s = scalar(ctx, "tsl_zsyrk", "beta", 1, beta, be)))
        return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_COMPLEX};
    return tsl__l3_syrk_host(ctx, "tsl_zsyrk", TSL_DOUBLE, &g, al, a, NULL, be, c);
}
tsl_status tsl_zsyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                         const void *beta, tsl_buffer *c, size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_zsyrk_buf", "alpha", 1, alpha, al)) ||
        (s = scalar(ctx, "tsl_zsyrk_buf", "beta", 1, beta, be)))
        return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_COMPLEX};
    return tsl__l3_syrk_buf(ctx, "tsl_zsyrk_buf", TSL_DOUBLE, &g, al, a, NULL, be, c);
}

/* ---- HERK ---- */
tsl_status tsl_cherk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                     size_t k, float alpha, const void *a, size_t lda, float beta, void *c,
                     size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_HERMITIAN};
    return tsl__l3_syrk_host(ctx, "tsl_cherk", TSL_SINGLE, &g, (double[2]){alpha, 0.0}, a, NULL,
                             (double[2]){beta, 0.0}, c);
}
tsl_status tsl_cherk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                         float beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_HERMITIAN};
    return tsl__l3_syrk_buf(ctx, "tsl_cherk_buf", TSL_SINGLE, &g, (double[2]){alpha, 0.0}, a, NULL,
                            (double[2]){beta, 0.0}, c);
}
tsl_status tsl_zherk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                     size_t k, double alpha, const void *a, size_t lda, double beta, void *c,
                     size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_HERMITIAN};
    return tsl__l3_syrk_host(ctx, "tsl_zherk", TSL_DOUBLE, &g, (double[2]){alpha, 0.0}, a, NULL,
                             (double[2]){beta, 0.0}, c);
}
tsl_status tsl_zherk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, double alpha, const tsl_buffer *a, size_t lda,
                         double beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_HERMITIAN};
    return tsl__l3_syrk_buf(ctx, "tsl_zherk_buf", TSL_DOUBLE, &g, (double[2]){alpha, 0.0}, a, NULL,
                            (double[2]){beta, 0.0}, c);
}

/* ---- SYR2K ---- */
tsl_status tsl_csyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                      size_t k, const void *alpha, const void *a, size_t lda, const void *b,
                      size_t ldb, const void *beta, void *c, size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_csyr2k", "alpha", 0, alpha, al)) ||
        (s = scalar(ctx, "tsl_csyr2k", "beta", 0, beta, be)))
        return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_COMPLEX};
    return tsl__l3_syrk_host(ctx, "tsl_csyr2k", TSL_SINGLE, &g, al, a, b, be, c);
}
tsl_status tsl_csyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                          size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_csyr2k_buf", "alpha", 0, alpha, al)) ||
        (s = scalar(ctx, "tsl_csyr2k_buf", "beta", 0, beta, be)))
        return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_COMPLEX};
    return tsl__l3_syrk_buf(ctx, "tsl_csyr2k_buf", TSL_SINGLE, &g, al, a, b, be, c);
}
tsl_status tsl_zsyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                      size_t k, const void *alpha, const void *a, size_t lda, const void *b,
                      size_t ldb, const void *beta, void *c, size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_zsyr2k", "alpha", 1, alpha, al)) ||
        (s = scalar(ctx, "tsl_zsyr2k", "beta", 1, beta, be)))
        return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_COMPLEX};
    return tsl__l3_syrk_host(ctx, "tsl_zsyr2k", TSL_DOUBLE, &g, al, a, b, be, c);
}
tsl_status tsl_zsyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                          size_t ldc)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_zsyr2k_buf", "alpha", 1, alpha, al)) ||
        (s = scalar(ctx, "tsl_zsyr2k_buf", "beta", 1, beta, be)))
        return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_COMPLEX};
    return tsl__l3_syrk_buf(ctx, "tsl_zsyr2k_buf", TSL_DOUBLE, &g, al, a, b, be, c);
}

/* ---- HER2K ---- */
tsl_status tsl_cher2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                      size_t k, const void *alpha, const void *a, size_t lda, const void *b,
                      size_t ldb, float beta, void *c, size_t ldc)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_cher2k", "alpha", 0, alpha, al))) return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_HERMITIAN};
    return tsl__l3_syrk_host(ctx, "tsl_cher2k", TSL_SINGLE, &g, al, a, b, (double[2]){beta, 0.0},
                             c);
}
tsl_status tsl_cher2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_cher2k_buf", "alpha", 0, alpha, al))) return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_HERMITIAN};
    return tsl__l3_syrk_buf(ctx, "tsl_cher2k_buf", TSL_SINGLE, &g, al, a, b, (double[2]){beta, 0.0},
                            c);
}
tsl_status tsl_zher2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                      size_t k, const void *alpha, const void *a, size_t lda, const void *b,
                      size_t ldb, double beta, void *c, size_t ldc)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_zher2k", "alpha", 1, alpha, al))) return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_HERMITIAN};
    return tsl__l3_syrk_host(ctx, "tsl_zher2k", TSL_DOUBLE, &g, al, a, b, (double[2]){beta, 0.0},
                             c);
}
tsl_status tsl_zher2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, double beta, tsl_buffer *c, size_t ldc)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_zher2k_buf", "alpha", 1, alpha, al))) return s;
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_HERMITIAN};
    return tsl__l3_syrk_buf(ctx, "tsl_zher2k_buf", TSL_DOUBLE, &g, al, a, b, (double[2]){beta, 0.0},
                            c);
}

/* ---- TRMM ---- */
tsl_status tsl_ctrmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                     const void *a, size_t lda, void *b, size_t ldb)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_ctrmm", "alpha", 0, alpha, al))) return s;
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return tsl__l3_trxm_host(ctx, "tsl_ctrmm", TSL_SINGLE, 0, &g, al, a, b);
}
tsl_status tsl_ctrmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_ctrmm_buf", "alpha", 0, alpha, al))) return s;
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return tsl__l3_trxm_buf(ctx, "tsl_ctrmm_buf", TSL_SINGLE, 0, &g, al, a, b);
}
tsl_status tsl_ztrmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                     const void *a, size_t lda, void *b, size_t ldb)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_ztrmm", "alpha", 1, alpha, al))) return s;
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return tsl__l3_trxm_host(ctx, "tsl_ztrmm", TSL_DOUBLE, 0, &g, al, a, b);
}
tsl_status tsl_ztrmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_ztrmm_buf", "alpha", 1, alpha, al))) return s;
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return tsl__l3_trxm_buf(ctx, "tsl_ztrmm_buf", TSL_DOUBLE, 0, &g, al, a, b);
}

/* ---- TRSM ---- */
tsl_status tsl_ctrsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                     const void *a, size_t lda, void *b, size_t ldb)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_ctrsm", "alpha", 0, alpha, al))) return s;
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return tsl__l3_trxm_host(ctx, "tsl_ctrsm", TSL_SINGLE, 1, &g, al, a, b);
}
tsl_status tsl_ctrsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_ctrsm_buf", "alpha", 0, alpha, al))) return s;
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return tsl__l3_trxm_buf(ctx, "tsl_ctrsm_buf", TSL_SINGLE, 1, &g, al, a, b);
}
tsl_status tsl_ztrsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                     const void *a, size_t lda, void *b, size_t ldb)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_ztrsm", "alpha", 1, alpha, al))) return s;
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return tsl__l3_trxm_host(ctx, "tsl_ztrsm", TSL_DOUBLE, 1, &g, al, a, b);
}
tsl_status tsl_ztrsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    double al[2];
    tsl_status s;
    if ((s = scalar(ctx, "tsl_ztrsm_buf", "alpha", 1, alpha, al))) return s;
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return tsl__l3_trxm_buf(ctx, "tsl_ztrsm_buf", TSL_DOUBLE, 1, &g, al, a, b);
}
