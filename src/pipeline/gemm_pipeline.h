/* gemm_pipeline.h: the host-memory GEMM pipeline (pipeline/gemm_pipeline.c), the one piece that moves
 * a GEMM whose operands live in host memory through one device with its transfers overlapped:
 * rows of C (and of op(A)) in chunks, each chunk's uploads on a transfer queue of their own while
 * the kernel queue computes the previous chunk, finished chunks downloading during the next ones,
 * through a small ring of pinned host staging buffers (filled and emptied by several host
 * threads) where the device's memory is across a bus. The single-device host-pointer path
 * (tsl_[sd]gemm, gemm/gemm.c) runs it whole (tsl__gemm_pipe_run: C written chunk by chunk), and
 * a group (multi/group_gemm.c) runs it on every device for that device's block of rows in two
 * steps (compute, then commit once every device has its block). */
#ifndef TSL_OPS_GEMM_PIPELINE_H
#define TSL_OPS_GEMM_PIPELINE_H

#include <stddef.h>

#include "runtime/runtime.h"

#define TSL__PIPE_CHUNKS 4 /* row chunks of a block, at most */
#define TSL__PIPE_PANELS 4 /* column panels of C (and of op(B)), at most */

/* A GEMM with CBLAS arguments on host arrays, checked by the caller (ldX, NULLs, sizes). cplx:
 * complex elements (interleaved pairs of dbl's type; each piece runs tsl_[cz]gemm_buf, in the
 * context's complex_gemm form), alpha and beta with the imaginary parts alpha_im, beta_im, and a
 * transpose may be TSL_CONJ_TRANS. */
typedef struct {
    int dbl;
    tsl_layout layout;
    tsl_trans ta, tb;
    size_t m, n, k, lda, ldb, ldc;
    double alpha, beta;
    const void *a, *b;
    void *c;
    int cplx;
    double alpha_im, beta_im;
} tsl__gemm_host;

/* What the pipeline asks of the code that drives it (all may be NULL; arg is theirs).
 * stop: nonzero when the call was abandoned elsewhere (another device failed), so the pipeline
 * starts no more work. enter / leave: bracket every use of the caller's arrays a, b and c (a host
 * copy, or a transfer that reads or writes them, until it completed); enter returns nonzero when
 * they may no longer be used (the call returned), and the pipeline then stops. timeout_s bounds
 * the one wait of the pipeline itself (the kernel loop waiting for the next chunk's uploads to be
 * given to the queue); 0 means tsl__default_timeout(). */
typedef struct {
    int (*stop)(void *arg);
    int (*enter)(void *arg);
    void (*leave)(void *arg);
    void *arg;
    double timeout_s;
} tsl__pipe_hooks;

/* Whether the single-device host path should run the pipeline for this problem:
 * $TESSEL_GEMM_PIPELINE=1 or 0 forces it; unset or auto, the model decides (gemm_pipeline.c: a
 * device that is not a CPU, a product of at least two chunks that moves enough bytes). */
int tsl__gemm_pipe_pays(tsl_context *ctx, const tsl__gemm_host *g);
/* The whole product through the pipeline on one device: C = alpha op(A) op(B) + beta C, each
 * chunk's rows of C written into the caller's C as soon as they are downloaded, while the
 * next chunks compute. The kernel and transfer times add to *t. Errors are ctx's. */
tsl_status tsl__gemm_pipe_run(tsl_context *ctx, const tsl__gemm_host *g, const tsl__pipe_hooks *h,
                              tsl_timing *t);

/* Rows r0..r0+rows-1 of C = alpha op(A) op(B) + beta C, computed into the pipeline's device
 * buffers (and, staged, its host staging) of ctx; the caller's C is not written. The kernel
 * timings of the chunks and the transfer times add to *t. Errors are ctx's. */
tsl_status tsl__gemm_pipe_compute(tsl_context *ctx, const tsl__gemm_host *g, size_t r0, size_t rows,
                                  const tsl__pipe_hooks *h, tsl_timing *t);
/* Writes the rows the last compute on ctx produced into the caller's C (and waits for it). */
tsl_status tsl__gemm_pipe_commit(tsl_context *ctx, const tsl__pipe_hooks *h, tsl_timing *t);

#endif
