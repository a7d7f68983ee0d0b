/* device.c: OpenCL device discovery and the device-spec rules of docs/design.md ("Device
 * selection"). Devices are counted per platform in the order the ICD loader reports them; "P:D"
 * names one, any other text matches a device or platform name case-insensitively, and an empty spec
 * means $TESSEL_DEVICE, else the first GPU, else the first device. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/runtime.h"

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

/* Device and platform strings can be longer than the fixed fields (PoCL's version string is):
 * query the size, read all of it, keep what fits. */
static void copy_truncated(char *dst, size_t cap, const char *src)
{
    size_t n = strnlen(src, cap - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void get_string(cl_device_id d, cl_device_info what, char *dst, size_t cap)
{
    size_t n = 0;
    dst[0] = '\0';
    if (clGetDeviceInfo(d, what, 0, NULL, &n) != CL_SUCCESS || n == 0) return;
    char *tmp = tsl__calloc(n + 1, 1);
    if (tmp && clGetDeviceInfo(d, what, n, tmp, NULL) == CL_SUCCESS) copy_truncated(dst, cap, tmp);
    tsl__free(tmp);
}

static void get_platform_string(cl_platform_id p, cl_platform_info what, char *dst, size_t cap)
{
    size_t n = 0;
    dst[0] = '\0';
    if (clGetPlatformInfo(p, what, 0, NULL, &n) != CL_SUCCESS || n == 0) return;
    char *tmp = tsl__calloc(n + 1, 1);
    if (tmp && clGetPlatformInfo(p, what, n, tmp, NULL) == CL_SUCCESS) copy_truncated(dst, cap, tmp);
    tsl__free(tmp);
}

tsl_status tsl__device_info(cl_platform_id p, cl_device_id d, int pi, int di, tsl_device_info *out)
{
    memset(out, 0, sizeof *out);
    out->platform_index = pi;
    out->device_index = di;
    get_platform_string(p, CL_PLATFORM_NAME, out->platform, sizeof out->platform);
    get_string(d, CL_DEVICE_NAME, out->name, sizeof out->name);
    get_string(d, CL_DEVICE_VENDOR, out->vendor, sizeof out->vendor);
    get_string(d, CL_DRIVER_VERSION, out->driver_version, sizeof out->driver_version);
    get_string(d, CL_DEVICE_VERSION, out->opencl_version, sizeof out->opencl_version);
    cl_device_type type = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    snprintf(out->type, sizeof out->type, "%s",
             (type & CL_DEVICE_TYPE_GPU) ? "gpu" : (type & CL_DEVICE_TYPE_CPU) ? "cpu"
             : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "accel" : "other");
    cl_uint u = 0;
    clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL);
    out->compute_units = u;
    u = 0;
    clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u, &u, NULL);
    out->clock_mhz = u;
    cl_ulong ul = 0;
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof ul, &ul, NULL);
    out->global_mem = ul;
    ul = 0;
    clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof ul, &ul, NULL);
    out->local_mem = ul;
    ul = 0;
    clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ul, &ul, NULL);
    out->max_alloc = ul;
    size_t wg = 0;
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    out->max_work_group = wg;
    cl_device_fp_config fp = 0;
    clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL);
    out->fp64 = fp != 0;
    return TSL_OK;
}

/* Every device of every platform, in tessel's index order. */
typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    int pi, di;
} found_device;

static int enumerate(found_device *list, int cap)
{
    cl_platform_id platforms[MAX_PLATFORMS];
    cl_uint np = 0;
    double t0 = tsl__now_ms();
    if (clGetPlatformIDs(MAX_PLATFORMS, platforms, &np) != CL_SUCCESS) return 0;
    if (np > MAX_PLATFORMS) np = MAX_PLATFORMS;
    tsl__trace(t0, "clGetPlatformIDs: %u platforms", np);
    int n = 0;
    for (cl_uint p = 0; p < np; ++p) {
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = 0;
        t0 = tsl__now_ms();
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) != CL_SUCCESS)
            continue;
        if (nd > MAX_DEVICES) nd = MAX_DEVICES;
        if (tsl__tracing()) {
            char name[128];
            get_platform_string(platforms[p], CL_PLATFORM_NAME, name, sizeof name);
            tsl__trace(t0, "clGetDeviceIDs: platform %u (%s), %u devices", p, name, nd);
        }
        for (cl_uint d = 0; d < nd && n < cap; ++d)
            list[n++] = (found_device){platforms[p], devs[d], (int)p, (int)d};
    }
    return n;
}

tsl_status tsl_devices(tsl_device_info *list, size_t cap, size_t *count)
{
    if (!count || (cap > 0 && !list))
        return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "tsl_devices: count is NULL, or list is NULL with cap > 0");
    found_device found[MAX_DEVICES];
    int n = enumerate(found, MAX_DEVICES);
    for (int i = 0; i < n && (size_t)i < cap; ++i)
        tsl__device_info(found[i].platform, found[i].device, found[i].pi, found[i].di, &list[i]);
    *count = (size_t)n;
    return TSL_OK;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    for (const char *h = hay; *h; ++h) {
        size_t i = 0;
        while (i < nl && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i])) ++i;
        if (i == nl) return 1;
    }
    return nl == 0;
}

/* A name spec matches the device name, the platform name, or what a user calls them: the platform
 * version ("OpenCL 3.0 PoCL 3.1 ...": so "pocl" finds PoCL, whose platform name is "Portable
 * Computing Language"), the vendors, or the device type ("cpu", "gpu"). */
static int matches(const found_device *f, const char *spec)
{
    tsl_device_info fi;
    char pversion[256], pvendor[128];
    tsl__device_info(f->platform, f->device, f->pi, f->di, &fi);
    get_platform_string(f->platform, CL_PLATFORM_VERSION, pversion, sizeof pversion);
    get_platform_string(f->platform, CL_PLATFORM_VENDOR, pvendor, sizeof pvendor);
    return contains_nocase(fi.name, spec) || contains_nocase(fi.platform, spec) ||
           contains_nocase(pversion, spec) || contains_nocase(pvendor, spec) ||
           contains_nocase(fi.vendor, spec) || strcasecmp(fi.type, spec) == 0;
}

/* "P:D" with two non-negative decimal integers and nothing else. */
static int parse_index_spec(const char *spec, int *p, int *d)
{
    char *end;
    if (!isdigit((unsigned char)spec[0])) return 0;
    long a = strtol(spec, &end, 10);
    if (*end != ':' || !isdigit((unsigned char)end[1])) return 0;
    long b = strtol(end + 1, &end, 10);
    if (*end != '\0' || a > 1000 || b > 1000) return 0;
    *p = (int)a;
    *d = (int)b;
    return 1;
}

tsl_status tsl__find_device(const char *spec, cl_platform_id *p, cl_device_id *d,
                            tsl_device_info *info)
{
    found_device found[MAX_DEVICES];
    int n = enumerate(found, MAX_DEVICES);
    if (n == 0)
        return tsl__fail(NULL, TSL_ERR_NO_DEVICE,
                         "no OpenCL device found: install an OpenCL driver (pocl-opencl-icd for the CPU)");
    if (!spec || !*spec) {
        const char *env = getenv("TESSEL_DEVICE");
        if (env && *env) spec = env;
    }
    int pick = -1;
    if (!spec || !*spec) {
        for (int i = 0; i < n && pick < 0; ++i) {
            cl_device_type t = 0;
            clGetDeviceInfo(found[i].device, CL_DEVICE_TYPE, sizeof t, &t, NULL);
            if (t & CL_DEVICE_TYPE_GPU) pick = i;
        }
        if (pick < 0) pick = 0;
    } else {
        int pi, di;
        int by_index = parse_index_spec(spec, &pi, &di);
        for (int i = 0; i < n && pick < 0; ++i) {
            if (by_index) {
                if (found[i].pi == pi && found[i].di == di) pick = i;
                continue;
            }
            if (matches(&found[i], spec)) pick = i;
        }
    }
    if (pick < 0) {
        char names[1024] = "";
        size_t used = 0;
        for (int i = 0; i < n && used < sizeof names - 1; ++i) {
            tsl_device_info fi;
            tsl__device_info(found[i].platform, found[i].device, found[i].pi, found[i].di, &fi);
            int w = snprintf(names + used, sizeof names - used, "%s%d:%d %s", i ? ", " : "",
                             fi.platform_index, fi.device_index, fi.name);
            if (w < 0) break;
            used += (size_t)w;
        }
        return tsl__fail(NULL, TSL_ERR_NO_DEVICE, "no device matches '%s'; devices: %s", spec, names);
    }
    *p = found[pick].platform;
    *d = found[pick].device;
    return tsl__device_info(*p, *d, found[pick].pi, found[pick].di, info);
}

int tsl__matching_devices(const char *spec, tsl_device_info *list, int cap)
{
    found_device found[MAX_DEVICES];
    int n = enumerate(found, MAX_DEVICES), count = 0, gpus = 0;
    if (!spec || !*spec) {
        const char *env = getenv("TESSEL_DEVICE");
        if (env && *env) spec = env;
    }
    for (int i = 0; i < n; ++i) {
        cl_device_type t = 0;
        clGetDeviceInfo(found[i].device, CL_DEVICE_TYPE, sizeof t, &t, NULL);
        gpus += (t & CL_DEVICE_TYPE_GPU) != 0;
    }
    int pi, di, by_index = spec && *spec && parse_index_spec(spec, &pi, &di);
    for (int i = 0; i < n; ++i) {
        int take;
        if (!spec || !*spec) {
            cl_device_type t = 0;
            clGetDeviceInfo(found[i].device, CL_DEVICE_TYPE, sizeof t, &t, NULL);
            take = !gpus || (t & CL_DEVICE_TYPE_GPU);
        } else if (by_index) {
            take = found[i].pi == pi && found[i].di == di;
        } else {
            take = matches(&found[i], spec);
        }
        if (!take) continue;
        if (count < cap)
            tsl__device_info(found[i].platform, found[i].device, found[i].pi, found[i].di,
                             &list[count]);
        ++count;
    }
    return count;
}

/* ---- vendor facts the tuning layer keys on ---------------------------------------------------- */

/* cl_nv_device_attribute_query (NVIDIA's OpenCL): compute capability and registers. */
#define TSL__CL_NV_CC_MAJOR 0x4000
#define TSL__CL_NV_CC_MINOR 0x4001
#define TSL__CL_NV_REGISTERS 0x4002

static int has_extension(cl_device_id d, const char *ext)
{
    size_t n = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, NULL, &n) != CL_SUCCESS || n == 0) return 0;
    char *s = tsl__calloc(n + 1, 1);
    int found = s && clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, s, NULL) == CL_SUCCESS &&
                strstr(s, ext) != NULL;
    tsl__free(s);
    return found;
}

int tsl__nv_compute_capability(const tsl_context *ctx)
{
    return ctx->nv_cc;
}

int tsl__nv_query_compute_capability(const tsl_context *ctx)
{
    cl_uint major = 0, minor = 0;
    if (has_extension(ctx->device, "cl_nv_device_attribute_query") &&
        clGetDeviceInfo(ctx->device, TSL__CL_NV_CC_MAJOR, sizeof major, &major, NULL) ==
            CL_SUCCESS &&
        clGetDeviceInfo(ctx->device, TSL__CL_NV_CC_MINOR, sizeof minor, &minor, NULL) ==
            CL_SUCCESS && major < 100 && minor < 10)
        return (int)(major * 10 + minor);
    return 0;
}

/* cl_amd_device_attribute_query (AMD's OpenCL): the graphics IP version. */
#define TSL__CL_AMD_GFXIP_MAJOR 0x404A
#define TSL__CL_AMD_GFXIP_MINOR 0x404B

/* AMD's graphics IP as "gfx<major><minor>" (gfx90 on a gfx90a, gfx103 on a gfx1030: LLVM's target
 * name without its stepping, which the query does not give); 0 when the device does not say. */
static int amd_gfxip(const tsl_context *ctx, char *out, size_t cap)
{
    cl_uint major = 0, minor = 0;
    if (!has_extension(ctx->device, "cl_amd_device_attribute_query") ||
        clGetDeviceInfo(ctx->device, TSL__CL_AMD_GFXIP_MAJOR, sizeof major, &major, NULL) !=
            CL_SUCCESS ||
        clGetDeviceInfo(ctx->device, TSL__CL_AMD_GFXIP_MINOR, sizeof minor, &minor, NULL) !=
            CL_SUCCESS ||
        major == 0 || major >= 100 || minor >= 100)
        return 0;
    snprintf(out, cap, "gfx%u%u", major, minor);
    return 1;
}

void tsl__device_arch(const tsl_context *ctx, char *out, size_t cap)
{
    out[0] = '\0';
    int cc = tsl__nv_compute_capability(ctx);
    if (cc) {
        snprintf(out, cap, "sm_%d%d", cc / 10, cc % 10);
        return;
    }
    if (amd_gfxip(ctx, out, cap)) return;
    /* PoCL names its CPU devices "<driver>-<llvm cpu>-<model>", e.g.
     * "pthread-skylake-avx512-AMD EPYC ...": the LLVM CPU name is the architecture. */
    const char *name = ctx->info.name, *dash = strchr(name, '-');
    if (strstr(ctx->info.platform, "Portable Computing Language") && dash) {
        size_t n = 0;
        const char *p = dash + 1;
        while (p[n] && n + 1 < cap) {
            /* stop where the model text starts: a '-' followed by an upper-case letter */
            if (p[n] == '-' && p[n + 1] >= 'A' && p[n + 1] <= 'Z') break;
            out[n] = p[n];
            ++n;
        }
        out[n] = '\0';
    }
}

unsigned long tsl__device_registers(const tsl_context *ctx)
{
    return ctx->nv_registers;
}

unsigned long tsl__device_query_registers(const tsl_context *ctx)
{
    cl_uint regs = 0;
    if (!has_extension(ctx->device, "cl_nv_device_attribute_query") ||
        clGetDeviceInfo(ctx->device, TSL__CL_NV_REGISTERS, sizeof regs, &regs, NULL) != CL_SUCCESS)
        return 0;
    return regs;
}
