/* fortran_cpu.c: the CPU BLAS function behind each Fortran symbol, looked up once (fortran.h),
 * and the scalar tests the routines' quick returns use. */
#include <pthread.h>
#include <string.h>

#include "blas/fortran.h"

/* One lock for every first lookup: it is taken once per symbol, so it never contends, and it
 * makes "the CPU BLAS has no xyz_" print once even when threads race to the first call. */
static pthread_mutex_t g_lookup = PTHREAD_MUTEX_INITIALIZER;

void *tsl__blas_cpu_get(tsl__blas_cpu_fn *f)
{
    int state = atomic_load_explicit(&f->state, memory_order_acquire);
    if (state == 0) {
        pthread_mutex_lock(&g_lookup);
        state = atomic_load_explicit(&f->state, memory_order_relaxed);
        if (state == 0) {
            if (f->lapack)
                f->fn = tsl__blas_lapack_sym(f->symbol);
            else if (f->alt)
                f->fn = tsl__blas_cpu_sym_opt(f->symbol) ? tsl__blas_cpu_sym_opt(f->symbol)
                                                         : tsl__blas_cpu_sym(f->alt);
            else
                f->fn = tsl__blas_cpu_sym(f->symbol);
            state = f->fn ? 1 : -1;
            atomic_store_explicit(&f->state, state, memory_order_release);
        }
        pthread_mutex_unlock(&g_lookup);
    }
    return state > 0 ? f->fn : NULL;
}

/* The real part and the imaginary part (0 for a real prec) of a scalar. */
static double re_of(char prec, const void *x)
{
    return tsl__blas_prec_double(prec) ? *(const double *)x : (double)*(const float *)x;
}

static double im_of(char prec, const void *x)
{
    if (!tsl__blas_prec_complex(prec)) return 0.0;
    return prec == 'z' ? ((const double *)x)[1] : (double)((const float *)x)[1];
}

int tsl__blas_is_zero(char prec, const void *x)
{
    return re_of(prec, x) == 0.0 && im_of(prec, x) == 0.0;
}

int tsl__blas_is_one(char prec, const void *x)
{
    return re_of(prec, x) == 1.0 && im_of(prec, x) == 0.0;
}

/* c = b c for one complex element of prec 'c' or 'z' (interleaved parts), rounded in the
 * element's precision as the reference's COMPLEX multiplication is. */
static void cscale(char prec, void *c, const void *b)
{
    if (prec == 'z') {
        double *p = c, br = ((const double *)b)[0], bi = ((const double *)b)[1];
        double r = br * p[0] - bi * p[1], i = br * p[1] + bi * p[0];
        p[0] = r;
        p[1] = i;
    } else {
        float *p = c, br = ((const float *)b)[0], bi = ((const float *)b)[1];
        float r = br * p[0] - bi * p[1], i = br * p[1] + bi * p[0];
        p[0] = r;
        p[1] = i;
    }
}

/* C = beta C, the reference's alpha == 0 branch, done here rather than by the CPU BLAS because
 * some CPU BLASes get it wrong (OpenBLAS 0.3.21's small-matrix kernels compute 0 * A * B and so
 * turn a NaN in A or B into NaN in C); counted as a CPU call of st. beta NULL or 0 writes zeros
 * without reading C. part 'U' or 'L' keeps to that triangle of an n x n C (SYRK, SYR2K), anything
 * else takes all m x n. */
void tsl__blas_scale(tsl__blas_stat *st, char prec, char part, tsl__blas_int m, tsl__blas_int n,
                     const void *beta, void *c, tsl__blas_int ldc)
{
    double t0 = tsl__blas_clock();
    int zero = !beta || tsl__blas_is_zero(prec, beta);
    for (tsl__blas_int j = 0; j < n; j++) {
        tsl__blas_int lo = part == 'L' ? j : 0, hi = part == 'U' ? j + 1 : part == 'L' ? n : m;
        size_t col = (size_t)j * (size_t)ldc;
        if (tsl__blas_prec_complex(prec)) {
            size_t es = prec == 'z' ? 2 * sizeof(double) : 2 * sizeof(float);
            char *p = (char *)c + col * es;
            for (tsl__blas_int i = lo; i < hi; i++) {
                if (zero)
                    memset(p + (size_t)i * es, 0, es);
                else
                    cscale(prec, p + (size_t)i * es, beta);
            }
        } else if (prec == 'd') {
            double *p = (double *)c + col, b = zero ? 0.0 : *(const double *)beta;
            for (tsl__blas_int i = lo; i < hi; i++)
                p[i] = zero ? 0.0 : b * p[i];
        } else {
            float *p = (float *)c + col, b = zero ? 0.0f : *(const float *)beta;
            for (tsl__blas_int i = lo; i < hi; i++)
                p[i] = zero ? 0.0f : b * p[i];
        }
    }
    tsl__blas_stat_add(st, 0, tsl__blas_clock() - t0);
}

void tsl__blas_scale_herm(tsl__blas_stat *st, char prec, char part, tsl__blas_int n,
                          const void *beta, void *c, tsl__blas_int ldc)
{
    double t0 = tsl__blas_clock();
    int dbl = prec == 'z';
    double b = dbl ? *(const double *)beta : (double)*(const float *)beta;
    for (tsl__blas_int j = 0; j < n; j++) {
        tsl__blas_int lo = part == 'L' ? j : 0, hi = part == 'L' ? n : j + 1;
        size_t col = 2 * (size_t)j * (size_t)ldc;
        for (tsl__blas_int i = lo; i < hi; i++) {
            size_t at = col + 2 * (size_t)i;
            if (dbl) {
                double *p = (double *)c + at;
                p[0] = b == 0.0 ? 0.0 : b * p[0];
                p[1] = b == 0.0 || i == j ? 0.0 : b * p[1];
            } else {
                float *p = (float *)c + at, bf = (float)b;
                p[0] = bf == 0.0f ? 0.0f : bf * p[0];
                p[1] = bf == 0.0f || i == j ? 0.0f : bf * p[1];
            }
        }
    }
    tsl__blas_stat_add(st, 0, tsl__blas_clock() - t0);
}

/* y = beta y over n elements of stride incy (negative: from the far end, as the BLAS does). */
void tsl__blas_scale_vec(tsl__blas_stat *st, char prec, tsl__blas_int n, const void *beta, void *y,
                         tsl__blas_int incy)
{
    double t0 = tsl__blas_clock();
    int zero = tsl__blas_is_zero(prec, beta);
    ptrdiff_t step = incy, at = incy > 0 ? 0 : -(ptrdiff_t)(n - 1) * incy;
    for (tsl__blas_int i = 0; i < n; i++, at += step) {
        if (prec == 'd') {
            double *p = (double *)y + at;
            *p = zero ? 0.0 : *(const double *)beta * *p;
        } else {
            float *p = (float *)y + at;
            *p = zero ? 0.0f : *(const float *)beta * *p;
        }
    }
    tsl__blas_stat_add(st, 0, tsl__blas_clock() - t0);
}
