/* dist.c: the MPI layer of tessel (dist.h, docs/multi-device.md): one device per rank, rank 0
 * holding the caller's data. This file makes the handle (MPI started, this rank's device picked
 * by its rank on its host, every rank's device description exchanged) and ends it, with the
 * crash line a rank prints when a fatal signal kills it. The layer's errors are dist_errors.c;
 * how the ranks talk, dist_comm.c; the weights, dist_weights.c; the operations, dist_gemm.c and
 * dist_poisson.c. */
#define _POSIX_C_SOURCE 200809L
#include "multi/dist_internal.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- the crash line -------------------------------------------------------------------------- */

static char crash_line[512]; /* written by the signal handler: preformatted */

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

/* ---- create and the handle
 * ------------------------------------------------------------------------ */

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
        if (d->rank != 0) { /* the infos are not known yet: tsl__dist_label() would read zeros */
            snprintf(d->infos[d->rank].name, sizeof d->infos[0].name, "no device");
            tsl__dist_settle(d, s); /* reports to rank 0 and never returns */
        }
        return s;
    }
    /* The crash line names this rank and its device. */
    char me[300];
    tsl__dist_label(d, d->rank, me, sizeof me);
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
    tsl__reqset rs = {0};
    if (d->rank == 0) {
        for (int r = 1; s == TSL_OK && r < d->size; ++r)
            s = tsl__dist_post(d, &rs, 0, &d->infos[r], isz, r, TAG_INFO);
        if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the start (device descriptions)");
        for (int r = 1; s == TSL_OK && r < d->size; ++r)
            s = tsl__dist_post(d, &rs, 1, d->infos, isz * (size_t)d->size, r, TAG_INFO);
        if (s == TSL_OK) s = tsl__dist_wait(d, &rs, "the start (device table)");
    } else {
        s = tsl__dist_exchange(d, "the start (device descriptions)", 0, TAG_INFO,
                               &d->infos[d->rank], isz, NULL, 0);
        if (s == TSL_OK)
            s = tsl__dist_exchange(d, "the start (device table)", 0, TAG_INFO, NULL, 0, d->infos,
                                   isz * (size_t)d->size);
    }
    tsl__dist_rs_free(&rs);
    if (s != TSL_OK) {
        snprintf(err, cap, "%s", d->error);
        tsl__dist_settle(d, s);
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
        for (double until = tsl__dist_now_s() + d->timeout_s; tsl__dist_now_s() < until;)
            tsl__dist_pause(10000000);
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
