/* test_pi.c: correctness of tsl_pi, 002's "Pi calculation". One process tests one variant named
 * on the command line (`test_pi original`, ..., `test_pi auto`), so ctest runs them in parallel;
 * `test_pi launches` runs multithread and float16 under odd --global/--local launches;
 * `test_pi errors` tests bad input and options; `test_pi --expect-variants NAME...` asserts that
 * tsl_variant_name lists exactly the variants tests/workloads_pi_kmeans.cmake registers.
 *
 * For each variant and launch:
 * - step counts 1, 2, 3, 7, 8, 15, 16, 17, 199, 200, 201, 1000, 4099, 65537, 1000003 (not
 *   multiples of any vector width, block or launch) and 2^24 + 3 (past the last step index a
 *   float holds exactly): |pi - ref| / ref <= TSL_REF_PI_TOLERANCE against tsl_ref_pi of the same
 *   steps, the kernels' worst-case bound (docs/pi.md);
 * - the tolerance can see a wrong kernel: for every count up to 65537 the test computes on the
 *   host what three typical bugs would return, the left rule x = i h (an off-by-half in the step
 *   index), a sum that skips the last step (an off-by-one in a range), and one that counts a step
 *   twice, and checks that each is further from the reference than the tolerance; under the
 *   launches it also checks that losing one work-item's partial sum would fail;
 * - the same bits on every call (no atomics), and a timing breakdown with kernel_ms > 0;
 * - *pi is written only on success. */
#include "check.h"
#include "ref/workloads.h"
#include "tessel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const unsigned long long step_counts[] = {
    1, 2, 3, 7, 8, 15, 16, 17, 199, 200, 201, 1000, 4099, 65537, 1000003, (1ull << 24) + 3};
#define NCOUNTS (sizeof step_counts / sizeof step_counts[0])
#define SENSITIVE_MAX 65537 /* counts up to this one must be able to see a single wrong step */

static double term(unsigned long long i, unsigned long long steps)
{
    double h = 1.0 / (double)steps, x = ((double)i + 0.5) * h;
    return 4.0 / (1.0 + x * x);
}

/* What a kernel with a typical bug would return, computed on the host in double. */
static double left_rule(unsigned long long steps)
{
    double h = 1.0 / (double)steps, sum = 0.0;
    for (unsigned long long i = 0; i < steps; ++i) {
        double x = (double)i * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return sum * h;
}

static double rel(double a, double b)
{
    return fabs(a - b) / fabs(b);
}

/* The claim that the tolerance fails wrong kernels, checked for this count. */
static void check_sensitivity(unsigned long long steps, double ref)
{
    if (steps > SENSITIVE_MAX) return;
    double h = 1.0 / (double)steps;
    double skip_last = ref - term(steps - 1, steps) * h;
    double twice_first = ref + term(0, steps) * h;
    CHECK(rel(left_rule(steps), ref) > TSL_REF_PI_TOLERANCE,
          "steps %llu: the left rule is within the tolerance (%.3g); the test could not see it",
          steps, rel(left_rule(steps), ref));
    CHECK(rel(skip_last, ref) > TSL_REF_PI_TOLERANCE,
          "steps %llu: a skipped step is within the tolerance; the test could not see it", steps);
    CHECK(rel(twice_first, ref) > TSL_REF_PI_TOLERANCE,
          "steps %llu: a doubled step is within the tolerance; the test could not see it", steps);
}

/* Every step count on the context's current variant and launch; `items` (0: unknown) is the
 * launch's work-item count, for the lost-partial claim. */
static void check_counts(tsl_context *ctx, const char *what, unsigned long long items)
{
    for (size_t c = 0; c < NCOUNTS; ++c) {
        unsigned long long steps = step_counts[c];
        double ref = tsl_ref_pi(steps);
        double pi = NAN, again = NAN;
        tsl_status st = tsl_pi(ctx, steps, &pi);
        CHECK(st == TSL_OK, "%s steps %llu: %s: %s", what, steps, tsl_status_name(st),
              tsl_context_error(ctx));
        if (st != TSL_OK) continue;
        CHECK(rel(pi, ref) <= TSL_REF_PI_TOLERANCE,
              "%s steps %llu: pi = %.12f, reference %.12f, relative error %.3g > %.3g", what, steps,
              pi, ref, rel(pi, ref), TSL_REF_PI_TOLERANCE);
        tsl_timing t = {-1, -1, -1, -1};
        CHECK(tsl_context_timing(ctx, &t) == TSL_OK && t.kernel_ms > 0 && t.build_ms >= 0 &&
                  t.download_ms >= 0,
              "%s steps %llu: timing kernel %g build %g download %g ms", what, steps, t.kernel_ms,
              t.build_ms, t.download_ms);
        st = tsl_pi(ctx, steps, &again);
        CHECK(st == TSL_OK && memcmp(&pi, &again, sizeof pi) == 0,
              "%s steps %llu: two calls gave %.17g and %.17g", what, steps, pi, again);
        check_sensitivity(steps, ref);
        /* One work-item's partial sum lost: at least steps / items terms of at least 2 h. */
        if (items && steps >= items)
            CHECK((double)(steps / items) * 2.0 / (double)steps / ref > TSL_REF_PI_TOLERANCE,
                  "%s steps %llu: losing one of %llu partial sums would pass", what, steps, items);
    }
}

static void test_variant(tsl_context *ctx, const char *variant)
{
    tsl_status st = tsl_context_set_variant(ctx, "pi", variant);
    if (st == TSL_ERR_UNSUPPORTED) {
        SKIP("%s: %s", variant, tsl_context_error(ctx));
        return;
    }
    CHECK(st == TSL_OK, "set_variant %s: %s: %s", variant, tsl_status_name(st),
          tsl_context_error(ctx));
    if (st == TSL_OK) check_counts(ctx, variant, 0);
}

/* multithread and float16 under launches that divide nothing: one work-item, a group of 7, a
 * global size that is rounded up (13 in groups of 4 runs 16), 002's 50-item groups. */
static void test_launches(tsl_context *ctx)
{
    static const struct {
        long global, local, runs;
    } launches[] = {{1, 1, 1}, {7, 7, 7}, {13, 4, 16}, {1000, 50, 1000}, {4608, 64, 4608}};
    const char *variants[] = {"multithread", "float16"};
    for (size_t v = 0; v < 2; ++v) {
        tsl_status st = tsl_context_set_variant(ctx, "pi", variants[v]);
        CHECK(st == TSL_OK, "set_variant %s: %s", variants[v], tsl_context_error(ctx));
        for (size_t l = 0; l < sizeof launches / sizeof launches[0]; ++l) {
            st = tsl_context_set_option(ctx, "pi", "local", launches[l].local);
            if (st == TSL_OK) st = tsl_context_set_option(ctx, "pi", "global", launches[l].global);
            CHECK(st == TSL_OK, "options global %ld local %ld: %s", launches[l].global,
                  launches[l].local, tsl_context_error(ctx));
            char what[96];
            snprintf(what, sizeof what, "%s global %ld local %ld", variants[v], launches[l].global,
                     launches[l].local);
            check_counts(ctx, what, (unsigned long long)launches[l].runs);
        }
    }
}

static void test_errors(tsl_context *ctx)
{
    const double sentinel = -12345.0;
    double pi = sentinel;
    tsl_status st = tsl_pi(NULL, 100, &pi);
    CHECK(st == TSL_ERR_INVALID_ARG && check_mentions(tsl_last_error(), "ctx") && pi == sentinel,
          "NULL ctx: %s '%s'", tsl_status_name(st), tsl_last_error());
    st = tsl_pi(ctx, 100, NULL);
    CHECK(st == TSL_ERR_INVALID_ARG && check_mentions(tsl_context_error(ctx), "pi"),
          "NULL pi: %s '%s'", tsl_status_name(st), tsl_context_error(ctx));
    st = tsl_pi(ctx, 0, &pi);
    CHECK(st == TSL_ERR_INVALID_ARG && check_mentions(tsl_context_error(ctx), "steps") &&
              pi == sentinel,
          "steps 0: %s '%s', pi %g", tsl_status_name(st), tsl_context_error(ctx), pi);

    /* Options: names and ranges; a refused value leaves the launch as it was. */
    tsl_device_info dev;
    tsl_context_device(ctx, &dev);
    struct {
        const char *name;
        long value;
    } bad[] = {{"global", 0}, {"global", -1}, {"global", (1L << 22) + 1},
               {"local", 0},  {"local", -5},  {"local", (long)dev.max_work_group + 1},
               {"tile", 8},   {"", 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        st = tsl_context_set_option(ctx, "pi", bad[i].name, bad[i].value);
        CHECK(st == TSL_ERR_INVALID_ARG &&
                  (check_mentions(tsl_context_error(ctx), bad[i].name) || !*bad[i].name),
              "option %s = %ld: %s '%s'", bad[i].name, bad[i].value, tsl_status_name(st),
              tsl_context_error(ctx));
    }
    CHECK(tsl_context_set_option(ctx, "pi", NULL, 1) == TSL_ERR_INVALID_ARG, "NULL option name");
    st = tsl_context_set_variant(ctx, "pi", "float3");
    CHECK(st == TSL_ERR_INVALID_ARG && check_mentions(tsl_context_error(ctx), "float3"),
          "unknown variant: %s '%s'", tsl_status_name(st), tsl_context_error(ctx));
    /* after all that, the context still computes */
    pi = sentinel;
    st = tsl_pi(ctx, 7, &pi);
    CHECK(st == TSL_OK && rel(pi, tsl_ref_pi(7)) <= TSL_REF_PI_TOLERANCE,
          "after the errors: %s, pi %.10f", tsl_status_name(st), pi);
}

static int expect_variants(char **names, int count)
{
    for (int i = 0; i < count; ++i) {
        const char *have = tsl_variant_name("pi", (size_t)i);
        CHECK(have && strcmp(have, names[i]) == 0,
              "variant %d is %s, tests/workloads_pi_kmeans.cmake expects %s", i,
              have ? have : "(none)", names[i]);
    }
    CHECK(tsl_variant_name("pi", (size_t)count) == NULL,
          "the library has a variant %s the tests do not run: add it to "
          "tests/workloads_pi_kmeans.cmake",
          tsl_variant_name("pi", (size_t)count));
    return check_summary("test_pi --expect-variants");
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--expect-variants") == 0)
        return expect_variants(argv + 2, argc - 2);
    if (argc != 2) {
        fprintf(stderr, "usage: test_pi VARIANT|launches|errors | --expect-variants NAME...\n");
        return 2;
    }
    char name[96];
    snprintf(name, sizeof name, "test_pi %s", argv[1]);
    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(NULL, &ctx);
    CHECK(st == TSL_OK && ctx, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary(name);
    tsl_device_info dev;
    tsl_context_device(ctx, &dev);
    printf("device: %s (%s)\n", dev.name, dev.platform);
    if (strcmp(argv[1], "errors") == 0)
        test_errors(ctx);
    else if (strcmp(argv[1], "launches") == 0)
        test_launches(ctx);
    else
        test_variant(ctx, argv[1]);
    tsl_context_destroy(ctx);
    return check_summary(name);
}
