/* cblas_check.c: the argument checks of the CBLAS symbols, as the reference CBLAS makes them
 * (Reference-LAPACK 3.11, Debian's libblas.so.3). The reference wrapper checks the layout and the
 * enumerations itself and reports a bad one with cblas_xerbla(position, "cblas_dgemm", ...); the
 * sizes it leaves to the Fortran routine it calls, whose checks run on the wrapper's translated
 * arguments (for row-major: swapped sizes, flipped uplo and side, A and B exchanged in GEMM, a
 * conjugated copy of x with unit stride in some complex routines) and reach xerbla_ with the
 * Fortran name ("DGEMM ") and position, while RowMajorStrg says the layout was row-major so that
 * an error handler (the testers', the default cblas_xerbla) can map the position back. Each
 * family below reproduces one wrapper and its Fortran routine's checks, in their order, including
 * the reference's own oddities (noted where they are), so a program sees the same error calls.
 *
 * The globals: the reference sets RowMajorStrg and CBLAS_CallFromC on entry and clears them on
 * exit of every Level 2 and 3 call. Here they are set only around an error report and cleared
 * after it, so a valid call does not write them at all (it only clears them when something left
 * them set): the same values wherever a handler can look, fewer writes to shared globals. */
#include <ctype.h>
#include <string.h>

#include "blas/cblas_internal.h"

/* ---- reporting ------------------------------------------------------------------------------ */

static void set_globals(int rowmajor)
{
    RowMajorStrg = rowmajor;
    CBLAS_CallFromC = 1;
}

static void clear_globals(void)
{
    if (RowMajorStrg) RowMajorStrg = 0;
    if (CBLAS_CallFromC) CBLAS_CallFromC = 0;
}

/* The wrapper's own report: cblas_xerbla with the CBLAS position. Returns 0 (call rejected). */
static int bad(int rowmajor, int pos, const char *rout, const char *form, int value)
{
    set_globals(rowmajor);
    cblas_xerbla(pos, rout, form, value);
    clear_globals();
    return 0;
}

/* The Fortran routine's report: xerbla_("DGEMM ", info) (info 0: valid, nothing reported). The
 * name is the symbol's after "cblas_", upper case, padded to 6 (OpenBLAS's "CGEMM3M" has 7); alt
 * replaces it (cgerc). */
static int f77(int rowmajor, const char *rout, const char *alt, int info)
{
    if (info == 0) {
        clear_globals();
        return 1;
    }
    char name[8] = "      ";
    const char *s = alt ? alt : rout + 6;
    for (int i = 0; i < 7 && s[i]; i++)
        name[i] = (char)toupper((unsigned char)s[i]);
    set_globals(rowmajor);
    tsl__blas_xerbla(name, info);
    clear_globals();
    return 0;
}

static int cplx(const char *rout)
{
    return rout[6] == 'c' || rout[6] == 'z';
}
static int max1(int v)
{
    return v > 1 ? v : 1;
}

static const char LAYOUT_MSG[] = "Illegal layout setting, %d\n";

/* CBLAS enumerations as the Fortran characters of column-major calls; 0 for a bad value. */
static char trans_cm(int t)
{
    return t == CblasNoTrans ? 'N' : t == CblasTrans ? 'T' : t == CblasConjTrans ? 'C' : 0;
}
/* Level 2 row-major: op(A) of the row-major matrix is op'(A^T) of the column-major one. */
static char trans_rm(int t)
{
    return t == CblasNoTrans ? 'T' : t == CblasTrans || t == CblasConjTrans ? 'N' : 0;
}
/* (row-major flips uplo and side; a bad value stays bad, which is all the checks need) */
static char uplo_cm(int u)
{
    return u == CblasUpper ? 'U' : u == CblasLower ? 'L' : 0;
}
static char side_cm(int s)
{
    return s == CblasLeft ? 'L' : s == CblasRight ? 'R' : 0;
}
static char side_rm(int s)
{
    return s == CblasLeft ? 'R' : s == CblasRight ? 'L' : 0;
}
static char diag_c(int d)
{
    return d == CblasUnit ? 'U' : d == CblasNonUnit ? 'N' : 0;
}

/* ---- Level 2 -------------------------------------------------------------------------------- */

int tsl__cblas_chk_gemv(const char *rout, int layout, int trans, int m, int n, int lda, int incx,
                        int incy)
{
    int rm = layout == CblasRowMajor;
    if (layout != CblasColMajor && !rm) return bad(0, 1, rout, LAYOUT_MSG, layout);
    if (!(rm ? trans_rm(trans) : trans_cm(trans))) {
        bad(rm, 2, rout, "Illegal TransA setting, %d\n", trans);
        /* The reference cblas_sgemv does not return after a bad column-major trans: it clears
         * the globals and calls SGEMV with an unset trans character, which SGEMV reports as
         * its argument 1 (through xerbla_ not from C, so not as a cblas_xerbla call). */
        if (!rm && strcmp(rout, "cblas_sgemv") == 0) tsl__blas_xerbla("SGEMV ", 1);
        return 0;
    }
    if (rm) {
        /* complex conjugate transpose: the reference passes a conjugated copy of x (M > 0) */
        if (cplx(rout) && trans == CblasConjTrans && m > 0) incx = 1;
        int t = m;
        m = n;
        n = t;
    }
    int info = m < 0 ? 2 : n < 0 ? 3 : lda < max1(m) ? 6 : incx == 0 ? 8 : incy == 0 ? 11 : 0;
    return f77(rm, rout, NULL, info);
}

int tsl__cblas_chk_gbmv(const char *rout, int layout, int trans, int m, int n, int kl, int ku,
                        int lda, int incx, int incy)
{
    int rm = layout == CblasRowMajor;
    if (layout != CblasColMajor && !rm) return bad(0, 1, rout, LAYOUT_MSG, layout);
    if (!(rm ? trans_rm(trans) : trans_cm(trans)))
        return bad(rm, 2, rout, "Illegal TransA setting, %d\n", trans);
    if (rm) {
        if (cplx(rout) && trans == CblasConjTrans && m > 0) incx = 1;
        int t = m;
        m = n;
        n = t;
        t = kl;
        kl = ku;
        ku = t;
    }
    int info = m < 0               ? 2
               : n < 0             ? 3
               : kl < 0            ? 4
               : ku < 0            ? 5
               : lda < kl + ku + 1 ? 8
               : incx == 0         ? 10
               : incy == 0         ? 13
                                   : 0;
    return f77(rm, rout, NULL, info);
}

/* sger, dger, cgeru, zgeru, cgerc, zgerc. Row-major calls the Fortran routine on A^T with x and
 * y exchanged; for gerc the reference calls ?geru on a conjugated copy of y (N > 0), so its
 * errors name ?GERU. */
int tsl__cblas_chk_ger(const char *rout, int layout, int m, int n, int incx, int incy, int lda)
{
    int rm = layout == CblasRowMajor;
    if (layout != CblasColMajor && !rm) return bad(0, 1, rout, LAYOUT_MSG, layout);
    const char *alt = NULL;
    if (rm) {
        if (rout[10] == 'c') { /* cblas_?gerc */
            alt = rout[6] == 'c' ? "cgeru" : "zgeru";
            if (n > 0) incy = 1;
        }
        int t = m;
        m = n;
        n = t;
        t = incx;
        incx = incy;
        incy = t;
    }
    int info = m < 0 ? 1 : n < 0 ? 2 : incx == 0 ? 5 : incy == 0 ? 7 : lda < max1(m) ? 9 : 0;
    return f77(rm, rout, alt, info);
}

/* The symmetric/Hermitian Level 2 routines: uplo is flipped for row-major; the complex
 * (Hermitian) ones pass a conjugated copy of x with unit stride when N > 0. */
static int uplo_first(const char *rout, int layout, int uplo, int *rm)
{
    *rm = layout == CblasRowMajor;
    if (layout != CblasColMajor && !*rm) return bad(0, 1, rout, LAYOUT_MSG, layout);
    if (!uplo_cm(uplo)) return bad(*rm, 2, rout, "Illegal Uplo setting, %d\n", uplo);
    return 1;
}

int tsl__cblas_chk_symv(const char *rout, int layout, int uplo, int n, int lda, int incx, int incy)
{
    int rm;
    if (!uplo_first(rout, layout, uplo, &rm)) return 0;
    if (rm && cplx(rout) && n > 0) incx = 1;
    int info = n < 0 ? 2 : lda < max1(n) ? 5 : incx == 0 ? 7 : incy == 0 ? 10 : 0;
    return f77(rm, rout, NULL, info);
}

int tsl__cblas_chk_sbmv(const char *rout, int layout, int uplo, int n, int k, int lda, int incx,
                        int incy)
{
    int rm;
    if (!uplo_first(rout, layout, uplo, &rm)) return 0;
    if (rm && cplx(rout) && n > 0) incx = 1;
    int info = n < 0 ? 2 : k < 0 ? 3 : lda < k + 1 ? 6 : incx == 0 ? 8 : incy == 0 ? 11 : 0;
    return f77(rm, rout, NULL, info);
}

int tsl__cblas_chk_spmv(const char *rout, int layout, int uplo, int n, int incx, int incy)
{
    int rm;
    if (!uplo_first(rout, layout, uplo, &rm)) return 0;
    if (rm && cplx(rout) && n > 0) incx = 1;
    int info = n < 0 ? 2 : incx == 0 ? 6 : incy == 0 ? 9 : 0;
    return f77(rm, rout, NULL, info);
}

int tsl__cblas_chk_syr(const char *rout, int layout, int uplo, int n, int incx, int lda)
{
    int rm;
    if (!uplo_first(rout, layout, uplo, &rm)) return 0;
    if (rm && cplx(rout) && n > 0) incx = 1;
    int info = n < 0 ? 2 : incx == 0 ? 5 : lda < max1(n) ? 7 : 0;
    return f77(rm, rout, NULL, info);
}

int tsl__cblas_chk_spr(const char *rout, int layout, int uplo, int n, int incx)
{
    int rm;
    if (!uplo_first(rout, layout, uplo, &rm)) return 0;
    if (rm && cplx(rout) && n > 0) incx = 1;
    int info = n < 0 ? 2 : incx == 0 ? 5 : 0;
    return f77(rm, rout, NULL, info);
}

/* her2/hpr2 row-major: the Fortran routine gets (y, incy) first and (x, incx) second, both
 * conjugated copies with unit stride when N > 0. */
static void her2_rm(const char *rout, int rm, int n, int *incx, int *incy)
{
    if (!rm || !cplx(rout)) return;
    if (n > 0) {
        *incx = *incy = 1;
    } else {
        int t = *incx;
        *incx = *incy;
        *incy = t;
    }
}

int tsl__cblas_chk_syr2(const char *rout, int layout, int uplo, int n, int incx, int incy, int lda)
{
    int rm;
    if (!uplo_first(rout, layout, uplo, &rm)) return 0;
    her2_rm(rout, rm, n, &incx, &incy);
    int info = n < 0 ? 2 : incx == 0 ? 5 : incy == 0 ? 7 : lda < max1(n) ? 9 : 0;
    return f77(rm, rout, NULL, info);
}

int tsl__cblas_chk_spr2(const char *rout, int layout, int uplo, int n, int incx, int incy)
{
    int rm;
    if (!uplo_first(rout, layout, uplo, &rm)) return 0;
    her2_rm(rout, rm, n, &incx, &incy);
    int info = n < 0 ? 2 : incx == 0 ? 5 : incy == 0 ? 7 : 0;
    return f77(rm, rout, NULL, info);
}

/* trmv, tbmv, tpmv and the solves: uplo 2, trans 3, diag 4 in both layouts (x is conjugated in
 * place for complex row-major ConjTrans: the stride the Fortran routine sees is the caller's). */
static int tr_first(const char *rout, int layout, int uplo, int trans, int diag, int *rm)
{
    *rm = layout == CblasRowMajor;
    if (layout != CblasColMajor && !*rm) return bad(0, 1, rout, LAYOUT_MSG, layout);
    if (!uplo_cm(uplo)) return bad(*rm, 2, rout, "Illegal Uplo setting, %d\n", uplo);
    if (!trans_cm(trans)) return bad(*rm, 3, rout, "Illegal TransA setting, %d\n", trans);
    if (!diag_c(diag)) return bad(*rm, 4, rout, "Illegal Diag setting, %d\n", diag);
    return 1;
}

int tsl__cblas_chk_trmv(const char *rout, int layout, int uplo, int trans, int diag, int n, int lda,
                        int incx)
{
    int rm;
    if (!tr_first(rout, layout, uplo, trans, diag, &rm)) return 0;
    int info = n < 0 ? 4 : lda < max1(n) ? 6 : incx == 0 ? 8 : 0;
    return f77(rm, rout, NULL, info);
}

int tsl__cblas_chk_tbmv(const char *rout, int layout, int uplo, int trans, int diag, int n, int k,
                        int lda, int incx)
{
    int rm;
    if (!tr_first(rout, layout, uplo, trans, diag, &rm)) return 0;
    int info = n < 0 ? 4 : k < 0 ? 5 : lda < k + 1 ? 7 : incx == 0 ? 9 : 0;
    return f77(rm, rout, NULL, info);
}

int tsl__cblas_chk_tpmv(const char *rout, int layout, int uplo, int trans, int diag, int n,
                        int incx)
{
    int rm;
    if (!tr_first(rout, layout, uplo, trans, diag, &rm)) return 0;
    int info = n < 0 ? 4 : incx == 0 ? 7 : 0;
    return f77(rm, rout, NULL, info);
}

/* ---- Level 3 -------------------------------------------------------------------------------- */

/* Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: the reference calls the
 * Fortran GEMM with B first. Its row-major TransB error says position 2 (reference's own). */
int tsl__cblas_chk_gemm(const char *rout, int layout, int transa, int transb, int m, int n, int k,
                        int lda, int ldb, int ldc)
{
    int rm = layout == CblasRowMajor;
    if (layout != CblasColMajor && !rm) return bad(0, 1, rout, LAYOUT_MSG, layout);
    char ta = trans_cm(transa), tb = trans_cm(transb);
    if (!ta) return bad(rm, 2, rout, "Illegal TransA setting, %d\n", transa);
    if (!tb) return bad(rm, rm ? 2 : 3, rout, "Illegal TransB setting, %d\n", transb);
    if (rm) {
        char t = ta;
        ta = tb;
        tb = t;
        int i = m;
        m = n;
        n = i;
        i = lda;
        lda = ldb;
        ldb = i;
    }
    int nrowa = ta == 'N' ? m : k, nrowb = tb == 'N' ? k : n;
    int info = m < 0               ? 3
               : n < 0             ? 4
               : k < 0             ? 5
               : lda < max1(nrowa) ? 8
               : ldb < max1(nrowb) ? 10
               : ldc < max1(m)     ? 13
                                   : 0;
    return f77(rm, rout, NULL, info);
}

int tsl__cblas_chk_symm(const char *rout, int layout, int side, int uplo, int m, int n, int lda,
                        int ldb, int ldc)
{
    int rm = layout == CblasRowMajor;
    if (layout != CblasColMajor && !rm) return bad(0, 1, rout, LAYOUT_MSG, layout);
    char sd = rm ? side_rm(side) : side_cm(side);
    if (!sd) return bad(rm, 2, rout, "Illegal Side setting, %d\n", side);
    if (!uplo_cm(uplo)) return bad(rm, 3, rout, "Illegal Uplo setting, %d\n", uplo);
    if (rm) {
        int t = m;
        m = n;
        n = t;
    }
    int nrowa = sd == 'L' ? m : n;
    int info = m < 0               ? 3
               : n < 0             ? 4
               : lda < max1(nrowa) ? 7
               : ldb < max1(m)     ? 9
               : ldc < max1(m)     ? 12
                                   : 0;
    return f77(rm, rout, NULL, info);
}

/* syrk/herk and syr2k/her2k. Row-major: trans flips (to 'C' for the Hermitian ones); the
 * reference reports a bad row-major uplo at position 3, except her2k's at 2. The Fortran routine
 * then refuses what its kind does not take: complex syrk 'C', herk 'T' (column-major only). */
static int rk_first(const char *rout, int layout, int uplo, int trans, int *rm, char *tr)
{
    int herm = rout[7] == 'h';
    *rm = layout == CblasRowMajor;
    if (layout != CblasColMajor && !*rm) return bad(0, 1, rout, LAYOUT_MSG, layout);
    if (!uplo_cm(uplo)) {
        int her2k = herm && strstr(rout, "2k") != NULL;
        return bad(*rm, *rm && !her2k ? 3 : 2, rout, "Illegal Uplo setting, %d\n", uplo);
    }
    if (*rm)
        *tr = trans == CblasNoTrans                            ? (herm ? 'C' : 'T')
              : trans == CblasTrans || trans == CblasConjTrans ? 'N'
                                                               : 0;
    else
        *tr = trans_cm(trans);
    if (!*tr) return bad(*rm, 3, rout, "Illegal Trans setting, %d\n", trans);
    return 1;
}

/* Whether the Fortran ?syrk/?herk/?syr2k/?her2k takes this trans. */
static int rk_trans_ok(const char *rout, char tr)
{
    if (tr == 'N') return 1;
    if (!cplx(rout)) return 1; /* real: 'T' and 'C' */
    return rout[7] == 'h' ? tr == 'C' : tr == 'T';
}

int tsl__cblas_chk_syrk(const char *rout, int layout, int uplo, int trans, int n, int k, int lda,
                        int ldc)
{
    int rm;
    char tr;
    if (!rk_first(rout, layout, uplo, trans, &rm, &tr)) return 0;
    int nrowa = tr == 'N' ? n : k;
    int info = !rk_trans_ok(rout, tr) ? 2
               : n < 0                ? 3
               : k < 0                ? 4
               : lda < max1(nrowa)    ? 7
               : ldc < max1(n)        ? 10
                                      : 0;
    return f77(rm, rout, NULL, info);
}

int tsl__cblas_chk_syr2k(const char *rout, int layout, int uplo, int trans, int n, int k, int lda,
                         int ldb, int ldc)
{
    int rm;
    char tr;
    if (!rk_first(rout, layout, uplo, trans, &rm, &tr)) return 0;
    int nrowa = tr == 'N' ? n : k;
    int info = !rk_trans_ok(rout, tr) ? 2
               : n < 0                ? 3
               : k < 0                ? 4
               : lda < max1(nrowa)    ? 7
               : ldb < max1(nrowa)    ? 9
               : ldc < max1(n)        ? 12
                                      : 0;
    return f77(rm, rout, NULL, info);
}

/* trmm and trsm: side 2, uplo 3, trans 4, diag 5 in both layouts. The reference cblas_ctrmm
 * does not return after a bad column-major diag: it goes on to call CTRMM with an unset diag
 * character, which CTRMM reports as its argument 4; that second report is reproduced. */
int tsl__cblas_chk_trmm(const char *rout, int layout, int side, int uplo, int trans, int diag,
                        int m, int n, int lda, int ldb)
{
    int rm = layout == CblasRowMajor;
    if (layout != CblasColMajor && !rm) return bad(0, 1, rout, LAYOUT_MSG, layout);
    char sd = rm ? side_rm(side) : side_cm(side);
    if (!sd) return bad(rm, 2, rout, "Illegal Side setting, %d\n", side);
    if (!uplo_cm(uplo)) return bad(rm, 3, rout, "Illegal Uplo setting, %d\n", uplo);
    if (!trans_cm(trans)) return bad(rm, 4, rout, "Illegal Trans setting, %d\n", trans);
    if (!diag_c(diag)) {
        bad(rm, 5, rout, "Illegal Diag setting, %d\n", diag);
        if (!rm && strcmp(rout, "cblas_ctrmm") == 0) f77(0, rout, NULL, 4);
        return 0;
    }
    if (rm) {
        int t = m;
        m = n;
        n = t;
    }
    int nrowa = sd == 'L' ? m : n;
    int info = m < 0 ? 5 : n < 0 ? 6 : lda < max1(nrowa) ? 9 : ldb < max1(m) ? 11 : 0;
    return f77(rm, rout, NULL, info);
}
