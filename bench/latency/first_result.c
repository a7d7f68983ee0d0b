/* first_result.c: the time from a new process to its first result, taken apart (issue 14,
 * "first-result latency"). Two programs in one binary, each meant to be started fresh:
 *   tessel_first_result floor       the bare OpenCL floor: the first GPU (else the first device),
 *                                   a context, a queue, one empty kernel built from source (the
 *                                   driver's own binary cache is warm after the first run) and run
 *   tessel_first_result tessel [N]  a user's program: tsl_context_create(NULL), then tsl_sgemm of
 *                                   N x N (1024) on random data, its result checked against a CPU
 *                                   sum at a few entries, then the same call again (steady state)
 * Each prints one line of "phase=milliseconds" measured from main()'s start (the script around it
 * measures the whole process, loader and exit included). Run with TESSEL_TRACE=1 to see where
 * tsl_context_create and the first call spend their time. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "tessel.h"

static double t_start;

static double ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6 - t_start;
}

static int fail(const char *what, int err)
{
    fprintf(stderr, "first_result: %s failed (%d)\n", what, err);
    return 3;
}

static int floor_run(void)
{
    cl_platform_id plats[16];
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(16, plats, &np);
    if (err != CL_SUCCESS || np == 0) return fail("clGetPlatformIDs", err);
    if (np > 16) np = 16;
    double t_plat = ms();
    cl_platform_id plat = NULL;
    cl_device_id dev = NULL;
    for (cl_uint p = 0; p < np && !dev; ++p)
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) == CL_SUCCESS) plat = plats[p];
    if (!dev && clGetDeviceIDs(plats[0], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) == CL_SUCCESS)
        plat = plats[0];
    if (!dev) return fail("clGetDeviceIDs", -1);
    double t_dev = ms();
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
    cl_context ctx = clCreateContext(props, 1, &dev, NULL, NULL, &err);
    if (!ctx) return fail("clCreateContext", err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    if (!q) return fail("clCreateCommandQueue", err);
    double t_ctx = ms();
    const char *src = "__kernel void empty(__global int *x) { if (x[0] == 12345) x[1] = 1; }";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    if (!prog) return fail("clCreateProgramWithSource", err);
    if ((err = clBuildProgram(prog, 1, &dev, "", NULL, NULL)) != CL_SUCCESS)
        return fail("clBuildProgram", err);
    cl_kernel k = clCreateKernel(prog, "empty", &err);
    if (!k) return fail("clCreateKernel", err);
    double t_build = ms();
    int host[2] = {7, 0};
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
    if (!buf) return fail("clCreateBuffer", err);
    clSetKernelArg(k, 0, sizeof buf, &buf);
    size_t g = 1;
    if ((err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL)) != CL_SUCCESS)
        return fail("clEnqueueNDRangeKernel", err);
    if ((err = clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL)) != CL_SUCCESS)
        return fail("clEnqueueReadBuffer", err);
    double t_run = ms();
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    double t_end = ms();
    printf("mode=floor platforms=%.2f device=%.2f context=%.2f build=%.2f run=%.2f total=%.2f "
           "release=%.2f\n",
           t_plat, t_dev - t_plat, t_ctx - t_dev, t_build - t_ctx, t_run - t_build, t_run,
           t_end - t_run);
    return 0;
}

static int tessel_run(size_t n)
{
    float *a = malloc(n * n * sizeof *a), *b = malloc(n * n * sizeof *b), *c = malloc(n * n * sizeof *c);
    if (!a || !b || !c) return fail("malloc", 0);
    unsigned long long x = 88172645463325252ull;
    for (size_t i = 0; i < n * n; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        a[i] = (float)((x >> 40) % 2001) / 1000.0f - 1.0f;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b[i] = (float)((x >> 40) % 2001) / 1000.0f - 1.0f;
    }
    double t_data = ms();
    tsl_context *ctx = NULL;
    tsl_status s = tsl_context_create(NULL, &ctx);
    if (s != TSL_OK) {
        fprintf(stderr, "first_result: %s\n", tsl_last_error());
        return 3;
    }
    double t_ctx = ms();
    s = tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    if (s != TSL_OK) {
        fprintf(stderr, "first_result: %s\n", tsl_context_error(ctx));
        return 3;
    }
    double t_first = ms();
    tsl_timing tm;
    tsl_context_timing(ctx, &tm);
    s = tsl_sgemm(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
    double t_second = ms();
    /* Spot check a few entries against a CPU sum: a fast wrong answer is not a result. */
    double worst = 0;
    for (size_t t = 0; t < 8; ++t) {
        size_t i = (t * 7919) % n, j = (t * 104729) % n;
        double ref = 0, mag = 0;
        for (size_t l = 0; l < n; ++l) {
            ref += (double)a[i * n + l] * b[l * n + j];
            mag += fabs((double)a[i * n + l] * b[l * n + j]);
        }
        double e = fabs(c[i * n + j] - ref) / (mag > 0 ? mag : 1);
        if (e > worst) worst = e;
    }
    double t_check = ms();
    tsl_context_destroy(ctx);
    double t_end = ms();
    printf("mode=tessel n=%zu data=%.2f context=%.2f first_call=%.2f (build=%.2f upload=%.2f "
           "kernel=%.2f download=%.2f) second_call=%.2f to_first_result=%.2f release=%.2f "
           "all=%.2f check=%s\n",
           n, t_data, t_ctx - t_data, t_first - t_ctx, tm.build_ms, tm.upload_ms, tm.kernel_ms,
           tm.download_ms, t_second - t_first, t_first - t_data, t_end - t_check, t_end,
           worst < 1e-5 ? "ok" : "FAILED");
    free(a), free(b), free(c);
    return worst < 1e-5 && s == TSL_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    t_start = 0;
    t_start = ms();
    if (argc >= 2 && strcmp(argv[1], "floor") == 0) return floor_run();
    if (argc >= 2 && strcmp(argv[1], "tessel") == 0)
        return tessel_run(argc >= 3 ? (size_t)strtoul(argv[2], NULL, 10) : 1024);
    fprintf(stderr, "usage: tessel_first_result floor | tessel [N]\n");
    return 2;
}
