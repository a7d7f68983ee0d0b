/* test_blas.c: correctness of the BLAS-1/2 family (axpy, dot, nrm2, gemv) against the CPU
 * reference of src/ref (CBLAS on double copies; a careful long-double nrm2). One process tests
 * one op and one variant (`test_blas dot vector`), so ctest runs them in parallel;
 * `test_blas errors` checks bad input through the API; `test_blas --expect-variants OP NAME...`
 * asserts that tsl_variant_name lists exactly the variants tests/blas.cmake registers.
 *
 * For the variant, in single and double precision (double skipped only on a device without
 * fp64): vectors of 1, 2, 7, 33, 65, 257, 1000 and 4099 elements (and n == 0); gemv on 1x1,
 * 1x65, 65x1, 33x65, 257x31 and empty shapes in both layouts and both transposes, with tight and
 * padded lda (the padding holds NaN, which would poison a result that read it), beta != 0 and
 * beta == 0 with NaN in y (which must not propagate), alpha == 0 with NaN in A and x. Guard
 * zones after every array must be bit-identical afterwards, and inputs unchanged. Reductions run
 * twice and must give identical bits. nrm2 also on 1e30 and 1e-30 values (whose squares overflow
 * or underflow in single precision), 1e300 / 1e-300 in double, and mixed scales. The device-buffer
 * forms run on one size each. Random data from tsl_ref_fill_*, seeded per case from 20261122
 * (or TSL_TEST_SEED). */
#include "check.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 8
static const size_t SIZES[] = {1, 2, 7, 33, 65, 257, 1000, 4099};
#define NSIZES (sizeof SIZES / sizeof SIZES[0])

static tsl_context *g_ctx;
static const char *g_op, *g_variant;
static unsigned long long g_seed = 20261122ull, g_counter;
static const uint32_t GUARD_F = 0x7F8DEAD1u;
static const uint64_t GUARD_D = 0x7FF0DEADBEEF0001ull;

static unsigned long long next_seed(void)
{
    unsigned long long x = g_seed + 0x9E3779B97F4A7C15ull * (++g_counter);
    x ^= x >> 31;
    return x ? x : 1;
}

/* An array of n elements plus GUARD sentinels, random values (or NaN where nan is set). */
static void *make(int dbl, size_t n, unsigned long long *st, int nan)
{
    size_t es = dbl ? 8 : 4;
    unsigned char *p = malloc((n + GUARD) * es);
    if (!p) abort();
    if (dbl)
        tsl_ref_fill_d((double *)p, n, st);
    else
        tsl_ref_fill_f((float *)p, n, st);
    for (size_t i = 0; i < n + GUARD; ++i) {
        if (i >= n) {
            if (dbl)
                memcpy(p + i * 8, &GUARD_D, 8);
            else
                memcpy(p + i * 4, &GUARD_F, 4);
        } else if (nan) {
            if (dbl)
                ((double *)p)[i] = NAN;
            else
                ((float *)p)[i] = NAN;
        }
    }
    return p;
}

static double get(int dbl, const void *p, size_t i)
{
    return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static double *to_d(int dbl, const void *p, size_t n)
{
    double *d = malloc((n ? n : 1) * sizeof *d);
    if (!d) abort();
    for (size_t i = 0; i < n; ++i)
        d[i] = get(dbl, p, i);
    return d;
}

static int guards_ok(int dbl, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = n; i < n + GUARD; ++i)
        if (dbl ? memcmp(b + i * 8, &GUARD_D, 8) : memcmp(b + i * 4, &GUARD_F, 4)) return 0;
    return 1;
}

static double rel_err(int dbl, const void *out, const double *ref, size_t n)
{
    return dbl ? tsl_ref_rel_err_d(1, n, out, n, ref, n) : tsl_ref_rel_err_f(1, n, out, n, ref, n);
}

/* The float or double at the start of a result slot. */
static double slot_value(int dbl, const double *slot)
{
    if (dbl) return *slot;
    float f;
    memcpy(&f, slot, sizeof f);
    return f;
}

static double scalar_err(double out, double ref)
{
    if (isnan(out) || isnan(ref)) return isnan(out) && isnan(ref) ? 0.0 : NAN;
    if (isinf(ref)) return out == ref ? 0.0 : NAN;
    return ref != 0.0 ? fabs(out - ref) / fabs(ref) : fabs(out);
}

static int skip_double(int dbl)
{
    tsl_device_info d;
    return dbl && tsl_context_device(g_ctx, &d) == TSL_OK && !d.fp64;
}

/* ---- axpy ----------------------------------------------------------------------------------- */

static tsl_status call_axpy(int dbl, size_t n, double alpha, const void *x, void *y)
{
    return dbl ? tsl_daxpy(g_ctx, n, alpha, x, y) : tsl_saxpy(g_ctx, n, (float)alpha, x, y);
}

static void test_axpy(int dbl)
{
    for (size_t si = 0; si < NSIZES; ++si) {
        size_t n = SIZES[si];
        unsigned long long st = next_seed(), seed = st;
        void *x = make(dbl, n, &st, 0), *y = make(dbl, n, &st, 0);
        double alpha;
        tsl_ref_fill_d(&alpha, 1, &st);
        alpha += alpha < 0 ? -0.25 : 0.25;
        double *xd = to_d(dbl, x, n), *ref = to_d(dbl, y, n);
        tsl_ref_daxpy(n, dbl ? alpha : (double)(float)alpha, xd, ref);
        tsl_status s = call_axpy(dbl, n, alpha, x, y);
        CHECK(s == TSL_OK, "axpy n=%zu: %s %s", n, tsl_status_name(s), tsl_context_error(g_ctx));
        double err = rel_err(dbl, y, ref, n), tol = tsl_ref_blas_tolerance(dbl, 1);
        CHECK(err <= tol, "%saxpy n=%zu seed %llu: error %g > %g", dbl ? "d" : "s", n, seed, err,
              tol);
        CHECK(guards_ok(dbl, x, n) && guards_ok(dbl, y, n), "axpy n=%zu: guard zone written", n);
        for (size_t i = 0; i < n; ++i)
            if (get(dbl, x, i) != xd[i]) {
                CHECK(0, "axpy n=%zu: x changed at %zu", n, i);
                break;
            }
        /* alpha == 0: y untouched (BLAS quick return), even with NaN in x */
        void *xn = make(dbl, n, &st, 1);
        unsigned char *before = malloc(n * (dbl ? 8 : 4));
        memcpy(before, y, n * (dbl ? 8 : 4));
        s = call_axpy(dbl, n, 0.0, xn, y);
        CHECK(s == TSL_OK && memcmp(before, y, n * (dbl ? 8 : 4)) == 0,
              "axpy alpha=0 n=%zu changed y", n);
        free(before);
        free(xn);
        free(x);
        free(y);
        free(xd);
        free(ref);
    }
    /* n == 0 with NULL pointers is valid */
    CHECK(call_axpy(dbl, 0, 1.0, NULL, NULL) == TSL_OK, "axpy n=0 with NULL x, y");
    /* the device-buffer form */
    size_t n = 1000, es = dbl ? 8 : 4;
    unsigned long long st = next_seed();
    void *x = make(dbl, n, &st, 0), *y = make(dbl, n, &st, 0);
    double *xd = to_d(dbl, x, n), *ref = to_d(dbl, y, n);
    tsl_ref_daxpy(n, 0.5, xd, ref);
    tsl_buffer *bx = NULL, *by = NULL;
    tsl_status s = tsl_buffer_create(g_ctx, n * es, &bx);
    if (s == TSL_OK) s = tsl_buffer_create(g_ctx, n * es, &by);
    if (s == TSL_OK) s = tsl_buffer_write(g_ctx, bx, 0, n * es, x);
    if (s == TSL_OK) s = tsl_buffer_write(g_ctx, by, 0, n * es, y);
    if (s == TSL_OK)
        s = dbl ? tsl_daxpy_buf(g_ctx, n, 0.5, bx, by) : tsl_saxpy_buf(g_ctx, n, 0.5f, bx, by);
    if (s == TSL_OK) s = tsl_buffer_read(g_ctx, by, 0, n * es, y);
    CHECK(s == TSL_OK, "axpy_buf: %s %s", tsl_status_name(s), tsl_context_error(g_ctx));
    CHECK(rel_err(dbl, y, ref, n) <= tsl_ref_blas_tolerance(dbl, 1), "axpy_buf result");
    tsl_buffer_destroy(bx);
    tsl_buffer_destroy(by);
    free(x);
    free(y);
    free(xd);
    free(ref);
}

/* ---- dot and nrm2 --------------------------------------------------------------------------- */

static tsl_status call_red(int dbl, int nrm2, size_t n, const void *x, const void *y, void *r)
{
    if (nrm2) return dbl ? tsl_dnrm2(g_ctx, n, x, r) : tsl_snrm2(g_ctx, n, x, r);
    return dbl ? tsl_ddot(g_ctx, n, x, y, r) : tsl_sdot(g_ctx, n, x, y, r);
}

/* Runs the reduction twice (identical bits), compares with the reference; returns the error. */
static void check_red(int dbl, int nrm2, size_t n, const void *x, const void *y, double tol,
                      const char *what, unsigned long long seed)
{
    double *xd = to_d(dbl, x, n), *yd = y ? to_d(dbl, y, n) : NULL;
    double ref = nrm2 ? tsl_ref_dnrm2(n, xd) : tsl_ref_ddot(n, xd, yd);
    double r1 = 42.0, r2 = -42.0; /* each holds a float or a double */
    tsl_status s1 = call_red(dbl, nrm2, n, x, y, &r1), s2 = call_red(dbl, nrm2, n, x, y, &r2);
    CHECK(s1 == TSL_OK && s2 == TSL_OK, "%s n=%zu: %s %s", what, n, tsl_status_name(s1),
          tsl_context_error(g_ctx));
    CHECK(memcmp(&r1, &r2, dbl ? 8 : 4) == 0, "%s n=%zu: two runs differ (not deterministic)", what,
          n);
    double out = slot_value(dbl, &r1);
    double err = scalar_err(out, ref);
    CHECK(err <= tol, "%s n=%zu seed %llu: %.17g vs reference %.17g, error %g > %g", what, n, seed,
          out, ref, err, tol);
    CHECK(guards_ok(dbl, x, n) && (!y || guards_ok(dbl, y, n)), "%s: guard zone written", what);
    for (size_t i = 0; i < n; ++i)
        if (get(dbl, x, i) != xd[i] && !isnan(xd[i])) {
            CHECK(0, "%s n=%zu: x changed", what, n);
            break;
        }
    free(xd);
    free(yd);
}

static void test_reduction(int dbl, int nrm2)
{
    const char *what = nrm2 ? (dbl ? "dnrm2" : "snrm2") : (dbl ? "ddot" : "sdot");
    for (size_t si = 0; si < NSIZES; ++si) {
        size_t n = SIZES[si];
        unsigned long long st = next_seed(), seed = st;
        void *x = make(dbl, n, &st, 0), *y = make(dbl, n, &st, 0);
        check_red(dbl, nrm2, n, x, nrm2 ? NULL : y, tsl_ref_blas_tolerance(dbl, n), what, seed);
        free(x);
        free(y);
    }
    /* n == 0: result 0, x and y may be NULL */
    double r = 42.0;
    tsl_status s = call_red(dbl, nrm2, 0, NULL, NULL, &r);
    CHECK(s == TSL_OK && slot_value(dbl, &r) == 0.0, "%s n=0 gives 0", what);

    if (nrm2) { /* extremes: squares that overflow or underflow the working precision */
        const double big = dbl ? 1e300 : 1e30, small = dbl ? 1e-300 : 1e-30;
        const size_t ns[] = {1, 7, 1000, 4099};
        for (size_t k = 0; k < 4; ++k) {
            size_t n = ns[k];
            unsigned long long st = next_seed(), seed = st;
            for (int mode = 0; mode < 3; ++mode) {
                void *x = make(dbl, n, &st, 0);
                for (size_t i = 0; i < n; ++i) {
                    double v = get(dbl, x, i);
                    /* mode 2: mixed, each value scaled by 10^e, e uniform in [-emax, emax] */
                    double u;
                    tsl_ref_fill_d(&u, 1, &st);
                    double emax = dbl ? 290.0 : 28.0;
                    double s = mode == 0 ? big : mode == 1 ? small : pow(10.0, round(u * emax));
                    if (dbl)
                        ((double *)x)[i] = v * s;
                    else
                        ((float *)x)[i] = (float)(v * s);
                }
                char w[64];
                snprintf(w, sizeof w, "%s %s", what,
                         mode == 0   ? "1e30-scale"
                         : mode == 1 ? "1e-30-scale"
                                     : "mixed-scale");
                check_red(dbl, 1, n, x, NULL, tsl_ref_blas_tolerance(dbl, n), w, seed);
                free(x);
            }
        }
        /* NaN gives NaN, an infinite element infinity */
        unsigned long long st = next_seed();
        void *x = make(dbl, 100, &st, 0);
        if (dbl)
            ((double *)x)[37] = INFINITY;
        else
            ((float *)x)[37] = INFINITY;
        check_red(dbl, 1, 100, x, NULL, 0.0, "nrm2 with inf", 0);
        if (dbl)
            ((double *)x)[50] = NAN;
        else
            ((float *)x)[50] = NAN;
        check_red(dbl, 1, 100, x, NULL, 0.0, "nrm2 with NaN", 0);
        free(x);
    }

    /* the device-buffer form, n = 4099 */
    size_t n = 4099, es = dbl ? 8 : 4;
    unsigned long long st = next_seed();
    void *x = make(dbl, n, &st, 0), *y = make(dbl, n, &st, 0);
    tsl_buffer *bx = NULL, *by = NULL;
    tsl_status bs = tsl_buffer_create(g_ctx, n * es, &bx);
    if (bs == TSL_OK) bs = tsl_buffer_create(g_ctx, n * es, &by);
    if (bs == TSL_OK) bs = tsl_buffer_write(g_ctx, bx, 0, n * es, x);
    if (bs == TSL_OK) bs = tsl_buffer_write(g_ctx, by, 0, n * es, y);
    double rb = 0.0, rh = 0.0;
    if (bs == TSL_OK) {
        if (nrm2)
            bs = dbl ? tsl_dnrm2_buf(g_ctx, n, bx, &rb) : tsl_snrm2_buf(g_ctx, n, bx, (float *)&rb);
        else
            bs = dbl ? tsl_ddot_buf(g_ctx, n, bx, by, &rb)
                     : tsl_sdot_buf(g_ctx, n, bx, by, (float *)&rb);
    }
    CHECK(bs == TSL_OK, "%s_buf: %s %s", what, tsl_status_name(bs), tsl_context_error(g_ctx));
    CHECK(call_red(dbl, nrm2, n, x, y, &rh) == TSL_OK && memcmp(&rb, &rh, es) == 0,
          "%s_buf gives the same bits as the host form", what);
    tsl_buffer_destroy(bx);
    tsl_buffer_destroy(by);
    free(x);
    free(y);
}

/* ---- gemv ----------------------------------------------------------------------------------- */

static tsl_status call_gemv(int dbl, tsl_layout l, tsl_trans t, size_t m, size_t n, double alpha,
                            const void *a, size_t lda, const void *x, double beta, void *y)
{
    if (dbl) return tsl_dgemv(g_ctx, l, t, m, n, alpha, a, lda, x, beta, y);
    return tsl_sgemv(g_ctx, l, t, m, n, (float)alpha, a, lda, x, (float)beta, y);
}

static void gemv_case(int dbl, tsl_layout l, tsl_trans t, size_t m, size_t n, int pad,
                      int beta_zero, int alpha_zero)
{
    unsigned long long st = next_seed(), seed = st;
    size_t es = dbl ? 8 : 4;
    size_t lines = l == TSL_ROW_MAJOR ? m : n, len = l == TSL_ROW_MAJOR ? n : m;
    size_t lda = (len ? len : 1) + (pad ? 3 : 0);
    size_t lenx = t == TSL_TRANS ? m : n, leny = t == TSL_TRANS ? n : m;
    size_t ea = lines * lda;
    void *a = make(dbl, ea, &st, alpha_zero), *x = make(dbl, lenx, &st, alpha_zero);
    void *y = make(dbl, leny, &st, beta_zero);
    for (size_t i = 0; i < lines; ++i) /* NaN in the padding: poisons a result that reads it */
        for (size_t j = len; j < lda; ++j) {
            if (dbl)
                ((double *)a)[i * lda + j] = NAN;
            else
                ((float *)a)[i * lda + j] = NAN;
        }
    double alpha = 0.0, beta = beta_zero ? 0.0 : -0.5;
    if (!alpha_zero) {
        tsl_ref_fill_d(&alpha, 1, &st);
        alpha += alpha < 0 ? -0.25 : 0.25;
    }
    double *ad = to_d(dbl, a, ea), *xd = to_d(dbl, x, lenx), *ref = to_d(dbl, y, leny);
    unsigned char *a0 = malloc((ea + GUARD) * es), *x0 = malloc((lenx + GUARD) * es);
    unsigned char *y0 = malloc((leny ? leny : 1) * es);
    if (leny) memcpy(y0, y, leny * es);
    memcpy(a0, a, (ea + GUARD) * es);
    memcpy(x0, x, (lenx + GUARD) * es);
    if (!dbl) {
        alpha = (float)alpha;
        beta = (float)beta;
    }
    tsl_ref_dgemv(l, t, m, n, alpha, ad, lda, xd, beta, ref);
    tsl_status s = call_gemv(dbl, l, t, m, n, alpha, a, lda, x, beta, y);
    char what[160];
    snprintf(what, sizeof what, "%sgemv %s %s %zux%zu lda=%zu beta%s alpha%s seed %llu",
             dbl ? "d" : "s", l == TSL_ROW_MAJOR ? "row" : "col", t == TSL_TRANS ? "T" : "N", m, n,
             lda, beta_zero ? "=0(NaN y)" : "!=0", alpha_zero ? "=0(NaN A,x)" : "", seed);
    CHECK(s == TSL_OK, "%s: %s %s", what, tsl_status_name(s), tsl_context_error(g_ctx));
    size_t k = t == TSL_TRANS ? m : n;
    if (m == 0 || n == 0) {
        /* BLAS quick return: y exactly as it was, even NaN (beta == 0 does not apply) */
        CHECK(leny == 0 || memcmp(y0, y, leny * es) == 0, "%s: empty product changed y", what);
    } else {
        double err = rel_err(dbl, y, ref, leny), tol = tsl_ref_blas_tolerance(dbl, k);
        CHECK(err <= tol, "%s: error %g > %g", what, err, tol);
    }
    free(y0);
    CHECK(memcmp(a0, a, (ea + GUARD) * es) == 0 && memcmp(x0, x, (lenx + GUARD) * es) == 0,
          "%s: A or x changed", what);
    CHECK(guards_ok(dbl, y, leny), "%s: guard after y written", what);
    free(a0);
    free(x0);
    free(a);
    free(x);
    free(y);
    free(ad);
    free(xd);
    free(ref);
}

static void test_gemv(int dbl)
{
    static const size_t shapes[][2] = {{1, 1},    {1, 65}, {65, 1}, {33, 65},
                                       {257, 31}, {0, 5},  {5, 0}};
    for (int li = 0; li < 2; ++li)
        for (int ti = 0; ti < 2; ++ti)
            for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; ++si)
                for (int pad = 0; pad < 2; ++pad) {
                    tsl_layout l = li ? TSL_COL_MAJOR : TSL_ROW_MAJOR;
                    tsl_trans t = ti ? TSL_TRANS : TSL_NO_TRANS;
                    gemv_case(dbl, l, t, shapes[si][0], shapes[si][1], pad, 0, 0);
                    gemv_case(dbl, l, t, shapes[si][0], shapes[si][1], pad, 1, 0);
                    if (si == 3 && pad) gemv_case(dbl, l, t, 33, 65, 1, 0, 1);
                }
    /* determinism of the row-split T path: a tall matrix, twice */
    size_t m = 3000, n = 40, es = dbl ? 8 : 4;
    unsigned long long st = next_seed();
    void *a = make(dbl, m * n, &st, 0), *x = make(dbl, m, &st, 0);
    void *y1 = make(dbl, n, &st, 0), *y2 = make(dbl, n, &st, 0);
    CHECK(call_gemv(dbl, TSL_ROW_MAJOR, TSL_TRANS, m, n, 1.0, a, n, x, 0.0, y1) == TSL_OK &&
              call_gemv(dbl, TSL_ROW_MAJOR, TSL_TRANS, m, n, 1.0, a, n, x, 0.0, y2) == TSL_OK &&
              memcmp(y1, y2, n * es) == 0,
          "gemv T 3000x40 twice: identical bits");
    /* the device-buffer form agrees with the host form */
    tsl_buffer *ba = NULL, *bx = NULL, *by = NULL;
    tsl_status s = tsl_buffer_create(g_ctx, m * n * es, &ba);
    if (s == TSL_OK) s = tsl_buffer_create(g_ctx, m * es, &bx);
    if (s == TSL_OK) s = tsl_buffer_create(g_ctx, n * es, &by);
    if (s == TSL_OK) s = tsl_buffer_write(g_ctx, ba, 0, m * n * es, a);
    if (s == TSL_OK) s = tsl_buffer_write(g_ctx, bx, 0, m * es, x);
    if (s == TSL_OK)
        s = dbl ? tsl_dgemv_buf(g_ctx, TSL_ROW_MAJOR, TSL_TRANS, m, n, 1.0, ba, n, bx, 0.0, by)
                : tsl_sgemv_buf(g_ctx, TSL_ROW_MAJOR, TSL_TRANS, m, n, 1.0f, ba, n, bx, 0.0f, by);
    if (s == TSL_OK) s = tsl_buffer_read(g_ctx, by, 0, n * es, y2);
    CHECK(s == TSL_OK && memcmp(y1, y2, n * es) == 0, "gemv_buf: %s %s", tsl_status_name(s),
          tsl_context_error(g_ctx));
    tsl_buffer_destroy(ba);
    tsl_buffer_destroy(bx);
    tsl_buffer_destroy(by);
    free(a);
    free(x);
    free(y1);
    free(y2);
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void expect_invalid(tsl_status s, const char *word, const char *what)
{
    CHECK(s == TSL_ERR_INVALID_ARG, "%s: %s, expected TSL_ERR_INVALID_ARG", what,
          tsl_status_name(s));
    CHECK(check_mentions(tsl_context_error(g_ctx), word), "%s: message '%s' should name '%s'", what,
          tsl_context_error(g_ctx), word);
}

static void test_errors(void)
{
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8] = {8, 7, 6, 5, 4, 3, 2, 1}, a[64];
    float y0[8], r = 42.0f;
    for (int i = 0; i < 64; ++i)
        a[i] = (float)i / 7.0f;
    memcpy(y0, y, sizeof y);
    CHECK(tsl_saxpy(NULL, 8, 1.0f, x, y) == TSL_ERR_INVALID_ARG, "axpy ctx NULL");
    CHECK(tsl_sdot(NULL, 8, x, y, &r) == TSL_ERR_INVALID_ARG, "dot ctx NULL");
    expect_invalid(tsl_saxpy(g_ctx, 8, 1.0f, NULL, y), "x", "axpy x NULL");
    expect_invalid(tsl_saxpy(g_ctx, 8, 1.0f, x, NULL), "y", "axpy y NULL");
    expect_invalid(tsl_sdot(g_ctx, 8, x, NULL, &r), "y", "dot y NULL");
    expect_invalid(tsl_sdot(g_ctx, 8, x, y, NULL), "result", "dot result NULL");
    expect_invalid(tsl_sdot(g_ctx, 0, NULL, NULL, NULL), "result", "dot n=0 result NULL");
    expect_invalid(tsl_snrm2(g_ctx, 8, NULL, &r), "x", "nrm2 x NULL");
    expect_invalid(tsl_dnrm2(g_ctx, 8, (double *)x, NULL), "result", "nrm2 result NULL");
    CHECK(r == 42.0f, "result written on error");
    expect_invalid(tsl_sgemv(g_ctx, (tsl_layout)7, TSL_NO_TRANS, 2, 2, 1, a, 2, x, 0, y), "layout",
                   "gemv bad layout");
    expect_invalid(tsl_sgemv(g_ctx, TSL_ROW_MAJOR, (tsl_trans)99, 2, 2, 1, a, 2, x, 0, y), "trans",
                   "gemv bad trans");
    expect_invalid(tsl_sgemv(g_ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, 2, 4, 1, a, 3, x, 0, y), "lda",
                   "gemv row-major lda < n");
    expect_invalid(tsl_sgemv(g_ctx, TSL_COL_MAJOR, TSL_TRANS, 5, 2, 1, a, 4, x, 0, y), "lda",
                   "gemv col-major lda < m");
    expect_invalid(tsl_sgemv(g_ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, 0, 0, 1, a, 0, x, 0, y), "lda",
                   "gemv lda = 0");
    expect_invalid(tsl_sgemv(g_ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, 2, 2, 1, NULL, 2, x, 0, y), "A",
                   "gemv A NULL");
    expect_invalid(tsl_sgemv(g_ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, 2, 2, 1, a, 2, NULL, 0, y), "x",
                   "gemv x NULL");
    expect_invalid(tsl_sgemv(g_ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, 2, 2, 1, a, 2, x, 0, NULL), "y",
                   "gemv y NULL");
    CHECK(memcmp(y, y0, sizeof y) == 0, "y written on error");
    /* buffers: too small, NULL */
    tsl_buffer *b = NULL;
    CHECK(tsl_buffer_create(g_ctx, 16, &b) == TSL_OK, "buffer");
    expect_invalid(tsl_saxpy_buf(g_ctx, 8, 1.0f, b, b), "x", "axpy_buf x too small");
    expect_invalid(tsl_sdot_buf(g_ctx, 4, b, NULL, &r), "y", "dot_buf y NULL");
    expect_invalid(tsl_snrm2_buf(g_ctx, 4, b, NULL), "result", "nrm2_buf result NULL");
    expect_invalid(tsl_sgemv_buf(g_ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, 3, 3, 1, b, 3, b, 0, b), "A",
                   "gemv_buf A too small");
    expect_invalid(tsl_sgemv_buf(g_ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, 2, 2, 1, b, 1, b, 0, b), "lda",
                   "gemv_buf lda");
    tsl_buffer_destroy(b);
    /* unknown variants */
    expect_invalid(tsl_context_set_variant(g_ctx, "dot", "nosuch"), "nosuch", "unknown variant");
    CHECK(tsl_context_set_variant(g_ctx, "gemv", "auto") == TSL_OK, "gemv auto");
}

static int expect_variants(const char *op, char **names, int n)
{
    size_t count = 0;
    while (tsl_variant_name(op, count))
        ++count;
    CHECK(count == (size_t)n, "%s: tsl_variant_name lists %zu variants, tests/blas.cmake %d", op,
          count, n);
    for (int i = 0; i < n && (size_t)i < count; ++i)
        CHECK(strcmp(tsl_variant_name(op, (size_t)i), names[i]) == 0, "%s variant %d: %s vs %s", op,
              i, tsl_variant_name(op, (size_t)i), names[i]);
    return check_summary("test_blas --expect-variants");
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--expect-variants") == 0)
        return expect_variants(argv[2], argv + 3, argc - 3);
    if (argc < 2 || (strcmp(argv[1], "errors") != 0 && argc != 3)) {
        fprintf(stderr, "usage: test_blas axpy|dot|nrm2|gemv VARIANT | test_blas errors\n");
        return 2;
    }
    g_op = argv[1];
    g_variant = argc > 2 ? argv[2] : "";
    const char *seed_env = getenv("TSL_TEST_SEED");
    if (seed_env && *seed_env) g_seed = strtoull(seed_env, NULL, 0);
    char name[128];
    snprintf(name, sizeof name, "test_blas %s %s (seed %llu)", g_op, g_variant, g_seed);
    tsl_status st = tsl_context_create(NULL, &g_ctx);
    CHECK(st == TSL_OK, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary(name);
    if (strcmp(g_op, "errors") == 0) {
        test_errors();
    } else {
        st = tsl_context_set_variant(g_ctx, g_op, g_variant);
        CHECK(st == TSL_OK, "set variant %s %s: %s", g_op, g_variant, tsl_context_error(g_ctx));
        for (int dbl = 0; st == TSL_OK && dbl < 2; ++dbl) {
            if (skip_double(dbl)) {
                SKIP("double precision: the device has no fp64");
                continue;
            }
            if (strcmp(g_op, "axpy") == 0)
                test_axpy(dbl);
            else if (strcmp(g_op, "dot") == 0)
                test_reduction(dbl, 0);
            else if (strcmp(g_op, "nrm2") == 0)
                test_reduction(dbl, 1);
            else if (strcmp(g_op, "gemv") == 0)
                test_gemv(dbl);
            else
                CHECK(0, "unknown op %s", g_op);
        }
    }
    tsl_context_destroy(g_ctx);
    return check_summary(name);
}
