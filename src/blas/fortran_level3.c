/* fortran_level3.c: the Fortran Level-3 symbols that can run on the device (s/d gemm, symm, syrk,
 * syr2k, trmm, trsm). Each checks its arguments exactly as the reference BLAS does, in the same
 * order and with the same positions, reporting the first bad one through xerbla_; takes the
 * reference quick returns; then offers the call to the device (dispatch.h) and, when the route
 * or the device declines, runs the CPU BLAS's own symbol with the caller's arguments.
 * The device never sees alpha == 0 or k == 0: then the result is beta*C (or zero), which the
 * reference computes without reading A or B (they may hold NaN or be unset); it is computed here
 * (tsl__blas_scale), since a CPU BLAS may get it wrong. Fortran arrays are column-major, and 'C'
 * means transpose for real matrices. The check-and-route part of both precisions is one function;
 * the exported symbol adds the typed CPU call. */
#include "blas/dispatch.h"
#include "blas/fortran.h"

/* What a routine's check-and-route part leaves to its caller. */
enum { DONE = 0, RUN_CPU = 1 };

static int max1(tsl__blas_int x)
{
    return x > 1 ? x : 1;
}

static int is_trans(char t)
{
    return tsl__blas_lsame(t, 'N') || tsl__blas_lsame(t, 'T') || tsl__blas_lsame(t, 'C');
}

static tsl_trans trans_of(char t)
{
    return tsl__blas_lsame(t, 'N') ? TSL_NO_TRANS : TSL_TRANS;
}

static tsl_uplo uplo_of(char u)
{
    return tsl__blas_lsame(u, 'U') ? TSL_UPPER : TSL_LOWER;
}

static tsl_side side_of(char s)
{
    return tsl__blas_lsame(s, 'L') ? TSL_LEFT : TSL_RIGHT;
}

static tsl_diag diag_of(char d)
{
    return tsl__blas_lsame(d, 'U') ? TSL_UNIT : TSL_NON_UNIT;
}

/* ---- GEMM: C = alpha op(A) op(B) + beta C ------------------------------------------------- */
static int gemm(tsl__blas_stat *st, char prec, const char *name, char ta, char tb, tsl__blas_int m,
                tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta, void *c,
                tsl__blas_int ldc)
{
    int nota = tsl__blas_lsame(ta, 'N'), notb = tsl__blas_lsame(tb, 'N');
    tsl__blas_int nrowa = nota ? m : k, nrowb = notb ? k : n;
    int info = 0;
    if (!is_trans(ta))
        info = 1;
    else if (!is_trans(tb))
        info = 2;
    else if (m < 0)
        info = 3;
    else if (n < 0)
        info = 4;
    else if (k < 0)
        info = 5;
    else if (lda < max1(nrowa))
        info = 8;
    else if (ldb < max1(nrowb))
        info = 10;
    else if (ldc < max1(m))
        info = 13;
    if (info) {
        tsl__blas_xerbla(name, info);
        return DONE;
    }
    int no_product = tsl__blas_is_zero(prec, alpha) || k == 0;
    if (m == 0 || n == 0 || (no_product && tsl__blas_is_one(prec, beta))) return DONE;
    if (no_product) {
        tsl__blas_scale(st, prec, 0, m, n, beta, c, ldc);
        return DONE;
    }
    return tsl__blas_dev_gemm(st, prec, TSL_COL_MAJOR, trans_of(ta), trans_of(tb), (size_t)m,
                              (size_t)n, (size_t)k, alpha, a, (size_t)lda, b, (size_t)ldb, beta, c,
                              (size_t)ldc)
               ? DONE
               : RUN_CPU;
}

TSL_BLAS_API void sgemm_(const char *transa, const char *transb, const tsl__blas_int *m,
                         const tsl__blas_int *n, const tsl__blas_int *k, const float *alpha,
                         const float *a, const tsl__blas_int *lda, const float *b,
                         const tsl__blas_int *ldb, const float *beta, float *c,
                         const tsl__blas_int *ldc, size_t transa_len, size_t transb_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("sgemm");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("sgemm_");
    if (gemm(&st, 's', "SGEMM", *transa, *transb, *m, *n, *k, alpha, a, *lda, b, *ldb, beta, c,
             *ldc) == DONE)
        return;
    tsl__blas_sgemm_fn *f = (tsl__blas_sgemm_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, transa_len, transb_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

TSL_BLAS_API void dgemm_(const char *transa, const char *transb, const tsl__blas_int *m,
                         const tsl__blas_int *n, const tsl__blas_int *k, const double *alpha,
                         const double *a, const tsl__blas_int *lda, const double *b,
                         const tsl__blas_int *ldb, const double *beta, double *c,
                         const tsl__blas_int *ldc, size_t transa_len, size_t transb_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("dgemm");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("dgemm_");
    if (gemm(&st, 'd', "DGEMM", *transa, *transb, *m, *n, *k, alpha, a, *lda, b, *ldb, beta, c,
             *ldc) == DONE)
        return;
    tsl__blas_dgemm_fn *f = (tsl__blas_dgemm_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, transa_len, transb_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

/* ---- SYMM: C = alpha A B + beta C (side L) or alpha B A + beta C, A symmetric ---------------- */
static int symm(tsl__blas_stat *st, char prec, const char *name, char side, char uplo,
                tsl__blas_int m, tsl__blas_int n, const void *alpha, const void *a,
                tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta, void *c,
                tsl__blas_int ldc)
{
    tsl__blas_int nrowa = tsl__blas_lsame(side, 'L') ? m : n;
    int info = 0;
    if (!tsl__blas_lsame(side, 'L') && !tsl__blas_lsame(side, 'R'))
        info = 1;
    else if (!tsl__blas_lsame(uplo, 'U') && !tsl__blas_lsame(uplo, 'L'))
        info = 2;
    else if (m < 0)
        info = 3;
    else if (n < 0)
        info = 4;
    else if (lda < max1(nrowa))
        info = 7;
    else if (ldb < max1(m))
        info = 9;
    else if (ldc < max1(m))
        info = 12;
    if (info) {
        tsl__blas_xerbla(name, info);
        return DONE;
    }
    int no_product = tsl__blas_is_zero(prec, alpha);
    if (m == 0 || n == 0 || (no_product && tsl__blas_is_one(prec, beta))) return DONE;
    if (no_product) {
        tsl__blas_scale(st, prec, 0, m, n, beta, c, ldc);
        return DONE;
    }
    return tsl__blas_dev_symm(st, prec, TSL_COL_MAJOR, side_of(side), uplo_of(uplo), (size_t)m,
                              (size_t)n, alpha, a, (size_t)lda, b, (size_t)ldb, beta, c,
                              (size_t)ldc)
               ? DONE
               : RUN_CPU;
}

TSL_BLAS_API void ssymm_(const char *side, const char *uplo, const tsl__blas_int *m,
                         const tsl__blas_int *n, const float *alpha, const float *a,
                         const tsl__blas_int *lda, const float *b, const tsl__blas_int *ldb,
                         const float *beta, float *c, const tsl__blas_int *ldc, size_t side_len,
                         size_t uplo_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("ssymm");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("ssymm_");
    if (symm(&st, 's', "SSYMM", *side, *uplo, *m, *n, alpha, a, *lda, b, *ldb, beta, c, *ldc) ==
        DONE)
        return;
    tsl__blas_ssymm_fn *f = (tsl__blas_ssymm_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, side_len, uplo_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

TSL_BLAS_API void dsymm_(const char *side, const char *uplo, const tsl__blas_int *m,
                         const tsl__blas_int *n, const double *alpha, const double *a,
                         const tsl__blas_int *lda, const double *b, const tsl__blas_int *ldb,
                         const double *beta, double *c, const tsl__blas_int *ldc, size_t side_len,
                         size_t uplo_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("dsymm");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("dsymm_");
    if (symm(&st, 'd', "DSYMM", *side, *uplo, *m, *n, alpha, a, *lda, b, *ldb, beta, c, *ldc) ==
        DONE)
        return;
    tsl__blas_dsymm_fn *f = (tsl__blas_dsymm_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc, side_len, uplo_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

/* ---- SYRK and SYR2K: the uplo triangle of C = alpha A A^T (+ alpha B A^T + alpha A B^T) + beta C
 * (trans N) or with A^T A; the other triangle is never touched. b is NULL for SYRK, whose
 * positions after lda are one fewer. */
static int syrk(tsl__blas_stat *st, char prec, const char *name, char uplo, char trans,
                tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta, void *c,
                tsl__blas_int ldc)
{
    int two = b != NULL;
    tsl__blas_int nrowa = tsl__blas_lsame(trans, 'N') ? n : k;
    int info = 0;
    if (!tsl__blas_lsame(uplo, 'U') && !tsl__blas_lsame(uplo, 'L'))
        info = 1;
    else if (!is_trans(trans))
        info = 2;
    else if (n < 0)
        info = 3;
    else if (k < 0)
        info = 4;
    else if (lda < max1(nrowa))
        info = 7;
    else if (two && ldb < max1(nrowa))
        info = 9;
    else if (ldc < max1(n))
        info = two ? 12 : 10;
    if (info) {
        tsl__blas_xerbla(name, info);
        return DONE;
    }
    int no_product = tsl__blas_is_zero(prec, alpha) || k == 0;
    if (n == 0 || (no_product && tsl__blas_is_one(prec, beta))) return DONE;
    if (no_product) {
        tsl__blas_scale(st, prec, tsl__blas_lsame(uplo, 'U') ? 'U' : 'L', n, n, beta, c, ldc);
        return DONE;
    }
    int done =
        two ? tsl__blas_dev_syr2k(st, prec, TSL_COL_MAJOR, uplo_of(uplo), trans_of(trans),
                                  (size_t)n, (size_t)k, alpha, a, (size_t)lda, b, (size_t)ldb, beta,
                                  c, (size_t)ldc)
            : tsl__blas_dev_syrk(st, prec, TSL_COL_MAJOR, uplo_of(uplo), trans_of(trans), (size_t)n,
                                 (size_t)k, alpha, a, (size_t)lda, beta, c, (size_t)ldc);
    return done ? DONE : RUN_CPU;
}

TSL_BLAS_API void ssyrk_(const char *uplo, const char *trans, const tsl__blas_int *n,
                         const tsl__blas_int *k, const float *alpha, const float *a,
                         const tsl__blas_int *lda, const float *beta, float *c,
                         const tsl__blas_int *ldc, size_t uplo_len, size_t trans_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("ssyrk");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("ssyrk_");
    if (syrk(&st, 's', "SSYRK", *uplo, *trans, *n, *k, alpha, a, *lda, NULL, 0, beta, c, *ldc) ==
        DONE)
        return;
    tsl__blas_ssyrk_fn *f = (tsl__blas_ssyrk_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(uplo, trans, n, k, alpha, a, lda, beta, c, ldc, uplo_len, trans_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

TSL_BLAS_API void dsyrk_(const char *uplo, const char *trans, const tsl__blas_int *n,
                         const tsl__blas_int *k, const double *alpha, const double *a,
                         const tsl__blas_int *lda, const double *beta, double *c,
                         const tsl__blas_int *ldc, size_t uplo_len, size_t trans_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("dsyrk");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("dsyrk_");
    if (syrk(&st, 'd', "DSYRK", *uplo, *trans, *n, *k, alpha, a, *lda, NULL, 0, beta, c, *ldc) ==
        DONE)
        return;
    tsl__blas_dsyrk_fn *f = (tsl__blas_dsyrk_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(uplo, trans, n, k, alpha, a, lda, beta, c, ldc, uplo_len, trans_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

TSL_BLAS_API void ssyr2k_(const char *uplo, const char *trans, const tsl__blas_int *n,
                          const tsl__blas_int *k, const float *alpha, const float *a,
                          const tsl__blas_int *lda, const float *b, const tsl__blas_int *ldb,
                          const float *beta, float *c, const tsl__blas_int *ldc, size_t uplo_len,
                          size_t trans_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("ssyr2k");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("ssyr2k_");
    if (syrk(&st, 's', "SSYR2K", *uplo, *trans, *n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc) ==
        DONE)
        return;
    tsl__blas_ssyr2k_fn *f = (tsl__blas_ssyr2k_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, uplo_len, trans_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

TSL_BLAS_API void dsyr2k_(const char *uplo, const char *trans, const tsl__blas_int *n,
                          const tsl__blas_int *k, const double *alpha, const double *a,
                          const tsl__blas_int *lda, const double *b, const tsl__blas_int *ldb,
                          const double *beta, double *c, const tsl__blas_int *ldc, size_t uplo_len,
                          size_t trans_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("dsyr2k");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("dsyr2k_");
    if (syrk(&st, 'd', "DSYR2K", *uplo, *trans, *n, *k, alpha, a, *lda, b, *ldb, beta, c, *ldc) ==
        DONE)
        return;
    tsl__blas_dsyr2k_fn *f = (tsl__blas_dsyr2k_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc, uplo_len, trans_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

/* ---- TRMM (solve 0) and TRSM (solve 1): B = alpha op(A)^{+-1} B or alpha B op(A)^{+-1} -------
 * alpha == 0 makes B zero without reading A or B. */
static int trxm(tsl__blas_stat *st, char prec, const char *name, int solve, char side, char uplo,
                char transa, char diag, tsl__blas_int m, tsl__blas_int n, const void *alpha,
                const void *a, tsl__blas_int lda, void *b, tsl__blas_int ldb)
{
    tsl__blas_int nrowa = tsl__blas_lsame(side, 'L') ? m : n;
    int info = 0;
    if (!tsl__blas_lsame(side, 'L') && !tsl__blas_lsame(side, 'R'))
        info = 1;
    else if (!tsl__blas_lsame(uplo, 'U') && !tsl__blas_lsame(uplo, 'L'))
        info = 2;
    else if (!is_trans(transa))
        info = 3;
    else if (!tsl__blas_lsame(diag, 'U') && !tsl__blas_lsame(diag, 'N'))
        info = 4;
    else if (m < 0)
        info = 5;
    else if (n < 0)
        info = 6;
    else if (lda < max1(nrowa))
        info = 9;
    else if (ldb < max1(m))
        info = 11;
    if (info) {
        tsl__blas_xerbla(name, info);
        return DONE;
    }
    if (m == 0 || n == 0) return DONE;
    if (tsl__blas_is_zero(prec, alpha)) {
        tsl__blas_scale(st, prec, 0, m, n, NULL, b, ldb);
        return DONE;
    }
    return tsl__blas_dev_trxm(st, prec, solve, TSL_COL_MAJOR, side_of(side), uplo_of(uplo),
                              trans_of(transa), diag_of(diag), (size_t)m, (size_t)n, alpha, a,
                              (size_t)lda, b, (size_t)ldb)
               ? DONE
               : RUN_CPU;
}

TSL_BLAS_API void strmm_(const char *side, const char *uplo, const char *transa, const char *diag,
                         const tsl__blas_int *m, const tsl__blas_int *n, const float *alpha,
                         const float *a, const tsl__blas_int *lda, float *b,
                         const tsl__blas_int *ldb, size_t side_len, size_t uplo_len,
                         size_t transa_len, size_t diag_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("strmm");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("strmm_");
    if (trxm(&st, 's', "STRMM", 0, *side, *uplo, *transa, *diag, *m, *n, alpha, a, *lda, b, *ldb) ==
        DONE)
        return;
    tsl__blas_strmm_fn *f = (tsl__blas_strmm_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, side_len, uplo_len, transa_len,
      diag_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

TSL_BLAS_API void dtrmm_(const char *side, const char *uplo, const char *transa, const char *diag,
                         const tsl__blas_int *m, const tsl__blas_int *n, const double *alpha,
                         const double *a, const tsl__blas_int *lda, double *b,
                         const tsl__blas_int *ldb, size_t side_len, size_t uplo_len,
                         size_t transa_len, size_t diag_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("dtrmm");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("dtrmm_");
    if (trxm(&st, 'd', "DTRMM", 0, *side, *uplo, *transa, *diag, *m, *n, alpha, a, *lda, b, *ldb) ==
        DONE)
        return;
    tsl__blas_dtrmm_fn *f = (tsl__blas_dtrmm_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, side_len, uplo_len, transa_len,
      diag_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

TSL_BLAS_API void strsm_(const char *side, const char *uplo, const char *transa, const char *diag,
                         const tsl__blas_int *m, const tsl__blas_int *n, const float *alpha,
                         const float *a, const tsl__blas_int *lda, float *b,
                         const tsl__blas_int *ldb, size_t side_len, size_t uplo_len,
                         size_t transa_len, size_t diag_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("strsm");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("strsm_");
    if (trxm(&st, 's', "STRSM", 1, *side, *uplo, *transa, *diag, *m, *n, alpha, a, *lda, b, *ldb) ==
        DONE)
        return;
    tsl__blas_strsm_fn *f = (tsl__blas_strsm_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, side_len, uplo_len, transa_len,
      diag_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}

TSL_BLAS_API void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag,
                         const tsl__blas_int *m, const tsl__blas_int *n, const double *alpha,
                         const double *a, const tsl__blas_int *lda, double *b,
                         const tsl__blas_int *ldb, size_t side_len, size_t uplo_len,
                         size_t transa_len, size_t diag_len)
{
    static tsl__blas_stat st = TSL__BLAS_STAT("dtrsm");
    static tsl__blas_cpu_fn cpu = TSL__BLAS_CPU_FN("dtrsm_");
    if (trxm(&st, 'd', "DTRSM", 1, *side, *uplo, *transa, *diag, *m, *n, alpha, a, *lda, b, *ldb) ==
        DONE)
        return;
    tsl__blas_dtrsm_fn *f = (tsl__blas_dtrsm_fn *)tsl__blas_cpu_get(&cpu);
    if (!f) return;
    double t0 = tsl__blas_clock();
    f(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb, side_len, uplo_len, transa_len,
      diag_len);
    tsl__blas_stat_add(&st, 0, tsl__blas_clock() - t0);
}
