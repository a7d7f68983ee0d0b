/* tune_data.h: what `tessel tune gemm` measures its candidates on, for one kind of GEMM (a storage
 * precision and, for single, a math mode): A and B on the device, C's CPU reference in double, the
 * call, and the check of a result. The data, the reference and the pass bound are those of
 * `tessel gemm --verify` (cli_fill_random; the reference from the inputs as the kernel sees them:
 * 16-bit values exactly, TF32 math's inputs rounded by tsl_ref_round_tf32; tsl_ref_gemm_tolerance),
 * so a candidate passes here exactly when it would pass there. */
#ifndef TESSEL_CLI_TUNE_DATA_H
#define TESSEL_CLI_TUNE_DATA_H

#include <stddef.h>

#include "tessel.h"

/* A kind: the precision and, for TSL_SINGLE, the math mode (the context's option "math" of
 * "gemm"; TSL_MATH_FP32 for the others). */
typedef struct {
    tsl_precision prec;
    tsl_math math;
} tune_kind;

typedef struct {
    size_t m, n, k;
} tune_shape;

/* One shape's data: A and B uploaded once, C's buffer, a host copy of C, the reference. */
typedef struct {
    tune_shape sh;
    tsl_buffer *a, *b, *c;
    void *out;
    double *ref;
} tune_data;

/* The kind as the database's precision column and the report's spell it: single, double, half,
 * bfloat16, tf32, 3xtf32. */
const char *tune_kind_name(tune_kind kind);
/* Bytes of one element of the matrices. */
size_t tune_kind_elem(tune_kind kind);
/* Fresh random A and B (from seed) on the device and the reference C = A B; on failure nothing is
 * left allocated. */
tsl_status tune_data_prepare(tsl_context *ctx, tune_kind kind, unsigned long long seed,
                             tune_shape sh, tune_data *d);
void tune_data_free(tune_data *d);
/* C = A B on the device by the kind's call (tsl_sgemm_buf in the context's math mode, tsl_dgemm_buf,
 * tsl_hgemm_buf, tsl_bgemm_buf) and the context's variant. */
tsl_status tune_data_call(tsl_context *ctx, tune_kind kind, tune_data *d);
/* Reads C back: its relative error against the reference into *err and the pass bound into *tol. */
tsl_status tune_data_check(tsl_context *ctx, tune_kind kind, tune_data *d, double *err,
                           double *tol);

#endif
