/* gemm.cl: the GEMM family, row-major C[M x N] = alpha * A[M x K] * B[K x N] + beta * C.
 * The host maps column-major and transposed problems onto this one (see src/gemm/gemm.c).
 *
 * The ladder kernels (naive, tiled, regblock) take A and B through a row stride and a column
 * stride each, so transposes are a runtime argument, and they guard every access, so any M, N,
 * K is valid. They read and write the matrices through sreal, LOAD and STORE (common.cl), so
 * -DSTORAGE_HALF=1 builds them for binary16 matrices with float arithmetic (tsl_hgemm). tiled2d is the fast kernel: it states its preconditions (sizes multiples of its
 * tile, A and B not transposed) and the host's pack pre-pass (gemm_pack) establishes them.
 *
 * The host builds each program with -DONLY_ONE_KERNEL -DONLY_<kernel name>, so a program holds
 * just the kernel it is for: faster builds, and on NVIDIA one kernel's register use cannot lower
 * another's work-group limit (a heavy tiled2d next to gemm_tiled capped it at 256 work-items).
 * Without those options the file compiles every kernel but tiled2d, on its own. tiled2d's
 * program appends gemm_tiled2d.cl, gemm_mma.cl and gemm_tiled2d_kernel.cl to this file (its
 * parameters, the matrix instructions, the kernel; src/gemm/gemm.c names the list), which use
 * this file's prelude (tile_t, tf32_rna). */

/* The element type of the matrices the fast kernels (gemm_pack, gemm_tiled2d) move as they are:
 * with 16-bit storage (STORAGE_HALF, STORAGE_BF16) the bits, as ushort, which tiled2d's
 * tensor-core path hands to the instruction unconverted; else real. */
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b) /* a##b after expanding both */
#if STORAGE16
typedef ushort tile_t;
#define TILENAME ushort
#define TZERO ((ushort)0) /* +0 in both formats */
#else
typedef real tile_t;
#define TILENAME REALNAME
#define TZERO ZERO
#endif

#if PRECISION == 32
/* x rounded to TF32 as PTX cvt.rna.tf32.f32 does: to nearest with ties away from zero, keeping 10
 * of the 23 mantissa bits (the low 13 bits of the result are zero, so it is also the float value
 * it stands for). The carry of a magnitude near FLT_MAX runs into the exponent: infinity. NaN
 * stays a (quiet) NaN; infinity stays infinity. */
uint tf32_rna(float x)
{
    uint u = as_uint(x);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (u | 0x00400000u) & 0xFFFFE000u;
    if ((u & 0x7F800000u) == 0x7F800000u) return u;
    return (u + 0x1000u) & 0xFFFFE000u;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_naive)
/* ---- naive: one work-item per element of C, global memory only (000's gpu1, 003's gpu2) ---- */
__kernel void gemm_naive(const int M, const int N, const int K, const real alpha,
                         __global const sreal *A, const int a_rs, const int a_cs,
                         __global const sreal *B, const int b_rs, const int b_cs,
                         const real beta, __global sreal *C, const int ldc,
                         const long a_off, const long b_off, const long c_off)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= M || col >= N) return;
    A += a_off, B += b_off, C += c_off;
    __global const sreal *a = A + (long)row * a_rs;
    __global const sreal *b = B + (long)col * b_cs;
    real acc = ZERO;
    for (int l = 0; l < K; ++l) {
        acc += LOAD(a, 0) * LOAD(b, 0);
        a += a_cs;
        b += b_rs;
    }
    GEMM_STORE_AT(C, (long)row * ldc + col, alpha, acc, beta);
}

#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_tiled)
/* ---- tiled: TS x TS tiles of A and B in local memory (000's gpu2, 004's listing 2) ----------
 * 000's kernel zeroed a tile only when the row AND the column were out of range and stored C
 * inside the k loop; here each element is guarded on its own and C is written once. */
#ifndef TS
#define TS 16
#endif
__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void gemm_tiled(const int M, const int N, const int K, const real alpha,
                __global const sreal *A, const int a_rs, const int a_cs,
                __global const sreal *B, const int b_rs, const int b_cs,
                const real beta, __global sreal *C, const int ldc,
                const long a_off, const long b_off, const long c_off)
{
    __local real As[TS][TS];
    A += a_off, B += b_off, C += c_off;
    __local real Bs[TS][TS + 1]; /* +1: B is read down a column, keep its rows off one bank */
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int col = get_group_id(0) * TS + tx;
    const int row = get_group_id(1) * TS + ty;
    real acc = ZERO;
    for (int t = 0; t < K; t += TS) {
        As[ty][tx] = (row < M && t + tx < K) ? LOAD(A, (long)row * a_rs + (long)(t + tx) * a_cs)
                                             : ZERO;
        Bs[ty][tx] = (t + ty < K && col < N) ? LOAD(B, (long)(t + ty) * b_rs + (long)col * b_cs)
                                             : ZERO;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int l = 0; l < TS; ++l) acc += As[ty][l] * Bs[l][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N) GEMM_STORE_AT(C, (long)row * ldc + col, alpha, acc, beta);
}

#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_regblock)
/* ---- regblock: RB rows of one column of C per work-item, in registers (003's gpu3/gpu4) -----
 * Each B element loaded is used RB times. Rows past M read a clamped row (valid memory) and are
 * never stored. 003's listings index A with the digit 1 where the letter l is meant. */
#ifndef RB
#define RB 2
#endif
__kernel void gemm_regblock(const int M, const int N, const int K, const real alpha,
                            __global const sreal *A, const int a_rs, const int a_cs,
                            __global const sreal *B, const int b_rs, const int b_cs,
                            const real beta, __global sreal *C, const int ldc,
                            const long a_off, const long b_off, const long c_off)
{
    const int col = get_global_id(0);
    const int row0 = get_global_id(1) * RB;
    if (row0 >= M || col >= N) return;
    A += a_off, B += b_off, C += c_off;
    __global const sreal *a[RB];
    for (int p = 0; p < RB; ++p) a[p] = A + (long)min(row0 + p, M - 1) * a_rs;
    __global const sreal *b = B + (long)col * b_cs;
    real acc[RB];
    for (int p = 0; p < RB; ++p) acc[p] = ZERO;
    for (long l = 0; l < K; ++l) {
        const real bv = LOAD(b, l * b_rs);
        for (int p = 0; p < RB; ++p) acc[p] += LOAD(a[p], l * a_cs) * bv;
    }
    for (int p = 0; p < RB; ++p)
        if (row0 + p < M) GEMM_STORE_AT(C, (long)(row0 + p) * ldc + col, alpha, acc[p], beta);
}

#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_pack)
/* ---- pack: copy a strided (possibly transposed) rows x cols matrix into a dense prows x pcols
 * one, zero-filling the padding; the pre-pass that gives tiled2d its preconditions. PACK_TRI = 1
 * (2): only the lower (upper) triangle of the matrix is copied, the rest is zero (TRMM's operand
 * for tiled2d's TRI modes). ---------- */
#ifndef PACK_TRI
#define PACK_TRI 0
#endif
#ifndef PACK_UNIT
#define PACK_UNIT 0
#endif
#if PACK_UNIT && STORAGE16
#error "gemm_pack: PACK_UNIT writes a real 1 (the Level-3 routines have no 16-bit storage)"
#endif
/* PACK_TF32: the copy rounds each element to TF32 (tf32_rna: cvt.rna.tf32.f32's result, low 13
 * bits zero), so the TF32 tensor-core kernel reads its operands ready (PRE_TF32); PACK_TF32 = 2
 * writes that rounded value (big) and, prows x pcols elements further, the remainder x - big
 * (exact in float): 3xTF32's two planes for wgmma, which reads its operands from local memory */
#ifndef PACK_TF32
#define PACK_TF32 0
#endif
#if PACK_TF32 && (STORAGE16 || PRECISION != 32)
#error "gemm_pack: PACK_TF32 rounds floats"
#endif
/* Element (row, col) of the packed matrix: the source's, zero in the padding (and, PACK_TRI, in
 * the other triangle, never read; PACK_UNIT: 1 on the diagonal, not read), rounded by PACK_TF32 */
tile_t pack_value(const int rows, const int cols, __global const tile_t *src, const int s_rs,
                  const int s_cs, const int row, const int col)
{
#if PACK_TRI
    const int in = row < rows && col < cols && (PACK_TRI == 1 ? col <= row : col >= row);
    if (PACK_UNIT && in && row == col) return (tile_t)1;
#else
    const int in = row < rows && col < cols;
#endif
    if (!in) return TZERO;
    const tile_t v = src[(long)row * s_rs + (long)col * s_cs];
#if PACK_TF32 == 1
    return as_float(tf32_rna(v));
#else
    return v;
#endif
}
/* A group of 32 x 8 items packs a 32 x 32 tile of the destination, four elements an item. Where
 * the source's rows are contiguous (s_cs = 1) each item copies straight along rows: four
 * neighbours of a row as one vector where the source's rows, its origin and the destination's
 * rows keep vectors aligned and the four lie inside (no triangle), four rows otherwise; a
 * transposed operand (its columns contiguous: s_rs = 1) is read along the source's columns into
 * local memory (rows padded by one: no bank conflicts) and written along the destination's rows,
 * so both sides are coalesced (a transpose, as transpose.cl's kernels), as vectors on both sides
 * for a whole aligned tile. H100, TF32 4096 (two 64 MiB operands): 84 / 87 us per pack at one
 * element an item, 51 / 51 now. */
#define PACK_T 32
#define PACK_V CAT(TILENAME, 4)
/* The stores of element i (four from i, a vector's): PACK_TF32 = 2 splits each there */
#if PACK_TF32 == 2
#define PACK_PUT(i, x)                                                                         \
    {                                                                                          \
        const float x_ = (x), big_ = as_float(tf32_rna(x_));                                   \
        dst[i] = big_;                                                                         \
        dst[(long)prows * pcols + (i)] = x_ - big_;                                            \
    }
#define PACK_PUT4(i, x)                                                                        \
    {                                                                                          \
        const PACK_V v_ = (x);                                                                 \
        const PACK_V big_ = (PACK_V)(as_float(tf32_rna(v_.s0)), as_float(tf32_rna(v_.s1)),     \
                                     as_float(tf32_rna(v_.s2)), as_float(tf32_rna(v_.s3)));    \
        *(__global PACK_V *)(dst + (i)) = big_;                                                \
        *(__global PACK_V *)(dst + (long)prows * pcols + (i)) = v_ - big_;                     \
    }
#else
#define PACK_PUT(i, x) dst[i] = (x)
#define PACK_PUT4(i, x) (*(__global PACK_V *)(dst + (i)) = (x))
#endif
__kernel __attribute__((reqd_work_group_size(PACK_T, 8, 1)))
void gemm_pack(const int rows, const int cols, __global const tile_t *src, const int s_rs,
               const int s_cs, const int prows, const int pcols, __global tile_t *dst,
               const long s_off)
{
    __local tile_t t[PACK_T][PACK_T + 1];
    src += s_off;
    const int c0 = get_group_id(0) * PACK_T, r0 = get_group_id(1) * PACK_T;
    const int lx = get_local_id(0), ly = get_local_id(1);
    tile_t v[PACK_T / 8]; /* an item's four loads, all issued before its stores */
    if (!PACK_TRI && s_cs == 1 && ((s_rs | (int)(s_off & 3) | pcols) & 3) == 0) { /* uniform */
        const int q = ly * PACK_T + lx, row = r0 + q / 8, col = c0 + (q % 8) * 4;
        if (row < rows && col + 4 <= cols) {
            PACK_V x = *(__global const PACK_V *)(src + (long)row * s_rs + col);
#if PACK_TF32 == 1
            x = (float4)(as_float(tf32_rna(x.s0)), as_float(tf32_rna(x.s1)),
                         as_float(tf32_rna(x.s2)), as_float(tf32_rna(x.s3)));
#endif
            PACK_PUT4((long)row * pcols + col, x);
        } else if (row < prows) {
            for (int e = 0; e < 4; e++)
                if (col + e < pcols)
                    PACK_PUT((long)row * pcols + col + e,
                             pack_value(rows, cols, src, s_rs, 1, row, col + e));
        }
        return;
    }
    if (!PACK_TRI && s_rs == 1 && ((s_cs | (int)(s_off & 3) | pcols) & 3) == 0 &&
        r0 + PACK_T <= rows && c0 + PACK_T <= cols) { /* uniform over the group */
        /* a whole transposed tile: an item reads four neighbours of a source column (four rows
         * of the tile) as one vector, scatters them into the padded tile (banks 4a + i + b of
         * 32: distinct across a warp), and after the barrier writes four neighbours of a
         * destination row as one vector (transpose.cl's transpose_vec) */
        const int q = ly * PACK_T + lx, a = q % 8, b = q / 8;
        PACK_V x = *(__global const PACK_V *)(src + (long)(c0 + b) * s_cs + r0 + 4 * a);
#if PACK_TF32 == 1
        x = (float4)(as_float(tf32_rna(x.s0)), as_float(tf32_rna(x.s1)),
                     as_float(tf32_rna(x.s2)), as_float(tf32_rna(x.s3)));
#endif
        t[4 * a][b] = x.s0, t[4 * a + 1][b] = x.s1, t[4 * a + 2][b] = x.s2, t[4 * a + 3][b] = x.s3;
        barrier(CLK_LOCAL_MEM_FENCE);
        const int row = r0 + b, col = c0 + 4 * a;
        if (row < prows)
            PACK_PUT4((long)row * pcols + col,
                      (PACK_V)(t[b][4 * a], t[b][4 * a + 1], t[b][4 * a + 2], t[b][4 * a + 3]));
        return;
    }
    if (s_cs != 1) { /* uniform over the launch */
#pragma unroll
        for (int u = 0; u < PACK_T / 8; u++) /* source column c0 + i, rows r0 + lx: contiguous */
            v[u] = pack_value(rows, cols, src, s_rs, s_cs, r0 + lx, c0 + ly + 8 * u);
#pragma unroll
        for (int u = 0; u < PACK_T / 8; u++) t[lx][ly + 8 * u] = v[u];
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int u = 0; u < PACK_T / 8; u++) v[u] = t[ly + 8 * u][lx];
    } else {
#pragma unroll
        for (int u = 0; u < PACK_T / 8; u++)
            v[u] = pack_value(rows, cols, src, s_rs, s_cs, r0 + ly + 8 * u, c0 + lx);
    }
#pragma unroll
    for (int u = 0; u < PACK_T / 8; u++) {
        const int row = r0 + ly + 8 * u, col = c0 + lx;
        if (row < prows && col < pcols) PACK_PUT((long)row * pcols + col, v[u]);
    }
}

#endif


#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_edge)
/* ---- edge: a thin strip of C, for tiled2d problems whose last rows or columns are peeled off
 * (a remainder of a few rows past the last whole tile: 4097 = 32 x 128 + 1) instead of padded
 * to a whole tile. The strip has L elements along its long side (p) and S <= EDGE_R along its
 * short side (q); every element is a dot product over K:
 *   C[c_off + p c_ps + q c_qs] = alpha sum_l X[x_off + p x_ps + l x_ls] Y[y_off + l y_ls + q y_qs]
 *                                + beta C[...]
 * A row strip has p = column (X = B, Y = A), a column strip p = row (X = A, Y = B). X is the big
 * operand, read once: the work is a memory stream, so each item keeps EDGE_U loads of X in
 * flight. Y (S lines of K) is what every p shares: the group stages EDGE_KC of its l at a time in
 * local memory. The k loop is split over the lanes of the work-group; lane sums are added in a
 * fixed order (the same bits on every run). 256 items: LFAST = 0: (32 p, 8 lanes), neighbouring
 * items read neighbouring p (X's p stride is 1); LFAST = 1: (32 lanes, 8 p), neighbouring items
 * read neighbouring l. EDGE_R is the host's S rounded up to a power of two. */
#ifndef EDGE_R
#define EDGE_R 16
#endif
#define EDGE_KC 256 /* l per staged chunk of Y: 8 lanes x 32 or 32 lanes x 8 */
/* ROUND_TF32=1: the strip of a GEMM in TF32 math rounds X and Y as tiled2d's tensor cores do */
#ifndef ROUND_TF32
#define ROUND_TF32 0
#endif
#if ROUND_TF32
#define EDGE_IN(v) as_float(tf32_rna(v))
#else
#define EDGE_IN(v) (v)
#endif
/* One staged chunk for an item of LANES lanes: its EDGE_KC / LANES loads of X first (all in
 * flight together), then their products with the staged Y (a constant trip count: unrolled). */
#define EDGE_CHUNK(LANES)                                                                   \
    {                                                                                       \
        real xv[EDGE_KC / LANES];                                                           \
        _Pragma("unroll") for (int u = 0; u < EDGE_KC / LANES; ++u) {                       \
            const int l = l0 + lane + u * LANES;                                            \
            xv[u] = l < K ? EDGE_IN(LOAD(x, (long)l * x_ls)) : ZERO;                        \
        }                                                                                   \
        _Pragma("unroll") for (int u = 0; u < EDGE_KC / LANES; ++u)                         \
            _Pragma("unroll") for (int q = 0; q < EDGE_R; ++q)                              \
                acc[q] = fma(xv[u], ys[q * EDGE_KC + lane + u * LANES], acc[q]);            \
    }
__kernel __attribute__((reqd_work_group_size(32, 8, 1)))
void gemm_edge(const int L, const int S, const int K, const real alpha,
               __global const sreal *X, const long x_off, const int x_ps, const int x_ls,
               __global const sreal *Y, const long y_off, const int y_ls, const int y_qs,
               const real beta, __global sreal *C, const long c_off, const int c_ps,
               const int c_qs, const int lfast)
{
    __local real ys[EDGE_R * EDGE_KC];
    __local real buf[256];
    const int tid = get_local_id(1) * 32 + get_local_id(0);
    const int lane = lfast ? (int)get_local_id(0) : (int)get_local_id(1);
    const int lanes = lfast ? 32 : 8;
    const int p = lfast ? (int)get_global_id(1) : (int)get_global_id(0);
    __global const sreal *x = X + x_off + (long)min(p, L - 1) * x_ps; /* rows past L: never stored */
    real acc[EDGE_R];
#pragma unroll
    for (int q = 0; q < EDGE_R; ++q) acc[q] = ZERO;
    for (int l0 = 0; l0 < K; l0 += EDGE_KC) {
        /* Y[l0 .. l0 + EDGE_KC) x S into ys[q][l], zero past K and past S */
        for (int i = tid; i < EDGE_R * EDGE_KC; i += 256) {
            const int q = i / EDGE_KC, l = l0 + i % EDGE_KC;
            ys[i] = q < S && l < K ? EDGE_IN(LOAD(Y, y_off + (long)l * y_ls + (long)q * y_qs)) : ZERO;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lfast)
            EDGE_CHUNK(32)
        else
            EDGE_CHUNK(8)
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* lane 0 of each p adds the lanes' sums in lane order */
    const int first = lfast ? tid - lane : tid - lane * 32;
    const int step = lfast ? 1 : 32;
    for (int q = 0; q < S; ++q) {
        buf[tid] = acc[q];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lane == 0 && p < L) {
            real sum = buf[first];
            for (int i = 1; i < lanes; ++i) sum += buf[first + i * step];
            GEMM_STORE_AT(C, c_off + (long)p * c_ps + (long)q * c_qs, alpha, sum, beta);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_splitk_sum)
/* ---- the second pass of split k: C = sum over z of W[z] (+ beta Cin), slices added in a fixed
 * order, so the result has the same bits on every run. W holds S slices of Mc x ldw (in real: float
 * partial sums for 16-bit storage, whose C is rounded once, here). Cin is C itself (cin_off, ldcin
 * = c_off, ldc) or, for a GEMM that reads C from another place (TRSM's updates, CIN), that one.
 * ---------- */
__kernel void gemm_splitk_sum(const int Mc, const int Nc, const int S,
                              __global const real *W, const int ldw, const long wslice,
                              const real beta, __global sreal *C, const int ldc,
                              const long c_off, __global const sreal *Cin, const int ldcin,
                              const long cin_off)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= Mc || col >= Nc) return;
    __global const real *w = W + (long)row * ldw + col;
    real acc = w[0];
    for (int z = 1; z < S; ++z) acc += w[z * wslice];
    const long i = c_off + (long)row * ldc + col; /* 16-bit storage: rounded here, once */
    STORE((beta == ZERO) ? acc : acc + beta * LOAD(Cin, cin_off + (long)row * ldcin + col), C, i);
}

#endif
