/* fortran.h: what the Fortran BLAS symbols of the drop-in share (fortran_*.c): the generated
 * prototypes, the cached CPU BLAS function behind each symbol, and the scalar tests of the
 * reference quick returns, which must compare alpha and beta in the routine's own precision. */
#ifndef TSL_BLAS_FORTRAN_H
#define TSL_BLAS_FORTRAN_H

#include <stdatomic.h>

#include "blas/blas_internal.h"
#include "blas/fortran_symbols.h"

/* The CPU BLAS's function of one symbol, looked up on the first call that needs it and kept, so
 * a routine called a million times asks dlsym once; a missing symbol is reported once too. */
typedef struct tsl__blas_cpu_fn {
    const char *symbol; /* "dgemm_" */
    void *fn;           /* valid once state is nonzero */
    atomic_int state;   /* 0 not looked up, 1 found, -1 missing */
    int lapack;         /* 1: the CPU LAPACK's symbol (tsl__blas_lapack_sym) */
    const char *alt;    /* a symbol of the same arguments to use, without a word, when the CPU
                         * BLAS lacks symbol ("cgemm_" for OpenBLAS's extension "cgemm3m_") */
} tsl__blas_cpu_fn;
#define TSL__BLAS_CPU_FN(symbol_)                                                                  \
    {                                                                                              \
        (symbol_), NULL, 0, 0, NULL                                                                \
    }
#define TSL__BLAS_CPU_FN_OR(symbol_, alt_)                                                         \
    {                                                                                              \
        (symbol_), NULL, 0, 0, (alt_)                                                              \
    }
#define TSL__BLAS_LAPACK_FN(symbol_)                                                               \
    {                                                                                              \
        (symbol_), NULL, 0, 1, NULL                                                                \
    }

/* The function, or NULL when the CPU BLAS (LAPACK) lacks it (or there is none): cpu.c printed why, and
 * the caller returns without computing. Thread-safe. */
void *tsl__blas_cpu_get(tsl__blas_cpu_fn *f);

/* *x == 0 and *x == 1 for a float (prec 's'), a double ('d') or a complex of either ('c', 'z':
 * both parts compared). */
int tsl__blas_is_zero(char prec, const void *x);
int tsl__blas_is_one(char prec, const void *x);

/* ---- the Level-3 families (fortran_level3.c) ---------------------------------------------
 * The check-and-route part of the generated Level-3 symbols (fortran_gen.py, kind device:FAMILY):
 * the reference's checks (xerbla_ with name, "DGEMM", and the position), its quick returns and
 * alpha == 0 results, then the device through dispatch.h. The arguments are the Fortran
 * routine's in its order, INTEGER and CHARACTER ones by value, scalars and arrays by pointer
 * (HERK's alpha and beta and HER2K's beta to a real of the routine's precision).
 * 1: nothing is left to do (an argument was reported, a quick return, the alpha == 0 result, or
 * the device did the call); 0: the symbol runs the CPU BLAS's own. */
int tsl__blas_f_gemm(tsl__blas_stat *st, char prec, const char *name, char ta, char tb,
                     tsl__blas_int m, tsl__blas_int n, tsl__blas_int k, const void *alpha,
                     const void *a, tsl__blas_int lda, const void *b, tsl__blas_int ldb,
                     const void *beta, void *c, tsl__blas_int ldc);
int tsl__blas_f_symm(tsl__blas_stat *st, char prec, const char *name, char side, char uplo,
                     tsl__blas_int m, tsl__blas_int n, const void *alpha, const void *a,
                     tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta, void *c,
                     tsl__blas_int ldc);
int tsl__blas_f_hemm(tsl__blas_stat *st, char prec, const char *name, char side, char uplo,
                     tsl__blas_int m, tsl__blas_int n, const void *alpha, const void *a,
                     tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta, void *c,
                     tsl__blas_int ldc);
int tsl__blas_f_syrk(tsl__blas_stat *st, char prec, const char *name, char uplo, char trans,
                     tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                     tsl__blas_int lda, const void *beta, void *c, tsl__blas_int ldc);
int tsl__blas_f_herk(tsl__blas_stat *st, char prec, const char *name, char uplo, char trans,
                     tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                     tsl__blas_int lda, const void *beta, void *c, tsl__blas_int ldc);
int tsl__blas_f_syr2k(tsl__blas_stat *st, char prec, const char *name, char uplo, char trans,
                      tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                      tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta,
                      void *c, tsl__blas_int ldc);
int tsl__blas_f_her2k(tsl__blas_stat *st, char prec, const char *name, char uplo, char trans,
                      tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                      tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta,
                      void *c, tsl__blas_int ldc);
int tsl__blas_f_trmm(tsl__blas_stat *st, char prec, const char *name, char side, char uplo,
                     char transa, char diag, tsl__blas_int m, tsl__blas_int n, const void *alpha,
                     const void *a, tsl__blas_int lda, void *b, tsl__blas_int ldb);
int tsl__blas_f_trsm(tsl__blas_stat *st, char prec, const char *name, char side, char uplo,
                     char transa, char diag, tsl__blas_int m, tsl__blas_int n, const void *alpha,
                     const void *a, tsl__blas_int lda, void *b, tsl__blas_int ldb);

/* The reference's alpha == 0 results, computed here without reading A, B or x (fortran_cpu.c):
 * C = beta C over all m x n (part 0) or one triangle of n x n (part 'U' or 'L'); beta NULL
 * means zero (TRMM, TRSM). y = beta y over n elements of stride incy. Each counts a CPU call
 * of st, so TESSEL_BLAS_VERBOSE still lists the call. */
void tsl__blas_scale(tsl__blas_stat *st, char prec, char part, tsl__blas_int m, tsl__blas_int n,
                     const void *beta, void *c, tsl__blas_int ldc);
void tsl__blas_scale_vec(tsl__blas_stat *st, char prec, tsl__blas_int n, const void *beta, void *y,
                         tsl__blas_int incy);
/* HERK's and HER2K's: the part ('U' or 'L') triangle of a complex (prec 'c' or 'z') n x n C =
 * beta C, beta a real of that precision (zeros, C unread, when it is 0), each part multiplied by
 * beta as the reference's REAL * COMPLEX does; the diagonal's imaginary parts become 0. */
void tsl__blas_scale_herm(tsl__blas_stat *st, char prec, char part, tsl__blas_int n,
                          const void *beta, void *c, tsl__blas_int ldc);

#endif
