/* route.c: where each drop-in call runs (docs/dropin.md, "Routing"). A call arrives with its kind,
 * precision, flop count and the bytes a device call would move; tsl__blas_device_begin decides:
 * TESSEL_BLAS_ROUTE=cpu|device forces a side, a per-routine rule of TESSEL_BLAS_CONFIG may force
 * it for one routine, and auto (the default) first keeps every call under a size threshold on
 * the CPU without any other work (no context, no calibration: 100,000 tiny dgemm_ calls pay a
 * few comparisons each), then asks the cost model with the figures measured once per device
 * (calibrate.c). Before the devices are opened, auto asks the model with the hint of the last
 * process that opened them (calibrate.c): a call it keeps on the CPU opens nothing, since a
 * GPU driver's context and threads slow the CPU BLAS by several percent even when unused. The
 * model is a set of pure functions so its decisions are tested on synthetic
 * rates. The end of a device call counts it, or on an error warns, gives the device up when the
 * error was not the call's own, and hands the call to the CPU BLAS. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "blas/route.h"

/* ---- the cost model ------------------------------------------------------------------------ */

double tsl__blas_default_min_flops(tsl__blas_kind kind)
{
    /* L3: 2 * 128^3, below which no GPU beats a CPU BLAS once a launch and the transfers are
     * paid. L1/L2 stream their operands over the host link, which is rarely faster than the
     * CPU's own memory: only calls of 2^25 flops (a 4096^2 dgemv, 128 MB) are worth a look. A
     * factorization is a chain of a few launches per column: below an LU of order 1024
     * (2/3 1024^3 flops) the chain alone outlasts a CPU LAPACK. */
    if (kind == TSL__BLAS_L3) return 2.0 * 128 * 128 * 128;
    if (kind == TSL__BLAS_FACTOR) return 2.0 / 3.0 * 1024 * 1024 * 1024;
    return 33554432.0;
}

/* Flops per byte of device memory traffic of the memory-bound kinds: axpy moves 3 elements for
 * 2 flops, gemv one matrix element for 2. */
static double flops_per_byte(tsl__blas_kind kind, char prec)
{
    double e = tsl__blas_prec_double(prec) ? 8.0 : 4.0;
    return kind == TSL__BLAS_L2 ? 2.0 / e : 2.0 / (3.0 * e);
}

/* The rate at flops between two measured points (f[0], r[0]) and (f[1], r[1]), in log-log,
 * clamped outside them. */
static double interpolated(const double f[2], const double r[2], double flops)
{
    if (!(r[0] > 0) || !(r[1] > 0) || !(f[0] > 0) || !(f[1] > f[0])) return r[1] > 0 ? r[1] : 0;
    if (flops <= f[0]) return r[0];
    if (flops >= f[1]) return r[1];
    double t = (log(flops) - log(f[0])) / (log(f[1]) - log(f[0]));
    return exp(log(r[0]) + t * (log(r[1]) - log(r[0])));
}

/* The FACTOR kind's seconds a column: the larger of the two measured LUs' time beyond their
 * flops at the GEMM rate, over their order. */
static double factor_column_s(const tsl__blas_rates *r, int p)
{
    double worst = 0;
    for (int i = 0; i < 2; i++) {
        double f = r->lu_flops[p][i], rate = r->lu_rate[p][i];
        double g = interpolated(r->gemm_flops[p], r->gemm_rate[p], f);
        if (!(f > 0) || !(rate > 0) || !(g > 0)) return -1;
        double c = (f / rate - f / g) / cbrt(1.5 * f);
        if (c > worst) worst = c;
    }
    return worst;
}

double tsl__blas_device_rate(const tsl__blas_rates *r, tsl__blas_kind kind, char prec, double flops)
{
    int p = tsl__blas_prec_double(prec); /* a complex call at its real precision's rates */
    if (kind == TSL__BLAS_L3) return interpolated(r->gemm_flops[p], r->gemm_rate[p], flops);
    if (kind == TSL__BLAS_FACTOR) {
        double g = interpolated(r->gemm_flops[p], r->gemm_rate[p], flops),
               c = factor_column_s(r, p);
        if (!(g > 0) || c < 0 || !(flops > 0)) return 0;
        return flops / (cbrt(1.5 * flops) * c + flops / g);
    }
    return r->dev_bw > 0 ? r->dev_bw * flops_per_byte(kind, prec) : 0;
}

double tsl__blas_device_seconds(const tsl__blas_rates *r, int ndev, tsl__blas_kind kind, char prec,
                                double flops, double host_bytes)
{
    if (ndev < 1) ndev = 1;
    double rate = tsl__blas_device_rate(r, kind, prec, flops / ndev);
    if (!(rate > 0) || !(r->link_bw > 0) || !(r->overhead_s >= 0)) return INFINITY;
    /* The rows split across devices, but each link still carries B whole: the bytes are not
     * divided (an upper bound, which keeps the model on the safe side). */
    return r->overhead_s + flops / (rate * ndev) + host_bytes / r->link_bw;
}

double tsl__blas_cpu_seconds(const tsl__blas_rates *r, tsl__blas_kind kind, char prec, double flops,
                             double host_bytes)
{
    int p = tsl__blas_prec_double(prec);
    double rate = kind == TSL__BLAS_FACTOR ? r->cpu_lu_rate[p] : r->cpu_gemm_rate[p];
    double compute = rate > 0 ? flops / rate : 0;
    double memory = r->cpu_bw > 0 ? host_bytes / r->cpu_bw : 0;
    return compute > memory ? compute : memory;
}

int tsl__blas_cost_choose(const tsl__blas_rates *r, int ndev, tsl__blas_kind kind, char prec,
                          double flops, double host_bytes)
{
    double cpu = tsl__blas_cpu_seconds(r, kind, prec, flops, host_bytes);
    double one = tsl__blas_device_seconds(r, 1, kind, prec, flops, host_bytes);
    double all = ndev >= 2 && kind == TSL__BLAS_L3
                     ? tsl__blas_device_seconds(r, ndev, kind, prec, flops, host_bytes)
                     : INFINITY;
    if (!(cpu > 0)) return 0; /* the CPU was not measured: never bet against it */
    if (all < one && all < cpu) return 2;
    return one < cpu ? 1 : 0;
}

/* ---- the environment, read once -------------------------------------------------------------- */

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_mode;
static int g_have_rules;
/* TESSEL_BLAS_FAULT=ROUTINE:STATUS (test hook, docs/dropin.md): a device call of ROUTINE ("*":
 * any) fails with STATUS before it starts, through the same path as a real failure. */
static char g_fault_routine[32];
static tsl_status g_fault_status;

static const char *strip_cblas(const char *name)
{
    return strncmp(name, "cblas_", 6) == 0 ? name + 6 : name;
}

static void parse_fault(const char *v)
{
    static const struct {
        const char *name;
        tsl_status s;
    } names[] = {{"invalid_arg", TSL_ERR_INVALID_ARG},
                 {"no_device", TSL_ERR_NO_DEVICE},
                 {"out_of_memory", TSL_ERR_OUT_OF_MEMORY},
                 {"build", TSL_ERR_BUILD},
                 {"opencl", TSL_ERR_OPENCL},
                 {"unsupported", TSL_ERR_UNSUPPORTED},
                 {"io", TSL_ERR_IO}};
    const char *colon = v ? strchr(v, ':') : NULL;
    if (!colon || colon == v || (size_t)(colon - v) >= sizeof g_fault_routine) goto bad;
    const char *st = colon + 1;
    if (strncasecmp(st, "TSL_ERR_", 8) == 0) st += 8;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcasecmp(st, names[i].name) == 0) {
            memcpy(g_fault_routine, v, (size_t)(colon - v));
            g_fault_routine[colon - v] = '\0';
            g_fault_status = names[i].s;
            return;
        }
bad:
    fprintf(stderr, "tessel-blas: warning: TESSEL_BLAS_FAULT=%s is not ROUTINE:STATUS; ignored\n",
            v ? v : "");
}

static void init(void)
{
    const char *r = getenv("TESSEL_BLAS_ROUTE");
    g_mode = TSL__ROUTE_AUTO;
    if (r && *r) {
        int m = tsl__blas_route_parse(r);
        if (m < 0)
            fprintf(stderr,
                    "tessel-blas: warning: TESSEL_BLAS_ROUTE=%s is not auto, device or cpu; "
                    "using auto\n",
                    r);
        else
            g_mode = m;
    }
    tsl__blas_math(); /* read at the first call, with the others, though only a device uses it */
    const char *cfg = getenv("TESSEL_BLAS_CONFIG");
    if (cfg && *cfg) tsl__blas_config_load(cfg);
    g_have_rules = tsl__blas_config_count() > 0;
    const char *fault = getenv("TESSEL_BLAS_FAULT");
    if (fault && *fault) parse_fault(fault);
    tsl__blas_devices_atfork();
}

/* The route of this call: the global mode, or the routine's own rule; *min_flops the size
 * under which auto keeps it on the CPU. */
static int call_route(const tsl__blas_call *call, double *min_flops)
{
    pthread_once(&g_once, init);
    *min_flops = tsl__blas_default_min_flops(call->kind);
    if (!g_have_rules) return g_mode;
    tsl__blas_rule rule = tsl__blas_config_rule(call->stat->name);
    if (rule.min_flops >= 0) *min_flops = rule.min_flops;
    return rule.route >= 0 ? rule.route : g_mode;
}

/* ---- errors ------------------------------------------------------------------------------ */

static atomic_int g_warned_call, g_warned_device;

/* One warning per process for errors that were the call's own, and one more the first time a
 * device is given up (the user must learn that the device is no longer used). */
static void device_failed(const tsl__blas_call *call, tsl_status s, const char *msg, int own)
{
    atomic_int *flag = own ? &g_warned_call : &g_warned_device;
    if (atomic_exchange(flag, 1) == 0)
        fprintf(stderr,
                "tessel-blas: warning: %s on the device failed (%s: %s); the CPU BLAS does "
                "it%s\n",
                call->stat->name, tsl_status_name(s), msg && *msg ? msg : "no message",
                own ? "" : ", and every later call: this process no longer uses the device");
    atomic_fetch_add((_Atomic unsigned long long *)&call->stat->fallbacks, 1ull);
}

/* Arguments were checked before the call, so an invalid argument is a drop-in bug and
 * unsupported is a limit of that one call; anything else (OpenCL, memory, a build) may hit
 * the next call too. */
static int own_error(tsl_status s)
{
    return s == TSL_ERR_INVALID_ARG || s == TSL_ERR_UNSUPPORTED;
}

static int fault_hits(const tsl__blas_call *call)
{
    if (!g_fault_routine[0]) return 0;
    return strcmp(g_fault_routine, "*") == 0 ||
           strcmp(g_fault_routine, strip_cblas(call->stat->name)) == 0;
}

/* ---- the calibration of a slot (held by this thread) -------------------------------------- */

static void save_hint(const tsl__blas_slot *s);

/* The figures are FP32's whatever TESSEL_BLAS_MATH says (the context computes in FP32 while it
 * measures): the single-precision Level-3 routines other than sgemm and the factorizations run in
 * FP32, and sgemm in a tensor-core mode, faster than FP32 on a GPU that has the instruction, is
 * then costed on the side of the CPU, as the model errs everywhere. So one file serves every
 * mode. */
static tsl_status calibrate_fp32(tsl__blas_slot *s, char *msg, size_t cap)
{
    int math = tsl__blas_math();
    if (math != TSL_MATH_FP32) tsl_context_set_option(s->ctx, "gemm", "math", TSL_MATH_FP32);
    tsl_status st = tsl__blas_calibrate(s->ctx, &s->rates, &s->calib_cached, msg, cap);
    if (math != TSL_MATH_FP32) tsl_context_set_option(s->ctx, "gemm", "math", math);
    return st;
}

static int slot_rates(tsl__blas_slot *s)
{
    if (atomic_load_explicit(&s->calib, memory_order_relaxed) == 0) {
        char msg[256] = "";
        double t0 = tsl__blas_now();
        tsl_status st = calibrate_fp32(s, msg, sizeof msg);
        s->calib_s = tsl__blas_now() - t0;
        /* released after the figures: group_begin reads them without holding the slot */
        atomic_store_explicit(&s->calib, st == TSL_OK ? 1 : -1, memory_order_release);
        if (st == TSL_OK) save_hint(s);
        if (st != TSL_OK)
            fprintf(stderr,
                    "tessel-blas: warning: calibrating %s failed (%s: %s); auto does not "
                    "use it\n",
                    s->info.name, tsl_status_name(st), msg);
    }
    return atomic_load_explicit(&s->calib, memory_order_relaxed) == 1;
}

/* ---- the hint, before any device is opened --------------------------------------------------- */

static pthread_once_t g_hint_once = PTHREAD_ONCE_INIT;
static int g_hint_valid;
static tsl__blas_hint g_hint;
static atomic_int g_hint_used;  /* a call was kept on the CPU by the hint alone */
static atomic_int g_hint_saved; /* this process wrote the hint once */

static int recalibrate(void)
{
    const char *again = getenv("TESSEL_BLAS_RECALIBRATE");
    return again && *again && strcmp(again, "0") != 0;
}

static void load_hint(void)
{
    char key[1024], path[1200];
    if (recalibrate()) return; /* measure afresh: no figure of an earlier run decides */
    tsl__blas_hint_key(key, sizeof key);
    g_hint_valid = tsl__blas_hint_path(key, path, sizeof path) == 0 &&
                   tsl__blas_hint_read(path, key, &g_hint) == 0;
}

/* 1 when the devices are not opened yet and the hint's figures put this call on the CPU (on one
 * device and split alike): it then stays there without opening anything. Once a device is
 * open, its own calibration decides. */
static int hint_keeps_cpu(const tsl__blas_call *call)
{
    if (tsl__blas_devices_opened()) return 0;
    pthread_once(&g_hint_once, load_hint);
    if (!g_hint_valid || tsl__blas_cost_choose(&g_hint.rates, g_hint.ndev, call->kind, call->prec,
                                               call->flops, call->host_bytes) != 0)
        return 0;
    atomic_store_explicit(&g_hint_used, 1, memory_order_relaxed);
    return 1;
}

int tsl__blas_hint_kept(void)
{
    return atomic_load(&g_hint_used);
}

/* After a slot's calibration: the next process learns these figures without opening it. */
static void save_hint(const tsl__blas_slot *s)
{
    if (atomic_exchange(&g_hint_saved, 1) == 0)
        tsl__blas_hint_save(s->info.name, tsl__blas_devices_known(), &s->rates);
}

/* ---- one device ------------------------------------------------------------------------------ */

tsl_context *tsl__blas_device_begin(tsl__blas_call *call)
{
    double min_flops;
    int route = call_route(call, &min_flops);
    if (route == TSL__ROUTE_CPU) return NULL;
    if (route == TSL__ROUTE_AUTO && call->flops < min_flops) return NULL;
    if (tsl__blas_forked()) return NULL;
    if (route == TSL__ROUTE_AUTO && hint_keeps_cpu(call)) return NULL;
    if (tsl__blas_devices_ready() == 0) return NULL;
    int automatic = route == TSL__ROUTE_AUTO;
    tsl__blas_slot *s = tsl__blas_slot_acquire(call->prec, !automatic);
    if (!s) return NULL;
    if (automatic &&
        (!slot_rates(s) || tsl__blas_cost_choose(&s->rates, 1, call->kind, call->prec, call->flops,
                                                 call->host_bytes) != 1)) {
        tsl__blas_slot_release(s);
        return NULL;
    }
    if (fault_hits(call)) {
        device_failed(call, g_fault_status, "injected by TESSEL_BLAS_FAULT",
                      own_error(g_fault_status));
        if (!own_error(g_fault_status)) tsl__blas_slot_disable(s);
        tsl__blas_slot_release(s);
        return NULL;
    }
    call->t0 = tsl__blas_now();
    return s->ctx;
}

int tsl__blas_device_end(tsl__blas_call *call, tsl_context *ctx, tsl_status status)
{
    tsl__blas_slot *s = tsl__blas_slot_of(ctx);
    if (status == TSL_OK) {
        tsl__blas_stat_add(call->stat, 1, tsl__blas_now() - call->t0);
        tsl__blas_slot_release(s);
        return 1;
    }
    int own = own_error(status);
    device_failed(call, status, tsl_context_error(ctx), own); /* before another thread uses ctx */
    if (!own && s) tsl__blas_slot_disable(s);
    tsl__blas_slot_release(s);
    return 0;
}

void tsl__blas_device_cancel(tsl__blas_call *call, tsl_context *ctx)
{
    (void)call;
    tsl__blas_slot_release(tsl__blas_slot_of(ctx));
}

/* ---- every device at once ----------------------------------------------------------------------
 */

static atomic_int g_group_unusable;

tsl_group *tsl__blas_group_begin(tsl__blas_call *call)
{
    double min_flops;
    int route = call_route(call, &min_flops);
    if (route == TSL__ROUTE_CPU || call->kind != TSL__BLAS_L3) return NULL;
    if (route == TSL__ROUTE_AUTO && call->flops < min_flops) return NULL;
    if (tsl__blas_forked() || atomic_load(&g_group_unusable)) return NULL;
    if (route == TSL__ROUTE_AUTO && hint_keeps_cpu(call)) return NULL;
    if (tsl__blas_devices_ready() < 2) return NULL;
    tsl_group *g = tsl__blas_devices_group();
    int n = tsl__blas_devices_ready();
    for (int i = 0; i < n; i++) {
        const tsl__blas_slot *s = tsl__blas_slot_at(i);
        if (tsl__blas_prec_double(call->prec) && !s->info.fp64) return NULL;
        if (route == TSL__ROUTE_AUTO && s->is_cpu) return NULL; /* it would share our cores */
    }
    /* Decided before waiting for every device, so calls that will not split never hold back the
     * others. The devices of a group are alike (all:gpu): the first one's figures stand for all;
     * until a single call has calibrated it, calls do not split. */
    if (route == TSL__ROUTE_AUTO) {
        const tsl__blas_slot *first = tsl__blas_slot_at(0);
        if (atomic_load_explicit(&first->calib, memory_order_acquire) != 1 ||
            tsl__blas_cost_choose(&first->rates, n, call->kind, call->prec, call->flops,
                                  call->host_bytes) != 2)
            return NULL;
    }
    if (!g || !tsl__blas_slots_acquire_all()) return NULL;
    if (fault_hits(call)) {
        device_failed(call, g_fault_status, "injected by TESSEL_BLAS_FAULT",
                      own_error(g_fault_status));
        if (!own_error(g_fault_status)) atomic_store(&g_group_unusable, 1);
        tsl__blas_slots_release_all();
        return NULL;
    }
    call->t0 = tsl__blas_now();
    return g;
}

int tsl__blas_group_end(tsl__blas_call *call, tsl_group *g, tsl_status status)
{
    if (status == TSL_OK) {
        tsl__blas_stat_add(call->stat, 1, tsl__blas_now() - call->t0);
        tsl__blas_slots_release_all();
        return 1;
    }
    int own = own_error(status);
    device_failed(call, status, tsl_group_error(g), own);
    /* Only the group is given up: its devices may still serve calls one at a time. */
    if (!own) atomic_store(&g_group_unusable, 1);
    tsl__blas_slots_release_all();
    return 0;
}

void tsl__blas_group_cancel(tsl__blas_call *call, tsl_group *g)
{
    (void)call;
    (void)g;
    tsl__blas_slots_release_all();
}

/* ---- TESSEL_BLAS_VERBOSE's header --------------------------------------------------------------
 */

static void app(char *buf, size_t cap, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void app(char *buf, size_t cap, size_t *at, const char *fmt, ...)
{
    if (*at >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *at, cap - *at, fmt, ap);
    va_end(ap);
    if (w > 0) *at += (size_t)w;
}

static void app_rates(char *buf, size_t cap, size_t *at, const tsl__blas_slot *s)
{
    const tsl__blas_rates *r = &s->rates;
    app(buf, cap, at,
        "overhead %.1f us, sgemm %.0f/%.0f GFLOP/s, dgemm %.0f/%.0f GFLOP/s (n=%.0f/%.0f), "
        "device memory %.1f GB/s, host-device %.2f GB/s, CPU sgemm %.1f GFLOP/s, dgemm %.1f "
        "GFLOP/s, memory %.2f GB/s",
        r->overhead_s * 1e6, r->gemm_rate[0][0] * 1e-9, r->gemm_rate[0][1] * 1e-9,
        r->gemm_rate[1][0] * 1e-9, r->gemm_rate[1][1] * 1e-9, cbrt(r->gemm_flops[0][0] / 2),
        cbrt(r->gemm_flops[0][1] / 2), r->dev_bw * 1e-9, r->link_bw * 1e-9,
        r->cpu_gemm_rate[0] * 1e-9, r->cpu_gemm_rate[1] * 1e-9, r->cpu_bw * 1e-9);
    if (s->calib_cached)
        app(buf, cap, at, " (cached)");
    else
        app(buf, cap, at, " (measured in %.2f s)", s->calib_s);
}

void tsl__blas_describe(char *buf, size_t cap)
{
    pthread_once(&g_once, init);
    size_t at = 0;
    buf[0] = '\0';
    app(buf, cap, &at, "pid %ld, route %s, sgemm math %s", (long)getpid(),
        tsl__blas_route_name(g_mode), tsl__blas_math_name(tsl__blas_math()));
    int n = tsl__blas_forked() ? 0 : tsl__blas_devices_known();
    if (tsl__blas_forked())
        app(buf, cap, &at, "; forked child: no device");
    else if (n == 0 && !tsl__blas_devices_opened() && tsl__blas_hint_kept())
        app(buf, cap, &at,
            "; device not opened: the calibration of %s (cached) keeps these calls on the CPU",
            g_hint.name);
    else if (n == 0)
        app(buf, cap, &at, "; no device opened");
    for (int i = 0; i < n; i++) {
        const tsl__blas_slot *s = tsl__blas_slot_at(i);
        app(buf, cap, &at, "; device %d \"%s\" (%s, driver %s%s%s): ", i, s->info.name,
            s->info.type, s->info.driver_version, s->usable ? "" : ", given up",
            s->is_cpu ? ", not used by auto" : "");
        int calib = atomic_load_explicit(&s->calib, memory_order_acquire);
        if (calib == 1)
            app_rates(buf, cap, &at, s);
        else
            app(buf, cap, &at, calib < 0 ? "calibration failed" : "not calibrated");
    }
    const char *cpu = tsl__blas_cpu_path();
    app(buf, cap, &at, "; CPU BLAS %s (%d threads)", *cpu ? cpu : "none", tsl__blas_cpu_threads());
}

/* ---- TESSEL_BLAS_VERBOSE's report at exit ---------------------------------------------------- */

static void print_at_exit(void)
{
    char header[4096];
    tsl__blas_describe(header, sizeof header);
    tsl__blas_stats_print(stderr, header);
}

__attribute__((constructor)) static void verbose_init(void)
{
    const char *v = getenv("TESSEL_BLAS_VERBOSE");
    if (v && *v && strcmp(v, "0") != 0) {
        tsl__blas_stats_timing(1);
        atexit(print_at_exit);
    }
}
