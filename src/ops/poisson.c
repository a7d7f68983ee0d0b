/* poisson.c: the Jacobi solver for -lap(u) = f on the unit square (tsl_spoisson, tsl_dpoisson;
 * 003's Poisson problem). This file checks the arguments, keeps the variant table (a variant is a
 * kernel and its sweeps per launch), and drives the iteration: f and u are uploaded once, the
 * sweeps ping-pong between two device grids, the residual is computed on the device every
 * check_every sweeps (only its scalar comes back), and u is downloaded once at the end.
 *
 * Variants: `naive` runs one sweep per launch, one work-item per point; `local` and
 * `temporal_K` run the tiled kernel (poisson.cl) with K sweeps per launch on tiles with a K-wide
 * halo in local memory (`local` is K = 1). A tiled variant gives the same iterate as the same
 * number of naive sweeps, bit for bit; a sweep count that is not a multiple of K ends with one
 * shorter launch of the same kernel (its step count is an argument). docs/poisson.md has the
 * scheme and what the bandwidth figures count.
 *
 * The same solver runs one device's row strip of a grid split across devices (tsl__strip_*,
 * multi/group.h; docs/multi-device.md): its kernels take the rows of the device grid apart from
 * the points per row, and its residual covers only the rows the strip owns. A strip thick enough
 * overlaps its halo exchange with its sweeps: each launch computes the owned rows its neighbours
 * need first, reads them back on a second queue while a second launch computes the rest, and
 * writes the new halo rows behind that launch, before the next one. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi/group.h"
#include "ops/ops.h"

#define CHECK_EVERY_DEFAULT 20
#define MAX_RESIDUAL_GROUPS 1024

typedef struct {
    const char *name;
    int k; /* sweeps per launch of the tiled kernel; 0 = the naive kernel */
} poisson_variant;

/* The reference path first (BLIS: reference first, then override). */
static const poisson_variant variants[] = {
    {"naive", 0}, {"local", 1}, {"temporal_2", 2}, {"temporal_4", 4}, {"temporal_8", 8},
};

/* Launch geometry per device type; the first matching row wins, the last is the default.
 * naive: work-group nlx x nly. tiled: work-group lx x ly, each work-item owning px x py points of
 * the (lx px) x (ly py) region, so the output tile is (lx px - 2K) x (ly py - 2K). rwg: the
 * reductions' work-group (a power of two). GPU row: naive in 128 x 2 groups (H200, 8192^2, two
 * interleaved runs: 2995 GB/s against 2931 for 32 x 8, 64 x 4 and 256 x 1 between, all 0.70-0.72x
 * the copy row: bench/results/h200/memory); the tiled kernels 32-wide rows
 * for coalescing, a 64 x 64 region (16 KiB of local memory in single, 32 KiB in double). CPU row (PoCL, measured on the 2-core development machine, see
 * docs/poisson.md): one work-item per 64 x 64 tile, which walks it serially without barriers,
 * was 4-7x faster than any many-work-item tile shape tried there. */
typedef struct {
    const char *type;
    int nlx, nly;
    int lx, ly, px, py;
    int rwg;
} poisson_geometry;
static const poisson_geometry geometry_table[] = {
    {"gpu", 128, 2, 32, 8, 2, 8, 256},
    {"cpu", 64, 4, 1, 1, 64, 64, 64},
    {NULL, 16, 16, 16, 16, 2, 2, 64},
};

/* What `auto` stands for per device type. CPU (PoCL): naive, measured fastest or tied with the
 * tiled variants at n = 1025 and 2049 (docs/poisson.md). GPU: temporal_4, 003's suggestion and
 * the target; to be confirmed on the GPU machine. */
static const tsl__auto_row auto_table[] = {
    {"gpu", "temporal_4"}, {"cpu", "naive"}, {NULL, "naive"}};

static const char *variant_name(size_t i)
{
    return tsl__table_name(TSL__TABLE(variants), i);
}

static const poisson_geometry *geometry_for(const tsl_context *ctx)
{
    size_t i = 0;
    while (geometry_table[i].type && strcmp(geometry_table[i].type, ctx->info.type) != 0)
        ++i;
    return &geometry_table[i];
}

static tsl_status get_kernel(tsl_context *ctx, int dbl, const char *name, const char *extra,
                             cl_kernel *k)
{
    char options[320];
    snprintf(options, sizeof options, "-DPRECISION=%d -DONLY_ONE_KERNEL -DONLY_%s%s%s",
             dbl ? 64 : 32, name, *extra ? " " : "", extra);
    return tsl__get_kernel(ctx, "poisson.cl", options, name, k);
}

static void tiled_options(const poisson_geometry *g, int k, char *out, size_t cap)
{
    snprintf(out, cap, "-DLX=%d -DLY=%d -DPX=%d -DPY=%d -DKSTEPS=%d", g->lx, g->ly, g->px, g->py,
             k);
}

/* The work-group a variant's sweep kernel needs, and its local memory (double precision, the
 * worst case), against what the device offers; then the compiled kernel's own limit. */
static tsl_status variant_fits(tsl_context *ctx, const poisson_variant *v, int dbl)
{
    const poisson_geometry *g = geometry_for(ctx);
    size_t wg = v->k ? (size_t)g->lx * (size_t)g->ly : (size_t)g->nlx * (size_t)g->nly;
    size_t local = v->k ? (size_t)g->lx * g->px * (size_t)g->ly * g->py * sizeof(double) : 0;
    if (v->k && (g->lx * g->px <= 2 * v->k || g->ly * g->py <= 2 * v->k))
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "variant %s: the %d x %d tile region of %s is too small for %d sweeps "
                         "per launch",
                         v->name, g->lx * g->px, g->ly * g->py, ctx->info.type, v->k);
    if (wg > ctx->info.max_work_group)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "variant %s needs work-groups of %zu, device %s allows at most %zu",
                         v->name, wg, ctx->info.name, ctx->info.max_work_group);
    if (local > ctx->info.local_mem)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "variant %s needs %zu bytes of local memory, device %s has %llu", v->name,
                         local, ctx->info.name, ctx->info.local_mem);
    char extra[160] = "";
    if (v->k) tiled_options(g, v->k, extra, sizeof extra);
    cl_kernel k;
    const char *kname = v->k ? "poisson_jacobi_tiled" : "poisson_jacobi_naive";
    tsl_status s = get_kernel(ctx, dbl, kname, extra, &k);
    if (s != TSL_OK) return s;
    size_t max_wg = tsl__kernel_max_wg(ctx, k);
    if (wg > max_wg)
        return tsl__fail(
            ctx, TSL_ERR_UNSUPPORTED,
            "variant %s needs work-groups of %zu, its compiled kernel allows %zu on %s", v->name,
            wg, max_wg, ctx->info.name);
    return TSL_OK;
}

static tsl_status variant_check(tsl_context *ctx, const char *variant, const char **resolved)
{
    const poisson_variant *v =
        tsl__find_variant(ctx, "poisson", TSL__TABLE(variants), auto_table, variant);
    if (!v) return TSL_ERR_INVALID_ARG;
    if (resolved) *resolved = v->name;
    return variant_fits(ctx, v, 0); /* double precision is checked again when it runs */
}

static tsl_status option_check(tsl_context *ctx, const char *name, long value)
{
    if (strcmp(name, "check_every") != 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "unknown poisson option '%s' (options: check_every)", name);
    if (value < 1 || value > INT_MAX)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "poisson option check_every = %ld: sweeps between residual checks must "
                         "be 1..%d",
                         value, INT_MAX);
    return TSL_OK;
}

const tsl__op_desc tsl__poisson_desc = {.op = "poisson", .variant_name = variant_name, .variant_check = variant_check, .option_check = option_check};

/* ---- the solve ------------------------------------------------------------------------------
 * One solver drives one device grid: the whole n x n grid (tsl_[sd]poisson), or one device's
 * row strip of it (tsl__strip_*, for the multi-device layer in group.c and the MPI ranks of
 * src/multi): `rows` rows of n points whose first and last rows are the grid's boundary or halo
 * rows that neighbouring strips own. Sweeps update rows 1..rows-2; after every launch, a strip's
 * comm->exchange refreshes its halo rows from their owners, and the residual of a strip covers
 * only the rows it owns, reduced over all strips by comm->reduce_max. */

struct tsl__strip {
    tsl_context *ctx;
    const poisson_variant *v;
    const poisson_geometry *g;
    int dbl;
    size_t elem;
    int n;                /* points per row; the grid is n x n, h = 1/(n-1) */
    int rows;             /* rows of this device grid (n for the whole grid) */
    int res_lo, res_hi;   /* the rows the residual covers, inclusive */
    tsl__scalar h2, inv_h2;
    cl_mem f, cur, next, partial, result;
    cl_kernel sweep, residual, reduce;
    int groups;                  /* residual work-groups */
    const tsl__strip_comm *comm; /* NULL for the whole grid on one device */
    /* The overlapped exchange (tsl__strip_iterate decides): the edge rows' reads go on `side`,
     * a queue of its own (made on first use, kept until the strip closes); read_ticket is the
     * last of them. */
    int overlap;
    tsl__stream *side;
    unsigned long long read_ticket;
};
typedef struct tsl__strip solver;

static tsl__arg scalar_arg(const solver *sv, const tsl__scalar *s)
{
    return (tsl__arg){sv->elem, s};
}

static tsl__scalar make_scalar(int dbl, double v)
{
    tsl__scalar s;
    if (dbl)
        s.d = v;
    else
        s.f = (float)v;
    return s;
}

static size_t round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* `steps` sweeps (1 for the naive kernel) from in into rows lo..hi of out (local rows,
 * 1 <= lo <= hi <= rows - 2); lo > hi launches nothing. */
static tsl_status launch_rows(solver *sv, cl_mem in, cl_mem out, int steps, int lo, int hi)
{
    if (lo > hi) return TSL_OK;
    const poisson_geometry *g = sv->g;
    size_t inner_x = (size_t)sv->n - 2, inner_y = (size_t)(hi - lo + 1);
    if (sv->v->k == 0) {
        size_t local[2] = {(size_t)g->nlx, (size_t)g->nly};
        size_t global[2] = {round_up(inner_x, local[0]), round_up(inner_y, local[1])};
        tsl__arg args[] = {{sizeof sv->n, &sv->n},  {sizeof sv->rows, &sv->rows},
                           {sizeof lo, &lo},        {sizeof hi, &hi},
                           scalar_arg(sv, &sv->h2), {sizeof(cl_mem), &sv->f},
                           {sizeof(cl_mem), &in},   {sizeof(cl_mem), &out}};
        return tsl__launch(sv->ctx, sv->sweep, "poisson naive sweep", args, 8, 2, global, local);
    }
    size_t tx = (size_t)(g->lx * g->px - 2 * sv->v->k), ty = (size_t)(g->ly * g->py - 2 * sv->v->k);
    size_t local[2] = {(size_t)g->lx, (size_t)g->ly};
    size_t global[2] = {(inner_x + tx - 1) / tx * local[0], (inner_y + ty - 1) / ty * local[1]};
    tsl__arg args[] = {
        {sizeof sv->n, &sv->n},   {sizeof sv->rows, &sv->rows}, {sizeof lo, &lo},
        {sizeof hi, &hi},         scalar_arg(sv, &sv->h2),      {sizeof steps, &steps},
        {sizeof(cl_mem), &sv->f}, {sizeof(cl_mem), &in},        {sizeof(cl_mem), &out}};
    return tsl__launch(sv->ctx, sv->sweep, sv->v->name, args, 9, 2, global, local);
}

/* One launch: `steps` sweeps from cur into next, then swap; on a strip the halo rows of the new
 * iterate are then refreshed (comm->publish, then comm->complete).
 *
 * Serial exchange: one launch over every row (halo rows included), then the exchange, whose
 * reads wait for the whole launch. Overlapped: the owned rows the neighbours read (edge_top at
 * the top of the owned rows, edge_bottom at the bottom) are computed first, by launches of their
 * own; publish starts their reads on the side queue, which waits on the device for those
 * launches; the interior launch (the owned rows between the edges) goes to the context's queue
 * meanwhile, and complete waits for the reads, trades rows with the neighbours and queues the
 * halo writes behind the interior launch. The halo rows are not swept there: the exchange
 * overwrites every one of them. Each row's values are the same whichever launch computes them
 * (poisson.cl), so both give the same iterate bit for bit. */
static tsl_status launch_sweeps(solver *sv, int steps)
{
    cl_mem in = sv->cur, out = sv->next;
    sv->cur = out; /* the new iterate, once the launches below have run */
    sv->next = in;
    const tsl__strip_comm *c = sv->comm;
    tsl_status s;
    if (!c || !sv->overlap) {
        if ((s = launch_rows(sv, in, out, steps, 1, sv->rows - 2)) != TSL_OK || !c) return s;
        if ((s = c->publish(c->user, sv)) != TSL_OK) return s;
        return c->complete(c->user, sv);
    }
    int lo = sv->res_lo, hi = sv->res_hi, top = (int)c->edge_top, bottom = (int)c->edge_bottom;
    if ((s = launch_rows(sv, in, out, steps, lo, lo + top - 1)) != TSL_OK ||
        (s = launch_rows(sv, in, out, steps, hi + 1 - bottom, hi)) != TSL_OK)
        return s;
    if ((s = tsl__stream_follow(sv->side)) != TSL_OK)
        return tsl__fail(sv->ctx, s, "%s", tsl__stream_error(sv->side));
    if ((s = c->publish(c->user, sv)) != TSL_OK) return s;
    if ((s = launch_rows(sv, in, out, steps, lo + top, hi - bottom)) != TSL_OK ||
        (s = tsl__queue_flush(sv->ctx)) != TSL_OK)
        return s;
    return c->complete(c->user, sv);
}

/* `count` sweeps: full launches of K, then one shorter launch for the rest. */
static tsl_status sweeps(solver *sv, int count)
{
    int per = sv->v->k ? sv->v->k : 1;
    tsl_status s = TSL_OK;
    for (int done = 0; s == TSL_OK && done < count; done += per) {
        int steps = count - done < per ? count - done : per;
        s = launch_sweeps(sv, steps);
    }
    return s;
}

/* max |f - A_h u| over the residual rows of the current grid: two kernels on the device, one
 * scalar read back; on a strip, then the max over all strips. */
static tsl_status residual(solver *sv, double *out)
{
    size_t rwg = (size_t)sv->g->rwg;
    size_t global = (size_t)sv->groups * rwg, local = rwg;
    tsl__arg rargs[] = {{sizeof sv->n, &sv->n},
                        {sizeof sv->res_lo, &sv->res_lo},
                        {sizeof sv->res_hi, &sv->res_hi},
                        scalar_arg(sv, &sv->inv_h2),
                        {sizeof(cl_mem), &sv->f},
                        {sizeof(cl_mem), &sv->cur},
                        {sizeof(cl_mem), &sv->partial}};
    tsl_status s =
        tsl__launch(sv->ctx, sv->residual, "poisson residual", rargs, 7, 1, &global, &local);
    if (s != TSL_OK) return s;
    global = rwg;
    tsl__arg margs[] = {{sizeof sv->groups, &sv->groups},
                        {sizeof(cl_mem), &sv->partial},
                        {sizeof(cl_mem), &sv->result}};
    s = tsl__launch(sv->ctx, sv->reduce, "poisson residual reduction", margs, 3, 1, &global,
                    &local);
    if (s != TSL_OK) return s;
    tsl__scalar r;
    s = tsl__download_rect(sv->ctx, sv->result, &r, 1, sv->elem, sv->elem);
    if (s != TSL_OK) return s;
    *out = sv->dbl ? r.d : (double)r.f;
    return sv->comm ? sv->comm->reduce_max(sv->comm->user, *out, out) : TSL_OK;
}

static tsl_status setup_kernels(solver *sv)
{
    char extra[160] = "", rextra[32];
    if (sv->v->k) tiled_options(sv->g, sv->v->k, extra, sizeof extra);
    snprintf(rextra, sizeof rextra, "-DRWG=%d", sv->g->rwg);
    tsl_status s =
        get_kernel(sv->ctx, sv->dbl, sv->v->k ? "poisson_jacobi_tiled" : "poisson_jacobi_naive",
                   extra, &sv->sweep);
    if (s == TSL_OK) s = get_kernel(sv->ctx, sv->dbl, "poisson_residual", rextra, &sv->residual);
    if (s == TSL_OK) s = get_kernel(sv->ctx, sv->dbl, "poisson_max_reduce", rextra, &sv->reduce);
    return s;
}

/* The iteration of tsl_[sd]poisson on the device grids; *done and *res describe the iterate
 * left in sv->cur. need_res: compute the final residual even when no check asks for it. Every
 * strip of a split grid takes the same decisions, since they depend only on the sweep count and
 * the reduced residual. */
static tsl_status iterate(solver *sv, int max_iters, double tol, double threshold, int need_res,
                          int *done, double *res)
{
    long every = tsl__context_option(sv->ctx, "poisson", "check_every", CHECK_EVERY_DEFAULT);
    int per = sv->v->k ? sv->v->k : 1;
    if (every % per) every += per - every % per; /* whole launches between checks */
    if (every > INT_MAX) every = INT_MAX / per * per;
    *done = 0;
    int checked_at = -1;
    tsl_status s = TSL_OK;
    if (tol > 0) { /* the initial guess may already be good enough */
        if ((s = residual(sv, res)) != TSL_OK) return s;
        checked_at = 0;
        if (*res <= threshold) return TSL_OK;
    }
    while (*done < max_iters) {
        int left = max_iters - *done;
        int chunk = tol > 0 && every < left ? (int)every : left;
        if ((s = sweeps(sv, chunk)) != TSL_OK) return s;
        *done += chunk;
        if (tol > 0) {
            if ((s = residual(sv, res)) != TSL_OK) return s;
            checked_at = *done;
            if (*res <= threshold) break;
        }
    }
    if (need_res && checked_at != *done) s = residual(sv, res);
    return s;
}

/* The byte checks of a device grid of rows x n values: f and two grids on the device. */
static tsl_status check_grid_bytes(tsl_context *ctx, const char *fn, size_t n, size_t rows,
                                   size_t elem)
{
    if (n > INT_MAX / 2 || rows > INT_MAX / 2 || tsl__mul_overflows(rows, n) ||
        tsl__mul_overflows(rows * n, elem))
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: a %zu x %zu grid's byte count overflows",
                         fn, rows, n);
    size_t bytes = rows * n * elem;
    if (bytes > ctx->info.max_alloc)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY,
                         "%s: a %zu x %zu grid needs %zu bytes per array, more than the largest "
                         "buffer device %s allows (%llu bytes)",
                         fn, rows, n, bytes, ctx->info.name, ctx->info.max_alloc);
    if ((long double)bytes * 3 > (long double)ctx->info.global_mem)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY,
                         "%s: f and two %zu x %zu grids need %.0Lf bytes, more than the global "
                         "memory of %s (%llu bytes)",
                         fn, rows, n, (long double)bytes * 3, ctx->info.name,
                         ctx->info.global_mem);
    return TSL_OK;
}

/* Sets sv up for a rows x n device grid and uploads f and u (rows x n values each, row-major):
 * kernels, the context's scratch buffers, the uploads, and the second grid's border. */
static tsl_status solver_open(solver *sv, tsl_context *ctx, const poisson_variant *v, int dbl,
                              size_t n, size_t rows, size_t res_lo, size_t res_hi, const void *f,
                              const void *u)
{
    memset(sv, 0, sizeof *sv);
    sv->ctx = ctx;
    sv->v = v;
    sv->g = geometry_for(ctx);
    sv->dbl = dbl;
    sv->elem = dbl ? sizeof(double) : sizeof(float);
    sv->n = (int)n;
    sv->rows = (int)rows;
    sv->res_lo = (int)res_lo;
    sv->res_hi = (int)res_hi;
    double h = 1.0 / (double)(n - 1);
    sv->h2 = make_scalar(dbl, h * h);
    sv->inv_h2 = make_scalar(dbl, (double)(n - 1) * (double)(n - 1));
    size_t res_rows = res_hi - res_lo + 1;
    sv->groups = res_rows < MAX_RESIDUAL_GROUPS ? (int)res_rows : MAX_RESIDUAL_GROUPS;
    size_t bytes = rows * n * sv->elem;
    tsl_status s;
    if ((s = setup_kernels(sv)) != TSL_OK) return s;
    if ((s = tsl__workspace(ctx, TSL__WS_A, bytes, &sv->f)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_B, bytes, &sv->cur)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_C, bytes, &sv->next)) != TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_SCRATCH, MAX_RESIDUAL_GROUPS * sv->elem, &sv->partial)) !=
            TSL_OK ||
        (s = tsl__workspace(ctx, TSL__WS_SCRATCH2, sv->elem, &sv->result)) != TSL_OK)
        return s;
    if ((s = tsl__upload_rect(ctx, sv->f, f, 1, bytes, bytes)) != TSL_OK ||
        (s = tsl__upload_rect(ctx, sv->cur, u, 1, bytes, bytes)) != TSL_OK)
        return s;
    /* The second grid's border: copied on the device from the first, never written again. */
    cl_kernel border;
    if ((s = get_kernel(ctx, dbl, "poisson_copy_border", "", &border)) != TSL_OK) return s;
    size_t gb = 2 * (n - 1) + 2 * (rows - 1);
    tsl__arg bargs[] = {{sizeof sv->n, &sv->n},
                        {sizeof sv->rows, &sv->rows},
                        {sizeof(cl_mem), &sv->cur},
                        {sizeof(cl_mem), &sv->next}};
    return tsl__launch(ctx, border, "poisson border copy", bargs, 4, 1, &gb, NULL);
}

double tsl__poisson_fmax(int dbl, size_t n, const void *f_rows, size_t count)
{
    double fmax = 0;
    for (size_t y = 0; y < count; ++y)
        for (size_t x = 1; x + 1 < n; ++x) {
            double a = dbl ? fabs(((const double *)f_rows)[y * n + x])
                           : fabs(((const float *)f_rows)[y * n + x]);
            if (a > fmax) fmax = a;
        }
    return fmax;
}

static tsl_status poisson_host(tsl_context *ctx, const char *fn, int dbl, size_t n, const void *f,
                               void *u, int max_iters, double tol, tsl_poisson_info *info)
{
    if (!ctx) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
    tsl__timing_begin(ctx);
    if (n < 3)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: n = %zu, the grid needs at least 3 x 3 points (border included)", fn,
                         n);
    if (!f) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: f is NULL", fn);
    if (!u) return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: u is NULL", fn);
    if (max_iters < 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "%s: max_iters = %d is negative", fn, max_iters);
    if (isnan(tol) || tol < 0)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: tol = %g must be a number >= 0 (0: exactly max_iters sweeps)", fn,
                         tol);
    tsl_status s = tsl__check_fp64(ctx, dbl, fn);
    if (s != TSL_OK) return s;
    size_t elem = dbl ? sizeof(double) : sizeof(float);
    if ((s = check_grid_bytes(ctx, fn, n, n, elem)) != TSL_OK) return s;
    size_t bytes = n * n * elem;

    const poisson_variant *v = tsl__find_variant(ctx, "poisson", TSL__TABLE(variants), auto_table,
                                                 tsl__context_variant(ctx, "poisson"));
    if (!v) return TSL_ERR_INVALID_ARG;
    if ((s = variant_fits(ctx, v, dbl)) != TSL_OK) return s;

    /* The stopping threshold: tol * max(1, max |f| over the interior). */
    double fmax = tsl__poisson_fmax(dbl, n, (const char *)f + n * elem, n - 2);
    double threshold = tol * (fmax > 1 ? fmax : 1);
    int need_res = info != NULL;
    if (max_iters == 0 && !need_res) return TSL_OK; /* nothing to compute, nothing to say */

    solver sv;
    if ((s = solver_open(&sv, ctx, v, dbl, n, n, 1, n - 2, f, u)) != TSL_OK) return s;
    int done = 0;
    double res = NAN;
    s = iterate(&sv, max_iters, tol, threshold, need_res, &done, &res);
    tsl_status waited = tsl__timing_end(ctx); /* no result is read back from a failed run */
    if (s != TSL_OK) return s;
    if (waited != TSL_OK) return waited;
    if (done > 0 && (s = tsl__download_rect(ctx, sv.cur, u, 1, bytes, bytes)) != TSL_OK) return s;
    if ((s = tsl__timing_end(ctx)) != TSL_OK) return s;
    if (info) {
        info->iterations = done;
        info->residual = res;
        info->kernel_ms = ctx->timing.kernel_ms;
    }
    return TSL_OK;
}

tsl_status tsl_spoisson(tsl_context *ctx, size_t n, const float *f, float *u, int max_iters,
                        double tol, tsl_poisson_info *info)
{
    return poisson_host(ctx, "tsl_spoisson", 0, n, f, u, max_iters, tol, info);
}

tsl_status tsl_dpoisson(tsl_context *ctx, size_t n, const double *f, double *u, int max_iters,
                        double tol, tsl_poisson_info *info)
{
    return poisson_host(ctx, "tsl_dpoisson", 1, n, f, u, max_iters, tol, info);
}

/* ---- strips of a grid split across devices (multi/group.h) ------------------------------------ */

tsl_status tsl__poisson_halo(tsl_context *ctx, int *halo)
{
    const poisson_variant *v = tsl__find_variant(ctx, "poisson", TSL__TABLE(variants), auto_table,
                                                 tsl__context_variant(ctx, "poisson"));
    if (!v) return TSL_ERR_INVALID_ARG;
    *halo = v->k ? v->k : 1;
    return TSL_OK;
}

tsl_status tsl__strip_open(tsl_context *ctx, const char *fn, int dbl, size_t n, size_t rows,
                           size_t own_lo, size_t own_hi, const void *f, const void *u,
                           tsl__strip **out)
{
    *out = NULL;
    tsl_status s = tsl__check_fp64(ctx, dbl, fn);
    if (s != TSL_OK) return s;
    if (n < 3 || rows < 3 || own_lo < 1 || own_hi > rows - 2 || own_lo > own_hi)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG,
                         "%s: a strip of %zu rows of %zu points owning rows %zu..%zu is not a "
                         "strip with halo rows",
                         fn, rows, n, own_lo, own_hi);
    if ((s = check_grid_bytes(ctx, fn, n, rows, dbl ? sizeof(double) : sizeof(float))) != TSL_OK)
        return s;
    const poisson_variant *v = tsl__find_variant(ctx, "poisson", TSL__TABLE(variants), auto_table,
                                                 tsl__context_variant(ctx, "poisson"));
    if (!v) return TSL_ERR_INVALID_ARG;
    if ((s = variant_fits(ctx, v, dbl)) != TSL_OK) return s;
    solver *sv = tsl__calloc(1, sizeof *sv);
    if (!sv) return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    if ((s = solver_open(sv, ctx, v, dbl, n, rows, own_lo, own_hi, f, u)) != TSL_OK) {
        tsl__free(sv);
        return s;
    }
    *out = sv;
    return TSL_OK;
}

/* $TESSEL_POISSON_OVERLAP = 0 keeps every strip on the serial exchange (to measure what the
 * overlap gains); unset or anything else lets a strip overlap where it can. */
static int overlap_allowed(void)
{
    const char *env = getenv("TESSEL_POISSON_OVERLAP");
    return !env || strcmp(env, "0") != 0;
}

tsl_status tsl__strip_iterate(tsl__strip *s, const tsl__strip_comm *comm, int max_iters,
                              double tol, double threshold, int need_res, int *done, double *res)
{
    /* Overlap needs at least one owned row between the edges (else the edge launches are the
     * whole strip and nothing is left to hide the exchange behind). */
    long owned = (long)s->res_hi - s->res_lo + 1;
    s->overlap = comm && overlap_allowed() && owned > (long)(comm->edge_top + comm->edge_bottom);
    tsl_status st = TSL_OK;
    if (s->overlap && !s->side && (st = tsl__stream_create(s->ctx, &s->side)) != TSL_OK)
        s->overlap = 0;
    s->comm = comm;
    if (st == TSL_OK) st = iterate(s, max_iters, tol, threshold, need_res, done, res);
    s->comm = NULL;
    if (s->overlap) {
        /* Every read done and booked, every halo write done (their host memory is the
         * caller's to reuse once this returns). */
        tsl_status fin = tsl__stream_finish(s->side, &s->ctx->timing);
        if (fin != TSL_OK && st == TSL_OK)
            st = tsl__fail(s->ctx, fin, "%s", tsl__stream_error(s->side));
        tsl_status waited = tsl__timing_end(s->ctx);
        if (st == TSL_OK) st = waited;
        s->overlap = 0;
    }
    return st;
}

tsl_status tsl__strip_read(tsl__strip *s, size_t row, size_t count, void *host)
{
    size_t pitch = (size_t)s->n * s->elem;
    return tsl__read_at(s->ctx, s->cur, row * pitch, count * pitch, host);
}

tsl_status tsl__strip_write(tsl__strip *s, size_t row, size_t count, const void *host)
{
    size_t pitch = (size_t)s->n * s->elem;
    return tsl__write_at(s->ctx, s->cur, row * pitch, count * pitch, host);
}

tsl_status tsl__strip_read_begin(tsl__strip *s, size_t row, size_t count, void *host)
{
    if (!s->overlap) return tsl__strip_read(s, row, count, host);
    size_t pitch = (size_t)s->n * s->elem;
    tsl_status st = tsl__stream_read(s->side, s->cur, row * pitch, count * pitch, host);
    if (st != TSL_OK) return tsl__fail(s->ctx, st, "%s", tsl__stream_error(s->side));
    s->read_ticket = tsl__stream_ticket(s->side);
    return TSL_OK;
}

tsl_status tsl__strip_read_wait(tsl__strip *s)
{
    if (!s->overlap) return TSL_OK;
    tsl_status st = tsl__stream_wait(s->side, s->read_ticket);
    return st == TSL_OK ? st : tsl__fail(s->ctx, st, "%s", tsl__stream_error(s->side));
}

tsl_status tsl__strip_write_halo(tsl__strip *s, size_t row, size_t count, const void *host)
{
    if (!s->overlap) return tsl__strip_write(s, row, count, host);
    size_t pitch = (size_t)s->n * s->elem;
    return tsl__write_at_async(s->ctx, s->cur, row * pitch, count * pitch, host);
}

void tsl__strip_close(tsl__strip *s)
{
    if (!s) return;
    tsl__stream_destroy(s->side);
    tsl__free(s); /* the device grids are the context's scratch buffers: it keeps them */
}
