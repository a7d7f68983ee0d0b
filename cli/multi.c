/* multi.c: the runner of `tessel gemm|poisson --devices ...` and `--distributed` (multi.h,
 * docs/multi-device.md). One executor interface covers the two ways of having several devices:
 * a tsl_group of this host's devices (one thread each, in libtessel), or the MPI ranks of
 * src/dist (one device each). Under MPI every rank runs this same code, in the same order, since
 * every executor call is collective; only the root (rank 0, or the one process) has the data,
 * verifies, and writes the report.
 *
 * How a case is measured: --warmup untimed and --repeat timed calls of the whole group, then the
 * same with all the rows on one device, for each device that may be the fastest (weight at least
 * half the largest, and room for the whole problem); the median of each figure is reported. Rows:
 * "device I" (or "rank I"): m = its rows, kernel_ms its kernel time, its transfers, share = its
 * fraction of the rows; "group": kernel_ms = the group's phase time (GEMM: the longest device
 * kernel time, 004's measure; Poisson: the iteration's host time, halo exchanges included),
 * speedup = the fastest single device's phase time over the group's; "single": the fastest
 * device alone. A note on stderr adds the end-to-end ratio (host clock, every transfer included).
 * Rows are kept and the report is written once every case has run: a failure (exit 3, one line
 * naming the device or rank) leaves no output file, and no partial table posing as complete. */
#include "multi.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "common.h"
#include "output.h"
#include "ref/ref.h"
#ifdef TESSEL_HAVE_MPI
#include "dist/dist.h"
#endif

#define MAX_UNITS 4096 /* devices of a group are at most 16; ranks are many */

/* ---- the executor: a group of devices or the MPI ranks ----------------------------------------
 */

typedef struct {
    const char *unit; /* "device" or "rank" */
    size_t count;
    int root;
    int fell_back; /* calibration failed: the weights are compute units (a note said why) */
    tsl_device_info *info;
    tsl_group *g;
#ifdef TESSEL_HAVE_MPI
    tsl_dist *d;
#endif
} executor;

static const char *ex_error(const executor *ex)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) return tsl_dist_error(ex->d);
#endif
    return tsl_group_error(ex->g);
}

static const char *ex_warning(const executor *ex)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) return tsl_dist_warning(ex->d);
#endif
    return tsl_group_warning(ex->g);
}

static tsl_status ex_set_weights(executor *ex, tsl_weights how, const double *w)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) return tsl_dist_set_weights(ex->d, how, w, ex->count);
#endif
    return tsl_group_set_weights(ex->g, how, w, ex->count);
}

static tsl_status ex_weights(executor *ex, const char *op, int dbl, double *w)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) return tsl_dist_weights(ex->d, op, dbl, w, ex->count);
#endif
    return tsl_group_weights(ex->g, op, dbl, w, ex->count);
}

static tsl_status ex_gemm(executor *ex, int dbl, tsl_layout lay, tsl_trans ta, tsl_trans tb,
                          const cli_multi_gemm_case *c, double alpha, const void *a, const void *b,
                          double beta, void *cm)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d)
        return tsl_dist_gemm(ex->d, dbl, lay, ta, tb, c->m, c->n, c->k, alpha, a, c->lda, b, c->ldb,
                             beta, cm, c->ldc);
#endif
    if (dbl)
        return tsl_group_dgemm(ex->g, lay, ta, tb, c->m, c->n, c->k, alpha, a, c->lda, b, c->ldb,
                               beta, cm, c->ldc);
    return tsl_group_sgemm(ex->g, lay, ta, tb, c->m, c->n, c->k, (float)alpha, a, c->lda, b, c->ldb,
                           (float)beta, cm, c->ldc);
}

static tsl_status ex_poisson(executor *ex, int dbl, size_t n, const void *f, void *u, int iters,
                             double tol, tsl_poisson_info *info)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) return tsl_dist_poisson(ex->d, dbl, n, f, u, iters, tol, info);
#endif
    if (dbl) return tsl_group_dpoisson(ex->g, n, f, u, iters, tol, info);
    return tsl_group_spoisson(ex->g, n, f, u, iters, tol, info);
}

static void ex_timing(executor *ex, tsl_group_times *t, tsl_group_part *parts)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) {
        tsl_dist_timing(ex->d, t, parts, ex->count);
        return;
    }
#endif
    tsl_group_timing(ex->g, t, parts, ex->count);
}

/* The contexts this process drives (all of the group's; a rank's own). */
static size_t ex_contexts(executor *ex, tsl_context **out)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) {
        out[0] = tsl_dist_context(ex->d);
        return 1;
    }
#endif
    for (size_t i = 0; i < ex->count; ++i)
        out[i] = tsl_group_context(ex->g, i);
    return ex->count;
}

/* A failure: the root prints the one error line; under MPI the whole job stops with code 3
 * (another rank's own failure never returns here: src/dist reports it to rank 0). */
static int ex_fail(executor *ex, const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int ex_fail(executor *ex, const char *cmd, const char *fmt, ...)
{
    char msg[2600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ex->root) cli_error(CLI_EXIT_RUNTIME, "%s: %s", cmd, msg);
#ifdef TESSEL_HAVE_MPI
    if (ex->d) tsl_dist_abort(ex->d, CLI_EXIT_RUNTIME);
#endif
    return CLI_EXIT_RUNTIME;
}

static void ex_close(executor *ex)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) {
        tsl_dist_finish(ex->d);
        ex->d = NULL;
    }
#endif
    tsl_group_destroy(ex->g);
    ex->g = NULL;
    free(ex->info);
    ex->info = NULL;
}

/* Opens the devices: the group of --devices, or this rank's device under --distributed. */
static int ex_open(executor *ex, const char *cmd, const cli_multi_opts *o)
{
    memset(ex, 0, sizeof *ex);
    double timeout = isnan(o->timeout) ? -1 : o->timeout;
    if (o->distributed) {
#ifdef TESSEL_HAVE_MPI
        char err[2048] = "";
        tsl_status st = tsl_dist_create(o->device, timeout, &ex->d, err, sizeof err);
        ex->unit = "rank";
        ex->root = 1;
        if (st != TSL_OK) return cli_error(CLI_EXIT_RUNTIME, "%s --distributed: %s", cmd, err);
        ex->root = tsl_dist_rank(ex->d) == 0;
        ex->count = (size_t)tsl_dist_size(ex->d);
        if (ex->count > MAX_UNITS)
            return ex_fail(ex, cmd, "%zu ranks: this runner reports at most %d", ex->count,
                           MAX_UNITS);
        ex->info = calloc(ex->count, sizeof *ex->info);
        if (!ex->info) return ex_fail(ex, cmd, "out of host memory");
        for (size_t r = 0; r < ex->count; ++r)
            ex->info[r] = *tsl_dist_device(ex->d, (int)r);
        if (ex->root && tsl_dist_shared(ex->d))
            cli_note("%d ranks on one host share its devices (more ranks than devices match "
                     "--device there): their times include waiting for each other",
                     tsl_dist_shared(ex->d));
        return 0;
#else
        (void)timeout;
        return cli_error(CLI_EXIT_USAGE,
                         "%s: --distributed needs MPI, and this tessel was built without it: "
                         "install an MPI (Debian: libopenmpi-dev openmpi-bin) and rebuild",
                         cmd);
#endif
    }
    ex->unit = "device";
    ex->root = 1;
    tsl_status st = tsl_group_create(o->devices, &ex->g);
    if (st != TSL_OK)
        return cli_error(CLI_EXIT_RUNTIME, "%s: --devices '%s': %s (%s)", cmd, o->devices,
                         tsl_last_error(), tsl_status_name(st));
    ex->count = tsl_group_size(ex->g);
    ex->info = calloc(ex->count, sizeof *ex->info);
    if (!ex->info) return ex_fail(ex, cmd, "out of host memory");
    for (size_t i = 0; i < ex->count; ++i)
        tsl_context_device(tsl_group_context(ex->g, i), &ex->info[i]);
    if (timeout > 0 && tsl_group_set_timeout(ex->g, timeout) != TSL_OK)
        return cli_error(CLI_EXIT_USAGE, "%s: --timeout: %s", cmd, tsl_group_error(ex->g));
    return 0;
}

/* ---- options -------------------------------------------------------------------------------- */

int cli_multi_check(const char *cmd, const cli_multi_opts *o, const char *device, int peers,
                    int variant_all, int copy_row)
{
    if (!o->devices && !o->distributed) {
        if (o->weights || !isnan(o->timeout))
            return cli_error(CLI_EXIT_USAGE, "%s: --%s goes with --devices or --distributed", cmd,
                             o->weights ? "weights" : "timeout");
        return 0;
    }
    if (o->devices && o->distributed)
        return cli_error(CLI_EXIT_USAGE,
                         "%s: give --devices (this host's devices) or --distributed (one device "
                         "per MPI rank), not both",
                         cmd);
    if (o->devices && device)
        return cli_error(CLI_EXIT_USAGE,
                         "%s: give --device (one device) or --devices (several), not both", cmd);
    if (peers)
        return cli_error(CLI_EXIT_USAGE, "%s: --peers runs on one device: not with --%s", cmd,
                         o->devices ? "devices" : "distributed");
    if (variant_all)
        return cli_error(CLI_EXIT_USAGE,
                         "%s: --%s runs one variant on every device: name it with --variant", cmd,
                         o->devices ? "devices" : "distributed");
    if (copy_row)
        return cli_error(CLI_EXIT_USAGE, "%s: --copy is a single-device row: not with --%s", cmd,
                         o->devices ? "devices" : "distributed");
    if (!isnan(o->timeout) && !(o->timeout > 0 && o->timeout <= 1e7))
        return cli_error(CLI_EXIT_USAGE, "%s: --timeout must be a number of seconds > 0", cmd);
    if (o->weights && strcmp(o->weights, "calibrate") != 0 && strcmp(o->weights, "cu") != 0) {
        cli_name_list list;
        if (cli_split_names(o->weights, &list) != 0)
            return cli_error(CLI_EXIT_USAGE,
                             "%s: --weights expects calibrate, cu, or numbers W1,W2,... (one "
                             "per device), got '%s'",
                             cmd, o->weights);
        double sum = 0;
        for (size_t i = 0; i < list.n; ++i) {
            double v;
            if (cli_parse_real(list.v[i], &v) != 0 || !(v >= 0) || !isfinite(v))
                return cli_error(CLI_EXIT_USAGE,
                                 "%s: --weights: '%s' is not a number >= 0 (calibrate, cu, or "
                                 "W1,W2,... one per device)",
                                 cmd, list.v[i]);
            sum += v;
        }
        if (!(sum > 0))
            return cli_error(CLI_EXIT_USAGE,
                             "%s: --weights %s gives every device 0 rows: one weight must be > 0",
                             cmd, o->weights);
    }
    return 0;
}

/* Sets the split rule of --weights on the executor (its count is known now). */
static int apply_weights(executor *ex, const char *cmd, const cli_multi_opts *o, double *given)
{
    tsl_weights how = TSL_WEIGHTS_CALIBRATE;
    if (o->weights && strcmp(o->weights, "cu") == 0) how = TSL_WEIGHTS_COMPUTE_UNITS;
    if (o->weights && strcmp(o->weights, "calibrate") != 0 && strcmp(o->weights, "cu") != 0) {
        cli_name_list list;
        cli_split_names(o->weights, &list); /* checked by cli_multi_check */
        if (list.n != ex->count)
            return ex->root ? cli_error(CLI_EXIT_USAGE,
                                        "%s: --weights gives %zu weights for %zu %ss; give one "
                                        "per %s",
                                        cmd, list.n, ex->count, ex->unit, ex->unit)
                            : CLI_EXIT_USAGE;
        for (size_t i = 0; i < list.n; ++i)
            cli_parse_real(list.v[i], &given[i]);
        how = TSL_WEIGHTS_GIVEN;
    }
    if (ex_set_weights(ex, how, how == TSL_WEIGHTS_GIVEN ? given : NULL) != TSL_OK)
        return ex->root ? cli_error(CLI_EXIT_USAGE, "%s: --weights: %s", cmd, ex_error(ex))
                        : CLI_EXIT_USAGE;
    return 0;
}

/* --variant on every context this process drives; a name the library refuses is a usage error,
 * a device that cannot run it a runtime error naming the device. */
static int apply_variant(executor *ex, const char *cmd, const char *op, const char *variant)
{
    tsl_context *ctx[16]; /* a group has at most 16 devices; a rank drives one */
    size_t n = ex_contexts(ex, ctx);
    for (size_t i = 0; i < n; ++i) {
        tsl_status st = tsl_context_set_variant(ctx[i], op, variant);
        if (st == TSL_OK) st = tsl_variant_check(ctx[i], op, variant, NULL);
        if (st == TSL_OK) continue;
        tsl_device_info info;
        tsl_context_device(ctx[i], &info);
        if (st == TSL_ERR_INVALID_ARG) {
            if (ex->root) cli_error(CLI_EXIT_USAGE, "%s: %s", cmd, tsl_context_error(ctx[i]));
#ifdef TESSEL_HAVE_MPI
            if (ex->d) tsl_dist_abort(ex->d, CLI_EXIT_USAGE);
#endif
            return CLI_EXIT_USAGE;
        }
        return ex_fail(ex, cmd, "variant %s cannot run on %d:%d %s: %s (%s)", variant,
                       info.platform_index, info.device_index, info.name, tsl_context_error(ctx[i]),
                       tsl_status_name(st));
    }
    return 0;
}

/* ---- the rows, kept until the end --------------------------------------------------------- */

typedef struct {
    cli_row row;
    char variant[32], device[600], resolved[32]; /* resolved: which unit "single" ran on */
} kept_row;

typedef struct {
    kept_row *rows;
    size_t n, cap;
} row_store;

static kept_row *keep(row_store *st)
{
    if (st->n == st->cap) {
        size_t cap = st->cap ? 2 * st->cap : 32;
        kept_row *nr = realloc(st->rows, cap * sizeof *nr);
        if (!nr) return NULL;
        st->rows = nr;
        st->cap = cap;
    }
    kept_row *k = &st->rows[st->n++];
    memset(k, 0, sizeof *k);
    cli_row_init(&k->row);
    return k;
}

static const char *multi_columns =
    "variant,precision,m,n,k,kernel_ms,gflops,gbps,upload_ms,download_ms,extra0,extra1,"
    "max_rel_err,status,device";

/* The output paths are checked before the slow work: opened, then dropped. */
static int check_outputs(const cli_multi_opts *o)
{
    int rc = 0;
    cli_report_opts ro = {o->csv, o->json, o->quiet, multi_columns, NULL, ""};
    cli_report *rep = cli_report_open(&ro, &rc);
    if (!rep) return rc;
    cli_report_close(rep, 0);
    return 0;
}

static int write_report(const cli_multi_opts *o, const char *title, row_store *st)
{
    int rc = 0;
    char command[2048];
    cli_command_line(cli_argc, cli_argv, command, sizeof command);
    cli_report_opts ro = {o->csv, o->json, o->quiet, multi_columns, title, command};
    cli_report *rep = cli_report_open(&ro, &rc);
    if (!rep) return rc;
    for (size_t i = 0; i < st->n; ++i) {
        st->rows[i].row.variant = st->rows[i].variant;
        st->rows[i].row.device = st->rows[i].device;
        st->rows[i].row.resolved = st->rows[i].resolved;
        cli_report_row(rep, &st->rows[i].row);
    }
    return cli_report_close(rep, 1);
}

/* "device 0: 0:0 NAME, device 1: ..." for titles. */
static void unit_names(const executor *ex, char *out, size_t cap)
{
    out[0] = '\0';
    for (size_t i = 0; i < ex->count; ++i) {
        size_t used = strlen(out);
        if (used + 40 >= cap) {
            snprintf(out + used, cap - used, ", ...");
            break;
        }
        snprintf(out + used, cap - used, "%s%s %zu: %d:%d %s", i ? ", " : "", ex->unit, i,
                 ex->info[i].platform_index, ex->info[i].device_index, ex->info[i].name);
    }
}

static void weight_text(const executor *ex, const cli_multi_opts *o, const double *w, char *out,
                        size_t cap)
{
    snprintf(out, cap, "weights %s (",
             ex->fell_back ? "cu, calibration failed"
             : !o->weights ? "calibrate"
                           : o->weights);
    for (size_t i = 0; i < ex->count; ++i) {
        size_t used = strlen(out);
        if (used + 16 >= cap) break;
        snprintf(out + used, cap - used, "%s%.3f", i ? ", " : "", w[i]);
    }
    size_t used = strlen(out);
    snprintf(out + used, cap - used, ")");
}

/* The root's report, once every case has run: the title ("gemm on 2 devices (NAMES), single
 * precision, DETAILS, weights ..."), the kept rows, and exit 1 when a --verify check failed. */
static int finish_report(const executor *ex, const cli_multi_opts *o, const char *op,
                         const char *details, const double *w, row_store *st, int any_failed)
{
    char names[1500], weights[600], title[2600];
    unit_names(ex, names, sizeof names);
    weight_text(ex, o, w, weights, sizeof weights);
    snprintf(title, sizeof title, "%s on %zu %ss (%s), %s precision, %s, %s", op, ex->count,
             ex->unit, names, o->is_double ? "double" : "single", details, weights);
    cli_progress_clear();
    int rc = write_report(o, title, st);
    return rc == 0 && any_failed ? CLI_EXIT_VERIFY : rc;
}

/* ---- measuring ------------------------------------------------------------------------------ */

/* One call of the executor for run `run`; may reset the data first. */
typedef tsl_status (*call_fn)(executor *ex, void *arg, unsigned run);

typedef struct {
    size_t repeat, count;
    double *phase, *wall;               /* per timed run */
    double *kernel, *upload, *download; /* per unit and timed run: [i * repeat + r] */
    double *build;                      /* per unit, of the first call */
    tsl_group_part *parts;              /* per unit, of the last call */
    tsl_group_times times;
} measurement;

static void meas_free(measurement *m)
{
    free(m->phase), free(m->wall), free(m->kernel), free(m->upload), free(m->download);
    free(m->build), free(m->parts);
    memset(m, 0, sizeof *m);
}

static int meas_init(measurement *m, size_t count, size_t repeat)
{
    memset(m, 0, sizeof *m);
    m->repeat = repeat;
    m->count = count;
    m->phase = calloc(repeat, sizeof *m->phase);
    m->wall = calloc(repeat, sizeof *m->wall);
    m->kernel = calloc(count * repeat, sizeof *m->kernel);
    m->upload = calloc(count * repeat, sizeof *m->upload);
    m->download = calloc(count * repeat, sizeof *m->download);
    m->build = calloc(count, sizeof *m->build);
    m->parts = calloc(count, sizeof *m->parts);
    if (m->phase && m->wall && m->kernel && m->upload && m->download && m->build && m->parts)
        return 0;
    meas_free(m);
    return -1;
}

/* warmup + repeat calls; every figure of every timed call kept (on the root). */
static tsl_status measure(executor *ex, const cli_multi_opts *o, call_fn call, void *arg,
                          measurement *m)
{
    unsigned runs = o->warmup + (unsigned)o->repeat;
    for (unsigned r = 0; r < runs; ++r) {
        tsl_status st = call(ex, arg, r);
        if (st != TSL_OK) return st;
        ex_timing(ex, &m->times, m->parts);
        if (r == 0)
            for (size_t i = 0; i < m->count; ++i)
                m->build[i] = m->parts[i].timing.build_ms;
        if (r < o->warmup) continue;
        size_t t = r - o->warmup;
        m->phase[t] = m->times.phase_ms;
        m->wall[t] = m->times.wall_ms;
        for (size_t i = 0; i < m->count; ++i) {
            m->kernel[i * m->repeat + t] = m->parts[i].timing.kernel_ms;
            m->upload[i * m->repeat + t] = m->parts[i].timing.upload_ms;
            m->download[i * m->repeat + t] = m->parts[i].timing.download_ms;
        }
    }
    return TSL_OK;
}

static double median_of(double *v, size_t n)
{
    return n ? cli_median(v, n) : NAN;
}

/* The largest per-unit median of a figure, over the units that had rows. */
static double max_median(const measurement *m, double *figure)
{
    double best = NAN;
    for (size_t i = 0; i < m->count; ++i) {
        if (!m->parts[i].rows) continue;
        double v = median_of(figure + i * m->repeat, m->repeat);
        if (isnan(best) || v > best) best = v;
    }
    return best;
}

/* The units that may be the fastest alone: a weight at least half the largest, and room for
 * the whole problem (bytes of its largest array, and of all of them). */
static size_t single_candidates(const executor *ex, const double *w, unsigned long long largest,
                                long double total, size_t *out)
{
    double wmax = 0;
    for (size_t i = 0; i < ex->count; ++i)
        if (w[i] > wmax) wmax = w[i];
    size_t n = 0;
    for (size_t i = 0; i < ex->count; ++i)
        if (w[i] > 0 && w[i] >= 0.5 * wmax && largest <= ex->info[i].max_alloc &&
            total <= (long double)ex->info[i].global_mem)
            out[n++] = i;
    return n;
}

/* The unit rows, the group row and the single row of one case, and the speedup note. */
typedef struct {
    const char *op, *precision;
    char label[96];    /* "gemm 257x31x65", "poisson grid 67", for notes */
    long long m, n, k; /* the case's; unit rows replace m (GEMM) or m (Poisson) by their rows */
    double (*flops_or_bytes)(const void *ctx, size_t rows); /* per unit's rows, for rates */
    const void *ctx;
    int gbps; /* the rate is GB/s (Poisson), else GFLOP/s */
} case_desc;

static void rate(const case_desc *c, size_t rows, double ms, cli_row *row)
{
    if (!(ms > 0)) return;
    double amount = c->flops_or_bytes(c->ctx, rows) / (ms * 1e6);
    if (c->gbps)
        row->gbps = amount;
    else
        row->gflops = amount;
}

static int report_case(const executor *ex, const cli_multi_opts *o, const case_desc *c,
                       measurement *g, const double *unit_err, double group_err, int group_ok,
                       const int *unit_ok, measurement *best, size_t best_unit, double best_err,
                       int best_ok, row_store *st, int *any_failed)
{
    size_t total_rows = 0;
    for (size_t i = 0; i < ex->count; ++i)
        total_rows += g->parts[i].rows;
    for (size_t i = 0; i < ex->count; ++i) {
        kept_row *k = keep(st);
        if (!k) return -1;
        cli_row *r = &k->row;
        snprintf(k->variant, sizeof k->variant, "%s %zu", ex->unit, i);
        snprintf(k->device, sizeof k->device, "%s", ex->info[i].name);
        r->op = c->op;
        r->precision = c->precision;
        r->m = (long long)g->parts[i].rows;
        r->n = c->n, r->k = c->k;
        r->repeat = (long long)o->repeat;
        r->extra_name[0] = "share";
        r->extra_name[1] = "speedup";
        r->extra[0] = total_rows ? (double)g->parts[i].rows / (double)total_rows : 0.0;
        r->status = unit_ok[i] ? "ok" : "verify_failed";
        if (!g->parts[i].rows) continue; /* a device of weight 0: no figures */
        r->kernel_ms = median_of(g->kernel + i * g->repeat, g->repeat);
        r->upload_ms = median_of(g->upload + i * g->repeat, g->repeat);
        r->download_ms = median_of(g->download + i * g->repeat, g->repeat);
        r->build_ms = g->build[i];
        r->max_rel_err = unit_err[i];
        rate(c, g->parts[i].rows, r->kernel_ms, r);
    }
    double group_ms = median_of(g->phase, g->repeat), group_wall = median_of(g->wall, g->repeat);
    double single_ms = best ? median_of(best->phase, best->repeat) : NAN;
    double single_wall = best ? median_of(best->wall, best->repeat) : NAN;
    kept_row *k = keep(st);
    if (!k) return -1;
    cli_row *r = &k->row;
    snprintf(k->variant, sizeof k->variant, "group");
    snprintf(k->device, sizeof k->device, "%zu %ss", g->times.devices, ex->unit);
    r->op = c->op, r->precision = c->precision;
    r->m = c->m, r->n = c->n, r->k = c->k;
    r->repeat = (long long)o->repeat;
    r->extra_name[0] = "share", r->extra_name[1] = "speedup";
    r->extra[0] = 1.0;
    r->kernel_ms = group_ms;
    r->upload_ms = max_median(g, g->upload);
    r->download_ms = max_median(g, g->download);
    for (size_t i = 0; i < ex->count; ++i)
        if (g->parts[i].rows && (isnan(r->build_ms) || g->build[i] > r->build_ms))
            r->build_ms = g->build[i];
    r->max_rel_err = group_err;
    r->status = group_ok ? "ok" : "verify_failed";
    r->extra[1] = single_ms > 0 && group_ms > 0 ? single_ms / group_ms : NAN;
    rate(c, (size_t)c->m, group_ms, r);
    *any_failed |= !group_ok;
    for (size_t i = 0; i < ex->count; ++i)
        *any_failed |= !unit_ok[i];

    k = keep(st);
    if (!k) return -1;
    r = &k->row;
    snprintf(k->variant, sizeof k->variant, "single");
    r->op = c->op, r->precision = c->precision;
    r->m = c->m, r->n = c->n, r->k = c->k;
    r->repeat = (long long)o->repeat;
    r->extra_name[0] = "share", r->extra_name[1] = "speedup";
    if (!best) {
        snprintf(k->device, sizeof k->device, "none");
        r->status = "skipped";
        cli_note("%s: no %s can hold the whole problem alone: no single row", c->label, ex->unit);
        return 0;
    }
    snprintf(k->device, sizeof k->device, "%s", ex->info[best_unit].name);
    snprintf(k->resolved, sizeof k->resolved, "%s %zu", ex->unit, best_unit);
    r->extra[0] = 1.0, r->extra[1] = 1.0;
    r->kernel_ms = single_ms;
    r->upload_ms = max_median(best, best->upload);
    r->download_ms = max_median(best, best->download);
    r->build_ms = best->build[best_unit];
    r->max_rel_err = best_err;
    r->status = best_ok ? "ok" : "verify_failed";
    *any_failed |= !best_ok;
    rate(c, (size_t)c->m, single_ms, r);
    cli_note("%s: %zu %ss %.2fx the fastest %s alone (%s %zu, %d:%d) on %s; "
             "%.2fx end to end (host clock, every transfer included: %.3f ms vs %.3f ms)",
             c->label, g->times.devices, ex->unit, r->kernel_ms / group_ms, ex->unit, ex->unit,
             best_unit, ex->info[best_unit].platform_index, ex->info[best_unit].device_index,
             c->gbps ? "iteration time (halo exchanges included)" : "kernel time",
             single_wall / group_wall, group_wall, single_wall);
    return 0;
}

/* The group, then each candidate alone: measure both, keeping the fastest single. The verify
 * callback (root only) gives the errors of the last call of a measurement. */
typedef struct {
    call_fn call;
    void *arg;
    /* root: error of the last call (whole, and per unit's rows) and pass/fail */
    void (*verify)(void *arg, const measurement *m, double *err, int *ok, double *unit_err,
                   int *unit_ok);
} case_ops;

static int run_case(executor *ex, const char *cmd, const cli_multi_opts *o, const case_desc *c,
                    const case_ops *ops, const double *w, unsigned long long largest,
                    long double total, double *given, row_store *st, int *any_failed)
{
    measurement g, cand, best;
    memset(&best, 0, sizeof best);
    double *unit_err = calloc(ex->count, sizeof *unit_err);
    int *unit_ok = calloc(ex->count, sizeof *unit_ok);
    size_t *cands = calloc(ex->count, sizeof *cands);
    double *onehot = calloc(ex->count, sizeof *onehot);
    if (!unit_err || !unit_ok || !cands || !onehot || meas_init(&g, ex->count, o->repeat) != 0) {
        free(unit_err), free(unit_ok), free(cands), free(onehot);
        return ex_fail(ex, cmd, "out of host memory");
    }
    int rc = 0;
    tsl_status s = measure(ex, o, ops->call, ops->arg, &g);
    if (s != TSL_OK) {
        rc = ex_fail(ex, cmd, "%s", ex_error(ex));
        goto done;
    }
    double group_err = NAN;
    int group_ok = 1;
    for (size_t i = 0; i < ex->count; ++i)
        unit_ok[i] = 1, unit_err[i] = NAN;
    if (ex->root && o->verify) ops->verify(ops->arg, &g, &group_err, &group_ok, unit_err, unit_ok);

    size_t ncand = single_candidates(ex, w, largest, total, cands), best_unit = 0;
    double best_err = NAN, best_ms = NAN;
    int best_ok = 1;
    for (size_t ci = 0; ci < ncand; ++ci) {
        memset(onehot, 0, ex->count * sizeof *onehot);
        onehot[cands[ci]] = 1.0;
        if (ex_set_weights(ex, TSL_WEIGHTS_GIVEN, onehot) != TSL_OK) {
            rc = ex_fail(ex, cmd, "%s", ex_error(ex));
            goto done;
        }
        if (meas_init(&cand, ex->count, o->repeat) != 0) {
            rc = ex_fail(ex, cmd, "out of host memory");
            goto done;
        }
        s = measure(ex, o, ops->call, ops->arg, &cand);
        if (s != TSL_OK) {
            meas_free(&cand);
            rc = ex_fail(ex, cmd, "%s", ex_error(ex));
            goto done;
        }
        double err = NAN, *uerr = calloc(ex->count, sizeof *uerr);
        int ok = 1, *uok = calloc(ex->count, sizeof *uok);
        if (ex->root && o->verify && uerr && uok)
            ops->verify(ops->arg, &cand, &err, &ok, uerr, uok);
        free(uerr), free(uok);
        double ms = median_of(cand.phase, cand.repeat);
        if (isnan(best_ms) || ms < best_ms) {
            meas_free(&best);
            best = cand;
            best_ms = ms, best_unit = cands[ci], best_err = err, best_ok = ok;
        } else {
            meas_free(&cand);
        }
    }
    if (ncand && (rc = apply_weights(ex, cmd, o, given)) != 0) goto done;
    if (ex->root &&
        report_case(ex, o, c, &g, unit_err, group_err, group_ok, unit_ok, ncand ? &best : NULL,
                    best_unit, best_err, best_ok, st, any_failed) != 0)
        rc = ex_fail(ex, cmd, "out of host memory");
done:
    meas_free(&g);
    meas_free(&best);
    free(unit_err), free(unit_ok), free(cands), free(onehot);
    return rc;
}

/* ---- GEMM ------------------------------------------------------------------------------------ */

typedef struct {
    const cli_multi_opts *o;
    tsl_layout lay;
    tsl_trans ta, tb;
    double alpha, beta;
    const cli_multi_gemm_case *c;
    void *a, *b, *c0, *out;
    double *ref;
} gemm_data;

static tsl_status gemm_call(executor *ex, void *arg, unsigned run)
{
    gemm_data *d = arg;
    size_t es = d->o->es;
    if (ex->root && d->beta != 0.0)
        memcpy(d->out, d->c0, d->c->ec * es);
    else if (ex->root && run == 0)
        cli_fill_nan(d->o->is_double, d->out, d->c->ec); /* a forgotten element fails --verify */
    return ex_gemm(ex, d->o->is_double, d->lay, d->ta, d->tb, d->c, d->alpha, d->a, d->b, d->beta,
                   d->out);
}

static double gemm_err(const gemm_data *d, size_t first, size_t rows)
{
    /* rows first.. of C: runs of the row-major view (layouts as tsl__row_block lays them) */
    int row = d->lay == TSL_ROW_MAJOR;
    size_t off = row ? first * d->c->ldc : first, srows = row ? rows : d->c->n;
    size_t len = row ? d->c->n : rows, es = d->o->es;
    const char *out = (const char *)d->out + off * es;
    return d->o->is_double ? tsl_ref_rel_err_d(srows, len, (const double *)out, d->c->ldc,
                                               d->ref + off, d->c->ldc)
                           : tsl_ref_rel_err_f(srows, len, (const float *)out, d->c->ldc,
                                               d->ref + off, d->c->ldc);
}

static void gemm_verify(void *arg, const measurement *m, double *err, int *ok, double *unit_err,
                        int *unit_ok)
{
    gemm_data *d = arg;
    double tol =
        isnan(d->o->tolerance) ? tsl_ref_gemm_tolerance(d->o->is_double, d->c->k) : d->o->tolerance;
    *err = gemm_err(d, 0, d->c->m);
    *ok = *err <= tol;
    for (size_t i = 0; i < m->count; ++i) {
        if (!m->parts[i].rows) continue;
        unit_err[i] = gemm_err(d, m->parts[i].first_row, m->parts[i].rows);
        unit_ok[i] = unit_err[i] <= tol;
    }
}

static double gemm_flops(const void *ctx, size_t rows)
{
    const cli_multi_gemm_case *c = ctx;
    return 2.0 * (double)rows * (double)c->n * (double)c->k;
}

/* Output paths, devices, variant, options (Poisson's check_every when not 0), weights rule,
 * fp64, and the weights (calibrated here when that is the rule). */
static int open_and_prepare(executor *ex, const char *cmd, const char *op, const cli_multi_opts *o,
                            long check_every, double **given, double **w)
{
    int rc = check_outputs(o);
    if (rc) return rc;
    if ((rc = ex_open(ex, cmd, o)) != 0) return rc;
    *given = calloc(ex->count, sizeof **given);
    *w = calloc(ex->count, sizeof **w);
    if (!*given || !*w) return ex_fail(ex, cmd, "out of host memory");
    if ((rc = apply_variant(ex, cmd, op, o->variant)) != 0) return rc;
    tsl_context *ctx[16];
    size_t nctx = ex_contexts(ex, ctx);
    for (size_t i = 0; check_every && i < nctx; ++i)
        if (tsl_context_set_option(ctx[i], op, "check_every", check_every) != TSL_OK)
            return ex->root ? cli_error(CLI_EXIT_USAGE, "%s: --check-every: %s", cmd,
                                        tsl_context_error(ctx[i]))
                            : CLI_EXIT_USAGE;
    if ((rc = apply_weights(ex, cmd, o, *given)) != 0) return rc;
    for (size_t i = 0; o->is_double && ex->root && i < ex->count; ++i)
        if (!ex->info[i].fp64)
            return ex_fail(ex, cmd,
                           "%s %zu (%d:%d %s) has no double precision (cl_khr_fp64): use "
                           "--precision single, or leave it out",
                           ex->unit, i, ex->info[i].platform_index, ex->info[i].device_index,
                           ex->info[i].name);
    if (ex->root) cli_progress("%s: calibrating the %ss", cmd, ex->unit);
    if (ex_weights(ex, op, o->is_double, *w) != TSL_OK) return ex_fail(ex, cmd, "%s", ex_error(ex));
    ex->fell_back = ex->root && ex_warning(ex)[0];
    if (ex->fell_back) {
        cli_progress_clear();
        cli_note("%s: %s", cmd, ex_warning(ex));
    }
    return 0;
}

int cli_multi_gemm(const cli_multi_opts *o, tsl_layout lay, tsl_trans ta, tsl_trans tb,
                   double alpha, double beta, const cli_multi_gemm_case *cases, size_t ncases)
{
    executor ex;
    double *given = NULL, *w = NULL;
    row_store st = {0};
    int any_failed = 0;
    int rc = open_and_prepare(&ex, "gemm", "gemm", o, 0, &given, &w);
    for (size_t ci = 0; rc == 0 && ci < ncases; ++ci) {
        const cli_multi_gemm_case *c = &cases[ci];
        gemm_data d = {o, lay, ta, tb, alpha, beta, c, NULL, NULL, NULL, NULL, NULL};
        size_t es = o->es;
        if (ex.root) {
            d.a = malloc(c->ea ? c->ea * es : es);
            d.b = malloc(c->eb ? c->eb * es : es);
            d.c0 = malloc(c->ec ? c->ec * es : es);
            d.out = malloc(c->ec ? c->ec * es : es);
            if (!d.a || !d.b || !d.c0 || !d.out) {
                rc = ex_fail(&ex, "gemm", "out of host memory for the matrices");
            } else {
                cli_gemm_fill(o->is_double, o->seed, ci, d.a, c->ea, d.b, c->eb, d.c0, c->ec);
                if (o->verify) {
                    double *ad = cli_to_double(o->is_double, d.a, c->ea);
                    double *bd = cli_to_double(o->is_double, d.b, c->eb);
                    d.ref = cli_to_double(o->is_double, d.c0, c->ec);
                    if (!ad || !bd || !d.ref)
                        rc = ex_fail(&ex, "gemm", "out of host memory for the reference");
                    else
                        tsl_ref_dgemm(lay, ta, tb, c->m, c->n, c->k, alpha, ad, c->lda, bd, c->ldb,
                                      beta, d.ref, c->ldc);
                    free(ad), free(bd);
                }
            }
        }
        if (rc == 0) {
            case_desc desc = {"gemm",
                              o->is_double ? "double" : "single",
                              "",
                              (long long)c->m,
                              (long long)c->n,
                              (long long)c->k,
                              gemm_flops,
                              c,
                              0};
            snprintf(desc.label, sizeof desc.label, "gemm %zux%zux%zu", c->m, c->n, c->k);
            case_ops ops = {gemm_call, &d, gemm_verify};
            unsigned long long largest = c->ea > c->eb ? c->ea : c->eb;
            if (c->ec > largest) largest = c->ec;
            largest *= es;
            long double total = ((long double)c->ea + c->eb + c->ec) * es;
            if (ex.root)
                cli_progress("gemm %zu/%zu %zux%zux%zu on %zu %ss", ci + 1, ncases, c->m, c->n,
                             c->k, ex.count, ex.unit);
            rc = run_case(&ex, "gemm", o, &desc, &ops, w, largest, total, given, &st, &any_failed);
        }
        free(d.a), free(d.b), free(d.c0), free(d.out), free(d.ref);
    }
    if (rc == 0 && ex.root) {
        char details[200];
        snprintf(details, sizeof details, "%s-major, op(A)=%s, op(B)=%s, alpha=%g, beta=%g",
                 lay == TSL_COL_MAJOR ? "col" : "row", ta == TSL_TRANS ? "A^T" : "A",
                 tb == TSL_TRANS ? "B^T" : "B", alpha, beta);
        rc = finish_report(&ex, o, "gemm", details, w, &st, any_failed);
    }
    free(st.rows);
    free(given), free(w);
    ex_close(&ex);
    return rc;
}

/* ---- Poisson -------------------------------------------------------------------------------- */

typedef struct {
    const cli_multi_opts *o;
    size_t n;
    int iters;
    double tol;
    void *f, *u0, *out;
    double *fd, *u0d, *ref;
    int ref_sweeps;
    tsl_poisson_info info;
} poisson_data;

static tsl_status poisson_call(executor *ex, void *arg, unsigned run)
{
    (void)run;
    poisson_data *d = arg;
    if (ex->root) memcpy(d->out, d->u0, d->n * d->n * d->o->es);
    return ex_poisson(ex, d->o->is_double, d->n, d->f, d->out, d->iters, d->tol, &d->info);
}

static void poisson_verify(void *arg, const measurement *m, double *err, int *ok, double *unit_err,
                           int *unit_ok)
{
    poisson_data *d = arg;
    size_t n = d->n;
    if (!d->ref || d->ref_sweeps != d->info.iterations) {
        free(d->ref);
        d->ref = malloc(n * n * sizeof *d->ref);
        if (!d->ref) {
            *ok = 0;
            return;
        }
        memcpy(d->ref, d->u0d, n * n * sizeof *d->ref);
        tsl_ref_jacobi(n, d->fd, d->ref, d->info.iterations);
        d->ref_sweeps = d->info.iterations;
    }
    double tol = cli_poisson_tolerance(d->o->is_double, d->o->tolerance, d->info.iterations);
    *err = cli_poisson_error(d->o->is_double, d->out, d->ref, n * n);
    *ok = *err <= tol;
    for (size_t i = 0; i < m->count; ++i) {
        if (!m->parts[i].rows) continue;
        size_t off = m->parts[i].first_row * n;
        unit_err[i] = cli_poisson_error(d->o->is_double, (const char *)d->out + off * d->o->es,
                                        d->ref + off, m->parts[i].rows * n);
        unit_ok[i] = unit_err[i] <= tol;
    }
}

/* Per sweep, as `tessel poisson` counts it: the grid rows read (with the two neighbouring rows),
 * f and the new values of the rows, once each; times the sweeps. */
static double poisson_bytes(const void *ctx, size_t rows)
{
    const poisson_data *d = ctx;
    double n = (double)d->n, inner = (double)rows * (n - 2);
    double read_u = rows + 2 >= d->n ? n * n : ((double)rows + 2) * n;
    return (read_u + 2.0 * inner) * (double)d->o->es * (double)d->info.iterations;
}

int cli_multi_poisson(const cli_multi_opts *o, const size_t *grids, size_t ngrids, size_t iters,
                      double tol, size_t check_every, int random_problem)
{
    executor ex;
    double *given = NULL, *w = NULL;
    row_store st = {0};
    int any_failed = 0;
    int rc = open_and_prepare(&ex, "poisson", "poisson", o, (long)check_every, &given, &w);
    for (size_t gi = 0; rc == 0 && gi < ngrids; ++gi) {
        size_t n = grids[gi], es = o->es;
        poisson_data d;
        memset(&d, 0, sizeof d);
        d.o = o, d.n = n, d.iters = (int)iters, d.tol = tol;
        if (ex.root) {
            d.f = malloc(n * n * es);
            d.u0 = malloc(n * n * es);
            d.out = malloc(n * n * es);
            if (!d.f || !d.u0 || !d.out) {
                rc = ex_fail(&ex, "poisson", "out of host memory for the grids");
            } else {
                cli_poisson_problem(random_problem, o->is_double, o->seed, gi, n, d.f, d.u0);
                if (o->verify) {
                    d.fd = cli_to_double(o->is_double, d.f, n * n);
                    d.u0d = cli_to_double(o->is_double, d.u0, n * n);
                    if (!d.fd || !d.u0d)
                        rc = ex_fail(&ex, "poisson", "out of host memory for the reference");
                }
            }
        }
        if (rc == 0) {
            case_desc desc = {"poisson",
                              o->is_double ? "double" : "single",
                              "",
                              (long long)n,
                              (long long)n,
                              (long long)iters,
                              poisson_bytes,
                              &d,
                              1};
            snprintf(desc.label, sizeof desc.label, "poisson grid %zu", n);
            case_ops ops = {poisson_call, &d, poisson_verify};
            unsigned long long largest = (unsigned long long)n * n * es;
            long double total = 3.0L * (long double)largest;
            if (ex.root)
                cli_progress("poisson %zu/%zu grid %zu on %zu %ss", gi + 1, ngrids, n, ex.count,
                             ex.unit);
            size_t before = st.n;
            rc = run_case(&ex, "poisson", o, &desc, &ops, w, largest, total, given, &st,
                          &any_failed);
            for (size_t i = before; rc == 0 && i < st.n; ++i) /* k: the sweeps done */
                st.rows[i].row.k = d.info.iterations;
        }
        free(d.f), free(d.u0), free(d.out), free(d.fd), free(d.u0d), free(d.ref);
    }
    if (rc == 0 && ex.root) {
        char details[200];
        snprintf(details, sizeof details, "%s problem, --iters %zu, --tol %g",
                 random_problem ? "random" : "sine", iters, tol);
        rc = finish_report(&ex, o, "poisson (Jacobi)", details, w, &st, any_failed);
    }
    free(st.rows);
    free(given), free(w);
    ex_close(&ex);
    return rc;
}
