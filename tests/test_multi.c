/* test_multi.c: the multi-device layer (tsl_group_*, docs/multi-device.md) on several PoCL CPU
 * devices (tests/multi.cmake sets POCL_DEVICES to three pthread devices). One process tests one
 * area named on the command line:
 * - `devices`: PoCL lists the devices; "all" and spec lists make groups; a device named twice is
 *   TSL_ERR_INVALID_ARG naming it, an unknown spec TSL_ERR_NO_DEVICE, an empty entry a usage
 *   error; weights (given, compute units, calibrated: all finite, positive, summing to 1) and
 *   the timeout are checked; tsl_group_timing before any call.
 * - `gemm`: tsl_group_[sd]gemm on two devices agrees with tsl_[sd]gemm on one, bit for bit, and
 *   both are within the GEMM tolerance of the CPU reference, for odd shapes (257x31x65,
 *   1100x40x30, 7x5x3, 1x1x1, m smaller than the number of devices, k = 0), both layouts, all
 *   four transposes, padded leading dimensions, alpha/beta, and weights given unevenly, with a
 *   device of weight 0, by compute units and calibrated; under five settings of the pipeline
 *   (chunks of at least 256, 16 or 1 rows or none; with pinned staging or without); the padding
 *   of C is never written; each device reports its rows.
 * - `poisson`: tsl_group_[sd]poisson on two and three devices gives the single device's iterate
 *   bit for bit (and the same sweep count and residual) for grids 3, 4, 5, 37 and 67, sweep
 *   counts 1, 7 and 13, the variants naive, local, temporal_2 and temporal_4 (halos deeper than
 *   a strip, so halo rows come from a device that is not the neighbour), uneven and zero
 *   weights, and with a tolerance that stops early; the halo exchange overlapped with the
 *   sweeps (the default) on strips thick enough, the serial exchange on thinner ones (a middle
 *   strip of 7, 8 and 9 rows) and everywhere with TESSEL_POISSON_OVERLAP=0.
 * - `faults`: TESSEL_FAULT_DEVICE=1 (an OpenCL error on device 1) and 1:hang (device 1 stops
 *   answering, timeout 1 s) make GEMM (in both transfer modes of its pipeline) and Poisson fail
 *   with a message naming device 1, in bounded time, with C and u untouched; bad arguments leave
 *   them untouched too; the group works again afterwards.
 * - `calibration`: TESSEL_FAULT_DEVICE=1:calibrate and 1:calibrate-hang make the calibration of
 *   GEMM and Poisson fail on device 1; the weights fall back to compute units with a note naming
 *   the device and the cause (tsl_group_warning), no error, in bounded time, and the GEMM then
 *   runs with them and gives the single device's C.
 * - `lifetimes`: workers that outlive their call (a wait that times out leaves them running). A
 *   calibration that times out at once (timeout 1 us), then tsl_group_destroy straight away; GEMM
 *   (both transfer modes) and Poisson that time out at once, after which the caller frees its
 *   arrays at once: no worker may touch the group, the job or those arrays afterwards (ASan), the
 *   call returns in bounded time, and once the workers are back the group works again and gives
 *   one device's results. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "gemm_case.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned long long g_seed = 20261130ull;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static tsl_group *make_group(const char *spec, size_t want)
{
    tsl_group *g = NULL;
    tsl_status st = tsl_group_create(spec, &g);
    CHECK(st == TSL_OK, "tsl_group_create(\"%s\"): %s: %s", spec, tsl_status_name(st),
          tsl_last_error());
    if (st == TSL_OK)
        CHECK(tsl_group_size(g) == want, "group \"%s\" has %zu devices, expected %zu", spec,
              tsl_group_size(g), want);
    return g;
}

/* ---- devices, weights, timeout ------------------------------------------------------------- */

static void test_devices(void)
{
    size_t count = 0;
    CHECK(tsl_devices(NULL, 0, &count) == TSL_OK && count >= 3,
          "POCL_DEVICES='pthread pthread pthread' should give 3 devices, tsl_devices lists %zu",
          count);
    tsl_group *g = make_group("all", count);
    tsl_group_destroy(g);
    g = make_group(NULL, count);
    tsl_group_destroy(g);
    g = make_group("all:pthread", count);
    tsl_group_destroy(g);
    g = make_group("0:0, 0:1", 2);

    tsl_group *bad = (tsl_group *)1;
    tsl_status st = tsl_group_create("0:0,0:1,0:0", &bad);
    CHECK(st == TSL_ERR_INVALID_ARG && bad == NULL, "duplicate 0:0: %s", tsl_status_name(st));
    CHECK(strstr(tsl_last_error(), "0:0") && strstr(tsl_last_error(), "twice"),
          "the duplicate's message names it: '%s'", tsl_last_error());
    st = tsl_group_create("pthread,0:0", &bad); /* two specs, one device */
    CHECK(st == TSL_ERR_INVALID_ARG && strstr(tsl_last_error(), "0:0"),
          "'pthread' and '0:0' are one device: %s '%s'", tsl_status_name(st), tsl_last_error());
    st = tsl_group_create("0:0,no-such-device", &bad);
    CHECK(st == TSL_ERR_NO_DEVICE && strstr(tsl_last_error(), "no-such-device"),
          "unknown spec: %s '%s'", tsl_status_name(st), tsl_last_error());
    st = tsl_group_create("all:no-such-device", &bad);
    CHECK(st == TSL_ERR_NO_DEVICE && strstr(tsl_last_error(), "no-such-device"),
          "all:SPEC matching nothing: %s '%s'", tsl_status_name(st), tsl_last_error());
    st = tsl_group_create("0:0,,0:1", &bad);
    CHECK(st == TSL_ERR_INVALID_ARG && strstr(tsl_last_error(), "empty"), "empty entry: %s '%s'",
          tsl_status_name(st), tsl_last_error());
    CHECK(tsl_group_create("0:0", NULL) == TSL_ERR_INVALID_ARG, "out NULL");
    tsl_group_destroy(NULL);
    CHECK(tsl_group_size(NULL) == 0 && tsl_group_context(g, 2) == NULL &&
              tsl_group_context(g, 1) != NULL,
          "size and contexts");

    double w[2] = {1, -1};
    CHECK(tsl_group_set_weights(g, TSL_WEIGHTS_GIVEN, w, 2) == TSL_ERR_INVALID_ARG &&
              check_mentions(tsl_group_error(g), "weights"),
          "a negative weight: '%s'", tsl_group_error(g));
    w[1] = NAN;
    CHECK(tsl_group_set_weights(g, TSL_WEIGHTS_GIVEN, w, 2) == TSL_ERR_INVALID_ARG, "NaN weight");
    w[0] = w[1] = 0;
    CHECK(tsl_group_set_weights(g, TSL_WEIGHTS_GIVEN, w, 2) == TSL_ERR_INVALID_ARG, "all zero");
    CHECK(tsl_group_set_weights(g, TSL_WEIGHTS_GIVEN, w, 3) == TSL_ERR_INVALID_ARG &&
              check_mentions(tsl_group_error(g), "3"),
          "3 weights for 2 devices: '%s'", tsl_group_error(g));
    CHECK(tsl_group_set_weights(g, TSL_WEIGHTS_GIVEN, NULL, 2) == TSL_ERR_INVALID_ARG, "NULL");
    CHECK(tsl_group_set_weights(g, (tsl_weights)7, NULL, 0) == TSL_ERR_INVALID_ARG, "bad how");
    CHECK(tsl_group_set_timeout(g, 0) == TSL_ERR_INVALID_ARG &&
              tsl_group_set_timeout(g, NAN) == TSL_ERR_INVALID_ARG &&
              tsl_group_set_timeout(g, 2.5) == TSL_OK,
          "timeout checks");
    /* Calibration builds its kernels, which takes PoCL seconds on a cold cache: a long limit. */
    CHECK(tsl_group_set_timeout(g, 600) == TSL_OK, "timeout back to 600 s");
    double got[2];
    CHECK(tsl_group_weights(g, "transpose", 0, got, 2) == TSL_ERR_INVALID_ARG, "op transpose");
    CHECK(tsl_group_weights(g, "gemm", 0, got, 1) == TSL_ERR_INVALID_ARG, "count 1");

    w[0] = 1, w[1] = 3;
    CHECK(tsl_group_set_weights(g, TSL_WEIGHTS_GIVEN, w, 2) == TSL_OK, "given 1,3");
    CHECK(tsl_group_weights(g, "gemm", 0, got, 2) == TSL_OK && got[0] == 0.25 && got[1] == 0.75,
          "given weights normalized: %g %g", got[0], got[1]);
    CHECK(tsl_group_set_weights(g, TSL_WEIGHTS_COMPUTE_UNITS, NULL, 0) == TSL_OK, "cu");
    CHECK(tsl_group_weights(g, "poisson", 1, got, 2) == TSL_OK && got[0] == 0.5 && got[1] == 0.5,
          "two identical devices by compute units: %g %g", got[0], got[1]);
    const char *ops[2] = {"gemm", "poisson"};
    CHECK(tsl_group_set_weights(g, TSL_WEIGHTS_CALIBRATE, NULL, 0) == TSL_OK, "calibrate");
    for (int o = 0; o < 2; ++o) {
        st = tsl_group_weights(g, ops[o], 0, got, 2);
        CHECK(st == TSL_OK && got[0] > 0 && got[1] > 0 && fabs(got[0] + got[1] - 1) < 1e-12,
              "calibrated %s weights: %s %g %g (%s)", ops[o], tsl_status_name(st), got[0], got[1],
              tsl_group_error(g));
        printf("calibrated %s weights on two PoCL devices: %.3f %.3f\n", ops[o], got[0], got[1]);
    }
    tsl_group_times t;
    tsl_group_part parts[2];
    CHECK(tsl_group_timing(g, &t, parts, 2) == TSL_OK && t.devices == 0, "timing before a call");
    CHECK(tsl_group_timing(g, NULL, NULL, 1) == TSL_ERR_INVALID_ARG, "parts NULL with cap");
    tsl_group_destroy(g);
}

/* ---- GEMM ---------------------------------------------------------------------------------- */

static void run_gemm_case(tsl_group *g, tsl_context *ctx, int dbl, const gemm_case *c,
                          const char *weights)
{
    size_t es = dbl ? 8 : 4;
    size_t lda = run_len(c, 'a') + c->pad, ldb = run_len(c, 'b') + c->pad;
    size_t ldc = run_len(c, 'c') + c->pad;
    lda = lda ? lda : 1, ldb = ldb ? ldb : 1, ldc = ldc ? ldc : 1;
    size_t ea = stored_rows(c, 'a') * lda, eb = stored_rows(c, 'b') * ldb;
    size_t ec = stored_rows(c, 'c') * ldc;
    unsigned long long state = g_seed + c->m * 131 + c->n * 7 + c->k;
    void *a = xmalloc(ea * es), *b = xmalloc(eb * es), *c0 = xmalloc(ec * es);
    void *cg = xmalloc(ec * es), *cs = xmalloc(ec * es);
    fill(dbl, a, ea, &state);
    fill(dbl, b, eb, &state);
    fill(dbl, c0, ec, &state);
    memcpy(cg, c0, ec * es);
    memcpy(cs, c0, ec * es);
    double *ref = widen(dbl, c0, ec);
    double *ad = widen(dbl, a, ea), *bd = widen(dbl, b, eb);
    tsl_ref_dgemm(c->layout, c->ta, c->tb, c->m, c->n, c->k, c->alpha, ad, lda, bd, ldb, c->beta,
                  ref, ldc);
    char what[200];
    snprintf(what, sizeof what, "%s %s %c%c %zux%zux%zu pad %zu alpha %g beta %g weights %s",
             dbl ? "double" : "single", c->layout == TSL_ROW_MAJOR ? "row" : "col",
             c->ta == TSL_TRANS ? 'T' : 'N', c->tb == TSL_TRANS ? 'T' : 'N', c->m, c->n, c->k,
             c->pad, c->alpha, c->beta, weights);
    tsl_status st = gemm_on(g, NULL, dbl, c, a, lda, b, ldb, cg, ldc);
    CHECK(st == TSL_OK, "group %s: %s: %s", what, tsl_status_name(st), tsl_group_error(g));
    tsl_status ss = gemm_on(NULL, ctx, dbl, c, a, lda, b, ldb, cs, ldc);
    CHECK(ss == TSL_OK, "single %s: %s", what, tsl_context_error(ctx));
    if (st == TSL_OK && ss == TSL_OK) {
        double tol = tsl_ref_gemm_tolerance(dbl, c->k);
        double eg = rel_err(dbl, c, cg, ldc, ref), esg = rel_err(dbl, c, cs, ldc, ref);
        CHECK(eg <= tol, "group %s: relative error %.3e above %.3e", what, eg, tol);
        CHECK(esg <= tol, "single %s: relative error %.3e above %.3e", what, esg, tol);
        double *sd = widen(dbl, cs, ec);
        double diff = rel_err(dbl, c, cg, ldc, sd);
        CHECK(diff <= tol, "group %s differs from one device by %.3e", what, diff);
        free(sd);
        /* On PoCL every chunk runs the kernel configuration of the whole problem (the same size
         * class, no split k on a CPU): the group's C is the single device's, bit for bit. */
        size_t runs_c = stored_rows(c, 'c'), len_c = run_len(c, 'c'), differ = 0;
        for (size_t r = 0; r < runs_c; ++r)
            differ += memcmp((char *)cg + r * ldc * es, (char *)cs + r * ldc * es, len_c * es) != 0;
        CHECK(differ == 0, "group %s: %zu runs of C differ from one device's in their bits", what,
              differ);
        /* the padding of C (past each run) is the caller's: never written */
        size_t runs = stored_rows(c, 'c'), len = run_len(c, 'c'), touched = 0;
        for (size_t r = 0; r < runs; ++r)
            touched += memcmp((char *)cg + (r * ldc + len) * es, (char *)c0 + (r * ldc + len) * es,
                              (ldc - len) * es) != 0;
        CHECK(touched == 0, "group %s: the padding of %zu runs of C was written", what, touched);
        tsl_group_times t;
        tsl_group_part parts[3];
        CHECK(tsl_group_timing(g, &t, parts, 3) == TSL_OK, "timing");
        size_t total = 0, devices = 0;
        for (size_t i = 0; i < tsl_group_size(g); ++i) {
            CHECK(parts[i].first_row == total, "%s: device %zu starts at row %zu, not %zu", what, i,
                  parts[i].first_row, total);
            total += parts[i].rows;
            devices += parts[i].rows > 0;
            if (parts[i].rows)
                CHECK(parts[i].timing.kernel_ms > 0 && parts[i].wall_ms > 0,
                      "%s: device %zu has no times", what, i);
        }
        CHECK(total == c->m && devices == t.devices && t.wall_ms > 0,
              "%s: rows %zu of %zu, %zu devices, wall %g", what, total, c->m, t.devices, t.wall_ms);
    }
    free(a), free(b), free(c0), free(cg), free(cs), free(ref), free(ad), free(bd);
}

/* The cases under one setting of the GEMM pipeline's knobs (docs/multi-device.md):
 * TESSEL_GROUP_CHUNK_ROWS, the fewest rows of a chunk, TESSEL_GROUP_STAGING (1: pinned host
 * staging, downloads during the later chunks) and TESSEL_GEMM_PANEL_COLS, the fewest columns of
 * a panel. Unset, a CPU device such as PoCL's runs its block in one piece without staging; "256"
 * and "1" are a GPU's defaults (only the 1100-row case has blocks of 512 rows or more, so
 * chunks); 16 splits every block of 32 rows or more into up to 4 chunks, and 1 into chunks of as
 * little as one row; panels of at least 1 or 7 columns cut the 31 and 40 columns of C into 4
 * panels, and with 1 the 5 columns of the 7-row case too (1, 1, 1 and 2). */
static void gemm_sweep(tsl_group *g, tsl_context *ctx, const char *chunk_rows, const char *staging,
                       const char *panel_cols)
{
    const char *vars[3] = {"TESSEL_GROUP_CHUNK_ROWS", "TESSEL_GROUP_STAGING",
                           "TESSEL_GEMM_PANEL_COLS"};
    const char *vals[3] = {chunk_rows, staging, panel_cols};
    for (int v = 0; v < 3; ++v)
        if (vals[v])
            setenv(vars[v], vals[v], 1);
        else
            unsetenv(vars[v]);
    printf("TESSEL_GROUP_CHUNK_ROWS=%s TESSEL_GROUP_STAGING=%s TESSEL_GEMM_PANEL_COLS=%s\n",
           chunk_rows ? chunk_rows : "", staging ? staging : "", panel_cols ? panel_cols : "");
    double uneven[2] = {0.3, 0.7}, zero_first[2] = {0, 1}, zero_last[2] = {5, 0};
    const tsl_layout layouts[2] = {TSL_ROW_MAJOR, TSL_COL_MAJOR};
    const tsl_trans trans[2] = {TSL_NO_TRANS, TSL_TRANS};
    for (int dbl = 0; dbl < 2; ++dbl) {
        /* every layout and transpose on the odd shape, uneven weights, padded ld */
        tsl_group_set_weights(g, TSL_WEIGHTS_GIVEN, uneven, 2);
        for (int l = 0; l < 2; ++l)
            for (int ta = 0; ta < 2; ++ta)
                for (int tb = 0; tb < 2; ++tb) {
                    gemm_case c = {layouts[l], trans[ta], trans[tb], 257, 31, 65, 3, 1.5, 0.0};
                    if (ta == tb) c.beta = -0.5;
                    run_gemm_case(g, ctx, dbl, &c, "0.3,0.7");
                }
        gemm_case tall = {TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 1100, 40, 30, 1, 1.0, 0.25};
        run_gemm_case(g, ctx, dbl, &tall, "0.3,0.7"); /* 330 and 770 rows */
        gemm_case odd = {TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 257, 31, 65, 0, 1.0, 0.0};
        tsl_group_set_weights(g, TSL_WEIGHTS_GIVEN, zero_first, 2);
        run_gemm_case(g, ctx, dbl, &odd, "0,1");
        tsl_group_set_weights(g, TSL_WEIGHTS_GIVEN, zero_last, 2);
        run_gemm_case(g, ctx, dbl, &odd, "5,0");
        run_gemm_case(g, ctx, dbl, &tall, "5,0");
        tsl_group_set_weights(g, TSL_WEIGHTS_COMPUTE_UNITS, NULL, 0);
        run_gemm_case(g, ctx, dbl, &odd, "cu");
        gemm_case tiny = {TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 1, 1, 1, 0, 2.0, 0.5};
        run_gemm_case(g, ctx, dbl, &tiny, "cu"); /* one row: one device works */
        gemm_case seven = {TSL_ROW_MAJOR, TSL_TRANS, TSL_TRANS, 7, 5, 3, 1, -1.0, 0.5};
        run_gemm_case(g, ctx, dbl, &seven, "cu"); /* 3 and 4 rows: chunks of one row at 1 */
        gemm_case k0 = {TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_TRANS, 7, 5, 0, 2, 1.0, 2.0};
        run_gemm_case(g, ctx, dbl, &k0, "cu"); /* C = beta C */
        tsl_group_set_weights(g, TSL_WEIGHTS_CALIBRATE, NULL, 0);
        gemm_case sq = {TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 128, 96, 80, 0, 1.0, 0.0};
        run_gemm_case(g, ctx, dbl, &sq, "calibrate");
        gemm_case zero = {TSL_COL_MAJOR, TSL_NO_TRANS, TSL_TRANS, 40, 9, 6, 2, 0.0, 0.75};
        run_gemm_case(g, ctx, dbl, &zero, "calibrate"); /* alpha = 0: C = beta C */
    }
    unsetenv("TESSEL_GROUP_CHUNK_ROWS");
    unsetenv("TESSEL_GROUP_STAGING");
    unsetenv("TESSEL_GEMM_PANEL_COLS");
}

static void test_gemm(void)
{
    tsl_group *g = make_group("0:0,0:1", 2);
    tsl_context *ctx = NULL;
    CHECK(tsl_context_create("0:0", &ctx) == TSL_OK, "context 0:0");
    if (!g || !ctx) return;
    gemm_sweep(g, ctx, NULL, NULL, NULL);
    gemm_sweep(g, ctx, "256", "1", NULL);
    gemm_sweep(g, ctx, "16", "1", NULL);
    gemm_sweep(g, ctx, "1", "0", NULL);
    gemm_sweep(g, ctx, "1", "1", NULL);
    gemm_sweep(g, ctx, "16", "1", "7"); /* chunks and panels in each device's block */
    gemm_sweep(g, ctx, "1", "0", "1");
    gemm_sweep(g, ctx, NULL, "1", "1"); /* panels alone */
    /* the BLAS quick return and bad arguments: nothing written, the argument named */
    float x = 1.0f, cval = 42.0f;
    CHECK(tsl_group_sgemm(g, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 0, 3, 3, 1, &x, 3, &x, 3, 0,
                          NULL, 3) == TSL_OK,
          "m == 0 is a quick return");
    CHECK(tsl_group_sgemm(g, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 1, 1, 2, 1, &x, 1, &x, 1, 0,
                          &cval, 1) == TSL_ERR_INVALID_ARG &&
              check_mentions(tsl_group_error(g), "lda") && cval == 42.0f,
          "lda too small: '%s'", tsl_group_error(g));
    CHECK(tsl_group_sgemm(g, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 1, 1, 1, 1, NULL, 1, &x, 1,
                          0, &cval, 1) == TSL_ERR_INVALID_ARG &&
              check_mentions(tsl_group_error(g), "A") && cval == 42.0f,
          "A NULL: '%s'", tsl_group_error(g));
    CHECK(tsl_group_sgemm(g, (tsl_layout)5, TSL_NO_TRANS, TSL_NO_TRANS, 1, 1, 1, 1, &x, 1, &x, 1, 0,
                          &cval, 1) == TSL_ERR_INVALID_ARG &&
              check_mentions(tsl_group_error(g), "layout"),
          "bad layout: '%s'", tsl_group_error(g));
    CHECK(tsl_group_sgemm(NULL, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 1, 1, 1, 1, &x, 1, &x, 1,
                          0, &cval, 1) == TSL_ERR_INVALID_ARG,
          "group NULL");
    tsl_context_destroy(ctx);
    tsl_group_destroy(g);
}

/* ---- Poisson ------------------------------------------------------------------------------- */

static tsl_status poisson_on(tsl_group *g, tsl_context *ctx, int dbl, size_t n, const void *f,
                             void *u, int iters, double tol, tsl_poisson_info *info)
{
    if (g && dbl) return tsl_group_dpoisson(g, n, f, u, iters, tol, info);
    if (g) return tsl_group_spoisson(g, n, f, u, iters, tol, info);
    if (dbl) return tsl_dpoisson(ctx, n, f, u, iters, tol, info);
    return tsl_spoisson(ctx, n, f, u, iters, tol, info);
}

static void set_variant(tsl_group *g, tsl_context *ctx, const char *v)
{
    for (size_t i = 0; i < tsl_group_size(g); ++i)
        CHECK(tsl_context_set_variant(tsl_group_context(g, i), "poisson", v) == TSL_OK,
              "variant %s", v);
    CHECK(tsl_context_set_variant(ctx, "poisson", v) == TSL_OK, "variant %s", v);
}

static void poisson_case(tsl_group *g, tsl_context *ctx, int dbl, size_t n, int sweeps, double tol,
                         const char *what)
{
    size_t es = dbl ? 8 : 4, count = n * n;
    unsigned long long state = g_seed + n * 1000 + (unsigned long long)sweeps;
    void *f = xmalloc(count * es), *ug = xmalloc(count * es), *us = xmalloc(count * es);
    fill(dbl, f, count, &state);
    fill(dbl, ug, count, &state);
    for (size_t i = 0; i < count; ++i) { /* |f| ~ |A_h u| */
        if (dbl)
            ((double *)f)[i] *= 20.0;
        else
            ((float *)f)[i] *= 20.0f;
    }
    memcpy(us, ug, count * es);
    tsl_poisson_info ig = {-1, NAN, NAN}, is = {-1, NAN, NAN};
    tsl_status st = poisson_on(g, NULL, dbl, n, f, ug, sweeps, tol, &ig);
    CHECK(st == TSL_OK, "group %s n=%zu sweeps=%d: %s: %s", what, n, sweeps, tsl_status_name(st),
          tsl_group_error(g));
    tsl_status ss = poisson_on(NULL, ctx, dbl, n, f, us, sweeps, tol, &is);
    CHECK(ss == TSL_OK, "single %s n=%zu: %s", what, n, tsl_context_error(ctx));
    if (st == TSL_OK && ss == TSL_OK) {
        size_t diffs = 0, first = count;
        for (size_t i = 0; i < count; ++i)
            if (memcmp((char *)ug + i * es, (char *)us + i * es, es) != 0) {
                if (first == count) first = i;
                ++diffs;
            }
        CHECK(diffs == 0,
              "group %s %s n=%zu sweeps=%d tol=%g: %zu points differ from one device, the first "
              "at row %zu column %zu",
              what, dbl ? "double" : "single", n, sweeps, tol, diffs, first / n, first % n);
        CHECK(ig.iterations == is.iterations && memcmp(&ig.residual, &is.residual, 8) == 0,
              "group %s n=%zu: %d sweeps residual %.17g, one device %d sweeps residual %.17g", what,
              n, ig.iterations, ig.residual, is.iterations, is.residual);
        CHECK(ig.kernel_ms > 0, "group %s n=%zu: kernel_ms %g", what, n, ig.kernel_ms);
    }
    free(f), free(ug), free(us);
}

static void test_poisson(void)
{
    tsl_context *ctx = NULL;
    CHECK(tsl_context_create("0:0", &ctx) == TSL_OK, "context 0:0");
    tsl_group *two = make_group("0:0,0:1", 2), *three = make_group("0:0,0:1,0:2", 3);
    if (!ctx || !two || !three) return;
    const char *variants[] = {"naive", "local", "temporal_2", "temporal_4"};
    const size_t sizes[] = {3, 4, 5, 37, 67};
    const int sweep_counts[] = {1, 7, 13};
    double uneven[3] = {1, 3, 2}, zero_mid[3] = {1, 0, 1}, cu[1] = {0};
    (void)cu;
    for (size_t v = 0; v < 4; ++v) {
        set_variant(two, ctx, variants[v]);
        set_variant(three, ctx, variants[v]);
        tsl_group_set_weights(two, TSL_WEIGHTS_COMPUTE_UNITS, NULL, 0);
        tsl_group_set_weights(three, TSL_WEIGHTS_GIVEN, uneven, 3);
        for (size_t si = 0; si < 5; ++si)
            for (size_t ci = 0; ci < 3; ++ci) {
                char what[80];
                snprintf(what, sizeof what, "%s two devices", variants[v]);
                poisson_case(two, ctx, 0, sizes[si], sweep_counts[ci], 0, what);
                snprintf(what, sizeof what, "%s three devices 1,3,2", variants[v]);
                poisson_case(three, ctx, 0, sizes[si], sweep_counts[ci], 0, what);
            }
        char what[80];
        snprintf(what, sizeof what, "%s three devices 1,0,1 double", variants[v]);
        tsl_group_set_weights(three, TSL_WEIGHTS_GIVEN, zero_mid, 3);
        poisson_case(three, ctx, 1, 67, 13, 0, what);
        snprintf(what, sizeof what, "%s two devices, tol", variants[v]);
        poisson_case(two, ctx, 1, 37, 100000, 1e-6, what);
    }
    /* The overlapped halo exchange (the default) and the serial one: a middle strip of 7, 8 and 9
     * rows between two neighbours; with temporal_4 (4-row edges) 7 and 8 fall back to the serial
     * exchange, 9 overlaps with one interior row. Then again with TESSEL_POISSON_OVERLAP=0. */
    tsl_group_times t;
    tsl_group_part parts[3];
    double thin[3][3] = {{13, 7, 15}, {13, 8, 14}, {13, 9, 13}};
    for (int serial = 0; serial < 2; ++serial) {
        if (serial) setenv("TESSEL_POISSON_OVERLAP", "0", 1);
        for (size_t v = 0; v < 4; ++v) {
            set_variant(three, ctx, variants[v]);
            for (size_t k = 0; k < 3; ++k) {
                char what[96];
                snprintf(what, sizeof what, "%s three devices 13,%g,%g%s", variants[v], thin[k][1],
                         thin[k][2], serial ? ", serial exchange" : "");
                tsl_group_set_weights(three, TSL_WEIGHTS_GIVEN, thin[k], 3);
                poisson_case(three, ctx, 0, 37, 13, 0, what);
                poisson_case(three, ctx, 1, 37, 7, 0, what);
                CHECK(tsl_group_timing(three, &t, parts, 3) == TSL_OK && parts[1].rows == 7 + k,
                      "%s: the middle strip has %zu rows, not %zu", what, parts[1].rows, 7 + k);
            }
            if (serial) {
                set_variant(two, ctx, variants[v]);
                tsl_group_set_weights(two, TSL_WEIGHTS_COMPUTE_UNITS, NULL, 0);
                poisson_case(two, ctx, 0, 67, 13, 0, "two devices, serial exchange");
            }
        }
        unsetenv("TESSEL_POISSON_OVERLAP");
    }
    set_variant(three, ctx, "temporal_4");
    tsl_group_set_weights(three, TSL_WEIGHTS_GIVEN, zero_mid, 3);
    poisson_case(three, ctx, 1, 67, 13, 0, "temporal_4 three devices 1,0,1 double");
    /* a grid of 67 split 1:3:2 with temporal_4: strips of 11, 33 and 21 owned rows */
    CHECK(tsl_group_timing(three, &t, parts, 3) == TSL_OK && t.devices == 2 && parts[1].rows == 0 &&
              parts[0].rows + parts[2].rows == 65 && t.phase_ms > 0,
          "three devices 1,0,1: %zu devices, rows %zu %zu %zu, phase %g", t.devices, parts[0].rows,
          parts[1].rows, parts[2].rows, t.phase_ms);
    /* bad arguments: u untouched, the argument named */
    float f[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, u[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2};
    CHECK(tsl_group_spoisson(two, 2, f, u, 1, 0, NULL) == TSL_ERR_INVALID_ARG &&
              check_mentions(tsl_group_error(two), "n") && u[4] == 2,
          "n = 2: '%s'", tsl_group_error(two));
    CHECK(tsl_group_spoisson(two, 3, f, u, -1, 0, NULL) == TSL_ERR_INVALID_ARG &&
              check_mentions(tsl_group_error(two), "max_iters"),
          "max_iters -1: '%s'", tsl_group_error(two));
    CHECK(tsl_group_spoisson(two, 3, NULL, u, 1, 0, NULL) == TSL_ERR_INVALID_ARG &&
              check_mentions(tsl_group_error(two), "f"),
          "f NULL: '%s'", tsl_group_error(two));
    CHECK(tsl_group_spoisson(two, 3, f, u, 1, NAN, NULL) == TSL_ERR_INVALID_ARG &&
              check_mentions(tsl_group_error(two), "tol"),
          "tol NaN: '%s'", tsl_group_error(two));
    tsl_group_destroy(two);
    tsl_group_destroy(three);
    tsl_context_destroy(ctx);
}

/* ---- faults -------------------------------------------------------------------------------- */

static void test_faults(void)
{
    tsl_group *g = make_group("0:0,0:1", 2);
    if (!g) return;
    tsl_group_set_weights(g, TSL_WEIGHTS_COMPUTE_UNITS, NULL, 0);
    CHECK(tsl_group_set_timeout(g, 1.0) == TSL_OK, "timeout 1 s");
    const size_t m = 64, n = 48, k = 32, gn = 33;
    unsigned long long state = g_seed;
    float *a = xmalloc(m * k * 4), *b = xmalloc(k * n * 4), *c = xmalloc(m * n * 4);
    float *c0 = xmalloc(m * n * 4), *f = xmalloc(gn * gn * 4), *u = xmalloc(gn * gn * 4);
    float *u0 = xmalloc(gn * gn * 4);
    tsl_ref_fill_f(a, m * k, &state);
    tsl_ref_fill_f(b, k * n, &state);
    tsl_ref_fill_f(c0, m * n, &state);
    tsl_ref_fill_f(f, gn * gn, &state);
    tsl_ref_fill_f(u0, gn * gn, &state);
    const char *modes[2] = {"1", "1:hang"};
    for (int mode = 0; mode < 2; ++mode) {
        setenv("TESSEL_FAULT_DEVICE", modes[mode], 1);
        /* GEMM in both transfer modes, in chunks of 8 rows and panels of 12 columns: the fault
         * comes after device 1's last piece, while device 0 may have its block, and C must stay
         * as it was. */
        setenv("TESSEL_GROUP_CHUNK_ROWS", "8", 1);
        setenv("TESSEL_GEMM_PANEL_COLS", "12", 1);
        for (int staged = 0; staged < 2; ++staged) {
            setenv("TESSEL_GROUP_STAGING", staged ? "1" : "0", 1);
            memcpy(c, c0, m * n * 4);
            double t0 = now_s();
            tsl_status st = tsl_group_sgemm(g, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k,
                                            1, a, k, b, n, 0.5f, c, n);
            double secs = now_s() - t0;
            const char *msg = tsl_group_error(g);
            CHECK(st == TSL_ERR_OPENCL && strstr(msg, "device 1 (0:1"),
                  "gemm, fault %s, staging %d: %s '%s' should name device 1", modes[mode], staged,
                  tsl_status_name(st), msg);
            CHECK(mode == 0 ? strstr(msg, "CL_OUT_OF_RESOURCES") != NULL
                            : strstr(msg, "timed out") != NULL,
                  "gemm, fault %s, staging %d: '%s'", modes[mode], staged, msg);
            CHECK(secs < 30, "gemm, fault %s: took %.1f s with a 1 s timeout", modes[mode], secs);
            CHECK(memcmp(c, c0, m * n * 4) == 0, "gemm, fault %s, staging %d: C was written",
                  modes[mode], staged);
            printf("gemm, fault %s, staging %d: %.2f s: %s\n", modes[mode], staged, secs, msg);
        }
        unsetenv("TESSEL_GROUP_CHUNK_ROWS");
        unsetenv("TESSEL_GROUP_STAGING");
        unsetenv("TESSEL_GEMM_PANEL_COLS");

        memcpy(u, u0, gn * gn * 4);
        double t0 = now_s();
        tsl_poisson_info info = {-7, 0, 0};
        tsl_status st = tsl_group_spoisson(g, gn, f, u, 20, 0, &info);
        double secs = now_s() - t0;
        const char *msg = tsl_group_error(g);
        CHECK(st == TSL_ERR_OPENCL && strstr(msg, "device 1 (0:1"),
              "poisson, fault %s: %s '%s' should name device 1", modes[mode], tsl_status_name(st),
              msg);
        CHECK(secs < 30, "poisson, fault %s: took %.1f s", modes[mode], secs);
        CHECK(memcmp(u, u0, gn * gn * 4) == 0 && info.iterations == -7,
              "poisson, fault %s: u or info was written", modes[mode]);
        printf("poisson, fault %s: %.2f s: %s\n", modes[mode], secs, msg);
    }
    unsetenv("TESSEL_FAULT_DEVICE");
    /* the group works again */
    memcpy(c, c0, m * n * 4);
    tsl_status st = tsl_group_sgemm(g, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1, a, k,
                                    b, n, 0.5f, c, n);
    CHECK(st == TSL_OK, "gemm after the faults: %s", tsl_group_error(g));
    tsl_poisson_info info;
    st = tsl_group_spoisson(g, gn, f, u, 20, 0, &info);
    CHECK(st == TSL_OK && info.iterations == 20, "poisson after the faults: %s",
          tsl_group_error(g));
    free(a), free(b), free(c), free(c0), free(f), free(u), free(u0);
    tsl_group_destroy(g);
}

/* Calibration that fails on a device falls back to compute-unit weights with a note, and the
 * call runs: TESSEL_FAULT_DEVICE=1:calibrate (an OpenCL error in device 1's calibration) and
 * 1:calibrate-hang (device 1 stops answering in it; timeout 1 s, after which device 0's
 * calibration stops between its runs, so both come back). A measured calibration first, on a
 * group of its own: it leaves the kernels of the calibration in the disk cache, so device 0's
 * calibration below loads them instead of compiling for longer than the timeout. */
static void test_calibration_fallback(void)
{
    tsl_group *warm = make_group("0:0,0:1", 2);
    if (!warm) return;
    double w[2];
    tsl_status st = TSL_OK;
    const char *ops[2] = {"gemm", "poisson"};
    for (int o = 0; o < 2; ++o) {
        st = tsl_group_weights(warm, ops[o], 0, w, 2);
        CHECK(st == TSL_OK && tsl_group_warning(warm)[0] == '\0',
              "a %s calibration that works: %s, warning '%s'", ops[o], tsl_group_error(warm),
              tsl_group_warning(warm));
    }
    tsl_group_destroy(warm);

    const size_t m = 61, n = 17, k = 23;
    unsigned long long state = g_seed + 5;
    float *a = xmalloc(m * k * 4), *b = xmalloc(k * n * 4), *c = xmalloc(m * n * 4);
    float *ref = xmalloc(m * n * 4);
    tsl_ref_fill_f(a, m * k, &state);
    tsl_ref_fill_f(b, k * n, &state);
    tsl_context *ctx = NULL;
    CHECK(tsl_context_create("0:0", &ctx) == TSL_OK, "context 0:0");
    CHECK(ctx && tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1, a, k, b, n,
                           0, ref, n) == TSL_OK,
          "single-device GEMM");
    const char *modes[2] = {"1:calibrate", "1:calibrate-hang"};
    for (int mode = 0; mode < 2; ++mode) {
        tsl_group *g = make_group("0:0,0:1", 2);
        if (!g) break;
        CHECK(tsl_group_set_timeout(g, 1.0) == TSL_OK, "timeout 1 s");
        setenv("TESSEL_FAULT_DEVICE", modes[mode], 1);
        for (int o = 0; o < 2; ++o) {
            double t0 = now_s();
            w[0] = w[1] = -1;
            st = tsl_group_weights(g, ops[o], 0, w, 2);
            double secs = now_s() - t0;
            const char *note = tsl_group_warning(g);
            CHECK(st == TSL_OK && w[0] == 0.5 && w[1] == 0.5,
                  "%s, %s: compute-unit weights of two like devices, got %s %g %g (%s)",
                  modes[mode], ops[o], tsl_status_name(st), w[0], w[1], tsl_group_error(g));
            CHECK(strstr(note, "calibrating") && strstr(note, ops[o]) &&
                      strstr(note, "device 1 (0:1") && strstr(note, "compute units") &&
                      strstr(note, mode ? "timed out" : "CL_OUT_OF_RESOURCES"),
                  "%s, %s: the note names the op, the device and why: '%s'", modes[mode], ops[o],
                  note);
            CHECK(tsl_group_error(g)[0] == '\0', "%s: no error after the fallback: '%s'",
                  modes[mode], tsl_group_error(g));
            CHECK(secs < 30, "%s, %s: %.1f s with a 1 s timeout", modes[mode], ops[o], secs);
            printf("%s, %s: %.2f s: %s\n", modes[mode], ops[o], secs, note);
        }
        /* The fallback is kept: the calls run with it, the note stays, no new calibration. */
        CHECK(tsl_group_set_timeout(g, 600) == TSL_OK, "timeout back to 600 s");
        memset(c, 0, m * n * 4);
        st = tsl_group_sgemm(g, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1, a, k, b, n,
                             0, c, n);
        CHECK(st == TSL_OK && memcmp(c, ref, m * n * 4) == 0,
              "%s: the GEMM after the fallback: %s (%s), C %s one device's", modes[mode],
              tsl_status_name(st), tsl_group_error(g),
              memcmp(c, ref, m * n * 4) ? "differs from" : "is");
        tsl_group_times t;
        tsl_group_part parts[2];
        tsl_group_timing(g, &t, parts, 2);
        CHECK(parts[0].rows == 31 && parts[1].rows == 30 &&
                  strstr(tsl_group_warning(g), "calibrating gemm failed"),
              "%s: rows %zu and %zu, note '%s'", modes[mode], parts[0].rows, parts[1].rows,
              tsl_group_warning(g));
        unsetenv("TESSEL_FAULT_DEVICE");
        tsl_group_destroy(g);
    }
    unsetenv("TESSEL_FAULT_DEVICE");
    tsl_context_destroy(ctx);
    free(a), free(b), free(c), free(ref);
}

/* ---- lifetimes ----------------------------------------------------------------------------- */

/* Retries fn until the group is no longer busy with the workers of an earlier call (at most
 * 60 s): the call's status. */
static tsl_status when_back(tsl_group *g, tsl_status (*fn)(tsl_group *, void *), void *arg)
{
    double t0 = now_s();
    tsl_status st;
    while ((st = fn(g, arg)) != TSL_OK && strstr(tsl_group_error(g), "busy") && now_s() - t0 < 60) {
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
    return st;
}

typedef struct {
    size_t m, n, k;
    const float *a, *b;
    float *c;
} sgemm_args;

static tsl_status sgemm_call(tsl_group *g, void *p)
{
    sgemm_args *x = p;
    return tsl_group_sgemm(g, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, x->m, x->n, x->k, 1.0f,
                           x->a, x->k, x->b, x->n, 0.5f, x->c, x->n);
}

typedef struct {
    size_t n;
    const float *f;
    float *u;
} poisson_args;

static tsl_status poisson_call(tsl_group *g, void *p)
{
    poisson_args *x = p;
    return tsl_group_spoisson(g, x->n, x->f, x->u, 20, 0, NULL);
}

static void test_lifetimes(void)
{
    /* A calibration that times out, then destroy at once (cli/multi.c does this after the error
     * of `TESSEL_TIMEOUT=0.000001 tessel poisson --devices 0:0`). */
    const char *ops[2] = {"gemm", "poisson"};
    for (int o = 0; o < 2; ++o)
        for (size_t devices = 1; devices <= 2; ++devices) {
            tsl_group *g = make_group(devices == 1 ? "0:0" : "0:0,0:1", devices);
            if (!g) return;
            CHECK(tsl_group_set_timeout(g, 1e-6) == TSL_OK, "timeout 1 us");
            double w[2], t0 = now_s();
            tsl_status st = tsl_group_weights(g, ops[o], 0, w, devices);
            double secs = now_s() - t0;
            CHECK(st == TSL_OK || strstr(tsl_group_error(g), "timed out"),
                  "%s calibration, %zu devices, timeout 1 us: %s '%s'", ops[o], devices,
                  tsl_status_name(st), tsl_group_error(g));
            CHECK(secs < 5, "%s calibration: %.2f s with a 1 us timeout", ops[o], secs);
            printf("%s calibration, %zu devices, 1 us: %.3f s: %s\n", ops[o], devices, secs,
                   st == TSL_OK ? tsl_group_warning(g) : tsl_group_error(g));
            tsl_group_destroy(g);
        }

    /* Calls that time out at once; the caller frees its arrays as soon as they return. */
    const size_t m = 300, n = 40, k = 50, gn = 65;
    unsigned long long state = g_seed + 14;
    float *a0 = xmalloc(m * k * 4), *b0 = xmalloc(k * n * 4), *c0 = xmalloc(m * n * 4);
    float *f0 = xmalloc(gn * gn * 4), *u0 = xmalloc(gn * gn * 4);
    tsl_ref_fill_f(a0, m * k, &state);
    tsl_ref_fill_f(b0, k * n, &state);
    tsl_ref_fill_f(c0, m * n, &state);
    tsl_ref_fill_f(f0, gn * gn, &state);
    tsl_ref_fill_f(u0, gn * gn, &state);
    tsl_group *g = make_group("0:0,0:1", 2);
    tsl_context *ctx = NULL;
    CHECK(tsl_context_create("0:0", &ctx) == TSL_OK, "context 0:0");
    if (!g || !ctx) return;
    double even[2] = {1, 1};
    tsl_group_set_weights(g, TSL_WEIGHTS_GIVEN, even, 2);
    setenv("TESSEL_GROUP_CHUNK_ROWS", "16", 1);
    setenv("TESSEL_GEMM_PANEL_COLS", "10", 1); /* 4 panels of C's 40 columns */
    /* staged: 1 KiB staging buffers, so the ring wraps within every chunk, and three copy
     * threads on each slice: none may touch A, B or C once the call has returned */
    setenv("TESSEL_GEMM_STAGE_KB", "1", 1);
    setenv("TESSEL_GEMM_COPY_THREADS", "3", 1);
    for (int staged = 0; staged < 3; ++staged) {
        if (staged < 2) setenv("TESSEL_GROUP_STAGING", staged ? "1" : "0", 1);
        CHECK(tsl_group_set_timeout(g, 1e-6) == TSL_OK, "timeout 1 us");
        float *a = xmalloc(m * k * 4), *b = xmalloc(k * n * 4), *c = xmalloc(m * n * 4);
        float *f = xmalloc(gn * gn * 4), *u = xmalloc(gn * gn * 4);
        memcpy(a, a0, m * k * 4), memcpy(b, b0, k * n * 4), memcpy(c, c0, m * n * 4);
        memcpy(f, f0, gn * gn * 4), memcpy(u, u0, gn * gn * 4);
        double t0 = now_s();
        tsl_status st;
        const char *what = staged == 2 ? "poisson" : staged ? "gemm staged" : "gemm unstaged";
        if (staged < 2) {
            sgemm_args x = {m, n, k, a, b, c};
            st = sgemm_call(g, &x);
        } else {
            poisson_args x = {gn, f, u};
            st = poisson_call(g, &x);
        }
        double secs = now_s() - t0;
        CHECK(st == TSL_ERR_OPENCL && strstr(tsl_group_error(g), "timed out"),
              "%s, timeout 1 us: %s '%s'", what, tsl_status_name(st), tsl_group_error(g));
        CHECK(secs < 5, "%s: %.2f s with a 1 us timeout", what, secs);
        printf("%s, 1 us: %.3f s: %s\n", what, secs, tsl_group_error(g));
        /* Gone: a worker that still packed A or wrote C would be a use after free. */
        free(a), free(b), free(c), free(f), free(u);
        /* The workers come back; the group then works, with one device's results. */
        CHECK(tsl_group_set_timeout(g, 600) == TSL_OK, "timeout 600 s");
        float *cg = xmalloc(m * n * 4), *cs = xmalloc(m * n * 4);
        float *ug = xmalloc(gn * gn * 4), *us = xmalloc(gn * gn * 4);
        memcpy(cg, c0, m * n * 4), memcpy(cs, c0, m * n * 4);
        memcpy(ug, u0, gn * gn * 4), memcpy(us, u0, gn * gn * 4);
        sgemm_args xg = {m, n, k, a0, b0, cg};
        poisson_args pg = {gn, f0, ug};
        st = when_back(g, sgemm_call, &xg);
        CHECK(st == TSL_OK, "%s: the GEMM once the workers are back: %s '%s'", what,
              tsl_status_name(st), tsl_group_error(g));
        CHECK(tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1.0f, a0, k, b0, n,
                        0.5f, cs, n) == TSL_OK,
              "single-device GEMM");
        CHECK(st != TSL_OK || memcmp(cg, cs, m * n * 4) == 0,
              "%s: the group's C is not one device's", what);
        st = when_back(g, poisson_call, &pg);
        CHECK(st == TSL_OK, "%s: Poisson once the workers are back: %s '%s'", what,
              tsl_status_name(st), tsl_group_error(g));
        CHECK(tsl_spoisson(ctx, gn, f0, us, 20, 0, NULL) == TSL_OK, "single-device Poisson");
        CHECK(st != TSL_OK || memcmp(ug, us, gn * gn * 4) == 0,
              "%s: the group's u is not one device's", what);
        free(cg), free(cs), free(ug), free(us);
    }
    unsetenv("TESSEL_GROUP_CHUNK_ROWS");
    unsetenv("TESSEL_GROUP_STAGING");
    unsetenv("TESSEL_GEMM_STAGE_KB");
    unsetenv("TESSEL_GEMM_COPY_THREADS");
    unsetenv("TESSEL_GEMM_PANEL_COLS");
    /* The last call leaves workers out, and destroy comes at once. */
    CHECK(tsl_group_set_timeout(g, 1e-6) == TSL_OK, "timeout 1 us");
    float *c = xmalloc(m * n * 4);
    memcpy(c, c0, m * n * 4);
    sgemm_args x = {m, n, k, a0, b0, c};
    tsl_status st = sgemm_call(g, &x);
    CHECK(st == TSL_ERR_OPENCL, "the last call times out: %s", tsl_status_name(st));
    free(c);
    tsl_group_destroy(g);
    tsl_context_destroy(ctx);
    free(a0), free(b0), free(c0), free(f0), free(u0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_multi devices|gemm|poisson|faults|calibration|lifetimes\n");
        return 2;
    }
    if (strcmp(argv[1], "devices") == 0)
        test_devices();
    else if (strcmp(argv[1], "gemm") == 0)
        test_gemm();
    else if (strcmp(argv[1], "poisson") == 0)
        test_poisson();
    else if (strcmp(argv[1], "faults") == 0)
        test_faults();
    else if (strcmp(argv[1], "calibration") == 0)
        test_calibration_fallback();
    else if (strcmp(argv[1], "lifetimes") == 0)
        test_lifetimes();
    else {
        fprintf(stderr, "test_multi: unknown area '%s'\n", argv[1]);
        return 2;
    }
    return check_summary(argv[1]);
}
