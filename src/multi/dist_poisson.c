/* dist_poisson.c: the Jacobi solver across ranks (tsl_dist_poisson, dist.h). Row strips with
 * halo rows (ops/poisson.c's strip solver, as the multi-device group uses it), halo rows
 * exchanged with the two neighbouring ranks after every launch (overlapped with the launch
 * where the strip allows it, multi/group.h), the residual reduced through
 * the first rank with rows, the owned rows gathered on rank 0 at the end. */
#include "multi/dist_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Poisson -------------------------------------------------------------------------------- */

typedef struct {
    tsl_dist *d;
    int dbl;
    size_t n, es, halo;
    size_t own_lo, own_hi, g0; /* global rows */
    int prev, next;            /* neighbouring ranks with rows, -1 at the grid's edge */
    int leader;                /* the first rank with rows: the residual's reduction */
    const int *active;         /* the ranks with rows, in order */
    int nactive;
    void *send_top, *send_bottom, *recv_top, *recv_bottom; /* halo rows, pinned */
} strip_comm;

/* The first half of an exchange: start reading the owned rows the neighbours need (overlapped
 * with the interior launch where the strip allows it, multi/group.h). */
static tsl_status dist_publish(void *user, tsl__strip *strip)
{
    strip_comm *sc = user;
    tsl_dist *d = sc->d;
    tsl_status s = tsl__dist_fault_point(d, 0);
    if (s != TSL_OK) return s;
    size_t h = sc->halo, lo = sc->own_lo - sc->g0, hi = sc->own_hi - sc->g0; /* local rows */
    if (sc->prev >= 0 && (s = tsl__strip_read_begin(strip, lo, h, sc->send_top)) != TSL_OK)
        return tsl__dist_context_fail(d, s);
    if (sc->next >= 0 &&
        (s = tsl__strip_read_begin(strip, hi + 1 - h, h, sc->send_bottom)) != TSL_OK)
        return tsl__dist_context_fail(d, s);
    return TSL_OK;
}

/* The second half: trade rows with the neighbours and write the halo rows. The receives are
 * posted only once this exchange's reads have completed: those follow the previous exchange's
 * halo writes on the in-order queue, which read recv_top and recv_bottom. */
static tsl_status dist_complete(void *user, tsl__strip *strip)
{
    strip_comm *sc = user;
    tsl_dist *d = sc->d;
    size_t h = sc->halo, bytes = h * sc->n * sc->es;
    size_t lo = sc->own_lo - sc->g0, hi = sc->own_hi - sc->g0; /* local rows */
    tsl_status s = tsl__strip_read_wait(strip);
    if (s != TSL_OK) return tsl__dist_context_fail(d, s);
    tsl__reqset rs = {0};
    if (sc->prev >= 0) {
        s = tsl__dist_post(d, &rs, 1, sc->send_top, bytes, sc->prev, TAG_HALO_UP);
        if (s == TSL_OK)
            s = tsl__dist_post(d, &rs, 0, sc->recv_top, bytes, sc->prev, TAG_HALO_DOWN);
    }
    if (s == TSL_OK && sc->next >= 0) {
        s = tsl__dist_post(d, &rs, 1, sc->send_bottom, bytes, sc->next, TAG_HALO_DOWN);
        if (s == TSL_OK)
            s = tsl__dist_post(d, &rs, 0, sc->recv_bottom, bytes, sc->next, TAG_HALO_UP);
    }
    if (s != TSL_OK) {
        tsl__dist_rs_free(&rs);
        return s;
    }
    if ((s = tsl__dist_wait(d, &rs, "a halo exchange")) != TSL_OK) return s;
    if (sc->prev >= 0 && (s = tsl__strip_write_halo(strip, lo - h, h, sc->recv_top)) != TSL_OK)
        return tsl__dist_context_fail(d, s);
    if (sc->next >= 0 && (s = tsl__strip_write_halo(strip, hi + 1, h, sc->recv_bottom)) != TSL_OK)
        return tsl__dist_context_fail(d, s);
    return TSL_OK;
}

/* The max over the ranks with rows, through the first of them (NaN wins, as on one device). */
static tsl_status dist_reduce(void *user, double local, double *global)
{
    strip_comm *sc = user;
    tsl_dist *d = sc->d;
    if (d->rank != sc->leader) {
        tsl_status s = tsl__dist_exchange(d, "a residual check", sc->leader, TAG_RES, &local,
                                          sizeof local, NULL, 0);
        if (s != TSL_OK) return s;
        return tsl__dist_exchange(d, "a residual check", sc->leader, TAG_RES_BACK, NULL, 0, global,
                                  sizeof *global);
    }
    double *vals = malloc((size_t)sc->nactive * sizeof *vals);
    if (!vals) return tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "out of host memory");
    tsl__reqset rs = {0};
    tsl_status s = TSL_OK;
    for (int i = 0; s == TSL_OK && i < sc->nactive; ++i)
        if (sc->active[i] != d->rank)
            s = tsl__dist_post(d, &rs, 0, &vals[i], sizeof *vals, sc->active[i], TAG_RES);
    if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "a residual check");
    double m = local;
    for (int i = 0; s == TSL_OK && i < sc->nactive; ++i) {
        if (sc->active[i] == d->rank) continue;
        if (isnan(vals[i]) || isnan(m))
            m = NAN;
        else if (vals[i] > m)
            m = vals[i];
    }
    for (int i = 0; s == TSL_OK && i < sc->nactive; ++i)
        if (sc->active[i] != d->rank)
            s = tsl__dist_post(d, &rs, 1, &m, sizeof m, sc->active[i], TAG_RES_BACK);
    if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "a residual check (result)");
    tsl__dist_rs_free(&rs);
    free(vals);
    *global = m;
    return s;
}

/* The ranks with rows wait for each other (through the leader) before the timed iteration. */
static tsl_status sync_active(tsl_dist *d, const int *active, int nactive, const char *what)
{
    int leader = active[0], token = 1;
    if (d->rank != leader) {
        tsl_status s = tsl__dist_exchange(d, what, leader, TAG_SYNC, &token, sizeof token, NULL, 0);
        if (s != TSL_OK) return s;
        return tsl__dist_exchange(d, what, leader, TAG_SYNC, NULL, 0, &token, sizeof token);
    }
    int *tokens = malloc((size_t)nactive * sizeof *tokens);
    if (!tokens) return tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "out of host memory");
    tsl__reqset rs = {0};
    tsl_status s = TSL_OK;
    for (int i = 1; s == TSL_OK && i < nactive; ++i)
        s = tsl__dist_post(d, &rs, 0, &tokens[i], sizeof token, active[i], TAG_SYNC);
    if (s == TSL_OK) s = tsl__dist_wait(d, &rs, what);
    for (int i = 1; s == TSL_OK && i < nactive; ++i)
        s = tsl__dist_post(d, &rs, 1, &token, sizeof token, active[i], TAG_SYNC);
    if (s == TSL_OK) s = tsl__dist_wait(d, &rs, what);
    tsl__dist_rs_free(&rs);
    free(tokens);
    return s;
}

/* The deepest halo any rank's variant needs: rank 0 collects them and sends the max back. */
static tsl_status agree_halo(tsl_dist *d, int *halo)
{
    int mine = 1;
    tsl_status s = tsl__poisson_halo(d->ctx, &mine);
    if (s != TSL_OK) return tsl__dist_context_fail(d, s);
    if (d->rank != 0) {
        s = tsl__dist_exchange(d, "the start of the solve", 0, TAG_HALO_DEPTH, &mine, sizeof mine,
                               NULL, 0);
        if (s == TSL_OK)
            s = tsl__dist_exchange(d, "the start of the solve", 0, TAG_HALO_DEPTH, NULL, 0, halo,
                                   sizeof *halo);
        return s;
    }
    int *all = calloc((size_t)d->size, sizeof *all);
    if (!all) return tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "out of host memory");
    tsl__reqset rs = {0};
    for (int r = 1; s == TSL_OK && r < d->size; ++r)
        s = tsl__dist_post(d, &rs, 0, &all[r], sizeof mine, r, TAG_HALO_DEPTH);
    if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the start of the solve");
    *halo = mine;
    for (int r = 1; s == TSL_OK && r < d->size; ++r)
        if (all[r] > *halo) *halo = all[r];
    for (int r = 1; s == TSL_OK && r < d->size; ++r)
        s = tsl__dist_post(d, &rs, 1, halo, sizeof *halo, r, TAG_HALO_DEPTH);
    if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the start of the solve");
    tsl__dist_rs_free(&rs);
    free(all);
    return s;
}

tsl_status tsl_dist_poisson(tsl_dist *d, int dbl, size_t n, const void *f, void *u, int max_iters,
                            double tol, tsl_poisson_info *info)
{
    double t0 = tsl__dist_now_ms();
    d->error[0] = '\0';
    memset(&d->times, 0, sizeof d->times);
    memset(d->parts, 0, (size_t)d->size * sizeof *d->parts);
    memset(d->phase, 0, (size_t)d->size * sizeof *d->phase);
    size_t P = (size_t)d->size, es = dbl ? sizeof(double) : sizeof(float), pitch = n * es;
    if (n < 3 || max_iters < 0 || !(tol >= 0))
        return tsl__dist_settle(
            d, tsl__dist_fail(d, TSL_ERR_INVALID_ARG,
                              "poisson: n = %zu, max_iters = %d, tol = %g: the grid needs 3 "
                              "points a side, max_iters >= 0, tol >= 0",
                              n, max_iters, tol));
    double *w = malloc(P * sizeof *w);
    size_t *rows = malloc(P * sizeof *rows);
    int *active = malloc(P * sizeof *active);
    strip_comm sc;
    memset(&sc, 0, sizeof sc);
    tsl__strip *strip = NULL;
    tsl__reqset rs = {0};
    int halo = 1, done = 0;
    double res = NAN, fmax = 0;
    size_t g_rows = 0;
    void *fl = NULL, *ul = NULL, *grid = NULL;
    char *gathered = NULL; /* rank 0: the interior rows of the result, before they reach u */
    tsl_status s = TSL_OK;
    if (!w || !rows || !active)
        s = tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank %d: out of host memory", d->rank);
    if (s == TSL_OK) s = agree_halo(d, &halo);
    if (s == TSL_OK) s = tsl__dist_weights(d, "poisson", dbl, w);
    if (s != TSL_OK) goto done;
    tsl__split_rows(n - 2, w, P, rows);
    int nactive = 0;
    size_t me = (size_t)d->rank, first = 1, my_first = 0;
    for (size_t r = 0; r < P; ++r) {
        d->parts[r].first_row = first;
        d->parts[r].rows = rows[r];
        d->parts[r].weight = w[r];
        if (r == me) my_first = first;
        first += rows[r];
        if (!rows[r]) continue;
        active[nactive++] = (int)r;
        d->times.devices++;
        if (nactive > 1 && rows[r] < (size_t)halo) {
            s = tsl__dist_fail(d, TSL_ERR_INVALID_ARG,
                               "poisson: rank %zu gets %zu rows of the grid, fewer than the %d-row "
                               "halo its neighbours need: use a larger grid, fewer ranks or other "
                               "weights",
                               r, rows[r], halo);
        }
    }
    if (nactive > 1 && rows[active[0]] < (size_t)halo && s == TSL_OK)
        s = tsl__dist_fail(d, TSL_ERR_INVALID_ARG,
                           "poisson: rank %d gets %zu rows of the grid, fewer than the %d-row halo "
                           "its neighbour needs: use a larger grid, fewer ranks or other weights",
                           active[0], rows[active[0]], halo);
    if (s != TSL_OK) goto done;
    if (rows[me]) {
        sc.d = d;
        sc.dbl = dbl;
        sc.n = n;
        sc.es = es;
        sc.halo = (size_t)halo;
        sc.own_lo = my_first;
        sc.own_hi = my_first + rows[me] - 1;
        sc.g0 = sc.own_lo > (size_t)halo ? sc.own_lo - (size_t)halo : 0;
        sc.prev = sc.next = -1;
        sc.active = active;
        sc.nactive = nactive;
        sc.leader = active[0];
        for (int i = 0; i < nactive; ++i)
            if (active[i] == d->rank) {
                if (i > 0) sc.prev = active[i - 1];
                if (i + 1 < nactive) sc.next = active[i + 1];
            }
    }
    /* Rank 0 sends each rank its strip of f and u (owned rows and halo rows). */
    if (d->rank == 0) {
        size_t at = 1;
        for (size_t r = 0; r < P; ++r) {
            size_t lo = at, hi = at + rows[r] - 1;
            at += rows[r];
            if (!rows[r] || r == 0) continue;
            size_t g0 = lo > (size_t)halo ? lo - (size_t)halo : 0;
            size_t g1 = hi + 1 + (size_t)halo < n ? hi + 1 + (size_t)halo : n;
            s = tsl__dist_post(d, &rs, 1, (char *)f + g0 * pitch, (g1 - g0) * pitch, (int)r,
                               TAG_GRID);
            if (s == TSL_OK)
                s = tsl__dist_post(d, &rs, 1, (char *)u + g0 * pitch, (g1 - g0) * pitch, (int)r,
                                   TAG_GRID);
            if (s != TSL_OK) break;
        }
        if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the distribution of the grid");
        if (rows[0]) {
            size_t g1 = sc.own_hi + 1 + (size_t)halo < n ? sc.own_hi + 1 + (size_t)halo : n;
            g_rows = g1 - sc.g0;
            fl = (char *)f + sc.g0 * pitch;
            ul = (char *)u + sc.g0 * pitch;
        }
    } else if (rows[me]) {
        size_t g1 = sc.own_hi + 1 + (size_t)halo < n ? sc.own_hi + 1 + (size_t)halo : n;
        g_rows = g1 - sc.g0;
        grid = malloc(2 * g_rows * pitch);
        if (!grid) {
            s = tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY,
                               "rank %d: out of host memory for its strip", d->rank);
            goto done;
        }
        fl = grid;
        ul = (char *)grid + g_rows * pitch;
        s = tsl__dist_post(d, &rs, 0, fl, g_rows * pitch, 0, TAG_GRID);
        if (s == TSL_OK) s = tsl__dist_post(d, &rs, 0, ul, g_rows * pitch, 0, TAG_GRID);
        if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the distribution of the grid");
    }
    if (s == TSL_OK && rows[me]) {
        /* The stopping threshold's scale: max |f| over the interior, reduced like a residual. */
        double local =
            tsl__poisson_fmax(dbl, n, (char *)fl + (sc.own_lo - sc.g0) * pitch, rows[me]);
        tsl__timing_begin(d->ctx);
        s = dist_reduce(&sc, local, &fmax);
        size_t hbytes = (size_t)halo * pitch;
        for (int i = 0; s == TSL_OK && i < 4; ++i) {
            void **slot[4] = {&sc.send_top, &sc.send_bottom, &sc.recv_top, &sc.recv_bottom};
            if ((s = tsl_host_alloc(d->ctx, hbytes, slot[i])) != TSL_OK)
                s = tsl__dist_context_fail(d, s);
        }
        if (s == TSL_OK &&
            (s = tsl__strip_open(d->ctx, "tsl_dist_poisson", dbl, n, g_rows, sc.own_lo - sc.g0,
                                 sc.own_hi - sc.g0, fl, ul, &strip)) != TSL_OK)
            s = tsl__dist_context_fail(d, s);
        if (s == TSL_OK) s = sync_active(d, active, nactive, "the start of the iteration");
        double it0 = tsl__dist_now_ms();
        if (s == TSL_OK) {
            tsl__strip_comm comm = {.publish = dist_publish,
                                    .complete = dist_complete,
                                    .reduce_max = dist_reduce,
                                    .user = &sc,
                                    .edge_top = sc.prev >= 0 ? sc.halo : 0,
                                    .edge_bottom = sc.next >= 0 ? sc.halo : 0};
            double threshold = tol * (fmax > 1 ? fmax : 1);
            s = tsl__strip_iterate(strip, &comm, max_iters, tol, threshold, info != NULL, &done,
                                   &res);
            if (s != TSL_OK && !d->error[0]) s = tsl__dist_context_fail(d, s);
        }
        d->phase[me] = tsl__dist_now_ms() - it0;
        tsl_status waited = tsl__timing_end(d->ctx);
        if (s == TSL_OK && waited != TSL_OK) s = tsl__dist_context_fail(d, waited);
        /* The owned rows of the iterate go back to rank 0 (below, once it knows the count),
         * which collects them in a copy of the interior rows first. */
        if (s == TSL_OK && d->rank == 0 && !(gathered = malloc((n - 2) * pitch)))
            s = tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank 0: out of host memory to gather u");
        void *dst = d->rank == 0 ? gathered + (sc.own_lo - 1) * pitch : grid;
        if (s == TSL_OK && done > 0 &&
            (s = tsl__strip_read(strip, sc.own_lo - sc.g0, rows[me], dst)) != TSL_OK)
            s = tsl__dist_context_fail(d, s);
        tsl__timing_end(d->ctx);
        tsl_context_timing(d->ctx, &d->parts[me].timing);
        if (s == TSL_OK) s = tsl__dist_fault_point(d, 1);
    }
    /* The sweep count and residual: every rank with rows has them; rank 0 learns them from the
     * first such rank before it knows whether rows come back (none after 0 sweeps). */
    if (s == TSL_OK) {
        double dr[2] = {(double)done, res};
        if (d->rank == active[0] && d->rank != 0)
            s = tsl__dist_exchange(d, "the end of the solve", 0, TAG_RES_BACK, dr, sizeof dr, NULL,
                                   0);
        else if (d->rank == 0 && active[0] != 0)
            s = tsl__dist_exchange(d, "the end of the solve", active[0], TAG_RES_BACK, NULL, 0, dr,
                                   sizeof dr);
        done = (int)dr[0];
        res = dr[1];
    }
    if (s == TSL_OK && d->rank != 0 && rows[me] && done > 0)
        s = tsl__dist_exchange(d, "the gathering of the grid", 0, TAG_GRID_BACK, grid,
                               rows[me] * pitch, NULL, 0);
    if (s == TSL_OK && d->rank == 0 && done > 0) {
        if (!gathered && !(gathered = malloc((n - 2) * pitch)))
            s = tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank 0: out of host memory to gather u");
        size_t at = 1;
        for (size_t r = 0; s == TSL_OK && r < P; ++r) {
            size_t lo = at;
            at += rows[r];
            if (r == 0 || !rows[r]) continue;
            s = tsl__dist_post(d, &rs, 0, gathered + (lo - 1) * pitch, rows[r] * pitch, (int)r,
                               TAG_GRID_BACK);
        }
        if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the gathering of the grid");
    }
    /* Every rank's end-of-call record is the agreement (as for GEMM): u is written only once
     * rank 0 has all of them. */
    if (s == TSL_OK) {
        d->parts[me].wall_ms = tsl__dist_now_ms() - t0;
        s = tsl__dist_gather_parts(d);
    }
    if (s == TSL_OK && d->rank == 0 && done > 0)
        memcpy((char *)u + pitch, gathered, (n - 2) * pitch);
    if (s == TSL_OK) {
        d->times.wall_ms = tsl__dist_now_ms() - t0;
        double kernel = 0;
        for (size_t r = 0; r < P; ++r)
            if (rows[r] && d->parts[r].timing.kernel_ms > kernel)
                kernel = d->parts[r].timing.kernel_ms;
        if (info) {
            info->iterations = done;
            info->residual = res;
            info->kernel_ms = kernel;
        }
    }
done:
    tsl__dist_rs_free(&rs);
    tsl__strip_close(strip);
    if (sc.send_top) tsl_host_free(d->ctx, sc.send_top);
    if (sc.send_bottom) tsl_host_free(d->ctx, sc.send_bottom);
    if (sc.recv_top) tsl_host_free(d->ctx, sc.recv_top);
    if (sc.recv_bottom) tsl_host_free(d->ctx, sc.recv_bottom);
    free(grid);
    free(gathered);
    free(w), free(rows), free(active);
    return tsl__dist_settle(d, s);
}
