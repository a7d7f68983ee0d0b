/* group_run.c: the thread runtime of a group call (group_internal.h). A call runs a job on one
 * host thread per member device and waits for them. Synchronisation is one mutex and condition
 * variable per call: barriers between the devices (the end of every device's part before any
 * result reaches the caller, every halo exchange, every residual check) and the caller's wait for
 * the workers. Every wait ends after the group's timeout; a device that fails or does not answer
 * aborts the call, the others stop at their next wait, and the call returns one message naming
 * that device.
 *
 * A worker that does not come back within a timeout of the abort (a driver hung in a call, or a
 * timeout shorter than the device's work) is left running, and must then find everything it uses
 * alive, however long it takes: the run is reference-counted (the caller and each worker hold
 * it; the last to let go frees it), the run holds the devices it uses (each device's context is
 * reference-counted likewise), and the job's data are the run's own copy, never the caller's
 * stack. Before the call returns it closes the run to the caller's arrays: no worker starts
 * touching them afterwards, and the call waits for those that are inside (host copies, and on
 * CPU devices transfers that read or write them) to leave. The group keeps such a run, refuses
 * calls until its workers have come back, and tsl_group_destroy waits for them a while. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "multi/group_internal.h"
#include "ops/ops.h"

struct tsl__run {
    tsl__job_fn job;
    void *arg;
    void (*cleanup)(tsl__run *r, void *arg);
    size_t count;
    tsl__gdev *dev[GROUP_MAX]; /* held for the run's life */
    int member[GROUP_MAX];
    size_t active;
    double timeout_s;
    int kept; /* in its group's list of runs left behind */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* under mu: */
    int refs;
    pthread_t thread[GROUP_MAX];
    int started[GROUP_MAX], finished[GROUP_MAX];
    size_t nstarted, nfinished;
    struct worker_arg {
        tsl__run *r;
        size_t i;
    } wargs[GROUP_MAX];
    int abort, closed;       /* closed: the call returned, or is about to, without some workers */
    int touching;            /* threads using the caller's arrays */
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
    tsl_group_part parts[GROUP_MAX];
};

/* ---- devices ----------------------------------------------------------------------------------
 */

static pthread_mutex_t gdev_mu = PTHREAD_MUTEX_INITIALIZER;

tsl__gdev *tsl__gdev_retain(tsl__gdev *d)
{
    pthread_mutex_lock(&gdev_mu);
    d->refs++;
    pthread_mutex_unlock(&gdev_mu);
    return d;
}

void tsl__gdev_release(tsl__gdev *d)
{
    if (!d) return;
    pthread_mutex_lock(&gdev_mu);
    int last = --d->refs == 0;
    pthread_mutex_unlock(&gdev_mu);
    if (!last) return;
    tsl_context_destroy(d->ctx); /* with its GEMM pipeline's buffers, staging and queues */
    tsl__free(d);
}

/* ---- the run's life ---------------------------------------------------------------------------
 */

static void run_free(tsl__run *r)
{
    if (r->cleanup) r->cleanup(r, r->arg);
    tsl__free(r->arg);
    for (size_t i = 0; i < r->count; ++i)
        tsl__gdev_release(r->dev[i]);
    pthread_cond_destroy(&r->cv);
    pthread_mutex_destroy(&r->mu);
    tsl__free(r);
}

/* Lets go of one reference, with r->mu held; frees the run (after unlocking) when it was the
 * last. */
static void release_locked(tsl__run *r)
{
    int last = --r->refs == 0;
    pthread_mutex_unlock(&r->mu);
    if (last) run_free(r);
}

tsl__run *tsl__run_new(tsl_group *g, tsl__job_fn job, const void *arg, size_t arg_bytes,
                       void (*cleanup)(tsl__run *r, void *arg), const int *member)
{
    tsl__run *r = tsl__calloc(1, sizeof *r);
    if (!r) return NULL;
    r->arg = tsl__malloc(arg_bytes ? arg_bytes : 1);
    pthread_condattr_t attr;
    int ok = r->arg && pthread_condattr_init(&attr) == 0;
    if (ok) {
        ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
             pthread_cond_init(&r->cv, &attr) == 0;
        pthread_condattr_destroy(&attr);
    }
    if (ok && pthread_mutex_init(&r->mu, NULL) != 0) {
        pthread_cond_destroy(&r->cv);
        ok = 0;
    }
    if (!ok) {
        tsl__free(r->arg);
        tsl__free(r);
        return NULL;
    }
    if (arg_bytes) memcpy(r->arg, arg, arg_bytes);
    r->job = job;
    r->cleanup = cleanup;
    r->refs = 1;
    r->count = g->count;
    r->timeout_s = g->timeout_s;
    for (size_t i = 0; i < g->count; ++i) {
        r->dev[i] = tsl__gdev_retain(g->dev[i]);
        r->member[i] = member[i];
        r->active += member[i] != 0;
    }
    r->fault_device = tsl__fault_target("TESSEL_FAULT_DEVICE", &r->fault_mode);
    return r;
}

void tsl__run_discard(tsl__run *r)
{
    if (r) run_free(r);
}

void *tsl__run_job(tsl__run *r)
{
    return r->arg;
}

tsl_context *tsl__run_ctx(tsl__run *r, size_t i)
{
    return r->dev[i]->ctx;
}

size_t tsl__run_active(const tsl__run *r)
{
    return r->active;
}

double tsl__run_timeout(const tsl__run *r)
{
    return r->timeout_s;
}

tsl_group_part *tsl__run_part(tsl__run *r, size_t i)
{
    return &r->parts[i];
}

/* ---- failures ----------------------------------------------------------------------------------
 */

/* The first failure of the call is its cause; later ones (devices stopped by the abort) are
 * not. Called with r->mu held. */
static void record_failure(tsl__run *r, tsl_status s, const char *msg)
{
    if (r->first_status == TSL_OK) {
        r->first_status = s != TSL_OK ? s : TSL_ERR_OPENCL;
        snprintf(r->error, sizeof r->error, "%s", msg);
    }
    r->abort = 1;
    pthread_cond_broadcast(&r->cv);
}

tsl_status tsl__run_stop_status(tsl__run *r, size_t i)
{
    return tsl__fail(r->dev[i]->ctx, TSL_ERR_OPENCL, "stopped: another device failed");
}

int tsl__run_stopped(tsl__run *r)
{
    pthread_mutex_lock(&r->mu);
    int stop = r->abort || r->closed;
    pthread_mutex_unlock(&r->mu);
    return stop;
}

int tsl__run_enter(tsl__run *r)
{
    pthread_mutex_lock(&r->mu);
    int refused = r->abort || r->closed;
    if (!refused) r->touching++;
    pthread_mutex_unlock(&r->mu);
    return refused;
}

void tsl__run_leave(tsl__run *r)
{
    pthread_mutex_lock(&r->mu);
    if (--r->touching == 0) pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
}

/* The names of the member devices for which late[j] is set, into out. */
static void late_devices(tsl__run *r, const int *late, char *out, size_t cap)
{
    out[0] = '\0';
    for (size_t j = 0; j < r->count; ++j) {
        if (!r->member[j] || !late[j]) continue;
        char label[200];
        tsl__device_label(&r->dev[j]->info, j, label, sizeof label);
        size_t used = strlen(out);
        snprintf(out + used, cap - used, "%s%s", used ? ", " : "", label);
    }
}

/* ---- waits -------------------------------------------------------------------------------------
 */

tsl_status tsl__run_barrier(tsl__run *r, size_t me, const char *what)
{
    pthread_mutex_lock(&r->mu);
    if (r->abort) {
        pthread_mutex_unlock(&r->mu);
        return tsl__run_stop_status(r, me);
    }
    unsigned long gen = r->bar_gen;
    r->arrived[me] = gen + 1;
    if (++r->bar_count == r->active) {
        r->bar_count = 0;
        r->bar_gen++;
        r->last_progress_ms = tsl__now_ms();
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
        return TSL_OK;
    }
    struct timespec deadline = tsl__deadline_after_ms(r->timeout_s * 1e3);
    r->waiting[me] = 1;
    while (r->bar_gen == gen && !r->abort) {
        int rc = pthread_cond_timedwait(&r->cv, &r->mu, &deadline);
        if (rc == ETIMEDOUT && r->bar_gen == gen && !r->abort) {
            int late[GROUP_MAX];
            for (size_t j = 0; j < r->count; ++j)
                late[j] = r->arrived[j] != gen + 1;
            char names[1200], msg[1600];
            late_devices(r, late, names, sizeof names);
            snprintf(msg, sizeof msg,
                     "%s did not reach %s within %g s (timed out: the device does not answer; "
                     "the limit is $TESSEL_TIMEOUT or --timeout)",
                     names, what, r->timeout_s);
            record_failure(r, TSL_ERR_OPENCL, msg);
        }
    }
    int passed = r->bar_gen != gen;
    r->waiting[me] = 0;
    pthread_mutex_unlock(&r->mu);
    return passed ? TSL_OK : tsl__run_stop_status(r, me);
}

/* TESSEL_FAULT_DEVICE=I makes device I's worker fail here with an OpenCL error, I:hang makes it
 * stop answering (until the call is aborted); the modes I:calibrate and I:calibrate-hang do the
 * same in the calibration only (calibrating = 1). */
tsl_status tsl__run_fault_point(tsl__run *r, size_t i, int calibrating)
{
    int in_calibration = r->fault_mode == 3 || r->fault_mode == 4;
    if ((int)i != r->fault_device || r->fault_mode >= 5 || in_calibration != calibrating)
        return TSL_OK;
    pthread_mutex_lock(&r->mu);
    int fire = !r->fault_fired;
    r->fault_fired = 1;
    int hang = r->fault_mode == 1 || r->fault_mode == 4;
    if (fire && hang)
        while (!r->abort && !r->closed)
            pthread_cond_wait(&r->cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
    if (!fire) return TSL_OK;
    if (hang) return tsl__run_stop_status(r, i);
    return tsl__fail(r->dev[i]->ctx, TSL_ERR_OPENCL,
                     "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5) (a fault injected "
                     "by TESSEL_FAULT_DEVICE=%s)",
                     getenv("TESSEL_FAULT_DEVICE"));
}

static void *worker_main(void *p)
{
    tsl__run *r = ((struct worker_arg *)p)->r;
    size_t i = ((struct worker_arg *)p)->i;
    tsl_status s = r->job(r, i);
    pthread_mutex_lock(&r->mu);
    if (s != TSL_OK && !r->abort) {
        char label[200], msg[2048];
        tsl__device_label(&r->dev[i]->info, i, label, sizeof label);
        snprintf(msg, sizeof msg, "%s: %s", label, tsl_context_error(r->dev[i]->ctx));
        record_failure(r, s, msg);
    } else if (s != TSL_OK) {
        r->abort = 1;
    }
    r->finished[i] = 1;
    r->nfinished++;
    r->last_progress_ms = tsl__now_ms();
    pthread_cond_broadcast(&r->cv);
    release_locked(r); /* the worker's reference: the run may be freed here */
    return NULL;
}

/* The wait ends when every worker is back; when nothing happened for the timeout (no worker
 * finished, no barrier passed) the call is aborted, and workers still out a timeout after that
 * are left behind. */
tsl_status tsl__run_go(tsl_group *g, tsl__run *r)
{
    r->last_progress_ms = tsl__now_ms();
    pthread_mutex_lock(&r->mu);
    for (size_t i = 0; i < r->count; ++i) {
        if (!r->member[i]) continue;
        r->wargs[i].r = r;
        r->wargs[i].i = i;
        r->refs++; /* the worker's */
        if (pthread_create(&r->thread[i], NULL, worker_main, &r->wargs[i]) != 0) {
            r->refs--;
            record_failure(r, TSL_ERR_OUT_OF_MEMORY,
                           "pthread_create failed: no thread for a device");
            break;
        }
        r->started[i] = 1;
        r->nstarted++;
    }
    double abort_at = -1;
    while (r->nfinished < r->nstarted) {
        if (r->abort && abort_at < 0) abort_at = tsl__now_ms();
        double since = abort_at >= 0 ? abort_at : r->last_progress_ms;
        double wait_ms = since + r->timeout_s * 1e3 - tsl__now_ms();
        if (wait_ms <= 0) {
            if (abort_at >= 0) break; /* stragglers after the abort: leave them */
            int late[GROUP_MAX], any = 0;
            for (size_t j = 0; j < r->count; ++j)
                any |= late[j] = r->started[j] && !r->finished[j] && !r->waiting[j];
            for (size_t j = 0; !any && j < r->count; ++j)
                late[j] = r->started[j] && !r->finished[j];
            char names[1200], msg[1600];
            late_devices(r, late, names, sizeof names);
            snprintf(msg, sizeof msg,
                     "%s did not finish its part within %g s (timed out: the device does not "
                     "answer; the limit is $TESSEL_TIMEOUT or --timeout)",
                     names, r->timeout_s);
            record_failure(r, TSL_ERR_OPENCL, msg);
            continue;
        }
        struct timespec deadline = tsl__deadline_after_ms(wait_ms < 1e3 ? wait_ms : 1e3);
        pthread_cond_timedwait(&r->cv, &r->mu, &deadline);
    }
    int left_behind = r->nfinished < r->nstarted;
    if (left_behind) {
        /* No worker touches the caller's arrays once the call has returned: those inside leave
         * (a host copy, or a transfer of a CPU device) before it does. */
        r->closed = 1;
        pthread_cond_broadcast(&r->cv);
        while (r->touching > 0)
            pthread_cond_wait(&r->cv, &r->mu);
    }
    for (size_t i = 0; i < r->count; ++i) {
        if (!r->started[i]) continue;
        if (r->finished[i]) {
            pthread_mutex_unlock(&r->mu);
            pthread_join(r->thread[i], NULL);
            pthread_mutex_lock(&r->mu);
        } else {
            pthread_detach(r->thread[i]); /* it frees what it holds when it comes back */
        }
    }
    tsl_status s = r->first_status;
    if (s != TSL_OK) tsl__group_fail(g, s, "%s", r->error);
    pthread_mutex_unlock(&r->mu);
    if (left_behind && g->nleft < GROUP_MAX) { /* the caller's reference passes to the group */
        r->kept = 1;
        g->left[g->nleft++] = r;
    }
    return s;
}

void tsl__run_end(tsl_group *g, tsl__run *r)
{
    (void)g;
    if (!r || r->kept) return;
    pthread_mutex_lock(&r->mu);
    release_locked(r);
}

/* Whether every worker the run started has come back. */
static int run_done(tsl__run *r)
{
    pthread_mutex_lock(&r->mu);
    int done = r->nfinished == r->nstarted;
    pthread_mutex_unlock(&r->mu);
    return done;
}

static void drop_left(tsl_group *g, size_t k)
{
    tsl__run *r = g->left[k];
    g->left[k] = g->left[--g->nleft];
    pthread_mutex_lock(&r->mu);
    release_locked(r);
}

int tsl__group_busy(tsl_group *g)
{
    for (size_t k = g->nleft; k-- > 0;)
        if (run_done(g->left[k])) drop_left(g, k);
    return g->nleft > 0;
}

void tsl__group_let_go(tsl_group *g, double seconds)
{
    struct timespec deadline = tsl__deadline_after_ms(seconds * 1e3);
    while (g->nleft > 0) {
        tsl__run *r = g->left[g->nleft - 1];
        pthread_mutex_lock(&r->mu);
        int rc = 0;
        while (r->nfinished < r->nstarted && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&r->cv, &r->mu, &deadline);
        pthread_mutex_unlock(&r->mu);
        drop_left(g, g->nleft - 1); /* a worker still out frees the run when it comes back */
    }
}
