/* dist_weights.c: the weights the MPI layer splits rows by (dist_internal.h): given, compute
 * units x clock, or measured by every rank on its device at once (tsl__calibrate, as the group
 * does), turned into weights on rank 0 and sent to every rank, so that all split alike. */
#include "multi/dist_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tsl_status tsl_dist_set_weights(tsl_dist *d, tsl_weights how, const double *weights, size_t count)
{
    if (how == TSL_WEIGHTS_GIVEN) {
        double sum = 0;
        if (!weights || count != (size_t)d->size)
            return tsl__dist_fail(d, TSL_ERR_INVALID_ARG, "%zu weights for %d ranks", count,
                                  d->size);
        for (size_t i = 0; i < count; ++i) {
            if (!isfinite(weights[i]) || weights[i] < 0)
                return tsl__dist_fail(d, TSL_ERR_INVALID_ARG,
                                      "weight %zu = %g must be a number >= 0", i, weights[i]);
            sum += weights[i];
        }
        if (!(sum > 0))
            return tsl__dist_fail(d, TSL_ERR_INVALID_ARG, "the weights add up to %g", sum);
        for (size_t i = 0; i < count; ++i)
            d->given[i] = weights[i] / sum;
    }
    d->how = how;
    return TSL_OK;
}

/* Every rank measures its device at once; rank 0 turns the scores into weights and sends them,
 * so every rank splits alike. A rank whose calibration fails with an error says so instead of a
 * score, and rank 0 then splits by compute units x clock (every rank's device is known) with a
 * note naming the rank: the job goes on, and the call itself reports that rank's device if it
 * fails again. A rank that does not answer is a failure as everywhere else: it could not take
 * part in the call either. */
typedef struct {
    double score;
    int failed;
    char error[600];
} calibration_record;

static tsl_status calibrate(tsl_dist *d, const char *op, int dbl, double *w, char *note, size_t cap)
{
    calibration_record mine;
    memset(&mine, 0, sizeof mine);
    note[0] = '\0';
    tsl_status s = TSL_OK;
    if (d->rank == d->fault_target && d->fault_mode == 3) { /* the test hook */
        mine.failed = 1;
        snprintf(mine.error, sizeof mine.error,
                 "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5) (a fault injected by "
                 "TESSEL_FAULT_RANK=%d:calibrate)",
                 d->rank);
    } else if (tsl__calibrate(d->ctx, op, dbl, NULL, NULL, &mine.score) != TSL_OK) {
        mine.failed = 1;
        snprintf(mine.error, sizeof mine.error, "%s", tsl_context_error(d->ctx));
    }
    tsl__reqset rs = {0};
    if (d->rank == 0) {
        size_t P = (size_t)d->size;
        calibration_record *all = calloc(P, sizeof *all);
        if (!all) return tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank 0: out of host memory");
        all[0] = mine;
        for (int r = 1; s == TSL_OK && r < d->size; ++r)
            s = tsl__dist_post(d, &rs, 0, &all[r], sizeof *all, r, TAG_WEIGHT);
        if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the calibration");
        int failed = -1, nfailed = 0;
        for (int r = 0; s == TSL_OK && r < d->size; ++r)
            if (all[r].failed && nfailed++ == 0) failed = r;
        double sum = 0;
        for (int r = 0; s == TSL_OK && r < d->size; ++r) {
            double x = failed >= 0 ? tsl__compute_unit_weight(&d->infos[r]) : all[r].score;
            sum += w[r] = x > 0 && isfinite(x) ? x : 0.0;
        }
        for (int r = 0; s == TSL_OK && r < d->size; ++r)
            w[r] = sum > 0 ? w[r] / sum : 1.0 / d->size;
        if (s == TSL_OK && failed >= 0) {
            char who[300], more[64] = "";
            tsl__dist_label(d, failed, who, sizeof who);
            all[failed].error[sizeof all[failed].error - 1] = '\0';
            if (nfailed > 1) snprintf(more, sizeof more, ", and on %d more ranks", nfailed - 1);
            snprintf(note, cap,
                     "calibrating %s failed on %s: %s%s: the rows are split by compute units x "
                     "clock (--weights cu) instead",
                     op, who, all[failed].error, more);
        }
        free(all);
        for (int r = 1; s == TSL_OK && r < d->size; ++r)
            s = tsl__dist_post(d, &rs, 1, w, sizeof *w * (size_t)d->size, r, TAG_WEIGHT);
        if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the calibration (weights)");
        tsl__dist_rs_free(&rs);
        return s;
    }
    s = tsl__dist_exchange(d, "the calibration", 0, TAG_WEIGHT, &mine, sizeof mine, NULL, 0);
    if (s == TSL_OK)
        s = tsl__dist_exchange(d, "the calibration (weights)", 0, TAG_WEIGHT, NULL, 0, w,
                               sizeof *w * (size_t)d->size);
    return tsl__dist_settle(d, s);
}

tsl_status tsl__dist_weights(tsl_dist *d, const char *op, int dbl, double *w)
{
    size_t n = (size_t)d->size;
    d->warning[0] = '\0';
    if (d->how == TSL_WEIGHTS_GIVEN) {
        memcpy(w, d->given, n * sizeof *w);
        return TSL_OK;
    }
    if (d->how == TSL_WEIGHTS_COMPUTE_UNITS) {
        double sum = 0;
        for (size_t r = 0; r < n; ++r)
            sum += w[r] = tsl__compute_unit_weight(&d->infos[r]);
        for (size_t r = 0; r < n; ++r)
            w[r] /= sum;
        return TSL_OK;
    }
    for (int c = 0; c < d->ncalibrated; ++c)
        if (strcmp(d->calibrated[c].op, op) == 0 && d->calibrated[c].dbl == dbl) {
            memcpy(w, d->calibrated[c].w, n * sizeof *w);
            snprintf(d->warning, sizeof d->warning, "%s", d->calibrated[c].note);
            return TSL_OK;
        }
    tsl_status s = calibrate(d, op, dbl, w, d->warning, sizeof d->warning);
    if (s != TSL_OK) return s;
    if (d->ncalibrated < MAX_CALIBRATIONS) {
        int c = d->ncalibrated;
        d->calibrated[c].w = malloc(n * sizeof *w);
        if (d->calibrated[c].w) {
            snprintf(d->calibrated[c].op, sizeof d->calibrated[c].op, "%s", op);
            d->calibrated[c].dbl = dbl;
            memcpy(d->calibrated[c].w, w, n * sizeof *w);
            snprintf(d->calibrated[c].note, sizeof d->calibrated[c].note, "%s", d->warning);
            d->ncalibrated++;
        }
    }
    return TSL_OK;
}

tsl_status tsl_dist_weights(tsl_dist *d, const char *op, int is_double, double *weights,
                            size_t count)
{
    if (count != (size_t)d->size)
        return tsl__dist_fail(d, TSL_ERR_INVALID_ARG, "%zu weights for %d ranks", count, d->size);
    return tsl__dist_weights(d, op, is_double != 0, weights);
}

tsl_status tsl_dist_timing(const tsl_dist *d, tsl_group_times *times, tsl_group_part *parts,
                           size_t cap)
{
    if (times) *times = d->times;
    for (size_t i = 0; i < cap && i < (size_t)d->size; ++i)
        parts[i] = d->parts[i];
    return TSL_OK;
}
