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

/* The complex routines (tsl_[cz]symm, hemm, syrk, herk, syr2k, her2k, trmm, trsm) through
 * cblas_z* (single 0: double complex data) or cblas_c* (single 1), CBLAS semantics: out is C (B of
 * TRMM, TRSM), updated in place; herk's alpha and beta and her2k's beta are the real parts. */
typedef enum {
    TSL_REF_SYMM,
    TSL_REF_HEMM,
    TSL_REF_SYRK,
    TSL_REF_HERK,
    TSL_REF_SYR2K,
    TSL_REF_HER2K,
    TSL_REF_TRMM,
    TSL_REF_TRSM
} tsl_ref_z3_op;
typedef struct {
    tsl_ref_z3_op op;
    tsl_layout layout;
    tsl_side side;
    tsl_uplo uplo;
    tsl_trans trans;
    tsl_diag diag;
    size_t m, n, k, lda, ldb, ldc;
    double alpha[2], beta[2];
} tsl_ref_z3_call;
void tsl_ref_z3(const tsl_ref_z3_call *g, int single, const void *a, const void *b, void *out);

#endif
