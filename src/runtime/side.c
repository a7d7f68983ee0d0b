/* side.c: side queues, for the kernels of one call that may run at once (runtime.h). On devices
 * other than GPUs the side queues are the context's own queue (the commands run in the order they
 * are given, each "side" with its own workspace slots still): PoCL 3.1's CPU device failed an
 * assertion (pocl_release_dlhandle_cache: found->ref_count > 0) in about one run of ten with the
 * same kernels on five queues at once, and a CPU gains nothing from the overlap. */
#include <string.h>

#include "runtime/runtime.h"

static int real_sides(const tsl_context *ctx) { return strcmp(ctx->info.type, "gpu") == 0; }

static tsl_status marker(tsl_context *ctx, cl_command_queue q, cl_event *ev)
{
    cl_int err = clEnqueueMarkerWithWaitList(q, 0, NULL, ev);
    if (err == CL_SUCCESS) err = clFlush(q);
    return err == CL_SUCCESS ? TSL_OK : tsl__cl_fail(ctx, "clEnqueueMarkerWithWaitList", err, "a side queue");
}

static tsl_status wait_on(tsl_context *ctx, cl_command_queue q, cl_uint n, const cl_event *evs)
{
    cl_int err = clEnqueueBarrierWithWaitList(q, n, evs, NULL);
    return err == CL_SUCCESS ? TSL_OK : tsl__cl_fail(ctx, "clEnqueueBarrierWithWaitList", err, "a side queue");
}

tsl_status tsl__side_fork(tsl_context *ctx, int n) { return tsl__side_fork_light(ctx, n, 0); }

tsl_status tsl__side_fork_light(tsl_context *ctx, int n, int light)
{
    if (n < 0 || n > TSL__SIDE_QUEUES)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "side queues: %d asked, %d at most (internal)",
                         n, TSL__SIDE_QUEUES);
    for (int i = 0; i < n; ++i)
        if (!ctx->side[i]) {
            if (!real_sides(ctx)) {
                ctx->side[i] = ctx->main_q;
                clRetainCommandQueue(ctx->main_q);
                continue;
            }
            cl_int err;
            ctx->side[i] =
                clCreateCommandQueue(ctx->cl, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
            if (!ctx->side[i]) return tsl__cl_fail(ctx, "clCreateCommandQueue", err, "a side queue");
        }
    cl_event ev = NULL;
    tsl_status s = marker(ctx, ctx->main_q, &ev);
    ctx->sharing = n + 1 - (light < 0 ? 0 : light > n ? n : light);
    for (int i = 0; s == TSL_OK && i < n; ++i)
        if (ctx->side[i] != ctx->main_q) s = wait_on(ctx, ctx->side[i], 1, &ev);
    if (ev) clReleaseEvent(ev);
    return s;
}

void tsl__side_use(tsl_context *ctx, int i)
{
    if (ctx->queue != ctx->main_q) clFlush(ctx->queue); /* the side's commands start now */
    ctx->queue = i < 0 ? ctx->main_q : ctx->side[i];
    ctx->ws_base = i < 0 ? 0 : (i + 1) * TSL__WORKSPACES;
}

int tsl__device_sharing(const tsl_context *ctx) { return ctx->sharing > 1 ? ctx->sharing : 1; }

static void drop_mark(tsl_context *ctx)
{
    if (ctx->mark) clReleaseEvent(ctx->mark);
    ctx->mark = NULL;
}

tsl_status tsl__side_mark(tsl_context *ctx)
{
    drop_mark(ctx);
    return marker(ctx, ctx->queue, &ctx->mark);
}

tsl_status tsl__side_wait(tsl_context *ctx)
{
    return ctx->mark ? wait_on(ctx, ctx->queue, 1, &ctx->mark) : TSL_OK;
}

tsl_status tsl__side_join(tsl_context *ctx, int n)
{
    tsl__side_use(ctx, -1);
    ctx->sharing = 0;
    drop_mark(ctx);
    cl_event evs[TSL__SIDE_QUEUES];
    cl_uint got = 0;
    tsl_status s = TSL_OK;
    for (int i = 0; i < n && i < TSL__SIDE_QUEUES; ++i) {
        if (!ctx->side[i] || ctx->side[i] == ctx->main_q) continue;
        cl_event ev = NULL;
        tsl_status m = marker(ctx, ctx->side[i], &ev);
        if (m == TSL_OK) evs[got++] = ev;
        else { /* the host waits instead */
            clFinish(ctx->side[i]);
            if (s == TSL_OK) s = m;
        }
    }
    if (got) {
        tsl_status w = wait_on(ctx, ctx->main_q, got, evs);
        if (w != TSL_OK) {
            clWaitForEvents(got, evs);
            if (s == TSL_OK) s = w;
        }
    }
    for (cl_uint i = 0; i < got; ++i) clReleaseEvent(evs[i]);
    return s;
}
