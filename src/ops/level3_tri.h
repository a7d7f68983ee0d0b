/* level3_tri.h: what level3_tri.c (TRMM and TRSM) and level3_leaf.c (TRSM's inverse_leaf) share:
 * the row-major view of a call, and the inverses and dense triangle the TRSM variants build. */
#ifndef TSL_OPS_LEVEL3_TRI_H
#define TSL_OPS_LEVEL3_TRI_H

#include "ops/level3.h"

/* Row-major B (m x n) = alpha op(A) B (left) or alpha B op(A) (right), TRSM: the solution X of
 * op(A) X = alpha B or X op(A) = alpha B, into B (level3_tri.c says how calls map to this). */
typedef struct {
    int dbl, prec, left, lower, unit, solve;
    l3_kind kind; /* the algorithm: the variant, or what auto takes at this size (trxm_view) */
    tsl_trans ta;
    size_t m, n, nb;
    double alpha;
    cl_mem a, b;
    size_t a_off, lda, b_off, ldb;
} trxm_problem;

/* Element offset of op(A)'s element (r0, c0): the origin of a block of op(A) that GEMM reads with
 * transpose p->ta. */
static inline size_t opa_at(const trxm_problem *p, size_t r0, size_t c0)
{
    return p->a_off + (p->ta == TSL_NO_TRANS ? r0 * p->lda + c0 : c0 * p->lda + r0);
}

/* TRSM's inverted diagonal blocks of nb into d (level3_tri.c): ldd 0, block i at i nb nb, rows nb
 * apart; ldd > 0, on the diagonal of a ka x ldd matrix; zeros in each block's other triangle; the
 * doubling's scratch at d + t_off. pa: the op(A) the doubling's GEMMs read. */
tsl_status tsl__l3_tri_inverses(tsl_context *ctx, const trxm_problem *p, const trxm_problem *pa,
                                size_t ka, cl_mem d, size_t ldd, size_t t_off);
/* op(A) (ka x ka) outside its diagonal blocks of nb, zeros elsewhere, into ws at f_off (rows ka
 * apart); nb = 1: op(A)'s strict triangle. */
tsl_status tsl__l3_tri_full(tsl_context *ctx, const trxm_problem *p, size_t ka, size_t nb, cl_mem ws,
                            size_t f_off);
/* TRSM, variant inverse_leaf (level3_leaf.c). */
tsl_status tsl__l3_trsm_leaf(tsl_context *ctx, const trxm_problem *p);

#endif
