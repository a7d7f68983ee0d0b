/* cblas_errors.c: the CBLAS error calls of libtessel_blas.so that the reference testers do not
 * reach, checked with this program's own cblas_xerbla and xerbla_ (which, as a program's own,
 * replace the library's): cgerc/zgerc (the testers only call geru), the reference's oddities
 * (row-major GEMM TransB at position 2, row-major SYRK uplo at 3 but HER2K's at 2, CTRMM's second
 * report after a bad diag, ZHER2's exchanged x and y for row-major N = 0), RowMajorStrg and
 * CBLAS_CallFromC as the reference has them during a report and cleared after a valid call, and
 * cblas_scabs1/dcabs1 (computed here, not forwarded). Run with TESSEL_BLAS_ROUTE=cpu. */
#include <stdio.h>
#include <string.h>

#include "blas/cblas_internal.h"

/* cblas_gen.c's definitions, as a program sees them (prototypes of cblas.h) */
void cblas_dgemm(CBLAS_LAYOUT, CBLAS_TRANSPOSE, CBLAS_TRANSPOSE, const int, const int, const int,
                 const double, const double *, const int, const double *, const int, const double,
                 double *, const int);
void cblas_sgemv(CBLAS_LAYOUT, CBLAS_TRANSPOSE, const int, const int, const float, const float *,
                 const int, const float *, const int, const float, float *, const int);
void cblas_cgerc(CBLAS_LAYOUT, const int, const int, const void *, const void *, const int,
                 const void *, const int, void *, const int);
void cblas_zgerc(CBLAS_LAYOUT, const int, const int, const void *, const void *, const int,
                 const void *, const int, void *, const int);
void cblas_ctrmm(CBLAS_LAYOUT, CBLAS_SIDE, CBLAS_UPLO, CBLAS_TRANSPOSE, CBLAS_DIAG, const int,
                 const int, const void *, const void *, const int, void *, const int);
void cblas_ztrmm(CBLAS_LAYOUT, CBLAS_SIDE, CBLAS_UPLO, CBLAS_TRANSPOSE, CBLAS_DIAG, const int,
                 const int, const void *, const void *, const int, void *, const int);
void cblas_zher2(CBLAS_LAYOUT, CBLAS_UPLO, const int, const void *, const void *, const int,
                 const void *, const int, void *, const int);
void cblas_dsyrk(CBLAS_LAYOUT, CBLAS_UPLO, CBLAS_TRANSPOSE, const int, const int, const double,
                 const double *, const int, const double, double *, const int);
void cblas_zher2k(CBLAS_LAYOUT, CBLAS_UPLO, CBLAS_TRANSPOSE, const int, const int, const void *,
                  const void *, const int, const void *, const int, const double, void *,
                  const int);
float cblas_scabs1(const void *);
double cblas_dcabs1(const void *);

/* Every report, in order: 'C' cblas_xerbla(pos, rout) or 'F' xerbla_(name, info), with the
 * globals as they were. */
static struct {
    char kind;
    int pos, rowmajor, fromc;
    char name[16];
} g_log[8];
static int g_n;

void cblas_xerbla(int p, const char *rout, const char *form, ...)
{
    (void)form;
    if (g_n < 8) {
        g_log[g_n].kind = 'C';
        g_log[g_n].pos = p;
        g_log[g_n].rowmajor = RowMajorStrg;
        g_log[g_n].fromc = CBLAS_CallFromC;
        snprintf(g_log[g_n].name, sizeof g_log[g_n].name, "%s", rout);
    }
    g_n++;
}

void xerbla_(const char *name, const int *info, size_t len)
{
    if (g_n < 8) {
        g_log[g_n].kind = 'F';
        g_log[g_n].pos = *info;
        g_log[g_n].rowmajor = RowMajorStrg;
        g_log[g_n].fromc = CBLAS_CallFromC;
        snprintf(g_log[g_n].name, sizeof g_log[g_n].name, "%.*s", (int)len, name);
    }
    g_n++;
}

static int g_fail;

/* expect "C3cblas_dsyrk" or "F2CGERU " items (kind, position, name), rowmajor for all */
static void expect(const char *what, int rowmajor, int n, const char *const *items)
{
    int ok = g_n == n;
    for (int i = 0; ok && i < n; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "%c%d%s", g_log[i].kind, g_log[i].pos, g_log[i].name);
        ok = strcmp(buf, items[i]) == 0 && g_log[i].rowmajor == rowmajor && g_log[i].fromc == 1;
    }
    ok = ok && RowMajorStrg == 0 && CBLAS_CallFromC == 0;
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) {
        g_fail = 1;
        for (int i = 0; i < g_n && i < 8; i++)
            printf("    got %c %d <%s> RowMajorStrg=%d CBLAS_CallFromC=%d\n", g_log[i].kind,
                   g_log[i].pos, g_log[i].name, g_log[i].rowmajor, g_log[i].fromc);
        printf("    after: RowMajorStrg=%d CBLAS_CallFromC=%d\n", RowMajorStrg, CBLAS_CallFromC);
    }
    g_n = 0;
}

/* cblas_sgemv's two reports: cblas_xerbla(2) from C, then SGEMV's 1 with the globals cleared */
static void expect_sgemv(void)
{
    int ok = g_n == 2 && g_log[0].kind == 'C' && g_log[0].pos == 2 && g_log[0].fromc == 1 &&
             strcmp(g_log[0].name, "cblas_sgemv") == 0 && g_log[1].kind == 'F' &&
             g_log[1].pos == 1 && g_log[1].fromc == 0 && strcmp(g_log[1].name, "SGEMV ") == 0;
    printf("%s sgemv column-major bad trans: 2 from C, then SGEMV's 1 not from C\n",
           ok ? "ok  " : "FAIL");
    if (!ok) g_fail = 1;
    g_n = 0;
}

int main(void)
{
    double a[64] = {0}, b[64] = {0}, c[64] = {0}, alpha[2] = {1.5, -0.5}, beta = 0.5;
    float fa[64] = {0};

    /* first: the reference's second report comes from an unset character, which a fresh stack
     * makes invalid (SGEMV's argument 1, from Fortran: CBLAS_CallFromC 0) */
    cblas_sgemv(CblasColMajor, 999, 2, 2, 1.0f, fa, 2, fa, 1, 0.0f, fa, 1);
    expect_sgemv();

    cblas_cgerc(CblasRowMajor, -1, 2, alpha, fa, 1, fa, 1, fa, 2);
    expect("cgerc row-major M < 0: CGERU's n, position 2", 1, 1, (const char *[]){"F2CGERU "});
    cblas_zgerc(CblasColMajor, 2, 2, alpha, a, 1, a, 1, a, 1);
    expect("zgerc column-major lda < M: ZGERC's 9", 0, 1, (const char *[]){"F9ZGERC "});
    cblas_zgerc(CblasRowMajor, 2, 0, alpha, a, 0, a, 1, a, 1);
    expect("zgerc row-major N = 0, incX = 0: ZGERU's incy, 7", 1, 1, (const char *[]){"F7ZGERU "});
    cblas_zgerc(102 + 5, 2, 2, alpha, a, 1, a, 1, a, 2);
    expect("zgerc bad layout: 1", 0, 1, (const char *[]){"C1cblas_zgerc"});

    cblas_dgemm(CblasRowMajor, CblasNoTrans, 999, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, c, 2);
    expect("dgemm row-major bad TransB: position 2", 1, 1, (const char *[]){"C2cblas_dgemm"});
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 4, 3, 2, 1.0, a, 2, b, 2, 0.0, c, 3);
    expect("dgemm row-major ldb < N: DGEMM's lda (B first), 8", 1, 1, (const char *[]){"F8DGEMM "});

    cblas_dsyrk(CblasRowMajor, 999, CblasNoTrans, 2, 2, 1.0, a, 2, 0.0, c, 2);
    expect("dsyrk row-major bad uplo: position 3", 1, 1, (const char *[]){"C3cblas_dsyrk"});
    cblas_zher2k(CblasRowMajor, 999, CblasNoTrans, 2, 2, alpha, a, 2, b, 2, beta, c, 2);
    expect("zher2k row-major bad uplo: position 2", 1, 1, (const char *[]){"C2cblas_zher2k"});
    cblas_zher2k(CblasColMajor, CblasUpper, CblasTrans, 2, 2, alpha, a, 2, b, 2, beta, c, 2);
    expect("zher2k column-major Trans: ZHER2K's trans, 2", 0, 1, (const char *[]){"F2ZHER2K"});

    cblas_ctrmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, 999, 2, 2, alpha, fa, 2, fa, 2);
    expect("ctrmm column-major bad diag: 5, then CTRMM's diag 4", 0, 2,
           (const char *[]){"C5cblas_ctrmm", "F4CTRMM "});
    cblas_ztrmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, 999, 2, 2, alpha, a, 2, a, 2);
    expect("ztrmm column-major bad diag: 5 only", 0, 1, (const char *[]){"C5cblas_ztrmm"});

    cblas_zher2(CblasRowMajor, CblasUpper, 0, alpha, a, 0, b, 1, c, 1);
    expect("zher2 row-major N = 0, incX = 0: ZHER2's incy (x second), 7", 1, 1,
           (const char *[]){"F7ZHER2 "});

    /* a valid call clears what a program (or an interrupted report) left set */
    for (int i = 0; i < 16; i++)
        a[i] = b[i] = 0.25 * (i % 5 + 1);
    RowMajorStrg = 1;
    CBLAS_CallFromC = 1;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, 3, 3, 2, 1.0, a, 3, b, 3, 0.0, c, 3);
    expect("valid dgemm: no report, globals cleared", 0, 0, NULL);
    double want = 0.25 * 1 * 0.25 * 1 + 0.25 * 4 * 0.25 * 4; /* c[0] = a[0] b[0] + a[3] b[3] */
    if (c[0] != want) {
        printf("FAIL valid dgemm: c[0] = %g, want %g\n", c[0], want);
        g_fail = 1;
    }

    float cz[2] = {-1.5f, 2.25f};
    double zz[2] = {3.5, -0.125};
    if (cblas_scabs1(cz) != 3.75f || cblas_dcabs1(zz) != 3.625) {
        printf("FAIL cabs1: %g %g\n", cblas_scabs1(cz), cblas_dcabs1(zz));
        g_fail = 1;
    } else {
        printf("ok   scabs1, dcabs1\n");
    }
    return g_fail;
}
