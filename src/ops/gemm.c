/* gemm.c: GEMM, C = alpha op(A) op(B) + beta C, with full CBLAS semantics. This file checks the
 * arguments, keeps the variant table (a variant is a row of data: a kernel and its compile-time
 * parameters), maps every problem onto the row-major form the kernels compute, and launches.
 *
 * How problems reach the kernels: a column-major C = op(A) op(B) is the row-major
 * C^T = op(B)^T op(A)^T on the same memory, so column-major calls swap A and B (and m and n).
 * The ladder kernels take each matrix through a row and a column stride, so a transpose is just
 * a pair of strides. tiled2d needs dense, tile-multiple, non-transposed operands: a pack
 * pre-pass (O(mk + kn), against the O(mnk) product) builds them when the caller's do not
 * already qualify; C is never copied, since the kernel guards its stores.
 *
 * Half storage (tsl_hgemm): the same ladder kernels built with -DSTORAGE_HALF=1 read and write
 * binary16 matrices and compute in float; tiled2d (and so the tuning database, whose entries are
 * tiled2d configurations) has no half build, and says so. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "ops/gemm_pipeline.h"
#include "ops/ops.h"

typedef enum { KIND_NAIVE, KIND_TILED, KIND_REGBLOCK, KIND_TILED2D } gemm_kind;

typedef struct {
    const char *name;
    gemm_kind kind;
    const char *kernel;
    int param; /* tile width for tiled, rows per work-item for regblock */
} gemm_variant;

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

/* tiled2d's compile-time parameters: one value per axis of its search space (the kernel's
 * tunables, src/kernels/gemm.cl). ALIAS, KSPLIT and PEEL are the host's. ALIAS: pad leading dimensions
 * so a row is never a multiple of 1 KiB (on CPUs rows of A and B 4 KiB apart share L1 sets;
 * measured 1.3x at n = 1024 on PoCL/AVX-512). KSPLIT: split k into that many slices summed by a
 * second pass, for problems whose C has too few tiles to fill the device (8192 x 128 x 8192);
 * 0 = the host decides from the tile count and the compute units (splitk_slices), 1 = never.
 * PEEL: a remainder of a few rows or columns past the last whole tile is computed as thin strips
 * (gemm_edge) instead of padded to a whole tile; 0 = on GPUs, 1 = never, 2 = always
 * (run_tiled2d).
 * MMA: the kernel's inner product by the FP64 matrix instruction, double only: 1 = m8n8k4, 2 =
 * m16n8k8, 3 = m16n8k16 (NVIDIA's FP64 tensor cores: has_fp64_mma; an OpenCL C emulation
 * elsewhere). */
enum {
    P_MWG, P_NWG, P_KWG, P_MDIMC, P_NDIMC, P_VW, P_SA, P_SB, P_PF, P_STRIDED, P_VWA, P_ALIAS,
    P_DBUF, P_APAD, P_WN, P_MMA, P_KSPLIT, P_DIRECT, P_PEEL, NP
};
_Static_assert(NP <= TSL__MAX_AXES, "tiled2d has more axes than the tuner holds");
typedef struct {
    int v[NP];
} tiled2d_params;

static const tsl__axis tiled2d_axes[NP] = {
    {"MWG", 5, {16, 32, 64, 128, 256}},  {"NWG", 5, {16, 32, 64, 128, 256}},
    {"KWG", 3, {8, 16, 32}},             {"MDIMC", 6, {1, 2, 4, 8, 16, 32}},
    {"NDIMC", 6, {1, 2, 4, 8, 16, 32}},  {"VW", 5, {1, 2, 4, 8, 16}},
    {"SA", 2, {0, 1}},                   {"SB", 2, {0, 1}},
    {"PF", 2, {0, 1}},                   {"STRIDED", 2, {0, 1}},
    {"VWA", 4, {1, 2, 4, 8}},            {"ALIAS", 2, {0, 1}},
    {"DBUF", 2, {0, 1}},                 {"APAD", 3, {0, 1, 4}},
    {"WN", 3, {0, 4, 8}},                {"MMA", 4, {0, 1, 2, 3}},
    {"KSPLIT", 7, {0, 1, 2, 4, 8, 16, 32}}, {"DIRECT", 3, {0, 1, 2}},
    {"PEEL", 3, {0, 1, 2}},
};

/* The last resort when neither the user's tuning database nor the shipped defaults
 * (src/tune/defaults.tuning, where the per-device settings live) have an entry: modest tiles in
 * local memory that run everywhere. */
static const tiled2d_params tiled2d_fallback = {{64, 64, 16, 8, 8, 4, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0}};

/* Bytes of local memory tiled2d's staged tiles take (twice with DBUF); with MMA rows are padded
 * by 8 elements. */
static size_t tiled2d_local_bytes(int dbl, const int *v)
{
    size_t apad = v[P_MMA] ? 8 : (size_t)v[P_APAD], bpad = v[P_MMA] ? 8 : 0;
    size_t a = v[P_SA] ? (size_t)v[P_KWG] * ((size_t)v[P_MWG] + apad) : 0;
    size_t b = v[P_SB] ? (size_t)v[P_KWG] * ((size_t)v[P_NWG] + bpad) : 0;
    return (a + b) * (dbl ? sizeof(double) : sizeof(float)) * (v[P_DBUF] ? 2 : 1);
}

/* What the kernel's #error checks and the device's hard limits allow: any such configuration
 * runs correctly on the device (named explicitly, or from a database entry). */
static int tiled2d_runs(const tsl_context *ctx, int dbl, const int *v)
{
    int mwg = v[P_MWG], nwg = v[P_NWG], kwg = v[P_KWG], mdimc = v[P_MDIMC], ndimc = v[P_NDIMC];
    int vw = v[P_VW], sa = v[P_SA], sb = v[P_SB], vwa = v[P_VWA], apad = v[P_APAD];
    if (mwg % mdimc || nwg % ndimc) return 0;
    int mwi = mwg / mdimc, nwi = nwg / ndimc, nthreads = mdimc * ndimc;
    if (nwi % vw || (size_t)nthreads > ctx->info.max_work_group) return 0;
    if (sa && (mwg * kwg) % nthreads) return 0;
    if (sb && (kwg * nwg / vw) % nthreads) return 0;
    if (v[P_PF] && !sa && !sb) return 0;
    if (vwa > 1 && (!sa || mwi % vwa || (mwg + apad) % vwa)) return 0;
    if (v[P_DBUF] && !v[P_PF]) return 0;
    if (v[P_WN] && (nthreads % 32 || ndimc % v[P_WN] || mdimc % (32 / v[P_WN]))) return 0;
    if (v[P_DIRECT] && !(sa && sb && v[P_PF])) return 0;
    if (dbl && vw > 8) return 0;
    /* the FP64 matrix instruction (emulated where the device lacks it): double, whole warps of
     * 8 x 8 tiles */
    if (v[P_MMA] && (!dbl || !sa || !sb || mdimc % 4 || ndimc % 8 ||
                     (4 * mwi) % (v[P_MMA] == 1 ? 8 : 16) || v[P_KWG] % (4 << (v[P_MMA] - 1)) ||
                     vwa != 1 || v[P_WN]))
        return 0;
    return tiled2d_local_bytes(dbl, v) <= ctx->info.local_mem;
}

static int tiled2d_registers(int dbl, const int *v);
static int has_fp64_mma(const tsl_context *ctx, int mma);

/* The tuner's space on this device: what runs, pruned by what pays on the device type. */
static int tiled2d_valid(const tsl_context *ctx, int dbl, const int *v)
{
    if (v[P_MMA] && !has_fp64_mma(ctx, v[P_MMA])) return 0; /* emulated: correct, never fast */
    if (!tiled2d_runs(ctx, dbl, v)) return 0;
    int mwi = v[P_MWG] / v[P_MDIMC], nwi = v[P_NWG] / v[P_NDIMC];
    int nthreads = v[P_MDIMC] * v[P_NDIMC], sa = v[P_SA], sb = v[P_SB];
    int w = dbl ? 2 : 1; /* 32-bit registers per value */
    /* padding only matters for a staged A: 0 or 1 for scalar reads, 0 or 4 for vector reads */
    if (!sa ? v[P_APAD] != 0 : v[P_VWA] > 1 ? v[P_APAD] == 1 : v[P_APAD] == 4) return 0;
    if (strcmp(ctx->info.type, "gpu") == 0) {
        /* a warp at least; ALIAS is a CPU cache matter; registers: accumulators + one column of
         * A + one row of B (+ the prefetched tile) + addressing, within 255 and the block */
        if (nthreads < 32 || v[P_ALIAS]) return 0;
        int est = tiled2d_registers(dbl, v);
        if (est > 255) return 0;
        unsigned long regs = tsl__device_registers(ctx);
        if (regs && (unsigned long)est * (unsigned long)nthreads > regs) return 0;
        return 1;
    }
    /* CPUs (PoCL): work-items are loop iterations and local memory is ordinary memory behind
     * barriers, so staging and interleaving only add work; big groups only add overhead, and big
     * register blocks take PoCL minutes to compile. */
    return !(sa || sb || v[P_STRIDED] || v[P_DBUF] || v[P_WN] || nthreads > 64 ||
             mwi * nwi > 512 / w);
}

/* Values of an axis no configuration can use here (tiled2d_valid's rules, one axis at a time):
 * the tuner skips them without visiting the points. */
static int tiled2d_allowed(const tsl_context *ctx, int dbl, int axis, int value)
{
    if (axis == P_MMA) return value == 0 || (dbl && has_fp64_mma(ctx, value));
    if (axis == P_VW && dbl && value > 8) return 0;
    if (strcmp(ctx->info.type, "gpu") == 0) return !(axis == P_ALIAS && value);
    /* CPUs: no staging, interleaving, prefetch (it needs staging), vector reads of a staged A
     * or padding of one */
    int off = axis == P_SA || axis == P_SB || axis == P_STRIDED || axis == P_DBUF ||
              axis == P_WN || axis == P_PF || axis == P_APAD;
    return !(off && value) && !(axis == P_VWA && value > 1);
}

/* The tuner's first candidates after auto's: the designs of the H200 hand sweep of 2026-11-23
 * (docs/tuning.md: the random search of 2026-11-21 never sampled the first, 1.34x its winner). */
static const char *const tiled2d_seeds[] = {
    "tiled2d:MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,"
    "APAD=4",
    "tiled2d:MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,"
    "APAD=4",
    "tiled2d:MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,"
    "APAD=4",
    "tiled2d:MWG=128,NWG=256,KWG=8,MDIMC=16,NDIMC=16,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,"
    "APAD=4",
    "tiled2d:MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,DBUF=1,"
    "APAD=4",
    /* double on FP64 tensor cores (H200 round 4, 2026-11-23) */
    "tiled2d:MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,"
    "APAD=0,MMA=2",
    NULL};

static const tsl__space tiled2d_space = {"tiled2d",      tiled2d_axes,   NP, tiled2d_valid,
                                         tiled2d_allowed, P_KSPLIT,       tiled2d_seeds};

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

/* What `auto` stands for with half storage, where tiled2d does not run: the ladder variant that
 * was fastest with half storage on each device type (docs/gemm.md, "Half storage"). A device
 * whose work-groups are too small for the pick runs naive. */
static const tsl__auto_row half_auto_table[] = {
    {"gpu", "regblock_4"}, {"cpu", "regblock_4"}, {NULL, "regblock_2"}};

static const char *variant_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(variants), i);
}

/* A variant as the caller or the database names it, resolved: the row, and for tiled2d its
 * parameters. "auto" is the database's configuration for the precision and the problem's shape
 * (its size class; else auto_table); a bare "tiled2d" is tiled2d with the database's parameters
 * (else tiled2d_fallback); "tiled2d:NAME=V,..." sets the named parameters over tiled2d_fallback,
 * so an explicit configuration means the same on every device and size. A database entry that
 * cannot run here is skipped with a warning (tsl_context_warning), never an error. */
typedef struct {
    const gemm_variant *v;
    tiled2d_params tp;
} gemm_choice;

/* The database's entries apply by size class, and those measured on some shapes only near them
 * (src/tune/tune.h); no shape (NULL) is a large problem, where only entries for the whole class
 * apply: what a variant check without a problem validates. */
static const char *shape_class(const tsl__shape *shape)
{
    return shape ? gemm_class(shape->m, shape->n, shape->k) : "large";
}

static tsl_status choose_named(tsl_context *ctx, const char *variant, int dbl,
                               const tsl__shape *shape, int use_db, gemm_choice *out)
{
    char base[48];
    const char *colon = strchr(variant, ':');
    size_t blen = colon ? (size_t)(colon - variant) : strlen(variant);
    snprintf(base, sizeof base, "%.*s", (int)(blen < sizeof base ? blen : sizeof base - 1),
             variant);
    out->v = tsl__find_variant(ctx, "gemm", TSL__TABLE(variants), auto_table, base);
    if (!out->v) return TSL_ERR_INVALID_ARG;
    out->tp = tiled2d_fallback;
    if (out->v->kind != KIND_TILED2D) {
        if (colon)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                             "gemm variant %s takes no parameters (only tiled2d does)", base);
        return TSL_OK;
    }
    char why[256];
    if (colon) {
        if (tsl__space_parse(&tiled2d_space, variant, out->tp.v, why, sizeof why) != 0)
            return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "gemm variant '%s': %s", variant, why);
    } else if (use_db) {
        const char *src, *db = tsl__tuning_find(ctx, "gemm", dbl, shape_class(shape), shape, &src);
        tiled2d_params t = tiled2d_fallback;
        if (db && strncmp(db, "tiled2d:", 8) == 0) {
            if (tsl__space_parse(&tiled2d_space, db, t.v, why, sizeof why) == 0 &&
                tiled2d_runs(ctx, dbl, t.v))
                out->tp = t;
            else
                tsl__warn(ctx, "gemm: %s names '%s', which cannot run here: using the built-in "
                          "tiled2d parameters", src, db);
        }
    }
    if (!tiled2d_runs(ctx, dbl, out->tp.v)) {
        char cfg[256];
        tsl__space_format(&tiled2d_space, out->tp.v, cfg, sizeof cfg);
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "gemm %s does not fit device %s at %s precision (work-group size, "
                         "local memory or the kernel's divisibility rules)",
                         cfg, ctx->info.name, dbl ? "double" : "single");
    }
    return TSL_OK;
}

static tsl_status choose(tsl_context *ctx, const char *variant, int dbl, const tsl__shape *shape,
                         gemm_choice *out)
{
    if (strcmp(variant, "auto") != 0) return choose_named(ctx, variant, dbl, shape, 1, out);
    const char *src, *db = tsl__tuning_find(ctx, "gemm", dbl, shape_class(shape), shape, &src);
    if (db) {
        char saved[sizeof ctx->error];
        snprintf(saved, sizeof saved, "%s", ctx->error);
        if (choose_named(ctx, db, dbl, shape, 0, out) == TSL_OK) return TSL_OK;
        tsl__warn(ctx, "gemm: %s names '%s', which cannot run here (%s): using the built-in "
                  "choice", src, db, ctx->error);
        snprintf(ctx->error, sizeof ctx->error, "%s", saved);
    }
    return choose_named(ctx, tsl__auto_pick(ctx, auto_table), dbl, shape, 0, out);
}

static tsl_status variant_fits(tsl_context *ctx, const gemm_variant *v);

/* The variant of a half-storage call: a ladder variant by name, or auto's half pick; tiled2d
 * (named, or as a configuration) is TSL_ERR_UNSUPPORTED. */
static tsl_status choose_half(tsl_context *ctx, const char *variant, gemm_choice *out)
{
    int is_auto = strcmp(variant, "auto") == 0;
    tsl_status s = choose_named(ctx, is_auto ? tsl__auto_pick(ctx, half_auto_table) : variant, 0,
                                NULL, 0, out);
    if (s != TSL_OK) return s;
    if (out->v->kind == KIND_TILED2D)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "gemm variant %s has no half-storage kernel: half precision (tsl_hgemm) "
                         "runs the ladder variants (naive, tiled_WxW, regblock_P) or auto",
                         variant);
    if (is_auto && variant_fits(ctx, out->v) != TSL_OK) {
        tsl__clear_error(ctx);
        out->v = &variants[0];
    }
    return TSL_OK;
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

static tsl_status kernel_fits(tsl_context *ctx, const gemm_choice *c, int prec);

/* Checked as a large problem of the precision would run it (TSL_SINGLE, TSL_DOUBLE, TSL_HALF). */
static tsl_status variant_check_prec(tsl_context *ctx, const char *variant, int prec,
                                     const char **resolved)
{
    gemm_choice c;
    tsl_status s = prec == TSL_HALF ? choose_half(ctx, variant, &c)
                                    : choose(ctx, variant, prec == TSL_DOUBLE, NULL, &c);
    if (s != TSL_OK) return s;
    if (resolved) *resolved = c.v->name;
    s = variant_fits(ctx, c.v);
    return s == TSL_OK ? kernel_fits(ctx, &c, prec) : s;
}

/* Without a precision (tsl_variant_check, tsl_context_set_variant): checked as a large
 * single-precision problem would run it, or else a double one where the device has double, so a
 * configuration only double runs (MMA) can be named; a call of the other precision then says
 * TSL_ERR_UNSUPPORTED. */
static tsl_status variant_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    tsl_status s = variant_check_prec(ctx, variant, TSL_SINGLE, resolved);
    if (s != TSL_ERR_UNSUPPORTED || !ctx->info.fp64) return s;
    char why[sizeof ctx->error];
    snprintf(why, sizeof why, "%s", ctx->error);
    if (variant_check_prec(ctx, variant, TSL_DOUBLE, resolved) == TSL_OK) {
        tsl__clear_error(ctx);
        return TSL_OK;
    }
    snprintf(ctx->error, sizeof ctx->error, "%s", why); /* the single-precision reason */
    return s;
}

const tsl__op_desc tsl__gemm_desc = {.op = "gemm",
                                     .variant_name = variant_name,
                                     .variant_check = variant_check,
                                     .variant_check_prec = variant_check_prec,
                                     .size_class = gemm_class,
                                     .space = &tiled2d_space};

/* ---- the row-major problem the kernels see ------------------------------------------------ */

typedef struct {
    int dbl;
    size_t elem;
    tsl_trans ta, tb;
    size_t m, n, k;
    double alpha, beta;
    cl_mem a, b, c;
    size_t lda, ldb, ldc;
    int half; /* binary16 matrices, float arithmetic (dbl is 0) */
    /* element offsets of A, B and C in their buffers (0 but for tsl__gemm_mem: sub-blocks) */
    size_t a_off, b_off, c_off;
    /* the Level-3 modes (tsl__gemm_mem_ext, tiled2d only): tri (TSL__TRI_*), unit, and a strided
     * batch of `batch` problems (0: none) */
    int tri, unit;
    size_t batch, a_stride, b_stride, c_stride;
} gemm_problem;

/* Bytes per matrix element of a precision (TSL_SINGLE, TSL_DOUBLE, TSL_HALF). */
static size_t elem_size(int prec)
{
    return prec == TSL_DOUBLE ? sizeof(double)
           : prec == TSL_HALF ? sizeof(uint16_t)
                              : sizeof(float);
}

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* Largest power-of-two square work-group edge (at most 16) the kernel allows. */
static size_t square_edge(size_t max_wg)
{
    size_t e = 16;
    while (e > 1 && e * e > max_wg)
        e /= 2;
    return e;
}

static tsl_status get_kernel(tsl_context *ctx, const gemm_problem *p, const char *name,
                             const char *extra, cl_kernel *k)
{
    char options[400];
    snprintf(options, sizeof options, "-DPRECISION=%d%s -DONLY_ONE_KERNEL -DONLY_%s%s%s",
             p->dbl ? 64 : 32, p->half ? " -DSTORAGE_HALF=1" : "", name, *extra ? " " : "", extra);
    return tsl__get_kernel(ctx, "gemm.cl", options, name, k);
}

/* op(X)(i, l) = X[i rs + l cs] for an operand X of leading dimension ld, transposed or not. */
static void op_strides(tsl_trans t, size_t ld, int *rs, int *cs)
{
    *rs = t == TSL_NO_TRANS ? (int)ld : 1;
    *cs = t == TSL_NO_TRANS ? 1 : (int)ld;
}

/* The ladder kernels: strided operands, guarded accesses, any shape. */
static tsl_status run_strided(tsl_context *ctx, const gemm_problem *p, const gemm_variant *v, int K)
{
    char extra[64] = "";
    if (v->kind == KIND_TILED) snprintf(extra, sizeof extra, "-DTS=%d", v->param);
    if (v->kind == KIND_REGBLOCK) snprintf(extra, sizeof extra, "-DRB=%d", v->param);
    cl_kernel k;
    tsl_status s = get_kernel(ctx, p, v->kernel, extra, &k);
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
        local[0] = local[1] = square_edge(max_wg);
    }
    size_t rows =
        v->kind == KIND_REGBLOCK ? (p->m + (size_t)v->param - 1) / (size_t)v->param : p->m;
    global[0] = round_up(p->n, local[0]);
    global[1] = round_up(rows, local[1]);
    int M = (int)p->m, N = (int)p->n;
    int a_rs, a_cs, b_rs, b_cs;
    op_strides(p->ta, p->lda, &a_rs, &a_cs);
    op_strides(p->tb, p->ldb, &b_rs, &b_cs);
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

/* Copies a strided rows x cols operand (from element src_off of src) into a zero-padded
 * prows x pcols scratch buffer whose rows are pcols elements apart. */
static tsl_status pack(tsl_context *ctx, const gemm_problem *p, int slot, cl_mem src,
                       size_t src_off, size_t rows, size_t cols, int s_rs, int s_cs, size_t prows,
                       size_t pcols, int tri, cl_mem *out)
{
    tsl_status s = tsl__workspace(ctx, slot, prows * pcols * p->elem, out);
    if (s != TSL_OK) return s;
    cl_kernel k;
    char extra[40] = ""; /* tri 1 (2): keep the lower (upper) triangle only (gemm_pack) */
    if (tri) snprintf(extra, sizeof extra, "-DPACK_TRI=%d -DPACK_UNIT=%d", tri, p->unit);
    s = get_kernel(ctx, p, "gemm_pack", extra, &k);
    if (s != TSL_OK) return s;
    size_t e = square_edge(tsl__kernel_max_wg(ctx, k));
    size_t local[2] = {e, e}, global[2] = {round_up(pcols, e), round_up(prows, e)};
    int r = (int)rows, c = (int)cols, pr = (int)prows, pc = (int)pcols;
    cl_long off = (cl_long)src_off;
    tsl__arg args[] = {{sizeof r, &r},       {sizeof c, &c},       {sizeof(cl_mem), &src},
                       {sizeof s_rs, &s_rs}, {sizeof s_cs, &s_cs}, {sizeof pr, &pr},
                       {sizeof pc, &pc},     {sizeof(cl_mem), out}, {sizeof off, &off}};
    return tsl__launch(ctx, k, "gemm pack pre-pass", args, 9, 2, global, local);
}

/* Whether the device has the FP64 matrix instruction of MMA = 1 (m8n8k4), 2 (m16n8k8) or 3
 * (m16n8k16): NVIDIA's data-centre parts only (sm_80: m8n8k4; sm_90, sm_100, sm_103, sm_110: all);
 * the consumer ones (sm_86, sm_89, sm_120) accept the PTX but have no FP64 tensor cores. */
static int has_fp64_mma(const tsl_context *ctx, int mma)
{
    int cc = tsl__nv_compute_capability(ctx);
    return (cc == 80 && mma == 1) || cc == 90 || cc == 100 || cc == 103 || cc == 110;
}

/* The kernel's -D options: every axis but the host's (ALIAS, KSPLIT, PEEL); MMA only when set (the
 * programs without it keep their cache keys), emulated where has_fp64_mma says no. */
static void tiled2d_options(const tsl_context *ctx, const tiled2d_params *tp, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (int a = 0; a < NP && n < cap; ++a)
        if (a != P_ALIAS && a != P_KSPLIT && a != P_PEEL && !(a == P_MMA && !tp->v[a]))
            n += (size_t)snprintf(out + n, cap - n, "%s-D%s=%d", n ? " " : "", tiled2d_axes[a].name,
                                  a == P_DIRECT ? tp->v[a] == 1 : tp->v[a]);
    if (tp->v[P_MMA] && !has_fp64_mma(ctx, tp->v[P_MMA]) && n < cap)
        snprintf(out + n, cap - n, " -DMMA_EMULATE=1");
}

/* Registers per work-item that tiled2d's parameters need, as the tuner's pruning estimates
 * them: accumulators + one column of A + one row of B (+ the prefetched tile) + addressing. */
static int tiled2d_registers(int dbl, const int *v)
{
    int mwi = v[P_MWG] / v[P_MDIMC], nwi = v[P_NWG] / v[P_NDIMC];
    int nthreads = v[P_MDIMC] * v[P_NDIMC], w = dbl ? 2 : 1;
    int nla = v[P_SA] ? v[P_MWG] * v[P_KWG] / nthreads : 0;
    int nlb = v[P_SB] ? v[P_KWG] * v[P_NWG] / nthreads : 0;
    return (mwi * nwi + mwi + nwi) * w + (v[P_PF] ? (nla + nlb) * w : 0) + 24;
}

/* How many slices of k. A configuration's KSPLIT > 0 is taken as given (within the limits
 * below). KSPLIT = 0 on a GPU: the work-groups run in waves of `slots` (compute units x the
 * groups one unit holds, from a model of 2048 work-items, the vendor's registers per unit where
 * reported, else 65536, and the local memory), so a C of few tiles, or one whose last wave is
 * nearly empty (4097^2 in 128 x 128 tiles: 1089 groups, 4.1 waves of 264), leaves units idle.
 * S slices make S times the groups; the second pass costs about (2S + 1) m n elements of
 * traffic, against 2 m n k flops, at a machine balance taken as 10 flops per byte. The S of
 * 1..32 with the best (filled fraction of the waves) / (1 + pass cost) wins. On CPUs, no split.
 * Each slice keeps at least 4 steps of KWG (auto) or 1 (given), and the partial results (S m n)
 * stay within 1 GiB and the device's largest buffer. Measured on the H200 (docs/gemm.md):
 * 8192 x 128 x 8192 2.0x, 4097^3 1.03x. */
static size_t splitk_slices(const tsl_context *ctx, const gemm_problem *p, const int *tp,
                            size_t Mp, size_t Np, size_t Kp)
{
    size_t steps = Kp / (size_t)tp[P_KWG], s = (size_t)tp[P_KSPLIT];
    size_t cap = (size_t)1 << 30; /* the partial results: 1 GiB and one buffer at most */
    if (ctx->info.max_alloc && ctx->info.max_alloc < cap) cap = (size_t)ctx->info.max_alloc;
    if (s == 0 && strcmp(ctx->info.type, "gpu") != 0) s = 1;
    if (s == 0) {
        double groups = (double)(Mp / (size_t)tp[P_MWG]) * (double)(Np / (size_t)tp[P_NWG]);
        double threads = (double)tp[P_MDIMC] * tp[P_NDIMC];
        double regs = (double)tsl__device_registers(ctx);
        double per_unit = floor(2048.0 / threads);
        double by_regs = floor((regs > 0 ? regs : 65536.0) / (threads * tiled2d_registers(p->dbl, tp)));
        double tile = (double)tiled2d_local_bytes(p->dbl, tp);
        double by_local = tile > 0 ? floor((double)ctx->info.local_mem / tile) : per_unit;
        per_unit = fmax(1.0, fmin(per_unit, fmin(by_regs, by_local)));
        double slots = per_unit * (ctx->info.compute_units ? ctx->info.compute_units : 1);
        double best = -1.0;
        for (size_t c = 1; c <= 32; c *= 2) {
            if (c > 1 && (steps / c < 4 || c * p->m * p->n * p->elem > cap))
                break;
            double g = groups * (double)c, filled = g / (ceil(g / slots) * slots);
            double cost = c > 1 ? (2.0 * (double)c + 1.0) * (double)p->elem * 10.0 /
                                      (2.0 * (double)p->k)
                                : 0.0;
            double score = filled / (1.0 + cost);
            if (score > best * 1.02) best = score, s = c; /* a larger S must win by 2% */
        }
    }
    while (s > 1 && (steps / s < 1 || s * p->m * p->n * p->elem > cap)) s /= 2;
    return s;
}

/* Second pass of a split k: C = sum of the slices (+ beta C), in a fixed order. */
static tsl_status splitk_sum(tsl_context *ctx, const gemm_problem *p, cl_mem w, size_t slices)
{
    cl_kernel k;
    tsl_status s = get_kernel(ctx, p, "gemm_splitk_sum", "", &k);
    if (s != TSL_OK) return s;
    size_t e = square_edge(tsl__kernel_max_wg(ctx, k));
    size_t local[2] = {e, e}, global[2] = {round_up(p->n, e), round_up(p->m, e)};
    int Mc = (int)p->m, Nc = (int)p->n, S = (int)slices, ldw = (int)p->n, ldc = (int)p->ldc;
    cl_long wslice = (cl_long)(p->m * p->n), c_off = (cl_long)p->c_off;
    tsl__scalar be;
    tsl__arg args[] = {{sizeof Mc, &Mc},   {sizeof Nc, &Nc},         {sizeof S, &S},
                       {sizeof(cl_mem), &w}, {sizeof ldw, &ldw},       {sizeof wslice, &wslice},
                       tsl__scalar_arg(p->dbl, &be, p->beta), {sizeof(cl_mem), &p->c},
                       {sizeof ldc, &ldc}, {sizeof c_off, &c_off}};
    return tsl__launch(ctx, k, "gemm split-k sum", args, (int)(sizeof args / sizeof args[0]), 2,
                       global, local);
}

/* What tiled2d does with a problem's operands: whether the kernel reads them in place (DIRECT)
 * and which ones the pack pre-pass copies first. A triangular operand of the TRI modes is always
 * packed (its other triangle becomes zeros). */
typedef struct {
    int direct, pack_a, pack_b;
} tiles_plan;

static tiles_plan plan_tiles(const gemm_problem *p, const int *tp, size_t Mp, size_t Np, size_t Kp)
{
    size_t vw = (size_t)tp[P_VW];
    /* A leading dimension the kernel runs well with: a multiple of VW, and off 1 KiB multiples
     * where the row says so. */
#define LD_OK(ld) ((ld) % vw == 0 && !(tp[P_ALIAS] && ((ld)*p->elem) % 1024 == 0))
    /* DIRECT reads A and B where they lie (any size, any lda): only a transposed operand, or a
     * B whose rows are not VW-aligned, is packed. DIRECT = 2: only where the operands would need
     * the pre-pass and the problem is small (m n k <= 2^32), where the pre-pass is a large share
     * of the time; the guarded kernel is slower on interior tiles than the packed one (H200:
     * 41.5 against 48.3 TFLOP/s at 4096^3, but 300^3 2.4 against 1.5, docs/gemm.md). */
    tiles_plan t = {tp[P_DIRECT] == 1, 0, 0};
    if (tp[P_DIRECT] == 2) {
        int ragged = Mp != p->m || Kp != p->k || Np != p->n || !LD_OK(p->lda) || !LD_OK(p->ldb) ||
                     p->b_off % vw != 0;
        t.direct = ragged && (double)p->m * (double)p->n * (double)p->k <= 4294967296.0;
    }
    t.pack_a = p->ta != TSL_NO_TRANS || p->tri == TSL__TRI_A_LOWER ||
               p->tri == TSL__TRI_A_UPPER ||
               (!t.direct && (Mp != p->m || Kp != p->k || !LD_OK(p->lda)));
    /* B's vector loads need its rows, and its origin, VW-aligned */
    t.pack_b = p->tb != TSL_NO_TRANS || p->ldb % vw != 0 || p->b_off % vw != 0 ||
               p->tri == TSL__TRI_B_LOWER || p->tri == TSL__TRI_B_UPPER ||
               (!t.direct && (Kp != p->k || Np != p->n || !LD_OK(p->ldb)));
#undef LD_OK
    return t;
}

static tsl_status run_tiled2d_tiles(tsl_context *ctx, const gemm_problem *p,
                                    const gemm_choice *c)
{
    const gemm_variant *v = c->v;
    const int *tp = c->tp.v;
    size_t Mp = round_up(p->m, (size_t)tp[P_MWG]), Np = round_up(p->n, (size_t)tp[P_NWG]);
    size_t Kp = round_up(p->k, (size_t)tp[P_KWG]);
    if (Mp > INT_MAX || Np > INT_MAX || Kp > INT_MAX || Mp * Kp > SIZE_MAX / p->elem / 2 ||
        Kp * Np > SIZE_MAX / p->elem / 2)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "gemm: padded size exceeds 2^31-1 elements per side");
    cl_mem a = p->a, b = p->b;
    size_t lda = p->lda, ldb = p->ldb, vw = (size_t)tp[P_VW];
    size_t a_off = p->a_off, b_off = p->b_off; /* 0 once packed */
#define LD_FOR(cols) ((cols) + (tp[P_ALIAS] && ((cols)*p->elem) % 1024 == 0 ? vw : 0))
    tiles_plan plan = plan_tiles(p, tp, Mp, Np, Kp);
    int direct = plan.direct;
    tsl_status s = TSL_OK;
    if (plan.pack_a && p->batch)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "gemm: a batch whose A needs the pre-pass");
    if (plan.pack_b && p->batch)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "gemm: a batch whose B needs the pre-pass");
    if (plan.pack_a) {
        int rs, cs;
        op_strides(p->ta, p->lda, &rs, &cs);
        lda = LD_FOR(Kp);
        int tri = p->tri == TSL__TRI_A_LOWER ? 1 : p->tri == TSL__TRI_A_UPPER ? 2 : 0;
        s = pack(ctx, p, 3, p->a, p->a_off, p->m, p->k, rs, cs, Mp, lda, tri, &a);
        a_off = 0;
    }
    if (s == TSL_OK && plan.pack_b) {
        int rs, cs;
        op_strides(p->tb, p->ldb, &rs, &cs);
        ldb = LD_FOR(Np);
        int tri = p->tri == TSL__TRI_B_LOWER ? 1 : p->tri == TSL__TRI_B_UPPER ? 2 : 0;
        s = pack(ctx, p, 4, p->b, p->b_off, p->k, p->n, rs, cs, Kp, ldb, tri, &b);
        b_off = 0;
    }
#undef LD_FOR
    if (s != TSL_OK) return s;
    char extra[320];
    tiled2d_params eff = c->tp; /* the kernel built: DIRECT as decided here */
    eff.v[P_DIRECT] = direct;
    tiled2d_options(ctx, &eff, extra, sizeof extra);
    if (p->tri || p->batch) { /* the Level-3 modes: programs of their own */
        size_t used = strlen(extra);
        if (p->tri) used += (size_t)snprintf(extra + used, sizeof extra - used, " -DTRI=%d", p->tri);
        if (p->batch && used < sizeof extra) snprintf(extra + used, sizeof extra - used, " -DBATCH=1");
    }
    cl_kernel k;
    s = get_kernel(ctx, p, v->kernel, extra, &k);
    if (s != TSL_OK) return s;
    size_t wg = (size_t)tp[P_MDIMC] * (size_t)tp[P_NDIMC];
    if (wg > tsl__kernel_max_wg(ctx, k))
        return tsl__fail(
            ctx, TSL_ERR_UNSUPPORTED,
            "variant tiled2d: the compiled kernel allows work-groups of %zu, it needs %zu",
            tsl__kernel_max_wg(ctx, k), wg);
    /* no split k in the Level-3 modes: the sum pass would write all of C (TRI) and z is the
     * problem (BATCH) */
    size_t slices = p->tri || p->batch ? 1 : splitk_slices(ctx, p, tp, Mp, Np, Kp);
    size_t kchunk = round_up((Kp + slices - 1) / slices, (size_t)tp[P_KWG]);
    slices = (Kp + kchunk - 1) / kchunk; /* no empty slice */
    cl_mem cout = p->c;
    int ildc = (int)p->ldc;
    cl_long cslice = 0, ka_off = (cl_long)a_off, kb_off = (cl_long)b_off;
    cl_long kc_off = (cl_long)p->c_off;
    double beta = p->beta;
    if (slices > 1) {
        s = tsl__workspace(ctx, 6, slices * p->m * p->n * p->elem, &cout);
        if (s != TSL_OK) return s;
        ildc = (int)p->n;
        cslice = (cl_long)(p->m * p->n);
        kc_off = 0; /* the slices; gemm_splitk_sum writes C at its offset */
        beta = 0.0;
    }
    size_t local[3] = {(size_t)tp[P_NDIMC], (size_t)tp[P_MDIMC], 1};
    size_t global[3] = {Np / (size_t)tp[P_NWG] * (size_t)tp[P_NDIMC],
                        Mp / (size_t)tp[P_MWG] * (size_t)tp[P_MDIMC], slices};
    /* the sizes the kernel guards its loads with: padded (packed, zero-filled) or, with DIRECT,
     * the real ones (a packed operand's padding is zeros, so the real sizes serve it too) */
    int M = (int)(direct ? p->m : Mp), N = (int)(direct ? p->n : Np),
        K = (int)(direct ? p->k : Kp), Mc = (int)p->m, Nc = (int)p->n;
    int ilda = (int)lda, ildb = (int)ldb, ikchunk = (int)kchunk;
    tsl__scalar al, be;
    tsl__arg args[] = {{sizeof M, &M},
                       {sizeof N, &N},
                       {sizeof K, &K},
                       {sizeof Mc, &Mc},
                       {sizeof Nc, &Nc},
                       tsl__scalar_arg(p->dbl, &al, p->alpha),
                       {sizeof(cl_mem), &a},
                       {sizeof ilda, &ilda},
                       {sizeof(cl_mem), &b},
                       {sizeof ildb, &ildb},
                       tsl__scalar_arg(p->dbl, &be, beta),
                       {sizeof(cl_mem), &cout},
                       {sizeof ildc, &ildc},
                       {sizeof ikchunk, &ikchunk},
                       {sizeof cslice, &cslice},
                       {sizeof ka_off, &ka_off},
                       {sizeof kb_off, &kb_off},
                       {sizeof kc_off, &kc_off},
                       {0, NULL},
                       {0, NULL}};
    int nargs = (int)(sizeof args / sizeof args[0]) - 2;
    if (p->batch) {
        /* z is the problem: NVIDIA's grids have at most 65535 groups along it, so larger batches
         * go in several launches, each from its first problem's offsets */
        cl_long sa = (cl_long)p->a_stride, sb = (cl_long)p->b_stride;
        cslice = (cl_long)p->c_stride;
        args[nargs] = (tsl__arg){sizeof sa, &sa};
        args[nargs + 1] = (tsl__arg){sizeof sb, &sb};
        for (size_t z0 = 0; s == TSL_OK && z0 < p->batch; z0 += 65535) {
            global[2] = p->batch - z0 < 65535 ? p->batch - z0 : 65535;
            ka_off = (cl_long)(a_off + z0 * p->a_stride);
            kb_off = (cl_long)(b_off + z0 * p->b_stride);
            kc_off = (cl_long)(p->c_off + z0 * p->c_stride);
            s = tsl__launch(ctx, k, "tiled2d batched", args, nargs + 2, 3, global, local);
        }
        return s;
    }
    s = tsl__launch(ctx, k, "tiled2d", args, nargs, 3, global, local);
    return s == TSL_OK && slices > 1 ? splitk_sum(ctx, p, cout, slices) : s;
}

/* ---- peeled edges: a remainder of a few rows (columns) past the last whole tile ------------- */

#define EDGE_R 16 /* the most rows (columns) a peeled strip has: gemm_edge's accumulators */

/* The rows (or columns) past the last whole tile that are worth peeling off instead of padding to
 * a whole tile: at most EDGE_R and an eighth of the tile, with at least one whole tile before
 * them; 0 if none. Padding 4097 to 33 tiles of 128 costs 6.5% more flops and a wave of 1089
 * groups where 1024 fill 3.9 (H200); the strips cost a read of A or B by gemm_edge. */
static size_t peel_of(size_t len, int tile)
{
    size_t r = len % (size_t)tile;
    return len > (size_t)tile && r <= EDGE_R && r * 8 <= (size_t)tile ? r : 0;
}

/* One strip by gemm_edge (src/kernels/gemm.cl): L x S elements of C, each a dot product over k of
 * X's p-th line with Y's q-th. */
typedef struct {
    cl_mem x, y;
    long x_off, y_off, c_off;
    int x_ps, x_ls, y_ls, y_qs, c_ps, c_qs;
} edge_strip;

/* gemm_edge built for strips of S lines (its accumulators and staged Y: S rounded up to a power of
 * two); *k = NULL where the device cannot run it (256 work-items, the local memory). */
static tsl_status edge_kernel(tsl_context *ctx, const gemm_problem *p, size_t S, cl_kernel *k)
{
    int r = 1;
    while ((size_t)r < S) r *= 2;
    *k = NULL;
    if ((size_t)(r + 1) * 256 * p->elem > ctx->info.local_mem) return TSL_OK;
    char extra[32];
    snprintf(extra, sizeof extra, "-DEDGE_R=%d", r);
    tsl_status s = get_kernel(ctx, p, "gemm_edge", extra, k);
    if (s == TSL_OK && tsl__kernel_max_wg(ctx, *k) < 256) *k = NULL;
    return s;
}

static tsl_status run_edge(tsl_context *ctx, const gemm_problem *p, cl_kernel k, size_t L,
                           size_t S, const edge_strip *e)
{
    int iL = (int)L, iS = (int)S, K = (int)p->k;
    int lfast = e->x_ps != 1 && e->x_ls == 1; /* neighbouring items along X's unit stride */
    size_t local[2] = {32, 8};
    size_t global[2] = {lfast ? 32 : round_up(L, 32), lfast ? round_up(L, 8) : 8};
    tsl__scalar al, be;
    tsl__arg args[] = {{sizeof iL, &iL},
                       {sizeof iS, &iS},
                       {sizeof K, &K},
                       tsl__scalar_arg(p->dbl, &al, p->alpha),
                       {sizeof(cl_mem), &e->x},
                       {sizeof e->x_off, &e->x_off},
                       {sizeof e->x_ps, &e->x_ps},
                       {sizeof e->x_ls, &e->x_ls},
                       {sizeof(cl_mem), &e->y},
                       {sizeof e->y_off, &e->y_off},
                       {sizeof e->y_ls, &e->y_ls},
                       {sizeof e->y_qs, &e->y_qs},
                       tsl__scalar_arg(p->dbl, &be, p->beta),
                       {sizeof(cl_mem), &p->c},
                       {sizeof e->c_off, &e->c_off},
                       {sizeof e->c_ps, &e->c_ps},
                       {sizeof e->c_qs, &e->c_qs},
                       {sizeof lfast, &lfast}};
    return tsl__launch(ctx, k, "gemm edge", args, (int)(sizeof args / sizeof args[0]), 2, global,
                       local);
}

/* tiled2d: the whole tiles by the tiled kernel, and a remainder of a few rows or columns (peel_of)
 * as strips by gemm_edge: rows [Mi, m) over every column, then columns [Ni, n) of rows [0, Mi).
 * The three parts write disjoint parts of C. PEEL = 0: on GPUs (on PoCL the strips cost more than
 * the padding: 1025^3 119.5 against 142.6 GFLOP/s padded, 2026-11-23), 1: never, 2: always.
 * DIRECT = 1 (read in place, always) is left whole. */
static tsl_status run_tiled2d(tsl_context *ctx, const gemm_problem *p, const gemm_choice *c)
{
    const int *tp = c->tp.v;
    int peel = tp[P_PEEL] == 2 || (tp[P_PEEL] == 0 && strcmp(ctx->info.type, "gpu") == 0);
    if (tp[P_DIRECT] == 1) peel = 0;
    /* the Level-3 modes pad instead: the strips would write C's other triangle (TRI 1, 2), read
     * a triangular operand unpacked (3 to 6), or run one problem (BATCH) */
    if (p->tri || p->batch) peel = 0;
    size_t mr = peel ? peel_of(p->m, tp[P_MWG]) : 0, nr = peel ? peel_of(p->n, tp[P_NWG]) : 0;
    cl_kernel rk = NULL, ck = NULL; /* the row strip's and the column strip's kernels */
    tsl_status s = TSL_OK;
    if (mr && (s = edge_kernel(ctx, p, mr, &rk)) != TSL_OK) return s;
    if (nr && (s = edge_kernel(ctx, p, nr, &ck)) != TSL_OK) return s;
    if ((mr && !rk) || (nr && !ck)) mr = nr = 0; /* the device cannot run a strip: pad */
    if (!mr && !nr) return run_tiled2d_tiles(ctx, p, c);
    gemm_problem inner = *p;
    inner.m -= mr;
    inner.n -= nr;
    s = run_tiled2d_tiles(ctx, &inner, c);
    int a_rs, a_cs, b_rs, b_cs;
    op_strides(p->ta, p->lda, &a_rs, &a_cs);
    op_strides(p->tb, p->ldb, &b_rs, &b_cs);
    if (s == TSL_OK && mr) {
        edge_strip rows = {p->b,
                           p->a,
                           (long)p->b_off,
                           (long)p->a_off + (long)inner.m * a_rs,
                           (long)p->c_off + (long)inner.m * (long)p->ldc,
                           b_cs,
                           b_rs,
                           a_cs,
                           a_rs,
                           1,
                           (int)p->ldc};
        s = run_edge(ctx, p, rk, p->n, mr, &rows);
    }
    if (s == TSL_OK && nr) {
        edge_strip cols = {p->a,
                           p->b,
                           (long)p->a_off,
                           (long)p->b_off + (long)inner.n * b_cs,
                           (long)p->c_off + (long)inner.n,
                           a_rs,
                           a_cs,
                           b_rs,
                           b_cs,
                           (int)p->ldc,
                           1};
        s = run_edge(ctx, p, ck, inner.m, nr, &cols);
    }
    return s;
}

/* The device's compiler decides the largest work-group a built kernel allows (registers): build the
 * variant's kernel of the precision (single for tsl_variant_check) and compare with what its
 * launch needs. Every run checks its own kernel again. */
static tsl_status kernel_fits(tsl_context *ctx, const gemm_choice *c, int prec)
{
    const gemm_variant *v = c->v;
    if (prec == TSL_DOUBLE) {
        tsl_status s = tsl__check_fp64(ctx, 1, "gemm");
        if (s != TSL_OK) return s;
    }
    gemm_problem p = {.dbl = prec == TSL_DOUBLE,
                      .elem = elem_size(prec),
                      .ta = TSL_NO_TRANS,
                      .tb = TSL_NO_TRANS,
                      .half = prec == TSL_HALF};
    char extra[256] = "";
    size_t need = 1;
    if (v->kind == KIND_TILED) {
        snprintf(extra, sizeof extra, "-DTS=%d", v->param);
        need = (size_t)v->param * (size_t)v->param;
    } else if (v->kind == KIND_TILED2D) {
        tiled2d_options(ctx, &c->tp, extra, sizeof extra);
        need = (size_t)c->tp.v[P_MDIMC] * (size_t)c->tp.v[P_NDIMC];
    } else {
        return TSL_OK; /* the other kernels take whatever work-group size the device allows */
    }
    cl_kernel k;
    tsl_status s = get_kernel(ctx, &p, v->kernel, extra, &k);
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
static tsl_status run(tsl_context *ctx, const gemm_problem *p)
{
    gemm_choice c;
    const char *variant = tsl__context_variant(ctx, "gemm");
    tsl_status s = p->half ? choose_half(ctx, variant, &c)
                           : choose(ctx, variant, p->dbl, &(tsl__shape){p->m, p->n, p->k}, &c);
    if (s != TSL_OK) return s;
    if ((s = variant_fits(ctx, c.v)) != TSL_OK) return s;
    /* k == 0 or alpha == 0: C = beta C without reading A or B (BLAS); the naive kernel with an
     * empty k loop does exactly that. */
    if (p->k == 0 || p->alpha == 0.0) return run_strided(ctx, p, &variants[0], 0);
    if (c.v->kind == KIND_TILED2D) return run_tiled2d(ctx, p, &c);
    return run_strided(ctx, p, c.v, (int)p->k);
}

/* Row-major GEMM on device memory at element offsets, with the context's gemm variant: the
 * entry point of the blocked Level-3 routines (ops.h). No argument checks: the caller's. */
tsl_status tsl__gemm_mem(tsl_context *ctx, int prec, tsl_trans ta, tsl_trans tb, size_t m,
                         size_t n, size_t k, double alpha, cl_mem a, size_t a_off, size_t lda,
                         cl_mem b, size_t b_off, size_t ldb, double beta, cl_mem c, size_t c_off,
                         size_t ldc)
{
    if (m == 0 || n == 0) return TSL_OK;
    int use_ab = k > 0 && alpha != 0.0;
    gemm_problem p = {prec == TSL_DOUBLE, elem_size(prec), ta, tb, m, n, k, alpha, beta,
                      use_ab ? a : c, use_ab ? b : c, c, lda, ldb, ldc, prec == TSL_HALF,
                      use_ab ? a_off : 0, use_ab ? b_off : 0, c_off, 0, 0, 0, 0, 0, 0};
    return run(ctx, &p);
}

/* Work-groups a launch over C's triangle runs: the tiles of the n x n C that reach its lower
 * triangle (the upper one has as many). */
static size_t tri_tiles(size_t n, const int *tp)
{
    size_t mw = (size_t)tp[P_MWG], nw = (size_t)tp[P_NWG], mt = (n + mw - 1) / mw;
    size_t nt = (n + nw - 1) / nw, tiles = 0;
    for (size_t i = 0; i < mt; ++i) {
        size_t reach = ((i + 1) * mw + nw - 1) / nw;
        tiles += reach < nt ? reach : nt;
    }
    return tiles;
}

/* A launch over C's triangle (SYRK, SYR2K) has about half the tiles of the GEMM of its size, so
 * the large class's big tiles can leave the device's last waves half empty: on the H100, 128 x
 * 256 tiles give 272 work-groups at n = 4096 for 132 SMs (SYRK single at 0.61x GEMM's rate,
 * bench/results/h100/level3b). Below 4 waves (a work-group per compute unit each), auto takes the
 * small class's configuration instead where that gives at least 1.5 times the tiles and runs. */
static void tri_waves(tsl_context *ctx, const gemm_problem *p, gemm_choice *ch)
{
    size_t tiles = tri_tiles(p->n, ch->tp.v), cus = ctx->info.compute_units;
    if (!cus || tiles >= 4 * cus) return;
    const char *src, *db = tsl__tuning_find(ctx, "gemm", p->dbl, "small", NULL, &src);
    gemm_choice alt;
    char saved[sizeof ctx->error];
    snprintf(saved, sizeof saved, "%s", ctx->error);
    int ok = db && choose_named(ctx, db, p->dbl, NULL, 0, &alt) == TSL_OK &&
             alt.v->kind == KIND_TILED2D && 2 * tri_tiles(p->n, alt.tp.v) >= 3 * tiles;
    snprintf(ctx->error, sizeof ctx->error, "%s", saved); /* a question, not a failure */
    if (ok) *ch = alt;
}

/* The problem of a tsl__gemm_mem_ext call (ext applied). */
static gemm_problem ext_problem(int prec, tsl_trans ta, tsl_trans tb, size_t m, size_t n, size_t k,
                                double alpha, cl_mem a, size_t a_off, size_t lda, cl_mem b,
                                size_t b_off, size_t ldb, double beta, cl_mem c, size_t c_off,
                                size_t ldc, const tsl__gemm_ext *ext)
{
    gemm_problem p = {prec == TSL_DOUBLE, elem_size(prec), ta, tb, m, n, k, alpha, beta,
                      a, b, c, lda, ldb, ldc, 0, a_off, b_off, c_off, ext->tri, ext->unit,
                      ext->batch, ext->a_stride, ext->b_stride, ext->c_stride};
    return p;
}

int tsl__gemm_ext_ok(tsl_context *ctx, int prec, tsl_trans ta, tsl_trans tb, size_t m, size_t n,
                     size_t k, size_t a_off, size_t lda, size_t b_off, size_t ldb,
                     const tsl__gemm_ext *ext)
{
    if (prec != TSL_SINGLE && prec != TSL_DOUBLE) return 0;
    char saved[sizeof ctx->error];
    snprintf(saved, sizeof saved, "%s", ctx->error);
    gemm_choice c;
    tsl_status s = choose(ctx, tsl__context_variant(ctx, "gemm"), prec == TSL_DOUBLE,
                          &(tsl__shape){m, n, k}, &c);
    snprintf(ctx->error, sizeof ctx->error, "%s", saved); /* a question, not a failure */
    if (s != TSL_OK || c.v->kind != KIND_TILED2D) return 0;
    if (!ext->batch) return 1;
    const int *tp = c.tp.v;
    gemm_problem p = ext_problem(prec, ta, tb, m, n, k, 1.0, NULL, a_off, lda, NULL, b_off, ldb,
                                 0.0, NULL, 0, 1, ext);
    size_t Mp = round_up(m, (size_t)tp[P_MWG]), Np = round_up(n, (size_t)tp[P_NWG]);
    size_t Kp = round_up(k, (size_t)tp[P_KWG]);
    tiles_plan t = plan_tiles(&p, tp, Mp, Np, Kp);
    /* each problem's B must keep the vector alignment of its rows; no operand packed */
    return !t.pack_a && !t.pack_b && ext->b_stride % (size_t)tp[P_VW] == 0 && Mp <= INT_MAX &&
           Np <= INT_MAX && Kp <= INT_MAX;
}

tsl_status tsl__gemm_mem_ext(tsl_context *ctx, int prec, tsl_trans ta, tsl_trans tb, size_t m,
                             size_t n, size_t k, double alpha, cl_mem a, size_t a_off, size_t lda,
                             cl_mem b, size_t b_off, size_t ldb, double beta, cl_mem c,
                             size_t c_off, size_t ldc, const tsl__gemm_ext *ext)
{
    if (m == 0 || n == 0) return TSL_OK;
    if (k == 0 || alpha == 0.0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "gemm: the Level-3 modes need k > 0 and alpha != 0 (internal)");
    gemm_problem p = ext_problem(prec, ta, tb, m, n, k, alpha, a, a_off, lda, b, b_off, ldb, beta,
                                 c, c_off, ldc, ext);
    gemm_choice ch;
    const char *variant = tsl__context_variant(ctx, "gemm");
    tsl_status s = choose(ctx, variant, p.dbl, &(tsl__shape){m, n, k}, &ch);
    if (s != TSL_OK) return s;
    if (ch.v->kind != KIND_TILED2D)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "gemm: the Level-3 modes run on tiled2d only (variant %s)", ch.v->name);
    if ((ext->tri == TSL__TRI_C_LOWER || ext->tri == TSL__TRI_C_UPPER) &&
        strcmp(variant, "auto") == 0)
        tri_waves(ctx, &p, &ch);
    return run_tiled2d(ctx, &p, &ch);
}

/* ---- argument checks and the two public entry points ------------------------------------- */

typedef struct {
    tsl_layout layout;
    tsl_trans ta, tb;
    size_t m, n, k, lda, ldb, ldc;
} gemm_args;

static size_t max1(size_t x)
{
    return x ? x : 1;
}

/* CBLAS rules; messages speak of the caller's own arguments. */
static tsl_status check_args(tsl_context *ctx, const char *fn, const gemm_args *g)
{
    if (g->layout != TSL_ROW_MAJOR && g->layout != TSL_COL_MAJOR)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: layout %d is neither TSL_ROW_MAJOR nor TSL_COL_MAJOR", fn,
                         (int)g->layout);
    if (g->ta != TSL_NO_TRANS && g->ta != TSL_TRANS)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: transa %d is neither TSL_NO_TRANS nor TSL_TRANS", fn, (int)g->ta);
    if (g->tb != TSL_NO_TRANS && g->tb != TSL_TRANS)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: transb %d is neither TSL_NO_TRANS nor TSL_TRANS", fn, (int)g->tb);
    int row = g->layout == TSL_ROW_MAJOR;
    /* In row-major storage the leading dimension covers columns; in column-major, rows. */
    size_t a_need = max1(row == (g->ta == TSL_NO_TRANS) ? g->k : g->m);
    size_t b_need = max1(row == (g->tb == TSL_NO_TRANS) ? g->n : g->k);
    size_t c_need = max1(row ? g->n : g->m);
    if (g->lda < a_need)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: lda = %zu is smaller than %zu, which A needs", fn, g->lda, a_need);
    if (g->ldb < b_need)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: ldb = %zu is smaller than %zu, which B needs", fn, g->ldb, b_need);
    if (g->ldc < c_need)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: ldc = %zu is smaller than %zu, which C needs", fn, g->ldc, c_need);
    if (g->m > INT_MAX || g->n > INT_MAX || g->k > INT_MAX || g->lda > INT_MAX ||
        g->ldb > INT_MAX || g->ldc > INT_MAX)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "%s: sizes and leading dimensions above 2^31-1 are not supported", fn);
    return TSL_OK;
}

/* Row-major view after the column-major swap: stored A is ar x ac, B is br x bc. */
typedef struct {
    tsl_trans ta, tb;
    size_t m, n, k, lda, ldb, ldc;
    int swapped;
    size_t ar, ac, br, bc;
} gemm_view;

static gemm_view normalize(const gemm_args *g)
{
    gemm_view v = {g->ta, g->tb, g->m, g->n, g->k, g->lda, g->ldb, g->ldc, 0, 0, 0, 0, 0};
    if (g->layout == TSL_COL_MAJOR) {
        v = (gemm_view){g->tb, g->ta, g->n, g->m, g->k, g->ldb, g->lda, g->ldc, 1, 0, 0, 0, 0};
    }
    v.ar = v.ta == TSL_NO_TRANS ? v.m : v.k;
    v.ac = v.ta == TSL_NO_TRANS ? v.k : v.m;
    v.br = v.tb == TSL_NO_TRANS ? v.k : v.n;
    v.bc = v.tb == TSL_NO_TRANS ? v.n : v.k;
    return v;
}

/* The host path through the pipeline (ops/gemm_pipeline.c): chunks of rows of C whose uploads,
 * kernels and downloads overlap, through a ring of pinned staging; ctx->timing sums the chunks'
 * kernels and the transfers. */
static tsl_status gemm_pipelined(tsl_context *ctx, const tsl__gemm_host *h)
{
    tsl_timing t;
    memset(&t, 0, sizeof t);
    tsl_status s = tsl__gemm_pipe_run(ctx, h, NULL, &t);
    ctx->timing = t;
    return s;
}

static tsl_status gemm_host(tsl_context *ctx, const char *fn, int prec, const gemm_args *g,
                            double alpha, const void *a, const void *b, double beta, void *c)
{
    int dbl = prec == TSL_DOUBLE;
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    if (g->m == 0 || g->n == 0) return TSL_OK;
    if (!c) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: C is NULL", fn);
    int use_ab = g->k > 0 && alpha != 0.0;
    if (use_ab && (!a || !b))
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, a ? "B" : "A");
    if ((s = tsl__check_fp64(ctx, dbl, fn)) != TSL_OK) return s;
    gemm_view v = normalize(g);
    if (v.swapped) {
        const void *t = a;
        a = b;
        b = t;
    }
    size_t elem = elem_size(prec);
    if (tsl__mul_overflows(v.ar, v.ac) || tsl__mul_overflows(v.ar * v.ac, elem) ||
        tsl__mul_overflows(v.br, v.bc) || tsl__mul_overflows(v.br * v.bc, elem) ||
        tsl__mul_overflows(v.m, v.n) || tsl__mul_overflows(v.m * v.n, elem))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: matrix byte counts overflow", fn);
    if (prec != TSL_HALF) { /* the caller's own arguments: the pipeline maps rows of C itself */
        tsl__gemm_host h = {dbl,    g->layout, g->ta,  g->tb, g->m, g->n, g->k, g->lda,
                            g->ldb, g->ldc,    alpha,  beta,  v.swapped ? b : a,
                            v.swapped ? a : b, c};
        if (tsl__gemm_pipe_pays(ctx, &h)) return gemm_pipelined(ctx, &h);
    }
    gemm_problem p = {dbl,  elem, v.ta, v.tb, v.m,  v.n,  v.k, alpha,
                      beta, NULL, NULL, NULL, v.ac, v.bc, v.n, prec == TSL_HALF, 0, 0, 0,
                      0,    0,    0,    0,    0,    0};
    if ((s = tsl__workspace(ctx, 2, v.m * v.n * elem, &p.c)) != TSL_OK) return s;
    if (use_ab) {
        if ((s = tsl__workspace(ctx, 0, v.ar * v.ac * elem, &p.a)) != TSL_OK) return s;
        if ((s = tsl__workspace(ctx, 1, v.br * v.bc * elem, &p.b)) != TSL_OK) return s;
        if ((s = tsl__upload_rect(ctx, p.a, a, v.ar, v.ac * elem, v.lda * elem)) != TSL_OK)
            return s;
        if ((s = tsl__upload_rect(ctx, p.b, b, v.br, v.bc * elem, v.ldb * elem)) != TSL_OK)
            return s;
    } else {
        p.a = p.b = p.c; /* not read: the kernel runs an empty k loop */
    }
    if (beta != 0.0 && (s = tsl__upload_rect(ctx, p.c, c, v.m, v.n * elem, v.ldc * elem)) != TSL_OK)
        return s;
    s = run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx); /* waits: no result is read back from a failed run */
    if (s != TSL_OK) return s;
    if (done != TSL_OK) return done;
    if ((s = tsl__download_rect(ctx, p.c, c, v.m, v.n * elem, v.ldc * elem)) != TSL_OK) return s;
    return tsl__timing_end(ctx);
}

static tsl_status gemm_buf(tsl_context *ctx, const char *fn, int prec, const gemm_args *g,
                           double alpha, const tsl_buffer *a, const tsl_buffer *b, double beta,
                           tsl_buffer *c)
{
    int dbl = prec == TSL_DOUBLE;
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    tsl_status s = check_args(ctx, fn, g);
    if (s != TSL_OK) return s;
    if (g->m == 0 || g->n == 0) return TSL_OK;
    if ((s = tsl__check_fp64(ctx, dbl, fn)) != TSL_OK) return s;
    gemm_view v = normalize(g);
    if (v.swapped) {
        const tsl_buffer *t = a;
        a = b;
        b = t;
    }
    size_t elem = elem_size(prec);
    int use_ab = g->k > 0 && alpha != 0.0;
    const char *an = v.swapped ? "B" : "A", *bn = v.swapped ? "A" : "B";
    if ((s = tsl__check_matrix_buffer(ctx, fn, "C", c, v.m, v.n, v.ldc, elem)) != TSL_OK) return s;
    if (use_ab && (s = tsl__check_matrix_buffer(ctx, fn, an, a, v.ar, v.ac, v.lda, elem)) != TSL_OK)
        return s;
    if (use_ab && (s = tsl__check_matrix_buffer(ctx, fn, bn, b, v.br, v.bc, v.ldb, elem)) != TSL_OK)
        return s;
    gemm_problem p = {dbl,
                      elem,
                      v.ta,
                      v.tb,
                      v.m,
                      v.n,
                      v.k,
                      alpha,
                      beta,
                      use_ab ? a->mem : c->mem,
                      use_ab ? b->mem : c->mem,
                      c->mem,
                      v.lda,
                      v.ldb,
                      v.ldc,
                      prec == TSL_HALF,
                      0,
                      0,
                      0,
                      0,
                      0,
                      0,
                      0,
                      0,
                      0};
    s = run(ctx, &p);
    tsl_status done = tsl__timing_end(ctx);
    return s != TSL_OK ? s : done;
}

tsl_status tsl_sgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                     size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                     const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_host(ctx, "tsl_sgemm", TSL_SINGLE, &g, alpha, a, b, beta, c);
}

tsl_status tsl_dgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                     size_t m, size_t n, size_t k, double alpha, const double *a, size_t lda,
                     const double *b, size_t ldb, double beta, double *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_host(ctx, "tsl_dgemm", TSL_DOUBLE, &g, alpha, a, b, beta, c);
}

tsl_status tsl_sgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                         size_t m, size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_buf(ctx, "tsl_sgemm_buf", TSL_SINGLE, &g, alpha, a, b, beta, c);
}

tsl_status tsl_dgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                         size_t m, size_t n, size_t k, double alpha, const tsl_buffer *a,
                         size_t lda, const tsl_buffer *b, size_t ldb, double beta, tsl_buffer *c,
                         size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_buf(ctx, "tsl_dgemm_buf", TSL_DOUBLE, &g, alpha, a, b, beta, c);
}

tsl_status tsl_hgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                     size_t m, size_t n, size_t k, float alpha, const uint16_t *a, size_t lda,
                     const uint16_t *b, size_t ldb, float beta, uint16_t *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_host(ctx, "tsl_hgemm", TSL_HALF, &g, alpha, a, b, beta, c);
}

tsl_status tsl_hgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                         size_t m, size_t n, size_t k, float alpha, const tsl_buffer *a, size_t lda,
                         const tsl_buffer *b, size_t ldb, float beta, tsl_buffer *c, size_t ldc)
{
    gemm_args g = {layout, transa, transb, m, n, k, lda, ldb, ldc};
    return gemm_buf(ctx, "tsl_hgemm_buf", TSL_HALF, &g, alpha, a, b, beta, c);
}
