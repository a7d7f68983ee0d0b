/* peer_blas.c: the BLAS-1/2 peers (peer_blas.h). CLBlast runs Xaxpy, Xdot, Xnrm2 and Xgemv on
 * tsl_buffer memory of tessel's context, timed like the GEMM peer (peer_clblast.c): from a
 * profiled marker enqueued just before the call to the end of CLBlast's returned event, since
 * that event covers only CLBlast's last kernel (dot and nrm2 run two). The first call compiles
 * CLBlast's kernels and is never timed. OpenBLAS runs cblas_X on the host, timed with the
 * monotonic clock. Without CLBlast (TESSEL_HAVE_CLBLAST unset) the clblast peer is skipped. */
#include "peer_blas.h"
#include "peer_cublas.h"
#include "peer_openblas.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int tsl_blas_peer_known(const char *name)
{
    return name && (strcmp(name, "clblast") == 0 || strcmp(name, "cublas") == 0 ||
                    strcmp(name, "openblas") == 0);
}

static size_t out_len(const tsl_blas_peer_args *g)
{
    if (g->op == TSL_BLAS_DOT || g->op == TSL_BLAS_NRM2) return 1;
    if (g->op == TSL_BLAS_GEMV) return g->trans == TSL_TRANS ? g->n : g->m;
    return g->n;
}

static size_t x_len(const tsl_blas_peer_args *g)
{
    return g->op == TSL_BLAS_GEMV ? (g->trans == TSL_TRANS ? g->m : g->n) : g->n;
}

static size_t a_elems(const tsl_blas_peer_args *g)
{
    if (g->op != TSL_BLAS_GEMV) return 0;
    return (g->layout == TSL_ROW_MAJOR ? g->m : g->n) * g->lda;
}

/* ---- OpenBLAS ---------------------------------------------------------------------------------
 */

static void run_openblas(const tsl_blas_peer_args *g, tsl_peer_result *res)
{
    tsl_openblas_describe(res->device, sizeof res->device);
    size_t es = g->is_double ? sizeof(double) : sizeof(float), ny = out_len(g);
    int n = (int)g->n, m = (int)g->m, lda = (int)g->lda;
    enum CBLAS_ORDER order = g->layout == TSL_COL_MAJOR ? CblasColMajor : CblasRowMajor;
    enum CBLAS_TRANSPOSE tr = g->trans == TSL_TRANS ? CblasTrans : CblasNoTrans;
    for (unsigned run = 0; run < g->warmup + g->repeat; ++run) {
        if (g->op == TSL_BLAS_AXPY || g->op == TSL_BLAS_GEMV) memcpy(res->c, g->y, ny * es);
        double t0 = tsl__peer_now_ms();
        if (g->is_double) {
            double *out = res->c;
            if (g->op == TSL_BLAS_AXPY) cblas_daxpy(n, g->alpha, g->x, 1, out, 1);
            if (g->op == TSL_BLAS_DOT) out[0] = cblas_ddot(n, g->x, 1, g->y, 1);
            if (g->op == TSL_BLAS_NRM2) out[0] = cblas_dnrm2(n, g->x, 1);
            if (g->op == TSL_BLAS_GEMV)
                cblas_dgemv(order, tr, m, n, g->alpha, g->a, lda, g->x, 1, g->beta, out, 1);
        } else {
            float *out = res->c;
            float alpha = (float)g->alpha, beta = (float)g->beta;
            if (g->op == TSL_BLAS_AXPY) cblas_saxpy(n, alpha, g->x, 1, out, 1);
            if (g->op == TSL_BLAS_DOT) out[0] = cblas_sdot(n, g->x, 1, g->y, 1);
            if (g->op == TSL_BLAS_NRM2) out[0] = cblas_snrm2(n, g->x, 1);
            if (g->op == TSL_BLAS_GEMV)
                cblas_sgemv(order, tr, m, n, alpha, g->a, lda, g->x, 1, beta, out, 1);
        }
        double t1 = tsl__peer_now_ms();
        if (run >= g->warmup) res->run_ms[run - g->warmup] = t1 - t0;
    }
    res->status = TSL_PEER_OK;
}

/* ---- CLBlast ----------------------------------------------------------------------------------
 */

#if defined(TESSEL_HAVE_CLBLAST) && TESSEL_HAVE_CLBLAST

#include <clblast_c.h>

#include "tessel_cl.h"

static CLBlastStatusCode call_clblast(const tsl_blas_peer_args *g, cl_mem a, cl_mem x, cl_mem y,
                                      cl_mem out, cl_command_queue *q, cl_event *ev)
{
    size_t n = g->n;
    CLBlastLayout lay = g->layout == TSL_COL_MAJOR ? CLBlastLayoutColMajor : CLBlastLayoutRowMajor;
    CLBlastTranspose tr = g->trans == TSL_TRANS ? CLBlastTransposeYes : CLBlastTransposeNo;
    if (g->is_double) {
        switch (g->op) {
        case TSL_BLAS_AXPY:
            return CLBlastDaxpy(n, g->alpha, x, 0, 1, y, 0, 1, q, ev);
        case TSL_BLAS_DOT:
            return CLBlastDdot(n, out, 0, x, 0, 1, y, 0, 1, q, ev);
        case TSL_BLAS_NRM2:
            return CLBlastDnrm2(n, out, 0, x, 0, 1, q, ev);
        default:
            return CLBlastDgemv(lay, tr, g->m, n, g->alpha, a, 0, g->lda, x, 0, 1, g->beta, y, 0, 1,
                                q, ev);
        }
    }
    float alpha = (float)g->alpha, beta = (float)g->beta;
    switch (g->op) {
    case TSL_BLAS_AXPY:
        return CLBlastSaxpy(n, alpha, x, 0, 1, y, 0, 1, q, ev);
    case TSL_BLAS_DOT:
        return CLBlastSdot(n, out, 0, x, 0, 1, y, 0, 1, q, ev);
    case TSL_BLAS_NRM2:
        return CLBlastSnrm2(n, out, 0, x, 0, 1, q, ev);
    default:
        return CLBlastSgemv(lay, tr, g->m, n, alpha, a, 0, g->lda, x, 0, 1, beta, y, 0, 1, q, ev);
    }
}

/* One CLBlast call for tsl__peer_timed_cl_call. */
typedef struct {
    const tsl_blas_peer_args *g;
    cl_mem a, x, y, out;
    cl_command_queue queue;
} blas_call;

static int blas_call_run(void *state, void **ev)
{
    blas_call *k = state;
    return (int)call_clblast(k->g, k->a, k->x, k->y, k->out, &k->queue, (cl_event *)ev);
}

static void run_clblast(const tsl_blas_peer_args *g, tsl_peer_result *res)
{
    tsl_context *ctx = g->ctx;
    if (!tsl__peer_clblast_ready(ctx, g->is_double, res)) return;
    size_t es = g->is_double ? sizeof(double) : sizeof(float);
    size_t ea = a_elems(g), ex = x_len(g), ey = out_len(g);
    int writes_y = g->op == TSL_BLAS_AXPY || g->op == TSL_BLAS_GEMV;
    tsl_buffer *a = NULL, *x = NULL, *y = NULL, *out = NULL;
    tsl_status st;
    tsl_timing t;
    double upload = 0.0;
    if ((st = tsl_buffer_create(ctx, ea ? ea * es : es, &a)) ||
        (st = tsl_buffer_create(ctx, ex ? ex * es : es, &x)) ||
        (st = tsl_buffer_create(ctx, (g->op == TSL_BLAS_DOT ? ex : ey) * es + es, &y)) ||
        (st = tsl_buffer_create(ctx, es, &out))) {
        tsl__peer_set(res, TSL_PEER_ERROR, "buffers for CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    if (ea && !(st = tsl_buffer_write(ctx, a, 0, ea * es, g->a)) && !tsl_context_timing(ctx, &t))
        upload += t.upload_ms;
    if (!st && !(st = tsl_buffer_write(ctx, x, 0, ex * es, g->x)) && !tsl_context_timing(ctx, &t))
        upload += t.upload_ms;
    if (!st && g->op == TSL_BLAS_DOT && !(st = tsl_buffer_write(ctx, y, 0, ex * es, g->y)) &&
        !tsl_context_timing(ctx, &t))
        upload += t.upload_ms;
    if (st) {
        tsl__peer_set(res, TSL_PEER_ERROR, "upload for CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    res->upload_ms = upload;
    blas_call call = {g,
                      tsl_buffer_cl_mem(a),
                      tsl_buffer_cl_mem(x),
                      tsl_buffer_cl_mem(y),
                      tsl_buffer_cl_mem(out),
                      tsl_context_cl_queue(ctx)};
    tsl__peer_reset reset_y = {y, ey * es, g->y};
    int reset_failed;
    int cs = tsl__peer_cl_runs(ctx, blas_call_run, &call, writes_y ? &reset_y : NULL, g->warmup,
                               g->repeat, res, &reset_failed);
    if (reset_failed) {
        tsl__peer_set(res, TSL_PEER_ERROR, "upload of y for CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    if (cs != 0) {
        tsl__peer_set(res, TSL_PEER_ERROR, "CLBlast call returned %d", cs);
        goto done;
    }
    st = writes_y ? tsl_buffer_read(ctx, y, 0, ey * es, res->c)
                  : tsl_buffer_read(ctx, out, 0, es, res->c);
    if (st != TSL_OK) {
        tsl__peer_set(res, TSL_PEER_ERROR, "download from CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    if (tsl_context_timing(ctx, &t) == TSL_OK) res->download_ms = t.download_ms;
    res->status = TSL_PEER_OK;
done:
    tsl_buffer_destroy(a);
    tsl_buffer_destroy(x);
    tsl_buffer_destroy(y);
    tsl_buffer_destroy(out);
}

#else

static void run_clblast(const tsl_blas_peer_args *g, tsl_peer_result *res)
{
    tsl__peer_clblast_missing(g->ctx, res);
}

#endif

void tsl_blas_peer_run(const char *name, const tsl_blas_peer_args *args, tsl_peer_result *res)
{
    res->status = TSL_PEER_OK;
    res->reason[0] = '\0';
    res->device[0] = '\0';
    res->build_ms = res->upload_ms = res->download_ms = NAN;
    if (!args || !res->run_ms || !res->c || args->repeat == 0 || !tsl_blas_peer_known(name) ||
        args->n == 0 || (args->op == TSL_BLAS_GEMV && args->m == 0)) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad peer arguments");
        return;
    }
    if (strcmp(name, "clblast") == 0)
        run_clblast(args, res);
    else if (strcmp(name, "cublas") == 0)
        tsl__peer_cublas_blas(args, res);
    else
        run_openblas(args, res);
}
