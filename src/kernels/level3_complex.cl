/* level3_complex.cl: the small kernels of the complex Level-3 routines (src/level3/level3_complex.c,
 * level3_complex_tri.c). Their bulk flops run in the complex GEMM (gemm_complex.cl's pre-passes and
 * one real GEMM); what is here touches the diagonal blocks and the triangles only:
 *   zl3_expand      a symmetric or Hermitian matrix stored in one triangle, written whole (SYMM,
 *                   HEMM): the mirror, conjugated for a Hermitian one, whose diagonal is read as
 *                   real (its imaginary part is never read)
 *   zl3_tri_update  the triangle of C's diagonal blocks: C = W + beta C with W a block's product
 *                   (SYRK, HERK, SYR2K, HER2K), or C = beta C over the whole triangle (no W: alpha
 *                   or k zero); a Hermitian C's diagonal keeps a zero imaginary part
 *   zl3_tri_blocks  op(A)'s diagonal blocks as dense triangles (zeros beside, 1 on a unit
 *                   diagonal, conjugated for A^H), TRMM's diagonal products
 *   zl3_trsm_leaf   a diagonal block of TRSM solved in place by substitution, one right-hand
 *                   side a work-item
 *   zl3_trsm_leaf_wg the same substitution for a block of at most ZL3_LT, a work-group per
 *                   ZL3_CW right-hand sides and a work-item per element of each
 * A complex element is a real2 (real, imaginary); offsets and leading dimensions count complex
 * elements; every matrix is row-major. The host builds each with -DONLY_ONE_KERNEL -DONLY_<name>. */

static inline real2 zmul(const real2 a, const real2 b)
{
    return (real2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
static inline real2 zconj_if(const real2 a, const int conj)
{
    return conj ? (real2)(a.x, -a.y) : a;
}

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_zl3_expand)
/* D (n x n, rows n apart) = S, with S's lower (upper) triangle read from A and the other one its
 * transpose (herm: conjugate transpose); herm: the diagonal's imaginary part is 0, not read. */
__kernel void zl3_expand(const int n, const int lower, const int herm, __global const real2 *A,
                         const long a_off, const int lda, __global real2 *D)
{
    const int j = get_global_id(0), i = get_global_id(1);
    if (i >= n || j >= n) return;
    const int stored = lower ? j <= i : j >= i;
    real2 v;
    if (herm && i == j)
        v = (real2)(A[a_off + (long)i * lda + i].x, ZERO);
    else if (stored)
        v = A[a_off + (long)i * lda + j];
    else
        v = zconj_if(A[a_off + (long)j * lda + i], herm);
    D[(long)i * n + j] = v;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_zl3_tri_update)
/* Row r of C, column jj of its diagonal block of nb (the block of rows [b nb, b nb + nb)): in the
 * lower (upper) triangle, C = W + beta C (has_w; W's block b at b nb nb, rows nb apart) or beta C;
 * beta == 0 never reads C. herm: the diagonal's imaginary part is set to 0. nb = n with no W:
 * the whole triangle. */
__kernel void zl3_tri_update(const int n, const int nb, const int lower, const int herm,
                             const int has_w, __global const real2 *W, const real br,
                             const real bi, __global real2 *C, const long c_off, const int ldc)
{
    const int jj = get_global_id(0), r = get_global_id(1);
    if (r >= n || jj >= nb) return;
    const int b = r / nb, c = b * nb + jj;
    if (c >= n || (lower ? c > r : c < r)) return;
    __global real2 *p = C + c_off + (long)r * ldc + c;
    real2 v = (real2)(ZERO, ZERO);
    if (br != ZERO || bi != ZERO) v = zmul((real2)(br, bi), *p);
    if (has_w) v += W[(long)b * nb * nb + (long)(r - b * nb) * nb + jj];
    if (herm && r == c) v.y = ZERO;
    *p = v;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_zl3_tri_blocks)
/* Block b of op(A) (ka x ka; op(A)(i, l) = A[a_off + i rs + l cs], conjugated with conj) into D at
 * b nb nb, rows nb apart: its lower (upper) triangle, 1 on a unit diagonal (not read), zeros
 * elsewhere and past ka. */
__kernel void zl3_tri_blocks(const int ka, const int nb, __global const real2 *A, const long a_off,
                             const int rs, const int cs, const int lower, const int unit,
                             const int conj, __global real2 *D)
{
    const int j = get_global_id(0), row = get_global_id(1);
    if (j >= nb || row >= (ka + nb - 1) / nb * nb) return;
    const int b = row / nb, i = row - b * nb, gi = b * nb + i, gj = b * nb + j;
    real2 v = (real2)(ZERO, ZERO);
    if (gi < ka && gj < ka && (lower ? j <= i : j >= i)) {
        if (unit && i == j)
            v = (real2)((real)1, ZERO);
        else
            v = zconj_if(A[a_off + (long)gi * rs + (long)gj * cs], conj);
    }
    D[(long)b * nb * nb + (long)i * nb + j] = v;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_zl3_trsm_leaf)
/* The len x len diagonal block T of op(A) at t_off (T(i, l) = A[t_off + i rs + l cs], conjugated
 * with conj): left, T X = a B for the len rows of B at b_off (work-item q: column q of count);
 * right, X T = a B for its len columns (item q: row q). X overwrites B in place: each item reads
 * and writes only its own line. forward: the elements in increasing order (T lower on the left,
 * upper on the right), else decreasing. unit: T's diagonal is 1, not read. A zero pivot gives
 * IEEE inf/NaN from that element on. */
__kernel void zl3_trsm_leaf(const int len, const int count, const int left, const int forward,
                            const int unit, const int conj, const real ar, const real ai,
                            __global const real2 *A, const long t_off, const int rs, const int cs,
                            __global real2 *B, const long b_off, const int ldb)
{
    const int q = get_global_id(0);
    if (q >= count) return;
    /* x_t at B[line + t step] */
    const long line = b_off + (left ? (long)q : (long)q * ldb), step = left ? ldb : 1;
    const real2 a = (real2)(ar, ai);
    for (int s = 0; s < len; ++s) {
        const int t = forward ? s : len - 1 - s;
        real2 v = zmul(a, B[line + t * step]);
        for (int u = 0; u < s; ++u) { /* the elements solved before t */
            const int l = forward ? u : len - 1 - u;
            const long at = left ? (long)t * rs + (long)l * cs : (long)l * rs + (long)t * cs;
            v -= zmul(zconj_if(A[t_off + at], conj), B[line + l * step]);
        }
        if (!unit) {
            const real2 d = zconj_if(A[t_off + (long)t * rs + (long)t * cs], conj);
            const real m = d.x * d.x + d.y * d.y;
            v = (real2)((v.x * d.x + v.y * d.y) / m, (v.y * d.x - v.x * d.y) / m);
        }
        B[line + t * step] = v;
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_zl3_trsm_leaf_wg)
#define ZL3_LT 64 /* the largest block: a work-item per element */
#define ZL3_CW 4  /* right-hand sides a work-group */
/* zl3_trsm_leaf's solve (same arguments, same arithmetic in the same order per element) for
 * len <= ZL3_LT: work-item (c, t) holds element e = t (forward, else len - 1 - t) of right-hand
 * side q = group ZL3_CW + c in a register. Step s: the item of t == s divides by its diagonal and
 * publishes its x in local memory; after the one barrier of the step, every later item
 * subtracts T(e, l) x_l (left; right: x_l T(l, e)). len steps, each a barrier and one complex
 * multiply-add an item, instead of len^2 / 2 dependent ones a work-item. */
__kernel __attribute__((reqd_work_group_size(ZL3_CW, ZL3_LT, 1)))
void zl3_trsm_leaf_wg(const int len, const int count, const int left, const int forward,
                      const int unit, const int conj, const real ar, const real ai,
                      __global const real2 *A, const long t_off, const int rs, const int cs,
                      __global real2 *B, const long b_off, const int ldb)
{
    __local real2 xs[ZL3_LT][ZL3_CW];
    const int c = get_local_id(0), t = get_local_id(1);
    const int q = get_group_id(0) * ZL3_CW + c;
    const int live = q < count && t < len;
    const int e = forward ? t : len - 1 - t;
    const long line = b_off + (left ? (long)q : (long)q * ldb), step = left ? ldb : 1;
    real2 x = (real2)(ZERO, ZERO), d = (real2)((real)1, ZERO);
    if (live) x = zmul((real2)(ar, ai), B[line + e * step]);
    if (live && !unit) d = zconj_if(A[t_off + (long)e * rs + (long)e * cs], conj);
    /* T(e, l) of step s is loaded a step ahead, so its latency overlaps the barrier before */
    const long es = left ? (long)e * rs : (long)e * cs, ls = left ? cs : rs;
    const long l0 = forward ? 0 : len - 1, dl = forward ? ls : -ls;
    real2 tn = (real2)(ZERO, ZERO);
    if (live && t > 0) tn = A[t_off + es + l0 * ls];
    for (int s = 0; s < len; ++s) { /* the same trip count in every item */
        const real2 ts = tn;
        if (live && t > s + 1) tn = A[t_off + es + l0 * ls + (long)(s + 1) * dl];
        if (t == s) {
            if (!unit) {
                const real m = d.x * d.x + d.y * d.y;
                x = (real2)((x.x * d.x + x.y * d.y) / m, (x.y * d.x - x.x * d.y) / m);
            }
            xs[s][c] = x;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (live && t > s) x -= zmul(zconj_if(ts, conj), xs[s][c]);
    }
    if (live) B[line + e * step] = x;
}
#endif
