/* test_half.c: IEEE binary16, the storage of tsl_hgemm. `test_half convert` checks the host
 * converters: the edge values (signed zeros, the smallest subnormal and normal, 65504 and the
 * overflow to infinity from 65520 on, infinities, NaN with its sign), that every half survives
 * half -> float -> half, and round to nearest even at every rounding boundary: for each pair of
 * neighbouring halves, the float halfway between them goes to the even one and the floats just
 * beside it to the nearer one; plus seeded random floats against a nearest-half search.
 * `test_half device` checks that the kernels read and round halves as the host does: tsl_hgemm
 * with k = 1 computes C = A * B with one exact float product per element (11-bit by 11-bit
 * significands), so C is that product rounded to half by vstore_half_rte; with A every half value
 * and B = 1, 1/3 (as a half), 3 and 2^-10, C must equal tsl_float_to_half of the product bit for
 * bit, which covers subnormal results, ties and overflow to infinity on the device.
 * `test_half bf16` checks bfloat16's converters (tsl_float_to_bf16, tsl_bf16_to_float) the same
 * way: edge values, the round trip of all 65536 bfloat16s, every rounding boundary between
 * neighbouring bfloat16s (ties to even, one float step either side), random floats; and
 * `test_half bf16_device` that the kernels' bfloat16 stores round as the host does (tsl_bgemm with
 * k = 1 over every bfloat16 times four values). */
#include "check.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

static float float_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}

static int is_nan_half(uint16_t h)
{
    return (h & 0x7C00u) == 0x7C00u && (h & 0x03FFu) != 0;
}

static void expect_half(float x, uint16_t want, const char *what)
{
    uint16_t got = tsl_float_to_half(x);
    CHECK(got == want, "tsl_float_to_half(%s = %.9g, bits 0x%08x) = 0x%04x, want 0x%04x", what,
          (double)x, bits_of(x), got, want);
}

static void test_edges(void)
{
    expect_half(0.0f, 0x0000u, "0");
    expect_half(-0.0f, 0x8000u, "-0");
    expect_half(1.0f, 0x3C00u, "1");
    expect_half(-2.0f, 0xC000u, "-2");
    expect_half(0.1f, 0x2E66u, "0.1");
    expect_half(65504.0f, 0x7BFFu, "65504, the largest half");
    expect_half(-65504.0f, 0xFBFFu, "-65504");
    expect_half(65519.996f, 0x7BFFu, "just below 65520");
    expect_half(65520.0f, 0x7C00u, "65520, halfway to 2^16: to even, infinity");
    expect_half(-65520.0f, 0xFC00u, "-65520");
    expect_half(1e10f, 0x7C00u, "1e10");
    expect_half(3.4e38f, 0x7C00u, "FLT_MAX");
    expect_half(INFINITY, 0x7C00u, "inf");
    expect_half(-INFINITY, 0xFC00u, "-inf");
    expect_half(ldexpf(1.0f, -14), 0x0400u, "2^-14, the smallest normal");
    expect_half(ldexpf(1.0f, -24), 0x0001u, "2^-24, the smallest subnormal");
    expect_half(-ldexpf(1.0f, -24), 0x8001u, "-2^-24");
    expect_half(ldexpf(1.0f, -25), 0x0000u, "2^-25, halfway to 2^-24: to even, 0");
    expect_half(-ldexpf(1.0f, -25), 0x8000u, "-2^-25");
    expect_half(float_of(bits_of(ldexpf(1.0f, -25)) + 1), 0x0001u, "just above 2^-25");
    expect_half(ldexpf(3.0f, -25), 0x0002u, "3 * 2^-25, halfway between 1 and 2 (x 2^-24)");
    expect_half(ldexpf(5.0f, -25), 0x0002u, "5 * 2^-25, halfway between 2 and 3 (x 2^-24)");
    expect_half(ldexpf(1.0f, -14) - ldexpf(1.0f, -25), 0x0400u,
                "halfway between the largest subnormal and 2^-14");
    expect_half(1e-30f, 0x0000u, "1e-30");
    expect_half(-1e-30f, 0x8000u, "-1e-30");
    expect_half(1.0f + ldexpf(1.0f, -11), 0x3C00u, "1 + 2^-11, halfway: to even");
    expect_half(1.0f + ldexpf(3.0f, -11), 0x3C02u, "1 + 3 * 2^-11, halfway: to even");

    uint16_t h = tsl_float_to_half(NAN);
    CHECK(is_nan_half(h), "tsl_float_to_half(NaN) = 0x%04x, not a NaN", h);
    CHECK(h & 0x0200u, "tsl_float_to_half(NaN) = 0x%04x, not a quiet NaN", h);
    h = tsl_float_to_half(-NAN);
    CHECK(is_nan_half(h) && (h & 0x8000u), "tsl_float_to_half(-NaN) = 0x%04x", h);
    /* a NaN whose payload sits only in the low bits must not become infinity */
    h = tsl_float_to_half(float_of(0x7F800001u));
    CHECK(is_nan_half(h), "tsl_float_to_half(signalling NaN 0x7f800001) = 0x%04x", h);

    CHECK(tsl_half_to_float(0x7BFFu) == 65504.0f, "half_to_float(0x7bff)");
    CHECK(tsl_half_to_float(0x0001u) == ldexpf(1.0f, -24), "half_to_float(0x0001)");
    CHECK(tsl_half_to_float(0x03FFu) == ldexpf(1023.0f, -24), "half_to_float(0x03ff)");
    CHECK(tsl_half_to_float(0x0400u) == ldexpf(1.0f, -14), "half_to_float(0x0400)");
    CHECK(isinf(tsl_half_to_float(0xFC00u)) && tsl_half_to_float(0xFC00u) < 0,
          "half_to_float(0xfc00)");
    CHECK(isnan(tsl_half_to_float(0x7E00u)), "half_to_float(0x7e00)");
    CHECK(bits_of(tsl_half_to_float(0x8000u)) == 0x80000000u, "half_to_float(0x8000) is -0");
}

/* Every half: to float and back unchanged (NaN stays NaN, with its sign). */
static void test_round_trip(void)
{
    for (uint32_t i = 0; i < 0x10000u; ++i) {
        uint16_t h = (uint16_t)i, back = tsl_float_to_half(tsl_half_to_float(h));
        if (is_nan_half(h))
            CHECK(is_nan_half(back) && (back & 0x8000u) == (h & 0x8000u),
                  "NaN 0x%04x came back as 0x%04x", h, back);
        else
            CHECK(back == h, "0x%04x -> %.9g -> 0x%04x", h, (double)tsl_half_to_float(h), back);
    }
}

/* Between every two neighbouring finite halves of one sign (and between 65504 and 2^16, where
 * rounding meets infinity): the midpoint goes to the even one, one float step either side to the
 * nearer one. Midpoints are floats (a half has 11 significant bits, a float 24). */
static void test_boundaries(void)
{
    for (uint32_t i = 0; i < 0x7C00u; ++i) {
        for (int neg = 0; neg < 2; ++neg) {
            uint16_t lo = (uint16_t)(i | (neg ? 0x8000u : 0)), hi = (uint16_t)(lo + 1);
            double a = tsl_half_to_float(lo);
            double b = i == 0x7BFFu ? (neg ? -65536.0 : 65536.0) : tsl_half_to_float(hi);
            float mid = (float)((a + b) / 2);
            CHECK((double)mid == (a + b) / 2, "midpoint of 0x%04x not a float", lo);
            uint16_t even = (lo & 1u) ? hi : lo; /* 0x7C00 (inf) is even: 65520 -> inf */
            uint16_t got = tsl_float_to_half(mid);
            CHECK(got == even, "midpoint %.9g of 0x%04x and 0x%04x -> 0x%04x, want even 0x%04x",
                  (double)mid, lo, hi, got, even);
            /* one float step toward lo and toward hi (in magnitude) */
            uint32_t mb = bits_of(mid);
            got = tsl_float_to_half(float_of(mb - 1));
            CHECK(got == lo, "just below the midpoint of 0x%04x/0x%04x -> 0x%04x", lo, hi, got);
            got = tsl_float_to_half(float_of(mb + 1));
            CHECK(got == hi, "just above the midpoint of 0x%04x/0x%04x -> 0x%04x", lo, hi, got);
        }
    }
}

/* Seeded random floats of every magnitude: the result is a nearest half (ties: the even one). */
static void test_random(void)
{
    unsigned long long st = 20261121ull;
    for (int i = 0; i < 200000; ++i) {
        double r;
        tsl_ref_fill_d(&r, 1, &st);
        uint32_t u = (uint32_t)((r + 1.0) * 2147483648.0);
        float x = float_of(u);
        if (isnan(x)) continue;
        uint16_t h = tsl_float_to_half(x);
        double hx = tsl_half_to_float(h), err = fabs(hx - (double)x);
        if (fabs((double)x) >= 65520.0) {
            CHECK((h & 0x7FFFu) == 0x7C00u, "%.9g -> 0x%04x, want infinity", (double)x, h);
            continue;
        }
        CHECK((h & 0x7C00u) != 0x7C00u, "%.9g -> 0x%04x, not finite", (double)x, h);
        /* the neighbours of h, as far from x or farther */
        for (int d = -1; d <= 1; d += 2) {
            uint16_t mag = h & 0x7FFFu, sign = h & 0x8000u;
            if ((d < 0 && mag == 0) || (d > 0 && mag >= 0x7BFFu)) continue;
            double nb = tsl_half_to_float((uint16_t)(sign | (uint16_t)(mag + d)));
            double nerr = fabs(nb - (double)x);
            CHECK(err < nerr || (err == nerr && (h & 1u) == 0),
                  "%.9g -> 0x%04x (%.9g), but its neighbour %.9g is as near or nearer", (double)x,
                  h, hx, nb);
        }
    }
}

/* ---- bfloat16 ------------------------------------------------------------------------------ */

static int is_nan_bf16(uint16_t b)
{
    return (b & 0x7F80u) == 0x7F80u && (b & 0x007Fu) != 0;
}

static void expect_bf16(float x, uint16_t want, const char *what)
{
    uint16_t got = tsl_float_to_bf16(x);
    CHECK(got == want, "tsl_float_to_bf16(%s = %.9g, bits 0x%08x) = 0x%04x, want 0x%04x", what,
          (double)x, bits_of(x), got, want);
}

static void test_bf16_edges(void)
{
    expect_bf16(0.0f, 0x0000u, "0");
    expect_bf16(-0.0f, 0x8000u, "-0");
    expect_bf16(1.0f, 0x3F80u, "1");
    expect_bf16(-2.0f, 0xC000u, "-2");
    expect_bf16(0.1f, 0x3DCDu, "0.1 (0x3dcccccd: above the tie, up)");
    expect_bf16(3.0f, 0x4040u, "3");
    expect_bf16(float_of(0x3F808000u), 0x3F80u, "1 + 2^-8, a tie: to even (down)");
    expect_bf16(float_of(0x3F818000u), 0x3F82u, "1 + 3 * 2^-8, a tie: to even (up)");
    expect_bf16(float_of(0x3F808001u), 0x3F81u, "just above a tie: up");
    expect_bf16(float_of(0x3F807FFFu), 0x3F80u, "just below a tie: down");
    expect_bf16(float_of(0xBF808000u), 0xBF80u, "-(1 + 2^-8): to even, in magnitude");
    expect_bf16(float_of(0xBF818000u), 0xBF82u, "-(1 + 3 * 2^-8)");
    expect_bf16(float_of(0x7F7F0000u), 0x7F7Fu, "the largest bfloat16");
    expect_bf16(float_of(0x7F7F7FFFu), 0x7F7Fu, "just below halfway past it");
    expect_bf16(float_of(0x7F7F8000u), 0x7F80u, "halfway past the largest: to even, infinity");
    expect_bf16(3.4028235e38f, 0x7F80u, "FLT_MAX: infinity");
    expect_bf16(-3.4028235e38f, 0xFF80u, "-FLT_MAX: -infinity");
    expect_bf16(INFINITY, 0x7F80u, "inf");
    expect_bf16(-INFINITY, 0xFF80u, "-inf");
    expect_bf16(ldexpf(1.0f, -126), 0x0080u, "2^-126, the smallest normal");
    expect_bf16(ldexpf(1.0f, -133), 0x0001u, "2^-133, the smallest subnormal bfloat16");
    expect_bf16(-ldexpf(1.0f, -133), 0x8001u, "-2^-133");
    expect_bf16(ldexpf(1.0f, -134), 0x0000u, "2^-134, halfway to 2^-133: to even, 0");
    expect_bf16(ldexpf(3.0f, -134), 0x0002u, "3 * 2^-134, a tie: to even (2)");
    expect_bf16(float_of(0x00000001u), 0x0000u, "the smallest float subnormal: 0");
    expect_bf16(float_of(0x007FFFFFu), 0x0080u, "the largest float subnormal: up to 2^-126");
    expect_bf16(float_of(0x007F7FFFu), 0x007Fu, "a subnormal below a tie: down");

    uint16_t b = tsl_float_to_bf16(NAN);
    CHECK(is_nan_bf16(b) && (b & 0x0040u), "tsl_float_to_bf16(NaN) = 0x%04x, not a quiet NaN", b);
    b = tsl_float_to_bf16(-NAN);
    CHECK(is_nan_bf16(b) && (b & 0x8000u), "tsl_float_to_bf16(-NaN) = 0x%04x", b);
    /* payloads only in the dropped bits, and the largest NaN: never infinity or zero */
    const uint32_t nans[] = {0x7F800001u, 0xFF800001u, 0x7FFFFFFFu, 0xFFFFFFFFu, 0x7F80FFFFu};
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; ++i) {
        b = tsl_float_to_bf16(float_of(nans[i]));
        CHECK(is_nan_bf16(b) && (b & 0x8000u) == ((nans[i] >> 16) & 0x8000u),
              "tsl_float_to_bf16(NaN 0x%08x) = 0x%04x, not a NaN of its sign", nans[i], b);
    }
    CHECK(bits_of(tsl_bf16_to_float(0x3F80u)) == 0x3F800000u, "bf16_to_float(0x3f80)");
    CHECK(tsl_bf16_to_float(0x0001u) == ldexpf(1.0f, -133), "bf16_to_float(0x0001)");
    CHECK(bits_of(tsl_bf16_to_float(0x8000u)) == 0x80000000u, "bf16_to_float(0x8000) is -0");
    CHECK(isinf(tsl_bf16_to_float(0xFF80u)) && tsl_bf16_to_float(0xFF80u) < 0,
          "bf16_to_float(0xff80)");
    CHECK(isnan(tsl_bf16_to_float(0x7FC0u)), "bf16_to_float(0x7fc0)");
}

/* Every bfloat16: to float (exactly its bits, shifted) and back unchanged; NaN stays NaN with its
 * sign. */
static void test_bf16_round_trip(void)
{
    for (uint32_t i = 0; i < 0x10000u; ++i) {
        uint16_t b = (uint16_t)i, back = tsl_float_to_bf16(tsl_bf16_to_float(b));
        CHECK(bits_of(tsl_bf16_to_float(b)) == i << 16, "0x%04x -> float bits 0x%08x", b,
              bits_of(tsl_bf16_to_float(b)));
        if (is_nan_bf16(b))
            CHECK(is_nan_bf16(back) && (back & 0x8000u) == (b & 0x8000u),
                  "NaN 0x%04x came back as 0x%04x", b, back);
        else
            CHECK(back == b, "0x%04x -> %.9g -> 0x%04x", b, (double)tsl_bf16_to_float(b), back);
    }
}

/* Between every two neighbouring finite bfloat16s of one sign (and between the largest and 2^128,
 * where rounding meets infinity): the midpoint, a float, goes to the even one, a float step
 * either side to the nearer one. */
static void test_bf16_boundaries(void)
{
    for (uint32_t i = 0; i < 0x7F80u; ++i) {
        for (int neg = 0; neg < 2; ++neg) {
            uint16_t lo = (uint16_t)(i | (neg ? 0x8000u : 0)), hi = (uint16_t)(lo + 1);
            uint32_t mb = ((uint32_t)lo << 16) | 0x8000u; /* the midpoint's bits */
            double a = tsl_bf16_to_float(lo);
            double b = i == 0x7F7Fu ? (neg ? -0x1p128 : 0x1p128) : tsl_bf16_to_float(hi);
            CHECK((double)float_of(mb) == (a + b) / 2, "midpoint of 0x%04x", lo);
            uint16_t even = (lo & 1u) ? hi : lo; /* 0x7F80 (inf) is even */
            uint16_t got = tsl_float_to_bf16(float_of(mb));
            CHECK(got == even, "midpoint of 0x%04x and 0x%04x -> 0x%04x, want even 0x%04x", lo, hi,
                  got, even);
            got = tsl_float_to_bf16(float_of(mb - 1));
            CHECK(got == lo, "just below the midpoint of 0x%04x/0x%04x -> 0x%04x", lo, hi, got);
            got = tsl_float_to_bf16(float_of(mb + 1));
            CHECK(got == hi, "just above the midpoint of 0x%04x/0x%04x -> 0x%04x", lo, hi, got);
        }
    }
}

/* Seeded random float bit patterns: the result is a nearest bfloat16 (ties: the even one). */
static void test_bf16_random(void)
{
    unsigned long long st = 20261126ull;
    for (int i = 0; i < 200000; ++i) {
        double r;
        tsl_ref_fill_d(&r, 1, &st);
        float x = float_of((uint32_t)((r + 1.0) * 2147483648.0));
        if (isnan(x) || isinf(x)) continue;
        uint16_t b = tsl_float_to_bf16(x);
        double bx = tsl_bf16_to_float(b), err = fabs(bx - (double)x);
        if ((b & 0x7FFFu) == 0x7F80u) { /* overflow: only from halfway past the largest on */
            CHECK(fabs((double)x) >= 0x1.ffp127, "%.9g -> 0x%04x, infinity too early", (double)x,
                  b);
            continue;
        }
        for (int d = -1; d <= 1; d += 2) {
            uint16_t mag = b & 0x7FFFu, sign = b & 0x8000u;
            if ((d < 0 && mag == 0) || (d > 0 && mag >= 0x7F7Fu)) continue;
            double nb = tsl_bf16_to_float((uint16_t)(sign | (uint16_t)(mag + d)));
            double nerr = fabs(nb - (double)x);
            CHECK(err < nerr || (err == nerr && (b & 1u) == 0),
                  "%.9g -> 0x%04x (%.9g), but its neighbour %.9g is as near or nearer", (double)x,
                  b, bx, nb);
        }
    }
}

static int run_bf16(void)
{
    test_bf16_edges();
    test_bf16_round_trip();
    test_bf16_boundaries();
    test_bf16_random();
    return check_summary("test_half bf16");
}

/* The device's bfloat16 stores round as the host does: C = A B with k = 1, A every bfloat16, B
 * four values (1, 1 + 2^-7, 3, 2^-7); each product of two 8-bit significands is exact in
 * float, so C is the kernel's rounding of it. Run on the ladder (naive: the bfloat16 build of
 * common.cl's STORE) and on tiled2d's tensor-core path (MMA=4: its epilogue's). */
static int run_bf16_device(void)
{
    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(NULL, &ctx);
    CHECK(st == TSL_OK, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary("test_half bf16_device");
    enum { M = 65536, N = 4 };
    const uint16_t b[N] = {0x3F80u, 0x3F81u, 0x4040u, 0x3C00u /* 2^-7 */};
    uint16_t *a = malloc(M * sizeof *a), *c = malloc((size_t)M * N * sizeof *c);
    for (uint32_t i = 0; i < M; ++i)
        a[i] = (uint16_t)i;
    const char *variants[] = {"naive", "tiled2d:MMA=4,KSPLIT=1"};
    for (int v = 0; v < 2; ++v) {
        st = tsl_context_set_variant(ctx, "gemm", variants[v]);
        CHECK(st == TSL_OK, "set_variant %s: %s", variants[v], tsl_context_error(ctx));
        for (size_t i = 0; i < (size_t)M * N; ++i)
            c[i] = 0x7FC0u; /* beta == 0: never read */
        st = tsl_bgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, M, N, 1, 1.0f, a, 1, b, N,
                       0.0f, c, N);
        CHECK(st == TSL_OK, "tsl_bgemm(65536 x 4 x 1, %s): %s: %s", variants[v],
              tsl_status_name(st), tsl_context_error(ctx));
        size_t bad = 0;
        for (uint32_t i = 0; st == TSL_OK && i < M; ++i)
            for (int j = 0; j < N; ++j) {
                float prod = 0.0f + tsl_bf16_to_float(a[i]) * tsl_bf16_to_float(b[j]);
                uint16_t want = tsl_float_to_bf16(prod), got = c[(size_t)i * N + j];
                int same = is_nan_bf16(want) ? is_nan_bf16(got) : got == want;
                if (!same && ++bad <= 10)
                    CHECK(0, "%s: A = 0x%04x, B = 0x%04x: product %.9g, device 0x%04x, host 0x%04x",
                          variants[v], a[i], b[j], (double)prod, got, want);
            }
        CHECK(bad == 0, "%s: %zu of %d products rounded differently on the device", variants[v],
              bad, M * N);
    }
    free(a);
    free(c);
    tsl_context_destroy(ctx);
    return check_summary("test_half bf16_device");
}

static int run_convert(void)
{
    test_edges();
    test_round_trip();
    test_boundaries();
    test_random();
    return check_summary("test_half convert");
}

/* The device rounds as the host does: C = A B with k = 1, A every half (m = 65536 rows), B four
 * values; each product is exact in float, so C holds the device's rounding of it to half (of
 * 0 + the product, as the kernel sums from zero). */
static int run_device(void)
{
    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(NULL, &ctx);
    CHECK(st == TSL_OK, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary("test_half device");
    enum { M = 65536, N = 4 };
    const uint16_t b[N] = {0x3C00u /* 1 */, 0x3555u /* 0.33325 */, 0x4200u /* 3 */,
                           0x1400u /* 2^-10 */};
    uint16_t *a = malloc(M * sizeof *a), *c = malloc((size_t)M * N * sizeof *c);
    for (uint32_t i = 0; i < M; ++i)
        a[i] = (uint16_t)i;
    for (size_t i = 0; i < (size_t)M * N; ++i)
        c[i] = 0x7E00u; /* beta == 0: never read */
    st = tsl_hgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, M, N, 1, 1.0f, a, 1, b, N, 0.0f,
                   c, N);
    CHECK(st == TSL_OK, "tsl_hgemm(65536 x 4 x 1): %s: %s", tsl_status_name(st),
          tsl_context_error(ctx));
    size_t bad = 0;
    for (uint32_t i = 0; st == TSL_OK && i < M; ++i)
        for (int j = 0; j < N; ++j) {
            /* exact; the kernel's sum starts at +0, so -0 comes out as +0 */
            float prod = 0.0f + tsl_half_to_float(a[i]) * tsl_half_to_float(b[j]);
            uint16_t want = tsl_float_to_half(prod), got = c[(size_t)i * N + j];
            int same = is_nan_half(want) ? is_nan_half(got) : got == want;
            if (!same && ++bad <= 20)
                CHECK(0,
                      "A = 0x%04x, B = 0x%04x: product %.9g, device stored 0x%04x, host "
                      "rounds to 0x%04x",
                      a[i], b[j], (double)prod, got, want);
        }
    CHECK(bad == 0, "%zu of %d products rounded differently on the device", bad, M * N);
    free(a);
    free(c);
    tsl_context_destroy(ctx);
    return check_summary("test_half device");
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "convert") == 0) return run_convert();
    if (argc == 2 && strcmp(argv[1], "device") == 0) return run_device();
    if (argc == 2 && strcmp(argv[1], "bf16") == 0) return run_bf16();
    if (argc == 2 && strcmp(argv[1], "bf16_device") == 0) return run_bf16_device();
    fprintf(stderr, "usage: test_half convert|device|bf16|bf16_device\n");
    return 2;
}
