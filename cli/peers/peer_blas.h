/* peer_blas.h: the peers of the BLAS-1/2 commands (`tessel blas1`, `tessel gemv`): CLBlast on the
 * same OpenCL device and queue as tessel, and OpenBLAS on the host CPU, each running axpy, dot,
 * nrm2 or gemv on the caller's host data, warmup + repeat times, returning each timed run and the
 * result of the last. The result type and helpers are those of the GEMM peers (peers.h). */
#ifndef TESSEL_PEER_BLAS_H
#define TESSEL_PEER_BLAS_H

#include <stddef.h>

#include "peers.h"

typedef enum { TSL_BLAS_AXPY, TSL_BLAS_DOT, TSL_BLAS_NRM2, TSL_BLAS_GEMV } tsl_blas_op;

typedef struct {
    tsl_context *ctx; /* OpenCL peers use its device and queue */
    tsl_blas_op op;
    int is_double;
    size_t m, n; /* vectors: n elements; gemv: A is m x n (CBLAS) */
    tsl_layout layout;
    tsl_trans trans;
    size_t lda;
    double alpha, beta;
    const void *a, *x;
    const void *y; /* y before each run (axpy, gemv) */
    unsigned warmup, repeat;
} tsl_blas_peer_args;

/* 1 if name is a peer of the BLAS commands ("clblast", "openblas"). */
int tsl_blas_peer_known(const char *name);
/* Runs the peer. res->run_ms holds repeat entries; res->c receives y after the last run (axpy,
 * gemv: y's length) or the scalar result (dot, nrm2: one element). */
void tsl_blas_peer_run(const char *name, const tsl_blas_peer_args *args, tsl_peer_result *res);

#endif
