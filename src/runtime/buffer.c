/* buffer.c: device memory and the commands that touch it. Public tsl_buffer objects, the
 * context's scratch workspaces for pre-passes, rectangular transfers that move exactly a matrix
 * (never the caller's padding), and kernel launches. Every command is profiled through an event
 * booked into the context's timing breakdown. */
#include <stdio.h>
#include <string.h>

#include "runtime/runtime.h"

tsl_status tsl__mem_create(tsl_context *ctx, size_t bytes, cl_mem *out, const char *what)
{
    if (bytes == 0) bytes = 16; /* OpenCL has no empty buffers; a tiny one stands in */
    if (bytes > ctx->info.max_alloc)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY,
                         "%s needs %zu bytes, more than the device's largest allocation (%llu bytes)",
                         what, bytes, ctx->info.max_alloc);
    cl_int err;
    *out = clCreateBuffer(ctx->cl, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (!*out) return tsl__cl_fail(ctx, "clCreateBuffer", err, what);
    return TSL_OK;
}

tsl_status tsl__workspace(tsl_context *ctx, int slot, size_t bytes, cl_mem *out)
{
    slot += ctx->ws_base;
    if (ctx->workspace[slot].mem && ctx->workspace[slot].size >= bytes) {
        *out = ctx->workspace[slot].mem;
        return TSL_OK;
    }
    if (ctx->workspace[slot].mem) {
        clFinish(ctx->queue);
        clReleaseMemObject(ctx->workspace[slot].mem);
        ctx->workspace[slot].mem = NULL;
        ctx->workspace[slot].size = 0;
    }
    tsl_status s = tsl__mem_create(ctx, bytes, &ctx->workspace[slot].mem, "a scratch buffer");
    if (s != TSL_OK) return s;
    ctx->workspace[slot].size = bytes;
    *out = ctx->workspace[slot].mem;
    return TSL_OK;
}

tsl_status tsl__counters(tsl_context *ctx, size_t count, cl_mem *out)
{
    size_t bytes = count * sizeof(cl_int);
    if (ctx->counters.mem && ctx->counters.size >= bytes) {
        *out = ctx->counters.mem;
        return TSL_OK;
    }
    if (ctx->counters.mem) {
        clFinish(ctx->queue);
        clReleaseMemObject(ctx->counters.mem);
        ctx->counters.mem = NULL;
        ctx->counters.size = 0;
    }
    if (bytes < 256) bytes = 256;
    tsl_status s = tsl__mem_create(ctx, bytes, &ctx->counters.mem, "a buffer of counters");
    if (s != TSL_OK) return s;
    cl_int zero = 0, err = clEnqueueFillBuffer(ctx->queue, ctx->counters.mem, &zero, sizeof zero, 0,
                                               bytes, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        clReleaseMemObject(ctx->counters.mem);
        ctx->counters.mem = NULL;
        return tsl__cl_fail(ctx, "clEnqueueFillBuffer", err, "zeroing a buffer of counters");
    }
    ctx->counters.size = bytes;
    *out = ctx->counters.mem;
    return TSL_OK;
}

tsl_status tsl__upload_rect(tsl_context *ctx, cl_mem mem, const void *host, size_t rows,
                            size_t row_bytes, size_t host_pitch)
{
    if (rows == 0 || row_bytes == 0) return TSL_OK;
    size_t origin[3] = {0, 0, 0}, region[3] = {row_bytes, rows, 1};
    cl_event ev = NULL;
    cl_int err = clEnqueueWriteBufferRect(ctx->queue, mem, CL_TRUE, origin, origin, region, row_bytes,
                                          0, host_pitch, 0, host, 0, NULL, &ev);
    if (err != CL_SUCCESS) return tsl__cl_fail(ctx, "clEnqueueWriteBufferRect", err, "uploading a matrix");
    tsl__track_event(ctx, ev, TSL__EV_UPLOAD);
    return TSL_OK;
}

tsl_status tsl__download_block(tsl_context *ctx, cl_mem mem, size_t row0, size_t byte0,
                               size_t dev_pitch, void *host, size_t host_pitch, size_t rows,
                               size_t row_bytes)
{
    if (rows == 0 || row_bytes == 0) return TSL_OK;
    size_t origin[3] = {byte0, row0, 0}, host_origin[3] = {0, 0, 0},
           region[3] = {row_bytes, rows, 1};
    cl_event ev = NULL;
    cl_int err = clEnqueueReadBufferRect(ctx->queue, mem, CL_TRUE, origin, host_origin, region,
                                         dev_pitch, 0, host_pitch, 0, host, 0, NULL, &ev);
    if (err != CL_SUCCESS) return tsl__cl_fail(ctx, "clEnqueueReadBufferRect", err, "downloading a matrix");
    tsl__track_event(ctx, ev, TSL__EV_DOWNLOAD);
    return TSL_OK;
}

tsl_status tsl__download_rect(tsl_context *ctx, cl_mem mem, void *host, size_t rows,
                              size_t row_bytes, size_t host_pitch)
{
    return tsl__download_block(ctx, mem, 0, 0, row_bytes, host, host_pitch, rows, row_bytes);
}

/* Rows from host memory at a byte offset, blocking or queued (the host memory then stays the
 * caller's until the queue has run the write). */
static tsl_status write_at(tsl_context *ctx, cl_mem mem, size_t offset, size_t bytes,
                           const void *host, cl_bool blocking)
{
    if (bytes == 0) return TSL_OK;
    cl_event ev = NULL;
    cl_int err = clEnqueueWriteBuffer(ctx->queue, mem, blocking, offset, bytes, host, 0, NULL, &ev);
    if (err != CL_SUCCESS) return tsl__cl_fail(ctx, "clEnqueueWriteBuffer", err, "uploading rows");
    tsl__track_event(ctx, ev, TSL__EV_UPLOAD);
    return TSL_OK;
}

tsl_status tsl__write_at(tsl_context *ctx, cl_mem mem, size_t offset, size_t bytes,
                         const void *host)
{
    return write_at(ctx, mem, offset, bytes, host, CL_TRUE);
}

tsl_status tsl__write_at_async(tsl_context *ctx, cl_mem mem, size_t offset, size_t bytes,
                               const void *host)
{
    return write_at(ctx, mem, offset, bytes, host, CL_FALSE);
}

tsl_status tsl__queue_flush(tsl_context *ctx)
{
    cl_int err = clFlush(ctx->queue);
    return err == CL_SUCCESS ? TSL_OK : tsl__cl_fail(ctx, "clFlush", err, "starting queued work");
}

tsl_status tsl__read_at(tsl_context *ctx, cl_mem mem, size_t offset, size_t bytes, void *host)
{
    if (bytes == 0) return TSL_OK;
    cl_event ev = NULL;
    cl_int err = clEnqueueReadBuffer(ctx->queue, mem, CL_TRUE, offset, bytes, host, 0, NULL, &ev);
    if (err != CL_SUCCESS) return tsl__cl_fail(ctx, "clEnqueueReadBuffer", err, "downloading rows");
    tsl__track_event(ctx, ev, TSL__EV_DOWNLOAD);
    return TSL_OK;
}

tsl_status tsl__launch(tsl_context *ctx, cl_kernel k, const char *what, const tsl__arg *args,
                       int nargs, cl_uint dims, const size_t *global, const size_t *local)
{
    for (int i = 0; i < nargs; ++i) {
        cl_int err = clSetKernelArg(k, (cl_uint)i, args[i].size, args[i].value);
        if (err != CL_SUCCESS) return tsl__cl_fail(ctx, "clSetKernelArg", err, what);
    }
    for (cl_uint d = 0; d < dims; ++d)
        if (global[d] == 0) return TSL_OK; /* nothing to do */
    if (ctx->trace_level >= 2) { /* the label the booked event is printed with */
        char fn[48] = "";
        if (clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof fn, fn, NULL) != CL_SUCCESS)
            fn[0] = '\0';
        fn[sizeof fn - 1] = '\0';
        snprintf(ctx->launch_label, sizeof ctx->launch_label, "%s (%s) %zu x %zu x %zu", what, fn,
                 global[0], dims > 1 ? global[1] : (size_t)1, dims > 2 ? global[2] : (size_t)1);
    }
    cl_event ev = NULL;
    double h0 = ctx->trace_level >= 3 ? tsl__now_ms() : 0.0;
    cl_int err = clEnqueueNDRangeKernel(ctx->queue, k, dims, NULL, global, local, 0, NULL, &ev);
    if (err != CL_SUCCESS) {
        ctx->launch_label[0] = '\0';
        return tsl__cl_fail(ctx, "clEnqueueNDRangeKernel", err, what);
    }
    if (ctx->trace_level >= 3) { /* the host's time: since the last launch, and in the enqueue */
        double h1 = tsl__now_ms();
        size_t used = strlen(ctx->launch_label);
        snprintf(ctx->launch_label + used, sizeof ctx->launch_label - used,
                 " [host +%.1f, enqueue %.1f us]", ctx->last_launch_ms ? (h0 - ctx->last_launch_ms) * 1e3 : 0.0,
                 (h1 - h0) * 1e3);
        ctx->last_launch_ms = h1;
    }
    tsl__track_event(ctx, ev, TSL__EV_KERNEL);
    return TSL_OK;
}

/* CL_KERNEL_WORK_GROUP_SIZE, except where the kernel declares reqd_work_group_size and the
 * compiler accepted it: that is the compiler's promise that the kernel runs at that size (a build
 * must fail otherwise). NVIDIA's driver reports 256 for gemm_tiled at 32 x 32 (29 registers)
 * while launches at 32 x 32 run and verify (seen on an H200); an
 * enqueue that still refuses is reported by tsl__launch as an OpenCL error. */
size_t tsl__kernel_max_wg(tsl_context *ctx, cl_kernel k)
{
    size_t wg = 0, reqd[3] = {0, 0, 0};
    if (clGetKernelWorkGroupInfo(k, ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL) != CL_SUCCESS)
        wg = ctx->info.max_work_group;
    if (clGetKernelWorkGroupInfo(k, ctx->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof reqd, reqd,
                                 NULL) == CL_SUCCESS) {
        size_t declared = reqd[0] * reqd[1] * reqd[2];
        if (declared > wg && declared <= ctx->info.max_work_group) wg = declared;
    }
    return wg;
}

/* ---- public buffers ------------------------------------------------------------------------ */

tsl_status tsl_buffer_create(tsl_context *ctx, size_t bytes, tsl_buffer **out)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    if (!out) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "tsl_buffer_create: out is NULL");
    *out = NULL;
    if (bytes == 0) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "tsl_buffer_create: bytes is 0");
    tsl__clear_error(ctx);
    tsl_buffer *b = tsl__calloc(1, sizeof *b);
    if (!b) return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "tsl_buffer_create: out of host memory");
    tsl_status s = tsl__mem_create(ctx, bytes, &b->mem, "tsl_buffer_create");
    if (s != TSL_OK) {
        tsl__free(b);
        return s;
    }
    b->ctx = ctx;
    b->size = bytes;
    *out = b;
    return TSL_OK;
}

void tsl_buffer_destroy(tsl_buffer *buf)
{
    if (!buf) return;
    if (buf->mem) clReleaseMemObject(buf->mem);
    tsl__free(buf);
}

size_t tsl_buffer_size(const tsl_buffer *buf) { return buf ? buf->size : 0; }
cl_mem tsl_buffer_cl_mem(const tsl_buffer *buf) { return buf ? buf->mem : NULL; }

static tsl_status check_range(tsl_context *ctx, const tsl_buffer *buf, size_t offset, size_t bytes,
                              const void *host, const char *fn)
{
    if (!buf || !host)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, buf ? "host pointer" : "buffer");
    if (buf->ctx != ctx) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: buffer belongs to another context", fn);
    if (offset > buf->size || bytes > buf->size - offset)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: range [%zu, %zu+%zu) is outside the buffer of %zu bytes",
                         fn, offset, offset, bytes, buf->size);
    return TSL_OK;
}

tsl_status tsl_buffer_write(tsl_context *ctx, tsl_buffer *buf, size_t offset, size_t bytes, const void *src)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__timing_begin(ctx);
    tsl_status s = check_range(ctx, buf, offset, bytes, src, "tsl_buffer_write");
    if (s != TSL_OK || bytes == 0) return s;
    cl_event ev = NULL;
    cl_int err = clEnqueueWriteBuffer(ctx->queue, buf->mem, CL_TRUE, offset, bytes, src, 0, NULL, &ev);
    if (err != CL_SUCCESS) return tsl__cl_fail(ctx, "clEnqueueWriteBuffer", err, "tsl_buffer_write");
    tsl__track_event(ctx, ev, TSL__EV_UPLOAD);
    return tsl__timing_end(ctx);
}

tsl_status tsl_buffer_read(tsl_context *ctx, const tsl_buffer *buf, size_t offset, size_t bytes, void *dst)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__timing_begin(ctx);
    tsl_status s = check_range(ctx, buf, offset, bytes, dst, "tsl_buffer_read");
    if (s != TSL_OK || bytes == 0) return s;
    cl_event ev = NULL;
    cl_int err = clEnqueueReadBuffer(ctx->queue, buf->mem, CL_TRUE, offset, bytes, dst, 0, NULL, &ev);
    if (err != CL_SUCCESS) return tsl__cl_fail(ctx, "clEnqueueReadBuffer", err, "tsl_buffer_read");
    tsl__track_event(ctx, ev, TSL__EV_DOWNLOAD);
    return tsl__timing_end(ctx);
}
