/* studies.c: the seven studies of `tessel study` (docs/studies.md), each a reproduction of a
 * measurement in one source document (../shared/seeds): its parameters per mode, the tessel
 * subcommands it runs, its figures, and the little code it needs: setup drops what the device or
 * the build cannot run (as skipped rows with the reason), derive computes the study's own
 * columns from the measured ones, and the summary writes the markdown tables and the paragraph
 * that sets the result beside the document's claim. The claims quoted here are the documents'
 * own numbers, on their hardware. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"
#include "study.h"

/* Runs and warmups of every study, per mode. */
#define RUN_PARAMS                                                                                 \
    {"REPEAT", STUDY_PARAM_COUNT, {"1", "3", "10"}, "timed runs per row, the median is reported"}, \
    {                                                                                              \
        "WARMUP", STUDY_PARAM_UINT, {"0", "1", "2"}, "untimed runs before the timed ones"          \
    }
#define RUNS "--repeat $REPEAT --warmup $WARMUP"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers for the hooks ---------------------------------------------------------------- */

/* The value of col in the row of (sweep, series, x); NaN when absent. */
static double value_at(const study_table *t, const char *sweep, const char *series, double x,
                       const char *col)
{
    long r = study_find(t, sweep, series, x);
    return r < 0 ? NAN : study_num(t, (size_t)r, col);
}

/* Keeps in the comma-list parameter `param` only the variants of op that the device runs
 * (tsl_variant_check); each one dropped becomes a skipped row of sweep with the reason. */
static void keep_runnable(study_env *env, const char *op, const char *param, const char *sweep,
                          const char *precision)
{
    const char *list = study_param_value(env, param);
    if (!list || !env->ctx) return;
    char in[512], out[512] = "";
    snprintf(in, sizeof in, "%s", list);
    for (char *v = strtok(in, ","); v; v = strtok(NULL, ",")) {
        tsl_status st = tsl_variant_check(env->ctx, op, v, NULL);
        if (st == TSL_OK || st == TSL_ERR_INVALID_ARG) { /* an unknown name: the command says so */
            size_t used = strlen(out);
            snprintf(out + used, sizeof out - used, "%s%s", used ? "," : "", v);
        } else {
            study_add_skipped(env, sweep, op, v, precision, tsl_context_error(env->ctx));
        }
    }
    study_set_param(env, param, out);
}

/* Keeps in `param` only the values the device accepts for the op's option `option`. */
static void keep_option_values(study_env *env, const char *op, const char *option,
                               const char *param, const char *sweep)
{
    const char *list = study_param_value(env, param);
    if (!list || !env->ctx) return;
    char in[512], out[512] = "";
    snprintf(in, sizeof in, "%s", list);
    for (char *v = strtok(in, ","); v; v = strtok(NULL, ",")) {
        if (tsl_context_set_option(env->ctx, op, option, strtol(v, NULL, 10)) == TSL_OK) {
            size_t used = strlen(out);
            snprintf(out + used, sizeof out - used, "%s%s", used ? "," : "", v);
        } else {
            char what[64];
            snprintf(what, sizeof what, "%s %s", option, v);
            study_add_skipped(env, sweep, op, what, "", tsl_context_error(env->ctx));
        }
    }
    study_set_param(env, param, out);
}

static int is_cpu(const study_env *env)
{
    return strcmp(env->dev.type, "cpu") == 0;
}

/* A sentence for CPU devices, where the documents' GPU claims are not expected to carry over. */
static void cpu_caveat(FILE *md, const study_env *env, const char *what)
{
    if (is_cpu(env))
        fprintf(md,
                "This run is on a CPU device (%s), where %s; the document's GPU figures are a "
                "reference for the shape of the result, not a target. ",
                env->dev.name, what);
}

/* ---- memory-hierarchy (000) ---------------------------------------------------------------- */

static const study_param mh_params[] = {
    {"SIZES",
     STUDY_PARAM_SIZES,
     {"32,64", "128,256,512,1024", "256,512,1024,2048,4096"},
     "n of the n x n x n products"},
    {"VARIANTS",
     STUDY_PARAM_NAMES,
     {"naive,tiled_2x2,tiled_4x4,tiled_8x8,tiled_16x16,tiled_32x32",
      "naive,tiled_2x2,tiled_4x4,tiled_8x8,tiled_16x16,tiled_32x32",
      "naive,tiled_2x2,tiled_4x4,tiled_8x8,tiled_16x16,tiled_32x32"},
     "the global-memory kernel and the local-memory blocks of the sweep"},
    RUN_PARAMS,
};

static const study_run mh_runs[] = {
    {"size", "gemm", "--variant $EACH --sizes $SIZES " RUNS, "VARIANTS", "n", "$EACH", NULL},
};

static const study_figure mh_figures[] = {
    {"time", "Global memory (naive) against 16x16 local-memory tiles (000, section XI)",
     "Kernel time of the global-memory kernel and the 16x16 tiled kernel against n, log-log.",
     STUDY_FIG_LINES, "size", NULL, "naive,tiled_16x16", NULL, "kernel_ms", NULL,
     "matrix size n (n x n times n x n, single precision)", "kernel time (ms), median", 2, 10, 0,
     NULL},
    {"reduction", "Speedup of each local-memory block over the global-memory kernel",
     "t_naive / t_tiled per block size, log scale; each tic also gives 000's measure, the "
     "reduction in time 100 (1 - t_tiled / t_naive). 000 reports about 90 % (10x) for 16x16 and "
     "a slowdown (below 1x) for 2x2.",
     STUDY_FIG_LINES, "size", NULL, NULL, "naive", "speedup_vs_naive", NULL,
     "matrix size n (n x n times n x n, single precision)",
     "speedup over naive, t_naive / t  (reduction in time)", 2, 10, 0,
     /* The axis always shows 1x (naive) and 10x (000's claim) up to a fixed 20x (gnuplot 5.4
      * draws an autoscaled log axis with a lower bound on its maximum wrongly); each tic names
      * a speedup and the reduction in time 000 would print for it. */
     "set yrange [*<0.5:20]\n"
     "set ytics (\"0.01x  (-9900 %%)\" 0.01, \"0.02x  (-4900 %%)\" 0.02, \"0.05x  (-1900 %%)\" "
     "0.05, \"0.1x  (-900 %%)\" 0.1, \"0.2x  (-400 %%)\" 0.2, \"0.5x  (-100 %%)\" 0.5, "
     "\"1x  (0 %%)\" 1, \"2x  (50 %%)\" 2, \"5x  (80 %%)\" 5, \"10x  (90 %%)\" 10, "
     "\"20x  (95 %%)\" 20, \"50x  (98 %%)\" 50, \"100x  (99 %%)\" 100)\n"
     "set arrow 1 from graph 0, first 10 to graph 1, first 10 nohead dt 2 lw 1.5 lc rgb "
     "\"#606060\"\n"
     "set label 2 \"000: about 90 % less time (10x) with 16x16 tiles\" at graph 0.02, first 10 "
     "offset 0,0.7 tc rgb \"#606060\"\n"
     "set arrow 3 from graph 0, first 1 to graph 1, first 1 nohead lw 1.5 lc rgb \"#000000\"\n"
     "set label 4 \"solid line at 1x: naive (global memory)\" at graph 0.98, first 1.6 right"},
    {"blocks", "Block-size sweep: every local-memory block against the global-memory kernel",
     "Kernel time per block size 2..32 and of the global-memory kernel, log-log: 000 found "
     "block 2 slower than global memory.",
     STUDY_FIG_LINES, "size", NULL, NULL, NULL, "kernel_ms", NULL,
     "matrix size n (n x n times n x n, single precision)", "kernel time (ms), median", 2, 10, 0,
     NULL},
};

static void mh_setup(study_env *env)
{
    keep_runnable(env, "gemm", "VARIANTS", "size", "single");
}

static void mh_derive(study_table *t)
{
    for (size_t r = 0; r < t->nrows; ++r) {
        double total = study_num(t, r, "kernel_ms") + study_num(t, r, "upload_ms") +
                       study_num(t, r, "download_ms");
        study_set_num(t, r, "total_ms", total);
        if (strcmp(study_get(t, r, "series"), "naive") == 0) continue;
        double x = study_num(t, r, "x");
        long base = study_find(t, "size", "naive", x);
        if (isnan(x) || base < 0) continue;
        double tn = study_num(t, (size_t)base, "kernel_ms");
        double totn = study_num(t, (size_t)base, "kernel_ms") +
                      study_num(t, (size_t)base, "upload_ms") +
                      study_num(t, (size_t)base, "download_ms");
        study_set_num(t, r, "reduction_pct", 100.0 * (1.0 - study_num(t, r, "kernel_ms") / tn));
        study_set_num(t, r, "speedup_vs_naive", tn / study_num(t, r, "kernel_ms"));
        study_set_num(t, r, "reduction_total_pct", 100.0 * (1.0 - total / totn));
    }
}

/* Mean of col over the rows of (sweep, series) with a finite value; *n gets the count. */
static double mean_of(const study_table *t, const char *sweep, const char *series, const char *col,
                      size_t *n)
{
    double sum = 0;
    *n = 0;
    for (size_t r = 0; r < t->nrows; ++r) {
        if (strcmp(study_get(t, r, "sweep"), sweep) != 0 ||
            strcmp(study_get(t, r, "series"), series) != 0)
            continue;
        double v = study_num(t, r, col);
        if (isfinite(v)) sum += v, ++*n;
    }
    return *n ? sum / (double)*n : NAN;
}

static void mh_summary(const study_table *t, const study_env *env, FILE *md)
{
    fputs("### Kernel time (ms, median)\n\n", md);
    study_md_pivot(md, t, "size", "kernel_ms", "%.3f", "variant", "n = %g");
    fputs("### Reduction in kernel time against naive (%)\n\n", md);
    study_md_pivot(md, t, "size", "reduction_pct", "%.1f", "variant", "n = %g");
    fputs("### Comparison with 000\n\n", md);
    fputs("000 reports, for its 16x16 local-memory kernel against the global-memory kernel, an "
          "average 96.8 % decrease in execution time over its sizes on a GeForce GTX 260 and "
          "about 90 % across five GPUs; and a block size of 2 so inefficient that it runs longer "
          "than the global-memory kernel (GeForce 410M). ",
          md);
    size_t n = 0, nt = 0;
    double mean = mean_of(t, "size", "tiled_16x16", "reduction_pct", &n);
    double mean_total = mean_of(t, "size", "tiled_16x16", "reduction_total_pct", &nt);
    double xmax = study_max_x(t, "size", "tiled_2x2", "reduction_pct");
    if (n)
        fprintf(md,
                "Here the reduction of tiled_16x16 averages %.1f %% over %zu sizes (%.1f %% "
                "with the upload of A and B and the read-back of C counted, as 000 timed it)%s. ",
                mean, n, mean_total, mean < 0 ? "; below 0 means slower than naive" : "");
    if (!isnan(xmax)) {
        double r2 = value_at(t, "size", "tiled_2x2", xmax, "kernel_ms") /
                    value_at(t, "size", "naive", xmax, "kernel_ms");
        fprintf(md, "At n = %g, tiled_2x2 takes %.2fx the time of naive: %s. ", xmax, r2,
                r2 > 1 ? "slower than global memory, as 000 found"
                       : "faster than global memory, unlike 000's GPU");
        const char *best = NULL;
        double best_ms = INFINITY;
        for (size_t r = 0; r < t->nrows; ++r)
            if (strcmp(study_get(t, r, "sweep"), "size") == 0 && study_num(t, r, "x") == xmax &&
                study_num(t, r, "kernel_ms") < best_ms)
                best_ms = study_num(t, r, "kernel_ms"), best = study_get(t, r, "series");
        if (best) fprintf(md, "The fastest of the sweep at n = %g is %s. ", xmax, best);
    }
    cpu_caveat(md, env,
               "OpenCL local memory is ordinary cached memory and the work-group barrier "
               "has a cost, so tiles need not save anything");
    fputs("\n\n", md);
}

/* ---- gemm-ladder (003) --------------------------------------------------------------------- */

static const study_param gl_params[] = {
    {"SIZES",
     STUDY_PARAM_SIZES,
     {"32,64", "64,128,256,512,1024", "128,256,512,1024,2048,4096"},
     "n of the n x n x n products"},
    {"PRECISION",
     STUDY_PARAM_NAMES,
     {"double", "double", "double"},
     "single or double (003 measured DGEMM)"},
    {"PEERS",
     STUDY_PARAM_NAMES,
     {"openblas,clblast,cublas", "openblas,clblast,cublas", "openblas,clblast,cublas"},
     "the peers run beside the ladder"},
    RUN_PARAMS,
};

static const study_run gl_runs[] = {
    {"ladder", "gemm", "--variant all --sizes $SIZES --precision $PRECISION --peers $PEERS " RUNS,
     NULL, "n", NULL, NULL},
};

static const study_figure gl_figures[] = {
    {"gflops", "The GEMM ladder against the peers (003's figures 1-6)",
     "GFLOP/s = 2n^3 / kernel time of every GEMM variant and peer against n, log-log.",
     STUDY_FIG_LINES, "ladder", NULL, NULL, NULL, "gflops", NULL, "matrix size n (n x n x n)",
     "GFLOP/s (2 n^3 / median kernel time)", 2, 10, 0, NULL},
};

static void gl_setup(study_env *env)
{
    if (!env->dev.fp64 && strcmp(study_param_value(env, "PRECISION"), "double") == 0) {
        study_set_param(env, "PRECISION", "single");
        study_note(env, "%s has no double precision: the ladder ran in single precision.",
                   env->dev.name);
    }
}

static void gl_summary(const study_table *t, const study_env *env, FILE *md)
{
    fputs("### GFLOP/s (2 n^3 / median kernel time)\n\n", md);
    study_md_pivot(md, t, "ladder", "gflops", "%.2f", "variant / peer", "n = %g");
    fputs("### Comparison with 003\n\n", md);
    fputs("003 climbs a CUDA DGEMM ladder on a Tesla K40c: one thread per element (gpu2) levels "
          "off at about 55 GFLOP/s, 2 and 4 outputs per thread reach about 100 and 108, shared-"
          "memory tiles (gpu5) about 200 GFLOP/s for n > 2000 (3.6x gpu2), and cuBLAS 540 "
          "GFLOP/s at n = 4096 (2.7x gpu5); CBLAS DGEMM on 4 cores gives about 22. ",
          md);
    double x = study_max_x(t, "ladder", "naive", "gflops");
    if (!isnan(x)) {
        double naive = value_at(t, "ladder", "naive", x, "gflops");
        const char *best = "naive", *best_peer = NULL;
        double bv = naive, pv = -1;
        for (size_t r = 0; r < t->nrows; ++r) {
            if (study_num(t, r, "x") != x) continue;
            const char *s = study_get(t, r, "series");
            double g = study_num(t, r, "gflops");
            if (!isfinite(g)) continue;
            int peer = tsl_peer_find(s) != NULL;
            if (!peer && g > bv) bv = g, best = s;
            if (peer && g > pv) pv = g, best_peer = s;
        }
        fprintf(md,
                "Here, at n = %g in %s precision, naive runs at %.3g GFLOP/s and the best tessel "
                "variant, %s, at %.3g (%.1fx naive). ",
                x, study_get(t, (size_t)study_find(t, "ladder", "naive", x), "precision"), naive,
                best, bv, bv / naive);
        if (best_peer)
            fprintf(md, "The fastest peer is %s at %.3g GFLOP/s, %.2fx the best tessel variant. ",
                    best_peer, pv, pv / bv);
    }
    for (size_t r = 0; r < t->nrows; ++r)
        if (strcmp(study_get(t, r, "status"), "skipped") == 0 && study_get(t, r, "note")[0] &&
            study_find(t, "ladder", study_get(t, r, "series"), NAN) == (long)r)
            fprintf(md, "%s was skipped: %s. ", study_get(t, r, "series"), study_get(t, r, "note"));
    cpu_caveat(md, env, "tessel's kernels and the peers share the host's cores and caches");
    fputs("\n\n", md);
}

/* ---- transpose (001) ------------------------------------------------------------------------ */

static const study_param tr_params[] = {
    {"POW2",
     STUDY_PARAM_SIZES,
     {"64,128", "256,512,1024,2048,4096", "1024,2048,4096,8192,16384"},
     "power-of-two matrix sizes n (n x n floats)"},
    {"OTHER",
     STUDY_PARAM_SIZES,
     {"96,160", "384,768,1536,3072", "1536,3072,6144,12288"},
     "sizes between them that are not powers of two"},
    {"REPS",
     STUDY_PARAM_SIZES,
     {"1,4", "1,2,5,10,20", "1,2,5,10,20,50,100,200"},
     "inner repetitions per launch (001's in-kernel loop)"},
    {"REPS_N", STUDY_PARAM_COUNT, {"128", "1024", "4096"}, "matrix size of the inner-reps sweep"},
    {"TILES", STUDY_PARAM_SIZES, {"4,8", "4,8,16,32", "4,8,16,32"}, "tile edges of the tile sweep"},
    {"TILE_N", STUDY_PARAM_COUNT, {"128", "1024", "4096"}, "matrix size of the tile sweep"},
    RUN_PARAMS,
};

static const study_run tr_runs[] = {
    {"pow2", "transpose", "--variant all --sizes $POW2 " RUNS, NULL, "m", NULL, NULL},
    {"other", "transpose", "--variant all --sizes $OTHER " RUNS, NULL, "m", NULL, NULL},
    {"inner_reps", "transpose", "--variant all --size $REPS_N --inner-reps $EACH " RUNS, "REPS",
     "$EACH", NULL, NULL},
    {"tile", "transpose", "--variant all --size $TILE_N --tile $EACH " RUNS, "TILES", "$EACH", NULL,
     NULL},
};

static const study_figure tr_figures[] = {
    {"size", "Transpose bandwidth against matrix size (001)",
     "Effective bandwidth (bytes read + written / kernel time) against n: solid lines power-of-"
     "two sizes, dashed lines the sizes between them.",
     STUDY_FIG_LINES, "pow2,other", "power-of-two n,other n", NULL, NULL, "gbps", NULL,
     "matrix size n (n x n floats)", "effective bandwidth (GB/s)", 2, -1, 0, NULL},
    {"inner-reps", "Bandwidth against in-kernel repetitions (001's loop)",
     "Each launch runs the kernel body R times; the copy row is one copy per launch (reference). "
     "Repetitions after the first re-read the work-group's own tile, from the cache, so a line "
     "above the copy row measures the cache, not DRAM.",
     STUDY_FIG_LINES, "inner_reps", NULL, NULL, NULL, "gbps", NULL,
     "inner repetitions per launch R", "effective bandwidth (GB/s)", 10, -1, 0, NULL},
    {"tile", "Bandwidth against tile edge",
     "Tile edge of the local-memory kernels (work-group tile x min(tile, rows)); naive and copy "
     "do not use local memory.",
     STUDY_FIG_LINES, "tile", NULL, NULL, NULL, "gbps", NULL, "tile edge (elements)",
     "effective bandwidth (GB/s)", 2, -1, 0, NULL},
};

static void tr_setup(study_env *env)
{
    keep_option_values(env, "transpose", "tile", "TILES", "tile");
}

/* Mean GB/s of series over the rows of sweep. */
static double mean_gbps(const study_table *t, const char *sweep, const char *series)
{
    size_t n;
    return mean_of(t, sweep, series, "gbps", &n);
}

static void tr_summary(const study_table *t, const study_env *env, FILE *md)
{
    fputs("### GB/s, power-of-two sizes\n\n", md);
    study_md_pivot(md, t, "pow2", "gbps", "%.2f", "variant", "n = %g");
    fputs("### GB/s, other sizes\n\n", md);
    study_md_pivot(md, t, "other", "gbps", "%.2f", "variant", "n = %g");
    fputs("### GB/s against inner repetitions\n\n", md);
    study_md_pivot(md, t, "inner_reps", "gbps", "%.2f", "variant", "R = %g");
    fputs("### GB/s against tile edge\n\n", md);
    study_md_pivot(md, t, "tile", "gbps", "%.2f", "variant", "tile %g");
    fputs("### Comparison with 001\n\n", md);
    fputs("001 finds, with 200 in-kernel repetitions, copy > diagonal > coalesced > naive in "
          "bandwidth, as in NVIDIA's CUDA sample; bandwidth that grows with the repetitions "
          "(they amortize the launch); and bandwidth that rises steadily with the work-group "
          "size up to its device's 4x4 limit. ",
          md);
    static const char *const names[] = {"copy", "naive", "coalesced", "nobank", "diagonal"};
    double rmax = study_max_x(t, "inner_reps", "naive", "gbps");
    if (!isnan(rmax)) {
        /* The order at the most repetitions, fastest first. */
        const char *order[5];
        double v[5];
        size_t n = 0;
        for (size_t i = 0; i < 5; ++i) {
            double g = value_at(t, "inner_reps", names[i], rmax, "gbps");
            if (!isfinite(g)) continue;
            size_t j = n++;
            while (j > 0 && v[j - 1] < g)
                v[j] = v[j - 1], order[j] = order[j - 1], --j;
            v[j] = g, order[j] = names[i];
        }
        fprintf(md,
                "Here, with R = %g repetitions at n = %s (the copy row copies once per "
                "launch): ",
                rmax, study_param_value(env, "REPS_N"));
        for (size_t i = 0; i < n; ++i)
            fprintf(md, "%s%s %.3g GB/s", i ? " > " : "", order[i], v[i]);
        fputs(". ", md);
        /* Above the copy row is not faster than memory: see the sentence it gets. */
        double copy = value_at(t, "inner_reps", "copy", rmax, "gbps");
        char above[128] = "";
        for (size_t i = 1; i < 5 && isfinite(copy); ++i) {
            double g = value_at(t, "inner_reps", names[i], rmax, "gbps");
            if (!isfinite(g) || g <= copy) continue;
            size_t used = strlen(above);
            snprintf(above + used, sizeof above - used, "%s%s", used ? " and " : "", names[i]);
        }
        if (above[0])
            fprintf(md,
                    "That %s pass the copy row does not mean they beat memory: inside the "
                    "kernel each work-group repeats its own tile R times, so from the second "
                    "repetition on it re-reads a tile it has just read, which the L2 cache (on "
                    "a CPU, the core's caches) serves, and rewrites the same lines of the "
                    "result, which the write-back cache absorbs; the bandwidth still counts "
                    "every repetition's bytes as moved, while the copy row moves its bytes once "
                    "per launch, through DRAM. At high R the figure measures the cache, not "
                    "the memory (%s x %s floats here). ",
                    above, study_param_value(env, "REPS_N"), study_param_value(env, "REPS_N"));
        double r1 = 1;
        fputs("From R = 1 to that R, bandwidth changes by ", md);
        for (size_t i = 1, k = 0; i < 5; ++i) {
            double a = value_at(t, "inner_reps", names[i], r1, "gbps");
            double b = value_at(t, "inner_reps", names[i], rmax, "gbps");
            if (!isfinite(a) || !isfinite(b)) continue;
            fprintf(md, "%s%.2fx (%s)", k++ ? ", " : "", b / a, names[i]);
        }
        fputs(". ", md);
    }
    int any = 0;
    for (size_t i = 1; i < 5; ++i) {
        double p = mean_gbps(t, "pow2", names[i]), o = mean_gbps(t, "other", names[i]);
        if (!isfinite(p) || !isfinite(o)) continue;
        fprintf(md, "%s%s %.2fx",
                any ? ", "
                    : "Mean bandwidth on power-of-two sizes over the "
                      "other sizes: ",
                names[i], p / o);
        any = 1;
    }
    if (any)
        fputs(" (below 1 would mean power-of-two sizes are slower: the partition camping 001 "
              "looks for). ",
              md);
    double tmax = study_max_x(t, "tile", "diagonal", "gbps");
    if (!isnan(tmax)) {
        fputs("Best tile edge: ", md);
        for (size_t i = 2, k = 0; i < 5; ++i) {
            double best = -1, bt = NAN;
            for (size_t r = 0; r < t->nrows; ++r)
                if (strcmp(study_get(t, r, "sweep"), "tile") == 0 &&
                    strcmp(study_get(t, r, "series"), names[i]) == 0 &&
                    study_num(t, r, "gbps") > best)
                    best = study_num(t, r, "gbps"), bt = study_num(t, r, "x");
            if (best > 0) fprintf(md, "%s%s %g", k++ ? ", " : "", names[i], bt);
        }
        fputs(". ", md);
    }
    cpu_caveat(md, env,
               "memory has no coalescing and no partition camping, and local memory is an "
               "extra copy through the cache");
    fputs("\n\n", md);
}

/* ---- optimizations (002) ------------------------------------------------------------------- */

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
     {"multithread,float2,float4,float8,float16,optimized",
      "multithread,float2,float4,float8,float16,optimized",
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
    keep_option_values(env, "pi", "local", "PI_LOCALS", "pi_local");
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
    cpu_caveat(md, env,
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
    cpu_caveat(md, env,
               "the OpenCL kernels run on the same cores as the sequential version, so a speedup "
               "is bounded by the core count times the vector width");
    fputs("\n\n", md);
    op_launch_summary(t, env, md);
}

/* ---- precision (004) ----------------------------------------------------------------------- */

static const study_param pr_params[] = {
    {"SIZES",
     STUDY_PARAM_SIZES,
     {"32,64", "64,128,256,512", "256,512,1024,2048,4096"},
     "n of the n x n x n products"},
    {"VARIANTS",
     STUDY_PARAM_NAMES,
     {"naive,tiled_4x4,tiled_8x8,tiled_16x16", "naive,tiled_4x4,tiled_8x8,tiled_16x16",
      "naive,tiled_4x4,tiled_8x8,tiled_16x16"},
     "global memory (naive) and local memory with work-groups 4x4, 8x8, 16x16"},
    /* VARIANTS without those that have no half storage (setup fills it in) */
    {"HALF_VARIANTS", STUDY_PARAM_INTERNAL, {"", "", ""}, NULL},
    RUN_PARAMS,
};

static const study_run pr_runs[] = {
    {"single", "gemm", "--variant $EACH --sizes $SIZES --precision single " RUNS, "VARIANTS", "n",
     "$EACH", NULL},
    {"double", "gemm", "--variant $EACH --sizes $SIZES --precision double " RUNS, "VARIANTS", "n",
     "$EACH", NULL},
    /* Half storage: the matrices are binary16 in memory (vload_half / vstore_half, core OpenCL,
     * so every device has it), the arithmetic float. */
    {"half", "gemm", "--variant $EACH --sizes $SIZES --precision half " RUNS, "HALF_VARIANTS", "n",
     "$EACH", NULL},
};

static const study_figure pr_figures[] = {
    {"gflops", "float, double and half storage per work-group (004's figures 7-12)",
     "GFLOP/s of the global-memory kernel and the local-memory kernels with 4x4, 8x8 and 16x16 "
     "work-groups: solid float, dashed double, dotted half storage (binary16 in memory, float "
     "arithmetic).",
     STUDY_FIG_LINES, "single,double,half", "float,double,half", NULL, NULL, "gflops", NULL,
     "matrix size n (n x n x n)", "GFLOP/s (2 n^3 / median kernel time)", 2, -1, 0, NULL},
    {"bandwidth", "Effective bandwidth, 004's formula Be = (Br + Bw) k / T",
     "Br = 2 n^3 elements read and Bw = n^2 written, as the global-memory algorithm loads them; "
     "k = 4 (float), 8 (double) or 2 (half storage) bytes.",
     STUDY_FIG_LINES, "single,double,half", "float,double,half", NULL, NULL, "eff_gbps", NULL,
     "matrix size n (n x n x n)", "effective bandwidth Be (GB/s, 1e9 bytes)", 2, -1, 0, NULL},
};

/* Bytes of an element of a row's precision column. */
static double pr_elem_bytes(const char *precision)
{
    return strcmp(precision, "double") == 0 ? 8 : strcmp(precision, "half") == 0 ? 2 : 4;
}

static void pr_setup(study_env *env)
{
    keep_runnable(env, "gemm", "VARIANTS", "single", "");
    /* The half run: VARIANTS less those without half storage (tiled2d, if given with --set),
     * each of which becomes a skipped row of the half sweep with the library's reason. */
    const char *list = study_param_value(env, "VARIANTS");
    char in[512], out[512] = "";
    snprintf(in, sizeof in, "%s", list ? list : "");
    for (char *v = strtok(in, ","); v; v = strtok(NULL, ",")) {
        tsl_status st =
            env->ctx ? tsl_variant_check_precision(env->ctx, "gemm", v, TSL_HALF, NULL) : TSL_OK;
        if (st == TSL_OK || st == TSL_ERR_INVALID_ARG) {
            size_t used = strlen(out);
            snprintf(out + used, sizeof out - used, "%s%s", used ? "," : "", v);
        } else {
            study_add_skipped(env, "half", "gemm", v, "half", tsl_context_error(env->ctx));
        }
    }
    study_set_param(env, "HALF_VARIANTS", out);
    if (!env->dev.fp64) {
        char reason[256];
        snprintf(reason, sizeof reason, "%s has no double precision (cl_khr_fp64)", env->dev.name);
        study_skip_run(env, 1, reason);
    }
}

static void pr_derive(study_table *t)
{
    for (size_t r = 0; r < t->nrows; ++r) {
        double m = study_num(t, r, "m"), n = study_num(t, r, "n"), k = study_num(t, r, "k");
        double es = pr_elem_bytes(study_get(t, r, "precision"));
        double ms = study_num(t, r, "kernel_ms");
        study_set_num(t, r, "eff_gbps", (2.0 * m * n * k + m * n) * es / (ms * 1e6));
    }
}

static void pr_summary(const study_table *t, const study_env *env, FILE *md)
{
    (void)env;
    fputs("### GFLOP/s, float\n\n", md);
    study_md_pivot(md, t, "single", "gflops", "%.2f", "variant", "n = %g");
    fputs("### GFLOP/s, double\n\n", md);
    study_md_pivot(md, t, "double", "gflops", "%.2f", "variant", "n = %g");
    fputs("### GFLOP/s, half storage (binary16 in memory, float arithmetic)\n\n", md);
    study_md_pivot(md, t, "half", "gflops", "%.2f", "variant", "n = %g");
    fputs("### Effective GB/s (004's Be), float\n\n", md);
    study_md_pivot(md, t, "single", "eff_gbps", "%.2f", "variant", "n = %g");
    fputs("### Effective GB/s (004's Be), half storage (k = 2 bytes)\n\n", md);
    study_md_pivot(md, t, "half", "eff_gbps", "%.2f", "variant", "n = %g");
    fputs("### Comparison with 004\n\n", md);
    fputs("004 (two Tesla C1060) finds the local-memory kernel ahead of the global-memory one "
          "at every work-group size, the 16x16 work-group (256 work-items) the best, float a "
          "little faster than double (\"la diferencia no es importante\"), and half unsupported "
          "by its devices. ",
          md);
    static const char *const prec[] = {"single", "double", "half"};
    static const char *const label[] = {"float", "double", "half storage"};
    static const char *const names[] = {"naive", "tiled_4x4", "tiled_8x8", "tiled_16x16"};
    double best_g[3] = {NAN, NAN, NAN};
    for (size_t p = 0; p < 3; ++p) {
        double x = study_max_x(t, prec[p], "naive", "gflops");
        if (isnan(x)) continue;
        const char *best = NULL;
        double bv = -1;
        for (size_t i = 1; i < 4; ++i) {
            double g = value_at(t, prec[p], names[i], x, "gflops");
            if (isfinite(g) && g > bv) bv = g, best = names[i];
        }
        double naive = value_at(t, prec[p], "naive", x, "gflops");
        best_g[p] = fmax(bv, naive);
        if (best)
            fprintf(md,
                    "Here, in %s at n = %g, the global-memory kernel runs at %.3g GFLOP/s and "
                    "the best local-memory work-group, %s, at %.3g (%.2fx). ",
                    label[p], x, naive, best, bv, bv / naive);
    }
    if (isfinite(best_g[0]) && isfinite(best_g[1]))
        fprintf(md, "Best float over best double: %.2fx. ", best_g[0] / best_g[1]);
    /* Half storage moves half of float's bytes for the same flops; whether that shows depends on
     * whether a kernel waits on memory or on the arithmetic and the conversions. */
    fputs("Half storage is measured here although 004's devices lacked it: tessel keeps the "
          "matrices in binary16 (vload_half / vstore_half, core OpenCL, so every device runs it) "
          "and computes in float, so it halves the bytes each kernel moves against float while "
          "the arithmetic stays float's, plus a conversion per element loaded and stored (its "
          "results carry half's rounding, a relative error near 2e-4). ",
          md);
    if (isfinite(best_g[0]) && isfinite(best_g[2]))
        fprintf(md,
                "Best half storage over best float: %.2fx: the saving pays where a kernel waits "
                "on memory, and the conversions cost where it waits on the arithmetic. ",
                best_g[2] / best_g[0]);
    cpu_caveat(md, env, "work-group size and local memory map onto loops over cached memory");
    fputs("\n\n", md);
}

/* ---- poisson (003) ------------------------------------------------------------------------- */

static const study_param po_params[] = {
    {"GRIDS",
     STUDY_PARAM_SIZES,
     {"33,65", "129,257,513,1025", "513,1025,2049,4097,8193"},
     "grid points per side, border included"},
    {"ITERS", STUDY_PARAM_COUNT, {"20", "200", "1000"}, "Jacobi sweeps per solve"},
    RUN_PARAMS,
};

static const study_run po_runs[] = {
    {"grid", "poisson", "--variant all --sizes $GRIDS --iters $ITERS --copy " RUNS, NULL, "n", NULL,
     NULL},
};

static const study_figure po_figures[] = {
    {"sweeps", "Jacobi sweeps per second against grid size (003, section 2.2)",
     "Sweeps / kernel time of a whole solve per variant, log-log.", STUDY_FIG_LINES, "grid", NULL,
     NULL, "copy", "sweeps_per_s", NULL, "grid points per side N (N x N grid)",
     "Jacobi sweeps per second", 2, -1, 0, NULL},
    {"bandwidth", "Jacobi effective bandwidth against the device's copy bandwidth",
     "Bytes a sweep must move (read the grid and f, write the interior) x sweeps / time; the "
     "copy row moves one sweep's bytes through a plain copy kernel.",
     STUDY_FIG_LINES, "grid", NULL, NULL, NULL, "gbps", NULL, "grid points per side N (N x N grid)",
     "effective bandwidth (GB/s)", 2, -1, 0, NULL},
};

static void po_derive(study_table *t)
{
    for (size_t r = 0; r < t->nrows; ++r)
        study_set_num(t, r, "sweeps_per_s",
                      study_num(t, r, "k") / (study_num(t, r, "kernel_ms") * 1e-3));
}

static void po_summary(const study_table *t, const study_env *env, FILE *md)
{
    fputs("### Sweeps per second\n\n", md);
    study_md_pivot(md, t, "grid", "sweeps_per_s", "%.4g", "variant", "N = %g");
    fputs("### Effective GB/s\n\n", md);
    study_md_pivot(md, t, "grid", "gbps", "%.2f", "variant", "N = %g");
    fputs("### Comparison with 003\n\n", md);
    fputs("003 calls the Jacobi solver memory bound (each point loads 5 values and does 6 flops "
          "per sweep), runs one thread per point, and proposes two improvements it does not "
          "measure: blocks in shared memory, and several sweeps per launch between "
          "synchronizations. ",
          md);
    double x = study_max_x(t, "grid", "naive", "sweeps_per_s");
    if (!isnan(x)) {
        double naive = value_at(t, "grid", "naive", x, "sweeps_per_s");
        double nb = value_at(t, "grid", "naive", x, "gbps");
        double copy = value_at(t, "grid", "copy", x, "gbps");
        fprintf(md, "Here, at N = %g, naive runs %.4g sweeps/s at %.3g GB/s", x, naive, nb);
        if (isfinite(copy))
            fprintf(md, ", %.0f %% of the copy kernel's %.3g GB/s", 100 * nb / copy, copy);
        fputs(". ", md);
        double local = value_at(t, "grid", "local", x, "sweeps_per_s");
        if (isfinite(local)) fprintf(md, "Shared (local) memory: %.2fx naive. ", local / naive);
        const char *best = NULL;
        double bv = -1;
        for (size_t r = 0; r < t->nrows; ++r)
            if (strncmp(study_get(t, r, "series"), "temporal_", 9) == 0 &&
                study_num(t, r, "x") == x && study_num(t, r, "sweeps_per_s") > bv)
                bv = study_num(t, r, "sweeps_per_s"), best = study_get(t, r, "series");
        if (best)
            fprintf(md, "Several sweeps per launch: the best, %s, %.2fx naive. ", best, bv / naive);
    }
    cpu_caveat(md, env, "the grid's working set can sit in the caches at small N");
    fputs("\n\n", md);
}

/* ---- opencl-vs-cuda (000, section XII) ------------------------------------------------------ */

static const study_param oc_params[] = {
    {"SIZES",
     STUDY_PARAM_SIZES,
     {"32,64", "128,256,512,1024", "256,512,1024,2048,4096"},
     "n of the n x n x n products"},
    {"CUDA_PEERS",
     STUDY_PARAM_INTERNAL,
     {"--peers cuda_naive,cuda_tiled", "--peers cuda_naive,cuda_tiled",
      "--peers cuda_naive,cuda_tiled"},
     NULL},
    RUN_PARAMS,
};

static const study_run oc_runs[] = {
    {"size", "gemm", "--variant naive --sizes $SIZES $CUDA_PEERS " RUNS, NULL, "n", NULL, NULL},
    {"size", "gemm", "--variant tiled_16x16 --sizes $SIZES " RUNS, NULL, "n", NULL, NULL},
};

static const study_figure oc_figures[] = {
    {"time", "OpenCL against CUDA C twins of the same kernels (000, section XII)",
     "Kernel time of the OpenCL naive and 16x16 tiled kernels and of their CUDA C twins on the "
     "same GPU, log-log.",
     STUDY_FIG_LINES, "size", NULL, "naive,cuda_naive,tiled_16x16,cuda_tiled", NULL, "kernel_ms",
     NULL, "matrix size n (n x n x n, single precision)", "kernel time (ms), median", 2, 10, 0,
     NULL},
    {"ratio", "CUDA against OpenCL per kernel: OpenCL time / CUDA time",
     "cuda_speedup = the OpenCL kernel's time / its CUDA twin's at each n: above 1 CUDA is "
     "faster, below 1 OpenCL; on the log-log time figure the lines of a pair can lie on top of "
     "each other.",
     STUDY_FIG_LINES, "size", NULL, "cuda_naive,cuda_tiled", NULL, "cuda_speedup", NULL,
     "matrix size n (n x n x n, single precision)",
     "OpenCL time / CUDA time (above 1: CUDA faster)", 2, 0, 0,
     "set yrange [0:1.5<*]\n"
     "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb "
     "\"#000000\"\n"
     "set label 2 \"1: the same time\" at graph 0.98, first 1 right offset 0,-1.6"},
};

static void oc_setup(study_env *env)
{
    if (tsl_peer_find("cuda_naive") && tsl_peer_find("cuda_tiled")) return;
    study_set_param(env, "CUDA_PEERS", "");
    const char *why = "this tessel has no CUDA C twins (the gemm peers cuda_naive and cuda_tiled "
                      "are built only where nvcc is found)";
    study_add_skipped(env, "size", "gemm", "cuda_naive", "single", why);
    study_add_skipped(env, "size", "gemm", "cuda_tiled", "single", why);
}

static void oc_derive(study_table *t)
{
    static const char *const twins[][2] = {{"cuda_naive", "naive"}, {"cuda_tiled", "tiled_16x16"}};
    for (size_t r = 0; r < t->nrows; ++r)
        for (size_t i = 0; i < 2; ++i)
            if (strcmp(study_get(t, r, "series"), twins[i][0]) == 0)
                study_set_num(t, r, "cuda_speedup",
                              value_at(t, "size", twins[i][1], study_num(t, r, "x"), "kernel_ms") /
                                  study_num(t, r, "kernel_ms"));
}

static void oc_summary(const study_table *t, const study_env *env, FILE *md)
{
    (void)env;
    fputs("### Kernel time (ms, median)\n\n", md);
    study_md_pivot(md, t, "size", "kernel_ms", "%.3f", "variant / twin", "n = %g");
    fputs("### Comparison with 000\n\n", md);
    fputs("000 (GeForce GTX 260) finds the CUDA version of the global-memory kernel faster than "
          "the OpenCL one as n grows, and the two shared-memory kernels essentially equal. ",
          md);
    int measured = 0;
    static const char *const twins[] = {"cuda_naive", "cuda_tiled"};
    for (size_t i = 0; i < 2; ++i) {
        double x = study_max_x(t, "size", twins[i], "cuda_speedup");
        if (isnan(x)) continue;
        measured = 1;
        fprintf(md, "Here at n = %g, %s is %.2fx as fast as its OpenCL twin. ", x, twins[i],
                value_at(t, "size", twins[i], x, "cuda_speedup"));
    }
    if (!measured) {
        long r = study_find(t, "size", "cuda_naive", NAN);
        fprintf(md,
                "The CUDA side was not measured here: %s. The OpenCL rows are measured all the "
                "same, as the half of the comparison this machine can give. ",
                r >= 0 && study_get(t, (size_t)r, "note")[0] ? study_get(t, (size_t)r, "note")
                                                             : "no CUDA rows");
    }
    fputs("\n\n", md);
}

/* ---- the table of studies ------------------------------------------------------------------ */

#define TABLES(p)                                                                                  \
    p##_params, COUNT(p##_params), p##_runs, COUNT(p##_runs), p##_figures, COUNT(p##_figures)

static const study_def studies[] = {
    {"memory-hierarchy", "000", "Memory hierarchy: global memory against local-memory tiles",
     "naive vs local-memory tiled GEMM over sizes (% reduction in time) and block sizes 2..32",
     "total_ms,reduction_pct,reduction_total_pct,speedup_vs_naive", TABLES(mh),
     "Each variant is one `tessel gemm` run over the sizes, on fresh random single-precision "
     "matrices. Time is the median kernel time from OpenCL profiling events; `total_ms` adds "
     "the upload of A and B and the read-back of C, which 000 included in its timing (its "
     "buffer allocation is not measured separately). `reduction_pct` = 100 (1 - t / t_naive) "
     "at the same n, and `speedup_vs_naive` = t_naive / t, the same comparison as a ratio (its "
     "figure has a log axis, where a 30x slowdown and a 1.2x speedup both stay readable).",
     mh_setup, mh_derive, mh_summary, 0},
    {"gemm-ladder", "003", "The GEMM ladder against OpenBLAS, CLBlast and cuBLAS",
     "every GEMM variant and the peers present, GFLOP/s against n (log-log)", "", TABLES(gl),
     "One `tessel gemm --variant all` run with the peers, on the same random matrices: every "
     "variant and peer of a size sees the same data. GFLOP/s = 2 n^3 / median kernel time (the "
     "peers' time as their own timers report it). A peer that is not available here (no "
     "CLBlast, no CUDA device) is a skipped row with the reason.",
     gl_setup, NULL, gl_summary, 0},
    {"transpose", "001", "Matrix transpose: copy, naive, coalesced, nobank, diagonal",
     "transpose bandwidth against size (2^k and other n), inner repetitions and tile edge", "",
     TABLES(tr),
     "`tessel transpose --variant all` per size list, per inner-repetition count and per tile "
     "edge. Bandwidth is effective: (bytes read + bytes written) x inner repetitions / median "
     "kernel time (004's Be), in GB/s of 1e9 bytes. The copy row moves the same bytes through "
     "a plain copy kernel once per launch: the device's attainable bandwidth.",
     tr_setup, NULL, tr_summary, 0},
    {"optimizations", "002", "Optimizations: original against optimized, over the sequential host",
     "Pi, N-body, K-means and GEMM: speedups over the host version and the time breakdown",
     "speedup,speedup_overall", TABLES(op),
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
     op_setup, op_derive, op_summary, 1},
    {"precision", "004", "Precision: float, double and half storage per work-group size",
     "float vs double vs half storage for work-groups 4x4, 8x8, 16x16, GFLOP/s and 004's GB/s",
     "eff_gbps", TABLES(pr),
     "`tessel gemm` per variant and precision: naive is the global-memory kernel, tiled_4x4, "
     "tiled_8x8 and tiled_16x16 the local-memory kernel with 4x4, 8x8 and 16x16 work-groups "
     "(004's three figures per precision). Half is half storage (`--precision half`): the "
     "matrices are IEEE binary16 in memory, read with vload_half and written with vstore_half, "
     "and every product and sum is float; its inputs are random floats rounded to half, "
     "verified against a double reference of those values. `eff_gbps` is 004's effective "
     "bandwidth Be = (Br + Bw) k / T with Br = 2 n^3 element reads and Bw = n^2 writes (what "
     "the global-memory algorithm loads), k the element size (4, 8, or 2 for half storage), T "
     "the median kernel time, in 1e9 bytes/s (004 divides by 1024^3); it is GFLOP/s x k plus "
     "the writes, so it ranks the variants as GFLOP/s does.",
     pr_setup, pr_derive, pr_summary, 0},
    {"poisson", "003", "Poisson: the Jacobi variants against grid size",
     "Jacobi variants against grid size: sweeps/s and GB/s beside the copy bandwidth",
     "sweeps_per_s", TABLES(po),
     "`tessel poisson --variant all --copy` over the grids, exactly --iters sweeps per solve "
     "(no tolerance), sine problem. Time is the median device time of a whole solve; "
     "sweeps_per_s = sweeps / time. GB/s counts per sweep one read of the grid and of f and one "
     "write of the interior; the temporal variants move less, so their figure is effective "
     "(proportional to sweeps/s) and may pass the copy row.",
     NULL, po_derive, po_summary, 0},
    {"opencl-vs-cuda", "000", "OpenCL against CUDA on the same GPU (000, section XII)",
     "CUDA C twins of the naive and tiled GEMM kernels against the OpenCL ones (needs nvcc and "
     "a CUDA device; skipped rows otherwise)",
     "cuda_speedup", TABLES(oc),
     "`tessel gemm` runs naive with the CUDA twins as peers (`--peers cuda_naive,cuda_tiled`), "
     "and tiled_16x16, on the same data. `cuda_speedup` = the OpenCL twin's kernel time / the "
     "CUDA kernel time (above 1: CUDA faster). Without the CUDA twins in this build, or without "
     "a CUDA device, the CUDA rows are skipped with the reason and the study still exits 0.",
     oc_setup, oc_derive, oc_summary, 0},
};

size_t study_count(void)
{
    return COUNT(studies);
}

const study_def *study_at(size_t i)
{
    return i < COUNT(studies) ? &studies[i] : NULL;
}

const study_def *study_find_def(const char *name)
{
    for (size_t i = 0; i < COUNT(studies); ++i)
        if (strcmp(studies[i].name, name) == 0) return &studies[i];
    return NULL;
}
