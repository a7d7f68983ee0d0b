/* peer_cusolver.h: the cuSOLVER peer of `tessel lapack`: NVIDIA's dense LAPACK (cuSOLVER's
 * cusolverDn API, float and double, column-major) on the CUDA device that is tessel's OpenCL
 * device, on the same host data as tessel's rows and the openblas peer, so a tessel row is a ratio
 * to the vendor library measured in one run. The session is the cuBLAS peer's (peer_cuda.h):
 * inputs copied to cudaMalloc memory, every array the call writes reset from a pristine device
 * copy before each run (untimed), each timed run the span between two events on the peer's stream
 * around the cuSOLVER calls, the first run never timed, the outputs of the last run copied back
 * for --verify, cuSOLVER's devInfo reported as LAPACK's INFO. What each routine maps to, and what
 * is skipped, is in peer_cusolver.c. Built without cuSOLVER (TESSEL_HAVE_CUSOLVER unset) every
 * call reports skipped. */
#ifndef TESSEL_PEER_CUSOLVER_H
#define TESSEL_PEER_CUSOLVER_H

#include <stddef.h>

#include "peers.h"

typedef enum {
    TSL_LP_GETRF,
    TSL_LP_GETRS,
    TSL_LP_GESV,
    TSL_LP_POTRF,
    TSL_LP_POTRS,
    TSL_LP_POSV,
    TSL_LP_GEQRF,
    TSL_LP_ORMQR,
    TSL_LP_GELS,
    TSL_LP_DSGESV,
    TSL_LP_DSPOSV
} tsl_lapack_peer_op;

/* One call, LAPACK's arguments. A is ar x ac with lda (getrf, geqrf, gels: m x n; ormqr: the nq x k
 * reflectors; else n x n), B is br x bc with ldb (ormqr: C, m x n; gels: max(m, n) x nrhs, X in
 * its first rows on return; else n x nrhs); ea and eb are their storage sizes in elements. getrs,
 * potrs and ormqr read factors in a (and ipiv, tau) made before the call. dsgesv and dsposv are
 * double (is_double is ignored). */
typedef struct {
    tsl_context *ctx; /* tessel's context: the CUDA device is matched to its device */
    tsl_lapack_peer_op op;
    int is_double;
    tsl_layout layout;
    tsl_uplo uplo;
    tsl_trans trans;
    tsl_side side;
    size_t m, n, k, nrhs;
    const void *a;
    size_t lda, ea;
    const void *b;
    size_t ldb, eb;
    const int *ipiv; /* getrs: n pivots, LAPACK's 1-based rows */
    const void *tau; /* ormqr: k scalars */
    unsigned warmup; /* untimed runs first (at least one is made) */
    unsigned repeat; /* timed runs, >= 1 */
} tsl_lapack_peer_args;

/* The outputs of the last run, host arrays the caller owns (sizes as above). a (ea elements): A
 * as the routine leaves it (its input where it writes none); b (eb): B, C, or gels's X in B's
 * first rows; x (eb, ldb): dsgesv's X; ipiv (min(m, n)) and tau (min(m, n)) where the routine
 * makes them, else untouched; info: devInfo; iter: dsgesv's iteration count (cuSOLVER's, < 0
 * where it fell back to double). */
typedef struct {
    void *a, *b, *x;
    int *ipiv;
    void *tau;
    int info, iter;
} tsl_lapack_peer_out;

/* 1 if this tessel was built with cuSOLVER (the peer can run where a GPU is), else 0. */
int tsl_peer_cusolver_built(void);

/* Runs the call warmup + repeat times: res->run_ms (repeat entries) is the caller's, res->c is
 * unused; status ok with out filled, or skipped or error with a one-line reason. */
void tsl__peer_cusolver_lapack(const tsl_lapack_peer_args *args, tsl_peer_result *res,
                               tsl_lapack_peer_out *out);

#endif
