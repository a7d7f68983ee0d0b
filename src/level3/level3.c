/* level3.c: the Level-3 BLAS routines SYMM, SYRK, SYR2K, TRMM and TRSM (single and double, host
 * pointers and device buffers, CBLAS semantics), as blocked algorithms whose bulk flops run in the
 * tuned GEMM (tsl__gemm_mem: tiled2d with its pack, split k and peeled edges, on sub-blocks at
 * element offsets) and whose diagonal blocks and triangles go through the small kernels of
 * src/kernels/level3.cl. docs/level3.md explains the algorithms, their flop counts and limits.
 * This file holds what the routines share: the variant tables and options, the small kernels'
 * launches, the argument checks and the host staging; the routines themselves are in
 * level3_sym.c (SYMM, SYRK, SYR2K) and level3_tri.c (TRMM, TRSM).
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
 * Workspaces (tsl__workspace slots, ops.h): TSL__WS_A, _B, _C the host-pointer calls' operands;
 * TSL__WS_W the product W of TRMM/TRSM and SYMM's expanded matrix; TSL__WS_BLOCKS the diagonal
 * blocks. The GEMMs they run take the pre-passes' slots (TSL__WS_PACK_A, _PACK_B, _SPLIT_K). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "level3/level3.h"

/* ---- the variant tables (one per routine; the GEMM under them is the context's gemm variant) - */

typedef struct {
    const char *name;
    l3_kind kind;
} l3_variant;

static const l3_variant syrk_variants[] = {{"tri", L3_TRI}, {"recursive", L3_RECURSIVE}};
static const l3_variant trmm_variants[] = {{"tri", L3_TRI}, {"blocked", L3_BLOCKED}};
static const l3_variant trsm_variants[] = {
    {"inverse", L3_INVERSE},
    {"inverse_rec", L3_INVERSE_REC},
    {"inverse_leaf", L3_INVERSE_LEAF},
    {"blocked", L3_BLOCKED}};
static const l3_variant symm_variants[] = {{"expand", L3_EXPAND}};
static const tsl__auto_row syrk_auto[] = {{NULL, "tri"}};
static const tsl__auto_row trmm_auto[] = {{NULL, "tri"}};
/* TRSM: inverse_leaf on GPUs: the triangle in recursive halves down to leaves (their sizes are
 * the device's trsm entry: tsl__l3_trsm_block), each solved by its explicit inverse in one
 * launch, the inverses fused, B in parts on queues of their own and no copies: few, large
 * launches that keep a GPU's work-groups busy where a substitution's many small steps leave it
 * idle (on the H100 ahead of or level with inverse_rec and inverse at every size from 64:
 * docs/level3.md). Blocked elsewhere: on a CPU the inverse variants' extra batched products cost
 * more than the diagonal GEMMs they replace. */
static const tsl__auto_row trsm_auto[] = {{"gpu", "inverse_leaf"}, {NULL, "blocked"}};
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
l3_kind tsl__l3_variant_kind(tsl_context *ctx, const char *op)
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

/* An option's value within [lo, hi], else TSL_ERR_INVALID_ARG naming it. */
static tsl_status in_range(tsl_context *ctx, const char *name, long value, long lo, long hi)
{
    if (value < lo || value > hi)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "option %s = %ld is outside %ld to %ld", name,
                         value, lo, hi);
    return TSL_OK;
}

/* Option "block": the block size of the blocked algorithms (diagonal blocks of TRMM/TRSM, the
 * leaves of SYRK/SYR2K's recursion). Default: tsl__l3_block. */
static tsl_status block_option(tsl_context *ctx, const char *name, long value)
{
    if (strcmp(name, "block") != 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "unknown Level-3 option '%s' (options: block, 1 to 4096)", name);
    return in_range(ctx, name, value, 1, 4096);
}

/* TRSM's options: "block"; "inv_block", the largest diagonal block l3_tri_inv inverts itself
 * (1 to 4096, default 64): larger ones are built from those by recursive doubling (tri_inverses);
 * "streams", the parts of B inverse_leaf solves on queues of their own (1 to 4; default: the
 * trsm entry's PARTS where B's other dimension reaches PARTS_FROM, else 1: tsl__l3_trsm_parts); "inv_fuse",
 * the largest inverses inverse_leaf builds in one launch from blocks of 64 (0 to 4096; below
 * 128: none, a launch a step; default 256 on NVIDIA's GPUs, none elsewhere: level3_inv.c). */
static tsl_status trsm_option(tsl_context *ctx, const char *name, long value)
{
    static const struct {
        const char *name;
        long lo, hi;
    } opts[] = {{"inv_block", 1, 4096},
                {"streams", 1, 1 + TSL__SIDE_QUEUES},
                {"inv_fuse", 0, 4096}};
    if (strcmp(name, "block") == 0) return block_option(ctx, name, value);
    for (size_t i = 0; i < sizeof opts / sizeof opts[0]; ++i)
        if (strcmp(name, opts[i].name) == 0)
            return in_range(ctx, name, value, opts[i].lo, opts[i].hi);
    return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                     "unknown trsm option '%s' (options: block, inv_block, streams, inv_fuse)",
                     name);
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
 * of k = 256 keep the tiled kernel near its peak: 4096 x 4096 x 256 at 0.9x of 4096^3 on an
 * H200) and 128 elsewhere (PoCL's tiled2d tiles are 128 rows). */
size_t tsl__l3_block(const tsl_context *ctx, const char *op)
{
    long dflt = strcmp(ctx->info.type, "gpu") == 0 ? 256 : 128;
    return (size_t)tsl__context_option(ctx, op, "block", dflt);
}

/* ---- TRSM's tuning: the database's "trsm" entries ------------------------------------------ */

/* The fields of a trsm entry (docs/tuning.md, "Lookup order"), as
 *     type=gpu trsm any any NB=128,NB_LARGE=256,NB_LARGE_FROM=4097,LEAF=256,...
 * and their built-in values, which serve where no entry applies and for fields an entry leaves
 * out (as an explicit GEMM configuration's parameters take tiled2d's fallback): one block size,
 * one leaf size and one part whatever the size, the portable choice, and the own-class rule,
 * which only matters where GEMM's entries for the two classes differ. A threshold (..._FROM,
 * OWN_PART) of 0 turns its rule off.
 *  - NB: the diagonal block of blocked, inverse and inverse_rec; NB_LARGE for triangles of at
 *    least NB_LARGE_FROM rows. Small blocks give the small updates more work-groups; past some
 *    size the updates fill the device anyway and fewer, larger steps win.
 *  - LEAF: inverse_leaf's leaf; LEAF_MID from LEAF_MID_FROM rows, LEAF_LARGE from
 *    LEAF_LARGE_FROM. Each leaf is one launch and one inverse: large triangles want few, large
 *    leaves, small ones enough leaves for the updates between them to fill the device.
 *  - PARTS: the parts of B's other dimension inverse_leaf solves on queues of their own, where
 *    that dimension is at least PARTS_FROM (else one): one part's launches fill the device where
 *    another's leave it idle, which pays only once each part is wide.
 *  - OWN_PART, OWN_B: on the left, a part of at least OWN_PART columns (0: never) of a B of at
 *    least OWN_B keeps its leaves in their shape's size class instead of GEMM's class few
 *    (gemm.c, mode_waves): wide enough, the leaves offer whole waves of the class's larger tiles,
 *    or run beside the other parts' updates, and the class's better rate wins; a narrower part's
 *    leaves are a single wave, which the few class's smaller tiles spread wider. */
enum {
    TRSM_NB,
    TRSM_NB_LARGE,
    TRSM_NB_LARGE_FROM,
    TRSM_LEAF,
    TRSM_LEAF_MID,
    TRSM_LEAF_MID_FROM,
    TRSM_LEAF_LARGE,
    TRSM_LEAF_LARGE_FROM,
    TRSM_PARTS,
    TRSM_PARTS_FROM,
    TRSM_OWN_PART,
    TRSM_OWN_B,
    TRSM_NFIELDS
};
static const tsl__field trsm_fields[TRSM_NFIELDS] = {
    [TRSM_NB] = {"NB", 1, 4096},
    [TRSM_NB_LARGE] = {"NB_LARGE", 1, 4096},
    [TRSM_NB_LARGE_FROM] = {"NB_LARGE_FROM", 0, INT_MAX},
    [TRSM_LEAF] = {"LEAF", 1, 4096},
    [TRSM_LEAF_MID] = {"LEAF_MID", 1, 4096},
    [TRSM_LEAF_MID_FROM] = {"LEAF_MID_FROM", 0, INT_MAX},
    [TRSM_LEAF_LARGE] = {"LEAF_LARGE", 1, 4096},
    [TRSM_LEAF_LARGE_FROM] = {"LEAF_LARGE_FROM", 0, INT_MAX},
    [TRSM_PARTS] = {"PARTS", 1, 1 + TSL__SIDE_QUEUES},
    [TRSM_PARTS_FROM] = {"PARTS_FROM", 0, INT_MAX},
    [TRSM_OWN_PART] = {"OWN_PART", 0, INT_MAX},
    [TRSM_OWN_B] = {"OWN_B", 0, INT_MAX}};
static const long trsm_builtin[TRSM_NFIELDS] = {
    [TRSM_NB] = 128,          [TRSM_NB_LARGE] = 256,  [TRSM_NB_LARGE_FROM] = 0,
    [TRSM_LEAF] = 256,        [TRSM_LEAF_MID] = 512,  [TRSM_LEAF_MID_FROM] = 0,
    [TRSM_LEAF_LARGE] = 1024, [TRSM_LEAF_LARGE_FROM] = 0,
    [TRSM_PARTS] = 1,         [TRSM_PARTS_FROM] = 0,
    [TRSM_OWN_PART] = 4096,   [TRSM_OWN_B] = 8192};

/* The values for this device and precision: the database's trsm entry over the built-ins. An
 * entry that does not parse is reported once (tsl_context_warning) and the built-ins serve. */
static void trsm_tuning(tsl_context *ctx, int dbl, long *v)
{
    memcpy(v, trsm_builtin, sizeof trsm_builtin);
    const char *src = NULL, *cfg = tsl__tuning_find(ctx, "trsm", dbl ? 1 : 0, "any", NULL, &src);
    char why[200];
    long parsed[TRSM_NFIELDS];
    memcpy(parsed, trsm_builtin, sizeof trsm_builtin);
    if (!cfg) return;
    if (tsl__fields_parse(cfg, trsm_fields, TRSM_NFIELDS, parsed, why, sizeof why) != 0) {
        if (!strstr(tsl_context_warning(ctx), src))
            tsl__warn(ctx, "trsm entry ignored (%s): %s", src, why);
        return;
    }
    memcpy(v, parsed, sizeof parsed);
}

/* x reaches threshold `from` (0: never) */
static int reaches(size_t x, long from)
{
    return from > 0 && x >= (size_t)from;
}

size_t tsl__l3_trsm_block(tsl_context *ctx, int dbl, size_t ka, l3_kind kind)
{
    long v[TRSM_NFIELDS];
    trsm_tuning(ctx, dbl, v);
    long dflt = reaches(ka, v[TRSM_NB_LARGE_FROM]) ? v[TRSM_NB_LARGE] : v[TRSM_NB];
    if (kind == L3_INVERSE_LEAF)
        dflt = reaches(ka, v[TRSM_LEAF_LARGE_FROM]) ? v[TRSM_LEAF_LARGE]
               : reaches(ka, v[TRSM_LEAF_MID_FROM]) ? v[TRSM_LEAF_MID]
                                                     : v[TRSM_LEAF];
    return (size_t)tsl__context_option(ctx, "trsm", "block", dflt);
}

size_t tsl__l3_trsm_parts(tsl_context *ctx, int dbl, size_t other)
{
    long v[TRSM_NFIELDS];
    trsm_tuning(ctx, dbl, v);
    long want = reaches(other, v[TRSM_PARTS_FROM]) ? v[TRSM_PARTS] : 1;
    want = tsl__context_option(ctx, "trsm", "streams", want);
    return want < 1 ? 1 : (size_t)want;
}

int tsl__l3_trsm_own(tsl_context *ctx, int dbl, size_t part, size_t other)
{
    long v[TRSM_NFIELDS];
    trsm_tuning(ctx, dbl, v);
    return reaches(part, v[TRSM_OWN_PART]) && other >= (size_t)v[TRSM_OWN_B];
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

size_t tsl__l3_round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* A 2D launch over cols x rows in 16 x 16 groups (or the largest square the kernel allows). */
tsl_status tsl__l3_launch2d(tsl_context *ctx, cl_kernel k, const char *what, const tsl__arg *args,
                            int nargs, size_t cols, size_t rows)
{
    size_t e = 16, max_wg = tsl__kernel_max_wg(ctx, k);
    while (e > 1 && e * e > max_wg) e /= 2;
    size_t local[2] = {e, e}, global[2] = {tsl__l3_round_up(cols, e), tsl__l3_round_up(rows, e)};
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
    return tsl__l3_launch2d(ctx, k, "level-3 scale", args, 7, cols, rows);
}

tsl_status tsl__l3_copy(tsl_context *ctx, int dbl, size_t rows, size_t cols, cl_mem src,
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
    return tsl__l3_launch2d(ctx, k, "level-3 copy", args, 8, cols, rows);
}

/* ---- argument checks shared by the routines -------------------------------------------------- */

static size_t max1(size_t x)
{
    return x ? x : 1;
}

tsl_status tsl__l3_check_layout(tsl_context *ctx, const char *fn, tsl_layout l)
{
    if (l != TSL_ROW_MAJOR && l != TSL_COL_MAJOR)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: layout %d is neither TSL_ROW_MAJOR nor TSL_COL_MAJOR", fn, (int)l);
    return TSL_OK;
}
tsl_status tsl__l3_check_uplo(tsl_context *ctx, const char *fn, tsl_uplo u)
{
    if (u != TSL_UPPER && u != TSL_LOWER)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: uplo %d is neither TSL_UPPER nor TSL_LOWER", fn, (int)u);
    return TSL_OK;
}
tsl_status tsl__l3_check_side(tsl_context *ctx, const char *fn, tsl_side sd)
{
    if (sd != TSL_LEFT && sd != TSL_RIGHT)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: side %d is neither TSL_LEFT nor TSL_RIGHT", fn, (int)sd);
    return TSL_OK;
}
tsl_status tsl__l3_check_diag(tsl_context *ctx, const char *fn, tsl_diag d)
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
tsl_status tsl__l3_upload_matrix(tsl_context *ctx, int slot, size_t es, const void *host,
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

/* The reverse for a square n x n result: the lower (tri 1) or upper (2) triangle only, the other
 * one left as the caller has it. By bands of TRI_BAND rows: the band's rectangle beside its
 * diagonal block goes straight into the caller's rows (one rectangular read), the diagonal block
 * through a staging copy of TRI_BAND^2 elements, of which the triangle's part is copied. Half the
 * matrix crosses the bus, and no staging copy of the whole matrix is allocated and written; two
 * reads a band (512 at n = 16384). The band is small enough that the tests' odd shapes (up to
 * 200; SYRK's host calls up to 127) take two or more bands in both triangles. */
enum { TRI_BAND = 64 };
tsl_status tsl__l3_download_triangle(tsl_context *ctx, size_t es, cl_mem mem, void *host, size_t n,
                                     size_t ld, int tri)
{
    size_t band = n < TRI_BAND ? n : TRI_BAND;
    unsigned char *stage = tsl__malloc(max1(band * band) * es), *dst = host;
    if (!stage)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "level-3: host staging of %zu bytes",
                         band * band * es);
    tsl_status s = TSL_OK;
    for (size_t i0 = 0; s == TSL_OK && i0 < n; i0 += band) {
        size_t ib = n - i0 < band ? n - i0 : band;
        /* the rectangle: columns 0 .. i0 (lower) or i0 + ib .. n (upper) of rows i0 .. i0 + ib */
        size_t c0 = tri == 1 ? 0 : i0 + ib, c1 = tri == 1 ? i0 : n;
        if (c1 > c0)
            s = tsl__download_block(ctx, mem, i0, c0 * es, n * es, dst + (i0 * ld + c0) * es,
                                    ld * es, ib, (c1 - c0) * es);
        if (s == TSL_OK)
            s = tsl__download_block(ctx, mem, i0, i0 * es, n * es, stage, ib * es, ib, ib * es);
        for (size_t r = 0; s == TSL_OK && r < ib; ++r) {
            size_t j0 = tri == 1 ? 0 : r, j1 = tri == 1 ? r + 1 : ib;
            memcpy(dst + ((i0 + r) * ld + i0 + j0) * es, stage + (r * ib + j0) * es,
                   (j1 - j0) * es);
        }
    }
    tsl__free(stage);
    return s;
}
