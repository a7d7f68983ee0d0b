/* dropin_route_helpers.c: what the drop-in routing tests share (tests/dropin_route.h): random
 * data, stderr capture, the reference GEMM, one sgemm as the drop-in runs it, and a child run of
 * the test program. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "blas/route.h"
#include "check.h"
#include "dropin_route.h"


static unsigned long long g_rng = 0x2545F4914F6CDD1Dull;

double urand(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (double)(g_rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* stderr of a stretch of this process, into a string (captured through a temporary file). */
static int g_saved_fd = -1;
static FILE *g_capture;

void capture_begin(void)
{
    fflush(stderr);
    g_capture = tmpfile();
    g_saved_fd = dup(2);
    dup2(fileno(g_capture), 2);
}

char *capture_end(void)
{
    fflush(stderr);
    dup2(g_saved_fd, 2);
    close(g_saved_fd);
    long n = ftell(g_capture);
    char *text = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
    rewind(g_capture);
    if (n > 0 && fread(text, 1, (size_t)n, g_capture) != (size_t)n) text[0] = '\0';
    fclose(g_capture);
    return text;
}

int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* C = A B (+ C when beta), column-major, m x n x k, the naive way: the reference. */
void ref_gemm(int m, int n, int k, const float *a, const float *b, float beta, float *c)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int l = 0; l < k; l++)
                s += (double)a[i + l * m] * b[l + j * k];
            c[i + j * m] = (float)(s + beta * c[i + j * m]);
        }
}

int same(const float *x, const float *y, size_t n, double tol)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabs((double)x[i] - y[i]) <= tol * (1 + fabs((double)y[i])))) return 0;
    return 1;
}

/* One sgemm as the drop-in does it: the device when the route says so, else the CPU BLAS.
 * Returns 1 when it ran on the device. */
int dropin_sgemm(tsl__blas_stat *st, int m, int n, int k, const float *a, const float *b,
                        float beta, float *c)
{
    tsl__blas_call call = {
        st, TSL__BLAS_L3, 's', 2.0 * m * n * k, 4.0 * ((double)m * k + (double)k * n + 2.0 * m * n),
        0};
    tsl_context *ctx = tsl__blas_device_begin(&call);
    if (ctx) {
        tsl_status s =
            tsl_sgemm(ctx, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, (size_t)m, (size_t)n,
                      (size_t)k, 1.0f, a, (size_t)m, b, (size_t)k, beta, c, (size_t)m);
        if (tsl__blas_device_end(&call, ctx, s)) return 1;
    }
    typedef void (*sgemm_fn)(const char *, const char *, const int *, const int *, const int *,
                             const float *, const float *, const int *, const float *, const int *,
                             const float *, float *, const int *, size_t, size_t);
    sgemm_fn f = (sgemm_fn)tsl__blas_cpu_sym("sgemm_");
    float one = 1.0f;
    double t0 = tsl__blas_clock();
    if (f) f("N", "N", &m, &n, &k, &one, a, &m, b, &k, &beta, c, &m, 1, 1);
    tsl__blas_cpu_done(&call, t0);
    return 0;
}

/* A random problem, run through dropin_sgemm and checked; returns 1 device, 0 CPU, -1 wrong. */
int checked_sgemm(tsl__blas_stat *st, int m, int n, int k)
{
    float *a = malloc(sizeof(float) * (size_t)(m * k)),
          *b = malloc(sizeof(float) * (size_t)(k * n));
    float *c = malloc(sizeof(float) * (size_t)(m * n)),
          *r = malloc(sizeof(float) * (size_t)(m * n));
    for (int i = 0; i < m * k; i++)
        a[i] = (float)urand();
    for (int i = 0; i < k * n; i++)
        b[i] = (float)urand();
    for (int i = 0; i < m * n; i++)
        c[i] = r[i] = (float)urand();
    int dev = dropin_sgemm(st, m, n, k, a, b, 0.5f, c);
    ref_gemm(m, n, k, a, b, 0.5f, r);
    int ok = same(c, r, (size_t)(m * n), 1e-4 * k);
    free(a);
    free(b);
    free(c);
    free(r);
    return ok ? dev : -1;
}

/* Runs this program again with one case and extra environment; its stderr into *err. */
int run_child(const char *which, const char *const *env, char **err)
{
    char path[] = "/tmp/tessel-dropin-childXXXXXX";
    int fd = mkstemp(path);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 2);
        for (size_t i = 0; env[i]; i += 2)
            setenv(env[i], env[i + 1], 1);
        execl("/proc/self/exe", "test_dropin_route", which, (char *)NULL);
        _exit(127);
    }
    int status = -1;
    waitpid(pid, &status, 0);
    struct stat sb;
    fstat(fd, &sb);
    *err = calloc((size_t)sb.st_size + 1, 1);
    if (pread(fd, *err, (size_t)sb.st_size, 0) != sb.st_size) (*err)[0] = '\0';
    close(fd);
    unlink(path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The cost model's figures of a GPU-like device (the model cases' synthetic machine). */
tsl__blas_rates gpu_like(void)
{
    tsl__blas_rates r;
    memset(&r, 0, sizeof r);
    r.overhead_s = 50e-6;
    r.gemm_flops[0][0] = 2.0 * 1024 * 1024 * 1024, r.gemm_rate[0][0] = 10e12;
    r.gemm_flops[0][1] = 2.0 * 4096 * 4096 * 4096, r.gemm_rate[0][1] = 40e12;
    r.gemm_flops[1][0] = r.gemm_flops[0][0], r.gemm_rate[1][0] = 5e12;
    r.gemm_flops[1][1] = r.gemm_flops[0][1], r.gemm_rate[1][1] = 20e12;
    /* an LU: far below GEMM at order 1024 (its panels' launches), a third of it at 4096 */
    for (int p = 0; p < 2; p++) {
        r.lu_flops[p][0] = 2.0 / 3.0 * 1024 * 1024 * 1024, r.lu_rate[p][0] = p ? 0.2e12 : 0.3e12;
        r.lu_flops[p][1] = 2.0 / 3.0 * 4096 * 4096 * 4096, r.lu_rate[p][1] = p ? 5e12 : 8e12;
    }
    r.dev_bw = 2e12;
    r.link_bw = 10e9;
    r.cpu_gemm_rate[0] = 1e12, r.cpu_gemm_rate[1] = 0.5e12;
    r.cpu_lu_rate[0] = 0.5e12, r.cpu_lu_rate[1] = 0.3e12;
    r.cpu_bw = 50e9;
    return r;
}
