/* gemm_complex.c: complex GEMM as one real GEMM (the 4M form; docs/gemm.md "Complex GEMM"), the
 * entry of tsl_cgemm, tsl_zgemm, their _buf and batched forms (gemm_api.c, gemm_buf.c,
 * gemm_batched.c) and of the complex Level-3 routines: tsl__zgemm_mem.
 *
 * A row-major interleaved complex m x k matrix is a real m x 2k one. With B2 the real 2k x 2n
 * matrix whose 2 x 2 block (l, j) is [[br, bi], [-bi, br]] of b = (s op(B))(l, j), the real
 * product op(A) B2 is the interleaved complex m x n product s op(A) op(B): element (i, 2j) sums
 * ar br - ai bi, element (i, 2j + 1) ar bi + ai br. So the call runs
 *   1. zgemm_pack of B into B2 (s = alpha when alpha is complex, else 1: a real alpha stays the
 *      real GEMM's alpha, rounded as the reference rounds it), conjugated for TSL_CONJ_TRANS;
 *   2. op(A) as it lies when not transposed (a real m x 2k matrix at twice the offset and leading
 *      dimension), else zgemm_pack into an interleaved m x 2k copy (conjugated for
 *      TSL_CONJ_TRANS);
 *   3. with a complex beta, zgemm_scale C = beta C first and real beta 1; a real beta is the real
 *      GEMM's own (beta == 0 never reads C);
 *   4. the real GEMM C(m x 2n) = alpha' A(m x 2k) B2(2k x 2n) + beta' C with the context's gemm
 *      variant (tsl__gemm_run: the tuning database, tiled2d's pack, split k, tensor cores and the
 *      math mode of single precision), or for a batch the context's gemm_batched variant over
 *      the real problems (tsl__gemm_batched_mem).
 * The real GEMM does 4 m n k multiply-adds, as the complex product's four real products do. */
#include <stdio.h>
#include <string.h>

#include "gemm/gemm_internal.h"

/* NVIDIA's grids have at most 65535 groups along z: larger batches go in several launches. */
#define Z_MAX 65535
/* The pack's tile (gemm_complex.cl's ZT) and the real leading dimensions' multiple: rows of B2 and
 * of a packed op(A) start vector-aligned for every tiled2d VW (up to 16), so the real GEMM reads
 * them in place where its tiles allow. */
#define ZT 16

static tsl_status zkernel(tsl_context *ctx, int dbl, const char *name, cl_kernel *k)
{
    char options[128];
    snprintf(options, sizeof options, "-DPRECISION=%d -DONLY_ONE_KERNEL -DONLY_%s", dbl ? 64 : 32,
             name);
    return tsl__get_kernel(ctx, "gemm_complex.cl", options, name, k);
}

/* A complex operand: buffer, offset, leading dimension and batch stride (complex elements), and
 * op(X)(i, l) = X[i rs + l cs]. */
typedef struct {
    cl_mem mem;
    size_t off;
    int rs, cs;
    size_t stride;
} zoperand;

static zoperand operand(const tsl__matrix *x, tsl_trans t, size_t stride)
{
    zoperand o = {x->buffer, x->offset, 0, 0, stride};
    tsl__gemm_op_strides(t, x->ld, &o.rs, &o.cs);
    return o;
}

/* dst = s op(src) as real numbers (expand: B2's 2 x 2 blocks), ldd reals a row, d_stride reals a
 * problem, for nz problems. */
static tsl_status zpack_at(tsl_context *ctx, int dbl, size_t rows, size_t cols, const double *s,
                           const zoperand *src, int conj, int expand, cl_mem dst, size_t d0,
                           size_t ldd, size_t d_stride, size_t nz, size_t plane)
{
    cl_kernel k;
    tsl_status st = zkernel(ctx, dbl, "zgemm_pack", &k);
    int r = (int)rows, c = (int)cols, rs = src->rs, cs = src->cs, cj = conj, ex = expand;
    int ld = (int)ldd;
    cl_long ss = (cl_long)src->stride, ds = (cl_long)d_stride, pl = (cl_long)plane;
    for (size_t z0 = 0; st == TSL_OK && z0 < nz; z0 += Z_MAX) {
        cl_mem d = dst;
        cl_long so = (cl_long)(src->off + z0 * src->stride), dz = (cl_long)(d0 + z0 * d_stride);
        size_t count = nz - z0 < Z_MAX ? nz - z0 : Z_MAX;
        tsl__scalar sr, si;
        tsl__arg args[] = {{sizeof r, &r},
                           {sizeof c, &c},
                           tsl__scalar_arg(dbl, &sr, s[0]),
                           tsl__scalar_arg(dbl, &si, s[1]),
                           {sizeof(cl_mem), &src->mem},
                           {sizeof so, &so},
                           {sizeof rs, &rs},
                           {sizeof cs, &cs},
                           {sizeof ss, &ss},
                           {sizeof cj, &cj},
                           {sizeof ex, &ex},
                           {sizeof(cl_mem), &d},
                           {sizeof ld, &ld},
                           {sizeof ds, &ds},
                           {sizeof dz, &dz},
                           {sizeof pl, &pl}};
        size_t local[3] = {ZT, ZT, 1};
        size_t global[3] = {tsl__gemm_round_up(cols, ZT), tsl__gemm_round_up(rows, ZT), count};
        st = tsl__launch(ctx, k, "complex gemm pack", args, (int)(sizeof args / sizeof args[0]), 3,
                         global, local);
    }
    return st;
}

/* zpack_at at the start of dst. */
static tsl_status zpack(tsl_context *ctx, int dbl, size_t rows, size_t cols, const double *s,
                        const zoperand *src, int conj, int expand, cl_mem dst, size_t ldd,
                        size_t d_stride, size_t nz, size_t plane)
{
    return zpack_at(ctx, dbl, rows, cols, s, src, conj, expand, dst, 0, ldd, d_stride, nz, plane);
}

/* C = beta C (complex beta) on nz problems of rows x cols. */
static tsl_status zscale(tsl_context *ctx, int dbl, size_t rows, size_t cols, const double *beta,
                         const tsl__matrix *c, size_t c_stride, size_t nz)
{
    cl_kernel k;
    tsl_status st = zkernel(ctx, dbl, "zgemm_scale", &k);
    int r = (int)rows, n = (int)cols, ld = (int)c->ld;
    cl_long cs = (cl_long)c_stride;
    for (size_t z0 = 0; st == TSL_OK && z0 < nz; z0 += Z_MAX) {
        cl_long off = (cl_long)(c->offset + z0 * c_stride);
        size_t count = nz - z0 < Z_MAX ? nz - z0 : Z_MAX;
        tsl__scalar br, bi;
        tsl__arg args[] = {{sizeof r, &r},
                           {sizeof n, &n},
                           tsl__scalar_arg(dbl, &br, beta[0]),
                           tsl__scalar_arg(dbl, &bi, beta[1]),
                           {sizeof(cl_mem), &c->buffer},
                           {sizeof off, &off},
                           {sizeof ld, &ld},
                           {sizeof cs, &cs}};
        size_t local[3] = {ZT, ZT, 1};
        size_t global[3] = {tsl__gemm_round_up(cols, ZT), tsl__gemm_round_up(rows, ZT), count};
        st = tsl__launch(ctx, k, "complex gemm beta", args, 8, 3, global, local);
    }
    return st;
}

/* The real GEMM of the complex problem (every size, offset, ld and stride in reals). */
static tsl_status real_gemm(tsl_context *ctx, const tsl__zgemm_call *g, const tsl__gemm_call *r,
                            size_t a_stride, size_t b_stride, size_t c_stride)
{
    if (g->tri) { /* complex element (i, j) is real columns 2j, 2j + 1: the triangle's TRI_CS 2 */
        tsl__gemm_ext ext = {.tri = g->tri, .tri_cs = 2};
        return tsl__gemm_mem_ext(ctx, r, &ext);
    }
    if (g->batch)
        return tsl__gemm_batched_mem(ctx, r, g->batch, a_stride, b_stride, c_stride);
    return tsl__gemm_mem_kind(ctx, r, g->fp32 ? r->prec : tsl__gemm_call_kind(ctx, r->prec));
}

/* The 3M form's sum: C = alpha (T1 - T2 + i (T3 - T1 - T2)) + beta C on nz problems, T's planes
 * `plane` reals apart, rows ldt apart, t_stride reals a problem. */
static tsl_status zsum3m(tsl_context *ctx, const tsl__zgemm_call *g, cl_mem t, size_t ldt,
                         size_t plane, size_t t_stride, size_t nz)
{
    cl_kernel k;
    int dbl = g->prec == TSL_DOUBLE;
    tsl_status st = zkernel(ctx, dbl, "zgemm_3m_sum", &k);
    int r = (int)g->m, n = (int)g->n, lt = (int)ldt, ld = (int)g->c.ld;
    cl_long pl = (cl_long)plane, ts = (cl_long)t_stride, cs = (cl_long)g->c_stride;
    for (size_t z0 = 0; st == TSL_OK && z0 < nz; z0 += Z_MAX) {
        cl_long off = (cl_long)(g->c.offset + z0 * g->c_stride);
        cl_mem tz = t;
        size_t count = nz - z0 < Z_MAX ? nz - z0 : Z_MAX;
        cl_long t0 = (cl_long)(z0 * t_stride);
        tsl__scalar ar, ai, br, bi;
        tsl__arg args[] = {{sizeof r, &r},
                           {sizeof n, &n},
                           tsl__scalar_arg(dbl, &ar, g->alpha[0]),
                           tsl__scalar_arg(dbl, &ai, g->alpha[1]),
                           tsl__scalar_arg(dbl, &br, g->beta[0]),
                           tsl__scalar_arg(dbl, &bi, g->beta[1]),
                           {sizeof(cl_mem), &tz},
                           {sizeof t0, &t0},
                           {sizeof lt, &lt},
                           {sizeof pl, &pl},
                           {sizeof ts, &ts},
                           {sizeof(cl_mem), &g->c.buffer},
                           {sizeof off, &off},
                           {sizeof ld, &ld},
                           {sizeof cs, &cs}};
        size_t local[3] = {ZT, ZT, 1};
        size_t global[3] = {tsl__gemm_round_up(g->n, ZT), tsl__gemm_round_up(g->m, ZT), count};
        st = tsl__launch(ctx, k, "complex gemm 3m sum", args, (int)(sizeof args / sizeof args[0]),
                         3, global, local);
    }
    return st;
}

/* The 3M form (docs/gemm.md "Complex GEMM"): op(A) and op(B) as three real planes each (re, im,
 * re + im: zgemm_pack's expand 2), the three real GEMMs T1 = Ar Br, T2 = Ai Bi,
 * T3 = (Ar + Ai)(Br + Bi) into three planes of T, and zgemm_3m_sum's C = alpha (T1 - T2 +
 * i (T3 - T1 - T2)) + beta C: 3 m n k multiply-adds instead of 4. Holds TSL__WS_ZPACK_A, _B and
 * TSL__WS_ZPROD across its GEMMs. Needs k > 0 and alpha != 0. */
static tsl_status zgemm_3m(tsl_context *ctx, const tsl__zgemm_call *g)
{
    int dbl = g->prec == TSL_DOUBLE;
    size_t es = dbl ? sizeof(double) : sizeof(float), nz = g->batch ? g->batch : 1;
    size_t lda3 = tsl__gemm_round_up(g->k, ZT), ldb3 = tsl__gemm_round_up(g->n, ZT), ldt = ldb3;
    size_t pa = g->m * lda3, pb = g->k * ldb3, pt = g->m * ldt; /* a plane, in reals */
    size_t na = g->a_stride ? nz : 1, nb = g->b_stride ? nz : 1;
    size_t sa = g->a_stride ? 3 * pa : 0, sb = g->b_stride ? 3 * pb : 0, st = 3 * pt;
    if (tsl__mul_overflows(3 * pa, na * es) || tsl__mul_overflows(3 * pb, nb * es) ||
        tsl__mul_overflows(3 * pt, nz * es))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "complex gemm (3m): its planes overflow");
    cl_mem a3, b3, t;
    tsl_status s;
    const double one[2] = {1.0, 0.0};
    if ((s = tsl__workspace(ctx, TSL__WS_ZPACK_A, 3 * pa * na * es, &a3)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_ZPACK_B, 3 * pb * nb * es, &b3)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_ZPROD, 3 * pt * nz * es, &t)) != TSL_OK)
        return s;
    zoperand oa = operand(&g->a, g->ta, g->a_stride), ob = operand(&g->b, g->tb, g->b_stride);
    if ((s = zpack(ctx, dbl, g->m, g->k, one, &oa, g->ta == TSL_CONJ_TRANS, 2, a3, lda3, sa, na,
                   pa)) != TSL_OK ||
        (s = zpack(ctx, dbl, g->k, g->n, one, &ob, g->tb == TSL_CONJ_TRANS, 2, b3, ldb3, sb, nb,
                   pb)) != TSL_OK)
        return s;
    for (size_t p = 0; p < 3; ++p) {
        tsl__gemm_call r = {.prec = g->prec,
                            .ta = TSL_NO_TRANS,
                            .tb = TSL_NO_TRANS,
                            .m = g->m,
                            .n = g->n,
                            .k = g->k,
                            .alpha = 1.0,
                            .beta = 0.0,
                            .a = {a3, p * pa, lda3},
                            .b = {b3, p * pb, ldb3},
                            .c = {t, p * pt, ldt}};
        if ((s = real_gemm(ctx, g, &r, sa, sb, st)) != TSL_OK) return s;
    }
    return zsum3m(ctx, g, t, ldt, pt, st, nz);
}

tsl_status tsl__zgemm_mem(tsl_context *ctx, const tsl__zgemm_call *g)
{
    if (g->m == 0 || g->n == 0) return TSL_OK;
    int dbl = g->prec == TSL_DOUBLE;
    size_t es = dbl ? sizeof(double) : sizeof(float), nz = g->batch ? g->batch : 1;
    int use_ab = g->k > 0 && (g->alpha[0] != 0.0 || g->alpha[1] != 0.0);
    int beta_real = g->beta[1] == 0.0;
    tsl_status s = TSL_OK;
    if (use_ab && g->form3m) return zgemm_3m(ctx, g);
    if (!beta_real && (s = zscale(ctx, dbl, g->m, g->n, g->beta, &g->c, g->c_stride, nz)) != TSL_OK)
        return s;
    tsl__gemm_call r = {.prec = g->prec,
                        .ta = TSL_NO_TRANS,
                        .tb = TSL_NO_TRANS,
                        .m = g->m,
                        .n = 2 * g->n,
                        .k = 0,
                        .alpha = 0.0,
                        .beta = beta_real ? g->beta[0] : 1.0,
                        .c = {g->c.buffer, 2 * g->c.offset, 2 * g->c.ld}};
    size_t cs = 2 * g->c_stride;
    if (!use_ab) { /* C = beta C, which step 3 did for a complex beta (and beta == 1 is C) */
        if (!beta_real || r.beta == 1.0) return TSL_OK;
        r.a = r.b = r.c;
        return real_gemm(ctx, g, &r, 0, 0, cs);
    }
    int alpha_real = g->alpha[1] == 0.0;
    const double one[2] = {1.0, 0.0};
    r.k = 2 * g->k;
    r.alpha = alpha_real ? g->alpha[0] : 1.0;
    /* B2: 2k rows of ldb2 reals; one copy when the batch shares B */
    size_t ldb2 = tsl__zgemm_b2_ld(g->n), nb = g->b_stride ? nz : 1;
    size_t sb = g->b_stride ? 2 * g->k * ldb2 : 0;
    if (g->b2.buffer) { /* the caller's own B2 (alpha folded in: the call's alpha is real) */
        if (!alpha_real)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "complex gemm: B2 with a complex alpha");
        r.b = g->b2;
        sb = g->b2_stride;
    } else {
        if (tsl__mul_overflows(2 * g->k * ldb2, nb * es))
            return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "complex gemm: B's real form overflows");
        cl_mem b2;
        if ((s = tsl__workspace(ctx, TSL__WS_ZPACK_B, 2 * g->k * ldb2 * nb * es, &b2)) != TSL_OK)
            return s;
        zoperand ob = operand(&g->b, g->tb, g->b_stride);
        if ((s = zpack(ctx, dbl, g->k, g->n, alpha_real ? one : g->alpha, &ob,
                       g->tb == TSL_CONJ_TRANS, 1, b2, ldb2, sb, nb, 0)) != TSL_OK)
            return s;
        r.b = (tsl__matrix){b2, 0, ldb2};
    }
    size_t sa = 2 * g->a_stride;
    if (g->ta == TSL_NO_TRANS) {
        r.a = (tsl__matrix){g->a.buffer, 2 * g->a.offset, 2 * g->a.ld};
    } else { /* op(A) interleaved: m rows of lda2 reals */
        size_t lda2 = tsl__gemm_round_up(2 * g->k, ZT), na = g->a_stride ? nz : 1;
        sa = g->a_stride ? g->m * lda2 : 0;
        if (tsl__mul_overflows(g->m * lda2, na * es))
            return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "complex gemm: A's real form overflows");
        cl_mem a2;
        if ((s = tsl__workspace(ctx, TSL__WS_ZPACK_A, g->m * lda2 * na * es, &a2)) != TSL_OK)
            return s;
        zoperand oa = operand(&g->a, g->ta, g->a_stride);
        if ((s = zpack(ctx, dbl, g->m, g->k, one, &oa, g->ta == TSL_CONJ_TRANS, 0, a2, lda2, sa, na,
                       0)) != TSL_OK)
            return s;
        r.a = (tsl__matrix){a2, 0, lda2};
    }
    return real_gemm(ctx, g, &r, sa, sb, cs);
}

size_t tsl__zgemm_b2_ld(size_t cols)
{
    return tsl__gemm_round_up(2 * cols, ZT);
}

tsl_status tsl__zgemm_b2_make(tsl_context *ctx, int prec, size_t rows, size_t cols,
                              const double *s, const tsl__matrix *x, tsl_trans t,
                              const tsl__matrix *dst)
{
    zoperand o = operand(x, t, 0);
    return zpack_at(ctx, prec == TSL_DOUBLE, rows, cols, s, &o, t == TSL_CONJ_TRANS, 1,
                    dst->buffer, dst->offset, dst->ld, 0, 1, 0);
}

int tsl__zgemm_tri_ok(tsl_context *ctx, const tsl__zgemm_call *g)
{
    tsl__gemm_call r = {.prec = g->prec,
                        .ta = TSL_NO_TRANS,
                        .tb = TSL_NO_TRANS,
                        .m = g->m,
                        .n = 2 * g->n,
                        .k = 2 * g->k,
                        .alpha = 1.0};
    tsl__gemm_ext ext = {.tri = g->tri, .tri_cs = 2};
    return !g->batch && !g->form3m && g->beta[1] == 0.0 && tsl__gemm_ext_ok(ctx, &r, &ext);
}

/* ---- the op "complex_gemm": the form of tsl_cgemm and tsl_zgemm ------------------------------
 * 4m: one real GEMM of 4 m n k multiply-adds, rounded as the reference's complex products are
 * (each real and imaginary part a sum of plain products); 3m: three real GEMMs (3 m n k), whose
 * imaginary part T3 - T1 - T2 carries an error of the size of |Ar + Ai| |Br + Bi| (docs/gemm.md
 * "Complex GEMM"). auto is 4m everywhere: the rounding never changes unasked. */
typedef struct {
    const char *name;
    int form3m;
} zgemm_variant;
static const zgemm_variant zgemm_variants[] = {{"4m", 0}, {"3m", 1}};
static const tsl__auto_row zgemm_auto[] = {{NULL, "4m"}};

static const char *zgemm_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(zgemm_variants), i);
}
static tsl_status zgemm_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    const zgemm_variant *v =
        tsl__find_variant(ctx, "complex_gemm", TSL__TABLE(zgemm_variants), zgemm_auto, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return TSL_OK;
}
const tsl__op_desc tsl__complex_gemm_desc = {
    .op = "complex_gemm", .variant_name = zgemm_name, .variant_check = zgemm_check};

int tsl__zgemm_form3m(tsl_context *ctx)
{
    const zgemm_variant *v =
        tsl__find_variant(ctx, "complex_gemm", TSL__TABLE(zgemm_variants), zgemm_auto,
                          tsl__context_variant(ctx, "complex_gemm"));
    return v && v->form3m;
}

tsl_status tsl__zgemm_scalars(tsl_context *ctx, const char *fn, int prec, const void *alpha,
                              const void *beta, double *al, double *be)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    if (!alpha || !beta)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, alpha ? "beta" : "alpha");
    for (int i = 0; i < 2; ++i) {
        al[i] = prec == TSL_DOUBLE ? ((const double *)alpha)[i] : ((const float *)alpha)[i];
        be[i] = prec == TSL_DOUBLE ? ((const double *)beta)[i] : ((const float *)beta)[i];
    }
    return TSL_OK;
}
