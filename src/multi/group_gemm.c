/* group_gemm.c: GEMM on a group (tsl_group_[sd]gemm, docs/multi-device.md). Each device gets a
 * block of rows of C and op(A), split by the group's weights, and all of B; its worker runs the
 * host-memory GEMM pipeline (pipeline/gemm_pipeline.c) on that block, so its uploads, kernels and
 * downloads overlap, and the devices run at once. Nothing reaches the caller's C until every
 * device has its block: the pipeline computes into device buffers, the devices meet at a
 * barrier, and only then does each download its rows into C (commit). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "pipeline/gemm_pipeline.h"
#include "multi/group_internal.h"
#include "ops/ops.h"

/* The run's own copy of the call (multi/group_run.c). */
typedef struct {
    tsl__gemm_host h;
    size_t rows[GROUP_MAX], first[GROUP_MAX];
} gemm_job;

static size_t max1(size_t x)
{
    return x ? x : 1;
}

/* The pipeline's hooks on the run: it stops when the call is aborted, and touches the caller's
 * arrays only while the call lets it. */
static int pipe_stop(void *r)
{
    return tsl__run_stopped(r);
}

static int pipe_enter(void *r)
{
    return tsl__run_enter(r);
}

static void pipe_leave(void *r)
{
    tsl__run_leave(r);
}

static tsl_status gemm_worker(tsl__run *r, size_t i)
{
    gemm_job *j = tsl__run_job(r);
    tsl_context *ctx = tsl__run_ctx(r, i);
    tsl_group_part *part = tsl__run_part(r, i);
    double t0 = tsl__now_ms();
    tsl__pipe_hooks hooks = {pipe_stop, pipe_enter, pipe_leave, r, tsl__run_timeout(r)};
    tsl_status s =
        tsl__gemm_pipe_compute(ctx, &j->h, j->first[i], j->rows[i], &hooks, &part->timing);
    if (s != TSL_OK) return s;
    if ((s = tsl__run_fault_point(r, i, 0)) != TSL_OK) return s;
    /* Nothing reaches the caller's C until every device has its block. */
    if ((s = tsl__run_barrier(r, i, "the end of the GEMM on every device")) != TSL_OK) return s;
    if ((s = tsl__gemm_pipe_commit(ctx, &hooks, &part->timing)) != TSL_OK) return s;
    part->wall_ms = tsl__now_ms() - t0;
    return TSL_OK;
}

/* CBLAS rules, as tsl_[sd]gemm checks them; messages speak of the caller's arguments. */
static tsl_status check_gemm_args(tsl_group *g, const char *fn, const tsl__gemm_host *j)
{
    if (j->layout != TSL_ROW_MAJOR && j->layout != TSL_COL_MAJOR)
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                               "%s: layout %d is neither TSL_ROW_MAJOR nor TSL_COL_MAJOR", fn,
                               (int)j->layout);
    if (j->ta != TSL_NO_TRANS && j->ta != TSL_TRANS)
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                               "%s: transa %d is none of TSL_NO_TRANS, TSL_TRANS, TSL_CONJ_TRANS", fn,
                               (int)j->ta);
    if (j->tb != TSL_NO_TRANS && j->tb != TSL_TRANS)
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                               "%s: transb %d is none of TSL_NO_TRANS, TSL_TRANS, TSL_CONJ_TRANS", fn,
                               (int)j->tb);
    int row = j->layout == TSL_ROW_MAJOR;
    size_t a_need = max1(row == (j->ta == TSL_NO_TRANS) ? j->k : j->m);
    size_t b_need = max1(row == (j->tb == TSL_NO_TRANS) ? j->n : j->k);
    size_t c_need = max1(row ? j->n : j->m);
    if (j->lda < a_need)
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                               "%s: lda = %zu is smaller than %zu, which A needs", fn, j->lda,
                               a_need);
    if (j->ldb < b_need)
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                               "%s: ldb = %zu is smaller than %zu, which B needs", fn, j->ldb,
                               b_need);
    if (j->ldc < c_need)
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG,
                               "%s: ldc = %zu is smaller than %zu, which C needs", fn, j->ldc,
                               c_need);
    if (j->m == 0 || j->n == 0) return TSL_OK;
    if (!j->c) return tsl__group_fail(g, TSL_ERR_INVALID_ARG, "%s: C is NULL", fn);
    if (j->k > 0 && j->alpha != 0.0 && (!j->a || !j->b))
        return tsl__group_fail(g, TSL_ERR_INVALID_ARG, "%s: %s is NULL", fn, j->a ? "B" : "A");
    if (j->m > INT_MAX || j->n > INT_MAX || j->k > INT_MAX || j->lda > INT_MAX ||
        j->ldb > INT_MAX || j->ldc > INT_MAX)
        return tsl__group_fail(g, TSL_ERR_UNSUPPORTED,
                               "%s: sizes and leading dimensions above 2^31-1 are not supported",
                               fn);
    return TSL_OK;
}

static tsl_status group_gemm(tsl_group *g, const char *fn, const tsl__gemm_host *h)
{
    if (!g) return tsl__fail(NULL, TSL_ERR_INVALID_ARG, "%s: g is NULL", fn);
    tsl_status s = tsl__group_begin(g, fn, 0, NULL);
    if (s != TSL_OK) return s;
    if ((s = check_gemm_args(g, fn, h)) != TSL_OK) return s;
    if (h->m == 0 || h->n == 0) return TSL_OK; /* the BLAS quick return */
    gemm_job j;
    memset(&j, 0, sizeof j);
    j.h = *h;
    double w[GROUP_MAX];
    if ((s = tsl__group_weights(g, "gemm", h->dbl, w)) != TSL_OK) return s;
    tsl__split_rows(h->m, w, g->count, j.rows);
    if ((s = tsl__group_begin(g, fn, h->dbl, j.rows)) != TSL_OK) return s;
    int member[GROUP_MAX];
    size_t first = 0;
    for (size_t i = 0; i < g->count; ++i) {
        j.first[i] = first;
        first += j.rows[i];
        member[i] = j.rows[i] > 0;
        g->parts[i].first_row = j.first[i];
        g->parts[i].rows = j.rows[i];
        g->parts[i].weight = w[i];
        g->times.devices += member[i] != 0;
    }
    tsl__run *r = tsl__run_new(g, gemm_worker, &j, sizeof j, NULL, member);
    if (!r) return tsl__group_fail(g, TSL_ERR_OUT_OF_MEMORY, "out of host memory for the workers");
    double t0 = tsl__now_ms();
    s = tsl__run_go(g, r);
    g->times.wall_ms = tsl__now_ms() - t0;
    for (size_t i = 0; s == TSL_OK && i < g->count; ++i) {
        g->parts[i].timing = tsl__run_part(r, i)->timing;
        g->parts[i].wall_ms = tsl__run_part(r, i)->wall_ms;
        if (member[i] && g->parts[i].timing.kernel_ms > g->times.phase_ms)
            g->times.phase_ms = g->parts[i].timing.kernel_ms;
    }
    tsl__run_end(g, r);
    return s;
}

tsl_status tsl_group_sgemm(tsl_group *g, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                           size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                           const float *b, size_t ldb, float beta, float *c, size_t ldc)
{
    tsl__gemm_host h = {.dbl = 0, .layout = layout, .ta = tsl__real_trans(transa),
                        .tb = tsl__real_trans(transb), .m = m, .n = n, .k = k, .lda = lda,
                        .ldb = ldb, .ldc = ldc, .alpha = alpha, .beta = beta, .a = a, .b = b,
                        .c = c};
    return group_gemm(g, "tsl_group_sgemm", &h);
}

tsl_status tsl_group_dgemm(tsl_group *g, tsl_layout layout, tsl_trans transa, tsl_trans transb,
                           size_t m, size_t n, size_t k, double alpha, const double *a, size_t lda,
                           const double *b, size_t ldb, double beta, double *c, size_t ldc)
{
    tsl__gemm_host h = {.dbl = 1, .layout = layout, .ta = tsl__real_trans(transa),
                        .tb = tsl__real_trans(transb), .m = m, .n = n, .k = k, .lda = lda,
                        .ldb = ldb, .ldc = ldc, .alpha = alpha, .beta = beta, .a = a, .b = b,
                        .c = c};
    return group_gemm(g, "tsl_group_dgemm", &h);
}
