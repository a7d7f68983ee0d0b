/* lapack_mat.h: the host matrices of the LAPACK tests (test_lapack.c, test_qr.c): r x c in either
 * layout with a padded leading dimension and a guard zone of sentinels after the array, fresh
 * random data from one seeded generator, conversion to either precision and to device buffers
 * of the test's context g_ctx. */
#ifndef TSL_TEST_LAPACK_MAT_H
#define TSL_TEST_LAPACK_MAT_H

#include "check.h"
#include "tessel.h"

#include <stdlib.h>
#include <string.h>
#include <math.h>

#define GUARD 8
#define SENTINEL 1234.5

static unsigned long long g_seed = 20261202ull;
static tsl_context *g_ctx;

static inline double rnd(void) /* uniform in [-1, 1) */
{
    g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_seed >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* A host matrix: r x c in layout with leading dimension ld, stored as doubles (the single-
 * precision calls convert), GUARD elements of sentinel after it. */
typedef struct {
    tsl_layout lay;
    size_t r, c, ld, len;
    double *v;
} mat;

static inline size_t at(const mat *a, size_t i, size_t j)
{
    return a->lay == TSL_COL_MAJOR ? i + j * a->ld : i * a->ld + j;
}
static inline mat mat_new(tsl_layout lay, size_t r, size_t c, int pad)
{
    mat a = {lay, r, c, 0, 0, NULL};
    size_t inner = lay == TSL_COL_MAJOR ? r : c, outer = lay == TSL_COL_MAJOR ? c : r;
    a.ld = (inner ? inner : 1) + (pad ? 3 : 0);
    a.len = a.ld * outer + GUARD;
    a.v = malloc(a.len * sizeof *a.v);
    for (size_t i = 0; i < a.len; ++i) a.v[i] = SENTINEL;
    return a;
}
static inline void mat_random(mat *a)
{
    for (size_t i = 0; i < a->r; ++i)
        for (size_t j = 0; j < a->c; ++j) a->v[at(a, i, j)] = rnd();
}
static inline mat mat_copy(const mat *a)
{
    mat b = *a;
    b.v = malloc(a->len * sizeof *b.v);
    memcpy(b.v, a->v, a->len * sizeof *b.v);
    return b;
}
/* Rounded to the precision (the matrix a single-precision call really gets). */
static inline void mat_round(mat *a, int dbl)
{
    if (!dbl)
        for (size_t i = 0; i < a->len; ++i) a->v[i] = (float)a->v[i];
}
/* Every element outside the r x c matrix (padding and guard) is as mat_new left it. */
static inline int outside_kept(const mat *a)
{
    for (size_t k = 0; k < a->len; ++k) {
        size_t inner = k % a->ld, outer = k / a->ld;
        size_t i = a->lay == TSL_COL_MAJOR ? inner : outer, j = a->lay == TSL_COL_MAJOR ? outer : inner;
        int inside = k < a->ld * (a->lay == TSL_COL_MAJOR ? a->c : a->r) && i < a->r && j < a->c;
        if (!inside && a->v[k] != SENTINEL) return 0;
    }
    return 1;
}
static inline double norm1(const mat *a)
{
    double best = 0;
    for (size_t j = 0; j < a->c; ++j) {
        double s = 0;
        for (size_t i = 0; i < a->r; ++i) s += fabs(a->v[at(a, i, j)]);
        if (s > best) best = s;
    }
    return best;
}

/* ---- calls in either precision, host pointers or buffers ------------------------------------- */

/* The matrix as the precision's elements (malloc'ed), and back. */
static inline void *to_prec(int dbl, const mat *a)
{
    void *x = malloc(a->len * (dbl ? sizeof(double) : sizeof(float)));
    for (size_t i = 0; i < a->len; ++i)
        if (dbl)
            ((double *)x)[i] = a->v[i];
        else
            ((float *)x)[i] = (float)a->v[i];
    return x;
}
static inline void from_prec(int dbl, const void *x, mat *a)
{
    for (size_t i = 0; i < a->len; ++i) a->v[i] = dbl ? ((const double *)x)[i] : ((const float *)x)[i];
}
static inline tsl_buffer *to_buf(int dbl, const void *x, const mat *a)
{
    size_t bytes = (a->len - GUARD) * (dbl ? sizeof(double) : sizeof(float));
    tsl_buffer *b = NULL;
    tsl_status s = tsl_buffer_create(g_ctx, bytes ? bytes : 8, &b);
    CHECK(s == TSL_OK, "tsl_buffer_create: %s", tsl_context_error(g_ctx));
    if (s == TSL_OK && bytes) tsl_buffer_write(g_ctx, b, 0, bytes, x);
    return b;
}
static inline void from_buf(int dbl, tsl_buffer *b, void *x, const mat *a)
{
    size_t bytes = (a->len - GUARD) * (dbl ? sizeof(double) : sizeof(float));
    if (b && bytes) tsl_buffer_read(g_ctx, b, 0, bytes, x);
    tsl_buffer_destroy(b);
}


/* A call's A and B (b may be NULL) in the precision's elements, and in device buffers when buf. */
typedef struct {
    void *xa, *xb;
    tsl_buffer *ba, *bb;
} staged;
static inline staged stage_in(int dbl, int buf, const mat *a, const mat *b)
{
    staged st = {to_prec(dbl, a), b ? to_prec(dbl, b) : NULL, NULL, NULL};
    if (buf) st.ba = to_buf(dbl, st.xa, a);
    if (buf && b) st.bb = to_buf(dbl, st.xb, b);
    return st;
}
/* The call's results back into a and b, and what stage_in took freed. */
static inline void stage_out(int dbl, int buf, staged *st, mat *a, mat *b)
{
    if (buf) {
        from_buf(dbl, st->ba, st->xa, a);
        if (b) from_buf(dbl, st->bb, st->xb, b);
    }
    from_prec(dbl, st->xa, a);
    if (b) from_prec(dbl, st->xb, b);
    free(st->xa);
    free(st->xb);
}
#endif
