/* stats.c: per-routine call counts and times of the drop-in BLAS, kept with atomics so any number
 * of threads can count at once; with TESSEL_BLAS_VERBOSE=1 route.c prints them at exit: one header
 * line (the process, the route, each device with the calibration figures the cost model used, the
 * CPU BLAS), then one line per routine that was called: how many calls ran on the CPU and on the
 * device, the wall time of each, and how many device calls failed and were redone on the CPU. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blas/route.h"

static _Atomic(tsl__blas_stat *) g_stats;

/* Per-call times are only kept for the report: without TESSEL_BLAS_VERBOSE the clock reads 0 and
 * costs nothing, since clock_gettime (about 0.1 us in a VM) twice per call is a noticeable part
 * of a 32^3 dgemm's 2 to 3 us. The calls are counted either way. */
static int g_timing;

double tsl__blas_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double tsl__blas_clock(void) { return g_timing ? tsl__blas_now() : 0; }

void tsl__blas_stats_timing(int on) { g_timing = on; }

void tsl__blas_stat_add(tsl__blas_stat *st, int device, double seconds)
{
    int expected = 0;
    if (!atomic_load_explicit((_Atomic int *)&st->registered, memory_order_relaxed) &&
        atomic_compare_exchange_strong((_Atomic int *)&st->registered, &expected, 1)) {
        tsl__blas_stat *head = atomic_load(&g_stats);
        do st->next = head;
        while (!atomic_compare_exchange_weak(&g_stats, &head, st));
    }
    atomic_fetch_add_explicit((_Atomic unsigned long long *)&st->calls[device], 1ull,
                              memory_order_relaxed);
    if (seconds > 0)
        atomic_fetch_add_explicit((_Atomic unsigned long long *)&st->nanos[device],
                                  (unsigned long long)(seconds * 1e9), memory_order_relaxed);
}

void tsl__blas_cpu_done(const tsl__blas_call *call, double t0)
{
    tsl__blas_stat_add(call->stat, 0, tsl__blas_clock() - t0);
}

void tsl__blas_stats_print(void *file, const char *header)
{
    FILE *out = file;
    tsl__blas_stat *list[512];
    size_t n = 0;
    for (tsl__blas_stat *s = atomic_load(&g_stats); s && n < 512; s = s->next) list[n++] = s;
    /* sorted by name, so two runs compare line by line */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(list[j - 1]->name, list[j]->name) > 0; j--) {
            tsl__blas_stat *t = list[j];
            list[j] = list[j - 1];
            list[j - 1] = t;
        }
    fprintf(out, "tessel-blas: %s\n", header);
    fprintf(out, "tessel-blas: %-14s %10s %12s %10s %12s %10s\n", "routine", "cpu_calls", "cpu_s",
            "dev_calls", "dev_s", "dev_failed");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "tessel-blas: %-14s %10llu %12.6f %10llu %12.6f %10llu\n", list[i]->name,
                list[i]->calls[0], (double)list[i]->nanos[0] * 1e-9, list[i]->calls[1],
                (double)list[i]->nanos[1] * 1e-9, list[i]->fallbacks);
}
