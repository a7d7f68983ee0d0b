/* tuner.c: the search over an op's parameter space (tsl__space), and the configuration strings
 * that name a point of it. The tuner does not measure: the caller (the CLI's `tessel tune`) runs
 * and verifies each configuration it hands out and reports a score back, so the search works for
 * any op and any measure; nor does it know the ops: ops/registry.c hands it an op's space.
 *
 * Strategy. The valid configurations for the device are enumerated once (the product of the axes
 * filtered by the space's check). The first candidate is what `auto` runs today, so a tuning run
 * can never end worse than it started; then the space's seeds (known-good designs: the kind's own,
 * then the space's list) that are valid here. A space of at most EXHAUSTIVE_MAX points is then walked in
 * full; a larger one alternates a random untried point (to explore) with an untried neighbour of
 * the best point so far (one axis moved to the next value up or down: local refinement), falling
 * back to random when the best point's neighbourhood is used up. The random source is a seeded
 * xorshift, so a run is reproducible. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "runtime/runtime.h"
#include "tune/tune.h"

#define EXHAUSTIVE_MAX 128
#define MAX_VALID 1000000

struct tsl_tuner {
    const tsl__space *sp;
    int kind;
    uint64_t *points;    /* valid configurations, mixed-radix encoded, increasing */
    unsigned char *done; /* handed out already */
    size_t npoints, ntried;
    long best;        /* index into points, -1 before the first success */
    double best_score;
    long last;        /* the point handed out last */
    uint64_t rng;
    char config[256]; /* the string next() returned */
    long first;       /* index of auto's configuration, -1 if not in the space */
    uint64_t seeds[16]; /* codes of the space's seed configurations, tried after auto's */
    int nseeds, next_seed;
};

int tsl__space_parse(const tsl__space *sp, const char *config, int *values, char *why, size_t cap)
{
    size_t vlen = strlen(sp->variant);
    if (strncmp(config, sp->variant, vlen) != 0 || (config[vlen] != ':' && config[vlen] != '\0')) {
        snprintf(why, cap, "a configuration starts with '%s:'", sp->variant);
        return -1;
    }
    const char *p = config + vlen;
    if (*p == ':') ++p;
    while (*p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        if (!eq || eq > end) {
            snprintf(why, cap, "'%.*s' is not NAME=VALUE", (int)(end - p), p);
            return -1;
        }
        int a = 0;
        while (a < sp->naxes && (strlen(sp->axes[a].name) != (size_t)(eq - p) ||
                                 strncmp(sp->axes[a].name, p, (size_t)(eq - p)) != 0))
            ++a;
        if (a == sp->naxes) {
            char names[256] = "";
            for (int i = 0; i < sp->naxes; ++i) {
                if (i) strncat(names, ",", sizeof names - strlen(names) - 1);
                strncat(names, sp->axes[i].name, sizeof names - strlen(names) - 1);
            }
            snprintf(why, cap, "unknown parameter '%.*s' (parameters: %s)", (int)(eq - p), p,
                     names);
            return -1;
        }
        long v = 0;
        const char *d = eq + 1;
        if (d == end) {
            snprintf(why, cap, "parameter %s has no value", sp->axes[a].name);
            return -1;
        }
        for (; d < end; ++d) {
            if (*d < '0' || *d > '9' || v > 100000) {
                snprintf(why, cap, "parameter %s: '%.*s' is not a small non-negative integer",
                         sp->axes[a].name, (int)(end - eq - 1), eq + 1);
                return -1;
            }
            v = v * 10 + (*d - '0');
        }
        int ok = 0;
        for (int i = 0; i < sp->axes[a].nvalues; ++i) ok |= sp->axes[a].values[i] == v;
        if (!ok) {
            char vals[128] = "";
            for (int i = 0; i < sp->axes[a].nvalues; ++i) {
                char one[16];
                snprintf(one, sizeof one, "%s%d", i ? "," : "", sp->axes[a].values[i]);
                strncat(vals, one, sizeof vals - strlen(vals) - 1);
            }
            snprintf(why, cap, "parameter %s=%ld is not one of %s", sp->axes[a].name, v, vals);
            return -1;
        }
        values[a] = (int)v;
        p = *end ? end + 1 : end;
    }
    return 0;
}

void tsl__space_format(const tsl__space *sp, const int *values, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "%s:", sp->variant);
    for (int a = 0; a < sp->naxes && n < cap; ++a)
        n += (size_t)snprintf(out + n, cap - n, "%s%s=%d", a ? "," : "", sp->axes[a].name,
                              values[a]);
}

/* Whether the tuner walks axis a (the space's held axes stay at their first value). */
static int searched(const tsl__space *sp, int a)
{
    return !(sp->held >> a & 1ul);
}

/* Mixed-radix code of a point over the searched axes: the first searched axis is the most
 * significant digit (value indices); the held axes are at index 0 and not part of the code. */
static uint64_t encode(const tsl__space *sp, const int *idx)
{
    uint64_t c = 0;
    for (int a = 0; a < sp->naxes; ++a)
        if (searched(sp, a)) c = c * (uint64_t)sp->axes[a].nvalues + (uint64_t)idx[a];
    return c;
}

static void decode(const tsl__space *sp, uint64_t c, int *idx)
{
    for (int a = sp->naxes - 1; a >= 0; --a) {
        idx[a] = 0;
        if (!searched(sp, a)) continue;
        idx[a] = (int)(c % (uint64_t)sp->axes[a].nvalues);
        c /= (uint64_t)sp->axes[a].nvalues;
    }
}

static void values_of(const tsl__space *sp, const int *idx, int *values)
{
    for (int a = 0; a < sp->naxes; ++a) values[a] = sp->axes[a].values[idx[a]];
}

static long find_point(const tsl_tuner *t, uint64_t code)
{
    size_t lo = 0, hi = t->npoints;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->points[mid] < code) lo = mid + 1;
        else hi = mid;
    }
    return (lo < t->npoints && t->points[lo] == code) ? (long)lo : -1;
}

static uint64_t next_random(tsl_tuner *t)
{
    uint64_t x = t->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return t->rng = x;
}

/* The code of a configuration (one value per axis) as a point of the searched space: the held
 * axes take their first value (auto's tiled2d with DIRECT=2 is the searched point with DIRECT=0:
 * the same kernel wherever the operands need no packing, as at the tuner's sizes). */
static int values_code(const tsl__space *sp, int *values, uint64_t *code)
{
    int idx[TSL__MAX_AXES];
    for (int a = 0; a < sp->naxes; ++a)
        if (!searched(sp, a)) values[a] = sp->axes[a].values[0];
    for (int a = 0; a < sp->naxes; ++a) {
        idx[a] = 0;
        while (idx[a] < sp->axes[a].nvalues && sp->axes[a].values[idx[a]] != values[a]) ++idx[a];
        if (idx[a] == sp->axes[a].nvalues) return -1;
    }
    *code = encode(sp, idx);
    return 0;
}

/* The same for a configuration string: the axes it does not name take their first value. */
static int config_code(const tsl__space *sp, const char *cfg, uint64_t *code)
{
    int values[TSL__MAX_AXES];
    char why[256];
    for (int a = 0; a < sp->naxes; ++a) values[a] = sp->axes[a].values[0];
    if (tsl__space_parse(sp, cfg, values, why, sizeof why) != 0) return -1;
    return values_code(sp, values, code);
}

/* The valid points under the prefix of axes 0..a-1 set in idx and values, into t->points. */
static void enumerate(tsl_tuner *t, const tsl_context *ctx, int a, const int *nallow,
                      int (*allow)[TSL__MAX_AXIS_VALUES], int *idx, int *values)
{
    const tsl__space *sp = t->sp;
    if (a == sp->naxes) {
        if (sp->valid(ctx, t->kind, values)) t->points[t->npoints++] = encode(sp, idx);
        return;
    }
    for (int i = 0; i < nallow[a] && t->npoints < MAX_VALID; ++i) {
        idx[a] = allow[a][i];
        values[a] = sp->axes[a].values[idx[a]];
        if (sp->prefix_ok && !sp->prefix_ok(ctx, t->kind, values, a)) continue;
        enumerate(t, ctx, a + 1, nallow, allow, idx, values);
    }
}

tsl_status tsl__tuner_create(tsl_context *ctx, const char *op, const tsl__space *sp, int kind,
                             const char *first_class, unsigned long long seed, tsl_tuner **out)
{
    if (sp->naxes > TSL__MAX_AXES)
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "tsl_tuner_create: %s has more axes (%d) than "
                         "the tuner holds (%d)", op, sp->naxes, TSL__MAX_AXES);
    char why[400];
    const char *no = sp->unavailable ? sp->unavailable(ctx, kind, why, sizeof why) : NULL;
    if (no) return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "tsl_tuner_create: %s", no);
    uint64_t total = 1; /* the codes' range: every searched axis's values */
    for (int a = 0; a < sp->naxes; ++a) {
        uint64_t nv = (uint64_t)sp->axes[a].nvalues;
        if (!searched(sp, a) || !nv) continue;
        if (total > UINT64_MAX / nv)
            return tsl__fail(ctx, TSL_ERR_UNSUPPORTED, "tsl_tuner_create: space too large");
        total *= nv;
    }
    tsl_tuner *t = tsl__calloc(1, sizeof *t);
    if (t) t->points = tsl__malloc(MAX_VALID * sizeof *t->points);
    if (!t || !t->points) {
        if (t) tsl__free(t);
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "tsl_tuner_create: out of host memory");
    }
    t->sp = sp;
    t->kind = kind;
    /* every point of the searched axes' allowed values, in increasing code order (a walk over the
     * allowed value indices, the last axis fastest, skipping what prefix_ok rules out); the
     * unsearched axes at their first value */
    int idx[TSL__MAX_AXES], values[TSL__MAX_AXES];
    int nallow[TSL__MAX_AXES], allow[TSL__MAX_AXES][TSL__MAX_AXIS_VALUES];
    int any = 1;
    for (int a = 0; a < sp->naxes; ++a) {
        idx[a] = nallow[a] = 0;
        for (int i = 0; searched(sp, a) && i < sp->axes[a].nvalues; ++i)
            if (!sp->allowed || sp->allowed(ctx, kind, a, sp->axes[a].values[i]))
                allow[a][nallow[a]++] = i;
        if (!searched(sp, a)) allow[a][nallow[a]++] = 0; /* held at its first value */
        if (nallow[a] == 0) any = 0;
    }
    if (any) enumerate(t, ctx, 0, nallow, allow, idx, values);
    if (t->npoints == 0) {
        tsl__free(t->points);
        tsl__free(t);
        return tsl__fail(ctx, TSL_ERR_UNSUPPORTED,
                         "tsl_tuner_create: no configuration of %s fits device %s", op,
                         ctx->info.name);
    }
    t->done = tsl__calloc(t->npoints, 1);
    if (!t->done) {
        tsl__free(t->points);
        tsl__free(t);
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "tsl_tuner_create: out of host memory");
    }
    t->best = t->last = t->first = -1;
    t->rng = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    if (!t->rng) t->rng = 1;
    /* auto's configuration (for a whole class, the caller says which) goes first */
    const char *src;
    const char *cfg = tsl__tuning_find(ctx, op, kind, first_class, NULL, &src);
    uint64_t code;
    if (cfg && config_code(sp, cfg, &code) == 0) t->first = find_point(t, code);
    const int max_seeds = (int)(sizeof t->seeds / sizeof t->seeds[0]);
    for (int i = 0; sp->kind_seed && t->nseeds < max_seeds && sp->kind_seed(kind, i, values); ++i)
        if (values_code(sp, values, &code) == 0) t->seeds[t->nseeds++] = code;
    for (int i = 0; sp->seeds && sp->seeds[i] && t->nseeds < max_seeds; ++i)
        if (config_code(sp, sp->seeds[i], &code) == 0) t->seeds[t->nseeds++] = code;
    *out = t;
    return TSL_OK;
}

tsl_status tsl_tuner_fix(tsl_tuner *t, const char *params)
{
    if (!t || !params) return TSL_ERR_INVALID_ARG;
    const tsl__space *sp = t->sp;
    int fixed[TSL__MAX_AXES];
    for (int a = 0; a < sp->naxes; ++a) fixed[a] = -1;
    char cfg[512], why[256];
    snprintf(cfg, sizeof cfg, "%s:%s", sp->variant, params);
    if (tsl__space_parse(sp, cfg, fixed, why, sizeof why) != 0) return TSL_ERR_INVALID_ARG;
    size_t kept = 0;
    int idx[TSL__MAX_AXES];
    for (size_t i = 0; i < t->npoints; ++i) {
        decode(sp, t->points[i], idx);
        int ok = 1;
        for (int a = 0; a < sp->naxes; ++a)
            ok &= fixed[a] < 0 || sp->axes[a].values[idx[a]] == fixed[a];
        if (ok) {
            t->points[kept] = t->points[i];
            t->done[kept] = t->done[i];
            if ((long)i == t->first) t->first = (long)kept;
            ++kept;
        } else if ((long)i == t->first) {
            t->first = -1;
        }
    }
    if (kept == 0) return TSL_ERR_UNSUPPORTED;
    t->npoints = kept;
    t->ntried = 0;
    for (size_t i = 0; i < kept; ++i) t->ntried += t->done[i];
    t->best = t->last = -1;
    return TSL_OK;
}

size_t tsl_tuner_space_size(const tsl_tuner *t)
{
    return t ? t->npoints : 0;
}

static long untried_neighbour(tsl_tuner *t)
{
    if (t->best < 0) return -1;
    int idx[TSL__MAX_AXES];
    long cand[2 * TSL__MAX_AXES];
    int nc = 0;
    for (int a = 0; a < t->sp->naxes; ++a)
        for (int step = -1; step <= 1 && searched(t->sp, a); step += 2) {
            decode(t->sp, t->points[t->best], idx);
            idx[a] += step;
            if (idx[a] < 0 || idx[a] >= t->sp->axes[a].nvalues) continue;
            long p = find_point(t, encode(t->sp, idx));
            if (p >= 0 && !t->done[p]) cand[nc++] = p;
        }
    return nc ? cand[next_random(t) % (uint64_t)nc] : -1;
}

static long untried_random(tsl_tuner *t)
{
    size_t left = t->npoints - t->ntried;
    if (left == 0) return -1;
    size_t r = (size_t)(next_random(t) % left);
    for (size_t i = 0; i < t->npoints; ++i)
        if (!t->done[i] && r-- == 0) return (long)i;
    return -1;
}

const char *tsl_tuner_next(tsl_tuner *t)
{
    if (!t || t->ntried == t->npoints) return NULL;
    long p = -1;
    if (t->ntried == 0 && t->first >= 0) p = t->first;
    while (p < 0 && t->next_seed < t->nseeds) { /* seeds that are valid here and untried */
        long q = find_point(t, t->seeds[t->next_seed++]);
        if (q >= 0 && !t->done[q]) p = q;
    }
    if (p < 0 && t->npoints <= EXHAUSTIVE_MAX) {
        for (size_t i = 0; i < t->npoints && p < 0; ++i)
            if (!t->done[i]) p = (long)i;
    } else if (p < 0) {
        if (t->ntried % 2 == 0) p = untried_neighbour(t);
        if (p < 0) p = untried_random(t);
    }
    if (p < 0) return NULL;
    t->done[p] = 1;
    t->ntried++;
    t->last = p;
    int idx[TSL__MAX_AXES], values[TSL__MAX_AXES];
    decode(t->sp, t->points[p], idx);
    values_of(t->sp, idx, values);
    tsl__space_format(t->sp, values, t->config, sizeof t->config);
    return t->config;
}

void tsl_tuner_report(tsl_tuner *t, double score)
{
    if (!t || t->last < 0) return;
    if (score > 0 && (t->best < 0 || score > t->best_score)) {
        t->best = t->last;
        t->best_score = score;
    }
    t->last = -1;
}

void tsl_tuner_destroy(tsl_tuner *t)
{
    if (!t) return;
    tsl__free(t->points);
    tsl__free(t->done);
    tsl__free(t);
}
