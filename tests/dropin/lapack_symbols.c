/* lapack_symbols: the drop-in's own LAPACK symbols (s/d getrf, getrs, gesv, potrf, potrs, posv),
 * called as a Fortran program calls them, with libtessel_blas.so preloaded (TESSEL_BLAS_ROUTE
 * decides where they run; the tests force the device, and a device fault for the CPU fallback).
 * On fresh random data of odd sizes (m != n, lda > m, nrhs 1 and 17, both triangles), each result
 * is checked by LAPACK's own test ratios, which must stay below 30:
 *   |A - P L U|_1 / (n |A|_1 eps)          getrf (and the rows of A's padding are untouched)
 *   |A - L L^T|_1 / (n |A|_1 eps)          potrf (and the other triangle is untouched)
 *   |op(A) X - B|_1 / (|A|_1 |X|_1 n eps)  getrs, gesv, potrs, posv
 * Singular and not positive definite matrices must give the reference LAPACK's info (argv[1] is
 * its path: it is called directly, through dlopen, on the same matrix); n = 0 is a quick return;
 * each bad argument must reach xerbla_ (this program's own, as LAPACK's testers define one) with
 * the routine's name and the argument's position, set info to minus it, and write nothing. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void getrf_t(const int *, const int *, void *, const int *, int *, int *);
typedef void getrs_t(const char *, const int *, const int *, const void *, const int *,
                     const int *, void *, const int *, int *, size_t);
typedef void gesv_t(const int *, const int *, void *, const int *, int *, void *, const int *,
                    int *);
typedef void potrf_t(const char *, const int *, void *, const int *, int *, size_t);
typedef void potrs_t(const char *, const int *, const int *, const void *, const int *, void *,
                     const int *, int *, size_t);

void sgetrf_(const int *, const int *, float *, const int *, int *, int *);
void dgetrf_(const int *, const int *, double *, const int *, int *, int *);
void sgetrs_(const char *, const int *, const int *, const float *, const int *, const int *,
             float *, const int *, int *, size_t);
void dgetrs_(const char *, const int *, const int *, const double *, const int *, const int *,
             double *, const int *, int *, size_t);
void sgesv_(const int *, const int *, float *, const int *, int *, float *, const int *, int *);
void dgesv_(const int *, const int *, double *, const int *, int *, double *, const int *, int *);
void spotrf_(const char *, const int *, float *, const int *, int *, size_t);
void dpotrf_(const char *, const int *, double *, const int *, int *, size_t);
void spotrs_(const char *, const int *, const int *, const float *, const int *, float *,
             const int *, int *, size_t);
void dpotrs_(const char *, const int *, const int *, const double *, const int *, double *,
             const int *, int *, size_t);
void sposv_(const char *, const int *, const int *, float *, const int *, float *, const int *,
            int *, size_t);
void dposv_(const char *, const int *, const int *, double *, const int *, double *, const int *,
            int *, size_t);

void dsgesv_(const int *, const int *, double *, const int *, int *, const double *, const int *,
             double *, const int *, double *, float *, int *, int *);

static int g_failures, g_cases;
#define CHECK(cond, ...)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "lapack_symbols: FAIL %s:%d: ", __FILE__, __LINE__);               \
            fprintf(stderr, __VA_ARGS__);                                                      \
            fputc('\n', stderr);                                                               \
            g_failures++;                                                                      \
        }                                                                                      \
    } while (0)

/* ---- xerbla_: this program's, as LAPACK's testers have one ---------------------------------- */
static char g_xname[8];
static int g_xinfo;
void xerbla_(const char *name, const int *info, size_t len)
{
    size_t n = len < 6 ? len : 6;
    memcpy(g_xname, name, n);
    g_xname[n] = '\0';
    while (n > 0 && g_xname[n - 1] == ' ') g_xname[--n] = '\0';
    g_xinfo = *info;
}

/* ---- data ------------------------------------------------------------------------------------ */
static unsigned long long g_seed = 0x2545f4914f6cdd1dull;
static double rnd(void)
{
    g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_seed >> 11) / 4503599627370496.0 - 1.0;
}

static double *random_matrix(int rows, int cols)
{
    double *m = malloc(sizeof(double) * (size_t)rows * (size_t)(cols > 0 ? cols : 1) + 8);
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++) m[i] = rnd();
    return m;
}

/* A symmetric positive definite n x n (ld n): B B^T / n + I. */
static double *spd_matrix(int n)
{
    double *b = random_matrix(n, n), *a = random_matrix(n, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = i == j ? 1.0 : 0.0;
            for (int k = 0; k < n; k++) s += b[i + (size_t)k * n] * b[j + (size_t)k * n] / n;
            a[i + (size_t)j * n] = s;
        }
    free(b);
    return a;
}

static double *copy_of(const double *a, size_t count)
{
    double *c = malloc(sizeof(double) * count + 8);
    memcpy(c, a, sizeof(double) * count);
    return c;
}

/* 1-norm of a column-major rows x cols (leading dimension ld) */
static double norm1(const double *a, int rows, int cols, int ld)
{
    double best = 0;
    for (int j = 0; j < cols; j++) {
        double s = 0;
        for (int i = 0; i < rows; i++) s += fabs(a[i + (size_t)j * ld]);
        if (s > best) best = s;
    }
    return best;
}

/* ---- each routine in either precision on double arrays (s: through a float copy) ------------ */
static char g_prec;

static float *to_float(const double *a, size_t count)
{
    float *f = malloc(sizeof(float) * count + 8);
    for (size_t i = 0; i < count; i++) f[i] = (float)a[i];
    return f;
}
static void from_float(double *a, float *f, size_t count)
{
    for (size_t i = 0; i < count; i++) a[i] = f[i];
    free(f);
}

static double eps(void)
{
    return g_prec == 'd' ? DBL_EPSILON : FLT_EPSILON;
}

static void getrf(int m, int n, double *a, int lda, int *ipiv, int *info)
{
    size_t ca = (size_t)lda * (size_t)n;
    if (g_prec == 'd') return dgetrf_(&m, &n, a, &lda, ipiv, info);
    float *f = to_float(a, ca);
    sgetrf_(&m, &n, f, &lda, ipiv, info);
    from_float(a, f, ca);
}

static void getrs(char t, int n, int nrhs, const double *a, int lda, const int *ipiv, double *b,
                  int ldb, int *info)
{
    size_t ca = (size_t)lda * (size_t)n, cb = (size_t)ldb * (size_t)nrhs;
    if (g_prec == 'd') return dgetrs_(&t, &n, &nrhs, a, &lda, ipiv, b, &ldb, info, 1);
    float *fa = to_float(a, ca), *fb = to_float(b, cb);
    sgetrs_(&t, &n, &nrhs, fa, &lda, ipiv, fb, &ldb, info, 1);
    free(fa);
    from_float(b, fb, cb);
}

static void gesv(int n, int nrhs, double *a, int lda, int *ipiv, double *b, int ldb, int *info)
{
    size_t ca = (size_t)lda * (size_t)n, cb = (size_t)ldb * (size_t)nrhs;
    if (g_prec == 'd') return dgesv_(&n, &nrhs, a, &lda, ipiv, b, &ldb, info);
    float *fa = to_float(a, ca), *fb = to_float(b, cb);
    sgesv_(&n, &nrhs, fa, &lda, ipiv, fb, &ldb, info);
    from_float(a, fa, ca);
    from_float(b, fb, cb);
}

static void potrf(char u, int n, double *a, int lda, int *info)
{
    size_t ca = (size_t)lda * (size_t)n;
    if (g_prec == 'd') return dpotrf_(&u, &n, a, &lda, info, 1);
    float *f = to_float(a, ca);
    spotrf_(&u, &n, f, &lda, info, 1);
    from_float(a, f, ca);
}

/* potrs (factor 0) or posv (factor 1) */
static void potrs(int factor, char u, int n, int nrhs, double *a, int lda, double *b, int ldb,
                  int *info)
{
    size_t ca = (size_t)lda * (size_t)n, cb = (size_t)ldb * (size_t)nrhs;
    if (g_prec == 'd') {
        if (factor) return dposv_(&u, &n, &nrhs, a, &lda, b, &ldb, info, 1);
        return dpotrs_(&u, &n, &nrhs, a, &lda, b, &ldb, info, 1);
    }
    float *fa = to_float(a, ca), *fb = to_float(b, cb);
    if (factor)
        sposv_(&u, &n, &nrhs, fa, &lda, fb, &ldb, info, 1);
    else
        spotrs_(&u, &n, &nrhs, fa, &lda, fb, &ldb, info, 1);
    from_float(a, fa, ca);
    from_float(b, fb, cb);
}

/* ---- residuals ------------------------------------------------------------------------------ */

/* |op(A) X - B|_1 / (|A|_1 |X|_1 n eps), A n x n (ld lda), X and B n x nrhs (ld ldb) */
static double solve_ratio(int trans, int n, int nrhs, const double *a, int lda, const double *x,
                          const double *b, int ldb)
{
    double worst = 0, an = norm1(a, n, n, lda), xn = norm1(x, n, nrhs, ldb);
    for (int j = 0; j < nrhs; j++) {
        double col = 0;
        for (int i = 0; i < n; i++) {
            double s = -b[i + (size_t)j * ldb];
            for (int k = 0; k < n; k++)
                s += (trans ? a[k + (size_t)i * lda] : a[i + (size_t)k * lda]) *
                     x[k + (size_t)j * ldb];
            col += fabs(s);
        }
        if (col > worst) worst = col;
    }
    return worst / ((an * xn + 1e-300) * n * eps());
}

/* |A - P L U|_1 / (n |A|_1 eps) for getrf's output f of the m x n A */
static double lu_ratio(int m, int n, const double *a, const double *f, int lda, const int *ipiv)
{
    int k = m < n ? m : n;
    double *r = calloc((size_t)m * n + 1, sizeof(double));
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int p = 0; p <= (i < j ? i : j) && p < k; p++)
                s += (p == i ? 1.0 : f[i + (size_t)p * lda]) * f[p + (size_t)j * lda];
            r[i + (size_t)j * m] = s;
        }
    for (int i = k - 1; i >= 0; i--) /* undo the interchanges: rows i and ipiv[i] - 1 */
        for (int j = 0; j < n; j++) {
            double t = r[i + (size_t)j * m];
            r[i + (size_t)j * m] = r[ipiv[i] - 1 + (size_t)j * m];
            r[ipiv[i] - 1 + (size_t)j * m] = t;
        }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) r[i + (size_t)j * m] -= a[i + (size_t)j * lda];
    double v = norm1(r, m, n, m) / ((norm1(a, m, n, lda) + 1e-300) * (m > n ? m : n) * eps());
    free(r);
    return v;
}

/* |A - L L^T|_1 / (n |A|_1 eps) for potrf's factor in the uplo triangle of f */
static double chol_ratio(char u, int n, const double *a, const double *f, int lda)
{
    int up = u == 'U' || u == 'u';
    double *r = calloc((size_t)n * n + 1, sizeof(double));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int p = 0; p <= (i < j ? i : j); p++)
                s += up ? f[p + (size_t)i * lda] * f[p + (size_t)j * lda]
                        : f[i + (size_t)p * lda] * f[j + (size_t)p * lda];
            r[i + (size_t)j * n] = s - a[i + (size_t)j * lda];
        }
    double v = norm1(r, n, n, n) / ((norm1(a, n, n, lda) + 1e-300) * n * eps());
    free(r);
    return v;
}

#define THRESHOLD 30.0

/* ---- the cases --------------------------------------------------------------------------- */

static void case_lu(int m, int n, int lda, int nrhs)
{
    g_cases++;
    double *a = random_matrix(lda, n), *f = copy_of(a, (size_t)lda * n);
    int k = m < n ? m : n, info = -7, *ipiv = malloc(sizeof(int) * (size_t)(k + 1));
    getrf(m, n, f, lda, ipiv, &info);
    CHECK(info == 0, "%cgetrf %dx%d: info %d", g_prec, m, n, info);
    for (int i = 0; i < k; i++)
        CHECK(ipiv[i] >= i + 1 && ipiv[i] <= m, "%cgetrf %dx%d: ipiv[%d] = %d", g_prec, m, n, i,
              ipiv[i]);
    for (int j = 0; j < n; j++)
        for (int i = m; i < lda; i++)
            CHECK(f[i + (size_t)j * lda] == (g_prec == 'd' ? a[i + (size_t)j * lda]
                                                          : (double)(float)a[i + (size_t)j * lda]),
                  "%cgetrf %dx%d: padding (%d, %d) written", g_prec, m, n, i, j);
    double r = lu_ratio(m, n, a, f, lda, ipiv);
    CHECK(r < THRESHOLD, "%cgetrf %dx%d lda %d: ratio %.3g", g_prec, m, n, lda, r);
    if (m == n && nrhs > 0) {
        for (int t = 0; t < 2; t++) {
            double *b = random_matrix(lda, nrhs), *x = copy_of(b, (size_t)lda * nrhs);
            getrs(t ? 'T' : 'N', n, nrhs, f, lda, ipiv, x, lda, &info);
            CHECK(info == 0, "%cgetrs: info %d", g_prec, info);
            double rs = solve_ratio(t, n, nrhs, a, lda, x, b, lda);
            CHECK(rs < THRESHOLD, "%cgetrs %c n %d nrhs %d: ratio %.3g", g_prec, t ? 'T' : 'N', n,
                  nrhs, rs);
            free(b);
            free(x);
        }
        double *g = copy_of(a, (size_t)lda * n), *b = random_matrix(lda, nrhs),
               *x = copy_of(b, (size_t)lda * nrhs);
        gesv(n, nrhs, g, lda, ipiv, x, lda, &info);
        CHECK(info == 0, "%cgesv: info %d", g_prec, info);
        double rs = solve_ratio(0, n, nrhs, a, lda, x, b, lda);
        CHECK(rs < THRESHOLD, "%cgesv n %d nrhs %d: ratio %.3g", g_prec, n, nrhs, rs);
        free(g);
        free(b);
        free(x);
    }
    printf("%cgetrf %4d x %-4d lda %-4d nrhs %-2d ratio %.3g\n", g_prec, m, n, lda, nrhs, r);
    free(a);
    free(f);
    free(ipiv);
}

static void case_chol(char u, int n, int lda, int nrhs)
{
    g_cases++;
    double *s = spd_matrix(n), *a = random_matrix(lda, n);
    int up = u == 'U';
    /* the referenced triangle holds the SPD matrix, the other random values that must stay */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (up ? i <= j : i >= j) a[i + (size_t)j * lda] = s[i + (size_t)j * n];
    double *full = copy_of(a, (size_t)lda * n), *f = copy_of(a, (size_t)lda * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) full[i + (size_t)j * lda] = s[i + (size_t)j * n];
    int info = -7;
    potrf(u, n, f, lda, &info);
    CHECK(info == 0, "%cpotrf %c n %d: info %d", g_prec, u, n, info);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < lda; i++)
            if (i >= n || (up ? i > j : i < j))
                CHECK(f[i + (size_t)j * lda] == (g_prec == 'd' ? a[i + (size_t)j * lda]
                                                              : (double)(float)a[i + (size_t)j * lda]),
                      "%cpotrf %c n %d: (%d, %d) outside the triangle written", g_prec, u, n, i, j);
    double r = chol_ratio(u, n, full, f, lda);
    CHECK(r < THRESHOLD, "%cpotrf %c n %d: ratio %.3g", g_prec, u, n, r);
    for (int factor = 0; factor < 2; factor++) {
        double *g = copy_of(factor ? a : f, (size_t)lda * n), *b = random_matrix(lda, nrhs),
               *x = copy_of(b, (size_t)lda * nrhs);
        potrs(factor, u, n, nrhs, g, lda, x, lda, &info);
        CHECK(info == 0, "%c%s: info %d", g_prec, factor ? "posv" : "potrs", info);
        double rs = solve_ratio(0, n, nrhs, full, lda, x, b, lda);
        CHECK(rs < THRESHOLD, "%c%s %c n %d nrhs %d: ratio %.3g", g_prec,
              factor ? "posv" : "potrs", u, n, nrhs, rs);
        free(g);
        free(b);
        free(x);
    }
    printf("%cpotrf %c n %-4d lda %-4d nrhs %-2d ratio %.3g\n", g_prec, u, n, lda, nrhs, r);
    free(s);
    free(a);
    free(full);
    free(f);
}

/* info of an exactly singular matrix (column zc zero) and of one whose leading minor of order
 * bad + 1 is not positive definite, as the reference LAPACK gives them */
static void case_info(void *ref)
{
    if (g_prec != 'd') return;
    g_cases++;
    getrf_t *ref_getrf = (getrf_t *)dlsym(ref, "dgetrf_");
    potrf_t *ref_potrf = (potrf_t *)dlsym(ref, "dpotrf_");
    CHECK(ref_getrf && ref_potrf, "the reference has dgetrf_ and dpotrf_");
    if (!ref_getrf || !ref_potrf) return;
    int n = 40, ipiv[40], ipiv_ref[40], info = -7, info_ref = -7;
    double *a = random_matrix(n, n);
    for (int i = 0; i < n; i++) a[i + 12 * (size_t)n] = 0.0;
    double *f = copy_of(a, (size_t)n * n), *g = copy_of(a, (size_t)n * n);
    getrf(n, n, f, n, ipiv, &info);
    ref_getrf(&n, &n, g, &n, ipiv_ref, &info_ref);
    CHECK(info == info_ref && info == 13, "dgetrf singular: info %d, the reference's %d", info,
          info_ref);
    double *rhs = random_matrix(n, 1), *x = copy_of(rhs, (size_t)n);
    memcpy(f, a, sizeof(double) * n * n);
    int one = 1;
    dgesv_(&n, &one, f, &n, ipiv, x, &n, &info);
    CHECK(info == 13 && memcmp(x, rhs, sizeof(double) * n) == 0,
          "dgesv singular: info %d, B untouched", info);
    double *s = spd_matrix(n);
    s[20 + 20 * (size_t)n] = -1.0;
    memcpy(f, s, sizeof(double) * n * n);
    memcpy(g, s, sizeof(double) * n * n);
    char u = 'L';
    potrf('L', n, f, n, &info);
    ref_potrf(&u, &n, g, &n, &info_ref, 1);
    CHECK(info == info_ref && info > 0 && info <= 21, "dpotrf not PD: info %d, the reference's %d",
          info, info_ref);
    printf("dgetrf/dgesv singular: info %d; dpotrf not positive definite: info %d (reference %d)\n",
           13, info, info_ref);
    free(a);
    free(f);
    free(g);
    free(rhs);
    free(x);
    free(s);
}

/* dsgesv_: a well conditioned system refined to double's accuracy (iter >= 0, A unchanged), the
 * solve's ratio in double's eps */
static void case_dsgesv(int n, int lda, int nrhs)
{
    g_cases++;
    char keep = g_prec;
    g_prec = 'd';
    double *a = random_matrix(lda, n), *b = random_matrix(lda, nrhs), *x = random_matrix(lda, nrhs);
    for (int i = 0; i < n; i++) a[i + (size_t)i * lda] += 2.0;
    double *a0 = copy_of(a, (size_t)lda * n), *work = malloc(sizeof(double) * (size_t)n * nrhs + 8);
    float *swork = malloc(sizeof(float) * (size_t)n * (n + nrhs) + 8);
    int *ipiv = malloc(sizeof(int) * (size_t)n), iter = 99, info = -7;
    dsgesv_(&n, &nrhs, a, &lda, ipiv, b, &lda, x, &lda, work, swork, &iter, &info);
    CHECK(info == 0 && iter >= 0 && iter <= 30, "dsgesv n %d: info %d iter %d", n, info, iter);
    CHECK(memcmp(a, a0, sizeof(double) * (size_t)lda * n) == 0, "dsgesv refined: A written");
    double r = solve_ratio(0, n, nrhs, a0, lda, x, b, lda);
    CHECK(r < THRESHOLD, "dsgesv n %d nrhs %d: ratio %.3g", n, nrhs, r);
    printf("dsgesv %4d nrhs %-2d iter %d ratio %.3g\n", n, nrhs, iter, r);
    free(a), free(b), free(x), free(a0), free(work), free(swork), free(ipiv);
    g_prec = keep;
}

/* Bad arguments: xerbla_ with the name and the position, info = -position, nothing written. */
static void expect_error(const char *name, int position, int info, const double *a,
                         const double *a0, size_t count)
{
    CHECK(strcmp(g_xname, name) == 0 && g_xinfo == position && info == -position,
          "%s bad argument %d: xerbla_(%s, %d), info %d", name, position, g_xname, g_xinfo, info);
    CHECK(memcmp(a, a0, sizeof(double) * count) == 0, "%s bad argument %d: A written", name,
          position);
    g_xname[0] = '\0';
    g_xinfo = 0;
}

static void case_errors(void)
{
    g_cases++;
    int n = 5, neg = -1, lda_bad = 4, one = 1, ipiv[8] = {1, 2, 3, 4, 5}, info;
    double *a = random_matrix(5, 5), *a0 = copy_of(a, 25), *b = random_matrix(5, 1);
    dgetrf_(&neg, &n, a, &n, ipiv, &info);
    expect_error("DGETRF", 1, info, a, a0, 25);
    dgetrf_(&n, &neg, a, &n, ipiv, &info);
    expect_error("DGETRF", 2, info, a, a0, 25);
    dgetrf_(&n, &n, a, &lda_bad, ipiv, &info);
    expect_error("DGETRF", 4, info, a, a0, 25);
    dgetrs_("X", &n, &one, a, &n, ipiv, b, &n, &info, 1);
    expect_error("DGETRS", 1, info, a, a0, 25);
    dgetrs_("N", &n, &neg, a, &n, ipiv, b, &n, &info, 1);
    expect_error("DGETRS", 3, info, a, a0, 25);
    dgetrs_("T", &n, &one, a, &lda_bad, ipiv, b, &n, &info, 1);
    expect_error("DGETRS", 5, info, a, a0, 25);
    dgetrs_("N", &n, &one, a, &n, ipiv, b, &lda_bad, &info, 1);
    expect_error("DGETRS", 8, info, a, a0, 25);
    dgesv_(&neg, &one, a, &n, ipiv, b, &n, &info);
    expect_error("DGESV", 1, info, a, a0, 25);
    dgesv_(&n, &neg, a, &n, ipiv, b, &n, &info);
    expect_error("DGESV", 2, info, a, a0, 25);
    dgesv_(&n, &one, a, &lda_bad, ipiv, b, &n, &info);
    expect_error("DGESV", 4, info, a, a0, 25);
    dgesv_(&n, &one, a, &n, ipiv, b, &lda_bad, &info);
    expect_error("DGESV", 7, info, a, a0, 25);
    dpotrf_("X", &n, a, &n, &info, 1);
    expect_error("DPOTRF", 1, info, a, a0, 25);
    dpotrf_("U", &neg, a, &n, &info, 1);
    expect_error("DPOTRF", 2, info, a, a0, 25);
    dpotrf_("L", &n, a, &lda_bad, &info, 1);
    expect_error("DPOTRF", 4, info, a, a0, 25);
    dpotrs_("L", &n, &neg, a, &n, b, &n, &info, 1);
    expect_error("DPOTRS", 3, info, a, a0, 25);
    dpotrs_("U", &n, &one, a, &lda_bad, b, &n, &info, 1);
    expect_error("DPOTRS", 5, info, a, a0, 25);
    dposv_("Q", &n, &one, a, &n, b, &n, &info, 1);
    expect_error("DPOSV", 1, info, a, a0, 25);
    dposv_("L", &n, &one, a, &n, b, &lda_bad, &info, 1);
    expect_error("DPOSV", 7, info, a, a0, 25);
    int iter;
    double xb[8];
    dsgesv_(&n, &one, a, &n, ipiv, b, &n, xb, &lda_bad, NULL, NULL, &iter, &info);
    expect_error("DSGESV", 9, info, a, a0, 25);
    dsgesv_(&neg, &one, a, &n, ipiv, b, &n, xb, &n, NULL, NULL, &iter, &info);
    expect_error("DSGESV", 1, info, a, a0, 25);
    float fa[25];
    for (int i = 0; i < 25; i++) fa[i] = (float)a[i];
    sgetrf_(&n, &n, fa, &lda_bad, ipiv, &info);
    expect_error("SGETRF", 4, info, a, a0, 25);
    sposv_("L", &n, &neg, fa, &n, fa, &n, &info, 1);
    expect_error("SPOSV", 3, info, a, a0, 25);
    /* n = 0 and nrhs = 0: quick returns, info 0, nothing read */
    int zero = 0;
    info = -7;
    dgetrf_(&zero, &n, NULL, &one, ipiv, &info);
    CHECK(info == 0, "dgetrf m = 0: info %d", info);
    info = -7;
    dgesv_(&zero, &one, NULL, &one, ipiv, NULL, &one, &info);
    CHECK(info == 0, "dgesv n = 0: info %d", info);
    info = -7;
    dpotrf_("U", &zero, NULL, &one, &info, 1);
    CHECK(info == 0, "dpotrf n = 0: info %d", info);
    info = -7;
    dgetrs_("N", &n, &zero, a, &n, ipiv, NULL, &n, &info, 1);
    CHECK(info == 0 && g_xinfo == 0, "dgetrs nrhs = 0: info %d", info);
    printf("bad arguments: xerbla_ with LAPACK's names and positions; n = 0 quick returns\n");
    free(a);
    free(a0);
    free(b);
}

/* A LAPACK symbol the drop-in does not serve itself (dsyev_), called through the drop-in's
 * forwarder (x86-64: every LAPACK symbol is the drop-in's): the symmetric eigenproblem of a random
 * n x n matrix by the CPU LAPACK, checked by |A Z - Z W|_1 / (n |A|_1 eps) < 30. */
void dsyev_(const char *, const char *, const int *, double *, const int *, double *, double *,
            const int *, int *, size_t, size_t);
static void case_forwarded(int n)
{
    g_cases++;
    double *a = random_matrix(n, n), *z, *w = malloc((size_t)n * sizeof *w), q = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++) a[i + (size_t)j * n] = a[j + (size_t)i * n];
    z = copy_of(a, (size_t)n * n);
    int lw = -1, info = 0;
    dsyev_("V", "L", &n, z, &n, w, &q, &lw, &info, 1, 1);
    lw = (int)q;
    double *work = malloc((size_t)(lw > 1 ? lw : 1) * sizeof *work);
    dsyev_("V", "L", &n, z, &n, w, work, &lw, &info, 1, 1);
    double worst = 0;
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            double az = 0;
            for (int t = 0; t < n; t++) az += a[i + (size_t)t * n] * z[t + (size_t)j * n];
            s += fabs(az - z[i + (size_t)j * n] * w[j]);
        }
        worst = s > worst ? s : worst;
    }
    double ratio = worst / (n * norm1(a, n, n, n) * DBL_EPSILON);
    Dl_info where;
    const char *from = dladdr((void *)dsyev_, &where) && where.dli_fname ? where.dli_fname : "?";
    printf("dsyev_ (%s) n %d: ratio %.3g, info %d\n", from, n, ratio, info);
    if (info != 0 || !(ratio < 30)) {
        fprintf(stderr, "lapack_symbols: FAIL: dsyev_ through the drop-in: ratio %g, info %d\n",
                ratio, info);
        g_failures++;
    }
    free(a), free(z), free(w), free(work);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: lapack_symbols REFERENCE_LIBLAPACK\n");
        return 2;
    }
    void *ref = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!ref) {
        fprintf(stderr, "lapack_symbols: cannot load %s: %s\n", argv[1], dlerror());
        return 2;
    }
    Dl_info where;
    if (dladdr((void *)dgetrf_, &where))
        printf("dgetrf_ is %s's\n", where.dli_fname ? where.dli_fname : "?");
    static const int lu[][4] = {{1, 1, 1, 1},     {7, 7, 9, 17},   {33, 20, 40, 0},
                                {20, 33, 20, 0},  {65, 65, 65, 1}, {127, 127, 130, 17},
                                {200, 200, 203, 1}};
    static const int ch[][4] = {{'L', 1, 1, 1}, {'U', 33, 35, 17}, {'L', 65, 65, 1},
                                {'U', 127, 127, 1}, {'L', 200, 201, 17}};
    for (int p = 0; p < 2; p++) {
        g_prec = p ? 'd' : 's';
        for (size_t i = 0; i < sizeof lu / sizeof *lu; i++)
            if (p || lu[i][0] <= 65) case_lu(lu[i][0], lu[i][1], lu[i][2], lu[i][3]);
        for (size_t i = 0; i < sizeof ch / sizeof *ch; i++)
            if (p || ch[i][1] <= 65) case_chol((char)ch[i][0], ch[i][1], ch[i][2], ch[i][3]);
        case_info(ref);
    }
    case_dsgesv(65, 67, 2);
    case_dsgesv(200, 200, 1);
    case_errors();
    case_forwarded(57);
    if (g_failures) {
        fprintf(stderr, "lapack_symbols: %d failures in %d cases\n", g_failures, g_cases);
        return 1;
    }
    printf("lapack_symbols: %d cases passed\n", g_cases);
    return 0;
}
