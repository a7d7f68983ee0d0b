/* peer_cuda.c: the session, device choice, copies and timed runs the CUDA peers share
 * (peer_cuda.h). Built empty where CMake found no CUDA runtime (TESSEL_HAVE_CUDART unset). */
#include "peer_cuda.h"

#if defined(TESSEL_HAVE_CUDART) && TESSEL_HAVE_CUDART

#include <ctype.h>
#include <math.h>
#include <string.h>

#include "tessel_cl.h"

#ifndef CL_DEVICE_UUID_KHR
#define CL_DEVICE_UUID_KHR 0x106A /* cl_khr_device_uuid */
#endif

int tsl__cuda_ok(tsl__cuda_session *s, cudaError_t e, const char *call)
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

int tsl__cuda_pick_device(tsl_context *ctx, int count)
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

int tsl__cuda_open(tsl__cuda_session *s, tsl_context *ctx)
{
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
    s->dev = tsl__cuda_pick_device(ctx, count);
    return tsl__cuda_ok(s, cudaGetDeviceProperties(&s->prop, s->dev), "cudaGetDeviceProperties") &&
           tsl__cuda_ok(s, cudaSetDevice(s->dev), "cudaSetDevice") &&
           tsl__cuda_ok(s, cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking),
                        "cudaStreamCreateWithFlags") &&
           tsl__cuda_ok(s, cudaEventCreate(&s->e0), "cudaEventCreate") &&
           tsl__cuda_ok(s, cudaEventCreate(&s->e1), "cudaEventCreate");
}

void tsl__cuda_close(tsl__cuda_session *s)
{
    if (s->e0) cudaEventDestroy(s->e0);
    if (s->e1) cudaEventDestroy(s->e1);
    if (s->stream) cudaStreamDestroy(s->stream);
    s->e0 = s->e1 = NULL;
    s->stream = NULL;
}

int tsl__cuda_copy(tsl__cuda_session *s, void *dst, const void *src, size_t bytes,
                   enum cudaMemcpyKind kind, const char *what, double *ms)
{
    float t = 0.0f;
    if (bytes == 0) return 1;
    if (!tsl__cuda_ok(s, cudaEventRecord(s->e0, s->stream), "cudaEventRecord") ||
        !tsl__cuda_ok(s, cudaMemcpyAsync(dst, src, bytes, kind, s->stream), what) ||
        !tsl__cuda_ok(s, cudaEventRecord(s->e1, s->stream), "cudaEventRecord") ||
        !tsl__cuda_ok(s, cudaEventSynchronize(s->e1), "cudaEventSynchronize") ||
        !tsl__cuda_ok(s, cudaEventElapsedTime(&t, s->e0, s->e1), "cudaEventElapsedTime"))
        return 0;
    if (ms) *ms = (isnan(*ms) ? 0.0 : *ms) + (double)t;
    return 1;
}

int tsl__cuda_runs(tsl__cuda_session *s, int (*reset)(void *state), int (*call)(void *state),
                   void *state, const char *name, unsigned warmup_runs, unsigned repeat,
                   double setup_ms)
{
    unsigned warmup = warmup_runs ? warmup_runs : 1; /* lazy kernel loading: never timed */
    double first_ms = 0.0, fastest = 0.0;
    for (unsigned run = 0; run < warmup + repeat; ++run) {
        if (reset && !reset(state)) return 0;
        double t0 = tsl__peer_now_ms();
        float ms = 0.0f;
        if (!tsl__cuda_ok(s, cudaEventRecord(s->e0, s->stream), "cudaEventRecord") ||
            !call(state) ||
            !tsl__cuda_ok(s, cudaEventRecord(s->e1, s->stream), "cudaEventRecord") ||
            !tsl__cuda_ok(s, cudaEventSynchronize(s->e1), name) ||
            !tsl__cuda_ok(s, cudaEventElapsedTime(&ms, s->e0, s->e1), "cudaEventElapsedTime"))
            return 0;
        if (run == 0) first_ms = tsl__peer_now_ms() - t0;
        if (run >= warmup) {
            s->res->run_ms[run - warmup] = (double)ms;
            if (run == warmup || ms < fastest) fastest = ms;
        }
    }
    s->res->build_ms = setup_ms + (first_ms > fastest ? first_ms - fastest : 0.0);
    return 1;
}

#else
typedef int tsl__peer_cuda_unused; /* ISO C: a translation unit is not empty */
#endif
