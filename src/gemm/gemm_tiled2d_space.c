/* gemm_tiled2d_space.c: tiled2d's search space, the descriptor the tuner walks (src/tune/, through
 * tsl__gemm_desc): which configurations are worth timing on a device (what runs, by
 * gemm_tiled2d_config.c's rules, pruned by what pays on the device type), which values of an axis
 * no configuration can use there, the seeds (the hand sweeps' designs, the tensor-core kinds'
 * built-in pairs), and why a kind has nothing to tune on a device without its instruction. */
#include <stdio.h>
#include <string.h>

#include "gemm/gemm_internal.h"

/* The tensor-core instruction of the kinds only it computes (16-bit storage, TF32, 3xTF32): the
 * MMA value of their configurations; 0 for single and double. */
static int tensor_mma(int kind)
{
    return GK_16BIT(kind)      ? MMA_16BIT_M16N8K16
           : GK_TF32ISH(kind) ? MMA_TF32_M16N8K8
                              : MMA_NONE;
}

static int tiled2d_prefix_ok(const tsl_context *ctx, int kind, const int *v, int a);

/* The tuner's space on this device: what runs, pruned by what pays on the device type. */
static int tiled2d_valid(const tsl_context *ctx, int kind, const int *v)
{
    for (int a = 0; a < NP; ++a) /* what runs here, and the rules the first axes decide */
        if (!tiled2d_prefix_ok(ctx, kind, v, a)) return 0;
    /* wgmma's tiles only where they run natively (emulated, they only test the data path), and
     * k-steps of 64 (the 128-byte swizzle's rows of 16-bit values) and 192-row tiles of three
     * warpgroups (12 x 32 items) only for them */
    if (v[P_WG] ? !tsl__tiled2d_wg_native(ctx)
                : v[P_KWG] == 64 || v[P_MWG] == 192 || v[P_MDIMC] == 12)
        return 0;
    int dbl = kind == GK_DOUBLE;
    int mwi = v[P_MWG] / v[P_MDIMC], nwi = v[P_NWG] / v[P_NDIMC];
    int nthreads = v[P_MDIMC] * v[P_NDIMC], sa = v[P_SA], sb = v[P_SB];
    int w = dbl ? 2 : 1; /* 32-bit registers per value */
    if (tensor_mma(kind) || (v[P_MMA] && v[P_ASYNC])) {
        /* The tensor-core path ignores APAD (its rows are padded by 8) and STRIDED (each warp
         * owns a fixed block), and with ASYNC also VW but for the host's packing rule: one value
         * of each, as the built-ins have (VW=2, or 1 where 2 cannot run), so no kernel is timed
         * twice under two names. For double, VW = 2 is one 16-byte chunk: the packing rule and
         * the copies' coincide. (Double's non-ASYNC MMA points keep the FMA space's APAD and
         * STRIDED rules, as its shipped entries were searched.) */
        if (v[P_APAD] || !v[P_STRIDED]) return 0;
        if (v[P_ASYNC] && v[P_VW] != 2) {
            int two[NP];
            memcpy(two, v, sizeof two);
            two[P_VW] = 2;
            if (v[P_VW] != 1 || tsl__tiled2d_runs(ctx, kind, two)) return 0;
        }
    }
    /* padding only matters for a staged A: 0 or 1 for scalar reads, 0 or 4 for vector reads */
    else if (!sa ? v[P_APAD] != 0 : v[P_VWA] > 1 ? v[P_APAD] == 1 : v[P_APAD] == 4)
        return 0;
    if (strcmp(ctx->info.type, "gpu") == 0) {
        /* a warp at least; ALIAS is a CPU cache matter; registers: accumulators + one column of
         * A + one row of B (+ the prefetched tile) + addressing, within 255 and the block */
        if (nthreads < 32 || v[P_ALIAS]) return 0;
        int est = tsl__tiled2d_registers(dbl, v);
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

/* tiled2d_valid's rules that axis a decides, given the axes before it (the tuner's prefix_ok):
 * tsl__tiled2d_runs's own (tsl__tiled2d_runs_at) and what pays on the device, so a point it rules
 * out is one valid() would refuse. Double's space on an sm_90 is 4 x 10^8 points, most of them
 * refused on the first few axes or on the ring's (10 s to enumerate one by one). */
static int tiled2d_prefix_ok(const tsl_context *ctx, int kind, const int *v, int a)
{
    if (!tsl__tiled2d_runs_at(ctx, kind, v, a)) return 0;
    switch (a) {
    case P_NDIMC: /* a warp at least on GPUs */
        return !(strcmp(ctx->info.type, "gpu") == 0 && v[P_MDIMC] * v[P_NDIMC] < 32);
    case P_MMA: /* emulated: correct, never fast */
        return !(v[P_MMA] && !tsl__tiled2d_native_mma(ctx, v[P_MMA]));
    case P_ASYNC: /* the ring: an instruction's tiles, without register staging */
        return !(v[P_ASYNC] &&
                 (!v[P_MMA] || v[P_PF] || v[P_DBUF] || v[P_VWA] != 1 || v[P_WN]));
    case P_FPIPE:
        return !(v[P_FPIPE] && !v[P_ASYNC]);
    default:
        return 1;
    }
}

/* Values of an axis no configuration can use here (tiled2d_valid's rules, one axis at a time):
 * the tuner skips them without visiting the points. */
static int tiled2d_allowed(const tsl_context *ctx, int kind, int axis, int value)
{
    int dbl = kind == GK_DOUBLE, mma = tensor_mma(kind);
    if (axis == P_MMA)
        return mma ? value == mma && tsl__tiled2d_native_mma(ctx, value)
                   : value == MMA_NONE || (dbl && tsl__tiled2d_mma(value).data == MMA_FP64 &&
                                           tsl__tiled2d_native_mma(ctx, value));
    /* the asynchronous ring and its fragment pipeline: the tensor-core kinds, and double where
     * the device has an FP64 instruction; B transposed (ldmatrix reads): 16-bit and TF32 only */
    if ((axis == P_ASYNC || axis == P_FPIPE) && value)
        return mma != 0 ||
               (dbl && (tsl__tiled2d_native_mma(ctx, 1) || tsl__tiled2d_native_mma(ctx, 2)));
    if (axis == P_BT && value) return mma != 0;
    /* wgmma (and its k-steps of 64, 192-row tiles, 12-row work-groups): the tensor-core kinds
     * where it runs natively */
    if ((axis == P_WG && value) || (axis == P_KWG && value == 64) ||
        (axis == P_MWG && value == 192) || (axis == P_MDIMC && value == 12))
        return mma != 0 && tsl__tiled2d_wg_native(ctx);
    if (mma) /* the tensor-core path: both tiles staged, scalar A reads, no WN, one APAD/STRIDED */
        return !((axis == P_SA || axis == P_SB || axis == P_STRIDED) && !value) &&
               !((axis == P_VWA && value > 1) || (axis == P_VW && value > 8)) &&
               !((axis == P_WN || axis == P_ALIAS || axis == P_APAD) && value);
    if (axis == P_VW && dbl && value > 8) return 0;
    if (strcmp(ctx->info.type, "gpu") == 0) return !(axis == P_ALIAS && value);
    /* CPUs: no staging, interleaving, prefetch (it needs staging), vector reads of a staged A
     * or padding of one */
    int off = axis == P_SA || axis == P_SB || axis == P_STRIDED || axis == P_DBUF ||
              axis == P_WN || axis == P_PF || axis == P_APAD;
    return !(off && value) && !(axis == P_VWA && value > 1);
}

/* The tuner's first candidates after auto's: the designs a hand sweep on an H200 found (random
 * search alone never sampled the first, 1.34x its winner there: docs/tuning.md). */
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
    /* double on the FP64 tensor cores, registers staged (m16n8k8) */
    "tiled2d:MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,DBUF=1,"
    "APAD=0,MMA=2",
    /* the same tiles fed by the asynchronous ring (on the H100 1.35x the one above at 4096):
     * random draws seldom land on a ring point among double's millions, so the search starts
     * from one and refinement walks its stages, FPIPE, MMA and tiles; from here it finds the
     * shipped sm_90 DGEMM entry (64 x 64 x 16, m16n8k16, 2 stages) */
    "tiled2d:MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,VW=2,SA=1,SB=1,PF=0,STRIDED=1,VWA=1,DBUF=0,"
    "APAD=0,MMA=2,ASYNC=3",
    NULL};

/* The tensor-core kinds' seeds: their built-in pair (the ASYNC design of the H100 rounds, then the
 * first tensor-core tiles), so a search starts from what auto runs without a database entry. */
static int tiled2d_kind_seed(int kind, int i, int *values)
{
    const tiled2d_params *pair = tsl__tiled2d_builtin_pair(kind);
    if (!pair || i < 0 || i > 1) return 0;
    memcpy(values, pair[i].v, sizeof pair[i].v);
    return 1;
}

/* The tensor-core kinds run fast only on the instruction: elsewhere their configurations are an
 * emulation (correct, never fast), which the space leaves out, so there is nothing to tune. */
static const char *tiled2d_unavailable(const tsl_context *ctx, int kind, char *why, size_t cap)
{
    int mma = tensor_mma(kind);
    if (!mma || tsl__tiled2d_native_mma(ctx, mma)) return NULL;
    snprintf(why, cap,
             "%s GEMM runs on tiled2d's tensor-core configurations (MMA=%d), and device %s has "
             "no %s tensor-core instruction (mma.sync %s: NVIDIA sm_80 and later); they run "
             "emulated here, correct but never fast, so there is nothing to tune",
             kind == GK_HALF ? "half" : kind == GK_BF16 ? "bfloat16" : kind == GK_TF32 ? "TF32"
                                                                                        : "3xTF32",
             mma, ctx->info.name, mma == MMA_16BIT_M16N8K16 ? "16-bit" : "TF32",
             mma == MMA_16BIT_M16N8K16 ? "m16n8k16 f16/bf16" : "m16n8k8 tf32");
    return why;
}

/* The tuner walks every axis but the host's choices with an automatic setting (KSPLIT, DIRECT,
 * PEEL: held at 0). */
const tsl__space tsl__tiled2d_space = {"tiled2d",
                                       tsl__tiled2d_axes,
                                       NP,
                                       tiled2d_valid,
                                       tiled2d_allowed,
                                       1ul << P_KSPLIT | 1ul << P_DIRECT | 1ul << P_PEEL,
                                       tiled2d_seeds,
                                       tiled2d_kind_seed,
                                       tiled2d_unavailable,
                                       tiled2d_prefix_ok};
