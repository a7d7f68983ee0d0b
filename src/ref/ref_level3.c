/* ref_level3.c: the Level-3 references (ref_level3.h) through CBLAS. tessel's enums carry the
 * CBLAS values, so they convert one to one. */
#include "ref/ref_level3.h"

#include <cblas.h>

static enum CBLAS_ORDER ord(tsl_layout l) { return l == TSL_COL_MAJOR ? CblasColMajor : CblasRowMajor; }
static enum CBLAS_SIDE sd(tsl_side s) { return s == TSL_RIGHT ? CblasRight : CblasLeft; }
static enum CBLAS_UPLO ul(tsl_uplo u) { return u == TSL_LOWER ? CblasLower : CblasUpper; }
static enum CBLAS_TRANSPOSE tr(tsl_trans t) { return t == TSL_TRANS ? CblasTrans : CblasNoTrans; }
static enum CBLAS_DIAG dg(tsl_diag d) { return d == TSL_UNIT ? CblasUnit : CblasNonUnit; }

void tsl_ref_dsymm(tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m, size_t n,
                   double alpha, const double *a, size_t lda, const double *b, size_t ldb,
                   double beta, double *c, size_t ldc)
{
    cblas_dsymm(ord(layout), sd(side), ul(uplo), (int)m, (int)n, alpha, a, (int)lda, b, (int)ldb,
                beta, c, (int)ldc);
}
void tsl_ref_dsyrk(tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n, size_t k,
                   double alpha, const double *a, size_t lda, double beta, double *c, size_t ldc)
{
    cblas_dsyrk(ord(layout), ul(uplo), tr(trans), (int)n, (int)k, alpha, a, (int)lda, beta, c,
                (int)ldc);
}
void tsl_ref_dsyr2k(tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n, size_t k,
                    double alpha, const double *a, size_t lda, const double *b, size_t ldb,
                    double beta, double *c, size_t ldc)
{
    cblas_dsyr2k(ord(layout), ul(uplo), tr(trans), (int)n, (int)k, alpha, a, (int)lda, b,
                 (int)ldb, beta, c, (int)ldc);
}
void tsl_ref_dtrmm(tsl_layout layout, tsl_side side, tsl_uplo uplo, tsl_trans trans,
                   tsl_diag diag, size_t m, size_t n, double alpha, const double *a, size_t lda,
                   double *b, size_t ldb)
{
    cblas_dtrmm(ord(layout), sd(side), ul(uplo), tr(trans), dg(diag), (int)m, (int)n, alpha, a,
                (int)lda, b, (int)ldb);
}
void tsl_ref_dtrsm(tsl_layout layout, tsl_side side, tsl_uplo uplo, tsl_trans trans,
                   tsl_diag diag, size_t m, size_t n, double alpha, const double *a, size_t lda,
                   double *b, size_t ldb)
{
    cblas_dtrsm(ord(layout), sd(side), ul(uplo), tr(trans), dg(diag), (int)m, (int)n, alpha, a,
                (int)lda, b, (int)ldb);
}
void tsl_ref_ssymm(tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m, size_t n,
                   float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                   float beta, float *c, size_t ldc)
{
    cblas_ssymm(ord(layout), sd(side), ul(uplo), (int)m, (int)n, alpha, a, (int)lda, b, (int)ldb,
                beta, c, (int)ldc);
}
void tsl_ref_ssyrk(tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n, size_t k,
                   float alpha, const float *a, size_t lda, float beta, float *c, size_t ldc)
{
    cblas_ssyrk(ord(layout), ul(uplo), tr(trans), (int)n, (int)k, alpha, a, (int)lda, beta, c,
                (int)ldc);
}
void tsl_ref_ssyr2k(tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n, size_t k,
                    float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                    float beta, float *c, size_t ldc)
{
    cblas_ssyr2k(ord(layout), ul(uplo), tr(trans), (int)n, (int)k, alpha, a, (int)lda, b,
                 (int)ldb, beta, c, (int)ldc);
}
void tsl_ref_strmm(tsl_layout layout, tsl_side side, tsl_uplo uplo, tsl_trans trans,
                   tsl_diag diag, size_t m, size_t n, float alpha, const float *a, size_t lda,
                   float *b, size_t ldb)
{
    cblas_strmm(ord(layout), sd(side), ul(uplo), tr(trans), dg(diag), (int)m, (int)n, alpha, a,
                (int)lda, b, (int)ldb);
}
void tsl_ref_strsm(tsl_layout layout, tsl_side side, tsl_uplo uplo, tsl_trans trans,
                   tsl_diag diag, size_t m, size_t n, float alpha, const float *a, size_t lda,
                   float *b, size_t ldb)
{
    cblas_strsm(ord(layout), sd(side), ul(uplo), tr(trans), dg(diag), (int)m, (int)n, alpha, a,
                (int)lda, b, (int)ldb);
}
