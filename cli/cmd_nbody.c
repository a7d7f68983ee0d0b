/* cmd_nbody.c: `tessel nbody`, 002's all-pairs N-body workload: per body count it runs the host's
 * sequential C version once (the `sequential` row, the speedup baseline) and each variant of
 * tsl_nbody (`warmup` + `repeat` whole calls from the same initial bodies, median kernel time),
 * and reports one row each: kernel time of all steps, GFLOP/s at 20 flops per interaction (the
 * customary count: 3 subtractions, 6 multiply-adds for r^2 and the sum, rsqrt, 3 multiplies for
 * the cube and mass, counted as in GPU Gems 3 ch. 31), and the speedup over the sequential row.
 *
 * --verify checks each result three ways (src/ref/workloads_nbody.c has the definitions, and
 * docs/nbody.md the reasons): the per-body error against the sequential version after the same
 * steps (max_rel_err), the drift of the total momentum (which the pairwise forces conserve
 * exactly, so only rounding moves it), and the drift of the total energy against the sequential
 * version's own drift (semi-implicit Euler does not conserve energy exactly; the device must show
 * the integrator's drift, no more). The energy drift of the row is the table's and JSON's second
 * figure. The references and energies are O(n^2) host loops: --verify on 002's 65,536 bodies
 * takes minutes. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "common.h"
#include "measure.h"
#include "output.h"
#include "peers.h"
#include "ref/workloads.h"
#include "tessel.h"

#define MAX_RUNS 100000u
#define FLOPS_PER_INTERACTION 20.0
#define MIN_SOFTENING 1e-12 /* tsl_nbody's range (tessel.h) */
#define MAX_SOFTENING 1e12

typedef struct {
    /* options */
    const char *device, *variant, *csv, *json;
    cli_size_list sizes;
    size_t bodies, local, seed;
    unsigned steps;
    double dt, softening, tolerance;
    int verify, quiet, help, no_sequential;
    /* resolved */
    char local_text[24];
    cli_variants vs;
    cli_session s; /* device, report, --repeat and --warmup */
} nbody_job;

/* The host data of one body count. */
typedef struct {
    size_t n;
    float *pos0, *vel0;       /* the initial bodies, every run starts from them */
    float *pos, *vel;         /* a run's result */
    float *ref_pos, *ref_vel; /* the sequential version's result (NULL: not computed) */
    double seq_ms;            /* its time, NaN without the sequential row */
    tsl_ref_nbody_totals t0;  /* the initial bodies' energy and momentum (--verify) */
    double ref_energy_drift;  /* the sequential version's energy drift (--verify) */
    double *times;
} body_data;

static double verify_tolerance(const nbody_job *job)
{
    return isnan(job->tolerance) ? tsl_ref_nbody_tolerance((int)job->steps) : job->tolerance;
}

static void set_common(const nbody_job *job, size_t n, const char *variant, cli_row *row)
{
    cli_row_start(&job->s, "nbody", variant, row);
    row->precision = "single";
    row->m = row->n = (long long)n;
    row->k = (long long)job->steps;
    row->local = job->local_text;
    row->extra_name[0] = "speedup";
    row->extra_name[1] = "energy_drift";
}

static void row_error(nbody_job *job, size_t n, const char *variant, const char *what)
{
    cli_error(CLI_EXIT_RUNTIME, "nbody %s at %zu bodies: %s", variant, n, what);
    job->s.any_error = 1;
}

/* Time, GFLOP/s and speedup of a row whose steps took ms. */
static void set_speed(const nbody_job *job, const body_data *d, double ms, cli_row *row)
{
    row->kernel_ms = ms;
    if (ms > 0 && job->steps > 0) {
        row->gflops = FLOPS_PER_INTERACTION * (double)d->n * (double)d->n * job->steps / (ms * 1e6);
        if (d->seq_ms > 0) row->extra[0] = d->seq_ms / ms;
    }
}

/* The checks of --verify on the state (pos, vel) after the steps: fills max_rel_err (unless it
 * is the reference itself) and the energy drift, and marks the row failed with a note naming the
 * check. */
static void verify_row(nbody_job *job, body_data *d, const float *pos, const float *vel,
                       int is_reference, cli_row *row)
{
    double tol = verify_tolerance(job);
    tsl_ref_nbody_totals t;
    tsl_ref_nbody_compute_totals(d->n, (float)job->softening, pos, vel, &t);
    double momentum = tsl_ref_nbody_momentum_drift(&d->t0, &t);
    double energy = tsl_ref_nbody_energy_drift(&d->t0, &t);
    row->extra[1] = energy;
    const char *failed = NULL;
    double value = 0, limit = tol;
    if (!is_reference) {
        row->max_rel_err = tsl_ref_nbody_error(d->n, pos, vel, d->ref_pos, d->ref_vel);
        if (!(row->max_rel_err <= tol)) failed = "per-body error", value = row->max_rel_err;
    }
    if (!failed && !(momentum <= tol)) failed = "momentum drift", value = momentum;
    if (!failed && !(fabs(energy - d->ref_energy_drift) <= tol)) {
        failed = "energy drift";
        value = energy;
        limit = fabs(d->ref_energy_drift) + tol;
    }
    if (!failed) return;
    cli_note("nbody %s at %zu bodies: %s %.3g is above %.3g", row->variant, d->n, failed, value,
             limit);
    row->status = "verify_failed";
    job->s.any_failed = 1;
}

/* The sequential version on a copy of the initial bodies, timed once by the host clock: it is
 * the speedup baseline (a deterministic host loop, slow at 002's sizes) and the reference. */
static void run_sequential(body_data *d, const nbody_job *job)
{
    size_t bytes = 4 * d->n * sizeof(float);
    memcpy(d->ref_pos, d->pos0, bytes);
    memcpy(d->ref_vel, d->vel0, bytes);
    double t0 = tsl__peer_now_ms();
    tsl_ref_nbody(d->n, (int)job->steps, (float)job->dt, (float)job->softening, d->ref_pos,
                  d->ref_vel);
    d->seq_ms = tsl__peer_now_ms() - t0;
}

static void report_sequential(nbody_job *job, body_data *d)
{
    cli_row row;
    set_common(job, d->n, "sequential", &row);
    row.device = "host";
    row.local = "";
    row.repeat = 1;
    set_speed(job, d, d->seq_ms, &row);
    row.status = "ok";
    if (job->verify) verify_row(job, d, d->ref_pos, d->ref_vel, 1, &row);
    cli_report_row(job->s.rep, &row);
}

/* One whole call from the initial bodies; its time is the call's kernel time. */
typedef struct {
    nbody_job *job;
    body_data *d;
} nbody_call;

static tsl_status call_nbody(void *arg, unsigned run, double *ms)
{
    (void)run, (void)ms;
    nbody_call *a = arg;
    body_data *d = a->d;
    memcpy(d->pos, d->pos0, 4 * d->n * sizeof(float));
    memcpy(d->vel, d->vel0, 4 * d->n * sizeof(float));
    return tsl_nbody(a->job->s.ctx, d->n, (int)a->job->steps, (float)a->job->dt,
                     (float)a->job->softening, d->pos, d->vel);
}

static void run_variant(nbody_job *job, body_data *d, size_t vi)
{
    const char *v = job->vs.name[vi];
    cli_row row;
    set_common(job, d->n, v, &row);
    if (!cli_variant_row(&job->s, &job->vs, vi, &row)) return;
    tsl_status st = tsl_context_set_variant(job->s.ctx, "nbody", v);
    nbody_call a = {job, d};
    tsl_timing t = {0, 0, 0, 0};
    if (st == TSL_OK)
        st = cli_time_runs(&job->s, call_nbody, &a, d->times, &row, job->vs.check_build_ms[vi], &t);
    if (cli_variant_skip(&job->s, &job->vs, st, v, &row)) return;
    if (st != TSL_OK) {
        char msg[1200];
        cli_status_text(&job->s, st, msg, sizeof msg);
        row_error(job, d->n, v, msg);
        cli_report_row(job->s.rep, &row);
        return;
    }
    set_speed(job, d, cli_median(d->times, job->s.repeat), &row);
    row.upload_ms = t.upload_ms;
    row.download_ms = t.download_ms;
    row.status = "ok";
    if (job->verify) verify_row(job, d, d->pos, d->vel, 0, &row);
    cli_report_row(job->s.rep, &row);
}

static void free_bodies(body_data *d)
{
    free(d->pos0);
    free(d->vel0);
    free(d->pos);
    free(d->vel);
    free(d->ref_pos);
    free(d->ref_vel);
    free(d->times);
}

static void bodies_failed(nbody_job *job, size_t n, const char *what)
{
    cli_error(CLI_EXIT_RUNTIME, "nbody at %zu bodies: %s", n, what);
    job->s.any_error = 1;
    cli_row row;
    if (!job->no_sequential) {
        set_common(job, n, "sequential", &row);
        row.device = "host";
        cli_report_row(job->s.rep, &row);
    }
    for (size_t i = 0; i < job->vs.n; ++i) {
        set_common(job, n, job->vs.name[i], &row);
        cli_report_row(job->s.rep, &row);
    }
}

static void run_bodies(nbody_job *job, size_t n, size_t index, size_t total)
{
    body_data d;
    memset(&d, 0, sizeof d);
    d.n = n;
    d.seq_ms = NAN;
    size_t bytes = 4 * n * sizeof(float);
    int need_ref = job->verify || !job->no_sequential;
    d.pos0 = malloc(bytes);
    d.vel0 = malloc(bytes);
    d.pos = malloc(bytes);
    d.vel = malloc(bytes);
    d.times = malloc(job->s.repeat * sizeof *d.times);
    if (need_ref) {
        d.ref_pos = malloc(bytes);
        d.ref_vel = malloc(bytes);
    }
    if (!d.pos0 || !d.vel0 || !d.pos || !d.vel || !d.times ||
        (need_ref && (!d.ref_pos || !d.ref_vel))) {
        bodies_failed(job, n, "out of host memory for the bodies");
        free_bodies(&d);
        return;
    }
    unsigned long long state = job->seed + 0x9E3779B97F4A7C15ull * (index + 1);
    tsl_ref_nbody_random(n, d.pos0, d.vel0, &state);
    if (need_ref) {
        cli_progress("nbody %zu/%zu %zu bodies: sequential", index + 1, total, n);
        run_sequential(&d, job);
        if (job->no_sequential) d.seq_ms = NAN; /* computed only as the reference */
    }
    if (job->verify) {
        cli_progress("nbody %zu/%zu %zu bodies: energies for --verify", index + 1, total, n);
        tsl_ref_nbody_totals t;
        tsl_ref_nbody_compute_totals(n, (float)job->softening, d.pos0, d.vel0, &d.t0);
        tsl_ref_nbody_compute_totals(n, (float)job->softening, d.ref_pos, d.ref_vel, &t);
        d.ref_energy_drift = tsl_ref_nbody_energy_drift(&d.t0, &t);
    }
    if (!job->no_sequential) report_sequential(job, &d);
    for (size_t i = 0; i < job->vs.n; ++i) {
        cli_progress("nbody %zu/%zu %zu bodies: %s", index + 1, total, n, job->vs.name[i]);
        run_variant(job, &d, i);
    }
    free_bodies(&d);
}

/* ---- the command ----------------------------------------------------------------------------- */

static void print_help(const cli_option *opts, size_t nopts)
{
    printf("Usage: tessel nbody [options]\n\n"
           "002's all-pairs N-body simulation (G = 1, Plummer softening, semi-implicit Euler):\n"
           "for each body count, random bodies in a cube (masses summing to about 1) take --steps\n"
           "steps of a_i = sum_j m_j (r_j - r_i) / (|r_j - r_i|^2 + eps^2)^(3/2), v += a dt,\n"
           "r += v dt. One row per variant (median device time of all steps over --repeat runs,\n"
           "after --warmup) and one `sequential` row: the host's sequential C version, run once,\n"
           "timed by the host clock, device \"host\". GFLOP/s counts 20 flops per interaction\n"
           "(n^2 per step, the customary count); speedup = sequential time / row time.\n"
           "--verify checks every result against the sequential version after the same steps\n"
           "(per-body relative error, pass below 1e-5 max(1, steps)) and checks that the total\n"
           "momentum does not drift and the total energy drifts as the sequential version's does\n"
           "(to the same tolerance); the energy drift is shown as energy_drift. The sequential\n"
           "version and the energies are O(n^2) host loops: slow at 002's size.\n\n"
           "Options:\n");
    cli_help_options(opts, nopts, "nbody");
    printf("  original: 002's kernel, one work-item per body, positions read from global\n"
           "  memory; local: tiles of positions staged in local memory; optimized: local with\n"
           "  the inner loop unrolled twice (002's final combination).\n"
           "\nOutput: an aligned table on stdout; --csv/--json write the columns\n  %s\n"
           "(m = n = bodies, k = steps, local = --local when given, gbps empty) to a file or to\n"
           "stdout with '-'. JSON rows also carry speedup and energy_drift (the change of the\n"
           "total energy over |kinetic| + |potential| at the start, with --verify).\n\n"
           "Exit codes: 0 success, 1 a --verify check failed, 2 usage error, 3 runtime error.\n\n"
           "Examples:\n"
           "  tessel nbody --variant all --bodies 8192 --steps 2 --verify\n"
           "  tessel nbody --variant all --local 128 --no-sequential\n"
           "  tessel nbody --sizes 1024,4096,16384 --variant optimized --csv -\n",
           cli_csv_header);
}

static int check_options(nbody_job *job)
{
    int rc;
    if (job->steps > INT_MAX)
        return cli_error(CLI_EXIT_USAGE, "nbody: --steps goes up to %d", INT_MAX);
    if (!(job->softening >= MIN_SOFTENING && job->softening <= MAX_SOFTENING))
        return cli_error(CLI_EXIT_USAGE, "nbody: --softening %g must be in [%g, %g]",
                         job->softening, MIN_SOFTENING, MAX_SOFTENING);
    if (!(fabs(job->dt) <= FLT_MAX))
        return cli_error(CLI_EXIT_USAGE, "nbody: --dt %g does not fit a single-precision number",
                         job->dt);
    if ((rc = cli_check_runs("nbody", job->s.repeat, job->s.warmup, MAX_RUNS))) return rc;
    if (!isnan(job->tolerance) && job->tolerance < 0)
        return cli_error(CLI_EXIT_USAGE, "nbody: --tolerance must not be negative");
    if ((rc = cli_variants_select(&job->vs, "nbody", job->variant, "nbody", 0))) return rc;
    if ((rc = cli_sizes("nbody", "--bodies", job->bodies, &job->sizes, 65536))) return rc;
    for (size_t i = 0; i < job->sizes.n; ++i)
        if (job->sizes.v[i] > (size_t)INT_MAX / 2)
            return cli_error(CLI_EXIT_USAGE, "nbody: %zu bodies are too many; at most %d",
                             job->sizes.v[i], INT_MAX / 2);
    if (job->local) snprintf(job->local_text, sizeof job->local_text, "%zu", job->local);
    return 0;
}

/* Three device arrays of n float4 (two position buffers, one of velocities), each within the
 * largest buffer, and the host's six (initial, result, reference). */
static int check_memory(const nbody_job *job, size_t n)
{
    unsigned long long bytes = (unsigned long long)n * 4 * sizeof(float);
    if (bytes > job->s.dev.max_alloc)
        return cli_error(CLI_EXIT_USAGE,
                         "nbody: %zu bodies need %llu bytes per array, more than the largest "
                         "buffer %s allows (max_alloc %llu bytes); use fewer --bodies",
                         n, bytes, job->s.dev.name, job->s.dev.max_alloc);
    if ((long double)bytes * 3 > (long double)job->s.dev.global_mem)
        return cli_error(CLI_EXIT_USAGE,
                         "nbody: %zu bodies need %.0Lf bytes of device memory, more than the "
                         "global memory of %s (%llu bytes); use fewer --bodies",
                         n, (long double)bytes * 3, job->s.dev.name, job->s.dev.global_mem);
    long double phys = cli_host_memory();
    if (phys > 0 && (long double)bytes * 6 > phys)
        return cli_error(CLI_EXIT_USAGE,
                         "nbody: %zu bodies need %.0Lf bytes of host memory, more than this "
                         "machine has (%.0Lf bytes); use fewer --bodies",
                         n, (long double)bytes * 6, phys);
    return 0;
}

int cli_cmd_nbody(int argc, char **argv)
{
    nbody_job job;
    memset(&job, 0, sizeof job);
    job.variant = "auto";
    job.steps = 1;
    job.dt = 1e-3;
    job.softening = 0.01;
    job.s.repeat = 3;
    job.s.warmup = 1;
    job.seed = 42;
    job.tolerance = NAN;

    const cli_option opts[] = {
        CLI_OPT_DEVICE(&job.device),
        CLI_OPT_VARIANT(&job.variant),
        {"--bodies", "--size", CLI_COUNT, &job.bodies, "N", "bodies; default 65536 (002's)"},
        {"--sizes", NULL, CLI_SIZE_LIST, &job.sizes, "A,B,...", "several body counts, in turn"},
        {"--steps", NULL, CLI_UINT, &job.steps, "S", "steps per run (0: nothing moves); default 1"},
        {"--dt", NULL, CLI_REAL, &job.dt, "DT", "time step; default 0.001"},
        {"--softening", NULL, CLI_REAL, &job.softening, "EPS",
         "Plummer softening length, 1e-12..1e12; default 0.01"},
        {"--local", NULL, CLI_COUNT, &job.local, "L",
         "work-group size, also the tile of bodies of local and optimized (002's multithreading "
         "sweep); default: the device type's (64)"},
        CLI_OPT_SEED(&job.seed),
        {"--repeat", NULL, CLI_COUNT, &job.s.repeat, "R", "timed runs, median reported; default 3"},
        {"--warmup", NULL, CLI_UINT, &job.s.warmup, "W", "untimed runs first; default 1"},
        {"--no-sequential", NULL, CLI_FLAG, &job.no_sequential, NULL,
         "leave out the sequential row (with --verify the sequential version still runs, untimed, "
         "as the reference)"},
        {"--verify", NULL, CLI_FLAG, &job.verify, NULL,
         "check every result: per body against the sequential version, and the drift of the "
         "total momentum and energy (exit 1 if one fails)"},
        {"--tolerance", NULL, CLI_REAL, &job.tolerance, "E",
         "--verify pass threshold instead of 1e-5 max(1, steps)"},
        CLI_OPTS_OUTPUT(&job.csv, &job.json, &job.quiet, &job.help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    int rc = cli_read_options("nbody", argc, argv, opts, nopts, print_help);
    if (rc >= 0) return rc;
    if (strcmp(job.variant, "list") == 0) return cli_list_variants("nbody");
    if ((rc = check_options(&job))) return rc;

    rc = cli_session_open(&job.s, job.csv, job.json, job.quiet,
                          "variant,m,k,local,kernel_ms,gflops,extra0,extra1,build_ms,max_rel_err,"
                          "status,device",
                          job.device, 0);
    if (rc) return rc;
    for (size_t i = 0; !rc && i < job.sizes.n; ++i)
        rc = check_memory(&job, job.sizes.v[i]);
    if (!rc && job.local &&
        tsl_context_set_option(job.s.ctx, "nbody", "local", (long)job.local) != TSL_OK)
        rc = cli_error(CLI_EXIT_USAGE, "nbody: --local: %s", tsl_context_error(job.s.ctx));
    if (!rc) rc = cli_variants_check(&job.vs, &job.s, "nbody");
    if (rc) return cli_session_abort(&job.s, rc);

    snprintf(job.s.title, sizeof job.s.title,
             "nbody (all pairs) on %s (%d:%d, %s), %u step%s, dt %g, softening %g", job.s.dev.name,
             job.s.dev.platform_index, job.s.dev.device_index, job.s.dev.platform, job.steps,
             job.steps == 1 ? "" : "s", job.dt, job.softening);
    for (size_t i = 0; i < job.sizes.n; ++i)
        run_bodies(&job, job.sizes.v[i], i, job.sizes.n);
    return cli_session_close(&job.s);
}
