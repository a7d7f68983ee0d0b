/* complex_gemm.c: the drop-in's complex GEMM symbols, called as a C program linked with
 * -ltessel_blas calls them: the Fortran cgemm_, zgemm_ and OpenBLAS's cgemm3m_, zgemm3m_ (every
 * argument by address, alpha and beta pointers to complex, hidden string lengths last) and CBLAS's
 * cblas_cgemm, cblas_zgemm, cblas_cgemm3m, cblas_zgemm3m (const void *alpha, both layouts).
 * Each is checked against plain loops in long double on seeded random data: odd sizes, padded
 * leading dimensions, every transpose pair of N, T and C (the conjugate transpose), complex and
 * real alpha and beta; beta == 0 with NaN in C (C never read), alpha == 0 with NaN in A and B
 * (neither read), and the padding between columns never written. tests/dropin_fortran.cmake runs
 * it with TESSEL_BLAS_ROUTE=device (every call on the PoCL device, the report's device counts
 * checked by run_tester.py), with the device memory capped so that each call runs in blocks of C
 * and of k, and with TESSEL_BLAS_ROUTE=cpu (every call on the CPU BLAS). Exit status 0 when every
 * check passes. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef int fint;
typedef float _Complex cf;
typedef double _Complex cd;

#define FGEMM(T, name)                                                                             \
    void name(const char *, const char *, const fint *, const fint *, const fint *, const T *,     \
              const T *, const fint *, const T *, const fint *, const T *, T *, const fint *,      \
              size_t, size_t)
FGEMM(cf, cgemm_);
FGEMM(cf, cgemm3m_);
FGEMM(cd, zgemm_);
FGEMM(cd, zgemm3m_);
#define CGEMM(name)                                                                                \
    void name(int, int, int, int, int, int, const void *, const void *, int, const void *, int,    \
              const void *, void *, int)
CGEMM(cblas_cgemm);
CGEMM(cblas_cgemm3m);
CGEMM(cblas_zgemm);
CGEMM(cblas_zgemm3m);

enum { ROW = 101, COL = 102, NOTRANS = 111, TRANS = 112, CONJTRANS = 113 };

static unsigned long long g_seed = 0x9E3779B97F4A7C15ull;
static double uniform(void)
{
    g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_seed >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* One problem: dbl picks cd over cf; the matrices as the caller stores them. */
typedef struct {
    int dbl, row_major;
    char ta, tb; /* 'N', 'T', 'C' */
    int m, n, k, lda, ldb, ldc;
    double ar, ai, br, bi; /* alpha, beta */
    int nan_c, nan_ab;     /* beta 0 with NaN in C; alpha 0 with NaN in A and B */
} problem;

/* Element (i, j) of a stored matrix (column-major, or row-major) as long double parts. */
static void get(const problem *p, const void *x, int ld, int i, int j, long double *re,
                long double *im)
{
    size_t at = p->row_major ? (size_t)i * ld + j : (size_t)i + (size_t)j * ld;
    if (p->dbl) {
        *re = creal(((const cd *)x)[at]);
        *im = cimag(((const cd *)x)[at]);
    } else {
        *re = crealf(((const cf *)x)[at]);
        *im = cimagf(((const cf *)x)[at]);
    }
}

/* op(X)(i, l) of a stored X. */
static void op(const problem *p, char t, const void *x, int ld, int i, int l, long double *re,
               long double *im)
{
    if (t == 'N') {
        get(p, x, ld, i, l, re, im);
        return;
    }
    get(p, x, ld, l, i, re, im);
    if (t == 'C') *im = -*im;
}

static int rows_of(char t, int r, int c)
{
    return t == 'N' ? r : c; /* stored rows of a matrix whose op is r x c */
}

/* A stored matrix of r x c (column-major) or its row-major form, of ld, filled at random (or NaN),
 * the padding set to a sentinel. Returns the element count. */
static size_t fill(const problem *p, void *x, int r, int c, int ld, int nan)
{
    int outer = p->row_major ? r : c, inner = p->row_major ? c : r;
    size_t count = (size_t)outer * ld;
    for (size_t e = 0; e < count; e++) {
        int in = (int)(e % (size_t)ld);
        double re = in < inner ? (nan ? NAN : uniform()) : 777.0, im = in < inner ? uniform() : 0.0;
        if (p->dbl)
            ((cd *)x)[e] = re + im * I;
        else
            ((cf *)x)[e] = (float)re + (float)im * I;
    }
    return count;
}

static int trans_enum(char t)
{
    return t == 'N' ? NOTRANS : t == 'T' ? TRANS : CONJTRANS;
}

/* Runs the problem through symbol `which` (0 Fortran, 1 Fortran 3m, 2 CBLAS, 3 CBLAS 3m). */
static void run(const problem *p, int which, const char *label)
{
    int ar_ = rows_of(p->ta, p->m, p->k), ac_ = p->ta == 'N' ? p->k : p->m;
    int br_ = rows_of(p->tb, p->k, p->n), bc_ = p->tb == 'N' ? p->n : p->k;
    size_t es = p->dbl ? sizeof(cd) : sizeof(cf);
    size_t na = (size_t)(p->row_major ? ar_ : ac_) * p->lda;
    size_t nb = (size_t)(p->row_major ? br_ : bc_) * p->ldb;
    size_t nc = (size_t)(p->row_major ? p->m : p->n) * p->ldc;
    void *a = malloc(na * es), *b = malloc(nb * es), *c = malloc(nc * es), *c0 = malloc(nc * es);
    fill(p, a, ar_, ac_, p->lda, p->nan_ab);
    fill(p, b, br_, bc_, p->ldb, p->nan_ab);
    fill(p, c, p->m, p->n, p->ldc, p->nan_c);
    memcpy(c0, c, nc * es);
    cd alpha = p->ar + p->ai * I, beta = p->br + p->bi * I;
    cf alphaf = (float)p->ar + (float)p->ai * I, betaf = (float)p->br + (float)p->bi * I;
    const void *al = p->dbl ? (const void *)&alpha : (const void *)&alphaf;
    const void *be = p->dbl ? (const void *)&beta : (const void *)&betaf;
    char ta[2] = {p->ta, 0}, tb[2] = {p->tb, 0};
    if (which < 2) {
        if (p->dbl)
            (which ? zgemm3m_ : zgemm_)(ta, tb, &p->m, &p->n, &p->k, al, a, &p->lda, b, &p->ldb, be,
                                        c, &p->ldc, 1, 1);
        else
            (which ? cgemm3m_ : cgemm_)(ta, tb, &p->m, &p->n, &p->k, al, a, &p->lda, b, &p->ldb, be,
                                        c, &p->ldc, 1, 1);
    } else {
        int layout = p->row_major ? ROW : COL;
        if (p->dbl)
            (which == 3 ? cblas_zgemm3m : cblas_zgemm)(layout, trans_enum(p->ta), trans_enum(p->tb),
                                                       p->m, p->n, p->k, al, a, p->lda, b, p->ldb,
                                                       be, c, p->ldc);
        else
            (which == 3 ? cblas_cgemm3m : cblas_cgemm)(layout, trans_enum(p->ta), trans_enum(p->tb),
                                                       p->m, p->n, p->k, al, a, p->lda, b, p->ldb,
                                                       be, c, p->ldc);
    }
    /* |error| within the rounding of a real dot product of 2k + 2 terms, in units of the sum of
     * the magnitudes of the terms (3M's extra additions included) */
    double eps = p->dbl ? 0x1p-52 : 0x1p-23, worst = 0;
    int bad_pad = 0, nan_seen = 0;
    for (int i = 0; i < p->m; i++)
        for (int j = 0; j < p->n; j++) {
            long double sr = 0, si = 0, mag = 0;
            for (int l = 0; l < p->k && !p->nan_ab; l++) {
                long double xr, xi, yr, yi;
                op(p, p->ta, a, p->lda, i, l, &xr, &xi);
                op(p, p->tb, b, p->ldb, l, j, &yr, &yi);
                sr += xr * yr - xi * yi;
                si += xr * yi + xi * yr;
                mag += fabsl(xr * yr) + fabsl(xi * yi) + fabsl(xr * yi) + fabsl(xi * yr);
            }
            long double rr = p->ar * sr - p->ai * si, ri = p->ar * si + p->ai * sr;
            mag *= fabsl((long double)p->ar) + fabsl((long double)p->ai);
            if (!p->nan_c) {
                long double cr, ci;
                get(p, c0, p->ldc, i, j, &cr, &ci);
                rr += p->br * cr - p->bi * ci;
                ri += p->br * ci + p->bi * cr;
                mag += (fabsl(cr) + fabsl(ci)) * (fabs(p->br) + fabs(p->bi));
            }
            long double gr, gi;
            get(p, c, p->ldc, i, j, &gr, &gi);
            if (isnan((double)gr) || isnan((double)gi)) nan_seen = 1;
            double err = (double)(fabsl(gr - rr) + fabsl(gi - ri)) / ((double)mag + 1e-300);
            if (err > worst) worst = err;
        }
    int inner = p->row_major ? p->n : p->m, outer = p->row_major ? p->m : p->n;
    for (int o = 0; o < outer; o++)
        for (int in = inner; in < p->ldc; in++) {
            size_t at = (size_t)o * p->ldc + in;
            if (p->dbl ? creal(((cd *)c)[at]) != 777.0 : crealf(((cf *)c)[at]) != 777.0f)
                bad_pad = 1;
        }
    double bound = (2.0 * p->k + 8) * eps * 4;
    CHECK(!nan_seen && worst <= bound, "%s %c%c %s m %d n %d k %d: error %.3g (bound %.3g)%s",
          label, p->ta, p->tb, p->row_major ? "row" : "col", p->m, p->n, p->k, worst, bound,
          nan_seen ? ", NaN in C" : "");
    CHECK(!bad_pad, "%s %c%c: padding of C written", label, p->ta, p->tb);
    free(a);
    free(b);
    free(c);
    free(c0);
}

int main(void)
{
    static const char *names[2][4] = {{"cgemm_", "cgemm3m_", "cblas_cgemm", "cblas_cgemm3m"},
                                      {"zgemm_", "zgemm3m_", "cblas_zgemm", "cblas_zgemm3m"}};
    static const char ts[3] = {'N', 'T', 'C'};
    for (int dbl = 0; dbl < 2; dbl++) {
        /* every transpose pair through the Fortran symbol, complex alpha and beta */
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 3; y++) {
                problem p = {dbl, 0, ts[x], ts[y], 13, 7, 19, 0, 0, 16, 0.7, -0.4, 0.3, 0.9, 0, 0};
                p.lda = (ts[x] == 'N' ? p.m : p.k) + 3;
                p.ldb = (ts[y] == 'N' ? p.k : p.n) + 2;
                run(&p, 0, names[dbl][0]);
            }
        /* real alpha and beta; beta 0 with NaN in C; alpha 0 with NaN in A and B */
        problem r = {dbl, 0, 'C', 'N', 9, 11, 33, 33 + 1, 33, 9, 1.5, 0, -1, 0, 0, 0};
        run(&r, 0, names[dbl][0]);
        problem z = {dbl, 0, 'N', 'C', 9, 11, 5, 10, 11, 10, 0.5, 0.5, 0, 0, 1, 0};
        run(&z, 0, names[dbl][0]);
        problem o = {dbl, 0, 'N', 'N', 9, 11, 5, 9, 5, 9, 0, 0, 0.25, -2, 0, 1};
        run(&o, 0, names[dbl][0]);
        /* the 3M symbols: the same 4M product */
        problem t = {dbl, 0, 'T', 'C', 17, 6, 23, 24, 7, 18, -0.3, 1.1, 0.6, -0.2, 0, 0};
        run(&t, 1, names[dbl][1]);
        /* CBLAS, both layouts (row-major leading dimensions count columns) */
        for (int rm = 0; rm < 2; rm++)
            for (int x = 0; x < 3; x += 2) {
                problem q = {dbl, rm, ts[x], 'C', 12, 10, 21, 0, 0, 0, 0.8, 0.1, -0.5, 0.5, 0, 0};
                int ar = ts[x] == 'N' ? q.m : q.k, ac = ts[x] == 'N' ? q.k : q.m;
                q.lda = (rm ? ac : ar) + 1;
                q.ldb = (rm ? q.k : q.n) + 2;
                q.ldc = (rm ? q.n : q.m) + 3;
                run(&q, 2, names[dbl][2]);
            }
        problem q3 = {dbl, 1, 'N', 'T', 8, 15, 14, 14, 15, 15, 1, 0, 0, 0, 1, 0};
        run(&q3, 3, names[dbl][3]);
    }
    return check_summary("complex_gemm");
}
