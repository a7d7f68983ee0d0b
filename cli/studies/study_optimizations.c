/* study_optimizations.c: the optimizations study (source document 002): Pi, N-body, K-means and
 * GEMM, original against optimized kernels, as speedups over the sequential host version (GEMM:
 * over OpenBLAS) on kernel time and overall, with the compile / upload / kernel / read-back
 * breakdown and the Pi launch sweeps over work-group size and total work-items. Every run gets an
 * empty kernel cache, so build_ms is a compile. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"
#include "study_defs.h"

static const study_param op_params[] = {
    {"PI_STEPS",
     STUDY_PARAM_COUNT,
     {"1000000", "100000000", "1000857600"},
     "Pi: rectangles of the midpoint rule"},
    {"BODIES", STUDY_PARAM_COUNT, {"512", "4096", "65536"}, "N-body: bodies"},
    {"NBODY_STEPS", STUDY_PARAM_COUNT, {"1", "1", "1"}, "N-body: time steps per run"},
    {"POINTS", STUDY_PARAM_COUNT, {"4096", "65536", "1048576"}, "K-means: points"},
    {"CLUSTERS", STUDY_PARAM_COUNT, {"64", "512", "4096"}, "K-means: clusters"},
    {"GEMM_N", STUDY_PARAM_COUNT, {"128", "512", "2048"}, "GEMM: n of the n x n x n product"},
    {"GEMM_STEPS",
     STUDY_PARAM_NAMES,
     {"tiled_16x16,regblock_4,tiled2d", "tiled_16x16,regblock_4,tiled2d",
      "tiled_16x16,regblock_4,tiled2d"},
     "GEMM: the optimized variants measured against naive"},
    {"PI_VARIANTS",
     STUDY_PARAM_NAMES,
     {"multithread,float4,optimized", "multithread,float2,float4,float8,float16,optimized",
      "multithread,float2,float4,float8,float16,optimized"},
     "Pi: the variants run after `original`, each in its own command"},
    {"NBODY_VARIANTS",
     STUDY_PARAM_NAMES,
     {"local,optimized", "local,optimized", "local,optimized"},
     "N-body: the variants run after `original`"},
    {"KMEANS_VARIANTS",
     STUDY_PARAM_NAMES,
     {"unrolled,optimized", "unrolled,optimized", "unrolled,optimized"},
     "K-means: the variants run after `original`"},
    {"PI_LOCALS",
     STUDY_PARAM_SIZES,
     {"32,1024", "32,64,128,256,512,1024", "32,64,128,256,512,1024"},
     "Pi launch sweep: work-group sizes (002's figures 6-10), at PI_GLOBAL work-items"},
    {"PI_GLOBAL",
     STUDY_PARAM_COUNT,
     {"16384", "65536", "270336"},
     "Pi launch sweep: total work-items of the work-group sweep"},
    {"PI_GLOBALS",
     STUDY_PARAM_SIZES,
     {"1024,16384", "1024,4096,16384,65536,262144,1048576",
      "1024,4608,30720,131072,270336,1048576,4194304"},
     "Pi launch sweep: total work-items (002's figures 6-10), in groups of PI_LOCAL"},
    {"PI_LOCAL",
     STUDY_PARAM_COUNT,
     {"64", "64", "64"},
     "Pi launch sweep: group size of the "
     "total work-items sweep (002's best on three of its four GPUs)"},
    RUN_PARAMS,
};

/* One command per variant: a command builds each program once and keeps it, so under
 * `--variant all` a variant that shares its program with an earlier one (multithread and
 * original, optimized and float8) would report a build time of 0. The first command of each
 * workload also runs the sequential host version, the speedup baseline. */
#define PI_SWEEP "--steps $PI_STEPS --no-sequential " RUNS
static const study_run op_runs[] = {
    {"pi", "pi", "--variant original --steps $PI_STEPS " RUNS, NULL, NULL, NULL, NULL},
    {"pi", "pi", "--variant $EACH --steps $PI_STEPS --no-sequential " RUNS, "PI_VARIANTS", NULL,
     "$EACH", NULL},
    {"nbody", "nbody", "--variant original --bodies $BODIES --steps $NBODY_STEPS " RUNS, NULL, NULL,
     NULL, NULL},
    {"nbody", "nbody",
     "--variant $EACH --bodies $BODIES --steps $NBODY_STEPS --no-sequential " RUNS,
     "NBODY_VARIANTS", NULL, "$EACH", NULL},
    {"kmeans", "kmeans", "--variant original --points $POINTS --clusters $CLUSTERS " RUNS, NULL,
     NULL, NULL, NULL},
    {"kmeans", "kmeans",
     "--variant $EACH --points $POINTS --clusters $CLUSTERS --no-sequential " RUNS,
     "KMEANS_VARIANTS", NULL, "$EACH", NULL},
    {"gemm", "gemm", "--variant naive --size $GEMM_N --peers openblas " RUNS, NULL, NULL, NULL,
     NULL},
    {"gemm", "gemm", "--variant $EACH --size $GEMM_N " RUNS, "GEMM_STEPS", NULL, "$EACH", NULL},
    /* 002's massive-multithreading sweeps (its figures 6-10), plain and float8 kernels */
    {"pi_local", "pi", "--variant multithread --global $PI_GLOBAL --local $EACH " PI_SWEEP,
     "PI_LOCALS", "$EACH", "multithread", NULL},
    {"pi_local", "pi", "--variant optimized --global $PI_GLOBAL --local $EACH " PI_SWEEP,
     "PI_LOCALS", "$EACH", "optimized", NULL},
    {"pi_global", "pi", "--variant multithread --global $EACH --local $PI_LOCAL " PI_SWEEP,
     "PI_GLOBALS", "n", "multithread", NULL},
    {"pi_global", "pi", "--variant optimized --global $EACH --local $PI_LOCAL " PI_SWEEP,
     "PI_GLOBALS", "n", "optimized", NULL},
};

#define OP_SWEEPS "pi,nbody,kmeans,gemm"
#define OP_TITLES "Pi,N-body,K-means,GEMM (against OpenBLAS)"
#define OP_BASELINE_LINE                                                                           \
    "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "             \
    "\"#000000\"\n"                                                                                \
    "set label 2 \"= 1: the sequential\\nhost version\" at graph 1.02, first 1 left font "         \
    "\",10\""

static const study_figure op_figures[] = {
    {"speedup", "Speedup over the sequential host version, kernel time only (002's figure 11)",
     "Sequential time / kernel time per variant, log scale: a bar below 1 is slower than the "
     "host C loop. GEMM's baseline is the openblas peer (see the method).",
     STUDY_FIG_BARS, OP_SWEEPS, OP_TITLES, NULL, "sequential,openblas", "speedup", NULL, NULL,
     "speedup over the sequential host version (x)", 0, 10, 1, OP_BASELINE_LINE},
    {"overall",
     "Overall speedup: compile, memory setup and read-back counted (002's figures 12, 16-19)",
     "Sequential time / (build + upload + kernel + download) per variant, log scale.",
     STUDY_FIG_BARS, OP_SWEEPS, OP_TITLES, NULL, "sequential,openblas", "speedup_overall", NULL,
     NULL, "overall speedup over the sequential host version (x)", 0, 10, 1, OP_BASELINE_LINE},
    {"breakdown", "Time breakdown per variant, in percent of its total (002's figures 13-15)",
     "Compile (build_ms: the method says whether it is always a compile), memory setup "
     "(upload_ms), execution (kernel_ms) and read-back (download_ms) as percent of their sum, so "
     "small parts stay visible; the sum itself is printed above each bar.",
     STUDY_FIG_STACKED_PERCENT, OP_SWEEPS, OP_TITLES, NULL, "sequential,openblas",
     "build_ms,upload_ms,kernel_ms,download_ms",
     "compile (build),memory setup (upload),execution (kernel),read-back (download)", NULL,
     "share of the total time (%)", 0, 0, 0, NULL},
    {"pi-local", "Pi: speedup against the work-group size (002's figures 6-10)",
     "Sequential time / kernel time of the plain (multithread) and float8 (optimized) Pi kernels "
     "at a fixed total of work-items (PI_GLOBAL), per work-group size; log x, y log where the "
     "speedups span more than 20x.",
     STUDY_FIG_LINES, "pi_local", NULL, NULL, NULL, "speedup", NULL,
     "work-items per work-group (local size)", "speedup over the sequential host version (x)", 2,
     -1, 0, NULL},
    {"pi-global", "Pi: speedup against the total number of work-items (002's figures 6-10)",
     "Sequential time / kernel time of the plain (multithread) and float8 (optimized) Pi kernels "
     "per total work-items (global size) in groups of PI_LOCAL; log x, y log where the speedups "
     "span more than 20x. 002 saw the speedup rise until the work-items filled the device.",
     STUDY_FIG_LINES, "pi_global", NULL, NULL, NULL, "speedup", NULL,
     "total work-items (global size)", "speedup over the sequential host version (x)", 2, -1, 0,
     NULL},
};

static void op_setup(study_env *env)
{
    study_keep_option_values(env, "pi", "local", "PI_LOCALS", "pi_local");
}

static void op_derive(study_table *t)
{
    static const char *const sweeps[] = {"pi", "nbody", "kmeans", "gemm", "pi_local", "pi_global"};
    for (size_t i = 0; i < COUNT(sweeps); ++i) {
        const char *base_series = strcmp(sweeps[i], "gemm") == 0 ? "openblas" : "sequential";
        /* The launch sweeps have no sequential row of their own: theirs is the Pi workload's. */
        const char *base_sweep = strncmp(sweeps[i], "pi_", 3) == 0 ? "pi" : sweeps[i];
        long b = study_find(t, base_sweep, base_series, NAN);
        double base = b < 0 ? NAN : study_num(t, (size_t)b, "kernel_ms");
        for (size_t r = 0; r < t->nrows; ++r) {
            if (strcmp(study_get(t, r, "sweep"), sweeps[i]) != 0) continue;
            double k = study_num(t, r, "kernel_ms");
            study_set_num(t, r, "speedup", base / k);
            /* The overall time: what a one-shot call costs, parts that do not apply count 0. */
            double total = k;
            const char *parts[] = {"build_ms", "upload_ms", "download_ms"};
            for (size_t p = 0; p < 3; ++p) {
                double v = study_num(t, r, parts[p]);
                if (isfinite(v)) total += v;
            }
            study_set_num(t, r, "speedup_overall", base / total);
        }
    }
}

/* The Pi launch sweeps: tables, 002's findings, and the best launch here. */
static void op_launch_summary(const study_table *t, const study_env *env, FILE *md)
{
    if (study_find(t, "pi_local", NULL, NAN) < 0 && study_find(t, "pi_global", NULL, NAN) < 0)
        return; /* a run from before the sweeps existed */
    fputs("### Pi launch sweeps: speedup over the sequential version\n\n", md);
    fprintf(md, "Work-group size, at %s work-items in total:\n\n",
            study_param_value(env, "PI_GLOBAL") ? study_param_value(env, "PI_GLOBAL") : "?");
    study_md_pivot(md, t, "pi_local", "speedup", "%.3g", "variant", "local %g");
    fprintf(md, "Total work-items, in groups of %s:\n\n",
            study_param_value(env, "PI_LOCAL") ? study_param_value(env, "PI_LOCAL") : "?");
    study_md_pivot(md, t, "pi_global", "speedup", "%.3g", "variant", "global %g");
    fputs("### Comparison with 002's launch sweeps\n\n", md);
    fputs("002 (its figures 6-10) finds that a group must fill the hardware's SIMD width (a "
          "wavefront of 64 or 32, a warp of 32), that 64 work-items per group is best on three of "
          "its four GPUs, that speedup rises with the total work-items until every compute unit "
          "is full (4,608 on the HD5850) and no further, and that the Cell, which is not "
          "multithreaded, gains nothing from larger groups. ",
          md);
    static const char *const sweeps[] = {"pi_local", "pi_global"};
    static const char *const what[] = {"work-group size", "total work-items"};
    static const char *const names[] = {"multithread", "optimized"};
    int k = 0;
    for (size_t i = 0; i < 2; ++i)
        for (size_t v = 0; v < 2; ++v) {
            double best = -1, bx = NAN, worst = INFINITY, wx = NAN;
            for (size_t r = 0; r < t->nrows; ++r) {
                if (strcmp(study_get(t, r, "sweep"), sweeps[i]) != 0 ||
                    strcmp(study_get(t, r, "series"), names[v]) != 0)
                    continue;
                double sp = study_num(t, r, "speedup"), x = study_num(t, r, "x");
                if (!isfinite(sp)) continue;
                if (sp > best) best = sp, bx = x;
                if (sp < worst) worst = sp, wx = x;
            }
            if (best > 0)
                fprintf(md, "%s%s over the %s: best %.3gx at %g, worst %.3gx at %g",
                        k++ ? "; " : "Here, ", names[v], what[i], best, bx, worst, wx);
        }
    if (k) fputs(". ", md);
    study_cpu_caveat(md, env,
                     "a work-group is a loop over its work-items on one core, so the launch mostly "
                     "changes the scheduling overhead");
    fputs("\n\n", md);
}

static void op_summary(const study_table *t, const study_env *env, FILE *md)
{
    static const char *const sweeps[] = {"pi", "nbody", "kmeans", "gemm"};
    static const char *const titles[] = {"Pi", "N-body", "K-means", "GEMM"};
    for (size_t i = 0; i < COUNT(sweeps); ++i) {
        fprintf(md, "### %s\n\n", titles[i]);
        study_md_rows(md, t, sweeps[i],
                      "series,kernel_ms,speedup,build_ms,upload_ms,download_ms,speedup_overall,"
                      "status",
                      "variant,kernel ms,speedup,build ms,upload ms,download ms,overall speedup,"
                      "status");
    }
    fputs("### Comparison with 002\n\n", md);
    fputs("002 reports speedups over a sequential C version on the host (an Intel Core i5-750) "
          "of 5 to 130 for Pi, 2 to 320 for GEMM, 20 to 660 for N-body and 71 to 625 for K-means "
          "across its GPUs, averaging 24 for the non-optimized and 430 for the optimized kernels; "
          "and overall speedups well below the kernel-only ones once compilation and memory "
          "setup are counted (its figures 12-15). ",
          md);
    double sum_orig = 0, sum_opt = 0;
    int n = 0;
    for (size_t i = 0; i < 3; ++i) {
        long first = -1, last = -1;
        for (size_t r = 0; r < t->nrows; ++r) {
            if (strcmp(study_get(t, r, "sweep"), sweeps[i]) != 0 ||
                strcmp(study_get(t, r, "series"), "sequential") == 0 ||
                !isfinite(study_num(t, r, "speedup")))
                continue;
            if (first < 0) first = (long)r;
            last = (long)r;
        }
        if (first < 0) continue;
        double a = study_num(t, (size_t)first, "speedup"),
               b = study_num(t, (size_t)last, "speedup");
        fprintf(md, "%s: %s %.3gx, %s %.3gx (overall %.3gx). ", titles[i],
                study_get(t, (size_t)first, "series"), a, study_get(t, (size_t)last, "series"), b,
                study_num(t, (size_t)last, "speedup_overall"));
        sum_orig += a, sum_opt += b, ++n;
    }
    if (n)
        fprintf(md, "Average over these %d workloads: %.3gx unoptimized, %.3gx optimized. ", n,
                sum_orig / n, sum_opt / n);
    long naive = study_find(t, "gemm", "naive", NAN), best = study_find(t, "gemm", "tiled2d", NAN);
    if (naive >= 0 && best >= 0)
        fprintf(md,
                "GEMM against OpenBLAS (a tuned multi-threaded BLAS, a far stronger baseline than "
                "002's sequential loop): naive %.3gx, tiled2d %.3gx. ",
                study_num(t, (size_t)naive, "speedup"), study_num(t, (size_t)best, "speedup"));
    study_cpu_caveat(
        md, env,
        "the OpenCL kernels run on the same cores as the sequential version, so a speedup "
        "is bounded by the core count times the vector width");
    fputs("\n\n", md);
    op_launch_summary(t, env, md);
}

const study_def study_optimizations = {
    "optimizations",
    "002",
    "Optimizations: original against optimized, over the sequential host",
    "Pi, N-body, K-means and GEMM: speedups over the host version and the time breakdown",
    "speedup,speedup_overall",
    TABLES(op),
    "`tessel pi`, `tessel nbody` and `tessel kmeans` run once per variant; the first run "
    "(`original`) also reports the `sequential` row (the host C version, timed with a "
    "monotonic clock); speedup = that "
    "row's kernel_ms / a variant's kernel_ms, as 002 (kernel time only, its figure 11). "
    "`speedup_overall` divides by build + upload + kernel + download instead, 002's overall "
    "speedup. Each variant runs in its own command (a command builds a program once and "
    "reuses it, so variants sharing a program would show no compile), and each command runs "
    "with TESSEL_CACHE_DIR set to a new, empty folder: build_ms is a full compile from source, "
    "never a load from tessel's binary cache (the driver's own caches, such as PoCL's kernel "
    "cache, are outside tessel's control). GEMM runs `tessel gemm` for naive (002's "
    "original) and the variants that add 002's optimizations: tiled_16x16 (data redistribution "
    "through local memory), regblock_4 "
    "(4 outputs per work-item) and tiled2d (2D register tiles, vectorized, local memory: the "
    "combination). Its baseline is the openblas peer, a tuned multi-threaded BLAS on the host "
    "and not 002's sequential triple loop: GEMM speedups are therefore far below 002's and "
    "are not averaged with the others. upload_ms is the host-to-device copy of the inputs, the "
    "part of 002's memory setup that a device does. The Pi launch sweeps (002's figures 6-10) "
    "run `tessel pi --global G --local L --no-sequential` for the plain (multithread) and "
    "float8 (optimized) kernels over the work-group sizes at PI_GLOBAL work-items and over "
    "the totals in groups of PI_LOCAL; their speedup is over the Pi workload's sequential "
    "row.",
    op_setup,
    op_derive,
    op_summary,
    1};
