/* cmd_bandwidth.c: `tessel bandwidth`, the device's own speed limits, which every memory-bound
 * result is read against. One row per size and kind of transfer (the variant column):
 *   d2d           device to device: tsl_copy_buf, gbps = (bytes read + bytes written) / time;
 *   h2d_pageable  host to device from malloc'ed memory (tsl_buffer_write);
 *   h2d_pinned    host to device from pinned memory (tsl_host_alloc: CL_MEM_ALLOC_HOST_PTR, mapped;
 *                 004's section 6.2);
 *   d2h_pageable, d2h_pinned: device to host, into the same two kinds of memory.
 * Host transfers count each byte once (gbps = bytes / time), as bus bandwidth is quoted: it
 * crosses the bus once. Times are profiling events (kernel_ms for the copy, upload_ms or
 * download_ms for transfers), median of --repeat runs after --warmup. m is the byte count. With
 * --verify every row checks that the bytes arrived intact (max_rel_err 0, else verify_failed). */
#include <ctype.h>
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
#include "tessel.h"

#define MAX_RUNS 1000000u

enum { D2D, H2D_PAGEABLE, H2D_PINNED, D2H_PAGEABLE, D2H_PINNED, NKINDS };
static const char *const kind_names[NKINDS] = {"d2d", "h2d_pageable", "h2d_pinned", "d2h_pageable",
                                               "d2h_pinned"};
static const size_t default_sizes[] = {1u << 20,  4u << 20,   16u << 20,
                                       64u << 20, 256u << 20, 1u << 30};

typedef struct {
    const char *device, *variant, *sizes_text, *csv, *json;
    int verify, quiet, help;
    int want[NKINDS];
    size_t sizes[CLI_MAX_LIST], nsizes;
    cli_session s; /* device, report, --repeat and --warmup */
} bw_job;

/* "4096", "64K", "1M", "2G", "1MiB": binary multiples. -1 on anything else or overflow. */
static int parse_bytes(const char *s, size_t *out)
{
    char digits[32];
    size_t n = 0;
    while (isdigit((unsigned char)s[n]) && n < sizeof digits - 1)
        digits[n] = s[n], ++n;
    digits[n] = '\0';
    if (n == 0 || cli_parse_size(digits, out) != 0) return -1;
    const char *suffix = s + n;
    unsigned shift = 0;
    if (*suffix) {
        char u = (char)toupper((unsigned char)*suffix);
        shift = u == 'K' ? 10 : u == 'M' ? 20 : u == 'G' ? 30 : 0;
        if (!shift || (suffix[1] && strcmp(suffix + 1, "iB") != 0 && strcmp(suffix + 1, "B") != 0))
            return -1;
    }
    if (*out == 0 || *out > (SIZE_MAX >> shift)) return -1;
    *out <<= shift;
    return 0;
}

static void set_common(const bw_job *job, size_t bytes, int kind, cli_row *row)
{
    cli_row_start(&job->s, "bandwidth", kind_names[kind], row);
    row->m = (long long)bytes;
}

typedef struct {
    unsigned char *src, *dst; /* pageable host memory */
    unsigned char *pinned;    /* tsl_host_alloc */
    tsl_buffer *a, *b;
    double *times;
} bw_data;

/* One timed transfer or copy of the timed loop; *ms is its event time. */
typedef struct {
    bw_job *job;
    int kind;
    size_t bytes;
    bw_data *d;
} bw_call;

static tsl_status once(void *arg, unsigned run, double *ms)
{
    (void)run;
    const bw_call *a = arg;
    const bw_job *job = a->job;
    int kind = a->kind;
    size_t bytes = a->bytes;
    const bw_data *d = a->d;
    tsl_status st;
    switch (kind) {
    case D2D:
        st = tsl_copy_buf(job->s.ctx, d->a, d->b, bytes);
        break;
    case H2D_PAGEABLE:
        st = tsl_buffer_write(job->s.ctx, d->a, 0, bytes, d->src);
        break;
    case H2D_PINNED:
        st = tsl_buffer_write(job->s.ctx, d->a, 0, bytes, d->pinned);
        break;
    case D2H_PAGEABLE:
        st = tsl_buffer_read(job->s.ctx, d->a, 0, bytes, d->dst);
        break;
    default:
        st = tsl_buffer_read(job->s.ctx, d->a, 0, bytes, d->pinned);
        break;
    }
    tsl_timing t;
    if (st == TSL_OK) st = tsl_context_timing(job->s.ctx, &t);
    if (st == TSL_OK)
        *ms = kind == D2D ? t.kernel_ms : kind <= H2D_PINNED ? t.upload_ms : t.download_ms;
    return st;
}

static void run_kind(bw_job *job, int kind, size_t bytes, bw_data *d)
{
    cli_row row;
    set_common(job, bytes, kind, &row);
    tsl_status st = TSL_OK;
    /* What each kind starts from: the source bytes where the transfer reads them. */
    if (kind == H2D_PINNED) memcpy(d->pinned, d->src, bytes);
    if (kind == D2D || kind >= D2H_PAGEABLE)
        st = tsl_buffer_write(job->s.ctx, d->a, 0, bytes, d->src);
    bw_call a = {job, kind, bytes, d};
    if (st == TSL_OK) st = cli_time_runs(&job->s, once, &a, d->times, NULL, 0.0, NULL);
    if (st == TSL_OK && job->verify) {
        const unsigned char *got = d->dst;
        if (kind == D2D)
            st = tsl_buffer_read(job->s.ctx, d->b, 0, bytes, d->dst);
        else if (kind <= H2D_PINNED)
            st = tsl_buffer_read(job->s.ctx, d->a, 0, bytes, d->dst);
        else if (kind == D2H_PINNED)
            got = d->pinned;
        if (st == TSL_OK) row.max_rel_err = memcmp(got, d->src, bytes) == 0 ? 0.0 : 1.0;
    }
    if (st != TSL_OK) {
        cli_error(CLI_EXIT_RUNTIME, "bandwidth %s at %zu bytes: %s (%s)", kind_names[kind], bytes,
                  tsl_context_error(job->s.ctx), tsl_status_name(st));
        job->s.any_error = 1;
        cli_report_row(job->s.rep, &row);
        return;
    }
    double ms = cli_median(d->times, job->s.repeat);
    double moved = kind == D2D ? 2.0 * (double)bytes : (double)bytes;
    if (kind == D2D)
        row.kernel_ms = ms;
    else if (kind <= H2D_PINNED)
        row.upload_ms = ms;
    else
        row.download_ms = ms;
    if (ms > 0) row.gbps = moved / (ms * 1e6);
    row.status = "ok";
    if (row.max_rel_err > 0) {
        row.status = "verify_failed";
        job->s.any_failed = 1;
    }
    cli_report_row(job->s.rep, &row);
}

static void run_size(bw_job *job, size_t bytes, size_t index)
{
    bw_data d;
    memset(&d, 0, sizeof d);
    int pinned = job->want[H2D_PINNED] || job->want[D2H_PINNED];
    char msg[1200] = "";
    tsl_status st = TSL_OK;
    d.src = malloc(bytes);
    d.dst = malloc(bytes);
    d.times = malloc(job->s.repeat * sizeof *d.times);
    if (!d.src || !d.dst || !d.times) snprintf(msg, sizeof msg, "out of host memory");
    if (!msg[0] &&
        ((st = tsl_buffer_create(job->s.ctx, bytes, &d.a)) != TSL_OK ||
         (job->want[D2D] && (st = tsl_buffer_create(job->s.ctx, bytes, &d.b)) != TSL_OK) ||
         (pinned && (st = tsl_host_alloc(job->s.ctx, bytes, (void **)&d.pinned)) != TSL_OK)))
        snprintf(msg, sizeof msg, "%s (%s)", tsl_context_error(job->s.ctx), tsl_status_name(st));
    if (msg[0]) {
        cli_error(CLI_EXIT_RUNTIME, "bandwidth at %zu bytes: %s", bytes, msg);
        job->s.any_error = 1;
        for (int k = 0; k < NKINDS; ++k) {
            if (!job->want[k]) continue;
            cli_row row;
            set_common(job, bytes, k, &row);
            cli_report_row(job->s.rep, &row);
        }
    } else {
        unsigned long long state = 42 + 0x9E3779B97F4A7C15ull * (index + 1);
        cli_fill_random(0, d.src, bytes / sizeof(float), &state);
        memset(d.src + bytes / sizeof(float) * sizeof(float), 0x5A, bytes % sizeof(float));
        memset(d.dst, 0, bytes); /* touched once, so page faults are not timed */
        for (int k = 0; k < NKINDS; ++k) {
            if (!job->want[k]) continue;
            cli_progress("bandwidth %zu bytes: %s", bytes, kind_names[k]);
            run_kind(job, k, bytes, &d);
        }
    }
    tsl_host_free(job->s.ctx, d.pinned);
    tsl_buffer_destroy(d.a);
    tsl_buffer_destroy(d.b);
    free(d.src);
    free(d.dst);
    free(d.times);
}

/* What one size needs of the device and of this machine. */
static const char *too_big(const bw_job *job, size_t bytes)
{
    int pinned = job->want[H2D_PINNED] || job->want[D2H_PINNED];
    if (bytes > job->s.dev.max_alloc) return "the device's largest buffer (max_alloc)";
    long double dev = (long double)bytes * (job->want[D2D] ? 2 : 1);
    if (dev > (long double)job->s.dev.global_mem / 2) return "half the device's global memory";
    long double host = (long double)bytes * (2 + pinned), phys = cli_host_memory();
    if (phys > 0 && host > phys / 2) return "half this machine's memory";
    return NULL;
}

static void print_help(const cli_option *opts, size_t nopts)
{
    printf("Usage: tessel bandwidth [options]\n\n"
           "Measures the speeds every memory-bound result is read against, one row per size and\n"
           "kind (variant column):\n"
           "  d2d           device to device copy (tsl_copy_buf); gbps = (read + written) / time\n"
           "  h2d_pageable  host to device from malloc'ed memory; gbps = bytes / time\n"
           "  h2d_pinned    host to device from pinned memory (tsl_host_alloc)\n"
           "  d2h_pageable  device to host into malloc'ed memory\n"
           "  d2h_pinned    device to host into pinned memory\n"
           "Times are profiling events, median of --repeat runs after --warmup; m is the byte\n"
           "count. The default sweep is 1M,4M,16M,64M,256M,1G, without the sizes above the\n"
           "device's largest buffer, half its global memory or half this machine's memory.\n\n"
           "Options:\n");
    cli_help_options(opts, nopts, NULL);
    printf("\nOutput: an aligned table on stdout; --csv/--json write the columns\n  %s\n"
           "to a file or to stdout with '-'.\n\n"
           "Exit codes: 0 success, 1 a --verify check failed, 2 usage error (unknown option, bad\n"
           "size, unknown variant, a size too large), 3 runtime error (no device, allocation\n"
           "failure).\n\n"
           "Examples:\n"
           "  tessel bandwidth\n"
           "  tessel bandwidth --sizes 64M,1G --variant d2d --csv -\n"
           "  tessel bandwidth --sizes 4096,1M --variant h2d_pinned --verify\n",
           cli_csv_header);
}

int cli_cmd_bandwidth(int argc, char **argv)
{
    bw_job job;
    memset(&job, 0, sizeof job);
    job.variant = "all";
    job.s.repeat = 10;
    job.s.warmup = 2;
    const cli_option opts[] = {
        CLI_OPT_DEVICE(&job.device),
        {"--variant", NULL, CLI_STRING, &job.variant, "NAME",
         "d2d, h2d_pageable, h2d_pinned, d2h_pageable, d2h_pinned, 'all' (default) or 'list'"},
        {"--sizes", NULL, CLI_STRING, &job.sizes_text, "A,B,...",
         "byte counts, with an optional K, M or G suffix (binary: 1K = 1024); default 1M..1G"},
        CLI_OPTS_RUNS(&job.s.repeat, &job.s.warmup),
        {"--verify", NULL, CLI_FLAG, &job.verify, NULL,
         "check that every transfer delivered the bytes intact (exit 1 if not)"},
        CLI_OPTS_OUTPUT(&job.csv, &job.json, &job.quiet, &job.help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    int rc = cli_read_options("bandwidth", argc, argv, opts, nopts, print_help);
    if (rc >= 0) return rc;
    if (strcmp(job.variant, "list") == 0) {
        for (int k = 0; k < NKINDS; ++k)
            printf("%s\n", kind_names[k]);
        return CLI_EXIT_OK;
    }
    int found = strcmp(job.variant, "all") == 0;
    for (int k = 0; k < NKINDS; ++k) {
        job.want[k] = found || strcmp(job.variant, kind_names[k]) == 0;
        found |= job.want[k];
    }
    if (!found)
        return cli_error(CLI_EXIT_USAGE,
                         "bandwidth: unknown variant '%s' (variants: d2d, h2d_pageable, "
                         "h2d_pinned, d2h_pageable, d2h_pinned; or all, list)",
                         job.variant);
    if ((rc = cli_check_runs("bandwidth", job.s.repeat, job.s.warmup, MAX_RUNS))) return rc;
    if (job.sizes_text) {
        cli_name_list list;
        if (cli_split_names(job.sizes_text, &list) != 0)
            return cli_error(CLI_EXIT_USAGE,
                             "bandwidth: --sizes expects a comma list of byte counts, got '%s'",
                             job.sizes_text);
        for (size_t i = 0; i < list.n; ++i)
            if (parse_bytes(list.v[i], &job.sizes[job.nsizes++]) != 0)
                return cli_error(CLI_EXIT_USAGE,
                                 "bandwidth: --sizes: '%s' is not a byte count >= 1 (digits with "
                                 "an optional K, M or G suffix)",
                                 list.v[i]);
    }
    rc = cli_session_open(&job.s, job.csv, job.json, job.quiet,
                          "variant,m,kernel_ms,upload_ms,download_ms,gbps,status,device",
                          job.device, 0);
    if (rc) return rc;
    for (size_t i = 0; !rc && i < job.nsizes; ++i) {
        const char *why = too_big(&job, job.sizes[i]);
        if (why)
            rc = cli_error(CLI_EXIT_USAGE,
                           "bandwidth: %zu bytes is more than %s allows on %s (max_alloc %llu, "
                           "global memory %llu bytes); use a smaller size",
                           job.sizes[i], why, job.s.dev.name, job.s.dev.max_alloc,
                           job.s.dev.global_mem);
    }
    if (!rc && job.nsizes == 0)
        for (size_t i = 0; i < sizeof default_sizes / sizeof default_sizes[0]; ++i)
            if (!too_big(&job, default_sizes[i])) job.sizes[job.nsizes++] = default_sizes[i];
    if (!rc && job.nsizes == 0)
        rc = cli_error(CLI_EXIT_USAGE, "bandwidth: no default size fits %s; give --sizes",
                       job.s.dev.name);
    if (rc) return cli_session_abort(&job.s, rc);
    snprintf(job.s.title, sizeof job.s.title, "bandwidth on %s (%d:%d, %s)", job.s.dev.name,
             job.s.dev.platform_index, job.s.dev.device_index, job.s.dev.platform);
    for (size_t i = 0; i < job.nsizes; ++i)
        run_size(&job, job.sizes[i], i);
    return cli_session_close(&job.s);
}
