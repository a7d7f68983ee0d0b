/* route.h: the inner interfaces of the drop-in's routing (docs/dropin.md, "Routing"), shared by
 * route.c (the per-call decision), device.c (the contexts and who may use them), calibrate.c
 * (the measured rates and their cache file), config.c (per-routine rules) and the tests of them.
 * Nothing here is seen by the BLAS symbols: they use tsl__blas_device_begin/end and
 * tsl__blas_group_begin/end of blas_internal.h only. */
#ifndef TSL_BLAS_ROUTE_H
#define TSL_BLAS_ROUTE_H

#include <stdatomic.h>
#include <stddef.h>

#include "blas/blas_internal.h"

/* Monotonic seconds, always (tsl__blas_clock reads 0 without TESSEL_BLAS_VERBOSE). */
double tsl__blas_now(void);

/* ---- modes ------------------------------------------------------------------------------- */
typedef enum { TSL__ROUTE_AUTO = 0, TSL__ROUTE_DEVICE = 1, TSL__ROUTE_CPU = 2 } tsl__route_mode;

/* "auto", "device", "cpu" -> 0, 1, 2; anything else -1 (config.c, as the rules read them too). */
int tsl__blas_route_parse(const char *s);
const char *tsl__blas_route_name(int mode);
/* "fp32", "tf32", "3xtf32" (any case) -> TSL_MATH_FP32, _TF32, _3XTF32; anything else -1; and
 * back (config.c). */
int tsl__blas_math_parse(const char *s);
const char *tsl__blas_math_name(int math);
/* TESSEL_BLAS_MATH, read once (config.c; route.c asks at the first call, so a bad value's one
 * warning comes then): the math mode every device context of the drop-in gets (device.c sets the
 * option "math" of "gemm" when it opens one), so sgemm_ and cblas_sgemm compute in it on the
 * device. TSL_MATH_FP32 when unset or bad. */
int tsl__blas_math(void);

/* ---- the cost model (route.c): pure functions of measured figures ------------------------
 * Device seconds = overhead + flops / device rate(kind, prec, flops) + host_bytes / link_bw.
 * CPU seconds    = max(flops / CPU gemm rate(prec), host_bytes / CPU memory bandwidth).
 * The device's GEMM rate was measured at two sizes per precision and is interpolated in
 * log-log between them (clamped outside), since a GPU is far from its peak on mid-sized calls.
 * Memory-bound kinds (L1, L2) run at the device's memory bandwidth times the kind's flops per
 * byte. A factorization (FACTOR) of order n takes n column steps of a fixed latency (its panels'
 * chain of small launches, which keeps a GPU far below its GEMM rate on a mid-sized matrix) plus
 * its flops at the GEMM rate; the latency is fitted to the two measured LUs (the larger of the
 * two fits) and n is read from the flops as an LU's (n^3 = 1.5 flops: a Cholesky's n comes out
 * 26% large, which errs toward the CPU). On the CPU a factorization runs at the CPU LAPACK's LU
 * rate. A figure <= 0 (not measured) makes the device lose. A complex call ('c', 'z') is rated
 * by its real precision's figures ('s', 'd'): its flops are the real ones (8 m n k for a GEMM,
 * which libtessel runs as one real GEMM of that many flops, docs/gemm.md) and its bytes are the
 * complex operands' (twice the real ones'). */
typedef struct {
    double overhead_s;       /* seconds a tiny device call costs, transfers included */
    double gemm_flops[2][2]; /* [prec 0 s and c, 1 d and z][i]: flops of the two measured GEMMs */
    double gemm_rate[2][2];  /* the device's flop/s on them, operands on the device */
    double lu_flops[2][2];   /* [prec][i]: flops of the two measured LU factorizations */
    double lu_rate[2][2];    /* the device's flop/s on them (tsl_[sd]getrf_buf), panels and
                              * launches included: what the FACTOR kind's model is fitted to */
    double dev_bw;           /* device memory, bytes/s (read + written) */
    double link_bw;          /* host <-> device from pageable memory, bytes/s */
    double cpu_gemm_rate[2]; /* the CPU BLAS's sgemm_/dgemm_, flop/s */
    double cpu_lu_rate[2];   /* the CPU LAPACK's sgetrf_/dgetrf_, flop/s (its GEMM rate where the
                              * CPU LAPACK is not the CPU BLAS's own library) */
    double cpu_bw;           /* the CPU BLAS's daxpy_, bytes/s (read + written) */
} tsl__blas_rates;

/* Flop/s the device reaches on a call of this kind, precision ('s', 'd', 'c', 'z') and size. */
double tsl__blas_device_rate(const tsl__blas_rates *r, tsl__blas_kind kind, char prec,
                             double flops);
/* Seconds of the call on ndev alike devices (ndev >= 1: the flops split, the bytes not). */
double tsl__blas_device_seconds(const tsl__blas_rates *r, int ndev, tsl__blas_kind kind, char prec,
                                double flops, double host_bytes);
double tsl__blas_cpu_seconds(const tsl__blas_rates *r, tsl__blas_kind kind, char prec, double flops,
                             double host_bytes);
/* Where a call is fastest: 0 the CPU, 1 one device, 2 all ndev devices (ndev >= 2, L3 only). */
int tsl__blas_cost_choose(const tsl__blas_rates *r, int ndev, tsl__blas_kind kind, char prec,
                          double flops, double host_bytes);

/* Below this many flops auto sends a call of this kind to the CPU without asking the model,
 * so small calls never create a context or calibrate (2 * 128^3 for L3). */
double tsl__blas_default_min_flops(tsl__blas_kind kind);

/* ---- per-routine rules (config.c), from TESSEL_BLAS_CONFIG -------------------------------- */
typedef struct {
    int route;        /* -1: no rule; else a tsl__route_mode */
    double min_flops; /* < 0: no rule */
} tsl__blas_rule;

/* Parses the config text (name for messages); rules replace the current ones. Each bad line
 * prints one warning "tessel-blas: warning: NAME:LINE: why; line ignored". Returns the number
 * of bad lines. */
int tsl__blas_config_parse(const char *text, const char *name);
/* Reads and parses path; an unreadable file is one warning. */
void tsl__blas_config_load(const char *path);
/* The rule for routine (a stat name: "dgemm", "cblas_dgemm"; a rule for "dgemm" covers both):
 * its own fields first, then those of the rule "*". */
tsl__blas_rule tsl__blas_config_rule(const char *routine);
size_t tsl__blas_config_count(void);

/* ---- calibration (calibrate.c) ------------------------------------------------------------ */
typedef struct {
    size_t gemm_n[2];      /* the two square GEMM sizes */
    size_t link_bytes;     /* bytes of the transfer test */
    size_t cpu_gemm_max_n; /* the CPU GEMM grows from 128 to this until it takes 50 ms */
    size_t cpu_axpy_n;     /* elements of the daxpy_ test */
} tsl__blas_calib_sizes;

/* The sizes a real calibration uses on this device (they fit its memory). */
tsl__blas_calib_sizes tsl__blas_calib_default_sizes(const tsl_device_info *info);

/* The cache key: device name, driver, CPU BLAS path, CPU BLAS threads. */
void tsl__blas_calib_key(const tsl_device_info *info, char *key, size_t cap);
/* The cache directory (TESSEL_CACHE_DIR, else $XDG_CACHE_HOME/tessel, else ~/.cache/tessel),
 * created; 0 on success, -1 when there is none usable. */
int tsl__blas_cache_dir(char *dir, size_t cap);
/* The file that keeps the calibration of key (in dir). */
int tsl__blas_calib_path(const char *key, char *path, size_t cap);
/* 0 and *r filled when path holds a valid calibration of key; -1 otherwise. */
int tsl__blas_calib_read(const char *path, const char *key, tsl__blas_rates *r);
/* Writes atomically (temporary + rename); 0 on success. */
int tsl__blas_calib_write(const char *path, const char *key, const tsl__blas_rates *r);
/* The hint (docs/dropin.md, "Calibration"): the figures of the device a spec opened last time,
 * keyed by what is known before opening one, so auto can keep calls on the CPU without opening
 * it. A second file beside the calibration, written after each calibration. */
typedef struct {
    char name[128];        /* the device's name, for the report */
    int ndev;              /* how many devices the spec opened (1..TSL__BLAS_MAX_DEVICES) */
    tsl__blas_rates rates; /* its calibration, as the per-device file had it */
} tsl__blas_hint;
/* spec (TESSEL_BLAS_DEVICES, else TESSEL_DEVICE, else ""), CPU BLAS path, CPU BLAS threads. */
void tsl__blas_hint_key(char *key, size_t cap);
int tsl__blas_hint_path(const char *key, char *path, size_t cap);
/* 0 and *h filled when path holds a valid hint of key; -1 otherwise. */
int tsl__blas_hint_read(const char *path, const char *key, tsl__blas_hint *h);
int tsl__blas_hint_write(const char *path, const char *key, const tsl__blas_hint *h);
/* Writes the hint of this process's key (atomically); 0 on success. */
int tsl__blas_hint_save(const char *name, int ndev, const tsl__blas_rates *r);
/* Measures *r on ctx (which this thread holds) with these sizes; TSL_OK or the failing call's
 * status, with a message in msg. */
tsl_status tsl__blas_calib_measure(tsl_context *ctx, const tsl__blas_calib_sizes *sz,
                                   tsl__blas_rates *r, char *msg, size_t cap);
/* The cached figures for ctx's device, else measured and cached. *cached tells which. */
tsl_status tsl__blas_calibrate(tsl_context *ctx, tsl__blas_rates *r, int *cached, char *msg,
                               size_t cap);
/* The CPU BLAS's thread count (openblas_get_num_threads, else OPENBLAS/OMP_NUM_THREADS, else
 * the online cores). */
int tsl__blas_cpu_threads(void);

/* ---- the devices (device.c) --------------------------------------------------------------- */
#define TSL__BLAS_MAX_DEVICES 16

typedef struct {
    tsl_context *ctx; /* owned by us, or by the group */
    tsl_device_info info;
    int is_cpu;       /* an OpenCL CPU device (PoCL): never used in auto mode */
    int usable;       /* 0 after an error that was not a call's own */
    int busy;         /* a thread holds it (under the pool lock) */
    atomic_int calib; /* 0 not tried, 1 rates valid, -1 failed (auto never uses it); set by the
                       * slot's holder after the rates */
    int calib_cached; /* the rates came from the cache file */
    double calib_s;   /* seconds the measurement took */
    tsl__blas_rates rates;
} tsl__blas_slot;

/* Creates the contexts (TESSEL_BLAS_DEVICES) on the first call; returns how many there are
 * (0: none; a warning was printed once). Never in a forked child. */
int tsl__blas_devices_ready(void);
/* How many devices are open now, without opening any. */
int tsl__blas_devices_known(void);
/* 1 once the devices were opened (even when none was found). */
int tsl__blas_devices_opened(void);
tsl__blas_slot *tsl__blas_slot_at(int i);
tsl_group *tsl__blas_devices_group(void); /* NULL unless several devices */
/* Waits for a usable slot whose device can do prec ('d' and 'z' need fp64) and is not a CPU device
 * (unless allow_cpu), marks it busy; NULL when no slot qualifies. */
tsl__blas_slot *tsl__blas_slot_acquire(char prec, int allow_cpu);
void tsl__blas_slot_release(tsl__blas_slot *s);
/* Waits until every slot is free, then holds them all (a group call); 0 when one is unusable. */
int tsl__blas_slots_acquire_all(void);
void tsl__blas_slots_release_all(void);
tsl__blas_slot *tsl__blas_slot_of(const tsl_context *ctx);
/* Marks s (NULL: every slot) unusable for the process. */
void tsl__blas_slot_disable(tsl__blas_slot *s);
/* 1 in a child forked after the library ran (pthread_atfork): it never touches the devices. */
int tsl__blas_forked(void);
/* Registers the fork handlers (once). */
void tsl__blas_devices_atfork(void);

/* ---- what TESSEL_BLAS_VERBOSE's header says (route.c) -------------------------------------- */
void tsl__blas_describe(char *buf, size_t cap);
/* 1 when auto kept a call on the CPU by the hint, without opening a device (route.c). */
int tsl__blas_hint_kept(void);
/* The per-routine table (stats.c) into file (a FILE *), after the header line describe wrote. */
void tsl__blas_stats_print(void *file, const char *header);
/* Whether the per-call clock runs (stats.c; TESSEL_BLAS_VERBOSE turns it on before any call). */
void tsl__blas_stats_timing(int on);

#endif
