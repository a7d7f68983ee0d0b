/* gemm_buf.c: GEMM's public entry points on buffers (tsl_sgemm_buf, tsl_dgemm_buf, tsl_hgemm_buf,
 * tsl_bgemm_buf, the complex tsl_cgemm_buf and tsl_zgemm_buf), run in place, and the argument
 * checks every GEMM entry point makes: CBLAS semantics (layout, transposes, leading dimensions,
 * sizes), and the column-major problem normalized to the row-major one the kernels compute. The
 * variant's choice and the launch are gemm.c's (tsl__gemm_run), the complex product
 * gemm_complex.c's (tsl__zgemm_mem). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "gemm/gemm_internal.h"
#include "ops/ops.h"

/* ---- argument checks ---------------------------------------------------------------------- */

static size_t max1(size_t x)
{
    return x ? x : 1;
}

/* CBLAS rules; messages speak of the caller's own arguments. */
tsl_status tsl__gemm_check_args(tsl_context *ctx, const char *fn, const gemm_args *g)
{
    if (g->layout != TSL_ROW_MAJOR && g->layout != TSL_COL_MAJOR)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: layout %d is neither TSL_ROW_MAJOR nor TSL_COL_MAJOR", fn,
                         (int)g->layout);
    tsl_status s;
    if ((s = tsl__check_trans(ctx, fn, "transa", g->ta)) != TSL_OK ||
        (s = tsl__check_trans(ctx, fn, "transb", g->tb)) != TSL_OK)
        return s;
    int row = g->layout == TSL_ROW_MAJOR;
    /* In row-major storage the leading dimension covers columns; in column-major, rows. */
    size_t a_need = max1(row == (g->ta == TSL_NO_TRANS) ? g->k : g->m);
    size_t b_need = max1(row == (g->tb == TSL_NO_TRANS) ? g->n : g->k);
    size_t c_need = max1(row ? g->n : g->m);
    if (g->lda < a_need)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: lda = %zu is smaller than %zu, which A needs", fn, g->lda, a_need);
    if (g->ldb < b_need)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: ldb = %zu is smaller than %zu, which B needs", fn, g->ldb, b_need);
    if (g->ldc < c_need)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: ldc = %zu is smaller than %zu, which C needs", fn, g->ldc, c_need);
    if (g->m > INT_MAX || g->n > INT_MAX || g->k > INT_MAX || g->lda > INT_MAX ||
        g->ldb > INT_MAX || g->ldc > INT_MAX)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "%s: sizes and leading dimensions above 2^31-1 are not supported", fn);
    return TSL_OK;
}

gemm_view tsl__gemm_normalize(const gemm_args *g)
{
    gemm_view v = {g->ta, g->tb, g->m, g->n, g->k, g->lda, g->ldb, g->ldc, 0, 0, 0, 0, 0};
    if (g->layout == TSL_COL_MAJOR) {
        v = (gemm_view){g->tb, g->ta, g->n, g->m, g->k, g->ldb, g->lda, g->ldc, 1, 0, 0, 0, 0};
    }
    v.ar = v.ta == TSL_NO_TRANS ? v.m : v.k;
    v.ac = v.ta == TSL_NO_TRANS ? v.k : v.m;
    v.br = v.tb == TSL_NO_TRANS ? v.k : v.n;
    v.bc = v.tb == TSL_NO_TRANS ? v.n : v.k;
    return v;
}

gemm_args tsl__gemm_real_args(const gemm_args *g, int cplx)
{
    gemm_args r = *g;
    if (!cplx) r.ta = tsl__real_trans(r.ta), r.tb = tsl__real_trans(r.tb);
    return r;
}

tsl__zgemm_call tsl__zgemm_of_view(int prec, const gemm_view *v, const double *alpha,
                                   const double *beta)
{
    return (tsl__zgemm_call){.prec = prec,
                             .ta = v->ta,
                             .tb = v->tb,
                             .m = v->m,
                             .n = v->n,
                             .k = v->k,
                             .alpha = {alpha[0], alpha[1]},
                             .beta = {beta[0], beta[1]}};
}

/* ---- buffers --------------------------------------------------------------------------- */

/* alpha and beta are (real, imaginary); the imaginary parts are 0 unless cplx. */
static tsl_status gemm_buf(tsl_context *ctx, const char *fn, int prec, int cplx,
                           const gemm_args *call, const double *alpha, const tsl_buffer *a,
                           const tsl_buffer *b, const double *beta, tsl_buffer *c)
{
    int dbl = prec == TSL_DOUBLE;
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = tsl__gemm_check_args(ctx, fn, call);
    if (s != TSL_OK) return s;
    gemm_args real_args = tsl__gemm_real_args(call, cplx);
    const gemm_args *g = &real_args;
    if (g->m == 0 || g->n == 0) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, dbl, fn)) != TSL_OK) return s;
    gemm_view v = tsl__gemm_normalize(g);
    if (v.swapped) {
        const tsl_buffer *t = a;
        a = b;
        b = t;
    }
    size_t elem = tsl__gemm_elem_size(prec) * (cplx ? 2 : 1);
    int use_ab = g->k > 0 && (alpha[0] != 0.0 || alpha[1] != 0.0);
    const char *an = v.swapped ? "B" : "A", *bn = v.swapped ? "A" : "B";
    if ((s = tsl__check_matrix_buffer(ctx, fn, "C", c, v.m, v.n, v.ldc, elem)) != TSL_OK) return s;
    if (use_ab && (s = tsl__check_matrix_buffer(ctx, fn, an, a, v.ar, v.ac, v.lda, elem)) != TSL_OK)
        return s;
    if (use_ab && (s = tsl__check_matrix_buffer(ctx, fn, bn, b, v.br, v.bc, v.ldb, elem)) != TSL_OK)
        return s;
    gemm_problem p = {.dbl = dbl,
                      .elem = elem,
                      .ta = v.ta,
                      .tb = v.tb,
                      .m = v.m,
                      .n = v.n,
                      .k = v.k,
                      .alpha = alpha[0],
                      .beta = beta[0],
                      .a = use_ab ? a->mem : c->mem,
                      .b = use_ab ? b->mem : c->mem,
                      .c = c->mem,
                      .lda = v.lda,
                      .ldb = v.ldb,
                      .ldc = v.ldc,
                      .kind = tsl__gemm_call_kind(ctx, prec)};
    if (cplx) {
        tsl__zgemm_call z = tsl__zgemm_of_view(prec, &v, alpha, beta);
        z.form3m = tsl__zgemm_form3m(ctx);
        z.a = (tsl__matrix){p.a, 0, v.lda};
        z.b = (tsl__matrix){p.b, 0, v.ldb};
        z.c = (tsl__matrix){p.c, 0, v.ldc};
        s = tsl__zgemm_mem(ctx, &z);
    } else {
        s = tsl__gemm_run(ctx, &p);
    }
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

tsl_status tsl_sgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                         size_t m, size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_buf(ctx, "tsl_sgemm_buf", TSL_SINGLE, 0, &g, (double[2]){alpha, 0}, a, b,
                    (double[2]){beta, 0}, c);
}

tsl_status tsl_dgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                         size_t m, size_t n, size_t k, double alpha, const tsl_buffer *a,
                         size_t lda, const tsl_buffer *b, size_t ldb, double beta, tsl_buffer *c,
                         size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_buf(ctx, "tsl_dgemm_buf", TSL_DOUBLE, 0, &g, (double[2]){alpha, 0}, a, b,
                    (double[2]){beta, 0}, c);
}

tsl_status tsl_hgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                         size_t m, size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_buf(ctx, "tsl_hgemm_buf", TSL_HALF, 0, &g, (double[2]){alpha, 0}, a, b,
                    (double[2]){beta, 0}, c);
}

tsl_status tsl_bgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                         size_t m, size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_buf(ctx, "tsl_bgemm_buf", TSL_BFLOAT16, 0, &g, (double[2]){alpha, 0}, a, b,
                    (double[2]){beta, 0}, c);
}

static tsl_status zgemm_buf(tsl_context *ctx, const char *fn, int prec, const gemm_args *g,
                            const void *alpha, const tsl_buffer *a, const tsl_buffer *b,
                            const void *beta, tsl_buffer *c)
{
    double al[2], be[2];
    tsl_status s = tsl__zgemm_scalars(ctx, fn, prec, alpha, beta, al, be);
    return s != TSL_OK ? s : gemm_buf(ctx, fn, prec, 1, g, al, a, b, be, c);
}

tsl_status tsl_cgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                         size_t m, size_t n, size_t k, const void *alpha, const tsl_buffer *a,
                         size_t lda, const tsl_buffer *b, size_t ldb, const void *beta,
                         tsl_buffer *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return zgemm_buf(ctx, "tsl_cgemm_buf", TSL_SINGLE, &g, alpha, a, b, beta, c);
}

tsl_status tsl_zgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                         size_t m, size_t n, size_t k, const void *alpha, const tsl_buffer *a,
                         size_t lda, const tsl_buffer *b, size_t ldb, const void *beta,
                         tsl_buffer *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return zgemm_buf(ctx, "tsl_zgemm_buf", TSL_DOUBLE, &g, alpha, a, b, beta, c);
}
