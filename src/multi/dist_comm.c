/* dist_comm.c: how the ranks of the MPI layer talk (dist_internal.h). Communication is
 * point-to-point only, each message nonblocking and completed by a polling loop with a deadline
 * (tsl__dist_wait), so every wait names the ranks it waits for when it times out, and rank 0
 * notices a failure another rank reports (tag TAG_FAIL) at its next wait. Large messages go in
 * chunks of at most 1 GiB (MPI counts are ints). Collectives of MPI are not used for the data:
 * they cannot be bounded by a timeout or tell which rank is missing. Also here: the binomial
 * tree that sends B, the gathering of every rank's part of a call, and the test hook. */
#define _POSIX_C_SOURCE 200809L
#include "multi/dist_internal.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- requests: post, then wait with a deadline ---------------------------------------------- */

static int rs_push(tsl__reqset *rs, MPI_Request r, int peer)
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

/* Requests still pending here belong to a call that failed or timed out: cancel them and, before
 * their buffers are freed, let the cancellations complete. MPI_Request_free alone would leave a
 * matched receive free to write into the buffer afterwards (a buffer the caller may free, or the
 * caller's own array); a cancelled request completes locally (MPI standard, 3.8.4), so the test
 * loop ends at once for receives. A send an MPI cannot cancel (Open MPI's rendezvous sends) may
 * stay pending: after a bounded wait it is released as before, and MPI only reads its buffer. */
void tsl__dist_rs_free(tsl__reqset *rs)
{
    int pending = 0;
    for (int i = 0; i < rs->n; ++i)
        if (rs->req[i] != MPI_REQUEST_NULL) {
            MPI_Cancel(&rs->req[i]);
            ++pending;
        }
    double deadline = tsl__dist_now_s() + 1.0;
    while (pending) {
        int done = 0;
        if (MPI_Testall(rs->n, rs->req, &done, MPI_STATUSES_IGNORE) != MPI_SUCCESS || done) break;
        if (tsl__dist_now_s() > deadline) break;
        tsl__dist_pause(1000);
    }
    for (int i = 0; i < rs->n; ++i)
        if (rs->req[i] != MPI_REQUEST_NULL) MPI_Request_free(&rs->req[i]);
    free(rs->req);
    free(rs->peer);
    memset(rs, 0, sizeof *rs);
}

tsl_status tsl__dist_post(tsl_dist *d, tsl__reqset *rs, int send, void *buf, size_t bytes, int peer,
                          int tag)
{
    for (size_t off = 0; off < bytes || (off == 0 && bytes == 0); off += CHUNK) {
        int count = (int)(bytes - off < CHUNK ? bytes - off : CHUNK);
        MPI_Request r;
        int rc = send
                     ? MPI_Isend((char *)buf + off, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r)
                     : MPI_Irecv((char *)buf + off, count, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &r);
        if (rc != MPI_SUCCESS) return tsl__dist_mpi_fail(d, send ? "MPI_Isend" : "MPI_Irecv", rc);
        if (rs_push(rs, r, peer) != 0)
            return tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank %d: out of host memory", d->rank);
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
    return tsl__dist_fail(d, TSL_ERR_OPENCL, "%s", msg);
}

/* Completes every request of rs, or fails: an MPI error, a failure another rank reported (rank
 * 0), or the timeout, which names the ranks whose messages did not come. Frees rs. */
tsl_status tsl__dist_wait(tsl_dist *d, tsl__reqset *rs, const char *what)
{
    double start = tsl__dist_now_s(), deadline = start + d->timeout_s;
    tsl_status s = TSL_OK;
    for (;;) {
        int done = 0;
        int rc = rs->n ? MPI_Testall(rs->n, rs->req, &done, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
        if (!rs->n) done = 1;
        if (rc != MPI_SUCCESS) {
            s = tsl__dist_mpi_fail(d, "MPI_Testall", rc);
            break;
        }
        if (done) break;
        if ((s = check_reports(d)) != TSL_OK) break;
        double t = tsl__dist_now_s();
        if (t > deadline) {
            char names[1500] = "";
            for (int i = 0; i < rs->n; ++i) {
                int flag = 0;
                if (rs->req[i] != MPI_REQUEST_NULL) MPI_Test(&rs->req[i], &flag, MPI_STATUS_IGNORE);
                if (rs->req[i] == MPI_REQUEST_NULL) continue;
                char who[300];
                tsl__dist_label(d, rs->peer[i], who, sizeof who);
                if (strstr(names, who)) continue;
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "", who);
            }
            char me[300];
            tsl__dist_label(d, d->rank, me, sizeof me);
            s = tsl__dist_fail(d, TSL_ERR_OPENCL,
                               "%s did not answer %s within %g s (timed out; %s waited for it: the "
                               "rank hangs or is gone; the limit is $TESSEL_TIMEOUT or --timeout)",
                               names, what, d->timeout_s, me);
            break;
        }
        if (t - start > 2e-3) tsl__dist_pause(50000); /* spin for the first 2 ms: halo latency */
    }
    tsl__dist_rs_free(rs);
    return s;
}

/* One message each way, waited for at once. */
tsl_status tsl__dist_exchange(tsl_dist *d, const char *what, int peer, int tag, void *sendbuf,
                              size_t sbytes, void *recvbuf, size_t rbytes)
{
    tsl__reqset rs = {0};
    tsl_status s = TSL_OK;
    if (sendbuf) s = tsl__dist_post(d, &rs, 1, sendbuf, sbytes, peer, tag);
    if (s == TSL_OK && recvbuf) s = tsl__dist_post(d, &rs, 0, recvbuf, rbytes, peer, tag);
    if (s != TSL_OK) {
        tsl__dist_rs_free(&rs);
        return s;
    }
    return tsl__dist_wait(d, &rs, what);
}

/* ---- shared pieces of a call ------------------------------------------------------------------
 */

/* The test hook (docs/multi-device.md): TESSEL_FAULT_RANK=R fails rank R here with an OpenCL
 * error, R:hang stops it answering, R:exit kills it (SIGABRT: the crash line, exit code 3),
 * R:kill kills it with SIGKILL (no line: what mpirun then does is documented), all at the first
 * fault point of a call (late = 0: GEMM after the rank's block, Poisson at the first
 * halo exchange); R:late fails it at the last one (late = 1: after its part, before it sends its
 * results to rank 0); R:calibrate fails its calibration instead (calibrate()). */
tsl_status tsl__dist_fault_point(tsl_dist *d, int late)
{
    if (d->rank != d->fault_target || d->fault_fired) return TSL_OK;
    if (late ? d->fault_mode != 5 : d->fault_mode >= 3 && d->fault_mode != 6) return TSL_OK;
    d->fault_fired = 1;
    if (d->fault_mode == 6) raise(SIGKILL);
    if (d->fault_mode == 1)
        for (;;)
            tsl__dist_pause(100000000); /* until mpirun stops the job */
    if (d->fault_mode == 2) abort();
    char me[300];
    tsl__dist_label(d, d->rank, me, sizeof me);
    return tsl__dist_fail(d, TSL_ERR_OPENCL,
                          "%s: clEnqueueNDRangeKernel failed: CL_OUT_OF_RESOURCES (-5) (a fault "
                          "injected by TESSEL_FAULT_RANK=%s)",
                          me, getenv("TESSEL_FAULT_RANK"));
}

/* Every rank sends its part of the call and its phase time to rank 0 (the report's rows);
 * rank 0 then sets times.phase_ms to the longest phase of the ranks with rows. */
tsl_status tsl__dist_gather_parts(tsl_dist *d)
{
    typedef struct {
        tsl_group_part part;
        double phase;
    } record;
    size_t P = (size_t)d->size;
    record *all = calloc(P, sizeof *all);
    if (!all)
        return tsl__dist_fail(d, TSL_ERR_OUT_OF_MEMORY, "rank %d: out of host memory", d->rank);
    all[d->rank].part = d->parts[d->rank];
    all[d->rank].phase = d->phase[d->rank];
    tsl_status s = TSL_OK;
    if (d->rank != 0) {
        s = tsl__dist_exchange(d, "the end of the call (timings)", 0, TAG_PART, &all[d->rank],
                               sizeof *all, NULL, 0);
        free(all);
        return s;
    }
    tsl__reqset rs = {0};
    for (size_t r = 1; s == TSL_OK && r < P; ++r)
        s = tsl__dist_post(d, &rs, 0, &all[r], sizeof *all, (int)r, TAG_PART);
    if (s == TSL_OK)
        s = tsl__dist_wait(d, &rs, "the end of the call (timings)");
    else
        tsl__dist_rs_free(&rs);
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
tsl_status tsl__dist_broadcast(tsl_dist *d, const int *list, int n, void *buf, size_t bytes,
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
            s = tsl__dist_exchange(d, what, list[me - mask], tag, NULL, 0, buf, bytes);
            if (s != TSL_OK) return s;
            break;
        }
        mask <<= 1;
    }
    mask >>= 1;
    tsl__reqset rs = {0};
    for (; mask > 0 && s == TSL_OK; mask >>= 1)
        if (me + mask < n) s = tsl__dist_post(d, &rs, 1, buf, bytes, list[me + mask], tag);
    if (s != TSL_OK) {
        tsl__dist_rs_free(&rs);
        return s;
    }
    return tsl__dist_wait(d, &rs, what);
}
