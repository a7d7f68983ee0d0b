/* cmd_lapack.c: `tessel lapack --op getrf|getrs|gesv|potrf|potrs|posv|geqrf|ormqr|gels|dsgesv|
 * dsposv`: one device, random data per size, each routine timed as --warmup untimed and --repeat
 * timed calls (wall clock of the call, which returns when the device has finished: the host
 * synchronisations inside a factorization count), with its inputs rewritten before every call
 * (untimed). Device-resident through the tsl_X_buf routines; dsgesv and dsposv, which have no
 * buffer form, from host memory (their transfers count). Then the peers on the same data
 * (lapack_peers.c): openblas (the LAPACK OpenBLAS carries, on the host cores) and cusolver
 * (cuSOLVER on the CUDA device that is tessel's, device-resident). getrs, potrs and ormqr read
 * factors: tessel's factorization of the size's matrix, made once before the timed calls, for
 * tessel's rows and the peers alike.
 *
 * The data: uniform in [-1, 1); potrf, potrs, posv and dsposv add n to A's diagonal (symmetric
 * positive definite, the uplo triangle is what they read); dsgesv adds 2 (well conditioned, so
 * that the refinement converges). GFLOP/s counts LAPACK's flops (lapack_verify.c). --verify
 * reports LAPACK's test ratio in max_rel_err and fails a row at 30 or more (--tolerance sets
 * another bound), or where INFO is not 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "commands.h"
#include "common.h"
#include "lapack_cli.h"
#include "measure.h"
#include "output.h"
#include "tessel.h"

#define MAX_RUNS 100000u

typedef struct {
    lc_args g;
    int verify;
    double tolerance;
    size_t seed;
    const char *peers[CLI_MAX_LIST];
    size_t npeers;
    int peer_noted[CLI_MAX_LIST]; /* a skipped peer's reason is noted once */
    cli_variants vs;
    cli_session s;
} lc_job;

static int mixed(lc_op op)
{
    return op == LC_DSGESV || op == LC_DSPOSV;
}
static int symmetric(lc_op op)
{
    return op == LC_POTRF || op == LC_POTRS || op == LC_POSV || op == LC_DSPOSV;
}
/* The routine reads factors made before the timed calls. */
static int reads_factors(lc_op op)
{
    return op == LC_GETRS || op == LC_POTRS || op == LC_ORMQR;
}
static int has_rhs(lc_op op)
{
    return op != LC_GETRF && op != LC_POTRF && op != LC_GEQRF;
}

/* The shapes of one size (see lapack_cli.h). */
static void shape(const lc_job *j, size_t m, size_t n, size_t k, size_t nrhs, lc_case *c)
{
    memset(c, 0, sizeof *c);
    lc_op op = j->g.op;
    int general = op == LC_GETRF || op == LC_GEQRF || op == LC_GELS || op == LC_ORMQR;
    c->n = n, c->m = general ? m : n, c->nrhs = has_rhs(op) && op != LC_ORMQR ? nrhs : 0;
    c->k = op == LC_ORMQR ? k : 0;
    if (op == LC_ORMQR) {
        c->ar = j->g.side == TSL_LEFT ? c->m : c->n, c->ac = c->k;
        c->br = c->m, c->bc = c->n;
    } else {
        c->ar = c->m, c->ac = c->n;
        c->br = op == LC_GELS ? (c->m > c->n ? c->m : c->n) : c->n, c->bc = c->nrhs;
    }
    int col = j->g.lay == TSL_COL_MAJOR;
    c->lda = col ? c->ar : c->ac;
    c->ldb = col ? c->br : c->bc;
    if (c->lda == 0) c->lda = 1;
    if (c->ldb == 0) c->ldb = 1;
}

static void free_case(lc_case *c)
{
    free(c->a0), free(c->b0), free(c->a), free(c->b), free(c->x), free(c->ipiv0), free(c->ipiv);
    free(c->tau0), free(c->tau), free(c->araw);
}

/* Host arrays and data; factors for the routines that read them. 0, or an error message. */
static const char *make_data(lc_job *j, lc_case *c, size_t index)
{
    size_t es = j->g.es, ea = lc_a_elems(c), eb = lc_b_elems(c), kmax = c->ar + c->ac + 1;
    c->a0 = malloc(ea * es + es), c->a = malloc(ea * es + es);
    c->b0 = malloc(eb * es + es), c->b = malloc(eb * es + es), c->x = malloc(eb * es + es);
    c->ipiv0 = calloc(kmax, sizeof(int)), c->ipiv = calloc(kmax, sizeof(int));
    c->tau0 = calloc(kmax, es), c->tau = calloc(kmax, es);
    if (!c->a0 || !c->a || !c->b0 || !c->b || !c->x || !c->ipiv0 || !c->ipiv || !c->tau0 ||
        !c->tau)
        return "out of host memory";
    unsigned long long state = j->seed + 0x9E3779B97F4A7C15ull * (index + 1);
    cli_fill_random(j->g.dbl ? TSL_DOUBLE : TSL_SINGLE, c->a0, ea, &state);
    cli_fill_random(j->g.dbl ? TSL_DOUBLE : TSL_SINGLE, c->b0, eb, &state);
    double add = symmetric(j->g.op) ? (double)c->n : j->g.op == LC_DSGESV ? 2.0 : 0.0;
    for (size_t i = 0; add != 0 && i < c->n; ++i) {
        size_t at = i * c->lda + i;
        if (j->g.dbl)
            ((double *)c->a0)[at] += add;
        else
            ((float *)c->a0)[at] += (float)add;
    }
    c->araw = cli_to_double(j->g.dbl ? TSL_DOUBLE : TSL_SINGLE, c->a0, ea);
    if (!c->araw) return "out of host memory";
    if (!reads_factors(j->g.op)) return NULL;
    /* the factors the routine reads: tessel's own, once */
    tsl_context *ctx = j->s.ctx;
    tsl_layout L = j->g.lay;
    int info = 0, d = j->g.dbl;
    tsl_status st;
    if (j->g.op == LC_GETRS)
        st = d ? tsl_dgetrf(ctx, L, c->n, c->n, c->a0, c->lda, c->ipiv0, &info)
               : tsl_sgetrf(ctx, L, c->n, c->n, c->a0, c->lda, c->ipiv0, &info);
    else if (j->g.op == LC_POTRS)
        st = d ? tsl_dpotrf(ctx, L, j->g.uplo, c->n, c->a0, c->lda, &info)
               : tsl_spotrf(ctx, L, j->g.uplo, c->n, c->a0, c->lda, &info);
    else
        st = d ? tsl_dgeqrf(ctx, L, c->ar, c->ac, c->a0, c->lda, c->tau0)
               : tsl_sgeqrf(ctx, L, c->ar, c->ac, c->a0, c->lda, c->tau0);
    if (st != TSL_OK || info != 0) return "the factorization the routine reads failed";
    if (j->g.op == LC_ORMQR) { /* the ratio reads the reflectors */
        free(c->araw);
        c->araw = cli_to_double(d ? TSL_DOUBLE : TSL_SINGLE, c->a0, ea);
        if (!c->araw) return "out of host memory";
    }
    return NULL;
}

/* ---- the device rows -------------------------------------------------------------------------- */

typedef struct {
    lc_job *j;
    lc_case *c;
    tsl_buffer *da, *db;
} dev_run;

static tsl_status dev_call(void *arg, unsigned run, double *ms)
{
    (void)run;
    dev_run *r = arg;
    lc_case *c = r->c;
    const lc_args *g = &r->j->g;
    tsl_context *ctx = r->j->s.ctx;
    size_t es = g->es, ea = lc_a_elems(c), eb = lc_b_elems(c);
    tsl_status st = TSL_OK;
    /* the inputs, untimed */
    if (mixed(g->op)) {
        memcpy(c->a, c->a0, ea * es);
    } else {
        st = tsl_buffer_write(ctx, r->da, 0, ea * es, c->a0);
        if (st == TSL_OK && has_rhs(g->op)) st = tsl_buffer_write(ctx, r->db, 0, eb * es, c->b0);
        if (st == TSL_OK && g->op == LC_GETRS) memcpy(c->ipiv, c->ipiv0, c->n * sizeof(int));
    }
    if (st != TSL_OK) return st;
    tsl_layout L = g->lay;
    int d = g->dbl, *info = &c->info;
    c->info = 0;
    double t0 = cli_now_s();
#define PICK(f, ...) (d ? tsl_d##f(__VA_ARGS__) : tsl_s##f(__VA_ARGS__))
    switch (g->op) {
    case LC_GETRF: st = PICK(getrf_buf, ctx, L, c->m, c->n, r->da, c->lda, c->ipiv, info); break;
    case LC_GETRS:
        st = PICK(getrs_buf, ctx, L, g->trans, c->n, c->nrhs, r->da, c->lda, c->ipiv, r->db,
                  c->ldb);
        break;
    case LC_GESV:
        st = PICK(gesv_buf, ctx, L, c->n, c->nrhs, r->da, c->lda, c->ipiv, r->db, c->ldb, info);
        break;
    case LC_POTRF: st = PICK(potrf_buf, ctx, L, g->uplo, c->n, r->da, c->lda, info); break;
    case LC_POTRS:
        st = PICK(potrs_buf, ctx, L, g->uplo, c->n, c->nrhs, r->da, c->lda, r->db, c->ldb);
        break;
    case LC_POSV:
        st = PICK(posv_buf, ctx, L, g->uplo, c->n, c->nrhs, r->da, c->lda, r->db, c->ldb, info);
        break;
    case LC_GEQRF: st = PICK(geqrf_buf, ctx, L, c->m, c->n, r->da, c->lda, c->tau); break;
    case LC_ORMQR:
        st = PICK(ormqr_buf, ctx, L, g->side, g->trans, c->m, c->n, c->k, r->da, c->lda, c->tau0,
                  r->db, c->ldb);
        break;
    case LC_GELS:
        st = PICK(gels_buf, ctx, L, g->trans, c->m, c->n, c->nrhs, r->da, c->lda, r->db, c->ldb,
                  info);
        break;
    case LC_DSGESV:
        st = tsl_dsgesv(ctx, L, c->n, c->nrhs, c->a, c->lda, c->ipiv, c->b0, c->ldb, c->x, c->ldb,
                        &c->iter, info);
        break;
    default:
        st = tsl_dsposv(ctx, L, g->uplo, c->n, c->nrhs, c->a, c->lda, c->b0, c->ldb, c->x,
                        c->ldb, &c->iter, info);
    }
#undef PICK
    *ms = (cli_now_s() - t0) * 1e3;
    return st;
}

/* The row's speed, ratio and verdict from the case's outputs. */
static void finish_row(lc_job *j, lc_case *c, double ms, cli_row *row)
{
    row->kernel_ms = ms;
    row->gflops = ms > 0 ? lc_flops(&j->g, c) / (ms * 1e6) : NAN;
    row->status = "ok";
    if (j->verify) {
        row->max_rel_err = lc_ratio(&j->g, c);
        double bound = isnan(j->tolerance) ? 30.0 : j->tolerance;
        if (!(row->max_rel_err < bound) || c->info != 0) {
            row->status = "verify_failed";
            j->s.any_failed = 1;
        }
    }
    row->extra_name[0] = "info";
    row->extra[0] = c->info;
    if (mixed(j->g.op)) row->extra_name[1] = "iter", row->extra[1] = c->iter;
}

static void set_shape(const lc_case *c, cli_row *row)
{
    row->m = (long long)c->m, row->n = (long long)c->n;
    row->k = (long long)(c->k ? c->k : c->nrhs);
}

static void run_variant(lc_job *j, lc_case *c, size_t vi, double *times)
{
    cli_row row;
    const char *v = j->vs.name[vi];
    cli_row_start(&j->s, lc_op_names[j->g.op], v, &row);
    row.precision = mixed(j->g.op) || j->g.dbl ? "double" : "single";
    set_shape(c, &row);
    if (!cli_variant_row(&j->s, &j->vs, vi, &row)) return;
    tsl_status st = tsl_context_set_variant(j->s.ctx, "getrf", v);
    size_t es = j->g.es, ea = lc_a_elems(c), eb = lc_b_elems(c);
    dev_run r = {j, c, NULL, NULL};
    if (st == TSL_OK && !mixed(j->g.op)) st = tsl_buffer_create(j->s.ctx, ea * es + es, &r.da);
    if (st == TSL_OK && !mixed(j->g.op)) st = tsl_buffer_create(j->s.ctx, eb * es + es, &r.db);
    if (st == TSL_OK) st = cli_time_runs(&j->s, dev_call, &r, times, &row, 0, NULL);
    if (st == TSL_OK && !mixed(j->g.op)) { /* the outputs */
        st = tsl_buffer_read(j->s.ctx, r.da, 0, ea * es, c->a);
        if (st == TSL_OK && has_rhs(j->g.op)) st = tsl_buffer_read(j->s.ctx, r.db, 0, eb * es, c->b);
    }
    tsl_buffer_destroy(r.da), tsl_buffer_destroy(r.db);
    if (st != TSL_OK) {
        if (cli_variant_skip(&j->s, &j->vs, st, v, &row)) return;
        char msg[1200];
        cli_status_text(&j->s, st, msg, sizeof msg);
        cli_error(0, "lapack: %s %s: %s", lc_op_names[j->g.op], v, msg);
        j->s.any_error = 1;
        cli_report_row(j->s.rep, &row);
        return;
    }
    finish_row(j, c, cli_median(times, j->s.repeat), &row);
    cli_report_row(j->s.rep, &row);
}

static void run_peer(lc_job *j, lc_case *c, size_t pi, double *times)
{
    const char *peer = j->peers[pi];
    cli_row row;
    cli_row_start(&j->s, lc_op_names[j->g.op], peer, &row);
    row.precision = mixed(j->g.op) || j->g.dbl ? "double" : "single";
    set_shape(c, &row);
    tsl_peer_result res;
    res.run_ms = times;
    res.c = NULL;
    lc_peer_run(peer, &j->g, c, j->s.ctx, j->s.warmup, (unsigned)j->s.repeat, &res);
    int got = cli_peer_row(&res, peer, &j->peer_noted[pi], &row);
    if (got < 0) {
        cli_error(0, "lapack: %s %s: %s", lc_op_names[j->g.op], peer, res.reason);
        j->s.any_error = 1;
    }
    if (got > 0) finish_row(j, c, cli_median(times, j->s.repeat), &row);
    cli_report_row(j->s.rep, &row);
}

static void run_size(lc_job *j, lc_case *c, size_t index, size_t total)
{
    double *times = malloc(j->s.repeat * sizeof *times);
    const char *err = times ? make_data(j, c, index) : "out of host memory";
    if (err) {
        cli_error(0, "lapack: %s %zux%zu: %s", lc_op_names[j->g.op], c->m, c->n, err);
        j->s.any_error = 1;
        free(times);
        return;
    }
    for (size_t i = 0; i < j->vs.n; ++i) {
        cli_progress("lapack %zu/%zu: %s", index + 1, total, j->vs.name[i]);
        run_variant(j, c, i, times);
    }
    for (size_t i = 0; i < j->npeers; ++i) {
        cli_progress("lapack %zu/%zu: peer %s", index + 1, total, j->peers[i]);
        run_peer(j, c, i, times);
    }
    free(times);
}

/* ---- options ---------------------------------------------------------------------------------- */

static void print_help(const cli_option *opts, size_t nopts)
{
    printf("Usage: tessel lapack --op OP [options]\n\n"
           "Runs a LAPACK routine (LAPACK's semantics; docs/lapack.md) on one OpenCL device for\n"
           "each size, on random data, and prints one row per variant, peer and size: the median\n"
           "wall time of --repeat calls, GFLOP/s of LAPACK's flop count, and with --verify\n"
           "LAPACK's test ratio (max_rel_err; a row fails at 30).\n\n"
           "  getrf  A = P L U (m x n)             getrs  op(A) X = B from getrf's factors\n"
           "  gesv   getrf, then getrs             potrf  A = L L^T or U^T U (uplo)\n"
           "  potrs  A X = B from potrf's factor   posv   potrf, then potrs\n"
           "  geqrf  A = Q R, Householder (m x n)  ormqr  C = op(Q) C or C op(Q), Q of k\n"
           "                                              reflectors (m x n C)\n"
           "  gels   least squares / minimum norm op(A) X = B (m x n A)\n"
           "  dsgesv A X = B, LU in single refined to double (from host memory)\n"
           "  dsposv the same with Cholesky (from host memory)\n\n"
           "The device rows are device-resident (tsl_X_buf) but for dsgesv and dsposv; getrs,\n"
           "potrs and ormqr read tessel's factors of the size's matrix, made before the timing.\n\n"
           "Options:\n");
    cli_help_options(opts, nopts, "getrf");
    printf("\nPeers: openblas (the LAPACK OpenBLAS carries, on the host cores; column-major) and\n"
           "cusolver (cuSOLVER's dense LAPACK on the CUDA device that is tessel's device, where\n"
           "this tessel was built with it; device-resident, CUDA event times; column-major; gels\n"
           "with m >= n and --trans n only; dsgesv is cusolverDnDSgesv; no dsposv, which\n"
           "cuSOLVER lacks). A peer that cannot run is a skipped row with the reason on stderr.\n\n"
           "Output: as tessel gemm: an aligned table, or --csv/--json with the columns\n  %s\n"
           "(k: nrhs, or ormqr's k; the table adds info, and iter for dsgesv and dsposv).\n\n"
           "Exit codes: 0 success, 1 a --verify check failed, 2 usage error, 3 runtime error.\n\n"
           "Examples:\n"
           "  tessel lapack --op getrf --size 4096 --precision double --verify"
           " --peers openblas,cusolver\n"
           "  tessel lapack --op gels -m 3000 -n 1000 --nrhs 4 --verify\n",
           cli_csv_header);
}

int cli_cmd_lapack(int argc, char **argv)
{
    lc_job j;
    memset(&j, 0, sizeof j);
    const char *op = NULL, *device = NULL, *variant = "auto", *precision = "single";
    const char *layout = "col", *side = "left", *uplo = "lower", *trans = "n";
    const char *csv = NULL, *json = NULL;
    size_t size = 0, m = 0, n = 0, k = 0, nrhs = 1, repeat = 3;
    unsigned warmup = 1;
    int quiet = 0, help = 0;
    cli_size_list sizes;
    memset(&sizes, 0, sizeof sizes);
    cli_name_list peers;
    memset(&peers, 0, sizeof peers);
    j.seed = 42, j.tolerance = NAN;
    const cli_option opts[] = {
        {"--op", NULL, CLI_STRING, &op, "OP",
         "getrf, getrs, gesv, potrf, potrs, posv, geqrf, ormqr, gels, dsgesv or dsposv "
         "(required)"},
        CLI_OPT_DEVICE(&device),
        {"--variant", NULL, CLI_STRING, &variant, "NAME",
         "getrf's leaf variant (getrf, gesv, dsgesv), 'all' or 'list'; default auto"},
        CLI_OPT_PRECISION(&precision),
        {"--size", NULL, CLI_COUNT, &size, "N", "m = n = k = N; default 1024"},
        {"--sizes", NULL, CLI_SIZE_LIST, &sizes, "A,B,...", "several square sizes, in turn"},
        {"-m", NULL, CLI_COUNT, &m, "M", "rows of A (getrf, geqrf, gels) or C (ormqr)"},
        {"-n", NULL, CLI_COUNT, &n, "N", "columns of A, or its order; C's columns (ormqr)"},
        {"-k", NULL, CLI_COUNT, &k, "K", "ormqr: the reflectors; default n"},
        {"--nrhs", NULL, CLI_COUNT, &nrhs, "R", "right-hand sides; default 1"},
        {"--layout", NULL, CLI_STRING, &layout, "L", "col or row (major); default col"},
        {"--uplo", NULL, CLI_STRING, &uplo, "U", "lower or upper (potrf ...); default lower"},
        {"--trans", NULL, CLI_STRING, &trans, "T", "n or t (getrs, ormqr, gels); default n"},
        {"--side", NULL, CLI_STRING, &side, "S", "left or right (ormqr); default left"},
        {"--repeat", NULL, CLI_COUNT, &repeat, "R", "timed runs, median reported; default 3"},
        {"--warmup", NULL, CLI_UINT, &warmup, "W", "untimed runs first; default 1"},
        CLI_OPT_VERIFY(&j.verify),
        {"--tolerance", NULL, CLI_REAL, &j.tolerance, "E",
         "--verify's bound on the test ratio instead of 30"},
        CLI_OPT_SEED(&j.seed),
        {"--peers", NULL, CLI_NAME_LIST, &peers, "P",
         "also run these peers on the same data: openblas, cusolver"},
        CLI_OPTS_OUTPUT(&csv, &json, &quiet, &help),
    };
    const size_t nopts = sizeof opts / sizeof opts[0];
    int rc = cli_read_options("lapack", argc, argv, opts, nopts, print_help);
    if (rc >= 0) return rc;
    if (strcmp(variant, "list") == 0) return cli_list_variants("getrf");
    if (!op) return cli_error(CLI_EXIT_USAGE, "lapack: --op is required (getrf, getrs, gesv, potrf, "
                                              "potrs, posv, geqrf, ormqr, gels, dsgesv, dsposv)");
    j.g.op = LC_NOPS;
    for (int i = 0; i < LC_NOPS; ++i)
        if (strcmp(op, lc_op_names[i]) == 0) j.g.op = (lc_op)i;
    if (j.g.op == LC_NOPS)
        return cli_error(CLI_EXIT_USAGE,
                         "lapack: --op expects getrf, getrs, gesv, potrf, potrs, posv, geqrf, "
                         "ormqr, gels, dsgesv or dsposv, got '%s'", op);
    int v = 0;
    if ((rc = cli_parse_choice("lapack", "--layout", layout, "col", "row", TSL_COL_MAJOR, TSL_ROW_MAJOR, &v))) return rc;
    j.g.lay = (tsl_layout)v;
    if ((rc = cli_parse_choice("lapack", "--uplo", uplo, "lower", "upper", TSL_LOWER, TSL_UPPER, &v))) return rc;
    j.g.uplo = (tsl_uplo)v;
    if ((rc = cli_parse_choice("lapack", "--trans", trans, "n", "t", TSL_NO_TRANS, TSL_TRANS, &v))) return rc;
    j.g.trans = (tsl_trans)v;
    if ((rc = cli_parse_choice("lapack", "--side", side, "left", "right", TSL_LEFT, TSL_RIGHT, &v))) return rc;
    j.g.side = (tsl_side)v;
    if ((rc = cli_parse_precision("lapack", precision, &j.g.dbl, &j.g.es))) return rc;
    if (mixed(j.g.op)) j.g.dbl = 1, j.g.es = sizeof(double); /* double in, single inside */
    if ((rc = cli_check_runs("lapack", repeat, warmup, MAX_RUNS))) return rc;
    if (!isnan(j.tolerance) && j.tolerance < 0)
        return cli_error(CLI_EXIT_USAGE, "lapack: --tolerance must not be negative");
    int lu = j.g.op == LC_GETRF || j.g.op == LC_GESV || j.g.op == LC_DSGESV;
    if (!lu && strcmp(variant, "auto") != 0)
        return cli_error(CLI_EXIT_USAGE,
                         "lapack: --variant names getrf's leaves: %s has only auto", op);
    if ((rc = cli_variants_select(&j.vs, "getrf", variant, "lapack", 1))) return rc;
    if ((rc = cli_select_peers("lapack", &peers, lc_peer_name, j.peers, &j.npeers))) return rc;
    if ((rc = cli_sizes("lapack", "--size", size, &sizes, 1024))) return rc;
    j.s.repeat = repeat;
    j.s.warmup = warmup;
    size_t ncases = sizes.n;
    lc_case cases[CLI_MAX_LIST];
    for (size_t i = 0; i < ncases; ++i) {
        size_t nn = n ? n : sizes.v[i], mm = m ? m : sizes.v[i];
        if (j.g.op == LC_ORMQR && (k ? k : nn) > (j.g.side == TSL_LEFT ? mm : nn))
            return cli_error(CLI_EXIT_USAGE, "lapack: ormqr's -k must not pass Q's order (%zu)",
                             j.g.side == TSL_LEFT ? mm : nn);
        shape(&j, mm, nn, k ? k : nn, nrhs, &cases[i]);
        long double bytes = (long double)(lc_a_elems(&cases[i]) + 2 * lc_b_elems(&cases[i])) *
                            j.g.es * 3.0L;
        long double host = cli_host_memory();
        if (host > 0 && bytes > host)
            return cli_error(CLI_EXIT_USAGE, "lapack: %zux%zu needs more host memory than this "
                                             "machine has", mm, nn);
    }
    rc = cli_session_open(&j.s, csv, json, quiet,
                          "variant,precision,m,n,k,kernel_ms,gflops,max_rel_err,status,extra0,"
                          "extra1,device",
                          device, j.g.dbl || mixed(j.g.op));
    if (rc) return rc;
    if ((rc = cli_variants_check(&j.vs, &j.s, "lapack"))) return cli_session_abort(&j.s, rc);
    snprintf(j.s.title, sizeof j.s.title, "%s on %s (%d:%d, %s), %s precision, %s-major%s%s",
             lc_op_names[j.g.op], j.s.dev.name, j.s.dev.platform_index, j.s.dev.device_index,
             j.s.dev.platform, mixed(j.g.op) ? "double (single inside)" : j.g.dbl ? "double" : "single",
             j.g.lay == TSL_COL_MAJOR ? "col" : "row",
             symmetric(j.g.op) ? (j.g.uplo == TSL_LOWER ? ", lower" : ", upper") : "",
             j.g.op == LC_GETRS || j.g.op == LC_ORMQR || j.g.op == LC_GELS
                 ? (j.g.trans == TSL_TRANS ? ", trans t" : ", trans n")
                 : "");
    for (size_t i = 0; i < ncases; ++i) {
        run_size(&j, &cases[i], i, ncases);
        free_case(&cases[i]);
    }
    return cli_session_close(&j.s);
}
