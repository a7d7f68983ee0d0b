/* peer_openblas.c: the OpenBLAS peer, GEMM on the host CPU through the CBLAS reference of
 * src/ref (tsl_ref_sgemm / tsl_ref_dgemm), timed with the monotonic host clock around each call.
 * It answers "how does the OpenCL device compare with a tuned CPU BLAS on this machine". */
#include "peers.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ref/ref.h"

void tsl__peer_openblas_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res)
{
    snprintf(res->device, sizeof res->device, "host CPU (OpenBLAS)");
    /* CBLAS takes int sizes. */
    if (args->m > INT_MAX || args->n > INT_MAX || args->k > INT_MAX || args->lda > INT_MAX ||
        args->ldb > INT_MAX || args->ldc > INT_MAX) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "OpenBLAS takes sizes up to %d (CBLAS int)", INT_MAX);
        return;
    }
    size_t ec = 0;
    tsl_peer_matrix_elems(args->layout, TSL_NO_TRANS, args->m, args->n, args->ldc, &ec);
    size_t c_bytes = ec * (args->is_double ? sizeof(double) : sizeof(float));

    for (unsigned run = 0; run < args->warmup + args->repeat; ++run) {
        if (c_bytes) memcpy(res->c, args->c, c_bytes); /* every run starts from the same C */
        double t0 = tsl__peer_now_ms();
        if (args->is_double)
            tsl_ref_dgemm(args->layout, args->transa, args->transb, args->m, args->n, args->k,
                          args->alpha, args->a, args->lda, args->b, args->ldb, args->beta, res->c,
                          args->ldc);
        else
            tsl_ref_sgemm(args->layout, args->transa, args->transb, args->m, args->n, args->k,
                          (float)args->alpha, args->a, args->lda, args->b, args->ldb,
                          (float)args->beta, res->c, args->ldc);
        double t1 = tsl__peer_now_ms();
        if (run >= args->warmup) res->run_ms[run - args->warmup] = t1 - t0;
    }
    res->status = TSL_PEER_OK;
}
