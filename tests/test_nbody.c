/* test_nbody.c: correctness of the all-pairs N-body op (tsl_nbody, 002's N-body workload). One
 * process tests one variant named on the command line (`test_nbody original`, ..., `test_nbody
 * auto`), so ctest runs them in parallel; `test_nbody errors` tests bad input and options;
 * `test_nbody --expect-variants NAME...` asserts that tsl_variant_name lists exactly the variants
 * tests/workloads_nbody.cmake registers.
 *
 * For the variant, on fresh seeded random bodies (positions in a cube, masses that sum to about
 * 1, never zero, random velocities, a random 4th velocity component):
 * - the state after 1, 2 and 3 steps matches the host's sequential version (tsl_ref_nbody) within
 *   tsl_ref_nbody_tolerance, per body, for n = 1, 2, 3, 63, 64, 65, 100, 129, 300 (on both sides
 *   of the work-group and tile size) and for work-group sizes 1, 7, 32, 64 and 128 (odd tiles
 *   leave a remainder after the unrolled loop);
 * - masses and the 4th velocity component come back bit for bit, and nothing is written past the
 *   arrays (signalling-NaN sentinels after them; exact-size allocations let AddressSanitizer
 *   catch the rest);
 * - the physics, independently of the reference: two bodies at rest attract each other with
 *   a = m d / (d^2 + eps^2)^(3/2) (in double), and the total momentum of a random system does not
 *   drift (the pairwise forces cancel) beyond rounding;
 * - steps == 0 and n == 0 change nothing (n == 0 takes NULL arrays); the timing breakdown has
 *   kernel time after a run. */
#include "check.h"
#include "ref/ref.h"
#include "ref/workloads.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 8

static const char *g_variant;
static unsigned long long g_seed = 20261121ull;
static const uint32_t SENTINEL = 0x7F8DEAD1u; /* a signalling NaN no kernel would write */

static float *xmalloc_floats(size_t count)
{
    float *p = malloc((count ? count : 1) * sizeof *p);
    if (!p) {
        fprintf(stderr, "out of host memory\n");
        exit(2);
    }
    return p;
}

/* n bodies: pos and vel of 4n floats each, GUARD sentinels after each. */
typedef struct {
    size_t n;
    float *pos, *vel;
} bodies;

static bodies bodies_new(size_t n)
{
    bodies b = {n, xmalloc_floats(4 * n + GUARD), xmalloc_floats(4 * n + GUARD)};
    for (size_t i = 0; i < GUARD; ++i) {
        memcpy(b.pos + 4 * n + i, &SENTINEL, sizeof SENTINEL);
        memcpy(b.vel + 4 * n + i, &SENTINEL, sizeof SENTINEL);
    }
    return b;
}

static int guards_intact(const bodies *b)
{
    for (size_t i = 0; i < GUARD; ++i)
        if (memcmp(b->pos + 4 * b->n + i, &SENTINEL, sizeof SENTINEL) != 0 ||
            memcmp(b->vel + 4 * b->n + i, &SENTINEL, sizeof SENTINEL) != 0)
            return 0;
    return 1;
}

static bodies bodies_copy(const bodies *src)
{
    bodies b = bodies_new(src->n);
    memcpy(b.pos, src->pos, 4 * src->n * sizeof(float));
    memcpy(b.vel, src->vel, 4 * src->n * sizeof(float));
    return b;
}

static void bodies_free(bodies *b)
{
    free(b->pos);
    free(b->vel);
}

static void fill_random(bodies *b, unsigned long long *state)
{
    tsl_ref_nbody_random(b->n, b->pos, b->vel, state);
}

/* The 4th components (mass, unused velocity slot) of out are those of in, bit for bit. */
static int fourth_unchanged(const bodies *out, const bodies *in)
{
    for (size_t i = 0; i < in->n; ++i)
        if (memcmp(out->pos + 4 * i + 3, in->pos + 4 * i + 3, sizeof(float)) != 0 ||
            memcmp(out->vel + 4 * i + 3, in->vel + 4 * i + 3, sizeof(float)) != 0)
            return 0;
    return 1;
}

static const float DT = 1e-3f, SOFTENING = 0.05f;

/* ---- against the sequential version ------------------------------------------------------- */

static void check_case(tsl_context *ctx, size_t n, int steps, long local, unsigned long long *st)
{
    bodies in = bodies_new(n);
    fill_random(&in, st);
    bodies dev = bodies_copy(&in), ref = bodies_copy(&in);
    tsl_status s = tsl_nbody(ctx, n, steps, DT, SOFTENING, dev.pos, dev.vel);
    CHECK(s == TSL_OK, "%s n=%zu steps=%d local=%ld: %s: %s", g_variant, n, steps, local,
          tsl_status_name(s), tsl_context_error(ctx));
    if (s == TSL_OK) {
        tsl_ref_nbody(n, steps, DT, SOFTENING, ref.pos, ref.vel);
        double err = tsl_ref_nbody_error(n, dev.pos, dev.vel, ref.pos, ref.vel);
        CHECK(err <= tsl_ref_nbody_tolerance(steps),
              "%s n=%zu steps=%d local=%ld: per-body error %.3g above %.3g", g_variant, n, steps,
              local, err, tsl_ref_nbody_tolerance(steps));
        CHECK(fourth_unchanged(&dev, &in), "%s n=%zu steps=%d local=%ld: mass or vel.w changed",
              g_variant, n, steps, local);
        /* The bodies did move (a run that returned the input would pass a loose error check). */
        CHECK(memcmp(dev.pos, in.pos, 4 * n * sizeof(float)) != 0,
              "%s n=%zu steps=%d: positions did not change", g_variant, n, steps);
    }
    CHECK(guards_intact(&dev), "%s n=%zu steps=%d local=%ld: written past the arrays", g_variant, n,
          steps, local);
    bodies_free(&in);
    bodies_free(&dev);
    bodies_free(&ref);
}

static void test_against_reference(tsl_context *ctx)
{
    const size_t sizes[] = {1, 2, 3, 63, 64, 65, 100, 129, 300};
    unsigned long long st = g_seed;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
        for (int steps = 1; steps <= 3; ++steps)
            check_case(ctx, sizes[i], steps, 0, &st);
    /* Work-group (and tile) sizes, the option of 002's multithreading sweep. */
    const long locals[] = {1, 7, 32, 128};
    for (size_t i = 0; i < sizeof locals / sizeof locals[0]; ++i) {
        tsl_status s = tsl_context_set_option(ctx, "nbody", "local", locals[i]);
        if (s == TSL_ERR_INVALID_ARG) {
            SKIP("local = %ld: %s", locals[i], tsl_context_error(ctx));
            continue;
        }
        CHECK(s == TSL_OK, "set local %ld: %s", locals[i], tsl_context_error(ctx));
        s = tsl_variant_check(ctx, "nbody", g_variant, NULL);
        if (s == TSL_ERR_UNSUPPORTED) {
            SKIP("local = %ld: %s", locals[i], tsl_context_error(ctx));
            continue;
        }
        check_case(ctx, 100, 2, locals[i], &st);
        check_case(ctx, (size_t)locals[i] + 1, 1, locals[i], &st);
    }
    tsl_context_set_option(ctx, "nbody", "local", 64);
}

/* ---- physics, independently of the reference ---------------------------------------------- */

/* Two bodies of mass m at rest, d apart along x: after one step each has v = a dt towards the
 * other, a = m d / (d^2 + eps^2)^(3/2), and has moved by v dt. */
static void test_two_bodies(tsl_context *ctx)
{
    const float m = 0.75f, d = 0.5f;
    float pos[8] = {-0.25f, 0.1f, 0.2f, m, 0.25f, 0.1f, 0.2f, m};
    float vel[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    tsl_status s = tsl_nbody(ctx, 2, 1, DT, SOFTENING, pos, vel);
    CHECK(s == TSL_OK, "two bodies: %s: %s", tsl_status_name(s), tsl_context_error(ctx));
    double eps2 = (double)SOFTENING * SOFTENING;
    double a = m * d / pow((double)d * d + eps2, 1.5), v = a * DT;
    CHECK(fabs(vel[0] - v) <= 1e-5 * v && fabs(vel[4] + v) <= 1e-5 * v,
          "two bodies: v = %.8g, %.8g, expected %.8g, %.8g", vel[0], vel[4], v, -v);
    CHECK(vel[1] == 0 && vel[2] == 0 && vel[5] == 0 && vel[6] == 0,
          "two bodies: velocity across the line of centres");
    CHECK(fabs(pos[0] - (-0.25 + v * DT)) <= 1e-6 && fabs(pos[4] - (0.25 - v * DT)) <= 1e-6,
          "two bodies: x = %.9g, %.9g", pos[0], pos[4]);
}

/* The forces are pairwise opposite: the total momentum stays put to rounding. */
static void test_momentum(tsl_context *ctx)
{
    unsigned long long st = g_seed + 99;
    const size_t n = 200;
    const int steps = 5;
    bodies b = bodies_new(n);
    fill_random(&b, &st);
    tsl_ref_nbody_totals before, after;
    tsl_ref_nbody_compute_totals(n, SOFTENING, b.pos, b.vel, &before);
    tsl_status s = tsl_nbody(ctx, n, steps, 1e-2f, SOFTENING, b.pos, b.vel);
    CHECK(s == TSL_OK, "momentum: %s: %s", tsl_status_name(s), tsl_context_error(ctx));
    tsl_ref_nbody_compute_totals(n, SOFTENING, b.pos, b.vel, &after);
    double drift = tsl_ref_nbody_momentum_drift(&before, &after);
    CHECK(drift <= tsl_ref_nbody_tolerance(steps), "momentum drift %.3g after %d steps", drift,
          steps);
    bodies_free(&b);
}

static void test_nothing_moves(tsl_context *ctx)
{
    unsigned long long st = g_seed + 7;
    bodies in = bodies_new(50);
    fill_random(&in, &st);
    bodies b = bodies_copy(&in);
    tsl_status s = tsl_nbody(ctx, 50, 0, DT, SOFTENING, b.pos, b.vel);
    CHECK(s == TSL_OK, "steps = 0: %s", tsl_status_name(s));
    CHECK(memcmp(b.pos, in.pos, 200 * sizeof(float)) == 0 &&
              memcmp(b.vel, in.vel, 200 * sizeof(float)) == 0,
          "steps = 0 changed the bodies");
    s = tsl_nbody(ctx, 0, 3, DT, SOFTENING, NULL, NULL);
    CHECK(s == TSL_OK, "n = 0 with NULL arrays: %s: %s", tsl_status_name(s),
          tsl_context_error(ctx));
    s = tsl_nbody(ctx, 50, 2, DT, SOFTENING, b.pos, b.vel);
    tsl_timing t = {-1, -1, -1, -1};
    CHECK(s == TSL_OK && tsl_context_timing(ctx, &t) == TSL_OK && t.kernel_ms > 0 &&
              t.upload_ms >= 0 && t.download_ms >= 0,
          "timing after a run: kernel %.3g upload %.3g download %.3g ms", t.kernel_ms, t.upload_ms,
          t.download_ms);
    bodies_free(&in);
    bodies_free(&b);
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void test_errors(tsl_context *ctx)
{
    unsigned long long st = g_seed;
    bodies in = bodies_new(9);
    fill_random(&in, &st);
    bodies b = bodies_copy(&in);
    struct {
        const char *what, *word;
        size_t n;
        int steps;
        float dt, softening;
        float *pos, *vel;
    } cases[] = {
        {"pos NULL", "pos", 9, 1, DT, SOFTENING, NULL, b.vel},
        {"vel NULL", "vel", 9, 1, DT, SOFTENING, b.pos, NULL},
        {"pos == vel", "vel", 9, 1, DT, SOFTENING, b.pos, b.pos},
        {"steps < 0", "steps", 9, -1, DT, SOFTENING, b.pos, b.vel},
        {"dt NaN", "dt", 9, 1, NAN, SOFTENING, b.pos, b.vel},
        {"dt inf", "dt", 9, 1, INFINITY, SOFTENING, b.pos, b.vel},
        {"softening 0", "softening", 9, 1, DT, 0.0f, b.pos, b.vel},
        {"softening < 0", "softening", 9, 1, DT, -0.05f, b.pos, b.vel},
        {"softening NaN", "softening", 9, 1, DT, NAN, b.pos, b.vel},
        {"softening tiny", "softening", 9, 1, DT, 1e-20f, b.pos, b.vel},
        {"softening huge", "softening", 9, 1, DT, 1e20f, b.pos, b.vel},
        {"steps 0, pos NULL", "pos", 9, 0, DT, SOFTENING, NULL, b.vel},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        tsl_status s = tsl_nbody(ctx, cases[i].n, cases[i].steps, cases[i].dt, cases[i].softening,
                                 cases[i].pos, cases[i].vel);
        CHECK(s == TSL_ERR_INVALID_ARG, "%s: %s, expected TSL_ERR_INVALID_ARG", cases[i].what,
              tsl_status_name(s));
        CHECK(check_mentions(tsl_context_error(ctx), cases[i].word),
              "%s: message \"%s\" does not name %s", cases[i].what, tsl_context_error(ctx),
              cases[i].word);
        CHECK(memcmp(b.pos, in.pos, 36 * sizeof(float)) == 0 &&
                  memcmp(b.vel, in.vel, 36 * sizeof(float)) == 0,
              "%s: the bodies were written", cases[i].what);
    }
    tsl_status s = tsl_nbody(NULL, 9, 1, DT, SOFTENING, b.pos, b.vel);
    CHECK(s == TSL_ERR_INVALID_ARG && check_mentions(tsl_last_error(), "ctx"), "ctx NULL: %s: %s",
          tsl_status_name(s), tsl_last_error());
    /* Body counts too large for the device or for the byte count: an error, never a touch. */
    const size_t huge[] = {(size_t)1 << 30, (size_t)1 << 40, SIZE_MAX / 2, SIZE_MAX};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; ++i) {
        s = tsl_nbody(ctx, huge[i], 1, DT, SOFTENING, b.pos, b.vel);
        CHECK(s != TSL_OK && tsl_context_error(ctx)[0], "n = %zu: %s without a message", huge[i],
              tsl_status_name(s));
        CHECK(memcmp(b.pos, in.pos, 36 * sizeof(float)) == 0, "n = %zu: pos written", huge[i]);
    }
    /* Options and variants. */
    tsl_device_info dev;
    tsl_context_device(ctx, &dev);
    const long bad_local[] = {0, -4, (long)dev.max_work_group + 1};
    for (size_t i = 0; i < sizeof bad_local / sizeof bad_local[0]; ++i) {
        CHECK(tsl_context_set_option(ctx, "nbody", "local", bad_local[i]) == TSL_ERR_INVALID_ARG,
              "local = %ld accepted", bad_local[i]);
        CHECK(check_mentions(tsl_context_error(ctx), "local"), "message: %s",
              tsl_context_error(ctx));
    }
    CHECK(tsl_context_set_option(ctx, "nbody", "tile", 8) == TSL_ERR_INVALID_ARG,
          "unknown option accepted");
    CHECK(check_mentions(tsl_context_error(ctx), "tile"), "message: %s", tsl_context_error(ctx));
    CHECK(tsl_context_set_variant(ctx, "nbody", "unrolled") == TSL_ERR_INVALID_ARG,
          "unknown variant accepted");
    CHECK(check_mentions(tsl_context_error(ctx), "unrolled"), "message: %s",
          tsl_context_error(ctx));
    const char *resolved = NULL;
    CHECK(tsl_variant_check(ctx, "nbody", "auto", &resolved) == TSL_OK && resolved &&
              strcmp(resolved, "optimized") == 0,
          "auto resolves to %s", resolved ? resolved : "(nothing)");
    /* After all that, a good call still works. */
    s = tsl_nbody(ctx, 9, 1, DT, SOFTENING, b.pos, b.vel);
    CHECK(s == TSL_OK, "a good call after the bad ones: %s: %s", tsl_status_name(s),
          tsl_context_error(ctx));
    bodies_free(&in);
    bodies_free(&b);
}

/* ---- the variant list ------------------------------------------------------------------------ */

static int expect_variants(char **names, int count)
{
    for (int i = 0; i < count; ++i)
        CHECK(tsl_variant_name("nbody", (size_t)i) &&
                  strcmp(tsl_variant_name("nbody", (size_t)i), names[i]) == 0,
              "variant %d is %s, tests/workloads_nbody.cmake expects %s", i,
              tsl_variant_name("nbody", (size_t)i) ? tsl_variant_name("nbody", (size_t)i)
                                                   : "(none)",
              names[i]);
    CHECK(tsl_variant_name("nbody", (size_t)count) == NULL,
          "the library has a variant %s the tests do not run: add it to "
          "tests/workloads_nbody.cmake",
          tsl_variant_name("nbody", (size_t)count));
    return check_summary("test_nbody --expect-variants");
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--expect-variants") == 0)
        return expect_variants(argv + 2, argc - 2);
    if (argc != 2) {
        fprintf(stderr, "usage: test_nbody VARIANT|errors | --expect-variants NAME...\n");
        return 2;
    }
    g_variant = argv[1];
    const char *seed_env = getenv("TSL_TEST_SEED");
    if (seed_env && *seed_env) g_seed = strtoull(seed_env, NULL, 0);
    char name[96];
    snprintf(name, sizeof name, "test_nbody %s", g_variant);

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
    st = tsl_context_set_variant(ctx, "nbody", g_variant);
    if (st == TSL_ERR_UNSUPPORTED) {
        SKIP("%s: %s", g_variant, tsl_context_error(ctx));
        tsl_context_destroy(ctx);
        return check_summary(name);
    }
    CHECK(st == TSL_OK, "set_variant %s: %s: %s", g_variant, tsl_status_name(st),
          tsl_context_error(ctx));
    if (st != TSL_OK) return check_summary(name);
    test_against_reference(ctx);
    test_two_bodies(ctx);
    test_momentum(ctx);
    test_nothing_moves(ctx);
    tsl_context_destroy(ctx);
    return check_summary(name);
}
