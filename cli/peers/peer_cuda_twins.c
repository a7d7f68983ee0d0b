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
 * copies. Where CMake found no nvcc (TESSEL_HAVE_CUDA_TWINS unset) both peers report skipped. */
#include "peer_cuda_twins.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#if defined(TESSEL_HAVE_CUDA_TWINS) && TESSEL_HAVE_CUDA_TWINS

#include <cuda_runtime_api.h>

#include "tessel_cl.h"

#ifndef CL_DEVICE_UUID_KHR
#define CL_DEVICE_UUID_KHR 0x106A /* cl_khr_device_uuid */
#endif

int tsl_peer_cuda_twins_built(void)
{
    return 1;
}

enum { A_MEM, B_MEM, C_MEM, C0_MEM, NMEM }; /* device arrays of a session */

typedef struct {
    tsl_peer_result *res;
    cudaStream_t stream;
    cudaEvent_t e0, e1;
    void *mem[NMEM];
} twin_session;

static int cu_ok(twin_session *s, cudaError_t e, const char *call)
{
    if (e == cudaSuccess) return 1;
    tsl__peer_set(s->res, TSL_PEER_ERROR, "%s: %s (%s)", call, cudaGetErrorString(e),
                  cudaGetErrorName(e));
    return 0;
}

/* 1 if needle occurs in hay, ignoring case; an empty needle never matches. */
static int contains_nocase(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    if (nl == 0) return 0;
    for (; *hay; ++hay) {
        size_t i = 0;
        while (i < nl && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            ++i;
        if (i == nl) return 1;
    }
    return 0;
}

/* The CUDA device that is ctx's OpenCL device (the cuBLAS peer's rule): same UUID, else a name
 * that contains the other, else device 0 (for example when tessel runs on PoCL). */
static int pick_device(tsl_context *ctx, int count)
{
    unsigned char uuid[16];
    int have_uuid = 0;
    tsl_device_info info;
    info.name[0] = '\0';
    if (ctx) {
        if (tsl_context_device(ctx, &info) != TSL_OK) info.name[0] = '\0';
        cl_device_id d = tsl_context_cl_device(ctx);
        have_uuid =
            d && clGetDeviceInfo(d, CL_DEVICE_UUID_KHR, sizeof uuid, uuid, NULL) == CL_SUCCESS;
    }
    int by_name = -1;
    for (int i = 0; i < count; ++i) {
        struct cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) continue;
        if (have_uuid && memcmp(prop.uuid.bytes, uuid, sizeof uuid) == 0) return i;
        if (by_name < 0 &&
            (contains_nocase(prop.name, info.name) || contains_nocase(info.name, prop.name)))
            by_name = i;
    }
    (void)cudaGetLastError(); /* a failed property query must not linger as the last error */
    return by_name >= 0 ? by_name : 0;
}

/* Opens the session; 0 with res set (skipped: no CUDA device or one too old for the compiled
 * kernels; error otherwise) on failure. *setup_ms is its host time. */
static int twin_open(twin_session *s, tsl_context *ctx, const char *kernel, double *setup_ms)
{
    double t0 = tsl__peer_now_ms();
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count <= 0) {
        if (e != cudaSuccess)
            tsl__peer_set(s->res, TSL_PEER_SKIPPED, "no CUDA device (cudaGetDeviceCount: %s)",
                          cudaGetErrorString(e));
        else
            tsl__peer_set(s->res, TSL_PEER_SKIPPED, "no CUDA device");
        (void)cudaGetLastError();
        return 0;
    }
    int dev = pick_device(ctx, count), runtime = 0;
    struct cudaDeviceProp prop;
    if (!cu_ok(s, cudaGetDeviceProperties(&prop, dev), "cudaGetDeviceProperties")) return 0;
    if (prop.major * 10 + prop.minor < TSL_CUDA_TWIN_ARCH) {
        tsl__peer_set(s->res, TSL_PEER_SKIPPED,
                      "the twins are compiled for sm_%d; CUDA device %d (%s) is sm_%d%d",
                      TSL_CUDA_TWIN_ARCH, dev, prop.name, prop.major, prop.minor);
        return 0;
    }
    if (!cu_ok(s, cudaSetDevice(dev), "cudaSetDevice") ||
        !cu_ok(s, cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion") ||
        !cu_ok(s, cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking),
               "cudaStreamCreateWithFlags") ||
        !cu_ok(s, cudaEventCreate(&s->e0), "cudaEventCreate") ||
        !cu_ok(s, cudaEventCreate(&s->e1), "cudaEventCreate"))
        return 0;
    snprintf(s->res->device, sizeof s->res->device, "%.72s (CUDA %d, runtime %d.%d, %s, sm_%d%d)",
             prop.name, dev, runtime / 1000, runtime % 1000 / 10, kernel, prop.major, prop.minor);
    *setup_ms = tsl__peer_now_ms() - t0;
    return 1;
}

static void twin_close(twin_session *s)
{
    for (int i = 0; i < NMEM; ++i)
        if (s->mem[i]) cudaFree(s->mem[i]);
    if (s->e0) cudaEventDestroy(s->e0);
    if (s->e1) cudaEventDestroy(s->e1);
    if (s->stream) cudaStreamDestroy(s->stream);
}

/* A copy on the session's stream, waited for; its event time is added to *ms when ms is given. */
static int twin_copy(twin_session *s, void *dst, const void *src, size_t bytes,
                     enum cudaMemcpyKind kind, const char *what, double *ms)
{
    float t = 0.0f;
    if (bytes == 0) return 1;
    if (!cu_ok(s, cudaEventRecord(s->e0, s->stream), "cudaEventRecord") ||
        !cu_ok(s, cudaMemcpyAsync(dst, src, bytes, kind, s->stream), what) ||
        !cu_ok(s, cudaEventRecord(s->e1, s->stream), "cudaEventRecord") ||
        !cu_ok(s, cudaEventSynchronize(s->e1), "cudaEventSynchronize") ||
        !cu_ok(s, cudaEventElapsedTime(&t, s->e0, s->e1), "cudaEventElapsedTime"))
        return 0;
    if (ms) *ms = (isnan(*ms) ? 0.0 : *ms) + (double)t;
    return 1;
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
    s.res = res;
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

    twin_view v = view_of(g);
    unsigned warmup = g->warmup ? g->warmup : 1; /* lazy module loading: never timed */
    double first_ms = 0.0, fastest = 0.0;
    for (unsigned run = 0; run < warmup + g->repeat; ++run) {
        if (reset && !cu_ok(&s,
                            cudaMemcpyAsync(s.mem[C_MEM], s.mem[C0_MEM], ec * es,
                                            cudaMemcpyDeviceToDevice, s.stream),
                            "cudaMemcpyAsync (reset of C)"))
            goto done;
        double t0 = tsl__peer_now_ms();
        float ms = 0.0f;
        if (!cu_ok(&s, cudaEventRecord(s.e0, s.stream), "cudaEventRecord") ||
            !cu_ok(&s,
                   (cudaError_t)tsl__cuda_twin_launch(
                       tiled, g->is_double, v.M, v.N, v.K, g->alpha, s.mem[v.a_mem], v.a_rs, v.a_cs,
                       s.mem[v.b_mem], v.b_rs, v.b_cs, g->beta, s.mem[C_MEM], v.ldc, s.stream),
                   kernel) ||
            !cu_ok(&s, cudaEventRecord(s.e1, s.stream), "cudaEventRecord") ||
            !cu_ok(&s, cudaEventSynchronize(s.e1), kernel) ||
            !cu_ok(&s, cudaEventElapsedTime(&ms, s.e0, s.e1), "cudaEventElapsedTime"))
            goto done;
        if (run == 0) first_ms = tsl__peer_now_ms() - t0;
        if (run >= warmup) {
            res->run_ms[run - warmup] = (double)ms;
            if (run == warmup || ms < fastest) fastest = ms;
        }
    }
    res->build_ms = setup_ms + (first_ms > fastest ? first_ms - fastest : 0.0);
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
