/* study_precision.c: the precision study (source document 004): float, double and half storage
 * for the naive and the local-memory GEMM kernels at work-groups 4x4, 8x8 and 16x16, in GFLOP/s
 * and 004's effective bandwidth Be; a precision the device lacks (fp64) or a variant without half
 * storage becomes skipped rows with the library's reason. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"
#include "study_defs.h"

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
    study_keep_runnable(env, "gemm", "VARIANTS", "single", "");
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
            double g = study_value_at(t, prec[p], names[i], x, "gflops");
            if (isfinite(g) && g > bv) bv = g, best = names[i];
        }
        double naive = study_value_at(t, prec[p], "naive", x, "gflops");
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
    study_cpu_caveat(md, env, "work-group size and local memory map onto loops over cached memory");
    fputs("\n\n", md);
}

const study_def study_precision = {
    "precision",
    "004",
    "Precision: float, double and half storage per work-group size",
    "float vs double vs half storage for work-groups 4x4, 8x8, 16x16, GFLOP/s and 004's GB/s",
    "eff_gbps",
    TABLES(pr),
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
    pr_setup,
    pr_derive,
    pr_summary,
    0};
