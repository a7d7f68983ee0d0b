/* ref.c: CPU reference GEMM through CBLAS, error norms and random fills for verification. */
#include "ref/ref.h"

#include <cblas.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>

static enum CBLAS_ORDER order_of(tsl_layout l) { return l == TSL_COL_MAJOR ? CblasColMajor : CblasRowMajor; }
/* CBLAS's own values: TSL_CONJ_TRANS is CblasConjTrans (the real routines take it as CblasTrans) */
static enum CBLAS_TRANSPOSE trans_of(tsl_trans t)
{
    return t == TSL_CONJ_TRANS ? CblasConjTrans : t == TSL_TRANS ? CblasTrans : CblasNoTrans;
}

/* CBLAS takes int (blasint) sizes; callers of the reference stay far below 2^31. */
void tsl_ref_dgemm(tsl_layout layout, tsl_trans transa, tsl_trans transb, size_t m, size_t n,
                   size_t k, double alpha, const double *a, size_t lda, const double *b,
                   size_t ldb, double beta, double *c, size_t ldc)
{
    cblas_dgemm(order_of(layout), trans_of(transa), trans_of(transb), (int)m, (int)n, (int)k, alpha,
                a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
}

void tsl_ref_sgemm(tsl_layout layout, tsl_trans transa, tsl_trans transb, size_t m, size_t n,
                   size_t k, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                   float beta, float *c, size_t ldc)
{
    cblas_sgemm(order_of(layout), trans_of(transa), trans_of(transb), (int)m, (int)n, (int)k, alpha,
                a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
}

void tsl_ref_zgemm(tsl_layout layout, tsl_trans transa, tsl_trans transb, size_t m, size_t n,
                   size_t k, const double *alpha, const double *a, size_t lda, const double *b,
                   size_t ldb, const double *beta, double *c, size_t ldc)
{
    cblas_zgemm(order_of(layout), trans_of(transa), trans_of(transb), (int)m, (int)n, (int)k, alpha,
                a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
}

void tsl_ref_cgemm(tsl_layout layout, tsl_trans transa, tsl_trans transb, size_t m, size_t n,
                   size_t k, const float *alpha, const float *a, size_t lda, const float *b,
                   size_t ldb, const float *beta, float *c, size_t ldc)
{
    cblas_cgemm(order_of(layout), trans_of(transa), trans_of(transb), (int)m, (int)n, (int)k, alpha,
                a, (int)lda, b, (int)ldb, beta, c, (int)ldc);
}

double tsl_ref_rel_err_f(size_t rows, size_t cols, const float *out, size_t ldo,
                         const double *ref, size_t ldr)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) {
            double d = (double)out[i * ldo + j] - ref[i * ldr + j];
            num += d * d;
            den += ref[i * ldr + j] * ref[i * ldr + j];
        }
    if (isnan(num)) return NAN;
    return den > 0.0 ? sqrt(num / den) : sqrt(num);
}

double tsl_ref_rel_err_d(size_t rows, size_t cols, const double *out, size_t ldo,
                         const double *ref, size_t ldr)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) {
            double d = out[i * ldo + j] - ref[i * ldr + j];
            num += d * d;
            den += ref[i * ldr + j] * ref[i * ldr + j];
        }
    if (isnan(num)) return NAN;
    return den > 0.0 ? sqrt(num / den) : sqrt(num);
}

double tsl_ref_rel_err_h(size_t rows, size_t cols, const uint16_t *out, size_t ldo,
                         const double *ref, size_t ldr)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) {
            double d = (double)tsl_half_to_float(out[i * ldo + j]) - ref[i * ldr + j];
            num += d * d;
            den += ref[i * ldr + j] * ref[i * ldr + j];
        }
    if (isnan(num)) return NAN;
    return den > 0.0 ? sqrt(num / den) : sqrt(num);
}

double tsl_ref_rel_err_b(size_t rows, size_t cols, const uint16_t *out, size_t ldo,
                         const double *ref, size_t ldr)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j) {
            double d = (double)tsl_bf16_to_float(out[i * ldo + j]) - ref[i * ldr + j];
            num += d * d;
            den += ref[i * ldr + j] * ref[i * ldr + j];
        }
    if (isnan(num)) return NAN;
    return den > 0.0 ? sqrt(num / den) : sqrt(num);
}

float tsl_ref_round_tf32(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) u = (u | 0x00400000u) & 0xFFFFE000u; /* NaN stays */
    else if ((u & 0x7F800000u) != 0x7F800000u) u = (u + 0x1000u) & 0xFFFFE000u;
    memcpy(&x, &u, sizeof x);
    return x;
}

double tsl_ref_gemm_tolerance(int precision, size_t k)
{
    double factor = sqrt((double)k / 64.0);
    if (factor < 1.0) factor = 1.0;
    if (precision == TSL_HALF) return 0x1p-11 + 1e-5 * factor;
    if (precision == TSL_BFLOAT16) return 0x1p-8 + 1e-5 * factor;
    return (precision == TSL_DOUBLE ? 1e-12 : 1e-5) * factor;
}

static double next_uniform(unsigned long long *s)
{
    /* xorshift64*: fast, good enough for test data, and the same on every machine. */
    unsigned long long x = *s ? *s : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return (double)((x * 2685821657736338717ull) >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
}

void tsl_ref_fill_f(float *x, size_t n, unsigned long long *state)
{
    for (size_t i = 0; i < n; ++i) x[i] = (float)next_uniform(state);
}

void tsl_ref_fill_d(double *x, size_t n, unsigned long long *state)
{
    for (size_t i = 0; i < n; ++i) x[i] = next_uniform(state);
}

/* ---- BLAS-1/2 references -------------------------------------------------------------------- */

double tsl_ref_ddot(size_t n, const double *x, const double *y)
{
    return n ? cblas_ddot((int)n, x, 1, y, 1) : 0.0;
}

double tsl_ref_dnrm2(size_t n, const double *x)
{
    long double mx = 0.0L, ss = 0.0L;
    for (size_t i = 0; i < n; ++i) {
        long double a = fabsl((long double)x[i]);
        if (isnan(a)) return NAN;
        if (a > mx) mx = a;
    }
    if (mx == 0.0L || isinf(mx)) return (double)mx;
    for (size_t i = 0; i < n; ++i) {
        long double a = (long double)x[i] / mx;
        ss += a * a;
    }
    return (double)(mx * sqrtl(ss));
}

void tsl_ref_daxpy(size_t n, double alpha, const double *x, double *y)
{
    if (n) cblas_daxpy((int)n, alpha, x, 1, y, 1);
}

void tsl_ref_dgemv(tsl_layout layout, tsl_trans trans, size_t m, size_t n, double alpha,
                   const double *a, size_t lda, const double *x, double beta, double *y)
{
    if (m == 0 || n == 0) return; /* BLAS quick return: y unchanged */
    if (beta == 0.0) /* BLAS: y is not read; some CBLAS builds compute 0 * NaN */
        for (size_t i = 0; i < (trans == TSL_TRANS ? n : m); ++i) y[i] = 0.0;
    cblas_dgemv(order_of(layout), trans_of(trans), (int)m, (int)n, alpha, a, (int)lda, x, 1,
                beta, y, 1);
}

double tsl_ref_blas_tolerance(int is_double, size_t k)
{
    return tsl_ref_gemm_tolerance(is_double, k ? k : 1);
}

/* ---- Poisson / Jacobi ----------------------------------------------------------------------- */

int tsl_ref_jacobi(size_t n, const double *f, double *u, int sweeps)
{
    if (n < 3 || sweeps <= 0) return 0;
    double *next = malloc(n * n * sizeof *next);
    if (!next) return -1;
    memcpy(next, u, n * n * sizeof *next);
    const double h = 1.0 / (double)(n - 1), h2 = h * h;
    double *cur = u, *out = next;
    for (int s = 0; s < sweeps; ++s) {
        for (size_t y = 1; y + 1 < n; ++y)
            for (size_t x = 1; x + 1 < n; ++x) {
                size_t i = y * n + x;
                out[i] = ((((cur[i - 1] + cur[i + 1]) + cur[i - n]) + cur[i + n]) + h2 * f[i]) *
                         0.25;
            }
        double *t = cur;
        cur = out;
        out = t;
    }
    if (cur != u) memcpy(u, cur, n * n * sizeof *u);
    free(next);
    return 0;
}

double tsl_ref_poisson_residual(size_t n, const double *f, const double *u)
{
    const double inv_h2 = (double)(n - 1) * (double)(n - 1);
    double m = 0;
    for (size_t y = 1; y + 1 < n; ++y)
        for (size_t x = 1; x + 1 < n; ++x) {
            size_t i = y * n + x;
            double au = (4.0 * u[i] - u[i - 1] - u[i + 1] - u[i - n] - u[i + n]) * inv_h2;
            double r = fabs(f[i] - au);
            if (r > m || isnan(r)) m = r;
            if (isnan(m)) return m;
        }
    return m;
}
