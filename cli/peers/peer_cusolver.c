/* peer_cusolver.c: the cuSOLVER peer (peer_cusolver.h). Each call opens its own session as the
 * cuBLAS peer does (peer_cuda.h: the CUDA device that is tessel's OpenCL device, a stream, two
 * events), creates a cuSOLVER handle bound to the stream, copies the inputs to cudaMalloc memory,
 * asks for the workspace, runs warmup + repeat calls and copies the outputs of the last back. Every
 * array the routine may write (every non-const pointer it takes) is reset from a pristine device
 * copy before each run, outside the timed span; factors that getrs, potrs and ormqr read (tessel's
 * own, made by the command before the timing, as its rows and the openblas peer get them) are
 * copied once. A timed run is the span between two events around the routine's calls; the first
 * run is never timed (cuSOLVER loads its kernels on first use). build_ms is the session's setup
 * (CUDA context, handle) plus that first run less the fastest timed run; upload_ms and
 * download_ms are event times of the inputs' and outputs' copies.
 *
 * The routines, legacy cusolverDn API with int sizes, S for float and D for double:
 *   getrf  cusolverDn[SD]getrf (workspace from _bufferSize)
 *   getrs  cusolverDn[SD]getrs with trans, on the factors and pivots given
 *   gesv   [SD]getrf then [SD]getrs in one timed span (cuSOLVER has no plain gesv); unlike LAPACK
 *          the solve runs whatever the factorization's info, which no host check inside the span
 *          can see; info is the factorization's when not 0
 *   potrf  cusolverDn[SD]potrf of the uplo triangle; potrs [SD]potrs; posv potrf then potrs
 *   geqrf  cusolverDn[SD]geqrf; ormqr [SD]ormqr with side and trans
 *   gels   cusolverDnDDgels / SSgels, cuSOLVER's own least-squares driver in the IRS API with the
 *          main and lowest precisions equal (a QR in the row's precision, no lower precision
 *          inside); it solves A X = B with m >= n only: --trans t and m < n are skipped rather
 *          than composed from geqrf, ormqr and TRSM, which would be this peer's code, not
 *          cuSOLVER's. X goes to B's first n rows for --verify.
 *   dsgesv cusolverDnDSgesv, cuSOLVER's IRS solver (LU in single, refined to double); iter is
 *          cuSOLVER's (< 0 where it fell back). Device-resident, where tessel's dsgesv row is
 *          from host memory: upload_ms and download_ms are the transfers it does not time.
 *   dsposv skipped: cuSOLVER has no IRS Cholesky solver (cusolverDn.h of CUDA 13.0, cuSOLVER
 *          12.0, has IRS gesv and gels only).
 * Column-major only: a row-major call is skipped, as the openblas peer's. devInfo is read after
 * the last run and reported as LAPACK's INFO. Math mode: CUSOLVER_DEFAULT_MATH, set explicitly
 * where cuSOLVER has the setting (12.0 and later), so single precision is not the BF16x9
 * emulation. Where CMake found no cuSOLVER (TESSEL_HAVE_CUSOLVER unset) every call reports
 * skipped. */
#include "peer_cusolver.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void reset_result(tsl_peer_result *res)
{
    res->status = TSL_PEER_OK;
    res->reason[0] = '\0';
    res->device[0] = '\0';
    res->build_ms = res->upload_ms = res->download_ms = NAN;
}

/* The routine reads a right-hand side (ormqr: C). */
static int has_b(tsl_lapack_peer_op op)
{
    return op != TSL_LP_GETRF && op != TSL_LP_POTRF && op != TSL_LP_GEQRF;
}

/* 0 with res set to error when the call cannot be made at all. */
static int args_ok(const tsl_lapack_peer_args *g, tsl_peer_result *res,
                   const tsl_lapack_peer_out *out)
{
    int rhs = g && has_b(g->op);
    if (!g || !out || !res->run_ms || g->repeat == 0 || !g->a || !out->a ||
        (unsigned)g->op > TSL_LP_DSPOSV || (rhs && (!g->b || !out->b)) ||
        (g->op == TSL_LP_GETRS && !g->ipiv) || (g->op == TSL_LP_ORMQR && !g->tau) ||
        (g->op == TSL_LP_DSGESV && !out->x)) {
        tsl__peer_set(res, TSL_PEER_ERROR, "bad peer arguments");
        return 0;
    }
    return 1;
}

/* Why cuSOLVER has no such call, or NULL. */
static const char *unsupported(const tsl_lapack_peer_args *g)
{
    if (g->layout != TSL_COL_MAJOR)
        return "cuSOLVER's dense API is column-major only (run --layout col)";
    if (g->op == TSL_LP_DSPOSV)
        return "cuSOLVER has no IRS Cholesky solver (its IRS API has gesv and gels only)";
    if (g->op == TSL_LP_GELS && (g->trans != TSL_NO_TRANS || g->m < g->n))
        return "cuSOLVER's gels (cusolverDnDDgels, SSgels) solves A X = B with m >= n only (no "
               "--trans t, no minimum-norm solution)";
    if (g->m > INT_MAX || g->n > INT_MAX || g->k > INT_MAX || g->nrhs > INT_MAX ||
        g->lda > INT_MAX || g->ldb > INT_MAX)
        return "cuSOLVER's legacy dense API takes int sizes";
    return NULL;
}

#if defined(TESSEL_HAVE_CUSOLVER) && TESSEL_HAVE_CUSOLVER

#include <cusolverDn.h>

#include "peer_cuda.h"

int tsl_peer_cusolver_built(void)
{
    return 1;
}

static const char *cusolver_status_name(cusolverStatus_t s)
{
    switch (s) {
    case CUSOLVER_STATUS_SUCCESS:
        return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED:
        return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED:
        return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE:
        return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH:
        return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED:
        return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR:
        return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED:
        return "CUSOLVER_STATUS_NOT_SUPPORTED";
    case CUSOLVER_STATUS_IRS_PARAMS_INVALID:
        return "CUSOLVER_STATUS_IRS_PARAMS_INVALID";
    case CUSOLVER_STATUS_IRS_INTERNAL_ERROR:
        return "CUSOLVER_STATUS_IRS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_IRS_NOT_SUPPORTED:
        return "CUSOLVER_STATUS_IRS_NOT_SUPPORTED";
    case CUSOLVER_STATUS_IRS_OUT_OF_RANGE:
        return "CUSOLVER_STATUS_IRS_OUT_OF_RANGE";
    case CUSOLVER_STATUS_INVALID_WORKSPACE:
        return "CUSOLVER_STATUS_INVALID_WORKSPACE";
    default:
        return "unknown cuSOLVER status";
    }
}

/* Device arrays of a session; INFO holds two ints: the factorization's and the solve's. */
enum { M_A, M_A0, M_B, M_B0, M_X, M_IPIV, M_TAU, M_INFO, M_WORK, NMEM };

typedef struct {
    tsl__cuda_session cu;
    cusolverDnHandle_t h;
    void *mem[NMEM];
    const tsl_lapack_peer_args *g;
    int d;              /* double precision */
    size_t es;          /* bytes of an element */
    int lwork;          /* workspace in elements (legacy API) */
    size_t lwork_bytes; /* workspace in bytes (IRS API) */
    int iter;           /* the IRS calls' iteration count (host memory) */
    char call[48];      /* the cuSOLVER function of the latest status */
} cs_session;

static int cs_ok(cs_session *s, cusolverStatus_t st)
{
    if (st == CUSOLVER_STATUS_SUCCESS) return 1;
    tsl__peer_set(s->cu.res, TSL_PEER_ERROR, "%s returned %s (%d)", s->call,
                  cusolver_status_name(st), (int)st);
    return 0;
}

/* Names the cuSOLVER function about to be called, for its status: cusolverDn + S or D + f
 * ("getrf"), or cusolverDn + f where f starts with a capital ("DDgels", "Create"). */
static cs_session *named(cs_session *s, const char *f)
{
    if (f[0] >= 'A' && f[0] <= 'Z')
        snprintf(s->call, sizeof s->call, "cusolverDn%s", f);
    else
        snprintf(s->call, sizeof s->call, "cusolverDn%c%s", s->d ? 'D' : 'S', f);
    return s;
}

static int writes_a(tsl_lapack_peer_op op)
{
    return op != TSL_LP_GETRS && op != TSL_LP_POTRS && op != TSL_LP_ORMQR;
}
static int has_x(tsl_lapack_peer_op op)
{
    return op == TSL_LP_GELS || op == TSL_LP_DSGESV;
}
static int has_pivots(tsl_lapack_peer_op op)
{
    return op == TSL_LP_GETRF || op == TSL_LP_GETRS || op == TSL_LP_GESV || op == TSL_LP_DSGESV;
}

#define PICK(f, ...) (d ? cusolverDnD##f(__VA_ARGS__) : cusolverDnS##f(__VA_ARGS__))

/* The workspace the routine asks for, in s->lwork or s->lwork_bytes. */
static int cs_workspace(cs_session *s)
{
    const tsl_lapack_peer_args *g = s->g;
    int d = s->d, m = (int)g->m, n = (int)g->n, k = (int)g->k, r = (int)g->nrhs;
    int lda = (int)g->lda, ldb = (int)g->ldb;
    void *a = s->mem[M_A], *b = s->mem[M_B], *x = s->mem[M_X], *tau = s->mem[M_TAU];
    cublasFillMode_t fill = g->uplo == TSL_LOWER ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    cublasOperation_t tr = g->trans == TSL_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasSideMode_t side = g->side == TSL_LEFT ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
    switch (g->op) {
    case TSL_LP_GETRF:
    case TSL_LP_GESV:
        return cs_ok(
            named(s, "getrf_bufferSize"),
            PICK(getrf_bufferSize, s->h, g->op == TSL_LP_GESV ? n : m, n, a, lda, &s->lwork));
    case TSL_LP_POTRF:
    case TSL_LP_POSV:
        return cs_ok(named(s, "potrf_bufferSize"),
                     PICK(potrf_bufferSize, s->h, fill, n, a, lda, &s->lwork));
    case TSL_LP_GEQRF:
        return cs_ok(named(s, "geqrf_bufferSize"),
                     PICK(geqrf_bufferSize, s->h, m, n, a, lda, &s->lwork));
    case TSL_LP_ORMQR:
        return cs_ok(named(s, "ormqr_bufferSize"), PICK(ormqr_bufferSize, s->h, side, tr, m, n, k,
                                                        a, lda, tau, b, ldb, &s->lwork));
    case TSL_LP_GELS:
        return d ? cs_ok(named(s, "DDgels_bufferSize"),
                         cusolverDnDDgels_bufferSize(s->h, m, n, r, a, lda, b, ldb, x, ldb, NULL,
                                                     &s->lwork_bytes))
                 : cs_ok(named(s, "SSgels_bufferSize"),
                         cusolverDnSSgels_bufferSize(s->h, m, n, r, a, lda, b, ldb, x, ldb, NULL,
                                                     &s->lwork_bytes));
    case TSL_LP_DSGESV:
        return cs_ok(named(s, "DSgesv_bufferSize"),
                     cusolverDnDSgesv_bufferSize(s->h, n, r, a, lda, s->mem[M_IPIV], b, ldb, x, ldb,
                                                 NULL, &s->lwork_bytes));
    default:
        return 1; /* getrs, potrs: none */
    }
}

/* One run: the routine's calls, enqueued on the stream (the IRS calls wait for their end). */
static int cs_call(void *state)
{
    cs_session *s = state;
    const tsl_lapack_peer_args *g = s->g;
    int d = s->d, m = (int)g->m, n = (int)g->n, k = (int)g->k, r = (int)g->nrhs;
    int lda = (int)g->lda, ldb = (int)g->ldb, lw = s->lwork;
    void *a = s->mem[M_A], *b = s->mem[M_B], *x = s->mem[M_X], *w = s->mem[M_WORK];
    void *tau = s->mem[M_TAU];
    int *ip = s->mem[M_IPIV], *info = s->mem[M_INFO];
    cublasFillMode_t fill = g->uplo == TSL_LOWER ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    cublasOperation_t tr = g->trans == TSL_TRANS ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasSideMode_t side = g->side == TSL_LEFT ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
    switch (g->op) {
    case TSL_LP_GETRF:
        return cs_ok(named(s, "getrf"), PICK(getrf, s->h, m, n, a, lda, w, ip, info));
    case TSL_LP_GETRS:
        return cs_ok(named(s, "getrs"), PICK(getrs, s->h, tr, n, r, a, lda, ip, b, ldb, info));
    case TSL_LP_GESV:
        return cs_ok(named(s, "getrf"), PICK(getrf, s->h, n, n, a, lda, w, ip, info)) &&
               cs_ok(named(s, "getrs"),
                     PICK(getrs, s->h, CUBLAS_OP_N, n, r, a, lda, ip, b, ldb, info + 1));
    case TSL_LP_POTRF:
        return cs_ok(named(s, "potrf"), PICK(potrf, s->h, fill, n, a, lda, w, lw, info));
    case TSL_LP_POTRS:
        return cs_ok(named(s, "potrs"), PICK(potrs, s->h, fill, n, r, a, lda, b, ldb, info));
    case TSL_LP_POSV:
        return cs_ok(named(s, "potrf"), PICK(potrf, s->h, fill, n, a, lda, w, lw, info)) &&
               cs_ok(named(s, "potrs"), PICK(potrs, s->h, fill, n, r, a, lda, b, ldb, info + 1));
    case TSL_LP_GEQRF:
        return cs_ok(named(s, "geqrf"), PICK(geqrf, s->h, m, n, a, lda, tau, w, lw, info));
    case TSL_LP_ORMQR:
        return cs_ok(named(s, "ormqr"),
                     PICK(ormqr, s->h, side, tr, m, n, k, a, lda, tau, b, ldb, w, lw, info));
    case TSL_LP_GELS:
        return d ? cs_ok(named(s, "DDgels"), cusolverDnDDgels(s->h, m, n, r, a, lda, b, ldb, x, ldb,
                                                              w, s->lwork_bytes, &s->iter, info))
                 : cs_ok(named(s, "SSgels"), cusolverDnSSgels(s->h, m, n, r, a, lda, b, ldb, x, ldb,
                                                              w, s->lwork_bytes, &s->iter, info));
    default: /* dsgesv; dsposv never gets here (unsupported) */
        return cs_ok(named(s, "DSgesv"), cusolverDnDSgesv(s->h, n, r, a, lda, ip, b, ldb, x, ldb, w,
                                                          s->lwork_bytes, &s->iter, info));
    }
}

#undef PICK

/* Before each run, untimed: A and B from their pristine copies where the routine writes them. */
static int cs_reset(void *state)
{
    cs_session *s = state;
    const tsl_lapack_peer_args *g = s->g;
    return (!writes_a(g->op) ||
            tsl__cuda_ok(&s->cu,
                         cudaMemcpyAsync(s->mem[M_A], s->mem[M_A0], g->ea * s->es,
                                         cudaMemcpyDeviceToDevice, s->cu.stream),
                         "cudaMemcpyAsync (reset of A)")) &&
           (!has_b(g->op) || tsl__cuda_ok(&s->cu,
                                          cudaMemcpyAsync(s->mem[M_B], s->mem[M_B0], g->eb * s->es,
                                                          cudaMemcpyDeviceToDevice, s->cu.stream),
                                          "cudaMemcpyAsync (reset of B)"));
}

/* What the device text names: the routine's cuSOLVER calls and their arithmetic. */
static const char *what_of(const tsl_lapack_peer_args *g, int d)
{
    static const char *const names[2][TSL_LP_DSGESV + 1] = {
        {"Sgetrf", "Sgetrs", "Sgetrf + Sgetrs", "Spotrf", "Spotrs", "Spotrf + Spotrs", "Sgeqrf",
         "Sormqr", "SSgels (QR least squares in FP32)", "DSgesv"},
        {"Dgetrf", "Dgetrs", "Dgetrf + Dgetrs", "Dpotrf", "Dpotrs", "Dpotrf + Dpotrs", "Dgeqrf",
         "Dormqr", "DDgels (QR least squares in FP64)",
         "DSgesv (IRS: LU in FP32, refined to FP64)"}};
    return names[d][g->op];
}

/* The handle, bound to the stream, default math; the device text. */
static int cs_open(cs_session *s, double *setup_ms)
{
    double t0 = tsl__peer_now_ms();
    int version = 0;
    if (!tsl__cuda_open(&s->cu, s->g->ctx) || !cs_ok(named(s, "Create"), cusolverDnCreate(&s->h)) ||
        !cs_ok(named(s, "SetStream"), cusolverDnSetStream(s->h, s->cu.stream)))
        return 0;
#if defined(CUSOLVER_VER_MAJOR) && CUSOLVER_VER_MAJOR >= 12
    if (!cs_ok(named(s, "SetMathMode"), cusolverDnSetMathMode(s->h, CUSOLVER_DEFAULT_MATH)))
        return 0;
#endif
    snprintf(s->call, sizeof s->call, "cusolverGetVersion");
    if (!cs_ok(s, cusolverGetVersion(&version))) return 0;
    unsigned v = version > 0 ? (unsigned)version : 0u; /* 12004 for 12.0.4 */
    tsl_peer_result *res = s->cu.res;
    snprintf(res->device, sizeof res->device, "%.72s (CUDA %u, cuSOLVER %u.%u.%u, cusolverDn%s)",
             s->cu.prop.name, (unsigned)s->cu.dev % 100u, v / 1000u, v / 100u % 10u, v % 100u,
             what_of(s->g, s->d));
    *setup_ms = tsl__peer_now_ms() - t0;
    return 1;
}

static int cs_alloc(cs_session *s, int slot, size_t bytes)
{
    return tsl__cuda_ok(&s->cu, cudaMalloc(&s->mem[slot], bytes ? bytes : sizeof(double)),
                        "cudaMalloc");
}

static int cs_up(cs_session *s, int slot, const void *host, size_t bytes, const char *what,
                 double *ms)
{
    return tsl__cuda_copy(&s->cu, s->mem[slot], host, bytes, cudaMemcpyHostToDevice, what, ms);
}

static int cs_down(cs_session *s, void *host, int slot, size_t bytes, const char *what)
{
    return tsl__cuda_copy(&s->cu, host, s->mem[slot], bytes, cudaMemcpyDeviceToHost, what,
                          &s->cu.res->download_ms);
}

/* Device memory, the inputs (into the pristine copies where the routine writes the array: every
 * run starts with cs_reset) and the workspace. */
static int cs_stage(cs_session *s)
{
    const tsl_lapack_peer_args *g = s->g;
    tsl_lapack_peer_op op = g->op;
    size_t es = s->es, ab = g->ea * es, bb = g->eb * es, big = g->m > g->n ? g->m : g->n;
    size_t ntau = op == TSL_LP_ORMQR ? g->k : (g->m < g->n ? g->m : g->n);
    double *up = &s->cu.res->upload_ms;
    int wa = writes_a(op), hb = has_b(op);
    if (!cs_alloc(s, M_A, ab) || (wa && !cs_alloc(s, M_A0, ab)) || (hb && !cs_alloc(s, M_B, bb)) ||
        (hb && !cs_alloc(s, M_B0, bb)) || (has_x(op) && !cs_alloc(s, M_X, bb)) ||
        !cs_alloc(s, M_IPIV, (big + 1) * sizeof(int)) || !cs_alloc(s, M_TAU, (ntau + 1) * es) ||
        !cs_alloc(s, M_INFO, 2 * sizeof(int)) ||
        !cs_up(s, wa ? M_A0 : M_A, g->a, ab, "cudaMemcpyAsync (A)", up) ||
        (hb && !cs_up(s, M_B0, g->b, bb, "cudaMemcpyAsync (B)", up)) ||
        /* X's rows past n (gels) come back as B had them */
        (has_x(op) && !cs_up(s, M_X, g->b, bb, "cudaMemcpyAsync (X)", NULL)) ||
        (op == TSL_LP_GETRS &&
         !cs_up(s, M_IPIV, g->ipiv, g->n * sizeof(int), "cudaMemcpyAsync (pivots)", up)) ||
        (op == TSL_LP_ORMQR && !cs_up(s, M_TAU, g->tau, g->k * es, "cudaMemcpyAsync (tau)", up)) ||
        !tsl__cuda_ok(&s->cu, cudaMemsetAsync(s->mem[M_INFO], 0, 2 * sizeof(int), s->cu.stream),
                      "cudaMemsetAsync (info)"))
        return 0;
    if (!cs_workspace(s)) return 0;
    size_t wbytes = op == TSL_LP_GELS || op == TSL_LP_DSGESV
                        ? s->lwork_bytes
                        : (size_t)(s->lwork > 0 ? s->lwork : 0) * es;
    return cs_alloc(s, M_WORK, wbytes);
}

/* The last run's outputs into out, and its devInfo. */
static int cs_fetch(cs_session *s, tsl_lapack_peer_out *out)
{
    const tsl_lapack_peer_args *g = s->g;
    tsl_lapack_peer_op op = g->op;
    size_t es = s->es, kmin = g->m < g->n ? g->m : g->n;
    int info[2] = {0, 0};
    if (writes_a(op)) {
        if (!cs_down(s, out->a, M_A, g->ea * es, "cudaMemcpyAsync (A back)")) return 0;
    } else {
        memcpy(out->a, g->a, g->ea * es);
    }
    if (has_x(op) && !cs_down(s, op == TSL_LP_GELS ? out->b : out->x, M_X, g->eb * es,
                              "cudaMemcpyAsync (X back)"))
        return 0;
    if (op == TSL_LP_DSGESV && out->b) memcpy(out->b, g->b, g->eb * es);
    if (has_b(op) && !has_x(op) && !cs_down(s, out->b, M_B, g->eb * es, "cudaMemcpyAsync (B back)"))
        return 0;
    if (has_pivots(op) && op != TSL_LP_GETRS && out->ipiv &&
        !cs_down(s, out->ipiv, M_IPIV, (op == TSL_LP_GETRF ? kmin : g->n) * sizeof(int),
                 "cudaMemcpyAsync (pivots back)"))
        return 0;
    if (op == TSL_LP_GEQRF && out->tau &&
        !cs_down(s, out->tau, M_TAU, kmin * es, "cudaMemcpyAsync (tau back)"))
        return 0;
    if (!tsl__cuda_copy(&s->cu, info, s->mem[M_INFO], sizeof info, cudaMemcpyDeviceToHost,
                        "cudaMemcpyAsync (info back)", NULL))
        return 0;
    out->info = info[0] != 0 ? info[0] : info[1];
    out->iter = s->iter;
    return 1;
}

static void cs_close(cs_session *s)
{
    for (int i = 0; i < NMEM; ++i)
        if (s->mem[i]) cudaFree(s->mem[i]);
    if (s->h) cusolverDnDestroy(s->h);
    tsl__cuda_close(&s->cu);
}

void tsl__peer_cusolver_lapack(const tsl_lapack_peer_args *g, tsl_peer_result *res,
                               tsl_lapack_peer_out *out)
{
    reset_result(res);
    if (!args_ok(g, res, out)) return;
    const char *why = unsupported(g);
    if (why) {
        tsl__peer_set(res, TSL_PEER_SKIPPED, "%s", why);
        return;
    }
    cs_session s;
    memset(&s, 0, sizeof s);
    s.cu.res = res;
    s.g = g;
    s.d = g->is_double || g->op == TSL_LP_DSGESV;
    s.es = s.d ? sizeof(double) : sizeof(float);
    double setup_ms = 0.0;
    if (cs_open(&s, &setup_ms) && cs_stage(&s) &&
        tsl__cuda_runs(&s.cu, cs_reset, cs_call, &s, what_of(g, s.d), g->warmup, g->repeat,
                       setup_ms) &&
        cs_fetch(&s, out))
        res->status = TSL_PEER_OK;
    cs_close(&s);
}

#else /* built without cuSOLVER */

int tsl_peer_cusolver_built(void)
{
    return 0;
}

void tsl__peer_cusolver_lapack(const tsl_lapack_peer_args *g, tsl_peer_result *res,
                               tsl_lapack_peer_out *out)
{
    reset_result(res);
    if (!args_ok(g, res, out)) return;
    const char *why = unsupported(g);
    tsl__peer_set(res, TSL_PEER_SKIPPED, "%s",
                  why ? why
                      : "this tessel was built without cuSOLVER (install the CUDA toolkit and "
                        "reconfigure with cmake)");
}

#endif
