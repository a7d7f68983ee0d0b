/* workloads.h: the sequential host C versions of 002's workloads (Pi, N-body, K-means). Each is
 * what 002 compares its OpenCL kernels with: one plain loop nest on one host core, which the
 * `sequential` row of `tessel pi|nbody|kmeans` times as the speedup baseline, and the reference
 * that --verify and the tests check the device results against. Not part of libtessel: the CLI
 * and the tests link it (tessel_ref). */
#ifndef TSL_REF_WORKLOADS_H
#define TSL_REF_WORKLOADS_H

#include <stddef.h>

/* The midpoint rule for the integral over [0,1] of 4/(1+x^2) with `steps` rectangles, in double:
 * h sum_{i<steps} 4/(1+x_i^2), x_i = (i + 0.5) h, h = 1/steps, summed in index order. steps == 0
 * gives 0. */
double tsl_ref_pi(unsigned long long steps);
/* The pass threshold of |tsl_pi - tsl_ref_pi| / tsl_ref_pi: the worst-case relative error of the
 * float kernels, 32 units of roundoff (docs/pi.md derives it), whatever the steps and launch. */
#define TSL_REF_PI_TOLERANCE 2e-6

/* `steps` all-pairs N-body steps on n bodies, in place, as tsl_nbody defines them: pos holds n
 * float4 (x, y, z, mass), vel n float4 (vx, vy, vz, unused, left as it is). In float, with the
 * operations and summation order of src/kernels/nbody.cl (1/sqrtf for rsqrt); softening > 0. */
void tsl_ref_nbody(size_t n, int steps, float dt, float softening, float *pos, float *vel);

/* The checks of an N-body result (src/ref/workloads_nbody.c; docs/nbody.md says why each):
 * tsl_ref_nbody_error: the largest per-body relative error of a state against a reference state,
 * max over bodies and over position and velocity of |x_i - ref_i| / max(|ref_i|, rms_j |ref_j|)
 * (3-vectors, in double; NaN anywhere gives NaN). tsl_ref_nbody_tolerance: its pass threshold
 * after `steps` steps, 1e-5 max(1, steps). tsl_ref_nbody_compute_totals: the system's kinetic and
 * (softened, G = 1) potential energy and momentum, in double. The drifts between two states:
 * energy change over |kinetic| + |potential| before, and |momentum change| over sum m |v|. */
double tsl_ref_nbody_error(size_t n, const float *pos, const float *vel, const float *pos_ref,
                           const float *vel_ref);
double tsl_ref_nbody_tolerance(int steps);
typedef struct {
    double kinetic, potential; /* sum m v^2 / 2; -sum_{i<j} m_i m_j / sqrt(r_ij^2 + softening^2) */
    double momentum[3];        /* sum m v */
    double momentum_abs;       /* sum |m| |v|: the scale of the momentum's rounding */
} tsl_ref_nbody_totals;
void tsl_ref_nbody_compute_totals(size_t n, float softening, const float *pos,
                                  const float *vel, tsl_ref_nbody_totals *out);
double tsl_ref_nbody_energy_drift(const tsl_ref_nbody_totals *before,
                                  const tsl_ref_nbody_totals *after);
double tsl_ref_nbody_momentum_drift(const tsl_ref_nbody_totals *before,
                                    const tsl_ref_nbody_totals *after);
/* n random bodies from *state (advanced), the test data of the CLI and the tests: positions
 * uniform in [-1, 1)^3, masses in [0.5, 1.5) / n (about 1 in all, never 0), velocities in
 * [-0.5, 0.5)^3, the unused 4th velocity component in [-1, 1). */
void tsl_ref_nbody_random(size_t n, float *pos, float *vel, unsigned long long *state);

/* assign[i] = the index of the centroid nearest to point i (squared Euclidean distance, the
 * lowest index on ties; a NaN distance never wins; 0 when no distance is below infinity);
 * points n x dim, centroids k x dim, row-major. In float, each distance summed over the
 * dimensions in order (no fma), as the device kernels do. */
void tsl_ref_kmeans_assign(size_t n, size_t k, size_t dim, const float *points,
                           const float *centroids, int *assign);
/* The check of a device assignment against the host's (docs/kmeans.md): float rounding can flip
 * a near tie, so a device choice c of point i passes when it is a valid index and its distance,
 * recomputed in double, is at most the host choice's times (1 + tsl_ref_kmeans_tolerance(dim)):
 * two float distances each within (dim + 2) units of roundoff of the truth, whatever the
 * summation order or fma, cannot invert a larger gap. Returns the largest relative excess
 * (dist(c) - dist(host)) / max(dist(host), dim FLT_MIN) over the points (0 when every choice is
 * the host's; the floor keeps a zero distance against a flushed denormal finite; +inf for an
 * index out of range; NaN if a distance compared is NaN), and in *differ (if not NULL) how many
 * points have another index than the host's. */
double tsl_ref_kmeans_tolerance(size_t dim);
double tsl_ref_kmeans_excess(size_t n, size_t k, size_t dim, const float *points,
                             const float *centroids, const int *assign, const int *host_assign,
                             size_t *differ);

#endif
