/* kmeans.c: 002's K-means assignment step (tsl_kmeans_assign): assign[i] = the index of the
 * centroid nearest to point i. This file checks the arguments, keeps the variant table (a variant
 * is a kernel of kmeans.cl and whether it reads the centroids packed), and launches: points and
 * centroids uploaded, the packing pre-pass where the variant needs it, one work-item per point,
 * the assignments downloaded.
 *
 * Variants, in 002's order: `original` (its unoptimized kernel: one point against every cluster
 * in turn), `unrolled` (the cluster loop unrolled eight times and jammed into the dimension loop:
 * 002's 1 x 8 rectangular tile with scalar accumulators) and `optimized` (that tile with float8,
 * 002's final kernel). docs/kmeans.md has the measurements and the verification rule. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ops/ops.h"

typedef struct {
    const char *name;
    const char *kernel;
    int packed; /* 1: reads the centroids transposed and padded (kmeans_pack) */
} kmeans_variant;

/* The reference path first, then 002's steps. */
static const kmeans_variant variants[] = {
    {"original", "kmeans_original", 0},
    {"unrolled", "kmeans_unrolled", 1},
    {"optimized", "kmeans_tiled_float8", 1},
};

/* Work-group size per device type (first match wins, the last row is the default), capped by
 * what the kernel allows. 64 everywhere: 002's choice on its GPUs (other sizes are not measured
 * on a GPU); on PoCL a group runs as one loop on one core and 64 gives both cores many groups. */
static const struct {
    const char *type;
    size_t local;
} geometry_table[] = {{"gpu", 64}, {"cpu", 64}, {NULL, 64}};

/* What `auto` stands for per device type: 002's final kernel. On PoCL it ties with `unrolled`
 * and runs 2-4x faster than `original`; on an H200 it is within 5% of `unrolled` and 2.7x
 * `original` (docs/kmeans.md, bench/results/h200/studies). */
static const tsl__auto_row auto_table[] = {
    {"gpu", "optimized"}, {"cpu", "optimized"}, {NULL, "optimized"}};

#define TILE 8 /* clusters per step of the tiled kernels */

static const char *variant_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(variants), i);
}

static tsl_status get_kernel(tsl_context *ctx, const char *name, cl_kernel *k)
{
    char options[128];
    snprintf(options, sizeof options, "-DPRECISION=32 -DONLY_ONE_KERNEL -DONLY_%s", name);
    return tsl__get_kernel(ctx, "kmeans.cl", options, name, k);
}

/* The work-group size of the assignment kernel k on the context's device. */
static size_t local_size(tsl_context *ctx, cl_kernel k)
{
    size_t i = 0;
    while (geometry_table[i].type && strcmp(geometry_table[i].type, ctx->info.type) != 0)
        ++i;
    size_t local = geometry_table[i].local, cap = tsl__kernel_max_wg(ctx, k);
    if (cap > ctx->info.max_work_group) cap = ctx->info.max_work_group;
    return local < cap ? local : (cap ? cap : 1);
}

/* Builds the variant's kernels (a kernel that does not build is the only way a variant cannot
 * run: any group size down to 1 works). */
static tsl_status variant_kernels(tsl_context *ctx, const kmeans_variant *v, cl_kernel *assign,
                                  cl_kernel *pack)
{
    tsl_status s = get_kernel(ctx, v->kernel, assign);
    if (s == TSL_OK && v->packed) s = get_kernel(ctx, "kmeans_pack", pack);
    return s;
}

static tsl_status variant_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    const kmeans_variant *v =
        tsl__find_variant(ctx, "kmeans", TSL__TABLE(variants), auto_table, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    cl_kernel a, p;
    return variant_kernels(ctx, v, &a, &p);
}

const tsl__op_desc tsl__kmeans_desc = {
    .op = "kmeans",
    .variant_name = variant_name,
    .variant_check = variant_check,
    .single_only = 1,
};

/* ---- the call ------------------------------------------------------------------------------- */

/* bytes = rows * cols * sizeof(float), or 0 when that overflows size_t. */
static size_t matrix_bytes(size_t rows, size_t cols)
{
    if (tsl__mul_overflows(rows, cols) || tsl__mul_overflows(rows * cols, sizeof(float))) return 0;
    return rows * cols * sizeof(float);
}

/* A device buffer of `bytes` for `what` must fit the largest allocation of the device. */
static tsl_status check_alloc(tsl_context *ctx, const char *what, size_t bytes)
{
    if (bytes > ctx->info.max_alloc)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY,
                         "tsl_kmeans_assign: %s need %zu bytes, more than the largest buffer "
                         "device %s allows (%llu bytes)",
                         what, bytes, ctx->info.name, ctx->info.max_alloc);
    return TSL_OK;
}

tsl_status tsl_kmeans_assign(tsl_context *ctx, size_t n, size_t k, size_t dim, const float *points,
                             const float *centroids, int *assign)
{
    const char *fn = "tsl_kmeans_assign";
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    if (k == 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: k = 0; there must be at least one centroid",
                         fn);
    if (dim == 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: dim = 0; points need at least one dimension", fn);
    if (k > (size_t)INT_MAX - TILE)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: k = %zu centroids; assign holds int indices, k must be below %d", fn,
                         k, INT_MAX - TILE);
    if (dim > (size_t)INT_MAX)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: dim = %zu is above %d", fn, dim, INT_MAX);
    if (n == 0) return TSL_OK; /* no point to assign: nothing is read or written */
    if (!points) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: points is NULL", fn);
    if (!centroids) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: centroids is NULL", fn);
    if (!assign) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: assign is NULL", fn);
    size_t kpad = (k + TILE - 1) / TILE * TILE;
    size_t point_bytes = matrix_bytes(n, dim), centroid_bytes = matrix_bytes(kpad, dim);
    if (!point_bytes || n > (size_t)LONG_MAX / dim)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: n = %zu points of dim = %zu floats overflow a byte count", fn, n,
                         dim);
    if (!centroid_bytes)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: k = %zu centroids of dim = %zu floats overflow a byte count", fn, k,
                         dim);
    size_t assign_bytes = n * sizeof(int); /* n * dim * sizeof(float) did not overflow */

    const kmeans_variant *v = tsl__find_variant(ctx, "kmeans", TSL__TABLE(variants), auto_table,
                                                tsl__context_variant(ctx, "kmeans"));
    if (!v) return TSL_ERR_INVALID_ARG;
    tsl_status s;
    if ((s = check_alloc(ctx, "the points", point_bytes)) != TSL_OK ||
        (s = check_alloc(ctx, "the centroids", centroid_bytes)) != TSL_OK)
        return s;
    long double total = (long double)point_bytes + 2.0L * centroid_bytes + assign_bytes;
    if (total > (long double)ctx->info.global_mem)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY,
                         "%s: points, centroids and assignments need %.0Lf bytes, more than the "
                         "global memory of %s (%llu bytes)",
                         fn, total, ctx->info.name, ctx->info.global_mem);
    cl_kernel ka, kp = NULL;
    if ((s = variant_kernels(ctx, v, &ka, &kp)) != TSL_OK) return s;

    cl_mem dpoints, dcentroids, dpacked = NULL, dassign;
    size_t given_bytes = k * dim * sizeof(float);
    if ((s = tsl__workspace(ctx, TSL__WS_A, point_bytes, &dpoints)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_B, given_bytes, &dcentroids)) != TSL_OK ||
        (v->packed && (s = tsl__workspace(ctx, TSL__WS_C, centroid_bytes, &dpacked)) != TSL_OK) ||
        (s = tsl__workspace(ctx, TSL__WS_SCRATCH, assign_bytes, &dassign)) != TSL_OK)
        return s;
    if ((s = tsl__upload_rect(ctx, dpoints, points, 1, point_bytes, point_bytes)) != TSL_OK ||
        (s = tsl__upload_rect(ctx, dcentroids, centroids, 1, given_bytes, given_bytes)) != TSL_OK)
        return s;

    cl_long nl = (cl_long)n;
    cl_int ki = (cl_int)k, kpi = (cl_int)kpad, di = (cl_int)dim;
    if (v->packed) {
        size_t global[2] = {kpad, dim};
        tsl__arg pargs[] = {{sizeof ki, &ki},
                            {sizeof kpi, &kpi},
                            {sizeof di, &di},
                            {sizeof(cl_mem), &dcentroids},
                            {sizeof(cl_mem), &dpacked}};
        if ((s = tsl__launch(ctx, kp, "kmeans centroid packing", pargs, 5, 2, global, NULL)) !=
            TSL_OK)
            return s;
    }
    size_t local = local_size(ctx, ka);
    size_t global = (n + local - 1) / local * local;
    tsl__arg args[] = {{sizeof nl, &nl},
                       v->packed ? (tsl__arg){sizeof kpi, &kpi} : (tsl__arg){sizeof ki, &ki},
                       {sizeof di, &di},
                       {sizeof(cl_mem), &dpoints},
                       {sizeof(cl_mem), v->packed ? &dpacked : &dcentroids},
                       {sizeof(cl_mem), &dassign}};
    s = tsl__launch(ctx, ka, v->name, args, 6, 1, &global, &local);
    tsl_status waited = tsl__timing_end(ctx); /* nothing is read back from a failed run */
    if (s != TSL_OK) return s;
    if (waited != TSL_OK) return waited;
    if ((s = tsl__download_rect(ctx, dassign, assign, 1, assign_bytes, assign_bytes)) != TSL_OK)
        return s;
    return tsl__timing_end(ctx);
}
