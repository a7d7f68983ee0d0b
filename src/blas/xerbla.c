/* xerbla.c: the BLAS error protocol of the drop-in, as the reference BLAS and CBLAS define it.
 * A routine that finds a bad argument calls the global xerbla_ with its 6-character name and
 * the argument's position; because the call goes through the global symbol (the PLT), a program
 * that defines its own xerbla_ (the reference testers do, to count the error exits) gets the
 * call. Ours prints the reference message on stderr and, unlike the reference's STOP, RETURNS:
 * the library lives inside other people's programs (numpy, a solver), and a BLAS error must not
 * end them; the routine then returns without computing, as every BLAS does after xerbla_. When a
 * CBLAS call is under way (CBLAS_CallFromC, set by the CBLAS wrappers), the error is handed to
 * cblas_xerbla under the CBLAS name, as the reference CBLAS's xerbla does; our default
 * cblas_xerbla also prints and returns instead of exiting. RowMajorStrg and CBLAS_CallFromC are
 * the reference CBLAS's globals, exported as data because its testers link them by copy. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blas/fortran.h"

TSL_BLAS_API int RowMajorStrg;
TSL_BLAS_API int CBLAS_CallFromC;

/* Not in any header of ours: a program's own definition replaces it, as in the reference CBLAS. */
TSL_BLAS_API void cblas_xerbla(int info, const char *rout, const char *form, ...);

int tsl__blas_lsame(char a, char b)
{
    return toupper((unsigned char)a) == toupper((unsigned char)b);
}

TSL_BLAS_API int lsame_(const char *ca, const char *cb, size_t ca_len, size_t cb_len)
{
    (void)ca_len;
    (void)cb_len;
    return tsl__blas_lsame(*ca, *cb);
}

/* A Fortran name: up to len characters, stopping at a NUL (C callers), trailing blanks cut. */
static size_t trimmed(const char *name, size_t len)
{
    size_t n = 0;
    while (n < len && name[n] != '\0')
        n++;
    while (n > 0 && name[n - 1] == ' ')
        n--;
    return n;
}

TSL_BLAS_API void xerbla_(const char *srname, const tsl__blas_int *info, size_t srname_len)
{
    size_t n = trimmed(srname, srname_len);
    if (CBLAS_CallFromC) {
        /* the CBLAS spelling, one more argument (the layout) before the Fortran ones */
        char rout[48] = "cblas_";
        size_t p = strlen(rout);
        for (size_t i = 0; i < n && p + 1 < sizeof rout; i++)
            rout[p++] = (char)tolower((unsigned char)srname[i]);
        rout[p] = '\0';
        cblas_xerbla(*info + 1, rout, "");
        return;
    }
    /* the name padded to 6 as the routines pass it: " ** On entry to DGEMM  parameter ..." */
    fprintf(stderr, " ** On entry to %-6.*s parameter number %2d had an illegal value\n", (int)n,
            srname, (int)*info);
}

TSL_BLAS_API void xerbla_array_(const char *srname_array, const tsl__blas_int *srname_len,
                                const tsl__blas_int *info, size_t srname_array_len)
{
    (void)srname_array_len; /* each element is one character; srname_len says how many */
    char name[32];          /* the reference's CHARACTER*32, blank-padded */
    memset(name, ' ', sizeof name);
    for (tsl__blas_int i = 0; i < *srname_len && i < (tsl__blas_int)sizeof name; i++)
        name[i] = srname_array[i];
    xerbla_(name, info, sizeof name);
}

void tsl__blas_xerbla(const char *name, tsl__blas_int info)
{
    char padded[16];
    size_t n = strlen(name);
    if (n >= sizeof padded) n = sizeof padded - 1;
    memcpy(padded, name, n);
    while (n < 6)
        padded[n++] = ' ';
    xerbla_(padded, &info, n);
}

/* A row-major CBLAS call reaches the Fortran routine with its operands swapped, so the position
 * the Fortran routine reports is not the CBLAS argument at fault; the reference cblas_xerbla
 * swaps these pairs back (routine names compared without "cblas_" and the precision letter). */
static const struct {
    const char *op;
    int pairs[4][2];
} g_row_major_swaps[] = {
    /* clang-format off */
    {"gemmtr", {{9, 11}}},
    {"gemm", {{4, 5}, {9, 11}}},
    {"gemm3m", {{4, 5}, {9, 11}}},
    {"symm", {{4, 5}}},
    {"hemm", {{4, 5}}},
    {"trmm", {{6, 7}}},
    {"trsm", {{6, 7}}},
    {"gemv", {{3, 4}}},
    {"gbmv", {{3, 4}, {5, 6}}},
    {"ger", {{2, 3}, {6, 8}}},
    {"geru", {{2, 3}, {6, 8}}},
    {"gerc", {{2, 3}, {6, 8}}},
    {"her2", {{6, 8}}},
    {"hpr2", {{6, 8}}},
    /* clang-format on */
};

static int row_major_info(int info, const char *rout)
{
    const char *op = rout;
    if (strncmp(op, "cblas_", 6) == 0) op += 6;
    if (strchr("sdcz", op[0]) && op[0] != '\0' && op[1] != '\0') op++;
    for (size_t i = 0; i < sizeof g_row_major_swaps / sizeof *g_row_major_swaps; i++) {
        if (strcmp(op, g_row_major_swaps[i].op) != 0) continue;
        for (int p = 0; p < 4 && g_row_major_swaps[i].pairs[p][0]; p++) {
            if (info == g_row_major_swaps[i].pairs[p][0]) return g_row_major_swaps[i].pairs[p][1];
            if (info == g_row_major_swaps[i].pairs[p][1]) return g_row_major_swaps[i].pairs[p][0];
        }
        break;
    }
    return info;
}

TSL_BLAS_API void cblas_xerbla(int info, const char *rout, const char *form, ...)
{
    if (RowMajorStrg) info = row_major_info(info, rout);
    if (info) fprintf(stderr, "Parameter %d to routine %s was incorrect\n", info, rout);
    va_list ap;
    va_start(ap, form);
    vfprintf(stderr, form, ap);
    va_end(ap);
}
