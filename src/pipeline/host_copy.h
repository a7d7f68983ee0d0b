/* host_copy.h: host memcpy split over a crew of threads (pipeline/host_copy.c), for the copies between
 * a caller's arrays and pinned staging that bound the host-memory GEMM pipeline
 * (pipeline/gemm_pipeline.c): one thread copies at a fraction of the host's memory bandwidth. */
#ifndef TSL_OPS_HOST_COPY_H
#define TSL_OPS_HOST_COPY_H

#include <pthread.h>
#include <stddef.h>

#define TSL__CREW_MAX 64 /* threads of a crew, at most */

/* Bytes from..to of a block packed flat (runs of len bytes one after the other), between the
 * caller's layout (runs pitch bytes apart from host) and staging (flat holds byte `from`). */
typedef struct {
    char *host;
    size_t len, pitch;
    char *flat;
    size_t from, to;
    int unpack; /* 0: host -> flat; 1: flat -> host */
} tsl__copy_job;

/* Threads that take slices of one copy at a time; the submitter copies a slice too and returns
 * when every slice is done, so no helper touches either side of a copy after tsl__crew_copy
 * returned. Several submitters take turns. Opaque: only its functions look inside. */
typedef struct {
    int live; /* the mutexes exist; nth helpers run */
    pthread_mutex_t mu, turn;
    pthread_cond_t go, done;
    pthread_t th[TSL__CREW_MAX];
    size_t nth;
    size_t min_slice; /* bytes a thread takes at least */
    tsl__copy_job job;
    size_t slices, next, finished;
    int quit;
} tsl__crew;

/* Starts threads - 1 helpers (as many as start: none is a crew of the caller alone) for copies
 * of about `piece` bytes each: a copy is split into slices of 256 KiB at least, or of
 * piece / threads when pieces are smaller (so tests split tiny copies over every thread). */
void tsl__crew_start(tsl__crew *cr, size_t threads, size_t piece);
/* The copy, split over the crew; returns when every byte is copied. */
void tsl__crew_copy(tsl__crew *cr, const tsl__copy_job *j);
/* Ends and joins the helpers. */
void tsl__crew_stop(tsl__crew *cr);

#endif
