/* complex_level3.c: the drop-in's complex Level-3 symbols other than GEMM, one call each, against
 * the CPU BLAS's own symbol of the same name on the same data: the Fortran csymm_, zsymm_,
 * chemm_, zhemm_, csyrk_, zsyrk_, cherk_, zherk_, csyr2k_, zsyr2k_, cher2k_, zher2k_, ctrmm_,
 * ztrmm_, ctrsm_, ztrsm_ (column-major; every argument by address, hidden string lengths last;
 * herk's alpha and beta and her2k's beta real) and their cblas_ twins (row-major; herk's alpha
 * and beta, her2k's beta real values). The program is linked with -ltessel_blas, so its calls reach
 * the drop-in; the CPU BLAS (TESSEL_BLAS_CPU, else OpenBLAS) is opened with dlopen and called
 * through dlsym on its handle, as the drop-in's own forwarders call it. Every array is filled
 * with seeded random numbers, its padding and unreferenced parts included; wherever the CPU BLAS
 * leaves an element as it was, or sets a part to exactly 0 (herk's and her2k's diagonal), ours
 * must be bit-identical; everywhere else within a few units of rounding of the largest element.
 * tests/dropin_fortran.cmake runs it with TESSEL_BLAS_ROUTE=device, and run_tester.py checks
 * that each of the 32 symbols ran on the device. Exit status 0 when every check passes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef int fint;

/* The Fortran signatures (gfortran: by address, string lengths last). */
typedef void f_symm(const char *, const char *, const fint *, const fint *, const void *,
                    const void *, const fint *, const void *, const fint *, const void *, void *,
                    const fint *, size_t, size_t);
typedef void f_syrk(const char *, const char *, const fint *, const fint *, const void *,
                    const void *, const fint *, const void *, void *, const fint *, size_t, size_t);
typedef void f_syr2k(const char *, const char *, const fint *, const fint *, const void *,
                     const void *, const fint *, const void *, const fint *, const void *, void *,
                     const fint *, size_t, size_t);
typedef void f_trmm(const char *, const char *, const char *, const char *, const fint *,
                    const fint *, const void *, const void *, const fint *, void *, const fint *,
                    size_t, size_t, size_t, size_t);
f_symm csymm_, zsymm_, chemm_, zhemm_;
f_syrk csyrk_, zsyrk_, cherk_, zherk_;
f_syr2k csyr2k_, zsyr2k_, cher2k_, zher2k_;
f_trmm ctrmm_, ztrmm_, ctrsm_, ztrsm_;

/* The CBLAS signatures (enumerations as int). */
typedef void c_symm(int, int, int, int, int, const void *, const void *, int, const void *, int,
                    const void *, void *, int);
typedef void c_syrk(int, int, int, int, int, const void *, const void *, int, const void *, void *,
                    int);
typedef void c_herk_s(int, int, int, int, int, float, const void *, int, float, void *, int);
typedef void c_herk_d(int, int, int, int, int, double, const void *, int, double, void *, int);
typedef void c_syr2k(int, int, int, int, int, const void *, const void *, int, const void *, int,
                     const void *, void *, int);
typedef void c_her2k_s(int, int, int, int, int, const void *, const void *, int, const void *, int,
                       float, void *, int);
typedef void c_her2k_d(int, int, int, int, int, const void *, const void *, int, const void *, int,
                       double, void *, int);
typedef void c_trmm(int, int, int, int, int, int, int, const void *, const void *, int, void *,
                    int);
c_symm cblas_csymm, cblas_zsymm, cblas_chemm, cblas_zhemm;
c_syrk cblas_csyrk, cblas_zsyrk;
c_herk_s cblas_cherk;
c_herk_d cblas_zherk;
c_syr2k cblas_csyr2k, cblas_zsyr2k;
c_her2k_s cblas_cher2k;
c_her2k_d cblas_zher2k;
c_trmm cblas_ctrmm, cblas_ztrmm, cblas_ctrsm, cblas_ztrsm;

enum { ROW = 101, NOTRANS = 111, TRANS = 112, CONJTRANS = 113, UPPER = 121, LOWER = 122 };
enum { NONUNIT = 131, UNIT = 132, LEFT = 141, RIGHT = 142 };

/* Every matrix is at most DIM x DIM with leading dimension LD (padding on every line), stored in
 * LD * DIM complex elements: valid for either layout and any shape used below. */
enum { DIM = 13, LD = DIM + 3, ELEMS = LD * DIM };

typedef void (*any_fn)(void); /* a function pointer, cast to the symbol's type to call it */

static void *g_cpu; /* the CPU BLAS's handle */

static any_fn cpu_sym(const char *name)
{
    void *p = dlsym(g_cpu, name);
    if (!p) {
        fprintf(stderr, "complex_level3: the CPU BLAS has no %s\n", name);
        exit(1);
    }
    any_fn f;
    memcpy(&f, &p, sizeof f);
    return f;
}

static unsigned long long g_seed = 0x2545F4914F6CDD1Dull;
static double uniform(void)
{
    g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_seed >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* Component i (2 per complex element) of an array of floats (dbl 0) or doubles. */
static double part(int dbl, const void *x, size_t i)
{
    return dbl ? ((const double *)x)[i] : (double)((const float *)x)[i];
}

/* A fresh array of ELEMS complex elements, random in [-1, 1]; tri: a triangular factor for
 * trmm/trsm, its elements a tenth of that and its diagonal near 2 (well conditioned). */
static void *fresh(int dbl, int tri)
{
    size_t es = dbl ? sizeof(double) : sizeof(float);
    void *x = malloc(2 * ELEMS * es);
    for (size_t i = 0; i < 2 * (size_t)ELEMS; i++) {
        size_t e = i / 2;
        double v = uniform();
        if (tri) v = e % (LD + 1) == 0 ? (i % 2 ? 0.25 : 2.0 + 0.5 * v) : 0.1 * v;
        if (dbl)
            ((double *)x)[i] = v;
        else
            ((float *)x)[i] = (float)v;
    }
    return x;
}

/* Ours (out) against the CPU BLAS's (ref), both from in. */
static void compare(const char *label, int dbl, const void *in, const void *ref, const void *out)
{
    size_t es = dbl ? sizeof(double) : sizeof(float), n = 2 * (size_t)ELEMS;
    double big = 0, worst = 0;
    int kept = 1;
    for (size_t i = 0; i < n; i++)
        big = fmax(big, fabs(part(dbl, ref, i)));
    for (size_t i = 0; i < n; i++) {
        const char *r = (const char *)ref + i * es, *o = (const char *)out + i * es;
        if (memcmp(r, (const char *)in + i * es, es) == 0) {
            if (memcmp(r, o, es) != 0) kept = 0;
            continue;
        }
        if (part(dbl, ref, i) == 0.0) {
            if (part(dbl, out, i) != 0.0) kept = 0;
            continue;
        }
        double d = fabs(part(dbl, out, i) - part(dbl, ref, i));
        worst = isnan(d) ? INFINITY : fmax(worst, d);
    }
    double bound = (dbl ? 0x1p-52 : 0x1p-23) * 64 * DIM * big;
    CHECK(worst <= bound, "%s: error %.3g (bound %.3g)", label, worst, bound);
    CHECK(kept, "%s: an element the CPU BLAS leaves (or zeroes) differs", label);
}

/* The drop-in's symbols: [double][CBLAS][routine], routines in the order of ROUTINES. */
static const char *ROUTINES[8] = {"symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm"};
#define F(f) ((any_fn)(f))
static const any_fn OURS[2][2][8] = {
    {{F(csymm_), F(chemm_), F(csyrk_), F(cherk_), F(csyr2k_), F(cher2k_), F(ctrmm_), F(ctrsm_)},
     {F(cblas_csymm), F(cblas_chemm), F(cblas_csyrk), F(cblas_cherk), F(cblas_csyr2k),
      F(cblas_cher2k), F(cblas_ctrmm), F(cblas_ctrsm)}},
    {{F(zsymm_), F(zhemm_), F(zsyrk_), F(zherk_), F(zsyr2k_), F(zher2k_), F(ztrmm_), F(ztrsm_)},
     {F(cblas_zsymm), F(cblas_zhemm), F(cblas_zsyrk), F(cblas_zherk), F(cblas_zsyr2k),
      F(cblas_zher2k), F(cblas_ztrmm), F(cblas_ztrsm)}}};

int main(void)
{
    const char *cpu = getenv("TESSEL_BLAS_CPU");
    g_cpu = dlopen(cpu && *cpu ? cpu : "libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!g_cpu) {
        fprintf(stderr, "complex_level3: no CPU BLAS: %s\n", dlerror());
        return 1;
    }
    const fint m = 11, n = 9, k = 13, ld = LD;
    const double alpha_z[2] = {0.7, -0.4}, beta_z[2] = {0.3, 0.9};
    const float alpha_c[2] = {0.7f, -0.4f}, beta_c[2] = {0.3f, 0.9f};
    const double ralpha_z = 0.6, rbeta_z = -1.25;
    const float ralpha_c = 0.6f, rbeta_c = -1.25f;
    size_t bytes[2] = {2 * ELEMS * sizeof(float), 2 * ELEMS * sizeof(double)};
    for (int dbl = 0; dbl < 2; dbl++) {
        const char p = dbl ? 'z' : 'c';
        const void *al = dbl ? (const void *)alpha_z : (const void *)alpha_c;
        const void *be = dbl ? (const void *)beta_z : (const void *)beta_c;
        const void *ral = dbl ? (const void *)&ralpha_z : (const void *)&ralpha_c;
        const void *rbe = dbl ? (const void *)&rbeta_z : (const void *)&rbeta_c;
        char name[32];
        for (int cb = 0; cb < 2; cb++) /* Fortran, then CBLAS */
            for (int r = 0; r < 8; r++) {
                snprintf(name, sizeof name, "%s%c%s%s", cb ? "cblas_" : "", p, ROUTINES[r],
                         cb ? "" : "_");
                /* a and b inputs, c the output (in place), ref the CPU BLAS's copy of c */
                void *a = fresh(dbl, r >= 6), *b = fresh(dbl, 0), *in = fresh(dbl, 0);
                void *c = malloc(bytes[dbl]), *ref = malloc(bytes[dbl]);
                memcpy(c, in, bytes[dbl]);
                memcpy(ref, in, bytes[dbl]);
                for (int who = 0; who < 2; who++) { /* the CPU BLAS into ref, then ours into c */
                    any_fn f = who ? OURS[dbl][cb][r] : cpu_sym(name);
                    void *out = who ? c : ref;
                    if (!cb) {
                        switch (r) {
                        case 0: /* C = alpha A B + beta C, A m x m, upper */
                        case 1:
                            ((f_symm *)f)("L", "U", &m, &n, al, a, &ld, b, &ld, be, out, &ld, 1, 1);
                            break;
                        case 2: /* C n x n lower = alpha A^T A + beta C, A k x n */
                            ((f_syrk *)f)("L", "T", &n, &k, al, a, &ld, be, out, &ld, 1, 1);
                            break;
                        case 3: /* C n x n upper = alpha A^H A + beta C (real alpha, beta) */
                            ((f_syrk *)f)("U", "C", &n, &k, ral, a, &ld, rbe, out, &ld, 1, 1);
                            break;
                        case 4: /* C n x n upper = alpha (A B^T + B A^T) + beta C, A n x k */
                            ((f_syr2k *)f)("U", "N", &n, &k, al, a, &ld, b, &ld, be, out, &ld, 1,
                                           1);
                            break;
                        case 5: /* lower, A^H B + B^H A forms, real beta */
                            ((f_syr2k *)f)("L", "C", &n, &k, al, a, &ld, b, &ld, rbe, out, &ld, 1,
                                           1);
                            break;
                        case 6: /* B m x n = alpha B A^H, A n x n lower, non-unit */
                            ((f_trmm *)f)("R", "L", "C", "N", &m, &n, al, a, &ld, out, &ld, 1, 1, 1,
                                          1);
                            break;
                        default: /* op(A) X = alpha B, A m x m upper transposed, unit */
                            ((f_trmm *)f)("L", "U", "T", "U", &m, &n, al, a, &ld, out, &ld, 1, 1, 1,
                                          1);
                        }
                    } else {
                        switch (r) {
                        case 0: /* row-major, S on the right (n x n), lower */
                        case 1:
                            ((c_symm *)f)(ROW, RIGHT, LOWER, m, n, al, a, ld, b, ld, be, out, ld);
                            break;
                        case 2:
                            ((c_syrk *)f)(ROW, UPPER, NOTRANS, n, k, al, a, ld, be, out, ld);
                            break;
                        case 3:
                            if (dbl)
                                ((c_herk_d *)f)(ROW, LOWER, CONJTRANS, n, k, ralpha_z, a, ld,
                                                rbeta_z, out, ld);
                            else
                                ((c_herk_s *)f)(ROW, LOWER, CONJTRANS, n, k, ralpha_c, a, ld,
                                                rbeta_c, out, ld);
                            break;
                        case 4:
                            ((c_syr2k *)f)(ROW, LOWER, TRANS, n, k, al, a, ld, b, ld, be, out, ld);
                            break;
                        case 5: /* row-major HER2K: alpha conjugated in the column-major view */
                            if (dbl)
                                ((c_her2k_d *)f)(ROW, UPPER, NOTRANS, n, k, al, a, ld, b, ld,
                                                 rbeta_z, out, ld);
                            else
                                ((c_her2k_s *)f)(ROW, UPPER, NOTRANS, n, k, al, a, ld, b, ld,
                                                 rbeta_c, out, ld);
                            break;
                        case 6:
                            ((c_trmm *)f)(ROW, LEFT, UPPER, CONJTRANS, UNIT, m, n, al, a, ld, out,
                                          ld);
                            break;
                        default:
                            ((c_trmm *)f)(ROW, RIGHT, LOWER, CONJTRANS, NONUNIT, m, n, al, a, ld,
                                          out, ld);
                        }
                    }
                }
                compare(name, dbl, in, ref, c);
                free(a);
                free(b);
                free(in);
                free(c);
                free(ref);
            }
    }
    return check_summary("complex_level3");
}
