/* gemm_pipeline.c: a GEMM on host arrays through one device, with its transfers overlapped
 * (gemm_pipeline.h). A block of rows of C is split into chunks. A feeder thread gives B and then
 * each chunk's rows of op(A) (and of C when beta != 0) to an upload queue of its own, marking the
 * point where each chunk's uploads end; the calling thread makes the kernel queue wait for chunk
 * c's mark and runs tsl_[sd]gemm_buf on chunk c, so chunk c+1 uploads while chunk c computes. With
 * staging (devices across a bus), the feeder first packs each block into pinned host memory (B in
 * pieces, so packing one overlaps the upload of the last), and each finished chunk's rows of C go
 * to a download queue at once, into pinned staging, so they download while the next chunk
 * computes; commit then copies them into the caller's C. Without staging (CPU devices, whose
 * memory is the host's), the transfers go straight from and to the caller's arrays. The staging
 * and the device buffers hold the whole block, one region per chunk (no region is reused within a
 * call), and stay in the context between calls, grown when a call needs more: pinned memory takes
 * long to allocate, and a program calls GEMM again on the same sizes.
 *
 * The pipeline pays where transfers cross a bus. Measured on PoCL (two pthread devices, 2 cores):
 * chunks made the one-device 2048^3 group run 10-15 % slower end to end, and staging made 4096 x
 * 4096 x 16 (C-bound) 14 -> 19 ms; so by default a CPU device runs its block in one chunk without
 * staging, and the single-device host path keeps its plain uploads there. The environment
 * overrides each choice for any device, which is how the tests run every mode on PoCL. */
#include "ops/gemm_pipeline.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ops/group.h"
#include "ops/ops.h"

#define EXT_SLOT 1     /* the context's ext slot of the pipeline (runtime.h) */
#define CHUNK_ROWS 256 /* rows of a chunk, at least ($TESSEL_GROUP_CHUNK_ROWS) */
#define NCH TSL__PIPE_CHUNKS
#define SLOTS (1 + 2 * NCH) /* device buffers: B, then each chunk's A, then its C */
#define POLL_MS 50.0        /* how often a wait asks whether the call was abandoned */

/* What a context keeps for the pipeline between calls, and the plan of its last compute (which
 * commit finishes). */
typedef struct {
    tsl_context *ctx;
    tsl_buffer *buf[SLOTS];
    void *stage[3]; /* A, B, C */
    size_t stage_bytes[3];
    int stage_pinned[3];
    tsl__stream *up, *down;
    /* the last compute */
    tsl__gemm_host g;
    size_t r0, rows;
    int staged, computed;
    size_t nchunks, bound[NCH + 1];
    size_t a_off[NCH + 1], c_off[NCH + 1]; /* bytes into the staging */
    char *st_a, *st_b, *st_c;
    tsl_buffer *da[NCH], *db, *dc[NCH];
} pipe_state;

/* One compute: what the feeder and the kernel loop share. */
typedef struct {
    pipe_state *ps;
    const tsl__pipe_hooks *h;
    cl_event ready[NCH]; /* the feeder's marks */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* under mu: */
    size_t published; /* chunks whose uploads the feeder has given to the queue */
    int feed_done, stop;
    tsl_status feed_status;
    char feed_error[1024];
} pipe_call;

/* ---- hooks ---------------------------------------------------------------------------------- */

static int hook_stop(const tsl__pipe_hooks *h)
{
    return h && h->stop && h->stop(h->arg);
}

static int hook_enter(const tsl__pipe_hooks *h)
{
    return h && h->enter ? h->enter(h->arg) : 0;
}

static void hook_leave(const tsl__pipe_hooks *h)
{
    if (h && h->leave) h->leave(h->arg);
}

static tsl_status abandoned(tsl_context *ctx)
{
    return tsl__fail(ctx, TSL_ERR_OPENCL, "stopped: the call was abandoned");
}

/* ---- the state a context keeps --------------------------------------------------------------- */

static void stage_release(pipe_state *ps, int which)
{
    if (!ps->stage[which]) return;
    if (ps->stage_pinned[which])
        tsl_host_free(ps->ctx, ps->stage[which]);
    else
        tsl__free(ps->stage[which]);
    ps->stage[which] = NULL;
    ps->stage_bytes[which] = 0;
}

static void state_release(void *p)
{
    pipe_state *ps = p;
    tsl__stream_destroy(ps->up); /* waits for the queues before their memory goes */
    tsl__stream_destroy(ps->down);
    for (int b = 0; b < SLOTS; ++b)
        tsl_buffer_destroy(ps->buf[b]);
    for (int t = 0; t < 3; ++t)
        stage_release(ps, t);
    tsl__free(ps);
}

static pipe_state *state_of(tsl_context *ctx)
{
    if (!ctx->ext[EXT_SLOT].ptr) {
        pipe_state *ps = tsl__calloc(1, sizeof *ps);
        if (!ps) return NULL;
        ps->ctx = ctx;
        ctx->ext[EXT_SLOT].ptr = ps;
        ctx->ext[EXT_SLOT].release = state_release;
    }
    return ctx->ext[EXT_SLOT].ptr;
}

/* A device buffer of the slot, kept and grown. */
static tsl_status device_buffer(pipe_state *ps, int slot, size_t bytes, tsl_buffer **out)
{
    tsl_buffer **b = &ps->buf[slot];
    if (*b && tsl_buffer_size(*b) >= bytes) {
        *out = *b;
        return TSL_OK;
    }
    tsl_buffer_destroy(*b);
    *b = NULL;
    tsl_status s = tsl_buffer_create(ps->ctx, bytes ? bytes : 16, b);
    *out = *b;
    return s;
}

/* Host staging of one block (0 A, 1 B, 2 C), kept and grown like the device buffers: pinned
 * memory, or plain memory when the driver has no pinned memory to give (transfers are then
 * slower, and still overlap). */
static tsl_status stage_buffer(pipe_state *ps, int which, size_t bytes, char **out)
{
    if (bytes == 0) bytes = 16;
    if (!ps->stage[which] || ps->stage_bytes[which] < bytes) {
        stage_release(ps, which);
        void *p = NULL;
        ps->stage_pinned[which] = tsl_host_alloc(ps->ctx, bytes, &p) == TSL_OK;
        if (!ps->stage_pinned[which]) p = tsl__malloc(bytes);
        tsl__clear_error(ps->ctx);
        if (!p)
            return tsl__fail(ps->ctx, TSL_ERR_OUT_OF_MEMORY,
                             "out of host memory for %zu bytes of staging", bytes);
        ps->stage[which] = p;
        ps->stage_bytes[which] = bytes;
    }
    *out = ps->stage[which];
    return TSL_OK;
}

/* ---- the plan ----------------------------------------------------------------------------------
 */

/* A whole number from the environment within [lo, hi], else fallback. */
static size_t env_count(const char *var, size_t lo, size_t hi, size_t fallback)
{
    const char *env = getenv(var);
    if (env && *env >= '0' && *env <= '9') {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end == '\0' && v >= lo && v <= hi) return (size_t)v;
    }
    return fallback;
}

static int is_cpu(const tsl_context *ctx)
{
    return strcmp(ctx->info.type, "cpu") == 0;
}

/* The fewest rows a chunk has: $TESSEL_GROUP_CHUNK_ROWS (>= 1), else 256, or the whole block on
 * a CPU. */
static size_t chunk_min_rows(const tsl_context *ctx)
{
    return env_count("TESSEL_GROUP_CHUNK_ROWS", 1, INT_MAX,
                     is_cpu(ctx) ? (size_t)INT_MAX : CHUNK_ROWS);
}

/* Whether the transfers go through host staging: $TESSEL_GROUP_STAGING (1 or 0), else every
 * device but a CPU. */
static int use_staging(const tsl_context *ctx)
{
    return (int)env_count("TESSEL_GROUP_STAGING", 0, 1, !is_cpu(ctx));
}

static int uses_ab(const tsl__gemm_host *g)
{
    return g->k > 0 && g->alpha != 0.0;
}

/* Splits `rows` rows into chunks, bound[c]..bound[c+1] for chunk c: as many as NCH and the
 * minimum chunk allow, and only so many that every chunk falls in the size class of the whole
 * block (tsl__gemm_desc.size_class), so each chunk runs the variant and tuned parameters the
 * unsplit block would. On a CPU every element of C is then summed in the same order, the same
 * bits (the tests check it); on a GPU, auto's split k may pick another slice count for a chunk
 * than for the block (a function of the rows): the last bits may differ, within the GEMM
 * tolerance. Interior bounds are multiples of 64 when chunks are long. */
static size_t chunk_plan(const tsl_context *ctx, const tsl__gemm_host *g, size_t rows,
                         size_t *bound)
{
    size_t nc = uses_ab(g) ? rows / chunk_min_rows(ctx) : 1;
    if (nc > NCH) nc = NCH;
    const char *whole = tsl__gemm_desc.size_class(rows, g->n, g->k);
    for (; nc > 1; --nc) {
        size_t align = rows / nc >= 128 ? 64 : 1;
        int same = 1;
        bound[0] = 0, bound[nc] = rows;
        for (size_t c = 1; c < nc; ++c)
            bound[c] = rows * c / nc / align * align;
        for (size_t c = 0; c < nc; ++c)
            same &=
                bound[c + 1] > bound[c] &&
                strcmp(tsl__gemm_desc.size_class(bound[c + 1] - bound[c], g->n, g->k), whole) == 0;
        if (same) return nc;
    }
    bound[0] = 0, bound[1] = rows;
    return 1;
}

int tsl__gemm_pipe_pays(tsl_context *ctx, const tsl__gemm_host *g)
{
    const char *env = getenv("TESSEL_GEMM_PIPELINE");
    if (env && strcmp(env, "0") == 0) return 0;
    if (env && strcmp(env, "1") == 0) return 1;
    /* Not by default yet: on an H100 (2026-11-25, bench/results/h100/host-gemm) the staged
     * pipeline was slower end to end than the plain path at 16384^3 (single 13.4 against 14.6
     * TFLOP/s, double 6.0 against 7.7), its host copies into the pinned staging being the
     * bottleneck, and its first call pays seconds of pinned allocation. */
    (void)ctx, (void)g;
    return 0;
}

static tsl__block chunk_block(const pipe_state *ps, char which, size_t c)
{
    const tsl__gemm_host *g = &ps->g;
    size_t r0 = ps->r0 + ps->bound[c], rows = ps->bound[c + 1] - ps->bound[c];
    return which == 'a' ? tsl__row_block(g->layout, g->ta, r0, rows, g->k, g->lda)
                        : tsl__row_block(g->layout, TSL_NO_TRANS, r0, rows, g->n, g->ldc);
}

static size_t elem_of(const tsl__gemm_host *g)
{
    return g->dbl ? sizeof(double) : sizeof(float);
}

/* srows runs of len elements, ld apart in src, packed one after the other into dst; unpack is
 * the reverse. */
static void pack(char *dst, const char *src, size_t srows, size_t len, size_t ld, size_t es)
{
    for (size_t r = 0; r < srows; ++r)
        memcpy(dst + r * len * es, src + r * ld * es, len * es);
}

static void unpack(char *dst, const char *src, size_t srows, size_t len, size_t ld, size_t es)
{
    for (size_t r = 0; r < srows; ++r)
        memcpy(dst + r * ld * es, src + r * len * es, len * es);
}

static size_t max1(size_t x)
{
    return x ? x : 1;
}

/* Buffers, staging, queues and the chunk plan of rows r0..r0+rows-1. */
static tsl_status prepare(pipe_state *ps, const tsl__gemm_host *g, size_t r0, size_t rows)
{
    size_t es = elem_of(g);
    int use_ab = uses_ab(g);
    ps->g = *g;
    ps->r0 = r0;
    ps->rows = rows;
    ps->computed = 0;
    ps->staged = use_staging(ps->ctx);
    ps->nchunks = chunk_plan(ps->ctx, g, rows, ps->bound);
    ps->a_off[0] = ps->c_off[0] = 0;
    for (size_t c = 0; c < ps->nchunks; ++c) {
        tsl__block ab = chunk_block(ps, 'a', c), cb = chunk_block(ps, 'c', c);
        ps->a_off[c + 1] = ps->a_off[c] + (use_ab ? ab.srows * ab.slen * es : 0);
        ps->c_off[c + 1] = ps->c_off[c] + cb.srows * cb.slen * es;
    }
    /* Buffers of chunks this call does not have would only hold device memory. */
    for (size_t c = ps->nchunks; c < NCH; ++c)
        for (int slot = 1 + (int)c; slot < SLOTS; slot += NCH) {
            tsl_buffer_destroy(ps->buf[slot]);
            ps->buf[slot] = NULL;
        }
    tsl_status s = TSL_OK;
    if (!ps->up) s = tsl__stream_create(ps->ctx, &ps->up);
    if (s == TSL_OK && !ps->down) s = tsl__stream_create(ps->ctx, &ps->down);
    if (s == TSL_OK && ps->staged) s = stage_buffer(ps, 2, ps->c_off[ps->nchunks], &ps->st_c);
    for (size_t c = 0; s == TSL_OK && c < ps->nchunks; ++c)
        s = device_buffer(ps, 1 + NCH + (int)c, ps->c_off[c + 1] - ps->c_off[c], &ps->dc[c]);
    if (s == TSL_OK && use_ab) {
        tsl__block bb = tsl__row_block(g->layout, g->tb, 0, g->k, g->n, g->ldb);
        if (ps->staged) s = stage_buffer(ps, 0, ps->a_off[ps->nchunks], &ps->st_a);
        if (s == TSL_OK && ps->staged) s = stage_buffer(ps, 1, bb.srows * bb.slen * es, &ps->st_b);
        if (s == TSL_OK) s = device_buffer(ps, 0, bb.srows * bb.slen * es, &ps->db);
        for (size_t c = 0; s == TSL_OK && c < ps->nchunks; ++c)
            s = device_buffer(ps, 1 + (int)c, ps->a_off[c + 1] - ps->a_off[c], &ps->da[c]);
    }
    return s;
}

/* ---- the feeder ------------------------------------------------------------------------------ */

static int feeder_stopped(pipe_call *pc)
{
    pthread_mutex_lock(&pc->mu);
    int stop = pc->stop;
    pthread_mutex_unlock(&pc->mu);
    return stop || hook_stop(pc->h);
}

/* Packs srows runs of the caller's array into staging, within the caller's permission. */
static int pack_guarded(pipe_call *pc, char *dst, const char *src, size_t srows, size_t len,
                        size_t ld, size_t es)
{
    if (hook_enter(pc->h)) return -1;
    pack(dst, src, srows, len, ld, es);
    hook_leave(pc->h);
    return 0;
}

static void *feeder_main(void *arg)
{
    pipe_call *pc = arg;
    pipe_state *ps = pc->ps;
    const tsl__gemm_host *g = &ps->g;
    tsl__stream *up = ps->up;
    size_t es = elem_of(g);
    int use_ab = uses_ab(g), stopped = 0;
    tsl_status s = TSL_OK;
    tsl__block bb = tsl__row_block(g->layout, g->tb, 0, g->k, g->n, g->ldb);
    if (use_ab && !ps->staged)
        s = tsl__stream_write_rect(up, ps->db->mem, (const char *)g->b + bb.offset * es, bb.srows,
                                   bb.slen * es, g->ldb * es);
    if (use_ab && ps->staged) { /* B in up to 4 pieces of runs */
        size_t pieces = bb.srows < 4 ? 1 : 4, run_bytes = bb.slen * es;
        for (size_t q = 0; s == TSL_OK && !stopped && q < pieces; ++q) {
            size_t q0 = bb.srows * q / pieces, q1 = bb.srows * (q + 1) / pieces;
            stopped = pack_guarded(pc, ps->st_b + q0 * run_bytes,
                                   (const char *)g->b + (bb.offset + q0 * g->ldb) * es, q1 - q0,
                                   bb.slen, g->ldb, es) != 0;
            if (!stopped)
                s = tsl__stream_write(up, ps->db->mem, q0 * run_bytes, (q1 - q0) * run_bytes,
                                      ps->st_b + q0 * run_bytes);
        }
    }
    for (size_t c = 0; s == TSL_OK && !stopped && c < ps->nchunks; ++c) {
        if ((stopped = feeder_stopped(pc)) != 0) break;
        if (use_ab && !ps->staged) {
            tsl__block ab = chunk_block(ps, 'a', c);
            s = tsl__stream_write_rect(up, ps->da[c]->mem, (const char *)g->a + ab.offset * es,
                                       ab.srows, ab.slen * es, g->lda * es);
        } else if (use_ab) {
            tsl__block ab = chunk_block(ps, 'a', c);
            if ((stopped =
                     pack_guarded(pc, ps->st_a + ps->a_off[c], (const char *)g->a + ab.offset * es,
                                  ab.srows, ab.slen, g->lda, es)) != 0)
                break;
            s = tsl__stream_write(up, ps->da[c]->mem, 0, ab.srows * ab.slen * es,
                                  ps->st_a + ps->a_off[c]);
        }
        if (s == TSL_OK && g->beta != 0.0 && !ps->staged) {
            tsl__block cb = chunk_block(ps, 'c', c);
            s = tsl__stream_write_rect(up, ps->dc[c]->mem, (const char *)g->c + cb.offset * es,
                                       cb.srows, cb.slen * es, g->ldc * es);
        } else if (s == TSL_OK && g->beta != 0.0) {
            tsl__block cb = chunk_block(ps, 'c', c);
            if ((stopped =
                     pack_guarded(pc, ps->st_c + ps->c_off[c], (const char *)g->c + cb.offset * es,
                                  cb.srows, cb.slen, g->ldc, es)) != 0)
                break;
            s = tsl__stream_write(up, ps->dc[c]->mem, 0, cb.srows * cb.slen * es,
                                  ps->st_c + ps->c_off[c]);
        }
        if (s == TSL_OK) s = tsl__stream_mark(up, &pc->ready[c]);
        if (s != TSL_OK) break;
        pthread_mutex_lock(&pc->mu);
        pc->published = c + 1;
        pthread_cond_broadcast(&pc->cv);
        pthread_mutex_unlock(&pc->mu);
    }
    pthread_mutex_lock(&pc->mu);
    pc->feed_done = 1;
    pc->feed_status = s != TSL_OK ? s : stopped ? TSL_ERR_OPENCL : TSL_OK;
    if (s != TSL_OK)
        snprintf(pc->feed_error, sizeof pc->feed_error, "%s", tsl__stream_error(up));
    else if (stopped)
        snprintf(pc->feed_error, sizeof pc->feed_error, "stopped: the call was abandoned");
    pthread_cond_broadcast(&pc->cv);
    pthread_mutex_unlock(&pc->mu);
    return NULL;
}

/* ---- the kernel loop ------------------------------------------------------------------------- */

static struct timespec deadline_after(double ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double total = (double)ts.tv_nsec + ms * 1e6;
    double secs = floor(total / 1e9);
    ts.tv_sec += (time_t)secs;
    ts.tv_nsec = (long)(total - secs * 1e9);
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec += 1, ts.tv_nsec -= 1000000000L;
    return ts;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Waits until the feeder has given chunk c's uploads to the queue: bounded by the timeout; the
 * feeder's failure, or the call's abandonment (asked every POLL_MS), ends it. */
static tsl_status wait_chunk(pipe_call *pc, size_t c, double timeout_s)
{
    tsl_context *ctx = pc->ps->ctx;
    double end = now_ms() + timeout_s * 1e3;
    int ready = 0, failed = 0, gone = 0;
    tsl_status fs = TSL_OK;
    pthread_mutex_lock(&pc->mu);
    for (;;) {
        ready = pc->published > c;
        failed = pc->feed_done && !ready;
        if (ready || failed) break;
        double left = end - now_ms();
        if (left <= 0) break;
        pthread_mutex_unlock(&pc->mu);
        gone = hook_stop(pc->h);
        pthread_mutex_lock(&pc->mu);
        if (gone) break;
        struct timespec dl = deadline_after(left < POLL_MS ? left : POLL_MS);
        pthread_cond_timedwait(&pc->cv, &pc->mu, &dl);
    }
    fs = pc->feed_status;
    pthread_mutex_unlock(&pc->mu);
    if (ready) return TSL_OK;
    if (failed) return tsl__fail(ctx, fs != TSL_OK ? fs : TSL_ERR_OPENCL, "%s", pc->feed_error);
    if (gone) return abandoned(ctx);
    return tsl__fail(ctx, TSL_ERR_OPENCL,
                     "the uploads of its rows did not start within %g s (timed out: the device "
                     "does not answer; the limit is $TESSEL_TIMEOUT or --timeout)",
                     timeout_s);
}

static void add_timing(tsl_timing *sum, const tsl_timing *t)
{
    sum->build_ms += t->build_ms;
    sum->upload_ms += t->upload_ms;
    sum->kernel_ms += t->kernel_ms;
    sum->download_ms += t->download_ms;
}

/* Runs the chunks as the feeder publishes them; with staging, chunk c's rows of C go to the
 * download queue at once. */
static tsl_status run_chunks(pipe_call *pc, double timeout_s, tsl_timing *t)
{
    pipe_state *ps = pc->ps;
    const tsl__gemm_host *g = &ps->g;
    tsl_context *ctx = ps->ctx;
    int use_ab = uses_ab(g);
    tsl__block bb = tsl__row_block(g->layout, g->tb, 0, g->k, g->n, g->ldb);
    tsl_status s = TSL_OK;
    for (size_t c = 0; s == TSL_OK && c < ps->nchunks; ++c) {
        if (hook_stop(pc->h)) return abandoned(ctx); /* before a kernel, or its build */
        if ((s = wait_chunk(pc, c, timeout_s)) != TSL_OK) break;
        if ((s = tsl__queue_wait_for(ctx, pc->ready[c])) != TSL_OK) break;
        tsl__block ab = chunk_block(ps, 'a', c), cb = chunk_block(ps, 'c', c);
        size_t rows = ps->bound[c + 1] - ps->bound[c];
        /* C_c = alpha op(A)_c op(B) + beta C_c, on packed copies (ld = run length) */
        const tsl_buffer *pa = use_ab ? ps->da[c] : ps->dc[c], *pb = use_ab ? ps->db : ps->dc[c];
        s = g->dbl
                ? tsl_dgemm_buf(ctx, g->layout, g->ta, g->tb, rows, g->n, g->k, g->alpha, pa,
                                max1(ab.slen), pb, max1(bb.slen), g->beta, ps->dc[c], max1(cb.slen))
                : tsl_sgemm_buf(ctx, g->layout, g->ta, g->tb, rows, g->n, g->k, (float)g->alpha, pa,
                                max1(ab.slen), pb, max1(bb.slen), (float)g->beta, ps->dc[c],
                                max1(cb.slen));
        if (s != TSL_OK) break;
        add_timing(t, &ctx->timing);
        if (!ps->staged) continue;
        s = tsl__stream_read(ps->down, ps->dc[c]->mem, 0, ps->c_off[c + 1] - ps->c_off[c],
                             ps->st_c + ps->c_off[c]);
        if (s != TSL_OK) s = tsl__fail(ctx, s, "%s", tsl__stream_error(ps->down));
    }
    return s;
}

tsl_status tsl__gemm_pipe_compute(tsl_context *ctx, const tsl__gemm_host *g, size_t r0, size_t rows,
                                  const tsl__pipe_hooks *h, tsl_timing *t)
{
    if (hook_stop(h)) return abandoned(ctx);
    pipe_state *ps = state_of(ctx);
    if (!ps) return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "the GEMM pipeline: out of host memory");
    tsl_status s = prepare(ps, g, r0, rows);
    if (s != TSL_OK) return s;
    double timeout_s = h && h->timeout_s > 0 ? h->timeout_s : tsl__default_timeout();
    /* Without staging the upload queue reads the caller's arrays until its uploads are done:
     * all of that is one use of them. */
    int lent = !ps->staged && (uses_ab(g) || g->beta != 0.0);
    if (lent && hook_enter(h)) return abandoned(ctx);
    pipe_call pc;
    memset(&pc, 0, sizeof pc);
    pc.ps = ps;
    pc.h = h;
    pthread_condattr_t attr;
    int ok = pthread_condattr_init(&attr) == 0;
    if (ok) {
        ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
             pthread_cond_init(&pc.cv, &attr) == 0;
        pthread_condattr_destroy(&attr);
    }
    if (ok && pthread_mutex_init(&pc.mu, NULL) != 0) {
        pthread_cond_destroy(&pc.cv);
        ok = 0;
    }
    pthread_t feeder;
    if (ok && pthread_create(&feeder, NULL, feeder_main, &pc) != 0) {
        pthread_mutex_destroy(&pc.mu);
        pthread_cond_destroy(&pc.cv);
        ok = 0;
    }
    if (!ok) {
        if (lent) hook_leave(h);
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "the GEMM pipeline: no feeder thread");
    }
    s = run_chunks(&pc, timeout_s, t);
    pthread_mutex_lock(&pc.mu);
    pc.stop = 1; /* a failed chunk: the feeder packs no more */
    pthread_mutex_unlock(&pc.mu);
    pthread_join(feeder, NULL);
    /* Every transfer ends before the compute does (the caller's arrays may be lent to the upload
     * queue); their profiled times join the kernels'. */
    tsl_status up = tsl__stream_finish(ps->up, t);
    if (lent) hook_leave(h);
    tsl_status down = tsl__stream_finish(ps->down, t);
    if (s == TSL_OK && up != TSL_OK) s = tsl__fail(ctx, up, "%s", tsl__stream_error(ps->up));
    if (s == TSL_OK && down != TSL_OK) s = tsl__fail(ctx, down, "%s", tsl__stream_error(ps->down));
    if (s == TSL_OK && pc.feed_status != TSL_OK)
        s = tsl__fail(ctx, pc.feed_status, "%s", pc.feed_error);
    pthread_mutex_destroy(&pc.mu);
    pthread_cond_destroy(&pc.cv);
    ps->computed = s == TSL_OK;
    return s;
}

tsl_status tsl__gemm_pipe_commit(tsl_context *ctx, const tsl__pipe_hooks *h, tsl_timing *t)
{
    pipe_state *ps = ctx->ext[EXT_SLOT].ptr;
    if (!ps || !ps->computed)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "the GEMM pipeline: nothing to commit");
    ps->computed = 0;
    const tsl__gemm_host *g = &ps->g;
    size_t es = elem_of(g);
    if (hook_enter(h)) return abandoned(ctx);
    tsl_status s = TSL_OK;
    for (size_t c = 0; c < ps->nchunks; ++c) {
        tsl__block cb = chunk_block(ps, 'c', c);
        if (ps->staged)
            unpack((char *)g->c + cb.offset * es, ps->st_c + ps->c_off[c], cb.srows, cb.slen,
                   g->ldc, es);
        else if (s == TSL_OK)
            s = tsl__stream_read_rect(ps->down, ps->dc[c]->mem, (char *)g->c + cb.offset * es,
                                      cb.srows, cb.slen * es, g->ldc * es);
    }
    tsl_status down = tsl__stream_finish(ps->down, t);
    hook_leave(h);
    if (s == TSL_OK) s = down;
    if (s != TSL_OK) return tsl__fail(ctx, s, "%s", tsl__stream_error(ps->down));
    return TSL_OK;
}
