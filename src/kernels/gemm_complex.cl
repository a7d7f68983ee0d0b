/* gemm_complex.cl: the pre-passes that make a complex GEMM one real GEMM (src/gemm/gemm_complex.c,
 * docs/gemm.md "Complex GEMM"). A complex matrix is interleaved (real, imaginary) pairs, a real2
 * an element here; offsets, leading dimensions and strides count complex elements.
 *
 *   zgemm_pack: s op(X) for a rows x cols op(X) (op by a row and a column stride, conjugated with
 *     conj), written as real numbers: with expand 0 as the interleaved rows x 2 cols matrix
 *     (op(A), the real GEMM's left operand), with expand 1 as the 2 rows x 2 cols matrix whose
 *     2 x 2 block (l, j) is [[re, im], [-im, re]] of s op(X)(l, j) (the right operand: the real
 *     product of a row [ar, ai, ...] with block columns [br, -bi] and [bi, br] gives the real and
 *     imaginary parts of sum a b).
 *     With expand 2 (the 3M form) as three planes `plane` reals apart, each rows x cols with
 *     rows ldd apart: re, im and re + im of s op(X).
 *   zgemm_scale: C = beta C for a complex beta, before the real GEMM adds the product with beta 1.
 *   zgemm_3m_sum: the 3M form's sum: with T1 = Ar Br, T2 = Ai Bi, T3 = (Ar + Ai)(Br + Bi) in three
 *     planes, C = alpha (T1 - T2 + i (T3 - T1 - T2)) + beta C (beta == 0 never reads C).
 *
 * Both take a third launch dimension: problem z of a strided batch. */

#define ZT 16 /* the pack's tiles: ZT x ZT elements, one an item */

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_zgemm_pack)
/* A group packs a ZT x ZT tile. Each item reads one element along the source's contiguous
 * direction (down a column for a transposed operand, s_rs == 1) into local memory, rows padded by
 * one, and after the barrier writes along the destination's rows: both sides coalesced. */
__kernel __attribute__((reqd_work_group_size(ZT, ZT, 1))) void
zgemm_pack(const int rows, const int cols, const real sr, const real si, __global const real2 *src,
           const long s_off, const int s_rs, const int s_cs, const long s_stride, const int conj,
           const int expand, __global real *dst, const int ldd, const long d_stride,
           const long d_off, const long plane)
{
    __local real2 t[ZT][ZT + 1];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int c0 = get_group_id(0) * ZT, r0 = get_group_id(1) * ZT;
    src += s_off + (long)get_global_id(2) * s_stride;
    dst += d_off + (long)get_global_id(2) * d_stride;
    const int tr = s_rs == 1 && s_cs != 1; /* uniform over the launch */
    const int rr = r0 + (tr ? lx : ly), rc = c0 + (tr ? ly : lx);
    real2 v = (real2)(ZERO, ZERO);
    if (rr < rows && rc < cols) v = src[(long)rr * s_rs + (long)rc * s_cs];
    if (conj) v.y = -v.y;
    /* s = 1 leaves v as it is (an infinite part times 0 would make a NaN) */
    if (sr != (real)1 || si != ZERO) v = (real2)(sr * v.x - si * v.y, sr * v.y + si * v.x);
    if (tr)
        t[lx][ly] = v;
    else
        t[ly][lx] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int row = r0 + ly, col = c0 + lx;
    if (row >= rows || col >= cols) return;
    v = t[ly][lx];
    if (expand == 2) {
        __global real *d = dst + (long)row * ldd + col;
        d[0] = v.x;
        d[plane] = v.y;
        d[2 * plane] = v.x + v.y;
    } else if (expand) {
        __global real *d = dst + (long)(2 * row) * ldd + 2 * col;
        vstore2(v, 0, d);                        /* [re, im] */
        vstore2((real2)(-v.y, v.x), 0, d + ldd); /* [-im, re] */
    } else {
        vstore2(v, 0, dst + (long)row * ldd + 2 * col);
    }
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_zgemm_scale)
/* C = beta C on the rows x cols matrix (rows ldc apart); the elements between rows are never
 * touched. */
__kernel __attribute__((reqd_work_group_size(ZT, ZT, 1)))
void zgemm_scale(const int rows, const int cols, const real br, const real bi,
                 __global real2 *c, const long c_off, const int ldc, const long c_stride)
{
    const int col = get_global_id(0), row = get_global_id(1);
    if (row >= rows || col >= cols) return;
    __global real2 *p = c + c_off + (long)get_global_id(2) * c_stride + (long)row * ldc + col;
    const real2 v = *p;
    *p = (real2)(br * v.x - bi * v.y, br * v.y + bi * v.x);
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_zgemm_3m_sum)
/* C = alpha (T1 - T2 + i (T3 - T1 - T2)) + beta C on the rows x cols matrix; T at t_off, its
 * planes `plane` reals apart, rows ldt apart, t_stride reals a problem. alpha == 1 multiplies
 * nothing (an infinite part times 0 would make a NaN), beta == 0 never reads C. */
__kernel __attribute__((reqd_work_group_size(ZT, ZT, 1))) void
zgemm_3m_sum(const int rows, const int cols, const real ar, const real ai, const real br,
             const real bi, __global const real *T, const long t_off, const int ldt,
             const long plane, const long t_stride, __global real2 *c, const long c_off,
             const int ldc, const long c_stride)
{
    const int col = get_global_id(0), row = get_global_id(1);
    if (row >= rows || col >= cols) return;
    __global const real *t = T + t_off + (long)get_global_id(2) * t_stride + (long)row * ldt + col;
    const real t1 = t[0], t2 = t[plane], t3 = t[2 * plane];
    real2 v = (real2)(t1 - t2, t3 - t1 - t2);
    if (ar != (real)1 || ai != ZERO) v = (real2)(ar * v.x - ai * v.y, ar * v.y + ai * v.x);
    __global real2 *p = c + c_off + (long)get_global_id(2) * c_stride + (long)row * ldc + col;
    if (br != ZERO || bi != ZERO) {
        const real2 w = *p;
        v += (real2)(br * w.x - bi * w.y, br * w.y + bi * w.x);
    }
    *p = v;
}
#endif
