/* study_memory_hierarchy.c: the memory-hierarchy study (source document 000): the global-memory
 * GEMM kernel (naive) against the local-memory tiled kernels over matrix sizes and block sizes
 * 2..32. It derives each variant's reduction in time against naive (kernel time, and with the
 * transfers counted as 000 timed them) and the speedup, and sets the result beside 000's ~90 %
 * reduction for 16x16 tiles and its 2x2 blocks that ran slower than global memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"
#include "study_defs.h"

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
    study_keep_runnable(env, "gemm", "VARIANTS", "size", "single");
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
    double mean = study_mean_of(t, "size", "tiled_16x16", "reduction_pct", &n);
    double mean_total = study_mean_of(t, "size", "tiled_16x16", "reduction_total_pct", &nt);
    double xmax = study_max_x(t, "size", "tiled_2x2", "reduction_pct");
    if (n)
        fprintf(md,
                "Here the reduction of tiled_16x16 averages %.1f %% over %zu sizes (%.1f %% "
                "with the upload of A and B and the read-back of C counted, as 000 timed it)%s. ",
                mean, n, mean_total, mean < 0 ? "; below 0 means slower than naive" : "");
    if (!isnan(xmax)) {
        double r2 = study_value_at(t, "size", "tiled_2x2", xmax, "kernel_ms") /
                    study_value_at(t, "size", "naive", xmax, "kernel_ms");
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
    study_cpu_caveat(md, env,
                     "OpenCL local memory is ordinary cached memory and the work-group barrier "
                     "has a cost, so tiles need not save anything");
    fputs("\n\n", md);
}

const study_def study_memory_hierarchy = {
    "memory-hierarchy",
    "000",
    "Memory hierarchy: global memory against local-memory tiles",
    "naive vs local-memory tiled GEMM over sizes (% reduction in time) and block sizes 2..32",
    "total_ms,reduction_pct,reduction_total_pct,speedup_vs_naive",
    TABLES(mh),
    "Each variant is one `tessel gemm` run over the sizes, on fresh random single-precision "
    "matrices. Time is the median kernel time from OpenCL profiling events; `total_ms` adds "
    "the upload of A and B and the read-back of C, which 000 included in its timing (its "
    "buffer allocation is not measured separately). `reduction_pct` = 100 (1 - t / t_naive) "
    "at the same n, and `speedup_vs_naive` = t_naive / t, the same comparison as a ratio (its "
    "figure has a log axis, where a 30x slowdown and a 1.2x speedup both stay readable).",
    mh_setup,
    mh_derive,
    mh_summary,
    0};
