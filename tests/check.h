/* check.h: the tiny assertion header of the tessel test suites. CHECK(cond, fmt, ...) counts a
 * check, and when cond is false prints file:line, the condition and a printf-style message on
 * stderr and counts a failure; it never aborts, so one run reports every failure it finds (the
 * first CHECK_MAX_REPORTS are printed, the rest only counted, so a broken kernel cannot flood the
 * log). check_summary() prints the one-line summary of the process and returns its exit status:
 * non-zero if any check failed. Header-only: each test is one process (of one .c file, or of
 * several with CHECK_SHARED, below). */
#ifndef TSL_TEST_CHECK_H
#define TSL_TEST_CHECK_H

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#ifndef CHECK_MAX_REPORTS
#define CHECK_MAX_REPORTS 200
#endif

/* A test of several .c files (one process) is built with CHECK_SHARED, and exactly one of its
 * files defines CHECK_DEFINE before including this header: the counters are then shared. */
#if defined(CHECK_SHARED) && !defined(CHECK_DEFINE)
extern long check_count_, check_failures_, check_skips_;
#else
#if defined(CHECK_SHARED)
#define CHECK_STORAGE_
#else
#define CHECK_STORAGE_ static
#endif
CHECK_STORAGE_ long check_count_;    /* checks evaluated */
CHECK_STORAGE_ long check_failures_; /* checks that failed */
CHECK_STORAGE_ long check_skips_;    /* cases skipped, with a reason printed */
#endif

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        ++check_count_;                                                                            \
        if (!(cond)) {                                                                             \
            if (++check_failures_ <= CHECK_MAX_REPORTS) {                                          \
                fprintf(stderr, "%s:%d: FAIL: (%s): ", __FILE__, __LINE__, #cond);                 \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fputc('\n', stderr);                                                               \
                fflush(stderr);                                                                    \
            }                                                                                      \
        }                                                                                          \
    } while (0)

/* A case the suite does not run on this device: printed, counted, never a failure. */
#define SKIP(...)                                                                                  \
    do {                                                                                           \
        ++check_skips_;                                                                            \
        printf("skip: ");                                                                          \
        printf(__VA_ARGS__);                                                                       \
        putchar('\n');                                                                             \
        fflush(stdout);                                                                            \
    } while (0)

/* Non-zero if word occurs in text as a whole word, case-insensitively ("lda" in "lda (3) < k",
 * "a" in "matrix A is NULL" but not in "bad"): error messages must name the argument. */
static inline int check_mentions(const char *text, const char *word)
{
    size_t n = strlen(word);
    if (!text || n == 0) return 0;
    for (const char *p = text; *p; ++p) {
        size_t i = 0;
        while (i < n && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)word[i]))
            ++i;
        if (i < n) continue;
        int before_ok = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after_ok = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (before_ok && after_ok) return 1;
    }
    return 0;
}

/* Prints "<name>: N checks, F failed, S skipped" and returns the process exit status. */
static inline int check_summary(const char *name)
{
    printf("%s: %ld checks, %ld failed, %ld skipped: %s\n", name, check_count_, check_failures_,
           check_skips_, check_failures_ ? "FAIL" : "ok");
    fflush(stdout);
    return check_failures_ ? 1 : 0;
}

#endif /* TSL_TEST_CHECK_H */
