/* cmd_poisson.c: `tessel poisson`, which runs the Jacobi solver for -lap(u) = f on the unit
 * square (tsl_spoisson / tsl_dpoisson) per grid size and variant, and reports one row each:
 * sweeps done (k), the median kernel time of a whole solve, sweeps per second, effective
 * bandwidth, the final residual, and with --verify the error against a CPU Jacobi run of the
 * same number of sweeps.
 *
 * How a row is measured: each of `warmup` + `repeat` runs is one whole call of the library (upload
 * f and u, iterate, download u), starting from the same initial u; kernel_ms is the median over the
 * timed runs of the call's device time (tsl_poisson_info.kernel_ms: every sweep, residual check and
 * the border copy, from profiling events). Bandwidth counts, per sweep, one read of the grid (n^2
 * values), one read of f and one write of the new iterate over the interior ((n-2)^2 values each):
 * the bytes a sweep must move, once each (docs/design.md, "Measuring"), times the sweeps, over
 * kernel_ms. The temporal variants move fewer bytes than that, so their figure can pass the copy
 * row's: it is an effective bandwidth, proportional to sweeps per second. The `copy` row (--copy)
 * is tsl_copy_buf moving as many bytes as one sweep (half of them read, half written), timed per
 * copy: the device's attainable bandwidth in the same run. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "common.h"
#include "measure.h"
#include "multi.h"
#include "output.h"
#include "problems.h"
#include "ref/ref.h"
#include "tessel.h"

#define MAX_RUNS 100000u

typedef struct {
    /* options */
    const char *device, *variant, *precision, *problem, *csv, *json;
    cli_size_list sizes;
    size_t grid, iters, check_every, seed;
    double tol, tolerance;
    int verify, quiet, help, copy;
    /* resolved */
    int is_double, random;
    size_t es;
    cli_variants vs;
    cli_session s;        /* device, report, --repeat and --warmup */
    cli_multi_opts multi; /* --devices, --weights, --timeout, --distributed (cli/multi.c) */
} poisson_job;

/* The host data of one grid size. */
typedef struct {
    size_t n;
    void *f, *u0, *out;
    double *fd, *u0d; /* double copies for the reference (--verify) */
    double *times;
} grid_data;

static double bytes_per_sweep(const poisson_job *job, size_t n)
{
    double in = (double)(n - 2) * (double)(n - 2);
    return ((double)n * (double)n + 2.0 * in) * (double)job->es;
}

static void set_common(const poisson_job *job, size_t n, const char *variant, cli_row *row)
{
    cli_row_start(&job->s, "poisson", variant, row);
    row->precision = job->is_double ? "double" : "single";
    row->m = row->n = (long long)n;
    row->extra_name[0] = "sweeps_per_s";
    row->extra_name[1] = "residual";
}

static void row_error(poisson_job *job, size_t n, const char *variant, const char *what)
{
    cli_error(CLI_EXIT_RUNTIME, "poisson %s at grid %zu: %s", variant, n, what);
    job->s.any_error = 1;
}

/* One whole solve from the initial u; its time is the solve's device time. */
typedef struct {
    poisson_job *job;
    grid_data *d;
    tsl_poisson_info info;
} solve_call;

static tsl_status call_solver(void *arg, unsigned run, double *ms)
{
    (void)run;
    solve_call *a = arg;
    poisson_job *job = a->job;
    grid_data *d = a->d;
    tsl_poisson_info *info = &a->info;
    tsl_status st;
    memcpy(d->out, d->u0, d->n * d->n * job->es);
    if (job->is_double)
        st = tsl_dpoisson(job->s.ctx, d->n, d->f, d->out, (int)job->iters, job->tol, info);
    else
        st = tsl_spoisson(job->s.ctx, d->n, d->f, d->out, (int)job->iters, job->tol, info);
    *ms = info->kernel_ms;
    return st;
}

static void run_variant(poisson_job *job, grid_data *d, size_t vi)
{
    const char *v = job->vs.name[vi];
    size_t n = d->n;
    cli_row row;
    set_common(job, n, v, &row);
    if (!cli_variant_row(&job->s, &job->vs, vi, &row)) return;
    tsl_status st = tsl_context_set_variant(job->s.ctx, "poisson", v);
    solve_call a = {job, d, {0, NAN, 0}};
    tsl_timing t = {0, 0, 0, 0};
    if (st == TSL_OK)
        st = cli_time_runs(&job->s, call_solver, &a, d->times, &row, job->vs.check_build_ms[vi],
                           &t);
    tsl_poisson_info info = a.info;
    if (cli_variant_skip(&job->s, &job->vs, st, v, &row)) return;
    if (st != TSL_OK) {
        char msg[1200];
        cli_status_text(&job->s, st, msg, sizeof msg);
        row_error(job, n, v, msg);
        cli_report_row(job->s.rep, &row);
        return;
    }
    double ms = cli_median(d->times, job->s.repeat);
    row.k = info.iterations;
    row.kernel_ms = ms;
    row.upload_ms = t.upload_ms;
    row.download_ms = t.download_ms;
    row.extra[1] = info.residual;
    if (ms > 0) {
        row.extra[0] = info.iterations / (ms * 1e-3);
        row.gbps = bytes_per_sweep(job, n) * info.iterations / (ms * 1e6);
    }
    row.status = "ok";
    if (job->verify) {
        double *ref = malloc(n * n * sizeof *ref);
        if (!ref || tsl_ref_jacobi(n, d->fd, memcpy(ref, d->u0d, n * n * sizeof *ref),
                                   info.iterations) != 0) {
            free(ref);
            row_error(job, n, v, "out of host memory for the --verify reference");
            row.status = "error";
            cli_report_row(job->s.rep, &row);
            return;
        }
        row.max_rel_err = cli_poisson_error(job->is_double, d->out, ref, n * n);
        free(ref);
        if (!(row.max_rel_err <= cli_poisson_tolerance(job->is_double, job->tolerance,
                                                       info.iterations))) {
            row.status = "verify_failed";
            job->s.any_failed = 1;
        }
    }
    cli_report_row(job->s.rep, &row);
}

/* The copy reference: tsl_copy_buf of half a sweep's bytes (read + written = one sweep's). */
static void run_copy(poisson_job *job, grid_data *d)
{
    cli_row row;
    set_common(job, d->n, "copy", &row); /* sweeps/s and residual stay empty */
    cli_copy_opts o = {(size_t)(bytes_per_sweep(job, d->n) / 2) / job->es * job->es,
                       0,
                       1,
                       job->is_double,
                       job->seed,
                       job->verify};
    tsl_status st = cli_copy_row(&job->s, &o, d->times, &row);
    if (st != TSL_OK) {
        char msg[1200];
        cli_status_text(&job->s, st, msg, sizeof msg);
        row_error(job, d->n, "copy", msg);
    }
    cli_report_row(job->s.rep, &row);
}

static void free_grid(grid_data *d)
{
    free(d->f);
    free(d->u0);
    free(d->out);
    free(d->fd);
    free(d->u0d);
    free(d->times);
}

static void grid_failed(poisson_job *job, size_t n, const char *what)
{
    cli_error(CLI_EXIT_RUNTIME, "poisson at grid %zu: %s", n, what);
    job->s.any_error = 1;
    cli_row row;
    for (size_t i = 0; i < job->vs.n; ++i) {
        set_common(job, n, job->vs.name[i], &row);
        cli_report_row(job->s.rep, &row);
    }
}

static void run_grid(poisson_job *job, size_t n, size_t index, size_t total)
{
    grid_data d;
    memset(&d, 0, sizeof d);
    d.n = n;
    size_t count = n * n;
    d.f = malloc(count * job->es);
    d.u0 = malloc(count * job->es);
    d.out = malloc(count * job->es);
    d.times = malloc(job->s.repeat * sizeof *d.times);
    if (!d.f || !d.u0 || !d.out || !d.times) {
        grid_failed(job, n, "out of host memory for the grids");
        free_grid(&d);
        return;
    }
    cli_poisson_problem(job->random, job->is_double, job->seed, index, n, d.f, d.u0);
    if (job->verify) {
        d.fd = cli_to_double(job->is_double, d.f, count);
        d.u0d = cli_to_double(job->is_double, d.u0, count);
        if (!d.fd || !d.u0d) {
            grid_failed(job, n, "out of host memory for the --verify reference");
            free_grid(&d);
            return;
        }
    }
    if (job->copy) {
        cli_progress("poisson %zu/%zu grid %zu: copy", index + 1, total, n);
        run_copy(job, &d);
    }
    for (size_t i = 0; i < job->vs.n; ++i) {
        cli_progress("poisson %zu/%zu grid %zu: %s", index + 1, total, n, job->vs.name[i]);
        run_variant(job, &d, i);
    }
    free_grid(&d);
}

/* ---- the command ----------------------------------------------------------------------------- */

static void print_help(const cli_option *opts, size_t nopts)
{
    printf("Usage: tessel poisson [options]\n\n"
           "Solves -lap(u) = f on the unit square (5-point stencil, Jacobi iteration) on an N x N\n"
           "grid (border included, h = 1/(N-1)) for each grid size and variant, and prints one\n"
           "row each: k = sweeps done, median device time of a whole solve over --repeat runs\n"
           "(after --warmup), sweeps/s, effective bandwidth (per sweep: one read of the grid,\n"
           "one of f, one write of the interior, times the sweeps, over the time), the final\n"
           "residual max |f - A_h u|, and with --verify the error max |u - u_ref| / max |u_ref|\n"
           "against a CPU Jacobi run of the same sweeps in double (pass below 1e-12 double,\n"
           "1e-5 * max(1, sqrt(k/64)) single). The default problem has f = 2 pi^2 sin(pi x)\n"
           "sin(pi y) and a zero boundary (exact solution sin(pi x) sin(pi y)).\n\n"
           "Options:\n");
    cli_help_options(opts, nopts, "poisson");
    printf("  naive: one work-item per point, one sweep per launch; local: a tile and a\n"
           "  one-point halo in local memory; temporal_K: K sweeps per launch on tiles with a\n"
           "  K-wide halo (same iterate as K naive sweeps); copy (--copy): tsl_copy_buf moving\n"
           "  one sweep's bytes, the bandwidth reference.\n"
           "\nOutput: an aligned table on stdout; --csv/--json write the columns\n  %s\n"
           "(m = n = N, k = sweeps; gbps as above) to a file or to stdout with '-'. JSON rows\n"
           "also carry sweeps_per_s and residual (CSV columns are fixed; sweeps/s = k / "
           "kernel_ms).\n\n"
           "Exit codes: 0 success, 1 a --verify check failed, 2 usage error, 3 runtime error.\n\n"
           "Examples:\n"
           "  tessel poisson --grid 1025 --iters 1000 --variant all --copy\n"
           "  tessel poisson --grid 257 --iters 100000 --tol 1e-8 --precision double\n"
           "  tessel poisson --sizes 129,257 --iters 50 --problem random --verify --csv -\n"
           "  tessel poisson --devices all:gpu --grid 16384 --iters 200    (several devices)\n"
           "  mpirun -np 4 tessel poisson --distributed --grid 16384       (MPI ranks)\n",
           cli_csv_header);
}

static int check_options(poisson_job *job)
{
    int rc = cli_parse_precision("poisson", job->precision, &job->is_double, &job->es);
    if (rc) return rc;
    if (strcmp(job->problem, "sine") == 0)
        job->random = 0;
    else if (strcmp(job->problem, "random") == 0)
        job->random = 1;
    else
        return cli_error(CLI_EXIT_USAGE, "poisson: --problem expects sine or random, got '%s'",
                         job->problem);
    if (job->iters > INT_MAX)
        return cli_error(CLI_EXIT_USAGE, "poisson: --iters goes up to %d", INT_MAX);
    if (job->check_every > INT_MAX)
        return cli_error(CLI_EXIT_USAGE, "poisson: --check-every goes up to %d", INT_MAX);
    if (job->tol < 0)
        return cli_error(CLI_EXIT_USAGE, "poisson: --tol must not be negative (0: exactly --iters "
                                         "sweeps)");
    if ((rc = cli_check_runs("poisson", job->s.repeat, job->s.warmup, MAX_RUNS))) return rc;
    if (!isnan(job->tolerance) && job->tolerance < 0)
        return cli_error(CLI_EXIT_USAGE, "poisson: --tolerance must not be negative");
    if ((rc = cli_variants_select(&job->vs, "poisson", job->variant, "poisson", 0))) return rc;
    if ((rc = cli_multi_check("poisson", &job->multi, job->device, 0, job->vs.all,
                               job->copy))) return rc;
    if ((rc = cli_sizes("poisson", "--grid", job->grid, &job->sizes, 1025))) return rc;
    for (size_t i = 0; i < job->sizes.n; ++i) {
        size_t n = job->sizes.v[i];
        if (n < 3)
            return cli_error(CLI_EXIT_USAGE,
                             "poisson: grid %zu is too small: the grid needs at least 3 x 3 points "
                             "(border included)",
                             n);
        if (n > (size_t)INT_MAX / 2 || n * n > SIZE_MAX / 4 / sizeof(double))
            return cli_error(CLI_EXIT_USAGE, "poisson: grid %zu is too large; use a smaller one",
                             n);
    }
    return 0;
}

/* Three device arrays of n^2 values (f and two grids), each within the largest buffer, and the
 * host's copies (f, initial u, result; with --verify double copies and the reference). */
static int check_memory(const poisson_job *job, size_t n)
{
    unsigned long long bytes = (unsigned long long)n * n * job->es;
    if (bytes > job->s.dev.max_alloc)
        return cli_error(CLI_EXIT_USAGE,
                         "poisson: a %zu x %zu grid needs %llu bytes, more than the largest buffer "
                         "%s allows (max_alloc %llu bytes); use a smaller --grid",
                         n, n, bytes, job->s.dev.name, job->s.dev.max_alloc);
    if ((long double)bytes * 3 > (long double)job->s.dev.global_mem)
        return cli_error(CLI_EXIT_USAGE,
                         "poisson: f and two %zu x %zu grids need %.0Lf bytes, more than the "
                         "global memory of %s (%llu bytes); use a smaller --grid",
                         n, n, (long double)bytes * 3, job->s.dev.name, job->s.dev.global_mem);
    long double host = (long double)bytes * 3;
    if (job->verify) host += (long double)n * n * sizeof(double) * 4;
    long double phys = cli_host_memory();
    if (phys > 0 && host > phys)
        return cli_error(CLI_EXIT_USAGE,
                         "poisson: grid %zu needs %.0Lf bytes of host memory%s, more than this "
                         "machine has (%.0Lf bytes); use a smaller --grid",
                         n, host, job->verify ? " with --verify" : "", phys);
    return 0;
}

int cli_cmd_poisson(int argc, char **argv)
{
    poisson_job job;
    memset(&job, 0, sizeof job);
    job.variant = "auto";
    job.precision = "single";
    job.problem = "sine";
    job.iters = 1000;
    job.s.repeat = 3;
    job.s.warmup = 1;
    job.seed = 42;
    job.tolerance = NAN;
    job.multi.timeout = NAN;

    const cli_option opts[] = {
        CLI_OPTS_TARGET(&job.device, &job.variant, &job.precision),
        {"--grid", "--size", CLI_COUNT, &job.grid, "N",
         "N x N points, border included; default 1025"},
        {"--sizes", NULL, CLI_SIZE_LIST, &job.sizes, "A,B,...", "several grid sizes, in turn"},
        {"--iters", NULL, CLI_COUNT, &job.iters, "K", "most sweeps; default 1000"},
        {"--tol", NULL, CLI_REAL, &job.tol, "T",
         "stop when max |f - A_h u| <= T max(1, max |f|); default 0: exactly --iters sweeps"},
        {"--check-every", NULL, CLI_COUNT, &job.check_every, "C",
         "sweeps between residual checks on the device (with --tol); default 20, rounded up to "
         "a multiple of K for temporal_K"},
        {"--problem", NULL, CLI_STRING, &job.problem, "P",
         "sine (f = 2 pi^2 sin(pi x) sin(pi y), zero boundary; default) or random (seeded f, "
         "boundary and initial guess)"},
        CLI_OPT_SEED(&job.seed),
        {"--repeat", NULL, CLI_COUNT, &job.s.repeat, "R",
         "timed whole solves, median reported; default 3"},
        {"--warmup", NULL, CLI_UINT, &job.s.warmup, "W", "untimed solves first; default 1"},
        {"--verify", NULL, CLI_FLAG, &job.verify, NULL,
         "compare the iterate with a CPU Jacobi run of the same sweeps (exit 1 if one fails)"},
        {"--tolerance", NULL, CLI_REAL, &job.tolerance, "E",
         "--verify pass threshold instead of the default"},
        {"--copy", NULL, CLI_FLAG, &job.copy, NULL,
         "add the copy row: one sweep's bytes through tsl_copy_buf, the bandwidth reference"},
        CLI_OPTS_MULTI(&job.multi),
        CLI_OPTS_OUTPUT(&job.csv, &job.json, &job.quiet, &job.help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    int rc = cli_read_options("poisson", argc, argv, opts, nopts, print_help);
    if (rc >= 0) return rc;
    if (strcmp(job.variant, "list") == 0) return cli_list_variants("poisson");
    if ((rc = check_options(&job))) return rc;
    if (job.multi.devices || job.multi.distributed) { /* several devices: cli/multi.c */
        cli_multi_opts *mo = &job.multi;
        mo->device = job.device, mo->variant = job.variant, mo->is_double = job.is_double;
        mo->es = job.es, mo->verify = job.verify, mo->tolerance = job.tolerance;
        mo->repeat = job.s.repeat, mo->warmup = job.s.warmup, mo->seed = job.seed;
        mo->csv = job.csv, mo->json = job.json, mo->quiet = job.quiet;
        return cli_multi_poisson(mo, job.sizes.v, job.sizes.n, job.iters, job.tol,
                                 job.check_every, job.random);
    }

    rc = cli_session_open(&job.s, job.csv, job.json, job.quiet,
                          "variant,precision,n,k,kernel_ms,extra0,gbps,extra1,build_ms,"
                          "max_rel_err,status,device",
                          job.device, job.is_double);
    if (rc) return rc;
    for (size_t i = 0; !rc && i < job.sizes.n; ++i)
        rc = check_memory(&job, job.sizes.v[i]);
    if (!rc && job.check_every &&
        tsl_context_set_option(job.s.ctx, "poisson", "check_every", (long)job.check_every) !=
            TSL_OK)
        rc = cli_error(CLI_EXIT_USAGE, "poisson: --check-every: %s", tsl_context_error(job.s.ctx));
    if (!rc) rc = cli_variants_check(&job.vs, &job.s, "poisson");
    if (rc) return cli_session_abort(&job.s, rc);

    snprintf(job.s.title, sizeof job.s.title,
             "poisson (Jacobi) on %s (%d:%d, %s), %s precision, %s problem, --iters %zu, --tol %g",
             job.s.dev.name, job.s.dev.platform_index, job.s.dev.device_index, job.s.dev.platform,
             job.is_double ? "double" : "single", job.random ? "random" : "sine", job.iters,
             job.tol);
    for (size_t i = 0; i < job.sizes.n; ++i)
        run_grid(&job, job.sizes.v[i], i, job.sizes.n);
    return cli_session_close(&job.s);
}
