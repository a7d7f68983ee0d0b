/* gemv.c: GEMV, y = alpha op(A) x + beta y, with CBLAS semantics (both layouts, both
 * transposes, lda, beta == 0 does not read y), host-pointer and device-buffer forms. This file
 * checks the arguments, keeps the variant table (per variant: the kernel for each transpose of
 * the row-major problem), maps every call onto the row-major form and launches gemv.cl.
 *
 * The mapping (as gemm.c does for its layouts): a column-major m x n matrix with leading
 * dimension lda is, on the same memory, the row-major n x m matrix A^T with row stride lda; so a
 * column-major call is the row-major call on n x m with the transpose flipped.
 *
 * Empty problems follow reference BLAS exactly: m or n == 0 returns at once with y unchanged
 * (BLAS's quick return, unlike gemm's k == 0, which scales C); alpha == 0 gives y = beta y
 * without reading A or x. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ops/ops.h"

typedef struct {
    const char *name;
    const char *kernel_n, *kernel_t; /* row-major y = A x, and y = A^T x */
    int grouped;                     /* the N kernel wants one work-group per row (group_sum) */
} gemv_variant;
static const gemv_variant variants[] = {
    {"naive", "gemv_n_naive", "gemv_t_naive", 0},
    {"vector", "gemv_n_vector", "gemv_t_vector", 1},
};

/* Launch shape per device type (first match wins, the last row is the default): wg_n is the
 * work-group of a row for N; (lx, ly) the work-group for T, lx work-items of 4 columns each
 * and ly row slices; target_groups_per_cu: T splits the rows across work-groups until about this
 * many groups per compute unit run (then gemv_t_finish adds the pieces). */
static const struct {
    const char *type;
    size_t wg_n, lx, ly, target_groups_per_cu;
} geometry_table[] = {{"gpu", 256, 32, 8, 8}, {"cpu", 64, 16, 4, 2}, {NULL, 128, 32, 4, 4}};

static const tsl__auto_row auto_table[] = {{"gpu", "vector"}, {"cpu", "vector"}, {NULL, "vector"}};

static const char *variant_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(variants), i);
}

static tsl_status variant_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    const gemv_variant *v =
        tsl__find_variant(ctx, "gemv", TSL__TABLE(variants), auto_table, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return TSL_OK; /* the kernels take whatever work-group size the device allows */
}

const tsl__op_desc tsl__gemv_desc = {.op = "gemv", .variant_name = variant_name, .variant_check = variant_check};

/* ---- the row-major problem ------------------------------------------------------------------ */

typedef struct {
    int dbl;
    size_t elem;
    tsl_trans trans;
    size_t rows, cols, lda; /* row-major A */
    size_t leny;
    int use_ax; /* 0: y = beta y without reading A or x (empty product, or alpha == 0) */
    double alpha, beta;
    cl_mem a, x, y;
} gemv_problem;

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

static tsl_status get_kernel(tsl_context *ctx, int dbl, const char *name, cl_kernel *k)
{
    char options[160];
    snprintf(options, sizeof options, "-DPRECISION=%d -DONLY_ONE_KERNEL -DONLY_%s", dbl ? 64 : 32,
             name);
    return tsl__get_kernel(ctx, "gemv.cl", options, name, k);
}


static size_t pow2_at_most(size_t want, size_t cap)
{
    size_t p = 1;
    while (p * 2 <= want && p * 2 <= cap)
        p *= 2;
    return p;
}

/* y = beta y over len elements (beta == 0: zeros, y not read). */
static tsl_status run_scale(tsl_context *ctx, const gemv_problem *p, size_t len)
{
    if (len == 0 || p->beta == 1.0) return TSL_OK; /* BLAS: y unchanged */
    cl_kernel k;
    tsl_status s = get_kernel(ctx, p->dbl, "gemv_scale", &k);
    if (s != TSL_OK) return s;
    size_t wg = pow2_at_most(256, tsl__kernel_max_wg(ctx, k)), global = round_up(len, wg);
    int n = (int)len;
    tsl__scalar be;
    tsl__arg args[] = {
        {sizeof n, &n}, tsl__scalar_arg(p->dbl, &be, p->beta), {sizeof(cl_mem), &p->y}};
    return tsl__launch(ctx, k, "gemv_scale", args, 3, 1, &global, &wg);
}

static tsl_status run(tsl_context *ctx, const gemv_problem *p)
{
    const gemv_variant *v = tsl__find_variant(ctx, "gemv", TSL__TABLE(variants), auto_table,
                                              tsl__context_variant(ctx, "gemv"));
    if (!v) return TSL_ERR_INVALID_ARG;
    int trans = p->trans == TSL_TRANS;
    size_t leny = p->leny;
    if (!p->use_ax) return run_scale(ctx, p, leny);
    size_t g = 0;
    while (geometry_table[g].type && strcmp(geometry_table[g].type, ctx->info.type) != 0)
        ++g;
    const char *kname = trans ? v->kernel_t : v->kernel_n;
    cl_kernel k;
    tsl_status s = get_kernel(ctx, p->dbl, kname, &k);
    if (s != TSL_OK) return s;
    size_t cap = tsl__kernel_max_wg(ctx, k);
    if (cap > ctx->info.max_work_group) cap = ctx->info.max_work_group;
    int rows = (int)p->rows, cols = (int)p->cols, lda = (int)p->lda;
    tsl__scalar al, be;
    tsl__arg common[] = {{sizeof rows, &rows},
                         {sizeof cols, &cols},
                         tsl__scalar_arg(p->dbl, &al, p->alpha),
                         {sizeof(cl_mem), &p->a},
                         {sizeof lda, &lda},
                         {sizeof(cl_mem), &p->x},
                         tsl__scalar_arg(p->dbl, &be, p->beta),
                         {sizeof(cl_mem), &p->y}};
    tsl__arg args[11];
    memcpy(args, common, sizeof common);
    if (!v->grouped) { /* naive: one work-item per element of y */
        size_t wg = pow2_at_most(128, cap), global = round_up(leny, wg);
        return tsl__launch(ctx, k, kname, args, 8, 1, &global, &wg);
    }
    if (!trans) { /* one work-group per row, as wide as the row needs (a power of two) */
        size_t wg = pow2_at_most(geometry_table[g].wg_n, cap);
        while (wg > 16 && wg * 2 > (p->cols + 3) / 4)
            wg /= 2; /* short rows: narrower groups */
        size_t global = p->rows * wg;
        args[8] = (tsl__arg){wg * p->elem, NULL};
        return tsl__launch(ctx, k, kname, args, 9, 1, &global, &wg);
    }
    /* T: (lx, ly) work-groups over quads of columns; rows split across groups when there are
     * too few column groups to fill the device. */
    size_t lx = geometry_table[g].lx, ly = geometry_table[g].ly;
    while (lx * ly > cap && ly > 1)
        ly /= 2;
    while (lx * ly > cap && lx > 1)
        lx /= 2;
    size_t col_groups = (p->cols + 4 * lx - 1) / (4 * lx);
    size_t cus = ctx->info.compute_units ? ctx->info.compute_units : 1;
    size_t target = cus * geometry_table[g].target_groups_per_cu, splits = 1;
    if (col_groups < target) splits = (target + col_groups - 1) / col_groups;
    size_t max_splits = (p->rows + 16 * ly - 1) / (16 * ly); /* at least 16 rows per work-item */
    if (splits > max_splits) splits = max_splits;
    if (splits < 1) splits = 1;
    int chunk = (int)((p->rows + splits - 1) / splits);
    splits = (p->rows + (size_t)chunk - 1) / (size_t)chunk;
    cl_mem partial = p->y; /* unused with one split */
    if (splits > 1 &&
        (s = tsl__workspace(ctx, TSL__WS_SCRATCH3, splits * p->cols * p->elem, &partial)) != TSL_OK)
        return s;
    args[8] = (tsl__arg){sizeof chunk, &chunk};
    args[9] = (tsl__arg){sizeof(cl_mem), &partial};
    args[10] = (tsl__arg){lx * ly * 4 * p->elem, NULL};
    size_t local[2] = {lx, ly}, global[2] = {col_groups * lx, splits * ly};
    if ((s = tsl__launch(ctx, k, kname, args, 11, 2, global, local)) != TSL_OK) return s;
    if (splits == 1) return TSL_OK;
    cl_kernel kf;
    if ((s = get_kernel(ctx, p->dbl, "gemv_t_finish", &kf)) != TSL_OK) return s;
    size_t wg = pow2_at_most(256, tsl__kernel_max_wg(ctx, kf)), gf = round_up(p->cols, wg);
    int nsplits = (int)splits;
    tsl__arg fin[] = {{sizeof cols, &cols},
                      {sizeof nsplits, &nsplits},
                      {sizeof(cl_mem), &partial},
                      tsl__scalar_arg(p->dbl, &al, p->alpha),
                      tsl__scalar_arg(p->dbl, &be, p->beta),
                      {sizeof(cl_mem), &p->y}};
    return tsl__launch(ctx, kf, "gemv_t_finish", fin, 6, 1, &gf, &wg);
}

/* ---- argument checks and entry points ------------------------------------------------------- */

typedef struct {
    tsl_layout layout;
    tsl_trans trans;
    size_t m, n, lda;
} gemv_args;

/* The row-major view: A as rows x cols with its transpose; x and y lengths of the caller. */
typedef struct {
    tsl_trans trans;
    size_t rows, cols, lenx, leny;
} gemv_view;

static gemv_view normalize(const gemv_args *g)
{
    gemv_view v;
    int col = g->layout == TSL_COL_MAJOR;
    v.rows = col ? g->n : g->m;
    v.cols = col ? g->m : g->n;
    v.trans = (g->trans == TSL_TRANS) != col ? TSL_TRANS : TSL_NO_TRANS;
    v.lenx = g->trans == TSL_TRANS ? g->m : g->n;
    v.leny = g->trans == TSL_TRANS ? g->n : g->m;
    return v;
}

static tsl_status check_args(tsl_context *ctx, const char *fn, const gemv_args *g)
{
    if (g->layout != TSL_ROW_MAJOR && g->layout != TSL_COL_MAJOR)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: layout %d is neither TSL_ROW_MAJOR nor TSL_COL_MAJOR", fn,
                         (int)g->layout);
    tsl_status s = tsl__check_trans(ctx, fn, "trans", g->trans);
    if (s != TSL_OK) return s;
    /* CBLAS: row-major rows hold n elements, column-major columns m. */
    size_t need = g->layout == TSL_ROW_MAJOR ? g->n : g->m;
    if (need == 0) need = 1;
    if (g->lda < need)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: lda = %zu is smaller than %zu, which A needs", fn, g->lda, need);
    if (g->m > INT_MAX || g->n > INT_MAX || g->lda > INT_MAX)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "%s: m, n and lda above 2^31-1 are not supported", fn);
    return TSL_OK;
}

static tsl_status gemv_host(tsl_context *ctx, const char *fn, int dbl, const gemv_args *g,
                            double alpha, const void *a, const void *x, double beta, void *y)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    gemv_view v = normalize(g);
    if (v.leny == 0 || v.lenx == 0) return TSL_OK; /* BLAS quick return: y unchanged */
    if (!y) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: y is NULL", fn);
    int use_ax = v.lenx > 0 && alpha != 0.0;
    if (use_ax && !a) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: A is NULL", fn);
    if (use_ax && !x) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: x is NULL", fn);
    if (!use_ax && beta == 1.0) return TSL_OK; /* y = y */
    if ((s = tsl__check_fp64(ctx, dbl, fn)) != TSL_OK) return s;
    size_t elem = dbl ? sizeof(double) : sizeof(float);
    if (tsl__mul_overflows(v.rows, v.cols) || tsl__mul_overflows(v.rows * v.cols, elem))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: the matrix byte count overflows", fn);
    gemv_problem p = {dbl,    elem,  v.trans, v.rows, v.cols, v.cols, v.leny,
                      use_ax, alpha, beta,    NULL,   NULL,   NULL};
    if ((s = tsl__workspace(ctx, TSL__WS_C, v.leny * elem, &p.y)) != TSL_OK) return s;
    p.a = p.x = p.y; /* not read unless use_ax */
    if (use_ax) {
        if ((s = tsl__workspace(ctx, TSL__WS_A, v.rows * v.cols * elem, &p.a)) != TSL_OK) return s;
        if ((s = tsl__workspace(ctx, TSL__WS_B, v.lenx * elem, &p.x)) != TSL_OK) return s;
        if ((s = tsl__upload_rect(ctx, p.a, a, v.rows, v.cols * elem, g->lda * elem)) != TSL_OK)
            return s;
        if ((s = tsl__upload_rect(ctx, p.x, x, 1, v.lenx * elem, v.lenx * elem)) != TSL_OK)
            return s;
    }
    if (beta != 0.0 &&
        (s = tsl__upload_rect(ctx, p.y, y, 1, v.leny * elem, v.leny * elem)) != TSL_OK)
        return s;
    s = run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx); /* waits: nothing is read back from a failed run */
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__download_rect(ctx, p.y, y, 1, v.leny * elem, v.leny * elem)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

static tsl_status gemv_buf(tsl_context *ctx, const char *fn, int dbl, const gemv_args *g,
                           double alpha, const tsl_buffer *a, const tsl_buffer *x, double beta,
                           tsl_buffer *y)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    gemv_view v = normalize(g);
    if (v.leny == 0 || v.lenx == 0) return TSL_OK; /* BLAS quick return: y unchanged */
    size_t elem = dbl ? sizeof(double) : sizeof(float);
    int use_ax = v.lenx > 0 && alpha != 0.0;
    if ((s = tsl__check_matrix_buffer(ctx, fn, "y", y, 1, v.leny, v.leny, elem)) != TSL_OK)
        return s;
    if (use_ax &&
        (s = tsl__check_matrix_buffer(ctx, fn, "A", a, v.rows, v.cols, g->lda, elem)) != TSL_OK)
        return s;
    if (use_ax &&
        (s = tsl__check_matrix_buffer(ctx, fn, "x", x, 1, v.lenx, v.lenx, elem)) != TSL_OK)
        return s;
    if (!use_ax && beta == 1.0) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, dbl, fn)) != TSL_OK) return s;
    gemv_problem p = {dbl,
                      elem,
                      v.trans,
                      v.rows,
                      v.cols,
                      g->lda,
                      v.leny,
                      use_ax,
                      alpha,
                      beta,
                      use_ax ? a->mem : y->mem,
                      use_ax ? x->mem : y->mem,
                      y->mem};
    s = run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

tsl_status tsl_sgemv(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m, size_t n,
                     float alpha, const float *a, size_t lda, const float *x, float beta, float *y)
{
    gemv_args g = {layout, tsl__real_trans(trans), m, n, lda};
    return gemv_host(ctx, "tsl_sgemv", 0, &g, alpha, a, x, beta, y);
}

tsl_status tsl_dgemv(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m, size_t n,
                     double alpha, const double *a, size_t lda, const double *x, double beta,
                     double *y)
{
    gemv_args g = {layout, tsl__real_trans(trans), m, n, lda};
    return gemv_host(ctx, "tsl_dgemv", 1, &g, alpha, a, x, beta, y);
}

tsl_status tsl_sgemv_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m, size_t n,
                         float alpha, const tsl_buffer *a, size_t lda, const tsl_buffer *x,
                         float beta, tsl_buffer *y)
{
    gemv_args g = {layout, tsl__real_trans(trans), m, n, lda};
    return gemv_buf(ctx, "tsl_sgemv_buf", 0, &g, alpha, a, x, beta, y);
}

tsl_status tsl_dgemv_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m, size_t n,
                         double alpha, const tsl_buffer *a, size_t lda, const tsl_buffer *x,
                         double beta, tsl_buffer *y)
{
    gemv_args g = {layout, tsl__real_trans(trans), m, n, lda};
    return gemv_buf(ctx, "tsl_dgemv_buf", 1, &g, alpha, a, x, beta, y);
}
