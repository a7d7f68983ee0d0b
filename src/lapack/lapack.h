/* lapack.h: what the LAPACK factorizations share (docs/lapack.md): a matrix in device memory in
 * either layout, the GEMM, TRSM and SYRK steps on its blocks, the small kernels of lapack.cl and
 * the recursive algorithms (lapack_lu.c: getrf, getrs; lapack_chol.c: potrf, potrs; lapack_qr.c:
 * geqrf, ormqr), which
 * lapack_api.c checks, stages and calls. */
#ifndef TSL_LAPACK_H
#define TSL_LAPACK_H

#include "ops/ops.h"

/* A matrix in device memory as LAPACK addresses it: element (i, j) at off + i + j ld
 * (column-major) or off + i ld + j (row-major, as LAPACKE defines it). */
typedef struct {
    int prec; /* TSL_SINGLE or TSL_DOUBLE */
    tsl_layout layout;
    cl_mem mem;
    size_t off, ld;
} lp_mat;

/* Element (i, j) of a's block at (i, j) as an operand of the BLAS steps. */
static inline tsl__matrix lp_sub(const lp_mat *a, size_t i, size_t j)
{
    size_t at = a->layout == TSL_COL_MAJOR ? i + j * a->ld : i * a->ld + j;
    return (tsl__matrix){a->mem, a->off + at, a->ld};
}

/* The strides of a's elements for lapack.cl's kernels: rows rs apart, columns cs apart. */
static inline void lp_strides(const lp_mat *a, cl_long *rs, cl_long *cs)
{
    *rs = a->layout == TSL_COL_MAJOR ? 1 : (cl_long)a->ld;
    *cs = a->layout == TSL_COL_MAJOR ? (cl_long)a->ld : 1;
}

/* The pivots and INFO of a call: an int buffer holding LAPACK's pivots (1-based rows of the
 * whole matrix) from element 0 and INFO at element info_at (0 until a leaf sets it). */
typedef struct {
    cl_mem mem;
    size_t info_at;
} lp_piv;

/* C = alpha op(A) op(B) + beta C on blocks of matrices in layout (C m x n). */
tsl_status tsl__lp_gemm(tsl_context *ctx, int prec, tsl_layout layout, tsl_trans ta,
                        tsl_trans tb, size_t m, size_t n, size_t k, double alpha, tsl__matrix a,
                        tsl__matrix b, double beta, tsl__matrix c);
/* B = alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right), A triangular, blocks in layout. */
tsl_status tsl__lp_trsm(tsl_context *ctx, int prec, tsl_layout layout, tsl_side side,
                        tsl_uplo uplo, tsl_trans trans, tsl_diag diag, size_t m, size_t n,
                        double alpha, tsl__matrix a, tsl__matrix b);
/* Rows k1 .. k2 - 1 of the ncols columns of a's block at column c0 exchanged with the rows the
 * pivots name (back: in reverse order), LAPACK's dlaswp. */
tsl_status tsl__lp_swap(tsl_context *ctx, const lp_mat *a, size_t c0, size_t ncols,
                        const lp_piv *piv, size_t k1, size_t k2, int back);

/* LU with partial pivoting of the m x n matrix a (dgetrf): pivots and INFO into piv. */
tsl_status tsl__lp_getrf(tsl_context *ctx, const lp_mat *a, size_t m, size_t n,
                         const lp_piv *piv);
/* op(A) X = B for the n x nrhs matrix b from getrf's factors in a and its pivots (dgetrs). */
tsl_status tsl__lp_getrs(tsl_context *ctx, const lp_mat *a, tsl_trans trans, size_t n,
                         size_t nrhs, const lp_piv *piv, const lp_mat *b);
/* Cholesky factorization of the n x n matrix a's uplo triangle (dpotrf): INFO into piv. */
tsl_status tsl__lp_potrf(tsl_context *ctx, const lp_mat *a, tsl_uplo uplo, size_t n,
                         const lp_piv *piv);
/* A X = B from potrf's factor (dpotrs). */
tsl_status tsl__lp_potrs(tsl_context *ctx, const lp_mat *a, tsl_uplo uplo, size_t n, size_t nrhs,
                         const lp_mat *b);

/* Householder QR of the m x n matrix a (dgeqrf): R and the reflectors in a, tau (min(m, n)
 * elements of the precision) in tau. Needs tsl__lp_qr_reserve's workspaces. */
tsl_status tsl__lp_geqrf(tsl_context *ctx, const lp_mat *a, size_t m, size_t n, cl_mem tau);
/* op(Q) C or C op(Q) for the m x n matrix c, Q = H(0) ... H(k-1) from geqrf's reflectors in a
 * (dormqr; c's layout may differ from a's). */
tsl_status tsl__lp_ormqr(tsl_context *ctx, const lp_mat *a, tsl_side side, tsl_trans trans,
                         size_t m, size_t n, size_t k, cl_mem tau, const lp_mat *c);
/* The block reflector of the kb reflectors of a at (r0, c0) (mv rows; tau from element c0)
 * applied from side to the block of c at (ci, cj): mv x nc (left) or nc x mv (right) (dlarfb). */
tsl_status tsl__lp_larfb(tsl_context *ctx, const lp_mat *a, size_t r0, size_t c0, size_t mv,
                         size_t kb, cl_mem tau, tsl_side side, tsl_trans trans, const lp_mat *c,
                         size_t ci, size_t cj, size_t nc);
/* The workspaces of QR steps on matrices of at most `rows` rows and products `cols` wide, taken
 * at their largest once so that no step reallocates them. */
tsl_status tsl__lp_qr_reserve(tsl_context *ctx, int prec, size_t rows, size_t cols);
/* A launch over the rows x cols elements of a kernel of lapack.cl taking (m, n, A, off, rs, cs,
 * extra...) for the block of a at (i, j) (at most 6 extra arguments). */
tsl_status tsl__lp_elementwise(tsl_context *ctx, const lp_mat *a, const char *name,
                               const char *what, size_t i, size_t j, size_t rows, size_t cols,
                               const tsl__arg *extra, int nextra);
/* The rows x cols block of a at (i, j) set to zero. */
tsl_status tsl__lp_zero(tsl_context *ctx, const lp_mat *a, size_t i, size_t j, size_t rows,
                        size_t cols);
/* The int at flag's info_at set to 1 where a's upper trapezoid (rows x cols) has a nonzero. */
tsl_status tsl__lp_trap_nonzero(tsl_context *ctx, const lp_mat *a, size_t rows, size_t cols,
                                const lp_piv *flag);
/* INFO (piv's) = the first exactly zero diagonal element of a's n x n block, 1-based (dtrtrs). */
tsl_status tsl__lp_diag_info(tsl_context *ctx, const lp_mat *a, size_t n, const lp_piv *piv);

/* The kernel `name` of lapack.cl for the precision. */
tsl_status tsl__lp_kernel(tsl_context *ctx, int prec, const char *name, cl_kernel *k);
/* The leaves' width (columns a leaf kernel factors) and work-group size. */
enum { LP_LEAF = 32, LP_LEAF_WG = 256 };
/* LU's panel width: the k of its trailing updates' GEMM, and the interchanges one lu_swap
 * applies. */
enum { LP_LU_NB = 256 };
/* QR's panel width: the k of its trailing updates' GEMMs. */
enum { LP_QR_NB = 128 };

#endif
