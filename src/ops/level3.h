/* level3.h: what the Level-3 routines (level3.c) and strided batched GEMM (gemm_batched.c) share:
 * the small kernels of level3.c, the block size, and the argument checks' wording. */
#ifndef TSL_OPS_LEVEL3_H
#define TSL_OPS_LEVEL3_H

#include "ops/ops.h"

/* The kernel `name` of level3.cl, built for the precision with extra -D options. */
tsl_status tsl__l3_kernel(tsl_context *ctx, int dbl, const char *name, const char *extra,
                          cl_kernel *k);
/* X = beta X over a rows x cols block at element off (rows ld apart): mode 0 all of it, 1 its
 * lower triangle, 2 its upper; beta == 0 writes zeros without reading X. */
tsl_status tsl__l3_scale(tsl_context *ctx, int dbl, size_t rows, size_t cols, int mode,
                         double beta, cl_mem x, size_t off, size_t ld);
/* The block size of a blocked routine ("trsm", ...): its "block" option, else the device
 * type's default. */
size_t tsl__l3_block(const tsl_context *ctx, const char *op);
/* TSL_ERR_INVALID_ARG naming the argument: a size above 2^31-1; a leading dimension below
 * max(1, need) (what: the matrix that needs it). */
tsl_status tsl__l3_check_size(tsl_context *ctx, const char *fn, const char *name, size_t v);
tsl_status tsl__l3_check_ld(tsl_context *ctx, const char *fn, const char *name, size_t ld,
                            size_t need, const char *what);

#endif
