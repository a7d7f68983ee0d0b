/* peer_transpose.c: the transpose peers (peer_transpose.h). CLBlast's omatcopy is called with
 * layout row-major, a_transpose yes and alpha 1, which is exactly B = A^T; it runs on buffers made
 * with tsl_buffer_* on tessel's queue, timed from a marker before the call to the end of its
 * last event (as the GEMM peer does, for the same reason: CLBlast may run several kernels). The
 * first call compiles CLBlast's kernels and is never timed. OpenBLAS's cblas_?omatcopy is an
 * OpenBLAS extension of CBLAS, timed with the host clock. */
#include "peer_transpose.h"
#include "peer_cublas.h"
#include "peer_openblas.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <cblas.h>

#include "tessel_cl.h"

/* ---- CLBlast ------------------------------------------------------------------------------ */

#if defined(TESSEL_HAVE_CLBLAST) && TESSEL_HAVE_CLBLAST
#include <clblast_c.h>

typedef struct {
    const tsl_peer_transpose_args *g;
    cl_mem a, b;
    cl_command_queue queue;
} clblast_call;

static int omatcopy(void *state, void **ev)
{
    clblast_call *c = state;
    const tsl_peer_transpose_args *g = c->g;
    if (g->is_double)
        return (int)CLBlastDomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, g->rows, g->cols,
                                     1.0, c->a, 0, g->lda, c->b, 0, g->ldb, &c->queue,
                                     (cl_event *)ev);
    return (int)CLBlastSomatcopy(CLBlastLayoutRowMajor, CLBlastTransposeYes, g->rows, g->cols, 1.0f,
                                 c->a, 0, g->lda, c->b, 0, g->ldb, &c->queue, (cl_event *)ev);
}

static void run_clblast(const tsl_peer_transpose_args *g, tsl_peer_result *res)
{
    tsl_context *ctx = g->ctx;
    if (!tsl__peer_clblast_ready(ctx, g->is_double, res)) return;
    size_t es = g->is_double ? sizeof(double) : sizeof(float);
    size_t ea = g->rows * g->lda, eb = g->cols * g->ldb;
    tsl_buffer *a = NULL, *b = NULL;
    tsl_timing t;
    if (tsl_buffer_create(ctx, ea * es, &a) || tsl_buffer_create(ctx, eb * es, &b)) {
        tsl__peer_set(res, TSL_PEER_ERROR, "buffers for CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    if (tsl_buffer_write(ctx, a, 0, ea * es, g->a) != TSL_OK) {
        tsl__peer_set(res, TSL_PEER_ERROR, "upload for CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    if (tsl_context_timing(ctx, &t) == TSL_OK) res->upload_ms = t.upload_ms;
    clblast_call call = {g, tsl_buffer_cl_mem(a), tsl_buffer_cl_mem(b), tsl_context_cl_queue(ctx)};
    int reset_failed;
    int st = tsl__peer_cl_runs(ctx, omatcopy, &call, NULL, g->warmup, g->repeat, res,
                               &reset_failed);
    if (st != 0) {
        tsl__peer_set(res, TSL_PEER_ERROR, "CLBlast%comatcopy returned %d",
                      g->is_double ? 'D' : 'S', st);
        goto done;
    }
    if (tsl_buffer_read(ctx, b, 0, eb * es, res->c) != TSL_OK) {
        tsl__peer_set(res, TSL_PEER_ERROR, "download from CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    if (tsl_context_timing(ctx, &t) == TSL_OK) res->download_ms = t.download_ms;
    res->status = TSL_PEER_OK;
done:
    tsl_buffer_destroy(a);
    tsl_buffer_destroy(b);
}

#else

static void run_clblast(const tsl_peer_transpose_args *g, tsl_peer_result *res)
{
    tsl__peer_clblast_missing(g->ctx, res);
}

#endif

/* ---- OpenBLAS ----------------------------------------------------------------------------- */

static void run_openblas(const tsl_peer_transpose_args *g, tsl_peer_result *res)
{
    tsl_openblas_describe(res->device, sizeof res->device);
    if (g->rows > INT_MAX || g->cols > INT_MAX || g->lda > INT_MAX || g->ldb > INT_MAX) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "OpenBLAS takes sizes up to %d (CBLAS int)", INT_MAX);
        return;
    }
    for (unsigned run = 0; run < g->warmup + g->repeat; ++run) {
        double t0 = tsl__peer_now_ms();
        if (g->is_double)
            cblas_domatcopy(CblasRowMajor, CblasTrans, (int)g->rows, (int)g->cols, 1.0, g->a,
                            (int)g->lda, res->c, (int)g->ldb);
        else
            cblas_somatcopy(CblasRowMajor, CblasTrans, (int)g->rows, (int)g->cols, 1.0f, g->a,
                            (int)g->lda, res->c, (int)g->ldb);
        double t1 = tsl__peer_now_ms();
        if (run >= g->warmup) res->run_ms[run - g->warmup] = t1 - t0;
    }
    res->status = TSL_PEER_OK;
}

static const struct {
    const char *name;
    void (*run)(const tsl_peer_transpose_args *, tsl_peer_result *);
} table[] = {
    {"clblast", run_clblast}, {"cublas", tsl__peer_cublas_transpose}, {"openblas", run_openblas}};

size_t tsl_peer_transpose_count(void)
{
    return sizeof table / sizeof table[0];
}

const char *tsl_peer_transpose_name(size_t index)
{
    return index < tsl_peer_transpose_count() ? table[index].name : NULL;
}

void tsl_peer_transpose(const char *name, const tsl_peer_transpose_args *args, tsl_peer_result *res)
{
    res->status = TSL_PEER_OK;
    res->reason[0] = res->device[0] = '\0';
    res->build_ms = res->upload_ms = res->download_ms = NAN;
    if (!args || !res->run_ms || !res->c || args->repeat == 0 || args->rows == 0 ||
        args->cols == 0 || args->lda < args->cols || args->ldb < args->rows) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad peer arguments");
        return;
    }
    for (size_t i = 0; i < tsl_peer_transpose_count(); ++i)
        if (name && strcmp(name, table[i].name) == 0) {
            table[i].run(args, res);
            return;
        }
    tsl__peer_set(res, TSL_PEER_ERROR, "no transpose peer named '%s'", name ? name : "(null)");
}
