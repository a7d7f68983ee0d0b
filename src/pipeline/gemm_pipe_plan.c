/* gemm_pipe_plan.c: the plan of the host-memory GEMM pipeline (gemm_pipe_plan.h). A block of rows
 * of C is cut into row chunks (of C and op(A)) and column panels (of C and op(B)), so the first
 * kernel needs only op(B)'s first panel and op(A)'s first chunk on the device: the pipeline's
 * fill, before anything computes, is B / panels + A / chunks of the bytes, and its drain, after
 * the last kernel, one piece of C (chunks x panels of them). Row chunks alone would need all of B
 * on the device first, a fill (B + A / 4) that is most of what the pipeline loses against the
 * device-resident kernel at 16384^3 on an H100 (bench/results/h100/latency).
 *
 * Every piece keeps the GEMM size class of the whole block (tsl__gemm_desc.size_class), so it
 * runs the variant and tuned parameters the unsplit block would: on a CPU every element of C is
 * then summed in the same order, the same bits (the tests check it); on a GPU, auto's split k may
 * pick another slice count for a piece than for the block (a function of its shape): the last
 * bits may differ, within the GEMM tolerance. */
#include "pipeline/gemm_pipe_plan.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"

#define CHUNK_ROWS 256 /* rows of a chunk, at least ($TESSEL_GEMM_CHUNK_ROWS) */
#define PANEL_COLS 256 /* columns of a panel, at least ($TESSEL_GEMM_PANEL_COLS) */
/* The model (tsl__gemm_pipe_pays): a product that moves fewer bytes than this keeps the plain
 * path; the pipeline's fixed costs (threads, a first allocation of pinned staging) and its
 * unhidden ends (the first panel of B and chunk of A in, the last piece of C out) are not worth
 * it. */
#define MODEL_BYTES (128.0 * 1024 * 1024)

size_t tsl__pipe_env(const char *name, const char *old, size_t lo, size_t hi, size_t fallback)
{
    const char *env = getenv(name);
    if (!env && old) env = getenv(old);
    if (env && *env >= '0' && *env <= '9') {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end == '\0' && v >= lo && v <= hi) return (size_t)v;
    }
    return fallback;
}

int tsl__pipe_is_cpu(const tsl_context *ctx)
{
    return strcmp(ctx->info.type, "cpu") == 0;
}

int tsl__pipe_uses_ab(const tsl__gemm_host *g)
{
    return g->k > 0 && (g->alpha != 0.0 || (g->cplx && g->alpha_im != 0.0));
}

size_t tsl__pipe_elem(const tsl__gemm_host *g)
{
    return (g->dbl ? sizeof(double) : sizeof(float)) * (g->cplx ? 2 : 1);
}

int tsl__pipe_reads_c(const tsl__gemm_host *g)
{
    return g->beta != 0.0 || (g->cplx && g->beta_im != 0.0);
}

/* The fewest rows of a chunk: $TESSEL_GEMM_CHUNK_ROWS ($TESSEL_GROUP_CHUNK_ROWS, >= 1), else 256,
 * or the whole block on a CPU (the pipeline's header comment says why). */
static size_t chunk_min_rows(const tsl_context *ctx)
{
    return tsl__pipe_env("TESSEL_GEMM_CHUNK_ROWS", "TESSEL_GROUP_CHUNK_ROWS", 1, INT_MAX,
                         tsl__pipe_is_cpu(ctx) ? (size_t)INT_MAX : CHUNK_ROWS);
}

/* The fewest columns of a panel: $TESSEL_GEMM_PANEL_COLS (>= 1), else all of C's columns on a CPU,
 * and on a GPU what the H100 measured (bench/results/h100/dropin/host_gemm.txt, TFLOP/s end to end
 * from pageable memory, pieces against row chunks only): double gains at every size (4096: 7.68
 * against 7.14, 8192: 18.35 / 15.04, 16384: 28.83 / 24.16) with panels of 256 columns and more,
 * single only at 16384 (43.70 / 35.78) and loses below (4096: 11.96 / 14.18, 8192: 23.59 /
 * 29.43: its pieces' kernels are short beside their uploads), so single splits its columns only
 * from 16384 on, in panels of 4096 and more. */
static size_t panel_min_cols(const tsl_context *ctx, const tsl__gemm_host *g)
{
    size_t gpu = g->dbl ? PANEL_COLS : g->n >= 16384 ? 4096 : (size_t)INT_MAX;
    return tsl__pipe_env("TESSEL_GEMM_PANEL_COLS", NULL, 1, INT_MAX,
                         tsl__pipe_is_cpu(ctx) ? (size_t)INT_MAX : gpu);
}

/* total cut into n parts at bound[0..n]; interior bounds are multiples of 256 when parts are
 * long (whole tiles of the GPU configurations, 128 x 256 at most, on both sides of a bound), of
 * 64 when they are middling. */
static void split(size_t total, size_t n, size_t *bound)
{
    size_t part = total / n, align = part >= 1024 ? 256 : part >= 128 ? 64 : 1;
    bound[0] = 0, bound[n] = total;
    for (size_t i = 1; i < n; ++i)
        bound[i] = total * i / n / align * align;
}

static size_t clamp(size_t x, size_t hi)
{
    return x < 1 ? 1 : x > hi ? hi : x;
}

/* The order of the pieces. A piece can run once its chunk of op(A) and its panel of op(B) are on
 * the device; each is uploaded once, before the first piece that needs it, and stays. After
 * the first piece (the fill), each step uploads one more chunk or one more panel and runs the
 * pieces it completes: a new chunk completes one piece per panel already up, a new panel one
 * per chunk. Each step takes the one that completes more pieces per byte uploaded (a tie: the
 * chunk), so the uploads the kernels must wait for grow as slowly as they can. For a square
 * block that is a growing square, (0,0) (1,0) (0,1) (1,1) (2,0) (2,1) (0,2) ...: the uploads
 * ahead of the first kernels are one chunk or panel per two kernels, where panel by panel they
 * would be one per kernel until op(A) is whole (double precision on an H100, 16384^3, 4 x 4:
 * 512 MiB take about 22 ms against 16 ms of a piece's kernel). Where one operand's parts are
 * much the smaller (a tall block: op(B)'s panels), it is uploaded whole first and the larger
 * is spread over the passes (chunk by chunk), so the most kernels are left to hide its last
 * part's upload. A chunk's first piece is on panel 0 and a panel's on chunk 0 (the feeder
 * counts on it). */
static void order_pieces(tsl__pipe_plan *p)
{
    size_t have_c = 1, have_p = 1, q = 0;
    p->chunk_of[q] = 0, p->panel_of[q++] = 0;
    while (have_c < p->nchunks || have_p < p->npanels) {
        /* completed per byte: have_p / (rows of the next chunk x k) against have_c / (k x
         * columns of the next panel); k is common */
        double rows_next = have_c < p->nchunks ? (double)(p->bound[have_c + 1] - p->bound[have_c])
                                               : 0.0;
        double cols_next = have_p < p->npanels
                               ? (double)(p->pbound[have_p + 1] - p->pbound[have_p])
                               : 0.0;
        int chunk = have_p >= p->npanels ||
                    (have_c < p->nchunks && (double)have_p * cols_next >= (double)have_c * rows_next);
        if (chunk) {
            for (size_t j = 0; j < have_p; ++j)
                p->chunk_of[q] = (unsigned char)have_c, p->panel_of[q++] = (unsigned char)j;
            ++have_c;
        } else {
            for (size_t c = 0; c < have_c; ++c)
                p->chunk_of[q] = (unsigned char)c, p->panel_of[q++] = (unsigned char)have_p;
            ++have_p;
        }
    }
}

/* As many pieces as the limits (TSL__PIPE_CHUNKS, TSL__PIPE_PANELS, the least rows and columns)
 * allow, such that every piece is in the whole block's size class; of plans with as many pieces,
 * the one with more chunks (it was the only split before panels). Nothing to overlap without A
 * and B: one piece. */
void tsl__pipe_plan_make(const tsl_context *ctx, const tsl__gemm_host *g, size_t r0, size_t rows,
                         tsl__pipe_plan *p)
{
    int ab = tsl__pipe_uses_ab(g);
    size_t most_c = clamp(ab ? rows / chunk_min_rows(ctx) : 1, TSL__PIPE_CHUNKS);
    size_t most_p = clamp(ab ? g->n / panel_min_cols(ctx, g) : 1, TSL__PIPE_PANELS);
    const char *whole = tsl__gemm_desc.size_class(rows, g->n, g->k);
    size_t best = 0, bound[TSL__PIPE_CHUNKS + 1], pbound[TSL__PIPE_PANELS + 1];
    memset(p, 0, sizeof *p);
    p->r0 = r0, p->rows = rows;
    for (size_t nc = most_c; nc >= 1; --nc)
        for (size_t np = most_p; np >= 1; --np) {
            if (nc * np <= best) continue;
            split(rows, nc, bound);
            split(g->n, np, pbound);
            int same = 1;
            for (size_t c = 0; same && c < nc; ++c)
                for (size_t j = 0; same && j < np; ++j) {
                    size_t h = bound[c + 1] - bound[c], w = pbound[j + 1] - pbound[j];
                    same = (nc == 1 || h > 0) && (np == 1 || w > 0) &&
                           strcmp(tsl__gemm_desc.size_class(h, w, g->k), whole) == 0;
                }
            if (!same) continue;
            best = nc * np;
            p->nchunks = nc, p->npanels = np;
            memcpy(p->bound, bound, sizeof bound);
            memcpy(p->pbound, pbound, sizeof pbound);
        }
    order_pieces(p);
}

/* The stored rectangle of rows r..r+h-1, columns c..c+w-1 of op(X), X stored by layout with
 * leading dimension ld: its runs are those of the rows r..r+h-1 of an op(X) w columns wide
 * (tsl__row_block), and it starts c columns further. A column range of X in one layout is a row
 * range of the same memory read in the other (X^T), so the other layout's row block of columns
 * c..c+w-1 gives that start: of the two offsets, one is a count of runs (times ld) and the other
 * a position within a run, and their sum is the rectangle's. */
static tsl__block rect(tsl_layout layout, tsl_trans trans, size_t r, size_t h, size_t c, size_t w,
                       size_t ld)
{
    tsl_layout other = layout == TSL_ROW_MAJOR ? TSL_COL_MAJOR : TSL_ROW_MAJOR;
    tsl__block b = tsl__row_block(layout, trans, r, h, w, ld);
    b.offset += tsl__row_block(other, trans, c, w, h, ld).offset;
    return b;
}

tsl__block tsl__pipe_a(const tsl__pipe_plan *p, const tsl__gemm_host *g, size_t c)
{
    return rect(g->layout, g->ta, p->r0 + p->bound[c], p->bound[c + 1] - p->bound[c], 0, g->k,
                g->lda);
}

tsl__block tsl__pipe_b(const tsl__pipe_plan *p, const tsl__gemm_host *g, size_t j)
{
    return rect(g->layout, g->tb, 0, g->k, p->pbound[j], p->pbound[j + 1] - p->pbound[j], g->ldb);
}

tsl__block tsl__pipe_c(const tsl__pipe_plan *p, const tsl__gemm_host *g, size_t q)
{
    size_t c, j;
    tsl__pipe_piece(p, q, &c, &j);
    return rect(g->layout, TSL_NO_TRANS, p->r0 + p->bound[c], p->bound[c + 1] - p->bound[c],
                p->pbound[j], p->pbound[j + 1] - p->pbound[j], g->ldc);
}

/* The model. The plain path moves op(A), B and C (twice with beta != 0) through the driver's
 * pageable transfers, after and before its kernel: wall = bytes / pageable bandwidth + kernel
 * (H100 host, 16384^3 single: 3 GiB at 6.5 GB/s up and 10 down, 430 ms, beside a 173 ms
 * kernel). The pipeline hides every transfer but its fill (op(B)'s first panel, op(A)'s first
 * chunk) and drain (C's last piece) behind the kernels, the host copies running on several
 * cores: wall = max(kernel, bytes / copy bandwidth) + those ends. It wins wherever a device across
 * a bus has at least two pieces to overlap and the bytes are many enough that the fixed costs do
 * not count. */
static int pipe_model(tsl_context *ctx, const tsl__gemm_host *g)
{
    tsl__pipe_plan p;
    if (tsl__pipe_is_cpu(ctx) || !tsl__pipe_uses_ab(g)) return 0;
    tsl__pipe_plan_make(ctx, g, 0, g->m, &p);
    if (tsl__pipe_pieces(&p) < 2) return 0;
    double elems = (double)g->m * (double)g->k + (double)g->k * (double)g->n +
                   (double)g->m * (double)g->n * (tsl__pipe_reads_c(g) ? 2.0 : 1.0);
    return elems * (double)tsl__pipe_elem(g) >= MODEL_BYTES;
}

int tsl__gemm_pipe_pays(tsl_context *ctx, const tsl__gemm_host *g)
{
    const char *env = getenv("TESSEL_GEMM_PIPELINE");
    if (env && strcmp(env, "0") == 0) return 0;
    if (env && strcmp(env, "1") == 0) return 1;
    if (env && strcmp(env, "auto") == 0) return pipe_model(ctx, g);
    /* The model by default. In steady-state calls, end to end, the pipeline beats the plain path
     * at 4096^3 to 16384^3 (about 2.4x at 16384^3 and 2.7x at 4096^3 on an H100,
     * bench/results/h100/latency, docs/multi-device.md "Host pipeline"); only the first call, which
     * pins the ring, is slower. */
    return pipe_model(ctx, g);
}
