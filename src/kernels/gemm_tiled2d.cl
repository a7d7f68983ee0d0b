/* gemm_tiled2d.cl: tiled2d, the tuned GEMM kernel, first part: its parameters (the tuner's
 * search space: defaults, the rules they must keep, the quantities derived from them) and the
 * types and accesses they select. A tiled2d program is common.cl, gemm.cl (the prelude of the GEMM
 * kernels), this file, gemm_mma.cl (the matrix instructions and their emulation) and
 * gemm_tiled2d_kernel.cl (the kernel), in that order (src/gemm/gemm.c). */
#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_tiled2d)
/* ---- tiled2d: the parameterized kernel (tiles, 2D register blocks, vectors, staging) -------
 * C[Mc x Nc] = alpha * A[M x K] * B[K x N] + beta * C, row-major. Preconditions (the host's pack
 * pre-pass establishes them): M % MWG == 0, N % NWG == 0, K % KWG == 0, padded rows/columns of A
 * and B are zero; with DIRECT, none (M, N, K are the real sizes), except B's VW alignment. C is the caller's real matrix: stores and C reads are guarded against Mc x Nc.
 * global = (N/NWG*NDIMC, M/MWG*MDIMC), local = (NDIMC, MDIMC).
 *
 * Every choice is a compile-time parameter, so one source is the whole search space of the tuner
 * (src/gemm/gemm.c lists the values and the constraints; docs/tuning.md):
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
 *   ASYNC       2, 3 or 4 (MMA=1 to 5): the staged tiles arrive by asynchronous copies (cp.async)
 *               into a ring of ASYNC local buffers, ASYNC - 1 tiles ahead, A stored [m][k] and
 *               read by ldmatrix, 16-bit B by ldmatrix.trans (rows swizzled instead of padded);
 *               FP64 (MMA=1-3) by plain local reads, A's rows padded by 4 doubles, B's by 8;
 *               no PF, DBUF or DIRECT (the host packs what is not 16-byte aligned); groups launch
 *               in bands of 8 tile rows. FPIPE 1: the fragments double-buffered in registers
 *               (the next sub-step's read while this one's products issue: faster where the
 *               registers allow, docs/gemm.md)
 * USE_LOCAL=1 is the old spelling of SA=SB=1. The defaults are the PoCL/AVX-512 setting.
 * Two options that are no tunables but modes of the Level-3 routines (src/level3/level3.c, through
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
 *               kchunk is K (no split k).
 *   STAIR       with BATCH: problem z needs only rows (z + 1) STAIR_S on of C (1), rows before
 *               z STAIR_S (2), or those columns (3, 4); a group whose tile lies wholly outside
 *               returns at once (TRSM's F products, src/level3/level3_tri.c). */
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
/* The staged tiles: A is ALS_ROWS rows of ALS_LD elements, B KWG rows of BLS_LD (B^T with BT:
 * NWG rows of KWG). Without ASYNC, A is stored transposed, [k][m]. */
#if ASYNC
/* ASYNC stages A as [m][k], copied row by row from row-major A in 16-byte chunks, and B as
 * [k][n]. 16-bit and TF32 A rows are KWG long, read by ldmatrix and swizzled instead of padded;
 * FP64 A rows (no ldmatrix for doubles: plain reads of A[g][t]) are padded by 4 doubles: row g of
 * a fragment read starts at bank 2 (KWG + 4) g mod 32, which for KWG = 8, 16, 32 (strides 12, 20,
 * 36) puts 4 consecutive rows on disjoint banks, so the 8 rows' 256 bytes take two wavefronts,
 * the least there can be (unpadded, KWG = 8 puts rows g and g + 2 on the same banks: four).
 * 16-bit B is unpadded (swizzled); float and double B padded by 8 (scalar fragment reads: the 4
 * k rows t of one fall on both halves of the banks). */
#define ALS_ROWS MWG
#define ALS_LD (MMA >= 1 && MMA <= 3 ? KWG + 4 : KWG)
#define BLS_LD (MMA == 4 || BT ? NWG : NWG + 8)
#elif MMA
#define ALS_ROWS KWG
#define ALS_LD (MWG + 8)
#define BLS_LD (NWG + 8)
#else
#define ALS_ROWS KWG
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
#ifndef BAND
#define BAND 0  // 1: the launch order in bands of 8 tile rows (gemm_tiled2d.c, band_order)
#endif
#ifndef TRI
#define TRI 0
#endif
#ifndef BATCH
#define BATCH 0
#endif
#ifndef STAIR
#define STAIR 0
#endif
#if STAIR && !BATCH
#error "tiled2d: STAIR is a mode of BATCH"
#endif
/* whether element (row, col) of C is stored (TRI 1, 2: its referenced triangle only). TRI_CS:
 * C's columns per row of the triangle, 2 for a complex C in its real form (the 4M complex GEMM:
 * complex element (i, j) is real columns 2j and 2j + 1). */
#ifndef TRI_CS
#define TRI_CS 1
#endif
#if TRI == 1
#define TRI_KEEP(row, col) ((col) <= TRI_CS * (row) + TRI_CS - 1)
#elif TRI == 2
#define TRI_KEEP(row, col) ((col) >= TRI_CS * (row))
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
#ifndef WG
#define WG 0
#endif
#if SA && !WG && (MWG * KWG) % NTHREADS != 0
#error "tiled2d: the A tile must divide among the work-items"
#endif
#if SB && !WG && (KWG * NWG / VW) % NTHREADS != 0
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
/* Two neighbours of a row of C, v.s0 at i and v.s1 at i + 1, in one store (the tensor-core path's
 * epilogue: a lane's accumulators come in such pairs), where i is even and C's row and origin keep
 * it so: 4 bytes of 16-bit storage, a float2 or double2. A typed store, not vstore2, which only
 * promises scalar alignment (NVIDIA's compiler splits it). */
typedef CAT(REALNAME, 2) real2_t;
/* A pair of 16-bit values as one word, the lower column in the low half (the tensor-core
 * epilogue's paired stores and its staging through local memory). Half on NVIDIA: one
 * cvt.rn.f16x2.f32 (sm_80 on, as the instruction itself; round to nearest even, as
 * vstore_half_rte), where vstorea_half2_rte became two 16-bit stores (PTX st.global.u16 x 2):
 * H100 half 4096^3 376 -> 399 TFLOP/s, 4096 x 4096 x 256 96 -> 145 (docs/gemm.md). */
#if STORAGE_HALF && MMA == 4 && !MMA_EMULATE
uint half2_bits(const float2 v)
{
  uint r;
  __asm__("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(v.s1), "f"(v.s0));
  return r;
}
#define PAIR16(v) half2_bits(v)
#elif STORAGE_HALF
uint half2_pack(const float2 v)
{
  ushort u[2];
  vstore_half_rte(v.s0, 0, (__private half *)u);
  vstore_half_rte(v.s1, 1, (__private half *)u);
  return (uint)u[0] | ((uint)u[1] << 16);
}
#define PAIR16(v) half2_pack(v)
#elif STORAGE_BF16
#define PAIR16(v) ((uint)float_to_bf16((v).s0) | ((uint)float_to_bf16((v).s1) << 16))
#endif
#if STORAGE16 && !SPLIT_OUT
#define C_STORE2(v, p, i) (*(__global uint *)((p) + (i)) = PAIR16(v))
#else
#define C_STORE2(v, p, i) (*(__global real2_t *)((p) + (i)) = (v))
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

#endif
