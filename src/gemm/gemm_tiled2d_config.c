/* gemm_tiled2d_config.c: tiled2d, the tuned GEMM kernel, on the host side, first part: its
 * configuration. The axes of its compile-time parameters, the last-resort configuration and the
 * tensor-core kinds' built-in pairs (the bases auto and an explicit "tiled2d:NAME=V,..." start
 * from), the rules of what runs on a device (the kernel's #error checks and the hard limits, with
 * the exact local memory a configuration takes), whether the device has a matrix instruction
 * natively, the kernel's -D options and the register estimate. The tuner's search space over
 * these is gemm_tiled2d_space.c; the run of one problem is gemm_tiled2d.c. */
#include <stdio.h>

#include "gemm/gemm_internal.h"

const tsl__axis tsl__tiled2d_axes[NP] = {
    {"MWG", 6, {16, 32, 64, 128, 192, 256}},  {"NWG", 5, {16, 32, 64, 128, 256}},
    {"KWG", 4, {8, 16, 32, 64}},             {"MDIMC", 7, {1, 2, 4, 8, 12, 16, 32}},
    {"NDIMC", 6, {1, 2, 4, 8, 16, 32}},  {"VW", 5, {1, 2, 4, 8, 16}},
    {"SA", 2, {0, 1}},                   {"SB", 2, {0, 1}},
    {"PF", 2, {0, 1}},                   {"STRIDED", 2, {0, 1}},
    {"VWA", 4, {1, 2, 4, 8}},            {"ALIAS", 2, {0, 1}},
    {"DBUF", 2, {0, 1}},                 {"APAD", 3, {0, 1, 4}},
    {"WN", 3, {0, 4, 8}},                {"MMA", 6, {0, 1, 2, 3, 4, 5}},
    {"KSPLIT", 7, {0, 1, 2, 4, 8, 16, 32}}, {"DIRECT", 3, {0, 1, 2}},
    {"PEEL", 3, {0, 1, 2}},               {"ASYNC", 4, {0, 2, 3, 4}},
    {"FPIPE", 2, {0, 1}},                {"BT", 2, {0, 1}},
    {"WG", 3, {0, 1, 2}},
};

/* The last resort when neither the user's tuning database nor the shipped defaults
 * (src/tune/defaults.tuning, where the per-device settings live) have an entry: modest tiles in
 * local memory that run everywhere. Here and below, a parameter not named is 0. */
const tiled2d_params tsl__tiled2d_fallback = {
    .v = {[P_MWG] = 64, [P_NWG] = 64, [P_KWG] = 16, [P_MDIMC] = 8, [P_NDIMC] = 8, [P_VW] = 4,
          [P_SA] = 1, [P_SB] = 1, [P_STRIDED] = 1, [P_VWA] = 1, [P_APAD] = 1}};

/* The tensor-core kinds' built-in configurations (16-bit storage, TF32, 3xTF32: no FMA kernel
 * computes them), the fastest of a search by hand on the H100 (docs/gemm.md): 128 x 128 tiles
 * of 4 warps, fed by asynchronous copies (ASYNC), 16-bit with double-buffered fragments (FPIPE)
 * and k-steps of 32, TF32 with k-steps of 16, 3 stages, FPIPE and B packed transposed with both
 * operands rounded by the pack (BT: the tuner's find, 1.25x / 1.39x the 2-stage one at 4096 /
 * 8192), 3xTF32 of 8 and 4 stages; the first
 * that runs on the device is the kind's base. The second of each pair takes over where these do
 * not fit (48 KiB and 33 KiB of local memory): the first tensor-core tiles (64 x 128,
 * double-buffered staging through registers, 13 KiB). */
static const tiled2d_params mma16_builtin[2] = {
    {.v = {[P_MWG] = 128, [P_NWG] = 128, [P_KWG] = 32, [P_MDIMC] = 8, [P_NDIMC] = 16, [P_VW] = 2,
           [P_SA] = 1, [P_SB] = 1, [P_STRIDED] = 1, [P_VWA] = 1, [P_MMA] = MMA_16BIT_M16N8K16,
           [P_ASYNC] = 3, [P_FPIPE] = 1}},
    {.v = {[P_MWG] = 64, [P_NWG] = 128, [P_KWG] = 16, [P_MDIMC] = 8, [P_NDIMC] = 32, [P_VW] = 2,
           [P_SA] = 1, [P_SB] = 1, [P_PF] = 1, [P_STRIDED] = 1, [P_VWA] = 1, [P_DBUF] = 1,
           [P_MMA] = MMA_16BIT_M16N8K16, [P_DIRECT] = 2}}};
static const tiled2d_params tf32_builtin[2] = {
    {.v = {[P_MWG] = 128, [P_NWG] = 128, [P_KWG] = 16, [P_MDIMC] = 8, [P_NDIMC] = 16, [P_VW] = 2,
           [P_SA] = 1, [P_SB] = 1, [P_STRIDED] = 1, [P_VWA] = 1, [P_MMA] = MMA_TF32_M16N8K8,
           [P_ASYNC] = 3, [P_FPIPE] = 1, [P_BT] = 1}},
    {.v = {[P_MWG] = 64, [P_NWG] = 128, [P_KWG] = 8, [P_MDIMC] = 8, [P_NDIMC] = 32, [P_VW] = 2,
           [P_SA] = 1, [P_SB] = 1, [P_PF] = 1, [P_STRIDED] = 1, [P_VWA] = 1, [P_DBUF] = 1,
           [P_MMA] = MMA_TF32_M16N8K8, [P_DIRECT] = 2}}};
static const tiled2d_params x3tf32_builtin[2] = {
    {.v = {[P_MWG] = 128, [P_NWG] = 128, [P_KWG] = 8, [P_MDIMC] = 8, [P_NDIMC] = 16, [P_VW] = 2,
           [P_SA] = 1, [P_SB] = 1, [P_STRIDED] = 1, [P_VWA] = 1, [P_MMA] = MMA_TF32_M16N8K8,
           [P_ASYNC] = 4}},
    {.v = {[P_MWG] = 64, [P_NWG] = 128, [P_KWG] = 8, [P_MDIMC] = 8, [P_NDIMC] = 32, [P_VW] = 2,
           [P_SA] = 1, [P_SB] = 1, [P_PF] = 1, [P_STRIDED] = 1, [P_VWA] = 1, [P_DBUF] = 1,
           [P_MMA] = MMA_TF32_M16N8K8, [P_DIRECT] = 2}}};

/* The built-in pair of a kind only the tensor cores compute; NULL for single and double. */
const tiled2d_params *tsl__tiled2d_builtin_pair(int kind)
{
    return GK_16BIT(kind)      ? mma16_builtin
           : kind == GK_TF32   ? tf32_builtin
           : kind == GK_3XTF32 ? x3tf32_builtin
                               : NULL;
}

/* The kind's base configuration on ctx's device: tsl__tiled2d_fallback, or for the kinds only the
 * tensor cores compute the first of their pair that runs there. */
tiled2d_params tsl__tiled2d_base(const tsl_context *ctx, int kind)
{
    return tsl__tiled2d_overlay_base(ctx, kind, 0);
}

/* What an explicit "tiled2d:NAME=V,..." overlays for the kind (overlay = 1): the second of the
 * pair, the first tensor-core tiles, which run on every device and which configurations written
 * before ASYNC, FPIPE and BT existed were written against (the pair's first names those three, so
 * a string that leaves them out would inherit a ring it never asked for). */
tiled2d_params tsl__tiled2d_overlay_base(const tsl_context *ctx, int kind, int overlay)
{
    const tiled2d_params *pair = tsl__tiled2d_builtin_pair(kind);
    if (!pair) return tsl__tiled2d_fallback;
    return !overlay && tsl__tiled2d_runs(ctx, kind, pair[0].v) ? pair[0] : pair[1];
}

/* Bytes of one element of the staged tiles (and of the matrices in memory). */
static size_t kind_elem(int kind)
{
    return kind == GK_DOUBLE ? sizeof(double) : GK_16BIT(kind) ? 2 : sizeof(float);
}

/* Bytes of local memory tiled2d's staged tiles take (twice with DBUF); with MMA rows are padded
 * by 8 elements. Exact (the kernel's Als and Bls), so that a configuration over a device's local
 * memory (NVIDIA's OpenCL: 48 KiB) is refused before it is built. */
size_t tsl__tiled2d_local_bytes(int kind, const int *v)
{
    if (v[P_ASYNC]) { /* a ring of ASYNC stages, A [m][k], B [k][n] (or [n][k] with BT): FP64 A
                       * rows padded by 4, float and double B rows by 8 (gemm_tiled2d.cl) */
        tiled2d_mma_data data = tsl__tiled2d_mma(v[P_MMA]).data;
        int fp64 = data == MMA_FP64;
        size_t apad = fp64 ? 4 : 0, bpad = (fp64 || data == MMA_TF32) && !v[P_BT] ? 8 : 0;
        size_t parts = v[P_WG] && kind == GK_3XTF32 ? 2 : 1; /* 3xTF32 on wgmma: big, small */
        return ((size_t)v[P_MWG] * ((size_t)v[P_KWG] + apad) +
                (size_t)v[P_KWG] * ((size_t)v[P_NWG] + bpad)) *
               kind_elem(kind) * (size_t)v[P_ASYNC] * parts;
    }
    size_t apad = v[P_MMA] ? 8 : (size_t)v[P_APAD], bpad = v[P_MMA] ? 8 : 0;
    size_t a = v[P_SA] ? (size_t)v[P_KWG] * ((size_t)v[P_MWG] + apad) : 0;
    size_t b = v[P_SB] ? (size_t)v[P_KWG] * ((size_t)v[P_NWG] + bpad) : 0;
    return (a + b) * kind_elem(kind) * (v[P_DBUF] ? 2 : 1);
}

/* The matrix instruction of each MMA value (gemm_internal.h). */
static const tiled2d_mma mma_of[] = {
    [MMA_NONE] = {MMA_NO_SHAPE, MMA_NO_DATA},
    [MMA_FP64_M8N8K4] = {MMA_M8N8K4, MMA_FP64},
    [MMA_FP64_M16N8K8] = {MMA_M16N8K8, MMA_FP64},
    [MMA_FP64_M16N8K16] = {MMA_M16N8K16, MMA_FP64},
    [MMA_16BIT_M16N8K16] = {MMA_M16N8K16, MMA_16BIT},
    [MMA_TF32_M16N8K8] = {MMA_M16N8K8, MMA_TF32},
};

tiled2d_mma tsl__tiled2d_mma(int value)
{
    if (value < 0 || (size_t)value >= sizeof mma_of / sizeof mma_of[0])
        return (tiled2d_mma){MMA_NO_SHAPE, MMA_NO_DATA};
    return mma_of[value];
}

/* The instruction's rows (of A and D) and depth: 8 and 4 for m8n8k4; 16 and 8 or 16 for the
 * others (its 8 columns are those of every shape). */
static int mma_rows(int mma)
{
    return tsl__tiled2d_mma(mma).shape == MMA_M8N8K4 ? 8 : 16;
}
static int mma_depth(int mma)
{
    tiled2d_mma_shape shape = tsl__tiled2d_mma(mma).shape;
    return shape == MMA_M8N8K4 ? 4 : shape == MMA_M16N8K8 ? 8 : 16;
}

const char *tsl__tiled2d_kind_rule(int kind, const int *v)
{
    tiled2d_mma_data data = tsl__tiled2d_mma(v[P_MMA]).data;
    if (kind == GK_DOUBLE && (data == MMA_16BIT || data == MMA_TF32))
        return "MMA=4 and 5 are 16-bit and TF32 instructions: double runs MMA=0 to 3";
    if (kind == GK_SINGLE && data != MMA_NO_DATA)
        return "single precision in FP32 math runs MMA=0 (MMA=5 is TF32: set the gemm option "
               "math to TSL_MATH_TF32 or TSL_MATH_3XTF32)";
    if (GK_16BIT(kind) && data != MMA_16BIT)
        return "tiled2d has 16-bit storage only in its tensor-core configurations: MMA=4";
    if (GK_TF32ISH(kind) && data != MMA_TF32)
        return "TF32 and 3xTF32 math run on tiled2d's TF32 tensor-core configurations only: "
               "MMA=5";
    return "";
}


/* TF32 math with B packed transposed (BT): the pack rounds both operands to TF32 (gemm_pack's
 * PACK_TF32), and the kernel multiplies them as they are (PRE_TF32). */
int tsl__tiled2d_pre_tf32(int kind, const int *v)
{
    return kind == GK_TF32 && v[P_BT] && tsl__tiled2d_mma(v[P_MMA]).data == MMA_TF32;
}

/* How the pack prepares TF32 operands: 1 rounded (tsl__tiled2d_pre_tf32), 2 split into two planes,
 * big = tf32(x) then small = x - big (3xTF32 on wgmma: the ring copies both), else 0. */
int tsl__tiled2d_pack_tf32(int kind, const int *v)
{
    if (tsl__tiled2d_pre_tf32(kind, v)) return 1;
    return kind == GK_3XTF32 && v[P_WG] && tsl__tiled2d_mma(v[P_MMA]).data == MMA_TF32 ? 2 : 0;
}

/* ASYNC's rules (the kernel's #error checks): a tensor-core configuration (any MMA: FP64, 16-bit,
 * TF32) staging both tiles without PF, DBUF or DIRECT; rows of whole 16-byte chunks (2 doubles, 4
 * floats, 8 16-bit values), at most 8 of them along k where A is swizzled (MMA=4, 5; FP64 rows
 * are padded instead); every work-item copies the same number of chunks; 16-bit B fragments in
 * pairs of n tiles; BT (ldmatrix reads of B^T) only for the 16-bit and TF32 instructions. */
static int async_runs(int kind, const int *v)
{
    int che = 16 / (int)kind_elem(kind), nthreads = v[P_MDIMC] * v[P_NDIMC];
    int akc = v[P_KWG] / che, bnc = v[P_NWG] / che, nwi = v[P_NWG] / v[P_NDIMC];
    tiled2d_mma_data data = tsl__tiled2d_mma(v[P_MMA]).data;
    int swizzled = data == MMA_16BIT || data == MMA_TF32; /* A swizzled, not padded */
    if (v[P_WG]) /* wgmma's copies: its own layout and shares (wg_runs) */
        return data != MMA_NO_DATA && v[P_SA] && v[P_SB] && !v[P_PF] && !v[P_DBUF] &&
               v[P_DIRECT] != 1 && v[P_KWG] % che == 0 && !(swizzled && akc > 8);
    return data != MMA_NO_DATA && v[P_SA] && v[P_SB] && !v[P_PF] && !v[P_DBUF] &&
           v[P_DIRECT] != 1 && v[P_KWG] % che == 0 && v[P_NWG] % che == 0 &&
           !(swizzled && akc > 8) && (v[P_MWG] * akc) % nthreads == 0 &&
           (v[P_KWG] * bnc) % nthreads == 0 && !(data == MMA_16BIT && nwi % 2) &&
           !(v[P_BT] && (!swizzled || nwi % 2 || (v[P_NWG] * akc) % nthreads));
}

/* Whether wgmma runs natively: sm_90 (H100, H200), through the patched PTX (sm_90a), which the
 * driver may still refuse when the kernel is built (the caller then falls back:
 * gemm_tiled2d.c). Blackwell (sm_100) has no wgmma. */
int tsl__tiled2d_wg_native(const tsl_context *ctx)
{
    return tsl__nv_compute_capability(ctx) == 90;
}

/* WG's rules (gemm_wgmma.cl's #error checks): the ring (ASYNC) of the 16-bit instruction, or the
 * TF32 one on operands the pack rounds (TF32 math with BT) or splits (3xTF32); B packed as [n][k] (BT); one
 * warpgroup of 128 items per 64 rows; the instruction as wide as the tile (NWG 64, 128 or 256);
 * k-steps of whole instructions; VW 2; with the 128-byte swizzle (WG=2), k rows of 128 bytes. Natively on
 * sm_90 (tsl__tiled2d_wg_native), emulated where the device has no tensor cores at all (PoCL);
 * other devices run none. */
static int has_mma(const tsl_context *ctx, int mma);
static int wg_runs(const tsl_context *ctx, int kind, const int *v)
{
    tiled2d_mma_data data = tsl__tiled2d_mma(v[P_MMA]).data;
    int che = 16 / (int)kind_elem(kind), akc = v[P_KWG] / che;
    int nthreads = v[P_MDIMC] * v[P_NDIMC], mwg = v[P_MWG], nwg = v[P_NWG];
    if (!(data == MMA_16BIT || (data == MMA_TF32 && tsl__tiled2d_pack_tf32(kind, v)))) return 0;
    if (!v[P_ASYNC] || !v[P_BT] || nthreads != 2 * mwg || mwg % 64 ||
        !(nwg == 64 || nwg == 128 || nwg == 256) || v[P_KWG] % mma_depth(v[P_MMA]) ||
        v[P_VW] != 2 || (v[P_WG] == 2 && akc != 8))
        return 0;
    return tsl__tiled2d_wg_native(ctx) || !has_mma(ctx, v[P_MMA]);
}

/* The local memory a configuration may take: sm_90a's 227 KiB for a ring (ASYNC, WG) on sm_90
 * with its tensor-core instruction (past what the device reports, the sm_90a patch declares it:
 * tsl__tiled2d_sm90a), else what the device reports. */
static size_t local_limit(const tsl_context *ctx, const int *v)
{
    int native = v[P_MMA] && has_mma(ctx, v[P_MMA]) && tsl__tiled2d_wg_native(ctx);
    return (v[P_WG] || v[P_ASYNC]) && native ? (size_t)TSL__PTX_SHARED_MAX
                                             : (size_t)ctx->info.local_mem;
}

int tsl__tiled2d_sm90a(const tsl_context *ctx, int kind, const int *v)
{
    if (!tsl__tiled2d_wg_native(ctx) || !v[P_MMA] || !has_mma(ctx, v[P_MMA])) return 0;
    return v[P_WG] || (v[P_ASYNC] && tsl__tiled2d_local_bytes(kind, v) > ctx->info.local_mem);
}

/* tsl__tiled2d_runs's rules that axis a decides, given the axes before it (those after it may be
 * unset): each rule is checked at the last axis it reads, so the tuner can rule out a prefix of
 * the axes (tiled2d_prefix_ok) with the very rules a whole configuration is held to. */
static int has_mma(const tsl_context *ctx, int mma);

/* Bytes of local memory the emulation of a matrix instruction adds (MMA_EMULATE, where the device
 * lacks the instruction): each item's A and B fragment registers (gemm_tiled2d_kernel.cl's
 * mma_fa, mma_fb), and with ASYNC's 16-bit and TF32 fragment reads its ldmatrix row offset
 * (ldsm_xa). Without them a configuration whose tiles just fit was built and then refused at
 * launch (CL_OUT_OF_RESOURCES: Oclgrind at NVIDIA's 48 KiB, tests/oclgrind.cmake). */
static size_t emulation_local_bytes(const tsl_context *ctx, const int *v)
{
    int mma = v[P_MMA];
    if (!mma || has_mma(ctx, mma) || v[P_WG]) return 0; /* WG's emulation: from the ring itself */
    size_t threads = (size_t)v[P_MDIMC] * (size_t)v[P_NDIMC];
    size_t k = (size_t)mma_depth(mma), na = (size_t)mma_rows(mma) * k / 32, nb = 8 * k / 32;
    if (mma == 4) na /= 2, nb /= 2; /* two 16-bit values a register */
    size_t frag = mma >= 4 ? sizeof(cl_uint) : sizeof(double); /* FP64 fragments are doubles */
    return threads * ((na + nb) * frag + (v[P_ASYNC] && mma >= 4 ? sizeof(cl_int) : 0));
}

int tsl__tiled2d_runs_at(const tsl_context *ctx, int kind, const int *v, int a)
{
    if (a < P_NDIMC) return 1; /* the work-group shape decides the first rules */
    int mwg = v[P_MWG], nwg = v[P_NWG], kwg = v[P_KWG], mdimc = v[P_MDIMC], ndimc = v[P_NDIMC];
    int nthreads = mdimc * ndimc, sa = a >= P_SA && v[P_SA], sb = a >= P_SB && v[P_SB];
    switch (a) {
    case P_NDIMC:
        return !(mwg % mdimc || nwg % ndimc || (size_t)nthreads > ctx->info.max_work_group);
    case P_VW:
        return !((nwg / ndimc) % v[P_VW] || (kind == GK_DOUBLE && v[P_VW] > 8));
    /* 12-row work-groups are wgmma's three warpgroups (WG: its own copies, wg_runs; the last
     * axis rejects them without WG) */
    case P_SA:
        return !(sa && (mwg * kwg) % nthreads && mdimc != 12);
    case P_SB:
        return !(sb && (kwg * nwg / v[P_VW]) % nthreads && mdimc != 12);
    case P_PF:
        return !(v[P_PF] && !sa && !sb);
    case P_DBUF:
        return !(v[P_DBUF] && !v[P_PF]);
    case P_APAD: {
        int vwa = v[P_VWA];
        return !(vwa > 1 && (!sa || (mwg / mdimc) % vwa || (mwg + v[P_APAD]) % vwa));
    }
    case P_WN: {
        int wn = v[P_WN];
        return !(wn && (nthreads % 32 || ndimc % wn || mdimc % (32 / wn)));
    }
    case P_MMA:
        /* the kind's instruction; a matrix instruction (emulated where the device lacks it):
         * whole warps of its tiles, k-steps of its depth, B's staged rows (padded by 8) whole
         * vectors */
        if (*tsl__tiled2d_kind_rule(kind, v)) return 0;
        return !(v[P_MMA] && (!sa || !sb || mdimc % 4 || ndimc % 8 ||
                              (4 * (mwg / mdimc)) % mma_rows(v[P_MMA]) ||
                              kwg % mma_depth(v[P_MMA]) || v[P_VWA] != 1 || v[P_WN] ||
                              v[P_VW] > 8));
    case P_BT:
        /* DIRECT = 2 on a ring configuration: its register-staged companion reads small ragged
         * problems in place (ring_companion) */
        if (v[P_DIRECT] && !(sa && sb && (v[P_PF] || (v[P_ASYNC] && v[P_DIRECT] == 2))))
            return 0;
        if (v[P_ASYNC] && !async_runs(kind, v)) return 0;
        return !((v[P_FPIPE] || v[P_BT]) && !v[P_ASYNC]);
    case P_WG:
        if (v[P_WG] ? !wg_runs(ctx, kind, v) : mdimc == 12) return 0;
        return tsl__tiled2d_local_bytes(kind, v) + emulation_local_bytes(ctx, v) <=
               local_limit(ctx, v);
    default:
        return 1;
    }
}

/* What the kernel's #error checks and the device's hard limits allow: any such configuration
 * runs correctly on the device (named explicitly, or from a database entry). */
int tsl__tiled2d_runs(const tsl_context *ctx, int kind, const int *v)
{
    for (int a = 0; a < NP; ++a)
        if (!tsl__tiled2d_runs_at(ctx, kind, v, a)) return 0;
    return 1;
}

static int has_mma(const tsl_context *ctx, int mma);

int tsl__tiled2d_native_mma(const tsl_context *ctx, int mma)
{
    return has_mma(ctx, mma);
}

/* Whether the device has the matrix instruction of an MMA value. FP64, MMA = 1 (m8n8k4), 2
 * (m16n8k8) or 3 (m16n8k16): NVIDIA's data-centre parts only (sm_80: m8n8k4; sm_90, sm_100,
 * sm_103, sm_110: all); the consumer ones (sm_86, sm_89, sm_120) accept the PTX but have no FP64
 * tensor cores. MMA = 4 (m16n8k16 f16 / bf16) and 5 (m16n8k8 tf32): every NVIDIA GPU from sm_80
 * on (probed on the H100: shared/probes/tcprobe.c). */
static int has_mma(const tsl_context *ctx, int mma)
{
    int cc = tsl__nv_compute_capability(ctx);
    tiled2d_mma m = tsl__tiled2d_mma(mma);
    if (m.data == MMA_16BIT || m.data == MMA_TF32) return cc >= 80;
    return (cc == 80 && m.shape == MMA_M8N8K4) || cc == 90 || cc == 100 || cc == 103 || cc == 110;
}

/* The kernel's -D options: every axis but the host's (ALIAS, KSPLIT, PEEL); MMA only when set (the
 * programs without it keep their cache keys), emulated where has_mma says no; with MMA=5 the
 * math mode (MATH=1: TF32, 2: 3xTF32). */
void tsl__tiled2d_options(const tsl_context *ctx, int kind, const tiled2d_params *tp, char *out,
                          size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (int a = 0; a < NP && n < cap; ++a)
        if (a != P_ALIAS && a != P_KSPLIT && a != P_PEEL &&
            !((a == P_MMA || a == P_ASYNC || a == P_FPIPE || a == P_BT || a == P_WG) &&
              !tp->v[a]))
            n += (size_t)snprintf(out + n, cap - n, "%s-D%s=%d", n ? " " : "",
                                  tsl__tiled2d_axes[a].name,
                                  a == P_DIRECT ? tp->v[a] == 1 : tp->v[a]);
    if (tsl__tiled2d_mma(tp->v[P_MMA]).data == MMA_TF32 && n < cap)
        n += (size_t)snprintf(out + n, cap - n, " -DMATH=%d", kind == GK_3XTF32 ? 2 : 1);
    if (tsl__tiled2d_pre_tf32(kind, tp->v) && n < cap)
        n += (size_t)snprintf(out + n, cap - n, " -DPRE_TF32=1");
    if (tp->v[P_WG] && n < cap)
        n += (size_t)snprintf(out + n, cap - n, " -DWG_BYTES=%zu",
                              tsl__tiled2d_local_bytes(kind, tp->v));
    /* the ring in one array: past the device's local memory (the sm_90a patch enlarges it), and
     * under the emulation, so that the tests run that form */
    else if (tp->v[P_ASYNC] && n < cap &&
             (tsl__tiled2d_sm90a(ctx, kind, tp->v) || !has_mma(ctx, tp->v[P_MMA])))
        n += (size_t)snprintf(out + n, cap - n, " -DRING_BYTES=%zu",
                              tsl__tiled2d_local_bytes(kind, tp->v));
    if (tp->v[P_MMA] && !has_mma(ctx, tp->v[P_MMA]) && n < cap)
        snprintf(out + n, cap - n, " -DMMA_EMULATE=1");
}

/* Registers per work-item that tiled2d's parameters need, as the tuner's pruning estimates
 * them: accumulators + one column of A + one row of B (+ the prefetched tile) + addressing; for
 * FP64 with FPIPE, a second set of fragments: a lane's A and B fragments of one instruction
 * depth d are MWI d / 8 and NWI d / 4 doubles (the warp's 4 MWI x 8 NWI block). */
int tsl__tiled2d_registers(int dbl, const int *v)
{
    int mwi = v[P_MWG] / v[P_MDIMC], nwi = v[P_NWG] / v[P_NDIMC];
    int nthreads = v[P_MDIMC] * v[P_NDIMC], w = dbl ? 2 : 1;
    int nla = v[P_SA] ? v[P_MWG] * v[P_KWG] / nthreads : 0;
    int nlb = v[P_SB] ? v[P_KWG] * v[P_NWG] / nthreads : 0;
    int depth = v[P_MMA] ? mma_depth(v[P_MMA]) : 0;
    int fpipe = dbl && v[P_FPIPE] && v[P_MMA] ? (mwi * depth / 8 + nwi * depth / 4) * w : 0;
    return (mwi * nwi + mwi + nwi) * w + (v[P_PF] ? (nla + nlb) * w : 0) + fpipe + 24;
}
