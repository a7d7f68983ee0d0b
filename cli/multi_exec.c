/* multi_exec.c: the executor of the multi-device runs (multi_exec.h): each call goes to the
 * tsl_group of --devices or, under --distributed, to src/multi's MPI ranks; opening the devices,
 * applying --weights and --variant to them, and the one error line of a failure. */
#include "multi_exec.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

#define MAX_UNITS 4096 /* devices of a group are at most 16; ranks are many */

const char *cli_ex_error(const cli_executor *ex)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) return tsl_dist_error(ex->d);
#endif
    return tsl_group_error(ex->g);
}

const char *cli_ex_warning(const cli_executor *ex)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) return tsl_dist_warning(ex->d);
#endif
    return tsl_group_warning(ex->g);
}

tsl_status cli_ex_set_weights(cli_executor *ex, tsl_weights how, const double *w)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) return tsl_dist_set_weights(ex->d, how, w, ex->count);
#endif
    return tsl_group_set_weights(ex->g, how, w, ex->count);
}

tsl_status cli_ex_weights(cli_executor *ex, const char *op, int dbl, double *w)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) return tsl_dist_weights(ex->d, op, dbl, w, ex->count);
#endif
    return tsl_group_weights(ex->g, op, dbl, w, ex->count);
}

tsl_status cli_ex_gemm(cli_executor *ex, int dbl, tsl_layout lay, tsl_trans ta, tsl_trans tb,
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

tsl_status cli_ex_poisson(cli_executor *ex, int dbl, size_t n, const void *f, void *u, int iters,
                          double tol, tsl_poisson_info *info)
{
#ifdef TESSEL_HAVE_MPI
    if (ex->d) return tsl_dist_poisson(ex->d, dbl, n, f, u, iters, tol, info);
#endif
    if (dbl) return tsl_group_dpoisson(ex->g, n, f, u, iters, tol, info);
    return tsl_group_spoisson(ex->g, n, f, u, iters, tol, info);
}

void cli_ex_timing(cli_executor *ex, tsl_group_times *t, tsl_group_part *parts)
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
size_t cli_ex_contexts(cli_executor *ex, tsl_context **out)
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
 * (another rank's own failure never returns here: src/multi reports it to rank 0). */
int cli_ex_fail(cli_executor *ex, const char *cmd, const char *fmt, ...)
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

void cli_ex_close(cli_executor *ex)
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
int cli_ex_open(cli_executor *ex, const char *cmd, const cli_multi_opts *o)
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
            return cli_ex_fail(ex, cmd, "%zu ranks: this runner reports at most %d", ex->count,
                               MAX_UNITS);
        ex->info = calloc(ex->count, sizeof *ex->info);
        if (!ex->info) return cli_ex_fail(ex, cmd, "out of host memory");
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
    if (!ex->info) return cli_ex_fail(ex, cmd, "out of host memory");
    for (size_t i = 0; i < ex->count; ++i)
        tsl_context_device(tsl_group_context(ex->g, i), &ex->info[i]);
    if (timeout > 0 && tsl_group_set_timeout(ex->g, timeout) != TSL_OK)
        return cli_error(CLI_EXIT_USAGE, "%s: --timeout: %s", cmd, tsl_group_error(ex->g));
    return 0;
}

/* Sets the split rule of --weights on the executor (its count is known now). */
int cli_ex_apply_weights(cli_executor *ex, const char *cmd, const cli_multi_opts *o, double *given)
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
    if (cli_ex_set_weights(ex, how, how == TSL_WEIGHTS_GIVEN ? given : NULL) != TSL_OK)
        return ex->root ? cli_error(CLI_EXIT_USAGE, "%s: --weights: %s", cmd, cli_ex_error(ex))
                        : CLI_EXIT_USAGE;
    return 0;
}

/* --variant on every context this process drives; a name the library refuses is a usage error,
 * a device that cannot run it a runtime error naming the device. */
int cli_ex_apply_variant(cli_executor *ex, const char *cmd, const char *op, const char *variant)
{
    tsl_context *ctx[16]; /* a group has at most 16 devices; a rank drives one */
    size_t n = cli_ex_contexts(ex, ctx);
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
        return cli_ex_fail(ex, cmd, "variant %s cannot run on %d:%d %s: %s (%s)", variant,
                           info.platform_index, info.device_index, info.name,
                           tsl_context_error(ctx[i]), tsl_status_name(st));
    }
    return 0;
}
