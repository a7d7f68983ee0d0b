/* runtime.h: the internal interface of tessel's OpenCL plumbing. Nothing here knows what an
 * operation is: it discovers devices, owns the context and its profiling queue, builds programs
 * (through the on-disk binary cache), moves bytes, launches kernels and turns every OpenCL status
 * into a tsl_status with a message naming the call and the error. The ops layer sits on top. */
#ifndef TSL_RUNTIME_H
#define TSL_RUNTIME_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdarg.h>
#include <stddef.h>
#include <time.h>

#include "tessel.h"
#include "tessel_cl.h"

#define TSL__MAX_OPS 16
#define TSL__MAX_PROGRAMS 64
#define TSL__MAX_EVENTS 64
#define TSL__WORKSPACES 12
#define TSL__SIDE_QUEUES 3 /* side queues a call may run kernels on beside the context's (side.c) */
#define TSL__EXT_SLOTS 4

/* Where a profiled event's time is booked in tsl_timing. */
typedef enum { TSL__EV_UPLOAD, TSL__EV_KERNEL, TSL__EV_DOWNLOAD } tsl__event_kind;

typedef struct {
    char key[512];      /* source name + build options */
    cl_program program;
    cl_kernel kernels[4];
    char kernel_names[4][48];
    int nkernels;
} tsl__program_entry;

struct tsl_context {
    cl_platform_id platform;
    cl_device_id device;
    cl_context cl;
    cl_command_queue queue; /* where commands go: main_q, or a side queue (side.c) */
    cl_command_queue main_q, side[TSL__SIDE_QUEUES];
    int ws_base; /* the current queue's first workspace slot (each queue has its own) */
    int sharing; /* queues running at once between tsl__side_fork and _join (else 0) */
    cl_event mark; /* tsl__side_mark's point, until the join (else NULL) */
    tsl_device_info info;
    char cache_dir[1024]; /* "" when no usable cache directory */
    char error[2048];
    char build_log[8192];
    tsl_timing timing;
    cl_event events[TSL__MAX_EVENTS];
    tsl__event_kind event_kinds[TSL__MAX_EVENTS];
    int nevents;
    /* TESSEL_TRACE=2: what each tracked command was (a launch's label, set by tsl__launch just
     * before it is tracked), printed with its device time when the event is booked */
    char event_labels[TSL__MAX_EVENTS][128];
    char launch_label[128];
    cl_ulong kernel_end;   /* the latest end of a kernel booked in this call (context.c, book) */
    cl_ulong trace_origin; /* TESSEL_TRACE=3: the first booked command's start, times are after it */
    double last_launch_ms; /* TESSEL_TRACE=3: when the host last enqueued a kernel */
    tsl__program_entry programs[TSL__MAX_PROGRAMS];
    int nprograms;
    struct { char op[16]; char variant[256]; } variants[TSL__MAX_OPS];
    int nvariants;
    struct { char op[16]; char name[24]; long value; } options[TSL__MAX_OPS * 4];
    int noptions;
    struct { void *ptr; cl_mem mem; } pinned[16]; /* tsl_host_alloc's mapped buffers */
    struct { cl_mem mem; size_t size; } workspace[TSL__WORKSPACES * (1 + TSL__SIDE_QUEUES)];
    /* scratch for pre-passes: TSL__WORKSPACES slots per queue */
    struct { cl_mem mem; size_t size; } counters; /* tsl__counters: ints kept at zero */
    char warning[1024];            /* tsl_context_warning: "" if none */
    int nv_cc;                     /* tsl__nv_compute_capability, queried once at creation */
    int sm90a_refused;             /* a patched sm_90a program failed here (program.c) */
    unsigned long nv_registers;    /* tsl__device_registers, queried once at creation */
    int trace_level;               /* tsl__trace_level at creation: launches label events */
    /* State a layer above keeps per context, made on its first use, opaque here: the runtime
     * never looks inside, it only releases each slot, first thing when the context is destroyed.
     * Slot 0: the tuning database (src/tune/db.c); slot 1: the GEMM pipeline's buffers, staging
     * and queues (src/pipeline/gemm_pipeline.c). */
    struct { void *ptr; void (*release)(void *ptr); } ext[TSL__EXT_SLOTS];
};

struct tsl_buffer {
    tsl_context *ctx;
    cl_mem mem;
    size_t size;
};

/* ---- allocation: every heap allocation of the library goes through these ----------------- */
void *tsl__malloc(size_t bytes);
void *tsl__calloc(size_t count, size_t size);
void tsl__free(void *p);

/* ---- errors ------------------------------------------------------------------------------- */
/* Records a formatted message in ctx (or the thread's last error when ctx is NULL), returns s. */
tsl_status tsl__fail(tsl_context *ctx, tsl_status s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Maps an OpenCL status to a tsl_status and records "CALL failed: CL_NAME (what)". */
tsl_status tsl__cl_fail(tsl_context *ctx, const char *call, cl_int err, const char *what);
const char *tsl__cl_error_name(cl_int err);
void tsl__clear_error(tsl_context *ctx);
/* Records a warning in ctx (tsl_context_warning): the first one kept, later ones appended, "; "
 * apart, while there is room. Warnings are never errors (an ignored tuning file, ...). */
void tsl__warn(tsl_context *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- start-up trace (trace.c): TESSEL_TRACE=1 prints each step's time on stderr ------------- */
double tsl__now_ms(void); /* CLOCK_MONOTONIC in milliseconds */
/* CLOCK_MONOTONIC ms milliseconds from now, as pthread_cond_timedwait takes it (condition
 * variables made with pthread_condattr_setclock(CLOCK_MONOTONIC)). */
struct timespec tsl__deadline_after_ms(double ms);
int tsl__tracing(void);
/* TESSEL_TRACE's level: 0 unset, 1 start-up and builds, 2 also every command's device time */
int tsl__trace_level(void);
/* Prints "tessel: trace: <now - since_ms> ms  <what>" when tracing, else nothing. */
void tsl__trace(double since_ms, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- devices ------------------------------------------------------------------------------ */
tsl_status tsl__device_info(cl_platform_id p, cl_device_id d, int pi, int di, tsl_device_info *out);
/* Resolves a device spec (docs/design.md, "Device selection") to a platform and device. */
tsl_status tsl__find_device(const char *spec, cl_platform_id *p, cl_device_id *d,
                            tsl_device_info *info);
/* Every device spec matches, in index order (the first `cap` into list); an empty spec (and no
 * $TESSEL_DEVICE) matches every GPU, or every device when there is none. Returns the count. */
int tsl__matching_devices(const char *spec, tsl_device_info *list, int cap);

/* ---- per-call timing ---------------------------------------------------------------------- */
void tsl__timing_begin(tsl_context *ctx); /* zeroes the breakdown; call at the start of an op */
/* Keeps ev to be timed at tsl__timing_end (takes ownership). Too many events: waits and books. */
void tsl__track_event(tsl_context *ctx, cl_event ev, tsl__event_kind kind);
/* Waits for the queue, books every tracked event into ctx->timing, releases them. */
tsl_status tsl__timing_end(tsl_context *ctx);

/* ---- side queues (side.c): kernels of one call that may run at once ------------------------
 * A call forks n side queues (n <= TSL__SIDE_QUEUES; made on first use, profiling on), each of
 * which starts after everything queued so far; tsl__side_use(ctx, i) sends the commands that
 * follow to side queue i (-1: the context's own), with its own workspace slots; tsl__side_join
 * makes the context's queue wait for every side queue's commands and sends commands to it again.
 * Independent work given to different queues can share the device (NVIDIA's OpenCL runs kernels
 * of different queues at once, not of one out-of-order queue). Every fork is joined, also after
 * an error. The call's kernel time is the device time in which any of its kernels ran. */
tsl_status tsl__side_fork(tsl_context *ctx, int n);
/* As tsl__side_fork, where the last `light` of the n side queues run only a few small launches:
 * they do not count as sharing the device (tsl__device_sharing). */
tsl_status tsl__side_fork_light(tsl_context *ctx, int n, int light);
void tsl__side_use(tsl_context *ctx, int i);
tsl_status tsl__side_join(tsl_context *ctx, int n);
/* A point on the current queue (what it has been given so far) that commands given to other
 * queues afterwards can wait for: tsl__side_mark sets it (one at a time, until the join);
 * tsl__side_wait makes the current queue wait for it (no mark: nothing to wait for). */
tsl_status tsl__side_mark(tsl_context *ctx);
tsl_status tsl__side_wait(tsl_context *ctx);
/* How many queues share the device now (1 outside a fork): a launch's work-groups are then one
 * part of what runs, and GEMM does not split k (the other queues fill the device). */
int tsl__device_sharing(const tsl_context *ctx);

/* ---- programs (cached in memory per context, and on disk across processes) ---------------- */
/* Returns the kernel `name` of source file `source` ("gemm.cl") built with `options`. The
 * context owns the kernel. Build time (compile or load from the disk cache) is added to
 * ctx->timing.build_ms. */
tsl_status tsl__get_kernel(tsl_context *ctx, const char *source, const char *options,
                           const char *name, cl_kernel *out);
/* The same for a program whose sm_90a instructions hide behind TSL__PTX_MARKER (ptx.c): built
 * from source, its PTX patched (markers removed, target sm_90a, the .shared array of shared_from
 * bytes declared shared_to: 0, none) and built again from that text; the disk cache keeps the
 * patched PTX. TSL_ERR_UNSUPPORTED, with no error set, when the device or the patch refuses it:
 * the context then remembers that (sm90a_refused: every later call answers the same at once), the
 * reason goes to the trace, and the caller runs another path. */
tsl_status tsl__get_kernel_sm90a(tsl_context *ctx, const char *source, const char *options,
                                 size_t shared_from, size_t shared_to, const char *name,
                                 cl_kernel *out);
/* Text of an embedded kernel file, NULL if there is none of that name. */
const char *tsl__kernel_source(const char *name, size_t *len);

/* ---- on-disk binary cache ------------------------------------------------------------------ */
void tsl__cache_dir_init(tsl_context *ctx);
/* Loads the binary stored for key; 0 and a tsl__malloc'ed *data on success, -1 when absent or
 * unusable (a corrupt entry is treated as absent). */
int tsl__cache_load(const tsl_context *ctx, const char *key, unsigned char **data, size_t *len);
void tsl__cache_store(const tsl_context *ctx, const char *key, const unsigned char *data, size_t len);
unsigned long long tsl__hash64(const void *data, size_t len, unsigned long long seed);

/* ---- memory and transfers ------------------------------------------------------------------ */
tsl_status tsl__mem_create(tsl_context *ctx, size_t bytes, cl_mem *out, const char *what);
/* A scratch buffer of at least `bytes`, slot 0..TSL__WORKSPACES-1, kept by the context (the
 * current queue's own: a side queue's commands never share scratch with another queue's). */
tsl_status tsl__workspace(tsl_context *ctx, int slot, size_t bytes, cl_mem *out);
/* At least `count` ints of device memory, zero when made, which the kernels that count in them
 * (level3.cl, l3_tri_inv_fused) leave at zero when they end: one buffer per context. */
tsl_status tsl__counters(tsl_context *ctx, size_t count, cl_mem *out);
/* Page-locked host memory: a CL_MEM_ALLOC_HOST_PTR buffer mapped through queue. Returns
 * CL_SUCCESS, or the error of the call named in *call with nothing left allocated (*ptr and *mem
 * NULL). unmap waits for queue, since the memory must not go while
 * a transfer reads it, then releases the buffer. */
cl_int tsl__pinned_map(cl_context cl, cl_command_queue queue, size_t bytes, void **ptr, cl_mem *mem,
                       const char **call);
void tsl__pinned_unmap(cl_command_queue queue, cl_mem mem, void *ptr);
/* Unmaps and releases the pinned host blocks (tsl_host_alloc) the caller did not free. */
void tsl__pinned_release_all(tsl_context *ctx);
/* Copies a rows x row_bytes block from host (rows host_pitch bytes apart) into mem, packed
 * (rows row_bytes apart), starting at byte 0. Tracked as upload. */
tsl_status tsl__upload_rect(tsl_context *ctx, cl_mem mem, const void *host, size_t rows,
                            size_t row_bytes, size_t host_pitch);
/* The reverse: packed device rows into host rows host_pitch bytes apart. Blocks until done. */
tsl_status tsl__download_rect(tsl_context *ctx, cl_mem mem, void *host, size_t rows,
                              size_t row_bytes, size_t host_pitch);
/* rows x row_bytes of mem from its row row0, byte byte0 of the row (rows dev_pitch bytes apart)
 * into host rows host_pitch bytes apart. Blocks until done. */
tsl_status tsl__download_block(tsl_context *ctx, cl_mem mem, size_t row0, size_t byte0,
                               size_t dev_pitch, void *host, size_t host_pitch, size_t rows,
                               size_t row_bytes);
/* bytes at byte offset of mem from / to contiguous host memory; both block until done and are
 * tracked as upload / download (a strip's halo rows, multi/group.h). */
tsl_status tsl__write_at(tsl_context *ctx, cl_mem mem, size_t offset, size_t bytes,
                         const void *host);
tsl_status tsl__read_at(tsl_context *ctx, cl_mem mem, size_t offset, size_t bytes, void *host);
/* tsl__write_at without waiting: the host memory must stay untouched until the queue has run the
 * write (a later blocking command or tsl__timing_end on the context says so). */
tsl_status tsl__write_at_async(tsl_context *ctx, cl_mem mem, size_t offset, size_t bytes,
                               const void *host);
/* Hands every command queued so far to the device (clFlush): a kernel queued before the host
 * blocks on another queue runs meanwhile, rather than when this queue is next flushed. */
tsl_status tsl__queue_flush(tsl_context *ctx);

/* ---- transfer streams (stream.c): a second queue whose commands overlap the context's ---------
 * Non-blocking transfers on a queue of their own, each tracked until tsl__stream_finish. Errors
 * go to the stream's own message (tsl__stream_error), so another thread than the context's may
 * drive it; the host memory of a transfer must stay untouched until the stream is finished. */
typedef struct tsl__stream tsl__stream;
tsl_status tsl__stream_create(tsl_context *ctx, tsl__stream **out);
void tsl__stream_destroy(tsl__stream *s); /* waits for its commands; NULL is a no-op */
const char *tsl__stream_error(const tsl__stream *s);
tsl_status tsl__stream_write(tsl__stream *s, cl_mem mem, size_t offset, size_t bytes,
                             const void *host);
tsl_status tsl__stream_read(tsl__stream *s, cl_mem mem, size_t offset, size_t bytes, void *host);
/* tsl__upload_rect / tsl__download_rect on the stream: packed device rows from or to host rows
 * host_pitch bytes apart, without waiting. */
tsl_status tsl__stream_write_rect(tsl__stream *s, cl_mem mem, const void *host, size_t rows,
                                  size_t row_bytes, size_t host_pitch);
tsl_status tsl__stream_read_rect(tsl__stream *s, cl_mem mem, void *host, size_t rows,
                                 size_t row_bytes, size_t host_pitch);
/* An event that completes when every command given to the stream so far has (a marker); valid
 * until tsl__stream_finish. */
tsl_status tsl__stream_mark(tsl__stream *s, cl_event *out);
/* The context's queue runs nothing more until ev has completed; the host does not wait. */
tsl_status tsl__queue_wait_for(tsl_context *ctx, cl_event ev);
/* The reverse: the stream runs nothing more until every command given to the context's queue so
 * far has completed (a marker there, flushed, and a barrier on the stream); the host does not
 * wait. Only the thread that uses the context's queue may call it. */
tsl_status tsl__stream_follow(tsl__stream *s);
/* The number of commands given to the stream so far: the ticket of the last one (0: none). */
unsigned long long tsl__stream_ticket(const tsl__stream *s);
/* Waits until the command of the ticket (and so, the queue being in order, every earlier one) has
 * completed, and books and releases the transfers among them; markers stay until finish. A
 * ticket already waited for returns at once. */
tsl_status tsl__stream_wait(tsl__stream *s, unsigned long long ticket);
/* Pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped through the stream's own queue), for staging
 * that one thread allocates while another uses the context's queue; free it with the same stream
 * before the stream goes. */
tsl_status tsl__stream_host_alloc(tsl__stream *s, size_t bytes, void **ptr, cl_mem *mem);
void tsl__stream_host_free(tsl__stream *s, void *ptr, cl_mem mem); /* mem NULL: a no-op */
/* Waits for every command of the stream, adds their profiled upload and download times (those
 * booked by tsl__stream_wait since the last finish included) to *add (when not NULL) and releases
 * their events. */
tsl_status tsl__stream_finish(tsl__stream *s, tsl_timing *add);

/* ---- launches ------------------------------------------------------------------------------ */
/* Sets args from a list: each entry a size and a pointer, as clSetKernelArg takes them. */
typedef struct { size_t size; const void *value; } tsl__arg;
tsl_status tsl__launch(tsl_context *ctx, cl_kernel k, const char *what, const tsl__arg *args,
                       int nargs, cl_uint dims, const size_t *global, const size_t *local);
/* Largest work-group the built kernel allows on the context's device. */
size_t tsl__kernel_max_wg(tsl_context *ctx, cl_kernel k);

/* NVIDIA's compute capability as 10 major + minor (90 for sm_90) through
 * cl_nv_device_attribute_query; 0 on other devices. The query runs once, when the context is
 * made (the tuner asks for every point of its space); the other returns what it found. */
int tsl__nv_query_compute_capability(const tsl_context *ctx);
int tsl__nv_compute_capability(const tsl_context *ctx);

/* Architecture name for the tuning database, "" when the device does not say: NVIDIA's compute
 * capability ("sm_90", cl_nv_device_attribute_query), AMD's graphics IP ("gfx90",
 * cl_amd_device_attribute_query), PoCL's LLVM CPU name ("haswell"). Registers per work-group
 * where the vendor reports them, else 0. */
void tsl__device_arch(const tsl_context *ctx, char *out, size_t cap);
unsigned long tsl__device_registers(const tsl_context *ctx);
/* The query behind it (three clGetDeviceInfo calls), made once when the context is created:
 * split k's model asks on every GEMM call, the tuner's pruning for every point. */
unsigned long tsl__device_query_registers(const tsl_context *ctx);
/* mkdir -p; 0 when dir is a directory afterwards. */
int tsl__make_dirs(const char *dir);

/* ptx.c: the sm_90a patch of a program's PTX. TSL__PTX_MARKER starts each sm_90a-only
 * instruction in a kernel's inline assembly (a PTX comment for the sm_90 build); the patch removes
 * every marker, makes `.target sm_90` `.target sm_90a` and, where shared_to is not 0, declares the
 * one `.shared` array of shared_from bytes (its `.b8` elements) with shared_to (at most
 * TSL__PTX_SHARED_MAX). 0 and *out (malloc'd, the caller frees) on success; -1, *out NULL and the
 * reason in why otherwise. */
#define TSL__PTX_MARKER "//@"
#define TSL__PTX_SHARED_MAX 232448
int tsl__ptx_patch(const char *ptx, size_t shared_from, size_t shared_to, char **out, char *why,
                   size_t why_len);

/* ---- per-op variant choice (stored here; ops validate names) -------------------------------- */
const char *tsl__context_variant(const tsl_context *ctx, const char *op); /* "auto" if unset */
tsl_status tsl__context_store_variant(tsl_context *ctx, const char *op, const char *variant);
/* Per-op numeric options (tsl_context_set_option); `fallback` when unset. Ops validate values. */
long tsl__context_option(const tsl_context *ctx, const char *op, const char *name, long fallback);
tsl_status tsl__context_store_option(tsl_context *ctx, const char *op, const char *name, long value);

#endif
