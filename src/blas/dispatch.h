/* dispatch.h: one device call per routine of the drop-in, shared by the Fortran and the CBLAS
 * symbols (fortran_*.c, cblas_*.c), so routing, counting and the device call are written once.
 * Arguments are already checked by the caller (the reference BLAS's rules, xerbla on a bad one)
 * and the BLAS quick returns taken; sizes are positive. prec is 's' or 'd': scalars are passed by
 * pointer to float or double, matrices as void pointers of that type; the Level-3 routines also
 * take 'c' and 'z' (complex, interleaved (real, imaginary) pairs; scalars point at their two
 * parts, but HERK's alpha and beta and HER2K's beta at one float or double; transposes may be
 * TSL_CONJ_TRANS), and HEMM, HERK and HER2K take only those. Each returns 1 when the
 * call was done on the device (and counted there), 0 when the caller must run the CPU BLAS (the
 * route chose the CPU, there is no usable device, or the device failed: a warning was printed).
 * Level 1 and 2 calls must have unit strides (the caller sends other strides to the CPU). */
#ifndef TSL_BLAS_DISPATCH_H
#define TSL_BLAS_DISPATCH_H

#include "blas/blas_internal.h"

int tsl__blas_dev_gemm(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_trans transa,
                       tsl_trans transb, size_t m, size_t n, size_t k, const void *alpha,
                       const void *a, size_t lda, const void *b, size_t ldb, const void *beta,
                       void *c, size_t ldc);
int tsl__blas_dev_symm(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_side side,
                       tsl_uplo uplo, size_t m, size_t n, const void *alpha, const void *a,
                       size_t lda, const void *b, size_t ldb, const void *beta, void *c,
                       size_t ldc);
int tsl__blas_dev_hemm(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_side side,
                       tsl_uplo uplo, size_t m, size_t n, const void *alpha, const void *a,
                       size_t lda, const void *b, size_t ldb, const void *beta, void *c,
                       size_t ldc);
int tsl__blas_dev_syrk(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_uplo uplo,
                       tsl_trans trans, size_t n, size_t k, const void *alpha, const void *a,
                       size_t lda, const void *beta, void *c, size_t ldc);
int tsl__blas_dev_syr2k(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_uplo uplo,
                        tsl_trans trans, size_t n, size_t k, const void *alpha, const void *a,
                        size_t lda, const void *b, size_t ldb, const void *beta, void *c,
                        size_t ldc);
int tsl__blas_dev_herk(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_uplo uplo,
                       tsl_trans trans, size_t n, size_t k, const void *alpha, const void *a,
                       size_t lda, const void *beta, void *c, size_t ldc);
int tsl__blas_dev_her2k(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_uplo uplo,
                        tsl_trans trans, size_t n, size_t k, const void *alpha, const void *a,
                        size_t lda, const void *b, size_t ldb, const void *beta, void *c,
                        size_t ldc);
/* TRMM (solve == 0) and TRSM (solve == 1): B = alpha op(A)^{+-1} B or alpha B op(A)^{+-1}. */
int tsl__blas_dev_trxm(tsl__blas_stat *st, char prec, int solve, tsl_layout layout, tsl_side side,
                       tsl_uplo uplo, tsl_trans trans, tsl_diag diag, size_t m, size_t n,
                       const void *alpha, const void *a, size_t lda, void *b, size_t ldb);
int tsl__blas_dev_gemv(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_trans trans,
                       size_t m, size_t n, const void *alpha, const void *a, size_t lda,
                       const void *x, const void *beta, void *y);
int tsl__blas_dev_axpy(tsl__blas_stat *st, char prec, size_t n, const void *alpha, const void *x,
                       void *y);
/* *result is a float or a double. */
int tsl__blas_dev_dot(tsl__blas_stat *st, char prec, size_t n, const void *x, const void *y,
                      void *result);
int tsl__blas_dev_nrm2(tsl__blas_stat *st, char prec, size_t n, const void *x, void *result);

/* ---- LAPACK (fortran_lapack.c): one call of getrf, getrs, gesv, potrf, potrs, posv, dsgesv,
 * dsposv, geqrf, ormqr or gels, column-
 * major as Fortran's, through tsl_[sd]<op> on the device. The caller checked the arguments as
 * LAPACK does, took the quick returns (sizes positive; getrs's pivots within 1..n) and set *info
 * to 0. Returns 1 when the device did the call (arrays, ipiv and *info written as LAPACK writes
 * them), 0 when the CPU LAPACK must do it: then nothing of the caller's was written. A matrix
 * larger than the drop-in's share of the device memory stays on the CPU. */
typedef enum {
    TSL__LAPACK_GETRF,
    TSL__LAPACK_GETRS,
    TSL__LAPACK_GESV,
    TSL__LAPACK_POTRF,
    TSL__LAPACK_POTRS,
    TSL__LAPACK_POSV,
    TSL__LAPACK_DSGESV, /* double only: b read, the solution into x, *iter as LAPACK's */
    TSL__LAPACK_DSPOSV, /* the same with uplo */
    TSL__LAPACK_GEQRF,  /* tau out */
    TSL__LAPACK_ORMQR,  /* side, trans, m x n C in b, k reflectors of A (nq x k), tau in */
    TSL__LAPACK_GELS    /* trans, m x n A, max(m, n) x nrhs B */
} tsl__lapack_op;

typedef struct {
    int op;          /* a tsl__lapack_op */
    tsl_trans trans; /* getrs, ormqr, gels */
    tsl_uplo uplo;   /* potrf, potrs, posv, dsposv */
    tsl_side side;   /* ormqr */
    size_t m, n, nrhs, k, lda, ldb;
    void *tau; /* geqrf, ormqr */
    void *a, *b;
    int *ipiv, *info;
    void *x; /* dsgesv */
    size_t ldx;
    int *iter;
} tsl__blas_lapack_args;

int tsl__blas_dev_lapack(tsl__blas_stat *st, char prec, const tsl__blas_lapack_args *l);

#endif
