/* test_level3.c: correctness of the Level-3 routines (tsl_[sd]symm, syrk, syr2k, trmm, trsm) and of
 * strided batched GEMM against OpenBLAS (src/ref), with CBLAS semantics. One process tests one
 * routine: `test_level3 ROUTINE [BLOCK [VARIANT [GEMM [GEMM_DOUBLE]]]]` (symm, syrk, syr2k, trmm,
 * trsm, batched, errors); BLOCK sets the routine's "block" option (0: the default; tests/
 * level3.cmake runs each routine with the default, 128 on PoCL, and with 16, so the blocked paths
 * run over several blocks with a ragged last one), VARIANT the routine's variant (auto: the
 * triangle modes of tiled2d for SYRK/SYR2K/TRMM, TRSM's inverse; the older algorithms by name:
 * recursive, blocked, inverse_rec), GEMM the gemm variant under it (a tiled2d configuration: the
 * GPU-like ones of level3.cmake run the triangle and batch modes with staged, DIRECT and FP64-MMA
 * kernels on PoCL), GEMM_DOUBLE the one for double precision if different.
 *
 * Every combination of precision x layout x side x uplo x trans x diag (as the routine has them)
 * runs on fresh random data of one of the odd shapes 1, 7, 33, 65, 127, 200 (the shapes rotate
 * over the combinations, so each appears in every routine, square and rectangular), every other
 * case with padded leading dimensions, through the host-pointer call or (every third case) the
 * device-buffer call. Around every call: A and B (every element, padding, the unreferenced
 * triangle and a guard zone after the array) must be bit-identical afterwards; C's (B's for
 * TRMM/TRSM) padding, guard zone and, for SYRK/SYR2K, unreferenced triangle hold signalling-NaN
 * sentinels that must be bit-identical afterwards; A's unreferenced triangle (and a unit
 * diagonal) holds quiet NaN, which would poison the result if it were read. Extra cases per
 * routine: beta == 0 with NaN in C, alpha == 0 with NaN in A and B, alpha == 0 with beta == 1
 * (nothing changes), sizes of 0. TRSM runs on diagonally dominant triangles (off-diagonal elements
 * in [-1, 1) / ka, diagonal of magnitude 1 to 2) with the tolerance 1e-6 (single) or 1e-14
 * (double) times ka, and a singular triangle must give inf or NaN, TSL_OK, and no crash. Batched
 * GEMM: batches of 1, 3 and 1000, strides of 0 for A or B, gaps between the problems' C whose
 * sentinels must survive, both variants (direct, loop), and one problem checked element by
 * element. `errors`: bad enums, small leading dimensions, NULL pointers, sizes past 2^31-1, small
 * buffers and overlapping C of a batch, each TSL_ERR_INVALID_ARG with a message naming the
 * argument and the caller's arrays unchanged. Seed: 20261201, or TSL_TEST_SEED. */
#include "check.h"
#include "ref/ref.h"
#include "ref/ref_level3.h"
#include "tessel.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 8
#define PAD 3

static unsigned long long g_seed = 20261201ull, g_counter;
static tsl_context *g_ctx;
static long g_block; /* 0: the default */
static const char *g_gemm[2]; /* the gemm variant of single and double precision; NULL: auto */

/* The gemm variant of the precision (the routines' GEMMs run it). */
static void set_gemm(int dbl)
{
    const char *v = g_gemm[dbl] ? g_gemm[dbl] : "auto";
    tsl_status s = tsl_context_set_variant(g_ctx, "gemm", v);
    CHECK(s == TSL_OK, "gemm variant %s: %s", v, tsl_context_error(g_ctx));
}
static int g_fp64;

static const uint32_t NAN_IN_F = 0x7FC0ABCDu;          /* quiet: poisons what reads it */
static const uint64_t NAN_IN_D = 0x7FF8ABCDABCDABCDull;
static const uint32_t NAN_OUT_F = 0x7F8DEAD1u;         /* signalling: arithmetic changes it */
static const uint64_t NAN_OUT_D = 0x7FF0DEADBEEF0001ull;

static unsigned long long next_seed(void)
{
    unsigned long long x = g_seed + 0x9E3779B97F4A7C15ull * (++g_counter);
    x ^= x >> 31;
    return x ? x : 1;
}

static double urand(unsigned long long *st)
{
    double v;
    tsl_ref_fill_d(&v, 1, st);
    return v;
}

static double rand_scalar(unsigned long long *st)
{
    double v = urand(st);
    return v < 0 ? v * 1.25 - 0.25 : v * 1.25 + 0.25;
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "test_level3: out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- a matrix as the caller stores it -------------------------------------------------------- */

/* rows x cols in the routine's terms; storage lines of len elements, ld apart, then a guard. */
typedef struct {
    int dbl;
    tsl_layout lay;
    size_t rows, cols, lines, len, ld, nelem, total;
    unsigned char *p, *snap;
    double *ref;
    char *role; /* per element: 'm' referenced, 'u' unreferenced, 'p' padding or guard */
} mat;

static size_t es_of(int dbl)
{
    return dbl ? 8 : 4;
}

static void mat_init(mat *x, int dbl, tsl_layout lay, size_t rows, size_t cols, size_t pad)
{
    x->dbl = dbl;
    x->lay = lay;
    x->rows = rows, x->cols = cols;
    x->lines = lay == TSL_ROW_MAJOR ? rows : cols;
    x->len = lay == TSL_ROW_MAJOR ? cols : rows;
    x->ld = (x->len ? x->len : 1) + pad;
    x->nelem = x->lines && x->len ? (x->lines - 1) * x->ld + x->len : 0;
    x->total = x->nelem + GUARD;
    x->p = xmalloc(x->total * es_of(dbl));
    x->snap = xmalloc(x->total * es_of(dbl));
    x->ref = xmalloc((x->nelem + 1) * sizeof(double));
    x->role = xmalloc(x->total + 1);
    memset(x->role, 'p', x->total);
    for (size_t i = 0; i < x->nelem; ++i) x->ref[i] = 0.0;
}

static void mat_free(mat *x)
{
    free(x->p), free(x->snap), free(x->ref), free(x->role);
}

static size_t at(const mat *x, size_t i, size_t j)
{
    return x->lay == TSL_ROW_MAJOR ? i * x->ld + j : j * x->ld + i;
}

static void put(mat *x, size_t idx, double v)
{
    if (x->dbl)
        memcpy(x->p + idx * 8, &v, 8);
    else {
        float f = (float)v;
        memcpy(x->p + idx * 4, &f, 4);
    }
}

static double get(const mat *x, size_t idx)
{
    if (x->dbl) {
        double v;
        memcpy(&v, x->p + idx * 8, 8);
        return v;
    }
    float f;
    memcpy(&f, x->p + idx * 4, 4);
    return f;
}

static void put_bits(mat *x, size_t idx, int in)
{
    if (x->dbl)
        memcpy(x->p + idx * 8, in ? &NAN_IN_D : &NAN_OUT_D, 8);
    else
        memcpy(x->p + idx * 4, in ? &NAN_IN_F : &NAN_OUT_F, 4);
}

/* What an element of a matrix is. */
typedef enum {
    F_GENERAL, /* every element referenced */
    F_SYM,     /* symmetric, the uplo triangle stored (the other: quiet NaN) */
    F_TRI,     /* triangular A of TRMM (off-diagonal in [-1, 1)) */
    F_TRI_SOLVE, /* triangular A of TRSM: diagonally dominant */
    F_CTRI     /* C of SYRK: the uplo triangle referenced, the other a signalling-NaN sentinel */
} fill_kind;

/* Fills x: sentinels outside (quiet NaN for inputs, signalling for outputs), random values (or
 * NaN with nan_inside) in the referenced elements; the reference copy gets the values (0 for
 * NaN inputs: they are not to be read). */
static void mat_fill(mat *x, fill_kind kind, int output, tsl_uplo uplo, tsl_diag diag,
                     int nan_inside, unsigned long long *st)
{
    for (size_t i = 0; i < x->total; ++i) put_bits(x, i, !output);
    size_t ka = x->rows;
    for (size_t i = 0; i < x->rows; ++i)
        for (size_t j = 0; j < x->cols; ++j) {
            size_t idx = at(x, i, j);
            int stored = kind == F_GENERAL || (uplo == TSL_LOWER ? j <= i : j >= i);
            int is_diag = i == j && (kind == F_TRI || kind == F_TRI_SOLVE);
            double v = urand(st);
            if (kind == F_TRI_SOLVE && !is_diag) v /= (double)ka;
            if (kind == F_TRI_SOLVE && is_diag) v = v < 0 ? v - 1.0 : v + 1.0;
            if (!stored) {
                x->role[idx] = 'u'; /* stays a sentinel */
                continue;
            }
            if (is_diag && diag == TSL_UNIT) {
                x->role[idx] = 'u';
                x->ref[idx] = 1.0; /* CBLAS does not read it either */
                continue;
            }
            x->role[idx] = 'm';
            if (nan_inside) {
                put(x, idx, NAN);
                x->ref[idx] = 0.0;
            } else {
                put(x, idx, v);
                x->ref[idx] = get(x, idx); /* exactly what the device sees */
            }
        }
    memcpy(x->snap, x->p, x->total * es_of(x->dbl));
}

/* First element whose bits changed: only outside the referenced part with outside_only. */
static size_t changed(const mat *x, int outside_only)
{
    size_t es = es_of(x->dbl);
    for (size_t i = 0; i < x->total; ++i) {
        if (outside_only && x->role[i] == 'm') continue;
        if (memcmp(x->p + i * es, x->snap + i * es, es) != 0) return i;
    }
    return SIZE_MAX;
}

/* ||out - ref|| / ||ref|| over the referenced elements; NaN if any is NaN. */
static double rel_err(const mat *x)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < x->nelem; ++i) {
        if (x->role[i] != 'm') continue;
        double d = get(x, i) - x->ref[i];
        num += d * d;
        den += x->ref[i] * x->ref[i];
    }
    if (isnan(num)) return NAN;
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* ---- calls through host pointers or device buffers ------------------------------------------- */

/* A device buffer holding the whole host array (padding and sentinels included). */
static tsl_buffer *to_buffer(const mat *x)
{
    tsl_buffer *b = NULL;
    size_t bytes = (x->nelem ? x->nelem : 1) * es_of(x->dbl);
    tsl_status st = tsl_buffer_create(g_ctx, bytes, &b);
    if (st == TSL_OK && x->nelem) st = tsl_buffer_write(g_ctx, b, 0, x->nelem * es_of(x->dbl), x->p);
    CHECK(st == TSL_OK, "buffer: %s", tsl_context_error(g_ctx));
    return b;
}

static void from_buffer(tsl_buffer *b, mat *x)
{
    if (x->nelem) {
        tsl_status st = tsl_buffer_read(g_ctx, b, 0, x->nelem * es_of(x->dbl), x->p);
        CHECK(st == TSL_OK, "buffer read: %s", tsl_context_error(g_ctx));
    }
}

typedef enum { R_SYMM, R_SYRK, R_SYR2K, R_TRMM, R_TRSM } routine;
static const char *routine_name[] = {"symm", "syrk", "syr2k", "trmm", "trsm"};

typedef struct {
    routine r;
    int dbl, bufs;
    tsl_layout lay;
    tsl_side side;
    tsl_uplo uplo;
    tsl_trans trans;
    tsl_diag diag;
    size_t m, n, k, pad;
    int beta_zero, alpha_zero, beta_one;
} l3_case;

/* Runs the routine on a, b, c (c unused by TRMM/TRSM, whose B is b). */
static tsl_status call(const l3_case *q, double alpha, double beta, mat *a, mat *b, mat *c)
{
    tsl_context *x = g_ctx;
    float fa = (float)alpha, fb = (float)beta;
    if (q->bufs) {
        tsl_buffer *ba = to_buffer(a), *bb = b ? to_buffer(b) : NULL, *bc = c ? to_buffer(c) : NULL;
        tsl_status st = TSL_ERR_INVALID_ARG;
        switch (q->r) {
        case R_SYMM:
            st = q->dbl ? tsl_dsymm_buf(x, q->lay, q->side, q->uplo, q->m, q->n, alpha, ba, a->ld,
                                        bb, b->ld, beta, bc, c->ld)
                        : tsl_ssymm_buf(x, q->lay, q->side, q->uplo, q->m, q->n, fa, ba, a->ld,
                                        bb, b->ld, fb, bc, c->ld);
            break;
        case R_SYRK:
            st = q->dbl ? tsl_dsyrk_buf(x, q->lay, q->uplo, q->trans, q->n, q->k, alpha, ba, a->ld,
                                        beta, bc, c->ld)
                        : tsl_ssyrk_buf(x, q->lay, q->uplo, q->trans, q->n, q->k, fa, ba, a->ld,
                                        fb, bc, c->ld);
            break;
        case R_SYR2K:
            st = q->dbl ? tsl_dsyr2k_buf(x, q->lay, q->uplo, q->trans, q->n, q->k, alpha, ba,
                                         a->ld, bb, b->ld, beta, bc, c->ld)
                        : tsl_ssyr2k_buf(x, q->lay, q->uplo, q->trans, q->n, q->k, fa, ba, a->ld,
                                         bb, b->ld, fb, bc, c->ld);
            break;
        case R_TRMM:
            st = q->dbl ? tsl_dtrmm_buf(x, q->lay, q->side, q->uplo, q->trans, q->diag, q->m, q->n,
                                        alpha, ba, a->ld, bb, b->ld)
                        : tsl_strmm_buf(x, q->lay, q->side, q->uplo, q->trans, q->diag, q->m, q->n,
                                        fa, ba, a->ld, bb, b->ld);
            break;
        case R_TRSM:
            st = q->dbl ? tsl_dtrsm_buf(x, q->lay, q->side, q->uplo, q->trans, q->diag, q->m, q->n,
                                        alpha, ba, a->ld, bb, b->ld)
                        : tsl_strsm_buf(x, q->lay, q->side, q->uplo, q->trans, q->diag, q->m, q->n,
                                        fa, ba, a->ld, bb, b->ld);
            break;
        }
        if (st == TSL_OK) {
            from_buffer(ba, a);
            if (b) from_buffer(bb, b);
            if (c) from_buffer(bc, c);
        }
        tsl_buffer_destroy(ba), tsl_buffer_destroy(bb), tsl_buffer_destroy(bc);
        return st;
    }
    switch (q->r) {
    case R_SYMM:
        return q->dbl ? tsl_dsymm(x, q->lay, q->side, q->uplo, q->m, q->n, alpha, (double *)a->p,
                                  a->ld, (double *)b->p, b->ld, beta, (double *)c->p, c->ld)
                      : tsl_ssymm(x, q->lay, q->side, q->uplo, q->m, q->n, fa, (float *)a->p,
                                  a->ld, (float *)b->p, b->ld, fb, (float *)c->p, c->ld);
    case R_SYRK:
        return q->dbl ? tsl_dsyrk(x, q->lay, q->uplo, q->trans, q->n, q->k, alpha, (double *)a->p,
                                  a->ld, beta, (double *)c->p, c->ld)
                      : tsl_ssyrk(x, q->lay, q->uplo, q->trans, q->n, q->k, fa, (float *)a->p,
                                  a->ld, fb, (float *)c->p, c->ld);
    case R_SYR2K:
        return q->dbl ? tsl_dsyr2k(x, q->lay, q->uplo, q->trans, q->n, q->k, alpha,
                                   (double *)a->p, a->ld, (double *)b->p, b->ld, beta,
                                   (double *)c->p, c->ld)
                      : tsl_ssyr2k(x, q->lay, q->uplo, q->trans, q->n, q->k, fa, (float *)a->p,
                                   a->ld, (float *)b->p, b->ld, fb, (float *)c->p, c->ld);
    case R_TRMM:
        return q->dbl ? tsl_dtrmm(x, q->lay, q->side, q->uplo, q->trans, q->diag, q->m, q->n,
                                  alpha, (double *)a->p, a->ld, (double *)b->p, b->ld)
                      : tsl_strmm(x, q->lay, q->side, q->uplo, q->trans, q->diag, q->m, q->n, fa,
                                  (float *)a->p, a->ld, (float *)b->p, b->ld);
    case R_TRSM:
        return q->dbl ? tsl_dtrsm(x, q->lay, q->side, q->uplo, q->trans, q->diag, q->m, q->n,
                                  alpha, (double *)a->p, a->ld, (double *)b->p, b->ld)
                      : tsl_strsm(x, q->lay, q->side, q->uplo, q->trans, q->diag, q->m, q->n, fa,
                                  (float *)a->p, a->ld, (float *)b->p, b->ld);
    }
    return TSL_ERR_INVALID_ARG;
}

/* ---- one case ---------------------------------------------------------------------------------- */

static void run_case(const l3_case *q)
{
    unsigned long long seed = next_seed(), st = seed;
    int dbl = q->dbl;
    set_gemm(dbl);
    mat a, b, c;
    int has_b = q->r != R_SYRK, has_c = q->r == R_SYMM || q->r == R_SYRK || q->r == R_SYR2K;
    int left = q->side == TSL_LEFT;
    size_t ka = q->r == R_SYRK || q->r == R_SYR2K ? 0 : left ? q->m : q->n;
    /* the operands' shapes in the routine's terms */
    if (q->r == R_SYRK || q->r == R_SYR2K) {
        size_t ar = q->trans == TSL_NO_TRANS ? q->n : q->k, ac = q->trans == TSL_NO_TRANS ? q->k : q->n;
        mat_init(&a, dbl, q->lay, ar, ac, q->pad);
        mat_fill(&a, F_GENERAL, 0, q->uplo, q->diag, q->alpha_zero, &st);
        if (has_b) {
            mat_init(&b, dbl, q->lay, ar, ac, q->pad);
            mat_fill(&b, F_GENERAL, 0, q->uplo, q->diag, q->alpha_zero, &st);
        }
        mat_init(&c, dbl, q->lay, q->n, q->n, q->pad);
        mat_fill(&c, F_CTRI, 1, q->uplo, q->diag, q->beta_zero, &st);
    } else {
        fill_kind fk = q->r == R_SYMM ? F_SYM : q->r == R_TRMM ? F_TRI : F_TRI_SOLVE;
        mat_init(&a, dbl, q->lay, ka, ka, q->pad);
        mat_fill(&a, fk, 0, q->uplo, q->r == R_SYMM ? TSL_NON_UNIT : q->diag, q->alpha_zero, &st);
        mat_init(&b, dbl, q->lay, q->m, q->n, q->pad);
        int b_out = q->r != R_SYMM;
        mat_fill(&b, F_GENERAL, b_out, q->uplo, q->diag, q->alpha_zero, &st);
        if (has_c) {
            mat_init(&c, dbl, q->lay, q->m, q->n, q->pad);
            mat_fill(&c, F_GENERAL, 1, q->uplo, q->diag, q->beta_zero, &st);
        }
    }
    double alpha = q->alpha_zero ? 0.0 : rand_scalar(&st);
    double beta = q->beta_zero ? 0.0 : q->beta_one ? 1.0 : rand_scalar(&st);
    if (!dbl) alpha = (float)alpha, beta = (float)beta;
    char desc[400];
    snprintf(desc, sizeof desc,
             "[%s %s %s-major side=%s uplo=%s trans=%c diag=%s m=%zu n=%zu k=%zu pad=%zu "
             "alpha=%.6g beta=%.6g%s%s%s block=%ld seed=%llu]",
             routine_name[q->r], dbl ? "double" : "single",
             q->lay == TSL_ROW_MAJOR ? "row" : "col", left ? "L" : "R",
             q->uplo == TSL_LOWER ? "L" : "U", q->trans == TSL_TRANS ? 'T' : 'N',
             q->diag == TSL_UNIT ? "U" : "N", q->m, q->n, q->k, q->pad, alpha, beta,
             q->beta_zero ? " C=NaN" : "", q->alpha_zero ? " A=B=NaN" : "",
             q->bufs ? " buffers" : "", g_block, seed);
    mat *out = has_c ? &c : &b;
    tsl_status s = call(q, alpha, beta, &a, has_b ? &b : NULL, has_c ? &c : NULL);
    CHECK(s == TSL_OK, "call: %s: %s %s", tsl_status_name(s), tsl_context_error(g_ctx), desc);
    /* the reference */
    if (q->alpha_zero) {
        for (size_t i = 0; i < out->nelem; ++i)
            if (out->role[i] == 'm') out->ref[i] = q->r >= R_TRMM ? 0.0 : beta * out->ref[i];
    } else {
        switch (q->r) {
        case R_SYMM:
            tsl_ref_dsymm(q->lay, q->side, q->uplo, q->m, q->n, alpha, a.ref, a.ld, b.ref, b.ld,
                          beta, c.ref, c.ld);
            break;
        case R_SYRK:
            tsl_ref_dsyrk(q->lay, q->uplo, q->trans, q->n, q->k, alpha, a.ref, a.ld, beta, c.ref,
                          c.ld);
            break;
        case R_SYR2K:
            tsl_ref_dsyr2k(q->lay, q->uplo, q->trans, q->n, q->k, alpha, a.ref, a.ld, b.ref, b.ld,
                           beta, c.ref, c.ld);
            break;
        case R_TRMM:
            tsl_ref_dtrmm(q->lay, q->side, q->uplo, q->trans, q->diag, q->m, q->n, alpha, a.ref,
                          a.ld, b.ref, b.ld);
            break;
        case R_TRSM:
            tsl_ref_dtrsm(q->lay, q->side, q->uplo, q->trans, q->diag, q->m, q->n, alpha, a.ref,
                          a.ld, b.ref, b.ld);
            break;
        }
    }
    if (s == TSL_OK) {
        size_t i = changed(&a, 0);
        CHECK(i == SIZE_MAX, "A changed at element %zu (%c) %s", i, a.role[i < a.total ? i : 0], desc);
        if (has_b && has_c) {
            i = changed(&b, 0);
            CHECK(i == SIZE_MAX, "B changed at element %zu %s", i, desc);
        }
        i = changed(out, 1);
        CHECK(i == SIZE_MAX, "%s changed outside its referenced part at element %zu (%s) %s",
              has_c ? "C" : "B", i,
              i < out->total ? (out->role[i] == 'u' ? "unreferenced triangle" : "padding/guard")
                             : "", desc);
        if (q->beta_one && q->alpha_zero && has_c) { /* C = 1 C: nothing changes */
            i = changed(out, 0);
            CHECK(i == SIZE_MAX, "alpha == 0, beta == 1 changed element %zu %s", i, desc);
        }
        double err = rel_err(out);
        size_t kk = q->r == R_SYRK || q->r == R_SYR2K ? q->k : ka;
        double tol = q->r == R_TRSM ? (dbl ? 1e-14 : 1e-6) * (double)(ka > 16 ? ka : 16)
                                    : tsl_ref_gemm_tolerance(dbl, kk ? kk : 1) * (q->r == R_SYR2K ? 2 : 1);
        CHECK(err <= tol, "relative error %.3g > %.3g %s", err, tol, desc);
    }
    mat_free(&a);
    if (has_b) mat_free(&b);
    if (has_c) mat_free(&c);
}

static const size_t SHAPES[] = {1, 7, 33, 65, 127, 200};
#define NSHAPES (sizeof SHAPES / sizeof SHAPES[0])

/* Every combination of the routine's flags, each on one shape (rotating; n from the shape after
 * m's); then the first combination on every shape; then the special cases. */
static void run_routine(routine r)
{
    int has_side = r == R_SYMM || r == R_TRMM || r == R_TRSM;
    int has_trans = r != R_SYMM, has_diag = r == R_TRMM || r == R_TRSM;
    size_t counter = 0;
    for (int dbl = 0; dbl < 2; ++dbl) {
        if (dbl && !g_fp64) {
            SKIP("double precision: the device has no fp64");
            continue;
        }
        for (int lay = 0; lay < 2; ++lay)
            for (int side = 0; side < (has_side ? 2 : 1); ++side)
                for (int up = 0; up < 2; ++up)
                    for (int tr = 0; tr < (has_trans ? 2 : 1); ++tr)
                        for (int dg = 0; dg < (has_diag ? 2 : 1); ++dg) {
                            l3_case q = {r, dbl, counter % 3 == 2,
                                         lay ? TSL_COL_MAJOR : TSL_ROW_MAJOR,
                                         side ? TSL_RIGHT : TSL_LEFT, up ? TSL_UPPER : TSL_LOWER,
                                         tr ? TSL_TRANS : TSL_NO_TRANS,
                                         dg ? TSL_UNIT : TSL_NON_UNIT,
                                         SHAPES[counter % NSHAPES],
                                         SHAPES[(counter + 1) % NSHAPES],
                                         SHAPES[(counter + 3) % NSHAPES],
                                         counter % 2 ? PAD : 0, 0, 0, 0};
                            if (r == R_SYRK || r == R_SYR2K) q.n = q.m; /* n x n, k */
                            run_case(&q);
                            ++counter;
                        }
        for (size_t i = 0; i < NSHAPES; ++i) {
            l3_case q = {r, dbl, i % 2, TSL_ROW_MAJOR, TSL_RIGHT, TSL_UPPER, TSL_TRANS,
                         TSL_NON_UNIT, SHAPES[i], SHAPES[i], SHAPES[NSHAPES - 1 - i], PAD, 0, 0, 0};
            run_case(&q);
        }
        /* beta == 0 over NaN C; alpha == 0 over NaN A and B; alpha == 0 with beta == 1; zeros */
        l3_case q = {r, dbl, 0, TSL_COL_MAJOR, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_NON_UNIT,
                     65, 33, 33, PAD, 1, 0, 0};
        if (r == R_SYRK || r == R_SYR2K) q.n = 65;
        run_case(&q);
        q.bufs = 1;
        run_case(&q);
        q.beta_zero = 0, q.alpha_zero = 1, q.bufs = 0;
        run_case(&q);
        q.beta_one = 1;
        run_case(&q);
        q.alpha_zero = 0, q.beta_one = 0, q.k = 0;
        if (r == R_SYRK || r == R_SYR2K) run_case(&q); /* k == 0: C = beta C */
        q.m = 0, q.k = 5;
        run_case(&q);
        q.m = 7, q.n = 0;
        run_case(&q);
    }
}

/* TRSM with a zero on the non-unit diagonal: IEEE inf/NaN, TSL_OK, no crash. */
static void trsm_singular(void)
{
    for (int dbl = 0; dbl < (g_fp64 ? 2 : 1); ++dbl) {
        set_gemm(dbl);
        size_t n = 40, m = 40;
        size_t es = es_of(dbl);
        unsigned char *a = xmalloc(n * n * es), *b = xmalloc(m * n * es);
        unsigned long long st = next_seed();
        for (size_t i = 0; i < n * n; ++i) {
            double v = (i / n == i % n) ? (i / n == 20 ? 0.0 : 2.0) : urand(&st) / 40.0;
            if (dbl) memcpy(a + i * 8, &v, 8); else { float f = (float)v; memcpy(a + i * 4, &f, 4); }
        }
        for (size_t i = 0; i < m * n; ++i) {
            double v = urand(&st);
            if (dbl) memcpy(b + i * 8, &v, 8); else { float f = (float)v; memcpy(b + i * 4, &f, 4); }
        }
        tsl_status s = dbl ? tsl_dtrsm(g_ctx, TSL_ROW_MAJOR, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS,
                                       TSL_NON_UNIT, m, n, 1.0, (double *)a, n, (double *)b, n)
                           : tsl_strsm(g_ctx, TSL_ROW_MAJOR, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS,
                                       TSL_NON_UNIT, m, n, 1.0f, (float *)a, n, (float *)b, n);
        CHECK(s == TSL_OK, "singular trsm: %s %s", tsl_status_name(s), tsl_context_error(g_ctx));
        size_t nonfinite = 0, finite_before = 1;
        for (size_t i = 0; i < m * n; ++i) {
            double v;
            if (dbl) memcpy(&v, b + i * 8, 8); else { float f; memcpy(&f, b + i * 4, 4); v = f; }
            if (!isfinite(v)) ++nonfinite;
            if (i / n < 20 && !isfinite(v)) finite_before = 0;
        }
        CHECK(nonfinite > 0, "singular trsm (%s): no inf or NaN in the result",
              dbl ? "double" : "single");
        CHECK(finite_before, "singular trsm (%s): rows before the zero pivot are not finite",
              dbl ? "double" : "single");
        free(a), free(b);
    }
}

/* ---- strided batched GEMM ------------------------------------------------------------------------ */

static int g_align_b; /* B's leading dimension and stride rounded up to multiples of 8 */

static void batched_case(int dbl, tsl_layout lay, tsl_trans ta, tsl_trans tb, size_t m, size_t n,
                         size_t k, size_t batch, int share, size_t gap, int bufs, int beta_zero,
                         const char *variant)
{
    unsigned long long seed = next_seed(), st = seed;
    size_t es = es_of(dbl);
    int row = lay == TSL_ROW_MAJOR;
    size_t ar = ta == TSL_NO_TRANS ? m : k, ac = ta == TSL_NO_TRANS ? k : m;
    size_t br = tb == TSL_NO_TRANS ? k : n, bc = tb == TSL_NO_TRANS ? n : k;
    size_t lda = (row ? ac : ar) + 1, ldb = (row ? bc : br) + 2, ldc = (row ? n : m) + 1;
    size_t span_a = ((row ? ar : ac) - 1) * lda + (row ? ac : ar);
    size_t span_b = ((row ? br : bc) - 1) * ldb + (row ? bc : br);
    size_t span_c = ((row ? m : n) - 1) * ldc + (row ? n : m);
    if (g_align_b) {
        ldb = (ldb + 7) / 8 * 8;
        span_b = ((row ? br : bc) - 1) * ldb + (row ? bc : br);
    }
    size_t sa = share == 1 ? 0 : span_a + 5, sb = share == 2 ? 0 : span_b, sc = span_c + gap;
    if (g_align_b && sb) sb = (sb + 7) / 8 * 8;
    size_t ea = (batch - 1) * sa + span_a, eb = (batch - 1) * sb + span_b, ec = (batch - 1) * sc + span_c;
    double *ad = xmalloc(ea * 8), *bd = xmalloc(eb * 8), *cd = xmalloc(ec * 8);
    unsigned char *a = xmalloc(ea * es), *b = xmalloc(eb * es), *c = xmalloc(ec * es), *c0 = xmalloc(ec * es);
    tsl_ref_fill_d(ad, ea, &st);
    tsl_ref_fill_d(bd, eb, &st);
    tsl_ref_fill_d(cd, ec, &st);
    for (size_t i = 0; i < ea; ++i) {
        if (dbl) memcpy(a + i * 8, &ad[i], 8); else { float f = (float)ad[i]; memcpy(a + i * 4, &f, 4); ad[i] = f; }
    }
    for (size_t i = 0; i < eb; ++i) {
        if (dbl) memcpy(b + i * 8, &bd[i], 8); else { float f = (float)bd[i]; memcpy(b + i * 4, &f, 4); bd[i] = f; }
    }
    for (size_t i = 0; i < ec; ++i) { /* every element a sentinel, then each problem's C */
        if (dbl) memcpy(c + i * 8, &NAN_OUT_D, 8); else memcpy(c + i * 4, &NAN_OUT_F, 4);
    }
    char *inside = xmalloc(ec);
    memset(inside, 0, ec);
    for (size_t p = 0; p < batch; ++p)
        for (size_t l = 0; l < (row ? m : n); ++l)
            for (size_t j = 0; j < (row ? n : m); ++j) {
                size_t i = p * sc + l * ldc + j;
                inside[i] = 1;
                double v = beta_zero ? NAN : cd[i];
                if (dbl) memcpy(c + i * 8, &v, 8); else { float f = (float)v; memcpy(c + i * 4, &f, 4); cd[i] = f; }
                if (beta_zero) cd[i] = 0.0;
            }
    memcpy(c0, c, ec * es);
    double alpha = rand_scalar(&st), beta = beta_zero ? 0.0 : rand_scalar(&st);
    if (!dbl) alpha = (float)alpha, beta = (float)beta;
    char desc[300];
    snprintf(desc, sizeof desc,
             "[batched %s %s %s %c%c m=%zu n=%zu k=%zu batch=%zu stride_a=%zu stride_b=%zu "
             "stride_c=%zu%s%s seed=%llu]",
             variant, dbl ? "double" : "single", row ? "row" : "col", ta == TSL_TRANS ? 'T' : 'N',
             tb == TSL_TRANS ? 'T' : 'N', m, n, k, batch, sa, sb, sc, bufs ? " buffers" : "",
             beta_zero ? " C=NaN" : "", seed);
    CHECK(tsl_context_set_variant(g_ctx, "gemm_batched", variant) == TSL_OK, "set variant %s", desc);
    tsl_status s;
    if (bufs) {
        tsl_buffer *xa, *xb, *xc;
        tsl_buffer_create(g_ctx, ea * es, &xa), tsl_buffer_create(g_ctx, eb * es, &xb);
        tsl_buffer_create(g_ctx, ec * es, &xc);
        tsl_buffer_write(g_ctx, xa, 0, ea * es, a), tsl_buffer_write(g_ctx, xb, 0, eb * es, b);
        tsl_buffer_write(g_ctx, xc, 0, ec * es, c);
        s = dbl ? tsl_dgemm_batched_buf(g_ctx, lay, ta, tb, m, n, k, alpha, xa, lda, sa, xb, ldb,
                                        sb, beta, xc, ldc, sc, batch)
                : tsl_sgemm_batched_buf(g_ctx, lay, ta, tb, m, n, k, (float)alpha, xa, lda, sa, xb,
                                        ldb, sb, (float)beta, xc, ldc, sc, batch);
        tsl_buffer_read(g_ctx, xc, 0, ec * es, c);
        tsl_buffer_destroy(xa), tsl_buffer_destroy(xb), tsl_buffer_destroy(xc);
    } else {
        s = dbl ? tsl_dgemm_batched(g_ctx, lay, ta, tb, m, n, k, alpha, (double *)a, lda, sa,
                                    (double *)b, ldb, sb, beta, (double *)c, ldc, sc, batch)
                : tsl_sgemm_batched(g_ctx, lay, ta, tb, m, n, k, (float)alpha, (float *)a, lda, sa,
                                    (float *)b, ldb, sb, (float)beta, (float *)c, ldc, sc, batch);
    }
    CHECK(s == TSL_OK, "batched: %s: %s %s", tsl_status_name(s), tsl_context_error(g_ctx), desc);
    if (s == TSL_OK) {
        for (size_t p = 0; p < batch; ++p)
            tsl_ref_dgemm(lay, ta, tb, m, n, k, alpha, ad + p * sa, lda, bd + p * sb, ldb, beta,
                          cd + p * sc, ldc);
        double num = 0, den = 0, worst = 0;
        size_t bad_outside = SIZE_MAX;
        size_t p1 = batch / 2, p1_lo = p1 * sc, p1_hi = p1 * sc + span_c;
        double tol = tsl_ref_gemm_tolerance(dbl, k);
        for (size_t i = 0; i < ec; ++i) {
            if (!inside[i]) {
                if (memcmp(c + i * es, c0 + i * es, es) != 0 && bad_outside == SIZE_MAX) bad_outside = i;
                continue;
            }
            double v;
            if (dbl) memcpy(&v, c + i * 8, 8); else { float f; memcpy(&f, c + i * 4, 4); v = f; }
            double d = v - cd[i];
            num += d * d, den += cd[i] * cd[i];
            if (i >= p1_lo && i < p1_hi) { /* one problem, element by element */
                double e = fabs(d) / (fabs(cd[i]) + 1.0);
                if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
            }
        }
        double err = isnan(num) ? NAN : den > 0 ? sqrt(num / den) : sqrt(num);
        CHECK(err <= tol, "batched relative error %.3g > %.3g %s", err, tol, desc);
        CHECK(worst <= 10 * tol * (k > 1 ? sqrt((double)k) : 1.0),
              "problem %zu: worst element error %.3g %s", p1, worst, desc);
        CHECK(bad_outside == SIZE_MAX, "C changed between problems at element %zu %s", bad_outside,
              desc);
    }
    free(ad), free(bd), free(cd), free(a), free(b), free(c), free(c0), free(inside);
}

static void run_batched(void)
{
    const char *vs[3] = {"direct", "loop", "tiled"};
    for (int dbl = 0; dbl < (g_fp64 ? 2 : 1); ++dbl)
        for (int v = 0; v < 3; ++v) {
            set_gemm(dbl);
            batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 7, 5, 3, 1, 0, 0, 0, 0, vs[v]);
            batched_case(dbl, TSL_COL_MAJOR, TSL_TRANS, TSL_NO_TRANS, 33, 17, 65, 3, 0, 4, 1, 0, vs[v]);
            batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_TRANS, 65, 40, 33, 3, 1, 2, 0, 1, vs[v]);
            batched_case(dbl, TSL_COL_MAJOR, TSL_TRANS, TSL_TRANS, 20, 70, 9, 3, 2, 0, 1, 0, vs[v]);
            if (v == 0) {
                batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 8, 9, 7, 1000, 0, 3, 0, 0, vs[v]);
                batched_case(dbl, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_TRANS, 16, 16, 16, 1000, 2, 0, 1, 1, vs[v]);
                batched_case(dbl, TSL_ROW_MAJOR, TSL_TRANS, TSL_NO_TRANS, 1, 1, 1, 1000, 1, 0, 0, 0, vs[v]);
            }
        }
    /* tiled with operands it takes as they are (B's rows and strides multiples of 8): the one
     * batched tiled2d launch, with tiled2d's pre-pass-free configurations (GEMM of level3.cmake) */
    g_align_b = 1;
    for (int dbl = 0; dbl < (g_fp64 ? 2 : 1); ++dbl) {
        set_gemm(dbl);
        batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 37, 30, 21, 5, 0, 3, 0, 0, "tiled");
        batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 64, 64, 64, 3, 1, 0, 1, 1, "tiled");
        batched_case(dbl, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 70, 33, 65, 1000, 2, 0, 0, 0, "tiled");
        batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 130, 62, 40, 4, 0, 1, 1, 0, "auto");
        /* auto on both sides of its threshold (64: direct; 65 and above: tiled) */
        batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 64, 64, 64, 3, 0, 0, 0, 0, "auto");
        batched_case(dbl, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 96, 72, 65, 3, 0, 2, 0, 0, "auto");
    }
    g_align_b = 0;
    set_gemm(0);
    tsl_context_set_variant(g_ctx, "gemm_batched", "auto");
    batched_case(0, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, 33, 33, 33, 3, 0, 1, 0, 0, "auto");
}

/* ---- bad input -------------------------------------------------------------------------------- */

static int g_err_count;
#define EXPECT_BAD(call, word)                                                                    \
    do {                                                                                          \
        tsl_status s_ = (call);                                                                   \
        const char *e_ = tsl_context_error(g_ctx);                                                \
        ++g_err_count;                                                                            \
        CHECK(s_ == TSL_ERR_INVALID_ARG, "%s: got %s (%s)", #call, tsl_status_name(s_), e_);     \
        CHECK(check_mentions(e_, word), "%s: message '%s' does not name %s", #call, e_, word);    \
    } while (0)

static void run_errors(void)
{
    float a[64], b[64], c[64], a0[64], b0[64], c0[64];
    unsigned long long st = next_seed();
    tsl_ref_fill_f(a, 64, &st), tsl_ref_fill_f(b, 64, &st), tsl_ref_fill_f(c, 64, &st);
    memcpy(a0, a, sizeof a), memcpy(b0, b, sizeof b), memcpy(c0, c, sizeof c);
    tsl_context *x = g_ctx;
    const tsl_layout R = TSL_ROW_MAJOR;
    size_t huge = (size_t)-3; /* -3 passed as size_t */
    /* symm */
    EXPECT_BAD(tsl_ssymm(x, (tsl_layout)99, TSL_LEFT, TSL_LOWER, 4, 4, 1, a, 4, b, 4, 1, c, 4), "layout");
    EXPECT_BAD(tsl_ssymm(x, R, (tsl_side)7, TSL_LOWER, 4, 4, 1, a, 4, b, 4, 1, c, 4), "side");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, (tsl_uplo)0, 4, 4, 1, a, 4, b, 4, 1, c, 4), "uplo");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, TSL_LOWER, 4, 5, 1, a, 3, b, 5, 1, c, 5), "lda");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_RIGHT, TSL_LOWER, 4, 5, 1, a, 4, b, 5, 1, c, 5), "lda");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, TSL_LOWER, 4, 5, 1, a, 4, b, 4, 1, c, 5), "ldb");
    EXPECT_BAD(tsl_ssymm(x, TSL_COL_MAJOR, TSL_LEFT, TSL_LOWER, 4, 5, 1, a, 4, b, 4, 1, c, 3), "ldc");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, TSL_LOWER, huge, 4, 1, a, 4, b, 4, 1, c, 4), "m");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, TSL_LOWER, 4, 4, 1, NULL, 4, b, 4, 1, c, 4), "A");
    EXPECT_BAD(tsl_ssymm(x, R, TSL_LEFT, TSL_LOWER, 4, 4, 1, a, 4, b, 4, 1, NULL, 4), "C");
    /* syrk, syr2k */
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, (tsl_trans)3, 4, 4, 1, a, 4, 1, c, 4), "trans");
    EXPECT_BAD(tsl_ssyrk(x, R, (tsl_uplo)5, TSL_NO_TRANS, 4, 4, 1, a, 4, 1, c, 4), "uplo");
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 6, 1, a, 5, 1, c, 4), "lda");
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, TSL_TRANS, 6, 4, 1, a, 5, 1, c, 6), "lda");
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, a, 4, 1, c, 3), "ldc");
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, TSL_NO_TRANS, 4, huge, 1, a, 4, 1, c, 4), "k");
    EXPECT_BAD(tsl_ssyrk(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, NULL, 4, 1, c, 4), "A");
    EXPECT_BAD(tsl_ssyr2k(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, a, 4, b, 3, 1, c, 4), "ldb");
    EXPECT_BAD(tsl_ssyr2k(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, a, 4, NULL, 4, 1, c, 4), "B");
    EXPECT_BAD(tsl_ssyr2k(x, R, TSL_UPPER, TSL_NO_TRANS, huge, 4, 1, a, 4, b, 4, 1, c, 4), "n");
    /* trmm, trsm */
    EXPECT_BAD(tsl_strmm(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, (tsl_diag)1, 4, 4, 1, a, 4, b, 4), "diag");
    EXPECT_BAD(tsl_strsm(x, R, TSL_LEFT, TSL_LOWER, (tsl_trans)1, TSL_UNIT, 4, 4, 1, a, 4, b, 4), "transa");
    EXPECT_BAD(tsl_strsm(x, R, (tsl_side)0, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, 4, 1, a, 4, b, 4), "side");
    EXPECT_BAD(tsl_strsm(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 5, 4, 1, a, 4, b, 4), "lda");
    EXPECT_BAD(tsl_strsm(x, R, TSL_RIGHT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, 5, 1, a, 5, b, 4), "ldb");
    EXPECT_BAD(tsl_strsm(x, TSL_COL_MAJOR, TSL_RIGHT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 5, 4, 1, a, 4, b, 4), "ldb");
    EXPECT_BAD(tsl_strmm(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, 4, 1, a, 4, NULL, 4), "B");
    EXPECT_BAD(tsl_strsm(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, 4, 1, NULL, 4, b, 4), "A");
    EXPECT_BAD(tsl_strsm(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, huge, 1, a, 4, b, 4), "n");
    /* batched */
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, a, 2, 4, b, 2, 4, 1, c, 2, 3, 3), "stride_c");
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, a, 2, 4, b, 2, 4, 1, c, 2, 0, 2), "stride_c");
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, a, 2, 4, b, 2, 4, 1, c, 3, 4, 2), "stride_c");
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, a, 1, 4, b, 2, 4, 1, c, 2, 4, 2), "lda");
    EXPECT_BAD(tsl_sgemm_batched(x, R, (tsl_trans)0, TSL_NO_TRANS, 2, 2, 2, 1, a, 2, 4, b, 2, 4, 1, c, 2, 4, 2), "transa");
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, NULL, 2, 4, b, 2, 4, 1, c, 2, 4, 2), "A");
    EXPECT_BAD(tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, huge, 1, a, 2, 4, b, 2, 4, 1, c, 2, 4, 2), "k");
    /* a stride_c that interleaves two problems' C without a shared element is valid: C_0 holds
     * elements 0, 1, 4, 5 (2 x 2, ldc 4) and C_1 2, 3, 6, 7 */
    tsl_status ok = tsl_sgemm_batched(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 2, 2, 2, 1, a, 2, 4, b, 2,
                                      4, 0, c, 4, 2, 2);
    CHECK(ok == TSL_OK, "interleaved disjoint C: %s %s", tsl_status_name(ok), tsl_context_error(x));
    memcpy(c, c0, sizeof c);
    /* buffers too small */
    tsl_buffer *small = NULL, *big = NULL;
    tsl_buffer_create(x, 16, &small), tsl_buffer_create(x, 4096, &big);
    EXPECT_BAD(tsl_strsm_buf(x, R, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 4, 4, 1, small, 4, big, 4), "A");
    EXPECT_BAD(tsl_ssyrk_buf(x, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, big, 4, 1, small, 4), "C");
    EXPECT_BAD(tsl_ssymm_buf(x, R, TSL_LEFT, TSL_LOWER, 4, 4, 1, big, 4, small, 4, 1, big, 4), "B");
    EXPECT_BAD(tsl_sgemm_batched_buf(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 4, 4, 4, 1, big, 4, 16, big, 4, 16, 1, small, 4, 16, 3), "C");
    EXPECT_BAD(tsl_sgemm_batched_buf(x, R, TSL_NO_TRANS, TSL_NO_TRANS, 4, 4, 4, 1, small, 4, 16, big, 4, 16, 1, big, 4, 16, 3), "A");
    tsl_buffer_destroy(small), tsl_buffer_destroy(big);
    CHECK(memcmp(a, a0, sizeof a) == 0 && memcmp(b, b0, sizeof b) == 0 &&
              memcmp(c, c0, sizeof c) == 0,
          "a rejected call changed the caller's arrays");
    /* variants and options */
    CHECK(tsl_context_set_variant(x, "trsm", "nope") == TSL_ERR_INVALID_ARG, "unknown trsm variant");
    CHECK(tsl_context_set_option(x, "trsm", "block", 0) == TSL_ERR_INVALID_ARG, "block 0");
    CHECK(tsl_context_set_option(x, "syrk", "blocks", 16) == TSL_ERR_INVALID_ARG, "unknown option");
    CHECK(tsl_context_set_variant(x, "gemm_batched", "loop") == TSL_OK, "gemm_batched loop");
    tsl_context_set_variant(x, "gemm_batched", "auto");
    CHECK(tsl_ssyrk(NULL, R, TSL_LOWER, TSL_NO_TRANS, 4, 4, 1, a, 4, 1, c, 4) == TSL_ERR_INVALID_ARG,
          "NULL ctx");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_level3 symm|syrk|syr2k|trmm|trsm|batched|errors "
                        "[BLOCK [VARIANT [GEMM [GEMM_DOUBLE]]]]\n");
        return 2;
    }
    const char *env = getenv("TSL_TEST_SEED");
    if (env && *env) g_seed = strtoull(env, NULL, 10);
    tsl_status st = tsl_context_create(NULL, &g_ctx);
    CHECK(st == TSL_OK && g_ctx, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary("test_level3");
    tsl_device_info info;
    tsl_context_device(g_ctx, &info);
    g_fp64 = info.fp64;
    const char *what = argv[1];
    if (argc > 3 && strcmp(argv[3], "auto") != 0) {
        const char *ops[] = {"syrk", "syr2k", "trmm", "trsm"};
        for (int i = 0; i < 4; ++i)
            if (strcmp(ops[i], what) == 0) {
                tsl_status s = tsl_context_set_variant(g_ctx, what, argv[3]);
                CHECK(s == TSL_OK, "variant %s: %s", argv[3], tsl_context_error(g_ctx));
            }
    }
    if (argc > 4) g_gemm[0] = g_gemm[1] = argv[4];
    if (argc > 5) g_gemm[1] = argv[5];
    if (argc > 2 && strtol(argv[2], NULL, 10) > 0) {
        g_block = strtol(argv[2], NULL, 10);
        const char *ops[] = {"symm", "syrk", "syr2k", "trmm", "trsm"};
        for (int i = 0; i < 5; ++i)
            if (strcmp(ops[i], "symm") != 0) {
                tsl_status s = tsl_context_set_option(g_ctx, ops[i], "block", g_block);
                CHECK(s == TSL_OK, "block option: %s", tsl_context_error(g_ctx));
            }
    }
    if (argc > 6 && strtol(argv[6], NULL, 10) > 0) { /* TRSM: l3_tri_inv's largest block */
        tsl_status s = tsl_context_set_option(g_ctx, "trsm", "inv_block", strtol(argv[6], NULL, 10));
        CHECK(s == TSL_OK, "inv_block option: %s", tsl_context_error(g_ctx));
    }
    if (argc > 7) { /* TRSM inverse_leaf: B in parts on side queues */
        tsl_status s = tsl_context_set_option(g_ctx, "trsm", "streams", strtol(argv[7], NULL, 10));
        CHECK(s == TSL_OK, "streams option: %s", tsl_context_error(g_ctx));
    }
    int found = 0;
    for (int r = 0; r <= R_TRSM; ++r)
        if (strcmp(what, routine_name[r]) == 0) {
            run_routine((routine)r);
            if (r == R_TRSM) trsm_singular();
            found = 1;
        }
    if (strcmp(what, "batched") == 0) run_batched(), found = 1;
    if (strcmp(what, "errors") == 0) run_errors(), found = 1;
    CHECK(found, "unknown test '%s'", what);
    tsl_context_destroy(g_ctx);
    char name[400];
    snprintf(name, sizeof name, "test_level3 %s%s%s%s%s%s%s", what, argc > 2 ? " block=" : "",
             argc > 2 ? argv[2] : "", argc > 3 ? " variant=" : "", argc > 3 ? argv[3] : "",
             argc > 4 ? " gemm=" : "", argc > 4 ? argv[4] : "");
    if (argc > 6) snprintf(name + strlen(name), sizeof name - strlen(name), " inv_block=%s", argv[6]);
    if (argc > 7) snprintf(name + strlen(name), sizeof name - strlen(name), " streams=%s", argv[7]);
    return check_summary(name);
}
