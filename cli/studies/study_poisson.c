/* study_poisson.c: the poisson study (source document 003): the Jacobi variants over grid sizes,
 * sweeps per second and effective GB/s beside the copy kernel's bandwidth in the same run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"
#include "study_defs.h"

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
        double naive = study_value_at(t, "grid", "naive", x, "sweeps_per_s");
        double nb = study_value_at(t, "grid", "naive", x, "gbps");
        double copy = study_value_at(t, "grid", "copy", x, "gbps");
        fprintf(md, "Here, at N = %g, naive runs %.4g sweeps/s at %.3g GB/s", x, naive, nb);
        if (isfinite(copy))
            fprintf(md, ", %.0f %% of the copy kernel's %.3g GB/s", 100 * nb / copy, copy);
        fputs(". ", md);
        double local = study_value_at(t, "grid", "local", x, "sweeps_per_s");
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
    study_cpu_caveat(md, env, "the grid's working set can sit in the caches at small N");
    fputs("\n\n", md);
}

const study_def study_poisson = {
    "poisson",
    "003",
    "Poisson: the Jacobi variants against grid size",
    "Jacobi variants against grid size: sweeps/s and GB/s beside the copy bandwidth",
    "sweeps_per_s",
    TABLES(po),
    "`tessel poisson --variant all --copy` over the grids, exactly --iters sweeps per solve "
    "(no tolerance), sine problem. Time is the median device time of a whole solve; "
    "sweeps_per_s = sweeps / time. GB/s counts per sweep one read of the grid and of f and one "
    "write of the interior; the temporal variants move less, so their figure is effective "
    "(proportional to sweeps/s) and may pass the copy row.",
    NULL,
    po_derive,
    po_summary,
    0};
