/* test_pipeline.c: the single-device host path through the GEMM pipeline (src/ops/gemm_pipeline.c,
 * docs/multi-device.md). With TESSEL_GEMM_PIPELINE=1 on PoCL, where it is off by default, it
 * gives the plain path's C bit for bit and is within the GEMM tolerance of the CPU reference: odd
 * shapes, both layouts, all four transposes, padded leading dimensions (the padding never
 * written), k = 0, beta = 0 over a C of NaN, both precisions, operands from tsl_host_alloc moved
 * without staging, in chunks of at least 1, 16 and 64 rows and one chunk, with and without
 * staging, staging buffers of 1, 2 and 5 KiB (the ring wraps within a chunk) and 1 to 4 copy
 * threads, under the knobs' new names and the group's old ones. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "gemm_case.h"
#include "ops/gemm_pipeline.h"
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
    char what[240];
    snprintf(what, sizeof what, "%s: %s %s %c%c %zux%zux%zu pad %zu alpha %g beta %g%s%s", setting,
             dbl ? "double" : "single", c->layout == TSL_ROW_MAJOR ? "row" : "col",
             c->ta == TSL_TRANS ? 'T' : 'N', c->tb == TSL_TRANS ? 'T' : 'N', c->m, c->n, c->k,
             c->pad, c->alpha, c->beta, nan_c ? " over NaN" : "", pinned ? " pinned" : "");
    tsl__gemm_host h = {dbl, c->layout, c->ta,    c->tb,   c->m, c->n, c->k, lda,
                        ldb, ldc,       c->alpha, c->beta, a,    b,    cp};
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

static void test_pipeline(void)
{
    tsl_context *ctx = NULL;
    CHECK(tsl_context_create("0:0", &ctx) == TSL_OK, "context 0:0");
    if (!ctx) return;
    {
        float x = 1;
        tsl__gemm_host h = {0,    TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 4096, 4096, 4096, 4096,
                            4096, 4096,          1.0,          0.0,          &x,   &x,   &x};
        unsetenv("TESSEL_GEMM_PIPELINE");
        CHECK(!tsl__gemm_pipe_pays(ctx, &h), "the pipeline is off on a CPU device by default");
    }
    /* chunk rows, staging, staging buffer KiB, copy threads, the knobs' names: the group's old
     * names for one device too, and the new ones; 1 KiB buffers make the ring of staging wrap
     * many times within a chunk (the 700-row case moves 700 x 30 x 8 bytes of op(A)), and the
     * copy threads then split each 1 KiB slice at odd byte offsets. */
    const char *settings[][5] = {{"1", "1", NULL, NULL, "GROUP"},  {"16", "0", NULL, NULL, "GROUP"},
                                 {"16", "1", NULL, NULL, "GROUP"}, {NULL, "1", NULL, NULL, "GROUP"},
                                 {"1", "1", "1", "3", "GEMM"},     {"16", "1", "1", "1", "GEMM"},
                                 {NULL, "1", "2", "4", "GEMM"},    {"64", "1", "5", "2", "GEMM"}};
    const tsl_layout layouts[2] = {TSL_ROW_MAJOR, TSL_COL_MAJOR};
    const tsl_trans trans[2] = {TSL_NO_TRANS, TSL_TRANS};
    for (size_t s = 0; s < sizeof settings / sizeof settings[0]; ++s) {
        char setting[160], chunk_var[40], staging_var[40];
        snprintf(setting, sizeof setting,
                 "chunk rows %s, staging %s, staging buffers %s KiB, copy threads %s (%s names)",
                 settings[s][0] ? settings[s][0] : "(one chunk)", settings[s][1],
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
        }
        unsetenv(chunk_var);
        unsetenv(staging_var);
    }
    unsetenv("TESSEL_GEMM_STAGE_KB");
    unsetenv("TESSEL_GEMM_COPY_THREADS");
    tsl_context_destroy(ctx);
}

int main(void)
{
    test_pipeline();
    return check_summary("pipeline");
}
