/* level3_sym.c: the Level-3 routines with a symmetric operand or result: SYRK and SYR2K (C's
 * triangle, in one tiled2d launch in a triangle mode or as recursive halves of GEMMs with the
 * diagonal blocks merged through a workspace) and SYMM (the symmetric matrix written whole, then
 * one GEMM), each with its argument checks, its row-major view of the call, its host-pointer and
 * device-buffer paths and its public entry points. level3.c has what the routines share and the
 * overview of how calls are mapped and what they read and write. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level3/level3.h"

/* ---- SYRK and SYR2K ----------------------------------------------------------------------------
 * Row-major C (n x n, the lower or upper triangle) = alpha op(A) op(B)^T [+ alpha op(B) op(A)^T]
 * + beta C; op(X) is n x k. The off-diagonal part of the triangle is cut recursively in halves
 * of whole blocks: each half's off-diagonal rectangle is one GEMM, so the largest GEMMs come first
 * and are as big as the problem allows. The diagonal blocks (nb x nb, the last one ragged) are
 * whole products into a workspace, by GEMM, merged into C's triangle by l3_tri_merge. */

/* Rows [r0, ..) of op(X) as GEMM's left operand (trans and offset), and as its right operand
 * transposed (op(X)^T's columns [r0, ..)). */
static void opx_rows(const syrk_problem *p, size_t x_off, size_t ldx, size_t r0, tsl_trans *t,
                     size_t *off)
{
    *t = p->trans;
    *off = x_off + (p->trans == TSL_NO_TRANS ? r0 * ldx : r0);
}
static void opx_cols_t(const syrk_problem *p, size_t x_off, size_t ldx, size_t r0, tsl_trans *t,
                       size_t *off)
{
    *t = p->trans == TSL_NO_TRANS ? TSL_TRANS : TSL_NO_TRANS;
    *off = x_off + (p->trans == TSL_NO_TRANS ? r0 * ldx : r0);
}

/* dst (rows r x cols c of C at dst_off, ld) = alpha op(A)[r rows at ri] op(B)[c rows at ci]^T
 * (+ the swapped term) + beta dst. */
static tsl_status syrk_block(tsl_context *ctx, const syrk_problem *p, size_t ri, size_t rn,
                             size_t ci, size_t cn, double beta, cl_mem dst, size_t dst_off,
                             size_t ldd)
{
    tsl_trans t1, t2;
    size_t o1, o2;
    opx_rows(p, p->a_off, p->lda, ri, &t1, &o1);
    opx_cols_t(p, p->b_off, p->ldb, ci, &t2, &o2);
    tsl_status s = tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = p->prec,
                                                        .ta = t1,
                                                        .tb = t2,
                                                        .m = rn,
                                                        .n = cn,
                                                        .k = p->k,
                                                        .alpha = p->alpha,
                                                        .a = {p->a, o1, p->lda},
                                                        .b = {p->b, o2, p->ldb},
                                                        .beta = beta,
                                                        .c = {dst, dst_off, ldd}});
    if (s != TSL_OK || !p->two) return s;
    opx_rows(p, p->b_off, p->ldb, ri, &t1, &o1);
    opx_cols_t(p, p->a_off, p->lda, ci, &t2, &o2);
    return tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = p->prec,
                                                .ta = t1,
                                                .tb = t2,
                                                .m = rn,
                                                .n = cn,
                                                .k = p->k,
                                                .alpha = p->alpha,
                                                .a = {p->b, o1, p->ldb},
                                                .b = {p->a, o2, p->lda},
                                                .beta = 1.0,
                                                .c = {dst, dst_off, ldd}});
}

static tsl_status syrk_offdiag(tsl_context *ctx, const syrk_problem *p, size_t lo, size_t hi)
{
    size_t blocks = (hi - lo + p->nb - 1) / p->nb;
    if (blocks < 2) return TSL_OK;
    size_t mid = lo + blocks / 2 * p->nb;
    tsl_status s = p->lower
                       ? syrk_block(ctx, p, mid, hi - mid, lo, mid - lo, p->beta, p->c,
                                    p->c_off + mid * p->ldc + lo, p->ldc)
                       : syrk_block(ctx, p, lo, mid - lo, mid, hi - mid, p->beta, p->c,
                                    p->c_off + lo * p->ldc + mid, p->ldc);
    if (s == TSL_OK) s = syrk_offdiag(ctx, p, lo, mid);
    if (s == TSL_OK) s = syrk_offdiag(ctx, p, mid, hi);
    return s;
}

/* The whole triangle in one tiled2d launch per product (TSL__TRI_C_*): tiles wholly in the other
 * triangle return at once, those crossing the diagonal store their referenced part only. 0: done;
 * 1: the context's gemm variant cannot (not tiled2d): the caller runs the recursive algorithm. */
static int syrk_tri(tsl_context *ctx, const syrk_problem *p, tsl_status *s)
{
    tsl__gemm_ext ext = {.tri = p->lower ? TSL__TRI_C_LOWER : TSL__TRI_C_UPPER};
    tsl_trans t1, t2;
    size_t o1, o2;
    opx_rows(p, p->a_off, p->lda, 0, &t1, &o1);
    opx_cols_t(p, p->b_off, p->ldb, 0, &t2, &o2);
    tsl__gemm_call g = {.prec = p->prec,
                        .ta = t1,
                        .tb = t2,
                        .m = p->n,
                        .n = p->n,
                        .k = p->k,
                        .alpha = p->alpha,
                        .a = {p->a, o1, p->lda},
                        .b = {p->b, o2, p->ldb},
                        .beta = p->beta,
                        .c = {p->c, p->c_off, p->ldc}};
    if (!tsl__gemm_ext_ok(ctx, &g, &ext)) return 1;
    *s = tsl__gemm_mem_ext(ctx, &g, &ext);
    if (*s != TSL_OK || !p->two) return 0;
    opx_rows(p, p->b_off, p->ldb, 0, &t1, &o1);
    opx_cols_t(p, p->a_off, p->lda, 0, &t2, &o2);
    *s = tsl__gemm_mem_ext(ctx,
                           &(tsl__gemm_call){.prec = p->prec,
                                             .ta = t1,
                                             .tb = t2,
                                             .m = p->n,
                                             .n = p->n,
                                             .k = p->k,
                                             .alpha = p->alpha,
                                             .a = {p->b, o1, p->ldb},
                                             .b = {p->a, o2, p->lda},
                                             .beta = 1.0,
                                             .c = {p->c, p->c_off, p->ldc}},
                           &ext);
    return 0;
}

static tsl_status syrk_run(tsl_context *ctx, const syrk_problem *p)
{
    int mode = p->lower ? 1 : 2;
    if (p->k == 0 || p->alpha == 0.0) /* C = beta C on the triangle; A and B are not read */
        return p->beta == 1.0 ? TSL_OK
                              : tsl__l3_scale(ctx, p->dbl, p->n, p->n, mode, p->beta, p->c,
                                              p->c_off, p->ldc);
    tsl_status st = TSL_OK;
    if (tsl__l3_variant_kind(ctx, p->two ? "syr2k" : "syrk") == L3_TRI &&
        syrk_tri(ctx, p, &st) == 0)
        return st;
    size_t nb = p->nb, es = p->dbl ? sizeof(double) : sizeof(float);
    size_t nblk = (p->n + nb - 1) / nb;
    cl_mem t;
    tsl_status s = tsl__workspace(ctx, TSL__WS_BLOCKS, nblk * nb * nb * es, &t);
    for (size_t b = 0; s == TSL_OK && b < nblk; ++b) {
        size_t r0 = b * nb, r = p->n - r0 < nb ? p->n - r0 : nb;
        s = syrk_block(ctx, p, r0, r, r0, r, 0.0, t, b * nb * nb, nb);
    }
    if (s != TSL_OK) return s;
    cl_kernel k;
    if ((s = tsl__l3_kernel(ctx, p->dbl, "l3_tri_merge", "", &k)) != TSL_OK) return s;
    int n = (int)p->n, inb = (int)nb, lower = p->lower, ldc = (int)p->ldc;
    cl_long c_off = (cl_long)p->c_off;
    tsl__scalar be;
    tsl__arg args[] = {{sizeof n, &n},         {sizeof inb, &inb},     {sizeof lower, &lower},
                       {sizeof(cl_mem), &t},   tsl__scalar_arg(p->dbl, &be, p->beta),
                       {sizeof(cl_mem), &p->c}, {sizeof c_off, &c_off}, {sizeof ldc, &ldc}};
    if ((s = tsl__l3_launch2d(ctx, k, "level-3 diagonal merge", args, 8, nb, p->n)) != TSL_OK)
        return s;
    return syrk_offdiag(ctx, p, 0, p->n);
}


static tsl_status syrk_check_args(tsl_context *ctx, const char *fn, const syrk_args *g)
{
    tsl_status s;
    if ((s = tsl__l3_check_layout(ctx, fn, g->layout)) ||
        (s = tsl__l3_check_uplo(ctx, fn, g->uplo)) ||
        (s = tsl__check_trans(ctx, fn, "trans", g->trans)) ||
        (s = tsl__l3_check_size(ctx, fn, "n", g->n)) ||
        (s = tsl__l3_check_size(ctx, fn, "k", g->k)))
        return s;
    /* the complex routines take one transpose: csyrk's X^T, cherk's X^H (CBLAS's) */
    int herm = g->cplx == L3_HERMITIAN;
    if (g->cplx && g->trans == (herm ? TSL_TRANS : TSL_CONJ_TRANS))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: trans %d is neither TSL_NO_TRANS nor %s",
                         fn, (int)g->trans, herm ? "TSL_CONJ_TRANS" : "TSL_TRANS");
    int row = g->layout == TSL_ROW_MAJOR;
    size_t need = row == (g->trans == TSL_NO_TRANS) ? g->k : g->n;
    if ((s = tsl__l3_check_ld(ctx, fn, "lda", g->lda, need, "A")) != TSL_OK) return s;
    if (g->two && (s = tsl__l3_check_ld(ctx, fn, "ldb", g->ldb, need, "B")) != TSL_OK) return s;
    return tsl__l3_check_ld(ctx, fn, "ldc", g->ldc, g->n, "C");
}

/* The row-major problem of a call (no buffers yet). */
/* The column-major C is the row-major C^T (= C, or conj(C) for a Hermitian C, which the same
 * triangle holds), so uplo and trans flip; for HER2K, C^T = alpha op(B)^H op(A) + conj(alpha)
 * op(A)^H op(B) in the row-major view, which is the row-major call with alpha conjugated. */
static syrk_problem syrk_view(tsl_context *ctx, int prec, const syrk_args *g, const double *alpha,
                              const double *beta)
{
    int col = g->layout == TSL_COL_MAJOR;
    tsl_trans t = g->cplx == L3_HERMITIAN ? TSL_CONJ_TRANS : TSL_TRANS;
    syrk_problem p = {.dbl = prec == TSL_DOUBLE,
                      .prec = prec,
                      .two = g->two,
                      .cplx = g->cplx,
                      .lower = (g->uplo == TSL_LOWER) != col,
                      .trans = (g->trans != TSL_NO_TRANS) != col ? t : TSL_NO_TRANS,
                      .n = g->n,
                      .k = g->k,
                      .nb = tsl__l3_block(ctx, g->two ? "syr2k" : "syrk"),
                      .alpha = alpha[0],
                      .alpha_i = g->cplx == L3_HERMITIAN && g->two && col ? -alpha[1] : alpha[1],
                      .beta = beta[0],
                      .beta_i = beta[1],
                      .lda = g->lda,
                      .ldb = g->two ? g->ldb : g->lda,
                      .ldc = g->ldc};
    return p;
}

static tsl_status syrk_dispatch(tsl_context *ctx, const syrk_problem *p)
{
    return p->cplx ? tsl__zl3_syrk_run(ctx, p) : syrk_run(ctx, p);
}

tsl_status tsl__l3_syrk_host(tsl_context *ctx, const char *fn, int prec, const syrk_args *g,
                             const double *alpha, const void *a, const void *b,
                             const double *beta, void *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = syrk_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    int use_ab = g->k > 0 && tsl__l3_nonzero(alpha);
    if (g->n == 0 || (!use_ab && tsl__l3_is_one(beta))) return TSL_OK;
    if (!c) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: C is NULL", fn);
    if (use_ab && !a) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: A is NULL", fn);
    if (use_ab && g->two && !b) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: B is NULL", fn);
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    syrk_problem p = syrk_view(ctx, prec, g, alpha, beta);
    size_t es = tsl__l3_elem(prec == TSL_DOUBLE, g->cplx);
    size_t ar = p.trans == TSL_NO_TRANS ? p.n : p.k, ac = p.trans == TSL_NO_TRANS ? p.k : p.n;
    if (tsl__mul_overflows(ar, ac) || tsl__mul_overflows(ar * ac, es) ||
        tsl__mul_overflows(p.n, p.n) || tsl__mul_overflows(p.n * p.n, es))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: matrix byte counts overflow", fn);
    int tri = p.lower ? 1 : 2;
    if (use_ab) {
        if ((s = tsl__l3_upload_matrix(ctx, TSL__WS_A, es, a, ar, ac, g->lda, 0, 0, &p.a)) !=
            TSL_OK)
            return s;
        p.lda = ac;
        if (g->two) {
            if ((s = tsl__l3_upload_matrix(ctx, TSL__WS_B, es, b, ar, ac, g->ldb, 0, 0, &p.b)) !=
                TSL_OK)
                return s;
        } else {
            p.b = p.a;
        }
        p.ldb = ac;
    }
    if (tsl__l3_nonzero(beta)) {
        if ((s = tsl__l3_upload_matrix(ctx, TSL__WS_C, es, c, p.n, p.n, g->ldc, tri, 0, &p.c)) !=
            TSL_OK)
            return s;
    } else if ((s = tsl__workspace(ctx, TSL__WS_C, p.n * p.n * es, &p.c)) != TSL_OK) {
        return s;
    }
    p.ldc = p.n;
    if (!use_ab) p.a = p.b = p.c;
    s = syrk_dispatch(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__l3_download_triangle(ctx, es, p.c, c, p.n, g->ldc, tri)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

tsl_status tsl__l3_syrk_buf(tsl_context *ctx, const char *fn, int prec, const syrk_args *g,
                            const double *alpha, const tsl_buffer *a, const tsl_buffer *b,
                            const double *beta, tsl_buffer *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = syrk_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    int use_ab = g->k > 0 && tsl__l3_nonzero(alpha);
    if (g->n == 0 || (!use_ab && tsl__l3_is_one(beta))) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    syrk_problem p = syrk_view(ctx, prec, g, alpha, beta);
    size_t es = tsl__l3_elem(prec == TSL_DOUBLE, g->cplx);
    size_t ar = p.trans == TSL_NO_TRANS ? p.n : p.k, ac = p.trans == TSL_NO_TRANS ? p.k : p.n;
    if ((s = tsl__check_matrix_buffer(ctx, fn, "C", c, p.n, p.n, p.ldc, es)) != TSL_OK) return s;
    if (use_ab && (s = tsl__check_matrix_buffer(ctx, fn, "A", a, ar, ac, p.lda, es)) != TSL_OK)
        return s;
    if (use_ab && g->two &&
        (s = tsl__check_matrix_buffer(ctx, fn, "B", b, ar, ac, p.ldb, es)) != TSL_OK)
        return s;
    p.c = c->mem;
    p.a = use_ab ? a->mem : c->mem;
    p.b = use_ab && g->two ? b->mem : p.a;
    s = syrk_dispatch(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

tsl_status tsl__syrk_mem(tsl_context *ctx, const tsl__syrk_call *y)
{
    if (y->n == 0) return TSL_OK;
    syrk_args g = {y->layout, y->uplo, y->trans, y->n, y->k, y->a.ld, y->a.ld, y->c.ld, 0, L3_REAL};
    syrk_problem p =
        syrk_view(ctx, y->prec, &g, (double[2]){y->alpha, 0.0}, (double[2]){y->beta, 0.0});
    p.a = p.b = y->a.buffer;
    p.a_off = p.b_off = y->a.offset;
    p.c = y->c.buffer;
    p.c_off = y->c.offset;
    return syrk_run(ctx, &p);
}

/* ---- SYMM ------------------------------------------------------------------------------------
 * Row-major C (m x n) = alpha S B + beta C (left, S m x m) or alpha B S + beta C (right, S n x n),
 * S symmetric with one triangle stored in A. l3_symm_expand writes S whole into a workspace,
 * reading the stored triangle only; then one GEMM does all the flops. */

static tsl_status symm_run(tsl_context *ctx, const symm_problem *p)
{
    size_t ka = p->left ? p->m : p->n, es = p->dbl ? sizeof(double) : sizeof(float);
    if (p->alpha == 0.0) /* C = beta C: GEMM with alpha 0 reads neither A nor B */
        return tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = p->prec,
                                                    .ta = TSL_NO_TRANS,
                                                    .tb = TSL_NO_TRANS,
                                                    .m = p->m,
                                                    .n = p->n,
                                                    .k = ka,
                                                    .alpha = 0.0,
                                                    .a = {p->c, 0, 1},
                                                    .b = {p->c, 0, 1},
                                                    .beta = p->beta,
                                                    .c = {p->c, p->c_off, p->ldc}});
    cl_mem sm;
    cl_kernel k;
    tsl_status s = tsl__workspace(ctx, TSL__WS_W, ka * ka * es, &sm);
    if (s == TSL_OK) s = tsl__l3_kernel(ctx, p->dbl, "l3_symm_expand", "", &k);
    if (s != TSL_OK) return s;
    int n = (int)ka, lower = p->lower, lda = (int)p->lda;
    cl_long a_off = (cl_long)p->a_off;
    tsl__arg args[] = {{sizeof n, &n},         {sizeof lower, &lower}, {sizeof(cl_mem), &p->a},
                       {sizeof a_off, &a_off}, {sizeof lda, &lda},     {sizeof(cl_mem), &sm}};
    size_t tiles = (ka + 31) / 32, local[2] = {32, 8}, global[2] = {tiles * 32, tiles * 8};
    if ((s = tsl__launch(ctx, k, "symm expansion", args, 6, 2, global, local)) != TSL_OK) return s;
    if (p->left)
        return tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = p->prec,
                                                    .ta = TSL_NO_TRANS,
                                                    .tb = TSL_NO_TRANS,
                                                    .m = p->m,
                                                    .n = p->n,
                                                    .k = p->m,
                                                    .alpha = p->alpha,
                                                    .a = {sm, 0, ka},
                                                    .b = {p->b, p->b_off, p->ldb},
                                                    .beta = p->beta,
                                                    .c = {p->c, p->c_off, p->ldc}});
    return tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = p->prec,
                                                .ta = TSL_NO_TRANS,
                                                .tb = TSL_NO_TRANS,
                                                .m = p->m,
                                                .n = p->n,
                                                .k = p->n,
                                                .alpha = p->alpha,
                                                .a = {p->b, p->b_off, p->ldb},
                                                .b = {sm, 0, ka},
                                                .beta = p->beta,
                                                .c = {p->c, p->c_off, p->ldc}});
}


static tsl_status symm_check_args(tsl_context *ctx, const char *fn, const symm_args *g)
{
    tsl_status s;
    if ((s = tsl__l3_check_layout(ctx, fn, g->layout)) ||
        (s = tsl__l3_check_side(ctx, fn, g->side)) || (s = tsl__l3_check_uplo(ctx, fn, g->uplo)) ||
        (s = tsl__l3_check_size(ctx, fn, "m", g->m)) ||
        (s = tsl__l3_check_size(ctx, fn, "n", g->n)))
        return s;
    size_t ka = g->side == TSL_LEFT ? g->m : g->n;
    size_t line = g->layout == TSL_ROW_MAJOR ? g->n : g->m;
    if ((s = tsl__l3_check_ld(ctx, fn, "lda", g->lda, ka, "A")) ||
        (s = tsl__l3_check_ld(ctx, fn, "ldb", g->ldb, line, "B")))
        return s;
    return tsl__l3_check_ld(ctx, fn, "ldc", g->ldc, line, "C");
}

/* The column-major call is the row-major one on the transposes: side and uplo flip (S^T is S, or
 * conj(S) for a Hermitian S, which the same triangle holds as the row-major view reads it). */
static symm_problem symm_view(int prec, const symm_args *g, const double *alpha,
                              const double *beta)
{
    int col = g->layout == TSL_COL_MAJOR;
    symm_problem p = {.dbl = prec == TSL_DOUBLE,
                      .prec = prec,
                      .cplx = g->cplx,
                      .alpha_i = alpha[1],
                      .beta_i = beta[1],
                      .left = (g->side == TSL_LEFT) != col,
                      .lower = (g->uplo == TSL_LOWER) != col,
                      .m = col ? g->n : g->m,
                      .n = col ? g->m : g->n,
                      .alpha = alpha[0],
                      .beta = beta[0],
                      .lda = g->lda,
                      .ldb = g->ldb,
                      .ldc = g->ldc};
    return p;
}

static tsl_status symm_dispatch(tsl_context *ctx, const symm_problem *p)
{
    return p->cplx ? tsl__zl3_symm_run(ctx, p) : symm_run(ctx, p);
}

tsl_status tsl__l3_symm_host(tsl_context *ctx, const char *fn, int prec, const symm_args *g,
                             const double *alpha, const void *a, const void *b,
                             const double *beta, void *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = symm_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    int use_ab = tsl__l3_nonzero(alpha);
    if (g->m == 0 || g->n == 0 || (!use_ab && tsl__l3_is_one(beta))) return TSL_OK;
    if (!c) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: C is NULL", fn);
    if (use_ab && (!a || !b))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, a ? "B" : "A");
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    symm_problem p = symm_view(prec, g, alpha, beta);
    size_t es = tsl__l3_elem(prec == TSL_DOUBLE, g->cplx);
    size_t ka = p.left ? p.m : p.n;
    if (tsl__mul_overflows(ka, ka) || tsl__mul_overflows(ka * ka, es) ||
        tsl__mul_overflows(p.m, p.n) || tsl__mul_overflows(p.m * p.n, es))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: matrix byte counts overflow", fn);
    if (use_ab) {
        if ((s = tsl__l3_upload_matrix(ctx, TSL__WS_A, es, a, ka, ka, g->lda, p.lower ? 1 : 2, 0,
                                       &p.a)) ||
            (s = tsl__l3_upload_matrix(ctx, TSL__WS_B, es, b, p.m, p.n, g->ldb, 0, 0, &p.b)))
            return s;
        p.lda = ka;
        p.ldb = p.n;
    }
    if (tsl__l3_nonzero(beta))
        s = tsl__l3_upload_matrix(ctx, TSL__WS_C, es, c, p.m, p.n, g->ldc, 0, 0, &p.c);
    else
        s = tsl__workspace(ctx, TSL__WS_C, p.m * p.n * es, &p.c);
    if (s != TSL_OK) return s;
    p.ldc = p.n;
    if (!use_ab) p.a = p.b = p.c;
    s = symm_dispatch(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__download_rect(ctx, p.c, c, p.m, p.n * es, g->ldc * es)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

tsl_status tsl__l3_symm_buf(tsl_context *ctx, const char *fn, int prec, const symm_args *g,
                            const double *alpha, const tsl_buffer *a, const tsl_buffer *b,
                            const double *beta, tsl_buffer *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = symm_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    int use_ab = tsl__l3_nonzero(alpha);
    if (g->m == 0 || g->n == 0 || (!use_ab && tsl__l3_is_one(beta))) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    symm_problem p = symm_view(prec, g, alpha, beta);
    size_t es = tsl__l3_elem(prec == TSL_DOUBLE, g->cplx);
    size_t ka = p.left ? p.m : p.n;
    if ((s = tsl__check_matrix_buffer(ctx, fn, "C", c, p.m, p.n, p.ldc, es)) != TSL_OK) return s;
    if (use_ab && ((s = tsl__check_matrix_buffer(ctx, fn, "A", a, ka, ka, p.lda, es)) ||
                         (s = tsl__check_matrix_buffer(ctx, fn, "B", b, p.m, p.n, p.ldb, es))))
        return s;
    p.c = c->mem;
    p.a = use_ab ? a->mem : c->mem;
    p.b = use_ab ? b->mem : c->mem;
    s = symm_dispatch(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

/* ---- the public entry points ----------------------------------------------------------------- */

#define SYMM_ARGS {layout, side, uplo, m, n, lda, ldb, ldc, L3_REAL}
tsl_status tsl_ssymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                     float beta, float *c, size_t ldc)
{
    symm_args g = SYMM_ARGS;
    return tsl__l3_symm_host(ctx, "tsl_ssymm", TSL_SINGLE, &g, (double[2]){alpha, 0.0}, a, b,
                             (double[2]){beta, 0.0}, c);
}
tsl_status tsl_dsymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, double alpha, const double *a, size_t lda, const double *b,
                     size_t ldb, double beta, double *c, size_t ldc)
{
    symm_args g = SYMM_ARGS;
    return tsl__l3_symm_host(ctx, "tsl_dsymm", TSL_DOUBLE, &g, (double[2]){alpha, 0.0}, a, b,
                             (double[2]){beta, 0.0}, c);
}
tsl_status tsl_ssymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, float alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    symm_args g = SYMM_ARGS;
    return tsl__l3_symm_buf(ctx, "tsl_ssymm_buf", TSL_SINGLE, &g, (double[2]){alpha, 0.0}, a, b,
                            (double[2]){beta, 0.0}, c);
}
tsl_status tsl_dsymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, double alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, double beta, tsl_buffer *c, size_t ldc)
{
    symm_args g = SYMM_ARGS;
    return tsl__l3_symm_buf(ctx, "tsl_dsymm_buf", TSL_DOUBLE, &g, (double[2]){alpha, 0.0}, a, b,
                            (double[2]){beta, 0.0}, c);
}
#undef SYMM_ARGS

#define SYRK_ARGS(two) {layout, uplo, tsl__real_trans(trans), n, k, lda, ldb, ldc, two, L3_REAL}
tsl_status tsl_ssyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                     size_t n, size_t k, float alpha, const float *a, size_t lda, float beta,
                     float *c, size_t ldc)
{
    size_t ldb = 0;
    syrk_args g = SYRK_ARGS(0);
    return tsl__l3_syrk_host(ctx, "tsl_ssyrk", TSL_SINGLE, &g, (double[2]){alpha, 0.0}, a, NULL,
                             (double[2]){beta, 0.0}, c);
}
tsl_status tsl_dsyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                     size_t n, size_t k, double alpha, const double *a, size_t lda, double beta,
                     double *c, size_t ldc)
{
    size_t ldb = 0;
    syrk_args g = SYRK_ARGS(0);
    return tsl__l3_syrk_host(ctx, "tsl_dsyrk", TSL_DOUBLE, &g, (double[2]){alpha, 0.0}, a, NULL,
                             (double[2]){beta, 0.0}, c);
}
tsl_status tsl_ssyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                         float beta, tsl_buffer *c, size_t ldc)
{
    size_t ldb = 0;
    syrk_args g = SYRK_ARGS(0);
    return tsl__l3_syrk_buf(ctx, "tsl_ssyrk_buf", TSL_SINGLE, &g, (double[2]){alpha, 0.0}, a, NULL,
                            (double[2]){beta, 0.0}, c);
}
tsl_status tsl_dsyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, double alpha, const tsl_buffer *a, size_t lda,
                         double beta, tsl_buffer *c, size_t ldc)
{
    size_t ldb = 0;
    syrk_args g = SYRK_ARGS(0);
    return tsl__l3_syrk_buf(ctx, "tsl_dsyrk_buf", TSL_DOUBLE, &g, (double[2]){alpha, 0.0}, a, NULL,
                            (double[2]){beta, 0.0}, c);
}
tsl_status tsl_ssyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                      size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b,
                      size_t ldb, float beta, float *c, size_t ldc)
{
    syrk_args g = SYRK_ARGS(1);
    return tsl__l3_syrk_host(ctx, "tsl_ssyr2k", TSL_SINGLE, &g, (double[2]){alpha, 0.0}, a, b,
                             (double[2]){beta, 0.0}, c);
}
tsl_status tsl_dsyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                      size_t n, size_t k, double alpha, const double *a, size_t lda,
                      const double *b, size_t ldb, double beta, double *c, size_t ldc)
{
    syrk_args g = SYRK_ARGS(1);
    return tsl__l3_syrk_host(ctx, "tsl_dsyr2k", TSL_DOUBLE, &g, (double[2]){alpha, 0.0}, a, b,
                             (double[2]){beta, 0.0}, c);
}
tsl_status tsl_ssyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = SYRK_ARGS(1);
    return tsl__l3_syrk_buf(ctx, "tsl_ssyr2k_buf", TSL_SINGLE, &g, (double[2]){alpha, 0.0}, a, b,
                            (double[2]){beta, 0.0}, c);
}
tsl_status tsl_dsyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, double alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, double beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = SYRK_ARGS(1);
    return tsl__l3_syrk_buf(ctx, "tsl_dsyr2k_buf", TSL_DOUBLE, &g, (double[2]){alpha, 0.0}, a, b,
                            (double[2]){beta, 0.0}, c);
}
#undef SYRK_ARGS
