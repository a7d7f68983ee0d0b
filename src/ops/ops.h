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
} tsl__op_desc;

extern const tsl__op_desc tsl__gemm_desc;

#endif
