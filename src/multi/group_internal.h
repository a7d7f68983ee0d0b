/* group_internal.h: what the files of the multi-device group share (docs/multi-device.md): the
 * group itself (multi/group.c: lifecycle, weights' bookkeeping; multi/group_common.c: its
 * messages), its devices, and the run of one call across worker threads (multi/group_run.c),
 * which the calibration (multi/group_calibrate.c), GEMM (multi/group_gemm.c) and Poisson
 * (multi/group_poisson.c) build on.
 *
 * Lifetimes. A worker thread may outlive the call that started it: a call stops waiting for a
 * device that does not answer within the timeout, and nothing can take a thread back from a
 * driver call. So everything a worker uses is reference-counted and freed by whoever lets go of
 * it last: the run (its job, results and synchronisation) by the caller and each worker; each
 * device (its context) by the group and each run it takes part in. A worker never touches the
 * group, and touches the caller's arrays only inside tsl__run_enter / tsl__run_leave, which a
 * call that stops waiting closes (waiting for those inside to leave) before it returns. */
#ifndef TSL_OPS_GROUP_INTERNAL_H
#define TSL_OPS_GROUP_INTERNAL_H

#include <pthread.h>

#include "multi/group.h"

#define GROUP_MAX 16
#define MAX_CALIBRATIONS 8

/* One device of a group: its context, shared by the group and the runs that use it. */
typedef struct {
    tsl_context *ctx;
    tsl_device_info info;
    int refs; /* under a lock of group_run.c */
} tsl__gdev;
tsl__gdev *tsl__gdev_retain(tsl__gdev *d);
void tsl__gdev_release(tsl__gdev *d); /* the last one destroys the context; NULL is a no-op */

typedef struct tsl__run tsl__run;

struct tsl_group {
    size_t count;
    tsl__gdev *dev[GROUP_MAX];
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
    /* calls that stopped waiting for some of their workers: the group holds them until those
     * come back (it refuses calls meanwhile), and destroy waits for them a while */
    tsl__run *left[GROUP_MAX];
    size_t nleft;
    char error[2048];
    char warning[1200]; /* tsl_group_warning */
    tsl_group_times times;
    tsl_group_part parts[GROUP_MAX];
};

/* ---- group_common.c and group.c -------------------------------------------------------------- */
tsl_status tsl__group_fail(tsl_group *g, tsl_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "device 1 (0:1 NAME)", how every message names a device. */
void tsl__device_label(const tsl_device_info *info, size_t i, char *out, size_t cap);
/* Common start of a call: a usable group (no worker of an earlier call still out), fp64 on every
 * device that gets rows (rows may be NULL). Clears the error, the times and the parts. */
tsl_status tsl__group_begin(tsl_group *g, const char *fn, int dbl, const size_t *rows);

/* ---- group_run.c: one call on one worker thread per member device ---------------------------- */
typedef tsl_status (*tsl__job_fn)(tsl__run *r, size_t i);
/* A run of job on the devices member[i] != 0 names; the run keeps its own copy of the job's
 * bytes (job, job_bytes), which every worker reads through tsl__run_job and the caller reads
 * back once the run is over. cleanup (may be NULL) is called on that copy when the run is freed,
 * while its devices are still held. */
tsl__run *tsl__run_new(tsl_group *g, tsl__job_fn job, const void *arg, size_t arg_bytes,
                       void (*cleanup)(tsl__run *r, void *arg), const int *member);
/* Starts the workers and waits for them (docs/multi-device.md): the call's status, with the
 * message in g->error. Whatever it returns, the caller then reads what it needs from the run and
 * ends it with tsl__run_end. */
tsl_status tsl__run_go(tsl_group *g, tsl__run *r);
void tsl__run_end(tsl_group *g, tsl__run *r);
/* Frees a run that was never started. */
void tsl__run_discard(tsl__run *r);

void *tsl__run_job(tsl__run *r);
tsl_context *tsl__run_ctx(tsl__run *r, size_t i);
size_t tsl__run_active(const tsl__run *r);
double tsl__run_timeout(const tsl__run *r);
tsl_group_part *tsl__run_part(tsl__run *r, size_t i); /* copied to the group after a success */
/* Waits until every member device reached this point (what says where), the call was aborted,
 * or the timeout passed, which fails the call naming the devices that did not arrive. */
tsl_status tsl__run_barrier(tsl__run *r, size_t me, const char *what);
/* Nonzero once the call was aborted (a device failed or timed out) or abandoned. */
int tsl__run_stopped(tsl__run *r);
/* The status a worker returns when the call stopped for another device's reason. */
tsl_status tsl__run_stop_status(tsl__run *r, size_t i);
/* Brackets a use of the caller's arrays: enter returns nonzero (and nothing is to be touched)
 * when the call was aborted or has stopped waiting; leave ends the use. */
int tsl__run_enter(tsl__run *r);
void tsl__run_leave(tsl__run *r);
/* The test hook of docs/multi-device.md (TESSEL_FAULT_DEVICE); calibrating = 1 in calibration. */
tsl_status tsl__run_fault_point(tsl__run *r, size_t i, int calibrating);
/* Nonzero while a worker of an earlier call is still out; collects those that came back. */
int tsl__group_busy(tsl_group *g);
/* Waits up to `seconds` for the workers of the runs left behind, then lets go of those runs
 * (a worker still out frees its run, and so what the run holds, when it comes back). */
void tsl__group_let_go(tsl_group *g, double seconds);

/* ---- group_calibrate.c ----------------------------------------------------------------------- */
/* The normalized weights of op at this precision under the group's rule (calibrating first when
 * needed); a note in g->warning when they fell back to compute units. */
tsl_status tsl__group_weights(tsl_group *g, const char *op, int dbl, double *w);

#endif
