/* ref_level3.h: CPU references of the Level-3 routines (tsl_[sd]symm, syrk, syr2k, trmm, trsm),
 * through CBLAS (OpenBLAS) in double precision, CBLAS semantics exactly; the tests and --verify
 * compare with them, and the OpenBLAS peer of `tessel blas3` times the single-precision twins. */
#ifndef TSL_REF_LEVEL3_H
#define TSL_REF_LEVEL3_H

#include <stddef.h>

#include "tessel.h"

void tsl_ref_dsymm(tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m, size_t n,
                   double alpha, const double *a, size_t lda, const double *b, size_t ldb,
                   double beta, double *c, size_t ldc);
void tsl_ref_dsyrk(tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n, size_t k,
                   double alpha, const double *a, size_t lda, double beta, double *c, size_t ldc);
void tsl_ref_dsyr2k(tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n, size_t k,
                    double alpha, const double *a, size_t lda, const double *b, size_t ldb,
                    double beta, double *c, size_t ldc);
void tsl_ref_dtrmm(tsl_layout layout, tsl_side side, tsl_uplo uplo, tsl_trans trans,
                   tsl_diag diag, size_t m, size_t n, double alpha, const double *a, size_t lda,
                   double *b, size_t ldb);
void tsl_ref_dtrsm(tsl_layout layout, tsl_side side, tsl_uplo uplo, tsl_trans trans,
                   tsl_diag diag, size_t m, size_t n, double alpha, const double *a, size_t lda,
                   double *b, size_t ldb);
/* Single precision, for the OpenBLAS peer. */
void tsl_ref_ssymm(tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m, size_t n,
                   float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                   float beta, float *c, size_t ldc);
void tsl_ref_ssyrk(tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n, size_t k,
                   float alpha, const float *a, size_t lda, float beta, float *c, size_t ldc);
void tsl_ref_ssyr2k(tsl_layout layout, tsl_uplo uplo, tsl_trans trans, size_t n, size_t k,
                    float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                    float beta, float *c, size_t ldc);
void tsl_ref_strmm(tsl_layout layout, tsl_side side, tsl_uplo uplo, tsl_trans trans,
                   tsl_diag diag, size_t m, size_t n, float alpha, const float *a, size_t lda,
                   float *b, size_t ldb);
void tsl_ref_strsm(tsl_layout layout, tsl_side side, tsl_uplo uplo, tsl_trans trans,
                   tsl_diag diag, size_t m, size_t n, float alpha, const float *a, size_t lda,
                   float *b, size_t ldb);

#endif
