/* peers.c: the peer table and the GEMM call through it: argument checks, result reset. What
 * every peer shares is in peer_common.c; the peers themselves are in peer_<name>.c. */
#define _POSIX_C_SOURCE 200809L
#include "peers.h"
#include "peer_cublas.h"
#include "peer_cuda_twins.h"

#include <math.h>
#include <string.h>

static const tsl_peer peers[] = {
    {"clblast", "CLBlast on the same OpenCL device, queue and data as tessel",
     tsl__peer_clblast_gemm, 0, 1},
    {"cublas",
     "cuBLAS on the CUDA device of tessel's OpenCL device, same data and math (FP32 without TF32)",
     tsl__peer_cublas_gemm, 1, 1},
    {"cuda_naive", "CUDA C twin of tessel's naive kernel, on cublas's CUDA device, same data",
     tsl__peer_cuda_naive_gemm, 0, 0},
    {"cuda_tiled", "CUDA C twin of tessel's tiled_16x16 kernel, same device and data",
     tsl__peer_cuda_tiled_gemm, 0, 0},
    {"openblas", "OpenBLAS (CBLAS) on the host CPU, same data", tsl__peer_openblas_gemm, 0, 1},
};

size_t tsl_peer_count(void)
{
    return sizeof peers / sizeof peers[0];
}

const tsl_peer *tsl_peer_at(size_t index)
{
    return index < tsl_peer_count() ? &peers[index] : NULL;
}

const tsl_peer *tsl_peer_find(const char *name)
{
    for (size_t i = 0; name && i < tsl_peer_count(); ++i)
        if (strcmp(peers[i].name, name) == 0) return &peers[i];
    return NULL;
}

void tsl_peer_gemm(const tsl_peer *peer, const tsl_peer_gemm_args *args, tsl_peer_result *res)
{
    res->status = TSL_PEER_OK;
    res->reason[0] = '\0';
    res->device[0] = '\0';
    res->build_ms = NAN;
    res->upload_ms = NAN;
    res->download_ms = NAN;
    size_t ea, eb, ec;
    if (!peer || !args || !res->run_ms || !res->c || args->repeat == 0) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad peer arguments");
        return;
    }
    if ((args->layout != TSL_ROW_MAJOR && args->layout != TSL_COL_MAJOR) ||
        (args->transa != TSL_NO_TRANS && args->transa != TSL_TRANS &&
         !(args->cplx && args->transa == TSL_CONJ_TRANS)) ||
        (args->transb != TSL_NO_TRANS && args->transb != TSL_TRANS &&
         !(args->cplx && args->transb == TSL_CONJ_TRANS)) ||
        (args->cplx && args->storage != TSL_SINGLE) ||
        tsl_peer_matrix_elems(args->layout, args->transa, args->m, args->k, args->lda, &ea) ||
        tsl_peer_matrix_elems(args->layout, args->transb, args->k, args->n, args->ldb, &eb) ||
        tsl_peer_matrix_elems(args->layout, TSL_NO_TRANS, args->m, args->n, args->ldc, &ec) ||
        (ea && !args->a) || (eb && !args->b) || (ec && !args->c) ||
        (args->storage != TSL_SINGLE && args->storage != TSL_HALF &&
         args->storage != TSL_BFLOAT16) ||
        (args->storage != TSL_SINGLE && args->is_double) ||
        (args->math != TSL_MATH_FP32 && args->math != TSL_MATH_TF32 &&
         args->math != TSL_MATH_3XTF32) ||
        (args->math != TSL_MATH_FP32 && (args->is_double || args->storage != TSL_SINGLE))) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad GEMM arguments for peer %s", peer->name);
        return;
    }
    if (args->cplx && (!peer->cplx || (args->math == TSL_MATH_TF32 && !peer->reduced))) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "it has no complex GEMM%s",
                      peer->cplx ? " in TF32 math here" : "");
        return;
    }
    if (!peer->reduced && (args->storage != TSL_SINGLE || args->math == TSL_MATH_TF32)) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "it has no GEMM %s",
                      args->storage == TSL_HALF ? "on half-precision storage"
                      : args->storage == TSL_BFLOAT16
                          ? "on bfloat16 storage"
                          : "in TF32 math here (its rows compute in FP32)");
        return;
    }
    peer->gemm(args, res);
}
