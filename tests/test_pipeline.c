/* test_pipeline.c: the single-device host path through the GEMM pipeline (src/pipeline/gemm_pipeline.c,
 * docs/multi-device.md). With TESSEL_GEMM_PIPELINE=1 on PoCL, where it is off by default, it
 * gives the plain path's C bit for bit and is within the GEMM tolerance of the CPU reference: odd
 * shapes, both layouts, all four transposes, padded leading dimensions (the padding never
 * written), k = 0, beta = 0 over a C of NaN, both precisions, operands from tsl_host_alloc moved
 * without staging, in chunks of at least 1, 16 and 64 rows and one chunk, with and without
 * staging, staging buffers of 1, 2 and 5 KiB (the ring wraps within a chunk) and 1 to 4 copy
 * threads, under the knobs' new names and the group's old ones; and in column panels of at
 * least 1, 5, 8 and 16 columns (TESSEL_GEMM_PANEL_COLS) with and without row chunks, ragged last
 * chunks and panels, pieces in the orders that tall, flat and square blocks take, alpha = 0.
 * The plan itself: how many chunks and panels, where their bounds fall (GPU defaults at
 * 16384^3), their order, and the stored rectangle of each piece of A, B and C against the
 * elements it must hold, in every layout and transpose. And complex GEMM through the pipeline
 * (test_pipeline_complex). */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "gemm_case.h"
#include "pipeline/gemm_pipe_plan.h"
#include "pipeline/gemm_pipeline.h"
#include "ops/ops.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long g_seed = 20261130ull;

/* pinned: A, B and the pipeline's C in memory from tsl_host_alloc on ctx, which the pipeline
 * moves without staging. */
static void pipeline_case(tsl_context *ctx, int dbl, const gemm_case *c, int nan_c,
                          const char *setting, int pinned)
{
    size_t es = dbl ? 8 : 4;
    size_t lda = run_len(c, 'a') + c->pad, ldb = run_len(c, 'b') + c->pad;
    size_t ldc = run_len(c, 'c') + c->pad;
    lda = lda ? lda : 1, ldb = ldb ? ldb : 1, ldc = ldc ? ldc : 1;
    size_t ea = stored_rows(c, 'a') * lda, eb = stored_rows(c, 'b') * ldb;
    size_t ec = stored_rows(c, 'c') * ldc;
    unsigned long long state = g_seed + c->m * 17 + c->n * 5 + c->k;
    void *a = NULL, *b = NULL, *c0 = xmalloc(ec * es), *cp = NULL, *cs = xmalloc(ec * es);
    if (pinned) {
        CHECK(tsl_host_alloc(ctx, ea * es, &a) == TSL_OK &&
                  tsl_host_alloc(ctx, eb * es, &b) == TSL_OK &&
                  tsl_host_alloc(ctx, ec * es, &cp) == TSL_OK,
              "pinned operands: %s", tsl_context_error(ctx));
        if (!a || !b || !cp) {
            tsl_host_free(ctx, a), tsl_host_free(ctx, b), tsl_host_free(ctx, cp);
            free(c0), free(cs);
            return;
        }
    } else {
        a = xmalloc(ea * es), b = xmalloc(eb * es), cp = xmalloc(ec * es);
    }
    fill(dbl, a, ea, &state);
    fill(dbl, b, eb, &state);
    fill(dbl, c0, ec, &state);
    for (size_t i = 0; nan_c && i < ec; ++i) {
        if (dbl)
            ((double *)c0)[i] = NAN;
        else
            ((float *)c0)[i] = NAN;
    }
    memcpy(cp, c0, ec * es);
    memcpy(cs, c0, ec * es);
    double *ref = widen(dbl, c0, ec), *ad = widen(dbl, a, ea), *bd = widen(dbl, b, eb);
    for (size_t i = 0; nan_c && i < ec; ++i)
        ref[i] = 0; /* beta == 0: C is not read */
    tsl_ref_dgemm(c->layout, c->ta, c->tb, c->m, c->n, c->k, c->alpha, ad, lda, bd, ldb, c->beta,
                  ref, ldc);
    char what[240]; /* a label for the messages: a long one is cut, marked by a trailing "~" */
    if (snprintf(what, sizeof what, "%s: %s %s %c%c %zux%zux%zu pad %zu alpha %g beta %g%s%s",
                 setting, dbl ? "double" : "single", c->layout == TSL_ROW_MAJOR ? "row" : "col",
                 c->ta == TSL_TRANS ? 'T' : 'N', c->tb == TSL_TRANS ? 'T' : 'N', c->m, c->n, c->k,
                 c->pad, c->alpha, c->beta, nan_c ? " over NaN" : "",
                 pinned ? " pinned" : "") >= (int)sizeof what)
        what[sizeof what - 2] = '~';
    tsl__gemm_host h = {dbl, c->layout, c->ta,    c->tb,   c->m, c->n, c->k, lda,
                        ldb, ldc,       c->alpha, c->beta, a,    b,    cp,  0,  0.0, 0.0};
    setenv("TESSEL_GEMM_PIPELINE", "0", 1);
    CHECK(!tsl__gemm_pipe_pays(ctx, &h), "%s: the pipeline is off with TESSEL_GEMM_PIPELINE=0",
          what);
    tsl_status ss = gemm_on(NULL, ctx, dbl, c, a, lda, b, ldb, cs, ldc);
    setenv("TESSEL_GEMM_PIPELINE", "1", 1);
    CHECK(tsl__gemm_pipe_pays(ctx, &h), "%s: the pipeline is on with TESSEL_GEMM_PIPELINE=1", what);
    tsl_status sp = gemm_on(NULL, ctx, dbl, c, a, lda, b, ldb, cp, ldc);
    unsetenv("TESSEL_GEMM_PIPELINE");
    CHECK(ss == TSL_OK && sp == TSL_OK, "%s: plain %s, pipeline %s: %s", what, tsl_status_name(ss),
          tsl_status_name(sp), tsl_context_error(ctx));
    if (ss == TSL_OK && sp == TSL_OK) {
        tsl_timing t;
        tsl_context_timing(ctx, &t);
        CHECK(c->m == 0 || t.kernel_ms > 0, "%s: the pipeline's kernel time %g", what, t.kernel_ms);
        double tol = tsl_ref_gemm_tolerance(dbl, c->k);
        double ep = rel_err(dbl, c, cp, ldc, ref);
        CHECK(ep <= tol, "%s: relative error %.3e above %.3e", what, ep, tol);
        size_t runs = stored_rows(c, 'c'), len = run_len(c, 'c'), differ = 0, touched = 0;
        for (size_t r = 0; r < runs; ++r) {
            differ += memcmp((char *)cp + r * ldc * es, (char *)cs + r * ldc * es, len * es) != 0;
            touched += memcmp((char *)cp + (r * ldc + len) * es, (char *)c0 + (r * ldc + len) * es,
                              (ldc - len) * es) != 0;
        }
        CHECK(differ == 0, "%s: %zu runs of C differ from the plain path's in their bits", what,
              differ);
        CHECK(touched == 0, "%s: the padding of %zu runs of C was written", what, touched);
    }
    if (pinned)
        tsl_host_free(ctx, a), tsl_host_free(ctx, b), tsl_host_free(ctx, cp);
    else
        free(a), free(b), free(cp);
    free(c0), free(cs), free(ref), free(ad), free(bd);
}

/* Where op(X)[i][j] is in X stored by layout with leading dimension ld. */
static size_t stored_at(tsl_layout layout, tsl_trans trans, size_t i, size_t j, size_t ld)
{
    return (layout == TSL_ROW_MAJOR) == (trans == TSL_NO_TRANS) ? i * ld + j : j * ld + i;
}

/* The piece b of op(X) (rows r0.., columns c0.., h x w), packed run after run with the run length
 * as leading dimension, is op of an h x w matrix in the caller's layout and transpose whose
 * element (i, j) is op(X)[r0 + i][c0 + j]: what the piece's GEMM reads and writes. */
static size_t rect_errors(tsl_layout layout, tsl_trans trans, tsl__block b, size_t r0, size_t h,
                          size_t c0, size_t w, size_t ld)
{
    int rows_run = (layout == TSL_ROW_MAJOR) == (trans == TSL_NO_TRANS);
    size_t bad = (b.srows != (rows_run ? h : w)) + (b.slen != (rows_run ? w : h));
    for (size_t i = 0; !bad && i < h; ++i)
        for (size_t j = 0; j < w; ++j) {
            size_t flat = stored_at(layout, trans, i, j, b.slen);
            size_t host = b.offset + flat / b.slen * ld + flat % b.slen;
            bad += flat >= b.srows * b.slen || host != stored_at(layout, trans, r0 + i, c0 + j, ld);
        }
    return bad;
}

/* Every piece of A, B and C of the plan of rows r0..r0+rows-1, in every layout and transpose. */
static void check_rects(tsl_context *ctx, size_t m, size_t n, size_t k, size_t r0, size_t rows,
                        size_t pad, size_t want_pieces)
{
    const tsl_layout layouts[2] = {TSL_ROW_MAJOR, TSL_COL_MAJOR};
    const tsl_trans trans[2] = {TSL_NO_TRANS, TSL_TRANS};
    for (int l = 0; l < 2; ++l)
        for (int ta = 0; ta < 2; ++ta)
            for (int tb = 0; tb < 2; ++tb) {
                gemm_case c = {layouts[l], trans[ta], trans[tb], m, n, k, pad, 1.0, 0.0};
                tsl__gemm_host g = {0,   c.layout, c.ta, c.tb, m,    n,    k,   run_len(&c, 'a') + pad,
                                    run_len(&c, 'b') + pad, run_len(&c, 'c') + pad, 1.0, 0.0,
                                    NULL, NULL, NULL, 0, 0.0, 0.0};
                tsl__pipe_plan p;
                tsl__pipe_plan_make(ctx, &g, r0, rows, &p);
                size_t bad = 0;
                for (size_t ci = 0; ci < p.nchunks; ++ci)
                    bad += rect_errors(c.layout, c.ta, tsl__pipe_a(&p, &g, ci), r0 + p.bound[ci],
                                       p.bound[ci + 1] - p.bound[ci], 0, k, g.lda);
                for (size_t j = 0; j < p.npanels; ++j)
                    bad += rect_errors(c.layout, c.tb, tsl__pipe_b(&p, &g, j), 0, k, p.pbound[j],
                                       p.pbound[j + 1] - p.pbound[j], g.ldb);
                /* every piece once; a chunk's first piece on panel 0, a panel's on chunk 0
                 * (where the feeder uploads them) */
                size_t seen[TSL__PIPE_CHUNKS][TSL__PIPE_PANELS] = {{0}};
                size_t chunk_seen[TSL__PIPE_CHUNKS] = {0}, panel_seen[TSL__PIPE_PANELS] = {0};
                for (size_t q = 0; q < tsl__pipe_pieces(&p); ++q) {
                    size_t ci, j;
                    tsl__pipe_piece(&p, q, &ci, &j);
                    bad += ci >= p.nchunks || j >= p.npanels;
                    if (ci >= p.nchunks || j >= p.npanels) continue;
                    bad += seen[ci][j]++ > 0;
                    bad += !chunk_seen[ci]++ && j != 0;
                    bad += !panel_seen[j]++ && ci != 0;
                    bad += rect_errors(c.layout, TSL_NO_TRANS, tsl__pipe_c(&p, &g, q),
                                       r0 + p.bound[ci], p.bound[ci + 1] - p.bound[ci], p.pbound[j],
                                       p.pbound[j + 1] - p.pbound[j], g.ldc);
                }
                CHECK(bad == 0 && tsl__pipe_pieces(&p) == want_pieces,
                      "pieces of %s %c%c %zux%zux%zu rows %zu..+%zu pad %zu: %zu misplaced, %zu "
                      "pieces (%zu x %zu), not %zu",
                      l ? "col" : "row", ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, r0, rows, pad, bad,
                      tsl__pipe_pieces(&p), p.nchunks, p.npanels, want_pieces);
            }
}

/* The plan's order as "CJ CJ ...", chunk and panel of each piece. */
static const char *order_of(const tsl__pipe_plan *p, char *out)
{
    char *o = out;
    for (size_t q = 0; q < tsl__pipe_pieces(p); ++q) {
        size_t c, j;
        tsl__pipe_piece(p, q, &c, &j);
        o += sprintf(o, "%s%zu%zu", q ? " " : "", c, j);
    }
    *o = '\0';
    return out;
}

static int bounds_are(const size_t *b, size_t count, const size_t *want)
{
    for (size_t i = 0; i <= count; ++i)
        if (b[i] != want[i]) return 0;
    return 1;
}

/* The plan: a CPU's default is one piece; with the GPU's minimums (256 rows, 256 columns) the
 * 16384^3 product is 4 x 4 pieces of 4096 x 4096, taken in a growing square (a tall product
 * chunk by chunk, a flat one panel by panel); every piece stays in the size class of the
 * whole (a 2048^2 C cannot be cut into 4 x 4 pieces of 512^2, "small" against "large"); nothing
 * is cut without A and B; ragged small plans; the pieces' rectangles. */
static void test_plan(void)
{
    tsl_context *ctx = NULL;
    CHECK(tsl_context_create("0:0", &ctx) == TSL_OK, "context 0:0");
    if (!ctx) return;
    tsl__gemm_host big = {0,     TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 16384, 16384, 16384,
                          16384, 16384,         16384,        1.0,          0.0,   NULL,  NULL,
                          NULL,  0,             0.0,          0.0};
    tsl__pipe_plan p;
    unsetenv("TESSEL_GEMM_CHUNK_ROWS"), unsetenv("TESSEL_GROUP_CHUNK_ROWS");
    unsetenv("TESSEL_GEMM_PANEL_COLS");
    tsl__pipe_plan_make(ctx, &big, 0, 16384, &p);
    CHECK(p.nchunks == 1 && p.npanels == 1, "a CPU's plan is one piece, not %zu x %zu", p.nchunks,
          p.npanels);
    setenv("TESSEL_GEMM_CHUNK_ROWS", "256", 1);
    setenv("TESSEL_GEMM_PANEL_COLS", "256", 1);
    tsl__pipe_plan_make(ctx, &big, 0, 16384, &p);
    const size_t quarters[5] = {0, 4096, 8192, 12288, 16384};
    CHECK(p.nchunks == 4 && p.npanels == 4 && bounds_are(p.bound, 4, quarters) &&
              bounds_are(p.pbound, 4, quarters),
          "16384^3 at 256 rows and columns: %zu x %zu pieces, bounds %zu %zu / %zu %zu", p.nchunks,
          p.npanels, p.bound[1], p.bound[2], p.pbound[1], p.pbound[2]);
    char order[3 * TSL__PIPE_PIECES + 1];
    CHECK(strcmp(order_of(&p, order), "00 10 01 11 20 21 02 12 22 30 31 32 03 13 23 33") == 0,
          "16384^3: the pieces (chunk, panel) in a growing square, not %s", order);
    tsl__gemm_host tall = big;
    tall.m = 65536, tall.n = 4096, tall.k = 4096;
    tsl__pipe_plan_make(ctx, &tall, 0, tall.m, &p);
    CHECK(strcmp(order_of(&p, order), "00 01 02 03 10 11 12 13 20 21 22 23 30 31 32 33") == 0,
          "65536 x 4096 x 4096: all of B's panels, then chunk by chunk, not %s", order);
    tsl__gemm_host flat = big;
    flat.m = 4096, flat.n = 65536, flat.k = 4096;
    tsl__pipe_plan_make(ctx, &flat, 0, flat.m, &p);
    CHECK(strcmp(order_of(&p, order), "00 10 20 30 01 11 21 31 02 12 22 32 03 13 23 33") == 0,
          "4096 x 65536 x 4096: all of A's chunks, then panel by panel, not %s", order);
    tsl__gemm_host sq = big;
    sq.m = sq.n = 2048;
    tsl__pipe_plan_make(ctx, &sq, 0, 2048, &p);
    int same = 1;
    for (size_t q = 0; q < tsl__pipe_pieces(&p); ++q) {
        size_t c, j;
        tsl__pipe_piece(&p, q, &c, &j);
        same &= strcmp(tsl__gemm_desc.size_class(p.bound[c + 1] - p.bound[c],
                                                 p.pbound[j + 1] - p.pbound[j], 2048),
                       "large") == 0;
    }
    CHECK(same && tsl__pipe_pieces(&p) == 3, "2048^3: %zu x %zu pieces, all large: %d", p.nchunks,
          p.npanels, same);
    tsl__gemm_host zero = big;
    zero.alpha = 0.0;
    tsl__pipe_plan_make(ctx, &zero, 0, 16384, &p);
    CHECK(p.nchunks == 1 && p.npanels == 1, "alpha = 0: %zu x %zu pieces", p.nchunks, p.npanels);
    tsl__gemm_host odd = {0, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 131, 29, 37, 37, 29, 29,
                          1.0, 0.0, NULL, NULL, NULL, 0, 0.0, 0.0};
    setenv("TESSEL_GEMM_CHUNK_ROWS", "16", 1);
    setenv("TESSEL_GEMM_PANEL_COLS", "1", 1);
    tsl__pipe_plan_make(ctx, &odd, 0, 131, &p);
    const size_t rows4[5] = {0, 32, 65, 98, 131}, cols4[5] = {0, 7, 14, 21, 29};
    CHECK(p.nchunks == 4 && p.npanels == 4 && bounds_are(p.bound, 4, rows4) &&
              bounds_are(p.pbound, 4, cols4),
          "131 x 29 at 16 rows, 1 column: %zu x %zu pieces", p.nchunks, p.npanels);
    check_rects(ctx, 131, 29, 37, 0, 131, 3, 16);
    check_rects(ctx, 131, 29, 37, 40, 91, 0, 16); /* a group's block of rows */
    setenv("TESSEL_GEMM_PANEL_COLS", "10", 1);
    check_rects(ctx, 50, 29, 5, 17, 33, 2, 4); /* 2 chunks of 16 and 17 rows, 2 panels */
    check_rects(ctx, 40, 90, 5, 0, 40, 1, 8);  /* 2 chunks, 4 panels, panel by panel */
    unsetenv("TESSEL_GEMM_CHUNK_ROWS");
    check_rects(ctx, 7, 33, 3, 0, 7, 1, 3); /* one chunk, 3 panels of 11 */
    unsetenv("TESSEL_GEMM_PANEL_COLS");
    tsl_context_destroy(ctx);
}

static void test_pipeline(void)
{
    tsl_context *ctx = NULL;
    CHECK(tsl_context_create("0:0", &ctx) == TSL_OK, "context 0:0");
    if (!ctx) return;
    {
        float x = 1;
        tsl__gemm_host h = {0,    TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 4096, 4096, 4096, 4096,
                            4096, 4096,          1.0,          0.0,          &x,   &x,   &x,
                            0,    0.0,           0.0};
        unsetenv("TESSEL_GEMM_PIPELINE");
        CHECK(!tsl__gemm_pipe_pays(ctx, &h), "the pipeline is off on a CPU device by default");
    }
    /* chunk rows, staging, staging buffer KiB, copy threads, the knobs' names, panel columns:
     * the group's old names for one device too, and the new ones; 1 KiB buffers make the ring of
     * staging wrap many times within a chunk (the 700-row case moves 700 x 30 x 8 bytes of
     * op(A)), and the copy threads then split each 1 KiB slice at odd byte offsets. Panels of 1
     * and 5 columns cut the 131 x 29 case into 4 (7, 7, 7, 8 columns) and, with chunks, into
     * 4 x 4 pieces of ragged rows too; 8 and 16 cut the 300 x 97 cases into 4 panels. */
    const char *settings[][6] = {
        {"1", "1", NULL, NULL, "GROUP", NULL},  {"16", "0", NULL, NULL, "GROUP", "5"},
        {"16", "1", NULL, NULL, "GROUP", NULL}, {NULL, "1", NULL, NULL, "GROUP", "1"},
        {"1", "1", "1", "3", "GEMM", "1"},      {"16", "1", "1", "1", "GEMM", "8"},
        {NULL, "1", "2", "4", "GEMM", NULL},    {"64", "1", "5", "2", "GEMM", "16"},
        {"16", "0", NULL, "2", "GEMM", "1"}};
    const tsl_layout layouts[2] = {TSL_ROW_MAJOR, TSL_COL_MAJOR};
    const tsl_trans trans[2] = {TSL_NO_TRANS, TSL_TRANS};
    for (size_t s = 0; s < sizeof settings / sizeof settings[0]; ++s) {
        char setting[200], chunk_var[40], staging_var[40];
        snprintf(setting, sizeof setting,
                 "chunk rows %s, panel columns %s, staging %s, staging buffers %s KiB, copy "
                 "threads %s (%s names)",
                 settings[s][0] ? settings[s][0] : "(one chunk)",
                 settings[s][5] ? settings[s][5] : "(one panel)", settings[s][1],
                 settings[s][2] ? settings[s][2] : "(default)",
                 settings[s][3] ? settings[s][3] : "(default)", settings[s][4]);
        snprintf(chunk_var, sizeof chunk_var, "TESSEL_%s_CHUNK_ROWS", settings[s][4]);
        snprintf(staging_var, sizeof staging_var, "TESSEL_%s_STAGING", settings[s][4]);
        if (settings[s][0])
            setenv(chunk_var, settings[s][0], 1);
        else
            unsetenv(chunk_var);
        setenv(staging_var, settings[s][1], 1);
        if (settings[s][2])
            setenv("TESSEL_GEMM_STAGE_KB", settings[s][2], 1);
        else
            unsetenv("TESSEL_GEMM_STAGE_KB");
        if (settings[s][3])
            setenv("TESSEL_GEMM_COPY_THREADS", settings[s][3], 1);
        else
            unsetenv("TESSEL_GEMM_COPY_THREADS");
        if (settings[s][5])
            setenv("TESSEL_GEMM_PANEL_COLS", settings[s][5], 1);
        else
            unsetenv("TESSEL_GEMM_PANEL_COLS");
        for (int dbl = 0; dbl < 2; ++dbl) {
            for (int l = 0; l < 2; ++l)
                for (int ta = 0; ta < 2; ++ta)
                    for (int tb = 0; tb < 2; ++tb) {
                        gemm_case c = {layouts[l], trans[ta], trans[tb], 131, 29, 37, 3, 1.5, 0.0};
                        if (ta != tb) c.beta = -0.5;
                        pipeline_case(ctx, dbl, &c, c.beta == 0.0, setting, 0);
                    }
            gemm_case tall = {TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 700, 20, 30, 1, 1.0, 0.25};
            pipeline_case(ctx, dbl, &tall, 0, setting, 0);
            gemm_case seven = {TSL_ROW_MAJOR, TSL_TRANS, TSL_TRANS, 7, 5, 3, 1, -1.0, 0.0};
            pipeline_case(ctx, dbl, &seven, 1, setting, 0);
            gemm_case k0 = {TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_TRANS, 7, 5, 0, 2, 1.0, 2.0};
            pipeline_case(ctx, dbl, &k0, 0, setting, 0); /* C = beta C */
            gemm_case one = {TSL_COL_MAJOR, TSL_NO_TRANS, TSL_TRANS, 1, 1, 1, 0, 2.0, 0.0};
            pipeline_case(ctx, dbl, &one, 1, setting, 0);
            gemm_case wide = {TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_TRANS, 300, 97, 61, 5, 0.5, 1.25};
            pipeline_case(ctx, dbl, &wide, 0, setting, 0); /* C in and out through the ring */
            pipeline_case(ctx, dbl, &wide, 0, setting, 1); /* no staging for pinned arrays */
            gemm_case wide0 = {TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 300, 97, 61, 2, 1.0, 0.0};
            pipeline_case(ctx, dbl, &wide0, 1, setting, 1);
            gemm_case flat = {TSL_ROW_MAJOR, TSL_TRANS, TSL_NO_TRANS, 37, 100, 13, 2, 1.0, 0.5};
            pipeline_case(ctx, dbl, &flat, 0, setting, 0); /* panel by panel */
            flat.layout = TSL_COL_MAJOR, flat.ta = TSL_NO_TRANS, flat.tb = TSL_TRANS;
            flat.beta = 0.0;
            pipeline_case(ctx, dbl, &flat, 1, setting, 0);
            gemm_case square = {TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 64, 64, 9, 1, 1.0, 0.5};
            pipeline_case(ctx, dbl, &square, 0, setting, 0); /* a growing square at 16 and 1 */
            square.layout = TSL_ROW_MAJOR, square.beta = 0.0;
            pipeline_case(ctx, dbl, &square, 1, setting, 0);
            gemm_case zero = {TSL_COL_MAJOR, TSL_TRANS, TSL_TRANS, 37, 23, 11, 4, 0.0, -1.5};
            pipeline_case(ctx, dbl, &zero, 0, setting, 0); /* alpha = 0: C = beta C */
            zero.beta = 0.0;
            pipeline_case(ctx, dbl, &zero, 1, setting, 0); /* C = 0 over NaN */
        }
        unsetenv(chunk_var);
        unsetenv(staging_var);
    }
    unsetenv("TESSEL_GEMM_STAGE_KB");
    unsetenv("TESSEL_GEMM_COPY_THREADS");
    unsetenv("TESSEL_GEMM_PANEL_COLS");
    tsl_context_destroy(ctx);
}

/* Complex GEMM on host arrays through the pipeline (tsl_cgemm / tsl_zgemm, each piece a
 * tsl_[cz]gemm_buf): conjugate transposes, complex alpha and beta, beta = 0 over NaN, padded
 * leading dimensions (the padding never written), in chunks of 16 rows and panels of 5 columns
 * with staging through 1 KiB buffers and 3 copy threads, and in one piece without staging;
 * element by element against cblas_zgemm in double within (4k + 16) u S, S = |alpha| 2k +
 * |beta| |c| (the data's parts in [-1, 1]). */
#define ZSENTINEL 4321.0
static void complex_case(tsl_context *ctx, int dbl, tsl_layout lay, tsl_trans ta, tsl_trans tb,
                         size_t m, size_t n, size_t k, const double *alpha, const double *beta,
                         const char *setting)
{
    unsigned long long st = g_seed++;
    int row = lay == TSL_ROW_MAJOR;
    size_t pad = 3, sar = ta == TSL_NO_TRANS ? m : k, sac = ta == TSL_NO_TRANS ? k : m;
    size_t sbr = tb == TSL_NO_TRANS ? k : n, sbc = tb == TSL_NO_TRANS ? n : k;
    size_t lda = (row ? sac : sar) + pad, ldb = (row ? sbc : sbr) + pad, ldc = (row ? n : m) + pad;
    size_t ea = (row ? sar : sac) * lda, eb = (row ? sbr : sbc) * ldb, ec = (row ? m : n) * ldc;
    double *a = malloc(16 * ea), *b = malloc(16 * eb), *c = malloc(16 * ec), *ref = malloc(16 * ec);
    void *dev[3] = {malloc(16 * ea), malloc(16 * eb), malloc(16 * ec)};
    tsl_ref_fill_d(a, 2 * ea, &st);
    tsl_ref_fill_d(b, 2 * eb, &st);
    tsl_ref_fill_d(c, 2 * ec, &st);
    int use_c = beta[0] != 0.0 || beta[1] != 0.0;
    for (size_t l = 0; l < (row ? m : n); ++l)
        for (size_t j = 0; j < ldc; ++j)
            if (j >= (row ? n : m)) c[2 * (l * ldc + j)] = c[2 * (l * ldc + j) + 1] = ZSENTINEL;
            else if (!use_c) c[2 * (l * ldc + j)] = c[2 * (l * ldc + j) + 1] = NAN;
    double *src[3] = {a, b, c};
    size_t cnt[3] = {ea, eb, ec};
    for (int x = 0; x < 3; ++x) /* the device's copies: floats for cgemm, rounded back */
        for (size_t i = 0; i < 2 * cnt[x]; ++i) {
            if (!dbl) src[x][i] = (float)src[x][i];
            if (dbl)
                ((double *)dev[x])[i] = src[x][i];
            else
                ((float *)dev[x])[i] = (float)src[x][i];
        }
    float af[2] = {(float)alpha[0], (float)alpha[1]}, bf[2] = {(float)beta[0], (float)beta[1]};
    double al[2] = {dbl ? alpha[0] : af[0], dbl ? alpha[1] : af[1]};
    double be[2] = {dbl ? beta[0] : bf[0], dbl ? beta[1] : bf[1]};
    tsl__gemm_host h = {dbl, lay, ta, tb, m, n, k, lda, ldb, ldc, al[0], be[0], dev[0], dev[1],
                        dev[2], 1, al[1], be[1]};
    CHECK(tsl__gemm_pipe_pays(ctx, &h), "%s: the pipeline runs complex calls", setting);
    tsl_status s = dbl ? tsl_zgemm(ctx, lay, ta, tb, m, n, k, al, dev[0], lda, dev[1], ldb, be,
                                   dev[2], ldc)
                       : tsl_cgemm(ctx, lay, ta, tb, m, n, k, af, dev[0], lda, dev[1], ldb, bf,
                                   dev[2], ldc);
    CHECK(s == TSL_OK, "%s: %cgemm status %s: %s", setting, dbl ? 'z' : 'c', tsl_status_name(s),
          tsl_context_error(ctx));
    memcpy(ref, c, 16 * ec);
    tsl_ref_zgemm(lay, ta, tb, m, n, k, al, a, lda, b, ldb, be, ref, ldc);
    double u = dbl ? 0x1p-53 : 0x1p-24, amag = hypot(al[0], al[1]), bmag = hypot(be[0], be[1]);
    size_t bad = 0, touched = 0;
    for (size_t l = 0; l < (row ? m : n); ++l)
        for (size_t j = 0; j < ldc; ++j)
            for (int q = 0; q < 2; ++q) {
                size_t at = 2 * (l * ldc + j) + q;
                double got = dbl ? ((double *)dev[2])[at] : ((float *)dev[2])[at];
                if (j >= (row ? n : m)) {
                    touched += got != ZSENTINEL;
                    continue;
                }
                double cm = use_c ? hypot(c[at - q], c[at - q + 1]) : 0.0;
                double bound = (4.0 * k + 16.0) * u * (amag * 2.0 * k + bmag * cm) + 1e-300;
                if (!(fabs(got - ref[at]) <= bound) && ++bad <= 3)
                    fprintf(stderr, "%s: %cgemm %zux%zux%zu element %zu: %.9g, want %.9g\n",
                            setting, dbl ? 'z' : 'c', m, n, k, at, got, ref[at]);
            }
    CHECK(bad == 0, "%s: %cgemm %zux%zux%zu: %zu parts outside the bound", setting,
          dbl ? 'z' : 'c', m, n, k, bad);
    CHECK(touched == 0, "%s: %zu parts of C's padding written", setting, touched);
    free(a), free(b), free(c), free(ref), free(dev[0]), free(dev[1]), free(dev[2]);
}

static void test_pipeline_complex(void)
{
    tsl_context *ctx = NULL;
    CHECK(tsl_context_create("0:0", &ctx) == TSL_OK, "context 0:0");
    if (!ctx) return;
    setenv("TESSEL_GEMM_PIPELINE", "1", 1);
    const char *settings[2][5] = {{"16", "5", "1", "1", "3"}, {NULL, NULL, "0", NULL, NULL}};
    const char *vars[5] = {"TESSEL_GEMM_CHUNK_ROWS", "TESSEL_GEMM_PANEL_COLS",
                           "TESSEL_GEMM_STAGING", "TESSEL_GEMM_STAGE_KB",
                           "TESSEL_GEMM_COPY_THREADS"};
    const double za[2] = {0.75, -0.5}, zb[2] = {0.5, 0.25}, z0[2] = {0.0, 0.0},
                 one[2] = {1.0, 0.0};
    for (int s = 0; s < 2; ++s) {
        for (int v = 0; v < 5; ++v)
            if (settings[s][v])
                setenv(vars[v], settings[s][v], 1);
            else
                unsetenv(vars[v]);
        const char *what = s ? "complex, one piece, no staging" : "complex, chunks and panels";
        for (int dbl = 0; dbl < 2; ++dbl) {
            complex_case(ctx, dbl, TSL_ROW_MAJOR, TSL_CONJ_TRANS, TSL_NO_TRANS, 70, 23, 19, za,
                         zb, what);
            complex_case(ctx, dbl, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_CONJ_TRANS, 45, 31, 12, one,
                         z0, what);
            complex_case(ctx, dbl, TSL_ROW_MAJOR, TSL_TRANS, TSL_TRANS, 33, 17, 8, za, z0, what);
        }
    }
    for (int v = 0; v < 5; ++v)
        unsetenv(vars[v]);
    unsetenv("TESSEL_GEMM_PIPELINE");
    tsl_context_destroy(ctx);
}

int main(void)
{
    test_plan();
    test_pipeline();
    test_pipeline_complex();
    return check_summary("pipeline");
}
