/* gemm_pipe_plan.h: the plan of the host-memory GEMM pipeline (pipeline/gemm_pipe_plan.c), apart from
 * its threads and transfers (pipeline/gemm_pipeline.c): the knobs it reads from the environment, how
 * a block of rows of C is cut into row chunks and column panels, where each piece of A, B and C
 * lies in the caller's arrays, and the model that decides whether the single-device host path
 * runs the pipeline (tsl__gemm_pipe_pays, declared in gemm_pipeline.h). */
#ifndef TSL_OPS_GEMM_PIPE_PLAN_H
#define TSL_OPS_GEMM_PIPE_PLAN_H

#include <stddef.h>

#include "pipeline/gemm_pipeline.h"
#include "multi/group.h"

#define TSL__PIPE_PIECES (TSL__PIPE_CHUNKS * TSL__PIPE_PANELS)

/* A block of rows r0..r0+rows-1 of C cut into nchunks x npanels pieces: chunk c is rows
 * bound[c]..bound[c+1]-1 of the block (and of op(A)'s block), panel j columns
 * pbound[j]..pbound[j+1]-1 of C (and of op(B)). Pieces are numbered in the order in which the
 * feeder uploads, the kernels run and the drain downloads them: piece q is chunk chunk_of[q] x
 * panel panel_of[q] (gemm_pipe_plan.c says why in that order). */
typedef struct {
    size_t r0, rows;
    size_t nchunks, npanels;
    size_t bound[TSL__PIPE_CHUNKS + 1];
    size_t pbound[TSL__PIPE_PANELS + 1];
    unsigned char chunk_of[TSL__PIPE_PIECES], panel_of[TSL__PIPE_PIECES];
} tsl__pipe_plan;

/* A whole number from the environment within [lo, hi], else fallback: $name, or its older name
 * (NULL: none). */
size_t tsl__pipe_env(const char *name, const char *old, size_t lo, size_t hi, size_t fallback);
int tsl__pipe_is_cpu(const tsl_context *ctx);
/* Whether op(A) op(B) is read at all (k > 0, alpha != 0); if not, C = beta C in one piece. */
int tsl__pipe_uses_ab(const tsl__gemm_host *g);
size_t tsl__pipe_elem(const tsl__gemm_host *g); /* bytes of an element */
int tsl__pipe_reads_c(const tsl__gemm_host *g);  /* beta != 0 (real or complex) */

/* The plan of rows r0..r0+rows-1 of g's C on ctx's device. */
void tsl__pipe_plan_make(const tsl_context *ctx, const tsl__gemm_host *g, size_t r0, size_t rows,
                         tsl__pipe_plan *p);
static inline size_t tsl__pipe_pieces(const tsl__pipe_plan *p)
{
    return p->nchunks * p->npanels;
}
/* Piece q's chunk and panel. */
static inline void tsl__pipe_piece(const tsl__pipe_plan *p, size_t q, size_t *c, size_t *j)
{
    *c = p->chunk_of[q];
    *j = p->panel_of[q];
}

/* Where the pieces lie in the caller's arrays (tsl__block: runs of the stored matrix): chunk c
 * of op(A) (all k columns), panel j of op(B) (all k rows), and piece q of C. Packed on the
 * device with the run length as leading dimension, each is the operand of its piece's GEMM in
 * the caller's layout and transposes. */
tsl__block tsl__pipe_a(const tsl__pipe_plan *p, const tsl__gemm_host *g, size_t c);
tsl__block tsl__pipe_b(const tsl__pipe_plan *p, const tsl__gemm_host *g, size_t j);
tsl__block tsl__pipe_c(const tsl__pipe_plan *p, const tsl__gemm_host *g, size_t q);

#endif
