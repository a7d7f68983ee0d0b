/* math_error.c: the error of single-precision GEMM as an unmodified program linked with
 * -ltessel_blas sees it, in the math mode the environment gives the drop-in (TESSEL_BLAS_MATH;
 * docs/dropin.md, "Math modes"), or of the CPU BLAS with TESSEL_BLAS_ROUTE=cpu. The data is
 * uniform in [-1, 1) from a fixed seed, rounded to float; the reference is the product of those
 * floats in double. Two figures per product, with R the reference and S = |alpha| |A| |B| +
 * |beta| |C0| (elementwise, the sum of the magnitudes that make each element):
 *   rel_frobenius      ||C - R||_F / ||R||_F, the relative error `tessel gemm --verify` and the
 *                      Hopper benchmark report;
 *   max_componentwise  max |C - R| / S over the elements, which cancellation cannot inflate.
 *
 *   dropin_math_error N...        C = A B, N x N x N, by sgemm_: one line "n rel_frobenius
 *                                 max_componentwise" per N (bench/dropin/math_error.sh makes the
 *                                 table of docs/dropin.md from them)
 *   dropin_math_error --check M   the test (tests/dropin_math.cmake): sgemm_ on an odd shape with a
 *                                 transposed B, padded leading dimensions, alpha and beta, and
 *                                 cblas_sgemm row-major with a transposed A, must have the error of
 *                                 math mode M (fp32, tf32, 3xtf32; the bounds are at check_mode);
 *                                 exit status 0 when both do */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef int fint;
void sgemm_(const char *, const char *, const fint *, const fint *, const fint *, const float *,
            const float *, const fint *, const float *, const fint *, const float *, float *,
            const fint *, size_t, size_t);
enum { ROW_MAJOR = 101, COL_MAJOR = 102, NO_TRANS = 111, TRANS = 112 }; /* CBLAS's values */
void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k, float alpha,
                 const float *a, int lda, const float *b, int ldb, float beta, float *c, int ldc);

static uint64_t g_rng = 0x5eed7f32ULL;

static float urand(void) /* uniform in [-1, 1), rounded to float */
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (float)((double)(g_rng >> 11) / 4503599627370496.0 - 1.0);
}

static float *rmat(size_t n)
{
    float *p = malloc(n * sizeof *p + 1);
    if (!p) {
        fprintf(stderr, "dropin_math_error: error: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = urand();
    return p;
}

/* A column-major view of an operand: element (i, j) of op(X) is x[i * ri + j * rj]. */
typedef struct {
    const float *x;
    size_t ri, rj;
} view;

typedef struct {
    double rel_frobenius, max_componentwise;
} errors;

/* The errors of c (m x n, column-major, ldc) against alpha op(A) op(B) + beta c0 in double. */
static errors measure(size_t m, size_t n, size_t k, double alpha, view a, view b, double beta,
                      const float *c0, const float *c, size_t ldc)
{
    double *r = calloc(m, sizeof *r), *s = calloc(m, sizeof *s);
    double diff2 = 0, ref2 = 0, worst = 0;
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < m; i++) {
            r[i] = beta * c0[i + j * ldc];
            s[i] = fabs(beta * c0[i + j * ldc]);
        }
        for (size_t p = 0; p < k; p++) {
            double bpj = alpha * b.x[p * b.ri + j * b.rj];
            for (size_t i = 0; i < m; i++) {
                double t = (double)a.x[i * a.ri + p * a.rj] * bpj;
                r[i] += t;
                s[i] += fabs(t);
            }
        }
        for (size_t i = 0; i < m; i++) {
            double d = (double)c[i + j * ldc] - r[i];
            diff2 += d * d;
            ref2 += r[i] * r[i];
            double e = s[i] > 0 ? fabs(d) / s[i] : fabs(d);
            if (!(e <= worst)) worst = e; /* a NaN is the worst */
        }
    }
    free(r);
    free(s);
    return (errors){sqrt(diff2 / ref2), worst};
}

/* C = A B, n x n x n, by sgemm_. */
static errors square(size_t n)
{
    fint ni = (fint)n;
    float *a = rmat(n * n), *b = rmat(n * n), *c = rmat(n * n);
    const float one = 1.0f, zero = 0.0f;
    sgemm_("N", "N", &ni, &ni, &ni, &one, a, &ni, b, &ni, &zero, c, &ni, 1, 1);
    errors e = measure(n, n, n, 1.0, (view){a, 1, n}, (view){b, 1, n}, 0.0, c, c, n);
    free(a);
    free(b);
    free(c);
    return e;
}

/* The error a product of inner size k may have in math mode `mode`, and the least TF32 must show
 * (the TF32 rounding of the inputs: a product of two rounded values is within 2^-10 + 2^-22 of
 * the exact one, and over many elements their Frobenius error is far above FP32's). */
static void check_mode(const char *what, const char *mode, size_t k, errors e)
{
    double u = ldexp(1.0, -23);
    printf("%s, %s: rel_frobenius %.3g max_componentwise %.3g\n", what, mode, e.rel_frobenius,
           e.max_componentwise);
    if (strcmp(mode, "tf32") == 0) {
        double bound = ldexp(1.0, -10) + ldexp(1.0, -22) + (double)(k + 2) * u;
        CHECK(e.max_componentwise <= bound, "%s in tf32: componentwise %.3g above %.3g", what,
              e.max_componentwise, bound);
        CHECK(e.rel_frobenius >= ldexp(1.0, -16),
              "%s in tf32: relative error %.3g is FP32's, not TF32's (2^-16 = %.3g at least): "
              "the mode was not applied",
              what, e.rel_frobenius, ldexp(1.0, -16));
        return;
    }
    /* FP32's bound, and 3xTF32's (tests/test_tensor.c): the dropped small x small term and
     * three products' sums */
    double bound = strcmp(mode, "3xtf32") == 0 ? ldexp(1.0, -20) + (double)(3 * k + 2) * u
                                               : (double)(k + 2) * u;
    CHECK(e.max_componentwise <= bound, "%s in %s: componentwise %.3g above %.3g", what, mode,
          e.max_componentwise, bound);
    CHECK(e.rel_frobenius <= ldexp(1.0, -20), "%s in %s: relative error %.3g above 2^-20 = %.3g",
          what, mode, e.rel_frobenius, ldexp(1.0, -20));
}

static int check(const char *mode)
{
    if (strcmp(mode, "fp32") != 0 && strcmp(mode, "tf32") != 0 && strcmp(mode, "3xtf32") != 0) {
        fprintf(stderr, "dropin_math_error: error: --check takes fp32, tf32 or 3xtf32\n");
        return 2;
    }
    /* sgemm_: C (67 x 45) = 0.75 A B^T - 0.5 C, A 67 x 129 (lda 70), B 45 x 129 (ldb 47) */
    {
        const fint m = 67, n = 45, k = 129, lda = 70, ldb = 47, ldc = 69;
        const float alpha = 0.75f, beta = -0.5f;
        float *a = rmat((size_t)lda * k), *b = rmat((size_t)ldb * k), *c = rmat((size_t)ldc * n);
        float *c0 = malloc((size_t)ldc * n * sizeof *c0);
        memcpy(c0, c, (size_t)ldc * n * sizeof *c0);
        sgemm_("N", "T", &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc, 1, 1);
        errors e = measure((size_t)m, (size_t)n, (size_t)k, alpha, (view){a, 1, (size_t)lda},
                           (view){b, (size_t)ldb, 1}, beta, c0, c, (size_t)ldc);
        check_mode("sgemm_ 67 x 45 x 129 (N, T)", mode, (size_t)k, e);
        free(a);
        free(b);
        free(c);
        free(c0);
    }
    /* cblas_sgemm, row-major: C (33 x 70) = A^T B, A 96 x 33, B 96 x 70. As column-major, C^T
     * (70 x 33) = B^T A: element (i, j) of C^T is sum_p B[p][i] A[p][j]. */
    {
        const int m = 33, n = 70, k = 96;
        float *a = rmat((size_t)k * m), *b = rmat((size_t)k * n), *c = rmat((size_t)m * n);
        cblas_sgemm(ROW_MAJOR, TRANS, NO_TRANS, m, n, k, 1.0f, a, m, b, n, 0.0f, c, n);
        errors e = measure((size_t)n, (size_t)m, (size_t)k, 1.0, (view){b, 1, (size_t)n},
                           (view){a, (size_t)m, 1}, 0.0, c, c, (size_t)n);
        check_mode("cblas_sgemm 33 x 70 x 96 (row-major, T, N)", mode, (size_t)k, e);
        free(a);
        free(b);
        free(c);
    }
    return check_summary("dropin_math_error");
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--check") == 0) return check(argv[2]);
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: dropin_math_error N... | --check fp32|tf32|3xtf32\n");
        return 2;
    }
    printf("n rel_frobenius max_componentwise\n");
    for (int i = 1; i < argc; i++) {
        long n = strtol(argv[i], NULL, 10);
        if (n < 1 || n > 16384) {
            fprintf(stderr, "dropin_math_error: error: N = %s is not in 1..16384\n", argv[i]);
            return 2;
        }
        errors e = square((size_t)n);
        printf("%ld %.2e %.2e\n", n, e.rel_frobenius, e.max_componentwise);
    }
    return 0;
}
