/* tmp_cblas_stubs.c: TEMPORARY stand-ins, so the CBLAS symbols link and their tests run before
 * the Fortran symbols' part lands (its xerbla.c owns all of these): RowMajorStrg and
 * CBLAS_CallFromC, cblas_xerbla and xerbla_ as the reference CBLAS has them (CBLAS/src/
 * cblas_globals.c, cblas_xerbla.c, xerbla.c), and tsl__blas_xerbla. To be dropped at merge. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas/cblas_internal.h"

TSL_BLAS_API int RowMajorStrg = 0;
TSL_BLAS_API int CBLAS_CallFromC = 0;

TSL_BLAS_API void xerbla_(const char *srname, const int *info, size_t len);

/* The reference's default: the row-major positions mapped back, a message, exit. */
TSL_BLAS_API void cblas_xerbla(CBLAS_INT info, const char *rout, const char *form, ...)
{
    if (RowMajorStrg) {
        static const struct {
            const char *key;
            int a, b, c, d;
        } swaps[] = {{"gemm", 4, 5, 9, 11}, {"symm", 4, 5, 0, 0}, {"hemm", 4, 5, 0, 0},
                     {"trmm", 6, 7, 0, 0},  {"trsm", 6, 7, 0, 0}, {"gemv", 3, 4, 0, 0},
                     {"gbmv", 3, 4, 5, 6},  {"ger", 2, 3, 6, 8}};
        int done = 0;
        for (size_t i = 0; i < sizeof swaps / sizeof *swaps && !done; i++)
            if (strstr(rout, swaps[i].key)) {
                done = 1;
                if (info == swaps[i].a) info = swaps[i].b;
                else if (info == swaps[i].b) info = swaps[i].a;
                else if (swaps[i].c && info == swaps[i].c) info = swaps[i].d;
                else if (swaps[i].c && info == swaps[i].d) info = swaps[i].c;
            }
        if (!done && (strstr(rout, "her2") || strstr(rout, "hpr2")) && !strstr(rout, "her2k")) {
            if (info == 8) info = 6;
            else if (info == 6) info = 8;
        }
    }
    va_list ap;
    va_start(ap, form);
    if (info) fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
    vfprintf(stderr, form, ap);
    va_end(ap);
    exit(-1);
}

/* The reference CBLAS's xerbla_: from C, cblas_xerbla with the CBLAS name and position. */
TSL_BLAS_API void xerbla_(const char *srname, const int *info, size_t len)
{
    if (CBLAS_CallFromC) {
        char rout[13] = "cblas_";
        for (size_t i = 0; i < 6 && i < len; i++) rout[6 + i] = (char)tolower((unsigned char)srname[i]);
        for (int i = 11; i >= 6 && rout[i] == ' '; i--) rout[i] = '\0';
        cblas_xerbla(*info + 1, rout, "");
    } else {
        fprintf(stderr, "Parameter %d to routine %.*s was incorrect\n", *info, (int)len, srname);
    }
}

void tsl__blas_xerbla(const char *name, tsl__blas_int info) { xerbla_(name, &info, strlen(name)); }
