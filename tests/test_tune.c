/* test_tune.c: the tuning layer (docs/tuning.md). Modes, one ctest each:
 *   db        the user database: a stored configuration is what tsl_tuning_lookup and `auto`
 *             then use (checked by results on fresh random data, and by the entry's source);
 *             corrupt, truncated, binary and foreign-version files are ignored with a warning,
 *             never an error; bad arguments to the tuning calls.
 *   tuner     the search: the first candidate is auto's configuration, candidates are distinct
 *             and valid configurations, reports steer refinement, a small budget still finds a
 *             verified winner.
 *   configs   explicit configurations ("tiled2d:NAME=V,...") as variants: every value of every
 *             axis that runs here gives correct results, and malformed ones are refused.
 *   defaults_valid FILE   every gemm entry of that file parses and keeps its kind's rule, nothing
 *             compiled (make check's share of the file; defaults, which runs each, is label full).
 *   defaults FILE   every tiled2d configuration in the shipped defaults file gives correct results
 *             on the GEMM benchmark's shapes, scaled down (whatever device it was tuned for: the
 *             kernel is portable, only its speed is device-specific); an entry of a tensor-core
 *             kind (half, bfloat16, tf32, 3xtf32) through that kind's own call.
 *   decide    the rule by which `tessel tune` stores a finalist or keeps auto
 *             (cli/tune_decide.c), on synthetic times: no device, no clock.
 *   near      an entry measured on some shapes (measured= in its notes) applies only
 *             within a factor of 2 of them; elsewhere the lookup falls back to the next entry.
 * configs and defaults take a shard K/N last (the cases i with i % N == K), so ctest runs their
 * minutes of PoCL compiles side by side. Each mode points TESSEL_TUNING_DIR at its own fresh
 * directory. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "gemm/gemm_internal.h"
#include "ref/ref.h"
#include "tessel.h"
#include "tune/tune.h"
#include "tune_decide.h"

static char dir[256];

static void fresh_dir(const char *mode)
{
    snprintf(dir, sizeof dir, "/tmp/tessel-test-tune-%s-%ld", mode, (long)getpid());
    mkdir(dir, 0755);
    setenv("TESSEL_TUNING_DIR", dir, 1);
}

static void cleanup_dir(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

static tsl_context *open_ctx(void)
{
    tsl_context *ctx = NULL;
    tsl_status s = tsl_context_create(NULL, &ctx);
    CHECK(s == TSL_OK, "tsl_context_create: %s", tsl_status_name(s));
    return ctx;
}

/* One row-major NN sgemm/dgemm with random data, checked against the reference; 1 if right. */
/* C = 1.5 A B + beta C on fresh random data against the double-precision reference; with
 * beta == 0, C starts as NaN (it must not be read). */
static int gemm_check(tsl_context *ctx, int dbl, size_t m, size_t n, size_t k, double beta,
                      unsigned long long seed, const char *what)
{
    double *a = malloc(m * k * sizeof *a), *b = malloc(k * n * sizeof *b);
    double *ref = malloc(m * n * sizeof *ref), *c = malloc(m * n * sizeof *c);
    float *af = malloc(m * k * sizeof *af), *bf = malloc(k * n * sizeof *bf);
    float *cf = malloc(m * n * sizeof *cf);
    int ok = 0;
    if (a && b && ref && c && af && bf && cf) {
        tsl_ref_fill_d(a, m * k, &seed);
        tsl_ref_fill_d(b, k * n, &seed);
        tsl_ref_fill_d(ref, m * n, &seed);
        for (size_t i = 0; i < m * k; ++i) af[i] = (float)a[i], a[i] = dbl ? a[i] : af[i];
        for (size_t i = 0; i < k * n; ++i) bf[i] = (float)b[i], b[i] = dbl ? b[i] : bf[i];
        for (size_t i = 0; i < m * n; ++i) {
            cf[i] = beta == 0.0 ? NAN : (float)ref[i];
            c[i] = beta == 0.0 ? NAN : dbl ? ref[i] : cf[i];
            ref[i] = c[i];
        }
        tsl_ref_dgemm(TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1.5, a, k, b, n, beta,
                      ref, n);
        tsl_status s =
            dbl ? tsl_dgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1.5, a, k, b,
                            n, beta, c, n)
                : tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1.5f, af, k,
                            bf, n, (float)beta, cf, n);
        CHECK(s == TSL_OK, "%s %zux%zux%zu: %s %s", what, m, n, k, tsl_status_name(s),
              tsl_context_error(ctx));
        double err = dbl ? tsl_ref_rel_err_d(m, n, c, n, ref, n)
                         : tsl_ref_rel_err_f(m, n, cf, n, ref, n);
        ok = s == TSL_OK && err <= tsl_ref_gemm_tolerance(dbl, k);
        CHECK(ok, "%s %s %zux%zux%zu beta %g: relative error %g", what, dbl ? "double" : "single",
              m, n, k, beta, err);
    }
    free(a), free(b), free(ref), free(c), free(af), free(bf), free(cf);
    return ok;
}

static int gemm_ok(tsl_context *ctx, int dbl, size_t m, size_t n, size_t k, unsigned long long seed,
                   const char *what)
{
    return gemm_check(ctx, dbl, m, n, k, 0.0, seed, what);
}

/* An entry of a tensor-core kind (precision half, bfloat16, tf32 or 3xtf32), through its own
 * call: C = 1.5 A B over a C of NaN (beta 0: never read) on fresh random data, against the double
 * reference of what the instruction multiplies (the 16-bit inputs; TF32-rounded ones in TF32
 * math), within tsl_ref_gemm_tolerance of the storage; 1 if right. */
static int tensor_ok(tsl_context *ctx, const char *prec, size_t m, size_t n, size_t k,
                     unsigned long long seed, const char *what)
{
    const int h = strcmp(prec, "half") == 0, bf = strcmp(prec, "bfloat16") == 0;
    const int tf = strcmp(prec, "tf32") == 0, s16 = h || bf;
    float *af = malloc(m * k * sizeof *af), *bv = malloc(k * n * sizeof *bv);
    float *cf = malloc(m * n * sizeof *cf);
    double *a = malloc(m * k * sizeof *a), *b = malloc(k * n * sizeof *b);
    double *ref = calloc(m * n, sizeof *ref);
    uint16_t *a16 = malloc(m * k * sizeof *a16), *b16 = malloc(k * n * sizeof *b16);
    uint16_t *c16 = malloc(m * n * sizeof *c16);
    int ok = 0;
    if (af && bv && cf && a && b && ref && a16 && b16 && c16) {
        tsl_ref_fill_f(af, m * k, &seed);
        tsl_ref_fill_f(bv, k * n, &seed);
        for (size_t i = 0; i < m * k + k * n; ++i) {
            float x = i < m * k ? af[i] : bv[i - m * k];
            uint16_t x16 = h ? tsl_float_to_half(x) : tsl_float_to_bf16(x);
            double v = s16 ? (h ? tsl_half_to_float(x16) : tsl_bf16_to_float(x16))
                           : tf ? tsl_ref_round_tf32(x) : x;
            if (i < m * k)
                a16[i] = x16, a[i] = v;
            else
                b16[i - m * k] = x16, b[i - m * k] = v;
        }
        for (size_t i = 0; i < m * n; ++i) cf[i] = NAN, c16[i] = h ? 0x7E00u : 0x7FC0u;
        tsl_ref_dgemm(TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1.5, a, k, b, n, 0.0,
                      ref, n);
        tsl_status s = tsl_context_set_option(ctx, "gemm", "math",
                                              s16 ? TSL_MATH_FP32
                                                  : tf ? TSL_MATH_TF32 : TSL_MATH_3XTF32);
        if (s == TSL_OK)
            s = h ? tsl_hgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1.5f, a16,
                              k, b16, n, 0.0f, c16, n)
                : bf ? tsl_bgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1.5f,
                                 a16, k, b16, n, 0.0f, c16, n)
                     : tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, m, n, k, 1.5f,
                                 af, k, bv, n, 0.0f, cf, n);
        CHECK(s == TSL_OK, "%s %s %zux%zux%zu: %s %s", what, prec, m, n, k, tsl_status_name(s),
              tsl_context_error(ctx));
        double err = h    ? tsl_ref_rel_err_h(m, n, c16, n, ref, n)
                     : bf ? tsl_ref_rel_err_b(m, n, c16, n, ref, n)
                          : tsl_ref_rel_err_f(m, n, cf, n, ref, n);
        ok = s == TSL_OK &&
             err <= tsl_ref_gemm_tolerance(h ? TSL_HALF : bf ? TSL_BFLOAT16 : TSL_SINGLE, k);
        CHECK(ok, "%s %s %zux%zux%zu: relative error %g", what, prec, m, n, k, err);
        tsl_context_set_option(ctx, "gemm", "math", TSL_MATH_FP32);
    }
    free(af), free(bv), free(cf), free(a), free(b), free(ref), free(a16), free(b16), free(c16);
    return ok;
}

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return;
    fwrite(text, 1, len, f);
    fclose(f);
}

/* A configuration unlike the shipped CPU default, valid on PoCL's CPU device. */
static const char *const stored_cfg =
    "tiled2d:MWG=32,NWG=16,KWG=16,MDIMC=4,NDIMC=2,VW=4,SA=0,SB=0,PF=0,STRIDED=0,VWA=1,ALIAS=0";

static void test_db(void)
{
    fresh_dir("db");
    tsl_context *ctx = open_ctx();
    if (!ctx) return;
    CHECK(strcmp(tsl_context_warning(ctx), "") == 0, "no warning without a user file: %s",
          tsl_context_warning(ctx));
    char path[512];
    snprintf(path, sizeof path, "%s", tsl_tuning_file(ctx));
    CHECK(strncmp(path, dir, strlen(dir)) == 0, "user file %s lives in TESSEL_TUNING_DIR", path);
    const char *cfg, *src;
    CHECK(tsl_tuning_lookup(ctx, "gemm", 0, 64, 64, 64, &cfg, &src) == TSL_OK, "lookup");
    CHECK(strstr(src, "user") == NULL, "before storing, the entry is not the user's: %s", src);
    char before[256];
    snprintf(before, sizeof before, "%s", cfg);

    /* store for the small class, single precision */
    tsl_status s = tsl_tuning_store(ctx, "gemm", 0, 64, 64, 64, stored_cfg, "gflops=1.0");
    CHECK(s == TSL_OK, "store: %s %s", tsl_status_name(s), tsl_context_error(ctx));
    CHECK(tsl_tuning_lookup(ctx, "gemm", 0, 100, 100, 100, &cfg, &src) == TSL_OK, "lookup");
    CHECK(strcmp(cfg, stored_cfg) == 0, "the stored configuration is found: %s", cfg);
    CHECK(strstr(src, "user database") != NULL, "source names the user database: %s", src);
    /* other classes and the other precision keep what they had */
    CHECK(tsl_tuning_lookup(ctx, "gemm", 0, 2048, 2048, 64, &cfg, &src) == TSL_OK, "lookup");
    CHECK(strcmp(cfg, before) == 0, "large class unchanged: %s", cfg);
    CHECK(tsl_tuning_lookup(ctx, "gemm", 1, 64, 64, 64, &cfg, &src) == TSL_OK, "lookup");
    CHECK(strcmp(cfg, stored_cfg) != 0, "double precision unchanged: %s", cfg);
    /* auto runs it, correctly, also in a new context (read back from the file) */
    gemm_ok(ctx, 0, 67, 45, 33, 11, "auto after store");
    tsl_context_destroy(ctx);
    ctx = open_ctx();
    if (!ctx) return;
    CHECK(tsl_tuning_lookup(ctx, "gemm", 0, 100, 100, 100, &cfg, &src) == TSL_OK, "lookup");
    CHECK(strcmp(cfg, stored_cfg) == 0, "a new context reads the file: %s", cfg);
    gemm_ok(ctx, 0, 67, 45, 33, 12, "auto from file");
    /* storing again replaces, never duplicates */
    CHECK(tsl_tuning_store(ctx, "gemm", 0, 90, 90, 90, stored_cfg, NULL) == TSL_OK, "store 2");
    FILE *f = fopen(path, "r");
    int entries = 0;
    char line[1024];
    while (f && fgets(line, sizeof line, f))
        entries += strstr(line, "gemm single small") != NULL;
    if (f) fclose(f);
    CHECK(entries == 1, "one entry per (op, precision, class), found %d", entries);

    /* bad arguments: nothing written */
    CHECK(tsl_tuning_store(ctx, "gemm", 0, 8, 8, 8, "tiled2d:MWG=7", NULL) == TSL_ERR_INVALID_ARG,
          "a value off the axis");
    CHECK(check_mentions(tsl_context_error(ctx), "MWG"), "names the parameter: %s",
          tsl_context_error(ctx));
    CHECK(tsl_tuning_store(ctx, "gemm", 0, 8, 8, 8, "tiled2d:XYZ=1", NULL) == TSL_ERR_INVALID_ARG,
          "an unknown parameter");
    CHECK(tsl_tuning_store(ctx, "gemm", 0, 8, 8, 8, "nosuch", NULL) == TSL_ERR_INVALID_ARG,
          "an unknown variant");
    CHECK(tsl_tuning_store(ctx, "gemm", 0, 8, 8, 8, "tiled2d:MWG=64 x", NULL) ==
              TSL_ERR_INVALID_ARG,
          "a configuration with a space");
    CHECK(tsl_tuning_store(ctx, "gemm", 0, 8, 8, 8, stored_cfg, "a b") == TSL_ERR_INVALID_ARG,
          "a note with a space");
    CHECK(tsl_tuning_store(ctx, "nosuch", 0, 8, 8, 8, stored_cfg, NULL) == TSL_ERR_INVALID_ARG,
          "an unknown op");
    CHECK(tsl_tuning_store(ctx, "gemm", 0, 8, 8, 8, NULL, NULL) == TSL_ERR_INVALID_ARG, "NULL");
    CHECK(tsl_tuning_lookup(ctx, "gemm", 0, 8, 8, 8, NULL, &src) == TSL_ERR_INVALID_ARG, "NULL");
    CHECK(tsl_tuning_lookup(NULL, "gemm", 0, 8, 8, 8, &cfg, &src) == TSL_ERR_INVALID_ARG, "NULL");
    CHECK(tsl_context_set_variant(ctx, "gemm", "tiled_16x16:TS=4") == TSL_ERR_INVALID_ARG,
          "parameters on a variant without any");
    CHECK(tsl_context_set_variant(ctx, "gemm", "tiled2d:MWG=64,MDIMC=3") == TSL_ERR_INVALID_ARG,
          "a value off the axis");
    CHECK(strcmp(tsl_tuning_class("gemm", 4096, 4096, 4096), "large") == 0, "class large");
    CHECK(strcmp(tsl_tuning_class("gemm", 512, 512, 512), "small") == 0, "class small");
    CHECK(strcmp(tsl_tuning_class("gemm", 16384, 128, 4096), "skinny") == 0, "class skinny");
    CHECK(strcmp(tsl_tuning_class("axpy", 1, 1, 1), "any") == 0, "untunable op");
    tsl_context_destroy(ctx);

    /* damaged files: ignored with a warning naming the file; auto still right */
    struct {
        const char *what, *text, *expect;
        size_t len;
    } bad[] = {
        {"foreign version", "tessel-tuning 9\nanything at all\n", "version", 0},
        {"no header", "device=x gemm single small tiled2d:MWG=64\n", "tessel-tuning", 0},
        {"malformed entry", "tessel-tuning 1\ndevice=x gemm quadruple small tiled2d\n",
         "malformed", 0},
        {"too few fields", "tessel-tuning 1\ntype=cpu gemm single\n", "needs", 0},
        {"empty", "", "empty", 0},
        {"binary", "tessel-tuning 1\n\0\1\2\3garbage", "malformed", 20},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        write_file(path, bad[i].text, bad[i].len ? bad[i].len : strlen(bad[i].text));
        ctx = open_ctx();
        if (!ctx) return;
        const char *w = tsl_context_warning(ctx);
        CHECK(strstr(w, path) != NULL && strstr(w, "ignored") != NULL,
              "%s: the warning names the file: '%s'", bad[i].what, w);
        CHECK(strstr(w, bad[i].expect) != NULL || bad[i].len, "%s: the warning says why: '%s'",
              bad[i].what, w);
        CHECK(tsl_tuning_lookup(ctx, "gemm", 0, 64, 64, 64, &cfg, &src) == TSL_OK, "lookup");
        CHECK(strstr(src, "user") == NULL, "%s: the file's entries are not used: %s",
              bad[i].what, src);
        gemm_ok(ctx, 0, 31, 17, 9, 13 + i, bad[i].what);
        /* storing over a corrupt file replaces it with a good one */
        if (i == 0) {
            CHECK(tsl_tuning_store(ctx, "gemm", 0, 64, 64, 64, stored_cfg, NULL) == TSL_OK,
                  "store over a corrupt file: %s", tsl_context_error(ctx));
            CHECK(tsl_tuning_lookup(ctx, "gemm", 0, 64, 64, 64, &cfg, &src) == TSL_OK &&
                      strcmp(cfg, stored_cfg) == 0,
                  "stored over a corrupt file");
        }
        tsl_context_destroy(ctx);
    }
    /* an entry that cannot run is skipped with a warning at the call, auto falls back */
    char text[1024];
    tsl_device_info info;
    ctx = open_ctx();
    if (!ctx) return;
    tsl_context_device(ctx, &info);
    tsl_context_destroy(ctx);
    char devkey[160] = "";
    const char *at = strstr(path, "/") ? strrchr(path, '/') + 1 : path;
    snprintf(devkey, sizeof devkey, "%.*s", (int)(strchr(at, '@') - at), at);
    snprintf(text, sizeof text,
             "tessel-tuning 1\ndevice=%s gemm single small tiled2d:MWG=16,NWG=16,MDIMC=32\n",
             devkey);
    write_file(path, text, strlen(text));
    ctx = open_ctx();
    if (!ctx) return;
    CHECK(strcmp(tsl_context_warning(ctx), "") == 0, "well-formed file: no warning at load: %s",
          tsl_context_warning(ctx));
    gemm_ok(ctx, 0, 40, 40, 40, 21, "unrunnable entry");
    CHECK(strstr(tsl_context_warning(ctx), "cannot run") != NULL,
          "an unrunnable entry is reported: '%s'", tsl_context_warning(ctx));
    tsl_context_destroy(ctx);
    cleanup_dir();
}

static void test_tuner(void)
{
    fresh_dir("tuner");
    tsl_context *ctx = open_ctx();
    if (!ctx) return;
    tsl_tuner *t = NULL;
    CHECK(tsl_tuner_create(ctx, "nosuch", 0, 1, &t) == TSL_ERR_INVALID_ARG && !t, "unknown op");
    CHECK(tsl_tuner_create(ctx, "axpy", 0, 1, &t) == TSL_ERR_UNSUPPORTED && !t, "no space");
    CHECK(tsl_tuner_create(ctx, "gemm", 0, 1, NULL) == TSL_ERR_INVALID_ARG, "NULL out");
    tsl_status s = tsl_tuner_create(ctx, "gemm", 0, 7, &t);
    CHECK(s == TSL_OK && t, "create: %s", tsl_context_error(ctx));
    if (!t) return;
    size_t space = tsl_tuner_space_size(t);
    CHECK(space > 128, "the gemm space is large (%zu)", space);
    const char *cfg, *src;
    tsl_tuning_lookup(ctx, "gemm", 0, 4096, 4096, 4096, &cfg, &src);
    char first[256];
    snprintf(first, sizeof first, "%s", tsl_tuner_next(t));
    /* the same configuration, the candidate naming every parameter (the entry may leave out
     * those at their default: WN=0, KSPLIT=0, DIRECT=0, the tensor-core axes) */
    size_t clen = strlen(cfg);
    CHECK(strncmp(first, cfg, clen) == 0 &&
              (first[clen] == '\0' || strcmp(first + clen, ",WN=0,MMA=0,KSPLIT=0,DIRECT=0,PEEL=0,ASYNC=0,FPIPE=0,BT=0,WG=0") == 0),
          "the first candidate is auto's configuration: %s vs %s", first, cfg);
    tsl_tuner_report(t, 10.0);
    /* the next 40: distinct, each accepted as a variant; a better score moves the search */
    char seen[41][256];
    int distinct = 1, neighbours = 0;
    for (int i = 0; i < 40; ++i) {
        const char *c = tsl_tuner_next(t);
        CHECK(c != NULL, "candidate %d", i);
        if (!c) break;
        snprintf(seen[i], sizeof seen[i], "%s", c);
        for (int j = 0; j < i; ++j) distinct &= strcmp(seen[i], seen[j]) != 0;
        distinct &= strcmp(seen[i], first) != 0;
        /* a few are built and checked as variants (each build takes PoCL seconds) */
        if (i < 3) {
            s = tsl_context_set_variant(ctx, "gemm", c);
            CHECK(s == TSL_OK, "candidate %s is a valid variant: %s", c, tsl_context_error(ctx));
        }
        int commas = 0;
        for (const char *p = c; *p; ++p) commas += *p == ',';
        CHECK(strncmp(c, "tiled2d:MWG=", 12) == 0 && commas == 22, "candidate %s names every "
              "parameter", c);
        /* count candidates one axis away from the first (refinement around the best) */
        int diff = 0;
        const char *p = c, *q = first;
        while (*p && *q) {
            const char *pe = strchr(p, ','), *qe = strchr(q, ',');
            size_t pl = pe ? (size_t)(pe - p) : strlen(p), ql = qe ? (size_t)(qe - q) : strlen(q);
            diff += pl != ql || strncmp(p, q, pl) != 0;
            p += pl + (pe != NULL);
            q += ql + (qe != NULL);
        }
        neighbours += diff == 1;
        tsl_tuner_report(t, 1.0); /* all worse than the first */
    }
    CHECK(distinct, "candidates are distinct");
    CHECK(neighbours >= 5, "refinement tries neighbours of the best (%d of 40)", neighbours);
    tsl_tuner_destroy(t);
    tsl_tuner_destroy(NULL);
    /* the same seed gives the same sequence */
    tsl_tuner *t1 = NULL, *t2 = NULL;
    tsl_tuner_create(ctx, "gemm", 0, 99, &t1);
    tsl_tuner_create(ctx, "gemm", 0, 99, &t2);
    for (int i = 0; t1 && t2 && i < 20; ++i) {
        char a[256];
        snprintf(a, sizeof a, "%s", tsl_tuner_next(t1));
        CHECK(strcmp(a, tsl_tuner_next(t2)) == 0, "seeded: step %d", i);
        tsl_tuner_report(t1, (double)(i % 5));
        tsl_tuner_report(t2, (double)(i % 5));
    }
    tsl_tuner_destroy(t1);
    tsl_tuner_destroy(t2);
    tsl_context_destroy(ctx);
    cleanup_dir();
}

/* Every value of every axis, each changed alone from a base that runs here, on odd shapes. */
/* Long suites run as shards (ctest runs them side by side): case i belongs to shard i % nshards.
 * "K/N" after the mode picks shard K of N; none means every case. */
static unsigned shard = 0, nshards = 1;
static int in_shard(size_t i)
{
    return i % nshards == shard;
}

static void test_configs(void)
{
    fresh_dir("configs");
    tsl_context *ctx = open_ctx();
    if (!ctx) return;
    float one = 1.0f, out = 0.0f;
    static const struct {
        const char *cfg;
        int dbl;
    } cases[] = {
        {"tiled2d:MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=1", 0},
        {"tiled2d:MWG=64,NWG=32,KWG=8,MDIMC=16,NDIMC=4,VW=2,SA=1,SB=0,PF=0,STRIDED=1,VWA=1", 0},
        {"tiled2d:MWG=32,NWG=64,KWG=8,MDIMC=8,NDIMC=8,VW=8,SA=0,SB=1,PF=1,STRIDED=0,VWA=1", 0},
        {"tiled2d:MWG=64,NWG=16,KWG=16,MDIMC=4,NDIMC=4,VW=4,SA=1,SB=1,PF=0,STRIDED=0,VWA=4,APAD=0", 0},
        {"tiled2d:MWG=32,NWG=32,KWG=32,MDIMC=4,NDIMC=8,VW=1,SA=1,SB=1,PF=1,STRIDED=0,VWA=8,APAD=0",
         1},
        {"tiled2d:MWG=16,NWG=16,KWG=8,MDIMC=1,NDIMC=1,VW=16,SA=0,SB=0,PF=0,STRIDED=0,ALIAS=1", 0},
        {"tiled2d:MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1", 1},
        /* interleaved blocks of VWA rows, double buffering, padding */
        {"tiled2d:MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,"
         "APAD=4,DBUF=1", 0},
        {"tiled2d:MWG=128,NWG=32,KWG=8,MDIMC=16,NDIMC=4,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=8,"
         "APAD=0,DBUF=1", 1},
        {"tiled2d:MWG=32,NWG=64,KWG=16,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=0,PF=1,STRIDED=1,VWA=2,"
         "APAD=0,DBUF=1", 0},
        {"tiled2d:MWG=32,NWG=64,KWG=8,MDIMC=4,NDIMC=16,VW=1,SA=0,SB=1,PF=1,STRIDED=1,APAD=0,"
         "DBUF=1", 1},
        /* warps as 4 x 8 and 8 x 4 blocks of the work-group */
        {"tiled2d:MWG=64,NWG=64,KWG=8,MDIMC=8,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,"
         "APAD=4,DBUF=1,WN=8", 0},
        {"tiled2d:MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=2,"
         "APAD=4,DBUF=1,WN=4", 1},
        /* split k: slices that divide k, that do not, more slices than steps */
        {"tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=4,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,"
         "APAD=4,DBUF=1,KSPLIT=2", 0},
        {"tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=4,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,"
         "APAD=4,DBUF=1,KSPLIT=4", 1},
        {"tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=4,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,"
         "APAD=4,DBUF=1,KSPLIT=32", 0},
        /* A and B read in place (guarded edge tiles, no pre-pass), alone and with split k; the
         * host's choice (2) on these small ragged shapes is the same path */
        {"tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=4,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,"
         "APAD=4,DBUF=1,DIRECT=1", 0},
        {"tiled2d:MWG=32,NWG=64,KWG=16,MDIMC=4,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=2,"
         "APAD=4,DBUF=0,DIRECT=1,KSPLIT=4", 1},
        {"tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=4,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,"
         "APAD=4,DBUF=1,DIRECT=2,KSPLIT=2", 0},
        /* the last rows and columns peeled off as strips (gemm_edge), with split k and the
         * in-place reads in the tiles */
        {"tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=4,NDIMC=8,VW=4,SA=1,SB=1,PF=1,STRIDED=1,VWA=4,"
         "APAD=4,DBUF=1,PEEL=2,KSPLIT=2", 0},
        {"tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=4,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=2,"
         "APAD=4,DBUF=1,PEEL=2,DIRECT=2", 1},
        /* the FP64 matrix instruction's data path (fragments, the warps' tiles, the epilogue),
         * emulated on devices without it, two warps of 32 x 32: m8n8k4 with split k, m16n8k16 with
         * in-place reads (the shipped m16n8k8 entries run in the defaults test) */
        {"tiled2d:MWG=32,NWG=64,KWG=8,MDIMC=4,NDIMC=16,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,"
         "DBUF=1,MMA=1,KSPLIT=2", 1},
        {"tiled2d:MWG=64,NWG=32,KWG=16,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,PF=1,STRIDED=1,VWA=1,"
         "DBUF=0,MMA=3,DIRECT=1", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (!in_shard(i)) continue;
        tsl_status s = tsl_context_set_variant(ctx, "gemm", cases[i].cfg);
        CHECK(s == TSL_OK, "%s: %s", cases[i].cfg, tsl_context_error(ctx));
        if (s != TSL_OK) continue;
        gemm_ok(ctx, cases[i].dbl, 1, 1, 1, 30 + i, cases[i].cfg);
        gemm_ok(ctx, cases[i].dbl, 67, 45, 33, 40 + i, cases[i].cfg);
        gemm_ok(ctx, cases[i].dbl, 130, 9, 70, 50 + i, cases[i].cfg);
        if (strstr(cases[i].cfg, "DIRECT")) /* rows of B 16-byte aligned: B read in place too */
            gemm_ok(ctx, cases[i].dbl, 37, 36, 29, 60 + i, cases[i].cfg);
        if (strstr(cases[i].cfg, "MMA")) { /* double only: single says so */
            CHECK(tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 1, 1, 1, 1.0f, &one, 1,
                            &one, 1, 0.0f, &out, 1) == TSL_ERR_UNSUPPORTED,
                  "%s in single precision: %s", cases[i].cfg, tsl_context_error(ctx));
            gemm_check(ctx, 1, 66, 65, 37, 0.5, 90 + i, cases[i].cfg);
        }
        if (strstr(cases[i].cfg, "PEEL")) /* 2 rows and 1 column past whole tiles, beta C */
            gemm_check(ctx, cases[i].dbl, 66, 65, 37, 0.5, 80 + i, cases[i].cfg);
        if (strstr(cases[i].cfg, "KSPLIT") || strstr(cases[i].cfg, "DIRECT")) /* beta C too */
            gemm_check(ctx, cases[i].dbl, 45, 70, 301, 0.75, 70 + i, cases[i].cfg);
    }
    /* rules the kernel states are refused, not miscompiled */
    const char *refused[] = {
        "tiled2d:MWG=64,MDIMC=32,NWG=16,NDIMC=16,VW=4", /* NWG/NDIMC not a multiple of VW */
        "tiled2d:MWG=16,NWG=16,KWG=8,MDIMC=16,NDIMC=16,VW=1,SA=1,SB=0", /* A tile < threads */
        "tiled2d:PF=1,SA=0,SB=0",                                      /* nothing to prefetch */
        "tiled2d:VWA=4,SA=1,STRIDED=1,APAD=1", /* padded rows break the vector alignment */
        "tiled2d:DBUF=1,PF=0",                 /* double buffering needs the prefetch */
        "tiled2d:MWG=64,NWG=64,MDIMC=2,NDIMC=16,VW=4,WN=8", /* 8 x 4 warps on 2 rows of items */
        "tiled2d:SA=1,SB=1,PF=0,DIRECT=1",                 /* reading in place needs the prefetch */
        "tiled2d:SA=0,SB=0,MMA=1",                         /* the matrix instruction needs staging */
        "tiled2d:MWG=64,NWG=64,MDIMC=8,NDIMC=8,VW=2,SA=1,SB=1,VWA=4,MMA=2", /* A read as vectors */
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0] && shard == 0; ++i)
        CHECK(tsl_context_set_variant(ctx, "gemm", refused[i]) == TSL_ERR_UNSUPPORTED,
              "refused: %s (%s)", refused[i], tsl_context_error(ctx));
    tsl_context_destroy(ctx);
    cleanup_dir();
}

static void test_defaults(const char *file)
{
    fresh_dir("defaults");
    FILE *f = fopen(file, "r");
    CHECK(f != NULL, "cannot read %s", file);
    if (!f) return;
    tsl_context *ctx = open_ctx();
    if (!ctx) {
        fclose(f);
        return;
    }
    tsl_device_info info;
    tsl_context_device(ctx, &info);
    /* the GEMM benchmark's shapes, scaled down: 4096x4096x256, 8192x128x8192, 128x8192x8192,
     * 4097^3, 1000^3, 512^3 */
    static const size_t shapes[][3] = {{256, 256, 16}, {256, 4, 256}, {4, 256, 256},
                                       {129, 129, 129}, {63, 63, 63}, {64, 64, 64}};
    char line[1024];
    int configs = 0;
    while (fgets(line, sizeof line, f)) {
        char sel[128], op[32], prec[16], cls[16], cfg[300];
        if (line[0] == '#' || sscanf(line, "%127s %31s %15s %15s %299s", sel, op, prec, cls, cfg) != 5)
            continue;
        if (strcmp(op, "gemm") != 0) continue;
        if (!in_shard((size_t)configs++)) continue;
        const int tensor = strcmp(prec, "single") != 0 && strcmp(prec, "double") != 0;
        tsl_status s = tsl_context_set_variant(ctx, "gemm", cfg);
        if (s == TSL_ERR_UNSUPPORTED) {
            SKIP("%s on %s: %s", cfg, info.name, tsl_context_error(ctx));
            continue;
        }
        CHECK(s == TSL_OK, "%s: %s", cfg, tsl_context_error(ctx));
        if (s != TSL_OK) continue;
        for (size_t i = 0; tensor && i < sizeof shapes / sizeof shapes[0]; ++i)
            tensor_ok(ctx, prec, shapes[i][0], shapes[i][1], shapes[i][2], 60 + i, cfg);
        for (int dbl = 0; !tensor && dbl <= 1; ++dbl) {
            if ((strcmp(prec, "single") == 0 && dbl) || (strcmp(prec, "double") == 0 && !dbl))
                continue;
            if (dbl && !info.fp64) continue;
            for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
                gemm_ok(ctx, dbl, shapes[i][0], shapes[i][1], shapes[i][2], 60 + i, cfg);
        }
    }
    fclose(f);
    CHECK(configs >= 3, "the defaults file has gemm entries (%d)", configs);
    tsl_context_destroy(ctx);
    cleanup_dir();
}

/* defaults_valid FILE: every gemm entry of the shipped defaults parses as a tiled2d configuration
 * over its kind's base and keeps the kind's rule (the instruction its precision needs), without
 * compiling it: make check's share of the file. Running every entry on issue 4's shapes is
 * `defaults` (label full): each entry is data, and the kernel paths its parameters select are run
 * by `configs`, tests/test_tensor.c and tests/test_dmma_async.c. */
static void test_defaults_valid(const char *file)
{
    FILE *f = fopen(file, "r");
    CHECK(f != NULL, "cannot read %s", file);
    if (!f) return;
    tsl_context *ctx = open_ctx();
    if (!ctx) {
        fclose(f);
        return;
    }
    char line[1024];
    int configs = 0;
    while (fgets(line, sizeof line, f)) {
        char sel[128], op[32], prec[16], cls[16], cfg[300];
        if (line[0] == '#' || sscanf(line, "%127s %31s %15s %15s %299s", sel, op, prec, cls, cfg) != 5)
            continue;
        if (strcmp(op, "gemm") != 0) continue;
        configs++;
        static const char *const kinds[] = {"single", "double", "half", "bfloat16", "tf32", "3xtf32"};
        int kind = -1;
        for (int i = 0; i < 6; ++i)
            if (strcmp(prec, kinds[i]) == 0) kind = i; /* GK_* order */
        CHECK(kind >= 0, "%s: unknown precision %s", sel, prec);
        if (kind < 0) continue;
        tiled2d_params t = tsl__tiled2d_overlay_base(ctx, kind, 1);
        char why[256] = "";
        CHECK(tsl__space_parse(&tsl__tiled2d_space, cfg, t.v, why, sizeof why) == 0,
              "%s %s: %s does not parse: %s", sel, prec, cfg, why);
        const char *rule = tsl__tiled2d_kind_rule(kind, t.v);
        CHECK(!*rule, "%s %s: %s breaks the kind's rule: %s", sel, prec, cfg, rule);
    }
    fclose(f);
    CHECK(configs >= 3, "the defaults file has gemm entries (%d)", configs);
    tsl_context_destroy(ctx);
}

/* One decision on synthetic times: nshapes shapes, auto timed nb times on each, nc finalists. */
static tune_decision decide(size_t nshapes, size_t nb, const double *base, size_t nc,
                            const double *cand)
{
    tune_times t = {nshapes, nb, nc, base, cand};
    tune_decision d;
    tune_decide(&t, &d);
    return d;
}

static void test_decide(void)
{
    /* auto: 10 ms on each of 3 shapes, timed 3 times, 2% apart: spread 2% */
    const double base[] = {9.9, 10.0, 10.1, 9.9, 10.0, 10.1, 9.9, 10.0, 10.1};
    tune_decision d;

    /* faster on one shape (the size it was tuned on), 3x slower on another: loses */
    const double mixed[] = {10.0, 5.0, 30.0};
    d = decide(3, 3, base, 1, mixed);
    CHECK(d.verdict == TUNE_KEEP_SLOWER && d.cand == 0 && d.shape == 2,
          "faster at one shape, slower at another: kept auto (verdict %d, cand %d, shape %zu)",
          (int)d.verdict, d.cand, d.shape);
    CHECK(fabs(d.ratio - 10.0 / 30.0) < 1e-12, "the ratio at the worst shape: %g", d.ratio);
    CHECK(fabs(d.base_ms[1] - 10.0) < 1e-12 && fabs(d.spread[1] - 0.02) < 1e-12,
          "auto's median and spread: %g, %g", d.base_ms[1], d.spread[1]);

    /* faster everywhere beyond the spread: stored, with the geometric-mean speedup */
    const double fast[] = {8.0, 5.0, 8.0};
    d = decide(3, 3, base, 1, fast);
    CHECK(d.verdict == TUNE_STORE && d.cand == 0, "faster everywhere: stored (%d)", (int)d.verdict);
    CHECK(fabs(d.ratio - cbrt(1.25 * 2.0 * 1.25)) < 1e-12, "geometric mean %g", d.ratio);

    /* within the spread everywhere: a tie, auto kept */
    const double tie[] = {9.85, 9.9, 10.15};
    d = decide(3, 3, base, 1, tie);
    CHECK(d.verdict == TUNE_KEEP_TIE && d.cand == 0, "within the spread everywhere: a tie (%d)",
          (int)d.verdict);

    /* slower within the spread at one shape, faster beyond it at another: stored */
    const double edge[] = {10.15, 7.0, 10.0};
    d = decide(3, 3, base, 1, edge);
    CHECK(d.verdict == TUNE_STORE, "slower only within the spread: stored (%d)", (int)d.verdict);
    /* 2.5% slower: beyond a 2% spread */
    const double over[] = {10.25, 7.0, 10.0};
    d = decide(3, 3, base, 1, over);
    CHECK(d.verdict == TUNE_KEEP_SLOWER && d.shape == 0, "slower beyond the spread (%d, %zu)",
          (int)d.verdict, d.shape);

    /* the spread is measured: the same candidate wins against a noisy auto (20% apart) and loses
     * against a steady one (the 1% floor) */
    const double noisy[] = {9.0, 10.0, 11.0, 9.0, 10.0, 11.0};
    const double steady[] = {10.0, 10.0, 10.0, 10.0, 10.0, 10.0};
    const double cand15[] = {11.5, 6.0};
    d = decide(2, 3, noisy, 1, cand15);
    CHECK(d.verdict == TUNE_STORE && fabs(d.spread[0] - 0.2) < 1e-12,
          "15%% slower within a 20%% spread: stored (%d, spread %g)", (int)d.verdict, d.spread[0]);
    d = decide(2, 3, steady, 1, cand15);
    CHECK(d.verdict == TUNE_KEEP_SLOWER, "15%% slower against a steady auto: kept (%d)",
          (int)d.verdict);
    const double cand05[] = {10.05, 6.0};
    d = decide(2, 3, steady, 1, cand05);
    CHECK(d.verdict == TUNE_STORE, "0.5%% slower is within the 1%% floor: stored (%d)",
          (int)d.verdict);

    /* several finalists: the best eligible one by geometric mean, not the fastest somewhere */
    const double three[] = {
        2.0, 2.0, 30.0, /* 0: fastest at two shapes, 3x slower at the third */
        9.0, 9.0, 9.0,  /* 1: a little faster everywhere */
        8.0, 7.0, 9.5,  /* 2: faster everywhere, more so */
    };
    d = decide(3, 3, base, 3, three);
    CHECK(d.verdict == TUNE_STORE && d.cand == 2, "the best eligible finalist: %d (%d)", d.cand,
          (int)d.verdict);

    /* a finalist that failed (error or verification) on one shape can never win */
    const double failed[] = {
        1.0, 1.0, 0.0, /* 0: failed at the third shape */
        9.0, 9.0, 9.0, /* 1 */
    };
    d = decide(3, 3, base, 2, failed);
    CHECK(d.verdict == TUNE_STORE && d.cand == 1, "a failed finalist loses: %d (%d)", d.cand,
          (int)d.verdict);
    const double nan_only[] = {NAN, 1.0, 1.0};
    d = decide(3, 3, base, 1, nan_only);
    CHECK(d.verdict == TUNE_KEEP_FAILED && d.shape == 0, "every finalist failed: %d, shape %zu",
          (int)d.verdict, d.shape);

    /* no finalist; auto failed */
    d = decide(3, 3, base, 0, NULL);
    CHECK(d.verdict == TUNE_KEEP_NONE && d.cand == -1, "no finalist (%d)", (int)d.verdict);
    const double base_failed[] = {10.0, 10.0, 10.0, 10.0, -1.0, 10.0};
    d = decide(2, 3, base_failed, 1, fast);
    CHECK(d.verdict == TUNE_KEEP_BASELINE && d.shape == 1, "auto failed at shape 1 (%d, %zu)",
          (int)d.verdict, d.shape);

    /* one shape, one time of auto: the floor is the spread */
    const double one_base[] = {10.0};
    const double one_fast[] = {9.5}, one_same[] = {9.95};
    CHECK(decide(1, 1, one_base, 1, one_fast).verdict == TUNE_STORE, "5%% faster, one shape");
    CHECK(decide(1, 1, one_base, 1, one_same).verdict == TUNE_KEEP_TIE, "0.5%% faster: a tie");
}

/* Looks up gemm single at m x n x k: 1 when the user entry serves it, its configuration in cfg. */
static int user_serves(tsl_context *ctx, size_t m, size_t n, size_t k, char *cfg, size_t cap)
{
    const char *c, *src;
    CHECK(tsl_tuning_lookup(ctx, "gemm", 0, m, n, k, &c, &src) == TSL_OK, "lookup %zux%zux%zu", m,
          n, k);
    snprintf(cfg, cap, "%s", c);
    return strstr(src, "user database") != NULL;
}

static void test_near(void)
{
    fresh_dir("near");
    tsl_context *ctx = open_ctx();
    if (!ctx) return;
    char cfg[256], shipped[256];
    CHECK(!user_serves(ctx, 1024, 1024, 1024, shipped, sizeof shipped), "no user entry yet");
    /* an entry measured at 256^3 (what `tessel tune gemm --sizes 256` stores) */
    tsl_status s = tsl_tuning_store(ctx, "gemm", 0, 256, 256, 256, stored_cfg,
                                    "gflops=9.5,measured=256x256x256");
    CHECK(s == TSL_OK, "store: %s %s", tsl_status_name(s), tsl_context_error(ctx));
    static const struct {
        size_t m, n, k;
        int near;
    } cases[] = {
        {256, 256, 256, 1},    {128, 128, 128, 1}, {512, 512, 512, 1}, {128, 512, 300, 1},
        {1024, 1024, 1024, 0}, {127, 256, 256, 0}, {256, 513, 256, 0}, {256, 256, 600, 0},
        {64, 64, 64, 0},       {1, 1, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int user = user_serves(ctx, cases[i].m, cases[i].n, cases[i].k, cfg, sizeof cfg);
        CHECK(user == cases[i].near, "%zux%zux%zu: the entry measured at 256^3 %s", cases[i].m,
              cases[i].n, cases[i].k, cases[i].near ? "applies" : "does not apply");
        CHECK(user ? strcmp(cfg, stored_cfg) == 0 : strcmp(cfg, shipped) == 0, "%zux%zux%zu: %s",
              cases[i].m, cases[i].n, cases[i].k, cfg);
    }
    const char *c, *src;
    tsl_tuning_lookup(ctx, "gemm", 0, 256, 256, 256, &c, &src);
    CHECK(strstr(src, "measured on 256x256x256") != NULL, "the source names the shapes: %s", src);
    /* auto runs it near 256 and the shipped entry elsewhere, correctly either way */
    gemm_ok(ctx, 0, 300, 200, 256, 3, "auto near the measured shape");
    gemm_ok(ctx, 0, 67, 45, 33, 4, "auto far from it");
    /* an entry for the whole class (tsl_tuning_store without measured=) serves the rest of the
     * class; the measured one still wins near its shapes, and neither replaces the other */
    const char *whole = "tiled2d:MWG=32,NWG=32,KWG=8,MDIMC=8,NDIMC=4,VW=4,SA=0,SB=0,PF=0,STRIDED=0";
    CHECK(tsl_tuning_store(ctx, "gemm", 0, 64, 64, 64, whole, NULL) == TSL_OK, "store whole: %s",
          tsl_context_error(ctx));
    CHECK(user_serves(ctx, 1024, 1024, 1024, cfg, sizeof cfg) && strcmp(cfg, whole) == 0,
          "the class entry serves 1024: %s", cfg);
    CHECK(user_serves(ctx, 256, 256, 256, cfg, sizeof cfg) && strcmp(cfg, stored_cfg) == 0,
          "the measured entry serves 256: %s", cfg);
    /* a second tuning on the same shapes replaces the first; on other shapes it adds one */
    CHECK(tsl_tuning_store(ctx, "gemm", 0, 256, 256, 256, whole, "measured=256x256x256") == TSL_OK,
          "store again");
    CHECK(tsl_tuning_store(ctx, "gemm", 0, 40, 40, 40, stored_cfg, "measured=40x40x40+48x40x36") ==
              TSL_OK,
          "store two shapes");
    CHECK(user_serves(ctx, 256, 256, 256, cfg, sizeof cfg) && strcmp(cfg, whole) == 0,
          "replaced: %s", cfg);
    CHECK(user_serves(ctx, 90, 80, 70, cfg, sizeof cfg) && strcmp(cfg, stored_cfg) == 0,
          "near the second of two shapes: %s", cfg);
    FILE *f = fopen(tsl_tuning_file(ctx), "r");
    char line[1024];
    int entries = 0, v2 = 0;
    while (f && fgets(line, sizeof line, f)) {
        entries += strncmp(line, "device=", 7) == 0;
        v2 |= strcmp(line, "tessel-tuning 2\n") == 0;
    }
    if (f) fclose(f);
    CHECK(entries == 3 && v2, "three entries in a version-2 file (%d)", entries);
    /* malformed shapes: refused by store, and a file holding them is ignored with a warning */
    static const char *const bad_notes[] = {"measured=256x256", "measured=0x1x1",
                                            "measured=",        "measured=2x2x2+",
                                            "measured=1x1x1x1", "measured=axbxc"};
    for (size_t i = 0; i < sizeof bad_notes / sizeof bad_notes[0]; ++i)
        CHECK(tsl_tuning_store(ctx, "gemm", 0, 8, 8, 8, stored_cfg, bad_notes[i]) ==
                  TSL_ERR_INVALID_ARG,
              "note %s refused", bad_notes[i]);
    char path[512], devkey[160], text[1024];
    snprintf(path, sizeof path, "%s", tsl_tuning_file(ctx));
    const char *at = strrchr(path, '/') + 1;
    snprintf(devkey, sizeof devkey, "%.*s", (int)(strchr(at, '@') - at), at);
    tsl_context_destroy(ctx);
    snprintf(text, sizeof text, "tessel-tuning 2\ndevice=%s gemm single small %s measured=8x8\n",
             devkey, stored_cfg);
    write_file(path, text, strlen(text));
    ctx = open_ctx();
    if (!ctx) return;
    CHECK(strstr(tsl_context_warning(ctx), "malformed") != NULL, "bad measured= in a file: '%s'",
          tsl_context_warning(ctx));
    tsl_context_destroy(ctx);
    /* a version-1 file (no measured=) still loads: its entry serves its whole class */
    snprintf(text, sizeof text, "tessel-tuning 1\ndevice=%s gemm single small %s shape=8x8x8\n",
             devkey, stored_cfg);
    write_file(path, text, strlen(text));
    ctx = open_ctx();
    if (!ctx) return;
    CHECK(strcmp(tsl_context_warning(ctx), "") == 0, "a version-1 file: no warning: '%s'",
          tsl_context_warning(ctx));
    CHECK(user_serves(ctx, 1024, 1024, 1024, cfg, sizeof cfg) && strcmp(cfg, stored_cfg) == 0,
          "a version-1 entry serves its class: %s", cfg);
    tsl_context_destroy(ctx);
    cleanup_dir();
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    /* the shard follows the mode's own arguments: configs [K/N], defaults FILE [K/N] */
    int at = strcmp(mode, "defaults") == 0 ? 3 : strcmp(mode, "defaults_valid") == 0 ? 99 : 2;
    const char *sh = argc > at ? argv[at] : NULL;
    if (sh && (sscanf(sh, "%u/%u", &shard, &nshards) != 2 || nshards == 0 || shard >= nshards)) {
        fprintf(stderr, "test_tune: bad shard '%s' (K/N with K < N)\n", sh);
        return 2;
    }
    if (strcmp(mode, "db") == 0)
        test_db();
    else if (strcmp(mode, "tuner") == 0)
        test_tuner();
    else if (strcmp(mode, "configs") == 0)
        test_configs();
    else if (strcmp(mode, "defaults") == 0 && argc > 2)
        test_defaults(argv[2]);
    else if (strcmp(mode, "defaults_valid") == 0 && argc > 2)
        test_defaults_valid(argv[2]);
    else if (strcmp(mode, "decide") == 0)
        test_decide();
    else if (strcmp(mode, "near") == 0)
        test_near();
    else {
        fprintf(stderr, "usage: test_tune db|tuner|configs [K/N]|decide|near|defaults FILE [K/N]|\n"
                        "       defaults_valid FILE\n");
        return 2;
    }
    return check_summary(mode);
}
