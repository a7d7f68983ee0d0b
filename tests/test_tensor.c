/* test_tensor.c: tiled2d's tensor-core configurations (docs/gemm.md, "Tensor cores"), run on the
 * test device (PoCL: their OpenCL C emulation, MMA_EMULATE, which reproduces the instructions'
 * fragment data path), one kind per process: `test_tensor half|bf16|tf32|3xtf32`. Each runs the
 * kind's configuration (MMA=4: m16n8k16 on 16-bit storage; MMA=5: m16n8k8 TF32, math mode TF32 or
 * 3xTF32) on odd shapes (1, 7, 33, 65, 127, 200: no multiple of any tile), both layouts, all four
 * transposes, alpha and beta (and beta == 0 over a C of NaN, which must not be read), through the
 * pack pre-pass, reading in place (DIRECT=1), split k (KSPLIT=4) and peeled edges (PEEL=2), and
 * checks every element of C against a reference in double computed from the operands the
 * instruction multiplies:
 *   half, bf16: the 16-bit inputs themselves (exact in float); C rounded to 16 bits once:
 *     |c - ref| <= u16 |ref| + (k + 2) 2^-23 S, S = |alpha| sum |a b| + |beta c0| (FP32 sums, at
 *     2^-23 a step: the tensor cores' FP32 accumulation need not round to nearest, and the same
 *     test runs the real instructions on an NVIDIA GPU);
 *   tf32: the inputs rounded as cvt.rna.tf32.f32 (to nearest, ties away from zero, 10 bits; the
 *     data holds exact ties, where ties-to-even would differ): |c - ref| <= (k + 2) 2^-23 S;
 *   3xtf32: the exact products of the float inputs: |c - ref| <= (2^-20 + (3k + 2) 2^-23) S (the
 *     split's remainder below 2^-22 |a b| per product, three products summed in FP32), the
 *     relative error ||C - ref|| / ||ref|| within plain FP32's pass threshold (1e-5 max(1,
 *     sqrt(k/64))), and at most a sixteenth of what TF32's rounding alone gives on the data.
 * Bad inputs: an unknown math mode, bfloat16 asked of an op without it, a ladder variant or an
 * FP32 configuration in TF32 math, a TF32 configuration in FP32 math. */
#include "check.h"
#include "odd_shapes.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { K_HALF, K_BF16, K_TF32, K_3XTF32 } kind_t;

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

/* cvt.rna.tf32.f32, as the kernels' tf32_rna (finite inputs here) */
static float tf32_rna(float x)
{
    return float_of((bits_of(x) + 0x1000u) & 0xFFFFE000u);
}

static uint16_t to16(kind_t k, float x)
{
    return k == K_HALF ? tsl_float_to_half(x) : tsl_float_to_bf16(x);
}

static float from16(kind_t k, uint16_t h)
{
    return k == K_HALF ? tsl_half_to_float(h) : tsl_bf16_to_float(h);
}

/* The tiles of the configurations: 64 x 16 per work-group of 8 x 8 items, two warps of
 * 32 x 16 (2 x 2 instruction tiles each), k-steps of two instruction depths. */
#define TILES16 "tiled2d:MWG=64,NWG=16,KWG=32,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1," \
                "VWA=1,DBUF=1,APAD=0,MMA=4,ASYNC=0,FPIPE=0"
#define TILES32 "tiled2d:MWG=64,NWG=16,KWG=16,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1," \
                "VWA=1,DBUF=1,APAD=0,MMA=5,ASYNC=0,FPIPE=0"

/* ASYNC: the same tiles fed by asynchronous copies into a ring of 3 (16-bit) or 2 (TF32) local
 * buffers and ldmatrix fragments (emulated here: tests the swizzle, the lanes' row addresses, the
 * ring's order and the fragments' double buffer, with two sub-steps a tile for 16-bit and one for
 * TF32); two warps of 32 x 32 over a 64 x 32 tile */
#define ASYNC16 "tiled2d:MWG=64,NWG=32,KWG=32,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=0,STRIDED=1," \
                "VWA=1,DBUF=0,APAD=0,MMA=4,ASYNC=3"
#define ASYNC32 "tiled2d:MWG=64,NWG=32,KWG=8,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=0,STRIDED=1," \
                "VWA=1,DBUF=0,APAD=0,MMA=5,ASYNC=2"
/* The 16-bit epilogue staged through the ring's buffers (beta 0) in several passes: 64 x 128
 * tiles over a 2-stage ring of k 16 hold 15 rows of C at a time (five passes, the last of 4) */
/* WG: wgmma's ring (emulated here: the core-matrix layout, the descriptors' addressing, the
 * ring's order and its lag, the accumulator layout), two warpgroups over a 128 x 64 tile, 3
 * stages (each step waits for the previous step's products) and 2 (for its own); TF32 on the
 * operands the pack rounds, 3xTF32 on the two planes it splits them into */
#define WG16 "tiled2d:MWG=128,NWG=64,KWG=32,MDIMC=8,NDIMC=32,VW=2,SA=1,SB=1,PF=0,STRIDED=1," \
             "VWA=1,DBUF=0,APAD=0,MMA=4,FPIPE=0,BT=1,WG=1,DIRECT=0,PEEL=1"
#define WG32 "tiled2d:MWG=128,NWG=64,KWG=16,MDIMC=8,NDIMC=32,VW=2,SA=1,SB=1,PF=0,STRIDED=1," \
             "VWA=1,DBUF=0,APAD=0,MMA=5,FPIPE=0,BT=1,WG=1,DIRECT=0,PEEL=1"
#define STAGED16 "tiled2d:MWG=64,NWG=128,KWG=16,MDIMC=8,NDIMC=16,VW=2,SA=1,SB=1,PF=0,STRIDED=1," \
                 "VWA=1,DBUF=0,APAD=0,MMA=4,ASYNC=2,FPIPE=1,KSPLIT=1,DIRECT=0,PEEL=1"


typedef struct {
    tsl_context *ctx;
    kind_t kind;
    unsigned long long seed;
    double worst_3x, worst_tf32_model; /* 3xtf32: the largest relative errors seen */
} suite;

/* One call: op(A) m x k, op(B) k x n, C m x n in the layout, leading dimensions padded by pad. */
static void run_case(suite *su, const char *variant, const shape *sh, tsl_layout lay,
                     tsl_trans ta, tsl_trans tb, float alpha, float beta, size_t pad)
{
    const kind_t kd = su->kind;
    const int is16 = kd == K_HALF || kd == K_BF16;
    const size_t m = sh->m, n = sh->n, k = sh->k;
    const int row = lay == TSL_ROW_MAJOR;
    /* stored shapes (rows x cols in the layout's sense: ld covers cols for row-major) */
    size_t ar = (ta == TSL_NO_TRANS) ? m : k, ac = (ta == TSL_NO_TRANS) ? k : m;
    size_t br = (tb == TSL_NO_TRANS) ? k : n, bc = (tb == TSL_NO_TRANS) ? n : k;
    size_t lda = (row ? ac : ar) + pad, ldb = (row ? bc : br) + pad, ldc = (row ? n : m) + pad;
    size_t na = (row ? ar : ac) * lda, nb = (row ? br : bc) * ldb, nc = (row ? m : n) * ldc;
    float *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c0 = malloc(nc * sizeof *c0);
    float *cf = malloc(nc * sizeof *cf);
    uint16_t *a16 = malloc(na * 2), *b16 = malloc(nb * 2), *c16 = malloc(nc * 2);
    tsl_ref_fill_f(a, na, &su->seed);
    tsl_ref_fill_f(b, nb, &su->seed);
    tsl_ref_fill_f(c0, nc, &su->seed);
    for (size_t i = 0; i < na; ++i) {
        if (kd == K_TF32 && i % 5 == 0) /* an exact tie of the TF32 rounding */
            a[i] = float_of((bits_of(a[i]) & 0xFFFFE000u) | 0x1000u);
        if (is16) a16[i] = to16(kd, a[i]), a[i] = from16(kd, a16[i]);
    }
    for (size_t i = 0; i < nb; ++i) {
        if (kd == K_TF32 && i % 7 == 0) b[i] = float_of((bits_of(b[i]) & 0xFFFFE000u) | 0x1000u);
        if (is16) b16[i] = to16(kd, b[i]), b[i] = from16(kd, b16[i]);
    }
    for (size_t i = 0; i < nc; ++i) {
        if (is16) c16[i] = beta != 0.0f ? to16(kd, c0[i]) : kd == K_HALF ? 0x7E00u : 0x7FC0u;
        if (is16 && beta != 0.0f) c0[i] = from16(kd, c16[i]);
        cf[i] = beta == 0.0f ? NAN : c0[i];
    }
    tsl_status st = tsl_context_set_variant(su->ctx, "gemm", variant);
    CHECK(st == TSL_OK, "set_variant %s: %s", variant, tsl_context_error(su->ctx));
    if (st == TSL_OK) {
        st = kd == K_HALF   ? tsl_hgemm(su->ctx, lay, ta, tb, m, n, k, alpha, a16, lda, b16, ldb,
                                        beta, c16, ldc)
             : kd == K_BF16 ? tsl_bgemm(su->ctx, lay, ta, tb, m, n, k, alpha, a16, lda, b16, ldb,
                                        beta, c16, ldc)
                            : tsl_sgemm(su->ctx, lay, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta,
                                        cf, ldc);
        CHECK(st == TSL_OK, "%s %zux%zux%zu: %s: %s", variant, m, n, k, tsl_status_name(st),
              tsl_context_error(su->ctx));
    }
    size_t bad = 0;
    double num = 0, den = 0, num_tf = 0;
    for (size_t i = 0; st == TSL_OK && i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            double sum = 0, abs_sum = 0, sum_tf = 0;
            for (size_t l = 0; l < k; ++l) {
                size_t ia = (row == (ta == TSL_NO_TRANS)) ? i * lda + l : l * lda + i;
                size_t ib = (row == (tb == TSL_NO_TRANS)) ? l * ldb + j : j * ldb + l;
                double x = a[ia], y = b[ib];
                if (kd == K_TF32) x = tf32_rna(a[ia]), y = tf32_rna(b[ib]);
                sum += x * y;
                abs_sum += fabs(x * y);
                sum_tf += (double)tf32_rna(a[ia]) * (double)tf32_rna(b[ib]);
            }
            size_t ic = row ? i * ldc + j : j * ldc + i;
            double c_in = beta == 0.0f ? 0.0 : c0[ic];
            double ref = alpha * sum + beta * c_in;
            double s = fabs(alpha) * abs_sum + fabs(beta * c_in);
            double got = is16 ? from16(kd, c16[ic]) : cf[ic];
            double u16 = kd == K_HALF ? 0x1p-11 : kd == K_BF16 ? 0x1p-8 : 0.0;
            double acc = kd == K_3XTF32 ? 0x1p-20 + (3.0 * (double)k + 2.0) * 0x1p-23
                                        : ((double)k + 2.0) * 0x1p-23;
            double bound = u16 * fabs(ref) + acc * s * (1.0 + u16);
            if (!(fabs(got - ref) <= bound) && ++bad <= 5)
                CHECK(0,
                      "%s %s %c%c %zux%zux%zu alpha %g beta %g: C[%zu][%zu] = %.9g, reference "
                      "%.9g, error %.3g > bound %.3g",
                      variant, row ? "row" : "col", ta == TSL_TRANS ? 'T' : 'N',
                      tb == TSL_TRANS ? 'T' : 'N', m, n, k, (double)alpha, (double)beta, i, j, got,
                      ref, fabs(got - ref), bound);
            num += (got - ref) * (got - ref);
            den += ref * ref;
            double ref_tf = alpha * sum_tf + beta * c_in;
            num_tf += (ref_tf - ref) * (ref_tf - ref);
        }
    CHECK(bad == 0, "%s %zux%zux%zu: %zu elements out of bounds", variant, m, n, k, bad);
    if (st == TSL_OK && kd == K_3XTF32 && den > 0) {
        double rel = sqrt(num / den), tol = tsl_ref_gemm_tolerance(TSL_SINGLE, k);
        CHECK(rel <= tol, "3xtf32 %s %zux%zux%zu: relative error %.3g above FP32's bound %.3g",
              variant, m, n, k, rel, tol);
        if (k >= 7) { /* enough products for TF32's rounding to show */
            double rel_tf = sqrt(num_tf / den);
            CHECK(rel * 16 <= rel_tf,
                  "3xtf32 %s %zux%zux%zu: relative error %.3g, not below TF32's %.3g / 16", variant,
                  m, n, k, rel, rel_tf);
            if (rel > su->worst_3x) su->worst_3x = rel;
            if (rel_tf > su->worst_tf32_model) su->worst_tf32_model = rel_tf;
        }
    }
    free(a), free(b), free(c0), free(cf), free(a16), free(b16), free(c16);
}

/* One configuration (async: an ASYNC one, which never reads in place) over the cases. */
static void run_config(suite *su, const char *base, int async)
{
    char packed[320], direct[320], split[320], peel[320];
    snprintf(packed, sizeof packed, "%s,KSPLIT=1,DIRECT=0,PEEL=1", base);
    snprintf(direct, sizeof direct, "%s,KSPLIT=1,DIRECT=1,PEEL=1", base);
    snprintf(split, sizeof split, "%s,KSPLIT=4,DIRECT=0,PEEL=1", base);
    snprintf(peel, sizeof peel, "%s,KSPLIT=1,DIRECT=0,PEEL=2", base);
    const tsl_layout lays[2] = {TSL_ROW_MAJOR, TSL_COL_MAJOR};
    const tsl_trans tr[2] = {TSL_NO_TRANS, TSL_TRANS};
    /* the pre-pass: every shape, layout and transpose; beta 0 (C never read) every other case */
    int n = 0;
    for (size_t s = 0; s < NSHAPES - 2; ++s)
        for (int l = 0; l < 2; ++l)
            for (int t = 0; t < 4; ++t, ++n)
                run_case(su, packed, &shapes[s], lays[l], tr[t / 2], tr[t % 2], n % 3 ? 0.75f : -1.5f,
                         n % 2 ? 0.0f : 0.5f, 1 + (size_t)n % 2);
    /* in place (the transposed operands are still packed) */
    for (size_t s = 0; s < NSHAPES && !async; ++s)
        for (int t = 0; t < 2; ++t)
            run_case(su, direct, &shapes[s], lays[s % 2], tr[t], tr[t], 1.25f, t ? 0.0f : -0.5f,
                     2 * t);
    /* split k: slices of float partial sums (16-bit C rounded once, by the sum pass) */
    const shape long_k[] = {{7, 33, 65}, {127, 65, 200}, {33, 9, 127}};
    for (int s = 0; s < 3; ++s)
        for (int l = 0; l < 2; ++l)
            run_case(su, split, &long_k[s], lays[l], tr[l], TSL_NO_TRANS, 0.5f, l ? 0.0f : 1.0f, 1);
    /* peeled rows and columns (gemm_edge, straight from the caller's operands) */
    for (size_t s = NSHAPES - 2; s < NSHAPES; ++s)
        for (int l = 0; l < 2; ++l)
            for (int t = 0; t < 2; ++t)
                run_case(su, peel, &shapes[s], lays[l], tr[t], tr[l], -0.75f, t ? 0.25f : 0.0f, 1);
}

static void run_kind(suite *su)
{
    int is16 = su->kind == K_HALF || su->kind == K_BF16;
    run_config(su, is16 ? TILES16 : TILES32, 0);
    /* ASYNC with double-buffered fragments (FPIPE=1) over every case; with one set (FPIPE=0,
     * the same copies and fragment reads in a simpler loop) over the shapes once */
    char fp[320];
    snprintf(fp, sizeof fp, "%s,FPIPE=1", is16 ? ASYNC16 : ASYNC32);
    run_config(su, fp, 1);
    /* the staged epilogue's passes over the odd shapes (C's rows stored element by element),
     * and over C's rows of whole 16-byte chunks (ldc 136 and 104: vector stores, the ragged
     * last columns and rows element by element), both layouts */
    const shape aligned[] = {{96, 136, 40}, {101, 104, 24}, {104, 72, 24}};
    for (size_t s = 0; is16 && s < NSHAPES; ++s)
        run_case(su, STAGED16, &shapes[s], s % 2 ? TSL_COL_MAJOR : TSL_ROW_MAJOR, TSL_NO_TRANS,
                 s % 3 ? TSL_NO_TRANS : TSL_TRANS, 1.25f, 0.0f, s % 2);
    for (int s = 0; is16 && s < 3; ++s)
        run_case(su, STAGED16, &aligned[s], s < 2 ? TSL_ROW_MAJOR : TSL_COL_MAJOR, TSL_NO_TRANS,
                 TSL_NO_TRANS, -0.5f, 0.0f, 0);
    /* WG over the shapes, both layouts and every transpose (3 stages), split k once (2); 3xTF32
     * (the pack's two planes, the fresh accumulators in turn) over the shapes */
    {
        const char *wg = is16 ? WG16 : WG32;
        snprintf(fp, sizeof fp, "%s,ASYNC=3,KSPLIT=1", wg);
        for (size_t s = 0; s < NSHAPES; ++s)
            run_case(su, fp, &shapes[s], s % 2 ? TSL_COL_MAJOR : TSL_ROW_MAJOR,
                     s % 3 ? TSL_NO_TRANS : TSL_TRANS, s % 4 < 2 ? TSL_NO_TRANS : TSL_TRANS, -0.75f,
                     s % 2 ? 0.0f : 1.5f, s % 2);
        snprintf(fp, sizeof fp, "%s,ASYNC=2,KSPLIT=4", wg);
        if (su->kind != K_3XTF32)
            run_case(su, fp, &shapes[4], TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_TRANS, 0.5f, 1.0f, 1);
    }
    /* the rest moves the same bits for half and bfloat16: half checks it (PoCL's compile time) */
    if (su->kind == K_BF16) return;
    snprintf(fp, sizeof fp, "%s,FPIPE=0,KSPLIT=1,DIRECT=0,PEEL=1", is16 ? ASYNC16 : ASYNC32);
    for (size_t s = 0; s < NSHAPES; ++s)
        run_case(su, fp, &shapes[s], s % 2 ? TSL_COL_MAJOR : TSL_ROW_MAJOR,
                 s % 3 ? TSL_NO_TRANS : TSL_TRANS, TSL_NO_TRANS, 0.5f, s % 2 ? 0.0f : 2.0f, s % 2);
    /* BT: B packed transposed and read by ldmatrix as A is (TF32 math: both operands rounded by
     * the pack, the kernel's conversions skipped), over the shapes, both layouts and
     * transposes of B, split k once */
    snprintf(fp, sizeof fp, "%s,FPIPE=1,BT=1,KSPLIT=1,DIRECT=0,PEEL=1", is16 ? ASYNC16 : ASYNC32);
    for (size_t s = 0; s < NSHAPES; ++s)
        run_case(su, fp, &shapes[s], s % 2 ? TSL_ROW_MAJOR : TSL_COL_MAJOR, TSL_NO_TRANS,
                 s % 3 ? TSL_TRANS : TSL_NO_TRANS, -1.0f, s % 2 ? 0.5f : 0.0f, s % 2);
    snprintf(fp, sizeof fp, "%s,FPIPE=1,BT=1,KSPLIT=4,DIRECT=0,PEEL=1", is16 ? ASYNC16 : ASYNC32);
    run_case(su, fp, &shapes[4], TSL_ROW_MAJOR, TSL_TRANS, TSL_NO_TRANS, 0.5f, 1.0f, 1);
}

/* Wrong math modes and precisions are refused with a message, never run. */
static void test_bad_inputs(tsl_context *ctx)
{
    tsl_status st = tsl_context_set_option(ctx, "gemm", "math", 3);
    CHECK(st == TSL_ERR_INVALID_ARG && check_mentions(tsl_context_error(ctx), "math"),
          "math = 3: %s: %s", tsl_status_name(st), tsl_context_error(ctx));
    st = tsl_context_set_option(ctx, "gemm", "math", -1);
    CHECK(st == TSL_ERR_INVALID_ARG, "math = -1: %s", tsl_status_name(st));
    st = tsl_context_set_option(ctx, "gemm", "mathematics", 1);
    CHECK(st == TSL_ERR_INVALID_ARG, "option 'mathematics': %s", tsl_status_name(st));
    st = tsl_variant_check_precision(ctx, "transpose", "auto", TSL_BFLOAT16, NULL);
    CHECK(st == TSL_ERR_UNSUPPORTED && check_mentions(tsl_context_error(ctx), "bfloat16"),
          "transpose in bfloat16: %s: %s", tsl_status_name(st), tsl_context_error(ctx));
    st = tsl_variant_check_precision(ctx, "gemm", "auto", (tsl_precision)4, NULL);
    CHECK(st == TSL_ERR_INVALID_ARG, "precision 4: %s", tsl_status_name(st));
    st = tsl_variant_check_precision(ctx, "gemm", "naive", TSL_BFLOAT16, NULL);
    CHECK(st == TSL_OK, "naive in bfloat16: %s: %s", tsl_status_name(st), tsl_context_error(ctx));
    /* an FP32 configuration with 16-bit storage; a TF32 one in FP32 math */
    st = tsl_variant_check_precision(ctx, "gemm", "tiled2d:MMA=0", TSL_HALF, NULL);
    CHECK(st == TSL_ERR_UNSUPPORTED && check_mentions(tsl_context_error(ctx), "MMA"),
          "tiled2d:MMA=0 in half: %s: %s", tsl_status_name(st), tsl_context_error(ctx));
    st = tsl_variant_check_precision(ctx, "gemm", "tiled2d:MMA=5", TSL_SINGLE, NULL);
    CHECK(st == TSL_ERR_UNSUPPORTED, "tiled2d:MMA=5 in FP32 math: %s", tsl_status_name(st));
    /* in TF32 math: a ladder variant, or tiled2d's FMA kernel, cannot give the TF32 result */
    float a[4] = {1, 2, 3, 4}, c[4] = {0};
    CHECK(tsl_context_set_option(ctx, "gemm", "math", TSL_MATH_TF32) == TSL_OK, "math TF32");
    CHECK(tsl_context_set_variant(ctx, "gemm", "naive") == TSL_OK, "naive can be named");
    st = tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1.0f, a, 2, a, 2, 0.0f,
                   c, 2);
    CHECK(st == TSL_ERR_UNSUPPORTED && check_mentions(tsl_context_error(ctx), "TF32"),
          "naive in TF32 math: %s: %s", tsl_status_name(st), tsl_context_error(ctx));
    CHECK(c[0] == 0 && c[3] == 0, "a refused call wrote C");
    st = tsl_variant_check_precision(ctx, "gemm", "tiled2d:MMA=0", TSL_SINGLE, NULL);
    CHECK(st == TSL_ERR_UNSUPPORTED, "tiled2d:MMA=0 in TF32 math: %s", tsl_status_name(st));
    const char *resolved = NULL;
    st = tsl_variant_check_precision(ctx, "gemm", "auto", TSL_SINGLE, &resolved);
    CHECK(st == TSL_OK && resolved && strcmp(resolved, "tiled2d") == 0,
          "auto in TF32 math: %s, %s", tsl_status_name(st), resolved ? resolved : "(null)");
    /* double ignores the math mode; FP32 again is the default */
    CHECK(tsl_context_set_option(ctx, "gemm", "math", TSL_MATH_FP32) == TSL_OK, "math FP32");
    CHECK(tsl_context_set_variant(ctx, "gemm", "auto") == TSL_OK, "auto");
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"half", "bf16", "tf32", "3xtf32", "bad"};
    int which = -1;
    for (int i = 0; argc == 2 && i < 5; ++i)
        if (strcmp(argv[1], names[i]) == 0) which = i;
    if (which < 0) {
        fprintf(stderr, "usage: test_tensor half|bf16|tf32|3xtf32|bad\n");
        return 2;
    }
    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(NULL, &ctx);
    CHECK(st == TSL_OK, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary("test_tensor");
    if (which == 4) {
        test_bad_inputs(ctx);
    } else {
        suite su = {ctx, (kind_t)which, 20261126ull + (unsigned)which, 0, 0};
        if (which >= K_TF32) {
            st = tsl_context_set_option(ctx, "gemm", "math",
                                        which == K_TF32 ? TSL_MATH_TF32 : TSL_MATH_3XTF32);
            CHECK(st == TSL_OK, "math: %s", tsl_context_error(ctx));
        }
        run_kind(&su);
        if (which == K_3XTF32)
            printf("3xtf32: worst relative error %.3g (TF32's rounding alone: %.3g)\n",
                   su.worst_3x, su.worst_tf32_model);
    }
    tsl_context_destroy(ctx);
    char title[32];
    snprintf(title, sizeof title, "test_tensor %s", names[which]);
    return check_summary(title);
}
