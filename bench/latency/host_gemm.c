/* host_gemm.c: GEMM from host memory, end to end, as a program that keeps its matrices in its own
 * arrays sees it: tsl_sgemm / tsl_dgemm on host pointers, timed by the host clock around the
 * whole call (uploads, kernels, downloads), with the call's own breakdown beside it. It is how the
 * host-memory pipeline (src/pipeline/gemm_pipeline.c: a ring of pinned staging, host copies on several
 * threads, overlapped chunks) is compared with the plain path on one device: run it with
 * TESSEL_GEMM_PIPELINE=0, 1 and auto (the model's choice).
 *   tessel_host_gemm [N] [single|double] [RUNS] [pageable|pinned]     (16384 single 4 pageable)
 * pinned: the matrices come from tsl_host_alloc (the pipeline then moves them without staging;
 * N^2 elements must fit the device's largest allocation). Each result is spot-checked against a
 * CPU sum at a few entries; run 0 includes the program builds and the first allocation of device
 * and pinned buffers. A first line gives the host's memcpy bandwidth on 1 thread and on as many
 * as the pipeline's copy crew uses (min(online cores, 8), $TESSEL_GEMM_COPY_THREADS): the
 * pipeline's end-to-end time is bounded by its host copies (A, B and C once each) at the second
 * rate, the plain path's by the driver's pageable transfers. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tessel.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct {
    char *dst;
    const char *src;
    size_t bytes;
} copy_part;

static void *copy_main(void *arg)
{
    copy_part *p = arg;
    memcpy(p->dst, p->src, p->bytes);
    return NULL;
}

/* GB/s of copying `bytes` between two touched arrays on `threads` threads (best of 3). */
static double memcpy_gbs(char *dst, const char *src, size_t bytes, int threads)
{
    double best = 0;
    for (int rep = 0; rep < 3; ++rep) {
        pthread_t th[64];
        copy_part part[64];
        double t0 = now_s();
        for (int i = 0; i < threads; ++i) {
            size_t lo = bytes / (size_t)threads * (size_t)i;
            size_t hi = i + 1 == threads ? bytes : bytes / (size_t)threads * (size_t)(i + 1);
            part[i] = (copy_part){dst + lo, src + lo, hi - lo};
            if (i > 0 && pthread_create(&th[i], NULL, copy_main, &part[i]) != 0) return 0;
        }
        copy_main(&part[0]);
        for (int i = 1; i < threads; ++i)
            pthread_join(th[i], NULL);
        double gbs = (double)bytes / (now_s() - t0) / 1e9;
        if (gbs > best) best = gbs;
    }
    return best;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 16384;
    int dbl = argc > 2 && strcmp(argv[2], "double") == 0;
    int runs = argc > 3 ? atoi(argv[3]) : 4;
    int pinned = argc > 4 && strcmp(argv[4], "pinned") == 0;
    const char *mode = getenv("TESSEL_GEMM_PIPELINE") ? getenv("TESSEL_GEMM_PIPELINE") : "unset";
    size_t es = dbl ? sizeof(double) : sizeof(float);
    tsl_context *ctx;
    if (tsl_context_create(NULL, &ctx) != TSL_OK) {
        fprintf(stderr, "host_gemm: %s\n", tsl_last_error());
        return 3;
    }
    void *a = NULL, *b = NULL, *c = NULL;
    if (pinned) {
        if (tsl_host_alloc(ctx, n * n * es, &a) != TSL_OK ||
            tsl_host_alloc(ctx, n * n * es, &b) != TSL_OK ||
            tsl_host_alloc(ctx, n * n * es, &c) != TSL_OK) {
            fprintf(stderr, "host_gemm: %s\n", tsl_context_error(ctx));
            return 3;
        }
    } else {
        a = malloc(n * n * es), b = malloc(n * n * es), c = malloc(n * n * es);
    }
    if (!a || !b || !c) {
        fprintf(stderr, "host_gemm: out of host memory\n");
        return 3;
    }
    {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        const char *env = getenv("TESSEL_GEMM_COPY_THREADS");
        int crew = env ? atoi(env) : cores > 8 ? 8 : cores < 1 ? 1 : (int)cores;
        crew = crew < 1 ? 1 : crew > 64 ? 64 : crew;
        memset(a, 1, n * n * es), memset(c, 2, n * n * es); /* touched, as the matrices will be */
        double one = memcpy_gbs(c, a, n * n * es, 1), many = memcpy_gbs(c, a, n * n * es, crew);
        printf("memcpy bytes=%zu gbs_1_thread=%.1f gbs_%d_threads=%.1f online_cores=%ld\n",
               n * n * es, one, crew, many, cores);
    }
    unsigned long long x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < n * n; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double va = (double)((x >> 40) % 2001) / 1000.0 - 1.0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double vb = (double)((x >> 40) % 2001) / 1000.0 - 1.0;
        if (dbl)
            ((double *)a)[i] = va, ((double *)b)[i] = vb;
        else
            ((float *)a)[i] = (float)va, ((float *)b)[i] = (float)vb;
    }
    int bad = 0;
    for (int r = 0; r < runs; ++r) {
        double t0 = now_s();
        tsl_status s = dbl ? tsl_dgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, n, n, n, 1.0,
                                       a, n, b, n, 0.0, c, n)
                           : tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, n, n, n,
                                       1.0f, a, n, b, n, 0.0f, c, n);
        double t = now_s() - t0;
        if (s != TSL_OK) {
            fprintf(stderr, "host_gemm: %s\n", tsl_context_error(ctx));
            return 3;
        }
        double worst = 0;
        for (size_t q = 0; q < 4; ++q) {
            size_t i = (q * 7919 + (size_t)r) % n, j = (q * 104729 + 3) % n;
            double ref = 0, mag = 0, got;
            for (size_t l = 0; l < n; ++l) {
                double p = dbl ? ((double *)a)[i * n + l] * ((double *)b)[l * n + j]
                               : (double)((float *)a)[i * n + l] * ((float *)b)[l * n + j];
                ref += p, mag += fabs(p);
            }
            got = dbl ? ((double *)c)[i * n + j] : ((float *)c)[i * n + j];
            double e = fabs(got - ref) / (mag > 0 ? mag : 1);
            if (e > worst) worst = e;
        }
        bad |= worst > (dbl ? 1e-12 : 1e-5);
        tsl_timing tm;
        tsl_context_timing(ctx, &tm);
        printf("pipeline=%s memory=%s precision=%s n=%zu run=%d wall_ms=%.1f "
               "tflops_end_to_end=%.2f kernel_ms=%.1f upload_ms=%.1f download_ms=%.1f "
               "build_ms=%.1f check=%s\n",
               mode, pinned ? "pinned" : "pageable", dbl ? "double" : "single", n, r, t * 1e3,
               2.0 * n * n * n / t / 1e12, tm.kernel_ms, tm.upload_ms, tm.download_ms, tm.build_ms,
               worst > (dbl ? 1e-12 : 1e-5) ? "FAILED" : "ok");
    }
    if (pinned)
        tsl_host_free(ctx, a), tsl_host_free(ctx, b), tsl_host_free(ctx, c);
    else
        free(a), free(b), free(c);
    tsl_context_destroy(ctx);
    return bad;
}
