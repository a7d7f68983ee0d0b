/* cmd_kmeans.c: `tessel kmeans`, 002's K-means workload: the assignment step, each of --points
 * random points to the nearest of --clusters random centroids in --dim dimensions. It runs the
 * host's sequential C version once (the `sequential` row, the speedup baseline and the --verify
 * reference), then each variant of tsl_kmeans_assign (`warmup` + `repeat` calls on the same data,
 * median kernel time), and reports one row each: kernel time, GFLOP/s at 3 flops per point,
 * cluster and dimension (a subtraction, a multiply, an add), and the speedup over the sequential
 * row.
 *
 * --verify checks each assignment against the sequential version's with
 * tsl_ref_kmeans_excess (src/ref/workloads.h): a point may get another centroid than the host's
 * only where float rounding can flip a near tie, i.e. when its distance (in double) is within
 * tsl_ref_kmeans_tolerance(dim) of the host choice's. max_rel_err is the largest such excess and
 * `differ` counts the points whose index differs. */
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
#include "output.h"
#include "peers.h"
#include "ref/ref.h"
#include "ref/workloads.h"
#include "tessel.h"

#define MAX_RUNS 100000u
#define FLOPS_PER_TERM 3.0

typedef struct {
    /* options */
    const char *device, *variant, *csv, *json;
    size_t points, clusters, dim, seed;
    double tolerance;
    int verify, quiet, help, no_sequential;
    /* data */
    float *p, *c;       /* points (n x dim) and centroids (k x dim) */
    int *assign, *host; /* a variant's assignment; the sequential version's (or NULL) */
    double seq_ms;      /* the sequential version's time, NaN when not run */
    double *times;
    cli_variants vs;
    cli_session s; /* device, report, --repeat and --warmup */
} kmeans_job;

static double verify_tolerance(const kmeans_job *job)
{
    return isnan(job->tolerance) ? tsl_ref_kmeans_tolerance(job->dim) : job->tolerance;
}

static void set_common(const kmeans_job *job, const char *variant, cli_row *row)
{
    cli_row_start(&job->s, "kmeans", variant, row);
    row->precision = "single";
    row->m = (long long)job->points;
    row->n = (long long)job->clusters;
    row->k = (long long)job->dim;
    row->extra_name[0] = "speedup";
    row->extra_name[1] = "differ";
}

static void set_speed(const kmeans_job *job, double ms, cli_row *row)
{
    row->kernel_ms = ms;
    if (ms > 0) {
        row->gflops = FLOPS_PER_TERM * (double)job->points * (double)job->clusters *
                      (double)job->dim / (ms * 1e6);
        if (job->seq_ms > 0) row->extra[0] = job->seq_ms / ms;
    }
}

static void run_sequential(kmeans_job *job)
{
    cli_progress("kmeans: sequential (%zu x %zu x %zu on the host)", job->points, job->clusters,
                 job->dim);
    double t0 = tsl__peer_now_ms();
    tsl_ref_kmeans_assign(job->points, job->clusters, job->dim, job->p, job->c, job->host);
    job->seq_ms = tsl__peer_now_ms() - t0;
    if (job->no_sequential) {
        job->seq_ms = NAN; /* computed only as the --verify reference */
        return;
    }
    cli_row row;
    set_common(job, "sequential", &row);
    row.device = "host";
    row.repeat = 1;
    set_speed(job, job->seq_ms, &row);
    row.status = "ok";
    cli_report_row(job->s.rep, &row);
}

static tsl_status call_kmeans(void *arg, unsigned run, double *ms)
{
    (void)run, (void)ms;
    kmeans_job *job = arg;
    return tsl_kmeans_assign(job->s.ctx, job->points, job->clusters, job->dim, job->p, job->c,
                             job->assign);
}

static void run_variant(kmeans_job *job, size_t vi)
{
    const char *v = job->vs.name[vi];
    cli_row row;
    set_common(job, v, &row);
    if (!cli_variant_row(&job->s, &job->vs, vi, &row)) return;
    tsl_status st = tsl_context_set_variant(job->s.ctx, "kmeans", v);
    tsl_timing t = {0, 0, 0, 0};
    memset(job->assign, 0xFF, job->points * sizeof *job->assign); /* -1: never a valid answer */
    if (st == TSL_OK)
        st = cli_time_runs(&job->s, call_kmeans, job, job->times, &row, job->vs.check_build_ms[vi],
                           &t);
    if (cli_variant_skip(&job->s, &job->vs, st, v, &row)) return;
    if (st != TSL_OK) {
        char msg[1200];
        cli_status_text(&job->s, st, msg, sizeof msg);
        cli_error(CLI_EXIT_RUNTIME, "kmeans %s: %s", v, msg);
        job->s.any_error = 1;
        cli_report_row(job->s.rep, &row);
        return;
    }
    set_speed(job, cli_median(job->times, job->s.repeat), &row);
    row.upload_ms = t.upload_ms;
    row.download_ms = t.download_ms;
    row.status = "ok";
    if (job->verify) {
        size_t differ = 0;
        row.max_rel_err = tsl_ref_kmeans_excess(job->points, job->clusters, job->dim, job->p,
                                                job->c, job->assign, job->host, &differ);
        row.extra[1] = (double)differ;
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
    printf("Usage: tessel kmeans [options]\n\n"
           "002's K-means workload, the assignment step: each of --points random points (uniform\n"
           "in [-1, 1)^dim) goes to the nearest of --clusters random centroids (squared Euclidean\n"
           "distance, the lowest index on ties), in single precision on the device. One row per\n"
           "variant (median device time over --repeat calls, after --warmup) and one `sequential`\n"
           "row: the host's sequential C version, run once, timed by the host clock, device\n"
           "\"host\". GFLOP/s counts 3 flops per point, cluster and dimension (3 n k dim per\n"
           "call); speedup = sequential time / row time. --verify compares every assignment with\n"
           "the sequential one: a point may differ only where float rounding can flip a near tie,\n"
           "its centroid's distance (recomputed in double) within 2 (dim + 3) 2^-24 of the host\n"
           "choice's; max_rel_err is the largest excess and differ counts the points that differ.\n"
           "The sequential version is slow at 002's size (minutes): --no-sequential skips it.\n\n"
           "Options:\n");
    cli_help_options(opts, nopts, "kmeans");
    printf("  original: 002's kernel, one work-item per point against every cluster in turn;\n"
           "  unrolled: the cluster loop unrolled eight times and jammed into the dimension loop\n"
           "  (1 x 8 rectangular tile, scalar accumulators); optimized: that tile with float8\n"
           "  (002's final kernel).\n"
           "\nOutput: an aligned table on stdout; --csv/--json write the columns\n  %s\n"
           "(m = points, n = clusters, k = dim, gbps empty) to a file or to stdout with '-'. JSON\n"
           "rows also carry speedup and differ; a study derives the speedups from the sequential\n"
           "row's kernel_ms.\n\n"
           "Exit codes: 0 success, 1 a --verify check failed, 2 usage error, 3 runtime error.\n\n"
           "Examples:\n"
           "  tessel kmeans --variant all --points 65536 --clusters 256 --verify\n"
           "  tessel kmeans --variant all --no-sequential               # 002's 1048576 x 4096\n"
           "  tessel kmeans --variant optimized --dim 13 --clusters 100 --csv -\n",
           cli_csv_header);
}

static int check_options(kmeans_job *job)
{
    int rc;
    if ((rc = cli_check_runs("kmeans", job->s.repeat, job->s.warmup, MAX_RUNS))) return rc;
    if (!isnan(job->tolerance) && job->tolerance < 0)
        return cli_error(CLI_EXIT_USAGE, "kmeans: --tolerance must not be negative");
    if (job->clusters > (size_t)INT_MAX - 8)
        return cli_error(CLI_EXIT_USAGE, "kmeans: --clusters goes up to %d", INT_MAX - 8);
    if (job->dim > (size_t)INT_MAX)
        return cli_error(CLI_EXIT_USAGE, "kmeans: --dim goes up to %d", INT_MAX);
    if (job->points > SIZE_MAX / sizeof(float) / job->dim ||
        job->clusters > SIZE_MAX / sizeof(float) / job->dim)
        return cli_error(CLI_EXIT_USAGE,
                         "kmeans: %zu points or %zu clusters of %zu dimensions overflow a byte "
                         "count; use smaller sizes",
                         job->points, job->clusters, job->dim);
    return cli_variants_select(&job->vs, "kmeans", job->variant, "kmeans", 0);
}

/* The device arrays (points, centroids twice, assignments) within the device's buffers and
 * memory, and the host's (points, centroids, two assignments). */
static int check_memory(const kmeans_job *job)
{
    const tsl_device_info *dev = &job->s.dev;
    unsigned long long pbytes = (unsigned long long)job->points * job->dim * sizeof(float);
    unsigned long long cbytes = (unsigned long long)(job->clusters + 7) * job->dim * sizeof(float);
    unsigned long long abytes = (unsigned long long)job->points * sizeof(int);
    if (pbytes > dev->max_alloc || cbytes > dev->max_alloc)
        return cli_error(CLI_EXIT_USAGE,
                         "kmeans: the %s need %llu bytes, more than the largest buffer %s allows "
                         "(max_alloc %llu bytes); use fewer --points, --clusters or --dim",
                         pbytes > dev->max_alloc ? "points" : "centroids",
                         pbytes > dev->max_alloc ? pbytes : cbytes, dev->name, dev->max_alloc);
    long double device = (long double)pbytes + 2.0L * cbytes + abytes;
    if (device > (long double)dev->global_mem)
        return cli_error(CLI_EXIT_USAGE,
                         "kmeans: the data need %.0Lf bytes of device memory, more than the global "
                         "memory of %s (%llu bytes); use smaller sizes",
                         device, dev->name, dev->global_mem);
    long double host = (long double)pbytes + cbytes + 2.0L * abytes;
    long double phys = cli_host_memory();
    if (phys > 0 && host > phys)
        return cli_error(CLI_EXIT_USAGE,
                         "kmeans: the data need %.0Lf bytes of host memory, more than this machine "
                         "has (%.0Lf bytes); use smaller sizes",
                         host, phys);
    return 0;
}

static int make_data(kmeans_job *job)
{
    size_t n = job->points, k = job->clusters, dim = job->dim;
    job->p = malloc(n * dim * sizeof *job->p);
    job->c = malloc(k * dim * sizeof *job->c);
    job->assign = malloc(n * sizeof *job->assign);
    if (job->verify || !job->no_sequential) job->host = malloc(n * sizeof *job->host);
    job->times = malloc(job->s.repeat * sizeof *job->times);
    if (!job->p || !job->c || !job->assign || !job->times ||
        ((job->verify || !job->no_sequential) && !job->host))
        return cli_error(CLI_EXIT_RUNTIME, "kmeans: out of host memory for the data");
    unsigned long long state = job->seed;
    tsl_ref_fill_f(job->p, n * dim, &state);
    tsl_ref_fill_f(job->c, k * dim, &state);
    return 0;
}

static void free_data(kmeans_job *job)
{
    free(job->p);
    free(job->c);
    free(job->assign);
    free(job->host);
    free(job->times);
}

int cli_cmd_kmeans(int argc, char **argv)
{
    kmeans_job job;
    memset(&job, 0, sizeof job);
    job.variant = "auto";
    job.points = 1048576;
    job.clusters = 4096;
    job.dim = 4;
    job.seed = 42;
    job.s.repeat = 3;
    job.s.warmup = 1;
    job.tolerance = NAN;
    job.seq_ms = NAN;

    const cli_option opts[] = {
        CLI_OPT_DEVICE(&job.device),
        CLI_OPT_VARIANT(&job.variant),
        {"--points", "--size", CLI_COUNT, &job.points, "N", "points; default 1048576 (002's)"},
        {"--clusters", NULL, CLI_COUNT, &job.clusters, "K", "centroids; default 4096 (002's)"},
        {"--dim", NULL, CLI_COUNT, &job.dim, "D",
         "dimensions of a point; default 4 (002 does not say)"},
        CLI_OPT_SEED(&job.seed),
        {"--repeat", NULL, CLI_COUNT, &job.s.repeat, "R",
         "timed calls, median reported; default 3"},
        {"--warmup", NULL, CLI_UINT, &job.s.warmup, "W", "untimed calls first; default 1"},
        {"--no-sequential", NULL, CLI_FLAG, &job.no_sequential, NULL,
         "leave out the sequential row (with --verify the sequential version still runs, untimed, "
         "as the reference)"},
        {"--verify", NULL, CLI_FLAG, &job.verify, NULL,
         "compare every assignment with the sequential version's (exit 1 if one fails)"},
        CLI_OPT_TOLERANCE(&job.tolerance),
        CLI_OPTS_OUTPUT(&job.csv, &job.json, &job.quiet, &job.help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    int rc = cli_read_options("kmeans", argc, argv, opts, nopts, print_help);
    if (rc >= 0) return rc;
    if (strcmp(job.variant, "list") == 0) return cli_list_variants("kmeans");
    if ((rc = check_options(&job))) return rc;

    rc = cli_session_open(&job.s, job.csv, job.json, job.quiet,
                          "variant,m,n,k,kernel_ms,gflops,extra0,extra1,build_ms,max_rel_err,"
                          "status,device",
                          job.device, 0);
    if (rc) return rc;
    rc = check_memory(&job);
    if (!rc) rc = cli_variants_check(&job.vs, &job.s, "kmeans");
    if (!rc) rc = make_data(&job);
    if (rc) {
        free_data(&job);
        return cli_session_abort(&job.s, rc);
    }

    snprintf(job.s.title, sizeof job.s.title,
             "kmeans assignment (002) on %s (%d:%d, %s), %zu points, %zu clusters, dim %zu",
             job.s.dev.name, job.s.dev.platform_index, job.s.dev.device_index, job.s.dev.platform,
             job.points, job.clusters, job.dim);
    if (job.host) run_sequential(&job);
    for (size_t i = 0; i < job.vs.n; ++i) {
        cli_progress("kmeans: %s", job.vs.name[i]);
        run_variant(&job, i);
    }
    free_data(&job);
    return cli_session_close(&job.s);
}
