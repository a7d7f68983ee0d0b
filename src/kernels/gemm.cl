/* gemm.cl: the GEMM family, row-major C[M x N] = alpha * A[M x K] * B[K x N] + beta * C.
 * The host maps column-major and transposed problems onto this one (see src/ops/gemm.c).
 *
 * The ladder kernels (naive, tiled, regblock) take A and B through a row stride and a column
 * stride each, so transposes are a runtime argument, and they guard every access, so any M, N,
 * K is valid. tiled2d is the fast kernel: it states its preconditions (sizes multiples of its
 * tile, A and B not transposed) and the host's pack pre-pass (gemm_pack) establishes them. */

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

/* ---- tiled2d: local-memory tiles plus a 2D register block per work-item -------------------
 * Preconditions (the host packs to meet them): M % MWG == 0, N % NWG == 0, K % KWG == 0, A and
 * B row-major with lda, ldb multiples of VW. Mc x Nc is the caller's real C: stores and C reads
 * are guarded against it. Work-group (NDIMC, MDIMC); each work-item owns MWI x NWI of C. */
#ifndef MWG
#define MWG 64
#endif
#ifndef NWG
#define NWG 64
#endif
#ifndef KWG
#define KWG 16
#endif
#ifndef MDIMC
#define MDIMC 16
#endif
#ifndef NDIMC
#define NDIMC 16
#endif
#ifndef USE_LOCAL
#define USE_LOCAL 1
#endif
#define MWI (MWG / MDIMC)
#define NWI (NWG / NDIMC)

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void gemm_tiled2d(const int M, const int N, const int K, const int Mc, const int Nc,
                  const real alpha, __global const real *A, const int lda,
                  __global const real *B, const int ldb, const real beta,
                  __global real *C, const int ldc)
{
    const int tx = get_local_id(0), ty = get_local_id(1);
    const int row0 = get_group_id(1) * MWG, col0 = get_group_id(0) * NWG;
    real acc[MWI][NWI];
    for (int i = 0; i < MWI; ++i)
        for (int j = 0; j < NWI; ++j) acc[i][j] = ZERO;
#if USE_LOCAL
    __local real As[KWG][MWG + 1];
    __local real Bs[KWG][NWG];
    const int tid = ty * NDIMC + tx;
    for (int kk = 0; kk < K; kk += KWG) {
        for (int idx = tid; idx < MWG * KWG; idx += MDIMC * NDIMC) {
            const int r = idx / KWG, c = idx % KWG;
            As[c][r] = A[(long)(row0 + r) * lda + kk + c];
        }
        for (int idx = tid; idx < KWG * NWG; idx += MDIMC * NDIMC) {
            const int r = idx / NWG, c = idx % NWG;
            Bs[r][c] = B[(long)(kk + r) * ldb + col0 + c];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < KWG; ++k) {
            real a[MWI], b[NWI];
            for (int i = 0; i < MWI; ++i) a[i] = As[k][ty + i * MDIMC];
            for (int j = 0; j < NWI; ++j) b[j] = Bs[k][tx + j * NDIMC];
            for (int i = 0; i < MWI; ++i)
                for (int j = 0; j < NWI; ++j) acc[i][j] = mad(a[i], b[j], acc[i][j]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int i = 0; i < MWI; ++i) {
        const int row = row0 + ty + i * MDIMC;
        for (int j = 0; j < NWI; ++j) {
            const int col = col0 + tx + j * NDIMC;
            if (row < Mc && col < Nc) GEMM_STORE(C[(long)row * ldc + col], alpha, acc[i][j], beta);
        }
    }
#else
    const int rowt = row0 + ty * MWI, colt = col0 + tx * NWI;
    __global const real *a = A + (long)rowt * lda;
    __global const real *b = B + colt;
    for (int k = 0; k < K; ++k) {
        real bv[NWI];
        for (int j = 0; j < NWI; ++j) bv[j] = b[j];
        for (int i = 0; i < MWI; ++i) {
            const real av = a[(long)i * lda + k];
            for (int j = 0; j < NWI; ++j) acc[i][j] = mad(av, bv[j], acc[i][j]);
        }
        b += ldb;
    }
    for (int i = 0; i < MWI; ++i)
        for (int j = 0; j < NWI; ++j)
            if (rowt + i < Mc && colt + j < Nc)
                GEMM_STORE(C[(long)(rowt + i) * ldc + colt + j], alpha, acc[i][j], beta);
#endif
}
