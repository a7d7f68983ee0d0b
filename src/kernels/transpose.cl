/* transpose.cl: the transpose family, row-major B[cols x rows] = A[rows x cols]^T, after the
 * OpenCL port of NVIDIA's transpose sample (seed 001). All kernels share one launch geometry:
 * the matrix is cut into TILE x TILE tiles, one work-group per tile, TILE x WG_ROWS work-items
 * that walk the tile's rows WG_ROWS at a time (so TILE = 32 needs 256 work-items, not 1024).
 * Every access is guarded, so any shape works, including tiles that overhang the edges; an edge
 * tile just loads and stores fewer elements.
 *
 *   transpose_naive: reads A along rows (coalesced), writes B down columns (strided): the
 *                    baseline every other variant is measured against.
 *   transpose_tiled: stages the tile in local memory so both the read of A and the write of B
 *                    run along rows. PAD = 1 pads each tile row by one element so the column
 *                    read of the tile hits distinct local-memory banks (variant nobank; PAD = 0
 *                    is variant coalesced). DIAGONAL = 1 renumbers the work-groups along
 *                    diagonals, so concurrently running groups touch different memory
 *                    partitions instead of camping on one (variant diagonal; 001's best kernel).
 *
 * REPS (a run-time argument) repeats the body of a kernel REPS times per launch, as 001 does to
 * separate memory speed from launch and index overhead; every repetition writes the same values,
 * so the result does not depend on it. */

#ifndef TILE
#define TILE 16
#endif
#ifndef WG_ROWS
#define WG_ROWS 8
#endif
#ifndef PAD
#define PAD 1
#endif
#ifndef DIAGONAL
#define DIAGONAL 0
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_transpose_naive)
__kernel __attribute__((reqd_work_group_size(TILE, WG_ROWS, 1)))
void transpose_naive(const int rows, const int cols, __global const real *A, const int lda,
                     __global real *B, const int ldb, const int reps)
{
    const int col = get_group_id(0) * TILE + get_local_id(0);
    const int row0 = get_group_id(1) * TILE + get_local_id(1);
    for (int r = 0; r < reps; ++r) {
        for (int j = 0; j < TILE && get_local_id(1) + j < TILE; j += WG_ROWS) {
            const int row = row0 + j;
            if (row < rows && col < cols) B[(long)col * ldb + row] = A[(long)row * lda + col];
        }
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_transpose_tiled)
__kernel __attribute__((reqd_work_group_size(TILE, WG_ROWS, 1)))
void transpose_tiled(const int rows, const int cols, __global const real *A, const int lda,
                     __global real *B, const int ldb, const int reps)
{
    __local real tile[TILE][TILE + PAD];
    const int lx = get_local_id(0), ly = get_local_id(1);
#if DIAGONAL
    /* Diagonal block order (001, after Ruetsch and Micikevicius): the linear group number walks
     * down the diagonals of the tile grid. For every grid shape this is a one-to-one map. */
    const int gx = get_num_groups(0), gy = get_num_groups(1);
    const int bid = get_group_id(0) + gx * get_group_id(1);
    const int by = bid % gy;
    const int bx = (bid / gy + by) % gx;
#else
    const int bx = get_group_id(0), by = get_group_id(1);
#endif
    const int in_col = bx * TILE + lx;  /* column of A this work-item reads */
    const int out_col = by * TILE + lx; /* column of B (a row of A) it writes */
    for (int r = 0; r < reps; ++r) {
        for (int j = 0; j < TILE && ly + j < TILE; j += WG_ROWS) {
            const int row = by * TILE + ly + j;
            if (row < rows && in_col < cols) tile[ly + j][lx] = A[(long)row * lda + in_col];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < TILE && ly + j < TILE; j += WG_ROWS) {
            const int out_row = bx * TILE + ly + j; /* row of B (a column of A) */
            if (out_row < cols && out_col < rows)
                B[(long)out_row * ldb + out_col] = tile[lx][ly + j];
        }
        barrier(CLK_LOCAL_MEM_FENCE); /* the next repetition overwrites the tile */
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_transpose_vec)
/* transpose_vec: transpose_tiled (PAD = 1) with VW-wide vectors in global memory. Work-group
 * (TILE / VW) x WG_ROWS; work-item (lx, ly) reads VW consecutive elements of a row of A with one
 * load, scatters them into a column of the padded tile, and after the barrier gathers VW
 * consecutive elements of a tile row and writes them to B with one store: the same coalesced
 * lines as `nobank`, in a quarter of the memory instructions (float4: 16 bytes a load). Vector
 * accesses need the whole tile inside the matrix and lda, ldb multiples of VW (buffers start
 * 16-byte aligned); other tiles take the guarded scalar path, so any shape works. Bank check for
 * TILE 32, VW 4: a warp is 8 x 4 work-items, its scattered stores hit banks 4 lx + i + ly (mod
 * 32) and its gathers ly + 4 lx + i: 32 distinct banks either way. */
#ifndef VW
#define VW 4
#endif
#if VW == 4
typedef real4 realv;
#define VGET(v, i) ((i) == 0 ? (v).s0 : (i) == 1 ? (v).s1 : (i) == 2 ? (v).s2 : (v).s3)
#define VMAKE(t, r, c) ((real4)((t)[r][c], (t)[r][(c) + 1], (t)[r][(c) + 2], (t)[r][(c) + 3]))
#elif VW == 2
typedef real2 realv;
#define VGET(v, i) ((i) == 0 ? (v).s0 : (v).s1)
#define VMAKE(t, r, c) ((real2)((t)[r][c], (t)[r][(c) + 1]))
#else
typedef real realv;
#define VGET(v, i) (v)
#define VMAKE(t, r, c) ((t)[r][c])
#endif
#ifndef GROUP_TILES
#define GROUP_TILES 1
#endif
#define TROWS ((TILE + WG_ROWS - 1) / WG_ROWS) /* tile rows per work-item */

/* Row `row` of A, the VW elements from column `col`: one vector load when the tile is full, else
 * guarded scalar loads (elements off the matrix are 0 and are never written to B). */
inline realv load_a(__global const real *A, int lda, int rows, int cols, int row, int col, int full)
{
    if (full) return ((__global const realv *)(A + (long)row * lda))[col / VW];
    real e[VW];
    for (int i = 0; i < VW; ++i)
        e[i] = row < rows && col + i < cols ? A[(long)row * lda + col + i] : ZERO;
#if VW == 4
    return (real4)(e[0], e[1], e[2], e[3]);
#elif VW == 2
    return (real2)(e[0], e[1]);
#else
    return e[0];
#endif
}

/* GROUP_TILES > 1: a work-group transposes that many tiles down a column of the tile grid, and
 * loads the next tile's rows into registers before it writes the current one to B, so reads of
 * one tile are in flight during the writes of the other. */
__kernel __attribute__((reqd_work_group_size(TILE / VW, WG_ROWS, 1)))
void transpose_vec(const int rows, const int cols, __global const real *A, const int lda,
                   __global real *B, const int ldb, const int reps)
{
    __local real tile[TILE][TILE + 1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int bx = get_group_id(0);
    const int t0 = VW * lx; /* first column of the tile this work-item handles */
    const int in_col = bx * TILE + t0;
    const int aligned = lda % VW == 0 && ldb % VW == 0;
    const int by0 = get_group_id(1) * GROUP_TILES;
    const int ntiles = min(GROUP_TILES, (rows + TILE - 1) / TILE - by0); /* >= 1 */
    realv v[TROWS];
    for (int r = 0; r < reps; ++r) {
        int by = by0;
        int full = aligned && (by + 1) * TILE <= rows && (bx + 1) * TILE <= cols;
        for (int q = 0; q < TROWS; ++q) /* a constant trip count: v[] stays in registers */
            if (ly + q * WG_ROWS < TILE)
                v[q] = load_a(A, lda, rows, cols, by * TILE + ly + q * WG_ROWS, in_col, full);
        for (int g = 0; g < ntiles; ++g, ++by) {
            for (int q = 0; q < TROWS; ++q)
                if (ly + q * WG_ROWS < TILE)
                    for (int i = 0; i < VW; ++i) tile[t0 + i][ly + q * WG_ROWS] = VGET(v[q], i);
            barrier(CLK_LOCAL_MEM_FENCE);
            const int out_col = by * TILE + t0;
            const int out_full = full;
            if (g + 1 < ntiles) { /* the next tile's loads */
                full = aligned && (by + 2) * TILE <= rows && (bx + 1) * TILE <= cols;
                for (int q = 0; q < TROWS; ++q)
                    if (ly + q * WG_ROWS < TILE)
                        v[q] = load_a(A, lda, rows, cols, (by + 1) * TILE + ly + q * WG_ROWS,
                                      in_col, full);
            }
            for (int j = ly; j < TILE; j += WG_ROWS) {
                const int out_row = bx * TILE + j; /* row of B (a column of A) */
                if (out_full) {
                    ((__global realv *)(B + (long)out_row * ldb))[out_col / VW] =
                        VMAKE(tile, j, t0);
                } else {
                    for (int i = 0; i < VW; ++i)
                        if (out_row < cols && out_col + i < rows)
                            B[(long)out_row * ldb + out_col + i] = tile[j][t0 + i];
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
}
#endif
