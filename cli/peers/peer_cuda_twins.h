/* peer_cuda_twins.h: the CUDA twins of tessel's `naive` and `tiled_16x16` GEMM kernels, two peers
 * of `tessel gemm` (`--peers cuda_naive,cuda_tiled`) for the opencl-vs-cuda study (docs/studies.md;
 * 000 compares the same kernels in both). Each twin is gemm_naive / gemm_tiled of
 * src/kernels/gemm.cl written in CUDA C (cli/peers/peer_cuda_twins.cu): the same algorithm, guards,
 * tile (16 x 16, B's tile padded by one column), work-group shape (16 x 16), strides for
 * transposes, and row-major mapping of column-major calls (src/gemm/gemm.c), so a tessel row and
 * its twin's row differ only by the programming model and compiler. Each run is timed between CUDA
 * events around the one kernel launch; the rest of the contract is that of every GEMM peer
 * (peers.h).
 *
 * The twins are built where CMake finds nvcc (the CUDA language, for sm_90 with its PTX); without
 * it, or without a CUDA device of compute capability 9.0 or later at run time, they report
 * skipped with the reason. */
#ifndef TESSEL_PEER_CUDA_TWINS_H
#define TESSEL_PEER_CUDA_TWINS_H

#include "peers.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if this tessel was built with the twins' kernels (nvcc found), else 0. */
int tsl_peer_cuda_twins_built(void);

/* The peers of the peer table (peers.c): gemm_naive and gemm_tiled (TS = 16) in CUDA. */
void tsl__peer_cuda_naive_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res);
void tsl__peer_cuda_tiled_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res);

/* ---- between peer_cuda_twins.c (host side, C) and peer_cuda_twins.cu (kernels) ------------- */

/* The twins' work-group edge: the tile of gemm_tiled_16x16 and the 16 x 16 work-group that
 * src/gemm/gemm.c gives the naive kernel on a device allowing 256 work-items or more. */
#define TSL_CUDA_TWIN_TILE 16

/* The compute capability the kernels are compiled for (CUDA_ARCHITECTURES in CMakeLists.txt):
 * major * 10 + minor. */
#define TSL_CUDA_TWIN_ARCH 90

/* Launches one twin on stream (a cudaStream_t) over the row-major problem the way gemm.cl's
 * kernel takes it: C[M x N] = alpha A B + beta C with A, B read through row and column strides,
 * C with leading dimension ldc, beta == 0 never reading C. Returns the cudaError_t of the launch
 * as an int (0: cudaSuccess). */
int tsl__cuda_twin_launch(int tiled, int is_double, int M, int N, int K, double alpha,
                          const void *A, int a_rs, int a_cs, const void *B, int b_rs, int b_cs,
                          double beta, void *C, int ldc, void *stream);

#ifdef __cplusplus
}
#endif

#endif
