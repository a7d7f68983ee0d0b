/* test_transpose.c: the transpose family and the copy reference (docs/transpose.md), against a
 * plain CPU transpose (exact: a transpose moves bits, so results must be bit-identical). One
 * process per part, named on the command line, so ctest runs them in parallel:
 *   test_transpose VARIANT   (naive, coalesced, nobank, diagonal, auto): single and double, shapes
 *       1x1, 1xn, nx1, 33x65, 257x31, primes, with tight and padded leading dimensions (padding of
 *       A holds NaN that must not reach B; padding of B and a guard zone after it hold signalling-
 *       NaN sentinels that must come back bit-identical), tiles 4, 8, 16, 32, 64 and 5 (a tile
 *       that divides nothing), work-group rows 1, 3, 8 and groups of 2 and 3 tiles (in double:
 *       tile 5 and 3 rows, the rest only for the variants whose vector width the precision sets),
 *       inner_reps 3 giving the same result as 1, and the device-buffer calls with A read back
 *       unchanged.
 *   test_transpose copy-variant: the `copy` variant refuses to transpose (TSL_ERR_UNSUPPORTED),
 *       writing nothing, through every entry point.
 *   test_transpose errors: bad input (NULL, ld too small, bad options, short or shared buffers):
 *       TSL_ERR_INVALID_ARG, a message naming the argument, and B untouched.
 *   test_transpose copy: tsl_copy_buf over odd byte counts (1, 15, 17, ...), bytes past the count
 *       untouched, bad input.
 *   test_transpose pinned: tsl_host_alloc / tsl_host_free as the host side of transfers, bad
 *       input, the slot limit, and tsl_context_destroy with blocks left allocated (run under
 *       AddressSanitizer in CI).
 * Random data from tsl_ref_fill_* seeded per case from 20261121 (TSL_TEST_SEED overrides). */
#include "check.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 16
#define PAD 3

static tsl_context *g_ctx;
static unsigned long long g_seed = 20261121ull, g_counter;

static const uint32_t A_PAD_F = 0x7FC0ABCDu; /* quiet NaN: must never be copied into B */
static const uint64_t A_PAD_D = 0x7FF8ABCDABCDABCDull;
static const uint32_t B_PAD_F = 0x7F8DEAD1u; /* signalling NaN: bits change if touched */
static const uint64_t B_PAD_D = 0x7FF0DEADBEEF0001ull;

static unsigned long long next_seed(void)
{
    unsigned long long x = g_seed + 0x9E3779B97F4A7C15ull * (++g_counter);
    x ^= x >> 31;
    return x ? x : 1;
}

static void put_bits(unsigned char *p, size_t i, int dbl, uint64_t bits)
{
    if (dbl)
        memcpy(p + i * 8, &bits, 8);
    else {
        uint32_t b = (uint32_t)bits;
        memcpy(p + i * 4, &b, 4);
    }
}

static int same_bits(const unsigned char *p, size_t i, const unsigned char *q, size_t j, int dbl)
{
    size_t e = dbl ? 8 : 4;
    return memcmp(p + i * e, q + j * e, e) == 0;
}

/* A rows x cols with leading dimension lda (padding = quiet NaN), random values. */
static unsigned char *make_a(int dbl, size_t rows, size_t cols, size_t lda, unsigned long long *st)
{
    size_t e = dbl ? 8 : 4, n = rows * lda;
    unsigned char *a = malloc(n * e + 1);
    for (size_t i = 0; i < n; ++i)
        put_bits(a, i, dbl, dbl ? A_PAD_D : A_PAD_F);
    for (size_t r = 0; r < rows; ++r) {
        if (dbl)
            tsl_ref_fill_d((double *)(void *)a + r * lda, cols, st);
        else
            tsl_ref_fill_f((float *)(void *)a + r * lda, cols, st);
    }
    return a;
}

/* B storage cols x ldb plus a guard zone, every element a sentinel. */
static unsigned char *make_b(int dbl, size_t cols, size_t ldb)
{
    size_t e = dbl ? 8 : 4, n = cols * ldb + GUARD;
    unsigned char *b = malloc(n * e);
    for (size_t i = 0; i < n; ++i)
        put_bits(b, i, dbl, dbl ? B_PAD_D : B_PAD_F);
    return b;
}

/* B must be A^T inside, sentinels in its padding and guard. Returns the mismatches. */
static size_t check_b(int dbl, size_t rows, size_t cols, const unsigned char *a, size_t lda,
                      const unsigned char *b, size_t ldb)
{
    size_t bad = 0;
    unsigned char sent[8];
    put_bits(sent, 0, dbl, dbl ? B_PAD_D : B_PAD_F);
    for (size_t j = 0; j < cols; ++j)
        for (size_t i = 0; i < ldb; ++i)
            bad += i < rows ? !same_bits(b, j * ldb + i, a, i * lda + j, dbl)
                            : !same_bits(b, j * ldb + i, sent, 0, dbl);
    for (size_t g = 0; g < GUARD; ++g)
        bad += !same_bits(b, cols * ldb + g, sent, 0, dbl);
    return bad;
}

static tsl_status call_host(int dbl, size_t rows, size_t cols, const void *a, size_t lda, void *b,
                            size_t ldb)
{
    return dbl ? tsl_dtranspose(g_ctx, rows, cols, a, lda, b, ldb)
               : tsl_stranspose(g_ctx, rows, cols, a, lda, b, ldb);
}

static tsl_status call_buf(int dbl, size_t rows, size_t cols, const tsl_buffer *a, size_t lda,
                           tsl_buffer *b, size_t ldb)
{
    return dbl ? tsl_dtranspose_buf(g_ctx, rows, cols, a, lda, b, ldb)
               : tsl_stranspose_buf(g_ctx, rows, cols, a, lda, b, ldb);
}

/* One host-pointer case; returns 0 when the call failed (so callers can stop early). */
static int host_case(const char *what, int dbl, size_t rows, size_t cols, size_t pad)
{
    unsigned long long seed = next_seed(), st = seed;
    size_t lda = cols + pad, ldb = rows + pad;
    unsigned char *a = make_a(dbl, rows, cols, lda, &st), *b = make_b(dbl, cols, ldb);
    tsl_status s = call_host(dbl, rows, cols, a, lda, b, ldb);
    CHECK(s == TSL_OK, "%s %s %zux%zu pad %zu: %s (%s)", what, dbl ? "double" : "single", rows,
          cols, pad, tsl_status_name(s), tsl_context_error(g_ctx));
    if (s == TSL_OK) {
        size_t bad = check_b(dbl, rows, cols, a, lda, b, ldb);
        CHECK(bad == 0, "%s %s %zux%zu pad %zu seed %llu: %zu wrong elements", what,
              dbl ? "double" : "single", rows, cols, pad, seed, bad);
    }
    free(a);
    free(b);
    return s == TSL_OK;
}

static void buf_case(int dbl, size_t rows, size_t cols, size_t pad)
{
    unsigned long long st = next_seed();
    size_t e = dbl ? 8 : 4, lda = cols + pad, ldb = rows + pad;
    unsigned char *a = make_a(dbl, rows, cols, lda, &st), *b = make_b(dbl, cols, ldb);
    unsigned char *a_back = malloc(rows * lda * e), *b_back = make_b(dbl, cols, ldb);
    tsl_buffer *da = NULL, *db = NULL;
    /* exact sizes: (rows - 1) * lda + cols elements for A */
    size_t a_bytes = ((rows - 1) * lda + cols) * e, b_bytes = ((cols - 1) * ldb + rows) * e;
    CHECK(tsl_buffer_create(g_ctx, a_bytes, &da) == TSL_OK, "buffer a");
    CHECK(tsl_buffer_create(g_ctx, b_bytes, &db) == TSL_OK, "buffer b");
    if (da && db) {
        tsl_buffer_write(g_ctx, da, 0, a_bytes, a);
        tsl_buffer_write(g_ctx, db, 0, b_bytes, b); /* sentinels in B's padding */
        tsl_status s = call_buf(dbl, rows, cols, da, lda, db, ldb);
        CHECK(s == TSL_OK, "buf %zux%zu: %s (%s)", rows, cols, tsl_status_name(s),
              tsl_context_error(g_ctx));
        tsl_buffer_read(g_ctx, da, 0, a_bytes, a_back);
        tsl_buffer_read(g_ctx, db, 0, b_bytes, b_back);
        CHECK(memcmp(a, a_back, a_bytes) == 0, "buf %zux%zu: A was modified", rows, cols);
        CHECK(check_b(dbl, rows, cols, a, lda, b_back, ldb) == 0, "buf %zux%zu pad %zu: wrong B",
              rows, cols, pad);
    }
    tsl_buffer_destroy(da);
    tsl_buffer_destroy(db);
    free(a);
    free(b);
    free(a_back);
    free(b_back);
}

static const size_t shapes[][2] = {{1, 1},    {1, 37},  {45, 1},  {33, 65}, {257, 31},
                                   {31, 257}, {17, 17}, {64, 64}, {100, 3}, {5, 129}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

static void test_variant(const char *variant)
{
    tsl_status s = tsl_context_set_variant(g_ctx, "transpose", variant);
    CHECK(s == TSL_OK, "set_variant %s: %s (%s)", variant, tsl_status_name(s),
          tsl_context_error(g_ctx));
    if (s != TSL_OK) return;
    tsl_device_info info;
    tsl_context_device(g_ctx, &info);
    for (int dbl = 0; dbl < 2; ++dbl) {
        if (dbl && !info.fp64) {
            float x = 1, y = 0;
            CHECK(tsl_dtranspose(g_ctx, 1, 1, (const double *)(void *)&x, 1, (double *)(void *)&y,
                                 1) == TSL_ERR_UNSUPPORTED,
                  "no fp64: TSL_ERR_UNSUPPORTED");
            SKIP("double precision on %s", info.name);
            continue;
        }
        /* default tile: every shape, tight and padded */
        for (size_t i = 0; i < NSHAPES; ++i)
            for (size_t pad = 0; pad <= PAD; pad += PAD)
                if (!host_case(variant, dbl, shapes[i][0], shapes[i][1], pad)) return;
        /* every tile edge the option allows that a device commonly runs, and one dividing nothing.
         * Each tile, row count and group is a program of its own (a second of PoCL compiling);
         * the index arithmetic they vary counts elements, the same in both precisions, so double
         * runs the tile dividing nothing and the row count dividing no tile, and the whole sweep
         * only where the precision changes the vector width (the vector variant, and auto, which
         * may pick it) */
        const int sweep = !dbl || strcmp(variant, "vector") == 0 || strcmp(variant, "auto") == 0;
        const long tiles[] = {4, 5, 8, 16, 32, 64}, tiles_dbl[] = {5};
        const long *tile_list = sweep ? tiles : tiles_dbl;
        const size_t ntiles = sweep ? sizeof tiles / sizeof tiles[0] : 1;
        for (size_t t = 0; t < ntiles; ++t) {
            const long tiles_t = tile_list[t];
            s = tsl_context_set_option(g_ctx, "transpose", "tile", tiles_t);
            if (s != TSL_OK) {
                SKIP("tile %ld: %s", tiles_t, tsl_context_error(g_ctx));
                continue;
            }
            host_case(variant, dbl, 33, 65, PAD);
            host_case(variant, dbl, 257, 31, 0);
            host_case(variant, dbl, 1, 37, 1);
        }
        tsl_context_set_option(g_ctx, "transpose", "tile", 8);
        /* inner repetitions: the same result, bit for bit */
        CHECK(tsl_context_set_option(g_ctx, "transpose", "inner_reps", 3) == TSL_OK,
              "inner_reps 3");
        host_case(variant, dbl, 33, 65, 1);
        host_case(variant, dbl, 1, 1, 0);
        tsl_context_set_option(g_ctx, "transpose", "inner_reps", 1);
        /* work-group rows and tiles per group (vector variant: groups that prefetch the next
         * tile), on shapes whose tile columns end part-way and whose rows do not align */
        const long rows_opt[] = {3, 1, 8}, group_tiles[] = {2, 3};
        for (size_t r = 0; r < (sweep ? 3u : 1u); ++r) {
            CHECK(tsl_context_set_option(g_ctx, "transpose", "wg_rows", rows_opt[r]) == TSL_OK,
                  "wg_rows %ld", rows_opt[r]);
            host_case(variant, dbl, 67, 40, 0);
        }
        for (size_t g = 0; g < (sweep ? 2u : 0u); ++g) {
            CHECK(tsl_context_set_option(g_ctx, "transpose", "group_tiles", group_tiles[g]) ==
                      TSL_OK,
                  "group_tiles %ld", group_tiles[g]);
            host_case(variant, dbl, 67, 40, 0);
            host_case(variant, dbl, 64, 64, 0);
            host_case(variant, dbl, 257, 31, 1);
        }
        tsl_context_set_option(g_ctx, "transpose", "group_tiles", 1);
        tsl_context_set_option(g_ctx, "transpose", "wg_rows", 4);
        buf_case(dbl, 33, 65, 0);
        buf_case(dbl, 257, 31, 2);
        /* zero-sized: valid, nothing written */
        unsigned char *b = make_b(dbl, 1, 1);
        CHECK(call_host(dbl, 0, 5, NULL, 5, b, 1) == TSL_OK, "rows = 0 is valid");
        CHECK(call_host(dbl, 5, 0, NULL, 1, b, 5) == TSL_OK, "cols = 0 is valid");
        CHECK(check_b(dbl, 0, 1, b, 1, b, 1) == 0, "nothing written for an empty matrix");
        free(b);
        /* back to the defaults for the next precision */
        tsl_context_set_option(g_ctx, "transpose", "tile", 32);
    }
}

static void test_copy_variant(void)
{
    CHECK(tsl_variant_check(g_ctx, "transpose", "copy", NULL) == TSL_OK, "copy is a variant");
    CHECK(tsl_context_set_variant(g_ctx, "transpose", "copy") == TSL_OK, "set copy");
    unsigned long long st = next_seed();
    unsigned char *a = make_a(0, 9, 7, 7, &st), *b = make_b(0, 7, 9);
    tsl_status s = tsl_stranspose(g_ctx, 9, 7, (const float *)(void *)a, 7, (float *)(void *)b, 9);
    CHECK(s == TSL_ERR_UNSUPPORTED, "copy refuses to transpose: %s", tsl_status_name(s));
    CHECK(check_mentions(tsl_context_error(g_ctx), "copy"), "message: %s",
          tsl_context_error(g_ctx));
    CHECK(check_b(0, 0, 7, a, 7, b, 9) == 0, "copy: B untouched");
    tsl_buffer *da = NULL, *db = NULL;
    tsl_buffer_create(g_ctx, 63 * 4, &da);
    tsl_buffer_create(g_ctx, 63 * 4, &db);
    CHECK(tsl_stranspose_buf(g_ctx, 9, 7, da, 7, db, 9) == TSL_ERR_UNSUPPORTED, "copy buf");
    tsl_buffer_destroy(da);
    tsl_buffer_destroy(db);
    free(a);
    free(b);
    tsl_context_set_variant(g_ctx, "transpose", "auto");
}

#define EXPECT_INVALID(call, word)                                                                 \
    do {                                                                                           \
        tsl_status s_ = (call);                                                                    \
        CHECK(s_ == TSL_ERR_INVALID_ARG, "%s: %s", #call, tsl_status_name(s_));                    \
        CHECK(check_mentions(tsl_context_error(g_ctx), word), "%s: message '%s' should name %s",   \
              #call, tsl_context_error(g_ctx), word);                                              \
    } while (0)

static void test_errors(void)
{
    float a[12], b[12 + GUARD];
    unsigned long long st = next_seed();
    tsl_ref_fill_f(a, 12, &st);
    for (int i = 0; i < 12 + GUARD; ++i)
        memcpy(&b[i], &B_PAD_F, 4);
    CHECK(tsl_stranspose(NULL, 3, 4, a, 4, b, 3) == TSL_ERR_INVALID_ARG, "ctx NULL");
    EXPECT_INVALID(tsl_stranspose(g_ctx, 3, 4, NULL, 4, b, 3), "A");
    EXPECT_INVALID(tsl_stranspose(g_ctx, 3, 4, a, 4, NULL, 3), "B");
    EXPECT_INVALID(tsl_stranspose(g_ctx, 3, 4, a, 3, b, 3), "lda");
    EXPECT_INVALID(tsl_stranspose(g_ctx, 3, 4, a, 4, b, 2), "ldb");
    EXPECT_INVALID(tsl_stranspose(g_ctx, 0, 4, a, 0, b, 1), "lda");
    EXPECT_INVALID(tsl_dtranspose(g_ctx, 3, 4, (double *)NULL, 4, (double *)NULL, 3), "A");
    for (int i = 0; i < 12 + GUARD; ++i)
        CHECK(memcmp(&b[i], &B_PAD_F, 4) == 0, "B untouched after bad input (element %d)", i);
    /* options */
    EXPECT_INVALID(tsl_context_set_option(g_ctx, "transpose", "tile", 3), "tile");
    EXPECT_INVALID(tsl_context_set_option(g_ctx, "transpose", "tile", 65), "tile");
    EXPECT_INVALID(tsl_context_set_option(g_ctx, "transpose", "wg_rows", 0), "wg_rows");
    EXPECT_INVALID(tsl_context_set_option(g_ctx, "transpose", "wg_rows", 65), "wg_rows");
    EXPECT_INVALID(tsl_context_set_option(g_ctx, "transpose", "group_tiles", 0), "group_tiles");
    EXPECT_INVALID(tsl_context_set_option(g_ctx, "transpose", "group_tiles", 17), "group_tiles");
    EXPECT_INVALID(tsl_context_set_option(g_ctx, "transpose", "tile", -16), "tile");
    EXPECT_INVALID(tsl_context_set_option(g_ctx, "transpose", "inner_reps", 0), "inner_reps");
    EXPECT_INVALID(tsl_context_set_option(g_ctx, "transpose", "tiles", 8), "tiles");
    EXPECT_INVALID(tsl_context_set_option(g_ctx, "transpose", NULL, 8), "name");
    EXPECT_INVALID(tsl_context_set_variant(g_ctx, "transpose", "fastest"), "fastest");
    CHECK(tsl_variant_name("transpose", 0) && strcmp(tsl_variant_name("transpose", 0), "copy") == 0,
          "variant 0 is copy");
    /* buffers */
    tsl_buffer *da = NULL, *db = NULL, *small = NULL;
    tsl_buffer_create(g_ctx, 12 * 4, &da);
    tsl_buffer_create(g_ctx, 12 * 4, &db);
    tsl_buffer_create(g_ctx, 11 * 4, &small);
    EXPECT_INVALID(tsl_stranspose_buf(g_ctx, 3, 4, NULL, 4, db, 3), "a");
    EXPECT_INVALID(tsl_stranspose_buf(g_ctx, 3, 4, da, 4, NULL, 3), "b");
    EXPECT_INVALID(tsl_stranspose_buf(g_ctx, 3, 4, small, 4, db, 3), "a");
    EXPECT_INVALID(tsl_stranspose_buf(g_ctx, 3, 4, da, 4, small, 3), "b");
    EXPECT_INVALID(tsl_stranspose_buf(g_ctx, 3, 4, da, 5, db, 3), "a"); /* lda 5 needs 14 floats */
    EXPECT_INVALID(tsl_stranspose_buf(g_ctx, 3, 4, da, 4, da, 3), "same");
    EXPECT_INVALID(tsl_stranspose_buf(g_ctx, 3, 4, da, 4, db, 1), "ldb");
    tsl_buffer_destroy(da);
    tsl_buffer_destroy(db);
    tsl_buffer_destroy(small);
}

static void test_copy(void)
{
    const size_t counts[] = {1, 3, 15, 16, 17, 31, 33, 1000, 4097, 65541, 1 << 20};
    size_t cap = (1 << 20) + 64;
    unsigned char *src = malloc(cap), *dst = malloc(cap), *init = malloc(cap);
    unsigned long long st = next_seed();
    tsl_ref_fill_f((float *)(void *)src, cap / 4, &st);
    tsl_ref_fill_f((float *)(void *)init, cap / 4, &st);
    tsl_buffer *ds = NULL, *dd = NULL;
    CHECK(tsl_buffer_create(g_ctx, cap, &ds) == TSL_OK, "src buffer");
    CHECK(tsl_buffer_create(g_ctx, cap, &dd) == TSL_OK, "dst buffer");
    if (!ds || !dd) return;
    tsl_buffer_write(g_ctx, ds, 0, cap, src);
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        size_t n = counts[i];
        tsl_buffer_write(g_ctx, dd, 0, cap, init);
        tsl_status s = tsl_copy_buf(g_ctx, ds, dd, n);
        CHECK(s == TSL_OK, "copy %zu bytes: %s (%s)", n, tsl_status_name(s),
              tsl_context_error(g_ctx));
        tsl_timing t;
        tsl_context_timing(g_ctx, &t);
        CHECK(s != TSL_OK || t.kernel_ms > 0, "copy %zu: kernel time recorded", n);
        tsl_buffer_read(g_ctx, dd, 0, cap, dst);
        CHECK(memcmp(dst, src, n) == 0, "copy %zu bytes: copied bytes differ", n);
        CHECK(memcmp(dst + n, init + n, cap - n) == 0, "copy %zu bytes: wrote past the count", n);
    }
    /* exact-size buffers of odd sizes */
    tsl_buffer *s7 = NULL, *d7 = NULL;
    tsl_buffer_create(g_ctx, 7, &s7);
    tsl_buffer_create(g_ctx, 7, &d7);
    tsl_buffer_write(g_ctx, s7, 0, 7, src);
    CHECK(tsl_copy_buf(g_ctx, s7, d7, 7) == TSL_OK, "7-byte buffers");
    tsl_buffer_read(g_ctx, d7, 0, 7, dst);
    CHECK(memcmp(dst, src, 7) == 0, "7 bytes copied");
    CHECK(tsl_copy_buf(g_ctx, ds, dd, 0) == TSL_OK, "0 bytes is valid");
    CHECK(tsl_copy_buf(g_ctx, ds, ds, 100) == TSL_OK, "onto itself is valid");
    CHECK(tsl_copy_buf(NULL, ds, dd, 1) == TSL_ERR_INVALID_ARG, "ctx NULL");
    EXPECT_INVALID(tsl_copy_buf(g_ctx, NULL, dd, 1), "src");
    EXPECT_INVALID(tsl_copy_buf(g_ctx, ds, NULL, 1), "dst");
    EXPECT_INVALID(tsl_copy_buf(g_ctx, s7, dd, 8), "src");
    EXPECT_INVALID(tsl_copy_buf(g_ctx, ds, d7, 8), "dst");
    tsl_buffer_destroy(s7);
    tsl_buffer_destroy(d7);
    tsl_buffer_destroy(ds);
    tsl_buffer_destroy(dd);
    free(src);
    free(dst);
    free(init);
}

static void test_pinned(void)
{
    void *p = NULL, *q = NULL;
    size_t n = 100003; /* not a multiple of anything */
    CHECK(tsl_host_alloc(g_ctx, n, &p) == TSL_OK && p, "alloc: %s", tsl_context_error(g_ctx));
    CHECK(tsl_host_alloc(g_ctx, n, &q) == TSL_OK && q, "alloc 2");
    if (!p || !q) return;
    unsigned long long st = next_seed();
    tsl_ref_fill_f(p, n / 4, &st);
    memset(q, 0, n);
    tsl_buffer *d = NULL;
    tsl_buffer_create(g_ctx, n, &d);
    CHECK(tsl_buffer_write(g_ctx, d, 0, n, p) == TSL_OK, "write from pinned");
    CHECK(tsl_buffer_read(g_ctx, d, 0, n, q) == TSL_OK, "read into pinned");
    CHECK(memcmp(p, q, n) == 0, "round trip through pinned memory");
    tsl_buffer_destroy(d);
    tsl_host_free(g_ctx, q);
    tsl_host_free(g_ctx, NULL); /* no-op */
    tsl_host_free(NULL, p);     /* no-op */
    int local;
    tsl_host_free(g_ctx, &local); /* not ours: left alone, error recorded */
    CHECK(check_mentions(tsl_context_error(g_ctx), "ptr"), "foreign pointer named: %s",
          tsl_context_error(g_ctx));
    tsl_host_free(g_ctx, p);
    void *x = (void *)1;
    EXPECT_INVALID(tsl_host_alloc(g_ctx, 0, &x), "bytes");
    CHECK(x == NULL, "*ptr set to NULL on error");
    EXPECT_INVALID(tsl_host_alloc(g_ctx, 16, NULL), "ptr");
    CHECK(tsl_host_alloc(NULL, 16, &x) == TSL_ERR_INVALID_ARG, "ctx NULL");
    /* the slot limit, then leave some allocated for tsl_context_destroy */
    void *many[17] = {0};
    int got = 0;
    for (int i = 0; i < 17; ++i)
        if (tsl_host_alloc(g_ctx, 4096, &many[i]) == TSL_OK) ++got;
    CHECK(got == 16, "16 pinned blocks per context, got %d", got);
    for (int i = 0; i < 17; i += 2)
        tsl_host_free(g_ctx, many[i]);
    CHECK(tsl_host_alloc(g_ctx, 64, &x) == TSL_OK, "a freed slot is reused");
    memset(many[1], 0x5A, 4096); /* still valid memory */
    /* the rest (8 blocks + x) are freed by tsl_context_destroy in main */
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_transpose VARIANT|copy-variant|errors|copy|pinned\n");
        return 2;
    }
    const char *env = getenv("TSL_TEST_SEED");
    if (env && *env) g_seed = strtoull(env, NULL, 10);
    tsl_status s = tsl_context_create(NULL, &g_ctx);
    if (s != TSL_OK) {
        fprintf(stderr, "no device: %s (%s)\n", tsl_last_error(), tsl_status_name(s));
        return 1;
    }
    const char *part = argv[1];
    if (strcmp(part, "copy-variant") == 0)
        test_copy_variant();
    else if (strcmp(part, "errors") == 0)
        test_errors();
    else if (strcmp(part, "copy") == 0)
        test_copy();
    else if (strcmp(part, "pinned") == 0)
        test_pinned();
    else
        test_variant(part);
    tsl_context_destroy(g_ctx);
    char name[64];
    snprintf(name, sizeof name, "test_transpose %s", part);
    return check_summary(name);
}
