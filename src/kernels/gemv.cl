/* gemv.cl: the BLAS-2 matrix-vector product on a row-major matrix A (rows x cols, row stride
 * lda): N: y[i] = alpha sum_j A[i][j] x[j] + beta y[i]; T: y[j] = alpha sum_i A[i][j] x[i] +
 * beta y[j]. The host maps column-major problems onto these with the transpose flipped (see
 * src/ops/gemv.c). y is read only when beta != 0 (GEMM_STORE), so NaN in y does not propagate.
 *
 * naive: one work-item per element of y, a plain loop (for T that loop is already coalesced:
 * neighbouring work-items read neighbouring columns). vector: for N, one work-group per row,
 * its work-items stride along the row with real4 loads and meet in group_sum (common.cl); for T,
 * work-items own 4 adjacent columns each (real4 loads along a row: coalesced), a second local
 * dimension splits the rows, and the host may split the rows further across work-groups, whose
 * partial sums gemv_t_finish adds in a fixed order. Every order is fixed, so results are
 * deterministic. */

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemv_scale)
/* y = beta y (alpha == 0 or an empty product); beta == 0 writes zeros without reading y. */
__kernel void gemv_scale(const int len, const real beta, __global real *y)
{
    const int i = get_global_id(0);
    if (i < len) y[i] = beta == ZERO ? ZERO : beta * y[i];
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemv_n_naive)
__kernel void gemv_n_naive(const int rows, const int cols, const real alpha,
                           __global const real *A, const int lda, __global const real *x,
                           const real beta, __global real *y)
{
    const int i = get_global_id(0);
    if (i >= rows) return;
    __global const real *a = A + (long)i * lda;
    real acc = ZERO;
    for (int j = 0; j < cols; ++j) acc += a[j] * x[j];
    GEMM_STORE(y[i], alpha, acc, beta);
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemv_t_naive)
__kernel void gemv_t_naive(const int rows, const int cols, const real alpha,
                           __global const real *A, const int lda, __global const real *x,
                           const real beta, __global real *y)
{
    const int j = get_global_id(0);
    if (j >= cols) return;
    real acc = ZERO;
    for (int i = 0; i < rows; ++i) acc += A[(long)i * lda + j] * x[i];
    GEMM_STORE(y[j], alpha, acc, beta);
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemv_n_vector)
/* One work-group per row (the local size a power of two for group_sum). x and y start at buffer
 * bases (16-byte aligned); rows are 16-byte aligned when lda % 4 == 0, and then read through a
 * typed pointer (one 16-byte load, where vload4 promises only element alignment and may become
 * four). Several rows per group, sharing each load of x, ran 7% slower on the H200 (4 rows:
 * docs/blas.md). */
__kernel void gemv_n_vector(const int rows, const int cols, const real alpha,
                            __global const real *A, const int lda, __global const real *x,
                            const real beta, __global real *y, __local real *buf)
{
    const int lid = get_local_id(0), ls = get_local_size(0), nv = cols / 4;
    const int row = get_group_id(0);
    __global const real4 *x4 = (__global const real4 *)x;
    __global const real *a = A + (long)row * lda;
    real4 acc4 = (real4)(ZERO);
    if ((lda & 3) == 0) { /* 16-byte rows: typed loads */
        __global const real4 *a4 = (__global const real4 *)a;
        for (int v = lid; v < nv; v += ls) acc4 += a4[v] * x4[v];
    } else {
        for (int v = lid; v < nv; v += ls) acc4 += vload4(v, a) * x4[v];
    }
    real acc = (acc4.x + acc4.y) + (acc4.z + acc4.w);
    for (int j = nv * 4 + lid; j < cols; j += ls) acc += a[j] * x[j];
    acc = group_sum(buf, acc);
    if (lid == 0) GEMM_STORE(y[row], alpha, acc, beta);
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemv_t_vector)
/* local = (LX, LY): work-item (lx, ly) owns columns c0..c0+3 (c0 = 4 (group_x LX + lx)) and rows
 * ly, ly + LY, ... of its row block [group_y chunk, (group_y + 1) chunk). buf holds LX * LY real4.
 * With one row block, the result goes to y; with several, each block's unscaled sums go to
 * partial[group_y * cols + j] for gemv_t_finish. */
__kernel void gemv_t_vector(const int rows, const int cols, const real alpha,
                            __global const real *A, const int lda, __global const real *x,
                            const real beta, __global real *y, const int chunk,
                            __global real *partial, __local real4 *buf)
{
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int LX = get_local_size(0), LY = get_local_size(1);
    const int c0 = 4 * (get_group_id(0) * LX + lx);
    const int r0 = get_group_id(1) * chunk, r1 = min(rows, r0 + chunk);
    real4 acc = (real4)(ZERO);
    if (c0 + 3 < cols && (lda & 3) == 0) { /* 16-byte aligned quads: typed loads */
        __global const real4 *a4 = (__global const real4 *)A;
        const int ld4 = lda / 4, q = c0 / 4;
        int i = r0 + ly;
        /* Four rows' loads issued before their sums (more bytes in flight per work-item), added
         * in row order: the same bits as the plain loop. */
        for (; i + 3 * LY < r1; i += 4 * LY) {
            const real4 a0 = a4[(long)i * ld4 + q], a1 = a4[(long)(i + LY) * ld4 + q];
            const real4 a2 = a4[(long)(i + 2 * LY) * ld4 + q], a3 = a4[(long)(i + 3 * LY) * ld4 + q];
            acc += a0 * x[i];
            acc += a1 * x[i + LY];
            acc += a2 * x[i + 2 * LY];
            acc += a3 * x[i + 3 * LY];
        }
        for (; i < r1; i += LY) acc += a4[(long)i * ld4 + q] * x[i];
    } else if (c0 + 3 < cols) {
        for (int i = r0 + ly; i < r1; i += LY) acc += vload4(0, A + (long)i * lda + c0) * x[i];
    } else if (c0 < cols) { /* the last, partial quad of columns */
        for (int i = r0 + ly; i < r1; i += LY) {
            __global const real *a = A + (long)i * lda + c0;
            const real xi = x[i];
            acc.x += a[0] * xi;
            if (c0 + 1 < cols) acc.y += a[1] * xi;
            if (c0 + 2 < cols) acc.z += a[2] * xi;
        }
    }
    buf[ly * LX + lx] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (ly != 0 || c0 >= cols) return;
    for (int k = 1; k < LY; ++k) acc += buf[k * LX + lx];
    const real s[4] = {acc.x, acc.y, acc.z, acc.w};
    for (int k = 0; k < 4 && c0 + k < cols; ++k) {
        if (get_num_groups(1) == 1) GEMM_STORE(y[c0 + k], alpha, s[k], beta);
        else partial[(long)get_group_id(1) * cols + c0 + k] = s[k];
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemv_t_finish)
/* y[j] = alpha (sum over the row blocks, in order) + beta y[j]. */
__kernel void gemv_t_finish(const int cols, const int splits, __global const real *partial,
                            const real alpha, const real beta, __global real *y)
{
    const int j = get_global_id(0);
    if (j >= cols) return;
    real acc = ZERO;
    for (int s = 0; s < splits; ++s) acc += partial[(long)s * cols + j];
    GEMM_STORE(y[j], alpha, acc, beta);
}
#endif
