/* test_tune_lookup.c: the tuning database's lookup order (docs/tuning.md, "Lookup order"). Modes,
 * one ctest each:
 *  - names: device names normalized for the device level (vendor prefixes, the marks (R) and
 *    (TM), the board's memory dropped; case and spacing ignored), the full name kept as the
 *    second device key, vendors mapped (PoCL's CPU devices: pocl);
 *  - levels: on synthetic device descriptions (name, vendor, platform, type, architecture) and a
 *    synthetic database, which entry wins: device (by either name), architecture, vendor, type,
 *    default, each level taken only where the more specific ones have no entry for the op,
 *    precision and class; the user's entries ahead of every shipped one at any level; the
 *    source naming the selector (the level) it came from;
 *  - shipped: the shipped defaults (embedded) on an H100, an H200 and an H100 PCIe (the
 *    architecture sm_90 gives each the H100's entries), another GPU and PoCL;
 *  - trsm: TRSM's block sizes, part counts and leaf classes come from the database's trsm entry
 *    on the real device (PoCL): the built-in values without one, a user entry changes what is
 *    looked up (and the public lookup says so), per precision, the options still override, a
 *    malformed entry is a warning and the built-ins serve, and a TRSM run under an entry that
 *    changes its leaves and parts still verifies. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "level3/level3.h"
#include "ref/ref_level3.h"
#include "runtime/runtime.h"
#include "tessel.h"
#include "tune/tune.h"

/* ---- names ----------------------------------------------------------------------------------- */

static void test_names(void)
{
    static const struct {
        const char *name, *device;
    } cases[] = {{"NVIDIA H100 80GB HBM3", "h100"},
                 {"NVIDIA H100 PCIe", "h100_pcie"},
                 {"NVIDIA H100 NVL", "h100_nvl"},
                 {"NVIDIA H200", "h200"},
                 {"H200", "h200"},
                 {"  nvidia   h200 ", "h200"},
                 {"NVIDIA GH200 480GB", "gh200"},
                 {"NVIDIA A100-SXM4-80GB", "a100_sxm4"},
                 {"NVIDIA A100-SXM4-40GB", "a100_sxm4"},
                 {"Tesla V100-SXM2-16GB", "tesla_v100_sxm2"},
                 {"NVIDIA GeForce RTX 4090", "geforce_rtx_4090"},
                 {"Quadro RTX 8000 48GB GDDR6", "quadro_rtx_8000"},
                 {"AMD Instinct MI250X 128GB HBM2e", "instinct_mi250x"},
                 {"AMD Radeon RX 7900 XTX", "radeon_rx_7900_xtx"},
                 {"Intel(R) Data Center GPU Max 1550", "data_center_gpu_max_1550"},
                 {"Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz", "core_i7_8700_cpu_3_20ghz"},
                 {"pthread-haswell-AMD EPYC", "pthread_haswell_amd_epyc"},
                 {"NVIDIA", "nvidia"},
                 {"80GB", "80gb"},
                 {"", ""}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char out[128];
        tsl__tuning_device_name(cases[i].name, out, sizeof out);
        CHECK(strcmp(out, cases[i].device) == 0, "'%s' -> '%s', want '%s'", cases[i].name, out,
              cases[i].device);
    }
    static const struct {
        const char *vendor, *platform, *type, *key;
    } vendors[] = {
        {"NVIDIA Corporation", "NVIDIA CUDA", "gpu", "nvidia"},
        {"Advanced Micro Devices, Inc.", "AMD Accelerated Parallel Processing", "gpu", "amd"},
        {"Intel(R) Corporation", "Intel(R) OpenCL Graphics", "gpu", "intel"},
        {"AuthenticAMD", "Portable Computing Language", "cpu", "pocl"},
        {"GenuineIntel", "Portable Computing Language", "cpu", "pocl"},
        {"GenuineIntel", "Intel(R) CPU Runtime for OpenCL(TM) Applications", "cpu", "intel"},
        {"Qualcomm Technologies, Inc", "QUALCOMM Snapdragon(TM)", "gpu", "qualcomm"}};
    for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; ++i) {
        tsl__device_desc d = {.name = "X",
                              .vendor = vendors[i].vendor,
                              .platform = vendors[i].platform,
                              .type = vendors[i].type};
        tsl__device_keys k;
        tsl__device_keys_from(&d, &k);
        CHECK(strcmp(k.vendor, vendors[i].key) == 0, "vendor '%s' on '%s' -> '%s', want '%s'",
              vendors[i].vendor, vendors[i].platform, k.vendor, vendors[i].key);
    }
    tsl__device_desc d = {.name = "NVIDIA H100 80GB HBM3",
                          .vendor = "NVIDIA Corporation",
                          .platform = "NVIDIA CUDA",
                          .type = "gpu",
                          .arch = "sm_90",
                          .driver = "580.159.04"};
    tsl__device_keys k;
    tsl__device_keys_from(&d, &k);
    CHECK(strcmp(k.device, "h100") == 0 && strcmp(k.device_full, "nvidia_h100_80gb_hbm3") == 0 &&
              strcmp(k.arch, "sm_90") == 0 && strcmp(k.type, "gpu") == 0 &&
              strcmp(k.driver, "580_159_04") == 0,
          "H100 keys: %s / %s / %s / %s / %s", k.device, k.device_full, k.arch, k.type, k.driver);
}

/* ---- levels ---------------------------------------------------------------------------------- */

typedef struct {
    const char *what, *name, *vendor, *platform, *type, *arch;
} device;

static const device h100 = {
    "H100", "NVIDIA H100 80GB HBM3", "NVIDIA Corporation", "NVIDIA CUDA", "gpu", "sm_90"};
static const device h100_pcie = {
    "H100 PCIe", "NVIDIA H100 PCIe", "NVIDIA Corporation", "NVIDIA CUDA", "gpu", "sm_90"};
static const device h200 = {"H200",        "NVIDIA H200", "NVIDIA Corporation",
                            "NVIDIA CUDA", "gpu",         "sm_90"};
static const device a100 = {
    "A100", "NVIDIA A100-SXM4-80GB", "NVIDIA Corporation", "NVIDIA CUDA", "gpu", "sm_80"};
static const device mi250 = {"MI250X",
                             "gfx90a:sramecc+:xnack-",
                             "Advanced Micro Devices, Inc.",
                             "AMD Accelerated Parallel Processing",
                             "gpu",
                             "gfx90"};
static const device pocl = {"PoCL",         "pthread-haswell-AMD EPYC",
                            "AuthenticAMD", "Portable Computing Language",
                            "cpu",          "haswell"};
static const device accel = {
    "accelerator", "Some Accelerator", "Some Vendor", "Some Platform", "accel", ""};

/* A database of the shipped text (and the user's, where not NULL) for the device. */
static tsl__tuning_db *db_for(const device *d, const char *shipped, const char *user)
{
    tsl__device_desc desc = {.name = d->name,
                             .vendor = d->vendor,
                             .platform = d->platform,
                             .type = d->type,
                             .arch = d->arch,
                             .driver = "1.0"};
    tsl__device_keys k;
    tsl__device_keys_from(&desc, &k);
    tsl__tuning_db *db = tsl__tuning_db_new(&k);
    char why[600];
    CHECK(db != NULL, "tsl__tuning_db_new");
    if (!db) return NULL;
    CHECK(tsl__tuning_db_add(db, shipped, "shipped", 0, why, sizeof why) == 0, "shipped: %s", why);
    if (user) CHECK(tsl__tuning_db_add(db, user, "user", 1, why, sizeof why) == 0, "user: %s", why);
    return db;
}

/* The configuration the device gets for (op, precision code, class) at shape m x n x k (0: no
 * shape), "" for none; *source as the lookup says. */
static const char *find(const tsl__tuning_db *db, const char *op, int dbl, const char *cls,
                        size_t m, size_t n, size_t k, const char **source)
{
    tsl__shape sh = {m, n, k};
    const char *src = "no entry";
    const char *cfg = db ? tsl__tuning_db_find(db, op, dbl, cls, m ? &sh : NULL, &src) : NULL;
    if (source) *source = src;
    return cfg ? cfg : "";
}

static const char *const levels_db =
    "tessel-tuning 2\n"
    "default gemm single any x:DEFAULT\n"
    "default gemm double any x:DEFAULT_D\n"
    "type=gpu gemm single any x:TYPE\n"
    "type=accel gemm single any x:TYPE_ACCEL\n"
    "vendor=nvidia gemm single any x:VENDOR\n"
    "vendor=amd gemm single any x:VENDOR_AMD\n"
    "arch=sm_90 gemm single any x:ARCH\n"
    "arch=sm_90 gemm double any x:ARCH_D\n"
    "arch=haswell gemm double any x:ARCH_HASWELL_D\n"
    "device=h100 gemm single any x:DEVICE\n"
    "device=h100 gemm single few x:DEVICE_FEW\n"
    "vendor=nvidia gemm single skinny x:VENDOR_SKINNY\n"
    "arch=sm_80 gemm single large x:ARCH_LARGE\n"
    "device=a100_sxm4 gemm single small x:DEVICE_SMALL measured=64x64x64\n"
    "device=nvidia_h100_pcie gemm double any x:DEVICE_PCIE_D\n"
    "vendor=nvidia trsm any any LEAF=512\n";

static void expect(const device *d, const char *user, const char *op, int dbl, const char *cls,
                   size_t m, size_t n, size_t k, const char *want, const char *want_source)
{
    tsl__tuning_db *db = db_for(d, levels_db, user);
    const char *src, *got = find(db, op, dbl, cls, m, n, k, &src);
    CHECK(strcmp(got, want) == 0, "%s%s: %s %s %s: '%s' (%s), want '%s'", d->what,
          user ? " with a user file" : "", op, dbl ? "double" : "single", cls, got, src, want);
    if (want_source)
        CHECK(strstr(src, want_source) != NULL, "%s: %s %s: source '%s' names '%s'", d->what, op,
              cls, src, want_source);
    tsl__tuning_db_free(db);
}

static void test_levels(void)
{
    /* each level where the more specific ones have nothing for (op, precision, class) */
    expect(&h100, NULL, "gemm", 0, "large", 0, 0, 0, "x:DEVICE", "shipped defaults, device=h100");
    expect(&h100_pcie, NULL, "gemm", 0, "large", 0, 0, 0, "x:ARCH", "arch=sm_90 entry");
    expect(&h200, NULL, "gemm", 0, "large", 0, 0, 0, "x:ARCH", "arch=sm_90 entry");
    expect(&a100, NULL, "gemm", 0, "small", 0, 0, 0, "x:VENDOR", "vendor=nvidia entry");
    expect(&mi250, NULL, "gemm", 0, "small", 0, 0, 0, "x:VENDOR_AMD", "vendor=amd entry");
    expect(&mi250, NULL, "gemm", 1, "small", 0, 0, 0, "x:DEFAULT_D", "default entry");
    expect(&pocl, NULL, "gemm", 0, "small", 0, 0, 0, "x:DEFAULT", "default entry");
    expect(&accel, NULL, "gemm", 0, "small", 0, 0, 0, "x:TYPE_ACCEL", "type=accel entry");
    /* per precision: the H100 has no device entry for double, so its architecture's serves */
    expect(&h100, NULL, "gemm", 1, "large", 0, 0, 0, "x:ARCH_D", "arch=sm_90");
    expect(&pocl, NULL, "gemm", 1, "large", 0, 0, 0, "x:ARCH_HASWELL_D", "arch=haswell");
    /* the device level also knows the full name (the selector older tessels wrote) */
    expect(&h100_pcie, NULL, "gemm", 1, "large", 0, 0, 0, "x:DEVICE_PCIE_D",
           "device=nvidia_h100_pcie");
    /* within a level an exact class beats any; across levels the more specific level wins */
    expect(&h100, NULL, "gemm", 0, "few", 0, 0, 0, "x:DEVICE_FEW", NULL);
    expect(&h200, NULL, "gemm", 0, "skinny", 0, 0, 0, "x:ARCH", NULL);
    expect(&a100, NULL, "gemm", 0, "skinny", 0, 0, 0, "x:VENDOR_SKINNY", "vendor=nvidia");
    expect(&a100, NULL, "gemm", 0, "large", 0, 0, 0, "x:ARCH_LARGE", "arch=sm_80");
    /* an entry measured on shapes serves only near them */
    expect(&a100, NULL, "gemm", 0, "small", 60, 70, 80, "x:DEVICE_SMALL", "measured on 64x64x64");
    expect(&a100, NULL, "gemm", 0, "small", 600, 70, 80, "x:VENDOR", NULL);
    /* ops apart: trsm's entry is not gemm's */
    expect(&h200, NULL, "trsm", 0, "any", 0, 0, 0, "LEAF=512", "vendor=nvidia");
    expect(&h200, NULL, "trsm", 1, "any", 0, 0, 0, "LEAF=512", "vendor=nvidia");
    expect(&pocl, NULL, "trsm", 0, "any", 0, 0, 0, "", NULL);

    /* the user's file: its entries ahead of every shipped one, at any level; entries for other
     * devices in it apply to nobody else */
    const char *user = "tessel-tuning 2\n"
                       "arch=sm_90 gemm single any x:USER_ARCH\n"
                       "device=h200 gemm double any x:USER_H200_D\n"
                       "device=some_other gemm single any x:USER_OTHER\n";
    expect(&h100, user, "gemm", 0, "large", 0, 0, 0, "x:USER_ARCH",
           "user database user:2, arch=sm_90");
    expect(&h200, user, "gemm", 1, "large", 0, 0, 0, "x:USER_H200_D", "user database user:3");
    expect(&h100, user, "gemm", 1, "large", 0, 0, 0, "x:ARCH_D", "shipped defaults");
    expect(&a100, user, "gemm", 0, "large", 0, 0, 0, "x:ARCH_LARGE", "shipped defaults");
    /* within the user's file the more specific level wins too */
    const char *user2 = "tessel-tuning 2\n"
                        "device=h200 gemm single any x:USER_H200\n"
                        "type=gpu gemm single any x:USER_GPU\n";
    expect(&h200, user2, "gemm", 0, "large", 0, 0, 0, "x:USER_H200", "device=h200");
    expect(&h100, user2, "gemm", 0, "large", 0, 0, 0, "x:USER_GPU", "type=gpu");
}

/* ---- shipped --------------------------------------------------------------------------------- */

static void test_shipped(void)
{
    size_t len;
    const char *text = tsl__kernel_source("defaults.tuning", &len);
    CHECK(text != NULL, "the shipped defaults are embedded");
    if (!text) return;
    const device *hopper[] = {&h100, &h200, &h100_pcie};
    static const struct {
        const char *op, *cls;
        int dbl;
        size_t m, n, k;
        const char *has; /* the configuration contains this */
    } cases[] = {{"gemm", "large", 1, 4096, 4096, 4096, "MMA=3"},
                 {"gemm", "large", 0, 8192, 8192, 8192, "NWG=256"},
                 {"gemm", "small", 0, 1024, 1024, 1024, "MWG=128,NWG=128"},
                 {"gemm", "few", 0, 0, 0, 0, "KWG=32"},
                 {"gemm", "small", 0, 128, 4096, 128, "KSPLIT=1"},
                 {"gemm", "skinny", 4, 8192, 128, 8192, "MMA=5"},
                 {"gemm", "small", 3, 2048, 2048, 64, "MMA=4"},
                 {"trsm", "any", 0, 0, 0, 0, "LEAF_LARGE_FROM=2560"},
                 {"trsm", "any", 1, 0, 0, 0, "PARTS=2,PARTS_FROM=3000"}};
    for (size_t d = 0; d < sizeof hopper / sizeof hopper[0]; ++d) {
        tsl__tuning_db *db = db_for(hopper[d], text, NULL);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
            const char *src, *cfg = find(db, cases[i].op, cases[i].dbl, cases[i].cls, cases[i].m,
                                         cases[i].n, cases[i].k, &src);
            CHECK(strstr(cfg, cases[i].has) && strstr(src, "arch=sm_90"),
                  "%s: %s %d %s: '%s' (%s), want %s from arch=sm_90", hopper[d]->what, cases[i].op,
                  cases[i].dbl, cases[i].cls, cfg, src, cases[i].has);
        }
        tsl__tuning_db_free(db);
    }
    /* another GPU: the type's entries; PoCL: the CPU's gemm entries and trsm's built-ins */
    tsl__tuning_db *db = db_for(&mi250, text, NULL);
    const char *src, *cfg = find(db, "gemm", 1, "large", 4096, 4096, 4096, &src);
    CHECK(strstr(src, "type=gpu") && !strstr(cfg, "MMA="), "MI250X double: '%s' (%s)", cfg, src);
    cfg = find(db, "trsm", 0, "any", 0, 0, 0, &src);
    CHECK(strstr(src, "type=gpu") && strstr(cfg, "LEAF_MID_FROM=1280"), "MI250X trsm: '%s' (%s)",
          cfg, src);
    tsl__tuning_db_free(db);
    db = db_for(&pocl, text, NULL);
    cfg = find(db, "gemm", 0, "large", 4096, 4096, 4096, &src);
    CHECK(strstr(src, "type=cpu") != NULL, "PoCL single: '%s' (%s)", cfg, src);
    cfg = find(db, "trsm", 0, "any", 0, 0, 0, &src);
    CHECK(*cfg == '\0', "PoCL trsm: no entry, the built-ins ('%s', %s)", cfg, src);
    tsl__tuning_db_free(db);
}

/* ---- trsm ------------------------------------------------------------------------------------ */

static char dir[256];

static tsl_context *open_ctx(void)
{
    tsl_context *ctx = NULL;
    tsl_status s = tsl_context_create(NULL, &ctx);
    CHECK(s == TSL_OK, "tsl_context_create: %s", tsl_status_name(s));
    return ctx;
}

/* The user file of the device, written with text (the file name as tsl_tuning_file gives it). */
static void write_user(const char *text)
{
    tsl_context *ctx = open_ctx();
    if (!ctx) return;
    char path[1400];
    snprintf(path, sizeof path, "%s", tsl_tuning_file(ctx));
    tsl_context_destroy(ctx);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* A left lower TRSM of m x n on the context, against the reference. */
static void trsm_ok(tsl_context *ctx, size_t m, size_t n, const char *what)
{
    float *a = malloc(m * m * sizeof *a), *b = malloc(m * n * sizeof *b),
          *r = malloc(m * n * sizeof *r);
    if (!a || !b || !r) {
        CHECK(0, "out of memory");
        free(a), free(b), free(r);
        return;
    }
    unsigned long long x = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < m * m; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = (float)((double)(x >> 40) / (double)(1ull << 24) - 0.5) / (float)m;
    }
    for (size_t i = 0; i < m; ++i)
        a[i * m + i] = 1.0f + (float)(i % 7) / 8.0f;
    for (size_t i = 0; i < m * n; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        b[i] = r[i] = (float)((double)(x >> 40) / (double)(1ull << 24) - 0.5);
    }
    tsl_status s = tsl_strsm(ctx, TSL_ROW_MAJOR, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_NON_UNIT, m,
                             n, 1.5f, a, m, b, n);
    CHECK(s == TSL_OK, "%s: tsl_strsm: %s", what, tsl_context_error(ctx));
    tsl_ref_strsm(TSL_ROW_MAJOR, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_NON_UNIT, m, n, 1.5f, a, m,
                  r, n);
    double worst = 0;
    for (size_t i = 0; i < m * n; ++i) {
        double e = fabs((double)b[i] - (double)r[i]) / (1.0 + fabs((double)r[i]));
        if (e > worst) worst = e;
    }
    CHECK(s != TSL_OK || worst < 1e-4, "%s: %zux%zu relative error %g", what, m, n, worst);
    free(a), free(b), free(r);
}

static void test_trsm(void)
{
    snprintf(dir, sizeof dir, "/tmp/tessel_tune_lookup_%ld", (long)getpid());
    mkdir(dir, 0700);
    setenv("TESSEL_TUNING_DIR", dir, 1);
    tsl_context *ctx = open_ctx();
    if (!ctx) return;
    tsl_device_info info;
    tsl_context_device(ctx, &info);
    if (strcmp(info.type, "cpu") != 0) {
        SKIP("the built-in values are checked on a CPU device (PoCL), not on %s", info.name);
    } else {
        /* no entry on a CPU: the built-in values */
        CHECK(tsl__l3_trsm_block(ctx, 0, 5000, L3_INVERSE_LEAF) == 256, "built-in leaf");
        CHECK(tsl__l3_trsm_block(ctx, 0, 5000, L3_BLOCKED) == 128, "built-in block");
        CHECK(tsl__l3_trsm_parts(ctx, 0, 5000) == 1, "built-in parts");
        CHECK(tsl__l3_trsm_own(ctx, 0, 4096, 8192) && !tsl__l3_trsm_own(ctx, 0, 4095, 8192) &&
                  !tsl__l3_trsm_own(ctx, 0, 4096, 8191),
              "built-in own-class rule");
    }
    tsl_context_destroy(ctx);

    /* a user entry (device level, by the file's name) changes each of them */
    char text[1024], devkey[300];
    ctx = open_ctx();
    if (!ctx) return;
    const char *at = strrchr(tsl_tuning_file(ctx), '/');
    snprintf(devkey, sizeof devkey, "%s", at ? at + 1 : "");
    if (strchr(devkey, '@')) *strchr(devkey, '@') = '\0';
    tsl_context_destroy(ctx);
    snprintf(text, sizeof text,
             "tessel-tuning 2\n"
             "device=%s trsm any any NB=32,NB_LARGE=48,NB_LARGE_FROM=100,LEAF=64,LEAF_MID=96,"
             "LEAF_MID_FROM=150,PARTS=3,PARTS_FROM=200,OWN_PART=0\n"
             "device=%s trsm double any LEAF=40\n",
             devkey, devkey);
    write_user(text);
    ctx = open_ctx();
    if (!ctx) return;
    CHECK(tsl__l3_trsm_block(ctx, 0, 99, L3_BLOCKED) == 32, "NB");
    CHECK(tsl__l3_trsm_block(ctx, 0, 100, L3_INVERSE) == 48, "NB_LARGE from NB_LARGE_FROM");
    CHECK(tsl__l3_trsm_block(ctx, 0, 149, L3_INVERSE_LEAF) == 64, "LEAF");
    CHECK(tsl__l3_trsm_block(ctx, 0, 150, L3_INVERSE_LEAF) == 96, "LEAF_MID from LEAF_MID_FROM");
    CHECK(tsl__l3_trsm_block(ctx, 0, 5000, L3_INVERSE_LEAF) == 96, "LEAF_LARGE off (built-in)");
    CHECK(tsl__l3_trsm_parts(ctx, 0, 199) == 1 && tsl__l3_trsm_parts(ctx, 0, 200) == 3, "PARTS");
    CHECK(!tsl__l3_trsm_own(ctx, 0, 9000, 9000), "OWN_PART=0 turns the rule off");
    /* double has an entry of its own: the fields it leaves out take the built-in values */
    CHECK(tsl__l3_trsm_block(ctx, 1, 150, L3_INVERSE_LEAF) == 40, "double's LEAF");
    CHECK(tsl__l3_trsm_parts(ctx, 1, 5000) == 1 &&
              tsl__l3_trsm_block(ctx, 1, 99, L3_BLOCKED) == 128,
          "double's other fields are the built-ins");
    /* the public lookup says what applies and where from */
    const char *cfg, *src;
    CHECK(tsl_tuning_lookup(ctx, "trsm", TSL_SINGLE, 0, 0, 0, &cfg, &src) == TSL_OK &&
              strncmp(cfg, "NB=32,", 6) == 0 && strstr(src, "user database") &&
              strstr(src, "device="),
          "tsl_tuning_lookup trsm: '%s' (%s)", cfg, src);
    CHECK(strstr(tsl_tuning_selectors(ctx), "device=") == tsl_tuning_selectors(ctx) &&
              strstr(tsl_tuning_selectors(ctx), " type=") &&
              strstr(tsl_tuning_selectors(ctx), " default"),
          "tsl_tuning_selectors: '%s'", tsl_tuning_selectors(ctx));
    /* the options override the entry */
    CHECK(tsl_context_set_option(ctx, "trsm", "block", 24) == TSL_OK &&
              tsl__l3_trsm_block(ctx, 0, 150, L3_INVERSE_LEAF) == 24,
          "the block option overrides");
    CHECK(tsl_context_set_option(ctx, "trsm", "streams", 2) == TSL_OK &&
              tsl__l3_trsm_parts(ctx, 0, 5000) == 2,
          "the streams option overrides");
    tsl_context_destroy(ctx);
    /* and a TRSM under the entry (leaves of 64 and 96, 3 parts) verifies */
    ctx = open_ctx();
    if (ctx) {
        CHECK(tsl_context_set_variant(ctx, "trsm", "inverse_leaf") == TSL_OK, "inverse_leaf: %s",
              tsl_context_error(ctx));
        trsm_ok(ctx, 130, 210, "inverse_leaf under the entry");
        tsl_context_destroy(ctx);
    }

    /* a malformed entry: a warning, and the built-in values */
    static const char *const bad[] = {"LEAF=0", "BOGUS=1", "LEAF=12x", "PARTS=9", "LEAF=64,"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        snprintf(text, sizeof text, "tessel-tuning 2\ndevice=%s trsm any any %s\n", devkey, bad[i]);
        write_user(text);
        ctx = open_ctx();
        if (!ctx) return;
        size_t leaf = tsl__l3_trsm_block(ctx, 0, 150, L3_INVERSE_LEAF);
        if (strcmp(info.type, "cpu") == 0)
            CHECK(leaf == 256, "%s: the built-in leaf (%zu)", bad[i], leaf);
        CHECK(strstr(tsl_context_warning(ctx), "trsm entry ignored") != NULL, "%s: warned: '%s'",
              bad[i], tsl_context_warning(ctx));
        tsl__l3_trsm_block(ctx, 0, 150, L3_INVERSE_LEAF);
        const char *w = tsl_context_warning(ctx), *first = strstr(w, "trsm entry ignored");
        CHECK(first && !strstr(first + 1, "trsm entry ignored"), "%s: warned once: '%s'", bad[i],
              w);
        tsl_context_destroy(ctx);
    }
    ctx = open_ctx();
    if (ctx) {
        unlink(tsl_tuning_file(ctx));
        tsl_context_destroy(ctx);
    }
    rmdir(dir);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "names") == 0)
        test_names();
    else if (strcmp(mode, "levels") == 0)
        test_levels();
    else if (strcmp(mode, "shipped") == 0)
        test_shipped();
    else if (strcmp(mode, "trsm") == 0)
        test_trsm();
    else {
        fprintf(stderr, "usage: test_tune_lookup names|levels|shipped|trsm\n");
        return 2;
    }
    return check_summary(mode);
}
