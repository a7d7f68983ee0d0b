/* cmd_poisson.c: `tessel poisson`, which runs the Jacobi solver for -lap(u) = f on the unit
 * square (tsl_spoisson / tsl_dpoisson) per grid size and variant, and reports one row each:
 * sweeps done (k), the median kernel time of a whole solve, sweeps per second, effective
 * bandwidth, the final residual, and with --verify the error against a CPU Jacobi run of the
 * same number of sweeps.
 *
 * How a row is measured: each of `warmup` + `repeat` runs is one whole call of the library
 * (upload f and u, iterate, download u), starting from the same initial u; kernel_ms is the
 * median over the timed runs of the call's device time (tsl_poisson_info.kernel_ms: every sweep,
 * residual check and the border copy, from profiling events). Bandwidth counts, per sweep, one
 * read of the grid (n^2 values), one read of f and one write of the new iterate over the interior
 * ((n-2)^2 values each): the bytes a sweep must move, once each (DESIGN.md), times the sweeps,
 * over kernel_ms. The temporal variants move fewer bytes than that, so their figure can pass the
 * copy row's: it is an effective bandwidth, proportional to sweeps per second. The `copy` row
 * (--copy) is tsl_copy_buf moving as many bytes as one sweep (half of them read, half written),
 * timed per copy: the device's attainable bandwidth in the same run. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "common.h"
#include "output.h"
#include "ref/ref.h"
#include "tessel.h"

#define MAX_VARIANTS 32
#define MAX_RUNS 100000u
#define PI 3.14159265358979323846

typedef struct {
    /* options */
    const char *device, *variant, *precision, *problem, *csv, *json;
    cli_size_list sizes;
    size_t grid, iters, check_every, repeat, seed;
    unsigned warmup;
    double tol, tolerance;
    int verify, quiet, help, copy;
    /* resolved */
    int is_double, random;
    size_t es;
    const char *variants[MAX_VARIANTS];
    size_t nvariants;
    int variant_ok[MAX_VARIANTS];
    double check_build_ms[MAX_VARIANTS];
    const char *auto_resolved;
    tsl_context *ctx;
    tsl_device_info dev;
    cli_report *rep;
    int any_error, any_failed;
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

/* --verify threshold on max |u - u_ref| / max |u_ref|: 1e-12 in double (the kernels do the
 * reference's operations in the same order, so this is normally exactly 0); in single 1e-5 times
 * max(1, sqrt(sweeps / 64)): each sweep adds rounding errors of about one ulp that the averaging
 * damps only slowly for smooth components, and they add up like a random walk. */
static double verify_tolerance(const poisson_job *job, int sweeps)
{
    if (!isnan(job->tolerance)) return job->tolerance;
    if (job->is_double) return 1e-12;
    double factor = sqrt((double)sweeps / 64.0);
    return 1e-5 * (factor > 1 ? factor : 1);
}

static void set_common(const poisson_job *job, size_t n, const char *variant, cli_row *row)
{
    cli_row_init(row);
    row->op = "poisson";
    row->variant = variant;
    row->precision = job->is_double ? "double" : "single";
    row->m = row->n = (long long)n;
    row->device = job->dev.name;
    row->repeat = (long long)job->repeat;
    row->extra_name[0] = "sweeps_per_s";
    row->extra_name[1] = "residual";
}

static void row_error(poisson_job *job, size_t n, const char *variant, const char *what)
{
    cli_error(CLI_EXIT_RUNTIME, "poisson %s at grid %zu: %s", variant, n, what);
    job->any_error = 1;
}

static tsl_status call_solver(poisson_job *job, grid_data *d, tsl_poisson_info *info)
{
    memcpy(d->out, d->u0, d->n * d->n * job->es);
    if (job->is_double)
        return tsl_dpoisson(job->ctx, d->n, d->f, d->out, (int)job->iters, job->tol, info);
    return tsl_spoisson(job->ctx, d->n, d->f, d->out, (int)job->iters, job->tol, info);
}

/* max |out - ref| / max |ref| over the grid, in double; NaN in out gives NaN. */
static double rel_max_err(const poisson_job *job, const void *out, const double *ref, size_t count)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < count; ++i) {
        double o = job->is_double ? ((const double *)out)[i] : (double)((const float *)out)[i];
        double e = fabs(o - ref[i]);
        if (!(e <= num)) num = e;
        if (fabs(ref[i]) > den) den = fabs(ref[i]);
    }
    return den > 0 ? num / den : num;
}

static void run_variant(poisson_job *job, grid_data *d, size_t vi)
{
    const char *v = job->variants[vi];
    size_t n = d->n;
    cli_row row;
    set_common(job, n, v, &row);
    if (strcmp(v, "auto") == 0 && job->auto_resolved) row.resolved = job->auto_resolved;
    if (!job->variant_ok[vi]) {
        row.status = "skipped";
        cli_report_row(job->rep, &row);
        return;
    }
    tsl_status st = tsl_context_set_variant(job->ctx, "poisson", v);
    tsl_poisson_info info = {0, NAN, 0};
    tsl_timing t = {0, 0, 0, 0};
    unsigned runs = job->warmup + (unsigned)job->repeat;
    for (unsigned r = 0; st == TSL_OK && r < runs; ++r) {
        st = call_solver(job, d, &info);
        if (st == TSL_OK) st = tsl_context_timing(job->ctx, &t);
        if (st != TSL_OK) break;
        if (r == 0) row.build_ms = job->check_build_ms[vi] + t.build_ms;
        if (r >= job->warmup) d->times[r - job->warmup] = info.kernel_ms;
    }
    if (st == TSL_ERR_UNSUPPORTED && strcmp(job->variant, "all") == 0) {
        cli_note("variant %s skipped: %s", v, tsl_context_error(job->ctx));
        row.status = "skipped";
        cli_report_row(job->rep, &row);
        return;
    }
    if (st != TSL_OK) {
        char msg[1200];
        snprintf(msg, sizeof msg, "%s (%s)", tsl_context_error(job->ctx), tsl_status_name(st));
        row_error(job, n, v, msg);
        row.status = "error";
        cli_report_row(job->rep, &row);
        return;
    }
    double ms = cli_median(d->times, job->repeat);
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
            cli_report_row(job->rep, &row);
            return;
        }
        row.max_rel_err = rel_max_err(job, d->out, ref, n * n);
        free(ref);
        if (!(row.max_rel_err <= verify_tolerance(job, info.iterations))) {
            row.status = "verify_failed";
            job->any_failed = 1;
        }
    }
    cli_report_row(job->rep, &row);
}

/* The copy reference: tsl_copy_buf of half a sweep's bytes (read + written = one sweep's). */
static void run_copy(poisson_job *job, grid_data *d)
{
    size_t n = d->n;
    cli_row row;
    set_common(job, n, "copy", &row); /* sweeps/s and residual stay empty */
    size_t bytes = (size_t)(bytes_per_sweep(job, n) / 2) / job->es * job->es;
    tsl_buffer *src = NULL, *dst = NULL;
    tsl_timing t = {0, 0, 0, 0};
    tsl_status st = tsl_buffer_create(job->ctx, bytes, &src);
    if (st == TSL_OK) st = tsl_buffer_create(job->ctx, bytes, &dst);
    void *host = st == TSL_OK ? malloc(bytes) : NULL;
    if (st == TSL_OK && !host) st = TSL_ERR_OUT_OF_MEMORY;
    if (st == TSL_OK) {
        unsigned long long state = job->seed;
        cli_fill_random(job->is_double, host, bytes / job->es, &state);
        st = tsl_buffer_write(job->ctx, src, 0, bytes, host);
        if (st == TSL_OK && tsl_context_timing(job->ctx, &t) == TSL_OK) row.upload_ms = t.upload_ms;
    }
    unsigned runs = job->warmup + (unsigned)job->repeat;
    for (unsigned r = 0; st == TSL_OK && r < runs; ++r) {
        st = tsl_copy_buf(job->ctx, src, dst, bytes);
        if (st == TSL_OK) st = tsl_context_timing(job->ctx, &t);
        if (st != TSL_OK) break;
        if (r == 0) row.build_ms = t.build_ms;
        if (r >= job->warmup) d->times[r - job->warmup] = t.kernel_ms;
    }
    if (st == TSL_OK && job->verify) {
        void *back = malloc(bytes);
        if (!back)
            st = TSL_ERR_OUT_OF_MEMORY;
        else
            st = tsl_buffer_read(job->ctx, dst, 0, bytes, back);
        if (st == TSL_OK) {
            if (tsl_context_timing(job->ctx, &t) == TSL_OK) row.download_ms = t.download_ms;
            row.max_rel_err = memcmp(back, host, bytes) == 0 ? 0.0 : 1.0;
        }
        free(back);
    }
    if (st != TSL_OK) {
        char msg[1200];
        snprintf(msg, sizeof msg, "%s (%s)", tsl_context_error(job->ctx), tsl_status_name(st));
        row_error(job, n, "copy", msg);
        row.status = "error";
    } else {
        double ms = cli_median(d->times, job->repeat);
        row.kernel_ms = ms;
        if (ms > 0) row.gbps = 2.0 * (double)bytes / (ms * 1e6);
        row.status = "ok";
        if (job->verify && row.max_rel_err != 0.0)
            row.status = "verify_failed", job->any_failed = 1;
    }
    free(host);
    tsl_buffer_destroy(src);
    tsl_buffer_destroy(dst);
    cli_report_row(job->rep, &row);
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

/* f and the initial u: the sine problem (exact solution sin(pi x) sin(pi y), zero boundary, zero
 * initial guess) or, with --problem random, seeded random f (scaled to the size of A_h u),
 * boundary and initial guess. */
static void make_problem(const poisson_job *job, grid_data *d, size_t index)
{
    size_t n = d->n;
    double h = 1.0 / (double)(n - 1);
    unsigned long long state = job->seed + 0x9E3779B97F4A7C15ull * (index + 1);
    for (size_t y = 0; y < n; ++y)
        for (size_t x = 0; x < n; ++x) {
            size_t i = y * n + x;
            double fv, uv;
            if (job->random) {
                tsl_ref_fill_d(&fv, 1, &state);
                tsl_ref_fill_d(&uv, 1, &state);
                fv *= 20.0;
            } else {
                fv = 2 * PI * PI * sin(PI * (double)x * h) * sin(PI * (double)y * h);
                uv = 0.0;
            }
            if (job->is_double) {
                ((double *)d->f)[i] = fv;
                ((double *)d->u0)[i] = uv;
            } else {
                ((float *)d->f)[i] = (float)fv;
                ((float *)d->u0)[i] = (float)uv;
            }
        }
}

static void grid_failed(poisson_job *job, size_t n, const char *what)
{
    cli_error(CLI_EXIT_RUNTIME, "poisson at grid %zu: %s", n, what);
    job->any_error = 1;
    cli_row row;
    for (size_t i = 0; i < job->nvariants; ++i) {
        set_common(job, n, job->variants[i], &row);
        row.status = "error";
        cli_report_row(job->rep, &row);
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
    d.times = malloc(job->repeat * sizeof *d.times);
    if (!d.f || !d.u0 || !d.out || !d.times) {
        grid_failed(job, n, "out of host memory for the grids");
        free_grid(&d);
        return;
    }
    make_problem(job, &d, index);
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
    for (size_t i = 0; i < job->nvariants; ++i) {
        cli_progress("poisson %zu/%zu grid %zu: %s", index + 1, total, n, job->variants[i]);
        run_variant(job, &d, i);
    }
    free_grid(&d);
}

/* ---- the command ----------------------------------------------------------------------------- */

static void variant_names(char *buf, size_t cap)
{
    snprintf(buf, cap, "auto");
    for (size_t i = 0; tsl_variant_name("poisson", i); ++i) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, ", %s", tsl_variant_name("poisson", i));
    }
}

static int is_variant(const char *name)
{
    for (size_t i = 0; tsl_variant_name("poisson", i); ++i)
        if (strcmp(tsl_variant_name("poisson", i), name) == 0) return 1;
    return 0;
}

static void print_help(const cli_option *opts, size_t nopts)
{
    char names[512];
    variant_names(names, sizeof names);
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
    cli_print_options(stdout, opts, nopts);
    printf("\nVariants:\n  ");
    cli_print_wrapped(stdout, names, 2);
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
           "  tessel poisson --sizes 129,257 --iters 50 --problem random --verify --csv -\n",
           cli_csv_header);
}

static int list_variants(void)
{
    for (size_t i = 0; tsl_variant_name("poisson", i); ++i)
        printf("%s\n", tsl_variant_name("poisson", i));
    return CLI_EXIT_OK;
}

static int check_options(poisson_job *job)
{
    if (strcmp(job->precision, "single") == 0)
        job->is_double = 0;
    else if (strcmp(job->precision, "double") == 0)
        job->is_double = 1;
    else
        return cli_error(CLI_EXIT_USAGE, "poisson: --precision expects single or double, got '%s'",
                         job->precision);
    job->es = job->is_double ? sizeof(double) : sizeof(float);
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
    if (job->repeat > MAX_RUNS || job->warmup > MAX_RUNS)
        return cli_error(CLI_EXIT_USAGE, "poisson: --repeat and --warmup go up to %u", MAX_RUNS);
    if (!isnan(job->tolerance) && job->tolerance < 0)
        return cli_error(CLI_EXIT_USAGE, "poisson: --tolerance must not be negative");
    if (strcmp(job->variant, "all") == 0) {
        for (size_t i = 0; tsl_variant_name("poisson", i) && job->nvariants < MAX_VARIANTS; ++i)
            job->variants[job->nvariants++] = tsl_variant_name("poisson", i);
    } else if (strcmp(job->variant, "auto") == 0 || is_variant(job->variant)) {
        job->variants[job->nvariants++] = job->variant;
    } else {
        char names[512];
        variant_names(names, sizeof names);
        return cli_error(CLI_EXIT_USAGE,
                         "poisson: unknown variant '%s' (variants: %s; or all, list)", job->variant,
                         names);
    }
    if (job->grid && job->sizes.n)
        return cli_error(CLI_EXIT_USAGE, "poisson: give --grid or --sizes, not both");
    if (job->sizes.n == 0) {
        job->sizes.n = 1;
        job->sizes.v[0] = job->grid ? job->grid : 1025;
    }
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
    if (bytes > job->dev.max_alloc)
        return cli_error(CLI_EXIT_USAGE,
                         "poisson: a %zu x %zu grid needs %llu bytes, more than the largest buffer "
                         "%s allows (max_alloc %llu bytes); use a smaller --grid",
                         n, n, bytes, job->dev.name, job->dev.max_alloc);
    if ((long double)bytes * 3 > (long double)job->dev.global_mem)
        return cli_error(CLI_EXIT_USAGE,
                         "poisson: f and two %zu x %zu grids need %.0Lf bytes, more than the "
                         "global memory of %s (%llu bytes); use a smaller --grid",
                         n, n, (long double)bytes * 3, job->dev.name, job->dev.global_mem);
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
    job.repeat = 3;
    job.warmup = 1;
    job.seed = 42;
    job.tolerance = NAN;

    const cli_option opts[] = {
        {"--device", NULL, CLI_STRING, &job.device, "SPEC",
         "device: P:D from 'tessel devices', or part of a name (default: $TESSEL_DEVICE, else "
         "the first GPU, else the first device)"},
        {"--variant", NULL, CLI_STRING, &job.variant, "NAME",
         "a variant, 'all' (every variant), or 'list' (print the names); default auto"},
        {"--precision", NULL, CLI_STRING, &job.precision, "P", "single or double; default single"},
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
        {"--seed", NULL, CLI_COUNT, &job.seed, "S", "random data seed, >= 1; default 42"},
        {"--repeat", NULL, CLI_COUNT, &job.repeat, "R",
         "timed whole solves, median reported; default 3"},
        {"--warmup", NULL, CLI_UINT, &job.warmup, "W", "untimed solves first; default 1"},
        {"--verify", NULL, CLI_FLAG, &job.verify, NULL,
         "compare the iterate with a CPU Jacobi run of the same sweeps (exit 1 if one fails)"},
        {"--tolerance", NULL, CLI_REAL, &job.tolerance, "E",
         "--verify pass threshold instead of the default"},
        {"--copy", NULL, CLI_FLAG, &job.copy, NULL,
         "add the copy row: one sweep's bytes through tsl_copy_buf, the bandwidth reference"},
        {"--csv", NULL, CLI_STRING, &job.csv, "PATH|-", "write CSV to a file, or '-' for stdout"},
        {"--json", NULL, CLI_STRING, &job.json, "PATH|-",
         "write JSON to a file, or '-' for stdout"},
        {"--quiet", NULL, CLI_FLAG, &job.quiet, NULL, "no table on stdout"},
        {"--help", "-h", CLI_FLAG, &job.help, NULL, "this help"},
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    if (cli_wants_help(argc, argv)) {
        print_help(opts, nopts);
        return CLI_EXIT_OK;
    }
    int rc = cli_parse("poisson", argc, argv, opts, nopts);
    if (rc) return rc;
    if (strcmp(job.variant, "list") == 0) return list_variants();
    if ((rc = check_options(&job))) return rc;

    char command_line[2048];
    cli_command_line(cli_argc, cli_argv, command_line, sizeof command_line);
    char title[512];
    cli_report_opts ro = {job.csv,
                          job.json,
                          job.quiet,
                          "variant,precision,n,k,kernel_ms,extra0,gbps,extra1,build_ms,"
                          "max_rel_err,status,device",
                          title,
                          command_line};
    job.rep = cli_report_open(&ro, &rc);
    if (!job.rep) return rc;

    tsl_status st = tsl_context_create(job.device, &job.ctx);
    if (st != TSL_OK) {
        cli_report_close(job.rep, 0);
        return cli_device_error(st, job.device);
    }
    rc = 0;
    if ((st = tsl_context_device(job.ctx, &job.dev)) != TSL_OK)
        rc = cli_error(CLI_EXIT_RUNTIME, "cannot query the device: %s (%s)",
                       tsl_context_error(job.ctx), tsl_status_name(st));
    else if (job.is_double && !job.dev.fp64)
        rc = cli_error(CLI_EXIT_RUNTIME,
                       "device %s (%d:%d) has no double precision (cl_khr_fp64): use --precision "
                       "single or another --device",
                       job.dev.name, job.dev.platform_index, job.dev.device_index);
    for (size_t i = 0; !rc && i < job.sizes.n; ++i)
        rc = check_memory(&job, job.sizes.v[i]);
    if (!rc && job.check_every &&
        (st = tsl_context_set_option(job.ctx, "poisson", "check_every", (long)job.check_every)) !=
            TSL_OK)
        rc = cli_error(CLI_EXIT_USAGE, "poisson: --check-every: %s", tsl_context_error(job.ctx));
    for (size_t i = 0; !rc && i < job.nvariants; ++i) {
        const char *resolved = NULL;
        st = tsl_variant_check(job.ctx, "poisson", job.variants[i], &resolved);
        job.variant_ok[i] = st == TSL_OK;
        tsl_timing ct;
        job.check_build_ms[i] = tsl_context_timing(job.ctx, &ct) == TSL_OK ? ct.build_ms : 0.0;
        if (st == TSL_OK && strcmp(job.variants[i], "auto") == 0) job.auto_resolved = resolved;
        if (st == TSL_OK) continue;
        if (strcmp(job.variant, "all") == 0 && st == TSL_ERR_UNSUPPORTED)
            cli_note("variant %s skipped: %s", job.variants[i], tsl_context_error(job.ctx));
        else
            rc = cli_error(CLI_EXIT_RUNTIME, "poisson: variant %s cannot run on %s: %s (%s)",
                           job.variants[i], job.dev.name, tsl_context_error(job.ctx),
                           tsl_status_name(st));
    }
    if (rc) {
        cli_report_close(job.rep, 0);
        tsl_context_destroy(job.ctx);
        return rc;
    }

    snprintf(title, sizeof title,
             "poisson (Jacobi) on %s (%d:%d, %s), %s precision, %s problem, --iters %zu, --tol %g",
             job.dev.name, job.dev.platform_index, job.dev.device_index, job.dev.platform,
             job.is_double ? "double" : "single", job.random ? "random" : "sine", job.iters,
             job.tol);
    for (size_t i = 0; i < job.sizes.n; ++i)
        run_grid(&job, job.sizes.v[i], i, job.sizes.n);
    cli_progress_clear();

    rc = cli_report_close(job.rep, 1);
    tsl_context_destroy(job.ctx);
    if (rc || job.any_error) return CLI_EXIT_RUNTIME;
    return job.any_failed ? CLI_EXIT_VERIFY : CLI_EXIT_OK;
}
