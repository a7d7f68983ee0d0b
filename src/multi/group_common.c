/* group_common.c: the pieces that the group's files and the MPI layer (src/multi) share
 * (group.h, group_internal.h): the group's error message and how a message names a device, the
 * split of rows by weights and compute units, where a row block of a GEMM operand sits in the
 * caller's storage, the timeout and the fault-injection hook. */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi/group_internal.h"

tsl_status tsl__group_fail(tsl_group *g, tsl_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->error, sizeof g->error, fmt, ap);
    va_end(ap);
    tsl__fail(NULL, s, "%s", g->error); /* tsl_last_error too */
    return s;
}

void tsl__device_label(const tsl_device_info *info, size_t i, char *out, size_t cap)
{
    snprintf(out, cap, "device %zu (%d:%d %s)", i, info->platform_index, info->device_index,
             info->name);
}

double tsl__default_timeout(void)
{
    const char *env = getenv("TESSEL_TIMEOUT");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (*end == '\0' && v > 0 && isfinite(v)) return v;
    }
    return TSL__DEFAULT_TIMEOUT_S;
}

int tsl__fault_target(const char *var, int *mode)
{
    *mode = 0;
    const char *env = getenv(var);
    if (!env || *env < '0' || *env > '9') return -1;
    char *end;
    long i = strtol(env, &end, 10);
    if (i < 0 || i > 1000000) return -1;
    if (strcmp(end, ":hang") == 0)
        *mode = 1;
    else if (strcmp(end, ":exit") == 0)
        *mode = 2;
    else if (strcmp(end, ":calibrate") == 0)
        *mode = 3;
    else if (strcmp(end, ":calibrate-hang") == 0)
        *mode = 4;
    else if (strcmp(end, ":late") == 0)
        *mode = 5;
    else if (strcmp(end, ":kill") == 0)
        *mode = 6;
    else if (*end)
        return -1;
    return (int)i;
}

double tsl__compute_unit_weight(const tsl_device_info *info)
{
    double cu = info->compute_units ? (double)info->compute_units : 1.0;
    return info->clock_mhz ? cu * (double)info->clock_mhz : cu;
}

tsl__block tsl__row_block(tsl_layout layout, tsl_trans trans, size_t r0, size_t rows, size_t cols,
                          size_t ld)
{
    tsl__block b;
    if ((layout == TSL_ROW_MAJOR) == (trans == TSL_NO_TRANS)) {
        b.offset = r0 * ld, b.srows = rows, b.slen = cols; /* op(X)'s rows are runs */
    } else {
        b.offset = r0, b.srows = cols, b.slen = rows; /* its columns are */
    }
    return b;
}

/* Rounding the cumulative shares (not each share) makes the counts add up to total exactly,
 * keeps each within one row of its exact share, and gives a weight of 0 no rows. */
void tsl__split_rows(size_t total, const double *w, size_t count, size_t *rows)
{
    long double sum = 0, cum = 0;
    for (size_t i = 0; i < count; ++i)
        sum += w[i];
    size_t start = 0;
    for (size_t i = 0; i < count; ++i) {
        cum += w[i];
        size_t end =
            i + 1 == count ? total : (size_t)floorl((long double)total * (cum / sum) + 0.5L);
        if (w[i] <= 0) end = start;
        if (end > total) end = total;
        if (end < start) end = start;
        rows[i] = end - start;
        start = end;
    }
    if (start < total) /* a last device of weight 0: the rest to the last one with weight */
        for (size_t i = count; i-- > 0;)
            if (w[i] > 0) {
                rows[i] += total - start;
                break;
            }
}
