/* peer_cublas.h: the cuBLAS peer of `tessel gemm`, `tessel transpose`, `tessel blas1` and
 * `tessel gemv`: NVIDIA's own BLAS on the CUDA device that is tessel's OpenCL device (matched by
 * UUID, else by name, else CUDA device 0), on the same host data, so a tessel row is a ratio to
 * the vendor library measured in one run. Each function takes the argument struct of the other
 * peers of that command (peers.h, peer_transpose.h, peer_blas.h) and fills a tsl_peer_result the
 * same way: warmup + repeat runs, each timed run in ms between CUDA events on the peer's stream,
 * the result of the last run copied back for --verify, or skipped/error with a one-line reason.
 * SGEMM runs with plain FP32 arithmetic (no TF32, no BF16x9 emulation) and the device text says
 * so; GEMM on half or bfloat16 storage and in TF32 math (peers.h) runs cublasGemmEx with FP32
 * accumulation, or TF32 tensor cores, and the device text says which. Built without the CUDA
 * toolkit (TESSEL_HAVE_CUBLAS unset) every function reports skipped. */
#ifndef TESSEL_PEER_CUBLAS_H
#define TESSEL_PEER_CUBLAS_H

#include "peer_blas.h"
#include "peer_blas3.h"
#include "peer_transpose.h"
#include "peers.h"

/* 1 if this tessel was built with the CUDA toolkit (the peer can run where a GPU is), else 0. */
int tsl_peer_cublas_built(void);

/* C = alpha op(A) op(B) + beta C with cublasSgemm/Dgemm, or cublasGemmEx for half, bfloat16 and
 * TF32 (row-major mapped onto column-major as C^T = op(B)^T op(A)^T). Same contract as the other
 * GEMM peers: a row of the peer table (peers.c) next to tsl__peer_clblast_gemm; res->run_ms (repeat
 * entries) and res->c (C's storage size) are the caller's. */
void tsl__peer_cublas_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res);

/* Row-major B = A^T with cublasSgeam/Dgeam (alpha 1, beta 0). Same contract as the entries of
 * peer_transpose.c's table; res->c receives cols * ldb elements. */
void tsl__peer_cublas_transpose(const tsl_peer_transpose_args *args, tsl_peer_result *res);

/* axpy, dot, nrm2 or gemv with cublas{S,D}{axpy,dot,nrm2,gemv}. Same contract as
 * tsl_blas_peer_run: res->c receives y (axpy, gemv) or the scalar (dot, nrm2: one element). */
void tsl__peer_cublas_blas(const tsl_blas_peer_args *args, tsl_peer_result *res);

/* symm, syrk, syr2k, trmm, trsm with cublas{S,D}{symm,syrk,syr2k,trmm,trsm} (row-major mapped onto
 * column-major: side and uplo flipped, m and n swapped; syrk/syr2k: uplo and trans flipped), and
 * strided batched GEMM with cublas{S,D}gemmStridedBatched. Same contract as tsl_l3_peer_run and
 * tsl_batched_peer_run (peer_blas3.h): res->c receives the output after the last run. */
void tsl__peer_cublas_l3(const tsl_l3_peer_args *args, tsl_peer_result *res);
void tsl__peer_cublas_batched(const tsl_batched_peer_args *args, tsl_peer_result *res);

#endif
