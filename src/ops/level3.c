/* level3.c: the Level-3 BLAS routines SYMM, SYRK, SYR2K, TRMM and TRSM (single and double, host
 * pointers and device buffers, CBLAS semantics), as blocked algorithms whose bulk flops run in the
 * tuned GEMM (tsl__gemm_mem: tiled2d with its pack, split k and peeled edges, on sub-blocks at
 * element offsets) and whose diagonal blocks and triangles go through the small kernels of
 * src/kernels/level3.cl. docs/level3.md explains the algorithms, their flop counts and limits.
 *
 * How problems reach the algorithms: every call is first mapped onto row-major storage. A
 * column-major matrix is the row-major matrix of its transpose on the same memory, so a column-
 * major call becomes the row-major call on the transposes: SYRK/SYR2K flip uplo and trans; SYMM,
 * TRMM and TRSM flip side and uplo and swap m and n (trans and diag stay). The algorithms then
 * see one storage order, with every side, uplo, trans and diag still possible.
 *
 * What is read and written: the triangle of C (SYRK, SYR2K) and the triangle of A (SYMM, TRMM,
 * TRSM) that the call does not reference is never read or written, on the device or, for the
 * host-pointer calls, in the caller's arrays (the stored triangle is staged through host memory
 * before the upload, and only the computed triangle is copied back). With a unit diagonal, A's
 * diagonal is not read either. beta == 0 never reads C; alpha == 0 reads neither A nor B. On an
 * error the caller's arrays are unchanged (results are copied back only after the device
 * finished).
 *
 * Workspaces (tsl__workspace slots): 0, 1, 2 the host-pointer calls' operands; 5 the product W of
 * TRMM/TRSM and SYMM's expanded matrix; 7 the diagonal blocks. GEMM uses 3, 4 and 6. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/level3.h"

/* ---- the variant tables (one per routine; the GEMM under them is the context's gemm variant) - */

/* The algorithms (docs/level3.md): L3_TRI, one launch of tiled2d in a triangle mode (SYRK/SYR2K:
 * C's triangle; TRMM: the triangular operand), where the context's gemm variant is tiled2d, else
 * the general algorithm of the routine; L3_RECURSIVE, SYRK/SYR2K's recursive halves with
 * diagonal blocks through a workspace; L3_BLOCKED, TRMM/TRSM's diagonal blocks by GEMM with the
 * blocks made dense or inverted; L3_INVERSE(_REC), TRSM with the off-diagonal part of op(A)
 * multiplied by the inverted diagonal blocks first (one batched GEMM), so the substitution's
 * updates are GEMMs in place on B and the diagonal blocks one batched GEMM at the end, the
 * updates right-looking (k = block) or in recursive halves (large k). */
typedef enum { L3_TRI, L3_RECURSIVE, L3_BLOCKED, L3_INVERSE, L3_INVERSE_REC, L3_EXPAND } l3_kind;
typedef struct {
    const char *name;
    l3_kind kind;
} l3_variant;

static const l3_variant syrk_variants[] = {{"tri", L3_TRI}, {"recursive", L3_RECURSIVE}};
static const l3_variant trmm_variants[] = {{"tri", L3_TRI}, {"blocked", L3_BLOCKED}};
static const l3_variant trsm_variants[] = {
    {"inverse", L3_INVERSE}, {"inverse_rec", L3_INVERSE_REC}, {"blocked", L3_BLOCKED}};
static const l3_variant symm_variants[] = {{"expand", L3_EXPAND}};
static const tsl__auto_row syrk_auto[] = {{NULL, "tri"}};
static const tsl__auto_row trmm_auto[] = {{NULL, "tri"}};
/* TRSM: inverse_rec on GPUs (no GEMM of nb rows between the updates, which fill a fraction of a
 * GPU, and the updates in recursive halves: fewer, larger GEMMs; H100 round 2, n = 4096: 0.52x /
 * 0.59x GEMM single / double at nb 128 against inverse's 0.36x / 0.45x, and ahead at 8192 too);
 * blocked elsewhere (PoCL, 768^3 single, a loaded 2-core machine: 54 to 74 against 35 to 37
 * GFLOP/s; the inverse variants' extra batched products cost more than the diagonal GEMMs they
 * replace on a CPU). */
static const tsl__auto_row trsm_auto[] = {{"gpu", "inverse_rec"}, {NULL, "blocked"}};
static const tsl__auto_row symm_auto[] = {{NULL, "expand"}};

static const char *syrk_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(syrk_variants), i);
}
static const char *trmm_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(trmm_variants), i);
}
static const char *trsm_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(trsm_variants), i);
}
static const char *symm_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(symm_variants), i);
}

static tsl_status check_in(tsl_context *ctx, const char *op, tsl__variant_table t,
                           const tsl__auto_row *autos, const char *variant, const char **resolved)
{
    const l3_variant *v = tsl__find_variant(ctx, op, t, autos, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return TSL_OK;
}

static tsl_status syrk_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    return check_in(ctx, "syrk", TSL__TABLE(syrk_variants), syrk_auto, variant, resolved);
}
static tsl_status syr2k_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    return check_in(ctx, "syr2k", TSL__TABLE(syrk_variants), syrk_auto, variant, resolved);
}
static tsl_status trmm_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    return check_in(ctx, "trmm", TSL__TABLE(trmm_variants), trmm_auto, variant, resolved);
}
static tsl_status trsm_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    return check_in(ctx, "trsm", TSL__TABLE(trsm_variants), trsm_auto, variant, resolved);
}

/* The kind of algorithm the context's variant of op names (checked when it was set). */
static l3_kind l3_variant_kind(tsl_context *ctx, const char *op)
{
    const char *name = tsl__context_variant(ctx, op);
    tsl__variant_table t = strcmp(op, "trmm") == 0   ? TSL__TABLE(trmm_variants)
                           : strcmp(op, "trsm") == 0 ? TSL__TABLE(trsm_variants)
                                                     : TSL__TABLE(syrk_variants);
    const tsl__auto_row *autos = strcmp(op, "trmm") == 0   ? trmm_auto
                                 : strcmp(op, "trsm") == 0 ? trsm_auto
                                                           : syrk_auto;
    const l3_variant *v = tsl__find_variant(ctx, op, t, autos, name);
    return v ? v->kind : L3_BLOCKED;
}
static tsl_status symm_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    return check_in(ctx, "symm", TSL__TABLE(symm_variants), symm_auto, variant, resolved);
}

/* Option "block": the block size of the blocked algorithms (diagonal blocks of TRMM/TRSM, the
 * leaves of SYRK/SYR2K's recursion). Default: tsl__l3_block. */
static tsl_status block_option(tsl_context *ctx, const char *name, long value)
{
    if (strcmp(name, "block") != 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "unknown Level-3 option '%s' (options: block, 1 to 4096)", name);
    if (value < 1 || value > 4096)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "option block = %ld is outside 1 to 4096",
                         value);
    return TSL_OK;
}

/* TRSM's options: "block", and "inv_block", the largest diagonal block l3_tri_inv inverts itself
 * (1 to 4096, default 64): larger ones are built from those by recursive doubling (tri_inverses). */
static tsl_status trsm_option(tsl_context *ctx, const char *name, long value)
{
    if (strcmp(name, "inv_block") != 0) return block_option(ctx, name, value);
    if (value < 1 || value > 4096)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "option inv_block = %ld is outside 1 to 4096",
                         value);
    return TSL_OK;
}

const tsl__op_desc tsl__syrk_desc = {.op = "syrk",
                                     .variant_name = syrk_name,
                                     .variant_check = syrk_check,
                                     .option_check = block_option};
const tsl__op_desc tsl__syr2k_desc = {.op = "syr2k",
                                      .variant_name = syrk_name,
                                      .variant_check = syr2k_check,
                                      .option_check = block_option};
const tsl__op_desc tsl__trmm_desc = {.op = "trmm",
                                     .variant_name = trmm_name,
                                     .variant_check = trmm_check,
                                     .option_check = block_option};
const tsl__op_desc tsl__trsm_desc = {.op = "trsm",
                                     .variant_name = trsm_name,
                                     .variant_check = trsm_check,
                                     .option_check = trsm_option};
const tsl__op_desc tsl__symm_desc = {
    .op = "symm", .variant_name = symm_name, .variant_check = symm_check};

/* The block size of op on the context's device: the "block" option, else 256 on GPUs (GEMM steps
 * of k = 256 keep the tiled kernel near its peak, H200 round 3: 4096 x 4096 x 256 at 0.9x of
 * 4096^3) and 128 elsewhere (PoCL's tiled2d tiles are 128 rows). */
size_t tsl__l3_block(const tsl_context *ctx, const char *op)
{
    long dflt = strcmp(ctx->info.type, "gpu") == 0 ? 256 : 128;
    return (size_t)tsl__context_option(ctx, op, "block", dflt);
}

/* TRSM's block size for a triangle of ka: the "block" option, else on GPUs 128 up to ka = 4096
 * and 256 above (H100 round 2, inverse_rec at 4096: nb 128 0.52x / 0.59x GEMM single / double
 * against 0.36x / 0.50x at 256, more blocks filling the device in the small updates; at 8192
 * nb 256 ran at 0.71x / 0.80x), 128 elsewhere. */
static size_t trsm_block(const tsl_context *ctx, size_t ka)
{
    long dflt = strcmp(ctx->info.type, "gpu") == 0 && ka > 4096 ? 256 : 128;
    return (size_t)tsl__context_option(ctx, "trsm", "block", dflt);
}

/* ---- the small kernels (level3.cl) ---------------------------------------------------------- */

tsl_status tsl__l3_kernel(tsl_context *ctx, int dbl, const char *name, const char *extra,
                          cl_kernel *k)
{
    char options[200];
    snprintf(options, sizeof options, "-DPRECISION=%d -DONLY_ONE_KERNEL -DONLY_%s%s%s",
             dbl ? 64 : 32, name, *extra ? " " : "", extra);
    return tsl__get_kernel(ctx, "level3.cl", options, name, k);
}

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* A 2D launch over cols x rows in 16 x 16 groups (or the largest square the kernel allows). */
static tsl_status launch2d(tsl_context *ctx, cl_kernel k, const char *what, const tsl__arg *args,
                           int nargs, size_t cols, size_t rows)
{
    size_t e = 16, max_wg = tsl__kernel_max_wg(ctx, k);
    while (e > 1 && e * e > max_wg) e /= 2;
    size_t local[2] = {e, e}, global[2] = {round_up(cols, e), round_up(rows, e)};
    return tsl__launch(ctx, k, what, args, nargs, 2, global, local);
}

tsl_status tsl__l3_scale(tsl_context *ctx, int dbl, size_t rows, size_t cols, int mode,
                         double beta, cl_mem x, size_t off, size_t ld)
{
    if (rows == 0 || cols == 0) return TSL_OK;
    cl_kernel k;
    tsl_status s = tsl__l3_kernel(ctx, dbl, "l3_scale", "", &k);
    if (s != TSL_OK) return s;
    int r = (int)rows, c = (int)cols, md = mode, ild = (int)ld;
    cl_long o = (cl_long)off;
    tsl__scalar be;
    tsl__arg args[] = {{sizeof r, &r},       {sizeof c, &c},  {sizeof md, &md},
                       tsl__scalar_arg(dbl, &be, beta), {sizeof(cl_mem), &x}, {sizeof o, &o},
                       {sizeof ild, &ild}};
    return launch2d(ctx, k, "level-3 scale", args, 7, cols, rows);
}

static tsl_status l3_copy(tsl_context *ctx, int dbl, size_t rows, size_t cols, cl_mem src,
                          size_t s_off, size_t lds, cl_mem dst, size_t d_off, size_t ldd)
{
    if (rows == 0 || cols == 0) return TSL_OK;
    cl_kernel k;
    tsl_status s = tsl__l3_kernel(ctx, dbl, "l3_copy", "", &k);
    if (s != TSL_OK) return s;
    int r = (int)rows, c = (int)cols, is = (int)lds, id = (int)ldd;
    cl_long so = (cl_long)s_off, dof = (cl_long)d_off;
    tsl__arg args[] = {{sizeof r, &r},   {sizeof c, &c},          {sizeof(cl_mem), &src},
                       {sizeof so, &so}, {sizeof is, &is},        {sizeof(cl_mem), &dst},
                       {sizeof dof, &dof}, {sizeof id, &id}};
    return launch2d(ctx, k, "level-3 copy", args, 8, cols, rows);
}

/* ---- argument checks shared by the routines -------------------------------------------------- */

static size_t max1(size_t x)
{
    return x ? x : 1;
}

static tsl_status check_layout(tsl_context *ctx, const char *fn, tsl_layout l)
{
    if (l != TSL_ROW_MAJOR && l != TSL_COL_MAJOR)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: layout %d is neither TSL_ROW_MAJOR nor TSL_COL_MAJOR", fn, (int)l);
    return TSL_OK;
}
static tsl_status check_uplo(tsl_context *ctx, const char *fn, tsl_uplo u)
{
    if (u != TSL_UPPER && u != TSL_LOWER)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: uplo %d is neither TSL_UPPER nor TSL_LOWER", fn, (int)u);
    return TSL_OK;
}
static tsl_status check_side(tsl_context *ctx, const char *fn, tsl_side sd)
{
    if (sd != TSL_LEFT && sd != TSL_RIGHT)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: side %d is neither TSL_LEFT nor TSL_RIGHT", fn, (int)sd);
    return TSL_OK;
}
static tsl_status check_trans(tsl_context *ctx, const char *fn, const char *name, tsl_trans t)
{
    if (t != TSL_NO_TRANS && t != TSL_TRANS)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: %s %d is neither TSL_NO_TRANS nor TSL_TRANS", fn, name, (int)t);
    return TSL_OK;
}
static tsl_status check_diag(tsl_context *ctx, const char *fn, tsl_diag d)
{
    if (d != TSL_NON_UNIT && d != TSL_UNIT)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: diag %d is neither TSL_NON_UNIT nor TSL_UNIT", fn, (int)d);
    return TSL_OK;
}
/* Sizes are size_t, as in tsl_sgemm: a negative int passed for one arrives as a huge value. The
 * kernels index with int rows and columns. */
tsl_status tsl__l3_check_size(tsl_context *ctx, const char *fn, const char *name, size_t v)
{
    if (v > INT_MAX)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: %s = %zu is larger than 2^31-1 (a negative value passed as size_t?)",
                         fn, name, v);
    return TSL_OK;
}
tsl_status tsl__l3_check_ld(tsl_context *ctx, const char *fn, const char *name, size_t ld,
                            size_t need, const char *what)
{
    if (ld < max1(need))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s = %zu is smaller than %zu, which %s needs",
                         fn, name, ld, max1(need), what);
    return tsl__l3_check_size(ctx, fn, name, ld);
}

/* ---- host staging: the stored triangle only, through host memory --------------------------- */

/* Uploads the rows x cols row-major matrix at host (rows ld elements apart) into a packed device
 * workspace. tri: 0 the whole matrix; 1 its lower triangle; 2 its upper; with skip_diag the
 * diagonal is left out too (unit triangles). What is not copied is zero on the device; the
 * caller's elements outside the triangle are never read. */
static tsl_status upload_matrix(tsl_context *ctx, int slot, size_t es, const void *host,
                                size_t rows, size_t cols, size_t ld, int tri, int skip_diag,
                                cl_mem *out)
{
    tsl_status s = tsl__workspace(ctx, slot, max1(rows * cols) * es, out);
    if (s != TSL_OK || rows == 0 || cols == 0) return s;
    if (!tri) return tsl__upload_rect(ctx, *out, host, rows, cols * es, ld * es);
    unsigned char *stage = tsl__calloc(rows * cols, es);
    if (!stage) return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "level-3: host staging of %zu bytes",
                                 rows * cols * es);
    const unsigned char *src = host;
    for (size_t i = 0; i < rows; ++i) {
        size_t j0 = tri == 1 ? 0 : i + (skip_diag ? 1 : 0);
        size_t j1 = tri == 1 ? (skip_diag ? i : i + 1) : cols;
        if (j1 > cols) j1 = cols;
        if (j0 < j1) memcpy(stage + (i * cols + j0) * es, src + (i * ld + j0) * es, (j1 - j0) * es);
    }
    s = tsl__upload_rect(ctx, *out, stage, rows, cols * es, cols * es);
    /* the staging copy is freed next: the upload must have read it (it blocks today; waiting
     * keeps this right if it ever does not) */
    tsl_status done = tsl__timing_end(ctx);
    tsl__free(stage);
    return s != TSL_OK ? s : done;
}

/* The reverse for a square n x n result: the lower (tri 1) or upper (2) triangle only. */
static tsl_status download_triangle(tsl_context *ctx, size_t es, cl_mem mem, void *host, size_t n,
                                    size_t ld, int tri)
{
    unsigned char *stage = tsl__malloc(max1(n * n) * es);
    if (!stage) return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "level-3: host staging of %zu bytes",
                                 n * n * es);
    tsl_status s = tsl__download_rect(ctx, mem, stage, n, n * es, n * es);
    if (s == TSL_OK) {
        unsigned char *dst = host;
        for (size_t i = 0; i < n; ++i) {
            size_t j0 = tri == 1 ? 0 : i, j1 = tri == 1 ? i + 1 : n;
            memcpy(dst + (i * ld + j0) * es, stage + (i * n + j0) * es, (j1 - j0) * es);
        }
    }
    tsl__free(stage);
    return s;
}

/* ---- SYRK and SYR2K ----------------------------------------------------------------------------
 * Row-major C (n x n, the lower or upper triangle) = alpha op(A) op(B)^T [+ alpha op(B) op(A)^T]
 * + beta C; op(X) is n x k. The off-diagonal part of the triangle is cut recursively in halves
 * of whole blocks: each half's off-diagonal rectangle is one GEMM, so the largest GEMMs come first
 * and are as big as the problem allows. The diagonal blocks (nb x nb, the last one ragged) are
 * whole products into a workspace, by GEMM, merged into C's triangle by l3_tri_merge. */
typedef struct {
    int dbl, prec, two, lower;
    tsl_trans trans;
    size_t n, k, nb;
    double alpha, beta;
    cl_mem a, b, c;
    size_t a_off, lda, b_off, ldb, c_off, ldc;
} syrk_problem;

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
    tsl_status s = tsl__gemm_mem(ctx, p->prec, t1, t2, rn, cn, p->k, p->alpha, p->a, o1, p->lda,
                                 p->b, o2, p->ldb, beta, dst, dst_off, ldd);
    if (s != TSL_OK || !p->two) return s;
    opx_rows(p, p->b_off, p->ldb, ri, &t1, &o1);
    opx_cols_t(p, p->a_off, p->lda, ci, &t2, &o2);
    return tsl__gemm_mem(ctx, p->prec, t1, t2, rn, cn, p->k, p->alpha, p->b, o1, p->ldb, p->a, o2,
                         p->lda, 1.0, dst, dst_off, ldd);
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
    tsl__gemm_ext ext = {p->lower ? TSL__TRI_C_LOWER : TSL__TRI_C_UPPER, 0, 0, 0, 0, 0};
    tsl_trans t1, t2;
    size_t o1, o2;
    opx_rows(p, p->a_off, p->lda, 0, &t1, &o1);
    opx_cols_t(p, p->b_off, p->ldb, 0, &t2, &o2);
    if (!tsl__gemm_ext_ok(ctx, p->prec, t1, t2, p->n, p->n, p->k, o1, p->lda, o2, p->ldb, &ext))
        return 1;
    *s = tsl__gemm_mem_ext(ctx, p->prec, t1, t2, p->n, p->n, p->k, p->alpha, p->a, o1, p->lda,
                           p->b, o2, p->ldb, p->beta, p->c, p->c_off, p->ldc, &ext);
    if (*s != TSL_OK || !p->two) return 0;
    opx_rows(p, p->b_off, p->ldb, 0, &t1, &o1);
    opx_cols_t(p, p->a_off, p->lda, 0, &t2, &o2);
    *s = tsl__gemm_mem_ext(ctx, p->prec, t1, t2, p->n, p->n, p->k, p->alpha, p->b, o1, p->ldb,
                           p->a, o2, p->lda, 1.0, p->c, p->c_off, p->ldc, &ext);
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
    if (l3_variant_kind(ctx, p->two ? "syr2k" : "syrk") == L3_TRI && syrk_tri(ctx, p, &st) == 0)
        return st;
    size_t nb = p->nb, es = p->dbl ? sizeof(double) : sizeof(float);
    size_t nblk = (p->n + nb - 1) / nb;
    cl_mem t;
    tsl_status s = tsl__workspace(ctx, 7, nblk * nb * nb * es, &t);
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
    if ((s = launch2d(ctx, k, "level-3 diagonal merge", args, 8, nb, p->n)) != TSL_OK) return s;
    return syrk_offdiag(ctx, p, 0, p->n);
}

typedef struct {
    tsl_layout layout;
    tsl_uplo uplo;
    tsl_trans trans;
    size_t n, k, lda, ldb, ldc;
    int two;
} syrk_args;

static tsl_status syrk_check_args(tsl_context *ctx, const char *fn, const syrk_args *g)
{
    tsl_status s;
    if ((s = check_layout(ctx, fn, g->layout)) || (s = check_uplo(ctx, fn, g->uplo)) ||
        (s = check_trans(ctx, fn, "trans", g->trans)) || (s = tsl__l3_check_size(ctx, fn, "n", g->n)) ||
        (s = tsl__l3_check_size(ctx, fn, "k", g->k)))
        return s;
    int row = g->layout == TSL_ROW_MAJOR;
    size_t need = row == (g->trans == TSL_NO_TRANS) ? g->k : g->n;
    if ((s = tsl__l3_check_ld(ctx, fn, "lda", g->lda, need, "A")) != TSL_OK) return s;
    if (g->two && (s = tsl__l3_check_ld(ctx, fn, "ldb", g->ldb, need, "B")) != TSL_OK) return s;
    return tsl__l3_check_ld(ctx, fn, "ldc", g->ldc, g->n, "C");
}

/* The row-major problem of a call (no buffers yet). */
static syrk_problem syrk_view(tsl_context *ctx, int prec, const syrk_args *g, double alpha,
                              double beta)
{
    int col = g->layout == TSL_COL_MAJOR;
    syrk_problem p = {.dbl = prec == TSL_DOUBLE,
                      .prec = prec,
                      .two = g->two,
                      .lower = (g->uplo == TSL_LOWER) != col,
                      .trans = (g->trans == TSL_TRANS) != col ? TSL_TRANS : TSL_NO_TRANS,
                      .n = g->n,
                      .k = g->k,
                      .nb = tsl__l3_block(ctx, g->two ? "syr2k" : "syrk"),
                      .alpha = alpha,
                      .beta = beta,
                      .lda = g->lda,
                      .ldb = g->two ? g->ldb : g->lda,
                      .ldc = g->ldc};
    return p;
}

static tsl_status syrk_host(tsl_context *ctx, const char *fn, int prec, const syrk_args *g,
                            double alpha, const void *a, const void *b, double beta, void *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = syrk_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    int use_ab = g->k > 0 && alpha != 0.0;
    if (g->n == 0 || (!use_ab && beta == 1.0)) return TSL_OK;
    if (!c) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: C is NULL", fn);
    if (use_ab && !a) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: A is NULL", fn);
    if (use_ab && g->two && !b) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: B is NULL", fn);
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    syrk_problem p = syrk_view(ctx, prec, g, alpha, beta);
    size_t es = prec == TSL_DOUBLE ? sizeof(double) : sizeof(float);
    size_t ar = p.trans == TSL_NO_TRANS ? p.n : p.k, ac = p.trans == TSL_NO_TRANS ? p.k : p.n;
    if (tsl__mul_overflows(ar, ac) || tsl__mul_overflows(ar * ac, es) ||
        tsl__mul_overflows(p.n, p.n) || tsl__mul_overflows(p.n * p.n, es))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: matrix byte counts overflow", fn);
    int tri = p.lower ? 1 : 2;
    if (use_ab) {
        if ((s = upload_matrix(ctx, 0, es, a, ar, ac, g->lda, 0, 0, &p.a)) != TSL_OK) return s;
        p.lda = ac;
        if (g->two) {
            if ((s = upload_matrix(ctx, 1, es, b, ar, ac, g->ldb, 0, 0, &p.b)) != TSL_OK) return s;
        } else {
            p.b = p.a;
        }
        p.ldb = ac;
    }
    if (beta != 0.0) {
        if ((s = upload_matrix(ctx, 2, es, c, p.n, p.n, g->ldc, tri, 0, &p.c)) != TSL_OK) return s;
    } else if ((s = tsl__workspace(ctx, 2, p.n * p.n * es, &p.c)) != TSL_OK) {
        return s;
    }
    p.ldc = p.n;
    if (!use_ab) p.a = p.b = p.c;
    s = syrk_run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = download_triangle(ctx, es, p.c, c, p.n, g->ldc, tri)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

static tsl_status syrk_buf(tsl_context *ctx, const char *fn, int prec, const syrk_args *g,
                           double alpha, const tsl_buffer *a, const tsl_buffer *b, double beta,
                           tsl_buffer *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = syrk_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    int use_ab = g->k > 0 && alpha != 0.0;
    if (g->n == 0 || (!use_ab && beta == 1.0)) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    syrk_problem p = syrk_view(ctx, prec, g, alpha, beta);
    size_t es = prec == TSL_DOUBLE ? sizeof(double) : sizeof(float);
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
    s = syrk_run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

/* ---- TRMM and TRSM -----------------------------------------------------------------------------
 * Row-major B (m x n) = alpha op(A) B (left) or alpha B op(A) (right), TRSM: the solution X of
 * op(A) X = alpha B or X op(A) = alpha B, into B. op(A) is triangular, ka x ka (ka = m left, n
 * right); it is lower or upper as uplo and trans together say. Blocks of nb along ka: the
 * diagonal blocks of op(A) (TRMM) are made dense by l3_tri_blocks, their inverses (TRSM) by
 * l3_tri_inv, and
 * everything else is GEMM on blocks of A, B and the workspace W (m x n), which takes the result
 * and is copied into B at the end (a GEMM cannot write the B it reads). */
typedef struct {
    int dbl, prec, left, lower, unit, solve;
    tsl_trans ta;
    size_t m, n, nb;
    double alpha;
    cl_mem a, b;
    size_t a_off, lda, b_off, ldb;
} trxm_problem;

/* Element offset of op(A)'s element (r0, c0): the origin of a block of op(A) that GEMM reads with
 * transpose p->ta. */
static size_t opa_at(const trxm_problem *p, size_t r0, size_t c0)
{
    return p->a_off + (p->ta == TSL_NO_TRANS ? r0 * p->lda + c0 : c0 * p->lda + r0);
}

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
    size_t local[2] = {e, 1}, global[2] = {round_up(p->nb, e), nblk};
    return tsl__launch(ctx, k, "trmm diagonal blocks", args, 9, 2, global, local);
}

static tsl_status batched_gemm(tsl_context *ctx, int prec, tsl_trans ta, size_t count, size_t m,
                               size_t n, size_t k, double alpha, cl_mem a, size_t a_off, size_t lda,
                               size_t sa, cl_mem b, size_t b_off, size_t ldb, size_t sb,
                               double beta, cl_mem c, size_t c_off, size_t ldc, size_t sc);

/* The largest diagonal block l3_tri_inv inverts itself for blocks of nb: nb halved while it is
 * above the "inv_block" option (default 64) and even; *levels: the doublings back to nb. */
static size_t inv_base(const tsl_context *ctx, size_t nb, int *levels)
{
    size_t lim = (size_t)tsl__context_option(ctx, "trsm", "inv_block", 64), b = nb;
    *levels = 0;
    while (b > lim && b % 2 == 0) b /= 2, ++*levels;
    return b;
}

/* TRSM's inverted diagonal blocks into d (as tri_blocks lays them out: block i at i nb nb, rows nb
 * apart, zeros in the other triangle). l3_tri_inv inverts blocks of nb0 = inv_base (one
 * work-group each, O(nb0^3) dependent-ish work per group: at nb = 512 the whole inversion ran at
 * 0.11-0.19x GEMM on the H100, round 2), then recursive doubling builds the inverses of blocks
 * of 2h from those of h, as CLBlast and MAGMA do: for a lower pair [A11 0; A21 A22], inv =
 * [inv11 0; -inv22 A21 inv11, inv22] (upper: [inv11, -inv11 A12 inv22; 0 inv22]), two GEMMs
 * per pair through T = A21 inv11 (A12 inv22) in the scratch at d + t_off (nblk (nb/2)^2
 * elements), each batched over the full blocks of nb (stride nb nb; the ragged last block's pair
 * by single GEMMs), one launch per pair position: 2 (nb / nb0 - 1) launches in all. */
static tsl_status tri_inverses(tsl_context *ctx, const trxm_problem *p, size_t ka, cl_mem d,
                               size_t t_off)
{
    cl_kernel k;
    size_t nb = p->nb, nblk = (ka + nb - 1) / nb, nfull = ka / nb, last = ka - nfull * nb;
    int levels;
    size_t nb0 = inv_base(ctx, nb, &levels);
    tsl_status s = TSL_OK;
    if (levels > 0) /* zeros in the pairs' other triangles, which no step below writes */
        s = tsl__l3_scale(ctx, p->dbl, nblk * nb, nb, 0, 0.0, d, 0, nb);
    if (s == TSL_OK) s = tsl__l3_kernel(ctx, p->dbl, "l3_tri_inv", "", &k);
    if (s != TSL_OK) return s;
    int ika = (int)ka, inb = (int)nb0, lower = p->lower, unit = p->unit, ldd = (int)nb;
    int per = (int)(nb / nb0);
    int rs = p->ta == TSL_NO_TRANS ? (int)p->lda : 1, cs = p->ta == TSL_NO_TRANS ? 1 : (int)p->lda;
    cl_long a_off = (cl_long)p->a_off;
    tsl__arg args[] = {{sizeof ika, &ika},     {sizeof inb, &inb},     {sizeof(cl_mem), &p->a},
                       {sizeof a_off, &a_off}, {sizeof rs, &rs},       {sizeof cs, &cs},
                       {sizeof lower, &lower}, {sizeof unit, &unit},   {sizeof(cl_mem), &d},
                       {sizeof ldd, &ldd},     {sizeof per, &per}};
    size_t wg = 256, nsmall = (ka + nb0 - 1) / nb0;
    while (wg > 1 && wg > tsl__kernel_max_wg(ctx, k)) wg /= 2;
    size_t local[1] = {wg}, global[1] = {nsmall * wg};
    s = tsl__launch(ctx, k, "trsm diagonal inverses", args, 11, 1, global, local);
    int prec = p->prec;
    size_t sa = nb * p->lda + nb; /* op(A) from one block of nb to the next, either transpose */
    for (size_t h = nb0; s == TSL_OK && h < nb; h *= 2)
        for (size_t o = 0; s == TSL_OK && o < nb; o += 2 * h) {
            /* the pair [o, o + h), [o + h, o + 2h) of every full block (batched), then of the
             * ragged last one, whose second half has h2 rows (none: nothing to build) */
            size_t o1 = o + h, d11 = o * nb + o, d22 = o1 * nb + o1;
            for (int rag = 0; s == TSL_OK && rag < 2; ++rag) {
                size_t cnt = rag ? 1 : nfull, base = rag ? nfull * nb : 0, dz = base * nb;
                size_t h2 = rag ? (last > o1 ? (last - o1 < h ? last - o1 : h) : 0) : h;
                if (cnt == 0 || h2 == 0) continue;
                if (p->lower) { /* T = A21 inv11 (h2 x h); inv21 = -inv22 T */
                    s = batched_gemm(ctx, prec, p->ta, cnt, h2, h, h, 1.0, p->a,
                                     opa_at(p, base + o1, base + o), p->lda, sa, d, dz + d11, nb,
                                     nb * nb, 0.0, d, t_off, h, h * h);
                    if (s == TSL_OK)
                        s = batched_gemm(ctx, prec, TSL_NO_TRANS, cnt, h2, h, h2, -1.0, d,
                                         dz + d22, nb, nb * nb, d, t_off, h, h * h, 0.0, d,
                                         dz + o1 * nb + o, nb, nb * nb);
                } else { /* T = A12 inv22 (h x h2); inv12 = -inv11 T */
                    s = batched_gemm(ctx, prec, p->ta, cnt, h, h2, h2, 1.0, p->a,
                                     opa_at(p, base + o, base + o1), p->lda, sa, d, dz + d22, nb,
                                     nb * nb, 0.0, d, t_off, h, h * h);
                    if (s == TSL_OK)
                        s = batched_gemm(ctx, prec, TSL_NO_TRANS, cnt, h, h2, h, -1.0, d,
                                         dz + d11, nb, nb * nb, d, t_off, h, h * h, 0.0, d,
                                         dz + o * nb + o1, nb, nb * nb);
                }
            }
        }
    return s;
}

static tsl_status trxm_blocked(tsl_context *ctx, const trxm_problem *p)
{
    size_t es = p->dbl ? sizeof(double) : sizeof(float), nb = p->nb;
    size_t ka = p->left ? p->m : p->n, nblk = (ka + nb - 1) / nb, m = p->m, n = p->n;
    cl_mem d, w;
    size_t dsz = nblk * nb * nb, tsz = p->solve ? nblk * (nb / 2) * (nb / 2) : 0;
    tsl_status s = tsl__workspace(ctx, 7, (dsz + tsz) * es, &d);
    if (s == TSL_OK) s = tsl__workspace(ctx, 5, m * n * es, &w);
    /* TRSM's inverses by l3_tri_inv (the first implementation's l3_tri_blocks inverse ran
     * nb^2 / 2 dependent steps per work-item: 41 ms at nb = 1024 on an H100) */
    if (s == TSL_OK) s = p->solve ? tri_inverses(ctx, p, ka, d, dsz) : tri_blocks(ctx, p, ka, d);
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
        /* the diagonal block: W_blk = a1 D_blk B_blk (left) or a1 B_blk D_blk (right) */
        if (p->left)
            s = tsl__gemm_mem(ctx, prec, TSL_NO_TRANS, TSL_NO_TRANS, len, n, len, a1, d,
                              blk * nb * nb, nb, p->b, p->b_off + o * p->ldb, p->ldb, 0.0, w,
                              o * n, n);
        else
            s = tsl__gemm_mem(ctx, prec, TSL_NO_TRANS, TSL_NO_TRANS, m, len, len, a1, p->b,
                              p->b_off + o, p->ldb, d, blk * nb * nb, nb, 0.0, w, o, n);
        if (s != TSL_OK || !p->solve) continue;
        /* TRSM: the blocks not solved yet, rest = [r0, r1) of ka */
        size_t r0 = forward ? o + len : 0, r1 = forward ? ka : o;
        if (r0 >= r1) continue;
        if (p->left) /* B[rest, :] = a1 B[rest, :] - op(A)[rest, blk] W_blk */
            s = tsl__gemm_mem(ctx, prec, p->ta, TSL_NO_TRANS, r1 - r0, n, len, -1.0, p->a,
                              opa_at(p, r0, o), p->lda, w, o * n, n, a1, p->b,
                              p->b_off + r0 * p->ldb, p->ldb);
        else /* B[:, rest] = a1 B[:, rest] - W_blk op(A)[blk, rest] */
            s = tsl__gemm_mem(ctx, prec, TSL_NO_TRANS, p->ta, m, r1 - r0, len, -1.0, w, o, n,
                              p->a, opa_at(p, o, r0), p->lda, a1, p->b, p->b_off + r0, p->ldb);
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
                s = tsl__gemm_mem(ctx, prec, p->ta, TSL_NO_TRANS, r1 - r0, n, len, p->alpha, p->a,
                                  opa_at(p, r0, o), p->lda, p->b, p->b_off + o * p->ldb, p->ldb,
                                  1.0, w, r0 * n, n);
            else /* W[:, rest] += alpha B_blk op(A)[blk, rest] */
                s = tsl__gemm_mem(ctx, prec, TSL_NO_TRANS, p->ta, m, r1 - r0, len, p->alpha,
                                  p->b, p->b_off + o, p->ldb, p->a, opa_at(p, o, r0), p->lda, 1.0,
                                  w, r0, n);
        }
    }
    if (s == TSL_OK) s = l3_copy(ctx, p->dbl, m, n, w, 0, n, p->b, p->b_off, p->ldb);
    return s;
}

/* TRMM in one tiled2d launch (TSL__TRI_A_* on the left, _B_ on the right): op(A) packed with
 * zeros in its other triangle (1 on a unit diagonal), each tile running only the k the triangle
 * reaches, into W; W is then copied into B. 0: done; 1: the context's gemm variant cannot. */
static int trmm_tri(tsl_context *ctx, const trxm_problem *p, tsl_status *s)
{
    size_t es = p->dbl ? sizeof(double) : sizeof(float), m = p->m, n = p->n;
    tsl__gemm_ext ext = {0, p->unit, 0, 0, 0, 0};
    if (p->left)
        ext.tri = p->lower ? TSL__TRI_A_LOWER : TSL__TRI_A_UPPER;
    else
        ext.tri = p->lower ? TSL__TRI_B_LOWER : TSL__TRI_B_UPPER;
    size_t k = p->left ? m : n;
    if (!tsl__gemm_ext_ok(ctx, p->prec, p->left ? p->ta : TSL_NO_TRANS,
                          p->left ? TSL_NO_TRANS : p->ta, m, n, k, 0, p->lda, 0, p->ldb, &ext))
        return 1;
    cl_mem w;
    *s = tsl__workspace(ctx, 5, m * n * es, &w);
    if (*s != TSL_OK) return 0;
    if (p->left) /* W = alpha op(A) B */
        *s = tsl__gemm_mem_ext(ctx, p->prec, p->ta, TSL_NO_TRANS, m, n, m, p->alpha, p->a,
                               p->a_off, p->lda, p->b, p->b_off, p->ldb, 0.0, w, 0, n, &ext);
    else /* W = alpha B op(A) */
        *s = tsl__gemm_mem_ext(ctx, p->prec, TSL_NO_TRANS, p->ta, m, n, n, p->alpha, p->b,
                               p->b_off, p->ldb, p->a, p->a_off, p->lda, 0.0, w, 0, n, &ext);
    if (*s == TSL_OK) *s = l3_copy(ctx, p->dbl, m, n, w, 0, n, p->b, p->b_off, p->ldb);
    return 0;
}

/* count GEMMs C_z = alpha op(A_z) B_z + beta C_z, X_z = X + z x_stride: one batched tiled2d
 * launch where it runs them without a pre-pass, else one GEMM each. */
static tsl_status batched_gemm(tsl_context *ctx, int prec, tsl_trans ta, size_t count, size_t m,
                               size_t n, size_t k, double alpha, cl_mem a, size_t a_off, size_t lda,
                               size_t sa, cl_mem b, size_t b_off, size_t ldb, size_t sb,
                               double beta, cl_mem c, size_t c_off, size_t ldc, size_t sc)
{
    if (count == 0) return TSL_OK;
    tsl__gemm_ext ext = {0, 0, count, sa, sb, sc};
    if (count > 1 && tsl__gemm_ext_ok(ctx, prec, ta, TSL_NO_TRANS, m, n, k, a_off, lda, b_off,
                                      ldb, &ext))
        return tsl__gemm_mem_ext(ctx, prec, ta, TSL_NO_TRANS, m, n, k, alpha, a, a_off, lda, b,
                                 b_off, ldb, beta, c, c_off, ldc, &ext);
    tsl_status s = TSL_OK;
    for (size_t z = 0; s == TSL_OK && z < count; ++z)
        s = tsl__gemm_mem(ctx, prec, ta, TSL_NO_TRANS, m, n, k, alpha, a, a_off + z * sa, lda, b,
                          b_off + z * sb, ldb, beta, c, c_off + z * sc, ldc);
    return s;
}

static tsl_status batched_nn(tsl_context *ctx, int prec, size_t count, size_t m, size_t n,
                             size_t k, double alpha, cl_mem a, size_t a_off, size_t lda, size_t sa,
                             cl_mem b, size_t b_off, size_t ldb, size_t sb, double beta, cl_mem c,
                             size_t c_off, size_t ldc, size_t sc)
{
    return batched_gemm(ctx, prec, TSL_NO_TRANS, count, m, n, k, alpha, a, a_off, lda, sa, b,
                        b_off, ldb, sb, beta, c, c_off, ldc, sc);
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
        return tsl__gemm_mem(ctx, p->prec, TSL_NO_TRANS, TSL_NO_TRANS, u1 - u0, p->n, s1 - s0,
                             -1.0, f, f_off + u0 * ka + s0, ka, p->b, p->b_off + s0 * p->ldb,
                             p->ldb, 1.0, p->b, p->b_off + u0 * p->ldb, p->ldb);
    /* B[:, u] -= B[:, s] F[s, u] */
    return tsl__gemm_mem(ctx, p->prec, TSL_NO_TRANS, TSL_NO_TRANS, p->m, u1 - u0, s1 - s0, -1.0,
                         p->b, p->b_off + s0, p->ldb, f, f_off + s0 * ka + u0, ka, 1.0, p->b,
                         p->b_off + u0, p->ldb);
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

/* TRSM, inverse variants. With D_I the inverted diagonal blocks of op(A) and X the solution:
 * left, Y_I = D_I^-1 X_I solves Y_I + sum_J F_IJ Y_J = B_I over the blocks J before I in the
 * substitution, F_IJ = op(A)_IJ D_J^-1, and X_I = alpha D_I^-1 Y_I (right: Y_J = X_J D_J,
 * F_IJ = D_I^-1 op(A)_IJ, X_J = alpha Y_J D_J^-1). So: invert the diagonal blocks (l3_tri_inv),
 * write op(A)'s off-diagonal blocks densely (l3_tri_full), F by one batched GEMM over the block
 * columns (rows), the updates in place on B (trsm_updates), X by one batched GEMM over the
 * diagonal blocks into W, W into B. The batched GEMMs have k = nb; no leaf GEMM of nb rows runs
 * between the updates. Workspace 7 holds [D | T | op(A) dense | F], 5 is W. */
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
    tsl_status s = tsl__workspace(ctx, 7, (dsz + tsz + 2 * fsz) * es, &ws);
    if (s == TSL_OK) s = tsl__workspace(ctx, 5, m * n * es, &w);
    if (s == TSL_OK) s = tri_inverses(ctx, p, ka, ws, dsz);
    if (s != TSL_OK) return s;
    cl_kernel k;
    int ika = (int)ka, inb = (int)nb, lower = p->lower;
    int rs = p->ta == TSL_NO_TRANS ? (int)p->lda : 1, cs = p->ta == TSL_NO_TRANS ? 1 : (int)p->lda;
    cl_long a_off = (cl_long)p->a_off;
    size_t f0 = dsz + tsz, f1 = f0 + fsz; /* op(A) dense, and F (after D and tri_inverses' T) */
    if (nblk > 1) {
        if ((s = tsl__l3_kernel(ctx, p->dbl, "l3_tri_full", "", &k)) != TSL_OK) return s;
        cl_long fo = (cl_long)f0;
        tsl__arg fargs[] = {{sizeof ika, &ika},     {sizeof inb, &inb},     {sizeof(cl_mem), &p->a},
                            {sizeof a_off, &a_off}, {sizeof rs, &rs},       {sizeof cs, &cs},
                            {sizeof lower, &lower}, {sizeof(cl_mem), &ws},  {sizeof fo, &fo}};
        if ((s = launch2d(ctx, k, "trsm off-diagonal blocks", fargs, 9, ka, ka)) != TSL_OK)
            return s;
        /* F = op(A) D^-1 by block columns (left), D^-1 op(A) by block rows (right) */
        if (p->left) {
            s = batched_nn(ctx, prec, nfull, ka, nb, nb, 1.0, ws, f0, ka, nb, ws, 0, nb, nb * nb,
                           0.0, ws, f1, ka, nb);
            if (s == TSL_OK && last)
                s = tsl__gemm_mem(ctx, prec, TSL_NO_TRANS, TSL_NO_TRANS, ka, last, last, 1.0, ws,
                                  f0 + nfull * nb, ka, ws, nfull * nb * nb, nb, 0.0, ws,
                                  f1 + nfull * nb, ka);
        } else {
            s = batched_nn(ctx, prec, nfull, nb, ka, nb, 1.0, ws, 0, nb, nb * nb, ws, f0, ka,
                           nb * ka, 0.0, ws, f1, ka, nb * ka);
            if (s == TSL_OK && last)
                s = tsl__gemm_mem(ctx, prec, TSL_NO_TRANS, TSL_NO_TRANS, last, ka, last, 1.0, ws,
                                  nfull * nb * nb, nb, ws, f0 + nfull * nb * ka, ka, 0.0, ws,
                                  f1 + nfull * nb * ka, ka);
        }
        if (s == TSL_OK) s = trsm_updates(ctx, p, ws, f1, ka, 0, ka, rec);
        if (s != TSL_OK) return s;
    }
    /* X = alpha D^-1 Y block by block, into W */
    if (p->left) {
        s = batched_nn(ctx, prec, nfull, nb, n, nb, p->alpha, ws, 0, nb, nb * nb, p->b, p->b_off,
                       p->ldb, nb * p->ldb, 0.0, w, 0, n, nb * n);
        if (s == TSL_OK && last)
            s = tsl__gemm_mem(ctx, prec, TSL_NO_TRANS, TSL_NO_TRANS, last, n, last, p->alpha, ws,
                              nfull * nb * nb, nb, p->b, p->b_off + nfull * nb * p->ldb, p->ldb,
                              0.0, w, nfull * nb * n, n);
    } else {
        s = batched_nn(ctx, prec, nfull, m, nb, nb, p->alpha, p->b, p->b_off, p->ldb, nb, ws, 0,
                       nb, nb * nb, 0.0, w, 0, n, nb);
        if (s == TSL_OK && last)
            s = tsl__gemm_mem(ctx, prec, TSL_NO_TRANS, TSL_NO_TRANS, m, last, last, p->alpha,
                              p->b, p->b_off + nfull * nb, p->ldb, ws, nfull * nb * nb, nb, 0.0, w,
                              nfull * nb, n);
    }
    if (s == TSL_OK) s = l3_copy(ctx, p->dbl, m, n, w, 0, n, p->b, p->b_off, p->ldb);
    return s;
}

static tsl_status trxm_run(tsl_context *ctx, const trxm_problem *p)
{
    if (p->alpha == 0.0) /* B = 0, A and B not read (BLAS) */
        return tsl__l3_scale(ctx, p->dbl, p->m, p->n, 0, 0.0, p->b, p->b_off, p->ldb);
    l3_kind kind = l3_variant_kind(ctx, p->solve ? "trsm" : "trmm");
    tsl_status s = TSL_OK;
    if (!p->solve && kind == L3_TRI && trmm_tri(ctx, p, &s) == 0) return s;
    if (p->solve && (kind == L3_INVERSE || kind == L3_INVERSE_REC))
        return trsm_inverse(ctx, p, kind == L3_INVERSE_REC);
    return trxm_blocked(ctx, p);
}

typedef struct {
    tsl_layout layout;
    tsl_side side;
    tsl_uplo uplo;
    tsl_trans trans;
    tsl_diag diag;
    size_t m, n, lda, ldb;
} trxm_args;

static tsl_status trxm_check_args(tsl_context *ctx, const char *fn, const trxm_args *g)
{
    tsl_status s;
    if ((s = check_layout(ctx, fn, g->layout)) || (s = check_side(ctx, fn, g->side)) ||
        (s = check_uplo(ctx, fn, g->uplo)) || (s = check_trans(ctx, fn, "transa", g->trans)) ||
        (s = check_diag(ctx, fn, g->diag)) || (s = tsl__l3_check_size(ctx, fn, "m", g->m)) ||
        (s = tsl__l3_check_size(ctx, fn, "n", g->n)))
        return s;
    size_t ka = g->side == TSL_LEFT ? g->m : g->n;
    if ((s = tsl__l3_check_ld(ctx, fn, "lda", g->lda, ka, "A")) != TSL_OK) return s;
    return tsl__l3_check_ld(ctx, fn, "ldb", g->ldb, g->layout == TSL_ROW_MAJOR ? g->n : g->m, "B");
}

static trxm_problem trxm_view(tsl_context *ctx, int prec, int solve, const trxm_args *g,
                              double alpha)
{
    int col = g->layout == TSL_COL_MAJOR;
    int left = (g->side == TSL_LEFT) != col;
    int upper_stored = (g->uplo == TSL_UPPER) != col; /* in the row-major view */
    trxm_problem p = {.dbl = prec == TSL_DOUBLE,
                      .prec = prec,
                      .left = left,
                      .lower = upper_stored == (g->trans == TSL_TRANS),
                      .unit = g->diag == TSL_UNIT,
                      .solve = solve,
                      .ta = g->trans,
                      .m = col ? g->n : g->m,
                      .n = col ? g->m : g->n,
                      .nb = tsl__l3_block(ctx, "trmm"),
                      .alpha = alpha,
                      .lda = g->lda,
                      .ldb = g->ldb};
    if (solve) p.nb = trsm_block(ctx, p.left ? p.m : p.n);
    return p;
}

static tsl_status trxm_host(tsl_context *ctx, const char *fn, int prec, int solve,
                            const trxm_args *g, double alpha, const void *a, void *b)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = trxm_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    if (g->m == 0 || g->n == 0) return TSL_OK;
    if (!b) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: B is NULL", fn);
    if (alpha != 0.0 && !a) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: A is NULL", fn);
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    trxm_problem p = trxm_view(ctx, prec, solve, g, alpha);
    size_t es = prec == TSL_DOUBLE ? sizeof(double) : sizeof(float);
    size_t ka = p.left ? p.m : p.n;
    if (tsl__mul_overflows(ka, ka) || tsl__mul_overflows(ka * ka, es) ||
        tsl__mul_overflows(p.m, p.n) || tsl__mul_overflows(p.m * p.n, es))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: matrix byte counts overflow", fn);
    if (alpha != 0.0) {
        int upper_stored = (g->uplo == TSL_UPPER) != (g->layout == TSL_COL_MAJOR);
        if ((s = upload_matrix(ctx, 0, es, a, ka, ka, g->lda, upper_stored ? 2 : 1, p.unit,
                               &p.a)) != TSL_OK)
            return s;
        p.lda = ka;
        if ((s = upload_matrix(ctx, 1, es, b, p.m, p.n, g->ldb, 0, 0, &p.b)) != TSL_OK) return s;
    } else {
        if ((s = tsl__workspace(ctx, 1, p.m * p.n * es, &p.b)) != TSL_OK) return s;
        p.a = p.b;
    }
    p.ldb = p.n;
    s = trxm_run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__download_rect(ctx, p.b, b, p.m, p.n * es, g->ldb * es)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

static tsl_status trxm_buf(tsl_context *ctx, const char *fn, int prec, int solve,
                           const trxm_args *g, double alpha, const tsl_buffer *a, tsl_buffer *b)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = trxm_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    if (g->m == 0 || g->n == 0) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    trxm_problem p = trxm_view(ctx, prec, solve, g, alpha);
    size_t es = prec == TSL_DOUBLE ? sizeof(double) : sizeof(float);
    size_t ka = p.left ? p.m : p.n;
    if ((s = tsl__check_matrix_buffer(ctx, fn, "B", b, p.m, p.n, p.ldb, es)) != TSL_OK) return s;
    if (alpha != 0.0 &&
        (s = tsl__check_matrix_buffer(ctx, fn, "A", a, ka, ka, p.lda, es)) != TSL_OK)
        return s;
    p.b = b->mem;
    p.a = alpha != 0.0 ? a->mem : b->mem;
    s = trxm_run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

/* ---- SYMM ------------------------------------------------------------------------------------
 * Row-major C (m x n) = alpha S B + beta C (left, S m x m) or alpha B S + beta C (right, S n x n),
 * S symmetric with one triangle stored in A. l3_symm_expand writes S whole into a workspace,
 * reading the stored triangle only; then one GEMM does all the flops. */
typedef struct {
    int dbl, prec, left, lower;
    size_t m, n;
    double alpha, beta;
    cl_mem a, b, c;
    size_t a_off, lda, b_off, ldb, c_off, ldc;
} symm_problem;

static tsl_status symm_run(tsl_context *ctx, const symm_problem *p)
{
    size_t ka = p->left ? p->m : p->n, es = p->dbl ? sizeof(double) : sizeof(float);
    if (p->alpha == 0.0) /* C = beta C: GEMM with alpha 0 reads neither A nor B */
        return tsl__gemm_mem(ctx, p->prec, TSL_NO_TRANS, TSL_NO_TRANS, p->m, p->n, ka, 0.0, p->c,
                             0, 1, p->c, 0, 1, p->beta, p->c, p->c_off, p->ldc);
    cl_mem sm;
    cl_kernel k;
    tsl_status s = tsl__workspace(ctx, 5, ka * ka * es, &sm);
    if (s == TSL_OK) s = tsl__l3_kernel(ctx, p->dbl, "l3_symm_expand", "", &k);
    if (s != TSL_OK) return s;
    int n = (int)ka, lower = p->lower, lda = (int)p->lda;
    cl_long a_off = (cl_long)p->a_off;
    tsl__arg args[] = {{sizeof n, &n},         {sizeof lower, &lower}, {sizeof(cl_mem), &p->a},
                       {sizeof a_off, &a_off}, {sizeof lda, &lda},     {sizeof(cl_mem), &sm}};
    if ((s = launch2d(ctx, k, "symm expansion", args, 6, ka, ka)) != TSL_OK) return s;
    if (p->left)
        return tsl__gemm_mem(ctx, p->prec, TSL_NO_TRANS, TSL_NO_TRANS, p->m, p->n, p->m, p->alpha,
                             sm, 0, ka, p->b, p->b_off, p->ldb, p->beta, p->c, p->c_off, p->ldc);
    return tsl__gemm_mem(ctx, p->prec, TSL_NO_TRANS, TSL_NO_TRANS, p->m, p->n, p->n, p->alpha,
                         p->b, p->b_off, p->ldb, sm, 0, ka, p->beta, p->c, p->c_off, p->ldc);
}

typedef struct {
    tsl_layout layout;
    tsl_side side;
    tsl_uplo uplo;
    size_t m, n, lda, ldb, ldc;
} symm_args;

static tsl_status symm_check_args(tsl_context *ctx, const char *fn, const symm_args *g)
{
    tsl_status s;
    if ((s = check_layout(ctx, fn, g->layout)) || (s = check_side(ctx, fn, g->side)) ||
        (s = check_uplo(ctx, fn, g->uplo)) || (s = tsl__l3_check_size(ctx, fn, "m", g->m)) ||
        (s = tsl__l3_check_size(ctx, fn, "n", g->n)))
        return s;
    size_t ka = g->side == TSL_LEFT ? g->m : g->n;
    size_t line = g->layout == TSL_ROW_MAJOR ? g->n : g->m;
    if ((s = tsl__l3_check_ld(ctx, fn, "lda", g->lda, ka, "A")) ||
        (s = tsl__l3_check_ld(ctx, fn, "ldb", g->ldb, line, "B")))
        return s;
    return tsl__l3_check_ld(ctx, fn, "ldc", g->ldc, line, "C");
}

static symm_problem symm_view(int prec, const symm_args *g, double alpha, double beta)
{
    int col = g->layout == TSL_COL_MAJOR;
    symm_problem p = {.dbl = prec == TSL_DOUBLE,
                      .prec = prec,
                      .left = (g->side == TSL_LEFT) != col,
                      .lower = (g->uplo == TSL_LOWER) != col,
                      .m = col ? g->n : g->m,
                      .n = col ? g->m : g->n,
                      .alpha = alpha,
                      .beta = beta,
                      .lda = g->lda,
                      .ldb = g->ldb,
                      .ldc = g->ldc};
    return p;
}

static tsl_status symm_host(tsl_context *ctx, const char *fn, int prec, const symm_args *g,
                            double alpha, const void *a, const void *b, double beta, void *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = symm_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    if (g->m == 0 || g->n == 0 || (alpha == 0.0 && beta == 1.0)) return TSL_OK;
    if (!c) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: C is NULL", fn);
    if (alpha != 0.0 && (!a || !b))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, a ? "B" : "A");
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    symm_problem p = symm_view(prec, g, alpha, beta);
    size_t es = prec == TSL_DOUBLE ? sizeof(double) : sizeof(float);
    size_t ka = p.left ? p.m : p.n;
    if (tsl__mul_overflows(ka, ka) || tsl__mul_overflows(ka * ka, es) ||
        tsl__mul_overflows(p.m, p.n) || tsl__mul_overflows(p.m * p.n, es))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: matrix byte counts overflow", fn);
    if (alpha != 0.0) {
        if ((s = upload_matrix(ctx, 0, es, a, ka, ka, g->lda, p.lower ? 1 : 2, 0, &p.a)) ||
            (s = upload_matrix(ctx, 1, es, b, p.m, p.n, g->ldb, 0, 0, &p.b)))
            return s;
        p.lda = ka;
        p.ldb = p.n;
    }
    if (beta != 0.0)
        s = upload_matrix(ctx, 2, es, c, p.m, p.n, g->ldc, 0, 0, &p.c);
    else
        s = tsl__workspace(ctx, 2, p.m * p.n * es, &p.c);
    if (s != TSL_OK) return s;
    p.ldc = p.n;
    if (alpha == 0.0) p.a = p.b = p.c;
    s = symm_run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__download_rect(ctx, p.c, c, p.m, p.n * es, g->ldc * es)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

static tsl_status symm_buf(tsl_context *ctx, const char *fn, int prec, const symm_args *g,
                           double alpha, const tsl_buffer *a, const tsl_buffer *b, double beta,
                           tsl_buffer *c)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = symm_check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    if (g->m == 0 || g->n == 0 || (alpha == 0.0 && beta == 1.0)) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, prec == TSL_DOUBLE, fn)) != TSL_OK) return s;
    symm_problem p = symm_view(prec, g, alpha, beta);
    size_t es = prec == TSL_DOUBLE ? sizeof(double) : sizeof(float);
    size_t ka = p.left ? p.m : p.n;
    if ((s = tsl__check_matrix_buffer(ctx, fn, "C", c, p.m, p.n, p.ldc, es)) != TSL_OK) return s;
    if (alpha != 0.0 && ((s = tsl__check_matrix_buffer(ctx, fn, "A", a, ka, ka, p.lda, es)) ||
                         (s = tsl__check_matrix_buffer(ctx, fn, "B", b, p.m, p.n, p.ldb, es))))
        return s;
    p.c = c->mem;
    p.a = alpha != 0.0 ? a->mem : c->mem;
    p.b = alpha != 0.0 ? b->mem : c->mem;
    s = symm_run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

/* ---- the public entry points ----------------------------------------------------------------- */

#define SYMM_ARGS {layout, side, uplo, m, n, lda, ldb, ldc}
tsl_status tsl_ssymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, float alpha, const float *a, size_t lda, const float *b, size_t ldb,
                     float beta, float *c, size_t ldc)
{
    symm_args g = SYMM_ARGS;
    return symm_host(ctx, "tsl_ssymm", TSL_SINGLE, &g, alpha, a, b, beta, c);
}
tsl_status tsl_dsymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo, size_t m,
                     size_t n, double alpha, const double *a, size_t lda, const double *b,
                     size_t ldb, double beta, double *c, size_t ldc)
{
    symm_args g = SYMM_ARGS;
    return symm_host(ctx, "tsl_dsymm", TSL_DOUBLE, &g, alpha, a, b, beta, c);
}
tsl_status tsl_ssymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, float alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    symm_args g = SYMM_ARGS;
    return symm_buf(ctx, "tsl_ssymm_buf", TSL_SINGLE, &g, alpha, a, b, beta, c);
}
tsl_status tsl_dsymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         size_t m, size_t n, double alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, double beta, tsl_buffer *c, size_t ldc)
{
    symm_args g = SYMM_ARGS;
    return symm_buf(ctx, "tsl_dsymm_buf", TSL_DOUBLE, &g, alpha, a, b, beta, c);
}
#undef SYMM_ARGS

#define SYRK_ARGS(two) {layout, uplo, trans, n, k, lda, ldb, ldc, two}
tsl_status tsl_ssyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                     size_t n, size_t k, float alpha, const float *a, size_t lda, float beta,
                     float *c, size_t ldc)
{
    size_t ldb = 0;
    syrk_args g = SYRK_ARGS(0);
    return syrk_host(ctx, "tsl_ssyrk", TSL_SINGLE, &g, alpha, a, NULL, beta, c);
}
tsl_status tsl_dsyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                     size_t n, size_t k, double alpha, const double *a, size_t lda, double beta,
                     double *c, size_t ldc)
{
    size_t ldb = 0;
    syrk_args g = SYRK_ARGS(0);
    return syrk_host(ctx, "tsl_dsyrk", TSL_DOUBLE, &g, alpha, a, NULL, beta, c);
}
tsl_status tsl_ssyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                         float beta, tsl_buffer *c, size_t ldc)
{
    size_t ldb = 0;
    syrk_args g = SYRK_ARGS(0);
    return syrk_buf(ctx, "tsl_ssyrk_buf", TSL_SINGLE, &g, alpha, a, NULL, beta, c);
}
tsl_status tsl_dsyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                         size_t n, size_t k, double alpha, const tsl_buffer *a, size_t lda,
                         double beta, tsl_buffer *c, size_t ldc)
{
    size_t ldb = 0;
    syrk_args g = SYRK_ARGS(0);
    return syrk_buf(ctx, "tsl_dsyrk_buf", TSL_DOUBLE, &g, alpha, a, NULL, beta, c);
}
tsl_status tsl_ssyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                      size_t n, size_t k, float alpha, const float *a, size_t lda, const float *b,
                      size_t ldb, float beta, float *c, size_t ldc)
{
    syrk_args g = SYRK_ARGS(1);
    return syrk_host(ctx, "tsl_ssyr2k", TSL_SINGLE, &g, alpha, a, b, beta, c);
}
tsl_status tsl_dsyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                      size_t n, size_t k, double alpha, const double *a, size_t lda,
                      const double *b, size_t ldb, double beta, double *c, size_t ldc)
{
    syrk_args g = SYRK_ARGS(1);
    return syrk_host(ctx, "tsl_dsyr2k", TSL_DOUBLE, &g, alpha, a, b, beta, c);
}
tsl_status tsl_ssyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = SYRK_ARGS(1);
    return syrk_buf(ctx, "tsl_ssyr2k_buf", TSL_SINGLE, &g, alpha, a, b, beta, c);
}
tsl_status tsl_dsyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, tsl_trans trans,
                          size_t n, size_t k, double alpha, const tsl_buffer *a, size_t lda,
                          const tsl_buffer *b, size_t ldb, double beta, tsl_buffer *c, size_t ldc)
{
    syrk_args g = SYRK_ARGS(1);
    return syrk_buf(ctx, "tsl_dsyr2k_buf", TSL_DOUBLE, &g, alpha, a, b, beta, c);
}
#undef SYRK_ARGS

#define TRXM_ARGS {layout, side, uplo, transa, diag, m, n, lda, ldb}
tsl_status tsl_strmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, float alpha,
                     const float *a, size_t lda, float *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return trxm_host(ctx, "tsl_strmm", TSL_SINGLE, 0, &g, alpha, a, b);
}
tsl_status tsl_dtrmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, double alpha,
                     const double *a, size_t lda, double *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return trxm_host(ctx, "tsl_dtrmm", TSL_DOUBLE, 0, &g, alpha, a, b);
}
tsl_status tsl_strsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, float alpha,
                     const float *a, size_t lda, float *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return trxm_host(ctx, "tsl_strsm", TSL_SINGLE, 1, &g, alpha, a, b);
}
tsl_status tsl_dtrsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                     tsl_trans transa, tsl_diag diag, size_t m, size_t n, double alpha,
                     const double *a, size_t lda, double *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return trxm_host(ctx, "tsl_dtrsm", TSL_DOUBLE, 1, &g, alpha, a, b);
}
tsl_status tsl_strmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, float alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return trxm_buf(ctx, "tsl_strmm_buf", TSL_SINGLE, 0, &g, alpha, a, b);
}
tsl_status tsl_dtrmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, double alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return trxm_buf(ctx, "tsl_dtrmm_buf", TSL_DOUBLE, 0, &g, alpha, a, b);
}
tsl_status tsl_strsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, float alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return trxm_buf(ctx, "tsl_strsm_buf", TSL_SINGLE, 1, &g, alpha, a, b);
}
tsl_status tsl_dtrsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                         tsl_trans transa, tsl_diag diag, size_t m, size_t n, double alpha,
                         const tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb)
{
    trxm_args g = TRXM_ARGS;
    return trxm_buf(ctx, "tsl_dtrsm_buf", TSL_DOUBLE, 1, &g, alpha, a, b);
}
#undef TRXM_ARGS
