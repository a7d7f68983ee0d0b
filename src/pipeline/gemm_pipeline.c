/* gemm_pipeline.c: a GEMM on host arrays through one device, with its transfers overlapped
 * (gemm_pipeline.h). A block of rows of C is cut into pieces: row chunks (of C and op(A)) times
 * column panels (of C and op(B)), planned in gemm_pipe_plan.c (which says in what order). A
 * feeder thread gives each panel of op(B) and chunk of op(A) before the first piece that needs
 * it (it stays for the later ones), and each piece of C when beta != 0, to an upload queue of
 * its own, marking the point where each piece's uploads end; the calling thread makes the
 * kernel queue wait for piece q's mark and runs tsl_[sdcz]gemm_buf on it (rows of the chunk x
 * columns of the panel x k, on packed copies), so piece q+1 uploads while piece q computes.
 * So the first kernel waits for B / panels + A / chunks, not for all of B (before
 * panels, 55 of the 60 ms the pipeline lost on an H100 at 16384^3 single). Each finished piece
 * of C is downloaded into its rectangle of the caller's C while the next ones compute: by a
 * drain thread when the pipeline runs whole (one device: tsl__gemm_pipe_run), or by commit after
 * every device of a group has its block (nothing reaches C before).
 *
 * Staging. With a device across a bus (every device but a CPU), transfers go through pinned host
 * memory, which they cross at the bus's speed; from the caller's pageable arrays a driver copies
 * through its own bounce buffers at a fraction of it (6.5 GB/s up on an H100's host, against 40+
 * from pinned memory). The staging is a ring of RING buffers per direction, each of a slice of
 * at most $TESSEL_GEMM_STAGE_KB (32 MiB): the feeder packs slice p into buffer p % RING once the
 * upload of slice p - RING has completed (a ticket of the upload stream), so packing overlaps the
 * uploads before it; the drain empties buffer p into C while the downloads after it run. The
 * packing and emptying are host memcpy, the pipeline's bottleneck with one thread (3 GiB at
 * n = 16384, single): a crew of copy threads (min(online cores, 8), $TESSEL_GEMM_COPY_THREADS)
 * splits each slice. The ring is allocated on its first use, buffer by buffer, by the thread
 * that uses it, through its own stream's queue (so the first slices move while later buffers
 * are still allocated, and the kernel queue never waits for a mapping), and stays in the context:
 * RING * 2 * 32 MiB at most, whatever the size of the product. An operand the caller allocated
 * with tsl_host_alloc on this context is pinned already: it moves straight from or to the
 * caller's array. The device buffers hold the whole block, one per panel of B, chunk of A and
 * piece of C (no region is reused within a call), and stay in the context between calls, grown
 * when a call needs more.
 *
 * Workers. The feeder, the drain and the copy crew touch the caller's arrays only between the
 * hooks' enter and leave, and the crew's threads only within a copy whose submitter holds that
 * bracket and waits for every slice; every thread is joined before compute (or commit) returns.
 *
 * The pipeline pays where transfers cross a bus. Measured on PoCL (two pthread devices, 2 cores):
 * chunks made the one-device 2048^3 group run 10-15 % slower end to end, and staging made 4096 x
 * 4096 x 16 (C-bound) 14 -> 19 ms; so by default a CPU device runs its block in one piece without
 * staging, and the single-device host path keeps its plain uploads there. The environment
 * overrides each choice for any device, which is how the tests run every mode on PoCL. */
#include "pipeline/gemm_pipeline.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pipeline/gemm_pipe_plan.h"
#include "multi/group.h"
#include "pipeline/host_copy.h"
#include "ops/ops.h"

#define EXT_SLOT 1 /* the context's ext slot of the pipeline (runtime.h) */
#define NCH TSL__PIPE_CHUNKS
#define NP TSL__PIPE_PANELS
#define PIECES (NCH * NP)
/* device buffers: each panel of B, then each chunk of A, then each piece of C */
#define SLOT_B 0
#define SLOT_A NP
#define SLOT_C (NP + NCH)
#define SLOTS (NP + NCH + PIECES)
#define POLL_MS 50.0   /* how often a wait asks whether the call was abandoned */
#define RING 4         /* staging buffers per direction */
#define STAGE_KB 32768 /* KiB of one staging buffer, at most ($TESSEL_GEMM_STAGE_KB) */
#define COPY_THREADS 8 /* host copy threads at most by default ($TESSEL_GEMM_COPY_THREADS) */

/* One staging buffer: pinned (mem != NULL, mapped through its direction's stream) or plain. */
typedef struct {
    void *p;
    cl_mem mem;
    size_t bytes;
} stage_buf;

/* What a context keeps for the pipeline between calls, and the plan of its last compute (which
 * commit finishes). */
typedef struct {
    tsl_context *ctx;
    tsl_buffer *buf[SLOTS];
    stage_buf ring[2][RING]; /* [0] the upload stream's, [1] the download stream's */
    tsl__stream *up, *down;
    /* the last compute */
    tsl__gemm_host g;
    tsl__pipe_plan plan;
    int computed;
    int st_a, st_b, st_c; /* which operands go through the staging */
    size_t piece;         /* bytes of a staging slice in this call */
    size_t threads;       /* copy threads in this call (1: the caller's thread alone) */
    tsl_buffer *da[NCH], *db[NP], *dc[PIECES];
} pipe_state;

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

static void stage_free(tsl__stream *s, stage_buf *b)
{
    if (b->mem)
        tsl__stream_host_free(s, b->p, b->mem);
    else
        tsl__free(b->p);
    memset(b, 0, sizeof *b);
}

static void state_release(void *p)
{
    pipe_state *ps = p;
    for (int d = 0; d < 2; ++d)
        for (int i = 0; i < RING; ++i)
            stage_free(d ? ps->down : ps->up, &ps->ring[d][i]);
    tsl__stream_destroy(ps->up); /* waits for the queues before their memory goes */
    tsl__stream_destroy(ps->down);
    for (int b = 0; b < SLOTS; ++b)
        tsl_buffer_destroy(ps->buf[b]);
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

/* ---- the knobs of the transfers (the plan's are in gemm_pipe_plan.c) ------------------------ */

/* Whether the transfers go through host staging: $TESSEL_GEMM_STAGING ($TESSEL_GROUP_STAGING,
 * 1 or 0), else every device but a CPU. */
static int use_staging(const tsl_context *ctx)
{
    return (int)tsl__pipe_env("TESSEL_GEMM_STAGING", "TESSEL_GROUP_STAGING", 0, 1,
                              !tsl__pipe_is_cpu(ctx));
}

/* Host copy threads: $TESSEL_GEMM_COPY_THREADS (1..64), else min(online cores, 8). */
static size_t copy_threads(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t fallback = cores < 1 ? 1 : cores > COPY_THREADS ? COPY_THREADS : (size_t)cores;
    return tsl__pipe_env("TESSEL_GEMM_COPY_THREADS", NULL, 1, TSL__CREW_MAX, fallback);
}

/* Bytes of a staging buffer, at most: $TESSEL_GEMM_STAGE_KB KiB (>= 1), else 32 MiB. */
static size_t stage_limit(void)
{
    return tsl__pipe_env("TESSEL_GEMM_STAGE_KB", NULL, 1, (size_t)1 << 30, STAGE_KB) * 1024;
}

static size_t max1(size_t x)
{
    return x ? x : 1;
}

/* Whether the block's bytes lie in one pinned block the caller has from tsl_host_alloc on ctx. */
static int pinned_block(const tsl_context *ctx, const void *base, tsl__block b, size_t ld,
                        size_t es)
{
    if (!base || b.srows == 0 || b.slen == 0) return 0;
    const char *lo = (const char *)base + b.offset * es;
    const char *hi = lo + ((b.srows - 1) * ld + b.slen) * es;
    size_t n = sizeof ctx->pinned / sizeof ctx->pinned[0];
    for (size_t i = 0; i < n; ++i) {
        size_t size = 0;
        const char *p = ctx->pinned[i].ptr;
        if (!p || clGetMemObjectInfo(ctx->pinned[i].mem, CL_MEM_SIZE, sizeof size, &size, NULL) !=
                      CL_SUCCESS)
            continue;
        if (lo >= p && hi <= p + size) return 1;
    }
    return 0;
}

static size_t bytes_of(tsl__block b, size_t es)
{
    return b.srows * b.slen * es;
}

/* Frees device buffer slots lo..hi-1: what this call does not use would only hold memory. */
static void drop_slots(pipe_state *ps, size_t lo, size_t hi)
{
    for (size_t i = lo; i < hi; ++i) {
        tsl_buffer_destroy(ps->buf[i]);
        ps->buf[i] = NULL;
    }
}

/* Buffers, queues and the plan of rows r0..r0+rows-1 (the staging comes on first use). */
static tsl_status prepare(pipe_state *ps, const tsl__gemm_host *g, size_t r0, size_t rows)
{
    size_t es = tsl__pipe_elem(g);
    int use_ab = tsl__pipe_uses_ab(g), staged = use_staging(ps->ctx);
    tsl__pipe_plan *p = &ps->plan;
    ps->g = *g;
    ps->computed = 0;
    tsl__pipe_plan_make(ps->ctx, g, r0, rows, p);
    size_t pieces = tsl__pipe_pieces(p);
    /* whether each operand's whole extent in this call is pinned already */
    tsl__block bb = tsl__row_block(g->layout, g->tb, 0, g->k, g->n, g->ldb);
    tsl__block ab = tsl__row_block(g->layout, g->ta, r0, rows, g->k, g->lda);
    tsl__block cb = tsl__row_block(g->layout, TSL_NO_TRANS, r0, rows, g->n, g->ldc);
    ps->st_a = staged && use_ab && !pinned_block(ps->ctx, g->a, ab, g->lda, es);
    ps->st_b = staged && use_ab && !pinned_block(ps->ctx, g->b, bb, g->ldb, es);
    ps->st_c = staged && !pinned_block(ps->ctx, g->c, cb, g->ldc, es);
    /* A slice is at most the staging limit, and no more than the largest piece staged. */
    size_t need = 0;
    for (size_t j = 0; ps->st_b && j < p->npanels; ++j)
        if (bytes_of(tsl__pipe_b(p, g, j), es) > need) need = bytes_of(tsl__pipe_b(p, g, j), es);
    for (size_t c = 0; ps->st_a && c < p->nchunks; ++c)
        if (bytes_of(tsl__pipe_a(p, g, c), es) > need) need = bytes_of(tsl__pipe_a(p, g, c), es);
    for (size_t q = 0; ps->st_c && q < pieces; ++q)
        if (bytes_of(tsl__pipe_c(p, g, q), es) > need) need = bytes_of(tsl__pipe_c(p, g, q), es);
    size_t limit = stage_limit();
    ps->piece = need < limit ? max1(need) : limit;
    ps->threads = ps->st_a || ps->st_b || ps->st_c ? copy_threads() : 1;
    drop_slots(ps, SLOT_B + p->npanels, SLOT_A);
    drop_slots(ps, SLOT_A + p->nchunks, SLOT_C);
    drop_slots(ps, SLOT_C + pieces, SLOTS);
    tsl_status s = TSL_OK;
    if (!ps->up) s = tsl__stream_create(ps->ctx, &ps->up);
    if (s == TSL_OK && !ps->down) s = tsl__stream_create(ps->ctx, &ps->down);
    for (size_t q = 0; s == TSL_OK && q < pieces; ++q)
        s = device_buffer(ps, SLOT_C + (int)q, bytes_of(tsl__pipe_c(p, g, q), es), &ps->dc[q]);
    for (size_t j = 0; s == TSL_OK && use_ab && j < p->npanels; ++j)
        s = device_buffer(ps, SLOT_B + (int)j, bytes_of(tsl__pipe_b(p, g, j), es), &ps->db[j]);
    for (size_t c = 0; s == TSL_OK && use_ab && c < p->nchunks; ++c)
        s = device_buffer(ps, SLOT_A + (int)c, bytes_of(tsl__pipe_a(p, g, c), es), &ps->da[c]);
    return s;
}

/* ---- one compute: what its threads share ---------------------------------------------------- */

typedef struct {
    pipe_state *ps;
    const tsl__pipe_hooks *h;
    tsl__crew *cr;
    cl_event ready[PIECES]; /* the feeder's marks */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* under mu: */
    size_t published; /* pieces whose uploads the feeder has given to the queue */
    size_t done;      /* pieces whose kernel has completed */
    int feed_done, stop;
    tsl_status status; /* the first failure of any thread, and its message */
    char error[1024];
} pipe_call;

/* Records the call's first failure and stops every thread; returns s. */
static tsl_status call_fail(pipe_call *pc, tsl_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static tsl_status call_fail(pipe_call *pc, tsl_status s, const char *fmt, ...)
{
    pthread_mutex_lock(&pc->mu);
    if (pc->status == TSL_OK) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(pc->error, sizeof pc->error, fmt, ap);
        va_end(ap);
        pc->status = s;
    }
    pc->stop = 1;
    pthread_cond_broadcast(&pc->cv);
    pthread_mutex_unlock(&pc->mu);
    return s;
}

static int call_stopped(pipe_call *pc)
{
    pthread_mutex_lock(&pc->mu);
    int stop = pc->stop;
    pthread_mutex_unlock(&pc->mu);
    return stop || hook_stop(pc->h);
}

/* Where a thread is in its ring: slices given so far, and the ticket of each buffer's last
 * transfer (the buffer is free once it has completed). */
typedef struct {
    size_t next;
    unsigned long long ticket[RING];
} ring_pos;

/* Staging buffer i of a direction (0 up, 1 down), allocated on first use, grown when short:
 * pinned, or plain memory when the driver has no pinned memory to give (slower, still right). */
static tsl_status ring_buffer(pipe_call *pc, int dir, size_t i, char **out)
{
    pipe_state *ps = pc->ps;
    stage_buf *b = &ps->ring[dir][i];
    tsl__stream *s = dir ? ps->down : ps->up;
    if (!b->p || b->bytes < ps->piece) {
        stage_free(s, b);
        if (tsl__stream_host_alloc(s, ps->piece, &b->p, &b->mem) != TSL_OK) {
            b->mem = NULL;
            b->p = tsl__malloc(ps->piece);
        }
        if (!b->p)
            return call_fail(pc, TSL_ERR_OUT_OF_MEMORY,
                             "out of host memory for %zu bytes of staging", ps->piece);
        b->bytes = ps->piece;
    }
    *out = b->p;
    return TSL_OK;
}

/* ---- the feeder ------------------------------------------------------------------------------ */

/* Gives `runs` runs of len bytes, pitch apart from src in the caller's array, to the upload
 * queue, packed into mem from byte 0: through the ring when staged (slice by slice, each packed
 * within the caller's permission), else straight from the caller's array (which the compute
 * holds lent until the uploads end). *stopped when the call may no longer use the arrays. */
static tsl_status put(pipe_call *pc, ring_pos *rp, int staged, cl_mem mem, const char *src,
                      size_t runs, size_t len, size_t pitch, int *stopped)
{
    tsl__stream *up = pc->ps->up;
    tsl_status s = TSL_OK;
    if (runs == 0 || len == 0) return TSL_OK;
    if (!staged) {
        s = tsl__stream_write_rect(up, mem, src, runs, len, pitch);
        return s == TSL_OK ? s : call_fail(pc, s, "%s", tsl__stream_error(up));
    }
    size_t total = runs * len, piece = pc->ps->piece;
    for (size_t f = 0; f < total; f += piece) {
        size_t n = total - f < piece ? total - f : piece, i = rp->next++ % RING;
        char *st = NULL;
        if ((s = tsl__stream_wait(up, rp->ticket[i])) != TSL_OK)
            return call_fail(pc, s, "%s", tsl__stream_error(up));
        if ((s = ring_buffer(pc, 0, i, &st)) != TSL_OK) return s;
        if (call_stopped(pc) || hook_enter(pc->h)) {
            *stopped = 1;
            return TSL_OK;
        }
        tsl__copy_job j = {(char *)src, len, pitch, st, f, f + n, 0};
        tsl__crew_copy(pc->cr, &j);
        hook_leave(pc->h);
        if ((s = tsl__stream_write(up, mem, f, n, st)) != TSL_OK)
            return call_fail(pc, s, "%s", tsl__stream_error(up));
        rp->ticket[i] = tsl__stream_ticket(up);
    }
    return TSL_OK;
}

/* put of the stored rectangle b of the caller's array at base (leading dimension ld). */
static tsl_status put_block(pipe_call *pc, ring_pos *rp, int staged, const tsl_buffer *buf,
                            const void *base, tsl__block b, size_t ld, int *stopped)
{
    size_t es = tsl__pipe_elem(&pc->ps->g);
    return put(pc, rp, staged, buf->mem, (const char *)base + b.offset * es, b.srows, b.slen * es,
               ld * es, stopped);
}

/* The uploads, piece by piece in the kernels' order (gemm_pipe_plan.c): each panel of op(B)
 * and each chunk of op(A) before the first piece that needs it (each stays on the device for the
 * later pieces), each piece of C (beta != 0) before its piece; a mark after each piece's
 * uploads. So the first kernel waits for one panel and one chunk, and the other uploads are
 * spread over the kernels. */
static void *feeder_main(void *arg)
{
    pipe_call *pc = arg;
    pipe_state *ps = pc->ps;
    const tsl__gemm_host *g = &ps->g;
    const tsl__pipe_plan *p = &ps->plan;
    int use_ab = tsl__pipe_uses_ab(g), stopped = 0;
    ring_pos rp;
    memset(&rp, 0, sizeof rp);
    tsl_status s = TSL_OK;
    for (size_t q = 0; s == TSL_OK && q < tsl__pipe_pieces(p); ++q) {
        size_t c, j;
        tsl__pipe_piece(p, q, &c, &j);
        if ((stopped = call_stopped(pc)) != 0) break;
        if (use_ab && c == 0) /* piece (0, j) is panel j's first, (c, 0) chunk c's */
            s = put_block(pc, &rp, ps->st_b, ps->db[j], g->b, tsl__pipe_b(p, g, j), g->ldb,
                          &stopped);
        if (s == TSL_OK && !stopped && use_ab && j == 0)
            s = put_block(pc, &rp, ps->st_a, ps->da[c], g->a, tsl__pipe_a(p, g, c), g->lda,
                          &stopped);
        if (s == TSL_OK && !stopped && tsl__pipe_reads_c(g))
            s = put_block(pc, &rp, ps->st_c, ps->dc[q], g->c, tsl__pipe_c(p, g, q), g->ldc,
                          &stopped);
        if (s != TSL_OK || stopped) break;
        if ((s = tsl__stream_mark(ps->up, &pc->ready[q])) != TSL_OK) {
            call_fail(pc, s, "%s", tsl__stream_error(ps->up));
            break;
        }
        pthread_mutex_lock(&pc->mu);
        pc->published = q + 1;
        pthread_cond_broadcast(&pc->cv);
        pthread_mutex_unlock(&pc->mu);
    }
    pthread_mutex_lock(&pc->mu);
    pc->feed_done = 1;
    pthread_cond_broadcast(&pc->cv);
    pthread_mutex_unlock(&pc->mu);
    return NULL;
}

/* ---- the drain: finished pieces of C into the caller's C ------------------------------------- */

/* Piece q of C, computed in its device buffer, into its rectangle of the caller's C: through the
 * ring (RING slices downloading ahead of the one being emptied), or straight into C when C is
 * not staged. Returns with every download of the piece completed. */
static tsl_status take(pipe_call *pc, size_t q, int *stopped)
{
    pipe_state *ps = pc->ps;
    const tsl__gemm_host *g = &ps->g;
    tsl__stream *down = ps->down;
    size_t es = tsl__pipe_elem(g);
    tsl__block cb = tsl__pipe_c(&ps->plan, g, q);
    cl_mem mem = ps->dc[q]->mem;
    char *dst = (char *)g->c + cb.offset * es;
    size_t len = cb.slen * es, pitch = g->ldc * es, total = cb.srows * len;
    tsl_status s = TSL_OK;
    if (total == 0) return TSL_OK;
    if (!ps->st_c) {
        if (hook_enter(pc->h)) {
            *stopped = 1;
            return TSL_OK;
        }
        s = tsl__stream_read_rect(down, mem, dst, cb.srows, len, pitch);
        if (s == TSL_OK) s = tsl__stream_wait(down, tsl__stream_ticket(down));
        hook_leave(pc->h);
        return s == TSL_OK ? s : call_fail(pc, s, "%s", tsl__stream_error(down));
    }
    size_t piece = ps->piece, np = (total + piece - 1) / piece;
    unsigned long long ticket[RING] = {0};
    char *st[RING] = {NULL};
    for (size_t p = 0; p < np + RING; ++p) {
        if (p >= RING) { /* empty slice p - RING */
            size_t e = p - RING, i = e % RING, f = e * piece;
            size_t n = total - f < piece ? total - f : piece;
            if ((s = tsl__stream_wait(down, ticket[i])) != TSL_OK)
                return call_fail(pc, s, "%s", tsl__stream_error(down));
            if (call_stopped(pc) || hook_enter(pc->h)) {
                *stopped = 1;
                return TSL_OK;
            }
            tsl__copy_job j = {dst, len, pitch, st[i], f, f + n, 1};
            tsl__crew_copy(pc->cr, &j);
            hook_leave(pc->h);
        }
        if (p < np) { /* download slice p */
            size_t i = p % RING, f = p * piece;
            size_t n = total - f < piece ? total - f : piece;
            if ((s = ring_buffer(pc, 1, i, &st[i])) != TSL_OK) return s;
            if ((s = tsl__stream_read(down, mem, f, n, st[i])) != TSL_OK)
                return call_fail(pc, s, "%s", tsl__stream_error(down));
            ticket[i] = tsl__stream_ticket(down);
        }
    }
    return TSL_OK;
}

/* The drain of a whole run: takes each piece once its kernel has completed. */
static void *drain_main(void *arg)
{
    pipe_call *pc = arg;
    int stopped = 0;
    for (size_t q = 0; !stopped && q < tsl__pipe_pieces(&pc->ps->plan); ++q) {
        pthread_mutex_lock(&pc->mu);
        while (!pc->stop && pc->done <= q)
            pthread_cond_wait(&pc->cv, &pc->mu);
        int go = pc->done > q;
        pthread_mutex_unlock(&pc->mu);
        if (!go || take(pc, q, &stopped) != TSL_OK) break;
    }
    if (stopped) call_fail(pc, TSL_ERR_OPENCL, "stopped: the call was abandoned");
    return NULL;
}

/* ---- the kernel loop ------------------------------------------------------------------------- */

/* Waits until the feeder has given piece q's uploads to the queue: bounded by the timeout; the
 * feeder's end, another thread's failure, or the call's abandonment (asked every POLL_MS) ends
 * it. A failure of another thread returns an error whose message the compute replaces. */
static tsl_status wait_piece(pipe_call *pc, size_t q, double timeout_s)
{
    tsl_context *ctx = pc->ps->ctx;
    double end = tsl__now_ms() + timeout_s * 1e3;
    int ready = 0, failed = 0, gone = 0;
    pthread_mutex_lock(&pc->mu);
    for (;;) {
        ready = pc->published > q;
        failed = (pc->feed_done || pc->stop) && !ready;
        if (ready || failed) break;
        double left = end - tsl__now_ms();
        if (left <= 0) break;
        pthread_mutex_unlock(&pc->mu);
        gone = hook_stop(pc->h);
        pthread_mutex_lock(&pc->mu);
        if (gone) break;
        struct timespec dl = tsl__deadline_after_ms(left < POLL_MS ? left : POLL_MS);
        pthread_cond_timedwait(&pc->cv, &pc->mu, &dl);
    }
    pthread_mutex_unlock(&pc->mu);
    if (ready) return TSL_OK;
    if (failed) return tsl__fail(ctx, TSL_ERR_OPENCL, "stopped: the call was abandoned");
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

/* One piece's C = alpha op(A) op(B) + beta C on the device buffers (rows x cols x k). */
static tsl_status piece_gemm(tsl_context *ctx, const tsl__gemm_host *g, size_t rows, size_t cols,
                             const tsl_buffer *pa, size_t lda, const tsl_buffer *pb, size_t ldb,
                             tsl_buffer *pc, size_t ldc)
{
    if (g->cplx && g->dbl) {
        const double al[2] = {g->alpha, g->alpha_im}, be[2] = {g->beta, g->beta_im};
        return tsl_zgemm_buf(ctx, g->layout, g->ta, g->tb, rows, cols, g->k, al, pa, lda, pb, ldb,
                             be, pc, ldc);
    }
    if (g->cplx) {
        const float al[2] = {(float)g->alpha, (float)g->alpha_im};
        const float be[2] = {(float)g->beta, (float)g->beta_im};
        return tsl_cgemm_buf(ctx, g->layout, g->ta, g->tb, rows, cols, g->k, al, pa, lda, pb, ldb,
                             be, pc, ldc);
    }
    if (g->dbl)
        return tsl_dgemm_buf(ctx, g->layout, g->ta, g->tb, rows, cols, g->k, g->alpha, pa, lda, pb,
                             ldb, g->beta, pc, ldc);
    return tsl_sgemm_buf(ctx, g->layout, g->ta, g->tb, rows, cols, g->k, (float)g->alpha, pa, lda,
                         pb, ldb, (float)g->beta, pc, ldc);
}

/* Runs the pieces as the feeder publishes them, and tells the drain of each finished one. */
static tsl_status run_pieces(pipe_call *pc, double timeout_s, tsl_timing *t)
{
    pipe_state *ps = pc->ps;
    const tsl__gemm_host *g = &ps->g;
    const tsl__pipe_plan *p = &ps->plan;
    tsl_context *ctx = ps->ctx;
    int use_ab = tsl__pipe_uses_ab(g);
    tsl_status s = TSL_OK;
    for (size_t q = 0; s == TSL_OK && q < tsl__pipe_pieces(p); ++q) {
        size_t c, j;
        tsl__pipe_piece(p, q, &c, &j);
        if (hook_stop(pc->h)) return abandoned(ctx); /* before a kernel, or its build */
        if ((s = wait_piece(pc, q, timeout_s)) != TSL_OK) break;
        if ((s = tsl__queue_wait_for(ctx, pc->ready[q])) != TSL_OK) break;
        tsl__block ab = tsl__pipe_a(p, g, c), bb = tsl__pipe_b(p, g, j), cb = tsl__pipe_c(p, g, q);
        size_t rows = p->bound[c + 1] - p->bound[c], cols = p->pbound[j + 1] - p->pbound[j];
        size_t lda = max1(ab.slen), ldb = max1(bb.slen), ldc = max1(cb.slen);
        /* C_cj = alpha op(A)_c op(B)_j + beta C_cj, on packed copies (ld = run length) */
        const tsl_buffer *pa = use_ab ? ps->da[c] : ps->dc[q], *pb = use_ab ? ps->db[j] : ps->dc[q];
        s = piece_gemm(ctx, g, rows, cols, pa, lda, pb, ldb, ps->dc[q], ldc);
        if (s != TSL_OK) break;
        add_timing(t, &ctx->timing);
        pthread_mutex_lock(&pc->mu);
        pc->done = q + 1; /* the kernel has completed (gemm_buf waits for it) */
        pthread_cond_broadcast(&pc->cv);
        pthread_mutex_unlock(&pc->mu);
    }
    return s;
}

static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
    return pthread_create(t, NULL, fn, arg) == 0;
}

/* The compute of rows r0..r0+rows-1; with `whole`, the drain writes C too (commit then has
 * nothing to do). */
static tsl_status compute(tsl_context *ctx, const tsl__gemm_host *g, size_t r0, size_t rows,
                          int whole, const tsl__pipe_hooks *h, tsl_timing *t)
{
    if (hook_stop(h)) return abandoned(ctx);
    pipe_state *ps = state_of(ctx);
    if (!ps) return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "the GEMM pipeline: out of host memory");
    tsl_status s = prepare(ps, g, r0, rows);
    if (s != TSL_OK) return s;
    double timeout_s = h && h->timeout_s > 0 ? h->timeout_s : tsl__default_timeout();
    /* An operand that is not staged is read by the upload queue straight from the caller's
     * array until its uploads are done: all of that is one use of the arrays. */
    int use_ab = tsl__pipe_uses_ab(g);
    int lent = (use_ab && (!ps->st_a || !ps->st_b)) || (tsl__pipe_reads_c(g) && !ps->st_c);
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
    tsl__crew cr;
    tsl__crew_start(&cr, ok ? ps->threads : 1, ps->piece);
    pc.cr = &cr;
    pthread_t feeder, drain;
    int fed = ok && start_thread(&feeder, feeder_main, &pc);
    int drained = fed && whole && start_thread(&drain, drain_main, &pc);
    if (!fed || (whole && !drained)) {
        if (fed) {
            call_fail(&pc, TSL_ERR_OUT_OF_MEMORY, "the GEMM pipeline: no drain thread");
            pthread_join(feeder, NULL);
        }
        tsl__crew_stop(&cr);
        tsl__stream_finish(ps->up, NULL);
        if (lent) hook_leave(h);
        if (ok) pthread_mutex_destroy(&pc.mu), pthread_cond_destroy(&pc.cv);
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "the GEMM pipeline: no worker thread");
    }
    s = run_pieces(&pc, timeout_s, t);
    if (s != TSL_OK) call_fail(&pc, s, "%s", tsl_context_error(ctx)); /* the others stop */
    pthread_join(feeder, NULL);
    if (whole) pthread_join(drain, NULL);
    tsl__crew_stop(&cr);
    /* Every transfer ends before the compute does (the caller's arrays may be lent to the upload
     * queue); their profiled times join the kernels'. */
    tsl_status up = tsl__stream_finish(ps->up, t);
    if (lent) hook_leave(h);
    tsl_status down = tsl__stream_finish(ps->down, t);
    if (pc.status != TSL_OK)
        s = tsl__fail(ctx, pc.status, "%s", pc.error);
    else if (up != TSL_OK)
        s = tsl__fail(ctx, up, "%s", tsl__stream_error(ps->up));
    else if (down != TSL_OK)
        s = tsl__fail(ctx, down, "%s", tsl__stream_error(ps->down));
    pthread_mutex_destroy(&pc.mu);
    pthread_cond_destroy(&pc.cv);
    ps->computed = s == TSL_OK && !whole;
    return s;
}

tsl_status tsl__gemm_pipe_compute(tsl_context *ctx, const tsl__gemm_host *g, size_t r0, size_t rows,
                                  const tsl__pipe_hooks *h, tsl_timing *t)
{
    return compute(ctx, g, r0, rows, 0, h, t);
}

tsl_status tsl__gemm_pipe_run(tsl_context *ctx, const tsl__gemm_host *g, const tsl__pipe_hooks *h,
                              tsl_timing *t)
{
    return compute(ctx, g, 0, g->m, 1, h, t);
}

tsl_status tsl__gemm_pipe_commit(tsl_context *ctx, const tsl__pipe_hooks *h, tsl_timing *t)
{
    pipe_state *ps = ctx->ext[EXT_SLOT].ptr;
    if (!ps || !ps->computed)
        return tsl__fail(ctx, TSL_ERR_INVALID_ARG, "the GEMM pipeline: nothing to commit");
    ps->computed = 0;
    pipe_call pc;
    memset(&pc, 0, sizeof pc);
    pc.ps = ps;
    pc.h = h;
    if (pthread_mutex_init(&pc.mu, NULL) != 0)
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "the GEMM pipeline: no mutex");
    if (pthread_cond_init(&pc.cv, NULL) != 0) {
        pthread_mutex_destroy(&pc.mu);
        return tsl__fail(ctx, TSL_ERR_OUT_OF_MEMORY, "the GEMM pipeline: no condition variable");
    }
    tsl__crew cr;
    tsl__crew_start(&cr, ps->st_c ? ps->threads : 1, ps->piece);
    pc.cr = &cr;
    int stopped = 0;
    for (size_t q = 0; !stopped && q < tsl__pipe_pieces(&ps->plan); ++q)
        if (take(&pc, q, &stopped) != TSL_OK) break;
    tsl__crew_stop(&cr);
    tsl_status down = tsl__stream_finish(ps->down, t);
    tsl_status s = TSL_OK;
    if (pc.status != TSL_OK)
        s = tsl__fail(ctx, pc.status, "%s", pc.error);
    else if (stopped)
        s = abandoned(ctx);
    else if (down != TSL_OK)
        s = tsl__fail(ctx, down, "%s", tsl__stream_error(ps->down));
    pthread_mutex_destroy(&pc.mu);
    pthread_cond_destroy(&pc.cv);
    return s;
}
