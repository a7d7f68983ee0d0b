/* ops.h: what every operation gives the registry (ops/registry.c): its variant names and a check
 * of whether a variant runs on a context's device. The public variant functions of tessel.h
 * dispatch through the table of these descriptors; adding an op adds one row. */
#ifndef TSL_OPS_H
#define TSL_OPS_H

#include "runtime/runtime.h"

typedef struct {
    const char *op;                        /* "gemm" */
    const char *(*variant_name)(size_t i); /* NULL past the end; "auto" is not listed */
    /* TSL_OK / TSL_ERR_UNSUPPORTED (why, in ctx) / TSL_ERR_INVALID_ARG (no such variant). */
    tsl_status (*variant_check)(tsl_context *ctx, const char *variant, const char **resolved);
    /* NULL when the op has no options; else TSL_OK for a valid (name, value), or
     * TSL_ERR_INVALID_ARG with a message naming the valid names and range. */
    tsl_status (*option_check)(tsl_context *ctx, const char *name, long value);
} tsl__op_desc;

/* One descriptor per operation, defined in its ops/<op>.c; registry.c lists them all. */
extern const tsl__op_desc tsl__gemm_desc;
extern const tsl__op_desc tsl__axpy_desc;
extern const tsl__op_desc tsl__dot_desc;
extern const tsl__op_desc tsl__nrm2_desc;
extern const tsl__op_desc tsl__gemv_desc;
extern const tsl__op_desc tsl__poisson_desc;
extern const tsl__op_desc tsl__transpose_desc;

#endif
