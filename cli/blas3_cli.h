/* blas3_cli.h: the runner of `tessel blas3` (SYMM, SYRK, SYR2K, TRMM, TRSM) and of `tessel gemm
 * --batch` (strided batched GEMM), cli/cmd_blas3.c. `tessel gemm` hands its parsed options over
 * when --batch is given. */
#ifndef TESSEL_CLI_BLAS3_H
#define TESSEL_CLI_BLAS3_H

#include <stddef.h>

#include "args.h"

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

#endif
