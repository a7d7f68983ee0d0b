/* test_api_errors.c: every bad input through the C API gets its documented status, a message
 * that names the bad argument, and leaves the caller's arrays bit-identical. Covered: NULL
 * context on every call that takes one; NULL a, b, c (host pointers and buffers) with nonzero
 * sizes; lda, ldb, ldc one below what each layout x transa x transb combination needs (and 0),
 * in single and double precision and through the buffer API, each with its control (exactly the
 * needed value works, so the check is not over-strict), all of it in half precision (tsl_hgemm)
 * too; bad enum values for layout, transa and
 * transb; unknown variant and op in tsl_context_set_variant and tsl_variant_check; NULL out
 * pointers (tsl_context_create, tsl_context_device, tsl_context_timing, tsl_buffer_create,
 * tsl_devices); a device spec matching nothing (TSL_ERR_NO_DEVICE with tsl_last_error set);
 * tsl_context_destroy(NULL) and tsl_buffer_destroy(NULL); buffers too small for the matrix,
 * buffer reads and writes out of range (including offset + bytes overflowing size_t); sizes
 * whose byte counts overflow or exceed any device. And the valid edge: m, n or k == 0 returns
 * TSL_OK, leaves C untouched when m or n is 0, and makes C = beta C when k is 0 (C = 0 for
 * beta == 0 even over NaN); a leading dimension of 0 is still invalid there (BLAS wants >= 1).
 * tsl_status_name is checked for every status. Half precision: a tiled2d configuration without
 * half storage (MMA=0: only its tensor-core ones have it) says TSL_ERR_UNSUPPORTED naming half and
 * leaves C alone;
 * tsl_variant_check_precision rejects a bad precision and an op without half kernels. */
#include "check.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CAP 4096 /* elements in each test array: larger than any matrix here */

static unsigned long long g_seed = 777001;

/* The precisions every GEMM case runs in (a tsl_precision: 0 single, 1 double, 2 half), and
 * the letter of their routine (sgemm, dgemm, hgemm). */
#define NPREC 3
static const char prec_letter[NPREC] = {'s', 'd', 'h'};

/* n random values in [-1, 1) of a precision: halves are floats rounded to half. */
static void fill_random(int prec, void *x, size_t n, unsigned long long *st)
{
    if (prec == TSL_DOUBLE) {
        tsl_ref_fill_d(x, n, st);
    } else if (prec == TSL_HALF) {
        uint16_t *h = x;
        for (size_t i = 0; i < n; ++i) {
            float f;
            tsl_ref_fill_f(&f, 1, st);
            h[i] = tsl_float_to_half(f);
        }
    } else {
        tsl_ref_fill_f(x, n, st);
    }
}

/* Caller arrays filled with random data, and their snapshots. */
typedef struct {
    int prec;                      /* TSL_SINGLE, TSL_DOUBLE or TSL_HALF */
    double a[CAP], b[CAP], c[CAP]; /* double storage: aligned for any precision */
    double sa[CAP], sb[CAP], sc[CAP];
} arrays;

static void fresh(arrays *x, int prec)
{
    unsigned long long st = ++g_seed * 0x9E3779B97F4A7C15ull;
    x->prec = prec;
    fill_random(prec, x->a, CAP, &st);
    fill_random(prec, x->b, CAP, &st);
    fill_random(prec, x->c, CAP, &st);
    memcpy(x->sa, x->a, sizeof x->a);
    memcpy(x->sb, x->b, sizeof x->b);
    memcpy(x->sc, x->c, sizeof x->c);
}

static void expect_untouched(const arrays *x, const char *what)
{
    CHECK(memcmp(x->a, x->sa, sizeof x->a) == 0, "A modified by a failed call: %s", what);
    CHECK(memcmp(x->b, x->sb, sizeof x->b) == 0, "B modified by a failed call: %s", what);
    CHECK(memcmp(x->c, x->sc, sizeof x->c) == 0, "C modified by a failed call: %s", what);
}

static const char *expected_name(tsl_status s)
{
    switch (s) {
    case TSL_OK:
        return "TSL_OK";
    case TSL_ERR_INVALID_ARG:
        return "TSL_ERR_INVALID_ARG";
    case TSL_ERR_NO_DEVICE:
        return "TSL_ERR_NO_DEVICE";
    case TSL_ERR_OUT_OF_MEMORY:
        return "TSL_ERR_OUT_OF_MEMORY";
    case TSL_ERR_BUILD:
        return "TSL_ERR_BUILD";
    case TSL_ERR_OPENCL:
        return "TSL_ERR_OPENCL";
    case TSL_ERR_UNSUPPORTED:
        return "TSL_ERR_UNSUPPORTED";
    case TSL_ERR_IO:
        return "TSL_ERR_IO";
    }
    return "?";
}

/* Non-zero if msg names one of the '|'-separated words ("op|operation"). */
static int mentions_any(const char *msg, const char *words)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", words);
    for (char *w = buf, *bar; w; w = bar ? bar + 1 : NULL) {
        bar = strchr(w, '|');
        if (bar) *bar = '\0';
        if (check_mentions(msg, w)) return 1;
    }
    return 0;
}

/* st must be want; the context's message (or tsl_last_error() without a context) must be
 * non-empty, must not show a NULL pushed through printf's %s, and, if word is given, name it. */
static void expect_status(tsl_status st, tsl_status want, const tsl_context *ctx, const char *word,
                          const char *what)
{
    CHECK(st == want, "%s: got %s (%d), want %s", what, tsl_status_name(st), (int)st,
          expected_name(want));
    CHECK(strcmp(tsl_status_name(st), expected_name(st)) == 0,
          "tsl_status_name(%d) = \"%s\", want \"%s\"", (int)st, tsl_status_name(st),
          expected_name(st));
    if (want == TSL_OK) return;
    const char *msg = ctx ? tsl_context_error(ctx) : tsl_last_error();
    CHECK(msg && msg[0], "%s: no error message", what);
    CHECK(!msg || !strstr(msg, "(null)"),
          "%s: message \"%s\" printed a NULL pointer through %%s (undefined behaviour)", what, msg);
    if (word && msg)
        CHECK(mentions_any(msg, word), "%s: message \"%s\" does not mention \"%s\"", what, msg,
              word);
}

static tsl_status gemm(tsl_context *ctx, arrays *x, tsl_layout layout, tsl_trans ta, tsl_trans tb,
                       size_t m, size_t n, size_t k, size_t lda, size_t ldb, size_t ldc, int null_a,
                       int null_b, int null_c, double alpha, double beta)
{
    if (x->prec == TSL_DOUBLE)
        return tsl_dgemm(ctx, layout, ta, tb, m, n, k, alpha,
                         null_a ? NULL : (const double *)(void *)x->a, lda,
                         null_b ? NULL : (const double *)(void *)x->b, ldb, beta,
                         null_c ? NULL : (double *)(void *)x->c, ldc);
    if (x->prec == TSL_HALF)
        return tsl_hgemm(ctx, layout, ta, tb, m, n, k, (float)alpha,
                         null_a ? NULL : (const uint16_t *)(void *)x->a, lda,
                         null_b ? NULL : (const uint16_t *)(void *)x->b, ldb, (float)beta,
                         null_c ? NULL : (uint16_t *)(void *)x->c, ldc);
    return tsl_sgemm(ctx, layout, ta, tb, m, n, k, (float)alpha,
                     null_a ? NULL : (const float *)(void *)x->a, lda,
                     null_b ? NULL : (const float *)(void *)x->b, ldb, (float)beta,
                     null_c ? NULL : (float *)(void *)x->c, ldc);
}

/* The buffer API in a precision. */
static tsl_status gemm_buf(tsl_context *ctx, int prec, tsl_layout layout, tsl_trans ta,
                           tsl_trans tb, size_t m, size_t n, size_t k, double alpha,
                           const tsl_buffer *a, size_t lda, const tsl_buffer *b, size_t ldb,
                           double beta, tsl_buffer *c, size_t ldc)
{
    if (prec == TSL_DOUBLE)
        return tsl_dgemm_buf(ctx, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    if (prec == TSL_HALF)
        return tsl_hgemm_buf(ctx, layout, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb,
                             (float)beta, c, ldc);
    return tsl_sgemm_buf(ctx, layout, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb, (float)beta, c,
                         ldc);
}

static size_t elem_size(int prec)
{
    return prec == TSL_DOUBLE ? 8 : prec == TSL_HALF ? 2 : 4;
}

static const char *lname(tsl_layout l)
{
    return l == TSL_ROW_MAJOR ? "row" : "col";
}
static char tname(tsl_trans t)
{
    return t == TSL_TRANS ? 'T' : 'N';
}

/* What CBLAS requires of each leading dimension. */
static void needed_ld(tsl_layout l, tsl_trans ta, tsl_trans tb, size_t m, size_t n, size_t k,
                      size_t ld[3])
{
    int row = l == TSL_ROW_MAJOR;
    ld[0] = row ? (ta == TSL_NO_TRANS ? k : m) : (ta == TSL_NO_TRANS ? m : k);
    ld[1] = row ? (tb == TSL_NO_TRANS ? n : k) : (tb == TSL_NO_TRANS ? k : n);
    ld[2] = row ? n : m;
}

/* Number of elements a matrix of op-shape (rows x cols) needs with leading dimension ld. */
static size_t needed_elems(tsl_layout l, size_t rows, size_t cols, size_t ld)
{
    size_t outer = l == TSL_ROW_MAJOR ? rows : cols, inner = l == TSL_ROW_MAJOR ? cols : rows;
    return outer ? ld * (outer - 1) + inner : 0;
}

/* ---- sections -------------------------------------------------------------------------------- */

static void test_status_names(void)
{
    static const tsl_status all[] = {
        TSL_OK,        TSL_ERR_INVALID_ARG, TSL_ERR_NO_DEVICE,   TSL_ERR_OUT_OF_MEMORY,
        TSL_ERR_BUILD, TSL_ERR_OPENCL,      TSL_ERR_UNSUPPORTED, TSL_ERR_IO};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        CHECK(tsl_status_name(all[i]) &&
                  strcmp(tsl_status_name(all[i]), expected_name(all[i])) == 0,
              "tsl_status_name(%d) = \"%s\"", (int)all[i],
              tsl_status_name(all[i]) ? tsl_status_name(all[i]) : "(null)");
    const char *unknown = tsl_status_name((tsl_status)-99);
    CHECK(unknown && unknown[0], "tsl_status_name of an unknown status is empty or NULL");
    CHECK(strcmp(tsl_version(), TESSEL_VERSION_STRING) == 0, "tsl_version() = %s, header says %s",
          tsl_version(), TESSEL_VERSION_STRING);
}

static void test_create_and_destroy(void)
{
    tsl_status st = tsl_context_create(NULL, NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, NULL, "out", "tsl_context_create(NULL, NULL)");
    st = tsl_context_create("", NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, NULL, "out", "tsl_context_create(\"\", NULL)");

    tsl_context *ctx = NULL;
    st = tsl_context_create("no device is called this 7f3a9", &ctx);
    expect_status(st, TSL_ERR_NO_DEVICE, NULL, NULL, "tsl_context_create(nonsense spec)");
    CHECK(ctx == NULL, "a failed tsl_context_create returned a context");
    tsl_context_destroy(ctx);
    st = tsl_context_create("99:99", &ctx);
    expect_status(st, TSL_ERR_NO_DEVICE, NULL, NULL, "tsl_context_create(\"99:99\")");
    CHECK(ctx == NULL, "a failed tsl_context_create returned a context");

    tsl_context_destroy(NULL); /* no-ops: reaching the next line is the check */
    tsl_buffer_destroy(NULL);
    CHECK(1, "destroy(NULL) returned");

    size_t count = 12345;
    st = tsl_devices(NULL, 0, NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, NULL, "count", "tsl_devices(NULL, 0, NULL)");
    st = tsl_devices(NULL, 3, &count);
    expect_status(st, TSL_ERR_INVALID_ARG, NULL, "list", "tsl_devices(NULL, 3, &count)");
}

static void test_null_context(tsl_context *good)
{
    arrays *x = malloc(sizeof *x);
    fresh(x, 0);
    tsl_status st = gemm(NULL, x, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 4, 4, 4, 4, 4, 4, 0, 0,
                         0, 1.0, 0.5);
    CHECK(st == TSL_ERR_INVALID_ARG, "tsl_sgemm(NULL ctx) = %s", tsl_status_name(st));
    expect_untouched(x, "tsl_sgemm(NULL ctx)");
    fresh(x, 1);
    st = gemm(NULL, x, TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 4, 4, 4, 4, 4, 4, 0, 0, 0, 1.0, 0.5);
    CHECK(st == TSL_ERR_INVALID_ARG, "tsl_dgemm(NULL ctx) = %s", tsl_status_name(st));
    expect_untouched(x, "tsl_dgemm(NULL ctx)");
    fresh(x, TSL_HALF);
    st = gemm(NULL, x, TSL_ROW_MAJOR, TSL_TRANS, TSL_TRANS, 4, 4, 4, 4, 4, 4, 0, 0, 0, 1.0, 0.5);
    CHECK(st == TSL_ERR_INVALID_ARG, "tsl_hgemm(NULL ctx) = %s", tsl_status_name(st));
    expect_untouched(x, "tsl_hgemm(NULL ctx)");
    free(x);

    const char *e = tsl_context_error(NULL);
    CHECK(e != NULL, "tsl_context_error(NULL) is NULL");

    tsl_device_info info;
    tsl_timing t;
    CHECK(tsl_context_device(NULL, &info) == TSL_ERR_INVALID_ARG, "tsl_context_device(NULL ctx)");
    CHECK(tsl_context_timing(NULL, &t) == TSL_ERR_INVALID_ARG, "tsl_context_timing(NULL ctx)");
    CHECK(tsl_context_set_variant(NULL, "gemm", "naive") == TSL_ERR_INVALID_ARG,
          "tsl_context_set_variant(NULL ctx)");
    CHECK(tsl_variant_check(NULL, "gemm", "naive", NULL) == TSL_ERR_INVALID_ARG,
          "tsl_variant_check(NULL ctx)");
    CHECK(tsl_variant_check_precision(NULL, "gemm", "naive", TSL_HALF, NULL) == TSL_ERR_INVALID_ARG,
          "tsl_variant_check_precision(NULL ctx)");
    tsl_buffer *buf = NULL;
    CHECK(tsl_buffer_create(NULL, 64, &buf) == TSL_ERR_INVALID_ARG && buf == NULL,
          "tsl_buffer_create(NULL ctx)");

    /* Buffer calls with a NULL context, on a real buffer. */
    st = tsl_buffer_create(good, 64 * sizeof(float), &buf);
    CHECK(st == TSL_OK, "tsl_buffer_create: %s", tsl_status_name(st));
    if (st != TSL_OK) return;
    float v[64], w[64];
    unsigned long long seed = ++g_seed;
    tsl_ref_fill_f(v, 64, &seed);
    memcpy(w, v, sizeof v);
    CHECK(tsl_buffer_write(NULL, buf, 0, sizeof v, v) == TSL_ERR_INVALID_ARG,
          "tsl_buffer_write(NULL ctx)");
    CHECK(tsl_buffer_read(NULL, buf, 0, sizeof v, v) == TSL_ERR_INVALID_ARG,
          "tsl_buffer_read(NULL ctx)");
    CHECK(memcmp(v, w, sizeof v) == 0, "tsl_buffer_read(NULL ctx) wrote dst");
    st = tsl_sgemm_buf(NULL, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 4, 4, 4, 1.0f, buf, 4, buf,
                       4, 0.0f, buf, 4);
    CHECK(st == TSL_ERR_INVALID_ARG, "tsl_sgemm_buf(NULL ctx) = %s", tsl_status_name(st));
    st = tsl_hgemm_buf(NULL, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 4, 4, 4, 1.0f, buf, 4, buf,
                       4, 0.0f, buf, 4);
    CHECK(st == TSL_ERR_INVALID_ARG, "tsl_hgemm_buf(NULL ctx) = %s", tsl_status_name(st));
    tsl_buffer_destroy(buf);
}

static void test_null_pointers(tsl_context *ctx)
{
    arrays *x = malloc(sizeof *x);
    char what[160];
    for (int prec = 0; prec < NPREC; ++prec)
        for (int which = 0; which < 3; ++which) {
            static const char *names[] = {"a", "b", "c"};
            fresh(x, prec);
            tsl_status st = gemm(ctx, x, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 5, 6, 7, 7, 6,
                                 6, which == 0, which == 1, which == 2, 1.25, 0.5);
            snprintf(what, sizeof what, "%cgemm with %s == NULL", prec_letter[prec], names[which]);
            expect_status(st, TSL_ERR_INVALID_ARG, ctx, names[which], what);
            expect_untouched(x, what);
        }
    free(x);
}

static void test_leading_dimensions(tsl_context *ctx)
{
    static const tsl_layout layouts[] = {TSL_ROW_MAJOR, TSL_COL_MAJOR};
    static const tsl_trans trans[] = {TSL_NO_TRANS, TSL_TRANS};
    static const char *ldnames[] = {"lda", "ldb", "ldc"};
    const size_t m = 5, n = 6, k = 7; /* all different, so every ld rule is distinguishable */
    arrays *x = malloc(sizeof *x);
    char what[200];
    for (int prec = 0; prec < NPREC; ++prec)
        for (int l = 0; l < 2; ++l)
            for (int a = 0; a < 2; ++a)
                for (int b = 0; b < 2; ++b) {
                    size_t need[3];
                    needed_ld(layouts[l], trans[a], trans[b], m, n, k, need);
                    for (int which = 0; which < 3; ++which)
                        for (int bad = 0; bad < 2; ++bad) {
                            size_t ld[3] = {need[0], need[1], need[2]};
                            ld[which] = bad == 0 ? need[which] - 1 : 0;
                            fresh(x, prec);
                            tsl_status st = gemm(ctx, x, layouts[l], trans[a], trans[b], m, n, k,
                                                 ld[0], ld[1], ld[2], 0, 0, 0, 0.75, 0.5);
                            snprintf(what, sizeof what,
                                     "%cgemm %s-major %c%c m=%zu n=%zu k=%zu with %s=%zu (needs "
                                     "%zu)",
                                     prec_letter[prec], lname(layouts[l]), tname(trans[a]),
                                     tname(trans[b]), m, n, k, ldnames[which], ld[which],
                                     need[which]);
                            expect_status(st, TSL_ERR_INVALID_ARG, ctx, ldnames[which], what);
                            expect_untouched(x, what);
                        }
                    /* Control: exactly the needed values are accepted. */
                    fresh(x, prec);
                    tsl_status st = gemm(ctx, x, layouts[l], trans[a], trans[b], m, n, k, need[0],
                                         need[1], need[2], 0, 0, 0, 0.75, 0.5);
                    snprintf(what, sizeof what,
                             "%cgemm %s-major %c%c m=%zu n=%zu k=%zu lda=%zu ldb=%zu ldc=%zu",
                             prec_letter[prec], lname(layouts[l]), tname(trans[a]), tname(trans[b]),
                             m, n, k, need[0], need[1], need[2]);
                    CHECK(st == TSL_OK, "%s: got %s: %s (exactly the needed ld must work)", what,
                          tsl_status_name(st), tsl_context_error(ctx));
                }
    free(x);
}

static void test_bad_enums(tsl_context *ctx)
{
    static const int bad_layouts[] = {0, 7, 103, TSL_NO_TRANS};
    static const int bad_trans[] = {0, 7, 114, TSL_ROW_MAJOR};
    arrays *x = malloc(sizeof *x);
    char what[120];
    for (int prec = 0; prec < NPREC; ++prec)
        for (size_t i = 0; i < 4; ++i) {
            fresh(x, prec);
            tsl_status st = gemm(ctx, x, (tsl_layout)bad_layouts[i], TSL_NO_TRANS, TSL_NO_TRANS, 4,
                                 4, 4, 4, 4, 4, 0, 0, 0, 1.0, 0.5);
            snprintf(what, sizeof what, "%cgemm layout=%d", prec_letter[prec], bad_layouts[i]);
            expect_status(st, TSL_ERR_INVALID_ARG, ctx, "layout", what);
            expect_untouched(x, what);

            fresh(x, prec);
            st = gemm(ctx, x, TSL_ROW_MAJOR, (tsl_trans)bad_trans[i], TSL_NO_TRANS, 4, 4, 4, 4, 4,
                      4, 0, 0, 0, 1.0, 0.5);
            snprintf(what, sizeof what, "%cgemm transa=%d", prec_letter[prec], bad_trans[i]);
            expect_status(st, TSL_ERR_INVALID_ARG, ctx, "transa", what);
            expect_untouched(x, what);

            fresh(x, prec);
            st = gemm(ctx, x, TSL_COL_MAJOR, TSL_TRANS, (tsl_trans)bad_trans[i], 4, 4, 4, 4, 4, 4,
                      0, 0, 0, 1.0, 0.5);
            snprintf(what, sizeof what, "%cgemm transb=%d", prec_letter[prec], bad_trans[i]);
            expect_status(st, TSL_ERR_INVALID_ARG, ctx, "transb", what);
            expect_untouched(x, what);
        }
    free(x);
}

static void test_variants_and_outs(tsl_context *ctx)
{
    tsl_status st = tsl_context_set_variant(ctx, "gemm", "no_such_variant");
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "no_such_variant", "set_variant(unknown variant)");
    st = tsl_context_set_variant(ctx, "no_such_op", "naive");
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "no_such_op", "set_variant(unknown op)");
    st = tsl_context_set_variant(ctx, NULL, "naive");
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "op|operation", "set_variant(NULL op)");
    st = tsl_context_set_variant(ctx, "gemm", NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "variant", "set_variant(NULL variant)");
    st = tsl_variant_check(ctx, "gemm", "no_such_variant", NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "no_such_variant", "variant_check(unknown)");
    st = tsl_variant_check(ctx, "no_such_op", "naive", NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "no_such_op", "variant_check(unknown op)");
    st = tsl_variant_check(ctx, NULL, "naive", NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "op|operation", "variant_check(NULL op)");
    st = tsl_variant_check(ctx, "gemm", NULL, NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "variant", "variant_check(NULL variant)");
    /* Controls: the real names work. */
    st = tsl_context_set_variant(ctx, "gemm", "naive");
    CHECK(st == TSL_OK, "set_variant(gemm, naive) = %s: %s", tsl_status_name(st),
          tsl_context_error(ctx));
    st = tsl_context_set_variant(ctx, "gemm", "auto");
    CHECK(st == TSL_OK, "set_variant(gemm, auto) = %s: %s", tsl_status_name(st),
          tsl_context_error(ctx));

    st = tsl_context_device(ctx, NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "info", "tsl_context_device(ctx, NULL)");
    st = tsl_context_timing(ctx, NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "out", "tsl_context_timing(ctx, NULL)");
    st = tsl_buffer_create(ctx, 64, NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "out", "tsl_buffer_create(ctx, 64, NULL)");
}

static void test_buffers(tsl_context *ctx)
{
    char what[200];
    tsl_buffer *buf = NULL;
    tsl_status st = tsl_buffer_create(ctx, SIZE_MAX, &buf);
    CHECK((st == TSL_ERR_INVALID_ARG || st == TSL_ERR_OUT_OF_MEMORY) && buf == NULL,
          "tsl_buffer_create(SIZE_MAX) = %s", tsl_status_name(st));
    CHECK(tsl_context_error(ctx)[0], "tsl_buffer_create(SIZE_MAX): no message");
    tsl_buffer_destroy(buf);
    buf = NULL;

    /* Reads and writes out of range leave the buffer and dst alone. */
    enum { N = 16 };
    float data[N], dst[N], snap[N], back[N];
    unsigned long long seed = ++g_seed;
    tsl_ref_fill_f(data, N, &seed);
    tsl_ref_fill_f(dst, N, &seed);
    memcpy(snap, dst, sizeof dst);
    st = tsl_buffer_create(ctx, sizeof data, &buf);
    CHECK(st == TSL_OK && buf, "tsl_buffer_create(64) = %s", tsl_status_name(st));
    if (!buf) return;
    CHECK(tsl_buffer_size(buf) == sizeof data, "tsl_buffer_size = %zu", tsl_buffer_size(buf));
    st = tsl_buffer_write(ctx, buf, 0, sizeof data, data);
    CHECK(st == TSL_OK, "tsl_buffer_write(all) = %s", tsl_status_name(st));
    struct {
        size_t off, bytes;
    } bad[] = {
        {sizeof data - 4, 8}, {sizeof data, 1},     {sizeof data + 4, 0 + 4},
        {0, sizeof data + 1}, {SIZE_MAX, 2},        {SIZE_MAX - 3, 8},
        {8, SIZE_MAX},        {SIZE_MAX, SIZE_MAX},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        float src[N];
        memcpy(src, dst, sizeof src);
        st = tsl_buffer_write(ctx, buf, bad[i].off, bad[i].bytes, src);
        snprintf(what, sizeof what, "tsl_buffer_write(offset=%zu, bytes=%zu) on a %zu-byte buffer",
                 bad[i].off, bad[i].bytes, sizeof data);
        expect_status(st, TSL_ERR_INVALID_ARG, ctx, NULL, what);
        st = tsl_buffer_read(ctx, buf, bad[i].off, bad[i].bytes, dst);
        snprintf(what, sizeof what, "tsl_buffer_read(offset=%zu, bytes=%zu) on a %zu-byte buffer",
                 bad[i].off, bad[i].bytes, sizeof data);
        expect_status(st, TSL_ERR_INVALID_ARG, ctx, NULL, what);
        CHECK(memcmp(dst, snap, sizeof dst) == 0, "%s wrote dst", what);
    }
    CHECK(tsl_buffer_write(ctx, buf, 0, 8, NULL) == TSL_ERR_INVALID_ARG, "write from NULL src");
    CHECK(tsl_buffer_read(ctx, buf, 0, 8, NULL) == TSL_ERR_INVALID_ARG, "read into NULL dst");
    CHECK(tsl_buffer_write(ctx, NULL, 0, 8, data) == TSL_ERR_INVALID_ARG, "write to NULL buffer");
    CHECK(tsl_buffer_read(ctx, NULL, 0, 8, dst) == TSL_ERR_INVALID_ARG, "read from NULL buffer");
    CHECK(memcmp(dst, snap, sizeof dst) == 0, "a failed read wrote dst");
    st = tsl_buffer_read(ctx, buf, 0, sizeof back, back);
    CHECK(st == TSL_OK && memcmp(back, data, sizeof data) == 0,
          "buffer contents changed by failed writes (%s)", tsl_status_name(st));
    /* Control: the last in-range bytes work. */
    st = tsl_buffer_write(ctx, buf, sizeof data - 8, 8, dst);
    CHECK(st == TSL_OK, "tsl_buffer_write at the end = %s", tsl_status_name(st));
    st = tsl_buffer_read(ctx, buf, sizeof data - 8, 8, back);
    CHECK(st == TSL_OK && memcmp(back, dst, 8) == 0, "tsl_buffer_read at the end = %s",
          tsl_status_name(st));
    tsl_buffer_destroy(buf);
}

/* GEMM on buffers: sizes one element short, NULL handles, small ld; C's buffer is unchanged. */
static void test_gemm_buffers(tsl_context *ctx)
{
    const size_t m = 5, n = 6, k = 7, pad = 3;
    char what[200];
    static const tsl_layout layouts[] = {TSL_ROW_MAJOR, TSL_COL_MAJOR};
    for (int prec = 0; prec < NPREC; ++prec)
        for (int l = 0; l < 2; ++l) {
            tsl_layout L = layouts[l];
            tsl_trans ta = l ? TSL_TRANS : TSL_NO_TRANS, tb = l ? TSL_NO_TRANS : TSL_TRANS;
            size_t need[3], ld[3];
            needed_ld(L, ta, tb, m, n, k, need);
            for (int i = 0; i < 3; ++i)
                ld[i] = need[i] + pad;
            size_t es = elem_size(prec);
            /* BLAS-minimal sizes (no padding after the last line), as CLBlast checks them. */
            size_t elems[3] = {
                needed_elems(L, ta == TSL_NO_TRANS ? m : k, ta == TSL_NO_TRANS ? k : m, ld[0]),
                needed_elems(L, tb == TSL_NO_TRANS ? k : n, tb == TSL_NO_TRANS ? n : k, ld[1]),
                needed_elems(L, m, n, ld[2])};
            double *host[3]; /* allocated: aligned, and holds values of any precision */
            for (int i = 0; i < 3; ++i)
                host[i] = malloc(CAP * sizeof(double));
            unsigned long long seed = ++g_seed;
            for (int i = 0; i < 3; ++i)
                fill_random(prec, host[i], CAP, &seed);
            /* short = which buffer is one element short (-1: none, the control). */
            for (int shrt = -1; shrt < 3; ++shrt) {
                tsl_buffer *bufs[3] = {NULL, NULL, NULL};
                int ok = 1;
                for (int i = 0; i < 3; ++i) {
                    size_t bytes = (elems[i] - (i == shrt ? 1 : 0)) * es;
                    ok &= tsl_buffer_create(ctx, bytes, &bufs[i]) == TSL_OK &&
                          tsl_buffer_write(ctx, bufs[i], 0, bytes, host[i]) == TSL_OK;
                }
                CHECK(ok, "buffer setup failed: %s", tsl_context_error(ctx));
                if (ok) {
                    tsl_status st = gemm_buf(ctx, prec, L, ta, tb, m, n, k, 0.5, bufs[0], ld[0],
                                             bufs[1], ld[1], 1.5, bufs[2], ld[2]);
                    snprintf(what, sizeof what,
                             "%cgemm_buf %s-major %c%c m=%zu n=%zu k=%zu lda=%zu ldb=%zu "
                             "ldc=%zu, buffer %c %s",
                             prec_letter[prec], lname(L), tname(ta), tname(tb), m, n, k, ld[0],
                             ld[1], ld[2], shrt < 0 ? '-' : "abc"[shrt],
                             shrt < 0 ? "of BLAS-minimal size (ld*(lines-1)+len)"
                                      : "one element short");
                    if (shrt < 0) {
                        CHECK(st == TSL_OK, "%s: got %s: %s", what, tsl_status_name(st),
                              tsl_context_error(ctx));
                    } else {
                        static const char *names[] = {"a", "b", "c"};
                        expect_status(st, TSL_ERR_INVALID_ARG, ctx, names[shrt], what);
                        double *back = malloc(CAP * sizeof(double));
                        size_t cbytes = (elems[2] - (shrt == 2 ? 1 : 0)) * es;
                        CHECK(tsl_buffer_read(ctx, bufs[2], 0, cbytes, back) == TSL_OK &&
                                  memcmp(back, host[2], cbytes) == 0,
                              "%s: C buffer modified", what);
                        free(back);
                    }
                }
                for (int i = 0; i < 3; ++i)
                    tsl_buffer_destroy(bufs[i]);
            }

            /* NULL handles and a too-small ld through the buffer API. */
            tsl_buffer *bufs[3] = {NULL, NULL, NULL};
            int ok = 1;
            for (int i = 0; i < 3; ++i)
                ok &= tsl_buffer_create(ctx, (CAP / 2) * es, &bufs[i]) == TSL_OK;
            CHECK(ok, "buffer setup failed: %s", tsl_context_error(ctx));
            if (ok) {
                static const char *names[] = {"a", "b", "c"};
                static const char *ldnames[] = {"lda", "ldb", "ldc"};
                for (int which = 0; which < 3; ++which) {
                    const tsl_buffer *ba = which == 0 ? NULL : bufs[0];
                    const tsl_buffer *bb = which == 1 ? NULL : bufs[1];
                    tsl_buffer *bc = which == 2 ? NULL : bufs[2];
                    tsl_status st = gemm_buf(ctx, prec, L, ta, tb, m, n, k, 1.0, ba, ld[0], bb,
                                             ld[1], 0.0, bc, ld[2]);
                    snprintf(what, sizeof what, "%cgemm_buf with %s == NULL", prec_letter[prec],
                             names[which]);
                    expect_status(st, TSL_ERR_INVALID_ARG, ctx, names[which], what);

                    size_t bad[3] = {ld[0], ld[1], ld[2]};
                    bad[which] = need[which] - 1;
                    st = gemm_buf(ctx, prec, L, ta, tb, m, n, k, 1.0, bufs[0], bad[0], bufs[1],
                                  bad[1], 0.0, bufs[2], bad[2]);
                    snprintf(what, sizeof what, "%cgemm_buf %s-major %c%c with %s=%zu (needs %zu)",
                             prec_letter[prec], lname(L), tname(ta), tname(tb), ldnames[which],
                             bad[which], need[which]);
                    expect_status(st, TSL_ERR_INVALID_ARG, ctx, ldnames[which], what);
                }
                /* a bad layout in double, transb in single, transa in half */
                tsl_status st = gemm_buf(ctx, prec, prec == TSL_DOUBLE ? (tsl_layout)7 : L,
                                         prec == TSL_HALF ? (tsl_trans)7 : ta,
                                         prec == TSL_SINGLE ? (tsl_trans)7 : tb, m, n, k, 1.0,
                                         bufs[0], ld[0], bufs[1], ld[1], 0.0, bufs[2], ld[2]);
                static const char *const bad_arg[NPREC] = {"transb", "layout", "transa"};
                snprintf(what, sizeof what, "%cgemm_buf %s=7", prec_letter[prec], bad_arg[prec]);
                expect_status(st, TSL_ERR_INVALID_ARG, ctx, bad_arg[prec], what);
            }
            for (int i = 0; i < 3; ++i) {
                tsl_buffer_destroy(bufs[i]);
                free(host[i]);
            }
        }
}

/* Half storage: what has no half kernel says so (TSL_ERR_UNSUPPORTED naming half) and leaves C
 * alone; tsl_variant_check_precision checks its precision and knows which variants have half. */
static void test_half_support(tsl_context *ctx)
{
    const char *resolved = NULL;
    tsl_status st = tsl_variant_check_precision(ctx, "gemm", "auto", TSL_HALF, &resolved);
    CHECK(st == TSL_OK && resolved && strcmp(resolved, "tiled2d") != 0,
          "variant_check_precision(gemm, auto, half) = %s, resolved %s: %s", tsl_status_name(st),
          resolved ? resolved : "(null)", tsl_context_error(ctx));
    st = tsl_variant_check_precision(ctx, "gemm", "naive", TSL_HALF, NULL);
    CHECK(st == TSL_OK, "variant_check_precision(gemm, naive, half) = %s: %s", tsl_status_name(st),
          tsl_context_error(ctx));
    st = tsl_variant_check_precision(ctx, "gemm", "tiled2d:MMA=0", TSL_HALF, NULL);
    expect_status(st, TSL_ERR_UNSUPPORTED, ctx, "half",
                  "variant_check_precision(tiled2d:MMA=0, half)");
    st = tsl_variant_check_precision(ctx, "gemm", "tiled2d:MWG=64,NWG=64,MMA=0", TSL_HALF, NULL);
    expect_status(st, TSL_ERR_UNSUPPORTED, ctx, "half",
                  "variant_check_precision(tiled2d:MWG=64,NWG=64,MMA=0, half)");
    st = tsl_variant_check_precision(ctx, "transpose", "naive", TSL_HALF, NULL);
    expect_status(st, TSL_ERR_UNSUPPORTED, ctx, "half", "variant_check_precision(transpose, half)");
    st = tsl_variant_check_precision(ctx, "gemm", "naive", (tsl_precision)7, NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "precision", "variant_check_precision(prec 7)");
    st = tsl_variant_check_precision(ctx, "gemm", "bogus", TSL_HALF, NULL);
    expect_status(st, TSL_ERR_INVALID_ARG, ctx, "bogus", "variant_check_precision(bogus, half)");

    /* tiled2d's FMA kernel set on the context: tsl_hgemm refuses, host and buffer API, C
     * untouched. */
    st = tsl_context_set_variant(ctx, "gemm", "tiled2d:MMA=0");
    CHECK(st == TSL_OK, "set_variant(gemm, tiled2d) = %s: %s", tsl_status_name(st),
          tsl_context_error(ctx));
    arrays *x = malloc(sizeof *x);
    fresh(x, TSL_HALF);
    st = gemm(ctx, x, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 33, 65, 17, 17, 65, 65, 0, 0, 0,
              1.0, 0.5);
    expect_status(st, TSL_ERR_UNSUPPORTED, ctx, "half", "hgemm with variant tiled2d");
    expect_untouched(x, "hgemm with variant tiled2d");
    tsl_buffer *bufs[3] = {NULL, NULL, NULL};
    int ok = 1;
    for (int i = 0; i < 3; ++i)
        ok &= tsl_buffer_create(ctx, CAP * 2, &bufs[i]) == TSL_OK &&
              tsl_buffer_write(ctx, bufs[i], 0, CAP * 2,
                               i == 0   ? x->a
                               : i == 1 ? x->b
                                        : x->c) == TSL_OK;
    CHECK(ok, "buffer setup failed: %s", tsl_context_error(ctx));
    if (ok) {
        st = gemm_buf(ctx, TSL_HALF, TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 33, 65, 17, 1.0,
                      bufs[0], 17, bufs[1], 17, 0.5, bufs[2], 33);
        expect_status(st, TSL_ERR_UNSUPPORTED, ctx, "half", "hgemm_buf with variant tiled2d");
        double *back = malloc(CAP * sizeof(double));
        CHECK(tsl_buffer_read(ctx, bufs[2], 0, CAP * 2, back) == TSL_OK &&
                  memcmp(back, x->c, CAP * 2) == 0,
              "hgemm_buf with variant tiled2d: C buffer modified");
        free(back);
    }
    for (int i = 0; i < 3; ++i)
        tsl_buffer_destroy(bufs[i]);
    /* single precision still runs tiled2d on the same context */
    fresh(x, TSL_SINGLE);
    st = gemm(ctx, x, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 5, 6, 7, 7, 6, 6, 0, 0, 0, 1.0,
              0.5);
    CHECK(st == TSL_OK, "sgemm with variant tiled2d = %s: %s", tsl_status_name(st),
          tsl_context_error(ctx));
    free(x);
    st = tsl_context_set_variant(ctx, "gemm", "auto");
    CHECK(st == TSL_OK, "set_variant(gemm, auto) = %s", tsl_status_name(st));
}

/* Sizes no device can hold, and sizes whose element or byte counts overflow size_t: an error
 * (invalid, out of memory, or unsupported sizes), with a message, never an attempt to read that
 * much from the caller's small arrays. */
static void test_huge_sizes(tsl_context *ctx)
{
    if (SIZE_MAX < 0xFFFFFFFFFFFFFFFFull) {
        SKIP("huge-size cases need a 64-bit size_t");
        return;
    }
    arrays *x = malloc(sizeof *x);
    char what[160];
    const size_t big = (size_t)1 << 20, over = (size_t)1 << 33;
    /* 2^40 elements (4 TiB and more); 2^33 x 2^33 elements, which wraps size_t to 0. */
    struct {
        size_t m, n, k;
    } cases[] = {{big, big, big}, {over, over, over}, {4, big * big, 4}};
    for (int prec = 0; prec < NPREC; ++prec)
        for (size_t i = 0; i < 3; ++i) {
            size_t m = cases[i].m, n = cases[i].n, k = cases[i].k;
            fresh(x, prec);
            tsl_status st = gemm(ctx, x, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, k, n,
                                 n, 0, 0, 0, 1.0, 0.5);
            snprintf(what, sizeof what, "%cgemm m=%zu n=%zu k=%zu", prec_letter[prec], m, n, k);
            CHECK(st == TSL_ERR_INVALID_ARG || st == TSL_ERR_OUT_OF_MEMORY ||
                      st == TSL_ERR_UNSUPPORTED,
                  "%s: got %s, want TSL_ERR_INVALID_ARG, _OUT_OF_MEMORY or _UNSUPPORTED", what,
                  tsl_status_name(st));
            CHECK(tsl_context_error(ctx)[0], "%s: no message", what);
            expect_untouched(x, what);
        }
    free(x);
}

/* m, n or k == 0 is valid BLAS: OK, C untouched for m or n == 0, C = beta C for k == 0. */
static void test_zero_sizes(tsl_context *ctx)
{
    arrays *x = malloc(sizeof *x);
    char what[160];
    for (int prec = 0; prec < NPREC; ++prec) {
        struct {
            size_t m, n, k;
        } empty[] = {{0, 6, 7}, {5, 0, 7}, {0, 0, 0}, {0, 6, 0}};
        for (size_t i = 0; i < 4; ++i) {
            size_t m = empty[i].m, n = empty[i].n, k = empty[i].k;
            fresh(x, prec);
            tsl_status st = gemm(ctx, x, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 8, 8,
                                 8, 0, 0, 0, 1.5, 0.5);
            snprintf(what, sizeof what, "%cgemm m=%zu n=%zu k=%zu", prec_letter[prec], m, n, k);
            CHECK(st == TSL_OK, "%s: got %s: %s", what, tsl_status_name(st),
                  tsl_context_error(ctx));
            expect_untouched(x, what);
        }
        /* BLAS wants ld >= max(1, rows or cols) even when that is 0: lda = 0 for A of 5 x 0. */
        fresh(x, prec);
        tsl_status st0 = gemm(ctx, x, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 5, 6, 0, 0, 6, 6,
                              0, 0, 0, 1.5, 0.5);
        snprintf(what, sizeof what, "%cgemm row-major NN m=5 n=6 k=0 lda=0 (needs 1)",
                 prec_letter[prec]);
        expect_status(st0, TSL_ERR_INVALID_ARG, ctx, "lda", what);
        expect_untouched(x, what);

        /* k == 0: C = beta C over the matrix, padding untouched (row-major 5 x 6, ldc 9). */
        const size_t m = 5, n = 6, ldc = 9;
        for (int beta_zero = 0; beta_zero < 2; ++beta_zero) {
            fresh(x, prec);
            double beta = beta_zero ? 0.0 : -0.625;
            for (size_t i = 0; beta_zero && i < m; ++i)
                for (size_t j = 0; j < n; ++j) {
                    if (prec == TSL_DOUBLE)
                        ((double *)(void *)x->c)[i * ldc + j] = NAN;
                    else if (prec == TSL_HALF)
                        ((uint16_t *)(void *)x->c)[i * ldc + j] = 0x7E00u;
                    else
                        ((float *)(void *)x->c)[i * ldc + j] = NAN;
                }
            memcpy(x->sc, x->c, sizeof x->c);
            tsl_status st = gemm(ctx, x, TSL_ROW_MAJOR, TSL_TRANS, TSL_NO_TRANS, m, n, 0, m, n, ldc,
                                 0, 0, 0, 1.5, beta);
            snprintf(what, sizeof what, "%cgemm m=5 n=6 k=0 beta=%g%s", prec_letter[prec], beta,
                     beta_zero ? " C=NaN" : "");
            CHECK(st == TSL_OK, "%s: got %s: %s", what, tsl_status_name(st),
                  tsl_context_error(ctx));
            size_t es = elem_size(prec), bad = 0, outside = 0;
            const unsigned char *cb = (const unsigned char *)x->c;
            const unsigned char *sb = (const unsigned char *)x->sc;
            for (size_t i = 0; i < CAP; ++i) {
                int inside = i < (m - 1) * ldc + n && i % ldc < n;
                if (!inside) {
                    outside += memcmp(cb + i * es, sb + i * es, es) != 0;
                    continue;
                }
                double got, old, want;
                if (prec == TSL_DOUBLE) {
                    got = ((double *)(void *)x->c)[i];
                    old = ((double *)(void *)x->sc)[i];
                    want = beta_zero ? 0.0 : beta * old;
                } else if (prec == TSL_HALF) {
                    got = tsl_half_to_float(((uint16_t *)(void *)x->c)[i]);
                    old = tsl_half_to_float(((uint16_t *)(void *)x->sc)[i]);
                    want = beta_zero ? 0.0 : (double)((float)beta * (float)old);
                } else {
                    got = ((float *)(void *)x->c)[i];
                    old = ((float *)(void *)x->sc)[i];
                    want = beta_zero ? 0.0f : (float)beta * (float)old;
                }
                /* one rounding of beta * c, whichever way the device does it */
                double ulp = prec == TSL_DOUBLE ? 2.3e-16 : prec == TSL_HALF ? 0x1p-11 : 1.2e-7;
                bad += !(fabs(got - want) <= ulp * fabs(want));
            }
            CHECK(bad == 0, "%s: %zu elements of C are not beta*C", what, bad);
            CHECK(outside == 0, "%s: %zu elements outside C's matrix changed", what, outside);
            CHECK(memcmp(x->a, x->sa, sizeof x->a) == 0 && memcmp(x->b, x->sb, sizeof x->b) == 0,
                  "%s: A or B modified", what);
        }
    }
    free(x);
}

int main(void)
{
    test_status_names();
    test_create_and_destroy();

    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(NULL, &ctx);
    CHECK(st == TSL_OK && ctx, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary("test_api_errors");
    CHECK(tsl_context_error(ctx) && tsl_context_error(ctx)[0] == '\0',
          "a fresh context has error message \"%s\"", tsl_context_error(ctx));

    test_null_context(ctx);
    test_null_pointers(ctx);
    test_bad_enums(ctx);
    test_variants_and_outs(ctx);
    test_buffers(ctx);
    test_gemm_buffers(ctx);
    test_half_support(ctx);
    test_huge_sizes(ctx);
    test_zero_sizes(ctx);
    test_leading_dimensions(ctx);

    tsl_context_destroy(ctx);
    return check_summary("test_api_errors");
}
