/* trace.c: TESSEL_TRACE=1 in the environment makes the library print, on stderr, how long each
 * step of its start-up and of a program build took (device discovery per platform, context and
 * queue creation, the cache directory, the tuning database, each program: from the disk cache
 * or compiled). It is how the time from a new process to its first result is taken apart
 * (bench/latency/first_result.c); without the variable nothing is printed and the cost is one
 * getenv per step. */
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

int tsl__tracing(void)
{
    const char *e = getenv("TESSEL_TRACE");
    return e && *e && *e != '0';
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
