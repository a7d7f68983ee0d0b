/* gemm_api.c: GEMM's public entry points on host arrays (tsl_sgemm, tsl_dgemm, tsl_hgemm,
 * tsl_bgemm, and the complex tsl_cgemm, tsl_zgemm): the arrays go through the upload-run-download
 * path or (single and double, real and complex) the GEMM pipeline, which runs the buffer forms
 * (gemm_buf.c) on chunks of C. The argument checks and the row-major view are gemm_buf.c's; the
 * variant's choice and the launch are gemm.c's (tsl__gemm_run), the complex product
 * gemm_complex.c's. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "gemm/gemm_internal.h"
#include "pipeline/gemm_pipeline.h"
#include "ops/ops.h"

/* ---- host arrays ------------------------------------------------------------------------- */

/* The host path through the pipeline (pipeline/gemm_pipeline.c): chunks of rows of C whose uploads,
 * kernels and downloads overlap, through a ring of pinned staging; ctx->timing sums the chunks'
 * kernels and the transfers. */
static tsl_status gemm_pipelined(tsl_context *ctx, const tsl__gemm_host *h)
{
    tsl_timing t;
    memset(&t, 0, sizeof t);
    tsl_status s = tsl__gemm_pipe_run(ctx, h, NULL, &t);
    ctx->timing = t;
    return s;
}

/* alpha and beta are (real, imaginary); the imaginary parts are 0 unless cplx. */
static tsl_status gemm_host(tsl_context *ctx, const char *fn, int prec, int cplx,
                            const gemm_args *call, const double *alpha, const void *a,
                            const void *b, const double *beta, void *c)
{
    int dbl = prec == TSL_DOUBLE;
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = tsl__gemm_check_args(ctx, fn, call);
    if (s != TSL_OK) return s;
    gemm_args real_args = tsl__gemm_real_args(call, cplx);
    const gemm_args *g = &real_args;
    if (g->m == 0 || g->n == 0) return TSL_OK;
    if (!c) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: C is NULL", fn);
    int use_ab = g->k > 0 && (alpha[0] != 0.0 || alpha[1] != 0.0);
    int use_c = beta[0] != 0.0 || beta[1] != 0.0;
    if (use_ab && (!a || !b))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, a ? "B" : "A");
    if ((s = tsl__check_fp64(ctx, dbl, fn)) != TSL_OK) return s;
    gemm_view v = tsl__gemm_normalize(g);
    if (v.swapped) {
        const void *t = a;
        a = b;
        b = t;
    }
    size_t elem = tsl__gemm_elem_size(prec) * (cplx ? 2 : 1);
    if (tsl__mul_overflows(v.ar, v.ac) || tsl__mul_overflows(v.ar * v.ac, elem) ||
        tsl__mul_overflows(v.br, v.bc) || tsl__mul_overflows(v.br * v.bc, elem) ||
        tsl__mul_overflows(v.m, v.n) || tsl__mul_overflows(v.m * v.n, elem))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: matrix byte counts overflow", fn);
    if (prec == TSL_SINGLE || prec == TSL_DOUBLE) { /* the caller's own arguments: the pipeline
                                                     * maps rows of C itself (tsl_[sdcz]gemm_buf,
                                                     * in the context's math mode and complex
                                                     * form) */
        tsl__gemm_host h = {dbl,    g->layout, g->ta,    g->tb,   g->m, g->n, g->k, g->lda,
                            g->ldb, g->ldc,    alpha[0], beta[0], v.swapped ? b : a,
                            v.swapped ? a : b, c,    cplx,     alpha[1], beta[1]};
        if (tsl__gemm_pipe_pays(ctx, &h)) return gemm_pipelined(ctx, &h);
    }
    /* dense copies in the workspace: A and B ac and bc elements a row, C n */
    gemm_problem p = {.dbl = dbl,
                      .elem = elem,
                      .ta = v.ta,
                      .tb = v.tb,
                      .m = v.m,
                      .n = v.n,
                      .k = v.k,
                      .alpha = alpha[0],
                      .beta = beta[0],
                      .lda = v.ac,
                      .ldb = v.bc,
                      .ldc = v.n,
                      .kind = tsl__gemm_call_kind(ctx, prec)};
    if ((s = tsl__workspace(ctx, TSL__WS_C, v.m * v.n * elem, &p.c)) != TSL_OK) return s;
    if (use_ab) {
        if ((s = tsl__workspace(ctx, TSL__WS_A, v.ar * v.ac * elem, &p.a)) != TSL_OK) return s;
        if ((s = tsl__workspace(ctx, TSL__WS_B, v.br * v.bc * elem, &p.b)) != TSL_OK) return s;
        if ((s = tsl__upload_rect(ctx, p.a, a, v.ar, v.ac * elem, v.lda * elem)) != TSL_OK)
            return s;
        if ((s = tsl__upload_rect(ctx, p.b, b, v.br, v.bc * elem, v.ldb * elem)) != TSL_OK)
            return s;
    } else {
        p.a = p.b = p.c; /* not read: the kernel runs an empty k loop */
    }
    if (use_c && (s = tsl__upload_rect(ctx, p.c, c, v.m, v.n * elem, v.ldc * elem)) != TSL_OK)
        return s;
    if (cplx) {
        tsl__zgemm_call z = tsl__zgemm_of_view(prec, &v, alpha, beta);
        z.form3m = tsl__zgemm_form3m(ctx);
        z.a = (tsl__matrix){p.a, 0, v.ac};
        z.b = (tsl__matrix){p.b, 0, v.bc};
        z.c = (tsl__matrix){p.c, 0, v.n};
        s = tsl__zgemm_mem(ctx, &z);
    } else {
        s = tsl__gemm_run(ctx, &p);
    }
    tsl_status done = tsl__timing_end(ctx); /* waits: no result is read back from a failed run */
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__download_rect(ctx, p.c, c, v.m, v.n * elem, v.ldc * elem)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

tsl_status tsl_sgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                     size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                     const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_host(ctx, "tsl_sgemm", TSL_SINGLE, 0, &g, (double[2]){alpha, 0}, a, b,
                     (double[2]){beta, 0}, c);
}

tsl_status tsl_dgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                     size_t m, size_t n, size_t k, double alpha, const double *a, size_t lda,
                     const double *b, size_t ldb, double beta, double *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_host(ctx, "tsl_dgemm", TSL_DOUBLE, 0, &g, (double[2]){alpha, 0}, a, b,
                     (double[2]){beta, 0}, c);
}

tsl_status tsl_hgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                     size_t m, size_t n, size_t k, float alpha, const uint16_t *a, size_t lda,
                     const uint16_t *b, size_t ldb, float beta, uint16_t *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_host(ctx, "tsl_hgemm", TSL_HALF, 0, &g, (double[2]){alpha, 0}, a, b,
                     (double[2]){beta, 0}, c);
}

tsl_status tsl_bgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                     size_t m, size_t n, size_t k, float alpha, const uint16_t *a, size_t lda,
                     const uint16_t *b, size_t ldb, float beta, uint16_t *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_host(ctx, "tsl_bgemm", TSL_BFLOAT16, 0, &g, (double[2]){alpha, 0}, a, b,
                     (double[2]){beta, 0}, c);
}

/* ---- complex ------------------------------------------------------------------------------- */

static tsl_status zgemm_host(tsl_context *ctx, const char *fn, int prec, const gemm_args *g,
                             const void *alpha, const void *a, const void *b, const void *beta,
                             void *c)
{
    double al[2], be[2];
    tsl_status s = tsl__zgemm_scalars(ctx, fn, prec, alpha, beta, al, be);
    return s != TSL_OK ? s : gemm_host(ctx, fn, prec, 1, g, al, a, b, be, c);
}

tsl_status tsl_cgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                     size_t m, size_t n, size_t k, const void *alpha, const void *a, size_t lda,
                     const void *b, size_t ldb, const void *beta, void *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return zgemm_host(ctx, "tsl_cgemm", TSL_SINGLE, &g, alpha, a, b, beta, c);
}

tsl_status tsl_zgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                     size_t m, size_t n, size_t k, const void *alpha, const void *a, size_t lda,
                     const void *b, size_t ldb, const void *beta, void *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return zgemm_host(ctx, "tsl_zgemm", TSL_DOUBLE, &g, alpha, a, b, beta, c);
}
