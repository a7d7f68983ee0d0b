/* blas3_cli.h: the runner of `tessel blas3` (SYMM, SYRK, SYR2K, TRMM, TRSM) and of `tessel gemm
 * --batch` (strided batched GEMM), cli/cmd_blas3.c. `tessel gemm` hands its parsed options over
 * when --batch is given. */
#ifndef TESSEL_CLI_BLAS3_H
#define TESSEL_CLI_BLAS3_H

#include <stddef.h>

#include "args.h"
#include "ref/ref_level3.h"
#include "tessel.h"

typedef struct {
    const char *device, *variant, *precision, *layout, *transa, *transb, *csv, *json;
    const cli_size_list *sizes;
    size_t size, m, n, k, batch, seed, repeat;
    unsigned warmup;
    double alpha, beta, tolerance;
    int verify, quiet;
    const cli_name_list *peer_names;
} cli_batched_opts;

/* `tessel gemm --batch B`: returns the exit code. */
int cli_gemm_batched(const cli_batched_opts *o);

/* `tessel blas3 --precision complex|doublecomplex`: the complex routine g describes, its _buf form
 * (cli/blas3_complex.c; dbl: double complex). */
tsl_status cli_blas3_zcall(tsl_context *x, const tsl_ref_z3_call *g, int dbl, const tsl_buffer *a,
                           const tsl_buffer *b, tsl_buffer *o);

#endif
