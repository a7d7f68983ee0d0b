/* context.c: a tessel context is one device, its OpenCL context and one in-order queue with
 * profiling on, plus what the context remembers between calls: built programs, scratch buffers,
 * the chosen variant per operation, the last error, warnings and the last call's timing breakdown.
 * The layers above keep their own per-context state (the tuning database) in the context's ext
 * slot, made where it is first needed; this file only frees it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runtime/runtime.h"

tsl_status tsl_context_create(const char *device_spec, tsl_context **out)
{
    if (!out) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_context_create: out is NULL");
    *out = NULL;
    tsl_context *ctx = tsl__calloc(1, sizeof *ctx);
    if (!ctx) return tsl__fail(NULL, TSL_ERR_OUT_OF_MEMORY, "tsl_context_create: out of host memory");
    double t0 = tsl__now_ms(), t_all = t0;
    tsl_status s = tsl__find_device(device_spec, &ctx->platform, &ctx->device, &ctx->info);
    if (s != TSL_OK) {
        tsl__free(ctx);
        return s;
    }
    tsl__trace(t0, "device found: %s", ctx->info.name);
    t0 = tsl__now_ms();
    ctx->nv_cc = tsl__nv_query_compute_capability(ctx);
    ctx->nv_registers = tsl__device_query_registers(ctx);
    ctx->trace_level = tsl__trace_level();
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)ctx->platform, 0};
    ctx->cl = clCreateContext(props, 1, &ctx->device, NULL, NULL, &err);
    if (!ctx->cl) {
        s = tsl__cl_fail(NULL, "clCreateContext", err, ctx->info.name);
        tsl__free(ctx);
        return s;
    }
    ctx->queue = clCreateCommandQueue(ctx->cl, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!ctx->queue) {
        s = tsl__cl_fail(NULL, "clCreateCommandQueue", err, ctx->info.name);
        clReleaseContext(ctx->cl);
        tsl__free(ctx);
        return s;
    }
    ctx->main_q = ctx->queue;
    tsl__trace(t0, "compute capability, clCreateContext, clCreateCommandQueue");
    t0 = tsl__now_ms();
    tsl__cache_dir_init(ctx);
    tsl__trace(t0, "cache directory");
    tsl__trace(t_all, "tsl_context_create");
    *out = ctx;
    return TSL_OK;
}

void tsl_context_destroy(tsl_context *ctx)
{
    if (!ctx) return;
    for (int i = 0; i < TSL__EXT_SLOTS; ++i)
        if (ctx->ext[i].ptr) ctx->ext[i].release(ctx->ext[i].ptr);
    ctx->queue = ctx->main_q;
    for (int i = 0; i < TSL__SIDE_QUEUES; ++i)
        if (ctx->side[i]) clFinish(ctx->side[i]);
    if (ctx->queue) clFinish(ctx->queue);
    for (int i = 0; i < ctx->nevents; ++i) clReleaseEvent(ctx->events[i]);
    if (ctx->mark) clReleaseEvent(ctx->mark);
    if (ctx->queue) tsl__pinned_release_all(ctx); /* needs the queue to unmap */
    for (int i = 0; i < ctx->nprograms; ++i) {
        for (int k = 0; k < ctx->programs[i].nkernels; ++k) clReleaseKernel(ctx->programs[i].kernels[k]);
        clReleaseProgram(ctx->programs[i].program);
    }
    for (int i = 0; i < TSL__WORKSPACES * (1 + TSL__SIDE_QUEUES); ++i)
        if (ctx->workspace[i].mem) clReleaseMemObject(ctx->workspace[i].mem);
    if (ctx->counters.mem) clReleaseMemObject(ctx->counters.mem);
    for (int i = 0; i < TSL__SIDE_QUEUES; ++i)
        if (ctx->side[i]) clReleaseCommandQueue(ctx->side[i]);
    if (ctx->queue) clReleaseCommandQueue(ctx->queue);
    if (ctx->cl) clReleaseContext(ctx->cl);
    tsl__free(ctx);
}

const char *tsl_context_error(const tsl_context *ctx) { return ctx ? ctx->error : "context is NULL"; }

void tsl__warn(tsl_context *ctx, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t used = strlen(ctx->warning);
    if (used + 3 >= sizeof ctx->warning) return;
    snprintf(ctx->warning + used, sizeof ctx->warning - used, "%s%s", used ? "; " : "", msg);
}

tsl_status tsl_context_device(const tsl_context *ctx, tsl_device_info *info)
{
    if (!ctx || !info)
        return tsl__fail((tsl_context *)ctx, TSL_ERR_INVALID_ARG, "tsl_context_device: %s is NULL",
                         ctx ? "info" : "ctx");
    *info = ctx->info;
    return TSL_OK;
}

tsl_status tsl_context_timing(const tsl_context *ctx, tsl_timing *out)
{
    if (!ctx || !out)
        return tsl__fail((tsl_context *)ctx, TSL_ERR_INVALID_ARG, "tsl_context_timing: %s is NULL",
                         ctx ? "out" : "ctx");
    *out = ctx->timing;
    return TSL_OK;
}

cl_context tsl_context_cl_context(const tsl_context *ctx) { return ctx ? ctx->cl : NULL; }
cl_device_id tsl_context_cl_device(const tsl_context *ctx) { return ctx ? ctx->device : NULL; }
cl_command_queue tsl_context_cl_queue(const tsl_context *ctx) { return ctx ? ctx->queue : NULL; }

const char *tsl__context_variant(const tsl_context *ctx, const char *op)
{
    for (int i = 0; i < ctx->nvariants; ++i)
        if (strcmp(ctx->variants[i].op, op) == 0) return ctx->variants[i].variant;
    return "auto";
}

tsl_status tsl__context_store_variant(tsl_context *ctx, const char *op, const char *variant)
{
    int i = 0;
    while (i < ctx->nvariants && strcmp(ctx->variants[i].op, op) != 0) ++i;
    if (i == ctx->nvariants) {
        if (i == TSL__MAX_OPS) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "too many operations");
        ctx->nvariants++;
    }
    if (strlen(variant) >= sizeof ctx->variants[i].variant)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "variant '%.40s...' is longer than %zu characters",
                         variant, sizeof ctx->variants[i].variant - 1);
    snprintf(ctx->variants[i].op, sizeof ctx->variants[i].op, "%s", op);
    snprintf(ctx->variants[i].variant, sizeof ctx->variants[i].variant, "%s", variant);
    return TSL_OK;
}

long tsl__context_option(const tsl_context *ctx, const char *op, const char *name, long fallback)
{
    for (int i = 0; i < ctx->noptions; ++i)
        if (strcmp(ctx->options[i].op, op) == 0 && strcmp(ctx->options[i].name, name) == 0)
            return ctx->options[i].value;
    return fallback;
}

tsl_status tsl__context_store_option(tsl_context *ctx, const char *op, const char *name, long value)
{
    int i = 0;
    while (i < ctx->noptions &&
           (strcmp(ctx->options[i].op, op) != 0 || strcmp(ctx->options[i].name, name) != 0))
        ++i;
    if (i == ctx->noptions) {
        if (i == (int)(sizeof ctx->options / sizeof ctx->options[0]))
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "too many options");
        ctx->noptions++;
    }
    snprintf(ctx->options[i].op, sizeof ctx->options[i].op, "%s", op);
    snprintf(ctx->options[i].name, sizeof ctx->options[i].name, "%s", name);
    ctx->options[i].value = value;
    return TSL_OK;
}

/* ---- timing from profiling events ---------------------------------------------------------- */

void tsl__timing_begin(tsl_context *ctx)
{
    memset(&ctx->timing, 0, sizeof ctx->timing);
    ctx->kernel_end = 0;
    tsl__clear_error(ctx);
}

/* Books the first n tracked events (completed) into ctx->timing and releases them. Kernel time is
 * the union of the kernels' intervals: with side queues (side.c) kernels overlap, and the call's
 * kernel time is the device time in which any of them ran (one queue: the sum of their times).
 * The intervals are swept in order of their start, continuing from the last batch's end. */
static void book(tsl_context *ctx, int n)
{
    struct { cl_ulong t0, t1; } iv[TSL__MAX_EVENTS];
    int nk = 0;
    for (int i = 0; i < n; ++i) {
        cl_ulong t0 = 0, t1 = 0;
        if (clGetEventProfilingInfo(ctx->events[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0,
                                    NULL) == CL_SUCCESS &&
            clGetEventProfilingInfo(ctx->events[i], CL_PROFILING_COMMAND_END, sizeof t1, &t1,
                                    NULL) == CL_SUCCESS &&
            t1 >= t0) {
            double ms = (double)(t1 - t0) * 1e-6;
            tsl__event_kind kind = ctx->event_kinds[i];
            if (kind == TSL__EV_UPLOAD) ctx->timing.upload_ms += ms;
            else if (kind == TSL__EV_KERNEL) iv[nk].t0 = t0, iv[nk++].t1 = t1;
            else ctx->timing.download_ms += ms;
            if (ctx->trace_level >= 2) { /* 3: also when it started, after the first */
                if (!ctx->trace_origin) ctx->trace_origin = t0;
                char at[48] = "";
                if (ctx->trace_level >= 3)
                    snprintf(at, sizeof at, "  (at %.1f us)",
                             t0 >= ctx->trace_origin ? (double)(t0 - ctx->trace_origin) * 1e-3 : 0.0);
                fprintf(stderr, "tessel: trace: %10.1f us  %s%s\n", ms * 1e3,
                        kind == TSL__EV_KERNEL ? (*ctx->event_labels[i] ? ctx->event_labels[i]
                                                                         : "kernel")
                        : kind == TSL__EV_UPLOAD ? "upload"
                                                 : "download",
                        at);
            }
        }
        clReleaseEvent(ctx->events[i]);
    }
    for (int i = 1; i < nk; ++i) /* insertion sort by start: few, mostly in order */
        for (int j = i; j > 0 && iv[j].t0 < iv[j - 1].t0; --j) {
            cl_ulong a = iv[j].t0, b = iv[j].t1;
            iv[j] = iv[j - 1];
            iv[j - 1].t0 = a, iv[j - 1].t1 = b;
        }
    for (int i = 0; i < nk; ++i) {
        cl_ulong from = iv[i].t0 > ctx->kernel_end ? iv[i].t0 : ctx->kernel_end;
        if (iv[i].t1 > from) ctx->timing.kernel_ms += (double)(iv[i].t1 - from) * 1e-6;
        if (iv[i].t1 > ctx->kernel_end) ctx->kernel_end = iv[i].t1;
    }
}

static cl_int drain(tsl_context *ctx)
{
    cl_int err = clFinish(ctx->queue);
    book(ctx, ctx->nevents);
    ctx->nevents = 0;
    return err;
}

/* A full table waits for its older half only (every one of them: with side queues they are not
 * in one queue's order), and the newer half keeps the device busy meanwhile (a Jacobi strip
 * queues its next launches while the last ones run; a clFinish here would empty its queue). */
static void drain_older_half(tsl_context *ctx)
{
    int half = ctx->nevents / 2;
    clWaitForEvents((cl_uint)half, ctx->events);
    book(ctx, half);
    for (int i = half; i < ctx->nevents; ++i) {
        ctx->events[i - half] = ctx->events[i];
        ctx->event_kinds[i - half] = ctx->event_kinds[i];
        memcpy(ctx->event_labels[i - half], ctx->event_labels[i], sizeof ctx->event_labels[i]);
    }
    ctx->nevents -= half;
}

void tsl__track_event(tsl_context *ctx, cl_event ev, tsl__event_kind kind)
{
    if (!ev) return;
    if (ctx->nevents == TSL__MAX_EVENTS) drain_older_half(ctx);
    ctx->events[ctx->nevents] = ev;
    memcpy(ctx->event_labels[ctx->nevents], ctx->launch_label, sizeof ctx->launch_label);
    ctx->launch_label[0] = '\0';
    ctx->event_kinds[ctx->nevents++] = kind;
}

tsl_status tsl__timing_end(tsl_context *ctx)
{
    cl_int err = drain(ctx);
    if (err != CL_SUCCESS) return tsl__cl_fail(ctx, "clFinish", err, "waiting for the device");
    return TSL_OK;
}
