/* stream.c: a second in-order queue on a context's device, for transfers that run while the
 * context's own queue computes (the host-memory GEMM pipeline, pipeline/gemm_pipeline.c). Its commands
 * never block the host: each returns at once with an event that the stream keeps, and
 * tsl__stream_finish waits for them all and books their profiled times. tsl__stream_fence makes
 * the context's queue wait, on the device, for everything the stream was given so far (a marker
 * on the stream, a barrier with that marker in its wait list on the queue: OpenCL 1.2), so a
 * kernel starts after the uploads it reads without the host waiting for them; tsl__stream_follow
 * is the reverse, downloads that start once the kernels before them have completed (a Poisson
 * strip's edge rows, ops/poisson.c). Each command has a
 * ticket, so a thread that reuses the host memory of a transfer (a ring of staging buffers) can
 * wait for that one transfer alone (tsl__stream_wait), and pinned staging can be mapped through
 * the stream's queue rather than the context's, which another thread may be using.
 *
 * The stream records its errors in its own buffer, not in the context: it may be driven by
 * another thread than the one using the context's queue, and a context is one thread's at a time.
 */
#include <stdio.h>
#include <string.h>

#include "runtime/runtime.h"

#define STREAM_EVENTS 64
#define MARKER (-1)

struct tsl__stream {
    tsl_context *ctx;
    cl_command_queue queue;
    cl_event events[STREAM_EVENTS];
    int kinds[STREAM_EVENTS];                  /* a tsl__event_kind, or MARKER (not booked) */
    unsigned long long tickets[STREAM_EVENTS]; /* each command's ticket (tsl__stream_ticket) */
    int nevents;
    unsigned long long given; /* commands given so far */
    tsl_timing booked;
    char error[1024];
};

static tsl_status stream_fail(tsl__stream *s, const char *call, cl_int err, const char *what)
{
    snprintf(s->error, sizeof s->error, "%s failed: %s (%s)", call, tsl__cl_error_name(err), what);
    return err == CL_OUT_OF_HOST_MEMORY || err == CL_MEM_OBJECT_ALLOCATION_FAILURE
               ? TSL_ERR_OUT_OF_MEMORY
               : TSL_ERR_OPENCL;
}

static void book(tsl__stream *s, cl_event ev, int kind)
{
    cl_ulong t0 = 0, t1 = 0;
    if (kind != MARKER &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL) == CL_SUCCESS &&
        t1 >= t0) {
        double ms = (double)(t1 - t0) * 1e-6;
        if (kind == TSL__EV_UPLOAD)
            s->booked.upload_ms += ms;
        else if (kind == TSL__EV_DOWNLOAD)
            s->booked.download_ms += ms;
    }
    clReleaseEvent(ev);
}

/* Waits for every command and books its event; the stream is empty afterwards. */
static cl_int drain(tsl__stream *s)
{
    cl_int err = clFinish(s->queue);
    for (int i = 0; i < s->nevents; ++i)
        book(s, s->events[i], s->kinds[i]);
    s->nevents = 0;
    return err;
}

/* Keeps ev until finish (or, a transfer, until a tsl__stream_wait for it or a later command). The
 * table holds every command between two such waits (the GEMM pipeline gives at most a few
 * dozen); a full table is an error rather than an early release, since another queue may still
 * wait for a marker. Each command is flushed to the device at once: a driver may otherwise hold
 * it back until a wait, and the pipeline's overlap needs it running. */
static tsl_status track(tsl__stream *s, cl_event ev, int kind)
{
    if (s->nevents == STREAM_EVENTS) {
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        snprintf(s->error, sizeof s->error,
                 "a transfer queue holds at most %d commands between two waits", STREAM_EVENTS);
        return TSL_ERR_OPENCL;
    }
    s->events[s->nevents] = ev;
    s->kinds[s->nevents] = kind;
    s->tickets[s->nevents++] = ++s->given;
    clFlush(s->queue);
    return TSL_OK;
}

tsl_status tsl__stream_create(tsl_context *ctx, tsl__stream **out)
{
    *out = NULL;
    tsl__stream *s = tsl__calloc(1, sizeof *s);
    if (!s) return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "a transfer queue: out of host memory");
    cl_int err;
    s->queue = clCreateCommandQueue(ctx->cl, ctx->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (!s->queue) {
        tsl__free(s);
        return tsl__cl_fail(ctx, "clCreateCommandQueue", err, "a transfer queue");
    }
    s->ctx = ctx;
    *out = s;
    return TSL_OK;
}

void tsl__stream_destroy(tsl__stream *s)
{
    if (!s) return;
    drain(s);
    clReleaseCommandQueue(s->queue);
    tsl__free(s);
}

const char *tsl__stream_error(const tsl__stream *s)
{
    return s->error;
}

tsl_status tsl__stream_write(tsl__stream *s, cl_mem mem, size_t offset, size_t bytes,
                             const void *host)
{
    if (bytes == 0) return TSL_OK;
    cl_event ev = NULL;
    cl_int err = clEnqueueWriteBuffer(s->queue, mem, CL_FALSE, offset, bytes, host, 0, NULL, &ev);
    if (err != CL_SUCCESS) return stream_fail(s, "clEnqueueWriteBuffer", err, "uploading a block");
    return track(s, ev, TSL__EV_UPLOAD);
}

tsl_status tsl__stream_read(tsl__stream *s, cl_mem mem, size_t offset, size_t bytes, void *host)
{
    if (bytes == 0) return TSL_OK;
    cl_event ev = NULL;
    cl_int err = clEnqueueReadBuffer(s->queue, mem, CL_FALSE, offset, bytes, host, 0, NULL, &ev);
    if (err != CL_SUCCESS) return stream_fail(s, "clEnqueueReadBuffer", err, "downloading a block");
    return track(s, ev, TSL__EV_DOWNLOAD);
}

tsl_status tsl__stream_write_rect(tsl__stream *s, cl_mem mem, const void *host, size_t rows,
                                  size_t row_bytes, size_t host_pitch)
{
    if (rows == 0 || row_bytes == 0) return TSL_OK;
    size_t origin[3] = {0, 0, 0}, region[3] = {row_bytes, rows, 1};
    cl_event ev = NULL;
    cl_int err = clEnqueueWriteBufferRect(s->queue, mem, CL_FALSE, origin, origin, region,
                                          row_bytes, 0, host_pitch, 0, host, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return stream_fail(s, "clEnqueueWriteBufferRect", err, "uploading a block");
    return track(s, ev, TSL__EV_UPLOAD);
}

tsl_status tsl__stream_read_rect(tsl__stream *s, cl_mem mem, void *host, size_t rows,
                                 size_t row_bytes, size_t host_pitch)
{
    if (rows == 0 || row_bytes == 0) return TSL_OK;
    size_t origin[3] = {0, 0, 0}, region[3] = {row_bytes, rows, 1};
    cl_event ev = NULL;
    cl_int err = clEnqueueReadBufferRect(s->queue, mem, CL_FALSE, origin, origin, region, row_bytes,
                                         0, host_pitch, 0, host, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return stream_fail(s, "clEnqueueReadBufferRect", err, "downloading a block");
    return track(s, ev, TSL__EV_DOWNLOAD);
}

tsl_status tsl__stream_mark(tsl__stream *s, cl_event *out)
{
    cl_event ev = NULL;
    cl_int err = clEnqueueMarkerWithWaitList(s->queue, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return stream_fail(s, "clEnqueueMarkerWithWaitList", err, "marking a transfer queue");
    tsl_status st = track(s, ev, MARKER); /* kept until finish: another queue may wait for it */
    *out = st == TSL_OK ? ev : NULL;
    return st;
}

tsl_status tsl__queue_wait_for(tsl_context *ctx, cl_event ev)
{
    if (!ev) return TSL_OK;
    cl_int err = clEnqueueBarrierWithWaitList(ctx->queue, 1, &ev, NULL);
    if (err != CL_SUCCESS)
        return tsl__cl_fail(ctx, "clEnqueueBarrierWithWaitList", err,
                            "making the kernel queue wait for its uploads");
    return TSL_OK;
}

tsl_status tsl__stream_follow(tsl__stream *s)
{
    cl_event ev = NULL;
    cl_int err = clEnqueueMarkerWithWaitList(s->ctx->queue, 0, NULL, &ev);
    if (err != CL_SUCCESS)
        return stream_fail(s, "clEnqueueMarkerWithWaitList", err, "marking the kernel queue");
    /* A command of another queue may wait for this marker only once it reaches the device. */
    err = clFlush(s->ctx->queue);
    if (err == CL_SUCCESS) err = clEnqueueBarrierWithWaitList(s->queue, 1, &ev, NULL);
    clReleaseEvent(ev); /* the barrier holds it as long as it needs it */
    if (err != CL_SUCCESS)
        return stream_fail(s, "clEnqueueBarrierWithWaitList", err,
                           "making a transfer queue wait for the kernel queue");
    return TSL_OK;
}

unsigned long long tsl__stream_ticket(const tsl__stream *s)
{
    return s->given;
}

tsl_status tsl__stream_wait(tsl__stream *s, unsigned long long ticket)
{
    int last = -1; /* the latest command at or before the ticket still held */
    for (int i = 0; i < s->nevents; ++i)
        if (s->tickets[i] <= ticket) last = i;
    if (last < 0) return TSL_OK;
    cl_int err = clWaitForEvents(1, &s->events[last]);
    if (err != CL_SUCCESS) return stream_fail(s, "clWaitForEvents", err, "waiting for a transfer");
    /* The queue is in order: every command before it has completed too. Markers stay. */
    int kept = 0;
    for (int i = 0; i < s->nevents; ++i) {
        if (s->tickets[i] <= ticket && s->kinds[i] != MARKER) {
            book(s, s->events[i], s->kinds[i]);
            continue;
        }
        s->events[kept] = s->events[i];
        s->kinds[kept] = s->kinds[i];
        s->tickets[kept++] = s->tickets[i];
    }
    s->nevents = kept;
    return TSL_OK;
}

tsl_status tsl__stream_host_alloc(tsl__stream *s, size_t bytes, void **ptr, cl_mem *mem)
{
    const char *call;
    cl_int err = tsl__pinned_map(s->ctx->cl, s->queue, bytes, ptr, mem, &call);
    return err == CL_SUCCESS ? TSL_OK : stream_fail(s, call, err, "pinned host staging");
}

void tsl__stream_host_free(tsl__stream *s, void *ptr, cl_mem mem)
{
    if (mem) tsl__pinned_unmap(s->queue, mem, ptr);
}

tsl_status tsl__stream_finish(tsl__stream *s, tsl_timing *add)
{
    cl_int err = drain(s); /* books what is left beside what the waits booked */
    if (add) {
        add->upload_ms += s->booked.upload_ms;
        add->download_ms += s->booked.download_ms;
    }
    memset(&s->booked, 0, sizeof s->booked);
    if (err != CL_SUCCESS) return stream_fail(s, "clFinish", err, "waiting for the transfers");
    return TSL_OK;
}
