/* poisson.cl: Jacobi sweeps for -lap(u) = f on the unit square (5-point stencil, 003's Poisson
 * problem), the residual check that runs on the device, and the small helpers of the solver in
 * src/ops/poisson.c. A device grid is ny rows of nx points, row-major, border included: the whole
 * n x n grid (nx = ny = n), or one device's row strip of it with halo rows above and below
 * (src/multi/group.c); only interior points (columns 1..nx-2 of rows 1..ny-2) are ever written, so
 * the Dirichlet boundary, and a strip's outermost halo rows, stay as uploaded. A sweep launch
 * writes a band of rows (row_lo..row_hi, the whole interior 1..ny-2 or part of it).
 *
 * One Jacobi update is written once (JACOBI_UPDATE) and every kernel uses it with the same
 * operand order, and contraction into fma is off for the whole file: the tiled kernels, which
 * do K sweeps per launch in local memory, then give bit for bit the iterate of K naive sweeps,
 * and a double-precision run matches the CPU reference (src/ref) exactly.
 *
 * The host builds each program with -DONLY_ONE_KERNEL -DONLY_<kernel name>; without those
 * options the file compiles every kernel, on its own. */
#pragma OPENCL FP_CONTRACT OFF

/* u_new = (west + east + north + south + h^2 f) / 4, in this order everywhere (and in
 * tsl_ref_jacobi). h2f is h^2 * f of the point, one rounding of its own. */
#define JACOBI_UPDATE(w, e, nn, s, h2f) (((((w) + (e)) + (nn)) + (s)) + (h2f)) * (real)0.25

/* max that propagates NaN (fmax would drop it): a diverged or poisoned iterate must report a
 * NaN residual, never a small one. max is exact, so any reduction order gives the same bits. */
#define MAX_NAN(a, b) (((a) > (b) || isnan(a)) ? (a) : (b))

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_poisson_jacobi_naive)
/* ---- naive: one work-item per interior point of rows row_lo..row_hi, one sweep per launch
 * (003's "one thread per point"); the host swaps the two grids between launches. ------------- */
__kernel void poisson_jacobi_naive(const int nx, const int ny, const int row_lo, const int row_hi,
                                   const real h2, __global const real *f,
                                   __global const real *uin, __global real *uout)
{
    const int gx = get_global_id(0) + 1, gy = get_global_id(1) + row_lo;
    if (gx > nx - 2 || gy > row_hi) return;
    const long i = (long)gy * nx + gx;
    uout[i] = JACOBI_UPDATE(uin[i - 1], uin[i + 1], uin[i - nx], uin[i + nx], h2 * f[i]);
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_poisson_jacobi_tiled)
/* ---- tiled: `steps` (<= KSTEPS) sweeps per launch on overlapping tiles (003's suggestion:
 * "the blocks should be iterated multiple times between being synchronized").
 *
 * A work-group of LX x LY work-items loads an EX x EY region of the grid (EX = LX * PX) into
 * local memory: its output tile of TX x TY interior points plus a KSTEPS-wide halo. Each
 * work-item owns PX x PY points of the region (strided by LX and LY, so loads coalesce) and keeps
 * their h^2 f in registers for the whole launch. Step s updates the output tile grown by
 * steps-1-s points on each side: every point it computes has neighbours that were valid after
 * step s-1, so the region shrinks by one per step and ends exactly on the output tile, which is
 * written to uout. Points on the grid's border are loaded, read as neighbours and never updated;
 * points outside the grid are never read. With KSTEPS == 1 this is the `local` variant: the tile
 * and a one-point halo in local memory, one sweep per launch.
 *
 * A launch writes the rows row_lo..row_hi of uout (1 <= row_lo <= row_hi <= ny - 2; the tiles
 * start at row_lo). Every sweep of every tile still holds rows 0 and ny - 1, and only they, fixed,
 * so a point's value after `steps` sweeps does not depend on which launch or tile computes it: a
 * strip's edge rows and its interior may come from separate launches (src/ops/poisson.c) and
 * match one launch over all rows bit for bit. */
#ifndef LX
#define LX 32
#endif
#ifndef LY
#define LY 8
#endif
#ifndef PX
#define PX 2
#endif
#ifndef PY
#define PY 8
#endif
#ifndef KSTEPS
#define KSTEPS 4
#endif
#define EX (LX * PX)
#define EY (LY * PY)
#define TX (EX - 2 * KSTEPS)
#define TY (EY - 2 * KSTEPS)
#if TX < 1 || TY < 1
#error "the tile must be wider than twice KSTEPS"
#endif

__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void poisson_jacobi_tiled(const int nx, const int ny, const int row_lo, const int row_hi,
                          const real h2, const int steps, __global const real *f,
                          __global const real *uin, __global real *uout)
{
    __local real tile[EY][EX];
    const int lx = get_local_id(0), ly = get_local_id(1);
    /* grid coordinates of the region's corner (local 0, 0); may be negative */
    const int x0 = 1 + (int)get_group_id(0) * TX - KSTEPS;
    const int y0 = row_lo + (int)get_group_id(1) * TY - KSTEPS;
    real h2f[PY][PX], next[PY][PX];

    for (int b = 0; b < PY; ++b)
        for (int a = 0; a < PX; ++a) {
            const int x = lx + a * LX, y = ly + b * LY, gx = x0 + x, gy = y0 + y;
            const int on_grid = gx >= 0 && gx < nx && gy >= 0 && gy < ny;
            const long i = (long)gy * nx + gx;
            tile[y][x] = on_grid ? uin[i] : ZERO;
            const int inner = gx >= 1 && gx <= nx - 2 && gy >= 1 && gy <= ny - 2;
            h2f[b][a] = inner ? h2 * f[i] : ZERO;
            next[b][a] = ZERO;
        }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int s = 0; s < steps; ++s) {
        const int grow = steps - 1 - s;
        const int lo = KSTEPS - grow, hix = KSTEPS + TX - 1 + grow, hiy = KSTEPS + TY - 1 + grow;
        for (int b = 0; b < PY; ++b)
            for (int a = 0; a < PX; ++a) {
                const int x = lx + a * LX, y = ly + b * LY, gx = x0 + x, gy = y0 + y;
                if (x >= lo && x <= hix && y >= lo && y <= hiy && gx >= 1 && gx <= nx - 2 &&
                    gy >= 1 && gy <= ny - 2)
                    next[b][a] = JACOBI_UPDATE(tile[y][x - 1], tile[y][x + 1], tile[y - 1][x],
                                               tile[y + 1][x], h2f[b][a]);
                else
                    next[b][a] = tile[y][x];
            }
        if (s + 1 < steps) { /* the last step's values go straight to global memory */
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int b = 0; b < PY; ++b)
                for (int a = 0; a < PX; ++a) tile[ly + b * LY][lx + a * LX] = next[b][a];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }

    for (int b = 0; b < PY; ++b)
        for (int a = 0; a < PX; ++a) {
            const int x = lx + a * LX, y = ly + b * LY, gx = x0 + x, gy = y0 + y;
            if (x >= KSTEPS && x < KSTEPS + TX && y >= KSTEPS && y < KSTEPS + TY &&
                gx <= nx - 2 && gy <= row_hi)
                uout[(long)gy * nx + gx] = next[b][a];
        }
}
#endif

#ifndef RWG
#define RWG 256 /* work-group of the reductions, a power of two */
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_poisson_residual)
/* ---- residual: partial[g] = max |f - A_h u| over rows row_lo + g, row_lo + g + G, ... up to
 * row_hi (G work-groups; interior rows, on the whole grid 1..n-2, on a strip the rows it owns),
 * interior columns, A_h u = (4 u - west - east - north - south) / h^2. Whole rows per work-group
 * keep the reads coalesced and need no division per point. ---------------------------------- */
__kernel __attribute__((reqd_work_group_size(RWG, 1, 1)))
void poisson_residual(const int nx, const int row_lo, const int row_hi, const real inv_h2,
                      __global const real *f, __global const real *u, __global real *partial)
{
    __local real best[RWG];
    const int lid = get_local_id(0);
    real m = ZERO;
    for (int row = row_lo + (int)get_group_id(0); row <= row_hi; row += (int)get_num_groups(0)) {
        const long base = (long)row * nx;
        for (int col = 1 + lid; col <= nx - 2; col += RWG) {
            const long i = base + col;
            const real au =
                ((real)4 * u[i] - u[i - 1] - u[i + 1] - u[i - nx] - u[i + nx]) * inv_h2;
            const real r = fabs(f[i] - au);
            m = MAX_NAN(r, m);
        }
    }
    best[lid] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = RWG / 2; w > 0; w /= 2) {
        if (lid < w) best[lid] = MAX_NAN(best[lid + w], best[lid]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) partial[get_group_id(0)] = best[0];
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_poisson_max_reduce)
/* ---- one work-group: result[0] = max of partial[0..count) (NaN propagates) ---------------- */
__kernel __attribute__((reqd_work_group_size(RWG, 1, 1)))
void poisson_max_reduce(const int count, __global const real *partial, __global real *result)
{
    __local real best[RWG];
    const int lid = get_local_id(0);
    real m = ZERO;
    for (int i = lid; i < count; i += RWG) m = MAX_NAN(partial[i], m);
    best[lid] = m;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = RWG / 2; w > 0; w /= 2) {
        if (lid < w) best[lid] = MAX_NAN(best[lid + w], best[lid]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) result[0] = best[0];
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_poisson_copy_border)
/* ---- dst's border = src's border: the second grid of the ping-pong gets the boundary values
 * (and a strip's outermost halo rows) on the device, so u is uploaded once. Work-item t walks
 * the border's 2 (nx - 1) + 2 (ny - 1) points. --------------------------------------------- */
__kernel void poisson_copy_border(const int nx, const int ny, __global const real *src,
                                  __global real *dst)
{
    const long wide = nx - 1, tall = ny - 1;
    const long t = get_global_id(0);
    if (t >= 2 * wide + 2 * tall) return;
    long i;
    if (t < wide) i = t;                                   /* top row, left to right */
    else if (t < wide + tall) i = (t - wide) * nx + wide;  /* right column, top to bottom */
    else if (t < 2 * wide + tall) i = (long)tall * nx + (wide - (t - wide - tall)); /* bottom */
    else i = (tall - (t - 2 * wide - tall)) * nx;          /* left column, bottom to top */
    dst[i] = src[i];
}
#endif
