/* peer_clblast.c: the CLBlast peer, CLBlastSgemm/CLBlastDgemm through CLBlast's C API on the
 * same OpenCL device and in-order profiling queue as tessel (tessel_cl.h), on buffers made with
 * tsl_buffer_*. Built without CLBlast (TESSEL_HAVE_CLBLAST unset) it reports skipped.
 *
 * Timing: CLBlast's returned event is only its last kernel; for sizes that need padding that is
 * the copy-back of C, not the GEMM (CLBlast's GemmIndirect). So each run is timed on the device
 * timeline from a marker enqueued just before the call to the end of that last event, which
 * covers CLBlast's pre- and post-processing kernels and whatever gap the host leaves between
 * them. The first call compiles CLBlast's kernels on the host (CLBlast caches them for the rest of
 * the process); it is always an untimed run (even with --warmup 0), and its host time less the
 * fastest timed run is reported as build_ms. */
#include "peers.h"

#include <stdio.h>

#if defined(TESSEL_HAVE_CLBLAST) && TESSEL_HAVE_CLBLAST

#include <clblast_c.h>

#include "tessel_cl.h"

static const char *clblast_status_text(CLBlastStatusCode s)
{
    switch (s) {
    case CLBlastSuccess:
        return "success";
    case CLBlastOpenCLOutOfResources:
        return "CL_OUT_OF_RESOURCES";
    case CLBlastOpenCLOutOfHostMemory:
        return "CL_OUT_OF_HOST_MEMORY";
    case CLBlastTempBufferAllocFailure:
        return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CLBlastInvalidBufferSize:
        return "CL_INVALID_BUFFER_SIZE";
    case CLBlastInvalidLocalThreadsTotal:
        return "CL_INVALID_WORK_GROUP_SIZE";
    case CLBlastOpenCLBuildProgramFailure:
        return "CL_BUILD_PROGRAM_FAILURE";
    case CLBlastNotImplemented:
        return "not implemented";
    case CLBlastInvalidDimension:
        return "invalid dimension";
    case CLBlastInvalidLocalMemUsage:
        return "not enough local memory on the device";
    case CLBlastNoDoublePrecision:
        return "no double precision on the device";
    case CLBlastDatabaseError:
        return "no tuning database entry for the device";
    case CLBlastUnknownError:
        return "unknown error";
    case CLBlastUnexpectedError:
        return "unexpected error";
    default:
        return "error";
    }
}

static CLBlastStatusCode call_gemm(const tsl_peer_gemm_args *g, cl_mem a, cl_mem b, cl_mem c,
                                   cl_command_queue *queue, cl_event *event)
{
    /* tessel's layout and transpose enums carry the CBLAS values, as CLBlast's do (113:
     * CLBlastTransposeConjugate). */
    CLBlastLayout layout =
        g->layout == TSL_COL_MAJOR ? CLBlastLayoutColMajor : CLBlastLayoutRowMajor;
    CLBlastTranspose ta = (CLBlastTranspose)g->transa, tb = (CLBlastTranspose)g->transb;
    if (g->cplx && g->is_double) {
        cl_double2 al = {{g->alpha, g->alpha_im}}, be = {{g->beta, g->beta_im}};
        return CLBlastZgemm(layout, ta, tb, g->m, g->n, g->k, al, a, 0, g->lda, b, 0, g->ldb, be,
                            c, 0, g->ldc, queue, event);
    }
    if (g->cplx) {
        cl_float2 al = {{(float)g->alpha, (float)g->alpha_im}};
        cl_float2 be = {{(float)g->beta, (float)g->beta_im}};
        return CLBlastCgemm(layout, ta, tb, g->m, g->n, g->k, al, a, 0, g->lda, b, 0, g->ldb, be,
                            c, 0, g->ldc, queue, event);
    }
    if (g->is_double)
        return CLBlastDgemm(layout, ta, tb, g->m, g->n, g->k, g->alpha, a, 0, g->lda, b, 0, g->ldb,
                            g->beta, c, 0, g->ldc, queue, event);
    return CLBlastSgemm(layout, ta, tb, g->m, g->n, g->k, (float)g->alpha, a, 0, g->lda, b, 0,
                        g->ldb, (float)g->beta, c, 0, g->ldc, queue, event);
}

/* One GEMM call for tsl__peer_timed_cl_call. */
typedef struct {
    const tsl_peer_gemm_args *g;
    cl_mem a, b, c;
    cl_command_queue queue;
} gemm_call;

static int gemm_call_run(void *state, void **ev)
{
    gemm_call *k = state;
    return (int)call_gemm(k->g, k->a, k->b, k->c, &k->queue, (cl_event *)ev);
}

void tsl__peer_clblast_gemm(const tsl_peer_gemm_args *g, tsl_peer_result *res)
{
    tsl_context *ctx = g->ctx;
    if (!tsl__peer_clblast_ready(ctx, g->is_double, res)) return;

    size_t es = (g->is_double ? sizeof(double) : sizeof(float)) * (g->cplx ? 2 : 1);
    size_t ea = 0, eb = 0, ec = 0;
    tsl_peer_matrix_elems(g->layout, g->transa, g->m, g->k, g->lda, &ea);
    tsl_peer_matrix_elems(g->layout, g->transb, g->k, g->n, g->ldb, &eb);
    tsl_peer_matrix_elems(g->layout, TSL_NO_TRANS, g->m, g->n, g->ldc, &ec);
    tsl_buffer *a = NULL, *b = NULL, *c = NULL;
    tsl_timing t;
    double upload = 0.0;
    tsl_status st = TSL_OK;
    /* Empty matrices still get a one-element buffer: OpenCL has no zero-sized buffers. */
    if ((st = tsl_buffer_create(ctx, ea ? ea * es : es, &a)) ||
        (st = tsl_buffer_create(ctx, eb ? eb * es : es, &b)) ||
        (st = tsl_buffer_create(ctx, ec ? ec * es : es, &c))) {
        tsl__peer_set(res, TSL_PEER_ERROR, "buffers for CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    if (ea && (st = tsl_buffer_write(ctx, a, 0, ea * es, g->a)) == TSL_OK &&
        tsl_context_timing(ctx, &t) == TSL_OK)
        upload += t.upload_ms;
    if (!st && eb && (st = tsl_buffer_write(ctx, b, 0, eb * es, g->b)) == TSL_OK &&
        tsl_context_timing(ctx, &t) == TSL_OK)
        upload += t.upload_ms;
    if (st) {
        tsl__peer_set(res, TSL_PEER_ERROR, "upload for CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    res->upload_ms = upload;

    gemm_call call = {g, tsl_buffer_cl_mem(a), tsl_buffer_cl_mem(b), tsl_buffer_cl_mem(c),
                      tsl_context_cl_queue(ctx)};
    /* Every run starts from the same C, so beta != 0 gives the same result each time. */
    tsl__peer_reset reset_c = {c, ec * es, g->c};
    int reset_failed;
    CLBlastStatusCode cs = (CLBlastStatusCode)tsl__peer_cl_runs(
        ctx, gemm_call_run, &call, ec ? &reset_c : NULL, g->warmup, g->repeat, res, &reset_failed);
    if (reset_failed) {
        tsl__peer_set(res, TSL_PEER_ERROR, "upload of C for CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    if (cs != CLBlastSuccess) {
        tsl__peer_set(res, TSL_PEER_ERROR, "%s returned %d (%s)",
                      g->cplx ? (g->is_double ? "CLBlastZgemm" : "CLBlastCgemm")
                      : g->is_double ? "CLBlastDgemm"
                                     : "CLBlastSgemm",
                      (int)cs,
                      clblast_status_text(cs));
        goto done;
    }
    if (ec) {
        if ((st = tsl_buffer_read(ctx, c, 0, ec * es, res->c)) != TSL_OK) {
            tsl__peer_set(res, TSL_PEER_ERROR, "download of C from CLBlast: %s",
                          tsl_context_error(ctx));
            goto done;
        }
        if (tsl_context_timing(ctx, &t) == TSL_OK) res->download_ms = t.download_ms;
    }
    res->status = TSL_PEER_OK;
done:
    tsl_buffer_destroy(a);
    tsl_buffer_destroy(b);
    tsl_buffer_destroy(c);
}

#else /* built without CLBlast */

void tsl__peer_clblast_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res)
{
    tsl__peer_clblast_missing(args->ctx, res);
}

#endif
