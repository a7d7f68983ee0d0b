/* test_level3_complex.c: the complex Level-3 routines (tessel_complex.h) against OpenBLAS's
 * cblas_z* in double, on fresh random complex data.
 *
 *   test_level3_complex GROUP [VARIANT]: GROUP sym (symm, hemm), rk (syrk, herk, syr2k, her2k;
 *     rk_recursive: their variant recursive, not the triangle mode), trmm or trsm: single and double x both layouts x every side, uplo, trans the routine takes
 *     (N, T, C) and diag, on odd shapes (rotating; with blocks of 16 on the routines' "block"
 *     options, so the recursive halves, the batched diagonal blocks and a ragged last block run),
 *     leading dimensions padded, the host-pointer and _buf forms in turn, beta 0 over NaN, real or
 *     complex; then alpha = 0, k = 0 and sizes of 0. The device's A holds NaN in its unreferenced
 *     triangle, on a unit diagonal and (hemm) in the diagonal's imaginary parts, which the
 *     reference gets as zeros; C's (B's) padding and SYRK's other triangle hold a sentinel that
 *     must come back bit-identical. Each element lies within (4 k + 32) u S of the reference, S
 *     the same product on the absolute values (k the inner dimension); TRSM's solutions (of
 *     diagonally dominant triangles) within (16 ka + 64) u max |X|, and two with leaves of 96.
 *     VARIANT: the gemm variant.
 *   test_level3_complex errors: bad arguments are TSL_ERR_INVALID_ARG naming them, the arrays
 *     untouched. */
#include "check.h"
#include "zdata.h"
#include "ref/ref.h"
#include "tessel.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tsl_context *g_ctx;
static unsigned long long g_seed = 20261203;
#define SENTINEL 4321.0

enum { SYMM, HEMM, SYRK, HERK, SYR2K, HER2K, TRMM, TRSM };
static const char *const names[] = {"symm",  "hemm",  "syrk", "herk",
                                    "syr2k", "her2k", "trmm", "trsm"};


/* A stored complex matrix: rows x cols in a layout, ld complex elements a line, as doubles. */
typedef struct {
    size_t rows, cols, ld, lines, len, span;
    int row;
} mat;

static mat mat_of(int row, size_t rows, size_t cols, size_t pad)
{
    mat x = {rows, cols, 0, row ? rows : cols, row ? cols : rows, 0, row};
    x.ld = (x.len ? x.len : 1) + pad;
    x.span = x.lines * x.ld;
    return x;
}
static size_t at(const mat *x, size_t i, size_t j)
{
    return x->row ? i * x->ld + j : j * x->ld + i;
}

typedef struct {
    int r, dbl, bufs, row, side, uplo, trans, diag; /* side 0 left; uplo 0 upper; diag 1 unit */
    size_t m, n, k;
    double alpha[2], beta[2];
    int beta_kind; /* 0: beta 0 over NaN C, 1 real, 2 complex */
} zcase;

static int is_tri(int r)
{
    return r == TRMM || r == TRSM;
}
static int is_rk(int r)
{
    return r >= SYRK && r <= HER2K;
}
static int herm(int r)
{
    return r == HEMM || r == HERK || r == HER2K;
}
static tsl_trans tr_of(int t)
{
    return t == 0 ? TSL_NO_TRANS : t == 1 ? TSL_TRANS : TSL_CONJ_TRANS;
}

typedef tsl_status (*symm_h)(tsl_context *, tsl_layout, tsl_side, tsl_uplo, size_t, size_t,
                             const void *, const void *, size_t, const void *, size_t, const void *,
                             void *, size_t);
typedef tsl_status (*symm_b)(tsl_context *, tsl_layout, tsl_side, tsl_uplo, size_t, size_t,
                             const void *, const tsl_buffer *, size_t, const tsl_buffer *, size_t,
                             const void *, tsl_buffer *, size_t);
typedef tsl_status (*trxm_h)(tsl_context *, tsl_layout, tsl_side, tsl_uplo, tsl_trans, tsl_diag,
                             size_t, size_t, const void *, const void *, size_t, void *, size_t);
typedef tsl_status (*trxm_b)(tsl_context *, tsl_layout, tsl_side, tsl_uplo, tsl_trans, tsl_diag,
                             size_t, size_t, const void *, const tsl_buffer *, size_t, tsl_buffer *,
                             size_t);

/* The library's call on host arrays (x) or buffers (bx): A, B, C as the routine names them
 * (trmm, trsm: A and B). */
static tsl_status call(const zcase *z, void **x, tsl_buffer **bx, const mat *ma, const mat *mb,
                       const mat *mc)
{
    tsl_context *c = g_ctx;
    tsl_layout lay = z->row ? TSL_ROW_MAJOR : TSL_COL_MAJOR;
    tsl_side sd = z->side ? TSL_RIGHT : TSL_LEFT;
    tsl_uplo ul = z->uplo ? TSL_LOWER : TSL_UPPER;
    tsl_trans t = tr_of(z->trans);
    tsl_diag dg = z->diag ? TSL_UNIT : TSL_NON_UNIT;
    float af[2] = {(float)z->alpha[0], (float)z->alpha[1]};
    float bf[2] = {(float)z->beta[0], (float)z->beta[1]};
    const void *al = z->dbl ? (const void *)z->alpha : af,
               *be = z->dbl ? (const void *)z->beta : bf;
    double ar = z->alpha[0], br = z->beta[0];
    int d = z->dbl, b = z->bufs;
    size_t n = z->n, k = z->k;
    if (z->r == SYMM || z->r == HEMM) {
        symm_h fh = z->r == SYMM ? (d ? tsl_zsymm : tsl_csymm) : (d ? tsl_zhemm : tsl_chemm);
        symm_b fb = z->r == SYMM ? (d ? tsl_zsymm_buf : tsl_csymm_buf)
                                 : (d ? tsl_zhemm_buf : tsl_chemm_buf);
        return b ? fb(c, lay, sd, ul, z->m, n, al, bx[0], ma->ld, bx[1], mb->ld, be, bx[2], mc->ld)
                 : fh(c, lay, sd, ul, z->m, n, al, x[0], ma->ld, x[1], mb->ld, be, x[2], mc->ld);
    }
    if (is_tri(z->r)) {
        trxm_h fh = z->r == TRMM ? (d ? tsl_ztrmm : tsl_ctrmm) : (d ? tsl_ztrsm : tsl_ctrsm);
        trxm_b fb = z->r == TRMM ? (d ? tsl_ztrmm_buf : tsl_ctrmm_buf)
                                 : (d ? tsl_ztrsm_buf : tsl_ctrsm_buf);
        return b ? fb(c, lay, sd, ul, t, dg, z->m, n, al, bx[0], ma->ld, bx[1], mb->ld)
                 : fh(c, lay, sd, ul, t, dg, z->m, n, al, x[0], ma->ld, x[1], mb->ld);
    }
    switch (z->r * 4 + d * 2 + b) {
    case SYRK * 4 + 0:
        return tsl_csyrk(c, lay, ul, t, n, k, al, x[0], ma->ld, be, x[2], mc->ld);
    case SYRK * 4 + 1:
        return tsl_csyrk_buf(c, lay, ul, t, n, k, al, bx[0], ma->ld, be, bx[2], mc->ld);
    case SYRK * 4 + 2:
        return tsl_zsyrk(c, lay, ul, t, n, k, al, x[0], ma->ld, be, x[2], mc->ld);
    case SYRK * 4 + 3:
        return tsl_zsyrk_buf(c, lay, ul, t, n, k, al, bx[0], ma->ld, be, bx[2], mc->ld);
    case HERK * 4 + 0:
        return tsl_cherk(c, lay, ul, t, n, k, (float)ar, x[0], ma->ld, (float)br, x[2], mc->ld);
    case HERK * 4 + 1:
        return tsl_cherk_buf(c, lay, ul, t, n, k, (float)ar, bx[0], ma->ld, (float)br, bx[2],
                             mc->ld);
    case HERK * 4 + 2:
        return tsl_zherk(c, lay, ul, t, n, k, ar, x[0], ma->ld, br, x[2], mc->ld);
    case HERK * 4 + 3:
        return tsl_zherk_buf(c, lay, ul, t, n, k, ar, bx[0], ma->ld, br, bx[2], mc->ld);
    case SYR2K * 4 + 0:
        return tsl_csyr2k(c, lay, ul, t, n, k, al, x[0], ma->ld, x[1], mb->ld, be, x[2], mc->ld);
    case SYR2K * 4 + 1:
        return tsl_csyr2k_buf(c, lay, ul, t, n, k, al, bx[0], ma->ld, bx[1], mb->ld, be, bx[2],
                              mc->ld);
    case SYR2K * 4 + 2:
        return tsl_zsyr2k(c, lay, ul, t, n, k, al, x[0], ma->ld, x[1], mb->ld, be, x[2], mc->ld);
    case SYR2K * 4 + 3:
        return tsl_zsyr2k_buf(c, lay, ul, t, n, k, al, bx[0], ma->ld, bx[1], mb->ld, be, bx[2],
                              mc->ld);
    case HER2K * 4 + 0:
        return tsl_cher2k(c, lay, ul, t, n, k, al, x[0], ma->ld, x[1], mb->ld, (float)br, x[2],
                          mc->ld);
    case HER2K * 4 + 1:
        return tsl_cher2k_buf(c, lay, ul, t, n, k, al, bx[0], ma->ld, bx[1], mb->ld, (float)br,
                              bx[2], mc->ld);
    case HER2K * 4 + 2:
        return tsl_zher2k(c, lay, ul, t, n, k, al, x[0], ma->ld, x[1], mb->ld, br, x[2], mc->ld);
    default:
        return tsl_zher2k_buf(c, lay, ul, t, n, k, al, bx[0], ma->ld, bx[1], mb->ld, br, bx[2],
                              mc->ld);
    }
}

/* The reference in double (OpenBLAS), on the given arrays: C (B for trmm, trsm) updated. */
static void reference(const zcase *z, const double *alpha, const double *beta, const double *a,
                      const double *b, double *c, const mat *ma, const mat *mb, const mat *mc)
{
    CBLAS_ORDER o = z->row ? CblasRowMajor : CblasColMajor;
    CBLAS_SIDE sd = z->side ? CblasRight : CblasLeft;
    CBLAS_UPLO ul = z->uplo ? CblasLower : CblasUpper;
    CBLAS_TRANSPOSE t = z->trans == 0 ? CblasNoTrans : z->trans == 1 ? CblasTrans : CblasConjTrans;
    CBLAS_DIAG dg = z->diag ? CblasUnit : CblasNonUnit;
    int m = (int)z->m, n = (int)z->n, k = (int)z->k, lda = (int)ma->ld, ldb = (int)mb->ld,
        ldc = (int)mc->ld;
    switch (z->r) {
    case SYMM:
        cblas_zsymm(o, sd, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
        break;
    case HEMM:
        cblas_zhemm(o, sd, ul, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
        break;
    case SYRK:
        cblas_zsyrk(o, ul, t, n, k, alpha, a, lda, beta, c, ldc);
        break;
    case HERK:
        cblas_zherk(o, ul, t, n, k, alpha[0], a, lda, beta[0], c, ldc);
        break;
    case SYR2K:
        cblas_zsyr2k(o, ul, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        break;
    case HER2K:
        cblas_zher2k(o, ul, t, n, k, alpha, a, lda, b, ldb, beta[0], c, ldc);
        break;
    case TRMM:
        cblas_ztrmm(o, sd, ul, t, dg, m, n, alpha, a, lda, (double *)b, ldb);
        break;
    default:
        cblas_ztrsm(o, sd, ul, t, dg, m, n, alpha, a, lda, (double *)b, ldb);
        break;
    }
}



/* Runs a case and checks every element of the result, the padding and the other triangle. */
static void run_case(const zcase *z, const char *tag)
{
    unsigned long long st = g_seed++;
    int r = z->r, dbl = z->dbl, tri = is_tri(r), rk = is_rk(r);
    size_t ka = tri || r <= HEMM ? (z->side ? z->n : z->m) : 0;
    /* the stored shapes: A (ka x ka, or op(A) n x k as stored), B, C */
    int tn = z->trans == 0;
    mat ma = rk ? mat_of(z->row, tn ? z->n : z->k, tn ? z->k : z->n, 3) : mat_of(z->row, ka, ka, 2);
    mat mb = rk ? mat_of(z->row, ma.rows, ma.cols, 1) : mat_of(z->row, z->m, z->n, 1);
    mat mc = rk ? mat_of(z->row, z->n, z->n, 2) : mat_of(z->row, z->m, z->n, 3);
    mat *mr = tri ? &mb : &mc; /* the result */
    size_t na = 2 * ma.span, nb = 2 * mb.span, nc = 2 * mc.span;
    double *a = xmalloc(na * 8 + 8), *b = xmalloc(nb * 8 + 8), *c = xmalloc(nc * 8 + 8);
    double *aref = xmalloc(na * 8 + 8);
    fill(a, na, dbl, &st);
    fill(b, nb, dbl, &st);
    fill(c, nc, dbl, &st);
    /* A: the device's with NaN where it must not read, the reference's with zeros there */
    memcpy(aref, a, na * 8);
    if (!rk)
        for (size_t i = 0; i < ka; ++i)
            for (size_t j = 0; j < ka; ++j) {
                size_t e = 2 * at(&ma, i, j);
                int stored = z->uplo ? j <= i : j >= i;
                if (tri && stored && i == j && !z->diag && r == TRSM) {
                    a[e] += a[e] < 0 ? -2.0 * (double)ka - 2 : 2.0 * (double)ka + 2; /* dominant */
                    if (!dbl) a[e] = (float)a[e];
                    aref[e] = a[e];
                }
                if (!stored || (tri && z->diag && i == j)) {
                    a[e] = a[e + 1] = NAN;
                    aref[e] = aref[e + 1] = 0.0;
                } else if (r == HEMM && i == j) {
                    a[e + 1] = NAN;
                    aref[e + 1] = 0.0;
                }
            }
    /* the padding of the result and SYRK's other triangle: sentinels; beta 0: NaN inside */
    double *res = tri ? b : c;
    char *inside = xmalloc(mr->span);
    for (size_t i = 0; i < mr->rows; ++i)
        for (size_t j = 0; j < mr->cols; ++j)
            if (!rk || (z->uplo ? j <= i : j >= i)) inside[at(mr, i, j)] = 1;
    for (size_t e = 0; e < mr->span; ++e) {
        if (!inside[e])
            res[2 * e] = res[2 * e + 1] = SENTINEL;
        else if (!tri && z->beta_kind == 0)
            res[2 * e] = res[2 * e + 1] = NAN;
    }
    void *x[3] = {to_device(a, na, dbl), to_device(b, nb, dbl), to_device(c, nc, dbl)};
    size_t es = dbl ? 8 : 4;
    tsl_status s = TSL_OK;
    if (z->bufs) {
        tsl_buffer *bx[3] = {NULL, NULL, NULL};
        size_t cnt[3] = {na, nb, nc};
        for (int q = 0; q < 3 && s == TSL_OK; ++q) {
            s = tsl_buffer_create(g_ctx, (cnt[q] ? cnt[q] : 2) * es, &bx[q]);
            if (s == TSL_OK && cnt[q]) s = tsl_buffer_write(g_ctx, bx[q], 0, cnt[q] * es, x[q]);
        }
        if (s == TSL_OK) s = call(z, x, bx, &ma, &mb, &mc);
        int q = tri ? 1 : 2;
        if (s == TSL_OK && cnt[q]) s = tsl_buffer_read(g_ctx, bx[q], 0, cnt[q] * es, x[q]);
        for (q = 0; q < 3; ++q)
            tsl_buffer_destroy(bx[q]);
    } else {
        s = call(z, x, NULL, &ma, &mb, &mc);
    }
    CHECK(s == TSL_OK, "%s: status %s: %s", tag, tsl_status_name(s), tsl_context_error(g_ctx));
    /* the reference, and the bound: the same routine on the absolute values */
    double alpha[2] = {z->alpha[0], z->alpha[1]}, beta[2] = {z->beta[0], z->beta[1]};
    if (!dbl)
        for (int q = 0; q < 2; ++q)
            alpha[q] = (float)alpha[q], beta[q] = (float)beta[q];
    double *want = xmalloc(2 * mr->span * 8 + 8);
    memcpy(want, res, 2 * mr->span * 8);
    double *bref = tri ? want : b, *cref = tri ? c : want;
    reference(z, alpha, beta, aref, bref, cref, &ma, &mb, &mc);
    double *bound = xmalloc(2 * mr->span * 8 + 8), *aa = xmalloc(na * 8 + 8);
    double *ba = xmalloc(nb * 8 + 8);
    for (size_t e = 0; e < na; e += 2)
        aa[e] = hypot(aref[e], aref[e + 1]), aa[e + 1] = 0;
    for (size_t e = 0; e < nb; e += 2)
        ba[e] = hypot(b[e], b[e + 1]), ba[e + 1] = 0;
    for (size_t e = 0; e < 2 * mr->span; e += 2) {
        double v = z->beta_kind && inside[e / 2] ? hypot(res[e], res[e + 1]) : 0.0;
        bound[e] = tri ? hypot(res[e], res[e + 1]) : v;
        bound[e + 1] = 0;
    }
    double amag[2] = {hypot(alpha[0], alpha[1]), 0}, bmag[2] = {hypot(beta[0], beta[1]), 0};
    if (r != TRSM) reference(z, amag, bmag, aa, tri ? bound : ba, tri ? c : bound, &ma, &mb, &mc);
    double u = dbl ? 0x1p-53 : 0x1p-24, inner = rk ? (double)z->k : (double)ka, maxw = 0.0;
    for (size_t e = 0; e < 2 * mr->span; ++e)
        if (inside[e / 2] && fabs(want[e]) > maxw) maxw = fabs(want[e]);
    size_t bad = 0, changed = 0;
    for (size_t e = 0; e < 2 * mr->span; ++e) {
        double got = value_at(x[tri ? 1 : 2], e, dbl);
        if (!inside[e / 2]) {
            changed += got != SENTINEL;
            continue;
        }
        double lim = r == TRSM ? (16 * inner + 64) * u * maxw
                               : (4 * inner + 32) * u * bound[e & ~(size_t)1] + 1e-300;
        if (!(fabs(got - want[e]) <= lim) && ++bad <= 3)
            fprintf(stderr, "%s: element %zu%s: %.9g, want %.9g (bound %.3g)\n", tag, e / 2,
                    e % 2 ? ".im" : ".re", got, want[e], lim);
    }
    CHECK(bad == 0, "%s: %zu parts outside the bound", tag, bad);
    CHECK(changed == 0, "%s: %zu parts of the padding or the other triangle changed", tag, changed);
    free(a), free(b), free(c), free(aref), free(inside), free(want), free(bound), free(aa),
        free(ba);
    for (int q = 0; q < 3; ++q)
        free(x[q]);
}


/* Every combination of the group's routines, on rotating shapes. */
static void cases(const int *routines, int count_r)
{
    static const size_t shapes[][3] = {{40, 13, 36}, {7, 33, 5}, {33, 18, 21}, {17, 40, 9}};
    unsigned long long st = g_seed++;
    char tag[200];
    int count = 0;
    for (int ri = 0; ri < count_r; ++ri) {
        int r = routines[ri], tri = is_tri(r), rk = is_rk(r);
        int nside = rk ? 1 : 2, ntrans = tri ? 3 : rk ? 2 : 1, ndiag = tri ? 2 : 1;
        for (int dbl = 0; dbl < 2; ++dbl)
            for (int row = 0; row < 2; ++row)
                for (int side = 0; side < nside; ++side)
                    for (int uplo = 0; uplo < 2; ++uplo)
                        for (int ti = 0; ti < ntrans; ++ti)
                            for (int diag = 0; diag < ndiag; ++diag, ++count) {
                                const size_t *sh = shapes[count % 4];
                                /* syrk takes N, T; herk N, C */
                                int trans = rk && herm(r) && ti == 1 ? 2 : ti;
                                zcase z = {.r = r,
                                           .dbl = dbl,
                                           .bufs = count % 3 == 1,
                                           .row = row,
                                           .side = side,
                                           .uplo = uplo,
                                           .trans = trans,
                                           .diag = diag,
                                           .m = sh[0],
                                           .n = rk ? sh[0] : sh[1],
                                           .k = sh[2],
                                           .beta_kind = tri ? 1 : count % 3};
                                random_scalar(z.alpha, !(r == HERK) && count % 4 != 1, &st);
                                if (z.beta_kind)
                                    random_scalar(z.beta,
                                                  z.beta_kind == 2 && r != HERK && r != HER2K, &st);
                                snprintf(tag, sizeof tag,
                                         "%c%s%s %s side %c uplo %c trans %c%s %zux%zux%zu",
                                         dbl ? 'z' : 'c', names[r], z.bufs ? "_buf" : "",
                                         row ? "row" : "col", side ? 'R' : 'L', uplo ? 'L' : 'U',
                                         "NTC"[trans], diag ? " unit" : "", z.m, z.n, z.k);
                                run_case(&z, tag);
                            }
        /* alpha = 0 (C = beta C; trmm, trsm: B = 0), k = 0, sizes of 0 */
        for (int e = 0; e < 3; ++e) {
            zcase z = {.r = r,
                       .dbl = e == 1,
                       .bufs = e == 2,
                       .row = e != 1,
                       .uplo = e % 2,
                       .trans = rk && herm(r) && e == 2 ? 2 : e == 2,
                       .m = e == 2 ? 0 : 9,
                       .n = 11,
                       .k = e == 1 ? 0 : 6,
                       .beta_kind = 2};
            if (e == 1) random_scalar(z.alpha, r != HERK, &st);
            random_scalar(z.beta, r != HERK && r != HER2K, &st);
            if (rk && e == 2) z.n = 0;
            snprintf(tag, sizeof tag, "%c%s %s", z.dbl ? 'z' : 'c', names[r],
                     e == 0   ? "alpha = 0"
                     : e == 1 ? "k = 0"
                              : "size 0");
            if (tri && e == 1) z.alpha[0] = z.alpha[1] = 0.0, z.beta_kind = 1;
            run_case(&z, tag);
        }
    }
}

/* TRSM with leaves past 64 (block 96 on ka = 100: a leaf of 96, zl3_trsm_leaf's one right-hand
 * side a work-item, and one of 4): left lower N in double, right upper C in single. */
static void trsm_big_leaves(void)
{
    unsigned long long st = g_seed++;
    char tag[96];
    tsl_context_set_option(g_ctx, "trsm", "block", 96);
    for (int i = 0; i < 2; ++i) {
        zcase z = {.r = TRSM, .dbl = i == 0, .row = i, .side = i, .uplo = i == 0,
                   .trans = i ? 2 : 0, .m = i ? 7 : 100, .n = i ? 100 : 9, .beta_kind = 1};
        random_scalar(z.alpha, 1, &st);
        snprintf(tag, sizeof tag, "%ctrsm block 96 side %c", z.dbl ? 'z' : 'c', i ? 'R' : 'L');
        run_case(&z, tag);
    }
    tsl_context_set_option(g_ctx, "trsm", "block", 16);
}

/* ---- errors -------------------------------------------------------------------------------- */

#define EN 64 /* complex elements of each array: more than any matrix here */

static void expect_bad(tsl_status s, const char *word, const float *x, const float *x0,
                       const char *what)
{
    CHECK(s == TSL_ERR_INVALID_ARG, "%s: status %s", what, tsl_status_name(s));
    const char *msg = tsl_context_error(g_ctx);
    CHECK(check_mentions(msg, word), "%s: message '%s' does not name %s", what, msg, word);
    CHECK(memcmp(x, x0, 2 * EN * sizeof(float)) == 0, "%s: the output changed", what);
}

static void errors(void)
{
    float a[2 * EN], b[2 * EN], c[2 * EN], c0[2 * EN], one[2] = {1, 0.5f};
    double done[2] = {1, 0.5}; /* the z routines' scalars: two doubles */
    unsigned long long st = g_seed++;
    tsl_ref_fill_f(a, 2 * EN, &st);
    tsl_ref_fill_f(b, 2 * EN, &st);
    tsl_ref_fill_f(c0, 2 * EN, &st);
    const tsl_layout R = TSL_ROW_MAJOR;
    tsl_status s;
#define RESET memcpy(c, c0, sizeof c)
    RESET;
    s = tsl_csymm(g_ctx, (tsl_layout)7, TSL_LEFT, TSL_UPPER, 3, 4, one, a, 3, b, 4, one, c, 4);
    expect_bad(s, "layout", c, c0, "csymm layout");
    s = tsl_chemm(g_ctx, R, (tsl_side)7, TSL_UPPER, 3, 4, one, a, 3, b, 4, one, c, 4);
    expect_bad(s, "side", c, c0, "chemm side");
    s = tsl_chemm(g_ctx, R, TSL_LEFT, TSL_UPPER, 3, 4, one, a, 2, b, 4, one, c, 4);
    expect_bad(s, "lda", c, c0, "chemm lda");
    s = tsl_csymm(g_ctx, R, TSL_RIGHT, TSL_LOWER, 3, 4, NULL, a, 4, b, 4, one, c, 4);
    expect_bad(s, "alpha", c, c0, "csymm alpha NULL");
    s = tsl_chemm(g_ctx, R, TSL_RIGHT, TSL_LOWER, 3, 4, one, a, 4, b, 4, NULL, c, 4);
    expect_bad(s, "beta", c, c0, "chemm beta NULL");
    s = tsl_csyrk(g_ctx, R, TSL_UPPER, TSL_CONJ_TRANS, 4, 3, one, a, 4, one, c, 4);
    expect_bad(s, "trans", c, c0, "csyrk TSL_CONJ_TRANS");
    s = tsl_cherk(g_ctx, R, TSL_UPPER, TSL_TRANS, 4, 3, 1.0f, a, 4, 1.0f, c, 4);
    expect_bad(s, "trans", c, c0, "cherk TSL_TRANS");
    s = tsl_cherk(g_ctx, R, (tsl_uplo)5, TSL_NO_TRANS, 4, 3, 1.0f, a, 3, 1.0f, c, 4);
    expect_bad(s, "uplo", c, c0, "cherk uplo");
    s = tsl_cherk(g_ctx, R, TSL_LOWER, TSL_NO_TRANS, 4, 3, 1.0f, a, 3, 1.0f, c, 3);
    expect_bad(s, "ldc", c, c0, "cherk ldc");
    s = tsl_csyr2k(g_ctx, R, TSL_LOWER, TSL_NO_TRANS, 4, 3, one, a, 3, b, 2, one, c, 4);
    expect_bad(s, "ldb", c, c0, "csyr2k ldb");
    s = tsl_cher2k(g_ctx, R, TSL_LOWER, TSL_TRANS, 4, 3, one, a, 4, b, 4, 1.0f, c, 4);
    expect_bad(s, "trans", c, c0, "cher2k TSL_TRANS");
    s = tsl_cher2k(g_ctx, R, TSL_LOWER, TSL_NO_TRANS, 4, 3, one, NULL, 3, b, 3, 1.0f, c, 4);
    expect_bad(s, "A", c, c0, "cher2k A NULL");
    s = tsl_zsyr2k(g_ctx, R, TSL_LOWER, TSL_NO_TRANS, (size_t)-1, 3, done, a, 3, b, 3, done, c, 4);
    expect_bad(s, "n", c, c0, "zsyr2k n negative");
    s = tsl_ctrmm(g_ctx, R, TSL_LEFT, TSL_UPPER, (tsl_trans)3, TSL_UNIT, 3, 4, one, a, 3, c, 4);
    expect_bad(s, "transa", c, c0, "ctrmm transa");
    s = tsl_ctrsm(g_ctx, R, TSL_LEFT, TSL_UPPER, TSL_CONJ_TRANS, (tsl_diag)9, 3, 4, one, a, 3, c,
                  4);
    expect_bad(s, "diag", c, c0, "ctrsm diag");
    s = tsl_ztrsm(g_ctx, R, TSL_RIGHT, TSL_UPPER, TSL_NO_TRANS, TSL_UNIT, 3, 4, done, a, 3, c, 4);
    expect_bad(s, "lda", c, c0, "ztrsm lda");
    s = tsl_ctrmm(g_ctx, R, TSL_RIGHT, TSL_UPPER, TSL_NO_TRANS, TSL_UNIT, 3, 4, NULL, a, 4, c, 4);
    expect_bad(s, "alpha", c, c0, "ctrmm alpha NULL");
    s = tsl_ctrsm(g_ctx, TSL_COL_MAJOR, TSL_LEFT, TSL_LOWER, TSL_NO_TRANS, TSL_UNIT, 3, 4, one, a,
                  3, c, 2);
    expect_bad(s, "ldb", c, c0, "ctrsm ldb");
    CHECK(tsl_ztrmm(NULL, R, TSL_LEFT, TSL_UPPER, TSL_NO_TRANS, TSL_UNIT, 3, 4, done, a, 3, c, 4) ==
              TSL_ERR_INVALID_ARG,
          "ztrmm without a context");
    /* buffers: too small, and another element size */
    tsl_buffer *ba = NULL, *bc = NULL;
    s = tsl_buffer_create(g_ctx, 2 * EN * sizeof(float), &ba);
    if (s == TSL_OK) s = tsl_buffer_create(g_ctx, 2 * 8 * sizeof(float), &bc);
    CHECK(s == TSL_OK, "buffers: %s", tsl_context_error(g_ctx));
    s = tsl_csyrk_buf(g_ctx, R, TSL_UPPER, TSL_NO_TRANS, 4, 3, one, ba, 3, one, bc, 4);
    CHECK(s == TSL_ERR_INVALID_ARG && check_mentions(tsl_context_error(g_ctx), "C"),
          "csyrk_buf: a C buffer of 8 elements for 16: %s", tsl_status_name(s));
    s = tsl_ztrsm_buf(g_ctx, R, TSL_LEFT, TSL_UPPER, TSL_NO_TRANS, TSL_UNIT, 4, 2, done, bc, 4, ba,
                      2);
    CHECK(s == TSL_ERR_INVALID_ARG && strstr(tsl_context_error(g_ctx), "A"),
          "ztrsm_buf: an A buffer of 4 complex doubles for 16: %s (%s)", tsl_status_name(s),
          tsl_context_error(g_ctx));
    tsl_buffer_destroy(ba);
    tsl_buffer_destroy(bc);
#undef RESET
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "sym";
    tsl_status s = tsl_context_create(NULL, &g_ctx);
    if (s != TSL_OK) {
        fprintf(stderr, "no device: %s\n", tsl_last_error());
        return 1;
    }
    if (argc > 2 && (s = tsl_context_set_variant(g_ctx, "gemm", argv[2])) != TSL_OK) {
        fprintf(stderr, "variant %s: %s\n", argv[2], tsl_context_error(g_ctx));
        return 1;
    }
    /* blocks of 16: the test shapes run several blocks, a ragged last one */
    static const char *const ops[] = {"syrk", "syr2k", "trmm", "trsm"};
    for (int i = 0; i < 4; ++i)
        tsl_context_set_option(g_ctx, ops[i], "block", 16);
    static const int sym[] = {SYMM, HEMM}, rk[] = {SYRK, HERK, SYR2K, HER2K}, trmm[] = {TRMM},
                     trsm[] = {TRSM};
    if (strcmp(what, "errors") == 0)
        errors();
    else if (strcmp(what, "sym") == 0)
        cases(sym, 2);
    else if (strcmp(what, "rk") == 0)
        cases(rk, 4);
    else if (strcmp(what, "rk_recursive") == 0) /* the recursion instead of the triangle mode */
        tsl_context_set_variant(g_ctx, "syrk", "recursive"),
            tsl_context_set_variant(g_ctx, "syr2k", "recursive"), cases(rk, 4);
    else if (strcmp(what, "trmm") == 0)
        cases(trmm, 1);
    else if (strcmp(what, "trsm") == 0)
        cases(trsm, 1), trsm_big_leaves();
    else {
        fprintf(stderr, "unknown group %s (sym, rk, rk_recursive, trmm, trsm, errors)\n", what);
        return 2;
    }
    tsl_context_destroy(g_ctx);
    char name[64];
    snprintf(name, sizeof name, "test_level3_complex %s", what);
    return check_summary(name);
}
