/* level3_tri.h: what level3_tri.c (TRMM and TRSM), level3_inv.c (TRSM's inverses) and
 * level3_leaf.c (TRSM's inverse_leaf) share: the row-major view of a call, the inverses and dense
 * triangle the TRSM variants build, and batched GEMMs. */
#ifndef TSL_OPS_LEVEL3_TRI_H
#define TSL_OPS_LEVEL3_TRI_H

#include "level3/level3.h"

/* Row-major B (m x n) = alpha op(A) B (left) or alpha B op(A) (right), TRSM: the solution X of
 * op(A) X = alpha B or X op(A) = alpha B, into B (level3_tri.c says how calls map to this). */
typedef struct {
    int dbl, prec, left, lower, unit, solve;
    l3_kind kind; /* the algorithm: the context's variant, auto resolved (trxm_view) */
    tsl_trans ta;
    size_t m, n, nb;
    double alpha, alpha_i; /* alpha + i alpha_i */
    int cplx;              /* L3_REAL or L3_COMPLEX; ta may then be TSL_CONJ_TRANS */
    cl_mem a, b;
    size_t a_off, lda, b_off, ldb;
} trxm_problem;

/* A TRMM or TRSM call (level3_tri.c: checks, the row-major view, staging, the algorithm of the
 * element kind, timing; the complex entry points are level3_complex_api.c's). alpha: (real,
 * imaginary). */
typedef struct {
    tsl_layout layout;
    tsl_side side;
    tsl_uplo uplo;
    tsl_trans trans;
    tsl_diag diag;
    size_t m, n, lda, ldb;
    int cplx;
} trxm_args;
tsl_status tsl__l3_trxm_host(tsl_context *ctx, const char *fn, int prec, int solve,
                             const trxm_args *g, const double *alpha, const void *a, void *b);
tsl_status tsl__l3_trxm_buf(tsl_context *ctx, const char *fn, int prec, int solve,
                            const trxm_args *g, const double *alpha, const tsl_buffer *a,
                            tsl_buffer *b);
/* Complex TRMM and TRSM (level3_complex_tri.c). */
tsl_status tsl__zl3_trxm_run(tsl_context *ctx, const trxm_problem *p);

/* Element offset of op(A)'s element (r0, c0): the origin of a block of op(A) that GEMM reads with
 * transpose p->ta. */
static inline size_t opa_at(const trxm_problem *p, size_t r0, size_t c0)
{
    return p->a_off + (p->ta == TSL_NO_TRANS ? r0 * p->lda + c0 : c0 * p->lda + r0);
}

/* count GEMMs C_z = alpha op(A_z) B_z + beta C_z, X_z = X + z x_stride, in one batched launch
 * where tiled2d runs them so (level3_inv.c); tri: TSL__TRI_A_* or _B_* where that operand is one of
 * TRSM's inverted blocks (read in place), else 0. */
typedef struct {
    int prec, tri;
    tsl_trans ta; /* B is never transposed */
    size_t count, m, n, k;
    double alpha, beta;
    tsl__matrix a, b, c; /* the first problem's */
    size_t a_stride, b_stride, c_stride;
} l3_batch;
tsl_status tsl__l3_batched_gemm(tsl_context *ctx, const l3_batch *bt);
/* TRSM's inverted diagonal blocks of nb into d (level3_inv.c): ldd 0, block i at i nb nb, rows nb
 * apart; ldd > 0, on the diagonal of a ka x ldd matrix; zeros in each block's other triangle; the
 * doubling's scratch at d + t_off (tsl__l3_tri_inv_scratch elements). pa: the op(A) the
 * doubling's GEMMs read. beside (or NULL): a copy to run on a side queue beside the doubling's
 * last level of launches (which leave the device mostly idle), or after the first launch where
 * the host launches no level; joined before the function returns. */
typedef struct {
    size_t rows, cols;
    cl_mem src, dst;
    size_t s_off, lds, d_off, ldd;
} l3_copy_job;
tsl_status tsl__l3_tri_inverses(tsl_context *ctx, const trxm_problem *p, const trxm_problem *pa,
                                size_t ka, cl_mem d, size_t ldd, size_t t_off,
                                const l3_copy_job *beside, size_t *tail);
/* tail (or NULL), the diagonal layout only: the levels that build the ragged last block of nb
 * (ka % nb != 0) from what l3_tri_inv_fused built are not launched, and *tail is the first of
 * them (0: none deferred); tsl__l3_tri_inv_tail launches them, after tsl__l3_tri_inverses returns
 * (their other inputs are ready by then), for a solve that reads that block last. */
tsl_status tsl__l3_tri_inv_tail(tsl_context *ctx, const trxm_problem *pa, size_t ka, cl_mem d,
                                size_t ldd, size_t t_off, size_t from);
/* The elements of the doubling's scratch T for blocks of nb over ka (level3_inv.c): a pair's
 * product at a time (launch by launch), or every level's at once (l3_tri_inv_fused). */
size_t tsl__l3_tri_inv_scratch(size_t ka, size_t nb);
/* op(A) (ka x ka) outside its diagonal blocks of nb, zeros elsewhere, into ws at f_off (rows ka
 * apart; level3_inv.c); nb = 1: op(A)'s strict triangle. */
tsl_status tsl__l3_tri_full(tsl_context *ctx, const trxm_problem *p, size_t ka, size_t nb, cl_mem ws,
                            size_t f_off);
/* TRSM, variant inverse_leaf (level3_leaf.c). */
tsl_status tsl__l3_trsm_leaf(tsl_context *ctx, const trxm_problem *p);

#endif
