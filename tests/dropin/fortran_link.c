/* fortran_link.c: a C program that uses libtessel_blas the second of the three ways, LINKED with
 * -ltessel_blas instead of -lblas, and calls the Fortran symbols as any C caller of the BLAS does
 * (every argument by address, hidden string lengths last). It checks the routines tessel can run
 * on the device (s/d gemm, symm, syrk, syr2k, trmm, trsm, gemv, axpy, dot, nrm2) against plain C
 * loops on seeded random data, with odd sizes and padded leading dimensions, and the reference's
 * exact semantics: beta == 0 never reads C, alpha == 0 never reads A or B, the unreferenced
 * triangle is never read or written, non-unit strides, n <= 0. It defines its own xerbla_, which
 * must be the one the library calls (name and position as the reference reports them), and calls
 * a few forwarded symbols (complex results by value, the *sub helpers).
 *   fortran_link            the checks above; exit status 0 when all pass
 *   fortran_link recursion  TESSEL_BLAS_CPU names this library, TESSEL_BLAS_ROUTE=cpu: every call
 *                           must return at once without computing (tests/dropin_fortran.cmake
 *                           checks that stderr says why in one line) */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---- the Fortran BLAS as a C program declares it (LP64 gfortran ABI) ----------------------- */
typedef int fint;
void sgemm_(const char *, const char *, const fint *, const fint *, const fint *, const float *,
            const float *, const fint *, const float *, const fint *, const float *, float *,
            const fint *, size_t, size_t);
void dgemm_(const char *, const char *, const fint *, const fint *, const fint *, const double *,
            const double *, const fint *, const double *, const fint *, const double *, double *,
            const fint *, size_t, size_t);
void ssymm_(const char *, const char *, const fint *, const fint *, const float *, const float *,
            const fint *, const float *, const fint *, const float *, float *, const fint *, size_t,
            size_t);
void dsymm_(const char *, const char *, const fint *, const fint *, const double *, const double *,
            const fint *, const double *, const fint *, const double *, double *, const fint *,
            size_t, size_t);
void ssyrk_(const char *, const char *, const fint *, const fint *, const float *, const float *,
            const fint *, const float *, float *, const fint *, size_t, size_t);
void dsyrk_(const char *, const char *, const fint *, const fint *, const double *, const double *,
            const fint *, const double *, double *, const fint *, size_t, size_t);
void ssyr2k_(const char *, const char *, const fint *, const fint *, const float *, const float *,
             const fint *, const float *, const fint *, const float *, float *, const fint *,
             size_t, size_t);
void dsyr2k_(const char *, const char *, const fint *, const fint *, const double *, const double *,
             const fint *, const double *, const fint *, const double *, double *, const fint *,
             size_t, size_t);
void strmm_(const char *, const char *, const char *, const char *, const fint *, const fint *,
            const float *, const float *, const fint *, float *, const fint *, size_t, size_t,
            size_t, size_t);
void dtrmm_(const char *, const char *, const char *, const char *, const fint *, const fint *,
            const double *, const double *, const fint *, double *, const fint *, size_t, size_t,
            size_t, size_t);
void strsm_(const char *, const char *, const char *, const char *, const fint *, const fint *,
            const float *, const float *, const fint *, float *, const fint *, size_t, size_t,
            size_t, size_t);
void dtrsm_(const char *, const char *, const char *, const char *, const fint *, const fint *,
            const double *, const double *, const fint *, double *, const fint *, size_t, size_t,
            size_t, size_t);
void sgemv_(const char *, const fint *, const fint *, const float *, const float *, const fint *,
            const float *, const fint *, const float *, float *, const fint *, size_t);
void dgemv_(const char *, const fint *, const fint *, const double *, const double *, const fint *,
            const double *, const fint *, const double *, double *, const fint *, size_t);
void saxpy_(const fint *, const float *, const float *, const fint *, float *, const fint *);
void daxpy_(const fint *, const double *, const double *, const fint *, double *, const fint *);
float sdot_(const fint *, const float *, const fint *, const float *, const fint *);
double ddot_(const fint *, const double *, const fint *, const double *, const fint *);
float snrm2_(const fint *, const float *, const fint *);
double dnrm2_(const fint *, const double *, const fint *);
void dscal_(const fint *, const double *, double *, const fint *);
void ddotsub_(const fint *, const double *, const fint *, const double *, const fint *, double *);
fint idamax_(const fint *, const double *, const fint *);
double _Complex zdotc_(const fint *, const double _Complex *, const fint *, const double _Complex *,
                       const fint *);
float _Complex cdotu_(const fint *, const float _Complex *, const fint *, const float _Complex *,
                      const fint *);
void zgemm_(const char *, const char *, const fint *, const fint *, const fint *,
            const double _Complex *, const double _Complex *, const fint *, const double _Complex *,
            const fint *, const double _Complex *, double _Complex *, const fint *, size_t, size_t);

/* ---- our own xerbla_: the library must call this one ------------------------------------- */
static char g_xname[16];
static int g_xinfo, g_xcalls;

void xerbla_(const char *name, const fint *info, size_t len)
{
    size_t n = len < sizeof g_xname - 1 ? len : sizeof g_xname - 1;
    memcpy(g_xname, name, n);
    g_xname[n] = '\0';
    g_xinfo = *info;
    g_xcalls++;
}

/* ---- data ---------------------------------------------------------------------------------- */
static uint64_t g_rng = 0x7e55e1b1a5ULL;

static double urand(void) /* in [-1, 1), never exactly 0 in practice */
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (double)(g_rng >> 11) / 4503599627370496.0 - 1.0;
}

static double *rmat(size_t n)
{
    double *p = malloc(n * sizeof *p + 1);
    for (size_t i = 0; i < n; i++)
        p[i] = urand();
    return p;
}

/* The operand as the routine's precision sees it: a float or double copy of x. */
static void *typed(char prec, const double *x, size_t n)
{
    if (prec == 'd') {
        double *p = malloc(n * sizeof *p + 1);
        memcpy(p, x, n * sizeof *p);
        return p;
    }
    float *p = malloc(n * sizeof *p + 1);
    for (size_t i = 0; i < n; i++)
        p[i] = (float)x[i];
    return p;
}

static double at(char prec, const void *p, size_t i)
{
    return prec == 'd' ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* x as the routine's precision rounds it, so the C loops see the routine's own inputs. */
static void round_to(char prec, double *x, size_t n)
{
    if (prec == 's')
        for (size_t i = 0; i < n; i++)
            x[i] = (double)(float)x[i];
}

static double eps(char prec)
{
    return prec == 'd' ? 2.3e-16 : 1.2e-7;
}

/* |got - want| within a few roundings of each term that made want (scale: sum of |terms|). */
static int close_to(char prec, double got, double want, double scale, int terms)
{
    return fabs(got - want) <= 4.0 * eps(prec) * (terms + 2) * (scale + 1e-300);
}

/* ---- GEMM ---------------------------------------------------------------------------------- */
static void check_gemm(char prec, char ta, char tb, fint m, fint n, fint k, double alpha,
                       double beta)
{
    int nota = ta == 'N', notb = tb == 'N';
    fint lda = (nota ? m : k) + 3, ldb = (notb ? k : n) + 1, ldc = m + 2;
    size_t na = (size_t)lda * (nota ? k : m), nb = (size_t)ldb * (notb ? n : k);
    size_t nc = (size_t)ldc * n;
    double *a = rmat(na), *b = rmat(nb), *c = rmat(nc);
    round_to(prec, a, na);
    round_to(prec, b, nb);
    round_to(prec, c, nc);
    if (beta == 0.0)
        for (size_t i = 0; i < nc; i++)
            c[i] = NAN; /* beta == 0 must not read C */
    void *ta_ = typed(prec, a, na), *tb_ = typed(prec, b, nb), *tc = typed(prec, c, nc);
    if (prec == 'd') {
        dgemm_(&ta, &tb, &m, &n, &k, &alpha, ta_, &lda, tb_, &ldb, &beta, tc, &ldc, 1, 1);
    } else {
        float al = (float)alpha, be = (float)beta;
        sgemm_(&ta, &tb, &m, &n, &k, &al, ta_, &lda, tb_, &ldb, &be, tc, &ldc, 1, 1);
    }
    int bad = 0;
    for (fint j = 0; j < n; j++)
        for (fint i = 0; i < ldc; i++) {
            size_t ic = i + (size_t)j * ldc;
            double got = at(prec, tc, ic);
            if (i >= m) { /* padding rows of C are the caller's */
                bad += !(isnan(c[ic]) ? isnan(got) : got == c[ic]);
                continue;
            }
            double s = 0, scale = 0;
            for (fint l = 0; l < k; l++) {
                double x = nota ? a[i + (size_t)l * lda] : a[l + (size_t)i * lda];
                double y = notb ? b[l + (size_t)j * ldb] : b[j + (size_t)l * ldb];
                s += x * y;
                scale += fabs(x * y);
            }
            double want = alpha * s + (beta == 0.0 ? 0.0 : beta * c[ic]);
            scale = fabs(alpha) * scale + (beta == 0.0 ? 0.0 : fabs(beta * c[ic]));
            bad += !close_to(prec, got, want, scale, k);
        }
    CHECK(bad == 0, "%cgemm %c%c m=%d n=%d k=%d alpha=%g beta=%g: %d wrong elements", prec, ta, tb,
          m, n, k, alpha, beta, bad);
    free(a), free(b), free(c), free(ta_), free(tb_), free(tc);
}

/* alpha == 0: C = beta C without reading A or B (NaN there must not reach C). */
static void check_gemm_alpha0(char prec)
{
    fint m = 5, n = 4, k = 3, ld = 5;
    double a[15], b[12], c[20], c0[20];
    for (int i = 0; i < 15; i++)
        a[i] = NAN;
    for (int i = 0; i < 12; i++)
        b[i] = NAN;
    for (int i = 0; i < 20; i++)
        c[i] = c0[i] = (double)(float)urand();
    void *tc = typed(prec, c, 20);
    void *ta_ = typed(prec, a, 15), *tb_ = typed(prec, b, 12);
    if (prec == 'd') {
        double al = 0, be = 0.5;
        dgemm_("N", "N", &m, &n, &k, &al, ta_, &ld, tb_, &k, &be, tc, &ld, 1, 1);
    } else {
        float al = 0, be = 0.5f;
        sgemm_("N", "N", &m, &n, &k, &al, ta_, &ld, tb_, &k, &be, tc, &ld, 1, 1);
    }
    int bad = 0;
    for (int i = 0; i < 20; i++)
        bad += at(prec, tc, i) != 0.5 * c0[i];
    CHECK(bad == 0, "%cgemm alpha=0: C != beta*C in %d elements (A or B was read?)", prec, bad);
    /* SYRK: the upper triangle of the 4 x 4 top of C scaled, the rest untouched */
    for (int i = 0; i < 20; i++)
        c[i] = c0[i];
    free(tc);
    tc = typed(prec, c, 20);
    fint n4 = 4;
    if (prec == 'd') {
        double al = 0, be = 0.5;
        dsyrk_("U", "N", &n4, &k, &al, ta_, &ld, &be, tc, &ld, 1, 1);
    } else {
        float al = 0, be = 0.5f;
        ssyrk_("U", "N", &n4, &k, &al, ta_, &ld, &be, tc, &ld, 1, 1);
    }
    bad = 0;
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 5; i++)
            bad += at(prec, tc, i + 5 * j) != (i <= j ? 0.5 : 1.0) * c0[i + 5 * j];
    CHECK(bad == 0, "%csyrk alpha=0: %d elements wrong", prec, bad);
    /* GEMV: y = beta y (beta 0: zeros, y unread) with a negative stride, A and x unread */
    double y[9];
    for (int i = 0; i < 9; i++)
        y[i] = i % 2 ? 7.0 : NAN;
    void *ty = typed(prec, y, 9);
    fint incy = -2, one = 1;
    if (prec == 'd') {
        double al = 0, be = 0;
        dgemv_("T", &m, &k, &al, ta_, &ld, ta_, &one, &be, ty, &incy, 1);
    } else {
        float al = 0, be = 0;
        sgemv_("T", &m, &k, &al, ta_, &ld, ta_, &one, &be, ty, &incy, 1);
    }
    bad = 0;
    for (int i = 0; i < 9; i++) /* y is n = 3 long: 0, 2, 4; 6 and 8 are past its end */
        bad += !(i % 2    ? at(prec, ty, i) == 7.0
                 : i <= 4 ? at(prec, ty, i) == 0.0
                          : isnan(at(prec, ty, i)));
    CHECK(bad == 0, "%cgemv alpha=0 beta=0 incy=-2: %d elements wrong", prec, bad);
    free(tc), free(ta_), free(tb_), free(ty);
}

/* ---- SYMM ---------------------------------------------------------------------------------- */
static void check_symm(char prec, char side, char uplo, fint m, fint n, double alpha, double beta)
{
    fint ka = side == 'L' ? m : n, lda = ka + 1, ldb = m + 2, ldc = m + 1;
    size_t na = (size_t)lda * ka, nb = (size_t)ldb * n, nc = (size_t)ldc * n;
    double *a = rmat(na), *b = rmat(nb), *c = rmat(nc);
    round_to(prec, a, na), round_to(prec, b, nb), round_to(prec, c, nc);
    /* the triangle not named by uplo is never read: NaN there must not matter */
    for (fint j = 0; j < ka; j++)
        for (fint i = 0; i < ka; i++)
            if (uplo == 'U' ? i > j : i < j) a[i + (size_t)j * lda] = NAN;
    void *ta_ = typed(prec, a, na), *tb_ = typed(prec, b, nb), *tc = typed(prec, c, nc);
    if (prec == 'd') {
        dsymm_(&side, &uplo, &m, &n, &alpha, ta_, &lda, tb_, &ldb, &beta, tc, &ldc, 1, 1);
    } else {
        float al = (float)alpha, be = (float)beta;
        ssymm_(&side, &uplo, &m, &n, &al, ta_, &lda, tb_, &ldb, &be, tc, &ldc, 1, 1);
    }
    int bad = 0;
    for (fint j = 0; j < n; j++)
        for (fint i = 0; i < m; i++) {
            double s = 0, scale = 0;
            for (fint l = 0; l < ka; l++) {
                fint r = side == 'L' ? i : l, q = side == 'L' ? l : j; /* A(r, q), symmetric */
                if (uplo == 'U' ? r > q : r < q) {
                    fint t = r;
                    r = q, q = t;
                }
                double x = a[r + (size_t)q * lda];
                double y = side == 'L' ? b[l + (size_t)j * ldb] : b[i + (size_t)l * ldb];
                s += x * y, scale += fabs(x * y);
            }
            size_t ic = i + (size_t)j * ldc;
            double want = alpha * s + beta * c[ic];
            bad += !close_to(prec, at(prec, tc, ic), want, fabs(alpha) * scale + fabs(beta * c[ic]),
                             ka);
        }
    CHECK(bad == 0, "%csymm %c%c m=%d n=%d: %d wrong elements", prec, side, uplo, m, n, bad);
    free(a), free(b), free(c), free(ta_), free(tb_), free(tc);
}

/* ---- SYRK and SYR2K: only the uplo triangle of C changes ----------------------------------- */
static void check_syrk(char prec, int two, char uplo, char trans, fint n, fint k, double alpha,
                       double beta)
{
    int nt = trans == 'N';
    fint lda = (nt ? n : k) + 2, ldc = n + 3;
    size_t na = (size_t)lda * (nt ? k : n), nc = (size_t)ldc * n;
    double *a = rmat(na), *b = rmat(na), *c = rmat(nc);
    round_to(prec, a, na), round_to(prec, b, na), round_to(prec, c, nc);
    if (beta == 0.0)
        for (fint j = 0; j < n; j++)
            for (fint i = 0; i < n; i++)
                if (uplo == 'U' ? i <= j : i >= j) c[i + (size_t)j * ldc] = NAN;
    void *ta_ = typed(prec, a, na), *tb_ = typed(prec, b, na), *tc = typed(prec, c, nc);
    float al = (float)alpha, be = (float)beta;
    if (prec == 'd' && two)
        dsyr2k_(&uplo, &trans, &n, &k, &alpha, ta_, &lda, tb_, &lda, &beta, tc, &ldc, 1, 1);
    else if (prec == 'd')
        dsyrk_(&uplo, &trans, &n, &k, &alpha, ta_, &lda, &beta, tc, &ldc, 1, 1);
    else if (two)
        ssyr2k_(&uplo, &trans, &n, &k, &al, ta_, &lda, tb_, &lda, &be, tc, &ldc, 1, 1);
    else
        ssyrk_(&uplo, &trans, &n, &k, &al, ta_, &lda, &be, tc, &ldc, 1, 1);
    int bad = 0;
    for (fint j = 0; j < n; j++)
        for (fint i = 0; i < ldc; i++) {
            size_t ic = i + (size_t)j * ldc;
            double got = at(prec, tc, ic);
            if (i >= n || (uplo == 'U' ? i > j : i < j)) { /* untouched, bit for bit */
                bad += got != c[ic];
                continue;
            }
            double s = 0, scale = 0;
            for (fint l = 0; l < k; l++) {
                double ai = nt ? a[i + (size_t)l * lda] : a[l + (size_t)i * lda];
                double aj = nt ? a[j + (size_t)l * lda] : a[l + (size_t)j * lda];
                double bi = nt ? b[i + (size_t)l * lda] : b[l + (size_t)i * lda];
                double bj = nt ? b[j + (size_t)l * lda] : b[l + (size_t)j * lda];
                double t = two ? ai * bj + bi * aj : ai * aj;
                s += t, scale += two ? fabs(ai * bj) + fabs(bi * aj) : fabs(t);
            }
            double cb = beta == 0.0 ? 0.0 : beta * c[ic];
            bad += !close_to(prec, got, alpha * s + cb, fabs(alpha) * scale + fabs(cb), 2 * k);
        }
    CHECK(bad == 0, "%csyr%sk %c%c n=%d k=%d beta=%g: %d wrong elements", prec, two ? "2" : "",
          uplo, trans, n, k, beta, bad);
    free(a), free(b), free(c), free(ta_), free(tb_), free(tc);
}

/* ---- TRMM and TRSM ------------------------------------------------------------------------- */
/* op(A)(r, q) of the triangular A as the routine sees it (unit diagonal, zero outside uplo). */
static double tri(const double *a, fint lda, char uplo, char trans, char diag, fint r, fint q)
{
    if (trans != 'N') {
        fint t = r;
        r = q, q = t;
    }
    if (r == q) return diag == 'U' ? 1.0 : a[r + (size_t)q * lda];
    if (uplo == 'U' ? r > q : r < q) return 0.0;
    return a[r + (size_t)q * lda];
}

static void check_trxm(char prec, int solve, char side, char uplo, char trans, char diag, fint m,
                       fint n, double alpha)
{
    fint ka = side == 'L' ? m : n, lda = ka + 2, ldb = m + 1;
    size_t na = (size_t)lda * ka, nb = (size_t)ldb * n;
    double *a = rmat(na), *b = rmat(nb);
    for (fint j = 0; j < ka; j++)
        for (fint i = 0; i < ka; i++) {
            double *x = &a[i + (size_t)j * lda];
            if (i == j)
                *x = diag == 'U' ? NAN : 2.0 + fabs(*x); /* unit: never read */
            else if (uplo == 'U' ? i > j : i < j)
                *x = NAN; /* outside uplo: never read */
            else
                *x *= 0.5 / ka; /* well conditioned */
        }
    round_to(prec, a, na), round_to(prec, b, nb);
    void *ta_ = typed(prec, a, na), *tb_ = typed(prec, b, nb);
    float al = (float)alpha;
    if (prec == 'd')
        (solve ? dtrsm_ : dtrmm_)(&side, &uplo, &trans, &diag, &m, &n, &alpha, ta_, &lda, tb_, &ldb,
                                  1, 1, 1, 1);
    else
        (solve ? strsm_ : strmm_)(&side, &uplo, &trans, &diag, &m, &n, &al, ta_, &lda, tb_, &ldb, 1,
                                  1, 1, 1);
    /* TRMM: want = alpha op(A) B; TRSM: op(A) got = alpha B (checked by multiplying back) */
    int bad = 0;
    for (fint j = 0; j < n; j++)
        for (fint i = 0; i < ldb; i++) {
            size_t ib = i + (size_t)j * ldb;
            if (i >= m) {
                bad += at(prec, tb_, ib) != b[ib];
                continue;
            }
            const void *x = solve ? tb_ : NULL;
            double s = 0, scale = 0;
            for (fint l = 0; l < ka; l++) {
                double t = side == 'L' ? tri(a, lda, uplo, trans, diag, i, l)
                                       : tri(a, lda, uplo, trans, diag, l, j);
                double v = side == 'L'
                               ? (x ? at(prec, x, l + (size_t)j * ldb) : b[l + (size_t)j * ldb])
                               : (x ? at(prec, x, i + (size_t)l * ldb) : b[i + (size_t)l * ldb]);
                s += t * v, scale += fabs(t * v);
            }
            if (solve)
                bad += !close_to(prec, s, alpha * b[ib], scale + fabs(alpha * b[ib]), 4 * ka);
            else
                bad += !close_to(prec, at(prec, tb_, ib), alpha * s, fabs(alpha) * scale, ka);
        }
    CHECK(bad == 0, "%ctr%sm %c%c%c%c m=%d n=%d: %d wrong elements", prec, solve ? "s" : "m", side,
          uplo, trans, diag, m, n, bad);
    free(a), free(b), free(ta_), free(tb_);
}

/* ---- GEMV and Level 1 ---------------------------------------------------------------------- */
static void check_gemv(char prec, char trans, fint m, fint n, fint incx, fint incy, double beta)
{
    fint lda = m + 3, lx = trans == 'N' ? n : m, ly = trans == 'N' ? m : n;
    size_t na = (size_t)lda * n, nx = (size_t)(lx * abs(incx)), ny = (size_t)(ly * abs(incy));
    double *a = rmat(na), *x = rmat(nx), *y = rmat(ny), alpha = 0.75;
    round_to(prec, a, na), round_to(prec, x, nx), round_to(prec, y, ny);
    if (beta == 0.0)
        for (size_t i = 0; i < ny; i++)
            y[i] = NAN;
    void *ta_ = typed(prec, a, na), *tx = typed(prec, x, nx), *ty = typed(prec, y, ny);
    float al = (float)alpha, be = (float)beta;
    if (prec == 'd')
        dgemv_(&trans, &m, &n, &alpha, ta_, &lda, tx, &incx, &beta, ty, &incy, 1);
    else
        sgemv_(&trans, &m, &n, &al, ta_, &lda, tx, &incx, &be, ty, &incy, 1);
    int bad = 0;
    for (fint i = 0; i < ly; i++) {
        double s = 0, scale = 0;
        for (fint l = 0; l < lx; l++) {
            double av = trans == 'N' ? a[i + (size_t)l * lda] : a[l + (size_t)i * lda];
            double xv = x[(size_t)(incx > 0 ? l * incx : (lx - 1 - l) * -incx)];
            s += av * xv, scale += fabs(av * xv);
        }
        size_t iy = (size_t)(incy > 0 ? i * incy : (ly - 1 - i) * -incy);
        double cb = beta == 0.0 ? 0.0 : beta * y[iy];
        bad += !close_to(prec, at(prec, ty, iy), alpha * s + cb, alpha * scale + fabs(cb), lx);
    }
    CHECK(bad == 0, "%cgemv %c m=%d n=%d incx=%d incy=%d beta=%g: %d wrong elements", prec, trans,
          m, n, incx, incy, beta, bad);
    free(a), free(x), free(y), free(ta_), free(tx), free(ty);
}

static void check_level1(char prec, fint n, fint inc)
{
    size_t len = (size_t)(n > 0 ? n : 1) * (size_t)abs(inc);
    double *x = rmat(len), *y = rmat(len), alpha = -1.25;
    round_to(prec, x, len), round_to(prec, y, len);
    void *tx = typed(prec, x, len), *ty = typed(prec, y, len);
    double dot, nrm;
    fint ainc =
        abs(inc); /* nrm2 with a negative stride is the CPU BLAS's business (3.10 changed it) */
    if (prec == 'd') {
        dot = ddot_(&n, tx, &inc, ty, &inc);
        nrm = dnrm2_(&n, tx, &ainc);
        daxpy_(&n, &alpha, tx, &inc, ty, &inc);
    } else {
        float al = (float)alpha;
        dot = sdot_(&n, tx, &inc, ty, &inc);
        nrm = snrm2_(&n, tx, &ainc);
        saxpy_(&n, &al, tx, &inc, ty, &inc);
    }
    double wdot = 0, sdot = 0, wn = 0;
    int bad = 0;
    for (fint i = 0; i < n; i++) {
        size_t k = (size_t)(inc > 0 ? i * inc : (n - 1 - i) * -inc);
        wdot += x[k] * y[k], sdot += fabs(x[k] * y[k]), wn += x[k] * x[k];
        bad += !close_to(prec, at(prec, ty, k), y[k] + alpha * x[k],
                         fabs(y[k]) + fabs(alpha * x[k]), 1);
    }
    CHECK(close_to(prec, dot, wdot, sdot, n), "%cdot n=%d inc=%d: %g, want %g", prec, n, inc, dot,
          wdot);
    CHECK(close_to(prec, nrm, sqrt(wn), sqrt(wn), n), "%cnrm2 n=%d inc=%d: %g, want %g", prec, n,
          inc, nrm, sqrt(wn));
    CHECK(bad == 0, "%caxpy n=%d inc=%d: %d wrong elements", prec, n, inc, bad);
    free(x), free(y), free(tx), free(ty);
}

/* ---- the error protocol: our xerbla_ gets the reference's name and position ---------------- */
static void expect_xerbla(const char *name, int info, const char *what)
{
    CHECK(g_xcalls == 1 && strcmp(g_xname, name) == 0 && g_xinfo == info,
          "%s: xerbla_ got %d call(s), last (\"%s\", %d); want (\"%s\", %d)", what, g_xcalls,
          g_xname, g_xinfo, name, info);
    g_xcalls = 0;
    g_xname[0] = '\0';
    g_xinfo = 0;
}

static void check_errors(void)
{
    double a[64], b[64], c[64], one = 1.0;
    float fa[64], fc[64], fone = 1.0f;
    for (int i = 0; i < 64; i++)
        a[i] = b[i] = c[i] = fa[i] = fc[i] = 3.0f;
    fint m = 4, n = 4, k = 4, small = 3, zero = 0, neg = -1;
    dgemm_("N", "N", &m, &n, &k, &one, a, &small, b, &m, &one, c, &m, 1, 1);
    expect_xerbla("DGEMM ", 8, "dgemm lda < m");
    dgemm_("X", "N", &m, &n, &k, &one, a, &small, b, &m, &one, c, &m, 1, 1);
    expect_xerbla("DGEMM ", 1, "dgemm transa 'X' (the first bad argument wins)");
    dgemm_("T", "n", &m, &n, &neg, &one, a, &m, b, &m, &one, c, &m, 1, 1);
    expect_xerbla("DGEMM ", 5, "dgemm k < 0");
    dtrsm_("L", "U", "N", "X", &m, &n, &one, a, &m, b, &m, 1, 1, 1, 1);
    expect_xerbla("DTRSM ", 4, "dtrsm diag 'X'");
    dtrmm_("R", "L", "C", "U", &m, &n, &one, a, &small, b, &m, 1, 1, 1, 1);
    expect_xerbla("DTRMM ", 9, "dtrmm side R lda < n");
    sgemv_("T", &m, &n, &fone, fa, &m, fa, &k, &fone, fc, &zero, 1);
    expect_xerbla("SGEMV ", 11, "sgemv incy 0");
    dsyr2k_("U", "T", &n, &k, &one, a, &m, b, &small, &one, c, &n, 1, 1);
    expect_xerbla("DSYR2K", 9, "dsyr2k ldb < k");
    ssyrk_("L", "N", &n, &k, &fone, fa, &n, &fone, fc, &small, 1, 1);
    expect_xerbla("SSYRK ", 10, "ssyrk ldc < n");
    dsymm_("L", "Q", &m, &n, &one, a, &m, b, &m, &one, c, &m, 1, 1);
    expect_xerbla("DSYMM ", 2, "dsymm uplo 'Q'");
    int untouched = 1;
    for (int i = 0; i < 64; i++)
        untouched &= c[i] == 3.0 && b[i] == 3.0 && fc[i] == 3.0f;
    CHECK(untouched, "a call with a bad argument wrote its output");
    /* a forwarded routine's error reaches our xerbla_ too (through the CPU BLAS) */
    double _Complex za[16] = {0}, zone = 1.0;
    zgemm_("N", "N", &m, &n, &k, &zone, za, &small, za, &m, &zone, za, &m, 1, 1);
    expect_xerbla("ZGEMM ", 8, "zgemm lda < m (forwarded)");
    /* quick returns call nothing and touch nothing */
    dgemm_("N", "N", &zero, &n, &k, &one, a, &m, b, &m, &one, c, &m, 1, 1);
    CHECK(g_xcalls == 0 && c[0] == 3.0, "dgemm m = 0 is a quick return");
}

/* ---- forwarded symbols: hidden lengths, complex results by value, *sub helpers ------------- */
static void check_forwarded(void)
{
    fint n = 9, one = 1, two = 2;
    double x[18], y[9], da = 2.5;
    for (int i = 0; i < 18; i++)
        x[i] = urand();
    for (int i = 0; i < 9; i++)
        y[i] = urand();
    double x0 = x[2], x1 = x[1];
    dscal_(&n, &da, x, &two);
    CHECK(x[2] == 2.5 * x0 && x[1] == x1, "dscal_ inc 2");
    double d1 = ddot_(&n, x, &two, y, &one), d2 = 0;
    ddotsub_(&n, x, &two, y, &one, &d2);
    CHECK(d1 == d2, "ddotsub_ %g != ddot_ %g", d2, d1);
    x[4] = 100.0;
    CHECK(idamax_(&n, x, &two) == 3, "idamax_ gives %d", idamax_(&n, x, &two));
    double _Complex zx[9], zy[9], want = 0;
    float _Complex cx[9], cy[9], cwant = 0;
    for (int i = 0; i < 9; i++) {
        zx[i] = urand() + urand() * I, zy[i] = urand() + urand() * I;
        cx[i] = (float _Complex)zx[i], cy[i] = (float _Complex)zy[i];
        want += conj(zx[i]) * zy[i];
        cwant += cx[i] * cy[i];
    }
    double _Complex got = zdotc_(&n, zx, &one, zy, &one);
    CHECK(cabs(got - want) < 1e-13, "zdotc_ (%g,%g) want (%g,%g)", creal(got), cimag(got),
          creal(want), cimag(want));
    float _Complex cgot = cdotu_(&n, cx, &one, cy, &one);
    CHECK(cabsf(cgot - cwant) < 1e-5f, "cdotu_ (%g,%g) want (%g,%g)", crealf(cgot), cimagf(cgot),
          crealf(cwant), cimagf(cwant));
    /* zgemm C = A^H B, 3x2x4: the 'C' argument and its hidden length reach the CPU BLAS */
    fint m3 = 3, n2 = 2, k4 = 4;
    double _Complex za[12], zb[8], zc[6], zal = 1.0, zbe = 0.0;
    for (int i = 0; i < 12; i++)
        za[i] = urand() + urand() * I;
    for (int i = 0; i < 8; i++)
        zb[i] = urand() + urand() * I;
    zgemm_("C", "N", &m3, &n2, &k4, &zal, za, &k4, zb, &k4, &zbe, zc, &m3, 1, 1);
    double err = 0;
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 3; i++) {
            double _Complex s = 0;
            for (int l = 0; l < 4; l++)
                s += conj(za[l + 4 * i]) * zb[l + 4 * j];
            err = fmax(err, cabs(zc[i + 3 * j] - s));
        }
    CHECK(err < 1e-13, "zgemm_ C N: error %g", err);
}

/* ---- TESSEL_BLAS_CPU is this library: each CPU call returns at once, computing nothing ----- */
static int recursion(void)
{
    fint n = 4, two = 2, m = 4;
    double x[8], y[8], one = 1.0, da = 3.0, a[16], c[16];
    for (int i = 0; i < 8; i++)
        x[i] = y[i] = 1.0;
    for (int i = 0; i < 16; i++)
        a[i] = c[i] = 1.0;
    daxpy_(&n, &da, x, &two, y, &two);                                  /* stride 2: CPU */
    dscal_(&n, &da, x, &two);                                           /* forwarded */
    dgemm_("N", "N", &m, &m, &m, &one, a, &m, a, &m, &da, c, &m, 1, 1); /* CPU when routed so */
    CHECK(ddot_(&n, x, &two, y, &two) == 0.0, "ddot_ with no CPU BLAS returns 0");
    int same = 1;
    for (int i = 0; i < 8; i++)
        same &= x[i] == 1.0 && y[i] == 1.0;
    for (int i = 0; i < 16; i++)
        same &= c[i] == 1.0;
    CHECK(same, "a call computed something with no CPU BLAS");
    return check_summary("fortran_link recursion");
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "recursion") == 0) return recursion();
    static const char *trans = "NTC";
    static const fint sizes[][3] = {{7, 5, 3}, {33, 31, 17}, {1, 9, 1}, {16, 1, 40}};
    for (int p = 0; p < 2; p++) {
        char prec = "sd"[p];
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (int x = 0; x < 3; x++)
                for (int y = 0; y < 3; y++)
                    check_gemm(prec, trans[x], trans[y], sizes[s][0], sizes[s][1], sizes[s][2], 0.7,
                               s % 2 ? 0.0 : -1.3);
        check_gemm_alpha0(prec);
        for (int side = 0; side < 2; side++)
            for (int up = 0; up < 2; up++) {
                check_symm(prec, "LR"[side], "UL"[up], 13, 7, 1.1, up ? 0.0 : 0.6);
                for (int t = 0; t < 3; t++) {
                    check_trxm(prec, 0, "LR"[side], "UL"[up], trans[t], "NU"[t % 2], 11, 6, 0.9);
                    check_trxm(prec, 1, "LR"[side], "UL"[up], trans[t], "UN"[t % 2], 9, 14, -1.5);
                }
            }
        for (int up = 0; up < 2; up++)
            for (int t = 0; t < 3; t++) {
                check_syrk(prec, 0, "UL"[up], trans[t], 15, 6, 0.8, t == 1 ? 0.0 : 1.2);
                check_syrk(prec, 1, "UL"[up], trans[t], 10, 13, -0.6, t == 2 ? 0.0 : 0.5);
            }
        for (int t = 0; t < 3; t++) {
            check_gemv(prec, trans[t], 13, 21, 1, 1, t == 0 ? 0.0 : 0.4);
            check_gemv(prec, trans[t], 8, 5, 2, -1, 0.0);
        }
        check_level1(prec, 1000, 1);
        check_level1(prec, 37, -2);
        check_level1(prec, 0, 1);
    }
    check_errors();
    check_forwarded();
    return check_summary("fortran_link");
}
