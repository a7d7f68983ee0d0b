/* hooks.c: the helpers the studies' hooks share (study_defs.h): values and means read from the
 * table, parameters cut to what the device runs, and the caveat for CPU devices. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study.h"
#include "study_defs.h"

/* The value of col in the row of (sweep, series, x); NaN when absent. */
double study_value_at(const study_table *t, const char *sweep, const char *series, double x,
                      const char *col)
{
    long r = study_find(t, sweep, series, x);
    return r < 0 ? NAN : study_num(t, (size_t)r, col);
}

/* Keeps in the comma-list parameter `param` only the variants of op that the device runs
 * (tsl_variant_check); each one dropped becomes a skipped row of sweep with the reason. */
void study_keep_runnable(study_env *env, const char *op, const char *param, const char *sweep,
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
void study_keep_option_values(study_env *env, const char *op, const char *option, const char *param,
                              const char *sweep)
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
void study_cpu_caveat(FILE *md, const study_env *env, const char *what)
{
    if (is_cpu(env))
        fprintf(md,
                "This run is on a CPU device (%s), where %s; the document's GPU figures are a "
                "reference for the shape of the result, not a target. ",
                env->dev.name, what);
}

/* Mean of col over the rows of (sweep, series) with a finite value; *n gets the count. */
double study_mean_of(const study_table *t, const char *sweep, const char *series, const char *col,
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
