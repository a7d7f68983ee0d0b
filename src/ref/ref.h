/* ref.h: CPU reference implementations used for verification (--verify and the tests). GEMM goes
 * through CBLAS (OpenBLAS) in double precision, so a single-precision result is compared with a
 * reference more accurate than itself. Not part of libtessel: the CLI and the tests link it. */
#ifndef TSL_REF_H
#define TSL_REF_H

#include <stddef.h>
#include "tessel.h"

/* C = alpha op(A) op(B) + beta C in double through cblas_dgemm, full CBLAS semantics. */
void tsl_ref_dgemm(tsl_layout layout, tsl_trans transa, tsl_trans transb, size_t m, size_t n,
                   size_t k, double alpha, const double *a, size_t lda, const double *b,
                   size_t ldb, double beta, double *c, size_t ldc);
/* The same in single precision through cblas_sgemm: the OpenBLAS peer times this one. */
void tsl_ref_sgemm(tsl_layout layout, tsl_trans transa, tsl_trans transb, size_t m, size_t n,
                   size_t k, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                   float beta, float *c, size_t ldc);

/* ||out - ref||_F / ||ref||_F over a rows x cols matrix stored with leading dimensions ldo and
 * ldr (row-major view: element (i, j) at [i * ld + j]). Computed in double. If ||ref|| == 0 it
 * returns ||out||_F. NaN anywhere in out gives NaN (which never passes a comparison). */
double tsl_ref_rel_err_f(size_t rows, size_t cols, const float *out, size_t ldo,
                         const double *ref, size_t ldr);
double tsl_ref_rel_err_d(size_t rows, size_t cols, const double *out, size_t ldo,
                         const double *ref, size_t ldr);

/* The pass threshold for a GEMM of inner dimension k: 1e-5 (single) or 1e-12 (double) times
 * max(1, sqrt(k / 64)). Rounding errors of a length-k dot product grow like sqrt(k) for random
 * data; the factor keeps the bound tight at small k and fair at large k. */
double tsl_ref_gemm_tolerance(int is_double, size_t k);

/* Fill n values with uniform random numbers in [-1, 1) from a xorshift generator; *state is the
 * seed and is advanced. Never zero-filled data: tests and --verify use this. */
void tsl_ref_fill_f(float *x, size_t n, unsigned long long *state);
void tsl_ref_fill_d(double *x, size_t n, unsigned long long *state);

#endif
