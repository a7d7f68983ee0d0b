/* nbody.c: 002's all-pairs N-body simulation (tsl_nbody, section 5.4). This file checks the
 * arguments, keeps the variant table (a variant is a kernel and its unroll factor), reads the
 * "local" option of 002's work-group sweeps, and drives the steps: positions and velocities are
 * uploaded once, each step is one launch that reads the positions of one device buffer and writes
 * the next ones to the other (the two are swapped between steps; velocities are updated in place,
 * each by its own work-item), and both arrays are downloaded once at the end.
 *
 * Variants, in 002's order: `original` (its kernel: one work-item per body, float4 vectors, every
 * position read from global memory), `local` (tiling: each work-group stages a tile of positions
 * in local memory) and `optimized` (002's final combination: tiling and the inner loop unrolled
 * twice). The kernels are in src/kernels/nbody.cl; docs/nbody.md has the checks and the
 * measurements behind the defaults. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ops/ops.h"

typedef struct {
    const char *name;
    const char *kernel;
    int unroll; /* nbody_tiled: inner loop unrolled this many times; 0 for nbody_all_pairs */
} nbody_variant;

/* The reference path first (BLIS: reference first, then override), then 002's steps. */
static const nbody_variant variants[] = {
    {"original", "nbody_all_pairs", 0},
    {"local", "nbody_tiled", 1},
    {"optimized", "nbody_tiled", 2},
};

/* Work-group size (= tile of positions for the tiled kernels) per device type; the first match
 * wins, the last row is the default. GPU: 64, 002's choice for every GPU but its HD4670 (a whole
 * AMD wavefront, two NVIDIA warps); other sizes are not measured on a GPU. CPU: 64 as well; PoCL
 * runs a work-group as one loop over its work-items on one core, and sizes 8 to 128 were within
 * the noise of the shared 2-core development machine (docs/nbody.md). */
static const struct {
    const char *type;
    long local;
} geometry_table[] = {{"gpu", 64}, {"cpu", 64}, {NULL, 64}};

/* What `auto` stands for per device type: 002's optimized combination, the fastest variant on
 * PoCL and on an H200 (docs/nbody.md, bench/results/h200/studies). */
static const tsl__auto_row auto_table[] = {
    {"gpu", "optimized"}, {"cpu", "optimized"}, {NULL, "optimized"}};

/* The softening range where eps^-3, the largest factor of a term, is a normal float and eps^2
 * (which keeps every body's own term at exactly 0) is not 0: the kernels need no branch. */
#define MIN_SOFTENING 1e-12
#define MAX_SOFTENING 1e12

static const char *variant_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(variants), i);
}

static size_t local_of(const tsl_context *ctx)
{
    size_t i = 0;
    while (geometry_table[i].type && strcmp(geometry_table[i].type, ctx->info.type) != 0)
        ++i;
    return (size_t)tsl__context_option(ctx, "nbody", "local", geometry_table[i].local);
}

static tsl_status get_kernel(tsl_context *ctx, const nbody_variant *v, size_t local, cl_kernel *k)
{
    char options[160];
    if (v->unroll)
        snprintf(options, sizeof options,
                 "-DPRECISION=32 -DONLY_ONE_KERNEL -DONLY_%s -DWG=%zu -DUNROLL=%d", v->kernel,
                 local, v->unroll);
    else
        snprintf(options, sizeof options, "-DPRECISION=32 -DONLY_ONE_KERNEL -DONLY_%s", v->kernel);
    return tsl__get_kernel(ctx, "nbody.cl", options, v->kernel, k);
}

/* The work-group of the variant against what the device offers (size, and a tile of float4 in
 * local memory for the tiled kernels), then the compiled kernel's own limit. */
static tsl_status variant_fits(tsl_context *ctx, const nbody_variant *v, cl_kernel *k_out,
                               size_t *local_out)
{
    size_t local = local_of(ctx);
    size_t tile_bytes = v->unroll ? local * 4 * sizeof(float) : 0;
    if (local > ctx->info.max_work_group)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "nbody variant %s needs work-groups of %zu, device %s allows at most %zu",
                         v->name, local, ctx->info.name, ctx->info.max_work_group);
    if (tile_bytes > ctx->info.local_mem)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "nbody variant %s needs %zu bytes of local memory, device %s has %llu",
                         v->name, tile_bytes, ctx->info.name, ctx->info.local_mem);
    cl_kernel k;
    tsl_status s = get_kernel(ctx, v, local, &k);
    if (s != TSL_OK) return s;
    size_t max_wg = tsl__kernel_max_wg(ctx, k);
    if (local > max_wg)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "nbody variant %s needs work-groups of %zu, its compiled kernel allows "
                         "%zu on %s",
                         v->name, local, max_wg, ctx->info.name);
    if (k_out) *k_out = k;
    if (local_out) *local_out = local;
    return TSL_OK;
}

static tsl_status variant_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    const nbody_variant *v =
        tsl__find_variant(ctx, "nbody", TSL__TABLE(variants), auto_table, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return variant_fits(ctx, v, NULL, NULL);
}

static tsl_status option_check(tsl_context *ctx, const char *name, long value)
{
    if (strcmp(name, "local") != 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "unknown nbody option '%s' (options: local)",
                         name);
    if (value < 1 || (unsigned long)value > ctx->info.max_work_group)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "nbody option local = %ld: work-group size (and tile of bodies) must be "
                         "1..%zu on device %s",
                         value, ctx->info.max_work_group, ctx->info.name);
    return TSL_OK;
}

const tsl__op_desc tsl__nbody_desc = {
    .op = "nbody",
    .variant_name = variant_name,
    .variant_check = variant_check,
    .option_check = option_check,
    .single_only = 1,
};

/* ---- the call ------------------------------------------------------------------------------- */

static tsl_status check_args(tsl_context *ctx, size_t n, int steps, float dt, float softening,
                             const float *pos, const float *vel)
{
    static const char fn[] = "tsl_nbody";
    if (steps < 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: steps = %d is negative", fn, steps);
    if (!isfinite(dt))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: dt = %g is not a finite number", fn,
                         (double)dt);
    if (!(softening >= MIN_SOFTENING && softening <= MAX_SOFTENING))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: softening = %g must be in [%g, %g] (it keeps each body's own term "
                         "and close pairs finite)",
                         fn, (double)softening, MIN_SOFTENING, MAX_SOFTENING);
    if (n > 0 && !pos) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: pos is NULL", fn);
    if (n > 0 && !vel) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: vel is NULL", fn);
    if (n > 0 && pos == vel)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: pos and vel are the same array", fn);
    /* Bodies are indexed by int in the kernels, and a tile loop passes n by one work-group. */
    if (n > (size_t)INT_MAX / 2)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "%s: n = %zu bodies; at most %d are supported",
                         fn, n, INT_MAX / 2);
    size_t bytes = n * 4 * sizeof(float);
    if (bytes > ctx->info.max_alloc)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY,
                         "%s: %zu bodies need %zu bytes per array, more than the largest buffer "
                         "device %s allows (%llu bytes)",
                         fn, n, bytes, ctx->info.name, ctx->info.max_alloc);
    if ((long double)bytes * 3 > (long double)ctx->info.global_mem)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY,
                         "%s: two position arrays and one velocity array of %zu bodies need "
                         "%.0Lf bytes, more than the global memory of %s (%llu bytes)",
                         fn, n, (long double)bytes * 3, ctx->info.name, ctx->info.global_mem);
    return TSL_OK;
}

tsl_status tsl_nbody(tsl_context *ctx, size_t n, int steps, float dt, float softening, float *pos,
                     float *vel)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_nbody: ctx is NULL");
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, n, steps, dt, softening, pos, vel);
    if (s != TSL_OK) return s;
    const nbody_variant *v = tsl__find_variant(ctx, "nbody", TSL__TABLE(variants), auto_table,
                                               tsl__context_variant(ctx, "nbody"));
    if (!v) return TSL_ERR_INVALID_ARG;
    cl_kernel k;
    size_t local;
    if ((s = variant_fits(ctx, v, &k, &local)) != TSL_OK) return s;
    if (n == 0 || steps == 0) return TSL_OK; /* nothing moves */

    size_t bytes = n * 4 * sizeof(float);
    cl_mem cur, next, dvel;
    if ((s = tsl__workspace(ctx, TSL__WS_A, bytes, &cur)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_B, bytes, &next)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_C, bytes, &dvel)) != TSL_OK)
        return s;
    if ((s = tsl__upload_rect(ctx, cur, pos, 1, bytes, bytes)) != TSL_OK ||
        (s = tsl__upload_rect(ctx, dvel, vel, 1, bytes, bytes)) != TSL_OK)
        return s;
    int ni = (int)n;
    float eps2 = softening * softening;
    size_t global = (n + local - 1) / local * local;
    for (int step = 0; s == TSL_OK && step < steps; ++step) {
        tsl__arg args[] = {{sizeof ni, &ni},        {sizeof dt, &dt},
                           {sizeof eps2, &eps2},    {sizeof(cl_mem), &cur},
                           {sizeof(cl_mem), &next}, {sizeof(cl_mem), &dvel}};
        s = tsl__launch(ctx, k, v->name, args, 6, 1, &global, &local);
        cl_mem t = cur;
        cur = next;
        next = t;
    }
    tsl_status waited = tsl__timing_end(ctx); /* nothing is read back from a failed run */
    if (s != TSL_OK) return s;
    if (waited != TSL_OK) return waited;
    /* Only an OpenCL failure of the copies themselves can stop between the two: then vel may
     * hold the new velocities while pos still holds the old positions, and the status says so. */
    if ((s = tsl__download_rect(ctx, dvel, vel, 1, bytes, bytes)) != TSL_OK) return s;
    if ((s = tsl__download_rect(ctx, cur, pos, 1, bytes, bytes)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}
