/* test_devices.c: device discovery and the device_spec rules of docs/design.md ("Device
 * selection"). tsl_devices finds at least one device here, reports the same count whatever the
 * capacity passed, and fills every field (name, platform, type, compute units, work-group size,
 * memories, fp64 as 0/1, distinct "P:D" indices). Specs: NULL and "" pick the first GPU, else the
 * first device; "P:D" picks exactly that device, for every device listed; "99:99" and "0:99" are
 * TSL_ERR_NO_DEVICE with a message in tsl_last_error(); any other text picks the first device whose
 * name or platform name contains it, case-insensitively (checked with a word of the first device's
 * name and of its platform, in changed case); "pocl" and "POCL" pick a PoCL device where PoCL is
 * installed; the TESSEL_DEVICE environment variable is honoured when the spec is NULL or "" and
 * ignored when a spec is given. tsl_context_device agrees with the tsl_devices entry of the chosen
 * device. */
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "tessel.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static tsl_device_info *g_list;
static size_t g_count;

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == n) return 1;
    }
    return n == 0;
}

static int is_pocl(const tsl_device_info *d)
{
    return contains_ci(d->platform, "pocl") || contains_ci(d->platform, "portable computing");
}

/* Index in g_list of the device a context on spec chose, or -1 (after a failed check). */
static int chosen(const char *spec)
{
    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(spec, &ctx);
    CHECK(st == TSL_OK && ctx, "tsl_context_create(\"%s\") = %s: %s", spec ? spec : "(NULL)",
          tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return -1;
    tsl_device_info info;
    memset(&info, 0, sizeof info);
    st = tsl_context_device(ctx, &info);
    CHECK(st == TSL_OK, "tsl_context_device = %s", tsl_status_name(st));
    tsl_context_destroy(ctx);
    for (size_t i = 0; i < g_count; ++i)
        if (g_list[i].platform_index == info.platform_index &&
            g_list[i].device_index == info.device_index) {
            CHECK(strcmp(g_list[i].name, info.name) == 0 &&
                      strcmp(g_list[i].platform, info.platform) == 0 &&
                      g_list[i].compute_units == info.compute_units &&
                      g_list[i].fp64 == info.fp64 &&
                      g_list[i].max_work_group == info.max_work_group,
                  "tsl_context_device for \"%s\" (%s) disagrees with tsl_devices entry %zu (%s)",
                  spec ? spec : "(NULL)", info.name, i, g_list[i].name);
            return (int)i;
        }
    CHECK(0, "spec \"%s\" chose %d:%d (%s), which tsl_devices does not list",
          spec ? spec : "(NULL)", info.platform_index, info.device_index, info.name);
    return -1;
}

static void expect_no_device(const char *spec)
{
    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(spec, &ctx);
    CHECK(st == TSL_ERR_NO_DEVICE, "tsl_context_create(\"%s\") = %s, want TSL_ERR_NO_DEVICE",
          spec ? spec : "(NULL)", tsl_status_name(st));
    CHECK(ctx == NULL, "a failed tsl_context_create(\"%s\") returned a context",
          spec ? spec : "(NULL)");
    CHECK(tsl_last_error()[0] != '\0', "tsl_context_create(\"%s\"): tsl_last_error() is empty",
          spec ? spec : "(NULL)");
    tsl_context_destroy(ctx);
}

/* The device the text rule picks: the first whose name or platform contains text. */
static int first_matching(const char *text)
{
    for (size_t i = 0; i < g_count; ++i)
        if (contains_ci(g_list[i].name, text) || contains_ci(g_list[i].platform, text))
            return (int)i;
    return -1;
}

/* The first run of at least 3 letters in s, with every letter's case flipped. */
static int flipped_word(const char *s, char *out, size_t cap)
{
    for (const char *p = s; *p; ++p) {
        size_t n = 0;
        while (isalpha((unsigned char)p[n]))
            ++n;
        if (n >= 3 && n < cap) {
            for (size_t i = 0; i < n; ++i) {
                unsigned char ch = (unsigned char)p[i];
                out[i] = (char)(isupper(ch) ? tolower(ch) : toupper(ch));
            }
            out[n] = '\0';
            return 1;
        }
        if (n) p += n - 1;
    }
    return 0;
}

static void test_listing(void)
{
    size_t count = 0;
    tsl_status st = tsl_devices(NULL, 0, &count);
    CHECK(st == TSL_OK, "tsl_devices(NULL, 0, &count) = %s: %s", tsl_status_name(st),
          tsl_last_error());
    CHECK(count >= 1, "tsl_devices found no device (PoCL should be one)");
    if (count == 0) return;
    g_list = calloc(count + 1, sizeof *g_list);
    size_t count2 = 0;
    st = tsl_devices(g_list, count + 1, &count2);
    CHECK(st == TSL_OK && count2 == count, "tsl_devices(list, %zu) = %s, count %zu (was %zu)",
          count + 1, tsl_status_name(st), count2, count);
    g_count = count;

    tsl_device_info first;
    size_t count3 = 0;
    st = tsl_devices(&first, 1, &count3);
    CHECK(st == TSL_OK && count3 == count,
          "tsl_devices(list, 1) = %s, count %zu: the count must be all devices (%zu)",
          tsl_status_name(st), count3, count);
    CHECK(st != TSL_OK || strcmp(first.name, g_list[0].name) == 0,
          "tsl_devices(list, 1) gave \"%s\", the full list starts with \"%s\"", first.name,
          g_list[0].name);

    for (size_t i = 0; i < count; ++i) {
        const tsl_device_info *d = &g_list[i];
        printf("device %d:%d  %s | %s | %s | %u CU, %u MHz, max wg %zu, global %llu MiB, local "
               "%llu KiB, max alloc %llu MiB, fp64 %d, driver %s, %s\n",
               d->platform_index, d->device_index, d->name, d->platform, d->type, d->compute_units,
               d->clock_mhz, d->max_work_group, d->global_mem >> 20, d->local_mem >> 10,
               d->max_alloc >> 20, d->fp64, d->driver_version, d->opencl_version);
        CHECK(d->name[0], "device %zu: empty name", i);
        CHECK(d->platform[0], "device %zu: empty platform", i);
        CHECK(d->driver_version[0], "device %zu: empty driver_version", i);
        CHECK(contains_ci(d->opencl_version, "opencl"), "device %zu: opencl_version \"%s\"", i,
              d->opencl_version);
        CHECK(strcmp(d->type, "gpu") == 0 || strcmp(d->type, "cpu") == 0 ||
                  strcmp(d->type, "accel") == 0 || strcmp(d->type, "other") == 0,
              "device %zu: type \"%s\"", i, d->type);
        CHECK(d->compute_units >= 1, "device %zu: compute_units %u", i, d->compute_units);
        CHECK(d->max_work_group >= 1, "device %zu: max_work_group %zu", i, d->max_work_group);
        CHECK(d->global_mem > 0 && d->local_mem > 0, "device %zu: global %llu local %llu", i,
              d->global_mem, d->local_mem);
        CHECK(d->max_alloc > 0 && d->max_alloc <= d->global_mem,
              "device %zu: max_alloc %llu (global %llu)", i, d->max_alloc, d->global_mem);
        CHECK(d->fp64 == 0 || d->fp64 == 1, "device %zu: fp64 %d", i, d->fp64);
        CHECK(d->platform_index >= 0 && d->device_index >= 0, "device %zu: index %d:%d", i,
              d->platform_index, d->device_index);
        for (size_t j = 0; j < i; ++j)
            CHECK(g_list[j].platform_index != d->platform_index ||
                      g_list[j].device_index != d->device_index,
                  "devices %zu and %zu share the index %d:%d", j, i, d->platform_index,
                  d->device_index);
    }
}

static void test_specs(void)
{
    /* NULL and "": the first GPU, else the first device. */
    int expect = 0;
    for (size_t i = 0; i < g_count; ++i)
        if (strcmp(g_list[i].type, "gpu") == 0) {
            expect = (int)i;
            break;
        }
    int got = chosen(NULL);
    CHECK(got == expect, "spec NULL chose device %d, want %d (first GPU, else first)", got, expect);
    got = chosen("");
    CHECK(got == expect, "spec \"\" chose device %d, want %d", got, expect);

    /* "P:D" for every device. */
    for (size_t i = 0; i < g_count; ++i) {
        char spec[32];
        snprintf(spec, sizeof spec, "%d:%d", g_list[i].platform_index, g_list[i].device_index);
        got = chosen(spec);
        CHECK(got == (int)i, "spec \"%s\" chose device %d, want %zu", spec, got, i);
    }
    got = chosen("0:0");
    CHECK(got >= 0 && g_list[got].platform_index == 0 && g_list[got].device_index == 0,
          "spec \"0:0\" chose device %d", got);

    expect_no_device("99:99");
    expect_no_device("0:99");
    expect_no_device("no such device 8c1e");

    /* Text: case-insensitive substring of the name or the platform name. */
    char word[64];
    if (flipped_word(g_list[0].name, word, sizeof word)) {
        got = chosen(word);
        CHECK(got == first_matching(word), "spec \"%s\" (from name \"%s\") chose %d, want %d", word,
              g_list[0].name, got, first_matching(word));
    }
    if (flipped_word(g_list[0].platform, word, sizeof word)) {
        got = chosen(word);
        CHECK(got == first_matching(word), "spec \"%s\" (from platform \"%s\") chose %d, want %d",
              word, g_list[0].platform, got, first_matching(word));
    }

    /* "pocl", any case, where PoCL is installed (its platform name is "Portable Computing
     * Language": the spec rules must still find it by the name users know). */
    int have_pocl = 0;
    for (size_t i = 0; i < g_count; ++i)
        have_pocl |= is_pocl(&g_list[i]);
    if (have_pocl) {
        static const char *specs[] = {"pocl", "POCL", "PoCL"};
        for (int s = 0; s < 3; ++s) {
            got = chosen(specs[s]);
            CHECK(got >= 0 && is_pocl(&g_list[got]), "spec \"%s\" chose %d (%s), not PoCL",
                  specs[s], got, got >= 0 ? g_list[got].platform : "none");
        }
    } else {
        SKIP("\"pocl\" spec: no PoCL platform here");
    }
}

static void test_environment(void)
{
    /* An impossible TESSEL_DEVICE proves it is read for NULL and "". */
    setenv("TESSEL_DEVICE", "99:99", 1);
    expect_no_device(NULL);
    expect_no_device("");
    int got = chosen("0:0"); /* an explicit spec wins over the variable */
    CHECK(got >= 0 && g_list[got].platform_index == 0 && g_list[got].device_index == 0,
          "with TESSEL_DEVICE=99:99 spec \"0:0\" chose device %d", got);

    /* TESSEL_DEVICE naming the last device: NULL picks it. */
    char spec[32];
    const tsl_device_info *last = &g_list[g_count - 1];
    snprintf(spec, sizeof spec, "%d:%d", last->platform_index, last->device_index);
    setenv("TESSEL_DEVICE", spec, 1);
    got = chosen(NULL);
    CHECK(got == (int)g_count - 1, "TESSEL_DEVICE=%s: spec NULL chose %d", spec, got);

    /* TESSEL_DEVICE as text. */
    char word[64];
    if (flipped_word(last->name, word, sizeof word)) {
        setenv("TESSEL_DEVICE", word, 1);
        got = chosen(NULL);
        CHECK(got == first_matching(word), "TESSEL_DEVICE=%s: spec NULL chose %d, want %d", word,
              got, first_matching(word));
    }
    unsetenv("TESSEL_DEVICE");
}

int main(void)
{
    unsetenv("TESSEL_DEVICE"); /* the NULL-spec rules below assume it unset */
    test_listing();
    if (g_count > 0) {
        test_specs();
        test_environment();
    }
    free(g_list);
    return check_summary("test_devices");
}
