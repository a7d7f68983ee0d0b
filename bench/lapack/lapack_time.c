/* lapack_time.c: device-resident tsl_[sd]getrf_buf, tsl_[sd]potrf_buf and tsl_[sd]geqrf_buf,
 * column-major (lower for potrf), at the sizes on the command line: each routine on the same
 * random matrix (uniform in [-0.5, 0.5), n added to the diagonal for potrf) rewritten into its
 * buffer before every call, one untimed call and three timed ones, the fastest kept (host clock
 * around the call, which returns when the device is done). One CSV line per case:
 *   impl,variant,routine,n,ms,tflops,info   (TFLOP/s: getrf 2n^3/3, potrf n^3/3, geqrf 4n^3/3)
 * LT_VARIANT sets getrf's variant (leaf, columns; default auto); LT_ROUTINES, a list such as
 * "dgetrf,dpotrf", times only the routines it names. Built as build/tessel_lapack_time;
 * bench/scripts/lapack.sh runs it beside cuSOLVER (bench/lapack/cusolver_time.c). */
#include "tessel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* kind 0: getrf, 1: potrf, 2: geqrf (tau into ipiv's room, as the precision's elements) */
static tsl_status factor(tsl_context *ctx, int dbl, int kind, int n, tsl_buffer *b, int *ipiv,
                         int *info, void *tau)
{
    int chol = kind == 1;
    if (kind == 2)
        return dbl ? tsl_dgeqrf_buf(ctx, TSL_COL_MAJOR, (size_t)n, (size_t)n, b, (size_t)n, tau)
                   : tsl_sgeqrf_buf(ctx, TSL_COL_MAJOR, (size_t)n, (size_t)n, b, (size_t)n, tau);
    if (chol)
        return dbl ? tsl_dpotrf_buf(ctx, TSL_COL_MAJOR, TSL_LOWER, (size_t)n, b, (size_t)n, info)
                   : tsl_spotrf_buf(ctx, TSL_COL_MAJOR, TSL_LOWER, (size_t)n, b, (size_t)n, info);
    return dbl ? tsl_dgetrf_buf(ctx, TSL_COL_MAJOR, (size_t)n, (size_t)n, b, (size_t)n, ipiv, info)
               : tsl_sgetrf_buf(ctx, TSL_COL_MAJOR, (size_t)n, (size_t)n, b, (size_t)n, ipiv, info);
}

int main(int argc, char **argv)
{
    tsl_context *ctx;
    if (argc < 2 || tsl_context_create(NULL, &ctx) != TSL_OK) {
        fprintf(stderr, "usage: tessel_lapack_time N... (%s)\n", tsl_last_error());
        return 2;
    }
    const char *var = getenv("LT_VARIANT"), *only = getenv("LT_ROUTINES");
    if (var && tsl_context_set_variant(ctx, "getrf", var) != TSL_OK) {
        fprintf(stderr, "%s\n", tsl_context_error(ctx));
        return 2;
    }
    for (int a = 1; a < argc; a++) {
        int n = atoi(argv[a]);
        for (int dbl = 1; dbl >= 0; dbl--) {
            size_t es = dbl ? 8 : 4, bytes = (size_t)n * (size_t)n * es;
            void *h = malloc(bytes);
            int *ipiv = malloc((size_t)n * sizeof(int)), info = 0;
            void *tau = malloc((size_t)n * es);
            tsl_buffer *b;
            if (!h || !ipiv || !tau || tsl_buffer_create(ctx, bytes, &b) != TSL_OK) return 1;
            for (int kind = 0; kind < 3; kind++) {
                int chol = kind == 1;
                char routine[8];
                snprintf(routine, sizeof routine, "%s%s", dbl ? "d" : "s",
                         kind == 1   ? "potrf"
                         : kind == 2 ? "geqrf"
                                     : "getrf");
                if (only && !strstr(only, routine)) continue;
                srand(3);
                for (size_t i = 0; i < (size_t)n * n; i++) {
                    double v = rand() / (double)RAND_MAX - 0.5;
                    if (chol && i % ((size_t)n + 1) == 0) v += n;
                    if (dbl) ((double *)h)[i] = v;
                    else ((float *)h)[i] = (float)v;
                }
                double best = 1e30;
                for (int r = 0; r < 4; r++) {
                    tsl_buffer_write(ctx, b, 0, bytes, h);
                    double t0 = now();
                    if (factor(ctx, dbl, kind, n, b, ipiv, &info, tau) != TSL_OK) {
                        fprintf(stderr, "%s\n", tsl_context_error(ctx));
                        return 1;
                    }
                    double dt = now() - t0;
                    if (r && dt < best) best = dt;
                }
                double fl = (kind == 1 ? 1.0 / 3 : kind == 2 ? 4.0 / 3 : 2.0 / 3) * n * (double)n * n;
                printf("tessel,%s,%s,%d,%.2f,%.2f,%d\n", var ? var : "auto", routine, n, best * 1e3,
                       fl / best / 1e12, info);
                fflush(stdout);
            }
            tsl_buffer_destroy(b);
            free(h), free(ipiv), free(tau);
        }
    }
    /* LT_SOLVERS=1: tsl_dgesv, tsl_dsgesv, tsl_dposv and tsl_dsposv from host memory, one
     * right-hand side (the matrix as above made symmetric, n added to the diagonal: well
     * conditioned, positive definite); the info column of the mixed solvers' rows is their iter; stderr: the backward error |A x - b|_inf / (|A|_inf |x|_inf n eps) */
    for (int a = 1; getenv("LT_SOLVERS") && a < argc; a++) {
        int n = atoi(argv[a]);
        size_t nn = (size_t)n * n;
        double *a0 = malloc(nn * 8), *m = malloc(nn * 8), *bb = malloc((size_t)n * 8),
               *x = malloc((size_t)n * 8);
        int *ipiv = malloc((size_t)n * sizeof(int)), info = 0, iter = 0;
        if (!a0 || !m || !bb || !x || !ipiv) return 1;
        srand(5);
        for (size_t i = 0; i < nn; i++) a0[i] = rand() / (double)RAND_MAX - 0.5 + (i % ((size_t)n + 1) == 0 ? n : 0);
        for (int i = 0; i < n; i++) bb[i] = rand() / (double)RAND_MAX - 0.5;
        for (size_t j = 0; j < (size_t)n; j++)
            for (size_t i = 0; i < j; i++) a0[i + j * n] = a0[j + i * n];
        /* 0 dgesv, 1 dsgesv, 2 dposv, 3 dsposv (lower) */
        for (int which = 0; which < 4; which++) {
            int mixed = which & 1, chol = which >> 1;
            double best = 1e30;
            for (int r = 0; r < 3; r++) {
                memcpy(m, a0, nn * 8);
                if (!mixed) memcpy(x, bb, (size_t)n * 8);
                double t0 = now();
                size_t un = (size_t)n;
                tsl_layout L = TSL_COL_MAJOR;
                tsl_status s =
                    which == 0 ? tsl_dgesv(ctx, L, un, 1, m, un, ipiv, x, un, &info)
                    : which == 1 ? tsl_dsgesv(ctx, L, un, 1, m, un, ipiv, bb, un, x, un, &iter, &info)
                    : which == 2 ? tsl_dposv(ctx, L, TSL_LOWER, un, 1, m, un, x, un, &info)
                                 : tsl_dsposv(ctx, L, TSL_LOWER, un, 1, m, un, bb, un, x, un, &iter,
                                              &info);
                double dt = now() - t0;
                if (s != TSL_OK) {
                    fprintf(stderr, "%s\n", tsl_context_error(ctx));
                    return 1;
                }
                if (r && dt < best) best = dt;
            }
            double an = 0, xn = 0, rn = 0;
            for (int i = 0; i < n; i++) {
                double row = 0, res = -bb[i];
                for (int j = 0; j < n; j++) {
                    row += fabs(a0[i + (size_t)j * n]);
                    res += a0[i + (size_t)j * n] * x[j];
                }
                an = row > an ? row : an;
                rn = fabs(res) > rn ? fabs(res) : rn;
                xn = fabs(x[i]) > xn ? fabs(x[i]) : xn;
            }
            static const char *names[4] = {"dgesv", "dsgesv", "dposv", "dsposv"};
            fprintf(stderr, "%s n %d: backward error ratio %.3g\n", names[which], n,
                    rn / (an * xn * n * 2.220446049250313e-16));
            double fl = (chol ? 1.0 / 3 : 2.0 / 3) * n * (double)n * n + 2.0 * n * (double)n;
            printf("tessel,host,%s,%d,%.2f,%.2f,%d\n", names[which], n, best * 1e3,
                   fl / best / 1e12, mixed ? iter : info);
            fflush(stdout);
        }
        free(a0), free(m), free(bb), free(x), free(ipiv);
    }
    tsl_context_destroy(ctx);
    return 0;
}
