/* device.c: the drop-in's devices and who may use them (docs/dropin.md, "Threads", "fork").
 * The contexts are opened on the first call that may run on a device (never for a program that
 * only makes small calls): one context for one spec of TESSEL_BLAS_DEVICES (or the default
 * device), a tsl_group for several, whose per-device contexts then serve single-device calls.
 * A context is used by one thread at a time (libtessel's rule): each is a slot that a thread
 * holds from tsl__blas_device_begin to _end, and a group call holds them all. Every wait is on
 * one condition variable under one pool lock that no thread keeps across a device call, so a
 * slot is always given back and nothing can deadlock. A child forked after the parent began to
 * open its devices never touches them (their OpenCL state belongs to the parent's driver
 * threads): the fork handlers leave the pool lock released and route the child's calls to the
 * CPU. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blas/route.h"

/* g_open_lock is held while the devices are opened, which calls into the OpenCL driver (and a
 * driver may fork a helper from that thread); g_pool_lock only around bookkeeping, never across a
 * call out. The two are never held together. */
static pthread_mutex_t g_open_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_pool_cond = PTHREAD_COND_INITIALIZER;

static atomic_int g_state;   /* 0 not opened, 1 opened (g_count may be 0), set under g_open_lock */
static atomic_int g_opening; /* set before g_open_lock is first taken: OpenCL state may exist */
static int g_count;          /* slots; written once before g_state becomes 1 */
static tsl__blas_slot g_slots[TSL__BLAS_MAX_DEVICES];
static tsl_group *g_group;
static int g_group_waiting; /* group calls waiting for every slot: singles hold back meanwhile */
static atomic_int g_forked;

/* Every context computes single-precision GEMM in TESSEL_BLAS_MATH's mode (the option "math" of
 * "gemm", which only tsl_sgemm, tsl_sgemm_buf and what runs on them follow: the Level-3 routines
 * and the factorizations stay FP32; route.c calibrates in FP32). */
static void fill_slot(tsl__blas_slot *s, tsl_context *ctx)
{
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    s->usable = tsl_context_device(ctx, &s->info) == TSL_OK;
    s->is_cpu = strcmp(s->info.type, "cpu") == 0;
    int math = tsl__blas_math();
    if (math != TSL_MATH_FP32) {
        tsl_status st = tsl_context_set_option(ctx, "gemm", "math", math);
        if (st != TSL_OK)
            fprintf(stderr,
                    "tessel-blas: warning: TESSEL_BLAS_MATH=%s on %s failed (%s: %s); sgemm "
                    "computes in fp32 there\n",
                    tsl__blas_math_name(math), s->info.name, tsl_status_name(st),
                    tsl_context_error(ctx));
    }
}

/* Several specs, or "all...", make a group; anything else one context. */
static int is_group_spec(const char *spec)
{
    return spec && (strchr(spec, ',') || strncasecmp(spec, "all", 3) == 0);
}

static void open_devices(void)
{
    const char *spec = getenv("TESSEL_BLAS_DEVICES");
    if (spec && !*spec) spec = NULL;
    tsl_status st;
    const char *what;
    if (is_group_spec(spec)) {
        what = "tsl_group_create";
        tsl_group *g = NULL;
        st = tsl_group_create(spec, &g);
        if (st == TSL_OK) {
            size_t n = tsl_group_size(g);
            if (n > TSL__BLAS_MAX_DEVICES) n = TSL__BLAS_MAX_DEVICES;
            for (size_t i = 0; i < n; i++)
                fill_slot(&g_slots[i], tsl_group_context(g, i));
            g_group = g;
            g_count = (int)n;
        }
    } else {
        what = "tsl_context_create";
        tsl_context *ctx = NULL;
        st = tsl_context_create(spec, &ctx);
        if (st == TSL_OK) {
            fill_slot(&g_slots[0], ctx);
            g_count = 1;
        }
    }
    if (st != TSL_OK)
        fprintf(stderr,
                "tessel-blas: warning: no device for TESSEL_BLAS_DEVICES=%s (%s: %s: %s); "
                "the CPU BLAS does every call\n",
                spec ? spec : "(default)", what, tsl_status_name(st), tsl_last_error());
}

int tsl__blas_devices_ready(void)
{
    if (atomic_load(&g_state)) return g_count;
    atomic_store(&g_opening, 1);
    pthread_mutex_lock(&g_open_lock);
    if (!atomic_load(&g_state)) {
        open_devices();
        atomic_store(&g_state, 1);
    }
    pthread_mutex_unlock(&g_open_lock);
    return g_count;
}

int tsl__blas_devices_known(void)
{
    return atomic_load(&g_state) ? g_count : 0;
}

int tsl__blas_devices_opened(void)
{
    return atomic_load(&g_state);
}

tsl__blas_slot *tsl__blas_slot_at(int i)
{
    return i >= 0 && i < g_count ? &g_slots[i] : NULL;
}

tsl_group *tsl__blas_devices_group(void)
{
    return g_count >= 2 ? g_group : NULL;
}

static int qualifies(const tsl__blas_slot *s, char prec, int allow_cpu)
{
    return s->usable && (!tsl__blas_prec_double(prec) || s->info.fp64) && (allow_cpu || !s->is_cpu);
}

tsl__blas_slot *tsl__blas_slot_acquire(char prec, int allow_cpu)
{
    pthread_mutex_lock(&g_pool_lock);
    for (;;) {
        int candidates = 0;
        for (int i = 0; i < g_count; i++) {
            tsl__blas_slot *s = &g_slots[i];
            if (!qualifies(s, prec, allow_cpu)) continue;
            candidates++;
            if (!s->busy && !g_group_waiting) {
                s->busy = 1;
                pthread_mutex_unlock(&g_pool_lock);
                return s;
            }
        }
        if (!candidates) break;
        pthread_cond_wait(&g_pool_cond, &g_pool_lock);
    }
    pthread_mutex_unlock(&g_pool_lock);
    return NULL;
}

void tsl__blas_slot_release(tsl__blas_slot *s)
{
    if (!s) return;
    pthread_mutex_lock(&g_pool_lock);
    s->busy = 0;
    pthread_cond_broadcast(&g_pool_cond);
    pthread_mutex_unlock(&g_pool_lock);
}

int tsl__blas_slots_acquire_all(void)
{
    pthread_mutex_lock(&g_pool_lock);
    g_group_waiting++;
    int ok = 1;
    for (;;) {
        int busy = 0;
        for (int i = 0; i < g_count; i++) {
            if (!g_slots[i].usable) ok = 0;
            busy |= g_slots[i].busy;
        }
        if (!ok || !busy) break;
        pthread_cond_wait(&g_pool_cond, &g_pool_lock);
    }
    if (ok)
        for (int i = 0; i < g_count; i++)
            g_slots[i].busy = 1;
    g_group_waiting--;
    pthread_cond_broadcast(&g_pool_cond); /* singles held back by g_group_waiting may go on */
    pthread_mutex_unlock(&g_pool_lock);
    return ok;
}

void tsl__blas_slots_release_all(void)
{
    pthread_mutex_lock(&g_pool_lock);
    for (int i = 0; i < g_count; i++)
        g_slots[i].busy = 0;
    pthread_cond_broadcast(&g_pool_cond);
    pthread_mutex_unlock(&g_pool_lock);
}

tsl__blas_slot *tsl__blas_slot_of(const tsl_context *ctx)
{
    for (int i = 0; i < g_count; i++)
        if (g_slots[i].ctx == ctx) return &g_slots[i];
    return NULL;
}

void tsl__blas_slot_disable(tsl__blas_slot *s)
{
    pthread_mutex_lock(&g_pool_lock);
    for (int i = 0; i < g_count; i++)
        if (!s || s == &g_slots[i]) g_slots[i].usable = 0;
    pthread_cond_broadcast(&g_pool_cond); /* waiters for this slot alone must give up */
    pthread_mutex_unlock(&g_pool_lock);
}

/* ---- fork ---------------------------------------------------------------------------------- */

int tsl__blas_forked(void)
{
    return atomic_load(&g_forked);
}

/* The pool lock is taken before the fork so the child inherits it free (the handlers release it
 * on both sides), never held by a thread that does not exist in the child. g_open_lock is not
 * taken: a driver that forks a helper while this library opens a device would wait for itself.
 * The child never takes it when the parent began opening, and it is free when the parent did
 * not. */
static void before_fork(void)
{
    pthread_mutex_lock(&g_pool_lock);
}

static void parent_after_fork(void)
{
    pthread_mutex_unlock(&g_pool_lock);
}

static void child_after_fork(void)
{
    /* A parent that never began to open a device left no OpenCL state of ours: the child may
     * open its own. Otherwise the contexts, their queues and the driver's threads are the
     * parent's, and may be half made. */
    if (atomic_load(&g_opening)) atomic_store(&g_forked, 1);
    /* Slots held by parent threads that do not exist here stay busy, which no longer matters;
     * the condition variable may have had waiters that are gone: make it new. */
    pthread_cond_init(&g_pool_cond, NULL);
    pthread_mutex_unlock(&g_pool_lock);
}

static void register_atfork(void)
{
    if (pthread_atfork(before_fork, parent_after_fork, child_after_fork) != 0)
        fprintf(stderr, "tessel-blas: warning: pthread_atfork failed; a forked child must not "
                        "call the BLAS\n");
}

void tsl__blas_devices_atfork(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, register_atfork);
}
