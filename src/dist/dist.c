/* dist.c: the MPI layer of tessel (dist.h, docs/multi-device.md). One device per rank; rank 0
 * holds the caller's data. GEMM: 1D row distribution (rank r gets a block of rows of op(A) and
 * C, every rank with rows gets all of B through a binomial tree of point-to-point messages),
 * each rank runs tsl_[sd]gemm on its block, rank 0 gathers the blocks of C. Poisson: row strips
 * with halo rows (ops/poisson.c's strip solver, as the multi-device group uses it), halo rows
 * exchanged with the two neighbouring ranks after every launch, the residual reduced through the
 * first rank with rows, the owned rows gathered on rank 0 at the end.
 *
 * Communication is point-to-point only, each message nonblocking and completed by a polling
 * loop with a deadline (wait_set), so every wait names the ranks it waits for when it times
 * out, and rank 0 notices a failure another rank reports (tag TAG_FAIL) at its next wait. Large
 * messages go in chunks of at most 1 GiB (MPI counts are ints). Collectives of MPI are not used
 * for the data: they cannot be bounded by a timeout or tell which rank is missing. */
#define _POSIX_C_SOURCE 200809L
#include "dist/dist.h"

#include <math.h>
#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ops/group.h"

#define CHUNK (1u << 30)
#define MAX_CALIBRATIONS 8

enum {
    TAG_INFO = 1,
    TAG_WEIGHT,
    TAG_A,
    TAG_B,
    TAG_C,
    TAG_C_BACK,
    TAG_PART,
    TAG_HALO_UP,   /* rows sent to the rank above (lower rank) */
    TAG_HALO_DOWN, /* rows sent to the rank below */
    TAG_RES,
    TAG_RES_BACK,
    TAG_GRID,
    TAG_GRID_BACK,
    TAG_SYNC,
    TAG_HALO_DEPTH,
    TAG_FAIL = 99
};

struct tsl_dist {
    int rank, size, local_rank, shared;
    tsl_context *ctx;
    tsl_device_info *infos; /* every rank's device */
    double timeout_s;
    tsl_weights how;
    double *given;
    struct {
        char op[16];
        int dbl;
        double *w;
        char note[1200]; /* why these are compute-unit weights, "" when measured */
    } calibrated[MAX_CALIBRATIONS];
    int ncalibrated;
    char error[2048];
    char warning[1200]; /* tsl_dist_warning: rank 0's note on the weights */
    tsl_group_times times;
    tsl_group_part *parts; /* size entries: rank 0 has every rank's after a call */
    double *phase;         /* each rank's time of the call's device phase (gathered likewise) */
    int fault_mode, fault_fired, fault_target;
};

/* ---- errors -----------------------------------------------------------------------------------
 */

static char crash_line[512]; /* written by the signal handler: preformatted */

static void label(const tsl_dist *d, int r, char *out, size_t cap)
{
    const tsl_device_info *i = &d->infos[r];
    snprintf(out, cap, "rank %d (%d:%d %s)", r, i->platform_index, i->device_index, i->name);
}

static tsl_status dist_fail(tsl_dist *d, tsl_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static tsl_status dist_fail(tsl_dist *d, tsl_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->error, sizeof d->error, fmt, ap);
    va_end(ap);
    return s;
}

/* An MPI call that failed: its error string, from this rank. */
static tsl_status mpi_fail(tsl_dist *d, const char *call, int rc)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, text, &len);
    char me[300];
    label(d, d->rank, me, sizeof me);
    return dist_fail(d, TSL_ERR_OPENCL, "%s: %s failed: %s", me, call, text);
}

static void on_fatal_signal(int sig)
{
    char line[600];
    size_t n = strlen(crash_line);
    memcpy(line, crash_line, n);
    /* the signal's name, without stdio (async-signal-safe) */
    const char *name = sig == SIGSEGV   ? "SIGSEGV"
                       : sig == SIGBUS  ? "SIGBUS"
                       : sig == SIGFPE  ? "SIGFPE"
                       : sig == SIGILL  ? "SIGILL"
                       : sig == SIGABRT ? "SIGABRT"
                                        : "a fatal signal";
    size_t len = strlen(name);
    memcpy(line + n, name, len);
    n += len;
    line[n++] = '\n';
    ssize_t ignored = write(2, line, n);
    (void)ignored;
    _exit(3);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pause_briefly(long ns)
{
    struct timespec ts = {0, ns};
    nanosleep(&ts, NULL);
}

/* A rank other than 0 failed: tell rank 0 (which reports it and stops the job), then wait to be
 * stopped; if rank 0 does not (it may be the rank that hangs), report it here and stop the job. */
static void rank_failed(tsl_dist *d) __attribute__((noreturn));
static void rank_failed(tsl_dist *d)
{
    MPI_Request req;
    int len = (int)strlen(d->error) + 1;
    if (MPI_Isend(d->error, len, MPI_CHAR, 0, TAG_FAIL, MPI_COMM_WORLD, &req) == MPI_SUCCESS) {
        double until = now_s() + d->timeout_s;
        int done = 0;
        while (now_s() < until) {
            if (!done) MPI_Test(&req, &done, MPI_STATUS_IGNORE);
            pause_briefly(1000000);
        }
    }
    fprintf(stderr, "tessel: error: %s (rank 0 did not stop the job)\n", d->error);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
    _exit(3);
}

/* The status a call returns: on rank 0 as it is; elsewhere a failure never comes back. */
static tsl_status settle(tsl_dist *d, tsl_status s)
{
    if (s != TSL_OK && d->rank != 0) rank_failed(d);
    return s;
}

static tsl_status context_fail(tsl_dist *d, tsl_status s)
{
    char me[300];
    label(d, d->rank, me, sizeof me);
    char msg[1800];
    snprintf(msg, sizeof msg, "%s", tsl_context_error(d->ctx));
    return dist_fail(d, s, "%s: %s", me, msg);
}

/* ---- requests: post, then wait with a deadline ---------------------------------------------- */

typedef struct {
    MPI_Request *req;
    int *peer;
    int n, cap;
} reqset;

static int rs_push(reqset *rs, MPI_Request r, int peer)
{
    if (rs->n == rs->cap) {
        int cap = rs->cap ? 2 * rs->cap : 16;
        MPI_Request *nr = realloc(rs->req, (size_t)cap * sizeof *nr);
        if (!nr) return -1;
        rs->req = nr;
        int *np = realloc(rs->peer, (size_t)cap * sizeof *np);
        if (!np) return -1;
        rs->peer = np;
        rs->cap = cap;
    }
    rs->req[rs->n] = r;
    rs->peer[rs->n++] = peer;
    return 0;
}

static void rs_free(reqset *rs)
{
    for (int i = 0; i < rs->n; ++i)
        if (rs->req[i] != MPI_REQUEST_NULL) {
            MPI_Cancel(&rs->req[i]);
            MPI_Request_free(&rs->req[i]);
        }
    free(rs->req);
    free(rs->peer);
    memset(rs, 0, sizeof *rs);
}

static tsl_status post(tsl_dist *d, reqset *rs, int send, void *buf, size_t bytes, int peer,
                       int tag)
{
    for (size_t off = 0; off < bytes || (off == 0 && bytes == 0); off += CHUNK) {
        int count = (int)(bytes - off < CHUNK ? bytes - off : CHUNK);
        MPI_Request r;
        int rc = send
                     ? MPI_Isend((char *)buf + off, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r)
                     : MPI_Irecv((char *)buf + off, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r);
        if (rc != MPI_SUCCESS) return mpi_fail(d, send ? "MPI_Isend" : "MPI_Irecv", rc);
        if (rs_push(rs, r, peer) != 0)
            return dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank %d: out of host memory", d->rank);
        if (bytes == 0) break;
    }
    return TSL_OK;
}

/* Rank 0: a failure another rank reported, if one arrived. */
static tsl_status check_reports(tsl_dist *d)
{
    if (d->rank != 0) return TSL_OK;
    int flag = 0;
    MPI_Status st;
    if (MPI_Iprobe(MPI_ANY_SOURCE, TAG_FAIL, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS || !flag)
        return TSL_OK;
    char msg[2048] = "";
    int count = 0;
    MPI_Get_count(&st, MPI_CHAR, &count);
    if (count > (int)sizeof msg) count = (int)sizeof msg;
    MPI_Recv(msg, count, MPI_CHAR, st.MPI_SOURCE, TAG_FAIL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    msg[sizeof msg - 1] = '\0';
    return dist_fail(d, TSL_ERR_OPENCL, "%s", msg);
}

/* Completes every request of rs, or fails: an MPI error, a failure another rank reported (rank
 * 0), or the timeout, which names the ranks whose messages did not come. Frees rs. */
static tsl_status wait_set(tsl_dist *d, reqset *rs, const char *what)
{
    double start = now_s(), deadline = start + d->timeout_s;
    tsl_status s = TSL_OK;
    for (;;) {
        int done = 0;
        int rc = rs->n ? MPI_Testall(rs->n, rs->req, &done, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
        if (!rs->n) done = 1;
        if (rc != MPI_SUCCESS) {
            s = mpi_fail(d, "MPI_Testall", rc);
            break;
        }
        if (done) break;
        if ((s = check_reports(d)) != TSL_OK) break;
        double t = now_s();
        if (t > deadline) {
            char names[1500] = "";
            for (int i = 0; i < rs->n; ++i) {
                int flag = 0;
                if (rs->req[i] != MPI_REQUEST_NULL) MPI_Test(&rs->req[i], &flag, MPI_STATUS_IGNORE);
                if (rs->req[i] == MPI_REQUEST_NULL) continue;
                char who[300];
                label(d, rs->peer[i], who, sizeof who);
                if (strstr(names, who)) continue;
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", who);
            }
            char me[300];
            label(d, d->rank, me, sizeof me);
            s = dist_fail(d, TSL_ERR_OPENCL,
                          "%s did not answer %s within %g s (timed out; %s waited for it: the "
                          "rank hangs or is gone; the limit is $TESSEL_TIMEOUT or --timeout)",
                          names, what, d->timeout_s, me);
            break;
        }
        if (t - start > 2e-3) pause_briefly(50000); /* spin for the first 2 ms: halo latency */
    }
    rs_free(rs);
    return s;
}

/* One message each way, waited for at once. */
static tsl_status exchange_with(tsl_dist *d, const char *what, int peer, int tag, void *sendbuf,
                                size_t sbytes, void *recvbuf, size_t rbytes)
{
    reqset rs = {0};
    tsl_status s = TSL_OK;
    if (sendbuf) s = post(d, &rs, 1, sendbuf, sbytes, peer, tag);
    if (s == TSL_OK && recvbuf) s = post(d, &rs, 0, recvbuf, rbytes, peer, tag);
    if (s != TSL_OK) {
        rs_free(&rs);
        return s;
    }
    return wait_set(d, &rs, what);
}

/* ---- create, weights ------------------------------------------------------------------------ */

tsl_status tsl_dist_create(const char *device_spec, double timeout_s, tsl_dist **out, char *err,
                           size_t cap)
{
    *out = NULL;
    int inited = 0, rc;
    MPI_Initialized(&inited);
    if (!inited && (rc = MPI_Init(NULL, NULL)) != MPI_SUCCESS) {
        snprintf(err, cap, "MPI_Init failed (error %d)", rc);
        return TSL_ERR_OPENCL;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    tsl_dist *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, cap, "out of host memory");
        return TSL_ERR_OUT_OF_MEMORY;
    }
    d->timeout_s = timeout_s > 0 ? timeout_s : tsl__default_timeout();
    d->how = TSL_WEIGHTS_CALIBRATE;
    d->fault_target = tsl__fault_target("TESSEL_FAULT_RANK", &d->fault_mode);
    MPI_Comm_rank(MPI_COMM_WORLD, &d->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &d->size);
    d->infos = calloc((size_t)d->size, sizeof *d->infos);
    d->parts = calloc((size_t)d->size, sizeof *d->parts);
    d->given = calloc((size_t)d->size, sizeof *d->given);
    d->phase = calloc((size_t)d->size, sizeof *d->phase);
    if (!d->infos || !d->parts || !d->given || !d->phase) {
        snprintf(err, cap, "rank %d: out of host memory", d->rank);
        return TSL_ERR_OUT_OF_MEMORY; /* d leaks: the caller aborts */
    }
    /* The rank on this host: the startup collective of MPI, before any device work. */
    MPI_Comm local;
    int local_size = 1;
    if ((rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, d->rank, MPI_INFO_NULL,
                                  &local)) == MPI_SUCCESS) {
        MPI_Comm_rank(local, &d->local_rank);
        MPI_Comm_size(local, &local_size);
    } else {
        snprintf(err, cap, "rank %d: MPI_Comm_split_type failed (error %d)", d->rank, rc);
        return TSL_ERR_OPENCL;
    }
    tsl_device_info found[64];
    int count = tsl__matching_devices(device_spec, found, 64);
    tsl_status s = TSL_OK;
    if (count == 0) {
        snprintf(d->error, sizeof d->error,
                 "rank %d: no device matches '%s' on this host: check 'tessel devices' there",
                 d->rank, device_spec && *device_spec ? device_spec : "(the GPUs, else any)");
        s = TSL_ERR_NO_DEVICE;
    } else {
        const tsl_device_info *pick = &found[d->local_rank % (count < 64 ? count : 64)];
        char spec[32];
        snprintf(spec, sizeof spec, "%d:%d", pick->platform_index, pick->device_index);
        s = tsl_context_create(spec, &d->ctx);
        if (s != TSL_OK)
            snprintf(d->error, sizeof d->error, "rank %d: device %s: %s", d->rank, spec,
                     tsl_last_error());
        else
            tsl_context_device(d->ctx, &d->infos[d->rank]);
    }
    /* Ranks of this host that picked the same device (more ranks than matching devices, or a
     * spec that names one device for all): counted from every local rank's actual pick. */
    {
        int mine[2] = {-1, -1};
        if (count > 0) {
            const tsl_device_info *pick = &found[d->local_rank % (count < 64 ? count : 64)];
            mine[0] = pick->platform_index;
            mine[1] = pick->device_index;
        }
        int *all = malloc(2 * sizeof(int) * (size_t)local_size);
        if (all && MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, local) == MPI_SUCCESS) {
            int same = 0;
            for (int r = 0; r < local_size; ++r)
                same += mine[0] >= 0 && all[2 * r] == mine[0] && all[2 * r + 1] == mine[1];
            d->shared = same > 1 ? same : 0;
        }
        free(all);
        MPI_Comm_free(&local);
    }
    if (s != TSL_OK) {
        snprintf(err, cap, "%s", d->error);
        if (d->rank != 0) { /* the infos are not known yet: label() would read zeros */
            snprintf(d->infos[d->rank].name, sizeof d->infos[0].name, "no device");
            rank_failed(d);
        }
        return s;
    }
    /* The crash line names this rank and its device. */
    char me[300];
    label(d, d->rank, me, sizeof me);
    snprintf(crash_line, sizeof crash_line, "tessel: error: %s died: ", me);
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; ++i) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
    /* Every rank learns every rank's device: rank 0 gathers, then sends the whole table. */
    size_t isz = sizeof(tsl_device_info);
    reqset rs = {0};
    if (d->rank == 0) {
        for (int r = 1; s == TSL_OK && r < d->size; ++r)
            s = post(d, &rs, 0, &d->infos[r], isz, r, TAG_INFO);
        if (s == TSL_OK) s = wait_set(d, &rs, "the start (device descriptions)");
        for (int r = 1; s == TSL_OK && r < d->size; ++r)
            s = post(d, &rs, 1, d->infos, isz * (size_t)d->size, r, TAG_INFO);
        if (s == TSL_OK) s = wait_set(d, &rs, "the start (device table)");
    } else {
        s = exchange_with(d, "the start (device descriptions)", 0, TAG_INFO, &d->infos[d->rank],
                          isz, NULL, 0);
        if (s == TSL_OK)
            s = exchange_with(d, "the start (device table)", 0, TAG_INFO, NULL, 0, d->infos,
                              isz * (size_t)d->size);
    }
    rs_free(&rs);
    if (s != TSL_OK) {
        snprintf(err, cap, "%s", d->error);
        settle(d, s);
        return s;
    }
    *out = d;
    return TSL_OK;
}

int tsl_dist_rank(const tsl_dist *d)
{
    return d->rank;
}

int tsl_dist_size(const tsl_dist *d)
{
    return d->size;
}

int tsl_dist_shared(const tsl_dist *d)
{
    return d->shared;
}

tsl_context *tsl_dist_context(tsl_dist *d)
{
    return d->ctx;
}

const tsl_device_info *tsl_dist_device(const tsl_dist *d, int r)
{
    return &d->infos[r];
}

const char *tsl_dist_error(const tsl_dist *d)
{
    return d->error;
}

const char *tsl_dist_warning(const tsl_dist *d)
{
    return d->warning;
}

void tsl_dist_abort(tsl_dist *d, int code)
{
    fflush(stdout);
    fflush(stderr);
    /* Every rank finds an error of the arguments alike; rank 0 reports it and stops the job, so
     * the others give it that time before they stop the job themselves. */
    if (d && d->rank != 0)
        for (double until = now_s() + d->timeout_s; now_s() < until;)
            pause_briefly(10000000);
    MPI_Abort(MPI_COMM_WORLD, code);
    _exit(code);
}

void tsl_dist_finish(tsl_dist *d)
{
    if (d) {
        tsl_context_destroy(d->ctx);
        for (int c = 0; c < d->ncalibrated; ++c)
            free(d->calibrated[c].w);
        free(d->infos);
        free(d->parts);
        free(d->given);
        free(d->phase);
        free(d);
    }
    MPI_Finalize();
}

tsl_status tsl_dist_set_weights(tsl_dist *d, tsl_weights how, const double *weights, size_t count)
{
    if (how == TSL_WEIGHTS_GIVEN) {
        double sum = 0;
        if (!weights || count != (size_t)d->size)
            return dist_fail(d, TSL_ERR_INVALID_ARG, "%zu weights for %d ranks", count, d->size);
        for (size_t i = 0; i < count; ++i) {
            if (!isfinite(weights[i]) || weights[i] < 0)
                return dist_fail(d, TSL_ERR_INVALID_ARG, "weight %zu = %g must be a number >= 0", i,
                                 weights[i]);
            sum += weights[i];
        }
        if (!(sum > 0)) return dist_fail(d, TSL_ERR_INVALID_ARG, "the weights add up to %g", sum);
        for (size_t i = 0; i < count; ++i)
            d->given[i] = weights[i] / sum;
    }
    d->how = how;
    return TSL_OK;
}

/* Every rank measures its device at once; rank 0 turns the scores into weights and sends them,
 * so every rank splits alike. A rank whose calibration fails with an error says so instead of a
 * score, and rank 0 then splits by compute units x clock (every rank's device is known) with a
 * note naming the rank: the job goes on, and the call itself reports that rank's device if it
 * fails again. A rank that does not answer is a failure as everywhere else: it could not take
 * part in the call either. */
typedef struct {
    double score;
    int failed;
    char error[600];
} calibration_record;

static tsl_status calibrate(tsl_dist *d, const char *op, int dbl, double *w, char *note, size_t cap)
{
    calibration_record mine;
    memset(&mine, 0, sizeof mine);
    note[0] = '\0';
    tsl_status s = TSL_OK;
    if (d->rank == d->fault_target && d->fault_mode == 3) { /* the test hook */
        mine.failed = 1;
        snprintf(mine.error, sizeof mine.error,
                 "clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5) (a fault injected by "
                 "TESSEL_FAULT_RANK=%d:calibrate)",
                 d->rank);
    } else if (tsl__calibrate(d->ctx, op, dbl, NULL, NULL, &mine.score) != TSL_OK) {
        mine.failed = 1;
        snprintf(mine.error, sizeof mine.error, "%s", tsl_context_error(d->ctx));
    }
    reqset rs = {0};
    if (d->rank == 0) {
        size_t P = (size_t)d->size;
        calibration_record *all = calloc(P, sizeof *all);
        if (!all) return dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank 0: out of host memory");
        all[0] = mine;
        for (int r = 1; s == TSL_OK && r < d->size; ++r)
            s = post(d, &rs, 0, &all[r], sizeof *all, r, TAG_WEIGHT);
        if (s == TSL_OK) s = wait_set(d, &rs, "the calibration");
        int failed = -1, nfailed = 0;
        for (int r = 0; s == TSL_OK && r < d->size; ++r)
            if (all[r].failed && nfailed++ == 0) failed = r;
        double sum = 0;
        for (int r = 0; s == TSL_OK && r < d->size; ++r) {
            double x = failed >= 0 ? tsl__compute_unit_weight(&d->infos[r]) : all[r].score;
            sum += w[r] = x > 0 && isfinite(x) ? x : 0.0;
        }
        for (int r = 0; s == TSL_OK && r < d->size; ++r)
            w[r] = sum > 0 ? w[r] / sum : 1.0 / d->size;
        if (s == TSL_OK && failed >= 0) {
            char who[300], more[64] = "";
            label(d, failed, who, sizeof who);
            all[failed].error[sizeof all[failed].error - 1] = '\0';
            if (nfailed > 1) snprintf(more, sizeof more, ", and on %d more ranks", nfailed - 1);
            snprintf(note, cap,
                     "calibrating %s failed on %s: %s%s: the rows are split by compute units x "
                     "clock (--weights cu) instead",
                     op, who, all[failed].error, more);
        }
        free(all);
        for (int r = 1; s == TSL_OK && r < d->size; ++r)
            s = post(d, &rs, 1, w, sizeof *w * (size_t)d->size, r, TAG_WEIGHT);
        if (s == TSL_OK) s = wait_set(d, &rs, "the calibration (weights)");
        rs_free(&rs);
        return s;
    }
    s = exchange_with(d, "the calibration", 0, TAG_WEIGHT, &mine, sizeof mine, NULL, 0);
    if (s == TSL_OK)
        s = exchange_with(d, "the calibration (weights)", 0, TAG_WEIGHT, NULL, 0, w,
                          sizeof *w * (size_t)d->size);
    return settle(d, s);
}

static tsl_status get_weights(tsl_dist *d, const char *op, int dbl, double *w)
{
    size_t n = (size_t)d->size;
    d->warning[0] = '\0';
    if (d->how == TSL_WEIGHTS_GIVEN) {
        memcpy(w, d->given, n * sizeof *w);
        return TSL_OK;
    }
    if (d->how == TSL_WEIGHTS_COMPUTE_UNITS) {
        double sum = 0;
        for (size_t r = 0; r < n; ++r)
            sum += w[r] = tsl__compute_unit_weight(&d->infos[r]);
        for (size_t r = 0; r < n; ++r)
            w[r] /= sum;
        return TSL_OK;
    }
    for (int c = 0; c < d->ncalibrated; ++c)
        if (strcmp(d->calibrated[c].op, op) == 0 && d->calibrated[c].dbl == dbl) {
            memcpy(w, d->calibrated[c].w, n * sizeof *w);
            snprintf(d->warning, sizeof d->warning, "%s", d->calibrated[c].note);
            return TSL_OK;
        }
    tsl_status s = calibrate(d, op, dbl, w, d->warning, sizeof d->warning);
    if (s != TSL_OK) return s;
    if (d->ncalibrated < MAX_CALIBRATIONS) {
        int c = d->ncalibrated;
        d->calibrated[c].w = malloc(n * sizeof *w);
        if (d->calibrated[c].w) {
            snprintf(d->calibrated[c].op, sizeof d->calibrated[c].op, "%s", op);
            d->calibrated[c].dbl = dbl;
            memcpy(d->calibrated[c].w, w, n * sizeof *w);
            snprintf(d->calibrated[c].note, sizeof d->calibrated[c].note, "%s", d->warning);
            d->ncalibrated++;
        }
    }
    return TSL_OK;
}

tsl_status tsl_dist_weights(tsl_dist *d, const char *op, int is_double, double *weights,
                            size_t count)
{
    if (count != (size_t)d->size)
        return dist_fail(d, TSL_ERR_INVALID_ARG, "%zu weights for %d ranks", count, d->size);
    return get_weights(d, op, is_double != 0, weights);
}

tsl_status tsl_dist_timing(const tsl_dist *d, tsl_group_times *times, tsl_group_part *parts,
                           size_t cap)
{
    if (times) *times = d->times;
    for (size_t i = 0; i < cap && i < (size_t)d->size; ++i)
        parts[i] = d->parts[i];
    return TSL_OK;
}

/* ---- shared pieces of a call ------------------------------------------------------------------
 */

/* The test hook (docs/multi-device.md): TESSEL_FAULT_RANK=R fails rank R here with an OpenCL
 * error, R:hang stops it answering, R:exit kills it (SIGABRT: the crash line, exit code 3),
 * R:kill kills it with SIGKILL (no line: what mpirun then does is documented), all at the first
 * fault point of a call (late = 0: GEMM after the rank's block, Poisson at the first
 * halo exchange); R:late fails it at the last one (late = 1: after its part, before it sends its
 * results to rank 0); R:calibrate fails its calibration instead (calibrate()). */
static tsl_status fault_point(tsl_dist *d, int late)
{
    if (d->rank != d->fault_target || d->fault_fired) return TSL_OK;
    if (late ? d->fault_mode != 5 : d->fault_mode >= 3 && d->fault_mode != 6) return TSL_OK;
    d->fault_fired = 1;
    if (d->fault_mode == 6) raise(SIGKILL);
    if (d->fault_mode == 1)
        for (;;)
            pause_briefly(100000000); /* until mpirun stops the job */
    if (d->fault_mode == 2) abort();
    char me[300];
    label(d, d->rank, me, sizeof me);
    return dist_fail(d, TSL_ERR_OPENCL,
                     "%s: clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5) (a fault "
                     "injected by TESSEL_FAULT_RANK=%s)",
                     me, getenv("TESSEL_FAULT_RANK"));
}

/* Every rank sends its part of the call and its phase time to rank 0 (the report's rows);
 * rank 0 then sets times.phase_ms to the longest phase of the ranks with rows. */
static tsl_status gather_parts(tsl_dist *d)
{
    typedef struct {
        tsl_group_part part;
        double phase;
    } record;
    size_t P = (size_t)d->size;
    record *all = calloc(P, sizeof *all);
    if (!all) return dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank %d: out of host memory", d->rank);
    all[d->rank].part = d->parts[d->rank];
    all[d->rank].phase = d->phase[d->rank];
    tsl_status s = TSL_OK;
    if (d->rank != 0) {
        s = exchange_with(d, "the end of the call (timings)", 0, TAG_PART, &all[d->rank],
                          sizeof *all, NULL, 0);
        free(all);
        return s;
    }
    reqset rs = {0};
    for (size_t r = 1; s == TSL_OK && r < P; ++r)
        s = post(d, &rs, 0, &all[r], sizeof *all, (int)r, TAG_PART);
    if (s == TSL_OK)
        s = wait_set(d, &rs, "the end of the call (timings)");
    else
        rs_free(&rs);
    d->times.phase_ms = 0;
    for (size_t r = 0; s == TSL_OK && r < P; ++r) {
        d->parts[r] = all[r].part;
        d->phase[r] = all[r].phase;
        if (d->parts[r].rows && d->phase[r] > d->times.phase_ms) d->times.phase_ms = d->phase[r];
    }
    free(all);
    return s;
}

/* Binomial-tree broadcast of bytes from list[0] to the other ranks of list (n of them). */
static tsl_status tree_broadcast(tsl_dist *d, const int *list, int n, void *buf, size_t bytes,
                                 int tag, const char *what)
{
    int me = -1;
    for (int i = 0; i < n; ++i)
        if (list[i] == d->rank) me = i;
    if (me < 0 || n < 2) return TSL_OK;
    tsl_status s = TSL_OK;
    int mask = 1;
    while (mask < n) {
        if (me & mask) {
            s = exchange_with(d, what, list[me - mask], tag, NULL, 0, buf, bytes);
            if (s != TSL_OK) return s;
            break;
        }
        mask <<= 1;
    }
    mask >>= 1;
    reqset rs = {0};
    for (; mask > 0 && s == TSL_OK; mask >>= 1)
        if (me + mask < n) s = post(d, &rs, 1, buf, bytes, list[me + mask], tag);
    if (s != TSL_OK) {
        rs_free(&rs);
        return s;
    }
    return wait_set(d, &rs, what);
}

static double now_ms(void)
{
    return now_s() * 1e3;
}

/* Packs srows runs of len elements, ld apart, into a contiguous buffer (or the reverse). */
static void pack(void *dst, const void *src, size_t srows, size_t len, size_t ld, size_t es)
{
    for (size_t r = 0; r < srows; ++r)
        memcpy((char *)dst + r * len * es, (const char *)src + r * ld * es, len * es);
}

static void unpack(void *dst, const void *src, size_t srows, size_t len, size_t ld, size_t es)
{
    for (size_t r = 0; r < srows; ++r)
        memcpy((char *)dst + r * ld * es, (const char *)src + r * len * es, len * es);
}

static size_t max1(size_t x)
{
    return x ? x : 1;
}

/* ---- GEMM --------------------------------------------------------------------------------- */

static tsl_status local_gemm(tsl_dist *d, int dbl, tsl_layout layout, tsl_trans ta, tsl_trans tb,
                             size_t m, size_t n, size_t k, double alpha, const void *a, size_t lda,
                             const void *b, size_t ldb, double beta, void *c, size_t ldc)
{
    tsl_status s =
        dbl ? tsl_dgemm(d->ctx, layout, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
            : tsl_sgemm(d->ctx, layout, ta, tb, m, n, k, (float)alpha, a, lda, b, ldb, (float)beta,
                        c, ldc);
    if (s != TSL_OK) return context_fail(d, s);
    tsl_context_timing(d->ctx, &d->parts[d->rank].timing);
    d->phase[d->rank] = d->parts[d->rank].timing.kernel_ms; /* 004's measure, as the group's */
    return TSL_OK;
}

tsl_status tsl_dist_gemm(tsl_dist *d, int dbl, tsl_layout layout, tsl_trans ta, tsl_trans tb,
                         size_t m, size_t n, size_t k, double alpha, const void *a, size_t lda,
                         const void *b, size_t ldb, double beta, void *c, size_t ldc)
{
    double t0 = now_ms();
    d->error[0] = '\0';
    memset(&d->times, 0, sizeof d->times);
    memset(d->parts, 0, (size_t)d->size * sizeof *d->parts);
    memset(d->phase, 0, (size_t)d->size * sizeof *d->phase);
    if (m == 0 || n == 0) return TSL_OK;
    size_t es = dbl ? sizeof(double) : sizeof(float), P = (size_t)d->size;
    int use_ab = k > 0 && alpha != 0.0;
    double *w = malloc(P * sizeof *w);
    size_t *rows = malloc(P * sizeof *rows), *first = malloc(P * sizeof *first);
    int *tree = malloc(P * sizeof *tree);
    void *pa = NULL, *pb = NULL, *pc = NULL, *scratch = NULL;
    reqset rs = {0};
    tsl_status s = TSL_OK;
    if (!w || !rows || !first || !tree)
        s = dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank %d: out of host memory", d->rank);
    if (s == TSL_OK) s = get_weights(d, "gemm", dbl, w);
    if (s != TSL_OK) goto done;
    tsl__split_rows(m, w, P, rows);
    int ntree = 0;
    tree[ntree++] = 0; /* the tree of B: rank 0, then every other rank with rows */
    for (size_t r = 0, f = 0; r < P; ++r) {
        first[r] = f;
        f += rows[r];
        d->parts[r].first_row = first[r];
        d->parts[r].rows = rows[r];
        d->parts[r].weight = w[r];
        if (r > 0 && rows[r]) tree[ntree++] = (int)r;
        d->times.devices += rows[r] > 0;
    }
    tsl__block bb = tsl__row_block(layout, tb, 0, k, n, ldb);
    size_t me = (size_t)d->rank;
    if (d->rank == 0) {
        /* Send each rank its block of A (and of C when beta != 0), packed. */
        size_t bytes_a = 0, bytes_c = 0;
        for (size_t r = 1; r < P; ++r) {
            tsl__block ab = tsl__row_block(layout, ta, first[r], rows[r], k, lda);
            tsl__block cb = tsl__row_block(layout, TSL_NO_TRANS, first[r], rows[r], n, ldc);
            bytes_a += use_ab && rows[r] ? ab.srows * ab.slen * es : 0;
            bytes_c += beta != 0.0 && rows[r] ? cb.srows * cb.slen * es : 0;
        }
        scratch = malloc(bytes_a + bytes_c + 1);
        int dense_b = bb.slen == ldb || bb.srows <= 1;
        if (use_ab && ntree > 1 && !dense_b) pb = malloc(bb.srows * bb.slen * es + 1);
        if (!scratch || (use_ab && ntree > 1 && !dense_b && !pb)) {
            s = dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank 0: out of host memory to send blocks");
            goto done;
        }
        char *at = scratch;
        for (size_t r = 1; s == TSL_OK && r < P; ++r) {
            if (!rows[r]) continue;
            tsl__block ab = tsl__row_block(layout, ta, first[r], rows[r], k, lda);
            tsl__block cb = tsl__row_block(layout, TSL_NO_TRANS, first[r], rows[r], n, ldc);
            if (use_ab) {
                pack(at, (const char *)a + ab.offset * es, ab.srows, ab.slen, lda, es);
                s = post(d, &rs, 1, at, ab.srows * ab.slen * es, (int)r, TAG_A);
                at += ab.srows * ab.slen * es;
            }
            if (s == TSL_OK && beta != 0.0) {
                pack(at, (const char *)c + cb.offset * es, cb.srows, cb.slen, ldc, es);
                s = post(d, &rs, 1, at, cb.srows * cb.slen * es, (int)r, TAG_C);
                at += cb.srows * cb.slen * es;
            }
        }
        if (s == TSL_OK && use_ab && ntree > 1) {
            void *src = (void *)b;
            if (!dense_b) {
                pack(pb, b, bb.srows, bb.slen, ldb, es);
                src = pb;
            }
            s = tree_broadcast(d, tree, ntree, src, bb.srows * bb.slen * es, TAG_B,
                               "the broadcast of B");
        }
        /* The sends complete before rank 0 computes: MPI moves large messages only inside MPI
         * calls, and a GEMM on the device makes none. */
        if (s == TSL_OK) s = wait_set(d, &rs, "the distribution of A and C");
        /* Rank 0's own block and the gathered ones go to a packed copy of C first, block after
         * block: the caller's C is written only once every rank has succeeded (below). */
        size_t bytes = 0;
        for (size_t r = 0; r < P; ++r)
            if (rows[r]) bytes += rows[r] * n * es;
        free(scratch);
        scratch = s == TSL_OK ? malloc(bytes + 1) : NULL;
        if (s == TSL_OK && !scratch)
            s = dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank 0: out of host memory to gather C");
        if (s == TSL_OK && rows[0]) {
            tsl__block ab = tsl__row_block(layout, ta, 0, rows[0], k, lda);
            tsl__block cb = tsl__row_block(layout, TSL_NO_TRANS, 0, rows[0], n, ldc);
            if (beta != 0.0)
                pack(scratch, (const char *)c + cb.offset * es, cb.srows, cb.slen, ldc, es);
            s = local_gemm(d, dbl, layout, ta, tb, rows[0], n, k, alpha,
                           use_ab ? (const char *)a + ab.offset * es : NULL, lda, b, ldb, beta,
                           scratch, max1(cb.slen));
        }
        if (s == TSL_OK) s = fault_point(d, 0);
        if (s == TSL_OK) s = fault_point(d, 1);
        /* Gather the blocks of C. */
        at = scratch ? (char *)scratch + rows[0] * n * es : NULL;
        for (size_t r = 1; s == TSL_OK && r < P; ++r) {
            if (!rows[r]) continue;
            s = post(d, &rs, 0, at, rows[r] * n * es, (int)r, TAG_C_BACK);
            at += rows[r] * n * es;
        }
        if (s == TSL_OK) s = wait_set(d, &rs, "the gathering of C");
    } else if (rows[me]) {
        tsl__block ab = tsl__row_block(layout, ta, first[me], rows[me], k, lda);
        tsl__block cb = tsl__row_block(layout, TSL_NO_TRANS, first[me], rows[me], n, ldc);
        pa = use_ab ? malloc(ab.srows * ab.slen * es + 1) : NULL;
        pb = use_ab ? malloc(bb.srows * bb.slen * es + 1) : NULL;
        pc = malloc(cb.srows * cb.slen * es + 1);
        if ((use_ab && (!pa || !pb)) || !pc) {
            s = dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank %d: out of host memory for its block",
                          d->rank);
            goto done;
        }
        if (use_ab) s = post(d, &rs, 0, pa, ab.srows * ab.slen * es, 0, TAG_A);
        if (s == TSL_OK && beta != 0.0) s = post(d, &rs, 0, pc, cb.srows * cb.slen * es, 0, TAG_C);
        if (s == TSL_OK && use_ab)
            s = tree_broadcast(d, tree, ntree, pb, bb.srows * bb.slen * es, TAG_B,
                               "the broadcast of B");
        if (s == TSL_OK) s = wait_set(d, &rs, "the distribution of A and C");
        if (s == TSL_OK)
            s = local_gemm(d, dbl, layout, ta, tb, rows[me], n, k, alpha, pa, max1(ab.slen), pb,
                           max1(bb.slen), beta, pc, max1(cb.slen));
        if (s == TSL_OK) s = fault_point(d, 0);
        if (s == TSL_OK) s = fault_point(d, 1);
        if (s == TSL_OK)
            s = exchange_with(d, "the gathering of C", 0, TAG_C_BACK, pc, cb.srows * cb.slen * es,
                              NULL, 0);
    }
    /* The agreement: every rank sends its end-of-call record only after its part succeeded (a
     * rank that fails reports its error instead, and rank 0 returns it from this wait), so once
     * rank 0 has every record, every rank has succeeded, and it writes C. Nothing can fail after
     * that: the blocks are already in rank 0's memory. */
    if (s == TSL_OK) {
        d->parts[me].wall_ms = now_ms() - t0;
        s = gather_parts(d);
    }
    if (s == TSL_OK && d->rank == 0) {
        char *at = scratch;
        for (size_t r = 0; r < P; ++r) {
            if (!rows[r]) continue;
            tsl__block cb = tsl__row_block(layout, TSL_NO_TRANS, first[r], rows[r], n, ldc);
            unpack((char *)c + cb.offset * es, at, cb.srows, cb.slen, ldc, es);
            at += rows[r] * n * es;
        }
    }
    if (s == TSL_OK) d->times.wall_ms = now_ms() - t0;
done:
    rs_free(&rs);
    free(w), free(rows), free(first), free(tree), free(pa), free(pb), free(pc), free(scratch);
    return settle(d, s);
}

/* ---- Poisson -------------------------------------------------------------------------------- */

typedef struct {
    tsl_dist *d;
    int dbl;
    size_t n, es, halo;
    size_t own_lo, own_hi, g0; /* global rows */
    int prev, next;            /* neighbouring ranks with rows, -1 at the grid's edge */
    int leader;                /* the first rank with rows: the residual's reduction */
    const int *active;         /* the ranks with rows, in order */
    int nactive;
    void *send_top, *send_bottom, *recv_top, *recv_bottom; /* halo rows, pinned */
} strip_comm;

static tsl_status dist_exchange(void *user, tsl__strip *strip)
{
    strip_comm *sc = user;
    tsl_dist *d = sc->d;
    tsl_status s = fault_point(d, 0);
    if (s != TSL_OK) return s;
    size_t h = sc->halo, bytes = h * sc->n * sc->es;
    size_t lo = sc->own_lo - sc->g0, hi = sc->own_hi - sc->g0; /* local rows */
    reqset rs = {0};
    if (sc->prev >= 0) {
        if ((s = tsl__strip_read(strip, lo, h, sc->send_top)) != TSL_OK) return context_fail(d, s);
        s = post(d, &rs, 1, sc->send_top, bytes, sc->prev, TAG_HALO_UP);
        if (s == TSL_OK) s = post(d, &rs, 0, sc->recv_top, bytes, sc->prev, TAG_HALO_DOWN);
    }
    if (s == TSL_OK && sc->next >= 0) {
        if ((s = tsl__strip_read(strip, hi + 1 - h, h, sc->send_bottom)) != TSL_OK) {
            rs_free(&rs);
            return context_fail(d, s);
        }
        s = post(d, &rs, 1, sc->send_bottom, bytes, sc->next, TAG_HALO_DOWN);
        if (s == TSL_OK) s = post(d, &rs, 0, sc->recv_bottom, bytes, sc->next, TAG_HALO_UP);
    }
    if (s != TSL_OK) {
        rs_free(&rs);
        return s;
    }
    if ((s = wait_set(d, &rs, "a halo exchange")) != TSL_OK) return s;
    if (sc->prev >= 0 && (s = tsl__strip_write(strip, lo - h, h, sc->recv_top)) != TSL_OK)
        return context_fail(d, s);
    if (sc->next >= 0 && (s = tsl__strip_write(strip, hi + 1, h, sc->recv_bottom)) != TSL_OK)
        return context_fail(d, s);
    return TSL_OK;
}

/* The max over the ranks with rows, through the first of them (NaN wins, as on one device). */
static tsl_status dist_reduce(void *user, double local, double *global)
{
    strip_comm *sc = user;
    tsl_dist *d = sc->d;
    if (d->rank != sc->leader) {
        tsl_status s = exchange_with(d, "a residual check", sc->leader, TAG_RES, &local,
                                     sizeof local, NULL, 0);
        if (s != TSL_OK) return s;
        return exchange_with(d, "a residual check", sc->leader, TAG_RES_BACK, NULL, 0, global,
                             sizeof *global);
    }
    double *vals = malloc((size_t)sc->nactive * sizeof *vals);
    if (!vals) return dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "out of host memory");
    reqset rs = {0};
    tsl_status s = TSL_OK;
    for (int i = 0; s == TSL_OK && i < sc->nactive; ++i)
        if (sc->active[i] != d->rank)
            s = post(d, &rs, 0, &vals[i], sizeof *vals, sc->active[i], TAG_RES);
    if (s == TSL_OK) s = wait_set(d, &rs, "a residual check");
    double m = local;
    for (int i = 0; s == TSL_OK && i < sc->nactive; ++i) {
        if (sc->active[i] == d->rank) continue;
        if (isnan(vals[i]) || isnan(m))
            m = NAN;
        else if (vals[i] > m)
            m = vals[i];
    }
    for (int i = 0; s == TSL_OK && i < sc->nactive; ++i)
        if (sc->active[i] != d->rank)
            s = post(d, &rs, 1, &m, sizeof m, sc->active[i], TAG_RES_BACK);
    if (s == TSL_OK) s = wait_set(d, &rs, "a residual check (result)");
    rs_free(&rs);
    free(vals);
    *global = m;
    return s;
}

/* The ranks with rows wait for each other (through the leader) before the timed iteration. */
static tsl_status sync_active(tsl_dist *d, const int *active, int nactive, const char *what)
{
    int leader = active[0], token = 1;
    if (d->rank != leader) {
        tsl_status s = exchange_with(d, what, leader, TAG_SYNC, &token, sizeof token, NULL, 0);
        if (s != TSL_OK) return s;
        return exchange_with(d, what, leader, TAG_SYNC, NULL, 0, &token, sizeof token);
    }
    int *tokens = malloc((size_t)nactive * sizeof *tokens);
    if (!tokens) return dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "out of host memory");
    reqset rs = {0};
    tsl_status s = TSL_OK;
    for (int i = 1; s == TSL_OK && i < nactive; ++i)
        s = post(d, &rs, 0, &tokens[i], sizeof token, active[i], TAG_SYNC);
    if (s == TSL_OK) s = wait_set(d, &rs, what);
    for (int i = 1; s == TSL_OK && i < nactive; ++i)
        s = post(d, &rs, 1, &token, sizeof token, active[i], TAG_SYNC);
    if (s == TSL_OK) s = wait_set(d, &rs, what);
    rs_free(&rs);
    free(tokens);
    return s;
}

/* The deepest halo any rank's variant needs: rank 0 collects them and sends the max back. */
static tsl_status agree_halo(tsl_dist *d, int *halo)
{
    int mine = 1;
    tsl_status s = tsl__poisson_halo(d->ctx, &mine);
    if (s != TSL_OK) return context_fail(d, s);
    if (d->rank != 0) {
        s = exchange_with(d, "the start of the solve", 0, TAG_HALO_DEPTH, &mine, sizeof mine, NULL,
                          0);
        if (s == TSL_OK)
            s = exchange_with(d, "the start of the solve", 0, TAG_HALO_DEPTH, NULL, 0, halo,
                              sizeof *halo);
        return s;
    }
    int *all = calloc((size_t)d->size, sizeof *all);
    if (!all) return dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "out of host memory");
    reqset rs = {0};
    for (int r = 1; s == TSL_OK && r < d->size; ++r)
        s = post(d, &rs, 0, &all[r], sizeof mine, r, TAG_HALO_DEPTH);
    if (s == TSL_OK) s = wait_set(d, &rs, "the start of the solve");
    *halo = mine;
    for (int r = 1; s == TSL_OK && r < d->size; ++r)
        if (all[r] > *halo) *halo = all[r];
    for (int r = 1; s == TSL_OK && r < d->size; ++r)
        s = post(d, &rs, 1, halo, sizeof *halo, r, TAG_HALO_DEPTH);
    if (s == TSL_OK) s = wait_set(d, &rs, "the start of the solve");
    rs_free(&rs);
    free(all);
    return s;
}

tsl_status tsl_dist_poisson(tsl_dist *d, int dbl, size_t n, const void *f, void *u, int max_iters,
                            double tol, tsl_poisson_info *info)
{
    double t0 = now_ms();
    d->error[0] = '\0';
    memset(&d->times, 0, sizeof d->times);
    memset(d->parts, 0, (size_t)d->size * sizeof *d->parts);
    memset(d->phase, 0, (size_t)d->size * sizeof *d->phase);
    size_t P = (size_t)d->size, es = dbl ? sizeof(double) : sizeof(float), pitch = n * es;
    if (n < 3 || max_iters < 0 || !(tol >= 0))
        return settle(d, dist_fail(d, TSL_ERR_INVALID_ARG,
                                   "poisson: n = %zu, max_iters = %d, tol = %g: the grid needs 3 "
                                   "points a side, max_iters >= 0, tol >= 0",
                                   n, max_iters, tol));
    double *w = malloc(P * sizeof *w);
    size_t *rows = malloc(P * sizeof *rows);
    int *active = malloc(P * sizeof *active);
    strip_comm sc;
    memset(&sc, 0, sizeof sc);
    tsl__strip *strip = NULL;
    reqset rs = {0};
    int halo = 1, done = 0;
    double res = NAN, fmax = 0;
    size_t g_rows = 0;
    void *fl = NULL, *ul = NULL, *grid = NULL;
    char *gathered = NULL; /* rank 0: the interior rows of the result, before they reach u */
    tsl_status s = TSL_OK;
    if (!w || !rows || !active)
        s = dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank %d: out of host memory", d->rank);
    if (s == TSL_OK) s = agree_halo(d, &halo);
    if (s == TSL_OK) s = get_weights(d, "poisson", dbl, w);
    if (s != TSL_OK) goto done;
    tsl__split_rows(n - 2, w, P, rows);
    int nactive = 0;
    size_t me = (size_t)d->rank, first = 1, my_first = 0;
    for (size_t r = 0; r < P; ++r) {
        d->parts[r].first_row = first;
        d->parts[r].rows = rows[r];
        d->parts[r].weight = w[r];
        if (r == me) my_first = first;
        first += rows[r];
        if (!rows[r]) continue;
        active[nactive++] = (int)r;
        d->times.devices++;
        if (nactive > 1 && rows[r] < (size_t)halo) {
            s = dist_fail(d, TSL_ERR_INVALID_ARG,
                          "poisson: rank %zu gets %zu rows of the grid, fewer than the %d-row "
                          "halo its neighbours need: use a larger grid, fewer ranks or other "
                          "weights",
                          r, rows[r], halo);
        }
    }
    if (nactive > 1 && rows[active[0]] < (size_t)halo && s == TSL_OK)
        s = dist_fail(d, TSL_ERR_INVALID_ARG,
                      "poisson: rank %d gets %zu rows of the grid, fewer than the %d-row halo "
                      "its neighbour needs: use a larger grid, fewer ranks or other weights",
                      active[0], rows[active[0]], halo);
    if (s != TSL_OK) goto done;
    if (rows[me]) {
        sc.d = d;
        sc.dbl = dbl;
        sc.n = n;
        sc.es = es;
        sc.halo = (size_t)halo;
        sc.own_lo = my_first;
        sc.own_hi = my_first + rows[me] - 1;
        sc.g0 = sc.own_lo > (size_t)halo ? sc.own_lo - (size_t)halo : 0;
        sc.prev = sc.next = -1;
        sc.active = active;
        sc.nactive = nactive;
        sc.leader = active[0];
        for (int i = 0; i < nactive; ++i)
            if (active[i] == d->rank) {
                if (i > 0) sc.prev = active[i - 1];
                if (i + 1 < nactive) sc.next = active[i + 1];
            }
    }
    /* Rank 0 sends each rank its strip of f and u (owned rows and halo rows). */
    if (d->rank == 0) {
        size_t at = 1;
        for (size_t r = 0; r < P; ++r) {
            size_t lo = at, hi = at + rows[r] - 1;
            at += rows[r];
            if (!rows[r] || r == 0) continue;
            size_t g0 = lo > (size_t)halo ? lo - (size_t)halo : 0;
            size_t g1 = hi + 1 + (size_t)halo < n ? hi + 1 + (size_t)halo : n;
            s = post(d, &rs, 1, (char *)f + g0 * pitch, (g1 - g0) * pitch, (int)r, TAG_GRID);
            if (s == TSL_OK)
                s = post(d, &rs, 1, (char *)u + g0 * pitch, (g1 - g0) * pitch, (int)r, TAG_GRID);
            if (s != TSL_OK) break;
        }
        if (s == TSL_OK) s = wait_set(d, &rs, "the distribution of the grid");
        if (rows[0]) {
            size_t g1 = sc.own_hi + 1 + (size_t)halo < n ? sc.own_hi + 1 + (size_t)halo : n;
            g_rows = g1 - sc.g0;
            fl = (char *)f + sc.g0 * pitch;
            ul = (char *)u + sc.g0 * pitch;
        }
    } else if (rows[me]) {
        size_t g1 = sc.own_hi + 1 + (size_t)halo < n ? sc.own_hi + 1 + (size_t)halo : n;
        g_rows = g1 - sc.g0;
        grid = malloc(2 * g_rows * pitch);
        if (!grid) {
            s = dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank %d: out of host memory for its strip",
                          d->rank);
            goto done;
        }
        fl = grid;
        ul = (char *)grid + g_rows * pitch;
        s = post(d, &rs, 0, fl, g_rows * pitch, 0, TAG_GRID);
        if (s == TSL_OK) s = post(d, &rs, 0, ul, g_rows * pitch, 0, TAG_GRID);
        if (s == TSL_OK) s = wait_set(d, &rs, "the distribution of the grid");
    }
    if (s == TSL_OK && rows[me]) {
        /* The stopping threshold's scale: max |f| over the interior, reduced like a residual. */
        double local =
            tsl__poisson_fmax(dbl, n, (char *)fl + (sc.own_lo - sc.g0) * pitch, rows[me]);
        tsl__timing_begin(d->ctx);
        s = dist_reduce(&sc, local, &fmax);
        size_t hbytes = (size_t)halo * pitch;
        for (int i = 0; s == TSL_OK && i < 4; ++i) {
            void **slot[4] = {&sc.send_top, &sc.send_bottom, &sc.recv_top, &sc.recv_bottom};
            if ((s = tsl_host_alloc(d->ctx, hbytes, slot[i])) != TSL_OK) s = context_fail(d, s);
        }
        if (s == TSL_OK &&
            (s = tsl__strip_open(d->ctx, "tsl_dist_poisson", dbl, n, g_rows, sc.own_lo - sc.g0,
                                 sc.own_hi - sc.g0, fl, ul, &strip)) != TSL_OK)
            s = context_fail(d, s);
        if (s == TSL_OK) s = sync_active(d, active, nactive, "the start of the iteration");
        double it0 = now_ms();
        if (s == TSL_OK) {
            tsl__strip_comm comm = {dist_exchange, dist_reduce, &sc};
            double threshold = tol * (fmax > 1 ? fmax : 1);
            s = tsl__strip_iterate(strip, &comm, max_iters, tol, threshold, info != NULL, &done,
                                   &res);
            if (s != TSL_OK && !d->error[0]) s = context_fail(d, s);
        }
        d->phase[me] = now_ms() - it0;
        tsl_status waited = tsl__timing_end(d->ctx);
        if (s == TSL_OK && waited != TSL_OK) s = context_fail(d, waited);
        /* The owned rows of the iterate go back to rank 0 (below, once it knows the count),
         * which collects them in a copy of the interior rows first. */
        if (s == TSL_OK && d->rank == 0 && !(gathered = malloc((n - 2) * pitch)))
            s = dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank 0: out of host memory to gather u");
        void *dst = d->rank == 0 ? gathered + (sc.own_lo - 1) * pitch : grid;
        if (s == TSL_OK && done > 0 &&
            (s = tsl__strip_read(strip, sc.own_lo - sc.g0, rows[me], dst)) != TSL_OK)
            s = context_fail(d, s);
        tsl__timing_end(d->ctx);
        tsl_context_timing(d->ctx, &d->parts[me].timing);
        if (s == TSL_OK) s = fault_point(d, 1);
    }
    /* The sweep count and residual: every rank with rows has them; rank 0 learns them from the
     * first such rank before it knows whether rows come back (none after 0 sweeps). */
    if (s == TSL_OK) {
        double dr[2] = {(double)done, res};
        if (d->rank == active[0] && d->rank != 0)
            s = exchange_with(d, "the end of the solve", 0, TAG_RES_BACK, dr, sizeof dr, NULL, 0);
        else if (d->rank == 0 && active[0] != 0)
            s = exchange_with(d, "the end of the solve", active[0], TAG_RES_BACK, NULL, 0, dr,
                              sizeof dr);
        done = (int)dr[0];
        res = dr[1];
    }
    if (s == TSL_OK && d->rank != 0 && rows[me] && done > 0)
        s = exchange_with(d, "the gathering of the grid", 0, TAG_GRID_BACK, grid, rows[me] * pitch,
                          NULL, 0);
    if (s == TSL_OK && d->rank == 0 && done > 0) {
        if (!gathered && !(gathered = malloc((n - 2) * pitch)))
            s = dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank 0: out of host memory to gather u");
        size_t at = 1;
        for (size_t r = 0; s == TSL_OK && r < P; ++r) {
            size_t lo = at;
            at += rows[r];
            if (r == 0 || !rows[r]) continue;
            s = post(d, &rs, 0, gathered + (lo - 1) * pitch, rows[r] * pitch, (int)r,
                     TAG_GRID_BACK);
        }
        if (s == TSL_OK) s = wait_set(d, &rs, "the gathering of the grid");
    }
    /* Every rank's end-of-call record is the agreement (as for GEMM): u is written only once
     * rank 0 has all of them. */
    if (s == TSL_OK) {
        d->parts[me].wall_ms = now_ms() - t0;
        s = gather_parts(d);
    }
    if (s == TSL_OK && d->rank == 0 && done > 0)
        memcpy((char *)u + pitch, gathered, (n - 2) * pitch);
    if (s == TSL_OK) {
        d->times.wall_ms = now_ms() - t0;
        double kernel = 0;
        for (size_t r = 0; r < P; ++r)
            if (rows[r] && d->parts[r].timing.kernel_ms > kernel)
                kernel = d->parts[r].timing.kernel_ms;
        if (info) {
            info->iterations = done;
            info->residual = res;
            info->kernel_ms = kernel;
        }
    }
done:
    rs_free(&rs);
    tsl__strip_close(strip);
    if (sc.send_top) tsl_host_free(d->ctx, sc.send_top);
    if (sc.send_bottom) tsl_host_free(d->ctx, sc.send_bottom);
    if (sc.recv_top) tsl_host_free(d->ctx, sc.recv_top);
    if (sc.recv_bottom) tsl_host_free(d->ctx, sc.recv_bottom);
    free(grid);
    free(gathered);
    free(w), free(rows), free(active);
    return settle(d, s);
}
