/* level3_complex.c: the complex Level-3 routines with a symmetric or Hermitian operand or result,
 * on device memory: SYMM and HEMM (the matrix written whole, then one complex GEMM), SYRK, HERK,
 * SYR2K and HER2K (variant tri, auto: C's triangle in one real GEMM a product in tiled2d's
 * triangle mode with two real columns a complex one, TRI_CS 2; variant recursive, or where the
 * gemm variant is no tiled2d: the strictly triangular part in recursive halves of whole blocks,
 * one GEMM per off-diagonal rectangle written in place, the diagonal blocks in one batched GEMM
 * into a workspace and merged into the triangle). Every flop but the merges
 * runs in tsl__zgemm_mem (gemm_complex.c: one real GEMM of the context's gemm variant). The calls
 * reach these through level3_sym.c, which checks, maps the layout and stages host arrays for the
 * real and complex routines alike; docs/level3.md ("Complex routines") explains the choices.
 *
 * In the 4M form a complex C is a real n x 2n matrix whose complex lower triangle is the real
 * elements (i, c) with c <= 2 i + 1: tiled2d's TRI_CS = 2 makes that its triangle. */
#include <stdio.h>
#include <string.h>

#include "level3/level3.h"

/* The kernel `name` of level3_complex.cl for the precision. */
static tsl_status zl3_kernel(tsl_context *ctx, int dbl, const char *name, cl_kernel *k)
{
    char options[128];
    snprintf(options, sizeof options, "-DPRECISION=%d -DONLY_ONE_KERNEL -DONLY_%s", dbl ? 64 : 32,
             name);
    return tsl__get_kernel(ctx, "level3_complex.cl", options, name, k);
}

/* C's triangle (n x n at c_off, ldc): C = W + beta C on the diagonal blocks of nb (w: the blocks'
 * products, block b at b nb nb), or with w NULL C = beta C on the whole triangle (nb = n); a
 * Hermitian C's diagonal keeps a zero imaginary part. */
static tsl_status tri_update(tsl_context *ctx, const syrk_problem *p, size_t nb, cl_mem w)
{
    cl_kernel k;
    tsl_status s = zl3_kernel(ctx, p->dbl, "zl3_tri_update", &k);
    if (s != TSL_OK) return s;
    int n = (int)p->n, inb = (int)nb, lower = p->lower, herm = p->cplx == L3_HERMITIAN,
        has_w = w != NULL, ldc = (int)p->ldc;
    cl_mem wm = w ? w : p->c;
    cl_long c_off = (cl_long)p->c_off;
    tsl__scalar br, bi;
    tsl__arg args[] = {{sizeof n, &n},
                       {sizeof inb, &inb},
                       {sizeof lower, &lower},
                       {sizeof herm, &herm},
                       {sizeof has_w, &has_w},
                       {sizeof(cl_mem), &wm},
                       tsl__scalar_arg(p->dbl, &br, p->beta),
                       tsl__scalar_arg(p->dbl, &bi, p->beta_i),
                       {sizeof(cl_mem), &p->c},
                       {sizeof c_off, &c_off},
                       {sizeof ldc, &ldc}};
    return tsl__l3_launch2d(ctx, k, "complex level-3 triangle", args, 11, nb, p->n);
}

/* op(X)'s rows [r0, ..) as GEMM's left operand, and op(X)^T (Hermitian: op(X)^H) from column r0
 * as its right operand: the transpose and the element offset. */
static void left_rows(const syrk_problem *p, size_t off, size_t ld, size_t r0, tsl_trans *t,
                      size_t *o)
{
    *t = p->trans;
    *o = off + (p->trans == TSL_NO_TRANS ? r0 * ld : r0);
}
static void right_cols(const syrk_problem *p, size_t off, size_t ld, size_t r0, tsl_trans *t,
                       size_t *o)
{
    tsl_trans tr = p->cplx == L3_HERMITIAN ? TSL_CONJ_TRANS : TSL_TRANS;
    *t = p->trans == TSL_NO_TRANS ? tr : TSL_NO_TRANS;
    *o = off + (p->trans == TSL_NO_TRANS ? r0 * ld : r0);
}

/* The block of C at rows [ri, ri + rn) and columns [ci, ci + cn) (in dst at dst_off, ldd; for a
 * batch, count blocks each nb further along the diagonal, dst_stride apart) = alpha op(A)[rows]
 * op(B)[cols]^T (+ alpha2 op(B)[rows] op(A)[cols]^T) + beta dst. */
static tsl_status block_product(tsl_context *ctx, const syrk_problem *p, size_t ri, size_t rn,
                                size_t ci, size_t cn, const double *beta, cl_mem dst,
                                size_t dst_off, size_t ldd, size_t count, size_t dst_stride,
                                int tri)
{
    /* the batch's step along op(X)'s rows: nb rows of X, or nb columns of a transposed X */
    size_t sa = count ? (p->trans == TSL_NO_TRANS ? p->nb * p->lda : p->nb) : 0;
    size_t sb = count ? (p->trans == TSL_NO_TRANS ? p->nb * p->ldb : p->nb) : 0;
    tsl__zgemm_call g = {.prec = p->prec, .fp32 = 1,
                         .m = rn,
                         .n = cn,
                         .k = p->k,
                         .alpha = {p->alpha, p->alpha_i},
                         .beta = {beta[0], beta[1]},
                         .c = {dst, dst_off, ldd},
                         .batch = count,
                         .c_stride = dst_stride,
                         .tri = tri};
    size_t oa, ob;
    left_rows(p, p->a_off, p->lda, ri, &g.ta, &oa);
    right_cols(p, p->b_off, p->ldb, ci, &g.tb, &ob);
    g.a = (tsl__matrix){p->a, oa, p->lda};
    g.b = (tsl__matrix){p->b, ob, p->ldb};
    g.a_stride = sa;
    g.b_stride = sb;
    tsl_status s = tsl__zgemm_mem(ctx, &g);
    if (s != TSL_OK || !p->two) return s;
    /* the second term: alpha op(B) op(A)^T, or conj(alpha) op(B) op(A)^H */
    if (p->cplx == L3_HERMITIAN) g.alpha[1] = -g.alpha[1];
    g.beta[0] = 1.0;
    g.beta[1] = 0.0;
    left_rows(p, p->b_off, p->ldb, ri, &g.ta, &oa);
    right_cols(p, p->a_off, p->lda, ci, &g.tb, &ob);
    g.a = (tsl__matrix){p->b, oa, p->ldb};
    g.b = (tsl__matrix){p->a, ob, p->lda};
    g.a_stride = sb;
    g.b_stride = sa;
    return tsl__zgemm_mem(ctx, &g);
}

/* The strictly triangular part of C over rows [lo, hi): the rectangle beside the halves'
 * diagonal, then each half. */
static tsl_status offdiag(tsl_context *ctx, const syrk_problem *p, size_t lo, size_t hi)
{
    size_t blocks = (hi - lo + p->nb - 1) / p->nb;
    if (blocks < 2) return TSL_OK;
    size_t mid = lo + blocks / 2 * p->nb;
    const double beta[2] = {p->beta, p->beta_i};
    tsl_status s = p->lower ? block_product(ctx, p, mid, hi - mid, lo, mid - lo, beta, p->c,
                                            p->c_off + mid * p->ldc + lo, p->ldc, 0, 0, 0)
                            : block_product(ctx, p, lo, mid - lo, mid, hi - mid, beta, p->c,
                                            p->c_off + lo * p->ldc + mid, p->ldc, 0, 0, 0);
    if (s == TSL_OK) s = offdiag(ctx, p, lo, mid);
    if (s == TSL_OK) s = offdiag(ctx, p, mid, hi);
    return s;
}

/* The syrk (syr2k) variant tri: the whole triangle in one real GEMM a product (tiled2d's TRI_C
 * modes with TRI_CS 2, where the context's gemm variant runs them): a complex beta first as
 * C = beta C on the triangle (then beta 1), the products written in place on the triangle only, and a Hermitian C's diagonal
 * imaginary parts set to 0 after them (tri_update on blocks of 1, beta 1). Returns 0 where the
 * triangle mode does not run (the caller takes the recursion). */
static int syrk_tri(tsl_context *ctx, const syrk_problem *p, tsl_status *s)
{
    int tri = p->lower ? TSL__TRI_C_LOWER : TSL__TRI_C_UPPER;
    tsl__zgemm_call probe = {.prec = p->prec, .fp32 = 1, .m = p->n, .n = p->n, .k = p->k,
                             .tri = tri};
    if (tsl__l3_variant_kind(ctx, p->two ? "syr2k" : "syrk") != L3_TRI ||
        !tsl__zgemm_tri_ok(ctx, &probe))
        return 0;
    double beta[2] = {p->beta, p->beta_i};
    *s = TSL_OK;
    if (beta[1] != 0.0) {
        *s = tri_update(ctx, p, p->n, NULL);
        beta[0] = 1.0, beta[1] = 0.0;
    }
    if (*s == TSL_OK)
        *s = block_product(ctx, p, 0, p->n, 0, p->n, beta, p->c, p->c_off, p->ldc, 0, 0, tri);
    if (*s == TSL_OK && p->cplx == L3_HERMITIAN) {
        syrk_problem one = *p;
        one.beta = 1.0, one.beta_i = 0.0;
        *s = tri_update(ctx, &one, 1, NULL);
    }
    return 1;
}

tsl_status tsl__zl3_syrk_run(tsl_context *ctx, const syrk_problem *p)
{
    if (p->k == 0 || (p->alpha == 0.0 && p->alpha_i == 0.0)) /* C = beta C on the triangle */
        return tri_update(ctx, p, p->n, NULL);
    tsl_status st;
    if (syrk_tri(ctx, p, &st)) return st;
    size_t nb = p->nb, es = tsl__l3_elem(p->dbl, 1);
    size_t nfull = p->n / nb, last = p->n - nfull * nb, nblk = nfull + (last != 0);
    cl_mem w;
    tsl_status s = tsl__workspace(ctx, TSL__WS_BLOCKS, nblk * nb * nb * es, &w);
    const double zero[2] = {0.0, 0.0};
    /* the diagonal blocks' products: the whole ones in one batched GEMM, the ragged one alone */
    if (s == TSL_OK && nfull)
        s = block_product(ctx, p, 0, nb, 0, nb, zero, w, 0, nb, nfull > 1 ? nfull : 0, nb * nb, 0);
    if (s == TSL_OK && last)
        s = block_product(ctx, p, nfull * nb, last, nfull * nb, last, zero, w, nfull * nb * nb, nb,
                          0, 0, 0);
    if (s == TSL_OK) s = tri_update(ctx, p, nb, w);
    if (s == TSL_OK) s = offdiag(ctx, p, 0, p->n);
    return s;
}

/* ---- SYMM, HEMM -------------------------------------------------------------------------------
 * S written whole into TSL__WS_W from its stored triangle (zl3_expand), then one complex GEMM:
 * C = alpha S B + beta C (left) or alpha B S + beta C (right). */
tsl_status tsl__zl3_symm_run(tsl_context *ctx, const symm_problem *p)
{
    size_t ka = p->left ? p->m : p->n, es = tsl__l3_elem(p->dbl, 1);
    tsl__zgemm_call g = {.prec = p->prec, .fp32 = 1,
                         .ta = TSL_NO_TRANS,
                         .tb = TSL_NO_TRANS,
                         .m = p->m,
                         .n = p->n,
                         .k = ka,
                         .alpha = {p->alpha, p->alpha_i},
                         .beta = {p->beta, p->beta_i},
                         .a = {p->c, 0, 1},
                         .b = {p->c, 0, 1},
                         .c = {p->c, p->c_off, p->ldc}};
    if (p->alpha == 0.0 && p->alpha_i == 0.0) /* C = beta C: A and B are not read */
        return tsl__zgemm_mem(ctx, &g);
    cl_mem sm;
    cl_kernel k;
    tsl_status s = tsl__workspace(ctx, TSL__WS_W, ka * ka * es, &sm);
    if (s == TSL_OK) s = zl3_kernel(ctx, p->dbl, "zl3_expand", &k);
    if (s != TSL_OK) return s;
    int n = (int)ka, lower = p->lower, herm = p->cplx == L3_HERMITIAN, lda = (int)p->lda;
    cl_long a_off = (cl_long)p->a_off;
    tsl__arg args[] = {{sizeof n, &n},          {sizeof lower, &lower}, {sizeof herm, &herm},
                       {sizeof(cl_mem), &p->a}, {sizeof a_off, &a_off}, {sizeof lda, &lda},
                       {sizeof(cl_mem), &sm}};
    if ((s = tsl__l3_launch2d(ctx, k, "complex symm expansion", args, 7, ka, ka)) != TSL_OK)
        return s;
    tsl__matrix sfull = {sm, 0, ka}, b = {p->b, p->b_off, p->ldb};
    g.a = p->left ? sfull : b;
    g.b = p->left ? b : sfull;
    return tsl__zgemm_mem(ctx, &g);
}
