/* test_level3_batched.c: strided batched GEMM (tsl_[sd]gemm_batched and _buf) against the
 * reference, part of test_level3 (test_level3.c says what it checks). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test_level3.h"

/* ---- strided batched GEMM ------------------------------------------------------------------------ */

static int g_align_b; /* B's leading dimension and stride rounded up to multiples of 8 */

static void batched_case(int dbl, tsl_layout lay, tsl_trans ta, tsl_trans tb, size_t m, size_t n,
                         size_t k, size_t batch, int share, size_t gap, int bufs, int beta_zero,
                         const char *variant)
{
    unsigned long long seed = next_seed(), st = seed;
    size_t es = es_of(dbl);
    int row = lay == TSL_ROW_MAJOR;
    size_t ar = ta == TSL_NO_TRANS ? m : k, ac = ta == TSL_NO_TRANS ? k : m;
    size_t br = tb == TSL_NO_TRANS ? k : n, bc = tb == TSL_NO_TRANS ? n : k;
    size_t lda = (row ? ac : ar) + 1, ldb = (row ? bc : br) + 2, ldc = (row ? n : m) + 1;
    size_t span_a = ((row ? ar : ac) - 1) * lda + (row ? ac : ar);
    size_t span_b = ((row ? br : bc) - 1) * ldb + (row ? bc : br);
    size_t span_c = ((row ? m : n) - 1) * ldc + (row ? n : m);
    if (g_align_b) {
        ldb = (ldb + 7) / 8 * 8;
        span_b = ((row ? br : bc) - 1) * ldb + (row ? bc : br);
    }
    size_t sa = share == 1 ? 0 : span_a + 5, sb = share == 2 ? 0 : span_b, sc = span_c + gap;
    if (g_align_b && sb) sb = (sb + 7) / 8 * 8;
    size_t ea = (batch - 1) * sa + span_a, eb = (batch - 1) * sb + span_b, ec = (batch - 1) * sc + span_c;
    double *ad = xmalloc(ea * 8), *bd = xmalloc(eb * 8), *cd = xmalloc(ec * 8);
    unsigned char *a = xmalloc(ea * es), *b = xmalloc(eb * es), *c = xmalloc(ec * es), *c0 = xmalloc(ec * es);
    tsl_ref_fill_d(ad, ea, &st);
    tsl_ref_fill_d(bd, eb, &st);
    tsl_ref_fill_d(cd, ec, &st);
    for (size_t i = 0; i < ea; ++i) {
        if (dbl) memcpy(a + i * 8, &ad[i], 8); else { float f = (float)ad[i]; memcpy(a + i * 4, &f, 4); ad[i] = f; }
    }
    for (size_t i = 0; i < eb; ++i) {
        if (dbl) memcpy(b + i * 8, &bd[i], 8); else { float f = (float)bd[i]; memcpy(b + i * 4, &f, 4); bd[i] = f; }
    }
    for (size_t i = 0; i < ec; ++i) { /* every element a sentinel, then each problem's C */
        if (dbl) memcpy(c + i * 8, &NAN_OUT_D, 8); else memcpy(c + i * 4, &NAN_OUT_F, 4);
    }
    char *inside = xmalloc(ec);
    memset(inside, 0, ec);
    for (size_t p = 0; p < batch; ++p)
        for (size_t l = 0; l < (row ? m : n); ++l)
            for (size_t j = 0; j < (row ? n : m); ++j) {
                size_t i = p * sc + l * ldc + j;
                inside[i] = 1;
                double v = beta_zero ? NAN : cd[i];
                if (dbl) memcpy(c + i * 8, &v, 8); else { float f = (float)v; memcpy(c + i * 4, &f, 4); cd[i] = f; }
                if (beta_zero) cd[i] = 0.0;
            }
    memcpy(c0, c, ec * es);
    double alpha = rand_scalar(&st), beta = beta_zero ? 0.0 : rand_scalar(&st);
    if (!dbl) alpha = (float)alpha, beta = (float)beta;
    char desc[300];
    snprintf(desc, sizeof desc,
             "[batched %s %s %s %c%c m=%zu n=%zu k=%zu batch=%zu stride_a=%zu stride_b=%zu "
             "stride_c=%zu%s%s seed=%llu]",
             variant, dbl ? "double" : "single", row ? "row" : "col", ta == TSL_TRANS ? 'T' : 'N',
             tb == TSL_TRANS ? 'T' : 'N', m, n, k, batch, sa, sb, sc, bufs ? " buffers" : "",
             beta_zero ? " C=NaN" : "", seed);
    CHECK(tsl_context_set_variant(g_ctx, "gemm_batched", variant) == TSL_OK, "set variant %s", desc);
    tsl_status s;
    if (bufs) {
        tsl_buffer *xa, *xb, *xc;
        tsl_buffer_create(g_ctx, ea * es, &xa), tsl_buffer_create(g_ctx, eb * es, &xb);
        tsl_buffer_create(g_ctx, ec * es, &xc);
        tsl_buffer_write(g_ctx, xa, 0, ea * es, a), tsl_buffer_write(g_ctx, xb, 0, eb * es, b);
        tsl_buffer_write(g_ctx, xc, 0, ec * es, c);
        s = dbl ? tsl_dgemm_batched_buf(g_ctx, lay, ta, tb, m, n, k, alpha, xa, lda, sa, xb, ldb,
                                        sb, beta, xc, ldc, sc, batch)
                : tsl_sgemm_batched_buf(g_ctx, lay, ta, tb, m, n, k, (float)alpha, xa, lda, sa, xb,
                                        ldb, sb, (float)beta, xc, ldc, sc, batch);
        tsl_buffer_read(g_ctx, xc, 0, ec * es, c);
        tsl_buffer_destroy(xa), tsl_buffer_destroy(xb), tsl_buffer_destroy(xc);
    } else {
        s = dbl ? tsl_dgemm_batched(g_ctx, lay, ta, tb, m, n, k, alpha, (double *)a, lda, sa,
                                    (double *)b, ldb, sb, beta, (double *)c, ldc, sc, batch)
                : tsl_sgemm_batched(g_ctx, lay, ta, tb, m, n, k, (float)alpha, (float *)a, lda, sa,
                                    (float *)b, ldb, sb, (float)beta, (float *)c, ldc, sc, batch);
    }
    CHECK(s == TSL_OK, "batched: %s: %s %s", tsl_status_name(s), tsl_context_error(g_ctx), desc);
    if (s == TSL_OK) {
        for (size_t p = 0; p < batch; ++p)
            tsl_ref_dgemm(lay, ta, tb, m, n, k, alpha, ad + p * sa, lda, bd + p * sb, ldb, beta,
                          cd + p * sc, ldc);
        double num = 0, den = 0, worst = 0;
        size_t bad_outside = SIZE_MAX;
        size_t p1 = batch / 2, p1_lo = p1 * sc, p1_hi = p1 * sc + span_c;
        double tol = tsl_ref_gemm_tolerance(dbl, k);
        for (size_t i = 0; i < ec; ++i) {
            if (!inside[i]) {
                if (memcmp(c + i * es, c0 + i * es, es) != 0 && bad_outside == SIZE_MAX) bad_outside = i;
                continue;
            }
            double v;
            if (dbl) memcpy(&v, c + i * 8, 8); else { float f; memcpy(&f, c + i * 4, 4); v = f; }
            double d = v - cd[i];
            num += d * d, den += cd[i] * cd[i];
            if (i >= p1_lo && i < p1_hi) { /* one problem, element by element */
                double e = fabs(d) / (fabs(cd[i]) + 1.0);
                if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
            }
        }
        double err = isnan(num) ? NAN : den > 0 ? sqrt(num / den) : sqrt(num);
        CHECK(err <= tol, "batched relative error %.3g > %.3g %s", err, tol, desc);
        CHECK(worst <= 10 * tol * (k > 1 ? sqrt((double)k) : 1.0),
              "problem %zu: worst element error %.3g %s", p1, worst, desc);
        CHECK(bad_outside == SIZE_MAX, "C changed between problems at element %zu %s", bad_outside,
              desc);
    }
    free(ad), free(bd), free(cd), free(a), free(b), free(c), free(c0), free(inside);
}

void run_batched(void)
{
    const char *vs[3] = {"direct", "loop", "tiled"};
    for (int dbl = 0; dbl < (g_fp64 ? 2 : 1); ++dbl)
        for (int v = 0; v < 3; ++v) {
            set_gemm(dbl);
            batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 7, 5, 3, 1, 0, 0, 0, 0, vs[v]);
            batched_case(dbl, TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 33, 17, 65, 3, 0, 4, 1, 0, vs[v]);
            batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_TRANS, 65, 40, 33, 3, 1, 2, 0, 1, vs[v]);
            batched_case(dbl, TSL_COL_MAJOR, TSL_TRANS, TSL_TRANS, 20, 70, 9, 3, 2, 0, 1, 0, vs[v]);
            if (v == 0) {
                batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 8, 9, 7, 1000, 0, 3, 0, 0, vs[v]);
                batched_case(dbl, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_TRANS, 16, 16, 16, 1000, 2, 0, 1, 1, vs[v]);
                batched_case(dbl, TSL_ROW_MAJOR, TSL_TRANS, TSL_NO_TRANS, 1, 1, 1, 1000, 1, 0, 0, 0, vs[v]);
            }
        }
    /* tiled with operands it takes as they are (B's rows and strides multiples of 8): the one
     * batched tiled2d launch, with tiled2d's pre-pass-free configurations (GEMM of level3.cmake) */
    g_align_b = 1;
    for (int dbl = 0; dbl < (g_fp64 ? 2 : 1); ++dbl) {
        set_gemm(dbl);
        batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 37, 30, 21, 5, 0, 3, 0, 0, "tiled");
        batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 64, 64, 64, 3, 1, 0, 1, 1, "tiled");
        batched_case(dbl, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 70, 33, 65, 200, 2, 0, 0, 0, "tiled");
        batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 130, 62, 40, 4, 0, 1, 1, 0, "auto");
        /* auto on both sides of its threshold (64: direct; 65 and above: tiled) */
        batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 64, 64, 64, 3, 0, 0, 0, 0, "auto");
        batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 96, 72, 65, 3, 0, 2, 0, 0, "auto");
    }
    g_align_b = 0;
    set_gemm(0);
    tsl_context_set_variant(g_ctx, "gemm_batched", "auto");
    batched_case(0, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 33, 33, 33, 3, 0, 1, 0, 0, "auto");
}

