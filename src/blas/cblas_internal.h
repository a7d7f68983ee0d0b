/* cblas_internal.h: the inner interface of the CBLAS symbols of libtessel_blas.so (cblas_*.c).
 *
 * Every cblas_* symbol (cblas_gen.c, generated from cblas_table.txt by cblas_gen.py) has one
 * shape: the reference CBLAS's argument checks (cblas_check.c: the wrapper's own, reported with
 * cblas_xerbla, then the Fortran routine's on the arguments the reference wrapper would pass it,
 * reported with xerbla_, RowMajorStrg and CBLAS_CallFromC set as the reference has them), then,
 * for the routines tessel runs, the device (cblas_route.c over dispatch.h), else the CPU BLAS's
 * own cblas_* symbol. The CBLAS types are those of Debian's cblas.h (enum values 101/102,
 * 111/112/113, 121/122, 131/132, 141/142; LP64 int); when that header was included first its
 * definitions are used, which is how a test checks that our prototypes are the standard ones. */
#ifndef TSL_BLAS_CBLAS_INTERNAL_H
#define TSL_BLAS_CBLAS_INTERNAL_H

#include <stddef.h>

#include "blas/blas_internal.h"

#ifndef CBLAS_H /* Debian's cblas.h (cblas-netlib.h) guard: its types are the same as these */
#define CBLAS_INDEX size_t
#define CBLAS_INT int
typedef enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE {
    CblasNoTrans = 111,
    CblasTrans = 112,
    CblasConjTrans = 113
} CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 } CBLAS_UPLO;
typedef enum CBLAS_DIAG { CblasNonUnit = 131, CblasUnit = 132 } CBLAS_DIAG;
typedef enum CBLAS_SIDE { CblasLeft = 141, CblasRight = 142 } CBLAS_SIDE;
#endif

/* The reference's error handler of the C layer, defined with xerbla_ (the Fortran symbols' part):
 * called through the global symbol, so a program's own cblas_xerbla is the one that runs. */
TSL_BLAS_API void cblas_xerbla(CBLAS_INT p, const char *rout, const char *form, ...);

/* ---- the reference checks (cblas_check.c) --------------------------------------------------
 * rout is the symbol ("cblas_dgemm"); its precision letter tells real from complex and its name
 * the Fortran routine ("DGEMM "). Enumerations are passed as int: a bad value is what is checked.
 * Each returns 1 when the call is valid (RowMajorStrg and CBLAS_CallFromC are 0 afterwards, as
 * the reference leaves them), 0 when it reported the first bad argument (the caller returns). */
int tsl__cblas_chk_gemv(const char *rout, int layout, int trans, int m, int n, int lda, int incx,
                        int incy);
int tsl__cblas_chk_gbmv(const char *rout, int layout, int trans, int m, int n, int kl, int ku,
                        int lda, int incx, int incy);
int tsl__cblas_chk_ger(const char *rout, int layout, int m, int n, int incx, int incy, int lda);
int tsl__cblas_chk_symv(const char *rout, int layout, int uplo, int n, int lda, int incx, int incy);
int tsl__cblas_chk_sbmv(const char *rout, int layout, int uplo, int n, int k, int lda, int incx,
                        int incy);
int tsl__cblas_chk_spmv(const char *rout, int layout, int uplo, int n, int incx, int incy);
int tsl__cblas_chk_syr(const char *rout, int layout, int uplo, int n, int incx, int lda);
int tsl__cblas_chk_spr(const char *rout, int layout, int uplo, int n, int incx);
int tsl__cblas_chk_syr2(const char *rout, int layout, int uplo, int n, int incx, int incy, int lda);
int tsl__cblas_chk_spr2(const char *rout, int layout, int uplo, int n, int incx, int incy);
int tsl__cblas_chk_trmv(const char *rout, int layout, int uplo, int trans, int diag, int n, int lda,
                        int incx);
int tsl__cblas_chk_tbmv(const char *rout, int layout, int uplo, int trans, int diag, int n, int k,
                        int lda, int incx);
int tsl__cblas_chk_tpmv(const char *rout, int layout, int uplo, int trans, int diag, int n,
                        int incx);
int tsl__cblas_chk_gemm(const char *rout, int layout, int transa, int transb, int m, int n, int k,
                        int lda, int ldb, int ldc);
int tsl__cblas_chk_symm(const char *rout, int layout, int side, int uplo, int m, int n, int lda,
                        int ldb, int ldc);
int tsl__cblas_chk_syrk(const char *rout, int layout, int uplo, int trans, int n, int k, int lda,
                        int ldc);
int tsl__cblas_chk_syr2k(const char *rout, int layout, int uplo, int trans, int n, int k, int lda,
                         int ldb, int ldc);
int tsl__cblas_chk_trmm(const char *rout, int layout, int side, int uplo, int trans, int diag,
                        int m, int n, int lda, int ldb);

/* ---- the device and the CPU (cblas_route.c) ------------------------------------------------
 * For checked arguments: take the reference's quick return (counted as a CPU call that did
 * nothing), else run the call on the device through dispatch.h when its shape allows (unit
 * strides for Level 1 and 2; sizes that dispatch.h accepts). 1: done; 0: the caller runs the CPU
 * BLAS. prec is 's', 'd', 'c' or 'z' (Level 3; HEMM, HERK and HER2K 'c' and 'z' only); scalars
 * by pointer, as dispatch.h takes them (a complex one to its two parts; HERK's alpha and beta and
 * HER2K's beta to a float or a double). */
int tsl__cblas_dev_gemm(tsl__blas_stat *st, char prec, int layout, int transa, int transb, int m,
                        int n, int k, const void *alpha, const void *a, int lda, const void *b,
                        int ldb, const void *beta, void *c, int ldc);
int tsl__cblas_dev_symm(tsl__blas_stat *st, char prec, int layout, int side, int uplo, int m, int n,
                        const void *alpha, const void *a, int lda, const void *b, int ldb,
                        const void *beta, void *c, int ldc);
int tsl__cblas_dev_hemm(tsl__blas_stat *st, char prec, int layout, int side, int uplo, int m, int n,
                        const void *alpha, const void *a, int lda, const void *b, int ldb,
                        const void *beta, void *c, int ldc);
int tsl__cblas_dev_syrk(tsl__blas_stat *st, char prec, int layout, int uplo, int trans, int n,
                        int k, const void *alpha, const void *a, int lda, const void *beta, void *c,
                        int ldc);
int tsl__cblas_dev_herk(tsl__blas_stat *st, char prec, int layout, int uplo, int trans, int n,
                        int k, const void *alpha, const void *a, int lda, const void *beta, void *c,
                        int ldc);
int tsl__cblas_dev_her2k(tsl__blas_stat *st, char prec, int layout, int uplo, int trans, int n,
                         int k, const void *alpha, const void *a, int lda, const void *b, int ldb,
                         const void *beta, void *c, int ldc);
int tsl__cblas_dev_syr2k(tsl__blas_stat *st, char prec, int layout, int uplo, int trans, int n,
                         int k, const void *alpha, const void *a, int lda, const void *b, int ldb,
                         const void *beta, void *c, int ldc);
/* TRMM (solve 0) and TRSM (solve 1) */
int tsl__cblas_dev_trxm(tsl__blas_stat *st, char prec, int solve, int layout, int side, int uplo,
                        int trans, int diag, int m, int n, const void *alpha, const void *a,
                        int lda, void *b, int ldb);
int tsl__cblas_dev_gemv(tsl__blas_stat *st, char prec, int layout, int trans, int m, int n,
                        const void *alpha, const void *a, int lda, const void *x, int incx,
                        const void *beta, void *y, int incy);
int tsl__cblas_dev_axpy(tsl__blas_stat *st, char prec, int n, const void *alpha, const void *x,
                        int incx, void *y, int incy);
/* *result (a float or a double) is set when 1 is returned */
int tsl__cblas_dev_dot(tsl__blas_stat *st, char prec, int n, const void *x, int incx, const void *y,
                       int incy, void *result);
int tsl__cblas_dev_nrm2(tsl__blas_stat *st, char prec, int n, const void *x, int incx,
                        void *result);

/* The trans of a checked complex syrk/syr2k/herk/her2k call in the form every CPU BLAS takes:
 * the reference takes both Trans and ConjTrans for row-major (both mean op(A) = A^T, or A^H for
 * the Hermitian ones), OpenBLAS only the one that says it (Trans, or ConjTrans for herk). */
int tsl__cblas_rk_trans(const char *rout, int layout, int trans);

/* The CPU BLAS's function of that symbol, looked up once per symbol (*slot caches it; any
 * number of threads may race on it: they all store the same pointer). NULL when the CPU BLAS
 * lacks it (tsl__blas_cpu_sym printed why). */
void *tsl__cblas_cpu(void *_Atomic *slot, const char *name);
/* The same for a symbol the CPU BLAS may lack (OpenBLAS's cblas_cgemm3m): then, without a
 * word, alt, a symbol of the same parameters (cblas_cgemm). */
void *tsl__cblas_cpu_or(void *_Atomic *slot, const char *name, const char *alt);
/* Counts one call the CPU BLAS did, begun at t0 (tsl__blas_clock). */
void tsl__cblas_cpu_done(tsl__blas_stat *st, double t0);

#endif
