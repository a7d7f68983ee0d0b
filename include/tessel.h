/* tessel.h: the one public header of libtessel, portable OpenCL kernels for dense linear algebra.
 *
 * Host-pointer calls (tsl_sgemm, ...) follow CBLAS semantics exactly: both layouts, both
 * transposes, leading dimensions larger than the matrix, alpha/beta, and beta == 0 means C is
 * not read. Device-buffer calls (tsl_sgemm_buf, ...) do the same on data that stays on the
 * device between calls. Every call returns a tsl_status; on any error the caller's arrays are
 * untouched and tsl_context_error() says what was wrong. A context is used by one thread at a
 * time. */
#ifndef TESSEL_H
#define TESSEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(TESSEL_SHARED_BUILD)
#define TSL_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define TSL_EXPORT __attribute__((visibility("default")))
#else
#define TSL_EXPORT
#endif

#define TESSEL_VERSION_MAJOR 0
#define TESSEL_VERSION_MINOR 1
#define TESSEL_VERSION_PATCH 0
#define TESSEL_VERSION_STRING "0.1.0"

typedef struct tsl_context tsl_context; /* opaque */
typedef struct tsl_buffer tsl_buffer;   /* opaque: memory on a context's device */

typedef enum {
    TSL_OK = 0,
    TSL_ERR_INVALID_ARG = -1,
    TSL_ERR_NO_DEVICE = -2,
    TSL_ERR_OUT_OF_MEMORY = -3,
    TSL_ERR_BUILD = -4,
    TSL_ERR_OPENCL = -5,
    TSL_ERR_UNSUPPORTED = -6,
    TSL_ERR_IO = -7
} tsl_status;

typedef enum { TSL_ROW_MAJOR = 101, TSL_COL_MAJOR = 102 } tsl_layout; /* CBLAS values */
typedef enum { TSL_NO_TRANS = 111, TSL_TRANS = 112 } tsl_trans;       /* CBLAS values */

/* ---- version, status, errors ---------------------------------------------------------------- */

TSL_EXPORT const char *tsl_version(void);            /* "0.1.0" */
TSL_EXPORT const char *tsl_status_name(tsl_status s); /* "TSL_ERR_INVALID_ARG" ... */
/* The last detailed message of calls that had no context to keep it (tsl_context_create,
 * tsl_devices) on this thread; "" if none. */
TSL_EXPORT const char *tsl_last_error(void);

/* ---- devices and contexts ------------------------------------------------------------------- */

typedef struct {
    int platform_index; /* as "P:D" device specs count them */
    int device_index;
    char platform[128];
    char name[128];
    char vendor[64];
    char driver_version[64];
    char opencl_version[64];
    char type[8];                     /* "gpu", "cpu", "accel", "other" */
    unsigned compute_units;
    unsigned clock_mhz;
    unsigned long long global_mem;    /* bytes */
    unsigned long long local_mem;     /* bytes */
    unsigned long long max_alloc;     /* bytes, largest single buffer */
    size_t max_work_group;
    int fp64;                         /* 1 if the device does double precision */
} tsl_device_info;

/* Fills up to cap entries of list (list may be NULL when cap is 0) and sets *count to the number
 * of devices found on all platforms. No devices is TSL_OK with *count == 0. */
TSL_EXPORT tsl_status tsl_devices(tsl_device_info *list, size_t cap, size_t *count);

/* device_spec: NULL or "" = $TESSEL_DEVICE if set, else the first GPU, else the first device;
 * "P:D" = platform and device index; any other text = the first device whose name or platform
 * name contains it, case-insensitive. */
TSL_EXPORT tsl_status tsl_context_create(const char *device_spec, tsl_context **out);
TSL_EXPORT void tsl_context_destroy(tsl_context *ctx); /* NULL is a no-op */
TSL_EXPORT const char *tsl_context_error(const tsl_context *ctx); /* "" if none */
TSL_EXPORT tsl_status tsl_context_device(const tsl_context *ctx, tsl_device_info *info);

/* Variant selection per operation ("gemm", ...); "auto" (the default) = the best known. */
TSL_EXPORT tsl_status tsl_context_set_variant(tsl_context *ctx, const char *op, const char *variant);
/* The name of op's index-th variant ("auto" excluded), NULL past the end or for an unknown op. */
TSL_EXPORT const char *tsl_variant_name(const char *op, size_t index);
/* TSL_OK if the variant runs on the context's device, TSL_ERR_UNSUPPORTED (with a message
 * saying why) if the device cannot run it, TSL_ERR_INVALID_ARG if there is no such variant.
 * For "auto", *resolved (if not NULL) receives the variant auto stands for on this device.
 * The check may build the variant's kernel (the compiler decides its work-group limit); the
 * time it took is then the build_ms of tsl_context_timing. */
TSL_EXPORT tsl_status tsl_variant_check(tsl_context *ctx, const char *op, const char *variant,
                                        const char **resolved);

/* ---- timing --------------------------------------------------------------------------------- */

/* Breakdown of the last call on the context, in milliseconds. upload, kernel and download come
 * from OpenCL profiling events; build is host time spent building (or loading from the on-disk
 * cache) programs during that call. kernel includes every kernel the call ran (pre-passes too). */
typedef struct {
    double build_ms;
    double upload_ms;
    double kernel_ms;
    double download_ms;
} tsl_timing;
TSL_EXPORT tsl_status tsl_context_timing(const tsl_context *ctx, tsl_timing *out);

/* ---- device buffers ------------------------------------------------------------------------- */

TSL_EXPORT tsl_status tsl_buffer_create(tsl_context *ctx, size_t bytes, tsl_buffer **out);
TSL_EXPORT void tsl_buffer_destroy(tsl_buffer *buf); /* NULL is a no-op */
TSL_EXPORT size_t tsl_buffer_size(const tsl_buffer *buf);
TSL_EXPORT tsl_status tsl_buffer_write(tsl_context *ctx, tsl_buffer *buf, size_t offset,
                                       size_t bytes, const void *src);
TSL_EXPORT tsl_status tsl_buffer_read(tsl_context *ctx, const tsl_buffer *buf, size_t offset,
                                      size_t bytes, void *dst);

/* ---- GEMM: C = alpha op(A) op(B) + beta C ---------------------------------------------------- */

TSL_EXPORT tsl_status tsl_sgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                tsl_trans transb, size_t m, size_t n, size_t k, float alpha,
                                const float *a, size_t lda, const float *b, size_t ldb,
                                float beta, float *c, size_t ldc);
TSL_EXPORT tsl_status tsl_dgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                tsl_trans transb, size_t m, size_t n, size_t k, double alpha,
                                const double *a, size_t lda, const double *b, size_t ldb,
                                double beta, double *c, size_t ldc);
/* The same on device buffers; matrices start at element 0 of their buffer. */
TSL_EXPORT tsl_status tsl_sgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                    tsl_trans transb, size_t m, size_t n, size_t k, float alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, float beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_dgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                    tsl_trans transb, size_t m, size_t n, size_t k, double alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, double beta, tsl_buffer *c, size_t ldc);

#ifdef __cplusplus
}
#endif
#endif /* TESSEL_H */
