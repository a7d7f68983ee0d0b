/* test_kmeans.c: correctness of tsl_kmeans_assign, 002's K-means assignment step. One process
 * tests one variant named on the command line (`test_kmeans original`, ..., `test_kmeans auto`),
 * so ctest runs them in parallel; `test_kmeans errors` tests bad input; `test_kmeans
 * --expect-variants NAME...` asserts that tsl_variant_name lists exactly the variants
 * tests/workloads_pi_kmeans.cmake registers.
 *
 * For the variant:
 * - seeded random points and centroids in [-1, 1), shapes (n, k, dim) from 1 x 1 x 1 up to
 *   4099 x 300 x 3, with k and dim not multiples of 8 (the tile) and n not a multiple of the
 *   work-group: every choice passes tsl_ref_kmeans_excess against the host's sequential version
 *   (a different index only within the near-tie tolerance); the number that differ is printed;
 * - exact ties: small-integer coordinates, so every distance is exact in float, and centroids that
 *   repeat (centroid j = centroid j mod 5) or sit symmetrically around the points: the device
 *   must return exactly the lowest index among the nearest, which the test also computes by brute
 *   force in double (checking the host version too);
 * - special values: a centroid with a NaN coordinate never wins, a point with a NaN coordinate or
 *   an infinite one (every distance infinite or NaN, the padding of the tiled kernels included)
 *   gets 0, as the host version says;
 * - nothing is written past assign (exact-size allocations for AddressSanitizer, plus a sentinel
 *   tail), and the timing breakdown has kernel_ms > 0. */
#include "check.h"
#include "ref/ref.h"
#include "ref/workloads.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 4
#define SENTINEL (-777)

static unsigned long long g_seed = 20261121ull;

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of host memory\n");
        exit(2);
    }
    return p;
}

/* assign with GUARD sentinel ints after n. */
static int *new_assign(size_t n)
{
    int *a = xmalloc((n + GUARD) * sizeof *a);
    for (size_t i = 0; i < n + GUARD; ++i)
        a[i] = SENTINEL;
    return a;
}

static int guard_intact(const int *a, size_t n)
{
    for (size_t i = n; i < n + GUARD; ++i)
        if (a[i] != SENTINEL) return 0;
    return 1;
}

/* Runs the device and the host on the same data; returns the device's assignment (caller frees)
 * after the common checks, or NULL when the call failed. host receives the host's. */
static int *run_both(tsl_context *ctx, const char *what, size_t n, size_t k, size_t dim,
                     const float *p, const float *c, int *host)
{
    int *a = new_assign(n);
    tsl_status st = tsl_kmeans_assign(ctx, n, k, dim, p, c, a);
    CHECK(st == TSL_OK, "%s %zu x %zu x %zu: %s: %s", what, n, k, dim, tsl_status_name(st),
          tsl_context_error(ctx));
    if (st != TSL_OK) {
        free(a);
        return NULL;
    }
    CHECK(guard_intact(a, n), "%s %zu x %zu x %zu: written past assign", what, n, k, dim);
    tsl_timing t = {-1, -1, -1, -1};
    CHECK(tsl_context_timing(ctx, &t) == TSL_OK && t.kernel_ms > 0 && t.upload_ms >= 0 &&
              t.download_ms >= 0,
          "%s: timing kernel %g upload %g download %g ms", what, t.kernel_ms, t.upload_ms,
          t.download_ms);
    tsl_ref_kmeans_assign(n, k, dim, p, c, host);
    return a;
}

/* ---- random data: the near-tie rule -------------------------------------------------------- */

static void test_random(tsl_context *ctx)
{
    static const size_t shapes[][3] = {{1, 1, 1},    {5, 1, 3},     {1, 9, 1},     {37, 8, 8},
                                       {100, 17, 5}, {257, 9, 13},  {1000, 33, 2}, {64, 100, 1},
                                       {300, 7, 33}, {4099, 300, 3}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        size_t n = shapes[s][0], k = shapes[s][1], dim = shapes[s][2];
        float *p = xmalloc(n * dim * sizeof *p), *c = xmalloc(k * dim * sizeof *c);
        unsigned long long state = g_seed + s;
        tsl_ref_fill_f(p, n * dim, &state);
        tsl_ref_fill_f(c, k * dim, &state);
        int *host = xmalloc(n * sizeof *host);
        int *a = run_both(ctx, "random", n, k, dim, p, c, host);
        if (a) {
            size_t differ = 0;
            double excess = tsl_ref_kmeans_excess(n, k, dim, p, c, a, host, &differ);
            CHECK(excess <= tsl_ref_kmeans_tolerance(dim),
                  "random %zu x %zu x %zu: %zu points differ from the host, the worst %.3g "
                  "farther (tolerance %.3g)",
                  n, k, dim, differ, excess, tsl_ref_kmeans_tolerance(dim));
            if (differ)
                printf("random %zu x %zu x %zu: %zu near ties went the other way\n", n, k, dim,
                       differ);
        }
        free(a);
        free(host);
        free(p);
        free(c);
    }
}

/* ---- exact ties: the lowest index ---------------------------------------------------------- */

/* The lowest index among the nearest centroids, by brute force in double (exact here). */
static int brute_nearest(size_t k, size_t dim, const float *p, const float *c)
{
    int best = 0;
    double best_d = INFINITY;
    for (size_t j = 0; j < k; ++j) {
        double d = 0;
        for (size_t e = 0; e < dim; ++e)
            d += ((double)p[e] - c[j * dim + e]) * ((double)p[e] - c[j * dim + e]);
        if (d < best_d) best_d = d, best = (int)j;
    }
    return best;
}

static void check_exact(tsl_context *ctx, const char *what, size_t n, size_t k, size_t dim,
                        const float *p, const float *c)
{
    int *host = xmalloc(n * sizeof *host);
    int *a = run_both(ctx, what, n, k, dim, p, c, host);
    size_t wrong_host = 0, wrong_dev = 0, first = n;
    for (size_t i = 0; a && i < n; ++i) {
        int want = brute_nearest(k, dim, p + i * dim, c);
        wrong_host += host[i] != want;
        if (a[i] != want && first == n) first = i;
        wrong_dev += a[i] != want;
    }
    CHECK(wrong_host == 0, "%s: the host version breaks %zu ties wrongly", what, wrong_host);
    CHECK(!a || wrong_dev == 0,
          "%s %zu x %zu x %zu: %zu points not at the lowest nearest index (first: point %zu got "
          "%d, want %d)",
          what, n, k, dim, wrong_dev, first, first < n ? a[first] : -1,
          first < n ? brute_nearest(k, dim, p + first * dim, c) : -1);
    free(a);
    free(host);
}

static float small_int(unsigned long long *state, int range)
{
    float r;
    tsl_ref_fill_f(&r, 1, state);                                        /* [-1, 1) */
    int steps = (int)floorf((r + 1.0f) * 0.5f * (float)(2 * range + 1)); /* 0 .. 2 range */
    return (float)(steps - range);
}

static void test_ties(tsl_context *ctx)
{
    static const size_t shapes[][3] = {{50, 12, 3}, {129, 21, 2}, {200, 40, 9}, {77, 5, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
        size_t n = shapes[s][0], k = shapes[s][1], dim = shapes[s][2];
        float *p = xmalloc(n * dim * sizeof *p), *c = xmalloc(k * dim * sizeof *c);
        unsigned long long state = g_seed * 3 + s;
        for (size_t i = 0; i < n * dim; ++i)
            p[i] = small_int(&state, 3);
        /* repeats: centroid j is centroid j mod 5, so every nearest one has copies after it */
        for (size_t j = 0; j < k; ++j)
            for (size_t e = 0; e < dim; ++e)
                c[j * dim + e] = j < 5 ? small_int(&state, 3) : c[(j % 5) * dim + e];
        check_exact(ctx, "repeated centroids", n, k, dim, p, c);
        /* symmetric: centroids at +-1 and +-2 along each axis around the origin, the points on
         * the integer grid, so points on the axes' bisectors tie between different centroids */
        for (size_t j = 0; j < k; ++j)
            for (size_t e = 0; e < dim; ++e)
                c[j * dim + e] =
                    e == (j / 4) % dim ? (float)((j % 2 ? 1 : -1) * (1 + (j / 2) % 2)) : 0.0f;
        check_exact(ctx, "symmetric centroids", n, k, dim, p, c);
        free(p);
        free(c);
    }
}

/* ---- special values -------------------------------------------------------------------------- */

static void test_special(tsl_context *ctx)
{
    enum { N = 4, K = 11, D = 3 }; /* K not a multiple of 8: the tiled kernels pad */
    float p[N * D] = {0.5f, 0.5f, 0.5f, NAN, 0.0f, 0.0f, INFINITY, 0.0f, 0.0f, -1, 1, 0};
    float c[K * D];
    unsigned long long state = g_seed + 99;
    tsl_ref_fill_f(c, K * D, &state);
    c[0 * D + 1] = NAN; /* centroid 0 can never be nearest */
    int host[N];
    int *a = run_both(ctx, "special values", N, K, D, p, c, host);
    if (!a) return;
    for (int i = 0; i < N; ++i)
        CHECK(a[i] == host[i], "special values: point %d got %d, the host says %d", i, a[i],
              host[i]);
    CHECK(host[0] != 0 && host[3] != 0, "the host lets a NaN centroid win");
    CHECK(host[1] == 0 && host[2] == 0, "a NaN or infinite point gets %d and %d, not 0", host[1],
          host[2]);
    free(a);
}

static void test_variant(tsl_context *ctx, const char *variant)
{
    tsl_status st = tsl_context_set_variant(ctx, "kmeans", variant);
    if (st == TSL_ERR_UNSUPPORTED) {
        SKIP("%s: %s", variant, tsl_context_error(ctx));
        return;
    }
    CHECK(st == TSL_OK, "set_variant %s: %s: %s", variant, tsl_status_name(st),
          tsl_context_error(ctx));
    if (st != TSL_OK) return;
    test_random(ctx);
    test_ties(ctx);
    test_special(ctx);
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void test_errors(tsl_context *ctx)
{
    float p[6] = {1, 2, 3, 4, 5, 6}, c[6] = {1, 2, 3, 4, 5, 5};
    int a[2 + GUARD];
    for (int i = 0; i < 2 + GUARD; ++i)
        a[i] = SENTINEL;
    struct {
        const char *what;
        tsl_context *ctx;
        size_t n, k, dim;
        const float *p, *c;
        int *a;
        tsl_status want;
        const char *mentions;
    } cases[] = {
        {"NULL ctx", NULL, 2, 2, 3, p, c, a, TSL_ERR_INVALID_ARG, "ctx"},
        {"k 0", ctx, 2, 0, 3, p, c, a, TSL_ERR_INVALID_ARG, "k"},
        {"dim 0", ctx, 2, 2, 0, p, c, a, TSL_ERR_INVALID_ARG, "dim"},
        {"NULL points", ctx, 2, 2, 3, NULL, c, a, TSL_ERR_INVALID_ARG, "points"},
        {"NULL centroids", ctx, 2, 2, 3, p, NULL, a, TSL_ERR_INVALID_ARG, "centroids"},
        {"NULL assign", ctx, 2, 2, 3, p, c, NULL, TSL_ERR_INVALID_ARG, "assign"},
        {"n * dim overflows", ctx, SIZE_MAX / 2, 2, 3, p, c, a, TSL_ERR_INVALID_ARG, "dim"},
        {"k above int", ctx, 2, (size_t)INT32_MAX, 3, p, c, a, TSL_ERR_INVALID_ARG, "k"},
        {"dim above int", ctx, 2, 2, (size_t)INT32_MAX + 1, p, c, a, TSL_ERR_INVALID_ARG, "dim"},
        {"too large for the device", ctx, (size_t)1 << 42, 2, 1, p, c, a, TSL_ERR_OUT_OF_MEMORY,
         "points"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        tsl_status st = tsl_kmeans_assign(cases[i].ctx, cases[i].n, cases[i].k, cases[i].dim,
                                          cases[i].p, cases[i].c, cases[i].a);
        const char *msg = cases[i].ctx ? tsl_context_error(ctx) : tsl_last_error();
        CHECK(st == cases[i].want && check_mentions(msg, cases[i].mentions),
              "%s: %s '%s' (want %s naming %s)", cases[i].what, tsl_status_name(st), msg,
              tsl_status_name(cases[i].want), cases[i].mentions);
        CHECK(a[0] == SENTINEL && a[1] == SENTINEL, "%s: assign was written", cases[i].what);
    }
    /* n == 0: nothing to do, nothing read or written, even through NULL arrays */
    tsl_status st = tsl_kmeans_assign(ctx, 0, 2, 3, NULL, NULL, NULL);
    CHECK(st == TSL_OK, "n 0: %s '%s'", tsl_status_name(st), tsl_context_error(ctx));
    st = tsl_context_set_option(ctx, "kmeans", "local", 64);
    CHECK(st == TSL_ERR_INVALID_ARG && check_mentions(tsl_context_error(ctx), "kmeans"),
          "kmeans has no options: %s '%s'", tsl_status_name(st), tsl_context_error(ctx));
    st = tsl_context_set_variant(ctx, "kmeans", "tiled");
    CHECK(st == TSL_ERR_INVALID_ARG && check_mentions(tsl_context_error(ctx), "tiled"),
          "unknown variant: %s '%s'", tsl_status_name(st), tsl_context_error(ctx));
    /* and the context still works: each point nearest to its own centroid */
    st = tsl_kmeans_assign(ctx, 2, 2, 3, p, c, a);
    CHECK(st == TSL_OK && a[0] == 0 && a[1] == 1 && guard_intact(a, 2),
          "after the errors: %s, assign %d %d", tsl_status_name(st), a[0], a[1]);
}

static int expect_variants(char **names, int count)
{
    for (int i = 0; i < count; ++i) {
        const char *have = tsl_variant_name("kmeans", (size_t)i);
        CHECK(have && strcmp(have, names[i]) == 0,
              "variant %d is %s, tests/workloads_pi_kmeans.cmake expects %s", i,
              have ? have : "(none)", names[i]);
    }
    CHECK(tsl_variant_name("kmeans", (size_t)count) == NULL,
          "the library has a variant %s the tests do not run: add it to "
          "tests/workloads_pi_kmeans.cmake",
          tsl_variant_name("kmeans", (size_t)count));
    return check_summary("test_kmeans --expect-variants");
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--expect-variants") == 0)
        return expect_variants(argv + 2, argc - 2);
    if (argc != 2) {
        fprintf(stderr, "usage: test_kmeans VARIANT|errors | --expect-variants NAME...\n");
        return 2;
    }
    const char *seed_env = getenv("TSL_TEST_SEED");
    if (seed_env && *seed_env) g_seed = strtoull(seed_env, NULL, 0);
    char name[96];
    snprintf(name, sizeof name, "test_kmeans %s", argv[1]);
    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(NULL, &ctx);
    CHECK(st == TSL_OK && ctx, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary(name);
    tsl_device_info dev;
    tsl_context_device(ctx, &dev);
    printf("device: %s (%s), seed %llu\n", dev.name, dev.platform, g_seed);
    if (strcmp(argv[1], "errors") == 0)
        test_errors(ctx);
    else
        test_variant(ctx, argv[1]);
    tsl_context_destroy(ctx);
    return check_summary(name);
}
