/* multi_run.c: measuring and reporting one case of a multi-device run (multi_run.h). How a case
 * is measured: --warmup untimed and --repeat timed calls of the whole group, then the same with
 * all the rows on one device, for each device that may be the fastest (weight at least half the
 * largest, and room for the whole problem); the median of each figure is reported. Rows:
 * "device I" (or "rank I"): m = its rows, kernel_ms its kernel time, its transfers, share = its
 * fraction of the rows; "group": kernel_ms = the group's phase time (GEMM: the longest device
 * kernel time, 004's measure; Poisson: the iteration's host time, halo exchanges included),
 * speedup = the fastest single device's phase time over the group's; "single": the fastest
 * device alone. A note on stderr adds the end-to-end ratio (host clock, every transfer included).
 * Rows are kept and the report is written once every case has run: a failure (exit 3, one line
 * naming the device or rank) leaves no output file, and no partial table posing as complete. */
#include "multi_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "common.h"

/* ---- the rows, kept until the end --------------------------------------------------------- */

static cli_kept_row *keep(cli_row_store *st)
{
    if (st->n == st->cap) {
        size_t cap = st->cap ? 2 * st->cap : 32;
        cli_kept_row *nr = realloc(st->rows, cap * sizeof *nr);
        if (!nr) return NULL;
        st->rows = nr;
        st->cap = cap;
    }
    cli_kept_row *k = &st->rows[st->n++];
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

static int write_report(const cli_multi_opts *o, const char *title, cli_row_store *st)
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
static void unit_names(const cli_executor *ex, char *out, size_t cap)
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

static void weight_text(const cli_executor *ex, const cli_multi_opts *o, const double *w, char *out,
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
int cli_multi_finish(const cli_executor *ex, const cli_multi_opts *o, const char *op,
                     const char *details, const double *w, cli_row_store *st, int any_failed)
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

static void meas_free(cli_measurement *m)
{
    free(m->phase), free(m->wall), free(m->kernel), free(m->upload), free(m->download);
    free(m->build), free(m->parts);
    memset(m, 0, sizeof *m);
}

static int meas_init(cli_measurement *m, size_t count, size_t repeat)
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
static tsl_status measure(cli_executor *ex, const cli_multi_opts *o, cli_call_fn call, void *arg,
                          cli_measurement *m)
{
    unsigned runs = o->warmup + (unsigned)o->repeat;
    for (unsigned r = 0; r < runs; ++r) {
        tsl_status st = call(ex, arg, r);
        if (st != TSL_OK) return st;
        cli_ex_timing(ex, &m->times, m->parts);
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
static double max_median(const cli_measurement *m, double *figure)
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
static size_t single_candidates(const cli_executor *ex, const double *w, unsigned long long largest,
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

static void rate(const cli_case_desc *c, size_t rows, double ms, cli_row *row)
{
    if (!(ms > 0)) return;
    double amount = c->flops_or_bytes(c->ctx, rows) / (ms * 1e6);
    if (c->gbps)
        row->gbps = amount;
    else
        row->gflops = amount;
}

static int report_case(const cli_executor *ex, const cli_multi_opts *o, const cli_case_desc *c,
                       cli_measurement *g, const double *unit_err, double group_err, int group_ok,
                       const int *unit_ok, cli_measurement *best, size_t best_unit, double best_err,
                       int best_ok, cli_row_store *st, int *any_failed)
{
    size_t total_rows = 0;
    for (size_t i = 0; i < ex->count; ++i)
        total_rows += g->parts[i].rows;
    for (size_t i = 0; i < ex->count; ++i) {
        cli_kept_row *k = keep(st);
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
    cli_kept_row *k = keep(st);
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

int cli_multi_run_case(cli_executor *ex, const char *cmd, const cli_multi_opts *o,
                       const cli_case_desc *c, const cli_case_ops *ops, const double *w,
                       unsigned long long largest, long double total, double *given,
                       cli_row_store *st, int *any_failed)
{
    cli_measurement g, cand, best;
    memset(&best, 0, sizeof best);
    double *unit_err = calloc(ex->count, sizeof *unit_err);
    int *unit_ok = calloc(ex->count, sizeof *unit_ok);
    size_t *cands = calloc(ex->count, sizeof *cands);
    double *onehot = calloc(ex->count, sizeof *onehot);
    if (!unit_err || !unit_ok || !cands || !onehot || meas_init(&g, ex->count, o->repeat) != 0) {
        free(unit_err), free(unit_ok), free(cands), free(onehot);
        return cli_ex_fail(ex, cmd, "out of host memory");
    }
    int rc = 0;
    tsl_status s = measure(ex, o, ops->call, ops->arg, &g);
    if (s != TSL_OK) {
        rc = cli_ex_fail(ex, cmd, "%s", cli_ex_error(ex));
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
        if (cli_ex_set_weights(ex, TSL_WEIGHTS_GIVEN, onehot) != TSL_OK) {
            rc = cli_ex_fail(ex, cmd, "%s", cli_ex_error(ex));
            goto done;
        }
        if (meas_init(&cand, ex->count, o->repeat) != 0) {
            rc = cli_ex_fail(ex, cmd, "out of host memory");
            goto done;
        }
        s = measure(ex, o, ops->call, ops->arg, &cand);
        if (s != TSL_OK) {
            meas_free(&cand);
            rc = cli_ex_fail(ex, cmd, "%s", cli_ex_error(ex));
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
    if (ncand && (rc = cli_ex_apply_weights(ex, cmd, o, given)) != 0) goto done;
    if (ex->root &&
        report_case(ex, o, c, &g, unit_err, group_err, group_ok, unit_ok, ncand ? &best : NULL,
                    best_unit, best_err, best_ok, st, any_failed) != 0)
        rc = cli_ex_fail(ex, cmd, "out of host memory");
done:
    meas_free(&g);
    meas_free(&best);
    free(unit_err), free(unit_ok), free(cands), free(onehot);
    return rc;
}

/* Output paths, devices, variant, options (Poisson's check_every when not 0), weights rule,
 * fp64, and the weights (calibrated here when that is the rule). */
int cli_multi_prepare(cli_executor *ex, const char *cmd, const char *op, const cli_multi_opts *o,
                      long check_every, double **given, double **w)
{
    int rc = check_outputs(o);
    if (rc) return rc;
    if ((rc = cli_ex_open(ex, cmd, o)) != 0) return rc;
    *given = calloc(ex->count, sizeof **given);
    *w = calloc(ex->count, sizeof **w);
    if (!*given || !*w) return cli_ex_fail(ex, cmd, "out of host memory");
    if ((rc = cli_ex_apply_variant(ex, cmd, op, o->variant)) != 0) return rc;
    tsl_context *ctx[16];
    size_t nctx = cli_ex_contexts(ex, ctx);
    for (size_t i = 0; check_every && i < nctx; ++i)
        if (tsl_context_set_option(ctx[i], op, "check_every", check_every) != TSL_OK)
            return ex->root ? cli_error(CLI_EXIT_USAGE, "%s: --check-every: %s", cmd,
                                        tsl_context_error(ctx[i]))
                            : CLI_EXIT_USAGE;
    if ((rc = cli_ex_apply_weights(ex, cmd, o, *given)) != 0) return rc;
    for (size_t i = 0; o->is_double && ex->root && i < ex->count; ++i)
        if (!ex->info[i].fp64)
            return cli_ex_fail(ex, cmd,
                               "%s %zu (%d:%d %s) has no double precision (cl_khr_fp64): use "
                               "--precision single, or leave it out",
                               ex->unit, i, ex->info[i].platform_index, ex->info[i].device_index,
                               ex->info[i].name);
    if (ex->root) cli_progress("%s: calibrating the %ss", cmd, ex->unit);
    if (cli_ex_weights(ex, op, o->is_double, *w) != TSL_OK)
        return cli_ex_fail(ex, cmd, "%s", cli_ex_error(ex));
    ex->fell_back = ex->root && cli_ex_warning(ex)[0];
    if (ex->fell_back) {
        cli_progress_clear();
        cli_note("%s: %s", cmd, cli_ex_warning(ex));
    }
    return 0;
}
