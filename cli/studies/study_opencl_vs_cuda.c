/* study_opencl_vs_cuda.c: the opencl-vs-cuda study (source document 000, section XII): the CUDA C
 * twins of the naive and tiled GEMM kernels against the OpenCL ones on the same GPU and data;
 * without nvcc in the build or a CUDA device their rows are skipped with the reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"
#include "study.h"
#include "study_defs.h"

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
                study_set_num(
                    t, r, "cuda_speedup",
                    study_value_at(t, "size", twins[i][1], study_num(t, r, "x"), "kernel_ms") /
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
                study_value_at(t, "size", twins[i], x, "cuda_speedup"));
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

const study_def study_opencl_vs_cuda = {
    "opencl-vs-cuda",
    "000",
    "OpenCL against CUDA on the same GPU (000, section XII)",
    "CUDA C twins of the naive and tiled GEMM kernels against the OpenCL ones (needs nvcc and "
    "a CUDA device; skipped rows otherwise)",
    "cuda_speedup",
    TABLES(oc),
    "`tessel gemm` runs naive with the CUDA twins as peers (`--peers cuda_naive,cuda_tiled`), "
    "and tiled_16x16, on the same data. `cuda_speedup` = the OpenCL twin's kernel time / the "
    "CUDA kernel time (above 1: CUDA faster). Without the CUDA twins in this build, or without "
    "a CUDA device, the CUDA rows are skipped with the reason and the study still exits 0.",
    oc_setup,
    oc_derive,
    oc_summary,
    0};
