/* gemm_mma.cl: tiled2d's matrix-instruction layer, after gemm_tiled2d.cl's parameters: the PTX
 * mma.sync tile products of each MMA value and their OpenCL C emulation, the TF32 rounding, the
 * products of one k step (3xTF32 included), and ASYNC's asynchronous copies and ldmatrix
 * fragment reads (PTX or emulated). */
#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_gemm_tiled2d)
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
/* A 3xTF32 remainder, x - big, as the instruction's operand: on NVIDIA its float bits as they are
 * (the tensor core reads the operand as TF32, and the remainder's own rounding error is 2^-11 of
 * a term already 2^-11 of the product; measured on the H100: the same error as rounding it by
 * cvt.rna first, 4.15e-7 at 4096, and 8% faster, two instructions fewer per element); emulated,
 * truncated to TF32 (the low 13 bits cleared), a model of that reading: the PTX ISA does not say
 * how the low bits of a .tf32 operand are treated. */
#if MMA_EMULATE
#define TF32_REM(x) (as_uint(x) & 0xFFFFE000u)
#else
#define TF32_REM(x) as_uint(x)
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

#if (FPIPE || BT) && !ASYNC
#error "tiled2d: FPIPE (double-buffered fragments) and BT are modes of ASYNC"
#endif
#if ASYNC
/* ASYNC: the staged tiles arrive by asynchronous 16-byte copies (PTX cp.async.cg, global to local
 * without registers) into a ring of ASYNC local buffers, ASYNC - 1 tiles ahead of the one being
 * computed, and the fragments leave them by ldmatrix (8 x 8 matrices of 16-bit values, one row
 * address per lane; TF32's B, 32-bit values in k order, by plain local reads). The rows are
 * swizzled: 16-byte chunk c of row r is stored at chunk SWZ(r, c, n) of its row (n chunks a row),
 * so the 8 rows one ldmatrix phase reads fall in 8 different bank groups without padding (the
 * 48 KiB of local memory hold 3 stages of 128 x 128 x 32 16-bit tiles exactly). FP64 (MMA=1-3)
 * has no ldmatrix: its fragments are plain local reads of one double, from rows padded instead of
 * swizzled (ALS_LD, BLS_LD: gemm_tiled2d.cl says why), so its chunks land in place. */
#if !MMA || !SA || !SB || PF || DBUF || DIRECT || ASYNC < 2 || ASYNC > 4
#error "tiled2d: ASYNC (2 to 4 stages) needs a matrix instruction (MMA=1 to 5), SA=SB=1, PF=DBUF=DIRECT=0"
#endif
#define CHE (MMA == 4 ? 8 : MMA == 5 ? 4 : 2) /* elements of a 16-byte chunk */
#define AKC (KWG / CHE)        /* chunks of a staged A row (k) */
#define BNC (NWG / CHE)        /* chunks of a staged B row (n) */
#ifndef WG
#define WG 0
#endif
#if BT && !WG && (MMA < 4 || NWI % 2 || (NWG * AKC) % NTHREADS)
#error "tiled2d: BT (B packed as [n][k], read by ldmatrix like A) needs ASYNC, a 16-bit or TF32 instruction (MMA=4, 5), pairs of n tiles per warp and whole chunks per work-item"
#endif
#if PRE_TF32 && !(MMA == 5 && MATH == 1 && BT)
#error "tiled2d: PRE_TF32 (operands rounded by the pack) is for TF32 math with BT"
#endif
#if KWG % CHE || NWG % CHE || (!WG && ((MWG * AKC) % NTHREADS || (KWG * BNC) % NTHREADS)) || \
    (MMA == 4 && NWI % 2 && !WG) || (MMA >= 4 && AKC > 8)
#error "tiled2d: ASYNC needs whole 16-byte chunks per row and per work-item, (16-bit, TF32: the swizzle) at most 8 chunks a k row, and (16-bit) pairs of n tiles per warp"
#endif
#define SWZ(r, c, n) ((c) ^ ((n) >= 8 ? (r) % 8 : ((r) * (n) / 8) % (n)))
#if MMA >= 4
#define ASWZ(r, c) SWZ(r, c, AKC)
#else
#define ASWZ(r, c) (c)
#endif
#if MMA == 4
#define BSWZ(r, c) SWZ(r, c, BNC)
#else
#define BSWZ(r, c) (c)
#endif
/* CP_WAIT: all but the ASYNC - 2 most recent copy groups complete (the step's tile); CP_WAIT_FIRST,
 * FPIPE's first wait: all but ASYNC - 1 (tile 0, with ASYNC tiles issued before it) */
#if ASYNC == 2
#define CP_PENDING "0"
#define CP_FIRST_PENDING "1"
#elif ASYNC == 3
#define CP_PENDING "1"
#define CP_FIRST_PENDING "2"
#else
#define CP_PENDING "2"
#define CP_FIRST_PENDING "3"
#endif
#ifndef RING_BYTES
#define RING_BYTES 0
#endif
#if !MMA_EMULATE
/* RING_BYTES: the ring's one array, declared RING_SENTINEL bytes in the sm_90 build and enlarged
 * by the sm_90a patch (src/runtime/ptx.c); its address goes through an opaque move, so no access
 * is bounded (or folded) by the small declaration. */
#define RING_SENTINEL 1040
#define RING_DECL __local uchar ring_[RING_SENTINEL] __attribute__((aligned(128)))
__local uchar *ring_base(__local uchar *p)
{
  uint a = (uint)(size_t)p;
  __asm__ __volatile__("mov.b32 %0, %0;" : "+r"(a));
  return (__local uchar *)(size_t)a;
}
#define RING_BASE(p) ring_base(p)
/* The local pointer goes to the instruction as a 32-bit "r" operand: NVIDIA's OpenCL passes
 * __local addresses as shared-window offsets (probed: shared/probes/tcprobe.c). */
#define CP16(dst, src)                                                                      \
  __asm__ __volatile__("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src)     \
                       : "memory")
#define CP_COMMIT() __asm__ __volatile__("cp.async.commit_group;" ::: "memory")
#define CP_WAIT() __asm__ __volatile__("cp.async.wait_group " CP_PENDING ";" ::: "memory")
#define CP_WAIT_FIRST() \
  __asm__ __volatile__("cp.async.wait_group " CP_FIRST_PENDING ";" ::: "memory")
#define LDSM_X4_(r, p, tr)                                                                  \
  __asm__ __volatile__("ldmatrix.sync.aligned.m8n8.x4" tr ".shared.b16 {%0, %1, %2, %3}, [%4];" \
                       : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                     \
                       : "r"(p)                                                             \
                       : "memory")
#define LDSM_X4(r, base, off) LDSM_X4_(r, (base) + (off), "")
#define LDSM_X4_T(r, base, off) LDSM_X4_(r, (base) + (off), ".trans")
#else
#define RING_DECL __local uchar ring_[RING_BYTES] __attribute__((aligned(128)))
#define RING_BASE(p) (p)
/* Emulated: a copy is a plain 16-byte move, complete at the barrier that follows; ldmatrix
 * exchanges the lanes' row offsets through local memory, then each lane takes its words by the
 * instruction's rule: of matrix i (the rows lanes 8i .. 8i + 7 name), lane l gets 16-bit elements
 * 2 (l % 4) and 2 (l % 4) + 1 of row l / 4, or with .trans element l / 4 of rows 2 (l % 4) and
 * 2 (l % 4) + 1 (the lower row in the low half); 32-bit values are pairs: word l % 4. */
#define CP16(dst, src) (*(__local uint4 *)(dst) = *(__global const uint4 *)(src))
#define CP_COMMIT()
#define CP_WAIT()
#define CP_WAIT_FIRST()
#if MMA >= 4 /* ldmatrix: 16-bit and TF32 fragments only */
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
#endif
#endif
