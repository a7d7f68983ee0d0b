/* gemm_batched_api.c: strided batched GEMM's public entry points (tsl_[sdcz]gemm_batched and
 * their _buf forms): CBLAS's rules for each problem, the batch's own (strides in elements, as
 * cuBLAS and CLBlast count them; a stride of 0 shares A or B), the row-major view, and the host
 * staging. A real batch runs on gemm_batched.c's variants (tsl__gemm_batched_mem), a complex one
 * through gemm_complex.c (tsl__zgemm_mem: one real batched GEMM over the real problems).
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

/* The row-major view of a call: its problem in the complex call's form (a real call's imaginary
 * parts 0; buffers set by the caller), and whether it is complex. */
typedef struct {
    int cplx;
    tsl__zgemm_call z;
} batched_view;

/* Column-major swaps A and B (and their transposes, m and n). A real call's TSL_CONJ_TRANS is
 * TSL_TRANS. alpha and beta are (real, imaginary). */
static batched_view view(int prec, int cplx, const batched_args *g, const double *alpha,
                         const double *beta)
{
    int col = g->layout == TSL_COL_MAJOR;
    tsl_trans ta = cplx ? g->ta : tsl__real_trans(g->ta);
    tsl_trans tb = cplx ? g->tb : tsl__real_trans(g->tb);
    batched_view v = {.cplx = cplx,
                      .z = {.prec = prec,
                            .ta = col ? tb : ta,
                            .tb = col ? ta : tb,
                            .m = col ? g->n : g->m,
                            .n = col ? g->m : g->n,
                            .k = g->k,
                            .alpha = {alpha[0], alpha[1]},
                            .beta = {beta[0], beta[1]},
                            .a = {NULL, 0, col ? g->ldb : g->lda},
                            .b = {NULL, 0, col ? g->lda : g->ldb},
                            .c = {NULL, 0, g->ldc},
                            .batch = g->batch,
                            .a_stride = col ? g->sb : g->sa,
                            .b_stride = col ? g->sa : g->sb,
                            .c_stride = g->sc}};
    return v;
}

/* Bytes of an element. */
static size_t elem_of(const batched_view *v)
{
    return (v->z.prec == TSL_DOUBLE ? sizeof(double) : sizeof(float)) * (v->cplx ? 2 : 1);
}

/* Extents (elements) of the row-major view's A, B and C; 0 for an operand not read. */
static int extents(const batched_view *v, int use_ab, size_t *ea, size_t *eb, size_t *ec)
{
    int ok = 1;
    const tsl__zgemm_call *p = &v->z;
    size_t ar = p->ta == TSL_NO_TRANS ? p->m : p->k, ac = p->ta == TSL_NO_TRANS ? p->k : p->m;
    size_t br = p->tb == TSL_NO_TRANS ? p->k : p->n, bc = p->tb == TSL_NO_TRANS ? p->n : p->k;
    *ea = use_ab ? extent_of(span_of(ar, ac, p->a.ld), p->a_stride, p->batch, &ok) : 0;
    *eb = use_ab ? extent_of(span_of(br, bc, p->b.ld), p->b_stride, p->batch, &ok) : 0;
    *ec = extent_of(span_of(p->m, p->n, p->c.ld), p->c_stride, p->batch, &ok);
    size_t es = elem_of(v);
    return ok && !tsl__mul_overflows(*ea, es) && !tsl__mul_overflows(*eb, es) &&
           !tsl__mul_overflows(*ec, es);
}

/* Runs the view's batch (its buffers set). */
static tsl_status run(tsl_context *ctx, const batched_view *v)
{
    const tsl__zgemm_call *z = &v->z;
    if (v->cplx) return tsl__zgemm_mem(ctx, z);
    tsl__gemm_call r = {.prec = z->prec,
                        .ta = z->ta,
                        .tb = z->tb,
                        .m = z->m,
                        .n = z->n,
                        .k = z->k,
                        .alpha = z->alpha[0],
                        .beta = z->beta[0],
                        .a = z->a,
                        .b = z->b,
                        .c = z->c};
    return tsl__gemm_batched_mem(ctx, &r, z->batch, z->a_stride, z->b_stride, z->c_stride);
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
    batched_view v = view(prec, cplx, g, alpha, beta);
    v.z.form3m = cplx && tsl__zgemm_form3m(ctx);
    if (g->layout == TSL_COL_MAJOR) {
        const void *t = a;
        a = b;
        b = t;
    }
    size_t es = elem_of(&v), ea, eb, ec;
    if (!extents(&v, use_ab, &ea, &eb, &ec))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: the batch's byte counts overflow", fn);
    cl_mem *ma = &v.z.a.buffer, *mb = &v.z.b.buffer, *mc = &v.z.c.buffer;
    if ((s = tsl__workspace(ctx, TSL__WS_C, ec * es, mc)) ||
        (s = tsl__upload_rect(ctx, *mc, c, 1, ec * es, ec * es)))
        return s;
    if (use_ab) {
        if ((s = tsl__workspace(ctx, TSL__WS_A, ea * es, ma)) ||
            (s = tsl__upload_rect(ctx, *ma, a, 1, ea * es, ea * es)) ||
            (s = tsl__workspace(ctx, TSL__WS_B, eb * es, mb)) ||
            (s = tsl__upload_rect(ctx, *mb, b, 1, eb * es, eb * es)))
            return s;
    } else {
        *ma = *mb = *mc;
    }
    s = run(ctx, &v);
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__download_rect(ctx, *mc, c, 1, ec * es, ec * es)) != TSL_OK) return s;
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
    batched_view v = view(prec, cplx, g, alpha, beta);
    v.z.form3m = cplx && tsl__zgemm_form3m(ctx);
    int col = g->layout == TSL_COL_MAJOR;
    const tsl_buffer *va = col ? b : a, *vb = col ? a : b;
    size_t es = elem_of(&v), ea, eb, ec;
    if (!extents(&v, use_ab, &ea, &eb, &ec))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: the batch's byte counts overflow", fn);
    if ((s = check_extent(ctx, fn, "C", c, ec, es)) ||
        (use_ab && (s = check_extent(ctx, fn, col ? "B" : "A", va, ea, es))) ||
        (use_ab && (s = check_extent(ctx, fn, col ? "A" : "B", vb, eb, es))))
        return s;
    v.z.c.buffer = c->mem;
    v.z.a.buffer = use_ab ? va->mem : c->mem;
    v.z.b.buffer = use_ab ? vb->mem : c->mem;
    s = run(ctx, &v);
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
