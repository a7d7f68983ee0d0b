/* gemm_tiled2d_kernel.cl: the tiled2d kernel itself, after gemm_tiled2d.cl (its parameters) and
 * gemm_mma.cl (the matrix instructions): staging, the k loop (FMA, MMA, or ASYNC's ring), the
 * epilogue. */
#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_tiled2d)
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
#if CIN
                           , __global const cout_t *Cin, const int ldcin, const long cin_off
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
#if (ASYNC && !TRI) || BAND
  // Launch order: bands of 8 tile rows, column by column within a band, so the groups in flight
  // share their panels of A and B in the L2 cache (row by row, one wave of 128 x 128 tiles of an
  // 8192^2 C spans all of B). Always for the ring (ASYNC); elsewhere where the host asks (BAND:
  // the FMA path and C's triangle (TRI 1, 2) on launches of many waves, gemm_tiled2d.c); TRI 3 to
  // 6 keep their heavy-first order.
  const int nx_ = get_num_groups(0), ny_ = get_num_groups(1);
  const int lin_ = get_group_id(1) * nx_ + get_group_id(0), band_ = lin_ / (8 * nx_);
  const int rows_ = min(8, ny_ - 8 * band_), r_ = lin_ - 8 * nx_ * band_;
  const int m0 = (8 * band_ + r_ % rows_) * MWG, n0 = (r_ / rows_) * NWG;
#elif TRI == 3
  const int m0 = (get_num_groups(1) - 1 - get_group_id(1)) * MWG;  // the heavy rows first
#else
  const int m0 = get_group_id(1) * MWG;     // first row of the group tile
#endif
#if (ASYNC && !TRI) || BAND
#elif TRI == 6
  const int n0 = (get_num_groups(0) - 1 - get_group_id(0)) * NWG;
#else
  const int n0 = get_group_id(0) * NWG;     // first col of the group tile
#endif
  (void)tid;
#if STAIR
  {  // problem z's part of C (STAIR_S z or (z + 1) on): a tile wholly outside it does nothing
    const int zs_ = get_group_id(2) * STAIR_S;
#if STAIR == 1
    if (m0 + MWG <= zs_ + STAIR_S) return;
#elif STAIR == 2
    if (m0 >= zs_) return;
#elif STAIR == 3
    if (n0 + NWG <= zs_ + STAIR_S) return;
#else
    if (n0 >= zs_) return;
#endif
  }
#endif
#if TRI == 1
  if (n0 >= TRI_CS * (m0 + MWG)) return;  // wholly above the diagonal: the unreferenced triangle
#elif TRI == 2
  if (n0 + NWG <= TRI_CS * m0) return;  // wholly below it
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
#if WG
  // warpgroup warp / 4 has rows 64 (warp / 4) of the tile, its warp warp % 4 the 16 from there
  // on, over all NWG columns
  const int wm = (warp / 4) * 64 + (warp % 4) * 16, wn = 0;
#define MMA_MB 1
#define MMA_NT (NWG / 8)
#else
  const int wm = (warp / (NDIMC / 8)) * (4 * MWI), wn = (warp % (NDIMC / 8)) * (8 * NWI);
#define MMA_MB (4 * MWI / MMA_RM)  // m-tiles of 8 (MMA=1) or 16 rows per warp
#define MMA_NT NWI                 // n-tiles of 8 columns per warp
#endif
  real acc[MMA_MB][MMA_NT][MMA_ND];
#if MMA_EMULATE && !WG
  __local frag_t mma_fa[NTHREADS * MMA_RA], mma_fb[NTHREADS * MMA_RB];  // the warps' fragments
  __local frag_t *mma_sa = mma_fa + warp * 32 * MMA_RA, *mma_sb = mma_fb + warp * 32 * MMA_RB;
#if ASYNC && MMA >= 4
  __local int ldsm_xa[NTHREADS];  // the warps' ldmatrix row offsets
  __local int *ldsm_x = ldsm_xa + warp * 32;
#endif
#endif
#pragma unroll
  for (int i = 0; i < MMA_MB; i++)
#pragma unroll
    for (int j = 0; j < MMA_NT; j++)
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
#if WG
  WG_RING_DECL;  // the ring, A and B^T per stage (gemm_wgmma.cl)
  const uint wg_base = WG_BASE;
#elif SA && RING_BYTES
  // The ring in one array of RING_BYTES, A's stages then B's (the host's choice: a ring past
  // OpenCL's 48 KiB on sm_90, or any ring under the emulation, which the tests run), reached
  // through RING_BASE, a pointer the compiler cannot trace to the declaration (gemm_mma.cl)
  RING_DECL;
  __local tile_t *const Als_ring = (__local tile_t *)RING_BASE(ring_);
  __local tile_t *const Bls_ring = Als_ring + NBUF * ALS_ROWS * ALS_LD;
#define ALS(b) (Als_ring + (b) * (ALS_ROWS * ALS_LD))
#define BLS(b) (Bls_ring + (b) * (KWG * BLS_LD))
#elif SA
  // One flat array of NBUF buffers, not Als[NBUF][...]: the 16-bit epilogue stages C through
  // all of them at once (cs_), and an index past one row of a two-dimensional array is out of
  // bounds even where the memory is the next row's. Each buffer is [k][m]; ASYNC [m][k].
  __local tile_t Als_ring[NBUF * ALS_ROWS * ALS_LD] __attribute__((aligned(64)));
#define ALS(b) (Als_ring + (b) * (ALS_ROWS * ALS_LD))
#endif
#if SB && !WG && !RING_BYTES
  __local tile_t Bls[NBUF][KWG * BLS_LD] __attribute__((aligned(64)));
#define BLS(b) Bls[b]
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
#define LOCAL_A(buf, l) ALS(buf)[A_COL(l) * ALS_LD + A_ROW(l)]
#define LOCAL_B(buf, l) (BLS(buf) + B_ROW(l) * BLS_LD + B_VEC(l) * VW)
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
#if WG
  // wgmma's ring (gemm_wgmma.cl: WG_ISSUE, WG_STEP, WG_ADD)
  // 3xTF32 (MATH=2): the pack's second planes, the operands' remainders, M rows of A and N of
  // B^T past the first (padded sizes: the ring never reads in place)
  const long wg_plane_a = (long)M * lda, wg_plane_b = (long)N * ldb;
  (void)wg_plane_a, (void)wg_plane_b;
  for (int s = 0; s < WG_LEAD; s++) {
    if (s < ntile) WG_ISSUE(s, s)
    CP_COMMIT();
  }
  const uint wg_rows = (uint)(tid / 128) * (64 / 8) * WG_SBO;  // the warpgroup's rows of A
#if MATH == 2
  // each step's products go into a fresh accumulator (two, in turn: a step's sum is added to
  // the running one in FP32 once the wait after the next step says it is complete; with 2
  // stages each step waits for its own), as the mma.sync path's 3xTF32 does per sub-step
  real wgt0[1][MMA_NT][MMA_ND], wgt1[1][MMA_NT][MMA_ND];
  MMA_UNROLL for (int j = 0; j < MMA_NT; j++) _Pragma("unroll") for (int e = 0; e < MMA_ND; e++)
      wgt0[0][j][e] = wgt1[0][j][e] = ZERO;
  for (int t = 0; t < ntile; t += 2) {
    WG_STEP(t, wgt0, 0)
#if ASYNC > 2
    if (t > 0) WG_ADD(wgt1)
#else
    WG_ADD(wgt0)
#endif
    if (t + 1 < ntile) {
      WG_STEP(t + 1, wgt1, 0)
#if ASYNC > 2
      WG_ADD(wgt0)
#else
      WG_ADD(wgt1)
#endif
    }
  }
  WG_WAIT_ALL();
#if ASYNC > 2
  if (ntile > 0) {
    if ((ntile - 1) % 2) {
      WG_ADD(wgt1)
    } else {
      WG_ADD(wgt0)
    }
  }
#endif
#else
  for (int t = 0; t < ntile; t++) WG_STEP(t, acc, 1)
  WG_WAIT_ALL();
#endif
#else
#define ASYNC_ISSUE(st, tile)                                                               \
  {                                                                                         \
    __global const tile_t *ag_ = Ag + (tile) * KWG;                                         \
    _Pragma("unroll") for (int l = 0; l < MWG * AKC / NTHREADS; l++) {                      \
      const int q = tid + l * NTHREADS, r = q / AKC, c = q % AKC;                           \
      CP16(ALS(st) + r * ALS_LD + ASWZ(r, c) * CHE, ag_ + (long)r * lda + c * CHE);         \
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
      CP16(BLS(st) + r * KWG + SWZ(r, c, AKC) * CHE, bg_ + (long)r * ldb + c * CHE);        \
    }                                                                                       \
  }
#else
#define ASYNC_ISSUE_B(st, tile)                                                             \
  {                                                                                         \
    __global const tile_t *bg_ = Bg + (long)(tile) * KWG * ldb;                             \
    _Pragma("unroll") for (int l = 0; l < KWG * BNC / NTHREADS; l++) {                      \
      const int q = tid + l * NTHREADS, r = q / BNC, c = q % BNC;                           \
      CP16(BLS(st) + r * BLS_LD + BSWZ(r, c) * CHE, bg_ + (long)r * ldb + c * CHE);         \
    }                                                                                       \
  }
#endif
  // Fragments are double-buffered in registers: those of k sub-step s + 1 are read while the
  // products of s issue; at the last sub-step of tile t, tile t + 1 is awaited (every warp has read
  // all of tile t's fragments by then, so the barrier also frees its buffer) and its first
  // fragments read, then tile t + ASYNC is issued into the freed buffer, all before tile t's last
  // products.
#define KSUB (KWG / MMA_K)
#define NFB (FPIPE ? 2 : 1)
  frag_t af[NFB][MMA_MB][MMA_RA], bf[NFB][NWI][MMA_RB];
#if MATH == 2
  frag_t afs[NFB][MMA_MB][MMA_RA], bfs[NFB][NWI][MMA_RB];
#else
#define afs af
#define bfs bf
#endif
/* The ldmatrix.x4 reads of a tile staged [row][k] in rows of KWG (A; B^T with BT), e elements a
 * 16-byte chunk: A's 16-row m tile i (lanes 0-15 name its rows at k chunk kq / e, lanes 16-31 the
 * same rows one chunk further: a0..a3 in mma's order); B^T's pair jp of 8-row n tiles (lanes 0-7
 * (8-15) the first tile's rows at chunk kq / e (the next), lanes 16-31 the second tile's: b0, b1
 * of each). */
#define LDSM_A(x, As, kq, i, e)                                                             \
  {                                                                                         \
    const int r = wm + 16 * (i) + lane % 16;                                                \
    LDSM_X4(x, As, r * ALS_LD + SWZ(r, (kq) / (e) + lane / 16, AKC) * (e));                 \
  }
#define LDSM_BT(x, Bs, kq, jp, e)                                                           \
  {                                                                                         \
    const int r = wn + 16 * (jp) + lane % 8 + 8 * (lane / 16);                              \
    LDSM_X4(x, Bs, r * KWG + SWZ(r, (kq) / (e) + (lane / 8) % 2, AKC) * (e));               \
  }
#if MMA <= 3
  // FP64: plain local reads by the instruction's fragment rule (no ldmatrix for doubles), as the
  // non-ASYNC path below reads them, but from A stored [m][k]: af[i][(MMA_RM / 8) q + h] =
  // A[wm + MMA_RM i + 8 h + g][kq + t + 4 q], bf[j][q] = B[kq + t + 4 q][wn + 8 j + g]. A's padded
  // rows put a warp's 8 rows g of 32 bytes in two wavefronts, B's its 4 rows t (gemm_tiled2d.cl).
#define LOAD_FRAGS(fb, As, Bs, kq)                                                          \
  {                                                                                         \
    _Pragma("unroll") for (int q = 0; q < MMA_K / 4; q++) {                                 \
      const int kk_ = (kq) + lane % 4 + 4 * q;                                              \
      _Pragma("unroll") for (int i = 0; i < MMA_MB; i++)                                    \
        _Pragma("unroll") for (int h = 0; h < MMA_RM / 8; h++)                              \
          af[fb][i][(MMA_RM / 8) * q + h] =                                                 \
              As[(wm + MMA_RM * i + 8 * h + lane / 4) * ALS_LD + kk_];                      \
      _Pragma("unroll") for (int j = 0; j < NWI; j++)                                       \
        bf[fb][j][q] = Bs[kk_ * BLS_LD + wn + 8 * j + lane / 4];                            \
    }                                                                                       \
  }
#elif MMA == 4
  // A: one ldmatrix.x4 per 16 x 16 m tile (lanes 0-15 name its rows at k chunk kq / 8, lanes
  // 16-31 the same rows 8 further in k: registers a0..a3 in mma's order); B: one
  // ldmatrix.x4.trans per pair of n tiles (lanes name k rows kq + lane % 16 at the pair's first
  // or second 8 columns: b0, b1 of each tile)
#define LOAD_FRAGS(fb, As, Bs, kq)                                                          \
  {                                                                                         \
    MMA_UNROLL for (int i = 0; i < MMA_MB; i++) LDSM_A(af[fb][i], As, kq, i, 8);            \
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
#define LOAD_B4(b4, Bs, kq, jp, e) LDSM_BT(b4, Bs, kq, jp, e)
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
#define SPLIT_A(fb, i, e) afs[fb][i][e] = TF32_REM(as_float(raw[e]) - as_float(af[fb][i][e]))
#define SPLIT_B(fb, j, q, x) bfs[fb][j][q] = TF32_REM((x) - as_float(bf[fb][j][q]))
#else
#define SPLIT_A(fb, i, e)
#define SPLIT_B(fb, j, q, x)
#endif
#if BT
#define LOAD_B(fb, Bs, kq)                                                                  \
  MMA_UNROLL for (int jp = 0; jp < NWI / 2; jp++) {                                         \
    uint b4[4];                                                                             \
    LDSM_BT(b4, Bs, kq, jp, 4);                                                             \
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
      uint raw[4];                                                                          \
      LDSM_A(raw, As, kq, i, 4);                                                            \
      _Pragma("unroll") for (int e = 0; e < 4; e++) {                                       \
        af[fb][i][e] = TF32_IN(as_float(raw[e]));                                           \
        SPLIT_A(fb, i, e);                                                                  \
      }                                                                                     \
    }                                                                                       \
    LOAD_B(fb, Bs, kq)                                                                      \
  }
#endif
#if !FPIPE
  for (int s = 0; s < ASYNC - 1; s++) {
    if (s < ntile) ASYNC_ISSUE(s, s)
    CP_COMMIT();
  }
  // one set of fragments: each sub-step reads them, then issues its products
  for (int t = 0; t < ntile; t++) {
    CP_WAIT();
    barrier(CLK_LOCAL_MEM_FENCE);
    {
      const int nt = t + ASYNC - 1;
      if (nt < ntile) ASYNC_ISSUE(nt % ASYNC, nt)
      CP_COMMIT();
    }
    __local const tile_t *As = ALS(t % ASYNC), *Bs = BLS(t % ASYNC);
    MMA_UNROLL
    for (int ks = 0; ks < KSUB; ks++) {
      LOAD_FRAGS(0, As, Bs, ks * MMA_K)
      MMA_PRODUCTS_OF(af[0], bf[0], afs[0], bfs[0]);
    }
  }
#else
  // FPIPE: every buffer is filled first (tiles 0 .. ASYNC - 1); a tile's buffer is free at the
  // barrier of its last sub-step (its last fragments are in registers by then), so tile
  // t + ASYNC is issued into it right there, once tile t + 1's first fragments are read: ASYNC - 1
  // tiles of lead, as without FPIPE (refilled a step later, H100 16-bit ran 11-14% slower).
  for (int s = 0; s < ASYNC; s++) {
    if (s < ntile) ASYNC_ISSUE(s, s)
    CP_COMMIT();
  }
  CP_WAIT_FIRST();
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ntile > 0) LOAD_FRAGS(0, ALS(0), BLS(0), 0)
  for (int t = 0; t < ntile; t++) {
    __local const tile_t *As = ALS(t % ASYNC), *Bs = BLS(t % ASYNC);
    MMA_UNROLL
    for (int ks = 0; ks < KSUB; ks++) {
      // KSUB is 1 or even (a power of 2): tile t + 1 starts in buffer 0 (one sub-step: moved
      // there below)
      const int cur = KSUB == 1 ? 0 : ks % 2;
      if (ks == KSUB - 1) {
        CP_WAIT();  // tile t + 1 has landed (ASYNC + t groups committed)
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t + 1 < ntile) LOAD_FRAGS(cur ^ 1, ALS((t + 1) % ASYNC), BLS((t + 1) % ASYNC), 0)
        {  // after the fragments the next products wait for: H100, 16-bit 4096^3 +7% over before them
          const int nt = t + ASYNC;
          if (nt < ntile) ASYNC_ISSUE(t % ASYNC, nt)
          CP_COMMIT();
        }
      } else {
        LOAD_FRAGS(cur ^ 1, As, Bs, (ks + 1) * MMA_K)
      }
      MMA_PRODUCTS_OF(af[cur], bf[cur], afs[cur], bfs[cur]);
#if KSUB == 1
#pragma unroll
      for (int i = 0; i < MMA_MB; i++)
#pragma unroll
        for (int e = 0; e < MMA_RA; e++) {
          af[0][i][e] = af[1][i][e];
#if MATH == 2
          afs[0][i][e] = afs[1][i][e];
#endif
        }
#pragma unroll
      for (int j = 0; j < NWI; j++)
#pragma unroll
        for (int e = 0; e < MMA_RB; e++) {
          bf[0][j][e] = bf[1][j][e];
#if MATH == 2
          bfs[0][j][e] = bfs[1][j][e];
#endif
        }
#endif
    }
  }
#endif
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
            af[i][2 * q + h] = (uint)ALS(buf)[m] | ((uint)ALS(buf)[m + ALS_LD] << 16);
          }
#pragma unroll
        for (int j = 0; j < NWI; j++) {
          const int n = kb + wn + 8 * j + lane / 4;
          bf[j][q] = (uint)BLS(buf)[n] | ((uint)BLS(buf)[n + BLS_LD] << 16);
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
            const real x = ALS(buf)[ka + wm + MMA_RM * i + 8 * h + lane / 4];
#if MMA == 5
            af[i][(MMA_RM / 8) * q + h] = TF32_OF(x);
#if MATH == 2
            afs[i][(MMA_RM / 8) * q + h] = TF32_REM(x - as_float(af[i][(MMA_RM / 8) * q + h]));
#endif
#else
            af[i][(MMA_RM / 8) * q + h] = x;
#endif
          }
#pragma unroll
        for (int j = 0; j < NWI; j++) {
          const real x = BLS(buf)[kb + wn + 8 * j + lane / 4];
#if MMA == 5
          bf[j][q] = TF32_OF(x);
#if MATH == 2
          bfs[j][q] = TF32_REM(x - as_float(bf[j][q]));
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
        b[j] = VAT(BLS(buf) + kk * BLS_LD + VEC_OF(j) * VW);
#else
        b[j] = VAT_G(Bg + (long)kk * ldb + VEC_OF(j) * VW);
#endif
      real a[MWI];
#if VWA > 1
#pragma unroll
      for (int i = 0; i < MWI; i += VWA) {
        realA av = AAT(ALS(buf) + kk * ALS_LD + ROW_OF(i));
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
        a[i] = ALS(buf)[kk * ALS_LD + ROW_OF(i)];
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
  // CIN: beta times Cin's row (ldcin apart, from cin_off), C only written (TRSM's updates, whose
  // result goes to the workspace the next leaf reads); else C's own row.
#if CIN
#define CIN_ROW(Cr, row) (Cin + cin_off + (long)(row) * ldcin)
#else
#define CIN_ROW(Cr, row) (Cr)
#endif
#if MMA == 4 && ASYNC && !WG && !TRI && !SPLIT_OUT
  // 16-bit C with beta == 0 (uniform): the tile goes out through local memory, the ring's A
  // buffers (idle once the k loop is done), CS_ROWS rows at a time: each lane writes its pairs
  // (rows padded by 8 values: the 8 rows of a warp's store fall in distinct banks), then every
  // item stores whole 16-byte chunks of rows where C keeps them aligned (ldc, its origin and the
  // batch stride multiples of 8), element by element elsewhere.
  if (beta == ZERO) {
#define CS_LD (NWG + 8)
#define CS_ROWS (NBUF * ALS_ROWS * ALS_LD / CS_LD < MWG ? NBUF * ALS_ROWS * ALS_LD / CS_LD : MWG)
    __local ushort *cs_ = (__local ushort *)Als_ring;
    const int vec_ = ((ldc | (int)(c_off & 7) | (int)(cslice & 7)) & 7) == 0;
    MMA_UNROLL
    for (int r0 = 0; r0 < MWG; r0 += CS_ROWS) {
      barrier(CLK_LOCAL_MEM_FENCE);  // the ring's last reads, or the previous rows' stores
      MMA_UNROLL
      for (int i = 0; i < MMA_MB; i++)
        MMA_UNROLL
        for (int h = 0; h < MMA_ND / 2; h++) {
          const int rl = wm + MMA_RM * i + lane / 4 + 8 * h - r0;
          if (rl >= 0 && rl < CS_ROWS)
            MMA_UNROLL
            for (int j = 0; j < NWI; j++)
              *(__local uint *)(cs_ + rl * CS_LD + wn + 8 * j + 2 * (lane % 4)) =
                  PAIR16((real2_t)(alpha * acc[i][j][2 * h], alpha * acc[i][j][2 * h + 1]));
        }
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int q = tid; q < CS_ROWS * (NWG / 8); q += NTHREADS) {
        const int rl = q / (NWG / 8), cl = (q % (NWG / 8)) * 8;
        const int row = m0 + r0 + rl, col = n0 + cl;
        if (r0 + rl < MWG && row < Mc) {
          const uint4 v = *(__local const uint4 *)(cs_ + rl * CS_LD + cl);
          __global ushort *Cr = (__global ushort *)C + (long)row * ldc + col;
          if (vec_ && col + 8 <= Nc) {
            *(__global uint4 *)Cr = v;
          } else {
            const uint w[4] = {v.s0, v.s1, v.s2, v.s3};
            for (int e = 0; e < 8; e++)
              if (col + e < Nc) Cr[e] = (ushort)(w[e / 2] >> (16 * (e % 2)));
          }
        }
      }
    }
#undef CS_LD
#undef CS_ROWS
  } else
#endif
#if MMA
  {
  // D elements 2h and 2h + 1 of a lane are row g + 8h, columns 2t and 2t + 1: one paired store
  // where the pair lies whole inside C and C keeps pairs aligned (ldc, its origin and the split
  // slices even: one uniform test), else element by element. Loops under the emulation
  // (MMA_UNROLL): unrolled, the two paths doubled PoCL's compile time of a tensor-core test.
  const int pairs_ = ((ldc | (int)(c_off & 1) | (int)(cslice & 1)) & 1) == 0;
  MMA_UNROLL
  for (int i = 0; i < MMA_MB; i++)
    MMA_UNROLL
    for (int h = 0; h < MMA_ND / 2; h++) {
      const int row = m0 + wm + MMA_RM * i + lane / 4 + 8 * h;
      if (row < Mc) {
        __global cout_t *Cr = C + (long)row * ldc;
        __global const cout_t *Ci = CIN_ROW(Cr, row);
        MMA_UNROLL
        for (int j = 0; j < MMA_NT; j++) {
          const int col = n0 + wn + 8 * j + 2 * (lane % 4);
          real2_t r = (real2_t)(alpha * acc[i][j][2 * h], alpha * acc[i][j][2 * h + 1]);
          if (pairs_ && col + 1 < Nc && TRI_KEEP(row, col) && TRI_KEEP(row, col + 1)) {
            if (beta != ZERO)
              r = fma((real2_t)(beta), (real2_t)(C_LOAD(Ci, col), C_LOAD(Ci, col + 1)), r);
            C_STORE2(r, Cr, col);
          } else {
            if (col < Nc && TRI_KEEP(row, col))
              C_STORE(beta != ZERO ? fma(beta, C_LOAD(Ci, col), r.s0) : r.s0, Cr, col);
            if (col + 1 < Nc && TRI_KEEP(row, col + 1))
              C_STORE(beta != ZERO ? fma(beta, C_LOAD(Ci, col + 1), r.s1) : r.s1, Cr, col + 1);
          }
        }
      }
    }
  }
#else
#pragma unroll
  for (int i = 0; i < MWI; i++) {
    const int row = m0 + ROW_OF(i);
    if (row < Mc) {
      __global real *Cr = C + (long)row * ldc;
      __global const real *Ci = CIN_ROW(Cr, row);
#pragma unroll
      for (int j = 0; j < NVI; j++) {
        const int col = n0 + VEC_OF(j) * VW;
        realV r = alpha * acc[i][j];
#if TRI == 1
        if (col + VW <= Nc && col + VW - 1 <= TRI_CS * row + TRI_CS - 1) {
#elif TRI == 2
        if (col + VW <= Nc && col >= TRI_CS * row) {
#else
        if (col + VW <= Nc) {
#endif
          if (beta != (real)0) r = fma((realV)(beta), VLOAD(0, Ci + col), r);
          VSTORE(r, 0, Cr + col);
        } else {
#if VW == 1
          if (col < Nc && TRI_KEEP(row, col)) Cr[col] = (beta != (real)0) ? beta * Ci[col] + r : r;
#else
          real t[VW];
          VSTORE(r, 0, t);
#pragma unroll
          for (int v = 0; v < VW; v++)
            if (col + v < Nc && TRI_KEEP(row, col + v))
              Cr[col + v] = (beta != (real)0) ? beta * Ci[col + v] + t[v] : t[v];
#endif
        }
      }
    }
  }
#endif
}
#endif
