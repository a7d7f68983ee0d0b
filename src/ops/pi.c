/* pi.c: 002's "Pi calculation" (tsl_pi): the midpoint rule for the integral over [0,1] of
 * 4/(1+x^2) with `steps` rectangles. This file checks the arguments, keeps the variant table (a
 * variant is a vector width and a launch geometry), reads the "global" and "local" options of
 * 002's multithreading sweeps, launches pi_partial (pi.cl) and adds the per-work-item partial
 * sums on the host in double, in work-item order (002's host program adds per-group partials the
 * same way): no atomics anywhere, so a given device, variant and launch give the same bits on
 * every run.
 *
 * Variants, in 002's order: `original` (its unoptimized kernel: scalar, 200 work-items in groups
 * of 50, whatever the options), `multithread` (scalar, massive multithreading: the launch of the
 * geometry table or of the options), `float2` .. `float16` (that launch, each work-item VW steps
 * at a time) and `optimized` (002's final configuration: massive multithreading with float8).
 * docs/pi.md has the accuracy bound and the measurements behind the defaults. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ops/ops.h"

typedef struct {
    const char *name;
    int vw;       /* vector width of the kernel: 1, 2, 4, 8, 16 */
    int original; /* 1: 002's original launch, ORIGINAL_GLOBAL x ORIGINAL_LOCAL, options ignored */
} pi_variant;

#define ORIGINAL_GLOBAL 200
#define ORIGINAL_LOCAL 50

/* The reference path first (BLIS: reference first, then override), then 002's steps. */
static const pi_variant variants[] = {
    {"original", 1, 1}, {"multithread", 1, 0}, {"float2", 2, 0},    {"float4", 4, 0},
    {"float8", 8, 0},   {"float16", 16, 0},    {"optimized", 8, 0},
};

/* The default launch of the massively multithreaded variants per device type (first match wins,
 * the last row is the default): work-group size, and work-items per compute unit. GPU: 64 per
 * group, 002's best on three of its four GPUs (a whole AMD wavefront, two NVIDIA warps), and
 * 2048 work-items per compute unit, a full Hopper SM (002 found >= 512 per SM needed on GT200):
 * on an H200 groups of 32 to 256 are within 1%, and fewer work-items than a full device are
 * slower (bench/results/h200/studies, optimizations.md). CPU (PoCL on the 2-core development
 * machine): the same;
 * launches from 200 x 50 to 65536 x 64 were within the run-to-run noise there (docs/pi.md). */
static const struct {
    const char *type;
    size_t local, per_cu;
} geometry_table[] = {{"gpu", 64, 2048}, {"cpu", 64, 2048}, {NULL, 64, 256}};

/* What `auto` stands for per device type. CPU: float16, the fastest in every PoCL run (AVX-512
 * holds 16 floats; docs/pi.md). GPU and others: 002's final configuration, within 2% of float16
 * on an H200 (bench/results/h200/studies). */
static const tsl__auto_row auto_table[] = {
    {"gpu", "optimized"}, {"cpu", "float16"}, {NULL, "optimized"}};

#define MAX_GLOBAL (1L << 22) /* work-items; the host reads back one float per work-item */

static const char *variant_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(variants), i);
}

static size_t geometry_row(const tsl_context *ctx)
{
    size_t i = 0;
    while (geometry_table[i].type && strcmp(geometry_table[i].type, ctx->info.type) != 0)
        ++i;
    return i;
}

static tsl_status get_kernel(tsl_context *ctx, const pi_variant *v, cl_kernel *k)
{
    char options[128];
    snprintf(options, sizeof options, "-DPRECISION=32 -DONLY_ONE_KERNEL -DONLY_pi_partial -DVW=%d",
             v->vw);
    return tsl__get_kernel(ctx, "pi.cl", options, "pi_partial", k);
}

typedef struct {
    size_t global, local;
} pi_launch;

/* The launch of variant v on the context's device: 002's original one, or the options, else the
 * geometry table; the global size rounded up to a whole number of groups. The default group
 * size is capped at what the compiled kernel allows (k); a group size the caller set is not. */
static pi_launch launch_of(tsl_context *ctx, const pi_variant *v, cl_kernel k)
{
    if (v->original) return (pi_launch){ORIGINAL_GLOBAL, ORIGINAL_LOCAL};
    size_t row = geometry_row(ctx);
    size_t cus = ctx->info.compute_units ? ctx->info.compute_units : 1;
    size_t local = geometry_table[row].local;
    size_t cap = tsl__kernel_max_wg(ctx, k);
    if (cap > ctx->info.max_work_group) cap = ctx->info.max_work_group;
    if (local > cap) local = cap ? cap : 1;
    local = (size_t)tsl__context_option(ctx, "pi", "local", (long)local);
    size_t global =
        (size_t)tsl__context_option(ctx, "pi", "global", (long)(cus * geometry_table[row].per_cu));
    if (global > (size_t)MAX_GLOBAL) global = (size_t)MAX_GLOBAL;
    global = (global + local - 1) / local * local;
    return (pi_launch){global, local};
}

/* Builds the variant's kernel and checks that its launch fits the device and the compiled
 * kernel; *out (if not NULL) receives both. */
static tsl_status variant_fits(tsl_context *ctx, const pi_variant *v, cl_kernel *k_out,
                               pi_launch *out)
{
    cl_kernel k;
    tsl_status s = get_kernel(ctx, v, &k);
    if (s != TSL_OK) return s;
    pi_launch l = launch_of(ctx, v, k);
    size_t max_wg = tsl__kernel_max_wg(ctx, k);
    if (l.local > ctx->info.max_work_group || l.local > max_wg)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "pi variant %s needs work-groups of %zu, device %s allows %zu (this "
                         "kernel %zu)",
                         v->name, l.local, ctx->info.name, ctx->info.max_work_group, max_wg);
    if (k_out) *k_out = k;
    if (out) *out = l;
    return TSL_OK;
}

static tsl_status variant_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    const pi_variant *v = tsl__find_variant(ctx, "pi", TSL__TABLE(variants), auto_table, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return variant_fits(ctx, v, NULL, NULL);
}

static tsl_status option_check(tsl_context *ctx, const char *name, long value)
{
    if (strcmp(name, "global") == 0) {
        if (value < 1 || value > MAX_GLOBAL)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "pi option global = %ld: total work-items must be 1..%ld (rounded "
                             "up to a multiple of local)",
                             value, MAX_GLOBAL);
        return TSL_OK;
    }
    if (strcmp(name, "local") == 0) {
        if (value < 1 || (unsigned long)value > ctx->info.max_work_group)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "pi option local = %ld: work-group size must be 1..%zu on device %s",
                             value, ctx->info.max_work_group, ctx->info.name);
        return TSL_OK;
    }
    return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "unknown pi option '%s' (options: global, local)",
                     name);
}

const tsl__op_desc tsl__pi_desc = {
    .op = "pi",
    .variant_name = variant_name,
    .variant_check = variant_check,
    .option_check = option_check,
    .single_only = 1,
};

/* ---- the call ------------------------------------------------------------------------------- */

tsl_status tsl_pi(tsl_context *ctx, unsigned long long steps, double *pi)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_pi: ctx is NULL");
    tsl__timing_begin(ctx);
    if (!pi) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "tsl_pi: pi is NULL");
    if (steps == 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "tsl_pi: steps = 0; the midpoint rule needs at least 1 rectangle");
    const pi_variant *v = tsl__find_variant(ctx, "pi", TSL__TABLE(variants), auto_table,
                                            tsl__context_variant(ctx, "pi"));
    if (!v) return TSL_ERR_INVALID_ARG;
    cl_kernel k;
    pi_launch l;
    tsl_status s = variant_fits(ctx, v, &k, &l);
    if (s != TSL_OK) return s;

    size_t bytes = l.global * sizeof(float);
    cl_mem partial;
    if ((s = tsl__workspace(ctx, TSL__WS_A, bytes, &partial)) != TSL_OK) return s;
    float *host = tsl__malloc(bytes);
    if (!host)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "tsl_pi: no host memory for %zu partial sums",
                         l.global);
    cl_ulong n = (cl_ulong)steps;
    float h = (float)(1.0 / (double)steps);
    tsl__arg args[] = {{sizeof n, &n}, {sizeof h, &h}, {sizeof(cl_mem), &partial}};
    s = tsl__launch(ctx, k, v->name, args, 3, 1, &l.global, &l.local);
    tsl_status waited = tsl__timing_end(ctx); /* nothing is read back from a failed run */
    if (s == TSL_OK) s = waited;
    if (s == TSL_OK) s = tsl__download_rect(ctx, partial, host, 1, bytes, bytes);
    if (s == TSL_OK) s = tsl__timing_end(ctx);
    if (s == TSL_OK) {
        double sum = 0.0; /* in work-item order: the same bits every run */
        for (size_t g = 0; g < l.global; ++g)
            sum += (double)host[g];
        *pi = sum / (double)steps;
    }
    tsl__free(host);
    return s;
}
