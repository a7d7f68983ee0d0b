/* peer_common.c: what every peer shares (peers.h, "for the peer implementations"): the host
 * clock, the result's status line, CBLAS storage sizes, the timed runs of an OpenCL peer, and the
 * checks every CLBlast peer makes first. */
#define _POSIX_C_SOURCE 200809L
#include "peers.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "tessel_cl.h"

double tsl__peer_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void tsl__peer_set(tsl_peer_result *res, tsl_peer_status status, const char *fmt, ...)
{
    res->status = status;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(res->reason, sizeof res->reason, fmt, ap);
    va_end(ap);
}

int tsl_peer_matrix_elems(tsl_layout layout, tsl_trans trans, size_t rows, size_t cols, size_t ld,
                          size_t *elems)
{
    size_t srows = trans != TSL_NO_TRANS ? cols : rows; /* as stored */
    size_t scols = trans != TSL_NO_TRANS ? rows : cols;
    size_t lines = layout == TSL_COL_MAJOR ? scols : srows;
    size_t len = layout == TSL_COL_MAJOR ? srows : scols;
    if (ld < (len ? len : 1)) return -1;
    if (lines == 0 || len == 0) {
        *elems = 0;
        return 0;
    }
    if (lines > SIZE_MAX / ld) return -1;
    *elems = lines * ld;
    return 0;
}

static double event_ns(cl_event ev, cl_profiling_info what, int *ok)
{
    cl_ulong t = 0;
    if (clGetEventProfilingInfo(ev, what, sizeof t, &t, NULL) != CL_SUCCESS) *ok = 0;
    return (double)t;
}

int tsl__peer_timed_cl_call(void *queue_, int (*call)(void *state, void **ev), void *state,
                            double *ms)
{
    cl_command_queue queue = queue_;
    cl_event marker = NULL, ev = NULL;
    int marker_ok = clEnqueueMarkerWithWaitList(queue, 0, NULL, &marker) == CL_SUCCESS;
    double t0 = tsl__peer_now_ms();
    int st = call(state, (void **)&ev);
    if (st == 0) {
        cl_int wait = ev ? clWaitForEvents(1, &ev) : clFinish(queue);
        double host_ms = tsl__peer_now_ms() - t0;
        if (wait != CL_SUCCESS) {
            st = wait;
        } else {
            int ok = marker_ok && ev;
            double end = ev ? event_ns(ev, CL_PROFILING_COMMAND_END, &ok) : 0.0;
            double start = ok ? event_ns(marker, CL_PROFILING_COMMAND_END, &ok) : 0.0;
            *ms = (ok && start > 0 && start <= end) ? (end - start) * 1e-6 : host_ms;
        }
    }
    if (marker) clReleaseEvent(marker);
    if (ev) clReleaseEvent(ev);
    return st;
}

int tsl__peer_cl_runs(tsl_context *ctx, int (*call)(void *state, void **ev), void *state,
                      const tsl__peer_reset *reset, unsigned warmup, unsigned repeat,
                      tsl_peer_result *res, int *reset_failed)
{
    void *queue = tsl_context_cl_queue(ctx);
    *reset_failed = 0;
    if (!warmup) warmup = 1;
    double first_ms = 0.0, fastest = 0.0;
    for (unsigned run = 0; run < warmup + repeat; ++run) {
        if (reset && tsl_buffer_write(ctx, reset->buf, 0, reset->bytes, reset->host) != TSL_OK) {
            *reset_failed = 1;
            return -1;
        }
        double ms = 0.0, t0 = tsl__peer_now_ms();
        int st = tsl__peer_timed_cl_call(queue, call, state, &ms);
        if (run == 0) first_ms = tsl__peer_now_ms() - t0;
        if (st != 0) return st;
        if (run >= warmup) {
            res->run_ms[run - warmup] = ms;
            if (run == warmup || ms < fastest) fastest = ms;
        }
    }
    res->build_ms = first_ms > fastest ? first_ms - fastest : 0.0;
    return 0;
}

int tsl__peer_clblast_ready(tsl_context *ctx, int is_double, tsl_peer_result *res)
{
    tsl_device_info info;
    if (!ctx || tsl_context_device(ctx, &info) != TSL_OK) {
        tsl__peer_set(res, TSL_PEER_ERROR, "CLBlast needs tessel's OpenCL context");
        return 0;
    }
    snprintf(res->device, sizeof res->device, "%s", info.name);
    if (is_double && !info.fp64) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "device %s has no double precision", info.name);
        return 0;
    }
    return 1;
}

void tsl__peer_clblast_missing(tsl_context *ctx, tsl_peer_result *res)
{
    tsl_device_info info;
    if (ctx && tsl_context_device(ctx, &info) == TSL_OK)
        snprintf(res->device, sizeof res->device, "%s", info.name);
    tsl__peer_set(res, TSL_PEER_SKIPPED,
                  "this tessel was built without CLBlast (install libclblast-dev and reconfigure "
                  "with cmake)");
}
