/* group.c: several devices of one host driven as one (tsl_group_*, docs/multi-device.md). The
 * group owns one context per device and, during a call, one host thread per device that takes
 * part, so each device's uploads, kernels and downloads run while the others' do. GEMM gives each
 * device a block of rows of C and op(A) and all of B, and runs tsl_[sd]gemm_buf on it in row
 * chunks, pipelined: a second thread per device feeds a transfer queue of its own (non-blocking
 * uploads from pinned staging, on GPUs) while the kernel queue computes the previous chunk, and
 * finished chunks download during the next ones (gemm_pipe below). Poisson gives each device a
 * row strip with halo rows (ops/poisson.c's strip solver) and exchanges the halo rows through
 * pinned host staging after every launch. Rows are split by weights: measured (a short
 * calibration run per device), compute units x clock (004), or given.
 *
 * Synchronisation is one mutex and condition variable per call: barriers between the devices
 * (the end of every device's part before any result is copied to the caller, every halo
 * exchange, every residual check) and the caller's wait for the workers. Every wait ends after
 * the group's timeout; a device that fails or does not answer aborts the call, the others stop
 * at their next wait, and the call returns one message naming that device. A worker that does
 * not come back at all (a driver hung in a call) is left running: its context and the call's
 * state are then never freed, and the group refuses further calls. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ops/group.h"
#include "ops/ops.h"

#define GROUP_MAX 16
#define MAX_CALIBRATIONS 8
#define GEMM_CHUNKS 4                    /* row chunks of a device's GEMM block, at most */
#define GEMM_CHUNK_ROWS 256              /* rows of a chunk, at least ($TESSEL_GROUP_CHUNK_ROWS) */
#define GEMM_SLOTS (1 + 2 * GEMM_CHUNKS) /* device buffers: B, then each chunk's A, then its C */

/* What a device keeps for GEMM between calls, grown when a call needs more: its device buffers,
 * host staging for its blocks of A, B and C (pinned: tsl_host_alloc; plain memory if the driver
 * refuses), and two transfer queues beside its context's kernel queue. */
typedef struct {
    tsl_buffer *buf[GEMM_SLOTS];
    void *stage[3]; /* A, B, C */
    size_t stage_bytes[3];
    int stage_pinned[3];
    tsl__stream *up, *down;
} gemm_state;

struct tsl_group {
    size_t count;
    tsl_context *ctx[GROUP_MAX];
    tsl_device_info info[GROUP_MAX];
    int stuck[GROUP_MAX]; /* its worker never came back: leave the context alone */
    tsl_weights how;
    double given[GROUP_MAX];
    struct {
        char op[16];
        int dbl;
        double w[GROUP_MAX];
        char note[1024]; /* why these are compute-unit weights, "" when measured */
    } calibrated[MAX_CALIBRATIONS];
    int ncalibrated;
    double timeout_s;
    int broken;
    char error[2048];
    char warning[1200]; /* tsl_group_warning */
    tsl_group_times times;
    tsl_group_part parts[GROUP_MAX];
    gemm_state gemm[GROUP_MAX];
};

/* ---- small helpers ----------------------------------------------------------------------- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static tsl_status group_fail(tsl_group *g, tsl_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static tsl_status group_fail(tsl_group *g, tsl_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->error, sizeof g->error, fmt, ap);
    va_end(ap);
    tsl__fail(NULL, s, "%s", g->error); /* tsl_last_error too */
    return s;
}

/* "device 1 (0:1 NAME)", how every message names a device. */
static void device_label(const tsl_group *g, size_t i, char *out, size_t cap)
{
    snprintf(out, cap, "device %zu (%d:%d %s)", i, g->info[i].platform_index,
             g->info[i].device_index, g->info[i].name);
}

double tsl__default_timeout(void)
{
    const char *env = getenv("TESSEL_TIMEOUT");
    if (env && *env) {
        char *end;
        double v = strtod(env, &end);
        if (*end == '\0' && v > 0 && isfinite(v)) return v;
    }
    return TSL__DEFAULT_TIMEOUT_S;
}

int tsl__fault_target(const char *var, int *mode)
{
    *mode = 0;
    const char *env = getenv(var);
    if (!env || *env < '0' || *env > '9') return -1;
    char *end;
    long i = strtol(env, &end, 10);
    if (i < 0 || i > 1000000) return -1;
    if (strcmp(end, ":hang") == 0)
        *mode = 1;
    else if (strcmp(end, ":exit") == 0)
        *mode = 2;
    else if (strcmp(end, ":calibrate") == 0)
        *mode = 3;
    else if (strcmp(end, ":calibrate-hang") == 0)
        *mode = 4;
    else if (strcmp(end, ":late") == 0)
        *mode = 5;
    else if (strcmp(end, ":kill") == 0)
        *mode = 6;
    else if (*end)
        return -1;
    return (int)i;
}

double tsl__compute_unit_weight(const tsl_device_info *info)
{
    double cu = info->compute_units ? (double)info->compute_units : 1.0;
    return info->clock_mhz ? cu * (double)info->clock_mhz : cu;
}

tsl__block tsl__row_block(tsl_layout layout, tsl_trans trans, size_t r0, size_t rows, size_t cols,
                          size_t ld)
{
    tsl__block b;
    if ((layout == TSL_ROW_MAJOR) == (trans == TSL_NO_TRANS)) {
        b.offset = r0 * ld, b.srows = rows, b.slen = cols; /* op(X)'s rows are runs */
    } else {
        b.offset = r0, b.srows = cols, b.slen = rows; /* its columns are */
    }
    return b;
}

/* Rounding the cumulative shares (not each share) makes the counts add up to total exactly,
 * keeps each within one row of its exact share, and gives a weight of 0 no rows. */
void tsl__split_rows(size_t total, const double *w, size_t count, size_t *rows)
{
    long double sum = 0, cum = 0;
    for (size_t i = 0; i < count; ++i)
        sum += w[i];
    size_t start = 0;
    for (size_t i = 0; i < count; ++i) {
        cum += w[i];
        size_t end =
            i + 1 == count ? total : (size_t)floorl((long double)total * (cum / sum) + 0.5L);
        if (w[i] <= 0) end = start;
        if (end > total) end = total;
        if (end < start) end = start;
        rows[i] = end - start;
        start = end;
    }
    if (start < total) /* a last device of weight 0: the rest to the last one with weight */
        for (size_t i = count; i-- > 0;)
            if (w[i] > 0) {
                rows[i] += total - start;
                break;
            }
}

/* ---- create and destroy -------------------------------------------------------------------- */

static void stage_release(tsl_group *g, size_t i, int which)
{
    gemm_state *gs = &g->gemm[i];
    if (!gs->stage[which]) return;
    if (gs->stage_pinned[which])
        tsl_host_free(g->ctx[i], gs->stage[which]);
    else
        tsl__free(gs->stage[which]);
    gs->stage[which] = NULL;
    gs->stage_bytes[which] = 0;
}

tsl_status tsl_group_create(const char *devices, tsl_group **out)
{
    if (!out) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_create: out is NULL");
    *out = NULL;
    tsl_group *g = tsl__calloc(1, sizeof *g);
    if (!g) return tsl__fail(NULL, TSL_ERR_OUT_OF_MEMORY, "tsl_group_create: out of host memory");
    g->timeout_s = tsl__default_timeout();
    g->how = TSL_WEIGHTS_CALIBRATE;
    char specs[GROUP_MAX][128];
    size_t nspecs = 0;
    tsl_status s = TSL_OK;
    if (!devices || !*devices || strcmp(devices, "all") == 0) {
        tsl_device_info list[GROUP_MAX];
        size_t found = 0;
        if ((s = tsl_devices(list, GROUP_MAX, &found)) != TSL_OK) goto fail;
        if (found == 0) {
            s = tsl__fail(NULL, TSL_ERR_NO_DEVICE,
                          "tsl_group_create: no OpenCL device found: install an OpenCL driver "
                          "(pocl-opencl-icd for the CPU)");
            goto fail;
        }
        if (found > GROUP_MAX) found = GROUP_MAX;
        for (size_t i = 0; i < found; ++i)
            snprintf(specs[nspecs++], sizeof specs[0], "%d:%d", list[i].platform_index,
                     list[i].device_index);
    } else if (strncmp(devices, "all:", 4) == 0) { /* every device one spec matches */
        tsl_device_info list[GROUP_MAX];
        int found = devices[4] ? tsl__matching_devices(devices + 4, list, GROUP_MAX) : 0;
        if (found == 0) {
            s = tsl__fail(NULL, TSL_ERR_NO_DEVICE,
                          "tsl_group_create: no device matches '%s' (devices: see `tessel "
                          "devices`)",
                          devices + 4);
            goto fail;
        }
        if (found > GROUP_MAX) found = GROUP_MAX;
        for (int i = 0; i < found; ++i)
            snprintf(specs[nspecs++], sizeof specs[0], "%d:%d", list[i].platform_index,
                     list[i].device_index);
    } else {
        const char *p = devices;
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            while (len && (*p == ' '))
                ++p, --len;
            while (len && p[len - 1] == ' ')
                --len;
            if (len == 0 || len >= sizeof specs[0]) {
                s = tsl__fail(NULL, TSL_ERR_INVALID_ARG,
                              "tsl_group_create: device list '%s' has an %s entry (give \"all\" or "
                              "specs like 0:0,0:1)",
                              devices, len ? "overlong" : "empty");
                goto fail;
            }
            if (nspecs == GROUP_MAX) {
                s = tsl__fail(NULL, TSL_ERR_INVALID_ARG,
                              "tsl_group_create: device list '%s' names more than %d devices",
                              devices, GROUP_MAX);
                goto fail;
            }
            memcpy(specs[nspecs], p, len);
            specs[nspecs++][len] = '\0';
            if (!comma) break;
            p = comma + 1;
        }
    }
    for (size_t i = 0; i < nspecs; ++i) {
        if ((s = tsl_context_create(specs[i], &g->ctx[i])) != TSL_OK) goto fail;
        g->count = i + 1;
        tsl_context_device(g->ctx[i], &g->info[i]);
        for (size_t j = 0; j < i; ++j)
            if (g->info[j].platform_index == g->info[i].platform_index &&
                g->info[j].device_index == g->info[i].device_index) {
                s = tsl__fail(NULL, TSL_ERR_INVALID_ARG,
                              "tsl_group_create: device %d:%d (%s) is in the list twice ('%s' and "
                              "'%s'); name each device once",
                              g->info[i].platform_index, g->info[i].device_index, g->info[i].name,
                              specs[j], specs[i]);
                goto fail;
            }
    }
    *out = g;
    return TSL_OK;
fail:
    tsl_group_destroy(g);
    return s;
}

void tsl_group_destroy(tsl_group *g)
{
    if (!g) return;
    for (size_t i = 0; i < g->count; ++i) {
        if (g->stuck[i]) continue; /* its thread may still use them */
        gemm_state *gs = &g->gemm[i];
        tsl__stream_destroy(gs->up); /* waits for the queues before their memory goes */
        tsl__stream_destroy(gs->down);
        for (int b = 0; b < GEMM_SLOTS; ++b)
            tsl_buffer_destroy(gs->buf[b]);
        for (int t = 0; t < 3; ++t)
            stage_release(g, i, t);
        tsl_context_destroy(g->ctx[i]);
    }
    tsl__free(g);
}

const char *tsl_group_error(const tsl_group *g)
{
    return g ? g->error : "group is NULL";
}

const char *tsl_group_warning(const tsl_group *g)
{
    return g ? g->warning : "";
}

size_t tsl_group_size(const tsl_group *g)
{
    return g ? g->count : 0;
}

tsl_context *tsl_group_context(tsl_group *g, size_t i)
{
    return g && i < g->count && !g->stuck[i] ? g->ctx[i] : NULL;
}

tsl_status tsl_group_set_timeout(tsl_group *g, double seconds)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_set_timeout: g is NULL");
    if (!(seconds > 0) || seconds > 1e7)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "tsl_group_set_timeout: seconds = %g must be > 0 and at most 1e7",
                          seconds);
    g->timeout_s = seconds;
    g->error[0] = '\0';
    return TSL_OK;
}

tsl_status tsl_group_set_weights(tsl_group *g, tsl_weights how, const double *weights, size_t count)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_set_weights: g is NULL");
    g->error[0] = '\0';
    if (how != TSL_WEIGHTS_CALIBRATE && how != TSL_WEIGHTS_COMPUTE_UNITS &&
        how != TSL_WEIGHTS_GIVEN)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "tsl_group_set_weights: how = %d is not a tsl_weights value", (int)how);
    if (how == TSL_WEIGHTS_GIVEN) {
        if (!weights)
            return group_fail(g, TSL_ERR_INVALID_ARG, "tsl_group_set_weights: weights is NULL");
        if (count != g->count)
            return group_fail(g, TSL_ERR_INVALID_ARG,
                              "tsl_group_set_weights: %zu weights for a group of %zu devices",
                              count, g->count);
        double sum = 0;
        for (size_t i = 0; i < count; ++i) {
            if (!isfinite(weights[i]) || weights[i] < 0)
                return group_fail(g, TSL_ERR_INVALID_ARG,
                                  "tsl_group_set_weights: weights[%zu] = %g must be a number >= 0",
                                  i, weights[i]);
            sum += weights[i];
        }
        if (!(sum > 0) || !isfinite(sum))
            return group_fail(g, TSL_ERR_INVALID_ARG,
                              "tsl_group_set_weights: the weights add up to %g; at least one "
                              "device needs a weight > 0",
                              sum);
        for (size_t i = 0; i < count; ++i)
            g->given[i] = weights[i] / sum;
    }
    g->how = how;
    return TSL_OK;
}

/* ---- one call across the workers ---------------------------------------------------------- */

typedef struct run run;
typedef tsl_status (*job_fn)(run *r, size_t i);

struct run {
    tsl_group *g;
    job_fn job;
    void *arg;
    int member[GROUP_MAX];
    size_t active;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread[GROUP_MAX];
    int started[GROUP_MAX], finished[GROUP_MAX];
    size_t nstarted, nfinished;
    struct worker_arg {
        run *r;
        size_t i;
    } wargs[GROUP_MAX];
    int abort;
    tsl_status first_status; /* the cause of the failure, TSL_OK while none */
    char error[2048];
    double last_progress_ms;
    /* the barrier */
    size_t bar_count;
    unsigned long bar_gen;
    unsigned long arrived[GROUP_MAX];
    int waiting[GROUP_MAX]; /* in a barrier: waiting for others, not late itself */
    /* the test hook (TESSEL_FAULT_DEVICE) */
    int fault_device, fault_mode, fault_fired;
};

static struct timespec deadline_after(double ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double total = (double)ts.tv_nsec + ms * 1e6;
    double secs = floor(total / 1e9);
    ts.tv_sec += (time_t)secs;
    ts.tv_nsec = (long)(total - secs * 1e9);
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec += 1, ts.tv_nsec -= 1000000000L;
    return ts;
}

/* The first failure of the call is its cause; later ones (devices stopped by the abort) are
 * not. Called with r->mu held. */
static void record_failure(run *r, tsl_status s, const char *msg)
{
    if (r->first_status == TSL_OK) {
        r->first_status = s != TSL_OK ? s : TSL_ERR_OPENCL;
        snprintf(r->error, sizeof r->error, "%s", msg);
    }
    r->abort = 1;
    pthread_cond_broadcast(&r->cv);
}

/* The status a worker returns when another device's failure stopped the call. */
static tsl_status stopped(run *r, size_t i)
{
    return tsl__fail(r->g->ctx[i], TSL_ERR_OPENCL, "stopped: another device failed");
}

/* The names of the member devices for which flag[j] says "late", into out. */
static void late_devices(run *r, const int *late, char *out, size_t cap)
{
    out[0] = '\0';
    for (size_t j = 0; j < r->g->count; ++j) {
        if (!r->member[j] || !late[j]) continue;
        char label[200];
        device_label(r->g, j, label, sizeof label);
        size_t used = strlen(out);
        snprintf(out + used, cap - used, "%s%s", used ? ", " : "", label);
    }
}

/* Waits until every member device reached this point (what says where), the call was aborted,
 * or the timeout passed, which fails the call naming the devices that did not arrive. */
static tsl_status barrier(run *r, size_t me, const char *what)
{
    pthread_mutex_lock(&r->mu);
    if (r->abort) {
        pthread_mutex_unlock(&r->mu);
        return stopped(r, me);
    }
    unsigned long gen = r->bar_gen;
    r->arrived[me] = gen + 1;
    if (++r->bar_count == r->active) {
        r->bar_count = 0;
        r->bar_gen++;
        r->last_progress_ms = now_ms();
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
        return TSL_OK;
    }
    struct timespec deadline = deadline_after(r->g->timeout_s * 1e3);
    r->waiting[me] = 1;
    while (r->bar_gen == gen && !r->abort) {
        int rc = pthread_cond_timedwait(&r->cv, &r->mu, &deadline);
        if (rc == ETIMEDOUT && r->bar_gen == gen && !r->abort) {
            int late[GROUP_MAX];
            for (size_t j = 0; j < r->g->count; ++j)
                late[j] = r->arrived[j] != gen + 1;
            char names[1200], msg[1600];
            late_devices(r, late, names, sizeof names);
            snprintf(msg, sizeof msg,
                     "%s did not reach %s within %g s (timed out: the device does not answer; "
                     "the limit is $TESSEL_TIMEOUT or --timeout)",
                     names, what, r->g->timeout_s);
            record_failure(r, TSL_ERR_OPENCL, msg);
        }
    }
    int passed = r->bar_gen != gen;
    r->waiting[me] = 0;
    pthread_mutex_unlock(&r->mu);
    return passed ? TSL_OK : stopped(r, me);
}

/* The test hook of docs/multi-device.md: TESSEL_FAULT_DEVICE=I makes device I's worker fail here
 * with an OpenCL error, I:hang makes it stop answering (until the call is aborted); the modes
 * I:calibrate and I:calibrate-hang do the same in the calibration only (calibrating = 1). */
static tsl_status fault_point(run *r, size_t i, int calibrating)
{
    int in_calibration = r->fault_mode == 3 || r->fault_mode == 4;
    if ((int)i != r->fault_device || r->fault_mode >= 5 || in_calibration != calibrating)
        return TSL_OK;
    pthread_mutex_lock(&r->mu);
    int fire = !r->fault_fired;
    r->fault_fired = 1;
    int hang = r->fault_mode == 1 || r->fault_mode == 4;
    if (fire && hang)
        while (!r->abort)
            pthread_cond_wait(&r->cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
    if (!fire) return TSL_OK;
    if (hang) return stopped(r, i);
    return tsl__fail(r->g->ctx[i], TSL_ERR_OPENCL,
                     "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5) (a fault injected "
                     "by TESSEL_FAULT_DEVICE=%s)",
                     getenv("TESSEL_FAULT_DEVICE"));
}

static void *worker_main(void *p)
{
    run *r = ((struct worker_arg *)p)->r;
    size_t i = ((struct worker_arg *)p)->i;
    tsl_status s = r->job(r, i);
    pthread_mutex_lock(&r->mu);
    if (s != TSL_OK && !r->abort) {
        char label[200], msg[2048];
        device_label(r->g, i, label, sizeof label);
        snprintf(msg, sizeof msg, "%s: %s", label, tsl_context_error(r->g->ctx[i]));
        record_failure(r, s, msg);
    } else if (s != TSL_OK) {
        r->abort = 1;
    }
    r->finished[i] = 1;
    r->nfinished++;
    r->last_progress_ms = now_ms();
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static run *run_new(tsl_group *g, job_fn job, void *arg, const int *member)
{
    run *r = tsl__calloc(1, sizeof *r);
    if (!r) return NULL;
    pthread_condattr_t attr;
    int ok = pthread_condattr_init(&attr) == 0;
    ok = ok && pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0;
    ok = ok && pthread_cond_init(&r->cv, &attr) == 0;
    if (ok) pthread_condattr_destroy(&attr);
    if (!ok || pthread_mutex_init(&r->mu, NULL) != 0) {
        tsl__free(r);
        return NULL;
    }
    r->g = g;
    r->job = job;
    r->arg = arg;
    for (size_t i = 0; i < g->count; ++i) {
        r->member[i] = member[i];
        r->active += member[i] != 0;
    }
    r->fault_device = tsl__fault_target("TESSEL_FAULT_DEVICE", &r->fault_mode);
    return r;
}

/* Runs job on one thread per member device and waits for them: the call's status, with the
 * message in g->error. The wait ends when every worker is back; when nothing happened for the
 * timeout (no worker finished, no barrier passed) the call is aborted, and workers still out a
 * timeout after that are left behind (the group is then broken). */
static tsl_status run_job(tsl_group *g, job_fn job, void *arg, const int *member)
{
    run *r = run_new(g, job, arg, member);
    if (!r) return group_fail(g, TSL_ERR_OUT_OF_MEMORY, "out of host memory for the workers");
    r->last_progress_ms = now_ms();
    pthread_mutex_lock(&r->mu);
    for (size_t i = 0; i < g->count; ++i) {
        if (!r->member[i]) continue;
        r->wargs[i].r = r;
        r->wargs[i].i = i;
        if (pthread_create(&r->thread[i], NULL, worker_main, &r->wargs[i]) != 0) {
            record_failure(r, TSL_ERR_OUT_OF_MEMORY,
                           "pthread_create failed: no thread for a device");
            break;
        }
        r->started[i] = 1;
        r->nstarted++;
    }
    double abort_at = -1;
    while (r->nfinished < r->nstarted) {
        if (r->abort && abort_at < 0) abort_at = now_ms();
        double since = abort_at >= 0 ? abort_at : r->last_progress_ms;
        double wait_ms = since + g->timeout_s * 1e3 - now_ms();
        if (wait_ms <= 0) {
            if (abort_at >= 0) break; /* stragglers after the abort: leave them */
            int late[GROUP_MAX], any = 0;
            for (size_t j = 0; j < g->count; ++j)
                any |= late[j] = r->started[j] && !r->finished[j] && !r->waiting[j];
            for (size_t j = 0; !any && j < g->count; ++j)
                late[j] = r->started[j] && !r->finished[j];
            char names[1200], msg[1600];
            late_devices(r, late, names, sizeof names);
            snprintf(msg, sizeof msg,
                     "%s did not finish its part within %g s (timed out: the device does not "
                     "answer; the limit is $TESSEL_TIMEOUT or --timeout)",
                     names, g->timeout_s);
            record_failure(r, TSL_ERR_OPENCL, msg);
            continue;
        }
        struct timespec deadline = deadline_after(wait_ms < 1e3 ? wait_ms : 1e3);
        pthread_cond_timedwait(&r->cv, &r->mu, &deadline);
    }
    int left_behind = 0;
    for (size_t i = 0; i < g->count; ++i) {
        if (!r->started[i]) continue;
        if (r->finished[i]) {
            pthread_mutex_unlock(&r->mu);
            pthread_join(r->thread[i], NULL);
            pthread_mutex_lock(&r->mu);
        } else {
            pthread_detach(r->thread[i]);
            g->stuck[i] = 1;
            left_behind = 1;
        }
    }
    tsl_status s = r->first_status;
    if (s != TSL_OK) group_fail(g, s, "%s", r->error);
    pthread_mutex_unlock(&r->mu);
    if (left_behind) {
        g->broken = 1; /* r stays allocated: the threads left behind still use it */
    } else {
        pthread_cond_destroy(&r->cv);
        pthread_mutex_destroy(&r->mu);
        tsl__free(r);
    }
    return s;
}

static tsl_status check_usable(tsl_group *g, const char *fn)
{
    if (!g->broken) return TSL_OK;
    return group_fail(g, TSL_ERR_OPENCL,
                      "%s: the group is unusable: a device did not come back from an earlier "
                      "call that timed out; destroy the group",
                      fn);
}

/* ---- weights ------------------------------------------------------------------------------- */

tsl_status tsl__calibrate(tsl_context *ctx, const char *op, int dbl, int (*stop)(void *),
                          void *stop_arg, double *score)
{
    int gpu = strcmp(ctx->info.type, "gpu") == 0;
    size_t es = dbl ? sizeof(double) : sizeof(float);
    unsigned long long state = 0x2545F4914F6CDD1Dull;
    tsl_status s = TSL_OK;
    if (strcmp(op, "gemm") == 0) {
        size_t n = gpu ? 2048 : 512, count = n * n;
        char *a = tsl__malloc(count * es), *b = tsl__malloc(count * es);
        char *c = tsl__malloc(count * es);
        if (!a || !b || !c)
            s = tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "calibration: out of host memory");
        for (size_t i = 0; s == TSL_OK && i < 2 * count; ++i) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            double v = (double)(state >> 11) / 9007199254740992.0 - 0.5;
            char *dst = i < count ? a : b;
            size_t j = i % count;
            if (dbl)
                ((double *)dst)[j] = v;
            else
                ((float *)dst)[j] = (float)v;
        }
        double best = INFINITY;
        for (int run = 0; s == TSL_OK && run < 4; ++run) {
            if (stop && stop(stop_arg)) {
                s = tsl__fail(ctx, TSL_ERR_OPENCL, "calibration: stopped");
                break;
            }
            s = dbl ? tsl_dgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, n, n, n, 1.0,
                                (double *)a, n, (double *)b, n, 0.0, (double *)c, n)
                    : tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, n, n, n, 1.0f,
                                (float *)a, n, (float *)b, n, 0.0f, (float *)c, n);
            if (s == TSL_OK && run > 0 && ctx->timing.kernel_ms < best)
                best = ctx->timing.kernel_ms;
        }
        if (s == TSL_OK) *score = best > 0 ? 2.0 * (double)n * n * n / (best * 1e6) : 1.0;
        tsl__free(a), tsl__free(b), tsl__free(c);
        return s;
    }
    if (strcmp(op, "poisson") == 0) {
        size_t n = gpu ? 2049 : 257, count = n * n;
        const int sweeps = 20;
        char *f = tsl__malloc(count * es), *u = tsl__calloc(count, es);
        if (!f || !u) s = tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "calibration: out of host memory");
        for (size_t i = 0; s == TSL_OK && i < count; ++i) {
            state ^= state << 13, state ^= state >> 7, state ^= state << 17;
            double v = (double)(state >> 11) / 9007199254740992.0;
            if (dbl)
                ((double *)f)[i] = v;
            else
                ((float *)f)[i] = (float)v;
        }
        double best = INFINITY;
        tsl_poisson_info info;
        for (int run = 0; s == TSL_OK && run < 2; ++run) {
            if (stop && stop(stop_arg)) {
                s = tsl__fail(ctx, TSL_ERR_OPENCL, "calibration: stopped");
                break;
            }
            s = dbl ? tsl_dpoisson(ctx, n, (double *)f, (double *)u, sweeps, 0.0, &info)
                    : tsl_spoisson(ctx, n, (float *)f, (float *)u, sweeps, 0.0, &info);
            if (s == TSL_OK && run > 0 && info.kernel_ms < best) best = info.kernel_ms;
        }
        if (s == TSL_OK)
            *score = best > 0 ? (double)(n - 2) * (n - 2) * sweeps / (best * 1e3) : 1.0;
        tsl__free(f), tsl__free(u);
        return s;
    }
    return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "calibration: unknown op '%s' (gemm, poisson)", op);
}

typedef struct {
    const char *op;
    int dbl;
    double score[GROUP_MAX];
} calibration_job;

/* A calibration stops between its runs once the call is aborted (a device failed or timed
 * out), so its worker comes back and the group stays usable for the fallback weights. */
static int calibration_stopped(void *arg)
{
    run *r = arg;
    pthread_mutex_lock(&r->mu);
    int stop = r->abort;
    pthread_mutex_unlock(&r->mu);
    return stop;
}

static tsl_status calibrate_worker(run *r, size_t i)
{
    calibration_job *j = r->arg;
    tsl_status s = fault_point(r, i, 1);
    if (s != TSL_OK) return s;
    return tsl__calibrate(r->g->ctx[i], j->op, j->dbl, calibration_stopped, r, &j->score[i]);
}

/* 004's split: compute units x clock, normalized. */
static void compute_unit_weights(const tsl_group *g, double *w)
{
    double sum = 0;
    for (size_t i = 0; i < g->count; ++i)
        sum += w[i] = tsl__compute_unit_weight(&g->info[i]);
    for (size_t i = 0; i < g->count; ++i)
        w[i] /= sum;
}

/* Keeps the weights of op at this precision for the group's later calls (the last slot is
 * overwritten once all are used). */
static void remember_weights(tsl_group *g, const char *op, int dbl, const double *w,
                             const char *note)
{
    int c = g->ncalibrated < MAX_CALIBRATIONS ? g->ncalibrated++ : MAX_CALIBRATIONS - 1;
    snprintf(g->calibrated[c].op, sizeof g->calibrated[c].op, "%s", op);
    g->calibrated[c].dbl = dbl;
    memcpy(g->calibrated[c].w, w, g->count * sizeof *w);
    snprintf(g->calibrated[c].note, sizeof g->calibrated[c].note, "%s", note);
}

/* The normalized weights of op at this precision under the group's rule. Calibration that fails
 * (an error on a device, or a device that did not finish it within the timeout) falls back to
 * compute-unit weights, with a note in g->warning, when every device came back from it: the
 * group is intact, and the call itself then runs (or reports its own failure, naming the
 * device). A device that never came back leaves the group broken: that is an error. */
static tsl_status get_weights(tsl_group *g, const char *op, int dbl, double *w)
{
    g->warning[0] = '\0';
    if (g->how == TSL_WEIGHTS_GIVEN) {
        memcpy(w, g->given, g->count * sizeof *w);
        return TSL_OK;
    }
    if (g->how == TSL_WEIGHTS_COMPUTE_UNITS) {
        compute_unit_weights(g, w);
        return TSL_OK;
    }
    for (int c = 0; c < g->ncalibrated; ++c)
        if (strcmp(g->calibrated[c].op, op) == 0 && g->calibrated[c].dbl == dbl) {
            memcpy(w, g->calibrated[c].w, g->count * sizeof *w);
            snprintf(g->warning, sizeof g->warning, "%s", g->calibrated[c].note);
            return TSL_OK;
        }
    calibration_job job;
    memset(&job, 0, sizeof job);
    job.op = op;
    job.dbl = dbl;
    int member[GROUP_MAX];
    for (size_t i = 0; i < g->count; ++i)
        member[i] = 1;
    tsl_status s = run_job(g, calibrate_worker, &job, member);
    if (s != TSL_OK) {
        char msg[sizeof g->error];
        snprintf(msg, sizeof msg, "%s", g->error);
        if (g->broken) return group_fail(g, s, "calibrating %s: %.2000s", op, msg);
        compute_unit_weights(g, w);
        char note[sizeof g->calibrated[0].note];
        snprintf(note, sizeof note,
                 "calibrating %s failed (%.700s): the rows are split by compute units x clock "
                 "(--weights cu) instead",
                 op, msg);
        g->error[0] = '\0';
        remember_weights(g, op, dbl, w, note);
        snprintf(g->warning, sizeof g->warning, "%s", note);
        return TSL_OK;
    }
    double sum = 0;
    for (size_t i = 0; i < g->count; ++i)
        sum += w[i] = job.score[i] > 0 && isfinite(job.score[i]) ? job.score[i] : 0.0;
    if (!(sum > 0))
        for (size_t i = 0; i < g->count; ++i)
            sum += w[i] = 1.0;
    for (size_t i = 0; i < g->count; ++i)
        w[i] /= sum;
    remember_weights(g, op, dbl, w, "");
    return TSL_OK;
}

tsl_status tsl_group_weights(tsl_group *g, const char *op, int is_double, double *weights,
                             size_t count)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_weights: g is NULL");
    g->error[0] = '\0';
    if (!op || (strcmp(op, "gemm") != 0 && strcmp(op, "poisson") != 0))
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "tsl_group_weights: op '%s' is not one a group splits (gemm, poisson)",
                          op ? op : "(NULL)");
    if (!weights || count != g->count)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "tsl_group_weights: weights must have room for %zu values (count %zu)",
                          g->count, count);
    tsl_status s = check_usable(g, "tsl_group_weights");
    if (s == TSL_OK) s = get_weights(g, op, is_double != 0, weights);
    return s;
}

/* Common start of a call: usable group, fp64 on every device that gets rows. */
static tsl_status begin_call(tsl_group *g, const char *fn, int dbl, const size_t *rows)
{
    g->error[0] = '\0';
    memset(&g->times, 0, sizeof g->times);
    memset(g->parts, 0, sizeof g->parts);
    tsl_status s = check_usable(g, fn);
    if (s != TSL_OK) return s;
    for (size_t i = 0; dbl && rows && i < g->count; ++i)
        if (rows[i] && !g->info[i].fp64) {
            char label[200];
            device_label(g, i, label, sizeof label);
            return group_fail(g, TSL_ERR_UNSUPPORTED,
                              "%s: %s has no double precision (cl_khr_fp64): give it weight 0 or "
                              "leave it out of the group",
                              fn, label);
        }
    return TSL_OK;
}

tsl_status tsl_group_timing(const tsl_group *g, tsl_group_times *times, tsl_group_part *parts,
                            size_t cap)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_timing: g is NULL");
    if (!parts && cap)
        return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_group_timing: parts is NULL, cap > 0");
    if (times) *times = g->times;
    for (size_t i = 0; i < cap && i < g->count; ++i)
        parts[i] = g->parts[i];
    return TSL_OK;
}

/* ---- GEMM ---------------------------------------------------------------------------------- */

typedef struct {
    int dbl;
    tsl_layout layout;
    tsl_trans ta, tb;
    size_t m, n, k, lda, ldb, ldc;
    double alpha, beta;
    const void *a, *b;
    void *c;
    int use_ab;
    size_t rows[GROUP_MAX], first[GROUP_MAX];
} gemm_job;

static size_t max1(size_t x)
{
    return x ? x : 1;
}

/* The group keeps each device's buffers between calls, growing them when a call needs more. */
static tsl_status device_buffer(tsl_group *g, size_t i, int slot, size_t bytes, tsl_buffer **out)
{
    tsl_buffer **b = &g->gemm[i].buf[slot];
    if (*b && tsl_buffer_size(*b) >= bytes) {
        *out = *b;
        return TSL_OK;
    }
    tsl_buffer_destroy(*b);
    *b = NULL;
    tsl_status s = tsl_buffer_create(g->ctx[i], bytes ? bytes : 16, b);
    *out = *b;
    return s;
}

/* Host staging of one block (0 A, 1 B, 2 C), kept and grown like the device buffers: pinned
 * memory, or plain memory when the driver has no pinned memory to give (transfers are then
 * slower, and still overlap). */
static tsl_status stage_buffer(tsl_group *g, size_t i, int which, size_t bytes, char **out)
{
    gemm_state *gs = &g->gemm[i];
    if (bytes == 0) bytes = 16;
    if (!gs->stage[which] || gs->stage_bytes[which] < bytes) {
        stage_release(g, i, which);
        void *p = NULL;
        gs->stage_pinned[which] = tsl_host_alloc(g->ctx[i], bytes, &p) == TSL_OK;
        if (!gs->stage_pinned[which]) p = tsl__malloc(bytes);
        tsl__clear_error(g->ctx[i]);
        if (!p)
            return tsl__fail(g->ctx[i], TSL_ERR_OUT_OF_MEMORY,
                             "out of host memory for %zu bytes of staging", bytes);
        gs->stage[which] = p;
        gs->stage_bytes[which] = bytes;
    }
    *out = gs->stage[which];
    return TSL_OK;
}

/* srows runs of len elements, ld apart in src, packed one after the other into dst; unpack is
 * the reverse. */
static void pack(char *dst, const char *src, size_t srows, size_t len, size_t ld, size_t es)
{
    for (size_t r = 0; r < srows; ++r)
        memcpy(dst + r * len * es, src + r * ld * es, len * es);
}

static void unpack(char *dst, const char *src, size_t srows, size_t len, size_t ld, size_t es)
{
    for (size_t r = 0; r < srows; ++r)
        memcpy(dst + r * ld * es, src + r * len * es, len * es);
}

static void add_timing(tsl_timing *sum, const tsl_timing *t)
{
    sum->build_ms += t->build_ms;
    sum->upload_ms += t->upload_ms;
    sum->kernel_ms += t->kernel_ms;
    sum->download_ms += t->download_ms;
}

/* A whole number from the environment within [lo, hi], else fallback. */
static size_t env_count(const char *var, size_t lo, size_t hi, size_t fallback)
{
    const char *env = getenv(var);
    if (env && *env >= '0' && *env <= '9') {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end == '\0' && v >= lo && v <= hi) return (size_t)v;
    }
    return fallback;
}

/* The pipeline pays where transfers cross a bus: a CPU device's memory is the host's, and its
 * "transfers" are copies made by the same cores that run its kernels, so there is nothing to
 * overlap, and the pipeline's costs remain. Measured on PoCL (two pthread devices, 2 cores):
 * chunks made the one-device 2048^3 run 10-15 % slower end to end, and staging made 4096 x
 * 4096 x 16 (C-bound) 14 -> 19 ms. So by default a CPU device runs its block in one chunk
 * without staging; the environment overrides both, for any device (the tests run every mode on
 * PoCL). */

/* The fewest rows a chunk has: $TESSEL_GROUP_CHUNK_ROWS (>= 1), else 256, or the whole block
 * on a CPU. */
static size_t chunk_min_rows(const tsl_device_info *info)
{
    return env_count("TESSEL_GROUP_CHUNK_ROWS", 1, INT_MAX,
                     strcmp(info->type, "cpu") != 0 ? GEMM_CHUNK_ROWS : (size_t)INT_MAX);
}

/* Whether a device's transfers go through host staging: $TESSEL_GROUP_STAGING (1 or 0), else
 * every device but a CPU. */
static int use_staging(const tsl_device_info *info)
{
    return (int)env_count("TESSEL_GROUP_STAGING", 0, 1, strcmp(info->type, "cpu") != 0);
}

/* Splits a device's `rows` rows into chunks, bound[c]..bound[c+1] for chunk c: as many as
 * GEMM_CHUNKS and the minimum chunk allow, and only so many that every chunk falls in the size
 * class of the whole block (tsl__gemm_desc.size_class), so each chunk runs the variant and tuned
 * parameters the unsplit block would. On a CPU every element of C is then summed in the same
 * order, the same bits (the tests check it); on a GPU, auto's split k may pick another slice
 * count for a chunk than for the block (a function of the rows), as it may for a device's block
 * against the whole problem: the last bits may differ, within the GEMM tolerance. Interior
 * bounds are multiples of 64 when chunks are long. */
static size_t chunk_plan(const gemm_job *j, const tsl_device_info *info, size_t rows, size_t *bound)
{
    size_t nc = j->use_ab ? rows / chunk_min_rows(info) : 1;
    if (nc > GEMM_CHUNKS) nc = GEMM_CHUNKS;
    const char *whole = tsl__gemm_desc.size_class(rows, j->n, j->k);
    for (; nc > 1; --nc) {
        size_t align = rows / nc >= 128 ? 64 : 1;
        int same = 1;
        bound[0] = 0, bound[nc] = rows;
        for (size_t c = 1; c < nc; ++c)
            bound[c] = rows * c / nc / align * align;
        for (size_t c = 0; c < nc; ++c)
            same &=
                bound[c + 1] > bound[c] &&
                strcmp(tsl__gemm_desc.size_class(bound[c + 1] - bound[c], j->n, j->k), whole) == 0;
        if (same) return nc;
    }
    bound[0] = 0, bound[1] = rows;
    return 1;
}

/* One device's share of a GEMM call as a pipeline. The feeder thread gives B and then each
 * chunk's rows of op(A) (and of C when beta != 0) to the upload queue, marking the point where
 * each chunk's uploads end; the worker makes the kernel queue wait for chunk c's mark and runs
 * chunk c. So chunk c+1 uploads while chunk c computes. With staging (GPUs), the feeder first
 * packs each block into pinned host memory (B in pieces, so packing one overlaps the upload of
 * the last), and the worker gives chunk c's rows of C to the download queue as soon as chunk c
 * is done, into pinned staging, so it downloads while chunk c+1 computes; the caller's C is
 * written from the staging once every device is done. Without staging (CPUs), the transfers go
 * straight from the caller's arrays and C is downloaded once every device is done. The staging
 * and the device buffers hold the whole block, one region per chunk: no region is reused
 * within a call. */
typedef struct {
    run *r;
    size_t i;
    gemm_job *j;
    int staged;
    size_t nchunks, bound[GEMM_CHUNKS + 1];
    size_t a_off[GEMM_CHUNKS + 1], c_off[GEMM_CHUNKS + 1]; /* bytes into the staging */
    char *st_a, *st_b, *st_c;
    tsl_buffer *da[GEMM_CHUNKS], *db, *dc[GEMM_CHUNKS];
    cl_event ready[GEMM_CHUNKS]; /* the feeder's marks */
    /* under r->mu: */
    size_t published; /* chunks whose uploads the feeder has given to the queue */
    int feed_done, stop;
    tsl_status feed_status;
    char feed_error[1024];
} gemm_pipe;

static tsl__block chunk_block(const gemm_pipe *p, char which, size_t c)
{
    const gemm_job *j = p->j;
    size_t r0 = j->first[p->i] + p->bound[c], rows = p->bound[c + 1] - p->bound[c];
    return which == 'a' ? tsl__row_block(j->layout, j->ta, r0, rows, j->k, j->lda)
                        : tsl__row_block(j->layout, TSL_NO_TRANS, r0, rows, j->n, j->ldc);
}

static int feeder_stopped(gemm_pipe *p)
{
    pthread_mutex_lock(&p->r->mu);
    int stop = p->stop || p->r->abort;
    pthread_mutex_unlock(&p->r->mu);
    return stop;
}

static void *feeder_main(void *arg)
{
    gemm_pipe *p = arg;
    const gemm_job *j = p->j;
    tsl__stream *up = p->r->g->gemm[p->i].up;
    size_t es = j->dbl ? sizeof(double) : sizeof(float);
    tsl_status s = TSL_OK;
    tsl__block bb = tsl__row_block(j->layout, j->tb, 0, j->k, j->n, j->ldb);
    if (j->use_ab && !p->staged)
        s = tsl__stream_write_rect(up, p->db->mem, (const char *)j->b + bb.offset * es, bb.srows,
                                   bb.slen * es, j->ldb * es);
    if (j->use_ab && p->staged) { /* B in up to 4 pieces of runs */
        size_t pieces = bb.srows < 4 ? 1 : 4, run_bytes = bb.slen * es;
        for (size_t q = 0; s == TSL_OK && q < pieces; ++q) {
            size_t q0 = bb.srows * q / pieces, q1 = bb.srows * (q + 1) / pieces;
            pack(p->st_b + q0 * run_bytes, (const char *)j->b + (bb.offset + q0 * j->ldb) * es,
                 q1 - q0, bb.slen, j->ldb, es);
            s = tsl__stream_write(up, p->db->mem, q0 * run_bytes, (q1 - q0) * run_bytes,
                                  p->st_b + q0 * run_bytes);
        }
    }
    for (size_t c = 0; s == TSL_OK && c < p->nchunks; ++c) {
        if (feeder_stopped(p)) break;
        if (j->use_ab && !p->staged) {
            tsl__block ab = chunk_block(p, 'a', c);
            s = tsl__stream_write_rect(up, p->da[c]->mem, (const char *)j->a + ab.offset * es,
                                       ab.srows, ab.slen * es, j->lda * es);
        } else if (j->use_ab) {
            tsl__block ab = chunk_block(p, 'a', c);
            pack(p->st_a + p->a_off[c], (const char *)j->a + ab.offset * es, ab.srows, ab.slen,
                 j->lda, es);
            s = tsl__stream_write(up, p->da[c]->mem, 0, ab.srows * ab.slen * es,
                                  p->st_a + p->a_off[c]);
        }
        if (s == TSL_OK && j->beta != 0.0 && !p->staged) {
            tsl__block cb = chunk_block(p, 'c', c);
            s = tsl__stream_write_rect(up, p->dc[c]->mem, (const char *)j->c + cb.offset * es,
                                       cb.srows, cb.slen * es, j->ldc * es);
        } else if (s == TSL_OK && j->beta != 0.0) {
            tsl__block cb = chunk_block(p, 'c', c);
            pack(p->st_c + p->c_off[c], (const char *)j->c + cb.offset * es, cb.srows, cb.slen,
                 j->ldc, es);
            s = tsl__stream_write(up, p->dc[c]->mem, 0, cb.srows * cb.slen * es,
                                  p->st_c + p->c_off[c]);
        }
        if (s == TSL_OK) s = tsl__stream_mark(up, &p->ready[c]);
        if (s != TSL_OK) break;
        pthread_mutex_lock(&p->r->mu);
        p->published = c + 1;
        pthread_cond_broadcast(&p->r->cv);
        pthread_mutex_unlock(&p->r->mu);
    }
    pthread_mutex_lock(&p->r->mu);
    p->feed_done = 1;
    p->feed_status = s;
    if (s != TSL_OK) snprintf(p->feed_error, sizeof p->feed_error, "%s", tsl__stream_error(up));
    pthread_cond_broadcast(&p->r->cv);
    pthread_mutex_unlock(&p->r->mu);
    return NULL;
}

/* Waits until the feeder has given chunk c's uploads to the queue: bounded by the timeout; the
 * feeder's failure, or another device's, ends it. */
static tsl_status wait_chunk(gemm_pipe *p, size_t c)
{
    run *r = p->r;
    tsl_context *ctx = r->g->ctx[p->i];
    struct timespec deadline = deadline_after(r->g->timeout_s * 1e3);
    int timed_out = 0;
    pthread_mutex_lock(&r->mu);
    while (p->published <= c && !p->feed_done && !r->abort && !timed_out)
        timed_out = pthread_cond_timedwait(&r->cv, &r->mu, &deadline) == ETIMEDOUT;
    int ready = p->published > c, aborted = r->abort, failed = p->feed_done && !ready;
    tsl_status fs = p->feed_status;
    pthread_mutex_unlock(&r->mu);
    if (aborted) return stopped(r, p->i); /* another device failed: no more chunks */
    if (ready) return TSL_OK;
    if (failed) return tsl__fail(ctx, fs != TSL_OK ? fs : TSL_ERR_OPENCL, "%s", p->feed_error);
    return tsl__fail(ctx, TSL_ERR_OPENCL,
                     "the uploads of its rows did not start within %g s (timed out: the device "
                     "does not answer; the limit is $TESSEL_TIMEOUT or --timeout)",
                     r->g->timeout_s);
}

/* Buffers, staging, queues and the chunk plan of device i's block. */
static tsl_status pipe_prepare(run *r, size_t i, gemm_pipe *p)
{
    tsl_group *g = r->g;
    gemm_job *j = r->arg;
    gemm_state *gs = &g->gemm[i];
    size_t es = j->dbl ? sizeof(double) : sizeof(float);
    p->r = r;
    p->i = i;
    p->j = j;
    p->staged = use_staging(&g->info[i]);
    p->nchunks = chunk_plan(j, &g->info[i], j->rows[i], p->bound);
    for (size_t c = 0; c < p->nchunks; ++c) {
        tsl__block ab = chunk_block(p, 'a', c), cb = chunk_block(p, 'c', c);
        p->a_off[c + 1] = p->a_off[c] + (j->use_ab ? ab.srows * ab.slen * es : 0);
        p->c_off[c + 1] = p->c_off[c] + cb.srows * cb.slen * es;
    }
    /* Buffers of chunks this call does not have would only hold device memory. */
    for (size_t c = p->nchunks; c < GEMM_CHUNKS; ++c)
        for (int slot = 1 + (int)c; slot < GEMM_SLOTS; slot += GEMM_CHUNKS) {
            tsl_buffer_destroy(gs->buf[slot]);
            gs->buf[slot] = NULL;
        }
    tsl_status s = TSL_OK;
    if (!gs->up) s = tsl__stream_create(g->ctx[i], &gs->up);
    if (s == TSL_OK && !gs->down) s = tsl__stream_create(g->ctx[i], &gs->down);
    if (s == TSL_OK && p->staged) s = stage_buffer(g, i, 2, p->c_off[p->nchunks], &p->st_c);
    for (size_t c = 0; s == TSL_OK && c < p->nchunks; ++c)
        s = device_buffer(g, i, 1 + GEMM_CHUNKS + (int)c, p->c_off[c + 1] - p->c_off[c], &p->dc[c]);
    if (s == TSL_OK && j->use_ab) {
        tsl__block bb = tsl__row_block(j->layout, j->tb, 0, j->k, j->n, j->ldb);
        if (p->staged) s = stage_buffer(g, i, 0, p->a_off[p->nchunks], &p->st_a);
        if (s == TSL_OK && p->staged) s = stage_buffer(g, i, 1, bb.srows * bb.slen * es, &p->st_b);
        if (s == TSL_OK) s = device_buffer(g, i, 0, bb.srows * bb.slen * es, &p->db);
        for (size_t c = 0; s == TSL_OK && c < p->nchunks; ++c)
            s = device_buffer(g, i, 1 + (int)c, p->a_off[c + 1] - p->a_off[c], &p->da[c]);
    }
    return s;
}

/* Runs the chunks as the feeder publishes them; chunk c's rows of C go to the download queue. */
static tsl_status pipe_compute(gemm_pipe *p)
{
    run *r = p->r;
    gemm_job *j = p->j;
    tsl_context *ctx = r->g->ctx[p->i];
    tsl_group_part *part = &r->g->parts[p->i];
    tsl__block bb = tsl__row_block(j->layout, j->tb, 0, j->k, j->n, j->ldb);
    tsl_status s = TSL_OK;
    for (size_t c = 0; s == TSL_OK && c < p->nchunks; ++c) {
        if ((s = wait_chunk(p, c)) != TSL_OK) break;
        if ((s = tsl__queue_wait_for(ctx, p->ready[c])) != TSL_OK) break;
        tsl__block ab = chunk_block(p, 'a', c), cb = chunk_block(p, 'c', c);
        size_t rows = p->bound[c + 1] - p->bound[c];
        /* C_c = alpha op(A)_c op(B) + beta C_c, on packed copies (ld = run length) */
        const tsl_buffer *pa = j->use_ab ? p->da[c] : p->dc[c], *pb = j->use_ab ? p->db : p->dc[c];
        s = j->dbl
                ? tsl_dgemm_buf(ctx, j->layout, j->ta, j->tb, rows, j->n, j->k, j->alpha, pa,
                                max1(ab.slen), pb, max1(bb.slen), j->beta, p->dc[c], max1(cb.slen))
                : tsl_sgemm_buf(ctx, j->layout, j->ta, j->tb, rows, j->n, j->k, (float)j->alpha, pa,
                                max1(ab.slen), pb, max1(bb.slen), (float)j->beta, p->dc[c],
                                max1(cb.slen));
        if (s != TSL_OK) break;
        add_timing(&part->timing, &ctx->timing);
        if (!p->staged) continue;
        s = tsl__stream_read(r->g->gemm[p->i].down, p->dc[c]->mem, 0, p->c_off[c + 1] - p->c_off[c],
                             p->st_c + p->c_off[c]);
        if (s != TSL_OK) s = tsl__fail(ctx, s, "%s", tsl__stream_error(r->g->gemm[p->i].down));
    }
    return s;
}

static tsl_status gemm_worker(run *r, size_t i)
{
    tsl_group *g = r->g;
    gemm_job *j = r->arg;
    tsl_context *ctx = g->ctx[i];
    gemm_state *gs = &g->gemm[i];
    tsl_group_part *part = &g->parts[i];
    double t0 = now_ms();
    size_t es = j->dbl ? sizeof(double) : sizeof(float);
    gemm_pipe p;
    memset(&p, 0, sizeof p);
    tsl_status s = pipe_prepare(r, i, &p);
    if (s != TSL_OK) return s;
    pthread_t feeder;
    if (pthread_create(&feeder, NULL, feeder_main, &p) != 0)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "pthread_create failed: no feeder thread");
    s = pipe_compute(&p);
    pthread_mutex_lock(&r->mu);
    p.stop = 1; /* a failed chunk: the feeder packs no more */
    pthread_mutex_unlock(&r->mu);
    pthread_join(feeder, NULL);
    /* Every transfer ends before the call does (the staging outlives it, the caller's arrays
     * may not); their profiled times join the kernels'. */
    tsl_status up = tsl__stream_finish(gs->up, &part->timing);
    tsl_status down = tsl__stream_finish(gs->down, &part->timing);
    if (s == TSL_OK && up != TSL_OK) s = tsl__fail(ctx, up, "%s", tsl__stream_error(gs->up));
    if (s == TSL_OK && down != TSL_OK) s = tsl__fail(ctx, down, "%s", tsl__stream_error(gs->down));
    if (s == TSL_OK && p.feed_status != TSL_OK)
        s = tsl__fail(ctx, p.feed_status, "%s", p.feed_error);
    if (s != TSL_OK) return s;
    if ((s = fault_point(r, i, 0)) != TSL_OK) return s;
    /* Nothing reaches the caller's C until every device has its block. */
    if ((s = barrier(r, i, "the end of the GEMM on every device")) != TSL_OK) return s;
    for (size_t c = 0; c < p.nchunks; ++c) {
        tsl__block cb = chunk_block(&p, 'c', c);
        if (p.staged)
            unpack((char *)j->c + cb.offset * es, p.st_c + p.c_off[c], cb.srows, cb.slen, j->ldc,
                   es);
        else if (s == TSL_OK)
            s = tsl__stream_read_rect(gs->down, p.dc[c]->mem, (char *)j->c + cb.offset * es,
                                      cb.srows, cb.slen * es, j->ldc * es);
    }
    down = tsl__stream_finish(gs->down, &part->timing);
    if (s == TSL_OK) s = down;
    if (s != TSL_OK) return tsl__fail(ctx, s, "%s", tsl__stream_error(gs->down));
    part->wall_ms = now_ms() - t0;
    return TSL_OK;
}

/* CBLAS rules, as tsl_[sd]gemm checks them; messages speak of the caller's arguments. */
static tsl_status check_gemm_args(tsl_group *g, const char *fn, const gemm_job *j)
{
    if (j->layout != TSL_ROW_MAJOR && j->layout != TSL_COL_MAJOR)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "%s: layout %d is neither TSL_ROW_MAJOR nor TSL_COL_MAJOR", fn,
                          (int)j->layout);
    if (j->ta != TSL_NO_TRANS && j->ta != TSL_TRANS)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "%s: transa %d is neither TSL_NO_TRANS nor TSL_TRANS", fn, (int)j->ta);
    if (j->tb != TSL_NO_TRANS && j->tb != TSL_TRANS)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "%s: transb %d is neither TSL_NO_TRANS nor TSL_TRANS", fn, (int)j->tb);
    int row = j->layout == TSL_ROW_MAJOR;
    size_t a_need = max1(row == (j->ta == TSL_NO_TRANS) ? j->k : j->m);
    size_t b_need = max1(row == (j->tb == TSL_NO_TRANS) ? j->n : j->k);
    size_t c_need = max1(row ? j->n : j->m);
    if (j->lda < a_need)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "%s: lda = %zu is smaller than %zu, which A needs", fn, j->lda, a_need);
    if (j->ldb < b_need)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "%s: ldb = %zu is smaller than %zu, which B needs", fn, j->ldb, b_need);
    if (j->ldc < c_need)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "%s: ldc = %zu is smaller than %zu, which C needs", fn, j->ldc, c_need);
    if (j->m == 0 || j->n == 0) return TSL_OK;
    if (!j->c) return group_fail(g, TSL_ERR_INVALID_ARG, "%s: C is NULL", fn);
    if (j->use_ab && (!j->a || !j->b))
        return group_fail(g, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, j->a ? "B" : "A");
    if (j->m > INT_MAX || j->n > INT_MAX || j->k > INT_MAX || j->lda > INT_MAX ||
        j->ldb > INT_MAX || j->ldc > INT_MAX)
        return group_fail(g, TSL_ERR_UNSUPPORTED,
                          "%s: sizes and leading dimensions above 2^31-1 are not supported", fn);
    return TSL_OK;
}

static tsl_status group_gemm(tsl_group *g, const char *fn, gemm_job *j)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: g is NULL", fn);
    tsl_status s = begin_call(g, fn, 0, NULL);
    if (s != TSL_OK) return s;
    j->use_ab = j->k > 0 && j->alpha != 0.0;
    if ((s = check_gemm_args(g, fn, j)) != TSL_OK) return s;
    if (j->m == 0 || j->n == 0) return TSL_OK; /* the BLAS quick return */
    double w[GROUP_MAX];
    if ((s = get_weights(g, "gemm", j->dbl, w)) != TSL_OK) return s;
    tsl__split_rows(j->m, w, g->count, j->rows);
    if ((s = begin_call(g, fn, j->dbl, j->rows)) != TSL_OK) return s;
    int member[GROUP_MAX];
    size_t first = 0;
    for (size_t i = 0; i < g->count; ++i) {
        j->first[i] = first;
        first += j->rows[i];
        member[i] = j->rows[i] > 0;
        g->parts[i].first_row = j->first[i];
        g->parts[i].rows = j->rows[i];
        g->parts[i].weight = w[i];
        g->times.devices += member[i] != 0;
    }
    double t0 = now_ms();
    s = run_job(g, gemm_worker, j, member);
    g->times.wall_ms = now_ms() - t0;
    for (size_t i = 0; i < g->count; ++i)
        if (member[i] && g->parts[i].timing.kernel_ms > g->times.phase_ms)
            g->times.phase_ms = g->parts[i].timing.kernel_ms;
    return s;
}

tsl_status tsl_group_sgemm(tsl_group *g, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                           size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                           const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
    gemm_job j = {0,   layout, transa, transb, m, n, k, lda, ldb,
                  ldc, alpha,  beta,   a,      b, c, 0, {0}, {0}};
    return group_gemm(g, "tsl_group_sgemm", &j);
}

tsl_status tsl_group_dgemm(tsl_group *g, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                           size_t m, size_t n, size_t k, double alpha, const double *a, size_t lda,
                           const double *b, size_t ldb, double beta, double *c, size_t ldc)
{
    gemm_job j = {1,   layout, transa, transb, m, n, k, lda, ldb,
                  ldc, alpha,  beta,   a,      b, c, 0, {0}, {0}};
    return group_gemm(g, "tsl_group_dgemm", &j);
}

/* ---- Poisson ------------------------------------------------------------------------------- */

typedef struct {
    const char *fn;
    int dbl;
    size_t n, es;
    const void *f;
    void *u;
    int max_iters, need_res, halo;
    double tol, threshold;
    size_t own_lo[GROUP_MAX], own_hi[GROUP_MAX]; /* global rows owned, inclusive */
    size_t g0[GROUP_MAX], g1[GROUP_MAX];         /* the device grid: global rows [g0, g1) */
    size_t slot_rows[GROUP_MAX];                 /* min(halo, rows owned) */
    /* Pinned staging per device, two sets used in turn (so a set is never rewritten while a
     * neighbour may still read it): its first slot_rows owned rows, then its last. */
    void *stage[GROUP_MAX][2];
    unsigned long exchanges[GROUP_MAX];
    double res[2][GROUP_MAX];
    unsigned long checks[GROUP_MAX];
    int done;
    double residual, iter_ms[GROUP_MAX];
    int member[GROUP_MAX];
    size_t count, first_member;
    struct strip_link { /* what a strip's exchange and reduction know of their device */
        run *r;
        size_t i;
        tsl__strip *strip;
    } link[GROUP_MAX];
} poisson_job;

/* Where global row `row` (owned by some device) sits in its owner's current staging set: in
 * its last rows when the owner lies above the device asking (above = 1), else in its first. A
 * halo row is always within the halo depth of the owner's edge that faces the asker. */
static const char *staged_row(const poisson_job *j, size_t row, int above, unsigned long parity)
{
    for (size_t e = 0; e < j->count; ++e) {
        if (!j->member[e] || row < j->own_lo[e] || row > j->own_hi[e]) continue;
        size_t sr = j->slot_rows[e];
        size_t at = above ? sr + (row - (j->own_hi[e] + 1 - sr)) : row - j->own_lo[e];
        return (const char *)j->stage[e][parity] + at * j->n * j->es;
    }
    return NULL;
}

/* Writes global rows [lo, hi) of the current iterate into the strip from the owners' staging,
 * one transfer per run of rows that lie one after the other there. */
static tsl_status refresh_rows(poisson_job *j, size_t i, size_t lo, size_t hi, int above,
                               unsigned long parity)
{
    size_t pitch = j->n * j->es;
    for (size_t row = lo; row < hi;) {
        const char *src = staged_row(j, row, above, parity);
        if (!src)
            return tsl__fail(j->link[i].r->g->ctx[i], TSL_ERR_INVALID_ARG,
                             "halo row %zu has no owner", row);
        size_t run = 1;
        while (row + run < hi && staged_row(j, row + run, above, parity) == src + run * pitch)
            ++run;
        tsl_status s = tsl__strip_write(j->link[i].strip, row - j->g0[i], run, src);
        if (s != TSL_OK) return s;
        row += run;
    }
    return TSL_OK;
}

static tsl_status exchange_halos(void *user, tsl__strip *strip)
{
    run *r = ((struct strip_link *)user)->r;
    size_t i = ((struct strip_link *)user)->i;
    poisson_job *j = r->arg;
    tsl_status s = fault_point(r, i, 0);
    if (s != TSL_OK) return s;
    unsigned long parity = j->exchanges[i]++ & 1;
    size_t sr = j->slot_rows[i], g0 = j->g0[i];
    char *stage = j->stage[i][parity];
    /* Publish the rows the neighbours' halos need: the first sr owned rows when a strip lies
     * above, the last sr when one lies below. */
    if (j->own_lo[i] > 1 && (s = tsl__strip_read(strip, j->own_lo[i] - g0, sr, stage)) != TSL_OK)
        return s;
    if (j->own_hi[i] < j->n - 2 && (s = tsl__strip_read(strip, j->own_hi[i] + 1 - sr - g0, sr,
                                                        stage + sr * j->n * j->es)) != TSL_OK)
        return s;
    if ((s = barrier(r, i, "a halo exchange")) != TSL_OK) return s;
    /* Refresh the halo rows; row 0 and row n-1 are the boundary, which never changes. */
    size_t top_lo = g0 > 1 ? g0 : 1, bottom_hi = j->g1[i] < j->n - 1 ? j->g1[i] : j->n - 1;
    if ((s = refresh_rows(j, i, top_lo, j->own_lo[i], 1, parity)) != TSL_OK) return s;
    return refresh_rows(j, i, j->own_hi[i] + 1, bottom_hi, 0, parity);
}

static tsl_status reduce_residual(void *user, double local, double *global)
{
    run *r = ((struct strip_link *)user)->r;
    size_t i = ((struct strip_link *)user)->i;
    poisson_job *j = r->arg;
    unsigned long slot = j->checks[i]++ & 1;
    j->res[slot][i] = local;
    tsl_status s = barrier(r, i, "a residual check");
    if (s != TSL_OK) return s;
    double m = 0;
    for (size_t e = 0; e < j->count; ++e) {
        if (!j->member[e]) continue;
        double x = j->res[slot][e];
        if (isnan(x) || isnan(m))
            m = NAN; /* a diverged strip makes the whole residual NaN, as on one device */
        else if (x > m)
            m = x;
    }
    *global = m;
    return TSL_OK;
}

static tsl_status poisson_worker(run *r, size_t i)
{
    tsl_group *g = r->g;
    poisson_job *j = r->arg;
    tsl_context *ctx = g->ctx[i];
    tsl_group_part *part = &g->parts[i];
    double t0 = now_ms();
    size_t pitch = j->n * j->es, rows = j->g1[i] - j->g0[i];
    tsl__timing_begin(ctx);
    tsl__strip *strip = NULL;
    tsl_status s = tsl__strip_open(ctx, j->fn, j->dbl, j->n, rows, j->own_lo[i] - j->g0[i],
                                   j->own_hi[i] - j->g0[i], (const char *)j->f + j->g0[i] * pitch,
                                   (const char *)j->u + j->g0[i] * pitch, &strip);
    j->link[i].r = r;
    j->link[i].i = i;
    j->link[i].strip = strip;
    if (s == TSL_OK) s = barrier(r, i, "the start of the iteration");
    int done = 0;
    double res = NAN;
    if (s == TSL_OK) {
        /* One strip alone (a device measured by itself) is the whole grid: no exchanges. */
        tsl__strip_comm comm = {exchange_halos, reduce_residual, &j->link[i]};
        double it0 = now_ms();
        s = tsl__strip_iterate(strip, r->active > 1 ? &comm : NULL, j->max_iters, j->tol,
                               j->threshold, j->need_res, &done, &res);
        j->iter_ms[i] = now_ms() - it0;
    }
    tsl_status waited = tsl__timing_end(ctx);
    if (s == TSL_OK) s = waited;
    /* Nothing reaches the caller's u until every strip has iterated. */
    if (s == TSL_OK) s = barrier(r, i, "the end of the iteration on every device");
    if (s == TSL_OK && done > 0) {
        size_t own = j->own_hi[i] - j->own_lo[i] + 1;
        s = tsl__strip_read(strip, j->own_lo[i] - j->g0[i], own,
                            (char *)j->u + j->own_lo[i] * pitch);
        waited = tsl__timing_end(ctx);
        if (s == TSL_OK) s = waited;
    }
    tsl__strip_close(strip);
    if (s != TSL_OK) return s;
    part->timing = ctx->timing;
    part->wall_ms = now_ms() - t0;
    if (i == j->first_member) { /* every strip ends with the same count and residual */
        j->done = done;
        j->residual = res;
    }
    return TSL_OK;
}

static tsl_status group_poisson(tsl_group *g, const char *fn, int dbl, size_t n, const void *f,
                                void *u, int max_iters, double tol, tsl_poisson_info *info)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: g is NULL", fn);
    tsl_status s = begin_call(g, fn, 0, NULL);
    if (s != TSL_OK) return s;
    if (n < 3)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "%s: n = %zu, the grid needs at least 3 x 3 points (border included)", fn,
                          n);
    if (!f) return group_fail(g, TSL_ERR_INVALID_ARG, "%s: f is NULL", fn);
    if (!u) return group_fail(g, TSL_ERR_INVALID_ARG, "%s: u is NULL", fn);
    if (max_iters < 0)
        return group_fail(g, TSL_ERR_INVALID_ARG, "%s: max_iters = %d is negative", fn, max_iters);
    if (isnan(tol) || tol < 0)
        return group_fail(g, TSL_ERR_INVALID_ARG,
                          "%s: tol = %g must be a number >= 0 (0: exactly max_iters sweeps)", fn,
                          tol);
    if (n > INT_MAX / 2)
        return group_fail(g, TSL_ERR_OUT_OF_MEMORY, "%s: a %zu x %zu grid is too large", fn, n, n);
    poisson_job *j = tsl__calloc(1, sizeof *j);
    if (!j) return group_fail(g, TSL_ERR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    j->fn = fn;
    j->dbl = dbl;
    j->n = n;
    j->es = dbl ? sizeof(double) : sizeof(float);
    j->f = f;
    j->u = u;
    j->max_iters = max_iters;
    j->tol = tol;
    j->need_res = info != NULL;
    j->count = g->count;
    j->halo = 1;
    for (size_t i = 0; i < g->count; ++i) { /* the deepest halo any device's variant needs */
        int h = 1;
        if (tsl__poisson_halo(g->ctx[i], &h) != TSL_OK) {
            char label[200];
            device_label(g, i, label, sizeof label);
            s = group_fail(g, TSL_ERR_INVALID_ARG, "%s: %s: %s", fn, label,
                           tsl_context_error(g->ctx[i]));
            tsl__free(j);
            return s;
        }
        if (h > j->halo) j->halo = h;
    }
    double fmax = tsl__poisson_fmax(dbl, n, (const char *)f + n * j->es, n - 2);
    j->threshold = tol * (fmax > 1 ? fmax : 1);
    if (max_iters == 0 && !j->need_res) {
        tsl__free(j);
        return TSL_OK;
    }
    double w[GROUP_MAX];
    size_t rows[GROUP_MAX];
    if ((s = get_weights(g, "poisson", dbl, w)) == TSL_OK) {
        tsl__split_rows(n - 2, w, g->count, rows);
        s = begin_call(g, fn, dbl, rows);
    }
    size_t first = 1, halo = (size_t)j->halo;
    for (size_t i = 0; s == TSL_OK && i < g->count; ++i) {
        j->member[i] = rows[i] > 0;
        g->parts[i].first_row = first;
        g->parts[i].rows = rows[i];
        g->parts[i].weight = w[i];
        if (!rows[i]) continue;
        if (!g->times.devices++) j->first_member = i;
        j->own_lo[i] = first;
        j->own_hi[i] = first + rows[i] - 1;
        j->g0[i] = first > halo ? first - halo : 0;
        j->g1[i] = j->own_hi[i] + 1 + halo < n ? j->own_hi[i] + 1 + halo : n;
        j->slot_rows[i] = rows[i] < halo ? rows[i] : halo;
        first += rows[i];
        /* Pinned staging on the device that writes it (its downloads are the hot path). */
        for (int p = 0; s == TSL_OK && p < 2; ++p)
            if ((s = tsl_host_alloc(g->ctx[i], 2 * j->slot_rows[i] * n * j->es, &j->stage[i][p])) !=
                TSL_OK) {
                char label[200];
                device_label(g, i, label, sizeof label);
                group_fail(g, s, "%s: %s: halo staging: %s", fn, label,
                           tsl_context_error(g->ctx[i]));
            }
    }
    if (s == TSL_OK) {
        double t0 = now_ms();
        s = run_job(g, poisson_worker, j, j->member);
        g->times.wall_ms = now_ms() - t0;
    }
    double kernel_ms = 0;
    for (size_t i = 0; i < g->count; ++i) {
        if (j->member[i] && j->iter_ms[i] > g->times.phase_ms) g->times.phase_ms = j->iter_ms[i];
        if (j->member[i] && g->parts[i].timing.kernel_ms > kernel_ms)
            kernel_ms = g->parts[i].timing.kernel_ms;
    }
    if (s == TSL_OK && info) {
        info->iterations = j->done;
        info->residual = j->residual;
        info->kernel_ms = kernel_ms;
    }
    if (g->broken) return s; /* a worker left behind may still read the staging: keep it */
    for (size_t i = 0; i < g->count; ++i)
        for (int p = 0; p < 2; ++p)
            if (j->stage[i][p]) tsl_host_free(g->ctx[i], j->stage[i][p]);
    tsl__free(j);
    return s;
}

tsl_status tsl_group_spoisson(tsl_group *g, size_t n, const float *f, float *u, int max_iters,
                              double tol, tsl_poisson_info *info)
{
    return group_poisson(g, "tsl_group_spoisson", 0, n, f, u, max_iters, tol, info);
}

tsl_status tsl_group_dpoisson(tsl_group *g, size_t n, const double *f, double *u, int max_iters,
                              double tol, tsl_poisson_info *info)
{
    return group_poisson(g, "tsl_group_dpoisson", 1, n, f, u, max_iters, tol, info);
}
