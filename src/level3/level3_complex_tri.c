/* level3_complex_tri.c: complex TRMM and TRSM on device memory, in the row-major view level3_tri.c
 * makes of every call (which checks, maps the layout and stages host arrays for the real and
 * complex routines alike). Both cut op(A) (ka x ka, triangular; op may conjugate) in recursive
 * halves of whole blocks of nb, so each off-diagonal rectangle of op(A) is one complex GEMM
 * (tsl__zgemm_mem, reading op(A) where it lies) with k as large as the halves allow:
 *   TRMM: W = alpha D B on the diagonal blocks D of op(A) (made dense by zl3_tri_blocks, the whole
 *     ones in one batched GEMM), then each rectangle adds its product into W (beta 1); W is
 *     copied into B (a GEMM cannot write the B it reads);
 *   TRSM: the half solved first, one GEMM updating the other half from it (B = a B - op(A) X, in
 *     place: it reads the solved rows of B and writes the others), then the second half; a
 *     single block is solved in place by substitution, as the reference computes it, with no
 *     inverse: zl3_trsm_leaf_wg (a work-item per element, one barrier a step) for blocks up to
 *     64, else zl3_trsm_leaf (one right-hand side a work-item).
 * docs/level3.md ("Complex routines") has the flop counts and limits. */
#include <stdio.h>
#include <string.h>

#include "level3/level3.h"
#include "level3/level3_tri.h"

/* zl3_trsm_leaf_wg's work-group (level3_complex.cl): ZL3_CW right-hand sides x ZL3_LT elements */
#define ZL3_LT 64
#define ZL3_CW 4

static tsl_status zl3_kernel(tsl_context *ctx, int dbl, const char *name, cl_kernel *k)
{
    char options[128];
    snprintf(options, sizeof options, "-DPRECISION=%d -DONLY_ONE_KERNEL -DONLY_%s", dbl ? 64 : 32,
             name);
    return tsl__get_kernel(ctx, "level3_complex.cl", options, name, k);
}

/* op(A)(i, l) = A[a_off + i rs + l cs] */
static void opa_strides(const trxm_problem *p, int *rs, int *cs)
{
    *rs = p->ta == TSL_NO_TRANS ? (int)p->lda : 1;
    *cs = p->ta == TSL_NO_TRANS ? 1 : (int)p->lda;
}

/* The product of op(A)'s block (rows [r0, r0 + rn), columns [c0, c0 + cn)) with B (left: B's rows
 * [c0, ..) into rows r0 of dst; right: B's columns [r0, ..) times the block into columns c0 of
 * dst): dst = alpha (product) + beta dst. held (not NULL): the real form of the GEMM's right
 * operand made once for the whole call (left: of s B, right: of s op(A), tsl__zgemm_b2_make),
 * alpha then real. */
static tsl_status opa_product(tsl_context *ctx, const trxm_problem *p, size_t r0, size_t rn,
                              size_t c0, size_t cn, const double *alpha, const double *beta,
                              cl_mem dst, size_t d_off, size_t ldd, const tsl__matrix *held)
{
    tsl__matrix a = {p->a, opa_at(p, r0, c0), p->lda};
    tsl__zgemm_call g = {
        .prec = p->prec, .alpha = {alpha[0], alpha[1]}, .beta = {beta[0], beta[1]}, .fp32 = 1};
    if (p->left) {
        g.ta = p->ta;
        g.tb = TSL_NO_TRANS;
        g.m = rn;
        g.n = p->n;
        g.k = cn;
        g.a = a;
        g.b = (tsl__matrix){p->b, p->b_off + c0 * p->ldb, p->ldb};
        g.c = (tsl__matrix){dst, d_off + r0 * ldd, ldd};
    } else {
        g.ta = TSL_NO_TRANS;
        g.tb = p->ta;
        g.m = p->m;
        g.n = cn;
        g.k = rn;
        g.a = (tsl__matrix){p->b, p->b_off + r0, p->ldb};
        g.b = a;
        g.c = (tsl__matrix){dst, d_off + c0, ldd};
    }
    if (held) { /* B2's rows 2c, 2c + 1 are complex row c's; its columns 2j, 2j + 1 column j's */
        size_t at = p->left ? 2 * c0 * held->ld : 2 * r0 * held->ld + 2 * c0;
        g.b2 = (tsl__matrix){held->buffer, held->offset + at, held->ld};
    }
    return tsl__zgemm_mem(ctx, &g);
}

/* TSL__WS_ZHELD as the real form of a rows x cols complex operand (2 rows reals high, rows
 * tsl__zgemm_b2_ld(cols) reals apart), for tsl__zgemm_b2_make to fill. */
static tsl_status held_form(tsl_context *ctx, const trxm_problem *p, size_t rows, size_t cols,
                            tsl__matrix *held)
{
    size_t ld = tsl__zgemm_b2_ld(cols), es = tsl__l3_elem(p->dbl, 1);
    if (tsl__mul_overflows(rows * ld, es)) /* 2 rows x ld reals: rows x ld complex elements */
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "complex %s: the real form overflows",
                         p->solve ? "trsm" : "trmm");
    *held = (tsl__matrix){NULL, 0, ld};
    return tsl__workspace(ctx, TSL__WS_ZHELD, rows * ld * es, &held->buffer);
}

/* The rectangle of op(A) beside the diagonal of the halves of [lo, hi), in the triangle: rows
 * [mid, hi) x columns [lo, mid) for a lower op(A), rows [lo, mid) x columns [mid, hi) for an upper
 * one. */
static void rectangle(const trxm_problem *p, size_t lo, size_t mid, size_t hi, size_t *r0,
                      size_t *rn, size_t *c0, size_t *cn)
{
    *r0 = p->lower ? mid : lo;
    *rn = p->lower ? hi - mid : mid - lo;
    *c0 = p->lower ? lo : mid;
    *cn = p->lower ? mid - lo : hi - mid;
}

static size_t halve(const trxm_problem *p, size_t lo, size_t hi)
{
    return lo + (hi - lo + p->nb - 1) / p->nb / 2 * p->nb;
}

/* TRMM: W += (op(A)'s strictly triangular part over [lo, hi)) B with alpha in held. */
static tsl_status trmm_offdiag(tsl_context *ctx, const trxm_problem *p, size_t lo, size_t hi,
                               cl_mem w, const tsl__matrix *held)
{
    if (hi - lo <= p->nb) return TSL_OK;
    size_t mid = halve(p, lo, hi), r0, rn, c0, cn;
    rectangle(p, lo, mid, hi, &r0, &rn, &c0, &cn);
    const double one[2] = {1.0, 0.0};
    tsl_status s = opa_product(ctx, p, r0, rn, c0, cn, one, one, w, 0, p->n, held);
    if (s == TSL_OK) s = trmm_offdiag(ctx, p, lo, mid, w, held);
    if (s == TSL_OK) s = trmm_offdiag(ctx, p, mid, hi, w, held);
    return s;
}

static tsl_status trmm(tsl_context *ctx, const trxm_problem *p)
{
    size_t es = tsl__l3_elem(p->dbl, 1), nb = p->nb, m = p->m, n = p->n;
    size_t ka = p->left ? m : n, nfull = ka / nb, last = ka - nfull * nb;
    size_t nblk = nfull + (last != 0);
    cl_mem d, w;
    cl_kernel k;
    tsl_status s = tsl__workspace(ctx, TSL__WS_BLOCKS, nblk * nb * nb * es, &d);
    if (s == TSL_OK) s = tsl__workspace(ctx, TSL__WS_W, m * n * es, &w);
    if (s == TSL_OK) s = zl3_kernel(ctx, p->dbl, "zl3_tri_blocks", &k);
    if (s != TSL_OK) return s;
    int ika = (int)ka, inb = (int)nb, lower = p->lower, unit = p->unit,
        conj = p->ta == TSL_CONJ_TRANS, rs, cs;
    opa_strides(p, &rs, &cs);
    cl_long a_off = (cl_long)p->a_off;
    tsl__arg args[] = {{sizeof ika, &ika},     {sizeof inb, &inb},   {sizeof(cl_mem), &p->a},
                       {sizeof a_off, &a_off}, {sizeof rs, &rs},     {sizeof cs, &cs},
                       {sizeof lower, &lower}, {sizeof unit, &unit}, {sizeof conj, &conj},
                       {sizeof(cl_mem), &d}};
    if ((s = tsl__l3_launch2d(ctx, k, "complex trmm diagonal blocks", args, 10, nb, nblk * nb)) !=
        TSL_OK)
        return s;
    /* the real form of the rectangles' right operand, alpha folded in, made once: of B (left;
     * the diagonal blocks' products read it too) or of op(A) (right) */
    const double alpha[2] = {p->alpha, p->alpha_i};
    size_t hr = p->left ? m : ka, hc = p->left ? n : ka;
    tsl__matrix held;
    tsl__matrix src = p->left ? (tsl__matrix){p->b, p->b_off, p->ldb}
                              : (tsl__matrix){p->a, p->a_off, p->lda};
    if ((s = held_form(ctx, p, hr, hc, &held)) != TSL_OK ||
        (s = tsl__zgemm_b2_make(ctx, p->prec, hr, hc, alpha, &src, p->left ? TSL_NO_TRANS : p->ta,
                                &held)) != TSL_OK)
        return s;
    /* W_I = alpha D_I B_I (left) or alpha B_I D_I (right): blocks nb apart along ka */
    tsl__zgemm_call g = {.prec = p->prec, .fp32 = 1,
                         .ta = TSL_NO_TRANS,
                         .tb = TSL_NO_TRANS,
                         .alpha = {p->alpha, p->alpha_i},
                         .beta = {0.0, 0.0}};
    for (int part = 0; s == TSL_OK && part < 2; ++part) {
        size_t o = part ? nfull * nb : 0, len = part ? last : nb, count = part ? 0 : nfull;
        if (len == 0 || (!part && nfull == 0)) continue;
        tsl__matrix dm = {d, o * nb, nb};
        g.k = len;
        g.batch = count > 1 ? count : 0;
        if (p->left) {
            g.m = len;
            g.n = n;
            g.a = dm;
            g.b = (tsl__matrix){p->b, p->b_off + o * p->ldb, p->ldb};
            g.c = (tsl__matrix){w, o * n, n};
            g.a_stride = nb * nb;
            g.b_stride = nb * p->ldb;
            g.c_stride = nb * n;
            g.alpha[0] = 1.0, g.alpha[1] = 0.0; /* in held */
            g.b2 = (tsl__matrix){held.buffer, 2 * o * held.ld, held.ld};
            g.b2_stride = count > 1 ? 2 * nb * held.ld : 0;
        } else {
            g.m = m;
            g.n = len;
            g.a = (tsl__matrix){p->b, p->b_off + o, p->ldb};
            g.b = dm;
            g.c = (tsl__matrix){w, o, n};
            g.a_stride = nb;
            g.b_stride = nb * nb;
            g.c_stride = nb;
        }
        if (!g.batch) g.a_stride = g.b_stride = g.c_stride = 0;
        s = tsl__zgemm_mem(ctx, &g);
    }
    if (s == TSL_OK) s = trmm_offdiag(ctx, p, 0, ka, w, &held);
    /* W into B: a complex m x n block is a real m x 2n one */
    if (s == TSL_OK)
        s = tsl__l3_copy(ctx, p->dbl, m, 2 * n, w, 0, 2 * n, p->b, 2 * p->b_off, 2 * p->ldb);
    return s;
}

/* TRSM's single block [o, o + len) of op(A): X = a op(A)_block^-1 B_block (left) or a B_block
 * op(A)_block^-1 (right), in place. */
static tsl_status trsm_leaf(tsl_context *ctx, const trxm_problem *p, size_t o, size_t len,
                            const double *a)
{
    cl_kernel k;
    int wg = len <= ZL3_LT; /* zl3_trsm_leaf_wg: a work-item per element */
    tsl_status s = zl3_kernel(ctx, p->dbl, wg ? "zl3_trsm_leaf_wg" : "zl3_trsm_leaf", &k);
    if (s != TSL_OK) return s;
    int ilen = (int)len, count = (int)(p->left ? p->n : p->m), left = p->left,
        forward = p->left == p->lower, unit = p->unit, conj = p->ta == TSL_CONJ_TRANS, rs, cs,
        ldb = (int)p->ldb;
    opa_strides(p, &rs, &cs);
    cl_long t_off = (cl_long)opa_at(p, o, o),
            b_off = (cl_long)(p->b_off + (p->left ? o * p->ldb : o));
    tsl__scalar ar, ai;
    tsl__arg args[] = {{sizeof ilen, &ilen},
                       {sizeof count, &count},
                       {sizeof left, &left},
                       {sizeof forward, &forward},
                       {sizeof unit, &unit},
                       {sizeof conj, &conj},
                       tsl__scalar_arg(p->dbl, &ar, a[0]),
                       tsl__scalar_arg(p->dbl, &ai, a[1]),
                       {sizeof(cl_mem), &p->a},
                       {sizeof t_off, &t_off},
                       {sizeof rs, &rs},
                       {sizeof cs, &cs},
                       {sizeof(cl_mem), &p->b},
                       {sizeof b_off, &b_off},
                       {sizeof ldb, &ldb}};
    if (wg) {
        size_t local[2] = {ZL3_CW, ZL3_LT};
        size_t global[2] = {tsl__l3_round_up((size_t)count, ZL3_CW), ZL3_LT};
        return tsl__launch(ctx, k, "complex trsm leaf", args, 15, 2, global, local);
    }
    size_t e = 64;
    while (e > 1 && e > tsl__kernel_max_wg(ctx, k))
        e /= 2;
    size_t local[1] = {e}, global[1] = {tsl__l3_round_up((size_t)count, e)};
    return tsl__launch(ctx, k, "complex trsm leaf", args, 15, 1, global, local);
}

/* TRSM over [lo, hi) of ka with the right-hand sides scaled by a: in substitution order (forward
 * for a lower op(A) on the left, an upper one on the right), the first half, the update of the
 * second from it (B2 = a B2 - op(A)[2, 1] X1 on the left, B2 = a B2 - X1 op(A)[1, 2] on the right),
 * then the second half with a = 1. held: the real form of the updates' right operand (left: of
 * X, each leaf's rows written once they are solved; right: of op(A), made before). */
static tsl_status trsm_solve(tsl_context *ctx, const trxm_problem *p, size_t lo, size_t hi,
                             const double *a, const tsl__matrix *held)
{
    if (hi - lo <= p->nb) {
        tsl_status s = trsm_leaf(ctx, p, lo, hi - lo, a);
        if (s != TSL_OK || !p->left) return s;
        const double one[2] = {1.0, 0.0};
        tsl__matrix x = {p->b, p->b_off + lo * p->ldb, p->ldb};
        tsl__matrix at = {held->buffer, held->offset + 2 * lo * held->ld, held->ld};
        return tsl__zgemm_b2_make(ctx, p->prec, hi - lo, p->n, one, &x, TSL_NO_TRANS, &at);
    }
    size_t mid = halve(p, lo, hi);
    int forward = p->left == p->lower;
    size_t f0 = forward ? lo : mid, f1 = forward ? mid : hi; /* solved first */
    size_t u0 = forward ? mid : lo, u1 = forward ? hi : mid; /* updated from it */
    const double minus[2] = {-1.0, 0.0}, one[2] = {1.0, 0.0};
    tsl_status s = trsm_solve(ctx, p, f0, f1, a, held);
    if (s != TSL_OK) return s;
    if (p->left) /* rows u of B = a B[u] - op(A)[u, f] X[f] */
        s = opa_product(ctx, p, u0, u1 - u0, f0, f1 - f0, minus, a, p->b, p->b_off, p->ldb, held);
    else /* columns u of B = a B[:, u] - X[:, f] op(A)[f, u] */
        s = opa_product(ctx, p, f0, f1 - f0, u0, u1 - u0, minus, a, p->b, p->b_off, p->ldb, held);
    return s != TSL_OK ? s : trsm_solve(ctx, p, u0, u1, one, held);
}

tsl_status tsl__zl3_trxm_run(tsl_context *ctx, const trxm_problem *p)
{
    if (p->alpha == 0.0 && p->alpha_i == 0.0) /* B = 0, A and B not read (BLAS) */
        return tsl__l3_scale(ctx, p->dbl, p->m, 2 * p->n, 0, 0.0, p->b, 2 * p->b_off, 2 * p->ldb);
    trxm_problem q = *p;
    size_t ka = p->left ? p->m : p->n;
    /* the blocks: TRMM's "block" option (tsl__l3_block); TRSM's leaves its "block" option, else
     * 64: a leaf is a substitution of nb^2 / 2 dependent steps per right-hand side (on PoCL, 768^2
     * single: 74 ms with leaves of 64, 107 with 128, 138 with 256) */
    if (p->solve) q.nb = (size_t)tsl__context_option(ctx, "trsm", "block", 64);
    if (q.nb == 0) q.nb = 1;
    if (!p->solve) return trmm(ctx, &q);
    const double alpha[2] = {p->alpha, p->alpha_i}, one[2] = {1.0, 0.0};
    /* the updates' right operand in real form: X's rows as they are solved (left), op(A) (right) */
    tsl__matrix held, a = {p->a, p->a_off, p->lda};
    tsl_status s = held_form(ctx, p, p->left ? p->m : ka, p->left ? p->n : ka, &held);
    if (s == TSL_OK && !p->left)
        s = tsl__zgemm_b2_make(ctx, p->prec, ka, ka, one, &a, p->ta, &held);
    return s != TSL_OK ? s : trsm_solve(ctx, &q, 0, ka, alpha, &held);
}
