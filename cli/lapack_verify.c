/* lapack_verify.c: `tessel lapack`'s flop counts and its --verify ratios (lapack_cli.h); its peers
 * are lapack_peers.c.
 *
 * The ratios are LAPACK's test ratios (its dget01, dpot01, dqrt01, dget02, dqrt17 measures), in
 * double precision, with eps the precision's:
 *   getrf, potrf, geqrf  |(A - factors) x|_1 / (n |A|_1 |x|_1 eps) on three random vectors x (the
 *                        product of the factors applied to x, O(n^2), not formed)
 *   getrs ... dsposv     |op(A) X - B|_1 / (n |A|_1 |X|_1 eps)
 *   ormqr                |C' x - op(Q) (C x)|_1 / (max(m, n) |C|_1 |x|_1 eps) (left; right:
 *                        C (op(Q) x)), Q applied reflector by reflector
 *   gels                 tall op(A): |op(A)^T (B - op(A) X)|_1 / (max(m, n) |A|_1 |B|_1 eps);
 *                        wide: |op(A) X - B|_1 / (max(m, n) |A|_1 |X|_1 eps)
 * LAPACK's tests pass a ratio below 30. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "lapack_cli.h"

const char *const lc_op_names[LC_NOPS] = {"getrf", "getrs", "gesv",  "potrf", "potrs", "posv",
                                          "geqrf", "ormqr", "gels",  "dsgesv", "dsposv"};

size_t lc_a_elems(const lc_case *c)
{
    return c->lda * (c->lda == c->ar ? c->ac : c->ar);
}
size_t lc_b_elems(const lc_case *c)
{
    return c->ldb * (c->ldb == c->br ? c->bc : c->br);
}

double lc_flops(const lc_args *g, const lc_case *c)
{
    double m = (double)c->m, n = (double)c->n, r = (double)c->nrhs, k = m < n ? m : n;
    double big = m > n ? m : n, solve = 2.0 * n * n * r;
    switch (g->op) {
    case LC_GETRF: return big * k * k - k * k * k / 3.0;
    case LC_POTRF: return n * n * n / 3.0;
    case LC_GEQRF: return 2.0 * big * k * k - 2.0 / 3.0 * k * k * k;
    case LC_GETRS:
    case LC_POTRS: return solve;
    case LC_GESV:
    case LC_DSGESV: return 2.0 / 3.0 * n * n * n + solve;
    case LC_POSV:
    case LC_DSPOSV: return n * n * n / 3.0 + solve;
    case LC_ORMQR: {
        double kk = (double)c->k, other = g->side == TSL_LEFT ? n : m;
        return 4.0 * m * n * kk - 2.0 * kk * kk * other;
    }
    default: return 2.0 * big * k * k - 2.0 / 3.0 * k * k * k + 4.0 * big * k * r + k * k * r;
    }
}

/* ---- host matrices in double ----------------------------------------------------------------- */

typedef struct {
    const double *v;
    size_t ld;
    int col;
} hm;

static double el(hm a, size_t i, size_t j)
{
    return a.col ? a.v[i + j * a.ld] : a.v[i * a.ld + j];
}

static double *to_d(const lc_args *g, const void *x, size_t n)
{
    double *d = malloc((n ? n : 1) * sizeof *d);
    for (size_t i = 0; d && i < n; ++i)
        d[i] = g->dbl ? ((const double *)x)[i] : ((const float *)x)[i];
    return d;
}

static double norm1(hm a, size_t r, size_t c)
{
    double best = 0;
    for (size_t j = 0; j < c; ++j) {
        double s = 0;
        for (size_t i = 0; i < r; ++i) s += fabs(el(a, i, j));
        if (!(s <= best)) best = s;
    }
    return best;
}

static double vnorm1(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; ++i) s += fabs(v[i]);
    return s;
}

/* The probe vectors' random state (cli_fill_random's). */
static unsigned long long g_probe = 0x5DEECE66Dull;

/* The symmetric matrix of a's uplo triangle. */
static double sym(hm a, tsl_uplo up, size_t i, size_t j)
{
    int swap = up == TSL_LOWER ? i < j : i > j;
    return swap ? el(a, j, i) : el(a, i, j);
}

/* z = H(0) ... H(k-1) z (trans 0) or H(k-1) ... H(0) z (trans 1), the reflectors below the
 * diagonal of f (nq rows), tau. */
static void apply_q(hm f, const double *tau, size_t nq, size_t k, int trans, double *z)
{
    for (size_t t = 0; t < k; ++t) {
        size_t i = trans ? t : k - 1 - t;
        double s = z[i];
        for (size_t r = i + 1; r < nq; ++r) s += el(f, r, i) * z[r];
        s *= tau[i];
        z[i] -= s;
        for (size_t r = i + 1; r < nq; ++r) z[r] -= el(f, r, i) * s;
    }
}

/* The factorizations' probe ratio: worst of three x of |A x - F x| / (scale |A|_1 |x|_1 eps). */
static double factor_ratio(const lc_args *g, const lc_case *c, hm a, hm f, const double *tau,
                           double eps)
{
    size_t m = c->ar, n = c->ac, k = m < n ? m : n, big = m > n ? m : n;
    double *x = malloc((n + 1) * sizeof *x), *w = malloc((big + 1) * sizeof *w),
           *z = malloc((big + 1) * sizeof *z), worst = 0;
    double an = g->op == LC_POTRF ? 0 : norm1(a, m, n);
    if (g->op == LC_POTRF)
        for (size_t j = 0; j < n; ++j) {
            double s = 0;
            for (size_t i = 0; i < n; ++i) s += fabs(sym(a, g->uplo, i, j));
            an = fmax(an, s);
        }
    for (int t = 0; x && w && z && t < 3; ++t) {
        cli_fill_random(TSL_DOUBLE, x, n, &g_probe);
        for (size_t i = 0; i < m; ++i) { /* w = A x */
            double s = 0;
            for (size_t j = 0; j < n; ++j)
                s += (g->op == LC_POTRF ? sym(a, g->uplo, i, j) : el(a, i, j)) * x[j];
            w[i] = s;
        }
        memset(z, 0, (big + 1) * sizeof *z);
        if (g->op == LC_GETRF) { /* z = L (U x); w = P^T A x */
            for (size_t i = 0; i < k; ++i) {
                double s = 0;
                for (size_t j = i; j < n; ++j) s += el(f, i, j) * x[j];
                z[i] = s;
            }
            for (size_t ii = m; ii-- > 0;) {
                double s = ii < k ? z[ii] : 0;
                for (size_t q = 0; q < (ii < k ? ii : k); ++q) s += el(f, ii, q) * z[q];
                z[ii] = s;
            }
            for (size_t i = 0; i < k; ++i) {
                size_t p = (size_t)c->ipiv[i] - 1;
                double tmp = w[i];
                w[i] = w[p], w[p] = tmp;
            }
        } else if (g->op == LC_POTRF) { /* lower: L (L^T x); upper: U^T (U x) */
            int lower = g->uplo == TSL_LOWER;
            double *y = malloc((n + 1) * sizeof *y);
            if (!y) break;
            for (size_t i = 0; i < n; ++i) {
                double s = 0;
                for (size_t j = i; j < n; ++j) s += (lower ? el(f, j, i) : el(f, i, j)) * x[j];
                y[i] = s;
            }
            for (size_t i = 0; i < n; ++i) {
                double s = 0;
                for (size_t j = 0; j <= i; ++j) s += (lower ? el(f, i, j) : el(f, j, i)) * y[j];
                z[i] = s;
            }
            free(y);
        } else { /* geqrf: Q (R x) */
            for (size_t i = 0; i < k; ++i) {
                double s = 0;
                for (size_t j = i; j < n; ++j) s += el(f, i, j) * x[j];
                z[i] = s;
            }
            apply_q(f, tau, m, k, 0, z);
        }
        double rn = 0;
        for (size_t i = 0; i < m; ++i) rn += fabs(w[i] - z[i]);
        double scale = g->op == LC_GEQRF ? (double)big : (double)n;
        worst = fmax(worst, rn / (scale * (an > 0 ? an : 1) * vnorm1(x, n) * eps));
    }
    free(x), free(w), free(z);
    return worst;
}

/* |op(A) X - B|_1 (the 1-norm of the n x nrhs residual) with A n x n (symmetric from uplo). */
static double solve_ratio(const lc_args *g, const lc_case *c, hm a, hm x, hm b, double eps)
{
    size_t n = c->n, r = c->nrhs;
    int symm = g->op == LC_POTRS || g->op == LC_POSV || g->op == LC_DSPOSV;
    int tr = g->op == LC_GETRS && g->trans == TSL_TRANS;
    double an = 0, worst = 0;
    for (size_t j = 0; j < n; ++j) {
        double s = 0;
        for (size_t i = 0; i < n; ++i) s += fabs(symm ? sym(a, g->uplo, i, j) : el(a, i, j));
        an = fmax(an, s);
    }
    double xn = norm1(x, n, r);
    for (size_t q = 0; q < r; ++q) {
        double s = 0;
        for (size_t i = 0; i < n; ++i) {
            double acc = -el(b, i, q);
            for (size_t t = 0; t < n; ++t) {
                double e = symm ? sym(a, g->uplo, i, t) : tr ? el(a, t, i) : el(a, i, t);
                acc += e * el(x, t, q);
            }
            s += fabs(acc);
        }
        worst = fmax(worst, s);
    }
    return worst / ((double)n * (an > 0 ? an : 1) * (xn > 0 ? xn : 1) * eps);
}

static double ormqr_ratio(const lc_args *g, const lc_case *c, hm f, const double *tau, hm c0,
                          hm c1, double eps)
{
    size_t m = c->m, n = c->n, nq = g->side == TSL_LEFT ? m : n, big = m > n ? m : n;
    int tq = g->trans == TSL_TRANS;
    double *x = malloc((n + 1) * sizeof *x), *y = malloc((big + 1) * sizeof *y),
           *z = malloc((big + 1) * sizeof *z), worst = 0;
    double cn = norm1(c0, m, n);
    for (int t = 0; x && y && z && t < 3; ++t) {
        cli_fill_random(TSL_DOUBLE, x, n, &g_probe);
        if (g->side == TSL_LEFT) { /* y = C x, then op(Q) y */
            for (size_t i = 0; i < m; ++i) {
                double s = 0;
                for (size_t j = 0; j < n; ++j) s += el(c0, i, j) * x[j];
                y[i] = s;
            }
            apply_q(f, tau, nq, c->k, tq, y);
        } else { /* z = op(Q) x, y = C z */
            memcpy(z, x, n * sizeof *z);
            apply_q(f, tau, nq, c->k, tq, z);
            for (size_t i = 0; i < m; ++i) {
                double s = 0;
                for (size_t j = 0; j < n; ++j) s += el(c0, i, j) * z[j];
                y[i] = s;
            }
        }
        double rn = 0;
        for (size_t i = 0; i < m; ++i) {
            double s = 0;
            for (size_t j = 0; j < n; ++j) s += el(c1, i, j) * x[j];
            rn += fabs(s - y[i]);
        }
        worst = fmax(worst, rn / ((double)big * (cn > 0 ? cn : 1) * vnorm1(x, n) * eps));
    }
    free(x), free(y), free(z);
    return worst;
}

static double gels_ratio(const lc_args *g, const lc_case *c, hm a, hm x, hm b, double eps)
{
    size_t m = c->m, n = c->n, r = c->nrhs, big = m > n ? m : n;
    int tr = g->trans == TSL_TRANS;
    size_t rows = tr ? n : m, cols = tr ? m : n; /* op(A) */
    double an = norm1(a, m, n), worst = 0;
    double *res = malloc((rows + 1) * sizeof *res);
    if (!res) return NAN;
    double bn = norm1(b, rows, r), xn = norm1(x, cols, r);
    for (size_t q = 0; q < r; ++q) {
        for (size_t i = 0; i < rows; ++i) { /* res = B - op(A) X */
            double acc = el(b, i, q);
            for (size_t t = 0; t < cols; ++t) acc -= (tr ? el(a, t, i) : el(a, i, t)) * el(x, t, q);
            res[i] = acc;
        }
        double s = 0;
        if (rows >= cols) /* op(A)^T res */
            for (size_t t = 0; t < cols; ++t) {
                double acc = 0;
                for (size_t i = 0; i < rows; ++i) acc += (tr ? el(a, t, i) : el(a, i, t)) * res[i];
                s += fabs(acc);
            }
        else
            s = vnorm1(res, rows);
        worst = fmax(worst, s);
    }
    free(res);
    double scale = (an > 0 ? an : 1) * (rows >= cols ? (bn > 0 ? bn : 1) : (xn > 0 ? xn : 1));
    return worst / ((double)big * scale * eps);
}

double lc_ratio(const lc_args *g, const lc_case *c)
{
    double eps = g->dbl ? DBL_EPSILON : FLT_EPSILON;
    if (g->op == LC_DSGESV || g->op == LC_DSPOSV) eps = DBL_EPSILON;
    int col = g->lay == TSL_COL_MAJOR;
    size_t ea = lc_a_elems(c), eb = lc_b_elems(c);
    lc_args gd = *g;
    if (g->op == LC_DSGESV || g->op == LC_DSPOSV) gd.dbl = 1;
    double *f = to_d(&gd, c->a, ea), *b0 = to_d(&gd, c->b0, eb),
           *b1 = to_d(&gd, g->op == LC_DSGESV || g->op == LC_DSPOSV ? c->x : c->b, eb), *tau = NULL, ratio = NAN;
    size_t kt = c->k ? c->k : (c->ar < c->ac ? c->ar : c->ac);
    if (g->op == LC_GEQRF) tau = to_d(&gd, c->tau, kt);
    if (g->op == LC_ORMQR) tau = to_d(&gd, c->tau0, c->k);
    hm A = {c->araw, c->lda, col}, F = {f, c->lda, col}, B0 = {b0, c->ldb, col},
       B1 = {b1, c->ldb, col};
    if (f && b0 && b1 && (tau || (g->op != LC_GEQRF && g->op != LC_ORMQR))) switch (g->op) {
        case LC_GETRF:
        case LC_POTRF:
        case LC_GEQRF: ratio = factor_ratio(g, c, A, F, tau, eps); break;
        case LC_ORMQR: /* araw holds the reflectors themselves */
            ratio = ormqr_ratio(g, c, A, tau, B0, B1, eps);
            break;
        case LC_GELS: ratio = gels_ratio(g, c, A, B1, B0, eps); break;
        default: ratio = solve_ratio(g, c, A, B1, B0, eps);
        }
    free(f), free(b0), free(b1), free(tau);
    return ratio;
}
