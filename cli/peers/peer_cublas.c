/* peer_cublas.c: the cuBLAS peer (peer_cublas.h). Each call opens its own session: it asks the CUDA
 * runtime for devices (none, or no driver, is "skipped: no CUDA device"), picks the CUDA device
 * that is tessel's OpenCL device (same UUID through cl_khr_device_uuid, else the same name, else
 * device 0), creates a stream, two events and a cuBLAS handle bound to the stream, copies the
 * inputs to cudaMalloc memory, runs warmup + repeat calls and copies the result of the last back.
 * Every timed run is the time between two events recorded on the stream around the one cuBLAS
 * call; dot and nrm2 use CUBLAS_POINTER_MODE_DEVICE with the result left on the device, so no run
 * waits on a copy to the host. Outputs that the call reads (C with beta != 0, y of axpy, y of gemv
 * with beta != 0) are reset before each run from a pristine device copy, outside the timed span.
 * The first call is never timed, even with --warmup 0: cuBLAS loads its kernels lazily on first
 * use. build_ms is the host time of the session's setup (CUDA context, cuBLAS handle) plus that
 * first call less the fastest timed run; upload_ms and download_ms are event times of the copies.
 * The session, device choice, copies and timed runs are the CUDA peers' shared ones (peer_cuda.h).
 *
 * Math mode: CUBLAS_DEFAULT_MATH, set explicitly. In CUDA 11 and later (checked in CUDA 13.0's
 * cublas_api.h) the default mode computes FP32 routines with CUBLAS_COMPUTE_32F, which keeps at
 * least FP32 precision and range: TF32 tensor cores need CUBLAS_TF32_TENSOR_OP_MATH and the
 * BF16x9 emulation needs CUBLAS_FP32_EMULATED_BF16X9_MATH (FP64 emulation likewise needs
 * CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH), and neither is set. CUBLAS_PEDANTIC_MATH would also
 * exclude them but is documented as possibly slower, which is no fair peer; it is used only where
 * CUBLAS_EMULATE_SINGLE_PRECISION (or _DOUBLE_, for DGEMM) is set in the environment, since those
 * turn emulation on for every handle, and the device text then says so. The row's device text
 * says "plain FP32 (no TF32)" for SGEMM. The reduced cases of GEMM (peers.h: half and bfloat16
 * storage, TF32 math) run cublasGemmEx with the compute type named in the call (CUBLAS_COMPUTE_32F
 * for 16-bit storage, CUBLAS_COMPUTE_32F_FAST_TF32 for TF32), so the math mode stays default; the
 * device text says "FP16/BF16 tensor cores, FP32 accumulation" or "TF32 tensor cores". Where CMake
 * found no CUDA toolkit
 * (TESSEL_HAVE_CUBLAS unset) every function reports skipped. */
#include "peer_cublas.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reset_result(tsl_peer_result *res)
{
    res->status = TSL_PEER_OK;
    res->reason[0] = '\0';
    res->device[0] = '\0';
    res->build_ms = res->upload_ms = res->download_ms = NAN;
}

/* The checks every entry point shares; 0 and res set to error when the call cannot be made. */
static int common_ok(const void *args, tsl_peer_result *res, unsigned repeat)
{
    if (!args || !res->run_ms || !res->c || repeat == 0) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad peer arguments");
        return 0;
    }
    return 1;
}

#if defined(TESSEL_HAVE_CUBLAS) && TESSEL_HAVE_CUBLAS

#include <cublas_v2.h>

#include "peer_cuda.h"

int tsl_peer_cublas_built(void)
{
    return 1;
}

static const char *cublas_status_name(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS:
        return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED:
        return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED:
        return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE:
        return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH:
        return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR:
        return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED:
        return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR:
        return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED:
        return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR:
        return "CUBLAS_STATUS_LICENSE_ERROR";
    default:
        return "unknown cuBLAS status";
    }
}

/* One session: the CUDA session (peer_cuda.h), the handle and device memory of one peer call. */
typedef struct {
    tsl__cuda_session cu;
    cublasHandle_t h;
    void *mem[5];
} cu_session;

static int cu_ok(cu_session *s, cudaError_t e, const char *call)
{
    return tsl__cuda_ok(&s->cu, e, call);
}

static int cb_ok(cu_session *s, cublasStatus_t st, const char *call)
{
    if (st == CUBLAS_STATUS_SUCCESS) return 1;
    tsl__peer_set(s->cu.res, TSL_PEER_ERROR, "%s returned %s (%d)", call, cublas_status_name(st),
                  (int)st);
    return 0;
}

/* Opens the session with the math mode; what (may be NULL) is added to the device text. 0 with res
 * set (skipped when there is no CUDA device, error otherwise) on failure; *setup_ms is its host
 * time. */
static int cu_open(cu_session *s, tsl_context *ctx, const char *what, cublasMath_t math,
                   double *setup_ms)
{
    double t0 = tsl__peer_now_ms();
    int version = 0;
    if (!tsl__cuda_open(&s->cu, ctx) || !cb_ok(s, cublasCreate(&s->h), "cublasCreate") ||
        !cb_ok(s, cublasSetStream(s->h, s->cu.stream), "cublasSetStream") ||
        !cb_ok(s, cublasSetMathMode(s->h, math), "cublasSetMathMode") ||
        !cb_ok(s, cublasSetPointerMode(s->h, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode") ||
        !cb_ok(s, cublasGetVersion(s->h, &version), "cublasGetVersion"))
        return 0;
    unsigned v = version > 0 ? (unsigned)version : 0u; /* 130100 for 13.1.0 */
    tsl_peer_result *res = s->cu.res;
    snprintf(res->device, sizeof res->device, "%.72s (CUDA %u, cuBLAS %u.%u.%u%s%.48s)",
             s->cu.prop.name, (unsigned)s->cu.dev % 100u, v / 10000u % 100u, v / 100u % 100u,
             v % 100u, what ? ", " : "", what ? what : "");
    *setup_ms = tsl__peer_now_ms() - t0;
    return 1;
}

static void cu_close(cu_session *s)
{
    for (size_t i = 0; i < sizeof s->mem / sizeof s->mem[0]; ++i)
        if (s->mem[i]) cudaFree(s->mem[i]);
    if (s->h) cublasDestroy(s->h);
    tsl__cuda_close(&s->cu);
}

static int cu_copy(cu_session *s, void *dst, const void *src, size_t bytes,
                   enum cudaMemcpyKind kind, const char *what, double *ms)
{
    return tsl__cuda_copy(&s->cu, dst, src, bytes, kind, what, ms);
}

/* mem[slot] = bytes of device memory (at least one element: no zero-sized allocations). */
static int cu_alloc(cu_session *s, int slot, size_t bytes, size_t es)
{
    return cu_ok(s, cudaMalloc(&s->mem[slot], bytes ? bytes : es), "cudaMalloc");
}

typedef cublasStatus_t (*cu_call)(cu_session *s, const void *args);

/* One cu_runs: the call and its output's reset (a device-to-device copy, when bytes). */
typedef struct {
    cu_session *s;
    cu_call call;
    const void *args;
    const char *name;
    void *reset_dst;
    const void *reset_src;
    size_t reset_bytes;
} cu_run_state;

static int cu_run_reset(void *state)
{
    cu_run_state *r = state;
    return !r->reset_bytes ||
           cu_ok(r->s,
                 cudaMemcpyAsync(r->reset_dst, r->reset_src, r->reset_bytes,
                                 cudaMemcpyDeviceToDevice, r->s->cu.stream),
                 "cudaMemcpyAsync (reset of the output)");
}

static int cu_run_call(void *state)
{
    cu_run_state *r = state;
    return cb_ok(r->s, r->call(r->s, r->args), r->name);
}

/* warmup + repeat calls; before each, reset_bytes of reset_src are copied to reset_dst on the
 * stream (not timed). Fills res->run_ms and res->build_ms; 0 with res set on failure. */
static int cu_runs(cu_session *s, cu_call call, const void *args, const char *name, void *reset_dst,
                   const void *reset_src, size_t reset_bytes, unsigned warmup_runs, unsigned repeat,
                   double setup_ms)
{
    cu_run_state r = {s, call, args, name, reset_dst, reset_src, reset_bytes};
    return tsl__cuda_runs(&s->cu, cu_run_reset, cu_run_call, &r, name, warmup_runs, repeat,
                          setup_ms);
}

static cublasOperation_t op_of(tsl_trans t)
{
    return t == TSL_CONJ_TRANS ? CUBLAS_OP_C : t == TSL_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
}

/* ---- GEMM ------------------------------------------------------------------------------------ */

enum { A_MEM, B_MEM, C_MEM, C0_MEM }; /* slots of cu_session.mem */

/* 1 when the case goes through cublasGemmEx: half or bfloat16 storage, or TF32 math (3xTF32 is
 * compared with cuBLAS's plain FP32 SGEMM, the accuracy it claims). */
static int gemm_is_ex(const tsl_peer_gemm_args *g)
{
    return g->storage == TSL_HALF || g->storage == TSL_BFLOAT16 || g->math == TSL_MATH_TF32;
}

/* Column-major: as given. Row-major: the storage of row-major C is column-major C^T, and
 * C^T = op(B)^T op(A)^T, where row-major B's storage read column-major is B^T: so the call swaps
 * A and B, m and n, and keeps each transpose flag. Half and bfloat16 (the host's uint16_t bits,
 * copied as bytes) run cublasGemmEx with A, B and C in the storage type and CUBLAS_COMPUTE_32F:
 * FP32 alpha, beta and accumulation, C rounded to the storage type once, as tsl_hgemm and
 * tsl_bgemm. TF32 math runs cublasGemmEx on FP32 matrices with CUBLAS_COMPUTE_32F_FAST_TF32.
 * Complex cases run cublasCgemm / cublasZgemm (form3m: cublasCgemm3m / cublasZgemm3m; TF32 math:
 * cublasGemmEx on CUDA_C_32F with CUBLAS_COMPUTE_32F_FAST_TF32): the row-major swap holds for the
 * conjugate transpose too (row-major B's storage read column-major is B^T, and
 * (B^H)^T = (B^T)^H). */
static cublasStatus_t gemm_call(cu_session *s, const void *args)
{
    const tsl_peer_gemm_args *g = args;
    int row = g->layout == TSL_ROW_MAJOR;
    cublasOperation_t op1 = op_of(row ? g->transb : g->transa);
    cublasOperation_t op2 = op_of(row ? g->transa : g->transb);
    int m = (int)(row ? g->n : g->m), n = (int)(row ? g->m : g->n), k = (int)g->k;
    const void *p1 = s->mem[row ? B_MEM : A_MEM], *p2 = s->mem[row ? A_MEM : B_MEM];
    int ld1 = (int)(row ? g->ldb : g->lda), ld2 = (int)(row ? g->lda : g->ldb), ldc = (int)g->ldc;
    if (g->cplx && g->is_double) {
        cuDoubleComplex za = {g->alpha, g->alpha_im}, zb = {g->beta, g->beta_im};
        return (g->form3m ? cublasZgemm3m : cublasZgemm)(s->h, op1, op2, m, n, k, &za, p1, ld1, p2,
                                                         ld2, &zb, s->mem[C_MEM], ldc);
    }
    if (g->cplx) {
        cuComplex ca = {(float)g->alpha, (float)g->alpha_im};
        cuComplex cb = {(float)g->beta, (float)g->beta_im};
        if (g->math == TSL_MATH_TF32)
            return cublasGemmEx(s->h, op1, op2, m, n, k, &ca, p1, CUDA_C_32F, ld1, p2, CUDA_C_32F,
                                ld2, &cb, s->mem[C_MEM], CUDA_C_32F, ldc,
                                CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
        return (g->form3m ? cublasCgemm3m : cublasCgemm)(s->h, op1, op2, m, n, k, &ca, p1, ld1, p2,
                                                         ld2, &cb, s->mem[C_MEM], ldc);
    }
    if (g->is_double)
        return cublasDgemm(s->h, op1, op2, m, n, k, &g->alpha, p1, ld1, p2, ld2, &g->beta,
                           s->mem[C_MEM], ldc);
    float alpha = (float)g->alpha, beta = (float)g->beta;
    if (gemm_is_ex(g)) {
        cudaDataType t = g->storage == TSL_HALF       ? CUDA_R_16F
                         : g->storage == TSL_BFLOAT16 ? CUDA_R_16BF
                                                      : CUDA_R_32F;
        cublasComputeType_t ct =
            g->storage == TSL_SINGLE ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
        return cublasGemmEx(s->h, op1, op2, m, n, k, &alpha, p1, t, ld1, p2, t, ld2, &beta,
                            s->mem[C_MEM], t, ldc, ct, CUBLAS_GEMM_DEFAULT);
    }
    return cublasSgemm(s->h, op1, op2, m, n, k, &alpha, p1, ld1, p2, ld2, &beta, s->mem[C_MEM],
                       ldc);
}

void tsl__peer_cublas_gemm(const tsl_peer_gemm_args *g, tsl_peer_result *res)
{
    reset_result(res);
    if (!common_ok(g, res, g ? g->repeat : 0)) return;
    size_t ea = 0, eb = 0, ec = 0;
    if (tsl_peer_matrix_elems(g->layout, g->transa, g->m, g->k, g->lda, &ea) ||
        tsl_peer_matrix_elems(g->layout, g->transb, g->k, g->n, g->ldb, &eb) ||
        tsl_peer_matrix_elems(g->layout, TSL_NO_TRANS, g->m, g->n, g->ldc, &ec)) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad GEMM arguments for peer cublas");
        return;
    }
    if (g->m > INT_MAX || g->n > INT_MAX || g->k > INT_MAX || g->lda > INT_MAX ||
        g->ldb > INT_MAX || g->ldc > INT_MAX) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "cuBLAS takes sizes up to %d (int API)", INT_MAX);
        return;
    }
    cu_session s = {.cu = {.res = res}};
    double setup_ms = 0.0;
    int ex = gemm_is_ex(g);
    int half_bits = g->storage == TSL_HALF || g->storage == TSL_BFLOAT16;
    size_t es = g->is_double ? sizeof(double) : half_bits ? sizeof(uint16_t) : sizeof(float);
    if (g->cplx) es *= 2;
    /* cuBLAS also reads CUBLAS_EMULATE_{SINGLE,DOUBLE}_PRECISION, which turn the emulation on for
     * every handle; where one is set, pedantic math keeps the arithmetic native (file comment).
     * The cublasGemmEx cases name their compute type in the call: default math. */
    const char *emu = getenv(g->is_double ? "CUBLAS_EMULATE_DOUBLE_PRECISION"
                                          : "CUBLAS_EMULATE_SINGLE_PRECISION");
    int pedantic = !ex && emu && emu[0] && strcmp(emu, "0") != 0;
    const char *what = pedantic ? "plain FP32 (no TF32), pedantic math" : "plain FP32 (no TF32)";
    if (g->is_double) what = pedantic ? "FP64, pedantic math" : "FP64";
    if (g->cplx)
        what = g->is_double ? (pedantic ? "FP64 complex, pedantic math" : "FP64 complex")
                            : (pedantic ? "plain FP32 complex, pedantic math" : "plain FP32 complex");
    if (g->cplx && g->form3m)
        what = g->is_double ? "FP64 complex, 3M form" : "plain FP32 complex, 3M form";
    if (g->cplx && ex) what = "complex, TF32 tensor cores (COMPUTE_32F_FAST_TF32)";
    if (ex && !g->cplx)
        what = g->storage == TSL_HALF       ? "FP16 tensor cores, FP32 accumulation"
               : g->storage == TSL_BFLOAT16 ? "BF16 tensor cores, FP32 accumulation"
                                            : "TF32 tensor cores (COMPUTE_32F_FAST_TF32)";
    if (!cu_open(&s, g->ctx, what, pedantic ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH,
                 &setup_ms))
        goto done;
    /* C goes to the output buffer as given (beta == 0: not read, but its padding between columns
     * or rows comes back unchanged); with beta != 0 a pristine copy resets it before each run. */
    int reset = (g->beta != 0.0 || g->beta_im != 0.0) && ec;
    if (!cu_alloc(&s, A_MEM, ea * es, es) || !cu_alloc(&s, B_MEM, eb * es, es) ||
        !cu_alloc(&s, C_MEM, ec * es, es) || (reset && !cu_alloc(&s, C0_MEM, ec * es, es)) ||
        !cu_copy(&s, s.mem[A_MEM], g->a, ea * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (A)",
                 &res->upload_ms) ||
        !cu_copy(&s, s.mem[B_MEM], g->b, eb * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (B)",
                 &res->upload_ms) ||
        !cu_copy(&s, s.mem[C_MEM], g->c, ec * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (C)",
                 NULL) ||
        (reset && !cu_copy(&s, s.mem[C0_MEM], s.mem[C_MEM], ec * es, cudaMemcpyDeviceToDevice,
                           "cudaMemcpyAsync (C)", NULL)))
        goto done;
    if (!cu_runs(&s, gemm_call, g,
                 ex                                     ? "cublasGemmEx"
                 : g->cplx && g->is_double && g->form3m ? "cublasZgemm3m"
                 : g->cplx && g->is_double              ? "cublasZgemm"
                 : g->cplx && g->form3m                 ? "cublasCgemm3m"
                 : g->cplx                              ? "cublasCgemm"
                 : g->is_double                         ? "cublasDgemm"
                                                        : "cublasSgemm",
                 s.mem[C_MEM], s.mem[C0_MEM], reset ? ec * es : 0, g->warmup, g->repeat,
                 setup_ms) ||
        !cu_copy(&s, res->c, s.mem[C_MEM], ec * es, cudaMemcpyDeviceToHost,
                 "cudaMemcpyAsync (C back)", &res->download_ms))
        goto done;
    res->status = TSL_PEER_OK;
done:
    cu_close(&s);
}

/* ---- transpose ------------------------------------------------------------------------------- */

/* Row-major A (rows x cols, lda) read column-major is A^T (cols x rows); row-major B (cols x rows,
 * ldb) read column-major is B^T (rows x cols). B = A^T is B^T = A = (A^T)^T: geam with op T on
 * A's storage, alpha 1, beta 0 (the B operand is not read; A is passed there as a valid one). */
static cublasStatus_t geam_call(cu_session *s, const void *args)
{
    const tsl_peer_transpose_args *g = args;
    int rows = (int)g->rows, cols = (int)g->cols, lda = (int)g->lda, ldb = (int)g->ldb;
    if (g->is_double) {
        const double one = 1.0, zero = 0.0;
        return cublasDgeam(s->h, CUBLAS_OP_T, CUBLAS_OP_T, rows, cols, &one, s->mem[0], lda, &zero,
                           s->mem[0], lda, s->mem[1], ldb);
    }
    const float one = 1.0f, zero = 0.0f;
    return cublasSgeam(s->h, CUBLAS_OP_T, CUBLAS_OP_T, rows, cols, &one, s->mem[0], lda, &zero,
                       s->mem[0], lda, s->mem[1], ldb);
}

void tsl__peer_cublas_transpose(const tsl_peer_transpose_args *g, tsl_peer_result *res)
{
    reset_result(res);
    if (!common_ok(g, res, g ? g->repeat : 0)) return;
    if (g->rows == 0 || g->cols == 0 || g->lda < g->cols || g->ldb < g->rows) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad peer arguments");
        return;
    }
    if (g->rows > INT_MAX || g->cols > INT_MAX || g->lda > INT_MAX || g->ldb > INT_MAX) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "cuBLAS takes sizes up to %d (int API)", INT_MAX);
        return;
    }
    cu_session s = {.cu = {.res = res}};
    double setup_ms = 0.0;
    size_t es = g->is_double ? sizeof(double) : sizeof(float);
    size_t ea = g->rows * g->lda, eb = g->cols * g->ldb;
    if (!cu_open(&s, g->ctx, "geam", CUBLAS_DEFAULT_MATH, &setup_ms) ||
        !cu_alloc(&s, 0, ea * es, es) || !cu_alloc(&s, 1, eb * es, es) ||
        !cu_copy(&s, s.mem[0], g->a, ea * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (A)",
                 &res->upload_ms))
        goto done;
    /* With padding in B (ldb > rows) it comes back as the caller's array had it. */
    if (g->ldb > g->rows && !cu_copy(&s, s.mem[1], res->c, eb * es, cudaMemcpyHostToDevice,
                                     "cudaMemcpyAsync (B)", NULL))
        goto done;
    if (!cu_runs(&s, geam_call, g, g->is_double ? "cublasDgeam" : "cublasSgeam", NULL, NULL, 0,
                 g->warmup, g->repeat, setup_ms) ||
        !cu_copy(&s, res->c, s.mem[1], eb * es, cudaMemcpyDeviceToHost, "cudaMemcpyAsync (B back)",
                 &res->download_ms))
        goto done;
    res->status = TSL_PEER_OK;
done:
    cu_close(&s);
}

/* ---- BLAS-1/2 -------------------------------------------------------------------------------- */

enum { BA_MEM, BX_MEM, BY_MEM, BY0_MEM, BOUT_MEM }; /* slots of cu_session.mem */

static size_t blas_out_len(const tsl_blas_peer_args *g)
{
    if (g->op == TSL_BLAS_DOT || g->op == TSL_BLAS_NRM2) return 1;
    if (g->op == TSL_BLAS_GEMV) return g->trans == TSL_TRANS ? g->n : g->m;
    return g->n;
}

static size_t blas_x_len(const tsl_blas_peer_args *g)
{
    return g->op == TSL_BLAS_GEMV ? (g->trans == TSL_TRANS ? g->m : g->n) : g->n;
}

/* gemv: column-major as given; row-major A (m x n, lda) read column-major is A^T (n x m), so
 * op(A) x is computed as op'(A^T) x with the transpose flag flipped and m, n swapped. */
static cublasStatus_t blas_call(cu_session *s, const void *args)
{
    const tsl_blas_peer_args *g = args;
    int n = (int)g->n, lda = (int)g->lda, row = g->layout == TSL_ROW_MAJOR;
    int gm = (int)(row ? g->n : g->m), gn = (int)(row ? g->m : g->n);
    cublasOperation_t op = (g->trans == TSL_TRANS) != row ? CUBLAS_OP_T : CUBLAS_OP_N;
    void *a = s->mem[BA_MEM], *x = s->mem[BX_MEM], *y = s->mem[BY_MEM], *out = s->mem[BOUT_MEM];
    if (g->is_double) {
        switch (g->op) {
        case TSL_BLAS_AXPY:
            return cublasDaxpy(s->h, n, &g->alpha, x, 1, y, 1);
        case TSL_BLAS_DOT:
            return cublasDdot(s->h, n, x, 1, y, 1, out);
        case TSL_BLAS_NRM2:
            return cublasDnrm2(s->h, n, x, 1, out);
        default:
            return cublasDgemv(s->h, op, gm, gn, &g->alpha, a, lda, x, 1, &g->beta, y, 1);
        }
    }
    float alpha = (float)g->alpha, beta = (float)g->beta;
    switch (g->op) {
    case TSL_BLAS_AXPY:
        return cublasSaxpy(s->h, n, &alpha, x, 1, y, 1);
    case TSL_BLAS_DOT:
        return cublasSdot(s->h, n, x, 1, y, 1, out);
    case TSL_BLAS_NRM2:
        return cublasSnrm2(s->h, n, x, 1, out);
    default:
        return cublasSgemv(s->h, op, gm, gn, &alpha, a, lda, x, 1, &beta, y, 1);
    }
}

static const char *blas_call_name(const tsl_blas_peer_args *g)
{
    static const char *names[2][4] = {{"cublasSaxpy", "cublasSdot", "cublasSnrm2", "cublasSgemv"},
                                      {"cublasDaxpy", "cublasDdot", "cublasDnrm2", "cublasDgemv"}};
    return names[g->is_double ? 1 : 0][g->op];
}

void tsl__peer_cublas_blas(const tsl_blas_peer_args *g, tsl_peer_result *res)
{
    reset_result(res);
    if (!common_ok(g, res, g ? g->repeat : 0)) return;
    size_t row_len = g->layout == TSL_ROW_MAJOR ? g->n : g->m; /* gemv: lda >= max(1, this) */
    if ((unsigned)g->op > TSL_BLAS_GEMV ||
        (g->op == TSL_BLAS_GEMV &&
         ((g->layout != TSL_ROW_MAJOR && g->layout != TSL_COL_MAJOR) ||
          (g->trans != TSL_NO_TRANS && g->trans != TSL_TRANS) || g->lda < 1 || g->lda < row_len))) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad peer arguments");
        return;
    }
    if (g->m > INT_MAX || g->n > INT_MAX || g->lda > INT_MAX) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "cuBLAS takes sizes up to %d (int API)", INT_MAX);
        return;
    }
    cu_session s = {.cu = {.res = res}};
    double setup_ms = 0.0;
    size_t es = g->is_double ? sizeof(double) : sizeof(float);
    size_t ea = g->op == TSL_BLAS_GEMV ? (g->layout == TSL_ROW_MAJOR ? g->m : g->n) * g->lda : 0;
    size_t ex = blas_x_len(g), ey = g->op == TSL_BLAS_DOT ? ex : blas_out_len(g);
    int writes_y = g->op == TSL_BLAS_AXPY || g->op == TSL_BLAS_GEMV;
    int reads_y = g->op == TSL_BLAS_DOT || g->op == TSL_BLAS_AXPY ||
                  (g->op == TSL_BLAS_GEMV && g->beta != 0.0);
    int reset = writes_y && reads_y && ey; /* y is an input and the output: reset every run */
    if (!cu_open(&s, g->ctx, NULL, CUBLAS_DEFAULT_MATH, &setup_ms) ||
        !cu_alloc(&s, BA_MEM, ea * es, es) || !cu_alloc(&s, BX_MEM, ex * es, es) ||
        !cu_alloc(&s, BY_MEM, ey * es, es) || (reset && !cu_alloc(&s, BY0_MEM, ey * es, es)) ||
        !cu_alloc(&s, BOUT_MEM, es, es) ||
        !cu_copy(&s, s.mem[BA_MEM], g->a, ea * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (A)",
                 &res->upload_ms) ||
        !cu_copy(&s, s.mem[BX_MEM], g->x, ex * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (x)",
                 &res->upload_ms) ||
        ((writes_y || reads_y) &&
         !cu_copy(&s, s.mem[BY_MEM], g->y, ey * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (y)",
                  g->op == TSL_BLAS_DOT ? &res->upload_ms : NULL)) ||
        (reset && !cu_copy(&s, s.mem[BY0_MEM], s.mem[BY_MEM], ey * es, cudaMemcpyDeviceToDevice,
                           "cudaMemcpyAsync (y)", NULL)))
        goto done;
    /* dot and nrm2 write their result to device memory: no host wait inside the timed span. */
    int scalar = g->op == TSL_BLAS_DOT || g->op == TSL_BLAS_NRM2;
    if (scalar &&
        !cb_ok(&s, cublasSetPointerMode(s.h, CUBLAS_POINTER_MODE_DEVICE), "cublasSetPointerMode"))
        goto done;
    if (!cu_runs(&s, blas_call, g, blas_call_name(g), s.mem[BY_MEM], s.mem[BY0_MEM],
                 reset ? ey * es : 0, g->warmup, g->repeat, setup_ms) ||
        !cu_copy(&s, res->c, s.mem[scalar ? BOUT_MEM : BY_MEM], scalar ? es : ey * es,
                 cudaMemcpyDeviceToHost, "cudaMemcpyAsync (result back)", &res->download_ms))
        goto done;
    res->status = TSL_PEER_OK;
done:
    cu_close(&s);
}

/* ---- Level 3 and strided batched GEMM (peer_blas3.h) ---------------------------------------- */

enum { L3_A, L3_B, L3_OUT, L3_OUT0 }; /* slots of cu_session.mem */

/* Row-major storage read column-major is the transpose: a row-major call is the column-major call
 * on the transposes, which flips side and uplo and swaps m and n (SYMM, TRMM, TRSM), or flips uplo
 * and trans (SYRK, SYR2K: C^T = C). */
static cublasStatus_t l3_call(cu_session *s, const void *args)
{
    const tsl_l3_peer_args *g = args;
    int row = g->layout == TSL_ROW_MAJOR;
    cublasSideMode_t side = (g->side == TSL_LEFT) != row ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
    cublasFillMode_t fill =
        (g->uplo == TSL_LOWER) != row ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    cublasOperation_t tr_k = (g->trans == TSL_TRANS) != row ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t tr_a = op_of(g->trans);
    cublasDiagType_t diag = g->diag == TSL_UNIT ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    int m = (int)(row ? g->n : g->m), n = (int)(row ? g->m : g->n), k = (int)g->k;
    int nn = (int)g->n, lda = (int)g->lda, ldb = (int)g->ldb, ldc = (int)g->ldc;
    void *a = s->mem[L3_A], *b = s->mem[L3_B], *c = s->mem[L3_OUT];
    if (g->is_double) {
        const double *al = &g->alpha, *be = &g->beta;
        switch (g->op) {
        case TSL_L3_SYMM:
            return cublasDsymm(s->h, side, fill, m, n, al, a, lda, b, ldb, be, c, ldc);
        case TSL_L3_SYRK:
            return cublasDsyrk(s->h, fill, tr_k, nn, k, al, a, lda, be, c, ldc);
        case TSL_L3_SYR2K:
            return cublasDsyr2k(s->h, fill, tr_k, nn, k, al, a, lda, b, ldb, be, c, ldc);
        case TSL_L3_TRMM: /* in place: C = B */
            return cublasDtrmm(s->h, side, fill, tr_a, diag, m, n, al, a, lda, c, ldc, c, ldc);
        default:
            return cublasDtrsm(s->h, side, fill, tr_a, diag, m, n, al, a, lda, c, ldc);
        }
    }
    float alf = (float)g->alpha, bef = (float)g->beta;
    const float *al = &alf, *be = &bef;
    switch (g->op) {
    case TSL_L3_SYMM:
        return cublasSsymm(s->h, side, fill, m, n, al, a, lda, b, ldb, be, c, ldc);
    case TSL_L3_SYRK:
        return cublasSsyrk(s->h, fill, tr_k, nn, k, al, a, lda, be, c, ldc);
    case TSL_L3_SYR2K:
        return cublasSsyr2k(s->h, fill, tr_k, nn, k, al, a, lda, b, ldb, be, c, ldc);
    case TSL_L3_TRMM:
        return cublasStrmm(s->h, side, fill, tr_a, diag, m, n, al, a, lda, c, ldc, c, ldc);
    default:
        return cublasStrsm(s->h, side, fill, tr_a, diag, m, n, al, a, lda, c, ldc);
    }
}

static const char *l3_call_name(const tsl_l3_peer_args *g)
{
    static const char *names[2][5] = {
        {"cublasSsymm", "cublasSsyrk", "cublasSsyr2k", "cublasStrmm", "cublasStrsm"},
        {"cublasDsymm", "cublasDsyrk", "cublasDsyr2k", "cublasDtrmm", "cublasDtrsm"}};
    return names[g->is_double ? 1 : 0][g->op];
}

/* The session of one Level-3 or batched call: A and B uploaded, the output and its pristine copy
 * (every run starts from it), warmup + repeat runs, the output back. */
static void l3_session(tsl_context *ctx, int is_double, cu_call call, const void *args,
                       const char *name, const void *ha, size_t ea, const void *hb, size_t eb,
                       const void *hc, size_t ec, unsigned warmup, unsigned repeat,
                       tsl_peer_result *res)
{
    cu_session s = {.cu = {.res = res}};
    double setup_ms = 0.0;
    size_t es = is_double ? sizeof(double) : sizeof(float);
    if (!cu_open(&s, ctx, is_double ? "FP64" : "plain FP32 (no TF32)", CUBLAS_DEFAULT_MATH,
                 &setup_ms) ||
        !cu_alloc(&s, L3_A, ea * es, es) || !cu_alloc(&s, L3_B, eb * es, es) ||
        !cu_alloc(&s, L3_OUT, ec * es, es) || !cu_alloc(&s, L3_OUT0, ec * es, es) ||
        !cu_copy(&s, s.mem[L3_A], ha, ea * es, cudaMemcpyHostToDevice, "cudaMemcpyAsync (A)",
                 &res->upload_ms) ||
        (hb && !cu_copy(&s, s.mem[L3_B], hb, eb * es, cudaMemcpyHostToDevice,
                        "cudaMemcpyAsync (B)", &res->upload_ms)) ||
        !cu_copy(&s, s.mem[L3_OUT0], hc, ec * es, cudaMemcpyHostToDevice,
                 "cudaMemcpyAsync (output)", NULL))
        goto done;
    if (!cu_runs(&s, call, args, name, s.mem[L3_OUT], s.mem[L3_OUT0], ec * es, warmup, repeat,
                 setup_ms) ||
        !cu_copy(&s, res->c, s.mem[L3_OUT], ec * es, cudaMemcpyDeviceToHost,
                 "cudaMemcpyAsync (output back)", &res->download_ms))
        goto done;
    res->status = TSL_PEER_OK;
done:
    cu_close(&s);
}

void tsl__peer_cublas_l3(const tsl_l3_peer_args *g, tsl_peer_result *res)
{
    reset_result(res);
    if (!common_ok(g, res, g ? g->repeat : 0)) return;
    l3_session(g->ctx, g->is_double, l3_call, g, l3_call_name(g), g->a, g->ea,
               g->op == TSL_L3_SYMM || g->op == TSL_L3_SYR2K ? g->b : NULL, g->eb, g->c, g->ec,
               g->warmup, g->repeat, res);
}

/* Row-major: C^T = op(B)^T op(A)^T on the same storage, as in gemm_call. */
static cublasStatus_t batched_call(cu_session *s, const void *args)
{
    const tsl_batched_peer_args *g = args;
    int row = g->layout == TSL_ROW_MAJOR;
    cublasOperation_t op1 = op_of(row ? g->transb : g->transa);
    cublasOperation_t op2 = op_of(row ? g->transa : g->transb);
    int m = (int)(row ? g->n : g->m), n = (int)(row ? g->m : g->n), k = (int)g->k;
    const void *p1 = s->mem[row ? L3_B : L3_A], *p2 = s->mem[row ? L3_A : L3_B];
    int ld1 = (int)(row ? g->ldb : g->lda), ld2 = (int)(row ? g->lda : g->ldb), ldc = (int)g->ldc;
    long long s1 = (long long)(row ? g->stride_b : g->stride_a);
    long long s2 = (long long)(row ? g->stride_a : g->stride_b), sc = (long long)g->stride_c;
    int batch = (int)g->batch;
    if (g->is_double)
        return cublasDgemmStridedBatched(s->h, op1, op2, m, n, k, &g->alpha, p1, ld1, s1, p2, ld2,
                                         s2, &g->beta, s->mem[L3_OUT], ldc, sc, batch);
    float alpha = (float)g->alpha, beta = (float)g->beta;
    return cublasSgemmStridedBatched(s->h, op1, op2, m, n, k, &alpha, p1, ld1, s1, p2, ld2, s2,
                                     &beta, s->mem[L3_OUT], ldc, sc, batch);
}

void tsl__peer_cublas_batched(const tsl_batched_peer_args *g, tsl_peer_result *res)
{
    reset_result(res);
    if (!common_ok(g, res, g ? g->repeat : 0)) return;
    l3_session(g->ctx, g->is_double, batched_call, g,
               g->is_double ? "cublasDgemmStridedBatched" : "cublasSgemmStridedBatched", g->a,
               g->ea, g->b, g->eb, g->c, g->ec, g->warmup, g->repeat, res);
}

#else /* built without the CUDA toolkit */

int tsl_peer_cublas_built(void)
{
    return 0;
}

static void not_built(tsl_peer_result *res)
{
    tsl__peer_set(res, TSL_PEER_SKIPPED,
                  "this tessel was built without the CUDA toolkit (install it and reconfigure "
                  "with cmake)");
}

void tsl__peer_cublas_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res)
{
    reset_result(res);
    if (common_ok(args, res, args ? args->repeat : 0)) not_built(res);
}

void tsl__peer_cublas_transpose(const tsl_peer_transpose_args *args, tsl_peer_result *res)
{
    reset_result(res);
    if (common_ok(args, res, args ? args->repeat : 0)) not_built(res);
}

void tsl__peer_cublas_blas(const tsl_blas_peer_args *args, tsl_peer_result *res)
{
    reset_result(res);
    if (common_ok(args, res, args ? args->repeat : 0)) not_built(res);
}

void tsl__peer_cublas_l3(const tsl_l3_peer_args *args, tsl_peer_result *res)
{
    reset_result(res);
    if (common_ok(args, res, args ? args->repeat : 0)) not_built(res);
}

void tsl__peer_cublas_batched(const tsl_batched_peer_args *args, tsl_peer_result *res)
{
    reset_result(res);
    if (common_ok(args, res, args ? args->repeat : 0)) not_built(res);
}

#endif
