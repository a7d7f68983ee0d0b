/* registry.c: the table of operations and the public functions built on it: the variant calls,
 * and the tuning calls that need an op's descriptor (its size classes, search space and variant
 * check), which they hand to the tuning layer (src/tune), so that layer knows no operation. */
#include <string.h>

#include "ops/ops.h"

/* One row per operation (add yours on its own line). */
static const tsl__op_desc *const ops[] = {
    &tsl__gemm_desc,         &tsl__axpy_desc,    &tsl__dot_desc,       &tsl__nrm2_desc,
    &tsl__gemv_desc,         &tsl__poisson_desc, &tsl__transpose_desc, &tsl__pi_desc,
    &tsl__nbody_desc,        &tsl__kmeans_desc,  &tsl__symm_desc,      &tsl__syrk_desc,
    &tsl__syr2k_desc,        &tsl__trmm_desc,    &tsl__trsm_desc,      &tsl__gemm_batched_desc,
    &tsl__complex_gemm_desc, &tsl__getrf_desc,   &tsl__geqrf_desc,
};
#define NOPS (sizeof ops / sizeof ops[0])

const tsl__op_desc *tsl__find_op(const char *op)
{
    for (size_t i = 0; op && i < NOPS; ++i)
        if (strcmp(ops[i]->op, op) == 0) return ops[i];
    return NULL;
}

const char *tsl_variant_name(const char *op, size_t index)
{
    const tsl__op_desc *d = tsl__find_op(op);
    return d ? d->variant_name(index) : NULL;
}

static tsl_status unknown_op(tsl_context *ctx, const char *op)
{
    char names[256] = "";
    for (size_t i = 0; i < NOPS; ++i) {
        if (i) strncat(names, ", ", sizeof names - strlen(names) - 1);
        strncat(names, ops[i]->op, sizeof names - strlen(names) - 1);
    }
    if (!op) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "op is NULL (operations: %s)", names);
    return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "unknown operation '%s' (operations: %s)", op,
                     names);
}

tsl_status tsl_variant_check(tsl_context *ctx, const char *op, const char *variant,
                             const char **resolved)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__timing_begin(ctx); /* a check may build the variant's kernel: its timing says how long */
    const tsl__op_desc *d = tsl__find_op(op);
    if (!d) return unknown_op(ctx, op);
    if (!variant) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "variant is NULL");
    return d->variant_check(ctx, variant, resolved);
}

tsl_status tsl_variant_check_precision(tsl_context *ctx, const char *op, const char *variant,
                                       tsl_precision precision, const char **resolved)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__timing_begin(ctx);
    const tsl__op_desc *d = tsl__find_op(op);
    if (!d) return unknown_op(ctx, op);
    if (!variant) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "variant is NULL");
    if (precision != TSL_SINGLE && precision != TSL_DOUBLE && precision != TSL_HALF &&
        precision != TSL_BFLOAT16)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "precision %d is none of TSL_SINGLE, TSL_DOUBLE, TSL_HALF, TSL_BFLOAT16",
                         (int)precision);
    if (d->variant_check_prec) return d->variant_check_prec(ctx, variant, (int)precision, resolved);
    tsl_status s = d->variant_check(ctx, variant, resolved);
    if (s != TSL_OK || precision == TSL_SINGLE) return s;
    if (precision == TSL_DOUBLE && !d->single_only) return tsl__check_fp64(ctx, 1, op);
    if (precision == TSL_DOUBLE)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "%s has no double-precision calls", op);
    if (precision == TSL_BFLOAT16)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "%s has no bfloat16 kernels (bfloat16 storage is gemm's only: tsl_bgemm)",
                         op);
    return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                     "%s has no half-precision kernels (half storage is gemm's only: tsl_hgemm)",
                     op);
}

tsl_status tsl_context_set_variant(tsl_context *ctx, const char *op, const char *variant)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__clear_error(ctx);
    const tsl__op_desc *d = tsl__find_op(op);
    if (!d) return unknown_op(ctx, op);
    if (!variant) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "variant is NULL");
    tsl_status s = d->variant_check(ctx, variant, NULL);
    if (s != TSL_OK) return s; /* unknown, or the device cannot run it: ctx says why */
    return tsl__context_store_variant(ctx, op, variant);
}

tsl_status tsl_context_set_option(tsl_context *ctx, const char *op, const char *name, long value)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__clear_error(ctx);
    const tsl__op_desc *d = tsl__find_op(op);
    if (!d) return unknown_op(ctx, op);
    if (!name) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "option name is NULL");
    if (!d->option_check)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "operation %s has no options (asked for '%s')",
                         op, name);
    tsl_status s = d->option_check(ctx, name, value);
    return s != TSL_OK ? s : tsl__context_store_option(ctx, op, name, value);
}

/* ---- tuning: the op's descriptor handed to src/tune ------------------------------------------ */

const char *tsl_tuning_class(const char *op, size_t m, size_t n, size_t k)
{
    const tsl__op_desc *d = tsl__find_op(op);
    return d && d->size_class ? d->size_class(m, n, k) : "any";
}

static const tsl__op_desc *tunable_op(tsl_context *ctx, const char *fn, const char *op)
{
    const tsl__op_desc *d = tsl__find_op(op);
    if (!d)
        tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: unknown operation '%s'", fn, op ? op : "(null)");
    return d;
}

/* The database's precision code (tune.h) of op's calls at a precision (tsl_precision; the old
 * is_double's 0 and 1 are TSL_SINGLE and TSL_DOUBLE): TSL_HALF and TSL_BFLOAT16 for gemm only,
 * gemm's single precision in the context's math mode. */
static tsl_status tuning_code(tsl_context *ctx, const char *fn, const tsl__op_desc *d,
                              int precision, int *code)
{
    if (precision < TSL_SINGLE || precision > TSL_BFLOAT16)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: precision %d is none of TSL_SINGLE (0), TSL_DOUBLE (1), TSL_HALF "
                         "(2), TSL_BFLOAT16 (3)",
                         fn, precision);
    if (precision > TSL_DOUBLE && !d->tuning_kind)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "%s: %s has no %s precision", fn, d->op,
                         precision == TSL_HALF ? "half" : "bfloat16");
    *code = d->tuning_kind ? d->tuning_kind(ctx, precision) : precision;
    return TSL_OK;
}

tsl_status tsl_tuning_lookup(tsl_context *ctx, const char *op, int precision, size_t m, size_t n,
                             size_t k, const char **config, const char **source)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__clear_error(ctx);
    if (!config || !source)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "tsl_tuning_lookup: config or source is NULL");
    const tsl__op_desc *d = tunable_op(ctx, "tsl_tuning_lookup", op);
    if (!d) return TSL_ERR_INVALID_ARG;
    int code = 0;
    tsl_status s = tuning_code(ctx, "tsl_tuning_lookup", d, precision, &code);
    if (s != TSL_OK) return s;
    tsl__shape shape = {m, n, k};
    *config = tsl__tuning_find(ctx, op, code, tsl_tuning_class(op, m, n, k), &shape, source);
    if (!*config) {
        *config = "";
        *source = "no entry: the built-in default";
    }
    return TSL_OK;
}

tsl_status tsl_tuning_store(tsl_context *ctx, const char *op, int precision, size_t m, size_t n,
                            size_t k, const char *config, const char *note)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__clear_error(ctx);
    const tsl__op_desc *d = tunable_op(ctx, "tsl_tuning_store", op);
    if (!d) return TSL_ERR_INVALID_ARG;
    int code = 0;
    tsl_status s = tuning_code(ctx, "tsl_tuning_store", d, precision, &code);
    if (s != TSL_OK) return s;
    return tsl__tuning_store(ctx, op, code, tsl_tuning_class(op, m, n, k), config, note,
                             d->variant_check);
}

tsl_status tsl_tuner_create(tsl_context *ctx, const char *op, int precision,
                            unsigned long long seed, tsl_tuner **out)
{
    if (!ctx) return TSL_ERR_INVALID_ARG;
    tsl__clear_error(ctx);
    if (!out) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "tsl_tuner_create: out is NULL");
    *out = NULL;
    const tsl__op_desc *d = tsl__find_op(op);
    if (!d)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "tsl_tuner_create: unknown operation '%s'",
                         op ? op : "(null)");
    if (!d->space)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "tsl_tuner_create: %s has no search space",
                         op);
    int code = 0;
    tsl_status s = tuning_code(ctx, "tsl_tuner_create", d, precision, &code);
    if (s == TSL_OK) s = tsl__check_fp64(ctx, precision == TSL_DOUBLE, "tsl_tuner_create");
    if (s != TSL_OK) return s;
    /* the first candidate: auto's configuration for a large problem of the op */
    const char *first = d->size_class ? d->size_class(4096, 4096, 4096) : "any";
    return tsl__tuner_create(ctx, op, d->space, code, first, seed, out);
}
