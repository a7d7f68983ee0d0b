/* study_gemm_ladder.c: the gemm-ladder study (source document 003): every GEMM variant and the
 * peers present (OpenBLAS, CLBlast, cuBLAS) on the same data, GFLOP/s against n, beside 003's
 * CUDA DGEMM ladder on a K40c; double precision unless the device has none. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"
#include "study.h"
#include "study_defs.h"

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
        double naive = study_value_at(t, "ladder", "naive", x, "gflops");
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
    study_cpu_caveat(md, env, "tessel's kernels and the peers share the host's cores and caches");
    fputs("\n\n", md);
}

const study_def study_gemm_ladder = {
    "gemm-ladder",
    "003",
    "The GEMM ladder against OpenBLAS, CLBlast and cuBLAS",
    "every GEMM variant and the peers present, GFLOP/s against n (log-log)",
    "",
    TABLES(gl),
    "One `tessel gemm --variant all` run with the peers, on the same random matrices: every "
    "variant and peer of a size sees the same data. GFLOP/s = 2 n^3 / median kernel time (the "
    "peers' time as their own timers report it). A peer that is not available here (no "
    "CLBlast, no CUDA device) is a skipped row with the reason.",
    gl_setup,
    NULL,
    gl_summary,
    0};
