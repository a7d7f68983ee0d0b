/* level3_inv.c: TRSM's inverses of op(A)'s diagonal blocks, which its inverse variants
 * (level3_tri.c) and inverse_leaf (level3_leaf.c) multiply by: blocks of up to 64 (or inv_block)
 * inverted by l3_tri_inv64 / l3_tri_inv (level3.cl), larger ones built from them by recursive
 * doubling, launch by launch through batched GEMMs or, in inverse_leaf's diagonal layout on
 * NVIDIA's GPUs, the first levels in one launch of l3_tri_inv_fused. And the strided batches of
 * GEMMs both files run, and op(A) outside its diagonal blocks written densely (l3_tri_full), which
 * both multiply by too. */
#include <string.h>

#include "level3/level3.h"
#include "level3/level3_tri.h"

/* count GEMMs C_z = alpha op(A_z) B_z + beta C_z, X_z = X + z x_stride: one batched tiled2d
 * launch where it runs them without a pre-pass, else one GEMM each. tri: TSL__TRI_A_* or _B_*
 * where that operand is one of TRSM's inverted blocks, with zeros in its other triangle (read in
 * place: each tile runs only the k the triangle reaches), else 0. */
tsl_status tsl__l3_batched_gemm(tsl_context *ctx, const l3_batch *bt)
{
    if (bt->count == 0) return TSL_OK;
    tsl__gemm_ext ext = {.tri = bt->tri,
                         .unit = bt->tri ? TSL__TRI_IN_PLACE : 0,
                         .batch = bt->count,
                         .a_stride = bt->a_stride,
                         .b_stride = bt->b_stride,
                         .c_stride = bt->c_stride};
    tsl__gemm_call g = {.prec = bt->prec,
                        .ta = bt->ta,
                        .tb = TSL_NO_TRANS,
                        .m = bt->m,
                        .n = bt->n,
                        .k = bt->k,
                        .alpha = bt->alpha,
                        .beta = bt->beta,
                        .a = bt->a,
                        .b = bt->b,
                        .c = bt->c};
    if (bt->count > 1 && tsl__gemm_ext_ok(ctx, &g, &ext)) return tsl__gemm_mem_ext(ctx, &g, &ext);
    tsl_status s = TSL_OK;
    for (size_t z = 0; s == TSL_OK && z < bt->count; ++z) {
        tsl__gemm_call gz = g;
        gz.a.offset += z * bt->a_stride;
        gz.b.offset += z * bt->b_stride;
        gz.c.offset += z * bt->c_stride;
        s = tsl__gemm_mem(ctx, &gz);
    }
    return s;
}

/* The largest diagonal block l3_tri_inv inverts itself for blocks of nb: nb halved while it is
 * above the "inv_block" option (default 64) and even; *levels: the doublings back to nb. */
static size_t inv_base(const tsl_context *ctx, size_t nb, int *levels)
{
    size_t lim = (size_t)tsl__context_option(ctx, "trsm", "inv_block", 64), b = nb;
    *levels = 0;
    while (b > lim && b % 2 == 0) b /= 2, ++*levels;
    return b;
}

/* TRSM's inverted diagonal blocks into d, in one of two layouts. Blocks (ldd == 0): as
 * tri_blocks lays them out, block i at i nb nb, rows nb apart. Diagonal (ldd > 0): on the diagonal
 * of a ka x ldd matrix (rows ldd apart), block i at i nb (ldd + 1), so the pairs of every level
 * lie a constant stride apart across all blocks. Zeros in the other triangle of each block.
 * l3_tri_inv inverts blocks of nb0 = inv_base (one work-group each, O(nb0^3) dependent-ish work
 * per group, far below GEMM's rate for large blocks: about 0.1-0.2x at nb = 512 on an H100), then
 * recursive doubling builds the inverses of blocks of 2h from those of h, as CLBlast and MAGMA
 * do: for a lower pair [A11 0; A21 A22], inv = [inv11 0; -inv22 A21 inv11, inv22] (upper:
 * [inv11, -inv11 A12 inv22; 0 inv22]), two GEMMs per pair through T = A21 inv11 (A12 inv22) in
 * the scratch at d + t_off (about ka nb / 4 elements). Blocks layout: each GEMM batched over the
 * full blocks of nb (the ragged last block's pair by single GEMMs), one launch per pair
 * position, 2 (nb / nb0 - 1) launches in all. Diagonal layout: every whole pair of a level in
 * one batched launch (a pair never crosses a block: nb is a multiple of 2h), the last partial
 * one by single GEMMs: 2 log2(nb / nb0) launches. */
typedef struct {
    size_t cnt, h, h2;         /* pairs, the first half's size, the second's */
    size_t a11, d11, d22, d21; /* op(A)'s first diagonal block; D's blocks of the pair */
    size_t sa, sd;             /* strides from one pair to the next in A and D */
} inv_pairs;

/* The largest inverses l3_tri_inv_fused builds by default (option inv_fuse). Fusing the first
 * levels saves a launch a step; beyond 256 the fused kernel's products of 64 x 64 tiles, which are
 * latency-bound, are slower than the tuned GEMM's: on an H100, TRSM 4096 runs within 1% at 128
 * and 256 and about 5-10% slower with every level fused (1024), the runs of commit 9e927df. */
#define INV_FUSE 256

static tsl_status inv_double(tsl_context *ctx, const trxm_problem *p, cl_mem d, size_t ldd,
                             size_t t_off, const inv_pairs *q)
{
    size_t h = q->h, h2 = q->h2;
    if (q->cnt == 0 || h2 == 0) return TSL_OK;
    tsl_status s;
    /* the inverses are triangles with zeros beside them: the products skip those k */
    if (p->lower) { /* T = A21 inv11 (h2 x h); inv21 = -inv22 T */
        s = tsl__l3_batched_gemm(
            ctx, &(l3_batch){.prec = p->prec,
                             .tri = TSL__TRI_B_LOWER,
                             .ta = p->ta,
                             .count = q->cnt,
                             .m = h2,
                             .n = h,
                             .k = h,
                             .alpha = 1.0,
                             .a = {p->a, q->a11 + opa_at(p, h, 0) - p->a_off, p->lda},
                             .a_stride = q->sa,
                             .b = {d, q->d11, ldd},
                             .b_stride = q->sd,
                             .beta = 0.0,
                             .c = {d, t_off, h},
                             .c_stride = h * h});
        if (s == TSL_OK)
            s = tsl__l3_batched_gemm(ctx, &(l3_batch){.prec = p->prec,
                                                      .tri = TSL__TRI_A_LOWER,
                                                      .ta = TSL_NO_TRANS,
                                                      .count = q->cnt,
                                                      .m = h2,
                                                      .n = h,
                                                      .k = h2,
                                                      .alpha = -1.0,
                                                      .a = {d, q->d22, ldd},
                                                      .a_stride = q->sd,
                                                      .b = {d, t_off, h},
                                                      .b_stride = h * h,
                                                      .beta = 0.0,
                                                      .c = {d, q->d21, ldd},
                                                      .c_stride = q->sd});
    } else { /* T = A12 inv22 (h x h2); inv12 = -inv11 T */
        s = tsl__l3_batched_gemm(
            ctx, &(l3_batch){.prec = p->prec,
                             .tri = TSL__TRI_B_UPPER,
                             .ta = p->ta,
                             .count = q->cnt,
                             .m = h,
                             .n = h2,
                             .k = h2,
                             .alpha = 1.0,
                             .a = {p->a, q->a11 + opa_at(p, 0, h) - p->a_off, p->lda},
                             .a_stride = q->sa,
                             .b = {d, q->d22, ldd},
                             .b_stride = q->sd,
                             .beta = 0.0,
                             .c = {d, t_off, h},
                             .c_stride = h * h});
        if (s == TSL_OK)
            s = tsl__l3_batched_gemm(ctx, &(l3_batch){.prec = p->prec,
                                                      .tri = TSL__TRI_A_UPPER,
                                                      .ta = TSL_NO_TRANS,
                                                      .count = q->cnt,
                                                      .m = h,
                                                      .n = h2,
                                                      .k = h,
                                                      .alpha = -1.0,
                                                      .a = {d, q->d11, ldd},
                                                      .a_stride = q->sd,
                                                      .b = {d, t_off, h},
                                                      .b_stride = h * h,
                                                      .beta = 0.0,
                                                      .c = {d, q->d21, ldd},
                                                      .c_stride = q->sd});
    }
    return s;
}

/* The pairs of doubling level h over ka (the diagonal layout): the whole ones and a partial last
 * one whose second half has fewer than h rows. */
static size_t fz_pairs(size_t ka, size_t h)
{
    size_t c = ka / (2 * h);
    return c + (ka - c * 2 * h > h);
}

size_t tsl__l3_tri_inv_scratch(size_t ka, size_t nb)
{
    size_t half = nb / 2, all = (ka + nb - 1) / nb * half * half, fused = 0;
    for (size_t h = 64; 2 * h <= nb; h *= 2) fused += fz_pairs(ka, h) * h * h;
    return fused > all ? fused : all;
}

/* l3_tri_inv_fused's build options: NVIDIA's OpenCL compiles mem_fence to a fence of the
 * work-group's scope, so there the kernel fences the device by inline PTX. */
static const char *fused_options(const tsl_context *ctx)
{
    return tsl__nv_compute_capability(ctx) > 0 ? "-DNV_FENCE=1 -DFZ_K=32" : "";
}

/* The diagonal layout's inverses of blocks up to top (64 times a power of 2, at most nb) in one
 * launch of l3_tri_inv_fused, k (level3.cl says how its groups share the work): the blocks of 64
 * and the doubling levels below top, which l3_tri_inv64 and two batched GEMMs per level launched
 * one by one (NVIDIA's OpenCL: 8 us or more a launch, and 20 us of the host's to queue each).
 * inv64: l3_tri_inv64's 12 arguments, whose first 10 (but nb, which top replaces) and zspan the
 * fused kernel takes too. */
static tsl_status inv_fused(tsl_context *ctx, cl_kernel k, const tsl__arg *inv64, size_t ka,
                            size_t top, size_t t_off)
{
    size_t nsmall = (ka + 63) / 64, nctr = 2 + nsmall, most = nsmall;
    for (size_t h = 64; h < top; h *= 2) {
        size_t c = ka / (2 * h), full = (h / 64) * (h / 64), stage = c * full;
        if (fz_pairs(ka, h) > c) stage += (ka - c * 2 * h - h + 63) / 64 * (h / 64);
        nctr += 2 * fz_pairs(ka, h);
        if (stage > most) most = stage;
    }
    cl_mem ctr;
    tsl_status s = tsl__counters(ctx, nctr, &ctr);
    if (s != TSL_OK) return s;
    /* two groups a compute unit, at most one a task of the largest stage */
    size_t groups = 2 * (size_t)(ctx->info.compute_units ? ctx->info.compute_units : 1);
    if (groups > most) groups = most;
    int itop = (int)top;
    cl_long to = (cl_long)t_off;
    tsl__arg args[13];
    memcpy(args, inv64, 10 * sizeof *args);
    args[1] = (tsl__arg){sizeof itop, &itop};
    args[10] = inv64[11]; /* zspan */
    args[11] = (tsl__arg){sizeof to, &to};
    args[12] = (tsl__arg){sizeof(cl_mem), &ctr};
    size_t local[1] = {256}, global[1] = {groups * 256};
    return tsl__launch(ctx, k, "trsm diagonal inverses, fused", args, 13, 1, global, local);
}

/* The caller's copy on a side queue, beside the launches queued after it; *forked: the side
 * queue to join. */
static tsl_status beside_copy(tsl_context *ctx, const trxm_problem *p, const l3_copy_job *c,
                              int *forked)
{
    tsl_status s = tsl__side_fork(ctx, 1);
    *forked = s == TSL_OK;
    if (s != TSL_OK) return s;
    tsl__side_use(ctx, 0);
    s = tsl__l3_copy(ctx, p->dbl, c->rows, c->cols, c->src, c->s_off, c->lds, c->dst, c->d_off,
                     c->ldd);
    tsl__side_use(ctx, -1);
    return s;
}

/* The diagonal layout's partial last pair of level h over ka (its second half has fewer than h
 * rows; none where ka - o <= h), which lies within the last, ragged block of nb: built from the
 * pairs of level h / 2, whole and partial. */
static tsl_status tail_pair(tsl_context *ctx, const trxm_problem *pa, size_t ka, cl_mem d,
                            size_t ldd, size_t t_off, size_t h)
{
    size_t o = ka / (2 * h) * 2 * h, dd = ldd + 1;
    inv_pairs tail = {1, h, ka - o > h ? ka - o - h : 0, opa_at(pa, o, o), o * dd,
                      (o + h) * dd, (o + h) * ldd + o, 0, 0};
    if (!pa->lower) tail.d21 = o * ldd + o + h;
    return inv_double(ctx, pa, d, ldd, t_off, &tail);
}

tsl_status tsl__l3_tri_inv_tail(tsl_context *ctx, const trxm_problem *pa, size_t ka, cl_mem d,
                                size_t ldd, size_t t_off, size_t from)
{
    tsl_status s = TSL_OK;
    for (size_t h = from; s == TSL_OK && from && h < pa->nb; h *= 2)
        s = tail_pair(ctx, pa, ka, d, ldd, t_off, h);
    return s;
}

tsl_status tsl__l3_tri_inverses(tsl_context *ctx, const trxm_problem *p, const trxm_problem *pa,
                                size_t ka, cl_mem d, size_t ldd, size_t t_off,
                                const l3_copy_job *beside, size_t *tail)
{
    cl_kernel k;
    int diag = ldd > 0;
    size_t nb = p->nb, nblk = (ka + nb - 1) / nb, nfull = ka / nb, last = ka - nfull * nb;
    if (!diag) ldd = nb;
    int levels;
    size_t nb0 = inv_base(ctx, nb, &levels);
    tsl_status s = TSL_OK;
    /* zeros in the pairs' other triangles, which no step below writes */
    if (levels > 0 && !diag) s = tsl__l3_scale(ctx, p->dbl, nblk * nb, nb, 0, 0.0, d, 0, nb);
    /* blocks of at most 64: l3_tri_inv64, in groups of 256 where the device runs those */
    int small = nb0 <= 64;
    if (s == TSL_OK && small) {
        s = tsl__l3_kernel(ctx, p->dbl, "l3_tri_inv64", "", &k);
        if (s == TSL_OK && tsl__kernel_max_wg(ctx, k) < 256) small = 0;
    }
    if (s == TSL_OK && !small) s = tsl__l3_kernel(ctx, p->dbl, "l3_tri_inv", "", &k);
    if (s != TSL_OK) return s;
    /* the diagonal layout from blocks of 64: up to the option inv_fuse's blocks in one launch
     * (default: INV_FUSE on NVIDIA's GPUs, whose device-scope fence the kernel knows; elsewhere
     * a launch a step) */
    size_t top = 0;
    cl_kernel kf = NULL;
    if (diag && small && nb0 == 64 && levels > 0) {
        long dflt = tsl__nv_compute_capability(ctx) > 0 ? INV_FUSE : 0;
        size_t lim = (size_t)tsl__context_option(ctx, "trsm", "inv_fuse", dflt);
        for (top = 64; top * 2 <= nb && top * 2 <= lim;) top *= 2;
        if (top >= 128)
            s = tsl__l3_kernel(ctx, p->dbl, "l3_tri_inv_fused", fused_options(ctx), &kf);
        if (s != TSL_OK) return s;
        if (top < 128 || tsl__kernel_max_wg(ctx, kf) < 256) top = 0;
    }
    size_t nsmall = (ka + nb0 - 1) / nb0;
    int ika = (int)ka, inb = (int)nb0, lower = p->lower, unit = p->unit, ildd = (int)ldd;
    int per = diag ? (int)nsmall : (int)(nb / nb0);
    int zspan = diag && levels > 0 ? (int)nb : 0; /* the zeros the doubling reads, written there */
    int rs = p->ta == TSL_NO_TRANS ? (int)p->lda : 1, cs = p->ta == TSL_NO_TRANS ? 1 : (int)p->lda;
    cl_long a_off = (cl_long)p->a_off;
    tsl__arg args[] = {{sizeof ika, &ika},     {sizeof inb, &inb},     {sizeof(cl_mem), &p->a},
                       {sizeof a_off, &a_off}, {sizeof rs, &rs},       {sizeof cs, &cs},
                       {sizeof lower, &lower}, {sizeof unit, &unit},   {sizeof(cl_mem), &d},
                       {sizeof ildd, &ildd},   {sizeof per, &per},     {sizeof zspan, &zspan}};
    size_t wg = 256;
    while (!small && wg > 1 && wg > tsl__kernel_max_wg(ctx, k)) wg /= 2;
    size_t local[1] = {wg}, global[1] = {nsmall * wg};
    if (top)
        s = inv_fused(ctx, kf, args, ka, top, t_off);
    else
        s = tsl__launch(ctx, k, "trsm diagonal inverses", args, 12, 1, global, local);
    /* the caller's copy beside the last level the host launches (or after the first launch
     * where there is none): beside l3_tri_inv64 it slowed that from 61 to 135 us; beside the
     * levels after it, double TRSM 4096 1.651-1.653 ms against 1.641-1.647 (single alike) */
    int forked = 0;
    size_t h0 = top ? top : nb0; /* the first level the host launches */
    if (tail) *tail = diag && h0 < nb && ka % nb ? h0 : 0;
    if (s == TSL_OK && beside && h0 >= nb) s = beside_copy(ctx, p, beside, &forked);
    for (size_t h = h0; s == TSL_OK && h < nb; h *= 2) {
        if (beside && !forked && 2 * h >= nb) s = beside_copy(ctx, p, beside, &forked);
        if (s != TSL_OK) break;
        if (diag) {
            /* every whole pair [o, o + 2h) of ka in one launch, then the partial last one */
            size_t cnt = ka / (2 * h), dd = ldd + 1;
            inv_pairs all = {cnt, h, h, pa->a_off, 0, h * dd, h * ldd, 2 * h * (pa->lda + 1),
                             2 * h * dd};
            if (!p->lower) all.d21 = h;
            s = inv_double(ctx, pa, d, ldd, t_off, &all);
            if (s == TSL_OK && !(tail && *tail)) s = tail_pair(ctx, pa, ka, d, ldd, t_off, h);
            continue;
        }
        for (size_t o = 0; s == TSL_OK && o < nb; o += 2 * h) {
            /* the pair [o, o + h), [o + h, o + 2h) of every full block (batched), then of the
             * ragged last one, whose second half has h2 rows (none: nothing to build) */
            size_t o1 = o + h;
            for (int rag = 0; s == TSL_OK && rag < 2; ++rag) {
                size_t base = rag ? nfull * nb : 0, dz = base * nb;
                inv_pairs q = {rag ? 1 : nfull, h,
                               rag ? (last > o1 ? (last - o1 < h ? last - o1 : h) : 0) : h,
                               opa_at(pa, base + o, base + o), dz + o * nb + o,
                               dz + o1 * nb + o1, dz + (p->lower ? o1 * nb + o : o * nb + o1),
                               nb * pa->lda + nb, nb * nb};
                s = inv_double(ctx, pa, d, nb, t_off, &q);
            }
        }
    }
    tsl_status j = forked ? tsl__side_join(ctx, 1) : TSL_OK;
    return s != TSL_OK ? s : j;
}

/* op(A) (ka x ka) outside its diagonal blocks of nb, zeros elsewhere, into ws at f_off (rows ka
 * apart): l3_tri_full. nb = 1: op(A)'s strict triangle. */
tsl_status tsl__l3_tri_full(tsl_context *ctx, const trxm_problem *p, size_t ka, size_t nb, cl_mem ws,
                            size_t f_off)
{
    cl_kernel k;
    tsl_status s = tsl__l3_kernel(ctx, p->dbl, "l3_tri_full", "", &k);
    if (s != TSL_OK) return s;
    int ika = (int)ka, inb = (int)nb, lower = p->lower;
    int rs = p->ta == TSL_NO_TRANS ? (int)p->lda : 1, cs = p->ta == TSL_NO_TRANS ? 1 : (int)p->lda;
    cl_long a_off = (cl_long)p->a_off, fo = (cl_long)f_off;
    tsl__arg args[] = {{sizeof ika, &ika},     {sizeof inb, &inb},     {sizeof(cl_mem), &p->a},
                       {sizeof a_off, &a_off}, {sizeof rs, &rs},       {sizeof cs, &cs},
                       {sizeof lower, &lower}, {sizeof(cl_mem), &ws},  {sizeof fo, &fo}};
    return tsl__l3_launch2d(ctx, k, "trsm off-diagonal blocks", args, 9, ka, ka);
}
