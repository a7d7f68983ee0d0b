/* test_lapack.c: correctness of the LAPACK routines (tsl_[sd]getrf, getrs, gesv, potrf, potrs,
 * posv, host pointers and device buffers) against LAPACK on the CPU (OpenBLAS's dgetrf_ and
 * dpotrf_, Fortran interface), with LAPACK's and LAPACKE's semantics. One process per family:
 * `test_lapack lu|chol|errors|small [GETRF_VARIANT]` (the variant of getrf's leaves: leaf,
 * columns; small: a few cases of every kernel, for Oclgrind).
 *
 * Every case runs on fresh random data in both precisions and both layouts, on the odd shapes 1,
 * 7, 33, 65, 127, 200 (square, tall and wide for getrf; with getrf's `columns` leaves, which
 * take leaves of more than 256 rows: shapes of 260 to 600 rows) and a large one (getrf 600,
 * three panels; potrf 1000), every other case with a padded leading dimension whose padding
 * (and a guard zone after the array) holds sentinels that must be bit-identical afterwards,
 * every third through the device-buffer call. What is checked is what LAPACK's own tests
 * check, with their threshold 30: the factorization's residual
 * (||P^T A - L U||_1 / (n ||A||_1 eps), dget01; ||A - L L^T||_1 / (n ||A||_1 eps), dpot01) and the
 * solve's (||op(A) X - B||_1 / (n ||A||_1 ||X||_1 eps), dget02), and beside it LAPACK's own answer
 * on the same matrix: the same pivots and the same INFO. potrf, potrs and posv get NaN in the
 * triangle they do not reference, which must come back unchanged. Singular matrices (a zero
 * column: INFO is its index, the factorization completed; gesv leaves B as it was) and matrices
 * that are not positive definite (INFO the order of the first such minor, as LAPACK's, and the
 * factor's leading block LAPACK's), sizes of 0. `errors`: bad enums, small leading dimensions,
 * NULL pointers, pivots that are no row, sizes past 2^31-1: TSL_ERR_INVALID_ARG naming the
 * argument, the caller's arrays unchanged. Seed: 20261202, or TSL_TEST_SEED. */
#include "check.h"
#include "tessel.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* LAPACK on the CPU: OpenBLAS's Fortran interface, column-major. */
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info);

#include "lapack_mat.h"

static int g_fp64, g_case, g_small; /* g_small: run_small's cases (2 right-hand sides, not 17) */

typedef enum { GETRF, GETRS, GESV, POTRF, POTRS, POSV } op;

/* One call of op on a (and b), in place; ipiv and info as LAPACK's. */
static tsl_status call(op o, int dbl, int buf, tsl_trans tr, tsl_uplo up, mat *a, mat *b,
                       int *ipiv, int *info)
{
    staged st = stage_in(dbl, buf, a, b);
    void *xa = st.xa, *xb = st.xb;
    tsl_buffer *ba = st.ba, *bb = st.bb;
    tsl_layout L = a->lay;
    size_t m = a->r, n = a->c, nrhs = b ? b->c : 0, lda = a->ld, ldb = b ? b->ld : 1;
    tsl_status s = TSL_ERR_INVALID_ARG;
#define PICK(f, ...) (dbl ? tsl_d##f(__VA_ARGS__) : tsl_s##f(__VA_ARGS__))
    switch (o) {
    case GETRF:
        s = buf ? PICK(getrf_buf, g_ctx, L, m, n, ba, lda, ipiv, info)
                : PICK(getrf, g_ctx, L, m, n, xa, lda, ipiv, info);
        break;
    case GETRS:
        s = buf ? PICK(getrs_buf, g_ctx, L, tr, n, nrhs, ba, lda, ipiv, bb, ldb)
                : PICK(getrs, g_ctx, L, tr, n, nrhs, xa, lda, ipiv, xb, ldb);
        break;
    case GESV:
        s = buf ? PICK(gesv_buf, g_ctx, L, n, nrhs, ba, lda, ipiv, bb, ldb, info)
                : PICK(gesv, g_ctx, L, n, nrhs, xa, lda, ipiv, xb, ldb, info);
        break;
    case POTRF:
        s = buf ? PICK(potrf_buf, g_ctx, L, up, n, ba, lda, info)
                : PICK(potrf, g_ctx, L, up, n, xa, lda, info);
        break;
    case POTRS:
        s = buf ? PICK(potrs_buf, g_ctx, L, up, n, nrhs, ba, lda, bb, ldb)
                : PICK(potrs, g_ctx, L, up, n, nrhs, xa, lda, xb, ldb);
        break;
    case POSV:
        s = buf ? PICK(posv_buf, g_ctx, L, up, n, nrhs, ba, lda, bb, ldb, info)
                : PICK(posv, g_ctx, L, up, n, nrhs, xa, lda, xb, ldb, info);
        break;
    }
#undef PICK
    stage_out(dbl, buf, &st, a, b);
    return s;
}

/* ---- references and residuals -------------------------------------------------------------- */

/* LAPACK's getrf on a column-major copy of a's matrix: its pivots and INFO. */
static int ref_getrf(const mat *a, int *ipiv)
{
    int m = (int)a->r, n = (int)a->c, lda = m > 0 ? m : 1, info = 0;
    double *c = malloc((size_t)lda * (n > 0 ? n : 1) * sizeof *c);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) c[i + (size_t)j * lda] = a->v[at(a, i, j)];
    dgetrf_(&m, &n, c, &lda, ipiv, &info);
    free(c);
    return info;
}
/* LAPACK's potrf of a's uplo triangle: INFO, and the factor's triangle into f (column-major n x n,
 * lower: L; upper: U). */
static int ref_potrf(const mat *a, tsl_uplo up, double *f)
{
    int n = (int)a->r, info = 0;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) f[i + (size_t)j * n] = a->v[at(a, i, j)];
    dpotrf_(up == TSL_LOWER ? "L" : "U", &n, f, &n, &info);
    return info;
}

/* ||P^T A - L U||_1 / (n ||A||_1 eps) for getrf's output f of a0. */
/* Above PROBE elements the factorization's residual is taken on random vectors x (three), as
 * ||(P^T A - L U) x||_1 / (n ||A||_1 ||x||_1 eps), a lower bound of the matrix residual that random
 * vectors bring within a small factor of it, at O(n^2) instead of O(n^3). */
#define PROBE 200000

/* The probe's ratio for A (r x c) = left (r x mid) times right (mid x c), their elements from
 * get (A's rows 0 .. r-1, the left factor's from row r + 1) and get2, worst of three vectors. */
static double probe(size_t r, size_t c, double (*get)(const void *, size_t, size_t),
                    const void *arg, double (*get2)(const void *, size_t, size_t),
                    const void *arg2, size_t mid, double an, int dbl)
{
    double worst = 0, eps = dbl ? DBL_EPSILON : FLT_EPSILON;
    double *x = malloc(c * sizeof *x), *z = malloc(mid * sizeof *z);
    for (int t = 0; t < 3; ++t) {
        double xn = 0, rn = 0;
        for (size_t j = 0; j < c; ++j) x[j] = rnd(), xn += fabs(x[j]);
        for (size_t i = 0; i < mid; ++i) { /* z = right factor x */
            double acc = 0;
            for (size_t j = 0; j < c; ++j) acc += get2(arg2, i, j) * x[j];
            z[i] = acc;
        }
        for (size_t i = 0; i < r; ++i) { /* (A x - left z)_i */
            double acc = 0;
            for (size_t j = 0; j < c; ++j) acc += get(arg, i, j) * x[j];
            for (size_t q = 0; q < mid; ++q) acc -= get(arg, r + 1 + i, q) * z[q];
            rn += fabs(acc);
        }
        worst = fmax(worst, rn / ((double)c * an * xn * eps));
    }
    free(x), free(z);
    return worst;
}

/* The LU probe's elements: rows 0 .. m-1 of P^T A, then (at row m + 1 + i) L's row i; U's. */
typedef struct {
    const mat *pa, *f;
    size_t m, k;
    tsl_uplo up;
} probe_arg;
static double lu_left(const void *p, size_t i, size_t j)
{
    const probe_arg *a = p;
    if (i < a->m) return a->pa->v[at(a->pa, i, j)];
    i -= a->m + 1;
    return j < i ? a->f->v[at(a->f, i, j)] : j == i ? 1.0 : 0.0;
}
static double lu_right(const void *p, size_t i, size_t j)
{
    const probe_arg *a = p;
    return j >= i ? a->f->v[at(a->f, i, j)] : 0.0;
}

static double lu_residual(const mat *a0, const mat *f, const int *ipiv, int dbl)
{
    size_t m = a0->r, n = a0->c, k = m < n ? m : n;
    mat pa = mat_copy(a0), r = mat_copy(a0);
    int big = m * n > PROBE;
    for (size_t i = 0; i < k; ++i) /* P^T A: the interchanges in order */
        for (size_t j = 0; j < n; ++j) {
            size_t p = (size_t)ipiv[i] - 1;
            double t = pa.v[at(&pa, i, j)];
            pa.v[at(&pa, i, j)] = pa.v[at(&pa, p, j)];
            pa.v[at(&pa, p, j)] = t;
        }
    if (big) {
        probe_arg pr = {&pa, f, m, k, TSL_LOWER};
        double res = probe(m, n, lu_left, &pr, lu_right, &pr, k, norm1(a0), dbl);
        free(pa.v), free(r.v);
        return res;
    }
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            double s = 0;
            size_t top = i < j ? i : j;
            for (size_t t = 0; t <= top && t < k; ++t) {
                double l = t == i ? 1.0 : f->v[at(f, i, t)];
                s += l * f->v[at(f, t, j)];
            }
            r.v[at(&r, i, j)] = pa.v[at(&pa, i, j)] - s;
        }
    double an = norm1(a0), rn = norm1(&r), eps = dbl ? DBL_EPSILON : FLT_EPSILON;
    free(pa.v);
    free(r.v);
    return an == 0 ? rn : rn / ((double)n * an * eps);
}

/* ||A - L L^T||_1 / (n ||A||_1 eps) for potrf's factor in f's uplo triangle (a0's matrix). */
static double sym_at(const mat *a, tsl_uplo up, size_t i, size_t j)
{
    int swap = up == TSL_LOWER ? i < j : i > j;
    return swap ? a->v[at(a, j, i)] : a->v[at(a, i, j)];
}
/* The Cholesky probe's elements: rows 0 .. n-1 of A, then L's rows; L^T's (L = U^T if upper). */
static double chol_left(const void *p, size_t i, size_t j)
{
    const probe_arg *a = p;
    if (i < a->m) return sym_at(a->pa, a->up, i, j);
    i -= a->m + 1;
    if (j > i) return 0.0;
    return a->up == TSL_LOWER ? a->f->v[at(a->f, i, j)] : a->f->v[at(a->f, j, i)];
}
static double chol_right(const void *p, size_t i, size_t j)
{
    const probe_arg *a = p;
    if (j < i) return 0.0;
    return a->up == TSL_LOWER ? a->f->v[at(a->f, j, i)] : a->f->v[at(a->f, i, j)];
}

static double chol_norm1(const mat *a0, tsl_uplo up)
{
    double an = 0;
    for (size_t j = 0; j < a0->r; ++j) {
        double s = 0;
        for (size_t i = 0; i < a0->r; ++i) s += fabs(sym_at(a0, up, i, j));
        if (s > an) an = s;
    }
    return an;
}

static double chol_residual(const mat *a0, const mat *f, tsl_uplo up, int dbl)
{
    size_t n = a0->r;
    if (n * n > PROBE) {
        probe_arg pr = {a0, f, n, n, up};
        return probe(n, n, chol_left, &pr, chol_right, &pr, n, chol_norm1(a0, up), dbl);
    }
    mat r = mat_copy(a0);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
            double s = 0;
            for (size_t t = 0; t <= (i < j ? i : j); ++t) /* L(i,t) L(j,t), L = U^T when upper */
                s += up == TSL_LOWER ? f->v[at(f, i, t)] * f->v[at(f, j, t)]
                                     : f->v[at(f, t, i)] * f->v[at(f, t, j)];
            r.v[at(&r, i, j)] = sym_at(a0, up, i, j) - s;
        }
    double an = chol_norm1(a0, up), rn = norm1(&r), eps = dbl ? DBL_EPSILON : FLT_EPSILON;
    free(r.v);
    return rn / ((double)n * an * eps);
}

/* ||op(A) X - B||_1 / (n ||A||_1 ||X||_1 eps); A given whole (sym: its uplo triangle, mirrored). */
static double solve_residual(const mat *a0, int sym, tsl_uplo up, tsl_trans tr, const mat *x,
                             const mat *b0, int dbl)
{
    size_t n = a0->r, nrhs = b0->c;
    mat r = mat_copy(b0);
    double an = sym ? chol_norm1(a0, up) : norm1(a0);
    for (size_t i = 0; i < n; ++i)
        for (size_t c = 0; c < nrhs; ++c) {
            double s = 0;
            for (size_t t = 0; t < n; ++t) {
                size_t si = tr == TSL_NO_TRANS ? i : t, sj = tr == TSL_NO_TRANS ? t : i;
                double e = sym ? sym_at(a0, up, si, sj) : a0->v[at(a0, si, sj)];
                s += e * x->v[at(x, t, c)];
            }
            r.v[at(&r, i, c)] = s - b0->v[at(b0, i, c)];
        }
    double rn = norm1(&r), xn = norm1(x), eps = dbl ? DBL_EPSILON : FLT_EPSILON;
    free(r.v);
    return rn / ((double)n * an * (xn > 0 ? xn : 1) * eps);
}

static const char *lay_name(tsl_layout l)
{
    return l == TSL_COL_MAJOR ? "col" : "row";
}

/* ---- LU ---------------------------------------------------------------------------------------- */

static void lu_case(int dbl, tsl_layout lay, size_t m, size_t n, int zero_col)
{
    int pad = g_case % 2, buf = g_case % 3 == 2;
    ++g_case;
    mat a = mat_new(lay, m, n, pad);
    mat_random(&a);
    if (zero_col >= 0)
        for (size_t i = 0; i < m; ++i) a.v[at(&a, i, (size_t)zero_col)] = 0;
    mat_round(&a, dbl);
    mat a0 = mat_copy(&a);
    size_t k = m < n ? m : n;
    int *ipiv = calloc(k + 1, sizeof *ipiv), *want = calloc(k + 1, sizeof *want), info = -7;
    tsl_status s = call(GETRF, dbl, buf, TSL_NO_TRANS, TSL_LOWER, &a, NULL, ipiv, &info);
    int rinfo = ref_getrf(&a0, want);
    const char *p = dbl ? "d" : "s";
    CHECK(s == TSL_OK, "%sgetrf %s %zux%zu%s: %s", p, lay_name(lay), m, n, buf ? " buf" : "",
          tsl_context_error(g_ctx));
    if (s == TSL_OK) {
        CHECK(info == rinfo, "%sgetrf %s %zux%zu: info %d, LAPACK's %d", p, lay_name(lay), m, n,
              info, rinfo);
        /* double: LAPACK's pivots exactly (a near tie that rounding could turn is far below a
         * random matrix's gaps); single: partial pivoting's bound |L| <= 1 (float's rounding is
         * near enough to those gaps that LAPACK's order of operations may choose otherwise) */
        int same = 1, valid = 1;
        for (size_t i = 0; i < k; ++i) {
            same &= ipiv[i] == want[i];
            valid &= ipiv[i] >= (int)i + 1 && ipiv[i] <= (int)m;
        }
        CHECK(valid, "%sgetrf %s %zux%zu: a pivot is no row at or below its own", p,
              lay_name(lay), m, n);
        CHECK(same || !dbl, "%sgetrf %s %zux%zu: pivots differ from LAPACK's", p, lay_name(lay),
              m, n);
        double lmax = 0;
        for (size_t j = 0; j < k; ++j)
            for (size_t i = j + 1; i < m; ++i) lmax = fmax(lmax, fabs(a.v[at(&a, i, j)]));
        CHECK(lmax <= 1.0, "%sgetrf %s %zux%zu: |L| reaches %g, above 1", p, lay_name(lay), m,
              n, lmax);
        double r = valid ? lu_residual(&a0, &a, ipiv, dbl) : INFINITY;
        CHECK(r < 30, "%sgetrf %s %zux%zu%s: residual %.3g", p, lay_name(lay), m, n,
              buf ? " buf" : "", r);
        CHECK(outside_kept(&a), "%sgetrf %s %zux%zu: padding or guard written", p, lay_name(lay),
              m, n);
    }
    /* the solves from these factors: both transposes, 1 and 17 right-hand sides */
    if (s == TSL_OK && m == n && info == 0) {
        for (int t = 0; t < 2; ++t) {
            tsl_trans tr = t ? TSL_TRANS : TSL_NO_TRANS;
            size_t nrhs = t ? (g_small ? 2 : 17) : 1;
            mat b = mat_new(lay, n, nrhs, !pad);
            mat_random(&b);
            mat_round(&b, dbl);
            mat b0 = mat_copy(&b), f = mat_copy(&a);
            s = call(GETRS, dbl, !buf, tr, TSL_LOWER, &f, &b, ipiv, NULL);
            CHECK(s == TSL_OK, "%sgetrs %s n %zu: %s", p, lay_name(lay), n,
                  tsl_context_error(g_ctx));
            double r = solve_residual(&a0, 0, TSL_LOWER, tr, &b, &b0, dbl);
            CHECK(r < 30, "%sgetrs %s %s n %zu nrhs %zu: residual %.3g", p, lay_name(lay),
                  t ? "T" : "N", n, nrhs, r);
            CHECK(memcmp(f.v, a.v, a.len * sizeof *a.v) == 0, "%sgetrs: A changed", p);
            CHECK(outside_kept(&b), "%sgetrs: B's padding or guard written", p);
            free(b.v), free(b0.v), free(f.v);
        }
    }
    /* gesv on the same matrix: getrf's factors and pivots, and the solution (none if singular) */
    if (m == n) {
        mat g = mat_copy(&a0), b = mat_new(lay, n, 3, pad);
        mat_random(&b);
        mat_round(&b, dbl);
        mat b0 = mat_copy(&b);
        int *gp = calloc(k + 1, sizeof *gp), ginfo = -7;
        s = call(GESV, dbl, buf, TSL_NO_TRANS, TSL_LOWER, &g, &b, gp, &ginfo);
        CHECK(s == TSL_OK && ginfo == rinfo, "%sgesv %s n %zu: %s, info %d (LAPACK's %d)", p,
              lay_name(lay), n, tsl_context_error(g_ctx), ginfo, rinfo);
        CHECK(memcmp(gp, ipiv, k * sizeof *gp) == 0, "%sgesv: pivots differ from getrf's", p);
        if (ginfo == 0) {
            double r = solve_residual(&a0, 0, TSL_LOWER, TSL_NO_TRANS, &b, &b0, dbl);
            CHECK(r < 30, "%sgesv %s n %zu: residual %.3g", p, lay_name(lay), n, r);
        } else {
            CHECK(memcmp(b.v, b0.v, b.len * sizeof *b.v) == 0, "%sgesv singular: B changed", p);
        }
        free(g.v), free(b.v), free(b0.v), free(gp);
    }
    free(a.v), free(a0.v), free(ipiv), free(want);
}

/* tall: the leaves' variant under test is `columns` (tsl_context_set_variant), which serves
 * leaves of more than 256 rows: the shapes that have them, both precisions and layouts, a zero
 * column, and the 600; otherwise the odd shapes (and one leaf of 300 rows). */
/* tsl_dsgesv (chol 0) or tsl_dsposv (chol 1, the uplo triangle; NaN in the other, which must
 * come back unchanged) on an n x n A with nrhs right-hand sides: kind 0 well conditioned
 * (refined: iter >= 0, A unchanged), 1 ill-conditioned (Hilbert's: the refinement cannot
 * converge or the single factorization fails, the double factorization answers: iter < 0, A holds
 * its factors), 2 an element beyond float's range (iter -2), 3 exactly singular or not positive
 * definite (iter -3, info the zero column or the minor). X's backward error
 * |A X - B|_inf / (|A|_inf |X|_inf n eps) must be below 30 in double's eps wherever info is 0. */
static void mixed_case(int chol, tsl_uplo up, tsl_layout lay, size_t n, size_t nrhs, int kind)
{
    ++g_case;
    const char *fn = chol ? "dsposv" : "dsgesv";
    mat a = mat_new(lay, n, n, 1), b = mat_new(lay, n, nrhs, 0), x = mat_new(lay, n, nrhs, 1);
    mat_random(&a);
    mat_random(&b);
    /* well conditioned: a dominant diagonal (symmetric and positive definite for dsposv) */
    for (size_t i = 0; i < n; ++i) a.v[at(&a, i, i)] += kind == 1 ? 0 : chol ? (double)n + 2 : 2.0;
    if (kind == 1) /* Hilbert's matrix: condition far beyond single's reach */
        for (size_t j = 0; j < n; ++j)
            for (size_t i = 0; i < n; ++i) a.v[at(&a, i, j)] = 1.0 / (double)(i + j + 1);
    if (kind == 2 && !chol) a.v[at(&a, n / 2, n / 3)] = 1e300;
    if (kind == 2 && chol) a.v[at(&a, n / 2, n / 2)] = 1e300;
    if (kind == 3 && !chol)
        for (size_t i = 0; i < n; ++i) a.v[at(&a, i, n / 2)] = 0;
    if (kind == 3 && chol) a.v[at(&a, n / 2, n / 2)] = -1;
    for (size_t i = 0; chol && i < n; ++i) /* the triangle not referenced */
        for (size_t j = 0; j < n; ++j)
            if (up == TSL_LOWER ? j > i : j < i) a.v[at(&a, i, j)] = NAN;
    mat a0 = mat_copy(&a);
    int *ipiv = calloc(n, sizeof *ipiv), iter = 99, info = -7;
    tsl_status s = chol ? tsl_dsposv(g_ctx, lay, up, n, nrhs, a.v, a.ld, b.v, b.ld, x.v, x.ld,
                                     &iter, &info)
                        : tsl_dsgesv(g_ctx, lay, n, nrhs, a.v, a.ld, ipiv, b.v, b.ld, x.v, x.ld,
                                     &iter, &info);
    CHECK(s == TSL_OK, "%s %zu kind %d: %s", fn, n, kind, tsl_context_error(g_ctx));
    if (s != TSL_OK) goto done;
    int want_iter_neg = kind != 0;
    CHECK(want_iter_neg ? iter < 0 : iter >= 0 && iter <= 30, "%s %zu kind %d: iter %d", fn, n,
          kind, iter);
    if (kind == 2) CHECK(iter == -2, "%s overflow: iter %d, want -2", fn, iter);
    if (kind == 3)
        CHECK(iter == -3 && info == (int)(n / 2) + 1, "%s singular: iter %d info %d", fn, iter,
              info);
    if (kind != 3) CHECK(info == 0, "%s %zu kind %d: info %d", fn, n, kind, info);
    for (size_t i = 0; !chol && i < n; ++i)
        CHECK(ipiv[i] >= (int)i + 1 && ipiv[i] <= (int)n, "dsgesv: ipiv[%zu] = %d", i, ipiv[i]);
    if (iter >= 0) CHECK(memcmp(a.v, a0.v, a.len * sizeof *a.v) == 0, "%s refined: A written", fn);
    else CHECK(a.v[a.len - 1] == SENTINEL, "%s: guard written", fn);
    for (size_t i = 0; chol && i < n; ++i)
        for (size_t j = 0; j < n; ++j)
            if (up == TSL_LOWER ? j > i : j < i)
                CHECK(isnan(a.v[at(&a, i, j)]), "dsposv: the other triangle's (%zu, %zu) written",
                      i, j);
    if (info == 0 && kind != 2) {
        double an = 0, xn = 0, rn = 0;
        for (size_t i = 0; i < n; ++i) {
            double row = 0;
            for (size_t j = 0; j < n; ++j)
                row += fabs(chol ? sym_at(&a0, up, i, j) : a0.v[at(&a0, i, j)]);
            an = fmax(an, row);
        }
        for (size_t j = 0; j < nrhs; ++j)
            for (size_t i = 0; i < n; ++i) {
                double r = -b.v[at(&b, i, j)];
                for (size_t k = 0; k < n; ++k)
                    r += (chol ? sym_at(&a0, up, i, k) : a0.v[at(&a0, i, k)]) * x.v[at(&x, k, j)];
                rn = fmax(rn, fabs(r));
                xn = fmax(xn, fabs(x.v[at(&x, i, j)]));
            }
        double ratio = rn / (an * xn * (double)n * DBL_EPSILON);
        CHECK(ratio < 30, "%s %s %zu nrhs %zu kind %d: backward error ratio %.3g (iter %d)", fn,
              lay == TSL_COL_MAJOR ? "col" : "row", n, nrhs, kind, ratio, iter);
    }
    CHECK(x.v[x.len - 1] == SENTINEL && b.v[b.len - 1] == SENTINEL, "%s: guard written", fn);
done:
    free(a.v), free(a0.v), free(b.v), free(x.v), free(ipiv);
}

static void run_lu(int tall)
{
    static const size_t shapes[][2] = {{1, 1},     {7, 7},     {33, 33},  {65, 65},  {127, 127},
                                       {200, 200}, {65, 33},   {33, 65},  {200, 127}, {127, 200},
                                       {1, 7},     {7, 1},     {300, 40}};
    static const size_t tall_shapes[][2] = {{300, 300}, {517, 40}, {260, 700}};
    for (int dbl = 0; dbl < 2; ++dbl) {
        if (dbl && !g_fp64) {
            SKIP("double precision: the device has no fp64");
            continue;
        }
        for (int l = 0; l < 2; ++l) {
            tsl_layout lay = l ? TSL_ROW_MAJOR : TSL_COL_MAJOR;
            for (size_t i = 0; !tall && i < sizeof shapes / sizeof shapes[0]; ++i)
                lu_case(dbl, lay, shapes[i][0], shapes[i][1], -1);
            for (size_t i = 0; tall && i < sizeof tall_shapes / sizeof tall_shapes[0]; ++i)
                lu_case(dbl, lay, tall_shapes[i][0], tall_shapes[i][1], -1);
            lu_case(dbl, lay, tall ? 300 : 65, tall ? 300 : 65, 40); /* exactly singular */
            if (!tall) lu_case(dbl, lay, 7, 7, 0);
        }
    }
    if (g_fp64 && tall) lu_case(1, TSL_COL_MAJOR, 600, 600, -1); /* panels of 256, 256, 88 */
    /* dsgesv: refined, ill-conditioned, beyond float, singular; both layouts, padded */
    for (int l = 0; g_fp64 && !tall && l < 2; ++l) {
        tsl_layout lay = l ? TSL_ROW_MAJOR : TSL_COL_MAJOR;
        mixed_case(0, TSL_LOWER, lay, 1, 1, 0);
        mixed_case(0, TSL_LOWER, lay, 65, 17, 0);
        mixed_case(0, TSL_LOWER, lay, 200, 1, 0);
        mixed_case(0, TSL_LOWER, lay, 10, 2, 1);
        mixed_case(0, TSL_LOWER, lay, 33, 1, 2);
        mixed_case(0, TSL_LOWER, lay, 33, 3, 3);
    }
    /* sizes of 0: info 0, nothing written */
    int ipiv[1] = {-5}, info = -7;
    double a[1] = {3};
    tsl_status s = tsl_dgetrf(g_ctx, TSL_COL_MAJOR, 0, 5, a, 1, ipiv, &info);
    CHECK(s == TSL_OK && info == 0 && a[0] == 3 && ipiv[0] == -5, "dgetrf 0x5");
    info = -7;
    s = tsl_dgesv(g_ctx, TSL_ROW_MAJOR, 0, 2, a, 1, ipiv, a, 2, &info);
    CHECK(s == TSL_OK && info == 0 && a[0] == 3, "dgesv n 0");
    s = tsl_dgetrs(g_ctx, TSL_COL_MAJOR, TSL_NO_TRANS, 4, 0, a, 4, ipiv, a, 4);
    CHECK(s == TSL_OK && a[0] == 3, "dgetrs nrhs 0");
}

/* ---- Cholesky ------------------------------------------------------------------------------ */

/* A random symmetric positive definite matrix (M M^T / n + I; above n = 200, where that product
 * would be most of the test's time, a random symmetric one with n + 1 on the diagonal) in a's
 * uplo triangle, NaN in the other (which must not be read); bad >= 0: diagonal element bad made
 * negative, so that the leading minor of order bad + 1 is the first that is not positive
 * definite. */
static void spd(mat *a, tsl_uplo up, int bad)
{
    size_t n = a->r, big = n > 200;
    double *m = malloc((big ? 1 : n * n + 1) * sizeof *m);
    for (size_t i = 0; !big && i < n * n; ++i) m[i] = rnd();
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) {
            int stored = up == TSL_LOWER ? i >= j : i <= j;
            double s = 0;
            for (size_t t = 0; !big && t < n; ++t) s += m[i * n + t] * m[j * n + t];
            if (big) s = i == j ? (double)n * (double)n : (double)n * rnd();
            a->v[at(a, i, j)] = stored ? s / (double)n + (i == j ? 1.0 : 0.0) : NAN;
        }
    if (bad >= 0) a->v[at(a, (size_t)bad, (size_t)bad)] = -1.0;
    free(m);
}
static int same_bits(double x, double y)
{
    return memcmp(&x, &y, sizeof x) == 0 || (isnan(x) && isnan(y));
}

static void chol_case(int dbl, tsl_layout lay, tsl_uplo up, size_t n, int bad)
{
    int pad = g_case % 2, buf = g_case % 3 == 2;
    ++g_case;
    const char *p = dbl ? "d" : "s", *u = up == TSL_LOWER ? "lower" : "upper";
    mat a = mat_new(lay, n, n, pad);
    spd(&a, up, bad);
    mat_round(&a, dbl);
    mat a0 = mat_copy(&a);
    int info = -7;
    tsl_status s = call(POTRF, dbl, buf, TSL_NO_TRANS, up, &a, NULL, NULL, &info);
    double *f = malloc((n * n + 1) * sizeof *f);
    int rinfo = ref_potrf(&a0, up, f);
    CHECK(s == TSL_OK && info == rinfo, "%spotrf %s %s n %zu%s: %s, info %d (LAPACK's %d)", p,
          lay_name(lay), u, n, buf ? " buf" : "", tsl_context_error(g_ctx), info, rinfo);
    int kept = outside_kept(&a);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j)
            if ((up == TSL_LOWER ? i < j : i > j) && !same_bits(a.v[at(&a, i, j)], a0.v[at(&a0, i, j)]))
                kept = 0;
    CHECK(kept, "%spotrf %s %s n %zu: the other triangle, padding or guard written", p,
          lay_name(lay), u, n);
    if (s == TSL_OK && info == 0) {
        double r = chol_residual(&a0, &a, up, dbl);
        CHECK(r < 30, "%spotrf %s %s n %zu%s: residual %.3g", p, lay_name(lay), u, n,
              buf ? " buf" : "", r);
        /* the solve from this factor, and posv on the matrix */
        for (int t = 0; t < 2; ++t) {
            size_t nrhs = t ? (g_small ? 2 : 17) : 1;
            mat b = mat_new(lay, n, nrhs, !pad);
            mat_random(&b);
            mat_round(&b, dbl);
            mat b0 = mat_copy(&b), fa = mat_copy(&a);
            if (t == 0) {
                s = call(POTRS, dbl, !buf, TSL_NO_TRANS, up, &fa, &b, NULL, NULL);
                CHECK(s == TSL_OK, "%spotrs: %s", p, tsl_context_error(g_ctx));
                CHECK(memcmp(fa.v, a.v, a.len * sizeof *a.v) == 0, "%spotrs: A changed", p);
            } else {
                memcpy(fa.v, a0.v, a0.len * sizeof *fa.v);
                int pinfo = -7;
                s = call(POSV, dbl, buf, TSL_NO_TRANS, up, &fa, &b, NULL, &pinfo);
                CHECK(s == TSL_OK && pinfo == 0, "%sposv: %s, info %d", p, tsl_context_error(g_ctx),
                      pinfo);
            }
            double r = solve_residual(&a0, 1, up, TSL_NO_TRANS, &b, &b0, dbl);
            CHECK(r < 30, "%s%s %s %s n %zu nrhs %zu: residual %.3g", p, t ? "posv" : "potrs",
                  lay_name(lay), u, n, nrhs, r);
            CHECK(outside_kept(&b), "%spotrs/posv: B's padding or guard written", p);
            free(b.v), free(b0.v), free(fa.v);
        }
    }
    if (s == TSL_OK && info > 0) {
        /* the factor's leading block, before the minor that failed, is LAPACK's */
        size_t k = (size_t)info - 1;
        double worst = 0, eps = dbl ? DBL_EPSILON : FLT_EPSILON;
        for (size_t i = 0; i < k; ++i)
            for (size_t j = 0; j < k; ++j)
                if (up == TSL_LOWER ? i >= j : i <= j)
                    worst = fmax(worst, fabs(a.v[at(&a, i, j)] - f[i + j * n]));
        CHECK(worst < 100 * (double)n * eps, "%spotrf %s %s n %zu info %d: leading block off by %g",
              p, lay_name(lay), u, n, info, worst);
        /* posv: the same INFO, B unchanged */
        mat g = mat_copy(&a0), b = mat_new(lay, n, 2, pad);
        mat_random(&b);
        mat_round(&b, dbl);
        mat b0 = mat_copy(&b);
        int pinfo = -7;
        s = call(POSV, dbl, buf, TSL_NO_TRANS, up, &g, &b, NULL, &pinfo);
        CHECK(s == TSL_OK && pinfo == rinfo, "%sposv not positive definite: info %d, want %d", p,
              pinfo, rinfo);
        CHECK(memcmp(b.v, b0.v, b.len * sizeof *b.v) == 0, "%sposv failed: B changed", p);
        free(g.v), free(b.v), free(b0.v);
    }
    free(a.v), free(a0.v), free(f);
}

static void run_chol(void)
{
    static const size_t sizes[] = {1, 7, 33, 65, 127, 200};
    for (int dbl = 0; dbl < 2; ++dbl) {
        if (dbl && !g_fp64) {
            SKIP("double precision: the device has no fp64");
            continue;
        }
        for (int l = 0; l < 2; ++l)
            for (int u = 0; u < 2; ++u) {
                tsl_layout lay = l ? TSL_ROW_MAJOR : TSL_COL_MAJOR;
                tsl_uplo up = u ? TSL_UPPER : TSL_LOWER;
                for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
                    chol_case(dbl, lay, up, sizes[i], -1);
                chol_case(dbl, lay, up, 127, 70); /* the minor of order 71 fails */
                chol_case(dbl, lay, up, 7, 0);
            }
    }
    if (g_fp64) chol_case(1, TSL_COL_MAJOR, TSL_LOWER, 1000, -1);
    /* dsposv: refined, ill-conditioned, beyond float, not positive definite; each layout and
     * triangle */
    for (int l = 0; g_fp64 && l < 2; ++l)
        for (int u = 0; u < 2; ++u) {
            tsl_layout lay = l ? TSL_ROW_MAJOR : TSL_COL_MAJOR;
            tsl_uplo up = u ? TSL_UPPER : TSL_LOWER;
            mixed_case(1, up, lay, 65, 17, 0);
            mixed_case(1, up, lay, 1, 1, 0);
            mixed_case(1, up, lay, 10, 2, 1);
            mixed_case(1, up, lay, 33, 1, 2);
            mixed_case(1, up, lay, 33, 3, 3);
        }
    int info = -7;
    double a[1] = {3};
    tsl_status s = tsl_dpotrf(g_ctx, TSL_COL_MAJOR, TSL_UPPER, 0, a, 1, &info);
    CHECK(s == TSL_OK && info == 0 && a[0] == 3, "dpotrf n 0");
}

/* ---- bad input ----------------------------------------------------------------------------- */

static void expect_bad(tsl_status s, const char *word, const char *what)
{
    CHECK(s == TSL_ERR_INVALID_ARG, "%s: status %s, want TSL_ERR_INVALID_ARG", what,
          tsl_status_name(s));
    CHECK(check_mentions(tsl_context_error(g_ctx), word), "%s: message '%s' does not name %s",
          what, tsl_context_error(g_ctx), word);
}

static void run_errors(void)
{
    enum { N = 4 };
    double a[N * N], b[N * 2], a0[N * N], b0[N * 2];
    float fa[N * N];
    int ipiv[N] = {1, 2, 3, 4}, info = 0;
    for (int i = 0; i < N * N; ++i) a[i] = a0[i] = rnd(), fa[i] = (float)a[i];
    for (int i = 0; i < N * 2; ++i) b[i] = b0[i] = rnd();
    tsl_layout col = TSL_COL_MAJOR;
    expect_bad(tsl_dgetrf(g_ctx, (tsl_layout)7, N, N, a, N, ipiv, &info), "layout", "getrf layout");
    expect_bad(tsl_dgetrf(g_ctx, col, N, N, a, N - 1, ipiv, &info), "lda", "getrf lda");
    expect_bad(tsl_dgetrf(g_ctx, TSL_ROW_MAJOR, N, N + 1, a, N, ipiv, &info), "lda",
               "getrf row-major lda < n");
    expect_bad(tsl_sgetrf(g_ctx, col, N, N, fa, N, ipiv, NULL), "info", "getrf info NULL");
    expect_bad(tsl_dgetrf(g_ctx, col, N, N, a, N, NULL, &info), "ipiv", "getrf ipiv NULL");
    expect_bad(tsl_dgetrf(g_ctx, col, N, N, NULL, N, ipiv, &info), "A", "getrf A NULL");
    expect_bad(tsl_dgetrf(g_ctx, col, (size_t)INT_MAX + 1, 1, a, (size_t)INT_MAX + 1, ipiv, &info),
               "m", "getrf m past 2^31-1");
    expect_bad(tsl_dgetrs(g_ctx, col, (tsl_trans)3, N, 2, a, N, ipiv, b, N), "trans", "getrs trans");
    expect_bad(tsl_dgetrs(g_ctx, col, TSL_NO_TRANS, N, 2, a, N, ipiv, b, N - 1), "ldb", "getrs ldb");
    expect_bad(tsl_dgetrs(g_ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, N, 2, a, N, ipiv, b, 1), "ldb",
               "getrs row-major ldb < nrhs");
    int badpiv[N] = {1, 2, 9, 4};
    expect_bad(tsl_dgetrs(g_ctx, col, TSL_NO_TRANS, N, 2, a, N, badpiv, b, N), "ipiv",
               "getrs ipiv past n");
    badpiv[2] = 0;
    expect_bad(tsl_dgetrs(g_ctx, col, TSL_NO_TRANS, N, 2, a, N, badpiv, b, N), "ipiv",
               "getrs ipiv 0");
    expect_bad(tsl_dgesv(g_ctx, col, N, 2, a, N, ipiv, NULL, N, &info), "B", "gesv B NULL");
    expect_bad(tsl_dpotrf(g_ctx, col, (tsl_uplo)5, N, a, N, &info), "uplo", "potrf uplo");
    expect_bad(tsl_dpotrf(g_ctx, col, TSL_LOWER, N, a, 2, &info), "lda", "potrf lda");
    expect_bad(tsl_dposv(g_ctx, col, TSL_LOWER, N, 2, a, N, b, 2, &info), "ldb", "posv ldb");
    expect_bad(tsl_dposv(g_ctx, col, TSL_LOWER, N, 2, a, N, b, N, NULL), "info", "posv info NULL");
    expect_bad(tsl_dpotrs(g_ctx, col, TSL_UPPER, (size_t)INT_MAX + 1, 1, a,
                          (size_t)INT_MAX + 1, b, (size_t)INT_MAX + 1), "n", "potrs n past 2^31-1");
    double xs[N * 2];
    int iter = 0;
    expect_bad(tsl_dsgesv(g_ctx, col, N, 2, a, N - 1, ipiv, b, N, xs, N, &iter, &info), "lda",
               "dsgesv lda");
    expect_bad(tsl_dsgesv(g_ctx, col, N, 2, a, N, ipiv, b, N, xs, 1, &iter, &info), "ldx",
               "dsgesv ldx");
    expect_bad(tsl_dsgesv(g_ctx, col, N, 2, a, N, ipiv, b, N, xs, N, NULL, &info), "iter",
               "dsgesv iter NULL");
    expect_bad(tsl_dsgesv(g_ctx, col, N, 2, a, N, ipiv, b, N, NULL, N, &iter, &info), "x",
               "dsgesv x NULL");
    tsl_buffer *small = NULL;
    CHECK(tsl_buffer_create(g_ctx, 8, &small) == TSL_OK, "buffer");
    expect_bad(tsl_dgetrf_buf(g_ctx, col, N, N, small, N, ipiv, &info), "A", "getrf_buf small A");
    expect_bad(tsl_dposv_buf(g_ctx, col, TSL_LOWER, N, 1, NULL, N, small, N, &info), "A",
               "posv_buf A NULL");
    tsl_buffer_destroy(small);
    CHECK(memcmp(a, a0, sizeof a) == 0 && memcmp(b, b0, sizeof b) == 0,
          "bad input changed the caller's arrays");
    tsl_status s = tsl_dgetrf(NULL, col, N, N, a, N, ipiv, &info);
    CHECK(s == TSL_ERR_INVALID_ARG, "ctx NULL: %s", tsl_status_name(s));
}

/* A few small cases of every kernel and path, for a simulator (tests/oclgrind.cmake), in single
 * precision: LU wide and tall in both layouts, through the recursion and an exactly singular
 * matrix (columns: leaves of 260 rows, one beside another), Cholesky in both triangles and one
 * that fails, the solves. */
static void run_small(int columns)
{
    int dbl = 0; /* the kernels are one text for both precisions: one precision's programs */
    g_small = 1;
    if (columns) {
        lu_case(dbl, TSL_COL_MAJOR, 260, 37, -1); /* two leaves: interchanges beside each */
        lu_case(0, TSL_ROW_MAJOR, 260, 3, 1);
        return;
    }
    lu_case(dbl, TSL_COL_MAJOR, 37, 29, -1);
    lu_case(0, TSL_ROW_MAJOR, 29, 37, -1);
    lu_case(0, TSL_COL_MAJOR, 35, 35, 3);
    lu_case(0, TSL_COL_MAJOR, 21, 21, -1); /* square and regular: its getrs (lu_swap) */
    chol_case(dbl, TSL_COL_MAJOR, TSL_LOWER, 37, -1);
    chol_case(0, TSL_ROW_MAJOR, TSL_UPPER, 35, 20);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 ||
        (strcmp(argv[1], "lu") && strcmp(argv[1], "chol") && strcmp(argv[1], "errors") &&
         strcmp(argv[1], "small"))) {
        fprintf(stderr, "usage: test_lapack lu|chol|errors|small [GETRF_VARIANT]\n");
        return 2;
    }
    const char *env = getenv("TSL_TEST_SEED");
    if (env && *env) g_seed = strtoull(env, NULL, 10);
    tsl_status st = tsl_context_create(NULL, &g_ctx);
    CHECK(st == TSL_OK && g_ctx, "tsl_context_create: %s: %s", tsl_status_name(st), tsl_last_error());
    if (st != TSL_OK) return check_summary("test_lapack");
    tsl_device_info info;
    tsl_context_device(g_ctx, &info);
    g_fp64 = info.fp64;
    if (argc == 3) {
        st = tsl_context_set_variant(g_ctx, "getrf", argv[2]);
        CHECK(st == TSL_OK, "getrf variant %s: %s", argv[2], tsl_context_error(g_ctx));
    }
    if (!strcmp(argv[1], "lu")) run_lu(argc == 3 && !strcmp(argv[2], "columns"));
    if (!strcmp(argv[1], "chol")) run_chol();
    if (!strcmp(argv[1], "errors")) run_errors();
    if (!strcmp(argv[1], "small")) run_small(argc == 3 && !strcmp(argv[2], "columns"));
    tsl_context_destroy(g_ctx);
    return check_summary("test_lapack");
}
