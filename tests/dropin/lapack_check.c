/* lapack_check: reference LAPACK (Debian's liblapack3, linked by path) solving through whatever
 * BLAS the process has: run with libtessel_blas.so preloaded and TESSEL_BLAS_ROUTE=device, its
 * blocked algorithms send their GEMM, TRSM, SYRK, ... to the device. dgesv (LU), dposv
 * (Cholesky), dgels (QR least squares) and dsyev (symmetric eigenproblem) on fresh random data
 * of odd sizes, each checked by its residual scaled by n eps (LAPACK's own testing measure):
 *   |A x - b| / (|A| |x| n eps)          dgesv, dposv
 *   |A^T (A x - b)| / (|A|^2 |x| n eps)  dgels (the normal equations of the least squares)
 *   |A Z - Z W| / (|A| n eps), |Z^T Z - I| / (n eps)  dsyev
 * Prints one line per case and exits 1 when any ratio passes 30 (LAPACK's tests use 30).
 * Linking a LAPACK by path records only its soname (liblapack.so.3), which Debian's alternatives
 * resolve to OpenBLAS's own LAPACK unless LD_LIBRARY_PATH names the reference's folder; so the
 * program says which library its liblapack.so.3 is (where that object's own dsyev_ is) and,
 * when TSL_REQUIRE_LAPACK is set, fails unless that path contains it. The drop-in's own dgesv_,
 * dposv_ and dgels_ come first; the tests route them to the CPU LAPACK, naming the reference as
 * that, so the reference's LU, Cholesky and QR run their blocked updates through the drop-in's
 * BLAS. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
            const int *ldb, int *info);
void dposv_(const char *uplo, const int *n, const int *nrhs, double *a, const int *lda, double *b,
            const int *ldb, int *info, size_t);
void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
            const int *lda, double *b, const int *ldb, double *work, const int *lwork, int *info,
            size_t);
void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda, double *w,
            double *work, const int *lwork, int *info, size_t, size_t);

static unsigned long long g_seed = 0x9e3779b97f4a7c15ull;
static double rnd(void) /* uniform in [-1, 1), never all zeros */
{
    g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_seed >> 11) / 4503599627370496.0 - 1.0;
}

static double *matrix(int rows, int cols)
{
    double *m = malloc(sizeof(double) * (size_t)rows * (size_t)cols);
    if (!m) {
        fprintf(stderr, "lapack_check: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++) m[i] = rnd();
    return m;
}

/* max-abs-row-sum norm of a column-major rows x cols matrix */
static double norm_inf(const double *a, int rows, int cols, int ld)
{
    double best = 0;
    for (int i = 0; i < rows; i++) {
        double s = 0;
        for (int j = 0; j < cols; j++) s += fabs(a[i + (size_t)j * ld]);
        if (s > best) best = s;
    }
    return best;
}

/* r = A x - b for column-major A (rows x cols), one right-hand side */
static void residual(const double *a, int rows, int cols, const double *x, const double *b,
                     double *r)
{
    for (int i = 0; i < rows; i++) {
        double s = -b[i];
        for (int j = 0; j < cols; j++) s += a[i + (size_t)j * rows] * x[j];
        r[i] = s;
    }
}

static double vmax(const double *v, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++)
        if (fabs(v[i]) > m) m = fabs(v[i]);
    return m;
}

static int g_failed;
static void report(const char *what, int n, double ratio, int info)
{
    int bad = info != 0 || !(ratio < 30.0);
    g_failed |= bad;
    printf("%-6s n=%-4d info=%d ratio=%.3g %s\n", what, n, info, ratio, bad ? "FAILED" : "ok");
}

static void check_gesv(int n)
{
    int nrhs = 3, info;
    double *a = matrix(n, n), *a0 = malloc(sizeof(double) * n * n), *b = matrix(n, nrhs);
    double *b0 = malloc(sizeof(double) * n * nrhs), *r = malloc(sizeof(double) * n);
    int *ipiv = malloc(sizeof(int) * n);
    memcpy(a0, a, sizeof(double) * n * n);
    memcpy(b0, b, sizeof(double) * n * nrhs);
    dgesv_(&n, &nrhs, a, &n, ipiv, b, &n, &info);
    double worst = 0, an = norm_inf(a0, n, n, n);
    for (int c = 0; c < nrhs; c++) {
        residual(a0, n, n, b + (size_t)c * n, b0 + (size_t)c * n, r);
        double ratio = vmax(r, n) / (an * vmax(b + (size_t)c * n, n) * n * DBL_EPSILON);
        if (ratio > worst) worst = ratio;
    }
    report("dgesv", n, worst, info);
    free(a), free(a0), free(b), free(b0), free(r), free(ipiv);
}

static void check_posv(int n)
{
    int nrhs = 2, info;
    double *g = matrix(n, n), *a = malloc(sizeof(double) * n * n), *b = matrix(n, nrhs);
    double *a0 = malloc(sizeof(double) * n * n), *b0 = malloc(sizeof(double) * n * nrhs);
    double *r = malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) /* A = G G^T / n + I: symmetric positive definite */
        for (int j = 0; j < n; j++) {
            double s = i == j ? 1.0 : 0.0;
            for (int k = 0; k < n; k++) s += g[i + (size_t)k * n] * g[j + (size_t)k * n] / n;
            a[i + (size_t)j * n] = s;
        }
    memcpy(a0, a, sizeof(double) * n * n);
    memcpy(b0, b, sizeof(double) * n * nrhs);
    dposv_(n % 2 ? "L" : "U", &n, &nrhs, a, &n, b, &n, &info, 1);
    double worst = 0, an = norm_inf(a0, n, n, n);
    for (int c = 0; c < nrhs; c++) {
        residual(a0, n, n, b + (size_t)c * n, b0 + (size_t)c * n, r);
        double ratio = vmax(r, n) / (an * vmax(b + (size_t)c * n, n) * n * DBL_EPSILON);
        if (ratio > worst) worst = ratio;
    }
    report("dposv", n, worst, info);
    free(g), free(a), free(b), free(a0), free(b0), free(r);
}

static void check_gels(int n)
{
    int m = n + n / 2 + 1, nrhs = 1, info, lwork = -1;
    double *a = matrix(m, n), *a0 = malloc(sizeof(double) * m * n), *b = matrix(m, 1);
    double *b0 = malloc(sizeof(double) * m), *r = malloc(sizeof(double) * m), q;
    memcpy(a0, a, sizeof(double) * m * n);
    memcpy(b0, b, sizeof(double) * m);
    dgels_("N", &m, &n, &nrhs, a, &m, b, &m, &q, &lwork, &info, 1);
    lwork = (int)q;
    double *work = malloc(sizeof(double) * (size_t)lwork);
    dgels_("N", &m, &n, &nrhs, a, &m, b, &m, work, &lwork, &info, 1);
    residual(a0, m, n, b, b0, r); /* r = A x - b; the normal equations: A^T r = 0 */
    double worst = 0, an = norm_inf(a0, m, n, m);
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < m; i++) s += a0[i + (size_t)j * m] * r[i];
        if (fabs(s) > worst) worst = fabs(s);
    }
    report("dgels", n, worst / (an * an * vmax(b, n) * m * DBL_EPSILON), info);
    free(a), free(a0), free(b), free(b0), free(r), free(work);
}

static void check_syev(int n)
{
    int info, lwork = -1;
    double *a = matrix(n, n), *a0 = malloc(sizeof(double) * n * n), *w = malloc(sizeof(double) * n);
    double q;
    for (int i = 0; i < n; i++) /* symmetric */
        for (int j = 0; j < i; j++) a[j + (size_t)i * n] = a[i + (size_t)j * n];
    memcpy(a0, a, sizeof(double) * n * n);
    dsyev_("V", "L", &n, a, &n, w, &q, &lwork, &info, 1, 1);
    lwork = (int)q;
    double *work = malloc(sizeof(double) * (size_t)lwork);
    dsyev_("V", "L", &n, a, &n, w, work, &lwork, &info, 1, 1);
    double an = norm_inf(a0, n, n, n), res = 0, orth = 0;
    for (int j = 0; j < n; j++) /* column j: A z_j - w_j z_j, and z_i . z_j - delta_ij */
        for (int i = 0; i < n; i++) {
            double s = -w[j] * a[i + (size_t)j * n], d = i == j ? -1.0 : 0.0;
            for (int k = 0; k < n; k++) {
                s += a0[i + (size_t)k * n] * a[k + (size_t)j * n];
                d += a[k + (size_t)i * n] * a[k + (size_t)j * n];
            }
            if (fabs(s) > res) res = fabs(s);
            if (fabs(d) > orth) orth = fabs(d);
        }
    double r1 = res / (an * n * DBL_EPSILON), r2 = orth / (n * DBL_EPSILON);
    report("dsyev", n, r1 > r2 ? r1 : r2, info);
    free(a), free(a0), free(w), free(work);
}

int main(int argc, char **argv)
{
    /* the liblapack.so.3 this process loaded: its own dsyev_ (dlsym on its handle looks there
     * first; the drop-in, preloaded, defines every LAPACK symbol too) */
    Dl_info info;
    void *lib = dlopen("liblapack.so.3", RTLD_LAZY | RTLD_NOLOAD);
    void *own = lib ? dlsym(lib, "dsyev_") : NULL;
    const char *from = own && dladdr(own, &info) && info.dli_fname ? info.dli_fname : "?";
    const char *want = getenv("TSL_REQUIRE_LAPACK");
    printf("lapack_check: dsyev_ from %s\n", from);
    if (want && *want && !strstr(from, want)) {
        fprintf(stderr, "lapack_check: error: dsyev_ is not from a LAPACK whose path has '%s'\n", want);
        return 3;
    }
    int sizes[] = {1, 7, 33, 65, 130, 201};
    int count = sizeof sizes / sizeof *sizes;
    if (argc > 1) { /* lapack_check N: one size */
        sizes[0] = atoi(argv[1]);
        count = 1;
        if (sizes[0] < 1) {
            fprintf(stderr, "lapack_check: error: N must be a positive integer\n");
            return 2;
        }
    }
    for (int i = 0; i < count; i++) {
        check_gesv(sizes[i]);
        check_posv(sizes[i]);
        check_gels(sizes[i]);
        check_syev(sizes[i]);
    }
    return g_failed;
}
