/* problems.c: the data and the --verify rules of `tessel gemm` and `tessel poisson` (problems.h),
 * one definition for their single-device and their multi-device runs. */
#include "problems.h"

#include <math.h>

#include "common.h"
#include "ref/ref.h"

#define PI 3.14159265358979323846

void cli_gemm_fill(tsl_precision prec, unsigned long long seed, size_t index, void *a, size_t ea,
                   void *b, size_t eb, void *c0, size_t ec)
{
    /* Fresh random data per size, reproducible from --seed. */
    unsigned long long state = seed + 0x9E3779B97F4A7C15ull * (index + 1);
    cli_fill_random(prec, a, ea, &state);
    cli_fill_random(prec, b, eb, &state);
    cli_fill_random(prec, c0, ec, &state);
}

/* f and the initial u: the sine problem (exact solution sin(pi x) sin(pi y), zero boundary, zero
 * initial guess) or, with --problem random, seeded random f (scaled to the size of A_h u),
 * boundary and initial guess. */
void cli_poisson_problem(int random_problem, int is_double, unsigned long long seed, size_t index,
                         size_t n, void *f, void *u0)
{
    double h = 1.0 / (double)(n - 1);
    unsigned long long state = seed + 0x9E3779B97F4A7C15ull * (index + 1);
    for (size_t y = 0; y < n; ++y)
        for (size_t x = 0; x < n; ++x) {
            size_t i = y * n + x;
            double fv, uv;
            if (random_problem) {
                tsl_ref_fill_d(&fv, 1, &state);
                tsl_ref_fill_d(&uv, 1, &state);
                fv *= 20.0;
            } else {
                fv = 2 * PI * PI * sin(PI * (double)x * h) * sin(PI * (double)y * h);
                uv = 0.0;
            }
            if (is_double) {
                ((double *)f)[i] = fv;
                ((double *)u0)[i] = uv;
            } else {
                ((float *)f)[i] = (float)fv;
                ((float *)u0)[i] = (float)uv;
            }
        }
}

/* max |out - ref| / max |ref| over the grid, in double; NaN in out gives NaN. */
double cli_poisson_error(int is_double, const void *out, const double *ref, size_t count)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < count; ++i) {
        double o = is_double ? ((const double *)out)[i] : (double)((const float *)out)[i];
        double e = fabs(o - ref[i]);
        if (!(e <= num)) num = e;
        if (fabs(ref[i]) > den) den = fabs(ref[i]);
    }
    return den > 0 ? num / den : num;
}

/* --verify threshold on max |u - u_ref| / max |u_ref|: 1e-12 in double (the kernels do the
 * reference's operations in the same order, so this is normally exactly 0); in single 1e-5 times
 * max(1, sqrt(sweeps / 64)): each sweep adds rounding errors of about one ulp that the averaging
 * damps only slowly for smooth components, and they add up like a random walk. */
double cli_poisson_tolerance(int is_double, double tolerance, int sweeps)
{
    if (!isnan(tolerance)) return tolerance;
    if (is_double) return 1e-12;
    double factor = sqrt((double)sweeps / 64.0);
    return 1e-5 * (factor > 1 ? factor : 1);
}
