/* group.h: the internal interface of the multi-device layer (docs/multi-device.md). A group
 * (multi/group*.c) drives several devices of one host with one thread per device; the MPI layer
 * (src/multi) drives one device per rank. Both split work the same way, so what they share is
 * here: a Poisson grid's row strip on one device (defined in ops/poisson.c, whose solver it is),
 * where a row block of a GEMM operand sits in the caller's storage, the split of rows by
 * weights, the per-device calibration behind the default weights, the timeout every wait is
 * bounded by, and the fault-injection hook of the tests. */
#ifndef TSL_OPS_GROUP_H
#define TSL_OPS_GROUP_H

#include <stddef.h>

#include "runtime/runtime.h"

/* ---- Poisson strips (ops/poisson.c) ----------------------------------------------------------
 * A strip is `rows` consecutive rows of an n x n grid (h = 1/(n-1)) on one device: the rows it
 * owns (local rows own_lo..own_hi, interior rows of the grid) and up to `halo` rows above and
 * below them that are either the grid's boundary or rows other strips own. After every launch
 * the strip's comm brings the halo rows of the new iterate up to date, in two calls:
 * comm->publish starts reading the owned rows the neighbours need (tsl__strip_read_begin),
 * comm->complete waits for those reads (tsl__strip_read_wait), trades rows with the neighbours
 * and writes every halo row that is not the grid's boundary (tsl__strip_write_halo).
 * comm->reduce_max turns the strip's residual over its owned rows into the max over all strips.
 *
 * How a launch runs (tsl__strip_iterate decides, for the whole iteration): serially, one launch
 * updates local rows 1..rows-2, halo rows included, then publish and complete; or overlapped,
 * when the strip owns more rows than edge_top + edge_bottom (and $TESSEL_POISSON_OVERLAP is not
 * 0): launches of the edge_top first and edge_bottom last owned rows (the rows publish reads;
 * 0 where no strip lies on that side), publish, whose reads then run on a second queue beside
 * the launch of the owned rows between the edges, then complete, whose halo writes are queued
 * behind that launch. Either way each strip computes bit for bit what the whole grid on one
 * device computes on its rows. */
typedef struct tsl__strip tsl__strip;
typedef struct {
    tsl_status (*publish)(void *user, tsl__strip *s);
    tsl_status (*complete)(void *user, tsl__strip *s);
    tsl_status (*reduce_max)(void *user, double local, double *global);
    void *user;
    size_t edge_top, edge_bottom; /* owned rows at each end that publish reads */
} tsl__strip_comm;

/* The halo depth the context's Poisson variant needs between exchanges: K for temporal_K (one
 * launch does K sweeps), else 1. TSL_ERR_INVALID_ARG for an unknown variant. */
tsl_status tsl__poisson_halo(tsl_context *ctx, int *halo);
/* max |f| over the interior columns of `count` rows of n points (the stopping threshold's
 * scale; f_rows points at the first of them). */
double tsl__poisson_fmax(int dbl, size_t n, const void *f_rows, size_t count);
/* Uploads f and u (rows x n values, row-major) into the context's scratch grids and sets the
 * strip up; fn names the caller in messages. The strip uses the context's Poisson variant. */
tsl_status tsl__strip_open(tsl_context *ctx, const char *fn, int dbl, size_t n, size_t rows,
                           size_t own_lo, size_t own_hi, const void *f, const void *u,
                           tsl__strip **out);
/* tsl_[sd]poisson's iteration (tol, check_every, max_iters) on the strip. */
tsl_status tsl__strip_iterate(tsl__strip *s, const tsl__strip_comm *comm, int max_iters, double tol,
                              double threshold, int need_res, int *done, double *res);
/* count local rows from `row` of the current iterate to / from host (count * n values). */
tsl_status tsl__strip_read(tsl__strip *s, size_t row, size_t count, void *host);
tsl_status tsl__strip_write(tsl__strip *s, size_t row, size_t count, const void *host);
/* The exchange's transfers (comm->publish and comm->complete only). Serially they are
 * tsl__strip_read and tsl__strip_write. Overlapped, read_begin queues the read on the strip's
 * second queue and read_wait waits for the reads begun; write_halo queues the write behind the
 * interior launch and returns at once: its host rows must stay untouched until the strip's next
 * tsl__strip_read_wait has returned (the queue is in order: that read follows the next launch,
 * which follows the write) or tsl__strip_iterate has returned. */
tsl_status tsl__strip_read_begin(tsl__strip *s, size_t row, size_t count, void *host);
tsl_status tsl__strip_read_wait(tsl__strip *s);
tsl_status tsl__strip_write_halo(tsl__strip *s, size_t row, size_t count, const void *host);
void tsl__strip_close(tsl__strip *s); /* NULL is a no-op */

/* ---- GEMM row blocks -------------------------------------------------------------------------
 * Rows r0..r0+rows-1 of op(X), where op(X) has `cols` columns and X is stored by layout with
 * leading dimension ld, are `srows` runs of `slen` contiguous elements, ld apart, starting
 * `offset` elements into X: row-major X or column-major X^T keep op(X)'s rows as runs; the other
 * two cases keep its columns as runs. Used for A (and C, trans = TSL_NO_TRANS) split by rows
 * and for B whole (r0 = 0, rows = k). */
typedef struct {
    size_t offset, srows, slen;
} tsl__block;
tsl__block tsl__row_block(tsl_layout layout, tsl_trans trans, size_t r0, size_t rows, size_t cols,
                          size_t ld);

/* ---- splitting and weights ------------------------------------------------------------------ */

/* rows[i] ~ total * w[i] / sum(w): the cumulative shares are rounded, so the rows add up to
 * total and each is within one row of its share; a device of weight 0 gets 0 rows. w[i] >= 0,
 * sum > 0. */
void tsl__split_rows(size_t total, const double *w, size_t count, size_t *rows);
/* The throughput of the context's device on op ("gemm": GFLOP/s of a square GEMM; "poisson":
 * million points swept per second), measured by a short run of the op itself with the
 * context's variant: GEMM of 2048^3 on a GPU, 512^3 on other devices (after one untimed call,
 * the fastest of three timed calls); Jacobi on a 2049^2 grid on a GPU, 257^2 elsewhere, 20
 * sweeps (after one untimed solve, one timed).
 * Kernel time from profiling events. stop (may be NULL) is asked before each run; when it
 * returns nonzero the calibration ends with an error. Callers fall back to
 * tsl__compute_unit_weight when it fails (docs/multi-device.md). */
tsl_status tsl__calibrate(tsl_context *ctx, const char *op, int dbl, int (*stop)(void *),
                          void *stop_arg, double *score);
/* 004's weight: compute units x clock (MHz), compute units alone when the clock is unknown. */
double tsl__compute_unit_weight(const tsl_device_info *info);

/* ---- waits and faults ----------------------------------------------------------------------- */

#define TSL__DEFAULT_TIMEOUT_S 600.0
/* Seconds a wait may last before the device (or rank) it waits for counts as failed:
 * $TESSEL_TIMEOUT when it is a number > 0, else TSL__DEFAULT_TIMEOUT_S. */
double tsl__default_timeout(void);
/* The test hook: the index that the environment variable var ("TESSEL_FAULT_DEVICE",
 * "TESSEL_FAULT_RANK") names, -1 when unset or not a number; *mode is 0 for "I" (fail with an
 * OpenCL error), 1 for "I:hang" (stop answering), 2 for "I:exit" (the process dies; ranks),
 * 3 for "I:calibrate" (fail during the calibration only), 4 for "I:calibrate-hang" (stop
 * answering during the calibration only; devices), 5 for "I:late" (fail after its part, before
 * its results go to rank 0; ranks), 6 for "I:kill" (the process kills itself with SIGKILL;
 * ranks). */
int tsl__fault_target(const char *var, int *mode);

#endif
