/* ref_level3_complex.c: the complex Level-3 references (ref_level3.h: tsl_ref_z3) through CBLAS,
 * cblas_z* on double complex data or cblas_c* on single (the OpenBLAS peer's). */
#include "ref/ref_level3.h"

#include <cblas.h>

void tsl_ref_z3(const tsl_ref_z3_call *g, int single, const void *a, const void *b, void *out)
{
    CBLAS_ORDER o = g->layout == TSL_COL_MAJOR ? CblasColMajor : CblasRowMajor;
    CBLAS_SIDE sd = g->side == TSL_RIGHT ? CblasRight : CblasLeft;
    CBLAS_UPLO ul = g->uplo == TSL_LOWER ? CblasLower : CblasUpper;
    CBLAS_TRANSPOSE t = g->trans == TSL_TRANS        ? CblasTrans
                        : g->trans == TSL_CONJ_TRANS ? CblasConjTrans
                                                     : CblasNoTrans;
    CBLAS_DIAG dg = g->diag == TSL_UNIT ? CblasUnit : CblasNonUnit;
    int m = (int)g->m, n = (int)g->n, k = (int)g->k, lda = (int)g->lda, ldb = (int)g->ldb,
        ldc = (int)g->ldc;
    const double al[2] = {g->alpha[0], g->alpha[1]}, be[2] = {g->beta[0], g->beta[1]};
    const float af[2] = {(float)al[0], (float)al[1]}, bf[2] = {(float)be[0], (float)be[1]};
    const void *pa = single ? (const void *)af : al, *pb = single ? (const void *)bf : be;
    switch (g->op) {
    case TSL_REF_SYMM:
        (single ? cblas_csymm : cblas_zsymm)(o, sd, ul, m, n, pa, a, lda, b, ldb, pb, out, ldc);
        break;
    case TSL_REF_HEMM:
        (single ? cblas_chemm : cblas_zhemm)(o, sd, ul, m, n, pa, a, lda, b, ldb, pb, out, ldc);
        break;
    case TSL_REF_SYRK:
        (single ? cblas_csyrk : cblas_zsyrk)(o, ul, t, n, k, pa, a, lda, pb, out, ldc);
        break;
    case TSL_REF_HERK:
        if (single)
            cblas_cherk(o, ul, t, n, k, af[0], a, lda, bf[0], out, ldc);
        else
            cblas_zherk(o, ul, t, n, k, al[0], a, lda, be[0], out, ldc);
        break;
    case TSL_REF_SYR2K:
        (single ? cblas_csyr2k : cblas_zsyr2k)(o, ul, t, n, k, pa, a, lda, b, ldb, pb, out, ldc);
        break;
    case TSL_REF_HER2K:
        if (single)
            cblas_cher2k(o, ul, t, n, k, pa, a, lda, b, ldb, bf[0], out, ldc);
        else
            cblas_zher2k(o, ul, t, n, k, pa, a, lda, b, ldb, be[0], out, ldc);
        break;
    case TSL_REF_TRMM:
        (single ? cblas_ctrmm : cblas_ztrmm)(o, sd, ul, t, dg, m, n, pa, a, lda, out, ldc);
        break;
    default:
        (single ? cblas_ctrsm : cblas_ztrsm)(o, sd, ul, t, dg, m, n, pa, a, lda, out, ldc);
        break;
    }
}
