#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_tri_inv2x)
/* l3_tri_inv64 and the first doubling level in one work-group: blocks of 2h (h at most 64; the
 * last one ragged), each the inverse of its two sub-blocks of h, inverted side by side by 256
 * items each (as l3_tri_inv64, but L's column of the step loaded into local memory a step ahead:
 * two blocks of L would not fit double's 48 KB), then inv21 = -inv22 A21 inv11 through inv11 and
 * T = A21 inv11 in local memory (512 items, 8 columns of a row each). Arguments as l3_tri_inv64's
 * with nb = h; X's block b at D + (b / per) ldd ldd + (b % per) 2h (ldd + 1). It saves the
 * doubling's two launches of that level (a launch is 7-12 us on the H100 however small). */
__attribute__((reqd_work_group_size(512, 1, 1)))
__kernel void l3_tri_inv2x(const int n, const int h, __global const real *A, const long a_off,
                           const int a_rs, const int a_cs, const int lower, const int unit,
                           __global real *D, const int ldd, const int per, const int zspan)
{
    const int b = get_group_id(0), tid = get_local_id(0);
    const int b0 = b * 2 * h;
    const int r = min(2 * h, n - b0), r0 = min(h, r), r1 = r - r0;
    __global const real *T = A + a_off + (long)b0 * a_rs + (long)b0 * a_cs;
    __global real *X = D + (long)(b / per) * ldd * ldd + (long)(b % per) * 2 * h * (ldd + 1);
    __local real lc[3][2][64], xi[2][2][64], dinv[2][64], big[64][65];
#define LEL(i, l)                                                                              \
    (lower ? T[(long)(i) * a_rs + (long)(l) * a_cs]                                            \
           : T[(long)(r - 1 - (i)) * a_rs + (long)(r - 1 - (l)) * a_cs])
#define XEL(i, j) X[lower ? (long)(i) * ldd + (j) : (long)(r - 1 - (i)) * ldd + (r - 1 - (j))]
    if (zspan > 0) { /* as l3_tri_inv: this block's rows of its zspan block's other triangle */
        const int z0 = b0 / zspan * zspan, z1 = min(n, z0 + zspan);
        const int c0 = lower ? b0 + r : z0, w = lower ? z1 - b0 - r : b0 - z0;
        __global real *Z = D + (long)b0 * (ldd + 1) + (c0 - b0);
        for (int i = tid / 64; i < r; i += 8)
            for (int j = tid % 64; j < w; j += 64) Z[(long)i * ldd + j] = ZERO;
    }
    /* the block's upper part beside the sub-blocks: rows [0, r0), columns [h, r) */
    for (int e = tid; e < r0 * r1; e += 512) XEL(e / r1, h + e % r1) = ZERO;
    /* phase 1: sub-block q (rows and columns [o, o + rq)) by items q * 256 + (row, quarter) */
    const int q = tid / 256, t = tid % 256, row = t / 4, c0 = (t % 4) * 16;
    const int o = q * h, rq = q ? r1 : r0;
    real x[16];
#pragma unroll
    for (int u = 0; u < 16; ++u) x[u] = c0 + u == row ? (real)1 : ZERO;
    if (t < rq) dinv[q][t] = unit ? (real)1 : (real)1 / LEL(o + t, o + t);
    if (c0 == 0) lc[0][q][row] = row > 0 && row < rq ? LEL(o + row, o) : ZERO;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < h; ++i) {
        if (row == i && i < rq) {
            const real d = dinv[q][i];
#pragma unroll
            for (int u = 0; u < 16; ++u) {
                x[u] *= d;
                xi[i & 1][q][c0 + u] = x[u];
            }
        }
        if (c0 == 0 && i + 1 < h) /* the next step's column, three buffers apart */
            lc[(i + 1) % 3][q][row] = row > i + 1 && row < rq ? LEL(o + row, o + i + 1) : ZERO;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (row > i && row < rq) {
            const real f = lc[i % 3][q][row];
#pragma unroll
            for (int u = 0; u < 16; ++u) x[u] = fma(-f, xi[i & 1][q][c0 + u], x[u]);
        }
    }
    if (row < rq) {
#pragma unroll
        for (int u = 0; u < 16; ++u)
            if (c0 + u < rq) XEL(o + row, o + c0 + u) = x[u];
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    /* phase 2: T = A21 inv11 (r1 x r0), then inv21 = -inv22 T; item (rr, 8 columns from cc).
     * With one sub-block (r1 = 0) every item passes through doing nothing: a return here, the
     * same for every item, made PoCL 3.1 corrupt results in about half the runs. */
    for (int e = tid; e < 64 * 64; e += 512) {
        const int k = e / 64, c = e % 64;
        big[k][c] = k < r0 && c < r0 ? XEL(k, c) : ZERO; /* inv11 */
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int rr = tid / 8, cc = (tid % 8) * 8;
    real acc[8];
#pragma unroll
    for (int v = 0; v < 8; ++v) acc[v] = ZERO;
    if (rr < r1)
        for (int k = 0; k < r0; ++k) {
            const real a21 = LEL(h + rr, k);
#pragma unroll
            for (int v = 0; v < 8; ++v) acc[v] = fma(a21, big[k][cc + v], acc[v]);
        }
    barrier(CLK_LOCAL_MEM_FENCE); /* inv11 read by every item: T replaces it */
#pragma unroll
    for (int v = 0; v < 8; ++v) big[rr][cc + v] = rr < r1 ? acc[v] : ZERO;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int v = 0; v < 8; ++v) acc[v] = ZERO;
    if (rr < r1)
        for (int k = 0; k <= rr; ++k) { /* inv22 is lower triangular */
            const real i22 = XEL(h + rr, h + k);
#pragma unroll
            for (int v = 0; v < 8; ++v) acc[v] = fma(-i22, big[k][cc + v], acc[v]);
        }
    if (rr < r1) {
#pragma unroll
        for (int v = 0; v < 8; ++v)
            if (cc + v < r0) XEL(h + rr, cc + v) = acc[v];
    }
#undef LEL
#undef XEL
}
#endif
