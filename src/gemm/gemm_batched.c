/* gemm_batched.c: strided batched GEMM, C_p = alpha op(A_p) op(B_p) + beta C_p for p < batch,
 * X_p = X + p stride_x (strides in elements, as cuBLAS and CLBlast count them; a stride of 0 shares
 * A or B across the batch), with the CBLAS semantics of tsl_sgemm for each problem.
 *
 * Variants (rows of the table below): `direct`, one launch for the whole batch (gemm_batched in
 * level3.cl: the group's z index picks the problem, guarded tiles of 16 RPT x 16 RPT, any size
 * and stride, transposes by strides), where launch overhead would dominate a launch per problem;
 * `loop`, one tuned GEMM per problem (tsl__gemm_mem), for problems big enough to fill the device
 * on their own; `tiled`, the tuned tiled2d kernel itself in one launch for the whole batch (its
 * BATCH mode: the group's z index picks the problem), where no operand needs tiled2d's pack
 * pre-pass (no transposes, sizes and leading dimensions the kernel takes as they are, B's rows and
 * strides VW-aligned), else loop. `auto` takes direct for problems up to 64 on every side, else
 * tiled (on the H100, bench/results/h100/level3: tiled 35.5 against direct 16.7 TFLOP/s at
 * 1000 x 128^3 single, 44.6 against 18.9 at 100 x 512^3; direct 8.5 against tiled 1.4 at 10000 x
 * 32^3).
 *
 * The public calls, their argument checks and host staging are gemm_batched_api.c's; this file
 * runs a row-major batch on device memory (tsl__gemm_batched_mem). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "level3/level3.h"

typedef enum { B_DIRECT, B_LOOP, B_TILED } batched_kind;
typedef struct {
    const char *name;
    batched_kind kind;
} batched_variant;

static const batched_variant variants[] = {
    {"direct", B_DIRECT}, {"loop", B_LOOP}, {"tiled", B_TILED}};
static const tsl__auto_row auto_table[] = {{NULL, "direct"}}; /* by size: choose() */
/* auto: direct when m, n and k are all at most this (the "64 and below"; at 128 one
 * tiled2d launch over the batch already ran 2x faster than direct on the H100) */
#define AUTO_DIRECT_MAX 64

static const char *variant_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(variants), i);
}

static tsl_status variant_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    const batched_variant *v =
        tsl__find_variant(ctx, "gemm_batched", TSL__TABLE(variants), auto_table, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return TSL_OK;
}

const tsl__op_desc tsl__gemm_batched_desc = {
    .op = "gemm_batched", .variant_name = variant_name, .variant_check = variant_check};

/* ---- the row-major problem ------------------------------------------------------------------ */

typedef struct {
    int dbl, prec;
    tsl_trans ta, tb;
    size_t m, n, k, batch;
    double alpha, beta;
    cl_mem a, b, c;
    size_t a_off, lda, sa, b_off, ldb, sb, c_off, ldc, sc;
} batched_problem;

/* NVIDIA's grids have at most 65535 groups along z: larger batches go in several launches. */
#define Z_MAX 65535

static tsl_status run_direct(tsl_context *ctx, const batched_problem *p)
{
    int rpt = p->m <= 16 && p->n <= 16 ? 1 : p->m <= 32 && p->n <= 32 ? 2 : 4;
    char extra[16];
    snprintf(extra, sizeof extra, "-DRPT=%d", rpt);
    cl_kernel k;
    tsl_status s = tsl__l3_kernel(ctx, p->dbl, "gemm_batched", extra, &k);
    if (s != TSL_OK) return s;
    if (tsl__kernel_max_wg(ctx, k) < 256)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "gemm_batched direct needs work-groups of 256, the compiled kernel "
                         "allows %zu on %s",
                         tsl__kernel_max_wg(ctx, k), ctx->info.name);
    int use_ab = p->k > 0 && p->alpha != 0.0;
    int M = (int)p->m, N = (int)p->n, K = use_ab ? (int)p->k : 0, ldc = (int)p->ldc;
    int a_rs = p->ta == TSL_NO_TRANS ? (int)p->lda : 1, a_cs = p->ta == TSL_NO_TRANS ? 1 : (int)p->lda;
    int b_rs = p->tb == TSL_NO_TRANS ? (int)p->ldb : 1, b_cs = p->tb == TSL_NO_TRANS ? 1 : (int)p->ldb;
    cl_mem a = use_ab ? p->a : p->c, b = use_ab ? p->b : p->c;
    cl_long sa = (cl_long)p->sa, sb = (cl_long)p->sb, sc = (cl_long)p->sc;
    size_t bt = 16 * (size_t)rpt;
    for (size_t z0 = 0; s == TSL_OK && z0 < p->batch; z0 += Z_MAX) {
        size_t nz = p->batch - z0 < Z_MAX ? p->batch - z0 : Z_MAX;
        cl_long a_off = use_ab ? (cl_long)(p->a_off + z0 * p->sa) : 0;
        cl_long b_off = use_ab ? (cl_long)(p->b_off + z0 * p->sb) : 0;
        cl_long c_off = (cl_long)(p->c_off + z0 * p->sc);
        tsl__scalar al, be;
        tsl__arg args[] = {{sizeof M, &M},         {sizeof N, &N},
                           {sizeof K, &K},         tsl__scalar_arg(p->dbl, &al, p->alpha),
                           {sizeof(cl_mem), &a},   {sizeof a_off, &a_off},
                           {sizeof a_rs, &a_rs},   {sizeof a_cs, &a_cs},
                           {sizeof sa, &sa},       {sizeof(cl_mem), &b},
                           {sizeof b_off, &b_off}, {sizeof b_rs, &b_rs},
                           {sizeof b_cs, &b_cs},   {sizeof sb, &sb},
                           tsl__scalar_arg(p->dbl, &be, p->beta), {sizeof(cl_mem), &p->c},
                           {sizeof c_off, &c_off}, {sizeof ldc, &ldc},
                           {sizeof sc, &sc}};
        size_t local[3] = {16, 16, 1};
        size_t global[3] = {(p->n + bt - 1) / bt * 16, (p->m + bt - 1) / bt * 16, nz};
        s = tsl__launch(ctx, k, "gemm_batched direct", args, (int)(sizeof args / sizeof args[0]), 3,
                        global, local);
    }
    return s;
}

/* Problem z of the batch, as one GEMM on device memory. */
static tsl__gemm_call problem_at(const batched_problem *p, size_t z)
{
    return (tsl__gemm_call){.prec = p->prec,
                            .ta = p->ta,
                            .tb = p->tb,
                            .m = p->m,
                            .n = p->n,
                            .k = p->k,
                            .alpha = p->alpha,
                            .beta = p->beta,
                            .a = {p->a, p->a_off + z * p->sa, p->lda},
                            .b = {p->b, p->b_off + z * p->sb, p->ldb},
                            .c = {p->c, p->c_off + z * p->sc, p->ldc}};
}

static tsl_status run_loop(tsl_context *ctx, const batched_problem *p)
{
    tsl_status s = TSL_OK;
    for (size_t z = 0; s == TSL_OK && z < p->batch; ++z) {
        tsl__gemm_call g = problem_at(p, z);
        s = tsl__gemm_mem(ctx, &g);
    }
    return s;
}

/* tiled: one tiled2d launch (per 65535 problems) where it takes the operands as they are, else
 * loop. k == 0 or alpha == 0 (C = beta C) goes through loop's GEMMs, which handle it. */
static tsl_status run_tiled(tsl_context *ctx, const batched_problem *p)
{
    tsl__gemm_ext ext = {
        .batch = p->batch, .a_stride = p->sa, .b_stride = p->sb, .c_stride = p->sc};
    tsl__gemm_call g = problem_at(p, 0);
    if (p->k == 0 || p->alpha == 0.0 || !tsl__gemm_ext_ok(ctx, &g, &ext)) return run_loop(ctx, p);
    return tsl__gemm_mem_ext(ctx, &g, &ext);
}

static tsl_status run(tsl_context *ctx, const batched_problem *p)
{
    const char *name = tsl__context_variant(ctx, "gemm_batched");
    if (strcmp(name, "auto") == 0) {
        int small = p->m <= AUTO_DIRECT_MAX && p->n <= AUTO_DIRECT_MAX && p->k <= AUTO_DIRECT_MAX;
        name = small ? "direct" : "tiled";
    }
    const batched_variant *v =
        tsl__find_variant(ctx, "gemm_batched", TSL__TABLE(variants), auto_table, name);
    if (!v) return TSL_ERR_INVALID_ARG;
    return v->kind == B_DIRECT ? run_direct(ctx, p)
           : v->kind == B_TILED ? run_tiled(ctx, p)
                                : run_loop(ctx, p);
}

tsl_status tsl__gemm_batched_mem(tsl_context *ctx, const tsl__gemm_call *g, size_t batch,
                                 size_t a_stride, size_t b_stride, size_t c_stride)
{
    if (g->m == 0 || g->n == 0 || batch == 0) return TSL_OK;
    batched_problem p = {.dbl = g->prec == TSL_DOUBLE,
                         .prec = g->prec,
                         .ta = g->ta,
                         .tb = g->tb,
                         .m = g->m,
                         .n = g->n,
                         .k = g->k,
                         .batch = batch,
                         .alpha = g->alpha,
                         .beta = g->beta,
                         .a = g->a.buffer,
                         .b = g->b.buffer,
                         .c = g->c.buffer,
                         .a_off = g->a.offset,
                         .lda = g->a.ld,
                         .sa = a_stride,
                         .b_off = g->b.offset,
                         .ldb = g->b.ld,
                         .sb = b_stride,
                         .c_off = g->c.offset,
                         .ldc = g->c.ld,
                         .sc = c_stride};
    return run(ctx, &p);
}
