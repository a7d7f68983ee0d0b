/* zdata.h: the complex tests' data helpers (test_zgemm.c, test_level3_complex.c): allocation that
 * exits on failure, fresh random data rounded to the precision under test, its device-side copy
 * (floats for single), an element read back as double, and a random scalar away from 0. */
#ifndef TSL_TESTS_ZDATA_H
#define TSL_TESTS_ZDATA_H

#include <stdio.h>
#include <stdlib.h>

#include "ref/ref.h"

static inline void *xmalloc(size_t n)
{
    void *p = calloc(n ? n : 1, 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* n doubles of fresh random data in [-1, 1), rounded to float unless dbl. */
static inline void fill(double *x, size_t n, int dbl, unsigned long long *st)
{
    tsl_ref_fill_d(x, n, st);
    for (size_t i = 0; !dbl && i < n; ++i)
        x[i] = (float)x[i];
}

/* A copy of n values as the device's precision stores them (double, or float). */
static inline void *to_device(const double *x, size_t n, int dbl)
{
    void *p = xmalloc(n * (dbl ? 8 : 4));
    for (size_t i = 0; i < n; ++i)
        if (dbl)
            ((double *)p)[i] = x[i];
        else
            ((float *)p)[i] = (float)x[i];
    return p;
}

static inline double value_at(const void *p, size_t i, int dbl)
{
    return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

/* A random complex scalar whose real part is at least 0.5 away from 0 (imaginary part 0 unless
 * complex_). */
static inline void random_scalar(double *x, int complex_, unsigned long long *st)
{
    tsl_ref_fill_d(x, 2, st);
    x[0] += x[0] < 0 ? -0.5 : 0.5;
    if (!complex_) x[1] = 0.0;
}

#endif
