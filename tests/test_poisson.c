/* test_poisson.c: correctness of the Jacobi Poisson solver (tsl_spoisson, tsl_dpoisson). One
 * process tests one variant named on the command line (`test_poisson naive`, ..., `test_poisson
 * auto`), so ctest runs them in parallel; `test_poisson errors` tests bad input and options;
 * `test_poisson --expect-variants NAME...` asserts that tsl_variant_name lists exactly the
 * variants tests/poisson.cmake registers.
 *
 * For the variant:
 * - second order: f = 2 pi^2 sin(pi x) sin(pi y), zero boundary, iterated to convergence on
 *   grids of 17, 33 and 65 points: the max error against sin(pi x) sin(pi y) shrinks by 3.2x to
 *   4.8x each time h halves, in double (tol 1e-10) and in single (a fixed sweep count that
 *   converges to 1e-7, since single-precision residuals stall near 1e-4 of max |f|);
 * - the same iterate as the CPU Jacobi (tsl_ref_jacobi, double) after the same sweep count, on
 *   seeded random f, boundary and initial guess, grids 3, 4, 5, 37, 50 and 70 (not multiples of
 *   any tile), sweep counts 1, 2, 7, 13 (not multiples of 2, 4 or 8): bit for bit in double
 *   (same operations in the same order, no fma), and bit for bit against the naive variant in
 *   single; within 1e-5 of the double reference in single;
 * - the border of u comes back bit for bit, and with a signalling-NaN sentinel after u and f
 *   nothing is written past u (exact-size allocations let AddressSanitizer catch the rest);
 * - the reported residual equals tsl_ref_poisson_residual of the returned iterate (to rounding
 *   of the residual's own arithmetic), and tol stops at the first check that meets it;
 * - max_iters == 0 leaves u as it was and reports the residual of the initial guess; info may
 *   be NULL. */
#include "check.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define GUARD 8

static const char *g_variant;
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

/* A grid in either precision, with GUARD sentinel elements after it. */
typedef struct {
    int dbl;
    size_t n;
    void *v;
} grid;

static const uint32_t SENT_F = 0x7F8DEAD1u;
static const uint64_t SENT_D = 0x7FF0DEADBEEF0001ull;

static grid grid_new(int dbl, size_t n)
{
    grid g = {dbl, n, NULL};
    size_t es = dbl ? 8 : 4;
    g.v = xmalloc((n * n + GUARD) * es);
    for (size_t i = 0; i < GUARD; ++i) {
        if (dbl)
            memcpy((char *)g.v + (n * n + i) * 8, &SENT_D, 8);
        else
            memcpy((char *)g.v + (n * n + i) * 4, &SENT_F, 4);
    }
    return g;
}

static int guard_intact(const grid *g)
{
    size_t es = g->dbl ? 8 : 4;
    for (size_t i = 0; i < GUARD; ++i)
        if (memcmp((char *)g->v + (g->n * g->n + i) * es,
                   g->dbl ? (const void *)&SENT_D : (const void *)&SENT_F, es) != 0)
            return 0;
    return 1;
}

static double get(const grid *g, size_t i)
{
    return g->dbl ? ((double *)g->v)[i] : (double)((float *)g->v)[i];
}

static void set(grid *g, size_t i, double x)
{
    if (g->dbl)
        ((double *)g->v)[i] = x;
    else
        ((float *)g->v)[i] = (float)x;
}

static double *to_double(const grid *g)
{
    double *d = xmalloc(g->n * g->n * sizeof *d);
    for (size_t i = 0; i < g->n * g->n; ++i)
        d[i] = get(g, i);
    return d;
}

static tsl_status solve(tsl_context *ctx, const grid *f, grid *u, int iters, double tol,
                        tsl_poisson_info *info)
{
    if (u->dbl) return tsl_dpoisson(ctx, u->n, f->v, u->v, iters, tol, info);
    return tsl_spoisson(ctx, u->n, f->v, u->v, iters, tol, info);
}

static int is_border(size_t n, size_t i)
{
    return i / n == 0 || i / n == n - 1 || i % n == 0 || i % n == n - 1;
}

/* ---- second order ------------------------------------------------------------------------- */

static double max_error_sine(tsl_context *ctx, int dbl, size_t n)
{
    grid f = grid_new(dbl, n), u = grid_new(dbl, n);
    double h = 1.0 / (double)(n - 1);
    for (size_t y = 0; y < n; ++y)
        for (size_t x = 0; x < n; ++x) {
            set(&f, y * n + x, 2 * PI * PI * sin(PI * (double)x * h) * sin(PI * (double)y * h));
            set(&u, y * n + x, 0.0);
        }
    /* The discrete problem's eigenvalue for this mode decays like cos(pi h) per sweep. */
    int fixed = (int)ceil(log(1e-7) / log(cos(PI * h)));
    tsl_poisson_info info = {-1, NAN, NAN};
    tsl_status st =
        dbl ? solve(ctx, &f, &u, 4 * fixed, 1e-10, &info) : solve(ctx, &f, &u, fixed, 0, &info);
    double err = NAN;
    CHECK(st == TSL_OK, "%s %s n=%zu: %s: %s", g_variant, dbl ? "double" : "single", n,
          tsl_status_name(st), tsl_context_error(ctx));
    if (st == TSL_OK) {
        if (dbl)
            CHECK(info.iterations < 4 * fixed && info.residual <= 1e-10 * 2 * PI * PI,
                  "%s double n=%zu: not converged after %d sweeps (residual %g)", g_variant, n,
                  info.iterations, info.residual);
        else
            CHECK(info.iterations == fixed, "%s single n=%zu: %d sweeps, asked for %d", g_variant,
                  n, info.iterations, fixed);
        err = 0;
        for (size_t y = 0; y < n; ++y)
            for (size_t x = 0; x < n; ++x) {
                double e =
                    fabs(get(&u, y * n + x) - sin(PI * (double)x * h) * sin(PI * (double)y * h));
                if (!(e <= err)) err = e;
            }
    }
    free(f.v);
    free(u.v);
    return err;
}

static void test_second_order(tsl_context *ctx, int dbl)
{
    const size_t sizes[] = {17, 33, 65};
    double err[3];
    for (int i = 0; i < 3; ++i)
        err[i] = max_error_sine(ctx, dbl, sizes[i]);
    for (int i = 0; i + 1 < 3; ++i) {
        double ratio = err[i] / err[i + 1];
        CHECK(ratio >= 3.2 && ratio <= 4.8,
              "%s %s: error %.3e at n=%zu, %.3e at n=%zu: ratio %.2f, second order wants ~4",
              g_variant, dbl ? "double" : "single", err[i], sizes[i], err[i + 1], sizes[i + 1],
              ratio);
    }
    printf("%s %s: max errors %.3e %.3e %.3e (ratios %.2f %.2f)\n", g_variant,
           dbl ? "double" : "single", err[0], err[1], err[2], err[0] / err[1], err[1] / err[2]);
}

/* ---- against the CPU Jacobi and the naive variant ------------------------------------------ */

static void fill_random(grid *g, unsigned long long *state)
{
    double v;
    for (size_t i = 0; i < g->n * g->n; ++i) {
        tsl_ref_fill_d(&v, 1, state);
        set(g, i, v);
    }
}

static void test_against_reference(tsl_context *ctx, int dbl)
{
    const size_t sizes[] = {3, 4, 5, 37, 50, 70};
    const int sweep_counts[] = {1, 2, 7, 13};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
        for (size_t ci = 0; ci < sizeof sweep_counts / sizeof sweep_counts[0]; ++ci) {
            size_t n = sizes[si];
            int sweeps = sweep_counts[ci];
            unsigned long long state = g_seed + 1000 * n + (unsigned long long)sweeps;
            grid f = grid_new(dbl, n), u = grid_new(dbl, n), u0 = grid_new(dbl, n);
            fill_random(&f, &state);
            fill_random(&u, &state);
            for (size_t i = 0; i < n * n; ++i)
                set(&f, i, 20.0 * get(&f, i)); /* |f| ~ |A_h u| */
            memcpy(u0.v, u.v, n * n * (dbl ? 8 : 4));
            double *fd = to_double(&f), *ref = to_double(&u);
            CHECK(tsl_ref_jacobi(n, fd, ref, sweeps) == 0, "reference out of memory");

            tsl_poisson_info info = {-1, NAN, NAN};
            tsl_status st = solve(ctx, &f, &u, sweeps, 0, &info);
            CHECK(st == TSL_OK, "%s n=%zu sweeps=%d: %s: %s", g_variant, n, sweeps,
                  tsl_status_name(st), tsl_context_error(ctx));
            if (st != TSL_OK) goto next;
            CHECK(info.iterations == sweeps, "%s n=%zu: %d sweeps reported, %d asked (tol 0)",
                  g_variant, n, info.iterations, sweeps);
            CHECK(guard_intact(&u), "%s n=%zu: written past the end of u", g_variant, n);
            size_t es = dbl ? 8 : 4, border_diffs = 0, worst_i = 0;
            double worst = 0, scale = 0;
            for (size_t i = 0; i < n * n; ++i) {
                if (is_border(n, i)) {
                    border_diffs += memcmp((char *)u.v + i * es, (char *)u0.v + i * es, es) != 0;
                    continue;
                }
                double d = fabs(get(&u, i) - ref[i]);
                if (!(d <= worst)) worst = d, worst_i = i;
                if (fabs(ref[i]) > scale) scale = fabs(ref[i]);
            }
            CHECK(border_diffs == 0, "%s n=%zu sweeps=%d: %zu border values changed", g_variant, n,
                  sweeps, border_diffs);
            if (dbl)
                CHECK(worst == 0,
                      "%s double n=%zu sweeps=%d: differs from the CPU Jacobi by %.3e "
                      "at (%zu, %zu); the kernels promise the same operations in the same order",
                      g_variant, n, sweeps, worst, worst_i / n, worst_i % n);
            else
                CHECK(
                    worst <= 1e-5 * (scale > 1 ? scale : 1),
                    "%s single n=%zu sweeps=%d: differs from the CPU Jacobi by %.3e at (%zu, %zu)",
                    g_variant, n, sweeps, worst, worst_i / n, worst_i % n);
            /* The reported residual is the host's residual of the returned iterate, up to the
             * rounding of the residual's own sums (terms of size |u| / h^2). */
            double *ud = to_double(&u);
            double host = tsl_ref_poisson_residual(n, fd, ud);
            double umax = 0, fmax = 0;
            for (size_t i = 0; i < n * n; ++i) {
                if (fabs(ud[i]) > umax) umax = fabs(ud[i]);
                if (fabs(fd[i]) > fmax) fmax = fabs(fd[i]);
            }
            double eps = dbl ? 2.2e-16 : 1.2e-7;
            double slack = 16 * eps * (fmax + 8 * umax * (double)(n - 1) * (double)(n - 1));
            CHECK(fabs(info.residual - host) <= slack,
                  "%s n=%zu sweeps=%d: residual %.17g reported, host computes %.17g", g_variant, n,
                  sweeps, info.residual, host);
            free(ud);

            /* Single precision: the same bits as the naive variant (the tiled kernels promise
             * it; in double the comparison with the CPU above already shows it). */
            if (!dbl && strcmp(g_variant, "naive") != 0) {
                grid un = grid_new(dbl, n);
                memcpy(un.v, u0.v, n * n * es);
                tsl_context_set_variant(ctx, "poisson", "naive");
                st = solve(ctx, &f, &un, sweeps, 0, NULL);
                tsl_context_set_variant(ctx, "poisson", g_variant);
                CHECK(st == TSL_OK && memcmp(un.v, u.v, n * n * es) == 0,
                      "%s single n=%zu sweeps=%d: not the naive variant's iterate bit for bit",
                      g_variant, n, sweeps);
                free(un.v);
            }
        next:
            free(fd);
            free(ref);
            free(f.v);
            free(u.v);
            free(u0.v);
        }
}

/* ---- stopping, max_iters == 0, NULL info -------------------------------------------------- */

static void test_stopping(tsl_context *ctx, int dbl)
{
    size_t n = 41;
    unsigned long long state = g_seed + 77;
    grid f = grid_new(dbl, n), u = grid_new(dbl, n), u0 = grid_new(dbl, n);
    fill_random(&f, &state);
    fill_random(&u, &state);
    size_t es = dbl ? 8 : 4;
    memcpy(u0.v, u.v, n * n * es);
    double *fd = to_double(&f), *u0d = to_double(&u0);
    double fmax = 0;
    for (size_t i = 0; i < n * n; ++i)
        if (!is_border(n, i) && fabs(fd[i]) > fmax) fmax = fabs(fd[i]);
    double tol = dbl ? 1e-6 : 1e-3, threshold = tol * (fmax > 1 ? fmax : 1);
    const int every = 12; /* rounded up to 16 for temporal_8, 12 for temporal_2 and 4 */
    CHECK(tsl_context_set_option(ctx, "poisson", "check_every", every) == TSL_OK,
          "check_every = %d refused: %s", every, tsl_context_error(ctx));

    tsl_poisson_info info = {-1, NAN, NAN};
    tsl_status st = solve(ctx, &f, &u, 100000, tol, &info);
    CHECK(st == TSL_OK, "%s tol=%g: %s: %s", g_variant, tol, tsl_status_name(st),
          tsl_context_error(ctx));
    if (st == TSL_OK) {
        const char *resolved = NULL;
        tsl_variant_check(ctx, "poisson", g_variant, &resolved);
        int k = resolved && strncmp(resolved, "temporal_", 9) == 0 ? atoi(resolved + 9) : 1;
        int step = (every + k - 1) / k * k;
        CHECK(info.iterations > 0 && info.iterations % step == 0,
              "%s: %d sweeps, expected a multiple of check_every = %d rounded to %d", g_variant,
              info.iterations, every, step);
        CHECK(info.residual <= threshold, "%s: stopped with residual %g above %g", g_variant,
              info.residual, threshold);
        double *ud = to_double(&u);
        double host = tsl_ref_poisson_residual(n, fd, ud);
        CHECK(fabs(host - info.residual) <= (dbl ? 1e-9 : 2e-2) * (fmax + 1),
              "%s: residual %g reported, host computes %g", g_variant, info.residual, host);
        /* One check earlier the residual was still above the threshold. */
        if (info.iterations > step) {
            double *prev = to_double(&u0);
            tsl_ref_jacobi(n, fd, prev, info.iterations - step);
            double r = tsl_ref_poisson_residual(n, fd, prev);
            CHECK(r > threshold * (dbl ? 1.0 : 0.9),
                  "%s: the check at sweep %d already had "
                  "residual %g <= %g, yet it went on",
                  g_variant, info.iterations - step, r, threshold);
            free(prev);
        }
        free(ud);
    }
    CHECK(tsl_context_set_option(ctx, "poisson", "check_every", 20) == TSL_OK, "reset");

    /* max_iters == 0: u untouched, the residual of the initial guess. */
    memcpy(u.v, u0.v, n * n * es);
    info = (tsl_poisson_info){-1, NAN, NAN};
    st = solve(ctx, &f, &u, 0, 0, &info);
    CHECK(st == TSL_OK && info.iterations == 0, "%s max_iters 0: %s, %d sweeps", g_variant,
          tsl_status_name(st), info.iterations);
    CHECK(memcmp(u.v, u0.v, n * n * es) == 0, "%s max_iters 0: u changed", g_variant);
    double r0 = tsl_ref_poisson_residual(n, fd, u0d);
    CHECK(fabs(info.residual - r0) <= (dbl ? 1e-12 : 1e-5) * r0,
          "%s max_iters 0: residual %g, host %g", g_variant, info.residual, r0);
    /* A tolerance the initial guess already meets: no sweep. */
    info = (tsl_poisson_info){-1, NAN, NAN};
    st = solve(ctx, &f, &u, 50, 2 * r0 / (fmax > 1 ? fmax : 1), &info);
    CHECK(st == TSL_OK && info.iterations == 0 && memcmp(u.v, u0.v, n * n * es) == 0,
          "%s: the initial guess meets tol, yet %d sweeps ran", g_variant, info.iterations);
    /* info == NULL is allowed. */
    st = solve(ctx, &f, &u, 3, 0, NULL);
    CHECK(st == TSL_OK, "%s info NULL: %s: %s", g_variant, tsl_status_name(st),
          tsl_context_error(ctx));
    free(fd);
    free(u0d);
    free(f.v);
    free(u.v);
    free(u0.v);
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void test_errors(tsl_context *ctx)
{
    size_t n = 9;
    float f[81], u[81], u0[81];
    double fd[81], ud[81];
    unsigned long long state = g_seed;
    tsl_ref_fill_f(f, 81, &state);
    tsl_ref_fill_f(u, 81, &state);
    tsl_ref_fill_d(fd, 81, &state);
    tsl_ref_fill_d(ud, 81, &state);
    memcpy(u0, u, sizeof u);
    tsl_poisson_info info = {-7, 1.5, 2.5};
    struct {
        const char *what, *word;
        size_t n;
        const float *f;
        float *u;
        int iters;
        double tol;
    } cases[] = {
        {"n = 0", "n", 0, f, u, 10, 0},         {"n = 1", "n", 1, f, u, 10, 0},
        {"n = 2", "n", 2, f, u, 10, 0},         {"f NULL", "f", n, NULL, u, 10, 0},
        {"u NULL", "u", n, f, NULL, 10, 0},     {"max_iters < 0", "max_iters", n, f, u, -1, 0},
        {"tol < 0", "tol", n, f, u, 10, -1e-3}, {"tol NaN", "tol", n, f, u, 10, NAN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        tsl_status st = tsl_spoisson(ctx, cases[i].n, cases[i].f, cases[i].u, cases[i].iters,
                                     cases[i].tol, &info);
        CHECK(st == TSL_ERR_INVALID_ARG, "%s: %s, expected TSL_ERR_INVALID_ARG", cases[i].what,
              tsl_status_name(st));
        CHECK(check_mentions(tsl_context_error(ctx), cases[i].word),
              "%s: message \"%s\" does not name %s", cases[i].what, tsl_context_error(ctx),
              cases[i].word);
        CHECK(memcmp(u, u0, sizeof u) == 0, "%s: u was written", cases[i].what);
        CHECK(info.iterations == -7, "%s: info was written", cases[i].what);
    }
    tsl_status st = tsl_dpoisson(ctx, 2, fd, ud, 10, 0, NULL);
    CHECK(st == TSL_ERR_INVALID_ARG, "tsl_dpoisson n = 2: %s", tsl_status_name(st));
    st = tsl_dpoisson(ctx, n, fd, ud, 10, -INFINITY, NULL);
    CHECK(st == TSL_ERR_INVALID_ARG, "tsl_dpoisson tol = -inf: %s", tsl_status_name(st));
    st = tsl_spoisson(NULL, n, f, u, 10, 0, NULL);
    CHECK(st == TSL_ERR_INVALID_ARG, "ctx NULL: %s", tsl_status_name(st));
    /* Grids whose byte count overflows or exceeds the device: an error, never a touch of u. */
    const size_t huge[] = {(size_t)1 << 20, (size_t)1 << 33, SIZE_MAX / 2, SIZE_MAX};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; ++i) {
        st = tsl_spoisson(ctx, huge[i], f, u, 10, 0, &info);
        CHECK(st != TSL_OK && tsl_context_error(ctx)[0], "n = %zu: %s without a message", huge[i],
              tsl_status_name(st));
        CHECK(memcmp(u, u0, sizeof u) == 0 && info.iterations == -7, "n = %zu: u or info written",
              huge[i]);
    }
    /* Options and variants. */
    CHECK(tsl_context_set_option(ctx, "poisson", "check_every", 0) == TSL_ERR_INVALID_ARG,
          "check_every = 0 accepted");
    CHECK(check_mentions(tsl_context_error(ctx), "check_every"), "message: %s",
          tsl_context_error(ctx));
    CHECK(tsl_context_set_option(ctx, "poisson", "check_every", -3) == TSL_ERR_INVALID_ARG,
          "check_every = -3 accepted");
    CHECK(tsl_context_set_option(ctx, "poisson", "tile", 8) == TSL_ERR_INVALID_ARG,
          "unknown option accepted");
    CHECK(check_mentions(tsl_context_error(ctx), "tile"), "message: %s", tsl_context_error(ctx));
    CHECK(tsl_context_set_option(ctx, "poisson", "check_every", 1) == TSL_OK, "check_every = 1");
    CHECK(tsl_context_set_variant(ctx, "poisson", "temporal_3") == TSL_ERR_INVALID_ARG,
          "unknown variant accepted");
    CHECK(check_mentions(tsl_context_error(ctx), "temporal_3"), "message: %s",
          tsl_context_error(ctx));
    /* check_every = 1 and a converging run still works. */
    for (size_t i = 0; i < 81; ++i)
        f[i] = 1.0f, u[i] = 0.0f;
    info = (tsl_poisson_info){-1, NAN, NAN};
    st = tsl_spoisson(ctx, n, f, u, 1000, 1e-3, &info);
    CHECK(st == TSL_OK && info.iterations > 0 && info.iterations < 1000 && info.residual <= 1e-3,
          "check_every 1: %s, %d sweeps, residual %g", tsl_status_name(st), info.iterations,
          info.residual);
    /* NaN in f: the residual says NaN (never a small number), all sweeps run. */
    f[4 * 9 + 4] = NAN;
    st = tsl_spoisson(ctx, n, f, u, 30, 1e-3, &info);
    CHECK(st == TSL_OK && info.iterations == 30 && isnan(info.residual),
          "NaN in f: %s, %d sweeps, residual %g", tsl_status_name(st), info.iterations,
          info.residual);
}

/* ---- the variant list ------------------------------------------------------------------------ */

static int expect_variants(char **names, int count)
{
    for (int i = 0; i < count; ++i)
        CHECK(tsl_variant_name("poisson", (size_t)i) &&
                  strcmp(tsl_variant_name("poisson", (size_t)i), names[i]) == 0,
              "variant %d is %s, tests/poisson.cmake expects %s", i,
              tsl_variant_name("poisson", (size_t)i) ? tsl_variant_name("poisson", (size_t)i)
                                                     : "(none)",
              names[i]);
    CHECK(tsl_variant_name("poisson", (size_t)count) == NULL,
          "the library has a variant %s the tests do not run: add it to tests/poisson.cmake",
          tsl_variant_name("poisson", (size_t)count));
    return check_summary("test_poisson --expect-variants");
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--expect-variants") == 0)
        return expect_variants(argv + 2, argc - 2);
    if (argc != 2) {
        fprintf(stderr, "usage: test_poisson VARIANT|errors | --expect-variants NAME...\n");
        return 2;
    }
    g_variant = argv[1];
    const char *seed_env = getenv("TSL_TEST_SEED");
    if (seed_env && *seed_env) g_seed = strtoull(seed_env, NULL, 0);
    char name[96];
    snprintf(name, sizeof name, "test_poisson %s", g_variant);

    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(NULL, &ctx);
    CHECK(st == TSL_OK && ctx, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary(name);
    tsl_device_info dev;
    tsl_context_device(ctx, &dev);
    printf("device: %s (%s), seed %llu\n", dev.name, dev.platform, g_seed);

    if (strcmp(g_variant, "errors") == 0) {
        test_errors(ctx);
        tsl_context_destroy(ctx);
        return check_summary(name);
    }
    st = tsl_context_set_variant(ctx, "poisson", g_variant);
    if (st == TSL_ERR_UNSUPPORTED) {
        SKIP("%s: %s", g_variant, tsl_context_error(ctx));
        tsl_context_destroy(ctx);
        return check_summary(name);
    }
    CHECK(st == TSL_OK, "set_variant %s: %s: %s", g_variant, tsl_status_name(st),
          tsl_context_error(ctx));
    if (st != TSL_OK) return check_summary(name);
    for (int dbl = 0; dbl <= 1; ++dbl) {
        if (dbl && !dev.fp64) {
            st = tsl_dpoisson(ctx, 5, (double[25]){0}, (double[25]){0}, 1, 0, NULL);
            CHECK(st == TSL_ERR_UNSUPPORTED, "no fp64, yet tsl_dpoisson says %s",
                  tsl_status_name(st));
            SKIP("double precision: device has no fp64");
            continue;
        }
        test_against_reference(ctx, dbl);
        test_stopping(ctx, dbl);
        test_second_order(ctx, dbl);
    }
    tsl_context_destroy(ctx);
    return check_summary(name);
}
