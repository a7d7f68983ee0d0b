/* tune_data.c: the data, call and check of one candidate of `tessel tune gemm` for one kind of
 * GEMM (tune_data.h): the same random data, reference and pass bound as `tessel gemm --verify`. */
#include "tune_data.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ref/ref.h"

const char *tune_kind_name(tune_kind kind)
{
    if (kind.prec == TSL_SINGLE && kind.math == TSL_MATH_TF32) return "tf32";
    if (kind.prec == TSL_SINGLE && kind.math == TSL_MATH_3XTF32) return "3xtf32";
    return cli_precision_name(kind.prec);
}

size_t tune_kind_elem(tune_kind kind)
{
    return cli_elem_size(kind.prec);
}

void tune_data_free(tune_data *d)
{
    tsl_buffer_destroy(d->a);
    tsl_buffer_destroy(d->b);
    tsl_buffer_destroy(d->c);
    free(d->out);
    free(d->ref);
    memset(d, 0, sizeof *d);
}

tsl_status tune_data_prepare(tsl_context *ctx, tune_kind kind, unsigned long long seed,
                             tune_shape sh, tune_data *d)
{
    memset(d, 0, sizeof *d);
    d->sh = sh;
    size_t es = tune_kind_elem(kind);
    size_t ea = sh.m * sh.k, eb = sh.k * sh.n, ec = sh.m * sh.n;
    void *ha = malloc(ea * es), *hb = malloc(eb * es);
    d->out = malloc(ec * es);
    d->ref = malloc(ec * sizeof *d->ref);
    double *a = NULL, *b = NULL;
    tsl_status st = TSL_ERR_OUT_OF_MEMORY;
    if (ha && hb && d->out && d->ref) {
        unsigned long long state = seed;
        cli_fill_random(kind.prec, ha, ea, &state);
        cli_fill_random(kind.prec, hb, eb, &state);
        /* the reference sees the values the kernel multiplies: the stored ones, and in TF32 math
         * those rounded to TF32 as the tensor cores round them (3xTF32 is held to the plain
         * product) */
        a = cli_to_double(kind.prec, ha, ea);
        b = cli_to_double(kind.prec, hb, eb);
    }
    if (a && b) {
        for (size_t i = 0; kind.math == TSL_MATH_TF32 && i < ea; ++i)
            a[i] = tsl_ref_round_tf32((float)a[i]);
        for (size_t i = 0; kind.math == TSL_MATH_TF32 && i < eb; ++i)
            b[i] = tsl_ref_round_tf32((float)b[i]);
        tsl_ref_dgemm(TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, sh.m, sh.n, sh.k, 1.0, a, sh.k, b,
                      sh.n, 0.0, d->ref, sh.n);
        st = tsl_buffer_create(ctx, ea * es, &d->a);
        if (st == TSL_OK) st = tsl_buffer_create(ctx, eb * es, &d->b);
        if (st == TSL_OK) st = tsl_buffer_create(ctx, ec * es, &d->c);
        if (st == TSL_OK) st = tsl_buffer_write(ctx, d->a, 0, ea * es, ha);
        if (st == TSL_OK) st = tsl_buffer_write(ctx, d->b, 0, eb * es, hb);
    }
    free(a);
    free(b);
    free(ha);
    free(hb);
    if (st != TSL_OK) tune_data_free(d);
    return st;
}

tsl_status tune_data_call(tsl_context *ctx, tune_kind kind, tune_data *d)
{
    tune_shape sh = d->sh;
    switch (kind.prec) {
    case TSL_DOUBLE:
        return tsl_dgemm_buf(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, sh.m, sh.n, sh.k, 1.0,
                             d->a, sh.k, d->b, sh.n, 0.0, d->c, sh.n);
    case TSL_HALF:
        return tsl_hgemm_buf(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, sh.m, sh.n, sh.k, 1.0f,
                             d->a, sh.k, d->b, sh.n, 0.0f, d->c, sh.n);
    case TSL_BFLOAT16:
        return tsl_bgemm_buf(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, sh.m, sh.n, sh.k, 1.0f,
                             d->a, sh.k, d->b, sh.n, 0.0f, d->c, sh.n);
    default:
        return tsl_sgemm_buf(ctx, TSL_ROW_MAJOR, TSL_NO_TRANS, TSL_NO_TRANS, sh.m, sh.n, sh.k, 1.0f,
                             d->a, sh.k, d->b, sh.n, 0.0f, d->c, sh.n);
    }
}

tsl_status tune_data_check(tsl_context *ctx, tune_kind kind, tune_data *d, double *err,
                           double *tol)
{
    tune_shape sh = d->sh;
    tsl_status st = tsl_buffer_read(ctx, d->c, 0, sh.m * sh.n * tune_kind_elem(kind), d->out);
    if (st != TSL_OK) return st;
    *err = kind.prec == TSL_DOUBLE ? tsl_ref_rel_err_d(sh.m, sh.n, d->out, sh.n, d->ref, sh.n)
           : kind.prec == TSL_HALF ? tsl_ref_rel_err_h(sh.m, sh.n, d->out, sh.n, d->ref, sh.n)
           : kind.prec == TSL_BFLOAT16
               ? tsl_ref_rel_err_b(sh.m, sh.n, d->out, sh.n, d->ref, sh.n)
               : tsl_ref_rel_err_f(sh.m, sh.n, d->out, sh.n, d->ref, sh.n);
    *tol = tsl_ref_gemm_tolerance(kind.prec, sh.k);
    return TSL_OK;
}
