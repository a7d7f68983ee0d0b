/* dist_gemm.c: GEMM across ranks (tsl_dist_gemm, dist.h). 1D row distribution: rank r gets a
 * block of rows of op(A) and C, every rank with rows gets all of B through a binomial tree of
 * point-to-point messages, each rank runs tsl_[sd]gemm on its block, rank 0 gathers the blocks
 * of C, and writes the caller's C only once every rank has reported its part. */
#include "multi/dist_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Packs srows runs of len elements, ld apart, into a contiguous buffer (or the reverse). */
static void pack(void *dst, const void *src, size_t srows, size_t len, size_t ld, size_t es)
{
    for (size_t r = 0; r < srows; ++r)
        memcpy((char *)dst + r * len * es, (const char *)src + r * ld * es, len * es);
}

static void unpack(void *dst, const void *src, size_t srows, size_t len, size_t ld, size_t es)
{
    for (size_t r = 0; r < srows; ++r)
        memcpy((char *)dst + r * ld * es, (const char *)src + r * len * es, len * es);
}

static size_t max1(size_t x)
{
    return x ? x : 1;
}

/* ---- GEMM --------------------------------------------------------------------------------- */

static tsl_status local_gemm(tsl_dist *d, int dbl, tsl_layout layout, tsl_trans ta, tsl_trans tb,
                             size_t m, size_t n, size_t k, double alpha, const void *a, size_t lda,
                             const void *b, size_t ldb, double beta, void *c, size_t ldc)
{
    tsl_status s =
        dbl ? tsl_dgemm(d->ctx, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
            : tsl_sgemm(d->ctx, layout, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb, (float)beta,
                        c, ldc);
    if (s != TSL_OK) return tsl__dist_context_fail(d, s);
    tsl_context_timing(d->ctx, &d->parts[d->rank].timing);
    d->phase[d->rank] = d->parts[d->rank].timing.kernel_ms; /* 004's measure, as the group's */
    return TSL_OK;
}

tsl_status tsl_dist_gemm(tsl_dist *d, int dbl, tsl_layout layout, tsl_trans ta, tsl_trans tb,
                         size_t m, size_t n, size_t k, double alpha, const void *a, size_t lda,
                         const void *b, size_t ldb, double beta, void *c, size_t ldc)
{
    double t0 = tsl__dist_now_ms();
    d->error[0] = '\0';
    memset(&d->times, 0, sizeof d->times);
    memset(d->parts, 0, (size_t)d->size * sizeof *d->parts);
    memset(d->phase, 0, (size_t)d->size * sizeof *d->phase);
    if (m == 0 || n == 0) return TSL_OK;
    size_t es = dbl ? sizeof(double) : sizeof(float), P = (size_t)d->size;
    int use_ab = k > 0 && alpha != 0.0;
    double *w = malloc(P * sizeof *w);
    size_t *rows = malloc(P * sizeof *rows), *first = malloc(P * sizeof *first);
    int *tree = malloc(P * sizeof *tree);
    void *pa = NULL, *pb = NULL, *pc = NULL, *scratch = NULL;
    tsl__reqset rs = {0};
    tsl_status s = TSL_OK;
    if (!w || !rows || !first || !tree)
        s = tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank %d: out of host memory", d->rank);
    if (s == TSL_OK) s = tsl__dist_weights(d, "gemm", dbl, w);
    if (s != TSL_OK) goto done;
    tsl__split_rows(m, w, P, rows);
    int ntree = 0;
    tree[ntree++] = 0; /* the tree of B: rank 0, then every other rank with rows */
    for (size_t r = 0, f = 0; r < P; ++r) {
        first[r] = f;
        f += rows[r];
        d->parts[r].first_row = first[r];
        d->parts[r].rows = rows[r];
        d->parts[r].weight = w[r];
        if (r > 0 && rows[r]) tree[ntree++] = (int)r;
        d->times.devices += rows[r] > 0;
    }
    tsl__block bb = tsl__row_block(layout, tb, 0, k, n, ldb);
    size_t me = (size_t)d->rank;
    if (d->rank == 0) {
        /* Send each rank its block of A (and of C when beta != 0), packed. */
        size_t bytes_a = 0, bytes_c = 0;
        for (size_t r = 1; r < P; ++r) {
            tsl__block ab = tsl__row_block(layout, ta, first[r], rows[r], k, lda);
            tsl__block cb = tsl__row_block(layout, TSL_NO_TRANS, first[r], rows[r], n, ldc);
            bytes_a += use_ab && rows[r] ? ab.srows * ab.slen * es : 0;
            bytes_c += beta != 0.0 && rows[r] ? cb.srows * cb.slen * es : 0;
        }
        scratch = malloc(bytes_a + bytes_c + 1);
        int dense_b = bb.slen == ldb || bb.srows <= 1;
        if (use_ab && ntree > 1 && !dense_b) pb = malloc(bb.srows * bb.slen * es + 1);
        if (!scratch || (use_ab && ntree > 1 && !dense_b && !pb)) {
            s = tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY,
                               "rank 0: out of host memory to send blocks");
            goto done;
        }
        char *at = scratch;
        for (size_t r = 1; s == TSL_OK && r < P; ++r) {
            if (!rows[r]) continue;
            tsl__block ab = tsl__row_block(layout, ta, first[r], rows[r], k, lda);
            tsl__block cb = tsl__row_block(layout, TSL_NO_TRANS, first[r], rows[r], n, ldc);
            if (use_ab) {
                pack(at, (const char *)a + ab.offset * es, ab.srows, ab.slen, lda, es);
                s = tsl__dist_post(d, &rs, 1, at, ab.srows * ab.slen * es, (int)r, TAG_A);
                at += ab.srows * ab.slen * es;
            }
            if (s == TSL_OK && beta != 0.0) {
                pack(at, (const char *)c + cb.offset * es, cb.srows, cb.slen, ldc, es);
                s = tsl__dist_post(d, &rs, 1, at, cb.srows * cb.slen * es, (int)r, TAG_C);
                at += cb.srows * cb.slen * es;
            }
        }
        if (s == TSL_OK && use_ab && ntree > 1) {
            void *src = (void *)b;
            if (!dense_b) {
                pack(pb, b, bb.srows, bb.slen, ldb, es);
                src = pb;
            }
            s = tsl__dist_broadcast(d, tree, ntree, src, bb.srows * bb.slen * es, TAG_B,
                                    "the broadcast of B");
        }
        /* The sends complete before rank 0 computes: MPI moves large messages only inside MPI
         * calls, and a GEMM on the device makes none. */
        if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the distribution of A and C");
        /* Rank 0's own block and the gathered ones go to a packed copy of C first, block after
         * block: the caller's C is written only once every rank has succeeded (below). */
        size_t bytes = 0;
        for (size_t r = 0; r < P; ++r)
            if (rows[r]) bytes += rows[r] * n * es;
        free(scratch);
        scratch = s == TSL_OK ? malloc(bytes + 1) : NULL;
        if (s == TSL_OK && !scratch)
            s = tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank 0: out of host memory to gather C");
        if (s == TSL_OK && rows[0]) {
            tsl__block ab = tsl__row_block(layout, ta, 0, rows[0], k, lda);
            tsl__block cb = tsl__row_block(layout, TSL_NO_TRANS, 0, rows[0], n, ldc);
            if (beta != 0.0)
                pack(scratch, (const char *)c + cb.offset * es, cb.srows, cb.slen, ldc, es);
            s = local_gemm(d, dbl, layout, ta, tb, rows[0], n, k, alpha,
                           use_ab ? (const char *)a + ab.offset * es : NULL, lda, b, ldb, beta,
                           scratch, max1(cb.slen));
        }
        if (s == TSL_OK) s = tsl__dist_fault_point(d, 0);
        if (s == TSL_OK) s = tsl__dist_fault_point(d, 1);
        /* Gather the blocks of C. */
        at = scratch ? (char *)scratch + rows[0] * n * es : NULL;
        for (size_t r = 1; s == TSL_OK && r < P; ++r) {
            if (!rows[r]) continue;
            s = tsl__dist_post(d, &rs, 0, at, rows[r] * n * es, (int)r, TAG_C_BACK);
            at += rows[r] * n * es;
        }
        if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the gathering of C");
    } else if (rows[me]) {
        tsl__block ab = tsl__row_block(layout, ta, first[me], rows[me], k, lda);
        tsl__block cb = tsl__row_block(layout, TSL_NO_TRANS, first[me], rows[me], n, ldc);
        pa = use_ab ? malloc(ab.srows * ab.slen * es + 1) : NULL;
        pb = use_ab ? malloc(bb.srows * bb.slen * es + 1) : NULL;
        pc = malloc(cb.srows * cb.slen * es + 1);
        if ((use_ab && (!pa || !pb)) || !pc) {
            s = tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY,
                               "rank %d: out of host memory for its block", d->rank);
            goto done;
        }
        if (use_ab) s = tsl__dist_post(d, &rs, 0, pa, ab.srows * ab.slen * es, 0, TAG_A);
        if (s == TSL_OK && beta != 0.0)
            s = tsl__dist_post(d, &rs, 0, pc, cb.srows * cb.slen * es, 0, TAG_C);
        if (s == TSL_OK && use_ab)
            s = tsl__dist_broadcast(d, tree, ntree, pb, bb.srows * bb.slen * es, TAG_B,
                                    "the broadcast of B");
        if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the distribution of A and C");
        if (s == TSL_OK)
            s = local_gemm(d, dbl, layout, ta, tb, rows[me], n, k, alpha, pa, max1(ab.slen), pb,
                           max1(bb.slen), beta, pc, max1(cb.slen));
        if (s == TSL_OK) s = tsl__dist_fault_point(d, 0);
        if (s == TSL_OK) s = tsl__dist_fault_point(d, 1);
        if (s == TSL_OK)
            s = tsl__dist_exchange(d, "the gathering of C", 0, TAG_C_BACK, pc,
                                   cb.srows * cb.slen * es, NULL, 0);
    }
    /* The agreement: every rank sends its end-of-call record only after its part succeeded (a
     * rank that fails reports its error instead, and rank 0 returns it from this wait), so once
     * rank 0 has every record, every rank has succeeded, and it writes C. Nothing can fail after
     * that: the blocks are already in rank 0's memory. */
    if (s == TSL_OK) {
        d->parts[me].wall_ms = tsl__dist_now_ms() - t0;
        s = tsl__dist_gather_parts(d);
    }
    if (s == TSL_OK && d->rank == 0) {
        char *at = scratch;
        for (size_t r = 0; r < P; ++r) {
            if (!rows[r]) continue;
            tsl__block cb = tsl__row_block(layout, TSL_NO_TRANS, first[r], rows[r], n, ldc);
            unpack((char *)c + cb.offset * es, at, cb.srows, cb.slen, ldc, es);
            at += rows[r] * n * es;
        }
    }
    if (s == TSL_OK) d->times.wall_ms = tsl__dist_now_ms() - t0;
done:
    tsl__dist_rs_free(&rs);
    free(w), free(rows), free(first), free(tree), free(pa), free(pb), free(pc), free(scratch);
    return tsl__dist_settle(d, s);
}
