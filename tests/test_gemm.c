/* test_gemm.c: correctness of every GEMM variant against the CPU reference (tsl_ref_dgemm on
 * double copies of the inputs), with full CBLAS semantics. One process tests one variant, named
 * on the command line (`test_gemm naive`, ..., `test_gemm auto`), so ctest runs the variants in
 * parallel; `test_gemm --expect-variants NAME...` instead asserts that tsl_variant_name
 * enumerates exactly the variants tests/lib.cmake registers, so the two lists cannot drift.
 * For the variant, in single, double and half precision (double skipped only on a device without
 * fp64, where tsl_dgemm must then say TSL_ERR_UNSUPPORTED; half, tsl_hgemm's binary16 storage,
 * for every variant that has it, and for the others, tiled2d, a TSL_ERR_UNSUPPORTED that names
 * half and leaves C alone): all 8 layout x transa x transb combinations
 * on four shapes, the full shape list (1, 7, 31, 33, 127, 257, rectangular ones, m/n/k == 0, and
 * two random draws) on row-major NN; every case once with tight and once with padded leading
 * dimensions (ld = needed + 3), once with beta != 0 and once with beta == 0 and C filled with
 * NaN (which must not propagate); alpha == 0 with NaN in A and B gives C = beta C (BLAS: A and
 * B need not be set). Around every call: the padding of A, B and C and a guard zone
 * after each array hold sentinels that must be bit-identical afterwards (A and B entirely), and
 * NaN sentinels in the padding of A and B would poison the result if a kernel computed with them.
 * Cases with exactly-sized allocations let AddressSanitizer catch reads past the caller's arrays.
 * Half inputs are random floats rounded to half, and the reference gets exactly those values, so
 * the tolerance is tsl_ref_gemm_tolerance's half rule (the rounding of C to half, plus float).
 * The device-buffer API (tsl_?gemm_buf) runs on two shapes per precision, with A and B read back
 * to check they were not modified. The random data (tsl_ref_fill_*) is seeded per case from a
 * base seed, 20261121 unless TSL_TEST_SEED is set; failures print the case and its seed. */
#include "check.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 16 /* elements of sentinel after every host array */
#define PAD 3    /* extra leading dimension of the padded cases */

static const char *g_variant;
/* Set when a call says TSL_ERR_UNSUPPORTED although tsl_variant_check said TSL_OK: one failure
 * is reported and the rest of the variant's cases are not run (they would all say the same). */
static int g_unsupported;
static unsigned long long g_base_seed = 20261121ull;
static unsigned long long g_case_counter;

/* Sentinels, in each precision. A and B padding: a quiet NaN that poisons any sum it enters. C
 * padding and guard: a signalling NaN, whose bits change if anything does arithmetic on it. */
typedef struct {
    uint32_t f;
    uint64_t d;
    uint16_t h;
} sentinel;
static const sentinel AB_PAD = {0x7FC0ABCDu, 0x7FF8ABCDABCDABCDull, 0x7E5Bu};
static const sentinel C_PAD = {0x7F8DEAD1u, 0x7FF0DEADBEEF0001ull, 0x7D01u};

static const char *prec_name(int prec)
{
    return prec == TSL_DOUBLE ? "double" : prec == TSL_HALF ? "half" : "single";
}

static size_t elem_size(int prec)
{
    return prec == TSL_DOUBLE ? 8 : prec == TSL_HALF ? 2 : 4;
}

/* ---- small helpers ------------------------------------------------------------------------- */

static unsigned long long next_seed(void)
{
    /* Every case gets its own seed, derived from the base seed and a counter. */
    unsigned long long x = g_base_seed + 0x9E3779B97F4A7C15ull * (++g_case_counter);
    x ^= x >> 31;
    return x ? x : 1;
}

static double rand_scalar(unsigned long long *state)
{
    /* alpha and beta in [-1.5, -0.25] U [0.25, 1.5]: random, never near zero. */
    double v;
    tsl_ref_fill_d(&v, 1, state);
    return v < 0 ? v * 1.25 - 0.25 : v * 1.25 + 0.25;
}

static size_t rand_pick(unsigned long long *state, size_t n)
{
    double v;
    tsl_ref_fill_d(&v, 1, state);
    size_t i = (size_t)((v + 1.0) * 0.5 * (double)n);
    return i < n ? i : n - 1;
}

static double get_el(const unsigned char *p, size_t i, int prec)
{
    if (prec == TSL_DOUBLE) {
        double v;
        memcpy(&v, p + i * 8, 8);
        return v;
    }
    if (prec == TSL_HALF) {
        uint16_t h;
        memcpy(&h, p + i * 2, 2);
        return tsl_half_to_float(h);
    }
    float v;
    memcpy(&v, p + i * 4, 4);
    return v;
}

/* Stores v rounded to the precision (to float, then to half, for half). */
static void set_el(unsigned char *p, size_t i, int prec, double v)
{
    if (prec == TSL_DOUBLE) {
        memcpy(p + i * 8, &v, 8);
    } else if (prec == TSL_HALF) {
        uint16_t h = tsl_float_to_half((float)v);
        memcpy(p + i * 2, &h, 2);
    } else {
        float f = (float)v;
        memcpy(p + i * 4, &f, 4);
    }
}

static void set_bits(unsigned char *p, size_t i, int prec, const sentinel *v)
{
    if (prec == TSL_DOUBLE)
        memcpy(p + i * 8, &v->d, 8);
    else if (prec == TSL_HALF)
        memcpy(p + i * 2, &v->h, 2);
    else
        memcpy(p + i * 4, &v->f, 4);
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "test_gemm: out of host memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

static const char *layout_name(tsl_layout l)
{
    return l == TSL_ROW_MAJOR ? "row" : "col";
}
static char trans_char(tsl_trans t)
{
    return t == TSL_TRANS ? 'T' : 'N';
}

/* ---- one matrix as the caller stores it ------------------------------------------------------ */

/* A matrix in the storage view of its layout: `outer` lines (rows for row-major, columns for
 * column-major) of `inner` elements, `ld` apart. The array holds ld * (outer - 1) + inner
 * elements (what BLAS requires, no padding after the last line) followed by `guard` elements. */
typedef struct {
    size_t outer, inner, ld, nelem, guard;
    int prec;
    unsigned char *p;    /* what the library sees */
    unsigned char *snap; /* a copy taken just before the call */
    double *ref;         /* double copy for the reference, padding zeroed */
} matrix;

static void matrix_init(matrix *x, tsl_layout layout, size_t rows, size_t cols, size_t pad,
                        size_t guard, int prec)
{
    x->outer = layout == TSL_ROW_MAJOR ? rows : cols;
    x->inner = layout == TSL_ROW_MAJOR ? cols : rows;
    x->ld = (x->inner ? x->inner : 1) + pad;
    x->nelem = x->outer ? x->ld * (x->outer - 1) + x->inner : 0;
    x->guard = guard;
    x->prec = prec;
    size_t es = elem_size(prec);
    x->p = xmalloc((x->nelem + guard) * es);
    x->snap = xmalloc((x->nelem + guard) * es);
    x->ref = xmalloc((x->nelem ? x->nelem : 1) * sizeof(double));
}

static void matrix_free(matrix *x)
{
    free(x->p);
    free(x->snap);
    free(x->ref);
}

static int in_matrix(const matrix *x, size_t i)
{
    return i < x->nelem && i % x->ld < x->inner;
}

/* Sentinel everywhere, then random data (or NaN) in the matrix itself. */
static void matrix_fill(matrix *x, const sentinel *pad, int nan_inside, unsigned long long *state)
{
    size_t total = x->nelem + x->guard;
    for (size_t i = 0; i < total; ++i)
        set_bits(x->p, i, x->prec, pad);
    double *vals = xmalloc((x->outer * x->inner + 1) * sizeof(double));
    tsl_ref_fill_d(vals, x->outer * x->inner, state);
    for (size_t o = 0; o < x->outer; ++o)
        for (size_t j = 0; j < x->inner; ++j)
            set_el(x->p, o * x->ld + j, x->prec, nan_inside ? (double)NAN : vals[o * x->inner + j]);
    free(vals);
    memcpy(x->snap, x->p, total * elem_size(x->prec));
    /* The reference sees exactly the values the library sees (float and half inputs widened
     * exactly);
     * NaN in C for beta == 0 becomes 0, since beta == 0 means C is not read. */
    for (size_t i = 0; i < x->nelem; ++i) {
        double v = in_matrix(x, i) ? get_el(x->p, i, x->prec) : 0.0;
        x->ref[i] = isnan(v) ? 0.0 : v;
    }
}

/* Index of the first element (matrix, padding or guard) that differs from the snapshot in its
 * bits, or SIZE_MAX. With outside_only, elements of the matrix itself are not compared. */
static size_t first_changed(const matrix *x, int outside_only)
{
    size_t es = elem_size(x->prec), total = x->nelem + x->guard;
    for (size_t i = 0; i < total; ++i) {
        if (outside_only && in_matrix(x, i)) continue;
        if (memcmp(x->p + i * es, x->snap + i * es, es) != 0) return i;
    }
    return SIZE_MAX;
}

static size_t count_nan(const matrix *x)
{
    size_t n = 0;
    for (size_t i = 0; i < x->nelem; ++i)
        if (in_matrix(x, i) && isnan(get_el(x->p, i, x->prec))) ++n;
    return n;
}

static double rel_err(const matrix *c)
{
    if (c->outer == 0 || c->inner == 0) return 0.0;
    if (c->prec == TSL_HALF)
        return tsl_ref_rel_err_h(c->outer, c->inner, (const uint16_t *)(const void *)c->p, c->ld,
                                 c->ref, c->ld);
    if (c->prec == TSL_DOUBLE)
        return tsl_ref_rel_err_d(c->outer, c->inner, (const double *)(const void *)c->p, c->ld,
                                 c->ref, c->ld);
    return tsl_ref_rel_err_f(c->outer, c->inner, (const float *)(const void *)c->p, c->ld, c->ref,
                             c->ld);
}

/* ---- one GEMM case --------------------------------------------------------------------------- */

typedef struct {
    tsl_layout layout;
    tsl_trans ta, tb;
    size_t m, n, k;
    size_t pad;      /* 0: tight leading dimensions; PAD: padded */
    int beta_zero;   /* beta == 0 and C filled with NaN */
    int alpha_zero;  /* alpha == 0 and A, B filled with NaN: C = beta C */
    int exact_alloc; /* no guard zone: AddressSanitizer sees reads past the arrays */
    int use_buffers; /* device-buffer API instead of host pointers */
} gemm_case;

typedef struct {
    matrix a, b, c;
    double alpha, beta;
    unsigned long long seed;
    char desc[320];
} gemm_setup;

static void setup_case(gemm_setup *s, const gemm_case *gc, int prec)
{
    size_t guard = gc->exact_alloc || gc->use_buffers ? 0 : GUARD;
    size_t ar = gc->ta == TSL_NO_TRANS ? gc->m : gc->k, ac = gc->ta == TSL_NO_TRANS ? gc->k : gc->m;
    size_t br = gc->tb == TSL_NO_TRANS ? gc->k : gc->n, bc = gc->tb == TSL_NO_TRANS ? gc->n : gc->k;
    s->seed = next_seed();
    unsigned long long st = s->seed;
    matrix_init(&s->a, gc->layout, ar, ac, gc->pad, guard, prec);
    matrix_init(&s->b, gc->layout, br, bc, gc->pad, guard, prec);
    matrix_init(&s->c, gc->layout, gc->m, gc->n, gc->pad, guard, prec);
    /* alpha == 0: BLAS says A and B "need not be set", so they hold NaN and must not be read. */
    matrix_fill(&s->a, &AB_PAD, gc->alpha_zero, &st);
    matrix_fill(&s->b, &AB_PAD, gc->alpha_zero, &st);
    matrix_fill(&s->c, &C_PAD, gc->beta_zero, &st);
    s->alpha = gc->alpha_zero ? 0.0 : rand_scalar(&st);
    s->beta = gc->beta_zero ? 0.0 : rand_scalar(&st);
    if (prec != TSL_DOUBLE) { /* the reference gets exactly the float scalars the library gets */
        s->alpha = (float)s->alpha;
        s->beta = (float)s->beta;
    }
    snprintf(s->desc, sizeof s->desc,
             "[variant=%s %s %s-major transa=%c transb=%c m=%zu n=%zu k=%zu lda=%zu ldb=%zu "
             "ldc=%zu alpha=%.9g beta=%.9g%s%s%s seed=%llu base_seed=%llu]",
             g_variant, prec_name(prec), layout_name(gc->layout), trans_char(gc->ta),
             trans_char(gc->tb), gc->m, gc->n, gc->k, s->a.ld, s->b.ld, s->c.ld, s->alpha, s->beta,
             gc->beta_zero ? " C=NaN" : "", gc->alpha_zero ? " A=B=NaN" : "",
             gc->use_buffers ? " buffers" : "", s->seed, g_base_seed);
}

static void free_case(gemm_setup *s)
{
    matrix_free(&s->a);
    matrix_free(&s->b);
    matrix_free(&s->c);
}

static void check_timing(tsl_context *ctx, const char *desc)
{
    tsl_timing t = {-1, -1, -1, -1};
    tsl_status st = tsl_context_timing(ctx, &t);
    CHECK(st == TSL_OK, "tsl_context_timing: %s %s", tsl_status_name(st), desc);
    CHECK(t.build_ms >= 0 && t.upload_ms >= 0 && t.kernel_ms >= 0 && t.download_ms >= 0,
          "negative timing build=%g upload=%g kernel=%g download=%g %s", t.build_ms, t.upload_ms,
          t.kernel_ms, t.download_ms, desc);
}

/* Compares the result with the reference and checks that nothing outside C's matrix changed. */
static void verify_case(gemm_setup *s, const gemm_case *gc, int prec)
{
    tsl_ref_dgemm(gc->layout, gc->ta, gc->tb, gc->m, gc->n, gc->k, s->alpha, s->a.ref, s->a.ld,
                  s->b.ref, s->b.ld, s->beta, s->c.ref, s->c.ld);
    size_t i;
    i = first_changed(&s->a, 0);
    CHECK(i == SIZE_MAX, "A modified at element %zu (%s) %s", i,
          i < s->a.nelem ? (in_matrix(&s->a, i) ? "matrix" : "padding") : "guard zone", s->desc);
    i = first_changed(&s->b, 0);
    CHECK(i == SIZE_MAX, "B modified at element %zu (%s) %s", i,
          i < s->b.nelem ? (in_matrix(&s->b, i) ? "matrix" : "padding") : "guard zone", s->desc);
    i = first_changed(&s->c, 1);
    CHECK(i == SIZE_MAX, "C written outside the matrix at element %zu (%s) %s", i,
          i < s->c.nelem ? "padding" : "guard zone", s->desc);
    size_t nans = count_nan(&s->c);
    CHECK(nans == 0, "%zu NaN in C%s %s", nans, gc->beta_zero ? " (beta == 0 must not read C)" : "",
          s->desc);
    double err = rel_err(&s->c), tol = tsl_ref_gemm_tolerance(prec, gc->k);
    CHECK(err <= tol, "relative error %.3g > tolerance %.3g %s", err, tol, s->desc);
}

/* A call's status: TSL_OK, or one failure (and g_unsupported for TSL_ERR_UNSUPPORTED). */
static int call_ok(tsl_status st, tsl_context *ctx, const char *call, const char *desc)
{
    if (st == TSL_ERR_UNSUPPORTED) {
        g_unsupported = 1;
        CHECK(0,
              "%s returned TSL_ERR_UNSUPPORTED although tsl_variant_check said TSL_OK for this "
              "device (it must say TSL_ERR_UNSUPPORTED, or the variant must run): %s %s; the "
              "remaining cases of this variant are not run",
              call, tsl_context_error(ctx), desc);
        return 0;
    }
    CHECK(st == TSL_OK, "%s returned %s: %s %s", call, tsl_status_name(st), tsl_context_error(ctx),
          desc);
    return st == TSL_OK;
}

static void run_host_case(tsl_context *ctx, const gemm_case *gc, int prec)
{
    if (g_unsupported) return;
    gemm_setup s;
    setup_case(&s, gc, prec);
    tsl_status st;
    if (prec == TSL_HALF)
        st = tsl_hgemm(ctx, gc->layout, gc->ta, gc->tb, gc->m, gc->n, gc->k, (float)s.alpha,
                       (const uint16_t *)(void *)s.a.p, s.a.ld, (const uint16_t *)(void *)s.b.p,
                       s.b.ld, (float)s.beta, (uint16_t *)(void *)s.c.p, s.c.ld);
    else if (prec == TSL_DOUBLE)
        st = tsl_dgemm(ctx, gc->layout, gc->ta, gc->tb, gc->m, gc->n, gc->k, s.alpha,
                       (const double *)(void *)s.a.p, s.a.ld, (const double *)(void *)s.b.p, s.b.ld,
                       s.beta, (double *)(void *)s.c.p, s.c.ld);
    else
        st = tsl_sgemm(ctx, gc->layout, gc->ta, gc->tb, gc->m, gc->n, gc->k, (float)s.alpha,
                       (const float *)(void *)s.a.p, s.a.ld, (const float *)(void *)s.b.p, s.b.ld,
                       (float)s.beta, (float *)(void *)s.c.p, s.c.ld);
    static const char *const names[] = {"tsl_sgemm", "tsl_dgemm", "tsl_hgemm"};
    if (call_ok(st, ctx, names[prec], s.desc)) {
        verify_case(&s, gc, prec);
        check_timing(ctx, s.desc);
    }
    free_case(&s);
}

/* Writes x into a new buffer of ld * outer elements (x's array plus the last line's padding,
 * which holds the same sentinel). */
static tsl_buffer *upload(tsl_context *ctx, const matrix *x, const sentinel *pad,
                          unsigned char **host_full, const char *desc)
{
    size_t es = elem_size(x->prec), n = x->ld * x->outer;
    unsigned char *full = xmalloc(n * es);
    for (size_t i = 0; i < n; ++i)
        set_bits(full, i, x->prec, pad);
    memcpy(full, x->p, x->nelem * es);
    tsl_buffer *buf = NULL;
    tsl_status st = tsl_buffer_create(ctx, n * es, &buf);
    CHECK(st == TSL_OK && buf, "tsl_buffer_create(%zu): %s: %s %s", n * es, tsl_status_name(st),
          tsl_context_error(ctx), desc);
    if (buf) {
        CHECK(tsl_buffer_size(buf) == n * es, "tsl_buffer_size %zu != %zu %s", tsl_buffer_size(buf),
              n * es, desc);
        st = tsl_buffer_write(ctx, buf, 0, n * es, full);
        CHECK(st == TSL_OK, "tsl_buffer_write: %s: %s %s", tsl_status_name(st),
              tsl_context_error(ctx), desc);
    }
    *host_full = full;
    return buf;
}

/* Reads a buffer back and checks it equals what was written (A and B must not change). */
static void check_unchanged(tsl_context *ctx, const tsl_buffer *buf, const unsigned char *full,
                            size_t bytes, const char *what, const char *desc)
{
    unsigned char *back = xmalloc(bytes);
    tsl_status st = tsl_buffer_read(ctx, buf, 0, bytes, back);
    CHECK(st == TSL_OK, "tsl_buffer_read(%s): %s %s", what, tsl_status_name(st), desc);
    CHECK(st != TSL_OK || memcmp(back, full, bytes) == 0, "buffer %s modified by gemm %s", what,
          desc);
    free(back);
}

static void run_buffer_case(tsl_context *ctx, const gemm_case *gc, int prec)
{
    if (g_unsupported) return;
    gemm_setup s;
    setup_case(&s, gc, prec);
    size_t es = elem_size(prec);
    unsigned char *fa, *fb, *fc;
    tsl_buffer *ba = upload(ctx, &s.a, &AB_PAD, &fa, s.desc);
    tsl_buffer *bb = upload(ctx, &s.b, &AB_PAD, &fb, s.desc);
    tsl_buffer *bc = upload(ctx, &s.c, &C_PAD, &fc, s.desc);
    if (ba && bb && bc) {
        tsl_status st;
        if (prec == TSL_HALF)
            st = tsl_hgemm_buf(ctx, gc->layout, gc->ta, gc->tb, gc->m, gc->n, gc->k, (float)s.alpha,
                               ba, s.a.ld, bb, s.b.ld, (float)s.beta, bc, s.c.ld);
        else if (prec == TSL_DOUBLE)
            st = tsl_dgemm_buf(ctx, gc->layout, gc->ta, gc->tb, gc->m, gc->n, gc->k, s.alpha, ba,
                               s.a.ld, bb, s.b.ld, s.beta, bc, s.c.ld);
        else
            st = tsl_sgemm_buf(ctx, gc->layout, gc->ta, gc->tb, gc->m, gc->n, gc->k, (float)s.alpha,
                               ba, s.a.ld, bb, s.b.ld, (float)s.beta, bc, s.c.ld);
        static const char *const names[] = {"tsl_sgemm_buf", "tsl_dgemm_buf", "tsl_hgemm_buf"};
        if (call_ok(st, ctx, names[prec], s.desc)) {
            check_unchanged(ctx, ba, fa, s.a.ld * s.a.outer * es, "A", s.desc);
            check_unchanged(ctx, bb, fb, s.b.ld * s.b.outer * es, "B", s.desc);
            /* C's whole buffer comes back; its array part goes where the host result would be. */
            size_t cbytes = s.c.ld * s.c.outer * es;
            unsigned char *back = xmalloc(cbytes);
            st = tsl_buffer_read(ctx, bc, 0, cbytes, back);
            CHECK(st == TSL_OK, "tsl_buffer_read(C): %s %s", tsl_status_name(st), s.desc);
            if (st == TSL_OK) {
                size_t tail = cbytes - s.c.nelem * es; /* the last line's padding */
                CHECK(memcmp(back + s.c.nelem * es, fc + s.c.nelem * es, tail) == 0,
                      "C buffer written past the matrix (last line padding) %s", s.desc);
                memcpy(s.c.p, back, s.c.nelem * es);
                verify_case(&s, gc, prec);
            }
            free(back);
            check_timing(ctx, s.desc);
        }
    }
    tsl_buffer_destroy(ba);
    tsl_buffer_destroy(bb);
    tsl_buffer_destroy(bc);
    free(fa);
    free(fb);
    free(fc);
    free_case(&s);
}

/* ---- the plan for one variant and precision -------------------------------------------------- */

static const size_t dims[] = {1, 7, 31, 33, 127, 257};

/* Row-major NN shapes: every value of dims in every position, rectangular and degenerate ones. */
static const size_t full_shapes[][3] = {
    {1, 1, 1},    {7, 7, 7},   {31, 31, 31},  {33, 33, 33},  {127, 127, 127}, {257, 257, 257},
    {33, 1, 257}, {1, 127, 7}, {65, 31, 129}, {7, 257, 1},   {257, 7, 33},    {127, 31, 1},
    {1, 1, 257},  {257, 1, 1}, {1, 257, 31},  {31, 33, 127}, {0, 7, 7},       {7, 0, 7},
    {7, 7, 0},    {0, 0, 0},   {0, 33, 257},  {257, 1, 0},   {33, 65, 17},    {257, 31, 65},
};

/* Shapes that run in all 8 layout x transa x transb combinations (m, n, k all different, so a
 * mixed-up dimension or stride cannot go unnoticed; two of them with a dimension of 1). */
static const size_t combo_shapes[][3] = {{31, 33, 7}, {65, 31, 129}, {1, 127, 33}, {257, 7, 1}};

static void run_precision(tsl_context *ctx, int prec)
{
    static const tsl_layout layouts[] = {TSL_ROW_MAJOR, TSL_COL_MAJOR};
    static const tsl_trans trans[] = {TSL_NO_TRANS, TSL_TRANS};
    long before = check_failures_;

    /* All layout/transpose combinations; every shape tight and padded, beta == 0 and != 0. */
    for (int l = 0; l < 2; ++l)
        for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
                for (size_t s = 0; s < sizeof combo_shapes / sizeof combo_shapes[0]; ++s)
                    for (int padded = 0; padded < 2; ++padded) {
                        gemm_case gc = {layouts[l],
                                        trans[a],
                                        trans[b],
                                        combo_shapes[s][0],
                                        combo_shapes[s][1],
                                        combo_shapes[s][2],
                                        padded ? PAD : 0,
                                        (int)((s + padded) % 2),
                                        0,
                                        0,
                                        0};
                        run_host_case(ctx, &gc, prec);
                    }

    /* The full shape list on row-major NN, plus two random draws from dims. */
    size_t nfixed = sizeof full_shapes / sizeof full_shapes[0];
    unsigned long long st = next_seed();
    for (size_t s = 0; s < nfixed + 2; ++s) {
        size_t m, n, k;
        if (s < nfixed) {
            m = full_shapes[s][0];
            n = full_shapes[s][1];
            k = full_shapes[s][2];
        } else {
            m = dims[rand_pick(&st, 6)];
            n = dims[rand_pick(&st, 6)];
            k = dims[rand_pick(&st, 6)];
        }
        for (int padded = 0; padded < 2; ++padded) {
            gemm_case gc = {TSL_ROW_MAJOR,
                            TSL_NO_TRANS,
                            TSL_NO_TRANS,
                            m,
                            n,
                            k,
                            padded ? PAD : 0,
                            (int)((s + padded) % 2),
                            0,
                            0,
                            0};
            run_host_case(ctx, &gc, prec);
        }
    }

    /* alpha == 0: C = beta C, with NaN in A and B (not to be read). */
    gemm_case alpha0 = {TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 33, 31, 7, PAD, 0, 1, 0, 0};
    run_host_case(ctx, &alpha0, prec);

    /* Exactly-sized arrays with padded leading dimensions: under ASan any read or write past the
     * end (say, copying ld * rows elements) is reported. */
    gemm_case exact1 = {TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_TRANS, 33, 31, 65, PAD, 0, 0, 1, 0};
    gemm_case exact2 = {TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 7, 127, 31, PAD, 1, 0, 1, 0};
    run_host_case(ctx, &exact1, prec);
    run_host_case(ctx, &exact2, prec);

    /* Device-buffer API. */
    gemm_case buf1 = {TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 33, 31, 65, 0, 0, 0, 0, 1};
    gemm_case buf2 = {TSL_COL_MAJOR, TSL_TRANS, TSL_TRANS, 31, 7, 33, PAD, 1, 0, 0, 1};
    run_buffer_case(ctx, &buf1, prec);
    run_buffer_case(ctx, &buf2, prec);

    printf("%s %s: %s\n", g_variant, prec_name(prec),
           check_failures_ != before ? "FAILED"
           : g_unsupported           ? "not run (see the failure above)"
                                     : "ok");
    fflush(stdout);
}

/* Half storage: the whole plan where the variant has it; otherwise (tiled2d) the call must say
 * TSL_ERR_UNSUPPORTED naming half, through both APIs, and leave C alone. auto always has it. */
static void run_half(tsl_context *ctx, const tsl_device_info *dev)
{
    const char *resolved = NULL;
    tsl_status st = tsl_variant_check_precision(ctx, "gemm", g_variant, TSL_HALF, &resolved);
    if (st == TSL_OK) {
        if (strcmp(g_variant, "auto") == 0) printf("auto = %s in half precision\n", resolved);
        run_precision(ctx, TSL_HALF);
        return;
    }
    CHECK(st == TSL_ERR_UNSUPPORTED && strcmp(g_variant, "auto") != 0,
          "tsl_variant_check_precision(gemm, %s, half) = %s: %s", g_variant, tsl_status_name(st),
          tsl_context_error(ctx));
    CHECK(check_mentions(tsl_context_error(ctx), "half"),
          "no half storage, but the message \"%s\" "
          "does not say half",
          tsl_context_error(ctx));
    const uint16_t a[3] = {0x3C00u, 0x4000u, 0x4200u}, b[3] = {0x3800u, 0xBC00u, 0x3555u};
    uint16_t c[4] = {0x4400u, 0x7E00u, 0xC000u, 0x7D01u}, snap[4];
    memcpy(snap, c, sizeof c);
    st = tsl_hgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 1, 3, 1, 1.0f, a, 1, b, 3, 0.5f,
                   c, 3);
    CHECK(st == TSL_ERR_UNSUPPORTED, "tsl_hgemm(%s) = %s, but the variant has no half storage",
          g_variant, tsl_status_name(st));
    CHECK(check_mentions(tsl_context_error(ctx), "half"), "tsl_hgemm(%s): message \"%s\"",
          g_variant, tsl_context_error(ctx));
    CHECK(memcmp(c, snap, sizeof c) == 0, "tsl_hgemm(%s) refused but wrote C", g_variant);
    tsl_buffer *bufs[3] = {NULL, NULL, NULL};
    int ok = tsl_buffer_create(ctx, sizeof a, &bufs[0]) == TSL_OK &&
             tsl_buffer_create(ctx, sizeof b, &bufs[1]) == TSL_OK &&
             tsl_buffer_create(ctx, sizeof c, &bufs[2]) == TSL_OK &&
             tsl_buffer_write(ctx, bufs[2], 0, sizeof c, c) == TSL_OK;
    CHECK(ok, "buffers: %s", tsl_context_error(ctx));
    if (ok) {
        st = tsl_hgemm_buf(ctx, TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 3, 1, 1, 1.0f, bufs[0], 1,
                           bufs[1], 1, 0.5f, bufs[2], 3);
        CHECK(st == TSL_ERR_UNSUPPORTED, "tsl_hgemm_buf(%s) = %s", g_variant, tsl_status_name(st));
        uint16_t back[4];
        CHECK(tsl_buffer_read(ctx, bufs[2], 0, sizeof back, back) == TSL_OK &&
                  memcmp(back, snap, sizeof back) == 0,
              "tsl_hgemm_buf(%s) refused but wrote C", g_variant);
    }
    for (int i = 0; i < 3; ++i)
        tsl_buffer_destroy(bufs[i]);
    SKIP("half precision: gemm variant %s has no half storage on %s", g_variant, dev->name);
}

/* ---- the variant list ------------------------------------------------------------------------ */

static int listed(const char *name, char **list, int n)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(list[i], name) == 0) return 1;
    return 0;
}

/* tsl_variant_name("gemm", i) must enumerate exactly the expected names, "auto" excluded, and
 * every one of them must be known to tsl_variant_check. */
static int expect_variants(char **expected, int n)
{
    char *found[64];
    int nfound = 0;
    for (size_t i = 0; i < 64; ++i) {
        const char *v = tsl_variant_name("gemm", i);
        if (!v) break;
        found[nfound++] = (char *)v;
        CHECK(strcmp(v, "auto") != 0, "tsl_variant_name(\"gemm\", %zu) is \"auto\"", i);
        CHECK(listed(v, expected, n),
              "the library has gemm variant \"%s\" that tests/lib.cmake does not test: add it "
              "to TSL_GEMM_VARIANTS",
              v);
    }
    CHECK(nfound < 64, "tsl_variant_name(\"gemm\", i) never returns NULL");
    for (int i = 0; i < n; ++i)
        CHECK(strcmp(expected[i], "auto") == 0 || listed(expected[i], found, nfound),
              "tests/lib.cmake tests gemm variant \"%s\" that tsl_variant_name does not list",
              expected[i]);
    for (int i = 0; i < nfound; ++i)
        for (int j = i + 1; j < nfound; ++j)
            CHECK(strcmp(found[i], found[j]) != 0, "variant \"%s\" listed twice", found[i]);
    CHECK(tsl_variant_name("gemm", 100000) == NULL, "tsl_variant_name past the end is not NULL");
    CHECK(tsl_variant_name("no_such_op", 0) == NULL, "tsl_variant_name of an unknown op");

    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(NULL, &ctx);
    CHECK(st == TSL_OK, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary("test_gemm --expect-variants");
    for (int i = 0; i < nfound; ++i) {
        st = tsl_variant_check(ctx, "gemm", found[i], NULL);
        CHECK(st == TSL_OK || st == TSL_ERR_UNSUPPORTED, "tsl_variant_check(%s) = %s", found[i],
              tsl_status_name(st));
    }
    const char *resolved = NULL;
    st = tsl_variant_check(ctx, "gemm", "auto", &resolved);
    CHECK(st == TSL_OK, "tsl_variant_check(auto) = %s: %s", tsl_status_name(st),
          tsl_context_error(ctx));
    CHECK(resolved && listed(resolved, found, nfound), "auto resolves to \"%s\", not a variant",
          resolved ? resolved : "(null)");
    if (resolved) printf("auto = %s on this device\n", resolved);
    tsl_context_destroy(ctx);
    return check_summary("test_gemm --expect-variants");
}

/* ---- main ------------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--expect-variants") == 0) {
        g_variant = "(list)";
        return expect_variants(argv + 2, argc - 2);
    }
    if (argc != 2) {
        fprintf(stderr, "usage: test_gemm VARIANT | test_gemm --expect-variants NAME...\n");
        return 2;
    }
    g_variant = argv[1];
    const char *seed_env = getenv("TSL_TEST_SEED");
    if (seed_env && *seed_env) g_base_seed = strtoull(seed_env, NULL, 0);
    char name[128];
    snprintf(name, sizeof name, "test_gemm %s (seed %llu)", g_variant, g_base_seed);

    tsl_context *ctx = NULL;
    tsl_status st = tsl_context_create(NULL, &ctx);
    CHECK(st == TSL_OK && ctx, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary(name);

    tsl_device_info dev;
    memset(&dev, 0, sizeof dev);
    st = tsl_context_device(ctx, &dev);
    CHECK(st == TSL_OK, "tsl_context_device: %s", tsl_status_name(st));
    printf("device: %s (%s)\n", dev.name, dev.platform);

    const char *resolved = NULL;
    st = tsl_variant_check(ctx, "gemm", g_variant, &resolved);
    if (st == TSL_ERR_UNSUPPORTED) {
        CHECK(tsl_context_error(ctx)[0] != '\0', "unsupported without a reason");
        SKIP("gemm variant %s is not supported on %s: %s", g_variant, dev.name,
             tsl_context_error(ctx));
        tsl_context_destroy(ctx);
        return check_summary(name);
    }
    CHECK(st == TSL_OK, "tsl_variant_check(gemm, %s) = %s: %s", g_variant, tsl_status_name(st),
          tsl_context_error(ctx));
    if (strcmp(g_variant, "auto") == 0) {
        CHECK(resolved && resolved[0], "auto resolves to nothing");
        if (resolved) printf("auto = %s\n", resolved);
    }
    st = tsl_context_set_variant(ctx, "gemm", g_variant);
    CHECK(st == TSL_OK, "tsl_context_set_variant(gemm, %s) = %s: %s", g_variant,
          tsl_status_name(st), tsl_context_error(ctx));
    if (check_failures_) {
        tsl_context_destroy(ctx);
        return check_summary(name);
    }

    run_precision(ctx, TSL_SINGLE);
    if (dev.fp64) {
        run_precision(ctx, TSL_DOUBLE);
    } else {
        /* Without fp64, double must be refused clearly, leaving C alone. */
        double a = 1.5, b = 2.5, c = 3.25;
        st = tsl_dgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 1, 1, 1, 1.0, &a, 1, &b, 1,
                       0.5, &c, 1);
        CHECK(st == TSL_ERR_UNSUPPORTED, "dgemm without fp64 returned %s", tsl_status_name(st));
        CHECK(tsl_context_error(ctx)[0] != '\0', "dgemm without fp64: no message");
        CHECK(c == 3.25, "dgemm without fp64 wrote C");
        SKIP("double precision: %s has no fp64", dev.name);
    }
    run_half(ctx, &dev);
    tsl_context_destroy(ctx);
    return check_summary(name);
}
