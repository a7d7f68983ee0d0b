/* copy.c: tsl_copy_buf, the copy reference of the memory-bound family (docs/transpose.md): dst =
 * src over any byte count, on the device, by copy.cl's vectorized kernel. It has no variants and no
 * options, so it is not in the op registry; it exists so every memory-bound result can be quoted as
 * a ratio to the bandwidth this kernel reaches on the same device in the same run. */
#include <limits.h>

#include "ops/ops.h"

#define COPY_WG 256 /* work-items per group, or the kernel's limit when that is lower */

tsl_status tsl_copy_buf(tsl_context *ctx, const tsl_buffer *src, tsl_buffer *dst, size_t bytes)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_copy_buf: ctx is NULL");
    tsl__timing_begin(ctx);
    if (!src || !dst)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "tsl_copy_buf: buffer %s is NULL",
                         src ? "dst" : "src");
    if (src->ctx != ctx || dst->ctx != ctx)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "tsl_copy_buf: buffer %s belongs to another context",
                         src->ctx != ctx ? "src" : "dst");
    if (bytes > src->size || bytes > dst->size)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "tsl_copy_buf: bytes = %zu is more than buffer %s holds (%zu bytes)",
                         bytes, bytes > src->size ? "src" : "dst",
                         bytes > src->size ? src->size : dst->size);
    if (bytes == 0) return TSL_OK;
    if (src == dst || src->mem == dst->mem) return TSL_OK; /* copying onto itself changes nothing */
    cl_kernel k;
    tsl_status s =
        tsl__get_kernel(ctx, "copy.cl", "-DONLY_ONE_KERNEL -DONLY_copy_vec", "copy_vec", &k);
    if (s != TSL_OK) return s;
    size_t wg = tsl__kernel_max_wg(ctx, k);
    if (wg > COPY_WG) wg = COPY_WG;
    if (wg == 0) wg = 1;
    cl_ulong nvec = bytes / 16;
    cl_uint tail = (cl_uint)(bytes % 16);
    size_t items = nvec ? (size_t)nvec : 1; /* a lone tail still needs work-item 0 */
    size_t global = (items + wg - 1) / wg * wg;
    tsl__arg args[] = {{sizeof(cl_mem), &src->mem},
                       {sizeof(cl_mem), &dst->mem},
                       {sizeof nvec, &nvec},
                       {sizeof tail, &tail}};
    s = tsl__launch(ctx, k, "copy_vec", args, 4, 1, &global, &wg);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}
