/* gemm.cl: the GEMM family, row-major C[M x N] = alpha * A[M x K] * B[K x N] + beta * C.
 * The host maps column-major and transposed problems onto this one (see src/ops/gemm.c).
 *
 * The ladder kernels (naive, tiled, regblock) take A and B through a row stride and a column
 * stride each, so transposes are a runtime argument, and they guard every access, so any M, N,
 * K is valid. tiled2d is the fast kernel: it states its preconditions (sizes multiples of its
 * tile, A and B not transposed) and the host's pack pre-pass (gemm_pack) establishes them.
 *
 * The host builds each program with -DONLY_ONE_KERNEL -DONLY_<kernel name>, so a program holds
 * just the kernel it is for: faster builds, and on NVIDIA one kernel's register use cannot lower
 * another's work-group limit (a heavy tiled2d next to gemm_tiled capped it at 256 work-items).
 * Without those options the file compiles every kernel, on its own. */

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_naive)
/* ---- naive: one work-item per element of C, global memory only (000's gpu1, 003's gpu2) ---- */
__kernel void gemm_naive(const int M, const int N, const int K, const real alpha,
                         __global const real *A, const int a_rs, const int a_cs,
                         __global const real *B, const int b_rs, const int b_cs,
                         const real beta, __global real *C, const int ldc)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= M || col >= N) return;
    __global const real *a = A + (long)row * a_rs;
    __global const real *b = B + (long)col * b_cs;
    real acc = ZERO;
    for (int l = 0; l < K; ++l) {
        acc += a[0] * b[0];
        a += a_cs;
        b += b_rs;
    }
    GEMM_STORE(C[(long)row * ldc + col], alpha, acc, beta);
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
                __global const real *A, const int a_rs, const int a_cs,
                __global const real *B, const int b_rs, const int b_cs,
                const real beta, __global real *C, const int ldc)
{
    __local real As[TS][TS];
    __local real Bs[TS][TS + 1]; /* +1: B is read down a column, keep its rows off one bank */
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int col = get_group_id(0) * TS + tx;
    const int row = get_group_id(1) * TS + ty;
    real acc = ZERO;
    for (int t = 0; t < K; t += TS) {
        As[ty][tx] = (row < M && t + tx < K) ? A[(long)row * a_rs + (long)(t + tx) * a_cs] : ZERO;
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(long)(t + ty) * b_rs + (long)col * b_cs] : ZERO;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int l = 0; l < TS; ++l) acc += As[ty][l] * Bs[l][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N) GEMM_STORE(C[(long)row * ldc + col], alpha, acc, beta);
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
                            __global const real *A, const int a_rs, const int a_cs,
                            __global const real *B, const int b_rs, const int b_cs,
                            const real beta, __global real *C, const int ldc)
{
    const int col = get_global_id(0);
    const int row0 = get_global_id(1) * RB;
    if (row0 >= M || col >= N) return;
    __global const real *a[RB];
    for (int p = 0; p < RB; ++p) a[p] = A + (long)min(row0 + p, M - 1) * a_rs;
    __global const real *b = B + (long)col * b_cs;
    real acc[RB];
    for (int p = 0; p < RB; ++p) acc[p] = ZERO;
    for (long l = 0; l < K; ++l) {
        const real bv = b[l * b_rs];
        for (int p = 0; p < RB; ++p) acc[p] += a[p][l * a_cs] * bv;
    }
    for (int p = 0; p < RB; ++p)
        if (row0 + p < M) GEMM_STORE(C[(long)(row0 + p) * ldc + col], alpha, acc[p], beta);
}

#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_pack)
/* ---- pack: copy a strided (possibly transposed) rows x cols matrix into a dense prows x pcols
 * one, zero-filling the padding; the pre-pass that gives tiled2d its preconditions. ---------- */
__kernel void gemm_pack(const int rows, const int cols, __global const real *src, const int s_rs,
                        const int s_cs, const int prows, const int pcols, __global real *dst)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= prows || col >= pcols) return;
    dst[(long)row * pcols + col] =
        (row < rows && col < cols) ? src[(long)row * s_rs + (long)col * s_cs] : ZERO;
}

#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_tiled2d)
/* ---- tiled2d: local-memory (or cache) tiles plus a 2D register block per work-item ---------
 * C[Mc x Nc] = alpha * A[M x K] * B[K x N] + beta * C, row-major. Preconditions (the host's pack
 * pre-pass establishes them): M % MWG == 0, N % NWG == 0, K % KWG == 0, padded rows/columns of A
 * and B are zero. C is the caller's real matrix: stores and C reads are guarded against Mc x Nc.
 * global = (N/NWG*NDIMC, M/MWG*MDIMC), local = (NDIMC, MDIMC). The defaults are the PoCL/AVX-512
 * setting; src/ops/gemm.c passes each device type's parameters as -D options.
 * USE_LOCAL=0 (CPUs): each work-item keeps MWI x NWI of C in VW-wide vector accumulators and reads
 * A and B through the caches; a work-group of MDIMC items along m shares one K x NWG panel of B.
 * USE_LOCAL=1 (GPUs): A (transposed, padded against bank conflicts) and B tiles staged in local
 * memory; work-items own interleaved rows and vectors (STRIDED) so accesses coalesce. */
// ---- tunables (defaults = best measured on PoCL/AVX-512 CPU) ----
// GPU (NVIDIA) setting: -DUSE_LOCAL=1 -DMWG=128 -DNWG=128 -DKWG=16
//                       -DMDIMC=16 -DNDIMC=16 -DVW=4   (8x8 per work-item)
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
#define KWG 8      // k-step (unroll on CPU, local tile depth with USE_LOCAL)
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
// STRIDED=0: a work-item owns MWI contiguous rows and NWI contiguous cols
//            (best for CPUs: contiguous vector loads/stores per work-item).
// STRIDED=1: a work-item owns rows tid_m + i*MDIMC and vectors tid_n + j*NDIMC
//            (coalesced global access / conflict-free local reads on GPUs).
#ifndef STRIDED
#define STRIDED USE_LOCAL
#endif
// Vector width used to load A from local memory (USE_LOCAL=1 only), 1,2,4,8.
#ifndef VWA
#define VWA 1
#endif
// Padding of the transposed local A tile row (USE_LOCAL=1 only): avoids bank
// conflicts when storing A transposed. Must keep (MWG+APAD) % VWA == 0.
#ifndef APAD
#if STRIDED
#define APAD 1
#else
#define APAD 0
#endif
#endif
#define ALS_LD (MWG + APAD)

#define MWI (MWG / MDIMC)   // rows per work-item
#define NWI (NWG / NDIMC)   // cols per work-item
#define NVI (NWI / VW)      // vectors per work-item along n

#if MWG % MDIMC != 0 || NWG % NDIMC != 0 || NWI % VW != 0
#error "tiled2d: MWG%MDIMC, NWG%NDIMC and (NWG/NDIMC)%VW must be 0"
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if VW == 1
typedef real realV;
#define VLOAD(off, p) ((p)[off])
#define VSTORE(x, off, p) ((p)[off] = (x))
#else
typedef CAT(REALNAME, VW) realV;
#define VLOAD(off, p) CAT(vload, VW)(off, p)
#define VSTORE(x, off, p) CAT(vstore, VW)(x, off, p)
#endif

#if STRIDED
#define ROW_OF(i) (tid_m + (i) * MDIMC)          // within work-group tile
#define VEC_OF(j) (tid_n + (j) * NDIMC)          // vector index within tile
#else
#define ROW_OF(i) (tid_m * MWI + (i))
#define VEC_OF(j) (tid_n * NVI + (j))
#endif

#if USE_LOCAL
#define NTHREADS (MDIMC * NDIMC)
#if (MWG * KWG) % NTHREADS != 0 || (KWG * NWG / VW) % NTHREADS != 0
#error "tiled2d: tiles must be divisible by the work-group size"
#endif
#if MWI % VWA != 0 || ALS_LD % VWA != 0
#error "tiled2d: MWI % VWA and (MWG+APAD) % VWA must be 0"
#endif
#if VWA == 1
typedef real realA;
#define ALOAD(off, p) ((p)[off])
#else
typedef CAT(REALNAME, VWA) realA;
#define ALOAD(off, p) CAT(vload, VWA)(off, p)
#endif
#endif

__attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
__kernel void gemm_tiled2d(const int M, const int N, const int K,
                           const int Mc, const int Nc,
                           const real alpha,
                           __global const real *restrict A, const int lda,
                           __global const real *restrict B, const int ldb,
                           const real beta,
                           __global real *C, const int ldc)
{
  const int tid_n = get_local_id(0);
  const int tid_m = get_local_id(1);
  const int m0 = get_group_id(1) * MWG;     // first row of the group tile
  const int n0 = get_group_id(0) * NWG;     // first col of the group tile

  realV acc[MWI][NVI];
#pragma unroll
  for (int i = 0; i < MWI; i++)
#pragma unroll
    for (int j = 0; j < NVI; j++) acc[i][j] = (realV)(0);

#if USE_LOCAL == 0
  // ---------------- cache-based path (CPU) ----------------
  // Per-row A pointers and the B pointer at (k=0, first col of this item).
  __global const real *Ap = A + (long)m0 * lda;
  __global const real *Bp = B + n0;
  for (int k = 0; k < K; k += KWG) {
#pragma unroll
    for (int kk = 0; kk < KWG; kk++) {
      realV b[NVI];
#pragma unroll
      for (int j = 0; j < NVI; j++)
        b[j] = VLOAD(0, Bp + (long)kk * ldb + VEC_OF(j) * VW);
#pragma unroll
      for (int i = 0; i < MWI; i++) {
        const real a = Ap[(long)ROW_OF(i) * lda + kk];
#pragma unroll
        for (int j = 0; j < NVI; j++) acc[i][j] = fma((realV)(a), b[j], acc[i][j]);
      }
    }
    Ap += KWG;
    Bp += (long)KWG * ldb;
  }
#else
  // ---------------- local-memory path (GPU) ----------------
  // Als is stored transposed: Als[k][m] so that a work-item reads its MWI
  // A values along m (vectorizable with VWA when STRIDED == 0).
  __local real Als[KWG * ALS_LD];
  __local real Bls[KWG * NWG];
  const int tid = tid_m * NDIMC + tid_n;
  __global const real *Ag = A + (long)m0 * lda;
  __global const real *Bg = B + n0;
  for (int k = 0; k < K; k += KWG) {
    // A tile MWG x KWG: consecutive threads read consecutive k (coalesced)
#pragma unroll
    for (int l = 0; l < (MWG * KWG) / NTHREADS; l++) {
      const int idx = tid + l * NTHREADS;
      const int r = idx / KWG, c = idx % KWG;
      Als[c * ALS_LD + r] = Ag[(long)r * lda + c];
    }
    // B tile KWG x NWG, vectorized
#pragma unroll
    for (int l = 0; l < (KWG * NWG / VW) / NTHREADS; l++) {
      const int idx = tid + l * NTHREADS;
      const int r = idx / (NWG / VW), c = idx % (NWG / VW);
      VSTORE(VLOAD(0, Bg + (long)r * ldb + c * VW), 0, Bls + r * NWG + c * VW);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int kk = 0; kk < KWG; kk++) {
      realV b[NVI];
#pragma unroll
      for (int j = 0; j < NVI; j++) b[j] = VLOAD(0, Bls + kk * NWG + VEC_OF(j) * VW);
      real a[MWI];
#if VWA > 1 && STRIDED == 0
#pragma unroll
      for (int i = 0; i < MWI; i += VWA) {
        realA av = ALOAD(0, Als + kk * ALS_LD + ROW_OF(i));
#if VWA >= 2
        a[i + 0] = av.s0; a[i + 1] = av.s1;
#endif
#if VWA >= 4
        a[i + 2] = av.s2; a[i + 3] = av.s3;
#endif
#if VWA >= 8
        a[i + 4] = av.s4; a[i + 5] = av.s5; a[i + 6] = av.s6; a[i + 7] = av.s7;
#endif
      }
#else
#pragma unroll
      for (int i = 0; i < MWI; i++) a[i] = Als[kk * ALS_LD + ROW_OF(i)];
#endif
#pragma unroll
      for (int i = 0; i < MWI; i++)
#pragma unroll
        for (int j = 0; j < NVI; j++) acc[i][j] = fma((realV)(a[i]), b[j], acc[i][j]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    Ag += KWG;
    Bg += (long)KWG * ldb;
  }
#endif

  // ---------------- epilogue: C = alpha*acc + beta*C, guarded ----------------
#pragma unroll
  for (int i = 0; i < MWI; i++) {
    const int row = m0 + ROW_OF(i);
    if (row < Mc) {
      __global real *Cr = C + (long)row * ldc;
#pragma unroll
      for (int j = 0; j < NVI; j++) {
        const int col = n0 + VEC_OF(j) * VW;
        realV r = alpha * acc[i][j];
        if (col + VW <= Nc) {
          if (beta != (real)0) r = fma((realV)(beta), VLOAD(0, Cr + col), r);
          VSTORE(r, 0, Cr + col);
        } else {
#if VW == 1
          if (col < Nc) Cr[col] = (beta != (real)0) ? beta * Cr[col] + r : r;
#else
          real t[VW];
          VSTORE(r, 0, t);
#pragma unroll
          for (int v = 0; v < VW; v++)
            if (col + v < Nc) Cr[col + v] = (beta != (real)0) ? beta * Cr[col + v] + t[v] : t[v];
#endif
        }
      }
    }
  }
}
#endif
