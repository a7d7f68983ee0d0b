/* group_calibrate.c: the weights a group splits rows by (group_internal.h, docs/multi-device.md).
 * The default rule measures each device's throughput on the operation itself (tsl__calibrate,
 * which the MPI layer uses for its ranks too) on every device at once, once per operation and
 * precision; a calibration that fails on a device, or does not finish within the timeout, falls
 * back to compute units x clock with a note, when every device came back from it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi/group_internal.h"
#include "ops/ops.h"

tsl_status tsl__calibrate(tsl_context *ctx, const char *op, int dbl, int (*stop)(void *),
                          void *stop_arg, double *score)
{
    int gpu = strcmp(ctx->info.type, "gpu") == 0;
    size_t es = dbl ? sizeof(double) : sizeof(float);
    unsigned long long state = 0x2545F4914F6CDD1Dull;
    tsl_status s = TSL_OK;
    if (strcmp(op, "gemm") == 0) {
        size_t n = gpu ? 2048 : 512, count = n * n;
        char *a = tsl__malloc(count * es), *b = tsl__malloc(count * es);
        char *c = tsl__malloc(count * es);
        if (!a || !b || !c)
            s = tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "calibration: out of host memory");
        for (size_t i = 0; s == TSL_OK && i < 2 * count; ++i) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            double v = (double)(state >> 11) / 9007199254740992.0 - 0.5;
            char *dst = i < count ? a : b;
            size_t j = i % count;
            if (dbl)
                ((double *)dst)[j] = v;
            else
                ((float *)dst)[j] = (float)v;
        }
        double best = INFINITY;
        for (int run = 0; s == TSL_OK && run < 4; ++run) {
            if (stop && stop(stop_arg)) {
                s = tsl__fail(ctx, TSL_ERR_OPENCL, "calibration: stopped");
                break;
            }
            s = dbl ? tsl_dgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, n, n, n, 1.0,
                                (double *)a, n, (double *)b, n, 0.0, (double *)c, n)
                    : tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, n, n, n, 1.0f,
                                (float *)a, n, (float *)b, n, 0.0f, (float *)c, n);
            if (s == TSL_OK && run > 0 && ctx->timing.kernel_ms < best)
                best = ctx->timing.kernel_ms;
        }
        if (s == TSL_OK) *score = best > 0 ? 2.0 * (double)n * n * n / (best * 1e6) : 1.0;
        tsl__free(a), tsl__free(b), tsl__free(c);
        return s;
    }
    if (strcmp(op, "poisson") == 0) {
        size_t n = gpu ? 2049 : 257, count = n * n;
        const int sweeps = 20;
        char *f = tsl__malloc(count * es), *u = tsl__calloc(count, es);
        if (!f || !u) s = tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "calibration: out of host memory");
        for (size_t i = 0; s == TSL_OK && i < count; ++i) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            double v = (double)(state >> 11) / 9007199254740992.0;
            if (dbl)
                ((double *)f)[i] = v;
            else
                ((float *)f)[i] = (float)v;
        }
        double best = INFINITY;
        tsl_poisson_info info;
        for (int run = 0; s == TSL_OK && run < 2; ++run) {
            if (stop && stop(stop_arg)) {
                s = tsl__fail(ctx, TSL_ERR_OPENCL, "calibration: stopped");
                break;
            }
            s = dbl ? tsl_dpoisson(ctx, n, (double *)f, (double *)u, sweeps, 0.0, &info)
                    : tsl_spoisson(ctx, n, (float *)f, (float *)u, sweeps, 0.0, &info);
            if (s == TSL_OK && run > 0 && info.kernel_ms < best) best = info.kernel_ms;
        }
        if (s == TSL_OK)
            *score = best > 0 ? (double)(n - 2) * (n - 2) * sweeps / (best * 1e3) : 1.0;
        tsl__free(f), tsl__free(u);
        return s;
    }
    return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "calibration: unknown op '%s' (gemm, poisson)", op);
}

/* The run's own copy: a worker that outlives the call writes its score here, never into the
 * caller's frame. */
typedef struct {
    char op[16];
    int dbl;
    double score[GROUP_MAX];
} calibration_job;

/* A calibration stops between its runs once the call is aborted (a device failed or timed
 * out), so its worker comes back and the group stays usable for the fallback weights. */
static int calibration_stopped(void *arg)
{
    return tsl__run_stopped(arg);
}

static tsl_status calibrate_worker(tsl__run *r, size_t i)
{
    calibration_job *j = tsl__run_job(r);
    tsl_status s = tsl__run_fault_point(r, i, 1);
    if (s != TSL_OK) return s;
    return tsl__calibrate(tsl__run_ctx(r, i), j->op, j->dbl, calibration_stopped, r, &j->score[i]);
}

/* 004's split: compute units x clock, normalized. */
static void compute_unit_weights(const tsl_group *g, double *w)
{
    double sum = 0;
    for (size_t i = 0; i < g->count; ++i)
        sum += w[i] = tsl__compute_unit_weight(&g->dev[i]->info);
    for (size_t i = 0; i < g->count; ++i)
        w[i] /= sum;
}

/* Keeps the weights of op at this precision for the group's later calls (the last slot is
 * overwritten once all are used). */
static void remember_weights(tsl_group *g, const char *op, int dbl, const double *w,
                             const char *note)
{
    int c = g->ncalibrated < MAX_CALIBRATIONS ? g->ncalibrated++ : MAX_CALIBRATIONS - 1;
    snprintf(g->calibrated[c].op, sizeof g->calibrated[c].op, "%s", op);
    g->calibrated[c].dbl = dbl;
    memcpy(g->calibrated[c].w, w, g->count * sizeof *w);
    snprintf(g->calibrated[c].note, sizeof g->calibrated[c].note, "%s", note);
}

/* The normalized weights of op at this precision under the group's rule. Calibration that fails
 * (an error on a device, or a device that did not finish it within the timeout) falls back to
 * compute-unit weights, with a note in g->warning, when every device came back from it: the
 * group is intact, and the call itself then runs (or reports its own failure, naming the
 * device). A device still out (its worker left running) keeps the group busy: that is an
 * error. */
tsl_status tsl__group_weights(tsl_group *g, const char *op, int dbl, double *w)
{
    g->warning[0] = '\0';
    if (g->how == TSL_WEIGHTS_GIVEN) {
        memcpy(w, g->given, g->count * sizeof *w);
        return TSL_OK;
    }
    if (g->how == TSL_WEIGHTS_COMPUTE_UNITS) {
        compute_unit_weights(g, w);
        return TSL_OK;
    }
    for (int c = 0; c < g->ncalibrated; ++c)
        if (strcmp(g->calibrated[c].op, op) == 0 && g->calibrated[c].dbl == dbl) {
            memcpy(w, g->calibrated[c].w, g->count * sizeof *w);
            snprintf(g->warning, sizeof g->warning, "%s", g->calibrated[c].note);
            return TSL_OK;
        }
    calibration_job job;
    memset(&job, 0, sizeof job);
    snprintf(job.op, sizeof job.op, "%s", op);
    job.dbl = dbl;
    int member[GROUP_MAX];
    for (size_t i = 0; i < g->count; ++i)
        member[i] = 1;
    tsl__run *r = tsl__run_new(g, calibrate_worker, &job, sizeof job, NULL, member);
    if (!r) return tsl__group_fail(g, TSL_ERR_OUT_OF_MEMORY, "out of host memory for the workers");
    tsl_status s = tsl__run_go(g, r);
    if (s == TSL_OK) job = *(calibration_job *)tsl__run_job(r);
    tsl__run_end(g, r);
    if (s != TSL_OK) {
        char msg[sizeof g->error];
        snprintf(msg, sizeof msg, "%s", g->error);
        if (tsl__group_busy(g)) return tsl__group_fail(g, s, "calibrating %s: %.2000s", op, msg);
        compute_unit_weights(g, w);
        char note[sizeof g->calibrated[0].note];
        snprintf(note, sizeof note,
                 "calibrating %s failed (%.700s): the rows are split by compute units x clock "
                 "(--weights cu) instead",
                 op, msg);
        g->error[0] = '\0';
        remember_weights(g, op, dbl, w, note);
        snprintf(g->warning, sizeof g->warning, "%s", note);
        return TSL_OK;
    }
    double sum = 0;
    for (size_t i = 0; i < g->count; ++i)
        sum += w[i] = job.score[i] > 0 && isfinite(job.score[i]) ? job.score[i] : 0.0;
    if (!(sum > 0))
        for (size_t i = 0; i < g->count; ++i)
            sum += w[i] = 1.0;
    for (size_t i = 0; i < g->count; ++i)
        w[i] /= sum;
    remember_weights(g, op, dbl, w, "");
    return TSL_OK;
}

tsl_status tsl_group_weights(tsl_group *g, const char *op, int is_double, double *weights,
                             size_t count)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_weights: g is NULL");
    g->error[0] = '\0';
    if (!op || (strcmp(op, "gemm") != 0 && strcmp(op, "poisson") != 0))
        return tsl__group_fail(
            g, TSL_ERR_INVALID_ARG,
            "tsl_group_weights: op '%s' is not one a group splits (gemm, poisson)",
            op ? op : "(NULL)");
    if (!weights || count != g->count)
        return tsl__group_fail(
            g, TSL_ERR_INVALID_ARG,
            "tsl_group_weights: weights must have room for %zu values (count %zu)", g->count,
            count);
    if (tsl__group_busy(g))
        return tsl__group_fail(g, TSL_ERR_OPENCL,
                               "tsl_group_weights: the group is busy: a device has not come back "
                               "from an earlier call that timed out; try again later, or destroy "
                               "the group");
    return tsl__group_weights(g, op, is_double != 0, weights);
}
