/* dist_errors.c: the MPI layer's errors (dist_internal.h): messages that name the rank, and what
 * a rank other than 0 does with a failure (report it to rank 0, then wait to be stopped); and
 * the clock and the pause every wait of the layer uses. */
#define _POSIX_C_SOURCE 200809L
#include "multi/dist_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void tsl__dist_label(const tsl_dist *d, int r, char *out, size_t cap)
{
    const tsl_device_info *i = &d->infos[r];
    snprintf(out, cap, "rank %d (%d:%d %s)", r, i->platform_index, i->device_index, i->name);
}

tsl_status tsl__dist_fail(tsl_dist *d, tsl_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->error, sizeof d->error, fmt, ap);
    va_end(ap);
    return s;
}

/* An MPI call that failed: its error string, from this rank. */
tsl_status tsl__dist_mpi_fail(tsl_dist *d, const char *call, int rc)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, text, &len);
    char me[300];
    tsl__dist_label(d, d->rank, me, sizeof me);
    return tsl__dist_fail(d, TSL_ERR_OPENCL, "%s: %s failed: %s", me, call, text);
}

double tsl__dist_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double tsl__dist_now_ms(void)
{
    return tsl__dist_now_s() * 1e3;
}

void tsl__dist_pause(long ns)
{
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
}

/* A rank other than 0 failed: tell rank 0 (which reports it and stops the job), then wait to be
 * stopped; if rank 0 does not (it may be the rank that hangs), report it here and stop the job. */
static void rank_failed(tsl_dist *d) __attribute__((noreturn));
static void rank_failed(tsl_dist *d)
{
    MPI_Request req;
    int len = (int)strlen(d->error) + 1;
    if (MPI_Isend(d->error, len, MPI_CHAR, 0, TAG_FAIL, MPI_COMM_WORLD, &req) == MPI_SUCCESS) {
        double until = tsl__dist_now_s() + d->timeout_s;
        int done = 0;
        while (tsl__dist_now_s() < until) {
            if (!done) MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            tsl__dist_pause(1000000);
        }
    }
    fprintf(stderr, "tessel: error: %s (rank 0 did not stop the job)\n", d->error);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
    _exit(3);
}

/* The status a call returns: on rank 0 as it is; elsewhere a failure never comes back. */
tsl_status tsl__dist_settle(tsl_dist *d, tsl_status s)
{
    if (s != TSL_OK && d->rank != 0) rank_failed(d);
    return s;
}

tsl_status tsl__dist_context_fail(tsl_dist *d, tsl_status s)
{
    char me[300];
    tsl__dist_label(d, d->rank, me, sizeof me);
    char msg[1800];
    snprintf(msg, sizeof msg, "%s", tsl_context_error(d->ctx));
    return tsl__dist_fail(d, s, "%s: %s", me, msg);
}
