/* lapack.cl: the small kernels of the LAPACK factorizations (src/lapack/, docs/lapack.md): the
 * unblocked leaves of the recursive LU and Cholesky and the row interchanges. Everything else the
 * factorizations do is GEMM, TRSM and SYRK. A matrix is addressed by strides: element (i, j) of
 * the block at element offset off is A[off + i * rs + j * cs] (column-major: rs 1, cs lda;
 * row-major: rs lda, cs 1), so one kernel serves both layouts. Pivots are LAPACK's: 1-based row
 * numbers of the whole matrix, in an int array whose element info_at is the call's INFO. */

#define AT(i, j) A[off + (long)(i) * rs + (long)(j) * cs]

/* The work-group's items walk [start, end): var takes start + lid, then LEAF_WG further, and so
 * on. Written as a loop whose trip count is the same for every work-item, with the bound checked
 * inside: with a loop bound that differed between work-items (i = start + lid; i < end), PoCL 3.1's
 * optimized work-group code read and wrote past end. */
#define WG_FOR(var, start, end)                                                                  \
    for (int var##_b = (start), var; var##_b < (end) && ((var = var##_b + lid), 1);            \
         var##_b += LEAF_WG)                                                                     \
        if (var < (end))

/* The work-group size of the leaves (one work-group each); the host launches exactly this. The
 * widest leaf (columns). */
#ifndef LEAF_WG
#define LEAF_WG 256
#endif
#ifndef LEAF_MAX_COLS
#define LEAF_MAX_COLS 32
#endif

/* The largest best[] and, among equal ones, the smallest at[] (idamax's first row), into element 0,
 * by a tree over the work-group (which every work-item enters; it ends on a barrier). */
void argmax_tree(__local real *best, __local int *at, const int lid)
{
    /* both fences: the callers' reads of the matrix before it are ordered before their writes
     * after it */
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (int s = LEAF_WG / 2; s > 0; s >>= 1) {
        if (lid < s) {
            real o = best[lid + s];
            int ow = at[lid + s];
            if (o > best[lid] || (o == best[lid] && ow < at[lid])) best[lid] = o, at[lid] = ow;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* An element of the pivot's column scaled by the nonzero pivot pv as LAPACK scales it: times the
 * reciprocal where pv is a normal number, else divided. */
real pivot_scaled(const real l, const real pv)
{
#if PRECISION == 64
    const real sfmin = DBL_MIN;
#else
    const real sfmin = FLT_MIN;
#endif
    return fabs(pv) >= sfmin ? l * (1 / pv) : l / pv;
}

/* Rows j and p of the block's n columns exchanged, a column a work-item. */
void swap_rows(__global real *A, const long off, const long rs, const long cs, const int n,
               const int j, const int p, const int lid)
{
    WG_FOR(c, 0, n) {
        real t = AT(j, c);
        AT(j, c) = AT(p, c);
        AT(p, c) = t;
    }
}

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_lu_leaf)
/* LU with partial pivoting of the m x n block at (r0, r0) of the matrix (rows r0.. of the whole
 * matrix, n <= m or not), LAPACK's dgetf2: for each of its min(m, n) columns j the row of the
 * largest magnitude (the first such, as idamax) is swapped in across the block's n columns
 * (lu_perm applies the leaf's interchanges to the rest of the rows) and recorded as
 * piv[r0 + j] = r0 + p + 1; a nonzero pivot scales the column below it (by its reciprocal where
 * that is a normal number, as LAPACK), a zero one sets INFO to r0 + j + 1 if it is still 0 and the
 * column is left as it is; then the rank-1 update of the rest of the block. */
__kernel __attribute__((reqd_work_group_size(LEAF_WG, 1, 1)))
void lu_leaf(const int m, const int n, __global real *A, const long off, const long rs,
             const long cs, __global int *piv, const int r0, const int info_at)
{
    __local real best[LEAF_WG];
    __local int where[LEAF_WG];
    const int lid = get_local_id(0);
    const int kmax = min(m, n);
    for (int j = 0; j < kmax; j++) {
        real b = -1;
        int w = j;
        WG_FOR(i, j, m) {
            real v = fabs(AT(i, j));
            if (v > b) b = v, w = i; /* rows rise within a work-item: the first largest stays */
        }
        best[lid] = b;
        where[lid] = w;
        argmax_tree(best, where, lid);
        /* The decision and the pivot row come from local memory (the same for every work-item);
         * the signed pivot is read only after the exchange, from row j. */
        const int p = where[0];
        const real mag = best[0];
        if (lid == 0) piv[r0 + j] = r0 + p + 1;
        if (mag != ZERO && p != j) swap_rows(A, off, rs, cs, n, j, p, lid);
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        if (mag != ZERO) {
            const real pv = AT(j, j);
            WG_FOR(i, j + 1, m) AT(i, j) = pivot_scaled(AT(i, j), pv);
        } else if (lid == 0 && piv[info_at] == 0) {
            piv[info_at] = r0 + j + 1;
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        for (int c = j + 1; c < n; c++) {
            const real u = AT(j, c);
            WG_FOR(i, j + 1, m) AT(i, c) -= AT(i, j) * u;
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_lu_col)
/* One task of lu_col: step j (0 .. n) of row block g (rows g LEAF_WG .., one a work-item) of the
 * m x n block at (r0, r0), n <= m. Step j > 0 picks the pivot p of column j - 1 from step j - 1's
 * G candidates (every task the same one: the largest, the first row among equal ones, as idamax),
 * records it in piv (INFO for a zero pivot, as lu_leaf), exchanges rows j - 1 and p across the
 * block's n columns (lu_perm: the rest of the rows) and finishes column j - 1 on its rows (the
 * scaling by the pivot and the rank-1 update of columns j ..). Step j < n then gives the block's
 * largest magnitude of column j among its rows at or below j, the first row holding it, and that
 * row's n values, for step j + 1.
 *
 * No task reads a row of A that another task of its step writes: the pivot row comes from the
 * copy of the winning candidate (cand), row j - 1's values, which move to row p, from the copy
 * that its block made (rowj), and the exchanged rows are each written by the work-item that owns
 * them. The copies alternate between two halves (parity j & 1), written in one step and read in
 * the next. scratch holds part[2][G], rowj[2][LEAF_MAX_COLS], cand[2][G][LEAF_MAX_COLS]; where is
 * int[2][G]. */
void lu_col_step(const int m, const int n, __global real *A, const long off, const long rs,
                 const long cs, const int j, const int g, const int G, __global real *scratch,
                 __global int *where, __global int *piv, const int r0, const int info_at,
                 __local real *u, __local real *best, __local int *at)
{
    __global real *part = scratch, *rowj = scratch + 2 * G, *cand = rowj + 2 * LEAF_MAX_COLS;
    const int lid = get_local_id(0), i = g * LEAF_WG + lid;
    /* the work-item's row, loaded once (every load issued before the first store: a store to A
     * and a later load from it are not reordered by the compiler, which cannot prove them apart)
     * and kept in registers through the step's update for its candidate */
    real x[LEAF_MAX_COLS];
    if (j == 0) {
#pragma unroll
        for (int c = 0; c < LEAF_MAX_COLS; c++) x[c] = c < n && i < m ? AT(i, c) : ZERO;
    } else {
        const int qp = (j - 1) & 1;
        /* the row guard inside each statement, not around the loops (see WG_FOR) */
        const int mine = i < m && i >= j - 1;
        real b = -1;
        int w = INT_MAX;
        WG_FOR(t, 0, G) {
            real o = part[qp * G + t];
            int ow = where[qp * G + t];
            if (o > b || (o == b && ow < w)) b = o, w = ow;
        }
        best[lid] = b;
        at[lid] = w;
        argmax_tree(best, at, lid);
        const int p = at[0];
        const real mag = best[0];
        __global const real *pr = cand + (qp * G + p / LEAF_WG) * LEAF_MAX_COLS;
        WG_FOR(c, 0, n) u[c] = pr[c];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (g == 0 && lid == 0) {
            piv[r0 + j - 1] = r0 + p + 1;
            if (mag == ZERO && piv[info_at] == 0) piv[info_at] = r0 + j;
        }
        __global const real *old = rowj + qp * LEAF_MAX_COLS; /* row j - 1 before the exchange */
        const int top = i == j - 1, moved = i == p && !top;
#pragma unroll
        for (int c = 0; c < LEAF_MAX_COLS; c++)
            x[c] = c < n && mine ? (moved ? old[c] : AT(i, c)) : ZERO; /* all n: the copies */
        const real pv = u[j - 1];
        real l = ZERO;
#pragma unroll
        for (int c = 0; c < LEAF_MAX_COLS; c++)
            if (c == j - 1) l = x[c];
        if (pv != ZERO) l = pivot_scaled(l, pv);
#pragma unroll
        for (int c = 0; c < LEAF_MAX_COLS; c++) {
            if (c == j - 1) x[c] = l;
            else if (c >= j) x[c] -= l * u[c < n ? c : 0];
            if (top) x[c] = u[c < n ? c : 0];
        }
#pragma unroll
        for (int c = 0; c < LEAF_MAX_COLS; c++)
            if (c < n && mine && (moved || (top ? p != i : c >= j - 1))) AT(i, c) = x[c];
    }
    if (j >= n) return;
    const int q = j & 1, cand_row = i < m && i >= j;
    real xj = ZERO;
#pragma unroll
    for (int c = 0; c < LEAF_MAX_COLS; c++)
        if (c == j) xj = x[c];
    best[lid] = cand_row ? fabs(xj) : -1;
    at[lid] = cand_row ? i : INT_MAX;
    argmax_tree(best, at, lid);
    if (lid == 0) part[q * G + g] = best[0], where[q * G + g] = at[0];
    const int win = cand_row && i == at[0], jrow = i < m && i == j;
#pragma unroll
    for (int c = 0; c < LEAF_MAX_COLS; c++) {
        if (c < n && win) cand[(q * G + g) * LEAF_MAX_COLS + c] = x[c];
        if (c < n && jrow) rowj[q * LEAF_MAX_COLS + c] = x[c];
    }
}

/* The `columns` variant of the leaf: lu_leaf's arithmetic over G = ceil(m / LEAF_WG) row blocks,
 * in one launch. Its (n + 1) G tasks (lu_col_step: step j of block g is ticket j G + g) are
 * taken in ticket order from ctr[0] by however many groups run; a task of step j waits until
 * ctr[1], the tasks done, reaches j G (group_wait, common.cl): tasks done always include every
 * one of the steps before the latest one done, since each waited on them. So a task waits only on
 * tasks of earlier tickets, held by groups already running, and any number of groups makes
 * progress. The last group out sets ctr[0 .. 2] back to zero for the next launch. */
__kernel __attribute__((reqd_work_group_size(LEAF_WG, 1, 1)))
void lu_col(const int m, const int n, __global real *A, const long off, const long rs,
            const long cs, const int G, __global real *scratch, __global int *where,
            __global int *piv, const int r0, const int info_at, volatile __global int *ctr)
{
    __local real u[LEAF_MAX_COLS];
    __local real best[LEAF_WG];
    __local int at[LEAF_WG];
    __local int task;
    const int lid = get_local_id(0), total = (n + 1) * G;
    for (;;) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) task = atomic_inc(ctr);
        barrier(CLK_LOCAL_MEM_FENCE);
        const int t = task;
        if (t >= total) break;
        const int j = t / G;
        group_wait(ctr + 1, j * G);
        lu_col_step(m, n, A, off, rs, cs, j, t - j * G, G, scratch, where, piv, r0, info_at, u,
                    best, at);
        group_signal(ctr + 1);
    }
    if (lid == 0 && atomic_inc(ctr + 2) == (int)get_num_groups(0) - 1)
        for (int z = 0; z < 3; ++z) atomic_xchg(ctr + z, 0);
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_lu_perm)
/* The n interchanges of a leaf (piv[r0 .. r0 + n), n <= LEAF_MAX_COLS; rows of the whole matrix)
 * on the columns beside it: the left ones left of the block at off (element (0, 0) the leaf's top
 * left, row r0 and column r0 of the matrix), the right ones right of its n columns, a column a
 * work-item. dlaswp's chain of exchanges is one permutation of at most 2n rows: each group works
 * it out in local memory (the rows it moves and the row each one's new value comes from), then a
 * work-item loads those rows' elements of its column, all at once, and stores them moved. */
__kernel void lu_perm(const int n, __global real *A, const long off, const long rs, const long cs,
                      __global const int *piv, const int r0, const int left, const int right)
{
    __local int dst[2 * LEAF_MAX_COLS], src[2 * LEAF_MAX_COLS], count;
    if (get_local_id(0) == 0) {
        int k = 0;
        for (int t = 0; t < n; t++) {
            const int p = piv[r0 + t] - 1 - r0;
            int a = -1, b = -1;
            for (int e = 0; e < k; e++) {
                if (dst[e] == t) a = e;
                if (dst[e] == p) b = e;
            }
            if (a < 0) dst[k] = src[k] = t, a = k++;
            if (b < 0) dst[k] = src[k] = p, b = k++;
            const int v = src[a];
            src[a] = src[b], src[b] = v;
        }
        count = k;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int e = get_global_id(0), k = count;
    if (e >= left + right) return;
    const int c = e < left ? e - left : n + e - left;
    real v[2 * LEAF_MAX_COLS];
#pragma unroll
    for (int r = 0; r < 2 * LEAF_MAX_COLS; r++) v[r] = r < k ? AT(src[r], c) : ZERO;
#pragma unroll
    for (int r = 0; r < 2 * LEAF_MAX_COLS; r++)
        if (r < k && src[r] != dst[r]) AT(dst[r], c) = v[r];
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_lu_swap)
/* LAPACK's dlaswp on ncols columns of the block at off: for k = k1 .. k2 - 1 (k2 - 1 down to k1
 * when back), rows k and piv[k] - 1 exchanged (row numbers of the whole matrix, whose row 0 the
 * block's row 0 is). One work-item per column. */
__kernel void lu_swap(const int ncols, __global real *A, const long off, const long rs,
                      const long cs, __global const int *piv, const int k1, const int k2,
                      const int back)
{
    const int c = get_global_id(0);
    if (c >= ncols) return;
    for (int t = 0; t < k2 - k1; t++) {
        const int k = back ? k2 - 1 - t : k1 + t;
        const int p = piv[k] - 1;
        if (p != k) {
            real v = AT(k, c);
            AT(k, c) = AT(p, c);
            AT(p, c) = v;
        }
    }
}
#endif

/* The lower triangle of the n x n block at off (n <= LEAF_MAX_COLS) into the local L, by the
 * work-group. A block, not a function or a do-while: PoCL 3.1's unoptimized work-group code
 * got both wrong around the barrier (a local array passed to a function, a barrier inside a
 * loop that runs once). */
#define CHOL_LOAD(L, off)                                                                        \
    {                                                                                            \
        WG_FOR(t, 0, LEAF_MAX_COLS * LEAF_MAX_COLS) {                                            \
            const int i = t % LEAF_MAX_COLS, c = t / LEAF_MAX_COLS;                              \
            if (i < n && c <= i) L[i][c] = A[(off) + (long)i * rs + (long)c * cs];               \
        }                                                                                        \
        barrier(CLK_LOCAL_MEM_FENCE);                                                            \
    }

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_chol_diag)
/* Cholesky A = L L^T of the n x n diagonal block at off (n <= LEAF_MAX_COLS; its lower triangle
 * read and written; the block starts at row j0 of the whole matrix), in local memory by one
 * work-group: right-looking, one barrier a column (the columns right of j updated by column j
 * unscaled over its diagonal, every factored column scaled by the reciprocal of its diagonal's
 * square root at the end). A diagonal element that is not positive (or not a number) stops it:
 * INFO = j0 + j + 1 and the block keeps the columns before j factored and j's diagonal the
 * non-positive value, as LAPACK's dpotf2 leaves them. A block that finds INFO already set does
 * nothing (an earlier block failed: LAPACK stops there). */
__kernel __attribute__((reqd_work_group_size(LEAF_WG, 1, 1)))
void chol_diag(const int n, __global real *A, const long off, const long rs, const long cs,
               __global int *piv, const int j0, const int info_at)
{
    __local real L[LEAF_MAX_COLS][LEAF_MAX_COLS + 1];
    __local real root[LEAF_MAX_COLS];
    const int lid = get_local_id(0);
    const int nn = LEAF_MAX_COLS * LEAF_MAX_COLS;
    if (piv[info_at] != 0) return;
    CHOL_LOAD(L, off)
    /* every work-item reads the same diagonal: bad is the same for all (no break out of a loop
     * with a barrier: PoCL 3.1's work-group code got that wrong) */
    int bad = n;
    for (int j = 0; j < n; j++) {
        const real d = L[j][j];
        if (bad == n && !(d > ZERO)) bad = j;
        if (bad == n) {
            const real rd = 1 / d;
            WG_FOR(t, 0, nn) {
                const int i = t % LEAF_MAX_COLS, c = t / LEAF_MAX_COLS;
                if (c > j && i >= c && i < n) L[i][c] -= L[i][j] * rd * L[c][j];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid < bad) root[lid] = sqrt(L[lid][lid]);
    barrier(CLK_LOCAL_MEM_FENCE);
    WG_FOR(t, 0, nn) {
        const int i = t % LEAF_MAX_COLS, c = t / LEAF_MAX_COLS;
        if (i < n && c <= i) AT(i, c) = c >= bad ? L[i][c] : i == c ? root[c] : L[i][c] * (1 / root[c]);
    }
    barrier(CLK_GLOBAL_MEM_FENCE); /* every work-item has read INFO */
    if (lid == 0 && bad < n) piv[info_at] = j0 + bad + 1;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_chol_solve)
/* The rows below a factored diagonal block: the m x n block at off (n <= LEAF_MAX_COLS) times
 * L11^-T, L11 the n x n lower triangle at off11, by substitution (one row a work-item, in the
 * order of the reference dtrsm: each column scaled by the reciprocal of L11's diagonal element,
 * then taken from the columns after it). Nothing where INFO is set (the block failed). */
__kernel __attribute__((reqd_work_group_size(LEAF_WG, 1, 1)))
void chol_solve(const int m, const int n, __global real *A, const long off, const long off11,
                const long rs, const long cs, __global const int *piv, const int info_at)
{
    __local real L[LEAF_MAX_COLS][LEAF_MAX_COLS + 1];
    const int lid = get_local_id(0);
    if (piv[info_at] != 0) return;
    CHOL_LOAD(L, off11)
    const int i = get_global_id(0);
    const int mine = i < m;
    real x[LEAF_MAX_COLS];
#pragma unroll
    for (int c = 0; c < LEAF_MAX_COLS; c++) x[c] = mine && c < n ? AT(i, c) : ZERO;
#pragma unroll
    for (int c = 0; c < LEAF_MAX_COLS; c++) {
        if (c < n) {
            const real v = x[c] * (1 / L[c][c]);
            x[c] = v;
#pragma unroll
            for (int k = c + 1; k < LEAF_MAX_COLS; k++)
                if (k < n) x[k] -= v * L[k][c];
        }
    }
#pragma unroll
    for (int c = 0; c < LEAF_MAX_COLS; c++)
        if (mine && c < n) AT(i, c) = x[c];
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_lp_d2s)
/* The mixed-precision solvers' conversion to single (LAPACK's dlag2s): dst = (float) src over
 * count elements; an element beyond float's range sets *overflow (the solver then factors in
 * double, as dsgesv does). Built with PRECISION 64. */
__kernel void lp_d2s(const long count, __global const double *src, __global float *dst,
                     __global int *overflow)
{
    const long i = get_global_id(0);
    if (i >= count) return;
    const double v = src[i];
    if (fabs(v) > FLT_MAX) *overflow = 1;
    dst[i] = (float)v;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_lp_s2d)
/* dst = (double) src (add 0) or dst + (double) src (add 1) over count elements: the refinement's
 * X from the single solve, and its correction (dlag2d, daxpy). Built with PRECISION 64. */
__kernel void lp_s2d(const long count, __global const float *src, __global double *dst,
                     const int add)
{
    const long i = get_global_id(0);
    if (i >= count) return;
    dst[i] = add ? dst[i] + (double)src[i] : (double)src[i];
}
#endif

/* The sum (sum_tree) or the largest (max_tree) of v over the work-group, returned to every
 * work-item, by a tree in red (LEAF_WG elements). It starts on a barrier with both fences (the
 * callers' reads and writes of the matrix before it are ordered before theirs after it) and ends
 * on one. */
real sum_tree(__local real *red, const real v, const int lid)
{
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    red[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = LEAF_WG / 2; s > 0; s >>= 1) {
        if (lid < s) red[lid] += red[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const real r = red[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
real max_tree(__local real *red, const real v, const int lid)
{
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    red[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = LEAF_WG / 2; s > 0; s >>= 1) {
        if (lid < s) red[lid] = fmax(red[lid], red[lid + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const real r = red[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}

/* The scaled sum of squares of the work-group's values (LAPACK's dlassq pairs): each work-item
 * gives (big, ss) with its values' sum of squares ss big^2, every work-item gets the group's; a
 * pair merges as (max, ss1 (big1 / max)^2 + ss2 (big2 / max)^2), so no square overflows or
 * underflows. One tree; starts on a barrier with both fences, ends on one. */
void norm_tree(__local real *rb, __local real *rs2, real *big, real *ss, const int lid)
{
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    rb[lid] = *big;
    rs2[lid] = *ss;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = LEAF_WG / 2; s > 0; s >>= 1) {
        if (lid < s) {
            const real b1 = rb[lid], b2 = rb[lid + s], b = fmax(b1, b2);
            if (b != ZERO) {
                const real r1 = b1 / b, r2 = b2 / b;
                rs2[lid] = rs2[lid] * r1 * r1 + rs2[lid + s] * r2 * r2;
            } else {
                rs2[lid] += rs2[lid + s];
            }
            rb[lid] = b;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    *big = rb[0];
    *ss = rs2[0];
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* The columns a batch of qr_col_reflect's work-group sums (its local memory: QR_BATCH x LEAF_WG
 * values). */
#ifndef QR_BATCH
#define QR_BATCH 8
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_qr_leaf)
/* Householder QR of the m x n block at off (n <= LEAF_MAX_COLS), LAPACK's dgeqr2: for each of
 * its min(m, n) columns j the reflector H = I - tau v v^T (dlarfg: v(0) = 1, v below the
 * diagonal stored there, beta = -sign(alpha) ||(alpha, x)|| on the diagonal; tau = 0 where x is
 * zero) into tau[t0 + j], then H applied to the block's columns right of j. The norm is taken
 * relative to the column's largest magnitude, and alpha and beta relative to the larger of it and
 * |alpha|, so neither squares nor their reciprocals overflow or lose digits to underflow. */
__kernel __attribute__((reqd_work_group_size(LEAF_WG, 1, 1)))
void qr_leaf(const int m, const int n, __global real *A, const long off, const long rs,
             const long cs, __global real *tau, const int t0)
{
    __local real red[LEAF_WG];
    const int lid = get_local_id(0);
    const int kmax = min(m, n);
    for (int j = 0; j < kmax; j++) {
        real xm = ZERO;
        WG_FOR(i, j + 1, m) xm = fmax(xm, fabs(AT(i, j)));
        xm = max_tree(red, xm, lid);
        const real alpha = AT(j, j);
        real t = ZERO;
        if (xm != ZERO) {
            real ss = ZERO;
            WG_FOR(i, j + 1, m) {
                const real x = AT(i, j) / xm;
                ss += x * x;
            }
            ss = sum_tree(red, ss, lid);
            const real s = fmax(xm, fabs(alpha));
            const real as = alpha / s, xs = xm / s * sqrt(ss);
            const real bs = -copysign(hypot(as, xs), as);
            t = (bs - as) / bs;
            const real d = as - bs; /* |d| >= |as|: no overflow in 1 / d */
            WG_FOR(i, j + 1, m) AT(i, j) = AT(i, j) / s / d;
            barrier(CLK_GLOBAL_MEM_FENCE); /* every work-item has read alpha */
            if (lid == 0) AT(j, j) = bs * s;
        }
        if (lid == 0) tau[t0 + j] = t;
        if (t != ZERO) {
            for (int c = j + 1; c < n; c++) {
                real p = ZERO;
                WG_FOR(i, j + 1, m) p += AT(i, j) * AT(i, c);
                p = sum_tree(red, p, lid);
                const real w = t * (AT(j, c) + p);
                barrier(CLK_GLOBAL_MEM_FENCE); /* every work-item has read A(j, c) */
                if (lid == 0) AT(j, c) -= w;
                WG_FOR(i, j + 1, m) AT(i, c) -= AT(i, j) * w;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_qr_vcopy)
/* The m x k matrix V of k reflectors stored below the diagonal of the block at off (unit lower
 * trapezoidal: ones on the diagonal, zeros above), written whole to V at voff with strides vrs,
 * vcs, for the GEMMs of the block reflector. One work-item an element. */
__kernel void qr_vcopy(const int m, const int k, __global const real *A, const long off,
                       const long rs, const long cs, __global real *V, const long voff,
                       const long vrs, const long vcs)
{
    const int i = get_global_id(0), j = get_global_id(1);
    if (i >= m || j >= k) return;
    V[voff + i * vrs + j * vcs] = i > j ? AT(i, j) : i == j ? (real)1 : ZERO;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_qr_larft)
/* The k x k upper triangular T of the block reflector H(0) ... H(k-1) = I - V T V^T (LAPACK's
 * dlarft, forward, columnwise) from the Gram matrix G = V^T V (k x k at goff, strides grs, gcs)
 * and tau[t0 ..]: T(i, i) = tau(i), T(0:i, i) = -tau(i) T(0:i, 0:i) G(0:i, i), zeros below the
 * diagonal (T is read whole by GEMM). One work-group; work-item r owns T's rows r, r + LEAF_WG,
 * ..., which is all the recurrence reads of T, so no barrier is needed. */
__kernel __attribute__((reqd_work_group_size(LEAF_WG, 1, 1)))
void qr_larft(const int k, __global const real *G, const long goff, const long grs,
              const long gcs, __global const real *tau, const int t0, __global real *T,
              const long toff, const long trs, const long tcs)
{
    const int lid = get_local_id(0);
    for (int i = 0; i < k; i++) {
        const real ti = tau[t0 + i];
        WG_FOR(r, 0, k) {
            real v = ZERO;
            if (r < i) {
                real acc = ZERO;
                for (int c = r; c < i; c++)
                    acc += T[toff + r * trs + c * tcs] * G[goff + c * grs + i * gcs];
                v = -ti * acc;
            } else if (r == i) {
                v = ti;
            }
            T[toff + r * trs + i * tcs] = v;
        }
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_lp_diag_info)
/* INFO = the first i (1-based) whose diagonal element of the n x n block at off is exactly zero,
 * where INFO is still 0 (LAPACK's dtrtrs check before a triangular solve). One work-group. */
__kernel __attribute__((reqd_work_group_size(LEAF_WG, 1, 1)))
void lp_diag_info(const int n, __global const real *A, const long off, const long rs,
                  const long cs, __global int *piv, const int info_at)
{
    __local real red[LEAF_WG];
    const int lid = get_local_id(0);
    real first = (real)n;
    WG_FOR(i, 0, n) if (AT(i, i) == ZERO) first = fmin(first, (real)i);
    first = -max_tree(red, -first, lid);
    if (lid == 0 && first < (real)n && piv[info_at] == 0) piv[info_at] = (int)first + 1;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_lp_zero)
/* The m x n block at off set to zero (LAPACK's dlaset with zeros). One work-item an element. */
__kernel void lp_zero(const int m, const int n, __global real *A, const long off, const long rs,
                      const long cs)
{
    const int i = get_global_id(0), j = get_global_id(1);
    if (i < m && j < n) AT(i, j) = ZERO;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_lp_trap_nonzero)
/* flag[at] = 1 where an element of the upper trapezoid (i <= j) of the m x n block at off is not
 * zero (every such work-item stores the same value): whether a triangular factor is all zero,
 * which it is exactly when the factored matrix was. One work-item an element. */
__kernel void lp_trap_nonzero(const int m, const int n, __global const real *A, const long off,
                              const long rs, const long cs, __global int *flag, const int at)
{
    const int i = get_global_id(0), j = get_global_id(1);
    if (i < m && j < n && i <= j && AT(i, j) != ZERO) flag[at] = 1;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_lp_mirror)
/* The n x n block at off made symmetric from its lower (lower 1) or upper triangle: the other
 * triangle overwritten by its mirror image (dsposv's residual reads A whole). */
__kernel void lp_mirror(const int m, const int n, __global real *A, const long off, const long rs,
                        const long cs, const int lower)
{
    const int i = get_global_id(0), j = get_global_id(1);
    if (i < m && j < n && i < j) {
        if (lower)
            AT(i, j) = AT(j, i);
        else
            AT(j, i) = AT(i, j);
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_qr_col_update) || defined(ONLY_qr_col_reflect)
/* The norm of a column from the groups' parts: part[2 g] the largest magnitude among group g's
 * elements, part[2 g + 1] the sum of their squares relative to it; combined relative to the
 * largest of all, so that no square overflows or underflows. */
real qr_col_norm(__global const real *part, const int nparts, real *largest)
{
    real big = ZERO, ss = ZERO;
    for (int g = 0; g < nparts; g++) big = fmax(big, part[2 * g]);
    for (int g = 0; big != ZERO && g < nparts; g++) {
        const real r = part[2 * g] / big;
        ss += r * r * part[2 * g + 1];
    }
    *largest = big;
    return big * sqrt(ss);
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_qr_col_update)
/* The `columns` variant of the QR leaf (qr_leaf's arithmetic over many work-groups, two launches
 * a column), step j of the m x n block at off: for j >= 0 (after qr_col_reflect(j)) the reflector
 * of column j applied to the columns right of it on rows below j: w(c) = tau (A(j, c) + the
 * groups' v^T A(:, c) in pw), A(i, c) -= v(i) w(c); w into wrow (qr_col_reflect's tail) for
 * row j, which
 * qr_col_reflect(j + 1) updates (every group reads row j here). Then the parts of column j + 1's
 * norm below its diagonal into pn. Work-group g takes row j + 1 + g LEAF_WG + lid. */
__kernel __attribute__((reqd_work_group_size(LEAF_WG, 1, 1)))
void qr_col_update(const int m, const int n, __global real *A, const long off, const long rs,
                   const long cs, const int j, __global const real *tau, const int t0,
                   __global const real *pw, const int nparts, __global real *wrow,
                   __global real *pn)
{
    /* wrow: the first LEAF_MAX_COLS elements of the tail qr_col_reflect reads */
    __local real w[LEAF_MAX_COLS];
    __local real red[LEAF_WG], red2[LEAF_WG];
    const int lid = get_local_id(0), g = get_group_id(0);
    const int i = j + 1 + g * LEAF_WG + lid;
    const int mine = i < m;
    if (j >= 0) {
        const real t = tau[t0 + j];
        WG_FOR(c, j + 1, n) {
            real s = AT(j, c);
            for (int q = 0; q < nparts; q++) s += pw[q * LEAF_MAX_COLS + c];
            w[c] = t * s;
            if (g == 0) wrow[c] = t * s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t != ZERO) {
            /* the row into registers before the first store (see lu_col) */
            const real v = mine ? AT(i, j) : ZERO;
            real x[LEAF_MAX_COLS];
#pragma unroll
            for (int c = 0; c < LEAF_MAX_COLS; c++)
                x[c] = mine && c > j && c < n ? AT(i, c) : ZERO;
#pragma unroll
            for (int c = 0; c < LEAF_MAX_COLS; c++)
                if (mine && c > j && c < n) AT(i, c) = x[c] - v * w[c];
        }
    }
    if (j + 1 >= min(m, n)) return;
    /* column j + 1 below its diagonal: rows from j + 2 */
    const real x = mine && i >= j + 2 ? AT(i, j + 1) : ZERO;
    real big = fabs(x), ss = big != ZERO ? (real)1 : ZERO;
    norm_tree(red, red2, &big, &ss, lid);
    if (lid == 0) pn[2 * g] = big, pn[2 * g + 1] = ss;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_qr_col_reflect)
/* Step j of the columns variant: the reflector of column j from the norm's parts pn (every group
 * computes the same beta and tau from the same parts in the same order): its rows below j scaled
 * into v, tau[t0 + j] (group 0), and the groups' parts of v^T A(:, c) for the columns right of j
 * into pw. Group 0 also finishes row j - 1 (its update by wrow, beta on its diagonal from
 * betas), which no group reads here. j = min(m, n): only that. */
__kernel __attribute__((reqd_work_group_size(LEAF_WG, 1, 1)))
void qr_col_reflect(const int m, const int n, __global real *A, const long off, const long rs,
                    const long cs, const int j, __global real *tau, const int t0,
                    __global const real *pn, const int nparts, __global real *pw,
                    __global real *tail)
{
    /* tail: qr_col_update's w of row j - 1, then the betas */
    __global const real *wrow = tail;
    __global real *betas = tail + LEAF_MAX_COLS;
    __local real dots[QR_BATCH][LEAF_WG];
    const int lid = get_local_id(0), g = get_group_id(0);
    if (g == 0 && j > 0) {
        WG_FOR(c, j, n) AT(j - 1, c) -= wrow[c];
        if (lid == 0) AT(j - 1, j - 1) = betas[j - 1];
    }
    if (j >= min(m, n)) return;
    const int i = j + 1 + g * LEAF_WG + lid;
    const int mine = i < m;
    real big;
    const real xnorm = qr_col_norm(pn, nparts, &big);
    const real alpha = AT(j, j);
    real t = ZERO, beta = alpha, scale = ZERO;
    if (xnorm != ZERO) {
        const real s = fmax(big, fabs(alpha));
        const real as = alpha / s, xs = xnorm / s;
        const real bs = -copysign(hypot(as, xs), as);
        t = (bs - as) / bs;
        scale = as - bs;
        beta = bs * s;
        if (mine) AT(i, j) = AT(i, j) / s / scale;
    }
    if (g == 0 && lid == 0) tau[t0 + j] = t, betas[j] = beta;
    const real v = mine ? AT(i, j) : ZERO;
    real x[LEAF_MAX_COLS];
#pragma unroll
    for (int c = 0; c < LEAF_MAX_COLS; c++)
        x[c] = t != ZERO && mine && c > j && c < n ? v * AT(i, c) : ZERO;
    /* the work-group's sums of x[c], QR_BATCH columns at a time: each column's LEAF_WG values
     * summed by LEAF_WG / QR_BATCH work-items, QR_BATCH of them each, then a tree */
    const int per = LEAF_WG / QR_BATCH, col = lid / per, k = lid % per;
#pragma unroll
    for (int c0 = 0; c0 < LEAF_MAX_COLS; c0 += QR_BATCH) {
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int b = 0; b < QR_BATCH; b++)
            dots[b][lid] = x[c0 + b];
        barrier(CLK_LOCAL_MEM_FENCE);
        real acc = ZERO;
        for (int e = 0; e < QR_BATCH; e++)
            acc += dots[col][k * QR_BATCH + e];
        barrier(CLK_LOCAL_MEM_FENCE);
        dots[col][k] = acc;
        for (int h = per / 2; h > 0; h >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (k < h) dots[col][k] += dots[col][k + h];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < QR_BATCH && c0 + lid > j && c0 + lid < n)
            pw[g * LEAF_MAX_COLS + c0 + lid] = dots[lid][0];
    }
}
#endif
