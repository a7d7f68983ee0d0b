/* study_transpose.c: the transpose study (source document 001): the transpose variants and a copy
 * kernel over power-of-two and other sizes, over in-kernel repetitions and over tile edges, in
 * effective GB/s; the summary checks 001's ordering of the variants, its bandwidth that grows with
 * the repetitions, and the partition camping it looked for on power-of-two sizes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"
#include "study_defs.h"

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
    study_keep_option_values(env, "transpose", "tile", "TILES", "tile");
}

/* Mean GB/s of series over the rows of sweep. */
static double mean_gbps(const study_table *t, const char *sweep, const char *series)
{
    size_t n;
    return study_mean_of(t, sweep, series, "gbps", &n);
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
            double g = study_value_at(t, "inner_reps", names[i], rmax, "gbps");
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
        double copy = study_value_at(t, "inner_reps", "copy", rmax, "gbps");
        char above[128] = "";
        for (size_t i = 1; i < 5 && isfinite(copy); ++i) {
            double g = study_value_at(t, "inner_reps", names[i], rmax, "gbps");
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
            double a = study_value_at(t, "inner_reps", names[i], r1, "gbps");
            double b = study_value_at(t, "inner_reps", names[i], rmax, "gbps");
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
    study_cpu_caveat(md, env,
                     "memory has no coalescing and no partition camping, and local memory is an "
                     "extra copy through the cache");
    fputs("\n\n", md);
}

const study_def study_transpose = {
    "transpose",
    "001",
    "Matrix transpose: copy, naive, coalesced, nobank, diagonal",
    "transpose bandwidth against size (2^k and other n), inner repetitions and tile edge",
    "",
    TABLES(tr),
    "`tessel transpose --variant all` per size list, per inner-repetition count and per tile "
    "edge. Bandwidth is effective: (bytes read + bytes written) x inner repetitions / median "
    "kernel time (004's Be), in GB/s of 1e9 bytes. The copy row moves the same bytes through "
    "a plain copy kernel once per launch: the device's attainable bandwidth.",
    tr_setup,
    NULL,
    tr_summary,
    0};
