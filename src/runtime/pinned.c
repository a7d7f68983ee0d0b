/* pinned.c: page-locked ("pinned") host memory, 004's section 6.2. The driver allocates it when a
 * buffer is created with CL_MEM_ALLOC_HOST_PTR; mapping that buffer gives the host a pointer into
 * it, and transfers to and from such memory run at the bus's full speed because the driver can
 * DMA from it directly instead of staging through a pinned bounce buffer. The context keeps each
 * (pointer, buffer) pair in ctx->pinned, so tsl_host_free can find the buffer behind a pointer and
 * tsl_context_destroy can release whatever the caller did not free. */
#include <string.h>

#include "runtime/runtime.h"

#define NPINNED ((int)(sizeof((tsl_context *)0)->pinned / sizeof((tsl_context *)0)->pinned[0]))

cl_int tsl__pinned_map(cl_context cl, cl_command_queue queue, size_t bytes, void **ptr, cl_mem *mem,
                       const char **call)
{
    cl_int err;
    *ptr = NULL;
    *call = "clCreateBuffer";
    *mem = clCreateBuffer(cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
    if (!*mem) return err;
    *call = "clEnqueueMapBuffer";
    *ptr = clEnqueueMapBuffer(queue, *mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL,
                              NULL, &err);
    if (!*ptr) {
        clReleaseMemObject(*mem);
        *mem = NULL;
        return err;
    }
    return CL_SUCCESS;
}

void tsl__pinned_unmap(cl_command_queue queue, cl_mem mem, void *ptr)
{
    if (clEnqueueUnmapMemObject(queue, mem, ptr, 0, NULL, NULL) == CL_SUCCESS) clFinish(queue);
    clReleaseMemObject(mem);
}

tsl_status tsl_host_alloc(tsl_context *ctx, size_t bytes, void **ptr)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_host_alloc: ctx is NULL");
    tsl__clear_error(ctx);
    if (!ptr) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "tsl_host_alloc: ptr is NULL");
    *ptr = NULL;
    if (bytes == 0) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "tsl_host_alloc: bytes is 0");
    int slot = 0;
    while (slot < NPINNED && ctx->pinned[slot].ptr)
        ++slot;
    if (slot == NPINNED)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY,
                         "tsl_host_alloc: a context holds at most %d pinned blocks at a time; "
                         "free one with tsl_host_free first",
                         NPINNED);
    if (bytes > ctx->info.max_alloc)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY,
                         "tsl_host_alloc: %zu bytes is more than the device's largest allocation "
                         "(%llu bytes)",
                         bytes, ctx->info.max_alloc);
    void *p;
    cl_mem mem;
    const char *call;
    cl_int err = tsl__pinned_map(ctx->cl, ctx->queue, bytes, &p, &mem, &call);
    if (err != CL_SUCCESS)
        return tsl__cl_fail(ctx, call, err,
                            strcmp(call, "clCreateBuffer") == 0
                                ? "tsl_host_alloc (CL_MEM_ALLOC_HOST_PTR)"
                                : "tsl_host_alloc");
    ctx->pinned[slot].ptr = p;
    ctx->pinned[slot].mem = mem;
    *ptr = p;
    return TSL_OK;
}

/* Unmaps and releases one slot; waits, since the memory must not go while a transfer reads it. */
static void release_slot(tsl_context *ctx, int slot)
{
    tsl__pinned_unmap(ctx->queue, ctx->pinned[slot].mem, ctx->pinned[slot].ptr);
    ctx->pinned[slot].ptr = NULL;
    ctx->pinned[slot].mem = NULL;
}

void tsl_host_free(tsl_context *ctx, void *ptr)
{
    if (!ctx || !ptr) return;
    tsl__clear_error(ctx);
    for (int i = 0; i < NPINNED; ++i)
        if (ctx->pinned[i].ptr == ptr) {
            release_slot(ctx, i);
            return;
        }
    /* A pointer this context did not hand out: leave it alone, say so. */
    tsl__fail(ctx, TSL_ERR_INVALID_ARG,
              "tsl_host_free: ptr %p was not returned by tsl_host_alloc on this context", ptr);
}

void tsl__pinned_release_all(tsl_context *ctx)
{
    for (int i = 0; i < NPINNED; ++i)
        if (ctx->pinned[i].ptr) release_slot(ctx, i);
}
