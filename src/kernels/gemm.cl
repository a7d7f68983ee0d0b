/* gemm.cl: the GEMM family, row-major C[M x N] = alpha * A[M x K] * B[K x N] + beta * C.
 * The host maps column-major and transposed problems onto this one (see src/ops/gemm.c).
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
 * Without those options the file compiles every kernel, on its own. */

/* The element type of the matrices the fast kernels (gemm_pack, gemm_tiled2d) move as they are:
 * with 16-bit storage (STORAGE_HALF, STORAGE_BF16) the bits, as ushort, which tiled2d's
 * tensor-core path hands to the instruction unconverted; else real. */
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
 * bits zero), so the TF32 tensor-core kernel reads its operands ready (PRE_TF32) */
#ifndef PACK_TF32
#define PACK_TF32 0
#endif
#if PACK_TF32 && (STORAGE16 || PRECISION != 32)
#error "gemm_pack: PACK_TF32 rounds floats"
#endif
__kernel void gemm_pack(const int rows, const int cols, __global const tile_t *src, const int s_rs,
                        const int s_cs, const int prows, const int pcols, __global tile_t *dst,
                        const long s_off)
{
    src += s_off;
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= prows || col >= pcols) return;
#if PACK_TRI
    /* a triangular operand (the Level-3 routines): the other triangle reads as zero and is never
     * read; PACK_UNIT: the diagonal is 1, not read */
    const int in = row < rows && col < cols && (PACK_TRI == 1 ? col <= row : col >= row);
    if (PACK_UNIT && in && row == col) {
        dst[(long)row * pcols + col] = (tile_t)1;
        return;
    }
#else
    const int in = row < rows && col < cols;
#endif
#if PACK_TF32
    dst[(long)row * pcols + col] = in ? as_float(tf32_rna(src[(long)row * s_rs + (long)col * s_cs])) : TZERO;
#else
    dst[(long)row * pcols + col] = in ? src[(long)row * s_rs + (long)col * s_cs] : TZERO;
#endif
}

#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_tiled2d)
/* ---- tiled2d: the parameterized kernel (tiles, 2D register blocks, vectors, staging) -------
 * C[Mc x Nc] = alpha * A[M x K] * B[K x N] + beta * C, row-major. Preconditions (the host's pack
 * pre-pass establishes them): M % MWG == 0, N % NWG == 0, K % KWG == 0, padded rows/columns of A
 * and B are zero; with DIRECT, none (M, N, K are the real sizes), except B's VW alignment. C is the caller's real matrix: stores and C reads are guarded against Mc x Nc.
 * global = (N/NWG*NDIMC, M/MWG*MDIMC), local = (NDIMC, MDIMC).
 *
 * Every choice is a compile-time parameter, so one source is the whole search space of the tuner
 * (src/ops/gemm.c lists the values and the constraints; docs/tuning.md):
 *   MWG x NWG   C tile of a work-group;      KWG   k-depth of one step (fully unrolled)
 *   MDIMC x NDIMC work-group shape;          MWI = MWG/MDIMC rows x NWI = NWG/NDIMC cols per item
 *   VW          vector width along n (B loads, accumulators, C stores)
 *   SA, SB      stage the A / B tile in local memory (1) or read it through the caches (0)
 *   PF          with staging: load the next tile into registers while this one is computed
 *   DBUF        with PF: two local buffers, so the next tile is stored while this one is read
 *               (one barrier per step instead of two)
 *   STRIDED     items own interleaved rows/vectors (coalesced, conflict-free: GPUs) or
 *               contiguous ones (whole vectors per item: CPUs)
 *   VWA         vector width of A reads from local memory (SA=1); with STRIDED the items own
 *               interleaved blocks of VWA rows
 *   APAD        padding of the transposed local A tile rows (bank conflicts on its stores)
 *   DIRECT      1: A and B are read where they lie, any M, N, K: loads outside the matrix give
 *               zero (a uniform test per tile and step picks the unguarded loads for interior
 *               tiles), so no pack pre-pass is needed for ragged sizes (needs SA, SB, PF; B's
 *               rows must still be VW-aligned: the host packs B otherwise)
 *   WN          0: a 32-wide warp is 32/NDIMC rows of the NDIMC x MDIMC work-group, as the
 *               local ids fall; 4 or 8: each warp is a (32/WN) x WN block of it (fewer distinct
 *               local addresses per warp read of A and B: broadcasts instead of wavefronts)
 *   MMA         1, 2 or 3 (double): the product of the staged tiles by the FP64 matrix
 *               instruction (PTX mma.sync, inline assembly: 1 = m8n8k4, sm_80 and later; 2 =
 *               m16n8k8 and 3 = m16n8k16, sm_90 and later; elsewhere MMA_EMULATE=1 runs the
 *               same data path in OpenCL C) instead of FMAs. A warp computes its 32 work-items' MWI x NWI outputs
 *               as one (4 MWI) x (8 NWI) block of 8 x 8 (MMA=1) or 16 x 8 (MMA=2, 3) tiles; the
 *               warps form a (MDIMC/4) x
 *               (NDIMC/8) grid over the group tile. Local rows are padded by 8 doubles so a
 *               fragment load (4 k rows x 8 m or n) touches every bank once per 128 bytes.
 *               4 (16-bit storage: STORAGE_HALF or STORAGE_BF16): m16n8k16 f16 or bf16 with FP32
 *               accumulation (sm_80 and later): the tiles stay 16-bit in local memory and each
 *               fragment register packs two of them, neighbours in k (the lower one in the low
 *               half); C is rounded to 16 bits once, in the epilogue (or by the split-k sum:
 *               SPLIT_OUT=1 writes the float partial sums). The only tiled2d with 16-bit storage.
 *               5 (single): m16n8k8 TF32 with FP32 accumulation (sm_80 and later), the fragments
 *               rounded from the staged floats by cvt.rna.tf32.f32 (tf32_rna): MATH=1 one product
 *               (TF32), MATH=2 three (3xTF32: x = big + small, big = tf32(x), small =
 *               tf32(x - big); small*big + big*small + big*big, small*small dropped).
 *   ASYNC       2, 3 or 4 (MMA=4, 5): the staged tiles arrive by asynchronous copies (cp.async)
 *               into a ring of ASYNC local buffers, ASYNC - 1 tiles ahead, A stored [m][k] and
 *               read by ldmatrix, 16-bit B by ldmatrix.trans (rows swizzled instead of padded);
 *               no PF, DBUF or DIRECT (the host packs what is not 16-byte aligned); groups launch
 *               in bands of 8 tile rows. FPIPE 1: the fragments double-buffered in registers
 *               (the next sub-step's read while this one's products issue: faster where the
 *               registers allow, docs/gemm.md)
 * USE_LOCAL=1 is the old spelling of SA=SB=1. The defaults are the PoCL/AVX-512 setting.
 * Two options that are no tunables but modes of the Level-3 routines (src/ops/level3.c, through
 * tsl__gemm_mem_ext; docs/level3.md):
 *   TRI         1 (2): C is symmetric with its lower (upper) triangle referenced (SYRK, SYR2K):
 *               groups whose tile lies wholly in the other triangle return at once, tiles
 *               crossing the diagonal store only the referenced triangle (C's other triangle is
 *               never read or written). 3 (4): A is lower (upper) triangular, zero elsewhere
 *               (the host packs it so): row tile m0 only runs the k steps the triangle reaches,
 *               k < m0 + MWG (k >= m0), in KWG steps; 5 (6): B is lower (upper) triangular:
 *               column tile n0 runs k >= n0 (k < n0 + NWG). With 3 and 6 the heaviest tiles are
 *               launched first (the group index is reversed along the axis whose work grows),
 *               so the last wave holds the light ones. The host never splits k with TRI.
 *   BATCH       1: strided batched GEMM, the group's z index picks the problem: A, B and C move
 *               by a_stride, b_stride and cslice elements per problem (two more arguments);
 *               kchunk is K (no split k). */
#ifndef MWG
#define MWG 128    // rows of C per work-group
#endif
#ifndef NWG
#if PRECISION == 64
#define NWG 16     // cols of C per work-group
#else
#define NWG 32
#endif
#endif
#ifndef KWG
#define KWG 8      // k-step
#endif
#ifndef MDIMC
#define MDIMC 16   // work-group size along m (local dim 1)
#endif
#ifndef NDIMC
#define NDIMC 1    // work-group size along n (local dim 0)
#endif
#ifndef VW
#if PRECISION == 64
#define VW 8       // vector width along n: one 512-bit register
#else
#define VW 16
#endif
#endif
#ifndef USE_LOCAL
#define USE_LOCAL 0
#endif
#ifndef SA
#define SA USE_LOCAL
#endif
#ifndef SB
#define SB USE_LOCAL
#endif
#define STAGED (SA || SB)
#ifndef PF
#define PF 0
#endif
#ifndef DBUF
#define DBUF 0
#endif
#ifndef ASYNC
#define ASYNC 0
#endif
#ifndef FPIPE
#define FPIPE 0
#endif
#ifndef BT
#define BT 0
#endif
#ifndef PRE_TF32
#define PRE_TF32 0
#endif
#if ASYNC
#define NBUF ASYNC
#elif DBUF
#define NBUF 2
#else
#define NBUF 1
#endif
#ifndef STRIDED
#define STRIDED STAGED
#endif
#ifndef VWA
#define VWA 1
#endif
#ifndef APAD
#if STRIDED
#define APAD 1
#else
#define APAD 0
#endif
#endif
#if ASYNC
/* ASYNC stages: A staged as [m][k] rows of KWG (ldmatrix reads rows of 16 bytes), B as [k][n]
 * rows, 16-bit B unpadded (swizzled), float B padded by 8 (its fragments are scalar reads) */
#define ALS_LD MWG
#define BLS_LD (MMA == 4 || BT ? NWG : NWG + 8)
#elif MMA
#define ALS_LD (MWG + 8)
#define BLS_LD (NWG + 8)
#else
#define ALS_LD (MWG + APAD)
#define BLS_LD NWG
#endif
#ifndef WN
#define WN 0
#endif
#ifndef DIRECT
#define DIRECT 0
#endif
#ifndef MMA
#define MMA 0
#endif
#ifndef TRI
#define TRI 0
#endif
#ifndef BATCH
#define BATCH 0
#endif
/* whether element (row, col) of C is stored (TRI 1, 2: its referenced triangle only) */
#if TRI == 1
#define TRI_KEEP(row, col) ((col) <= (row))
#elif TRI == 2
#define TRI_KEEP(row, col) ((col) >= (row))
#else
#define TRI_KEEP(row, col) 1
#endif

#define MWI (MWG / MDIMC)   // rows per work-item
#define NWI (NWG / NDIMC)   // cols per work-item
#define NVI (NWI / VW)      // vectors per work-item along n
#define NTHREADS (MDIMC * NDIMC)

#if MWG % MDIMC != 0 || NWG % NDIMC != 0 || NWI % VW != 0
#error "tiled2d: MWG%MDIMC, NWG%NDIMC and (NWG/NDIMC)%VW must be 0"
#endif
#if SA && (MWG * KWG) % NTHREADS != 0
#error "tiled2d: the A tile must divide among the work-items"
#endif
#if SB && (KWG * NWG / VW) % NTHREADS != 0
#error "tiled2d: the B tile must divide among the work-items"
#endif
#if VWA > 1 && (!SA || MWI % VWA != 0 || ALS_LD % VWA != 0)
#error "tiled2d: VWA > 1 needs SA=1, MWI % VWA == 0 and (MWG+APAD) % VWA == 0"
#endif
#if DBUF && !(PF && STAGED)
#error "tiled2d: DBUF needs PF=1 and a staged operand"
#endif
#if DIRECT && !(SA && SB && PF)
#error "tiled2d: DIRECT needs SA=1, SB=1 and PF=1"
#endif
#if WN && ((NTHREADS % 32) || (NDIMC % WN) || (MDIMC % (32 / WN)))
#error "tiled2d: WN needs whole warps and the work-group to tile into (32/WN) x WN blocks"
#endif
#define MMA_RM (MMA == 1 ? 8 : 16)     /* rows of the instruction's tile (8 columns) */
#define MMA_K (MMA == 1 ? 4 : MMA == 2 || MMA == 5 ? 8 : 16) /* its depth: 4, 8 or 16 */
#define MMA_NA (MMA_RM * MMA_K / 32)     /* A, B and D elements per lane */
#define MMA_NB (8 * MMA_K / 32)
#define MMA_ND (MMA_RM * 8 / 32)
#define MMA_RA (MMA == 4 ? MMA_NA / 2 : MMA_NA) /* registers: 16-bit elements go two a register */
#define MMA_RB (MMA == 4 ? MMA_NB / 2 : MMA_NB)
#ifndef MATH
#define MATH 0
#endif
#ifndef SPLIT_OUT
#define SPLIT_OUT 0
#endif
#if MMA && (!SA || !SB || MDIMC % 4 || NDIMC % 8 || (4 * MWI) % MMA_RM || KWG % MMA_K || \
            VWA != 1 || WN || BLS_LD % VW)
#error "tiled2d: MMA needs SA=SB=1, MDIMC % 4 == 0, NDIMC % 8 == 0, whole tiles per warp, KWG a multiple of the depth, VWA=1, WN=0, VW <= 8"
#endif
#if MMA >= 1 && MMA <= 3 && PRECISION != 64
#error "tiled2d: MMA=1, 2, 3 are FP64 instructions: PRECISION=64"
#endif
#if (MMA == 4) != STORAGE16
#error "tiled2d: 16-bit storage runs on MMA=4 (m16n8k16 f16/bf16) and MMA=4 needs it"
#endif
#if MMA == 5 && (PRECISION != 32 || STORAGE16 || (MATH != 1 && MATH != 2))
#error "tiled2d: MMA=5 (TF32) needs single precision and MATH=1 (TF32) or 2 (3xTF32)"
#endif
#if MMA != 5 && MATH
#error "tiled2d: MATH (TF32, 3xTF32) runs on MMA=5"
#endif
#ifndef MMA_EMULATE
#define MMA_EMULATE 0
#endif
/* A fragment register: the operand itself for FP64; 32 bits for the others (two 16-bit values,
 * or a TF32 value's bits), as the instruction's "r" operands take them. */
#if MMA == 4 || MMA == 5
typedef uint frag_t;
#else
typedef real frag_t;
#endif
#if MMA == 1 && !MMA_EMULATE
/* d = a b + d on an 8 x 8 x 4 FP64 tile held by a warp (g = lane / 4, t = lane % 4): lane holds
 * A[g][t], B[t][g] and D[g][2t], D[g][2t+1] (PTX ISA, "Matrix fragments for mma.m8n8k4 .f64"). */
#define DMMA(d, a, b)                                                                        \
  __asm__ __volatile__(                                                                      \
      "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"      \
      : "=d"(d[0]), "=d"(d[1]) : "d"(a[0]), "d"(b[0]), "d"(d[0]), "d"(d[1]))
#elif MMA == 3 && !MMA_EMULATE
/* d = a b + d on a 16 x 8 x 16 FP64 tile (sm_90): lane holds A[g + 8 (r % 2)][t + 4 (r / 2)] in
 * register r of 8, B[t + 4 r][g] in register r of 4, D as for m16n8k8. */
#define DMMA(d, a, b)                                                                        \
  __asm__ __volatile__(                                                                      \
      "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "                  \
      "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};"      \
      : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])                                       \
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), \
        "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]), "d"(d[0]), "d"(d[1]), "d"(d[2]), "d"(d[3]))
#elif MMA == 2 && !MMA_EMULATE
/* d = a b + d on a 16 x 8 x 8 FP64 tile (sm_90): lane holds A[g][t], A[g+8][t], A[g][t+4],
 * A[g+8][t+4]; B[t][g], B[t+4][g]; D[g][2t], D[g][2t+1], D[g+8][2t], D[g+8][2t+1]. */
#define DMMA(d, a, b)                                                                        \
  __asm__ __volatile__(                                                                      \
      "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, " \
      "{%8, %9}, {%10, %11, %12, %13};"                                                      \
      : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])                                       \
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]), "d"(d[0]),         \
        "d"(d[1]), "d"(d[2]), "d"(d[3]))
#elif MMA == 4 && !MMA_EMULATE
/* d = a b + d on a 16 x 8 x 16 tile of f16 or bf16 with FP32 accumulation (sm_80; PTX ISA,
 * "Matrix fragments for mma.m16n8k16 with floating point type"): register r of A packs
 * A[g + 8 (r % 2)][2t + 8 (r / 2) + {0, 1}], register r of B packs B[2t + 8 r + {0, 1}][g] (the
 * lower k in the low half), D is D[g][2t], D[g][2t+1], D[g+8][2t], D[g+8][2t+1]. */
#if STORAGE_HALF
#define MMA16_TYPES ".f16.f16"
#else
#define MMA16_TYPES ".bf16.bf16"
#endif
#define DMMA(d, a, b)                                                                        \
  __asm__ __volatile__(                                                                      \
      "mma.sync.aligned.m16n8k16.row.col.f32" MMA16_TYPES ".f32 {%0, %1, %2, %3}, "           \
      "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"                                        \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                       \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#elif MMA == 5 && !MMA_EMULATE
/* d = a b + d on a 16 x 8 x 8 TF32 tile with FP32 accumulation (sm_80): the FP64 m16n8k8's
 * layout, A[g][t], A[g+8][t], A[g][t+4], A[g+8][t+4]; B[t][g], B[t+4][g]; D as above. */
#define DMMA(d, a, b)                                                                        \
  __asm__ __volatile__(                                                                      \
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "                \
      "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"                                        \
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                       \
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#elif MMA
/* The same operations in OpenCL C for devices without the instruction (the host's choice: PoCL in
 * the tests, and every device without it): the 32 work-items of a "warp" exchange their fragment
 * registers through local memory, then each computes its elements of D in k order from the
 * operands the registers hold (FP64 values, TF32 values, or pairs of 16-bit values), by the
 * fragment layouts above, one fused multiply-add at a time in the accumulator's precision (for
 * the 16-bit and TF32 inputs every product is exact in float, so each step rounds once, as the
 * tensor core's FP32 sum does at some point; its internal order is not documented). Every
 * work-item of the group makes the same sequence of calls, so the barriers are uniform. */
#if MMA == 4
/* element h (0: low half) of a register of two 16-bit values, as a float */
float mma_in16(uint r, int h)
{
  const uint x = h ? r >> 16 : r & 0xFFFFu;
#if STORAGE_HALF
  const uint sign = (x & 0x8000u) << 16, e = (x >> 10) & 0x1Fu, m = x & 0x3FFu;
  if (e == 0x1Fu) return as_float(sign | 0x7F800000u | (m << 13));
  if (e) return as_float(sign | ((e + 112u) << 23) | (m << 13));
  const float v = (float)m * 0x1.0p-24f; /* a subnormal half: exact */
  return sign ? -v : v;
#else
  return as_float(x << 16);
#endif
}
/* A[row][k]: lane 4 (row % 8) + (k % 8) / 2, register (row / 8) + 2 (k / 8), half k % 2;
 * B[k][col]: lane 4 col + (k % 8) / 2, register k / 8, half k % 2 */
#define MMA_A_IN(sa, row, k) \
  mma_in16(sa[((row) / 8 + 2 * ((k) / 8)) * 32 + 4 * ((row) % 8) + ((k) % 8) / 2], (k) % 2)
#define MMA_B_IN(sb, k, col) mma_in16(sb[((k) / 8) * 32 + 4 * (col) + ((k) % 8) / 2], (k) % 2)
#else
/* A[row][k]: lane 4 (row % 8) + k % 4, register (row / 8) + (RM / 8) (k / 4); B[k][col]: lane
 * 4 col + k % 4, register k / 4 */
#if MMA == 5
#define MMA_VALUE(r) as_float(r)
#else
#define MMA_VALUE(r) (r)
#endif
#define MMA_A_IN(sa, row, k) \
  MMA_VALUE(sa[((row) / 8 + (MMA_RM / 8) * ((k) / 4)) * 32 + 4 * ((row) % 8) + (k) % 4])
#define MMA_B_IN(sb, k, col) MMA_VALUE(sb[((k) / 4) * 32 + 4 * (col) + (k) % 4])
#endif
void dmma_emulated(real *d, const frag_t *a, const frag_t *b, __local frag_t *sa,
                   __local frag_t *sb, const int lane)
{
  for (int r = 0; r < MMA_RA; r++) sa[r * 32 + lane] = a[r];
  for (int r = 0; r < MMA_RB; r++) sb[r * 32 + lane] = b[r];
  barrier(CLK_LOCAL_MEM_FENCE);
  const int g = lane / 4, t = lane % 4;
  for (int e = 0; e < MMA_ND; e++) {
    const int row = g + 8 * (e / 2), col = 2 * t + e % 2;
    real s = d[e];
    for (int k = 0; k < MMA_K; k++) s = fma(MMA_A_IN(sa, row, k), MMA_B_IN(sb, k, col), s);
    d[e] = s;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}
#define DMMA(d, a, b) dmma_emulated((d), (a), (b), mma_sa, mma_sb, lane)
#endif
#if MMA == 5
/* The TF32 operand of a staged float: cvt.rna.tf32.f32 on NVIDIA (its low 13 bits cleared: the
 * PTX ISA leaves them unspecified, and 3xTF32 subtracts the value), tf32_rna elsewhere. */
#if MMA_EMULATE
#define TF32_OF(x) tf32_rna(x)
#else
uint tf32_cvt(float x)
{
  uint r;
  __asm__("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return r & 0xFFFFE000u;
}
#define TF32_OF(x) tf32_cvt(x)
#endif
#endif
/* The emulation's loops stay loops: unrolled, its barriers would multiply (PoCL compiles each
 * barrier region separately). */
#if MMA_EMULATE
#define MMA_UNROLL _Pragma("unroll 1")
#else
#define MMA_UNROLL _Pragma("unroll")
#endif
/* The products of a k step: every (m tile i, n tile j) of the warp, from the fragments af, bf
 * (and for 3xTF32 the remainders afs, bfs). 3xTF32: the small terms first, so the big product
 * lands on their sum; into a fresh accumulator added to the running one with an FP32 add: the
 * tensor core's own sums are not IEEE round-to-nearest, and over all of k they left 3xTF32 3-6x
 * less accurate than FP32 on the H100 (docs/gemm.md); this way they span one 8-deep step. */
#if MATH == 2
#define MMA_PRODUCT(i, j, AF, BF, AFS, BFS)                                                 \
  {                                                                                         \
    real t_[MMA_ND];                                                                        \
    _Pragma("unroll") for (int e = 0; e < MMA_ND; e++) t_[e] = ZERO;                        \
    DMMA(t_, AFS[i], BF[j]);                                                                \
    DMMA(t_, AF[i], BFS[j]);                                                                \
    DMMA(t_, AF[i], BF[j]);                                                                 \
    _Pragma("unroll") for (int e = 0; e < MMA_ND; e++) acc[i][j][e] += t_[e];               \
  }
#else
#define MMA_PRODUCT(i, j, AF, BF, AFS, BFS) DMMA(acc[i][j], AF[i], BF[j])
#endif
#define MMA_PRODUCTS_OF(AF, BF, AFS, BFS)                                                   \
  MMA_UNROLL for (int i = 0; i < MMA_MB; i++) MMA_UNROLL for (int j = 0; j < NWI; j++)      \
      MMA_PRODUCT(i, j, AF, BF, AFS, BFS)
#define MMA_PRODUCTS() MMA_PRODUCTS_OF(af, bf, afs, bfs)

#if ASYNC
/* ASYNC: the staged tiles arrive by asynchronous 16-byte copies (PTX cp.async.cg, global to local
 * without registers) into a ring of ASYNC local buffers, ASYNC - 1 tiles ahead of the one being
 * computed, and the fragments leave them by ldmatrix (8 x 8 matrices of 16-bit values, one row
 * address per lane; TF32's B, 32-bit values in k order, by plain local reads). The rows are
 * swizzled: 16-byte chunk c of row r is stored at chunk SWZ(r, c, n) of its row (n chunks a row),
 * so the 8 rows one ldmatrix phase reads fall in 8 different bank groups without padding (the
 * 48 KiB of local memory hold 3 stages of 128 x 128 x 32 16-bit tiles exactly). */
#if (MMA != 4 && MMA != 5) || !SA || !SB || PF || DBUF || DIRECT || ASYNC < 2 || ASYNC > 4
#error "tiled2d: ASYNC (2 to 4 stages) needs MMA=4 or 5, SA=SB=1, PF=DBUF=DIRECT=0"
#endif
#define CHE (MMA == 4 ? 8 : 4) /* elements of a 16-byte chunk */
#define AKC (KWG / CHE)        /* chunks of a staged A row (k) */
#define BNC (NWG / CHE)        /* chunks of a staged B row (n) */
#if FPIPE && !ASYNC
#error "tiled2d: FPIPE (double-buffered fragments) is a mode of ASYNC"
#endif
#if BT && (!ASYNC || NWI % 2 || (NWG * AKC) % NTHREADS)
#error "tiled2d: BT (B packed as [n][k], read by ldmatrix like A) needs ASYNC, pairs of n tiles per warp and whole chunks per work-item"
#endif
#if PRE_TF32 && !(MMA == 5 && MATH == 1 && BT)
#error "tiled2d: PRE_TF32 (operands rounded by the pack) is for TF32 math with BT"
#endif
#if KWG % CHE || NWG % CHE || (MWG * AKC) % NTHREADS || (KWG * BNC) % NTHREADS || \
    (MMA == 4 && NWI % 2) || AKC > 8
#error "tiled2d: ASYNC needs whole 16-byte chunks per row and per work-item, at most 8 chunks a k row, and (16-bit) pairs of n tiles per warp"
#endif
#define SWZ(r, c, n) ((c) ^ ((n) >= 8 ? (r) % 8 : ((r) * (n) / 8) % (n)))
#if MMA == 4
#define BSWZ(r, c) SWZ(r, c, BNC)
#else
#define BSWZ(r, c) (c)
#endif
#if ASYNC == 2
#define CP_PENDING "0"
#elif ASYNC == 3
#define CP_PENDING "1"
#else
#define CP_PENDING "2"
#endif
#if !MMA_EMULATE
/* The local pointer goes to the instruction as a 32-bit "r" operand: NVIDIA's OpenCL passes
 * __local addresses as shared-window offsets (probed: shared/probes/tcprobe.c). */
#define CP16(dst, src)                                                                      \
  __asm__ __volatile__("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src)     \
                       : "memory")
#define CP_COMMIT() __asm__ __volatile__("cp.async.commit_group;" ::: "memory")
#define CP_WAIT() __asm__ __volatile__("cp.async.wait_group " CP_PENDING ";" ::: "memory")
#define LDSM_X4_(r, p, tr)                                                                  \
  __asm__ __volatile__("ldmatrix.sync.aligned.m8n8.x4" tr ".shared.b16 {%0, %1, %2, %3}, [%4];" \
                       : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                     \
                       : "r"(p)                                                             \
                       : "memory")
#define LDSM_X4(r, base, off) LDSM_X4_(r, (base) + (off), "")
#define LDSM_X4_T(r, base, off) LDSM_X4_(r, (base) + (off), ".trans")
#else
/* Emulated: a copy is a plain 16-byte move, complete at the barrier that follows; ldmatrix
 * exchanges the lanes' row offsets through local memory, then each lane takes its words by the
 * instruction's rule: of matrix i (the rows lanes 8i .. 8i + 7 name), lane l gets 16-bit elements
 * 2 (l % 4) and 2 (l % 4) + 1 of row l / 4, or with .trans element l / 4 of rows 2 (l % 4) and
 * 2 (l % 4) + 1 (the lower row in the low half); 32-bit values are pairs: word l % 4. */
#define CP16(dst, src) (*(__local uint4 *)(dst) = *(__global const uint4 *)(src))
#define CP_COMMIT()
#define CP_WAIT()
void ldsm_emulated(uint *r, __local const tile_t *base, const int off, const int trans,
                   __local int *xch, const int lane)
{
  xch[lane] = off;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int g = lane / 4, t = lane % 4;
  for (int i = 0; i < 4; i++) {
#if MMA == 4
    if (trans)
      r[i] = (uint)base[xch[8 * i + 2 * t] + g] | ((uint)base[xch[8 * i + 2 * t + 1] + g] << 16);
    else
      r[i] = (uint)base[xch[8 * i + g] + 2 * t] | ((uint)base[xch[8 * i + g] + 2 * t + 1] << 16);
#else
    r[i] = as_uint(base[xch[8 * i + g] + t]);
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}
#define LDSM_X4(r, base, off) ldsm_emulated(r, base, off, 0, ldsm_x, lane)
#define LDSM_X4_T(r, base, off) ldsm_emulated(r, base, off, 1, ldsm_x, lane)
#endif
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if VW == 1
typedef real realV;
typedef tile_t tileV;
#define VLOAD(off, p) ((p)[off])
#define VSTORE(x, off, p) ((p)[off] = (x))
#else
typedef CAT(REALNAME, VW) realV;
typedef CAT(TILENAME, VW) tileV; /* B's staging: realV, or VW 16-bit values */
#define VLOAD(off, p) CAT(vload, VW)(off, p)
#define VSTORE(x, off, p) CAT(vstore, VW)(x, off, p)
#endif
#if STORAGE16 && !MMA
#error "tiled2d: 16-bit storage runs on its tensor-core path only (MMA=4)"
#endif
/* C's type and accesses: 16-bit storage rounds once, as it stores (but writes the float partial
 * sums of a split k: SPLIT_OUT); else real. */
#if STORAGE16 && !SPLIT_OUT
typedef sreal cout_t;
#define C_LOAD(p, i) LOAD(p, i)
#define C_STORE(v, p, i) STORE(v, p, i)
#else
typedef real cout_t;
#define C_LOAD(p, i) ((p)[i])
#define C_STORE(v, p, i) ((p)[i] = (v))
#endif
#if VWA > 1
typedef CAT(REALNAME, VWA) realA;
#endif
/* Whole-vector accesses where the address is a multiple of the vector size: local tiles (their
 * rows and offsets are vector multiples) and B in global memory (the host's precondition: ldb and
 * the tile origin are multiples of VW, buffers start aligned). vloadn only promises scalar
 * alignment, and NVIDIA's compiler then splits it into scalar loads (PTX ld.shared.f32 x 4);
 * a vector-typed access becomes one ld.shared.v4. C keeps vloadn/vstoren: ldc is the caller's. */
#define VAT(p) (*(__local tileV *)(p))
#define VAT_G(p) (*(__global const tileV *)(p))
#define AAT(p) (*(__local const realA *)(p))

#if STRIDED
#define ROW_OF(i) ((tid_m + ((i) / VWA) * MDIMC) * VWA + (i) % VWA)  // within the group tile
#define VEC_OF(j) (tid_n + (j) * NDIMC)          // vector index within tile
#else
#define ROW_OF(i) (tid_m * MWI + (i))
#define VEC_OF(j) (tid_n * NVI + (j))
#endif

#define NLA ((MWG * KWG) / NTHREADS)        // A elements each item stages per step
#define NLB ((KWG * NWG / VW) / NTHREADS)   // B vectors each item stages per step
// Item tid's l-th A element of a tile: consecutive items read consecutive k (coalesced).
#define A_ROW(l) ((tid + (l) * NTHREADS) / KWG)
#define A_COL(l) ((tid + (l) * NTHREADS) % KWG)
#define B_ROW(l) ((tid + (l) * NTHREADS) / (NWG / VW))
#define B_VEC(l) ((tid + (l) * NTHREADS) % (NWG / VW))

__attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
__kernel void gemm_tiled2d(const int M, const int N, const int K,
                           const int Mc, const int Nc,
                           const real alpha,
                           __global const tile_t *restrict A, const int lda,
                           __global const tile_t *restrict B, const int ldb,
                           const real beta,
                           __global cout_t *C, const int ldc,
                           const int kchunk, const long cslice,
                           const long a_off, const long b_off, const long c_off
#if BATCH
                           , const long a_stride, const long b_stride
#endif
                           )
{
  // Element offsets of the operands (sub-blocks of larger matrices: the Level-3 routines' blocked
  // algorithms); B's keeps its VW alignment (the host packs B otherwise).
  A += a_off;
  B += b_off;
  C += c_off;
#if BATCH
  // problem z of a strided batch (kchunk = K)
  A += get_group_id(2) * a_stride;
  B += get_group_id(2) * b_stride;
  int kbeg = 0;
  int klen = K;
#else
  // Split k (the host's choice, for problems with few tiles of C and a long k): the group at
  // z = get_group_id(2) computes k in [z kchunk, min(K, (z + 1) kchunk)) into slice z of C,
  // cslice elements apart; gemm_splitk_sum adds the slices. Unsplit: one z, kchunk = K.
  int kbeg = get_group_id(2) * kchunk;
  int klen = min(kchunk, K - kbeg);
#endif
  C += get_group_id(2) * cslice;
  const int tid = get_local_id(1) * NDIMC + get_local_id(0);  // linear: staging, coalescing
#if WN
  // warp w of the group is block (w / (NDIMC/WN), w % (NDIMC/WN)) of (32/WN) x WN items
  const int tid_n = ((tid / 32) % (NDIMC / WN)) * WN + (tid % 32) % WN;
  const int tid_m = ((tid / 32) / (NDIMC / WN)) * (32 / WN) + (tid % 32) / WN;
#else
  const int tid_n = get_local_id(0);
  const int tid_m = get_local_id(1);
#endif
#if ASYNC && !TRI
  // Launch order: bands of 8 tile rows, column by column within a band, so the groups in flight
  // share their panels of A and B in the L2 cache (row by row, one wave of 128 x 128 tiles of an
  // 8192^2 C spans all of B).
  const int nx_ = get_num_groups(0), ny_ = get_num_groups(1);
  const int lin_ = get_group_id(1) * nx_ + get_group_id(0), band_ = lin_ / (8 * nx_);
  const int rows_ = min(8, ny_ - 8 * band_), r_ = lin_ - 8 * nx_ * band_;
  const int m0 = (8 * band_ + r_ % rows_) * MWG, n0 = (r_ / rows_) * NWG;
#elif TRI == 3
  const int m0 = (get_num_groups(1) - 1 - get_group_id(1)) * MWG;  // the heavy rows first
#else
  const int m0 = get_group_id(1) * MWG;     // first row of the group tile
#endif
#if ASYNC && !TRI
#elif TRI == 6
  const int n0 = (get_num_groups(0) - 1 - get_group_id(0)) * NWG;
#else
  const int n0 = get_group_id(0) * NWG;     // first col of the group tile
#endif
  (void)tid;
#if TRI == 1
  if (n0 >= m0 + MWG) return;  // wholly above the diagonal: the unreferenced triangle
#elif TRI == 2
  if (n0 + NWG <= m0) return;  // wholly below it
#elif TRI == 3 || TRI == 6
  {  // the triangle ends at k = m0 + MWG (n0 + NWG), in whole steps
    const int kend = ((TRI == 3 ? m0 + MWG : n0 + NWG) + KWG - 1) / KWG * KWG;
    klen = min(klen, kend - kbeg);
  }
#elif TRI == 4 || TRI == 5
  {  // the triangle starts at k = m0 (n0), in whole steps (m0 < M <= K: klen stays positive)
    const int kstart = (TRI == 4 ? m0 : n0) / KWG * KWG;
    if (kstart > kbeg) {
      klen -= kstart - kbeg;
      kbeg = kstart;
    }
  }
#endif

#if MMA
  // this work-item's warp: lane, and the origin of its (4 MWI) x (8 NWI) block of the group tile
  const int lane = tid % 32, warp = tid / 32;
  const int wm = (warp / (NDIMC / 8)) * (4 * MWI), wn = (warp % (NDIMC / 8)) * (8 * NWI);
#define MMA_MB (4 * MWI / MMA_RM)  // m-tiles of 8 (MMA=1) or 16 rows per warp
  real acc[MMA_MB][NWI][MMA_ND];
#if MMA_EMULATE
  __local frag_t mma_fa[NTHREADS * MMA_RA], mma_fb[NTHREADS * MMA_RB];  // the warps' fragments
  __local frag_t *mma_sa = mma_fa + warp * 32 * MMA_RA, *mma_sb = mma_fb + warp * 32 * MMA_RB;
#if ASYNC
  __local int ldsm_xa[NTHREADS];  // the warps' ldmatrix row offsets
  __local int *ldsm_x = ldsm_xa + warp * 32;
#endif
#endif
#pragma unroll
  for (int i = 0; i < MMA_MB; i++)
#pragma unroll
    for (int j = 0; j < NWI; j++)
#pragma unroll
      for (int e = 0; e < MMA_ND; e++) acc[i][j][e] = ZERO;
#else
  realV acc[MWI][NVI];
#pragma unroll
  for (int i = 0; i < MWI; i++)
#pragma unroll
    for (int j = 0; j < NVI; j++) acc[i][j] = (realV)(0);
#endif

  __global const tile_t *Ag = A + (long)m0 * lda + kbeg;      // (m0, k) of the current step
#if BT
  __global const tile_t *Bg = B + (long)n0 * ldb + kbeg;      // B^T: (n0, k) of the current step
#else
  __global const tile_t *Bg = B + (long)kbeg * ldb + n0;      // (k, n0) of the current step
#endif
#if SA
  __local tile_t Als[NBUF][KWG * ALS_LD] __attribute__((aligned(64)));  // transposed: [k][m]
#endif
#if SB
  __local tile_t Bls[NBUF][KWG * BLS_LD] __attribute__((aligned(64)));
#endif
  // This item's share of a tile: global (koff: k offset from the current step) and local.
#define GLOBAL_A(l, koff) Ag[(long)A_ROW(l) * lda + (koff) + A_COL(l)]
#define GLOBAL_B(l, koff) VAT_G(Bg + (long)((koff) + B_ROW(l)) * ldb + B_VEC(l) * VW)
#if DIRECT
  // The tiles of step k + koff: wholly inside A (B) or not; outside elements read as zero.
#define A_FULL(koff) (m0 + MWG <= M && kbeg + k + (koff) + KWG <= K)
#define B_FULL(koff) (n0 + NWG <= N && kbeg + k + (koff) + KWG <= K)
#define A_IN(l, koff) (m0 + A_ROW(l) < M && kbeg + k + (koff) + A_COL(l) < K)
#define FETCH_A(koff)                                                                       \
  if (A_FULL(koff)) {                                                                       \
    for (int l = 0; l < NLA; l++) pa[l] = GLOBAL_A(l, koff);                                \
  } else {                                                                                  \
    for (int l = 0; l < NLA; l++) pa[l] = A_IN(l, koff) ? GLOBAL_A(l, koff) : TZERO;        \
  }
#define FETCH_B(koff)                                                                       \
  if (B_FULL(koff)) {                                                                       \
    for (int l = 0; l < NLB; l++) pb[l] = GLOBAL_B(l, koff);                                \
  } else {                                                                                  \
    for (int l = 0; l < NLB; l++) {                                                         \
      const int brow = kbeg + k + (koff) + B_ROW(l), bcol = n0 + B_VEC(l) * VW;             \
      __global const tile_t *bp = Bg + (long)((koff) + B_ROW(l)) * ldb + B_VEC(l) * VW;     \
      tile_t t[VW];                                                                         \
      for (int v = 0; v < VW; v++) t[v] = brow < K && bcol + v < N ? bp[v] : TZERO;         \
      pb[l] = VLOAD(0, t);                                                                  \
    }                                                                                       \
  }
#endif
#define LOCAL_A(buf, l) Als[buf][A_COL(l) * ALS_LD + A_ROW(l)]
#define LOCAL_B(buf, l) (Bls[buf] + B_ROW(l) * BLS_LD + B_VEC(l) * VW)
  int k = 0;  // the current step's k within the slice
#if PF && SA
  tile_t pa[NLA];
#if DIRECT
  FETCH_A(0)
#else
#pragma unroll
  for (int l = 0; l < NLA; l++) pa[l] = GLOBAL_A(l, 0);
#endif
#endif
#if PF && SB
  tileV pb[NLB];
#if DIRECT
  FETCH_B(0)
#else
#pragma unroll
  for (int l = 0; l < NLB; l++) pb[l] = GLOBAL_B(l, 0);
#endif
#endif
#if DBUF
#if SA
#pragma unroll
  for (int l = 0; l < NLA; l++) LOCAL_A(0, l) = pa[l];
#endif
#if SB
#pragma unroll
  for (int l = 0; l < NLB; l++) VAT(LOCAL_B(0, l)) = pb[l];
#endif
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  int buf = 0;
  (void)buf;

#if ASYNC
  // The ring: tile t lives in buffer t % ASYNC. Every step commits one copy group (empty past
  // the end), so "all but ASYNC - 2 groups complete" means tile t has landed; the barrier after
  // the wait makes every item's copies visible and frees the buffer computed in the step before,
  // which this step refills with tile t + ASYNC - 1.
  (void)k;
  const int ntile = klen / KWG;
#define ASYNC_ISSUE(st, tile)                                                               \
  {                                                                                         \
    __global const tile_t *ag_ = Ag + (tile) * KWG;                                         \
    _Pragma("unroll") for (int l = 0; l < MWG * AKC / NTHREADS; l++) {                      \
      const int q = tid + l * NTHREADS, r = q / AKC, c = q % AKC;                           \
      CP16(Als[st] + r * KWG + SWZ(r, c, AKC) * CHE,                                      \
           ag_ + (long)r * lda + c * CHE);                                                  \
    }                                                                                       \
    ASYNC_ISSUE_B(st, tile)                                                                 \
  }
#if BT
  // B^T's tile: NWG rows of KWG, staged and swizzled as A's
#define ASYNC_ISSUE_B(st, tile)                                                             \
  {                                                                                         \
    __global const tile_t *bg_ = Bg + (tile) * KWG;                                         \
    _Pragma("unroll") for (int l = 0; l < NWG * AKC / NTHREADS; l++) {                      \
      const int q = tid + l * NTHREADS, r = q / AKC, c = q % AKC;                           \
      CP16(Bls[st] + r * KWG + SWZ(r, c, AKC) * CHE, bg_ + (long)r * ldb + c * CHE);        \
    }                                                                                       \
  }
#else
#define ASYNC_ISSUE_B(st, tile)                                                             \
  {                                                                                         \
    __global const tile_t *bg_ = Bg + (long)(tile) * KWG * ldb;                             \
    _Pragma("unroll") for (int l = 0; l < KWG * BNC / NTHREADS; l++) {                      \
      const int q = tid + l * NTHREADS, r = q / BNC, c = q % BNC;                           \
      CP16(Bls[st] + r * BLS_LD + BSWZ(r, c) * CHE, bg_ + (long)r * ldb + c * CHE);         \
    }                                                                                       \
  }
#endif
  // Fragments are double-buffered in registers: those of k sub-step s + 1 are read while the
  // products of s issue; at the last sub-step of tile t the next copy group is issued, tile t + 1
  // awaited (every warp has read all of tile t's fragments by then, so the barrier also frees its
  // buffer) and its first fragments read, all before tile t's last products.
#define KSUB (KWG / MMA_K)
#define NFB (FPIPE ? 2 : 1)
  frag_t af[NFB][MMA_MB][4], bf[NFB][NWI][2];
#if MATH == 2
  frag_t afs[NFB][MMA_MB][4], bfs[NFB][NWI][2];
#else
#define afs af
#define bfs bf
#endif
#if MMA == 4
  // A: one ldmatrix.x4 per 16 x 16 m tile (lanes 0-15 name its rows at k chunk kq / 8, lanes
  // 16-31 the same rows 8 further in k: registers a0..a3 in mma's order); B: one
  // ldmatrix.x4.trans per pair of n tiles (lanes name k rows kq + lane % 16 at the pair's first
  // or second 8 columns: b0, b1 of each tile)
#define LOAD_FRAGS(fb, As, Bs, kq)                                                          \
  {                                                                                         \
    MMA_UNROLL for (int i = 0; i < MMA_MB; i++) {                                           \
      const int r = wm + 16 * i + lane % 16;                                                \
      LDSM_X4(af[fb][i], As, r * KWG + SWZ(r, (kq) / 8 + lane / 16, AKC) * 8);              \
    }                                                                                       \
    MMA_UNROLL for (int jp = 0; jp < NWI / 2; jp++) {                                       \
      uint b4[4];                                                                           \
      LOAD_B4(b4, Bs, kq, jp, 8);                                                           \
      bf[fb][2 * jp][0] = b4[0];                                                            \
      bf[fb][2 * jp][1] = b4[1];                                                            \
      bf[fb][2 * jp + 1][0] = b4[2];                                                        \
      bf[fb][2 * jp + 1][1] = b4[3];                                                        \
    }                                                                                       \
  }
#if BT
/* B^T staged [n][k]: one ldmatrix.x4 per pair of n tiles, lanes 0-7 (8-15) naming the first
 * tile's 8 rows at k chunk kq / e (the next chunk), lanes 16-31 the second tile's: b0, b1 of
 * each, as A's rows give a0..a3 (e elements a chunk) */
#define LOAD_B4(b4, Bs, kq, jp, e)                                                          \
  {                                                                                         \
    const int r = wn + 16 * (jp) + lane % 8 + 8 * (lane / 16);                              \
    LDSM_X4(b4, Bs, r * KWG + SWZ(r, (kq) / (e) + (lane / 8) % 2, AKC) * (e));              \
  }
#else
#define LOAD_B4(b4, Bs, kq, jp, e)                                                          \
  {                                                                                         \
    const int r = (kq) + lane % 16;                                                         \
    LDSM_X4_T(b4, Bs, r * BLS_LD + SWZ(r, (wn + 16 * (jp)) / 8 + lane / 16, BNC) * 8);      \
  }
#endif
#else
  // TF32: A by ldmatrix.x4 as 32-bit words (a0..a3 = rows g, g + 8 at k t, t + 4), rounded
  // from the staged floats (PRE_TF32: already rounded by the pack); B by local reads of rows
  // kq + t, kq + t + 4 at column g, or with BT by ldmatrix as A
#if PRE_TF32
#define TF32_IN(x) as_uint(x)
#else
#define TF32_IN(x) TF32_OF(x)
#endif
#if MATH == 2
#define SPLIT_A(fb, i, e) afs[fb][i][e] = TF32_OF(as_float(raw[e]) - as_float(af[fb][i][e]))
#define SPLIT_B(fb, j, q, x) bfs[fb][j][q] = TF32_OF((x) - as_float(bf[fb][j][q]))
#else
#define SPLIT_A(fb, i, e)
#define SPLIT_B(fb, j, q, x)
#endif
#if BT
#define LOAD_B(fb, Bs, kq)                                                                  \
  MMA_UNROLL for (int jp = 0; jp < NWI / 2; jp++) {                                         \
    uint b4[4];                                                                             \
    const int r = wn + 16 * jp + lane % 8 + 8 * (lane / 16);                                \
    LDSM_X4(b4, Bs, r * KWG + SWZ(r, (kq) / 4 + (lane / 8) % 2, AKC) * 4);                  \
    _Pragma("unroll") for (int e = 0; e < 4; e++) {                                         \
      bf[fb][2 * jp + e / 2][e % 2] = TF32_IN(as_float(b4[e]));                             \
      SPLIT_B(fb, 2 * jp + e / 2, e % 2, as_float(b4[e]));                                  \
    }                                                                                       \
  }
#else
#define LOAD_B(fb, Bs, kq)                                                                  \
  _Pragma("unroll") for (int j = 0; j < NWI; j++)                                           \
    _Pragma("unroll") for (int q = 0; q < 2; q++) {                                         \
      const float x = Bs[((kq) + lane % 4 + 4 * q) * BLS_LD + wn + 8 * j + lane / 4];        \
      bf[fb][j][q] = TF32_OF(x);                                                            \
      SPLIT_B(fb, j, q, x);                                                                 \
    }
#endif
#define LOAD_FRAGS(fb, As, Bs, kq)                                                          \
  {                                                                                         \
    MMA_UNROLL for (int i = 0; i < MMA_MB; i++) {                                           \
      const int r = wm + 16 * i + lane % 16;                                                \
      uint raw[4];                                                                          \
      LDSM_X4(raw, As, r * KWG + SWZ(r, (kq) / 4 + lane / 16, AKC) * 4);                    \
      _Pragma("unroll") for (int e = 0; e < 4; e++) {                                       \
        af[fb][i][e] = TF32_IN(as_float(raw[e]));                                           \
        SPLIT_A(fb, i, e);                                                                  \
      }                                                                                     \
    }                                                                                       \
    LOAD_B(fb, Bs, kq)                                                                      \
  }
#endif
  for (int s = 0; s < ASYNC - 1; s++) {
    if (s < ntile) ASYNC_ISSUE(s, s)
    CP_COMMIT();
  }
#if !FPIPE
  // one set of fragments: each sub-step reads them, then issues its products
  for (int t = 0; t < ntile; t++) {
    CP_WAIT();
    barrier(CLK_LOCAL_MEM_FENCE);
    {
      const int nt = t + ASYNC - 1;
      if (nt < ntile) ASYNC_ISSUE(nt % ASYNC, nt)
      CP_COMMIT();
    }
    __local const tile_t *As = Als[t % ASYNC], *Bs = Bls[t % ASYNC];
    MMA_UNROLL
    for (int ks = 0; ks < KSUB; ks++) {
      LOAD_FRAGS(0, As, Bs, ks * MMA_K)
      MMA_PRODUCTS_OF(af[0], bf[0], afs[0], bfs[0]);
    }
  }
#else
  CP_WAIT();
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ntile > 0) LOAD_FRAGS(0, Als[0], Bls[0], 0)
  for (int t = 0; t < ntile; t++) {
    __local const tile_t *As = Als[t % ASYNC], *Bs = Bls[t % ASYNC];
    MMA_UNROLL
    for (int ks = 0; ks < KSUB; ks++) {
      // KSUB is 1, 2 or 4: tile t + 1 starts in buffer 0 (one sub-step: moved there below)
      const int cur = KSUB == 1 ? 0 : ks % 2;
      if (ks == KSUB - 1) {
        const int nt = t + ASYNC - 1;
        if (nt < ntile) ASYNC_ISSUE(nt % ASYNC, nt)
        CP_COMMIT();
        CP_WAIT();
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t + 1 < ntile) LOAD_FRAGS(cur ^ 1, Als[(t + 1) % ASYNC], Bls[(t + 1) % ASYNC], 0)
      } else {
        LOAD_FRAGS(cur ^ 1, As, Bs, (ks + 1) * MMA_K)
      }
      MMA_PRODUCTS_OF(af[cur], bf[cur], afs[cur], bfs[cur]);
#if KSUB == 1
#pragma unroll
      for (int i = 0; i < MMA_MB; i++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
          af[0][i][e] = af[1][i][e];
#if MATH == 2
          afs[0][i][e] = afs[1][i][e];
#endif
        }
#pragma unroll
      for (int j = 0; j < NWI; j++)
#pragma unroll
        for (int e = 0; e < 2; e++) {
          bf[0][j][e] = bf[1][j][e];
#if MATH == 2
          bfs[0][j][e] = bfs[1][j][e];
#endif
        }
#endif
    }
  }
#endif
#undef afs
#undef bfs
#else
  for (; k < klen; k += KWG) {
#if STAGED && !DBUF
#if SA
#pragma unroll
    for (int l = 0; l < NLA; l++)
#if PF
      LOCAL_A(0, l) = pa[l];
#else
      LOCAL_A(0, l) = GLOBAL_A(l, 0);
#endif
#endif
#if SB
#pragma unroll
    for (int l = 0; l < NLB; l++)
#if PF
      VAT(LOCAL_B(0, l)) = pb[l];
#else
      VAT(LOCAL_B(0, l)) = GLOBAL_B(l, 0);
#endif
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if PF
    // The next step's loads are issued now and land while this step computes.
    if (k + KWG < klen) {
#if DIRECT
      FETCH_A(KWG)
      FETCH_B(KWG)
#else
#if SA
#pragma unroll
      for (int l = 0; l < NLA; l++) pa[l] = GLOBAL_A(l, KWG);
#endif
#if SB
#pragma unroll
      for (int l = 0; l < NLB; l++) pb[l] = GLOBAL_B(l, KWG);
#endif
#endif
    }
#endif
#if MMA == 4
    // k rows 2t, 2t + 1 (and 2t + 8, 2t + 9) of each 16-deep step: register 2q + h of the tile's
    // rows g + 8 h packs A at k = 2t + 8q and 2t + 8q + 1; register q of column g packs B there
    MMA_UNROLL
    for (int kq = 0; kq < KWG; kq += MMA_K) {
      frag_t af[MMA_MB][MMA_RA], bf[NWI][MMA_RB];
#pragma unroll
      for (int q = 0; q < 2; q++) {
        const int k0 = kq + 2 * (lane % 4) + 8 * q;
        const int ka = k0 * ALS_LD, kb = k0 * BLS_LD;
#pragma unroll
        for (int i = 0; i < MMA_MB; i++)
#pragma unroll
          for (int h = 0; h < 2; h++) {
            const int m = ka + wm + MMA_RM * i + 8 * h + lane / 4;
            af[i][2 * q + h] = (uint)Als[buf][m] | ((uint)Als[buf][m + ALS_LD] << 16);
          }
#pragma unroll
        for (int j = 0; j < NWI; j++) {
          const int n = kb + wn + 8 * j + lane / 4;
          bf[j][q] = (uint)Bls[buf][n] | ((uint)Bls[buf][n + BLS_LD] << 16);
        }
      }
      MMA_PRODUCTS();
    }
#elif MMA
    // k rows t, t + 4, .. of each MMA_K-deep step; per quad of k rows, the A registers of the
    // tile's rows g (and g + 8 for 16-row tiles) and the B register of column g; TF32 (MMA=5):
    // rounded from the staged floats, and for 3xTF32 their remainders too
    MMA_UNROLL
    for (int kq = 0; kq < KWG; kq += MMA_K) {
      frag_t af[MMA_MB][MMA_NA], bf[NWI][MMA_NB];
#if MATH == 2
      frag_t afs[MMA_MB][MMA_NA], bfs[NWI][MMA_NB];  // tf32(x - big)
#endif
#pragma unroll
      for (int q = 0; q < MMA_K / 4; q++) {
        const int ka = (kq + lane % 4 + 4 * q) * ALS_LD, kb = (kq + lane % 4 + 4 * q) * BLS_LD;
#pragma unroll
        for (int i = 0; i < MMA_MB; i++)
#pragma unroll
          for (int h = 0; h < MMA_RM / 8; h++) {
            const real x = Als[buf][ka + wm + MMA_RM * i + 8 * h + lane / 4];
#if MMA == 5
            af[i][(MMA_RM / 8) * q + h] = TF32_OF(x);
#if MATH == 2
            afs[i][(MMA_RM / 8) * q + h] = TF32_OF(x - as_float(af[i][(MMA_RM / 8) * q + h]));
#endif
#else
            af[i][(MMA_RM / 8) * q + h] = x;
#endif
          }
#pragma unroll
        for (int j = 0; j < NWI; j++) {
          const real x = Bls[buf][kb + wn + 8 * j + lane / 4];
#if MMA == 5
          bf[j][q] = TF32_OF(x);
#if MATH == 2
          bfs[j][q] = TF32_OF(x - as_float(bf[j][q]));
#endif
#else
          bf[j][q] = x;
#endif
        }
      }
      MMA_PRODUCTS();
    }
#else
#pragma unroll
    for (int kk = 0; kk < KWG; kk++) {
      realV b[NVI];
#pragma unroll
      for (int j = 0; j < NVI; j++)
#if SB
        b[j] = VAT(Bls[buf] + kk * BLS_LD + VEC_OF(j) * VW);
#else
        b[j] = VAT_G(Bg + (long)kk * ldb + VEC_OF(j) * VW);
#endif
      real a[MWI];
#if VWA > 1
#pragma unroll
      for (int i = 0; i < MWI; i += VWA) {
        realA av = AAT(Als[buf] + kk * ALS_LD + ROW_OF(i));
        a[i + 0] = av.s0; a[i + 1] = av.s1;
#if VWA >= 4
        a[i + 2] = av.s2; a[i + 3] = av.s3;
#endif
#if VWA >= 8
        a[i + 4] = av.s4; a[i + 5] = av.s5; a[i + 6] = av.s6; a[i + 7] = av.s7;
#endif
      }
#else
#pragma unroll
      for (int i = 0; i < MWI; i++)
#if SA
        a[i] = Als[buf][kk * ALS_LD + ROW_OF(i)];
#else
        a[i] = Ag[(long)ROW_OF(i) * lda + kk];
#endif
#endif
#pragma unroll
      for (int i = 0; i < MWI; i++)
#pragma unroll
        for (int j = 0; j < NVI; j++) acc[i][j] = fma((realV)(a[i]), b[j], acc[i][j]);
    }
#endif
#if DBUF
    // Store the next tile into the other buffer; the one barrier of the step follows.
    if (k + KWG < klen) {
#if SA
#pragma unroll
      for (int l = 0; l < NLA; l++) LOCAL_A(buf ^ 1, l) = pa[l];
#endif
#if SB
#pragma unroll
      for (int l = 0; l < NLB; l++) VAT(LOCAL_B(buf ^ 1, l)) = pb[l];
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    buf ^= 1;
#elif STAGED
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    Ag += KWG;
    Bg += (long)KWG * ldb;
  }
#endif

  // ---------------- epilogue: C = alpha*acc + beta*C, guarded ----------------
#if MMA
#pragma unroll
  for (int i = 0; i < MMA_MB; i++)
#pragma unroll
    for (int e = 0; e < MMA_ND; e++) {  // D element e: row g + 8 (e / 2), column 2 t + e % 2
      const int row = m0 + wm + MMA_RM * i + lane / 4 + 8 * (e / 2);
      if (row < Mc) {
        __global cout_t *Cr = C + (long)row * ldc;
#pragma unroll
        for (int j = 0; j < NWI; j++) {
          const int col = n0 + wn + 8 * j + 2 * (lane % 4) + e % 2;
          if (col < Nc && TRI_KEEP(row, col))
            C_STORE(beta != ZERO ? fma(beta, C_LOAD(Cr, col), alpha * acc[i][j][e])
                                 : alpha * acc[i][j][e],
                    Cr, col);
        }
      }
    }
#else
#pragma unroll
  for (int i = 0; i < MWI; i++) {
    const int row = m0 + ROW_OF(i);
    if (row < Mc) {
      __global real *Cr = C + (long)row * ldc;
#pragma unroll
      for (int j = 0; j < NVI; j++) {
        const int col = n0 + VEC_OF(j) * VW;
        realV r = alpha * acc[i][j];
#if TRI == 1
        if (col + VW <= Nc && col + VW - 1 <= row) {
#elif TRI == 2
        if (col + VW <= Nc && col >= row) {
#else
        if (col + VW <= Nc) {
#endif
          if (beta != (real)0) r = fma((realV)(beta), VLOAD(0, Cr + col), r);
          VSTORE(r, 0, Cr + col);
        } else {
#if VW == 1
          if (col < Nc && TRI_KEEP(row, col)) Cr[col] = (beta != (real)0) ? beta * Cr[col] + r : r;
#else
          real t[VW];
          VSTORE(r, 0, t);
#pragma unroll
          for (int v = 0; v < VW; v++)
            if (col + v < Nc && TRI_KEEP(row, col + v))
              Cr[col + v] = (beta != (real)0) ? beta * Cr[col + v] + t[v] : t[v];
#endif
        }
      }
    }
  }
#endif
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
/* ---- the second pass of split k: C = sum over z of W[z] (+ beta C), slices added in a fixed
 * order, so the result has the same bits on every run. W holds S slices of Mc x ldw (in real: float
 * partial sums for 16-bit storage, whose C is rounded once, here). ---------- */
__kernel void gemm_splitk_sum(const int Mc, const int Nc, const int S,
                              __global const real *W, const int ldw, const long wslice,
                              const real beta, __global sreal *C, const int ldc,
                              const long c_off)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= Mc || col >= Nc) return;
    C += c_off;
    __global const real *w = W + (long)row * ldw + col;
    real acc = w[0];
    for (int z = 1; z < S; ++z) acc += w[z * wslice];
    const long i = (long)row * ldc + col; /* 16-bit storage: rounded here, once */
    STORE((beta == ZERO) ? acc : acc + beta * LOAD(C, i), C, i);
}

#endif
