/* tune_decide.h: the rule by which `tessel tune` stores a configuration or keeps auto, as a pure
 * function of measured times (no device, no clock), so tests/test_tune.c checks it on synthetic
 * numbers. The tuner's finalists and auto's configuration (the baseline) are timed on the same
 * shapes; auto several times per shape, which gives the run-to-run spread. A finalist wins only if
 * it is no slower than auto on every shape, within that spread, and faster beyond it on at least
 * one; among winners the best geometric-mean speedup. Otherwise auto stays and nothing is stored.
 * docs/tuning.md states the rule for users. */
#ifndef TESSEL_CLI_TUNE_DECIDE_H
#define TESSEL_CLI_TUNE_DECIDE_H

#include <stddef.h>

#define TUNE_MAX_CHECK_SHAPES 48
/* The smallest tolerance, whatever spread the baseline showed: a few repeats of a stable kernel
 * can agree more closely than runs minutes apart do. */
#define TUNE_MIN_SPREAD 0.01

/* Times in ms (each the median of --repeat calls); <= 0 or not finite: the run failed (error, or
 * a result that did not verify). */
typedef struct {
    size_t nshapes;     /* 1..TUNE_MAX_CHECK_SHAPES */
    size_t nbase;       /* times of auto per shape, >= 1 (3 or more for a meaningful spread) */
    size_t ncand;       /* finalists, 0 or more */
    const double *base; /* base[s * nbase + r]: auto on shape s, r-th time */
    const double *cand; /* cand[c * nshapes + s]: finalist c on shape s */
} tune_times;

typedef enum {
    TUNE_STORE,         /* cand is faster and nowhere slower: store it */
    TUNE_KEEP_NONE,     /* there was no finalist (nothing beat auto in the search) */
    TUNE_KEEP_BASELINE, /* auto itself failed on `shape`: nothing to compare with */
    TUNE_KEEP_FAILED,   /* every finalist failed somewhere; cand failed on `shape` */
    TUNE_KEEP_SLOWER,   /* every finalist that ran is slower somewhere; cand (the best of them
                           by geometric mean) is slowest against auto on `shape`, by `ratio` */
    TUNE_KEEP_TIE,      /* cand is nowhere slower but nowhere faster beyond the spread */
} tune_verdict;

typedef struct {
    tune_verdict verdict;
    int cand;     /* the finalist the verdict names, -1 for none */
    size_t shape; /* the shape it names (KEEP_BASELINE, KEEP_FAILED, KEEP_SLOWER) */
    double ratio; /* auto's time / cand's: at `shape` for KEEP_SLOWER, else the geometric mean */
    /* per shape: auto's median time and its relative spread ((max - min) / median) */
    double base_ms[TUNE_MAX_CHECK_SHAPES], spread[TUNE_MAX_CHECK_SHAPES];
} tune_decision;

void tune_decide(const tune_times *t, tune_decision *d);

#endif
