/* trace.c: the library's clock (tsl__now_ms, tsl__deadline_after_ms for the timed waits of its
 * worker threads) and its start-up trace. TESSEL_TRACE=1 in the environment makes the library print, on stderr, how long each
 * step of its start-up and of a program build took (device discovery per platform, context and
 * queue creation, the cache directory, the tuning database, each program: from the disk cache
 * or compiled); TESSEL_TRACE=2 adds every command's device time as its profiling event reports
 * it (each kernel launch by what it computes, its kernel and its global size: how a blocked
 * routine's time splits among its launches; the level is read once, when the context is made).
 * It is how the time from a new process to its first result is taken apart
 * (bench/latency/first_result.c); without the variable nothing is printed and the cost is one
 * getenv per step. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "runtime/runtime.h"

double tsl__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

struct timespec tsl__deadline_after_ms(double ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double total = (double)ts.tv_nsec + ms * 1e6;
    double secs = floor(total / 1e9);
    ts.tv_sec += (time_t)secs;
    ts.tv_nsec = (long)(total - secs * 1e9);
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec += 1, ts.tv_nsec -= 1000000000L;
    return ts;
}

int tsl__trace_level(void)
{
    const char *e = getenv("TESSEL_TRACE");
    if (!e || !*e || *e == '0') return 0;
    return *e >= '2' && *e <= '9' ? *e - '0' : 1;
}

int tsl__tracing(void)
{
    return tsl__trace_level() > 0;
}

void tsl__trace(double since_ms, const char *fmt, ...)
{
    if (!tsl__tracing()) return;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "tessel: trace: %8.2f ms  %s\n", tsl__now_ms() - since_ms, what);
}
