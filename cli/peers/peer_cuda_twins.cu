/* peer_cuda_twins.cu: the kernels of the CUDA twins (peer_cuda_twins.h), line for line the
 * gemm_naive and gemm_tiled (TS = 16) of src/kernels/gemm.cl in CUDA C, and the one launch
 * function the host side (peer_cuda_twins.c) calls. OpenCL's get_global_id(0) is
 * blockIdx.x * blockDim.x + threadIdx.x, get_local_id is threadIdx, a __local array is
 * __shared__, barrier(CLK_LOCAL_MEM_FENCE) is __syncthreads(); dimension 0 runs along the columns
 * of C, dimension 1 along its rows, as in tessel. Both precisions are one template, as tessel's
 * `real` is one macro. nvcc contracts a * b + c into fma by default, as NVIDIA's OpenCL compiler
 * does (OpenCL's FP_CONTRACT is on by default), so the arithmetic is the same too.
 *
 * Built only where CMake enables the CUDA language (CMakeLists.txt, peers section), for sm_90
 * with its PTX, and without the C-only warning and sanitizer flags of the rest of tessel. */
#include <cuda_runtime.h>

#include "peer_cuda_twins.h"

namespace
{

constexpr int TS = TSL_CUDA_TWIN_TILE;

/* C = alpha * acc + beta * C, reading C only when beta is not zero (gemm.cl's GEMM_STORE). */
template <typename T> __device__ void gemm_store(T &c, T alpha, T acc, T beta)
{
    c = (beta == T(0)) ? alpha * acc : alpha * acc + beta * c;
}

/* naive: one thread per element of C, global memory only (gemm.cl's gemm_naive). */
template <typename T>
__global__ void gemm_naive(const int M, const int N, const int K, const T alpha, const T *A,
                           const int a_rs, const int a_cs, const T *B, const int b_rs,
                           const int b_cs, const T beta, T *C, const int ldc)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= M || col >= N) return;
    const T *a = A + (long)row * a_rs;
    const T *b = B + (long)col * b_cs;
    T acc = T(0);
    for (int l = 0; l < K; ++l) {
        acc += a[0] * b[0];
        a += a_cs;
        b += b_rs;
    }
    gemm_store(C[(long)row * ldc + col], alpha, acc, beta);
}

/* tiled: TS x TS tiles of A and B in shared memory (gemm.cl's gemm_tiled); each element guarded
 * on its own, C written once. __launch_bounds__ stands for reqd_work_group_size(TS, TS, 1): the
 * compiler knows the block has TS * TS threads. */
template <typename T>
__global__ void __launch_bounds__(TS * TS)
    gemm_tiled(const int M, const int N, const int K, const T alpha, const T *A, const int a_rs,
               const int a_cs, const T *B, const int b_rs, const int b_cs, const T beta, T *C,
               const int ldc)
{
    __shared__ T As[TS][TS];
    __shared__ T Bs[TS][TS + 1]; /* +1: B is read down a column, keep its rows off one bank */
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int col = blockIdx.x * TS + tx;
    const int row = blockIdx.y * TS + ty;
    T acc = T(0);
    for (int t = 0; t < K; t += TS) {
        As[ty][tx] = (row < M && t + tx < K) ? A[(long)row * a_rs + (long)(t + tx) * a_cs] : T(0);
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(long)(t + ty) * b_rs + (long)col * b_cs] : T(0);
        __syncthreads();
        for (int l = 0; l < TS; ++l)
            acc += As[ty][l] * Bs[l][tx];
        __syncthreads();
    }
    if (row < M && col < N) gemm_store(C[(long)row * ldc + col], alpha, acc, beta);
}

template <typename T>
cudaError_t launch(int tiled, int M, int N, int K, double alpha, const void *A, int a_rs, int a_cs,
                   const void *B, int b_rs, int b_cs, double beta, void *C, int ldc,
                   cudaStream_t stream)
{
    /* The global size rounded up to whole work-groups, as src/gemm/gemm.c does. */
    const dim3 block(TS, TS);
    const dim3 grid((unsigned)((N + TS - 1) / TS), (unsigned)((M + TS - 1) / TS));
    if (M == 0 || N == 0) return cudaSuccess; /* nothing to launch, as tsl__launch */
    const T *a = static_cast<const T *>(A), *b = static_cast<const T *>(B);
    T *c = static_cast<T *>(C);
    if (tiled)
        gemm_tiled<T><<<grid, block, 0, stream>>>(M, N, K, T(alpha), a, a_rs, a_cs, b, b_rs, b_cs,
                                                  T(beta), c, ldc);
    else
        gemm_naive<T><<<grid, block, 0, stream>>>(M, N, K, T(alpha), a, a_rs, a_cs, b, b_rs, b_cs,
                                                  T(beta), c, ldc);
    return cudaGetLastError();
}

} // namespace

extern "C" int tsl__cuda_twin_launch(int tiled, int is_double, int M, int N, int K, double alpha,
                                     const void *A, int a_rs, int a_cs, const void *B, int b_rs,
                                     int b_cs, double beta, void *C, int ldc, void *stream)
{
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    if (is_double)
        return (int)launch<double>(tiled, M, N, K, alpha, A, a_rs, a_cs, B, b_rs, b_cs, beta, C,
                                   ldc, s);
    return (int)launch<float>(tiled, M, N, K, alpha, A, a_rs, a_cs, B, b_rs, b_cs, beta, C, ldc, s);
}
