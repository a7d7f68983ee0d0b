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
#include <stdint.h>

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
/* TSL_CONJ_TRANS: op(X) = X^H for the complex routines (tsl_cgemm, tsl_zgemm); the real routines
 * take it as TSL_TRANS, as CBLAS's real routines take CblasConjTrans. */
typedef enum { TSL_NO_TRANS = 111, TSL_TRANS = 112, TSL_CONJ_TRANS = 113 } tsl_trans; /* CBLAS */
typedef enum { TSL_UPPER = 121, TSL_LOWER = 122 } tsl_uplo;           /* CBLAS values */
typedef enum { TSL_NON_UNIT = 131, TSL_UNIT = 132 } tsl_diag;         /* CBLAS values */
typedef enum { TSL_LEFT = 141, TSL_RIGHT = 142 } tsl_side;            /* CBLAS values */
/* The precision of an operation's data. TSL_SINGLE and TSL_DOUBLE are the 0 and 1 of the
 * is_double arguments below; TSL_HALF is half storage (IEEE binary16 matrices, float arithmetic)
 * and TSL_BFLOAT16 bfloat16 storage (the top 16 bits of a float, float arithmetic), which only
 * GEMM has (tsl_hgemm, tsl_bgemm). */
typedef enum { TSL_SINGLE = 0, TSL_DOUBLE = 1, TSL_HALF = 2, TSL_BFLOAT16 = 3 } tsl_precision;
/* How single-precision GEMM (tsl_sgemm, tsl_sgemm_buf) may compute, as cuBLAS's math modes: the
 * context's option "math" of "gemm" (tsl_context_set_option(ctx, "gemm", "math", m)).
 *   TSL_MATH_FP32 (the default): plain FP32 products and sums.
 *   TSL_MATH_TF32: each element of A and B is rounded to TF32 (10 mantissa bits, to nearest, ties
 *     away from zero, as PTX cvt.rna.tf32.f32) and the products of the rounded values are summed
 *     in FP32: NVIDIA's TF32 tensor cores (mma.sync m16n8k8), and the same arithmetic emulated in
 *     OpenCL C on every other device, so the result is the TF32 one everywhere (relative error
 *     about 2^-11 per product, against FP32's 2^-24).
 *   TSL_MATH_3XTF32: each element x is split into big = tf32(x) and small = tf32(x - big), and
 *     C accumulates big*big + big*small + small*big in FP32 (small*small, below 2^-22 of the
 *     product, is dropped): three TF32 products with FP32's accuracy.
 * The reduced modes run on tiled2d's tensor-core configurations only (docs/gemm.md): a ladder
 * variant named in them is TSL_ERR_UNSUPPORTED. `auto` never picks a mode the caller did not set;
 * double, half and bfloat16 GEMM ignore the option. */
typedef enum { TSL_MATH_FP32 = 0, TSL_MATH_TF32 = 1, TSL_MATH_3XTF32 = 2 } tsl_math;

/* ---- version, status, errors ---------------------------------------------------------------- */

TSL_EXPORT const char *tsl_version(void);            /* "0.1.0" */
TSL_EXPORT const char *tsl_status_name(tsl_status s); /* "TSL_ERR_INVALID_ARG" ... */
/* The last detailed message of calls that had no context to keep it (tsl_context_create,
 * tsl_devices) on this thread; "" if none. */
TSL_EXPORT const char *tsl_last_error(void);
/* The directory where tessel keeps its on-disk caches (compiled kernels, tuning results, the
 * drop-in BLAS's calibration): $TESSEL_CACHE_DIR, else $XDG_CACHE_HOME/tessel, else
 * $HOME/.cache/tessel, created if missing. Writes it into dir (cap bytes) and returns TSL_OK, or
 * TSL_ERR_IO when none of them gives a readable and writable directory (a context then runs
 * without a kernel cache), TSL_ERR_INVALID_ARG for a NULL dir or a path longer than cap. */
TSL_EXPORT tsl_status tsl_cache_dir(char *dir, size_t cap);

/* ---- temporary files ----------------------------------------------------------------------- */

/* tessel writes files (kernel-cache entries, the tuning database) under a temporary name in the
 * same folder and renames them into place when complete. The library installs no signal handler;
 * a program that wants an interrupted run to leave no temporaries calls tsl_remove_temporaries()
 * from its own SIGINT/SIGTERM handler, and may register its own temporaries in the same registry.
 * tsl_temporary_add: remember path (a file, or a folder removed with its contents) until
 * tsl_temporary_drop; TSL_ERR_INVALID_ARG for NULL, "" or a path of 4096 bytes or more,
 * TSL_ERR_OUT_OF_MEMORY when 64 paths are registered (that path is then not covered). Both are
 * thread-safe. Drop a path after renaming or removing the file. */
TSL_EXPORT tsl_status tsl_temporary_add(const char *path);
TSL_EXPORT void tsl_temporary_drop(const char *path); /* unknown or NULL path: no-op */
/* mkstemp(3) with the path registered before the file exists, so that no interrupt can leave it
 * unregistered: path_template ends in XXXXXX, replaced in place; returns the open descriptor
 * (mode 0600, close-on-exec), or -1 with errno. Drop the path after renaming or removing it. */
TSL_EXPORT int tsl_temporary_mkstemp(char *path_template);
/* Removes every registered path and forgets it. Async-signal-safe (no lock, no allocation, only
 * async-signal-safe calls), and safe while other threads register or drop paths; errno is kept.
 * A registered folder is emptied first (on Linux; elsewhere only an empty folder is removed). */
TSL_EXPORT void tsl_remove_temporaries(void);

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
/* The same check for data of the given precision (tsl_variant_check is TSL_SINGLE, for gemm in the
 * context's math mode): a variant may run in one precision and not in another (gemm's tiled2d has
 * 16-bit storage only in its tensor-core configurations; double needs fp64), and "auto" may stand
 * for another variant (gemm's auto with TSL_HALF is a ladder variant). TSL_ERR_UNSUPPORTED for
 * TSL_HALF and TSL_BFLOAT16 on every op but gemm, and for TSL_DOUBLE on the ops without double
 * calls (pi, nbody, kmeans); TSL_ERR_INVALID_ARG for another precision value. */
TSL_EXPORT tsl_status tsl_variant_check_precision(tsl_context *ctx, const char *op,
                                                  const char *variant, tsl_precision precision,
                                                  const char **resolved);

/* ---- tuning (docs/tuning.md) ---------------------------------------------------------------- */

/* `auto` (and a bare "tiled2d") take their configuration from the tuning database: the user's
 * own results for this device and driver ($TESSEL_TUNING_DIR, else <kernel cache dir>/tuning,
 * written by `tessel tune`), then the defaults tessel ships, looked up by device, architecture,
 * vendor, device type. A configuration names a variant and its parameters,
 * "tiled2d:MWG=128,NWG=128,KWG=16,...", and is accepted wherever a variant name is
 * (tsl_context_set_variant, tsl_variant_check). */

/* Warnings of the context (a tuning file that was corrupt or of another version and was
 * ignored, an entry that cannot run here), "; "-separated; "" if none. Never an error. */
TSL_EXPORT const char *tsl_context_warning(const tsl_context *ctx);
/* The size class the database keys op's problem by ("small", "skinny", "large"; "any" for an op
 * without classes). */
TSL_EXPORT const char *tsl_tuning_class(const char *op, size_t m, size_t n, size_t k);
/* The precision arguments of the tuning calls below (named is_double before 16-bit storage: 0 and
 * 1 still mean single and double) take a tsl_precision: TSL_HALF and TSL_BFLOAT16 for gemm only
 * (TSL_ERR_UNSUPPORTED elsewhere), another value is TSL_ERR_INVALID_ARG. For gemm, TSL_SINGLE
 * means single precision in the context's math mode (tsl_context_set_option "gemm" "math"), as
 * tsl_sgemm on that context computes it: with TSL_MATH_TF32 or TSL_MATH_3XTF32 set, the entries
 * and the search are those of that mode (the database's precision tf32 or 3xtf32). */
/* What the database says for op at this precision and problem size: *config ("" when no entry
 * applies: the op's built-in choice runs) and *source (which file and selector it came from).
 * The strings live until the next tuning call on ctx. */
TSL_EXPORT tsl_status tsl_tuning_lookup(tsl_context *ctx, const char *op, int precision,
                                        size_t m, size_t n, size_t k, const char **config,
                                        const char **source);
/* Stores config (checked to run on the device) as this device's entry for op, precision and
 * the problem's size class in the user database, replacing an older one; note is one word of
 * key=value pairs kept with it ("gflops=28270,size=4096"), or NULL; "measured=MxNxK+..." in it
 * limits the entry to problems within a factor of 2 of those shapes in m, n and k (docs/tuning.md).
 * TSL_ERR_IO when the file cannot be written. */
TSL_EXPORT tsl_status tsl_tuning_store(tsl_context *ctx, const char *op, int precision, size_t m,
                                       size_t n, size_t k, const char *config, const char *note);
/* The user database file of the context's device ("" when there is no usable directory). */
TSL_EXPORT const char *tsl_tuning_file(const tsl_context *ctx);
/* The selectors under which the database looks the context's device up, most specific first:
 * "device=h100 (or nvidia_h100_80gb_hbm3) arch=sm_90 vendor=nvidia type=gpu default"
 * (docs/tuning.md, "Lookup order"). The string lives as long as the context's entries (until the
 * next tuning store on ctx). */
TSL_EXPORT const char *tsl_tuning_selectors(const tsl_context *ctx);

/* The search over an op's parameter space. The tuner hands out configurations; the caller runs,
 * verifies and times each, and reports a score (higher is better, <= 0 failed). The first
 * candidate is the configuration `auto` uses now; small spaces are walked in full, large ones by
 * random sampling alternating with refinement around the best so far (seeded: reproducible).
 * precision as above: gemm's half, bfloat16 and single in TF32 or 3xTF32 math search tiled2d's
 * tensor-core configurations (MMA=4, MMA=5), which only a device with the instruction runs fast:
 * elsewhere tsl_tuner_create is TSL_ERR_UNSUPPORTED, saying so (docs/tuning.md). */
typedef struct tsl_tuner tsl_tuner;
TSL_EXPORT tsl_status tsl_tuner_create(tsl_context *ctx, const char *op, int precision,
                                       unsigned long long seed, tsl_tuner **out);
/* Keeps only the configurations with these parameter values ("SA=1,PF=1"): TSL_ERR_INVALID_ARG
 * for an unknown name or value, TSL_ERR_UNSUPPORTED when none would be left (the tuner is then
 * unchanged). Call before the first tsl_tuner_next. */
TSL_EXPORT tsl_status tsl_tuner_fix(tsl_tuner *t, const char *params);
TSL_EXPORT size_t tsl_tuner_space_size(const tsl_tuner *t); /* configurations valid here */
TSL_EXPORT const char *tsl_tuner_next(tsl_tuner *t);        /* NULL when all were tried */
TSL_EXPORT void tsl_tuner_report(tsl_tuner *t, double score); /* for the last next() */
TSL_EXPORT void tsl_tuner_destroy(tsl_tuner *t);              /* NULL is a no-op */

/* ---- timing --------------------------------------------------------------------------------- */

/* Breakdown of the last call on the context, in milliseconds. upload, kernel and download come
 * from OpenCL profiling events; build is host time spent building (or loading from the on-disk
 * cache) programs during that call. kernel includes every kernel the call ran (pre-passes too):
 * the device time in which at least one of them ran (kernels a call runs at once on several
 * queues, as TRSM's parts, count once; on one queue, the sum of their times). */
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
/* Half storage: A, B and C are IEEE binary16 values (the bits, as uint16_t; tsl_float_to_half
 * makes them), every product and sum is computed in float, and C is rounded to half (to nearest
 * even) once, at the end. Semantics and argument checks are those of tsl_sgemm. Variants: the
 * GEMM ladder (naive, tiled_WxW, regblock_P), auto (a ladder variant unless the tuning database
 * names a tensor-core configuration, docs/gemm.md) and tiled2d in its tensor-core configurations
 * ("tiled2d", "tiled2d:...,MMA=4": mma.sync m16n8k16 f16 with FP32 accumulation on NVIDIA, an exact
 * emulation of its data path elsewhere); another tiled2d configuration is TSL_ERR_UNSUPPORTED.
 * Needs no cl_khr_fp16: the kernels use the core vload_half / vstore_half built-ins. */
TSL_EXPORT tsl_status tsl_hgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                tsl_trans transb, size_t m, size_t n, size_t k, float alpha,
                                const uint16_t *a, size_t lda, const uint16_t *b, size_t ldb,
                                float beta, uint16_t *c, size_t ldc);
/* bfloat16 storage: A, B and C are bfloat16 values (the top 16 bits of a float, as uint16_t;
 * tsl_float_to_bf16 makes them), every product is exact in float and summed in float, and C is
 * rounded to bfloat16 (to nearest even) once, at the end. Semantics, argument checks and variants
 * are those of tsl_hgemm; tiled2d runs bfloat16 through its tensor-core configurations
 * ("tiled2d:...,MMA=4": mma.sync m16n8k16 bf16 on NVIDIA, an exact emulation elsewhere). */
TSL_EXPORT tsl_status tsl_bgemm(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                tsl_trans transb, size_t m, size_t n, size_t k, float alpha,
                                const uint16_t *a, size_t lda, const uint16_t *b, size_t ldb,
                                float beta, uint16_t *c, size_t ldc);
/* The same on device buffers; matrices start at element 0 of their buffer (2 bytes an element
 * for tsl_hgemm_buf and tsl_bgemm_buf). */
TSL_EXPORT tsl_status tsl_sgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                    tsl_trans transb, size_t m, size_t n, size_t k, float alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, float beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_dgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                    tsl_trans transb, size_t m, size_t n, size_t k, double alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, double beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_hgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                    tsl_trans transb, size_t m, size_t n, size_t k, float alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, float beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_bgemm_buf(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                    tsl_trans transb, size_t m, size_t n, size_t k, float alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, float beta, tsl_buffer *c, size_t ldc);

/* IEEE binary16 on the host, the format of tsl_hgemm's matrices. tsl_float_to_half rounds to
 * nearest, ties to even, as the kernels' stores do: magnitudes from 65520 up become infinity,
 * values below 2^-14 become subnormal halves (a signed zero at 2^-25 and below), NaN stays a quiet
 * NaN with its sign and top payload bits. tsl_half_to_float is exact (every half is a float). */
TSL_EXPORT uint16_t tsl_float_to_half(float x);
TSL_EXPORT float tsl_half_to_float(uint16_t h);
/* bfloat16 on the host, the format of tsl_bgemm's matrices: a float's sign, its 8 exponent bits
 * and the top 7 of its 23 mantissa bits. tsl_float_to_bf16 rounds to nearest, ties to even (as the
 * kernels' stores do): subnormal floats round to subnormal bfloat16s (no flush to zero), magnitudes
 * from 0x1.ffp127 (halfway past the largest bfloat16) up become infinity, NaN stays a quiet NaN with
 * its sign and top payload bits. tsl_bf16_to_float is exact (every bfloat16 is a float). */
TSL_EXPORT uint16_t tsl_float_to_bf16(float x);
TSL_EXPORT float tsl_bf16_to_float(uint16_t b);

/* ---- per-operation options ------------------------------------------------------------------ */

/* Sets a numeric option of an operation's kernels, kept by the context until changed:
 *   "transpose": "tile" (edge of the square tile, 4..64, default: the variant's best known),
 *                "wg_rows" (rows of the work-group, 1..64, capped at the tile edge: each
 *                work-item walks the tile that many rows apart; default: the device's best known),
 *                "group_tiles" (variant vector: tiles a work-group transposes, 1..16, loading the
 *                next while it writes the last; default: the device's best known),
 *                "inner_reps" (the kernel body runs R times per launch, as in the transpose
 *                study of 001; default 1; the result is the same, the time grows);
 *   "poisson":   "check_every" (sweeps between residual checks on the device; default 20);
 *   "gemm":      "math" (a tsl_math: how single-precision GEMM may compute; default
 *                TSL_MATH_FP32).
 * Unknown op or name, or a value out of range: TSL_ERR_INVALID_ARG. */
TSL_EXPORT tsl_status tsl_context_set_option(tsl_context *ctx, const char *op, const char *name,
                                             long value);

/* ---- Level-3 BLAS (docs/level3.md) -----------------------------------------------------------
 * CBLAS semantics and argument order after the context: both layouts; side, uplo, trans, diag;
 * leading dimensions larger than the matrix; the triangle a routine does not reference (of A for
 * SYMM, TRMM, TRSM; of C for SYRK, SYR2K) is never read or written, nor a unit diagonal read;
 * beta == 0 never reads C; alpha == 0 reads neither A nor B (TRMM and TRSM then set B = 0); a
 * size of 0 does what BLAS does. TRSM with a zero on a non-unit diagonal gives IEEE inf/NaN, as
 * the reference BLAS does. Blocked algorithms run their bulk in the context's GEMM; the block
 * size is the option "block" of each routine (tsl_context_set_option(ctx, "trsm", "block", 128)).
 *   symm:  C = alpha A B + beta C (left, A m x m) or alpha B A + beta C (right, A n x n),
 *          A symmetric, given by its uplo triangle
 *   syrk:  C = alpha A A^T + beta C (trans N, A n x k) or alpha A^T A + beta C (T, A k x n)
 *   syr2k: C = alpha (A B^T + B A^T) + beta C, or alpha (A^T B + B^T A) + beta C
 *   trmm:  B = alpha op(A) B (left) or alpha B op(A) (right), A triangular
 *   trsm:  B = X with op(A) X = alpha B (left) or X op(A) = alpha B (right) */
TSL_EXPORT tsl_status tsl_ssymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                size_t m, size_t n, float alpha, const float *a, size_t lda,
                                const float *b, size_t ldb, float beta, float *c, size_t ldc);
TSL_EXPORT tsl_status tsl_dsymm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                size_t m, size_t n, double alpha, const double *a, size_t lda,
                                const double *b, size_t ldb, double beta, double *c, size_t ldc);
TSL_EXPORT tsl_status tsl_ssyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                tsl_trans trans, size_t n, size_t k, float alpha, const float *a,
                                size_t lda, float beta, float *c, size_t ldc);
TSL_EXPORT tsl_status tsl_dsyrk(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                tsl_trans trans, size_t n, size_t k, double alpha, const double *a,
                                size_t lda, double beta, double *c, size_t ldc);
TSL_EXPORT tsl_status tsl_ssyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                 tsl_trans trans, size_t n, size_t k, float alpha, const float *a,
                                 size_t lda, const float *b, size_t ldb, float beta, float *c,
                                 size_t ldc);
TSL_EXPORT tsl_status tsl_dsyr2k(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                 tsl_trans trans, size_t n, size_t k, double alpha,
                                 const double *a, size_t lda, const double *b, size_t ldb,
                                 double beta, double *c, size_t ldc);
TSL_EXPORT tsl_status tsl_strmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                tsl_trans transa, tsl_diag diag, size_t m, size_t n, float alpha,
                                const float *a, size_t lda, float *b, size_t ldb);
TSL_EXPORT tsl_status tsl_dtrmm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                tsl_trans transa, tsl_diag diag, size_t m, size_t n, double alpha,
                                const double *a, size_t lda, double *b, size_t ldb);
TSL_EXPORT tsl_status tsl_strsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                tsl_trans transa, tsl_diag diag, size_t m, size_t n, float alpha,
                                const float *a, size_t lda, float *b, size_t ldb);
TSL_EXPORT tsl_status tsl_dtrsm(tsl_context *ctx, tsl_layout layout, tsl_side side, tsl_uplo uplo,
                                tsl_trans transa, tsl_diag diag, size_t m, size_t n, double alpha,
                                const double *a, size_t lda, double *b, size_t ldb);
/* The same on device buffers (each matrix at offset 0 of its buffer). */
TSL_EXPORT tsl_status tsl_ssymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, size_t m, size_t n, float alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, float beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_dsymm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, size_t m, size_t n, double alpha,
                                    const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                    size_t ldb, double beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_ssyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                    tsl_trans trans, size_t n, size_t k, float alpha,
                                    const tsl_buffer *a, size_t lda, float beta, tsl_buffer *c,
                                    size_t ldc);
TSL_EXPORT tsl_status tsl_dsyrk_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                    tsl_trans trans, size_t n, size_t k, double alpha,
                                    const tsl_buffer *a, size_t lda, double beta, tsl_buffer *c,
                                    size_t ldc);
TSL_EXPORT tsl_status tsl_ssyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                     tsl_trans trans, size_t n, size_t k, float alpha,
                                     const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                     size_t ldb, float beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_dsyr2k_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                     tsl_trans trans, size_t n, size_t k, double alpha,
                                     const tsl_buffer *a, size_t lda, const tsl_buffer *b,
                                     size_t ldb, double beta, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_strmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, tsl_trans transa, tsl_diag diag, size_t m,
                                    size_t n, float alpha, const tsl_buffer *a, size_t lda,
                                    tsl_buffer *b, size_t ldb);
TSL_EXPORT tsl_status tsl_dtrmm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, tsl_trans transa, tsl_diag diag, size_t m,
                                    size_t n, double alpha, const tsl_buffer *a, size_t lda,
                                    tsl_buffer *b, size_t ldb);
TSL_EXPORT tsl_status tsl_strsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, tsl_trans transa, tsl_diag diag, size_t m,
                                    size_t n, float alpha, const tsl_buffer *a, size_t lda,
                                    tsl_buffer *b, size_t ldb);
TSL_EXPORT tsl_status tsl_dtrsm_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                    tsl_uplo uplo, tsl_trans transa, tsl_diag diag, size_t m,
                                    size_t n, double alpha, const tsl_buffer *a, size_t lda,
                                    tsl_buffer *b, size_t ldb);

/* ---- LAPACK: LU and Cholesky with their solvers (docs/lapack.md) ------------------------------
 * LAPACK's semantics after the context and the layout: column-major as LAPACK, row-major as
 * LAPACKE defines it (element (i, j) at i lda + j); pivots as LAPACK's 1-based int row indices
 * (row i was interchanged with row ipiv[i] - 1, i from 0); *info as LAPACK returns it: 0, or
 * i > 0 for an exactly zero U(i, i) (getrf, gesv: the factorization is completed; gesv then does
 * not solve) or a leading minor of order i that is not positive definite (potrf, posv: the
 * factorization stops there and the rest of the triangle is unspecified). A bad argument is
 * TSL_ERR_INVALID_ARG naming it. potrf, potrs and posv read and write the uplo triangle of A
 * only. The factorizations run on the device with their updates in tessel's GEMM, TRSM and SYRK;
 * a host-pointer call moves the matrices to the device and back once.
 *   getrf: A (m x n) = P L U, L unit lower, U upper; ipiv holds min(m, n) pivots
 *   getrs: op(A) X = B from getrf's factors (A n x n, B n x nrhs; trans N or T), X into B
 *   gesv:  A X = B: getrf, then getrs where info is 0
 *   potrf: A = L L^T (uplo lower) or U^T U (upper), A n x n symmetric positive definite
 *   potrs: A X = B from potrf's factor; posv: potrf, then potrs where info is 0 */
TSL_EXPORT tsl_status tsl_sgetrf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n, float *a,
                                 size_t lda, int *ipiv, int *info);
TSL_EXPORT tsl_status tsl_dgetrf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n,
                                 double *a, size_t lda, int *ipiv, int *info);
TSL_EXPORT tsl_status tsl_sgetrs(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t n,
                                 size_t nrhs, const float *a, size_t lda, const int *ipiv,
                                 float *b, size_t ldb);
TSL_EXPORT tsl_status tsl_dgetrs(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t n,
                                 size_t nrhs, const double *a, size_t lda, const int *ipiv,
                                 double *b, size_t ldb);
TSL_EXPORT tsl_status tsl_sgesv(tsl_context *ctx, tsl_layout layout, size_t n, size_t nrhs,
                                float *a, size_t lda, int *ipiv, float *b, size_t ldb, int *info);
TSL_EXPORT tsl_status tsl_dgesv(tsl_context *ctx, tsl_layout layout, size_t n, size_t nrhs,
                                double *a, size_t lda, int *ipiv, double *b, size_t ldb,
                                int *info);
TSL_EXPORT tsl_status tsl_spotrf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                                 float *a, size_t lda, int *info);
TSL_EXPORT tsl_status tsl_dpotrf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                                 double *a, size_t lda, int *info);
TSL_EXPORT tsl_status tsl_spotrs(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                                 size_t nrhs, const float *a, size_t lda, float *b, size_t ldb);
TSL_EXPORT tsl_status tsl_dpotrs(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                                 size_t nrhs, const double *a, size_t lda, double *b, size_t ldb);
TSL_EXPORT tsl_status tsl_sposv(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                                size_t nrhs, float *a, size_t lda, float *b, size_t ldb,
                                int *info);
TSL_EXPORT tsl_status tsl_dposv(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                                size_t nrhs, double *a, size_t lda, double *b, size_t ldb,
                                int *info);
/* Mixed precision, LAPACK's dsgesv: A X = B (A n x n, B and X n x nrhs) with A factored in single
 * precision and X refined in double until every column's residual max|B - A X| is at most
 * max|X| |A|_inf eps sqrt(n) (eps the unit roundoff 2^-53, as LAPACK's), at most 30
 * corrections. *iter as LAPACK's: the
 * corrections made (>= 0: A is unchanged), or negative where the double factorization was used
 * (-2 an element beyond float's range, -3 an exactly singular single factorization, -31 no
 * convergence in 30; A then holds its factors); *info as dgesv's; ipiv the pivots of the
 * factorization used; B is only read. */
TSL_EXPORT tsl_status tsl_dsgesv(tsl_context *ctx, tsl_layout layout, size_t n, size_t nrhs,
                                 double *a, size_t lda, int *ipiv, const double *b, size_t ldb,
                                 double *x, size_t ldx, int *iter, int *info);
/* LAPACK's dsposv: the same for a symmetric positive definite A (its uplo triangle only read, and
 * written only where the double factorization was used), Cholesky in single precision;
 * *iter -3 where the single factorization found a minor that is not positive definite. */
TSL_EXPORT tsl_status tsl_dsposv(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                                 size_t nrhs, double *a, size_t lda, const double *b, size_t ldb,
                                 double *x, size_t ldx, int *iter, int *info);
/* The same on device buffers (each matrix at offset 0 of its buffer; ipiv and info in host
 * memory). */
TSL_EXPORT tsl_status tsl_sgetrf_buf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n,
                                     tsl_buffer *a, size_t lda, int *ipiv, int *info);
TSL_EXPORT tsl_status tsl_dgetrf_buf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n,
                                     tsl_buffer *a, size_t lda, int *ipiv, int *info);
TSL_EXPORT tsl_status tsl_sgetrs_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans,
                                     size_t n, size_t nrhs, const tsl_buffer *a, size_t lda,
                                     const int *ipiv, tsl_buffer *b, size_t ldb);
TSL_EXPORT tsl_status tsl_dgetrs_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans,
                                     size_t n, size_t nrhs, const tsl_buffer *a, size_t lda,
                                     const int *ipiv, tsl_buffer *b, size_t ldb);
TSL_EXPORT tsl_status tsl_sgesv_buf(tsl_context *ctx, tsl_layout layout, size_t n, size_t nrhs,
                                    tsl_buffer *a, size_t lda, int *ipiv, tsl_buffer *b,
                                    size_t ldb, int *info);
TSL_EXPORT tsl_status tsl_dgesv_buf(tsl_context *ctx, tsl_layout layout, size_t n, size_t nrhs,
                                    tsl_buffer *a, size_t lda, int *ipiv, tsl_buffer *b,
                                    size_t ldb, int *info);
TSL_EXPORT tsl_status tsl_spotrf_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                     size_t n, tsl_buffer *a, size_t lda, int *info);
TSL_EXPORT tsl_status tsl_dpotrf_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                     size_t n, tsl_buffer *a, size_t lda, int *info);
TSL_EXPORT tsl_status tsl_spotrs_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                     size_t n, size_t nrhs, const tsl_buffer *a, size_t lda,
                                     tsl_buffer *b, size_t ldb);
TSL_EXPORT tsl_status tsl_dpotrs_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo,
                                     size_t n, size_t nrhs, const tsl_buffer *a, size_t lda,
                                     tsl_buffer *b, size_t ldb);
TSL_EXPORT tsl_status tsl_sposv_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                                    size_t nrhs, tsl_buffer *a, size_t lda, tsl_buffer *b,
                                    size_t ldb, int *info);
TSL_EXPORT tsl_status tsl_dposv_buf(tsl_context *ctx, tsl_layout layout, tsl_uplo uplo, size_t n,
                                    size_t nrhs, tsl_buffer *a, size_t lda, tsl_buffer *b,
                                    size_t ldb, int *info);

/* QR and least squares, LAPACK's semantics as above:
 *   geqrf: A (m x n) = Q R, Householder: R on and above the diagonal, Q = H(1) ... H(k) (k =
 *          min(m, n)), H(i) = I - tau(i) v v^T with v(i) = 1 implied and v below the diagonal of
 *          column i (dgeqrf's storage)
 *   ormqr: C (m x n) = op(Q) C (side left) or C op(Q) (right), Q from geqrf's k reflectors in A
 *          (m x k for left, n x k for right) and tau; trans N or T
 *   gels:  least squares min ||B - op(A) X|| where op(A) is tall, or the minimum-norm solution
 *          of op(A) X = B where it is wide, A of full rank (dgels: QR of A, or its LQ for m <
 *          n); B is max(m, n) x nrhs, X into it; A holds the factorization after it; *info i > 0
 *          where R's (or L's) i-th diagonal element is exactly zero (A is rank deficient: no
 *          solution is computed). */
TSL_EXPORT tsl_status tsl_sgeqrf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n,
                                 float *a, size_t lda, float *tau);
TSL_EXPORT tsl_status tsl_sormqr(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                 tsl_trans trans, size_t m, size_t n, size_t k, const float *a,
                                 size_t lda, const float *tau, float *c, size_t ldc);
TSL_EXPORT tsl_status tsl_sgels(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m,
                                size_t n, size_t nrhs, float *a, size_t lda, float *b, size_t ldb,
                                int *info);
TSL_EXPORT tsl_status tsl_dgeqrf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n,
                                 double *a, size_t lda, double *tau);
TSL_EXPORT tsl_status tsl_dormqr(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                 tsl_trans trans, size_t m, size_t n, size_t k, const double *a,
                                 size_t lda, const double *tau, double *c, size_t ldc);
TSL_EXPORT tsl_status tsl_dgels(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m,
                                size_t n, size_t nrhs, double *a, size_t lda, double *b, size_t ldb,
                                int *info);
/* The same on device buffers (A and B or C at offset 0 of their buffers; tau and info in host
 * memory). */
TSL_EXPORT tsl_status tsl_sgeqrf_buf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n,
                                 tsl_buffer *a, size_t lda, float *tau);
TSL_EXPORT tsl_status tsl_sormqr_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                 tsl_trans trans, size_t m, size_t n, size_t k, const tsl_buffer *a,
                                 size_t lda, const float *tau, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_sgels_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m,
                                size_t n, size_t nrhs, tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb,
                                int *info);
TSL_EXPORT tsl_status tsl_dgeqrf_buf(tsl_context *ctx, tsl_layout layout, size_t m, size_t n,
                                 tsl_buffer *a, size_t lda, double *tau);
TSL_EXPORT tsl_status tsl_dormqr_buf(tsl_context *ctx, tsl_layout layout, tsl_side side,
                                 tsl_trans trans, size_t m, size_t n, size_t k, const tsl_buffer *a,
                                 size_t lda, const double *tau, tsl_buffer *c, size_t ldc);
TSL_EXPORT tsl_status tsl_dgels_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m,
                                size_t n, size_t nrhs, tsl_buffer *a, size_t lda, tsl_buffer *b, size_t ldb,
                                int *info);

/* Strided batched GEMM: for p < batch, C_p = alpha op(A_p) op(B_p) + beta C_p with the CBLAS
 * semantics of tsl_sgemm, where X_p = X + p stride_x (strides in elements, as cuBLAS and CLBlast
 * count them). A stride of 0 shares A or B across the batch; a stride_c that makes two problems'
 * C overlap is TSL_ERR_INVALID_ARG. batch == 0 does nothing. */
TSL_EXPORT tsl_status tsl_sgemm_batched(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                        tsl_trans transb, size_t m, size_t n, size_t k,
                                        float alpha, const float *a, size_t lda, size_t stride_a,
                                        const float *b, size_t ldb, size_t stride_b, float beta,
                                        float *c, size_t ldc, size_t stride_c, size_t batch);
TSL_EXPORT tsl_status tsl_dgemm_batched(tsl_context *ctx, tsl_layout layout, tsl_trans transa,
                                        tsl_trans transb, size_t m, size_t n, size_t k,
                                        double alpha, const double *a, size_t lda,
                                        size_t stride_a, const double *b, size_t ldb,
                                        size_t stride_b, double beta, double *c, size_t ldc,
                                        size_t stride_c, size_t batch);
TSL_EXPORT tsl_status tsl_sgemm_batched_buf(tsl_context *ctx, tsl_layout layout,
                                            tsl_trans transa, tsl_trans transb, size_t m,
                                            size_t n, size_t k, float alpha, const tsl_buffer *a,
                                            size_t lda, size_t stride_a, const tsl_buffer *b,
                                            size_t ldb, size_t stride_b, float beta,
                                            tsl_buffer *c, size_t ldc, size_t stride_c,
                                            size_t batch);
TSL_EXPORT tsl_status tsl_dgemm_batched_buf(tsl_context *ctx, tsl_layout layout,
                                            tsl_trans transa, tsl_trans transb, size_t m,
                                            size_t n, size_t k, double alpha,
                                            const tsl_buffer *a, size_t lda, size_t stride_a,
                                            const tsl_buffer *b, size_t ldb, size_t stride_b,
                                            double beta, tsl_buffer *c, size_t ldc,
                                            size_t stride_c, size_t batch);

/* ---- memory: copies, pinned host memory ------------------------------------------------------ */

/* dst[0, bytes) = src[0, bytes) on the device, by a vectorized copy kernel: the reference that
 * every memory-bound result is compared with (bytes read + bytes written = 2 * bytes). */
TSL_EXPORT tsl_status tsl_copy_buf(tsl_context *ctx, const tsl_buffer *src, tsl_buffer *dst,
                                   size_t bytes);
/* Page-locked ("pinned") host memory the device transfers to and from at full speed
 * (CL_MEM_ALLOC_HOST_PTR, mapped). Use it as the host side of tsl_buffer_write/read. Freed by
 * tsl_host_free before the context is destroyed (tsl_context_destroy frees what is left). */
TSL_EXPORT tsl_status tsl_host_alloc(tsl_context *ctx, size_t bytes, void **ptr);
TSL_EXPORT void tsl_host_free(tsl_context *ctx, void *ptr); /* NULL is a no-op */

/* ---- transpose: b = a^T, row-major; a is rows x cols with lda >= cols, b is cols x rows with
 * ldb >= rows ----------------------------------------------------------------------------------- */
TSL_EXPORT tsl_status tsl_stranspose(tsl_context *ctx, size_t rows, size_t cols, const float *a,
                                     size_t lda, float *b, size_t ldb);
TSL_EXPORT tsl_status tsl_dtranspose(tsl_context *ctx, size_t rows, size_t cols, const double *a,
                                     size_t lda, double *b, size_t ldb);
TSL_EXPORT tsl_status tsl_stranspose_buf(tsl_context *ctx, size_t rows, size_t cols,
                                         const tsl_buffer *a, size_t lda, tsl_buffer *b,
                                         size_t ldb);
TSL_EXPORT tsl_status tsl_dtranspose_buf(tsl_context *ctx, size_t rows, size_t cols,
                                         const tsl_buffer *a, size_t lda, tsl_buffer *b,
                                         size_t ldb);

/* ---- BLAS-1: unit-stride vectors of n elements ------------------------------------------------
 * axpy: y = alpha x + y. dot: *result = x . y. nrm2: *result = ||x||_2, without overflow or
 * underflow where the true norm is representable. Reductions give the same bits on every run for
 * a given device, size and variant. */
TSL_EXPORT tsl_status tsl_saxpy(tsl_context *ctx, size_t n, float alpha, const float *x, float *y);
TSL_EXPORT tsl_status tsl_daxpy(tsl_context *ctx, size_t n, double alpha, const double *x,
                                double *y);
TSL_EXPORT tsl_status tsl_sdot(tsl_context *ctx, size_t n, const float *x, const float *y,
                               float *result);
TSL_EXPORT tsl_status tsl_ddot(tsl_context *ctx, size_t n, const double *x, const double *y,
                               double *result);
TSL_EXPORT tsl_status tsl_snrm2(tsl_context *ctx, size_t n, const float *x, float *result);
TSL_EXPORT tsl_status tsl_dnrm2(tsl_context *ctx, size_t n, const double *x, double *result);
TSL_EXPORT tsl_status tsl_saxpy_buf(tsl_context *ctx, size_t n, float alpha, const tsl_buffer *x,
                                    tsl_buffer *y);
TSL_EXPORT tsl_status tsl_daxpy_buf(tsl_context *ctx, size_t n, double alpha,
                                    const tsl_buffer *x, tsl_buffer *y);
TSL_EXPORT tsl_status tsl_sdot_buf(tsl_context *ctx, size_t n, const tsl_buffer *x,
                                   const tsl_buffer *y, float *result);
TSL_EXPORT tsl_status tsl_ddot_buf(tsl_context *ctx, size_t n, const tsl_buffer *x,
                                   const tsl_buffer *y, double *result);
TSL_EXPORT tsl_status tsl_snrm2_buf(tsl_context *ctx, size_t n, const tsl_buffer *x,
                                    float *result);
TSL_EXPORT tsl_status tsl_dnrm2_buf(tsl_context *ctx, size_t n, const tsl_buffer *x,
                                    double *result);

/* ---- BLAS-2: y = alpha op(A) x + beta y, CBLAS semantics (both layouts, both transposes,
 * lda, beta == 0 does not read y); x has n elements (m if transposed), y m (n if transposed) - */
TSL_EXPORT tsl_status tsl_sgemv(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m,
                                size_t n, float alpha, const float *a, size_t lda, const float *x,
                                float beta, float *y);
TSL_EXPORT tsl_status tsl_dgemv(tsl_context *ctx, tsl_layout layout, tsl_trans trans, size_t m,
                                size_t n, double alpha, const double *a, size_t lda,
                                const double *x, double beta, double *y);
TSL_EXPORT tsl_status tsl_sgemv_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans,
                                    size_t m, size_t n, float alpha, const tsl_buffer *a,
                                    size_t lda, const tsl_buffer *x, float beta, tsl_buffer *y);
TSL_EXPORT tsl_status tsl_dgemv_buf(tsl_context *ctx, tsl_layout layout, tsl_trans trans,
                                    size_t m, size_t n, double alpha, const tsl_buffer *a,
                                    size_t lda, const tsl_buffer *x, double beta, tsl_buffer *y);

/* ---- Poisson: -lap(u) = f on the unit square, 5-point stencil, Jacobi iteration ------------
 * n x n grid points including the boundary (n >= 3), h = 1/(n-1), row-major. On entry u holds the
 * boundary values on its border and the initial guess inside; on return the iterate inside and
 * the border unchanged. f is given at every point (its border is ignored). Iterates until the
 * max-norm of the residual f - A_h u over the interior is at most tol * max(1, max|f|), or
 * max_iters sweeps (tol == 0: exactly max_iters sweeps). */
typedef struct {
    int iterations;   /* sweeps done */
    double residual;  /* max-norm of f - A_h u over the interior, after the last sweep */
    double kernel_ms; /* device time of all sweeps and residual checks */
} tsl_poisson_info;
TSL_EXPORT tsl_status tsl_spoisson(tsl_context *ctx, size_t n, const float *f, float *u,
                                   int max_iters, double tol, tsl_poisson_info *info);
TSL_EXPORT tsl_status tsl_dpoisson(tsl_context *ctx, size_t n, const double *f, double *u,
                                   int max_iters, double tol, tsl_poisson_info *info);

/* ---- several devices of one host: a group (docs/multi-device.md) -----------------------------
 * A group drives several devices as one. GEMM splits the rows of C (and of op(A)) across them in
 * proportion to per-device weights and sends B to every device; Poisson splits the grid into row
 * strips whose halo rows are exchanged between sweeps (every K sweeps with temporal_K, K-row
 * halos). Each device has its own context, driven by its own host thread during a call, so the
 * transfers and kernels of different devices overlap. Results are those of one device: the same
 * iterate bit for bit for Poisson, C within the GEMM tolerance. A group is used by one thread at a
 * time; between calls the caller may use tsl_group_context to pick variants and options per
 * device.
 *
 * Every wait of a call (a device finishing its part, a halo exchange) is bounded by the group's
 * timeout. A device that fails (an OpenCL error) or does not answer in time makes the call
 * return an error naming the device (tsl_group_error; "timed out" for a device that hangs,
 * TSL_ERR_OPENCL). Bad arguments are found before any device starts and leave the caller's arrays
 * untouched; the results are copied into C or u only after every device finished its part. */
typedef struct tsl_group tsl_group; /* opaque */

/* devices: "all" (every device of every platform, in `tessel devices` order), "all:SPEC" (every
 * device SPEC matches: "all:gpu", "all:h200"), or a comma list of device specs as
 * tsl_context_create takes them ("0:0,0:1", "h200,cpu"); NULL or "" = "all". At most 16 devices.
 * A device that two specs name is TSL_ERR_INVALID_ARG with a message naming it (tsl_last_error);
 * an unknown spec is TSL_ERR_NO_DEVICE. */
TSL_EXPORT tsl_status tsl_group_create(const char *devices, tsl_group **out);
TSL_EXPORT void tsl_group_destroy(tsl_group *g); /* NULL is a no-op */
TSL_EXPORT const char *tsl_group_error(const tsl_group *g); /* "" if none */
/* A note on the last call that did not fail it, "" if none: calibration failed on a device (its
 * error quoted), so the rows were split by compute units instead (docs/multi-device.md). */
TSL_EXPORT const char *tsl_group_warning(const tsl_group *g);
TSL_EXPORT size_t tsl_group_size(const tsl_group *g);
/* The context of device i (NULL past the end), owned by the group: for tsl_context_set_variant,
 * tsl_context_set_option, tsl_context_device. Not to be used during a group call. */
TSL_EXPORT tsl_context *tsl_group_context(tsl_group *g, size_t i);

/* How the rows are split. TSL_WEIGHTS_CALIBRATE (the default): each device's throughput on the
 * operation, measured once per operation and precision by a short run of it on every device at
 * once (docs/multi-device.md gives the sizes); if that fails on a device (an error, or the
 * timeout) and every device came back from it, compute-unit weights instead, with a note in
 * tsl_group_warning, kept like measured ones. TSL_WEIGHTS_COMPUTE_UNITS: compute units x clock
 * (004's split). TSL_WEIGHTS_GIVEN: weights[0..count), count == tsl_group_size, each finite and
 * >= 0 with a positive sum; a device of weight 0 gets no rows and does no work. */
typedef enum {
    TSL_WEIGHTS_CALIBRATE = 0,
    TSL_WEIGHTS_COMPUTE_UNITS = 1,
    TSL_WEIGHTS_GIVEN = 2
} tsl_weights;
TSL_EXPORT tsl_status tsl_group_set_weights(tsl_group *g, tsl_weights how, const double *weights,
                                            size_t count);
/* The weights (summing to 1) that op ("gemm" or "poisson") at this precision is split by, into
 * weights[0..count), count == tsl_group_size; calibrates first when that is the rule and it has
 * not been done. */
TSL_EXPORT tsl_status tsl_group_weights(tsl_group *g, const char *op, int is_double,
                                        double *weights, size_t count);
/* Seconds any one wait of a call may last (default: $TESSEL_TIMEOUT if set, else 600). */
TSL_EXPORT tsl_status tsl_group_set_timeout(tsl_group *g, double seconds);

/* GEMM with the CBLAS semantics of tsl_sgemm / tsl_dgemm, split by rows of C. */
TSL_EXPORT tsl_status tsl_group_sgemm(tsl_group *g, tsl_layout layout, tsl_trans transa,
                                      tsl_trans transb, size_t m, size_t n, size_t k, float alpha,
                                      const float *a, size_t lda, const float *b, size_t ldb,
                                      float beta, float *c, size_t ldc);
TSL_EXPORT tsl_status tsl_group_dgemm(tsl_group *g, tsl_layout layout, tsl_trans transa,
                                      tsl_trans transb, size_t m, size_t n, size_t k,
                                      double alpha, const double *a, size_t lda, const double *b,
                                      size_t ldb, double beta, double *c, size_t ldc);
/* tsl_spoisson / tsl_dpoisson split into row strips, with the same arguments and results;
 * info->kernel_ms is the longest device time of the devices. */
TSL_EXPORT tsl_status tsl_group_spoisson(tsl_group *g, size_t n, const float *f, float *u,
                                         int max_iters, double tol, tsl_poisson_info *info);
TSL_EXPORT tsl_status tsl_group_dpoisson(tsl_group *g, size_t n, const double *f, double *u,
                                         int max_iters, double tol, tsl_poisson_info *info);

/* What the last call did, per device and as a whole. */
typedef struct {
    size_t first_row, rows; /* rows of C (GEMM) or interior grid rows (Poisson) of this device */
    double weight;          /* its normalized weight */
    tsl_timing timing;      /* its build, upload, kernel, download (halo rows included) */
    double wall_ms;         /* host time of its whole part */
} tsl_group_part;
typedef struct {
    double wall_ms;  /* host time of the whole call: every transfer, kernel and exchange */
    double phase_ms; /* GEMM: the longest device kernel time (004's measure); Poisson: host time
                      * of the iteration, halo exchanges included, uploads and downloads not */
    size_t devices;  /* devices that got rows */
} tsl_group_times;
/* times (if not NULL) and parts[0..min(cap, size)) of the last call; zeros before any. */
TSL_EXPORT tsl_status tsl_group_timing(const tsl_group *g, tsl_group_times *times,
                                       tsl_group_part *parts, size_t cap);

/* ---- 002's workloads: Pi, N-body, K-means (docs/workloads.md) ---- */

/* Pi = integral over [0,1] of 4/(1+x^2) dx by the midpoint rule with `steps` rectangles (002).
 * Float arithmetic on the device, partial sums reduced in a fixed order (the same bits on every
 * run for a given device, variant and options); relative error below 2e-6 against the exact
 * midpoint sum (docs/pi.md). steps == 0: TSL_ERR_INVALID_ARG (no rectangle, no rule). Options
 * (tsl_context_set_option "pi"): "global" (total work-items) and "local" (work-group size) of
 * every variant but `original` (002's fixed 200 work-items in groups of 50). */
TSL_EXPORT tsl_status tsl_pi(tsl_context *ctx, unsigned long long steps, double *pi);

/* `steps` all-pairs N-body steps (002): pos holds n float4 (x, y, z, mass), vel n float4
 * (vx, vy, vz, unused); a_i = sum_j m_j (r_j - r_i) / (|r_j - r_i|^2 + softening^2)^(3/2)
 * (G = 1), then v += a dt, r += v dt (semi-implicit Euler); both arrays updated in place.
 * softening in [1e-12, 1e12] (it keeps each body's own term, which is included, at 0), dt finite,
 * steps >= 0; n == 0 or steps == 0 changes nothing. vel's 4th component is left as it is.
 * Option (tsl_context_set_option "nbody"): "local", the work-group size, which is also the tile
 * of bodies the `local` and `optimized` variants stage in local memory (docs/nbody.md). */
TSL_EXPORT tsl_status tsl_nbody(tsl_context *ctx, size_t n, int steps, float dt, float softening,
                                float *pos, float *vel);

/* K-means assignment step (002): assign[i] = the index of the centroid nearest to point i
 * (squared Euclidean distance, the lowest index on ties); points n x dim and centroids k x dim,
 * row-major floats; a NaN distance never wins, and a point with no finite distance gets 0.
 * n == 0 does nothing; k == 0 or dim == 0: TSL_ERR_INVALID_ARG (docs/kmeans.md). */
TSL_EXPORT tsl_status tsl_kmeans_assign(tsl_context *ctx, size_t n, size_t k, size_t dim,
                                        const float *points, const float *centroids, int *assign);

/* The complex routines: GEMM and Level 3 in CBLAS's types (tessel_complex.h). */
#include "tessel_complex.h"

#ifdef __cplusplus
}
#endif
#endif /* TESSEL_H */
