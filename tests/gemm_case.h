/* gemm_case.h: the GEMM problems the multi-device and pipeline suites share (tests/test_multi.c,
 * tests/test_pipeline.c): a case (layout, transposes, sizes, padding of the leading dimensions,
 * alpha, beta), how its matrices are stored, filling and widening them, running it on a group or
 * a context, and its relative error against a reference. Header-only, like check.h: each suite is
 * one .c file and one process. */
#ifndef TSL_TEST_GEMM_CASE_H
#define TSL_TEST_GEMM_CASE_H

#include <stdio.h>
#include <stdlib.h>

#include "ref/ref.h"
#include "tessel.h"

static inline void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of host memory\n");
        exit(2);
    }
    return p;
}

typedef struct {
    tsl_layout layout;
    tsl_trans ta, tb;
    size_t m, n, k, pad;
    double alpha, beta;
} gemm_case;

/* Matrix `which` ('a', 'b' or 'c') as stored: how many runs of the leading dimension (rows in
 * row-major, columns in column-major), and how long each run is. */
static inline void stored_shape(const gemm_case *c, char which, size_t *runs, size_t *len)
{
    size_t r = which == 'a'   ? (c->ta == TSL_NO_TRANS ? c->m : c->k)
               : which == 'b' ? (c->tb == TSL_NO_TRANS ? c->k : c->n)
                              : c->m;
    size_t col = which == 'a'   ? (c->ta == TSL_NO_TRANS ? c->k : c->m)
                 : which == 'b' ? (c->tb == TSL_NO_TRANS ? c->n : c->k)
                                : c->n;
    int row = c->layout == TSL_ROW_MAJOR;
    *runs = row ? r : col;
    *len = row ? col : r;
}

static inline size_t stored_rows(const gemm_case *c, char which)
{
    size_t runs, len;
    stored_shape(c, which, &runs, &len);
    return runs;
}

static inline size_t run_len(const gemm_case *c, char which)
{
    size_t runs, len;
    stored_shape(c, which, &runs, &len);
    return len;
}

static inline void fill(int dbl, void *x, size_t count, unsigned long long *state)
{
    if (dbl)
        tsl_ref_fill_d(x, count, state);
    else
        tsl_ref_fill_f(x, count, state);
}

static inline double *widen(int dbl, const void *x, size_t count)
{
    double *d = xmalloc(count * sizeof *d);
    for (size_t i = 0; i < count; ++i)
        d[i] = dbl ? ((const double *)x)[i] : (double)((const float *)x)[i];
    return d;
}

static inline tsl_status gemm_on(tsl_group *g, tsl_context *ctx, int dbl, const gemm_case *c,
                                 const void *a, size_t lda, const void *b, size_t ldb, void *cm,
                          size_t ldc)
{
    if (g && dbl)
        return tsl_group_dgemm(g, c->layout, c->ta, c->tb, c->m, c->n, c->k, c->alpha, a, lda, b,
                               ldb, c->beta, cm, ldc);
    if (g)
        return tsl_group_sgemm(g, c->layout, c->ta, c->tb, c->m, c->n, c->k, (float)c->alpha, a,
                               lda, b, ldb, (float)c->beta, cm, ldc);
    if (dbl)
        return tsl_dgemm(ctx, c->layout, c->ta, c->tb, c->m, c->n, c->k, c->alpha, a, lda, b, ldb,
                         c->beta, cm, ldc);
    return tsl_sgemm(ctx, c->layout, c->ta, c->tb, c->m, c->n, c->k, (float)c->alpha, a, lda, b,
                     ldb, (float)c->beta, cm, ldc);
}

static inline double rel_err(int dbl, const gemm_case *c, const void *out, size_t ldc, const double *ref)
{
    size_t rows = stored_rows(c, 'c'), cols = run_len(c, 'c');
    return dbl ? tsl_ref_rel_err_d(rows, cols, out, ldc, ref, ldc)
               : tsl_ref_rel_err_f(rows, cols, out, ldc, ref, ldc);
}

#endif
