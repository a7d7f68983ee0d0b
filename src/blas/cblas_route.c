/* cblas_route.c: where a checked CBLAS call runs. The routines tessel has (GEMM, SYMM, SYRK,
 * SYR2K, TRMM, TRSM in s, d, c and z; HEMM, HERK, HER2K and OpenBLAS's GEMM3M in c and z, the 3M
 * ones as the same 4M product; GEMV, AXPY, DOT, NRM2 in s and d) first take the reference BLAS's
 * quick return, then go to the device through dispatch.h (the route decides there; row-major goes
 * as it is, libtessel takes both layouts) when the call's shape is one libtessel takes: Level 1 and
 * 2 with unit strides, positive sizes; anything else, and a 0 from dispatch (route chose the
 * CPU, no device, device failure), is the CPU BLAS's own cblas_* symbol, which the caller runs.
 * Also here: the CPU BLAS's function pointers, cached per symbol, and the CPU call counter. */
#include <stdatomic.h>

#include "blas/cblas_internal.h"
#include "blas/dispatch.h"

/* ---- helpers -------------------------------------------------------------------------------- */

/* A scalar's parts; a real one has no imaginary part. */
static double re_of(char prec, const void *p)
{
    return tsl__blas_prec_double(prec) ? *(const double *)p : (double)*(const float *)p;
}
static double im_of(char prec, const void *p)
{
    if (!tsl__blas_prec_complex(prec)) return 0.0;
    return prec == 'z' ? ((const double *)p)[1] : (double)((const float *)p)[1];
}
static int is_zero(char prec, const void *p)
{
    return re_of(prec, p) == 0.0 && im_of(prec, p) == 0.0;
}
static int is_one(char prec, const void *p)
{
    return re_of(prec, p) == 1.0 && im_of(prec, p) == 0.0;
}

/* The real precision of prec: the type of HERK's and HER2K's real scalars. */
static char real_prec(char prec)
{
    return tsl__blas_prec_double(prec) ? 'd' : 's';
}

/* A quick return: nothing to compute; counted as a call the CPU side did in no time. */
static int quick(tsl__blas_stat *st)
{
    tsl__blas_stat_add(st, 0, 0.0);
    return 1;
}

/* Real routines: ConjTrans is Trans. The arguments are checked: trans is one of the three. */
static tsl_trans tr(int t)
{
    return t == CblasNoTrans ? TSL_NO_TRANS : TSL_TRANS;
}

/* Of a routine of prec: complex ones keep ConjTrans (TSL_CONJ_TRANS, op(X) = X^H). */
static tsl_trans tr_of(char prec, int t)
{
    return tsl__blas_prec_complex(prec) && t == CblasConjTrans ? TSL_CONJ_TRANS : tr(t);
}

void *tsl__cblas_cpu(void *_Atomic *slot, const char *name)
{
    void *f = atomic_load_explicit(slot, memory_order_acquire);
    if (!f) {
        f = tsl__blas_cpu_sym(name);
        if (f) atomic_store_explicit(slot, f, memory_order_release);
    }
    return f;
}

void *tsl__cblas_cpu_or(void *_Atomic *slot, const char *name, const char *alt)
{
    void *f = atomic_load_explicit(slot, memory_order_acquire);
    if (!f) {
        f = tsl__blas_cpu_sym_opt(name);
        if (!f) f = tsl__blas_cpu_sym(alt);
        if (f) atomic_store_explicit(slot, f, memory_order_release);
    }
    return f;
}

int tsl__cblas_rk_trans(const char *rout, int layout, int trans)
{
    if (layout != CblasRowMajor || trans == CblasNoTrans) return trans;
    return rout[7] == 'h' ? CblasConjTrans : CblasTrans;
}

void tsl__cblas_cpu_done(tsl__blas_stat *st, double t0)
{
    tsl__blas_call call = {st, TSL__BLAS_L1, 0, 0, 0, 0};
    tsl__blas_cpu_done(&call, t0);
}

/* ---- Level 3 -------------------------------------------------------------------------------- */

int tsl__cblas_dev_gemm(tsl__blas_stat *st, char prec, int layout, int transa, int transb, int m,
                        int n, int k, const void *alpha, const void *a, int lda, const void *b,
                        int ldb, const void *beta, void *c, int ldc)
{
    if (m == 0 || n == 0 || ((is_zero(prec, alpha) || k == 0) && is_one(prec, beta)))
        return quick(st);
    if (k == 0) return 0; /* C = beta C: the CPU's */
    return tsl__blas_dev_gemm(st, prec, (tsl_layout)layout, tr_of(prec, transa),
                              tr_of(prec, transb), (size_t)m, (size_t)n, (size_t)k, alpha, a,
                              (size_t)lda, b, (size_t)ldb, beta, c, (size_t)ldc);
}

int tsl__cblas_dev_symm(tsl__blas_stat *st, char prec, int layout, int side, int uplo, int m, int n,
                        const void *alpha, const void *a, int lda, const void *b, int ldb,
                        const void *beta, void *c, int ldc)
{
    if (m == 0 || n == 0 || (is_zero(prec, alpha) && is_one(prec, beta))) return quick(st);
    return tsl__blas_dev_symm(st, prec, (tsl_layout)layout, (tsl_side)side, (tsl_uplo)uplo,
                              (size_t)m, (size_t)n, alpha, a, (size_t)lda, b, (size_t)ldb, beta, c,
                              (size_t)ldc);
}

int tsl__cblas_dev_hemm(tsl__blas_stat *st, char prec, int layout, int side, int uplo, int m, int n,
                        const void *alpha, const void *a, int lda, const void *b, int ldb,
                        const void *beta, void *c, int ldc)
{
    if (m == 0 || n == 0 || (is_zero(prec, alpha) && is_one(prec, beta))) return quick(st);
    return tsl__blas_dev_hemm(st, prec, (tsl_layout)layout, (tsl_side)side, (tsl_uplo)uplo,
                              (size_t)m, (size_t)n, alpha, a, (size_t)lda, b, (size_t)ldb, beta, c,
                              (size_t)ldc);
}

/* The four rank-k updates. herm: HERK or HER2K, whose beta is real (and HERK's alpha); two: SYR2K
 * or HER2K. A complex trans is already in the form that says it (tsl__cblas_rk_trans). */
static int dev_rk(tsl__blas_stat *st, char prec, int herm, int two, int layout, int uplo,
                  int trans, int n, int k, const void *alpha, const void *a, int lda,
                  const void *b, int ldb, const void *beta, void *c, int ldc)
{
    char alpha_prec = herm && !two ? real_prec(prec) : prec;
    char beta_prec = herm ? real_prec(prec) : prec;
    if (n == 0 || ((is_zero(alpha_prec, alpha) || k == 0) && is_one(beta_prec, beta)))
        return quick(st);
    if (k == 0) return 0;
    tsl_layout lo = (tsl_layout)layout;
    tsl_uplo u = (tsl_uplo)uplo;
    tsl_trans t = tr_of(prec, trans);
    size_t un = (size_t)n, uk = (size_t)k, ulda = (size_t)lda, uldb = (size_t)ldb;
    size_t uldc = (size_t)ldc;
    if (herm && two)
        return tsl__blas_dev_her2k(st, prec, lo, u, t, un, uk, alpha, a, ulda, b, uldb, beta, c,
                                   uldc);
    if (herm)
        return tsl__blas_dev_herk(st, prec, lo, u, t, un, uk, alpha, a, ulda, beta, c, uldc);
    if (two)
        return tsl__blas_dev_syr2k(st, prec, lo, u, t, un, uk, alpha, a, ulda, b, uldb, beta, c,
                                   uldc);
    return tsl__blas_dev_syrk(st, prec, lo, u, t, un, uk, alpha, a, ulda, beta, c, uldc);
}

int tsl__cblas_dev_syrk(tsl__blas_stat *st, char prec, int layout, int uplo, int trans, int n,
                        int k, const void *alpha, const void *a, int lda, const void *beta, void *c,
                        int ldc)
{
    return dev_rk(st, prec, 0, 0, layout, uplo, trans, n, k, alpha, a, lda, NULL, 0, beta, c, ldc);
}

int tsl__cblas_dev_herk(tsl__blas_stat *st, char prec, int layout, int uplo, int trans, int n,
                        int k, const void *alpha, const void *a, int lda, const void *beta, void *c,
                        int ldc)
{
    return dev_rk(st, prec, 1, 0, layout, uplo, trans, n, k, alpha, a, lda, NULL, 0, beta, c, ldc);
}

int tsl__cblas_dev_syr2k(tsl__blas_stat *st, char prec, int layout, int uplo, int trans, int n,
                         int k, const void *alpha, const void *a, int lda, const void *b, int ldb,
                         const void *beta, void *c, int ldc)
{
    return dev_rk(st, prec, 0, 1, layout, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

int tsl__cblas_dev_her2k(tsl__blas_stat *st, char prec, int layout, int uplo, int trans, int n,
                         int k, const void *alpha, const void *a, int lda, const void *b, int ldb,
                         const void *beta, void *c, int ldc)
{
    return dev_rk(st, prec, 1, 1, layout, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

int tsl__cblas_dev_trxm(tsl__blas_stat *st, char prec, int solve, int layout, int side, int uplo,
                        int trans, int diag, int m, int n, const void *alpha, const void *a,
                        int lda, void *b, int ldb)
{
    if (m == 0 || n == 0) return quick(st);
    return tsl__blas_dev_trxm(st, prec, solve, (tsl_layout)layout, (tsl_side)side, (tsl_uplo)uplo,
                              tr_of(prec, trans), (tsl_diag)diag, (size_t)m, (size_t)n, alpha, a,
                              (size_t)lda, b, (size_t)ldb);
}

/* ---- Level 2 and 1: unit strides only on the device ----------------------------------------- */

int tsl__cblas_dev_gemv(tsl__blas_stat *st, char prec, int layout, int trans, int m, int n,
                        const void *alpha, const void *a, int lda, const void *x, int incx,
                        const void *beta, void *y, int incy)
{
    if (m == 0 || n == 0 || (is_zero(prec, alpha) && is_one(prec, beta))) return quick(st);
    if (incx != 1 || incy != 1) return 0;
    return tsl__blas_dev_gemv(st, prec, (tsl_layout)layout, tr(trans), (size_t)m, (size_t)n, alpha,
                              a, (size_t)lda, x, beta, y);
}

int tsl__cblas_dev_axpy(tsl__blas_stat *st, char prec, int n, const void *alpha, const void *x,
                        int incx, void *y, int incy)
{
    if (n <= 0 || is_zero(prec, alpha)) return quick(st);
    if (incx != 1 || incy != 1) return 0;
    return tsl__blas_dev_axpy(st, prec, (size_t)n, alpha, x, y);
}

static void set_zero(char prec, void *result)
{
    if (prec == 'd')
        *(double *)result = 0.0;
    else
        *(float *)result = 0.0f;
}

int tsl__cblas_dev_dot(tsl__blas_stat *st, char prec, int n, const void *x, int incx, const void *y,
                       int incy, void *result)
{
    if (n <= 0) {
        set_zero(prec, result);
        return quick(st);
    }
    if (incx != 1 || incy != 1) return 0;
    return tsl__blas_dev_dot(st, prec, (size_t)n, x, y, result);
}

int tsl__cblas_dev_nrm2(tsl__blas_stat *st, char prec, int n, const void *x, int incx, void *result)
{
    if (n <= 0) {
        set_zero(prec, result);
        return quick(st);
    }
    if (incx != 1) return 0;
    return tsl__blas_dev_nrm2(st, prec, (size_t)n, x, result);
}
