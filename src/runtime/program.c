/* program.c: builds kernels from the embedded .cl sources with -D options. Every program is the
 * shared prelude common.cl followed by its family's file (or files: "gemm.cl+gemm_mma.cl+...").
 * A built program is kept per context (in memory) and per machine (the on-disk binary cache, see
 * cache.c); the build log of a failed build is kept in the context and quoted in the error
 * message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

struct tsl__embedded {
    const char *name;
    const char *text;
    size_t len;
};
extern const struct tsl__embedded tsl__kernel_sources[];

const char *tsl__kernel_source(const char *name, size_t *len)
{
    for (const struct tsl__embedded *e = tsl__kernel_sources; e->name; ++e)
        if (strcmp(e->name, name) == 0) {
            if (len) *len = e->len;
            return e->text;
        }
    return NULL;
}

static void keep_build_log(tsl_context *ctx, cl_program prog)
{
    size_t n = 0;
    ctx->build_log[0] = '\0';
    if (clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, sizeof ctx->build_log,
                              ctx->build_log, &n) != CL_SUCCESS)
        clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    ctx->build_log[sizeof ctx->build_log - 1] = '\0';
}

static cl_program from_binary(tsl_context *ctx, const char *key, const char *options)
{
    unsigned char *bin = NULL;
    size_t len = 0;
    if (tsl__cache_load(ctx, key, &bin, &len) != 0) return NULL;
    cl_int status = CL_SUCCESS, err;
    const unsigned char *bins[1] = {bin};
    cl_program prog = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &len, bins, &status, &err);
    tsl__free(bin);
    if (!prog) return NULL;
    if (err != CL_SUCCESS || status != CL_SUCCESS ||
        clBuildProgram(prog, 1, &ctx->device, options, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(prog);
        return NULL;
    }
    return prog;
}

static void store_binary(tsl_context *ctx, cl_program prog, const char *key)
{
    size_t len = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS || !len)
        return;
    unsigned char *bin = tsl__malloc(len);
    if (!bin) return;
    unsigned char *bins[1] = {bin};
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
        tsl__cache_store(ctx, key, bin, len);
    tsl__free(bin);
}

#define MAX_PARTS 6 /* common.cl and up to five files of a family */

/* The parts of a program: common.cl, then each file of source ("a.cl" or "a.cl+b.cl+..."); 0 when
 * one is not embedded (its name in *missing). */
static int source_parts(const char *source, const char **parts, size_t *lens, char *missing,
                        size_t cap)
{
    int n = 0;
    parts[n] = tsl__kernel_source("common.cl", &lens[n]);
    if (!parts[n]) return snprintf(missing, cap, "common.cl"), 0;
    n++;
    for (const char *p = source; *p && n < MAX_PARTS;) {
        const char *plus = strchr(p, '+');
        size_t len = plus ? (size_t)(plus - p) : strlen(p);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
        parts[n] = tsl__kernel_source(name, &lens[n]);
        if (!parts[n]) return snprintf(missing, cap, "%s", name), 0;
        n++;
        p += len + (plus ? 1 : 0);
    }
    return n;
}

static tsl_status build(tsl_context *ctx, const char *source, const char *options, cl_program *out)
{
    const char *parts[MAX_PARTS];
    size_t lens[MAX_PARTS];
    char missing[64];
    int nparts = source_parts(source, parts, lens, missing, sizeof missing);
    if (!nparts)
        return tsl__fail(ctx, TSL_ERR_BUILD, "kernel source %s is not embedded in this build",
                         missing);
    unsigned long long h = 0;
    for (int i = 0; i < nparts; ++i) h = tsl__hash64(parts[i], lens[i], h);
    /* The key holds everything the binary depends on; PoCL also adds POCL_EXTRA_BUILD_FLAGS from
     * the environment to every build (the tests compile unoptimized through it), so a binary
     * built under other flags is another binary. */
    const char *extra = getenv("POCL_EXTRA_BUILD_FLAGS");
    char key[1024];
    snprintf(key, sizeof key,
             "tessel %s|device %s|driver %s|platform %s|source %s %016llx|options %s%s%s",
             TESSEL_VERSION_STRING, ctx->info.name, ctx->info.driver_version, ctx->info.platform,
             source, h, options, extra && *extra ? "|pocl extra " : "", extra ? extra : "");

    double t0 = tsl__now_ms();
    cl_program prog = from_binary(ctx, key, options);
    if (prog) {
        tsl__trace(t0, "program %s from the disk cache (%s)", source, options);
        *out = prog;
        return TSL_OK;
    }
    cl_int err;
    prog = clCreateProgramWithSource(ctx->cl, (cl_uint)nparts, parts, lens, &err);
    if (!prog) return tsl__cl_fail(ctx, "clCreateProgramWithSource", err, source);
    err = clBuildProgram(prog, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        keep_build_log(ctx, prog);
        clReleaseProgram(prog);
        char first[400];
        size_t n = strnlen(ctx->build_log, sizeof first - 1);
        memcpy(first, ctx->build_log, n);
        first[n] = '\0';
        for (char *c = first; *c; ++c)
            if (*c == '\n') *c = ' ';
        return tsl__fail(ctx, TSL_ERR_BUILD, "clBuildProgram failed: %s building %s with '%s': %s",
                         tsl__cl_error_name(err), source, options, first);
    }
    store_binary(ctx, prog, key);
    tsl__trace(t0, "program %s compiled (%s)", source, options);
    *out = prog;
    return TSL_OK;
}

tsl_status tsl__get_kernel(tsl_context *ctx, const char *source, const char *options,
                           const char *name, cl_kernel *out)
{
    char key[512];
    if (snprintf(key, sizeof key, "%s|%s", source, options) >= (int)sizeof key)
        return tsl__fail(ctx, TSL_ERR_BUILD, "build options too long for %s", source);
    tsl__program_entry *e = NULL;
    for (int i = 0; i < ctx->nprograms && !e; ++i)
        if (strcmp(ctx->programs[i].key, key) == 0) e = &ctx->programs[i];
    if (!e) {
        if (ctx->nprograms == TSL__MAX_PROGRAMS) {
            /* Rare (many distinct option sets): drop the oldest program. */
            tsl__program_entry *old = &ctx->programs[0];
            for (int k = 0; k < old->nkernels; ++k) clReleaseKernel(old->kernels[k]);
            clReleaseProgram(old->program);
            memmove(&ctx->programs[0], &ctx->programs[1], sizeof ctx->programs[0] * (TSL__MAX_PROGRAMS - 1));
            ctx->nprograms--;
        }
        double t0 = tsl__now_ms();
        cl_program prog = NULL;
        tsl_status s = build(ctx, source, options, &prog);
        ctx->timing.build_ms += tsl__now_ms() - t0;
        if (s != TSL_OK) return s;
        e = &ctx->programs[ctx->nprograms++];
        memset(e, 0, sizeof *e);
        snprintf(e->key, sizeof e->key, "%s", key);
        e->program = prog;
    }
    for (int k = 0; k < e->nkernels; ++k)
        if (strcmp(e->kernel_names[k], name) == 0) {
            *out = e->kernels[k];
            return TSL_OK;
        }
    if (e->nkernels == 4) return tsl__fail(ctx, TSL_ERR_BUILD, "too many kernels from one program");
    cl_int err;
    cl_kernel k = clCreateKernel(e->program, name, &err);
    if (!k) return tsl__cl_fail(ctx, "clCreateKernel", err, name);
    snprintf(e->kernel_names[e->nkernels], sizeof e->kernel_names[0], "%s", name);
    e->kernels[e->nkernels++] = k;
    *out = k;
    return TSL_OK;
}
