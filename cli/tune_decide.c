/* tune_decide.c: whether `tessel tune` stores a finalist or keeps auto (tune_decide.h has the
 * rule). Pure: it reads the times it is given and nothing else. */
#include "tune_decide.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int ran(double ms)
{
    return ms > 0 && isfinite(ms);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* What one finalist did against auto. */
typedef struct {
    int failed;   /* failed on some shape (first: at) */
    size_t at;    /* the failing shape, or the shape where it is slowest against auto */
    int slower;   /* slower than auto beyond the spread on some shape */
    int faster;   /* faster than auto beyond the spread on some shape */
    double worst; /* the smallest ratio auto / finalist over the shapes */
    double geo;   /* geometric mean of auto / finalist over the shapes */
} standing;

static standing judge(const tune_times *t, const tune_decision *d, size_t c)
{
    standing s = {0, 0, 0, 0, INFINITY, 0.0};
    double logsum = 0.0;
    for (size_t i = 0; i < t->nshapes; ++i) {
        double ms = t->cand[c * t->nshapes + i];
        if (!ran(ms)) {
            s.failed = 1;
            s.at = i;
            return s;
        }
        double tol = d->spread[i] > TUNE_MIN_SPREAD ? d->spread[i] : TUNE_MIN_SPREAD;
        double ratio = d->base_ms[i] / ms;
        s.slower |= ms > d->base_ms[i] * (1.0 + tol);
        s.faster |= ms < d->base_ms[i] * (1.0 - tol);
        if (ratio < s.worst) {
            s.worst = ratio;
            s.at = i;
        }
        logsum += log(ratio);
    }
    s.geo = exp(logsum / (double)t->nshapes);
    return s;
}

void tune_decide(const tune_times *t, tune_decision *d)
{
    memset(d, 0, sizeof *d);
    d->cand = -1;
    size_t ns = t->nshapes < TUNE_MAX_CHECK_SHAPES ? t->nshapes : TUNE_MAX_CHECK_SHAPES;
    double sorted[64];
    size_t nb = t->nbase < 64 ? t->nbase : 64;
    for (size_t i = 0; i < ns; ++i) {
        for (size_t r = 0; r < nb; ++r) {
            sorted[r] = t->base[i * t->nbase + r];
            if (!ran(sorted[r])) {
                d->verdict = TUNE_KEEP_BASELINE;
                d->shape = i;
                return;
            }
        }
        qsort(sorted, nb, sizeof sorted[0], cmp_double);
        double med = nb % 2 ? sorted[nb / 2] : 0.5 * (sorted[nb / 2 - 1] + sorted[nb / 2]);
        d->base_ms[i] = med;
        d->spread[i] = (sorted[nb - 1] - sorted[0]) / med;
    }
    if (ns == 0 || nb == 0 || t->ncand == 0) {
        d->verdict = TUNE_KEEP_NONE;
        return;
    }
    tune_times clipped = *t;
    clipped.nshapes = ns;
    /* the best winner; else the closest to winning, to say why none did */
    int win = -1, tie = -1, slow = -1;
    standing sw = {0}, st = {0}, ss = {0};
    for (size_t c = 0; c < t->ncand; ++c) {
        standing s = judge(&clipped, d, c);
        if (s.failed) continue;
        if (!s.slower && s.faster && (win < 0 || s.geo > sw.geo)) win = (int)c, sw = s;
        if (!s.slower && !s.faster && (tie < 0 || s.geo > st.geo)) tie = (int)c, st = s;
        if (s.slower && (slow < 0 || s.geo > ss.geo)) slow = (int)c, ss = s;
    }
    if (win >= 0) {
        d->verdict = TUNE_STORE;
        d->cand = win;
        d->ratio = sw.geo;
    } else if (tie >= 0) {
        d->verdict = TUNE_KEEP_TIE;
        d->cand = tie;
        d->ratio = st.geo;
    } else if (slow >= 0) {
        d->verdict = TUNE_KEEP_SLOWER;
        d->cand = slow;
        d->shape = ss.at;
        d->ratio = ss.worst;
    } else {
        standing s0 = judge(&clipped, d, 0);
        d->verdict = TUNE_KEEP_FAILED;
        d->cand = 0;
        d->shape = s0.at;
    }
}
