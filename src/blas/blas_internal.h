/* blas_internal.h: the inner interfaces of libtessel_blas.so, the drop-in BLAS (docs/dropin.md).
 *
 * The drop-in is a layer above libtessel's public API, beside the CLI: the BLAS and CBLAS ABI
 * come in (fortran_*.c, cblas_*.c), each call is checked as the reference BLAS checks it, then
 * routed (route.c) either to the device through tsl_* calls (device.c holds the contexts) or to a
 * CPU BLAS loaded at run time (cpu.c). It uses only include/tessel.h, never libtessel's internals,
 * so a program sees one libtessel whichever way it loads us.
 *
 * Every routine follows one shape:
 *
 *     static tsl__blas_stat st = TSL__BLAS_STAT("dgemm");
 *     ... reference argument checks, xerbla_ on the first bad one, quick returns ...
 *     tsl__blas_call call = {&st, TSL__BLAS_L3, 'd', flops, host_bytes, 0};
 *     tsl_context *ctx = tsl__blas_device_begin(&call);
 *     if (ctx) {
 *         tsl_status s = tsl_dgemm(ctx, ...);
 *         if (tsl__blas_device_end(&call, ctx, s)) return;  // done on the device, counted
 *     }                                                      // else: the CPU does the call
 *     double t0 = tsl__blas_clock();
 *     cpu_dgemm(...);                                        // via tsl__blas_cpu_sym
 *     tsl__blas_cpu_done(&call, t0);
 */
#ifndef TSL_BLAS_INTERNAL_H
#define TSL_BLAS_INTERNAL_H

#include <stddef.h>

#include "tessel.h"

/* Exported ABI symbols (dgemm_, cblas_dgemm, xerbla_, ...) carry this; everything else is hidden. */
#define TSL_BLAS_API __attribute__((visibility("default")))

/* LP64: a Fortran INTEGER is a C int (Debian's libblas.so.3 ABI). */
typedef int tsl__blas_int;

/* ---- per-routine statistics (stats.c): TESSEL_BLAS_VERBOSE=1 prints them at exit ---------- */
typedef struct tsl__blas_stat {
    const char *name;                /* "dgemm", "cblas_dgemm": the symbol without the trailing _ */
    struct tsl__blas_stat *next;     /* registered on first use (lock-free list) */
    int registered;                  /* atomic flag */
    unsigned long long calls[2];     /* [0] CPU, [1] device: atomic counters */
    unsigned long long nanos[2];     /* wall time per side, atomic */
    unsigned long long fallbacks;    /* device calls that failed and went to the CPU, atomic */
} tsl__blas_stat;
#define TSL__BLAS_STAT(name_) {(name_), NULL, 0, {0, 0}, {0, 0}, 0}

/* What kind of work a call is, for the cost model (route.c). */
typedef enum {
    TSL__BLAS_L3 = 0, /* GEMM-like compute: gemm, symm, syrk, syr2k, trmm, trsm */
    TSL__BLAS_L2 = 1, /* matrix-vector, memory-bound: gemv */
    TSL__BLAS_L1 = 2, /* vector, memory-bound: axpy, dot, nrm2 */
    TSL__BLAS_FACTOR = 3 /* a LAPACK factorization (getrf, potrf, and the solvers that run one) */
} tsl__blas_kind;

typedef struct tsl__blas_call {
    tsl__blas_stat *stat;
    tsl__blas_kind kind;
    char prec;         /* 's', 'd', 'c' (single complex) or 'z' (double complex) */
    double flops;      /* the routine's own flop count (docs/level3.md formulas) */
    double host_bytes; /* bytes a device call moves between host and device, in plus out */
    double t0;         /* set by tsl__blas_device_begin: when the device call began */
} tsl__blas_call;

/* Precisions: 's' and 'c' are single, 'd' and 'z' double; 'c' and 'z' are complex, every element
 * a (real, imaginary) pair. The cost model rates a complex call by its real precision's figures
 * (docs/dropin.md, "Complex GEMM"). */
static inline int tsl__blas_prec_double(char prec)
{
    return prec == 'd' || prec == 'z';
}
static inline int tsl__blas_prec_complex(char prec)
{
    return prec == 'c' || prec == 'z';
}

/* Monotonic seconds for the per-call times of the report: 0 unless TESSEL_BLAS_VERBOSE is on,
 * so a small call does not pay for reading the clock. */
double tsl__blas_clock(void);
/* Counts one call on the CPU that began at t0 (tsl__blas_clock). */
void tsl__blas_cpu_done(const tsl__blas_call *call, double t0);
/* Counts a call with its side (0 CPU, 1 device) and seconds; used by the two above and below. */
void tsl__blas_stat_add(tsl__blas_stat *st, int device, double seconds);

/* ---- routing and the device (route.c, device.c) -------------------------------------------
 * tsl__blas_device_begin decides where the call runs (TESSEL_BLAS_ROUTE, the cost model, the
 * per-routine config, whether a device exists and works in this process). When the device is
 * chosen it returns a context reserved for this thread until tsl__blas_device_end (other threads
 * wait or take the CPU); otherwise NULL and the caller runs the CPU BLAS. It never fails loudly:
 * no device, a failed context or a forked child all mean NULL.
 * tsl__blas_device_end releases the context and returns 1 when status is TSL_OK (the call is
 * counted on the device); on an error it prints one warning on stderr for the process (routine,
 * tsl status and message), marks the device unusable when the error is not the call's own, and
 * returns 0 so the caller does the call on the CPU. Arguments have been checked before, so
 * TSL_ERR_INVALID_ARG from libtessel is also reported (a drop-in bug) and handed to the CPU. */
tsl_context *tsl__blas_device_begin(tsl__blas_call *call);
int tsl__blas_device_end(tsl__blas_call *call, tsl_context *ctx, tsl_status status);
/* The same for a call split across every device of TESSEL_BLAS_DEVICES (a tsl_group, two devices
 * or more; GEMM only: tsl_group_sgemm/dgemm). Returns the group, every device reserved for this
 * thread until tsl__blas_group_end, when the route wants them all (auto: the cost model prefers
 * the split to one device and to the CPU; device: always for an L3 call); otherwise NULL, and
 * the caller tries tsl__blas_device_begin next. tsl__blas_group_end is tsl__blas_device_end's
 * twin (an error that is not the call's own gives up the group, not its devices). */
tsl_group *tsl__blas_group_begin(tsl__blas_call *call);
int tsl__blas_group_end(tsl__blas_call *call, tsl_group *g, tsl_status status);
/* Gives the device back unused (the call will not run there after all: its matrices do not fit
 * the device memory); nothing is counted or reported. */
void tsl__blas_device_cancel(tsl__blas_call *call, tsl_context *ctx);
/* Gives the group back unused (the call will not split after all: dispatch.c's memory check);
 * nothing is counted or reported. */
void tsl__blas_group_cancel(tsl__blas_call *call, tsl_group *g);

/* ---- the CPU BLAS (cpu.c) ------------------------------------------------------------------
 * The CPU BLAS is loaded on first use: TESSEL_BLAS_CPU if set, else OpenBLAS (libopenblas.so.0),
 * else the reference BLAS (Debian's blas/libblas.so.3). A candidate whose symbols turn out to be
 * our own (libtessel_blas installed as libblas.so.3 by update-alternatives, or named by
 * TESSEL_BLAS_CPU) is refused, so a call never comes back to us. tsl__blas_cpu_sym returns the
 * CPU BLAS's function of that symbol name ("dgemm_", "cblas_dgemm"); when there is no usable CPU
 * BLAS or it lacks the symbol it prints one error line on stderr naming the symbol and the
 * library and returns NULL (the caller then returns without computing: a BLAS has no status). */
void *tsl__blas_cpu_sym(const char *name);
/* The same without a word when the CPU BLAS lacks the symbol (an extension such as cgemm3m_,
 * whose caller then takes another). */
void *tsl__blas_cpu_sym_opt(const char *name);
/* "/usr/lib/x86_64-linux-gnu/libopenblas.so.0" or "" when none loaded yet. */
const char *tsl__blas_cpu_path(void);
/* The CPU LAPACK, loaded on first use for the LAPACK symbols the drop-in exports (dgetrf_, ...):
 * TESSEL_LAPACK_CPU if set, else the CPU BLAS when it has LAPACK (OpenBLAS does), else the
 * reference LAPACK (Debian's lapack/liblapack.so.3). Never ourselves (libtessel_blas installed as
 * liblapack.so.3). Its BLAS calls reach our symbols through the global scope, as a LAPACK linked
 * beside us would. Same error protocol as tsl__blas_cpu_sym. */
void *tsl__blas_lapack_sym(const char *name);
const char *tsl__blas_lapack_path(void);

/* ---- errors (xerbla.c) ---------------------------------------------------------------------
 * The reference protocol: a Fortran routine calls xerbla_(name, &info, len) with the 6-character
 * upper-case name ("DGEMM ") and the 1-based position of the bad argument. The call goes
 * through the global symbol so a program's own xerbla_ is the one that runs. The CBLAS layer
 * sets RowMajorStrg / CBLAS_CallFromC as the reference CBLAS does and calls cblas_xerbla. */
void tsl__blas_xerbla(const char *name, tsl__blas_int info);
extern TSL_BLAS_API int RowMajorStrg;
extern TSL_BLAS_API int CBLAS_CallFromC;

/* Fortran's lsame_: the case-insensitive comparison of one character. */
int tsl__blas_lsame(char a, char b);

#endif
