/* lapack_cli.h: what `tessel lapack` (cmd_lapack.c) shares with its checks (lapack_verify.c) and
 * its peers (lapack_peers.c): the routines, one problem's shapes and host arrays, LAPACK's flop
 * counts and test ratios, and the same call by a peer: the LAPACK that OpenBLAS carries, or
 * cuSOLVER. */
#ifndef TESSEL_CLI_LAPACK_H
#define TESSEL_CLI_LAPACK_H
#include <stddef.h>

#include "peers.h"
#include "tessel.h"

typedef enum {
    LC_GETRF,
    LC_GETRS,
    LC_GESV,
    LC_POTRF,
    LC_POTRS,
    LC_POSV,
    LC_GEQRF,
    LC_ORMQR,
    LC_GELS,
    LC_DSGESV,
    LC_DSPOSV,
    LC_NOPS
} lc_op;

extern const char *const lc_op_names[LC_NOPS];

/* The call's arguments besides the arrays. */
typedef struct {
    lc_op op;
    int dbl;
    size_t es;
    tsl_layout lay;
    tsl_uplo uplo;
    tsl_trans trans;
    tsl_side side;
} lc_args;

/* One problem: A ar x ac (lda), B (C for ormqr; B then X's room for gels) br x bc (ldb), X of
 * dsgesv and dsposv n x nrhs (ldb). Arrays hold the precision's elements. araw: the matrix the
 * routine factors or whose factors it reads, in double (ormqr: the reflectors' source). */
typedef struct {
    size_t m, n, k, nrhs;
    size_t ar, ac, lda, br, bc, ldb;
    void *a0, *b0;     /* the inputs of every run (getrs, potrs, ormqr: A's factors) */
    void *a, *b, *x;   /* the last run's outputs */
    int *ipiv0, *ipiv; /* getrs's input pivots; the factorization's output */
    void *tau0, *tau;  /* ormqr's input; geqrf's output */
    double *araw;
    int info, iter;
} lc_case;

/* Elements of the arrays. */
size_t lc_a_elems(const lc_case *c);
size_t lc_b_elems(const lc_case *c);
/* LAPACK's flop count of the call (mults and adds). */
double lc_flops(const lc_args *g, const lc_case *c);
/* The LAPACK test ratio of the last run's outputs (docs/lapack.md, "tessel lapack"): residuals
 * scaled by the order, the norms and eps, on random probe vectors for the factorizations. NaN
 * when out of host memory. */
double lc_ratio(const lc_args *g, const lc_case *c);
/* The peers' --peers names in order, NULL past the end: openblas, cusolver. */
const char *lc_peer_name(size_t i);
/* The same call by peer (a name lc_peer_name gives) on c's inputs into its outputs (c's info and
 * iter too), warmup untimed and repeat timed runs into res->run_ms (the caller's): res's status,
 * reason, device, build, upload and download times as the other commands' peers give them. */
void lc_peer_run(const char *peer, const lc_args *g, lc_case *c, tsl_context *ctx,
                 unsigned warmup, unsigned repeat, tsl_peer_result *res);

#endif
