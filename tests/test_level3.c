/* test_level3.c: correctness of the Level-3 routines (tsl_[sd]symm, syrk, syr2k, trmm, trsm) and of
 * strided batched GEMM against OpenBLAS (src/ref), with CBLAS semantics. One process tests one
 * routine: `test_level3 ROUTINE [BLOCK [VARIANT [GEMM [GEMM_DOUBLE [INV_BLOCK [STREAMS
 * [INV_FUSE]]]]]]]` (symm, syrk, syr2k, trmm, trsm, batched, errors; INV_BLOCK, STREAMS and
 * INV_FUSE set TRSM's options of those names); BLOCK sets the routine's "block" option (0: the default; tests/
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
 * GEMM: batches of 1, 3, 200 and 1000, strides of 0 for A or B, gaps between the problems' C whose
 * sentinels must survive, both variants (direct, loop), and one problem checked element by
 * element. `errors`: bad enums, small leading dimensions, NULL pointers, sizes past 2^31-1, small
 * buffers and overlapping C of a batch, each TSL_ERR_INVALID_ARG with a message naming the
 * argument and the caller's arrays unchanged. Seed: 20261201, or TSL_TEST_SEED. This file: the
 * routines' cases and main; test_level3_batched.c and test_level3_errors.c the other two parts. */
#define CHECK_DEFINE /* the counters of the three files (test_level3.h) */
#include "test_level3.h"

#include "ref/ref_level3.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 8
#define PAD 3

static unsigned long long g_seed = 20261201ull, g_counter;
tsl_context *g_ctx;
static long g_block; /* 0: the default */
static const char *g_gemm[2]; /* the gemm variant of single and double precision; NULL: auto */

/* The gemm variant of the precision (the routines' GEMMs run it). */
void set_gemm(int dbl)
{
    const char *v = g_gemm[dbl] ? g_gemm[dbl] : "auto";
    tsl_status s = tsl_context_set_variant(g_ctx, "gemm", v);
    CHECK(s == TSL_OK, "gemm variant %s: %s", v, tsl_context_error(g_ctx));
}
int g_fp64;

static const uint32_t NAN_IN_F = 0x7FC0ABCDu;          /* quiet: poisons what reads it */
static const uint64_t NAN_IN_D = 0x7FF8ABCDABCDABCDull;

unsigned long long next_seed(void)
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

double rand_scalar(unsigned long long *st)
{
    double v = urand(st);
    return v < 0 ? v * 1.25 - 0.25 : v * 1.25 + 0.25;
}

void *xmalloc(size_t bytes)
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

size_t es_of(int dbl)
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

/* TRSM with B of 8200 columns (left): inverse_leaf's parts of 4096 columns or more of a B of
 * 8192 or more keep their leaves' own size class (level3_leaf.c), where the odd shapes stay
 * below. */
static void trsm_wide(void)
{
    for (int dbl = 0; dbl < (g_fp64 ? 2 : 1); ++dbl) {
        l3_case q = {R_TRSM, dbl, 0, TSL_ROW_MAJOR, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS,
                     TSL_NON_UNIT, 65, 8200, 0, 0, 0, 0, 0};
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_level3 symm|syrk|syr2k|trmm|trsm|batched|errors "
                        "[BLOCK [VARIANT [GEMM [GEMM_DOUBLE [INV_BLOCK [STREAMS [INV_FUSE]]]]]]]\n");
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
    if (argc > 8) { /* TRSM inverse_leaf: the largest inverse built in one launch */
        tsl_status s = tsl_context_set_option(g_ctx, "trsm", "inv_fuse", strtol(argv[8], NULL, 10));
        CHECK(s == TSL_OK, "inv_fuse option: %s", tsl_context_error(g_ctx));
    }
    int found = 0;
    for (int r = 0; r <= R_TRSM; ++r)
        if (strcmp(what, routine_name[r]) == 0) {
            run_routine((routine)r);
            if (r == R_TRSM) trsm_singular(), trsm_wide();
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
    if (argc > 8) snprintf(name + strlen(name), sizeof name - strlen(name), " inv_fuse=%s", argv[8]);
    return check_summary(name);
}
