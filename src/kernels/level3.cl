/* level3.cl: the small kernels of the Level-3 routines (src/level3/level3.c, gemm_batched.c). The bulk
 * of every routine's flops runs in GEMM (gemm.cl, through tsl__gemm_mem); what is here touches
 * only the diagonal blocks, the triangles, and the small problems of a batch:
 *   l3_scale        X = beta X over a block or one triangle of it (beta == 0 writes zeros, never
 *                   reads): SYRK with k == 0 or alpha == 0, TRMM/TRSM with alpha == 0
 *   l3_copy         a block from one matrix to another (TRMM/TRSM's result back into B)
 *   l3_tri_blocks   op(A)'s diagonal blocks as dense nb x nb triangles (TRMM's blocked diagonal
 *                   products), reading only the stored triangle (and the diagonal only when it
 *                   is not unit)
 *   l3_tri_merge    SYRK/SYR2K's diagonal blocks: the triangle of C_bb = T_b + beta C_bb, where T_b
 *                   (alpha times the product) came from GEMM; the other triangle is never touched
 *   l3_tri_inv      TRSM's inverses of op(A)'s diagonal blocks, one work-group per block, in
 *                   row panels of 32 (the panel's right-hand sides by dot products over the rows
 *                   solved before, then the panel's 32 x 32 triangle from local memory)
 *   l3_tri_inv64    the same for blocks of at most 64, right-looking from local memory (faster)
 *   l3_trsm_diag    TRSM's diagonal block solved by substitution (blocked: backward stable as
 *                   the reference's, where an explicit inverse of an ill-conditioned block is not)
 *   l3_tri_full     op(A) outside its diagonal blocks as a dense matrix (zeros elsewhere), which
 *                   TRSM's batched GEMMs read
 *   l3_symm_expand  a symmetric matrix stored in one triangle, expanded to a dense one (SYMM)
 *   gemm_batched    strided batched GEMM in one launch: the group's z index picks the problem
 * All matrices are row-major with element offsets and leading dimensions; indices are long. The
 * host builds each program with -DONLY_ONE_KERNEL -DONLY_<name>, as for gemm.cl. */

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_scale)
/* mode 0: the whole rows x cols block; 1: its lower triangle (j <= i); 2: its upper (j >= i). */
__kernel void l3_scale(const int rows, const int cols, const int mode, const real beta,
                       __global real *X, const long off, const int ld)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (i >= rows || j >= cols || (mode == 1 && j > i) || (mode == 2 && j < i)) return;
    __global real *x = X + off + (long)i * ld + j;
    *x = beta == ZERO ? ZERO : beta * *x;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_copy)
__kernel void l3_copy(const int rows, const int cols, __global const real *S, const long s_off,
                      const int lds, __global real *D, const long d_off, const int ldd)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (i >= rows || j >= cols) return;
    D[d_off + (long)i * ldd + j] = S[s_off + (long)i * lds + j];
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_trsm_diag)
/* One diagonal block of TRSM by substitution: X = a1 op(T)^-1 Y (left) or a1 Y op(T)^-1
 * (right), op(T)(i, l) = T[i t_rs + l t_cs], len x len, lower or upper, unit or not. Y is read
 * from B (element (i, j) of the block at B[b_off + i ldb + j]), X written into W (at
 * W[w_off + i ldw + j]). Work-item j: one right-hand side, column j of Y on the left (count
 * columns), row j on the right (count rows). The order is the substitution's: forward where the
 * rows solved first are the ones the next reads (left lower, right upper), else backward; each
 * x is a1 y minus the sum over those already solved, divided by the diagonal, as reference BLAS
 * computes it. */
__kernel void l3_trsm_diag(const int len, const int count, const int left, const int lower,
                           const int unit, const real a1, __global const real *A,
                           const long t_off, const int t_rs, const int t_cs,
                           __global const real *B, const long b_off, const int ldb,
                           __global real *W, const long w_off, const int ldw)
{
    const int j = get_global_id(0);
    if (j >= count) return;
    __global const real *T = A + t_off;
#define TEL(i, l) T[(long)(i) * t_rs + (long)(l) * t_cs]
    /* element q of this right-hand side in Y and in X */
#define YEL(q) B[b_off + (left ? (long)(q) * ldb + j : (long)j * ldb + (q))]
#define XEL(q) W[w_off + (left ? (long)(q) * ldw + j : (long)j * ldw + (q))]
    const int forward = left == lower;
    for (int step = 0; step < len; ++step) {
        const int q = forward ? step : len - 1 - step;
        real v = a1 * YEL(q);
        if (forward)
            for (int p = 0; p < q; ++p) v -= (left ? TEL(q, p) : TEL(p, q)) * XEL(p);
        else
            for (int p = q + 1; p < len; ++p) v -= (left ? TEL(q, p) : TEL(p, q)) * XEL(p);
        XEL(q) = unit ? v : v / TEL(q, q);
    }
#undef TEL
#undef YEL
#undef XEL
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_tri_blocks)
/* The diagonal blocks of the n x n triangular op(A)(i, j) = A[a_off + i a_rs + j a_cs], in blocks
 * of nb (the last one ragged), into D: block b at D + b nb nb, row-major with rows nb apart, the
 * triangle with zeros in the other one. lower: op(A) is lower triangular (else upper); unit: its
 * diagonal is taken as 1, not read. Work-item (j, b): column j of block b. (TRSM's inverses are
 * l3_tri_inv's.) */
__kernel void l3_tri_blocks(const int n, const int nb, __global const real *A, const long a_off,
                            const int a_rs, const int a_cs, const int lower, const int unit,
                            __global real *D)
{
    const int j = get_global_id(0), b = get_global_id(1);
    const int b0 = b * nb;
    if (b0 >= n) return;
    const int r = min(nb, n - b0); /* this block's size */
    if (j >= r) return;
    __global const real *T = A + a_off + (long)b0 * a_rs + (long)b0 * a_cs;
    __global real *x = D + (long)b * nb * nb + j; /* column j: x[i * nb] */
#define TEL(i, l) T[(long)(i) * a_rs + (long)(l) * a_cs]
    for (int i = 0; i < r; ++i) {
        const int in = lower ? i > j : i < j;
        x[(long)i * nb] = in ? TEL(i, j) : i == j ? (unit ? (real)1 : TEL(i, i)) : ZERO;
    }
#undef TEL
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_tri_inv)
/* The inverses of the diagonal blocks of the n x n triangular op(A)(i, j) = A[a_off + i a_rs +
 * j a_cs] (blocks of nb, the last ragged), into D as l3_tri_blocks writes them (block b at
 * D + b nb nb, rows nb apart, zeros in the other triangle). Work-group b inverts block b; its
 * items share the work of each row panel of IB rows: X = inv(L) for lower L solves L X = I, and
 * the rows [i0, i0 + h) of X are inv(L_PP) (I_P - L[P, <i0] X[<i0, :]): first the right-hand
 * sides (one element per item at a time: a dot product of length i0 - j, over rows solved
 * before), then the h x h triangle L_PP staged in local memory, each item substituting whole
 * columns in registers. An upper block is the lower one reflected: inv(U) = J inv(J U J) J with
 * J the reversal. A zero on a non-unit diagonal gives IEEE inf or NaN from there on, as the
 * reference BLAS's division does. O(nb^3 / 6) flops per block spread over the work-group's items
 * (the old l3_tri_blocks inverse ran nb^2 / 2 dependent steps in one item per column).
 * ldd, per: where the inverses go when the host builds larger ones from them by doubling (level3.c,
 * tri_inverses): block b is the (b % per)-th diagonal block of the (b / per)-th ldd x ldd block
 * of D, rows ldd apart (ldd = nb, per = 1: the layout above). (A path staging a whole block of
 * 64 in local memory, one item per column substituting in registers, was no faster on the H100:
 * 79-100 us single and 140 double for 64 blocks of 64 against this one's 85 and 63.)
 * zspan > 0 (the diagonal layout, D on the diagonal of a matrix of rows ldd apart whose blocks of
 * zspan the host doubles into): the group also writes zeros in its rows of that block's other
 * triangle beside this block (lower: to its right up to the block's end; upper: to its left),
 * which the doubling reads and never writes. */
#define IB 32
__kernel void l3_tri_inv(const int n, const int nb, __global const real *A, const long a_off,
                         const int a_rs, const int a_cs, const int lower, const int unit,
                         __global real *D, const int ldd, const int per, const int zspan)
{
    const int b = get_group_id(0), tid = get_local_id(0), nt = get_local_size(0);
    const int b0 = b * nb;
    const int r = min(nb, n - b0);
    __global const real *T = A + a_off + (long)b0 * a_rs + (long)b0 * a_cs;
    __global real *X = D + (long)(b / per) * ldd * ldd + (long)(b % per) * nb * (ldd + 1);
    __local real Tl[IB][IB + 1];
    /* the block as a lower triangle L (reflected if upper), and X(i, j) of inv(L) where it lies */
#define LEL(i, l)                                                                              \
    (lower ? T[(long)(i) * a_rs + (long)(l) * a_cs]                                            \
           : T[(long)(r - 1 - (i)) * a_rs + (long)(r - 1 - (l)) * a_cs])
#define XEL(i, j) X[lower ? (long)(i) * ldd + (j) : (long)(r - 1 - (i)) * ldd + (r - 1 - (j))]
    if (zspan > 0) { /* this block's rows of its zspan block's other triangle: zeros */
        const int z0 = b0 / zspan * zspan, z1 = min(n, z0 + zspan);
        const int c0 = lower ? b0 + r : z0, w = lower ? z1 - b0 - r : b0 - z0;
        __global real *Z = D + (long)b0 * (ldd + 1) + (c0 - b0);
        for (int e = tid; e < r * w; e += nt) Z[(long)(e / w) * ldd + e % w] = ZERO;
    }
    for (int i0 = 0; i0 < r; i0 += IB) {
        const int h = min(IB, r - i0);
        /* right-hand sides of the panel's rows, every column j < r (zero right of the diagonal) */
        for (int e = tid; e < h * r; e += nt) {
            const int i = i0 + e / r, j = e % r;
            real s = ZERO;
            if (j < i0)
                for (int l = j; l < i0; ++l) s = fma(-LEL(i, l), XEL(l, j), s);
            else if (i == j)
                s = (real)1;
            XEL(i, j) = s;
        }
        for (int e = tid; e < IB * IB; e += nt) {
            const int u = e / IB, c = e % IB;
            Tl[u][c] = u >= h ? (u == c ? (real)1 : ZERO) /* padding: an identity */
                       : c < u ? LEL(i0 + u, i0 + c)
                       : c == u ? (unit ? (real)1 : LEL(i0 + u, i0 + u))
                                : ZERO;
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
        /* the panel's triangle: columns j < i0 + h (those right of it stay zero) */
        for (int j = tid; j < i0 + h; j += nt) {
            real x[IB];
            for (int u = 0; u < IB; ++u) x[u] = u < h ? XEL(i0 + u, j) : ZERO;
            for (int u = 0; u < IB; ++u) {
                real v = x[u];
                for (int c = 0; c < u; ++c) v = fma(-Tl[u][c], x[c], v);
                x[u] = v / Tl[u][u];
            }
            for (int u = 0; u < h; ++u) XEL(i0 + u, j) = x[u];
        }
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
#undef LEL
#undef XEL
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_tri_inv64) || defined(ONLY_l3_tri_inv_fused)
/* l3_tri_inv for blocks of at most 64, with its arguments and output: one work-group of 256 items
 * per block, the block as a lower triangle L staged in local memory (rows of 65), in blocks of 16:
 * first the four diagonal blocks of 16 at once, right-looking, item (row, quarter) with quarter
 * == row / 16 holding row `row` of its block's inverse in registers (which starts as I): step i,
 * row i of each block, final after the steps before it, is divided by its diagonal element and
 * shared through local memory (two buffers, so one barrier a step), and every row below takes
 * L(row, i) times it out of its own. Then two doubling levels (h = 16, 32) build the inverses of
 * the pairs from those of their halves, as the host's doubling does: T = L21 X11 (written over
 * L21, which nothing reads after), X21 = -X22 T, each product's sums over the k its triangle
 * reaches (so a non-finite X after a zero pivot never reaches rows before it). X lies transposed
 * in the upper triangle of the same local buffer (X(i, j), j <= i, at j * 65 + i), beside L's
 * strict lower triangle. 16 steps and 6 barriers of products, where the row by row elimination of
 * the whole block took 64 steps: TRSM 4096's 64 blocks on the H100 in 38 us single and 47.5
 * double, against 49 and 65.
 * inv64_block inverts block b with the group's local memory lm (INV64_LOCAL reals: L and X with
 * rows 65 apart, then the two shared rows, then the reciprocals); l3_tri_inv64 runs it for its
 * group's block, l3_tri_inv_fused for the blocks its tasks name. */
#define INV64_LOCAL (64 * 65 + 3 * 64)
static void inv64_block(const int b, const int n, const int nb, __global const real *A,
                        const long a_off, const int a_rs, const int a_cs, const int lower,
                        const int unit, __global real *D, const int ldd, const int per,
                        const int zspan, __local real *lm)
{
    const int tid = get_local_id(0);
    const int b0 = b * nb;
    const int r = min(nb, n - b0);
    __global const real *T = A + a_off + (long)b0 * a_rs + (long)b0 * a_cs;
    __global real *X = D + (long)(b / per) * ldd * ldd + (long)(b % per) * nb * (ldd + 1);
    __local real *xi = lm + 64 * 65, *dinv = lm + 64 * 65 + 2 * 64;
#define LL(i, l) lm[(i) * 65 + (l)]
#define LEL(i, l)                                                                              \
    (lower ? T[(long)(i) * a_rs + (long)(l) * a_cs]                                            \
           : T[(long)(r - 1 - (i)) * a_rs + (long)(r - 1 - (l)) * a_cs])
#define XEL(i, j) X[lower ? (long)(i) * ldd + (j) : (long)(r - 1 - (i)) * ldd + (r - 1 - (j))]
    if (zspan > 0) { /* as l3_tri_inv: this block's rows of its zspan block's other triangle */
        const int z0 = b0 / zspan * zspan, z1 = min(n, z0 + zspan);
        const int c0 = lower ? b0 + r : z0, w = lower ? z1 - b0 - r : b0 - z0;
        __global real *Z = D + (long)b0 * (ldd + 1) + (c0 - b0);
        for (int i = tid / 64; i < r; i += 4)
            for (int j = tid % 64; j < w; j += 64) Z[(long)i * ldd + j] = ZERO;
    }
#pragma unroll
    for (int k = 0; k < 16; ++k) { /* the strict lower triangle and the diagonal: 16 loads an
                                    * item (as fast as a loop over r * r with a division per
                                    * element on the H100); rows past r as those of I */
        const int i = k * 4 + tid / 64, c = tid % 64;
        LL(i, c) = c > i ? ZERO : i >= r ? (c == i ? (real)1 : ZERO)
                 : c < i ? LEL(i, c) : unit ? (real)1 : LEL(i, i);
    }
    const int row = tid / 4, c0 = (tid % 4) * 16, own = tid % 4 == row / 16, rb = row % 16;
    real x[16];
#pragma unroll
    for (int u = 0; u < 16; ++u) x[u] = c0 + u == row ? (real)1 : ZERO;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* the diagonal's reciprocals, all at once (1 / 0: inf, and inf or NaN after, as x / 0 gives;
     * a division in the step's chain cost double 4 us a step) */
    if (tid < 64) dinv[tid] = (real)1 / LL(tid, tid);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 16; ++i) { /* the diagonal blocks of 16 */
        if (own && rb == i) {
            const real d = dinv[row];
#pragma unroll
            for (int u = 0; u < 16; ++u) {
                x[u] *= d;
                xi[(i & 1) * 64 + c0 + u] = x[u];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (own && rb > i) {
            const real f = LL(row, c0 + i);
#pragma unroll
            for (int u = 0; u < 16; ++u) x[u] = fma(-f, xi[(i & 1) * 64 + c0 + u], x[u]);
        }
    }
    if (own) { /* X's diagonal blocks, transposed, over L's (whose reciprocals are in dinv) */
#pragma unroll
        for (int u = 0; u < 16; ++u)
            if (c0 + u <= row) LL(c0 + u, row) = x[u];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* the doubling, level h = 16 then 32: for every pair of blocks of h at o = 0, 2h, ..., T =
     * L21 X11 over L21, then X21 = -X22 T into X's place; e: the item's outputs, 2 or 4 (a
     * helper function for a level, called for h = 16 and 32, gave wrong results under PoCL 3.1
     * unless forced inline: a loop here) */
    for (int h = 16; h <= 32; h *= 2) {
        const int per = 32 * h / 256;
        real v[4];
        for (int q = 0; q < per; ++q) {
            const int e = tid + 256 * q, o = e / (h * h) * 2 * h, i = e % (h * h) / h, j = e % h;
            real t = ZERO; /* T(i, j): the sum over k >= j of L(o + h + i, o + k) X(o + k, o + j) */
            for (int k = j; k < h; ++k) t = fma(LL(o + h + i, o + k), LL(o + j, o + k), t);
            v[q] = t;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int q = 0; q < per; ++q) {
            const int e = tid + 256 * q, o = e / (h * h) * 2 * h, i = e % (h * h) / h, j = e % h;
            LL(o + h + i, o + j) = v[q];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int q = 0; q < per; ++q) {
            const int e = tid + 256 * q, o = e / (h * h) * 2 * h, i = e % (h * h) / h, j = e % h;
            real x = ZERO; /* X21(i, j): minus the sum over k <= i of X22(i, k) T(k, j) */
            for (int k = 0; k <= i; ++k) x = fma(LL(o + h + k, o + h + i), LL(o + h + k, o + j), x);
            LL(o + j, o + h + i) = -x;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < r) {
#pragma unroll
        for (int u = 0; u < 16; ++u)
            if (c0 + u < r) XEL(row, c0 + u) = c0 + u <= row ? LL(c0 + u, row) : ZERO;
    }
#undef LL
#undef LEL
#undef XEL
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_tri_inv64)
__attribute__((reqd_work_group_size(256, 1, 1)))
__kernel void l3_tri_inv64(const int n, const int nb, __global const real *A, const long a_off,
                           const int a_rs, const int a_cs, const int lower, const int unit,
                           __global real *D, const int ldd, const int per, const int zspan)
{
    __local real lm[INV64_LOCAL];
    inv64_block(get_group_id(0), n, nb, A, a_off, a_rs, a_cs, lower, unit, D, ldd, per, zspan, lm);
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_tri_inv_fused)
/* TRSM's inverses of the diagonal blocks of up to `top` (64 times a power of 2) in one launch,
 * where l3_tri_inv64 and two batched GEMM launches per doubling level took one launch each (on
 * NVIDIA's OpenCL at least 8 us apiece, the host 20 us to queue each). The work is a list of tasks
 * in stages: the blocks of 64 (inv64_block), then for each level h = 64, 128, ... below top the
 * tiles of 64 x 64 of T = A21 inv11 of every pair (upper: A12 inv22), then those of inv21 = -inv22
 * T (upper: inv12 = -inv11 T), the pairs and layout of tri_inverses' diagonal layout (D on the
 * diagonal of a matrix of rows ldd apart; pair p's T at t_off + p h h after the lower levels' T,
 * rows h apart; the partial last pair's second half has h2 < h rows). A group takes the next task
 * from a ticket (ctr[0]) and waits until what it reads is done: a T tile for both halves of its
 * pair (the block of 64, or the pair one level down all done), an inv21 tile for its pair's T.
 * Tasks wait only on tasks of earlier tickets, which groups already running hold, so any number of
 * groups on any device makes progress (no group waits on one that has not started). Each task
 * counts itself done in ctr and a waiting group spins on the count (group_signal, group_wait:
 * common.cl). Each level's T has a region of its own: a pair of the next level may start while a
 * pair of this one still reads its T. The last group out sets every counter back to zero for the
 * next launch (the host zeroes ctr once, when it makes it). The products stage FZ_K k at a time of
 * a 64-row slice of the left operand and a 64-column slice of the right one in local memory, each
 * item holding 4 x 4 of the tile: latency-bound, slower than the tuned GEMM's launches for levels
 * of 256 and more on the H100, which the host builds launch by launch after this kernel (option
 * inv_fuse). */
#ifndef FZ_K
#define FZ_K 16 /* the k of a product's step (the host asks 32 on NVIDIA's GPUs; PoCL 3.1's LLVM
                 * crashed compiling 32) */
#endif
static int fz_pairs(const int n, const int h)
{
    const int c = n / (2 * h);
    return c + (n - c * 2 * h > h);
}
static int fz_h2(const int n, const int h, const int p)
{
    return min(h, n - p * 2 * h - h);
}
static int fz_tiles(const int n, const int h, const int p)
{
    return (fz_h2(n, h, p) + 63) / 64 * (h / 64);
}
/* the tasks of one stage of level h (T or inv21: the same tiles) */
static int fz_stage(const int n, const int h)
{
    const int c = n / (2 * h), full = (h / 64) * (h / 64);
    return c * full + (fz_pairs(n, h) > c ? fz_tiles(n, h, c) : 0);
}
/* ctr's index and count that say block [o, o + h) is inverted (its inverse built, which means
 * its halves were before it) */
static void fz_block_done(const int n, const int nsmall, int h, const int o, int *idx, int *need)
{
    while (h > 64) {
        const int hh = h / 2; /* the half */
        if (o + hh < n) { /* pair o / h of level hh exists: its inv21 stage */
            int base = 2 + nsmall;
            for (int g = 64; g < hh; g *= 2) base += 2 * fz_pairs(n, g);
            *idx = base + fz_pairs(n, hh) + o / h;
            *need = fz_tiles(n, hh, o / h);
            return;
        }
        h = hh; /* the block is only its first half */
    }
    *idx = 2 + o / 64;
    *need = 1;
}
/* O (R x C, rows ldo apart) = alpha sum over k in [klo, khi) of X(i, k) Y(k, j), X(i, k) at
 * X[i xrs + k xcs], Y(k, j) at Y[k ldy + j]; R, C <= 64. The next step's elements are loaded
 * into registers while the step staged in local memory is multiplied. */
static void fz_product(const int R, const int C, const int klo, const int khi,
                       __global const real *X, const long xrs, const long xcs,
                       __global const real *Y, const long ldy, const real alpha,
                       __global real *O, const long ldo, __local real *lm)
{
    const int tid = get_local_id(0), tx = tid % 16, ty = tid / 16;
    __local real *Xs = lm, *Ys = lm + FZ_K * 65; /* Xs[k][i] rows 65 apart, Ys[k][j] 64 */
    real acc[4][4], xn[FZ_K / 4], yn[FZ_K / 4];
#pragma unroll
    for (int a = 0; a < 4; ++a)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[a][c] = ZERO;
#define FZ_LOAD(l0)                                                                            \
    for (int q = 0; q < FZ_K / 4; ++q) {                                                       \
        const int e = tid + 256 * q;                                                           \
        const int xr = e / FZ_K, xk = e % FZ_K, yk = e / 64, yc = e % 64;                      \
        xn[q] = xr < R && (l0) + xk < khi ? X[xr * xrs + ((l0) + xk) * xcs] : ZERO;            \
        yn[q] = yc < C && (l0) + yk < khi ? Y[((l0) + yk) * ldy + yc] : ZERO;                  \
    }
    FZ_LOAD(klo)
    for (int l0 = klo; l0 < khi; l0 += FZ_K) {
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int q = 0; q < FZ_K / 4; ++q) {
            const int e = tid + 256 * q;
            Xs[(e % FZ_K) * 65 + e / FZ_K] = xn[q];
            Ys[e] = yn[q];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l0 + FZ_K < khi) {
            FZ_LOAD(l0 + FZ_K)
        }
#pragma unroll
        for (int kk = 0; kk < FZ_K; ++kk) {
            real xa[4], yb[4];
#pragma unroll
            for (int a = 0; a < 4; ++a) xa[a] = Xs[kk * 65 + ty + 16 * a];
#pragma unroll
            for (int c = 0; c < 4; ++c) yb[c] = Ys[kk * 64 + tx + 16 * c];
#pragma unroll
            for (int a = 0; a < 4; ++a)
#pragma unroll
                for (int c = 0; c < 4; ++c) acc[a][c] = fma(xa[a], yb[c], acc[a][c]);
        }
    }
#undef FZ_LOAD
#pragma unroll
    for (int a = 0; a < 4; ++a)
#pragma unroll
        for (int c = 0; c < 4; ++c)
            if (ty + 16 * a < R && tx + 16 * c < C)
                O[(ty + 16 * a) * ldo + tx + 16 * c] = alpha * acc[a][c];
}
__attribute__((reqd_work_group_size(256, 1, 1)))
__kernel void l3_tri_inv_fused(const int n, const int top, __global const real *A,
                               const long a_off, const int a_rs, const int a_cs, const int lower,
                               const int unit, __global real *D, const int ldd, const int zspan,
                               const long t_off, volatile __global int *ctr)
{
    __local real lm[INV64_LOCAL];
    __local int task;
    const int tid = get_local_id(0), nsmall = (n + 63) / 64;
    int total = nsmall, nctr = 2 + nsmall;
    for (int h = 64; h < top; h *= 2) total += 2 * fz_stage(n, h), nctr += 2 * fz_pairs(n, h);
    __global const real *Av = A + a_off;
    if (tid == 0) task = atomic_inc(ctr);
    barrier(CLK_LOCAL_MEM_FENCE);
    int t = task;
    while (t < total) {
        if (t < nsmall) {
            inv64_block(t, n, 64, A, a_off, a_rs, a_cs, lower, unit, D, ldd, nsmall, zspan, lm);
            group_signal(ctr + 2 + t);
        } else {
            /* the stage, level h, pair p and tile (ti, tj) of task t */
            int i = t - nsmall, h = 64, base = 2 + nsmall, inv = 0;
            long tb = 0; /* level h's T after the levels' below: a pair of the next level may
                          * start while one of this level still reads its T */
            while (i >= 2 * fz_stage(n, h)) {
                i -= 2 * fz_stage(n, h), base += 2 * fz_pairs(n, h);
                tb += (long)fz_pairs(n, h) * h * h, h *= 2;
            }
            if (i >= fz_stage(n, h)) i -= fz_stage(n, h), inv = 1;
            const int full = (h / 64) * (h / 64), c = n / (2 * h);
            const int p = i < c * full ? i / full : c, idx = i - p * full;
            const int o = p * 2 * h, h2 = fz_h2(n, h, p), h2t = (h2 + 63) / 64;
            const int cols = lower ? h / 64 : h2t, ti = idx / cols, tj = idx % cols;
            const int r0 = ti * 64, c0 = tj * 64;
            const long dd = ldd + 1;
            __global real *Tp = D + t_off + tb + (long)p * h * h; /* the pair's T */
            int wi, wn;
            if (!inv) { /* both halves inverted */
                fz_block_done(n, nsmall, h, o, &wi, &wn);
                group_wait(ctr + wi, wn);
                fz_block_done(n, nsmall, h, o + h, &wi, &wn);
                group_wait(ctr + wi, wn);
            } else {
                group_wait(ctr + base + p, fz_tiles(n, h, p));
            }
            /* lower: T (h2 x h) = A21 inv11, inv11(k, j) zero for k < j; inv21 (h2 x h) =
             * -inv22 T, inv22(i, k) zero for k > i. upper: T (h x h2) = A12 inv22, inv22(k, j)
             * zero for k > j; inv12 (h x h2) = -inv11 T, inv11(i, k) zero for k < i */
            const int R = min(64, (lower ? h2 : h) - r0), C = min(64, (lower ? h : h2) - c0);
            int klo = 0, khi = lower ? h2 : h;
            __global const real *X, *Y = Tp + c0;
            long xrs = ldd, xcs = 1, ldy = h;
            __global real *O;
            if (!inv) {
                X = lower ? Av + (long)(o + h + r0) * a_rs + (long)o * a_cs
                          : Av + (long)(o + r0) * a_rs + (long)(o + h) * a_cs;
                xrs = a_rs, xcs = a_cs;
                Y = D + (lower ? o : o + h) * dd + c0, ldy = ldd;
                O = Tp + (long)r0 * h + c0;
                if (lower) klo = c0, khi = h;
                else khi = min(h2, c0 + 64);
            } else {
                X = D + (lower ? o + h : o) * dd + (long)r0 * ldd;
                O = D + (long)(o + (lower ? h : 0) + r0) * ldd + o + (lower ? 0 : h) + c0;
                if (lower) khi = min(h2, r0 + 64);
                else klo = r0, khi = h;
            }
            fz_product(R, C, klo, khi, X, xrs, xcs, Y, ldy, inv ? (real)-1 : (real)1, O,
                       inv ? ldd : h, lm);
            group_signal(ctr + base + inv * fz_pairs(n, h) + p);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (tid == 0) task = atomic_inc(ctr);
        barrier(CLK_LOCAL_MEM_FENCE);
        t = task;
    }
    /* the last group out; atomically, as every other access to the counters is (a plain store
     * races with the other groups' atomics: the memory model orders nothing across groups
     * without them) */
    if (tid == 0 && atomic_inc(ctr + 1) == (int)get_num_groups(0) - 1)
        for (int z = 0; z < nctr; ++z) atomic_xchg(ctr + z, 0);
}
#endif


#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_tri_full)
/* F (n x n at f_off, rows n apart) = op(A)(i, j) = A[a_off + i a_rs + j a_cs] where (i, j) lies in op(A)'s
 * triangle (lower or upper) outside the diagonal blocks of nb; zero elsewhere (the other triangle
 * and the diagonal blocks are never read). */
__kernel void l3_tri_full(const int n, const int nb, __global const real *A, const long a_off,
                          const int a_rs, const int a_cs, const int lower, __global real *F,
                          const long f_off)
{
    F += f_off;
    const int j = get_global_id(0), i = get_global_id(1);
    if (i >= n || j >= n) return;
    const int bi = i / nb, bj = j / nb;
    const int in = lower ? bj < bi : bj > bi;
    F[(long)i * n + j] = in ? A[a_off + (long)i * a_rs + (long)j * a_cs] : ZERO;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_tri_merge)
/* C's diagonal blocks (n x n in blocks of nb, the last ragged): for (i, j) in the lower (upper)
 * triangle of block b, C = T + beta C, with T block b of the workspace (rows nb apart, nb x nb
 * blocks one after the other). beta == 0 never reads C. Work-item (j, row): row = b nb + i. */
__kernel void l3_tri_merge(const int n, const int nb, const int lower, __global const real *T,
                           const real beta, __global real *C, const long c_off, const int ldc)
{
    const int j = get_global_id(0), row = get_global_id(1);
    if (row >= n || j >= nb) return;
    const int b = row / nb, i = row % nb, col = b * nb + j;
    if (col >= n || (lower ? j > i : j < i)) return;
    const real t = T[(long)b * nb * nb + (long)i * nb + j];
    __global real *c = C + c_off + (long)row * ldc + col;
    *c = beta == ZERO ? t : t + beta * *c;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_l3_symm_expand)
/* S (n x n, rows n apart) = the symmetric matrix whose lower (upper) triangle A holds; the other
 * triangle of A is never read. Groups of 32 x 8 items, one 32 x 32 tile of S each: a tile in the
 * stored triangle is copied, one in the other is the transpose of its mirror tile, staged in
 * local memory so both the read and the write run along rows (the transposed element-wise read
 * was 0.5 ms of SYMM single at 8192 on an H100), a diagonal tile reads its stored half only. */
__kernel void l3_symm_expand(const int n, const int lower, __global const real *A,
                             const long a_off, const int lda, __global real *S)
{
    __local real t[32][33];
    const int c = get_local_id(0), r0 = get_local_id(1);
    const int bj = get_group_id(0) * 32, bi = get_group_id(1) * 32;
    const int diag = bi == bj, direct = lower ? bj < bi : bj > bi;
    const int si = direct || diag ? bi : bj, sj = direct || diag ? bj : bi; /* the tile read */
    for (int r = r0; r < 32; r += 8) {
        const int i = si + r, j = sj + c;
        const int stored = !diag || (lower ? c <= r : c >= r);
        t[r][c] = i < n && j < n && stored ? A[a_off + (long)i * lda + j] : ZERO;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = r0; r < 32; r += 8) {
        const int i = bi + r, j = bj + c;
        if (i >= n || j >= n) continue;
        const int own = direct || (diag && (lower ? c <= r : c >= r));
        S[(long)i * n + j] = own ? t[r][c] : t[c][r];
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_batched)
/* ---- strided batched GEMM in one launch: problem z = get_group_id(2) computes
 *   C_z[M x N] = alpha op(A_z) op(B_z) + beta C_z, X_z = X + x_off + z x_stride (a stride of 0
 * shares the operand), op(A)(i, l) = A_z[i a_rs + l a_cs], op(B)(l, j) = B_z[l b_rs + j b_cs].
 * A work-group of 16 x 16 items computes a (16 RPT) x (16 RPT) tile of C, each item RPT x RPT
 * elements in registers, from KT-deep tiles of op(A) and op(B) staged in local memory; every load
 * is guarded, so any M, N, K and any strides are valid. K == 0 reads neither A nor B (the host
 * passes K = 0 for alpha == 0); beta == 0 never reads C. */
#ifndef RPT
#define RPT 2
#endif
#define BT (16 * RPT) /* the tile of C */
#define KT 16
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void gemm_batched(const int M, const int N, const int K, const real alpha,
                  __global const real *A, const long a_off, const int a_rs, const int a_cs,
                  const long a_stride, __global const real *B, const long b_off, const int b_rs,
                  const int b_cs, const long b_stride, const real beta, __global real *C,
                  const long c_off, const int ldc, const long c_stride)
{
    __local real As[KT][BT + 1]; /* [k][m] */
    __local real Bs[KT][BT + 1]; /* [k][n] */
    const long z = get_group_id(2);
    A += a_off + z * a_stride;
    B += b_off + z * b_stride;
    C += c_off + z * c_stride;
    const int tx = get_local_id(0), ty = get_local_id(1), tid = ty * 16 + tx;
    const int m0 = get_group_id(1) * BT, n0 = get_group_id(0) * BT;
    real acc[RPT][RPT];
    for (int r = 0; r < RPT; ++r)
        for (int c = 0; c < RPT; ++c) acc[r][c] = ZERO;
    for (int k0 = 0; k0 < K; k0 += KT) {
        for (int e = tid; e < BT * KT; e += 256) {
            const int i = e / KT, l = e % KT; /* A: consecutive items, consecutive k */
            const int gi = m0 + i, gl = k0 + l;
            As[l][i] = gi < M && gl < K ? A[(long)gi * a_rs + (long)gl * a_cs] : ZERO;
            const int l2 = e / BT, j = e % BT; /* B: consecutive items, consecutive n */
            const int gj = n0 + j, gl2 = k0 + l2;
            Bs[l2][j] = gl2 < K && gj < N ? B[(long)gl2 * b_rs + (long)gj * b_cs] : ZERO;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int l = 0; l < KT; ++l) {
            real a[RPT], b[RPT];
            for (int r = 0; r < RPT; ++r) a[r] = As[l][ty + 16 * r];
            for (int c = 0; c < RPT; ++c) b[c] = Bs[l][tx + 16 * c];
            for (int r = 0; r < RPT; ++r)
                for (int c = 0; c < RPT; ++c) acc[r][c] = fma(a[r], b[c], acc[r][c]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int r = 0; r < RPT; ++r) {
        const int row = m0 + ty + 16 * r;
        if (row >= M) continue;
        for (int c = 0; c < RPT; ++c) {
            const int col = n0 + tx + 16 * c;
            if (col < N) GEMM_STORE(C[(long)row * ldc + col], alpha, acc[r][c], beta);
        }
    }
}
#endif
