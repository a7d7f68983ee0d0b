/* lapack_peers.c: the peers of `tessel lapack` (lapack_cli.h), each on the case's inputs into its
 * outputs, so that --verify checks a peer's result exactly as it checks tessel's:
 *   openblas  the LAPACK OpenBLAS carries (Fortran interface, the host cores), one call per run,
 *             timed with the host clock around it; column-major only
 *   cusolver  cuSOLVER's dense LAPACK on the CUDA device that is tessel's device, one session of
 *             warmup + repeat runs timed by CUDA events (cli/peers/peer_cusolver.c says what each
 *             routine maps to and what is skipped)
 * Both give a tsl_peer_result, as the other commands' peers do (peers.h), and set the case's info
 * and iter. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "lapack_cli.h"
#include "peer_cusolver.h"
#include "peer_openblas.h"

/* ---- openblas: OpenBLAS's own LAPACK, Fortran interface -------------------------------------- */

typedef int fi;
#define F2(T, p)                                                                                \
    void p##getrf_(const fi *, const fi *, T *, const fi *, fi *, fi *);                         \
    void p##getrs_(const char *, const fi *, const fi *, const T *, const fi *, const fi *, T *, \
                   const fi *, fi *, size_t);                                                   \
    void p##gesv_(const fi *, const fi *, T *, const fi *, fi *, T *, const fi *, fi *);         \
    void p##potrf_(const char *, const fi *, T *, const fi *, fi *, size_t);                    \
    void p##potrs_(const char *, const fi *, const fi *, const T *, const fi *, T *, const fi *, \
                   fi *, size_t);                                                               \
    void p##posv_(const char *, const fi *, const fi *, T *, const fi *, T *, const fi *, fi *,  \
                  size_t);                                                                      \
    void p##geqrf_(const fi *, const fi *, T *, const fi *, T *, T *, const fi *, fi *);         \
    void p##ormqr_(const char *, const char *, const fi *, const fi *, const fi *, const T *,    \
                   const fi *, const T *, T *, const fi *, T *, const fi *, fi *, size_t,       \
                   size_t);                                                                     \
    void p##gels_(const char *, const fi *, const fi *, const fi *, T *, const fi *, T *,        \
                  const fi *, T *, const fi *, fi *, size_t);
F2(float, s)
F2(double, d)
#undef F2
void dsgesv_(const fi *, const fi *, double *, const fi *, fi *, const double *, const fi *,
             double *, const fi *, double *, float *, fi *, fi *);
void dsposv_(const char *, const fi *, const fi *, double *, const fi *, const double *,
             const fi *, double *, const fi *, double *, float *, fi *, fi *, size_t);

/* One call on c's inputs into its outputs: the call's wall-clock seconds, or -1 with *why set. */
static double openblas_call(const lc_args *g, lc_case *c, const char **why)
{
    if (g->lay != TSL_COL_MAJOR) {
        *why = "its LAPACK is column-major only (run --layout col)";
        return -1;
    }
    size_t ea = lc_a_elems(c), eb = lc_b_elems(c), es = g->es;
    memcpy(c->a, c->a0, ea * es);
    if (c->b0) memcpy(c->b, c->b0, eb * es);
    if (c->ipiv0) memcpy(c->ipiv, c->ipiv0, c->n * sizeof(int));
    fi m = (fi)c->m, n = (fi)c->n, k = (fi)c->k, r = (fi)c->nrhs, lda = (fi)c->lda,
       ldb = (fi)c->ldb, info = 0, iter = 0, lw = -1;
    const char *u = g->uplo == TSL_LOWER ? "L" : "U", *t = g->trans == TSL_TRANS ? "T" : "N",
               *sd = g->side == TSL_LEFT ? "L" : "R";
    /* the workspace: queried, or the mixed solvers' n (n + nrhs) */
    double q = 0;
    float qs = 0;
    int d = g->dbl;
    if (g->op == LC_GEQRF)
        d ? dgeqrf_(&m, &n, c->a, &lda, c->tau, &q, &lw, &info)
          : sgeqrf_(&m, &n, c->a, &lda, c->tau, &qs, &lw, &info);
    if (g->op == LC_ORMQR)
        d ? dormqr_(sd, t, &m, &n, &k, c->a, &lda, c->tau0, c->b, &ldb, &q, &lw, &info, 1, 1)
          : sormqr_(sd, t, &m, &n, &k, c->a, &lda, c->tau0, c->b, &ldb, &qs, &lw, &info, 1, 1);
    if (g->op == LC_GELS)
        d ? dgels_(t, &m, &n, &r, c->a, &lda, c->b, &ldb, &q, &lw, &info, 1)
          : sgels_(t, &m, &n, &r, c->a, &lda, c->b, &ldb, &qs, &lw, &info, 1);
    size_t words = d ? (size_t)q : (size_t)qs;
    if (g->op == LC_DSGESV || g->op == LC_DSPOSV) words = c->n * (c->n + c->nrhs);
    void *work = malloc((words + 1) * (d ? sizeof(double) : sizeof(float)));
    float *swork = g->op == LC_DSGESV || g->op == LC_DSPOSV
                       ? malloc((c->n * (c->n + c->nrhs) + 1) * sizeof(float))
                       : NULL;
    if (!work || ((g->op == LC_DSGESV || g->op == LC_DSPOSV) && !swork)) {
        free(work), free(swork);
        *why = "out of host memory for its workspace";
        return -1;
    }
    lw = (fi)words;
    if (lw < 1) lw = 1;
    double t0 = cli_now_s();
#define PICK(f, ...) (d ? d##f(__VA_ARGS__) : s##f(__VA_ARGS__))
    switch (g->op) {
    case LC_GETRF: PICK(getrf_, &m, &n, c->a, &lda, c->ipiv, &info); break;
    case LC_GETRS: PICK(getrs_, t, &n, &r, c->a, &lda, c->ipiv, c->b, &ldb, &info, 1); break;
    case LC_GESV: PICK(gesv_, &n, &r, c->a, &lda, c->ipiv, c->b, &ldb, &info); break;
    case LC_POTRF: PICK(potrf_, u, &n, c->a, &lda, &info, 1); break;
    case LC_POTRS: PICK(potrs_, u, &n, &r, c->a, &lda, c->b, &ldb, &info, 1); break;
    case LC_POSV: PICK(posv_, u, &n, &r, c->a, &lda, c->b, &ldb, &info, 1); break;
    case LC_GEQRF: PICK(geqrf_, &m, &n, c->a, &lda, c->tau, work, &lw, &info); break;
    case LC_ORMQR:
        PICK(ormqr_, sd, t, &m, &n, &k, c->a, &lda, c->tau0, c->b, &ldb, work, &lw, &info, 1, 1);
        break;
    case LC_GELS: PICK(gels_, t, &m, &n, &r, c->a, &lda, c->b, &ldb, work, &lw, &info, 1); break;
    case LC_DSGESV:
        dsgesv_(&n, &r, c->a, &lda, c->ipiv, c->b0, &ldb, c->x, &ldb, work, swork, &iter, &info);
        break;
    default:
        dsposv_(u, &n, &r, c->a, &lda, c->b0, &ldb, c->x, &ldb, work, swork, &iter, &info, 1);
    }
#undef PICK
    double secs = cli_now_s() - t0;
    free(work), free(swork);
    c->info = info, c->iter = iter;
    return secs;
}

static void openblas_runs(const lc_args *g, lc_case *c, unsigned warmup, unsigned repeat,
                          tsl_peer_result *res)
{
    tsl_openblas_describe(res->device, sizeof res->device);
    const char *why = NULL;
    for (unsigned t = 0; t < warmup + repeat; ++t) {
        double secs = openblas_call(g, c, &why);
        if (secs < 0) break;
        if (t >= warmup) res->run_ms[t - warmup] = secs * 1e3;
    }
    if (why) tsl__peer_set(res, TSL_PEER_SKIPPED, "%s", why);
}

/* ---- cusolver -------------------------------------------------------------------------------- */

static void cusolver_runs(const lc_args *g, lc_case *c, tsl_context *ctx, unsigned warmup,
                          unsigned repeat, tsl_peer_result *res)
{
    static const tsl_lapack_peer_op ops[LC_NOPS] = {
        [LC_GETRF] = TSL_LP_GETRF,   [LC_GETRS] = TSL_LP_GETRS,  [LC_GESV] = TSL_LP_GESV,
        [LC_POTRF] = TSL_LP_POTRF,   [LC_POTRS] = TSL_LP_POTRS,  [LC_POSV] = TSL_LP_POSV,
        [LC_GEQRF] = TSL_LP_GEQRF,   [LC_ORMQR] = TSL_LP_ORMQR,  [LC_GELS] = TSL_LP_GELS,
        [LC_DSGESV] = TSL_LP_DSGESV, [LC_DSPOSV] = TSL_LP_DSPOSV};
    tsl_lapack_peer_args a = {.ctx = ctx, .op = ops[g->op], .is_double = g->dbl,
                              .layout = g->lay, .uplo = g->uplo, .trans = g->trans,
                              .side = g->side, .m = c->m, .n = c->n, .k = c->k, .nrhs = c->nrhs,
                              .a = c->a0, .lda = c->lda, .ea = lc_a_elems(c),
                              .b = c->b0, .ldb = c->ldb, .eb = lc_b_elems(c),
                              .ipiv = c->ipiv0, .tau = c->tau0,
                              .warmup = warmup, .repeat = repeat};
    tsl_lapack_peer_out out = {c->a, c->b, c->x, c->ipiv, c->tau, 0, 0};
    tsl__peer_cusolver_lapack(&a, res, &out);
    if (res->status == TSL_PEER_OK) c->info = out.info, c->iter = out.iter;
}

/* ---- the list -------------------------------------------------------------------------------- */

const char *lc_peer_name(size_t i)
{
    static const char *const names[] = {"openblas", "cusolver"};
    return i < sizeof names / sizeof names[0] ? names[i] : NULL;
}

void lc_peer_run(const char *peer, const lc_args *g, lc_case *c, tsl_context *ctx, unsigned warmup,
                 unsigned repeat, tsl_peer_result *res)
{
    res->status = TSL_PEER_OK;
    res->reason[0] = res->device[0] = '\0';
    res->build_ms = res->upload_ms = res->download_ms = NAN;
    c->info = c->iter = 0;
    if (strcmp(peer, "cusolver") == 0)
        cusolver_runs(g, c, ctx, warmup, repeat, res);
    else
        openblas_runs(g, c, warmup, repeat, res);
}
