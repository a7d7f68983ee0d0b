/* cblas_cabs1.c: cblas_scabs1 and cblas_dcabs1, |Re z| + |Im z| of one complex number. The
 * reference CBLAS has them but OpenBLAS, the default CPU BLAS, does not, so they are computed
 * here (as the reference's scabs1/dcabs1 do) instead of forwarded. Counted as CPU calls. */
#include <math.h>

#include "blas/cblas_internal.h"

TSL_BLAS_API float cblas_scabs1(const void *c)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("cblas_scabs1");
    double t0 = tsl__blas_clock();
    const float *z = c;
    float r = fabsf(z[0]) + fabsf(z[1]);
    tsl__cblas_cpu_done(&st, t0);
    return r;
}

TSL_BLAS_API double cblas_dcabs1(const void *z)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("cblas_dcabs1");
    double t0 = tsl__blas_clock();
    const double *v = z;
    double r = fabs(v[0]) + fabs(v[1]);
    tsl__cblas_cpu_done(&st, t0);
    return r;
}
