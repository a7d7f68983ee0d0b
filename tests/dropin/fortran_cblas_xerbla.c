/* fortran_cblas_xerbla.c: a program with its own cblas_xerbla (as the reference CBLAS testers
 * have), linked with -ltessel_blas. During a CBLAS call (CBLAS_CallFromC set) a Fortran routine's
 * argument error must reach THIS cblas_xerbla, through our default xerbla_, under the CBLAS name
 * and one position later, unmapped (mapping row-major positions is the handler's business). */
#include <stddef.h>
#include <string.h>

#include "check.h"

typedef int fint;
void dgemm_(const char *, const char *, const fint *, const fint *, const fint *, const double *,
            const double *, const fint *, const double *, const fint *, const double *, double *,
            const fint *, size_t, size_t);
extern int RowMajorStrg, CBLAS_CallFromC;

static int g_calls, g_info;
static char g_rout[32];

void cblas_xerbla(int info, const char *rout, const char *form, ...)
{
    (void)form;
    g_calls++;
    g_info = info;
    strncpy(g_rout, rout, sizeof g_rout - 1);
}

int main(void)
{
    double a[16] = {0}, c[16] = {0}, one = 1.0;
    fint four = 4, three = 3;
    CBLAS_CallFromC = RowMajorStrg = 1;
    dgemm_("N", "N", &four, &four, &four, &one, a, &three, a, &four, &one, c, &four, 1, 1);
    CBLAS_CallFromC = RowMajorStrg = 0;
    CHECK(g_calls == 1 && g_info == 9 && strcmp(g_rout, "cblas_dgemm") == 0,
          "the program's cblas_xerbla got %d call(s), last (%d, \"%s\"); want (9, \"cblas_dgemm\")",
          g_calls, g_info, g_rout);
    return check_summary("fortran_cblas_xerbla");
}
