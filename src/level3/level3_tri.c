/* level3_tri.c: the Level-3 routines with a triangular operand: TRMM and TRSM (in one tiled2d
 * launch in a triangle mode, or blocked with the diagonal blocks made dense or inverted; TRSM's
 * inverse variants invert the diagonal blocks (level3_inv.c), then run the substitution's
 * updates as GEMMs; inverse_leaf is level3_leaf.c's), with their argument
 * checks, the row-major view of a call, the host-pointer and device-buffer paths and the public
 * entry points. level3.c has what the routines share and the overview of how calls are mapped
 * and what they read and write. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level3/level3.h"
#include "level3/level3_tri.h"

/* ---- TRMM and TRSM -----------------------------------------------------------------------------
 * Row-major B (m x n) = alpha op(A) B (left) or alpha B op(A) (right), TRSM: the solution X of
 * op(A) X = alpha B or X op(A) = alpha B, into B. op(A) is triangular, ka x ka (ka = m left, n
 * right); it is lower or upper as uplo and trans together say. Blocks of nb along ka: the
 * diagonal blocks of op(A) (TRMM) are made dense by l3_tri_blocks, their inverses (TRSM) by
 * l3_tri_inv, and
 * everything else is GEMM on blocks of A, B and the workspace W (m x n), which takes the result
 * and is copied into B at the end (a GEMM cannot write the B it reads). */
static tsl_status tri_blocks(tsl_context *ctx, const trxm_problem *p, size_t ka, cl_mem d)
{
    cl_kernel k;
    tsl_status s = tsl__l3_kernel(ctx, p->dbl, "l3_tri_blocks", "", &k);
    if (s != TSL_OK) return s;
    int n = (int)ka, nb = (int)p->nb, lower = p->lower, unit = p->unit;
    int rs = p->ta == TSL_NO_TRANS ? (int)p->lda : 1, cs = p->ta == TSL_NO_TRANS ? 1 : (int)p->lda;
    cl_long a_off = (cl_long)p->a_off;
    tsl__arg args[] = {{sizeof n, &n},         {sizeof nb, &nb},   {sizeof(cl_mem), &p->a},
                       {sizeof a_off, &a_off}, {sizeof rs, &rs},   {sizeof cs, &cs},
                       {sizeof lower, &lower}, {sizeof unit, &unit}, {sizeof(cl_mem), &d}};
    size_t nblk = (ka + p->nb - 1) / p->nb;
    size_t e = 64;
    while (e > 1 && e > tsl__kernel_max_wg(ctx, k)) e /= 2;
    size_t local[2] = {e, 1}, global[2] = {tsl__l3_round_up(p->nb, e), nblk};
    return tsl__launch(ctx, k, "trmm diagonal blocks", args, 9, 2, global, local);
}

/* TRSM's diagonal block blk (rows [o, o + len) of op(A)) by substitution: W_blk = a1 op(A_blk)^-1
 * B_blk (left) or a1 B_blk op(A_blk)^-1 (right), each right-hand side one work-item. */
static tsl_status trsm_diag(tsl_context *ctx, const trxm_problem *p, size_t o, size_t len,
                            double a1, cl_mem w)
{
    cl_kernel k;
    tsl_status s = tsl__l3_kernel(ctx, p->dbl, "l3_trsm_diag", "", &k);
    if (s != TSL_OK) return s;
    int ilen = (int)len, count = (int)(p->left ? p->n : p->m), left = p->left, lower = p->lower,
        unit = p->unit, ldb = (int)p->ldb, ldw = (int)p->n;
    int rs = p->ta == TSL_NO_TRANS ? (int)p->lda : 1, cs = p->ta == TSL_NO_TRANS ? 1 : (int)p->lda;
    cl_long t_off = (cl_long)opa_at(p, o, o),
            b_off = (cl_long)(p->b_off + (p->left ? o * p->ldb : o)),
            w_off = (cl_long)(p->left ? o * p->n : o);
    float a1f = (float)a1;
    tsl__arg args[] = {{sizeof ilen, &ilen},   {sizeof count, &count},
                       {sizeof left, &left},   {sizeof lower, &lower},
                       {sizeof unit, &unit},   p->dbl ? (tsl__arg){sizeof a1, &a1} : (tsl__arg){sizeof a1f, &a1f},
                       {sizeof(cl_mem), &p->a}, {sizeof t_off, &t_off},
                       {sizeof rs, &rs},       {sizeof cs, &cs},
                       {sizeof(cl_mem), &p->b}, {sizeof b_off, &b_off},
                       {sizeof ldb, &ldb},     {sizeof(cl_mem), &w},
                       {sizeof w_off, &w_off}, {sizeof ldw, &ldw}};
    size_t e = 64;
    while (e > 1 && e > tsl__kernel_max_wg(ctx, k)) e /= 2;
    size_t local[1] = {e}, global[1] = {tsl__l3_round_up((size_t)count, e)};
    return tsl__launch(ctx, k, "trsm diagonal block", args, 16, 1, global, local);
}

static tsl_status trxm_blocked(tsl_context *ctx, const trxm_problem *p)
{
    size_t es = p->dbl ? sizeof(double) : sizeof(float), nb = p->nb;
    size_t ka = p->left ? p->m : p->n, nblk = (ka + nb - 1) / nb, m = p->m, n = p->n;
    cl_mem d = NULL, w;
    size_t dsz = nblk * nb * nb;
    tsl_status s = p->solve ? TSL_OK : tsl__workspace(ctx, TSL__WS_BLOCKS, dsz * es, &d);
    if (s == TSL_OK) s = tsl__workspace(ctx, TSL__WS_W, m * n * es, &w);
    /* TRMM: the diagonal blocks made dense. TRSM solves its diagonal blocks by substitution
     * (trsm_diag), not through explicit inverses: this is the backward-stable variant. */
    if (s == TSL_OK && !p->solve) s = tri_blocks(ctx, p, ka, d);
    int prec = p->prec;
    /* TRSM: blocks in the order of the substitution (forward for a lower op(A) on the left or an
     * upper one on the right, else backward); each solved block updates the ones after it, and
     * the first update also scales them by alpha. TRMM: the diagonal products first (beta 0),
     * then every off-diagonal block of op(A) adds its product (beta 1); the order is free. */
    int forward = p->left == p->lower;
    for (size_t step = 0; s == TSL_OK && step < nblk; ++step) {
        size_t blk = p->solve && !forward ? nblk - 1 - step : step;
        size_t o = blk * nb, len = ka - o < nb ? ka - o : nb;
        double a1 = p->solve && step > 0 ? 1.0 : p->alpha;
        /* the diagonal block: W_blk = a1 D_blk B_blk (left) or a1 B_blk D_blk (right), D_blk the
         * dense diagonal block (TRMM) or its inverse, applied by substitution (TRSM) */
        if (p->solve)
            s = trsm_diag(ctx, p, o, len, a1, w);
        else if (p->left)
            s = tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = prec,
                                                     .ta = TSL_NO_TRANS,
                                                     .tb = TSL_NO_TRANS,
                                                     .m = len,
                                                     .n = n,
                                                     .k = len,
                                                     .alpha = a1,
                                                     .a = {d, blk * nb * nb, nb},
                                                     .b = {p->b, p->b_off + o * p->ldb, p->ldb},
                                                     .beta = 0.0,
                                                     .c = {w, o * n, n}});
        else
            s = tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = prec,
                                                     .ta = TSL_NO_TRANS,
                                                     .tb = TSL_NO_TRANS,
                                                     .m = m,
                                                     .n = len,
                                                     .k = len,
                                                     .alpha = a1,
                                                     .a = {p->b, p->b_off + o, p->ldb},
                                                     .b = {d, blk * nb * nb, nb},
                                                     .beta = 0.0,
                                                     .c = {w, o, n}});
        if (s != TSL_OK || !p->solve) continue;
        /* TRSM: the blocks not solved yet, rest = [r0, r1) of ka */
        size_t r0 = forward ? o + len : 0, r1 = forward ? ka : o;
        if (r0 >= r1) continue;
        if (p->left) /* B[rest, :] = a1 B[rest, :] - op(A)[rest, blk] W_blk */
            s = tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = prec,
                                                     .ta = p->ta,
                                                     .tb = TSL_NO_TRANS,
                                                     .m = r1 - r0,
                                                     .n = n,
                                                     .k = len,
                                                     .alpha = -1.0,
                                                     .a = {p->a, opa_at(p, r0, o), p->lda},
                                                     .b = {w, o * n, n},
                                                     .beta = a1,
                                                     .c = {p->b, p->b_off + r0 * p->ldb, p->ldb}});
        else /* B[:, rest] = a1 B[:, rest] - W_blk op(A)[blk, rest] */
            s = tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = prec,
                                                     .ta = TSL_NO_TRANS,
                                                     .tb = p->ta,
                                                     .m = m,
                                                     .n = r1 - r0,
                                                     .k = len,
                                                     .alpha = -1.0,
                                                     .a = {w, o, n},
                                                     .b = {p->a, opa_at(p, o, r0), p->lda},
                                                     .beta = a1,
                                                     .c = {p->b, p->b_off + r0, p->ldb}});
    }
    if (!p->solve) {
        /* TRMM's off-diagonal blocks: op(A)'s block column blk (left) or row blk (right) outside
         * the diagonal block, [r0, r1) of ka on the triangle's side */
        for (size_t blk = 0; s == TSL_OK && blk < nblk; ++blk) {
            size_t o = blk * nb, len = ka - o < nb ? ka - o : nb;
            int after = p->left == p->lower; /* the triangle lies after the diagonal block */
            size_t r0 = after ? o + len : 0, r1 = after ? ka : o;
            if (r0 >= r1) continue;
            if (p->left) /* W[rest, :] += alpha op(A)[rest, blk] B_blk */
                s = tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = prec,
                                                         .ta = p->ta,
                                                         .tb = TSL_NO_TRANS,
                                                         .m = r1 - r0,
                                                         .n = n,
                                                         .k = len,
                                                         .alpha = p->alpha,
                                                         .a = {p->a, opa_at(p, r0, o), p->lda},
                                                         .b = {p->b, p->b_off + o * p->ldb, p->ldb},
                                                         .beta = 1.0,
                                                         .c = {w, r0 * n, n}});
            else /* W[:, rest] += alpha B_blk op(A)[blk, rest] */
                s = tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = prec,
                                                         .ta = TSL_NO_TRANS,
                                                         .tb = p->ta,
                                                         .m = m,
                                                         .n = r1 - r0,
                                                         .k = len,
                                                         .alpha = p->alpha,
                                                         .a = {p->b, p->b_off + o, p->ldb},
                                                         .b = {p->a, opa_at(p, o, r0), p->lda},
                                                         .beta = 1.0,
                                                         .c = {w, r0, n}});
        }
    }
    if (s == TSL_OK) s = tsl__l3_copy(ctx, p->dbl, m, n, w, 0, n, p->b, p->b_off, p->ldb);
    return s;
}

/* TRMM in one tiled2d launch (TSL__TRI_A_* on the left, _B_ on the right): op(A) packed with
 * zeros in its other triangle (1 on a unit diagonal), each tile running only the k the triangle
 * reaches, into W; W is then copied into B. 0: done; 1: the context's gemm variant cannot. */
static int trmm_tri(tsl_context *ctx, const trxm_problem *p, tsl_status *s)
{
    size_t es = p->dbl ? sizeof(double) : sizeof(float), m = p->m, n = p->n;
    tsl__gemm_ext ext = {.unit = p->unit};
    if (p->left)
        ext.tri = p->lower ? TSL__TRI_A_LOWER : TSL__TRI_A_UPPER;
    else
        ext.tri = p->lower ? TSL__TRI_B_LOWER : TSL__TRI_B_UPPER;
    /* W = alpha op(A) B (left) or alpha B op(A) (right); W is taken once the mode runs */
    tsl__matrix a = {p->a, p->a_off, p->lda}, b = {p->b, p->b_off, p->ldb};
    tsl__gemm_call g = {.prec = p->prec,
                        .ta = p->left ? p->ta : TSL_NO_TRANS,
                        .tb = p->left ? TSL_NO_TRANS : p->ta,
                        .m = m,
                        .n = n,
                        .k = p->left ? m : n,
                        .alpha = p->alpha,
                        .a = p->left ? a : b,
                        .b = p->left ? b : a,
                        .beta = 0.0,
                        .c = {NULL, 0, n}};
    if (!tsl__gemm_ext_ok(ctx, &g, &ext)) return 1;
    *s = tsl__workspace(ctx, TSL__WS_W, m * n * es, &g.c.buffer);
    if (*s != TSL_OK) return 0;
    *s = tsl__gemm_mem_ext(ctx, &g, &ext);
    if (*s == TSL_OK)
        *s = tsl__l3_copy(ctx, p->dbl, m, n, g.c.buffer, 0, n, p->b, p->b_off, p->ldb);
    return 0;
}

/* The substitution's updates of TRSM's inverse variants on Y (in B, in place): the blocks
 * [r0, r1) of ka, in the order of the substitution; F is op(A) with its off-diagonal blocks
 * multiplied by the inverted diagonal ones (ka x ka, rows ka apart, at f_off). Left and forward:
 * Y[rest] -= F[rest, I] Y[I] for each block I (right-looking, rec = 0), or Y[second half] -=
 * F[second, first] Y[first] between the halves' own solves (rec = 1); the other cases mirror it.
 * A GEMM reads the solved part of B and writes the unsolved one: disjoint. */
static tsl_status trsm_update(tsl_context *ctx, const trxm_problem *p, cl_mem f, size_t f_off,
                              size_t ka, size_t s0, size_t s1, size_t u0, size_t u1)
{
    if (p->left) /* B[u] -= F[u, s] B[s] */
        return tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = p->prec,
                                                    .ta = TSL_NO_TRANS,
                                                    .tb = TSL_NO_TRANS,
                                                    .m = u1 - u0,
                                                    .n = p->n,
                                                    .k = s1 - s0,
                                                    .alpha = -1.0,
                                                    .a = {f, f_off + u0 * ka + s0, ka},
                                                    .b = {p->b, p->b_off + s0 * p->ldb, p->ldb},
                                                    .beta = 1.0,
                                                    .c = {p->b, p->b_off + u0 * p->ldb, p->ldb}});
    /* B[:, u] -= B[:, s] F[s, u] */
    return tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = p->prec,
                                                .ta = TSL_NO_TRANS,
                                                .tb = TSL_NO_TRANS,
                                                .m = p->m,
                                                .n = u1 - u0,
                                                .k = s1 - s0,
                                                .alpha = -1.0,
                                                .a = {p->b, p->b_off + s0, p->ldb},
                                                .b = {f, f_off + s0 * ka + u0, ka},
                                                .beta = 1.0,
                                                .c = {p->b, p->b_off + u0, p->ldb}});
}

static tsl_status trsm_updates(tsl_context *ctx, const trxm_problem *p, cl_mem f, size_t f_off,
                               size_t ka, size_t r0, size_t r1, int rec)
{
    size_t nb = p->nb, nblk = (r1 - r0 + nb - 1) / nb;
    int forward = p->left == p->lower;
    tsl_status s = TSL_OK;
    if (!rec) { /* right-looking: block by block, each updating all the blocks after it */
        for (size_t step = 0; s == TSL_OK && step + 1 < nblk; ++step) {
            size_t blk = forward ? step : nblk - 1 - step;
            size_t o = r0 + blk * nb, len = r1 - o < nb ? r1 - o : nb;
            s = forward ? trsm_update(ctx, p, f, f_off, ka, o, o + len, o + len, r1)
                        : trsm_update(ctx, p, f, f_off, ka, o, o + len, r0, o);
        }
        return s;
    }
    if (nblk < 2) return TSL_OK;
    size_t mid = r0 + nblk / 2 * nb;
    /* the half solved first, [s0, s1), and the half it updates, [u0, u1) */
    size_t s0 = forward ? r0 : mid, s1 = forward ? mid : r1;
    size_t u0 = forward ? mid : r0, u1 = forward ? r1 : mid;
    if ((s = trsm_updates(ctx, p, f, f_off, ka, s0, s1, rec)) != TSL_OK) return s;
    if ((s = trsm_update(ctx, p, f, f_off, ka, s0, s1, u0, u1)) != TSL_OK) return s;
    return trsm_updates(ctx, p, f, f_off, ka, u0, u1, rec);
}

/* F = op(A) D^-1 by block columns (left), D^-1 op(A) by block rows (right), D at 0 and op(A)
 * dense at f0 in ws, F at f1, each ka x ka: only the part the substitution reads (trsm_update:
 * F[u, s] with the blocks u after s in its order), which is half of it. Block column (row) z of
 * F is read in the rows (columns) from (z + 1) nb on where the substitution runs forward, before
 * z nb where it runs backward; the ragged last block is first backward and last forward. One
 * batched launch whose tiles outside that part do nothing (STAIR), else one GEMM per block. */
static tsl_status trsm_f(tsl_context *ctx, const trxm_problem *p, cl_mem ws, size_t f0, size_t f1,
                         size_t ka)
{
    size_t nb = p->nb, nfull = ka / nb, last = ka - nfull * nb;
    int prec = p->prec, forward = p->left == p->lower;
    /* left: C_z = A_z D_z, ka x nb x nb, A_z and C_z nb columns apart; right: C_z = D_z A_z,
     * nb x ka x nb, A_z and C_z nb rows apart */
    size_t m = p->left ? ka : nb, n = p->left ? nb : ka, step = p->left ? nb : nb * ka;
    tsl__gemm_ext ext = {.batch = nfull,
                         .a_stride = p->left ? nb : nb * nb,
                         .b_stride = p->left ? nb * nb : nb * ka,
                         .c_stride = step,
                         .stair = p->left
                                      ? (forward ? TSL__STAIR_ROWS_AFTER : TSL__STAIR_ROWS_BEFORE)
                                      : (forward ? TSL__STAIR_COLS_AFTER : TSL__STAIR_COLS_BEFORE),
                         .stair_step = nb};
    tsl__gemm_call g = {.prec = prec,
                        .ta = TSL_NO_TRANS,
                        .tb = TSL_NO_TRANS,
                        .m = m,
                        .n = n,
                        .k = nb,
                        .alpha = 1.0,
                        .a = {ws, p->left ? f0 : 0, p->left ? ka : nb},
                        .b = {ws, p->left ? 0 : f0, p->left ? nb : ka},
                        .beta = 0.0,
                        .c = {ws, f1, ka}};
    tsl_status s = TSL_OK;
    size_t z = 0;
    if (nfull > 1 && tsl__gemm_ext_ok(ctx, &g, &ext)) {
        s = tsl__gemm_mem_ext(ctx, &g, &ext);
        z = nfull; /* the ragged block is left */
    }
    for (; s == TSL_OK && z < nfull + (last != 0); ++z) {
        size_t w = z < nfull ? nb : last; /* this block's size */
        size_t lo = forward ? z * nb + w : 0, hi = forward ? ka : z * nb; /* the part read */
        if (lo >= hi) continue;
        if (p->left) /* rows [lo, hi) of block column z */
            s = tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = prec,
                                                     .ta = TSL_NO_TRANS,
                                                     .tb = TSL_NO_TRANS,
                                                     .m = hi - lo,
                                                     .n = w,
                                                     .k = w,
                                                     .alpha = 1.0,
                                                     .a = {ws, f0 + lo * ka + z * nb, ka},
                                                     .b = {ws, z * nb * nb, nb},
                                                     .beta = 0.0,
                                                     .c = {ws, f1 + lo * ka + z * nb, ka}});
        else /* columns [lo, hi) of block row z */
            s = tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = prec,
                                                     .ta = TSL_NO_TRANS,
                                                     .tb = TSL_NO_TRANS,
                                                     .m = w,
                                                     .n = hi - lo,
                                                     .k = w,
                                                     .alpha = 1.0,
                                                     .a = {ws, z * nb * nb, nb},
                                                     .b = {ws, f0 + z * nb * ka + lo, ka},
                                                     .beta = 0.0,
                                                     .c = {ws, f1 + z * nb * ka + lo, ka}});
    }
    return s;
}

/* TRSM, inverse variants. With D_I the inverted diagonal blocks of op(A) and X the solution:
 * left, Y_I = D_I^-1 X_I solves Y_I + sum_J F_IJ Y_J = B_I over the blocks J before I in the
 * substitution, F_IJ = op(A)_IJ D_J^-1, and X_I = alpha D_I^-1 Y_I (right: Y_J = X_J D_J,
 * F_IJ = D_I^-1 op(A)_IJ, X_J = alpha Y_J D_J^-1). So: invert the diagonal blocks (l3_tri_inv),
 * write op(A)'s off-diagonal blocks densely (l3_tri_full), F by one batched GEMM over the block
 * columns (rows), the updates in place on B (trsm_updates), X by one batched GEMM over the
 * diagonal blocks into W, W into B. The batched GEMMs have k = nb; no leaf GEMM of nb rows runs
 * between the updates. TSL__WS_BLOCKS holds [D | T | op(A) dense | F], TSL__WS_W is W. */
static tsl_status trsm_inverse(tsl_context *ctx, const trxm_problem *p, int rec)
{
    size_t es = p->dbl ? sizeof(double) : sizeof(float), nb = p->nb, m = p->m, n = p->n;
    size_t ka = p->left ? m : n, nblk = (ka + nb - 1) / nb, nfull = ka / nb;
    size_t last = ka - nfull * nb; /* the ragged last block's size, 0 if none */
    size_t dsz = nblk * nb * nb, tsz = nblk * (nb / 2) * (nb / 2), fsz = ka * ka;
    int prec = p->prec;
    if (tsl__mul_overflows(ka, ka) || dsz + 2 * fsz < fsz ||
        (dsz + tsz + 2 * fsz) > SIZE_MAX / es)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "trsm: workspace size overflows");
    cl_mem ws, w;
    tsl_status s = tsl__workspace(ctx, TSL__WS_BLOCKS, (dsz + tsz + 2 * fsz) * es, &ws);
    if (s == TSL_OK) s = tsl__workspace(ctx, TSL__WS_W, m * n * es, &w);
    if (s == TSL_OK) s = tsl__l3_tri_inverses(ctx, p, p, ka, ws, 0, dsz, NULL, NULL);
    if (s != TSL_OK) return s;
    size_t f0 = dsz + tsz, f1 = f0 + fsz; /* op(A) dense, and F (after D and tri_inverses' T) */
    if (nblk > 1) {
        if ((s = tsl__l3_tri_full(ctx, p, ka, nb, ws, f0)) != TSL_OK) return s;
        s = trsm_f(ctx, p, ws, f0, f1, ka);
        if (s == TSL_OK) s = trsm_updates(ctx, p, ws, f1, ka, 0, ka, rec);
        if (s != TSL_OK) return s;
    }
    /* X = alpha D^-1 Y block by block, into W */
    if (p->left) {
        s = tsl__l3_batched_gemm(ctx,
                                 &(l3_batch){.prec = prec,
                                             .tri = p->lower ? TSL__TRI_A_LOWER : TSL__TRI_A_UPPER,
                                             .ta = TSL_NO_TRANS,
                                             .count = nfull,
                                             .m = nb,
                                             .n = n,
                                             .k = nb,
                                             .alpha = p->alpha,
                                             .a = {ws, 0, nb},
                                             .a_stride = nb * nb,
                                             .b = {p->b, p->b_off, p->ldb},
                                             .b_stride = nb * p->ldb,
                                             .beta = 0.0,
                                             .c = {w, 0, n},
                                             .c_stride = nb * n});
        if (s == TSL_OK && last)
            s = tsl__gemm_mem(ctx,
                              &(tsl__gemm_call){.prec = prec,
                                                .ta = TSL_NO_TRANS,
                                                .tb = TSL_NO_TRANS,
                                                .m = last,
                                                .n = n,
                                                .k = last,
                                                .alpha = p->alpha,
                                                .a = {ws, nfull * nb * nb, nb},
                                                .b = {p->b, p->b_off + nfull * nb * p->ldb, p->ldb},
                                                .beta = 0.0,
                                                .c = {w, nfull * nb * n, n}});
    } else {
        s = tsl__l3_batched_gemm(ctx,
                                 &(l3_batch){.prec = prec,
                                             .tri = p->lower ? TSL__TRI_B_LOWER : TSL__TRI_B_UPPER,
                                             .ta = TSL_NO_TRANS,
                                             .count = nfull,
                                             .m = m,
                                             .n = nb,
                                             .k = nb,
                                             .alpha = p->alpha,
                                             .a = {p->b, p->b_off, p->ldb},
                                             .a_stride = nb,
                                             .b = {ws, 0, nb},
                                             .b_stride = nb * nb,
                                             .beta = 0.0,
                                             .c = {w, 0, n},
                                             .c_stride = nb});
        if (s == TSL_OK && last)
            s = tsl__gemm_mem(ctx, &(tsl__gemm_call){.prec = prec,
                                                     .ta = TSL_NO_TRANS,
                                                     .tb = TSL_NO_TRANS,
                                                     .m = m,
                                                     .n = last,
                                                     .k = last,
                                                     .alpha = p->alpha,
                                                     .a = {p->b, p->b_off + nfull * nb, p->ldb},
                                                     .b = {ws, nfull * nb * nb, nb},
                                                     .beta = 0.0,
                                                     .c = {w, nfull * nb, n}});
    }
    if (s == TSL_OK) s = tsl__l3_copy(ctx, p->dbl, m, n, w, 0, n, p->b, p->b_off, p->ldb);
    return s;
}

static tsl_status trxm_run(tsl_context *ctx, const trxm_problem *p)
{
    if (p->alpha == 0.0) /* B = 0, A and B not read (BLAS) */
        return tsl__l3_scale(ctx, p->dbl, p->m, p->n, 0, 0.0, p->b, p->b_off, p->ldb);
    l3_kind kind = p->kind;
    tsl_status s = TSL_OK;
    if (!p->solve && kind == L3_TRI && trmm_tri(ctx, p, &s) == 0) return s;
    if (p->solve && (kind == L3_INVERSE || kind == L3_INVERSE_REC))
        return trsm_inverse(ctx, p, kind == L3_INVERSE_REC);
    if (p->solve && kind == L3_INVERSE_LEAF) return tsl__l3_trsm_leaf(ctx, p);
    return trxm_blocked(ctx, p);
}

static tsl_status trxm_check_args(tsl_context *ctx, const char *fn, const trxm_args *g)
{
    tsl_status s;
    if ((s = tsl__l3_check_layout(ctx, fn, g->layout)) ||
        (s = tsl__l3_check_side(ctx, fn, g->side)) || (s = tsl__l3_check_uplo(ctx, fn, g->uplo)) ||
        (s = tsl__check_trans(ctx, fn, "transa", g->trans)) ||
        (s = tsl__l3_check_diag(ctx, fn, g->diag)) ||
        (s = tsl__l3_check_size(ctx, fn, "m", g->m)) ||
        (s = tsl__l3_check_size(ctx, fn, "n", g->n)))
        return s;
    size_t ka = g->side == TSL_LEFT ? g->m : g->n;
    if ((s = tsl__l3_check_ld(ctx, fn, "lda", g->lda, ka, "A")) != TSL_OK) return s;
    return tsl__l3_check_ld(ctx, fn, "ldb", g->ldb, g->layout == TSL_ROW_MAJOR ? g->n : g->m, "B");
}

static trxm_problem trxm_view(tsl_context *ctx, int prec, int solve, const trxm_args *g,
                              const double *alpha)
{
    int col = g->layout == TSL_COL_MAJOR;
    int left = (g->side == TSL_LEFT) != col;
    int upper_stored = (g->uplo == TSL_UPPER) != col; /* in the row-major view */
    trxm_problem p = {.dbl = prec == TSL_DOUBLE,
                      .prec = prec,
                      .left = left,
                      .lower = upper_stored == (g->trans != TSL_NO_TRANS),
                      .unit = g->diag == TSL_UNIT,
                      .solve = solve,
                      .ta = g->trans,
                      .m = col ? g->n : g->m,
                      .n = col ? g->m : g->n,
                      .nb = tsl__l3_block(ctx, "trmm"),
                      .alpha = alpha[0],
                      .alpha_i = alpha[1],
                      .cplx = g->cplx,
                      .lda = g->lda,
                      .ldb = g->ldb};
    size_t ka = p.left ? p.m : p.n;
    p.kind = tsl__l3_variant_kind(ctx, solve ? "trsm" : "trmm");
    if (solve) p.nb = tsl__l3_trsm_block(ctx, p.dbl, ka, p.kind);
    return p;
}

static tsl_status trxm_dispatch(tsl_context *ctx, const trxm_problem *p)
{
    return p->cplx ? tsl__zl3_trxm_run(ctx, p) : trxm_run(ctx, p);
}

tsl_status tsl__l3_trxm_host(tsl_context *ctx, const char *fn, int prec, int solve,
                             const trxm_args *g, const double *alpha, const void *a, void *b)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = trxm_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    if (g->m == 0 || g->n == 0) return TSL_OK;
    if (!b) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: B is NULL", fn);
    int use_a = tsl__l3_nonzero(alpha);
    if (use_a && !a) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: A is NULL", fn);
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    trxm_problem p = trxm_view(ctx, prec, solve, g, alpha);
    size_t es = tsl__l3_elem(prec == TSL_DOUBLE, g->cplx);
    size_t ka = p.left ? p.m : p.n;
    if (tsl__mul_overflows(ka, ka) || tsl__mul_overflows(ka * ka, es) ||
        tsl__mul_overflows(p.m, p.n) || tsl__mul_overflows(p.m * p.n, es))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: matrix byte counts overflow", fn);
    if (use_a) {
        int upper_stored = (g->uplo == TSL_UPPER) != (g->layout == TSL_COL_MAJOR);
        if ((s = tsl__l3_upload_matrix(ctx, TSL__WS_A, es, a, ka, ka, g->lda, upper_stored ? 2 : 1,
                                       p.unit, &p.a)) != TSL_OK)
            return s;
        p.lda = ka;
        if ((s = tsl__l3_upload_matrix(ctx, TSL__WS_B, es, b, p.m, p.n, g->ldb, 0, 0, &p.b)) !=
            TSL_OK)
            return s;
    } else {
        if ((s = tsl__workspace(ctx, TSL__WS_B, p.m * p.n * es, &p.b)) != TSL_OK) return s;
        p.a = p.b;
    }
    p.ldb = p.n;
    s = trxm_dispatch(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__download_rect(ctx, p.b, b, p.m, p.n * es, g->ldb * es)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

tsl_status tsl__l3_trxm_buf(tsl_context *ctx, const char *fn, int prec, int solve,
                            const trxm_args *g, const double *alpha, const tsl_buffer *a,
                            tsl_buffer *b)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = trxm_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    if (g->m == 0 || g->n == 0) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    trxm_problem p = trxm_view(ctx, prec, solve, g, alpha);
    size_t es = tsl__l3_elem(prec == TSL_DOUBLE, g->cplx);
    size_t ka = p.left ? p.m : p.n;
    if ((s = tsl__check_matrix_buffer(ctx, fn, "B", b, p.m, p.n, p.ldb, es)) != TSL_OK) return s;
    int use_a = tsl__l3_nonzero(alpha);
    if (use_a && (s = tsl__check_matrix_buffer(ctx, fn, "A", a, ka, ka, p.lda, es)) != TSL_OK)
        return s;
    p.b = b->mem;
    p.a = use_a ? a->mem : b->mem;
    s = trxm_dispatch(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

tsl_status tsl__trxm_mem(tsl_context *ctx, const tsl__trxm_call *t)
{
    if (t->m == 0 || t->n == 0) return TSL_OK;
    trxm_args g = {t->layout, t->side, t->uplo, t->trans, t->diag, t->m, t->n, t->a.ld, t->b.ld,
                   L3_REAL};
    trxm_problem p = trxm_view(ctx, t->prec, t->solve, &g, (double[2]){t->alpha, 0.0});
    p.a = t->a.buffer;
    p.a_off = t->a.offset;
    p.b = t->b.buffer;
    p.b_off = t->b.offset;
    return trxm_run(ctx, &p);
}

/* ---- the public entry points ----------------------------------------------------------------- */

#define TRXM_ARGS {layout, side, uplo, tsl__real_trans(transa), diag, m, n, lda, ldb, L3_REAL}
tsl_status tsl_strmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, float alpha,
                     const float *a, size_t lda, float *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return tsl__l3_trxm_host(ctx, "tsl_strmm", TSL_SINGLE, 0, &g, (double[2]){alpha, 0.0}, a, b);
}
tsl_status tsl_dtrmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, double alpha,
                     const double *a, size_t lda, double *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return tsl__l3_trxm_host(ctx, "tsl_dtrmm", TSL_DOUBLE, 0, &g, (double[2]){alpha, 0.0}, a, b);
}
tsl_status tsl_strsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, float alpha,
                     const float *a, size_t lda, float *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return tsl__l3_trxm_host(ctx, "tsl_strsm", TSL_SINGLE, 1, &g, (double[2]){alpha, 0.0}, a, b);
}
tsl_status tsl_dtrsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, double alpha,
                     const double *a, size_t lda, double *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return tsl__l3_trxm_host(ctx, "tsl_dtrsm", TSL_DOUBLE, 1, &g, (double[2]){alpha, 0.0}, a, b);
}
tsl_status tsl_strmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, float alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return tsl__l3_trxm_buf(ctx, "tsl_strmm_buf", TSL_SINGLE, 0, &g, (double[2]){alpha, 0.0}, a, b);
}
tsl_status tsl_dtrmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, double alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return tsl__l3_trxm_buf(ctx, "tsl_dtrmm_buf", TSL_DOUBLE, 0, &g, (double[2]){alpha, 0.0}, a, b);
}
tsl_status tsl_strsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, float alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return tsl__l3_trxm_buf(ctx, "tsl_strsm_buf", TSL_SINGLE, 1, &g, (double[2]){alpha, 0.0}, a, b);
}
tsl_status tsl_dtrsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, double alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return tsl__l3_trxm_buf(ctx, "tsl_dtrsm_buf", TSL_DOUBLE, 1, &g, (double[2]){alpha, 0.0}, a, b);
}
#undef TRXM_ARGS
