/* dist_internal.h: what the files of the MPI layer share (dist.h): the handle and the message
 * tags (dist.c), errors and clocks (dist_errors.c), requests completed with a deadline and the
 * pieces every call uses (dist_comm.c), the weights (dist_weights.c); GEMM (dist_gemm.c) and
 * Poisson (dist_poisson.c) are built on them. */
#ifndef TSL_DIST_INTERNAL_H
#define TSL_DIST_INTERNAL_H

#include <mpi.h>
#include <stddef.h>

#include "multi/dist.h"
#include "multi/group.h"

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

/* ---- dist_errors.c: errors and clocks ------------------------------------------------------- */
/* "rank 1 (0:1 NAME)", how every message names a rank. */
void tsl__dist_label(const tsl_dist *d, int r, char *out, size_t cap);
/* Formats the message into d->error; returns s. */
tsl_status tsl__dist_fail(tsl_dist *d, tsl_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An MPI call that failed: its error string, from this rank. */
tsl_status tsl__dist_mpi_fail(tsl_dist *d, const char *call, int rc);
/* The context's error, named by this rank. */
tsl_status tsl__dist_context_fail(tsl_dist *d, tsl_status s);
/* The status a call returns: on rank 0 as it is; on another rank a failure is reported to rank
 * 0, and the rank then waits to be stopped (it never returns). */
tsl_status tsl__dist_settle(tsl_dist *d, tsl_status s);
double tsl__dist_now_s(void);
double tsl__dist_now_ms(void);
void tsl__dist_pause(long ns);

/* ---- dist_comm.c: requests, posted then completed with a deadline -----------------------------
 */
typedef struct {
    MPI_Request *req;
    int *peer;
    int n, cap;
} tsl__reqset;
/* Posts a nonblocking send (send = 1) or receive of bytes to or from peer, in chunks of at most
 * 1 GiB, into rs. */
tsl_status tsl__dist_post(tsl_dist *d, tsl__reqset *rs, int send, void *buf, size_t bytes, int peer,
                          int tag);
/* Completes every request of rs, or fails: an MPI error, a failure another rank reported (rank
 * 0), or the timeout, which names the ranks whose messages did not come. Frees rs. */
tsl_status tsl__dist_wait(tsl_dist *d, tsl__reqset *rs, const char *what);
/* Cancels and frees what rs still holds. */
void tsl__dist_rs_free(tsl__reqset *rs);
/* One message each way with peer, waited for at once (either buffer may be NULL). */
tsl_status tsl__dist_exchange(tsl_dist *d, const char *what, int peer, int tag, void *sendbuf,
                              size_t sbytes, void *recvbuf, size_t rbytes);
/* Binomial-tree broadcast of bytes from list[0] to the other ranks of list (n of them). */
tsl_status tsl__dist_broadcast(tsl_dist *d, const int *list, int n, void *buf, size_t bytes,
                               int tag, const char *what);
/* The test hook (TESSEL_FAULT_RANK); late = 1 at the last fault point of a call. */
tsl_status tsl__dist_fault_point(tsl_dist *d, int late);
/* Every rank's part of the call and phase time to rank 0 (the agreement that ends a call). */
tsl_status tsl__dist_gather_parts(tsl_dist *d);

/* ---- dist_weights.c ------------------------------------------------------------------------- */
/* The normalized weights of op at this precision under d's rule (calibrating first when
 * needed); every rank gets the same. */
tsl_status tsl__dist_weights(tsl_dist *d, const char *op, int dbl, double *w);

#endif
