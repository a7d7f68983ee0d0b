/* gemm_wgmma.cl: tiled2d's warpgroup layer (WG = 1, 2), after gemm_mma.cl: Hopper's wgmma.mma_async
 * (sm_90a) on operands in local memory, its descriptors, the ring's copies, and the OpenCL C
 * emulation of the same data path. A warpgroup (128 work-items, 4 warps) computes 64 rows x NWG
 * columns of C with one m64nNWGk16 (16-bit) or m64nNWGk8 (TF32) instruction per k sub-step; the
 * work-group is MWG / 64 warpgroups over the MWG x NWG tile.
 *
 * Local memory: one array, the ring of ASYNC stages, each A's MWG x KWG tile then B^T's NWG x KWG
 * (BT: the host packs op(B) as [n][k]), both K-major in 8 x 16-byte core matrices without swizzle:
 * element (r, k) at core matrix (r / 8, k / CHE) (consecutive along k, AKC of them per 8 rows),
 * row r % 8 of it, element k % CHE of the row. The descriptors say so: leading byte offset
 * (between core matrices along k) 128, stride byte offset (between groups of 8 rows) AKC * 128
 * (probed exact: ../shared/probes/wgcl.c). A sub-step of depth MMA_K = 2 CHE spans two core
 * matrices along k: its descriptors start 256 bytes further per sub-step. WG=2: the 128-byte
 * swizzle instead, for rows of exactly 128 bytes (KWG 64 16-bit values, 32 floats): row r at byte
 * 128 r, its 16-byte chunk c at chunk c ^ (r % 8) (the hardware's XOR of address bits 4-6 with
 * 7-9, so the ring starts 1024-aligned), stride byte offset 1024 (8 rows), and a sub-step's
 * descriptors 32 bytes further along the row (the unswizzled address: the hardware swizzles it).
 * Unswizzled, the 8 rows of a core matrix read are 16 bytes apart in one 128-byte line; swizzled,
 * every 16-byte chunk of a row sits in its own bank group (half 4096^3 on the H200: 141 against
 * 476 TFLOP/s). 3xTF32 (MATH = 2): each operand in two planes, the pack's big and small values,
 * one after the other in the stage (A's two, then B^T's two).
 *
 * On NVIDIA the wgmma lines sit behind the marker //@ (PTX comments to the sm_90 build) and the
 * host loads the program's PTX patched for sm_90a (src/runtime/ptx.c): markers removed, target
 * sm_90a, and the ring's .shared array, declared WG_SENTINEL bytes, enlarged to WG_BYTES (past
 * OpenCL's 48 KiB). The kernel reaches the ring only through 32-bit shared addresses in inline
 * assembly (copies, descriptors), never by indexing the small declared array. Emulated
 * (MMA_EMULATE), the ring is declared whole and the "addresses" are byte offsets into it, which
 * the emulated instruction decodes from the same descriptors. */
#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_tiled2d)
#ifndef WG
#define WG 0
#endif
#if WG
#if !ASYNC
#error "tiled2d: WG (wgmma) is a mode of the ring: ASYNC"
#endif
#if !(MMA == 4 || (MMA == 5 && (PRE_TF32 || MATH == 2))) || !ASYNC || !BT || \
    NTHREADS != 2 * MWG || MWG % 64 || !(NWG == 64 || NWG == 128 || NWG == 256) || KWG % MMA_K || \
    VW != 2
#error "tiled2d: WG (wgmma) needs MMA=4 (16-bit) or 5 with TF32 operands rounded or split by the pack, ASYNC, BT, one warpgroup of 128 items per 64 rows of the tile, NWG 64, 128 or 256, VW=2"
#endif
#ifndef WG_BYTES
#error "tiled2d: WG needs WG_BYTES, the ring's size (the host's)"
#endif
#define TILE_BYTES (STORAGE16 ? 2 : 4) /* bytes of a staged element */
#define WG_PARTS (MATH == 2 ? 2 : 1)            /* planes an operand has: 3xTF32's big, small */
#define WG_STAGE_A (WG_PARTS * MWG * KWG)       /* elements of a stage's A tiles */
#define WG_STAGE (WG_PARTS * (MWG + NWG) * KWG) /* elements of a stage */
#if WG == 2 && KWG * TILE_BYTES != 128
#error "tiled2d: WG=2 (128-byte swizzle) needs rows of 128 bytes: KWG 64 (16-bit) or 32 (TF32)"
#endif
#define WG_SBO (WG == 2 ? 1024 : AKC * 128) /* bytes between groups of 8 rows */
#define WG_KSTEP (WG == 2 ? 32 : 256)       /* bytes a sub-step's descriptors move along k */
#if WG_BYTES != ASYNC * WG_STAGE * TILE_BYTES
#error "tiled2d: WG_BYTES is not the ring's size"
#endif
/* the byte at which the q-th 16-byte chunk of a stage's tile lands, and the row r and chunk c
 * of the tile (row r of A or of B^T, chunk c along k) it holds: stored in q order, so the copies
 * of consecutive items go to consecutive chunks (conflict-free); unswizzled, q walks the 8 rows of
 * a core matrix, then its neighbours along k, then the next 8 rows; swizzled, the 8 places of a
 * row, chunk c at place c ^ (r % 8) */
#if WG == 2
#define WG_ROW(q) ((q) / 8)
#define WG_CHUNK(q) (((q) % 8) ^ (((q) / 8) % 8))
#else
#define WG_ROW(q) (((q) / (8 * AKC)) * 8 + (q) % 8)
#define WG_CHUNK(q) (((q) / 8) % AKC)
#endif
/* descriptor of a K-major tile at byte address addr (14 bits of addr / 16): leading byte offset
 * 128 (unused with the swizzle), stride byte offset WG_SBO, the layout (bits 62-63: 0 none, 1 the
 * 128-byte swizzle) */
ulong wg_desc(const uint addr)
{
  return (ulong)((addr & 0x3FFFFu) >> 4) | ((ulong)(128 >> 4) << 16) |
         ((ulong)((WG_SBO >> 4) & 0x3FFF) << 32) | ((ulong)(WG == 2) << 62);
}
#if MMA == 4
#if STORAGE_HALF
#define WG_TYPES ".f32.f16.f16"
#else
#define WG_TYPES ".f32.bf16.bf16"
#endif
#define WG_TAIL ", 1, 1, 0, 0;\n}\n" /* scales of A and B, neither transposed */
#define WG_SHAPE "k16"
#else
#define WG_TYPES ".f32.tf32.tf32"
#define WG_TAIL ", 1, 1;\n}\n"
#define WG_SHAPE "k8"
#endif
#if !MMA_EMULATE
#define WG_SENTINEL 1040 /* the declared size of the ring, which the patch finds and enlarges */
#define WG_RING_DECL __local uchar wg_ring_[WG_SENTINEL] __attribute__((aligned(1024)))
#define WG_BASE ((uint)(size_t)wg_ring_)
#define WG_CP16(off, src)                                                                   \
  __asm__ __volatile__("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(wg_base + (off)),  \
                       "l"(src)                                                             \
                       : "memory")
/* the generic proxy's writes (the copies) made visible to the async proxy wgmma reads through */
#define WG_FENCE_PROXY() \
  __asm__ __volatile__("//@fence.proxy.async.shared::cta;" ::: "memory")
#define WG_ARRIVE() __asm__ __volatile__("//@wgmma.fence.sync.aligned;" ::: "memory")
#define WG_COMMIT() __asm__ __volatile__("//@wgmma.commit_group.sync.aligned;" ::: "memory")
/* WG_WAIT_STEP: the previous step's wgmmas complete (with 2 stages: the step's own), WG_WAIT_ALL:
 * every one; CP_WAIT_WG: the step's tile has landed (all but the ASYNC - 3 newest copy groups) */
#if ASYNC > 2
#define WG_WAIT_STEP() \
  __asm__ __volatile__("//@wgmma.wait_group.sync.aligned 1;" ::: "memory")
#else
#define WG_WAIT_STEP() \
  __asm__ __volatile__("//@wgmma.wait_group.sync.aligned 0;" ::: "memory")
#endif
#define WG_WAIT_ALL() \
  __asm__ __volatile__("//@wgmma.wait_group.sync.aligned 0;" ::: "memory")
#if ASYNC == 4
#define CP_WAIT_WG() __asm__ __volatile__("cp.async.wait_group 1;" ::: "memory")
#else
#define CP_WAIT_WG() __asm__ __volatile__("cp.async.wait_group 0;" ::: "memory")
#endif
#define WG_D4(d, j) "+f"(d[0][j][0]), "+f"(d[0][j][1]), "+f"(d[0][j][2]), "+f"(d[0][j][3])
#if NWG == 64
#define WG_DREGS \
  "{" "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, " \
  "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
  "%24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p"
#define WG_SCALE "%34"
#define WG_DOPS(d) \
  WG_D4(d, 0), WG_D4(d, 1), WG_D4(d, 2), WG_D4(d, 3), WG_D4(d, 4), WG_D4(d, 5), WG_D4(d, 6), \
  WG_D4(d, 7)
#elif NWG == 128
#define WG_DREGS \
  "{" "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, " \
  "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
  "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, " \
  "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, " \
  "%60, %61, %62, %63}, %64, %65, p"
#define WG_SCALE "%66"
#define WG_DOPS(d) \
  WG_D4(d, 0), WG_D4(d, 1), WG_D4(d, 2), WG_D4(d, 3), WG_D4(d, 4), WG_D4(d, 5), WG_D4(d, 6), \
  WG_D4(d, 7), WG_D4(d, 8), WG_D4(d, 9), WG_D4(d, 10), WG_D4(d, 11), WG_D4(d, 12), \
  WG_D4(d, 13), WG_D4(d, 14), WG_D4(d, 15)
#elif NWG == 256
#define WG_DREGS \
  "{" "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, " \
  "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, " \
  "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, " \
  "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, " \
  "%60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, " \
  "%72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, " \
  "%84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, " \
  "%108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, " \
  "%120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p"
#define WG_SCALE "%130"
#define WG_DOPS(d) \
  WG_D4(d, 0), WG_D4(d, 1), WG_D4(d, 2), WG_D4(d, 3), WG_D4(d, 4), WG_D4(d, 5), WG_D4(d, 6), \
  WG_D4(d, 7), WG_D4(d, 8), WG_D4(d, 9), WG_D4(d, 10), WG_D4(d, 11), WG_D4(d, 12), \
  WG_D4(d, 13), WG_D4(d, 14), WG_D4(d, 15), WG_D4(d, 16), WG_D4(d, 17), WG_D4(d, 18), \
  WG_D4(d, 19), WG_D4(d, 20), WG_D4(d, 21), WG_D4(d, 22), WG_D4(d, 23), WG_D4(d, 24), \
  WG_D4(d, 25), WG_D4(d, 26), WG_D4(d, 27), WG_D4(d, 28), WG_D4(d, 29), WG_D4(d, 30), \
  WG_D4(d, 31)
#endif
/* d[0][..] = sd d[0][..] + A(desc da) B(desc db)^T over one sub-step, the warpgroup's 64 x NWG
 * block (sd 0: d is not read) */
#define WG_MMA(d, da, db, sd)                                                               \
  __asm__ __volatile__("{\n.reg .pred p;\nsetp.ne.b32 p, " WG_SCALE ", 0;\n"                \
                       "//@wgmma.mma_async.sync.aligned.m64n" WG_NSTR WG_SHAPE WG_TYPES " "  \
                       WG_DREGS WG_TAIL                                                     \
                       : WG_DOPS(d)                                                         \
                       : "l"(da), "l"(db), "r"(sd))
#define WG_NSTR_(n) #n
#define WG_NSTR_X(n) WG_NSTR_(n)
#define WG_NSTR WG_NSTR_X(NWG)
#else
/* The emulation: the ring declared whole, addresses byte offsets into it; the copies are plain
 * 16-byte moves complete at the barrier after them, the instruction runs at once (so its fences,
 * commits and waits are nothing), each work-item computing its accumulators by the instruction's
 * rules from the local tiles the descriptors name. */
#define WG_RING_DECL __local uchar wg_ring_[WG_BYTES] __attribute__((aligned(1024)))
#define WG_BASE 0u
#define WG_CP16(off, src) \
  (*(__local uint4 *)(wg_ring_ + wg_base + (off)) = *(__global const uint4 *)(src))
#define WG_FENCE_PROXY()
#define WG_ARRIVE()
#define WG_COMMIT()
#define WG_WAIT_STEP()
#define WG_WAIT_ALL()
#define CP_WAIT_WG()
/* operand element (r, k) of a K-major unswizzled tile at descriptor d, as a float */
float wg_in(__local const uchar *ring, const ulong d, const int r, const int k)
{
  const uint start = (uint)(d & 0x3FFF) << 4, lbo = (uint)((d >> 16) & 0x3FFF) << 4,
             sbo = (uint)((d >> 32) & 0x3FFF) << 4;
  uint at;
  if (d >> 62 == 1) { /* 128-byte swizzle: rows of 128 bytes, bits 4-6 XOR bits 7-9 */
    at = start + (uint)(r / 8) * sbo + (uint)(r % 8) * 128u + (uint)k * TILE_BYTES;
    at ^= ((at >> 7) & 7u) << 4;
  } else { /* core matrices of 8 rows of 16 bytes */
    at = start + (uint)(r / 8) * sbo + (uint)(k / CHE) * lbo + (uint)(r % 8) * 16u +
         (uint)(k % CHE) * TILE_BYTES;
  }
#if MMA == 4
  const ushort x = *(__local const ushort *)(ring + at);
  return mma_in16((uint)x, 0);
#else
  /* as a .tf32 operand: its low 13 bits dropped (the pack's big values have none; 3xTF32's
   * remainders are read so, a model of the hardware's reading, as TF32_REM in gemm_mma.cl) */
  return as_float(*(__local const uint *)(ring + at) & 0xFFFFE000u);
#endif
}
/* D (64 x NWG) = sd D + A (64 x MMA_K) B^T (NWG x MMA_K): work-item l of the warpgroup holds, for
 * each 8-column block j, D[16 w + g + 8 (e / 2)][8 j + 2 t + e % 2] in acc[j][e] (w = l / 32,
 * g = l % 32 / 4, t = l % 4: the m16n8 accumulator layout, warp by warp; PTX ISA, "wgmma .m64nNk16
 * register fragment layout for accumulator matrix D") */
void wgmma_emulated(float *acc, __local const uchar *ring, const ulong da, const ulong db,
                    const int l, const int sd)
{
  const int w = l / 32, g = (l % 32) / 4, t = l % 4;
  float a[2][MMA_K], b[2][MMA_K]; /* the item's rows of A (g, g + 8), then two columns of B */
  for (int h = 0; h < 2; h++)
    for (int k = 0; k < MMA_K; k++) a[h][k] = wg_in(ring, da, 16 * w + g + 8 * h, k);
  for (int j = 0; j < NWG / 8; j++) {
    for (int c = 0; c < 2; c++)
      for (int k = 0; k < MMA_K; k++) b[c][k] = wg_in(ring, db, 8 * j + 2 * t + c, k);
    for (int e = 0; e < 4; e++) { /* D[16 w + g + 8 (e / 2)][8 j + 2 t + e % 2] */
      float s = sd ? acc[4 * j + e] : 0.0f;
      for (int k = 0; k < MMA_K; k++) s = fma(a[e / 2][k], b[e % 2][k], s);
      acc[4 * j + e] = s;
    }
  }
}
#define WG_MMA(d, da, db, sd) wgmma_emulated(&d[0][0][0], wg_ring_, (da), (db), tid % 128, (sd))
#endif
/* ---- the ring's steps (the kernel's WG k loop) ---- */
/* wgmma's ring: tile t in stage t % ASYNC. A stage is free once every warpgroup's wgmmas of it
 * have completed: each step waits for the previous step's group (WG_WAIT_STEP) before the next
 * step's barrier, so after step t's barrier the stages of tiles t - 2 and before are free, and
 * tile t + ASYNC - 2 is issued into that of t - 2: ASYNC - 2 tiles ahead (2 stages: each step
 * waits for its own group, one tile ahead). A tile's chunk q lands at byte 16 q of its stage
 * tile: row WG_ROW(q), chunk WG_CHUNK(q) along k. */
#define WG_LEAD (ASYNC > 2 ? ASYNC - 2 : 1)
/* each item's chunks of a tile of `rows` rows (the last round guarded where they do not
 * divide among the items: three warpgroups) */
#define WG_SHARE(rows) (((rows) * AKC + NTHREADS - 1) / NTHREADS)
#define WG_HAS(rows, q) (((rows) * AKC) % NTHREADS == 0 || (q) < (rows) * AKC)
#define WG_ISSUE(st, tile)                                                                  \
  {                                                                                         \
    const uint so_ = (uint)(st) * (WG_STAGE * TILE_BYTES);                                  \
    _Pragma("unroll") for (int p_ = 0; p_ < WG_PARTS; p_++) {                               \
      __global const tile_t *ag_ = Ag + p_ * wg_plane_a + (tile) * KWG;                     \
      __global const tile_t *bg_ = Bg + p_ * wg_plane_b + (tile) * KWG;                     \
      const uint sa_ = so_ + (uint)p_ * (MWG * KWG * TILE_BYTES);                           \
      const uint sb_ = so_ + (uint)(WG_STAGE_A + p_ * NWG * KWG) * TILE_BYTES;              \
      _Pragma("unroll") for (int l = 0; l < WG_SHARE(MWG); l++) {                           \
        const int q = tid + l * NTHREADS;                                                   \
        if (WG_HAS(MWG, q))                                                                 \
          WG_CP16(sa_ + 16 * q, ag_ + (long)WG_ROW(q) * lda + WG_CHUNK(q) * CHE);           \
      }                                                                                     \
      _Pragma("unroll") for (int l = 0; l < WG_SHARE(NWG); l++) {                           \
        const int q = tid + l * NTHREADS;                                                   \
        if (WG_HAS(NWG, q))                                                                 \
          WG_CP16(sb_ + 16 * q, bg_ + (long)WG_ROW(q) * ldb + WG_CHUNK(q) * CHE);           \
      }                                                                                     \
    }                                                                                       \
  }
/* One step: its tile landed and visible (to the async proxy too), the copies of tile t +
 * WG_LEAD issued, then the products of the tile into D (3xTF32: small x big, big x small,
 * big x big per sub-step, the first with D not read), committed, and the wait. */
#define WG_STEP(t, D, sd0)                                                                  \
  {                                                                                         \
    CP_WAIT_WG();                                                                           \
    WG_FENCE_PROXY();                                                                       \
    barrier(CLK_LOCAL_MEM_FENCE);                                                           \
    {                                                                                       \
      const int nt = (t) + WG_LEAD;                                                         \
      if (nt < ntile) WG_ISSUE(nt % ASYNC, nt)                                              \
      CP_COMMIT();                                                                          \
    }                                                                                       \
    const uint st_ = wg_base + (uint)((t) % ASYNC) * (WG_STAGE * TILE_BYTES);               \
    const uint sa = st_ + wg_rows, sb = st_ + WG_STAGE_A * TILE_BYTES;                      \
    WG_ARRIVE();                                                                            \
    MMA_UNROLL for (int ks = 0; ks < KWG / MMA_K; ks++) WG_PRODUCTS(D, sa, sb, ks, sd0);    \
    WG_COMMIT();                                                                            \
    WG_WAIT_STEP();                                                                         \
  }
#if MATH == 2
#define WG_SMALL_A (MWG * KWG * TILE_BYTES) /* bytes from a stage's big A plane to its small */
#define WG_SMALL_B (NWG * KWG * TILE_BYTES)
#define WG_PRODUCTS(D, sa, sb, ks, sd0)                                                     \
  {                                                                                         \
    const uint ka_ = (sa) + WG_KSTEP * (ks), kb_ = (sb) + WG_KSTEP * (ks);                  \
    WG_MMA(D, wg_desc(ka_ + WG_SMALL_A), wg_desc(kb_), (ks) > 0 || (sd0));                  \
    WG_MMA(D, wg_desc(ka_), wg_desc(kb_ + WG_SMALL_B), 1);                                  \
    WG_MMA(D, wg_desc(ka_), wg_desc(kb_), 1);                                               \
  }
#define WG_ADD(T)                                                                           \
  MMA_UNROLL for (int j = 0; j < MMA_NT; j++) _Pragma("unroll") for (int e = 0; e < MMA_ND; e++) \
      acc[0][j][e] += T[0][j][e];
#else
#define WG_PRODUCTS(D, sa, sb, ks, sd0)                                                     \
  WG_MMA(D, wg_desc((sa) + WG_KSTEP * (ks)), wg_desc((sb) + WG_KSTEP * (ks)), 1)
#endif
#endif
#endif
