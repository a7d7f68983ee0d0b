/* workloads_pi_kmeans.c: the sequential host versions of 002's Pi and K-means workloads
 * (workloads.h). They are deliberately plain: one loop nest, one core, no blocking or intrinsics,
 * because they play 002's "sequential version on host", the baseline every speedup is measured
 * against. Pi sums in double (it is also the reference the float device result is checked
 * against); K-means computes distances in float in the kernels' order, so the baseline does the
 * same arithmetic as the device. */
#include "ref/workloads.h"

#include <float.h>
#include <math.h>

double tsl_ref_pi(unsigned long long steps)
{
    if (steps == 0) return 0.0;
    const double h = 1.0 / (double)steps;
    double sum = 0.0;
    for (unsigned long long i = 0; i < steps; ++i) {
        double x = ((double)i + 0.5) * h;
        sum += 4.0 / (1.0 + x * x);
    }
    return sum * h;
}

void tsl_ref_kmeans_assign(size_t n, size_t k, size_t dim, const float *points,
                           const float *centroids, int *assign)
{
    for (size_t i = 0; i < n; ++i) {
        const float *p = points + i * dim;
        int best = 0;
        float best_dist = INFINITY;
        for (size_t c = 0; c < k; ++c) {
            const float *q = centroids + c * dim;
            float dist = 0.0f;
            for (size_t d = 0; d < dim; ++d) {
                float diff = p[d] - q[d];
                float sq = diff * diff; /* its own rounding: no fma, as the kernels */
                dist += sq;
            }
            /* Strictly less: the lowest index wins ties, a NaN distance never wins, and when no
             * distance is below infinity the answer is 0. */
            if (dist < best_dist) {
                best = (int)c;
                best_dist = dist;
            }
        }
        assign[i] = best;
    }
}

double tsl_ref_kmeans_tolerance(size_t dim)
{
    /* Each float distance is within (dim + 2) u of its exact value (u = 2^-24: one rounding for
     * the difference, its square doubles it, one for the product, dim - 1 for the sum in any
     * order); two such errors of opposite sign give 2 (dim + 2) u, and one more u of slack covers
     * the second-order terms. */
    return 2.0 * ((double)dim + 3.0) * 0x1p-24;
}

/* The squared distance of point p to centroid q in double: exact products, one rounding per
 * addition in double, far below the float rounding the tolerance covers. */
static double distance_d(size_t dim, const float *p, const float *q)
{
    double dist = 0.0;
    for (size_t d = 0; d < dim; ++d) {
        double diff = (double)p[d] - (double)q[d];
        dist += diff * diff;
    }
    return dist;
}

double tsl_ref_kmeans_excess(size_t n, size_t k, size_t dim, const float *points,
                             const float *centroids, const int *assign, const int *host_assign,
                             size_t *differ)
{
    double worst = 0.0;
    size_t count = 0;
    const double floor = (double)dim * FLT_MIN;
    for (size_t i = 0; i < n; ++i) {
        if (assign[i] == host_assign[i]) continue;
        ++count;
        if (assign[i] < 0 || (size_t)assign[i] >= k) {
            worst = INFINITY;
            continue;
        }
        const float *p = points + i * dim;
        double mine = distance_d(dim, p, centroids + (size_t)assign[i] * dim);
        double host = distance_d(dim, p, centroids + (size_t)host_assign[i] * dim);
        double excess = (mine - host) / (host > floor ? host : floor);
        if (isnan(excess) || (!isnan(worst) && excess > worst)) worst = excess; /* NaN sticks */
    }
    if (differ) *differ = count;
    return worst;
}
