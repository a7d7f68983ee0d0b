/* test_dmma_async.c: tiled2d's FP64 tensor-core configurations fed by the asynchronous ring
 * (ASYNC with MMA = 1 m8n8k4, 2 m16n8k8, 3 m16n8k16), run on the test device
 * (PoCL: the emulation, MMA_EMULATE, where a cp.async is a 16-byte move and the fragments are the
 * same plain local reads of A staged [m][k] in rows padded by 4 doubles and B [k][n] padded by 8),
 * one shard per process: `test_dmma_async m1|m2|m3|batch`.
 *   m2: m16n8k8, 64 x 128 x 8 tiles of 8 warps with ASYNC=3 and FPIPE=1 over every case below;
 *       128 x 128 x 8 with ASYNC=2, FPIPE=0 over the shapes;
 *   m1: m8n8k4, 64 x 64 x 16 ASYNC=2 FPIPE=1 (four sub-steps a tile through the fragment double
 *       buffer) over every case; 32 x 64 x 8 ASYNC=4 FPIPE=0 over the shapes;
 *   m3: m16n8k16 (8 A registers a lane), 64 x 32 x 16 ASYNC=3 FPIPE=1 over every case; 32 x 32 x
 *       32 ASYNC=2 FPIPE=1 (rows of 16 chunks, no swizzle limit for doubles) over the shapes;
 *   batch: the BATCH mode (one tiled2d launch for the batch, which tsl__gemm_ext_ok must grant:
 *       operands in whole 16-byte chunks), a batch whose odd lda needs the pre-pass (the
 *       problem-per-GEMM path), and BATCH's STAIR mode (TRSM's F products), with 64 x 128 x 8
 *       ASYNC=3 FPIPE=1.
 * "Every case": odd shapes (1, 7, 33, 65, 127, 200 and peeled 67 x 18, 130 x 17: no multiple of
 * any tile), both layouts, all four transposes, alpha and beta (beta == 0 over a C of NaN, which
 * must not be read), padded leading dimensions, split k (KSPLIT=4), peeled edges (PEEL=2), and a
 * C of 10 tile rows (bands of 8 tile rows: the launch order's ragged last band). Every element
 * of C is checked against a long-double reference: |c - ref| <= (k + 4) 2^-52 S, S = |alpha|
 * sum |a b| + |beta c0| (each FP64 fused step rounds once). The triangle modes (TRI) run through
 * SYRK and TRMM in tests/level3.cmake (lib_level3_*_async64). Every configuration fits the 48 KiB
 * of local memory NVIDIA's OpenCL gives a work-group, so the same binary runs the real PTX on a
 * GPU (TESSEL_DEVICE=nvidia runs it there). */
#include "check.h"
#include "odd_shapes.h"
#include "ops/ops.h"
#include "runtime/runtime.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the ring needs beside the tiles: both tiles staged, no register prefetch, VW = 2 (one
 * 16-byte chunk: the host's packing rule) */
#define RING "SA=1,SB=1,PF=0,DBUF=0,STRIDED=1,VWA=1,APAD=0,VW=2"
#define M2_A "tiled2d:MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,MMA=2,ASYNC=3,FPIPE=1," RING
#define M2_B "tiled2d:MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,MMA=2,ASYNC=2,FPIPE=0," RING
#define M1_A "tiled2d:MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,MMA=1,ASYNC=2,FPIPE=1," RING
#define M1_B "tiled2d:MWG=32,NWG=64,KWG=8,MDIMC=4,NDIMC=16,MMA=1,ASYNC=4,FPIPE=0," RING
#define M3_A "tiled2d:MWG=64,NWG=32,KWG=16,MDIMC=8,NDIMC=8,MMA=3,ASYNC=3,FPIPE=1," RING
#define M3_B "tiled2d:MWG=32,NWG=32,KWG=32,MDIMC=4,NDIMC=8,MMA=3,ASYNC=2,FPIPE=1," RING


static tsl_context *g_ctx;
static unsigned long long g_seed = 20261127ull;

/* The long-double reference of element (i, j) and its bound, from A, B (stored as the layout and
 * transposes say) and C's starting value. */
static void ref_elem(int row, tsl_trans ta, tsl_trans tb, size_t i, size_t j, size_t k,
                     double alpha, const double *a, size_t lda, const double *b, size_t ldb,
                     double beta, double c_in, double *ref, double *bound)
{
    long double sum = 0, abs_sum = 0;
    for (size_t l = 0; l < k; ++l) {
        size_t ia = (row == (ta == TSL_NO_TRANS)) ? i * lda + l : l * lda + i;
        size_t ib = (row == (tb == TSL_NO_TRANS)) ? l * ldb + j : j * ldb + l;
        long double p = (long double)a[ia] * b[ib];
        sum += p;
        abs_sum += fabsl(p);
    }
    *ref = (double)((long double)alpha * sum + (long double)beta * c_in);
    double s = fabs(alpha) * (double)abs_sum + fabs(beta * c_in);
    *bound = ((double)k + 4.0) * 0x1p-52 * s;
}

/* One call: op(A) m x k, op(B) k x n, C m x n in the layout, leading dimensions padded by pad;
 * every element of C checked. */
static void run_case(const char *variant, const shape *sh, tsl_layout lay, tsl_trans ta,
                     tsl_trans tb, double alpha, double beta, size_t pad)
{
    const size_t m = sh->m, n = sh->n, k = sh->k;
    const int row = lay == TSL_ROW_MAJOR;
    size_t ar = ta == TSL_NO_TRANS ? m : k, ac = ta == TSL_NO_TRANS ? k : m;
    size_t br = tb == TSL_NO_TRANS ? k : n, bc = tb == TSL_NO_TRANS ? n : k;
    size_t lda = (row ? ac : ar) + pad, ldb = (row ? bc : br) + pad, ldc = (row ? n : m) + pad;
    size_t na = (row ? ar : ac) * lda, nb = (row ? br : bc) * ldb, nc = (row ? m : n) * ldc;
    double *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b);
    double *c0 = malloc(nc * sizeof *c0), *c = malloc(nc * sizeof *c);
    tsl_ref_fill_d(a, na, &g_seed);
    tsl_ref_fill_d(b, nb, &g_seed);
    tsl_ref_fill_d(c0, nc, &g_seed);
    for (size_t i = 0; i < nc; ++i) c[i] = beta == 0.0 ? NAN : c0[i];
    tsl_status st = tsl_context_set_variant(g_ctx, "gemm", variant);
    CHECK(st == TSL_OK, "set_variant %s: %s", variant, tsl_context_error(g_ctx));
    if (st == TSL_OK) {
        st = tsl_dgemm(g_ctx, lay, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        CHECK(st == TSL_OK, "%s %zux%zux%zu: %s: %s", variant, m, n, k, tsl_status_name(st),
              tsl_context_error(g_ctx));
    }
    size_t bad = 0;
    for (size_t i = 0; st == TSL_OK && i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            size_t ic = row ? i * ldc + j : j * ldc + i;
            double ref, bound;
            ref_elem(row, ta, tb, i, j, k, alpha, a, lda, b, ldb, beta,
                     beta == 0.0 ? 0.0 : c0[ic], &ref, &bound);
            if (!(fabs(c[ic] - ref) <= bound) && ++bad <= 3)
                CHECK(0,
                      "%s %s %c%c %zux%zux%zu alpha %g beta %g: C[%zu][%zu] = %.17g, reference "
                      "%.17g, error %.3g > bound %.3g",
                      variant, row ? "row" : "col", ta == TSL_TRANS ? 'T' : 'N',
                      tb == TSL_TRANS ? 'T' : 'N', m, n, k, alpha, beta, i, j, c[ic], ref,
                      fabs(c[ic] - ref), bound);
        }
    CHECK(bad == 0, "%s %zux%zux%zu: %zu elements out of bounds", variant, m, n, k, bad);
    free(a), free(b), free(c0), free(c);
}

static const tsl_trans tr[2] = {TSL_NO_TRANS, TSL_TRANS};

/* The shapes once each, layouts and transposes rotating (a configuration's second tiles) */
static void run_shapes(const char *base)
{
    char v[320];
    snprintf(v, sizeof v, "%s,KSPLIT=1,DIRECT=0,PEEL=1", base);
    for (size_t s = 0; s < NSHAPES; ++s)
        run_case(v, &shapes[s], s % 2 ? TSL_COL_MAJOR : TSL_ROW_MAJOR, tr[s % 3 == 0],
                 tr[s % 4 == 1], s % 3 ? 0.75 : -1.5, s % 2 ? 0.0 : 0.5, s % 2);
}

/* Every case over one configuration: the pre-pass over every shape, layout and transpose; split
 * k; peeled edges; a C of 10 tile rows and 3 tile columns (two launch bands) */
static void run_all(const char *base, size_t mwg, size_t nwg)
{
    char packed[320], split[320], peel[320];
    snprintf(packed, sizeof packed, "%s,KSPLIT=1,DIRECT=0,PEEL=1", base);
    snprintf(split, sizeof split, "%s,KSPLIT=4,DIRECT=0,PEEL=1", base);
    snprintf(peel, sizeof peel, "%s,KSPLIT=1,DIRECT=0,PEEL=2", base);
    const tsl_layout lays[2] = {TSL_ROW_MAJOR, TSL_COL_MAJOR};
    int n = 0;
    for (size_t s = 0; s < NSHAPES - 2; ++s)
        for (int l = 0; l < 2; ++l)
            for (int t = 0; t < 4; ++t, ++n)
                run_case(packed, &shapes[s], lays[l], tr[t / 2], tr[t % 2], n % 3 ? 0.75 : -1.5,
                         n % 2 ? 0.0 : 0.5, 1 + (size_t)n % 2);
    const shape long_k[] = {{7, 33, 65}, {127, 65, 200}, {33, 9, 127}};
    for (int s = 0; s < 3; ++s)
        for (int l = 0; l < 2; ++l)
            run_case(split, &long_k[s], lays[l], tr[l], TSL_NO_TRANS, 0.5, l ? 0.0 : 1.0, 1);
    for (size_t s = NSHAPES - 2; s < NSHAPES; ++s)
        for (int l = 0; l < 2; ++l)
            run_case(peel, &shapes[s], lays[l], tr[l], tr[1 - l], -0.75, l ? 0.25 : 0.0, 1);
    const shape bands = {9 * mwg + 5, 2 * nwg + 3, 24};
    run_case(packed, &bands, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 1.0, 0.5, 0);
}

/* Strided batched GEMM through the context's configuration: count problems of m x n x k
 * (row-major or column-major NN), strides and leading dimensions as given; every element of
 * every problem checked, and the gaps between problems' C left as they were. */
static void batch_case(tsl_layout lay, size_t m, size_t n, size_t k, size_t lda, size_t ldb,
                       size_t count, double beta)
{
    const int row = lay == TSL_ROW_MAJOR;
    size_t ldc = (row ? n : m) + 3;
    size_t sa = (row ? m : k) * lda + 2, sb = (row ? k : n) * ldb + 4, sc = (row ? m : n) * ldc;
    size_t na = count * sa, nb = count * sb, nc = count * sc;
    double *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b);
    double *c0 = malloc(nc * sizeof *c0), *c = malloc(nc * sizeof *c);
    tsl_ref_fill_d(a, na, &g_seed);
    tsl_ref_fill_d(b, nb, &g_seed);
    tsl_ref_fill_d(c0, nc, &g_seed);
    memcpy(c, c0, nc * sizeof *c);
    double alpha = -1.25;
    tsl_status st = tsl_dgemm_batched(g_ctx, lay, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, alpha, a,
                                      lda, sa, b, ldb, sb, beta, c, ldc, sc, count);
    CHECK(st == TSL_OK, "batched %zux%zux%zu x %zu: %s: %s", m, n, k, count, tsl_status_name(st),
          tsl_context_error(g_ctx));
    size_t bad = 0, touched = 0;
    for (size_t z = 0; st == TSL_OK && z < count; ++z)
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
                size_t ic = z * sc + (row ? i * ldc + j : j * ldc + i);
                double ref, bound;
                ref_elem(row, TSL_NO_TRANS, TSL_NO_TRANS, i, j, k, alpha, a + z * sa, lda,
                         b + z * sb, ldb, beta, c0[ic], &ref, &bound);
                if (!(fabs(c[ic] - ref) <= bound) && ++bad <= 3)
                    CHECK(0, "batched %s %zux%zux%zu problem %zu: C[%zu][%zu] = %.17g, ref %.17g",
                          row ? "row" : "col", m, n, k, z, i, j, c[ic], ref);
            }
    for (size_t z = 0; z < count; ++z) /* the padding of each C's rows: never written */
        for (size_t r = 0; r < (row ? m : n); ++r)
            for (size_t j = (row ? n : m); j < ldc; ++j)
                touched += memcmp(&c[z * sc + r * ldc + j], &c0[z * sc + r * ldc + j], 8) != 0;
    CHECK(bad == 0 && touched == 0, "batched %zux%zux%zu: %zu elements out of bounds, %zu "
          "padding elements written", m, n, k, bad, touched);
    free(a), free(b), free(c0), free(c);
}

/* STAIR (ops.h, TRSM's F products): a row-major batch of count problems m x n x k whose problem z
 * needs only part of C_z: rows from (z + 1) step on (stair 1), rows before z step (2), or those
 * columns (3, 4). Every element of that part must be the reference; every other one the
 * reference (a tile crossing the line computes it) or untouched, and some must be untouched (the
 * tiles wholly outside did nothing). */
static void stair_case(int stair, size_t m, size_t n, size_t k, size_t count, size_t step)
{
    size_t lda = k + 2, ldb = n + 2, ldc = n + 2, sa = m * lda, sb = k * ldb, sc = m * ldc;
    double *a = malloc(count * sa * sizeof *a), *b = malloc(count * sb * sizeof *b);
    double *c0 = malloc(count * sc * sizeof *c0), *c = malloc(count * sc * sizeof *c);
    tsl_ref_fill_d(a, count * sa, &g_seed);
    tsl_ref_fill_d(b, count * sb, &g_seed);
    tsl_ref_fill_d(c0, count * sc, &g_seed);
    tsl_buffer *ab = NULL, *bb = NULL, *cb = NULL;
    tsl_status st = tsl_buffer_create(g_ctx, count * sa * 8, &ab);
    if (st == TSL_OK) st = tsl_buffer_create(g_ctx, count * sb * 8, &bb);
    if (st == TSL_OK) st = tsl_buffer_create(g_ctx, count * sc * 8, &cb);
    if (st == TSL_OK) st = tsl_buffer_write(g_ctx, ab, 0, count * sa * 8, a);
    if (st == TSL_OK) st = tsl_buffer_write(g_ctx, bb, 0, count * sb * 8, b);
    if (st == TSL_OK) st = tsl_buffer_write(g_ctx, cb, 0, count * sc * 8, c0);
    tsl__gemm_ext ext = {.batch = count,
                         .a_stride = sa,
                         .b_stride = sb,
                         .c_stride = sc,
                         .stair = stair,
                         .stair_step = step};
    double alpha = -1.25, beta = 0.5;
    tsl__gemm_call g = {.prec = TSL_DOUBLE,
                        .ta = TSL_NO_TRANS,
                        .tb = TSL_NO_TRANS,
                        .m = m,
                        .n = n,
                        .k = k,
                        .alpha = alpha,
                        .a = {st == TSL_OK ? ab->mem : NULL, 0, lda},
                        .b = {st == TSL_OK ? bb->mem : NULL, 0, ldb},
                        .beta = beta,
                        .c = {st == TSL_OK ? cb->mem : NULL, 0, ldc}};
    CHECK(st != TSL_OK || tsl__gemm_ext_ok(g_ctx, &g, &ext),
          "stair %d: the batch runs as one tiled2d launch", stair);
    if (st == TSL_OK) st = tsl__gemm_mem_ext(g_ctx, &g, &ext);
    if (st == TSL_OK) st = tsl_buffer_read(g_ctx, cb, 0, count * sc * 8, c);
    CHECK(st == TSL_OK, "stair %d %zux%zux%zu: %s: %s", stair, m, n, k, tsl_status_name(st),
          tsl_context_error(g_ctx));
    size_t bad = 0, untouched = 0;
    for (size_t z = 0; st == TSL_OK && z < count; ++z)
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) {
                size_t ic = z * sc + i * ldc + j, x = stair <= 2 ? i : j;
                int in = stair % 2 ? x >= (z + 1) * step : x < z * step;
                double ref, bound;
                ref_elem(1, TSL_NO_TRANS, TSL_NO_TRANS, i, j, k, alpha, a + z * sa, lda,
                         b + z * sb, ldb, beta, c0[ic], &ref, &bound);
                int same = memcmp(&c[ic], &c0[ic], sizeof *c) == 0;
                untouched += !in && same;
                if (!(fabs(c[ic] - ref) <= bound) && (in || !same) && ++bad <= 3)
                    CHECK(0, "stair %d problem %zu: C[%zu][%zu] = %.17g, ref %.17g (%s)", stair, z,
                          i, j, c[ic], ref, in ? "needed" : "outside");
            }
    CHECK(st != TSL_OK || (bad == 0 && untouched > 0),
          "stair %d %zux%zux%zu step %zu: %zu wrong, %zu outside untouched", stair, m, n, k, step,
          bad, untouched);
    tsl_buffer_destroy(ab), tsl_buffer_destroy(bb), tsl_buffer_destroy(cb);
    free(a), free(b), free(c0), free(c);
}

static void run_batch(void)
{
    const char *v = M2_A ",KSPLIT=0,DIRECT=0,PEEL=0";
    tsl_status st = tsl_context_set_variant(g_ctx, "gemm", v);
    CHECK(st == TSL_OK, "set_variant %s: %s", v, tsl_context_error(g_ctx));
    CHECK(tsl_context_set_variant(g_ctx, "gemm_batched", "tiled") == TSL_OK, "gemm_batched tiled");
    /* whole tiles, rows and strides of whole 16-byte chunks: the one batched launch (BATCH=1) */
    tsl__gemm_ext ext = {.batch = 3, .a_stride = 128 * 42 + 2, .b_stride = 40 * 260 + 4};
    tsl__gemm_call g = {.prec = TSL_DOUBLE,
                        .ta = TSL_NO_TRANS,
                        .tb = TSL_NO_TRANS,
                        .m = 128,
                        .n = 256,
                        .k = 40,
                        .alpha = 1.0,
                        .a = {NULL, 0, 42},
                        .b = {NULL, 0, 260},
                        .c = {NULL, 0, 1}};
    CHECK(tsl__gemm_ext_ok(g_ctx, &g, &ext), "the ring's batch runs as one tiled2d launch");
    batch_case(TSL_ROW_MAJOR, 128, 256, 40, 42, 260, 3, 0.5);
    /* column-major: the row-major problem is C^T = B^T A^T, 128 x 128 */
    batch_case(TSL_COL_MAJOR, 128, 128, 24, 130, 26, 2, 0.0);
    /* an odd lda is no whole chunks: the pre-pass, a GEMM per problem */
    ext.a_stride = 128 * 41 + 2;
    g.a.ld = 41;
    CHECK(!tsl__gemm_ext_ok(g_ctx, &g, &ext), "an odd lda is packed: no one-launch batch");
    batch_case(TSL_ROW_MAJOR, 128, 256, 40, 41, 260, 2, 1.0);
    /* STAIR over 64 x 128 tiles: steps of whole tiles, and of one and a half (tiles crossing) */
    stair_case(1, 256, 128, 24, 4, 64);
    stair_case(2, 320, 128, 16, 3, 96);
    stair_case(3, 64, 384, 16, 3, 128);
    stair_case(4, 128, 384, 8, 3, 192);
    tsl_context_set_variant(g_ctx, "gemm_batched", "auto");
}

/* DIRECT = 2 on a ring configuration: small ragged problems run on its register-staged companion
 * read in place (gemm_tiled2d.c, ring_companion), whole tiles on the ring; both through the
 * public call, every element checked. */
static void run_companion(void)
{
    char v[320];
    snprintf(v, sizeof v, "%s,KSPLIT=0,DIRECT=2,PEEL=0", M2_A);
    const shape ragged[] = {{37, 45, 29}, {1, 7, 3}}, whole = {64, 128, 48};
    for (int s = 0; s < 2; ++s)
        for (int l = 0; l < 2; ++l)
            run_case(v, &ragged[s], l ? TSL_COL_MAJOR : TSL_ROW_MAJOR, tr[l], tr[1 - l],
                     l ? 0.5 : -1.25, l ? 0.0 : 0.75, (size_t)l);
    run_case(v, &whole, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 1.0, 0.5, 0);
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"m1", "m2", "m3", "batch"};
    int which = -1;
    for (int i = 0; argc == 2 && i < 4; ++i)
        if (strcmp(argv[1], names[i]) == 0) which = i;
    if (which < 0) {
        fprintf(stderr, "usage: test_dmma_async m1|m2|m3|batch\n");
        return 2;
    }
    tsl_status st = tsl_context_create(NULL, &g_ctx);
    CHECK(st == TSL_OK, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary("test_dmma_async");
    tsl_device_info info;
    tsl_context_device(g_ctx, &info);
    if (!info.fp64) {
        SKIP("%s has no double precision\n", info.name);
    } else {
        g_seed += (unsigned)which;
        switch (which) {
        case 0:
            run_all(M1_A, 64, 64);
            run_shapes(M1_B);
            break;
        case 1:
            run_all(M2_A, 64, 128);
            run_shapes(M2_B);
            break;
        case 2:
            run_all(M3_A, 64, 32);
            run_shapes(M3_B);
            break;
        default:
            run_batch();
            run_companion();
        }
    }
    tsl_context_destroy(g_ctx);
    char title[48];
    snprintf(title, sizeof title, "test_dmma_async %s", names[which]);
    return check_summary(title);
}
