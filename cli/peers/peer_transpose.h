/* peer_transpose.h: the peers of `tessel transpose`: other out-of-place transposes run on the same
 * host data, so each tessel row is a ratio to them in one run. clblast: CLBlast's omatcopy with
 * transpose on tessel's device and queue; openblas: OpenBLAS's cblas_?omatcopy extension on the
 * host CPU. Results use tsl_peer_result of peers.h (run_ms per timed run, B after the last run).
 * Peers run the transpose once per call: tessel's inner_reps option does not apply to them. */
#ifndef TESSEL_PEER_TRANSPOSE_H
#define TESSEL_PEER_TRANSPOSE_H

#include "peers.h"

/* Row-major B (cols x rows, ldb) = A^T (A rows x cols, lda), host arrays. */
typedef struct {
    tsl_context *ctx; /* tessel's context: OpenCL peers use its device and queue */
    int is_double;
    size_t rows, cols;
    const void *a;
    size_t lda, ldb;
    unsigned warmup, repeat; /* repeat >= 1 */
} tsl_peer_transpose_args;

size_t tsl_peer_transpose_count(void);
const char *tsl_peer_transpose_name(size_t index); /* NULL past the end */
/* Runs the named peer; res->run_ms (repeat entries) and res->c (cols * ldb elements) are the
 * caller's. An unknown name is TSL_PEER_ERROR. */
void tsl_peer_transpose(const char *name, const tsl_peer_transpose_args *args,
                        tsl_peer_result *res);

#endif
