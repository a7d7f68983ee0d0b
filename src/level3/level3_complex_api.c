/* level3_complex_api.c: the public entry points of the complex Level-3 routines (tessel_complex.h):
 * tsl_[cz]symm, _hemm, _syrk, _herk, _syr2k, _her2k, _trmm, _trsm and their _buf forms, with
 * CBLAS's types (complex scalars and arrays as void pointers to interleaved pairs; herk's alpha and
 * beta and her2k's beta real). Each names its arguments as a row of data (the element kind among
 * them) and one function per family reads the scalars and hands the row to the real routines'
 * call paths (level3_sym.c, level3_tri.c), which check it, map the layout, stage host arrays and
 * run the complex algorithms (level3_complex.c, level3_complex_tri.c). */
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

/* The families: a, b, c are host arrays, or with buf the tsl_buffers of the _buf forms. */
static tsl_status symm(tsl_context *ctx, const char *fn, int dbl, int buf, const symm_args *g,
                       const void *alpha, const void *a, const void *b, const void *beta, void *c)
{
    double al[2], be[2];
    tsl_status s;
    if ((s = scalar(ctx, fn, "alpha", dbl, alpha, al)) ||
        (s = scalar(ctx, fn, "beta", dbl, beta, be)))
        return s;
    int prec = dbl ? TSL_DOUBLE : TSL_SINGLE;
    return buf ? tsl__l3_symm_buf(ctx, fn, prec, g, al, a, b, be, c)
               : tsl__l3_symm_host(ctx, fn, prec, g, al, a, b, be, c);
}

/* herk's alpha (ar) and herk's and her2k's beta (br) are real; the others are complex pointers. */
static tsl_status rank_k(tsl_context *ctx, const char *fn, int dbl, int buf, const syrk_args *g,
                         const void *alpha, double ar, const void *a, const void *b,
                         const void *beta, double br, void *c)
{
    int herm = g->cplx == L3_HERMITIAN;
    double al[2] = {ar, 0.0}, be[2] = {br, 0.0};
    tsl_status s;
    if ((!(herm && !g->two) && (s = scalar(ctx, fn, "alpha", dbl, alpha, al))) ||
        (!herm && (s = scalar(ctx, fn, "beta", dbl, beta, be))))
        return s;
    int prec = dbl ? TSL_DOUBLE : TSL_SINGLE;
    return buf ? tsl__l3_syrk_buf(ctx, fn, prec, g, al, a, b, be, c)
               : tsl__l3_syrk_host(ctx, fn, prec, g, al, a, b, be, c);
}

static tsl_status trxm(tsl_context *ctx, const char *fn, int dbl, int buf, int solve,
                       const trxm_args *g, const void *alpha, const void *a, void *b)
{
    double al[2];
    tsl_status s = scalar(ctx, fn, "alpha", dbl, alpha, al);
    if (s != TSL_OK) return s;
    int prec = dbl ? TSL_DOUBLE : TSL_SINGLE;
    return buf ? tsl__l3_trxm_buf(ctx, fn, prec, solve, g, al, a, b)
               : tsl__l3_trxm_host(ctx, fn, prec, solve, g, al, a, b);
}

/* ---- SYMM ---- */
tsl_status tsl_csymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, const void *alpha, const void *a, size_t lda, const void *b,
                     size_t ldb, const void *beta, void *c, size_t ldc)
{
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_COMPLEX};
    return symm(ctx, "tsl_csymm", 0, 0, &g, alpha, a, b, beta, c);
}
tsl_status tsl_csymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                         size_t ldc)
{
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_COMPLEX};
    return symm(ctx, "tsl_csymm_buf", 0, 1, &g, alpha, a, b, beta, c);
}
tsl_status tsl_zsymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, const void *alpha, const void *a, size_t lda, const void *b,
                     size_t ldb, const void *beta, void *c, size_t ldc)
{
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_COMPLEX};
    return symm(ctx, "tsl_zsymm", 1, 0, &g, alpha, a, b, beta, c);
}
tsl_status tsl_zsymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                         size_t ldc)
{
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_COMPLEX};
    return symm(ctx, "tsl_zsymm_buf", 1, 1, &g, alpha, a, b, beta, c);
}

/* ---- HEMM ---- */
tsl_status tsl_chemm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, const void *alpha, const void *a, size_t lda, const void *b,
                     size_t ldb, const void *beta, void *c, size_t ldc)
{
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_HERMITIAN};
    return symm(ctx, "tsl_chemm", 0, 0, &g, alpha, a, b, beta, c);
}
tsl_status tsl_chemm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                         size_t ldc)
{
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_HERMITIAN};
    return symm(ctx, "tsl_chemm_buf", 0, 1, &g, alpha, a, b, beta, c);
}
tsl_status tsl_zhemm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, const void *alpha, const void *a, size_t lda, const void *b,
                     size_t ldb, const void *beta, void *c, size_t ldc)
{
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_HERMITIAN};
    return symm(ctx, "tsl_zhemm", 1, 0, &g, alpha, a, b, beta, c);
}
tsl_status tsl_zhemm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, const void *alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                         size_t ldc)
{
    symm_args g = {layout, side, uplo, m, n, lda, ldb, ldc, L3_HERMITIAN};
    return symm(ctx, "tsl_zhemm_buf", 1, 1, &g, alpha, a, b, beta, c);
}

/* ---- SYRK ---- */
tsl_status tsl_csyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                     size_t k, const void *alpha, const void *a, size_t lda, const void *beta,
                     void *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_COMPLEX};
    return rank_k(ctx, "tsl_csyrk", 0, 0, &g, alpha, 0.0, a, NULL, beta, 0.0, c);
}
tsl_status tsl_csyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                         const void *beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_COMPLEX};
    return rank_k(ctx, "tsl_csyrk_buf", 0, 1, &g, alpha, 0.0, a, NULL, beta, 0.0, c);
}
tsl_status tsl_zsyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                     size_t k, const void *alpha, const void *a, size_t lda, const void *beta,
                     void *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_COMPLEX};
    return rank_k(ctx, "tsl_zsyrk", 1, 0, &g, alpha, 0.0, a, NULL, beta, 0.0, c);
}
tsl_status tsl_zsyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                         const void *beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_COMPLEX};
    return rank_k(ctx, "tsl_zsyrk_buf", 1, 1, &g, alpha, 0.0, a, NULL, beta, 0.0, c);
}

/* ---- HERK ---- */
tsl_status tsl_cherk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                     size_t k, float alpha, const void *a, size_t lda, float beta, void *c,
                     size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_HERMITIAN};
    return rank_k(ctx, "tsl_cherk", 0, 0, &g, NULL, alpha, a, NULL, NULL, beta, c);
}
tsl_status tsl_cherk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                         float beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_HERMITIAN};
    return rank_k(ctx, "tsl_cherk_buf", 0, 1, &g, NULL, alpha, a, NULL, NULL, beta, c);
}
tsl_status tsl_zherk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                     size_t k, double alpha, const void *a, size_t lda, double beta, void *c,
                     size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_HERMITIAN};
    return rank_k(ctx, "tsl_zherk", 1, 0, &g, NULL, alpha, a, NULL, NULL, beta, c);
}
tsl_status tsl_zherk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, double alpha, const tsl_buffer *a, size_t lda,
                         double beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, 0, ldc, 0, L3_HERMITIAN};
    return rank_k(ctx, "tsl_zherk_buf", 1, 1, &g, NULL, alpha, a, NULL, NULL, beta, c);
}

/* ---- SYR2K ---- */
tsl_status tsl_csyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                      size_t k, const void *alpha, const void *a, size_t lda, const void *b,
                      size_t ldb, const void *beta, void *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_COMPLEX};
    return rank_k(ctx, "tsl_csyr2k", 0, 0, &g, alpha, 0.0, a, b, beta, 0.0, c);
}
tsl_status tsl_csyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                          size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_COMPLEX};
    return rank_k(ctx, "tsl_csyr2k_buf", 0, 1, &g, alpha, 0.0, a, b, beta, 0.0, c);
}
tsl_status tsl_zsyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                      size_t k, const void *alpha, const void *a, size_t lda, const void *b,
                      size_t ldb, const void *beta, void *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_COMPLEX};
    return rank_k(ctx, "tsl_zsyr2k", 1, 0, &g, alpha, 0.0, a, b, beta, 0.0, c);
}
tsl_status tsl_zsyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, const void *beta, tsl_buffer *c,
                          size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_COMPLEX};
    return rank_k(ctx, "tsl_zsyr2k_buf", 1, 1, &g, alpha, 0.0, a, b, beta, 0.0, c);
}

/* ---- HER2K ---- */
tsl_status tsl_cher2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                      size_t k, const void *alpha, const void *a, size_t lda, const void *b,
                      size_t ldb, float beta, void *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_HERMITIAN};
    return rank_k(ctx, "tsl_cher2k", 0, 0, &g, alpha, 0.0, a, b, NULL, beta, c);
}
tsl_status tsl_cher2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_HERMITIAN};
    return rank_k(ctx, "tsl_cher2k_buf", 0, 1, &g, alpha, 0.0, a, b, NULL, beta, c);
}
tsl_status tsl_zher2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n,
                      size_t k, const void *alpha, const void *a, size_t lda, const void *b,
                      size_t ldb, double beta, void *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_HERMITIAN};
    return rank_k(ctx, "tsl_zher2k", 1, 0, &g, alpha, 0.0, a, b, NULL, beta, c);
}
tsl_status tsl_zher2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, const void *alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, double beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = {layout, uplo, trans, n, k, lda, ldb, ldc, 1, L3_HERMITIAN};
    return rank_k(ctx, "tsl_zher2k_buf", 1, 1, &g, alpha, 0.0, a, b, NULL, beta, c);
}

/* ---- TRMM ---- */
tsl_status tsl_ctrmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                     const void *a, size_t lda, void *b, size_t ldb)
{
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return trxm(ctx, "tsl_ctrmm", 0, 0, 0, &g, alpha, a, b);
}
tsl_status tsl_ctrmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return trxm(ctx, "tsl_ctrmm_buf", 0, 1, 0, &g, alpha, a, b);
}
tsl_status tsl_ztrmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                     const void *a, size_t lda, void *b, size_t ldb)
{
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return trxm(ctx, "tsl_ztrmm", 1, 0, 0, &g, alpha, a, b);
}
tsl_status tsl_ztrmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return trxm(ctx, "tsl_ztrmm_buf", 1, 1, 0, &g, alpha, a, b);
}

/* ---- TRSM ---- */
tsl_status tsl_ctrsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                     const void *a, size_t lda, void *b, size_t ldb)
{
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return trxm(ctx, "tsl_ctrsm", 0, 0, 1, &g, alpha, a, b);
}
tsl_status tsl_ctrsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return trxm(ctx, "tsl_ctrsm_buf", 0, 1, 1, &g, alpha, a, b);
}
tsl_status tsl_ztrsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                     const void *a, size_t lda, void *b, size_t ldb)
{
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return trxm(ctx, "tsl_ztrsm", 1, 0, 1, &g, alpha, a, b);
}
tsl_status tsl_ztrsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, const void *alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = {layout, side, uplo, transa, diag, m, n, lda, ldb, L3_COMPLEX};
    return trxm(ctx, "tsl_ztrsm_buf", 1, 1, 1, &g, alpha, a, b);
}
