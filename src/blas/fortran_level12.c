/* fortran_level12.c: the Fortran Level-1 and Level-2 symbols that can run on the device (s/d
 * gemv, axpy, dot, nrm2). tessel's kernels take contiguous vectors, so only unit strides go to
 * the device; any other stride runs the CPU BLAS's own symbol. GEMV with alpha == 0 only scales y,
 * which is done here, never reading A or x (fortran_level3.c says why). GEMV checks its
 * arguments as the reference does and reports through xerbla_; the Level-1 routines have no
 * errors: n <= 0 returns at once (dot and nrm2 give 0), as does axpy with alpha == 0. */
#include "blas/dispatch.h"
#include "blas/fortran.h"

enum { DONE = 0, RUN_CPU = 1 };

/* ---- GEMV: y = alpha op(A) x + beta y ------------------------------------------------------ */
static int gemv(tsl__blas_stat *st, char prec, const char *name, char trans, tsl__blas_int m,
                tsl__blas_int n, const void *alpha, const void *a, tsl__blas_int lda, const void *x,
                tsl__blas_int incx, const void *beta, void *y, tsl__blas_int incy)
{
    int info = 0;
    if (!tsl__blas_lsame(trans, 'N') && !tsl__blas_lsame(trans, 'T') &&
        !tsl__blas_lsame(trans, 'C'))
        info = 1;
    else if (m < 0)
        info = 2;
    else if (n < 0)
        info = 3;
    else if (lda < (m > 1 ? m : 1))
        info = 6;
    else if (incx == 0)
        info = 8;
    else if (incy == 0)
        info = 11;
    if (info) {
        tsl__blas_xerbla(name, info);
        return DONE;
    }
    int no_product = tsl__blas_is_zero(prec, alpha);
    if (m == 0 || n == 0 || (no_product && tsl__blas_is_one(prec, beta))) return DONE;
    if (no_product) { /* y = beta y, x and A unread */
        tsl__blas_scale_vec(st, prec, tsl__blas_lsame(trans, 'N') ? m : n, beta, y, incy);
        return DONE;
    }
    if (incx != 1 || incy != 1) return RUN_CPU;
    tsl_trans t = tsl__blas_lsame(trans, 'N') ? TSL_NO_TRANS : TSL_TRANS;
    return tsl__blas_dev_gemv(st, prec, TSL_COL_MAJOR, t, (size_t)m, (size_t)n, alpha, a,
                              (size_t)lda, x, beta, y)
               ? DONE
               : RUN_CPU;
}

TSL_BLAS_API void sgemv_(const char *trans, const tsl__blas_int *m, const tsl__blas_int *n,
                         const float *alpha, const float *a, const tsl__blas_int *lda,
                         const float *x, const tsl__blas_int *incx, const float *beta, float *y,
                         const tsl__blas_int *incy, size_t trans_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemv");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("sgemv_");
    if (gemv(&st, 's', "SGEMV", *trans, *m, *n, alpha, a, *lda, x, *incx, beta, y, *incy) == DONE)
        return;
    tsl__blas_sgemv_fn *f = (tsl__blas_sgemv_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(trans, m, n, alpha, a, lda, x, incx, beta, y, incy, trans_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

TSL_BLAS_API void dgemv_(const char *trans, const tsl__blas_int *m, const tsl__blas_int *n,
                         const double *alpha, const double *a, const tsl__blas_int *lda,
                         const double *x, const tsl__blas_int *incx, const double *beta, double *y,
                         const tsl__blas_int *incy, size_t trans_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("dgemv");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("dgemv_");
    if (gemv(&st, 'd', "DGEMV", *trans, *m, *n, alpha, a, *lda, x, *incx, beta, y, *incy) == DONE)
        return;
    tsl__blas_dgemv_fn *f = (tsl__blas_dgemv_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(trans, m, n, alpha, a, lda, x, incx, beta, y, incy, trans_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

/* ---- AXPY: y = alpha x + y ----------------------------------------------------------------- */
static int axpy(tsl__blas_stat *st, char prec, tsl__blas_int n, const void *alpha, const void *x,
                tsl__blas_int incx, void *y, tsl__blas_int incy)
{
    if (n <= 0 || tsl__blas_is_zero(prec, alpha)) return DONE;
    if (incx != 1 || incy != 1) return RUN_CPU;
    return tsl__blas_dev_axpy(st, prec, (size_t)n, alpha, x, y) ? DONE : RUN_CPU;
}

TSL_BLAS_API void saxpy_(const tsl__blas_int *n, const float *sa, const float *sx,
                         const tsl__blas_int *incx, float *sy, const tsl__blas_int *incy)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("saxpy");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("saxpy_");
    if (axpy(&st, 's', *n, sa, sx, *incx, sy, *incy) == DONE) return;
    tsl__blas_saxpy_fn *f = (tsl__blas_saxpy_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(n, sa, sx, incx, sy, incy);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

TSL_BLAS_API void daxpy_(const tsl__blas_int *n, const double *da, const double *dx,
                         const tsl__blas_int *incx, double *dy, const tsl__blas_int *incy)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("daxpy");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("daxpy_");
    if (axpy(&st, 'd', *n, da, dx, *incx, dy, *incy) == DONE) return;
    tsl__blas_daxpy_fn *f = (tsl__blas_daxpy_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(n, da, dx, incx, dy, incy);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

/* ---- DOT and NRM2: the result is written to *result (a float or a double) when DONE -------- */
static int dot(tsl__blas_stat *st, char prec, tsl__blas_int n, const void *x, tsl__blas_int incx,
               const void *y, tsl__blas_int incy, void *result)
{
    if (n <= 0) return DONE; /* result already 0 */
    if (incx != 1 || incy != 1) return RUN_CPU;
    return tsl__blas_dev_dot(st, prec, (size_t)n, x, y, result) ? DONE : RUN_CPU;
}

TSL_BLAS_API float sdot_(const tsl__blas_int *n, const float *sx, const tsl__blas_int *incx,
                         const float *sy, const tsl__blas_int *incy)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("sdot");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("sdot_");
    float r = 0.0f;
    if (dot(&st, 's', *n, sx, *incx, sy, *incy, &r) == DONE) return r;
    tsl__blas_sdot_fn *f = (tsl__blas_sdot_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return 0.0f;
    double t0 = tsl__blas_clock();
    r = f(n, sx, incx, sy, incy);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
    return r;
}

TSL_BLAS_API double ddot_(const tsl__blas_int *n, const double *dx, const tsl__blas_int *incx,
                          const double *dy, const tsl__blas_int *incy)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("ddot");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("ddot_");
    double r = 0.0;
    if (dot(&st, 'd', *n, dx, *incx, dy, *incy, &r) == DONE) return r;
    tsl__blas_ddot_fn *f = (tsl__blas_ddot_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return 0.0;
    double t0 = tsl__blas_clock();
    r = f(n, dx, incx, dy, incy);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
    return r;
}

static int nrm2(tsl__blas_stat *st, char prec, tsl__blas_int n, const void *x, tsl__blas_int incx,
                void *result)
{
    if (n <= 0) return DONE; /* result already 0 */
    if (incx != 1) return RUN_CPU;
    return tsl__blas_dev_nrm2(st, prec, (size_t)n, x, result) ? DONE : RUN_CPU;
}

TSL_BLAS_API float snrm2_(const tsl__blas_int *n, const float *x, const tsl__blas_int *incx)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("snrm2");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("snrm2_");
    float r = 0.0f;
    if (nrm2(&st, 's', *n, x, *incx, &r) == DONE) return r;
    tsl__blas_snrm2_fn *f = (tsl__blas_snrm2_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return 0.0f;
    double t0 = tsl__blas_clock();
    r = f(n, x, incx);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
    return r;
}

TSL_BLAS_API double dnrm2_(const tsl__blas_int *n, const double *x, const tsl__blas_int *incx)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("dnrm2");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("dnrm2_");
    double r = 0.0;
    if (nrm2(&st, 'd', *n, x, *incx, &r) == DONE) return r;
    tsl__blas_dnrm2_fn *f = (tsl__blas_dnrm2_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return 0.0;
    double t0 = tsl__blas_clock();
    r = f(n, x, incx);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
    return r;
}
