/* fortran_level3.c: the check-and-route part of the Fortran Level-3 symbols that can run on the
 * device (gemm, symm, syrk, syr2k, trmm, trsm in s, d, c and z; hemm, herk, her2k in c and z;
 * OpenBLAS's gemm3m in c and z).
 * The exported symbols are generated (fortran_gen.py, the rows of kind device:FAMILY in
 * fortran_symbols.txt): each calls its family's tsl__blas_f_FAMILY here, then, when that returns
 * 0, the CPU BLAS's own symbol with the caller's arguments. Each family checks
 * its arguments exactly as the reference BLAS does, in the same order and with the same
 * positions, reporting the first bad one through xerbla_; takes the reference quick returns; then
 * offers the call to the device (dispatch.h). Every precision of a family is one function (prec
 * 's', 'd', 'c', 'z'; scalars by pointer, a complex one to its two parts; HERK's alpha and beta
 * and HER2K's beta are real: a float for 'c', a double for 'z').
 * The device never sees alpha == 0 or k == 0: then the result is beta*C (or zero), which the
 * reference computes without reading A or B (they may hold NaN or be unset); it is computed here
 * (tsl__blas_scale), since a CPU BLAS may get it wrong. Fortran arrays are column-major; 'C'
 * means transpose for real matrices and the conjugate transpose for complex ones. */
#include "blas/dispatch.h"
#include "blas/fortran.h"

/* What a family's check-and-route leaves to the generated symbol (fortran.h). */
enum { DONE = 1, RUN_CPU = 0 };

static int max1(tsl__blas_int x)
{
    return x > 1 ? x : 1;
}

static int is_trans(char t)
{
    return tsl__blas_lsame(t, 'N') || tsl__blas_lsame(t, 'T') || tsl__blas_lsame(t, 'C');
}

/* The real precision of prec: the type of HERK's and HER2K's real scalars. */
static char real_prec(char prec)
{
    return tsl__blas_prec_double(prec) ? 'd' : 's';
}

static tsl_trans trans_of(char prec, char t)
{
    if (tsl__blas_lsame(t, 'N')) return TSL_NO_TRANS;
    return tsl__blas_prec_complex(prec) && tsl__blas_lsame(t, 'C') ? TSL_CONJ_TRANS : TSL_TRANS;
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
int tsl__blas_f_gemm(tsl__blas_stat *st, char prec, const char *name, char ta, char tb,
                     tsl__blas_int m, tsl__blas_int n, tsl__blas_int k, const void *alpha,
                     const void *a, tsl__blas_int lda, const void *b, tsl__blas_int ldb,
                     const void *beta, void *c, tsl__blas_int ldc)
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
    return tsl__blas_dev_gemm(st, prec, TSL_COL_MAJOR, trans_of(prec, ta), trans_of(prec, tb),
                              (size_t)m, (size_t)n, (size_t)k, alpha, a, (size_t)lda, b,
                              (size_t)ldb, beta, c, (size_t)ldc)
               ? DONE
               : RUN_CPU;
}

/* ---- SYMM and HEMM: C = alpha A B + beta C (side L) or alpha B A + beta C, A symmetric or
 * Hermitian (herm); the checks, quick returns and alpha == 0 result are the same. */
static int symm(tsl__blas_stat *st, char prec, const char *name, int herm, char side, char uplo,
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
    return (herm ? tsl__blas_dev_hemm : tsl__blas_dev_symm)(
               st, prec, TSL_COL_MAJOR, side_of(side), uplo_of(uplo), (size_t)m, (size_t)n, alpha,
               a, (size_t)lda, b, (size_t)ldb, beta, c, (size_t)ldc)
               ? DONE
               : RUN_CPU;
}

int tsl__blas_f_symm(tsl__blas_stat *st, char prec, const char *name, char side, char uplo,
                     tsl__blas_int m, tsl__blas_int n, const void *alpha, const void *a,
                     tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta, void *c,
                     tsl__blas_int ldc)
{
    return symm(st, prec, name, 0, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

int tsl__blas_f_hemm(tsl__blas_stat *st, char prec, const char *name, char side, char uplo,
                     tsl__blas_int m, tsl__blas_int n, const void *alpha, const void *a,
                     tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta, void *c,
                     tsl__blas_int ldc)
{
    return symm(st, prec, name, 1, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* Whether a SYRK-like routine takes trans: a real one N, T and C (the same as T); a complex
 * symmetric one N and T; a Hermitian one N and C. */
static int rk_trans_ok(char prec, int herm, char t)
{
    if (!tsl__blas_prec_complex(prec)) return is_trans(t);
    return tsl__blas_lsame(t, 'N') || tsl__blas_lsame(t, herm ? 'C' : 'T');
}

/* ---- SYRK, SYR2K, HERK, HER2K: the uplo triangle of C = alpha A A^T (+ alpha B A^T + alpha A
 * B^T) + beta C (trans N) or with A^T A; ^H and conj(alpha) for the Hermitian ones (herm), whose
 * beta is real (and HERK's alpha) and whose diagonal's imaginary parts become 0; the other
 * triangle is never touched. b is NULL for SYRK and HERK, whose positions after lda are one
 * fewer. */
static int syrk(tsl__blas_stat *st, char prec, const char *name, int herm, char uplo, char trans,
                tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta, void *c,
                tsl__blas_int ldc)
{
    int two = b != NULL;
    char alpha_prec = herm && !two ? real_prec(prec) : prec;
    char beta_prec = herm ? real_prec(prec) : prec;
    tsl__blas_int nrowa = tsl__blas_lsame(trans, 'N') ? n : k;
    int info = 0;
    if (!tsl__blas_lsame(uplo, 'U') && !tsl__blas_lsame(uplo, 'L'))
        info = 1;
    else if (!rk_trans_ok(prec, herm, trans))
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
    int no_product = tsl__blas_is_zero(alpha_prec, alpha) || k == 0;
    if (n == 0 || (no_product && tsl__blas_is_one(beta_prec, beta))) return DONE;
    char part = tsl__blas_lsame(uplo, 'U') ? 'U' : 'L';
    if (no_product && herm) {
        tsl__blas_scale_herm(st, prec, part, n, beta, c, ldc);
        return DONE;
    }
    if (no_product) {
        tsl__blas_scale(st, prec, part, n, n, beta, c, ldc);
        return DONE;
    }
    tsl_uplo u = uplo_of(uplo);
    tsl_trans t = trans_of(prec, trans);
    size_t un = (size_t)n, uk = (size_t)k, ulda = (size_t)lda, uldb = (size_t)ldb;
    size_t uldc = (size_t)ldc;
    int done =
        herm && two ? tsl__blas_dev_her2k(st, prec, TSL_COL_MAJOR, u, t, un, uk, alpha, a, ulda, b,
                                          uldb, beta, c, uldc)
        : herm      ? tsl__blas_dev_herk(st, prec, TSL_COL_MAJOR, u, t, un, uk, alpha, a, ulda,
                                         beta, c, uldc)
        : two       ? tsl__blas_dev_syr2k(st, prec, TSL_COL_MAJOR, u, t, un, uk, alpha, a, ulda,
                                          b, uldb, beta, c, uldc)
                    : tsl__blas_dev_syrk(st, prec, TSL_COL_MAJOR, u, t, un, uk, alpha, a, ulda,
                                         beta, c, uldc);
    return done ? DONE : RUN_CPU;
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
                              trans_of(prec, transa), diag_of(diag), (size_t)m, (size_t)n, alpha, a,
                              (size_t)lda, b, (size_t)ldb)
               ? DONE
               : RUN_CPU;
}

int tsl__blas_f_syrk(tsl__blas_stat *st, char prec, const char *name, char uplo, char trans,
                     tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                     tsl__blas_int lda, const void *beta, void *c, tsl__blas_int ldc)
{
    return syrk(st, prec, name, 0, uplo, trans, n, k, alpha, a, lda, NULL, 0, beta, c, ldc);
}

int tsl__blas_f_herk(tsl__blas_stat *st, char prec, const char *name, char uplo, char trans,
                     tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                     tsl__blas_int lda, const void *beta, void *c, tsl__blas_int ldc)
{
    return syrk(st, prec, name, 1, uplo, trans, n, k, alpha, a, lda, NULL, 0, beta, c, ldc);
}

int tsl__blas_f_syr2k(tsl__blas_stat *st, char prec, const char *name, char uplo, char trans,
                      tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                      tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta,
                      void *c, tsl__blas_int ldc)
{
    return syrk(st, prec, name, 0, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

int tsl__blas_f_her2k(tsl__blas_stat *st, char prec, const char *name, char uplo, char trans,
                      tsl__blas_int n, tsl__blas_int k, const void *alpha, const void *a,
                      tsl__blas_int lda, const void *b, tsl__blas_int ldb, const void *beta,
                      void *c, tsl__blas_int ldc)
{
    return syrk(st, prec, name, 1, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

int tsl__blas_f_trmm(tsl__blas_stat *st, char prec, const char *name, char side, char uplo,
                     char transa, char diag, tsl__blas_int m, tsl__blas_int n, const void *alpha,
                     const void *a, tsl__blas_int lda, void *b, tsl__blas_int ldb)
{
    return trxm(st, prec, name, 0, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

int tsl__blas_f_trsm(tsl__blas_stat *st, char prec, const char *name, char side, char uplo,
                     char transa, char diag, tsl__blas_int m, tsl__blas_int n, const void *alpha,
                     const void *a, tsl__blas_int lda, void *b, tsl__blas_int ldb)
{
    return trxm(st, prec, name, 1, side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}
