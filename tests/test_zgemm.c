/* test_zgemm.c: complex GEMM (tsl_cgemm, tsl_zgemm, their _buf and strided batched forms) against
 * OpenBLAS's cblas_zgemm in double (tsl_ref_zgemm), on fresh random complex data.
 *
 *   test_zgemm cases [VARIANT]: single and double x both layouts x op(A), op(B) in N, T, C (all
 *     nine pairs) on odd shapes whose leading dimensions are padded (the padding, a sentinel, must
 *     come back bit-identical), alpha complex or real, beta 0 over NaN, real or complex, through
 *     the host-pointer and the _buf forms in turn; alpha = 0 and k = 0 (C = beta C, A and B not
 *     read); strided batches (shared A or B, padding between the problems). Each element must lie
 *     within (4k + 16) u S of the reference, S = |alpha| sum |a||b| + |beta||c| and u the unit
 *     roundoff (the real GEMM of 2k terms per element, alpha folded into B's real form). VARIANT
 *     is the context's gemm variant (default auto).
 *   test_zgemm 3m: the same cases in the 3M form (complex_gemm variant 3m; each element within
 *     twice that bound).
 *   test_zgemm errors: every bad argument is TSL_ERR_INVALID_ARG with a message naming it, and C
 *     stays bit-identical; and the real routines take TSL_CONJ_TRANS as TSL_TRANS (bit-identical
 *     results for tsl_sgemm, tsl_dgemm_buf, tsl_sgemm_batched, tsl_sgemv). */
#include "check.h"
#include "zdata.h"
#include "ref/ref.h"
#include "tessel.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tsl_context *g_ctx;
static unsigned long long g_seed = 20261201;
/* 1 under the 3M form (the complex_gemm variant 3m): the imaginary part T3 - T1 - T2 has twice
 * the 4M bound (|Ar + Ai| |Br + Bi| <= 2 |a| |b|: docs/gemm.md "Complex GEMM") */
static int g_3m;

static const tsl_trans trs[3] = {TSL_NO_TRANS, TSL_TRANS, TSL_CONJ_TRANS};
static const char tr_name[3] = {'N', 'T', 'C'};
#define SENTINEL 12345.0 /* every padding element */


static int tr_index(tsl_trans t)
{
    return t == TSL_NO_TRANS ? 0 : t == TSL_TRANS ? 1 : 2;
}

/* A stored complex matrix (rows x cols as op(X) sees it, after op): its stored lines and their
 * length in complex elements for a layout. */
static void stored(tsl_layout lay, tsl_trans t, size_t rows, size_t cols, size_t *lines,
                   size_t *len)
{
    size_t sr = t == TSL_NO_TRANS ? rows : cols, sc = t == TSL_NO_TRANS ? cols : rows;
    *lines = lay == TSL_ROW_MAJOR ? sr : sc;
    *len = lay == TSL_ROW_MAJOR ? sc : sr;
}

/* op(X)(i, l) of a stored complex matrix in doubles (interleaved), as (re, im). */
static void op_at(const double *x, tsl_layout lay, tsl_trans t, size_t ld, size_t i, size_t l,
                  double *re, double *im)
{
    size_t r = t == TSL_NO_TRANS ? i : l, c = t == TSL_NO_TRANS ? l : i;
    size_t at = lay == TSL_ROW_MAJOR ? r * ld + c : c * ld + r;
    *re = x[2 * at];
    *im = t == TSL_CONJ_TRANS ? -x[2 * at + 1] : x[2 * at + 1];
}

/* One problem's data: doubles (the values the device gets, rounded to float for single) and the
 * device's copies. ld in complex elements; span: complex elements from the first to the last. */
typedef struct {
    size_t lines, len, ld, span;
} layout_of;

static layout_of matrix_layout(tsl_layout lay, tsl_trans t, size_t rows, size_t cols, size_t pad)
{
    layout_of l;
    stored(lay, t, rows, cols, &l.lines, &l.len);
    l.ld = (l.len ? l.len : 1) + pad;
    l.span = l.lines && l.len ? (l.lines - 1) * l.ld + l.len : 0;
    return l;
}




typedef struct {
    int dbl, bufs;
    tsl_layout lay;
    tsl_trans ta, tb;
    size_t m, n, k, batch;
    double alpha[2], beta[2];
    int beta_kind;   /* 0: beta 0 over NaN, 1: real, 2: complex */
    size_t share;    /* batch: 1 A shared (stride 0), 2 B shared */
    const char *tag; /* what the case is, for messages */
} zcase;

/* Runs one case (batch 0: tsl_[cz]gemm; else the batched form) and checks every element. */
static void run_case(const zcase *z)
{
    unsigned long long st = g_seed++;
    int dbl = z->dbl, row = z->lay == TSL_ROW_MAJOR;
    size_t es = 2 * (size_t)(dbl ? 8 : 4), nb = z->batch ? z->batch : 1;
    layout_of la = matrix_layout(z->lay, z->ta, z->m, z->k, 3);
    layout_of lb = matrix_layout(z->lay, z->tb, z->k, z->n, 2);
    layout_of lc = matrix_layout(z->lay, TSL_NO_TRANS, z->m, z->n, 1);
    size_t sa = z->share == 1 ? 0 : la.span + 4, sb = z->share == 2 ? 0 : lb.span + 1;
    size_t sc = lc.span + 5;
    size_t ea = (nb - 1) * sa + la.span, eb = (nb - 1) * sb + lb.span, ec = (nb - 1) * sc + lc.span;
    double *ad = xmalloc(2 * ea * 8), *bd = xmalloc(2 * eb * 8), *cd = xmalloc(2 * ec * 8);
    fill(ad, 2 * ea, dbl, &st);
    fill(bd, 2 * eb, dbl, &st);
    fill(cd, 2 * ec, dbl, &st);
    char *inside = xmalloc(ec);
    memset(inside, 0, ec);
    for (size_t p = 0; p < nb; ++p)
        for (size_t l = 0; l < lc.lines; ++l)
            for (size_t j = 0; j < lc.len; ++j) inside[p * sc + l * lc.ld + j] = 1;
    for (size_t i = 0; i < ec; ++i) {
        if (!inside[i]) cd[2 * i] = cd[2 * i + 1] = SENTINEL;
        else if (z->beta_kind == 0) cd[2 * i] = cd[2 * i + 1] = NAN;
    }
    void *a = to_device(ad, 2 * ea, dbl), *b = to_device(bd, 2 * eb, dbl);
    void *c = to_device(cd, 2 * ec, dbl);
    float alf[2] = {(float)z->alpha[0], (float)z->alpha[1]}, bef[2] = {(float)z->beta[0],
                                                                       (float)z->beta[1]};
    const void *al = dbl ? (const void *)z->alpha : alf, *be = dbl ? (const void *)z->beta : bef;
    tsl_status s;
    if (z->bufs) {
        tsl_buffer *da = NULL, *db = NULL, *dc = NULL;
        s = tsl_buffer_create(g_ctx, (ea ? ea : 1) * es, &da);
        if (!s) s = tsl_buffer_create(g_ctx, (eb ? eb : 1) * es, &db);
        if (!s) s = tsl_buffer_create(g_ctx, ec * es, &dc);
        if (!s && ea) s = tsl_buffer_write(g_ctx, da, 0, ea * es, a);
        if (!s && eb) s = tsl_buffer_write(g_ctx, db, 0, eb * es, b);
        if (!s) s = tsl_buffer_write(g_ctx, dc, 0, ec * es, c);
        if (!s && z->batch)
            s = (dbl ? tsl_zgemm_batched_buf : tsl_cgemm_batched_buf)(
                g_ctx, z->lay, z->ta, z->tb, z->m, z->n, z->k, al, da, la.ld, sa, db, lb.ld, sb, be,
                dc, lc.ld, sc, z->batch);
        else if (!s)
            s = (dbl ? tsl_zgemm_buf : tsl_cgemm_buf)(g_ctx, z->lay, z->ta, z->tb, z->m, z->n, z->k,
                                                      al, da, la.ld, db, lb.ld, be, dc, lc.ld);
        if (!s) s = tsl_buffer_read(g_ctx, dc, 0, ec * es, c);
        tsl_buffer_destroy(da);
        tsl_buffer_destroy(db);
        tsl_buffer_destroy(dc);
    } else if (z->batch) {
        s = (dbl ? tsl_zgemm_batched : tsl_cgemm_batched)(g_ctx, z->lay, z->ta, z->tb, z->m, z->n,
                                                          z->k, al, a, la.ld, sa, b, lb.ld, sb, be,
                                                          c, lc.ld, sc, z->batch);
    } else {
        s = (dbl ? tsl_zgemm : tsl_cgemm)(g_ctx, z->lay, z->ta, z->tb, z->m, z->n, z->k, al, a,
                                          la.ld, b, lb.ld, be, c, lc.ld);
    }
    CHECK(s == TSL_OK, "%s: status %s: %s", z->tag, tsl_status_name(s), tsl_context_error(g_ctx));
    /* the reference, problem by problem (beta 0: C's NaN never read) */
    double *ref = xmalloc(2 * ec * 8);
    memcpy(ref, cd, 2 * ec * 8);
    double u = dbl ? 0x1p-53 : 0x1p-24, tol = (g_3m ? 2 : 1) * (4.0 * (double)z->k + 16.0) * u;
    /* alpha and beta as the device gets them (floats for single) */
    double alpha[2] = {dbl ? z->alpha[0] : alf[0], dbl ? z->alpha[1] : alf[1]};
    double beta[2] = {dbl ? z->beta[0] : bef[0], dbl ? z->beta[1] : bef[1]};
    double amag = hypot(alpha[0], alpha[1]), bmag = hypot(beta[0], beta[1]);
    size_t bad = 0, outside = 0;
    for (size_t p = 0; p < nb; ++p) {
        tsl_ref_zgemm(z->lay, z->ta, z->tb, z->m, z->n, z->k, alpha, ad + 2 * p * sa, la.ld,
                      bd + 2 * p * sb, lb.ld, beta, ref + 2 * p * sc, lc.ld);
        for (size_t i = 0; i < z->m; ++i)
            for (size_t j = 0; j < z->n; ++j) {
                size_t at = p * sc + (row ? i * lc.ld + j : j * lc.ld + i);
                double sum = 0.0;
                for (size_t l = 0; l < z->k; ++l) {
                    double xr, xi, yr, yi;
                    op_at(ad + 2 * p * sa, z->lay, z->ta, la.ld, i, l, &xr, &xi);
                    op_at(bd + 2 * p * sb, z->lay, z->tb, lb.ld, l, j, &yr, &yi);
                    sum += hypot(xr, xi) * hypot(yr, yi);
                }
                double cm = z->beta_kind ? hypot(cd[2 * at], cd[2 * at + 1]) : 0.0;
                double bound = tol * (amag * sum + bmag * cm) + 1e-300;
                for (int q = 0; q < 2; ++q) {
                    double got = value_at(c, 2 * at + q, dbl), want = ref[2 * at + q];
                    if (!(fabs(got - want) <= bound) && ++bad <= 3)
                        fprintf(stderr, "%s: C(%zu, %zu)%s of problem %zu: %.9g, want %.9g (bound %.3g)\n",
                                z->tag, i, j, q ? ".im" : ".re", p, got, want, bound);
                }
            }
    }
    for (size_t i = 0; i < ec; ++i)
        if (!inside[i])
            for (int q = 0; q < 2; ++q) outside += value_at(c, 2 * i + q, dbl) != SENTINEL;
    CHECK(bad == 0, "%s: %zu parts of C outside the bound", z->tag, bad);
    CHECK(outside == 0, "%s: %zu parts of padding changed", z->tag, outside);
    free(ad), free(bd), free(cd), free(a), free(b), free(c), free(ref), free(inside);
}


static void cases(void)
{
    static const size_t shapes[][3] = {{13, 11, 9}, {7, 17, 33}, {33, 5, 21}, {1, 9, 4}};
    unsigned long long st = g_seed++;
    int count = 0;
    char tag[160];
    for (int dbl = 0; dbl < 2; ++dbl)
        for (int lay = 0; lay < 2; ++lay)
            for (int ia = 0; ia < 3; ++ia)
                for (int ib = 0; ib < 3; ++ib, ++count) {
                    const size_t *sh = shapes[count % 4];
                    zcase z = {.dbl = dbl,
                               .bufs = count % 2,
                               .lay = lay ? TSL_COL_MAJOR : TSL_ROW_MAJOR,
                               .ta = trs[ia],
                               .tb = trs[ib],
                               .m = sh[0],
                               .n = sh[1],
                               .k = sh[2],
                               .beta_kind = count % 3,
                               .tag = tag};
                    random_scalar(z.alpha, count % 4 != 1, &st);
                    if (z.beta_kind) random_scalar(z.beta, z.beta_kind == 2, &st);
                    snprintf(tag, sizeof tag, "%cgemm%s %s %c%c %zux%zux%zu beta %s",
                             dbl ? 'z' : 'c', z.bufs ? "_buf" : "", lay ? "col" : "row",
                             tr_name[ia], tr_name[ib], z.m, z.n, z.k,
                             z.beta_kind == 0 ? "0" : z.beta_kind == 1 ? "real" : "complex");
                    run_case(&z);
                }
    /* alpha == 0 and k == 0: C = beta C (complex, real, and 0 over NaN) */
    for (int dbl = 0; dbl < 2; ++dbl)
        for (int kind = 0; kind < 3; ++kind) {
            zcase z = {.dbl = dbl, .bufs = kind == 1, .lay = TSL_COL_MAJOR, .ta = TSL_CONJ_TRANS,
                       .tb = TSL_NO_TRANS, .m = 9, .n = 6, .k = kind == 2 ? 0 : 5,
                       .beta_kind = kind, .tag = tag};
            if (kind == 2) random_scalar(z.alpha, 1, &st);
            if (kind) random_scalar(z.beta, kind == 1 || kind == 2, &st);
            snprintf(tag, sizeof tag, "%cgemm %s beta kind %d", dbl ? 'z' : 'c',
                     kind == 2 ? "k = 0" : "alpha = 0", kind);
            run_case(&z);
        }
    /* strided batches: a shared operand, conjugates, both forms, both layouts */
    for (int i = 0; i < 4; ++i) {
        zcase z = {.dbl = i % 2, .bufs = i / 2, .lay = i % 3 ? TSL_ROW_MAJOR : TSL_COL_MAJOR,
                   .ta = trs[i % 3], .tb = trs[(i + 2) % 3], .m = 11, .n = 7, .k = 13,
                   .batch = 3 + (size_t)i, .beta_kind = (i + 1) % 3, .share = (size_t)i % 3,
                   .tag = tag};
        random_scalar(z.alpha, 1, &st);
        if (z.beta_kind) random_scalar(z.beta, z.beta_kind == 2, &st);
        snprintf(tag, sizeof tag, "%cgemm_batched%s %c%c batch %zu share %zu",
                 z.dbl ? 'z' : 'c', z.bufs ? "_buf" : "", tr_name[tr_index(z.ta)],
                 tr_name[tr_index(z.tb)], z.batch, z.share);
        run_case(&z);
    }
}

/* ---- errors ------------------------------------------------------------------------------------ */

#define EN 64 /* elements of each error test's arrays: more than any matrix there */

static char g_msg[1024]; /* the error of a _buf call, before its C is read back */

static void expect_bad(tsl_status s, const char *word, const float *c, const float *c0,
                       const char *what)
{
    CHECK(s == TSL_ERR_INVALID_ARG, "%s: status %s", what, tsl_status_name(s));
    const char *msg = g_msg[0] ? g_msg : tsl_context_error(g_ctx);
    CHECK(check_mentions(msg, word), "%s: message '%s' does not name %s", what, msg, word);
    CHECK(memcmp(c, c0, 2 * EN * sizeof(float)) == 0, "%s: C changed", what);
    g_msg[0] = '\0';
}

static void errors(void)
{
    float a[2 * EN], b[2 * EN], c[2 * EN], c0[2 * EN], one[2] = {1, 0.5f}, zero[2] = {0, 0};
    double done[2] = {1, 0.5}; /* tsl_zgemm's alpha and beta: two doubles */
    unsigned long long st = g_seed++;
    tsl_ref_fill_f(a, 2 * EN, &st);
    tsl_ref_fill_f(b, 2 * EN, &st);
    tsl_ref_fill_f(c0, 2 * EN, &st);
    const tsl_layout R = TSL_ROW_MAJOR, C = TSL_COL_MAJOR;
    const tsl_trans N = TSL_NO_TRANS, H = TSL_CONJ_TRANS;
#define RESET memcpy(c, c0, sizeof c)
    RESET;
    expect_bad(tsl_cgemm(g_ctx, (tsl_layout)103, N, N, 4, 4, 4, one, a, 4, b, 4, one, c, 4),
               "layout", c, c0, "layout 103");
    RESET;
    expect_bad(tsl_cgemm(g_ctx, R, (tsl_trans)114, N, 4, 4, 4, one, a, 4, b, 4, one, c, 4),
               "transa", c, c0, "transa 114");
    RESET;
    expect_bad(tsl_cgemm(g_ctx, C, H, (tsl_trans)110, 4, 4, 4, one, a, 4, b, 4, one, c, 4),
               "transb", c, c0, "transb 110");
    /* each leading dimension one below what each layout x trans needs */
    for (int lay = 0; lay < 2; ++lay)
        for (int t = 0; t < 3; ++t) {
            tsl_layout L = lay ? C : R;
            size_t m = 3, n = 5, k = 4;
            size_t a_need = (lay == 0) == (t == 0) ? k : m, b_need = (lay == 0) == (t == 0) ? n : k;
            size_t c_need = lay == 0 ? n : m;
            char what[80];
            snprintf(what, sizeof what, "lda %s %c", lay ? "col" : "row", tr_name[t]);
            RESET;
            expect_bad(tsl_cgemm(g_ctx, L, trs[t], N, m, n, k, one, a, a_need - 1, b, 8, one, c, 8),
                       "lda", c, c0, what);
            snprintf(what, sizeof what, "ldb %s %c", lay ? "col" : "row", tr_name[t]);
            RESET;
            expect_bad(tsl_zgemm(g_ctx, L, N, trs[t], m, n, k, done, a, 8, b, b_need - 1, done, c, 8),
                       "ldb", c, c0, what);
            snprintf(what, sizeof what, "ldc %s", lay ? "col" : "row");
            RESET;
            expect_bad(tsl_cgemm(g_ctx, L, trs[t], trs[t], m, n, k, one, a, 8, b, 8, one, c,
                                 c_need - 1),
                       "ldc", c, c0, what);
            /* the control: exactly what they need runs */
            RESET;
            tsl_status s = tsl_cgemm(g_ctx, L, trs[t], trs[t], m, n, k, one, a, a_need, b, b_need,
                                     one, c, c_need);
            CHECK(s == TSL_OK, "ld control %s %c: %s", lay ? "col" : "row", tr_name[t],
                  tsl_context_error(g_ctx));
        }
    RESET;
    expect_bad(tsl_cgemm(g_ctx, R, N, N, 4, 4, 4, NULL, a, 4, b, 4, one, c, 4), "alpha", c, c0,
               "alpha NULL");
    RESET;
    expect_bad(tsl_zgemm(g_ctx, R, N, N, 4, 4, 4, done, a, 4, b, 4, NULL, c, 4), "beta", c, c0,
               "beta NULL");
    RESET;
    expect_bad(tsl_cgemm(g_ctx, R, N, N, 4, 4, 4, one, NULL, 4, b, 4, one, c, 4), "A", c, c0,
               "A NULL");
    RESET;
    expect_bad(tsl_cgemm(g_ctx, R, N, N, 4, 4, 4, one, a, 4, NULL, 4, one, c, 4), "B", c, c0,
               "B NULL");
    CHECK(tsl_cgemm(g_ctx, R, N, N, 4, 4, 4, one, a, 4, b, 4, one, NULL, 4) == TSL_ERR_INVALID_ARG,
          "C NULL");
    CHECK(tsl_zgemm(NULL, R, N, N, 4, 4, 4, done, a, 4, b, 4, done, c, 4) == TSL_ERR_INVALID_ARG,
          "ctx NULL");
    /* alpha == 0: A and B are not read, NULL is fine */
    RESET;
    CHECK(tsl_cgemm(g_ctx, R, N, N, 4, 4, 4, zero, NULL, 4, NULL, 4, one, c, 4) == TSL_OK,
          "alpha 0 with A, B NULL: %s", tsl_context_error(g_ctx));
    /* buffers: too small, NULL */
    tsl_buffer *ba = NULL, *bb = NULL, *bc = NULL, *small = NULL;
    CHECK(tsl_buffer_create(g_ctx, 2 * EN * 4, &ba) == TSL_OK, "buffer");
    CHECK(tsl_buffer_create(g_ctx, 2 * EN * 4, &bb) == TSL_OK, "buffer");
    CHECK(tsl_buffer_create(g_ctx, 2 * EN * 4, &bc) == TSL_OK, "buffer");
    CHECK(tsl_buffer_create(g_ctx, 15 * 8, &small) == TSL_OK, "buffer");
    CHECK(tsl_buffer_write(g_ctx, bc, 0, sizeof c0, c0) == TSL_OK, "write");
    tsl_status s = tsl_cgemm_buf(g_ctx, R, N, N, 4, 4, 4, one, small, 4, bb, 4, one, bc, 4);
    snprintf(g_msg, sizeof g_msg, "%s", tsl_context_error(g_ctx));
    tsl_buffer_read(g_ctx, bc, 0, sizeof c, c);
    expect_bad(s, "A", c, c0, "cgemm_buf A too small");
    s = tsl_cgemm_buf(g_ctx, R, N, N, 4, 4, 4, one, ba, 4, bb, 4, one, small, 4);
    CHECK(s == TSL_ERR_INVALID_ARG && check_mentions(tsl_context_error(g_ctx), "C"),
          "cgemm_buf C too small: %s", tsl_context_error(g_ctx));
    s = tsl_zgemm_buf(g_ctx, R, N, N, 4, 4, 4, done, ba, 4, NULL, 4, done, bc, 4);
    snprintf(g_msg, sizeof g_msg, "%s", tsl_context_error(g_ctx));
    tsl_buffer_read(g_ctx, bc, 0, sizeof c, c);
    expect_bad(s, "B", c, c0, "zgemm_buf B NULL");
    /* the batch: overlapping C, a bad transpose, lda */
    RESET;
    expect_bad(tsl_cgemm_batched(g_ctx, R, N, N, 2, 2, 2, one, a, 2, 4, b, 2, 4, one, c, 2, 3, 2),
               "stride_c", c, c0, "cgemm_batched overlapping C");
    RESET;
    expect_bad(tsl_zgemm_batched(g_ctx, R, (tsl_trans)0, N, 2, 2, 2, done, a, 2, 4, b, 2, 4, done, c,
                                 2, 4, 2),
               "transa", c, c0, "zgemm_batched transa 0");
    RESET;
    expect_bad(tsl_cgemm_batched(g_ctx, C, H, N, 2, 3, 2, one, a, 1, 4, b, 2, 6, one, c, 2, 6, 2),
               "lda", c, c0, "cgemm_batched lda");
    s = tsl_cgemm_batched_buf(g_ctx, R, N, N, 4, 4, 4, one, ba, 4, 16, bb, 4, 16, one, small, 4,
                              16, 2);
    CHECK(s == TSL_ERR_INVALID_ARG && check_mentions(tsl_context_error(g_ctx), "C"),
          "cgemm_batched_buf C too small: %s", tsl_context_error(g_ctx));
    tsl_buffer_destroy(ba);
    tsl_buffer_destroy(bb);
    tsl_buffer_destroy(bc);
    tsl_buffer_destroy(small);
#undef RESET
}

/* The real routines take TSL_CONJ_TRANS as TSL_TRANS: the same bits. */
static void conj_in_real_routines(void)
{
    enum { M = 7, K = 5, NN = 6 };
    float a[64], b[64], c1[64], c2[64], x[8], y1[8], y2[8];
    double ad[64], bd[64], d1[64], d2[64];
    unsigned long long st = g_seed++;
    tsl_ref_fill_f(a, 64, &st);
    tsl_ref_fill_f(b, 64, &st);
    tsl_ref_fill_f(c1, 64, &st);
    tsl_ref_fill_f(x, 8, &st);
    tsl_ref_fill_f(y1, 8, &st);
    tsl_ref_fill_d(ad, 64, &st);
    tsl_ref_fill_d(bd, 64, &st);
    tsl_ref_fill_d(d1, 64, &st);
    memcpy(c2, c1, sizeof c1);
    memcpy(d2, d1, sizeof d1);
    memcpy(y2, y1, sizeof y1);
    const tsl_layout R = TSL_ROW_MAJOR;
    tsl_status s1 = tsl_sgemm(g_ctx, R, TSL_TRANS, TSL_TRANS, M, NN, K, 0.5f, a, M, b, K, 2, c1, NN);
    tsl_status s2 = tsl_sgemm(g_ctx, R, TSL_CONJ_TRANS, TSL_CONJ_TRANS, M, NN, K, 0.5f, a, M, b, K,
                              2, c2, NN);
    CHECK(s1 == TSL_OK && s2 == TSL_OK && memcmp(c1, c2, sizeof c1) == 0,
          "tsl_sgemm: CONJ_TRANS differs from TRANS (%s)", tsl_context_error(g_ctx));
    tsl_buffer *ba, *bb, *bc1, *bc2;
    tsl_buffer_create(g_ctx, sizeof ad, &ba);
    tsl_buffer_create(g_ctx, sizeof bd, &bb);
    tsl_buffer_create(g_ctx, sizeof d1, &bc1);
    tsl_buffer_create(g_ctx, sizeof d1, &bc2);
    tsl_buffer_write(g_ctx, ba, 0, sizeof ad, ad);
    tsl_buffer_write(g_ctx, bb, 0, sizeof bd, bd);
    tsl_buffer_write(g_ctx, bc1, 0, sizeof d1, d1);
    tsl_buffer_write(g_ctx, bc2, 0, sizeof d1, d1);
    s1 = tsl_dgemm_buf(g_ctx, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_TRANS, M, NN, K, 1.5, ba, M, bb, NN,
                       0.5, bc1, M);
    s2 = tsl_dgemm_buf(g_ctx, TSL_COL_MAJOR, TSL_NO_TRANS, TSL_CONJ_TRANS, M, NN, K, 1.5, ba, M, bb,
                       NN, 0.5, bc2, M);
    tsl_buffer_read(g_ctx, bc1, 0, sizeof d1, d1);
    tsl_buffer_read(g_ctx, bc2, 0, sizeof d2, d2);
    CHECK(s1 == TSL_OK && s2 == TSL_OK && memcmp(d1, d2, sizeof d1) == 0,
          "tsl_dgemm_buf: CONJ_TRANS differs from TRANS (%s)", tsl_context_error(g_ctx));
    tsl_buffer_destroy(ba), tsl_buffer_destroy(bb), tsl_buffer_destroy(bc1), tsl_buffer_destroy(bc2);
    memcpy(c2, c1, sizeof c1);
    s1 = tsl_sgemm_batched(g_ctx, R, TSL_TRANS, TSL_NO_TRANS, 3, 2, 4, 1, a, 3, 12, b, 2, 8, 1, c1,
                           2, 6, 2);
    s2 = tsl_sgemm_batched(g_ctx, R, TSL_CONJ_TRANS, TSL_NO_TRANS, 3, 2, 4, 1, a, 3, 12, b, 2, 8, 1,
                           c2, 2, 6, 2);
    CHECK(s1 == TSL_OK && s2 == TSL_OK && memcmp(c1, c2, sizeof c1) == 0,
          "tsl_sgemm_batched: CONJ_TRANS differs from TRANS (%s)", tsl_context_error(g_ctx));
    s1 = tsl_sgemv(g_ctx, R, TSL_TRANS, 5, 7, 1.25f, a, 7, x, 0.5f, y1);
    s2 = tsl_sgemv(g_ctx, R, TSL_CONJ_TRANS, 5, 7, 1.25f, a, 7, x, 0.5f, y2);
    CHECK(s1 == TSL_OK && s2 == TSL_OK && memcmp(y1, y2, sizeof y1) == 0,
          "tsl_sgemv: CONJ_TRANS differs from TRANS (%s)", tsl_context_error(g_ctx));
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "cases";
    tsl_status s = tsl_context_create(NULL, &g_ctx);
    if (s != TSL_OK) {
        fprintf(stderr, "no device: %s\n", tsl_last_error());
        return 1;
    }
    if (argc > 2 && (s = tsl_context_set_variant(g_ctx, "gemm", argv[2])) != TSL_OK) {
        fprintf(stderr, "variant %s: %s\n", argv[2], tsl_context_error(g_ctx));
        return 1;
    }
    g_3m = strcmp(what, "3m") == 0;
    if (g_3m && (s = tsl_context_set_variant(g_ctx, "complex_gemm", "3m")) != TSL_OK) {
        fprintf(stderr, "complex_gemm 3m: %s\n", tsl_context_error(g_ctx));
        return 1;
    }
    if (strcmp(what, "errors") == 0) {
        errors();
        conj_in_real_routines();
    } else {
        cases();
    }
    tsl_context_destroy(g_ctx);
    return check_summary(strcmp(what, "errors") == 0 ? "test_zgemm errors"
                         : g_3m                      ? "test_zgemm 3m cases"
                                                     : "test_zgemm cases");
}
