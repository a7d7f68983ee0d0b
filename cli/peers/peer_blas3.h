/* peer_blas3.h: the peers of `tessel blas3` (SYMM, SYRK, SYR2K, TRMM, TRSM) and of `tessel gemm
 * --batch` (strided batched GEMM): CLBlast on the same OpenCL device and queue as tessel, cuBLAS on
 * the CUDA device that is tessel's OpenCL device (peer_cublas.c), and OpenBLAS on the host CPU,
 * each on the caller's host data, warmup + repeat runs, each timed run in milliseconds and the
 * output of the last run for --verify. The result type and helpers are those of the GEMM peers
 * (peers.h): a peer is a row of the same table as tessel's variants. */
#ifndef TESSEL_PEER_BLAS3_H
#define TESSEL_PEER_BLAS3_H

#include <stddef.h>

#include "peers.h"
#include "ref/ref_level3.h"

typedef enum { TSL_L3_SYMM, TSL_L3_SYRK, TSL_L3_SYR2K, TSL_L3_TRMM, TSL_L3_TRSM } tsl_l3_op;

/* One Level-3 case, CBLAS semantics and storage. The output (C of SYMM, SYRK, SYR2K; B of TRMM,
 * TRSM) starts every run from c; res->c receives it after the last run (out_elems elements). */
typedef struct {
    tsl_context *ctx;
    tsl_l3_op op;
    int is_double;
    tsl_layout layout;
    tsl_side side;
    tsl_uplo uplo;
    tsl_trans trans;
    tsl_diag diag;
    size_t m, n, k; /* SYMM, TRMM, TRSM: m x n; SYRK, SYR2K: n and k */
    double alpha, beta;
    const void *a;
    size_t lda;
    const void *b; /* SYMM, SYR2K: B; TRMM, TRSM: unused (the output starts from c) */
    size_t ldb;
    const void *c; /* the output before the call */
    size_t ldc;    /* its leading dimension (ldb for TRMM, TRSM) */
    size_t ea, eb, ec; /* elements of the arrays (complex elements with cplx) */
    unsigned warmup, repeat;
    /* complex data (interleaved pairs): the routine is tsl_ref_z3's (z3: symm .. trsm with hemm,
     * herk, her2k) and the scalars alpha + i alpha_i, beta + i beta_i; cuBLAS's row is skipped */
    int cplx;
    tsl_ref_z3_op z3;
    double alpha_i, beta_i;
} tsl_l3_peer_args;

/* Strided batched GEMM: C_p = alpha op(A_p) op(B_p) + beta C_p, X_p = X + p stride_x. */
typedef struct {
    tsl_context *ctx;
    int is_double;
    tsl_layout layout;
    tsl_trans transa, transb;
    size_t m, n, k;
    double alpha, beta;
    const void *a;
    size_t lda, stride_a;
    const void *b;
    size_t ldb, stride_b;
    const void *c;
    size_t ldc, stride_c, batch;
    size_t ea, eb, ec; /* elements of the arrays (extents of the batch) */
    unsigned warmup, repeat;
} tsl_batched_peer_args;

/* 1 if name is a peer of these commands ("clblast", "cublas", "openblas"). */
int tsl_l3_peer_known(const char *name);
void tsl_l3_peer_run(const char *name, const tsl_l3_peer_args *args, tsl_peer_result *res);
void tsl_batched_peer_run(const char *name, const tsl_batched_peer_args *args,
                          tsl_peer_result *res);

#endif
