/* group_poisson.c: the Jacobi solver on a group (tsl_group_[sd]poisson, docs/multi-device.md).
 * Each device gets a row strip of the grid with halo rows (ops/poisson.c's strip solver), split
 * by the group's weights; after every launch the strips exchange their halo rows through pinned
 * host staging (two sets used in turn), overlapped with the launch where the strip is thick
 * enough (multi/group.h), and every residual check reduces the strips' residuals
 * to their max. The workers copy their strips of f and u from the caller's arrays and their rows
 * of the result back into u through memory of the run's own (multi/group_run.c), so no device
 * transfer ever holds the caller's arrays; u is written only once every strip has iterated. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "multi/group_internal.h"
#include "ops/ops.h"

typedef struct {
    const char *fn;
    int dbl;
    size_t n, es;
    const void *f;
    void *u;
    int max_iters, need_res, halo;
    double tol, threshold;
    size_t own_lo[GROUP_MAX], own_hi[GROUP_MAX]; /* global rows owned, inclusive */
    size_t g0[GROUP_MAX], g1[GROUP_MAX];         /* the device grid: global rows [g0, g1) */
    size_t slot_rows[GROUP_MAX];                 /* min(halo, rows owned) */
    /* Pinned staging per device, two sets used in turn (so a set is never rewritten while a
     * neighbour may still read it): its first slot_rows owned rows, then its last. */
    void *stage[GROUP_MAX][2];
    char *grid[GROUP_MAX]; /* a worker's copy of its strip of f and u, then of its rows of u */
    unsigned long exchanges[GROUP_MAX];
    double res[2][GROUP_MAX];
    unsigned long checks[GROUP_MAX];
    int done;
    double residual, iter_ms[GROUP_MAX];
    int member[GROUP_MAX];
    size_t count, first_member;
    struct strip_link { /* what a strip's exchange and reduction know of their device */
        tsl__run *r;
        size_t i;
        tsl__strip *strip;
        unsigned long parity; /* the staging set of the exchange under way */
    } link[GROUP_MAX];
} poisson_job;

/* Where global row `row` (owned by some device) sits in its owner's current staging set: in
 * its last rows when the owner lies above the device asking (above = 1), else in its first. A
 * halo row is always within the halo depth of the owner's edge that faces the asker. */
static const char *staged_row(const poisson_job *j, size_t row, int above, unsigned long parity)
{
    for (size_t e = 0; e < j->count; ++e) {
        if (!j->member[e] || row < j->own_lo[e] || row > j->own_hi[e]) continue;
        size_t sr = j->slot_rows[e];
        size_t at = above ? sr + (row - (j->own_hi[e] + 1 - sr)) : row - j->own_lo[e];
        return (const char *)j->stage[e][parity] + at * j->n * j->es;
    }
    return NULL;
}

/* Writes global rows [lo, hi) of the current iterate into the strip from the owners' staging,
 * one transfer per run of rows that lie one after the other there. */
static tsl_status refresh_rows(poisson_job *j, size_t i, size_t lo, size_t hi, int above,
                               unsigned long parity)
{
    size_t pitch = j->n * j->es;
    for (size_t row = lo; row < hi;) {
        const char *src = staged_row(j, row, above, parity);
        if (!src)
            return tsl__fail(tsl__run_ctx(j->link[i].r, i), TSL_ERR_INVALID_ARG,
                             "halo row %zu has no owner", row);
        size_t run = 1;
        while (row + run < hi && staged_row(j, row + run, above, parity) == src + run * pitch)
            ++run;
        tsl_status s = tsl__strip_write_halo(j->link[i].strip, row - j->g0[i], run, src);
        if (s != TSL_OK) return s;
        row += run;
    }
    return TSL_OK;
}

/* The first half of an exchange: publish the rows the neighbours' halos need, the first sr
 * owned rows when a strip lies above, the last sr when one lies below, into this exchange's
 * staging set. Overlapped, the reads run while the interior launch computes. */
static tsl_status publish_edges(void *user, tsl__strip *strip)
{
    struct strip_link *l = user;
    poisson_job *j = tsl__run_job(l->r);
    size_t i = l->i;
    tsl_status s = tsl__run_fault_point(l->r, i, 0);
    if (s != TSL_OK) return s;
    l->parity = j->exchanges[i]++ & 1;
    size_t sr = j->slot_rows[i], g0 = j->g0[i];
    char *stage = j->stage[i][l->parity];
    if (j->own_lo[i] > 1 &&
        (s = tsl__strip_read_begin(strip, j->own_lo[i] - g0, sr, stage)) != TSL_OK)
        return s;
    if (j->own_hi[i] < j->n - 2)
        s = tsl__strip_read_begin(strip, j->own_hi[i] + 1 - sr - g0, sr, stage + sr * j->n * j->es);
    return s;
}

/* The second half: once every strip's rows are staged, refresh the halo rows (row 0 and row n-1
 * are the boundary, which never changes). A set is rewritten two exchanges later, after the
 * barrier of the next one, which a neighbour reaches only once its reads of the next exchange
 * have completed, and those follow its writes from this set on its in-order queue. */
static tsl_status complete_exchange(void *user, tsl__strip *strip)
{
    struct strip_link *l = user;
    poisson_job *j = tsl__run_job(l->r);
    size_t i = l->i, g0 = j->g0[i];
    tsl_status s = tsl__strip_read_wait(strip);
    if (s == TSL_OK) s = tsl__run_barrier(l->r, i, "a halo exchange");
    if (s != TSL_OK) return s;
    size_t top_lo = g0 > 1 ? g0 : 1, bottom_hi = j->g1[i] < j->n - 1 ? j->g1[i] : j->n - 1;
    if ((s = refresh_rows(j, i, top_lo, j->own_lo[i], 1, l->parity)) != TSL_OK) return s;
    return refresh_rows(j, i, j->own_hi[i] + 1, bottom_hi, 0, l->parity);
}

static tsl_status reduce_residual(void *user, double local, double *global)
{
    tsl__run *r = ((struct strip_link *)user)->r;
    size_t i = ((struct strip_link *)user)->i;
    poisson_job *j = tsl__run_job(r);
    unsigned long slot = j->checks[i]++ & 1;
    j->res[slot][i] = local;
    tsl_status s = tsl__run_barrier(r, i, "a residual check");
    if (s != TSL_OK) return s;
    double m = 0;
    for (size_t e = 0; e < j->count; ++e) {
        if (!j->member[e]) continue;
        double x = j->res[slot][e];
        if (isnan(x) || isnan(m))
            m = NAN; /* a diverged strip makes the whole residual NaN, as on one device */
        else if (x > m)
            m = x;
    }
    *global = m;
    return TSL_OK;
}

/* Copies count rows of pitch bytes between the caller's arrays and the run's memory, within the
 * call's permission. */
static tsl_status copy_guarded(tsl__run *r, size_t i, char *dst, const char *src, size_t bytes)
{
    if (tsl__run_enter(r)) return tsl__run_stop_status(r, i);
    memcpy(dst, src, bytes);
    tsl__run_leave(r);
    return TSL_OK;
}

static tsl_status poisson_worker(tsl__run *r, size_t i)
{
    poisson_job *j = tsl__run_job(r);
    tsl_context *ctx = tsl__run_ctx(r, i);
    tsl_group_part *part = tsl__run_part(r, i);
    double t0 = tsl__now_ms();
    size_t pitch = j->n * j->es, rows = j->g1[i] - j->g0[i];
    tsl__timing_begin(ctx);
    tsl__strip *strip = NULL;
    tsl_status s = TSL_OK;
    char *fl = j->grid[i] = tsl__malloc(2 * rows * pitch), *ul = fl + rows * pitch;
    if (!fl) s = tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: out of host memory", j->fn);
    if (s == TSL_OK)
        s = copy_guarded(r, i, fl, (const char *)j->f + j->g0[i] * pitch, rows * pitch);
    if (s == TSL_OK)
        s = copy_guarded(r, i, ul, (const char *)j->u + j->g0[i] * pitch, rows * pitch);
    if (s == TSL_OK && tsl__run_stopped(r)) s = tsl__run_stop_status(r, i); /* before builds */
    if (s == TSL_OK)
        s = tsl__strip_open(ctx, j->fn, j->dbl, j->n, rows, j->own_lo[i] - j->g0[i],
                            j->own_hi[i] - j->g0[i], fl, ul, &strip);
    j->link[i].r = r;
    j->link[i].i = i;
    j->link[i].strip = strip;
    if (s == TSL_OK) s = tsl__run_barrier(r, i, "the start of the iteration");
    int done = 0;
    double res = NAN;
    if (s == TSL_OK) {
        /* One strip alone (a device measured by itself) is the whole grid: no exchanges. */
        size_t sr = j->slot_rows[i];
        tsl__strip_comm comm = {.publish = publish_edges,
                                .complete = complete_exchange,
                                .reduce_max = reduce_residual,
                                .user = &j->link[i],
                                .edge_top = j->own_lo[i] > 1 ? sr : 0,
                                .edge_bottom = j->own_hi[i] < j->n - 2 ? sr : 0};
        double it0 = tsl__now_ms();
        s = tsl__strip_iterate(strip, tsl__run_active(r) > 1 ? &comm : NULL, j->max_iters, j->tol,
                               j->threshold, j->need_res, &done, &res);
        j->iter_ms[i] = tsl__now_ms() - it0;
    }
    tsl_status waited = tsl__timing_end(ctx);
    if (s == TSL_OK) s = waited;
    size_t own = j->own_hi[i] - j->own_lo[i] + 1;
    if (s == TSL_OK && done > 0) {
        s = tsl__strip_read(strip, j->own_lo[i] - j->g0[i], own, fl);
        waited = tsl__timing_end(ctx);
        if (s == TSL_OK) s = waited;
    }
    tsl__strip_close(strip);
    /* Nothing reaches the caller's u until every strip has iterated. */
    if (s == TSL_OK) s = tsl__run_barrier(r, i, "the end of the iteration on every device");
    if (s == TSL_OK && done > 0)
        s = copy_guarded(r, i, (char *)j->u + j->own_lo[i] * pitch, fl, own * pitch);
    if (s != TSL_OK) return s;
    part->timing = ctx->timing;
    part->wall_ms = tsl__now_ms() - t0;
    if (i == j->first_member) { /* every strip ends with the same count and residual */
        j->done = done;
        j->residual = res;
    }
    return TSL_OK;
}

/* Frees what the run's copy of the job holds, on the devices it holds (multi/group_run.c). */
static void poisson_cleanup(tsl__run *r, void *arg)
{
    poisson_job *j = arg;
    for (size_t i = 0; i < j->count; ++i) {
        for (int p = 0; p < 2; ++p)
            if (j->stage[i][p]) tsl_host_free(tsl__run_ctx(r, i), j->stage[i][p]);
        tsl__free(j->grid[i]);
    }
}

static tsl_status group_poisson(tsl_group *g, const char *fn, int dbl, size_t n, const void *f,
                                void *u, int max_iters, double tol, tsl_poisson_info *info)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: g is NULL", fn);
    tsl_status s = tsl__group_begin(g, fn, 0, NULL);
    if (s != TSL_OK) return s;
    if (n < 3)
        return tsl__group_fail(
            g, TSL_ERR_INVALID_ARG,
            "%s: n = %zu, the grid needs at least 3 x 3 points (border included)", fn, n);
    if (!f) return tsl__group_fail(g, TSL_ERR_INVALID_ARG, "%s: f is NULL", fn);
    if (!u) return tsl__group_fail(g, TSL_ERR_INVALID_ARG, "%s: u is NULL", fn);
    if (max_iters < 0)
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG, "%s: max_iters = %d is negative", fn,
                               max_iters);
    if (isnan(tol) || tol < 0)
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                               "%s: tol = %g must be a number >= 0 (0: exactly max_iters sweeps)",
                               fn, tol);
    if (n > INT_MAX / 2)
        return tsl__group_fail(g, TSL_ERR_OUT_OF_MEMORY, "%s: a %zu x %zu grid is too large", fn, n,
                               n);
    poisson_job *j = tsl__calloc(1, sizeof *j);
    if (!j) return tsl__group_fail(g, TSL_ERR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    j->fn = fn;
    j->dbl = dbl;
    j->n = n;
    j->es = dbl ? sizeof(double) : sizeof(float);
    j->f = f;
    j->u = u;
    j->max_iters = max_iters;
    j->tol = tol;
    j->need_res = info != NULL;
    j->count = g->count;
    j->halo = 1;
    for (size_t i = 0; i < g->count; ++i) { /* the deepest halo any device's variant needs */
        int h = 1;
        if (tsl__poisson_halo(g->dev[i]->ctx, &h) != TSL_OK) {
            char label[200];
            tsl__device_label(&g->dev[i]->info, i, label, sizeof label);
            s = tsl__group_fail(g, TSL_ERR_INVALID_ARG, "%s: %s: %s", fn, label,
                                tsl_context_error(g->dev[i]->ctx));
            tsl__free(j);
            return s;
        }
        if (h > j->halo) j->halo = h;
    }
    double fmax = tsl__poisson_fmax(dbl, n, (const char *)f + n * j->es, n - 2);
    j->threshold = tol * (fmax > 1 ? fmax : 1);
    if (max_iters == 0 && !j->need_res) {
        tsl__free(j);
        return TSL_OK;
    }
    double w[GROUP_MAX];
    size_t rows[GROUP_MAX];
    if ((s = tsl__group_weights(g, "poisson", dbl, w)) == TSL_OK) {
        tsl__split_rows(n - 2, w, g->count, rows);
        s = tsl__group_begin(g, fn, dbl, rows);
    }
    size_t first = 1, halo = (size_t)j->halo;
    for (size_t i = 0; s == TSL_OK && i < g->count; ++i) {
        j->member[i] = rows[i] > 0;
        g->parts[i].first_row = first;
        g->parts[i].rows = rows[i];
        g->parts[i].weight = w[i];
        if (!rows[i]) continue;
        if (!g->times.devices++) j->first_member = i;
        j->own_lo[i] = first;
        j->own_hi[i] = first + rows[i] - 1;
        j->g0[i] = first > halo ? first - halo : 0;
        j->g1[i] = j->own_hi[i] + 1 + halo < n ? j->own_hi[i] + 1 + halo : n;
        j->slot_rows[i] = rows[i] < halo ? rows[i] : halo;
        first += rows[i];
        /* Pinned staging on the device that writes it (its downloads are the hot path). */
        for (int p = 0; s == TSL_OK && p < 2; ++p)
            if ((s = tsl_host_alloc(g->dev[i]->ctx, 2 * j->slot_rows[i] * n * j->es,
                                    &j->stage[i][p])) != TSL_OK) {
                char label[200];
                tsl__device_label(&g->dev[i]->info, i, label, sizeof label);
                tsl__group_fail(g, s, "%s: %s: halo staging: %s", fn, label,
                                tsl_context_error(g->dev[i]->ctx));
            }
    }
    /* The run takes the job, its staging included (poisson_cleanup frees it). */
    tsl__run *r = NULL;
    if (s == TSL_OK &&
        !(r = tsl__run_new(g, poisson_worker, j, sizeof *j, poisson_cleanup, j->member)))
        s = tsl__group_fail(g, TSL_ERR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    if (!r) { /* never started: the staging is still the caller's to free */
        for (size_t i = 0; i < g->count; ++i)
            for (int p = 0; p < 2; ++p)
                if (j->stage[i][p]) tsl_host_free(g->dev[i]->ctx, j->stage[i][p]);
        tsl__free(j);
        return s;
    }
    tsl__free(j);
    double t0 = tsl__now_ms();
    s = tsl__run_go(g, r);
    g->times.wall_ms = tsl__now_ms() - t0;
    if (s == TSL_OK) {
        const poisson_job *rj = tsl__run_job(r);
        double kernel_ms = 0;
        for (size_t i = 0; i < g->count; ++i) {
            if (!rj->member[i]) continue;
            g->parts[i].timing = tsl__run_part(r, i)->timing;
            g->parts[i].wall_ms = tsl__run_part(r, i)->wall_ms;
            if (rj->iter_ms[i] > g->times.phase_ms) g->times.phase_ms = rj->iter_ms[i];
            if (g->parts[i].timing.kernel_ms > kernel_ms) kernel_ms = g->parts[i].timing.kernel_ms;
        }
        if (info) {
            info->iterations = rj->done;
            info->residual = rj->residual;
            info->kernel_ms = kernel_ms;
        }
    }
    tsl__run_end(g, r);
    return s;
}

tsl_status tsl_group_spoisson(tsl_group *g, size_t n, const float *f, float *u, int max_iters,
                              double tol, tsl_poisson_info *info)
{
    return group_poisson(g, "tsl_group_spoisson", 0, n, f, u, max_iters, tol, info);
}

tsl_status tsl_group_dpoisson(tsl_group *g, size_t n, const double *f, double *u, int max_iters,
                              double tol, tsl_poisson_info *info)
{
    return group_poisson(g, "tsl_group_dpoisson", 1, n, f, u, max_iters, tol, info);
}
