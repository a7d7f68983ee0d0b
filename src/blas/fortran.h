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
} tsl__blas_cpu_fn;
#define TSL__BLAS_CPU_FN(symbol_)                                                                  \
    {                                                                                              \
        (symbol_), NULL, 0, 0                                                                      \
    }
#define TSL__BLAS_LAPACK_FN(symbol_)                                                               \
    {                                                                                              \
        (symbol_), NULL, 0, 1                                                                      \
    }

/* The function, or NULL when the CPU BLAS (LAPACK) lacks it (or there is none): cpu.c printed why, and
 * the caller returns without computing. Thread-safe. */
void *tsl__blas_cpu_get(tsl__blas_cpu_fn *f);

/* *x == 0 and *x == 1 for a float (prec 's') or a double (prec 'd'). */
int tsl__blas_is_zero(char prec, const void *x);
int tsl__blas_is_one(char prec, const void *x);

/* The reference's alpha == 0 results, computed here without reading A, B or x (fortran_cpu.c):
 * C = beta C over all m x n (part 0) or one triangle of n x n (part 'U' or 'L'); beta NULL
 * means zero (TRMM, TRSM). y = beta y over n elements of stride incy. Each counts a CPU call
 * of st, so TESSEL_BLAS_VERBOSE still lists the call. */
void tsl__blas_scale(tsl__blas_stat *st, char prec, char part, tsl__blas_int m, tsl__blas_int n,
                     const void *beta, void *c, tsl__blas_int ldc);
void tsl__blas_scale_vec(tsl__blas_stat *st, char prec, tsl__blas_int n, const void *beta, void *y,
                         tsl__blas_int incy);

#endif
