/* peer_cuda.h: what the CUDA peers (cuBLAS, cuSOLVER, the CUDA twins) share, so that each opens
 * its session, picks its device and times its runs the same way: the CUDA device that is tessel's
 * OpenCL device (same UUID through cl_khr_device_uuid, else a name that contains the other, else
 * device 0), one non-blocking stream and two events, copies timed by events on that stream, and
 * warmup + repeat runs each timed between the two events around the library's calls, the first
 * run never timed (CUDA libraries load their kernels on first use). Only where CMake found the
 * CUDA runtime (TESSEL_HAVE_CUDART); without it this header declares nothing. */
#ifndef TESSEL_PEER_CUDA_H
#define TESSEL_PEER_CUDA_H

#if defined(TESSEL_HAVE_CUDART) && TESSEL_HAVE_CUDART

#include <cuda_runtime_api.h>
#include <stddef.h>

#include "peers.h"

/* One peer call's CUDA state. Zero it (with res set) before tsl__cuda_open; tsl__cuda_close
 * releases whatever was made. */
typedef struct {
    tsl_peer_result *res;       /* where failures and skips are written */
    int dev;                    /* the CUDA device in use */
    struct cudaDeviceProp prop; /* its properties (name, sm version) */
    cudaStream_t stream;
    cudaEvent_t e0, e1;
} tsl__cuda_session;

/* 1 on cudaSuccess, else 0 with res set to error: "CALL: message (cudaErrorName)". */
int tsl__cuda_ok(tsl__cuda_session *s, cudaError_t e, const char *call);

/* The CUDA device that is ctx's OpenCL device, among count CUDA devices (see the file comment). */
int tsl__cuda_pick_device(tsl_context *ctx, int count);

/* Counts the CUDA devices (none, or no usable driver: res skipped, "no CUDA device (...)"), picks
 * ctx's, makes it current and creates the stream and events. 1 on success, else 0 with res set. */
int tsl__cuda_open(tsl__cuda_session *s, tsl_context *ctx);
void tsl__cuda_close(tsl__cuda_session *s);

/* A copy on the session's stream, waited for; its event time is added to *ms when ms is given
 * (NaN counts as 0). Nothing to do for 0 bytes. 1 on success, else 0 with res set. */
int tsl__cuda_copy(tsl__cuda_session *s, void *dst, const void *src, size_t bytes,
                   enum cudaMemcpyKind kind, const char *what, double *ms);

/* warmup (at least 1) + repeat runs: reset(state) when not NULL, untimed, then an event on the
 * stream, call(state), an event, waited for; the span between the events is the run's time in
 * res->run_ms. reset and call enqueue on the stream and return 1, or 0 with res set. res->build_ms
 * is setup_ms plus the first run's host time less the fastest timed run. name is what a failed
 * wait is reported as. 1 on success, else 0 with res set. */
int tsl__cuda_runs(tsl__cuda_session *s, int (*reset)(void *state), int (*call)(void *state),
                   void *state, const char *name, unsigned warmup, unsigned repeat,
                   double setup_ms);

#endif
#endif
