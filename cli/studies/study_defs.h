/* study_defs.h: what the study definitions (cli/studies/study_*.c, one file per study) share:
 * the parameters every study has (REPEAT, WARMUP), the macros that fill a study_def from its
 * tables, the helpers their hooks use (hooks.c), and the definitions themselves, which studies.c
 * lists. */
#ifndef TESSEL_STUDY_DEFS_H
#define TESSEL_STUDY_DEFS_H

#include <stddef.h>
#include <stdio.h>

#include "study.h"

/* Runs and warmups of every study, per mode. */
#define RUN_PARAMS                                                                                 \
    {"REPEAT", STUDY_PARAM_COUNT, {"1", "3", "10"}, "timed runs per row, the median is reported"}, \
    {                                                                                              \
        "WARMUP", STUDY_PARAM_UINT, {"0", "1", "2"}, "untimed runs before the timed ones"          \
    }
#define RUNS "--repeat $REPEAT --warmup $WARMUP"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A study_def's params, runs and figures from its tables p##_params, p##_runs, p##_figures. */
#define TABLES(p)                                                                                  \
    p##_params, COUNT(p##_params), p##_runs, COUNT(p##_runs), p##_figures, COUNT(p##_figures)

/* ---- helpers for the hooks (hooks.c) -------------------------------------------------------- */

/* The value of col in the row of (sweep, series, x); NaN when absent. */
double study_value_at(const study_table *t, const char *sweep, const char *series, double x,
                      const char *col);
/* Keeps in the comma-list parameter `param` only the variants of op that the device runs
 * (tsl_variant_check); each one dropped becomes a skipped row of sweep with the reason. */
void study_keep_runnable(study_env *env, const char *op, const char *param, const char *sweep,
                         const char *precision);
/* Keeps in `param` only the values the device accepts for the op's option `option`. */
void study_keep_option_values(study_env *env, const char *op, const char *option, const char *param,
                              const char *sweep);
/* A sentence for CPU devices, where the documents' GPU claims are not expected to carry over. */
void study_cpu_caveat(FILE *md, const study_env *env, const char *what);
/* Mean of col over the rows of (sweep, series) with a finite value; *n gets the count. */
double study_mean_of(const study_table *t, const char *sweep, const char *series, const char *col,
                     size_t *n);

/* ---- the studies, in the order --list shows them ------------------------------------------- */

extern const study_def study_memory_hierarchy;
extern const study_def study_gemm_ladder;
extern const study_def study_transpose;
extern const study_def study_optimizations;
extern const study_def study_precision;
extern const study_def study_poisson;
extern const study_def study_opencl_vs_cuda;

#endif
