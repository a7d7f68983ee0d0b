/* program.c: builds kernels from the embedded .cl sources with -D options. Every program is the
 * shared prelude common.cl followed by its family's file (or files: "gemm.cl+gemm_mma.cl+...").
 * A built program is kept per context (in memory) and per machine (the on-disk binary cache, see
 * cache.c); the build log of a failed build is kept in the context and quoted in the error
 * message. A program may ask for the sm_90a patch (tsl__get_kernel_sm90a): its PTX, as NVIDIA's
 * compiler gives it back, patched (ptx.c) and loaded again as a binary; the cache keeps the patched
 * PTX. */
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

#define MAX_PARTS 8 /* common.cl and up to seven files of a family */

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

/* The sm_90a patch a program asks for: the .shared array of `from` bytes enlarged to `to` (0:
 * none); NULL: no patch. */
typedef struct {
    size_t from, to;
} sm90a_patch;

/* The program prog's PTX patched for sm_90a and built from it, into *out; 0, or -1 with the reason
 * in why (the device or the patch refused it: the caller keeps to another path). */
static int build_patched(tsl_context *ctx, cl_program prog, const char *options,
                         const sm90a_patch *patch, cl_program *out, char *why, size_t why_len)
{
    size_t len = 0;
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS ||
        !len)
        return snprintf(why, why_len, "the build gave no binary back"), -1;
    unsigned char *bin = tsl__malloc(len + 1);
    if (!bin) return snprintf(why, why_len, "out of host memory"), -1;
    unsigned char *bins[1] = {bin};
    if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS) {
        tsl__free(bin);
        return snprintf(why, why_len, "CL_PROGRAM_BINARIES failed"), -1;
    }
    bin[len] = '\0';
    char *ptx = NULL;
    int r = tsl__ptx_patch((const char *)bin, patch->from, patch->to, &ptx, why, why_len);
    tsl__free(bin);
    if (r != 0) return -1;
    size_t plen = strlen(ptx) + 1; /* NVIDIA's PTX binaries end with their NUL */
    const unsigned char *pbins[1] = {(const unsigned char *)ptx};
    cl_int status = CL_SUCCESS, err;
    cl_program p = clCreateProgramWithBinary(ctx->cl, 1, &ctx->device, &plen, pbins, &status, &err);
    free(ptx);
    if (!p || err != CL_SUCCESS || status != CL_SUCCESS) {
        if (p) clReleaseProgram(p);
        return snprintf(why, why_len, "clCreateProgramWithBinary refused the patched PTX (%s)",
                        tsl__cl_error_name(err != CL_SUCCESS ? err : status)),
               -1;
    }
    err = clBuildProgram(p, 1, &ctx->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        keep_build_log(ctx, p);
        clReleaseProgram(p);
        return snprintf(why, why_len, "the patched PTX did not build (%s): %.200s",
                        tsl__cl_error_name(err), ctx->build_log),
               -1;
    }
    *out = p;
    return 0;
}

static tsl_status build(tsl_context *ctx, const char *source, const char *options,
                        const sm90a_patch *patch, cl_program *out)
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
    if (patch) {
        size_t n = strlen(key);
        snprintf(key + n, sizeof key - n, "|sm_90a patch %zu %zu", patch->from, patch->to);
    }

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
    if (patch) {
        char why[400];
        cl_program patched = NULL;
        int r = build_patched(ctx, prog, options, patch, &patched, why, sizeof why);
        clReleaseProgram(prog);
        if (r != 0) {
            ctx->sm90a_refused = 1;
            tsl__trace(t0, "program %s: no sm_90a program (%s); the context keeps to sm_90", source,
                       why);
            return TSL_ERR_UNSUPPORTED;
        }
        prog = patched;
    }
    store_binary(ctx, prog, key);
    tsl__trace(t0, "program %s compiled (%s)%s", source, options, patch ? ", patched for sm_90a" : "");
    *out = prog;
    return TSL_OK;
}

static tsl_status get_kernel(tsl_context *ctx, const char *source, const char *options,
                             const sm90a_patch *patch, const char *name, cl_kernel *out)
{
    char key[512];
    if (snprintf(key, sizeof key, "%s|%s%s", source, options, patch ? "|sm_90a" : "") >=
        (int)sizeof key)
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
        tsl_status s = build(ctx, source, options, patch, &prog);
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

tsl_status tsl__get_kernel(tsl_context *ctx, const char *source, const char *options,
                           const char *name, cl_kernel *out)
{
    return get_kernel(ctx, source, options, NULL, name, out);
}

tsl_status tsl__get_kernel_sm90a(tsl_context *ctx, const char *source, const char *options,
                                 size_t shared_from, size_t shared_to, const char *name,
                                 cl_kernel *out)
{
    if (ctx->sm90a_refused) return TSL_ERR_UNSUPPORTED;
    sm90a_patch patch = {shared_from, shared_to};
    return get_kernel(ctx, source, options, &patch, name, out);
}
