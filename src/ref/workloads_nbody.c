/* workloads_nbody.c: the host side of 002's N-body workload (src/ref/workloads.h): the sequential
 * C version (the speedup baseline of `tessel nbody` and the reference of --verify and the tests)
 * and the figures the checks compare: a per-body error between two states, the system's energy
 * and momentum, and the tolerances, each written once for the CLI and the tests alike.
 *
 * The sequential version does in float what each work-item of src/kernels/nbody.cl does, with
 * the same operations in the same order (j ascending), 1/sqrtf for rsqrt: the device results
 * differ from it only by rsqrt's error (up to 2 ulp in OpenCL) and by fma contraction. It needs
 * no memory of its own: velocities are updated as the accelerations are found (no body reads
 * another's velocity), positions only after every acceleration of the step is known. */
#include <math.h>
#include <stddef.h>

#include "ref/ref.h"
#include "ref/workloads.h"

void tsl_ref_nbody(size_t n, int steps, float dt, float softening, float *pos, float *vel)
{
    const float eps2 = softening * softening;
    for (int s = 0; s < steps; ++s) {
        for (size_t i = 0; i < n; ++i) {
            const float *ri = pos + 4 * i;
            float ax = 0.0f, ay = 0.0f, az = 0.0f;
            for (size_t j = 0; j < n; ++j) {
                const float *rj = pos + 4 * j;
                const float dx = rj[0] - ri[0], dy = rj[1] - ri[1], dz = rj[2] - ri[2];
                const float r2 = dx * dx + dy * dy + dz * dz + eps2;
                const float inv = 1.0f / sqrtf(r2);
                const float sc = rj[3] * (inv * inv * inv);
                ax += dx * sc;
                ay += dy * sc;
                az += dz * sc;
            }
            float *v = vel + 4 * i;
            v[0] += ax * dt;
            v[1] += ay * dt;
            v[2] += az * dt;
        }
        for (size_t i = 0; i < n; ++i) {
            pos[4 * i + 0] += vel[4 * i + 0] * dt;
            pos[4 * i + 1] += vel[4 * i + 1] * dt;
            pos[4 * i + 2] += vel[4 * i + 2] * dt;
        }
    }
}

static double norm3(const float *a, const float *b)
{
    double x = (double)a[0] - (b ? (double)b[0] : 0.0), y = (double)a[1] - (b ? (double)b[1] : 0.0),
           z = (double)a[2] - (b ? (double)b[2] : 0.0);
    return sqrt(x * x + y * y + z * z);
}

/* Root mean square of |x_i| (the x, y, z of n float4). */
static double rms3(size_t n, const float *x)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i) {
        double v = norm3(x + 4 * i, NULL);
        sum += v * v;
    }
    return n ? sqrt(sum / (double)n) : 0.0;
}

/* max_i |x_i - ref_i| / max(|ref_i|, rms |ref|); NaN anywhere gives NaN. */
static double body_err(size_t n, const float *x, const float *ref)
{
    const double scale = rms3(n, ref);
    double worst = 0.0;
    for (size_t i = 0; i < n; ++i) {
        double den = norm3(ref + 4 * i, NULL);
        if (den < scale) den = scale;
        double e = norm3(x + 4 * i, ref + 4 * i);
        if (den > 0) e /= den;
        if (!(e <= worst)) worst = e; /* keeps a NaN */
    }
    return worst;
}

double tsl_ref_nbody_error(size_t n, const float *pos, const float *vel, const float *pos_ref,
                           const float *vel_ref)
{
    double ep = body_err(n, pos, pos_ref), ev = body_err(n, vel, vel_ref);
    return ep >= ev || isnan(ep) ? ep : ev;
}

void tsl_ref_nbody_compute_totals(size_t n, float softening, const float *pos, const float *vel,
                                  tsl_ref_nbody_totals *out)
{
    const double eps2 = (double)softening * (double)softening;
    double kin = 0.0, pot = 0.0, p[3] = {0.0, 0.0, 0.0}, pabs = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const float *ri = pos + 4 * i, *vi = vel + 4 * i;
        const double m = ri[3], v = norm3(vi, NULL);
        kin += 0.5 * m * v * v;
        for (int c = 0; c < 3; ++c)
            p[c] += m * vi[c];
        pabs += fabs(m) * v;
        double row = 0.0;
        for (size_t j = i + 1; j < n; ++j) {
            const double d = norm3(pos + 4 * j, ri);
            row += (double)pos[4 * j + 3] / sqrt(d * d + eps2);
        }
        pot -= m * row;
    }
    out->kinetic = kin;
    out->potential = pot;
    out->momentum[0] = p[0];
    out->momentum[1] = p[1];
    out->momentum[2] = p[2];
    out->momentum_abs = pabs;
}

double tsl_ref_nbody_tolerance(int steps)
{
    return 1e-5 * (steps > 1 ? (double)steps : 1.0);
}

double tsl_ref_nbody_energy_drift(const tsl_ref_nbody_totals *before,
                                  const tsl_ref_nbody_totals *after)
{
    double scale = before->kinetic + fabs(before->potential);
    double change = (after->kinetic + after->potential) - (before->kinetic + before->potential);
    return scale > 0 ? change / scale : change;
}

double tsl_ref_nbody_momentum_drift(const tsl_ref_nbody_totals *before,
                                    const tsl_ref_nbody_totals *after)
{
    double d[3], scale = before->momentum_abs > after->momentum_abs ? before->momentum_abs
                                                                    : after->momentum_abs;
    for (int c = 0; c < 3; ++c)
        d[c] = after->momentum[c] - before->momentum[c];
    double change = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    return scale > 0 ? change / scale : change;
}

void tsl_ref_nbody_random(size_t n, float *pos, float *vel, unsigned long long *state)
{
    float r[8];
    for (size_t i = 0; i < n; ++i) {
        tsl_ref_fill_f(r, 8, state);
        float *p = pos + 4 * i, *v = vel + 4 * i;
        p[0] = r[0], p[1] = r[1], p[2] = r[2];
        p[3] = (1.0f + 0.5f * r[3]) / (float)n;
        v[0] = 0.5f * r[4], v[1] = 0.5f * r[5], v[2] = 0.5f * r[6], v[3] = r[7];
    }
}
