/* dist.h: tessel across hosts through MPI (docs/multi-device.md), the layer behind
 * `tessel gemm --distributed` and `tessel poisson --distributed`. Built only where CMake finds
 * MPI (TESSEL_HAVE_MPI) and linked only into the tessel command: libtessel itself never needs
 * MPI. Its calls mirror the group's of tessel.h (multi/group.c), with ranks in place of devices:
 * each rank drives one device, picked by its rank on its host among the devices a spec matches;
 * rows are split by the same weights; the data lives on rank 0, which sends each rank its part
 * and gathers the results.
 *
 * Every call is collective: all ranks make the same calls in the same order with the same scalar
 * arguments (the arrays only matter on rank 0). Every wait is a nonblocking MPI operation polled
 * with a timeout, so a rank that hangs or is gone is named, never waited for forever. A failure
 * on rank 0 is returned (the caller reports it, then calls tsl_dist_abort); a failure on another
 * rank is sent to rank 0, which returns it from its next wait, and that rank then waits to be
 * stopped (it aborts the job itself after the timeout). A rank that crashes (a fatal signal)
 * prints one error line naming itself and exits with code 3. */
#ifndef TSL_DIST_H
#define TSL_DIST_H

#include <stddef.h>

#include "tessel.h"

typedef struct tsl_dist tsl_dist;

/* Starts MPI (unless the program did), picks this rank's device among those device_spec
 * matches (tsl__matching_devices: all GPUs for an empty spec) by its rank on the host, and
 * exchanges the devices' descriptions. On failure *out is NULL and err says why. */
tsl_status tsl_dist_create(const char *device_spec, double timeout_s, tsl_dist **out, char *err,
                           size_t cap);
int tsl_dist_rank(const tsl_dist *d);
int tsl_dist_size(const tsl_dist *d);
/* Ranks on one host that share a device (more ranks there than matching devices); 0 if none. */
int tsl_dist_shared(const tsl_dist *d);
tsl_context *tsl_dist_context(tsl_dist *d); /* this rank's */
/* The device of rank r. */
const tsl_device_info *tsl_dist_device(const tsl_dist *d, int r);
const char *tsl_dist_error(const tsl_dist *d);
/* Rank 0's note on the last call that did not fail it, "" if none (tsl_group_warning's). */
const char *tsl_dist_warning(const tsl_dist *d);

/* tsl_group_set_weights / tsl_group_weights with ranks for devices (count = tsl_dist_size). */
tsl_status tsl_dist_set_weights(tsl_dist *d, tsl_weights how, const double *weights, size_t count);
tsl_status tsl_dist_weights(tsl_dist *d, const char *op, int is_double, double *weights,
                            size_t count);

/* GEMM, CBLAS semantics, rows of C split across the ranks (1D row distribution, B sent to every
 * rank that has rows, by a binomial tree); a, b and c are read and written on rank 0 only. */
tsl_status tsl_dist_gemm(tsl_dist *d, int is_double, tsl_layout layout, tsl_trans transa,
                         tsl_trans transb, size_t m, size_t n, size_t k, double alpha,
                         const void *a, size_t lda, const void *b, size_t ldb, double beta, void *c,
                         size_t ldc);
/* tsl_[sd]poisson split into row strips, halo rows exchanged with the neighbouring ranks; f and
 * u on rank 0. Every rank with rows must own at least as many rows as the halo is deep. */
tsl_status tsl_dist_poisson(tsl_dist *d, int is_double, size_t n, const void *f, void *u,
                            int max_iters, double tol, tsl_poisson_info *info);
/* What the last call did per rank (gathered on rank 0; other ranks see their own part only). */
tsl_status tsl_dist_timing(const tsl_dist *d, tsl_group_times *times, tsl_group_part *parts,
                           size_t cap);

/* MPI_Abort with code: stops every rank. */
void tsl_dist_abort(tsl_dist *d, int code) __attribute__((noreturn));
/* MPI_Finalize and free. */
void tsl_dist_finish(tsl_dist *d);

#endif
