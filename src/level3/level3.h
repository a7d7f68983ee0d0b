/* level3.h: what the Level-3 routines share: level3.c (the variant tables and options, the small
 * kernels of level3.cl, the argument checks and the host staging), level3_sym.c (SYMM, SYRK,
 * SYR2K), level3_tri.c, level3_inv.c and level3_leaf.c (TRMM, TRSM) and strided batched GEMM
 * (gemm_batched.c): the small kernels, the block size, and the argument checks' wording. */
#ifndef TSL_OPS_LEVEL3_H
#define TSL_OPS_LEVEL3_H

#include "ops/ops.h"

/* The kernel `name` of level3.cl, built for the precision with extra -D options. */
tsl_status tsl__l3_kernel(tsl_context *ctx, int dbl, const char *name, const char *extra,
                          cl_kernel *k);
/* X = beta X over a rows x cols block at element off (rows ld apart): mode 0 all of it, 1 its
 * lower triangle, 2 its upper; beta == 0 writes zeros without reading X. */
tsl_status tsl__l3_scale(tsl_context *ctx, int dbl, size_t rows, size_t cols, int mode,
                         double beta, cl_mem x, size_t off, size_t ld);
/* The block size of a blocked routine ("trsm", ...): its "block" option, else the device
 * type's default. */
size_t tsl__l3_block(const tsl_context *ctx, const char *op);
/* TSL_ERR_INVALID_ARG naming the argument: a size above 2^31-1; a leading dimension below
 * max(1, need) (what: the matrix that needs it). */
tsl_status tsl__l3_check_size(tsl_context *ctx, const char *fn, const char *name, size_t v);
tsl_status tsl__l3_check_ld(tsl_context *ctx, const char *fn, const char *name, size_t ld,
                            size_t need, const char *what);

/* ---- shared by level3.c, level3_sym.c and level3_tri.c ------------------------------------- */

/* The algorithms (docs/level3.md): L3_TRI, one launch of tiled2d in a triangle mode (SYRK/SYR2K:
 * C's triangle; TRMM: the triangular operand), where the context's gemm variant is tiled2d, else
 * the general algorithm of the routine; L3_RECURSIVE, SYRK/SYR2K's recursive halves with
 * diagonal blocks through a workspace; L3_BLOCKED, TRMM/TRSM's diagonal blocks by GEMM with the
 * blocks made dense or inverted; L3_INVERSE(_REC), TRSM with the off-diagonal part of op(A)
 * multiplied by the inverted diagonal blocks first (one batched GEMM), so the substitution's
 * updates are GEMMs in place on B and the diagonal blocks one batched GEMM at the end, the
 * updates right-looking (k = block) or in recursive halves (large k); L3_INVERSE_LEAF, TRSM in
 * recursive halves down to large blocks, each solved by its inverse in one triangle-mode launch. */
typedef enum {
    L3_TRI,
    L3_RECURSIVE,
    L3_BLOCKED,
    L3_INVERSE,
    L3_INVERSE_REC,
    L3_INVERSE_LEAF,
    L3_EXPAND
} l3_kind;
/* The kind of algorithm the context's variant of op names (checked when it was set). */
l3_kind tsl__l3_variant_kind(tsl_context *ctx, const char *op);
/* TRSM's tuning (level3.c: the database's trsm entry for the device and precision dbl, over
 * built-in values; the options "block" and "streams" override it): the block size for a triangle
 * of ka in algorithm kind; the parts of a B whose other dimension is `other` (before
 * inverse_leaf's limits); 1 when a left-side part of `part` columns of such a B keeps its leaves
 * in their shape's size class. */
size_t tsl__l3_trsm_block(tsl_context *ctx, int dbl, size_t ka, l3_kind kind);
size_t tsl__l3_trsm_parts(tsl_context *ctx, int dbl, size_t other);
int tsl__l3_trsm_own(tsl_context *ctx, int dbl, size_t part, size_t other);
size_t tsl__l3_round_up(size_t x, size_t m);
/* A 2D launch over cols x rows in 16 x 16 groups (or the largest square the kernel allows). */
tsl_status tsl__l3_launch2d(tsl_context *ctx, cl_kernel k, const char *what, const tsl__arg *args,
                            int nargs, size_t cols, size_t rows);
/* The rows x cols block at s_off (rows lds apart) copied to d_off of dst (rows ldd apart). */
tsl_status tsl__l3_copy(tsl_context *ctx, int dbl, size_t rows, size_t cols, cl_mem src,
                        size_t s_off, size_t lds, cl_mem dst, size_t d_off, size_t ldd);
/* TSL_ERR_INVALID_ARG naming an enum argument that has none of its values. */
tsl_status tsl__l3_check_layout(tsl_context *ctx, const char *fn, tsl_layout l);
tsl_status tsl__l3_check_uplo(tsl_context *ctx, const char *fn, tsl_uplo u);
tsl_status tsl__l3_check_side(tsl_context *ctx, const char *fn, tsl_side sd);
tsl_status tsl__l3_check_diag(tsl_context *ctx, const char *fn, tsl_diag d);
/* Host staging: the rows x cols matrix (or its triangle) into a packed device workspace, and a
 * square result's triangle back (level3.c). */
tsl_status tsl__l3_upload_matrix(tsl_context *ctx, int slot, size_t es, const void *host,
                                 size_t rows, size_t cols, size_t ld, int tri, int skip_diag,
                                 cl_mem *out);
tsl_status tsl__l3_download_triangle(tsl_context *ctx, size_t es, cl_mem mem, void *host,
                                     size_t n, size_t ld, int tri);

/* ---- SYMM, SYRK, SYR2K: calls and row-major problems, shared by level3_sym.c (checks, views,
 * staging, the real algorithms), level3_complex.c (the complex algorithms) and
 * level3_complex_api.c (the complex entry points) ---------------------------------------------- */

/* A routine's elements: real; complex with a symmetric operand or result (csymm, csyrk, csyr2k);
 * complex Hermitian (chemm, cherk, cher2k: the other triangle the conjugated mirror, the diagonal
 * real). Each call is a row of these data, so the real and complex routines share their checks,
 * views and staging. */
enum { L3_REAL, L3_COMPLEX, L3_HERMITIAN };

/* Bytes of an element; a scalar pair (real, imaginary) that is nonzero, or 1. */
static inline size_t tsl__l3_elem(int dbl, int cplx)
{
    return (dbl ? sizeof(double) : sizeof(float)) * (cplx ? 2 : 1);
}
static inline int tsl__l3_nonzero(const double *x)
{
    return x[0] != 0.0 || x[1] != 0.0;
}
static inline int tsl__l3_is_one(const double *x)
{
    return x[0] == 1.0 && x[1] == 0.0;
}

/* Row-major C (n x n, the lower or upper triangle) = alpha op(A) op(B)^T [+ alpha op(B) op(A)^T]
 * + beta C; op(X) is n x k. Hermitian: op(B)^H, the second term's alpha conjugated. trans:
 * TSL_NO_TRANS or the routine's transpose (TSL_CONJ_TRANS for a Hermitian one, else TSL_TRANS). */
typedef struct {
    int dbl, prec, two, lower, cplx;
    tsl_trans trans;
    size_t n, k, nb;
    double alpha, beta, alpha_i, beta_i; /* alpha + i alpha_i, beta + i beta_i */
    cl_mem a, b, c;
    size_t a_off, lda, b_off, ldb, c_off, ldc;
} syrk_problem;
typedef struct {
    tsl_layout layout;
    tsl_uplo uplo;
    tsl_trans trans;
    size_t n, k, lda, ldb, ldc;
    int two, cplx;
} syrk_args;
/* Row-major C (m x n) = alpha S B + beta C (left, S m x m) or alpha B S + beta C (right), S
 * symmetric (Hermitian) with one triangle stored in A. */
typedef struct {
    int dbl, prec, left, lower, cplx;
    size_t m, n;
    double alpha, beta, alpha_i, beta_i;
    cl_mem a, b, c;
    size_t a_off, lda, b_off, ldb, c_off, ldc;
} symm_problem;
typedef struct {
    tsl_layout layout;
    tsl_side side;
    tsl_uplo uplo;
    size_t m, n, lda, ldb, ldc;
    int cplx;
} symm_args;
/* A whole call (level3_sym.c): checks, the row-major view, staging, the algorithm of the
 * element kind, timing. alpha and beta: (real, imaginary) pairs. */
tsl_status tsl__l3_syrk_host(tsl_context *ctx, const char *fn, int prec, const syrk_args *g,
                             const double *alpha, const void *a, const void *b,
                             const double *beta, void *c);
tsl_status tsl__l3_syrk_buf(tsl_context *ctx, const char *fn, int prec, const syrk_args *g,
                            const double *alpha, const tsl_buffer *a, const tsl_buffer *b,
                            const double *beta, tsl_buffer *c);
tsl_status tsl__l3_symm_host(tsl_context *ctx, const char *fn, int prec, const symm_args *g,
                             const double *alpha, const void *a, const void *b,
                             const double *beta, void *c);
tsl_status tsl__l3_symm_buf(tsl_context *ctx, const char *fn, int prec, const symm_args *g,
                            const double *alpha, const tsl_buffer *a, const tsl_buffer *b,
                            const double *beta, tsl_buffer *c);
/* The complex algorithms (level3_complex.c), on a problem of cplx L3_COMPLEX or L3_HERMITIAN. */
tsl_status tsl__zl3_syrk_run(tsl_context *ctx, const syrk_problem *p);
tsl_status tsl__zl3_symm_run(tsl_context *ctx, const symm_problem *p);

#endif
