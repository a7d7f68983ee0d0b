/* blas1.c: the BLAS-1 operations axpy (y = alpha x + y), dot (x . y) and nrm2 (||x||_2) on
 * unit-stride vectors, host-pointer and device-buffer forms. This file checks the arguments,
 * keeps the variant table (a row per variant: the kernel of each op and its launch shape), and
 * launches the kernels of src/kernels/blas1.cl.
 *
 * Determinism: the launch shape of a reduction (work-group size, number of groups) depends only
 * on the device, n and the variant, and every kernel adds in an order fixed by that shape, so a
 * dot or nrm2 gives the same bits on every run. The partials of the groups are reduced on the
 * device by one work-group (sum_finish / nrm2_finish): no host round trip, no atomics.
 * nrm2's overflow/underflow-safe scheme is described in blas1.cl and docs/blas.md. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ops/ops.h"

typedef enum { OP_AXPY, OP_DOT, OP_NRM2 } blas1_op;
static const char *const op_names[] = {"axpy", "dot", "nrm2"};

/* The reference path first (one work-item per element), then the fast one (real4 loads, a
 * fixed grid sized to fill the device, each work-item striding over many elements). */
typedef struct {
    const char *name;
    const char *kernel[3]; /* per op: axpy, dot, nrm2 (its first pass) */
    const char *nrm2_scaled;
    int fixed_grid; /* 0: one work-item per element; 1: compute units x groups_per_cu groups */
    /* Single precision on a device with fp64: dot and nrm2 sum in double through these (one
     * pass, then wide_finish; nrm2 needs no scaled pass). Otherwise the kernels above run. */
    const char *wide[3];
} blas1_variant;
static const blas1_variant variants[] = {
    {"naive", {"axpy_scalar", "dot_scalar", "nrm2_scalar"}, "nrm2_scaled_scalar", 0, {0}},
    {"vector", {"axpy_vector", "dot_vector", "nrm2_vector"}, "nrm2_scaled_vector", 1, {0}},
    {"wide",
     {"axpy_vector", "dot_vector", "nrm2_vector"},
     "nrm2_scaled_vector",
     1,
     {NULL, "dot_wide", "nrm2_wide"}},
};

/* Launch shape of the fixed grid per device type, for axpy and for the reductions; the first
 * matching row wins, the last is the default. GPUs: axpy with one 16-byte vector per work-item (float4,
 * double2; H200, 2^26 elements against the copy row, three runs each, bench/results/h200/memory:
 * single 0.97-0.98x, where 8 groups of 256 per compute unit, which fill an SM's 2048 threads,
 * reached 0.90-0.94x and 32 groups 0.94-0.95x; double 0.99-1.00x with double2 against 0.89-0.90x
 * with double4); the reductions with 8 groups of 256 per compute unit. PoCL runs a
 * work-group as a loop on one core and vectorizes across work-items only without an inner loop:
 * axpy runs best with one real4 per work-item (a huge groups_per_cu: the grid is then capped by
 * n), a reduction with few groups, since every group pays its barriers (docs/blas.md). */
static const struct {
    const char *type;
    size_t wg, groups_per_cu_axpy, groups_per_cu_reduce;
    int axpy_w[2]; /* elements per vector access of axpy_vector, single and double */
} geometry_table[] = {{"gpu", 256, 1u << 20, 8, {4, 2}},
                      {"cpu", 64, 1u << 20, 4, {4, 4}},
                      {NULL, 128, 4, 4, {4, 4}}};

/* What `auto` stands for per device type (docs/blas.md has the measurements). */
static const tsl__auto_row auto_table[] = {{"gpu", "wide"}, {"cpu", "vector"}, {NULL, "vector"}};

static const char *variant_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(variants), i);
}

static tsl_status check_variant(tsl_context *ctx, blas1_op op, const char *variant,
                                const char **resolved)
{
    const blas1_variant *v =
        tsl__find_variant(ctx, op_names[op], TSL__TABLE(variants), auto_table, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return TSL_OK; /* every variant takes whatever work-group size the device allows */
}

static tsl_status axpy_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    return check_variant(ctx, OP_AXPY, variant, resolved);
}
static tsl_status dot_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    return check_variant(ctx, OP_DOT, variant, resolved);
}
static tsl_status nrm2_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    return check_variant(ctx, OP_NRM2, variant, resolved);
}

const tsl__op_desc tsl__axpy_desc = {.op = "axpy", .variant_name = variant_name, .variant_check = axpy_check};
const tsl__op_desc tsl__dot_desc = {.op = "dot", .variant_name = variant_name, .variant_check = dot_check};
const tsl__op_desc tsl__nrm2_desc = {.op = "nrm2", .variant_name = variant_name, .variant_check = nrm2_check};

/* ---- launching ------------------------------------------------------------------------------ */

/* extra: more -D options, or "" */
static tsl_status get_kernel_opts(tsl_context *ctx, int dbl, const char *name, const char *extra,
                                  cl_kernel *k)
{
    char options[160];
    snprintf(options, sizeof options, "-DPRECISION=%d -DONLY_ONE_KERNEL -DONLY_%s%s%s",
             dbl ? 64 : 32, name, *extra ? " " : "", extra);
    return tsl__get_kernel(ctx, "blas1.cl", options, name, k);
}

static tsl_status get_kernel(tsl_context *ctx, int dbl, const char *name, cl_kernel *k)
{
    return get_kernel_opts(ctx, dbl, name, "", k);
}

/* The largest power of two <= min(want, what the kernel allows): group_sum needs a power of
 * two. Fixed for a device and kernel, so reductions keep their shape from run to run. */
static size_t local_size(tsl_context *ctx, cl_kernel k, size_t want)
{
    size_t cap = tsl__kernel_max_wg(ctx, k), wg = 1;
    if (cap > ctx->info.max_work_group) cap = ctx->info.max_work_group;
    while (wg * 2 <= want && wg * 2 <= cap)
        wg *= 2;
    return wg;
}

typedef struct {
    int dbl;
    size_t elem;
    size_t n; /* > 0 */
    double alpha;
    cl_mem x, y, out; /* out: one element, for dot and nrm2 */
} blas1_problem;

/* One work-group over count partials: sum_finish, nrm2_finish or nrm2_scaled_finish. */
static tsl_status run_finish(tsl_context *ctx, const blas1_problem *p, const char *name,
                             const tsl__arg *args, int nargs)
{
    cl_kernel k;
    tsl_status s = get_kernel(ctx, p->dbl, name, &k);
    if (s != TSL_OK) return s;
    size_t wg = local_size(ctx, k, 256);
    tsl__arg all[8];
    memcpy(all, args, (size_t)nargs * sizeof *args);
    all[nargs] = (tsl__arg){wg * p->elem, NULL}; /* the local buffer of group_sum */
    return tsl__launch(ctx, k, name, all, nargs + 1, 1, &wg, &wg);
}

static tsl_status run(tsl_context *ctx, blas1_op op, const blas1_problem *p)
{
    const blas1_variant *v = tsl__find_variant(ctx, op_names[op], TSL__TABLE(variants), auto_table,
                                               tsl__context_variant(ctx, op_names[op]));
    if (!v) return TSL_ERR_INVALID_ARG;
    size_t g = 0;
    while (geometry_table[g].type && strcmp(geometry_table[g].type, ctx->info.type) != 0)
        ++g;
    const int wide = v->wide[op] && !p->dbl && ctx->info.fp64;
    const char *kname = wide ? v->wide[op] : v->kernel[op];
    cl_kernel k, k2 = NULL;
    int w = op == OP_AXPY ? geometry_table[g].axpy_w[p->dbl] : 4; /* elements per vector access */
    char wopt[24] = "";
    if (op == OP_AXPY) snprintf(wopt, sizeof wopt, "-DAXPY_W=%d", w);
    tsl_status s = get_kernel_opts(ctx, p->dbl, kname, wopt, &k);
    if (s == TSL_OK && op == OP_NRM2 && !wide) s = get_kernel(ctx, p->dbl, v->nrm2_scaled, &k2);
    if (s != TSL_OK) return s;
    size_t wg = local_size(ctx, k, geometry_table[g].wg);
    if (k2 && local_size(ctx, k2, wg) < wg) wg = local_size(ctx, k2, wg); /* both passes alike */
    size_t groups = (p->n + wg - 1) / wg; /* one work-item per element */
    if (v->fixed_grid) {
        size_t quads = (p->n + (size_t)w - 1) / (size_t)w, need = (quads + wg - 1) / wg;
        size_t cus = ctx->info.compute_units ? ctx->info.compute_units : 1;
        groups = cus * (op == OP_AXPY ? geometry_table[g].groups_per_cu_axpy
                                      : geometry_table[g].groups_per_cu_reduce);
        if (groups > need) groups = need; /* no idle groups on small vectors */
    }
    if (groups > INT_MAX / 2)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "%s: n = %zu needs more than 2^30 work-groups",
                         op_names[op], p->n);
    size_t global = groups * wg;
    cl_long n = (cl_long)p->n;
    int count = (int)groups;
    tsl__scalar al;
    if (op == OP_AXPY) {
        tsl__arg args[] = {{sizeof n, &n},
                           tsl__scalar_arg(p->dbl, &al, p->alpha),
                           {sizeof(cl_mem), &p->x},
                           {sizeof(cl_mem), &p->y}};
        return tsl__launch(ctx, k, v->kernel[op], args, 4, 1, &global, &wg);
    }
    cl_mem partial, state;
    if ((s = tsl__workspace(ctx, TSL__WS_SCRATCH, 2 * groups * p->elem, &partial)) != TSL_OK)
        return s;
    if (wide) { /* one pass in double (partials of 8 bytes: the workspace's 2 x 4), then finish */
        tsl__arg local = {wg * sizeof(cl_double), NULL};
        tsl__arg a1[5] = {{sizeof n, &n}, {sizeof(cl_mem), &p->x}};
        int na = 2;
        if (op == OP_DOT) a1[na++] = (tsl__arg){sizeof(cl_mem), &p->y};
        a1[na++] = (tsl__arg){sizeof(cl_mem), &partial};
        a1[na++] = local;
        if ((s = tsl__launch(ctx, k, kname, a1, na, 1, &global, &wg)) != TSL_OK) return s;
        cl_kernel kf;
        if ((s = get_kernel(ctx, 0, "wide_finish", &kf)) != TSL_OK) return s;
        size_t wf = local_size(ctx, kf, 256);
        int root = op == OP_NRM2;
        tsl__arg fin[] = {{sizeof count, &count},
                          {sizeof root, &root},
                          {sizeof(cl_mem), &partial},
                          {sizeof(cl_mem), &p->out},
                          {wf * sizeof(cl_double), NULL}};
        return tsl__launch(ctx, kf, "wide_finish", fin, 5, 1, &wf, &wf);
    }
    tsl__arg local = {wg * p->elem, NULL};
    if (op == OP_DOT) {
        tsl__arg args[] = {{sizeof n, &n},
                           {sizeof(cl_mem), &p->x},
                           {sizeof(cl_mem), &p->y},
                           {sizeof(cl_mem), &partial},
                           local};
        if ((s = tsl__launch(ctx, k, v->kernel[op], args, 5, 1, &global, &wg)) != TSL_OK) return s;
        tsl__arg fin[] = {
            {sizeof count, &count}, {sizeof(cl_mem), &partial}, {sizeof(cl_mem), &p->out}};
        return run_finish(ctx, p, "sum_finish", fin, 3);
    }
    /* nrm2: pass 1, finish (or flag), scaled pass and its finish (both return at once when the
     * flag is clear). */
    if ((s = tsl__workspace(ctx, TSL__WS_SCRATCH2, 2 * sizeof(cl_int), &state)) != TSL_OK) return s;
    tsl__arg a1[] = {{sizeof n, &n}, {sizeof(cl_mem), &p->x}, {sizeof(cl_mem), &partial}, local};
    if ((s = tsl__launch(ctx, k, v->kernel[op], a1, 4, 1, &global, &wg)) != TSL_OK) return s;
    tsl__arg f1[] = {{sizeof n, &n},
                     {sizeof count, &count},
                     {sizeof(cl_mem), &partial},
                     {sizeof(cl_mem), &p->out},
                     {sizeof(cl_mem), &state}};
    if ((s = run_finish(ctx, p, "nrm2_finish", f1, 5)) != TSL_OK) return s;
    tsl__arg a2[] = {{sizeof n, &n},
                     {sizeof(cl_mem), &p->x},
                     {sizeof(cl_mem), &state},
                     {sizeof(cl_mem), &partial},
                     local};
    if ((s = tsl__launch(ctx, k2, v->nrm2_scaled, a2, 5, 1, &global, &wg)) != TSL_OK) return s;
    tsl__arg f2[] = {{sizeof count, &count},
                     {sizeof(cl_mem), &partial},
                     {sizeof(cl_mem), &state},
                     {sizeof(cl_mem), &p->out}};
    return run_finish(ctx, p, "nrm2_scaled_finish", f2, 4);
}

/* ---- argument checks and entry points ------------------------------------------------------- */

static void store_scalar(int dbl, void *result, double v)
{
    if (dbl)
        *(double *)result = v;
    else
        *(float *)result = (float)v;
}

/* Host pointers: x, y (read by axpy and dot), y_out (axpy's result: the caller's y) and
 * result (dot, nrm2). */
static tsl_status blas1_host(tsl_context *ctx, const char *fn, blas1_op op, int dbl, size_t n,
                             double alpha, const void *x, const void *y, void *y_out, void *result)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    if (op != OP_AXPY && !result)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: result is NULL", fn);
    if (n > 0 && !x) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: x is NULL", fn);
    if (n > 0 && op != OP_NRM2 && !y)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: y is NULL", fn);
    size_t elem = dbl ? sizeof(double) : sizeof(float);
    if (n == 0 || (op == OP_AXPY && alpha == 0.0)) { /* BLAS: nothing to read; 0 for dot, nrm2 */
        if (result) store_scalar(dbl, result, 0.0);
        return TSL_OK;
    }
    tsl_status s = tsl__check_fp64(ctx, dbl, fn);
    if (s != TSL_OK) return s;
    if (n > SIZE_MAX / elem)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: n = %zu elements overflow a byte count",
                         fn, n);
    blas1_problem p = {dbl, elem, n, alpha, NULL, NULL, NULL};
    if ((s = tsl__workspace(ctx, TSL__WS_A, n * elem, &p.x)) != TSL_OK) return s;
    if ((s = tsl__upload_rect(ctx, p.x, x, 1, n * elem, n * elem)) != TSL_OK) return s;
    if (op != OP_NRM2) {
        if ((s = tsl__workspace(ctx, TSL__WS_B, n * elem, &p.y)) != TSL_OK) return s;
        if ((s = tsl__upload_rect(ctx, p.y, y, 1, n * elem, n * elem)) != TSL_OK) return s;
    }
    if (op != OP_AXPY && (s = tsl__workspace(ctx, TSL__WS_C, elem, &p.out)) != TSL_OK) return s;
    s = run(ctx, op, &p);
    tsl_status done = tsl__timing_end(ctx); /* waits: nothing is read back from a failed run */
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if (op == OP_AXPY) {
        s = tsl__download_rect(ctx, p.y, y_out, 1, n * elem, n * elem);
    } else {
        double v = 0.0; /* read into a temporary: *result is written only on success */
        s = tsl__download_rect(ctx, p.out, &v, 1, elem, elem);
        if (s == TSL_OK) memcpy(result, &v, elem);
    }
    if (s != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

static tsl_status blas1_buf(tsl_context *ctx, const char *fn, blas1_op op, int dbl, size_t n,
                            double alpha, const tsl_buffer *x, const tsl_buffer *y, void *result)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    if (op != OP_AXPY && !result)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: result is NULL", fn);
    size_t elem = dbl ? sizeof(double) : sizeof(float);
    tsl_status s;
    if (n > 0 && (s = tsl__check_matrix_buffer(ctx, fn, "x", x, 1, n, n, elem)) != TSL_OK) return s;
    if (n > 0 && op != OP_NRM2 &&
        (s = tsl__check_matrix_buffer(ctx, fn, "y", y, 1, n, n, elem)) != TSL_OK)
        return s;
    if (n == 0 || (op == OP_AXPY && alpha == 0.0)) {
        if (result) store_scalar(dbl, result, 0.0);
        return TSL_OK;
    }
    if ((s = tsl__check_fp64(ctx, dbl, fn)) != TSL_OK) return s;
    blas1_problem p = {dbl, elem, n, alpha, x->mem, op != OP_NRM2 ? y->mem : NULL, NULL};
    if (op != OP_AXPY && (s = tsl__workspace(ctx, TSL__WS_C, elem, &p.out)) != TSL_OK) return s;
    s = run(ctx, op, &p);
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if (op == OP_AXPY) return TSL_OK;
    double v = 0.0;
    if ((s = tsl__download_rect(ctx, p.out, &v, 1, elem, elem)) != TSL_OK) return s;
    memcpy(result, &v, elem);
    return tsl__timing_end(ctx);
}

tsl_status tsl_saxpy(tsl_context *ctx, size_t n, float alpha, const float *x, float *y)
{
    return blas1_host(ctx, "tsl_saxpy", OP_AXPY, 0, n, alpha, x, y, y, NULL);
}
tsl_status tsl_daxpy(tsl_context *ctx, size_t n, double alpha, const double *x, double *y)
{
    return blas1_host(ctx, "tsl_daxpy", OP_AXPY, 1, n, alpha, x, y, y, NULL);
}
tsl_status tsl_sdot(tsl_context *ctx, size_t n, const float *x, const float *y, float *result)
{
    return blas1_host(ctx, "tsl_sdot", OP_DOT, 0, n, 0.0, x, y, NULL, result);
}
tsl_status tsl_ddot(tsl_context *ctx, size_t n, const double *x, const double *y, double *result)
{
    return blas1_host(ctx, "tsl_ddot", OP_DOT, 1, n, 0.0, x, y, NULL, result);
}
tsl_status tsl_snrm2(tsl_context *ctx, size_t n, const float *x, float *result)
{
    return blas1_host(ctx, "tsl_snrm2", OP_NRM2, 0, n, 0.0, x, NULL, NULL, result);
}
tsl_status tsl_dnrm2(tsl_context *ctx, size_t n, const double *x, double *result)
{
    return blas1_host(ctx, "tsl_dnrm2", OP_NRM2, 1, n, 0.0, x, NULL, NULL, result);
}

tsl_status tsl_saxpy_buf(tsl_context *ctx, size_t n, float alpha, const tsl_buffer *x,
                         tsl_buffer *y)
{
    return blas1_buf(ctx, "tsl_saxpy_buf", OP_AXPY, 0, n, alpha, x, y, NULL);
}
tsl_status tsl_daxpy_buf(tsl_context *ctx, size_t n, double alpha, const tsl_buffer *x,
                         tsl_buffer *y)
{
    return blas1_buf(ctx, "tsl_daxpy_buf", OP_AXPY, 1, n, alpha, x, y, NULL);
}
tsl_status tsl_sdot_buf(tsl_context *ctx, size_t n, const tsl_buffer *x, const tsl_buffer *y,
                        float *result)
{
    return blas1_buf(ctx, "tsl_sdot_buf", OP_DOT, 0, n, 0.0, x, y, result);
}
tsl_status tsl_ddot_buf(tsl_context *ctx, size_t n, const tsl_buffer *x, const tsl_buffer *y,
                        double *result)
{
    return blas1_buf(ctx, "tsl_ddot_buf", OP_DOT, 1, n, 0.0, x, y, result);
}
tsl_status tsl_snrm2_buf(tsl_context *ctx, size_t n, const tsl_buffer *x, float *result)
{
    return blas1_buf(ctx, "tsl_snrm2_buf", OP_NRM2, 0, n, 0.0, x, NULL, result);
}
tsl_status tsl_dnrm2_buf(tsl_context *ctx, size_t n, const tsl_buffer *x, double *result)
{
    return blas1_buf(ctx, "tsl_dnrm2_buf", OP_NRM2, 1, n, 0.0, x, NULL, result);
}
