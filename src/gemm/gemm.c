/* gemm.c: GEMM, C = alpha op(A) op(B) + beta C, with full CBLAS semantics. This file keeps the
 * variant table (a variant is a row of data: a kernel and its compile-time parameters), chooses
 * and checks a call's variant, runs the row-major problem the kernels compute (and the Level-3
 * modes' entry points); the public calls and their argument checks are in gemm_api.c and
 * gemm_buf.c, the kernels' builds and launch sizes in gemm_kernel.c.
 * tiled2d's parameters are in gemm_tiled2d_config.c, its search space in gemm_tiled2d_space.c and
 * its run (pack, split k, peeled edges) in gemm_tiled2d.c.
 *
 * How problems reach the kernels: a column-major C = op(A) op(B) is the row-major
 * C^T = op(B)^T op(A)^T on the same memory, so column-major calls swap A and B (and m and n).
 * The ladder kernels take each matrix through a row and a column stride, so a transpose is just
 * a pair of strides. tiled2d needs dense, tile-multiple, non-transposed operands: a pack
 * pre-pass (O(mk + kn), against the O(mnk) product) builds them when the caller's do not
 * already qualify; C is never copied, since the kernel guards its stores.
 *
 * 16-bit storage (tsl_hgemm: binary16, tsl_bgemm: bfloat16): the same ladder kernels built with
 * -DSTORAGE_HALF=1 or -DSTORAGE_BF16=1 read and write 16-bit matrices and compute in float;
 * tiled2d runs them only in its tensor-core configurations (MMA=4), as it runs single precision
 * in the TF32 and 3xTF32 math modes only in MMA=5 ones. Each call has a kind (GK_*, the storage
 * and the math mode) by which the variant is chosen and checked. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "gemm/gemm_internal.h"
#include "pipeline/gemm_pipeline.h"
#include "ops/ops.h"

/* The reference path first, then each step of the ladder (BLIS: reference first, then override). */
static const gemm_variant variants[] = {
    {"naive", KIND_NAIVE, "gemm_naive", 0},
    {"tiled_2x2", KIND_TILED, "gemm_tiled", 2}, /* 000's block-size sweep starts at 2 */
    {"tiled_4x4", KIND_TILED, "gemm_tiled", 4},
    {"tiled_8x8", KIND_TILED, "gemm_tiled", 8},
    {"tiled_16x16", KIND_TILED, "gemm_tiled", 16},
    {"tiled_32x32", KIND_TILED, "gemm_tiled", 32},
    {"regblock_2", KIND_REGBLOCK, "gemm_regblock", 2},
    {"regblock_4", KIND_REGBLOCK, "gemm_regblock", 4},
    {"tiled2d", KIND_TILED2D, "gemm_tiled2d", 0},
};

/* The tuning database's size classes: by the size of C, which decides how many work-groups a
 * problem offers the device. */
static const char *gemm_class(size_t m, size_t n, size_t k)
{
    (void)k;
    if ((double)m * (double)n <= 1048576.0) return "small";
    if (m <= 256 || n <= 256) return "skinny";
    return "large";
}

/* What `auto` stands for when the tuning database has no gemm entry for the device. */
static const tsl__auto_row auto_table[] = {
    {"gpu", "tiled2d"}, {"cpu", "tiled2d"}, {NULL, "tiled2d"}};


static const char *variant_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(variants), i);
}

/* The database's entries apply by size class, and those measured on some shapes only near them
 * (src/tune/tune.h); no shape (NULL) is a large problem, where only entries for the whole class
 * apply: what a variant check without a problem validates. */
static const char *shape_class(const tsl__shape *shape)
{
    return shape ? gemm_class(shape->m, shape->n, shape->k) : "large";
}

/* The names of the kinds, for messages. */
static const char *kind_name(int kind)
{
    static const char *const names[] = {"single", "double", "half", "bfloat16",
                                        "single (TF32 math)", "single (3xTF32 math)"};
    return kind >= 0 && kind <= GK_3XTF32 ? names[kind] : "?";
}

static tsl_status choose_named(tsl_context *ctx, const char *variant, int kind,
                               const tsl__shape *shape, int use_db, gemm_choice *out)
{
    char base[48];
    const char *colon = strchr(variant, ':');
    size_t blen = colon ? (size_t)(colon - variant) : strlen(variant);
    snprintf(base, sizeof base, "%.*s", (int)(blen < sizeof base ? blen : sizeof base - 1),
             variant);
    out->v = tsl__find_variant(ctx, "gemm", TSL__TABLE(variants), auto_table, base);
    if (!out->v) return TSL_ERR_INVALID_ARG;
    out->tp = tsl__tiled2d_fallback;
    if (out->v->kind != KIND_TILED2D) {
        if (colon)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "gemm variant %s takes no parameters (only tiled2d does)", base);
        if (GK_TF32ISH(kind))
            return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                             "gemm variant %s computes in FP32: single precision in %s math runs "
                             "on tiled2d's TF32 tensor-core configurations only (auto, tiled2d, or "
                             "tiled2d:...,MMA=5)",
                             base, kind == GK_TF32 ? "TF32" : "3xTF32");
        return TSL_OK;
    }
    out->tp = tsl__tiled2d_overlay_base(ctx, kind, colon != NULL);
    char why[256];
    if (colon) {
        if (tsl__space_parse(&tsl__tiled2d_space, variant, out->tp.v, why, sizeof why) != 0)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "gemm variant '%s': %s", variant, why);
    } else if (use_db) {
        const char *src, *db = tsl__tuning_find(ctx, "gemm", kind, shape_class(shape), shape, &src);
        tiled2d_params t = tsl__tiled2d_fallback;
        if (db && strncmp(db, "tiled2d:", 8) == 0) {
            if (tsl__space_parse(&tsl__tiled2d_space, db, t.v, why, sizeof why) == 0 &&
                tsl__tiled2d_runs(ctx, kind, t.v))
                out->tp = t;
            else
                tsl__warn(ctx, "gemm: %s names '%s', which cannot run here: using the built-in "
                          "tiled2d parameters", src, db);
        }
    }
    if (!tsl__tiled2d_runs(ctx, kind, out->tp.v)) {
        char cfg[256];
        tsl__space_format(&tsl__tiled2d_space, out->tp.v, cfg, sizeof cfg);
        const char *rule = tsl__tiled2d_kind_rule(kind, out->tp.v);
        if (*rule)
            return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "gemm %s at %s precision: %s", cfg,
                             kind_name(kind), rule);
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "gemm %s does not fit device %s at %s precision (work-group size, "
                         "local memory or the kernel's divisibility rules)",
                         cfg, ctx->info.name, kind_name(kind));
    }
    return TSL_OK;
}

static tsl_status variant_fits(tsl_context *ctx, const gemm_variant *v);

/* What `auto` stands for with 16-bit storage where the database has no entry for it (its entries
 * for single and double are FMA configurations, which have no 16-bit build) and the device has no
 * 16-bit tensor-core instruction (where it has one, tiled2d's tensor-core configuration): the
 * ladder variant that was fastest with half storage on each device type (docs/gemm.md, "Half
 * storage"). A device whose work-groups are too small for the pick runs naive. */
static const tsl__auto_row half_auto_table[] = {
    {"gpu", "regblock_4"}, {"cpu", "regblock_4"}, {NULL, "regblock_2"}};

/* The variant of a call of this kind (GK_*). auto: the database's entry for the kind and the
 * problem's size class; else for single and double auto_table's pick, for 16-bit storage
 * half_auto_table's, for TF32 and 3xTF32 tiled2d's built-in TF32 configuration (no other kernel
 * computes them: auto never changes the math the caller asked for). */
static tsl_status choose(tsl_context *ctx, const char *variant, int kind, const tsl__shape *shape,
                         gemm_choice *out)
{
    if (strcmp(variant, "auto") != 0) return choose_named(ctx, variant, kind, shape, 1, out);
    const char *src, *db = tsl__tuning_find(ctx, "gemm", kind, shape_class(shape), shape, &src);
    if (db) {
        char saved[sizeof ctx->error];
        snprintf(saved, sizeof saved, "%s", ctx->error);
        if (choose_named(ctx, db, kind, shape, 0, out) == TSL_OK) return TSL_OK;
        tsl__warn(ctx, "gemm: %s names '%s', which cannot run here (%s): using the built-in "
                  "choice", src, db, ctx->error);
        snprintf(ctx->error, sizeof ctx->error, "%s", saved);
    }
    /* 16-bit storage on a device with the 16-bit tensor-core instruction: tiled2d's tensor-core
     * configuration (the same arithmetic as the FMA ladder's: products of 16-bit values, exact
     * in FP32, summed in FP32) */
    if (GK_16BIT(kind) && tsl__tiled2d_native_mma(ctx, 4))
        return choose_named(ctx, "tiled2d", kind, shape, 0, out);
    if (GK_16BIT(kind)) {
        tsl_status s =
            choose_named(ctx, tsl__auto_pick(ctx, half_auto_table), kind, shape, 0, out);
        if (s == TSL_OK && variant_fits(ctx, out->v) != TSL_OK) {
            tsl__clear_error(ctx);
            out->v = &variants[0];
        }
        return s;
    }
    if (GK_TF32ISH(kind)) return choose_named(ctx, "tiled2d", kind, shape, 0, out);
    return choose_named(ctx, tsl__auto_pick(ctx, auto_table), kind, shape, 0, out);
}

/* Work-group size and local memory a ladder variant needs, against what the device offers
 * (tiled2d's parameters were checked by choose). */
static tsl_status variant_fits(tsl_context *ctx, const gemm_variant *v)
{
    if (v->kind != KIND_TILED) return TSL_OK;
    size_t elem = sizeof(double); /* worst case of both precisions */
    size_t wg = (size_t)v->param * (size_t)v->param;
    size_t local = (size_t)v->param * (size_t)(2 * v->param + 1) * elem;
    if (wg > ctx->info.max_work_group)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "variant %s needs work-groups of %zu, device %s allows at most %zu",
                         v->name, wg, ctx->info.name, ctx->info.max_work_group);
    if (local > ctx->info.local_mem)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "variant %s needs %zu bytes of local memory, device %s has %llu", v->name,
                         local, ctx->info.name, ctx->info.local_mem);
    return TSL_OK;
}

static tsl_status kernel_fits(tsl_context *ctx, const gemm_choice *c, int kind);

/* The kind of a call of precision prec (tsl_precision) on ctx: single precision in the context's
 * math mode (option "math" of "gemm"). */
int tsl__gemm_call_kind(const tsl_context *ctx, int prec)
{
    if (prec != TSL_SINGLE) return prec;
    long math = tsl__context_option(ctx, "gemm", "math", TSL_MATH_FP32);
    return math == TSL_MATH_TF32 ? GK_TF32 : math == TSL_MATH_3XTF32 ? GK_3XTF32 : GK_SINGLE;
}

/* Checked as a large problem of the kind would run it. */
static tsl_status check_kind(tsl_context *ctx, const char *variant, int kind,
                             const char **resolved)
{
    gemm_choice c;
    tsl_status s = choose(ctx, variant, kind, NULL, &c);
    if (s != TSL_OK) return s;
    if (resolved) *resolved = c.v->name;
    s = variant_fits(ctx, c.v);
    return s == TSL_OK ? kernel_fits(ctx, &c, kind) : s;
}

/* For a precision (TSL_SINGLE: in the context's math mode, TSL_DOUBLE, TSL_HALF, TSL_BFLOAT16). */
static tsl_status variant_check_prec(tsl_context *ctx, const char *variant, int prec,
                                     const char **resolved)
{
    return check_kind(ctx, variant, tsl__gemm_call_kind(ctx, prec), resolved);
}

/* Without a precision (tsl_variant_check, tsl_context_set_variant): checked as a large
 * single-precision problem would run it (in the context's math mode), or else one of the other
 * kinds (double where the device has it, half, bfloat16, TF32), so a configuration only they run
 * (MMA) can be named; a call of another kind then says TSL_ERR_UNSUPPORTED. */
/* 1 when variant is an explicit tiled2d configuration whose instruction is the kind's (the kind
 * rule holds): a refusal at that kind is about the device (local memory, registers, work-group),
 * the reason worth reporting. */
static int names_kind(const tsl_context *ctx, const char *variant, int kind)
{
    if (strncmp(variant, "tiled2d:", 8) != 0) return 0;
    tiled2d_params t = tsl__tiled2d_overlay_base(ctx, kind, 1);
    char why[256];
    return tsl__space_parse(&tsl__tiled2d_space, variant, t.v, why, sizeof why) == 0 &&
           !*tsl__tiled2d_kind_rule(kind, t.v);
}

static tsl_status variant_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    int first = tsl__gemm_call_kind(ctx, TSL_SINGLE);
    tsl_status s = check_kind(ctx, variant, first, resolved);
    if (s != TSL_ERR_UNSUPPORTED) return s;
    /* the reason reported if no kind runs it: single precision's, unless the configuration is
     * another kind's (an FP64 instruction's, say) and that kind refused it */
    char why[sizeof ctx->error];
    snprintf(why, sizeof why, "%s", ctx->error);
    int why_fits = names_kind(ctx, variant, first);
    const int others[] = {GK_DOUBLE, GK_HALF, GK_BF16, GK_TF32};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; ++i) {
        if (others[i] == first || (others[i] == GK_DOUBLE && !ctx->info.fp64)) continue;
        if (check_kind(ctx, variant, others[i], resolved) == TSL_OK) {
            tsl__clear_error(ctx);
            return TSL_OK;
        }
        if (!why_fits && names_kind(ctx, variant, others[i])) {
            snprintf(why, sizeof why, "%s", ctx->error);
            why_fits = 1;
        }
    }
    snprintf(ctx->error, sizeof ctx->error, "%s", why);
    return s;
}

/* The options of "gemm" (tsl_context_set_option): "math", a tsl_math. */
static tsl_status option_check(tsl_context *ctx, const char *name, long value)
{
    if (strcmp(name, "math") != 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "gemm has no option '%s' (options: math)",
                         name);
    if (value != TSL_MATH_FP32 && value != TSL_MATH_TF32 && value != TSL_MATH_3XTF32)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "gemm option math = %ld is none of TSL_MATH_FP32 (0), TSL_MATH_TF32 (1), "
                         "TSL_MATH_3XTF32 (2)",
                         value);
    return TSL_OK;
}

const tsl__op_desc tsl__gemm_desc = {.op = "gemm",
                                     .variant_name = variant_name,
                                     .variant_check = variant_check,
                                     .variant_check_prec = variant_check_prec,
                                     .option_check = option_check,
                                     .size_class = gemm_class,
                                     .space = &tsl__tiled2d_space,
                                     .tuning_kind = tsl__gemm_call_kind};

/* ---- the row-major problem the kernels see ------------------------------------------------ */

/* The ladder kernels: strided operands, guarded accesses, any shape. */
static tsl_status run_strided(tsl_context *ctx, const gemm_problem *p, const gemm_variant *v, int K)
{
    char extra[64] = "";
    if (v->kind == KIND_TILED) snprintf(extra, sizeof extra, "-DTS=%d", v->param);
    if (v->kind == KIND_REGBLOCK) snprintf(extra, sizeof extra, "-DRB=%d", v->param);
    cl_kernel k;
    tsl_status s = tsl__gemm_get_kernel(ctx, p, v->kernel, extra, &k);
    if (s != TSL_OK) return s;
    size_t max_wg = tsl__kernel_max_wg(ctx, k);
    size_t local[2], global[2];
    if (v->kind == KIND_TILED) {
        if ((size_t)v->param * (size_t)v->param > max_wg)
            return tsl__fail(
                ctx, TSL_ERR_UNSUPPORTED,
                "variant %s: the compiled kernel allows work-groups of %zu, it needs %d", v->name,
                max_wg, v->param * v->param);
        local[0] = local[1] = (size_t)v->param;
    } else {
        local[0] = local[1] = tsl__gemm_square_edge(max_wg);
    }
    size_t rows =
        v->kind == KIND_REGBLOCK ? (p->m + (size_t)v->param - 1) / (size_t)v->param : p->m;
    global[0] = tsl__gemm_round_up(p->n, local[0]);
    global[1] = tsl__gemm_round_up(rows, local[1]);
    int M = (int)p->m, N = (int)p->n;
    int a_rs, a_cs, b_rs, b_cs;
    tsl__gemm_op_strides(p->ta, p->lda, &a_rs, &a_cs);
    tsl__gemm_op_strides(p->tb, p->ldb, &b_rs, &b_cs);
    int ldc = (int)p->ldc;
    cl_long a_off = (cl_long)p->a_off, b_off = (cl_long)p->b_off, c_off = (cl_long)p->c_off;
    tsl__scalar al, be;
    tsl__arg args[] = {{sizeof M, &M},
                       {sizeof N, &N},
                       {sizeof K, &K},
                       tsl__scalar_arg(p->dbl, &al, p->alpha),
                       {sizeof(cl_mem), &p->a},
                       {sizeof a_rs, &a_rs},
                       {sizeof a_cs, &a_cs},
                       {sizeof(cl_mem), &p->b},
                       {sizeof b_rs, &b_rs},
                       {sizeof b_cs, &b_cs},
                       tsl__scalar_arg(p->dbl, &be, p->beta),
                       {sizeof(cl_mem), &p->c},
                       {sizeof ldc, &ldc},
                       {sizeof a_off, &a_off},
                       {sizeof b_off, &b_off},
                       {sizeof c_off, &c_off}};
    return tsl__launch(ctx, k, v->name, args, (int)(sizeof args / sizeof args[0]), 2, global,
                       local);
}

/* The device's compiler decides the largest work-group a built kernel allows (registers): build the
 * variant's kernel of the precision (single for tsl_variant_check) and compare with what its
 * launch needs. Every run checks its own kernel again. */
static tsl_status kernel_fits(tsl_context *ctx, const gemm_choice *c, int kind)
{
    const gemm_variant *v = c->v;
    if (kind == GK_DOUBLE) {
        tsl_status s = tsl__check_fp64(ctx, 1, "gemm");
        if (s != TSL_OK) return s;
    }
    gemm_problem p = {.dbl = kind == GK_DOUBLE,
                      .elem = tsl__gemm_elem_size(kind),
                      .ta = TSL_NO_TRANS,
                      .tb = TSL_NO_TRANS,
                      .kind = kind};
    char extra[256] = "";
    size_t need = 1;
    if (v->kind == KIND_TILED) {
        snprintf(extra, sizeof extra, "-DTS=%d", v->param);
        need = (size_t)v->param * (size_t)v->param;
    } else if (v->kind == KIND_TILED2D) {
        tsl__tiled2d_options(ctx, kind, &c->tp, extra, sizeof extra);
        need = (size_t)c->tp.v[P_MDIMC] * (size_t)c->tp.v[P_NDIMC];
    } else {
        return TSL_OK; /* the other kernels take whatever work-group size the device allows */
    }
    cl_kernel k;
    tsl_status s = v->kind == KIND_TILED2D ? tsl__gemm_get_tiled2d(ctx, &p, c->tp.v, extra, &k)
                                           : tsl__gemm_get_kernel(ctx, &p, v->kernel, extra, &k);
    if (s == TSL_ERR_UNSUPPORTED && v->kind == KIND_TILED2D &&
        tsl__tiled2d_sm90a(ctx, kind, c->tp.v))
        return TSL_OK; /* refused sm_90a: the run falls back to the kind's built-in */
    if (s != TSL_OK) return s;
    size_t max_wg = tsl__kernel_max_wg(ctx, k);
    if (need > max_wg)
        return tsl__fail(
            ctx, TSL_ERR_UNSUPPORTED,
            "variant %s needs work-groups of %zu, its compiled kernel allows %zu on %s", v->name,
            need, max_wg, ctx->info.name);
    return TSL_OK;
}

/* Runs the row-major problem with the context's variant. m, n > 0 here. */
tsl_status tsl__gemm_run(tsl_context *ctx, const gemm_problem *p)
{
    gemm_choice c;
    const char *variant = tsl__context_variant(ctx, "gemm");
    tsl_status s = choose(ctx, variant, p->kind, &(tsl__shape){p->m, p->n, p->k}, &c);
    if (s != TSL_OK) return s;
    if ((s = variant_fits(ctx, c.v)) != TSL_OK) return s;
    /* k == 0 or alpha == 0: C = beta C without reading A or B (BLAS); the naive kernel with an
     * empty k loop does exactly that. */
    if (p->k == 0 || p->alpha == 0.0) return run_strided(ctx, p, &variants[0], 0);
    if (c.v->kind == KIND_TILED2D) return tsl__gemm_run_tiled2d(ctx, p, &c);
    return run_strided(ctx, p, c.v, (int)p->k);
}

/* Row-major GEMM on device memory at element offsets, with the context's gemm variant, of kind
 * `kind` (GK_*): tsl__gemm_mem's (its precision) and the complex GEMM's real one (its math mode). */
tsl_status tsl__gemm_mem_kind(tsl_context *ctx, const tsl__gemm_call *g, int kind)
{
    if (g->m == 0 || g->n == 0) return TSL_OK;
    int use_ab = g->k > 0 && g->alpha != 0.0;
    gemm_problem p = {.dbl = g->prec == TSL_DOUBLE,
                      .elem = tsl__gemm_elem_size(g->prec),
                      .ta = g->ta,
                      .tb = g->tb,
                      .m = g->m,
                      .n = g->n,
                      .k = g->k,
                      .alpha = g->alpha,
                      .beta = g->beta,
                      .a = use_ab ? g->a.buffer : g->c.buffer,
                      .b = use_ab ? g->b.buffer : g->c.buffer,
                      .c = g->c.buffer,
                      .lda = g->a.ld,
                      .ldb = g->b.ld,
                      .ldc = g->c.ld,
                      .kind = kind,
                      .a_off = use_ab ? g->a.offset : 0,
                      .b_off = use_ab ? g->b.offset : 0,
                      .c_off = g->c.offset};
    return tsl__gemm_run(ctx, &p);
}

/* The entry point of the blocked Level-3 routines (ops.h). No argument checks: the caller's. */
tsl_status tsl__gemm_mem(tsl_context *ctx, const tsl__gemm_call *g)
{
    return tsl__gemm_mem_kind(ctx, g, g->prec);
}

/* Work-groups a launch over C's triangle runs: the tiles of the m x n C (n = cs m: cs columns a
 * row of the triangle) that reach its lower triangle (the upper one has as many). */
static size_t tri_tiles(size_t m, size_t n, size_t cs, const int *tp)
{
    size_t mw = (size_t)tp[P_MWG], nw = (size_t)tp[P_NWG], mt = (m + mw - 1) / mw;
    size_t nt = (n + nw - 1) / nw, tiles = 0;
    for (size_t i = 0; i < mt; ++i) {
        size_t reach = ((i + 1) * mw * cs + nw - 1) / nw;
        tiles += reach < nt ? reach : nt;
    }
    return tiles;
}

/* Work-groups of a Level-3 launch: C's triangle (TRI_C), else every tile of C (a triangular
 * operand: each tile runs the k its row (column) of the triangle reaches, from a few steps to
 * all of k), times the problems of a batch. */
static size_t mode_tiles(const gemm_problem *p, const int *tp)
{
    size_t per = p->batch ? p->batch : 1;
    if (p->tri == TSL__TRI_C_LOWER || p->tri == TSL__TRI_C_UPPER)
        return tri_tiles(p->m, p->n, p->tri_cs > 1 ? (size_t)p->tri_cs : 1, tp) * per;
    size_t mw = (size_t)tp[P_MWG], nw = (size_t)tp[P_NWG];
    return (p->m + mw - 1) / mw * ((p->n + nw - 1) / nw) * per;
}

/* Whether configuration tp runs the batch of p in one launch: no operand packed, each problem's
 * B at its rows' vector alignment, the padded sizes within int. */
static int batch_runs(const gemm_problem *p, const int *tp)
{
    size_t Mp = tsl__gemm_round_up(p->m, (size_t)tp[P_MWG]);
    size_t Np = tsl__gemm_round_up(p->n, (size_t)tp[P_NWG]);
    size_t Kp = tsl__gemm_round_up(p->k, (size_t)tp[P_KWG]);
    tiles_plan t = tsl__gemm_plan_tiles(p, tp, Mp, Np, Kp);
    return !t.pack_a && !t.pack_b && p->b_stride % (size_t)tp[P_VW] == 0 && Mp <= INT_MAX &&
           Np <= INT_MAX && Kp <= INT_MAX;
}

/* The Level-3 modes' launches can offer the device few work-groups for the tiles their size class
 * picks. A launch over C's triangle (SYRK, SYR2K) has about half the tiles of the GEMM of its
 * size: on the H100, 128 x 256 tiles give 272 work-groups at n = 4096 for 132 SMs (SYRK single at
 * 0.61x GEMM's rate); below 4 waves (a work-group per compute unit
 * each) auto takes the small class's configuration. A triangular operand (TRMM, TRSM's
 * inverse_leaf) keeps every tile, but their work ranges from nothing to all of k: with one wave of
 * 128 x 256 tiles (TRSM's leaf of 1024 x 4096 x 1024 single on the H100) the launch took as long
 * as the dense product, the row of full k setting the time; a batch of a few small problems
 * (TRSM's doubling: 4 of 512^3, 64 work-groups of 128 x 128) fills a fraction of the device.
 * Below 2 waves those take the "few" class's configuration (the tuning database's class for
 * launches of few work-groups; else the entry for any class). The alternative is taken where it
 * gives at least 1.5 times the work-groups and runs the launch (a batch: without a pre-pass). TRMM
 * single at 4096 (512 tiles of 128 x 256) ran 3% slower on 128 x 128, hence 2 waves there. */
static void mode_waves(tsl_context *ctx, const gemm_problem *p, gemm_choice *ch)
{
    int tri_c = p->tri == TSL__TRI_C_LOWER || p->tri == TSL__TRI_C_UPPER;
    size_t tiles = mode_tiles(p, ch->tp.v), cus = ctx->info.compute_units;
    if (!cus || tiles >= (tri_c ? 4 : 2) * cus) return;
    const char *src, *db = tsl__tuning_find(ctx, "gemm", p->dbl, tri_c ? "small" : "few", NULL, &src);
    gemm_choice alt;
    char saved[sizeof ctx->error];
    snprintf(saved, sizeof saved, "%s", ctx->error);
    int ok = db && choose_named(ctx, db, p->kind, NULL, 0, &alt) == TSL_OK &&
             alt.v->kind == KIND_TILED2D && 2 * mode_tiles(p, alt.tp.v) >= 3 * tiles &&
             (!p->batch || batch_runs(p, alt.tp.v));
    snprintf(ctx->error, sizeof ctx->error, "%s", saved); /* a question, not a failure */
    if (ok) *ch = alt;
}

/* The problem of a tsl__gemm_mem_ext call (ext applied). */
static gemm_problem ext_problem(const tsl__gemm_call *g, const tsl__gemm_ext *ext)
{
    gemm_problem p = {.dbl = g->prec == TSL_DOUBLE,
                      .elem = tsl__gemm_elem_size(g->prec),
                      .ta = g->ta,
                      .tb = g->tb,
                      .m = g->m,
                      .n = g->n,
                      .k = g->k,
                      .alpha = g->alpha,
                      .beta = g->beta,
                      .a = g->a.buffer,
                      .b = g->b.buffer,
                      .c = g->c.buffer,
                      .lda = g->a.ld,
                      .ldb = g->b.ld,
                      .ldc = g->c.ld,
                      .kind = g->prec,
                      .a_off = g->a.offset,
                      .b_off = g->b.offset,
                      .c_off = g->c.offset,
                      .tri = ext->tri,
                      .tri_cs = ext->tri_cs,
                      .unit = ext->unit,
                      .batch = ext->batch,
                      .a_stride = ext->a_stride,
                      .b_stride = ext->b_stride,
                      .c_stride = ext->c_stride,
                      .stair = ext->batch ? ext->stair : 0,
                      .stair_step = ext->stair_step,
                      .cin = ext->batch ? NULL : ext->cin.buffer,
                      .cin_off = ext->cin.offset,
                      .ldcin = ext->cin.ld};
    return p;
}

int tsl__gemm_ext_ok(tsl_context *ctx, const tsl__gemm_call *g, const tsl__gemm_ext *ext)
{
    if (g->prec != TSL_SINGLE && g->prec != TSL_DOUBLE) return 0;
    char saved[sizeof ctx->error];
    snprintf(saved, sizeof saved, "%s", ctx->error);
    gemm_choice c;
    tsl_status s = choose(ctx, tsl__context_variant(ctx, "gemm"), g->prec == TSL_DOUBLE,
                          &(tsl__shape){g->m, g->n, g->k}, &c);
    snprintf(ctx->error, sizeof ctx->error, "%s", saved); /* a question, not a failure */
    if (s != TSL_OK || c.v->kind != KIND_TILED2D) return 0;
    if (!ext->batch) return 1;
    /* the batch's shape and A's and B's places decide; no buffer is touched */
    tsl__gemm_call shape = *g;
    shape.alpha = 1.0;
    shape.beta = 0.0;
    shape.a.buffer = shape.b.buffer = NULL;
    shape.c = (tsl__matrix){.buffer = NULL, .offset = 0, .ld = 1};
    gemm_problem p = ext_problem(&shape, ext);
    return batch_runs(&p, c.tp.v);
}

tsl_status tsl__gemm_mem_ext(tsl_context *ctx, const tsl__gemm_call *g, const tsl__gemm_ext *ext)
{
    if (g->m == 0 || g->n == 0) return TSL_OK;
    if (g->k == 0 || g->alpha == 0.0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "gemm: the Level-3 modes need k > 0 and alpha != 0 (internal)");
    gemm_problem p = ext_problem(g, ext);
    gemm_choice ch;
    const char *variant = tsl__context_variant(ctx, "gemm");
    tsl_status s = choose(ctx, variant, p.dbl, &(tsl__shape){g->m, g->n, g->k}, &ch);
    if (s != TSL_OK) return s;
    if (ch.v->kind != KIND_TILED2D)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "gemm: the Level-3 modes run on tiled2d only (variant %s)", ch.v->name);
    if ((ext->tri != TSL__TRI_NONE || ext->batch) && !ext->own_class && strcmp(variant, "auto") == 0)
        mode_waves(ctx, &p, &ch);
    return tsl__gemm_run_tiled2d(ctx, &p, &ch);
}
