/* kmeans.cl: 002's K-means assignment step: assign[i] = the index of the centroid nearest to
 * point i (squared Euclidean distance; the lowest index wins ties, a NaN distance never wins,
 * and 0 when no distance is below infinity). Points are n x dim and centroids k x dim, row-major;
 * one work-item per point, against all clusters, as in 002 (src/ops/kmeans.c launches).
 *
 * kmeans_original is 002's unoptimized kernel: a loop over the clusters, each distance a loop
 * over the dimensions. kmeans_unrolled and kmeans_tiled_float8 are its 1 x 8 rectangular tiling:
 * the cluster loop unrolled eight times and jammed into the dimension loop, so each point
 * coordinate loaded once serves eight clusters; the first keeps eight scalar accumulators, the
 * second one float8 (002's optimized kernel). Both read the centroids transposed and padded by
 * kmeans_pack (dim x kpad, kpad = k rounded up to 8, padding = +infinity, whose distance never
 * wins), so that the eight clusters' coordinates d lie side by side: one vload8.
 *
 * Every distance is summed over the dimensions in order, with its own rounding for each square
 * (contraction into fma off), exactly as the host's tsl_ref_kmeans_assign: on an IEEE device the
 * assignments match the host's bit for bit. dim, k and n are any values >= 1.
 *
 * The host builds each program with -DONLY_ONE_KERNEL -DONLY_<kernel name>. */
#pragma OPENCL FP_CONTRACT OFF

/* Cluster c with distance dist replaces the best so far only when strictly nearer: clusters are
 * considered in increasing index, so the lowest index wins ties. */
#define CONSIDER(dist, c)                                                                          \
    do {                                                                                           \
        if ((dist) < best_dist) {                                                                  \
            best_dist = (dist);                                                                    \
            best = (c);                                                                            \
        }                                                                                          \
    } while (0)

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_kmeans_original)
__kernel void kmeans_original(const long n, const int k, const int dim,
                              __global const real *points, __global const real *centroids,
                              __global int *assign)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    __global const real *p = points + i * dim;
    int best = 0;
    real best_dist = INFINITY;
    for (int c = 0; c < k; ++c) {
        __global const real *q = centroids + (long)c * dim;
        real dist = ZERO;
        for (int d = 0; d < dim; ++d) {
            const real diff = p[d] - q[d];
            dist += diff * diff;
        }
        CONSIDER(dist, c);
    }
    assign[i] = best;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_kmeans_pack)
/* packed[d * kpad + c] = centroids[c * dim + d] for c < k, +infinity for k <= c < kpad; one
 * work-item per packed element, 2D (c, d). */
__kernel void kmeans_pack(const int k, const int kpad, const int dim,
                          __global const real *centroids, __global real *packed)
{
    const int c = get_global_id(0), d = get_global_id(1);
    if (c >= kpad || d >= dim) return;
    packed[(long)d * kpad + c] = c < k ? centroids[(long)c * dim + d] : INFINITY;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_kmeans_unrolled)
/* One point x eight clusters per step, eight scalar accumulators (unroll-and-jam). */
__kernel void kmeans_unrolled(const long n, const int kpad, const int dim,
                              __global const real *points, __global const real *packed,
                              __global int *assign)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    __global const real *p = points + i * dim;
    int best = 0;
    real best_dist = INFINITY;
    for (int c = 0; c < kpad; c += 8) {
        real a0 = ZERO, a1 = ZERO, a2 = ZERO, a3 = ZERO, a4 = ZERO, a5 = ZERO, a6 = ZERO,
             a7 = ZERO;
        __global const real *q = packed + c;
        for (int d = 0; d < dim; ++d, q += kpad) {
            const real pd = p[d];
            real t;
            t = pd - q[0], a0 += t * t;
            t = pd - q[1], a1 += t * t;
            t = pd - q[2], a2 += t * t;
            t = pd - q[3], a3 += t * t;
            t = pd - q[4], a4 += t * t;
            t = pd - q[5], a5 += t * t;
            t = pd - q[6], a6 += t * t;
            t = pd - q[7], a7 += t * t;
        }
        CONSIDER(a0, c);
        CONSIDER(a1, c + 1);
        CONSIDER(a2, c + 2);
        CONSIDER(a3, c + 3);
        CONSIDER(a4, c + 4);
        CONSIDER(a5, c + 5);
        CONSIDER(a6, c + 6);
        CONSIDER(a7, c + 7);
    }
    assign[i] = best;
}
#endif

#if !defined(ONLY_ONE_KERNEL) || defined(ONLY_kmeans_tiled_float8)
/* The same tile with the eight accumulators as one real8 and the eight coordinates as one
 * vload8 (002's optimized kernel). */
__kernel void kmeans_tiled_float8(const long n, const int kpad, const int dim,
                                  __global const real *points, __global const real *packed,
                                  __global int *assign)
{
    const long i = get_global_id(0);
    if (i >= n) return;
    __global const real *p = points + i * dim;
    int best = 0;
    real best_dist = INFINITY;
    for (int c = 0; c < kpad; c += 8) {
        real8 acc = (real8)ZERO;
        __global const real *q = packed + c;
        for (int d = 0; d < dim; ++d, q += kpad) {
            const real8 t = (real8)p[d] - vload8(0, q);
            acc += t * t;
        }
        CONSIDER(acc.s0, c);
        CONSIDER(acc.s1, c + 1);
        CONSIDER(acc.s2, c + 2);
        CONSIDER(acc.s3, c + 3);
        CONSIDER(acc.s4, c + 4);
        CONSIDER(acc.s5, c + 5);
        CONSIDER(acc.s6, c + 6);
        CONSIDER(acc.s7, c + 7);
    }
    assign[i] = best;
}
#endif
