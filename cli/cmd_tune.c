/* cmd_tune.c: `tessel tune <op>`, the auto-tuner, and `tessel tune --show`, what `auto` picks.
 *
 * Tuning: for each precision and each size class of the given shapes (the tuning database keys
 * entries by class: tsl_tuning_class), the library's tuner (tsl_tuner_*) hands out configurations
 * of the op's search space, the configuration `auto` uses now first. Each one is built, run once
 * and verified against the CPU reference (a candidate that fails can never win), then timed:
 * `repeat` calls, median kernel time from profiling events, GFLOP/s. A class with several shapes
 * scores a candidate by the geometric mean over them. The budget (--budget-s) is wall time, shared
 * evenly by the (precision, class) groups. The search's best few (the finalists) are then timed
 * against auto itself, several times, on the tuned shapes and on the corners of the region the
 * entry would cover, and one is stored only if it is nowhere slower than auto within the spread
 * of auto's times and somewhere faster (tune_decide.h); otherwise auto is kept and nothing is
 * written (an entry tuned at 256 alone can make 1024 3x slower). A stored entry records the
 * tuned shapes (measured=) and serves only problems near them. Every measurement is a row of the
 * report (CSV/JSON; the check's rows carry "check": 1 in JSON); stdout shows the baseline, the
 * search's best, the check's table and the verdict of each group; progress goes to a terminal's
 * stderr. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "common.h"
#include "commands.h"
#include "measure.h"
#include "output.h"
#include "tessel.h"
#include "tune_data.h"
#include "tune_decide.h"

#define MAX_SHAPES 16

typedef tune_shape shape;
typedef tune_data shape_data;

typedef struct {
    const char *device, *precision, *math, *shapes_text, *csv, *json, *fix;
    cli_size_list sizes;
    size_t size, repeat, seed;
    unsigned max_candidates;
    double budget_s;
    unsigned warmup;
    int show, no_store, quiet, help;
    shape shapes[MAX_SHAPES];
    size_t nshapes;
    cli_session s;
    FILE *out; /* the run's summary: stdout, or stderr when CSV or JSON goes to stdout */
} tune_job;

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* "4096x4096x256,1000" into shapes (a single number N is N x N x N). */
static int parse_shapes(tune_job *job)
{
    if (job->shapes_text) {
        cli_name_list names;
        if (cli_split_names(job->shapes_text, &names) != 0 || names.n > MAX_SHAPES)
            return cli_error(CLI_EXIT_USAGE,
                             "tune: --shapes takes up to %d comma-separated MxNxK or N", MAX_SHAPES);
        for (size_t i = 0; i < names.n; ++i) {
            size_t d[3];
            int nd = 0;
            char buf[128];
            snprintf(buf, sizeof buf, "%s", names.v[i]);
            char *save = NULL;
            for (char *t = strtok_r(buf, "x", &save); t; t = strtok_r(NULL, "x", &save)) {
                if (nd == 3 || cli_parse_size(t, &d[nd]) != 0 || d[nd] == 0 || d[nd] > 65536)
                    return cli_error(CLI_EXIT_USAGE,
                                     "tune: --shapes: '%s' is not MxNxK or N with sizes 1..65536",
                                     names.v[i]);
                ++nd;
            }
            if (nd != 1 && nd != 3)
                return cli_error(CLI_EXIT_USAGE, "tune: --shapes: '%s' is not MxNxK or N",
                                 names.v[i]);
            job->shapes[job->nshapes++] =
                nd == 1 ? (shape){d[0], d[0], d[0]} : (shape){d[0], d[1], d[2]};
        }
        if (job->sizes.n || job->size)
            return cli_error(CLI_EXIT_USAGE, "tune: give --shapes or --size/--sizes, not both");
        return 0;
    }
    int rc = cli_sizes("tune", "--size", job->size, &job->sizes, 1024);
    if (rc) return rc;
    for (size_t i = 0; i < job->sizes.n && job->nshapes < MAX_SHAPES; ++i) {
        if (job->sizes.v[i] > 65536)
            return cli_error(CLI_EXIT_USAGE, "tune: size %zu is over 65536", job->sizes.v[i]);
        job->shapes[job->nshapes++] = (shape){job->sizes.v[i], job->sizes.v[i], job->sizes.v[i]};
    }
    return 0;
}

static tsl_status prepare_shape(tune_job *job, tune_kind kind, shape sh, shape_data *d)
{
    return tune_data_prepare(job->s.ctx, kind, job->seed, sh, d);
}

/* Runs, verifies and times one configuration on one shape into row; returns GFLOP/s, or 0 when it
 * failed (row->status says how). */
static double measure(tune_job *job, tune_kind kind, const char *cfg, shape_data *d, cli_row *row)
{
    tsl_context *ctx = job->s.ctx;
    shape sh = d->sh;
    row->m = (long long)sh.m;
    row->n = (long long)sh.n;
    row->k = (long long)sh.k;
    tsl_status st = tsl_context_set_variant(ctx, "gemm", cfg);
    tsl_timing t;
    if (st == TSL_OK) st = tune_data_call(ctx, kind, d);
    if (tsl_context_timing(ctx, &t) == TSL_OK) row->build_ms = t.build_ms;
    if (st != TSL_OK) {
        row->status = st == TSL_ERR_UNSUPPORTED || st == TSL_ERR_BUILD ? "skipped" : "error";
        return 0.0;
    }
    double err, tol;
    if ((st = tune_data_check(ctx, kind, d, &err, &tol)) != TSL_OK) {
        row->status = "error";
        return 0.0;
    }
    row->max_rel_err = err;
    if (!(err <= tol)) {
        row->status = "verify_failed";
        return 0.0;
    }
    double times[64];
    size_t runs = job->repeat < 64 ? job->repeat : 64;
    for (unsigned w = 0; w < job->warmup; ++w)
        if (tune_data_call(ctx, kind, d) != TSL_OK) break;
    for (size_t r = 0; r < runs; ++r) {
        if ((st = tune_data_call(ctx, kind, d)) != TSL_OK || tsl_context_timing(ctx, &t) != TSL_OK) {
            row->status = "error";
            return 0.0;
        }
        times[r] = t.kernel_ms;
    }
    qsort(times, runs, sizeof times[0], cmp_double);
    double ms = runs % 2 ? times[runs / 2] : 0.5 * (times[runs / 2 - 1] + times[runs / 2]);
    row->kernel_ms = ms;
    row->gflops = ms > 0 ? 2.0 * (double)sh.m * (double)sh.n * (double)sh.k / (ms * 1e6) : 0.0;
    row->status = "ok";
    return row->gflops;
}

typedef struct {
    char config[256];
    double score;
} best;

/* The finalists: the best few configurations of the search, other than auto's, that scored above
 * it; each is then checked against auto on the shapes its entry would cover. */
#define FINALISTS 3

/* 1 when NAME=V occurs in the parameter list params (",NAME=V,..." form, after the colon). */
static int has_param(const char *params, const char *pair, size_t len)
{
    for (const char *p = params; p && *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == len && strncmp(p, pair, len) == 0) return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

/* 1 when every NAME=V of a is in b, or is NAME=0 and b does not name it. */
static int params_within(const char *a, const char *b)
{
    for (const char *p = a; p && *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', l);
        if (!has_param(b, p, l)) {
            if (!eq || !(l - (size_t)(eq - p) == 2 && eq[1] == '0')) return 0;
            char name[64];
            snprintf(name, sizeof name, "%.*s=", (int)(eq - p), p);
            for (const char *q = b; q && *q; q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL)
                if (strncmp(q, name, strlen(name)) == 0) return 0; /* b names it, not 0 */
        }
        p = end ? end + 1 : NULL;
    }
    return 1;
}

/* 1 when two configurations are the same one, spelt with or without the parameters at 0 that a
 * database entry may leave out (the tuner names every parameter; auto's entry may not). */
static int same_config(const char *a, const char *b)
{
    const char *ca = strchr(a, ':'), *cb = strchr(b, ':');
    size_t la = ca ? (size_t)(ca - a) : strlen(a), lb = cb ? (size_t)(cb - b) : strlen(b);
    if (la != lb || strncmp(a, b, la) != 0) return 0;
    const char *pa = ca ? ca + 1 : "", *pb = cb ? cb + 1 : "";
    return params_within(pa, pb) && params_within(pb, pa);
}

/* Keeps the FINALISTS best scores, best first. */
static void keep_finalist(best *f, size_t *nf, const char *cfg, double score)
{
    size_t i = *nf < FINALISTS ? (*nf)++ : FINALISTS;
    while (i > 0 && f[i - 1].score < score) {
        if (i < FINALISTS) f[i] = f[i - 1];
        --i;
    }
    if (i < FINALISTS) {
        snprintf(f[i].config, sizeof f[i].config, "%s", cfg);
        f[i].score = score;
    }
}

static int shape_cmp(const void *x, const void *y)
{
    const shape *a = x, *b = y;
    double va = (double)a->m * (double)a->n * (double)a->k,
           vb = (double)b->m * (double)b->n * (double)b->k;
    if (va != vb) return (va > vb) - (va < vb);
    if (a->m != b->m) return (a->m > b->m) - (a->m < b->m);
    if (a->n != b->n) return (a->n > b->n) - (a->n < b->n);
    return (a->k > b->k) - (a->k < b->k);
}

/* The shapes the finalists are checked on: the group's own, and the corners of the region its
 * entry will cover (tsl__shape_near: each size within a factor of 2), every size halved and every
 * size doubled, where the corner stays in the class, at most 65536 and within the device's largest
 * buffer. Sorted by size, no duplicates. */
static size_t check_shapes(tune_job *job, const char *op, tune_kind kind, const char *cls,
                           const shape_data *ds, size_t nd, shape *out)
{
    size_t n = 0, es = tune_kind_elem(kind);
    for (size_t i = 0; i < nd; ++i) {
        shape s = ds[i].sh;
        shape c[3] = {
            {(s.m + 1) / 2, (s.n + 1) / 2, (s.k + 1) / 2}, s, {2 * s.m, 2 * s.n, 2 * s.k}};
        for (int j = 0; j < 3; ++j) {
            double big = (double)c[j].m * (double)(c[j].k > c[j].n ? c[j].k : c[j].n);
            if ((double)c[j].k * (double)c[j].n > big) big = (double)c[j].k * (double)c[j].n;
            if (j != 1 && (c[j].m > 65536 || c[j].n > 65536 || c[j].k > 65536 ||
                           big * (double)es > (double)job->s.dev.max_alloc ||
                           strcmp(tsl_tuning_class(op, c[j].m, c[j].n, c[j].k), cls) != 0))
                continue;
            size_t k = 0;
            while (k < n && shape_cmp(&out[k], &c[j]) != 0)
                ++k;
            if (k == n && n < TUNE_MAX_CHECK_SHAPES) out[n++] = c[j];
        }
    }
    qsort(out, n, sizeof out[0], shape_cmp);
    return n;
}

/* Times every finalist and auto (several times, interleaved) on each check shape, decides
 * (tune_decide) and prints what it found. Returns the decision; rows go to the report. */
static int check_finalists(tune_job *job, tune_kind kind, const char *cls, shape_data *ds,
                           size_t nd, const best *fin, size_t nf, tune_decision *dec, shape *cs,
                           size_t *ncs)
{
    const char *prec = tune_kind_name(kind);
    *ncs = check_shapes(job, "gemm", kind, cls, ds, nd, cs);
    size_t nb = nf + 1 < 3 ? 3 : nf + 1;
    double base[TUNE_MAX_CHECK_SHAPES * (FINALISTS + 1 < 3 ? 3 : FINALISTS + 1)];
    double cand[FINALISTS * TUNE_MAX_CHECK_SHAPES];
    double t0 = cli_now_s();
    for (size_t i = 0; i < *ncs; ++i) {
        shape_data own, *d = NULL;
        for (size_t j = 0; j < nd && !d; ++j)
            if (shape_cmp(&ds[j].sh, &cs[i]) == 0) d = &ds[j];
        if (!d) {
            tsl_status st = prepare_shape(job, kind, cs[i], &own);
            if (st != TSL_OK)
                return cli_error(CLI_EXIT_RUNTIME,
                                 "tune: cannot set up the data of %zux%zux%zu: "
                                 "%s (%s)",
                                 cs[i].m, cs[i].n, cs[i].k, tsl_context_error(job->s.ctx),
                                 tsl_status_name(st));
            d = &own;
        }
        /* auto, a finalist, auto, the next finalist, ..., auto: drift shows in auto's spread */
        for (size_t r = 0; r < nb; ++r) {
            for (int is_cand = 0; is_cand <= (r < nf); ++is_cand) {
                cli_row row;
                cli_row_start(&job->s, "gemm", is_cand ? fin[r].config : "auto", &row);
                row.precision = prec;
                row.extra_name[0] = "check";
                row.extra[0] = 1;
                double g = measure(job, kind, is_cand ? fin[r].config : "auto", d, &row);
                cli_report_row(job->s.rep, &row);
                double ms = g > 0 ? row.kernel_ms : 0.0;
                if (is_cand)
                    cand[r * *ncs + i] = ms;
                else
                    base[i * nb + r] = ms;
                cli_progress("tune gemm %s %s: checking %zu finalists against auto on %zu shapes, "
                             "%zu/%zu, %.0f s",
                             prec, cls, nf, *ncs, i + 1, *ncs, cli_now_s() - t0);
            }
        }
        if (d == &own) tune_data_free(&own);
    }
    cli_progress_clear();
    tune_times tt = {*ncs, nb, nf, base, cand};
    tune_decide(&tt, dec);
    /* the comparison, as speed against auto (auto's time / the finalist's) */
    fprintf(job->out,
            "  checked against auto on %zu shapes (auto timed %zu times on each; spread = (max - "
            "min) / median):\n",
            *ncs, nb);
    fprintf(job->out, "    %-20s %10s %7s", "shape", "auto ms", "spread");
    for (size_t c = 0; c < nf; ++c)
        fprintf(job->out, "  finalist %zu", c + 1);
    fprintf(job->out, "\n");
    for (size_t i = 0; i < *ncs; ++i) {
        char shp[64];
        snprintf(shp, sizeof shp, "%zux%zux%zu", cs[i].m, cs[i].n, cs[i].k);
        fprintf(job->out, "    %-20s %10.4g %6.1f%%", shp, dec->base_ms[i], 100.0 * dec->spread[i]);
        for (size_t c = 0; c < nf; ++c) {
            double ms = cand[c * *ncs + i];
            if (ms > 0 && dec->base_ms[i] > 0)
                fprintf(job->out, "  %9.2fx", dec->base_ms[i] / ms);
            else
                fprintf(job->out, "  %10s", "failed");
        }
        fprintf(job->out, "\n");
    }
    for (size_t c = 0; c < nf; ++c)
        fprintf(job->out, "    finalist %zu: %s\n", c + 1, fin[c].config);
    return 0;
}

/* The group's shapes as "MxNxK+MxNxK" (the entry's measured= note). */
static void shapes_text(const shape_data *ds, size_t nd, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < nd && n < cap; ++i)
        n += (size_t)snprintf(out + n, cap - n, "%s%zux%zux%zu", i ? "+" : "", ds[i].sh.m,
                              ds[i].sh.n, ds[i].sh.k);
}

/* The tuner of a kind (the context in its math mode), restricted by --fix: 0, or an error line's
 * exit code (a device without the kind's tensor-core instruction: the library's reason). */
static int make_tuner(tune_job *job, tune_kind kind, tsl_tuner **t)
{
    tsl_context *ctx = job->s.ctx;
    *t = NULL;
    tsl_status st = tsl_context_set_option(ctx, "gemm", "math", (long)kind.math);
    if (st == TSL_OK) st = tsl_tuner_create(ctx, "gemm", (int)kind.prec, job->seed, t);
    if (st != TSL_OK) {
        const char *why = tsl_context_error(ctx), *api = "tsl_tuner_create: ";
        if (strncmp(why, api, strlen(api)) == 0) why += strlen(api);
        return cli_error(CLI_EXIT_RUNTIME, "tune gemm %s: %s (%s)", tune_kind_name(kind), why,
                         tsl_status_name(st));
    }
    if (job->fix && (st = tsl_tuner_fix(*t, job->fix)) != TSL_OK) {
        tsl_tuner_destroy(*t);
        *t = NULL;
        return cli_error(st == TSL_ERR_INVALID_ARG ? CLI_EXIT_USAGE : CLI_EXIT_RUNTIME,
                         st == TSL_ERR_INVALID_ARG
                             ? "tune: --fix '%s' names an unknown parameter or value"
                             : "tune: --fix '%s' leaves no %s configuration that fits %s",
                         job->fix, tune_kind_name(kind), job->s.dev.name);
    }
    return 0;
}

/* Tunes one (kind, class) group of shapes for budget seconds with tuner t (destroyed here). */
static int tune_group(tune_job *job, tune_kind kind, tsl_tuner *t, const char *cls,
                      shape_data *ds, size_t nd, double budget)
{
    tsl_context *ctx = job->s.ctx;
    tsl_status st;
    const char *prec = tune_kind_name(kind);
    size_t space = tsl_tuner_space_size(t);
    double t0 = cli_now_s();
    best b = {"", 0.0}, base = {"", 0.0}, fin[FINALISTS];
    size_t tried = 0, passed = 0, nf = 0;
    /* The baseline: what auto runs now for this class, measured first (it may lie outside a
     * --fix space); a winner must beat it to be stored. */
    const char *now_cfg, *now_src;
    tsl_tuning_lookup(ctx, "gemm", (int)kind.prec, ds[0].sh.m, ds[0].sh.n, ds[0].sh.k, &now_cfg,
                      &now_src);
    snprintf(base.config, sizeof base.config, "%s", *now_cfg ? now_cfg : "auto");
    char src[1400];
    snprintf(src, sizeof src, "%s", now_src);
    const char *cfg = base.config;
    int baseline = 1;
    while (baseline || (cfg = tsl_tuner_next(t)) != NULL) {
        if (!baseline && strcmp(cfg, base.config) == 0) continue; /* measured already */
        if (tried > 0 &&
            (cli_now_s() - t0 > budget || (job->max_candidates && tried >= job->max_candidates)))
            break;
        ++tried;
        double logsum = 0.0;
        int ok = 1;
        for (size_t i = 0; i < nd && ok; ++i) {
            cli_row row;
            cli_row_start(&job->s, "gemm", cfg, &row);
            row.precision = prec;
            double g = measure(job, kind, cfg, &ds[i], &row);
            cli_report_row(job->s.rep, &row);
            if (g > 0)
                logsum += log(g);
            else
                ok = 0;
        }
        double score = ok ? exp(logsum / (double)nd) : 0.0;
        if (baseline)
            base.score = score;
        else
            tsl_tuner_report(t, score);
        if (!baseline && score > base.score && !same_config(cfg, base.config))
            keep_finalist(fin, &nf, cfg, score);
        baseline = 0;
        if (ok) ++passed;
        if (score > b.score) {
            snprintf(b.config, sizeof b.config, "%s", cfg);
            b.score = score;
        }
        cli_progress("tune gemm %s %s: %zu tried (%zu verified) of %zu, %.0f/%.0f s, best %.1f "
                     "GFLOP/s",
                     prec, cls, tried, passed, space, cli_now_s() - t0, budget, b.score);
    }
    tsl_tuner_destroy(t);
    cli_progress_clear();
    if (b.score <= 0)
        return cli_error(CLI_EXIT_RUNTIME,
                         "tune: no configuration of gemm (%s, %s) passed verification on %s in "
                         "%zu tried",
                         prec, cls, job->s.dev.name, tried);
    fprintf(job->out, "gemm %s %s: %zu of %zu configurations tried in %.0f s, %zu verified\n", prec,
            cls, tried, space, cli_now_s() - t0, passed);
    fprintf(job->out, "  before: %8.1f GFLOP/s  %s\n", base.score, base.config);
    fprintf(job->out, "  best:   %8.1f GFLOP/s  %s  (%.2fx)\n", b.score, b.config,
            base.score > 0 ? b.score / base.score : 0.0);
    if (nf == 0) {
        fprintf(job->out, "  nothing beat what auto runs now (%s): auto kept, nothing stored\n",
                src);
        return 0;
    }
    tune_decision dec;
    shape cs[TUNE_MAX_CHECK_SHAPES];
    size_t ncs = 0;
    int rc = check_finalists(job, kind, cls, ds, nd, fin, nf, &dec, cs, &ncs);
    if (rc) return rc;
    char shp[64] = "";
    if (dec.verdict == TUNE_KEEP_SLOWER || dec.verdict == TUNE_KEEP_FAILED ||
        dec.verdict == TUNE_KEEP_BASELINE)
        snprintf(shp, sizeof shp, "%zux%zux%zu", cs[dec.shape].m, cs[dec.shape].n, cs[dec.shape].k);
    switch (dec.verdict) {
    case TUNE_STORE:
        break;
    case TUNE_KEEP_NONE:
        fprintf(job->out, "  kept auto: no finalist to check; nothing stored\n");
        return 0;
    case TUNE_KEEP_BASELINE:
        fprintf(job->out, "  kept auto: auto itself did not run or verify at %s; nothing stored\n",
                shp);
        return 0;
    case TUNE_KEEP_FAILED:
        fprintf(job->out,
                "  kept auto: every finalist failed on some shape (finalist %d at %s); nothing "
                "stored\n",
                dec.cand + 1, shp);
        return 0;
    case TUNE_KEEP_SLOWER:
        fprintf(job->out,
                "  kept auto: every finalist is slower than auto somewhere (finalist %d runs at "
                "%.2fx auto's speed at %s, beyond the %.1f%% spread); nothing stored\n",
                dec.cand + 1, dec.ratio, shp,
                100.0 * (dec.spread[dec.shape] > TUNE_MIN_SPREAD ? dec.spread[dec.shape]
                                                                 : TUNE_MIN_SPREAD));
        return 0;
    case TUNE_KEEP_TIE:
        fprintf(job->out,
                "  kept auto: no finalist is faster than auto beyond the spread on any shape "
                "(finalist %d: %.2fx, geometric mean); nothing stored\n",
                dec.cand + 1, dec.ratio);
        return 0;
    }
    const best *w = &fin[dec.cand];
    char near[400];
    shapes_text(ds, nd, near, sizeof near);
    fprintf(job->out,
            "  winner: finalist %d, %.2fx auto's speed (geometric mean over the %zu shapes), "
            "nowhere slower\n",
            dec.cand + 1, dec.ratio, ncs);
    if (job->no_store) {
        fprintf(job->out, "  not stored (--no-store); it would apply near %s\n", near);
        return 0;
    }
    char note[500];
    snprintf(note, sizeof note, "gflops=%.1f,measured=%s,tried=%zu", w->score, near, tried);
    st = tsl_tuning_store(ctx, "gemm", (int)kind.prec, ds[0].sh.m, ds[0].sh.n, ds[0].sh.k,
                          w->config, note);
    if (st != TSL_OK)
        return cli_error(CLI_EXIT_RUNTIME, "tune: %s (%s)", tsl_context_error(ctx),
                         tsl_status_name(st));
    fprintf(job->out, "  stored in %s, for problems near %s\n", tsl_tuning_file(ctx), near);
    return 0;
}

/* The entries of the user file as they stand (an entry measured on some shapes applies only near
 * them, so the table's shapes may not show it), unless the library ignored the file. */
static void list_user_entries(const tsl_context *ctx)
{
    const char *path = tsl_tuning_file(ctx);
    if (!*path || strstr(tsl_context_warning(ctx), path)) return;
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[1100];
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && line[0] != '\n' && strncmp(line, "tessel-tuning", 13) != 0) {
            if (n++ == 0)
                printf("\nentries of %s (measured=: used only for problems within a factor of 2 "
                       "of those shapes in m, n and k):\n", path);
            printf("  %s", line);
            if (!strchr(line, '\n')) printf("\n");
        }
    fclose(f);
}

/* The kinds a run covers: --precision's (for single, in --math's mode), or without it single in
 * --math's mode and, with FP32 math where the device has it, double. */
static size_t job_kinds(const tune_job *job, tune_kind *out)
{
    tsl_math math = !job->math                       ? TSL_MATH_FP32
                    : strcmp(job->math, "tf32") == 0   ? TSL_MATH_TF32
                    : strcmp(job->math, "3xtf32") == 0 ? TSL_MATH_3XTF32
                                                       : TSL_MATH_FP32;
    if (job->precision) {
        tsl_precision p = strcmp(job->precision, "double") == 0     ? TSL_DOUBLE
                          : strcmp(job->precision, "half") == 0     ? TSL_HALF
                          : strcmp(job->precision, "bfloat16") == 0 ? TSL_BFLOAT16
                                                                    : TSL_SINGLE;
        out[0] = (tune_kind){p, p == TSL_SINGLE ? math : TSL_MATH_FP32};
        return 1;
    }
    size_t n = 0;
    out[n++] = (tune_kind){TSL_SINGLE, math};
    if (math == TSL_MATH_FP32 && job->s.dev.fp64) out[n++] = (tune_kind){TSL_DOUBLE, math};
    return n;
}

static int show(tune_job *job)
{
    tsl_context *ctx = job->s.ctx;
    printf("tuning database of %s (driver %s): %s\n", job->s.dev.name, job->s.dev.driver_version,
           *tsl_tuning_file(ctx) ? tsl_tuning_file(ctx) : "(no usable directory)");
    cli_column cols[] = {{"op", 6, 0},    {"precision", 10, 0}, {"class", 7, 0},
                         {"shape", 16, 0}, {"auto runs", 44, 0}, {"because", 0, 0}};
    cli_table_header(stdout, cols, 6);
    static const shape reps[] = {{1024, 1024, 1024}, {16384, 128, 4096}, {4096, 4096, 4096}};
    tune_kind kinds[2];
    size_t nk = job_kinds(job, kinds);
    for (size_t q = 0; q < nk; ++q) {
        tune_kind kind = kinds[q];
        tsl_status st = tsl_context_set_option(ctx, "gemm", "math", (long)kind.math);
        if (st != TSL_OK)
            return cli_error(CLI_EXIT_RUNTIME, "tune --show: %s", tsl_context_error(ctx));
        size_t n = job->nshapes ? job->nshapes : 3;
        for (size_t i = 0; i < n; ++i) {
            shape sh = job->nshapes ? job->shapes[i] : reps[i];
            const char *cfg, *src;
            st = tsl_tuning_lookup(ctx, "gemm", (int)kind.prec, sh.m, sh.n, sh.k, &cfg, &src);
            if (st != TSL_OK)
                return cli_error(CLI_EXIT_RUNTIME, "tune --show: %s", tsl_context_error(ctx));
            char shp[64], pick[300];
            snprintf(shp, sizeof shp, "%zux%zux%zu", sh.m, sh.n, sh.k);
            const char *resolved = NULL;
            if (*cfg) snprintf(pick, sizeof pick, "%s", cfg);
            else if (tsl_variant_check_precision(ctx, "gemm", "auto", kind.prec, &resolved) ==
                     TSL_OK)
                snprintf(pick, sizeof pick, "%s (built-in)", resolved);
            else snprintf(pick, sizeof pick, "(none runs here: %s)", tsl_context_error(ctx));
            const char *cells[] = {"gemm", tune_kind_name(kind),
                                   tsl_tuning_class("gemm", sh.m, sh.n, sh.k), shp, pick, src};
            cli_table_row(stdout, cols, 6, cells);
        }
        /* TRSM's block sizes and part counts (one entry for every shape) */
        if (kind.math == TSL_MATH_FP32 && (kind.prec == TSL_SINGLE || kind.prec == TSL_DOUBLE)) {
            const char *cfg, *src;
            st = tsl_tuning_lookup(ctx, "trsm", (int)kind.prec, 0, 0, 0, &cfg, &src);
            if (st != TSL_OK)
                return cli_error(CLI_EXIT_RUNTIME, "tune --show: %s", tsl_context_error(ctx));
            const char *cells[] = {"trsm", tune_kind_name(kind), "any", "any",
                                   *cfg ? cfg : "(built-in)", src};
            cli_table_row(stdout, cols, 6, cells);
        }
    }
    printf("\nlooked up as (most specific first): %s\n", tsl_tuning_selectors(ctx));
    cli_context_warnings(ctx);
    list_user_entries(ctx);
    return 0;
}

static void print_help(const cli_option *opts, size_t nopts)
{
    printf("Usage: tessel tune gemm [options]\n"
           "       tessel tune --show [--device SPEC] [--precision P] [--shapes ...]\n\n"
           "Searches the parameter space of an operation's fast kernel on one device (gemm: the\n"
           "tile sizes, work per work-item, vector widths, local-memory staging of A and B,\n"
           "prefetching and work-group shape of tiled2d), verifies every candidate against the\n"
           "CPU reference and times it (median of --repeat runs, GFLOP/s), per precision and\n"
           "size class (small: C of at most 2^20 elements, skinny: m or n <= 256, large).\n"
           "Exhaustive for small spaces, else random sampling alternating with refinement\n"
           "around the best. The best 3 are then timed against what auto runs now (auto 3 or more\n"
           "times, interleaved) on the tuned shapes and with every size halved and doubled; one is\n"
           "stored only if it is nowhere slower than auto beyond auto's own spread and somewhere\n"
           "faster, else auto is kept and nothing is stored. A stored entry serves only problems\n"
           "within a factor of 2 of the tuned shapes in m, n and k. Progress on a terminal.\n\n"
           "--precision half or bfloat16, and single precision with --math tf32 or 3xtf32,\n"
           "search tiled2d's tensor-core configurations (MMA=4 for 16-bit storage, MMA=5 for\n"
           "TF32 and 3xTF32, with the asynchronous-copy stages ASYNC, FPIPE and BT), starting\n"
           "from the built-in ones, verified as tessel gemm --verify checks them, and store the\n"
           "winner under that precision (half, bfloat16, tf32, 3xtf32). They need a device with\n"
           "the tensor-core instruction (NVIDIA sm_80 and later); elsewhere they would run\n"
           "emulated, never fast, and tune says so and stops (exit 3). Without --precision:\n"
           "single (in --math's mode) and, in FP32 math, double.\n\n");
    cli_print_options(stdout, opts, nopts);
    printf("\nDatabase: $TESSEL_TUNING_DIR, else <kernel cache dir>/tuning; one file per device\n"
           "and driver. --show prints what auto picks for each class and where it comes from,\n"
           "then the entries of the user file.\n"
           "docs/tuning.md has the format and the lookup order.\n\n"
           "Examples:\n"
           "  tessel tune gemm --sizes 4096 --budget-s 300\n"
           "  tessel tune gemm --precision double --shapes 1000,512 --budget-s 120\n"
           "  tessel tune gemm --precision half --shapes 4096 --budget-s 300\n"
           "  tessel tune gemm --math tf32 --shapes 4096 --budget-s 300\n"
           "  tessel tune --show\n");
}

int cli_cmd_tune(int argc, char **argv)
{
    tune_job job;
    memset(&job, 0, sizeof job);
    job.repeat = 5;
    job.warmup = 1;
    job.seed = 42;
    job.budget_s = 120;
    cli_option opts[] = {
        CLI_OPT_DEVICE(&job.device),
        {"--precision", NULL, CLI_STRING, &job.precision, "P",
         "single, double, half or bfloat16; default single and double (double where the "
         "device has it)"},
        {"--math", NULL, CLI_STRING, &job.math, "M",
         "fp32, tf32 or 3xtf32: single precision's math mode (as tessel gemm --math); default "
         "fp32"},
        {"--size", NULL, CLI_COUNT, &job.size, "N", "tune on N x N x N"},
        {"--sizes", NULL, CLI_SIZE_LIST, &job.sizes, "A,B", "tune on these square sizes"},
        {"--shapes", NULL, CLI_STRING, &job.shapes_text, "MxNxK,...",
         "tune on these shapes (N alone: square); default 1024"},
        {"--budget-s", NULL, CLI_REAL, &job.budget_s, "S",
         "wall-time budget in seconds, shared by the precision x class groups; default 120"},
        {"--max-candidates", NULL, CLI_UINT, &job.max_candidates, "N",
         "stop a group after N candidates (0: budget only); default 0"},
        CLI_OPT_REPEAT(&job.repeat),
        CLI_OPT_WARMUP(&job.warmup),
        CLI_OPT_SEED(&job.seed),
        {"--fix", NULL, CLI_STRING, &job.fix, "NAME=V,...",
         "search only configurations with these parameter values (e.g. SA=1,DBUF=1)"},
        {"--no-store", NULL, CLI_FLAG, &job.no_store, NULL,
         "report the winners without writing the database"},
        {"--show", NULL, CLI_FLAG, &job.show, NULL, "print what auto picks and why, then stop"},
        CLI_OPTS_OUTPUT(&job.csv, &job.json, &job.quiet, &job.help),
    };
    size_t nopts = sizeof opts / sizeof opts[0];
    /* the op is the first argument unless it is an option (--show needs none) */
    const char *op = argc > 0 && argv[0][0] != '-' ? argv[0] : NULL;
    int rc = cli_read_options("tune", argc - (op != NULL), argv + (op != NULL), opts, nopts,
                              print_help);
    if (rc >= 0) return rc;
    if (!job.show && !op)
        return cli_error(CLI_EXIT_USAGE, "tune: which operation? (tunable: gemm; or --show)");
    if (op && strcmp(op, "gemm") != 0)
        return cli_error(CLI_EXIT_USAGE,
                         "tune: operation '%s' has no search space (tunable: gemm)", op);
    if (job.precision && strcmp(job.precision, "single") != 0 &&
        strcmp(job.precision, "double") != 0 && strcmp(job.precision, "half") != 0 &&
        strcmp(job.precision, "bfloat16") != 0)
        return cli_error(CLI_EXIT_USAGE,
                         "tune: --precision expects single, double, half or bfloat16, got '%s'",
                         job.precision);
    if (job.math && strcmp(job.math, "fp32") != 0 && strcmp(job.math, "tf32") != 0 &&
        strcmp(job.math, "3xtf32") != 0)
        return cli_error(CLI_EXIT_USAGE, "tune: --math expects fp32, tf32 or 3xtf32, got '%s'",
                         job.math);
    if (job.math && strcmp(job.math, "fp32") != 0 && job.precision &&
        strcmp(job.precision, "single") != 0)
        return cli_error(CLI_EXIT_USAGE,
                         "tune: --math %s is a mode of single precision: use it with --precision "
                         "single (or without --precision), not %s",
                         job.math, job.precision);
    if (!(job.budget_s > 0) || job.budget_s > 86400)
        return cli_error(CLI_EXIT_USAGE, "tune: --budget-s must be in (0, 86400]");
    if ((rc = cli_check_runs("tune", job.repeat, job.warmup, 64)) != 0) return rc;
    if ((job.shapes_text || job.size || job.sizes.n || !job.show) && (rc = parse_shapes(&job)))
        return rc;
    int need_fp64 = job.precision && strcmp(job.precision, "double") == 0;
    rc = cli_session_open(&job.s, job.show ? NULL : job.csv, job.show ? NULL : job.json,
                          1 /* the candidates are CSV/JSON rows; the table is the summary */,
                          NULL, job.device, need_fp64);
    if (rc) return rc;
    job.s.repeat = job.repeat;
    job.out = (job.csv && strcmp(job.csv, "-") == 0) || (job.json && strcmp(job.json, "-") == 0)
                  ? stderr
                  : stdout;
    if (job.show) {
        rc = show(&job);
        cli_session_abort(&job.s, 0);
        return rc;
    }
    /* groups: precision x class, in the order the shapes name them */
    int rc_all = 0;
    int ngroups = 0;
    const char *classes[MAX_SHAPES];
    size_t nclasses = 0;
    for (size_t i = 0; i < job.nshapes; ++i) {
        const char *c = tsl_tuning_class("gemm", job.shapes[i].m, job.shapes[i].n, job.shapes[i].k);
        size_t j = 0;
        while (j < nclasses && strcmp(classes[j], c) != 0) ++j;
        if (j == nclasses) classes[nclasses++] = c;
    }
    tune_kind kinds[2];
    size_t nk = job_kinds(&job, kinds);
    ngroups = (int)(nk * nclasses);
    double per_group = job.budget_s / (ngroups ? ngroups : 1);
    for (size_t q = 0; q < nk && !rc_all; ++q) {
        for (size_t c = 0; c < nclasses && !rc_all; ++c) {
            /* the tuner first: a kind this device cannot tune is said before any data is made */
            tsl_tuner *t = NULL;
            if ((rc_all = make_tuner(&job, kinds[q], &t)) != 0) break;
            shape_data ds[MAX_SHAPES];
            size_t nd = 0;
            tsl_status st = TSL_OK;
            for (size_t i = 0; i < job.nshapes && st == TSL_OK; ++i) {
                if (strcmp(tsl_tuning_class("gemm", job.shapes[i].m, job.shapes[i].n,
                                            job.shapes[i].k),
                           classes[c]) != 0)
                    continue;
                st = prepare_shape(&job, kinds[q], job.shapes[i], &ds[nd]);
                if (st == TSL_OK) ++nd;
            }
            if (st != TSL_OK) {
                tsl_tuner_destroy(t);
                rc_all = cli_error(CLI_EXIT_RUNTIME, "tune: cannot set up the data: %s (%s)",
                                   tsl_context_error(job.s.ctx), tsl_status_name(st));
            } else {
                rc_all = tune_group(&job, kinds[q], t, classes[c], ds, nd, per_group);
            }
            for (size_t i = 0; i < nd; ++i) tune_data_free(&ds[i]);
        }
    }
    int rc_close = cli_session_close(&job.s);
    return rc_all ? rc_all : (rc_close == CLI_EXIT_VERIFY ? 0 : rc_close);
}
