/* blas_client: an unmodified program's view of a BLAS. It calls the Fortran symbols (sgemm_,
 * dgemm_, cgemm_, zgemm_) and LAPACK (dgetrf_, dpotrf_, dgesv_) on its own malloc'd host memory and times each
 * call with the host clock, data in and out of host memory included, so the same binary measures
 * the plain CPU BLAS, NVBLAS (LD_PRELOAD=libnvblas.so) and tessel's drop-in
 * (LD_PRELOAD=libtessel_blas.so) side by side. Link it against reference LAPACK and -lblas:
 *   cc -O2 blas_client.c -o blas_client /usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3 -lblas -lm
 * Cases (any number, in order): sgemm:N dgemm:N cgemm:N zgemm:N (8 N^3 flops) getrf:N potrf:N
 * gesv:N (one right-hand side, as numpy.linalg.solve(a, b) with a vector b), small:N:COUNT
 * (COUNT dgemm_ of N^3, the many-small-calls case), smallsolve:N:COUNT (COUNT dgesv_ of N x N, N <= 64). RUNS=r (environment, default 2)
 * repeats each case.
 * One CSV line per run on stdout: label,case,n,run,seconds,gflops (label = $LABEL); on stderr, which
 * library each symbol the program calls was bound to (the dynamic linker's choice: a preloaded
 * library, the program's libblas.so.3, or a LAPACK's own BLAS). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void sgemm_(const char *, const char *, const int *, const int *, const int *, const float *,
            const float *, const int *, const float *, const int *, const float *, float *,
            const int *, size_t, size_t);
void dgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);
/* complex (interleaved pairs, as Fortran's COMPLEX and COMPLEX*16) */
void cgemm_(const char *, const char *, const int *, const int *, const int *, const float *,
            const float *, const int *, const float *, const int *, const float *, float *,
            const int *, size_t, size_t);
void zgemm_(const char *, const char *, const int *, const int *, const int *, const double *,
            const double *, const int *, const double *, const int *, const double *, double *,
            const int *, size_t, size_t);
void dgetrf_(const int *, const int *, double *, const int *, int *, int *);
void dpotrf_(const char *, const int *, double *, const int *, int *, size_t);
void dgesv_(const int *, const int *, double *, const int *, int *, double *, const int *, int *);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "blas_client: error: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

static unsigned long long g_seed = 88172645463325252ull;
static double rnd(void)
{
    g_seed ^= g_seed << 13, g_seed ^= g_seed >> 7, g_seed ^= g_seed << 17;
    return (double)(g_seed >> 11) / 9007199254740992.0 - 0.5;
}

static const char *g_label = "";
static void line(const char *what, int n, int run, double s, double flops)
{
    printf("%s,%s,%d,%d,%.6f,%.1f\n", g_label, what, n, run, s, flops / s / 1e9);
    fflush(stdout);
}

/* sgemm_ / dgemm_ / cgemm_ / zgemm_ (prec 's', 'd', 'c', 'z') on n x n matrices, beta = 0,
 * alpha 1 (complex: 1 - 0.5i); 2 n^3 flops, complex 8 n^3. */
static void gemm(char prec, int n, int runs)
{
    int dbl = prec == 'd' || prec == 'z', cplx = prec == 'c' || prec == 'z';
    size_t nn = (size_t)n * n * (cplx ? 2 : 1), es = dbl ? 8 : 4;
    void *a = xmalloc(nn * es), *b = xmalloc(nn * es), *c = xmalloc(nn * es);
    for (size_t i = 0; i < nn; i++) {
        double v = rnd();
        if (dbl) ((double *)a)[i] = v, ((double *)b)[i] = -v, ((double *)c)[i] = 0;
        else ((float *)a)[i] = (float)v, ((float *)b)[i] = (float)-v, ((float *)c)[i] = 0;
    }
    const double ad[2] = {1, cplx ? -0.5 : 0}, bd[2] = {0, 0};
    const float af[2] = {1, cplx ? -0.5f : 0}, bf[2] = {0, 0};
    const char name[6] = {prec, 'g', 'e', 'm', 'm', 0};
    for (int r = 0; r < runs; r++) {
        double t = now();
        if (prec == 'z') zgemm_("N", "N", &n, &n, &n, ad, a, &n, b, &n, bd, c, &n, 1, 1);
        else if (prec == 'c') cgemm_("N", "N", &n, &n, &n, af, a, &n, b, &n, bf, c, &n, 1, 1);
        else if (dbl) dgemm_("N", "N", &n, &n, &n, ad, a, &n, b, &n, bd, c, &n, 1, 1);
        else sgemm_("N", "N", &n, &n, &n, af, a, &n, b, &n, bf, c, &n, 1, 1);
        line(name, n, r, now() - t, (cplx ? 8.0 : 2.0) * n * (double)n * n);
    }
    free(a), free(b), free(c);
}

static void factor(int chol, int n, int runs)
{
    size_t nn = (size_t)n * n;
    double *a = xmalloc(nn * 8), *a0 = xmalloc(nn * 8);
    int *ipiv = xmalloc(sizeof(int) * (size_t)n), info = 0;
    for (size_t i = 0; i < nn; i++) a0[i] = rnd();
    if (chol) /* symmetric, diagonally dominant: positive definite */
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < j; i++) a0[i + (size_t)j * n] = a0[j + (size_t)i * n];
            a0[j + (size_t)j * n] = n;
        }
    for (int r = 0; r < runs; r++) {
        memcpy(a, a0, nn * 8);
        double t = now();
        if (chol) dpotrf_("L", &n, a, &n, &info, 1);
        else dgetrf_(&n, &n, a, &n, ipiv, &info);
        t = now() - t;
        if (info != 0) fprintf(stderr, "blas_client: %s info %d\n", chol ? "dpotrf" : "dgetrf", info);
        line(chol ? "dpotrf" : "dgetrf", n, r, t, (chol ? 1.0 / 3.0 : 2.0 / 3.0) * n * (double)n * n);
    }
    free(a), free(a0), free(ipiv);
}

/* dgesv_ of n x n with one right-hand side (numpy.linalg.solve(a, b) with a vector b) */
static void gesv(int n, int runs)
{
    size_t nn = (size_t)n * n;
    double *a = xmalloc(nn * 8), *a0 = xmalloc(nn * 8), *b = xmalloc((size_t)n * 8);
    int *ipiv = xmalloc(sizeof(int) * (size_t)n), info = 0, one = 1;
    for (size_t i = 0; i < nn; i++) a0[i] = rnd();
    for (int r = 0; r < runs; r++) {
        memcpy(a, a0, nn * 8);
        for (int i = 0; i < n; i++) b[i] = 1.0;
        double t = now();
        dgesv_(&n, &one, a, &n, ipiv, b, &n, &info);
        t = now() - t;
        if (info != 0) fprintf(stderr, "blas_client: dgesv info %d\n", info);
        line("dgesv", n, r, t, 2.0 / 3.0 * n * (double)n * n + 2.0 * n * (double)n);
    }
    free(a), free(a0), free(b), free(ipiv);
}

/* count dgesv_ of n x n, one right-hand side each (a fresh copy of A every time) */
static void small_solve(int n, long count, int runs)
{
    if (n > 64) n = 64;
    size_t nn = (size_t)n * n;
    double *a0 = xmalloc(nn * 8), *a = xmalloc(nn * 8), b[64];
    int ipiv[64], info = 0, one = 1;
    for (size_t i = 0; i < nn; i++) a0[i] = rnd();
    for (int j = 0; j < n; j++) a0[j + (size_t)j * n] += n; /* well conditioned */
    for (int r = 0; r < runs; r++) {
        double t = now();
        for (long i = 0; i < count; i++) {
            memcpy(a, a0, nn * 8);
            for (int k = 0; k < n; k++) b[k] = 1.0;
            dgesv_(&n, &one, a, &n, ipiv, b, &n, &info);
        }
        line("smallsolve", n, r, now() - t, (2.0 / 3.0 * n * (double)n * n + 2.0 * n * n) * count);
    }
    free(a), free(a0);
}

static void small(int n, long count, int runs)
{
    size_t nn = (size_t)n * n;
    double *a = xmalloc(nn * 8), *b = xmalloc(nn * 8), *c = xmalloc(nn * 8), al = 1, be = 1;
    for (size_t i = 0; i < nn; i++) a[i] = rnd(), b[i] = rnd(), c[i] = 0;
    for (int r = 0; r < runs; r++) {
        double t = now();
        for (long i = 0; i < count; i++) dgemm_("N", "N", &n, &n, &n, &al, a, &n, b, &n, &be, c, &n, 1, 1);
        line("small", n, r, now() - t, 2.0 * n * (double)n * n * (double)count);
    }
    free(a), free(b), free(c);
}

static void where(const char *name, void *f)
{
    Dl_info info;
    fprintf(stderr, "blas_client: %s from %s\n", name,
            f && dladdr(f, &info) && info.dli_fname ? info.dli_fname : "?");
}

int main(int argc, char **argv)
{
    where("sgemm_", (void *)sgemm_);
    where("dgemm_", (void *)dgemm_);
    where("dgetrf_", (void *)dgetrf_);
    where("dpotrf_", (void *)dpotrf_);
    where("dgesv_", (void *)dgesv_);
    int runs = getenv("RUNS") ? atoi(getenv("RUNS")) : 2;
    if (getenv("LABEL")) g_label = getenv("LABEL");
    if (runs < 1) runs = 1;
    for (int i = 1; i < argc; i++) {
        char what[16];
        int n = 0;
        long count = 0;
        if (sscanf(argv[i], "%15[a-z]:%d:%ld", what, &n, &count) < 2 || n < 1) {
            fprintf(stderr, "blas_client: error: bad case '%s' (sgemm:N dgemm:N cgemm:N zgemm:N getrf:N potrf:N gesv:N small:N:COUNT smallsolve:N:COUNT)\n", argv[i]);
            return 2;
        }
        if (strlen(what) == 5 && strchr("sdcz", what[0]) && !strcmp(what + 1, "gemm"))
            gemm(what[0], n, runs);
        else if (!strcmp(what, "getrf") || !strcmp(what, "potrf")) factor(what[0] == 'p', n, runs);
        else if (!strcmp(what, "gesv")) gesv(n, runs);
        else if (!strcmp(what, "small") && count > 0) small(n, count, runs);
        else if (!strcmp(what, "smallsolve") && count > 0) small_solve(n, count, runs);
        else {
            fprintf(stderr, "blas_client: error: unknown case '%s'\n", argv[i]);
            return 2;
        }
    }
    return 0;
}
