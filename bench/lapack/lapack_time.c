/* lapack_time.c: device-resident tsl_[sd]getrf_buf and tsl_[sd]potrf_buf, column-major (lower for
 * potrf), at the sizes on the command line: each routine on the same random matrix (uniform in
 * [-0.5, 0.5), n added to the diagonal for potrf) rewritten into its buffer before every call,
 * one untimed call and three timed ones, the fastest kept (host clock around the call, which
 * returns when the device is done). One CSV line per case:
 *   impl,variant,routine,n,ms,tflops,info        (TFLOP/s: getrf 2n^3/3, potrf n^3/3)
 * LT_VARIANT sets getrf's variant (leaf, columns; default auto). Built as build/tessel_lapack_time;
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

static tsl_status factor(tsl_context *ctx, int dbl, int chol, int n, tsl_buffer *b, int *ipiv,
                         int *info)
{
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
    const char *var = getenv("LT_VARIANT");
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
            tsl_buffer *b;
            if (!h || !ipiv || tsl_buffer_create(ctx, bytes, &b) != TSL_OK) return 1;
            for (int chol = 0; chol < 2; chol++) {
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
                    if (factor(ctx, dbl, chol, n, b, ipiv, &info) != TSL_OK) {
                        fprintf(stderr, "%s\n", tsl_context_error(ctx));
                        return 1;
                    }
                    double dt = now() - t0;
                    if (r && dt < best) best = dt;
                }
                double fl = (chol ? 1.0 / 3 : 2.0 / 3) * n * (double)n * n;
                printf("tessel,%s,%s%s,%d,%.2f,%.2f,%d\n", var ? var : "auto", dbl ? "d" : "s",
                       chol ? "potrf" : "getrf", n, best * 1e3, fl / best / 1e12, info);
                fflush(stdout);
            }
            tsl_buffer_destroy(b);
            free(h), free(ipiv);
        }
    }
    /* LT_SOLVERS=1: tsl_dgesv and tsl_dsgesv from host memory, one right-hand side (the
     * matrix as above, n added to the diagonal: well conditioned); the info column of dsgesv's
     * row is its iter; stderr: the backward error |A x - b|_inf / (|A|_inf |x|_inf n eps) */
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
        for (int mixed = 0; mixed < 2; mixed++) {
            double best = 1e30;
            for (int r = 0; r < 3; r++) {
                memcpy(m, a0, nn * 8);
                if (!mixed) memcpy(x, bb, (size_t)n * 8);
                double t0 = now();
                tsl_status s = mixed ? tsl_dsgesv(ctx, TSL_COL_MAJOR, (size_t)n, 1, m, (size_t)n,
                                                  ipiv, bb, (size_t)n, x, (size_t)n, &iter, &info)
                                     : tsl_dgesv(ctx, TSL_COL_MAJOR, (size_t)n, 1, m, (size_t)n,
                                                 ipiv, x, (size_t)n, &info);
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
            fprintf(stderr, "%s n %d: backward error ratio %.3g\n", mixed ? "dsgesv" : "dgesv", n,
                    rn / (an * xn * n * 2.220446049250313e-16));
            double fl = 2.0 / 3 * n * (double)n * n + 2.0 * n * (double)n;
            printf("tessel,host,%s,%d,%.2f,%.2f,%d\n", mixed ? "dsgesv" : "dgesv", n, best * 1e3,
                   fl / best / 1e12, mixed ? iter : info);
            fflush(stdout);
        }
        free(a0), free(m), free(bb), free(x), free(ipiv);
    }
    tsl_context_destroy(ctx);
    return 0;
}
