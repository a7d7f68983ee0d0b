/* gemm_tiled2d.c: tiled2d, the tuned GEMM kernel, on the host side: the run of one row-major
 * problem: the pack pre-pass that makes operands dense and tile-multiple, split k for problems of
 * few tiles, the plan of what is read in place, the Level-3 modes (triangles, strided batches),
 * the peeled edges and the FP64 ring's companion. Its configuration (parameters, built-ins, the
 * rules of what runs, the -D options) is gemm_tiled2d_config.c, the tuner's search space over it
 * gemm_tiled2d_space.c. gemm.c chooses the configuration and calls tsl__gemm_run_tiled2d. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include "gemm/gemm_internal.h"

/* Copies a strided rows x cols operand (from element src_off of src) into a zero-padded
 * prows x pcols scratch buffer whose rows are pcols elements apart; tf32 1 rounds each element to
 * TF32, 2 writes tf32(x) there and x - tf32(x) in a second such plane after it (3xTF32 on
 * wgmma). */
static tsl_status pack(tsl_context *ctx, const gemm_problem *p, int slot, cl_mem src,
                       size_t src_off, size_t rows, size_t cols, int s_rs, int s_cs, size_t prows,
                       size_t pcols, int tri, int tf32, cl_mem *out)
{
    tsl_status s = tsl__workspace(ctx, slot, prows * pcols * p->elem * (tf32 == 2 ? 2 : 1), out);
    if (s != TSL_OK) return s;
    cl_kernel k;
    char extra[40] = ""; /* tri 1 (2): keep the lower (upper) triangle only (gemm_pack) */
    if (tri) snprintf(extra, sizeof extra, "-DPACK_TRI=%d -DPACK_UNIT=%d", tri, p->unit == 1);
    if (tf32) snprintf(extra, sizeof extra, "-DPACK_TF32=%d", tf32); /* round (split) to TF32 */
    s = tsl__gemm_get_kernel(ctx, p, "gemm_pack", extra, &k);
    if (s != TSL_OK) return s;
    /* groups of 32 x 8 items, a 32 x 32 tile each (gemm.cl) */
    size_t local[2] = {32, 8},
           global[2] = {tsl__gemm_round_up(pcols, 32), tsl__gemm_round_up(prows, 32) / 4};
    int r = (int)rows, c = (int)cols, pr = (int)prows, pc = (int)pcols;
    cl_long off = (cl_long)src_off;
    tsl__arg args[] = {{sizeof r, &r},       {sizeof c, &c},       {sizeof(cl_mem), &src},
                       {sizeof s_rs, &s_rs}, {sizeof s_cs, &s_cs}, {sizeof pr, &pr},
                       {sizeof pc, &pc},     {sizeof(cl_mem), out}, {sizeof off, &off}};
    return tsl__launch(ctx, k, "gemm pack pre-pass", args, 9, 2, global, local);
}

/* Bytes of one partial result of split k: the accumulator's type, float for 16-bit storage (C is
 * rounded to 16 bits once, by the sum pass). */
static size_t acc_elem(const gemm_problem *p)
{
    return GK_16BIT(p->kind) ? sizeof(float) : p->elem;
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
    /* queues running at once (side queues): the others' launches fill the device (with the
     * count of groups times the queues, split k 2 was chosen where 3 x 128 groups spilled over 2
     * waves, and its sums ran 100 us beside the other queue's launches) */
    if (s == 0 && tsl__device_sharing(ctx) > 1) s = 1;
    if (s == 0) {
        double groups = (double)(Mp / (size_t)tp[P_MWG]) * (double)(Np / (size_t)tp[P_NWG]);
        double threads = (double)tp[P_MDIMC] * tp[P_NDIMC];
        double regs = (double)tsl__device_registers(ctx);
        double per_unit = floor(2048.0 / threads);
        double by_regs =
            floor((regs > 0 ? regs : 65536.0) / (threads * tsl__tiled2d_registers(p->dbl, tp)));
        double tile = (double)tsl__tiled2d_local_bytes(p->kind, tp);
        double by_local = tile > 0 ? floor((double)ctx->info.local_mem / tile) : per_unit;
        per_unit = fmax(1.0, fmin(per_unit, fmin(by_regs, by_local)));
        double slots = per_unit * (ctx->info.compute_units ? ctx->info.compute_units : 1);
        double best = -1.0;
        for (size_t c = 1; c <= 32; c *= 2) {
            if (c > 1 && (steps / c < 4 || c * p->m * p->n * acc_elem(p) > cap))
                break;
            double g = groups * (double)c, filled = g / (ceil(g / slots) * slots);
            double cost = c > 1 ? (2.0 * (double)c + 1.0) * (double)p->elem * 10.0 /
                                      (2.0 * (double)p->k)
                                : 0.0;
            double score = filled / (1.0 + cost);
            if (score > best * 1.02) best = score, s = c; /* a larger S must win by 2% */
        }
    }
    while (s > 1 && (steps / s < 1 || s * p->m * p->n * acc_elem(p) > cap)) s /= 2;
    return s;
}

/* Second pass of a split k: C = sum of the slices (+ beta C, or beta Cin where the problem reads
 * C from another place), in a fixed order. */
static tsl_status splitk_sum(tsl_context *ctx, const gemm_problem *p, cl_mem w, size_t slices)
{
    cl_kernel k;
    tsl_status s = tsl__gemm_get_kernel(ctx, p, "gemm_splitk_sum", "", &k);
    if (s != TSL_OK) return s;
    size_t e = tsl__gemm_square_edge(tsl__kernel_max_wg(ctx, k));
    size_t local[2] = {e, e},
           global[2] = {tsl__gemm_round_up(p->n, e), tsl__gemm_round_up(p->m, e)};
    int Mc = (int)p->m, Nc = (int)p->n, S = (int)slices, ldw = (int)p->n, ldc = (int)p->ldc;
    cl_long wslice = (cl_long)(p->m * p->n), c_off = (cl_long)p->c_off;
    cl_mem cin = p->cin ? p->cin : p->c;
    int ldcin = p->cin ? (int)p->ldcin : ldc;
    cl_long cin_off = p->cin ? (cl_long)p->cin_off : c_off;
    tsl__scalar be;
    tsl__arg args[] = {{sizeof Mc, &Mc},   {sizeof Nc, &Nc},         {sizeof S, &S},
                       {sizeof(cl_mem), &w}, {sizeof ldw, &ldw},       {sizeof wslice, &wslice},
                       tsl__scalar_arg(p->dbl, &be, p->beta), {sizeof(cl_mem), &p->c},
                       {sizeof ldc, &ldc}, {sizeof c_off, &c_off},  {sizeof(cl_mem), &cin},
                       {sizeof ldcin, &ldcin}, {sizeof cin_off, &cin_off}};
    return tsl__launch(ctx, k, "gemm split-k sum", args, (int)(sizeof args / sizeof args[0]), 2,
                       global, local);
}

tiles_plan tsl__gemm_plan_tiles(const gemm_problem *p, const int *tp, size_t Mp, size_t Np,
                                size_t Kp)
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
    /* ASYNC copies 16-byte chunks: rows and origins of A and B in whole chunks, no DIRECT */
    size_t che = 16 / p->elem;
    int async = tp[P_ASYNC] != 0;
    if (async) t.direct = 0;
    int packed_tri = p->unit != TSL__TRI_IN_PLACE; /* a triangle packed with zeros beside it */
    t.pack_a = tsl__tiled2d_pack_tf32(p->kind, tp) || p->ta != TSL_NO_TRANS ||
               (packed_tri && (p->tri == TSL__TRI_A_LOWER || p->tri == TSL__TRI_A_UPPER)) ||
               (async && (p->lda % che || p->a_off % che || p->a_stride % che)) ||
               (!t.direct && (Mp != p->m || Kp != p->k || !LD_OK(p->lda)));
    /* B's vector loads need its rows, and its origin, VW-aligned */
    t.pack_b = tp[P_BT] || p->tb != TSL_NO_TRANS || p->ldb % vw != 0 || p->b_off % vw != 0 ||
               (async && (p->ldb % che || p->b_off % che || p->b_stride % che)) ||
               (packed_tri && (p->tri == TSL__TRI_B_LOWER || p->tri == TSL__TRI_B_UPPER)) ||
               (!t.direct && (Kp != p->k || Np != p->n || !LD_OK(p->ldb)));
#undef LD_OK
    return t;
}

/* Whether a launch of `groups` tiles of C runs in bands of 8 tile rows, column by column within
 * a band, so the groups in flight share panels of A and B in the L2 cache (the ring, ASYNC
 * without a triangle mode, always does). On GPUs where the launch has more than 8 waves of one
 * group per compute unit (H100 single, the same runs side by side: 8192^3 1.0%, SYRK / SYR2K 8192
 * 4.5%, double SYRK 8192 on the ring 17% faster; at 4096, 1024 tiles of 128 x 128, SYRK / SYR2K
 * lost 3% and 4096 x 4096 x 256 2%); on CPUs always, so the suite on PoCL runs the banded code the
 * GPUs run (it costs about 2% there: single 1024 on the 2-core development machine, 148-152
 * against 152-153 GFLOP/s). Not with TRI 3 to 6, which order the heavy tiles first. */
static int band_order(const tsl_context *ctx, const gemm_problem *p, const int *tp, size_t groups)
{
    if (p->tri >= TSL__TRI_A_LOWER || (tp[P_ASYNC] && !p->tri)) return 0;
    if (strcmp(ctx->info.type, "gpu") != 0) return 1;
    return ctx->info.compute_units && groups > 8 * (size_t)ctx->info.compute_units;
}

static tsl_status run_tiled2d_tiles(tsl_context *ctx, const gemm_problem *p,
                                    const gemm_choice *c)
{
    const int *tp = c->tp.v;
    size_t Mp = tsl__gemm_round_up(p->m, (size_t)tp[P_MWG]);
    size_t Np = tsl__gemm_round_up(p->n, (size_t)tp[P_NWG]);
    size_t Kp = tsl__gemm_round_up(p->k, (size_t)tp[P_KWG]);
    if (Mp > INT_MAX || Np > INT_MAX || Kp > INT_MAX || Mp * Kp > SIZE_MAX / p->elem / 2 ||
        Kp * Np > SIZE_MAX / p->elem / 2)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "gemm: padded size exceeds 2^31-1 elements per side");
    cl_mem a = p->a, b = p->b;
    size_t lda = p->lda, ldb = p->ldb, vw = (size_t)tp[P_VW];
    size_t a_off = p->a_off, b_off = p->b_off; /* 0 once packed */
#define LD_FOR(cols) ((cols) + (tp[P_ALIAS] && ((cols)*p->elem) % 1024 == 0 ? vw : 0))
    tiles_plan plan = tsl__gemm_plan_tiles(p, tp, Mp, Np, Kp);
    int direct = plan.direct;
    tsl_status s = TSL_OK;
    if (plan.pack_a && p->batch)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "gemm: a batch whose A needs the pre-pass");
    if (plan.pack_b && p->batch)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "gemm: a batch whose B needs the pre-pass");
    if (plan.pack_a) {
        int rs, cs;
        tsl__gemm_op_strides(p->ta, p->lda, &rs, &cs);
        lda = LD_FOR(Kp);
        int tri = p->tri == TSL__TRI_A_LOWER ? 1 : p->tri == TSL__TRI_A_UPPER ? 2 : 0;
        s = pack(ctx, p, TSL__WS_PACK_A, p->a, p->a_off, p->m, p->k, rs, cs, Mp, lda, tri,
                 tsl__tiled2d_pack_tf32(p->kind, tp), &a);
        a_off = 0;
    }
    if (s == TSL_OK && plan.pack_b) {
        int rs, cs;
        tsl__gemm_op_strides(p->tb, p->ldb, &rs, &cs);
        int tri = p->tri == TSL__TRI_B_LOWER ? 1 : p->tri == TSL__TRI_B_UPPER ? 2 : 0;
        if (tp[P_BT]) { /* op(B)^T: n rows of k, as A's tiles are laid out (the TF32 kind rounded) */
            ldb = LD_FOR(Kp);
            s = tri ? tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "gemm: BT with a triangular B")
                    : pack(ctx, p, TSL__WS_PACK_B, p->b, p->b_off, p->n, p->k, cs, rs, Np, ldb, 0,
                           tsl__tiled2d_pack_tf32(p->kind, tp), &b);
        } else {
            ldb = LD_FOR(Np);
            s = pack(ctx, p, TSL__WS_PACK_B, p->b, p->b_off, p->k, p->n, rs, cs, Kp, ldb, tri, 0,
                     &b);
        }
        b_off = 0;
    }
#undef LD_FOR
    if (s != TSL_OK) return s;
    /* no split k in the Level-3 modes: the sum pass would write all of C (TRI), z is the
     * problem (BATCH). A problem that reads C from another place (CIN) splits as any other: the
     * slices are plain products, the sum pass reads Cin. */
    size_t slices = p->tri || p->batch ? 1 : splitk_slices(ctx, p, tp, Mp, Np, Kp);
    size_t kchunk = tsl__gemm_round_up((Kp + slices - 1) / slices, (size_t)tp[P_KWG]);
    slices = (Kp + kchunk - 1) / kchunk; /* no empty slice */
    int cin = p->cin && slices == 1;     /* the kernel reads Cin itself */
    char extra[400];
    tiled2d_params eff = c->tp; /* the kernel built: DIRECT as decided here */
    eff.v[P_DIRECT] = direct;
    tsl__tiled2d_options(ctx, p->kind, &eff, extra, sizeof extra);
    size_t used = strlen(extra);
    if (p->tri) used += (size_t)snprintf(extra + used, sizeof extra - used, " -DTRI=%d", p->tri);
    if (p->tri && p->tri_cs > 1 && used < sizeof extra)
        used += (size_t)snprintf(extra + used, sizeof extra - used, " -DTRI_CS=%d", p->tri_cs);
    if (band_order(ctx, p, tp, Mp / (size_t)tp[P_MWG] * (Np / (size_t)tp[P_NWG])) &&
        used < sizeof extra)
        used += (size_t)snprintf(extra + used, sizeof extra - used, " -DBAND=1");
    if (p->batch && used < sizeof extra)
        used += (size_t)snprintf(extra + used, sizeof extra - used, " -DBATCH=1");
    if (cin && used < sizeof extra)
        used += (size_t)snprintf(extra + used, sizeof extra - used, " -DCIN=1");
    if (p->stair && used < sizeof extra)
        used += (size_t)snprintf(extra + used, sizeof extra - used, " -DSTAIR=%d -DSTAIR_S=%zu",
                                 p->stair, p->stair_step);
    /* 16-bit storage split in k: the slices are float partial sums, rounded once by the sum */
    if (GK_16BIT(p->kind) && slices > 1 && used < sizeof extra)
        snprintf(extra + used, sizeof extra - used, " -DSPLIT_OUT=1");
    cl_kernel k;
    s = tsl__gemm_get_tiled2d(ctx, p, tp, extra, &k);
    if (s == TSL_ERR_UNSUPPORTED && tsl__tiled2d_sm90a(ctx, p->kind, tp)) {
        /* the device refused the sm_90a program (the trace says why, once: the context keeps
         * to sm_90 from then on): the kind's built-in configuration, the mma.sync ring */
        gemm_choice fallback = *c;
        fallback.tp = tsl__tiled2d_base(ctx, p->kind);
        return run_tiled2d_tiles(ctx, p, &fallback);
    }
    if (s != TSL_OK) return s;
    size_t wg = (size_t)tp[P_MDIMC] * (size_t)tp[P_NDIMC];
    if (wg > tsl__kernel_max_wg(ctx, k))
        return tsl__fail(
            ctx, TSL_ERR_UNSUPPORTED,
            "variant tiled2d: the compiled kernel allows work-groups of %zu, it needs %zu",
            tsl__kernel_max_wg(ctx, k), wg);
    cl_mem cout = p->c;
    int ildc = (int)p->ldc;
    cl_long cslice = 0, ka_off = (cl_long)a_off, kb_off = (cl_long)b_off;
    cl_long kc_off = (cl_long)p->c_off;
    double beta = p->beta;
    if (slices > 1) {
        s = tsl__workspace(ctx, TSL__WS_SPLIT_K, slices * p->m * p->n * acc_elem(p), &cout);
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
                       {0, NULL},
                       {0, NULL}};
    int nargs = (int)(sizeof args / sizeof args[0]) - 3;
    int ildcin = (int)p->ldcin;
    cl_long cin_off = (cl_long)p->cin_off;
    if (cin) { /* after the batch's strides, which a call with Cin has not */
        args[nargs++] = (tsl__arg){sizeof(cl_mem), &p->cin};
        args[nargs++] = (tsl__arg){sizeof ildcin, &ildcin};
        args[nargs++] = (tsl__arg){sizeof cin_off, &cin_off};
    }
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
    if ((size_t)(r + 1) * 256 * (p->dbl ? sizeof(double) : sizeof(float)) > ctx->info.local_mem)
        return TSL_OK;
    char extra[48];
    /* TF32 math: the strip rounds its inputs as the tensor cores do (3xTF32's strips are plain
     * FP32, at least as accurate as the three products) */
    snprintf(extra, sizeof extra, "-DEDGE_R=%d%s", r, p->kind == GK_TF32 ? " -DROUND_TF32=1" : "");
    tsl_status s = tsl__gemm_get_kernel(ctx, p, "gemm_edge", extra, k);
    if (s == TSL_OK && tsl__kernel_max_wg(ctx, *k) < 256) *k = NULL;
    return s;
}

static tsl_status run_edge(tsl_context *ctx, const gemm_problem *p, cl_kernel k, size_t L,
                           size_t S, const edge_strip *e)
{
    int iL = (int)L, iS = (int)S, K = (int)p->k;
    int lfast = e->x_ps != 1 && e->x_ls == 1; /* neighbouring items along X's unit stride */
    size_t local[2] = {32, 8};
    size_t global[2] = {lfast ? 32 : tsl__gemm_round_up(L, 32),
                        lfast ? tsl__gemm_round_up(L, 8) : 8};
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

/* The ring has no DIRECT, so a small ragged problem, which DIRECT = 2 reads in place, pays the pack
 * pre-pass under it. On the H100 (bench/results/h100/gemm, dgemm_*.csv) the FP64 ring
 * lost to the register-staged MMA configuration that was the H100's DGEMM before it (64 x 128 x
 * 8, DIRECT = 2) on ragged sizes up to 700^3 (300^3 1.88 against 3.00 TFLOP/s), tied at 1000^3
 * and won where nothing is packed (512^3 12.8 against 10.8); the ring's own tiles staged through
 * registers lost up to 1000^3. So DIRECT = 2 on an FP64 ring configuration (MMA 1-3) means: a
 * problem DIRECT = 2 would read in place runs on that configuration, this companion (with the
 * ring's m8n8k4 where the ring uses it: sm_80); DIRECT = 0 keeps the ring for every problem.
 * Not for the Level-3 modes (their operands are packed or batched as the ring plans them), nor
 * the tensor-core kinds (not measured), nor above m n k = 2^30 (COMPANION_MAX, the tie's 1000^3;
 * DIRECT = 2's own bound, 2^32, would put TRSM 4000^2's updates of 1024 x 4000 x 1024 on it, at
 * half the ring's rate with its pack). 1: *out is the companion. */
#define COMPANION_MAX 1073741824.0
static const tiled2d_params fp64_direct_companion = {
    .v = {[P_MWG] = 64, [P_NWG] = 128, [P_KWG] = 8, [P_MDIMC] = 8, [P_NDIMC] = 32, [P_VW] = 2,
          [P_SA] = 1, [P_SB] = 1, [P_PF] = 1, [P_STRIDED] = 1, [P_VWA] = 1, [P_DBUF] = 1,
          [P_MMA] = MMA_FP64_M16N8K8, [P_DIRECT] = 2}};

static int ring_companion(const tsl_context *ctx, const gemm_problem *p, const gemm_choice *c,
                          gemm_choice *out)
{
    const int *tp = c->tp.v;
    tiled2d_mma ring = tsl__tiled2d_mma(tp[P_MMA]);
    if (!tp[P_ASYNC] || ring.data != MMA_FP64 || tp[P_DIRECT] != 2 || p->tri || p->batch) return 0;
    if ((double)p->m * (double)p->n * (double)p->k > COMPANION_MAX) return 0;
    *out = *c;
    out->tp = fp64_direct_companion;
    int *v = out->tp.v;
    if (ring.shape == MMA_M8N8K4) v[P_MMA] = MMA_FP64_M8N8K4;
    if (!tsl__tiled2d_runs(ctx, p->kind, v)) return 0;
    size_t Mp = tsl__gemm_round_up(p->m, (size_t)v[P_MWG]);
    size_t Np = tsl__gemm_round_up(p->n, (size_t)v[P_NWG]);
    size_t Kp = tsl__gemm_round_up(p->k, (size_t)v[P_KWG]);
    return tsl__gemm_plan_tiles(p, v, Mp, Np, Kp).direct;
}

/* tiled2d: the whole tiles by the tiled kernel, and a remainder of a few rows or columns (peel_of)
 * as strips by gemm_edge: rows [Mi, m) over every column, then columns [Ni, n) of rows [0, Mi).
 * The three parts write disjoint parts of C. PEEL = 0: on GPUs (on PoCL the strips cost more than
 * the padding: 1025^3 119.5 against 142.6 GFLOP/s padded), 1: never, 2: always.
 * DIRECT = 1 (read in place, always) is left whole. */
tsl_status tsl__gemm_run_tiled2d(tsl_context *ctx, const gemm_problem *p, const gemm_choice *c)
{
    gemm_choice companion;
    if (ring_companion(ctx, p, c, &companion)) c = &companion;
    const int *tp = c->tp.v;
    int peel = tp[P_PEEL] == 2 || (tp[P_PEEL] == 0 && strcmp(ctx->info.type, "gpu") == 0);
    if (tp[P_DIRECT] == 1) peel = 0;
    /* the Level-3 modes pad instead: the strips would write C's other triangle (TRI 1, 2), read
     * a triangular operand unpacked (3 to 6), run one problem (BATCH) or read C (CIN) */
    if (p->tri || p->batch || p->cin) peel = 0;
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
    tsl__gemm_op_strides(p->ta, p->lda, &a_rs, &a_cs);
    tsl__gemm_op_strides(p->tb, p->ldb, &b_rs, &b_cs);
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
