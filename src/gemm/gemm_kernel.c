/* gemm_kernel.c: what the GEMM runs of gemm.c (the ladder) and gemm_tiled2d.c (tiled2d) share
 * below the choice of a variant: a kernel of gemm.cl (or tiled2d's program) built for a problem's
 * precision and storage, and the sizes a launch is made of: element sizes, rounding up to a tile,
 * the square work-group edge, an operand's strides. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gemm/gemm_internal.h"

/* Bytes per matrix element of a precision (TSL_SINGLE, TSL_DOUBLE, TSL_HALF, TSL_BFLOAT16) or
 * of a kind. */
size_t tsl__gemm_elem_size(int prec)
{
    return prec == TSL_DOUBLE ? sizeof(double)
           : GK_16BIT(prec)   ? sizeof(uint16_t)
                              : sizeof(float);
}

size_t tsl__gemm_round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* Largest power-of-two square work-group edge (at most 16) the kernel allows. */
size_t tsl__gemm_square_edge(size_t max_wg)
{
    size_t e = 16;
    while (e > 1 && e * e > max_wg)
        e /= 2;
    return e;
}

/* The program's options and source for a kernel of gemm.cl or tiled2d's program. */
static const char *kernel_build(const gemm_problem *p, const char *name, const char *extra,
                                char *options, size_t cap)
{
    snprintf(options, cap, "-DPRECISION=%d%s -DONLY_ONE_KERNEL -DONLY_%s%s%s",
             p->dbl ? 64 : 32,
             p->kind == GK_HALF   ? " -DSTORAGE_HALF=1"
             : p->kind == GK_BF16 ? " -DSTORAGE_BF16=1"
                                  : "",
             name, *extra ? " " : "", extra);
    /* tiled2d's program is gemm.cl's prelude, its parameters, the matrix instructions and the
     * kernel (src/kernels/: one file each) */
    return strcmp(name, "gemm_tiled2d") == 0
               ? "gemm.cl+gemm_tiled2d.cl+gemm_mma.cl+gemm_wgmma.cl+gemm_tiled2d_kernel.cl"
               : "gemm.cl";
}

tsl_status tsl__gemm_get_kernel(tsl_context *ctx, const gemm_problem *p, const char *name,
                                const char *extra, cl_kernel *k)
{
    char options[400];
    const char *src = kernel_build(p, name, extra, options, sizeof options);
    return tsl__get_kernel(ctx, src, options, name, k);
}

/* A configuration built through the sm_90a patch (wgmma, or a ring past 48 KiB) has its ring
 * declared SENTINEL bytes in the kernel (gemm_wgmma.cl's WG_SENTINEL, gemm_mma.cl's
 * RING_SENTINEL), which the patch enlarges to the configuration's size. */
#define SENTINEL 1040

tsl_status tsl__gemm_get_tiled2d(tsl_context *ctx, const gemm_problem *p, const int *tp,
                                 const char *extra, cl_kernel *k)
{
    if (!tsl__tiled2d_sm90a(ctx, p->kind, tp))
        return tsl__gemm_get_kernel(ctx, p, "gemm_tiled2d", extra, k);
    char options[400];
    const char *src = kernel_build(p, "gemm_tiled2d", extra, options, sizeof options);
    return tsl__get_kernel_sm90a(ctx, src, options, SENTINEL,
                                 tsl__tiled2d_local_bytes(p->kind, tp), "gemm_tiled2d", k);
}

/* op(X)(i, l) = X[i rs + l cs] for an operand X of leading dimension ld, transposed or not. */
void tsl__gemm_op_strides(tsl_trans t, size_t ld, int *rs, int *cs)
{
    *rs = t == TSL_NO_TRANS ? (int)ld : 1;
    *cs = t == TSL_NO_TRANS ? 1 : (int)ld;
}
