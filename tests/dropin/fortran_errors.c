/* fortran_errors.c: the drop-in's own error handlers, seen from a program that has none of its own
 * (linked with -ltessel_blas). A bad argument must print the reference BLAS's message on stderr
 * and RETURN (the reference XERBLA stops the program; a library inside numpy must not), leaving
 * the output untouched; with CBLAS_CallFromC set the error goes to cblas_xerbla under the CBLAS
 * name, one position later, swapped back for a row-major call (RowMajorStrg) as the reference
 * CBLAS does. The two CBLAS globals are the library's data, reached here by copy relocation as
 * the reference CBLAS testers reach them. Also lsame_ and xerbla_array_. stderr is captured and
 * compared line by line; the exit status is 0 when everything matched. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

typedef int fint;
void dgemm_(const char *, const char *, const fint *, const fint *, const fint *, const double *,
            const double *, const fint *, const double *, const fint *, const double *, double *,
            const fint *, size_t, size_t);
void strsm_(const char *, const char *, const char *, const char *, const fint *, const fint *,
            const float *, const float *, const fint *, float *, const fint *, size_t, size_t,
            size_t, size_t);
void dsyr2k_(const char *, const char *, const fint *, const fint *, const double *, const double *,
             const fint *, const double *, const fint *, const double *, double *, const fint *,
             size_t, size_t);
void xerbla_array_(const char *, const fint *, const fint *, size_t);
fint lsame_(const char *, const char *, size_t, size_t);
extern int RowMajorStrg, CBLAS_CallFromC;

int main(void)
{
    static const char *const expected[] = {
        " ** On entry to DGEMM  parameter number  8 had an illegal value",
        " ** On entry to STRSM  parameter number  4 had an illegal value",
        " ** On entry to DSYR2K parameter number 12 had an illegal value",
        " ** On entry to DLAQR0 parameter number 13 had an illegal value",
        "Parameter 9 to routine cblas_dgemm was incorrect",
        "Parameter 11 to routine cblas_dgemm was incorrect",
        "Parameter 13 to routine cblas_dsyr2k was incorrect",
    };
    double a[16], c[16], one = 1.0;
    float fa[16], fone = 1.0f;
    for (int i = 0; i < 16; i++)
        a[i] = c[i] = fa[i] = 2.0f;
    fint four = 4, three = 3, thirteen = 13, six = 6;

    FILE *cap = tmpfile();
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(cap), 2);
    dgemm_("N", "N", &four, &four, &four, &one, a, &three, a, &four, &one, c, &four, 1, 1);
    strsm_("L", "U", "N", "x", &four, &four, &fone, fa, &four, fa, &four, 1, 1, 1, 1);
    dsyr2k_("U", "N", &four, &four, &one, a, &four, a, &four, &one, c, &three, 1, 1);
    xerbla_array_("DLAQR0", &six, &thirteen, 1);
    CBLAS_CallFromC = 1;
    dgemm_("N", "N", &four, &four, &four, &one, a, &three, a, &four, &one, c, &four, 1, 1);
    RowMajorStrg = 1; /* the wrapper swapped A and B: Fortran's lda (8) is CBLAS's ldb (11) */
    dgemm_("N", "N", &four, &four, &four, &one, a, &three, a, &four, &one, c, &four, 1, 1);
    dsyr2k_("U", "N", &four, &four, &one, a, &four, a, &four, &one, c, &three, 1, 1);
    RowMajorStrg = CBLAS_CallFromC = 0;
    fflush(stderr);
    dup2(saved, 2);
    close(saved);

    rewind(cap);
    char line[256];
    size_t n = 0;
    while (fgets(line, sizeof line, cap)) {
        line[strcspn(line, "\n")] = '\0';
        if (n < sizeof expected / sizeof *expected)
            CHECK(strcmp(line, expected[n]) == 0, "stderr line %zu: \"%s\", want \"%s\"", n + 1,
                  line, expected[n]);
        else
            CHECK(0, "unexpected stderr line %zu: \"%s\"", n + 1, line);
        n++;
    }
    fclose(cap);
    CHECK(n == sizeof expected / sizeof *expected, "%zu stderr lines, want %zu", n,
          sizeof expected / sizeof *expected);
    int untouched = 1;
    for (int i = 0; i < 16; i++)
        untouched &= c[i] == 2.0 && fa[i] == 2.0f;
    CHECK(untouched, "a call with a bad argument wrote its output");
    CHECK(lsame_("t", "T", 1, 1) && lsame_("N", "n", 1, 1) && !lsame_("N", "T", 1, 1),
          "lsame_ is the case-insensitive comparison");
    return check_summary("fortran_errors");
}
