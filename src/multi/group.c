/* group.c: several devices of one host driven as one (tsl_group_*, docs/multi-device.md): the
 * group's life (create, destroy, the settings and what the last call did); the pieces that the
 * group and the MPI layer share are multi/group_common.c. The group owns one context per device; a
 * call runs one host thread per device that takes part (multi/group_run.c), so each device's
 * uploads, kernels and downloads run while the others' do. GEMM gives each device a block of rows
 * of C and op(A) and all of B, and runs the host-memory GEMM pipeline on it (multi/group_gemm.c,
 * pipeline/gemm_pipeline.c); Poisson gives each device a row strip with halo rows
 * (multi/group_poisson.c). Rows are split by weights: measured (a short calibration run per device,
 * multi/group_calibrate.c), compute units x clock (004), or given. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi/group_internal.h"
#include "ops/ops.h"

/* ---- create and destroy -------------------------------------------------------------------- */

tsl_status tsl_group_create(const char *devices, tsl_group **out)
{
    if (!out) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_create: out is NULL");
    *out = NULL;
    tsl_group *g = tsl__calloc(1, sizeof *g);
    if (!g) return tsl__fail(NULL, TSL_ERR_OUT_OF_MEMORY, "tsl_group_create: out of host memory");
    g->timeout_s = tsl__default_timeout();
    g->how = TSL_WEIGHTS_CALIBRATE;
    char specs[GROUP_MAX][128];
    size_t nspecs = 0;
    tsl_status s = TSL_OK;
    if (!devices || !*devices || strcmp(devices, "all") == 0) {
        tsl_device_info list[GROUP_MAX];
        size_t found = 0;
        if ((s = tsl_devices(list, GROUP_MAX, &found)) != TSL_OK) goto fail;
        if (found == 0) {
            s = tsl__fail(NULL, TSL_ERR_NO_DEVICE,
                          "tsl_group_create: no OpenCL device found: install an OpenCL driver "
                          "(pocl-opencl-icd for the CPU)");
            goto fail;
        }
        if (found > GROUP_MAX) found = GROUP_MAX;
        for (size_t i = 0; i < found; ++i)
            snprintf(specs[nspecs++], sizeof specs[0], "%d:%d", list[i].platform_index,
                     list[i].device_index);
    } else if (strncmp(devices, "all:", 4) == 0) { /* every device one spec matches */
        tsl_device_info list[GROUP_MAX];
        int found = devices[4] ? tsl__matching_devices(devices + 4, list, GROUP_MAX) : 0;
        if (found == 0) {
            s = tsl__fail(NULL, TSL_ERR_NO_DEVICE,
                          "tsl_group_create: no device matches '%s' (devices: see `tessel "
                          "devices`)",
                          devices + 4);
            goto fail;
        }
        if (found > GROUP_MAX) found = GROUP_MAX;
        for (int i = 0; i < found; ++i)
            snprintf(specs[nspecs++], sizeof specs[0], "%d:%d", list[i].platform_index,
                     list[i].device_index);
    } else {
        const char *p = devices;
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            while (len && (*p == ' '))
                ++p, --len;
            while (len && p[len - 1] == ' ')
                --len;
            if (len == 0 || len >= sizeof specs[0]) {
                s = tsl__fail(NULL, TSL_ERR_INVALID_ARG,
                              "tsl_group_create: device list '%s' has an %s entry (give \"all\" or "
                              "specs like 0:0,0:1)",
                              devices, len ? "overlong" : "empty");
                goto fail;
            }
            if (nspecs == GROUP_MAX) {
                s = tsl__fail(NULL, TSL_ERR_INVALID_ARG,
                              "tsl_group_create: device list '%s' names more than %d devices",
                              devices, GROUP_MAX);
                goto fail;
            }
            memcpy(specs[nspecs], p, len);
            specs[nspecs++][len] = '\0';
            if (!comma) break;
            p = comma + 1;
        }
    }
    for (size_t i = 0; i < nspecs; ++i) {
        tsl__gdev *d = tsl__calloc(1, sizeof *d);
        if (!d) {
            s = tsl__fail(NULL, TSL_ERR_OUT_OF_MEMORY, "tsl_group_create: out of host memory");
            goto fail;
        }
        d->refs = 1; /* the group's */
        g->dev[i] = d;
        g->count = i + 1;
        if ((s = tsl_context_create(specs[i], &d->ctx)) != TSL_OK) goto fail;
        tsl_context_device(d->ctx, &d->info);
        for (size_t j = 0; j < i; ++j)
            if (g->dev[j]->info.platform_index == d->info.platform_index &&
                g->dev[j]->info.device_index == d->info.device_index) {
                s = tsl__fail(NULL, TSL_ERR_INVALID_ARG,
                              "tsl_group_create: device %d:%d (%s) is in the list twice ('%s' and "
                              "'%s'); name each device once",
                              d->info.platform_index, d->info.device_index, d->info.name, specs[j],
                              specs[i]);
                goto fail;
            }
    }
    *out = g;
    return TSL_OK;
fail:
    tsl_group_destroy(g);
    return s;
}

/* A call that stopped waiting for a worker left it running (multi/group_run.c); destroy waits for
 * it to come back: the group's timeout, within 10 to 60 s. The floor is for a device that
 * answers but was given less time than its work takes: it stops at its next check, after the
 * command it is in (a kernel, or a build, which takes seconds on a CPU); a program that exits
 * while the driver builds in another thread may crash in the compiler's exit-time destructors.
 * The ceiling is for a device that already failed to answer twice. A worker still out after
 * that frees what it uses when it comes back. */
void tsl_group_destroy(tsl_group *g)
{
    if (!g) return;
    double grace = g->timeout_s < 10 ? 10 : g->timeout_s > 60 ? 60 : g->timeout_s;
    tsl__group_let_go(g, grace);
    for (size_t i = 0; i < g->count; ++i)
        tsl__gdev_release(g->dev[i]);
    tsl__free(g);
}

const char *tsl_group_error(const tsl_group *g)
{
    return g ? g->error : "group is NULL";
}

const char *tsl_group_warning(const tsl_group *g)
{
    return g ? g->warning : "";
}

size_t tsl_group_size(const tsl_group *g)
{
    return g ? g->count : 0;
}

tsl_context *tsl_group_context(tsl_group *g, size_t i)
{
    return g && i < g->count && !tsl__group_busy(g) ? g->dev[i]->ctx : NULL;
}

tsl_status tsl_group_set_timeout(tsl_group *g, double seconds)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_set_timeout: g is NULL");
    if (!(seconds > 0) || seconds > 1e7)
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                               "tsl_group_set_timeout: seconds = %g must be > 0 and at most 1e7",
                               seconds);
    g->timeout_s = seconds;
    g->error[0] = '\0';
    return TSL_OK;
}

tsl_status tsl_group_set_weights(tsl_group *g, tsl_weights how, const double *weights, size_t count)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_set_weights: g is NULL");
    g->error[0] = '\0';
    if (how != TSL_WEIGHTS_CALIBRATE && how != TSL_WEIGHTS_COMPUTE_UNITS &&
        how != TSL_WEIGHTS_GIVEN)
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                               "tsl_group_set_weights: how = %d is not a tsl_weights value",
                               (int)how);
    if (how == TSL_WEIGHTS_GIVEN) {
        if (!weights)
            return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                                   "tsl_group_set_weights: weights is NULL");
        if (count != g->count)
            return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                                   "tsl_group_set_weights: %zu weights for a group of %zu devices",
                                   count, g->count);
        double sum = 0;
        for (size_t i = 0; i < count; ++i) {
            if (!isfinite(weights[i]) || weights[i] < 0)
                return tsl__group_fail(
                    g, TSL_ERR_INVALID_ARG,
                    "tsl_group_set_weights: weights[%zu] = %g must be a number >= 0", i,
                    weights[i]);
            sum += weights[i];
        }
        if (!(sum > 0) || !isfinite(sum))
            return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                                   "tsl_group_set_weights: the weights add up to %g; at least one "
                                   "device needs a weight > 0",
                                   sum);
        for (size_t i = 0; i < count; ++i)
            g->given[i] = weights[i] / sum;
    }
    g->how = how;
    return TSL_OK;
}

/* ---- calls ---------------------------------------------------------------------------------- */

tsl_status tsl__group_begin(tsl_group *g, const char *fn, int dbl, const size_t *rows)
{
    g->error[0] = '\0';
    memset(&g->times, 0, sizeof g->times);
    memset(g->parts, 0, sizeof g->parts);
    if (tsl__group_busy(g))
        return tsl__group_fail(g, TSL_ERR_OPENCL,
                               "%s: the group is busy: a device has not come back from an earlier "
                               "call that timed out; try again later, or destroy the group",
                               fn);
    for (size_t i = 0; dbl && rows && i < g->count; ++i)
        if (rows[i] && !g->dev[i]->info.fp64) {
            char label[200];
            tsl__device_label(&g->dev[i]->info, i, label, sizeof label);
            return tsl__group_fail(
                g, TSL_ERR_UNSUPPORTED,
                "%s: %s has no double precision (cl_khr_fp64): give it weight 0 or "
                "leave it out of the group",
                fn, label);
        }
    return TSL_OK;
}

tsl_status tsl_group_timing(const tsl_group *g, tsl_group_times *times, tsl_group_part *parts,
                            size_t cap)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_timing: g is NULL");
    if (!parts && cap)
        return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_timing: parts is NULL, cap > 0");
    if (times) *times = g->times;
    for (size_t i = 0; i < cap && i < g->count; ++i)
        parts[i] = g->parts[i];
    return TSL_OK;
}
