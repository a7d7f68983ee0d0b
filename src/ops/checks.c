/* checks.c: what every operation does the same way (ops.h): real-typed kernel arguments, and
 * the argument checks: size products that must not overflow, double precision on a device without
 * fp64, and a matrix that must fit the device buffer it is said to be in. One wording for each,
 * whatever the op. */
#include <stdint.h>

#include "ops/ops.h"

tsl__arg tsl__scalar_arg(int dbl, tsl__scalar *s, double v)
{
    if (dbl)
        s->d = v;
    else
        s->f = (float)v;
    return (tsl__arg){dbl ? sizeof(double) : sizeof(float), s};
}

int tsl__mul_overflows(size_t a, size_t b)
{
    return a && b > SIZE_MAX / a;
}

tsl_status tsl__check_fp64(tsl_context *ctx, int dbl, const char *fn)
{
    if (dbl && !ctx->info.fp64)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "%s: device %s has no double precision (cl_khr_fp64)", fn, ctx->info.name);
    return TSL_OK;
}

tsl_status tsl__check_trans(tsl_context *ctx, const char *fn, const char *name, tsl_trans t)
{
    if (t != TSL_NO_TRANS && t != TSL_TRANS && t != TSL_CONJ_TRANS)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: %s %d is none of TSL_NO_TRANS, TSL_TRANS, TSL_CONJ_TRANS", fn, name,
                         (int)t);
    return TSL_OK;
}

tsl_trans tsl__real_trans(tsl_trans t)
{
    return t == TSL_CONJ_TRANS ? TSL_TRANS : t;
}

tsl_status tsl__check_matrix_buffer(tsl_context *ctx, const char *fn, const char *what,
                                    const tsl_buffer *buf, size_t rows, size_t cols, size_t ld,
                                    size_t elem)
{
    if (!buf) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: buffer %s is NULL", fn, what);
    if (buf->ctx != ctx)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: buffer %s belongs to another context", fn,
                         what);
    if (rows == 0 || cols == 0) return TSL_OK;
    size_t need = (rows - 1) * ld + cols;
    if (tsl__mul_overflows(rows - 1, ld) || need < cols || tsl__mul_overflows(need, elem) ||
        need * elem > buf->size)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: buffer %s holds %zu bytes, a %zu x %zu matrix with leading dimension "
                         "%zu needs more",
                         fn, what, buf->size, rows, cols, ld);
    return TSL_OK;
}
