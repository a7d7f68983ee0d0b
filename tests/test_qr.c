/* test_qr.c: correctness of QR and least squares (tsl_[sd]geqrf, ormqr, gels, host pointers and
 * device buffers) against LAPACK on the CPU (OpenBLAS's dgeqrf_, dormqr_, dgels_; single
 * precision against the double routines on the rounded input). `test_qr qr|errors`.
 *
 * Every case runs on fresh random data in both precisions and both layouts, odd shapes tall,
 * square and wide (1, 7, 33, 65, 127, 200; one of 300 x 260, past two panels of LP_QR_NB), every
 * other one with a padded leading dimension whose padding and guard zone must come back
 * bit-identical, every third through the device-buffer call. Checked, with LAPACK's threshold
 * 30: geqrf's factorization residual ||A - Q R||_1 / (m ||A||_1 eps) with Q applied by LAPACK's
 * dormqr_ to our R from our reflectors, each reflector orthogonal (tau v^T v = 2, or tau = 0),
 * R beside LAPACK's R (double); ormqr in each side and trans beside dormqr_ on LAPACK's
 * reflectors (k up to two panels); gels in each trans, tall and wide, nrhs 1 and 17, beside
 * dgels_, plus its rank-deficient INFO (a zero column) and an all-zero A (X = 0, INFO 0), and
 * LAPACK's quick returns. `errors`: bad enums, k past Q's order, small leading dimensions, NULL
 * pointers: TSL_ERR_INVALID_ARG naming the argument, the arrays unchanged. `qr columns`: the
 * leaves' `columns` variant (over many work-groups, the one GPUs take) on the shapes with leaves of
 * more than 256 rows. Seed 20261202, or TSL_TEST_SEED. */
#include "lapack_mat.h"

#include <float.h>
#include <stdio.h>

void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);
void dormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
             const double *a, const int *lda, const double *tau, double *c, const int *ldc,
             double *work, const int *lwork, int *info, size_t, size_t);
void dgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
            const int *lda, double *b, const int *ldb, double *work, const int *lwork, int *info,
            size_t);

static int g_fp64, g_case;

static const char *lay_name(tsl_layout l)
{
    return l == TSL_COL_MAJOR ? "col" : "row";
}

/* a's matrix as a column-major array (ld r), and back into a. */
static double *to_col(const mat *a)
{
    size_t r = a->r ? a->r : 1;
    double *c = malloc(r * (a->c ? a->c : 1) * sizeof *c);
    for (size_t i = 0; i < a->r; ++i)
        for (size_t j = 0; j < a->c; ++j) c[i + j * r] = a->v[at(a, i, j)];
    return c;
}
static void from_col(const double *c, mat *a)
{
    size_t r = a->r ? a->r : 1;
    for (size_t i = 0; i < a->r; ++i)
        for (size_t j = 0; j < a->c; ++j) a->v[at(a, i, j)] = c[i + j * r];
}

/* ---- calls in either precision ---------------------------------------------------------------- */

typedef enum { GEQRF, ORMQR, GELS } op;

/* One call of op on a (and b: ormqr's C, gels's B), in place; tau in doubles. */
static tsl_status call(op o, int dbl, int buf, tsl_side sd, tsl_trans tr, size_t k, mat *a,
                       double *tau, mat *b, int *info)
{
    staged st = stage_in(dbl, buf, a, b);
    void *xa = st.xa, *xb = st.xb;
    tsl_buffer *ba = st.ba, *bb = st.bb;
    size_t kt = !tau ? 0 : o == ORMQR ? k : (a->r < a->c ? a->r : a->c);
    void *xt = malloc((kt + 1) * (dbl ? sizeof(double) : sizeof(float)));
    for (size_t i = 0; i < kt; ++i)
        if (dbl)
            ((double *)xt)[i] = tau[i];
        else
            ((float *)xt)[i] = (float)tau[i];
    tsl_layout L = a->lay;
    size_t lda = a->ld, ldb = b ? b->ld : 1;
    tsl_status s = TSL_ERR_INVALID_ARG;
#define PICK(f, ...) (dbl ? tsl_d##f(__VA_ARGS__) : tsl_s##f(__VA_ARGS__))
    switch (o) {
    case GEQRF:
        s = buf ? PICK(geqrf_buf, g_ctx, L, a->r, a->c, ba, lda, xt)
                : PICK(geqrf, g_ctx, L, a->r, a->c, xa, lda, xt);
        break;
    case ORMQR:
        s = buf ? PICK(ormqr_buf, g_ctx, L, sd, tr, b->r, b->c, k, ba, lda, xt, bb, ldb)
                : PICK(ormqr, g_ctx, L, sd, tr, b->r, b->c, k, xa, lda, xt, xb, ldb);
        break;
    case GELS: {
        size_t m = a->r, n = a->c, nrhs = b->c;
        s = buf ? PICK(gels_buf, g_ctx, L, tr, m, n, nrhs, ba, lda, bb, ldb, info)
                : PICK(gels, g_ctx, L, tr, m, n, nrhs, xa, lda, xb, ldb, info);
        break;
    }
    }
#undef PICK
    stage_out(dbl, buf, &st, a, b);
    for (size_t i = 0; i < kt; ++i) tau[i] = dbl ? ((double *)xt)[i] : ((float *)xt)[i];
    free(xt);
    return s;
}

/* ||X - Y||_1 / (scale ||ref||_1 eps). */
static double diff_ratio(const mat *x, const mat *y, double refn, double scale, int dbl)
{
    double worst = 0, eps = dbl ? DBL_EPSILON : FLT_EPSILON;
    for (size_t j = 0; j < x->c; ++j) {
        double s = 0;
        for (size_t i = 0; i < x->r; ++i) s += fabs(x->v[at(x, i, j)] - y->v[at(y, i, j)]);
        worst = fmax(worst, s);
    }
    return worst / (scale * (refn > 0 ? refn : 1) * eps);
}

/* ---- geqrf ------------------------------------------------------------------------------------ */

static void geqrf_case(int dbl, tsl_layout lay, size_t m, size_t n)
{
    int pad = g_case % 2, buf = g_case % 3 == 2;
    ++g_case;
    const char *p = dbl ? "d" : "s";
    mat a = mat_new(lay, m, n, pad);
    mat_random(&a);
    mat_round(&a, dbl);
    mat a0 = mat_copy(&a);
    size_t k = m < n ? m : n;
    double *tau = calloc(k + 1, sizeof *tau);
    tsl_status s = call(GEQRF, dbl, buf, TSL_LEFT, TSL_NO_TRANS, 0, &a, tau, NULL, NULL);
    CHECK(s == TSL_OK, "%sgeqrf %s %zux%zu%s: %s", p, lay_name(lay), m, n, buf ? " buf" : "",
          tsl_context_error(g_ctx));
    CHECK(outside_kept(&a), "%sgeqrf %s %zux%zu: wrote outside the matrix", p, lay_name(lay), m,
          n);
    if (s == TSL_OK && k > 0) {
        int im = (int)m, in = (int)n, ik = (int)k, lw = -1, info = 0;
        double *f = to_col(&a), *ref = to_col(&a0), *qr = calloc(m * n, sizeof *qr), q;
        /* each H(i) orthogonal: tau (1 + |v below|^2) = 2, or tau = 0 */
        double worst_h = 0;
        for (size_t i = 0; i < k; ++i) {
            double vv = 1;
            for (size_t r = i + 1; r < m; ++r) vv += f[r + i * m] * f[r + i * m];
            if (tau[i] != 0) worst_h = fmax(worst_h, fabs(tau[i] * vv - 2));
        }
        CHECK(worst_h < 30 * m * (dbl ? DBL_EPSILON : FLT_EPSILON),
              "%sgeqrf %s %zux%zu: a reflector is not orthogonal (|tau v'v - 2| = %g)", p,
              lay_name(lay), m, n, worst_h);
        /* Q R by LAPACK's dormqr_ on our R with our reflectors */
        for (size_t j = 0; j < n; ++j)
            for (size_t i = 0; i <= j && i < m; ++i) qr[i + j * m] = f[i + j * m];
        dormqr_("L", "N", &im, &in, &ik, f, &im, tau, qr, &im, &q, &lw, &info, 1, 1);
        lw = (int)q;
        double *work = malloc((size_t)(lw > 1 ? lw : 1) * sizeof *work);
        dormqr_("L", "N", &im, &in, &ik, f, &im, tau, qr, &im, work, &lw, &info, 1, 1);
        mat got = mat_new(TSL_COL_MAJOR, m, n, 0), want = mat_new(TSL_COL_MAJOR, m, n, 0);
        from_col(qr, &got);
        from_col(ref, &want);
        double an = norm1(&a0), res = diff_ratio(&got, &want, an, (double)m, dbl);
        CHECK(res < 30, "%sgeqrf %s %zux%zu: ||A - QR|| ratio %.2f", p, lay_name(lay), m, n, res);
        /* R beside LAPACK's (double; random matrices are well conditioned) */
        if (dbl) {
            double *rt = malloc((k + 1) * sizeof *rt);
            lw = (int)(n * 64 + 64);
            double *w2 = malloc((size_t)lw * sizeof *w2);
            dgeqrf_(&im, &in, ref, &im, rt, w2, &lw, &info);
            double worst = 0;
            for (size_t j = 0; j < n; ++j)
                for (size_t i = 0; i <= j && i < m; ++i)
                    worst = fmax(worst, fabs(ref[i + j * m] - f[i + j * m]));
            CHECK(worst / (an * DBL_EPSILON * m) < 1000,
                  "dgeqrf %s %zux%zu: R differs from LAPACK's by %g", lay_name(lay), m, n, worst);
            free(rt), free(w2);
        }
        free(work), free(f), free(ref), free(qr), free(got.v), free(want.v);
    }
    free(a.v), free(a0.v), free(tau);
}

/* ---- ormqr ------------------------------------------------------------------------------------ */

static void ormqr_case(int dbl, tsl_layout lay, tsl_side sd, tsl_trans tr, size_t m, size_t n,
                       size_t k)
{
    int pad = g_case % 2, buf = g_case % 3 == 2;
    ++g_case;
    const char *p = dbl ? "d" : "s";
    size_t nq = sd == TSL_LEFT ? m : n;
    /* LAPACK's reflectors of a random nq x k matrix */
    mat a = mat_new(lay, nq, k, pad), c = mat_new(lay, m, n, !pad);
    mat_random(&a);
    mat_random(&c);
    int inq = (int)nq, ik = (int)k, lw = (int)(nq + k + m + n) * 64, info = 0;
    double *ac = to_col(&a), *tau = calloc(k + 1, sizeof *tau),
           *work = malloc((size_t)lw * sizeof *work);
    if (k > 0) dgeqrf_(&inq, &ik, ac, &inq, tau, work, &lw, &info);
    from_col(ac, &a);
    mat_round(&a, dbl);
    mat_round(&c, dbl);
    if (!dbl)
        for (size_t i = 0; i < k; ++i) tau[i] = (float)tau[i];
    free(ac);
    ac = to_col(&a);
    mat c0 = mat_copy(&c);
    double *cc = to_col(&c);
    int im = (int)m, in = (int)n;
    const char *side = sd == TSL_LEFT ? "L" : "R", *trans = tr == TSL_NO_TRANS ? "N" : "T";
    if (m > 0 && n > 0)
        dormqr_(side, trans, &im, &in, &ik, ac, &inq, tau, cc, &im, work, &lw, &info, 1, 1);
    tsl_status s = call(ORMQR, dbl, buf, sd, tr, k, &a, tau, &c, NULL);
    CHECK(s == TSL_OK, "%sormqr %s %s%s %zux%zu k %zu%s: %s", p, lay_name(lay), side, trans, m, n,
          k, buf ? " buf" : "", tsl_context_error(g_ctx));
    CHECK(outside_kept(&c), "%sormqr %s %s%s %zux%zu k %zu: wrote outside C", p, lay_name(lay),
          side, trans, m, n, k);
    if (s == TSL_OK) {
        mat want = mat_new(TSL_COL_MAJOR, m, n, 0);
        from_col(cc, &want);
        double res = diff_ratio(&c, &want, norm1(&c0), (double)(m > n ? m : n), dbl);
        CHECK(res < 30, "%sormqr %s %s%s %zux%zu k %zu: differs from dormqr_ (ratio %.2f)", p,
              lay_name(lay), side, trans, m, n, k, res);
        free(want.v);
    }
    free(a.v), free(c.v), free(c0.v), free(cc), free(ac), free(tau), free(work);
}

/* ---- gels ------------------------------------------------------------------------------------- */

/* kind 0: random; 1: column zc zero (rank deficient); 2: A all zero. */
static void gels_case(int dbl, tsl_layout lay, tsl_trans tr, size_t m, size_t n, size_t nrhs,
                      int kind)
{
    int pad = g_case % 2, buf = g_case % 3 == 2;
    ++g_case;
    const char *p = dbl ? "d" : "s", *trans = tr == TSL_NO_TRANS ? "N" : "T";
    size_t mn = m > n ? m : n, k = m < n ? m : n;
    mat a = mat_new(lay, m, n, pad), b = mat_new(lay, mn, nrhs, !pad);
    mat_random(&a);
    mat_random(&b);
    if (kind == 1 && m >= n) /* R(k / 2, k / 2) exactly zero */
        for (size_t i = 0; i < m; ++i) a.v[at(&a, i, k / 2)] = 0;
    if (kind == 1 && m < n) /* the LQ's (A^T's QR's) */
        for (size_t j = 0; j < n; ++j) a.v[at(&a, k / 2, j)] = 0;
    if (kind == 2)
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < n; ++j) a.v[at(&a, i, j)] = 0;
    mat_round(&a, dbl);
    mat_round(&b, dbl);
    double *ac = to_col(&a), *bc = to_col(&b);
    int im = (int)m, in = (int)n, ir = (int)nrhs, ldb = (int)(mn ? mn : 1), lw = -1, rinfo = 0;
    int lda = (int)(m ? m : 1);
    double q;
    dgels_(trans, &im, &in, &ir, ac, &lda, bc, &ldb, &q, &lw, &rinfo, 1);
    lw = (int)q;
    double *work = malloc((size_t)(lw > 1 ? lw : 1) * sizeof *work);
    dgels_(trans, &im, &in, &ir, ac, &lda, bc, &ldb, work, &lw, &rinfo, 1);
    int info = -7;
    tsl_status s = call(GELS, dbl, buf, TSL_LEFT, tr, 0, &a, NULL, &b, &info);
    CHECK(s == TSL_OK, "%sgels %s %s %zux%zu nrhs %zu%s: %s", p, lay_name(lay), trans, m, n, nrhs,
          buf ? " buf" : "", tsl_context_error(g_ctx));
    CHECK(outside_kept(&a) && outside_kept(&b), "%sgels %s %s %zux%zu: wrote outside A or B", p,
          lay_name(lay), trans, m, n);
    if (s == TSL_OK) {
        CHECK(info == rinfo, "%sgels %s %s %zux%zu nrhs %zu: info %d, LAPACK's %d", p,
              lay_name(lay), trans, m, n, nrhs, info, rinfo);
        if (info == 0 && rinfo == 0) {
            /* the solution's rows: n (trans N) or m (T) */
            size_t xr = tr == TSL_NO_TRANS ? n : m;
            mat want = mat_new(TSL_COL_MAJOR, mn, nrhs, 0), got = mat_new(lay, xr, nrhs, 0);
            from_col(bc, &want);
            want.r = xr;
            for (size_t i = 0; i < xr; ++i)
                for (size_t j = 0; j < nrhs; ++j) got.v[at(&got, i, j)] = b.v[at(&b, i, j)];
            double res = diff_ratio(&got, &want, norm1(&want), (double)mn, dbl);
            /* a random least-squares problem's condition number is small: 1000 */
            CHECK(res < 1000, "%sgels %s %s %zux%zu nrhs %zu: X differs from dgels_ (ratio %.1f)",
                  p, lay_name(lay), trans, m, n, nrhs, res);
            if (kind == 2) {
                int zero = 1;
                for (size_t i = 0; i < mn; ++i)
                    for (size_t j = 0; j < nrhs; ++j) zero &= b.v[at(&b, i, j)] == 0;
                CHECK(zero, "%sgels %s %s %zux%zu: A = 0 but B is not zeroed", p, lay_name(lay),
                      trans, m, n);
            }
            free(want.v), free(got.v);
        }
    }
    free(a.v), free(b.v), free(ac), free(bc), free(work);
}

/* tall: the leaves' variant under test is `columns`, which serves leaves of more than 256 rows:
 * the shapes that have them, geqrf and gels. */
static void run_tall(void)
{
    static const size_t shapes[][2] = {{300, 260}, {517, 40}, {260, 700}, {1000, 97}};
    for (int dbl = g_fp64 ? 1 : 0; dbl >= 0; --dbl)
        for (int l = 0; l < 2; ++l) {
            tsl_layout lay = l ? TSL_ROW_MAJOR : TSL_COL_MAJOR;
            for (size_t i = 0; i < sizeof shapes / sizeof *shapes; ++i)
                geqrf_case(dbl, lay, shapes[i][0], shapes[i][1]);
            gels_case(dbl, lay, TSL_NO_TRANS, 400, 70, 3, 0);
            gels_case(dbl, lay, TSL_TRANS, 300, 290, 2, 1);
        }
}

static void run_qr(void)
{
    static const size_t shapes[][2] = {{1, 1},   {7, 7},    {33, 7},   {7, 33},  {65, 65},
                                       {127, 40}, {40, 127}, {200, 200}, {300, 260}};
    for (int dbl = g_fp64 ? 1 : 0; dbl >= 0; --dbl)
        for (int l = 0; l < 2; ++l) {
            tsl_layout lay = l ? TSL_ROW_MAJOR : TSL_COL_MAJOR;
            for (size_t i = 0; i < sizeof shapes / sizeof *shapes; ++i)
                geqrf_case(dbl, lay, shapes[i][0], shapes[i][1]);
            for (int sd = 0; sd < 2; ++sd)
                for (int t = 0; t < 2; ++t) {
                    tsl_side side = sd ? TSL_RIGHT : TSL_LEFT;
                    tsl_trans tr = t ? TSL_TRANS : TSL_NO_TRANS;
                    ormqr_case(dbl, lay, side, tr, 65, 33, sd ? 20 : 40);
                    ormqr_case(dbl, lay, side, tr, 200, 170, 150);
                    ormqr_case(dbl, lay, side, tr, 7, 1, 1);
                }
            for (int t = 0; t < 2; ++t) {
                tsl_trans tr = t ? TSL_TRANS : TSL_NO_TRANS;
                gels_case(dbl, lay, tr, 65, 33, 1, 0);
                gels_case(dbl, lay, tr, 33, 65, 17, 0);
                gels_case(dbl, lay, tr, 200, 127, 17, 0);
                gels_case(dbl, lay, tr, 127, 200, 1, 0);
                gels_case(dbl, lay, tr, 33, 33, 2, 0);
                gels_case(dbl, lay, tr, 40, 20, 3, 1);
                gels_case(dbl, lay, tr, 20, 40, 3, 1);
                gels_case(dbl, lay, tr, 9, 5, 2, 2);
                gels_case(dbl, lay, tr, 0, 5, 2, 0);
                gels_case(dbl, lay, tr, 7, 0, 2, 0);
            }
        }
    /* the quick returns: nothing to factor or apply */
    double tau[1] = {0};
    CHECK(tsl_dgeqrf(g_ctx, TSL_COL_MAJOR, 0, 5, NULL, 1, tau) == TSL_OK || !g_fp64,
          "dgeqrf m = 0: %s", tsl_context_error(g_ctx));
    CHECK(tsl_sormqr(g_ctx, TSL_COL_MAJOR, TSL_LEFT, TSL_NO_TRANS, 4, 3, 0, NULL, 4, NULL, NULL,
                     4) == TSL_OK,
          "sormqr k = 0: %s", tsl_context_error(g_ctx));
}

/* ---- bad arguments ---------------------------------------------------------------------------- */

static void expect_bad(tsl_status s, const char *what, const char *needle)
{
    const char *e = tsl_context_error(g_ctx);
    CHECK(s == TSL_ERR_INVALID_ARG && e && strstr(e, needle),
          "%s: want TSL_ERR_INVALID_ARG naming '%s', got %s: %s", what, needle,
          tsl_status_name(s), e ? e : "");
}

static void run_errors(void)
{
    float a[64], c[64], tau[8];
    int info = 0;
    for (int i = 0; i < 64; ++i) a[i] = c[i] = (float)(i % 7) - 3;
    float a0[64], c0[64];
    memcpy(a0, a, sizeof a), memcpy(c0, c, sizeof c);
    expect_bad(tsl_sgeqrf(g_ctx, (tsl_layout)7, 4, 4, a, 4, tau), "geqrf layout", "layout");
    expect_bad(tsl_sgeqrf(g_ctx, TSL_COL_MAJOR, 4, 4, a, 3, tau), "geqrf lda", "lda");
    expect_bad(tsl_sgeqrf(g_ctx, TSL_ROW_MAJOR, 4, 6, a, 5, tau), "geqrf row lda", "lda");
    expect_bad(tsl_sgeqrf(g_ctx, TSL_COL_MAJOR, 4, 4, a, 4, NULL), "geqrf tau", "tau");
    expect_bad(tsl_sgeqrf(g_ctx, TSL_COL_MAJOR, 4, 4, NULL, 4, tau), "geqrf A", "A");
    expect_bad(tsl_sormqr(g_ctx, TSL_COL_MAJOR, (tsl_side)3, TSL_NO_TRANS, 4, 4, 2, a, 4, tau, c,
                          4),
               "ormqr side", "side");
    expect_bad(tsl_sormqr(g_ctx, TSL_COL_MAJOR, TSL_LEFT, (tsl_trans)3, 4, 4, 2, a, 4, tau, c, 4),
               "ormqr trans", "trans");
    expect_bad(tsl_sormqr(g_ctx, TSL_COL_MAJOR, TSL_LEFT, TSL_NO_TRANS, 4, 4, 5, a, 4, tau, c, 4),
               "ormqr k", "k");
    expect_bad(tsl_sormqr(g_ctx, TSL_COL_MAJOR, TSL_RIGHT, TSL_NO_TRANS, 4, 6, 2, a, 4, tau, c, 4),
               "ormqr lda", "lda");
    expect_bad(tsl_sormqr(g_ctx, TSL_COL_MAJOR, TSL_LEFT, TSL_NO_TRANS, 4, 4, 2, a, 4, tau, c, 3),
               "ormqr ldc", "ldc");
    expect_bad(tsl_sormqr(g_ctx, TSL_COL_MAJOR, TSL_LEFT, TSL_TRANS, 4, 4, 2, a, 4, NULL, c, 4),
               "ormqr tau", "tau");
    expect_bad(tsl_sgels(g_ctx, TSL_COL_MAJOR, (tsl_trans)9, 4, 4, 1, a, 4, c, 4, &info),
               "gels trans", "trans");
    expect_bad(tsl_sgels(g_ctx, TSL_COL_MAJOR, TSL_NO_TRANS, 3, 5, 1, a, 3, c, 3, &info),
               "gels ldb", "ldb");
    expect_bad(tsl_sgels(g_ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, 3, 5, 2, a, 4, c, 2, &info),
               "gels row lda", "lda");
    expect_bad(tsl_sgels(g_ctx, TSL_COL_MAJOR, TSL_NO_TRANS, 4, 4, 1, a, 4, c, 4, NULL),
               "gels info", "info");
    expect_bad(tsl_sgels(g_ctx, TSL_COL_MAJOR, TSL_NO_TRANS, (size_t)1 << 40, 4, 1, a, 4, c, 4,
                         &info),
               "gels m", "m");
    CHECK(!memcmp(a, a0, sizeof a) && !memcmp(c, c0, sizeof c),
          "a rejected call changed the caller's arrays");
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3 || (strcmp(argv[1], "qr") && strcmp(argv[1], "errors"))) {
        fprintf(stderr, "usage: test_qr qr|errors [GEQRF_VARIANT]\n");
        return 2;
    }
    const char *env = getenv("TSL_TEST_SEED");
    if (env && *env) g_seed = strtoull(env, NULL, 10);
    tsl_status st = tsl_context_create(NULL, &g_ctx);
    CHECK(st == TSL_OK && g_ctx, "tsl_context_create: %s: %s", tsl_status_name(st),
          tsl_last_error());
    if (st != TSL_OK) return check_summary("test_qr");
    tsl_device_info info;
    tsl_context_device(g_ctx, &info);
    g_fp64 = info.fp64;
    if (argc == 3) {
        st = tsl_context_set_variant(g_ctx, "geqrf", argv[2]);
        CHECK(st == TSL_OK, "geqrf variant %s: %s", argv[2], tsl_context_error(g_ctx));
    }
    if (!strcmp(argv[1], "qr") && argc == 3 && !strcmp(argv[2], "columns")) run_tall();
    else if (!strcmp(argv[1], "qr")) run_qr();
    if (!strcmp(argv[1], "errors")) run_errors();
    tsl_context_destroy(g_ctx);
    return check_summary("test_qr");
}
