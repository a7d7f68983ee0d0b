/* peer_cuda_twins.c: the host side of the CUDA twins (peer_cuda_twins.h), in C like the other
 * peers. Each call opens its own session, as the cuBLAS peer does: it asks the CUDA runtime for
 * devices (none, or no driver, is "skipped: no CUDA device"), picks the CUDA device that is
 * tessel's OpenCL device (same UUID through cl_khr_device_uuid, else the same name, else device
 * 0), skips a device older than the compiled architecture (sm_90), creates a stream and two
 * events, copies A, B and C to cudaMalloc memory, runs warmup + repeat launches and copies the C
 * of the last back. The problem reaches the kernel as it reaches gemm.cl's (src/gemm/gemm.c): a
 * column-major call is the row-major C^T = op(B)^T op(A)^T on the same memory (A and B, m and n
 * swapped), and a transpose is a pair of strides. Every timed run is the time between two events
 * recorded around the one launch; C is reset from a pristine device copy before each run when
 * beta != 0 (outside the timed span). The first launch is never timed, even with --warmup 0: the
 * CUDA runtime loads the module on first use. build_ms is the session's setup (CUDA context) plus
 * that first launch less the fastest timed run; upload_ms and download_ms are event times of the
 * copies. The session, device choice, copies and timed runs are the CUDA peers' shared ones
 * (peer_cuda.h). Where CMake found no nvcc (TESSEL_HAVE_CUDA_TWINS unset) both peers report
 * skipped. */
#include "peer_cuda_twins.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#if defined(TESSEL_HAVE_CUDA_TWINS) && TESSEL_HAVE_CUDA_TWINS

#include "peer_cuda.h"

int tsl_peer_cuda_twins_built(void)
{
    return 1;
}

enum { A_MEM, B_MEM, C_MEM, C0_MEM, NMEM }; /* device arrays of a session */

typedef struct {
    tsl__cuda_session cu;
    void *mem[NMEM];
} twin_session;

static int cu_ok(twin_session *s, cudaError_t e, const char *call)
{
    return tsl__cuda_ok(&s->cu, e, call);
}

/* Opens the session (peer_cuda.h); 0 with res set (skipped: no CUDA device or one too old for the
 * compiled kernels; error otherwise) on failure. *setup_ms is its host time. */
static int twin_open(twin_session *s, tsl_context *ctx, const char *kernel, double *setup_ms)
{
    double t0 = tsl__peer_now_ms();
    if (!tsl__cuda_open(&s->cu, ctx)) return 0;
    int dev = s->cu.dev, runtime = 0;
    const struct cudaDeviceProp *prop = &s->cu.prop;
    if (prop->major * 10 + prop->minor < TSL_CUDA_TWIN_ARCH) {
        tsl__peer_set(s->cu.res, TSL_PEER_SKIPPED,
                      "the twins are compiled for sm_%d; CUDA device %d (%s) is sm_%d%d",
                      TSL_CUDA_TWIN_ARCH, dev, prop->name, prop->major, prop->minor);
        return 0;
    }
    if (!cu_ok(s, cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion")) return 0;
    snprintf(s->cu.res->device, sizeof s->cu.res->device,
             "%.72s (CUDA %d, runtime %d.%d, %s, sm_%d%d)", prop->name, dev, runtime / 1000,
             runtime % 1000 / 10, kernel, prop->major, prop->minor);
    *setup_ms = tsl__peer_now_ms() - t0;
    return 1;
}

static void twin_close(twin_session *s)
{
    for (int i = 0; i < NMEM; ++i)
        if (s->mem[i]) cudaFree(s->mem[i]);
    tsl__cuda_close(&s->cu);
}

static int twin_copy(twin_session *s, void *dst, const void *src, size_t bytes,
                     enum cudaMemcpyKind kind, const char *what, double *ms)
{
    return tsl__cuda_copy(&s->cu, dst, src, bytes, kind, what, ms);
}

/* The row-major problem gemm.cl's kernels see (src/gemm/gemm.c's normalize and strides). */
typedef struct {
    int M, N, K, a_rs, a_cs, b_rs, b_cs, ldc;
    int a_mem, b_mem; /* which device array is the kernel's A and which its B */
} twin_view;

static twin_view view_of(const tsl_peer_gemm_args *g)
{
    int col = g->layout == TSL_COL_MAJOR;
    tsl_trans ta = col ? g->transb : g->transa, tb = col ? g->transa : g->transb;
    int lda = (int)(col ? g->ldb : g->lda), ldb = (int)(col ? g->lda : g->ldb);
    twin_view v;
    v.M = (int)(col ? g->n : g->m);
    v.N = (int)(col ? g->m : g->n);
    v.K = (int)g->k;
    v.a_rs = ta == TSL_NO_TRANS ? lda : 1;
    v.a_cs = ta == TSL_NO_TRANS ? 1 : lda;
    v.b_rs = tb == TSL_NO_TRANS ? ldb : 1;
    v.b_cs = tb == TSL_NO_TRANS ? 1 : ldb;
    v.ldc = (int)g->ldc;
    v.a_mem = col ? B_MEM : A_MEM;
    v.b_mem = col ? A_MEM : B_MEM;
    return v;
}

/* One launch of twin_gemm's runs and the reset of C before it (when reset_bytes). */
typedef struct {
    twin_session *s;
    const tsl_peer_gemm_args *g;
    twin_view v;
    int tiled;
    const char *kernel;
    size_t reset_bytes;
} twin_run;

static int twin_reset(void *state)
{
    twin_run *r = state;
    twin_session *s = r->s;
    return !r->reset_bytes || cu_ok(s,
                                    cudaMemcpyAsync(s->mem[C_MEM], s->mem[C0_MEM], r->reset_bytes,
                                                    cudaMemcpyDeviceToDevice, s->cu.stream),
                                    "cudaMemcpyAsync (reset of C)");
}

static int twin_launch(void *state)
{
    twin_run *r = state;
    twin_session *s = r->s;
    const tsl_peer_gemm_args *g = r->g;
    const twin_view *v = &r->v;
    return cu_ok(s,
                 (cudaError_t)tsl__cuda_twin_launch(
                     r->tiled, g->is_double, v->M, v->N, v->K, g->alpha, s->mem[v->a_mem], v->a_rs,
                     v->a_cs, s->mem[v->b_mem], v->b_rs, v->b_cs, g->beta, s->mem[C_MEM], v->ldc,
                     s->cu.stream),
                 r->kernel);
}

static void twin_gemm(int tiled, const tsl_peer_gemm_args *g, tsl_peer_result *res)
{
    const char *kernel = tiled ? "gemm_tiled 16x16 in CUDA" : "gemm_naive in CUDA";
    size_t ea = 0, eb = 0, ec = 0;
    if (!g || !res->run_ms || !res->c || g->repeat == 0 ||
        tsl_peer_matrix_elems(g->layout, g->transa, g->m, g->k, g->lda, &ea) ||
        tsl_peer_matrix_elems(g->layout, g->transb, g->k, g->n, g->ldb, &eb) ||
        tsl_peer_matrix_elems(g->layout, TSL_NO_TRANS, g->m, g->n, g->ldc, &ec)) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad GEMM arguments for the CUDA twin");
        return;
    }
    if (g->m > INT_MAX || g->n > INT_MAX || g->k > INT_MAX || g->lda > INT_MAX ||
        g->ldb > INT_MAX || g->ldc > INT_MAX) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "the twins take sizes up to %d, as tessel", INT_MAX);
        return;
    }
    size_t rows = g->layout == TSL_COL_MAJOR ? g->n : g->m; /* of the row-major view */
    if ((rows + TSL_CUDA_TWIN_TILE - 1) / TSL_CUDA_TWIN_TILE > 65535) {
        tsl__peer_set(res, TSL_PEER_SKIPPED,
                      "a CUDA grid has at most 65535 blocks along y: the twins take up to %d rows "
                      "of C (columns when column-major)",
                      65535 * TSL_CUDA_TWIN_TILE);
        return;
    }
    twin_session s;
    memset(&s, 0, sizeof s);
    s.cu.res = res;
    double setup_ms = 0.0;
    size_t es = g->is_double ? sizeof(double) : sizeof(float);
    size_t elems[NMEM] = {ea, eb, ec, ec};
    int reset = g->beta != 0.0 && ec; /* C is read: every run starts from the same C */
    if (!twin_open(&s, g->ctx, kernel, &setup_ms)) goto done;
    for (int i = 0; i < NMEM; ++i) /* at least one element: no zero-sized allocations */
        if ((i != C0_MEM || reset) &&
            !cu_ok(&s, cudaMalloc(&s.mem[i], elems[i] ? elems[i] * es : es), "cudaMalloc"))
            goto done;
    if (!twin_copy(&s, s.mem[A_MEM], g->a, ea * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (A)",
                   &res->upload_ms) ||
        !twin_copy(&s, s.mem[B_MEM], g->b, eb * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (B)",
                   &res->upload_ms) ||
        !twin_copy(&s, s.mem[C_MEM], g->c, ec * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (C)",
                   NULL) ||
        (reset && !twin_copy(&s, s.mem[C0_MEM], s.mem[C_MEM], ec * es, cudaMemcpyDeviceToDevice,
                             "cudaMemcpyAsync (C)", NULL)))
        goto done;

    twin_run r = {&s, g, view_of(g), tiled, kernel, reset ? ec * es : 0};
    if (!tsl__cuda_runs(&s.cu, twin_reset, twin_launch, &r, kernel, g->warmup, g->repeat,
                        setup_ms))
        goto done;
    if (!twin_copy(&s, res->c, s.mem[C_MEM], ec * es, cudaMemcpyDeviceToHost,
                   "cudaMemcpyAsync (C back)", &res->download_ms))
        goto done;
    res->status = TSL_PEER_OK;
done:
    twin_close(&s);
}

void tsl__peer_cuda_naive_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res)
{
    twin_gemm(0, args, res);
}

void tsl__peer_cuda_tiled_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res)
{
    twin_gemm(1, args, res);
}

#else /* built without nvcc */

int tsl_peer_cuda_twins_built(void)
{
    return 0;
}

static void not_built(tsl_peer_result *res)
{
    tsl__peer_set(res, TSL_PEER_SKIPPED,
                  "this tessel was built without the CUDA compiler (nvcc): install the CUDA "
                  "toolkit and reconfigure with cmake");
}

void tsl__peer_cuda_naive_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res)
{
    (void)args;
    not_built(res);
}

void tsl__peer_cuda_tiled_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res)
{
    (void)args;
    not_built(res);
}

#endif
