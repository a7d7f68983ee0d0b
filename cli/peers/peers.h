/* peers.h: other GEMM implementations that `tessel gemm --peers` runs side by side with tessel,
 * on the same host data and (for OpenCL peers) the same device and queue, so a speed claim is a
 * ratio measured in one run. A peer is a row of the peer table: a name and a gemm function that
 * does warmup + repeat runs, returns each timed run in milliseconds and the C of the last run
 * for verification, or says why it was skipped or failed. Not part of libtessel: the tessel
 * command links it; new peers (cuBLAS, ...) are one more file and one more table row. */
#ifndef TESSEL_PEERS_H
#define TESSEL_PEERS_H

#include <stddef.h>

#include "tessel.h"

typedef enum {
    TSL_PEER_OK = 0,
    TSL_PEER_SKIPPED, /* not available here (not built in, no fp64, ...): not an error */
    TSL_PEER_ERROR    /* available but failed */
} tsl_peer_status;

/* One GEMM case, CBLAS semantics: C = alpha op(A) op(B) + beta C. The arrays are host memory
 * with the CBLAS storage of layout/trans/ld; each run starts from c (so beta != 0 gives the same
 * result every run). */
typedef struct {
    tsl_context *ctx; /* tessel's context: OpenCL peers use its device and queue */
    int is_double;    /* 0: the arrays hold float, 1: double */
    /* The reduced cases, which only a peer whose table row says `reduced` computes (tsl_peer_gemm
     * skips the others): storage TSL_HALF or TSL_BFLOAT16 (is_double 0) means the arrays hold
     * uint16_t bits of that type, with FP32 alpha, beta and accumulation and C rounded to the
     * storage type once (as tsl_hgemm, tsl_bgemm); TSL_SINGLE (0) means is_double says. math is
     * single precision's mode: TSL_MATH_TF32 multiplies the inputs rounded to TF32 (tensor cores);
     * TSL_MATH_3XTF32 is computed by the peers in plain FP32, the accuracy it claims to match. */
    tsl_precision storage;
    tsl_math math;
    /* cplx: complex GEMM (cblas_cgemm / cblas_zgemm semantics, only a peer whose row says `cplx`
     * computes it): the arrays hold interleaved (real, imaginary) pairs of is_double's type,
     * leading dimensions count complex elements, alpha and beta have the imaginary parts
     * alpha_im and beta_im, and a transpose may be TSL_CONJ_TRANS. */
    int cplx;
    /* form3m (cplx only): the 3M form was asked for; the cublas peer runs cublasCgemm3m /
     * cublasZgemm3m, the other peers their one complex GEMM. */
    int form3m;
    double alpha_im, beta_im;
    tsl_layout layout;
    tsl_trans transa, transb;
    size_t m, n, k;
    double alpha, beta;
    const void *a;
    size_t lda;
    const void *b;
    size_t ldb;
    const void *c; /* C before the call */
    size_t ldc;
    unsigned warmup; /* untimed runs first */
    unsigned repeat; /* timed runs, >= 1 */
} tsl_peer_gemm_args;

typedef struct {
    tsl_peer_status status;
    char reason[512];   /* why skipped or failed, one line; "" when ok */
    char device[256];   /* where it ran, for the device column ("NVIDIA H200") */
    double *run_ms;     /* caller's array of repeat entries: the time of each timed run */
    void *c;            /* caller's array of C's storage size: C after the last run */
    double build_ms;    /* host time of the first call (kernel compilation), NaN if none */
    double upload_ms;   /* host-to-device copy of A and B, NaN when not applicable */
    double download_ms; /* device-to-host copy of C, NaN when not applicable */
} tsl_peer_result;

typedef struct {
    const char *name; /* the variant column and the --peers name: "clblast", "openblas" */
    const char *what; /* one line for --help */
    void (*gemm)(const tsl_peer_gemm_args *args, tsl_peer_result *res);
    int reduced; /* 1: gemm takes half and bfloat16 storage and TF32 math (args storage, math) */
    int cplx;    /* 1: gemm takes complex cases (args cplx) */
} tsl_peer;

size_t tsl_peer_count(void);
const tsl_peer *tsl_peer_at(size_t index);       /* NULL past the end */
const tsl_peer *tsl_peer_find(const char *name); /* NULL if no peer has that name */

/* Runs peer->gemm after checking the arguments and resetting res (status, reason, device,
 * NaN build/upload/download); res->run_ms and res->c must be set by the caller. A half, bfloat16
 * or TF32 case for a peer without `reduced` is skipped with the reason "it has no GEMM ...", a
 * complex one for a peer without `cplx` (or in TF32 math) with "it has no complex GEMM ...". */
void tsl_peer_gemm(const tsl_peer *peer, const tsl_peer_gemm_args *args, tsl_peer_result *res);

/* Elements of a CBLAS matrix with rows x cols after op(), stored with leading dimension ld:
 * what the array must hold. Sets *elems and returns 0, or returns -1 if ld is too small or the
 * count overflows size_t. A matrix with no rows or columns needs 0 elements. */
int tsl_peer_matrix_elems(tsl_layout layout, tsl_trans trans, size_t rows, size_t cols, size_t ld,
                          size_t *elems);

/* ---- for the peer implementations (peer_common.c) ------------------------------------------- */

double tsl__peer_now_ms(void); /* CLOCK_MONOTONIC in milliseconds */
/* One call of an OpenCL peer on queue, waited for, timed on the device from a profiled marker
 * enqueued just before the call to the end of the event the call returns (a library's returned
 * event may cover only its last kernel); host time when the driver has no marker timestamps.
 * call returns 0 on success and sets *ev. Returns call's status or the clWaitForEvents error. */
int tsl__peer_timed_cl_call(void *queue, int (*call)(void *state, void **ev), void *state,
                            double *ms);

void tsl__peer_set(tsl_peer_result *res, tsl_peer_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The timed runs of an OpenCL peer on tessel's context: warmup (at least 1: the first call
 * compiles, and is never timed) then repeat calls of call(state) through tsl__peer_timed_cl_call,
 * each after `reset` (when not NULL) has been written again from its host copy, so an output the
 * call also reads (beta != 0, y of axpy) starts the same every time. Fills res->run_ms and
 * res->build_ms: the first call's host time less the fastest timed run (its marker span includes
 * the compilation). Returns 0; or a call's nonzero status; or -1 with *reset_failed = 1 when
 * writing `reset` failed (tsl_context_error says why). */
typedef struct {
    tsl_buffer *buf;
    size_t bytes;
    const void *host;
} tsl__peer_reset;
int tsl__peer_cl_runs(tsl_context *ctx, int (*call)(void *state, void **ev), void *state,
                      const tsl__peer_reset *reset, unsigned warmup, unsigned repeat,
                      tsl_peer_result *res, int *reset_failed);
/* What every CLBlast peer checks first: it runs on tessel's own context. Writes the device name
 * into res->device; returns 1 when the peer can run, else 0 with res saying why (error: no
 * context; skipped: double precision on a device without fp64). */
int tsl__peer_clblast_ready(tsl_context *ctx, int is_double, tsl_peer_result *res);
/* The skipped row of a CLBlast peer in a tessel built without CLBlast. */
void tsl__peer_clblast_missing(tsl_context *ctx, tsl_peer_result *res);
void tsl__peer_openblas_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res);
void tsl__peer_clblast_gemm(const tsl_peer_gemm_args *args, tsl_peer_result *res);

#endif
