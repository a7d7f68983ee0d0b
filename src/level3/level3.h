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

#endif
