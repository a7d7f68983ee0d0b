/* test_tune_tensor.c: the tuner's spaces for GEMM's tensor-core kinds (docs/tuning.md: half,
 * bfloat16, and single precision in TF32 and 3xTF32 math). Two parts:
 *  - on the PoCL device as it is (no tensor-core instruction): tsl_tuner_create for each kind is
 *    TSL_ERR_UNSUPPORTED with a message that says why (nothing to tune: the configurations would
 *    run emulated), and the precision arguments of the tuning calls refuse what they cannot mean;
 *  - on a context that the test alone makes look like an NVIDIA sm_80 GPU (its compute capability
 *    and device type set by hand, through the internal header: no environment variable or other
 *    switch of the library's own): each kind's space is not empty, its first candidates are the
 *    kind's built-in configurations, and every candidate handed out (a few hundred, with scores
 *    reported so refinement runs) has the kind's MMA value, is one that tsl__tiled2d_runs accepts
 *    for the kind, and is distinct; ASYNC, FPIPE and BT are searched (each candidate set visits
 *    their non-zero values); single precision in FP32 math keeps MMA=0 and ASYNC=0 there;
 *  - double on contexts made to look like an sm_90 GPU with NVIDIA's 48 KiB of local memory (its
 *    FP64 instructions MMA=1-3), an sm_80 one (MMA=1 only) and an sm_86 one (none): the ring
 *    (ASYNC) and its fragment pipeline (FPIPE) are searched with the FP64 instructions, never
 *    BT, with one VW (2), APAD (0) and STRIDED (1) per ring configuration, within the registers,
 *    and nowhere without an FP64 instruction; configurations whose padded ring exceeds 48 KiB
 *    are refused (128 x 64 x 8 with 3 stages: 50688 bytes with A's rows padded by 4, 38400
 *    without).
 * Nothing is built or run: the candidates are checked as data. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "gemm/gemm_internal.h"
#include "runtime/runtime.h"
#include "tessel.h"
#include "tune/tune.h"

#define NCAND 300

typedef struct {
    const char *name;
    tsl_precision prec;
    tsl_math math;
    int kind, mma;
} kind_case;

static const kind_case kinds[] = {{"half", TSL_HALF, TSL_MATH_FP32, GK_HALF, 4},
                                  {"bfloat16", TSL_BFLOAT16, TSL_MATH_FP32, GK_BF16, 4},
                                  {"tf32", TSL_SINGLE, TSL_MATH_TF32, GK_TF32, 5},
                                  {"3xtf32", TSL_SINGLE, TSL_MATH_3XTF32, GK_3XTF32, 5}};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static char dir[256];

static tsl_context *open_ctx(void)
{
    tsl_context *ctx = NULL;
    tsl_status s = tsl_context_create(NULL, &ctx);
    CHECK(s == TSL_OK, "tsl_context_create: %s", tsl_status_name(s));
    return ctx;
}

/* The real device: no tensor-core instruction on PoCL, so nothing to tune for these kinds. */
static void test_no_instruction(void)
{
    tsl_context *ctx = open_ctx();
    if (!ctx) return;
    if (tsl__nv_compute_capability(ctx) >= 80) {
        printf("SKIP the device has tensor cores (sm_%d): the refusal is not tested\n",
               tsl__nv_compute_capability(ctx));
        tsl_context_destroy(ctx);
        return;
    }
    for (size_t i = 0; i < NKINDS; ++i) {
        tsl_tuner *t = NULL;
        CHECK(tsl_context_set_option(ctx, "gemm", "math", kinds[i].math) == TSL_OK, "math");
        tsl_status s = tsl_tuner_create(ctx, "gemm", kinds[i].prec, 1, &t);
        const char *why = tsl_context_error(ctx);
        CHECK(s == TSL_ERR_UNSUPPORTED && !t, "%s: %s", kinds[i].name, tsl_status_name(s));
        CHECK(strstr(why, "tensor-core instruction") && strstr(why, "nothing to tune") &&
                  strstr(why, kinds[i].mma == 4 ? "MMA=4" : "MMA=5"),
              "%s: the reason names the instruction: %s", kinds[i].name, why);
        tsl_tuner_destroy(t);
    }
    /* FP32 math: single and double still tune there */
    tsl_context_set_option(ctx, "gemm", "math", TSL_MATH_FP32);
    tsl_tuner *t = NULL;
    CHECK(tsl_tuner_create(ctx, "gemm", TSL_SINGLE, 1, &t) == TSL_OK && t, "single: %s",
          tsl_context_error(ctx));
    tsl_tuner_destroy(t);
    /* precision arguments: a tsl_precision, 16-bit for gemm only */
    const char *cfg, *src;
    CHECK(tsl_tuner_create(ctx, "gemm", 7, 1, &t) == TSL_ERR_INVALID_ARG && !t, "precision 7");
    CHECK(tsl_tuning_lookup(ctx, "gemm", -1, 8, 8, 8, &cfg, &src) == TSL_ERR_INVALID_ARG,
          "lookup precision -1");
    CHECK(tsl_tuning_lookup(ctx, "transpose", TSL_HALF, 8, 8, 8, &cfg, &src) ==
              TSL_ERR_UNSUPPORTED,
          "lookup: transpose has no half");
    CHECK(tsl_tuning_lookup(ctx, "gemm", TSL_HALF, 8, 8, 8, &cfg, &src) == TSL_OK, "lookup half: %s",
          tsl_context_error(ctx));
    CHECK(tsl_tuning_store(ctx, "gemm", 4, 8, 8, 8, "tiled2d", NULL) == TSL_ERR_INVALID_ARG,
          "store precision 4 (tf32 is single in TF32 math, not a precision)");
    tsl_context_destroy(ctx);
}

/* values of a candidate string (axes it does not name: the fallback's) */
static int parse(const char *cfg, int *v)
{
    char why[256];
    memcpy(v, tsl__tiled2d_fallback.v, sizeof tsl__tiled2d_fallback.v);
    return tsl__space_parse(&tsl__tiled2d_space, cfg, v, why, sizeof why);
}

static void test_space(tsl_context *ctx, const kind_case *kc)
{
    CHECK(tsl_context_set_option(ctx, "gemm", "math", kc->math) == TSL_OK, "math");
    tsl_tuner *t = NULL;
    tsl_status s = tsl_tuner_create(ctx, "gemm", kc->prec, 11, &t);
    CHECK(s == TSL_OK && t, "%s: create: %s", kc->name, tsl_context_error(ctx));
    if (!t) return;
    size_t space = tsl_tuner_space_size(t);
    CHECK(space > NCAND, "%s: the space has more than %d points (%zu)", kc->name, NCAND, space);
    static char seen[NCAND][256];
    int n = 0, async = 0, fpipe = 0, bt = 0, distinct = 1;
    for (const char *c; n < NCAND && (c = tsl_tuner_next(t)) != NULL; ++n) {
        snprintf(seen[n], sizeof seen[n], "%s", c);
        int v[NP];
        CHECK(parse(c, v) == 0, "%s: candidate %s parses", kc->name, c);
        CHECK(v[P_MMA] == kc->mma, "%s: candidate %s has MMA=%d", kc->name, c, kc->mma);
        CHECK(tsl__tiled2d_runs(ctx, kc->kind, v), "%s: candidate %s runs", kc->name, c);
        CHECK(v[P_KSPLIT] == 0 && v[P_DIRECT] == 0 && v[P_PEEL] == 0,
              "%s: %s keeps the host's axes at 0", kc->name, c);
        if (n < 2) { /* the kind's built-ins first (no database entry: auto runs the first) */
            const int *b = tsl__tiled2d_base(ctx, kc->kind).v;
            int same = 1;
            for (int a = 0; a < NP; ++a)
                same &= a == P_DIRECT || v[a] == b[a] || n == 1;
            CHECK(same, "%s: the first candidate is the built-in configuration: %s", kc->name, c);
            CHECK(n == 0 || v[P_ASYNC] == 0, "%s: the second is the built-in without ASYNC: %s",
                  kc->name, c);
        }
        for (int j = 0; j < n; ++j) distinct &= strcmp(seen[j], c) != 0;
        async += v[P_ASYNC] != 0;
        fpipe += v[P_FPIPE] != 0;
        bt += v[P_BT] != 0;
        tsl_tuner_report(t, (double)(n % 7)); /* a few bests: refinement moves */
    }
    printf("%s: %zu valid points; of %d candidates %d with ASYNC, %d FPIPE, %d BT\n", kc->name,
           space, n, async, fpipe, bt);
    CHECK(n == NCAND, "%s: %d candidates", kc->name, n);
    CHECK(distinct, "%s: candidates are distinct", kc->name);
    CHECK(async > 0 && fpipe > 0 && bt > 0,
          "%s: ASYNC, FPIPE and BT are searched (%d, %d, %d of %d)", kc->name, async, fpipe, bt, n);
    CHECK(async < n, "%s: and so is the non-ASYNC staging (%d of %d with ASYNC)", kc->name, async,
          n);
    tsl_tuner_destroy(t);
}

/* A context made to look like an NVIDIA sm_80 GPU: only the spaces are asked for, nothing runs. */
static void test_spaces(void)
{
    tsl_context *ctx = open_ctx();
    if (!ctx) return;
    ctx->nv_cc = 80;
    snprintf(ctx->info.type, sizeof ctx->info.type, "gpu");
    for (size_t i = 0; i < NKINDS; ++i) test_space(ctx, &kinds[i]);
    /* single precision in FP32 math: no tensor-core or asynchronous-copy configuration */
    tsl_context_set_option(ctx, "gemm", "math", TSL_MATH_FP32);
    tsl_tuner *t = NULL;
    CHECK(tsl_tuner_create(ctx, "gemm", TSL_SINGLE, 3, &t) == TSL_OK && t, "single: %s",
          tsl_context_error(ctx));
    int bad = 0, n = 0;
    for (const char *c; t && n < 100 && (c = tsl_tuner_next(t)) != NULL; ++n) {
        int v[NP];
        bad += parse(c, v) != 0 || v[P_MMA] || v[P_ASYNC] || v[P_FPIPE] || v[P_BT];
        tsl_tuner_report(t, 1.0);
    }
    CHECK(n == 100 && bad == 0, "single: %d of %d candidates with MMA, ASYNC, FPIPE or BT", bad,
          n);
    tsl_tuner_destroy(t);
    tsl_context_destroy(ctx);
}

/* Double's space on a context made to look like an NVIDIA GPU of compute capability cc with 48
 * KiB of local memory, asked axis by axis (allowed) and point by point (valid, runs): the double
 * space is millions of points (enumerating it takes minutes under the sanitizers), and its ring
 * points are reached by the tuner through the seeds and refinement. */
static void test_double_space(int cc)
{
    tsl_context *ctx = open_ctx();
    if (!ctx) return;
    ctx->nv_cc = cc;
    snprintf(ctx->info.type, sizeof ctx->info.type, "gpu");
    ctx->info.local_mem = 49152;
    const tsl__space *sp = &tsl__tiled2d_space;
    int fp64 = cc != 86; /* sm_80: m8n8k4; sm_90: all three; sm_86: none */
    for (int value = 2; value <= 4; ++value)
        CHECK(sp->allowed(ctx, GK_DOUBLE, P_ASYNC, value) == fp64, "double sm_%d: ASYNC=%d %s", cc,
              value, fp64 ? "searched" : "not searched");
    CHECK(sp->allowed(ctx, GK_DOUBLE, P_FPIPE, 1) == fp64, "double sm_%d: FPIPE=1", cc);
    CHECK(!sp->allowed(ctx, GK_DOUBLE, P_BT, 1), "double sm_%d: BT=1 is not searched", cc);
    CHECK(!sp->allowed(ctx, GK_SINGLE, P_ASYNC, 2) && !sp->allowed(ctx, GK_SINGLE, P_FPIPE, 1),
          "single sm_%d in FP32 math: no ring", cc);
    /* points: the ring with one VW (2), APAD (0) and STRIDED (1); its local memory counted
     * exactly, padding included, before a build; where the instruction is emulated (MMA 2 and 3
     * on sm_80, every MMA on sm_86) with the emulation's fragments too, 16, 48 and 96 bytes an
     * item for MMA 1, 2 and 3 (the first ring: 44544 + 256 x 48 = 56832) */
    static const struct {
        const char *cfg;
        int runs, valid, runs_emulated; /* within 48 KiB (valid: and searched); runs emulated */
        int big; /* past 48 KiB: runs (and is searched) on sm_90 only, through the sm_90a patch */
    } rings[] = {
        {"MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,VW=2,MMA=2,ASYNC=3", 1, 1, 0, 0},   /* 44544 bytes */
        {"MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,VW=2,MMA=2,ASYNC=3,FPIPE=1", 1, 1, 0, 0},
        {"MWG=64,NWG=128,KWG=8,MDIMC=8,NDIMC=32,VW=2,MMA=2,ASYNC=4", 0, 0, 0, 1},   /* 59392 */
        {"MWG=128,NWG=64,KWG=8,MDIMC=16,NDIMC=16,VW=2,MMA=1,ASYNC=2", 1, 1, 1, 0},  /* 33792 */
        {"MWG=128,NWG=64,KWG=8,MDIMC=16,NDIMC=16,VW=2,MMA=2,ASYNC=3", 0, 0, 0, 1},  /* 50688: 38400
                                                                                  unpadded */
        {"MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=2,MMA=3,ASYNC=2,FPIPE=1", 1, 1, 0, 0}, /* 38912 */
        {"MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=1,MMA=3,ASYNC=2", 1, 0, 0, 0},   /* VW=2 runs */
        {"MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=2,MMA=3,ASYNC=2,APAD=1", 1, 0, 0, 0},
        {"MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=2,MMA=3,ASYNC=2,BT=1", 0, 0, 0, 0}, /* not FP64 */
        {"MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=2,MMA=3,ASYNC=2,PF=1,DBUF=1", 0, 0, 0, 0},
        {"MWG=64,NWG=64,KWG=16,MDIMC=8,NDIMC=16,VW=2,MMA=0,ASYNC=2", 0, 0, 0, 0}, /* no instruction */
        {"MWG=32,NWG=32,KWG=32,MDIMC=4,NDIMC=8,VW=2,MMA=1,ASYNC=2", 1, 1, 1, 0},    /* 38912; 16
                                                                       chunks a row: no swizzle */
        {"MWG=64,NWG=64,KWG=32,MDIMC=8,NDIMC=8,VW=2,MMA=1,ASYNC=2", 0, 0, 0, 1},    /* 73728 */
        {"MWG=128,NWG=128,KWG=8,MDIMC=16,NDIMC=16,VW=2,MMA=2,ASYNC=2,FPIPE=1", 1, 1, 0, 0}, /* 41984,
                                                                                  registers 248 */
        {"MWG=128,NWG=128,KWG=8,MDIMC=8,NDIMC=16,VW=2,MMA=2,ASYNC=2", 1, 0, 1, 0},  /* registers */
    };
    /* an FP64 configuration that no kind runs here (past sm_90a's 227 KiB): the refusal names
     * the device's limit at double precision, not single precision's instruction rule */
    if (cc == 90) {
        const char *big = "tiled2d:MWG=256,NWG=256,KWG=32,MDIMC=8,NDIMC=32,VW=2,SA=1,SB=1,PF=0,"
                          "DBUF=0,STRIDED=1,VWA=1,APAD=0,MMA=2,ASYNC=4";
        tsl_status st = tsl_context_set_variant(ctx, "gemm", big);
        const char *e = tsl_context_error(ctx);
        CHECK(st == TSL_ERR_UNSUPPORTED && strstr(e, "does not fit") && strstr(e, "double") &&
                  !strstr(e, "single precision in FP32 math"),
              "a ring over 227 KiB: %s: %s", tsl_status_name(st), e);
    }
    for (size_t i = 0; i < sizeof rings / sizeof rings[0]; ++i) {
        char cfg[300];
        snprintf(cfg, sizeof cfg, "tiled2d:SA=1,SB=1,PF=0,DBUF=0,STRIDED=1,VWA=1,APAD=0,WN=0,%s",
                 rings[i].cfg);
        int v[NP];
        CHECK(parse(cfg, v) == 0, "parse %s", cfg);
        int has = cc == 90 || (cc == 80 && v[P_MMA] <= 1);
        int big = rings[i].big && cc == 90;
        int runs = has ? rings[i].runs || big : rings[i].runs_emulated;
        int valid = (rings[i].valid || big) && has;
        CHECK(tsl__tiled2d_runs(ctx, GK_DOUBLE, v) == runs, "double sm_%d: %s %s", cc, cfg,
              runs ? "runs" : "is refused");
        CHECK(sp->valid(ctx, GK_DOUBLE, v) == valid, "double sm_%d: %s %s", cc, cfg,
              valid ? "is searched" : "is not searched");
    }
    tsl_context_destroy(ctx);
}

/* The tuner's prefix pruning (tiled2d_prefix_ok) keeps every valid point: each space enumerated
 * with it and without it (the same space, prefix_ok NULL) has the same size, and the pruned one
 * is a subset by construction. On a context made to look like an sm_80 GPU with 48 KiB, and for
 * double an sm_86 one (no FP64 instruction: double's sm_90 space takes minutes here unpruned). */
static void test_prefix(void)
{
    tsl_context *ctx = open_ctx();
    if (!ctx) return;
    snprintf(ctx->info.type, sizeof ctx->info.type, "gpu");
    ctx->info.local_mem = 49152;
    tsl__space plain = tsl__tiled2d_space;
    plain.prefix_ok = NULL;
    static const struct {
        int kind, cc;
        const char *name;
    } ks[] = {{GK_SINGLE, 80, "single"}, {GK_HALF, 80, "half"},     {GK_BF16, 80, "bfloat16"},
              {GK_TF32, 80, "tf32"},     {GK_3XTF32, 80, "3xtf32"}, {GK_DOUBLE, 86, "double"}};
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
        ctx->nv_cc = ks[i].cc;
        tsl_tuner *pruned = NULL, *whole = NULL;
        double t0 = tsl__now_ms();
        tsl_status s1 = tsl__tuner_create(ctx, "gemm", &tsl__tiled2d_space, ks[i].kind, "large",
                                          1, &pruned);
        double t1 = tsl__now_ms();
        tsl_status s2 = tsl__tuner_create(ctx, "gemm", &plain, ks[i].kind, "large", 1, &whole);
        double t2 = tsl__now_ms();
        size_t np = tsl_tuner_space_size(pruned), nw = tsl_tuner_space_size(whole);
        printf("%s on sm_%d: %zu valid points, enumerated in %.0f ms pruned, %.0f ms one by one\n",
               ks[i].name, ks[i].cc, np, t1 - t0, t2 - t1);
        CHECK(s1 == TSL_OK && s2 == TSL_OK && np > 0 && np == nw,
              "%s: the pruned walk keeps every valid point (%zu of %zu)", ks[i].name, np, nw);
        tsl_tuner_destroy(pruned);
        tsl_tuner_destroy(whole);
    }
    tsl_context_destroy(ctx);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/tessel-test-tune-tensor-%ld", (long)getpid());
    mkdir(dir, 0755);
    setenv("TESSEL_TUNING_DIR", dir, 1); /* no user entry: auto is the built-in */
    test_no_instruction();
    test_spaces();
    test_double_space(90);
    test_double_space(80);
    test_double_space(86);
    test_prefix();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return check_summary("tune_tensor");
}
