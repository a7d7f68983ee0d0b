/* variant.c: the lookups every op's variant table shares (ops.h, "Variant tables"): a row's name,
 * what `auto` stands for on a device, and the row of a variant by name. */
#include <string.h>

#include "ops/ops.h"

const char *tsl__table_name(tsl__variant_table t, size_t index)
{
    if (index >= t.count) return NULL;
    return *(const char *const *)((const char *)t.rows + index * t.stride);
}

const char *tsl__auto_pick(const tsl_context *ctx, const tsl__auto_row *autos)
{
    size_t i = 0;
    while (autos[i].type && strcmp(autos[i].type, ctx->info.type) != 0)
        ++i;
    return autos[i].variant;
}

const void *tsl__find_variant(tsl_context *ctx, const char *op, tsl__variant_table t,
                              const tsl__auto_row *autos, const char *variant)
{
    const char *name = strcmp(variant, "auto") == 0 ? tsl__auto_pick(ctx, autos) : variant;
    for (size_t i = 0; i < t.count; ++i)
        if (strcmp(tsl__table_name(t, i), name) == 0) return (const char *)t.rows + i * t.stride;
    char list[512] = "auto";
    for (size_t i = 0; i < t.count; ++i) {
        strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, tsl__table_name(t, i), sizeof list - strlen(list) - 1);
    }
    tsl__fail(ctx, TSL_ERR_INVALID_ARG, "unknown %s variant '%s' (variants: %s)", op, variant,
              list);
    return NULL;
}
