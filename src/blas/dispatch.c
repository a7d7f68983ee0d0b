/* dispatch.c: the device side of each drop-in routine: its flop count and the bytes a device
 * call moves (the cost model's inputs, docs/level3.md's formulas), the route's decision, the tsl_*
 * call, and the fallback to the CPU when the device fails. Every precision of a routine is one
 * function: the caller's prec picks the tsl_s*, tsl_d*, tsl_c* or tsl_z* entry. A complex call
 * counts the real flops of its product (4 real multiply-adds per complex one: 4 times the real
 * routine's count) and the bytes of its complex operands, and is rated by the cost model at its
 * real precision (route.h). */
#include "blas/dispatch.h"

#include <stdlib.h>
#include <string.h>

#define F(p) (*(const float *)(p))
#define D(p) (*(const double *)(p))

/* Bytes of one element: a complex one is two reals. */
static size_t esize(char prec)
{
    size_t real = tsl__blas_prec_double(prec) ? sizeof(double) : sizeof(float);
    return tsl__blas_prec_complex(prec) ? 2 * real : real;
}

/* Real flops per flop of the real routine's count: a complex multiply-add is four real ones. */
static double flop_factor(char prec)
{
    return tsl__blas_prec_complex(prec) ? 4.0 : 1.0;
}

/* The real precision of prec: the type of HERK's and HER2K's real scalars. */
static char real_prec(char prec)
{
    return tsl__blas_prec_double(prec) ? 'd' : 's';
}

/* Whether a scalar of prec is zero (both parts of a complex one). */
static int scalar_zero(char prec, const void *x)
{
    if (prec == 'd') return D(x) == 0.0;
    if (prec == 's') return F(x) == 0.0f;
    if (prec == 'z') return D(x) == 0.0 && ((const double *)x)[1] == 0.0;
    return F(x) == 0.0f && ((const float *)x)[1] == 0.0f;
}

/* Output bytes count twice when the routine reads them too (beta != 0, or an in-place B). */
static int reads_c(char prec, const void *beta)
{
    return !scalar_zero(prec, beta);
}

/* The route's decision; then the device call through run(); then the bookkeeping. */
typedef tsl_status (*run_fn)(tsl_context *ctx, void *args);

static int dispatch(tsl__blas_stat *st, char prec, tsl__blas_kind kind, double flops,
                    double bytes, run_fn run, void *args)
{
    tsl__blas_call call = {st, kind, prec, flops, bytes, 0};
    tsl_context *ctx = tsl__blas_device_begin(&call);
    if (!ctx) return 0;
    return tsl__blas_device_end(&call, ctx, run(ctx, args));
}

/* ---- GEMM ---------------------------------------------------------------------------------- */
typedef struct {
    char prec;
    tsl_layout layout;
    tsl_trans ta, tb;
    size_t m, n, k, lda, ldb, ldc;
    const void *alpha, *a, *b, *beta;
    void *c;
    int form3m; /* complex: the 3M form (the 3M names) */
} gemm_args;

/* A complex call of the 3M names (OpenBLAS's cgemm3m_, zgemm3m_ and their cblas_ twins, whose
 * statistics are named after them) runs libtessel's 3M form, every other one the 4M form. The
 * context is this call's alone (the pool's slot), so the variant is set for the call and put
 * back after it. */
static int is_3m(const tsl__blas_stat *st)
{
    size_t n = strlen(st->name);
    return n >= 6 && strcmp(st->name + n - 6, "gemm3m") == 0;
}

static tsl_status gemm_call(tsl_context *ctx, const gemm_args *g)
{
    if (tsl__blas_prec_complex(g->prec)) {
        tsl_status s = TSL_OK;
        if (g->form3m) s = tsl_context_set_variant(ctx, "complex_gemm", "3m");
        if (s == TSL_OK)
            s = (g->prec == 'z' ? tsl_zgemm : tsl_cgemm)(ctx, g->layout, g->ta, g->tb, g->m, g->n,
                                                         g->k, g->alpha, g->a, g->lda, g->b, g->ldb,
                                                         g->beta, g->c, g->ldc);
        if (g->form3m) tsl_context_set_variant(ctx, "complex_gemm", "4m");
        return s;
    }
    if (g->prec == 'd')
        return tsl_dgemm(ctx, g->layout, g->ta, g->tb, g->m, g->n, g->k, D(g->alpha), g->a, g->lda,
                         g->b, g->ldb, D(g->beta), g->c, g->ldc);
    return tsl_sgemm(ctx, g->layout, g->ta, g->tb, g->m, g->n, g->k, F(g->alpha), g->a, g->lda,
                     g->b, g->ldb, F(g->beta), g->c, g->ldc);
}

/* The device memory one call of the drop-in may fill: TESSEL_BLAS_DEVICE_MEMORY (bytes) if set,
 * else half the device's global memory, leaving the rest to libtessel's staging and workspaces.
 * Each operand block must also fit one buffer (max_alloc). */
static void memory_budget(tsl_context *ctx, double *total, double *one)
{
    tsl_device_info info;
    *total = 1e30;
    *one = 1e30;
    if (tsl_context_device(ctx, &info) == TSL_OK) {
        *total = 0.5 * (double)info.global_mem;
        *one = 0.9 * (double)info.max_alloc;
    }
    const char *env = getenv("TESSEL_BLAS_DEVICE_MEMORY");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (end != env && v >= 1024) *total = *one = v;
    }
}

/* Whether blocks of op(A) (m x k), op(B) (k x n) and C (m x n) of prec fit the budget together
 * and each one buffer. A complex GEMM's workspaces are counted too (docs/gemm.md, "Complex
 * GEMM"): B2, the real 2k x 2n expansion of op(B), twice B's bytes, and a packed copy of op(A)
 * (when A is transposed: counted always). */
static int blocks_fit(char prec, double total, double one, size_t m, size_t n, size_t k)
{
    double es = (double)esize(prec);
    double a = es * (double)m * (double)k, b = es * (double)k * (double)n;
    double c = es * (double)m * (double)n;
    int cplx = tsl__blas_prec_complex(prec);
    double work = cplx ? a + 2 * b : 0, widest_b = cplx ? 2 * b : b;
    return a + b + c + work <= total && a <= one && widest_b <= one && c <= one;
}

/* Halves the largest of the block sizes until the three blocks fit the budget. */
static void fit_blocks(char prec, double total, double one, size_t *mb, size_t *nb, size_t *kb)
{
    while (!blocks_fit(prec, total, one, *mb, *nb, *kb) && !(*mb <= 16 && *nb <= 16 && *kb <= 16)) {
        size_t *big = *mb >= *nb && *mb >= *kb ? mb : *nb >= *kb ? nb : kb;
        *big = (*big + 1) / 2;
    }
}

/* A GEMM whose operands do not fit the device (operands larger than its memory: host-memory
 * streaming, docs/dropin.md): column-major C = alpha op(A) op(B) + beta C in blocks of C (mb x nb)
 * and of k (kb), each one tsl call on sub-matrices of the caller's arrays (the leading dimensions
 * stay; op(A)'s block [i, p] is A at (i, p), or at (p, i) when transposed). Within a block of C the
 * first k block applies beta, the next ones add (beta 1). Each real call streams through
 * libtessel's host pipeline; a complex one (tsl_cgemm, tsl_zgemm) uploads its blocks, computes
 * and reads C back. Row-major calls arrive as their column-major transposes. */
static tsl_status run_gemm(tsl_context *ctx, void *p)
{
    gemm_args *g = p;
    double total, one;
    memory_budget(ctx, &total, &one);
    gemm_args cm = *g; /* column-major view */
    if (g->layout == TSL_ROW_MAJOR)
        cm = (gemm_args){g->prec, TSL_COL_MAJOR, g->tb, g->ta, g->n, g->m, g->k, g->ldb,
                         g->lda, g->ldc, g->alpha, g->b, g->a, g->beta, g->c, g->form3m};
    size_t mb = cm.m, nb = cm.n, kb = cm.k;
    fit_blocks(g->prec, total, one, &mb, &nb, &kb);
    if (mb == cm.m && nb == cm.n && kb == cm.k) return gemm_call(ctx, g);
    const char *a = cm.a, *b = cm.b;
    char *c = cm.c;
    size_t e = esize(g->prec);
    static const float one_f[2] = {1.0f, 0.0f}; /* 1, real or complex */
    static const double one_d[2] = {1.0, 0.0};
    for (size_t j = 0; j < cm.n; j += nb)
        for (size_t i = 0; i < cm.m; i += mb)
            for (size_t q = 0; q < cm.k; q += kb) {
                gemm_args blk = cm;
                blk.m = cm.m - i < mb ? cm.m - i : mb;
                blk.n = cm.n - j < nb ? cm.n - j : nb;
                blk.k = cm.k - q < kb ? cm.k - q : kb;
                blk.a = a + e * (cm.ta == TSL_NO_TRANS ? i + q * cm.lda : q + i * cm.lda);
                blk.b = b + e * (cm.tb == TSL_NO_TRANS ? q + j * cm.ldb : j + q * cm.ldb);
                blk.c = c + e * (i + j * cm.ldc);
                if (q > 0)
                    blk.beta =
                        tsl__blas_prec_double(g->prec) ? (const void *)one_d : (const void *)one_f;
                tsl_status s = gemm_call(ctx, &blk);
                if (s != TSL_OK) return s;
            }
    return TSL_OK;
}

/* Whole operands on each device of a group: the group splits C's rows, and every device holds B
 * whole and its block of A and C; a call that does not fit one device's budget goes to one device
 * in blocks instead (run_gemm). */
static int group_fits(tsl_group *grp, const gemm_args *g)
{
    double total, one;
    memory_budget(tsl_group_context(grp, 0), &total, &one);
    return blocks_fit(g->prec, total, one, g->m, g->n, g->k);
}

static tsl_status group_gemm(tsl_group *grp, const gemm_args *g)
{
    if (g->prec == 'd')
        return tsl_group_dgemm(grp, g->layout, g->ta, g->tb, g->m, g->n, g->k, D(g->alpha), g->a,
                               g->lda, g->b, g->ldb, D(g->beta), g->c, g->ldc);
    return tsl_group_sgemm(grp, g->layout, g->ta, g->tb, g->m, g->n, g->k, F(g->alpha), g->a,
                           g->lda, g->b, g->ldb, F(g->beta), g->c, g->ldc);
}

int tsl__blas_dev_gemm(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_trans transa,
                       tsl_trans transb, size_t m, size_t n, size_t k, const void *alpha,
                       const void *a, size_t lda, const void *b, size_t ldb, const void *beta,
                       void *c, size_t ldc)
{
    gemm_args g = {prec, layout, transa, transb, m, n,    k, lda,
                   ldb,  ldc,    alpha,  a,      b, beta, c, is_3m(st)};
    double e = (double)esize(prec);
    double bytes = e * ((double)m * k + (double)k * n + (double)m * n * (1 + reads_c(prec, beta)));
    double flops = (tsl__blas_prec_complex(prec) ? 8.0 : 2.0) * m * n * k;
    tsl__blas_call call = {st, TSL__BLAS_L3, prec, flops, bytes, 0};
    /* several devices, a call worth splitting; a group has real GEMMs only, so a complex call
     * runs on one device */
    tsl_group *grp = tsl__blas_prec_complex(prec) ? NULL : tsl__blas_group_begin(&call);
    if (grp) {
        if (group_fits(grp, &g)) return tsl__blas_group_end(&call, grp, group_gemm(grp, &g));
        tsl__blas_group_cancel(&call, grp); /* one device next, in blocks */
    }
    return dispatch(st, prec, TSL__BLAS_L3, call.flops, bytes, run_gemm, &g);
}

/* ---- SYMM and HEMM ------------------------------------------------------------------------- */
typedef struct {
    char prec;
    int herm; /* HEMM */
    tsl_layout layout;
    tsl_side side;
    tsl_uplo uplo;
    size_t m, n, lda, ldb, ldc;
    const void *alpha, *a, *b, *beta;
    void *c;
} symm_args;

static tsl_status run_symm(tsl_context *ctx, void *p)
{
    symm_args *s = p;
    if (s->prec == 'z')
        return (s->herm ? tsl_zhemm : tsl_zsymm)(ctx, s->layout, s->side, s->uplo, s->m, s->n,
                                                 s->alpha, s->a, s->lda, s->b, s->ldb, s->beta,
                                                 s->c, s->ldc);
    if (s->prec == 'c')
        return (s->herm ? tsl_chemm : tsl_csymm)(ctx, s->layout, s->side, s->uplo, s->m, s->n,
                                                 s->alpha, s->a, s->lda, s->b, s->ldb, s->beta,
                                                 s->c, s->ldc);
    if (s->prec == 'd')
        return tsl_dsymm(ctx, s->layout, s->side, s->uplo, s->m, s->n, D(s->alpha), s->a, s->lda,
                         s->b, s->ldb, D(s->beta), s->c, s->ldc);
    return tsl_ssymm(ctx, s->layout, s->side, s->uplo, s->m, s->n, F(s->alpha), s->a, s->lda,
                     s->b, s->ldb, F(s->beta), s->c, s->ldc);
}

static int dev_symm(tsl__blas_stat *st, char prec, int herm, tsl_layout layout, tsl_side side,
                    tsl_uplo uplo, size_t m, size_t n, const void *alpha, const void *a, size_t lda,
                    const void *b, size_t ldb, const void *beta, void *c, size_t ldc)
{
    symm_args s = {prec, herm, layout, side, uplo, m, n, lda, ldb, ldc, alpha, a, b, beta, c};
    double ka = side == TSL_LEFT ? (double)m : (double)n;
    double e = (double)esize(prec);
    double bytes = e * (ka * ka + (double)m * n * (2 + reads_c(prec, beta)));
    return dispatch(st, prec, TSL__BLAS_L3, flop_factor(prec) * 2.0 * m * n * ka, bytes, run_symm,
                    &s);
}

int tsl__blas_dev_symm(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_side side,
                       tsl_uplo uplo, size_t m, size_t n, const void *alpha, const void *a,
                       size_t lda, const void *b, size_t ldb, const void *beta, void *c,
                       size_t ldc)
{
    return dev_symm(st, prec, 0, layout, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

int tsl__blas_dev_hemm(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_side side,
                       tsl_uplo uplo, size_t m, size_t n, const void *alpha, const void *a,
                       size_t lda, const void *b, size_t ldb, const void *beta, void *c,
                       size_t ldc)
{
    return dev_symm(st, prec, 1, layout, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* ---- SYRK, SYR2K, HERK, HER2K -------------------------------------------------------------- */
typedef struct {
    char prec;
    int two;  /* SYR2K, HER2K */
    int herm; /* HERK (alpha and beta real), HER2K (beta real) */
    tsl_layout layout;
    tsl_uplo uplo;
    tsl_trans trans;
    size_t n, k, lda, ldb, ldc;
    const void *alpha, *a, *b, *beta;
    void *c;
} syrk_args;

static tsl_status run_syrk(tsl_context *ctx, void *p)
{
    syrk_args *s = p;
    int z = s->prec == 'z';
    if (s->herm && s->two && z)
        return tsl_zher2k(ctx, s->layout, s->uplo, s->trans, s->n, s->k, s->alpha, s->a, s->lda,
                          s->b, s->ldb, D(s->beta), s->c, s->ldc);
    if (s->herm && s->two)
        return tsl_cher2k(ctx, s->layout, s->uplo, s->trans, s->n, s->k, s->alpha, s->a, s->lda,
                          s->b, s->ldb, F(s->beta), s->c, s->ldc);
    if (s->herm && z)
        return tsl_zherk(ctx, s->layout, s->uplo, s->trans, s->n, s->k, D(s->alpha), s->a, s->lda,
                         D(s->beta), s->c, s->ldc);
    if (s->herm)
        return tsl_cherk(ctx, s->layout, s->uplo, s->trans, s->n, s->k, F(s->alpha), s->a, s->lda,
                         F(s->beta), s->c, s->ldc);
    if (tsl__blas_prec_complex(s->prec) && s->two)
        return (z ? tsl_zsyr2k : tsl_csyr2k)(ctx, s->layout, s->uplo, s->trans, s->n, s->k,
                                             s->alpha, s->a, s->lda, s->b, s->ldb, s->beta, s->c,
                                             s->ldc);
    if (tsl__blas_prec_complex(s->prec))
        return (z ? tsl_zsyrk : tsl_csyrk)(ctx, s->layout, s->uplo, s->trans, s->n, s->k, s->alpha,
                                           s->a, s->lda, s->beta, s->c, s->ldc);
    if (s->two && s->prec == 'd')
        return tsl_dsyr2k(ctx, s->layout, s->uplo, s->trans, s->n, s->k, D(s->alpha), s->a,
                          s->lda, s->b, s->ldb, D(s->beta), s->c, s->ldc);
    if (s->two)
        return tsl_ssyr2k(ctx, s->layout, s->uplo, s->trans, s->n, s->k, F(s->alpha), s->a,
                          s->lda, s->b, s->ldb, F(s->beta), s->c, s->ldc);
    if (s->prec == 'd')
        return tsl_dsyrk(ctx, s->layout, s->uplo, s->trans, s->n, s->k, D(s->alpha), s->a,
                         s->lda, D(s->beta), s->c, s->ldc);
    return tsl_ssyrk(ctx, s->layout, s->uplo, s->trans, s->n, s->k, F(s->alpha), s->a, s->lda,
                     F(s->beta), s->c, s->ldc);
}

static int dev_syrk(tsl__blas_stat *st, char prec, int two, int herm, tsl_layout layout,
                    tsl_uplo uplo, tsl_trans trans, size_t n, size_t k, const void *alpha,
                    const void *a, size_t lda, const void *b, size_t ldb, const void *beta, void *c,
                    size_t ldc)
{
    syrk_args s = {prec, two, herm, layout, uplo, trans, n, k, lda, ldb, ldc, alpha, a, b, beta, c};
    double e = (double)esize(prec);
    int rc = reads_c(herm ? real_prec(prec) : prec, beta);
    double bytes = e * ((1 + two) * (double)n * k + (double)n * n * (1 + rc));
    double flops = flop_factor(prec) * (1 + two) * (double)n * (n + 1.0) * k;
    return dispatch(st, prec, TSL__BLAS_L3, flops, bytes, run_syrk, &s);
}

int tsl__blas_dev_syrk(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_uplo uplo,
                       tsl_trans trans, size_t n, size_t k, const void *alpha, const void *a,
                       size_t lda, const void *beta, void *c, size_t ldc)
{
    return dev_syrk(st, prec, 0, 0, layout, uplo, trans, n, k, alpha, a, lda, NULL, 0, beta, c,
                    ldc);
}

int tsl__blas_dev_syr2k(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_uplo uplo,
                        tsl_trans trans, size_t n, size_t k, const void *alpha, const void *a,
                        size_t lda, const void *b, size_t ldb, const void *beta, void *c,
                        size_t ldc)
{
    return dev_syrk(st, prec, 1, 0, layout, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

int tsl__blas_dev_herk(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_uplo uplo,
                       tsl_trans trans, size_t n, size_t k, const void *alpha, const void *a,
                       size_t lda, const void *beta, void *c, size_t ldc)
{
    return dev_syrk(st, prec, 0, 1, layout, uplo, trans, n, k, alpha, a, lda, NULL, 0, beta, c,
                    ldc);
}

int tsl__blas_dev_her2k(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_uplo uplo,
                        tsl_trans trans, size_t n, size_t k, const void *alpha, const void *a,
                        size_t lda, const void *b, size_t ldb, const void *beta, void *c,
                        size_t ldc)
{
    return dev_syrk(st, prec, 1, 1, layout, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* ---- TRMM and TRSM ------------------------------------------------------------------------- */
typedef struct {
    char prec;
    int solve;
    tsl_layout layout;
    tsl_side side;
    tsl_uplo uplo;
    tsl_trans trans;
    tsl_diag diag;
    size_t m, n, lda, ldb;
    const void *alpha, *a;
    void *b;
} trxm_args;

static tsl_status run_trxm(tsl_context *ctx, void *p)
{
    trxm_args *t = p;
    if (t->prec == 'z')
        return (t->solve ? tsl_ztrsm : tsl_ztrmm)(ctx, t->layout, t->side, t->uplo, t->trans,
                                                  t->diag, t->m, t->n, t->alpha, t->a, t->lda,
                                                  t->b, t->ldb);
    if (t->prec == 'c')
        return (t->solve ? tsl_ctrsm : tsl_ctrmm)(ctx, t->layout, t->side, t->uplo, t->trans,
                                                  t->diag, t->m, t->n, t->alpha, t->a, t->lda,
                                                  t->b, t->ldb);
    if (t->prec == 'd')
        return (t->solve ? tsl_dtrsm : tsl_dtrmm)(ctx, t->layout, t->side, t->uplo, t->trans,
                                                  t->diag, t->m, t->n, D(t->alpha), t->a, t->lda,
                                                  t->b, t->ldb);
    return (t->solve ? tsl_strsm : tsl_strmm)(ctx, t->layout, t->side, t->uplo, t->trans, t->diag,
                                              t->m, t->n, F(t->alpha), t->a, t->lda, t->b, t->ldb);
}

int tsl__blas_dev_trxm(tsl__blas_stat *st, char prec, int solve, tsl_layout layout, tsl_side side,
                       tsl_uplo uplo, tsl_trans trans, tsl_diag diag, size_t m, size_t n,
                       const void *alpha, const void *a, size_t lda, void *b, size_t ldb)
{
    trxm_args t = {prec, solve, layout, side, uplo, trans, diag, m, n, lda, ldb, alpha, a, b};
    double ka = side == TSL_LEFT ? (double)m : (double)n;
    double e = (double)esize(prec);
    double bytes = e * (ka * ka + 2.0 * m * n);
    return dispatch(st, prec, TSL__BLAS_L3, flop_factor(prec) * ka * m * n, bytes, run_trxm, &t);
}

/* ---- Level 2 and Level 1, unit strides ------------------------------------------------------ */
typedef struct {
    char prec;
    tsl_layout layout;
    tsl_trans trans;
    size_t m, n, lda;
    const void *alpha, *a, *x, *beta;
    void *y;
} gemv_args;

static tsl_status run_gemv(tsl_context *ctx, void *p)
{
    gemv_args *g = p;
    if (g->prec == 'd')
        return tsl_dgemv(ctx, g->layout, g->trans, g->m, g->n, D(g->alpha), g->a, g->lda, g->x,
                         D(g->beta), g->y);
    return tsl_sgemv(ctx, g->layout, g->trans, g->m, g->n, F(g->alpha), g->a, g->lda, g->x,
                     F(g->beta), g->y);
}

int tsl__blas_dev_gemv(tsl__blas_stat *st, char prec, tsl_layout layout, tsl_trans trans,
                       size_t m, size_t n, const void *alpha, const void *a, size_t lda,
                       const void *x, const void *beta, void *y)
{
    gemv_args g = {prec, layout, trans, m, n, lda, alpha, a, x, beta, y};
    double e = (double)esize(prec);
    double ylen = trans == TSL_NO_TRANS ? (double)m : (double)n;
    double bytes = e * ((double)m * n + (double)m + n + ylen * reads_c(prec, beta));
    return dispatch(st, prec, TSL__BLAS_L2, 2.0 * m * n, bytes, run_gemv, &g);
}

typedef struct {
    char prec, what; /* 'a' axpy, 'd' dot, 'n' nrm2 */
    size_t n;
    const void *alpha, *x, *y;
    void *out; /* y for axpy, the result otherwise */
} vec_args;

static tsl_status run_vec(tsl_context *ctx, void *p)
{
    vec_args *v = p;
    int d = v->prec == 'd';
    switch (v->what) {
    case 'a':
        return d ? tsl_daxpy(ctx, v->n, D(v->alpha), v->x, v->out)
                 : tsl_saxpy(ctx, v->n, F(v->alpha), v->x, v->out);
    case 'd':
        return d ? tsl_ddot(ctx, v->n, v->x, v->y, v->out) : tsl_sdot(ctx, v->n, v->x, v->y, v->out);
    default:
        return d ? tsl_dnrm2(ctx, v->n, v->x, v->out) : tsl_snrm2(ctx, v->n, v->x, v->out);
    }
}

static int dev_vec(tsl__blas_stat *st, char prec, char what, size_t n, const void *alpha,
                   const void *x, const void *y, void *out, double vectors)
{
    vec_args v = {prec, what, n, alpha, x, y, out};
    return dispatch(st, prec, TSL__BLAS_L1, 2.0 * n, vectors * n * esize(prec), run_vec, &v);
}

int tsl__blas_dev_axpy(tsl__blas_stat *st, char prec, size_t n, const void *alpha, const void *x,
                       void *y)
{
    return dev_vec(st, prec, 'a', n, alpha, x, NULL, y, 3);
}

int tsl__blas_dev_dot(tsl__blas_stat *st, char prec, size_t n, const void *x, const void *y,
                      void *result)
{
    return dev_vec(st, prec, 'd', n, NULL, x, y, result, 2);
}

int tsl__blas_dev_nrm2(tsl__blas_stat *st, char prec, size_t n, const void *x, void *result)
{
    return dev_vec(st, prec, 'n', n, NULL, x, NULL, result, 1);
}

/* ---- LAPACK ------------------------------------------------------------------------------------ */

/* LAPACK's flop counts (mults and adds): an LU of m x n, max(m,n) min^2 - min^3 / 3; a Cholesky
 * n^3 / 3; each solve with the factors 2 n^2 nrhs; a QR 2 max min^2 - 2 min^3 / 3; Q applied
 * to C (m x n) from k reflectors 4 m n k - 2 k^2 (n or m); least squares a QR and Q^T B. */
static double lapack_flops(const tsl__blas_lapack_args *l)
{
    double m = (double)l->m, n = (double)l->n, k = m < n ? m : n, big = m < n ? n : m;
    double solve = 2.0 * n * n * (double)l->nrhs, r = (double)l->nrhs;
    double qr = 2.0 * big * k * k - 2.0 / 3.0 * k * k * k;
    switch (l->op) {
    case TSL__LAPACK_GEQRF: return qr;
    case TSL__LAPACK_ORMQR: {
        double kk = (double)l->k, other = l->side == TSL_LEFT ? n : m;
        return 4.0 * m * n * kk - 2.0 * kk * kk * other;
    }
    case TSL__LAPACK_GELS: return qr + 4.0 * big * k * r + k * k * r;
    case TSL__LAPACK_DSPOSV: return n * n * n / 3.0 + solve;
    case TSL__LAPACK_GETRF: return big * k * k - k * k * k / 3.0;
    case TSL__LAPACK_GESV:
    case TSL__LAPACK_DSGESV: return 2.0 / 3.0 * n * n * n + solve;
    case TSL__LAPACK_POTRF: return n * n * n / 3.0;
    case TSL__LAPACK_POSV: return n * n * n / 3.0 + solve;
    default: return solve; /* getrs, potrs */
    }
}

static tsl_status lapack_call(tsl_context *ctx, char prec, const tsl__blas_lapack_args *l)
{
    const tsl_layout c = TSL_COL_MAJOR;
    int d = prec == 'd';
    switch (l->op) {
    case TSL__LAPACK_GETRF:
        return d ? tsl_dgetrf(ctx, c, l->m, l->n, l->a, l->lda, l->ipiv, l->info)
                 : tsl_sgetrf(ctx, c, l->m, l->n, l->a, l->lda, l->ipiv, l->info);
    case TSL__LAPACK_GETRS:
        return d ? tsl_dgetrs(ctx, c, l->trans, l->n, l->nrhs, l->a, l->lda, l->ipiv, l->b, l->ldb)
                 : tsl_sgetrs(ctx, c, l->trans, l->n, l->nrhs, l->a, l->lda, l->ipiv, l->b, l->ldb);
    case TSL__LAPACK_GESV:
        return d ? tsl_dgesv(ctx, c, l->n, l->nrhs, l->a, l->lda, l->ipiv, l->b, l->ldb, l->info)
                 : tsl_sgesv(ctx, c, l->n, l->nrhs, l->a, l->lda, l->ipiv, l->b, l->ldb, l->info);
    case TSL__LAPACK_POTRF:
        return d ? tsl_dpotrf(ctx, c, l->uplo, l->n, l->a, l->lda, l->info)
                 : tsl_spotrf(ctx, c, l->uplo, l->n, l->a, l->lda, l->info);
    case TSL__LAPACK_DSGESV:
        return tsl_dsgesv(ctx, c, l->n, l->nrhs, l->a, l->lda, l->ipiv, l->b, l->ldb, l->x,
                          l->ldx, l->iter, l->info);
    case TSL__LAPACK_DSPOSV:
        return tsl_dsposv(ctx, c, l->uplo, l->n, l->nrhs, l->a, l->lda, l->b, l->ldb, l->x,
                          l->ldx, l->iter, l->info);
    case TSL__LAPACK_GEQRF:
        return d ? tsl_dgeqrf(ctx, c, l->m, l->n, l->a, l->lda, l->tau)
                 : tsl_sgeqrf(ctx, c, l->m, l->n, l->a, l->lda, l->tau);
    case TSL__LAPACK_ORMQR:
        return d ? tsl_dormqr(ctx, c, l->side, l->trans, l->m, l->n, l->k, l->a, l->lda, l->tau,
                              l->b, l->ldb)
                 : tsl_sormqr(ctx, c, l->side, l->trans, l->m, l->n, l->k, l->a, l->lda, l->tau,
                              l->b, l->ldb);
    case TSL__LAPACK_GELS:
        return d ? tsl_dgels(ctx, c, l->trans, l->m, l->n, l->nrhs, l->a, l->lda, l->b, l->ldb,
                             l->info)
                 : tsl_sgels(ctx, c, l->trans, l->m, l->n, l->nrhs, l->a, l->lda, l->b, l->ldb,
                             l->info);
    case TSL__LAPACK_POTRS:
        return d ? tsl_dpotrs(ctx, c, l->uplo, l->n, l->nrhs, l->a, l->lda, l->b, l->ldb)
                 : tsl_spotrs(ctx, c, l->uplo, l->n, l->nrhs, l->a, l->lda, l->b, l->ldb);
    default:
        return d ? tsl_dposv(ctx, c, l->uplo, l->n, l->nrhs, l->a, l->lda, l->b, l->ldb, l->info)
                 : tsl_sposv(ctx, c, l->uplo, l->n, l->nrhs, l->a, l->lda, l->b, l->ldb, l->info);
    }
}

int tsl__blas_dev_lapack(tsl__blas_stat *st, char prec, const tsl__blas_lapack_args *l)
{
    /* dsgesv and dsposv are routed at single's rates (prec 's': their factorization) but move
     * doubles */
    int mixed = l->op == TSL__LAPACK_DSGESV || l->op == TSL__LAPACK_DSPOSV;
    double e = mixed ? 8.0 : (double)esize(prec), m = (double)l->m, n = (double)l->n;
    double mat = e * m * n, rhs = e * n * (double)l->nrhs;
    if (l->op == TSL__LAPACK_ORMQR) /* A the reflectors (nq x k), the "right-hand side" C */
        mat = e * (l->side == TSL_LEFT ? m : n) * (double)l->k, rhs = e * m * n;
    if (l->op == TSL__LAPACK_GELS) rhs = e * (m > n ? m : n) * (double)l->nrhs;
    int factors = l->op != TSL__LAPACK_GETRS && l->op != TSL__LAPACK_POTRS &&
                  l->op != TSL__LAPACK_ORMQR;
    /* in and out: A when it is factored (the solvers only read it), B always */
    double bytes = mat * (factors ? 2.0 : 1.0) + 2.0 * rhs;
    /* A solve alone is two triangular solves: the GEMM-like kind; the rest a factorization */
    tsl__blas_call call = {.stat = st,
                           .kind = factors ? TSL__BLAS_FACTOR : TSL__BLAS_L3,
                           .prec = prec,
                           .flops = lapack_flops(l),
                           .host_bytes = bytes};
    tsl_context *ctx = tsl__blas_device_begin(&call);
    if (!ctx) return 0;
    double total, one;
    memory_budget(ctx, &total, &one);
    /* the matrices, and as much again for the updates' workspaces */
    if (2.0 * (mat + rhs) > total || mat > one) {
        tsl__blas_device_cancel(&call, ctx);
        return 0;
    }
    return tsl__blas_device_end(&call, ctx, lapack_call(ctx, prec, l));
}
