/* cmd_pi.c: `tessel pi`, 002's "Pi calculation": the midpoint rule for the integral over [0,1] of
 * 4/(1+x^2) with --steps rectangles. It runs the host's sequential C version once (the
 * `sequential` row, the speedup baseline and the --verify reference), then each variant of tsl_pi
 * (`warmup` + `repeat` calls, median kernel time), and reports one row each: kernel time, GFLOP/s
 * at 6 flops per step (x = (i + 0.5) h: an add and a multiply; 1 + x x: a multiply and an add;
 * the division; the accumulation), the speedup over the sequential row, and the result's distance
 * from pi. --global and --local set the launch of every variant but `original` (002's
 * multithreading sweep; the library rounds global up to a multiple of local).
 *
 * --verify compares each result with the sequential version's (double precision, the exact
 * midpoint sum of the same steps): |pi - ref| / ref must be at most TSL_REF_PI_TOLERANCE, the
 * worst-case error of the float kernels (docs/pi.md). */
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
#define FLOPS_PER_STEP 6.0
#define DEFAULT_STEPS 1000857600ull /* 002's: divisible by every launch of its study */
#define PI_DIGITS 3.14159265358979323846

typedef struct {
    /* options */
    const char *device, *variant, *csv, *json;
    size_t steps, global, local;
    double tolerance;
    int verify, quiet, help, no_sequential;
    /* resolved */
    size_t global_run; /* the global size the options launch (--global and --local given), or 0 */
    char local_text[24];
    double ref, seq_ms; /* the sequential version's result and time (NaN when not run) */
    double *times;
    cli_variants vs;
    cli_session s; /* device, report, --repeat and --warmup */
} pi_job;

static double verify_tolerance(const pi_job *job)
{
    return isnan(job->tolerance) ? TSL_REF_PI_TOLERANCE : job->tolerance;
}

static void set_common(const pi_job *job, const char *variant, cli_row *row)
{
    cli_row_start(&job->s, "pi", variant, row);
    row->precision = "single";
    row->m = (long long)job->steps;
    /* The launch, where the options set it: `original` keeps 002's own (tessel.h). */
    if (strcmp(variant, "original") != 0 && strcmp(variant, "sequential") != 0) {
        if (job->global_run) row->n = (long long)job->global_run;
        row->local = job->local_text;
    }
    row->extra_name[0] = "speedup";
    row->extra_name[1] = "pi_error";
}

/* Time, GFLOP/s, speedup and distance from pi of a row whose call took ms and gave value. */
static void set_result(const pi_job *job, double ms, double value, cli_row *row)
{
    row->kernel_ms = ms;
    if (ms > 0) {
        row->gflops = FLOPS_PER_STEP * (double)job->steps / (ms * 1e6);
        if (job->seq_ms > 0) row->extra[0] = job->seq_ms / ms;
    }
    row->extra[1] = value - PI_DIGITS;
}

static void run_sequential(pi_job *job)
{
    cli_progress("pi: sequential (%zu steps on the host)", job->steps);
    double t0 = tsl__peer_now_ms();
    job->ref = tsl_ref_pi(job->steps);
    job->seq_ms = tsl__peer_now_ms() - t0;
    if (job->no_sequential) {
        job->seq_ms = NAN; /* computed only as the --verify reference */
        return;
    }
    cli_row row;
    set_common(job, "sequential", &row);
    row.device = "host";
    row.repeat = 1;
    set_result(job, job->seq_ms, job->ref, &row);
    row.status = "ok";
    cli_report_row(job->s.rep, &row);
}

/* One call of tsl_pi; its time is the call's kernel time. */
typedef struct {
    pi_job *job;
    double value;
} pi_call;

static tsl_status call_pi(void *arg, unsigned run, double *ms)
{
    (void)run, (void)ms;
    pi_call *a = arg;
    return tsl_pi(a->job->s.ctx, a->job->steps, &a->value);
}

static void run_variant(pi_job *job, size_t vi)
{
    const char *v = job->vs.name[vi];
    cli_row row;
    set_common(job, v, &row);
    if (!cli_variant_row(&job->s, &job->vs, vi, &row)) return;
    tsl_status st = tsl_context_set_variant(job->s.ctx, "pi", v);
    pi_call a = {job, NAN};
    tsl_timing t = {0, 0, 0, 0};
    if (st == TSL_OK)
        st = cli_time_runs(&job->s, call_pi, &a, job->times, &row, job->vs.check_build_ms[vi], &t);
    if (cli_variant_skip(&job->s, &job->vs, st, v, &row)) return;
    if (st != TSL_OK) {
        char msg[1200];
        cli_status_text(&job->s, st, msg, sizeof msg);
        cli_error(CLI_EXIT_RUNTIME, "pi %s at %zu steps: %s", v, job->steps, msg);
        job->s.any_error = 1;
        cli_report_row(job->s.rep, &row);
        return;
    }
    set_result(job, cli_median(job->times, job->s.repeat), a.value, &row);
    row.upload_ms = t.upload_ms;
    row.download_ms = t.download_ms;
    row.status = "ok";
    if (job->verify) {
        row.max_rel_err = fabs(a.value - job->ref) / job->ref;
        if (!(row.max_rel_err <= verify_tolerance(job))) {
            row.status = "verify_failed";
            job->s.any_failed = 1;
        }
    }
    cli_report_row(job->s.rep, &row);
}

/* ---- the command ----------------------------------------------------------------------------- */

static void print_help(const cli_option *opts, size_t nopts)
{
    printf("Usage: tessel pi [options]\n\n"
           "002's \"Pi calculation\": pi as the integral over [0,1] of 4/(1+x^2) by the midpoint\n"
           "rule with --steps rectangles, in single precision on the device. One row per variant\n"
           "(median device time over --repeat calls, after --warmup) and one `sequential` row:\n"
           "the host's sequential C version (double precision), run once, timed by the host\n"
           "clock, device \"host\". GFLOP/s counts 6 flops per step ((i + 0.5) h, x x, 1 +, the\n"
           "division, the accumulation); speedup = sequential time / row time; pi_error = result\n"
           "- pi. --verify compares each result with the sequential one (the exact midpoint sum):\n"
           "|pi - ref| / ref must be at most 2e-6, the float kernels' worst-case error\n"
           "(docs/pi.md).\n\n"
           "Options:\n");
    cli_help_options(opts, nopts, "pi");
    printf(
        "  original: 002's unoptimized kernel, 200 work-items in groups of 50 (--global and\n"
        "  --local do not apply); multithread: the same kernel massively multithreaded\n"
        "  (default launch: 2048 work-items per compute unit in groups of 64); float2..float16:\n"
        "  vectorized, each work-item VW steps at a time; optimized: 002's final configuration,\n"
        "  massive multithreading with float8.\n"
        "\nOutput: an aligned table on stdout; --csv/--json write the columns\n  %s\n"
        "(m = steps; n = the global size run when --global and --local are given, local =\n"
        "--local; gbps empty) to a file or to stdout with '-'. JSON rows also carry speedup\n"
        "and pi_error; a study derives the speedups from the sequential row's kernel_ms.\n\n"
        "Exit codes: 0 success, 1 a --verify check failed, 2 usage error, 3 runtime error.\n\n"
        "Examples:\n"
        "  tessel pi --variant all --steps 100000000 --verify\n"
        "  tessel pi --variant multithread --global 4608 --local 64 --no-sequential --csv -\n"
        "  tessel pi --variant float16 --steps 7 --verify\n",
        cli_csv_header);
}

static int check_options(pi_job *job)
{
    int rc;
    if ((rc = cli_check_runs("pi", job->s.repeat, job->s.warmup, MAX_RUNS))) return rc;
    if (!isnan(job->tolerance) && job->tolerance < 0)
        return cli_error(CLI_EXIT_USAGE, "pi: --tolerance must not be negative");
    if (job->global > (size_t)LONG_MAX || job->local > (size_t)LONG_MAX)
        return cli_error(CLI_EXIT_USAGE, "pi: --global and --local go up to %ld", LONG_MAX);
    if ((rc = cli_variants_select(&job->vs, "pi", job->variant, "pi", 0))) return rc;
    if (job->local) snprintf(job->local_text, sizeof job->local_text, "%zu", job->local);
    return 0;
}

/* Sets --global and --local as the op's options; a value the library refuses is a usage error
 * with its message (which names the valid range). */
static int set_launch(pi_job *job)
{
    const struct {
        const char *name, *flag;
        size_t value;
    } opts[] = {{"local", "--local", job->local}, {"global", "--global", job->global}};
    for (size_t i = 0; i < 2; ++i)
        if (opts[i].value &&
            tsl_context_set_option(job->s.ctx, "pi", opts[i].name, (long)opts[i].value) != TSL_OK)
            return cli_error(CLI_EXIT_USAGE, "pi: %s: %s", opts[i].flag,
                             tsl_context_error(job->s.ctx));
    /* The rows show the global size that runs, rounded up to a whole number of groups, when it
     * is known here (with --global alone, the group size is the library's default). */
    if (job->global && job->local)
        job->global_run = (job->global + job->local - 1) / job->local * job->local;
    return 0;
}

int cli_cmd_pi(int argc, char **argv)
{
    pi_job job;
    memset(&job, 0, sizeof job);
    job.variant = "auto";
    job.steps = (size_t)DEFAULT_STEPS;
    job.s.repeat = 3;
    job.s.warmup = 1;
    job.tolerance = NAN;
    job.ref = job.seq_ms = NAN;

    const cli_option opts[] = {
        CLI_OPT_DEVICE(&job.device),
        CLI_OPT_VARIANT(&job.variant),
        {"--steps", "--size", CLI_COUNT, &job.steps, "N",
         "rectangles of the midpoint rule; default 1000857600 (002's)"},
        {"--global", NULL, CLI_COUNT, &job.global, "G",
         "total work-items (002's multithreading sweep), rounded up to a multiple of the group; "
         "default: 2048 per compute unit"},
        {"--local", NULL, CLI_COUNT, &job.local, "L", "work-items per work-group; default 64"},
        {"--repeat", NULL, CLI_COUNT, &job.s.repeat, "R",
         "timed calls, median reported; default 3"},
        {"--warmup", NULL, CLI_UINT, &job.s.warmup, "W", "untimed calls first; default 1"},
        {"--no-sequential", NULL, CLI_FLAG, &job.no_sequential, NULL,
         "leave out the sequential row (with --verify the sequential version still runs, untimed, "
         "as the reference)"},
        {"--verify", NULL, CLI_FLAG, &job.verify, NULL,
         "compare every result with the sequential version's (exit 1 if one fails)"},
        CLI_OPT_TOLERANCE(&job.tolerance),
        CLI_OPTS_OUTPUT(&job.csv, &job.json, &job.quiet, &job.help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    int rc = cli_read_options("pi", argc, argv, opts, nopts, print_help);
    if (rc >= 0) return rc;
    if (strcmp(job.variant, "list") == 0) return cli_list_variants("pi");
    if ((rc = check_options(&job))) return rc;

    job.times = malloc(job.s.repeat * sizeof *job.times);
    if (!job.times) return cli_error(CLI_EXIT_RUNTIME, "pi: out of host memory");
    rc = cli_session_open(&job.s, job.csv, job.json, job.quiet,
                          "variant,m,n,local,kernel_ms,gflops,extra0,extra1,build_ms,max_rel_err,"
                          "status,device",
                          job.device, 0);
    if (!rc) {
        rc = set_launch(&job);
        if (!rc) rc = cli_variants_check(&job.vs, &job.s, "pi");
        if (rc) rc = cli_session_abort(&job.s, rc);
    }
    if (rc) {
        free(job.times);
        return rc;
    }

    snprintf(job.s.title, sizeof job.s.title,
             "pi (midpoint rule, 002) on %s (%d:%d, %s), %zu steps", job.s.dev.name,
             job.s.dev.platform_index, job.s.dev.device_index, job.s.dev.platform, job.steps);
    if (job.verify || !job.no_sequential) run_sequential(&job);
    for (size_t i = 0; i < job.vs.n; ++i) {
        cli_progress("pi: %s", job.vs.name[i]);
        run_variant(&job, i);
    }
    free(job.times);
    return cli_session_close(&job.s);
}
