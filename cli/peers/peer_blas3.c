/* peer_blas3.c: the Level-3 and strided batched GEMM peers (peer_blas3.h). OpenBLAS runs cblas_X
 * on the host (batched: one cblas_Xgemm per problem, OpenBLAS 0.3.21 having no batched call),
 * timed with the monotonic clock (the complex routines: cblas_c* / cblas_z*, tsl_ref_z3). CLBlast
 * runs Xsymm, Xsyrk, Xsyr2k, Xtrmm, Xtrsm (complex: C and Z, Xhemm, Xherk, Xher2k too) and
 * XgemmStridedBatched on tsl_buffer memory of tessel's context, timed like the GEMM peer
 * (peer_clblast.c): from a profiled marker enqueued just before the call to the end of CLBlast's
 * returned event (which covers only its last kernel); the first call compiles CLBlast's kernels
 * and is never timed. The output is reset from the caller's copy before every run, outside the
 * timed span. cuBLAS: peer_cublas.c. Without CLBlast (TESSEL_HAVE_CLBLAST unset) the clblast peer
 * is skipped. */
#include "peer_blas3.h"
#include "peer_openblas.h"
#include "peer_cublas.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ref/ref.h"
#include "ref/ref_level3.h"

int tsl_l3_peer_known(const char *name)
{
    return name && (strcmp(name, "clblast") == 0 || strcmp(name, "cublas") == 0 ||
                    strcmp(name, "openblas") == 0);
}

static void reset(tsl_peer_result *res)
{
    res->status = TSL_PEER_OK;
    res->reason[0] = '\0';
    res->device[0] = '\0';
    res->build_ms = res->upload_ms = res->download_ms = NAN;
}

/* ---- OpenBLAS -------------------------------------------------------------------------------- */

/* The complex routine's call as tsl_ref_z3 takes it. */
static tsl_ref_z3_call z3_of(const tsl_l3_peer_args *g)
{
    tsl_ref_z3_call z = {g->z3,   g->layout, g->side, g->uplo, g->trans, g->diag, g->m,
                         g->n,    g->k,      g->lda,  g->ldb,  g->ldc,   {g->alpha, g->alpha_i},
                         {g->beta, g->beta_i}};
    return z;
}

static void openblas_l3_call(const tsl_l3_peer_args *g, void *out)
{
    if (g->cplx) { /* cblas_c* / cblas_z* */
        tsl_ref_z3_call z = z3_of(g);
        tsl_ref_z3(&z, !g->is_double, g->a, g->b, out);
        return;
    }
    if (g->is_double) {
        switch (g->op) {
        case TSL_L3_SYMM:
            tsl_ref_dsymm(g->layout, g->side, g->uplo, g->m, g->n, g->alpha, g->a, g->lda, g->b,
                          g->ldb, g->beta, out, g->ldc);
            break;
        case TSL_L3_SYRK:
            tsl_ref_dsyrk(g->layout, g->uplo, g->trans, g->n, g->k, g->alpha, g->a, g->lda,
                          g->beta, out, g->ldc);
            break;
        case TSL_L3_SYR2K:
            tsl_ref_dsyr2k(g->layout, g->uplo, g->trans, g->n, g->k, g->alpha, g->a, g->lda, g->b,
                           g->ldb, g->beta, out, g->ldc);
            break;
        case TSL_L3_TRMM:
            tsl_ref_dtrmm(g->layout, g->side, g->uplo, g->trans, g->diag, g->m, g->n, g->alpha,
                          g->a, g->lda, out, g->ldc);
            break;
        case TSL_L3_TRSM:
            tsl_ref_dtrsm(g->layout, g->side, g->uplo, g->trans, g->diag, g->m, g->n, g->alpha,
                          g->a, g->lda, out, g->ldc);
            break;
        }
        return;
    }
    float alpha = (float)g->alpha, beta = (float)g->beta;
    switch (g->op) {
    case TSL_L3_SYMM:
        tsl_ref_ssymm(g->layout, g->side, g->uplo, g->m, g->n, alpha, g->a, g->lda, g->b, g->ldb,
                      beta, out, g->ldc);
        break;
    case TSL_L3_SYRK:
        tsl_ref_ssyrk(g->layout, g->uplo, g->trans, g->n, g->k, alpha, g->a, g->lda, beta, out,
                      g->ldc);
        break;
    case TSL_L3_SYR2K:
        tsl_ref_ssyr2k(g->layout, g->uplo, g->trans, g->n, g->k, alpha, g->a, g->lda, g->b, g->ldb,
                       beta, out, g->ldc);
        break;
    case TSL_L3_TRMM:
        tsl_ref_strmm(g->layout, g->side, g->uplo, g->trans, g->diag, g->m, g->n, alpha, g->a,
                      g->lda, out, g->ldc);
        break;
    case TSL_L3_TRSM:
        tsl_ref_strsm(g->layout, g->side, g->uplo, g->trans, g->diag, g->m, g->n, alpha, g->a,
                      g->lda, out, g->ldc);
        break;
    }
}

static void openblas_batched_call(const tsl_batched_peer_args *g, void *out)
{
    size_t es = g->is_double ? sizeof(double) : sizeof(float);
    const char *a = g->a, *b = g->b;
    char *c = out;
    for (size_t p = 0; p < g->batch; ++p) {
        if (g->is_double)
            tsl_ref_dgemm(g->layout, g->transa, g->transb, g->m, g->n, g->k, g->alpha,
                          (const double *)(const void *)(a + p * g->stride_a * es), g->lda,
                          (const double *)(const void *)(b + p * g->stride_b * es), g->ldb,
                          g->beta, (double *)(void *)(c + p * g->stride_c * es), g->ldc);
        else
            tsl_ref_sgemm(g->layout, g->transa, g->transb, g->m, g->n, g->k, (float)g->alpha,
                          (const float *)(const void *)(a + p * g->stride_a * es), g->lda,
                          (const float *)(const void *)(b + p * g->stride_b * es), g->ldb,
                          (float)g->beta, (float *)(void *)(c + p * g->stride_c * es), g->ldc);
    }
}

/* warmup + repeat runs of one call on the host, the output reset from c0 before each. */
static void openblas_runs(const void *args, void (*call)(const void *args, void *out),
                          const void *c0, size_t out_bytes, unsigned warmup, unsigned repeat,
                          tsl_peer_result *res)
{
    tsl_openblas_describe(res->device, sizeof res->device);
    for (unsigned run = 0; run < warmup + repeat; ++run) {
        if (out_bytes) memcpy(res->c, c0, out_bytes);
        double t0 = tsl__peer_now_ms();
        call(args, res->c);
        double t1 = tsl__peer_now_ms();
        if (run >= warmup) res->run_ms[run - warmup] = t1 - t0;
    }
    res->status = TSL_PEER_OK;
}

static void l3_call_adapter(const void *args, void *out)
{
    openblas_l3_call(args, out);
}
static void batched_call_adapter(const void *args, void *out)
{
    openblas_batched_call(args, out);
}

/* ---- CLBlast --------------------------------------------------------------------------------- */

#if defined(TESSEL_HAVE_CLBLAST) && TESSEL_HAVE_CLBLAST

#include <clblast_c.h>

#include "tessel_cl.h"

/* tessel's enums carry the CBLAS values, as CLBlast's do. */
/* The complex routines: CLBlast's C and Z calls (herk's scalars and her2k's beta real). */
static CLBlastStatusCode clblast_z3(const tsl_l3_peer_args *g, cl_mem a, cl_mem b, cl_mem c,
                                    cl_command_queue *q, cl_event *ev)
{
    CLBlastLayout lay = (CLBlastLayout)g->layout;
    CLBlastSide sd = (CLBlastSide)g->side;
    CLBlastTriangle tri = (CLBlastTriangle)g->uplo;
    CLBlastTranspose tr = (CLBlastTranspose)g->trans;
    CLBlastDiagonal dg = (CLBlastDiagonal)g->diag;
    size_t m = g->m, n = g->n, k = g->k, lda = g->lda, ldb = g->ldb, ldc = g->ldc;
    if (g->is_double) {
        cl_double2 al = {{g->alpha, g->alpha_i}}, be = {{g->beta, g->beta_i}};
        switch (g->z3) {
        case TSL_REF_SYMM:
            return CLBlastZsymm(lay, sd, tri, m, n, al, a, 0, lda, b, 0, ldb, be, c, 0, ldc, q, ev);
        case TSL_REF_HEMM:
            return CLBlastZhemm(lay, sd, tri, m, n, al, a, 0, lda, b, 0, ldb, be, c, 0, ldc, q, ev);
        case TSL_REF_SYRK:
            return CLBlastZsyrk(lay, tri, tr, n, k, al, a, 0, lda, be, c, 0, ldc, q, ev);
        case TSL_REF_HERK:
            return CLBlastZherk(lay, tri, tr, n, k, g->alpha, a, 0, lda, g->beta, c, 0, ldc, q,
                                ev);
        case TSL_REF_SYR2K:
            return CLBlastZsyr2k(lay, tri, tr, n, k, al, a, 0, lda, b, 0, ldb, be, c, 0, ldc, q,
                                 ev);
        case TSL_REF_HER2K:
            return CLBlastZher2k(lay, tri, tr, n, k, al, a, 0, lda, b, 0, ldb, g->beta, c, 0, ldc,
                                 q, ev);
        case TSL_REF_TRMM:
            return CLBlastZtrmm(lay, sd, tri, tr, dg, m, n, al, a, 0, lda, c, 0, ldc, q, ev);
        default:
            return CLBlastZtrsm(lay, sd, tri, tr, dg, m, n, al, a, 0, lda, c, 0, ldc, q, ev);
        }
    }
    cl_float2 al = {{(float)g->alpha, (float)g->alpha_i}};
    cl_float2 be = {{(float)g->beta, (float)g->beta_i}};
    float ar = (float)g->alpha, br = (float)g->beta;
    switch (g->z3) {
    case TSL_REF_SYMM:
        return CLBlastCsymm(lay, sd, tri, m, n, al, a, 0, lda, b, 0, ldb, be, c, 0, ldc, q, ev);
    case TSL_REF_HEMM:
        return CLBlastChemm(lay, sd, tri, m, n, al, a, 0, lda, b, 0, ldb, be, c, 0, ldc, q, ev);
    case TSL_REF_SYRK:
        return CLBlastCsyrk(lay, tri, tr, n, k, al, a, 0, lda, be, c, 0, ldc, q, ev);
    case TSL_REF_HERK:
        return CLBlastCherk(lay, tri, tr, n, k, ar, a, 0, lda, br, c, 0, ldc, q, ev);
    case TSL_REF_SYR2K:
        return CLBlastCsyr2k(lay, tri, tr, n, k, al, a, 0, lda, b, 0, ldb, be, c, 0, ldc, q, ev);
    case TSL_REF_HER2K:
        return CLBlastCher2k(lay, tri, tr, n, k, al, a, 0, lda, b, 0, ldb, br, c, 0, ldc, q, ev);
    case TSL_REF_TRMM:
        return CLBlastCtrmm(lay, sd, tri, tr, dg, m, n, al, a, 0, lda, c, 0, ldc, q, ev);
    default:
        return CLBlastCtrsm(lay, sd, tri, tr, dg, m, n, al, a, 0, lda, c, 0, ldc, q, ev);
    }
}

static CLBlastStatusCode clblast_l3(const tsl_l3_peer_args *g, cl_mem a, cl_mem b, cl_mem c,
                                    cl_command_queue *q, cl_event *ev)
{
    if (g->cplx) return clblast_z3(g, a, b, c, q, ev);
    CLBlastLayout lay = (CLBlastLayout)g->layout;
    CLBlastSide sd = (CLBlastSide)g->side;
    CLBlastTriangle tri = (CLBlastTriangle)g->uplo;
    CLBlastTranspose tr = (CLBlastTranspose)g->trans;
    CLBlastDiagonal dg = (CLBlastDiagonal)g->diag;
    if (g->is_double) {
        switch (g->op) {
        case TSL_L3_SYMM:
            return CLBlastDsymm(lay, sd, tri, g->m, g->n, g->alpha, a, 0, g->lda, b, 0, g->ldb,
                                g->beta, c, 0, g->ldc, q, ev);
        case TSL_L3_SYRK:
            return CLBlastDsyrk(lay, tri, tr, g->n, g->k, g->alpha, a, 0, g->lda, g->beta, c, 0,
                                g->ldc, q, ev);
        case TSL_L3_SYR2K:
            return CLBlastDsyr2k(lay, tri, tr, g->n, g->k, g->alpha, a, 0, g->lda, b, 0, g->ldb,
                                 g->beta, c, 0, g->ldc, q, ev);
        case TSL_L3_TRMM:
            return CLBlastDtrmm(lay, sd, tri, tr, dg, g->m, g->n, g->alpha, a, 0, g->lda, c, 0,
                                g->ldc, q, ev);
        default:
            return CLBlastDtrsm(lay, sd, tri, tr, dg, g->m, g->n, g->alpha, a, 0, g->lda, c, 0,
                                g->ldc, q, ev);
        }
    }
    float al = (float)g->alpha, be = (float)g->beta;
    switch (g->op) {
    case TSL_L3_SYMM:
        return CLBlastSsymm(lay, sd, tri, g->m, g->n, al, a, 0, g->lda, b, 0, g->ldb, be, c, 0,
                            g->ldc, q, ev);
    case TSL_L3_SYRK:
        return CLBlastSsyrk(lay, tri, tr, g->n, g->k, al, a, 0, g->lda, be, c, 0, g->ldc, q, ev);
    case TSL_L3_SYR2K:
        return CLBlastSsyr2k(lay, tri, tr, g->n, g->k, al, a, 0, g->lda, b, 0, g->ldb, be, c, 0,
                             g->ldc, q, ev);
    case TSL_L3_TRMM:
        return CLBlastStrmm(lay, sd, tri, tr, dg, g->m, g->n, al, a, 0, g->lda, c, 0, g->ldc, q,
                            ev);
    default:
        return CLBlastStrsm(lay, sd, tri, tr, dg, g->m, g->n, al, a, 0, g->lda, c, 0, g->ldc, q,
                            ev);
    }
}

static CLBlastStatusCode clblast_batched(const tsl_batched_peer_args *g, cl_mem a, cl_mem b,
                                         cl_mem c, cl_command_queue *q, cl_event *ev)
{
    CLBlastLayout lay = (CLBlastLayout)g->layout;
    CLBlastTranspose ta = (CLBlastTranspose)g->transa, tb = (CLBlastTranspose)g->transb;
    if (g->is_double)
        return CLBlastDgemmStridedBatched(lay, ta, tb, g->m, g->n, g->k, g->alpha, a, 0, g->lda,
                                          g->stride_a, b, 0, g->ldb, g->stride_b, g->beta, c, 0,
                                          g->ldc, g->stride_c, g->batch, q, ev);
    return CLBlastSgemmStridedBatched(lay, ta, tb, g->m, g->n, g->k, (float)g->alpha, a, 0,
                                      g->lda, g->stride_a, b, 0, g->ldb, g->stride_b,
                                      (float)g->beta, c, 0, g->ldc, g->stride_c, g->batch, q, ev);
}

typedef struct {
    const void *args;
    int batched;
    cl_mem a, b, c;
    cl_command_queue queue;
} cl_call_state;

static int cl_call_run(void *state, void **ev)
{
    cl_call_state *k = state;
    return k->batched
               ? (int)clblast_batched(k->args, k->a, k->b, k->c, &k->queue, (cl_event *)ev)
               : (int)clblast_l3(k->args, k->a, k->b, k->c, &k->queue, (cl_event *)ev);
}

static void clblast_runs(tsl_context *ctx, int is_double, const void *args, int batched,
                         const void *ha, size_t ea, const void *hb, size_t eb, const void *hc,
                         size_t ec, unsigned warmup_runs, unsigned repeat, tsl_peer_result *res)
{
    if (!tsl__peer_clblast_ready(ctx, is_double, res)) return;
    size_t es = is_double ? sizeof(double) : sizeof(float);
    tsl_buffer *a = NULL, *b = NULL, *c = NULL;
    tsl_timing t;
    double upload = 0.0;
    tsl_status st;
    if ((st = tsl_buffer_create(ctx, ea ? ea * es : es, &a)) ||
        (st = tsl_buffer_create(ctx, eb ? eb * es : es, &b)) ||
        (st = tsl_buffer_create(ctx, ec ? ec * es : es, &c))) {
        tsl__peer_set(res, TSL_PEER_ERROR, "buffers for CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    if (ea && !(st = tsl_buffer_write(ctx, a, 0, ea * es, ha)) && !tsl_context_timing(ctx, &t))
        upload += t.upload_ms;
    if (!st && eb && !(st = tsl_buffer_write(ctx, b, 0, eb * es, hb)) &&
        !tsl_context_timing(ctx, &t))
        upload += t.upload_ms;
    if (st) {
        tsl__peer_set(res, TSL_PEER_ERROR, "upload for CLBlast: %s", tsl_context_error(ctx));
        goto done;
    }
    res->upload_ms = upload;
    cl_call_state call = {args, batched, tsl_buffer_cl_mem(a), tsl_buffer_cl_mem(b),
                          tsl_buffer_cl_mem(c), tsl_context_cl_queue(ctx)};
    tsl__peer_reset reset_c = {c, ec * es, hc};
    int reset_failed;
    int cs = tsl__peer_cl_runs(ctx, cl_call_run, &call, ec ? &reset_c : NULL, warmup_runs,
                               repeat, res, &reset_failed);
    if (reset_failed) {
        tsl__peer_set(res, TSL_PEER_ERROR, "upload of the output for CLBlast: %s",
                      tsl_context_error(ctx));
        goto done;
    }
    if (cs != 0) {
        tsl__peer_set(res, TSL_PEER_ERROR, "CLBlast returned %d", cs);
        goto done;
    }
    if (ec) {
        if ((st = tsl_buffer_read(ctx, c, 0, ec * es, res->c)) != TSL_OK) {
            tsl__peer_set(res, TSL_PEER_ERROR, "download from CLBlast: %s", tsl_context_error(ctx));
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

#else

static void clblast_runs(tsl_context *ctx, int is_double, const void *args, int batched,
                         const void *ha, size_t ea, const void *hb, size_t eb, const void *hc,
                         size_t ec, unsigned warmup_runs, unsigned repeat, tsl_peer_result *res)
{
    (void)is_double, (void)args, (void)batched, (void)ha, (void)ea, (void)hb, (void)eb;
    (void)hc, (void)ec, (void)warmup_runs, (void)repeat;
    tsl__peer_clblast_missing(ctx, res);
}

#endif

/* ---- dispatch -------------------------------------------------------------------------------- */

void tsl_l3_peer_run(const char *name, const tsl_l3_peer_args *g, tsl_peer_result *res)
{
    reset(res);
    if (!g || !res->run_ms || !res->c || g->repeat == 0 || !tsl_l3_peer_known(name)) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad peer arguments");
        return;
    }
    if (g->m > INT_MAX || g->n > INT_MAX || g->k > INT_MAX || g->lda > INT_MAX ||
        g->ldb > INT_MAX || g->ldc > INT_MAX) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "peers take sizes up to %d (int APIs)", INT_MAX);
        return;
    }
    size_t es = g->is_double ? sizeof(double) : sizeof(float), parts = g->cplx ? 2 : 1;
    if (strcmp(name, "openblas") == 0)
        openblas_runs(g, l3_call_adapter, g->c, g->ec * parts * es, g->warmup, g->repeat, res);
    else if (strcmp(name, "clblast") == 0) /* a complex element as two reals */
        clblast_runs(g->ctx, g->is_double, g, 0, g->a, g->ea * parts, g->b, g->eb * parts, g->c,
                     g->ec * parts, g->warmup, g->repeat, res);
    else if (g->cplx)
        tsl__peer_set(res, TSL_PEER_SKIPPED, "the cublas peer has no complex Level-3 routines");
    else
        tsl__peer_cublas_l3(g, res);
}

void tsl_batched_peer_run(const char *name, const tsl_batched_peer_args *g, tsl_peer_result *res)
{
    reset(res);
    if (!g || !res->run_ms || !res->c || g->repeat == 0 || !tsl_l3_peer_known(name)) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad peer arguments");
        return;
    }
    if (g->m > INT_MAX || g->n > INT_MAX || g->k > INT_MAX || g->lda > INT_MAX ||
        g->ldb > INT_MAX || g->ldc > INT_MAX || g->batch > INT_MAX) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "peers take sizes up to %d (int APIs)", INT_MAX);
        return;
    }
    size_t es = g->is_double ? sizeof(double) : sizeof(float);
    if (strcmp(name, "openblas") == 0)
        openblas_runs(g, batched_call_adapter, g->c, g->ec * es, g->warmup, g->repeat, res);
    else if (strcmp(name, "clblast") == 0)
        clblast_runs(g->ctx, g->is_double, g, 1, g->a, g->ea, g->b, g->eb, g->c, g->ec, g->warmup,
                     g->repeat, res);
    else
        tsl__peer_cublas_batched(g, res);
}
