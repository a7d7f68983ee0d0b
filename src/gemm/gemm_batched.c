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
 * A stride_c that makes two problems' C share an element is TSL_ERR_INVALID_ARG (the results
 * would depend on the order of the problems). The host-pointer call moves each operand's whole
 * extent, from the first problem's first element to the last one's last, in one transfer each
 * way; C's extent comes back with the bytes it went up with wherever no problem writes (padding
 * between rows and problems), so those elements keep their values. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gemm/gemm_internal.h"
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

/* cplx: complex elements (tsl_cgemm_batched, tsl_zgemm_batched), alpha_im and beta_im the
 * imaginary parts of alpha and beta; else real, and those are 0. */
typedef struct {
    int dbl, prec, cplx;
    tsl_trans ta, tb;
    size_t m, n, k, batch;
    double alpha, beta, alpha_im, beta_im;
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

/* A complex batch: one real batched GEMM of the context's gemm_batched variant over the real
 * problems (gemm_complex.c). */
static tsl_status run_complex(tsl_context *ctx, const batched_problem *p)
{
    tsl__zgemm_call z = {.prec = p->prec,
                         .ta = p->ta,
                         .tb = p->tb,
                         .m = p->m,
                         .n = p->n,
                         .k = p->k,
                         .alpha = {p->alpha, p->alpha_im},
                         .beta = {p->beta, p->beta_im},
                         .a = {p->a, p->a_off, p->lda},
                         .b = {p->b, p->b_off, p->ldb},
                         .c = {p->c, p->c_off, p->ldc},
                         .batch = p->batch,
                         .a_stride = p->sa,
                         .b_stride = p->sb,
                         .c_stride = p->sc};
    return tsl__zgemm_mem(ctx, &z);
}

static tsl_status run(tsl_context *ctx, const batched_problem *p)
{
    if (p->cplx) return run_complex(ctx, p);
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

/* ---- arguments -------------------------------------------------------------------------------- */

typedef struct {
    tsl_layout layout;
    tsl_trans ta, tb;
    size_t m, n, k, lda, sa, ldb, sb, ldc, sc, batch;
} batched_args;

/* Elements from a matrix's first element to its last: lines of len, ld apart (0 when empty). */
static size_t span_of(size_t lines, size_t len, size_t ld)
{
    return lines && len ? (lines - 1) * ld + len : 0;
}

/* Whether problem 0's C and problem d's share an element, for some 0 < d < batch: C_0 holds
 * i ld + j (i < lines, j < len), so they share one when d stride = i ld + j - i' ld - j' for some
 * such i, j, i', j', that is when d stride lies within len - 1 of a multiple i ld (i < lines). */
static int c_overlaps(size_t lines, size_t len, size_t ld, size_t stride, size_t batch)
{
    size_t span = span_of(lines, len, ld);
    if (span == 0 || batch < 2) return 0;
    if (stride == 0) return 1;
    for (size_t d = 1; d < batch; ++d) {
        if (stride > span / d) return 0; /* d stride >= span: this and every later d are clear */
        size_t t = d * stride, i = t / ld;
        if (i < lines && t - i * ld < len) return 1;
        if (i + 1 < lines && (i + 1) * ld - t < len) return 1;
    }
    return 0;
}

/* The extent of an operand in elements: (batch - 1) stride + span; 0 on overflow with *ok = 0. */
static size_t extent_of(size_t span, size_t stride, size_t batch, int *ok)
{
    if (span == 0) return 0;
    if (batch > 1 && tsl__mul_overflows(batch - 1, stride)) return *ok = 0, 0;
    size_t e = (batch - 1) * stride;
    if (e > SIZE_MAX - span) return *ok = 0, 0;
    return e + span;
}

static tsl_status check_args(tsl_context *ctx, const char *fn, const batched_args *g)
{
    tsl_status s;
    if ((s = tsl__l3_check_layout(ctx, fn, g->layout)) ||
        (s = tsl__check_trans(ctx, fn, "transa", g->ta)) ||
        (s = tsl__check_trans(ctx, fn, "transb", g->tb)))
        return s;
    if ((s = tsl__l3_check_size(ctx, fn, "m", g->m)) || (s = tsl__l3_check_size(ctx, fn, "n", g->n)) ||
        (s = tsl__l3_check_size(ctx, fn, "k", g->k)))
        return s;
    if (g->batch > (size_t)LLONG_MAX)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: batch = %zu is too large (a negative value passed as size_t?)", fn,
                         g->batch);
    int row = g->layout == TSL_ROW_MAJOR;
    size_t a_need = row == (g->ta == TSL_NO_TRANS) ? g->k : g->m;
    size_t b_need = row == (g->tb == TSL_NO_TRANS) ? g->n : g->k;
    if ((s = tsl__l3_check_ld(ctx, fn, "lda", g->lda, a_need, "A")) ||
        (s = tsl__l3_check_ld(ctx, fn, "ldb", g->ldb, b_need, "B")) ||
        (s = tsl__l3_check_ld(ctx, fn, "ldc", g->ldc, row ? g->n : g->m, "C")))
        return s;
    size_t lines = row ? g->m : g->n, len = row ? g->n : g->m;
    if (c_overlaps(lines, len, g->ldc, g->sc, g->batch))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: stride_c = %zu makes the C of two problems of the batch overlap "
                         "(each C spans %zu elements with ldc = %zu)",
                         fn, g->sc, span_of(lines, len, g->ldc), g->ldc);
    return TSL_OK;
}

/* The row-major view: column-major swaps A and B (and their transposes, m and n). A real call's
 * TSL_CONJ_TRANS is TSL_TRANS. alpha and beta are (real, imaginary). */
static batched_problem view(int prec, int cplx, const batched_args *g, const double *alpha,
                            const double *beta)
{
    int col = g->layout == TSL_COL_MAJOR;
    tsl_trans ta = cplx ? g->ta : tsl__real_trans(g->ta);
    tsl_trans tb = cplx ? g->tb : tsl__real_trans(g->tb);
    batched_problem p = {.dbl = prec == TSL_DOUBLE,
                         .prec = prec,
                         .cplx = cplx,
                         .ta = col ? tb : ta,
                         .tb = col ? ta : tb,
                         .m = col ? g->n : g->m,
                         .n = col ? g->m : g->n,
                         .k = g->k,
                         .batch = g->batch,
                         .alpha = alpha[0],
                         .beta = beta[0],
                         .alpha_im = alpha[1],
                         .beta_im = beta[1],
                         .lda = col ? g->ldb : g->lda,
                         .sa = col ? g->sb : g->sa,
                         .ldb = col ? g->lda : g->ldb,
                         .sb = col ? g->sa : g->sb,
                         .ldc = g->ldc,
                         .sc = g->sc};
    return p;
}

/* Bytes of an element. */
static size_t elem_of(const batched_problem *p)
{
    return (p->dbl ? sizeof(double) : sizeof(float)) * (p->cplx ? 2 : 1);
}

/* Extents (elements) of the row-major view's A, B and C; 0 for an operand not read. */
static int extents(const batched_problem *p, int use_ab, size_t *ea, size_t *eb, size_t *ec)
{
    int ok = 1;
    size_t ar = p->ta == TSL_NO_TRANS ? p->m : p->k, ac = p->ta == TSL_NO_TRANS ? p->k : p->m;
    size_t br = p->tb == TSL_NO_TRANS ? p->k : p->n, bc = p->tb == TSL_NO_TRANS ? p->n : p->k;
    *ea = use_ab ? extent_of(span_of(ar, ac, p->lda), p->sa, p->batch, &ok) : 0;
    *eb = use_ab ? extent_of(span_of(br, bc, p->ldb), p->sb, p->batch, &ok) : 0;
    *ec = extent_of(span_of(p->m, p->n, p->ldc), p->sc, p->batch, &ok);
    size_t es = elem_of(p);
    return ok && !tsl__mul_overflows(*ea, es) && !tsl__mul_overflows(*eb, es) &&
           !tsl__mul_overflows(*ec, es);
}

static tsl_status batched_host(tsl_context *ctx, const char *fn, int prec, int cplx,
                               const batched_args *g, const double *alpha, const void *a,
                               const void *b, const double *beta, void *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    if (g->m == 0 || g->n == 0 || g->batch == 0) return TSL_OK;
    if (!c) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: C is NULL", fn);
    int use_ab = g->k > 0 && (alpha[0] != 0.0 || alpha[1] != 0.0);
    if (use_ab && (!a || !b))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, a ? "B" : "A");
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    batched_problem p = view(prec, cplx, g, alpha, beta);
    if (g->layout == TSL_COL_MAJOR) {
        const void *t = a;
        a = b;
        b = t;
    }
    size_t es = elem_of(&p), ea, eb, ec;
    if (!extents(&p, use_ab, &ea, &eb, &ec))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: the batch's byte counts overflow", fn);
    if ((s = tsl__workspace(ctx, TSL__WS_C, ec * es, &p.c)) ||
        (s = tsl__upload_rect(ctx, p.c, c, 1, ec * es, ec * es)))
        return s;
    if (use_ab) {
        if ((s = tsl__workspace(ctx, TSL__WS_A, ea * es, &p.a)) ||
            (s = tsl__upload_rect(ctx, p.a, a, 1, ea * es, ea * es)) ||
            (s = tsl__workspace(ctx, TSL__WS_B, eb * es, &p.b)) ||
            (s = tsl__upload_rect(ctx, p.b, b, 1, eb * es, eb * es)))
            return s;
    } else {
        p.a = p.b = p.c;
    }
    s = run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__download_rect(ctx, p.c, c, 1, ec * es, ec * es)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

static tsl_status check_extent(tsl_context *ctx, const char *fn, const char *what,
                               const tsl_buffer *buf, size_t elems, size_t es)
{
    if (!buf) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: buffer %s is NULL", fn, what);
    if (buf->ctx != ctx)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: buffer %s belongs to another context", fn,
                         what);
    if (elems * es > buf->size)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: buffer %s holds %zu bytes, the batch's %s needs %zu", fn, what,
                         buf->size, what, elems * es);
    return TSL_OK;
}

static tsl_status batched_buf(tsl_context *ctx, const char *fn, int prec, int cplx,
                              const batched_args *g, const double *alpha, const tsl_buffer *a,
                              const tsl_buffer *b, const double *beta, tsl_buffer *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    if (g->m == 0 || g->n == 0 || g->batch == 0) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    int use_ab = g->k > 0 && (alpha[0] != 0.0 || alpha[1] != 0.0);
    batched_problem p = view(prec, cplx, g, alpha, beta);
    int col = g->layout == TSL_COL_MAJOR;
    const tsl_buffer *va = col ? b : a, *vb = col ? a : b;
    size_t es = elem_of(&p), ea, eb, ec;
    if (!extents(&p, use_ab, &ea, &eb, &ec))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: the batch's byte counts overflow", fn);
    if ((s = check_extent(ctx, fn, "C", c, ec, es)) ||
        (use_ab && (s = check_extent(ctx, fn, col ? "B" : "A", va, ea, es))) ||
        (use_ab && (s = check_extent(ctx, fn, col ? "A" : "B", vb, eb, es))))
        return s;
    p.c = c->mem;
    p.a = use_ab ? va->mem : c->mem;
    p.b = use_ab ? vb->mem : c->mem;
    s = run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

#define BATCHED_ARGS {layout, transa, transb, m, n, k, lda, stride_a, ldb, stride_b, ldc, stride_c, batch}
tsl_status tsl_sgemm_batched(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                             tsl_trans transb, size_t m, size_t n, size_t k, float alpha,
                             const float *a, size_t lda, size_t stride_a, const float *b,
                             size_t ldb, size_t stride_b, float beta, float *c, size_t ldc,
                             size_t stride_c, size_t batch)
{
    batched_args g = BATCHED_ARGS;
    return batched_host(ctx, "tsl_sgemm_batched", TSL_SINGLE, 0, &g, (double[2]){alpha, 0}, a, b,
                        (double[2]){beta, 0}, c);
}
tsl_status tsl_dgemm_batched(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                             tsl_trans transb, size_t m, size_t n, size_t k, double alpha,
                             const double *a, size_t lda, size_t stride_a, const double *b,
                             size_t ldb, size_t stride_b, double beta, double *c, size_t ldc,
                             size_t stride_c, size_t batch)
{
    batched_args g = BATCHED_ARGS;
    return batched_host(ctx, "tsl_dgemm_batched", TSL_DOUBLE, 0, &g, (double[2]){alpha, 0}, a, b,
                        (double[2]){beta, 0}, c);
}
tsl_status tsl_sgemm_batched_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                 tsl_trans transb, size_t m, size_t n, size_t k, float alpha,
                                 const tsl_buffer *a, size_t lda, size_t stride_a,
                                 const tsl_buffer *b, size_t ldb, size_t stride_b, float beta,
                                 tsl_buffer *c, size_t ldc, size_t stride_c, size_t batch)
{
    batched_args g = BATCHED_ARGS;
    return batched_buf(ctx, "tsl_sgemm_batched_buf", TSL_SINGLE, 0, &g, (double[2]){alpha, 0}, a, b,
                       (double[2]){beta, 0}, c);
}
tsl_status tsl_dgemm_batched_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                 tsl_trans transb, size_t m, size_t n, size_t k, double alpha,
                                 const tsl_buffer *a, size_t lda, size_t stride_a,
                                 const tsl_buffer *b, size_t ldb, size_t stride_b, double beta,
                                 tsl_buffer *c, size_t ldc, size_t stride_c, size_t batch)
{
    batched_args g = BATCHED_ARGS;
    return batched_buf(ctx, "tsl_dgemm_batched_buf", TSL_DOUBLE, 0, &g, (double[2]){alpha, 0}, a, b,
                       (double[2]){beta, 0}, c);
}

/* The complex forms: alpha and beta point at two floats (c) or two doubles (z). */
#define ZBATCHED(form, name, prec, a_, b_, c_)                                                     \
    do {                                                                                           \
        batched_args g = BATCHED_ARGS;                                                             \
        double al[2], be[2];                                                                       \
        tsl_status s = tsl__zgemm_scalars(ctx, name, prec, alpha, beta, al, be);                   \
        return s != TSL_OK ? s : form(ctx, name, prec, 1, &g, al, a_, b_, be, c_);                 \
    } while (0)
tsl_status tsl_cgemm_batched(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                             tsl_trans transb, size_t m, size_t n, size_t k, const void *alpha,
                             const void *a, size_t lda, size_t stride_a, const void *b, size_t ldb,
                             size_t stride_b, const void *beta, void *c, size_t ldc,
                             size_t stride_c, size_t batch)
{
    ZBATCHED(batched_host, "tsl_cgemm_batched", TSL_SINGLE, a, b, c);
}
tsl_status tsl_zgemm_batched(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                             tsl_trans transb, size_t m, size_t n, size_t k, const void *alpha,
                             const void *a, size_t lda, size_t stride_a, const void *b, size_t ldb,
                             size_t stride_b, const void *beta, void *c, size_t ldc,
                             size_t stride_c, size_t batch)
{
    ZBATCHED(batched_host, "tsl_zgemm_batched", TSL_DOUBLE, a, b, c);
}
tsl_status tsl_cgemm_batched_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                 tsl_trans transb, size_t m, size_t n, size_t k,
                                 const void *alpha, const tsl_buffer *a, size_t lda,
                                 size_t stride_a, const tsl_buffer *b, size_t ldb,
                                 size_t stride_b, const void *beta, tsl_buffer *c, size_t ldc,
                                 size_t stride_c, size_t batch)
{
    ZBATCHED(batched_buf, "tsl_cgemm_batched_buf", TSL_SINGLE, a, b, c);
}
tsl_status tsl_zgemm_batched_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                 tsl_trans transb, size_t m, size_t n, size_t k,
                                 const void *alpha, const tsl_buffer *a, size_t lda,
                                 size_t stride_a, const tsl_buffer *b, size_t ldb,
                                 size_t stride_b, const void *beta, tsl_buffer *c, size_t ldc,
                                 size_t stride_c, size_t batch)
{
    ZBATCHED(batched_buf, "tsl_zgemm_batched_buf", TSL_DOUBLE, a, b, c);
}
#undef ZBATCHED
#undef BATCHED_ARGS
