/* multi.c: the runner of `tessel gemm|poisson --devices ...` and `--distributed` (multi.h,
 * docs/multi-device.md): the options they add, and for each op the data of a case, the call that
 * runs it, its --verify and its rate. The executor (a tsl_group of this host's devices, or the MPI
 * ranks of src/multi) is multi_exec.c; measuring a case on the group and on each device alone, and
 * the report, multi_run.c. Under MPI every rank runs this same code, in the same order, since
 * every executor call is collective; only the root (rank 0, or the one process) has the data,
 * verifies, and writes the report. */
#include "multi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "common.h"
#include "multi_exec.h"
#include "multi_run.h"
#include "output.h"
#include "problems.h"
#include "ref/ref.h"
/* ---- options -------------------------------------------------------------------------------- */

int cli_multi_check(const char *cmd, const cli_multi_opts *o, const char *device, int peers,
                    int variant_all, int copy_row)
{
    if (!o->devices && !o->distributed) {
        if (o->weights || !isnan(o->timeout))
            return cli_error(CLI_EXIT_USAGE, "%s: --%s goes with --devices or --distributed", cmd,
                             o->weights ? "weights" : "timeout");
        return 0;
    }
    if (o->devices && o->distributed)
        return cli_error(CLI_EXIT_USAGE,
                         "%s: give --devices (this host's devices) or --distributed (one device "
                         "per MPI rank), not both",
                         cmd);
    if (o->devices && device)
        return cli_error(CLI_EXIT_USAGE,
                         "%s: give --device (one device) or --devices (several), not both", cmd);
    if (peers)
        return cli_error(CLI_EXIT_USAGE, "%s: --peers runs on one device: not with --%s", cmd,
                         o->devices ? "devices" : "distributed");
    if (variant_all)
        return cli_error(CLI_EXIT_USAGE,
                         "%s: --%s runs one variant on every device: name it with --variant", cmd,
                         o->devices ? "devices" : "distributed");
    if (copy_row)
        return cli_error(CLI_EXIT_USAGE, "%s: --copy is a single-device row: not with --%s", cmd,
                         o->devices ? "devices" : "distributed");
    if (!isnan(o->timeout) && !(o->timeout > 0 && o->timeout <= 1e7))
        return cli_error(CLI_EXIT_USAGE, "%s: --timeout must be a number of seconds > 0", cmd);
    if (o->weights && strcmp(o->weights, "calibrate") != 0 && strcmp(o->weights, "cu") != 0) {
        cli_name_list list;
        if (cli_split_names(o->weights, &list) != 0)
            return cli_error(CLI_EXIT_USAGE,
                             "%s: --weights expects calibrate, cu, or numbers W1,W2,... (one "
                             "per device), got '%s'",
                             cmd, o->weights);
        double sum = 0;
        for (size_t i = 0; i < list.n; ++i) {
            double v;
            if (cli_parse_real(list.v[i], &v) != 0 || !(v >= 0) || !isfinite(v))
                return cli_error(CLI_EXIT_USAGE,
                                 "%s: --weights: '%s' is not a number >= 0 (calibrate, cu, or "
                                 "W1,W2,... one per device)",
                                 cmd, list.v[i]);
            sum += v;
        }
        if (!(sum > 0))
            return cli_error(CLI_EXIT_USAGE,
                             "%s: --weights %s gives every device 0 rows: one weight must be > 0",
                             cmd, o->weights);
    }
    return 0;
}

/* ---- GEMM ------------------------------------------------------------------------------------ */

typedef struct {
    const cli_multi_opts *o;
    tsl_layout lay;
    tsl_trans ta, tb;
    double alpha, beta;
    const cli_multi_gemm_case *c;
    void *a, *b, *c0, *out;
    double *ref;
} gemm_data;

static tsl_status gemm_call(cli_executor *ex, void *arg, unsigned run)
{
    gemm_data *d = arg;
    size_t es = d->o->es;
    if (ex->root && d->beta != 0.0)
        memcpy(d->out, d->c0, d->c->ec * es);
    else if (ex->root && run == 0)
        cli_fill_nan(d->o->is_double, d->out, d->c->ec); /* a forgotten element fails --verify */
    return cli_ex_gemm(ex, d->o->is_double, d->lay, d->ta, d->tb, d->c, d->alpha, d->a, d->b,
                       d->beta, d->out);
}

static double gemm_err(const gemm_data *d, size_t first, size_t rows)
{
    /* rows first.. of C: runs of the row-major view (layouts as tsl__row_block lays them) */
    int row = d->lay == TSL_ROW_MAJOR;
    size_t off = row ? first * d->c->ldc : first, srows = row ? rows : d->c->n;
    size_t len = row ? d->c->n : rows, es = d->o->es;
    const char *out = (const char *)d->out + off * es;
    return d->o->is_double ? tsl_ref_rel_err_d(srows, len, (const double *)out, d->c->ldc,
                                               d->ref + off, d->c->ldc)
                           : tsl_ref_rel_err_f(srows, len, (const float *)out, d->c->ldc,
                                               d->ref + off, d->c->ldc);
}

static void gemm_verify(void *arg, const cli_measurement *m, double *err, int *ok, double *unit_err,
                        int *unit_ok)
{
    gemm_data *d = arg;
    double tol =
        isnan(d->o->tolerance) ? tsl_ref_gemm_tolerance(d->o->is_double, d->c->k) : d->o->tolerance;
    *err = gemm_err(d, 0, d->c->m);
    *ok = *err <= tol;
    for (size_t i = 0; i < m->count; ++i) {
        if (!m->parts[i].rows) continue;
        unit_err[i] = gemm_err(d, m->parts[i].first_row, m->parts[i].rows);
        unit_ok[i] = unit_err[i] <= tol;
    }
}

static double gemm_flops(const void *ctx, size_t rows)
{
    const cli_multi_gemm_case *c = ctx;
    return 2.0 * (double)rows * (double)c->n * (double)c->k;
}

int cli_multi_gemm(const cli_multi_opts *o, tsl_layout lay, tsl_trans ta, tsl_trans tb,
                   double alpha, double beta, const cli_multi_gemm_case *cases, size_t ncases)
{
    cli_executor ex;
    double *given = NULL, *w = NULL;
    cli_row_store st = {0};
    int any_failed = 0;
    int rc = cli_multi_prepare(&ex, "gemm", "gemm", o, 0, &given, &w);
    for (size_t ci = 0; rc == 0 && ci < ncases; ++ci) {
        const cli_multi_gemm_case *c = &cases[ci];
        gemm_data d = {o, lay, ta, tb, alpha, beta, c, NULL, NULL, NULL, NULL, NULL};
        size_t es = o->es;
        if (ex.root) {
            d.a = malloc(c->ea ? c->ea * es : es);
            d.b = malloc(c->eb ? c->eb * es : es);
            d.c0 = malloc(c->ec ? c->ec * es : es);
            d.out = malloc(c->ec ? c->ec * es : es);
            if (!d.a || !d.b || !d.c0 || !d.out) {
                rc = cli_ex_fail(&ex, "gemm", "out of host memory for the matrices");
            } else {
                cli_gemm_fill(o->is_double, o->seed, ci, d.a, c->ea, d.b, c->eb, d.c0, c->ec);
                if (o->verify) {
                    double *ad = cli_to_double(o->is_double, d.a, c->ea);
                    double *bd = cli_to_double(o->is_double, d.b, c->eb);
                    d.ref = cli_to_double(o->is_double, d.c0, c->ec);
                    if (!ad || !bd || !d.ref)
                        rc = cli_ex_fail(&ex, "gemm", "out of host memory for the reference");
                    else
                        tsl_ref_dgemm(lay, ta, tb, c->m, c->n, c->k, alpha, ad, c->lda, bd, c->ldb,
                                      beta, d.ref, c->ldc);
                    free(ad), free(bd);
                }
            }
        }
        if (rc == 0) {
            cli_case_desc desc = {"gemm",
                                  o->is_double ? "double" : "single",
                                  "",
                                  (long long)c->m,
                                  (long long)c->n,
                                  (long long)c->k,
                                  gemm_flops,
                                  c,
                                  0};
            snprintf(desc.label, sizeof desc.label, "gemm %zux%zux%zu", c->m, c->n, c->k);
            cli_case_ops ops = {gemm_call, &d, gemm_verify};
            unsigned long long largest = c->ea > c->eb ? c->ea : c->eb;
            if (c->ec > largest) largest = c->ec;
            largest *= es;
            long double total = ((long double)c->ea + c->eb + c->ec) * es;
            if (ex.root)
                cli_progress("gemm %zu/%zu %zux%zux%zu on %zu %ss", ci + 1, ncases, c->m, c->n,
                             c->k, ex.count, ex.unit);
            rc = cli_multi_run_case(&ex, "gemm", o, &desc, &ops, w, largest, total, given, &st,
                                    &any_failed);
        }
        free(d.a), free(d.b), free(d.c0), free(d.out), free(d.ref);
    }
    if (rc == 0 && ex.root) {
        char details[200];
        snprintf(details, sizeof details, "%s-major, op(A)=%s, op(B)=%s, alpha=%g, beta=%g",
                 lay == TSL_COL_MAJOR ? "col" : "row", ta == TSL_TRANS ? "A^T" : "A",
                 tb == TSL_TRANS ? "B^T" : "B", alpha, beta);
        rc = cli_multi_finish(&ex, o, "gemm", details, w, &st, any_failed);
    }
    free(st.rows);
    free(given), free(w);
    cli_ex_close(&ex);
    return rc;
}

/* ---- Poisson -------------------------------------------------------------------------------- */

typedef struct {
    const cli_multi_opts *o;
    size_t n;
    int iters;
    double tol;
    void *f, *u0, *out;
    double *fd, *u0d, *ref;
    int ref_sweeps;
    tsl_poisson_info info;
} poisson_data;

static tsl_status poisson_call(cli_executor *ex, void *arg, unsigned run)
{
    (void)run;
    poisson_data *d = arg;
    if (ex->root) memcpy(d->out, d->u0, d->n * d->n * d->o->es);
    return cli_ex_poisson(ex, d->o->is_double, d->n, d->f, d->out, d->iters, d->tol, &d->info);
}

static void poisson_verify(void *arg, const cli_measurement *m, double *err, int *ok,
                           double *unit_err, int *unit_ok)
{
    poisson_data *d = arg;
    size_t n = d->n;
    if (!d->ref || d->ref_sweeps != d->info.iterations) {
        free(d->ref);
        d->ref = malloc(n * n * sizeof *d->ref);
        if (!d->ref) {
            *ok = 0;
            return;
        }
        memcpy(d->ref, d->u0d, n * n * sizeof *d->ref);
        tsl_ref_jacobi(n, d->fd, d->ref, d->info.iterations);
        d->ref_sweeps = d->info.iterations;
    }
    double tol = cli_poisson_tolerance(d->o->is_double, d->o->tolerance, d->info.iterations);
    *err = cli_poisson_error(d->o->is_double, d->out, d->ref, n * n);
    *ok = *err <= tol;
    for (size_t i = 0; i < m->count; ++i) {
        if (!m->parts[i].rows) continue;
        size_t off = m->parts[i].first_row * n;
        unit_err[i] = cli_poisson_error(d->o->is_double, (const char *)d->out + off * d->o->es,
                                        d->ref + off, m->parts[i].rows * n);
        unit_ok[i] = unit_err[i] <= tol;
    }
}

/* Per sweep, as `tessel poisson` counts it: the grid rows read (with the two neighbouring rows),
 * f and the new values of the rows, once each; times the sweeps. */
static double poisson_bytes(const void *ctx, size_t rows)
{
    const poisson_data *d = ctx;
    double n = (double)d->n, inner = (double)rows * (n - 2);
    double read_u = rows + 2 >= d->n ? n * n : ((double)rows + 2) * n;
    return (read_u + 2.0 * inner) * (double)d->o->es * (double)d->info.iterations;
}

int cli_multi_poisson(const cli_multi_opts *o, const size_t *grids, size_t ngrids, size_t iters,
                      double tol, size_t check_every, int random_problem)
{
    cli_executor ex;
    double *given = NULL, *w = NULL;
    cli_row_store st = {0};
    int any_failed = 0;
    int rc = cli_multi_prepare(&ex, "poisson", "poisson", o, (long)check_every, &given, &w);
    for (size_t gi = 0; rc == 0 && gi < ngrids; ++gi) {
        size_t n = grids[gi], es = o->es;
        poisson_data d;
        memset(&d, 0, sizeof d);
        d.o = o, d.n = n, d.iters = (int)iters, d.tol = tol;
        if (ex.root) {
            d.f = malloc(n * n * es);
            d.u0 = malloc(n * n * es);
            d.out = malloc(n * n * es);
            if (!d.f || !d.u0 || !d.out) {
                rc = cli_ex_fail(&ex, "poisson", "out of host memory for the grids");
            } else {
                cli_poisson_problem(random_problem, o->is_double, o->seed, gi, n, d.f, d.u0);
                if (o->verify) {
                    d.fd = cli_to_double(o->is_double, d.f, n * n);
                    d.u0d = cli_to_double(o->is_double, d.u0, n * n);
                    if (!d.fd || !d.u0d)
                        rc = cli_ex_fail(&ex, "poisson", "out of host memory for the reference");
                }
            }
        }
        if (rc == 0) {
            cli_case_desc desc = {"poisson",
                                  o->is_double ? "double" : "single",
                                  "",
                                  (long long)n,
                                  (long long)n,
                                  (long long)iters,
                                  poisson_bytes,
                                  &d,
                                  1};
            snprintf(desc.label, sizeof desc.label, "poisson grid %zu", n);
            cli_case_ops ops = {poisson_call, &d, poisson_verify};
            unsigned long long largest = (unsigned long long)n * n * es;
            long double total = 3.0L * (long double)largest;
            if (ex.root)
                cli_progress("poisson %zu/%zu grid %zu on %zu %ss", gi + 1, ngrids, n, ex.count,
                             ex.unit);
            size_t before = st.n;
            rc = cli_multi_run_case(&ex, "poisson", o, &desc, &ops, w, largest, total, given, &st,
                                    &any_failed);
            for (size_t i = before; rc == 0 && i < st.n; ++i) /* k: the sweeps done */
                st.rows[i].row.k = d.info.iterations;
        }
        free(d.f), free(d.u0), free(d.out), free(d.fd), free(d.u0d), free(d.ref);
    }
    if (rc == 0 && ex.root) {
        char details[200];
        snprintf(details, sizeof details, "%s problem, --iters %zu, --tol %g",
                 random_problem ? "random" : "sine", iters, tol);
        rc = cli_multi_finish(&ex, o, "poisson (Jacobi)", details, w, &st, any_failed);
    }
    free(st.rows);
    free(given), free(w);
    cli_ex_close(&ex);
    return rc;
}
