/* blas3_complex.c: the library calls of `tessel blas3 --precision complex|doublecomplex`
 * (cmd_blas3.c): one complex routine's _buf form (tessel_complex.h), its arguments as
 * tsl_ref_z3_call describes them, so the command, the reference and the peers share one
 * description of a case. */
#include "blas3_cli.h"

tsl_status cli_blas3_zcall(tsl_context *x, const tsl_ref_z3_call *g, int dbl, const tsl_buffer *a,
                           const tsl_buffer *b, tsl_buffer *o)
{
    const float af[2] = {(float)g->alpha[0], (float)g->alpha[1]};
    const float bf[2] = {(float)g->beta[0], (float)g->beta[1]};
    const void *al = dbl ? (const void *)g->alpha : af, *be = dbl ? (const void *)g->beta : bf;
    size_t m = g->m, n = g->n, k = g->k, lda = g->lda, ldb = g->ldb, ldc = g->ldc;
    tsl_layout ly = g->layout;
    switch (g->op) {
    case TSL_REF_SYMM:
        return (dbl ? tsl_zsymm_buf : tsl_csymm_buf)(x, ly, g->side, g->uplo, m, n, al, a, lda, b,
                                                     ldb, be, o, ldc);
    case TSL_REF_HEMM:
        return (dbl ? tsl_zhemm_buf : tsl_chemm_buf)(x, ly, g->side, g->uplo, m, n, al, a, lda, b,
                                                     ldb, be, o, ldc);
    case TSL_REF_SYRK:
        return (dbl ? tsl_zsyrk_buf : tsl_csyrk_buf)(x, ly, g->uplo, g->trans, n, k, al, a, lda,
                                                     be, o, ldc);
    case TSL_REF_HERK:
        return dbl ? tsl_zherk_buf(x, ly, g->uplo, g->trans, n, k, g->alpha[0], a, lda, g->beta[0],
                                   o, ldc)
                   : tsl_cherk_buf(x, ly, g->uplo, g->trans, n, k, af[0], a, lda, bf[0], o, ldc);
    case TSL_REF_SYR2K:
        return (dbl ? tsl_zsyr2k_buf : tsl_csyr2k_buf)(x, ly, g->uplo, g->trans, n, k, al, a, lda,
                                                       b, ldb, be, o, ldc);
    case TSL_REF_HER2K:
        return dbl ? tsl_zher2k_buf(x, ly, g->uplo, g->trans, n, k, al, a, lda, b, ldb, g->beta[0],
                                    o, ldc)
                   : tsl_cher2k_buf(x, ly, g->uplo, g->trans, n, k, al, a, lda, b, ldb, bf[0], o,
                                    ldc);
    case TSL_REF_TRMM:
        return (dbl ? tsl_ztrmm_buf : tsl_ctrmm_buf)(x, ly, g->side, g->uplo, g->trans, g->diag, m,
                                                     n, al, a, lda, o, ldc);
    default:
        return (dbl ? tsl_ztrsm_buf : tsl_ctrsm_buf)(x, ly, g->side, g->uplo, g->trans, g->diag, m,
                                                     n, al, a, lda, o, ldc);
    }
}
