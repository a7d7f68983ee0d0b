/* level3_leaf.c: TRSM's variant inverse_leaf (docs/level3.md): the triangle in recursive halves
 * down to leaves of nb, each solved by its inverse in one triangle-mode launch, the updates
 * between the halves as GEMMs, B in parts on queues of their own (runtime/side.c). The inverses
 * come from level3_inv.c, op(A)'s dense strict triangle from level3_tri.c. */
#include <stdint.h>
#include <string.h>

#include "level3/level3.h"
#include "level3/level3_tri.h"

/* TRSM, variant inverse_leaf: the triangle cut in recursive halves of whole blocks of nb down to
 * single blocks (leaves), each solved by its explicit inverse in one triangle-mode launch (TRMM's
 * TRI_A / TRI_B: each tile runs only the k the triangle reaches), X_I = a D_I^-1 Y_I (left;
 * right X_I = a Y_I D_I^-1); between the halves' solves one GEMM updates the second half from the
 * first, reading op(A) in place and the solved X: Y[u] = a Y[u] - op(A)[u, s] X[s] (left; right
 * Y[:, u] = a Y[:, u] - X[:, s] op(A)[s, u]). a is alpha until a part of B has been updated once
 * (scaled: the update scaled it), 1 after. No F, no dense copy of op(A): the solve's flops plus
 * the inversions' (ka nb^2 / 3), with nb large (few, large launches). D is on the diagonal of a
 * ka x ldd matrix (tsl__l3_tri_inverses' diagonal layout).
 * Where the right-hand sides Y and the solution X lie: every leaf reads Y from W and writes X
 * into B, where it stays, and the updates read X from B. A part of B not yet updated has its Y in
 * B: its first update reads B and writes W (a GEMM whose C is read from one buffer and written to
 * another, tiled2d's CIN), later ones update W in place. The first leaf's Y, which no update
 * reaches, stays in B: that leaf writes X into W, the update after it reads X there, and a copy
 * puts X into B after that update (leaf_plan; a single block's Y is copied into W
 * beside the inverses' last launches). (Each leaf writing X into W and a copy into B after it
 * cost TRSM 4096 55 us single and 58 double on the H100, and the copy a leaf's update waited
 * for, 80 us.) */
typedef struct {
    cl_mem d, w;
    size_t ldd, w_off, ldw; /* D's rows; where this part of B's W starts, and W's rows */
    size_t t_off, tail;     /* the doubling's scratch in d; the deferred levels (0: none) */
    int own;                /* the leaves keep their shape's size class (leaf_parts) */
} leaf_ws;

/* One step of the solve: a leaf [r0, r1) (kind LEAF), the update of [u0, u1) from the solved
 * [s0, s1) (UPDATE), or the copy of [r0, r1) from W into B (COPY_X); scaled: the part it writes
 * was updated (and scaled by alpha) already (an update's Y is in W, not B); in_w: the leaf reads
 * Y from B and writes X into W, the update reads X from W (the first leaf and the update after
 * it, whose X a COPY_X moves into B after). */
enum { LEAF, UPDATE, COPY_X };
typedef struct {
    int kind, scaled;
    size_t r0, r1, s0, s1, u0, u1;
    int in_w;
} leaf_step;

/* Offsets of row (left) or column (right) r of B and of W */
static size_t b_at(const trxm_problem *p, size_t r)
{
    return p->b_off + (p->left ? r * p->ldb : r);
}
static size_t w_at(const trxm_problem *p, const leaf_ws *ws, size_t r)
{
    return ws->w_off + (p->left ? r * ws->ldw : r);
}

static tsl_status leaf_do(tsl_context *ctx, const trxm_problem *p, const leaf_ws *ws,
                          const leaf_step *t)
{
    size_t m = p->m, n = p->n;
    double a = t->scaled ? 1.0 : p->alpha;
    if (t->kind == COPY_X) { /* X of [r0, r1) from W into B */
        size_t len = t->r1 - t->r0;
        return tsl__l3_copy(ctx, p->dbl, p->left ? len : m, p->left ? n : len, ws->w,
                            w_at(p, ws, t->r0), ws->ldw, p->b, b_at(p, t->r0), p->ldb);
    }
    if (t->kind == LEAF) { /* X_I = a D_I^-1 Y_I (left) or a Y_I D_I^-1 (right) */
        size_t r0 = t->r0, len = t->r1 - t->r0, doff = r0 * (ws->ldd + 1);
        cl_mem y = t->in_w ? p->b : ws->w, out = t->in_w ? ws->w : p->b;
        size_t yo = t->in_w ? b_at(p, r0) : w_at(p, ws, r0), ldy = t->in_w ? p->ldb : ws->ldw;
        size_t oo = t->in_w ? w_at(p, ws, r0) : b_at(p, r0), ldo = t->in_w ? ws->ldw : p->ldb;
        size_t lm = p->left ? len : m, ln = p->left ? n : len;
        cl_mem x1 = p->left ? ws->d : y, x2 = p->left ? y : ws->d;
        size_t o1 = p->left ? doff : yo, ld1 = p->left ? ws->ldd : ldy;
        size_t o2 = p->left ? yo : doff, ld2 = p->left ? ldy : ws->ldd;
        /* a leaf of few work-groups takes the few class's small tiles (gemm.c, mode_waves),
         * except where leaf_parts says (ws->own) */
        tsl__gemm_ext ext = {.tri = p->left ? (p->lower ? TSL__TRI_A_LOWER : TSL__TRI_A_UPPER)
                                            : (p->lower ? TSL__TRI_B_LOWER : TSL__TRI_B_UPPER),
                             .unit = TSL__TRI_IN_PLACE,
                             .own_class = ws->own};
        tsl__gemm_call g = {.prec = p->prec,
                            .ta = TSL_NO_TRANS,
                            .tb = TSL_NO_TRANS,
                            .m = lm,
                            .n = ln,
                            .k = len,
                            .alpha = a,
                            .a = {x1, o1, ld1},
                            .b = {x2, o2, ld2},
                            .beta = 0.0,
                            .c = {out, oo, ldo}};
        if (tsl__gemm_ext_ok(ctx, &g, &ext)) return tsl__gemm_mem_ext(ctx, &g, &ext);
        /* the context's gemm variant has no triangle mode: dense, the block's other triangle
         * holds zeros */
        return tsl__gemm_mem(ctx, &g);
    }
    /* left: W[u] = a Y[u] - op(A)[u, s] X[s]; right: W[:, u] = a Y[:, u] - X[:, s] op(A)[s, u],
     * Y in W (scaled) or B, X in B (in_w: in W) */
    size_t s0 = t->s0, s1 = t->s1, u0 = t->u0, u1 = t->u1, um = p->left ? u1 - u0 : m;
    size_t un = p->left ? n : u1 - u0, k = s1 - s0;
    cl_mem xm = t->in_w ? ws->w : p->b;
    size_t xo = t->in_w ? w_at(p, ws, s0) : b_at(p, s0), ldx = t->in_w ? ws->ldw : p->ldb;
    cl_mem x1 = p->left ? p->a : xm, x2 = p->left ? xm : p->a;
    size_t o1 = p->left ? opa_at(p, u0, s0) : xo, ld1 = p->left ? p->lda : ldx;
    size_t o2 = p->left ? xo : opa_at(p, s0, u0), ld2 = p->left ? ldx : p->lda;
    tsl_trans t1 = p->left ? p->ta : TSL_NO_TRANS, t2 = p->left ? TSL_NO_TRANS : p->ta;
    size_t wo = w_at(p, ws, u0);
    tsl__gemm_call g = {.prec = p->prec,
                        .ta = t1,
                        .tb = t2,
                        .m = um,
                        .n = un,
                        .k = k,
                        .alpha = -1.0,
                        .a = {x1, o1, ld1},
                        .b = {x2, o2, ld2},
                        .beta = a,
                        .c = {ws->w, wo, ws->ldw}};
    if (!t->scaled) { /* Y from B */
        tsl__gemm_ext ext = {.cin = {p->b, b_at(p, u0), p->ldb}};
        if (tsl__gemm_ext_ok(ctx, &g, &ext)) return tsl__gemm_mem_ext(ctx, &g, &ext);
        tsl_status s = tsl__l3_copy(ctx, p->dbl, um, un, p->b, b_at(p, u0), p->ldb, ws->w, wo,
                                    ws->ldw);
        if (s != TSL_OK) return s;
    }
    return tsl__gemm_mem(ctx, &g);
}

/* The steps of the solve of [r0, r1) in order, appended to out (*n of them so far): recursive
 * halves of whole blocks of nb down to single blocks. The first leaf's Y, which no update
 * reaches, is in B: where an update from its block follows (the plan's second step, so more than
 * one block), the leaf reads Y there and writes X into W, that update reads X from W, and a
 * COPY_X after it puts X into B (beside the other parts' launches). A copy of Y into W before the
 * leaf sat on the inverses' chain (TRSM 4096 on the H100: 24-32 us beside the last doubling
 * launch, which it slowed by 26 us, and a join). */
static void leaf_plan(const trxm_problem *p, size_t r0, size_t r1, int scaled, leaf_step *out,
                      size_t *n)
{
    size_t nb = p->nb, nblk = (r1 - r0 + nb - 1) / nb;
    if (nblk == 1) {
        out[(*n)++] = (leaf_step){LEAF, scaled, r0, r1, 0, 0, 0, 0, 0};
        return;
    }
    size_t mid = r0 + nblk / 2 * nb;
    int forward = p->left == p->lower;
    /* the half solved first, [s0, s1), and the half it updates, [u0, u1) */
    size_t s0 = forward ? r0 : mid, s1 = forward ? mid : r1;
    size_t u0 = forward ? mid : r0, u1 = forward ? r1 : mid;
    leaf_plan(p, s0, s1, scaled, out, n);
    out[(*n)++] = (leaf_step){UPDATE, scaled, 0, 0, s0, s1, u0, u1, 0};
    if (*n == 2) { /* the update from the first leaf */
        out[0].in_w = out[1].in_w = 1;
        out[(*n)++] = (leaf_step){COPY_X, 0, s0, s1, 0, 0, 0, 0, 0};
    }
    leaf_plan(p, u0, u1, 1, out, n);
}

/* The solve in parts of B's other dimension (left: columns, right: rows), independent of each
 * other, each on a queue of its own (part 0 on the context's, the others on side queues), so that
 * one part's launches fill the device where another's leave it idle (a leaf's light tiles, the
 * last wave of an update). The host gives the parts each step in turn: a part whose launches were
 * all queued before the next part's first (NVIDIA's enqueue takes 12 us a launch) started 140 us
 * late. The inverse of a ragged last block, which the last leaf alone reads (ws->tail), is built
 * on a side queue of its own beside the parts' first steps, and each part waits for it before
 * its last leaf: on the critical path before every leaf, its launches of few tiles took 110-140
 * us of TRSM 3000^2 and 4000^2 on the H100. */
static tsl_status leaf_parts(tsl_context *ctx, const trxm_problem *p, const leaf_ws *ws,
                             const leaf_step *steps, size_t nsteps)
{
    size_t other = p->left ? p->n : p->m;
    /* the device's part count for this width (level3.c, tsl__l3_trsm_parts), within the side
     * queues there are and parts of at least 64 */
    size_t parts = tsl__l3_trsm_parts(ctx, p->dbl, other);
    if (parts > TSL__SIDE_QUEUES + 1) parts = TSL__SIDE_QUEUES + 1;
    while (parts > 1 && other / parts < 64) --parts; /* parts of at least 64 */
    size_t step = tsl__l3_round_up((other + parts - 1) / parts, 32);
    size_t ka = p->left ? p->m : p->n;
    trxm_problem q[1 + TSL__SIDE_QUEUES];
    leaf_ws w[1 + TSL__SIDE_QUEUES];
    for (size_t i = 0; i < parts; ++i) {
        size_t o = i * step, len = o >= other ? 0 : other - o < step ? other - o : step;
        q[i] = *p, w[i] = *ws;
        /* wide parts on the left keep their leaves' size class (tsl__l3_trsm_own) */
        w[i].own = p->left && tsl__l3_trsm_own(ctx, p->dbl, len, other);
        if (p->left) q[i].n = len, q[i].b_off += o, w[i].w_off += o;
        else q[i].m = len, q[i].b_off += o * p->ldb, w[i].w_off += o * ws->ldw;
    }
    /* the ragged block's levels on a side queue of their own where one is left, else first */
    int tail = ws->tail != 0 && parts <= TSL__SIDE_QUEUES, sides = (int)parts - 1 + tail;
    tsl_status s = ws->tail && !tail
                       ? tsl__l3_tri_inv_tail(ctx, p, ka, ws->d, ws->ldd, ws->t_off, ws->tail)
                       : TSL_OK;
    if (s == TSL_OK && sides) s = tsl__side_fork_light(ctx, sides, tail);
    if (s == TSL_OK && tail) {
        tsl__side_use(ctx, sides - 1);
        s = tsl__l3_tri_inv_tail(ctx, p, ka, ws->d, ws->ldd, ws->t_off, ws->tail);
        if (s == TSL_OK) s = tsl__side_mark(ctx);
    }
    for (size_t t = 0; s == TSL_OK && t < nsteps; ++t)
        for (size_t i = 0; s == TSL_OK && i < parts; ++i) {
            if (q[i].m == 0 || q[i].n == 0) continue;
            if (sides) tsl__side_use(ctx, (int)i - 1);
            if (tail && t + 1 == nsteps) s = tsl__side_wait(ctx); /* the last block's leaf */
            if (s == TSL_OK) s = leaf_do(ctx, &q[i], &w[i], &steps[t]);
        }
    tsl_status j = sides ? tsl__side_join(ctx, sides) : TSL_OK;
    return s != TSL_OK ? s : j;
}

tsl_status tsl__l3_trsm_leaf(tsl_context *ctx, const trxm_problem *p)
{
    size_t es = p->dbl ? sizeof(double) : sizeof(float), nb = p->nb, m = p->m, n = p->n;
    size_t ka = p->left ? m : n;
    leaf_ws ws = {NULL, NULL, tsl__l3_round_up(ka, 32), 0, n, 0, 0, 0};
    /* D (ka x ldd), the doubling's scratch T and, where op(A) is A transposed, op(A)'s strict
     * triangle dense (ka x ka): every GEMM would pack its block of A^T, and a batch that needs the
     * pack runs as one GEMM per problem (the doubling's dozens) */
    int dense = p->ta != TSL_NO_TRANS;
    size_t dsz = ka * ws.ldd, tsz = tsl__l3_tri_inv_scratch(ka, nb), fsz = dense ? ka * ka : 0;
    if (tsl__mul_overflows(ka, ws.ldd) || dsz + tsz < dsz || dsz + tsz + fsz < fsz ||
        dsz + tsz + fsz > SIZE_MAX / es)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "trsm: workspace size overflows");
    tsl_status s = tsl__workspace(ctx, TSL__WS_BLOCKS, (dsz + tsz + fsz) * es, &ws.d);
    if (s == TSL_OK) s = tsl__workspace(ctx, TSL__WS_W, m * n * es, &ws.w);
    if (s != TSL_OK) return s;
    size_t nsteps = 0;
    leaf_step *steps = tsl__malloc((2 * ((ka + nb - 1) / nb) + 1) * sizeof *steps);
    if (!steps) return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "trsm: out of host memory");
    leaf_plan(p, 0, ka, 0, steps, &nsteps);
    /* where the first leaf reads Y from W (a single block: leaf_plan), Y is copied there beside
     * the inverses' last launches */
    size_t f0 = steps[0].r0, len = steps[0].r1 - f0;
    l3_copy_job first = {p->left ? len : m, p->left ? n : len, p->b, ws.w, b_at(p, f0), p->ldb,
                         w_at(p, &ws, f0), ws.ldw};
    trxm_problem pa = *p; /* the op(A) the GEMMs read */
    if (dense) {
        pa.a = ws.d, pa.a_off = dsz + tsz, pa.lda = ka, pa.ta = TSL_NO_TRANS;
        s = tsl__l3_tri_full(ctx, p, ka, 1, ws.d, pa.a_off);
    }
    /* a solve in the forward order of more than one block reads the last block's inverse last:
     * the levels of a ragged one (tsl__l3_tri_inverses says whether there are any) are built
     * beside the first steps (leaf_parts) */
    int defer = p->left == p->lower && ka > nb;
    ws.t_off = dsz;
    if (s == TSL_OK)
        s = tsl__l3_tri_inverses(ctx, p, &pa, ka, ws.d, ws.ldd, dsz,
                                 steps[0].in_w ? NULL : &first, defer ? &ws.tail : NULL);
    if (s == TSL_OK) s = leaf_parts(ctx, &pa, &ws, steps, nsteps);
    tsl__free(steps);
    return s;
}

